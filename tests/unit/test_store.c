/* test_store.c - runs, labels, environment, slots and samples round-trip through SQLite. */
#include "unit.h"
#include "core/tmp.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *dir;

static int setup(void **state)
{
	(void)state;
	struct err e;
	return tmpdir_create(&dir, &e);
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(dir);
	free(dir);
	return 0;
}

static void round_trip(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/sub/dir/r.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct kvlist labels = {0}, env = {0};
	kv_add(&labels, "pie", "yes");
	kv_add(&labels, "note", "<script>alert(1)</script> ' \" ;DROP TABLE run;");
	kv_add(&env, "kernel.release", "6.1.0");
	struct store_run_new r = {
		.host = {"h1", "cpu X", 2, 1 << 30, "boot-1", "6.1.0", "#1 SMP"},
		.started_ns = 1000,
		.status = "running",
		.source = "sysab",
		.seed = 42,
		.settings = "{\"samples\":2}",
		.labels = &labels,
		.env = &env,
	};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	assert_int_equal(id, 1);
	struct store_slot sl = {"w.a", 1, "op", 1, "ok", NULL, 100, 25.0, "[]"};
	assert_int_equal(store_slot_put(s, id, &sl, &e), 0);
	for (int i = 0; i < 3; i++) {
		struct store_sample x = {"w.a", 1, i, -1, 100, 1000 + (uint64_t)i, 1e8 / (1 + i), 0};
		assert_int_equal(store_sample_add(s, id, &x, &e), 0);
	}
	struct store_sample dup = {"w.a", 1, 0, -1, 100, 1000, 1e8, 0};
	assert_int_equal(store_sample_add(s, id, &dup, &e), -1); /* (run, workload, copies, seq) is unique */
	assert_int_equal(store_run_finish(s, id, "complete", NULL, 25.0, &e), 0);
	/* a second run on the same machine and boot reuses both */
	int64_t id2;
	assert_int_equal(store_run_begin(s, &r, &id2, &e), 0);
	assert_int_equal(id2, 2);
	store_close(s);

	assert_int_equal(store_open(path, STORE_RO, &s, &e), 0);
	struct store_run_info ri;
	assert_int_equal(store_run_get(s, 1, &ri, &e), 0);
	assert_string_equal(ri.status, "complete");
	assert_string_equal(ri.boot_id, "boot-1");
	assert_string_equal(ri.hostname, "h1");
	assert_int_equal(ri.seed, 42);
	assert_int_equal(ri.labels.n, 2);
	assert_string_equal(kv_get(&ri.labels, "note"), "<script>alert(1)</script> ' \" ;DROP TABLE run;");
	assert_string_equal(kv_get(&ri.env, "kernel.release"), "6.1.0");
	assert_int_equal(ri.workloads.n, 1);
	store_run_info_free(&ri);
	assert_int_equal(store_run_get(s, 99, &ri, &e), -1);
	assert_non_null(strstr(e.msg, "run 99"));

	struct store_sample_info *smp;
	size_t n;
	assert_int_equal(store_samples_get(s, 1, &smp, &n, &e), 0);
	assert_int_equal(n, 3);
	assert_int_equal(smp[2].seq, 2);
	assert_float_equal(smp[1].value, 5e7, 1e-6);
	store_samples_free(smp, n);

	struct store_run_info *runs;
	assert_int_equal(store_runs_list(s, &runs, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_string_equal(runs[1].status, "running");
	store_runs_free(runs, n);
	store_close(s);

	/* the second run's process (this one) is alive: not reaped; on another boot it is */
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	assert_int_equal(store_reap_interrupted(s, "boot-1", &e), 0);
	assert_int_equal(store_reap_interrupted(s, "boot-2", &e), 1);
	assert_int_equal(store_run_get(s, 2, &ri, &e), 0);
	assert_string_equal(ri.status, "interrupted");
	store_run_info_free(&ri);
	store_close(s);
	kv_free(&labels);
	kv_free(&env);
	free(path);
}

static void transactions_are_all_or_nothing(void **state)
{
	(void)state;
	struct err e;
	char *path = xasprintf("%s/tx.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct store_run_new r = {
		.host = {"h", "c", 1, 1, "b", "k", "v"}, .status = "imported", .source = "csv"};
	int64_t id;
	assert_int_equal(store_begin(s, &e), 0);
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	store_rollback(s);
	struct store_run_info *runs;
	size_t n;
	assert_int_equal(store_runs_list(s, &runs, &n, &e), 0);
	assert_int_equal(n, 0);
	store_runs_free(runs, n);
	store_close(s);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(transactions_are_all_or_nothing),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
