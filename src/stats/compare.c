/* compare.c - B versus A, linear contrasts, verdicts, Benjamini-Hochberg adjustment. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct st_compare_opts stats_compare_defaults(void)
{
	return (struct st_compare_opts){.alpha = 0.05, .margin = 0.01, .unit = ST_LEVEL_BOOT};
}

double stats_look_alpha(const struct st_compare_opts *o)
{
	if (o->max_looks == 0 || o->look == 0)
		return o->alpha;
	size_t k = o->look < o->max_looks ? o->look : o->max_looks;
	double tk = o->info > 0 && o->info <= 1 ? o->info : (double)k / (double)o->max_looks;
	if (k == o->max_looks)
		tk = 1;
	/* Earlier looks are taken as evenly spaced in information up to this one. */
	double *t = xmalloc(k * sizeof *t);
	for (size_t j = 0; j < k; j++)
		t[j] = tk * (double)(j + 1) / (double)k;
	double a = stats_seq_nominal(o->alpha, t, k);
	free(t);
	return isnan(a) ? o->alpha : a;
}

static double pct(double x)
{
	return 100 * expm1(x);
}

/* The verdict from q, the (1-alpha) and (1-2alpha) intervals. */
static void decide(struct st_comparison *c)
{
	if (isnan(c->se) || isnan(c->lo)) {
		c->verdict = ST_NO_DATA;
		c->negligible = false;
		return;
	}
	/* Replication: without the declared unit covered in both groups there is no verdict. */
	if (!(c->covered & ST_BIT(c->unit))) {
		c->caveats |= c->unit == ST_LEVEL_RUN ? ST_CAVEAT_NO_RUN_REPL : ST_CAVEAT_NO_BOOT_REPL;
		c->verdict = ST_INCONCLUSIVE;
		c->negligible = false;
		return;
	}
	bool inside = c->lo2 >= c->eq_lo && c->hi2 <= c->eq_hi;
	c->negligible = false;
	if (c->q < c->alpha) {
		c->verdict = c->d > 0 ? ST_FASTER : ST_SLOWER;
		c->negligible = inside;
	} else if (inside) {
		c->verdict = ST_EQUIVALENT;
	} else {
		c->verdict = ST_INCONCLUSIVE;
	}
}

static enum st_need worse_need(enum st_need a, enum st_need b)
{
	return a > b ? a : b;
}

/* Fill c from d, se, df and the options; se NAN means no interval. */
static void finish(struct st_comparison *c, double d, double se, double df, const struct st_compare_opts *o)
{
	c->alpha_design = o->alpha;
	c->alpha = stats_look_alpha(o);
	c->unit = o->unit;
	if (o->max_looks > 0 && o->look > 0)
		c->caveats |= ST_CAVEAT_SEQUENTIAL;
	if (o->unit == ST_LEVEL_RUN)
		c->caveats |= ST_CAVEAT_RUN_UNIT;
	c->margin = o->margin;
	c->eq_lo = log1p(-o->margin);
	c->eq_hi = log1p(o->margin);
	c->d = d;
	c->pct = pct(d);
	c->se = se;
	c->df = df;
	if (isnan(se) || isnan(df)) {
		c->se = c->df = c->t = c->p = c->q = NAN;
		c->lo = c->hi = c->lo2 = c->hi2 = NAN;
		c->pct_lo = c->pct_hi = c->pct_lo2 = c->pct_hi2 = NAN;
		decide(c);
		return;
	}
	/* Fewer than 1 df: the t quantile explodes (or GSL cannot invert it); no verdict. */
	double t1 = se > 0 ? stats_t_quantile(1 - c->alpha / 2, df) : 0;
	double t2 = se > 0 ? stats_t_quantile(1 - c->alpha, df) : 0;
	if (df < 1 || isnan(t1) || isnan(t2)) {
		c->caveats |= ST_CAVEAT_LOW_DF;
		c->t = se > 0 ? d / se : NAN;
		c->p = c->q = NAN;
		c->lo = c->hi = c->lo2 = c->hi2 = NAN;
		c->pct_lo = c->pct_hi = c->pct_lo2 = c->pct_hi2 = NAN;
		decide(c);
		return;
	}
	if (se > 0) {
		c->t = d / se;
		c->p = stats_t_p2(c->t, df);
	} else {
		c->t = d == 0 ? 0 : copysign(INFINITY, d);
		c->p = d == 0 ? 1 : 0;
	}
	c->q = c->p;
	c->lo = d - t1 * se;
	c->hi = d + t1 * se;
	c->lo2 = d - t2 * se;
	c->hi2 = d + t2 * se;
	c->pct_lo = pct(c->lo);
	c->pct_hi = pct(c->hi);
	c->pct_lo2 = pct(c->lo2);
	c->pct_hi2 = pct(c->hi2);
	decide(c);
}

void stats_compare(const struct st_estimate *a, const struct st_estimate *b, const struct st_compare_opts *o,
		   struct st_comparison *out)
{
	const struct st_estimate *e[2] = {a, b};
	double c[2] = {-1, 1};
	stats_contrast(e, c, 2, o, out);
}

void stats_contrast(const struct st_estimate *const *est, const double *c, size_t n,
		    const struct st_compare_opts *o, struct st_comparison *out)
{
	memset(out, 0, sizeof *out);
	double d = 0, se2 = 0;
	double *v = xmalloc((n ? n : 1) * sizeof *v), *df = xmalloc((n ? n : 1) * sizeof *df);
	size_t nv = 0;
	bool ok = true;
	out->covered = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	for (size_t i = 0; i < n; i++) {
		if (c[i] == 0)
			continue;
		d += c[i] * est[i]->mean;
		out->caveats |= est[i]->caveats;
		out->covered &= est[i]->covered;
		out->need = worse_need(out->need, est[i]->need);
		if (!est[i]->has_interval) {
			ok = false;
			continue;
		}
		v[nv] = c[i] * c[i] * est[i]->se * est[i]->se;
		df[nv] = est[i]->df;
		se2 += v[nv];
		/* The df weights each term by its 80% upper confidence bound v df / chi2_{df,0.2}:
		 * a term whose variance came out small by chance then cannot hand the df to the
		 * other terms (Welch's df is biased high exactly then; METHOD.md). The se is not changed. */
		if (!o->classic_df && df[nv] > 0 && isfinite(df[nv])) {
			double q = stats_chisq_quantile(ST_DF_UCB_Q, df[nv]);
			if (q > 0)
				v[nv] *= df[nv] / q;
		}
		nv++;
	}
	double ddf = ok ? stats_satterthwaite(v, df, nv) : NAN;
	if (ok && isnan(ddf)) /* every se is 0 */
		ddf = INFINITY;
	free(v);
	free(df);
	finish(out, d, ok ? sqrt(se2) : NAN, ddf, o);
}

void stats_compare_adjust(struct st_comparison *c, size_t n)
{
	double *p = xmalloc((n ? n : 1) * sizeof *p);
	for (size_t i = 0; i < n; i++)
		p[i] = c[i].p;
	stats_bh(p, n, p);
	for (size_t i = 0; i < n; i++) {
		c[i].q = p[i];
		decide(&c[i]);
	}
	free(p);
}
