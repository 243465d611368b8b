/* dist.c - t and normal distributions, Satterthwaite df, Benjamini-Hochberg. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_roots.h>

void stats_gsl_quiet(void)
{
	gsl_set_error_handler_off();
}

double stats_chisq_quantile(double p, double df)
{
	stats_gsl_quiet();
	if (!(p > 0 && p < 1) || !(df > 0) || isinf(df))
		return NAN;
	double x = gsl_cdf_chisq_Pinv(p, df);
	return isfinite(x) ? x : NAN;
}

double stats_t_quantile(double p, double df)
{
	stats_gsl_quiet();
	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (isinf(df))
		return gsl_cdf_ugaussian_Pinv(p);
	/* GSL's inverse is good to about 1e-9; two Newton steps on the cdf (the
	 * smaller tail, for precision) bring it to rounding level. */
	double x = gsl_cdf_tdist_Pinv(p, df);
	for (int i = 0; i < 2 && isfinite(x); i++) {
		double f = gsl_ran_tdist_pdf(x, df);
		if (!(f > 0))
			break;
		double r = p < 0.5 ? gsl_cdf_tdist_P(x, df) - p : (1 - p) - gsl_cdf_tdist_Q(x, df);
		x -= r / f;
	}
	return isfinite(x) ? x : NAN;
}

double stats_t_p2(double t, double df)
{
	stats_gsl_quiet();
	if (isnan(t) || !(df > 0))
		return NAN;
	double a = fabs(t);
	double q = isinf(df) ? gsl_cdf_ugaussian_Q(a) : gsl_cdf_tdist_Q(a, df);
	double p = 2 * q;
	return p > 1 ? 1 : p;
}

double stats_normal_quantile(double p)
{
	stats_gsl_quiet();
	if (!(p > 0 && p < 1))
		return NAN;
	return gsl_cdf_ugaussian_Pinv(p);
}

double stats_obf_spent(double alpha, double t)
{
	if (!(alpha > 0 && alpha < 1) || !(t > 0))
		return NAN;
	if (t >= 1)
		return alpha;
	return 2 * gsl_cdf_ugaussian_Q(gsl_cdf_ugaussian_Pinv(1 - alpha / 2) / sqrt(t));
}

#define SEQ_GRID 161 /* points of the continuation density on the Brownian scale */

/* Probability mass of |S_t| >= c sqrt(t) given S_u = s (t > u): Brownian increments. */
static double cross_from(double s, double du, double lim)
{
	double sd = sqrt(du);
	return gsl_cdf_ugaussian_Q((lim - s) / sd) + gsl_cdf_ugaussian_P((-lim - s) / sd);
}

void stats_seq_free(struct st_seq *s)
{
	free(s->t);
	free(s->bound);
	free(s->cont);
	free(s->step);
	memset(s, 0, sizeof *s);
}

bool stats_seq_make(struct st_seq *s, double alpha, const double *t, size_t k)
{
	stats_gsl_quiet();
	memset(s, 0, sizeof *s);
	if (k == 0 || !(alpha > 0 && alpha < 1))
		return false;
	for (size_t j = 0; j < k; j++)
		if (!(t[j] > 0 && t[j] <= 1) || (j > 0 && !(t[j] > t[j - 1])))
			return false;
	s->k = k;
	s->alpha = alpha;
	s->t = xmalloc(k * sizeof *s->t);
	memcpy(s->t, t, k * sizeof *t);
	s->bound = xmalloc(k * sizeof *s->bound);
	s->cont = xmalloc(k * SEQ_GRID * sizeof *s->cont);
	s->step = xmalloc(k * sizeof *s->step);
	/* f[i]: density of S (the Brownian path, S_t ~ N(0, t)) at look j on grid x[i]
	 * over the continuation region, trapezoid weights; h: grid step. */
	double *x = xmalloc(SEQ_GRID * sizeof *x), *f = xmalloc(SEQ_GRID * sizeof *f);
	double *g = xmalloc(SEQ_GRID * sizeof *g);
	double c = NAN, spent = 0, h = 0;
	for (size_t j = 0; j < k; j++) {
		double target = stats_obf_spent(alpha, t[j]) - spent;
		double du = j ? t[j] - t[j - 1] : t[0];
		/* Crossing probability at look j as a function of the boundary z value. */
		double lo = 0, hi = 40;
		for (int it = 0; it < 52; it++) {
			double mid = (lo + hi) / 2, lim = mid * sqrt(t[j]), pr = 0;
			if (j == 0)
				pr = 2 * gsl_cdf_ugaussian_Q(mid);
			else
				for (size_t i = 0; i < SEQ_GRID; i++)
					pr += f[i] * h * (i == 0 || i == SEQ_GRID - 1 ? 0.5 : 1) * cross_from(x[i], du, lim);
			if (pr > target)
				lo = mid;
			else
				hi = mid;
		}
		c = (lo + hi) / 2;
		s->bound[j] = c;
		double lim = c * sqrt(t[j]);
		/* Crossing at this look, exactly as spent: */
		spent = stats_obf_spent(alpha, t[j]);
		if (j + 1 == k)
			break;
		/* The continuation density at look j on a new grid over (-lim, lim). */
		double nh = 2 * lim / (SEQ_GRID - 1);
		for (size_t i = 0; i < SEQ_GRID; i++) {
			double xi = -lim + nh * (double)i, v = 0;
			if (j == 0)
				v = gsl_ran_gaussian_pdf(xi, sqrt(du));
			else
				for (size_t m = 0; m < SEQ_GRID; m++)
					v += f[m] * h * (m == 0 || m == SEQ_GRID - 1 ? 0.5 : 1) *
					     gsl_ran_gaussian_pdf(xi - x[m], sqrt(du));
			g[i] = v;
		}
		for (size_t i = 0; i < SEQ_GRID; i++) {
			x[i] = -lim + nh * (double)i;
			f[i] = g[i];
		}
		h = nh;
		memcpy(s->cont + j * SEQ_GRID, f, SEQ_GRID * sizeof *f);
		s->step[j] = h;
	}
	free(x);
	free(f);
	free(g);
	if (!isfinite(c)) {
		stats_seq_free(s);
		return false;
	}
	return true;
}

double stats_seq_level(const struct st_seq *s)
{
	return s->k ? 2 * gsl_cdf_ugaussian_Q(s->bound[s->k - 1]) : NAN;
}

double stats_seq_nominal(double alpha, const double *t, size_t k)
{
	struct st_seq s;
	if (!stats_seq_make(&s, alpha, t, k))
		return NAN;
	double a = stats_seq_level(&s);
	stats_seq_free(&s);
	return a;
}

/* Under drift theta (S_t ~ N(theta t, t)): the probability of an outcome at least as
 * high as (look k, z) in the stage-wise order, i.e. of leaving through an upper boundary
 * at a look before k, or of reaching look k and Z_k >= z there. A path's law under drift
 * is its law under H0 tilted by exp(theta S_t - theta^2 t / 2), so the H0 sub-densities
 * (s->cont) serve every theta. */
static double seq_above(const struct st_seq *s, double theta, double z)
{
	const double *t = s->t;
	double pr = 0;
	for (size_t j = 0; j < s->k; j++) {
		double edge = (j + 1 < s->k ? s->bound[j] : z) * sqrt(t[j]);
		if (j == 0) {
			pr += gsl_cdf_ugaussian_Q(edge / sqrt(t[0]) - theta * sqrt(t[0]));
			continue;
		}
		double du = t[j] - t[j - 1], sd = sqrt(du), h = s->step[j - 1];
		double lim = s->bound[j - 1] * sqrt(t[j - 1]);
		const double *f = s->cont + (j - 1) * SEQ_GRID;
		for (size_t i = 0; i < SEQ_GRID; i++) {
			double x = -lim + h * (double)i, w = h * (i == 0 || i == SEQ_GRID - 1 ? 0.5 : 1);
			pr += w * f[i] * exp(theta * x - theta * theta * t[j - 1] / 2) *
			      gsl_cdf_ugaussian_Q((edge - x - theta * du) / sd);
		}
	}
	return pr;
}

struct seq_tail {
	const struct st_seq *s;
	double z, want;
};

static double seq_tail_gap(double theta, void *arg)
{
	const struct seq_tail *a = arg;
	return seq_above(a->s, theta, a->z) - a->want;
}

bool stats_seq_stagewise(const struct st_seq *s, double z, double *lo, double *hi)
{
	stats_gsl_quiet();
	*lo = *hi = NAN;
	if (!s->k || !isfinite(z))
		return false;
	/* The drift whose stage-wise tail at the outcome is alpha/2 (lo) and 1 - alpha/2 (hi);
	 * the tail grows with the drift. Reported as the mean of Z_k, theta sqrt(t_k). */
	double tk = sqrt(s->t[s->k - 1]);
	bool ok = true;
	gsl_root_fsolver *solver = gsl_root_fsolver_alloc(gsl_root_fsolver_brent);
	for (int side = 0; ok && side < 2; side++) {
		struct seq_tail arg = {s, z, side ? 1 - s->alpha / 2 : s->alpha / 2};
		gsl_function fn = {seq_tail_gap, &arg};
		double a = (z - 40) / tk, b = (z + 40) / tk, r = NAN;
		if (!(seq_tail_gap(a, &arg) < 0 && seq_tail_gap(b, &arg) > 0) ||
		    gsl_root_fsolver_set(solver, &fn, a, b) != GSL_SUCCESS) {
			ok = false;
			break;
		}
		for (int it = 0; it < 100; it++) {
			if (gsl_root_fsolver_iterate(solver) != GSL_SUCCESS)
				break;
			r = gsl_root_fsolver_root(solver);
			if (gsl_root_test_interval(gsl_root_fsolver_x_lower(solver), gsl_root_fsolver_x_upper(solver), 1e-11,
						   0) == GSL_SUCCESS)
				break;
		}
		*(side ? hi : lo) = r * tk;
	}
	gsl_root_fsolver_free(solver);
	if (!ok || !isfinite(*lo) || !isfinite(*hi)) {
		*lo = *hi = NAN;
		return false;
	}
	return true;
}

double stats_satterthwaite(const double *v, const double *df, size_t n)
{
	double sum = 0, den = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i] == 0)
			continue;
		sum += v[i];
		if (!isinf(df[i]))
			den += v[i] * v[i] / df[i];
	}
	if (!(sum > 0))
		return NAN;
	if (den == 0)
		return INFINITY;
	return sum * sum / den;
}

struct bh_item {
	double p;
	size_t i;
};

static int bh_cmp(const void *a, const void *b)
{
	const struct bh_item *x = a, *y = b;
	return (x->p > y->p) - (x->p < y->p);
}

/* The p values of p[0..n) that are not NaN, ascending, with their indices, into a new array
 * (free it) of *m items; q[i] is NaN where p[i] is (a step-wise adjustment skips those). */
static struct bh_item *sorted_p(const double *p, size_t n, double *q, size_t *m)
{
	struct bh_item *it = xmalloc(n * sizeof *it);
	*m = 0;
	for (size_t i = 0; i < n; i++) {
		if (isnan(p[i]))
			q[i] = NAN;
		else
			it[(*m)++] = (struct bh_item){p[i], i};
	}
	if (*m)
		qsort(it, *m, sizeof *it, bh_cmp);
	return it;
}

void stats_bh(const double *p, size_t n, double *q)
{
	size_t m;
	struct bh_item *it = sorted_p(p, n, q, &m);
	/* q_(k) = min over j >= k of m p_(j) / j, capped at 1 */
	double run = 1;
	for (size_t k = m; k-- > 0;) {
		double v = it[k].p * (double)m / (double)(k + 1);
		if (v < run)
			run = v;
		q[it[k].i] = run;
	}
	free(it);
}

void stats_holm(const double *p, size_t n, double *q)
{
	size_t m;
	struct bh_item *it = sorted_p(p, n, q, &m);
	/* q_(k) = max over j <= k of (m - j + 1) p_(j), capped at 1 */
	double run = 0;
	for (size_t k = 0; k < m; k++) {
		double v = it[k].p * (double)(m - k);
		if (v > run)
			run = v < 1 ? v : 1;
		q[it[k].i] = run;
	}
	free(it);
}
