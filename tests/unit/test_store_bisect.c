/* test_store_bisect.c - bisections and their steps round-trip through SQLite; schema 10 migrates to 11 with a backup. */
#include "unit.h"
#include "core/tmp.h"
#include "store/store.h"
#include "store/store_impl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

UNIT_TMPDIR_FIXTURE

static int sql_int(struct store *s, const char *sql)
{
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	int v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void exec_ok(struct store *s, const char *sql)
{
	assert_int_equal(sqlite3_exec(s->db, sql, NULL, NULL, NULL), SQLITE_OK);
}

/* A campaign row a step can name (the fields campaign_create would fill). */
static void add_campaign(struct store *s, const char *name)
{
	char *sql = xasprintf("INSERT INTO campaign(name, uuid, backend, seed, boots, runs, state, created_ns) "
			      "VALUES('%s', 'u-%s', 'command', 1, 2, 1, 'new', 1)",
			      name, name);
	exec_ok(s, sql);
	free(sql);
}

static void bisection_and_steps_round_trip(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/b.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	struct store_bisect b = {.name = "k", .series = "[\"v=1\",\"v=2\",\"v=3\"]", .good = 0, .bad = 2, .cap = 24,
				 .assume = 1, .backend = "command", .run_args = "[\"--quick\"]", .workloads = "[\"sys.*\"]",
				 .state = "new", .created_ns = 42};
	assert_int_equal(store_bisect_create(s, &b, &e), 0);
	assert_true(b.id > 0);
	/* a taken name is refused, naming it; nothing more is stored */
	struct store_bisect b2 = b;
	assert_int_equal(store_bisect_create(s, &b2, &e), -1);
	assert_non_null(strstr(e.msg, "bisection 'k'"));
	assert_int_equal(sql_int(s, "SELECT count(*) FROM bisect"), 1);

	struct store_bisect r;
	assert_int_equal(store_bisect_get(s, "k", &r, &e), 0);
	assert_int_equal(r.id, b.id);
	assert_string_equal(r.series, b.series);
	assert_true(r.good == 0 && r.bad == 2 && r.cap == 24 && r.assume == 1);
	assert_string_equal(r.backend, "command");
	assert_string_equal(r.run_args, "[\"--quick\"]");
	assert_string_equal(r.options, "[]"); /* NULL stored as the empty array */
	assert_string_equal(r.workloads, "[\"sys.*\"]");
	assert_string_equal(r.state, "new");
	assert_null(r.reason);
	assert_null(r.checked);
	assert_int_equal(r.created_ns, 42);
	store_bisect_free(&r);
	store_bisect_free(NULL);

	/* an unknown name is an error naming it and what to do */
	assert_int_equal(store_bisect_get(s, "nope", &r, &e), -1);
	assert_non_null(strstr(e.msg, "bisection 'nope'"));
	assert_non_null(strstr(e.msg, "bisect new nope"));

	assert_int_equal(store_bisect_set_state(s, b.id, "found", "culprit 3", &e), 0);
	assert_int_equal(store_bisect_set_checked(s, b.id, "confirmed", &e), 0);
	assert_int_equal(store_bisect_get(s, "k", &r, &e), 0);
	assert_string_equal(r.state, "found");
	assert_string_equal(r.reason, "culprit 3");
	assert_string_equal(r.checked, "confirmed");
	store_bisect_free(&r);
	/* the check's outcome is one of two words */
	assert_int_equal(store_bisect_set_checked(s, b.id, "maybe", &e), -1);

	/* steps: open (no campaign, no call), then ended; replaced by number; read in order */
	add_campaign(s, "k.step1");
	add_campaign(s, "k.step2");
	struct store_bisect_step x1 = {.n = 1, .mid = 1, .good = 0, .bad = 2, .campaign = "k.step2"};
	struct store_bisect_step x0 = {.n = 0, .mid = 1, .good = 0, .bad = 2};
	assert_int_equal(store_bisect_step_put(s, b.id, &x1, &e), 0);
	assert_int_equal(store_bisect_step_put(s, b.id, &x0, &e), 0);
	x0 = (struct store_bisect_step){.n = 0, .mid = 1, .good = 0, .bad = 2, .campaign = "k.step1", .call = "undecided",
					.why = "cap", .boots = 24, .looks = 7, .assumed = 1, .favoured = "bad"};
	assert_int_equal(store_bisect_step_put(s, b.id, &x0, &e), 0);
	struct store_bisect_step *v;
	size_t n;
	assert_int_equal(store_bisect_steps(s, b.id, &v, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0].n, 0);
	assert_string_equal(v[0].campaign, "k.step1");
	assert_string_equal(v[0].call, "undecided");
	assert_string_equal(v[0].why, "cap");
	assert_true(v[0].boots == 24 && v[0].looks == 7 && v[0].assumed == 1);
	assert_string_equal(v[0].favoured, "bad");
	assert_int_equal(v[1].n, 1);
	assert_string_equal(v[1].campaign, "k.step2");
	assert_null(v[1].call);
	assert_null(v[1].why);
	assert_null(v[1].favoured);
	store_bisect_steps_free(v, n);

	/* which bisection a campaign belongs to: a step's by its link, the check's by its name */
	char *owner;
	assert_int_equal(store_bisect_of_campaign(s, "k.step2", &owner, &e), 1);
	assert_string_equal(owner, "k");
	free(owner);
	assert_int_equal(store_bisect_of_campaign(s, "k.check", &owner, &e), 1);
	free(owner);
	add_campaign(s, "other");
	assert_int_equal(store_bisect_of_campaign(s, "other", &owner, &e), 0);
	assert_null(owner);

	/* a removed campaign leaves its step without one; a removed bisection takes its steps */
	exec_ok(s, "DELETE FROM campaign WHERE name = 'k.step2'");
	assert_int_equal(store_bisect_steps(s, b.id, &v, &n, &e), 0);
	assert_int_equal(n, 2);
	assert_null(v[1].campaign);
	store_bisect_steps_free(v, n);
	exec_ok(s, "DELETE FROM bisect");
	assert_int_equal(sql_int(s, "SELECT count(*) FROM bisect_step"), 0);
	store_close(s);
	free(path);
}

/* A database of schema 10 (adaptive campaigns, no bisections): a reading open refuses it; the
 * first writing open backs it up byte for byte as .v10.bak and migrates it, its adaptive
 * campaigns kept and a step's "bisect" rule allowed. */
static void schema_10_migrates_with_a_backup(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/v10.db", dir);
	struct store *s;
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	add_campaign(s, "a");
	exec_ok(s, "INSERT INTO campaign_adaptive(campaign, until, target, max_boots) VALUES(1, 'decided', 0.01, 4)");
	/* schema 10's campaign_adaptive: only 'decided' */
	exec_ok(s, "DROP TABLE bisect_step; DROP TABLE bisect; ALTER TABLE campaign_adaptive RENAME TO ca;"
		   "CREATE TABLE campaign_adaptive(campaign INTEGER PRIMARY KEY REFERENCES campaign(id) ON DELETE CASCADE,"
		   " until TEXT NOT NULL CHECK(until IN ('decided')), target REAL NOT NULL, max_boots INTEGER NOT NULL,"
		   " budget_s REAL NOT NULL DEFAULT 0, stopped TEXT CHECK(stopped IN ('decided','cap','budget')));"
		   "INSERT INTO campaign_adaptive SELECT * FROM ca; DROP TABLE ca; PRAGMA user_version = 10");
	store_close(s);
	assert_int_equal(store_open(path, STORE_READ, &s, &e), -1);
	assert_non_null(strstr(e.msg, "older sysab"));
	char *bak = xasprintf("%s.v10.bak", path);
	assert_int_not_equal(access(bak, F_OK), 0);
	assert_int_equal(store_open(path, STORE_RW, &s, &e), 0);
	assert_int_equal(sql_int(s, "PRAGMA user_version"), 11);
	assert_int_equal(access(bak, F_OK), 0);
	assert_int_equal(sql_int(s, "SELECT max_boots FROM campaign_adaptive WHERE until = 'decided'"), 4);
	exec_ok(s, "INSERT INTO campaign(name, uuid, backend, seed, boots, runs, state, created_ns) "
		   "VALUES('b', 'u-b', 'command', 1, 8, 1, 'new', 1);"
		   "INSERT INTO campaign_adaptive(campaign, until, target, max_boots) VALUES(2, 'bisect', 0.01, 8)");
	assert_int_equal(sqlite3_exec(s->db, "UPDATE campaign_adaptive SET until = 'sure'", NULL, NULL, NULL),
			 SQLITE_CONSTRAINT);
	struct store_bisect b = {.name = "m", .series = "[]", .bad = 1, .cap = 24, .backend = "command"};
	assert_int_equal(store_bisect_create(s, &b, &e), 0);
	store_close(s);
	/* the backup is the version-10 file */
	sqlite3 *db;
	assert_int_equal(sqlite3_open_v2(bak, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_stmt *st;
	assert_int_equal(sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	assert_int_equal(sqlite3_column_int(st, 0), 10);
	sqlite3_finalize(st);
	sqlite3_close(db);
	free(bak);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bisection_and_steps_round_trip),
		cmocka_unit_test(schema_10_migrates_with_a_backup),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
