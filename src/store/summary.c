/* summary.c - the stored per-run summaries: write, read, and find the stale ones. */
#include "store_impl.h"

#include <endian.h>
#include <stdlib.h>
#include <string.h>

/* --- the blob of a run's summaries (docs/FORMATS.md, "run_summary.slots") --- */

#define SLOTS_FORMAT 1
#define ENV_FORMAT 1

static void put_u32(struct sb *b, uint32_t v)
{
	char x[4];
	for (int i = 0; i < 4; i++)
		x[i] = (char)(v >> 8 * i);
	sb_addn(b, x, sizeof x);
}

static void put_u64(struct sb *b, uint64_t v)
{
	char x[8];
	for (int i = 0; i < 8; i++)
		x[i] = (char)(v >> 8 * i);
	sb_addn(b, x, sizeof x);
}

static void put_f64(struct sb *b, double v)
{
	uint64_t u;
	memcpy(&u, &v, sizeof u);
	put_u64(b, u);
}

/* A string with its length (counting the NUL it is stored with). */
static void put_str(struct sb *b, const char *v)
{
	v = v ? v : "";
	size_t n = strlen(v) + 1;
	put_u32(b, (uint32_t)n);
	sb_addn(b, v, n);
}

/* The reals of a summary in their order in the blob. */
#define SLOT_REALS(X)                                                                                      \
	X(mean_y) X(tau2) X(var_mean) X(df) X(r1) X(halfwidth) X(median_y) X(mad_y) X(median) X(mean) X(cv) \
		X(min) X(max) X(kept_y) X(elapsed_s)

/* The fixed-size fields first (a slot's mean_y is at the same place whatever its name), then
 * the strings. */
static void put_slot(struct sb *b, const struct store_summary *x)
{
	put_u32(b, (uint32_t)x->copies);
	put_u32(b, (uint32_t)x->autocorr);
	put_u64(b, (uint64_t)x->n);
	put_u64(b, (uint64_t)x->warmup);
	put_u64(b, (uint64_t)x->nbatches);
	put_u64(b, (uint64_t)x->batch_size);
#define PUT_REAL(f) put_f64(b, x->f);
	SLOT_REALS(PUT_REAL)
#undef PUT_REAL
	put_str(b, x->workload);
	put_str(b, x->round_map);
	put_str(b, x->diag);
}

static bool get_u32(struct sum_blob *b, uint32_t *v)
{
	if (b->end - b->p < 4)
		return false;
	memcpy(v, b->p, sizeof *v);
	*v = le32toh(*v);
	b->p += 4;
	return true;
}

static bool get_u64(struct sum_blob *b, uint64_t *v)
{
	if (b->end - b->p < 8)
		return false;
	memcpy(v, b->p, sizeof *v);
	*v = le64toh(*v);
	b->p += 8;
	return true;
}

static bool get_i64(struct sum_blob *b, int64_t *v)
{
	uint64_t u;
	if (!get_u64(b, &u))
		return false;
	*v = (int64_t)u;
	return true;
}

static bool get_f64(struct sum_blob *b, double *v)
{
	uint64_t u;
	if (!get_u64(b, &u))
		return false;
	memcpy(v, &u, sizeof *v);
	return true;
}

/* A string stored with its NUL and no other: points into the blob. */
static bool get_str(struct sum_blob *b, const char **v)
{
	uint32_t n;
	if (!get_u32(b, &n) || n == 0 || (size_t)(b->end - b->p) < n || b->p[n - 1] ||
	    memchr(b->p, 0, n - 1))
		return false;
	*v = (const char *)b->p;
	b->p += n;
	return true;
}

bool sum_blob_open(struct sum_blob *b, const void *data, size_t len)
{
	*b = (struct sum_blob){.p = data, .end = (const unsigned char *)data + len};
	uint32_t format;
	return data && get_u32(b, &format) && format == SLOTS_FORMAT && get_u32(b, &b->left);
}

int sum_blob_next(struct sum_blob *b, struct sum_slot *out)
{
	if (!b->left)
		return b->p == b->end ? 0 : -1;
	b->left--;
	struct store_summary *x = &out->x;
	*out = (struct sum_slot){0};
	uint32_t copies = 0, autocorr = 0;
	bool ok = get_u32(b, &copies) && get_u32(b, &autocorr) &&
		  get_i64(b, &x->n) && get_i64(b, &x->warmup) && get_i64(b, &x->nbatches) &&
		  get_i64(b, &x->batch_size);
#define GET_REAL(f) ok = ok && get_f64(b, &x->f);
	SLOT_REALS(GET_REAL)
#undef GET_REAL
	ok = ok && get_str(b, &out->workload) && get_str(b, &out->round_map) && get_str(b, &out->diag);
	x->copies = (int)copies;
	x->autocorr = (int)autocorr;
	if (!ok) {
		b->left = 0;
		return -1;
	}
	return 1;
}

int store_summary_warmup(struct store *s, int64_t run, struct store_summary *x, size_t n, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT workload, copies, count(*) FROM sample WHERE run = ?1 AND warmup = 1 "
			  "GROUP BY workload, copies",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	for (size_t i = 0; i < n; i++)
		x[i].warmup = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *wl = (const char *)sqlite3_column_text(st, 0);
		int copies = sqlite3_column_int(st, 1);
		for (size_t i = 0; i < n; i++)
			if (x[i].copies == copies && !strcmp(x[i].workload, wl ? wl : ""))
				x[i].warmup = sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot count the warm-up samples", e);
	return 0;
}

/* The run's environment, key by key, as a blob of its own format. */
static int env_blob(struct store *s, int64_t run, struct sb *b, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT key, value FROM environment WHERE run = ?1 ORDER BY key", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run);
	struct sb pairs = {0};
	uint32_t n = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		put_str(&pairs, (const char *)sqlite3_column_text(st, 0));
		put_str(&pairs, (const char *)sqlite3_column_text(st, 1));
		n++;
	}
	sqlite3_finalize(st);
	put_u32(b, ENV_FORMAT);
	put_u32(b, n);
	if (pairs.len)
		sb_addn(b, pairs.s, pairs.len);
	sb_free(&pairs);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the environment of a run", e);
	return 0;
}

bool sum_env_open(struct sum_blob *b, const void *data, size_t len)
{
	*b = (struct sum_blob){.p = data, .end = (const unsigned char *)data + len};
	uint32_t format;
	return data && get_u32(b, &format) && format == ENV_FORMAT && get_u32(b, &b->left);
}

int sum_env_next(struct sum_blob *b, const char **key, const char **value)
{
	if (!b->left)
		return b->p == b->end ? 0 : -1;
	b->left--;
	if (get_str(b, key) && get_str(b, value))
		return 1;
	b->left = 0;
	return -1;
}

int store_summary_put_run(struct store *s, int64_t run, int method, struct store_summary *x, size_t n,
			  struct err *e)
{
	sqlite3_stmt *st;
	if (!n) {
		if (store_prepare(s, "DELETE FROM run_summary WHERE run = ?1", &st, e))
			return -1;
		sqlite3_bind_int64(st, 1, run);
	} else {
		if (store_summary_warmup(s, run, x, n, e))
			return -1;
		struct sb env = {0};
		if (env_blob(s, run, &env, e)) {
			sb_free(&env);
			return -1;
		}
		if (!s->summary_put && store_prepare(s,
						     "INSERT OR REPLACE INTO run_summary(run, method, env, slots) "
						     "VALUES(?1, ?2, ?3, ?4)",
						     &s->summary_put, e)) {
			sb_free(&env);
			return -1;
		}
		st = s->summary_put;
		struct sb b = {0};
		put_u32(&b, SLOTS_FORMAT);
		put_u32(&b, (uint32_t)n);
		for (size_t i = 0; i < n; i++)
			put_slot(&b, &x[i]);
		sqlite3_bind_int64(st, 1, run);
		sqlite3_bind_int(st, 2, method);
		sqlite3_bind_blob(st, 3, env.s, (int)env.len, SQLITE_TRANSIENT);
		sqlite3_bind_blob(st, 4, b.s, (int)b.len, SQLITE_TRANSIENT);
		sb_free(&env);
		sb_free(&b);
	}
	int rc = sqlite3_step(st);
	if (n) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	} else {
		sqlite3_finalize(st);
	}
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot store a run's summaries", e);
	return 0;
}

static void free_fields(struct store_summary *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].round_map);
		free(v[i].diag);
	}
}

int store_summaries_get(struct store *s, const int64_t *ids, size_t n, struct store_summary **out, size_t *nout,
			size_t *unreadable, struct err *e)
{
	*out = NULL;
	*nout = *unreadable = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run, method, NULL, slots FROM run_summary WHERE run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY run",
			  &st, e))
		return -1;
	char *js = store_ids_json(ids, n);
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sum_blob b;
		struct sum_slot v;
		size_t first = *nout;
		int got = sum_blob_open(&b, sqlite3_column_blob(st, 3), (size_t)sqlite3_column_bytes(st, 3)) ? 1 : -1;
		while (got > 0 && (got = sum_blob_next(&b, &v)) > 0) {
			*out = xgrow(*out, &cap, *nout + 1, sizeof **out);
			struct store_summary *x = &(*out)[(*nout)++];
			*x = v.x;
			x->run = sqlite3_column_int64(st, 0);
			x->method = sqlite3_column_int(st, 1);
			x->workload = xstrdup(v.workload);
			x->round_map = xstrdup(v.round_map);
			x->diag = xstrdup(v.diag);
		}
		if (got < 0) { /* a malformed row stands for none of its slots */
			(*unreadable)++;
			free_fields(*out + first, *nout - first);
			*nout = first;
		}
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
	free_fields(v, n);
	free(v);
}

int store_summary_stale(struct store *s, int method, int64_t min_run, int64_t **ids, size_t *n, struct err *e)
{
	*ids = NULL;
	*n = 0;
	sqlite3_stmt *st;
	/* the cheap test (the run's row) first, the samples only for the runs that fail it */
	if (store_prepare(s,
			  "SELECT r.id FROM run r WHERE r.id >= ?2 AND r.status <> 'running' "
			  "AND NOT EXISTS(SELECT 1 FROM run_summary m WHERE m.run = r.id AND m.method = ?1) "
			  "AND EXISTS(SELECT 1 FROM sample x WHERE x.run = r.id AND x.warmup = 0) ORDER BY r.id",
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

int store_summary_orphans(struct store *s, int64_t *orphans, struct err *e)
{
	sqlite3_stmt *st;
	*orphans = 0;
	if (store_prepare(s,
			  "SELECT count(*) FROM run_summary m WHERE NOT EXISTS(SELECT 1 FROM sample x "
			  "WHERE x.run = m.run AND x.warmup = 0)",
			  &st, e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*orphans = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot check the run summaries against the samples", e);
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
