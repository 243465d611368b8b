/* counter_checks.h - self-checks of workloads from their per-op counters (where counted). */
#ifndef SYSAB_COUNTER_CHECKS_H
#define SYSAB_COUNTER_CHECKS_H

#include <jansson.h>
#include <stddef.h>
#include "run/counters.h"

/* Append to the checks array a (objects {name, value, lo, hi, ok, checked}) the counter
 * checks of workload: per_op[e][0..n[e]) are the per-op counts of event e per sample
 * (n[e] = 0: not counted). A check whose counter was not counted is appended with
 * checked = false and ok = true: it says it could not check, and fails nothing. */
void counter_checks(const char *workload, double *const per_op[CTR_NEVENTS], const size_t n[CTR_NEVENTS], json_t *a);

#endif
