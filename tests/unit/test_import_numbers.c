/* test_import_numbers.c - one rule for both importers: the same number spellings, value range
 * and workload names are accepted or refused by the CSV and the UnixBench importer alike. */
#include "unit.h"
#include "core/core.h"
#include "core/tmp.h"
#include "import/import_csv.h"
#include "import/import_store.h"
#include "import/import_unixbench.h"
#include "import/import_util.h"
#include "store/store.h"
#include "workloads/workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

#define SEP "########################################################"

/* A one-test log whose COUNT0 (the only number stored as given) is COUNT and program PROG. */
static char *ub_log(const char *count, const char *prog)
{
	return xasprintf("\n" SEP "\nPipe Throughput -- 1 copy\n"
			 "==> \"/x/pgms/%s\" 10 2>&1 >> \"/x/results/a.log\"\n\n#### Pass 1\n\n"
			 "# COUNT0: %s\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 10\n# pid: 1\n# status: 0\n\n"
			 "Count score:       1000.0\n\n"
			 ">>>> Results of 1 copy\n>>>> score: 100\n>>>> time: 10\n>>>> iterations: 1\n",
			 prog, count);
}

static int ub_parse(const char *count, const char *prog, struct ub_log *log, struct err *e)
{
	char *s = ub_log(count, prog);
	int r = import_unixbench_parse("m.log", s, strlen(s), log, e);
	free(s);
	return r;
}

static int csv_parse(const char *col, const char *value, const char *unit, struct csv_import *c, struct err *e)
{
	char *s = xasprintf("%s,unit\n%s,%s\n", col, value, unit); /* value: one or more fields */
	int r = import_csv_parse("t.csv", s, strlen(s), c, e);
	free(s);
	return r;
}

static char *repeat(const char *head, char ch, size_t n, const char *tail)
{
	char *s = xmalloc(strlen(head) + n + strlen(tail) + 1);
	strcpy(s, head);
	memset(s + strlen(head), ch, n);
	strcpy(s + strlen(head) + n, tail);
	return s;
}

/* Spellings of 1000 (accepted by both) and non-numbers (refused by both, one message). */
static void one_syntax_for_both_importers(void **state)
{
	(void)state;
	char *long_ones[] = {repeat("1000.", '0', 400, ""), repeat("", '0', 400, "1000"),
			     repeat("1", '0', 300, "e-297"), repeat("0.", '0', 300, "1e304")};
	const char *good[] = {"1000", "1000.", "1000.0", "01000", "+1000", "1e3", "1E+3", "1000e0000", "10000e-1",
			      ".1e4", long_ones[0], long_ones[1], long_ones[2], long_ones[3]};
	const char *bad[] = {"0x3e8", "inf", "nan", "infinity", "1e", "1e+", ".", "+", "1,000", "1_000", "10 00",
			     "--1000", "1000f", "1000\xff", "\xd9\xa1\xd9\xa0\xd9\xa0\xd9\xa0", "0b1111101000"};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		struct csv_import c;
		struct ub_log log;
		struct err e = {{0}};
		if (csv_parse("value", good[i], "lps", &c, &e))
			fail_msg("csv refused good %zu: %s", i, e.msg);
		assert_true(c.row[0].value == 1000);
		import_csv_free(&c);
		if (ub_parse(good[i], "pipe", &log, &e))
			fail_msg("unixbench refused good %zu: %s", i, e.msg);
		assert_true(log.test[0].pass[0].count == 1000);
		import_unixbench_free(&log);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct csv_import c;
		struct ub_log log;
		struct err e1 = {{0}}, e2 = {{0}};
		char *quoted = xasprintf("\"%s\"", bad[i]); /* "1,000" is one field */
		assert_int_equal(csv_parse("value", quoted, "lps", &c, &e1), -1);
		free(quoted);
		assert_int_equal(ub_parse(bad[i], "pipe", &log, &e2), -1);
		const char *m1 = strstr(e1.msg, "' is not a plain decimal number (like 3938.7");
		const char *m2 = strstr(e2.msg, "' is not a plain decimal number (like 3938.7");
		if (!m1 || !m2)
			fail_msg("bad %zu: csv '%s', unixbench '%s'", i, e1.msg, e2.msg);
	}
	for (size_t i = 0; i < sizeof long_ones / sizeof long_ones[0]; i++)
		free(long_ones[i]);
}

/* Long but plain numbers are numbers: out of range, not "not a number", in both. */
static void long_numbers_are_numbers(void **state)
{
	(void)state;
	char *big = repeat("1", '0', 308, ""), *tiny = repeat("0.", '0', 400, "1");
	const char *cases[] = {big, tiny, "1e99999999999999999999", "1e-99999999999999999999"};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct csv_import c;
		struct ub_log log;
		struct err e1 = {{0}}, e2 = {{0}};
		assert_int_equal(csv_parse("value", cases[i], "ops/s", &c, &e1), -1);
		assert_non_null(strstr(e1.msg, "t.csv:2:1: value "));
		assert_non_null(strstr(e1.msg, " is out of range (1e-12 to 1e+15)"));
		assert_int_equal(import_number(cases[i], strlen(cases[i]), -1e300, 1e300, &(double){0}),
				 i == 1 || i == 3 ? IMPORT_NUM_OK : IMPORT_NUM_RANGE);
		/* COUNT0 may be 0, so tiny ones pass its range; big ones are refused as out of range */
		int r = ub_parse(cases[i], "pipe", &log, &e2);
		if (i == 1 || i == 3) {
			import_unixbench_free(&log);
			continue;
		}
		assert_int_equal(r, -1);
		assert_non_null(strstr(e2.msg, " is out of range (0 to 1e+15)"));
	}
	free(big);
	free(tiny);
}

/* Import the one-pass log with its stored value (ops/s) forced to v; return the store's verdict. */
static int ub_store(struct store *s, double v, size_t k, struct err *e)
{
	struct ub_log log;
	assert_int_equal(ub_parse("1000", "pipe", &log, e), 0);
	const struct workload *w = wl_find(log.test[0].workload);
	assert_non_null(w);
	log.test[0].pass[0].score = v * wl_unixbench_units(w);
	char hash[32];
	snprintf(hash, sizeof hash, "h%zu", k);
	struct import_opts o = {0};
	struct import_result res;
	int r = import_store_unixbench(s, "m.log", hash, &log, &o, &res, e);
	if (!r)
		import_result_free(&res);
	import_unixbench_free(&log);
	return r;
}

/* 1e22 and 1e-307 ops/s used to pass the UnixBench importer; both now refuse them. */
static void one_value_range_for_both_importers(void **state)
{
	(void)state;
	char *path = xasprintf("%s/r.db", dir);
	struct store *s;
	struct err e = {{0}};
	if (store_open(path, STORE_RW, &s, &e))
		fail_msg("%s", e.msg);
	static const struct {
		const char *text;
		double v;
		bool ok;
	} cases[] = {{"1e22", 1e22, false},  {"1e-307", 1e-307, false}, {"0", 0, false},
		     {"2e15", 2e15, false},  {"5e14", 5e14, true},       {"2e-12", 2e-12, true},
		     {"3938.7", 3938.7, true}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct csv_import c;
		struct err e1 = {{0}}, e2 = {{0}};
		int r1 = csv_parse("value", cases[i].text, "ops/s", &c, &e1);
		if (!r1)
			import_csv_free(&c);
		int r2 = ub_store(s, cases[i].v, i, &e2);
		if ((r1 == 0) != cases[i].ok || (r2 == 0) != cases[i].ok)
			fail_msg("case %zu: csv '%s', unixbench '%s'", i, e1.msg, e2.msg);
		if (!cases[i].ok) {
			assert_non_null(strstr(e1.msg, "out of range (1e-12 to 1e+15)"));
			assert_non_null(strstr(e2.msg, "out of range (1e-12 to 1e+15)"));
		}
	}
	store_close(s);
	free(path);
}

/* Workload names: at most 64 bytes in both (UnixBench's are "unixbench." + the program). */
static void one_workload_rule_for_both_importers(void **state)
{
	(void)state;
	for (size_t len = 60; len <= 70; len++) {
		char *wl = repeat("unixbench.", 'x', len - 10, "");
		char *prog = repeat("", 'x', len - 10, "");
		struct csv_import c;
		struct ub_log log;
		struct err e1 = {{0}}, e2 = {{0}};
		char *row = xasprintf("%s,1", wl);
		int r1 = csv_parse("workload,value", row, "lps", &c, &e1);
		free(row);
		int r2 = ub_parse("1000", prog, &log, &e2);
		if (len <= IMPORT_MAX_WORKLOAD) {
			if (r1 || r2)
				fail_msg("len %zu: csv '%s', unixbench '%s'", len, e1.msg, e2.msg);
			assert_string_equal(log.test[0].workload, wl);
			import_csv_free(&c);
			import_unixbench_free(&log);
		} else {
			assert_int_equal(r1, -1);
			assert_int_equal(r2, -1);
			assert_non_null(strstr(e1.msg, IMPORT_WORKLOAD_RULE));
			assert_non_null(strstr(e2.msg, IMPORT_WORKLOAD_RULE));
		}
		free(wl);
		free(prog);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_syntax_for_both_importers),
		cmocka_unit_test(long_numbers_are_numbers),
		cmocka_unit_test(one_value_range_for_both_importers),
		cmocka_unit_test(one_workload_rule_for_both_importers),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
