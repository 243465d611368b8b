/* test_grow.c - the stopping rule of paired runs that grow (run --arm --until decided, study/grow.c). */
#include "unit.h"
#include "study/grow.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A comparison of n rows with verdicts v[0..n-1], each with both arms. */
static struct an_compare with_rows(struct an_row *rows, const enum st_verdict *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rows[i] = (struct an_row){.have_a = true, .have_b = true, .c = {.verdict = v[i]}};
	return (struct an_compare){.ngroups = 2, .rows = rows, .nrows = n};
}

/* Decided only when every row is faster, slower or equivalent; one inconclusive row goes on. */
static void grow_decides_when_every_row_is_decided(void **state)
{
	(void)state;
	struct an_row rows[3];
	enum st_verdict all[3] = {ST_FASTER, ST_SLOWER, ST_EQUIVALENT};
	struct an_compare c = with_rows(rows, all, 3);
	assert_int_equal(study_grow_rule(&c, 2, 20), STUDY_GROW_DECIDED);
	assert_int_equal(study_grow_rule(&c, 20, 20), STUDY_GROW_DECIDED); /* decided at the cap is decided */
	enum st_verdict one[3] = {ST_FASTER, ST_INCONCLUSIVE, ST_EQUIVALENT};
	c = with_rows(rows, one, 3);
	assert_int_equal(study_grow_rule(&c, 5, 20), STUDY_GROW_GO_ON);
	assert_int_equal(study_grow_rule(&c, 19, 20), STUDY_GROW_GO_ON);
}

/* At the cap an undecided row stops the grow as capped, never as decided. */
static void grow_stops_at_the_cap_undecided(void **state)
{
	(void)state;
	struct an_row rows[2];
	enum st_verdict v[2] = {ST_SLOWER, ST_INCONCLUSIVE};
	struct an_compare c = with_rows(rows, v, 2);
	assert_int_equal(study_grow_rule(&c, 20, 20), STUDY_GROW_CAP);
	assert_int_equal(study_grow_rule(&c, 21, 20), STUDY_GROW_CAP);
}

/* Withheld rows and rows without data are undecided; rows missing an arm do not count, and a
 * comparison with no row both arms have decides nothing. */
static void grow_counts_withheld_and_no_data_as_undecided(void **state)
{
	(void)state;
	struct an_row rows[2];
	enum st_verdict w[2] = {ST_FASTER, ST_WITHHELD};
	struct an_compare c = with_rows(rows, w, 2);
	assert_int_equal(study_grow_rule(&c, 3, 20), STUDY_GROW_GO_ON);
	enum st_verdict nd[2] = {ST_NO_DATA, ST_FASTER};
	c = with_rows(rows, nd, 2);
	assert_int_equal(study_grow_rule(&c, 3, 20), STUDY_GROW_GO_ON);
	rows[0].have_b = false; /* the undecided row has one arm only: the other decides */
	assert_int_equal(study_grow_rule(&c, 3, 20), STUDY_GROW_DECIDED);
	rows[1].have_a = false;
	assert_int_equal(study_grow_rule(&c, 3, 20), STUDY_GROW_GO_ON);
	assert_int_equal(study_grow_rule(&c, 20, 20), STUDY_GROW_CAP);
	struct an_compare empty = {.ngroups = 2};
	assert_int_equal(study_grow_rule(&empty, 4, 4), STUDY_GROW_CAP);
}

/* The grow's runs are picked by arm and tag, and each state has its word. */
static void grow_selectors_and_words(void **state)
{
	(void)state;
	struct study_grow g = {.arm_a = "A", .arm_b = "B", .tag = "0badf00d", .max_runs = 20};
	char *s = study_grow_selector(&g, g.arm_b);
	assert_string_equal(s, "arm=B grow=0badf00d");
	free(s);
	assert_string_equal(study_grow_state_word(STUDY_GROW_GO_ON), "go_on");
	assert_string_equal(study_grow_state_word(STUDY_GROW_DECIDED), "decided");
	assert_string_equal(study_grow_state_word(STUDY_GROW_CAP), "cap");
}

/* The information of paired runs on one boot is the paired runs over the design's maximum
 * (not its 1 boot): at the maximum, look 1 spends all of alpha; at half of it, less. */
static void paired_information_is_the_paired_runs(void **state)
{
	(void)state;
	double d[4][10];
	int rd[10];
	for (int r = 0; r < 10; r++) {
		rd[r] = r;
		for (int k = 0; k < 4; k++)
			d[k][r] = 0.01 + 0.001 * ((r * 7 + k * 3) % 5 - 2);
	}
	struct st_pairrun p[4] = {{d[0], rd, 10, 0}, {d[1], rd, 10, 0}, {d[2], rd, 10, 0}, {d[3], rd, 10, 0}};
	struct st_compare_opts o = stats_compare_defaults();
	o.unit = ST_LEVEL_RUN;
	o.max_boots = 4;
	o.look = 1;
	struct st_comparison c;
	struct err e;
	assert_int_equal(stats_compare_rounds(p, 4, &o, &c, NULL, &e), 0);
	assert_true(fabs(c.alpha - 0.05) < 1e-6);
	o.max_boots = 8;
	assert_int_equal(stats_compare_rounds(p, 4, &o, &c, NULL, &e), 0);
	assert_true(c.alpha < 0.02 && c.alpha > 0.001);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(grow_decides_when_every_row_is_decided),
		cmocka_unit_test(grow_stops_at_the_cap_undecided),
		cmocka_unit_test(grow_counts_withheld_and_no_data_as_undecided),
		cmocka_unit_test(grow_selectors_and_words),
		cmocka_unit_test(paired_information_is_the_paired_runs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
