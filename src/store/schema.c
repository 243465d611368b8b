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

/* Issue 10 and 15: a stable run UUID (import db merges by it; existing runs get a fresh one),
 * and boot campaigns: configurations, the randomized schedule of boot slots, and which runs
 * each slot produced. */
static const char schema_campaigns[] =
	"ALTER TABLE run ADD COLUMN uuid TEXT;\n"
	"UPDATE run SET uuid = lower(hex(randomblob(16)));\n"
	"CREATE UNIQUE INDEX run_uuid ON run(uuid);\n"
	"CREATE TABLE campaign(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE, uuid TEXT NOT NULL UNIQUE,\n"
	"  backend TEXT NOT NULL CHECK(backend IN ('qemu','kexec','grub','command')),\n"
	"  seed INTEGER NOT NULL, boots INTEGER NOT NULL, runs INTEGER NOT NULL,\n"
	"  run_args TEXT NOT NULL DEFAULT '[]',\n"
	"  options TEXT NOT NULL DEFAULT '{}',\n"
	"  state TEXT NOT NULL CHECK(state IN ('new','running','stopped','failed','done')),\n"
	"  reason TEXT, created_ns INTEGER NOT NULL,\n"
	"  looks INTEGER NOT NULL DEFAULT 0);\n"
	"CREATE TABLE campaign_config(\n"
	"  campaign INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  idx INTEGER NOT NULL, name TEXT NOT NULL,\n"
	"  labels TEXT NOT NULL DEFAULT '{}',\n"
	"  kernel TEXT, initrd TEXT, append TEXT, entry TEXT, command TEXT,\n"
	"  PRIMARY KEY(campaign, idx));\n"
	"CREATE TABLE campaign_slot(\n"
	"  campaign INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  slot INTEGER NOT NULL, block INTEGER NOT NULL, config INTEGER NOT NULL,\n"
	"  state TEXT NOT NULL CHECK(state IN ('pending','booting','running','done','failed','interrupted','skipped')),\n"
	"  attempts INTEGER NOT NULL DEFAULT 0, reason TEXT, boot_id TEXT,\n"
	"  started_ns INTEGER, finished_ns INTEGER,\n"
	"  PRIMARY KEY(campaign, slot));\n"
	"CREATE TABLE campaign_run(\n"
	"  run INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,\n"
	"  campaign INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  slot INTEGER NOT NULL);\n";

/* Issue 18: per-run summaries, one row per (run, workload, copies) that has measured
 * samples, so analysis reads O(runs) rows. `method` is the ST_SUMMARY_METHOD that wrote
 * the row; the columns mirror struct store_summary. A NULL real is a NAN. summary_meta holds
 * the method with which every run's summaries were last brought up to date (no row:
 * never). The step only creates the tables: the rows of an existing database are
 * computed from its samples when it is next opened for writing (cli_open_db). */
static const char summary_step[] =
	"CREATE TABLE run_summary(\n"
	"  run INTEGER NOT NULL REFERENCES run(id) ON DELETE CASCADE,\n"
	"  workload TEXT NOT NULL, copies INTEGER NOT NULL,\n"
	"  method INTEGER NOT NULL,\n"
	"  n INTEGER NOT NULL, warmup INTEGER NOT NULL,\n"
	"  mean_y REAL, nbatches INTEGER NOT NULL, batch_size INTEGER NOT NULL,\n"
	"  tau2 REAL, var_mean REAL, df REAL, r1 REAL, autocorr INTEGER NOT NULL,\n"
	"  halfwidth REAL, median_y REAL, mad_y REAL,\n"
	"  median REAL, mean REAL, cv REAL, min REAL, max REAL,\n"
	"  PRIMARY KEY(run, workload, copies));\n"
	"CREATE TABLE summary_meta(method INTEGER NOT NULL);\n";

/* Issue 18, at fleet scale: a run's summaries are one row (run_summary.slots, a blob of
 * every (workload, copies) of the run, docs/FORMATS.md) rather than one row of 25 columns
 * per slot, so analysis reads runs rather than slots; the row also holds a copy of the
 * run's environment (env), which compare's confounder check reads. The triggers delete a
 * run's row when any of its samples or environment entries is added, changed or deleted,
 * by sysab or anything else: a row that exists was computed from the run as it is. The rows are recomputed from the
 * samples by the next writing command (summary_meta is emptied). */
static const char summary_per_run[] =
	"DROP TABLE run_summary;\n"
	"CREATE TABLE run_summary(\n"
	"  run INTEGER PRIMARY KEY REFERENCES run(id) ON DELETE CASCADE,\n"
	"  method INTEGER NOT NULL,\n"
	"  env BLOB NOT NULL,\n"
	"  slots BLOB NOT NULL);\n"
	"DELETE FROM summary_meta;\n"
	"CREATE TRIGGER sample_added_summary AFTER INSERT ON sample\n"
	"  BEGIN DELETE FROM run_summary WHERE run = NEW.run; END;\n"
	"CREATE TRIGGER sample_changed_summary AFTER UPDATE ON sample\n"
	"  BEGIN DELETE FROM run_summary WHERE run IN (OLD.run, NEW.run); END;\n"
	"CREATE TRIGGER sample_deleted_summary AFTER DELETE ON sample\n"
	"  BEGIN DELETE FROM run_summary WHERE run = OLD.run; END;\n"
	"CREATE TRIGGER environment_added_summary AFTER INSERT ON environment\n"
	"  BEGIN DELETE FROM run_summary WHERE run = NEW.run; END;\n"
	"CREATE TRIGGER environment_changed_summary AFTER UPDATE ON environment\n"
	"  BEGIN DELETE FROM run_summary WHERE run IN (OLD.run, NEW.run); END;\n"
	"CREATE TRIGGER environment_deleted_summary AFTER DELETE ON environment\n"
	"  BEGIN DELETE FROM run_summary WHERE run = OLD.run; END;\n";

/* Issue 46: the backends are a table in the code (campaign.h), so the database no longer lists
 * them: the campaign table is rebuilt without the CHECK on backend, every row and id kept (the
 * tables that reference campaign(id) refer to it by name, and foreign keys are off while the
 * schema migrates). A backend the code does not know is refused when the campaign is loaded. */
static const char campaign_backend_unchecked[] =
	"CREATE TABLE campaign_v9(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE, uuid TEXT NOT NULL UNIQUE,\n"
	"  backend TEXT NOT NULL,\n"
	"  seed INTEGER NOT NULL, boots INTEGER NOT NULL, runs INTEGER NOT NULL,\n"
	"  run_args TEXT NOT NULL DEFAULT '[]',\n"
	"  options TEXT NOT NULL DEFAULT '{}',\n"
	"  state TEXT NOT NULL CHECK(state IN ('new','running','stopped','failed','done')),\n"
	"  reason TEXT, created_ns INTEGER NOT NULL,\n"
	"  looks INTEGER NOT NULL DEFAULT 0);\n"
	"INSERT INTO campaign_v9(id, name, uuid, backend, seed, boots, runs, run_args, options, state, reason,\n"
	"  created_ns, looks)\n"
	"  SELECT id, name, uuid, backend, seed, boots, runs, run_args, options, state, reason, created_ns, looks\n"
	"  FROM campaign;\n"
	"DROP TABLE campaign;\n"
	"ALTER TABLE campaign_v9 RENAME TO campaign;\n";

/* migrations[v] upgrades a database at user_version v to v + 1. */
static const char *const migrations[] = {
	schema_v1,
	/* issue 14: per-sample event counts from perf_event_open (summed over copies). */
	"CREATE TABLE sample_counter(\n"
	"  sample INTEGER NOT NULL REFERENCES sample(id) ON DELETE CASCADE,\n"
	"  event TEXT NOT NULL, value INTEGER NOT NULL,\n"
	"  PRIMARY KEY(sample, event));\n",
	schema_campaigns, /* issue 10 and 15 */
	summary_step, /* issue 18: run_summary */
	/* issue 17: a sample the source itself discarded (UnixBench's worst third), kept for the
	 * statistics but left out of the source's own score */
	"ALTER TABLE sample ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;\n",
	/* issue 18: what analysis still took from the samples: the source's score (kept_y),
	 * the samples' time, the run's rounding map and its diagnostics tally. Rows without
	 * them are stale: ST_SUMMARY_METHOD 2 recomputes them. */
	"ALTER TABLE run_summary ADD COLUMN kept_y REAL;\n"
	"ALTER TABLE run_summary ADD COLUMN elapsed_s REAL;\n"
	"ALTER TABLE run_summary ADD COLUMN round_map TEXT;\n"
	"ALTER TABLE run_summary ADD COLUMN diag TEXT;\n",
	summary_per_run, /* issue 18: one summary row per run, kept current by triggers */
	/* issue 31: every look compare and analyze take at a question, so that looking again
	 * after adding boots is counted (docs/METHOD.md, "Repeated looks") */
	"CREATE TABLE look(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  key TEXT NOT NULL, question INTEGER NOT NULL, k INTEGER NOT NULL,\n"
	"  at_ns INTEGER NOT NULL, fingerprint TEXT NOT NULL,\n"
	"  max_boots INTEGER NOT NULL DEFAULT 0, withheld INTEGER NOT NULL DEFAULT 0,\n"
	"  design TEXT NOT NULL DEFAULT '{}', runs TEXT NOT NULL DEFAULT '[]',\n"
	"  verdicts TEXT NOT NULL DEFAULT '{}',\n"
	"  UNIQUE(key, question, fingerprint));\n",
	campaign_backend_unchecked, /* issue 46: the backend names come from the code's table */
	/* issue 48: an adaptive campaign's settings (campaign new --until decided), why it
	 * stopped, and the look it took after each block (one row per look, numbered by block) */
	"CREATE TABLE campaign_adaptive(\n"
	"  campaign INTEGER PRIMARY KEY REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  until TEXT NOT NULL CHECK(until IN ('decided')),\n"
	"  target REAL NOT NULL, max_boots INTEGER NOT NULL, budget_s REAL NOT NULL DEFAULT 0,\n"
	"  stopped TEXT CHECK(stopped IN ('decided','cap','budget')));\n"
	"CREATE TABLE campaign_adaptive_look(\n"
	"  campaign INTEGER NOT NULL REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  k INTEGER NOT NULL, blocks INTEGER NOT NULL, at_ns INTEGER NOT NULL,\n"
	"  decision TEXT NOT NULL, verdicts TEXT NOT NULL DEFAULT '{}',\n"
	"  PRIMARY KEY(campaign, k));\n",
	/* issue 50: a bisection of an ordered series (sysab bisect new), its culprit check, and its
	 * steps, each one adaptive campaign of the midpoint with both ends (campaign NULL until it is
	 * made), with the side its evidence favoured (--assume) */
	"CREATE TABLE bisect(\n"
	"  id INTEGER PRIMARY KEY,\n"
	"  name TEXT NOT NULL UNIQUE,\n"
	"  series TEXT NOT NULL, good INTEGER NOT NULL, bad INTEGER NOT NULL,\n"
	"  cap INTEGER NOT NULL, assume INTEGER NOT NULL DEFAULT 0,\n"
	"  backend TEXT NOT NULL, run_args TEXT NOT NULL DEFAULT '[]', options TEXT NOT NULL DEFAULT '[]',\n"
	"  workloads TEXT NOT NULL DEFAULT '[]',\n"
	"  state TEXT NOT NULL, reason TEXT, created_ns INTEGER NOT NULL,\n"
	"  checked TEXT CHECK(checked IN ('confirmed','unconfirmed')));\n"
	"CREATE TABLE bisect_step(\n"
	"  bisect INTEGER NOT NULL REFERENCES bisect(id) ON DELETE CASCADE,\n"
	"  n INTEGER NOT NULL, mid INTEGER NOT NULL, good INTEGER NOT NULL, bad INTEGER NOT NULL,\n"
	"  campaign INTEGER REFERENCES campaign(id) ON DELETE SET NULL,\n"
	"  call TEXT, why TEXT, boots INTEGER NOT NULL DEFAULT 0, looks INTEGER NOT NULL DEFAULT 0,\n"
	"  assumed INTEGER NOT NULL DEFAULT 0, favoured TEXT,\n"
	"  PRIMARY KEY(bisect, n));\n"
	/* a step's campaign is adaptive with its own rule: until 'bisect' */
	"CREATE TABLE campaign_adaptive_v11(\n"
	"  campaign INTEGER PRIMARY KEY REFERENCES campaign(id) ON DELETE CASCADE,\n"
	"  until TEXT NOT NULL CHECK(until IN ('decided','bisect')),\n"
	"  target REAL NOT NULL, max_boots INTEGER NOT NULL, budget_s REAL NOT NULL DEFAULT 0,\n"
	"  stopped TEXT CHECK(stopped IN ('decided','cap','budget')));\n"
	"INSERT INTO campaign_adaptive_v11 SELECT campaign, until, target, max_boots, budget_s, stopped\n"
	"  FROM campaign_adaptive;\n"
	"DROP TABLE campaign_adaptive;\n"
	"ALTER TABLE campaign_adaptive_v11 RENAME TO campaign_adaptive;\n",
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
