/* load.c - reading the samples of many runs at once, grouped for analysis. */
#include "store_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Where one run's series goes in a set: the key that build() groups by, first in each item
 * it groups (struct chunk, struct sum_ref). */
struct ckey {
	uint32_t wl; /* index into the interned names */
	int32_t copies;
	int64_t run, boot;
	uint32_t ev; /* counter sets: index into the interned events; 0 otherwise */
};

/* The samples of one run for one (workload, copies), before grouping. */
struct chunk {
	struct ckey k;
	struct store_series_run r;
	double kept_sum; /* sum of y over the samples the source kept */
	size_t nkept;
};

/* One stored summary picked for a set: its key and its row in store_sums. */
struct sum_ref {
	struct ckey k;
	size_t row;
};

/* Each interned name's place in byte order (sort_items): workloads, and events (counter
 * sets only, else NULL). */
struct ranks {
	const uint32_t *wl, *ev;
};

/* Orders items that start with a struct ckey by (workload, copies[, event], boot, run). */
static int chunk_cmp(const void *pa, const void *pb, void *ranks)
{
	const struct ckey *a = pa, *b = pb;
	const struct ranks *rk = ranks;
	if (a->wl != b->wl)
		return rk->wl[a->wl] < rk->wl[b->wl] ? -1 : 1;
	if (a->copies != b->copies)
		return a->copies < b->copies ? -1 : 1;
	if (rk->ev && a->ev != b->ev)
		return rk->ev[a->ev] < rk->ev[b->ev] ? -1 : 1;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

static int name_cmp(const void *pa, const void *pb, void *names)
{
	char **nm = names;
	return strcmp(nm[*(const uint32_t *)pa], nm[*(const uint32_t *)pb]);
}

/* Each of names' place in byte order, newly allocated. */
static uint32_t *rank_names(const struct strv *names)
{
	uint32_t *order = xcalloc(names->n, sizeof *order),
		 *rank = xcalloc(names->n, sizeof *rank);
	for (size_t i = 0; i < names->n; i++)
		order[i] = (uint32_t)i;
	qsort_r(order, names->n, sizeof *order, name_cmp, names->v);
	for (size_t i = 0; i < names->n; i++)
		rank[order[i]] = (uint32_t)i;
	free(order);
	return rank;
}

/* Sort items (nc of them, each size bytes, starting with a struct ckey) for build(): the
 * names (and events, for a counter set; else NULL) ranked once, so that items compare by
 * numbers. */
static void sort_items(void *items, size_t nc, size_t size, const struct strv *names, const struct strv *events)
{
	struct ranks rk = {rank_names(names), events ? rank_names(events) : NULL};
	if (nc)
		qsort_r(items, nc, size, chunk_cmp, &rk);
	free((void *)rk.wl);
	free((void *)rk.ev);
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

static int id_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* A set of run ids for membership tests: a bit per id between the lowest and the highest
 * when that span is not much wider than the set, else a binary search. all: every id. */
struct idset {
	int64_t *ids; /* sorted */
	size_t n;
	uint8_t *bit;
	int64_t lo;
	uint64_t span;
	bool all;
};

static void idset_init(struct idset *x, const int64_t *ids, size_t n, bool all)
{
	memset(x, 0, sizeof *x);
	x->all = all;
	if (all)
		return;
	x->ids = xcalloc(n, sizeof *x->ids);
	if (n)
		memcpy(x->ids, ids, n * sizeof *x->ids);
	qsort(x->ids, n, sizeof *x->ids, id_cmp);
	x->n = n;
	x->lo = n ? x->ids[0] : 0;
	x->span = n ? (uint64_t)(x->ids[n - 1] - x->lo) + 1 : 0;
	if (n && x->span <= 64 * (uint64_t)n) {
		x->bit = xcalloc(x->span / 8 + 1, 1);
		for (size_t i = 0; i < n; i++) {
			uint64_t o = (uint64_t)(x->ids[i] - x->lo);
			x->bit[o / 8] |= (uint8_t)(1u << (o % 8));
		}
	}
}

static bool idset_has(const struct idset *x, int64_t run)
{
	if (x->all)
		return true;
	if (x->bit) {
		uint64_t o = (uint64_t)(run - x->lo);
		return run >= x->lo && o < x->span && (x->bit[o / 8] >> (o % 8) & 1);
	}
	return x->n && bsearch(&run, x->ids, x->n, sizeof *x->ids, id_cmp);
}

static void idset_free(struct idset *x)
{
	free(x->ids);
	free(x->bit);
	memset(x, 0, sizeof *x);
}

/* A series' unit and latency come from the slot of its first run (lowest id) among
 * ids[0..n-1] that has one, "op" when none: probed by key from the first run on (the
 * first run nearly always has it), and for a series that the first UNITS_PROBES runs lack,
 * from one pass over the slots of all the runs. */
#define UNITS_PROBES 64
static int load_units(struct store *s, const int64_t *ids, size_t n, struct store_set *set, struct err *e)
{
	int64_t *sorted = xcalloc(n, sizeof *sorted);
	if (n)
		memcpy(sorted, ids, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, id_cmp);
	sqlite3_stmt *st = NULL;
	int rc = SQLITE_DONE;
	bool rest = false;
	if (set->nseries &&
	    store_prepare(s, "SELECT unit, latency FROM slot WHERE run = ?1 AND workload = ?2 AND copies = ?3", &st, e)) {
		free(sorted);
		return -1;
	}
	for (size_t i = 0; i < set->nseries && rc == SQLITE_DONE; i++) {
		struct store_series *x = &set->series[i];
		for (size_t k = 0; k < n && k < UNITS_PROBES && !x->unit; k++) {
			sqlite3_bind_int64(st, 1, sorted[k]);
			store_bind_text(st, 2, x->workload);
			sqlite3_bind_int(st, 3, x->copies);
			rc = sqlite3_step(st);
			if (rc == SQLITE_ROW) {
				x->unit = store_col_text(st, 0);
				x->latency = sqlite3_column_int(st, 1);
				rc = SQLITE_DONE;
			}
			sqlite3_reset(st);
			if (rc != SQLITE_DONE)
				break;
		}
		rest |= !x->unit && n > UNITS_PROBES;
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE && rest) {
		char *js = store_ids_json(sorted, n);
		if (store_prepare(s,
				  "SELECT workload, copies, unit, latency FROM slot "
				  "WHERE run IN (SELECT value FROM json_each(?1)) ORDER BY run",
				  &st, e)) {
			free(js);
			free(sorted);
			return -1;
		}
		sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			struct store_series *x = find_series(set, (const char *)sqlite3_column_text(st, 0),
							     sqlite3_column_int(st, 1));
			if (x && !x->unit) {
				x->unit = store_col_text(st, 2);
				x->latency = sqlite3_column_int(st, 3);
			}
		}
		sqlite3_finalize(st);
		free(js);
	}
	free(sorted);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the workloads of the runs", e);
	for (size_t i = 0; i < set->nseries; i++)
		if (!set->series[i].unit)
			set->series[i].unit = xstrdup("op");
	return 0;
}

/* Turn items sorted by (workload, copies[, event], boot, run) into the nested set: n items
 * of stride bytes, each starting with its struct ckey; run(item, ctx, out) gives the run's
 * series. events: the interned events of a counter set, else NULL. */
static void build(const void *items, size_t stride, size_t n, const struct strv *names, const struct strv *events,
		  void (*run)(const void *item, const void *ctx, struct store_series_run *out), const void *ctx,
		  struct store_set *out)
{
#define KEY(i) ((const struct ckey *)((const char *)items + (i) * stride))
	size_t cap = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && KEY(j)->wl == KEY(i)->wl && KEY(j)->copies == KEY(i)->copies && KEY(j)->ev == KEY(i)->ev)
			j++;
		out->series = xgrow(out->series, &cap, out->nseries + 1, sizeof *out->series);
		struct store_series *x = &out->series[out->nseries++];
		memset(x, 0, sizeof *x);
		x->workload = xstrdup(names->v[KEY(i)->wl]);
		x->copies = KEY(i)->copies;
		x->event = events ? xstrdup(events->v[KEY(i)->ev]) : NULL;
		size_t nb = 0;
		for (size_t k = i; k < j; k++)
			nb += k == i || KEY(k)->boot != KEY(k - 1)->boot;
		x->boots = xcalloc(nb, sizeof *x->boots);
		for (size_t k = i; k < j;) {
			size_t m = k;
			while (m < j && KEY(m)->boot == KEY(k)->boot)
				m++;
			struct store_series_boot *b = &x->boots[x->nboots++];
			b->boot = KEY(k)->boot;
			b->runs = xcalloc(m - k, sizeof *b->runs);
			for (size_t r = k; r < m; r++)
				run(KEY(r), ctx, &b->runs[b->nruns++]);
			k = m;
		}
		i = j;
	}
#undef KEY
}

/* The samples path: a chunk's series, its arrays taken. */
static void chunk_run(const void *item, const void *ctx, struct store_series_run *out)
{
	(void)ctx;
	*out = ((const struct chunk *)item)->r;
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

/* The chunks of a loader whose rows come ordered by run, workload, copies (and event, for
 * counters): each row goes to the last chunk, or to a new one when its key differs. */
struct chunks {
	struct chunk *c;
	size_t n, cap, ycap;
	struct strv names, events;
	struct run_boot *rb; /* the runs' boots (load_boots) */
	size_t nrb;
};

/* The chunk for a row of (run, wl, copies[, ev]): the last one, or a new one after finishing it. */
static struct chunk *chunks_at(struct chunks *cs, int64_t run, const char *wl, int copies, const char *ev)
{
	struct chunk *cur = cs->n ? &cs->c[cs->n - 1] : NULL;
	wl = wl ? wl : "";
	if (cur && cur->k.run == run && cur->k.copies == copies && !strcmp(cs->names.v[cur->k.wl], wl) &&
	    (!ev || !strcmp(cs->events.v[cur->k.ev], ev)))
		return cur;
	if (cur)
		chunk_finish(cur);
	cs->c = xgrow(cs->c, &cs->cap, cs->n + 1, sizeof *cs->c);
	cur = &cs->c[cs->n++];
	memset(cur, 0, sizeof *cur);
	cur->k.wl = (uint32_t)intern(&cs->names, wl);
	cur->k.ev = ev ? (uint32_t)intern(&cs->events, ev) : 0;
	cur->k.copies = copies;
	cur->k.run = cur->r.run = run;
	const struct run_boot *b = boot_of(cs->rb, cs->nrb, run);
	cur->k.boot = b ? b->boot : 0;
	cur->r.ub_log = !ev && b && b->ub_log; /* a UnixBench log's score: its samples, not counts */
	cs->ycap = 0;
	return cur;
}

/* Close a loader's reading (rc: the last sqlite3_step): on SQLITE_DONE, the chunks sorted and
 * built into out (events: for a counter set); else everything freed and what failed said. */
static int chunks_done(struct store *s, struct chunks *cs, int rc, bool events, struct store_set *out,
		       const char *what, struct err *e)
{
	free(cs->rb);
	if (cs->n)
		chunk_finish(&cs->c[cs->n - 1]);
	if (rc == SQLITE_DONE) {
		sort_items(cs->c, cs->n, sizeof *cs->c, &cs->names, events ? &cs->events : NULL);
		build(cs->c, sizeof *cs->c, cs->n, &cs->names, events ? &cs->events : NULL, chunk_run, NULL, out);
	} else {
		for (size_t i = 0; i < cs->n; i++) {
			free(cs->c[i].r.y);
			free(cs->c[i].r.round);
		}
	}
	free(cs->c);
	strv_free(&cs->names);
	strv_free(&cs->events);
	return rc == SQLITE_DONE ? 0 : store_fail(s, what, e);
}

int store_load_set(struct store *s, const int64_t *ids, size_t n, struct store_set *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	char *js = store_ids_json(ids, n);
	struct chunks cs = {0};
	if (load_boots(s, js, &cs.rb, &cs.nrb, e)) {
		free(js);
		return -1;
	}
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run, workload, copies, round, value, elapsed_ns, dropped FROM sample "
			  "WHERE warmup = 0 AND run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY run, workload, copies, seq",
			  &st, e)) {
		free(cs.rb);
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct chunk *cur = chunks_at(&cs, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
					      sqlite3_column_int(st, 2), NULL);
		chunk_push(cur, log(sqlite3_column_double(st, 4)), sqlite3_column_int(st, 3),
			   (double)sqlite3_column_int64(st, 5) * 1e-9, sqlite3_column_int(st, 6) != 0, &cs.ycap);
	}
	sqlite3_finalize(st);
	free(js);
	if (chunks_done(s, &cs, rc, false, out, "cannot read samples", e))
		return -1;
	if (load_units(s, ids, n, out, e)) {
		store_set_free(out);
		return -1;
	}
	return 0;
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
	char *js = store_ids_json(ids, n);
	struct chunks cs = {0};
	if (load_boots(s, js, &cs.rb, &cs.nrb, e)) {
		free(js);
		return -1;
	}
	if (store_prepare(s,
			  "SELECT sample.run, sample.workload, sample.copies, sample.round, "
			  "CAST(c.value AS REAL) / sample.ops, c.event FROM sample_counter c JOIN sample ON sample.id = c.sample "
			  "WHERE sample.warmup = 0 AND sample.ops > 0 AND sample.run IN (SELECT value FROM json_each(?1)) "
			  "ORDER BY sample.run, sample.workload, sample.copies, c.event, sample.seq",
			  &st, e)) {
		free(cs.rb);
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *ev = (const char *)sqlite3_column_text(st, 5);
		struct chunk *cur = chunks_at(&cs, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1),
					      sqlite3_column_int(st, 2), ev ? ev : "");
		chunk_push(cur, sqlite3_column_double(st, 4), sqlite3_column_int(st, 3), 0, false, &cs.ycap);
	}
	sqlite3_finalize(st);
	free(js);
	if (chunks_done(s, &cs, rc, true, out, "cannot read the counters of the samples", e))
		return -1;
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

/* One slot of a run's summary row into x and k (k->boot, k->ub_log left); false when it is
 * not usable (no finite mean, no samples, no score or time). */
static bool sum_of(const struct sum_slot *v, int64_t run, struct strv *names, size_t *hint, struct store_run_sum *x,
		   struct store_sum_key *k, struct sb *text, size_t *diag_at)
{
	/* a run's slots come in the same workload order as the run's before: try the name after
	 * the previous slot's, then the first name (a new run), before a search */
	const char *wl = v->workload;
	size_t w;
	if (*hint + 1 < names->n && !strcmp(names->v[*hint + 1], wl))
		w = *hint + 1;
	else if (names->n && !strcmp(names->v[0], wl))
		w = 0;
	else
		w = intern(names, wl);
	*hint = w;
	const struct store_summary *m = &v->x;
	*k = (struct store_sum_key){.run = run, .wl = w, .copies = m->copies};
	*x = (struct store_run_sum){
		.n = m->n, .nbatches = m->nbatches, .batch_size = m->batch_size, .mean_y = m->mean_y, .tau2 = m->tau2,
		.var_mean = m->var_mean, .df = m->df, .r1 = m->r1, .kept_y = m->kept_y, .elapsed_s = m->elapsed_s,
		.autocorr = m->autocorr,
	};
	*diag_at = 0; /* 0: none, else its offset in text + 1 (text moves as it grows) */
	if (*v->diag) {
		*diag_at = text->len + 1;
		sb_addn(text, v->diag, strlen(v->diag) + 1);
	}
	size_t nmap = strlen(v->round_map); /* cut as snprintf would */
	nmap = nmap < sizeof x->round_map ? nmap : sizeof x->round_map - 1;
	memcpy(x->round_map, v->round_map, nmap);
	x->round_map[nmap] = 0;
	return isfinite(x->mean_y) && x->n > 0 && !isnan(x->kept_y) && !isnan(x->elapsed_s);
}

/* Every row, in storage order (one pass: much faster than a lookup per run); *current is
 * false at the first row of another method or a slot that is not usable. */
static int read_sums(struct store *s, int method, const struct idset *want, struct store_sums *out, bool *current,
		     struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT count(*) FROM run_summary", &st, e))
		return -1;
	size_t rows = sqlite3_step(st) == SQLITE_ROW ? (size_t)sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (store_prepare(s, "SELECT run, method, slots FROM run_summary", &st, e))
		return -1;
	size_t cap = 0, kcap = 0, acap = 0, hint = 0, *at = NULL;
	int rc = SQLITE_DONE;
	*current = true;
	while (*current && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		if (!idset_has(want, run))
			continue;
		struct sum_blob b;
		struct sum_slot v;
		int got = sqlite3_column_int(st, 1) == method &&
				  sum_blob_open(&b, sqlite3_column_blob(st, 2), (size_t)sqlite3_column_bytes(st, 2))
			  ? 1
			  : -1;
		if (got > 0 && !cap) { /* room for every wanted run with as many slots as this one */
			size_t len = (size_t)(b.end - b.p), slots = b.left;
			if (slots > len / SUM_SLOT_MIN) /* a damaged count cannot ask for more than fits */
				slots = len / SUM_SLOT_MIN;
			size_t est = slots * (want->all ? rows : want->n);
			out->v = xgrow(out->v, &cap, est, sizeof *out->v);
			out->k = xgrow(out->k, &kcap, est, sizeof *out->k);
			at = xgrow(at, &acap, est, sizeof *at);
		}
		while (got > 0 && *current && (got = sum_blob_next(&b, &v)) > 0) {
			out->v = xgrow(out->v, &cap, out->n + 1, sizeof *out->v);
			out->k = xgrow(out->k, &kcap, out->n + 1, sizeof *out->k);
			at = xgrow(at, &acap, out->n + 1, sizeof *at);
			*current = sum_of(&v, run, &out->names, &hint, &out->v[out->n], &out->k[out->n], &out->text,
					  &at[out->n]);
			out->n++;
		}
		*current = *current && got >= 0;
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < out->n; i++)
		out->v[i].diag = at[i] ? out->text.s + at[i] - 1 : NULL;
	free(at);
	if (*current && rc != SQLITE_DONE)
		return store_fail(s, "cannot read run summaries", e);
	return 0;
}

/* A hash table of indexes into a growing array, by open addressing: the series of sums_order,
 * the keys and values of store_env_values. */
struct idx_tab {
	uint32_t *slot; /* entry index + 1, 0: empty */
	size_t cap;     /* a power of two */
	size_t n;
};

static uint64_t str_hash(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The slot of the entry that eq() finds for hash h, or an empty slot where it belongs;
 * grows the table (rehash(i) gives entry i's hash) before it is half full. */
static uint32_t *idx_tab_find(struct idx_tab *t, uint64_t h, bool (*eq)(size_t, const void *), const void *arg,
			      uint64_t (*rehash)(size_t, const void *), const void *ctx)
{
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		uint32_t *slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < t->cap; i++)
			if (t->slot[i]) {
				size_t j = rehash(t->slot[i] - 1, ctx) & (cap - 1);
				while (slot[j])
					j = (j + 1) & (cap - 1);
				slot[j] = t->slot[i];
			}
		free(t->slot);
		t->slot = slot;
		t->cap = cap;
	}
	size_t j = h & (t->cap - 1);
	while (t->slot[j] && !eq(t->slot[j] - 1, arg))
		j = (j + 1) & (t->cap - 1);
	return &t->slot[j];
}

/* One (workload, copies) of the stored summaries: rows, and where they begin in order. */
struct series_slot {
	size_t wl;
	int copies;
	size_t n, at;
};

static uint64_t series_hash(size_t wl, int copies)
{
	uint64_t h = (uint64_t)wl * 0x9E3779B97F4A7C15u ^ (uint64_t)(uint32_t)copies * 0xC2B2AE3D27D4EB4Fu;
	return h ^ (h >> 29);
}

static bool series_eq(size_t i, const void *arg)
{
	const struct series_slot *const *q = arg; /* {the table's series, the one looked for} */
	return q[0][i].wl == q[1]->wl && q[0][i].copies == q[1]->copies;
}

static uint64_t series_rehash(size_t i, const void *ctx)
{
	const struct series_slot *sl = *(const struct series_slot *const *)ctx;
	return series_hash(sl[i].wl, sl[i].copies);
}

static int series_slot_cmp(const void *pa, const void *pb, void *rank)
{
	const struct series_slot *a = pa, *b = pb;
	const uint32_t *rk = rank;
	if (a->wl != b->wl)
		return rk[a->wl] < rk[b->wl] ? -1 : 1;
	return a->copies < b->copies ? -1 : a->copies > b->copies;
}

/* x->order: a counting sort of the rows (read in run order) by series, so that a set picks
 * its runs' rows already grouped as build() wants them (a few hundred series at most, found
 * by a hash; a run's rows come in the same series order as the run's before, tried first). */
static void sums_order(struct store_sums *x)
{
	struct series_slot *sl = NULL;
	size_t ns = 0, scap = 0;
	struct idx_tab tab = {0};
	uint32_t *of = xcalloc(x->n, sizeof *of);
	size_t prev = 0;
	for (size_t i = 0; i < x->n; i++) {
		const struct store_sum_key *k = &x->k[i];
		size_t s = prev + 1;
		if (!(i && s < ns && sl[s].wl == k->wl && sl[s].copies == k->copies)) {
			struct series_slot want = {.wl = k->wl, .copies = k->copies};
			const struct series_slot *q[2] = {sl, &want};
			uint32_t *at = idx_tab_find(&tab, series_hash(k->wl, k->copies), series_eq, q, series_rehash, &sl);
			if (!*at) {
				sl = xgrow(sl, &scap, ns + 1, sizeof *sl);
				sl[ns] = want;
				*at = (uint32_t)++ns;
				tab.n++;
			}
			s = *at - 1;
		}
		of[i] = (uint32_t)s;
		sl[s].n++;
		prev = s;
	}
	/* the series in (workload, copies) order, each one's place */
	uint32_t *rank = rank_names(&x->names);
	struct series_slot *sorted = xcalloc(ns, sizeof *sorted);
	for (size_t j = 0; j < ns; j++) {
		sorted[j] = sl[j];
		sorted[j].at = j; /* its index in sl */
	}
	qsort_r(sorted, ns, sizeof *sorted, series_slot_cmp, rank);
	size_t at = 0;
	for (size_t j = 0; j < ns; j++) {
		sl[sorted[j].at].at = at;
		at += sorted[j].n;
	}
	x->order = xcalloc(x->n, sizeof *x->order);
	for (size_t i = 0; i < x->n; i++)
		x->order[sl[of[i]].at++] = (uint32_t)i;
	free(sorted);
	free(rank);
	free(of);
	free(tab.slot);
	free(sl);
}

void store_sums_free(struct store_sums *x)
{
	free(x->v);
	free(x->k);
	free(x->order);
	sb_free(&x->text);
	strv_free(&x->names);
	memset(x, 0, sizeof *x);
}

/* *ok: no finished run of want with measured samples lacks its summary row. A row that is
 * there covers every slot of its run as the samples are now: the schema's triggers delete
 * it when any of the run's samples is added, changed or deleted. */
static int sums_complete(struct store *s, const struct idset *want, bool *ok, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT r.id FROM run r WHERE r.status <> 'running' AND NOT EXISTS(SELECT 1 FROM run_summary m "
			  "WHERE m.run = r.id) AND EXISTS(SELECT 1 FROM sample x WHERE x.run = r.id AND x.warmup = 0)",
			  &st, e))
		return -1;
	*ok = true;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		if (idset_has(want, sqlite3_column_int64(st, 0))) {
			*ok = false;
			rc = SQLITE_DONE;
			break;
		}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot look for stale run summaries", e);
	return 0;
}

int store_sums_load(struct store *s, int method, const int64_t *ids, size_t n, struct store_sums *out, bool *ok,
		    struct err *e)
{
	memset(out, 0, sizeof *out);
	*ok = false;
	bool began;
	int m = 0;
	if (store_snapshot_begin(s, &began, e))
		return -1;
	int rc = store_summary_method(s, &m, e);
	if (rc || m != method) { /* an error, or rows of another method: none is read */
		store_snapshot_end(s, began);
		return rc;
	}
	struct idset want;
	idset_init(&want, ids, n, !ids);
	rc = read_sums(s, method, &want, out, ok, e);
	if (!rc && *ok) {
		/* current only when complete too: a run merged or imported since the last writing
		 * command (a campaign's guest databases) has no summary rows yet, and every row
		 * being current says nothing about the rows that are missing */
		rc = sums_complete(s, &want, ok, e);
	}
	idset_free(&want);
	struct run_boot *rb = NULL;
	size_t nrb = 0;
	if (!rc && *ok)
		rc = load_boots(s, NULL, &rb, &nrb, e);
	store_snapshot_end(s, began);
	for (size_t i = 0; !rc && *ok && i < out->n; i++) {
		const struct run_boot *b = boot_of(rb, nrb, out->k[i].run);
		out->k[i].boot = b ? b->boot : 0;
		out->k[i].ub_log = b && b->ub_log;
	}
	free(rb);
	if (!rc && *ok)
		sums_order(out);
	if (rc || !*ok) {
		*ok = false;
		store_sums_free(out);
	}
	return rc;
}

/* The summaries path: the run's series from its stored summary. */
static void sum_run(const void *item, const void *ctx, struct store_series_run *out)
{
	const struct store_sums *all = ctx;
	size_t i = ((const struct sum_ref *)item)->row;
	const struct store_sum_key *k = &all->k[i];
	const struct store_run_sum *x = &all->v[i];
	*out = (struct store_series_run){.run = k->run, .n = (size_t)x->n, .elapsed_s = x->elapsed_s,
					 .kept_y = x->kept_y, .ub_log = k->ub_log, .sum = x};
}

int store_set_of_sums(struct store *s, const struct store_sums *all, const int64_t *ids, size_t n,
		      struct store_set *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct idset sel;
	idset_init(&sel, ids, n, false);
	struct sum_ref *c = NULL;
	size_t nc = 0, cap = 0;
	for (size_t j = 0; j < all->n; j++) { /* by series, each in run order (all->order) */
		size_t i = all->order[j];
		const struct store_sum_key *k = &all->k[i];
		if (!idset_has(&sel, k->run))
			continue;
		c = xgrow(c, &cap, nc + 1, sizeof *c);
		c[nc++] = (struct sum_ref){{.wl = (uint32_t)k->wl, .copies = k->copies, .run = k->run, .boot = k->boot}, i};
	}
	idset_free(&sel);
	/* then by (boot, run) within each series: a series already so (run ids that grow with
	 * their boots) is left as it is */
	struct ranks rk = {0}; /* items of one series never compare their names */
	for (size_t a = 0, b; a < nc; a = b) {
		bool in_order = true;
		for (b = a + 1; b < nc && c[b].k.wl == c[a].k.wl && c[b].k.copies == c[a].k.copies; b++)
			in_order = in_order && chunk_cmp(&c[b - 1], &c[b], &rk) <= 0;
		if (!in_order)
			qsort_r(c + a, b - a, sizeof *c, chunk_cmp, &rk);
	}
	build(c, sizeof *c, nc, &all->names, NULL, sum_run, all, out);
	free(c);
	int rc = load_units(s, ids, n, out, e);
	if (rc)
		store_set_free(out);
	return rc;
}

static int run_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct store_run_info *)a)->id, y = ((const struct store_run_info *)b)->id;
	return x < y ? -1 : x > y;
}

static int runs_env(struct store *s, struct store_run_info *runs, size_t n, const char *only, struct err *e)
{
	int64_t *ids = xcalloc(n, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = runs[i].id;
	char *js = store_ids_json(ids, n);
	free(ids);
	sqlite3_stmt *st;
	if (store_prepare(s,
			  only ? "SELECT run, key, value FROM environment WHERE key = ?2 AND run IN (SELECT value FROM "
				 "json_each(?1)) ORDER BY run"
			       : "SELECT run, key, value FROM environment WHERE run IN (SELECT value FROM json_each(?1)) "
				 "ORDER BY run, key",
			  &st, e)) {
		free(js);
		return -1;
	}
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	if (only)
		store_bind_text(st, 2, only);
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

int store_runs_env(struct store *s, struct store_run_info *runs, size_t n, struct err *e)
{
	return runs_env(s, runs, n, NULL, e);
}

int store_runs_env_key(struct store *s, struct store_run_info *runs, size_t n, const char *key, struct err *e)
{
	return runs_env(s, runs, n, key, e);
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

/* What store_env_values gathers: the keys (with the position after the last run of the
 * unbroken prefix of runs that have it) and the distinct (key, value) pairs. */
struct env_acc {
	struct store_env_key *k;
	size_t nk, kcap;
	size_t *prefix; /* [nk] */
	uint64_t *khash;
	struct env_pair {
		size_t key;
		uint64_t hash;
		struct store_env_value v;
	} *p;
	size_t np, pcap;
	const char *want_key; /* for the eq callbacks */
	size_t want_kidx;
	const char *want_value;
};

static bool key_eq(size_t i, const void *arg)
{
	const struct env_acc *a = arg;
	return !strcmp(a->k[i].key, a->want_key);
}

static uint64_t key_rehash(size_t i, const void *ctx)
{
	return ((const struct env_acc *)ctx)->khash[i];
}

static bool pair_eq(size_t i, const void *arg)
{
	const struct env_acc *a = arg;
	return a->p[i].key == a->want_kidx && !strcmp(a->p[i].v.value, a->want_value);
}

static uint64_t pair_rehash(size_t i, const void *ctx)
{
	return ((const struct env_acc *)ctx)->p[i].hash;
}

static int env_value_cmp(const void *pa, const void *pb)
{
	const struct store_env_value *a = pa, *b = pb;
	return a->first < b->first ? -1 : a->first > b->first;
}

static int env_key_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct store_env_key *)pa)->key, ((const struct store_env_key *)pb)->key);
}

/* Add one (run, key, value) of the runs sorted[0..n-1], given in ascending run order. */
static void env_add(struct env_acc *a, struct idx_tab *kt, struct idx_tab *pt, const int64_t *sorted, size_t n,
		    size_t *pos, int64_t run, const char *k, const char *v, struct store_env *out, int64_t *last)
{
	while (*pos < n && sorted[*pos] < run)
		(*pos)++;
	if (!out->nenv || run != *last)
		out->nenv++;
	*last = run;
	uint64_t kh = str_hash(14695981039346656037u, k);
	a->want_key = k;
	uint32_t *ks = idx_tab_find(kt, kh, key_eq, a, key_rehash, a);
	if (!*ks) {
		a->k = xgrow(a->k, &a->kcap, a->nk + 1, sizeof *a->k);
		size_t cap = a->kcap;
		a->prefix = xrealloc(a->prefix, cap * sizeof *a->prefix);
		a->khash = xrealloc(a->khash, cap * sizeof *a->khash);
		a->k[a->nk] = (struct store_env_key){.key = xstrdup(k)};
		a->prefix[a->nk] = 0;
		a->khash[a->nk] = kh;
		*ks = (uint32_t)++a->nk;
		kt->n++;
	}
	size_t ki = *ks - 1;
	a->k[ki].nruns++;
	if (a->prefix[ki] == *pos)
		a->prefix[ki] = *pos + 1;
	uint64_t ph = str_hash(kh ^ ki, v);
	a->want_kidx = ki;
	a->want_value = v;
	uint32_t *ps = idx_tab_find(pt, ph, pair_eq, a, pair_rehash, a);
	if (!*ps) {
		a->p = xgrow(a->p, &a->pcap, a->np + 1, sizeof *a->p);
		a->p[a->np] = (struct env_pair){.key = ki, .hash = ph, .v = {.value = xstrdup(v), .first = run}};
		*ps = (uint32_t)++a->np;
		pt->n++;
	}
}

/* The ids (ascending) among sorted[0..n-1] whose run has no summary row: their environment
 * is read from the environment table, the others' from the copy in their row. */
static int env_missing(struct store *s, const char *js, const int64_t *sorted, size_t n, int64_t **out, size_t *nout,
		       struct err *e)
{
	sqlite3_stmt *st;
	*out = xcalloc(n, sizeof **out);
	*nout = 0;
	if (store_prepare(s, "SELECT run FROM run_summary WHERE run IN (SELECT value FROM json_each(?1)) ORDER BY run",
			  &st, e))
		return -1;
	sqlite3_bind_text(st, 1, js, -1, SQLITE_STATIC);
	size_t pos = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t run = sqlite3_column_int64(st, 0);
		while (pos < n && sorted[pos] < run)
			(*out)[(*nout)++] = sorted[pos++];
		while (pos < n && sorted[pos] == run) /* every copy of a repeated id */
			pos++;
	}
	while (pos < n)
		(*out)[(*nout)++] = sorted[pos++];
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot read the environment of the runs", e);
	return 0;
}

/* One pass over the environment of sorted[0..n-1] into a: from the summary rows (the
 * schema's triggers delete a row when its run's environment changes) and, for the runs
 * without one, from the environment table, merged in run order. *bad: a row's copy is not
 * readable (a is then incomplete). */
static int env_pass(struct store *s, const int64_t *sorted, size_t n, bool from_rows, struct env_acc *a,
		    struct store_env *out, bool *bad, struct err *e)
{
	char *js = store_ids_json(sorted, n), *mjs = NULL;
	int64_t *missing = NULL;
	size_t nmissing = n;
	sqlite3_stmt *rows = NULL, *env = NULL;
	*bad = false;
	int rc = from_rows ? env_missing(s, js, sorted, n, &missing, &nmissing, e) : 0;
	if (!rc) {
		mjs = from_rows ? store_ids_json(missing, nmissing) : NULL;
		rc = (from_rows && store_prepare(s,
						 "SELECT run, env FROM run_summary WHERE run IN (SELECT value FROM "
						 "json_each(?1)) ORDER BY run",
						 &rows, e)) ||
				     store_prepare(s,
						   "SELECT run, key, value FROM environment WHERE run IN (SELECT value "
						   "FROM json_each(?1)) ORDER BY run",
						   &env, e)
			     ? -1
			     : 0;
	}
	struct idx_tab kt = {0}, pt = {0};
	size_t pos = 0;
	int64_t last = 0;
	int rr = SQLITE_DONE, re = SQLITE_DONE;
	if (!rc) {
		if (rows)
			sqlite3_bind_text(rows, 1, js, -1, SQLITE_STATIC);
		sqlite3_bind_text(env, 1, from_rows ? mjs : js, -1, SQLITE_STATIC);
		rr = rows ? sqlite3_step(rows) : SQLITE_DONE;
		re = nmissing ? sqlite3_step(env) : SQLITE_DONE;
	}
	while (!rc && !*bad && (rr == SQLITE_ROW || re == SQLITE_ROW)) {
		int64_t r1 = rr == SQLITE_ROW ? sqlite3_column_int64(rows, 0) : INT64_MAX;
		int64_t r2 = re == SQLITE_ROW ? sqlite3_column_int64(env, 0) : INT64_MAX;
		if (r2 < r1) {
			const char *k = (const char *)sqlite3_column_text(env, 1),
				   *v = (const char *)sqlite3_column_text(env, 2);
			env_add(a, &kt, &pt, sorted, n, &pos, r2, k ? k : "", v ? v : "", out, &last);
			re = sqlite3_step(env);
			continue;
		}
		struct sum_blob b;
		const char *k, *v;
		int got = sum_env_open(&b, sqlite3_column_blob(rows, 1), (size_t)sqlite3_column_bytes(rows, 1)) ? 1 : -1;
		while (got > 0 && (got = sum_env_next(&b, &k, &v)) > 0)
			env_add(a, &kt, &pt, sorted, n, &pos, r1, k, v, out, &last);
		*bad = got < 0;
		rr = sqlite3_step(rows);
	}
	if (rows)
		sqlite3_finalize(rows);
	if (env)
		sqlite3_finalize(env);
	free(kt.slot);
	free(pt.slot);
	free(js);
	free(mjs);
	free(missing);
	if (!rc && !*bad && ((rr != SQLITE_DONE && rr != SQLITE_ROW) || (re != SQLITE_DONE && re != SQLITE_ROW)))
		return store_fail(s, "cannot read the environment of the runs", e);
	return rc;
}

static void env_acc_free(struct env_acc *a)
{
	for (size_t i = 0; i < a->np; i++)
		free(a->p[i].v.value);
	for (size_t i = 0; i < a->nk; i++)
		free(a->k[i].key);
	free(a->k);
	free(a->p);
	free(a->prefix);
	free(a->khash);
	memset(a, 0, sizeof *a);
}

int store_env_values(struct store *s, const int64_t *ids, size_t n, struct store_env *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->nruns = n;
	int64_t *sorted = xcalloc(n, sizeof *sorted);
	if (n)
		memcpy(sorted, ids, n * sizeof *sorted);
	qsort(sorted, n, sizeof *sorted, id_cmp);
	struct env_acc a = {0};
	bool bad = false, began;
	/* one snapshot: which runs have a row, and what the rows and the table hold */
	int rc = store_snapshot_begin(s, &began, e);
	if (!rc)
		rc = env_pass(s, sorted, n, true, &a, out, &bad, e);
	if (!rc && bad) { /* a row's copy is not readable: the environment table alone */
		env_acc_free(&a);
		out->nenv = 0;
		rc = env_pass(s, sorted, n, false, &a, out, &bad, e);
	}
	store_snapshot_end(s, began);
	if (!rc) {
		/* each key's values, in the order of their first run; then the keys in byte order */
		for (size_t i = 0; i < a.np; i++)
			a.k[a.p[i].key].nv++;
		for (size_t i = 0; i < a.nk; i++) {
			a.k[i].first_without = a.prefix[i] < n ? sorted[a.prefix[i]] : 0;
			a.k[i].v = xcalloc(a.k[i].nv, sizeof *a.k[i].v);
			a.k[i].nv = 0;
		}
		for (size_t i = 0; i < a.np; i++) {
			struct store_env_key *k = &a.k[a.p[i].key];
			k->v[k->nv++] = a.p[i].v;
		}
		for (size_t i = 0; i < a.nk; i++)
			qsort(a.k[i].v, a.k[i].nv, sizeof *a.k[i].v, env_value_cmp);
		if (a.nk)
			qsort(a.k, a.nk, sizeof *a.k, env_key_cmp);
		out->k = a.k;
		out->nk = a.nk;
		free(a.p);
		free(a.prefix);
		free(a.khash);
	} else {
		env_acc_free(&a);
	}
	free(sorted);
	return rc;
}

void store_env_free(struct store_env *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->nk; i++) {
		for (size_t j = 0; j < x->k[i].nv; j++)
			free(x->k[i].v[j].value);
		free(x->k[i].v);
		free(x->k[i].key);
	}
	free(x->k);
	memset(x, 0, sizeof *x);
}
