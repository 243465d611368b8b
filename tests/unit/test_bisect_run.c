/* test_bisect_run.c - a bisection's series file, its checks (nothing stored on bad input), its first step's campaign and the dry run's steps. */
#include "unit.h"
#include "core/tmp.h"
#include "store/store.h"
#include "store/store_impl.h"
#include "study/bisectrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

static char *write_file(const char *name, const char *text)
{
	char *p = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

static int count(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static const char series8[] = "# kernels in commit order\n"
			      "v=1 --append v=1 --command true\n"
			      "\n"
			      "v=2 --append v=2 --command true\n"
			      "v=3 --append 'a b' --command true\n"
			      "v=4 --append v=4 --command true\n"
			      "v=5 --append v=5 --command true\n"
			      "v=6 slow=yes --append v=6 --command true\n"
			      "v=7 --append v=7 --command true\n"
			      "v=8 --append v=8 --command=true\n";

static void series_file_is_one_configuration_per_line(void **state)
{
	(void)state;
	struct err e;
	struct strv l;
	char *p = write_file("s8", series8);
	assert_int_equal(study_bisect_series_read(p, &l, &e), 0);
	assert_int_equal(l.n, 8); /* the comment and the blank line left out */
	assert_string_equal(l.v[2], "v=3 --append 'a b' --command true");
	strv_free(&l);
	char *empty = write_file("empty", "# nothing\n\n");
	assert_int_equal(study_bisect_series_read(empty, &l, &e), -1);
	assert_non_null(strstr(e.msg, empty));
	assert_non_null(strstr(e.msg, "empty"));
	assert_int_equal(l.n, 0);
	char *one = write_file("one", "v=1 --command true\n");
	assert_int_equal(study_bisect_series_read(one, &l, &e), -1);
	assert_non_null(strstr(e.msg, "only one configuration"));
	free(p);
	free(empty);
	free(one);
}

static void spec_of(struct study_bisect_spec *sp, const char *name, const char *good, const char *bad)
{
	memset(sp, 0, sizeof *sp);
	sp->name = name;
	sp->good = good;
	sp->bad = bad;
	sp->cap = 24;
	sp->backend = "command";
	strv_add(&sp->options, "unit-dir");
	strv_add(&sp->options, dir);
}

static void bad_input_is_named_and_nothing_is_stored(void **state)
{
	(void)state;
	struct err e;
	char *p = write_file("s8b", series8), *path = xasprintf("%s/b.db", dir);
	struct study_bisect_spec sp;
	struct store *st;
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	struct {
		const char *good, *bad, *backend, *want;
		int cap;
	} bad[] = {
		{"9", "8", "command", "--good 9: the series has configurations 1 to 8", 24},
		{"v=9", "8", "command", "--good 'v=9': no configuration", 24},
		{"6", "2", "command", "comes after --bad 2", 24},
		{"3", "3", "command", "is --bad 3", 24},
		{"1", "8", "nope", "--backend: give", 24},
		{"1", "8", "command", "--max-boots 5", 5},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		spec_of(&sp, "x", bad[i].good, bad[i].bad);
		sp.backend = bad[i].backend;
		sp.cap = bad[i].cap;
		assert_int_equal(study_bisect_series_read(p, &sp.series, &e), 0);
		assert_int_equal(study_bisect_create(st, &sp, &e), -1);
		if (!strstr(e.msg, bad[i].want))
			fail_msg("case %zu: '%s' not in '%s'", i, bad[i].want, e.msg);
		strv_free(&sp.series);
		strv_free(&sp.options);
	}
	/* lines the command backend cannot boot, or with the same labels */
	const char *lines[][2] = {{"v=1 --append v=1\nv=2 --append v=2\n", "configuration 1"},
				  {"v=1 --command true\nv=1 --command true\n", "the same labels"},
				  {"v=1 --command true\nv=2 --frob x --command true\n", "'--frob' is not"},
				  {"v=1 --command 'true\nv=2 --command true\n", "a quote is not closed"},
				  {"bisect=1 --command true\nv=2 --command true\n", "sysab's own"}};
	for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
		char *q = write_file("bad", lines[i][0]);
		spec_of(&sp, "x", "1", "2");
		assert_int_equal(study_bisect_series_read(q, &sp.series, &e), 0);
		assert_int_equal(study_bisect_create(st, &sp, &e), -1);
		if (!strstr(e.msg, lines[i][1]))
			fail_msg("line case %zu: '%s' not in '%s'", i, lines[i][1], e.msg);
		strv_free(&sp.series);
		strv_free(&sp.options);
		free(q);
	}
	assert_int_equal(count(st, "SELECT (SELECT count(*) FROM bisect) + (SELECT count(*) FROM campaign)"), 0);

	/* a good one: the bisection and its first step's campaign of good, midpoint, bad */
	spec_of(&sp, "k", "v=1", "8");
	assert_int_equal(study_bisect_series_read(p, &sp.series, &e), 0);
	assert_int_equal(study_bisect_create(st, &sp, &e), 0);
	assert_int_equal(count(st, "SELECT count(*) FROM campaign WHERE name = 'k.s1' AND boots = 8"), 1);
	assert_int_equal(count(st, "SELECT count(*) FROM campaign_adaptive WHERE until = 'bisect' AND max_boots = 8"), 1);
	assert_int_equal(count(st, "SELECT count(*) FROM campaign_config cc JOIN campaign c ON c.id = cc.campaign "
				   "WHERE c.name = 'k.s1' AND cc.labels LIKE '%\"bisect\":\"k\"%'"),
			 3);
	assert_int_equal(count(st, "SELECT mid * 100 + good * 10 + bad FROM bisect_step"), 307);
	/* the name is taken now: refused, nothing more stored */
	assert_int_equal(study_bisect_create(st, &sp, &e), -1);
	assert_non_null(strstr(e.msg, "bisection 'k'"));
	assert_int_equal(count(st, "SELECT count(*) FROM campaign"), 1);
	strv_free(&sp.series);
	strv_free(&sp.options);
	store_close(st);
	free(p);
	free(path);
}

static void dry_run_lists_every_step_a_bisection_can_take(void **state)
{
	(void)state;
	struct err e;
	char *p = write_file("s8c", series8);
	struct study_bisect_spec sp;
	spec_of(&sp, "d", "1", "8");
	assert_int_equal(study_bisect_series_read(p, &sp.series, &e), 0);
	struct study_bisect_plan pl;
	assert_int_equal(study_bisect_plan(&sp, &pl, &e), 0);
	assert_int_equal(pl.depth, 3);
	assert_int_equal(pl.blocks, 8);
	/* 0-based: step 1 tries 3 (the 4th); then 5 or 1; then 6, 4 or 2 */
	size_t want[][4] = {{1, 0, 3, 7}, {2, 3, 5, 7}, {2, 0, 1, 3}, {3, 5, 6, 7}, {3, 3, 4, 5}, {3, 1, 2, 3}};
	assert_int_equal(pl.nsteps, 6);
	for (size_t i = 0; i < 6; i++) {
		assert_int_equal(pl.steps[i].depth, want[i][0]);
		assert_int_equal(pl.steps[i].good, want[i][1]);
		assert_int_equal(pl.steps[i].mid, want[i][2]);
		assert_int_equal(pl.steps[i].bad, want[i][3]);
	}
	assert_string_equal(pl.configs.v[5], "slow=yes v=6");
	study_bisect_plan_free(&pl);
	/* adjacent ends: no step, only the check */
	sp.good = "5";
	sp.bad = "6";
	assert_int_equal(study_bisect_plan(&sp, &pl, &e), 0);
	assert_int_equal(pl.nsteps, 0);
	study_bisect_plan_free(&pl);
	strv_free(&sp.series);
	strv_free(&sp.options);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(series_file_is_one_configuration_per_line),
		cmocka_unit_test(bad_input_is_named_and_nothing_is_stored),
		cmocka_unit_test(dry_run_lists_every_step_a_bisection_can_take),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
