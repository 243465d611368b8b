/* counters_summary.c - per-op counter figures (median, spread) from the stored counts. */
#include "counters_summary.h"
#include "stats.h"
#include "store/counters.h"

#include <math.h>
#include <stdlib.h>

int ctr_rows_load(struct store *st, const int64_t *ids, size_t nids, struct ctr_row **rows, size_t *n,
		  struct err *e)
{
	struct store_counter_series *cs;
	size_t nc;
	*rows = NULL;
	*n = 0;
	if (store_counters_load(st, ids, nids, &cs, &nc, e))
		return -1;
	*rows = xcalloc(nc ? nc : 1, sizeof **rows);
	for (size_t i = 0; i < nc; i++) {
		struct st_summary s;
		stats_summary(cs[i].per_op, cs[i].n, &s);
		struct ctr_row *r = &(*rows)[(*n)++];
		r->workload = cs[i].workload;
		r->event = cs[i].event;
		cs[i].workload = cs[i].event = NULL;
		r->copies = cs[i].copies;
		r->n = cs[i].n;
		r->median = s.median;
		r->mean = s.mean;
		r->cv = s.cv;
		r->se = cs[i].n > 1 && !isnan(s.cv) ? fabs(s.cv * s.mean) / sqrt((double)cs[i].n) : NAN;
	}
	store_counters_free(cs, nc);
	return 0;
}

void ctr_rows_free(struct ctr_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].workload);
		free(rows[i].event);
	}
	free(rows);
}
