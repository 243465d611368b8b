/* looks.c - the looks compare and analyze took at a question (docs/METHOD.md, "Repeated looks"). */
#include "store_impl.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

int store_looks_get(struct store *s, const char *key, struct store_look **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT id, question, k, at_ns, fingerprint, max_boots, withheld, design, verdicts FROM look "
			  "WHERE key = ? ORDER BY id",
			  &st, e))
		return -1;
	store_bind_text(st, 1, key);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 4;
			*out = xrealloc(*out, cap * sizeof **out);
		}
		struct store_look *x = &(*out)[(*n)++];
		memset(x, 0, sizeof *x);
		x->id = sqlite3_column_int64(st, 0);
		x->key = xstrdup(key);
		/* counters a later look adds 1 to: a hand-edited INT_MAX would overflow */
		int64_t q = sqlite3_column_int64(st, 1), k = sqlite3_column_int64(st, 2), mb = sqlite3_column_int64(st, 5);
		if (q < 1 || q >= INT_MAX || k < 1 || k >= INT_MAX || mb < 0 || mb >= INT_MAX) {
			rc = errf(e,
				  "look %lld in the database has question %lld, look %lld, boots %lld: out of range (1 to "
				  "%d, boots 0 to %d); the table was edited by hand: delete that row (sqlite3 DB 'DELETE "
				  "FROM look WHERE id = %lld') or restore a backup",
				  (long long)x->id, (long long)q, (long long)k, (long long)mb, INT_MAX - 1, INT_MAX - 1,
				  (long long)x->id);
			break;
		}
		x->question = (int)q;
		x->k = (int)k;
		x->at_ns = (uint64_t)sqlite3_column_int64(st, 3);
		x->fingerprint = store_col_text(st, 4);
		x->max_boots = (int)mb;
		x->withheld = sqlite3_column_int(st, 6) != 0;
		x->design = store_col_text(st, 7);
		x->verdicts = store_col_text(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_looks_free(*out, *n);
		*out = NULL;
		*n = 0;
		return rc < 0 ? -1 : store_fail(s, "cannot read the recorded looks", e);
	}
	return 0;
}

int store_looks_seen(struct store *s, const char *key, int below, int64_t **ids, size_t *n, struct err *e)
{
	*ids = NULL;
	*n = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT DISTINCT CAST(j.value AS INTEGER) FROM look, json_each(look.runs) AS j WHERE look.key = ? "
			  "AND look.question < ? ORDER BY 1",
			  &st, e))
		return -1;
	store_bind_text(st, 1, key);
	sqlite3_bind_int(st, 2, below);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 64;
			*ids = xrealloc(*ids, cap * sizeof **ids);
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*ids);
		*ids = NULL;
		*n = 0;
		return store_fail(s, "cannot read the runs earlier looks saw", e);
	}
	return 0;
}

int store_look_add(struct store *s, const struct store_look *x, const int64_t *ids, size_t nids, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "INSERT INTO look(key, question, k, at_ns, fingerprint, max_boots, withheld, design, runs, "
			  "verdicts) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key, question, fingerprint) DO UPDATE "
			  "SET max_boots = excluded.max_boots, withheld = 0, verdicts = excluded.verdicts, at_ns = "
			  "excluded.at_ns WHERE look.withheld AND NOT excluded.withheld",
			  &st, e))
		return -1;
	char *runs = store_ids_json(ids, nids);
	store_bind_text(st, 1, x->key);
	sqlite3_bind_int(st, 2, x->question);
	sqlite3_bind_int(st, 3, x->k);
	sqlite3_bind_int64(st, 4, (int64_t)x->at_ns);
	store_bind_text(st, 5, x->fingerprint);
	sqlite3_bind_int(st, 6, x->max_boots);
	sqlite3_bind_int(st, 7, x->withheld);
	store_bind_text(st, 8, x->design ? x->design : "{}");
	store_bind_text(st, 9, runs);
	store_bind_text(st, 10, x->verdicts ? x->verdicts : "{}");
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	free(runs);
	return rc == SQLITE_DONE ? 0 : store_fail(s, "cannot record the look", e);
}

void store_looks_free(struct store_look *x, size_t n)
{
	for (size_t i = 0; x && i < n; i++) {
		free(x[i].key);
		free(x[i].fingerprint);
		free(x[i].design);
		free(x[i].verdicts);
	}
	free(x);
}
