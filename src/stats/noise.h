/* noise.h - the noise floor of a probe's samples: spread and block drift. Pure. */
#ifndef SYSAB_STATS_NOISE_H
#define SYSAB_STATS_NOISE_H

#include <stddef.h>

/* The noise floor of n samples x (time per unit, in order): cv = sample standard
 * deviation / mean; drift = (largest − smallest mean of consecutive blocks of `block`
 * samples) / overall mean, over the whole blocks only (NaN with fewer than two).
 * cv is NaN with fewer than two samples. */
void stats_noise(const double *x, size_t n, size_t block, double *cv, double *drift);

#endif
