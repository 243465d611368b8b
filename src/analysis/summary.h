/* summary.h - what one run measured: per (workload, copies) median, spread and index. */
#ifndef SYSAB_SUMMARY_H
#define SYSAB_SUMMARY_H

#include "analysis/counters.h"
#include "store/store.h"

/* One self-check of a slot, decoded once from the store's JSON text (run/runner.c writes it):
 * the check's name, the measured value and its accepted range, and whether it passed. */
struct summary_check {
	char *name;
	double value, lo, hi;
	bool ok;
	char *why;      /* set when the check could not be made (a counter it needs was not
	                   counted): why; value, lo, hi and ok then mean nothing */
	int batches;    /* sampled batches (one per copy and sample) judged one by one (0: not
	                   judged so: a per-second check, a counter check, or a run stored
	                   before they were) */
	int failed_batches; /* of them, those outside [lo, hi] */
	double worst;   /* of those, the value farthest outside (when failed_batches > 0) */
};

struct summary_row {
	const struct store_slot_info *slot; /* points into summary.slots */
	size_t n;             /* measured samples, not counting warm-up ones */
	size_t warmup;        /* leading samples flagged as taken before a steady state */
	double halfwidth;     /* relative half-width of the run's 95% CI (batch means); INFINITY
	                         when too few samples or df < AN_MIN_INTERVAL_DF */
	double df;            /* the batch means' df (0 with fewer than two batches) */
	double median;        /* ops/s */
	double mean;          /* ops/s */
	double cv;            /* standard deviation / mean of the samples, 0 with < 2 samples */
	double min, max;
	struct summary_check *checks; /* the slot's self-checks, in order */
	size_t nchecks;
};

/* A composite index of the run (analysis/composite.h), present only when the run holds all its members. */
struct summary_index {
	const char *name;     /* "sysab-index", "unixbench-index" or "unixbench-index-partial" */
	int copies;
	int n;                /* its members, all present */
	double value;         /* the composite value */
	char *about;          /* its members and scale in words */
};

/* A composite the run does not have at a copies count although it ran its members: the
 * members it ran that gave no samples (unsupported, failed), so no index is computed. */
struct summary_noindex {
	const char *name; /* "sysab-index" */
	int copies;
	char *why;        /* e.g. "unixbench.execl unsupported: helper not found at ..." */
};

struct summary {
	struct store_run_info run;
	struct store_slot_info *slots;
	size_t nslots;
	struct summary_row *rows; /* one per slot, same order */
	struct summary_index *index;
	size_t nindex;
	struct summary_noindex *noindex;
	size_t nnoindex;
	struct ctr_row *counters; /* per-op counter figures of the run, by workload, copies, event */
	size_t ncounters;
};

/* A (workload, copies) of a run that failed a self-check: its row and its first failed check
 * (both point into the summary). */
struct summary_failed {
	const struct summary_row *row;
	const struct summary_check *check;
};

/* How a run's (workload, copies) went, for the lines `sysab run` ends with: ok (every
 * self-check held), unsupported here, failed a self-check (failed: "workload (check)" each,
 * fails: the same as records), or other (error, no resource, stopped: unfinished, their rows). */
struct summary_tally {
	size_t ok, unsupported, failed_checks, other;
	struct strv failed; /* "kernel.fault.anon/2 (minor faults per op)", in slot order */
	struct summary_failed *fails; /* failed_checks of them, in slot order */
	const struct summary_row **unfinished; /* other of them, in slot order */
};
/* Tally s into t, which points into s. Free with summary_tally_free. */
void summary_tally_of(const struct summary *s, struct summary_tally *t);
void summary_tally_free(struct summary_tally *t);

/* Whether the machine a run measured could be used for measurement then, judged from the
 * run's environment: emulated (qemu-user, TCG: the times mean nothing), noisy (the noise
 * probe's floor moderate or high, CPU steal, or a load average before the run at or above the
 * CPU count), quiet (none of these), or unjudged (no noise probe: --no-probe, an import). */
enum summary_machine_verdict {
	SUMMARY_MACHINE_QUIET,
	SUMMARY_MACHINE_NOISY,
	SUMMARY_MACHINE_EMULATED,
	SUMMARY_MACHINE_UNJUDGED,
};
struct summary_machine {
	enum summary_machine_verdict verdict;
	char *why; /* the evidence in words, e.g. "noise floor high (probe CV 6.2%); load 6.0 on 2 CPUs" */
};
/* The verdict's word: "quiet", "noisy", "emulated", "unjudged". */
const char *summary_machine_word(enum summary_machine_verdict v);

/* What `sysab run` prints of a run it stored: the tally and the machine's verdict; the index
 * and the rest are in the summary it was made from. Free with summary_brief_free. */
struct summary_brief {
	const struct summary *s;
	struct summary_tally tally;
	struct summary_machine machine;
};
void summary_brief_of(const struct summary *s, struct summary_brief *b);
void summary_brief_free(struct summary_brief *b);

/* Summarise run `id` from the store. On error -1 with e set. Free with summary_free. */
int summary_load(struct store *st, int64_t id, struct summary *out, struct err *e);
void summary_free(struct summary *s);

#endif
