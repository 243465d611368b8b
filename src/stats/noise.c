/* noise.c - the spread and block drift of a noise probe's samples. */
#include "noise.h"
#include "stats/stats.h"

#include <math.h>

void stats_noise(const double *x, size_t n, size_t block, double *cv, double *drift)
{
	*cv = *drift = NAN;
	if (n < 2)
		return;
	double m, var = stats_mean_var(x, n, &m);
	if (m <= 0)
		return;
	*cv = sqrt(var) / m;
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
