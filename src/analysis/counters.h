/* counters.h - per-op counter figures of runs, from the stored per-sample counts. */
#ifndef SYSAB_ANALYSIS_COUNTERS_H
#define SYSAB_ANALYSIS_COUNTERS_H

#include "store/store.h"

/* One event of one (workload, copies): its count per op over the steady samples. */
struct ctr_row {
	char *workload;
	int copies;
	char *event;
	size_t n;        /* samples */
	double median;   /* per op */
	double cv;       /* of the per-sample figures; NaN with fewer than 2 */
	double mean, sd; /* of the per-sample figures (sd NaN with fewer than 2) */
	bool absolute;   /* near 0 (median 0, or sd above the mean): a relative spread means nothing,
			  * so the spread is shown as ±sd in counts per op */
};
/* (A comparison's counters are rows of the comparison itself: an_compare_counters.) */

/* The per-op rows of the runs ids[0..nids) pooled, sorted by workload, copies, event.
 * *rows newly allocated (ctr_rows_free). Returns 0 or -1 with e set. */
int ctr_rows_load(struct store *st, const int64_t *ids, size_t nids, struct ctr_row **rows, size_t *n,
		  struct err *e);
void ctr_rows_free(struct ctr_row *rows, size_t n);

/* Count how many of runs[0..n) had each noise.level into out (key: the level, value: the
 * count as text), adding to the counts out already has; runs without a probe are not
 * counted. The caller frees out. */
void ctr_noise_levels(const struct store_run_info *const *runs, size_t n, struct kvlist *out);

#endif
