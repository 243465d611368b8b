/* bisect.c - storing bisections of an ordered series and their steps (issue 50). */
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

int store_bisect_create(struct store *s, struct store_bisect *b, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT INTO bisect(name, series, good, bad, cap, assume, backend, run_args, options, workloads, "
			  "state, reason, created_ns) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			  &st, e))
		return -1;
	store_bind_text(st, 1, b->name);
	store_bind_text(st, 2, b->series);
	sqlite3_bind_int(st, 3, b->good);
	sqlite3_bind_int(st, 4, b->bad);
	sqlite3_bind_int(st, 5, b->cap);
	sqlite3_bind_int(st, 6, b->assume);
	store_bind_text(st, 7, b->backend);
	store_bind_text(st, 8, b->run_args ? b->run_args : "[]");
	store_bind_text(st, 9, b->options ? b->options : "[]");
	store_bind_text(st, 10, b->workloads ? b->workloads : "[]");
	store_bind_text(st, 11, b->state ? b->state : "new");
	store_bind_text(st, 12, b->reason);
	sqlite3_bind_int64(st, 13, (int64_t)b->created_ns);
	int rc = sqlite3_step(st);
	int code = sqlite3_errcode(s->db);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		if (code == SQLITE_CONSTRAINT)
			return errf(e, "bisection '%s': a bisection of that name exists in %s; pick another name or "
				       "`sysab bisect show %s`",
				    b->name, s->path, b->name);
		return store_fail(s, "cannot record the bisection", e);
	}
	b->id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

int store_bisect_get(struct store *s, const char *name, struct store_bisect *b, struct err *e)
{
	memset(b, 0, sizeof *b);
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT id, name, series, good, bad, cap, assume, backend, run_args, options, workloads, state, "
			  "reason, created_ns, checked FROM bisect WHERE name = ?",
			  &st, e))
		return -1;
	store_bind_text(st, 1, name);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		b->id = sqlite3_column_int64(st, 0);
		b->name = store_col_text(st, 1);
		b->series = store_col_text(st, 2);
		b->good = sqlite3_column_int(st, 3);
		b->bad = sqlite3_column_int(st, 4);
		b->cap = sqlite3_column_int(st, 5);
		b->assume = sqlite3_column_int(st, 6);
		b->backend = store_col_text(st, 7);
		b->run_args = store_col_text(st, 8);
		b->options = store_col_text(st, 9);
		b->workloads = store_col_text(st, 10);
		b->state = store_col_text(st, 11);
		b->reason = store_col_text_or_null(st, 12);
		b->created_ns = (uint64_t)sqlite3_column_int64(st, 13);
		b->checked = store_col_text_or_null(st, 14);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return errf(e, "bisection '%s': no bisection of that name in %s; `sysab bisect new %s ...` makes one",
			    name, s->path, name);
	return store_fail(s, "cannot read the bisection", e);
}

void store_bisect_free(struct store_bisect *b)
{
	if (!b)
		return;
	free(b->name);
	free(b->series);
	free(b->backend);
	free(b->run_args);
	free(b->options);
	free(b->workloads);
	free(b->state);
	free(b->reason);
	free(b->checked);
	memset(b, 0, sizeof *b);
}

int store_bisect_set_state(struct store *s, int64_t id, const char *state, const char *reason, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE bisect SET state = ?, reason = ? WHERE id = ?", &st, e))
		return -1;
	store_bind_text(st, 1, state);
	store_bind_text(st, 2, reason);
	sqlite3_bind_int64(st, 3, id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot record the bisection's state", e);
}

int store_bisect_step_put(struct store *s, int64_t id, const struct store_bisect_step *x, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT OR REPLACE INTO bisect_step(bisect, n, mid, good, bad, campaign, call, why, boots, looks, "
			  "assumed, favoured) VALUES(?, ?, ?, ?, ?, (SELECT id FROM campaign WHERE name = ?), ?, ?, ?, ?, ?, ?)",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, x->n);
	sqlite3_bind_int(st, 3, x->mid);
	sqlite3_bind_int(st, 4, x->good);
	sqlite3_bind_int(st, 5, x->bad);
	store_bind_text(st, 6, x->campaign);
	store_bind_text(st, 7, x->call);
	store_bind_text(st, 8, x->why);
	sqlite3_bind_int(st, 9, x->boots);
	sqlite3_bind_int(st, 10, x->looks);
	sqlite3_bind_int(st, 11, x->assumed);
	store_bind_text(st, 12, x->favoured);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot record the bisection's step", e);
}

int store_bisect_steps(struct store *s, int64_t id, struct store_bisect_step **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	size_t cap = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT x.n, x.mid, x.good, x.bad, c.name, x.call, x.why, x.boots, x.looks, x.assumed, x.favoured "
			  "FROM bisect_step x LEFT JOIN campaign c ON c.id = x.campaign WHERE x.bisect = ? ORDER BY x.n",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof **out);
		struct store_bisect_step *x = &(*out)[(*n)++];
		x->n = sqlite3_column_int(st, 0);
		x->mid = sqlite3_column_int(st, 1);
		x->good = sqlite3_column_int(st, 2);
		x->bad = sqlite3_column_int(st, 3);
		x->campaign = store_col_text_or_null(st, 4);
		x->call = store_col_text_or_null(st, 5);
		x->why = store_col_text_or_null(st, 6);
		x->boots = sqlite3_column_int(st, 7);
		x->looks = sqlite3_column_int(st, 8);
		x->assumed = sqlite3_column_int(st, 9);
		x->favoured = store_col_text_or_null(st, 10);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_bisect_steps_free(*out, *n);
		*out = NULL;
		*n = 0;
		return store_fail(s, "cannot read the bisection's steps", e);
	}
	return 0;
}

void store_bisect_steps_free(struct store_bisect_step *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].campaign);
		free(v[i].call);
		free(v[i].why);
		free(v[i].favoured);
	}
	free(v);
}

int store_bisect_set_checked(struct store *s, int64_t id, const char *checked, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE bisect SET checked = ? WHERE id = ?", &st, e))
		return -1;
	store_bind_text(st, 1, checked);
	sqlite3_bind_int64(st, 2, id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot record the bisection's culprit check", e);
}

int store_bisect_of_campaign(struct store *s, const char *campaign, char **name, struct err *e)
{
	*name = NULL;
	sqlite3_stmt *st;
	/* a step's campaign is linked by id; the check's is named NAME.check */
	if (store_prepare(s,
			  "SELECT b.name FROM bisect b WHERE b.id IN (SELECT x.bisect FROM bisect_step x JOIN campaign c "
			  "ON c.id = x.campaign WHERE c.name = ?1) OR b.name || '.check' = ?1 LIMIT 1",
			  &st, e))
		return -1;
	store_bind_text(st, 1, campaign);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*name = store_col_text(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot read which bisection a campaign belongs to", e);
}
