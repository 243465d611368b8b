/* test_stats_units.c - batch rule, caveats, factorial contrasts, plans, diagnostics, confounders, summaries. */
#include "unit.h"
#include "stats/stats.h"
#include "analysis/analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

/* An estimate with a given mean, se and df (as stats_estimate_groups would give). */
static struct st_estimate est(double mean, double se, double df)
{
	struct st_estimate e = {.mean = mean, .se = se, .df = df, .has_interval = true, .nboots = 4,
				.covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN)};
	return e;
}

static void batch_rule_follows_sqrt_n(void **state)
{
	(void)state;
	double y[200];
	for (size_t i = 0; i < 200; i++)
		y[i] = (double)(i % 7);
	struct { size_t n, b, m; } want[] = {{3, 0, 0}, {4, 2, 2}, {9, 3, 3}, {10, 3, 3}, {30, 5, 6}, {200, 10, 20}};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		struct st_run r = {.y = y, .n = want[i].n};
		struct st_runstat rs;
		stats_run_batches(&r, &rs);
		assert_int_equal(rs.nbatches, want[i].b);
		assert_int_equal(rs.batch_size, want[i].m);
		if (want[i].b == 0)
			assert_true(isnan(rs.var_mean));
	}
	/* Rounds: batches never split a round. 4 rounds of 3 samples -> 2 batches of 2 rounds. */
	int round[12] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
	struct st_run r = {.y = y, .round = round, .n = 12};
	struct st_runstat rs;
	stats_run_batches(&r, &rs);
	assert_int_equal(rs.nbatches, 2);
	assert_int_equal(rs.batch_size, 6);
}

static void autocorrelated_batches_are_flagged(void **state)
{
	(void)state;
	double y[400];
	for (size_t i = 0; i < 400; i++)
		y[i] = sin((double)i / 100.0); /* slow wave: batch means strongly correlated */
	struct st_run r = {.y = y, .n = 400};
	struct st_runstat rs;
	stats_run_batches(&r, &rs);
	assert_true(rs.r1 > 0.5);
	assert_true(rs.autocorr);
}

static void single_observation_has_no_verdict(void **state)
{
	(void)state;
	double a = 7.0, b = 7.1;
	struct st_run ra = {.y = &a, .n = 1}, rb = {.y = &b, .n = 1};
	struct st_boot ba = {&ra, 1}, bb = {&rb, 1};
	struct st_group g[2] = {{.boots = &ba, .nboots = 1}, {.boots = &bb, .nboots = 1}};
	struct st_estimate e[2];
	struct err err;
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	assert_false(e[0].has_interval);
	assert_true(e[0].caveats & ST_CAVEAT_SINGLE_OBS);
	assert_int_equal(e[0].need, ST_NEED_RUNS);
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	stats_compare(&e[0], &e[1], &o, &c);
	assert_int_equal(c.verdict, ST_NO_DATA);
	assert_true(isnan(c.lo));
	assert_float_equal(c.d, 0.1, 1e-12);
	assert_true(c.caveats & ST_CAVEAT_SINGLE_OBS);
}

static void one_boot_everywhere_is_a_caveat_and_borrowing_is_recorded(void **state)
{
	(void)state;
	double y[6][10];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 7);
	for (size_t r = 0; r < 6; r++)
		for (size_t i = 0; i < 10; i++)
			y[r][i] = 7 + 0.01 * (double)r + gsl_ran_gaussian(rng, 0.01);
	gsl_rng_free(rng);
	struct st_run runs[6];
	for (size_t r = 0; r < 6; r++)
		runs[r] = (struct st_run){.y = y[r], .n = 10};
	/* A: 1 boot x 3 runs; B: 1 boot x 3 runs. No group measures boots. */
	struct st_boot a = {&runs[0], 3}, b = {&runs[3], 3};
	struct st_group g[2] = {{.boots = &a, .nboots = 1}, {.boots = &b, .nboots = 1}};
	struct st_estimate e[2];
	struct err err;
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	assert_true(e[0].has_interval);
	assert_true(e[0].caveats & ST_CAVEAT_NO_BOOT_LEVEL);
	assert_false(e[0].covered & ST_BIT(ST_LEVEL_BOOT));
	assert_int_equal(e[0].need, ST_NEED_BOOTS);

	/* B now has 3 boots of 1 run: A borrows B's boot level. */
	struct st_boot b3[3] = {{&runs[3], 1}, {&runs[4], 1}, {&runs[5], 1}};
	g[1] = (struct st_group){.boots = b3, .nboots = 3};
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	/* B has 1 run per boot: its run level is borrowed from A, but its interval needs nothing borrowed. */
	assert_true(e[1].borrowed & ST_BIT(ST_LEVEL_RUN));
	assert_int_equal(e[1].caveats & (ST_CAVEAT_BORROWED_BOOT | ST_CAVEAT_BORROWED_RUN), 0);
	/* A cannot separate boots (1 boot) and B cannot separate runs from boots (1 run per boot):
	 * no group measures the boot level apart from runs, so A's boot level is not covered. */
	assert_true(e[0].caveats & ST_CAVEAT_NO_BOOT_LEVEL);
}

/* A: one boot of 3 runs; B: 3 boots of 3 runs, boot offsets from boot_sd (seeded) or fixed. */
static void borrow_case(double boot_sd, const double *fixed, struct st_estimate e[2], struct st_estimate *alone)
{
	static double y[12][8];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 9);
	double boot = 0;
	for (size_t r = 0; r < 12; r++) {
		if (r % 3 == 0)
			boot = fixed ? fixed[r / 3] : gsl_ran_gaussian(rng, boot_sd);
		for (size_t i = 0; i < 8; i++)
			y[r][i] = 7 + boot * (r >= 3) + gsl_ran_gaussian(rng, 0.005);
	}
	gsl_rng_free(rng);
	struct st_run runs[12];
	for (size_t r = 0; r < 12; r++)
		runs[r] = (struct st_run){.y = y[r], .n = 8};
	struct st_boot a = {&runs[0], 3};
	struct st_boot b[3] = {{&runs[3], 3}, {&runs[6], 3}, {&runs[9], 3}};
	struct st_group g[2] = {{.boots = &a, .nboots = 1}, {.boots = b, .nboots = 3}};
	struct err err;
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	assert_int_equal(stats_estimate_groups(g, 1, alone, &err), 0);
}

static void borrowed_boot_level_widens_interval(void **state)
{
	(void)state;
	static const double offs[4] = {0, 0.02, -0.015, 0.03};
	struct st_estimate e[2], alone;
	borrow_case(0, offs, e, &alone);
	assert_true(e[1].own.df_boot >= ST_MIN_BORROW_DF);
	assert_true(e[0].caveats & ST_CAVEAT_BORROWED_BOOT);
	assert_true(e[0].borrowed & ST_BIT(ST_LEVEL_BOOT));
	assert_true(e[0].covered & ST_BIT(ST_LEVEL_BOOT));
	assert_true(alone.caveats & ST_CAVEAT_NO_BOOT_LEVEL);
	assert_true(e[0].se > alone.se);
	assert_true(e[0].used.var_boot > 0);
}

/* A donor whose boot variance has under 1 df (here 0.83: a small boot effect) lends
 * nothing: the one-boot group has no boot replication, and the comparison no verdict. */
static void weak_donor_lends_no_boot_variance(void **state)
{
	(void)state;
	struct st_estimate e[2], alone;
	borrow_case(0.02, NULL, e, &alone);
	assert_true(e[1].own.df_boot < 1);
	assert_false(e[0].borrowed & ST_BIT(ST_LEVEL_BOOT));
	assert_true(e[0].caveats & ST_CAVEAT_NO_BOOT_LEVEL);
	assert_true(e[0].caveats & ST_CAVEAT_BORROW_REFUSED);
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	e[1].mean += 0.2; /* a large difference still gets no verdict */
	stats_compare(&e[0], &e[1], &o, &c);
	assert_int_equal(c.verdict, ST_INCONCLUSIVE);
	assert_true(c.caveats & ST_CAVEAT_NO_BOOT_REPL);
	/* Declared within-boot comparison: runs are the unit, and the verdict is given. */
	o.unit = ST_LEVEL_RUN;
	stats_compare(&e[0], &e[1], &o, &c);
	assert_int_equal(c.verdict, ST_FASTER);
	assert_true(c.caveats & ST_CAVEAT_RUN_UNIT);
	assert_false(c.caveats & ST_CAVEAT_NO_RUN_REPL);
}


/* df far below 1 (a borrowed variance with df 0.0003) used to abort inside GSL's t
 * inverse; now the comparison has no verdict and says why. */
static void tiny_df_gives_no_verdict_and_never_aborts(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	struct st_estimate a = est(7, 0.01, 0.0013), b = est(7.5, 0.01, 0.0013);
	stats_compare(&a, &b, &o, &c);
	assert_int_equal(c.verdict, ST_NO_DATA);
	assert_true(c.caveats & ST_CAVEAT_LOW_DF);
	assert_true(isnan(c.lo) && isnan(c.p));
	/* Below 1 but not tiny: still no verdict. */
	a = est(7, 0.01, 0.4), b = est(7.5, 0.01, 0.4); /* Satterthwaite df 0.8 */
	stats_compare(&a, &b, &o, &c);
	assert_int_equal(c.verdict, ST_NO_DATA);
	/* GSL failures come back as NAN, never as an abort. */
	assert_true(isnan(stats_t_quantile(0.975, 1e-300)) || isfinite(stats_t_quantile(0.975, 1e-300)));
	assert_true(isnan(stats_chisq_quantile(0.2, -1)));
}

/* Published scores repeat exactly at their precision: 100, 100 against 103, 103. */
static void rounded_values_carry_their_rounding_variance(void **state)
{
	(void)state;
	double ya[2] = {log(100), log(100)}, yb[2] = {log(103), log(103)};
	struct st_run ra[2] = {{.y = &ya[0], .n = 1}, {.y = &ya[1], .n = 1}};
	struct st_run rb[2] = {{.y = &yb[0], .n = 1}, {.y = &yb[1], .n = 1}};
	struct st_boot ba[2] = {{&ra[0], 1}, {&ra[1], 1}}, bb[2] = {{&rb[0], 1}, {&rb[1], 1}};
	struct st_group g[2] = {{.boots = ba, .nboots = 2}, {.boots = bb, .nboots = 2}};
	struct st_estimate e[2];
	struct err err;
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	assert_true(e[0].caveats & ST_CAVEAT_QUANTISED);
	assert_float_equal(e[0].resolution, 0.01, 1e-12); /* step 1 at 100 */
	/* se^2 of each mean at least (1/100)^2/12 / 2 boots */
	assert_true(e[0].se >= sqrt(1e-4 / 12 / 2) * (1 - 1e-12));
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	stats_compare(&e[0], &e[1], &o, &c);
	assert_true(c.p > 0);
	assert_true(c.hi > c.lo);
	/* Identical values at more than 8 significant digits: no step, no spread: no verdict. */
	double yc[2] = {log(123456.789012), log(123456.789012)}, yd[2] = {log(127000.123456), log(127000.123456)};
	ra[0].y = &yc[0], ra[1].y = &yc[1], rb[0].y = &yd[0], rb[1].y = &yd[1];
	assert_int_equal(stats_estimate_groups(g, 2, e, &err), 0);
	stats_compare(&e[0], &e[1], &o, &c);
	assert_int_equal(c.verdict, ST_NO_DATA);
	assert_true(c.caveats & ST_CAVEAT_NO_VARIANCE);
	/* Measured values are never round: no floor. */
	double ym[4] = {log(1234567.891234), log(1234001.123456), log(1233333.777777), log(1235555.555123)};
	struct st_run rm = {.y = ym, .n = 4};
	struct st_boot bm = {&rm, 1};
	struct st_group gm = {.boots = &bm, .nboots = 1};
	assert_int_equal(stats_estimate_groups(&gm, 1, e, &err), 0);
	assert_float_equal(e[0].resolution, 0, 0);
	assert_false(e[0].caveats & ST_CAVEAT_QUANTISED);
}

/* Counts per op on the linear scale (counter rows): 0 is a valid value, no rounding step is
 * looked for in e^y, and the estimate equals the log-free arithmetic of the boot means. */
static void linear_scale_counts_are_exact(void **state)
{
	(void)state;
	/* A: 0 per op in every sample (e^0 = 1 would look like a rounded 1 on the log scale);
	 * B: 1, 1.5 per op in boot 1 and 2, 2.5 in boot 2. */
	double ya[2][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}}, yb[2][4] = {{1, 1.5, 1, 1.5}, {2, 2.5, 2, 2.5}};
	struct st_run ra[2] = {{.y = ya[0], .n = 4}, {.y = ya[1], .n = 4}};
	struct st_run rb[2] = {{.y = yb[0], .n = 4}, {.y = yb[1], .n = 4}};
	struct st_boot ba[2] = {{&ra[0], 1}, {&ra[1], 1}}, bb[2] = {{&rb[0], 1}, {&rb[1], 1}};
	struct st_group g[2] = {{.boots = ba, .nboots = 2}, {.boots = bb, .nboots = 2}};
	struct st_estimate e[2];
	struct err err;
	assert_int_equal(stats_estimate_groups_scale(g, 2, true, e, &err), 0);
	assert_false(e[0].caveats & ST_CAVEAT_QUANTISED);
	assert_float_equal(e[0].resolution, 0, 0);
	assert_float_equal(e[0].mean, 0, 0);
	assert_float_equal(e[1].mean, 1.75, 1e-12);
	/* the boot means 1.25 and 2.25: se of their mean 0.5, from the boot level */
	assert_true(e[1].covered & ST_BIT(ST_LEVEL_BOOT));
	assert_float_equal(e[1].se, 0.5, 1e-9);
	/* A alone on the log-scale path: its zeros read as a rounded 1, with a rounding floor */
	assert_int_equal(stats_estimate_groups(g, 1, e, &err), 0);
	assert_true(e[0].caveats & ST_CAVEAT_QUANTISED);
	assert_int_equal(stats_estimate_groups_scale(g, 1, true, e, &err), 0);
	assert_false(e[0].caveats & ST_CAVEAT_QUANTISED);
	assert_float_equal(e[0].se, 0, 0);
}

/* 2 boots against 5: the df is the rule calibrated for 1 against 4 df (stats_bf_df), below
 * the classical Welch df where the 2-boot group holds most of the variance; where it holds
 * nearly all of it, the df is its own. */
static void unbalanced_df_is_below_welch(void **state)
{
	(void)state;
	struct st_estimate a = est(7, 0.004, 1), b = est(7.01, 0.002, 4);
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c, w;
	stats_compare(&a, &b, &o, &c);
	o.classic_df = true;
	stats_compare(&a, &b, &o, &w);
	assert_true(c.df < w.df);
	assert_true(c.df >= 1);
	assert_float_equal(c.se, w.se, 1e-15);
	/* The calibrated rule (stats_bf_rule at the pair's taus), which holds 5% at every ratio. */
	double v[2] = {0.004 * 0.004, 0.002 * 0.002}, f[2] = {1, 4}, t1, t2;
	assert_true(stats_bf_taus(1, 4, 0.05, &t1, &t2));
	assert_float_equal(c.df, stats_bf_rule(v[0], f[0], v[1], f[1], t1, t2), 1e-12);
	struct st_estimate b_quiet = est(7.01, 0.0003, 4);
	o.classic_df = false;
	stats_compare(&a, &b_quiet, &o, &c);
	assert_float_equal(c.df, 1, 0);
	/* Balanced, neither term dominant: Welch's df. */
	struct st_estimate a3 = est(7, 0.003, 3), b3 = est(7.01, 0.0025, 3);
	o.classic_df = false;
	stats_compare(&a3, &b3, &o, &c);
	o.classic_df = true;
	stats_compare(&a3, &b3, &o, &w);
	assert_float_equal(c.df, w.df, 1e-9);
}

/* Lan-DeMets O'Brien-Fleming-type spending over 4 equally spaced looks at alpha 0.05:
 * the first look spends exactly 2 - 2 Phi(1.96 / 0.5), and a Monte Carlo of the z
 * statistics (Brownian motion at the looks) crosses some boundary 5% of the time. */
static void sequential_boundaries_spend_alpha(void **state)
{
	(void)state;
	double t[4] = {0.25, 0.5, 0.75, 1}, z[4];
	for (size_t k = 1; k <= 4; k++)
		z[k - 1] = stats_normal_quantile(1 - stats_seq_nominal(0.05, t, k) / 2);
	assert_float_equal(z[0], 3.9199640, 1e-4);
	assert_true(z[0] > z[1] && z[1] > z[2] && z[2] > z[3] && z[3] > 1.96 && z[3] < 2.1);
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 17);
	size_t cross = 0, n = 400000, first = 0;
	for (size_t i = 0; i < n; i++) {
		double sum = 0;
		for (size_t k = 0; k < 4; k++) {
			sum += gsl_ran_gaussian_ziggurat(rng, sqrt(0.25));
			if (fabs(sum / sqrt(t[k])) > z[k]) {
				cross++;
				first += k == 0;
				break;
			}
		}
	}
	gsl_rng_free(rng);
	double rate = (double)cross / (double)n; /* binomial sd at 0.05: 0.00034 */
	printf("  4 looks: z = %.3f %.3f %.3f %.3f, H0 crossing %.4f\n", z[0], z[1], z[2], z[3], rate);
	assert_true(rate > 0.0485 && rate < 0.0515);
	/* O'Brien-Fleming spends almost nothing at the first quarter of the boots */
	assert_true((double)first / (double)n < 0.001);
	assert_float_equal(stats_seq_nominal(0.05, t + 3, 1), 0.05, 1e-9); /* one look: fixed */
	assert_true(isnan(stats_seq_nominal(0.05, (double[]){0.5, 0.4}, 2)));
	struct st_compare_opts o = stats_compare_defaults();
	o.look = 2;
	o.max_boots = 8;
	assert_float_equal(stats_look_alpha(&o, 0.5), stats_seq_nominal(0.05, t, 2), 1e-12);
	o.look = 4;
	assert_float_equal(stats_look_alpha(&o, 1), stats_seq_nominal(0.05, t, 4), 1e-12);
	o.look = 0;
	assert_float_equal(stats_look_alpha(&o, 0.5), 0.05, 0);
}

/* The stage-wise interval after a design ends: one look gives z -/+ 1.96; at the last
 * look exactly on its boundary the lower bound is 0 (the whole alpha is spent there);
 * and a Monte Carlo of 4 looks (Brownian motion, stopping at the first crossing) covers
 * the drift 95% of the time, where the repeated interval z -/+ c_k over-covers. */
static void stagewise_interval_covers_after_stopping(void **state)
{
	(void)state;
	double t[4] = {0.25, 0.5, 0.75, 1}, lo, hi;
	struct st_seq s[4];
	for (size_t k = 1; k <= 4; k++)
		assert_true(stats_seq_make(&s[k - 1], 0.05, t, k));
	assert_true(stats_seq_stagewise(&s[0], 2.5, &lo, &hi));
	assert_float_equal(lo, 2.5 - 1.959963985, 1e-8);
	assert_float_equal(hi, 2.5 + 1.959963985, 1e-8);
	assert_true(stats_seq_stagewise(&s[3], s[3].bound[3], &lo, &hi));
	assert_float_equal(lo, 0, 1e-6);
	/* an interim crossing on its boundary has spent less than alpha: the bound is above 0 */
	assert_true(stats_seq_stagewise(&s[1], s[1].bound[1], &lo, &hi));
	assert_true(lo > 0.01);
	assert_false(stats_seq_stagewise(&s[3], NAN, &lo, &hi));
	assert_true(isnan(lo) && isnan(hi));
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 23);
	const double theta = 2.8; /* drift per unit information: about 80% power */
	size_t n = 3000, cover = 0, repeated = 0, early = 0;
	for (size_t i = 0; i < n; i++) {
		double sum = 0, z = 0;
		size_t k = 0;
		for (; k < 4; k++) {
			sum += theta * 0.25 + gsl_ran_gaussian_ziggurat(rng, sqrt(0.25));
			z = sum / sqrt(t[k]);
			if (fabs(z) > s[3].bound[k] || k == 3)
				break;
		}
		early += k < 3;
		double mu = theta * sqrt(t[k]);
		assert_true(stats_seq_stagewise(&s[k], z, &lo, &hi));
		cover += lo <= mu && mu <= hi;
		repeated += z - s[3].bound[k] <= mu && mu <= z + s[3].bound[k];
	}
	gsl_rng_free(rng);
	for (size_t k = 0; k < 4; k++)
		stats_seq_free(&s[k]);
	double cov = (double)cover / (double)n, rep = (double)repeated / (double)n; /* binomial sd 0.4 points */
	printf("  stage-wise interval: %.1f%% of %zu designs stopped early; coverage %.4f, repeated interval %.4f\n",
	       100.0 * (double)early / (double)n, n, cov, rep);
	assert_true(cov > 0.938 && cov < 0.962);
	assert_true(rep > 0.97);
}

/* compare at a look that crosses shows the stage-wise interval (and says so); at a look
 * the design goes on from, the repeated one; when the BH step takes the crossing away,
 * the repeated one again. */
static void compare_shows_stagewise_where_the_design_ends(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	o.look = 2;
	o.max_boots = 8;
	struct st_estimate a = est(7, 0.004, 10), b = est(7.03, 0.004, 10);
	a.nboots = b.nboots = 4; /* information 0.5 */
	struct st_comparison c;
	stats_compare(&a, &b, &o, &c);
	assert_int_equal(c.verdict, ST_FASTER);
	assert_true(c.caveats & ST_CAVEAT_STAGEWISE);
	assert_float_equal(c.lo, c.sw_lo, 0);
	assert_float_equal(c.hi, c.sw_hi, 0);
	assert_true(c.rci_lo < c.lo && c.lo > 0); /* narrower than the repeated interval at this level */
	assert_float_equal(c.pct_lo, 100 * expm1(c.lo), 1e-12);
	struct st_estimate b2 = est(7.006, 0.004, 10);
	b2.nboots = 4;
	stats_compare(&a, &b2, &o, &c);
	assert_int_equal(c.verdict, ST_INCONCLUSIVE);
	assert_false(c.caveats & ST_CAVEAT_STAGEWISE);
	assert_true(isnan(c.sw_lo));
	assert_float_equal(c.lo, c.rci_lo, 0);
	/* crossing alone, not after BH over 40 comparisons: back to the repeated interval */
	struct st_comparison many[40];
	struct st_estimate b3 = est(7.0187, 0.004, 10);
	b3.nboots = 4;
	stats_compare(&a, &b3, &o, &many[0]);
	assert_true(many[0].caveats & ST_CAVEAT_STAGEWISE);
	for (size_t i = 1; i < 40; i++)
		stats_compare(&a, &a, &o, &many[i]);
	assert_true(many[0].p < many[0].alpha && 40 * many[0].p > many[0].alpha);
	stats_compare_adjust(many, 40);
	assert_int_equal(many[0].verdict, ST_INCONCLUSIVE);
	assert_false(many[0].caveats & ST_CAVEAT_STAGEWISE);
	assert_float_equal(many[0].lo, many[0].rci_lo, 0);
	/* the last look ends the design whatever its verdict */
	o.look = 4;
	a.nboots = b2.nboots = 8;
	stats_compare(&a, &b2, &o, &c);
	assert_true(c.last_look && (c.caveats & ST_CAVEAT_STAGEWISE));
	assert_float_equal(c.lo, c.sw_lo, 0);
	/* a fixed design has none */
	o.look = 0;
	o.max_boots = 0;
	stats_compare(&a, &b, &o, &c);
	assert_true(isnan(c.sw_lo) && !(c.caveats & ST_CAVEAT_STAGEWISE));
}

static void malformed_input_is_an_error(void **state)
{
	(void)state;
	double y[2] = {7, NAN};
	struct st_run r = {.y = y, .n = 2};
	struct st_boot b = {&r, 1}, empty = {NULL, 0};
	struct st_group g = {.boots = &b, .nboots = 1};
	struct st_estimate e;
	struct err err = {{0}};
	assert_int_equal(stats_estimate_groups(&g, 1, &e, &err), -1);
	assert_non_null(strstr(err.msg, "not a finite number"));
	g.boots = &empty;
	assert_int_equal(stats_estimate_groups(&g, 1, &e, &err), -1);
	assert_non_null(strstr(err.msg, "no runs"));
}

static void verdicts_follow_intervals(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	struct st_estimate a = est(7, 0.001, 20);
	struct st_estimate fast = est(7.05, 0.001, 20), same = est(7.0005, 0.001, 20), tiny = est(7.002, 0.0003, 50);
	struct st_estimate vague = est(7.01, 0.02, 3);
	stats_compare(&a, &fast, &o, &c);
	assert_int_equal(c.verdict, ST_FASTER);
	assert_false(c.negligible);
	assert_float_equal(c.pct, 100 * expm1(0.05), 1e-9);
	stats_compare(&fast, &a, &o, &c);
	assert_int_equal(c.verdict, ST_SLOWER);
	stats_compare(&a, &same, &o, &c);
	assert_int_equal(c.verdict, ST_EQUIVALENT);
	assert_float_equal(c.eq_hi, log(1.01), 1e-15);
	assert_float_equal(c.eq_lo, log(0.99), 1e-15);
	struct st_estimate a2 = est(7, 0.0003, 50);
	stats_compare(&a2, &tiny, &o, &c);
	assert_int_equal(c.verdict, ST_FASTER);
	assert_true(c.negligible);
	stats_compare(&a, &vague, &o, &c);
	assert_int_equal(c.verdict, ST_INCONCLUSIVE);

	/* A fixed design: no count of boots, since looking again would not be valid. */
	enum st_verdict v;
	assert_int_equal(stats_more_boots(&a, &vague, &c, &o, &v), ST_MORE_UNPLANNED);
	/* Look 1 of a design of at most 1000 boots per group (both groups have 4 now). */
	o.look = 1;
	o.max_boots = 1000;
	stats_compare(&a, &vague, &o, &c);
	assert_int_equal(c.verdict, ST_INCONCLUSIVE);
	assert_true(c.caveats & ST_CAVEAT_SEQUENTIAL);
	assert_true(c.alpha < 1e-6); /* look 1 at 4 of 1000 boots spends almost nothing */
	/* Looks evenly spaced in boots: look 1 at 4 boots, the next after 4 more. */
	assert_int_equal(stats_more_boots(&a, &vague, &c, &o, &v), 4);
	assert_int_equal(v, ST_INCONCLUSIVE); /* 8 of 1000 boots spends almost nothing either */
	o.max_boots = 10; /* at 8 of 10 the level is close to alpha: +3% with se 1% would settle */
	struct st_estimate b3 = est(7.03, 0.01, 3);
	stats_compare(&a, &b3, &o, &c);
	assert_int_equal(c.verdict, ST_INCONCLUSIVE); /* look 1 at 4 of 10 boots: alpha about 0.002 */
	assert_int_equal(stats_more_boots(&a, &b3, &c, &o, &v), 4);
	assert_int_equal(v, ST_FASTER);
	o.max_boots = 6; /* capped at the maximum */
	stats_compare(&a, &vague, &o, &c);
	assert_int_equal(stats_more_boots(&a, &vague, &c, &o, &v), 2);
	o.max_boots = 4; /* at the maximum: the final look was this one */
	o.look = 2;
	stats_compare(&a, &vague, &o, &c);
	assert_int_equal(stats_more_boots(&a, &vague, &c, &o, &v), ST_MORE_NONE);
}

static void bh_adjusts_verdicts(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_estimate a = est(7, 0.01, 1000);
	/* t about 2.1: p about 0.036 alone; with four such workloads of p 0.036, 0.5, 0.6, 0.7 -> q 0.144 */
	struct st_estimate b[4] = {est(7.03, 0.01, 1000), est(7.007, 0.01, 1000), est(7.0055, 0.01, 1000),
				   est(7.0041, 0.01, 1000)};
	struct st_comparison c[4];
	for (int i = 0; i < 4; i++)
		stats_compare(&a, &b[i], &o, &c[i]);
	assert_int_equal(c[0].verdict, ST_FASTER);
	stats_compare_adjust(c, 4);
	assert_true(c[0].q > c[0].p);
	assert_float_equal(c[0].q, c[0].p * 4, 1e-12);
	assert_int_equal(c[0].verdict, ST_INCONCLUSIVE);
}

/* Holm's step-down values: sorted, (m - j + 1) p_(j), never decreasing, capped at 1; NaN passed
 * through and not counted. */
static void holm_steps_down(void **state)
{
	(void)state;
	double p[6] = {0.01, 0.04, 0.03, NAN, 0.5, 0.3}, q[6];
	stats_holm(p, 6, q);
	assert_float_equal(q[0], 0.05, 1e-12); /* 5 tested: 5 x 0.01 */
	assert_float_equal(q[2], 0.12, 1e-12); /* 4 x 0.03 */
	assert_float_equal(q[1], 0.12, 1e-12); /* 3 x 0.04 = 0.12: not below the step before */
	assert_float_equal(q[5], 0.6, 1e-12);  /* 2 x 0.3 */
	assert_float_equal(q[4], 0.6, 1e-12);  /* 1 x 0.5, raised to the step before */
	assert_true(isnan(q[3]));
	double big[2] = {0.6, 0.7};
	stats_holm(big, 2, big); /* aliasing, and the cap */
	assert_float_equal(big[0], 1, 0);
	assert_float_equal(big[1], 1, 0);
}

/* One row of 11 effects (issue 49 item 6): its smallest p, 0.01, is called when q is BH across
 * workloads alone (2 workloads: q 0.02), and not when the row is a Holm family (11 x 0.01 = 0.11,
 * then BH across the 2 rows). An effect without replication (one boot a group) has no q, is no
 * test of either family, and is not counted in the row's 11. */
static void row_effects_are_one_family(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_estimate a = est(7, 0.01, 1000);
	struct st_effect ef[2][12];
	struct st_factorial fa[2] = {{.effects = ef[0], .neffects = 12}, {.effects = ef[1], .neffects = 12}};
	for (int i = 0; i < 2; i++)
		for (int k = 0; k < 12; k++) {
			/* row 0, effect 0: t 2.576 (p 0.01); the rest t 0.5 (p 0.62) */
			struct st_estimate b = est(7 + 0.01 * sqrt(2) * (i == 0 && k == 0 ? 2.5758 : 0.5), 0.01, 1000);
			ef[i][k] = (struct st_effect){.kind = ST_EFFECT_MAIN, .available = true};
			if (k == 11) /* one boot: an interval of its runs, no verdict, no q */
				b.covered = a.covered & ~ST_BIT(ST_LEVEL_BOOT);
			stats_compare(&a, &b, &o, &ef[i][k].c);
		}
	assert_float_equal(ef[0][0].c.p, 0.01, 1e-4);
	assert_int_equal(stats_interval_scope(&ef[0][11].c), ST_SCOPE_WITHIN_BOOT);
	assert_true(isnan(ef[0][11].c.q) && ef[0][11].c.verdict == ST_INCONCLUSIVE);
	assert_int_equal(stats_interval_scope(&ef[0][0].c), ST_SCOPE_VERDICT);
	/* the old rule: BH across the rows only */
	struct st_comparison old[2] = {ef[0][0].c, ef[1][0].c};
	stats_compare_adjust(old, 2);
	assert_float_equal(old[0].q, 2 * ef[0][0].c.p, 1e-12);
	assert_int_equal(old[0].verdict, ST_FASTER);
	struct st_factorial *rows[2] = {&fa[0], &fa[1]};
	stats_factorial_adjust(rows, 2);
	/* Holm over the 11 tested: 0.11; BH across the 2 rows of 0.11 and 1: 0.22 */
	assert_float_equal(ef[0][0].c.q, 2 * 11 * ef[0][0].c.p, 1e-9);
	assert_int_equal(ef[0][0].c.verdict, ST_INCONCLUSIVE);
	for (int i = 0; i < 2; i++) {
		assert_true(isnan(ef[i][11].c.q));
		assert_int_equal(ef[i][11].c.verdict, ST_INCONCLUSIVE);
		for (int k = 1; k < 11; k++) {
			assert_true(ef[i][k].c.q >= ef[i][k].c.p);
			assert_int_equal(ef[i][k].c.verdict, ST_INCONCLUSIVE);
		}
	}
	/* a strong effect stays called: p 1e-6 in a row of 11 */
	ef[0][0].c = (struct st_comparison){0};
	struct st_estimate strong = est(7 + 0.01 * sqrt(2) * 5, 0.01, 1000);
	stats_compare(&a, &strong, &o, &ef[0][0].c);
	struct st_estimate weak = est(7 + 0.01 * sqrt(2) * 0.5, 0.01, 1000);
	for (int k = 1; k < 11; k++) /* the first pass's q stand: take each effect afresh */
		stats_compare(&a, &weak, &o, &ef[0][k].c);
	stats_factorial_adjust(rows, 1);
	assert_int_equal(ef[0][0].c.verdict, ST_FASTER);
	assert_float_equal(ef[0][0].c.q, 11 * ef[0][0].c.p, 1e-12);
}

/* A comparison without boot replication (one boot a group, the unit boot) keeps its interval
 * for JSON's within_boot scope but has no q, and BH across workloads does not count it. */
static void unreplicated_rows_have_no_q(void **state)
{
	(void)state;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_estimate a = est(7, 0.01, 1000), b = est(7.03, 0.01, 1000);
	a.covered = b.covered = ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	struct st_comparison c[2];
	stats_compare(&a, &b, &o, &c[0]);
	assert_int_equal(c[0].verdict, ST_INCONCLUSIVE);
	assert_true(c[0].caveats & ST_CAVEAT_NO_BOOT_REPL);
	assert_true(isnan(c[0].q) && isfinite(c[0].p) && isfinite(c[0].lo));
	assert_int_equal(stats_interval_scope(&c[0]), ST_SCOPE_WITHIN_BOOT);
	struct an_change chg;
	an_change_of(&c[0], 0, &chg);
	assert_true(chg.within && isnan(chg.lo) && isnan(chg.hi) && isfinite(chg.pct));
	/* a replicated row beside it: BH over 1, not 2 */
	struct st_estimate a2 = est(7, 0.01, 1000), b2 = est(7.025, 0.01, 1000);
	stats_compare(&a2, &b2, &o, &c[1]);
	double p1 = c[1].p;
	stats_compare_adjust(c, 2);
	assert_float_equal(c[1].q, p1, 1e-15);
	assert_true(isnan(c[0].q));
	/* --unit run and one run per boot: the same, within the run */
	o.unit = ST_LEVEL_RUN;
	a.covered = b.covered = ST_BIT(ST_LEVEL_WITHIN);
	stats_compare(&a, &b, &o, &c[0]);
	assert_int_equal(stats_interval_scope(&c[0]), ST_SCOPE_WITHIN_RUN);
	assert_true(isnan(c[0].q));
	an_change_of(&c[0], 0, &chg);
	assert_true(chg.within);
	/* a row with a verdict shows its interval */
	stats_compare(&a2, &b2, &o, &c[1]);
	an_change_of(&c[1], 0, &chg);
	assert_false(chg.within);
	assert_true(isfinite(chg.lo) && isfinite(chg.hi));
}

static bool same_num(double x, double y)
{
	return (isnan(x) && isnan(y)) || x == y;
}

/* Two commands asked the same question give the same answer (issue 31 item 1): on random
 * two-group designs (1-5 boots, 1-3 runs a boot, 1-12 samples a run, boot sd ratios up to
 * 10, and the audit's 3 runs per group on 3 boots with unequal variances), the one-factor,
 * two-level analyze equals compare in every number, caveat and verdict. */
static void one_factor_analyze_is_compare(void **state)
{
	(void)state;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 31);
	static double y[2][5 * 3 * 12];
	static struct st_run runs[2][5 * 3];
	static struct st_boot boots[2][5];
	static const char *lv[] = {"a", "b"};
	struct st_factor f = {"variant", lv, 2};
	size_t l[2] = {0, 1};
	for (int rep = 0; rep < 400; rep++) {
		bool audit = rep % 4 == 0; /* 3 boots x 1 run each per group, unequal boot sd */
		struct st_group g[2];
		for (int k = 0; k < 2; k++) {
			size_t nb = audit ? 3 : 1 + gsl_rng_uniform_int(rng, 5), yi = 0, ri = 0;
			double sdb = k && !rep ? 0 : 0.01 * pow(10, gsl_rng_uniform(rng) * (k ? 1 : 0));
			for (size_t b = 0; b < nb; b++) {
				size_t nr = audit ? 1 : 1 + gsl_rng_uniform_int(rng, 3);
				double bo = 7 + sdb * gsl_ran_gaussian(rng, 1);
				boots[k][b] = (struct st_boot){&runs[k][ri], nr};
				for (size_t r = 0; r < nr; r++, ri++) {
					size_t ns = audit ? 10 : 1 + gsl_rng_uniform_int(rng, 12);
					double ro = bo + 0.005 * gsl_ran_gaussian(rng, 1);
					runs[k][ri] = (struct st_run){.y = &y[k][yi], .n = ns};
					for (size_t i = 0; i < ns; i++)
						y[k][yi++] = ro + 0.03 * gsl_ran_gaussian(rng, 1);
				}
			}
			g[k] = (struct st_group){.boots = boots[k], .nboots = nb};
		}
		struct st_estimate est[2];
		struct err e;
		assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
		struct st_compare_opts o = stats_compare_defaults();
		if (rep % 3 == 1)
			o.unit = ST_LEVEL_RUN;
		struct st_comparison c;
		stats_compare(&est[0], &est[1], &o, &c);
		struct st_cell cells[2] = {{&l[0], &est[0]}, {&l[1], &est[1]}};
		struct st_factorial fa;
		assert_int_equal(stats_factorial(&f, 1, cells, 2, &o, &fa, &e), 0);
		const struct st_comparison *x = &fa.effects[0].c;
		assert_int_equal(x->verdict, c.verdict);
		assert_int_equal(x->caveats, c.caveats);
		assert_true(same_num(x->d, c.d) && same_num(x->se, c.se) && same_num(x->df, c.df));
		assert_true(same_num(x->p, c.p) && same_num(x->lo, c.lo) && same_num(x->hi, c.hi));
		assert_true(same_num(x->lo2, c.lo2) && same_num(x->hi2, c.hi2));
		stats_factorial_free(&fa);
	}
	gsl_rng_free(rng);
}

/* 2x2: cell means A0B0 = 0, A1B0 = 0.02, A0B1 = 0.01, A1B1 = 0.05. */
static void factorial_2x2_known_means(void **state)
{
	(void)state;
	const char *lv[] = {"no", "yes"};
	struct st_factor f[2] = {{"pernode", lv, 2}, {"pie", lv, 2}};
	struct st_estimate e[4] = {est(7.00, 0.001, 10), est(7.02, 0.001, 10), est(7.01, 0.001, 10), est(7.05, 0.001, 10)};
	size_t l[4][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
	struct st_cell cells[4];
	for (int i = 0; i < 4; i++)
		cells[i] = (struct st_cell){l[i], &e[i]};
	struct st_factorial fa;
	struct err err;
	struct st_compare_opts o = stats_compare_defaults();
	assert_int_equal(stats_factorial(f, 2, cells, 4, &o, &fa, &err), 0);
	assert_int_equal(fa.nmissing, 0);
	assert_int_equal(fa.neffects, 3);
	assert_int_equal(fa.effects[0].kind, ST_EFFECT_MAIN);
	assert_int_equal(fa.effects[0].factor, 0);
	assert_float_equal(fa.effects[0].c.d, (0.02 + 0.04) / 2, 1e-12); /* pernode */
	assert_float_equal(fa.effects[1].c.d, (0.01 + 0.03) / 2, 1e-12); /* pie */
	assert_int_equal(fa.effects[2].kind, ST_EFFECT_INTERACTION);
	assert_float_equal(fa.effects[2].c.d, 0.04 - 0.02, 1e-12); /* (0.05-0.01) - (0.02-0) */
	/* se^2 = sum c^2 se^2: main c = 1/2 each -> 4 * 0.25e-6; interaction c = 1 -> 4e-6 */
	assert_float_equal(fa.effects[0].c.se, 0.001, 1e-15);
	assert_float_equal(fa.effects[2].c.se, 0.002, 1e-15);
	/* df: B against A's rule between one term (10 df) and the other three as one term (30) */
	double v2[2] = {0.25e-6, 0.75e-6}, f2[2] = {10, 30};
	double t1, t2;
	assert_true(stats_bf_taus(10, 30, 0.05, &t1, &t2));
	assert_float_equal(fa.effects[0].c.df, stats_bf_rule(v2[0], f2[0], v2[1], f2[1], t1, t2), 1e-9);
	assert_true(fa.effects[0].c.df > 10 && fa.effects[0].c.df <= 40);
	assert_true(fa.effects[0].available);
	assert_int_equal(fa.effects[0].c.verdict, ST_FASTER);
	stats_factorial_free(&fa);
}

/* Within-boot factor (node, 3 levels) under a between-boot one (kernel): per-boot contrasts
 * are the replicates, so each effect's se is the formula's, whatever the boots' offsets. */
static void within_boot_se_is_the_per_boot_formula(void **state)
{
	(void)state;
	const char *kv[] = {"a", "b"}, *nv[] = {"0", "1", "2"};
	struct st_factor f[2] = {{"kernel", kv, 2}, {"node", nv, 3}};
	/* m[boot][node]: kernel a has 4 boots, kernel b 5; node contrasts chosen by hand */
	double d20[9] = {-0.020, -0.025, -0.018, -0.022, -0.005, -0.002, -0.008, -0.004, -0.006};
	double d10[9] = {-0.010, -0.012, -0.009, -0.011, -0.003, -0.001, -0.004, -0.002, -0.002};
	double off[9] = {0.05, -0.08, 0.02, 0.11, -0.03, 0.07, -0.12, 0.04, 0.00}; /* large boot offsets */
	double m[9][3];
	struct st_wboot wb[9];
	for (int b = 0; b < 9; b++) {
		m[b][0] = 10 + off[b];
		m[b][1] = m[b][0] + d10[b];
		m[b][2] = m[b][0] + d20[b];
		wb[b] = (struct st_wboot){b < 4 ? 0 : 1, m[b]};
	}
	struct st_compare_opts o = stats_compare_defaults();
	struct st_factorial fa;
	struct err e;
	assert_int_equal(stats_factorial_within(f, 2, 2u, wb, 9, &o, &fa, &e), 0);
	/* kernel; node 1, 2; kernel x node 1, 2; kernel at node 0, 1, 2 */
	assert_int_equal(fa.neffects, 8);
	assert_int_equal(fa.nmissing, 0);
	double ma, va = stats_mean_var(d20, 4, &ma), mb, vb = stats_mean_var(d20 + 4, 5, &mb);
	const struct st_effect *node2 = &fa.effects[2], *ix2 = &fa.effects[4];
	assert_int_equal(node2->kind, ST_EFFECT_LEVEL);
	assert_int_equal(node2->level, 2);
	assert_true(node2->paired && ix2->paired && !fa.effects[0].paired && !fa.effects[7].paired);
	/* node 2 vs 0: mean over kernels of the per-boot contrasts; se^2 = (va/4 + vb/5) / 4 */
	assert_float_equal(node2->c.d, (ma + mb) / 2, 1e-12);
	assert_float_equal(node2->c.se, sqrt((va / 4 + vb / 5) / 4), 1e-12);
	/* df: B against A's rule over the two kernels' terms (3 and 4 df), then the guard */
	double v[2] = {va / 16, vb / 20}, df[2] = {3, 4};
	assert_float_equal(node2->c.df, stats_bf_df(v[0], 3, v[1], 4, stats_satterthwaite(v, df, 2), o.alpha), 1e-9);
	/* kernel x node 2: the difference of the kernels' per-boot contrasts, as compare would */
	assert_int_equal(ix2->kind, ST_EFFECT_INTERACTION);
	assert_int_equal(ix2->level, 2);
	assert_float_equal(ix2->c.d, mb - ma, 1e-12);
	assert_float_equal(ix2->c.se, sqrt(va / 4 + vb / 5), 1e-12);
	struct st_estimate ea, eb;
	stats_iid_estimate(d20, 4, &ea);
	stats_iid_estimate(d20 + 4, 5, &eb);
	struct st_comparison cmp;
	stats_compare(&ea, &eb, &o, &cmp);
	assert_float_equal(ix2->c.df, cmp.df, 1e-12);
	assert_float_equal(ix2->c.p, cmp.p, 1e-12);
	assert_int_equal(ix2->c.verdict, cmp.verdict);
	assert_int_equal(ix2->c.verdict, ST_FASTER);
	/* the boot offsets cancel: the same contrasts with other offsets give the same se */
	double se2 = node2->c.se, sek = fa.effects[0].c.se;
	stats_factorial_free(&fa);
	for (int b = 0; b < 9; b++)
		for (int l = 0; l < 3; l++)
			m[b][l] += 0.5 * (b % 3) - 0.4 * (b % 2);
	assert_int_equal(stats_factorial_within(f, 2, 2u, wb, 9, &o, &fa, &e), 0);
	assert_float_equal(fa.effects[2].c.se, se2, 1e-12);
	assert_true(fa.effects[0].c.se > 2 * sek); /* the kernel's main effect carries them */
	stats_factorial_free(&fa);
	/* a boot without node 1 is left out of the effects that need node 1, and said so */
	m[2][1] = NAN;
	assert_int_equal(stats_factorial_within(f, 2, 2u, wb, 9, &o, &fa, &e), 0);
	assert_int_equal(fa.effects[1].left_out, 1);
	assert_true(fa.effects[1].c.caveats & ST_CAVEAT_BOOTS_LEFT_OUT);
	assert_int_equal(fa.effects[2].left_out, 0);
	assert_float_equal(fa.effects[2].c.se, se2, 1e-12);
	assert_int_equal(fa.effects[0].left_out, 1); /* the kernel effect averages over every node */
	stats_factorial_free(&fa);
	/* no within-boot factor is an error */
	assert_int_equal(stats_factorial_within(f, 2, 0u, wb, 9, &o, &fa, &e), -1);
	stats_factorial_free(&fa);
}

/* Boots for a within-boot contrast: the fewest whose interval meets the target. */
static void paired_plan_sizes_boots_from_per_boot_variance(void **state)
{
	(void)state;
	struct st_plan_opts o = stats_plan_defaults();
	o.assurance = 0;
	struct st_plan p, q;
	struct err e;
	double v = 1e-4, w = 2; /* per-boot contrast sd 1%, an interaction of two kernels */
	assert_int_equal(stats_plan_paired(v, 10, w, &o, &p, &e), 0);
	assert_true(p.feasible && p.boots >= 2);
	double h = log1p(o.target);
	assert_true(stats_t_quantile(0.975, 2.0 * (double)(p.boots - 1)) * sqrt(w * v / (double)p.boots) <= h);
	assert_true(stats_t_quantile(0.975, 2.0 * (double)(p.boots - 2)) * sqrt(w * v / (double)(p.boots - 1)) > h);
	assert_float_equal(p.cost, 2.0 * (double)p.boots, 1e-12);
	/* with assurance (upper bound of v, scatter quantile): more boots, fewer with a larger pilot */
	o.assurance = ST_PLAN_UCB;
	assert_int_equal(stats_plan_paired(v, 4, w, &o, &q, &e), 0);
	assert_true(q.boots > p.boots && q.assurance == ST_PLAN_UCB);
	struct st_plan big;
	assert_int_equal(stats_plan_paired(v, 100, w, &o, &big, &e), 0);
	assert_true(big.boots < q.boots);
	/* no replicate variance: nothing sized */
	assert_int_equal(stats_plan_paired(NAN, NAN, w, &o, &q, &e), 0);
	assert_true(!q.feasible && q.unsized && isnan(q.assurance));
}

static void factorial_reports_missing_cells(void **state)
{
	(void)state;
	const char *two[] = {"no", "yes"}, *three[] = {"6.1", "6.2", "6.3"};
	struct st_factor f[2] = {{"pie", two, 2}, {"kernel", three, 3}};
	struct st_estimate e = est(7, 0.001, 10);
	size_t l[5][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}}; /* (1, 2) missing */
	struct st_cell cells[5];
	for (int i = 0; i < 5; i++)
		cells[i] = (struct st_cell){l[i], &e};
	struct st_factorial fa;
	struct err err;
	struct st_compare_opts o = stats_compare_defaults();
	assert_int_equal(stats_factorial(f, 2, cells, 5, &o, &fa, &err), 0);
	assert_int_equal(fa.nmissing, 1);
	assert_int_equal(fa.missing[0], 1);
	assert_int_equal(fa.missing[1], 2);
	/* pie main effect (needs every cell): unavailable. kernel 6.2 vs 6.1: available. 6.3: not. */
	assert_int_equal(fa.neffects, 3); /* pie; kernel 6.2, 6.3; no interaction with a 3-level factor */
	assert_false(fa.effects[0].available);
	assert_int_equal(fa.effects[0].c.verdict, ST_NO_DATA);
	assert_int_equal(fa.effects[1].kind, ST_EFFECT_LEVEL);
	assert_int_equal(fa.effects[1].level, 1);
	assert_true(fa.effects[1].available);
	assert_float_equal(fa.effects[1].c.d, 0, 1e-12);
	assert_false(fa.effects[2].available);
	stats_factorial_free(&fa);

	cells[4].level = l[0]; /* duplicate */
	assert_int_equal(stats_factorial(f, 2, cells, 5, &o, &fa, &err), -1);
	stats_factorial_free(&fa);
}

/* With assurance the plan uses the components' upper bounds and the scatter of the
 * realised se, so it costs more than the point-estimate plan; a level truncated to 0
 * keeps its upper bound, and a level without any bound is reported as unsized. */
static void plan_assurance_uses_upper_bounds(void **state)
{
	(void)state;
	struct st_components c = {.var_boot = 1e-5, .var_run = 4e-6, .var_within = 1e-4,
				  .ub_boot = 2e-5, .ub_run = 7e-6, .ub_within = 1.2e-4,
				  .df_boot = 9, .df_run = 20, .df_within = 200};
	struct st_plan_opts o = stats_plan_defaults();
	assert_float_equal(o.assurance, 0.8, 0);
	o.cost_run = 5;
	o.cost_sample = 0.1;
	struct st_plan pa, p0;
	struct err err;
	assert_int_equal(stats_plan(&c, &c, &o, &pa, &err), 0);
	assert_float_equal(pa.assurance, 0.8, 0);
	/* The boot-level df rule: 2 df per group (a 3-boot pilot) cannot support the assurance;
	 * the same design, no claim, and the pilot that could (2 df x 2 groups = 4 < 8: twice the
	 * df, 5 boots) */
	struct st_components few = c;
	few.df_boot = 2;
	struct st_plan pf;
	assert_int_equal(stats_plan(&few, &few, &o, &pf, &err), 0);
	assert_true(pf.feasible && pf.boots == pa.boots && isnan(pf.assurance));
	assert_true(pf.unsized == ST_BIT(ST_LEVEL_BOOT) && pf.pilot_boots == 5);
	assert_float_equal(pf.plan_df, 4, 1e-9);
	o.assurance = 0;
	assert_int_equal(stats_plan(&c, &c, &o, &p0, &err), 0);
	assert_true(pa.feasible && p0.feasible);
	assert_true(pa.cost > p0.cost);
	assert_int_equal(pa.unsized, 0);
	/* A boot level truncated to 0 with an upper bound is still planned for. */
	struct st_components t = c;
	t.var_boot = 0;
	o.assurance = 0.8;
	struct st_plan pt;
	assert_int_equal(stats_plan(&t, &t, &o, &pt, &err), 0);
	assert_int_equal(pt.unsized, 0);
	assert_true(pt.boots >= 2 && pt.cost == pa.cost);
	/* Without a bound: unsized, and the pilot boots it would need. */
	t.ub_boot = NAN;
	assert_int_equal(stats_plan(&t, &t, &o, &pt, &err), 0);
	assert_true(pt.unsized & ST_BIT(ST_LEVEL_BOOT));
	assert_true(pt.pilot_boots >= 2);
	assert_true(isnan(pt.assurance)); /* a level left out: no assurance is claimed */
	assert_true(isnan(pt.kj_runs)); /* not "0.0" */
	o.assurance = 0.5;
	assert_int_equal(stats_plan(&t, &t, &o, &pt, &err), -1);
}

/* A contrast's components: two cells with c = +-1 (w = 1) plan exactly as the two groups
 * themselves; four cells with the main effects' w = 4/16 = 1/4 have a quarter of the
 * interaction's (w = 1) variance, so the interaction needs more boots; a cell without a
 * bound leaves the sum without one, and a level one cell lacks is not had. */
static void contrast_components_plan_like_groups(void **state)
{
	(void)state;
	struct st_components a = {.var_boot = 1e-5, .var_run = 4e-6, .var_within = 1e-4,
				  .raw_boot = 1e-5, .raw_run = 4e-6, .raw_within = 1e-4,
				  .df_boot = 4, .df_run = 5, .df_within = 60,
				  .ub_boot = 2e-5, .ub_run = 7e-6, .ub_within = 1.2e-4,
				  .have = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN)};
	struct st_components b = a, two[2], four[4], eq, main, inter;
	b.var_boot = b.raw_boot = 3e-5;
	b.ub_boot = 5e-5;
	two[0] = a;
	two[1] = b;
	stats_components_contrast(two, 2, 1, &eq);
	assert_float_equal(eq.ub_boot, (a.ub_boot + b.ub_boot) / 2, 1e-18);
	assert_float_equal(eq.df_within, 120, 1e-9);
	struct st_plan_opts o = stats_plan_defaults();
	o.cost_run = 5;
	o.cost_sample = 0.1;
	struct st_plan pg, pe, pm, pi;
	struct err err;
	o.target = 0.02;
	/* equal cells: the same plan exactly; unequal: the same variance, the realised se's
	 * scatter (its df) a little different, so within a boot */
	two[1] = a;
	stats_components_contrast(two, 2, 1, &eq);
	assert_int_equal(stats_plan(&a, &a, &o, &pg, &err), 0);
	assert_int_equal(stats_plan(&eq, &eq, &o, &pe, &err), 0);
	assert_true(pg.feasible && pg.boots < 20);
	assert_int_equal(pe.boots, pg.boots);
	assert_int_equal(pe.runs, pg.runs);
	assert_int_equal(pe.samples, pg.samples);
	two[1] = b;
	stats_components_contrast(two, 2, 1, &eq);
	assert_int_equal(stats_plan(&a, &b, &o, &pg, &err), 0);
	assert_int_equal(stats_plan(&eq, &eq, &o, &pe, &err), 0);
	assert_true(pe.boots + 1 >= pg.boots && pe.boots <= pg.boots + 1);
	for (int i = 0; i < 4; i++)
		four[i] = i % 2 ? b : a;
	stats_components_contrast(four, 4, 0.25, &main);
	stats_components_contrast(four, 4, 1, &inter);
	assert_float_equal(inter.ub_boot, 4 * main.ub_boot, 1e-18);
	assert_int_equal(stats_plan(&main, &main, &o, &pm, &err), 0);
	assert_int_equal(stats_plan(&inter, &inter, &o, &pi, &err), 0);
	assert_true(pi.cost > pm.cost && pi.boots >= pm.boots);
	four[2].ub_boot = NAN;
	four[3].have &= ~ST_BIT(ST_LEVEL_RUN);
	stats_components_contrast(four, 4, 1, &inter);
	assert_true(isnan(inter.ub_boot));
	assert_false(inter.have & ST_BIT(ST_LEVEL_RUN));
	assert_true(inter.have & ST_BIT(ST_LEVEL_BOOT));
}

/* Three boots whose means vary less than their runs say they should: the boot level's
 * bound less the levels below is <= 0, so its bound is the whole mean square, marked, and
 * the plan still pays for it (never a boot level of 0). */
static void unseparated_boot_level_is_bounded_whole(void **state)
{
	(void)state;
	/* 2 runs per boot, 4 samples per run; boot means 10.00, 10.01,
	 * 10.005; the runs within a boot differ by 0.2 */
	double y[3][2][4];
	double bm[3] = {10.0, 10.01, 10.005};
	for (int b = 0; b < 3; b++)
		for (int r = 0; r < 2; r++)
			for (int i = 0; i < 4; i++)
				y[b][r][i] = bm[b] + (r ? 0.1 : -0.1) + (i % 2 ? 0.01 : -0.01);
	struct st_run runs[3][2];
	struct st_boot boots[3];
	for (int b = 0; b < 3; b++) {
		for (int r = 0; r < 2; r++)
			runs[b][r] = (struct st_run){.y = y[b][r], .n = 4};
		boots[b] = (struct st_boot){runs[b], 2};
	}
	struct st_group g = {.boots = boots, .nboots = 3};
	struct st_estimate e;
	struct err err;
	assert_int_equal(stats_estimate_groups(&g, 1, &e, &err), 0);
	assert_true(e.used.raw_boot < 0);
	assert_true(e.used.ub_whole & ST_BIT(ST_LEVEL_BOOT));
	assert_true(e.used.ub_boot > 0);
	struct st_plan_opts o = stats_plan_defaults();
	struct st_plan p;
	assert_int_equal(stats_plan(&e.used, &e.used, &o, &p, &err), 0);
	assert_true(p.whole & ST_BIT(ST_LEVEL_BOOT));
	assert_int_equal(p.unsized, 0);
	assert_float_equal(p.assurance, 0.8, 0);
	/* on point estimates the whole bound is not used */
	o.assurance = 0;
	assert_int_equal(stats_plan(&e.used, &e.used, &o, &p, &err), 0);
	assert_int_equal(p.whole, 0);
}

static void plan_is_monotone_and_meets_target(void **state)
{
	(void)state;
	struct st_components c = {.var_boot = 1e-5, .var_run = 4e-6, .var_within = 1e-4};
	struct st_plan_opts o = stats_plan_defaults();
	o.assurance = 0; /* on point estimates; plan_assurance_uses_upper_bounds checks the default */
	o.cost_run = 5;
	o.cost_sample = 0.1;
	struct st_plan prev = {0};
	struct err err;
	const double targets[] = {0.05, 0.02, 0.01, 0.007, 0.005};
	for (size_t i = 0; i < 5; i++) {
		o.target = targets[i];
		struct st_plan p;
		assert_int_equal(stats_plan(&c, &c, &o, &p, &err), 0);
		assert_true(p.feasible);
		assert_true(p.halfwidth <= targets[i] * (1 + 1e-9));
		if (i)
			assert_true(p.cost >= prev.cost);
		prev = p;
	}
	/* Power for an effect of the target size costs more than the half-width alone. */
	o.target = 0.01;
	struct st_plan p0, p1;
	assert_int_equal(stats_plan(&c, &c, &o, &p0, &err), 0);
	o.power = 0.8;
	assert_int_equal(stats_plan(&c, &c, &o, &p1, &err), 0);
	assert_true(p1.cost > p0.cost);
	/* Costlier boots: the plan shifts work to runs, as Kalibera-Jones's ratio says. */
	o.power = 0;
	o.cost_boot = 10;
	struct st_plan cheap, dear;
	assert_int_equal(stats_plan(&c, &c, &o, &cheap, &err), 0);
	o.cost_boot = 1000;
	assert_int_equal(stats_plan(&c, &c, &o, &dear, &err), 0);
	assert_true(dear.boots <= cheap.boots);
	assert_true(dear.runs >= cheap.runs);
	assert_float_equal(dear.kj_runs, sqrt(4e-6 / 1e-5 * 1000 / 5.0), 1e-12);
	assert_float_equal(dear.kj_samples, sqrt(1e-4 / 4e-6 * 5 / 0.1), 1e-12);
	/* Unknown boot variance is a caveat. */
	struct st_components nb = c;
	nb.var_boot = NAN;
	assert_int_equal(stats_plan(&nb, &nb, &o, &p0, &err), 0);
	assert_true(p0.caveats & ST_CAVEAT_NO_BOOT_LEVEL);
	o.target = 0;
	assert_int_equal(stats_plan(&c, &c, &o, &p0, &err), -1);
}

static size_t count(const struct st_warnings *w, enum st_warn_kind k)
{
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++)
		n += w->v[i].kind == k;
	return n;
}

static void diagnostics_find_injected_problems(void **state)
{
	(void)state;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 3);
	double clean[40], drift[40], spiky[40], warm[40];
	for (size_t i = 0; i < 40; i++) {
		clean[i] = 7 + gsl_ran_gaussian(rng, 0.002);
		drift[i] = 7 + gsl_ran_gaussian(rng, 0.002) - 0.001 * (double)i; /* -4% over the run */
		spiky[i] = 7 + gsl_ran_gaussian(rng, 0.002);
		warm[i] = 7 + gsl_ran_gaussian(rng, 0.002);
	}
	gsl_rng_free(rng);
	spiky[17] -= 0.05;
	warm[0] -= 0.04;
	warm[1] -= 0.03;
	warm[2] -= 0.03;
	warm[3] -= 0.03;
	struct st_diag_opts o = stats_diag_defaults();
	struct st_warnings w = {0};
	struct st_run r = {.y = clean, .n = 40};
	stats_diagnose_run(&r, 0, 0, &o, &w);
	assert_int_equal(w.n, 0);

	r.y = drift;
	stats_diagnose_run(&r, 1, 2, &o, &w);
	assert_int_equal(count(&w, ST_WARN_DRIFT), 1);
	assert_int_equal(w.v[0].boot, 1);
	assert_int_equal(w.v[0].run, 2);
	assert_true(w.v[0].value < -0.03 && w.v[0].value > -0.05);
	stats_warnings_free(&w);

	r.y = spiky;
	stats_diagnose_run(&r, 0, 0, &o, &w);
	assert_int_equal(count(&w, ST_WARN_OUTLIER), 1);
	assert_int_equal(w.v[0].index, 17);
	assert_true(w.v[0].x < -3.5);
	stats_warnings_free(&w);

	r.y = warm;
	stats_diagnose_run(&r, 0, 0, &o, &w);
	assert_int_equal(count(&w, ST_WARN_WARMUP), 1);
	stats_warnings_free(&w);

	/* High CV and two modes. */
	double bi[40];
	for (size_t i = 0; i < 40; i++)
		bi[i] = 7 + (i % 2 ? 0.2 : 0) + 0.001 * (double)(i % 5);
	r.y = bi;
	stats_diagnose_run(&r, 0, 0, &o, &w);
	assert_int_equal(count(&w, ST_WARN_CV), 1);
	assert_int_equal(count(&w, ST_WARN_BIMODAL), 1);
	stats_warnings_free(&w);
	stats_warnings_free(NULL);
}

static void confounders_are_differing_non_label_keys(void **state)
{
	(void)state;
	struct kvlist a[2] = {{0}}, b[1] = {{0}};
	kv_add(&a[0], "governor", "performance");
	kv_add(&a[0], "pie", "yes");
	kv_add(&a[0], "thp", "always");
	kv_add(&a[1], "governor", "performance");
	kv_add(&a[1], "pie", "yes");
	kv_add(&a[1], "thp", "always");
	kv_add(&a[1], "smt", "on");
	kv_add(&b[0], "governor", "powersave");
	kv_add(&b[0], "pie", "no");
	kv_add(&b[0], "thp", "always");
	kv_add(&b[0], "smt", "on");
	struct strv labels = {0}, out = {0};
	strv_add(&labels, "pie");
	stats_confounders(a, 2, b, 1, &labels, &out);
	assert_int_equal(out.n, 2);
	assert_string_equal(out.v[0], "governor");
	assert_string_equal(out.v[1], "smt"); /* absent in one run of A */
	strv_free(&out);
	strv_free(&labels);
	kv_free(&a[0]);
	kv_free(&a[1]);
	kv_free(&b[0]);
}

static void summary_of_samples(void **state)
{
	(void)state;
	double x[] = {5, 1, 4, 2, 3};
	struct st_summary s;
	stats_summary(x, 5, &s);
	assert_int_equal(s.n, 5);
	assert_float_equal(s.median, 3, 0);
	assert_float_equal(s.mean, 3, 1e-15);
	assert_float_equal(s.min, 1, 0);
	assert_float_equal(s.max, 5, 0);
	assert_float_equal(s.cv, sqrt(2.5) / 3, 1e-15);
	assert_float_equal(x[0], 5, 0); /* input untouched */
	stats_summary(x, 0, &s);
	assert_true(isnan(s.median));
}

/* Two groups of 3 boots x 3 runs of one value each: x = 7 + effect + host + own, the
 * reference 3 + host + ref_shift (B) + its noise; host and own noise fixed per run. */
static void adjusted_pair(double effect, double ref_shift, double *x, double *ref, struct st_run *runs,
			  struct st_boot *boots, struct st_group *g)
{
	static const double host[18] = {0.05, -0.04, 0.08, -0.07, 0.02, 0.06, -0.05, 0.01, -0.08,
					0.04, -0.06, 0.07, 0.03, -0.02, -0.09, 0.05, 0.00, -0.03};
	static const double own[18] = {0.002, -0.001, 0.001, 0.000, -0.002, 0.003, 0.001, -0.003, 0.002,
				       -0.001, 0.002, -0.002, 0.001, 0.003, -0.001, 0.000, -0.002, 0.001};
	for (size_t k = 0; k < 18; k++) {
		x[k] = 7 + (k >= 9 ? effect : 0) + host[k] + own[k];
		ref[k] = 3 + host[k] + (k >= 9 ? ref_shift : 0) + own[17 - k];
		runs[k] = (struct st_run){.y = &x[k], .n = 1};
	}
	for (size_t b = 0; b < 6; b++)
		boots[b] = (struct st_boot){&runs[3 * b], 3};
	g[0] = (struct st_group){.boots = boots, .nboots = 3};
	g[1] = (struct st_group){.boots = boots + 3, .nboots = 3};
}

static void host_adjustment_removes_the_common_factor(void **state)
{
	(void)state;
	double x[18], ref[18];
	struct st_run runs[18];
	struct st_boot boots[6];
	struct st_group g[2];
	struct st_estimate plain[2], adj[2];
	struct st_adjust a;
	struct err e;
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison cp, ca;
	adjusted_pair(0.02, 0, x, ref, runs, boots, g);
	assert_int_equal(stats_estimate_groups(g, 2, plain, &e), 0);
	assert_int_equal(stats_estimate_adjusted(g, 2, ref, adj, &a, &e), 0);
	assert_int_equal(a.status, ST_ADJ_APPLIED);
	assert_int_equal(a.level, ST_ADJ_WITHIN_BOOTS);
	assert_true(fabs(a.beta - 1) < 0.1 && a.r2 > 0.95 && a.df_beta == 11);
	stats_compare(&plain[0], &plain[1], &o, &cp);
	stats_compare(&adj[0], &adj[1], &o, &ca);
	assert_true(ca.se < cp.se / 3);         /* the host factor is gone from the interval */
	assert_true(fabs(ca.d - 0.02) < 0.005); /* and from the difference */
	assert_int_equal(ca.verdict, ST_FASTER);
	assert_true(ca.caveats & ST_CAVEAT_HOST_ADJUSTED);
	assert_false(cp.caveats & ST_CAVEAT_HOST_ADJUSTED);
	/* the same runs, but the change moved the reference by 10%: no verdict */
	adjusted_pair(0.02, 0.10, x, ref, runs, boots, g);
	assert_int_equal(stats_estimate_adjusted(g, 2, ref, adj, &a, &e), 0);
	assert_int_equal(a.status, ST_ADJ_REF_DIFFERS);
	assert_true(a.ref_p < ST_ADJ_REF_P && a.ref_pct > 5);
	stats_compare(&adj[0], &adj[1], &o, &ca);
	assert_int_equal(ca.verdict, ST_INCONCLUSIVE);
	assert_true(ca.caveats & ST_CAVEAT_HOST_REF_DIFFERS);
	/* a run without the reference: not adjusted, the plain estimates */
	adjusted_pair(0.02, 0, x, ref, runs, boots, g);
	ref[4] = NAN;
	assert_int_equal(stats_estimate_adjusted(g, 2, ref, adj, &a, &e), 0);
	assert_int_equal(a.status, ST_ADJ_NO_REF);
	assert_true(adj[1].mean == plain[1].mean && adj[1].se == plain[1].se);
	assert_false(adj[0].caveats & ST_CAVEAT_HOST_ADJUSTED);
	/* one run per boot: the slope from boot means, its share of each group's df paid */
	struct st_boot one[6];
	for (size_t b = 0; b < 6; b++)
		one[b] = (struct st_boot){&runs[b], 1};
	double r6[6];
	for (size_t b = 0; b < 6; b++)
		r6[b] = ref[b] == ref[b] ? ref[b] : 3;
	struct st_group g1[2] = {{.boots = one, .nboots = 3}, {.boots = one + 3, .nboots = 3}};
	assert_int_equal(stats_estimate_adjusted(g1, 2, r6, adj, &a, &e), 0);
	assert_int_equal(a.status, ST_ADJ_APPLIED); /* 4 df between boots, less 1 for the slope */
	assert_int_equal(a.level, ST_ADJ_BETWEEN_BOOTS);
	assert_true(adj[0].df < 2 || adj[1].df < 2); /* the slope took its df from a group (2 each plain) */
	/* fewer: 2 boots a group leave 1 df after the slope, too few */
	struct st_group g2[2] = {{.boots = one, .nboots = 2}, {.boots = one + 3, .nboots = 2}};
	double r4[4] = {r6[0], r6[1], r6[3], r6[4]};
	assert_int_equal(stats_estimate_adjusted(g2, 2, r4, adj, &a, &e), 0);
	assert_int_equal(a.status, ST_ADJ_FEW);
}

/* Paired arms (stats_compare_rounds): the unit is the widest level the pairs replicate, the
 * mean is the mean of the boots' mean differences, and every row says it is paired by round. */
static void rounds_pair_at_the_widest_replicated_level(void **state)
{
	(void)state;
	double d[4][40];
	int rd[40];
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, 5);
	for (int r = 0; r < 40; r++) {
		rd[r] = r;
		for (int k = 0; k < 4; k++)
			d[k][r] = 0.01 * (k + 1) + 0.005 * gsl_ran_gaussian(rng, 1);
	}
	gsl_rng_free(rng);
	struct st_compare_opts o = stats_compare_defaults();
	struct st_comparison c;
	struct st_estimate est;
	struct err e;
	/* one paired run: an estimate, but no interval (its rounds do not replicate the runs),
	 * even though the rounds alone would call this 1% with sd 0.5% faster */
	struct st_pairrun one = {d[0], rd, 40, 0};
	assert_int_equal(stats_compare_rounds(&one, 1, &o, &c, &est, &e), 0);
	assert_true((c.caveats & ST_CAVEAT_PAIRED_ROUNDS) && (c.caveats & ST_CAVEAT_PAIRED_ONE_RUN));
	assert_true(fabs(c.d - 0.01) < 0.003 && c.verdict == ST_NO_DATA && isnan(c.lo) && c.need == ST_NEED_RUNS);
	assert_true(est.has_interval);
	/* two paired runs in one boot: the runs, for this boot */
	struct st_pairrun two[2] = {{d[0], rd, 40, 0}, {d[1], rd, 40, 0}};
	assert_int_equal(stats_compare_rounds(two, 2, &o, &c, &est, &e), 0);
	assert_int_equal(c.unit, ST_LEVEL_RUN);
	assert_true((c.caveats & ST_CAVEAT_RUN_UNIT) && !(c.caveats & ST_CAVEAT_PAIRED_ONE_RUN));
	/* three boots (the second with two paired runs): the boots' mean differences, 2 df */
	struct st_pairrun three[4] = {{d[0], rd, 40, 0}, {d[1], rd, 20, 1}, {d[2], rd, 40, 1}, {d[3], rd, 40, 2}};
	assert_int_equal(stats_compare_rounds(three, 4, &o, &c, &est, &e), 0);
	assert_int_equal(c.unit, ST_LEVEL_BOOT);
	assert_true(c.df == 2 && est.nboots == 3);
	double m1 = 0, m2 = 0, m0 = 0, m3 = 0;
	for (int r = 0; r < 40; r++) {
		m0 += d[0][r] / 40;
		m1 += r < 20 ? d[1][r] / 20 : 0;
		m2 += d[2][r] / 40;
		m3 += d[3][r] / 40;
	}
	assert_true(fabs(c.d - (m0 + (m1 + m2) / 2 + m3) / 3) < 1e-12);
	assert_true(c.caveats & ST_CAVEAT_PAIRED_ROUNDS);
	assert_int_equal(stats_compare_rounds(three, 0, &o, &c, &est, &e), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(batch_rule_follows_sqrt_n),
		cmocka_unit_test(linear_scale_counts_are_exact),
		cmocka_unit_test(autocorrelated_batches_are_flagged),
		cmocka_unit_test(single_observation_has_no_verdict),
		cmocka_unit_test(one_boot_everywhere_is_a_caveat_and_borrowing_is_recorded),
		cmocka_unit_test(borrowed_boot_level_widens_interval),
		cmocka_unit_test(weak_donor_lends_no_boot_variance),
		cmocka_unit_test(tiny_df_gives_no_verdict_and_never_aborts),
		cmocka_unit_test(rounded_values_carry_their_rounding_variance),
		cmocka_unit_test(unbalanced_df_is_below_welch),
		cmocka_unit_test(sequential_boundaries_spend_alpha),
		cmocka_unit_test(stagewise_interval_covers_after_stopping),
		cmocka_unit_test(compare_shows_stagewise_where_the_design_ends),
		cmocka_unit_test(malformed_input_is_an_error),
		cmocka_unit_test(verdicts_follow_intervals),
		cmocka_unit_test(bh_adjusts_verdicts),
		cmocka_unit_test(holm_steps_down),
		cmocka_unit_test(row_effects_are_one_family),
		cmocka_unit_test(unreplicated_rows_have_no_q),
		cmocka_unit_test(factorial_2x2_known_means),
		cmocka_unit_test(one_factor_analyze_is_compare),
		cmocka_unit_test(factorial_reports_missing_cells),
		cmocka_unit_test(within_boot_se_is_the_per_boot_formula),
		cmocka_unit_test(paired_plan_sizes_boots_from_per_boot_variance),
		cmocka_unit_test(plan_is_monotone_and_meets_target),
		cmocka_unit_test(plan_assurance_uses_upper_bounds),
		cmocka_unit_test(contrast_components_plan_like_groups),
		cmocka_unit_test(unseparated_boot_level_is_bounded_whole),
		cmocka_unit_test(diagnostics_find_injected_problems),
		cmocka_unit_test(confounders_are_differing_non_label_keys),
		cmocka_unit_test(summary_of_samples),
		cmocka_unit_test(host_adjustment_removes_the_common_factor),
		cmocka_unit_test(rounds_pair_at_the_widest_replicated_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
