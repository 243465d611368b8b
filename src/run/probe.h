/* probe.h - the noise floor: a short pinned register-only loop measured before a run samples. */
#ifndef SYSAB_PROBE_H
#define SYSAB_PROBE_H

#include <stdint.h>
#include "core/core.h"

struct probe_result {
	double cv;          /* spread of the probe's samples (fraction) */
	double drift;       /* range of its block means over the mean (fraction) */
	double steal_pct;   /* steal time during the probe, % of CPU time; <0 unknown */
	int nsamples;
	uint64_t wall_ns;
};

/* Run the probe for about budget_ns on cpu (pinned there, then the affinity restored):
 * samples of ~budget/40 each of a loop that touches only registers. Never fails. */
void probe_run(uint64_t budget_ns, int cpu, struct probe_result *out);

/* Add the result to an environment: probe.cv, probe.drift, probe.steal_pct (numbers, which
 * always differ between runs) and noise.level (low: the worse of CV and drift < 1%, moderate:
 * < 5%, high) and steal.level (none: < 0.5%, some: < 5%, high): words, compared between groups. */
void probe_env(const struct probe_result *r, struct kvlist *env);

#endif
