/* precision.h - how precisely one run has measured one workload, and where its steady state starts. */
#ifndef SYSAB_PRECISION_H
#define SYSAB_PRECISION_H

#include <stddef.h>

/* Relative half-width of the (conf) confidence interval of a run's mean throughput,
 * from y = ln(ops/s) of its samples in time order, using batch means of consecutive
 * samples (samples are not independent). INFINITY with fewer than 4 samples. */
double precision_run_halfwidth(const double *y, size_t n, double conf);

/* How many leading samples (y = ln ops/s, in time order) come before the steady state:
 * a leading sample is flagged while it lies more than 4 robust standard deviations
 * (1.4826 MAD, at least 1%) from the median of the second half of the samples. At most
 * a quarter of the samples are flagged; none with fewer than 8. */
size_t precision_warmup_prefix(const double *y, size_t n);

#endif
