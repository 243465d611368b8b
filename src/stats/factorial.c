/* factorial.c - main effects, two-way interactions and level contrasts over factor cells. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define FACTORIAL_MAX_CELLS 4096

/* Index of a level combination, the first factor varying slowest. */
static size_t combo_index(const struct st_factor *f, size_t nf, const size_t *level)
{
	size_t k = 0;
	for (size_t i = 0; i < nf; i++)
		k = k * f[i].nlevels + level[i];
	return k;
}

static void combo_levels(const struct st_factor *f, size_t nf, size_t k, size_t *level)
{
	for (size_t i = nf; i-- > 0;) {
		level[i] = k % f[i].nlevels;
		k /= f[i].nlevels;
	}
}

static void unavailable(struct st_effect *ef, const struct st_compare_opts *o)
{
	ef->available = false;
	struct st_comparison *c = &ef->c;
	memset(c, 0, sizeof *c);
	c->verdict = ST_NO_DATA;
	c->d = c->se = c->df = c->t = c->p = c->q = NAN;
	c->lo = c->hi = c->lo2 = c->hi2 = NAN;
	c->pct = c->pct_lo = c->pct_hi = c->pct_lo2 = c->pct_hi2 = NAN;
	c->alpha = c->alpha_design = o->alpha;
	c->unit = o->unit;
	c->margin = o->margin;
	c->eq_lo = log1p(-o->margin);
	c->eq_hi = log1p(o->margin);
	c->need = ST_NEED_RUNS;
}

/* Fill one effect from coefficients over all combinations. */
static void effect(struct st_effect *ef, const struct st_estimate *const *cell, const double *coef, size_t ncombo,
		   const struct st_compare_opts *o)
{
	ef->available = true;
	for (size_t k = 0; k < ncombo; k++)
		if (coef[k] != 0 && !cell[k]) {
			unavailable(ef, o);
			return;
		} else if (coef[k] != 0 && !cell[k]->has_interval) {
			ef->available = false; /* no data, with the cells' caveats, as compare says it */
		}
	/* stats_contrast skips zero coefficients, so missing cells there are never read. Cell
	 * variances are never pooled: a pretest of their equality has no power at 1-3 df a cell
	 * (METHOD.md, "Factorial analysis"), so a one-factor, two-level effect is exactly
	 * stats_compare of its two cells. */
	static const struct st_estimate none = {.mean = 0};
	const struct st_estimate **e = xmalloc(ncombo * sizeof *e);
	for (size_t k = 0; k < ncombo; k++)
		e[k] = cell[k] ? cell[k] : &none;
	stats_contrast(e, coef, ncombo, o, &ef->c);
	free(e);
}

static struct st_effect *add_effect(struct st_factorial *fa, size_t *cap)
{
	fa->effects = xgrow(fa->effects, cap, fa->neffects + 1, sizeof *fa->effects);
	struct st_effect *ef = &fa->effects[fa->neffects++];
	memset(ef, 0, sizeof *ef);
	return ef;
}

int stats_factorial(const struct st_factor *f, size_t nf, const struct st_cell *cells, size_t ncells,
		    const struct st_compare_opts *o, struct st_factorial *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (nf == 0)
		return errf(e, "a factorial analysis needs at least one factor");
	size_t ncombo = 1;
	for (size_t i = 0; i < nf; i++) {
		if (f[i].nlevels < 2)
			return errf(e, "factor '%s' has %zu level%s; it needs at least 2", f[i].name, f[i].nlevels,
				    f[i].nlevels == 1 ? "" : "s");
		if (ncombo > FACTORIAL_MAX_CELLS / f[i].nlevels)
			return errf(e, "too many factor combinations (more than %d cells)", FACTORIAL_MAX_CELLS);
		ncombo *= f[i].nlevels;
	}
	const struct st_estimate **cell = xcalloc(ncombo, sizeof *cell);
	for (size_t c = 0; c < ncells; c++) {
		for (size_t i = 0; i < nf; i++)
			if (cells[c].level[i] >= f[i].nlevels) {
				free(cell);
				return errf(e, "cell %zu: level %zu of factor '%s' is out of range (it has %zu)", c + 1,
					    cells[c].level[i] + 1, f[i].name, f[i].nlevels);
			}
		size_t k = combo_index(f, nf, cells[c].level);
		if (cell[k]) {
			free(cell);
			return errf(e, "cell %zu repeats a combination of factor levels", c + 1);
		}
		cell[k] = cells[c].est;
	}
	out->nfactors = nf;
	size_t *lv = xmalloc(nf * sizeof *lv);
	for (size_t k = 0; k < ncombo; k++)
		if (!cell[k] || !cell[k]->has_interval) {
			out->missing = xrealloc(out->missing, (out->nmissing + 1) * nf * sizeof *out->missing);
			combo_levels(f, nf, k, &out->missing[out->nmissing * nf]);
			out->nmissing++;
		}

	double *coef = xmalloc(ncombo * sizeof *coef);
	size_t cap = 0;
	for (size_t i = 0; i < nf; i++) {
		size_t nl = f[i].nlevels;
		double w = (double)nl / (double)ncombo; /* 1 / (combinations of the other factors) */
		for (size_t l = 1; l < nl; l++) {
			for (size_t k = 0; k < ncombo; k++) {
				combo_levels(f, nf, k, lv);
				coef[k] = lv[i] == l ? w : lv[i] == 0 ? -w : 0;
			}
			struct st_effect *ef = add_effect(out, &cap);
			ef->kind = nl == 2 ? ST_EFFECT_MAIN : ST_EFFECT_LEVEL;
			ef->factor = ef->factor2 = i;
			ef->level = l;
			effect(ef, cell, coef, ncombo, o);
		}
	}
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++) {
			if (f[i].nlevels != 2 || f[j].nlevels != 2)
				continue;
			double w = 4.0 / (double)ncombo;
			for (size_t k = 0; k < ncombo; k++) {
				combo_levels(f, nf, k, lv);
				coef[k] = (lv[i] ? 1 : -1) * (lv[j] ? 1 : -1) * w;
			}
			struct st_effect *ef = add_effect(out, &cap);
			ef->kind = ST_EFFECT_INTERACTION;
			ef->factor = i;
			ef->factor2 = j;
			ef->level = 1;
			effect(ef, cell, coef, ncombo, o);
		}
	free(coef);
	free(lv);
	free(cell);
	return 0;
}

void stats_factorial_free(struct st_factorial *fa)
{
	if (!fa)
		return;
	free(fa->effects);
	free(fa->missing);
	memset(fa, 0, sizeof *fa);
}
