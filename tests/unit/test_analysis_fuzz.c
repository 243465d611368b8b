/* test_analysis_fuzz.c - random CSV designs through import, compare, analyze, plan and every format. */
#include "unit.h"
#include "analysis/job.h"
#include "import/import_store.h"
#include "report/report.h"
#include "store/store.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

/*
 * Each iteration writes a random CSV: 1-2 workloads, configurations cfg=a|b crossed with
 * factors x and z, 0-5 boots per cell, 1-3 runs per boot, 1-6 samples per run, values
 * from several regimes (spread 0 to 50%, exact repeats, rounding to 1-6 significant
 * digits, magnitudes 1e-3 to 1e12), then imports it into a fresh database and runs
 * compare (with random alpha, margin, --unit, --look/--max-boots), analyze and plan, and
 * renders each result in every format that takes it. An error return is fine (it must
 * carry a message); a crash, abort, sanitizer report or leak fails. make check runs
 * SYSAB_FUZZ_N (default 60) iterations, make bench 10,000 under ASan/UBSan.
 */

static char dir[] = "/tmp/sysab-afuzz.XXXXXX";

static double draw_value(gsl_rng *r, int regime, double base, double cfg_shift)
{
	double sd = 0;
	switch (regime) {
	case 0: sd = 0; break;                    /* exact repeats */
	case 1: sd = 0.0005; break;
	case 2: sd = 0.03; break;
	default: sd = 0.5; break;
	}
	return base * exp(cfg_shift + gsl_ran_gaussian_ziggurat(r, sd));
}

static void csv_add_value(struct sb *csv, double v, int sig)
{
	if (sig > 0)
		sb_addf(csv, "%.*g", sig, v);
	else
		sb_addf(csv, "%.17g", v);
}

/* Render d in every format that takes its kind to /dev/null. */
static void render_all(struct report_doc *d)
{
	FILE *f = fopen("/dev/null", "w");
	assert_non_null(f);
	for (size_t i = 0; report_formats[i]; i++)
		if (report_formats[i]->kinds & (1u << d->kind))
			(void)report_formats[i]->render(f, d);
	fclose(f);
}

static void one(gsl_rng *r, size_t it)
{
	struct sb csv = {0};
	sb_add(&csv, "workload,unit,value,run,boot,cfg,x,z\n");
	size_t nw = 1 + gsl_rng_uniform_int(r, 2);
	int regime = (int)gsl_rng_uniform_int(r, 4), sig = (int)gsl_rng_uniform_int(r, 7);
	double base = pow(10, -3 + 15 * gsl_rng_uniform(r));
	size_t run = 0, boot = 0;
	/* every third design runs z within boots (as run --nodes labels node): z=1's boots
	 * reuse z=0's boot keys of the same cfg and x, a surplus taking keys of its own (boots
	 * missing a level, or a factor varying within some boots only) */
	bool zin = it % 3 == 0;
	size_t first = 0, nb0 = 0;
	for (int c = 0; c < 2; c++)
		for (int x = 0; x < 2; x++)
			for (int z = 0; z < 2; z++) {
				size_t nb = gsl_rng_uniform_int(r, 6);
				if (!z) {
					first = boot;
					nb0 = nb;
				}
				for (size_t b = 0; b < nb; b++) {
					size_t key = zin && z && b < nb0 ? first + b : boot++;
					size_t nr = 1 + gsl_rng_uniform_int(r, 3);
					for (size_t k = 0; k < nr; k++, run++) {
						size_t ns = 1 + gsl_rng_uniform_int(r, 6);
						for (size_t w = 0; w < nw; w++)
							for (size_t i = 0; i < ns; i++) {
								double v = draw_value(r, regime, base * (double)(w + 1),
										      0.02 * c + 0.01 * x);
								sb_addf(&csv, "w.%zu,ops/s,", w);
								csv_add_value(&csv, v, sig);
								sb_addf(&csv, ",r%zu,b%zu,%c,%d,%d\n", run, key, c ? 'b' : 'a', x,
									z);
							}
					}
				}
			}
	char *path = xasprintf("%s/f%zu.db", dir, it);
	struct store *st = NULL;
	struct err e = {{0}};
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	struct csv_import ci = {0};
	struct import_result res = {0};
	struct import_opts io = {0};
	char hash[17];
	import_hash(sb_str(&csv), csv.len, hash);
	int rc = import_csv_parse("fuzz.csv", sb_str(&csv), csv.len, &ci, &e);
	if (rc == 0)
		rc = import_store_csv(st, "fuzz.csv", hash, &ci, &io, &res, &e);
	import_csv_free(&ci);
	import_result_free(&res);
	store_close(st);
	if (rc) {
		assert_true(e.msg[0] != 0);
		goto out;
	}

	struct st_compare_opts co = stats_compare_defaults();
	co.alpha = gsl_rng_uniform_int(r, 2) ? 0.05 : 0.001 + 0.2 * gsl_rng_uniform(r);
	co.margin = 0.001 + 0.05 * gsl_rng_uniform(r);
	co.unit = gsl_rng_uniform_int(r, 2) ? ST_LEVEL_BOOT : ST_LEVEL_RUN;
	if (gsl_rng_uniform_int(r, 2)) {
		co.max_boots = 2 + gsl_rng_uniform_int(r, 10);
		co.look = 1 + gsl_rng_uniform_int(r, 5);
	}
	struct strv pat = {0};
	struct report_doc d;

	struct an_compare_job cj;
	assert_int_equal(store_open(path, STORE_RO, &st, &e), 0);
	memset(&e, 0, sizeof e);
	struct an_look_req look = {true, false}; /* a first look, decided; not recorded (STORE_RO) */
	if (an_compare_job_build(st, "cfg=a", "cfg=b", &pat, &co, true, false, &look, &cj, &e) == 0) {
		d = (struct report_doc){.kind = REPORT_COMPARE, .compare = &cj.c, .groups = cj.info, .ngroups = 2,
					.envtab = &cj.env};
		render_all(&d);
	} else {
		assert_true(e.msg[0] != 0);
	}
	an_compare_job_free(&cj);

	struct strv filter = {0}, factors = {0};
	strv_add(&factors, "x");
	strv_add(&factors, "z");
	if (gsl_rng_uniform_int(r, 2))
		strv_add(&filter, "cfg=b");
	struct kvlist refs = {0};
	struct an_analyze_job aj;
	assert_int_equal(store_open(path, STORE_RO, &st, &e), 0);
	memset(&e, 0, sizeof e);
	if (an_analyze_job_build(st, &filter, &factors, &refs, &pat, &co, true, false, &(struct an_look_req){true, false},
				 &aj, &e) == 0) {
		d = (struct report_doc){.kind = REPORT_ANALYZE, .analyze = &aj.an, .groups = &aj.info, .ngroups = 1,
					.envtab = &aj.env};
		render_all(&d);
	} else {
		assert_true(e.msg[0] != 0);
	}
	an_analyze_job_free(&aj);
	strv_free(&filter);
	strv_free(&factors);

	struct st_plan_opts po = stats_plan_defaults();
	po.target = 0.001 + 0.1 * gsl_rng_uniform(r);
	po.power = gsl_rng_uniform_int(r, 2) ? 0 : 0.8;
	po.max_boots = 16; /* keep the search quick under ASan */
	po.max_runs = 4;
	po.max_samples = 30;
	const char *sel[2] = {"cfg=a", "cfg=b"};
	struct an_plan_job pj;
	assert_int_equal(store_open(path, STORE_RO, &st, &e), 0);
	memset(&e, 0, sizeof e);
	if (an_plan_job_build(st, sel, 1 + gsl_rng_uniform_int(r, 2), &pat, &co, &po, &pj, &e) == 0) {
		d = (struct report_doc){.kind = REPORT_PLAN, .plan = &pj.p, .groups = pj.info, .ngroups = pj.ng};
		render_all(&d);
	} else {
		assert_true(e.msg[0] != 0);
	}
	an_plan_job_free(&pj);
out:
	for (int k = 0; k < 3; k++) {
		static const char *const sfx[] = {"", "-wal", "-shm"};
		char *f = xasprintf("%s%s", path, sfx[k]);
		unlink(f);
		free(f);
	}
	free(path);
	sb_free(&csv);
}

static void random_designs_never_crash(void **state)
{
	(void)state;
	const char *env = getenv("SYSAB_FUZZ_N");
	size_t n = env ? strtoul(env, NULL, 10) : 60;
	assert_non_null(mkdtemp(dir));
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(r, env && getenv("SYSAB_FUZZ_SEED") ? strtoul(getenv("SYSAB_FUZZ_SEED"), NULL, 10) : 11);
	for (size_t i = 0; i < n; i++)
		one(r, i);
	gsl_rng_free(r);
	assert_int_equal(rmdir(dir), 0); /* nothing left behind */
	printf("  %zu random designs analysed\n", n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(random_designs_never_crash),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
