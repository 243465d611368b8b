/* test_stats_golden.c - distributions, Welch, nested ANOVA and BH match independent golden vectors. */
#include "unit.h"
#include "stats/stats.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define FIXTURE "tests/fixtures/stats-golden.json"

static int load(void **state)
{
	json_error_t je;
	json_t *root = json_load_file(FIXTURE, 0, &je);
	if (!root) {
		fprintf(stderr, "cannot load %s (run from the repository root): %s\n", FIXTURE, je.text);
		return -1;
	}
	*state = root;
	return 0;
}

static int unload(void **state)
{
	json_decref(*state);
	return 0;
}

/* Relative 1e-9, or 1e-6 for values below 1e-6 (tiny p-values).
 *
 * Values derived from a t quantile get 1e-8: the fixture's own quantiles are
 * off by up to 5e-9 relative. For example it gives t(0.9; df 3) =
 * 1.6377443572159069, while the closed-form cdf of t with 3 df,
 * 1/2 + (x/(1+x^2) + atan x)/pi with x = t/sqrt 3, puts 0.9 at
 * 1.6377443536962093, which is what stats_t_quantile() returns
 * (t_quantile_exact_closed_form checks that to 1e-13). At df 29.7, p 0.95 the
 * fixture says 1.6978071250487208; an incomplete-beta evaluation independent
 * of GSL puts the 0.95 point at 1.6978071168797064, our value. Interval ends
 * are compared relative to their distance from the estimate, since d - t*se
 * can cancel. */
#define TOL_QUANTILE 1e-8
static void near_tol(double got, double want, double rel, const char *what, size_t i)
{
	double tol = fabs(want) < 1e-6 ? 1e-6 : rel;
	double err = want == 0 ? fabs(got) : fabs(got - want) / fabs(want);
	if (!(err <= tol)) {
		fprintf(stderr, "%s[%zu]: got %.17g want %.17g (rel %.3g)\n", what, i, got, want, err);
		fail();
	}
}

/* An interval end: relative to the half-width t*se, not to the end itself. */
static void near_end(double got, double want, double d, const char *what, size_t i)
{
	double scale = fabs(want - d);
	if (!(fabs(got - want) <= TOL_QUANTILE * scale)) {
		fprintf(stderr, "%s[%zu]: got %.17g want %.17g\n", what, i, got, want);
		fail();
	}
}

static void near(double got, double want, const char *what, size_t i)
{
	near_tol(got, want, 1e-9, what, i);
}

static double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);
	assert_non_null(v);
	return json_number_value(v);
}

static double *numbers(json_t *a, size_t *n)
{
	*n = json_array_size(a);
	double *x = malloc((*n ? *n : 1) * sizeof *x);
	for (size_t i = 0; i < *n; i++)
		x[i] = json_number_value(json_array_get(a, i));
	return x;
}

static void t_quantiles_match(void **state)
{
	json_t *a = json_object_get(*state, "t_quantile"), *c;
	size_t i;
	assert_true(json_array_size(a) > 0);
	json_array_foreach(a, i, c)
		near_tol(stats_t_quantile(num(c, "p"), num(c, "df")), num(c, "x"), TOL_QUANTILE, "t_quantile", i);
}

/* The cdf of t with 1, 2 and 3 df in closed form, independent of GSL. */
static double t_cdf_closed(double t, int df)
{
	if (df == 1)
		return 0.5 + atan(t) / M_PI;
	if (df == 2)
		return 0.5 + t / (2 * sqrt(2 + t * t));
	double x = t / sqrt(3);
	return 0.5 + (x / (1 + x * x) + atan(x)) / M_PI;
}

static void t_quantile_exact_closed_form(void **state)
{
	(void)state;
	const double ps[] = {0.6, 0.9, 0.95, 0.975, 0.995};
	for (int df = 1; df <= 3; df++)
		for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
			double x = stats_t_quantile(ps[i], df);
			/* cdf error over density is the quantile error */
			double dens = (t_cdf_closed(x + 1e-6, df) - t_cdf_closed(x - 1e-6, df)) / 2e-6;
			double err = fabs(t_cdf_closed(x, df) - ps[i]) / dens / x;
			if (!(err < 1e-13)) {
				fprintf(stderr, "t quantile p=%g df=%d: %.17g rel err %.3g\n", ps[i], df, x, err);
				fail();
			}
		}
}

static void t_two_sided_p_match(void **state)
{
	json_t *a = json_object_get(*state, "t_two_sided_p"), *c;
	size_t i;
	assert_true(json_array_size(a) > 0);
	json_array_foreach(a, i, c) near(stats_t_p2(num(c, "t"), num(c, "df")), num(c, "p"), "t_two_sided_p", i);
}

static void normal_quantiles_match(void **state)
{
	json_t *a = json_object_get(*state, "normal_quantile"), *c;
	size_t i;
	assert_true(json_array_size(a) > 0);
	json_array_foreach(a, i, c) near(stats_normal_quantile(num(c, "p")), num(c, "x"), "normal_quantile", i);
}

static void welch_matches(void **state)
{
	json_t *a = json_object_get(*state, "welch"), *c;
	size_t i;
	assert_true(json_array_size(a) > 0);
	json_array_foreach(a, i, c) {
		size_t na, nb;
		double *xa = numbers(json_object_get(c, "a"), &na), *xb = numbers(json_object_get(c, "b"), &nb);
		struct st_estimate ea, eb;
		stats_iid_estimate(xa, na, &ea);
		stats_iid_estimate(xb, nb, &eb);
		struct st_compare_opts o = stats_compare_defaults();
		o.classic_df = true; /* the fixture is classical Welch; the default df is checked in test_stats_units */
		struct st_comparison r;
		stats_compare(&ea, &eb, &o, &r);
		near(r.d, num(c, "diff_b_minus_a"), "welch.diff", i);
		near(r.se, num(c, "se"), "welch.se", i);
		near(r.df, num(c, "df"), "welch.df", i);
		near(r.t, num(c, "t"), "welch.t", i);
		near(r.p, num(c, "p_two_sided"), "welch.p", i);
		json_t *ci = json_object_get(c, "ci95"), *ci90 = json_object_get(c, "ci90");
		near_end(r.lo, json_number_value(json_array_get(ci, 0)), r.d, "welch.ci95.lo", i);
		near_end(r.hi, json_number_value(json_array_get(ci, 1)), r.d, "welch.ci95.hi", i);
		near_end(r.lo2, json_number_value(json_array_get(ci90, 0)), r.d, "welch.ci90.lo", i);
		near_end(r.hi2, json_number_value(json_array_get(ci90, 1)), r.d, "welch.ci90.hi", i);
		free(xa);
		free(xb);
	}
}

/* Build a group from y[boot][run][sample]; the caller frees with free_group(). */
static struct st_group make_group(json_t *y)
{
	struct st_group g = {0};
	g.nboots = json_array_size(y);
	struct st_boot *boots = calloc(g.nboots, sizeof *boots);
	for (size_t b = 0; b < g.nboots; b++) {
		json_t *jb = json_array_get(y, b);
		boots[b].nruns = json_array_size(jb);
		struct st_run *runs = calloc(boots[b].nruns, sizeof *runs);
		for (size_t r = 0; r < boots[b].nruns; r++)
			runs[r].y = numbers(json_array_get(jb, r), &runs[r].n);
		boots[b].runs = runs;
	}
	g.boots = boots;
	return g;
}

static void free_group(struct st_group *g)
{
	for (size_t b = 0; b < g->nboots; b++) {
		for (size_t r = 0; r < g->boots[b].nruns; r++)
			free((void *)g->boots[b].runs[r].y);
		free((void *)g->boots[b].runs);
	}
	free((void *)g->boots);
}

static void nested_balanced_matches(void **state)
{
	json_t *a = json_object_get(*state, "nested_balanced"), *c;
	size_t i;
	assert_true(json_array_size(a) > 0);
	json_array_foreach(a, i, c) {
		struct st_group g = make_group(json_object_get(c, "y"));
		struct st_anova r;
		struct err e;
		assert_int_equal(stats_nested_anova(&g, &r, &e), 0);
		near(r.grand_mean, num(c, "grand_mean"), "nested.grand_mean", i);
		near(r.ms_boot, num(c, "ms_boot"), "nested.ms_boot", i);
		near(r.ms_run, num(c, "ms_run"), "nested.ms_run", i);
		near(r.ms_sample, num(c, "ms_sample"), "nested.ms_sample", i);
		near(r.var_sample, num(c, "var_sample"), "nested.var_sample", i);
		near(r.var_run, num(c, "var_run"), "nested.var_run", i);
		near(r.var_boot, num(c, "var_boot"), "nested.var_boot", i);
		near(r.se, num(c, "se_grand_mean"), "nested.se_grand_mean", i);

		/* The batch-means estimate of the same data gives the same mean and
		 * the same se: in a balanced design se^2 = var(boot means) / boots. */
		struct st_estimate est;
		assert_int_equal(stats_estimate_groups(&g, 1, &est, &e), 0);
		near(est.mean, num(c, "grand_mean"), "estimate.mean", i);
		near(est.se, num(c, "se_grand_mean"), "estimate.se", i);
		assert_true(est.has_interval);
		assert_int_equal(est.caveats & ~(unsigned)ST_CAVEAT_AUTOCORR, 0);
		free_group(&g);
	}
}

static void bh_matches(void **state)
{
	json_t *o = json_object_get(*state, "bh");
	size_t n, nq;
	double *p = numbers(json_object_get(o, "p"), &n), *want = numbers(json_object_get(o, "q"), &nq);
	assert_int_equal(n, nq);
	assert_true(n > 0);
	double *q = malloc(n * sizeof *q);
	/* Shuffle the order: q-values follow their p-values. */
	for (size_t i = 0; i + 1 < n; i += 2) {
		double t = p[i];
		p[i] = p[i + 1];
		p[i + 1] = t;
		t = want[i];
		want[i] = want[i + 1];
		want[i + 1] = t;
	}
	stats_bh(p, n, q);
	for (size_t i = 0; i < n; i++)
		near(q[i], want[i], "bh.q", i);
	free(p);
	free(q);
	free(want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_quantiles_match),
		cmocka_unit_test(t_quantile_exact_closed_form),
		cmocka_unit_test(t_two_sided_p_match),
		cmocka_unit_test(normal_quantiles_match),
		cmocka_unit_test(welch_matches),
		cmocka_unit_test(nested_balanced_matches),
		cmocka_unit_test(bh_matches),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
