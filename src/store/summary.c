/* summary.c - the stored per-run summaries: write, read, and find the stale ones. */
#include "store_impl.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isnan(v))
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_double(st, i, v);
}

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

#define SUMMARY_COLS                                                                                       \
	"run, workload, copies, method, n, warmup, mean_y, nbatches, batch_size, tau2, var_mean, df, r1, " \
	"autocorr, halfwidth, median_y, mad_y, median, mean, cv, min, max, kept_y, elapsed_s, round_map, diag"

int store_summary_put(struct store *s, const struct store_summary *x, struct err *e)
{
	if (!s->summary_put &&
	    store_prepare(s,
			  "INSERT OR REPLACE INTO run_summary(" SUMMARY_COLS ") VALUES(?1, ?2, ?3, ?4, ?5, "
			  "(SELECT count(*) FROM sample WHERE run = ?1 AND workload = ?2 AND copies = ?3 AND warmup = 1), "
			  "?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)",
			  &s->summary_put, e))
		return -1;
	sqlite3_stmt *st = s->summary_put;
	sqlite3_bind_int64(st, 1, x->run);
	store_bind_text(st, 2, x->workload);
	sqlite3_bind_int(st, 3, x->copies);
	sqlite3_bind_int(st, 4, x->method);
	sqlite3_bind_int64(st, 5, x->n);
	bind_real(st, 6, x->mean_y);
	sqlite3_bind_int64(st, 7, x->nbatches);
	sqlite3_bind_int64(st, 8, x->batch_size);
	bind_real(st, 9, x->tau2);
	bind_real(st, 10, x->var_mean);
	bind_real(st, 11, x->df);
	bind_real(st, 12, x->r1);
	sqlite3_bind_int(st, 13, x->autocorr);
	bind_real(st, 14, x->halfwidth);
	bind_real(st, 15, x->median_y);
	bind_real(st, 16, x->mad_y);
	bind_real(st, 17, x->median);
	bind_real(st, 18, x->mean);
	bind_real(st, 19, x->cv);
	bind_real(st, 20, x->min);
	bind_real(st, 21, x->max);
	bind_real(st, 22, x->kept_y);
	bind_real(st, 23, x->elapsed_s);
	store_bind_text(st, 24, x->round_map);
	store_bind_text(st, 25, x->diag);
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot store a run summary", e);
	return 0;
}

/* The run ids as a JSON array text, bound to json_each() so one statement serves any count. */
static char *ids_json(const int64_t *ids, size_t n)
{
	struct sb b = {0};
	sb_add(&b, "[");
	for (size_t i = 0; i < n; i++)
		sb_addf(&b, "%s%lld", i ? "," : "", (long long)ids[i]);
	sb_add(&b, "]");
	return b.s;
}

int store_summaries_get(struct store *s, const int64_t *ids, size_t n, struct store_summary **out, size_t *nout,
			struct err *e)
{
	*out = NULL;
	*nout = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT " SUMMARY_COLS " FROM run_summary WHERE run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY run, workload, copies",
			  &st, e))
		return -1;
	char *js = ids_json(ids, n);
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *nout + 1, sizeof **out);
		struct store_summary *x = &(*out)[(*nout)++];
		x->run = sqlite3_column_int64(st, 0);
		x->workload = store_col_text(st, 1);
		x->copies = sqlite3_column_int(st, 2);
		x->method = sqlite3_column_int(st, 3);
		x->n = sqlite3_column_int64(st, 4);
		x->warmup = sqlite3_column_int64(st, 5);
		x->mean_y = col_real(st, 6);
		x->nbatches = sqlite3_column_int64(st, 7);
		x->batch_size = sqlite3_column_int64(st, 8);
		x->tau2 = col_real(st, 9);
		x->var_mean = col_real(st, 10);
		x->df = col_real(st, 11);
		x->r1 = col_real(st, 12);
		x->autocorr = sqlite3_column_int(st, 13);
		x->halfwidth = col_real(st, 14);
		x->median_y = col_real(st, 15);
		x->mad_y = col_real(st, 16);
		x->median = col_real(st, 17);
		x->mean = col_real(st, 18);
		x->cv = col_real(st, 19);
		x->min = col_real(st, 20);
		x->max = col_real(st, 21);
		x->kept_y = col_real(st, 22);
		x->elapsed_s = col_real(st, 23);
		x->round_map = store_col_text(st, 24);
		x->diag = store_col_text(st, 25);
	}
	sqlite3_finalize(st);
	free(js);
	if (rc != SQLITE_DONE) {
		store_summaries_free(*out, *nout);
		*out = NULL;
		*nout = 0;
		return store_fail(s, "cannot read run summaries", e);
	}
	return 0;
}

void store_summaries_free(struct store_summary *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].round_map);
		free(v[i].diag);
	}
	free(v);
}

int store_summary_stale(struct store *s, int method, int64_t min_run, int64_t **ids, size_t *n, struct err *e)
{
	*ids = NULL;
	*n = 0;
	sqlite3_stmt *st;
	/* the cheap test (a summary row) first, the samples only for the slots that fail it */
	if (store_prepare(s,
			  "SELECT DISTINCT sl.run FROM slot sl JOIN run r ON r.id = sl.run WHERE sl.run >= ?2 "
			  "AND NOT EXISTS(SELECT 1 FROM run_summary m WHERE m.run = sl.run AND m.workload = sl.workload "
			  "AND m.copies = sl.copies AND m.method = ?1) AND r.status <> 'running' "
			  "AND EXISTS(SELECT 1 FROM sample x WHERE x.run = sl.run AND x.workload = sl.workload "
			  "AND x.copies = sl.copies AND x.warmup = 0) ORDER BY sl.run",
			  &st, e))
		return -1;
	sqlite3_bind_int(st, 1, method);
	sqlite3_bind_int64(st, 2, min_run);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ids = xgrow(*ids, &cap, *n + 1, sizeof **ids);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return store_fail(s, "cannot look for stale run summaries", e);
	}
	return 0;
}

int store_summary_orphans(struct store *s, int64_t *orphans, int64_t *warmup, struct err *e)
{
	sqlite3_stmt *st;
	*orphans = *warmup = 0;
	if (store_prepare(s,
			  "SELECT count(*) FILTER (WHERE NOT EXISTS(SELECT 1 FROM sample x WHERE x.run = m.run "
			  "AND x.workload = m.workload AND x.copies = m.copies AND x.warmup = 0)), "
			  "count(*) FILTER (WHERE m.warmup <> (SELECT count(*) FROM sample x WHERE x.run = m.run "
			  "AND x.workload = m.workload AND x.copies = m.copies AND x.warmup = 1)) FROM run_summary m",
			  &st, e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*orphans = sqlite3_column_int64(st, 0);
		*warmup = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot check the run summaries against the samples", e);
	return 0;
}

int store_summary_prune(struct store *s, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "DELETE FROM run_summary WHERE NOT EXISTS(SELECT 1 FROM sample x WHERE x.run = run_summary.run "
			  "AND x.workload = run_summary.workload AND x.copies = run_summary.copies AND x.warmup = 0)",
			  &st, e))
		return -1;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot delete run summaries without samples", e);
	return 0;
}

int store_summary_method(struct store *s, int *method, struct err *e)
{
	sqlite3_stmt *st;
	*method = 0;
	if (store_prepare(s, "SELECT coalesce(max(method), 0) FROM summary_meta", &st, e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*method = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot read the method of the run summaries", e);
	return 0;
}

int store_summary_method_set(struct store *s, int method, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "DELETE FROM summary_meta", &st, e))
		return -1;
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE) {
		if (store_prepare(s, "INSERT INTO summary_meta(method) VALUES(?)", &st, e))
			return -1;
		sqlite3_bind_int(st, 1, method);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot record the method of the run summaries", e);
	return 0;
}

int store_run_max_id(struct store *s, int64_t *id, struct err *e)
{
	sqlite3_stmt *st;
	*id = 0;
	if (store_prepare(s, "SELECT coalesce(max(id), 0) FROM run", &st, e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot read the newest run id", e);
	return 0;
}
