/* runsum.c - the per-run summary that the store keeps beside the raw samples. */
#include "stats/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int dcmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

double stats_median_sorting(double *x, size_t n)
{
	qsort(x, n, sizeof *x, dcmp);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double stats_mean_var(const double *x, size_t n, double *mean)
{
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m = n ? m / (double)n : NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	if (mean)
		*mean = m;
	return n > 1 ? ss / (double)(n - 1) : NAN;
}

void stats_run_summary(const struct st_run *r, struct st_run_summary *out)
{
	memset(out, 0, sizeof *out);
	stats_run_batches(r, &out->b);
	out->halfwidth = stats_run_halfwidth(r, 0.95);
	out->median_y = out->mad_y = NAN;
	double *t = xmalloc(r->n * sizeof *t);
	for (size_t i = 0; i < r->n; i++)
		t[i] = exp(r->y[i]);
	stats_summary(t, r->n, &out->v);
	stats_run_round_map(r, out->round_map);
	struct st_warnings w = {0};
	struct st_diag_opts o = stats_diag_defaults();
	stats_diagnose_run(r, 0, 0, &o, &w);
	stats_diag_tally_add(&out->diag, &w);
	stats_warnings_free(&w);
	if (r->n) {
		memcpy(t, r->y, r->n * sizeof *t);
		out->median_y = stats_median_sorting(t, r->n);
		for (size_t i = 0; i < r->n; i++)
			t[i] = fabs(r->y[i] - out->median_y);
		out->mad_y = stats_median_sorting(t, r->n);
	}
	free(t);
}
