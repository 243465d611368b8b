/* test_stats_bf.c - the exact A/A rate of the two-group interval at every ratio of boot variances (Behrens-Fisher). */
#include "unit.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

/*
 * Group A has n1 boots whose means vary with variance r, group B n2 boots with
 * variance 1 (r: the ratio of boot variances). The boot means' sample variances are
 * r X1 / f1 and X2 / f2 with X chi-square on f = n - 1 df, and the difference of the
 * means is N(0, r/n1 + 1/n2) independently of them, so the interval d -/+ c se misses 0
 * with probability E[2 Q(c se / sd(d))]. That expectation is taken by the midpoint rule
 * on M x M quantiles of X1 and X2: no random numbers, the same figure on every machine.
 * The rule is sysab's own (stats_compare on the two estimates), so this is the A/A rate
 * of `sysab compare` for a design whose boot means are normal, at any ratio, without
 * Monte Carlo noise. SYSAB_BF=full (make bench-stats) prints the table of docs/METHOD.md.
 */

#define RATIOS 33 /* 1e-4 .. 1e4, log-spaced */

/* The half-width multiplier c of a rule for term variances v1, v2 with f1, f2 df. */
typedef double (*rule_fn)(double v1, double f1, double v2, double f2);

static double sysab_rule_opts(double v1, double f1, double v2, double f2, bool classic)
{
	struct st_estimate e[2];
	memset(e, 0, sizeof e);
	double v[2] = {v1, v2}, f[2] = {f1, f2};
	for (int i = 0; i < 2; i++) {
		e[i].se = sqrt(v[i]);
		e[i].df = f[i];
		e[i].nboots = (size_t)f[i] + 1;
		e[i].has_interval = true;
		e[i].covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	}
	struct st_compare_opts o = stats_compare_defaults();
	o.classic_df = classic;
	struct st_comparison r;
	stats_compare(&e[0], &e[1], &o, &r);
	return (r.hi - r.d) / r.se;
}

/* sysab compare as it is: the df rule calibrated per df pair (stats_bf_df). */
static double sysab_rule(double v1, double f1, double v2, double f2)
{
	return sysab_rule_opts(v1, f1, v2, f2, false);
}

/* Welch-Satterthwaite as other tools have it (sysab compare with classic_df). */
static double welch_rule(double v1, double f1, double v2, double f2)
{
	return sysab_rule_opts(v1, f1, v2, f2, true);
}

/* The pooled t interval, exact at ratio 1 for equal group sizes (the quadrature's own check). */
static double pooled_rule(double v1, double f1, double v2, double f2)
{
	(void)v1;
	(void)v2;
	return gsl_cdf_tdist_Qinv(0.025, f1 + f2);
}

struct quad {
	size_t m;
	double *x1, *x2; /* chi-square quantiles, m each */
	size_t n1, n2;
};

static void quad_init(struct quad *q, size_t n1, size_t n2, size_t m)
{
	q->m = m;
	q->n1 = n1;
	q->n2 = n2;
	q->x1 = malloc(m * sizeof *q->x1);
	q->x2 = malloc(m * sizeof *q->x2);
	assert_non_null(q->x1);
	assert_non_null(q->x2);
	for (size_t i = 0; i < m; i++) {
		double p = ((double)i + 0.5) / (double)m;
		q->x1[i] = gsl_cdf_chisq_Pinv(p, (double)(n1 - 1));
		q->x2[i] = gsl_cdf_chisq_Pinv(p, (double)(n2 - 1));
	}
}

static void quad_free(struct quad *q)
{
	free(q->x1);
	free(q->x2);
}

/* The A/A rate of rule at ratio r. */
static double aa_rate(const struct quad *q, double r, rule_fn rule)
{
	double f1 = (double)(q->n1 - 1), f2 = (double)(q->n2 - 1);
	double sd = sqrt(r / (double)q->n1 + 1 / (double)q->n2), s = 0;
	for (size_t i = 0; i < q->m; i++)
		for (size_t j = 0; j < q->m; j++) {
			double v1 = r * q->x1[i] / f1 / (double)q->n1, v2 = q->x2[j] / f2 / (double)q->n2;
			double c = rule(v1, f1, v2, f2);
			s += 2 * gsl_cdf_ugaussian_Q(c * sqrt(v1 + v2) / sd);
		}
	return s / (double)(q->m * q->m);
}

static double ratio_at(size_t k)
{
	return pow(10, -4 + 8 * (double)k / (RATIOS - 1));
}

/* The largest A/A rate over the ratios 1e-4..1e4, and where. */
static double worst(const struct quad *q, rule_fn rule, double *at)
{
	double w = -1;
	for (size_t k = 0; k < RATIOS; k++) {
		double a = aa_rate(q, ratio_at(k), rule);
		if (a > w) {
			w = a;
			*at = ratio_at(k);
		}
	}
	return w;
}

/* The quadrature reproduces exact sizes: the pooled t at equal variances and equal
 * sizes, and any rule where one group's variance swamps the other's (then t at that
 * group's df is exact, which Welch's df tends to). */
static void quadrature_reproduces_exact_sizes(void **state)
{
	(void)state;
	struct quad q;
	quad_init(&q, 3, 3, 48);
	assert_true(fabs(aa_rate(&q, 1, pooled_rule) - 0.05) < 0.002);
	quad_free(&q);
	quad_init(&q, 2, 5, 48);
	assert_true(fabs(aa_rate(&q, 1e8, welch_rule) - 0.05) < 0.002);
	assert_true(fabs(aa_rate(&q, 1e-8, welch_rule) - 0.05) < 0.002);
	quad_free(&q);
}

/* The rule holds the level at every ratio where Welch's df does not (2 or 3 boots a group). */
static void guard_holds_alpha_at_every_ratio(void **state)
{
	(void)state;
	static const size_t pairs[][2] = {{2, 2}, {3, 3}, {2, 3}, {2, 5}, {3, 5}};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		struct quad q;
		quad_init(&q, pairs[i][0], pairs[i][1], 48);
		double at_g = NAN, at_u = NAN;
		double g = worst(&q, sysab_rule, &at_g), u = worst(&q, welch_rule, &at_u);
		print_message("%zu against %zu boots: worst A/A %.5f (ratio %.3g); Welch %.4f (ratio %.3g)\n", pairs[i][0],
			      pairs[i][1], g, at_g, u, at_u);
		assert_true(g <= 0.05);
		assert_true(u > 0.0502);
		quad_free(&q);
	}
}

/* Two boots a group cannot have both: holding 5% at every ratio leaves under 3% at ratio 1
 * (coverage above 97%, docs/METHOD.md); from 6 boots the rule costs under half a point
 * against Welch. Unequal groups take what the level leaves (bench/bf_bound.py's bound:
 * 3.05%, 4.10%, 4.81% for 2 against 3, 5, 8 boots): within 1 point of it. */
static void two_boots_pay_for_it(void **state)
{
	(void)state;
	struct quad q;
	quad_init(&q, 2, 2, 48);
	double a22 = aa_rate(&q, 1, sysab_rule);
	quad_free(&q);
	quad_init(&q, 6, 6, 48);
	double a66 = aa_rate(&q, 1, sysab_rule), u66 = aa_rate(&q, 1, welch_rule);
	quad_free(&q);
	print_message("at ratio 1: 2 against 2 boots %.4f; 6 against 6 %.4f (%.4f Welch)\n", a22, a66, u66);
	assert_true(a22 < 0.03 && a22 > 0.017);
	assert_true(a66 > u66 - 0.005);
	static const size_t pairs[][2] = {{2, 3}, {2, 5}, {2, 8}};
	static const double bound[] = {0.0305, 0.0410, 0.0481};
	for (size_t i = 0; i < 3; i++) {
		quad_init(&q, pairs[i][0], pairs[i][1], 48);
		double a = aa_rate(&q, 1, sysab_rule);
		quad_free(&q);
		print_message("%zu against %zu boots at equal boot variances: %.4f (bound %.4f)\n", pairs[i][0],
			      pairs[i][1], a, bound[i]);
		assert_true(a >= bound[i] - 0.01);
	}
}

/* The rule itself: a dominant term gets its own df, a balanced pair keeps Welch's, the df
 * is continuous in the share, and large df on both sides are left to Welch. */
static void guard_uses_the_dominant_terms_df(void **state)
{
	(void)state;
	double t1, t2;
	assert_true(stats_bf_taus(1, 1, 0.05, &t1, &t2));
	assert_true(t1 > 0.5 && t1 < 1 && t1 == t2);
	assert_true(stats_bf_df(0.99, 1, 0.01, 1, 1.7, 0.05) == 1);
	assert_true(stats_bf_df(0.01, 1, 0.99, 1, 1.7, 0.05) == 1);
	assert_true(stats_bf_df(0.5, 1, 0.5, 1, 2, 0.05) == 2);
	assert_false(stats_bf_taus(60, 80, 0.05, &t1, &t2));
	assert_true(stats_bf_df(0.5, 60, 0.5, 80, 123, 0.05) == 123); /* Welch's, passed in */
	assert_true(isnan(stats_bf_df(0.99, 4, 0.01, 1, NAN, 0.05))); /* no df stays no df */
	/* continuous: no step larger than the band's slope allows as the share crosses it */
	assert_true(stats_bf_taus(1, 4, 0.05, &t1, &t2));
	double prev = stats_bf_rule(0, 1, 1, 4, t1, t2);
	for (int i = 1; i <= 10000; i++) {
		double u = i / 10000.0, df = stats_bf_rule(u, 1, 1 - u, 4, t1, t2);
		assert_true(fabs(df - prev) < 0.05);
		prev = df;
	}
}

/* The rule with its taus moved by d1, d2. */
static double shift1, shift2, tau1_try, tau2_try;

static double shifted_rule(double v1, double f1, double v2, double f2)
{
	return -stats_t_quantile(0.025, stats_bf_rule(v1, f1, v2, f2, tau1_try + shift1, tau2_try + shift2));
}

/* The largest excess of rule's A/A rate over the level the calibration holds (stats_bf_target;
 * the term ratio is r n2 / n1) over the ratios 1e-4..1e4. */
static double worst_excess(const struct quad *q, rule_fn rule)
{
	double f1 = (double)(q->n1 - 1), f2 = (double)(q->n2 - 1), w = -1;
	for (size_t k = 0; k < RATIOS; k++) {
		double r = ratio_at(k);
		w = fmax(w, aa_rate(q, r, rule) - stats_bf_target(f1, f2, 0.05, r * (double)q->n2 / (double)q->n1));
	}
	return w;
}

/* The taus are the most liberal that hold the level, not merely safe ones: 0.02 more on the
 * smaller-df term's (both, for equal df) breaks the calibration's target, on its quadrature. */
static void guard_is_no_stricter_than_needed(void **state)
{
	(void)state;
	static const size_t pairs[][2] = {{2, 2}, {2, 3}, {2, 5}, {3, 3}};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		double f1 = (double)(pairs[i][0] - 1), f2 = (double)(pairs[i][1] - 1), at = NAN;
		assert_true(stats_bf_taus(f1, f2, 0.05, &tau1_try, &tau2_try));
		struct quad q;
		quad_init(&q, pairs[i][0], pairs[i][1], 48);
		shift1 = shift2 = 0;
		double held = worst(&q, shifted_rule, &at);
		shift1 = 0.02;
		shift2 = f1 == f2 ? 0.02 : 0;
		double looser = worst_excess(&q, shifted_rule);
		quad_free(&q);
		print_message("%zu against %zu boots: tau %.4f, %.4f, worst A/A %.5f; 0.02 looser: %+.5f over target\n",
			      pairs[i][0], pairs[i][1], tau1_try, tau2_try, held, looser);
		assert_true(held <= 0.05);
		assert_true(looser > 0);
	}
}

/* The target: alpha beyond 1e-3..1e3, a little under it inside; for unequal df, well under
 * it where the smaller-df term carries more of the variance, and not on the other side. */
static void target_has_its_margins(void **state)
{
	(void)state;
	assert_true(stats_bf_target(1, 4, 0.05, 1e4) == 0.05);
	assert_true(stats_bf_target(1, 4, 0.05, 1e-4) == 0.05);
	assert_true(stats_bf_target(1, 4, 0.05, 2) < 0.05 * 0.9);
	assert_true(stats_bf_target(4, 1, 0.05, 0.5) < 0.05 * 0.9);
	assert_true(stats_bf_target(1, 4, 0.05, 0.5) > 0.0495);
	assert_true(stats_bf_target(1, 1, 0.05, 10) > 0.0495);
	assert_true(stats_bf_target(100, 100, 0.05, 1) > 0.0499);
}

/* The taus of a few pairs as the plain evaluation (every node of every ratio at every step)
 * found them: the prefix-sum evaluation and the bisection over failed ratios must not move
 * them. */
static void calibration_matches_plain_evaluation(void **state)
{
	(void)state;
	static const double want[][4] = {
		{1, 4, 0.25620117187500002, 1.0872282582486752},   {2, 5, 0.64694824218750002, 1.0124611797498109},
		{3, 3, 0.89079589843750007, 0.89079589843750007},  {4.25, 7.5, 0.85185546875000007, 0.99968943799848597},
		{9, 2, 0.87082039324993699, 0.57121582031250007},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		double t1, t2;
		assert_true(stats_bf_taus(want[i][0], want[i][1], 0.05, &t1, &t2));
		assert_float_equal(t1, want[i][2], 1e-9);
		assert_float_equal(t2, want[i][3], 1e-9);
	}
}

static void print_table(void)
{
	static const size_t pairs[][2] = {{2, 2}, {3, 3}, {4, 4}, {6, 6}, {2, 3}, {2, 5}, {3, 5}, {2, 8}};
	const char *mm = getenv("SYSAB_BF_M");
	size_t m = mm ? strtoul(mm, NULL, 10) : 100;
	printf("| boots A, B | A/A at ratio 1 | worst A/A (ratio) | classic Welch: at 1, worst (ratio) |\n"
	       "|---|---|---|---|\n");
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		struct quad q;
		quad_init(&q, pairs[i][0], pairs[i][1], m);
		double at_s = NAN, at_w = NAN;
		double own = aa_rate(&q, 1, sysab_rule), w1 = aa_rate(&q, 1, welch_rule);
		double ws = worst(&q, sysab_rule, &at_s), ww = worst(&q, welch_rule, &at_w);
		printf("| %zu, %zu | %.2f%% | %.3f%% (%.3g) | %.2f%%, %.2f%% (%.3g) |\n", pairs[i][0], pairs[i][1],
		       100 * own, 100 * ws, at_s, 100 * w1, 100 * ww, at_w);
		fflush(stdout);
		quad_free(&q);
	}
}

static void full_table(void **state)
{
	(void)state;
	const char *mode = getenv("SYSAB_BF");
	if (mode && !strcmp(mode, "full"))
		print_table();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(quadrature_reproduces_exact_sizes),
		cmocka_unit_test(guard_holds_alpha_at_every_ratio),
		cmocka_unit_test(two_boots_pay_for_it),
		cmocka_unit_test(target_has_its_margins),
		cmocka_unit_test(calibration_matches_plain_evaluation),
		cmocka_unit_test(guard_uses_the_dominant_terms_df),
		cmocka_unit_test(guard_is_no_stricter_than_needed),
		cmocka_unit_test(full_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
