/* counters.c - the SQL of per-sample event counts. */
#include "store/counters.h"
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

int store_counters_add(struct store *s, int64_t run_id, const char *workload, int copies, int seq,
		       const char *const *names, const uint64_t *values, size_t n, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT INTO sample_counter(sample, event, value) "
			  "SELECT id, ?, ? FROM sample WHERE run = ? AND workload = ? AND copies = ? AND seq = ?",
			  &st, e))
		return -1;
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		sqlite3_reset(st);
		store_bind_text(st, 1, names[i]);
		sqlite3_bind_int64(st, 2, (int64_t)values[i]);
		sqlite3_bind_int64(st, 3, run_id);
		store_bind_text(st, 4, workload);
		sqlite3_bind_int(st, 5, copies);
		sqlite3_bind_int(st, 6, seq);
		if (sqlite3_step(st) != SQLITE_DONE)
			rc = store_fail(s, "cannot record a sample's counters", e);
	}
	sqlite3_finalize(st);
	return rc;
}

int store_counters_load(struct store *s, const int64_t *ids, size_t nids, struct store_counter_series **out,
			size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT sample.workload, sample.copies, c.event, CAST(c.value AS REAL) / sample.ops "
			  "FROM sample_counter c JOIN sample ON sample.id = c.sample "
			  "WHERE sample.run = ? AND sample.warmup = 0 AND sample.ops > 0 "
			  "ORDER BY sample.workload, sample.copies, c.event",
			  &st, e))
		return -1;
	int rc = 0;
	sqlite3_stmt *any;
	if (store_prepare(s, "SELECT EXISTS(SELECT 1 FROM sample_counter)", &any, e)) {
		sqlite3_finalize(st);
		return -1;
	}
	if (sqlite3_step(any) == SQLITE_ROW && sqlite3_column_int(any, 0) == 0)
		nids = 0; /* no counters anywhere: do not walk every sample of every run */
	sqlite3_finalize(any);
	for (size_t r = 0; r < nids && !rc; r++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ids[r]);
		int x;
		while ((x = sqlite3_step(st)) == SQLITE_ROW) {
			const char *w = (const char *)sqlite3_column_text(st, 0);
			int c = sqlite3_column_int(st, 1);
			const char *ev = (const char *)sqlite3_column_text(st, 2);
			struct store_counter_series *cs = NULL;
			for (size_t i = 0; i < *n && !cs; i++)
				if ((*out)[i].copies == c && !strcmp((*out)[i].workload, w) && !strcmp((*out)[i].event, ev))
					cs = &(*out)[i];
			if (!cs) {
				*out = xgrow(*out, &cap, *n + 1, sizeof **out);
				cs = &(*out)[(*n)++];
				memset(cs, 0, sizeof *cs);
				cs->workload = xstrdup(w);
				cs->copies = c;
				cs->event = xstrdup(ev);
			}
			cs->per_op = xrealloc(cs->per_op, (cs->n + 1) * sizeof *cs->per_op);
			cs->per_op[cs->n++] = sqlite3_column_double(st, 3);
		}
		if (x != SQLITE_DONE)
			rc = store_fail(s, "cannot read the counters", e);
	}
	sqlite3_finalize(st);
	if (rc) {
		store_counters_free(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

void store_counters_free(struct store_counter_series *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].event);
		free(v[i].per_op);
	}
	free(v);
}

int store_counters_get(struct store *s, int64_t run_id, struct store_counter_raw **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT sample.workload, sample.copies, sample.seq, sample_counter.event, sample_counter.value "
			  "FROM sample_counter JOIN sample ON sample.id = sample_counter.sample WHERE sample.run = ? "
			  "ORDER BY sample.workload, sample.copies, sample.seq, sample_counter.event",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof **out);
		struct store_counter_raw *c = &(*out)[(*n)++];
		c->workload = store_col_text(st, 0);
		c->copies = sqlite3_column_int(st, 1);
		c->seq = sqlite3_column_int(st, 2);
		c->event = store_col_text(st, 3);
		c->value = (uint64_t)sqlite3_column_int64(st, 4);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_counters_raw_free(*out, *n);
		*out = NULL;
		*n = 0;
		return store_fail(s, "cannot read a run's counters", e);
	}
	return 0;
}

void store_counters_raw_free(struct store_counter_raw *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].event);
	}
	free(v);
}
