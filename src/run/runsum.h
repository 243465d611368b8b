/* runsum.h - writing and checking the stored per-run summaries (store run_summary). */
#ifndef SYSAB_RUNSUM_H
#define SYSAB_RUNSUM_H

#include "core/core.h"
#include "stats/stats.h"
#include "store/store.h"

/* Summarise the measured samples of every (workload, copies) of run as analysis loads them
 * from the store (warm-up left out, rounds kept), and store them as the run's summaries
 * stamped ST_SUMMARY_METHOD, read and written in one transaction. Put the samples and mark
 * the warm-up ones first. Returns 0 or -1 with e set (nothing written). */
int runsum_put(struct store *st, int64_t run, struct err *e);

/* Compute the summaries of every finished run with id >= min_run that has measured samples
 * and no current (this method's) summary row, from the raw samples: after an import or a
 * merge, after a run. With all, recompute every finished run's summaries (deleting the row
 * of a run without measured samples) and record the method as current (check-db --fix). *nruns = runs refreshed. Each batch of runs is one
 * transaction. Returns 0 or -1 with e set. */
int runsum_refresh(struct store *st, bool all, int64_t min_run, size_t *nruns, struct err *e);

/* Bring every finished run's summaries up to date (runsum_refresh without all): after the
 * migration that added the table, after the method changed, after a merge, after a change
 * behind sysab's back that the schema's triggers answered by deleting a run's row. Then
 * record ST_SUMMARY_METHOD as current (summary_meta). When nothing is stale, one query
 * over the runs. For writing commands; returns 0 or -1 with e set. */
int runsum_ensure(struct store *st, struct err *e);

/* What runsum_check found. */
struct runsum_check {
	size_t runs;      /* runs looked at */
	size_t checked;   /* summaries recomputed and compared */
	size_t missing;   /* (run, workload, copies) with samples and no summary */
	size_t stale;     /* summaries stamped with another method */
	size_t differ;    /* current summaries that do not match their samples */
	size_t unreadable; /* rows that are not a run summary blob */
	int64_t orphans;  /* summaries without measured samples: a slot's, or a whole run's */
	int64_t warmup;   /* summaries whose warm-up count disagrees with the samples */
	char first[256];  /* the first problem, for the message; "" when none */
};
/* Recompute every summary from the raw samples and compare it, field by field and
 * exactly, with the stored one. Returns 0 (out filled; problems are counts, not errors)
 * or -1 with e set on a database error. */
int runsum_check(struct store *st, struct runsum_check *out, struct err *e);

#endif
