/* runsum.c - per-run summaries: computed from the raw samples by stats, kept by the store. */
#include "runsum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs loaded at a time: bounds memory on databases of any size. */
#define RUNSUM_CHUNK 512

static struct st_run as_st_run(const struct store_series_run *r)
{
	return (struct st_run){.y = r->y, .round = r->round, .n = r->n};
}

/* The summary of sr, one run of series x as analysis loads it; x->round_map and x->diag
 * point into s and diag. */
static void fill(struct store_summary *x, const struct store_series *ser, const struct store_series_run *sr,
		 struct st_run_summary *s, struct sb *diag)
{
	struct st_run r = as_st_run(sr);
	stats_run_summary(&r, s);
	sb_free(diag);
	stats_diag_tally_format(&s->diag, diag);
	*x = (struct store_summary){
		.run = sr->run,
		.workload = ser->workload,
		.copies = ser->copies,
		.method = ST_SUMMARY_METHOD,
		.n = (int64_t)s->b.n,
		.mean_y = s->b.mean,
		.nbatches = (int64_t)s->b.nbatches,
		.batch_size = (int64_t)s->b.batch_size,
		.tau2 = s->b.tau2,
		.var_mean = s->b.var_mean,
		.df = s->b.df,
		.r1 = s->b.r1,
		.autocorr = s->b.autocorr,
		.halfwidth = s->halfwidth,
		.median_y = s->median_y,
		.mad_y = s->mad_y,
		.median = s->v.median,
		.mean = s->v.mean,
		.cv = s->v.cv,
		.min = s->v.min,
		.max = s->v.max,
		.kept_y = sr->kept_y,
		.elapsed_s = sr->elapsed_s,
		.round_map = s->round_map,
		.diag = diag->s ? diag->s : "",
	};
}

/* The summaries of every run of a loaded set, ordered by run and within a run as the set's
 * series are, (workload, copies) in byte order; x[i]'s strings point into s[i] and diag[i]. */
struct sums {
	struct store_summary *x;
	struct st_run_summary *s;
	struct sb *diag;
	size_t n;
};

struct order {
	int64_t run;
	size_t i;
};

static int order_cmp(const void *pa, const void *pb)
{
	const struct order *a = pa, *b = pb;
	if (a->run != b->run)
		return a->run < b->run ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void summarise(const struct store_set *set, struct sums *out)
{
	size_t n = 0;
	for (size_t k = 0; k < set->nseries; k++)
		for (size_t b = 0; b < set->series[k].nboots; b++)
			n += set->series[k].boots[b].nruns;
	struct order *o = xcalloc(n, sizeof *o);
	struct store_summary *x = xcalloc(n, sizeof *x);
	*out = (struct sums){.x = xcalloc(n, sizeof *out->x), .s = xcalloc(n, sizeof *out->s),
			     .diag = xcalloc(n, sizeof *out->diag), .n = n};
	size_t i = 0;
	for (size_t k = 0; k < set->nseries; k++) {
		const struct store_series *ser = &set->series[k];
		for (size_t b = 0; b < ser->nboots; b++)
			for (size_t r = 0; r < ser->boots[b].nruns; r++, i++) {
				fill(&x[i], ser, &ser->boots[b].runs[r], &out->s[i], &out->diag[i]);
				o[i] = (struct order){x[i].run, i};
			}
	}
	qsort(o, n, sizeof *o, order_cmp);
	for (i = 0; i < n; i++)
		out->x[i] = x[o[i].i];
	free(x);
	free(o);
}

static void sums_free(struct sums *x)
{
	for (size_t i = 0; i < x->n; i++)
		sb_free(&x->diag[i]);
	free(x->x);
	free(x->s);
	free(x->diag);
	memset(x, 0, sizeof *x);
}

/* Store the summaries of runs ids[0..n-1] (ascending) from all, a summarise() of them; a run
 * without any is given none (its row, if any, is deleted). */
static int put_runs(struct store *st, const int64_t *ids, size_t n, const struct sums *all, struct err *e)
{
	size_t i = 0;
	for (size_t r = 0; r < n; r++) {
		while (i < all->n && all->x[i].run < ids[r])
			i++;
		size_t k = i;
		while (k < all->n && all->x[k].run == ids[r])
			k++;
		if (store_summary_put_run(st, ids[r], ST_SUMMARY_METHOD, all->x + i, k - i, e))
			return -1;
		i = k;
	}
	return 0;
}

int runsum_put(struct store *st, int64_t run, struct err *e)
{
	struct store_set set;
	if (store_begin(st, e))
		return -1;
	if (store_load_set(st, &run, 1, &set, e)) {
		store_rollback(st);
		return -1;
	}
	struct sums all;
	summarise(&set, &all);
	int rc = put_runs(st, &run, 1, &all, e);
	sums_free(&all);
	store_set_free(&set);
	if (rc)
		store_rollback(st);
	return rc ? rc : store_commit(st, e);
}

/* The ids of every run that is not still running, ascending. */
static int finished_runs(struct store *st, int64_t **ids, size_t *n, struct err *e)
{
	struct store_run_info *runs;
	size_t nr;
	*ids = NULL;
	*n = 0;
	if (store_runs_list(st, &runs, &nr, e))
		return -1;
	*ids = xcalloc(nr, sizeof **ids);
	for (size_t i = 0; i < nr; i++)
		if (runs[i].state != STORE_RUN_RUNNING)
			(*ids)[(*n)++] = runs[i].id;
	store_runs_free(runs, nr);
	return 0;
}

int runsum_refresh(struct store *st, bool all, int64_t min_run, size_t *nruns, struct err *e)
{
	int64_t *ids;
	size_t n;
	*nruns = 0;
	if (all ? finished_runs(st, &ids, &n, e) : store_summary_stale(st, ST_SUMMARY_METHOD, min_run, &ids, &n, e))
		return -1;
	int rc = -1;
	for (size_t i = 0; i < n; i += RUNSUM_CHUNK) {
		size_t k = n - i < RUNSUM_CHUNK ? n - i : RUNSUM_CHUNK;
		/* read and written in one transaction: no sample can come in between */
		if (store_begin(st, e))
			goto out;
		struct store_set set;
		if (store_load_set(st, ids + i, k, &set, e)) {
			store_rollback(st);
			goto out;
		}
		struct sums sums;
		summarise(&set, &sums);
		int put = put_runs(st, ids + i, k, &sums, e);
		sums_free(&sums);
		store_set_free(&set);
		if (put) {
			store_rollback(st);
			goto out;
		}
		if (store_commit(st, e))
			goto out;
		*nruns += k;
	}
	rc = all ? store_summary_method_set(st, ST_SUMMARY_METHOD, e) : 0;
out:
	free(ids);
	return rc;
}

int runsum_ensure(struct store *st, struct err *e)
{
	int m;
	size_t n;
	if (store_summary_method(st, &m, e))
		return -1;
	/* the runs without a current row: every run after a method change; otherwise those
	 * whose row the schema's triggers deleted (their samples or environment changed behind
	 * sysab's back) or that were merged in: one query over the runs finds them */
	if (runsum_refresh(st, false, 0, &n, e))
		return -1;
	return m == ST_SUMMARY_METHOD ? 0 : store_summary_method_set(st, ST_SUMMARY_METHOD, e);
}

/* Equal, NAN equal to NAN: both come from the same code on the same numbers. */
static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || a == b;
}

/* The first field in which a and b differ, or NULL. */
static const char *differs(const struct store_summary *a, const struct store_summary *b)
{
	if (a->n != b->n)
		return "n";
	if (a->nbatches != b->nbatches)
		return "nbatches";
	if (a->batch_size != b->batch_size)
		return "batch_size";
	if (a->autocorr != b->autocorr)
		return "autocorr";
	const struct {
		const char *name;
		double x, y;
	} f[] = {
		{"mean_y", a->mean_y, b->mean_y},       {"tau2", a->tau2, b->tau2},
		{"var_mean", a->var_mean, b->var_mean}, {"df", a->df, b->df},
		{"r1", a->r1, b->r1},                   {"halfwidth", a->halfwidth, b->halfwidth},
		{"median_y", a->median_y, b->median_y}, {"mad_y", a->mad_y, b->mad_y},
		{"median", a->median, b->median},       {"mean", a->mean, b->mean},
		{"cv", a->cv, b->cv},                   {"min", a->min, b->min},
		{"max", a->max, b->max},             {"kept_y", a->kept_y, b->kept_y},
		{"elapsed_s", a->elapsed_s, b->elapsed_s},
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
		if (!same(f[i].x, f[i].y))
			return f[i].name;
	if (!a->round_map || !b->round_map || strcmp(a->round_map, b->round_map))
		return "round_map";
	if (!a->diag || !b->diag || strcmp(a->diag, b->diag))
		return "diag";
	return NULL;
}

static int key_cmp(int64_t run, const char *wl, int copies, const struct store_summary *m)
{
	if (run != m->run)
		return run < m->run ? -1 : 1;
	int c = strcmp(wl, m->workload);
	if (c)
		return c;
	return copies < m->copies ? -1 : copies > m->copies;
}

static void note(struct runsum_check *out, int64_t run, const char *wl, int copies, const char *what)
{
	if (!out->first[0])
		snprintf(out->first, sizeof out->first, "run %lld %s (%d copies): %s", (long long)run, wl, copies, what);
}

/* Check the runs ids[0..n-1] (ascending). */
static int check_chunk(struct store *st, const int64_t *ids, size_t n, struct runsum_check *out, struct err *e)
{
	struct store_set set;
	struct store_summary *m;
	size_t nm, unreadable;
	if (store_load_set(st, ids, n, &set, e))
		return -1;
	if (store_summaries_get(st, ids, n, &m, &nm, &unreadable, e)) {
		store_set_free(&set);
		return -1;
	}
	out->unreadable += unreadable;
	if (unreadable && !out->first[0])
		snprintf(out->first, sizeof out->first, "%zu summary rows are not readable", unreadable);
	struct sums want;
	summarise(&set, &want);
	bool *matched = xcalloc(nm, sizeof *matched);
	int rc = 0;
	for (size_t i = 0; i < want.n && !rc; i++) {
		struct store_summary *w = &want.x[i];
		if (i == 0 || w->run != want.x[i - 1].run) { /* the run's warm-up counts, as stored */
			size_t k = i;
			while (k < want.n && want.x[k].run == w->run)
				k++;
			rc = store_summary_warmup(st, w->run, w, k - i, e);
		}
		/* binary search: m is ordered by (run, workload, copies) */
		size_t lo = 0, hi = nm;
		while (lo < hi) {
			size_t mid = (lo + hi) / 2;
			if (key_cmp(w->run, w->workload, w->copies, &m[mid]) > 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		out->checked++;
		if (lo == nm || key_cmp(w->run, w->workload, w->copies, &m[lo])) {
			out->missing++;
			note(out, w->run, w->workload, w->copies, "no summary");
			continue;
		}
		matched[lo] = true;
		if (m[lo].method != ST_SUMMARY_METHOD) {
			out->stale++;
			note(out, w->run, w->workload, w->copies, "summary stamped with another method");
			continue;
		}
		if (m[lo].warmup != w->warmup) {
			out->warmup++;
			note(out, w->run, w->workload, w->copies, "warm-up count differs from the samples'");
		}
		const char *d = differs(w, &m[lo]);
		if (d) {
			out->differ++;
			char what[64];
			snprintf(what, sizeof what, "stored %s differs from the samples'", d);
			note(out, w->run, w->workload, w->copies, what);
		}
	}
	for (size_t i = 0; i < nm; i++)
		if (!matched[i]) {
			out->orphans++;
			note(out, m[i].run, m[i].workload, m[i].copies, "summary without measured samples");
		}
	free(matched);
	sums_free(&want);
	store_summaries_free(m, nm);
	store_set_free(&set);
	return rc;
}

int runsum_check(struct store *st, struct runsum_check *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	int64_t *ids;
	size_t n;
	if (finished_runs(st, &ids, &n, e))
		return -1;
	int rc = -1;
	for (size_t i = 0; i < n; i += RUNSUM_CHUNK)
		if (check_chunk(st, ids + i, n - i < RUNSUM_CHUNK ? n - i : RUNSUM_CHUNK, out, e))
			goto out;
	out->runs = n;
	int64_t rows;
	if (store_summary_orphans(st, &rows, e))
		goto out;
	out->orphans += rows;
	if (!out->first[0] && rows)
		snprintf(out->first, sizeof out->first, "%lld runs without measured samples have summaries",
			 (long long)rows);
	rc = 0;
out:
	free(ids);
	return rc;
}
