/* compare.c - B versus A, linear contrasts, verdicts, Benjamini-Hochberg adjustment. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

struct st_compare_opts stats_compare_defaults(void)
{
	return (struct st_compare_opts){.alpha = 0.05, .margin = 0.01};
}

static double pct(double x)
{
	return 100 * expm1(x);
}

/* The verdict from q, the (1-alpha) and (1-2alpha) intervals. */
static void decide(struct st_comparison *c)
{
	if (isnan(c->se)) {
		c->verdict = ST_NO_DATA;
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
	c->alpha = o->alpha;
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
	if (se > 0) {
		c->t = d / se;
		c->p = stats_t_p2(c->t, df);
	} else {
		c->t = d == 0 ? 0 : copysign(INFINITY, d);
		c->p = d == 0 ? 1 : 0;
	}
	c->q = c->p;
	double t1 = se > 0 ? stats_t_quantile(1 - o->alpha / 2, df) : 0;
	double t2 = se > 0 ? stats_t_quantile(1 - o->alpha, df) : 0;
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
	for (size_t i = 0; i < n; i++) {
		if (c[i] == 0)
			continue;
		d += c[i] * est[i]->mean;
		out->caveats |= est[i]->caveats;
		out->need = worse_need(out->need, est[i]->need);
		if (!est[i]->has_interval) {
			ok = false;
			continue;
		}
		v[nv] = c[i] * c[i] * est[i]->se * est[i]->se;
		df[nv] = est[i]->df;
		se2 += v[nv++];
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
