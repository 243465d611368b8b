/* export.c - reading every sample of chosen runs, with its slot's unit, for `sysab export`; and the failed self-checks of runs. */
#include "store_impl.h"

#include <stdlib.h>
#include <string.h>

int store_export_load(struct store *s, const int64_t *ids, size_t n, struct store_export *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct sb js = {0};
	sb_add(&js, "[");
	for (size_t i = 0; i < n; i++)
		sb_addf(&js, "%s%lld", i ? "," : "", (long long)ids[i]);
	sb_add(&js, "]");
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT sample.run, sample.workload, sample.copies, sample.seq, sample.round, sample.warmup, "
			  "sample.ops, sample.elapsed_ns, sample.value, COALESCE(slot.unit, 'op'), COALESCE(slot.latency, 0), "
			  "sample.dropped "
			  "FROM sample LEFT JOIN slot ON slot.run = sample.run AND slot.workload = sample.workload "
			  "AND slot.copies = sample.copies "
			  "WHERE sample.run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY sample.run, sample.workload, sample.copies, sample.seq",
			  &st, e)) {
		sb_free(&js);
		return -1;
	}
	sqlite3_bind_text(st, 1, sb_str(&js), -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		out->v = xgrow(out->v, &cap, out->n + 1, sizeof *out->v);
		struct store_export_sample *x = &out->v[out->n++];
		x->run = sqlite3_column_int64(st, 0);
		x->workload = store_col_text(st, 1);
		x->copies = sqlite3_column_int(st, 2);
		x->seq = sqlite3_column_int(st, 3);
		x->round = sqlite3_column_int(st, 4);
		x->warmup = sqlite3_column_int(st, 5);
		x->ops = (uint64_t)sqlite3_column_int64(st, 6);
		x->elapsed_ns = (uint64_t)sqlite3_column_int64(st, 7);
		x->value = sqlite3_column_double(st, 8);
		x->unit = store_col_text(st, 9);
		x->latency = sqlite3_column_int(st, 10);
		x->dropped = sqlite3_column_int(st, 11);
	}
	sqlite3_finalize(st);
	sb_free(&js);
	if (rc != SQLITE_DONE) {
		store_export_free(out);
		return store_fail(s, "cannot read samples", e);
	}
	return 0;
}

void store_export_free(struct store_export *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n; i++) {
		free(x->v[i].workload);
		free(x->v[i].unit);
	}
	free(x->v);
	memset(x, 0, sizeof *x);
}

int store_failed_checks(struct store *s, const int64_t *ids, size_t n, struct store_failed_check **out, size_t *nout,
			struct err *e)
{
	*out = NULL;
	*nout = 0;
	char *js = store_ids_json(ids, n);
	sqlite3_stmt *st;
	/* slot.checks is a JSON array of {name, ok, ...}; text that is not JSON holds no check */
	if (store_prepare(s,
			  "SELECT slot.run, slot.workload, slot.copies, COALESCE(json_extract(c.value, '$.name'), '?') "
			  "FROM slot, json_each(CASE WHEN json_valid(slot.checks) AND json_type(slot.checks) = 'array' "
			  "THEN slot.checks ELSE '[]' END) AS c "
			  "WHERE slot.run IN (SELECT value FROM json_each(?1)) AND slot.checks LIKE '%false%' "
			  "AND json_type(c.value, '$.ok') = 'false' "
			  "ORDER BY slot.workload, slot.copies, slot.run, c.key",
			  &st, e)) {
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *nout + 1, sizeof **out);
		struct store_failed_check *x = &(*out)[(*nout)++];
		x->run = sqlite3_column_int64(st, 0);
		x->workload = store_col_text(st, 1);
		x->copies = sqlite3_column_int(st, 2);
		x->check = store_col_text(st, 3);
	}
	sqlite3_finalize(st);
	free(js);
	if (rc != SQLITE_DONE) {
		store_failed_checks_free(*out, *nout);
		*out = NULL;
		*nout = 0;
		return store_fail(s, "cannot read the self-checks of the runs", e);
	}
	return 0;
}

void store_failed_checks_free(struct store_failed_check *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].check);
	}
	free(v);
}
