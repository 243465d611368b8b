/* load.c - reading the samples of many runs at once, grouped for analysis. */
#include "store_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static double col_real(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

/* The samples of one run for one (workload, copies), before grouping. */
struct chunk {
	size_t wl; /* index into the interned names */
	int copies;
	size_t ev; /* counter sets: index into the interned events; 0 otherwise */
	int64_t run, boot;
	struct store_series_run r;
	double kept_sum; /* sum of y over the samples the source kept */
	size_t nkept;
};

/* The interned names chunks point into: workloads, and events (counter sets only). */
struct chunk_names {
	const struct strv *wl, *ev;
};

static int chunk_cmp(const void *pa, const void *pb, void *names)
{
	const struct chunk *a = pa, *b = pb;
	const struct chunk_names *nm = names;
	int c = strcmp(nm->wl->v[a->wl], nm->wl->v[b->wl]);
	if (c)
		return c;
	if (a->copies != b->copies)
		return a->copies < b->copies ? -1 : 1;
	if (nm->ev && (c = strcmp(nm->ev->v[a->ev], nm->ev->v[b->ev])))
		return c;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

static size_t intern(struct strv *names, const char *s)
{
	for (size_t i = names->n; i-- > 0;)
		if (!strcmp(names->v[i], s))
			return i;
	strv_add(names, s);
	return names->n - 1;
}

static void chunk_push(struct chunk *c, double y, int round, double elapsed_s, bool dropped, size_t *cap)
{
	if (!dropped) {
		c->kept_sum += y;
		c->nkept++;
	}
	size_t old = *cap;
	c->r.y = xgrow(c->r.y, cap, c->r.n + 1, sizeof *c->r.y);
	if (*cap != old) /* round shares the capacity of y */
		c->r.round = xrealloc(c->r.round, *cap * sizeof *c->r.round);
	c->r.y[c->r.n] = y;
	c->r.round[c->r.n] = round;
	c->r.n++;
	c->r.elapsed_s += elapsed_s;
}

/* Drop round when any sample lacks one or rounds go backwards. */
static void chunk_finish(struct chunk *c)
{
	double all = 0;
	for (size_t i = 0; i < c->r.n; i++)
		all += c->r.y[i];
	/* a source that discarded every sample of a slot kept none: its score is then all of them */
	c->r.kept_y = c->nkept ? c->kept_sum / (double)c->nkept : c->r.n ? all / (double)c->r.n : 0;
	bool ok = c->r.n > 0;
	for (size_t i = 0; ok && i < c->r.n; i++)
		ok = c->r.round[i] >= 0 && (i == 0 || c->r.round[i] >= c->r.round[i - 1]);
	if (!ok) {
		free(c->r.round);
		c->r.round = NULL;
	}
}

const struct store_series *store_set_find(const struct store_set *set, const char *wl, int copies)
{
	size_t lo = 0, hi = set->nseries;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct store_series *x = &set->series[mid];
		int c = strcmp(x->workload, wl);
		if (!c)
			c = x->copies < copies ? -1 : x->copies > copies;
		if (!c)
			return x;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* The same, for filling in a set being loaded. */
static struct store_series *find_series(struct store_set *set, const char *wl, int copies)
{
	return (struct store_series *)store_set_find(set, wl, copies);
}

static int load_units(struct store *s, const char *ids, struct store_set *set, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT workload, copies, unit, latency FROM slot "
			  "WHERE run IN (SELECT value FROM json_each(?1)) ORDER BY run",
			  &st, e))
		return -1;
	sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_series *x = find_series(set, (const char *)sqlite3_column_text(st, 0),
						     sqlite3_column_int(st, 1));
		if (x && !x->unit) {
			x->unit = store_col_text(st, 2);
			x->latency = sqlite3_column_int(st, 3);
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the workloads of the runs", e);
	for (size_t i = 0; i < set->nseries; i++)
		if (!set->series[i].unit)
			set->series[i].unit = xstrdup("op");
	return 0;
}

/* Turn chunks sorted by (workload, copies[, event], boot, run) into the nested set; takes
 * their arrays. events: the interned events of a counter set, else NULL. */
static void build(struct chunk *c, size_t n, const struct strv *names, const struct strv *events,
		  struct store_set *out)
{
	size_t cap = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && c[j].wl == c[i].wl && c[j].copies == c[i].copies && c[j].ev == c[i].ev)
			j++;
		out->series = xgrow(out->series, &cap, out->nseries + 1, sizeof *out->series);
		struct store_series *x = &out->series[out->nseries++];
		memset(x, 0, sizeof *x);
		x->workload = xstrdup(names->v[c[i].wl]);
		x->copies = c[i].copies;
		x->event = events ? xstrdup(events->v[c[i].ev]) : NULL;
		size_t nb = 0;
		for (size_t k = i; k < j; k++)
			nb += k == i || c[k].boot != c[k - 1].boot;
		x->boots = xcalloc(nb, sizeof *x->boots);
		for (size_t k = i; k < j;) {
			size_t m = k;
			while (m < j && c[m].boot == c[k].boot)
				m++;
			struct store_series_boot *b = &x->boots[x->nboots++];
			b->boot = c[k].boot;
			b->runs = xcalloc(m - k, sizeof *b->runs);
			for (size_t r = k; r < m; r++)
				b->runs[b->nruns++] = c[r].r;
			k = m;
		}
		i = j;
	}
}

/* The boot row id of each run, sorted by run id: one small query instead of a join per sample. */
struct run_boot {
	int64_t run, boot;
	bool ub_log;
};

static int load_boots(struct store *s, const char *ids, struct run_boot **out, size_t *n, struct err *e)
{
	sqlite3_stmt *st;
	*out = NULL;
	*n = 0;
	/* ids NULL: every run */
	if (store_prepare(s,
			  ids ? "SELECT id, boot, source = 'unixbench' FROM run WHERE id IN (SELECT value FROM json_each(?1)) "
				"ORDER BY id"
			      : "SELECT id, boot, source = 'unixbench' FROM run ORDER BY id",
			  &st, e))
		return -1;
	if (ids)
		sqlite3_bind_text(st, 1, ids, -1, SQLITE_STATIC);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*out = xgrow(*out, &cap, *n + 1, sizeof **out);
		(*out)[(*n)++] = (struct run_boot){sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
						     sqlite3_column_int(st, 2) != 0};
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(*out);
		*out = NULL;
		return store_fail(s, "cannot read the boots of the runs", e);
	}
	return 0;
}

static const struct run_boot *boot_of(const struct run_boot *rb, size_t n, int64_t run)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (rb[mid].run == run)
			return &rb[mid];
		if (rb[mid].run < run)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

int store_load_set(struct store *s, const int64_t *ids, size_t n, struct store_set *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	char *js = ids_json(ids, n);
	struct run_boot *rb;
	size_t nrb;
	if (load_boots(s, js, &rb, &nrb, e)) {
		free(js);
		return -1;
	}
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run, workload, copies, round, value, elapsed_ns, dropped FROM sample "
			  "WHERE warmup = 0 AND run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY run, workload, copies, seq",
			  &st, e)) {
		free(rb);
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	struct strv names = {0};
	struct chunk *c = NULL;
	size_t nc = 0, ccap = 0, ycap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		const char *wl = (const char *)sqlite3_column_text(st, 1);
		int copies = sqlite3_column_int(st, 2);
		struct chunk *cur = nc ? &c[nc - 1] : NULL;
		if (!cur || cur->run != run || cur->copies != copies || strcmp(names.v[cur->wl], wl ? wl : "")) {
			if (cur)
				chunk_finish(cur);
			c = xgrow(c, &ccap, nc + 1, sizeof *c);
			cur = &c[nc++];
			memset(cur, 0, sizeof *cur);
			cur->wl = intern(&names, wl ? wl : "");
			cur->copies = copies;
			cur->run = cur->r.run = run;
			const struct run_boot *b = boot_of(rb, nrb, run);
			cur->boot = b ? b->boot : 0;
			cur->r.ub_log = b && b->ub_log;
			ycap = 0;
		}
		chunk_push(cur, log(sqlite3_column_double(st, 4)), sqlite3_column_int(st, 3),
			   (double)sqlite3_column_int64(st, 5) * 1e-9, sqlite3_column_int(st, 6) != 0, &ycap);
	}
	sqlite3_finalize(st);
	free(rb);
	if (nc)
		chunk_finish(&c[nc - 1]);
	if (rc != SQLITE_DONE) {
		for (size_t i = 0; i < nc; i++) {
			free(c[i].r.y);
			free(c[i].r.round);
		}
		free(c);
		strv_free(&names);
		free(js);
		return store_fail(s, "cannot read samples", e);
	}
	struct chunk_names cn = {&names, NULL};
	if (nc)
		qsort_r(c, nc, sizeof *c, chunk_cmp, &cn);
	build(c, nc, &names, NULL, out);
	free(c);
	strv_free(&names);
	rc = load_units(s, js, out, e);
	free(js);
	if (rc) {
		store_set_free(out);
		return -1;
	}
	return 0;
}

/* Free the arrays of chunks c[0..n) (after an error, before build took them). */
static void chunks_free(struct chunk *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(c[i].r.y);
		free(c[i].r.round);
	}
	free(c);
}

int store_load_counter_set(struct store *s, const int64_t *ids, size_t n, struct store_set *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT EXISTS(SELECT 1 FROM sample_counter)", &st, e))
		return -1;
	bool any = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!any || !n)
		return 0; /* no counters anywhere: do not walk the samples */
	char *js = ids_json(ids, n);
	struct run_boot *rb;
	size_t nrb;
	if (load_boots(s, js, &rb, &nrb, e)) {
		free(js);
		return -1;
	}
	if (store_prepare(s,
			  "SELECT sample.run, sample.workload, sample.copies, sample.round, "
			  "CAST(c.value AS REAL) / sample.ops, c.event FROM sample_counter c JOIN sample ON sample.id = c.sample "
			  "WHERE sample.warmup = 0 AND sample.ops > 0 AND sample.run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY sample.run, sample.workload, sample.copies, c.event, sample.seq",
			  &st, e)) {
		free(rb);
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	struct strv names = {0}, events = {0};
	struct chunk *c = NULL;
	size_t nc = 0, ccap = 0, ycap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		const char *wl = (const char *)sqlite3_column_text(st, 1);
		int copies = sqlite3_column_int(st, 2);
		const char *ev = (const char *)sqlite3_column_text(st, 5);
		struct chunk *cur = nc ? &c[nc - 1] : NULL;
		if (!cur || cur->run != run || cur->copies != copies || strcmp(names.v[cur->wl], wl ? wl : "") ||
		    strcmp(events.v[cur->ev], ev ? ev : "")) {
			if (cur)
				chunk_finish(cur);
			c = xgrow(c, &ccap, nc + 1, sizeof *c);
			cur = &c[nc++];
			memset(cur, 0, sizeof *cur);
			cur->wl = intern(&names, wl ? wl : "");
			cur->ev = intern(&events, ev ? ev : "");
			cur->copies = copies;
			cur->run = cur->r.run = run;
			const struct run_boot *b = boot_of(rb, nrb, run);
			cur->boot = b ? b->boot : 0;
			ycap = 0;
		}
		chunk_push(cur, sqlite3_column_double(st, 4), sqlite3_column_int(st, 3), 0, false, &ycap);
	}
	sqlite3_finalize(st);
	free(rb);
	free(js);
	if (nc)
		chunk_finish(&c[nc - 1]);
	if (rc != SQLITE_DONE) {
		chunks_free(c, nc);
		strv_free(&names);
		strv_free(&events);
		return store_fail(s, "cannot read the counters of the samples", e);
	}
	struct chunk_names cn = {&names, &events};
	if (nc)
		qsort_r(c, nc, sizeof *c, chunk_cmp, &cn);
	build(c, nc, &names, &events, out);
	free(c);
	strv_free(&names);
	strv_free(&events);
	for (size_t i = 0; i < out->nseries; i++)
		out->series[i].unit = xstrdup("op");
	return 0;
}

void store_set_free(struct store_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < set->nseries; i++) {
		struct store_series *x = &set->series[i];
		for (size_t b = 0; b < x->nboots; b++) {
			for (size_t r = 0; r < x->boots[b].nruns; r++) {
				free(x->boots[b].runs[r].y);
				free(x->boots[b].runs[r].round);
			}
			free(x->boots[b].runs);
		}
		free(x->boots);
		free(x->workload);
		free(x->event);
		free(x->unit);
	}
	free(set->series);
	memset(set, 0, sizeof *set);
}

static int id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* One row of run_summary into x and k (k->boot, k->ub_log left); false when it is not
 * current for method. */
static bool sum_row(sqlite3_stmt *st, int method, struct strv *names, struct store_run_sum *x,
		    struct store_sum_key *k)
{
	const char *wl = (const char *)sqlite3_column_text(st, 1), *map = (const char *)sqlite3_column_text(st, 15),
		   *diag = (const char *)sqlite3_column_text(st, 16);
	*k = (struct store_sum_key){.run = sqlite3_column_int64(st, 0), .wl = intern(names, wl ? wl : ""),
				    .copies = sqlite3_column_int(st, 2)};
	*x = (struct store_run_sum){
		.n = sqlite3_column_int64(st, 4), .nbatches = sqlite3_column_int64(st, 6),
		.batch_size = sqlite3_column_int64(st, 7), .mean_y = col_real(st, 5), .tau2 = col_real(st, 8),
		.var_mean = col_real(st, 9), .df = col_real(st, 10), .r1 = col_real(st, 11),
		.kept_y = col_real(st, 13), .elapsed_s = col_real(st, 14), .autocorr = sqlite3_column_int(st, 12),
		.diag = diag && *diag ? xstrdup(diag) : NULL,
	};
	snprintf(x->round_map, sizeof x->round_map, "%s", map ? map : "");
	return sqlite3_column_int(st, 3) == method && isfinite(x->mean_y) && x->n > 0 && !isnan(x->kept_y) &&
	       !isnan(x->elapsed_s);
}

/* Every row, in storage order (one pass: much faster than a lookup per key). */
static int read_sums(struct store *s, int method, struct store_sums *out, bool *current, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run, workload, copies, method, n, mean_y, nbatches, batch_size, tau2, var_mean, df, r1, "
			  "autocorr, kept_y, elapsed_s, round_map, diag FROM run_summary",
			  &st, e))
		return -1;
	size_t cap = 0, kcap = 0;
	int rc = SQLITE_DONE;
	*current = true;
	while (*current && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		out->v = xgrow(out->v, &cap, out->n + 1, sizeof *out->v);
		out->k = xgrow(out->k, &kcap, out->n + 1, sizeof *out->k);
		*current = sum_row(st, method, &out->names, &out->v[out->n], &out->k[out->n]);
		out->n++;
	}
	sqlite3_finalize(st);
	if (*current && rc != SQLITE_DONE)
		return store_fail(s, "cannot read run summaries", e);
	return 0;
}

void store_sums_free(struct store_sums *x)
{
	for (size_t i = 0; i < x->n; i++)
		free(x->v[i].diag);
	free(x->v);
	free(x->k);
	strv_free(&x->names);
	memset(x, 0, sizeof *x);
}

int store_sums_load(struct store *s, int method, struct store_sums *out, bool *ok, struct err *e)
{
	memset(out, 0, sizeof *out);
	*ok = false;
	int m;
	if (store_summary_method(s, &m, e))
		return -1;
	if (m != method)
		return 0;
	int rc = read_sums(s, method, out, ok, e);
	if (!rc && *ok) {
		/* current only when complete too: a run merged or imported since the last writing
		 * command (a campaign's guest databases) has no summary rows yet, and every row
		 * being current says nothing about the rows that are missing */
		int64_t *stale = NULL;
		size_t nstale = 0;
		rc = store_summary_stale(s, method, 0, &stale, &nstale, e);
		*ok = !rc && nstale == 0;
		free(stale);
	}
	struct run_boot *rb = NULL;
	size_t nrb = 0;
	if (!rc && *ok)
		rc = load_boots(s, NULL, &rb, &nrb, e);
	for (size_t i = 0; !rc && *ok && i < out->n; i++) {
		const struct run_boot *b = boot_of(rb, nrb, out->k[i].run);
		out->k[i].boot = b ? b->boot : 0;
		out->k[i].ub_log = b && b->ub_log;
	}
	free(rb);
	if (rc || !*ok) {
		*ok = false;
		store_sums_free(out);
	}
	return rc;
}

int store_set_of_sums(struct store *s, const struct store_sums *all, const int64_t *ids, size_t n,
		      struct store_set *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	int64_t *sel = xcalloc(n ? n : 1, sizeof *sel);
	if (n)
		memcpy(sel, ids, n * sizeof *sel);
	qsort(sel, n, sizeof *sel, id_cmp);
	struct chunk *c = NULL;
	size_t nc = 0, cap = 0;
	for (size_t i = 0; i < all->n; i++) {
		const struct store_sum_key *k = &all->k[i];
		const struct store_run_sum *x = &all->v[i];
		if (!bsearch(&k->run, sel, n, sizeof *sel, id_cmp))
			continue;
		c = xgrow(c, &cap, nc + 1, sizeof *c);
		c[nc++] = (struct chunk){
			.wl = k->wl, .copies = k->copies, .run = k->run, .boot = k->boot,
			.r = {.run = k->run, .n = (size_t)x->n, .elapsed_s = x->elapsed_s, .kept_y = x->kept_y,
			      .ub_log = k->ub_log, .sum = x},
		};
	}
	free(sel);
	struct chunk_names cn = {&all->names, NULL};
	if (nc)
		qsort_r(c, nc, sizeof *c, chunk_cmp, &cn);
	build(c, nc, &all->names, NULL, out);
	free(c);
	char *js = ids_json(ids, n);
	int rc = load_units(s, js, out, e);
	free(js);
	if (rc)
		store_set_free(out);
	return rc;
}

static int run_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct store_run_info *)a)->id, y = ((const struct store_run_info *)b)->id;
	return x < y ? -1 : x > y;
}

int store_runs_env(struct store *s, struct store_run_info *runs, size_t n, struct err *e)
{
	int64_t *ids = xcalloc(n ? n : 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = runs[i].id;
	char *js = ids_json(ids, n);
	free(ids);
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run, key, value FROM environment WHERE run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY run, key",
			  &st, e)) {
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_run_info key = {.id = sqlite3_column_int64(st, 0)};
		struct store_run_info *r = n ? bsearch(&key, runs, n, sizeof *runs, run_cmp) : NULL;
		if (!r)
			continue;
		const char *k = (const char *)sqlite3_column_text(st, 1);
		const char *v = (const char *)sqlite3_column_text(st, 2);
		kv_add(&r->env, k ? k : "", v ? v : "");
	}
	sqlite3_finalize(st);
	free(js);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the environment of the runs", e);
	return 0;
}

int store_boot_exists(struct store *s, const char *boot_id, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT 1 FROM boot WHERE boot_id = ?", &st, e))
		return -1;
	store_bind_text(st, 1, boot_id);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return store_fail(s, "cannot look up a boot", e);
}
