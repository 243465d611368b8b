/* test_stats_diag.c - false-flag rates and power of the run diagnostics, per run and per comparison. */
#include "unit.h"
#include "stats/stats.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#define RUNS 12000

struct rates {
	double drift, outlier; /* per run, per sample */
};

/* RUNS runs of n samples of AR(1) noise with coefficient rho (0: i.i.d.), sd 1%. */
static struct rates simulate(size_t n, double rho, unsigned long seed)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	double *y = malloc(n * sizeof *y);
	struct st_diag_opts o = stats_diag_defaults();
	o.drift_min = 0; /* the rate of the test itself */
	size_t drift = 0, out = 0;
	for (size_t k = 0; k < RUNS; k++) {
		double e = 0;
		for (size_t i = 0; i < n; i++) {
			double g = gsl_ran_gaussian_ziggurat(r, 0.01);
			e = i ? rho * e + sqrt(1 - rho * rho) * g : g;
			y[i] = 7 + e;
		}
		struct st_run run = {.y = y, .n = n};
		struct st_warnings w = {0};
		stats_diagnose_run(&run, 0, 0, &o, &w);
		bool d = false;
		for (size_t i = 0; i < w.n; i++) {
			d |= w.v[i].kind == ST_WARN_DRIFT;
			out += w.v[i].kind == ST_WARN_OUTLIER;
		}
		drift += d;
		stats_warnings_free(&w);
	}
	free(y);
	gsl_rng_free(r);
	return (struct rates){(double)drift / RUNS, (double)out / RUNS / (double)n};
}

/* Drift states 1% per run: i.i.d. noise gets 1% (binomial sd 0.09 points at 12,000 runs),
 * AR(1) at rho 0.5 at most 1.5%. The old test gave 1.5-3% and 1.7-5%. */
static void drift_flags_match_their_rate(void **state)
{
	(void)state;
	const size_t ns[] = {10, 20, 30, 60, 100};
	for (size_t i = 0; i < 5; i++) {
		struct rates a = simulate(ns[i], 0, 10 + i), b = simulate(ns[i], 0.5, 20 + i);
		printf("  n %3zu: drift flags %.4f i.i.d., %.4f AR(0.5)\n", ns[i], a.drift, b.drift);
		assert_true(a.drift >= 0.006 && a.drift <= 0.013);
		assert_true(b.drift <= 0.016);
	}
}

/* Outliers state the normal tail beyond 3.5 (0.047% of samples): at 10 samples per run the
 * old fixed limit flagged 1.4-1.6%. Now within twice the stated rate, i.i.d. and AR(0.5). */
static void outlier_flags_match_their_rate(void **state)
{
	(void)state;
	double want = 2 * gsl_cdf_ugaussian_Q(3.5);
	const size_t ns[] = {8, 10, 11, 16, 30, 60, 250};
	for (size_t i = 0; i < 7; i++) {
		struct rates a = simulate(ns[i], 0, 30 + i), b = simulate(ns[i], 0.5, 40 + i);
		printf("  n %3zu: outlier flags per sample %.5f i.i.d., %.5f AR(0.5) (stated %.5f)\n", ns[i], a.outlier,
		       b.outlier, want);
		assert_true(a.outlier <= 2 * want);
		assert_true(b.outlier <= 2 * want);
	}
}

/* What a run may carry besides its noise (the power cases of METHOD.md, "Diagnostics"). */
enum effect {
	CLEAN,   /* i.i.d. Gaussian, sd 1% */
	WARMUP,  /* the first 3 samples 10% slower */
	MIXTURE, /* two modes 6 sd apart, each sample in either with probability 1/2 */
	DRIFT,   /* a linear drift of 3 sd over the run */
	OUTLIER, /* one sample (the middle one) 10 sd high */
	AR,      /* AR(1) noise, rho 0.8 */
};

static void draw_run(gsl_rng *r, double *y, size_t n, double level, enum effect fx)
{
	const double sd = 0.01;
	double e = 0;
	for (size_t i = 0; i < n; i++) {
		double g = gsl_ran_gaussian_ziggurat(r, sd);
		e = fx == AR && i ? 0.8 * e + 0.6 * g : g;
		y[i] = level + e;
		if (fx == WARMUP && i < 3)
			y[i] += log(0.9);
		if (fx == MIXTURE && gsl_rng_uniform(r) < 0.5)
			y[i] += 6 * sd;
		if (fx == DRIFT)
			y[i] += 3 * sd * (double)i / (double)(n - 1);
		if (fx == OUTLIER && i == n / 2)
			y[i] += 10 * sd;
	}
}

struct cmp_rates {
	double footnote;        /* comparisons with any diagnostic footnote (kind or autocorrelation caveat) */
	double kind[ST_NWARN];  /* comparisons whose footnote names the kind */
	double run[ST_NWARN];   /* runs of B flagged with the kind (stats_diagnose_run) */
};

/* reps comparisons of two groups of 4 boots x 3 runs x n samples (boot sd 1%, run sd 0.5%);
 * every run of B carries fx, A none. A group's footnote is what analysis gives it: the kinds
 * stats_diag_raised reports, and the estimate's autocorrelation caveat. */
static struct cmp_rates simulate_cmp(size_t n, enum effect fx, size_t reps, unsigned long seed)
{
	enum { NB = 4, NR = 3 };
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, seed);
	double *y = malloc(2 * NB * NR * n * sizeof *y);
	struct st_run runs[2][NB * NR];
	struct st_boot boots[2][NB];
	struct st_diag_opts o = stats_diag_defaults();
	size_t foot = 0, kind[ST_NWARN] = {0}, run[ST_NWARN] = {0};
	for (size_t k = 0; k < reps; k++) {
		struct st_group g[2];
		for (int s = 0; s < 2; s++) {
			for (size_t b = 0; b < NB; b++) {
				double bo = 7 + gsl_ran_gaussian_ziggurat(r, 0.01);
				for (size_t j = 0; j < NR; j++) {
					double *yr = y + ((size_t)s * NB * NR + b * NR + j) * n;
					draw_run(r, yr, n, bo + gsl_ran_gaussian_ziggurat(r, 0.005), s ? fx : CLEAN);
					runs[s][b * NR + j] = (struct st_run){.y = yr, .n = n};
				}
				boots[s][b] = (struct st_boot){&runs[s][b * NR], NR};
			}
			g[s] = (struct st_group){.boots = boots[s], .nboots = NB};
		}
		struct st_estimate est[2];
		struct err e;
		assert_int_equal(stats_estimate_groups(g, 2, est, &e), 0);
		unsigned raised = 0;
		bool caveat = false;
		for (int s = 0; s < 2; s++) {
			struct st_warnings w = {0};
			struct st_diag_tally t = {0};
			stats_diagnose_group(&g[s], &o, &w);
			stats_diag_tally_add(&t, &w);
			raised |= stats_diag_raised(&t, NB * NR, NB * NR * n);
			caveat |= (est[s].caveats & ST_CAVEAT_AUTOCORR) != 0;
			if (s == 1) {
				bool seen[NB][NR][ST_NWARN] = {{{false}}};
				for (size_t i = 0; i < w.n; i++)
					seen[w.v[i].boot][w.v[i].run][w.v[i].kind] = true;
				for (size_t b = 0; b < NB; b++)
					for (size_t j = 0; j < NR; j++)
						for (int q = 0; q < ST_NWARN; q++)
							run[q] += seen[b][j][q];
			}
			stats_warnings_free(&w);
		}
		foot += raised || caveat;
		for (int q = 0; q < ST_NWARN; q++)
			kind[q] += (raised >> q & 1) || (q == ST_WARN_AUTOCORR && caveat);
	}
	free(y);
	gsl_rng_free(r);
	struct cmp_rates out = {.footnote = (double)foot / (double)reps};
	for (int q = 0; q < ST_NWARN; q++) {
		out.kind[q] = (double)kind[q] / (double)reps;
		out.run[q] = (double)run[q] / (double)(reps * NB * NR);
	}
	return out;
}

static const char *const kind_name[ST_NWARN] = {"drift", "warm-up", "outlier", "cv", "bimodal", "autocorr"};

/* Warm-up, bimodality and autocorrelation state ST_DIAG_RUN_RATE (1%) per run on i.i.d.
 * noise: each is calibrated to it by run length (bimodality never below 0.555, so long runs
 * fall below 1%). At 12,000 runs of B per length (binomial sd 0.09 points), within 1.3%;
 * warm-up, calibrated at every length, at least 0.6%. */
static void run_rates_match_their_statement(void **state)
{
	(void)state;
	const size_t ns[] = {5, 8, 11, 15, 16, 25, 36, 64, 100};
	for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
		struct cmp_rates c = simulate_cmp(ns[i], CLEAN, 1000, 50 + i);
		printf("  n %3zu: per run warm-up %.4f, bimodal %.4f, autocorr %.4f\n", ns[i], c.run[ST_WARN_WARMUP],
		       c.run[ST_WARN_BIMODAL], c.run[ST_WARN_AUTOCORR]);
		assert_true(c.run[ST_WARN_WARMUP] >= 0.004 && c.run[ST_WARN_WARMUP] <= 0.013);
		assert_true(c.run[ST_WARN_BIMODAL] <= 0.013);
		assert_true(c.run[ST_WARN_AUTOCORR] <= 0.013);
	}
}

/* Issue 31: on A/A noise at 4 boots x 3 runs x 15 samples, 53.5% of comparisons carried a
 * diagnostic footnote. Now at most 10% (+ 2 MC SE, 0.6 points at 10,000 comparisons); also at
 * 16 samples (4 batches: the autocorrelation test runs) and 64. */
static void aa_comparisons_rarely_carry_a_footnote(void **state)
{
	(void)state;
	const size_t ns[] = {15, 16, 64};
	const size_t reps = 10000;
	for (size_t i = 0; i < 3; i++) {
		struct cmp_rates c = simulate_cmp(ns[i], CLEAN, ns[i] > 16 ? reps / 4 : reps, 31 + i);
		double se = sqrt(0.1 * 0.9 / (double)(ns[i] > 16 ? reps / 4 : reps));
		printf("  n %3zu: A/A comparisons with a footnote %.4f (", ns[i], c.footnote);
		for (int q = 0; q < ST_NWARN; q++)
			printf("%s%s %.4f", q ? ", " : "", kind_name[q], c.kind[q]);
		printf(")\n");
		assert_true(c.footnote <= 0.10 + 2 * se);
	}
}

/* The diagnostics still see what they are for, in every run of B (A clean): the kind's
 * footnote in at least 90% of comparisons for a 10% warm-up over the first 3 samples, two
 * modes 6 sd apart and a 10 sd outlier at 15 samples, and a drift of 3 sd at 30. Drift at 15
 * samples (4 batch means, 2 df) and AR(1) at rho 0.8 (batch means of consecutive samples)
 * have less power, floored here at what METHOD.md states less a margin. */
static void real_effects_still_raise_their_footnote(void **state)
{
	(void)state;
	static const struct {
		enum effect fx;
		enum st_warn_kind kind;
		size_t n;
		double min;
	} cases[] = {
		{WARMUP, ST_WARN_WARMUP, 15, 0.9}, {MIXTURE, ST_WARN_BIMODAL, 15, 0.9}, {OUTLIER, ST_WARN_OUTLIER, 15, 0.9},
		{DRIFT, ST_WARN_DRIFT, 30, 0.9}, {DRIFT, ST_WARN_DRIFT, 15, 0.15}, {AR, ST_WARN_AUTOCORR, 64, 0.5},
		{AR, ST_WARN_AUTOCORR, 30, 0.15}, {AR, ST_WARN_AUTOCORR, 16, 0.05},
	};
	bool ok = true;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct cmp_rates c = simulate_cmp(cases[i].n, cases[i].fx, 1000, 70 + i);
		printf("  %-8s n %3zu: per run %.3f, per comparison %.3f\n", kind_name[cases[i].kind], cases[i].n,
		       c.run[cases[i].kind], c.kind[cases[i].kind]);
		ok &= c.kind[cases[i].kind] >= cases[i].min;
	}
	assert_true(ok);
}

/* Issue 18: runs given as their summaries (stats_run_summary) estimate, and tally their
 * warnings, bit for bit as their samples do: random groups with drifting, noisy and
 * rounded runs, among them values on the edge of the rounding detector's tolerance
 * (1.0000005 passes at step 1 and fails at 0.1), where the fold order matters. */
static void summaries_stand_in_for_samples(void **state)
{
	(void)state;
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, 18);
	static const double steps[] = {0, 1, 0.01, 100, 1e-7};
	for (int trial = 0; trial < 400; trial++) {
		bool rounded = trial % 2; /* every run rounded: the detector's fold decides */
		enum { NB = 3, NR = 3, NMAX = 40 };
		static double y[2][NB * NR][NMAX];
		static struct st_run raw[2][NB * NR], sum[2][NB * NR];
		static struct st_run_summary rs[2][NB * NR];
		struct st_boot braw[2][NB], bsum[2][NB];
		struct st_group graw[2], gsum[2];
		for (int g = 0; g < 2; g++) {
			for (int k = 0; k < NB * NR; k++) {
				size_t n = 1 + gsl_rng_uniform_int(r, NMAX);
				double step = steps[rounded ? 1 + gsl_rng_uniform_int(r, 3) : gsl_rng_uniform_int(r, 5)];
				double drift = gsl_rng_uniform(r) < 0.3 ? 0.01 : 0;
				for (size_t i = 0; i < n; i++) {
					double v = 1000 * exp(gsl_ran_gaussian(r, 0.02) + drift * (double)i);
					if (step > 0)
						v = fmax(step, nearbyint(v / step) * step);
					if (gsl_rng_uniform(r) < 0.05)
						v = rounded || gsl_rng_uniform(r) < 0.5 ? 1.0000005 : v * 1.5;
					y[g][k][i] = log(v);
				}
				raw[g][k] = (struct st_run){.y = y[g][k], .n = n};
				stats_run_summary(&raw[g][k], &rs[g][k]);
				sum[g][k] = (struct st_run){.n = n, .sum = &rs[g][k]};
			}
			for (int b = 0; b < NB; b++) {
				braw[g][b] = (struct st_boot){&raw[g][b * NR], NR};
				bsum[g][b] = (struct st_boot){&sum[g][b * NR], NR};
			}
			size_t nb = 1 + gsl_rng_uniform_int(r, NB);
			graw[g] = (struct st_group){.boots = braw[g], .nboots = nb};
			gsum[g] = (struct st_group){.boots = bsum[g], .nboots = nb};
		}
		struct st_estimate ea[2], eb[2];
		struct err e;
		assert_int_equal(stats_estimate_groups(graw, 2, ea, &e), 0);
		assert_int_equal(stats_estimate_groups(gsum, 2, eb, &e), 0);
		for (int g = 0; g < 2; g++) {
			assert_memory_equal(&ea[g].mean, &eb[g].mean, sizeof(double));
			assert_memory_equal(&ea[g].se, &eb[g].se, sizeof(double));
			assert_memory_equal(&ea[g].df, &eb[g].df, sizeof(double));
			assert_memory_equal(&ea[g].resolution, &eb[g].resolution, sizeof(double));
			assert_memory_equal(&ea[g].r1, &eb[g].r1, sizeof(double));
			assert_int_equal(ea[g].caveats, eb[g].caveats);
			struct st_warnings w = {0};
			struct st_diag_tally ta = {0}, tb = {0}, tp;
			struct st_diag_opts o = stats_diag_defaults();
			stats_diagnose_group(&graw[g], &o, &w);
			stats_diag_tally_add(&ta, &w);
			stats_warnings_free(&w);
			for (size_t b = 0; b < graw[g].nboots; b++)
				for (size_t k = 0; k < NR; k++) {
					struct sb t = {0};
					stats_diag_tally_format(&rs[g][b * NR + k].diag, &t);
					assert_true(stats_diag_tally_parse(t.s ? t.s : "", &tp));
					sb_free(&t);
					stats_diag_tally_merge(&tb, &tp);
				}
			assert_memory_equal(&ta, &tb, sizeof ta);
		}
	}
	gsl_rng_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(drift_flags_match_their_rate),
		cmocka_unit_test(outlier_flags_match_their_rate),
		cmocka_unit_test(run_rates_match_their_statement),
		cmocka_unit_test(aa_comparisons_rarely_carry_a_footnote),
		cmocka_unit_test(real_effects_still_raise_their_footnote),
		cmocka_unit_test(summaries_stand_in_for_samples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
