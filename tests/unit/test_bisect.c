/* test_bisect.c - the bisection state machine: midpoints, skips, each step's call, --assume, the culprit check. */
#include "unit.h"
#include "study/bisect.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A verdict record for one workload. */
static struct bisect_verdicts vr(enum st_verdict mg, enum st_verdict mb, enum st_verdict bg)
{
	return (struct bisect_verdicts){.mid_good = mg, .mid_bad = mb, .bad_good = bg, .d_good = 0, .d_bad = 0};
}

static void bad_input_is_named(void **state)
{
	(void)state;
	struct bisect b;
	struct err e;
	assert_int_equal(bisect_init(&b, 1, 0, 0, 24, false, &e), -1);
	assert_non_null(strstr(e.msg, "at least 2"));
	assert_int_equal(bisect_init(&b, 8, 5, 2, 24, false, &e), -1);
	assert_non_null(strstr(e.msg, "--good (6) must come before --bad (3)"));
	assert_int_equal(bisect_init(&b, 8, 0, 8, 24, false, &e), -1);
	assert_non_null(strstr(e.msg, "--bad 9"));
	assert_int_equal(bisect_init(&b, 8, 0, 7, 2, false, &e), -1);
	assert_non_null(strstr(e.msg, "--max-boots 2"));
	bisect_free(&b);
	bisect_free(NULL);
}

/* Walk a series whose first bad configuration is culprit, answering each step exactly. */
static size_t walk(size_t n, size_t culprit, size_t *order)
{
	struct bisect b;
	struct err e;
	assert_int_equal(bisect_init(&b, n, 0, n - 1, 24, false, &e), 0);
	size_t mid, k = 0;
	while (bisect_next(&b, &mid)) {
		order[k++] = mid;
		assert_int_equal(bisect_record(&b, mid, mid >= culprit ? BISECT_BAD : BISECT_GOOD, BISECT_WHY_OPEN, 6, 2,
					       BISECT_GOOD, &e), 0);
	}
	assert_int_equal(b.state, BISECT_FOUND);
	assert_int_equal(b.culprit, culprit);
	assert_int_equal(b.nsteps, k);
	bisect_free(&b);
	return k;
}

static void midpoints_halve_the_range(void **state)
{
	(void)state;
	size_t order[64];
	/* 8 configurations, culprit the 6th (index 5): 3, 5, 4 */
	assert_int_equal(walk(8, 5, order), 3);
	assert_int_equal(order[0], 3);
	assert_int_equal(order[1], 5);
	assert_int_equal(order[2], 4);
	for (size_t c = 1; c <= 1024; c += 31) /* a 1,024-commit range: 10 steps to any culprit */
		assert_int_equal(walk(1025, c, order), 10);
	assert_int_equal(walk(2, 1, order), 0);             /* adjacent ends: found at once */
}

static void skip_takes_the_nearest_untested_neighbour(void **state)
{
	(void)state;
	struct bisect b;
	struct err e;
	size_t mid;
	assert_int_equal(bisect_init(&b, 9, 0, 8, 24, false, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 4);
	assert_int_equal(bisect_record(&b, 4, BISECT_SKIPPED, BISECT_WHY_BUILD, 0, 0, BISECT_GOOD, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 3); /* 3 and 5 equally near: the lower */
	assert_int_equal(bisect_record(&b, 3, BISECT_SKIPPED, BISECT_WHY_BUILD, 0, 0, BISECT_GOOD, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 5);
	assert_int_equal(bisect_record(&b, 5, BISECT_BAD, BISECT_WHY_SLOWER_EQUIV_BAD, 6, 2, BISECT_GOOD, &e), 0);
	/* (0, 5): midpoint 2, untested */
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 2);
	assert_int_equal(bisect_record(&b, 2, BISECT_GOOD, BISECT_WHY_EQUIV_GOOD, 6, 2, BISECT_GOOD, &e), 0);
	/* (2, 5) holds only the skipped 3 and 4: the culprit is one of 3..5 */
	assert_false(bisect_next(&b, &mid));
	assert_int_equal(b.state, BISECT_AMBIGUOUS);
	assert_int_equal(b.culprit_lo, 3);
	assert_int_equal(b.culprit, 5);
	assert_string_equal(bisect_state_word(b.state), "ambiguous");
	/* nothing more can be recorded */
	assert_int_equal(bisect_record(&b, 3, BISECT_GOOD, BISECT_WHY_EQUIV_GOOD, 6, 2, BISECT_GOOD, &e), -1);
	assert_non_null(strstr(e.msg, "ambiguous"));
	bisect_free(&b);
}

static void record_refuses_a_midpoint_outside_the_range(void **state)
{
	(void)state;
	struct bisect b;
	struct err e;
	assert_int_equal(bisect_init(&b, 8, 0, 7, 24, false, &e), 0);
	assert_int_equal(bisect_record(&b, 7, BISECT_GOOD, BISECT_WHY_EQUIV_GOOD, 3, 1, BISECT_GOOD, &e), -1);
	assert_non_null(strstr(e.msg, "not between the ends 1 and 8"));
	assert_int_equal(bisect_record(&b, 3, BISECT_MORE, BISECT_WHY_OPEN, 3, 1, BISECT_GOOD, &e), -1);
	assert_int_equal(b.nsteps, 0);
	bisect_free(&b);
}

static void each_step_is_called_from_its_verdicts(void **state)
{
	(void)state;
	enum bisect_why why;
	struct bisect_verdicts w[2];
	/* equivalent to good -> good */
	w[0] = vr(ST_EQUIVALENT, ST_FASTER, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, false, 3, 3, 24, &why), BISECT_GOOD);
	assert_int_equal(why, BISECT_WHY_EQUIV_GOOD);
	/* slower than good and equivalent to bad -> bad */
	w[0] = vr(ST_SLOWER, ST_EQUIVALENT, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, false, 3, 3, 24, &why), BISECT_BAD);
	assert_int_equal(why, BISECT_WHY_SLOWER_EQUIV_BAD);
	/* slower than good but not yet equivalent to bad -> more */
	w[0] = vr(ST_SLOWER, ST_INCONCLUSIVE, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, false, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(why, BISECT_WHY_OPEN);
	/* slower than good and faster than bad: neither end; more, then undecided at the cap */
	w[0] = vr(ST_SLOWER, ST_FASTER, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, false, 21, 3, 24, &why), BISECT_MORE);
	assert_int_equal(bisect_decide(w, 1, false, 24, 3, 24, &why), BISECT_UNDECIDED);
	assert_int_equal(why, BISECT_WHY_CAP);
	/* two workloads: both must agree */
	w[0] = vr(ST_EQUIVALENT, ST_FASTER, ST_SLOWER);
	w[1] = vr(ST_SLOWER, ST_EQUIVALENT, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 2, false, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(why, BISECT_WHY_SPLIT);
	w[1] = vr(ST_EQUIVALENT, ST_INCONCLUSIVE, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 2, false, 3, 3, 24, &why), BISECT_GOOD);
	/* a withheld verdict is never decided on, even when the others would decide */
	w[1] = vr(ST_WITHHELD, ST_INCONCLUSIVE, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 2, false, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(why, BISECT_WHY_WITHHELD);
	assert_int_equal(bisect_decide(w, 2, false, 24, 3, 24, &why), BISECT_UNDECIDED);
	w[0] = vr(ST_NO_DATA, ST_NO_DATA, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, false, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(bisect_decide(w, 0, false, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(why, BISECT_WHY_WITHHELD);
}

static void first_step_checks_the_ends(void **state)
{
	(void)state;
	enum bisect_why why;
	struct bisect_verdicts w[1];
	/* ends equivalent: nothing to bisect, said at the first step even though mid is decided */
	w[0] = vr(ST_EQUIVALENT, ST_EQUIVALENT, ST_EQUIVALENT);
	assert_int_equal(bisect_decide(w, 1, true, 3, 3, 24, &why), BISECT_NO_STEP);
	assert_int_equal(why, BISECT_WHY_ENDS_NOT_SLOWER);
	w[0] = vr(ST_EQUIVALENT, ST_INCONCLUSIVE, ST_FASTER);
	assert_int_equal(bisect_decide(w, 1, true, 3, 3, 24, &why), BISECT_NO_STEP);
	/* ends inconclusive: more, and at the cap no step (not slower) */
	w[0] = vr(ST_EQUIVALENT, ST_INCONCLUSIVE, ST_INCONCLUSIVE);
	assert_int_equal(bisect_decide(w, 1, true, 3, 3, 24, &why), BISECT_MORE);
	assert_int_equal(why, BISECT_WHY_ENDS_PENDING);
	assert_int_equal(bisect_decide(w, 1, true, 24, 3, 24, &why), BISECT_NO_STEP);
	/* ends slower: the midpoint's verdicts decide */
	w[0] = vr(ST_EQUIVALENT, ST_INCONCLUSIVE, ST_SLOWER);
	assert_int_equal(bisect_decide(w, 1, true, 3, 3, 24, &why), BISECT_GOOD);
	/* later steps do not read the ends */
	w[0] = vr(ST_EQUIVALENT, ST_INCONCLUSIVE, ST_EQUIVALENT);
	assert_int_equal(bisect_decide(w, 1, false, 3, 3, 24, &why), BISECT_GOOD);

	struct bisect b;
	struct err e;
	size_t mid;
	assert_int_equal(bisect_init(&b, 1024, 0, 1023, 24, false, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(bisect_record(&b, mid, BISECT_NO_STEP, BISECT_WHY_ENDS_NOT_SLOWER, 6, 2, BISECT_GOOD, &e), 0);
	assert_int_equal(b.state, BISECT_NOSTEP);
	assert_int_equal(b.nsteps, 1);
	assert_false(bisect_next(&b, &mid));
	bisect_free(&b);
}

static void undecided_goes_on_only_with_assume(void **state)
{
	(void)state;
	struct bisect_verdicts w[2] = {vr(ST_SLOWER, ST_FASTER, ST_SLOWER), vr(ST_SLOWER, ST_FASTER, ST_SLOWER)};
	/* nearer bad: -1.8% from good, +0.2% from bad */
	w[0].d_good = -0.018, w[0].d_bad = 0.002, w[1].d_good = -0.01, w[1].d_bad = 0.01;
	assert_int_equal(bisect_favoured(w, 2), BISECT_BAD);
	w[0].d_good = -0.002, w[0].d_bad = 0.018;
	assert_int_equal(bisect_favoured(w, 2), BISECT_GOOD);

	struct bisect b;
	struct err e;
	size_t mid;
	assert_int_equal(bisect_init(&b, 8, 0, 7, 24, false, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(bisect_record(&b, mid, BISECT_UNDECIDED, BISECT_WHY_CAP, 24, 8, BISECT_GOOD, &e), 0);
	assert_int_equal(b.state, BISECT_STUCK); /* never silently */
	assert_false(bisect_next(&b, &mid));
	assert_false(b.steps[0].assumed);
	bisect_free(&b);

	assert_int_equal(bisect_init(&b, 8, 0, 7, 24, true, &e), 0);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 3);
	assert_int_equal(bisect_record(&b, mid, BISECT_UNDECIDED, BISECT_WHY_CAP, 24, 8, BISECT_GOOD, &e), 0);
	assert_int_equal(b.state, BISECT_RUNNING);
	assert_true(b.steps[0].assumed);
	assert_int_equal(b.steps[0].call, BISECT_UNDECIDED); /* reported as undecided, not as good */
	assert_int_equal(b.good, 3);
	assert_true(bisect_next(&b, &mid));
	assert_int_equal(mid, 5);
	bisect_free(&b);
}

static void culprit_check_needs_slower_and_a_faster_revert(void **state)
{
	(void)state;
	enum st_verdict cp[2] = {ST_SLOWER, ST_SLOWER}, rv[2] = {ST_FASTER, ST_FASTER};
	assert_int_equal(bisect_check_decide(cp, NULL, 2), BISECT_CONFIRMED);
	assert_int_equal(bisect_check_decide(cp, rv, 2), BISECT_CONFIRMED);
	rv[1] = ST_EQUIVALENT;
	assert_int_equal(bisect_check_decide(cp, rv, 2), BISECT_UNCONFIRMED);
	cp[1] = ST_INCONCLUSIVE;
	assert_int_equal(bisect_check_decide(cp, NULL, 2), BISECT_UNCONFIRMED);
	cp[1] = ST_WITHHELD;
	assert_int_equal(bisect_check_decide(cp, NULL, 2), BISECT_UNCONFIRMED);
	assert_int_equal(bisect_check_decide(cp, NULL, 0), BISECT_UNCONFIRMED);
}

static void words_cover_every_value(void **state)
{
	(void)state;
	for (int c = BISECT_MORE; c <= BISECT_SKIPPED; c++)
		assert_string_not_equal(bisect_call_word(c), "?");
	for (int w = BISECT_WHY_EQUIV_GOOD; w <= BISECT_WHY_BUILD; w++)
		assert_string_not_equal(bisect_why_word(w), "?");
	for (int s = BISECT_RUNNING; s <= BISECT_NOSTEP; s++)
		assert_string_not_equal(bisect_state_word(s), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_input_is_named),
		cmocka_unit_test(midpoints_halve_the_range),
		cmocka_unit_test(skip_takes_the_nearest_untested_neighbour),
		cmocka_unit_test(record_refuses_a_midpoint_outside_the_range),
		cmocka_unit_test(each_step_is_called_from_its_verdicts),
		cmocka_unit_test(first_step_checks_the_ends),
		cmocka_unit_test(undecided_goes_on_only_with_assume),
		cmocka_unit_test(culprit_check_needs_slower_and_a_faster_revert),
		cmocka_unit_test(words_cover_every_value),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
