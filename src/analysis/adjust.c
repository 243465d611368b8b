/* adjust.c - host-speed adjustment: the reference series, a row's estimates, diagnostics and points. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- host-speed adjustment */

/* The host reference (the WL_REFERENCE workload at one copy) of a loaded set, or NULL. */
static const struct store_series *host_ref_series(const struct store_set *set)
{
	for (size_t i = 0; i < wl_count(); i++)
		if (wl_at(i)->flags & WL_REFERENCE)
			return store_set_find(set, wl_at(i)->name, 1);
	return NULL;
}

/* Append to ref[*n..] the reference's mean ln(ops/s) in each run of d (NAN where the run has
 * none), in d's run order: the covariate stats_estimate_adjusted takes. */
static void host_ref_values(const struct store_set *set, const struct gdata *d, double *ref, size_t *n)
{
	const struct store_series *x = host_ref_series(set);
	for (size_t k = 0; k < d->nruns; k++) {
		double v = NAN;
		for (size_t b = 0; x && b < x->nboots && isnan(v); b++)
			for (size_t r = 0; r < x->boots[b].nruns; r++) {
				const struct store_series_run *sr = &x->boots[b].runs[r];
				if (sr->run != d->ids[k])
					continue;
				struct st_run_summary sum;
				struct st_run run = {.y = sr->y, .round = sr->round, .n = sr->n};
				if (sr->sum && an_run_summary_of(sr->sum, &sum))
					run.sum = &sum;
				struct st_runstat rs;
				stats_run_batches(&run, &rs);
				v = rs.mean;
				break;
			}
		ref[(*n)++] = v;
	}
}

/* Estimate groups g[0..ng-1] of row k, each from set[map[j]] with data gd[map[j]]: adjusted for
 * host speed when o asks and the row is not the reference itself. Returns as
 * stats_estimate_groups. */
int an_estimate_row(const struct store_set *sets, const struct gdata *gd, const size_t *map,
		    const struct st_group *g, size_t ng, const struct rowkey *k, const struct st_compare_opts *o,
		    struct st_estimate *est, struct st_adjust *adj, struct err *e)
{
	memset(adj, 0, sizeof *adj);
	if (!o->host_adjust || an_is_reference(k->workload))
		return stats_estimate_groups(g, ng, est, e);
	size_t nr = 0;
	for (size_t j = 0; j < ng; j++)
		nr += gd[map[j]].nruns;
	double *ref = xcalloc(nr, sizeof *ref);
	size_t n = 0;
	for (size_t j = 0; j < ng; j++)
		host_ref_values(&sets[map[j]], &gd[map[j]], ref, &n);
	int rc = stats_estimate_adjusted(g, ng, ref, est, adj, e);
	free(ref);
	return rc;
}

/* The warnings of the group's runs in order: a run loaded from its summary gives its stored
 * tally, any other its samples' warnings (the same fold, stats.h). Only the kinds the group
 * reports (stats_diag_raised: more runs flagged than the stated rate explains) are kept. */
void an_diag_group(const struct gdata *d, struct an_diag *out)
{
	memset(out, 0, sizeof *out);
	if (!d->have)
		return;
	struct st_diag_opts o = stats_diag_defaults();
	struct st_diag_tally t = {0};
	size_t nruns = 0, nsamples = 0;
	for (size_t b = 0; b < d->g.nboots; b++)
		for (size_t r = 0; r < d->g.boots[b].nruns; r++) {
			const struct st_run *run = &d->g.boots[b].runs[r];
			nruns++;
			nsamples += run->n;
			if (run->sum) {
				stats_diag_tally_merge(&t, &run->sum->diag);
				continue;
			}
			struct st_warnings w = {0};
			stats_diagnose_run(run, b, r, &o, &w);
			stats_diag_tally_add(&t, &w);
			stats_warnings_free(&w);
		}
	unsigned raised = stats_diag_raised(&t, nruns, nsamples);
	for (int k = 0; k < ST_NWARN; k++)
		if (!(raised & 1u << k)) {
			t.count[k] = 0;
			t.worst[k] = t.limit[k] = 0;
		}
	memcpy(out->count, t.count, sizeof out->count);
	memcpy(out->worst, t.worst, sizeof out->worst);
	memcpy(out->limit, t.limit, sizeof out->limit);
}

/* Strip-plot data of one group: per run the samples in ops/s and their geometric mean.
 * None when the group was loaded from summaries (only the page draws them, and the page
 * loads the samples). */
void an_points_of(const struct gdata *d, struct an_points *out)
{
	memset(out, 0, sizeof *out);
	out->min = out->max = NAN;
	if (!d->have || d->sums)
		return;
	size_t nr = 0, ns = 0;
	for (size_t b = 0; b < d->g.nboots; b++) {
		nr += d->g.boots[b].nruns;
		for (size_t r = 0; r < d->g.boots[b].nruns; r++)
			ns += d->g.boots[b].runs[r].n;
	}
	out->runs = xcalloc(nr, sizeof *out->runs);
	out->buf = xcalloc(ns, sizeof *out->buf);
	out->nboots = d->g.nboots;
	size_t k = 0;
	for (size_t b = 0; b < d->g.nboots; b++)
		for (size_t r = 0; r < d->g.boots[b].nruns; r++) {
			const struct st_run *sr = &d->g.boots[b].runs[r];
			struct an_run_pts *p = &out->runs[out->nruns++];
			double s = 0;
			p->boot = b;
			p->v = &out->buf[k];
			p->n = sr->n;
			for (size_t i = 0; i < sr->n; i++) {
				double v = exp(sr->y[i]);
				out->buf[k++] = v;
				s += sr->y[i];
				if (!(v >= out->min))
					out->min = v;
				if (!(v <= out->max))
					out->max = v;
			}
			p->mean = sr->n ? exp(s / (double)sr->n) : NAN;
		}
}

void an_points_free(struct an_points *p)
{
	if (!p)
		return;
	free(p->runs);
	free(p->buf);
	memset(p, 0, sizeof *p);
}
