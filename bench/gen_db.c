/* gen_db.c - write a synthetic results database through the store API, for timing analysis.
 *
 * usage: gen_db PATH [RUNS [WORKLOADS [SAMPLES]]]   (defaults 1000, 30, 20)
 * Runs carry labels a, b, c in {no, yes} (a 2x2x2 design); each cell gets its
 * share of boots with 5 runs per boot. Values are lognormal around a per-workload
 * level with boot, run and sample noise, and c=yes is 1% faster. Seeded: the
 * same arguments give the same database. */
#include "store/store.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static double unif(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return ((double)(rng >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(void)
{
	return sqrt(-2 * log(unif())) * cos(2 * M_PI * unif());
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: gen_db PATH [RUNS [WORKLOADS [SAMPLES]]]\n");
		return 2;
	}
	int nruns = argc > 2 ? atoi(argv[2]) : 1000, nwl = argc > 3 ? atoi(argv[3]) : 30,
	    ns = argc > 4 ? atoi(argv[4]) : 20;
	struct err e;
	struct store *s;
	if (store_open(argv[1], STORE_RW, &s, &e)) {
		fprintf(stderr, "gen_db: %s\n", e.msg);
		return 2;
	}
	char **names = xcalloc((size_t)nwl, sizeof *names);
	for (int w = 0; w < nwl; w++)
		names[w] = (size_t)w < wl_count() ? xstrdup(wl_at((size_t)w)->name) : xasprintf("bench.w%02d", w);
	const int runs_per_boot = 5;
	int rc = store_begin(s, &e);
	double boot_off = 0;
	for (int r = 0; r < nruns && !rc; r++) {
		int boot = r / runs_per_boot, cell = boot % 8;
		if (r % runs_per_boot == 0)
			boot_off = 0.01 * gauss();
		struct kvlist labels = {0}, env = {0};
		kv_add(&labels, "a", cell & 1 ? "yes" : "no");
		kv_add(&labels, "b", cell & 2 ? "yes" : "no");
		kv_add(&labels, "c", cell & 4 ? "yes" : "no");
		for (int k = 0; k < 40; k++)
		{
			char key[16];
			snprintf(key, sizeof key, "env.key%02d", k);
			kv_add(&env, key, k == 7 && (cell & 4) ? "different" : "same");
		}
		char *bid = xasprintf("bench-boot-%05d", boot);
		struct store_run_new rn = {
			.host = {"benchhost", "bench cpu", 8, 1ull << 34, bid, "6.1.0-bench", "#1"},
			.started_ns = clock_wall_ns(),
			.status = "running",
			.source = "sysab",
			.labels = &labels,
			.env = &env,
		};
		int64_t id;
		rc = store_run_begin(s, &rn, &id, &e);
		free(bid);
		kv_free(&labels);
		kv_free(&env);
		double run_off = 0.005 * gauss() + boot_off + ((cell & 4) ? log(1.01) : 0);
		for (int w = 0; w < nwl && !rc; w++) {
			struct store_slot sl = {names[w], 1, "op", w % 2, "ok", NULL, 1000, 10, NULL};
			rc = store_slot_put(s, id, &sl, &e);
			for (int q = 0; q < ns && !rc; q++) {
				double v = exp(log(1e6 * (w + 1)) + run_off + 0.01 * gauss());
				struct store_sample x = {names[w], 1, q, q, 1000, 50000000, v, 0, 0};
				rc = store_sample_add(s, id, &x, &e);
			}
		}
		if (!rc)
			rc = store_run_finish(s, id, "complete", NULL, 10, &e);
	}
	if (!rc)
		rc = store_commit(s, &e);
	else
		store_rollback(s);
	if (rc)
		fprintf(stderr, "gen_db: %s\n", e.msg);
	for (int w = 0; w < nwl; w++)
		free(names[w]);
	free(names);
	store_close(s);
	return rc ? 2 : 0;
}
