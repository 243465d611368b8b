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

/* The number of level combinations of f[0..nf-1] into *ncombo; -1 with e set when a factor has
 * fewer than 2 levels or the combinations exceed FACTORIAL_MAX_CELLS. */
static int factor_combos(const struct st_factor *f, size_t nf, size_t *ncombo, struct err *e)
{
	*ncombo = 1;
	for (size_t i = 0; i < nf; i++) {
		if (f[i].nlevels < 2)
			return errf(e, "factor '%s' has %zu level%s; it needs at least 2", f[i].name, f[i].nlevels,
				    f[i].nlevels == 1 ? "" : "s");
		if (*ncombo > FACTORIAL_MAX_CELLS / f[i].nlevels)
			return errf(e, "too many factor combinations (more than %d cells)", FACTORIAL_MAX_CELLS);
		*ncombo *= f[i].nlevels;
	}
	return 0;
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
	size_t ncombo;
	if (factor_combos(f, nf, &ncombo, e))
		return -1;
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

/* Whether ef is a test of its row's family and of its effect's family across rows: an
 * interval at the declared unit (an effect with none, or with the runs of one boot only, has
 * no q and can give no verdict). */
static bool effect_tested(const struct st_effect *ef)
{
	return ef->available && ef->c.verdict != ST_NO_DATA && isfinite(ef->c.q);
}

void stats_factorial_adjust(struct st_factorial *const *fa, size_t nrows)
{
	size_t most = 0;
	for (size_t i = 0; i < nrows; i++)
		most = fa[i]->neffects > most ? fa[i]->neffects : most;
	size_t cap = nrows > most ? nrows : most;
	struct st_comparison *cs = xcalloc(cap ? cap : 1, sizeof *cs);
	size_t *ix = xcalloc(cap ? cap : 1, sizeof *ix);
	for (size_t i = 0; i < nrows; i++) { /* Holm within each row */
		size_t n = 0;
		for (size_t k = 0; k < fa[i]->neffects; k++)
			if (effect_tested(&fa[i]->effects[k])) {
				cs[n] = fa[i]->effects[k].c;
				ix[n++] = k;
			}
		stats_compare_holm(cs, n);
		for (size_t j = 0; j < n; j++)
			fa[i]->effects[ix[j]].c = cs[j];
	}
	for (size_t k = 0; k < most; k++) { /* then BH across rows, per effect */
		size_t n = 0;
		for (size_t i = 0; i < nrows; i++)
			if (k < fa[i]->neffects && effect_tested(&fa[i]->effects[k])) {
				cs[n] = fa[i]->effects[k].c;
				ix[n++] = i;
			}
		stats_compare_adjust(cs, n);
		for (size_t j = 0; j < n; j++)
			fa[ix[j]]->effects[k].c = cs[j];
	}
	free(cs);
	free(ix);
}

/* ---------------------------------------------------------------- within-boot factors */

double stats_boot_mean(const struct st_boot *b)
{
	if (!b->nruns)
		return NAN;
	double s = 0;
	for (size_t r = 0; r < b->nruns; r++) {
		struct st_runstat rs;
		stats_run_batches(&b->runs[r], &rs);
		s += rs.mean;
	}
	return s / (double)b->nruns;
}

void stats_within_split(const struct st_factor *f, size_t nf, unsigned within, const size_t *level, size_t *between,
			size_t *w, size_t *nbetween, size_t *nwithin)
{
	size_t g = 0, x = 0, ng = 1, nx = 1;
	for (size_t i = 0; i < nf; i++)
		if (within >> i & 1u) {
			x = x * f[i].nlevels + level[i];
			nx *= f[i].nlevels;
		} else {
			g = g * f[i].nlevels + level[i];
			ng *= f[i].nlevels;
		}
	*between = g;
	*w = x;
	if (nbetween)
		*nbetween = ng;
	if (nwithin)
		*nwithin = nx;
}

/* The levels of the factors of one kind (within-boot or not) from their combination k;
 * the other factors' entries are left alone. */
static void split_levels(const struct st_factor *f, size_t nf, unsigned within, bool want_within, size_t k,
			 size_t *level)
{
	for (size_t i = nf; i-- > 0;)
		if (((within >> i & 1u) != 0) == want_within) {
			level[i] = k % f[i].nlevels;
			k /= f[i].nlevels;
		}
}

/* The coefficient of level l of factor i in effect ef: every effect is a product over the
 * factors of such vectors (a factor the effect does not involve is averaged over). */
static double factor_coef(const struct st_factor *f, const struct st_effect *ef, size_t i, size_t l)
{
	size_t nl = f[i].nlevels;
	bool two = ef->kind == ST_EFFECT_INTERACTION || ef->kind == ST_EFFECT_SIMPLE;
	if (i != ef->factor && !(two && i == ef->factor2))
		return 1.0 / (double)nl;
	if (ef->kind == ST_EFFECT_SIMPLE && i == ef->factor2)
		return l == ef->level ? 1 : 0;
	size_t hi = nl == 2 ? 1 : ef->level;
	return l == hi ? 1 : l == 0 ? -1 : 0;
}

/* The coefficients of ef over the combinations of one kind of factor (n of them). */
static void kind_coefs(const struct st_factor *f, size_t nf, unsigned within, bool want_within,
		       const struct st_effect *ef, double *c, size_t n, size_t *lv)
{
	for (size_t k = 0; k < n; k++) {
		split_levels(f, nf, within, want_within, k, lv);
		c[k] = 1;
		for (size_t i = 0; i < nf; i++)
			if (((within >> i & 1u) != 0) == want_within)
				c[k] *= factor_coef(f, ef, i, lv[i]);
	}
}

/* The effects of a within-boot design, in stats_factorial's order and then its own. */
static void within_effects(const struct st_factor *f, size_t nf, unsigned within, struct st_factorial *out)
{
	size_t cap = 0;
	struct st_effect *ef;
	for (size_t i = 0; i < nf; i++)
		for (size_t l = 1; l < f[i].nlevels; l++) {
			ef = add_effect(out, &cap);
			ef->kind = f[i].nlevels == 2 ? ST_EFFECT_MAIN : ST_EFFECT_LEVEL;
			ef->factor = ef->factor2 = i;
			ef->level = l;
		}
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++)
			if (f[i].nlevels == 2 && f[j].nlevels == 2) {
				ef = add_effect(out, &cap);
				ef->kind = ST_EFFECT_INTERACTION;
				ef->factor = i;
				ef->factor2 = j;
				ef->level = 1;
			}
	for (size_t i = 0; i < nf; i++)
		for (size_t j = i + 1; j < nf; j++) {
			bool mixed = (f[i].nlevels == 2) != (f[j].nlevels == 2);
			if (!mixed || !((within >> i | within >> j) & 1u))
				continue;
			size_t many = f[i].nlevels > 2 ? i : j;
			for (size_t l = 1; l < f[many].nlevels; l++) {
				ef = add_effect(out, &cap);
				ef->kind = ST_EFFECT_INTERACTION;
				ef->factor = i;
				ef->factor2 = j;
				ef->level = l;
			}
		}
	for (size_t i = 0; i < nf; i++)
		for (size_t j = 0; j < nf; j++) {
			if (f[i].nlevels != 2 || (within >> i & 1u) || !(within >> j & 1u))
				continue;
			for (size_t l = 0; l < f[j].nlevels; l++) {
				ef = add_effect(out, &cap);
				ef->kind = ST_EFFECT_SIMPLE;
				ef->factor = i;
				ef->factor2 = j;
				ef->level = l;
			}
		}
}

/* One effect of a within-boot design: per boot its within-boot contrast, per between-boot
 * combination the replicates' estimate, then their contrast. */
static void within_effect(struct st_effect *ef, const double *cb, size_t nb, const double *cw, size_t nw,
			  const struct st_wboot *boots, size_t nboots, const struct st_compare_opts *o)
{
	struct st_estimate *est = xcalloc(nb, sizeof *est);
	const struct st_estimate **ep = xcalloc(nb, sizeof *ep);
	double *q = xcalloc(nboots, sizeof *q);
	bool empty = false;
	double ss = 0, sdf = 0;
	ef->rep_w = 0;
	for (size_t g = 0; g < nb; g++) {
		ep[g] = &est[g];
		if (cb[g] == 0)
			continue;
		ef->rep_w += cb[g] * cb[g];
		size_t n = 0;
		for (size_t b = 0; b < nboots; b++) {
			if (boots[b].between != g)
				continue;
			double s = 0;
			bool all = true;
			for (size_t w = 0; w < nw && all; w++)
				if (cw[w] != 0) {
					all = isfinite(boots[b].m[w]);
					s += cw[w] * boots[b].m[w];
				}
			if (all)
				q[n++] = s;
			else
				ef->left_out++;
		}
		ef->boots += n;
		stats_iid_estimate(q, n, &est[g]);
		if (n >= 2) {
			ss += est[g].se * est[g].se * (double)n * (double)(n - 1);
			sdf += (double)(n - 1);
		}
		if (n < 2)
			est[g].need = ST_NEED_BOOTS;
		if (n == 1) /* the boots are the replicates: one has no spread to give an interval */
			est[g].caveats = ST_CAVEAT_ONE_BOOT_PAIRED;
		empty |= n == 0;
	}
	if (empty) {
		unavailable(ef, o);
		ef->c.need = ST_NEED_BOOTS;
	} else {
		/* every configuration it needs has boots: its estimate is shown, with no interval
		 * (and no verdict) where one has a single boot */
		ef->available = true;
		stats_contrast(ep, cb, nb, o, &ef->c);
	}
	if (ef->left_out)
		ef->c.caveats |= ST_CAVEAT_BOOTS_LEFT_OUT;
	if (ef->paired)
		ef->c.caveats |= ST_CAVEAT_PAIRED;
	ef->rep_var = sdf > 0 ? ss / sdf : NAN;
	ef->rep_df = sdf > 0 ? sdf : NAN;
	free(q);
	free(ep);
	free(est);
}

int stats_factorial_within(const struct st_factor *f, size_t nf, unsigned within, const struct st_wboot *boots,
			   size_t nboots, const struct st_compare_opts *o, struct st_factorial *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (nf == 0 || nf >= 8 * sizeof within)
		return errf(e, "a factorial analysis needs 1 to %zu factors", 8 * sizeof within - 1);
	if (!within || within >> nf)
		return errf(e, "no within-boot factor among the %zu factors", nf);
	size_t ncombo;
	if (factor_combos(f, nf, &ncombo, e))
		return -1;
	size_t nb, nw, g0, w0;
	size_t *lv = xcalloc(nf, sizeof *lv);
	stats_within_split(f, nf, within, lv, &g0, &w0, &nb, &nw);
	for (size_t b = 0; b < nboots; b++)
		if (boots[b].between >= nb) {
			free(lv);
			return errf(e, "boot %zu: between-boot combination %zu is out of range (there are %zu)", b + 1,
				    boots[b].between + 1, nb);
		}
	out->nfactors = nf;
	for (size_t g = 0; g < nb; g++)
		for (size_t w = 0; w < nw; w++) {
			bool any = false;
			for (size_t b = 0; b < nboots && !any; b++)
				any = boots[b].between == g && isfinite(boots[b].m[w]);
			if (any)
				continue;
			split_levels(f, nf, within, false, g, lv);
			split_levels(f, nf, within, true, w, lv);
			out->missing = xrealloc(out->missing, (out->nmissing + 1) * nf * sizeof *out->missing);
			memcpy(&out->missing[out->nmissing++ * nf], lv, nf * sizeof *lv);
		}
	within_effects(f, nf, within, out);
	double *cb = xmalloc(nb * sizeof *cb), *cw = xmalloc(nw * sizeof *cw);
	for (size_t k = 0; k < out->neffects; k++) {
		struct st_effect *ef = &out->effects[k];
		kind_coefs(f, nf, within, false, ef, cb, nb, lv);
		kind_coefs(f, nf, within, true, ef, cw, nw, lv);
		bool two = ef->kind == ST_EFFECT_INTERACTION || ef->kind == ST_EFFECT_SIMPLE;
		ef->paired = (within >> ef->factor & 1u) || (two && (within >> ef->factor2 & 1u) &&
							     ef->kind != ST_EFFECT_SIMPLE);
		within_effect(ef, cb, nb, cw, nw, boots, nboots, o);
	}
	free(cb);
	free(cw);
	free(lv);
	return 0;
}
