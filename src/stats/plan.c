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
		.assurance = ST_PLAN_UCB,
		.max_boots = 64,
		.max_runs = 16,
		.max_samples = 1000,
		.min_samples = ST_MIN_BATCH_SAMPLES,
	};
}

static int check_plan_opts(const struct st_plan_opts *o, struct err *e)
{
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
	if (!(o->assurance == 0 || o->assurance == ST_PLAN_UCB))
		return errf(e, "plan assurance %g: only 0 (point estimates) or %g is supported", o->assurance,
			    ST_PLAN_UCB);
	return 0;
}

/* Each component of both groups into comp: its upper bound with assurance (ub), else the
 * point estimate. A level whose point estimate is truncated to 0 keeps its upper bound; a
 * level with no bound at all (the pilot cannot size it) is recorded in out->unsized, and a
 * level the pilot did not resolve in out->caveats. */
static void plan_components(const struct st_components *const g2[2], bool ub, double comp[2][ST_NLEVELS],
			    struct st_plan *out)
{
	for (int i = 0; i < 2; i++) {
		const struct st_components *c = g2[i];
		double pt[ST_NLEVELS] = {c->var_boot, c->var_run, c->var_within};
		double up[ST_NLEVELS] = {c->ub_boot, c->ub_run, c->ub_within};
		for (int lv = 0; lv < ST_NLEVELS; lv++) {
			double v = ub ? up[lv] : pt[lv];
			if (ub && !(v > 0))
				v = pt[lv] > 0 ? pt[lv] : lv == ST_LEVEL_WITHIN ? pt[lv] : NAN;
			if (isnan(v)) {
				if (isnan(pt[lv]))
					out->caveats |= lv == ST_LEVEL_BOOT ? ST_CAVEAT_NO_BOOT_LEVEL
							: lv == ST_LEVEL_RUN  ? ST_CAVEAT_NO_RUN_LEVEL
									      : 0;
				if (ub && lv != ST_LEVEL_WITHIN)
					out->unsized |= ST_BIT(lv);
				v = 0;
			}
			comp[i][lv] = v;
		}
		if (ub)
			out->whole |= c->ub_whole;
	}
}

/* The cheapest design (B boots, r runs, s samples per group) whose interval meets the
 * target, given the summed components vb, vr, vw and the df factor dfshare, into out. */
static void cheapest_design(const struct st_plan_opts *o, double vb, double vr, double vw, double dfshare,
			    struct st_plan *out)
{
	bool ub = o->assurance > 0;
	double h = log1p(o->target);
	double best = INFINITY;
	for (size_t B = 2; B <= o->max_boots; B++) {
		double df = dfshare * (double)(B - 1);
		/* With assurance the t quantile takes the df the realised interval can fall to
		 * (Welch's df scatters below its planned value): one group's, B - 1. */
		double k = stats_t_quantile(1 - o->alpha / 2, ub ? (double)(B - 1) : df);
		if (o->power > 0)
			k += stats_t_quantile(o->power, df);
		double lim = (h / k) * (h / k); /* largest se^2 of the difference allowed */
		/* The realised se^2 scatters as chi2_df / df around its value: with assurance, the
		 * design must meet the target at that scatter's assurance quantile. */
		if (ub)
			lim *= df / stats_chisq_quantile(o->assurance, df);
		for (size_t r = 1; r <= o->max_runs; r++) {
			double room = lim - vb / (double)B - vr / (double)(B * r);
			if (room <= 0)
				continue;
			double need = vw > 0 ? ceil(vw / ((double)(B * r) * room) - 1e-12) : 0;
			size_t s = need < (double)o->min_samples ? o->min_samples : (size_t)need;
			if (need > (double)o->max_samples)
				continue;
			double cost = 2 * (double)B * (o->cost_boot + (double)r * (o->cost_run + (double)s * o->cost_sample));
			if (cost >= best)
				continue;
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

/* The fields of level lv of c: variance, raw value, df and upper bound. */
struct level_fields {
	double *var, *raw, *df, *ub;
};

static struct level_fields level_of(struct st_components *c, int lv)
{
	if (lv == ST_LEVEL_BOOT)
		return (struct level_fields){&c->var_boot, &c->raw_boot, &c->df_boot, &c->ub_boot};
	if (lv == ST_LEVEL_RUN)
		return (struct level_fields){&c->var_run, &c->raw_run, &c->df_run, &c->ub_run};
	return (struct level_fields){&c->var_within, &c->raw_within, &c->df_within, &c->ub_within};
}

void stats_components_contrast(const struct st_components *c, size_t n, double w, struct st_components *out)
{
	memset(out, 0, sizeof *out);
	out->have = ST_BIT(ST_LEVEL_BOOT) | ST_BIT(ST_LEVEL_RUN) | ST_BIT(ST_LEVEL_WITHIN);
	for (int lv = 0; lv < ST_NLEVELS; lv++) {
		struct level_fields o = level_of(out, lv);
		double dsum = 0; /* sum of x^2 / df: w/2 times the raw values, for their df */
		for (size_t i = 0; i < n; i++) {
			struct st_components ci = c[i];
			struct level_fields f = level_of(&ci, lv);
			double x = w / 2 * *f.raw;
			*o.raw += x;
			*o.var += w / 2 * *f.var;
			*o.ub += w / 2 * *f.ub; /* NAN in any cell: NAN */
			if (x != 0)
				dsum += x * x / *f.df;
			if (!(ci.have & ST_BIT(lv)))
				out->have &= ~ST_BIT(lv);
			out->ub_whole |= ci.ub_whole & ST_BIT(lv);
		}
		*o.df = dsum > 0 ? *o.raw * *o.raw / dsum : NAN;
	}
	if (!n)
		out->have = 0;
}

/* The boot-level df of the pilot behind a plan: the Satterthwaite df of the two groups' boot
 * bounds (each with its group's df_boot). Below ST_PLAN_MIN_DF the bounds scatter too much
 * for the assurance to hold per plan (a 3-boot pilot has 2 df per group at the boot level:
 * with boot sd 2% nearly half its plans met the target less than half the time), whatever
 * share of the planned se^2 the boot level seems to have (that share is estimated from the same
 * few boots: a pilot whose boots happened to agree looks run- or sample-dominated). So none is
 * claimed: the plan is kept, its assurance is NAN, the boot level is marked unsized and
 * pilot_boots says how many boots per group a pilot needs, its df scaled as the boots less one. */
static void df_rule(const struct st_components *const g2[2], const double comp[2][ST_NLEVELS], struct st_plan *out,
		    const struct st_plan_opts *o)
{
	double v = 0, den = 0, dfg = 0;
	for (int i = 0; i < 2; i++) {
		double df = g2[i]->df_boot, x = comp[i][ST_LEVEL_BOOT];
		dfg += (df > 0 ? df : 0) / 2;
		if (!(x > 0))
			continue;
		v += x;
		den += df > 0 ? x * x / df : INFINITY;
	}
	double df = den > 0 ? v * v / den : INFINITY;
	out->plan_df = df;
	if (df >= ST_PLAN_MIN_DF)
		return;
	out->assurance = NAN;
	out->unsized |= ST_BIT(ST_LEVEL_BOOT);
	double b0 = dfg > 0 ? dfg + 1 : 2, need = ceil((b0 - 1) * ST_PLAN_MIN_DF / (df > 0 ? df : 1e-9) + 1 - 1e-9);
	out->pilot_boots = need > (double)o->max_boots ? o->max_boots : (size_t)need;
	if (out->pilot_boots < 3)
		out->pilot_boots = 3;
}

int stats_plan(const struct st_components *a, const struct st_components *b, const struct st_plan_opts *o,
	       struct st_plan *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	if (check_plan_opts(o, e))
		return -1;
	double comp[2][ST_NLEVELS];
	const struct st_components *const g2[2] = {a, b};
	plan_components(g2, o->assurance > 0, comp, out);
	double vb = comp[0][ST_LEVEL_BOOT] + comp[1][ST_LEVEL_BOOT];
	double vr = comp[0][ST_LEVEL_RUN] + comp[1][ST_LEVEL_RUN];
	double vw = comp[0][ST_LEVEL_WITHIN] + comp[1][ST_LEVEL_WITHIN];
	/* Welch df when both groups share a design: (va + vb)^2 / (va^2 + vb^2) * (B - 1),
	 * with va, vb each group's variance of a boot mean; approximated from the boot level. */
	double ga = comp[0][0] + comp[0][1] + comp[0][2], gb = comp[1][0] + comp[1][1] + comp[1][2];
	double dfshare = ga + gb > 0 ? (ga + gb) * (ga + gb) / (ga * ga + gb * gb) : 2;
	out->assurance = o->assurance;
	if (out->unsized) {
		out->pilot_boots = 3; /* >= 2 boots with >= 2 runs each resolve both levels; 3 give 2 df */
		out->assurance = NAN; /* a level left out: the plan cannot promise anything */
	}
	out->kj_runs = vb > 0 && vr > 0 && o->cost_run > 0 ? sqrt(vr / vb * o->cost_boot / o->cost_run) : NAN;
	out->kj_samples = vr > 0 ? sqrt(vw / vr * o->cost_run / o->cost_sample) : NAN;
	if (vb == 0 && vr == 0 && vw == 0)
		out->kj_runs = out->kj_samples = NAN;
	cheapest_design(o, vb, vr, vw, dfshare, out);
	if (o->assurance > 0 && !out->unsized && out->feasible)
		df_rule(g2, comp, out, o);
	return 0;
}

int stats_plan_paired(double v, double df, double w, const struct st_plan_opts *o, struct st_plan *out,
		      struct err *e)
{
	memset(out, 0, sizeof *out);
	if (check_plan_opts(o, e))
		return -1;
	out->kj_runs = out->kj_samples = NAN;
	out->assurance = o->assurance;
	if (!(df >= 1) || !(v >= 0) || !(w > 0)) {
		out->unsized = ST_BIT(ST_LEVEL_BOOT);
		out->pilot_boots = 3;
		out->assurance = NAN;
		out->caveats |= ST_CAVEAT_NO_BOOT_LEVEL;
		return 0;
	}
	double u = o->assurance > 0 ? v * df / stats_chisq_quantile(1 - ST_PLAN_COMPONENT_UCB, df) : v;
	/* one "run" of one "sample" per boot at no cost: cheapest_design then only sizes boots */
	struct st_plan_opts p = *o;
	p.max_runs = p.max_samples = p.min_samples = 1;
	p.cost_boot = 1;
	p.cost_run = p.cost_sample = 0;
	cheapest_design(&p, w * u, 0, 0, 2, out);
	out->runs = out->samples = 0;
	out->cost = 2 * (double)out->boots;
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
	size_t have = a->nboots < b->nboots ? a->nboots : b->nboots;
	if (have >= o->max_boots)
		return ST_MORE_NONE;
	/* Looks are evenly spaced in boots (the spacing stats_look_alpha assumes): the next
	 * one comes after as many boots as one look's share so far, at most the maximum. */
	size_t step = (have + o->look / 2) / o->look;
	if (step < 1)
		step = 1;
	size_t k = have + step > o->max_boots ? o->max_boots - have : step;
	/* Would that look settle it if the current difference is the truth? After BH the row
	 * is called when p < alpha * p / q (its current BH multiplier). */
	double bh = c->q > 0 && c->p > 0 && c->q >= c->p ? c->p / c->q : 1;
	struct st_compare_opts next = *o;
	next.look = o->look + 1;
	const struct st_estimate *g[2] = {a, b};
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
	if (!isnan(t1) && fabs(c->d) > t1 * se)
		*settles_as = c->d > 0 ? ST_FASTER : ST_SLOWER;
	else if (!isnan(t2) && c->d - t2 * se >= c->eq_lo && c->d + t2 * se <= c->eq_hi)
		*settles_as = ST_EQUIVALENT;
	return k;
}
