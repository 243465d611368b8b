/* counter_rows.c - counter rows of a comparison: per-op counts compared next to the workload rows. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- counter rows */

/* True when every sample of the series is 0. */
static bool series_all_zero(const struct store_series *x)
{
	for (size_t b = 0; b < x->nboots; b++)
		for (size_t r = 0; r < x->boots[b].nruns; r++)
			for (size_t i = 0; i < x->boots[b].runs[r].n; i++)
				if (x->boots[b].runs[r].y[i] != 0)
					return false;
	return true;
}

/* The value every sample of both series has, or NAN when they differ. */
static double series_constant(const struct store_series *x, const struct store_series *y)
{
	double v = NAN;
	const struct store_series *xy[2] = {x, y};
	for (int k = 0; k < 2; k++)
		for (size_t b = 0; b < xy[k]->nboots; b++)
			for (size_t r = 0; r < xy[k]->boots[b].nruns; r++)
				for (size_t i = 0; i < xy[k]->boots[b].runs[r].n; i++) {
					double s = xy[k]->boots[b].runs[r].y[i];
					if (isnan(v))
						v = s;
					else if (s != v)
						return NAN;
				}
	return v;
}

/* Is (workload, copies) one of c's timing rows (so -w filters counter rows too)? */
static bool has_row(const struct an_compare *c, const char *workload, int copies)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].copies == copies && !strcmp(c->rows[i].workload, workload))
			return true;
	return false;
}

static const struct store_series *counter_find(const struct store_set *set, const struct store_series *x)
{
	for (size_t i = 0; i < set->nseries; i++)
		if (set->series[i].copies == x->copies && !strcmp(set->series[i].workload, x->workload) &&
		    !strcmp(set->series[i].event, x->event))
			return &set->series[i];
	return NULL;
}

int an_compare_counters(const struct store_set *a, const struct store_set *b, struct an_compare *out, struct err *e)
{
	/* Counters explain, they do not gate: no equivalence margin (never "equivalent" or
	 * "negligible"); alpha, --unit and the sequential look as for the timing rows. */
	struct st_compare_opts o = out->o;
	o.margin = 0;
	out->crows = xcalloc(a->nseries, sizeof *out->crows);
	out->ncrows = 0;
	struct st_comparison *cs = xcalloc(a->nseries, sizeof *cs);
	int rc = 0;
	for (size_t i = 0; i < a->nseries && !rc; i++) {
		const struct store_series *xa = &a->series[i], *xb = counter_find(b, xa);
		if (!xb || !has_row(out, xa->workload, xa->copies) || (series_all_zero(xa) && series_all_zero(xb)))
			continue;
		struct gdata ga, gb;
		an_gdata_series(xa, &ga);
		an_gdata_series(xb, &gb);
		struct st_group g[2] = {ga.g, gb.g};
		struct st_estimate est[2];
		if (stats_estimate_groups_scale(g, 2, true, est, e)) {
			err_prefix(e, "%s, %s per op", xa->workload, xa->event);
			rc = -1;
		} else {
			struct an_row *r = &out->crows[out->ncrows];
			memset(r, 0, sizeof *r);
			r->workload = xstrdup(xa->workload);
			r->event = xstrdup(xa->event);
			r->copies = xa->copies;
			r->unit = xstrdup("op");
			r->have_a = r->have_b = true;
			r->constant = series_constant(xa, xb);
			r->a = est[0];
			r->b = est[1];
			stats_compare(&r->a, &r->b, &o, &r->c);
			cs[out->ncrows++] = r->c;
		}
		an_gdata_free(&ga);
		an_gdata_free(&gb);
	}
	if (rc) {
		an_rows_free(out->crows, out->ncrows);
		out->crows = NULL;
		out->ncrows = 0;
		free(cs);
		return -1;
	}
	stats_compare_adjust(cs, out->ncrows); /* their own family: the timing rows' q stay as they are */
	for (size_t i = 0; i < out->ncrows; i++) {
		struct an_row *r = &out->crows[i];
		r->c = cs[i];
		an_value_on(&r->a, o.alpha, true, &r->va);
		an_value_on(&r->b, o.alpha, true, &r->vb);
		/* B - A per op and its interval at the level the comparison used */
		bool within = an_interval_within(&r->c);
		r->chg = (struct an_change){r->c.d, within ? NAN : r->c.lo, within ? NAN : r->c.hi, false, within};
		r->rel = r->a.mean > 0 ? r->b.mean / r->a.mean - 1 : NAN;
	}
	free(cs);
	return 0;
}
