/* factorial.c - factorial analysis: effects of factors over cells, between and within boots. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- factorial */

/* Which effects have a point estimate and no interval (an_analyze.points_only), and why. */
static void point_estimates(struct an_analyze *out)
{
	size_t points = 0, all = 0;
	for (size_t i = 0; i < out->nrows; i++)
		for (size_t k = 0; k < out->rows[i].fa.neffects; k++) {
			const struct st_effect *ef = &out->rows[i].fa.effects[k];
			all++;
			points += an_effect_point_only(ef);
		}
	out->points_only = points && points == all;
	if (!points)
		return;
	if (out->max_boots <= 1)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "1 boot per cell");
	else if (out->need == ST_NEED_RUNS)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "1 run per boot in a cell");
	else if (out->need == ST_NEED_SAMPLES)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "too few samples in a cell's runs");
	else
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "a cell on fewer than 2 boots");
}

bool an_effect_point_only(const struct st_effect *ef)
{
	return !ef->available && isfinite(ef->c.d);
}

/* The multiplicity (stats_factorial_adjust: Holm within each row, then BH across rows), then
 * the changes as shown. */
static void analyze_finish(struct an_analyze *out)
{
	struct st_factorial **fa = xcalloc(out->nrows ? out->nrows : 1, sizeof *fa);
	for (size_t i = 0; i < out->nrows; i++) {
		fa[i] = &out->rows[i].fa;
		for (size_t k = 0; k < fa[i]->neffects; k++)
			if (fa[i]->effects[k].available && fa[i]->effects[k].c.verdict != ST_NO_DATA)
				out->any_interval = true;
	}
	stats_factorial_adjust(fa, out->nrows);
	free(fa);
	/* the changes as shown, from the adjusted comparisons */
	for (size_t i = 0; i < out->nrows; i++) {
		struct an_frow *r = &out->rows[i];
		r->chg = xcalloc(r->fa.neffects, sizeof *r->chg);
		out->change_kinds |= r->latency ? AN_CHG_TIME : AN_CHG_RATE;
		for (size_t ef = 0; ef < r->fa.neffects; ef++)
			an_change_of(&r->fa.effects[ef].c, r->latency, &r->chg[ef]);
	}
}

/* A new row for key k, with its per-cell arrays for ncells cells. */
static void frow_init(struct an_frow *r, const struct rowkey *k, size_t ncells)
{
	r->workload = xstrdup(k->workload);
	r->copies = k->copies;
	r->unit = xstrdup(k->unit);
	r->latency = k->latency;
	r->ncomposite = k->ncomp;
	r->composite = an_describe(k);
	r->have = xcalloc(ncells, sizeof *r->have);
	r->est = xcalloc(ncells, sizeof *r->est);
	r->pts = xcalloc(ncells, sizeof *r->pts);
}

/* Row k's data in every cell into gd (and r's have and points); the cells that have some
 * into g, with map[j] the cell of g[j]; the most boots and runs per boot seen into out.
 * Returns how many cells have data. */
static size_t gather_cells(const struct store_set *cells, size_t ncells, const struct rowkey *k, struct gdata *gd,
			   struct an_frow *r, struct st_group *g, size_t *map, struct an_analyze *out)
{
	size_t ng = 0;
	for (size_t c = 0; c < ncells; c++) {
		an_gdata_row(&cells[c], k, &gd[c]);
		r->have[c] = gd[c].have;
		an_points_of(&gd[c], &r->pts[c]);
		if (!gd[c].have)
			continue;
		map[ng] = c;
		g[ng++] = gd[c].g;
		for (size_t b = 0; b < gd[c].g.nboots; b++)
			if (gd[c].g.boots[b].nruns > out->max_runs)
				out->max_runs = gd[c].g.boots[b].nruns;
		if (gd[c].g.nboots > out->max_boots)
			out->max_boots = gd[c].g.nboots;
	}
	return ng;
}

int an_analyze(const struct store_set *cells, size_t ncells, const size_t *cell_level, const struct st_factor *f,
	       size_t nf, const struct strv *patterns, const struct st_compare_opts *o, struct an_analyze *out,
	       struct err *e)
{
	memset(out, 0, sizeof *out);
	out->factors = f;
	out->nfactors = nf;
	out->ncells = ncells;
	out->cell_level = cell_level;
	out->o = *o;
	/* --unit run declares runs the replicates within one boot: nothing to pair boots over */
	if (o->unit == ST_LEVEL_BOOT)
		an_within_factors(cells, ncells, cell_level, nf, &out->within, &out->mixed);
	if (out->within && o->host_adjust)
		return errf(e, "--adjust host: a factor varies inside each boot, whose effects are taken inside each "
			       "boot, and those are not adjusted for host speed; analyze without --adjust host (the "
			       "pairing already cancels what the runs of one boot share)");
	struct rowkey *k;
	size_t nk;
	if (an_make_rows(cells, ncells, patterns, &k, &nk, e))
		return -1;
	out->rows = xcalloc(nk, sizeof *out->rows);
	size_t needs[ST_NEED_BOOTS + 1] = {0};
	int rc = 0;
	struct gdata *gd = xcalloc(ncells, sizeof *gd);
	struct st_group *g = xcalloc(ncells, sizeof *g);
	struct st_estimate *est = xcalloc(ncells, sizeof *est);
	struct st_cell *sc = xcalloc(ncells, sizeof *sc);
	size_t *map = xcalloc(ncells, sizeof *map);
	for (size_t i = 0; i < nk && !rc; i++) {
		struct an_frow *r = &out->rows[out->nrows++];
		frow_init(r, &k[i], ncells);
		size_t ng = gather_cells(cells, ncells, &k[i], gd, r, g, map, out);
		if (ng && an_estimate_row(cells, gd, map, g, ng, &k[i], o, est, &r->adj, e)) {
			err_prefix(e, "%s", r->workload);
			rc = -1;
		}
		size_t nsc = 0;
		for (size_t j = 0; j < ng && !rc; j++) {
			r->est[map[j]] = est[j];
			sc[nsc++] = (struct st_cell){&cell_level[map[j] * nf], &r->est[map[j]]};
			if (!est[j].has_interval)
				needs[est[j].need]++;
		}
		if (!rc && (out->within ? an_row_within(out, r, gd, f, nf, o, e) : stats_factorial(f, nf, sc, nsc, o, &r->fa, e)))
			rc = -1;
		r->val = xcalloc(ncells, sizeof *r->val);
		for (size_t c = 0; c < ncells; c++)
			an_value_of(r->have[c] ? &r->est[c] : NULL, o->alpha, &r->val[c]);
		for (size_t c = 0; c < ncells; c++)
			an_gdata_free(&gd[c]);
	}
	if (!rc)
		analyze_finish(out);
	size_t best = 0;
	for (size_t x = 0; x <= ST_NEED_BOOTS; x++)
		if (needs[x] > best) {
			best = needs[x];
			out->need = (enum st_need)x;
		}
	if (!rc)
		point_estimates(out);
	free(gd);
	free(g);
	free(est);
	free(sc);
	free(map);
	an_keys_free(k, nk);
	if (rc)
		an_analyze_free(out);
	return rc;
}

void an_analyze_free(struct an_analyze *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nrows; i++) {
		free(a->rows[i].workload);
		free(a->rows[i].unit);
		free(a->rows[i].composite);
		free(a->rows[i].have);
		free(a->rows[i].est);
		free(a->rows[i].val);
		free(a->rows[i].chg);
		free(a->rows[i].incomplete);
		for (size_t c = 0; c < a->ncells && a->rows[i].pts; c++)
			an_points_free(&a->rows[i].pts[c]);
		free(a->rows[i].pts);
		stats_factorial_free(&a->rows[i].fa);
		an_failed_check_free(&a->rows[i].failed);
	}
	free(a->rows);
	an_emulation_free(&a->emu);
	memset(a, 0, sizeof *a);
}
