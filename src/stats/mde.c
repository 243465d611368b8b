/* mde.c - the minimum detectable effect of a boots x runs x samples design, by the model of plan.c. */
#include "stats/mde.h"

#include <math.h>
#include <string.h>

struct st_components stats_mde_rough(double sd_sample)
{
	double s = sd_sample > 0 ? sd_sample : ST_MDE_ROUGH_SD_SAMPLE;
	return (struct st_components){
		.var_boot = ST_MDE_ROUGH_SD_BOOT * ST_MDE_ROUGH_SD_BOOT,
		.var_run = ST_MDE_ROUGH_SD_RUN * ST_MDE_ROUGH_SD_RUN,
		.var_within = s * s,
	};
}

/* Component lv of c as a plan on point estimates takes it: unknown (NAN) counts as 0. */
static double comp(const struct st_components *c, int lv)
{
	double v = lv == ST_LEVEL_BOOT ? c->var_boot : lv == ST_LEVEL_RUN ? c->var_run : c->var_within;
	return isnan(v) || v < 0 ? 0 : v;
}

/* The MDE of B boots given the summed components and the Welch df factor. */
static double mde_of(const double v[ST_NLEVELS], double dfshare, size_t B, size_t r, size_t s, double alpha,
		     double power, double *se, double *df)
{
	double b = (double)B, n = b * (double)r;
	*se = sqrt(v[ST_LEVEL_BOOT] / b + v[ST_LEVEL_RUN] / n + v[ST_LEVEL_WITHIN] / (n * (double)s));
	*df = dfshare * (b - 1);
	double k = stats_t_quantile(1 - alpha / 2, *df) + stats_t_quantile(power, *df);
	return expm1(k * *se);
}

int stats_mde(const struct st_components *a, const struct st_components *b, size_t boots, size_t runs,
	      size_t samples, double alpha, double power, double target, size_t max_boots, struct st_mde *out,
	      struct err *e)
{
	memset(out, 0, sizeof *out);
	out->mde = out->se = out->df = NAN;
	if (boots < 2)
		return errf(e, "an MDE needs at least 2 boots per group (%zu given): one boot has no interval", boots);
	if (!runs || !samples)
		return errf(e, "an MDE needs at least 1 run per boot and 1 sample per run");
	if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return errf(e, "MDE alpha %g and power %g must be between 0 and 1", alpha, power);
	if (!(target >= 0))
		return errf(e, "MDE target %g must be > 0", target);
	double v[ST_NLEVELS], ga = 0, gb = 0;
	for (int lv = 0; lv < ST_NLEVELS; lv++) {
		v[lv] = comp(a, lv) + comp(b, lv);
		ga += comp(a, lv);
		gb += comp(b, lv);
	}
	/* Welch df when both groups share a design, as stats_plan approximates it */
	double dfshare = ga + gb > 0 ? (ga + gb) * (ga + gb) / (ga * ga + gb * gb) : 2;
	out->mde = mde_of(v, dfshare, boots, runs, samples, alpha, power, &out->se, &out->df);
	for (size_t B = 2; target > 0 && B <= max_boots; B++) {
		double se, df;
		if (mde_of(v, dfshare, B, runs, samples, alpha, power, &se, &df) <= target) {
			out->boots_needed = B;
			break;
		}
	}
	return 0;
}

int stats_mde_paired(const struct st_components *c, size_t pairs, size_t rounds, double alpha, double power,
		     double target, size_t max_pairs, struct st_mde *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->mde = out->se = out->df = NAN;
	if (pairs < 2)
		return errf(e, "an MDE needs at least 2 paired runs (%zu given): one has no interval", pairs);
	if (!rounds)
		return errf(e, "an MDE needs at least 1 round per paired run");
	if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return errf(e, "MDE alpha %g and power %g must be between 0 and 1", alpha, power);
	if (!(target >= 0))
		return errf(e, "MDE target %g must be > 0", target);
	/* the boot cancels; each arm's run and sample noise enters a difference twice */
	double v[ST_NLEVELS] = {0, 2 * comp(c, ST_LEVEL_RUN), 2 * comp(c, ST_LEVEL_WITHIN)};
	out->mde = mde_of(v, 1, pairs, 1, rounds, alpha, power, &out->se, &out->df);
	for (size_t P = 2; target > 0 && P <= max_pairs; P++) {
		double se, df;
		if (mde_of(v, 1, P, 1, rounds, alpha, power, &se, &df) <= target) {
			out->boots_needed = P;
			break;
		}
	}
	return 0;
}
