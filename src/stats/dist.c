/* dist.c - t and normal distributions, Satterthwaite df, Benjamini-Hochberg. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

double stats_t_quantile(double p, double df)
{
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
	return x;
}

double stats_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	double a = fabs(t);
	double q = isinf(df) ? gsl_cdf_ugaussian_Q(a) : gsl_cdf_tdist_Q(a, df);
	double p = 2 * q;
	return p > 1 ? 1 : p;
}

double stats_normal_quantile(double p)
{
	if (!(p > 0 && p < 1))
		return NAN;
	return gsl_cdf_ugaussian_Pinv(p);
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

void stats_bh(const double *p, size_t n, double *q)
{
	struct bh_item *it = xmalloc((n ? n : 1) * sizeof *it);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			it[m++] = (struct bh_item){p[i], i};
	for (size_t i = 0; i < n; i++)
		if (isnan(p[i]))
			q[i] = NAN;
	qsort(it, m, sizeof *it, bh_cmp);
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
