/* query.c - reading runs, their slots and samples back from the database. */
#include "store_impl.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define RUN_COLUMNS                                                                                    \
	"run.id, run.started_ns, run.finished_ns, run.status, run.reason, run.source, run.settings, "     \
	"run.seed, run.overhead_ns, boot.boot_id, boot.kernel_release, boot.kernel_version, "             \
	"machine.hostname, machine.cpu_model, machine.ncpus, machine.mem_bytes, run.uuid, "              \
	"(SELECT campaign.name FROM campaign_run JOIN campaign ON campaign.id = campaign_run.campaign "     \
	"WHERE campaign_run.run = run.id), "                                                                \
	"(SELECT value FROM environment WHERE environment.run = run.id AND key = 'campaign.duet_block') "  \
	"FROM run JOIN boot ON boot.id = run.boot JOIN machine ON machine.id = boot.machine "

/* Decode r's design units and allocation (struct store_run_info) from its settings and the text of its
 * campaign.duet_block (NULL when absent). Text that is not what sysab writes (a settings object
 * without a string pair, a block that is not a whole number >= 0) decodes to no unit. */
static void design_units(struct store_run_info *r, const char *block)
{
	json_t *j = r->settings && *r->settings ? json_loads(r->settings, 0, NULL) : NULL;
	const char *pair = json_string_value(json_object_get(j, "pair"));
	const char *arm = json_string_value(json_object_get(j, "arm"));
	const char *arm_cmd = json_string_value(json_object_get(j, "arm_command"));
	json_t *node = json_object_get(j, "node");
	json_t *alloc = json_object_get(j, "allocation");
	const char *from = json_string_value(json_object_get(alloc, "from"));
	if (from) {
		r->alloc_from = xstrdup(from);
		r->alloc_runs = json_array_size(json_object_get(alloc, "from_runs"));
		r->alloc_workloads = json_array_size(json_object_get(alloc, "allocated"));
	}
	r->pair = pair ? xstrdup(pair) : NULL;
	r->arm = arm ? xstrdup(arm) : NULL;
	r->arm_cmd = arm_cmd ? xstrdup(arm_cmd) : NULL;
	if (json_is_integer(node) && json_integer_value(node) >= 0 && json_integer_value(node) <= INT_MAX) {
		r->on_node = true;
		r->node = (int)json_integer_value(node);
	}
	r->settings_obj = json_is_object(j) ? j : NULL;
	if (!r->settings_obj)
		json_decref(j);
	char *end = NULL;
	errno = 0;
	long long b = block && *block >= '0' && *block <= '9' ? strtoll(block, &end, 10) : -1;
	if (b >= 0 && end && !*end && !errno) {
		r->in_duet = true;
		r->duet_block = b;
	}
}

static int int_cmp(const void *pa, const void *pb)
{
	int a = *(const int *)pa, b = *(const int *)pb;
	return a < b ? -1 : a > b;
}

int store_campaign_nodes(struct store *s, const char *name, size_t *n, struct err *e)
{
	*n = 0;
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run.settings FROM campaign_run cr JOIN campaign c ON c.id = cr.campaign "
			  "JOIN run ON run.id = cr.run WHERE c.name = ?",
			  &st, e))
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
	int *nodes = NULL, rc;
	size_t cap = 0, k = 0;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_info r = {.settings = store_col_text(st, 0)};
		design_units(&r, NULL);
		if (r.on_node) {
			nodes = xgrow(nodes, &cap, k + 1, sizeof *nodes);
			nodes[k++] = r.node;
		}
		store_run_info_free(&r);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(nodes);
		return store_fail(s, "cannot read the campaign's runs", e);
	}
	if (k)
		qsort(nodes, k, sizeof *nodes, int_cmp);
	for (size_t i = 0; i < k; i++)
		*n += !i || nodes[i] != nodes[i - 1];
	free(nodes);
	return 0;
}

static void read_run_row(sqlite3_stmt *st, struct store_run_info *r)
{
	memset(r, 0, sizeof *r);
	r->id = sqlite3_column_int64(st, 0);
	r->started_ns = (uint64_t)sqlite3_column_int64(st, 1);
	r->finished_ns = (uint64_t)sqlite3_column_int64(st, 2);
	r->status = store_col_text(st, 3);
	r->state = store_run_status_of(r->status);
	r->reason = store_col_text(st, 4);
	r->source = store_col_text(st, 5);
	r->settings = store_col_text(st, 6);
	r->seed = (uint64_t)sqlite3_column_int64(st, 7);
	r->overhead_ns = sqlite3_column_type(st, 8) == SQLITE_NULL ? -1 : sqlite3_column_double(st, 8);
	r->boot_id = store_col_text(st, 9);
	r->kernel_release = store_col_text(st, 10);
	r->kernel_version = store_col_text(st, 11);
	r->hostname = store_col_text(st, 12);
	r->cpu_model = store_col_text(st, 13);
	r->ncpus = sqlite3_column_int(st, 14);
	r->mem_bytes = (uint64_t)sqlite3_column_int64(st, 15);
	r->uuid = store_col_text(st, 16);
	r->campaign = store_col_text_or_null(st, 17);
	design_units(r, (const char *)sqlite3_column_text(st, 18));
}

/* Fill one kvlist per run from "SELECT run, key, value FROM <table> ORDER BY run, key".
 * runs[] is sorted by id. */
static int read_kv(struct store *s, const char *sql, int64_t only, struct store_run_info *runs, size_t n,
		   bool env, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, e))
		return -1;
	if (only)
		sqlite3_bind_int64(st, 1, only);
	size_t j = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		while (j < n && runs[j].id < run)
			j++;
		if (j == n)
			break;
		if (runs[j].id != run)
			continue;
		struct kvlist *l = env ? &runs[j].env : &runs[j].labels;
		const char *k = (const char *)sqlite3_column_text(st, 1);
		size_t nk = (size_t)sqlite3_column_bytes(st, 1);
		const char *v = (const char *)sqlite3_column_text(st, 2);
		size_t nv = (size_t)sqlite3_column_bytes(st, 2);
		if ((k && !text_is_utf8(k, nk)) || (v && !text_is_utf8(v, nv))) {
			/* sysab's doors (-l, the importers) refuse such text: never cut it or drop it silently */
			sqlite3_finalize(st);
			return errf(e, "%s: run %lld has a%s %s whose key or value is not valid UTF-8 or holds a NUL "
				       "byte (sysab never writes such text); correct it with sqlite3 or use another "
				       "database",
				    store_path(s), (long long)run, env ? "n" : "", env ? "environment entry" : "label");
		}
		kv_add(l, k ? k : "", v ? v : "");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, "cannot read labels", e);
	return 0;
}

static int read_workloads(struct store *s, int64_t only, struct store_run_info *runs, size_t n, struct err *e)
{
	sqlite3_stmt *st;
	const char *sql = only ? "SELECT DISTINCT run, workload FROM slot WHERE run = ? ORDER BY run, workload"
			       : "SELECT DISTINCT run, workload FROM slot ORDER BY run, workload";
	if (store_prepare(s, sql, &st, e))
		return -1;
	if (only)
		sqlite3_bind_int64(st, 1, only);
	size_t j = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		while (j < n && runs[j].id < run)
			j++;
		if (j == n)
			break;
		if (runs[j].id == run)
			strv_add(&runs[j].workloads, (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, "cannot read workloads", e);
	return 0;
}

static int runs_list(struct store *s, bool workloads, struct store_run_info **out, size_t *nout, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT " RUN_COLUMNS "ORDER BY run.id", &st, e))
		return -1;
	struct store_run_info *runs = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		runs = xgrow(runs, &cap, n + 1, sizeof *runs);
		read_run_row(st, &runs[n++]);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_runs_free(runs, n);
		return store_fail(s, "cannot list runs", e);
	}
	if (read_kv(s, "SELECT run, key, value FROM label ORDER BY run, key", 0, runs, n, false, e) ||
	    (workloads && read_workloads(s, 0, runs, n, e))) {
		store_runs_free(runs, n);
		return -1;
	}
	*out = runs;
	*nout = n;
	return 0;
}

int store_runs_list(struct store *s, struct store_run_info **out, size_t *nout, struct err *e)
{
	return runs_list(s, true, out, nout, e);
}

int store_runs_list_bare(struct store *s, struct store_run_info **out, size_t *nout, struct err *e)
{
	return runs_list(s, false, out, nout, e);
}

int store_run_get(struct store *s, int64_t id, struct store_run_info *r, struct err *e)
{
	sqlite3_stmt *st;
	memset(r, 0, sizeof *r);
	if (store_prepare(s, "SELECT " RUN_COLUMNS "WHERE run.id = ?", &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		read_run_row(st, r);
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return errf(e, "run %lld: no such run in %s; `sysab list` shows the runs", (long long)id, s->path);
	if (rc != SQLITE_ROW)
		return store_fail(s, "cannot read the run", e);
	if (read_kv(s, "SELECT run, key, value FROM label WHERE run = ? ORDER BY key", id, r, 1, false, e) ||
	    read_kv(s, "SELECT run, key, value FROM environment WHERE run = ? ORDER BY key", id, r, 1, true, e) ||
	    read_workloads(s, id, r, 1, e)) {
		store_run_info_free(r);
		return -1;
	}
	return 0;
}

void store_run_info_free(struct store_run_info *r)
{
	if (!r)
		return;
	free(r->status);
	free(r->reason);
	free(r->source);
	free(r->settings);
	free(r->boot_id);
	free(r->kernel_release);
	free(r->kernel_version);
	free(r->hostname);
	free(r->cpu_model);
	free(r->uuid);
	free(r->campaign);
	free(r->pair);
	free(r->arm);
	free(r->arm_cmd);
	free(r->alloc_from);
	json_decref(r->settings_obj);
	kv_free(&r->labels);
	kv_free(&r->env);
	strv_free(&r->workloads);
	memset(r, 0, sizeof *r);
}

void store_runs_free(struct store_run_info *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		store_run_info_free(&runs[i]);
	free(runs);
}

int store_slots_get(struct store *s, int64_t run_id, struct store_slot_info **out, size_t *nout, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT workload, copies, unit, latency, status, reason, batch_ops, overhead_ns, checks "
			  "FROM slot WHERE run = ? ORDER BY workload, copies",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	struct store_slot_info *v = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xgrow(v, &cap, n + 1, sizeof *v);
		struct store_slot_info *x = &v[n++];
		x->workload = store_col_text(st, 0);
		x->copies = sqlite3_column_int(st, 1);
		x->unit = store_col_text(st, 2);
		x->latency = sqlite3_column_int(st, 3);
		x->status = store_col_text(st, 4);
		x->state = store_slot_status_of(x->status);
		x->reason = store_col_text(st, 5);
		x->batch_ops = (uint64_t)sqlite3_column_int64(st, 6);
		x->overhead_ns = sqlite3_column_double(st, 7);
		x->checks = store_col_text(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_slots_free(v, n);
		return store_fail(s, "cannot read the workloads of a run", e);
	}
	*out = v;
	*nout = n;
	return 0;
}

void store_slots_free(struct store_slot_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].workload);
		free(v[i].unit);
		free(v[i].status);
		free(v[i].reason);
		free(v[i].checks);
	}
	free(v);
}

int store_samples_get(struct store *s, int64_t run_id, struct store_sample_info **out, size_t *nout,
		      struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT workload, copies, seq, round, warmup, ops, elapsed_ns, value, dropped FROM sample "
			  "WHERE run = ? ORDER BY workload, copies, seq",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	struct store_sample_info *v = NULL;
	size_t n = 0, cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		v = xgrow(v, &cap, n + 1, sizeof *v);
		struct store_sample_info *x = &v[n++];
		x->workload = store_col_text(st, 0);
		x->copies = sqlite3_column_int(st, 1);
		x->seq = sqlite3_column_int(st, 2);
		x->round = sqlite3_column_int(st, 3);
		x->warmup = sqlite3_column_int(st, 4);
		x->ops = (uint64_t)sqlite3_column_int64(st, 5);
		x->elapsed_ns = (uint64_t)sqlite3_column_int64(st, 6);
		x->value = sqlite3_column_double(st, 7);
		x->dropped = sqlite3_column_int(st, 8);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		store_samples_free(v, n);
		return store_fail(s, "cannot read samples", e);
	}
	*out = v;
	*nout = n;
	return 0;
}

void store_samples_free(struct store_sample_info *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].workload);
	free(v);
}

int store_run_by_uuid(struct store *s, const char *uuid, int64_t *id, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT id FROM run WHERE uuid = ?", &st, e))
		return -1;
	store_bind_text(st, 1, uuid);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_fail(s, "cannot look up a run by uuid", e);
	return rc == SQLITE_ROW;
}

static const char *const run_words[] = {
	[STORE_RUN_RUNNING] = "running",
	[STORE_RUN_COMPLETE] = "complete",
	[STORE_RUN_INCOMPLETE] = "incomplete",
	[STORE_RUN_INTERRUPTED] = "interrupted",
	[STORE_RUN_IMPORTED] = "imported",
	[STORE_RUN_UNKNOWN] = "unknown",
};

static const char *const slot_words[] = {
	[STORE_SLOT_OK] = "ok",
	[STORE_SLOT_UNSUPPORTED] = "unsupported",
	[STORE_SLOT_NO_RESOURCE] = "no-resource",
	[STORE_SLOT_ERROR] = "error",
	[STORE_SLOT_STOPPED] = "stopped",
	[STORE_SLOT_UNKNOWN] = "unknown",
};

/* The index of word in words[0..n-1], or n when it is not there. */
static int word_index(const char *const *words, int n, const char *word)
{
	int i = 0;
	while (i < n && !(word && !strcmp(word, words[i])))
		i++;
	return i;
}

const char *store_run_status_word(enum store_run_status s)
{
	return s <= STORE_RUN_UNKNOWN ? run_words[s] : run_words[STORE_RUN_UNKNOWN];
}

enum store_run_status store_run_status_of(const char *word)
{
	return (enum store_run_status)word_index(run_words, STORE_RUN_UNKNOWN, word);
}

const char *store_slot_status_word(enum store_slot_status s)
{
	return s <= STORE_SLOT_UNKNOWN ? slot_words[s] : slot_words[STORE_SLOT_UNKNOWN];
}

enum store_slot_status store_slot_status_of(const char *word)
{
	return (enum store_slot_status)word_index(slot_words, STORE_SLOT_UNKNOWN, word);
}
