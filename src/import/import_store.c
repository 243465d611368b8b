/* import_store.c - turning parsed CSV rows and UnixBench logs into stored runs. */
#include "import/import_store.h"
#include "import/import_check.h"
#include "import/import_util.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

void import_result_free(struct import_result *r)
{
	if (r)
		strv_free(&r->unknown);
}

void import_hash(const char *buf, size_t len, char out[17])
{
	uint64_t h = 14695981039346656037ull;
	for (size_t i = 0; i < len; i++) {
		h ^= (unsigned char)buf[i];
		h *= 1099511628211ull;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static char *settings_json(const char *source, const char *name, const char *hash, const char *run_key,
			   const char *command)
{
	json_t *o = json_object();
	json_object_set_new(o, "import", json_string(source));
	const char *base = strrchr(name, '/');
	json_object_set_new(o, "file", json_string(base ? base + 1 : name));
	json_object_set_new(o, "hash", json_string(hash));
	if (run_key)
		json_object_set_new(o, "run_key", json_string(run_key));
	if (command)
		json_object_set_new(o, "command", json_string(command));
	char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(o);
	return s;
}

/* The stored slot unit and latency flag for a CSV unit (values are already ops/s). */
static void csv_unit(const char *u, const char **unit, int *latency)
{
	*latency = 0;
	if (!strcmp(u, "ns/op") || !strcmp(u, "us/op") || !strcmp(u, "ms/op") || !strcmp(u, "s/op")) {
		*unit = "op";
		*latency = 1;
	} else if (!strcmp(u, "ops/s")) {
		*unit = "op";
	} else if (!strcmp(u, "lpm")) {
		*unit = "lps";
	} else {
		*unit = u;
	}
}

/* Labels of a run: the -l labels plus the row's; a conflict is an error naming the line. */
static int merge_labels(const char *name, const struct csv_row *row, const struct kvlist *given, struct kvlist *out,
			struct err *e)
{
	for (size_t i = 0; given && i < given->n; i++)
		kv_add(out, given->v[i].key, given->v[i].value);
	for (size_t i = 0; i < row->labels.n; i++) {
		const char *have = kv_get(out, row->labels.v[i].key);
		if (have && strcmp(have, row->labels.v[i].value))
			return errf(e, "%s:%zu: label %s=%s conflicts with -l %s=%s; drop one of them", name, row->line,
				    row->labels.v[i].key, row->labels.v[i].value, row->labels.v[i].key, have);
		if (!have)
			kv_add(out, row->labels.v[i].key, row->labels.v[i].value);
	}
	kv_sort(out);
	return 0;
}

static bool same_labels(const struct kvlist *a, const struct kvlist *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i].key, b->v[i].key) || strcmp(a->v[i].value, b->v[i].value))
			return false;
	return true;
}

/* The boots a file's runs were stored on so far: a hash set of owned strings (open
 * addressing, at most half full), so that a file of n rows each on its own boot (no run
 * and no boot column) is counted in O(n), not O(n^2) (issue 34 item 6). */
struct boot_set {
	char **slot;
	size_t cap, n;
};

static uint64_t str_hash(const char *s)
{
	uint64_t h = 14695981039346656037ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Add id; true when it was new. */
static bool boot_set_add(struct boot_set *b, const char *id)
{
	if (2 * (b->n + 1) > b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		char **slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < b->cap; i++)
			if (b->slot[i]) {
				size_t j = str_hash(b->slot[i]) & (cap - 1);
				while (slot[j])
					j = (j + 1) & (cap - 1);
				slot[j] = b->slot[i];
			}
		free(b->slot);
		b->slot = slot;
		b->cap = cap;
	}
	size_t j = str_hash(id) & (b->cap - 1);
	for (; b->slot[j]; j = (j + 1) & (b->cap - 1))
		if (!strcmp(b->slot[j], id))
			return false;
	b->slot[j] = xstrdup(id);
	b->n++;
	return true;
}

static void boot_set_free(struct boot_set *b)
{
	for (size_t i = 0; i < b->cap; i++)
		free(b->slot[i]);
	free(b->slot);
	memset(b, 0, sizeof *b);
}

static void note_boot(struct boot_set *boots, const char *id, struct import_result *res)
{
	if (boot_set_add(boots, id))
		res->nboots++;
}

static void note_run(int64_t id, struct import_result *res)
{
	if (!res->nruns++)
		res->first_run = id;
	res->last_run = id;
}

static bool same_slot(const struct csv_row *x, const struct csv_row *y)
{
	return !strcmp(x->run, y->run) && !strcmp(x->workload, y->workload) && x->copies == y->copies;
}

/* Row order (qsort_r over row indexes, rows the context): by run key, then workload and
 * copies, then file order. */
static int by_run_slot(const void *pa, const void *pb, void *rows)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct csv_row *x = (const struct csv_row *)rows + a, *y = (const struct csv_row *)rows + b;
	int d = strcmp(x->run, y->run);
	if (!d)
		d = strcmp(x->workload, y->workload);
	if (!d)
		d = (x->copies > y->copies) - (x->copies < y->copies);
	return d ? d : (a > b) - (a < b);
}

/* By run key, then file order. */
static int by_run_line(const void *pa, const void *pb, void *rows)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	int d = strcmp(((const struct csv_row *)rows)[a].run, ((const struct csv_row *)rows)[b].run);
	return d ? d : (a > b) - (a < b);
}

/* A run of the file: rows ord[start..end), in file order. */
struct csv_run {
	size_t start, end;
};

/* Runs in the order of their first row (ord the context). */
static int by_first_row(const void *pa, const void *pb, void *ord)
{
	size_t a = ((const size_t *)ord)[((const struct csv_run *)pa)->start];
	size_t b = ((const size_t *)ord)[((const struct csv_run *)pb)->start];
	return (a > b) - (a < b);
}

/* Group the rows of c by run in O(n log n): ord (new array) lists the rows run by run, each
 * run's rows in file order, the runs in order of their first row; *runs (new array) gives
 * each run's stretch of ord; seq[i] (new array) counts the earlier rows of row i's run with
 * its workload and copies (the sample's sequence number). */
static void group_rows(const struct csv_import *c, size_t **ord, size_t **seq, struct csv_run **runs, size_t *nruns)
{
	size_t n = c->nrow;
	size_t *o = xcalloc(n, sizeof *o), *q = xcalloc(n, sizeof *q);
	for (size_t i = 0; i < n; i++)
		o[i] = i;
	qsort_r(o, n, sizeof *o, by_run_slot, c->row);
	for (size_t i = 0; i < n; i++)
		q[o[i]] = i && same_slot(&c->row[o[i - 1]], &c->row[o[i]]) ? q[o[i - 1]] + 1 : 0;
	qsort_r(o, n, sizeof *o, by_run_line, c->row);
	struct csv_run *r = NULL;
	size_t nr = 0, cap = 0;
	for (size_t i = 0; i < n; i++) {
		if (i && !strcmp(c->row[o[i - 1]].run, c->row[o[i]].run))
			continue;
		if (nr)
			r[nr - 1].end = i;
		r = xgrow(r, &cap, nr + 1, sizeof *r);
		r[nr++] = (struct csv_run){i, n};
	}
	qsort_r(r, nr, sizeof *r, by_first_row, o);
	*ord = o;
	*seq = q;
	*runs = r;
	*nruns = nr;
}

/* Store one run of the file: its rows ord[run->start..run->end). */
static int store_csv_run(struct store *s, const char *name, const char *hash, const struct csv_import *c,
			 const struct import_opts *o, const size_t *ord, const size_t *seq, const struct csv_run *run,
			 struct boot_set *boots, struct import_result *res, struct err *e)
{
	const struct csv_row *r0 = &c->row[ord[run->start]];
	struct kvlist labels = {0}, other = {0};
	int rc = merge_labels(name, r0, o->labels, &labels, e);
	if (rc)
		goto out;
	char *boot = xasprintf("import:%s:%s", hash, r0->boot);
	char *settings = settings_json("csv", name, hash, r0->run, NULL);
	struct store_run_new rn = {
		.host = {o->machine ? o->machine : "imported", "unknown", 0, 0, boot, o->kernel ? o->kernel : "unknown", ""},
		.started_ns = clock_wall_ns(),
		.status = store_run_status_word(STORE_RUN_IMPORTED),
		.source = r0->source ? r0->source : "csv", /* an export keeps its runs' sources */
		.settings = settings,
		.labels = &labels,
	};
	int64_t id;
	rc = import_put_run(s, name, &rn, &id, e);
	note_boot(boots, boot, res);
	free(boot);
	free(settings);
	if (rc)
		goto out;
	note_run(id, res);
	for (size_t j = run->start; j < run->end && !rc; j++) {
		const struct csv_row *r = &c->row[ord[j]];
		kv_free(&other);
		if (merge_labels(name, r, o->labels, &other, e)) {
			rc = -1;
			break;
		}
		if (!same_labels(&labels, &other)) {
			rc = errf(e, "%s:%zu: this row of run '%s' has other labels than its line %zu; rows of one run "
				     "share their labels",
				  name, r->line, r->run, r0->line);
			break;
		}
		const char *unit = r->unit;
		int latency = r->latency;
		if (!r->op_unit)
			csv_unit(r->unit, &unit, &latency);
		struct store_slot sl = {r->workload, (int)r->copies, unit, latency, store_slot_status_word(STORE_SLOT_OK), NULL, 0, 0, NULL};
		struct store_sample x = {r->workload, (int)r->copies, (int)seq[ord[j]], -1, 0, 0, r->value, r->warmup, r->dropped};
		rc = import_put_slot(s, name, id, &sl, e) || import_put_sample(s, name, id, &x, e) ? -1 : 0;
		res->nvalues++;
	}
out:
	kv_free(&labels);
	kv_free(&other);
	return rc;
}

/* One transaction over the file's runs, boots, slots and samples, rolled back as one. */
int import_store_csv(struct store *s, const char *name, const char *hash, const struct csv_import *c,
		     const struct import_opts *o, struct import_result *res, struct err *e)
{
	memset(res, 0, sizeof *res);
	if (!c->nrow)
		return errf(e, "%s: no rows to import; add rows below the header", name);
	char *probe = xasprintf("import:%s:%s", hash, c->row[0].boot);
	int ex = store_boot_exists(s, probe, e);
	free(probe);
	if (ex < 0)
		return -1;
	if (ex)
		return errf(e, "%s: this file was imported before (same content); nothing stored", name);
	if (store_begin(s, e))
		return -1;
	size_t *ord, *seq, nruns;
	struct csv_run *runs;
	group_rows(c, &ord, &seq, &runs, &nruns);
	struct boot_set boots = {0};
	int rc = 0;
	for (size_t i = 0; i < nruns && !rc; i++)
		rc = store_csv_run(s, name, hash, c, o, ord, seq, &runs[i], &boots, res, e);
	boot_set_free(&boots);
	free(ord);
	free(seq);
	free(runs);
	if (rc) {
		store_rollback(s);
		memset(res, 0, sizeof *res);
		return -1;
	}
	return store_commit(s, e);
}

/* The stored unit of a UnixBench test: the sysab workload's when there is one. */
static void ub_unit(const struct ub_test *t, const char **unit, int *latency)
{
	const struct workload *w = t->unknown ? NULL : wl_find(t->workload);
	*latency = 0;
	if (w) {
		*unit = w->unit;
		*latency = (w->flags & WL_LATENCY) != 0;
	} else if (!strcmp(t->unit, "lps") || !strcmp(t->unit, "lpm")) {
		*unit = "lps";
	} else if (!strcmp(t->unit, "KBps") || !strcmp(t->unit, "MWIPS")) {
		*unit = t->unit;
	} else {
		*unit = "op";
	}
}

/* Store the sections of run k of log as one new run on boot. Inside the open transaction. */
static int store_ub_run(struct store *s, const char *name, const char *hash, const struct ub_log *log, size_t k,
			const char *boot, const struct import_opts *o, struct import_result *res, struct err *e)
{
	struct kvlist labels = {0};
	for (size_t i = 0; o->labels && i < o->labels->n; i++)
		kv_add(&labels, o->labels->v[i].key, o->labels->v[i].value);
	kv_sort(&labels);
	char *settings = settings_json("unixbench", name, hash, NULL, o->command);
	struct store_run_new rn = {
		.host = {o->machine ? o->machine : "imported", "unknown", 0, 0, boot, o->kernel ? o->kernel : "unknown", ""},
		.started_ns = o->started_ns ? o->started_ns : clock_wall_ns(),
		.status = store_run_status_word(STORE_RUN_IMPORTED),
		.source = "unixbench",
		.settings = settings,
		.labels = &labels,
		.env = o->env,
	};
	if (o->host) {
		rn.host = *o->host;
		rn.host.boot_id = boot;
	}
	int64_t run;
	int rc = import_put_run(s, name, &rn, &run, e);
	free(settings);
	kv_free(&labels);
	if (rc)
		return -1;
	note_run(run, res);
	for (size_t i = 0; i < log->ntest && !rc; i++) {
		const struct ub_test *t = &log->test[i];
		if (t->run != k)
			continue;
		if (t->unknown && !strv_has(&res->unknown, t->name))
			strv_add(&res->unknown, t->name);
		int seq0 = 0; /* a test repeated in one run continues its seq */
		for (size_t j = 0; j < i; j++)
			if (log->test[j].run == k && !strcmp(log->test[j].workload, t->workload) &&
			    log->test[j].copies == t->copies)
				seq0 += (int)log->test[j].npass;
		const char *unit;
		int latency;
		ub_unit(t, &unit, &latency);
		/* a known test is stored in ops/s of its workload: UnixBench's unit / wl_unixbench_units */
		const struct workload *w = t->unknown ? NULL : wl_find(t->workload);
		struct store_slot sl = {t->workload, (int)t->copies, unit, latency, store_slot_status_word(STORE_SLOT_OK), NULL, 0, 0, NULL};
		rc = import_put_slot(s, name, run, &sl, e);
		for (size_t p = 0; p < t->npass && !rc; p++) {
			const struct ub_pass *ps = &t->pass[p];
			double value = w ? ps->score / wl_unixbench_units(w) : ps->ops_per_s;
			if (!(value >= IMPORT_MIN_VALUE && value <= IMPORT_MAX_VALUE)) {
				rc = errf(e, "%s:%zu: pass %u of '%s' gives %g ops/s, out of range (%g to %g); fix "
					  "or drop the pass", name, ps->line, ps->number, t->name, value,
					  IMPORT_MIN_VALUE, IMPORT_MAX_VALUE);
				break;
			}
			double el = 0;
			for (size_t c = 0; c < ps->ncopy; c++)
				el += ps->copy[c].elapsed;
			el = ps->ncopy ? el / (double)ps->ncopy : 0;
			struct store_sample x = {t->workload, (int)t->copies, seq0 + (int)p, -1,
						 ps->count > 0 && ps->count < 9.2e18 ? (uint64_t)ps->count : 0,
						 el > 0 ? (uint64_t)(el * 1e9) : 0, value, 0, ps->discarded};
			rc = import_put_sample(s, name, run, &x, e);
			res->nvalues++;
		}
	}
	if (!rc && o->finished_ns)
		rc = store_run_set_end(s, run, rn.status, NULL, o->finished_ns, -1, e);
	return rc;
}

int import_store_unixbench(struct store *s, const char *name, const char *hash, const struct ub_log *log,
			   const struct import_opts *o, struct import_result *res, struct err *e)
{
	memset(res, 0, sizeof *res);
	if (!log->ntest)
		return errf(e, "%s: no complete test section in the log; give a UnixBench results/*.log file", name);
	char *boot = o->host ? xstrdup(o->host->boot_id)
		     : o->boot ? xasprintf("import:boot:%s", o->boot)
			       : xasprintf("import:%s", hash);
	if (!o->boot && !o->host) {
		int ex = store_boot_exists(s, boot, e);
		if (ex) {
			free(boot);
			return ex < 0 ? -1 : errf(e, "%s: this log was imported before (same content); nothing stored", name);
		}
	}
	int rc = store_begin(s, e);
	if (rc) {
		free(boot);
		return -1;
	}
	res->nboots = 1;
	/* the runs of a log appended one after another: each its own run, all on the log's boot */
	for (size_t k = 0; k < log->nrun && !rc; k++)
		rc = store_ub_run(s, name, hash, log, k, boot, o, res, e);
	free(boot);
	if (rc) {
		store_rollback(s);
		import_result_free(res);
		memset(res, 0, sizeof *res);
		return -1;
	}
	return store_commit(s, e);
}

int import_file_store(struct store *s, bool csv, const char *path, const char *name, const struct import_opts *o,
		      struct import_result *res, struct err *e)
{
	if (!name)
		name = path;
	memset(res, 0, sizeof *res);
	size_t len;
	struct stat sb;
	bool in = !strcmp(path, "-");
	if (!in && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode))
		return errf(e, "%s: not a regular file (a FIFO, device or directory would block or mislead); give "
			       "a file, or - for standard input",
			    name);
	char *buf = read_whole_file(in ? "/dev/stdin" : path, (size_t)256 << 20, &len, e);
	if (!buf)
		return -1;
	char hash[17];
	import_hash(buf, len, hash);
	int rc;
	if (csv) {
		struct csv_import c;
		rc = import_csv_parse(name, buf, len, &c, e);
		if (!rc)
			rc = import_store_csv(s, name, hash, &c, o, res, e);
		import_csv_free(&c);
	} else {
		struct ub_log log;
		rc = import_unixbench_parse(name, buf, len, &log, e);
		if (!rc)
			rc = import_store_unixbench(s, name, hash, &log, o, res, e);
		import_unixbench_free(&log);
	}
	free(buf);
	return rc;
}
