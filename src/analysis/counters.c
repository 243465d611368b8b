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

void ctr_compare(const struct ctr_row *a, size_t na, const struct ctr_row *b, size_t nb, struct ctr_cmp **out,
		 size_t *n)
{
	*out = xcalloc(na ? na : 1, sizeof **out);
	*n = 0;
	for (size_t i = 0; i < na; i++)
		for (size_t k = 0; k < nb; k++) {
			if (a[i].copies != b[k].copies || strcmp(a[i].workload, b[k].workload) ||
			    strcmp(a[i].event, b[k].event))
				continue;
			struct ctr_cmp *c = &(*out)[(*n)++];
			c->a = &a[i];
			c->b = &b[k];
			c->change = a[i].mean > 0 ? b[k].mean / a[i].mean - 1 : NAN;
			c->lo = c->hi = NAN;
			if (a[i].mean > 0 && b[k].mean > 0 && !isnan(a[i].se) && !isnan(b[k].se)) {
				/* on the log scale: d = ln(mB/mA), SE² by the delta method, Welch df */
				double va = pow(a[i].se / a[i].mean, 2), vb = pow(b[k].se / b[k].mean, 2);
				double v[2] = {va, vb}, df[2] = {(double)a[i].n - 1, (double)b[k].n - 1};
				double d = log(b[k].mean / a[i].mean), se = sqrt(va + vb);
				double t = stats_t_quantile(0.975, va + vb > 0 ? stats_satterthwaite(v, df, 2) : 1e9);
				c->lo = exp(d - t * se) - 1;
				c->hi = exp(d + t * se) - 1;
			}
			break;
		}
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
