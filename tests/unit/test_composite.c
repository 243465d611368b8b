/* test_composite.c - one index: UnixBench logs reproduce their printed index, units convert per test, composites never mix. */
#include "unit.h"
#include "analysis/composite.h"
#include "core/core.h"
#include "core/tmp.h"
#include "import/import_store.h"
#include "import/import_unixbench.h"
#include "store/store.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/unixbench/"

UNIT_TMPDIR_FIXTURE

/* Written out here, apart from composite.c: UnixBench 6 pgms/index.base. */
static double ub_baseline(const char *test)
{
	static const struct {
		const char *t;
		double b;
	} tab[] = {{"dhry2reg", 116700}, {"whetstone-double", 55}, {"execl", 43}, {"fstime", 3960},
		   {"fsbuffer", 1655},   {"fsdisk", 5800},         {"pipe", 12440}, {"context1", 4000},
		   {"spawn", 126},       {"shell1", 42.4},         {"shell8", 6},   {"syscall", 15000}};
	for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
		if (!strcmp(tab[i].t, test))
			return tab[i].b;
	return 0;
}

static struct store *open_db(const char *name)
{
	struct err e = {{0}};
	char *path = xasprintf("%s/%s", dir, name);
	struct store *s;
	if (store_open(path, STORE_RW, &s, &e))
		fail_msg("%s", e.msg);
	free(path);
	return s;
}

static void import_log(struct store *s, const char *path, struct ub_log *log)
{
	struct err e = {{0}};
	size_t len;
	char *buf = read_whole_file(path, 1 << 20, &len, &e);
	if (!buf)
		fail_msg("%s (run the tests from the repository root)", e.msg);
	assert_int_equal(import_unixbench_parse(path, buf, len, log, &e), 0);
	struct import_opts o = {0};
	struct import_result r;
	if (import_store_unixbench(s, path, path, log, &o, &r, &e))
		fail_msg("%s", e.msg);
	import_result_free(&r);
	free(buf);
}

static size_t one_run_composite(struct store *s, int64_t id, int copies, struct an_composite *c, double *value)
{
	struct err e = {{0}};
	struct store_set set;
	assert_int_equal(store_load_set(s, &id, 1, &set, &e), 0);
	size_t n = an_composites(&set, 1, copies, c);
	if (n) {
		struct an_composite_run *r;
		assert_int_equal(an_composite_runs(&set, &c[0], &r), 1);
		*value = exp(r[0].y);
		free(r);
	}
	store_set_free(&set);
	return n;
}

/* Item 1: the index of each fixture log equals UnixBench's own: the printed "Index
 * Score" where the fixture README gives it, else the geometric mean of 10 x the
 * logged ">>>> score:" over UnixBench's baselines, computed here independently. */
static void unixbench_logs_reproduce_their_index(void **state)
{
	(void)state;
	static const struct {
		const char *file;
		double printed; /* 0: none printed */
		int copies;
	} fx[] = {{FIX "host-2026-12-02-pass1.log", 442.6, 1}, {FIX "host-2026-12-02-pass2.log", 410.2, 1},
		  {FIX "host-2026-12-02-pass3.log", 443.2, 1}, {FIX "host-2026-12-02-pass4.log", 443.5, 1},
		  {FIX "host-2026-12-02-pass5.log", 420.5, 1}, {FIX "host-2026-12-02-copies2.log", 0, 2}};
	struct store *s = open_db("ub.db");
	for (size_t i = 0; i < sizeof fx / sizeof fx[0]; i++) {
		struct ub_log ulog;
		import_log(s, fx[i].file, &ulog);
		double lsum = 0;
		size_t n = 0;
		for (size_t t = 0; t < ulog.ntest; t++)
			if (ub_baseline(ulog.test[t].name) > 0) {
				lsum += log(10 * ulog.test[t].reported_score / ub_baseline(ulog.test[t].name));
				n++;
			}
		double want = exp(lsum / (double)n);
		struct an_composite c[2];
		double got = 0;
		assert_int_equal(one_run_composite(s, (int64_t)i + 1, fx[i].copies, c, &got), 1);
		assert_int_equal(c[0].n, n);
		assert_string_equal(c[0].name, n == 12 ? AN_UB_INDEX : AN_UB_INDEX_PARTIAL);
		/* the logged scores carry 1 decimal: agreement to 1e-4 relative */
		if (fabs(got / want - 1) > 1e-4)
			fail_msg("%s: index %.4f, UnixBench's scores give %.4f", fx[i].file, got, want);
		if (fx[i].printed > 0 && fabs(got - fx[i].printed) > 0.05 + 1e-9)
			fail_msg("%s: index %.2f, UnixBench printed %.1f", fx[i].file, got, fx[i].printed);
		import_unixbench_free(&ulog);
	}
	store_close(s);
}

/* Item 3: every UnixBench test is stored in its workload's unit. UnixBench's unit
 * (COUNT2 in the log), the workload's op, and how many of UnixBench's units one op/s
 * is; the stored value times that must give back UnixBench's test score. */
static void every_imported_test_has_its_workloads_unit(void **state)
{
	(void)state;
	static const struct {
		const char *test, *ub_unit, *workload, *op;
		double ub_per_op_s;
	} tab[] = {
		{"dhry2reg", "lps", "cpu.int", "loop", 1},
		{"whetstone-double", "MWIPS", "cpu.float", "pass", 0.1}, /* MWIPS = passes/s / 10 */
		{"execl", "lps", "unixbench.execl", "exec", 1},
		{"fstime", "KBps", "unixbench.fstime", "KiB", 1},
		{"fsbuffer", "KBps", "unixbench.fsbuffer", "KiB", 1},
		{"fsdisk", "KBps", "unixbench.fsdisk", "KiB", 1},
		{"pipe", "lps", "unixbench.pipe", "loop", 1},
		{"context1", "lps", "unixbench.context1", "round trip", 1},
		{"spawn", "lps", "unixbench.spawn", "process", 1},
		{"shell1", "lpm", "unixbench.shell1", "script run", 60},
		{"syscall", "lps", "unixbench.syscall", "loop", 1},
	};
	struct store *s = open_db("units.db");
	struct ub_log ulog;
	import_log(s, FIX "host-2026-12-02-pass1.log", &ulog);
	int64_t id = 1;
	struct err e = {{0}};
	struct store_set set;
	assert_int_equal(store_load_set(s, &id, 1, &set, &e), 0);
	size_t seen = 0;
	for (size_t t = 0; t < ulog.ntest; t++) {
		const struct ub_test *u = &ulog.test[t];
		size_t k = 0;
		while (k < sizeof tab / sizeof tab[0] && strcmp(tab[k].test, u->name))
			k++;
		if (k == sizeof tab / sizeof tab[0])
			fail_msg("UnixBench test %s is not in this test's table", u->name);
		seen++;
		assert_string_equal(u->unit, tab[k].ub_unit);
		assert_string_equal(u->workload, tab[k].workload);
		const struct workload *w = wl_find(tab[k].workload);
		assert_non_null(w);
		assert_string_equal(w->unit, tab[k].op);
		assert_string_equal(w->unixbench, tab[k].test);
		const struct store_series *x = store_set_find(&set, tab[k].workload, 1);
		assert_non_null(x);
		assert_string_equal(x->unit, tab[k].op);
		double back = exp(x->boots[0].runs[0].kept_y) * tab[k].ub_per_op_s;
		if (fabs(back / u->reported_score - 1) > 1e-4)
			fail_msg("%s: stored %g %s/s gives %g %s, UnixBench logged %g", u->name,
				 exp(x->boots[0].runs[0].kept_y), w->unit, back, u->unit, u->reported_score);
	}
	assert_int_equal(seen, sizeof tab / sizeof tab[0]);
	store_set_free(&set);
	import_unixbench_free(&ulog);
	store_close(s);
}

/* A sysab run with the given sysab-index workloads (NULL-terminated), value v ops/s each. */
static int64_t sysab_run(struct store *s, const char *boot, const char *const *wl, double v)
{
	struct err e = {{0}};
	struct store_run_new r = {.host = {"h", "cpu", 2, 1 << 20, boot, "6.1", "#1"},
				  .started_ns = 1,
				  .status = "running",
				  .source = "sysab"};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	for (size_t w = 0; wl[w]; w++) {
		struct store_slot sl = {wl[w], 1, "loop", 0, "ok", NULL, 1, 0, NULL};
		assert_int_equal(store_slot_put(s, id, &sl, &e), 0);
		for (int q = 0; q < 4; q++) {
			struct store_sample x = {wl[w], 1, q, -1, 10, 1000, v, 0, 0};
			assert_int_equal(store_sample_add(s, id, &x, &e), 0);
		}
	}
	assert_int_equal(store_run_finish(s, id, "complete", NULL, 0, &e), 0);
	return id;
}

/* sysab-index: a fixed member set; a row only when every run holding a member holds all,
 * never over UnixBench logs, and its value is 10 x value / baseline. */
static void sysab_index_is_all_or_nothing_and_never_mixes(void **state)
{
	(void)state;
	struct an_composite c[2];
	const char *members[AN_COMPOSITE_MAX + 1] = {0};
	size_t nm = 0;
	for (size_t i = 0; i < wl_count(); i++)
		if ((wl_at(i)->flags & WL_INDEX) && wl_at(i)->baseline > 0)
			members[nm++] = wl_at(i)->name;
	assert_true(nm >= 2);
	struct store *s = open_db("sy.db");
	/* value = 10 x baseline for every member: index 100 */
	struct err e = {{0}};
	int64_t a = sysab_run(s, "b1", members, 1), ids[3];
	(void)a;
	/* rewrite each member at 10x its baseline: one run per member value is awkward, so use
	 * a second run whose members all sit at 10x their own baselines */
	struct store_run_new r = {.host = {"h", "cpu", 2, 1 << 20, "b2", "6.1", "#1"}, .started_ns = 1,
				  .status = "running", .source = "sysab"};
	int64_t full;
	assert_int_equal(store_run_begin(s, &r, &full, &e), 0);
	for (size_t w = 0; w < nm; w++) {
		struct store_slot sl = {members[w], 1, "loop", 0, "ok", NULL, 1, 0, NULL};
		assert_int_equal(store_slot_put(s, full, &sl, &e), 0);
		struct store_sample x = {members[w], 1, 0, -1, 10, 1000, 10 * wl_find(members[w])->baseline, 0, 0};
		assert_int_equal(store_sample_add(s, full, &x, &e), 0);
	}
	assert_int_equal(store_run_finish(s, full, "complete", NULL, 0, &e), 0);
	double v = 0;
	assert_int_equal(one_run_composite(s, full, 1, c, &v), 1);
	assert_string_equal(c[0].name, AN_SYSAB_INDEX);
	assert_int_equal(c[0].n, nm);
	assert_true(fabs(v - 100) < 1e-9);
	/* a run lacking one member: no composite over it, nor over any set that holds it */
	const char *short_set[AN_COMPOSITE_MAX + 1] = {0};
	for (size_t w = 0; w + 1 < nm; w++)
		short_set[w] = members[w];
	int64_t lacking = sysab_run(s, "b3", short_set, 1);
	assert_int_equal(one_run_composite(s, lacking, 1, c, &v), 0);
	ids[0] = full;
	ids[1] = lacking;
	struct store_set set;
	assert_int_equal(store_load_set(s, ids, 2, &set, &e), 0);
	assert_int_equal(an_composites(&set, 1, 1, c), 0);
	store_set_free(&set);
	/* a UnixBench log beside a sysab run: neither index */
	struct ub_log ulog;
	import_log(s, FIX "host-2026-12-02-pass1.log", &ulog);
	import_unixbench_free(&ulog);
	ids[0] = full;
	ids[1] = lacking + 1;
	assert_int_equal(store_load_set(s, ids, 2, &set, &e), 0);
	assert_int_equal(an_composites(&set, 1, 1, c), 0);
	store_set_free(&set);
	store_close(s);
}

/* Issue 51: sysab-index is broad again, on UnixBench's scale. Its members are one workload
 * for each of UnixBench's twelve index tests, each with UnixBench's baseline (in the
 * workload's own unit), so a run whose values are UnixBench's scores gives UnixBench's index. */
static void sysab_index_is_unixbench_index_over_all_twelve(void **state)
{
	(void)state;
	static const char *const tests[] = {"dhry2reg", "whetstone-double", "execl", "fstime", "fsbuffer", "fsdisk",
					    "pipe", "context1", "spawn", "shell1", "shell8", "syscall"};
	enum { NT = sizeof tests / sizeof tests[0] };
	const char *members[NT];
	double score[NT], lsum = 0;
	size_t nm = 0;
	for (size_t i = 0; i < wl_count(); i++)
		nm += (wl_at(i)->flags & WL_INDEX) && wl_at(i)->baseline > 0;
	assert_int_equal(nm, NT);
	for (size_t t = 0; t < NT; t++) {
		const struct workload *w = NULL;
		for (size_t i = 0; i < wl_count(); i++)
			if ((wl_at(i)->flags & WL_INDEX) && wl_at(i)->baseline > 0 && !strcmp(wl_at(i)->unixbench, tests[t])) {
				assert_null(w); /* one member per test */
				w = wl_at(i);
			}
		if (!w)
			fail_msg("no sysab-index member for UnixBench's %s", tests[t]);
		if (fabs(w->baseline * wl_unixbench_units(w) / ub_baseline(tests[t]) - 1) > 1e-12)
			fail_msg("%s: baseline %g x %g is not UnixBench's %g", w->name, w->baseline, wl_unixbench_units(w),
				 ub_baseline(tests[t]));
		members[t] = w->name;
		score[t] = ub_baseline(tests[t]) * (3 + (double)t); /* a score in UnixBench's unit */
		lsum += log(10 * score[t] / ub_baseline(tests[t]));
	}
	struct store *s = open_db("twelve.db");
	struct err e = {{0}};
	struct store_run_new r = {.host = {"h", "cpu", 2, 1 << 20, "b1", "6.1", "#1"}, .started_ns = 1,
				  .status = "running", .source = "sysab"};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	for (size_t t = 0; t < NT; t++) {
		const struct workload *w = wl_find(members[t]);
		struct store_slot sl = {members[t], 1, w->unit, 0, "ok", NULL, 1, 0, NULL};
		assert_int_equal(store_slot_put(s, id, &sl, &e), 0);
		struct store_sample x = {members[t], 1, 0, -1, 10, 1000, score[t] / wl_unixbench_units(w), 0, 0};
		assert_int_equal(store_sample_add(s, id, &x, &e), 0);
	}
	assert_int_equal(store_run_finish(s, id, "complete", NULL, 0, &e), 0);
	struct an_composite c[2];
	double v = 0;
	assert_int_equal(one_run_composite(s, id, 1, c, &v), 1);
	assert_string_equal(c[0].name, AN_SYSAB_INDEX);
	assert_int_equal(c[0].n, NT);
	if (fabs(v / exp(lsum / NT) - 1) > 1e-9)
		fail_msg("sysab-index %.6f, UnixBench's index of the same scores %.6f", v, exp(lsum / NT));
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unixbench_logs_reproduce_their_index),
		cmocka_unit_test(sysab_index_is_unixbench_index_over_all_twelve),
		cmocka_unit_test(every_imported_test_has_its_workloads_unit),
		cmocka_unit_test(sysab_index_is_all_or_nothing_and_never_mixes),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
