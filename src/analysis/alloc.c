/* alloc.c - run --allocate: samples per index workload from earlier runs, and the allocation record. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- allocation */

/* The run level of ln(sysab-index) from FROM's whole runs, summed over the copies counts of
 * rows: per count, the variance of the runs' ln index less its within-run part
 * sum w_i^2 tau2_i / nbar_i (nbar_i: member i's mean samples per run there), truncated at 0.
 * Run effects shared between members count, as they do in the index. NAN when a count's
 * members in rows are not FROM's composite, or fewer than 2 runs hold it. */
static double index_run_level(const struct store_set *set, const struct an_alloc_row *rows, size_t n,
			      const double *nbar)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(rows[i].weight > 0))
			continue;
		bool first = true;
		for (size_t k = 0; k < i && first; k++)
			first = !(rows[k].weight > 0 && rows[k].copies == rows[i].copies);
		if (!first)
			continue;
		struct an_composite c[2];
		size_t nc = an_composites(set, 1, rows[i].copies, c), ci = nc;
		for (size_t k = 0; k < nc; k++)
			if (!strcmp(c[k].name, AN_SYSAB_INDEX))
				ci = k;
		size_t m = 0;
		double within = 0;
		for (size_t k = 0; k < n; k++)
			if (rows[k].weight > 0 && rows[k].copies == rows[i].copies) {
				bool in = false;
				for (size_t j = 0; ci < nc && j < c[ci].n; j++)
					in |= !strcmp(c[ci].workload[j], rows[k].workload);
				if (!in || !(rows[k].tau2 >= 0) || !(nbar[k] > 0))
					return NAN;
				within += rows[k].weight * rows[k].weight * rows[k].tau2 / nbar[k];
				m++;
			}
		if (ci == nc || m != c[ci].n)
			return NAN;
		struct an_composite_run *v;
		size_t nr = an_composite_runs(set, &c[ci], &v);
		double *y = xcalloc(nr, sizeof *y);
		for (size_t k = 0; k < nr; k++)
			y[k] = v[k].y;
		double var = stats_mean_var(y, nr, NULL);
		free(y);
		free(v);
		if (!(var >= 0))
			return NAN;
		sum += var > within ? var - within : 0;
	}
	return sum;
}

/* A variance of a log as a relative sd in percent (NAN stays NAN). */
static double sd_pct(double v)
{
	return sqrt(v) * 100;
}

int an_allocate(const struct store_set *set, const struct store_run_info *const *runs, size_t nruns,
		struct an_alloc_row *rows, size_t n, const struct st_alloc_opts *o, struct an_alloc *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->ao = *o;
	struct st_alloc_item *it = xcalloc(n, sizeof *it);
	size_t *cnt = xcalloc(n, sizeof *cnt);
	double *nbar = xcalloc(n, sizeof *nbar);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct an_alloc_row *r = &rows[i];
		const struct workload *w = wl_find(r->workload);
		size_t m = 0; /* index members at these copies */
		for (size_t k = 0; k < n; k++) {
			const struct workload *x = wl_find(rows[k].workload);
			m += rows[k].copies == r->copies && x && (x->flags & WL_INDEX) && x->baseline > 0;
		}
		r->weight = w && (w->flags & WL_INDEX) && w->baseline > 0 ? 1.0 / (double)m : 0;
		r->tau2 = r->cost = r->var_run = NAN;
		r->history = 0;
		const struct store_series *x = store_set_find(set, r->workload, r->copies);
		struct gdata gd;
		an_gdata_series(x, &gd);
		if (gd.have) {
			struct st_estimate est;
			if (stats_estimate_groups(&gd.g, 1, &est, e)) {
				err_prefix(e, "%s", r->workload);
				rc = -1;
			} else {
				r->history = gd.nruns;
				r->tau2 = est.own.var_within;
				r->var_run = est.own.have & ST_BIT(ST_LEVEL_RUN) ? est.own.var_run : NAN;
				double c = an_series_sample_cost(x);
				r->cost = c > 0 ? c : NAN;
				size_t ns = 0;
				for (size_t k = 0; k < gd.nruns; k++)
					ns += gd.runs[k].n;
				nbar[i] = (double)ns / (double)gd.nruns;
				/* below 3/4: more than the warm-up detector ever drops (a quarter) */
				r->cut_short = 4 * (double)ns < 3 * (double)o->n0 * (double)gd.nruns;
				if (r->cut_short)
					r->cost = NAN; /* keeps its default count */
			}
		}
		an_gdata_free(&gd);
		it[i] = (struct st_alloc_item){.w = r->weight, .tau2 = r->tau2, .cost = r->cost, .var_run = r->var_run};
	}
	if (!rc)
		rc = stats_allocate(it, n, o, cnt, &out->a, e);
	if (!rc) {
		for (size_t i = 0; i < n; i++) {
			rows[i].allocated = rows[i].weight > 0 && isfinite(it[i].tau2) && it[i].tau2 >= 0 &&
					    isfinite(it[i].cost) && it[i].cost > 0;
			rows[i].samples = (int)cnt[i];
		}
		out->run_cost = an_run_overhead(set, 1, runs, nruns) * (double)n;
		out->var_run_index = index_run_level(set, rows, n, nbar);
		int pr = stats_allocate_runs(it, n, o, out->var_run_index, out->run_cost, AN_ALLOC_MAX_RUNS,
					     &out->runs, e);
		if (pr < 0)
			rc = -1;
		out->runs_planned = pr == 0;
		for (size_t i = 0; i < n; i++)
			rows[i].sd_sample_pct = sd_pct(rows[i].tau2);
		out->sd_default_pct = sd_pct(out->a.var_default);
		out->sd_alloc_pct = sd_pct(out->a.var_alloc);
		out->var_change_pct = out->a.var_default > 0 ? (out->a.var_alloc / out->a.var_default - 1) * 100 : 0;
		out->sd_run_pct = sd_pct(out->runs.var_one - out->a.var_alloc);
		out->sd_one_pct = sd_pct(out->runs.var_one);
		out->sd_best_pct = sd_pct(out->runs.var_best);
	}
	free(it);
	free(cnt);
	free(nbar);
	return rc;
}

static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

char *an_alloc_record_json(const struct an_alloc_record *rec)
{
	const char *from = rec->from;
	const int64_t *ids = rec->ids;
	size_t nids = rec->nids, n = rec->n;
	const struct an_alloc_row *rows = rec->rows;
	const struct an_alloc *al = rec->al;
	json_t *o = json_object();
	json_object_set_new(o, "from", json_string(from));
	json_t *r = json_array();
	for (size_t i = 0; i < nids; i++)
		json_array_append_new(r, json_integer(ids[i]));
	json_object_set_new(o, "from_runs", r);
	json_object_set_new(o, "default", json_integer((json_int_t)al->ao.n0));
	json_object_set_new(o, "floor", json_integer((json_int_t)al->ao.floor));
	json_object_set_new(o, "cap", json_integer((json_int_t)al->ao.cap));
	json_object_set_new(o, "budget_s", json_real(al->a.budget_s));
	json_object_set_new(o, "time_s", json_real(al->a.time_s));
	json_object_set_new(o, "var_default", json_real(al->a.var_default));
	json_object_set_new(o, "var_alloc", json_real(al->a.var_alloc));
	json_object_set_new(o, "var_run", real_or_null(al->a.var_run));
	json_object_set_new(o, "var_run_index", real_or_null(al->var_run_index));
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		if (!rows[i].allocated)
			continue;
		json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:f, s:o, s:o, s:I}", "workload", rows[i].workload,
						   "copies", rows[i].copies, "samples", rows[i].samples, "weight",
						   rows[i].weight, "tau2", real_or_null(rows[i].tau2), "cost_s",
						   real_or_null(rows[i].cost), "history", (json_int_t)rows[i].history));
	}
	json_object_set_new(o, "allocated", a);
	if (al->runs_planned)
		json_object_set_new(o, "more_runs",
				    json_pack("{s:I, s:I, s:f, s:f, s:b}", "runs", (json_int_t)al->runs.runs, "samples",
					      (json_int_t)al->runs.n0, "var_one", al->runs.var_one, "var_best",
					      al->runs.var_best, "run_dominates", al->runs.run_dominates));
	char *s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	return s;
}
