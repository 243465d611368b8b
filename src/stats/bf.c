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
 *
 * Cost: outside the two bands the rule does not depend on the taus, so each ratio's nodes
 * are sorted by share once and a level is prefix sums plus the nodes inside the bands; a
 * bisection checks only the ratios that have failed so far and then checks its result at
 * all of them (the level rises with either tau, so it took the same steps as a check of
 * every ratio at every step). About 30 ms per df pair, a sixth of a plain evaluation, with
 * the same taus.
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
#define TIE 1e-12     /* levels closer than this are equal (their sums differ in rounding only) */
#define CACHE 512
#define F_STEP 4.0     /* df keyed to 1/4 (floored) */
#define F_NO_GUARD 50  /* both terms above: plain Satterthwaite (at 50 against 50 df its worst level is 5.002%) */

struct key {
	double f1, f2, alpha, tau1, tau2;
};

static struct key cache[CACHE];
static size_t ncache, next_slot;

/* One ratio's QN x QN nodes, sorted by the share u of term 1, and for each of the four
 * rules that do not depend on the taus (Welch's df, capped at f1, at f2, at both) the prefix
 * sums of the nodes' tail terms: outside the two bands the level is a difference of prefix
 * sums, and only the nodes inside a band are evaluated at each (tau1, tau2). */
struct nodeset {
	double u[QN * QN], sc[QN * QN];
	double pre[4][QN * QN + 1];
	bool ready, pre_ready[4];
};

struct known {
	bool any_pass, any_fail;
	double pass1, pass2, fail1, fail2; /* the last pair that held, and that failed */
};

struct calib {
	double f1, f2, alpha, fp;
	double lim[NRATIO];    /* the level held at each ratio (stats_bf_target) */
	double ratio[NRATIO];
	const double *x1, *x2; /* the chi-square quantiles of the two terms */
	struct nodeset *set;   /* per ratio (built when first needed), then r0's */
	bool active[NRATIO];   /* ratios that have failed a tau: checked at every bisection step */
	struct known known[NRATIO];
	double lo, hi;         /* 1/df from 1/(f1 + f2) to 1/min(f1, f2) */
	double c[LN + 1];      /* the t quantile at 1/df = lo + (hi - lo) i / LN */
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

/* The critical value at 1/df inv (the t quantile tabulated in 1/df). */
static double crit_inv(const struct calib *k, double inv)
{
	double x = (inv - k->lo) / (k->hi - k->lo) * LN;
	if (!(x > 0))
		return k->c[0];
	size_t i = (size_t)x;
	if (i >= LN)
		return k->c[LN];
	double w = x - (double)i;
	return (1 - w) * k->c[i] + w * k->c[i + 1];
}

/* 1/df of the fixed rule v at share u: Welch's, capped at 1/f1 (bit 0) and 1/f2 (bit 1). */
static double inv_fixed(const struct calib *k, unsigned v, double u)
{
	double w = inv_welch(u, k->f1, k->f2);
	if (v & 1)
		w = fmax(w, 1 / k->f1);
	if (v & 2)
		w = fmax(w, 1 / k->f2);
	return w;
}

static int cmp_node(const void *a, const void *b)
{
	const double *x = a, *y = b;
	return (*x > *y) - (*x < *y);
}

/* The nodes at ratio r of the true variances (term 1 over term 2), sorted by share. */
static void nodes_at(const struct calib *k, double r, struct nodeset *ns)
{
	double sd = sqrt(r + 1), (*pair)[2] = xmalloc(QN * QN * sizeof *pair);
	for (size_t i = 0; i < QN; i++)
		for (size_t j = 0; j < QN; j++) {
			double v1 = r * k->x1[i] / k->f1, v2 = k->x2[j] / k->f2;
			pair[i * QN + j][0] = v1 / (v1 + v2);
			pair[i * QN + j][1] = sqrt(v1 + v2) / sd;
		}
	qsort(pair, QN * QN, sizeof *pair, cmp_node);
	for (size_t n = 0; n < QN * QN; n++) {
		ns->u[n] = pair[n][0];
		ns->sc[n] = pair[n][1];
	}
	ns->ready = true;
	free(pair);
}

/* The prefix sums of fixed rule v over a node set (built when first needed). */
static const double *prefix(const struct calib *k, struct nodeset *ns, unsigned v)
{
	if (!ns->pre_ready[v]) {
		ns->pre[v][0] = 0;
		for (size_t n = 0; n < QN * QN; n++)
			ns->pre[v][n + 1] = ns->pre[v][n] + erfc(crit_inv(k, inv_fixed(k, v, ns->u[n])) * ns->sc[n] * M_SQRT1_2);
		ns->pre_ready[v] = true;
	}
	return ns->pre[v];
}

/* The first node at or above share x. */
static size_t node_index(const struct nodeset *ns, double x)
{
	size_t lo = 0, hi = QN * QN;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (ns->u[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The level of the rule at (t1, t2) over a node set: the shares are cut at the bands'
 * ends; a piece where neither term is inside its band follows a fixed rule (its prefix
 * sums), a piece inside a band is evaluated node by node. The rule is continuous in the
 * share, so a node at a cut belongs to either side. */
static double level_set(const struct calib *k, struct nodeset *ns, double t1, double t2)
{
	double cut[6] = {-INFINITY, t1 - ST_BF_BAND, t1, 1 - t2, 1 - t2 + ST_BF_BAND, INFINITY};
	qsort(cut + 1, 4, sizeof *cut, cmp_node);
	double s = 0;
	for (size_t p = 0; p < 5; p++) {
		size_t from = node_index(ns, cut[p]), to = node_index(ns, cut[p + 1]);
		if (from >= to)
			continue;
		double mid = (ns->u[from] + ns->u[to - 1]) / 2;
		double l1 = band_lambda(mid, t1), l2 = band_lambda(1 - mid, t2);
		if ((l1 == 0 || l1 == 1) && (l2 == 0 || l2 == 1)) {
			unsigned v = (l1 == 0 ? 1u : 0u) | (l2 == 0 ? 2u : 0u);
			const double *pre = prefix(k, ns, v);
			s += pre[to] - pre[from];
		} else {
			for (size_t n = from; n < to; n++)
				s += erfc(crit_inv(k, inv_rule(ns->u[n], k->f1, k->f2, t1, t2)) * ns->sc[n] * M_SQRT1_2);
		}
	}
	return s / (QN * QN);
}

static double level_at(struct calib *k, size_t i, double t1, double t2)
{
	if (!k->set[i].ready)
		nodes_at(k, i < NRATIO ? k->ratio[i] : (k->f2 + 1) / (k->f1 + 1), &k->set[i]);
	return level_set(k, &k->set[i], t1, t2);
}

/* Does (t1, t2) hold at ratio i? The level rises with either tau, so a pair at or below one
 * that held holds, and a pair at or above one that failed fails; and where Welch's df (every
 * tau past 1 + BAND) holds, every pair does. */
static bool holds_at(struct calib *k, size_t i, double t1, double t2)
{
	struct known *m = &k->known[i];
	if (m->any_pass && t1 <= m->pass1 && t2 <= m->pass2)
		return true;
	if (m->any_fail && t1 >= m->fail1 && t2 >= m->fail2)
		return false;
	bool ok = level_at(k, i, t1, t2) <= k->lim[i];
	if (ok) {
		m->any_pass = true;
		m->pass1 = t1;
		m->pass2 = t2;
	} else {
		m->any_fail = true;
		m->fail1 = t1;
		m->fail2 = t2;
	}
	return ok;
}

/* Does (t1, t2) hold at the ratios that have failed before (all: at every ratio)? A ratio
 * that fails joins them. The level rises with either tau at every ratio, so a bisection
 * over the failed ratios whose result then holds at all of them took the same steps as one
 * over all ratios. */
static bool holds(struct calib *k, double t1, double t2, bool all)
{
	for (size_t i = 0; i < NRATIO; i++)
		if ((all || k->active[i]) && !holds_at(k, i, t1, t2)) {
			k->active[i] = true;
			return false;
		}
	return true;
}

/* The largest tau of the term small (1 or 2) in [0, 1 + BAND] that holds with the other's
 * at other (sym: both equal); 0 (the smaller df throughout, Hsu's rule) if none does. */
static double largest(struct calib *k, int small, double other, bool sym)
{
#define PAIR(t) (sym ? (t) : small == 1 ? (t) : other), (sym ? (t) : small == 1 ? other : (t))
	for (;;) {
		double lo = 0, hi = 1 + ST_BF_BAND;
		if (holds(k, PAIR(hi), false))
			lo = hi;
		else
			for (int it = 0; it < BISECT; it++) {
				double mid = (lo + hi) / 2;
				if (holds(k, PAIR(mid), false))
					lo = mid;
				else
					hi = mid;
			}
		if (lo == 0 || holds(k, PAIR(lo), true))
			return lo;
	}
#undef PAIR
}

static double level_r0(struct calib *k, double t1, double t2)
{
	return level_at(k, NRATIO, t1, t2);
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
	k->set = xcalloc(NRATIO + 1, sizeof *k->set);
	memset(k->active, 0, sizeof k->active);
	memset(k->known, 0, sizeof k->known);
	double x1[QN], x2[QN];
	k->x1 = x1;
	k->x2 = x2;
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
			k->ratio[i] = pow(10, -4 + 8 * (double)i / (NRATIO - 1));
			k->lim[i] = stats_bf_target(f1, f2, alpha, k->ratio[i]);
		}
		double t = largest(k, 1, 0, true), best = level_r0(k, t, t);
		*tau1 = *tau2 = t;
		if (f1 != f2) {
			int small = f1 < f2 ? 1 : 2;
			const double g = (sqrt(5) - 1) / 2;
			double a = 0.5, b = 1 + ST_BF_BAND, ta, tb;
			double x = b - g * (b - a), y = a + g * (b - a);
			double fx = try_large(k, small, x, &ta), fy = try_large(k, small, y, &tb);
			for (int it = 0; it < GOLDEN; it++) {
				bool left = fx >= fy - TIE;
				double tl = left ? x : y, ts = left ? ta : tb, fl = left ? fx : fy;
				if (fl > best + TIE) {
					best = fl;
					*tau1 = small == 1 ? ts : tl;
					*tau2 = small == 1 ? tl : ts;
				}
				if (left) {
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
	free(k->set);
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
