/* calibrate.h - choosing how many ops make a batch of the target length. */
#ifndef SYSAB_CALIBRATE_H
#define SYSAB_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>

#define CALIB_MAX_OPS 1000000000000ull

/* Given that n ops took elapsed_ns, return the next batch size to try toward target_ns.
 * *done is set when the measurement was long enough to trust (≥ 1/8 of the target);
 * the returned size is then the calibrated one. Never returns 0 or more than CALIB_MAX_OPS. */
uint64_t calib_next(uint64_t n, uint64_t elapsed_ns, uint64_t target_ns, bool *done);

#endif
