/* bf.c - the dominance guard of a two-term df: the level holds at every ratio of the true variances. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

/*
 * Two variance terms v1, v2 with f1, f2 df (B against A). Welch's df exceeds what the
 * data carry when one term is far larger than the other in truth yet the smaller one
 * came out large by chance: with 2 or 3 boots per group the A/A rate reaches 6.4% and
 * 5.9% at a ratio of boot variances near 30-300 (docs/METHOD.md, "At every ratio of
 * boot variances"). The guard: where one term holds more than tau of v1 + v2, the df
 * is that term's own, or the unguarded one if lower (the t quantile at the term's own
 * df is exact in the limit). tau is the largest share for which the rule's A/A rate,
 * computed exactly over the two chi-square laws (midpoint rule on QN x QN quantiles),
 * stays at or below alpha at each of the ratios 1e-4..1e4. It depends on f1, f2 and
 * alpha only, so it is worked out once per key.
 */

#define QN 40          /* quadrature nodes per term */
#define UN 400         /* shares at which the unguarded quantile is tabulated */
#define NRATIO 33      /* ratios 1e-4 .. 1e4, log-spaced */
#define BISECT 14      /* tau to about 3e-5 */
#define CACHE 256
#define F_STEP 16.0    /* df keyed to 1/16 (floored) */
#define F_NO_GUARD 50  /* both terms above: no guard (at 50 against 50 df the worst level is 5.002%) */

struct key {
	double f1, f2, alpha, tau;
};

static struct key cache[CACHE];
static size_t ncache, next_slot;

struct calib {
	double f1, f2, alpha;
	double x1[QN], x2[QN];
	double cu[UN + 1]; /* the unguarded quantile at share u = i / UN */
	double c1, c2;     /* the quantiles at f1 and f2 */
	size_t last_bad;   /* the ratio index that failed last */
};

/* The unguarded quantile at shares u, 1 - u: stats_welch_df for two terms (scale-free),
 * with the weights w1, w2 worked out once. */
static double unguarded_q(const struct calib *k, double u, double w1, double w2)
{
	double v[2] = {u * w1, (1 - u) * w2}, f[2] = {k->f1, k->f2};
	return -stats_t_quantile(k->alpha / 2, stats_satterthwaite(v, f, 2));
}

/* The quantile stats_bf_df gives at share u: past tau the dominant term's own, unless the
 * unguarded one is larger (the guard only ever lowers the df). */
static double quantile_at(const struct calib *k, double u, double tau)
{
	double x = u * UN, q;
	size_t i = (size_t)x;
	if (i >= UN) {
		q = k->cu[UN];
	} else {
		double w = x - (double)i;
		q = (1 - w) * k->cu[i] + w * k->cu[i + 1];
	}
	if (u > tau)
		return fmax(k->c1, q);
	if (1 - u > tau)
		return fmax(k->c2, q);
	return q;
}

/* The A/A rate at ratio r (v1 true r, v2 true 1; equal coefficients) under tau. */
static double aa_at(const struct calib *k, double r, double tau)
{
	double s = 0, sd = sqrt(r + 1);
	for (size_t i = 0; i < QN; i++)
		for (size_t j = 0; j < QN; j++) {
			double v1 = r * k->x1[i] / k->f1, v2 = k->x2[j] / k->f2;
			double c = quantile_at(k, v1 / (v1 + v2), tau);
			s += gsl_cdf_ugaussian_Q(c * sqrt(v1 + v2) / sd);
		}
	return 2 * s / (QN * QN);
}

/* Whether the level holds at every ratio under tau; the ratio that failed last is tried
 * first (a failing tau then costs one ratio, not up to all of them). */
static bool holds(struct calib *k, double tau)
{
	for (size_t j = 0; j < NRATIO; j++) {
		size_t i = (k->last_bad + j) % NRATIO;
		if (aa_at(k, pow(10, -4 + 8 * (double)i / (NRATIO - 1)), tau) > k->alpha) {
			k->last_bad = i;
			return false;
		}
	}
	return true;
}

static double calibrate(double f1, double f2, double alpha)
{
	struct calib *k = xmalloc(sizeof *k);
	k->f1 = f1;
	k->f2 = f2;
	k->alpha = alpha;
	k->last_bad = NRATIO / 2;
	for (size_t i = 0; i < QN; i++) {
		double p = ((double)i + 0.5) / QN;
		k->x1[i] = stats_chisq_quantile(p, f1);
		k->x2[i] = stats_chisq_quantile(p, f2);
	}
	double w1 = stats_ucb_weight(f1), w2 = stats_ucb_weight(f2);
	for (size_t i = 0; i <= UN; i++)
		k->cu[i] = unguarded_q(k, (double)i / UN, w1, w2);
	k->c1 = -stats_t_quantile(alpha / 2, f1);
	k->c2 = -stats_t_quantile(alpha / 2, f2);
	double tau = 1;
	bool ok = isfinite(k->c1) && isfinite(k->c2);
	for (size_t i = 0; i < QN && ok; i++)
		ok = isfinite(k->x1[i]) && isfinite(k->x2[i]);
	for (size_t i = 0; i <= UN && ok; i++)
		ok = isfinite(k->cu[i]);
	if (!ok) {
		tau = 0.5; /* cannot be worked out: the dominant term's df throughout */
	} else if (!holds(k, 1)) {
		double lo = 0.5, hi = 1;
		for (int it = 0; it < BISECT; it++) {
			double mid = (lo + hi) / 2;
			if (holds(k, mid))
				lo = mid;
			else
				hi = mid;
		}
		tau = lo;
	}
	free(k);
	return tau;
}

double stats_bf_tau(double f1, double f2, double alpha)
{
	if (!(f1 >= 1) || !(f2 >= 1) || !isfinite(f1) || !isfinite(f2) || !(alpha > 0 && alpha < 1) ||
	    (f1 > F_NO_GUARD && f2 > F_NO_GUARD))
		return 1;
	f1 = floor(f1 * F_STEP) / F_STEP;
	f2 = floor(f2 * F_STEP) / F_STEP;
	for (size_t i = 0; i < ncache; i++)
		if (cache[i].f1 == f1 && cache[i].f2 == f2 && cache[i].alpha == alpha)
			return cache[i].tau;
	double tau = calibrate(f1, f2, alpha);
	cache[next_slot] = (struct key){f1, f2, alpha, tau};
	next_slot = (next_slot + 1) % CACHE;
	if (ncache < CACHE)
		ncache++;
	return tau;
}

double stats_bf_cap(double v1, double f1, double v2, double f2, double df, double tau)
{
	if (!(v1 >= 0) || !(v2 >= 0) || !(v1 + v2 > 0) || isnan(df) || tau >= 1)
		return df;
	double u = v1 / (v1 + v2);
	if (u > tau)
		return fmin(f1, df);
	if (1 - u > tau)
		return fmin(f2, df);
	return df;
}

double stats_bf_df(double v1, double f1, double v2, double f2, double df, double alpha)
{
	if (!(v1 >= 0) || !(v2 >= 0) || !(v1 + v2 > 0) || isnan(df))
		return df;
	return stats_bf_cap(v1, f1, v2, f2, df, stats_bf_tau(f1, f2, alpha));
}
