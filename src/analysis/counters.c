/* counters.c - per-op counter figures (median, spread) from the stored counts. */
#include "counters.h"
#include "stats/stats.h"
#include "store/counters.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int ctr_rows_load(struct store *st, const int64_t *ids, size_t nids, struct ctr_row **rows, size_t *n,
		  struct err *e)
{
	struct store_counter_series *cs;
	size_t nc;
	*rows = NULL;
	*n = 0;
	if (store_counters_load(st, ids, nids, &cs, &nc, e))
		return -1;
	*rows = xcalloc(nc, sizeof **rows);
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
		r->cv = s.cv;
		r->mean = s.mean;
		r->sd = sqrt(stats_mean_var(cs[i].per_op, cs[i].n, NULL));
		r->absolute = s.median == 0 || !(s.mean > 0) || !(r->sd <= s.mean);
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

void ctr_noise_levels(const struct store_run_info *const *runs, size_t n, struct kvlist *out)
{
	for (size_t i = 0; i < n; i++) {
		const char *v = kv_get(&runs[i]->env, "noise.level");
		if (!v)
			continue;
		size_t k = 0;
		while (k < out->n && strcmp(out->v[k].key, v))
			k++;
		if (k == out->n) {
			kv_add(out, v, "1");
			continue;
		}
		char *c = xasprintf("%d", atoi(out->v[k].value) + 1);
		free(out->v[k].value);
		out->v[k].value = c;
	}
}
