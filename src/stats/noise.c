/* noise.c - the spread and block drift of a noise probe's samples. */
#include "noise.h"

#include <math.h>

void stats_noise(const double *x, size_t n, size_t block, double *cv, double *drift)
{
	*cv = *drift = NAN;
	if (n < 2)
		return;
	double m = 0, ss = 0;
	for (size_t i = 0; i < n; i++)
		m += x[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	if (m <= 0)
		return;
	*cv = sqrt(ss / (double)(n - 1)) / m;
	size_t nb = block ? n / block : 0;
	if (nb < 2)
		return;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t b = 0; b < nb; b++) {
		double s = 0;
		for (size_t i = 0; i < block; i++)
			s += x[b * block + i];
		s /= (double)block;
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	*drift = (hi - lo) / m;
}
