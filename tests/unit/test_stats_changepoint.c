/* test_stats_changepoint.c - sysab history's change points: A/A rate, power and location accuracy by simulation. */
#include "unit.h"
#include "stats/stats.h"
#include "stats/changepoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/*
 * A series of NB boots, each 2 runs x 10 samples of y = ln(ops/s): boot offset N(0, TAU),
 * run offset N(0, SD_RUN), samples N(0, sd_b) with sd_b drawn per boot from 0.5%, 1%, 2%
 * (heteroscedastic boots). Each boot's estimate and standard error come from the nested
 * estimator with the boot as its own group, as `sysab history` computes them. Scenarios:
 * A/A (no change), A/A with one boot at -7% (a spike), a step of 2 TAU in the middle, and
 * the issue's example (spike -7% at 30, a 3% slowdown from 60).
 *
 * make check runs FAST_REPS series per scenario and asserts bounds with Monte Carlo slack;
 * SYSAB_CP=full (make bench-stats) runs FULL_REPS and prints the table of docs/METHOD.md
 * ("History: change points"). SYSAB_CP_REPS overrides the count.
 */

#define NB 100
#define RUNS 2
#define SAMPLES 10
#define TAU 0.01
#define SD_RUN 0.0025
#define FAST_REPS 150
#define FULL_REPS 1000

struct series {
	double y[NB * RUNS * SAMPLES];
	struct st_run runs[NB * RUNS];
	struct st_boot boots[NB];
	struct st_group groups[NB];
	struct st_estimate est[NB];
	double x[NB], se[NB];
};

/* Scenario knobs beyond draw's arguments: the step ends before boot step_end (an episode), and
 * from boot tau_at on the boot offsets' sd is tau_mul TAU (a variance change). */
static size_t step_end = NB, tau_at = NB;
static double tau_mul = 1;

/* Draw one series: mean shift step from boot `at` on, the boot `spike` (if < NB) moved by spike_d. */
static void draw(gsl_rng *r, struct series *s, size_t at, double step, size_t spike, double spike_d)
{
	static const double sds[] = {0.005, 0.01, 0.02};
	size_t k = 0;
	for (size_t b = 0; b < NB; b++) {
		double sd = sds[gsl_rng_uniform_int(r, 3)];
		double bo = 7 + (b >= at && b < step_end ? step : 0) + (b == spike ? spike_d : 0) +
			    (b >= tau_at ? tau_mul : 1) * TAU * gsl_ran_gaussian_ziggurat(r, 1);
		for (size_t j = 0; j < RUNS; j++) {
			double ro = bo + SD_RUN * gsl_ran_gaussian_ziggurat(r, 1);
			double *y = &s->y[k * SAMPLES];
			for (size_t i = 0; i < SAMPLES; i++)
				y[i] = ro + sd * gsl_ran_gaussian_ziggurat(r, 1);
			s->runs[k] = (struct st_run){.y = y, .round = NULL, .n = SAMPLES, .sum = NULL};
			k++;
		}
		s->boots[b] = (struct st_boot){&s->runs[b * RUNS], RUNS};
		s->groups[b] = (struct st_group){.boots = &s->boots[b], .nboots = 1};
	}
	struct err e;
	assert_int_equal(stats_estimate_groups(s->groups, NB, s->est, &e), 0);
	for (size_t b = 0; b < NB; b++) {
		s->x[b] = s->est[b].mean;
		s->se[b] = s->est[b].se;
	}
}

struct tally {
	size_t reps, any, found, near, one, covers, at_spike, size_covers;
};

/* reps series of one scenario. any: a change reported; for a step at `at`: near, a change
 * within +-5 boots of it (size_covers: the first such change's size interval covers the
 * step); covers, a change whose location interval covers at; at_spike: a change at the spike. */
static void scenario(size_t reps, size_t at, double step, size_t spike, double spike_d, uint64_t seed, struct tally *t)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, (unsigned long)seed);
	struct series *s = malloc(sizeof *s);
	struct st_cp_opts o = stats_cp_defaults();
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < reps; i++) {
		draw(r, s, at, step, spike, spike_d);
		o.seed = seed + i;
		struct st_cp_result res;
		struct err e;
		assert_int_equal(stats_changepoints(s->x, s->se, NB, &o, &res, &e), 0);
		t->reps++;
		t->any += res.nchanges > 0;
		t->one += res.nchanges == 1;
		if (res.nchanges)
			t->found++;
		bool near = false, covers = false, at_spike = false;
		for (size_t j = 0; j < res.nchanges; j++) {
			const struct st_cp_change *c = &res.changes[j];
			if (at < NB && (c->index + 5 >= at && c->index <= at + 5) && !near) {
				near = true;
				t->size_covers += c->lo <= step && step <= c->hi;
			}
			if (at < NB && c->index_lo <= at && at <= c->index_hi)
				covers = true;
			if (spike < NB && (c->index == spike || c->index == spike + 1))
				at_spike = true;
		}
		t->near += near;
		t->covers += covers;
		t->at_spike += at_spike;
		stats_cp_free(&res);
	}
	free(s);
	gsl_rng_free(r);
}

static size_t reps_wanted(bool *full)
{
	const char *m = getenv("SYSAB_CP"), *n = getenv("SYSAB_CP_REPS");
	*full = m && !strcmp(m, "full");
	if (n && atoi(n) > 0)
		return (size_t)atoi(n);
	return *full ? FULL_REPS : FAST_REPS;
}

static double pct(size_t k, size_t n)
{
	return 100.0 * (double)k / (double)n;
}

/* The operating characteristics: A/A (with and without a spike) and the power at 2 TAU. */
static void cp_operating_characteristics(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full);
	struct tally aa, aas, pw;
	scenario(n, NB, 0, NB, 0, 1000, &aa);
	scenario(n, NB, 0, 30, -0.07, 2000, &aas);
	scenario(n, NB / 2, -2 * TAU, NB, 0, 3000, &pw);
	if (full || getenv("SYSAB_CP_REPS")) {
		printf("history change points: %zu series of %d boots (%d runs x %d samples; tau %.1f%%, per-boot sd "
		       "0.5/1/2%%), alpha %g\n",
		       n, NB, RUNS, SAMPLES, 100 * TAU, stats_cp_defaults().alpha);
		printf("  A/A                 any change: %5.1f%%\n", pct(aa.any, n));
		printf("  A/A + spike -7%% @30 any change: %5.1f%%  (at the spike: %.1f%%)\n", pct(aas.any, n),
		       pct(aas.at_spike, n));
		printf("  step -2 tau @50     found: %5.1f%%  within +-5: %5.1f%%  interval covers 50: %5.1f%%  exactly "
		       "one: %5.1f%%  size interval covers the step: %5.1f%% of those within +-5\n",
		       pct(pw.found, n), pct(pw.near, n), pct(pw.covers, n), pct(pw.one, n), pct(pw.size_covers, pw.near));
	}
	/* Bounds with Monte Carlo slack: at 150 series, 1% is 1.5 series (<= 5 holds with
	 * probability > 0.98 at a true 1%); 90% power and 80% location leave 7 and 9 points. */
	double slack = full ? 0 : 1;
	assert_true(pct(aa.any, n) <= 1.0 + 2.5 * slack);
	assert_true(pct(aas.any, n) <= 1.0 + 2.5 * slack);
	assert_true(pct(pw.found, n) >= 90.0 - 7 * slack);
	assert_true(pct(pw.near, n) >= 80.0 - 9 * slack);
}

/* The spike guard (outlying boots left out of the CUSUM, Huber's clipping of the rest): A/A
 * series with one boot far off (a boot where something else ran, say) at the start, in the
 * middle and near the end, -7% and -20%, report no change; a boot far off in the first or last
 * min_seg boots is the case a CUSUM without the guard splits off. Each case, FAST_REPS / 5
 * series: at most 2 with any change (other counts, as SYSAB_CP=full or SYSAB_CP_REPS give: at most 2%). With the guard it is 0 or 1 of 30 in each case; removed
 * (both parts), -7% at boot 1 gives a change in 13 of 30, and without the clipping alone, -7% at
 * boot 98 in 3 of 30 (issue 49 item 8). */
static void cp_spike_guard(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full) / 5;
	static const size_t at[] = {1, 30, NB - 2};
	static const double by[] = {-0.07, -0.20};
	for (size_t i = 0; i < sizeof at / sizeof *at; i++)
		for (size_t j = 0; j < sizeof by / sizeof *by; j++) {
			struct tally t;
			scenario(n, NB, 0, at[i], log(1 + by[j]), 4000 + 10 * i + j, &t);
			if (full || getenv("SYSAB_CP_REPS"))
				printf("  A/A + spike %+.0f%% @%zu   any change: %5.1f%%\n", 100 * by[j], at[i], pct(t.any, n));
			if (n != FAST_REPS / 5 ? pct(t.any, n) > 2.0 : t.any > 2)
				fail_msg("A/A with a boot at %+.0f%% at %zu: a change in %zu of %zu series", 100 * by[j], at[i],
					 t.any, n);
		}
}

/* The issue's example: one change, its interval covering 60, none at the spike. */
static void cp_issue_example(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 36);
	struct series *s = malloc(sizeof *s);
	size_t ok = 0;
	for (int rep = 0; rep < 10; rep++) {
		draw(r, s, 60, log(0.97), 30, log(0.93));
		struct st_cp_opts o = stats_cp_defaults();
		struct st_cp_result res;
		struct err e;
		assert_int_equal(stats_changepoints(s->x, s->se, NB, &o, &res, &e), 0);
		if (res.nchanges == 1 && res.changes[0].index_lo <= 60 && 60 <= res.changes[0].index_hi &&
		    res.changes[0].pct_lo < -3 + 0.0 + 2 && res.changes[0].pct_hi > -3 - 2)
			ok++;
		stats_cp_free(&res);
	}
	assert_true(ok >= 8);
	free(s);
	gsl_rng_free(r);
}

/* tau^2 from successive differences: near the truth, untouched by a step, 0 when the
 * standard errors explain the scatter. */
static void cp_tau2(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 7);
	enum { N = 2000 };
	static double x[N], s2[N];
	for (size_t i = 0; i < N; i++) {
		s2[i] = 0.0001;
		x[i] = (i >= N / 2 ? 0.5 : 0) + gsl_ran_gaussian(r, sqrt(0.0004 + s2[i]));
	}
	double t = stats_cp_tau2(x, s2, N);
	assert_true(t > 0.0004 * 0.85 && t < 0.0004 * 1.15);
	for (size_t i = 0; i < N; i++)
		x[i] = gsl_ran_gaussian(r, 0.01);
	for (size_t i = 0; i < N; i++)
		s2[i] = 0.0004; /* the standard errors alone (sd 2%) are more than the scatter */
	assert_true(stats_cp_tau2(x, s2, N) == 0);
	gsl_rng_free(r);
}

/* Too few boots is an error that says how many are needed; a clean step is found exactly. */
static void cp_edges(void **state)
{
	(void)state;
	double x[40], se[40];
	struct st_cp_opts o = stats_cp_defaults();
	struct st_cp_result res;
	struct err e;
	assert_int_equal(stats_changepoints(x, se, 5, &o, &res, &e), -1);
	assert_non_null(strstr(e.msg, "at least 6"));
	for (size_t i = 0; i < 40; i++) {
		x[i] = (i >= 25 ? -0.1 : 0) + 0.01 * sin((double)i * 1.7);
		se[i] = 0.005;
	}
	assert_int_equal(stats_changepoints(x, se, 40, &o, &res, &e), 0);
	assert_int_equal(res.nchanges, 1);
	assert_int_equal(res.changes[0].index, 25);
	/* the ends where a change has fewer than ST_CP_EDGE boots on its side */
	assert_int_equal(res.head_to, ST_CP_EDGE - 1);
	assert_int_equal(res.tail_from, 40 - ST_CP_EDGE + 1);
	assert_true(res.changes[0].pct < -9 && res.changes[0].pct > -10.5);
	assert_true(res.changes[0].index_lo <= 25 && res.changes[0].index_hi >= 25);
	/* the same data and seed: the same answer */
	struct st_cp_result again;
	assert_int_equal(stats_changepoints(x, se, 40, &o, &again, &e), 0);
	assert_int_equal(again.changes[0].index_lo, res.changes[0].index_lo);
	assert_int_equal(again.changes[0].index_hi, res.changes[0].index_hi);
	stats_cp_free(&again);
	stats_cp_free(&res);
	/* boots without any scatter: a step between them is found, none without it */
	for (size_t i = 0; i < 20; i++) {
		x[i] = i >= 10 ? 1 : 0;
		se[i] = 0;
	}
	assert_int_equal(stats_changepoints(x, se, 20, &o, &res, &e), 0);
	assert_int_equal(res.nchanges, 1);
	assert_int_equal(res.changes[0].index, 10);
	stats_cp_free(&res);
	for (size_t i = 0; i < 20; i++)
		x[i] = 0;
	assert_int_equal(stats_changepoints(x, se, 20, &o, &res, &e), 0);
	assert_int_equal(res.nchanges, 0);
	stats_cp_free(&res);
	stats_cp_free(NULL);
}

/* History at the edges (issue 49 item 1): a step in the last k boots (k = 2..8) of -3, -6 and
 * -10 tau. Prints, per k and size, how often a change is found within +-2 boots of it and how
 * often a found change's location interval covers it (SYSAB_CP=full: FULL_REPS / 5 series per
 * cell, the table of docs/METHOD.md). make check asserts what the report promises: a change with
 * at least ST_CP_EDGE boots after it, at -6 tau, is found in >= 80% (FAST_REPS / 5 series: Monte
 * Carlo slack of 10 points) and its location interval covers it in >= 90% of series. */
static void cp_edge_power(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full) / 5;
	static const double by[] = {-3, -6, -10};
	for (size_t k = 2; k <= 8; k++)
		for (size_t j = 0; j < sizeof by / sizeof *by; j++) {
			if (!full && !getenv("SYSAB_CP_REPS") && !(k == ST_CP_EDGE && by[j] == -6))
				continue;
			struct tally t;
			scenario(n, NB - k, by[j] * TAU, NB, 0, 5000 + 10 * k + j, &t);
			if (full || getenv("SYSAB_CP_REPS"))
				printf("  step %+.0f tau in the last %zu boots: found (+-5) %5.1f%% (MC SE %.1f), location "
				       "interval covers it %5.1f%% of all series\n",
				       by[j], k, pct(t.near, n), sqrt(pct(t.near, n) * (100 - pct(t.near, n)) / (double)n),
				       pct(t.covers, n));
			if (k == ST_CP_EDGE && by[j] == -6) {
				assert_true(pct(t.near, n) >= 80.0 - (full ? 0 : 10));
				assert_true(pct(t.covers, n) >= 90.0 - (full ? 0 : 10));
			}
		}
}

static double mc_se(size_t k, size_t n)
{
	return sqrt(pct(k, n) * (100 - pct(k, n)) / (double)n);
}

/* A variance change (issue 49 item 3): the boot sd doubles at boot 50 without any mean
 * change; any change reported is a false mean change (target <= 0.5% of series). Measured
 * only (SYSAB_CP=full or SYSAB_CP_REPS, as many series as the A/A row): not yet met. */
static void cp_variance_change(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full);
	if (!full && !getenv("SYSAB_CP_REPS"))
		return;
	struct tally t;
	tau_at = 50;
	tau_mul = 2;
	scenario(n, NB, 0, NB, 0, 6000, &t);
	tau_at = NB;
	tau_mul = 1;
	printf("  boot sd doubles at 50, no mean change: any change %5.1f%% (MC SE %.1f) of %zu series\n", pct(t.any, n),
	       mc_se(t.any, n), n);
}

/* A short episode (issue 49 item 4): -3 tau over boots 45..54, a regression later fixed. The
 * episode scan finds it: a change within +-5 boots of 45 and one within +-5 of 55 (both ends)
 * in >= 80% of series. make check: FAST_REPS / 5 series, 15 points of Monte Carlo slack (2
 * SE at 80%). Without the scan (the CUSUM alone) it was 4%. */
static void cp_episode(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full) / 5, both = 0, either = 0, any = 0;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 6100);
	struct series *s = malloc(sizeof *s);
	step_end = 55;
	for (size_t i = 0; i < n; i++) {
		draw(r, s, 45, -3 * TAU, NB, 0);
		struct st_cp_opts o = stats_cp_defaults();
		o.seed = 6100 + i;
		struct st_cp_result res;
		struct err e;
		assert_int_equal(stats_changepoints(s->x, s->se, NB, &o, &res, &e), 0);
		bool s45 = false, s55 = false;
		for (size_t j = 0; j < res.nchanges; j++) {
			s45 |= res.changes[j].index + 5 >= 45 && res.changes[j].index <= 45 + 5;
			s55 |= res.changes[j].index + 5 >= 55 && res.changes[j].index <= 55 + 5;
		}
		both += s45 && s55;
		either += s45 || s55;
		any += res.nchanges > 0;
		stats_cp_free(&res);
	}
	step_end = NB;
	free(s);
	gsl_rng_free(r);
	if (full || getenv("SYSAB_CP_REPS"))
		printf("  episode -3 tau over boots 45..54: both ends found (+-5) %5.1f%% (MC SE %.1f), either %5.1f%%, any "
		       "change %5.1f%% of %zu series\n",
		       pct(both, n), mc_se(both, n), pct(either, n), pct(any, n), n);
	assert_true(pct(both, n) >= 80.0 - (full ? 0 : 15));
}

/* Two close steps (issue 49 item 5): -3 tau at 40 and another -3 tau at 50. Each change is
 * refitted and located between its neighbours, so a location interval covers 40 and one
 * covers 50 in >= 90% of series each (before: 93.5% and 69.5%). make check: FAST_REPS / 5
 * series, 11 points of slack (2 SE at 90%). */
static void cp_close_steps(void **state)
{
	(void)state;
	bool full;
	size_t n = reps_wanted(&full) / 5, cov40 = 0, cov50 = 0;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 6200);
	struct series *s = malloc(sizeof *s);
	for (size_t i = 0; i < n; i++) {
		draw(r, s, 40, -3 * TAU, NB, 0);
		for (size_t b = 50; b < NB; b++)
			s->x[b] -= 3 * TAU;
		struct st_cp_opts o = stats_cp_defaults();
		o.seed = 6200 + i;
		struct st_cp_result res;
		struct err e;
		assert_int_equal(stats_changepoints(s->x, s->se, NB, &o, &res, &e), 0);
		bool c40 = false, c50 = false;
		for (size_t j = 0; j < res.nchanges; j++) {
			c40 |= res.changes[j].index_lo <= 40 && 40 <= res.changes[j].index_hi;
			c50 |= res.changes[j].index_lo <= 50 && 50 <= res.changes[j].index_hi;
		}
		cov40 += c40;
		cov50 += c50;
		stats_cp_free(&res);
	}
	free(s);
	gsl_rng_free(r);
	if (full || getenv("SYSAB_CP_REPS"))
		printf("  two steps of -3 tau at 40 and 50: a location interval covers 40 in %5.1f%% (MC SE %.1f), 50 in "
		       "%5.1f%% (MC SE %.1f) of %zu series\n",
		       pct(cov40, n), mc_se(cov40, n), pct(cov50, n), mc_se(cov50, n), n);
	assert_true(pct(cov40, n) >= 90.0 - (full ? 0 : 11));
	assert_true(pct(cov50, n) >= 90.0 - (full ? 0 : 11));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cp_tau2),
		cmocka_unit_test(cp_edges),
		cmocka_unit_test(cp_issue_example),
		cmocka_unit_test(cp_operating_characteristics),
		cmocka_unit_test(cp_spike_guard),
		cmocka_unit_test(cp_edge_power),
		cmocka_unit_test(cp_variance_change),
		cmocka_unit_test(cp_episode),
		cmocka_unit_test(cp_close_steps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
