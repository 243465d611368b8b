/* test_load.c - store_load_set groups samples by (workload, copies) -> boot -> run, skips warm-up,
 * keeps seq order and rounds; store_runs_env, store_env_values and store_boot_exists. */
#include "unit.h"
#include "core/tmp.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

UNIT_TMPDIR_FIXTURE

static int64_t add_run(struct store *s, const char *boot, int rounds)
{
	struct err e = {{0}};
	struct kvlist env = {0};
	kv_add(&env, "thp.enabled", boot);
	struct store_run_new r = {
		.host = {"h", "cpu", 2, 1 << 20, boot, "6.1", "#1"},
		.started_ns = 1,
		.status = "running",
		.source = "sysab",
		.env = &env,
	};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	kv_free(&env);
	const char *wl[] = {"b.two", "a.one"};
	for (int w = 0; w < 2; w++) {
		struct store_slot sl = {wl[w], 1, w ? "syscall" : "loop", w, "ok", NULL, 1, 0, NULL};
		assert_int_equal(store_slot_put(s, id, &sl, &e), 0);
		/* inserted out of order: the loader must return seq order */
		for (int q = 4; q >= 0; q--) {
			struct store_sample x = {wl[w], 1, q, rounds ? q : -1, 10, 1000000, 100.0 * (q + 1), q == 0, 0};
			assert_int_equal(store_sample_add(s, id, &x, &e), 0);
		}
	}
	struct store_sample x = {"a.one", 4, 0, -1, 10, 1000, 50.0, 0, 0};
	assert_int_equal(store_sample_add(s, id, &x, &e), 0);
	assert_int_equal(store_run_finish(s, id, "complete", NULL, 0, &e), 0);
	return id;
}

static void groups_by_series_boot_run(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/l.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	int64_t r1 = add_run(s, "boot-x", 1), r2 = add_run(s, "boot-y", 0), r3 = add_run(s, "boot-x", 0);
	(void)add_run(s, "boot-z", 0); /* not asked for */
	int64_t ids[] = {r3, r1, r2};
	struct store_set set;
	assert_int_equal(store_load_set(s, ids, 3, &set, &e), 0);
	assert_int_equal(set.nseries, 3); /* a.one/1, a.one/4, b.two/1 */
	assert_string_equal(set.series[0].workload, "a.one");
	assert_int_equal(set.series[0].copies, 1);
	assert_int_equal(set.series[1].copies, 4);
	assert_string_equal(set.series[2].workload, "b.two");
	assert_string_equal(set.series[0].unit, "syscall");
	assert_int_equal(set.series[0].latency, 1);
	assert_string_equal(set.series[2].unit, "loop");
	const struct store_series *x = &set.series[0];
	assert_int_equal(x->nboots, 2);
	assert_int_equal(x->boots[0].nruns, 2); /* boot-x: r1 and r3, in id order */
	assert_int_equal(x->boots[0].runs[0].run, r1);
	assert_int_equal(x->boots[0].runs[1].run, r3);
	assert_int_equal(x->boots[1].runs[0].run, r2);
	const struct store_series_run *rr = &x->boots[0].runs[0];
	assert_int_equal(rr->n, 4); /* the warm-up sample is left out */
	for (size_t i = 0; i < rr->n; i++)
		assert_true(fabs(rr->y[i] - log(100.0 * (double)(i + 2))) < 1e-12);
	assert_non_null(rr->round);
	assert_int_equal(rr->round[0], 1);
	assert_null(x->boots[1].runs[0].round); /* no rounds recorded */
	assert_true(fabs(rr->elapsed_s - 0.004) < 1e-12);
	store_set_free(&set);
	store_set_free(NULL);

	struct store_set none;
	assert_int_equal(store_load_set(s, ids, 0, &none, &e), 0);
	assert_int_equal(none.nseries, 0);
	store_set_free(&none);

	struct store_run_info *runs;
	size_t n;
	assert_int_equal(store_runs_list(s, &runs, &n, &e), 0);
	assert_int_equal(store_runs_env(s, runs, n, &e), 0);
	assert_string_equal(kv_get(&runs[1].env, "thp.enabled"), "boot-y");
	store_runs_free(runs, n);
	assert_int_equal(store_boot_exists(s, "boot-z", &e), 1);
	assert_int_equal(store_boot_exists(s, "boot-q", &e), 0);
	store_close(s);
	free(path);
}

/* The environment of a set of runs as each key's distinct values in the order of their
 * first run, with how many runs have the key and the first run without it. */
static void env_values_are_distinct_sets_in_run_order(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/env.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	/* thp.enabled: y, x, y, (r4 asked for: z), r5 not asked for */
	int64_t r1 = add_run(s, "y", 0), r2 = add_run(s, "x", 0), r3 = add_run(s, "y", 0), r4 = add_run(s, "z", 0);
	int64_t r5 = add_run(s, "w", 0);
	assert_int_equal(store_run_env(s, r3, "late.key", "v", &e), 0); /* only r3 and r4: first without is r1 */
	assert_int_equal(store_run_env(s, r4, "late.key", "v", &e), 0);
	assert_int_equal(store_run_env(s, r1, "gone.key", "a", &e), 0); /* r1, r2: first without is r3 */
	assert_int_equal(store_run_env(s, r2, "gone.key", "b", &e), 0);
	assert_int_equal(store_run_env(s, r5, "other.key", "q", &e), 0);
	int64_t ids[] = {r4, r2, r1, r3};
	struct store_env x;
	assert_int_equal(store_env_values(s, ids, 4, &x, &e), 0);
	assert_int_equal(x.nruns, 4);
	assert_int_equal(x.nenv, 4);
	assert_int_equal(x.nk, 3); /* gone.key, late.key, thp.enabled: byte order; other.key is r5's */
	assert_string_equal(x.k[0].key, "gone.key");
	assert_int_equal(x.k[0].nruns, 2);
	assert_int_equal(x.k[0].first_without, r3);
	assert_int_equal(x.k[0].nv, 2);
	assert_string_equal(x.k[0].v[0].value, "a");
	assert_int_equal(x.k[0].v[0].first, r1);
	assert_string_equal(x.k[0].v[1].value, "b");
	assert_string_equal(x.k[1].key, "late.key");
	assert_int_equal(x.k[1].nruns, 2);
	assert_int_equal(x.k[1].first_without, r1);
	assert_int_equal(x.k[1].nv, 1);
	assert_int_equal(x.k[1].v[0].first, r3);
	assert_string_equal(x.k[2].key, "thp.enabled");
	assert_int_equal(x.k[2].nruns, 4);
	assert_int_equal(x.k[2].first_without, 0);
	assert_int_equal(x.k[2].nv, 3); /* y (r1), x (r2), z (r4): y once */
	assert_string_equal(x.k[2].v[0].value, "y");
	assert_string_equal(x.k[2].v[1].value, "x");
	assert_string_equal(x.k[2].v[2].value, "z");
	assert_int_equal(x.k[2].v[2].first, r4);
	store_env_free(&x);
	store_env_free(NULL);
	assert_int_equal(store_env_values(s, ids, 0, &x, &e), 0);
	assert_int_equal(x.nk, 0);
	assert_int_equal(x.nenv, 0);
	store_env_free(&x);
	store_close(s);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_by_series_boot_run),
		cmocka_unit_test(env_values_are_distinct_sets_in_run_order),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
