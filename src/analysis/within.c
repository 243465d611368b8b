/* within.c - within-boot factors, comparisons paired by boot or block, and arms paired by round. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- within-boot factors */


static int bootcell_cmp(const void *pa, const void *pb)
{
	const struct bootcell *a = pa, *b = pb;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	return a->cell < b->cell ? -1 : a->cell > b->cell;
}

static int int64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Which factors vary within units, from bc[0..n-1] (each unit a boot or block holds data of a
 * cell at; sorted here): within, the factors at least 2 levels of which every unit holds, when
 * there are at least 2 units; mixed, those only some units hold several levels of. The one rule
 * analyze's within-boot factors (and so plan's) and compare's pairing by boot or block follow. */
void an_within_units(struct bootcell *bc, size_t n, const size_t *cell_level, size_t nf, unsigned *within,
		     unsigned *mixed)
{
	*within = *mixed = 0;
	if (nf >= 8 * sizeof *within)
		return;
	if (n)
		qsort(bc, n, sizeof *bc, bootcell_cmp);
	size_t nboots = 0;
	for (size_t a = 0; a < n; a++)
		nboots += !a || bc[a].boot != bc[a - 1].boot;
	/* one boot has nothing to pair over: its runs are analysed as before (--unit run's case) */
	for (size_t i = 0; i < nf && nboots >= 2; i++) {
		bool all = n > 0, some = false;
		for (size_t a = 0; a < n;) {
			size_t z = a;
			bool several = false;
			for (; z < n && bc[z].boot == bc[a].boot; z++)
				several |= cell_level[bc[z].cell * nf + i] != cell_level[bc[a].cell * nf + i];
			all &= several;
			some |= several;
			a = z;
		}
		if (all)
			*within |= 1u << i;
		else if (some)
			*mixed |= 1u << i;
	}
}

/* Which factors vary within boots, decided by the data (an_analyze.within and .mixed): over
 * every series of every cell, the levels of each factor that each boot holds runs at. */
void an_within_factors(const struct store_set *cells, size_t ncells, const size_t *cell_level, size_t nf,
		       unsigned *within, unsigned *mixed)
{
	struct bootcell *bc = NULL;
	size_t n = 0, cap = 0;
	for (size_t c = 0; c < ncells; c++)
		for (size_t s = 0; s < cells[c].nseries; s++)
			for (size_t b = 0; b < cells[c].series[s].nboots; b++) {
				bc = xgrow(bc, &cap, n + 1, sizeof *bc);
				bc[n++] = (struct bootcell){cells[c].series[s].boots[b].boot, c};
			}
	an_within_units(bc, n, cell_level, nf, within, mixed);
	free(bc);
}

/* The boots of one row in a design with within-boot factors: per boot (and between-boot
 * combination) its mean at each within-boot combination, from the cells' data gd (cell c at
 * levels cell_level[c*nf..]). Fills wb[0..*nk-1] (pointing into *m) and keys (boot id, between
 * combination in .cell); free *wb, *m and *key. */
struct wboots {
	struct st_wboot *wb;
	struct bootcell *key;
	double *m;
	size_t n, nw;
};

static void wboots_build(const struct gdata *gd, size_t ncells, const size_t *cell_level, const struct st_factor *f,
			 size_t nf, unsigned within, struct wboots *out)
{
	memset(out, 0, sizeof *out);
	size_t nb, nw, g, w, cap = 0, mcap = 0;
	stats_within_split(f, nf, within, cell_level, &g, &w, &nb, &nw);
	out->nw = nw;
	for (size_t c = 0; c < ncells; c++) {
		if (!gd[c].have)
			continue;
		stats_within_split(f, nf, within, &cell_level[c * nf], &g, &w, NULL, NULL);
		for (size_t b = 0; b < gd[c].g.nboots; b++) {
			size_t k = 0;
			while (k < out->n && !(out->key[k].boot == gd[c].bid[b] && out->key[k].cell == g))
				k++;
			if (k == out->n) {
				out->key = xgrow(out->key, &cap, k + 1, sizeof *out->key);
				out->m = xgrow(out->m, &mcap, (k + 1) * nw, sizeof *out->m);
				out->key[k] = (struct bootcell){gd[c].bid[b], g};
				for (size_t x = 0; x < nw; x++)
					out->m[k * nw + x] = NAN;
				out->n++;
			}
			out->m[k * nw + w] = stats_boot_mean(&gd[c].g.boots[b]);
		}
	}
	out->wb = xcalloc(out->n, sizeof *out->wb);
	for (size_t k = 0; k < out->n; k++)
		out->wb[k] = (struct st_wboot){out->key[k].cell, &out->m[k * nw]};
}

static void wboots_free(struct wboots *x)
{
	free(x->wb);
	free(x->key);
	free(x->m);
	memset(x, 0, sizeof *x);
}

/* Row r's effects in a design with within-boot factors (stats_factorial_within), and its
 * boots lacking some within-boot combination. */
int an_row_within(struct an_analyze *out, struct an_frow *r, const struct gdata *gd, const struct st_factor *f,
		  size_t nf, const struct st_compare_opts *o, struct err *e)
{
	struct wboots x;
	wboots_build(gd, out->ncells, out->cell_level, f, nf, out->within, &x);
	for (size_t k = 0; k < x.n; k++) {
		bool full = true;
		for (size_t w = 0; w < x.nw; w++)
			full &= isfinite(x.m[k * x.nw + w]);
		if (!full) {
			r->incomplete = xrealloc(r->incomplete, (r->nincomplete + 1) * sizeof *r->incomplete);
			r->incomplete[r->nincomplete++] = x.key[k].boot;
		}
	}
	r->nwboots = x.n;
	if (r->nincomplete)
		qsort(r->incomplete, r->nincomplete, sizeof *r->incomplete, int64_cmp);
	int rc = stats_factorial_within(f, nf, out->within, x.wb, x.n, o, &r->fa, e);
	wboots_free(&x);
	return rc;
}


int an_run_unit_cmp(const void *pa, const void *pb)
{
	const struct run_unit *a = pa, *b = pb;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* B against A paired inside each boot: both groups ran on the same boots (compare decides it
 * as analyze decides a within-boot factor, so a one-factor analyze gives the same row). The
 * comparison is the within-boot effect of a two-level factor (stats_factorial_within); *d gets
 * the estimate of the per-boot differences, for the advice on more boots. */
/* With each boot of ga and gb keyed by the unit of its first run (units[0..nu-1], sorted by
 * run) instead of its boot id, when units is not NULL: B against A inside each duet block. */
int an_compare_paired(const struct gdata *ga, const struct gdata *gb, const struct run_unit *units, size_t nu,
		      const struct st_compare_opts *o, struct st_comparison *c, struct st_estimate *d,
		      struct err *e)
{
	static const char *const lv[] = {"A", "B"};
	const struct st_factor f = {"group", lv, 2};
	const size_t level[2] = {0, 1};
	struct gdata gd[2] = {*ga, *gb};
	int64_t *key[2] = {NULL, NULL};
	for (int i = 0; i < 2 && units; i++) {
		key[i] = xcalloc(gd[i].g.nboots, sizeof *key[i]);
		for (size_t b = 0; b < gd[i].g.nboots; b++) {
			struct run_unit want = {gd[i].ids[gd[i].boots[b].runs - gd[i].runs], 0};
			const struct run_unit *hit = bsearch(&want, units, nu, sizeof *units, an_run_unit_cmp);
			key[i][b] = hit ? hit->unit : gd[i].bid[b];
		}
		gd[i].bid = key[i];
	}
	struct wboots x;
	wboots_build(gd, 2, level, &f, 1, 1u, &x);
	free(key[0]);
	free(key[1]);
	struct st_factorial fa;
	int rc = stats_factorial_within(&f, 1, 1u, x.wb, x.n, o, &fa, e);
	if (!rc) {
		*c = fa.effects[0].c;
		double *q = xcalloc(x.n, sizeof *q);
		size_t n = 0;
		for (size_t k = 0; k < x.n; k++)
			if (isfinite(x.m[2 * k]) && isfinite(x.m[2 * k + 1]))
				q[n++] = x.m[2 * k + 1] - x.m[2 * k];
		stats_iid_estimate(q, n, d);
		free(q);
	}
	stats_factorial_free(&fa);
	wboots_free(&x);
	return rc;
}

/* ---------------------------------------------------------------- arms paired by round */

static int arm_pair_cmp(const void *pa, const void *pb)
{
	const struct an_arm_pair *a = pa, *b = pb;
	int c = strcmp(a->boot, b->boot);
	return c ? c : a->a < b->a ? -1 : a->a > b->a;
}

size_t an_arm_pairs(const struct store_run_info *const *runs_a, size_t na, const struct store_run_info *const *runs_b,
		    size_t nb, struct an_arm_pair **out)
{
	*out = NULL;
	if (!na || na != nb)
		return 0;
	struct an_arm_pair *p = xcalloc(na, sizeof *p);
	size_t n = 0;
	bool ok = true;
	for (size_t i = 0; i < na && ok; i++)
		ok = runs_a[i]->pair && runs_b[i]->pair;
	for (size_t i = 0; i < na && ok; i++) {
		const char *tag = runs_a[i]->pair;
		size_t hits = 0, at = 0;
		for (size_t k = 0; k < nb; k++)
			if (!strcmp(tag, runs_b[k]->pair)) {
				hits++;
				at = k;
			}
		for (size_t k = 0; k < na; k++) /* one run of each side per paired run */
			if (k != i && !strcmp(tag, runs_a[k]->pair))
				hits = 0;
		ok = hits == 1 && runs_a[i]->id != runs_b[at]->id && runs_a[i]->boot_id && runs_b[at]->boot_id &&
		     !strcmp(runs_a[i]->boot_id, runs_b[at]->boot_id);
		if (ok)
			p[n++] = (struct an_arm_pair){runs_a[i]->id, runs_b[at]->id, runs_a[i]->boot_id};
	}
	if (!ok) {
		free(p);
		return 0;
	}
	qsort(p, n, sizeof *p, arm_pair_cmp);
	*out = p;
	return n;
}

static const struct store_series_run *series_run(const struct store_series *x, int64_t id)
{
	for (size_t b = 0; x && b < x->nboots; b++)
		for (size_t r = 0; r < x->boots[b].nruns; r++)
			if (x->boots[b].runs[r].run == id)
				return &x->boots[b].runs[r];
	return NULL;
}

/* Row k's differences B - A per round in the paired run p into *d, *rd (allocated; free them):
 * a plain row's over the rounds both arms sampled (warm-up left out), a composite's the mean
 * over its members of theirs, over the rounds both sampled every member (the composite is the
 * mean of its members' logs, less constants that cancel). Returns the count; 0 when either run
 * lacks the row or its rounds. */
static size_t pair_diffs(const struct store_set *a, const struct store_set *b, const struct rowkey *k,
			 const struct an_arm_pair *p, double **d, int **rd)
{
	size_t nm = k->ncomp ? k->comp->n : 1, cap = 0, n = 0;
	double *acc = NULL;
	size_t *cnt = NULL;
	*d = NULL;
	*rd = NULL;
	for (size_t m = 0; m < nm; m++) {
		const char *w = k->ncomp ? k->comp->workload[m] : k->workload;
		const struct store_series_run *sa = series_run(store_set_find(a, w, k->copies), p->a);
		const struct store_series_run *sb = series_run(store_set_find(b, w, k->copies), p->b);
		if (!sa || !sb || !sa->round || !sb->round) {
			free(acc);
			free(cnt);
			return 0;
		}
		for (size_t i = 0, j = 0; i < sa->n && j < sb->n;) {
			if (sa->round[i] < sb->round[j]) {
				i++;
			} else if (sb->round[j] < sa->round[i]) {
				j++;
			} else {
				size_t r = (size_t)sa->round[i];
				if (r >= cap) {
					size_t old = cap;
					cap = 2 * r + 16;
					acc = xrealloc(acc, cap * sizeof *acc);
					cnt = xrealloc(cnt, cap * sizeof *cnt);
					for (size_t z = old; z < cap; z++) {
						acc[z] = 0;
						cnt[z] = 0;
					}
				}
				acc[r] += sb->y[j] - sa->y[i];
				cnt[r]++;
				i++;
				j++;
			}
		}
	}
	*d = xcalloc(cap, sizeof **d);
	*rd = xcalloc(cap, sizeof **rd);
	for (size_t r = 0; r < cap; r++)
		if (cnt[r] == nm) {
			(*d)[n] = acc[r] / (double)nm;
			(*rd)[n++] = (int)r;
		}
	free(acc);
	free(cnt);
	return n;
}

/* Row k compared by round over the paired runs p[0..np-1] (an_arm_pairs): 1 with c and *pd set,
 * 0 when no paired run holds the row with rounds (the row is then compared as groups), -1 with
 * e set. */
int an_compare_rounds(const struct store_set *a, const struct store_set *b, const struct rowkey *k,
		      const struct an_arm_pair *p, size_t np, const struct st_compare_opts *o, struct st_comparison *c,
		      struct st_estimate *pd, struct err *e)
{
	struct st_pairrun *pr = xcalloc(np, sizeof *pr);
	double **dv = xcalloc(np, sizeof *dv);
	int **rv = xcalloc(np, sizeof *rv);
	size_t n = 0, boot = 0;
	const char *last = NULL;
	for (size_t i = 0; i < np; i++) {
		size_t m = pair_diffs(a, b, k, &p[i], &dv[i], &rv[i]);
		if (!m)
			continue;
		if (last && strcmp(p[i].boot, last)) /* boots numbered from 0, without gaps */
			boot++;
		last = p[i].boot;
		pr[n++] = (struct st_pairrun){dv[i], rv[i], m, boot};
	}
	int rc = n ? stats_compare_rounds(pr, n, o, c, pd, e) ? -1 : 1 : 0;
	for (size_t i = 0; i < np; i++) {
		free(dv[i]);
		free(rv[i]);
	}
	free(dv);
	free(rv);
	free(pr);
	return rc;
}
