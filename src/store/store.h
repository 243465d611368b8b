/* store.h - the results database: every run, label, environment key and raw sample. */
#ifndef SYSAB_STORE_H
#define SYSAB_STORE_H

#include <stdint.h>
#include "core/core.h"

#define STORE_SCHEMA_VERSION 1

struct store;

enum store_mode {
	STORE_RW,     /* create the file (and its directories) when missing */
	STORE_RO,     /* the file must exist; nothing is written */
	STORE_READ,   /* the file must exist; opened read-write when the file and its directory
	                 are writable (so store_reap_interrupted can mark dead runs), else
	                 read-only; never created or migrated */
	STORE_COPY,   /* another database to read (import db): copied with its write-ahead log
	                 into a private temporary directory (removed on close) and read there,
	                 migrated first when its schema is older; a view or virtual table is
	                 refused, triggers are dropped from the copy; the file itself is never
	                 opened by SQLite nor written; a stop signal interrupts any statement */
};

/* Where the database is: --db PATH, else $SYSAB_DB, else $XDG_DATA_HOME/sysab/results.db,
 * else $HOME/.local/share/sysab/results.db, with the password database's home when HOME is
 * unset. Returns a new string, or NULL with e set (HOME relative, or unset with no home). */
char *store_default_path(const char *db_opt, struct err *e);

/* Open (and for STORE_RW create or migrate) the database at path. On error returns -1
 * with e naming the file and saying what to do; the file is left byte-for-byte
 * unchanged. On success *out must be closed with store_close(). */
int store_open(const char *path, enum store_mode mode, struct store **out, struct err *e);
/* Close; NULL is a no-op. */
void store_close(struct store *s);
const char *store_path(const struct store *s);
/* True when s was opened read-write. */
bool store_writable(const struct store *s);
/* True when s is a read-only WAL database that had to be opened as a snapshot (SQLite's
 * immutable=1): its directory is not writable, or (store_disk_full) its disk is full, so
 * SQLite cannot make the shared index a read needs, and its write-ahead log held nothing. Changes made after opening are not seen. */
bool store_immutable(const struct store *s);
/* True when s is such a snapshot because its disk is full (or failing): a reading command
 * opened it while FILE-shm could not be created, or when s's last statement failed with a
 * full disk. A reading command then reads on and says that nothing could be recorded. */
bool store_disk_full(const struct store *s);
/* True when a statement failed because a stop signal (sig_stop) ended its wait for a lock
 * that another process held: a writer waits up to 60 s for a lock, but only 2 s in all once
 * a stop signal has arrived. */
bool store_stopped_waiting(const struct store *s);

/* Mark runs still 'running' whose process is gone (or whose boot is not this one) as
 * 'interrupted'. Returns how many were marked, or -1 with e set. */
int store_reap_interrupted(struct store *s, const char *this_boot_id, struct err *e);

/* The machine and boot a run happened on. */
struct store_host {
	const char *hostname, *cpu_model;
	int ncpus;
	uint64_t mem_bytes;
	const char *boot_id, *kernel_release, *kernel_version;
};

/* The statuses of a run and of a slot, and the one table of their words (what the database
 * holds, what users read). */
enum store_run_status {
	STORE_RUN_RUNNING,
	STORE_RUN_COMPLETE,
	STORE_RUN_INCOMPLETE,
	STORE_RUN_INTERRUPTED,
	STORE_RUN_IMPORTED,
	STORE_RUN_UNKNOWN, /* a word this sysab does not know (a newer database) */
};
enum store_slot_status {
	STORE_SLOT_OK,
	STORE_SLOT_UNSUPPORTED,
	STORE_SLOT_NO_RESOURCE,
	STORE_SLOT_ERROR,
	STORE_SLOT_STOPPED,
	STORE_SLOT_UNKNOWN,
};
const char *store_run_status_word(enum store_run_status s);
enum store_run_status store_run_status_of(const char *word);
const char *store_slot_status_word(enum store_slot_status s);
enum store_slot_status store_slot_status_of(const char *word);

/* A new run. source: "sysab", "unixbench" or "csv". settings: a JSON object text. */
struct store_run_new {
	struct store_host host;
	uint64_t started_ns;
	const char *status; /* "running" for a live run, "imported" for imports */
	const char *source;
	uint64_t seed;
	const char *settings;
	const struct kvlist *labels;
	const struct kvlist *env;
	const char *uuid; /* the run's identity; NULL = a fresh random one */
};
/* Record a new run (and its machine and boot when new). Returns 0 with *run_id set, or -1
 * with e set and nothing stored. */
int store_run_begin(struct store *s, const struct store_run_new *r, int64_t *run_id, struct err *e);

/* Finish a run: status "complete", "incomplete" or "interrupted" with an optional reason. */
int store_run_finish(struct store *s, int64_t run_id, const char *status, const char *reason,
		     double overhead_ns, struct err *e);

/* Set how a copied run ended exactly as recorded elsewhere (import db): status, reason,
 * finished_ns (0 = unknown) and overhead_ns (< 0 = unknown); the pid is cleared. */
int store_run_set_end(struct store *s, int64_t run_id, const char *status, const char *reason, uint64_t finished_ns,
		      double overhead_ns, struct err *e);

/* Add or replace an environment key of a run (e.g. the load average after it). */
int store_run_env(struct store *s, int64_t run_id, const char *key, const char *value, struct err *e);

/* The outcome of one (workload, copies) in a run. */
struct store_slot {
	const char *workload;
	int copies;
	const char *unit;    /* unit of one op */
	int latency;         /* 1 = shown as time per op */
	const char *status;  /* "ok", "unsupported", "no-resource", "error", "stopped" */
	const char *reason;  /* NULL when ok */
	uint64_t batch_ops;  /* calibrated ops per copy per sample */
	double overhead_ns;  /* measured cost of an empty batch */
	const char *checks;  /* JSON array of self-check results, or NULL */
};
int store_slot_put(struct store *s, int64_t run_id, const struct store_slot *slot, struct err *e);

/* One timed batch. value = ops/s over all copies. */
struct store_sample {
	const char *workload;
	int copies;
	int seq;           /* 0-based order within its (workload, copies) */
	int round;         /* round the sample belongs to, or -1 */
	uint64_t ops;
	uint64_t elapsed_ns;
	double value;
	int warmup;        /* 1 = flagged as taken before a steady state */
	int dropped;       /* 1 = the source discarded it from its own score (UnixBench's "*Dump score") */
};
/* Insert a sample; committed at once unless inside store_begin()/store_commit(). */
int store_sample_add(struct store *s, int64_t run_id, const struct store_sample *x, struct err *e);

/* Flag the first `count` samples of (workload, copies) in a run as taken before a steady state. */
int store_samples_mark_warmup(struct store *s, int64_t run_id, const char *workload, int copies, int count,
			      struct err *e);

/* Explicit transactions, for importers: everything between begin and commit lands
 * together or not at all (store_rollback). */
int store_begin(struct store *s, struct err *e);
int store_commit(struct store *s, struct err *e);
void store_rollback(struct store *s);

/* --- reading --- */

struct store_run_info {
	int64_t id;
	uint64_t started_ns, finished_ns;
	char *status, *reason, *source, *settings;
	enum store_run_status state; /* status as an enum */
	uint64_t seed;
	double overhead_ns;
	char *boot_id, *kernel_release, *kernel_version, *hostname, *cpu_model;
	int ncpus;
	uint64_t mem_bytes;
	struct kvlist labels; /* sorted by key */
	struct kvlist env;    /* sorted by key; only filled by store_run_get */
	struct strv workloads;/* distinct workload names with samples, sorted */
	char *uuid;           /* stable identity across databases */
	char *campaign;       /* name of the campaign the run belongs to, or NULL */
	/* The run's design units, decoded once here when runs are listed or read (from the
	 * settings and the environment; nothing above the store parses that text for them): */
	char *pair;           /* sysab run --arm: the tag every arm of one paired run shares, or NULL */
	char *arm;            /* ... and the name of this run's arm, or NULL */
	char *arm_cmd;        /* ... and the command that switched the machine to it, or NULL */
	bool in_duet;         /* a duet campaign's run (docs/CAMPAIGNS.md, "Duet"): duet_block holds */
	int64_t duet_block;   /* its block (environment campaign.duet_block, an integer >= 0) */
	bool on_node;         /* sysab run --nodes: node holds */
	int node;             /* the NUMA node the run was bound to (settings "node", >= 0) */
	struct json_t *settings_obj; /* the settings decoded (a JSON object; NULL when they are not one),
	                       * for a record that prints them whole */
	char *alloc_from;     /* sysab run --allocate: the selector its samples were allocated from
	                       * (settings "allocation"), or NULL */
	size_t alloc_runs;    /* ... the earlier runs it was allocated from */
	size_t alloc_workloads; /* ... and the index workloads it allocated */
};

/* All runs, oldest first, without environment. *runs is freed with store_runs_free. */
int store_runs_list(struct store *s, struct store_run_info **runs, size_t *n, struct err *e);
/* The same without the workloads (left empty), which analysis never reads. */
int store_runs_list_bare(struct store *s, struct store_run_info **runs, size_t *n, struct err *e);
/* One run with its environment; error naming the id when it does not exist. */
int store_run_get(struct store *s, int64_t id, struct store_run_info *run, struct err *e);
void store_run_info_free(struct store_run_info *r);
/* Remove runs ids[0..n-1] with their labels, environment, slots and samples, and any boot
 * or machine no run refers to any more, in one transaction. Returns 0, or -1 with e set
 * (naming a run that does not exist) and nothing removed. */
int store_runs_delete(struct store *s, const int64_t *ids, size_t n, struct err *e);
/* Set run id's labels from set: an empty value removes that key, any other replaces it.
 * Call inside store_begin()/store_commit() to make several runs one change. Returns 0
 * or -1 with e set. */
int store_run_relabel(struct store *s, int64_t id, const struct kvlist *set, struct err *e);
void store_runs_free(struct store_run_info *runs, size_t n);

struct store_slot_info {
	char *workload, *unit, *status, *reason, *checks;
	enum store_slot_status state; /* status as an enum */
	int copies, latency;
	uint64_t batch_ops;
	double overhead_ns;
};
int store_slots_get(struct store *s, int64_t run_id, struct store_slot_info **slots, size_t *n, struct err *e);
void store_slots_free(struct store_slot_info *slots, size_t n);

struct store_sample_info {
	char *workload;
	int copies, seq, round, warmup;
	uint64_t ops, elapsed_ns;
	double value;
	int dropped; /* the source discarded it from its own score */
};
/* Samples of one run in (workload, copies, seq) order. */
int store_samples_get(struct store *s, int64_t run_id, struct store_sample_info **samples, size_t *n,
		      struct err *e);
void store_samples_free(struct store_sample_info *samples, size_t n);

/* A self-check that failed in a slot (its entry of slot.checks has "ok": false). */
struct store_failed_check {
	int64_t run;
	char *workload;
	int copies;
	char *check; /* the check's name ("?" when it has none) */
};
/* The failed self-checks of runs ids[0..n-1], ordered by (workload, copies, run), with one
 * query. Returns 0 (free with store_failed_checks_free) or -1 with e set and nothing in *out. */
int store_failed_checks(struct store *s, const int64_t *ids, size_t n, struct store_failed_check **out, size_t *nout,
			struct err *e);
void store_failed_checks_free(struct store_failed_check *v, size_t n);

/* --- reading samples of many runs at once, for analysis --- */
struct store_run_sum;

/* The samples of one run for one (workload, copies): y = ln(value) in seq order,
 * warm-up samples left out. round is NULL when the run recorded no rounds. */
struct store_series_run {
	int64_t run;
	double *y;
	int *round;
	size_t n;
	double elapsed_s; /* sum of the samples' elapsed time, seconds */
	double kept_y;    /* mean of y over the samples the source kept for its own score (all of
	                     them unless it discarded some, as UnixBench does): the run's score */
	bool ub_log;      /* the run was imported from a UnixBench log (source "unixbench") */
	const struct store_run_sum *sum; /* loaded from the summaries: the run's (y, round NULL) */
};
/* The runs of one boot (boot row id), runs in id order. */
struct store_series_boot {
	int64_t boot;
	struct store_series_run *runs;
	size_t nruns;
};
/* Everything loaded for one (workload, copies). */
struct store_series {
	char *workload;
	int copies;
	char *event; /* a counter series (store_load_counter_set): the event, and y is the count
	                per op on the linear scale, not ln(ops/s); NULL for timing series */
	char *unit;  /* unit of one op, from the first run's slot ("op" when none) */
	int latency; /* 1 = shown as time per op */
	struct store_series_boot *boots; /* in boot id order */
	size_t nboots;
};
struct store_set {
	struct store_series *series; /* sorted by (workload, copies) */
	size_t nseries;
};

/* Load the measured (not warm-up) samples of runs ids[0..n-1] grouped as
 * (workload, copies) -> boot -> run -> samples, with one query for all samples
 * (and small ones for the runs' boots and units), never one per run.
 * Runs without samples are absent. On success returns 0 and fills *out (free
 * with store_set_free); on error -1 with e set and *out empty. */
int store_load_set(struct store *s, const int64_t *ids, size_t n, struct store_set *out, struct err *e);
void store_set_free(struct store_set *set);
/* The per-sample event counts of runs ids[0..n-1] as a set of counter series, one per
 * (workload, copies, event), sorted so, nested like store_load_set: boot -> run -> samples
 * (measured, not warm-up, ops > 0) with their rounds; y = count / ops. Samples without a
 * count of an event are not in its series. unit is "op", latency 0. Returns 0 (free with
 * store_set_free) or -1 with e set and *out empty. */
int store_load_counter_set(struct store *s, const int64_t *ids, size_t n, struct store_set *out, struct err *e);

/* What analysis reads of one stored summary (struct store_summary has them all). */
struct store_run_sum {
	int64_t n, nbatches, batch_size;
	double mean_y, tau2, var_mean, df, r1, kept_y, elapsed_s;
	int autocorr;
	char round_map[24]; /* as stored, cut to 23 bytes */
	char *diag;         /* as stored; NULL when empty (points into store_sums.text) */
};
/* Every stored summary of the database, read once per command (one pass over the table)
 * for store_set_of_sums to pick groups from. */
struct store_sum_key {
	int64_t run, boot;
	size_t wl;   /* index into names */
	int copies;
	bool ub_log; /* the run came from a UnixBench log */
};
struct store_sums {
	struct store_run_sum *v;
	struct store_sum_key *k;
	size_t n;
	struct strv names;
	uint32_t *order; /* the rows by (workload, copies) in byte order, each series in run order */
	struct sb text;  /* the rows' diag strings, one after another */
};
/* Read those of runs ids[0..n-1] (ids NULL: of every run) when they are current:
 * summary_meta records `method`, every row of those runs carries that stamp, a finite mean
 * and its score and time, and each of their finished slots with measured samples has its
 * row; otherwise *ok is false and *out empty (the caller loads samples). Returns 0 or -1
 * with e set; free with store_sums_free. */
int store_sums_load(struct store *s, int method, const int64_t *ids, size_t n, struct store_sums *out, bool *ok,
		    struct err *e);
void store_sums_free(struct store_sums *x);
/* The same set as store_load_set gives for runs ids[0..n-1], with each run's samples
 * replaced by its summary in all (store_series_run.sum points into all, which must outlive
 * the set; y and round NULL; n, kept_y and elapsed_s from the summary). Returns 0 or -1
 * with e set (units are read from the store). */
int store_set_of_sums(struct store *s, const struct store_sums *all, const int64_t *ids, size_t n,
		      struct store_set *out, struct err *e);
/* The series of (workload, copies) in a loaded set, or NULL (binary search). */
const struct store_series *store_set_find(const struct store_set *set, const char *workload, int copies);

/* --- per-run summaries (issue 18) --- */

/* One stored summary of (run, workload, copies): what the estimators and diagnostics
 * need, computed from the measured samples by stats_run_summary() and stamped with the
 * method version that computed it. NAN reals are stored as NULL and read back as NAN. */
struct store_summary {
	int64_t run;
	char *workload; /* owned when read from the store */
	int copies;
	int method;     /* ST_SUMMARY_METHOD of the code that wrote it */
	int64_t n, warmup;
	double mean_y;
	int64_t nbatches, batch_size;
	double tau2, var_mean, df, r1;
	int autocorr;
	double halfwidth, median_y, mad_y;
	double median, mean, cv, min, max; /* of the values, ops/s */
	double kept_y, elapsed_s; /* as store_series_run has them (schema step 6) */
	char *round_map;          /* stats_run_round_map; owned when read from the store */
	char *diag;               /* stats_diag_tally_format; owned when read from the store */
};
/* Store x[0..n-1], the summaries of every (workload, copies) of run with measured samples
 * in (workload, copies) byte order, as the run's one row stamped method, replacing the row
 * before (n = 0: delete it). x->warmup is set here from the samples flagged as warm-up, so
 * mark them first. The schema's triggers delete the row again when any sample of the run
 * is added, changed or deleted. Returns 0 or -1 with e set. */
int store_summary_put_run(struct store *s, int64_t run, int method, struct store_summary *x, size_t n,
			  struct err *e);
/* Set x[i].warmup, for the summaries x[0..n-1] of run, to the count of the slot's samples
 * flagged as warm-up. Returns 0 or -1 with e set. */
int store_summary_warmup(struct store *s, int64_t run, struct store_summary *x, size_t n, struct err *e);
/* The summaries of runs ids[0..n-1] ordered by (run, workload, copies), with one query;
 * *unreadable = rows that are not a run summary blob (none of their slots is given).
 * Returns 0 (free with store_summaries_free) or -1 with e set. */
int store_summaries_get(struct store *s, const int64_t *ids, size_t n, struct store_summary **out, size_t *nout,
			size_t *unreadable, struct err *e);
void store_summaries_free(struct store_summary *v, size_t n);
/* The ids (ascending, >= min_run) of finished runs with measured samples but no summary row
 * stamped `method`. Returns 0 (free *ids) or -1 with e set. */
int store_summary_stale(struct store *s, int method, int64_t min_run, int64_t **ids, size_t *n, struct err *e);
/* The method with which every run's summaries were last brought up to date, 0 for never
 * (summary_meta); and setting it. Return 0 or -1 with e set. */
int store_summary_method(struct store *s, int *method, struct err *e);
int store_summary_method_set(struct store *s, int method, struct err *e);
/* The highest run id, 0 when there are no runs. Returns 0 or -1 with e set. */
int store_run_max_id(struct store *s, int64_t *id, struct err *e);
/* Count the summary rows of runs without measured samples left. Returns 0 or -1 with e set. */
int store_summary_orphans(struct store *s, int64_t *orphans, struct err *e);

/* --- export --- */

/* One stored sample with its slot's unit, for export. */
struct store_export_sample {
	int64_t run;
	char *workload, *unit;
	int copies, latency, seq, round, warmup, dropped;
	uint64_t ops, elapsed_ns;
	double value;
};
struct store_export {
	struct store_export_sample *v; /* ordered by run, workload, copies, seq */
	size_t n;
};
/* Every sample (warm-up included, flagged) of runs ids[0..n-1], with one query.
 * Returns 0 (free with store_export_free) or -1 with e set. */
int store_export_load(struct store *s, const int64_t *ids, size_t n, struct store_export *out, struct err *e);
void store_export_free(struct store_export *x);

/* Fill the env of runs[0..n-1] (sorted by id) with one query. Returns 0 or -1 with e set. */
int store_runs_env(struct store *s, struct store_run_info *runs, size_t n, struct err *e);
/* The same, only the entries of one key. */
int store_runs_env_key(struct store *s, struct store_run_info *runs, size_t n, const char *key, struct err *e);

/* The environment of a set of runs as distinct values, for the confounder check: each key
 * with the runs that record it, the lowest run id without it, and its distinct values in
 * the order of the first run (lowest id) that has each. */
struct store_env_value {
	char *value;
	int64_t first; /* the lowest run id with this value */
};
struct store_env_key {
	char *key;
	size_t nruns;          /* runs that record the key */
	int64_t first_without; /* the lowest run id without it; 0 when every run has it */
	struct store_env_value *v;
	size_t nv;
};
struct store_env {
	struct store_env_key *k; /* sorted by key (strcmp) */
	size_t nk;
	size_t nruns; /* the runs asked about */
	size_t nenv;  /* of them, those that record any environment */
};
/* The environment of runs ids[0..n-1] (distinct ids) in one pass over their entries, holding
 * each distinct value once. Returns 0 (free with store_env_free) or -1 with e set. */
int store_env_values(struct store *s, const int64_t *ids, size_t n, struct store_env *out, struct err *e);
void store_env_free(struct store_env *x);

/* 1 with *id set when a run with this uuid is stored, 0 when not, -1 with e set on error. */
int store_run_by_uuid(struct store *s, const char *uuid, int64_t *id, struct err *e);

/* 1 when a boot with this boot_id is recorded, 0 when not, -1 with e set on error. */
int store_boot_exists(struct store *s, const char *boot_id, struct err *e);

/* --- boot campaigns (docs/CAMPAIGNS.md) --- */

/* One configuration: labels (a JSON object text) and how to boot it (NULL = not given). */
struct store_campaign_config {
	char *name, *labels, *kernel, *initrd, *append, *entry, *command;
};
/* Release k's strings and zero it; NULL is a no-op. */
void store_campaign_config_free(struct store_campaign_config *k);
/* One boot slot of the schedule. state: pending, booting, running, done, failed,
 * interrupted, skipped. Times are 0 when not yet known. */
struct store_campaign_slot {
	int slot, block, config;
	char *state;
	int attempts;
	char *reason, *boot_id;
	uint64_t started_ns, finished_ns;
	int nruns; /* runs recorded for the slot (read only) */
};
/* A campaign. run_args: JSON array of `sysab run` arguments; options: JSON object of the
 * backend's options. state: new, running, stopped, failed, done. */
/* An adaptive campaign's settings (campaign new --until decided; docs/CAMPAIGNS.md, "Adaptive
 * campaigns"): until "decided", the target as a fraction, the cap in boots per configuration,
 * the wall-time budget in seconds (0: none), and why it stopped ("decided", "cap", "budget";
 * NULL while it goes on). */
struct store_adaptive {
	char *until, *stopped;
	double target, budget_s;
	int max_boots;
};
/* The look an adaptive campaign took after a block: its number k (1, 2, ...), the blocks
 * complete then, when, the decision's word and the verdicts ({"ROW": "VERDICT"}) as JSON. */
struct store_adaptive_look {
	int k, blocks;
	uint64_t at_ns;
	char *decision, *verdicts;
};
struct store_campaign {
	int64_t id;
	char *name, *uuid, *backend, *run_args, *options, *state, *reason;
	uint64_t seed, created_ns;
	int boots, runs, looks;
	struct store_campaign_config *configs;
	size_t nconfigs;
	struct store_campaign_slot *slots;
	size_t nslots;
	struct store_adaptive *adaptive; /* store_campaign_create: stored with it when not NULL
					  * (borrowed); store_campaign_get leaves it NULL */
};
/* Store a new campaign with its configurations and slots in one transaction; sets c->id.
 * A taken name is an error naming it. On error nothing is stored. */
int store_campaign_create(struct store *s, struct store_campaign *c, struct err *e);
/* Load campaign `name` (configurations in order, slots in order) into *c, which is then
 * freed with store_campaign_free. An unknown name is an error naming it. */
int store_campaign_get(struct store *s, const char *name, struct store_campaign *c, struct err *e);
void store_campaign_free(struct store_campaign *c);
/* The campaign names, oldest first, appended to names. */
int store_campaign_names(struct store *s, struct strv *names, struct err *e);
/* Record that look k was taken at campaign id before it was done (looks only ever grows). */
int store_campaign_look(struct store *s, int64_t id, int k, struct err *e);
/* Set a campaign's state and reason; looks only ever grows. */
int store_campaign_set_state(struct store *s, int64_t id, const char *state, const char *reason, int looks,
			     struct err *e);
/* Write the progress fields of slot x->slot of campaign id. */
int store_campaign_slot_put(struct store *s, int64_t id, const struct store_campaign_slot *x, struct err *e);
/* Record that run belongs to slot of campaign id (a second call is a no-op). */
int store_campaign_add_run(struct store *s, int64_t id, int slot, int64_t run, struct err *e);
/* The adaptive settings of campaign id into *a (free with store_adaptive_free): 1 when it is
 * adaptive, 0 when not (*a zeroed), -1 with e set. */
int store_adaptive_get(struct store *s, int64_t id, struct store_adaptive *a, struct err *e);
void store_adaptive_free(struct store_adaptive *a);
/* Record why adaptive campaign id stopped ("decided", "cap" or "budget"). */
int store_adaptive_set_stopped(struct store *s, int64_t id, const char *why, struct err *e);
/* Record look l of adaptive campaign id unless a look of its number is there already (a look
 * retaken after a crash is the same look): 1 when stored, 0 when it was there, -1 on error. */
int store_adaptive_look_put(struct store *s, int64_t id, const struct store_adaptive_look *l, struct err *e);
/* The looks of adaptive campaign id in order into *out, *n (free with store_adaptive_looks_free). */
int store_adaptive_looks(struct store *s, int64_t id, struct store_adaptive_look **out, size_t *n, struct err *e);
void store_adaptive_looks_free(struct store_adaptive_look *v, size_t n);

/* A bisection (sysab bisect new; issue 50): its series as a JSON array of configuration
 * strings (0-based good < bad index it), the boots per step (cap), --assume (0 none, 1 good, 2 bad), the campaign
 * settings every step's campaign takes (backend, run_args and options as JSON arrays of the
 * arguments given), the workloads judged (JSON array; empty: the run's), and its state
 * (new, running, stopped, found, ambiguous, stuck, nostep, failed) with a reason, and the
 * culprit check's outcome (checked: confirmed, unconfirmed, or NULL while not checked). */
struct store_bisect {
	int64_t id;
	char *name, *series, *backend, *run_args, *options, *workloads, *state, *reason, *checked;
	int good, bad, cap, assume;
	uint64_t created_ns;
};
/* One step: its number n (0, 1, ...), the midpoint and the ends it was judged against, its
 * campaign's name (NULL until made), and once ended its call and why (bisect_call_word,
 * bisect_why_word; NULL while open), boots, looks, whether --assume moved it and the side its
 * evidence favoured (favoured: "good" or "bad", NULL when not undecided). */
struct store_bisect_step {
	int n, mid, good, bad;
	char *campaign, *call, *why, *favoured;
	int boots, looks, assumed;
};
/* Store bisection b and set b->id; a taken name is an error naming it, nothing stored. */
int store_bisect_create(struct store *s, struct store_bisect *b, struct err *e);
/* Load bisection name into *b (free with store_bisect_free); an unknown name is an error naming it. */
int store_bisect_get(struct store *s, const char *name, struct store_bisect *b, struct err *e);
void store_bisect_free(struct store_bisect *b);
/* Set bisection id's state and reason (NULL: none). */
int store_bisect_set_state(struct store *s, int64_t id, const char *state, const char *reason, struct err *e);
/* Set bisection id's culprit check outcome ("confirmed", "unconfirmed", or NULL: not checked). */
int store_bisect_set_checked(struct store *s, int64_t id, const char *checked, struct err *e);
/* The name of the bisection whose step or check campaign is campaign (new string into *name):
 * 1, 0 when campaign belongs to none (*name NULL), -1 with e set. */
int store_bisect_of_campaign(struct store *s, const char *campaign, char **name, struct err *e);
/* Write step x of bisection id (insert or replace by its number); x->campaign names a stored campaign or is NULL. */
int store_bisect_step_put(struct store *s, int64_t id, const struct store_bisect_step *x, struct err *e);
/* The steps of bisection id in order into *out, *n (free with store_bisect_steps_free). */
int store_bisect_steps(struct store *s, int64_t id, struct store_bisect_step **out, size_t *n, struct err *e);
void store_bisect_steps_free(struct store_bisect_step *v, size_t n);
/* End campaign id after its first blocks blocks: the slots of later blocks are removed and its
 * boots become blocks (blocks >= 1). */
int store_campaign_end_after_block(struct store *s, int64_t id, int blocks, struct err *e);
/* The runs of a campaign: slot and run uuid, in run order. Free with store_campaign_runs_free. */
struct store_campaign_run {
	int slot;
	char *run_uuid;
};
int store_campaign_runs(struct store *s, int64_t id, struct store_campaign_run **out, size_t *n, struct err *e);
void store_campaign_runs_free(struct store_campaign_run *v, size_t n);
/* How many distinct NUMA nodes the runs of campaign name were bound to (`sysab run --nodes`:
 * the node of struct store_run_info, decoded as store_runs_list decodes it) into *n; 0 when
 * none of its runs is per node (or it has none, or there is no such campaign). Returns 0, or
 * -1 with e set. */
int store_campaign_nodes(struct store *s, const char *name, size_t *n, struct err *e);

/* --- looks at a question (docs/METHOD.md, "Repeated looks") --- */

/* One look that compare or analyze took: the question (key, and its number: --fresh starts
 * the next), the look's number within it, when, a fingerprint of the runs it judged, the
 * declared sequential design's maximum boots (0: undeclared), whether its verdicts were
 * withheld as a later undeclared look, its design ({"boots":[..],"runs":[..]} per group or
 * cell) and verdicts ({"ROW": "VERDICT"}) as JSON text. */
struct store_look {
	int64_t id;
	char *key;
	int question, k;
	uint64_t at_ns;
	char *fingerprint;
	int max_boots;
	bool withheld;
	char *design, *verdicts;
};
/* The looks recorded for key, oldest first (free with store_looks_free). */
int store_looks_get(struct store *s, const char *key, struct store_look **out, size_t *n, struct err *e);
/* The run ids that the looks of key at questions below `below` judged, sorted ascending, as a
 * new array (*n of them). */
int store_looks_seen(struct store *s, const char *key, int below, int64_t **ids, size_t *n, struct err *e);
/* Record look x with the ids of the runs it judged; a look of the same key, question and
 * fingerprint is kept as it was (idempotent), except that a withheld one becomes x when x is
 * not withheld (the same look, declared as the question's design asks). Returns 0 or -1. */
int store_look_add(struct store *s, const struct store_look *x, const int64_t *ids, size_t nids, struct err *e);
void store_looks_free(struct store_look *x, size_t n);

#endif
