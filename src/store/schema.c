/* schema.c - the database schema, its version and the migrations between versions. */
#include "store_impl.h"

/* Version 1: the first schema. Each later version adds one entry to migrations[]. */
static const char schema_v1[] =
	"CREATE TABLE machine(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  hostname TEXT NOT NULL, cpu_model TEXT NOT NULL,\n"
	"  ncpus INTEGER NOT NULL, mem_bytes INTEGER NOT NULL,\n"
	"  UNIQUE(hostname, cpu_model, ncpus, mem_bytes));\n"
	"CREATE TABLE boot(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  boot_id TEXT NOT NULL UNIQUE,\n"
	"  machine INTEGER NOT NULL REFERENCES machine(id),\n"
	"  kernel_release TEXT NOT NULL, kernel_version TEXT NOT NULL,\n"
	"  first_seen_ns INTEGER NOT NULL);\n"
	"CREATE TABLE run(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  boot INTEGER NOT NULL REFERENCES boot(id),\n"
	"  started_ns INTEGER NOT NULL, finished_ns INTEGER,\n"
	"  status TEXT NOT NULL CHECK(status IN ('running','complete','incomplete','interrupted','imported')),\n"
	"  reason TEXT,\n"
	"  source TEXT NOT NULL,\n"
	"  seed INTEGER NOT NULL DEFAULT 0,\n"
	"  settings TEXT NOT NULL DEFAULT '{}',\n"
	"  pid INTEGER,\n"
	"  overhead_ns REAL);\n"
	"CREATE TABLE label(\n"
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  key TEXT NOT NULL, value TEXT NOT NULL,\n"
	"  PRIMARY KEY(run, key));\n"
	"CREATE TABLE environment(\n"
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  key TEXT NOT NULL, value TEXT NOT NULL,\n"
	"  PRIMARY KEY(run, key));\n"
	"CREATE TABLE slot(\n"
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  workload TEXT NOT NULL, copies INTEGER NOT NULL,\n"
	"  unit TEXT NOT NULL, latency INTEGER NOT NULL DEFAULT 0,\n"
	"  status TEXT NOT NULL, reason TEXT,\n"
	"  batch_ops INTEGER NOT NULL DEFAULT 0, overhead_ns REAL NOT NULL DEFAULT 0,\n"
	"  checks TEXT,\n"
	"  PRIMARY KEY(run, workload, copies));\n"
	"CREATE TABLE sample(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  workload TEXT NOT NULL, copies INTEGER NOT NULL,\n"
	"  seq INTEGER NOT NULL, round INTEGER NOT NULL DEFAULT -1,\n"
	"  ops INTEGER NOT NULL, elapsed_ns INTEGER NOT NULL,\n"
	"  value REAL NOT NULL CHECK(value > 0),\n"
	"  warmup INTEGER NOT NULL DEFAULT 0,\n"
	"  UNIQUE(run, workload, copies, seq));\n"
	"CREATE INDEX run_boot ON run(boot);\n";

/* migrations[v] upgrades a database at user_version v to v + 1. */
static const char *const migrations[] = {
	schema_v1,
	/* issue 14: per-sample event counts from perf_event_open (summed over copies). */
	"CREATE TABLE sample_counter(\n"
	"  sample INTEGER NOT NULL REFERENCES sample(id) ON DELETE CASCADE,\n"
	"  event TEXT NOT NULL, value INTEGER NOT NULL,\n"
	"  PRIMARY KEY(sample, event));\n",
	/* issue 17: a sample the source itself discarded (UnixBench's worst third), kept for the
	 * statistics but left out of the source's own score */
	"ALTER TABLE sample ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;\n",
};

#define BUILTIN_STEPS ((int)(sizeof migrations / sizeof migrations[0]))

/* Steps a test appends after the built-in ones (store_schema_test_steps). */
static const char *const *test_steps;
static int ntest_steps;

void store_schema_test_steps(const char *const *steps, int n)
{
	test_steps = n > 0 ? steps : NULL;
	ntest_steps = n > 0 ? n : 0;
}

int store_schema_target(void)
{
	return BUILTIN_STEPS + ntest_steps;
}

const char *store_schema_step(int from)
{
	if (from >= 0 && from < BUILTIN_STEPS)
		return migrations[from];
	if (from >= BUILTIN_STEPS && from < store_schema_target())
		return test_steps[from - BUILTIN_STEPS];
	return NULL;
}
