/* test_stats_mde.c - the MDE of a design: plan's model, the boots that reach a target, refusals. */
#include "unit.h"
#include "analysis/mde.h"
#include "stats/mde.h"

#include <math.h>
#include <string.h>

static const struct st_components comp = {.var_boot = 1e-4, .var_run = 4e-5, .var_within = 9e-4};

/* The MDE by hand: both groups alike, so the Welch df is 2 (B - 1). */
static void mde_is_t_plus_t_times_se(void **state)
{
	(void)state;
	struct st_mde m;
	struct err e;
	assert_int_equal(stats_mde(&comp, &comp, 6, 2, 10, 0.05, 0.8, 0, 64, &m, &e), 0);
	double se = sqrt(2 * (1e-4 / 6 + 4e-5 / 12 + 9e-4 / 120));
	double k = stats_t_quantile(0.975, 10) + stats_t_quantile(0.8, 10);
	assert_float_equal(m.se, se, 1e-12);
	assert_float_equal(m.df, 10, 1e-12);
	assert_float_equal(m.mde, expm1(k * se), 1e-12);
	assert_int_equal(m.boots_needed, 0); /* no target */
}

/* stats_plan on point estimates with power 0.8 and the MDE of B boots as its target plans
 * exactly B boots (1 run, the samples its minimum): the two share one model. */
static void plan_at_the_mde_plans_those_boots(void **state)
{
	(void)state;
	struct st_components c = {.var_boot = 2e-4};
	struct err e;
	for (size_t B = 3; B <= 20; B += 4) {
		struct st_mde m;
		assert_int_equal(stats_mde(&c, &c, B, 1, ST_MIN_BATCH_SAMPLES, 0.05, 0.8, 0, 64, &m, &e), 0);
		struct st_plan_opts o = stats_plan_defaults();
		o.assurance = 0;
		o.power = 0.8;
		o.target = m.mde * (1 + 1e-9);
		struct st_plan p;
		assert_int_equal(stats_plan(&c, &c, &o, &p, &e), 0);
		assert_true(p.feasible);
		assert_int_equal(p.boots, B);
	}
}

static void boots_needed_is_the_fewest_that_reach(void **state)
{
	(void)state;
	struct st_mde m, at, below;
	struct err e;
	assert_int_equal(stats_mde(&comp, &comp, 2, 1, 10, 0.05, 0.8, 0.01, 10000, &m, &e), 0);
	assert_true(m.mde > 0.01);
	size_t B = m.boots_needed;
	assert_true(B > 2);
	assert_int_equal(stats_mde(&comp, &comp, B, 1, 10, 0.05, 0.8, 0, 0, &at, &e), 0);
	assert_int_equal(stats_mde(&comp, &comp, B - 1, 1, 10, 0.05, 0.8, 0, 0, &below, &e), 0);
	assert_true(at.mde <= 0.01);
	assert_true(below.mde > 0.01);
	/* a cap below it: none */
	assert_int_equal(stats_mde(&comp, &comp, 2, 1, 10, 0.05, 0.8, 0.01, B - 1, &m, &e), 0);
	assert_int_equal(m.boots_needed, 0);
}

static void refuses_what_has_no_interval(void **state)
{
	(void)state;
	struct st_mde m;
	struct err e;
	assert_int_equal(stats_mde(&comp, &comp, 1, 1, 10, 0.05, 0.8, 0, 64, &m, &e), -1);
	assert_true(isnan(m.mde));
	assert_int_equal(stats_mde(&comp, &comp, 4, 0, 10, 0.05, 0.8, 0, 64, &m, &e), -1);
	assert_int_equal(stats_mde(&comp, &comp, 4, 1, 10, 0.05, 0.8, -0.01, 64, &m, &e), -1);
	assert_int_equal(stats_mde(&comp, &comp, 4, 1, 10, 0.05, 1, 0, 64, &m, &e), -1);
}

/* Rough defaults: the documented standard deviations, a probe's cv replacing the sample's. */
static void rough_defaults_are_the_documented_ones(void **state)
{
	(void)state;
	struct st_components r = stats_mde_rough(0);
	assert_float_equal(r.var_boot, ST_MDE_ROUGH_SD_BOOT * ST_MDE_ROUGH_SD_BOOT, 1e-15);
	assert_float_equal(r.var_run, ST_MDE_ROUGH_SD_RUN * ST_MDE_ROUGH_SD_RUN, 1e-15);
	assert_float_equal(r.var_within, ST_MDE_ROUGH_SD_SAMPLE * ST_MDE_ROUGH_SD_SAMPLE, 1e-15);
	assert_float_equal(stats_mde_rough(0.1).var_within, 0.01, 1e-15);
}

/* Paired runs: the boot cancels, each arm's run and sample variance twice, df pairs - 1. */
static void paired_runs_drop_the_boot(void **state)
{
	(void)state;
	struct st_mde m;
	struct err e;
	assert_int_equal(stats_mde_paired(&comp, 5, 10, 0.05, 0.8, 0.02, 1000, &m, &e), 0);
	double se = sqrt(2 * 4e-5 / 5 + 2 * 9e-4 / 50);
	assert_float_equal(m.se, se, 1e-12);
	assert_float_equal(m.df, 4, 1e-12);
	assert_float_equal(m.mde, expm1((stats_t_quantile(0.975, 4) + stats_t_quantile(0.8, 4)) * se), 1e-12);
	size_t P = m.boots_needed;
	struct st_mde at, below;
	assert_true(P > 2);
	assert_int_equal(stats_mde_paired(&comp, P, 10, 0.05, 0.8, 0, 0, &at, &e), 0);
	assert_int_equal(stats_mde_paired(&comp, P - 1, 10, 0.05, 0.8, 0, 0, &below, &e), 0);
	assert_true(at.mde <= 0.02 && below.mde > 0.02);
	assert_int_equal(stats_mde_paired(&comp, 1, 10, 0.05, 0.8, 0, 0, &m, &e), -1);
}

/* Rough rows (no runs): the documented defaults, a noisier probe's cv as the sample sd; the
 * index members by default, a -w glob's workloads otherwise, a pattern naming none refused. */
static void rough_rows_take_a_noisy_probe(void **state)
{
	(void)state;
	struct an_mde quiet, noisy;
	struct err e;
	struct strv w = {0};
	strv_add(&w, "kernel.syscall.null");
	struct an_mde_in in = {.boots = 4, .runs = 1, .alpha = 0.05, .power = 0.8};
	assert_int_equal(an_mde_of_set(NULL, AN_MDE_HISTORY, &w, &in, &quiet, &e), 0);
	assert_int_equal(quiet.nrows, 1);
	assert_int_equal(quiet.rows[0].source, AN_MDE_ROUGH);
	assert_int_equal(quiet.rows[0].samples, AN_MDE_ROUGH_SAMPLES);
	struct st_components r = stats_mde_rough(0);
	struct st_mde m;
	assert_int_equal(stats_mde(&r, &r, 4, 1, AN_MDE_ROUGH_SAMPLES, 0.05, 0.8, 0, 0, &m, &e), 0);
	assert_float_equal(quiet.rows[0].m.mde, m.mde, 1e-12);
	in.probe_cv = 0.01; /* quieter than the default: the default stays */
	assert_int_equal(an_mde_of_set(NULL, AN_MDE_HISTORY, &w, &in, &noisy, &e), 0);
	assert_float_equal(noisy.rows[0].m.mde, m.mde, 1e-12);
	an_mde_free(&noisy);
	in.probe_cv = 0.08;
	assert_int_equal(an_mde_of_set(NULL, AN_MDE_HISTORY, &w, &in, &noisy, &e), 0);
	assert_true(noisy.rows[0].m.mde > quiet.rows[0].m.mde);
	an_mde_free(&noisy);
	an_mde_free(&quiet);
	strv_free(&w);
	in.probe_cv = 0;
	assert_int_equal(an_mde_of_set(NULL, AN_MDE_HISTORY, NULL, &in, &quiet, &e), 0);
	assert_true(quiet.nrows >= 2); /* the index members */
	an_mde_free(&quiet);
	strv_add(&w, "no.such.*");
	assert_int_equal(an_mde_of_set(NULL, AN_MDE_HISTORY, &w, &in, &quiet, &e), -1);
	assert_non_null(strstr(e.msg, "no.such.*"));
	strv_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(mde_is_t_plus_t_times_se),
		cmocka_unit_test(plan_at_the_mde_plans_those_boots),
		cmocka_unit_test(boots_needed_is_the_fewest_that_reach),
		cmocka_unit_test(refuses_what_has_no_interval),
		cmocka_unit_test(rough_defaults_are_the_documented_ones),
		cmocka_unit_test(paired_runs_drop_the_boot),
		cmocka_unit_test(rough_rows_take_a_noisy_probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
