/* test_store.c - runs, labels, environment, slots and samples round-trip through SQLite. */
#include "unit.h"
#include "core/live.h"
#include "core/tmp.h"
#include "store/store.h"
#include "store/store_impl.h"
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

UNIT_TMPDIR_FIXTURE

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
		struct store_sample x = {"w.a", 1, i, -1, 100, 1000 + (uint64_t)i, 1e8 / (1 + i), 0, 0};
		assert_int_equal(store_sample_add(s, id, &x, &e), 0);
	}
	struct store_sample dup = {"w.a", 1, 0, -1, 100, 1000, 1e8, 0, 0};
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

/* Begin a running run on path from store s; returns its id. */
static int64_t begin_running(struct store *s)
{
	struct err e = {{0}};
	struct store_run_new r = {
		.host = {"h1", "cpu X", 2, 1 << 30, "boot-1", "6.1.0", "#1 SMP"},
		.started_ns = 1000,
		.status = "running",
		.source = "sysab",
	};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	return id;
}

/* A running run is live while its writer holds the run's lock, whatever its pid says (another
 * PID namespace's), and dead once the lock is free, its lock file then removed. */
static void reaper_trusts_the_run_lock_over_the_pid(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/lock.db", dir), *lock1 = xasprintf("%s-run1.lock", path),
	     *lock2 = xasprintf("%s-run2.lock", path);
	struct store *w, *r;
	assert_int_equal(store_open(path, STORE_RW, &w, &e), 0);
	assert_int_equal(begin_running(w), 1);
	assert_int_equal(live_lock_probe(lock1), LIVE_HELD);
	/* a pid that exists in no namespace of this machine */
	assert_int_equal(sqlite3_exec(w->db, "UPDATE run SET pid = 2147483600", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_open(path, STORE_RW, &r, &e), 0);
	assert_int_equal(store_reap_interrupted(r, "boot-1", &e), 0);
	struct store_run_info ri;
	assert_int_equal(store_run_get(r, 1, &ri, &e), 0);
	assert_string_equal(ri.status, "running");
	store_run_info_free(&ri);

	/* a writer that dies (no close): its lock is free, the run dead although its pid lives */
	pid_t p = fork();
	if (p == 0) {
		struct store *c;
		struct err ce;
		if (store_open(path, STORE_RW, &c, &ce) || begin_running(c) != 2)
			_exit(1);
		_exit(0);
	}
	int status;
	assert_int_equal(waitpid(p, &status, 0), p);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(live_lock_probe(lock2), LIVE_FREE);
	assert_int_equal(sqlite3_exec(w->db, "UPDATE run SET pid = 1 WHERE id = 2", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(store_reap_interrupted(r, "boot-1", &e), 1);
	assert_int_equal(store_run_get(r, 2, &ri, &e), 0);
	assert_string_equal(ri.status, "interrupted");
	store_run_info_free(&ri);
	struct stat st;
	assert_int_not_equal(lstat(lock2, &st), 0);

	/* a second running run of the same writer (another arm) holds its own lock */
	char *lock3 = xasprintf("%s-run3.lock", path);
	assert_int_equal(begin_running(w), 3);
	assert_int_equal(live_lock_probe(lock3), LIVE_HELD);
	assert_int_equal(live_lock_probe(lock1), LIVE_HELD);

	/* finishing removes the lock file, the other run's stays; a finished run is never reaped */
	assert_int_equal(store_run_finish(w, 1, "complete", NULL, -1, &e), 0);
	assert_int_not_equal(lstat(lock1, &st), 0);
	assert_int_equal(live_lock_probe(lock3), LIVE_HELD);
	assert_int_equal(store_reap_interrupted(r, "boot-1", &e), 0);
	assert_int_equal(store_run_get(r, 1, &ri, &e), 0);
	assert_string_equal(ri.status, "complete");
	store_run_info_free(&ri);
	store_close(r);
	store_close(w);
	assert_int_not_equal(lstat(lock3, &st), 0); /* closing lets go of what it still held */
	free(lock3);
	free(path);
	free(lock1);
	free(lock2);
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

static int pragma_int(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* The built-in schema version, whatever test steps are set (they always add one here). */
static int base_version(void)
{
	static int v;
	if (!v)
		v = store_schema_target();
	return v;
}

/* A database at the built-in version holding one run, closed; returns its path. */
static char *v1_database(const char *name)
{
	(void)base_version(); /* read before any test step is set */
	char *path = xasprintf("%s/%s", dir, name);
	struct err e = {{0}};
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct store_run_new r = {.host = {"h", "c", 1, 1, "b", "k", "v"}, .status = "imported", .source = "csv"};
	int64_t id;
	assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
	store_close(s);
	return path;
}

static char *slurp(const char *path, size_t *len)
{
	struct err e;
	char *d = read_whole_file(path, (size_t)1 << 30, len, &e);
	assert_non_null(d);
	return d;
}

static void opening_a_current_database_takes_no_backup(void **state)
{
	(void)state;
	int base = store_schema_target(); /* the built-in version a new file gets */
	char *path = v1_database("current.db");
	struct err e = {{0}};
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	store_close(s);
	char *bak = xasprintf("%s.v%d.bak", path, base);
	assert_int_not_equal(access(bak, F_OK), 0);
	free(bak);
	free(path);
}

/* Through the test seam the code knows a version 2: a version-1 file is backed up byte for
 * byte, then migrated in one transaction, its data kept. */
static void migration_backs_up_then_upgrades(void **state)
{
	(void)state;
	int base = store_schema_target(); /* the built-in version a new file gets */
	static const char *const step[] = {"CREATE TABLE extra(x INTEGER); ALTER TABLE run ADD COLUMN note TEXT;"};
	char *path = v1_database("migrate.db");
	struct err e = {{0}};
	struct store *s;
	/* bigger than a block of the copy, so the backup takes several */
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	assert_int_equal(sqlite3_exec(s->db, "CREATE TABLE pad(x BLOB); INSERT INTO pad VALUES(randomblob(3500000))",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	store_close(s);
	size_t n0, n1;
	char *orig = slurp(path, &n0);
	assert_true(n0 > 3500000);
	store_schema_test_steps(step, 1);
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	assert_int_equal(pragma_int(s, "PRAGMA user_version"), store_schema_target());
	assert_int_equal(pragma_int(s, "SELECT count(note IS NULL) FROM run"), 1);
	assert_int_equal(pragma_int(s, "SELECT count(*) FROM extra"), 0);
	store_close(s);
	char *bak = xasprintf("%s.v%d.bak", path, base);
	char *copy = slurp(bak, &n1);
	assert_int_equal(n0, n1);
	assert_memory_equal(orig, copy, n0);
	/* a new file has nothing to back up */
	char *fresh = xasprintf("%s/fresh.db", dir);
	assert_int_equal(store_open(fresh, STORE_RW, &s, &e), 0);
	assert_int_equal(pragma_int(s, "PRAGMA user_version"), store_schema_target());
	store_close(s);
	char *fresh_bak = xasprintf("%s.v0.bak", fresh);
	assert_int_not_equal(access(fresh_bak, F_OK), 0);
	store_schema_test_steps(NULL, 0);
	free(fresh_bak);
	free(fresh);
	free(orig);
	free(copy);
	free(bak);
	free(path);
}

/* A step that fails half-way leaves the database as it was, and no backup behind. */
static void failed_migration_changes_nothing(void **state)
{
	(void)state;
	int base = store_schema_target(); /* the built-in version a new file gets */
	static const char *const step[] = {"CREATE TABLE extra(x INTEGER); ALTER TABLE nosuch ADD COLUMN y TEXT;"};
	char *path = v1_database("failing.db");
	store_schema_test_steps(step, 1);
	struct err e = {{0}};
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), -1);
	assert_non_null(strstr(e.msg, path));
	assert_non_null(strstr(e.msg, "cannot migrate the schema"));
	store_schema_test_steps(NULL, 0);
	assert_int_equal(store_open(path, STORE_RO, &s, &e), 0);
	assert_int_equal(pragma_int(s, "PRAGMA user_version"), base);
	assert_int_equal(pragma_int(s, "SELECT count(*) FROM sqlite_master WHERE name = 'extra'"), 0);
	assert_int_equal(pragma_int(s, "SELECT count(*) FROM run"), 1);
	store_close(s);
	char *bak = xasprintf("%s.v%d.bak", path, base);
	assert_int_not_equal(access(bak, F_OK), 0);
	free(bak);
	free(path);
}

/* An existing backup is never overwritten: the migration stops and says what to do. */
static void existing_backup_stops_migration(void **state)
{
	(void)state;
	int base = store_schema_target(); /* the built-in version a new file gets */
	static const char *const step[] = {"CREATE TABLE extra(x INTEGER);"};
	char *path = v1_database("backup-exists.db");
	char *bak = xasprintf("%s.v%d.bak", path, base);
	FILE *f = fopen(bak, "w");
	assert_non_null(f);
	fputs("precious", f);
	fclose(f);
	store_schema_test_steps(step, 1);
	struct err e = {{0}};
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), -1);
	assert_non_null(strstr(e.msg, "move the old backup away"));
	store_schema_test_steps(NULL, 0);
	size_t n;
	char *d = slurp(bak, &n);
	assert_int_equal(n, 8);
	assert_memory_equal(d, "precious", 8);
	assert_int_equal(store_open(path, STORE_RO, &s, &e), 0);
	assert_int_equal(pragma_int(s, "PRAGMA user_version"), base);
	store_close(s);
	free(d);
	free(bak);
	free(path);
}

/* Every status has one word, read back as the same status; a word not in the table is unknown. */
static void status_words_round_trip(void **state)
{
	(void)state;
	for (int i = STORE_RUN_RUNNING; i < STORE_RUN_UNKNOWN; i++)
		assert_int_equal(store_run_status_of(store_run_status_word((enum store_run_status)i)), i);
	for (int i = STORE_SLOT_OK; i < STORE_SLOT_UNKNOWN; i++)
		assert_int_equal(store_slot_status_of(store_slot_status_word((enum store_slot_status)i)), i);
	assert_string_equal(store_run_status_word(STORE_RUN_IMPORTED), "imported");
	assert_string_equal(store_slot_status_word(STORE_SLOT_NO_RESOURCE), "no-resource");
	assert_int_equal(store_run_status_of("finished"), STORE_RUN_UNKNOWN);
	assert_int_equal(store_slot_status_of(NULL), STORE_SLOT_UNKNOWN);
}

/* Issue 18: a run's summaries blob reads back what was put, NaN and the warm-up count (the
 * store's) included; every cut of it and every one-byte change is read without a fault
 * (run under ASan by make asan), and every cut is refused. */
static void summary_blob_round_trip_and_damage(void **state)
{
	(void)state;
	char *path = v1_database("blob.db");
	struct err e = {{0}};
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct store_summary x[2] = {
		{.workload = "a.one", .copies = 1, .n = 20, .warmup = 7, .mean_y = 14.5, .nbatches = 4, .batch_size = 5,
		 .tau2 = 1e-4, .var_mean = NAN, .df = 3, .r1 = -0.25, .autocorr = 1, .kept_y = 14.5, .elapsed_s = 1,
		 .round_map = "abc", .diag = ""},
		{.workload = "b.two", .copies = 2, .n = 3, .mean_y = -1, .nbatches = 3, .batch_size = 1, .tau2 = NAN,
		 .kept_y = NAN, .elapsed_s = 0.5, .round_map = "", .diag = "4 1 0x1p-1 0x1p-2;"},
	};
	assert_int_equal(store_summary_put_run(s, 1, 7, x, 2, &e), 0);
	struct store_summary *m;
	size_t nm, bad;
	assert_int_equal(store_summaries_get(s, (int64_t[]){1}, 1, &m, &nm, &bad, &e), 0);
	assert_int_equal(nm, 2);
	assert_int_equal(bad, 0);
	assert_int_equal(m[0].method, 7);
	assert_int_equal(m[0].warmup, 0); /* no sample is flagged: the store counts them */
	assert_string_equal(m[0].workload, "a.one");
	assert_true(m[0].mean_y == 14.5 && isnan(m[0].var_mean) && m[0].r1 == -0.25 && m[0].autocorr == 1);
	assert_string_equal(m[0].round_map, "abc");
	assert_int_equal(m[1].copies, 2);
	assert_true(m[1].mean_y == -1 && isnan(m[1].tau2) && isnan(m[1].kept_y));
	assert_string_equal(m[1].diag, "4 1 0x1p-1 0x1p-2;");
	store_summaries_free(m, nm);

	sqlite3_stmt *st;
	assert_int_equal(store_prepare(s, "SELECT slots FROM run_summary WHERE run = 1", &st, &e), 0);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	size_t len = (size_t)sqlite3_column_bytes(st, 0);
	unsigned char *blob = xcalloc(len, 1);
	memcpy(blob, sqlite3_column_blob(st, 0), len);
	sqlite3_finalize(st);
	struct sum_blob b;
	struct sum_slot v;
	for (size_t cut = 0; cut < len; cut++) {
		unsigned char *part = xcalloc(cut ? cut : 1, 1); /* exactly cut bytes: ASan sees a read past them */
		memcpy(part, blob, cut);
		int got = sum_blob_open(&b, part, cut) ? 1 : -1;
		while (got > 0)
			got = sum_blob_next(&b, &v);
		assert_int_equal(got, -1);
		free(part);
	}
	for (size_t i = 0; i < len; i++)
		for (int bit = 0; bit < 8; bit++) {
			blob[i] ^= (unsigned char)(1u << bit);
			int got = sum_blob_open(&b, blob, len) ? 1 : -1, slots = 0;
			while (got > 0 && (got = sum_blob_next(&b, &v)) > 0)
				slots++;
			assert_true(slots <= 2 || got == 0);
			blob[i] ^= (unsigned char)(1u << bit);
		}
	free(blob);
	store_close(s);
	free(path);
}

/* A run's design units are typed fields decoded by the store when it lists or reads runs: the
 * arm pair and arm (settings), the NUMA node (settings "node") and the duet block (environment
 * campaign.duet_block); text that is not what sysab writes decodes to no unit. */
static void design_units_are_decoded_once(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/units.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	static const struct {
		const char *settings, *block;
	} in[] = {
		{"{\"arm\":\"new\",\"pair\":\"p-1\",\"node\":1}", "3"},
		{"{\"samples\":2,\"allocation\":{\"from\":\"phase=pilot\",\"from_runs\":[3,4],\"allocated\":[{},{},{}]}}",
		 NULL},
		{"{\"pair\":7,\"arm\":null,\"node\":-1,\"allocation\":{\"from\":5}}", "-2"}, /* not sysab's: no units */
		{"not json", "4x"},
		{"{\"node\":\"0\"}", "0"},
	};
	size_t n = sizeof in / sizeof *in;
	for (size_t i = 0; i < n; i++) {
		struct kvlist env = {0};
		if (in[i].block)
			kv_add(&env, "campaign.duet_block", in[i].block);
		struct store_run_new r = {
			.host = {"h1", "cpu X", 2, 1 << 30, "boot-1", "6.1.0", "#1 SMP"},
			.started_ns = 1000 + i, .status = "complete", .source = "sysab", .settings = in[i].settings,
			.env = &env,
		};
		int64_t id;
		assert_int_equal(store_run_begin(s, &r, &id, &e), 0);
		kv_free(&env);
	}
	struct store_run_info *runs;
	size_t nr;
	assert_int_equal(store_runs_list_bare(s, &runs, &nr, &e), 0);
	assert_int_equal(nr, n);
	assert_string_equal(runs[0].pair, "p-1");
	assert_string_equal(runs[0].arm, "new");
	assert_true(runs[0].on_node);
	assert_int_equal(runs[0].node, 1);
	assert_true(runs[0].in_duet);
	assert_int_equal(runs[0].duet_block, 3);
	assert_string_equal(runs[1].alloc_from, "phase=pilot"); /* run --allocate's record */
	assert_int_equal(runs[1].alloc_runs, 2);
	assert_int_equal(runs[1].alloc_workloads, 3);
	assert_null(runs[0].alloc_from);
	assert_null(runs[2].alloc_from);
	for (size_t i = 1; i < 4; i++) {
		assert_null(runs[i].pair);
		assert_null(runs[i].arm);
		assert_false(runs[i].on_node);
		assert_false(runs[i].in_duet);
	}
	assert_false(runs[4].on_node); /* a node as text is not sysab's */
	assert_true(runs[4].in_duet);
	assert_int_equal(runs[4].duet_block, 0);
	/* store_run_get decodes the same */
	struct store_run_info one;
	assert_int_equal(store_run_get(s, runs[0].id, &one, &e), 0);
	assert_string_equal(one.pair, "p-1");
	assert_true(one.in_duet && one.duet_block == 3 && one.on_node && one.node == 1);
	store_run_info_free(&one);
	store_runs_free(runs, nr);
	store_close(s);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(round_trip),
		cmocka_unit_test(design_units_are_decoded_once),
		cmocka_unit_test(status_words_round_trip),
		cmocka_unit_test(transactions_are_all_or_nothing),
		cmocka_unit_test(reaper_trusts_the_run_lock_over_the_pid),
		cmocka_unit_test(opening_a_current_database_takes_no_backup),
		cmocka_unit_test(migration_backs_up_then_upgrades),
		cmocka_unit_test(failed_migration_changes_nothing),
		cmocka_unit_test(existing_backup_stops_migration),
		cmocka_unit_test(summary_blob_round_trip_and_damage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
