/* plan.c - cheapest (boots, runs, samples) design for a target interval; boots needed to settle a comparison. */
#include "stats/stats.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

struct st_plan_opts stats_plan_defaults(void)
{
	return (struct st_plan_opts){
		.cost_boot = 120,
		.cost_run = 1,
		.cost_sample = 0.1,
		.target = 0.01,
		.alpha = 0.05,
		.power = 0,
		.max_boots = 64,
		.max_runs = 16,
		.max_samples = 1000,
		.min_samples = ST_MIN_BATCH_SAMPLES,
	};
}

static double known(double v, unsigned *caveats, unsigned bit)
{
	if (isnan(v)) {
		*caveats |= bit;
		return 0;
	}
	return v;
}

int stats_plan(const struct st_components *a, const struct st_components *b, const struct st_plan_opts *o,
	       struct st_plan *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (!(o->target > 0 && o->target < 1))
		return errf(e, "plan target %g is not a relative half-width between 0 and 1", o->target);
	if (!(o->alpha > 0 && o->alpha < 0.5))
		return errf(e, "plan alpha %g is not between 0 and 0.5", o->alpha);
	if (!(o->power >= 0 && o->power < 1))
		return errf(e, "plan power %g is not between 0 and 1", o->power);
	if (!(o->cost_boot >= 0 && o->cost_run >= 0 && o->cost_sample > 0))
		return errf(e, "plan costs must be >= 0 (and > 0 per sample)");
	if (o->max_boots < 2 || o->max_runs < 1 || o->max_samples < o->min_samples || o->min_samples < 1)
		return errf(e, "plan bounds are empty");
	unsigned cav = 0;
	/* Sums over the two groups of each component; unknown components count as 0. */
	double vb = known(a->var_boot, &cav, ST_CAVEAT_NO_BOOT_LEVEL) + known(b->var_boot, &cav, ST_CAVEAT_NO_BOOT_LEVEL);
	double vr = known(a->var_run, &cav, ST_CAVEAT_NO_RUN_LEVEL) + known(b->var_run, &cav, ST_CAVEAT_NO_RUN_LEVEL);
	double vw = known(a->var_within, &cav, 0) + known(b->var_within, &cav, 0);
	/* Welch df when both groups share a design: (va + vb)^2 / (va^2 + vb^2) * (B - 1),
	 * with va, vb each group's variance of a boot mean; approximated from the boot level. */
	double ga = known(a->var_boot, &cav, 0) + known(a->var_run, &cav, 0) + known(a->var_within, &cav, 0);
	double gb = known(b->var_boot, &cav, 0) + known(b->var_run, &cav, 0) + known(b->var_within, &cav, 0);
	double dfshare = ga + gb > 0 ? (ga + gb) * (ga + gb) / (ga * ga + gb * gb) : 2;
	out->caveats = cav;
	out->kj_runs = vb > 0 && o->cost_run > 0 ? sqrt(vr / vb * o->cost_boot / o->cost_run) : INFINITY;
	out->kj_samples = vr > 0 ? sqrt(vw / vr * o->cost_run / o->cost_sample) : INFINITY;
	if (vb == 0 && vr == 0 && vw == 0) {
		out->kj_runs = out->kj_samples = NAN;
	}
	double h = log1p(o->target);
	double best = INFINITY;
	for (size_t B = 2; B <= o->max_boots; B++) {
		double df = dfshare * (double)(B - 1);
		double k = stats_t_quantile(1 - o->alpha / 2, df);
		if (o->power > 0)
			k += stats_t_quantile(o->power, df);
		double lim = (h / k) * (h / k); /* largest se^2 of the difference allowed */
		for (size_t r = 1; r <= o->max_runs; r++) {
			double room = lim - vb / (double)B - vr / (double)(B * r);
			if (room <= 0)
				continue;
			double need = vw > 0 ? ceil(vw / ((double)(B * r) * room) - 1e-12) : 0;
			size_t s = need < (double)o->min_samples ? o->min_samples : (size_t)need;
			if (need > (double)o->max_samples)
				continue;
			double cost = 2 * (double)B * (o->cost_boot + (double)r * (o->cost_run + (double)s * o->cost_sample));
			if (cost < best) {
				best = cost;
				double se2 = vb / (double)B + vr / (double)(B * r) + vw / (double)(B * r * s);
				out->feasible = true;
				out->boots = B;
				out->runs = r;
				out->samples = s;
				out->cost = cost;
				out->se = sqrt(se2);
				out->df = df;
				out->halfwidth = expm1(stats_t_quantile(1 - o->alpha / 2, df) * out->se);
			}
		}
	}
	return 0;
}

size_t stats_more_boots(const struct st_estimate *a, const struct st_estimate *b, const struct st_comparison *c,
			const struct st_compare_opts *o, enum st_verdict *settles_as)
{
	*settles_as = c->verdict;
	if (c->verdict == ST_NO_DATA)
		return ST_MORE_NONE;
	if (c->verdict != ST_INCONCLUSIVE || !(c->covered & ST_BIT(c->unit)))
		return 0;
	*settles_as = ST_INCONCLUSIVE;
	if (!stats_is_sequential(o))
		return ST_MORE_UNPLANNED;
	/* After BH the row is called when p < alpha * p / q (its current BH multiplier). */
	double bh = c->q > 0 && c->p > 0 && c->q >= c->p ? c->p / c->q : 1;
	struct st_compare_opts next = *o;
	next.look = o->look + 1;
	const struct st_estimate *g[2] = {a, b};
	size_t have = a->nboots < b->nboots ? a->nboots : b->nboots;
	for (size_t k = 1; have + k <= o->max_boots; k++) {
		double v[2], df[2];
		for (int i = 0; i < 2; i++) {
			/* Same runs and samples per boot: se^2 shrinks as 1/boots. */
			double nb = (double)g[i]->nboots;
			v[i] = g[i]->se * g[i]->se * nb / (nb + (double)k);
			df[i] = nb + (double)k - 1;
		}
		double se = sqrt(v[0] + v[1]), ddf = stats_satterthwaite(v, df, 2);
		if (isnan(ddf))
			ddf = df[0] + df[1];
		double al = stats_look_alpha(&next, (double)(have + k) / (double)o->max_boots);
		double t1 = stats_t_quantile(1 - al * bh / 2, ddf), t2 = stats_t_quantile(1 - al, ddf);
		if (isnan(t1) || isnan(t2))
			continue;
		if (fabs(c->d) > t1 * se) {
			*settles_as = c->d > 0 ? ST_FASTER : ST_SLOWER;
			return k;
		}
		if (c->d - t2 * se >= c->eq_lo && c->d + t2 * se <= c->eq_hi) {
			*settles_as = ST_EQUIVALENT;
			return k;
		}
	}
	return ST_MORE_NONE;
}
