/* bf.c - the df of B against A (Behrens-Fisher): calibrated per df pair so the level holds at every ratio of the true variances. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * Two variance terms v1, v2 with f1, f2 df (B against A), term i holding the share u_i of
 * v1 + v2. The df is f1 + f2 (what both terms hold together) unless a term dominates:
 * over a band of shares [tau_i - BAND, tau_i] the df moves continuously to that term's
 * own f_i (linear in 1/df, so roughly linear in the t quantile), and past tau_i it is
 * f_i (t at f_i is exact when the term is all of v1 + v2). Where both caps apply the
 * lower df wins. The df, and so p, is continuous in the shares.
 *
 * tau1, tau2 are calibrated per (f1, f2, alpha): the level of the rule, computed exactly
 * over the two chi-square laws (midpoint rule on QN x QN quantiles, no random numbers),
 * must stay at or below stats_bf_target at each of NRATIO ratios 1e-4..1e4 of the true
 * variances; among such pairs, the one whose level is highest at the ratio of equal boot
 * variances, r0 = (f2 + 1) / (f1 + 1), is kept (the most efficient one there). Equal df:
 * tau1 = tau2, the largest that holds (bisection). Unequal: the best of that symmetric
 * pair and, for each tau of the larger-df term on a golden-section search, the largest
 * tau of the smaller-df term that holds.
 */

#define QN 48          /* quadrature nodes per term */
#define LN 512         /* band positions at which each term's t quantile is tabulated */
#define NRATIO 49      /* ratios 1e-4 .. 1e4, log-spaced (10^(1/6) apart) */
#define MARGIN 0.004   /* of alpha inside 1e-3..1e3, scaled by 6 / min(f1, f2) above 6 df: the quadrature's
                          and the ratio grid's error stay inside (both shrink as the df grow) */
#define EDGE_LOG 3.0   /* beyond 1e-3, 1e3 the rule is the dominant term's exact t: alpha itself */
#define LOW 0.12       /* of alpha, over min(f1, f2)^2, where the smaller-df term carries more of the true variance
                          (unequal df), tapering to 0 at 1e-3, 1e3: the level of the nested estimate
                          departs from the chi-square model there (docs/METHOD.md) */
#define BISECT 12      /* tau to about 3e-4 */
#define GOLDEN 7       /* golden-section steps over the larger-df term's tau (to about 0.02) */
#define CACHE 512
#define F_STEP 4.0     /* df keyed to 1/4 (floored) */
#define F_NO_GUARD 50  /* both terms above: plain Satterthwaite (at 50 against 50 df its worst level is 5.002%) */

struct key {
	double f1, f2, alpha, tau1, tau2;
};

static struct key cache[CACHE];
static size_t ncache, next_slot;

struct calib {
	double f1, f2, alpha, fp;
	double lim[NRATIO];    /* the level held at each ratio (stats_bf_target) */
	double *th, *sc;       /* per ratio and node: share of term 1, sd of the estimate over sd(d) */
	double lo, hi;         /* 1/df from 1/(f1 + f2) to 1/min(f1, f2) */
	double c[LN + 1];      /* the t quantile at 1/df = lo + (hi - lo) i / LN */
	double r0th[QN * QN], r0sc[QN * QN];
	size_t last_bad;
};

double stats_bf_target(double f1, double f2, double alpha, double ratio)
{
	double lr = fabs(log10(ratio));
	if (!(lr <= EDGE_LOG + 1e-9))
		return alpha;
	double fs = fmin(f1, f2), m = MARGIN * fmin(1, 6 / fs);
	if (f1 != f2 && (f1 < f2) == (ratio > 1))
		m += LOW / (fs * fs) * (1 - lr / EDGE_LOG);
	return (1 - m) * alpha;
}

/* Satterthwaite's 1/df of two terms at share u of the first. */
static double inv_welch(double u, double f1, double f2)
{
	return u * u / f1 + (1 - u) * (1 - u) / f2;
}

static double band_lambda(double u, double tau)
{
	double lam = (tau - u) / ST_BF_BAND;
	return lam < 0 ? 0 : lam > 1 ? 1 : lam;
}

/* The rule's 1/df at share u of term 1: over term i's band, 1/df moves from Welch's
 * (lambda 1) to 1/f_i (lambda 0); the larger 1/df (the lower df) wins. */
static double inv_rule(double u, double f1, double f2, double tau1, double tau2)
{
	double w = inv_welch(u, f1, f2), l1 = band_lambda(u, tau1), l2 = band_lambda(1 - u, tau2);
	return fmax(w, fmax(l1 * w + (1 - l1) / f1, l2 * w + (1 - l2) / f2));
}

double stats_bf_rule(double v1, double f1, double v2, double f2, double tau1, double tau2)
{
	if (!(v1 >= 0) || !(v2 >= 0) || !(v1 + v2 > 0))
		return NAN;
	return 1 / inv_rule(v1 / (v1 + v2), f1, f2, tau1, tau2);
}

/* The rule's critical value at share u of term 1 (the t quantile tabulated in 1/df). */
static double crit(const struct calib *k, double u, double t1, double t2)
{
	double x = (inv_rule(u, k->f1, k->f2, t1, t2) - k->lo) / (k->hi - k->lo) * LN;
	if (!(x > 0))
		return k->c[0];
	size_t i = (size_t)x;
	if (i >= LN)
		return k->c[LN];
	double w = x - (double)i;
	return (1 - w) * k->c[i] + w * k->c[i + 1];
}

static double level_nodes(const struct calib *k, const double *th, const double *sc, double t1, double t2)
{
	double s = 0;
	for (size_t n = 0; n < QN * QN; n++)
		s += erfc(crit(k, th[n], t1, t2) * sc[n] * M_SQRT1_2);
	return s / (QN * QN);
}

static bool holds(struct calib *k, double t1, double t2)
{
	for (size_t j = 0; j < NRATIO; j++) {
		size_t i = (k->last_bad + j) % NRATIO;
		if (level_nodes(k, k->th + i * QN * QN, k->sc + i * QN * QN, t1, t2) > k->lim[i]) {
			k->last_bad = i;
			return false;
		}
	}
	return true;
}

static void nodes_at(const struct calib *k, const double *x1, const double *x2, double r, double *th, double *sc)
{
	double sd = sqrt(r + 1);
	for (size_t i = 0; i < QN; i++)
		for (size_t j = 0; j < QN; j++) {
			double v1 = r * x1[i] / k->f1, v2 = x2[j] / k->f2;
			th[i * QN + j] = v1 / (v1 + v2);
			sc[i * QN + j] = sqrt(v1 + v2) / sd;
		}
}

/* The largest tau of the term small (1 or 2) in [0, 1 + BAND] that holds with the other's
 * at other (sym: both equal); 0 (the smaller df throughout, Hsu's rule) if none does. */
static double largest(struct calib *k, int small, double other, bool sym)
{
	double lo = 0, hi = 1 + ST_BF_BAND;
#define PAIR(t) (sym ? (t) : small == 1 ? (t) : other), (sym ? (t) : small == 1 ? other : (t))
	if (holds(k, PAIR(hi)))
		return hi;
	for (int it = 0; it < BISECT; it++) {
		double mid = (lo + hi) / 2;
		if (holds(k, PAIR(mid)))
			lo = mid;
		else
			hi = mid;
	}
#undef PAIR
	return lo;
}

static double level_r0(const struct calib *k, double t1, double t2)
{
	return level_nodes(k, k->r0th, k->r0sc, t1, t2);
}

/* Golden-section step target: the level at r0 with the larger-df term at tl. */
static double try_large(struct calib *k, int small, double tl, double *ts)
{
	*ts = largest(k, small, tl, false);
	return small == 1 ? level_r0(k, *ts, tl) : level_r0(k, tl, *ts);
}

static void calibrate(double f1, double f2, double alpha, double *tau1, double *tau2)
{
	struct calib *k = xmalloc(sizeof *k);
	k->f1 = f1;
	k->f2 = f2;
	k->alpha = alpha;
	k->fp = f1 + f2;
	k->last_bad = NRATIO / 2;
	k->th = xmalloc(NRATIO * QN * QN * sizeof *k->th);
	k->sc = xmalloc(NRATIO * QN * QN * sizeof *k->sc);
	double x1[QN], x2[QN];
	bool ok = true;
	for (size_t i = 0; i < QN; i++) {
		double p = ((double)i + 0.5) / QN;
		x1[i] = stats_chisq_quantile(p, f1);
		x2[i] = stats_chisq_quantile(p, f2);
		ok = ok && isfinite(x1[i]) && isfinite(x2[i]);
	}
	k->lo = 1 / k->fp;
	k->hi = 1 / fmin(f1, f2);
	for (size_t i = 0; i <= LN && ok; i++) {
		k->c[i] = -stats_t_quantile(alpha / 2, 1 / (k->lo + (k->hi - k->lo) * (double)i / LN));
		ok = isfinite(k->c[i]);
	}
	*tau1 = *tau2 = 0; /* cannot be worked out: the smaller df throughout */
	if (ok) {
		for (size_t i = 0; i < NRATIO; i++) {
			double r = pow(10, -4 + 8 * (double)i / (NRATIO - 1));
			nodes_at(k, x1, x2, r, k->th + i * QN * QN, k->sc + i * QN * QN);
			k->lim[i] = stats_bf_target(f1, f2, alpha, r);
		}
		nodes_at(k, x1, x2, (f2 + 1) / (f1 + 1), k->r0th, k->r0sc);
		double t = largest(k, 1, 0, true), best = level_r0(k, t, t);
		*tau1 = *tau2 = t;
		if (f1 != f2) {
			int small = f1 < f2 ? 1 : 2;
			const double g = (sqrt(5) - 1) / 2;
			double a = 0.5, b = 1 + ST_BF_BAND, ta, tb;
			double x = b - g * (b - a), y = a + g * (b - a);
			double fx = try_large(k, small, x, &ta), fy = try_large(k, small, y, &tb);
			for (int it = 0; it < GOLDEN; it++) {
				double tl = fx >= fy ? x : y, ts = fx >= fy ? ta : tb, fl = fmax(fx, fy);
				if (fl > best) {
					best = fl;
					*tau1 = small == 1 ? ts : tl;
					*tau2 = small == 1 ? tl : ts;
				}
				if (fx >= fy) {
					b = y;
					y = x;
					fy = fx;
					tb = ta;
					x = b - g * (b - a);
					fx = try_large(k, small, x, &ta);
				} else {
					a = x;
					x = y;
					fx = fy;
					ta = tb;
					y = a + g * (b - a);
					fy = try_large(k, small, y, &tb);
				}
			}
		}
	}
	free(k->th);
	free(k->sc);
	free(k);
}

static bool calibrated(double f1, double f2, double alpha)
{
	return f1 >= 1 && f2 >= 1 && isfinite(f1) && isfinite(f2) && alpha > 0 && alpha < 1 &&
	       !(f1 > F_NO_GUARD && f2 > F_NO_GUARD);
}

/* A df keyed to 1/4, floored (a df a rounding error below k/4 is k/4). */
static double key_df(double f)
{
	return floor(f * F_STEP + 1e-9) / F_STEP;
}

bool stats_bf_taus(double f1, double f2, double alpha, double *tau1, double *tau2)
{
	if (!calibrated(f1, f2, alpha))
		return false;
	f1 = key_df(f1);
	f2 = key_df(f2);
	for (size_t i = 0; i < ncache; i++)
		if (cache[i].f1 == f1 && cache[i].f2 == f2 && cache[i].alpha == alpha) {
			*tau1 = cache[i].tau1;
			*tau2 = cache[i].tau2;
			return true;
		}
	calibrate(f1, f2, alpha, tau1, tau2);
	cache[next_slot] = (struct key){f1, f2, alpha, *tau1, *tau2};
	next_slot = (next_slot + 1) % CACHE;
	if (ncache < CACHE)
		ncache++;
	return true;
}

double stats_bf_df(double v1, double f1, double v2, double f2, double df, double alpha)
{
	double tau1, tau2;
	if (!(v1 >= 0) || !(v2 >= 0) || !(v1 + v2 > 0) || isnan(df) || !stats_bf_taus(f1, f2, alpha, &tau1, &tau2))
		return df;
	return stats_bf_rule(v1, f1, v2, f2, tau1, tau2);
}
