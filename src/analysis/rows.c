/* rows.c - rows over sample sets, stored run summaries and one group's data for one row. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registry's rule, for row names that need not be registered (imports, "index"). */
static bool name_matches(const char *name, const char *pattern)
{
	return wl_matches(&(const struct workload){.name = name}, pattern);
}

/* A group's value and interval: on the log scale (y = ln ops/s, linear false: ops/s and the
 * relative half-width) or as it is (counts per op: the mean and the absolute half-width). */
void an_value_on(const struct st_estimate *est, double alpha, bool linear, struct an_value *out)
{
	out->ops = out->lo = out->hi = out->hw = out->df = NAN;
	out->low_df = false;
	if (!est || !est->nsamples)
		return;
	out->ops = linear ? est->mean : exp(est->mean);
	if (!est->has_interval || !(est->se >= 0))
		return;
	out->df = est->df;
	if (est->df < AN_MIN_INTERVAL_DF) {
		out->low_df = true;
		return;
	}
	double h = stats_t_quantile(1 - alpha / 2, est->df) * est->se;
	out->lo = linear ? est->mean - h : exp(est->mean - h);
	out->hi = linear ? est->mean + h : exp(est->mean + h);
	out->hw = linear ? h : exp(h) - 1;
}

void an_value_of(const struct st_estimate *est, double alpha, struct an_value *out)
{
	an_value_on(est, alpha, false, out);
}

void an_change_log(double d, double lo, double hi, int latency, struct an_change *out)
{
	/* time per op is 1 / throughput: its log difference is -d, and the interval turns over */
	double s = latency ? -1 : 1;
	double a = latency ? hi : lo, b = latency ? lo : hi;
	*out = (struct an_change){100 * expm1(s * d), 100 * expm1(s * a), 100 * expm1(s * b), latency != 0, false};
}

bool an_interval_within(const struct st_comparison *c)
{
	enum st_scope s = stats_interval_scope(c);
	return s == ST_SCOPE_WITHIN_BOOT || s == ST_SCOPE_WITHIN_RUN;
}

void an_change_of(const struct st_comparison *c, int latency, struct an_change *out)
{
	bool within = an_interval_within(c);
	an_change_log(c->d, within ? NAN : c->lo, within ? NAN : c->hi, latency, out);
	out->within = within;
}

/* ---------------------------------------------------------------- rows */


static int key_cmp(const void *pa, const void *pb)
{
	const struct rowkey *a = pa, *b = pb;
	int c = strcmp(a->workload, b->workload);
	if (c)
		return c;
	return a->copies < b->copies ? -1 : a->copies > b->copies;
}

void an_keys_free(struct rowkey *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i].comp);
	free(k);
}

/* Is workload the host reference (WL_REFERENCE)? */
bool an_is_reference(const char *workload)
{
	const struct workload *w = wl_find(workload);
	return w && (w->flags & WL_REFERENCE);
}

/* The rows over sets[0..ns-1]: every (workload, copies) any set has, then the composites;
 * filtered by patterns, each of which must match some row. */
/* Long by design: collect, sort and filter the rows, then add the composites, in one pass each. */
int an_make_rows(const struct store_set *sets, size_t ns, const struct strv *patterns, struct rowkey **out,
		 size_t *nout, struct err *e)
{
	struct rowkey *k = NULL;
	size_t n = 0, cap = 0;
	for (size_t s = 0; s < ns; s++)
		for (size_t i = 0; i < sets[s].nseries; i++) {
			const struct store_series *x = &sets[s].series[i];
			bool named = false; /* the host reference is a row only when a pattern names it */
			for (size_t p = 0; p < patterns->n && !named; p++)
				named = !strcmp(patterns->v[p], x->workload);
			if (an_is_reference(x->workload) && !named)
				continue;
			k = xgrow(k, &cap, n + 1, sizeof *k);
			k[n++] = (struct rowkey){x->workload, x->copies, x->unit, x->latency, NULL, 0};
		}
	if (n)
		qsort(k, n, sizeof *k, key_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || key_cmp(&k[m - 1], &k[i]))
			k[m++] = k[i];
	n = m;
	/* composites (composite.c): a fixed member set per copies count, present in every run */
	size_t nplain = n;
	for (size_t i = 0; i < nplain; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = k[j].copies == k[i].copies;
		if (seen)
			continue;
		struct an_composite c[2];
		size_t nc = an_composites(sets, ns, k[i].copies, c);
		for (size_t j = 0; j < nc; j++) {
			struct an_composite *own = xcalloc(1, sizeof *own);
			*own = c[j];
			k = xgrow(k, &cap, n + 1, sizeof *k);
			k[n++] = (struct rowkey){own->name, own->copies, "index", 0, own, own->n};
		}
	}
	/* filter */
	for (size_t p = 0; p < patterns->n; p++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = name_matches(k[i].workload, patterns->v[p]);
		if (!any) {
			struct sb names = {0};
			for (size_t i = 0; i < n && i < 12; i++)
				sb_addf(&names, "%s%s", i ? ", " : "", k[i].workload);
			errf(e, "-w %s: no workload of the selected runs matches; they hold %s%s", patterns->v[p],
			     n ? sb_str(&names) : "no samples", n > 12 ? ", ..." : "");
			sb_free(&names);
			an_keys_free(k, n);
			return -1;
		}
	}
	if (patterns->n) {
		m = 0;
		for (size_t i = 0; i < n; i++) {
			bool take = false;
			for (size_t p = 0; p < patterns->n && !take; p++)
				take = name_matches(k[i].workload, patterns->v[p]);
			if (take)
				k[m++] = k[i];
			else
				free(k[i].comp);
		}
		n = m;
	}
	*out = k;
	*nout = n;
	return 0;
}

/* ---------------------------------------------------------------- stored summaries */

bool an_run_summary_of(const struct store_run_sum *x, struct st_run_summary *out)
{
	memset(out, 0, sizeof *out);
	out->b = (struct st_runstat){
		.n = (size_t)x->n, .mean = x->mean_y, .nbatches = (size_t)x->nbatches,
		.batch_size = (size_t)x->batch_size, .tau2 = x->tau2, .var_mean = x->var_mean,
		.df = x->df, .r1 = x->r1, .autocorr = x->autocorr != 0,
	};
	out->halfwidth = out->median_y = out->mad_y = NAN;
	stats_summary(NULL, 0, &out->v);
	int k = 9;
	bool ok = strlen(x->round_map) == ST_ROUND_MAP_LEN && stats_round_map_apply(x->round_map, &k);
	/* ok: exactly ST_ROUND_MAP_LEN bytes (a copy per row and look: no snprintf) */
	memcpy(out->round_map, x->round_map, ok ? ST_ROUND_MAP_LEN : 0);
	out->round_map[ok ? ST_ROUND_MAP_LEN : 0] = 0;
	return stats_diag_tally_parse(x->diag, &out->diag) && ok;
}

bool an_sums_ok(const struct store_sums *all)
{
	struct st_run_summary s;
	for (size_t i = 0; i < all->n; i++)
		if (!an_run_summary_of(&all->v[i], &s))
			return false;
	return true;
}

/* ---------------------------------------------------------------- group data */


void an_gdata_free(struct gdata *d)
{
	free(d->boots);
	free(d->runs);
	free(d->sums);
	free(d->y);
	free(d->bid);
	free(d->ids);
	memset(d, 0, sizeof *d);
}

void an_gdata_series(const struct store_series *x, struct gdata *d)
{
	memset(d, 0, sizeof *d);
	if (!x || !x->nboots)
		return;
	size_t nr = 0;
	for (size_t b = 0; b < x->nboots; b++)
		nr += x->boots[b].nruns;
	d->boots = xcalloc(x->nboots, sizeof *d->boots);
	d->runs = xcalloc(nr, sizeof *d->runs);
	d->bid = xcalloc(x->nboots, sizeof *d->bid);
	d->ids = xcalloc(nr, sizeof *d->ids);
	d->nruns = nr;
	size_t k = 0;
	for (size_t b = 0; b < x->nboots; b++) {
		d->bid[b] = x->boots[b].boot;
		d->boots[b].runs = &d->runs[k];
		d->boots[b].nruns = x->boots[b].nruns;
		for (size_t r = 0; r < x->boots[b].nruns; r++) {
			const struct store_series_run *sr = &x->boots[b].runs[r];
			d->ids[k] = sr->run;
			d->runs[k] = (struct st_run){.y = sr->y, .round = sr->round, .n = sr->n, .sum = NULL};
			if (sr->sum) {
				if (!d->sums)
					d->sums = xcalloc(nr, sizeof *d->sums);
				an_run_summary_of(sr->sum, &d->sums[k]);
				d->runs[k].sum = &d->sums[k];
			}
			k++;
		}
	}
	d->g = (struct st_group){.boots = d->boots, .nboots = x->nboots};
	d->have = true;
}

/* A composite row: per run the log of its composite value (an_composite_runs). */
static void gdata_composite(const struct store_set *set, const struct rowkey *k, struct gdata *d)
{
	memset(d, 0, sizeof *d);
	struct an_composite_run *v;
	size_t n = an_composite_runs(set, k->comp, &v);
	d->y = xcalloc(n, sizeof *d->y);
	d->runs = xcalloc(n, sizeof *d->runs);
	d->boots = xcalloc(n, sizeof *d->boots);
	d->bid = xcalloc(n, sizeof *d->bid);
	d->ids = xcalloc(n, sizeof *d->ids);
	d->nruns = n;
	size_t nb = 0;
	for (size_t i = 0; i < n; i++) {
		d->y[i] = v[i].y;
		d->ids[i] = v[i].run;
		d->runs[i] = (struct st_run){.y = &d->y[i], .round = NULL, .n = 1, .sum = NULL};
		if (!nb || v[i].boot != v[i - 1].boot) {
			d->bid[nb] = v[i].boot;
			d->boots[nb].runs = &d->runs[i];
			d->boots[nb++].nruns = 0;
		}
		d->boots[nb - 1].nruns++;
	}
	free(v);
	d->g = (struct st_group){.boots = d->boots, .nboots = nb};
	d->have = nb > 0;
}

void an_gdata_row(const struct store_set *set, const struct rowkey *k, struct gdata *d)
{
	if (k->ncomp)
		gdata_composite(set, k, d);
	else
		an_gdata_series(store_set_find(set, k->workload, k->copies), d);
}
