/* composite.c - the composite indexes (unixbench-index, sysab-index): their members, references and per-run values. */
#include "analysis/composite.h"
#include "core/core.h"
#include "workloads/workload.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* UnixBench 6's index tests and baselines (pgms/index.base), in UnixBench's units. */
static const struct {
	const char *test;
	double baseline;
} ub_index[] = {
	{"dhry2reg", 116700.0}, {"whetstone-double", 55.0}, {"execl", 43.0},  {"fstime", 3960.0},
	{"fsbuffer", 1655.0},   {"fsdisk", 5800.0},         {"pipe", 12440.0}, {"context1", 4000.0},
	{"spawn", 126.0},       {"shell1", 42.4},           {"shell8", 6.0},   {"syscall", 15000.0},
};
#define NUB (sizeof ub_index / sizeof ub_index[0])

static const struct workload *wl_of_test(const char *test)
{
	for (size_t i = 0; i < wl_count(); i++)
		if (wl_at(i)->unixbench && !strcmp(wl_at(i)->unixbench, test))
			return wl_at(i);
	return NULL;
}

/* sysab-index: the registry's index workloads that keep a baseline, in registry order. */
static void sysab_members(struct an_composite *c)
{
	c->name = AN_SYSAB_INDEX;
	c->n = 0;
	for (size_t i = 0; i < wl_count() && c->n < AN_COMPOSITE_MAX; i++) {
		const struct workload *w = wl_at(i);
		if ((w->flags & WL_INDEX) && w->baseline > 0) {
			c->workload[c->n] = w->name;
			c->test[c->n] = w->unixbench;
			c->ref[c->n++] = w->baseline;
		}
	}
}

/* What one run holds at a copies count. */
struct holding {
	int64_t run;
	bool ub_log;
	uint32_t ub, sy; /* bit i: member i of the UnixBench table / of sysab-index */
};

static int holding_cmp(const void *pa, const void *pb)
{
	const struct holding *a = pa, *b = pb;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* Merge the entries of h[0..n-1] by run (one per run: the members' bits or-ed); returns
 * how many runs remain. Their order is by run id (the rules below only ask whether all agree). */
static size_t holdings_merge(struct holding *h, size_t n)
{
	if (!n)
		return 0;
	qsort(h, n, sizeof *h, holding_cmp);
	size_t k = 0;
	for (size_t i = 1; i < n; i++) {
		if (h[i].run == h[k].run) {
			h[k].ub |= h[i].ub;
			h[k].sy |= h[i].sy;
		} else {
			h[++k] = h[i];
		}
	}
	return k + 1;
}

/* Long by design: one pass gathers what each run holds, then each kind's rule in turn. */
size_t an_composites(const struct store_set *sets, size_t ns, int copies, struct an_composite out[2])
{
	struct an_composite sy;
	sysab_members(&sy);
	const struct workload *ubw[NUB];
	for (size_t t = 0; t < NUB; t++)
		ubw[t] = wl_of_test(ub_index[t].test);
	struct holding *h = NULL;
	size_t nh = 0, cap = 0;
	for (size_t s = 0; s < ns; s++)
		for (size_t i = 0; i < sets[s].nseries; i++) {
			const struct store_series *x = &sets[s].series[i];
			if (x->copies != copies)
				continue;
			uint32_t ubit = 0, sbit = 0;
			for (size_t t = 0; t < NUB; t++)
				if (ubw[t] && !strcmp(ubw[t]->name, x->workload))
					ubit |= 1u << t;
			for (size_t m = 0; m < sy.n; m++)
				if (!strcmp(sy.workload[m], x->workload))
					sbit |= 1u << m;
			if (!ubit && !sbit)
				continue;
			for (size_t b = 0; b < x->nboots; b++)
				for (size_t r = 0; r < x->boots[b].nruns; r++) {
					const struct store_series_run *sr = &x->boots[b].runs[r];
					h = xgrow(h, &cap, nh + 1, sizeof *h);
					h[nh++] = (struct holding){sr->run, sr->ub_log, ubit, sbit};
				}
		}
	nh = holdings_merge(h, nh);
	size_t k = 0;
	bool any_ub = false, any_sy = false;
	for (size_t i = 0; i < nh; i++) {
		any_ub |= h[i].ub_log;
		any_sy |= !h[i].ub_log;
	}
	if (nh && any_ub && !any_sy) {
		/* UnixBench logs: the same index tests in every log */
		uint32_t mask = h[0].ub;
		bool same = true;
		for (size_t i = 1; i < nh; i++)
			same &= h[i].ub == mask;
		struct an_composite *c = &out[k];
		memset(c, 0, sizeof *c);
		for (size_t t = 0; same && t < NUB; t++)
			if (mask & (1u << t)) {
				c->workload[c->n] = ubw[t]->name;
				c->test[c->n] = ub_index[t].test;
				c->ref[c->n++] = ub_index[t].baseline / wl_unixbench_units(ubw[t]);
			}
		if (same && c->n) {
			c->name = c->n == NUB ? AN_UB_INDEX : AN_UB_INDEX_PARTIAL;
			c->copies = copies;
			k++;
		}
	} else if (nh && any_sy && !any_ub && sy.n) {
		/* sysab runs: every run holding a member holds all of them */
		uint32_t all = (uint32_t)((1ull << sy.n) - 1);
		bool ok = false;
		for (size_t i = 0; i < nh; i++)
			if (h[i].sy) {
				ok = h[i].sy == all;
				if (!ok)
					break;
			}
		if (ok) {
			out[k] = sy;
			out[k++].copies = copies;
		}
	}
	free(h);
	return k;
}

size_t an_sysab_index_missing(const struct store_set *set, int copies, const char **missing, size_t max)
{
	struct an_composite sy;
	sysab_members(&sy);
	size_t held = 0, n = 0;
	for (size_t m = 0; m < sy.n; m++) {
		const struct store_series *x = store_set_find(set, sy.workload[m], copies);
		if (!x) {
			if (n < max)
				missing[n++] = sy.workload[m];
			continue;
		}
		for (size_t b = 0; b < x->nboots; b++)
			for (size_t r = 0; r < x->boots[b].nruns; r++)
				if (x->boots[b].runs[r].ub_log)
					return 0;
		held++;
	}
	return held ? n : 0;
}

static int crun_cmp(const void *pa, const void *pb)
{
	const struct an_composite_run *a = pa, *b = pb;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	return a->run < b->run ? -1 : a->run > b->run;
}

size_t an_composite_runs(const struct store_set *set, const struct an_composite *c, struct an_composite_run **out)
{
	struct an_composite_run *v = NULL;
	size_t *cnt = NULL, n = 0, cap = 0, ccap = 0;
	for (size_t m = 0; m < c->n; m++) {
		const struct store_series *x = store_set_find(set, c->workload[m], c->copies);
		double shift = log(c->ref[m] / 10.0);
		for (size_t b = 0; x && b < x->nboots; b++)
			for (size_t r = 0; r < x->boots[b].nruns; r++) {
				const struct store_series_run *sr = &x->boots[b].runs[r];
				size_t i = 0;
				while (i < n && v[i].run != sr->run)
					i++;
				if (i == n) {
					v = xgrow(v, &cap, n + 1, sizeof *v);
					cnt = xgrow(cnt, &ccap, n + 1, sizeof *cnt);
					v[n] = (struct an_composite_run){x->boots[b].boot, sr->run, 0};
					cnt[n++] = 0;
				}
				v[i].y += sr->kept_y - shift;
				cnt[i]++;
			}
	}
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (cnt[i] == c->n) {
			v[k] = v[i];
			v[k++].y /= (double)c->n;
		}
	free(cnt);
	if (k)
		qsort(v, k, sizeof *v, crun_cmp);
	*out = v;
	return k;
}

void an_composite_describe(const struct an_composite *c, char *buf, size_t size)
{
	struct sb t = {0};
	if (!strcmp(c->name, AN_SYSAB_INDEX)) {
		sb_add(&t, "the geometric mean of 10 x value / baseline over ");
		for (size_t m = 0; m < c->n; m++)
			sb_addf(&t, "%s%s", m ? ", " : "", c->workload[m]);
		sb_add(&t, " (UnixBench's scale, not UnixBench's index)");
	} else if (c->n == NUB) {
		sb_add(&t, "UnixBench's System Benchmarks Index over its 12 index tests");
	} else {
		sb_addf(&t, "UnixBench's partial index over the %zu index tests the log holds (without ", c->n);
		bool first = true;
		for (size_t u = 0; u < NUB; u++) {
			bool in = false;
			for (size_t m = 0; m < c->n; m++)
				in |= !strcmp(c->test[m], ub_index[u].test);
			if (!in) {
				sb_addf(&t, "%s%s", first ? "" : ", ", ub_index[u].test);
				first = false;
			}
		}
		sb_add(&t, ")");
	}
	snprintf(buf, size, "%s", sb_str(&t));
	sb_free(&t);
}
