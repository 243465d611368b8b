/* test_import_unixbench.c - the UnixBench log parser reproduces UnixBench's scores and rejects bad logs. */
#include "unit.h"
#include "core/core.h"
#include "import/import_unixbench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIX "tests/fixtures/unixbench/"
#define SEP "########################################################"

static const char *const fixtures[] = {
	FIX "host-2026-12-02-pass1.log", FIX "host-2026-12-02-pass2.log", FIX "host-2026-12-02-pass3.log",
	FIX "host-2026-12-02-pass4.log", FIX "host-2026-12-02-pass5.log", FIX "host-2026-12-02-copies2.log",
};
#define NFIX (sizeof fixtures / sizeof fixtures[0])

static char *load(const char *path, size_t *len)
{
	struct err e;
	char *s = read_whole_file(path, 1 << 20, len, &e);
	if (!s)
		fail_msg("%s (run the tests from the repository root)", e.msg);
	return s;
}

static size_t count_str(const char *s, const char *end, const char *needle)
{
	size_t n = 0;
	while ((s = strstr(s, needle)) && s < end) {
		n++;
		s += strlen(needle);
	}
	return n;
}

static double rel(double a, double b)
{
	return fabs(a - b) / fmax(fabs(b), 1e-300);
}

/* For each section of the raw text, compare the parsed test against counts and the
 * ">>>> score:" value found with plain string searches, independent of the parser. */
static void check_against_text(const char *text, const struct ub_log *log)
{
	const char *sec = strstr(text, SEP);
	size_t i = 0;
	while (sec) {
		const char *next = strstr(sec + strlen(SEP), SEP);
		const char *end = next ? next : sec + strlen(sec);
		assert_true(i < log->ntest);
		const struct ub_test *t = &log->test[i];
		assert_int_equal(t->npass, count_str(sec, end, "#### Pass "));
		assert_int_equal(t->npass * t->copies, count_str(sec, end, "# COUNT0:"));
		size_t ndump = count_str(sec, end, "*Dump score:"), ndisc = 0;
		for (size_t k = 0; k < t->npass; k++) {
			ndisc += t->pass[k].discarded;
			assert_int_equal(t->pass[k].ncopy, t->copies);
			assert_int_equal(t->pass[k].number, k + 1);
		}
		assert_int_equal(ndisc, ndump);
		assert_int_equal(ndump, t->npass / 3); /* UnixBench drops the worst third */
		const char *sc = strstr(sec, ">>>> score:");
		assert_non_null(sc);
		assert_true(sc < end);
		double want = strtod(sc + strlen(">>>> score:"), NULL);
		double got = import_unixbench_score(t);
		if (rel(got, want) > 1e-6)
			fail_msg("%s: score %.9g, UnixBench printed %.9g", t->title, got, want);
		sec = next;
		i++;
	}
	assert_int_equal(i, log->ntest);
}

static void every_fixture_parses_and_reproduces_scores(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFIX; f++) {
		size_t len;
		char *text = load(fixtures[f], &len);
		struct ub_log log;
		struct err e = {{0}};
		if (import_unixbench_parse(fixtures[f], text, len, &log, &e))
			fail_msg("%s", e.msg);
		check_against_text(text, &log);
		import_unixbench_free(&log);
		free(text);
	}
}

static void names_and_units_follow_the_command_line(void **state)
{
	(void)state;
	static const struct {
		const char *title, *program, *name, *workload, *unit;
	} want[] = {
		{"Dhrystone 2 using register variables", "dhry2reg", "dhry2reg", "cpu.int", "lps"},
		{"Double-Precision Whetstone", "whetstone-double", "whetstone-double", "cpu.float", "MWIPS"},
		{"System Call Overhead", "syscall", "syscall", "unixbench.syscall", "lps"},
		{"Pipe Throughput", "pipe", "pipe", "unixbench.pipe", "lps"},
		{"Pipe-based Context Switching", "context1", "context1", "unixbench.context1", "lps"},
		{"Process Creation", "spawn", "spawn", "unixbench.spawn", "lps"},
		{"Execl Throughput", "execl", "execl", "unixbench.execl", "lps"},
		{"File Copy 1024 bufsize 2000 maxblocks", "fstime", "fstime", "unixbench.fstime", "KBps"},
		{"File Copy 256 bufsize 500 maxblocks", "fstime", "fsbuffer", "unixbench.fsbuffer", "KBps"},
		{"File Copy 4096 bufsize 8000 maxblocks", "fstime", "fsdisk", "unixbench.fsdisk", "KBps"},
		{"Shell Scripts (1 concurrent)", "looper", "shell1", "unixbench.shell1", "lpm"},
	};
	size_t len;
	char *text = load(fixtures[0], &len);
	struct ub_log log;
	struct err e;
	assert_int_equal(import_unixbench_parse("pass1.log", text, len, &log, &e), 0);
	assert_int_equal(log.ntest, sizeof want / sizeof want[0]);
	for (size_t i = 0; i < log.ntest; i++) {
		assert_string_equal(log.test[i].title, want[i].title);
		assert_string_equal(log.test[i].program, want[i].program);
		assert_string_equal(log.test[i].name, want[i].name);
		assert_string_equal(log.test[i].workload, want[i].workload);
		assert_string_equal(log.test[i].unit, want[i].unit);
		assert_false(log.test[i].unknown);
		assert_int_equal(log.test[i].copies, 1);
	}
	/* Dhrystone: pass 2 has the lowest COUNT0 and is the one UnixBench dumped. */
	const struct ub_test *d = &log.test[0];
	assert_int_equal(d->npass, 3);
	assert_false(d->pass[0].discarded);
	assert_true(d->pass[1].discarded);
	assert_false(d->pass[2].discarded);
	assert_float_equal(d->pass[0].score, 557580433 / 10.020024, 1e-6);
	assert_float_equal(d->pass[1].count, 517226880, 0);
	assert_int_equal(d->pass[2].copy[0].pid, 4303);
	assert_int_equal(d->pass[2].copy[0].status, 0);
	/* Whetstone: COUNT0 is already MWIPS; TIME is kept apart from elapsed. */
	const struct ub_pass *w = &log.test[1].pass[0];
	assert_true(w->copy[0].has_time);
	assert_float_equal(w->copy[0].time, 8.942, 1e-12);
	assert_float_equal(w->copy[0].elapsed, 10.866923, 1e-12);
	assert_float_equal(w->score, 7360.411, 1e-9);
	assert_float_equal(w->ops_per_s, 7360.411, 1e-9);
	/* Shell: lpm with a 60 s time base; ops_per_s is per second. */
	const struct ub_pass *sh = &log.test[10].pass[0];
	assert_float_equal(sh->score, 1501 * 60 / 60.041718, 1e-9);
	assert_float_equal(sh->ops_per_s, 1501 / 60.041718, 1e-9);
	assert_float_equal(log.test[10].reported_score, 1499.95707984239, 1e-9);
	assert_int_equal(log.test[10].reported_iterations, 1);
	import_unixbench_free(&log);
	free(text);
}

static void copies_are_summed_per_pass(void **state)
{
	(void)state;
	size_t len;
	char *text = load(FIX "host-2026-12-02-copies2.log", &len);
	struct ub_log log;
	struct err e;
	assert_int_equal(import_unixbench_parse("copies2.log", text, len, &log, &e), 0);
	assert_int_equal(log.ntest, 4);
	const struct ub_test *t = &log.test[0];
	assert_string_equal(t->workload, "unixbench.syscall");
	assert_int_equal(t->copies, 2);
	assert_int_equal(t->npass, 1);
	assert_int_equal(t->pass[0].ncopy, 2);
	assert_false(t->pass[0].discarded);
	const struct ub_copy *c = t->pass[0].copy;
	assert_float_equal(c[0].rate, 1824995 / 10.028717, 1e-6);
	assert_float_equal(c[1].rate, 1865951 / 10.022338, 1e-6);
	/* UnixBench sums the counts and divides by the mean time; the per-copy rates sum to within 1e-5. */
	assert_true(rel(t->pass[0].score, 368154.792852546) < 1e-12);
	assert_float_equal(t->pass[0].count, 3690946, 0); /* "Count score:    3690946.0" */
	assert_true(rel(c[0].rate + c[1].rate, t->pass[0].score) < 1e-5);
	import_unixbench_free(&log);
	free(text);
}

/* Cut a fixture at many points: each prefix parses to a prefix of the full result, or fails
 * with "NAME:LINE:" — never a crash (run `make asan` for the memory checks). */
static void truncated_logs_fail_cleanly_or_parse_a_prefix(void **state)
{
	(void)state;
	for (size_t f = 0; f < NFIX; f += NFIX - 1) {
		size_t len;
		char *text = load(fixtures[f], &len);
		struct ub_log full;
		struct err e;
		assert_int_equal(import_unixbench_parse("full", text, len, &full, &e), 0);
		size_t ok = 0, bad = 0;
		for (size_t cut = 0; cut < len; cut += (text[cut] == '\n' ? 1 : 3)) {
			char *part = xmalloc(cut ? cut : 1);
			memcpy(part, text, cut);
			struct ub_log log;
			e.msg[0] = 0;
			if (import_unixbench_parse("cut.log", part, cut, &log, &e) == 0) {
				ok++;
				assert_true(log.ntest >= 1 && log.ntest <= full.ntest);
				for (size_t i = 0; i < log.ntest; i++) {
					assert_string_equal(log.test[i].title, full.test[i].title);
					assert_int_equal(log.test[i].npass, full.test[i].npass);
					assert_true(import_unixbench_score(&log.test[i]) ==
						    import_unixbench_score(&full.test[i]));
				}
				import_unixbench_free(&log);
			} else {
				bad++;
				unsigned line = 0;
				assert_int_equal(sscanf(e.msg, "cut.log:%u:", &line), 1);
				assert_true(line >= 1);
				assert_null(log.test);
			}
			free(part);
		}
		assert_true(ok >= full.ntest - 1); /* cuts at section ends parse */
		assert_true(bad > ok);
		import_unixbench_free(&full);
		free(text);
	}
}

/* A small one-test log to mutate. */
static const char mini[] = "\n" SEP "\n"
			   "Pipe Throughput -- 1 copy\n"
			   "==> \"/x/pgms/pipe\" 10 2>&1 >> \"/x/results/a.log\"\n\n"
			   "#### Pass 1\n\n"
			   "# COUNT0: 1000\n# COUNT1: 1\n# COUNT2: lps\n# elapsed: 10\n# pid: 1\n# status: 0\n\n"
			   "Count score:       1000.0\n\n"
			   ">>>> Results of 1 copy\n>>>> score: 100\n>>>> time: 10\n>>>> iterations: 1\n";

static char *replace(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	assert_non_null(at);
	return xasprintf("%.*s%s%s", (int)(at - s), s, to, at + strlen(from));
}

/* Parse mini with one replacement; return 0 or -1, with the message in e. */
static int parse_mutated(const char *from, const char *to, struct ub_log *log, struct err *e)
{
	char *s = replace(mini, from, to);
	int r = import_unixbench_parse("m.log", s, strlen(s), log, e);
	free(s);
	return r;
}

static void malformed_logs_name_the_line(void **state)
{
	(void)state;
	static const struct {
		const char *from, *to, *msg;
	} cases[] = {
		{"# COUNT0: 1000", "# COUNT0: 1e300", "m.log:8: COUNT0 1e300 is out of range"},
		{"# COUNT0: 1000", "# COUNT0: 0x10", "m.log:8: COUNT0 '0x10' is not a plain decimal number"},
		{"# COUNT0: 1000", "# COUNT0: nan", "m.log:8: COUNT0 'nan'"},
		{"# elapsed: 10\n", "", "m.log:8: COUNT record has no '# elapsed:'"},
		{"# COUNT1: 1\n", "# COUNT1: 1\n# COUNT1: 1\n", "m.log:10: '# COUNT1:' appears twice"},
		{"#### Pass 1", "#### Pass 2", "m.log:6: expected '#### Pass 1', found pass 2"},
		{"-- 1 copy", "-- 2 copies", "m.log:6: pass 1 holds 1 COUNT record, expected one per copy (2)"},
		{"Count score:       1000.0", "*Dump score:       999.0", "m.log:15: '*Dump score: 999.0' matches no"},
		{">>>> iterations: 1", ">>>> iterations: 2", "m.log:20: iterations 2 differs"},
		{"Pipe Throughput -- 1 copy", "Pipe Throughput", "m.log:3: expected a test title"},
		{"==> ", "=> ", "m.log:4: expected the '==>"},
		{"\"/x/pgms/pipe\"", "\"/x/pgms/p\xffpe\"", "m.log:4: program"},
		/* issue 34 item 5: a long name is said to be long, not "not a plain file name" */
		{"\"/x/pgms/pipe\"", "\"/x/pgms/pipeaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"",
		 "m.log:4: program name 'pipeaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' in the '==>' line is 68 bytes, longer than"},
		{"Pipe Throughput", "Pipe\x01Throughput", "m.log:3: test title is not clean"},
		{">>>> score: 100\n", "", "m.log:18: expected '>>>> score:'"},
		{"\n#", "garbage\n#", "m.log:1: expected a '####...' test separator"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ub_log log;
		struct err e = {{0}};
		assert_int_equal(parse_mutated(cases[i].from, cases[i].to, &log, &e), -1);
		if (strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: got '%s', want '%s...'", i, e.msg, cases[i].msg);
		assert_null(log.test);
	}
}

static void truncation_and_odd_bytes_are_reported(void **state)
{
	(void)state;
	struct ub_log log;
	struct err e;
	/* Empty input and blank lines only. */
	assert_int_equal(import_unixbench_parse("e.log", "", 0, &log, &e), -1);
	assert_non_null(strstr(e.msg, "no UnixBench test sections"));
	assert_int_equal(import_unixbench_parse("e.log", NULL, 0, &log, &e), -1);
	/* Cut in the middle of a pass. */
	const char *cut = strstr(mini, "# pid");
	assert_int_equal(import_unixbench_parse("t.log", mini, (size_t)(cut - mini), &log, &e), -1);
	assert_string_equal(e.msg, "t.log:11: expected more of the pass or its 'Count score:' lines; "
				   "the log may be truncated");
	/* A NUL byte inside: the length is what counts, not the terminator. */
	char buf[sizeof mini];
	memcpy(buf, mini, sizeof mini);
	buf[strstr(mini, "lps") - mini] = 0;
	assert_int_equal(import_unixbench_parse("z.log", buf, sizeof mini - 1, &log, &e), -1);
	assert_non_null(strstr(e.msg, "z.log:10: NUL byte"));
	/* CRLF line ends parse like LF. */
	struct sb b = {0};
	for (const char *p = mini; *p; p++)
		sb_addn(&b, *p == '\n' ? "\r\n" : p, *p == '\n' ? 2 : 1);
	assert_int_equal(import_unixbench_parse("crlf.log", b.s, b.len, &log, &e), 0);
	assert_float_equal(import_unixbench_score(&log.test[0]), 100, 1e-12);
	import_unixbench_free(&log);
	sb_free(&b);
	import_unixbench_free(NULL);
}

static void variants_and_unknown_programs(void **state)
{
	(void)state;
	static const struct {
		const char *cmd, *name, *workload;
		bool unknown;
	} cases[] = {
		{"\"/x/pgms/fstime\" -r -t 30 -d \"/x/tmp\" -b 256 -m 500", "fsbuffer-r", "unixbench.fsbuffer-r", false},
		{"\"/x/pgms/fstime\" -w -t 30 -d \"/x/tmp\" -b 1024 -m 2000", "fstime-w", "unixbench.fstime-w", false},
		{"\"/x/pgms/fstime\" -r -t 30 -d \"/x/tmp\" -b 4096 -m 8000", "fsdisk-r", "unixbench.fsdisk-r", false},
		{"\"/x/pgms/fstime\" -c -t 30 -d \"/x/tmp\" -b 512 -m 2000", "fstime", "unixbench.fstime-other", true},
		{"\"/x/pgms/looper\" 60 \"/x/pgms/multi.sh\" 8", "shell8", "unixbench.shell8", false},
		{"\"/x/pgms/looper\" 60 \"/x/pgms/multi.sh\" 16", "shell16", "unixbench.shell16", true},
		{"\"/x/pgms/hanoi\" 20", "hanoi", "unixbench.hanoi", true},
		{"/x/pgms/arithoh 10", "arithoh", "unixbench.arithoh", true},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct ub_log log;
		struct err e;
		char *cmd = xasprintf("%s 2>&1 >>", cases[i].cmd);
		assert_int_equal(parse_mutated("\"/x/pgms/pipe\" 10 2>&1 >>", cmd, &log, &e), 0);
		assert_string_equal(log.test[0].name, cases[i].name);
		assert_string_equal(log.test[0].workload, cases[i].workload);
		assert_int_equal(log.test[0].unknown, cases[i].unknown);
		import_unixbench_free(&log);
		free(cmd);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_fixture_parses_and_reproduces_scores),
		cmocka_unit_test(names_and_units_follow_the_command_line),
		cmocka_unit_test(copies_are_summed_per_pass),
		cmocka_unit_test(truncated_logs_fail_cleanly_or_parse_a_prefix),
		cmocka_unit_test(malformed_logs_name_the_line),
		cmocka_unit_test(truncation_and_odd_bytes_are_reported),
		cmocka_unit_test(variants_and_unknown_programs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
