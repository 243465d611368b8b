/* counters.h - storing and loading the per-sample event counts (table sample_counter). */
#ifndef SYSAB_STORE_COUNTERS_H
#define SYSAB_STORE_COUNTERS_H

#include "store/store.h"

/* Store n counts of the sample (run, workload, copies, seq), which must exist. Returns 0
 * or -1 with e set. */
int store_counters_add(struct store *s, int64_t run_id, const char *workload, int copies, int seq,
		       const char *const *names, const uint64_t *values, size_t n, struct err *e);

/* One event of one (workload, copies) in a run: count per op of each steady sample. */
struct store_counter_series {
	char *workload;
	int copies;
	char *event;
	double *per_op;
	size_t n;
};

/* The counter series of the runs ids[0..nids), steady samples only (not warm-up), sorted
 * by workload, copies, event; samples of several runs pooled. *out is newly allocated
 * (free with store_counters_free). Returns 0 or -1 with e set. */
int store_counters_load(struct store *s, const int64_t *ids, size_t nids, struct store_counter_series **out,
			size_t *n, struct err *e);
void store_counters_free(struct store_counter_series *v, size_t n);

/* Every stored count of one run, as recorded: (workload, copies, seq) of its sample, the
 * event and the count; ordered. Free with store_counters_raw_free. Returns 0 or -1 with e set. */
struct store_counter_raw {
	char *workload;
	int copies, seq;
	char *event;
	uint64_t value;
};
int store_counters_get(struct store *s, int64_t run_id, struct store_counter_raw **out, size_t *n, struct err *e);
void store_counters_raw_free(struct store_counter_raw *v, size_t n);

#endif
