/* mde.c - the MDE of a design per workload: components of a pilot's, the database's or the default runs. */
#include "analysis/mde.h"
#include "analysis/analysis.h"
#include "analysis/select.h"
#include "workloads/workload.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *an_mde_source_word(enum an_mde_source s)
{
	static const char *const words[] = {[AN_MDE_PILOT] = "pilot", [AN_MDE_HISTORY] = "history",
					    [AN_MDE_ROUGH] = "rough"};
	return s <= AN_MDE_ROUGH ? words[s] : "?";
}

/* The estimate of series x as one group (as plan estimates one configuration): 0, or -1. */
static int estimate_series(const struct store_series *x, struct st_estimate *est, struct err *e)
{
	size_t nr = 0;
	for (size_t b = 0; b < x->nboots; b++)
		nr += x->boots[b].nruns;
	struct st_boot *boots = xcalloc(x->nboots, sizeof *boots);
	struct st_run *runs = xcalloc(nr, sizeof *runs);
	struct st_run_summary *sums = xcalloc(nr, sizeof *sums);
	size_t k = 0;
	for (size_t b = 0; b < x->nboots; b++) {
		boots[b] = (struct st_boot){.runs = &runs[k], .nruns = x->boots[b].nruns};
		for (size_t r = 0; r < x->boots[b].nruns; r++, k++) {
			const struct store_series_run *sr = &x->boots[b].runs[r];
			runs[k] = (struct st_run){.y = sr->y, .round = sr->round, .n = sr->n};
			if (sr->sum && an_run_summary_of(sr->sum, &sums[k]))
				runs[k].sum = &sums[k];
		}
	}
	struct st_group g = {.boots = boots, .nboots = x->nboots};
	int rc = stats_estimate_groups(&g, 1, est, e);
	free(boots);
	free(runs);
	free(sums);
	return rc;
}

/* The first series of workload w in set (any copies), or NULL. */
static const struct store_series *series_of(const struct store_set *set, const char *w)
{
	for (size_t i = 0; set && i < set->nseries; i++)
		if (!strcmp(set->series[i].workload, w) && !set->series[i].event)
			return &set->series[i];
	return NULL;
}

/* Does workload name (w its registry entry, or NULL for an imported one) match patterns? No
 * patterns: the members of the sysab index. */
static bool chosen(const char *name, const struct workload *w, const struct strv *patterns)
{
	if (!patterns || !patterns->n)
		return w && (w->flags & WL_INDEX) != 0;
	for (size_t i = 0; i < patterns->n; i++)
		if (w ? wl_matches(w, patterns->v[i]) : !fnmatch(patterns->v[i], name, 0))
			return true;
	return false;
}

/* The row of workload name, from its series in set (NULL: rough), into r. 0, or -1 with e set. */
static int mde_row(const struct store_set *set, enum an_mde_source source, const char *name,
		   const struct an_mde_in *in, struct an_mde_row *r, struct err *e)
{
	r->workload = xstrdup(name);
	r->copies = 1;
	const struct store_series *x = series_of(set, name);
	struct st_components c = stats_mde_rough(in->probe_cv > ST_MDE_ROUGH_SD_SAMPLE ? in->probe_cv : 0);
	double spr = 0;
	r->source = AN_MDE_ROUGH;
	if (x && x->nboots) {
		struct st_estimate est;
		if (estimate_series(x, &est, e))
			return err_prefix(e, "%s", name);
		c = est.used;
		spr = est.samples_per_run;
		r->copies = x->copies;
		r->source = source;
	}
	r->samples = in->samples ? in->samples : spr >= 1 ? (size_t)lround(spr) : AN_MDE_ROUGH_SAMPLES;
	size_t max = in->max_boots ? in->max_boots : AN_MDE_MAX_BOOTS;
	if (in->paired)
		return stats_mde_paired(&c, in->boots, r->samples, in->alpha, in->power, in->target, max, &r->m, e);
	return stats_mde(&c, &c, in->boots, in->runs, r->samples, in->alpha, in->power, in->target, max, &r->m, e);
}

int an_mde_of_set(const struct store_set *set, enum an_mde_source source, const struct strv *patterns,
		  const struct an_mde_in *in, struct an_mde *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->in = *in;
	out->from = in->from ? xstrdup(in->from) : NULL;
	out->in.from = out->from;
	out->reaches = in->target > 0;
	/* the registry's workloads, then those only the set holds (imported) */
	struct strv names = {0};
	for (size_t w = 0; w < wl_count(); w++)
		if (chosen(wl_at(w)->name, wl_at(w), patterns))
			strv_add(&names, wl_at(w)->name);
	for (size_t i = 0; set && i < set->nseries; i++) {
		const char *n = set->series[i].workload;
		if (!set->series[i].event && !wl_find(n) && chosen(n, NULL, patterns) &&
		    (!names.n || strcmp(names.v[names.n - 1], n)))
			strv_add(&names, n);
	}
	for (size_t i = 0; patterns && i < patterns->n; i++) {
		bool any = false;
		for (size_t k = 0; k < names.n && !any; k++) {
			const struct workload *w = wl_find(names.v[k]);
			any = w ? wl_matches(w, patterns->v[i]) : !fnmatch(patterns->v[i], names.v[k], 0);
		}
		if (!any) {
			strv_free(&names);
			return errf(e, "-w %s names no workload here; `sysab workloads` lists them", patterns->v[i]);
		}
	}
	out->rows = xcalloc(names.n + 1, sizeof *out->rows);
	bool unsized = false; /* a row no design up to max_boots brings to the target */
	int rc = 0;
	for (size_t k = 0; k < names.n && !rc; k++) {
		struct an_mde_row *r = &out->rows[out->nrows++];
		if ((rc = mde_row(set, source, names.v[k], in, r, e)))
			break;
		if (!(r->m.mde <= out->worst))
			out->worst = r->m.mde;
		if (in->target > 0) {
			out->reaches = out->reaches && r->m.mde <= in->target;
			unsized |= !r->m.boots_needed;
			if (r->m.boots_needed > out->boots_needed)
				out->boots_needed = r->m.boots_needed;
		}
	}
	strv_free(&names);
	if (rc) {
		an_mde_free(out);
		return -1;
	}
	if (unsized)
		out->boots_needed = 0;
	return 0;
}

int an_mde_select(struct store *st, const struct strv *patterns, const struct an_mde_in *in, struct an_mde *out,
		  struct err *e)
{
	struct store_run_info *runs = NULL;
	size_t n = 0, *idx = NULL, nidx = 0;
	struct selector s = {0};
	struct store_set set = {0};
	int64_t *ids = NULL;
	int rc = -1;
	memset(out, 0, sizeof *out);
	if (store_runs_list(st, &runs, &n, e) || store_runs_env_key(st, runs, n, "probe.cv", e))
		goto out;
	struct an_mde_in with = *in;
	for (size_t i = n; i-- > 0 && !(with.probe_cv > 0);) {
		const char *cv = kv_get(&runs[i].env, "probe.cv");
		with.probe_cv = cv ? strtod(cv, NULL) : 0;
	}
	if (in->from) {
		if (select_parse(in->from, &s, e) || select_runs(&s, runs, n, &idx, &nidx, e)) {
			err_prefix(e, "--from %s", in->from);
			goto out;
		}
	} else {
		idx = xcalloc(n + 1, sizeof *idx);
		for (size_t i = 0; i < n; i++)
			if (select_usable(&runs[i]))
				idx[nidx++] = i;
	}
	ids = xcalloc(nidx + 1, sizeof *ids);
	for (size_t i = 0; i < nidx; i++)
		ids[i] = runs[idx[i]].id;
	if (nidx && store_load_set(st, ids, nidx, &set, e))
		goto out;
	rc = an_mde_of_set(&set, in->from ? AN_MDE_PILOT : AN_MDE_HISTORY, patterns, &with, out, e);
out:
	store_set_free(&set);
	free(ids);
	free(idx);
	select_free(&s);
	store_runs_free(runs, n);
	return rc;
}

void an_mde_free(struct an_mde *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].workload);
	free(m->rows);
	free(m->from);
	memset(m, 0, sizeof *m);
}
