/* mde.h - the smallest effect a design can detect (MDE) from variance components. Pure. */
#ifndef SYSAB_STATS_MDE_H
#define SYSAB_STATS_MDE_H

#include "stats/stats.h"

/* The MDE of a design, both groups alike: boots per group, runs per boot, samples per run. */
struct st_mde {
	double mde;  /* relative: e^((t(1-alpha/2, df) + t(power, df)) se) - 1; NAN: not computable */
	double se;   /* of the difference of the two groups' log means */
	double df;   /* Welch df of that difference, as stats_plan plans it */
	size_t boots_needed; /* with a target: the fewest boots (same runs and samples) whose MDE meets
			      * it, 0 when none up to max_boots does; without a target 0 */
};

/* Documented defaults when nothing was measured (rough MDE): standard deviations on the log
 * scale of a boot mean, a run mean and one sample (docs/METHOD.md, "Minimum detectable effect"). */
#define ST_MDE_ROUGH_SD_BOOT 0.01
#define ST_MDE_ROUGH_SD_RUN 0.005
#define ST_MDE_ROUGH_SD_SAMPLE 0.02

/* The components of the rough defaults, with sample sd sd_sample (ST_MDE_ROUGH_SD_SAMPLE when
 * not > 0, e.g. a host's noise probe cv). */
struct st_components stats_mde_rough(double sd_sample);

/* The MDE at 1 - alpha confidence and power of a design of boots x runs x samples per group
 * for two groups with components a and b (point estimates: var_boot, var_run, var_within), by
 * stats_plan's model: se^2 = vb/B + vr/(B r) + vw/(B r s) with each v the sum of both groups'.
 * With target > 0 also out->boots_needed (2..max_boots). Returns 0, or -1 with e set for
 * boots < 2 (no interval), runs or samples 0, alpha or power outside (0, 1), target < 0. */
int stats_mde(const struct st_components *a, const struct st_components *b, size_t boots, size_t runs,
	      size_t samples, double alpha, double power, double target, size_t max_boots, struct st_mde *out,
	      struct err *e);

/* The MDE of pairs paired runs (run --arm) on one boot, of rounds rounds each, from one arm's
 * components c: the boot level cancels in a difference, each arm's run and sample variance
 * enters it (2 var_run, 2 var_within), df pairs - 1 (docs/METHOD.md). out->boots_needed gets the
 * fewest paired runs meeting target (0: none up to max_pairs). Returns 0, or -1 with e set for
 * pairs < 2, rounds 0, alpha or power outside (0, 1), target < 0. */
int stats_mde_paired(const struct st_components *c, size_t pairs, size_t rounds, double alpha, double power,
		     double target, size_t max_pairs, struct st_mde *out, struct err *e);

#endif
