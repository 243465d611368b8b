/* precision.c - the run-level CI half-width used by adaptive sampling, and warm-up detection. */
#include "precision.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

double precision_run_halfwidth(const double *y, size_t n, double conf)
{
	if (n < 4)
		return INFINITY;
	size_t k = n / 2 < 10 ? n / 2 : 10; /* batches of at least 2 consecutive samples */
	size_t per = n / k;
	double means[10];
	for (size_t b = 0; b < k; b++) {
		/* the last batch takes the remainder */
		size_t lo = b * per, hi = b == k - 1 ? n : lo + per;
		means[b] = gsl_stats_mean(y + lo, 1, hi - lo);
	}
	double se = gsl_stats_sd(means, 1, k) / sqrt((double)k);
	double hw = gsl_cdf_tdist_Pinv(0.5 + conf / 2, (double)(k - 1)) * se;
	return exp(hw) - 1;
}

size_t precision_warmup_prefix(const double *y, size_t n)
{
	if (n < 8)
		return 0;
	size_t h = n / 2, m = n - h;
	double *tail = malloc(m * sizeof *tail);
	double *dev = malloc(m * sizeof *dev);
	if (!tail || !dev)
		abort();
	memcpy(tail, y + h, m * sizeof *tail);
	gsl_sort(tail, 1, m);
	double med = gsl_stats_median_from_sorted_data(tail, 1, m);
	for (size_t i = 0; i < m; i++)
		dev[i] = fabs(tail[i] - med);
	gsl_sort(dev, 1, m);
	double sd = 1.4826 * gsl_stats_median_from_sorted_data(dev, 1, m);
	free(tail);
	free(dev);
	double lim = 4 * sd > 0.01 ? 4 * sd : 0.01;
	size_t k = 0;
	while (k < n / 4 && fabs(y[k] - med) > lim)
		k++;
	return k;
}
