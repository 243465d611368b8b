/* calibrate.c - batch size arithmetic. */
#include "calibrate.h"

uint64_t calib_next(uint64_t n, uint64_t elapsed_ns, uint64_t target_ns, bool *done)
{
	double want;
	if (elapsed_ns >= target_ns / 8 && elapsed_ns > 0) {
		*done = true;
		want = (double)n * (double)target_ns / (double)elapsed_ns;
	} else {
		*done = false;
		/* Too short to trust: grow toward a quarter of the target, by 2x to 16x. */
		double f = elapsed_ns ? (double)target_ns / (double)elapsed_ns / 4.0 : 16.0;
		if (f < 2)
			f = 2;
		if (f > 16)
			f = 16;
		want = (double)n * f;
	}
	if (want < 1)
		want = 1;
	if (want > (double)CALIB_MAX_OPS)
		want = (double)CALIB_MAX_OPS;
	return (uint64_t)(want + 0.5);
}
