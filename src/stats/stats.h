/* stats.h - pure statistics: nested estimates, comparisons, factorial effects, plans, diagnostics. */
#ifndef SYSAB_STATS_H
#define SYSAB_STATS_H

/*
 * Everything here works on in-memory data and returns plain structs. Nothing
 * prints, reads files or touches the store. All values y are ln(ops/s), so a
 * larger y is always better and a difference d = y_B - y_A > 0 means B is
 * faster; the one exception is stats_estimate_groups_scale(linear), which counter rows
 * use for counts per op (then d > 0 means more per op). docs/METHOD.md gives every formula in words.
 */

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* ---------------------------------------------------------------- distributions */

/* Quantile of Student's t with df > 0 degrees of freedom (df may be non-integer).
 * NAN when p or df is out of range or GSL cannot invert (never aborts: every
 * function here turns GSL's error handler off before calling it). */
double stats_t_quantile(double p, double df);
/* Turn GSL's abort-on-error handler off for the whole process (idempotent); GSL
 * failures then come back as NAN or a status, which the callers check. */
void stats_gsl_quiet(void);
/* Lower quantile of chi-square with df > 0 degrees of freedom; NAN on failure. */
double stats_chisq_quantile(double p, double df);
/* Two-sided p-value P(|T_df| >= |t|). */
double stats_t_p2(double t, double df);
/* Quantile of the standard normal. */
double stats_normal_quantile(double p);
/* Satterthwaite degrees of freedom of sum_i v_i, where v_i is a variance
 * estimate with df[i] degrees of freedom (already multiplied by its
 * coefficient; a negative coefficient may be passed as a negative v_i).
 * Terms with v_i == 0 are ignored; returns INFINITY when every df is infinite
 * and NAN when the sum is not positive. */
double stats_satterthwaite(const double *v, const double *df, size_t n);
/* The df of B against A (bf.c), for terms v1, v2 with f1, f2 df: f1 + f2 unless one term
 * holds more than a share tau_i - ST_BF_BAND of v1 + v2; over the band up to tau_i the df
 * moves continuously (linear in 1/df) to that term's own f_i, and past it the df is f_i.
 * NAN unless v1, v2 >= 0 with a positive sum. */
double stats_bf_rule(double v1, double f1, double v2, double f2, double tau1, double tau2);
#define ST_BF_BAND 0.1
/* The level the calibration holds for f1, f2 df at the ratio var1/var2 of the terms' true
 * variances: alpha beyond 1e-3..1e3; inside, alpha less a margin for the quadrature, and,
 * for unequal df where the smaller-df term carries more, a margin tapering from 0.12 alpha /
 * min(f1, f2)^2 at ratio 1 to 0 at 1e-3, 1e3 (docs/METHOD.md, "Comparing B with A"). */
double stats_bf_target(double f1, double f2, double alpha, double ratio);
/* tau1, tau2 for f1, f2 df at two-sided level alpha: among the pairs whose level, computed
 * exactly over the chi-square laws of the two terms, stays at or below stats_bf_target at
 * every ratio 1e-4..1e4 of their true variances, the one with the highest level at equal
 * boot variances.
 * Cached per key (df to 1/4, floored). false (and nothing set) when the rule is not calibrated:
 * a df below 1 or not finite, alpha outside (0, 1), or both df above 50. */
bool stats_bf_taus(double f1, double f2, double alpha, double *tau1, double *tau2);
/* The df of B against A: stats_bf_rule at the calibrated taus, or df (plain Satterthwaite,
 * passed by the caller) where the rule is not calibrated. */
double stats_bf_df(double v1, double f1, double v2, double f2, double df, double alpha);
/* Benjamini-Hochberg q-values of p[0..n-1] into q[0..n-1] (may alias p). NaN
 * p-values are passed through as NaN and not counted in n. */
void stats_bh(const double *p, size_t n, double *q);
/* Holm's step-down adjusted p-values of p[0..n-1] into q[0..n-1] (may alias p): rejecting
 * where q < alpha keeps the chance of any false rejection among the n at or below alpha under
 * any dependence. NaN p-values are passed through as NaN and not counted in n. */
void stats_holm(const double *p, size_t n, double *q);

/* Lan-DeMets alpha spending of O'Brien-Fleming type: the share of a two-sided
 * alpha spent by information fraction t in (0, 1], 2 - 2 Phi(z_{1-alpha/2} / sqrt t). */
double stats_obf_spent(double alpha, double t);
/* The nominal two-sided level of look k (1-based) of a group-sequential design
 * whose looks have information fractions t[0..k-1] (increasing, in (0, 1]):
 * boundaries c_1..c_k on the z scale are found one by one (numerical
 * integration of the joint law of the z statistics under H0) so that the
 * probability of crossing by look j is stats_obf_spent(alpha, t[j-1]); the
 * result is 2 (1 - Phi(c_k)). NAN for bad input. */
double stats_seq_nominal(double alpha, const double *t, size_t k);
/* Such a design (alpha, looks t[0..k-1]) worked out once: its boundaries on the z scale
 * and, for each look but the last, the sub-density under H0 of the paths still going on. */
struct st_seq {
	size_t k;
	double alpha;
	double *t, *bound; /* k each */
	double *cont, *step; /* the sub-densities on their grids (dist.c) */
};
/* false (s empty) for bad input, as stats_seq_nominal's NAN. */
bool stats_seq_make(struct st_seq *s, double alpha, const double *t, size_t k);
void stats_seq_free(struct st_seq *s);
/* The nominal two-sided level of the last look: stats_seq_nominal. */
double stats_seq_level(const struct st_seq *s);
/* The stage-wise (1 - alpha) confidence bounds of the mean of Z_k when the design ended
 * at its last look k with the statistic z there (a look that crossed, or the final one).
 * Outcomes are ordered by the look they end at, an earlier upper crossing being more
 * extreme, then by z (Jennison and Turnbull, ch. 8); the bounds are the drifts at which
 * the outcome is the upper and the lower alpha/2 point. One look gives z -/+ z_{1-alpha/2}.
 * false (and NAN) when they cannot be found. */
bool stats_seq_stagewise(const struct st_seq *s, double z, double *lo, double *hi);

/* ---------------------------------------------------------------- input model */

/* One run: samples y[0..n-1] = ln(ops/s) in time order. round, when not NULL,
 * gives each sample's round index (non-decreasing); batches never split a round.
 * Or, with sum set, the run's stored summary instead of its samples (y and round NULL,
 * n = sum->b.n): the estimators take its batch means, rounding map and diagnostics
 * tally, which equal what its samples give; what needs the samples themselves
 * (stats_diagnose_run, stats_nested_anova, strip plots) must not be given such a run. */
struct st_run_summary;
struct st_run {
	const double *y;
	const int *round;
	size_t n;
	const struct st_run_summary *sum;
	double shift; /* added to the run's mean and to each of its batch means (0: none): the
	               * host-speed adjustment's -beta (ref - mean ref), stats_estimate_adjusted */
};
struct st_boot {
	const struct st_run *runs;
	size_t nruns;
};
/* The runs of one group (one configuration) for one (workload, copies). */
struct st_group_adj;
struct st_group {
	const struct st_boot *boots;
	size_t nboots;
	const struct st_group_adj *adj; /* NULL, or what the host-speed adjustment costs this group's
	                                 * interval (set by stats_estimate_adjusted only) */
};

/* ---------------------------------------------------------------- batch means */

/* Batches: b consecutive blocks of m samples. See st_batch_plan(). */
#define ST_MIN_BATCH_SAMPLES 4 /* fewer samples: the run contributes only its mean */
#define ST_MAX_BATCHES 10

/* Within-run summary of one run from batch means. */
struct st_runstat {
	size_t n;          /* samples */
	double mean;       /* mean of all n samples */
	size_t nbatches;   /* b; 0 when n < ST_MIN_BATCH_SAMPLES */
	size_t batch_size; /* m (mean samples per batch when rounds are used) */
	double tau2;       /* long-run variance per sample: m * var(batch means); NAN if b < 2 */
	double var_mean;   /* tau2 / n: within-run variance of the run mean; NAN if b < 2 */
	double df;         /* b - 1 */
	double r1;         /* lag-1 autocorrelation of batch means; NAN if b < 3 */
	bool autocorr;     /* r1 significantly positive (see METHOD.md) */
};

/* Summarise one run from its batch means. Never fails; fields that cannot be
 * computed are NAN or 0 as documented above. */
void stats_run_batches(const struct st_run *r, struct st_runstat *out);

/* Fewest degrees of freedom an interval is given from (issue 17 item 6): below it the t
 * quantile and the variance of so few batch means are too rough to mean anything. */
#define ST_MIN_INTERVAL_DF 4

/* Relative half-width of the (conf) confidence interval of one run's mean throughput,
 * exp(t * sqrt(var_mean)) - 1 from its batch means. INFINITY when the batch means give
 * fewer than ST_MIN_INTERVAL_DF degrees of freedom. Adaptive sampling stops on this, so
 * --target-ci is never met by an interval that is not shown. */
double stats_run_halfwidth(const struct st_run *r, double conf);

/* ---------------------------------------------------------------- nested estimate */

enum st_level { ST_LEVEL_BOOT, ST_LEVEL_RUN, ST_LEVEL_WITHIN, ST_NLEVELS };
#define ST_BIT(level) (1u << (level))

/* Why an interval covers less than everything, or is missing. Bits in .caveats. */
enum st_caveat {
	ST_CAVEAT_NO_BOOT_LEVEL = 1u << 0,   /* no group has >= 2 boots: boot-to-boot variation not covered */
	ST_CAVEAT_NO_RUN_LEVEL = 1u << 1,    /* no group has >= 2 runs in a boot: run-to-run variation not covered */
	ST_CAVEAT_BORROWED_BOOT = 1u << 2,   /* boot variance borrowed from other groups */
	ST_CAVEAT_BORROWED_RUN = 1u << 3,    /* run variance borrowed from other groups */
	ST_CAVEAT_AUTOCORR = 1u << 5,        /* batch means still autocorrelated: within-run level may be understated
					      * (affects the interval only when it comes from a single run) */
	ST_CAVEAT_SINGLE_OBS = 1u << 6,      /* one observation: no interval and no verdict */
	ST_CAVEAT_NO_VARIANCE = 1u << 7,     /* too little data for any variance: no interval */
	ST_CAVEAT_NO_BOOT_REPL = 1u << 8,    /* unit boot, a group without boot replication: no verdict */
	ST_CAVEAT_NO_RUN_REPL = 1u << 9,     /* unit run, a group without run replication: no verdict */
	ST_CAVEAT_RUN_UNIT = 1u << 10,       /* unit run declared: boot-to-boot variation is not covered */
	ST_CAVEAT_LOW_DF = 1u << 11,         /* df < 1 or no t quantile: no verdict */
	ST_CAVEAT_QUANTISED = 1u << 12,      /* spread below the input's rounding: step^2/12 variance used */
	ST_CAVEAT_BORROW_REFUSED = 1u << 13, /* a one-boot group could not borrow: donors' boot df < ST_MIN_BORROW_DF */
	ST_CAVEAT_SEQUENTIAL = 1u << 14,     /* a look of a group-sequential design: alpha is the look's nominal level */
	ST_CAVEAT_BORROW_NONPOS = 1u << 15,  /* a one-boot group could not borrow: the donors' boot variance estimate is <= 0 */
	ST_CAVEAT_STAGEWISE = 1u << 16,      /* the sequential design ends at this look: lo, hi are stage-wise */
	ST_CAVEAT_BOOTS_LEFT_OUT = 1u << 17, /* within-boot effect: boots lacking a level it needs are left out */
	ST_CAVEAT_ONE_BOOT_PAIRED = 1u << 18, /* within-boot effect with one boot in a configuration: no interval */
	ST_CAVEAT_PAIRED = 1u << 19,         /* taken inside each boot: the boot's own variation cancels */
	ST_CAVEAT_HOST_ADJUSTED = 1u << 20,  /* the means are adjusted for host speed (host.ref as a covariate) */
	ST_CAVEAT_HOST_REF_DIFFERS = 1u << 21, /* --adjust host, yet the reference itself differs between the
					      * groups: the adjustment cannot be trusted, no verdict */
	ST_CAVEAT_PAIRED_ROUNDS = 1u << 22,  /* arms of a paired run (sysab run --arm), paired by round */
	ST_CAVEAT_PAIRED_ONE_RUN = 1u << 23, /* one paired run: no interval (the runs are not replicated) */
	ST_CAVEAT_DUET_PAIRED = 1u << 24,    /* paired by duet block: A and B booted at once, each block a replicate */
};

#define ST_CAVEAT_LAST ST_CAVEAT_DUET_PAIRED

/* Smallest pooled df of a boot variance that a one-boot group may borrow;
 * a donor whose own boot df is below 1 is never pooled. */
#define ST_MIN_BORROW_DF 1.0

/* What more data would make an interval (or a fuller one) possible. */
enum st_need {
	ST_NEED_NOTHING,
	ST_NEED_SAMPLES, /* >= 4 samples in a run, or a second run */
	ST_NEED_RUNS,    /* >= 2 runs in a boot */
	ST_NEED_BOOTS,   /* >= 2 boots */
};

/* Variance components of y. var_within is the long-run variance per sample
 * (from batch means), so a run of n samples has within-run variance
 * var_within / n for its mean. Estimates are truncated at 0; raw_* are the
 * untruncated method-of-moments values. have is a bit set of ST_BIT(level)
 * for levels estimated from this group's own data. */
struct st_components {
	double var_boot, var_run, var_within;
	double raw_boot, raw_run, raw_within;
	double df_boot, df_run, df_within; /* Satterthwaite df of each estimate */
	unsigned have;
	/* ST_PLAN_COMPONENT_UCB upper confidence bounds (NAN when the data cannot bound the level):
	 * the level's own mean square at its upper bound, minus the point estimates of the
	 * levels below; when that leaves nothing, the whole bound of the mean square (ub_whole
	 * marks it: the pilot cannot tell the level from those below, so nothing is taken off).
	 * Never 0 when the mean square is positive, even when var_* is truncated to 0, so a plan
	 * cannot drop a level the pilot did not resolve. */
	double ub_boot, ub_run, ub_within;
	unsigned ub_whole; /* ST_BIT(level) of the bounds that are the level's whole mean square */
};

/* The default plan assurance: the probability that a planned design meets its target. */
#define ST_PLAN_UCB 0.8
/* Level of the upper confidence bounds of each component in st_components, which plans with
 * assurance use. With the realised SE^2 also required at its ST_PLAN_UCB scatter quantile,
 * 0.65 is the lowest level (in steps of 0.05) at which at most 10% of the plans from small
 * pilots (3 boots x 2 runs x 10 samples) meet their target in under half of their runs, so
 * that the assurance holds per plan, not only on average (METHOD.md, "Plans"). */
#define ST_PLAN_COMPONENT_UCB 0.65
/* The fewest boot-level df of a pilot (both groups, Satterthwaite) with which a plan claims
 * assurance; below it the plan claims none and asks for a larger pilot (METHOD.md, "Plans",
 * the boot-level df rule, with the grid of variance models it was measured on). */
#define ST_PLAN_MIN_DF 8

/* The estimate of one group's mean. */
struct st_estimate {
	double mean;          /* mu = mean of boot means; boot mean = mean of run means */
	double se;            /* standard error of mean; NAN when has_interval is false */
	double df;            /* Satterthwaite df of se^2 */
	bool has_interval;
	size_t nboots, nruns, nsamples;
	double runs_per_boot, samples_per_run; /* averages */
	struct st_components own;  /* from this group alone */
	struct st_components used; /* after borrowing; what plans should use */
	unsigned covered;  /* ST_BIT(level) of levels the se accounts for */
	unsigned borrowed; /* ST_BIT(level) of levels in used that came from other groups */
	unsigned caveats;  /* enum st_caveat bits */
	enum st_need need; /* what would remove the most important caveat */
	double r1;         /* pooled lag-1 autocorrelation of batch means (NAN if none) */
	double r1_z;       /* its z score against no autocorrelation */
	double resolution; /* relative rounding step of the input values (0 when not rounded) */
};

/* Estimate every group of one comparison (or every cell of a factorial) for
 * one (workload, copies). The groups are estimated together because a group
 * that cannot estimate a level borrows the pooled estimate from the others,
 * and a level no group can estimate is left out of every interval and
 * recorded as a caveat. out[0..ngroups-1] are filled. Returns 0, or -1 with e
 * set when the input is malformed (a boot without runs, a non-finite y). */
int stats_estimate_groups(const struct st_group *groups, size_t ngroups, struct st_estimate *out,
			  struct err *e);
/* The same for values on any scale: with linear set, y is taken as it is (e.g. an event's
 * count per op, where 0 is a valid value) and no rounding step is looked for in e^y, so
 * resolution is 0 and ST_CAVEAT_QUANTISED never set. Everything else, the levels, batch
 * means, borrowing and df, is the same estimator. */
int stats_estimate_groups_scale(const struct st_group *groups, size_t ngroups, bool linear, struct st_estimate *out,
				struct err *e);

/* The estimate of a mean from independent observations x[0..n-1] (for example
 * boot means, or published numbers known to be independent): mean, se =
 * sd/sqrt(n), df = n - 1. Never use it for samples within a run. */
void stats_iid_estimate(const double *x, size_t n, struct st_estimate *out);

/* Classical three-level nested ANOVA treating samples as independent, for
 * reference and validation only (intervals use stats_estimate_groups). Mean
 * squares are in the classical units of a balanced design; components are
 * truncated at 0 and se is sqrt(var(boot means)/nboots). */
struct st_anova {
	double grand_mean, ms_boot, ms_run, ms_sample;
	double var_boot, var_run, var_sample, se;
};
int stats_nested_anova(const struct st_group *g, struct st_anova *out, struct err *e);

/* ---------------------------------------------------------------- comparison */

enum st_verdict {
	ST_NO_DATA,     /* no interval: see need and caveats */
	ST_FASTER,      /* B faster than A: (1-alpha) CI above 0 (q < alpha with BH) */
	ST_SLOWER,      /* B slower than A */
	ST_EQUIVALENT,  /* (1-2alpha) CI inside the margin (TOST) */
	ST_INCONCLUSIVE,
	ST_WITHHELD,    /* never set by stats: the analysis withholds the verdict of a row whose runs
	                   failed a self-check (analysis.h, struct an_failed_check) */
};

struct st_compare_opts {
	double alpha;  /* default 0.05 */
	double margin; /* relative, default 0.01 = 1%: bounds ln(1-margin), ln(1+margin) */
	enum st_level unit; /* replication unit a verdict needs: ST_LEVEL_BOOT (default) or ST_LEVEL_RUN */
	/* Group-sequential design (0, 0: a fixed design): this is look `look` (1-based), and
	 * each group will have at most max_boots boots. A look's information fraction is the
	 * fewest boots of any group it uses over max_boots; earlier looks are taken as evenly
	 * spaced in information up to it. */
	size_t look, max_boots;
	bool classic_df; /* plain Welch-Satterthwaite df (to match other tools), not the calibrated rule (stats_bf_df) */
	bool host_adjust; /* the analysis estimates rows with stats_estimate_adjusted (--adjust host);
	                   * stats_compare itself does not read it */
};
/* The defaults above. */
struct st_compare_opts stats_compare_defaults(void);
/* The two-sided level a verdict uses: o->alpha in a fixed design, else the nominal
 * level (stats_seq_nominal) of look o->look at information fraction info (clamped to
 * (0, 1]), earlier looks evenly spaced in information up to it. */
double stats_look_alpha(const struct st_compare_opts *o, double info);
/* Is o a group-sequential design? */
bool stats_is_sequential(const struct st_compare_opts *o);

/* B versus A. */
struct st_comparison {
	enum st_verdict verdict;
	bool negligible;           /* significant, yet the (1-2alpha) CI is inside the margin */
	double d, se, df, t, p, q; /* q == p until stats_compare_adjust() */
	double lo, hi;             /* (1-alpha) CI of d: rci_* or, where the design ends, sw_* */
	double rci_lo, rci_hi;     /* at this look's level: a fixed design's CI, or the look's repeated CI */
	double sw_lo, sw_hi;       /* the stage-wise CI, should a sequential design end here; else NAN */
	bool last_look;            /* this look has the design's maximum information */
	double lo2, hi2;           /* (1-2alpha) CI of d */
	double pct, pct_lo, pct_hi, pct_lo2, pct_hi2; /* 100(e^x - 1) of the above */
	double alpha, margin, eq_lo, eq_hi;           /* eq_*: margin bounds on d; alpha as used (a look's nominal level) */
	double alpha_design;       /* the overall alpha of the options (== alpha in a fixed design) */
	unsigned caveats;          /* union of both groups' caveats, plus the comparison's own */
	unsigned covered;          /* ST_BIT(level) covered by both groups' intervals */
	enum st_level unit;        /* replication unit a verdict needs */
	enum st_need need;
};

/* Compare b against a. Never fails: without an interval the verdict is
 * ST_NO_DATA and the numbers other than d are NAN. */
void stats_compare(const struct st_estimate *a, const struct st_estimate *b, const struct st_compare_opts *o,
		   struct st_comparison *out);
/* One paired run (sysab run --arm) for one row: d[i] = y_B - y_A, the two arms' log values in
 * round round[i], over the rounds both arms sampled (ascending); boot is the index of the boot
 * it ran on (the paired runs of one boot adjacent, boots numbered from 0 in order). */
struct st_pairrun {
	const double *d;
	const int *round;
	size_t n;
	size_t boot;
};

/* B against A from np paired runs (docs/METHOD.md, "Paired arms"). The per-round differences are
 * taken as replicates at the widest level the pairs replicate. Two or more boots: each boot's mean
 * difference (the mean of its paired runs' means) is one i.i.d. replicate (t with boots - 1 df;
 * o->unit). One boot: the differences are one group for the nested estimator, the paired runs its
 * runs and the rounds its samples, so that batch means of consecutive rounds carry the rounds'
 * autocorrelation into the interval; the unit is the paired run when there are >= 2 (unit run,
 * ST_CAVEAT_RUN_UNIT: the verdict holds for this boot); one paired run gets no interval
 * (ST_CAVEAT_PAIRED_ONE_RUN, need ST_NEED_RUNS): its rounds do not replicate the arms' runs.
 * Every row gets ST_CAVEAT_PAIRED_ROUNDS. *d (may be NULL) gets the estimate of the differences.
 * Returns 0, or -1 with e set when the input is malformed (no pairs, an empty pair). */
int stats_compare_rounds(const struct st_pairrun *p, size_t np, const struct st_compare_opts *o,
			 struct st_comparison *out, struct st_estimate *d, struct err *e);

/* Benjamini-Hochberg across the n comparisons (one per workload): set each q to the BH
 * q-value of the q's as they stand (the p's, unless stats_compare_holm adjusted them first)
 * and recompute each verdict from q. A comparison without a q (no interval, or no
 * replication at its unit: stats_interval_scope) is no test of the family and keeps none. */
void stats_compare_adjust(struct st_comparison *c, size_t n);
/* Holm within the n comparisons of one family (the effects of one row): set each q to its
 * Holm-adjusted value of the q's as they stand; the verdicts are left to stats_compare_adjust,
 * which then takes the row-adjusted values across rows (docs/METHOD.md, "Effects within a row"). */
void stats_compare_holm(struct st_comparison *c, size_t n);

/* What a comparison's interval stands for. */
enum st_scope {
	ST_SCOPE_NONE,        /* no interval */
	ST_SCOPE_VERDICT,     /* an interval at the declared unit: the verdict's */
	ST_SCOPE_WITHIN_BOOT, /* the declared unit is the boot and a group has 1 boot: the interval is of
	                       * the runs of the boots measured, no verdict's, and there is no q */
	ST_SCOPE_WITHIN_RUN,  /* the same with --unit run and 1 run per boot */
};
/* The scope of c's interval (ST_SCOPE_WITHIN_* exactly where the verdict is inconclusive for
 * want of replication at c->unit, borrowing refused included). */
enum st_scope stats_interval_scope(const struct st_comparison *c);

/* ---------------------------------------------------------------- host-speed adjustment */

/* A reference whose B-against-A comparison (any cell against the first, in a factorial) has
 * p below this withholds every adjusted verdict (docs/METHOD.md, "Host-speed adjustment"). */
#define ST_ADJ_REF_P 0.2
/* Fewest residual df the slope may be estimated with. */
#define ST_ADJ_MIN_DF 3

enum st_adj_status {
	ST_ADJ_OFF = 0,       /* not asked for */
	ST_ADJ_APPLIED,       /* the means are adjusted */
	ST_ADJ_NO_REF,        /* some run has no reference sample: not adjusted */
	ST_ADJ_FEW,           /* too few runs or boots to estimate the slope: not adjusted */
	ST_ADJ_REF_DIFFERS,   /* adjusted, but the reference differs between groups: no verdict */
};
enum st_adj_level { ST_ADJ_WITHIN_BOOTS = 1, ST_ADJ_BETWEEN_BOOTS = 2 };

/* What the adjustment costs one group's interval: its own variance term (of boot means, or of
 * run means with one boot) is scaled by f / (f - h) with f - h df, h the group's share of the
 * slope's leverage (0 when the slope came from deviations the term does not use); and var_b =
 * Var(beta) (ref_g - ref)^2, the slope's error carried into the group's mean, with df_b df. */
struct st_group_adj {
	double h, var_b, df_b;
};

/* The adjustment of one row. */
struct st_adjust {
	enum st_adj_status status;
	enum st_adj_level level;
	double beta, se_beta, df_beta; /* the slope of the workload's ln(ops/s) on the reference's */
	double r2;                     /* the share of the workload's variance at that level it explains */
	double ref_pct, ref_p;         /* the reference, B against A (the cell furthest from the first) */
};

/* Estimate the groups g[0..ng-1] of one row adjusted for host speed: ref[k] is the reference's
 * mean ln(ops/s) in run k (runs in group, boot, run order; NAN where the run has none). The
 * slope beta is estimated from the runs' deviations from their boot means pooled over all
 * groups (with at least ST_ADJ_MIN_DF residual df), else from the boots' deviations from their
 * group's mean; each run's mean moves by -beta (ref - mean ref), and each group's interval pays
 * for the slope (struct st_group_adj). The reference is compared between the groups with the
 * same estimators: p < ST_ADJ_REF_P marks every estimate ST_CAVEAT_HOST_REF_DIFFERS (no verdict).
 * Adjusted estimates carry ST_CAVEAT_HOST_ADJUSTED. When the slope cannot be estimated (or a run
 * lacks the reference) out[] are the plain estimates and adj->status says why. Returns 0, or -1
 * with e set as stats_estimate_groups. */
int stats_estimate_adjusted(const struct st_group *g, size_t ng, const double *ref, struct st_estimate *out,
			    struct st_adjust *adj, struct err *e);

/* ---------------------------------------------------------------- factorial */

/* A factor: its levels; levels[0] is the reference (the "low" level). */
struct st_factor {
	const char *name;
	const char *const *levels;
	size_t nlevels;
};
/* One cell: level[f] is the index of this cell's level of factor f. */
struct st_cell {
	const size_t *level;
	const struct st_estimate *est;
};

enum st_effect_kind {
	ST_EFFECT_MAIN,        /* 2-level factor: high minus low, averaged over other cells */
	ST_EFFECT_INTERACTION, /* two 2-level factors: (effect of f at g high) minus (at g low), averaged */
	ST_EFFECT_LEVEL,       /* factor with > 2 levels: this level minus the reference, averaged */
	ST_EFFECT_SIMPLE,      /* within-boot designs: the 2-level between-boot factor's effect (high minus
				* low) at one level of a within-boot factor (factor2, level) */
};

struct st_effect {
	enum st_effect_kind kind;
	size_t factor, factor2; /* factor2 only for interactions */
	size_t level;           /* ST_EFFECT_LEVEL: the level compared with levels[0]; an interaction of a
				 * 2-level factor with one of more levels: that one's level against its
				 * levels[0]; ST_EFFECT_SIMPLE: the level of factor2 */
	bool available;         /* false when a cell it needs is missing or has no interval */
	bool paired;            /* stats_factorial_within: a within-boot contrast, taken inside each boot */
	size_t boots, left_out; /* stats_factorial_within: boots it used, boots lacking a level it needs */
	double rep_var, rep_df; /* stats_factorial_within: the variance of its per-boot values q_b within
				 * the between-boot combinations it uses, pooled, and its df (what a plan
				 * sizes boots from); NAN without 2 boots in some combination */
	double rep_w;           /* sum of the squared between-boot coefficients: se^2 = rep_w rep_var / boots
				 * per combination in a balanced design */
	struct st_comparison c; /* d is the contrast; verdict as for a comparison */
};

struct st_factorial {
	struct st_effect *effects;
	size_t neffects;
	size_t *missing; /* missing[i*nfactors + f]: level of factor f in missing cell i */
	size_t nmissing, nfactors;
};

/* Effects of a full factorial over factors f[0..nf-1]. cells may come in any
 * order; a level combination with no cell, or whose cell has no interval, is
 * reported in out->missing and every effect that needs it is unavailable.
 * Returns 0, or -1 with e set for malformed input (a level index out of
 * range, a duplicate cell, no factors). Free with stats_factorial_free(). */
int stats_factorial(const struct st_factor *f, size_t nf, const struct st_cell *cells, size_t ncells,
		    const struct st_compare_opts *o, struct st_factorial *out, struct err *e);
void stats_factorial_free(struct st_factorial *fa);
/* The multiplicity of an analysis of nrows rows (workloads), fa[i] the effects of row i, as
 * docs/METHOD.md, "Effects within a row", states it: each row's tested effects (available, with
 * a q: an interval at the declared unit) are one family, Holm-adjusted (stats_compare_holm);
 * then each effect across the rows that test it is Benjamini-Hochberg-adjusted over those
 * row-adjusted values, and its verdict decided from that q (stats_compare_adjust). An effect
 * is called only if its row's Holm rejects it, so on any row the chance of any false call is
 * at most alpha whatever the effects' dependence. Call once, after every row is estimated. */
void stats_factorial_adjust(struct st_factorial *const *fa, size_t nrows);

/* ---------------------------------------------------------------- within-boot factors */

/* Factors that vary within boots (node: one boot runs on every node) share the boot's
 * random effect across their levels, so their cells are not independent. One boot of such
 * a design: m[w] is its mean y (the mean of its run means, stats_boot_mean) at each
 * combination w of the within-boot factors (NAN where it ran none), and between the index
 * of its combination of the other factors. Combinations are numbered with the first factor
 * varying slowest, over the within-boot factors for w and the others for between
 * (stats_within_split). */
struct st_wboot {
	size_t between;
	const double *m;
};
/* The mean of a boot's run means (the nested estimator's boot mean); NAN without runs. */
double stats_boot_mean(const struct st_boot *b);
/* Split the full level vector level[0..nf-1] into the combination of the between-boot
 * factors (*between) and of the within-boot ones (*w); within is a bit per factor. The
 * counts of each kind of combination go to nbetween and nwithin when not NULL. */
void stats_within_split(const struct st_factor *f, size_t nf, unsigned within, const size_t *level, size_t *between,
			size_t *w, size_t *nbetween, size_t *nwithin);
/* Effects of a full factorial in which the factors of the bit set within vary within boots
 * (METHOD.md, "Within-boot factors"). Every effect is a product contrast: per factor a
 * vector over its levels. Per boot, its within-boot part is applied to the boot's means m
 * (q_b = sum_w c_w m_b[w]: a per-boot contrast when the effect involves a within-boot factor,
 * in which the boot's random effect cancels; else the boot's average); a boot lacking a
 * combination the effect needs is left out of it (effect->left_out, ST_CAVEAT_BOOTS_LEFT_OUT).
 * The q_b of each between-boot combination are its replicates (stats_iid_estimate: mean, se
 * from their spread, df boots - 1) and the between-boot part is their contrast by
 * stats_contrast, B against A's rule. The effects are those of stats_factorial, in its order,
 * then the interaction of each 2-level factor with each level of a factor of more levels
 * when either varies within boots, then the simple effects of each 2-level between-boot
 * factor at each level of each within-boot factor. missing lists the level combinations no
 * boot ran. Returns 0 or -1 with e set (no within-boot factor, a factor under 2 levels, an
 * index out of range). Free with stats_factorial_free(). */
int stats_factorial_within(const struct st_factor *f, size_t nf, unsigned within, const struct st_wboot *boots,
			   size_t nboots, const struct st_compare_opts *o, struct st_factorial *out, struct err *e);

/* A linear contrast sum_i c[i] * est[i]->mean: se^2 = sum c_i^2 se_i^2 (no equal
 * variances assumed). Its df is B against A's calibrated rule (stats_bf_df),
 * applied to the largest term against the others taken as one term
 * with their Satterthwaite df; two terms are B and A themselves (stats_compare is the
 * contrast -1, +1, so a one-factor, two-level effect is exactly compare's row). With
 * classic_df, plain Satterthwaite over all terms and no guard. Reported like a comparison.
 * Cells with c[i] == 0 are ignored. Without an interval in a used cell the verdict is
 * ST_NO_DATA. */
void stats_contrast(const struct st_estimate *const *est, const double *c, size_t n,
		    const struct st_compare_opts *o, struct st_comparison *out);

/* ---------------------------------------------------------------- plan */

struct st_plan_opts {
	double cost_boot;   /* seconds per boot, default 120 */
	double cost_run;    /* seconds per run beyond its samples (setup, warm-up) */
	double cost_sample; /* seconds per sample */
	double target;      /* wanted half-width of the (1-alpha) CI of a difference, relative (0.01 = 1%) */
	double alpha;       /* default 0.05 */
	double power;       /* 0 = none; else also detect an effect of size target with this power */
	double assurance;   /* default ST_PLAN_UCB: probability that the half-width meets the target;
			     * 0 = plan on point estimates (expected half-width, about a coin flip) */
	size_t max_boots, max_runs, max_samples; /* search bounds, defaults 64, 16, 1000 */
	size_t min_samples; /* default ST_MIN_BATCH_SAMPLES */
};
struct st_plan_opts stats_plan_defaults(void);

struct st_plan {
	bool feasible;             /* some design within the bounds meets the target */
	size_t boots, runs, samples; /* per group */
	double cost;               /* seconds for both groups */
	double halfwidth;          /* expected relative half-width: e^(t*se) - 1 */
	double se, df;
	double kj_runs, kj_samples; /* Kalibera-Jones optimal runs/boot and samples/run (real); NAN when a
				     * component they divide by is not resolved */
	double assurance;          /* as planned: P(half-width <= target), 0 when on point estimates, NAN
				    * when a level cannot be bounded (unsized): no assurance is claimed */
	unsigned caveats;          /* ST_CAVEAT_NO_BOOT_LEVEL etc. when a component is unknown (taken as 0) */
	unsigned unsized;          /* ST_BIT(level) of levels the pilot cannot bound (see need_boots) */
	unsigned whole;            /* ST_BIT(level) of levels bounded by their whole mean square (ub_whole) */
	size_t pilot_boots;        /* when unsized: boots per group (with >= 2 runs each) a pilot needs */
	double plan_df;            /* with assurance: the pilot's boot-level df behind the plan (see
				    * ST_PLAN_MIN_DF); 0 when not computed */
};

/* The cheapest design (same for both groups) whose expected CI half-width for
 * the difference of two groups with components a and b meets o->target.
 * Returns 0, or -1 with e set for bad options. */
int stats_plan(const struct st_components *a, const struct st_components *b, const struct st_plan_opts *o,
	       struct st_plan *out, struct err *e);

/* Boots per between-boot combination for a contrast of per-boot values (a within-boot effect,
 * stats_factorial_within): the replicates have variance v with df degrees of freedom, and the
 * contrast's se^2 is w v / boots. The smallest boots (2..o->max_boots) meeting o->target as
 * stats_plan would (with assurance: v at its ST_PLAN_COMPONENT_UCB upper bound, the se^2 at
 * its o->assurance scatter quantile, t at one combination's df), df planned as two groups'.
 * Each boot keeps the pilot's runs and samples: out->runs and out->samples are 0 and out->cost
 * is boots times 2 groups (the caller prices a boot). With df < 1 nothing is sized (unsized,
 * pilot_boots 3). Returns 0, or -1 with e set for bad options. */
int stats_plan_paired(double v, double df, double w, const struct st_plan_opts *o, struct st_plan *out,
		      struct err *e);

/* Median of x[0..n-1] (n > 0), sorting x in place. */
double stats_median_sorting(double *x, size_t n);

/* The sample variance (divisor n - 1) of x[0..n-1], NAN when n < 2; *mean (when not NULL)
 * gets the mean, NAN when n == 0. The one mean/variance helper of stats/ and analysis/. */
double stats_mean_var(const double *x, size_t n, double *mean);

/* The components of one group whose difference with a copy of itself has the variance of a
 * contrast sum_i c_i y_i over n independent cells (c_i^2 = w for every cell, as in every
 * effect of a two-level full factorial, w = 4 / n^2): each variance, raw value and upper
 * bound is w/2 times the sum over the cells, each df the Satterthwaite df of that sum;
 * a level is had when every cell has it, a bound is NAN when any cell's is, and
 * ub_whole is any cell's. So stats_plan(out, out) sizes the design per cell for that
 * contrast (with the df of two groups of that design, fewer than the n cells give:
 * conservative). */
void stats_components_contrast(const struct st_components *c, size_t n, double w, struct st_components *out);

/* stats_more_boots() results besides a count. */
#define ST_MORE_NONE SIZE_MAX            /* no count up to the design's maximum settles it */
#define ST_MORE_UNPLANNED (SIZE_MAX - 1) /* a fixed design: looking again is not valid */

/* For an inconclusive comparison c of groups a and b under the design of o: the
 * number of boots to add per group (same runs and samples per boot) before the next
 * look, o->look + 1. Looks are evenly spaced in boots, as stats_look_alpha assumes: the
 * next comes after the fewest boots of a group divided by o->look (at least 1, at most
 * up to o->max_boots). *settles_as gets the verdict that look would give if the current
 * difference is the truth (significant after the BH step, or equivalent, at that look's
 * level), else ST_INCONCLUSIVE. Returns 0 when c is decided or has no replication (its
 * caveats say what to add), ST_MORE_UNPLANNED in a fixed design, and ST_MORE_NONE at
 * the maximum (the final look is done). */
size_t stats_more_boots(const struct st_estimate *a, const struct st_estimate *b, const struct st_comparison *c,
			const struct st_compare_opts *o, enum st_verdict *settles_as);

/* ---------------------------------------------------------------- diagnostics */

enum st_warn_kind {
	ST_WARN_DRIFT,    /* value: total drift over the run, relative; x: t statistic */
	ST_WARN_WARMUP,   /* value: first samples slower by this fraction; x: robust z */
	ST_WARN_OUTLIER,  /* value: the sample's relative deviation from the median; x: robust z */
	ST_WARN_CV,       /* value: coefficient of variation of ops/s; x: threshold */
	ST_WARN_BIMODAL,  /* value: bimodality coefficient; x: threshold */
	ST_WARN_AUTOCORR, /* value: lag-1 autocorrelation of batch means; x: z score */
};
#define ST_NWARN (ST_WARN_AUTOCORR + 1)

struct st_warning {
	enum st_warn_kind kind;
	size_t boot, run; /* where (for a single run: 0, 0) */
	size_t index;     /* sample index for outliers, else 0 */
	double value, x;
};

struct st_warnings {
	struct st_warning *v;
	size_t n, cap;
};
void stats_warnings_free(struct st_warnings *w);

/* The stated false-flag rates of the run diagnostics on i.i.d. Gaussian samples (METHOD.md,
 * "Diagnostics", measured by test_stats_diag): per run for drift, warm-up, bimodality and
 * autocorrelation (each calibrated to it), per sample for outliers (the normal tail beyond
 * 3.5). CV is a limit on the spread, not a test, and has no such rate. */
#define ST_DIAG_RUN_RATE 0.01
#define ST_DIAG_OUTLIER_RATE 0.000465
/* A group (or cell) reports a kind of warning only when more of its runs (samples, for
 * outliers) carry it than the stated rate explains: the binomial tail of the count at that
 * rate is at most this. So 1 flagged run of 12 is chance and 2 are not; a group of one run
 * reports that run's flag (its tail is the rate itself). */
#define ST_DIAG_GROUP_LEVEL 0.01

/* Whether count flags among n trials are more than rate explains: P(Bin(n, rate) >= count)
 * <= ST_DIAG_GROUP_LEVEL. False for count 0. */
bool stats_diag_excess(size_t count, size_t n, double rate);

struct st_diag_opts {
	double drift_alpha;  /* default ST_DIAG_RUN_RATE: the false-flag rate per run on stationary noise */
	double drift_min;    /* smallest total drift worth a warning, default 0.005 (0.5%) */
	double warmup_z;     /* default 3.5: the limit is calibrated to the run length so that i.i.d.
			      * Gaussian runs are flagged at ST_DIAG_RUN_RATE; other values scale it */
	double outlier_z;    /* default 3.5: flags i.i.d. Gaussian samples at the normal tail rate beyond it
			      * (0.047%); the limit on the robust z is calibrated to the run length */
	double cv_max;       /* default 0.05 */
	double bimodal_bc;   /* default 0.555 (a uniform law), raised to the 99% quantile of i.i.d.
			      * Gaussian runs where that is higher; other values scale it; >= 10 samples */
};
struct st_diag_opts stats_diag_defaults(void);

/* How many leading samples of a run (y in time order) come before its steady state: a
 * leading sample counts while it lies more than 4 robust sd (at least 1%) from the median
 * of the second half. At most a quarter of the samples; none with fewer than 8. The
 * runner flags these in the store; summaries leave them out. */
size_t stats_warmup_prefix(const double *y, size_t n);

/* Append the warnings for one run (boot and run are only recorded) to w. */
void stats_diagnose_run(const struct st_run *r, size_t boot, size_t run, const struct st_diag_opts *o,
			struct st_warnings *w);
/* Append the warnings for every run of a group. */
void stats_diagnose_group(const struct st_group *g, const struct st_diag_opts *o, struct st_warnings *w);

/* The warnings of one or more runs by kind: how many, the value of largest magnitude (the
 * first of equals) and the threshold x of the last one. Folding runs one by one in order
 * gives what folding all their warnings at once gives, bit for bit, so a stored per-run
 * tally (struct st_run_summary) stands in for the run's samples. */
struct st_diag_tally {
	size_t count[ST_NWARN];
	double worst[ST_NWARN];
	double limit[ST_NWARN];
};
/* The kinds (bit 1u << kind) that a group of nruns runs holding nsamples samples, whose
 * warnings are tallied in t, reports: those whose count stats_diag_excess finds more than
 * the stated rate explains (outliers per sample, the others per run), and CV whenever a run
 * has it (a limit on the spread, not a test). */
unsigned stats_diag_raised(const struct st_diag_tally *t, size_t nruns, size_t nsamples);
/* Add the warnings w to t (zeroed to start). */
void stats_diag_tally_add(struct st_diag_tally *t, const struct st_warnings *w);
/* Add the tally of one run, u, to t: as if its warnings were added. */
void stats_diag_tally_merge(struct st_diag_tally *t, const struct st_diag_tally *u);
/* The tally as text that reads back exactly ("" without warnings); parse returns false on
 * text it did not write. */
void stats_diag_tally_format(const struct st_diag_tally *t, struct sb *out);
bool stats_diag_tally_parse(const char *text, struct st_diag_tally *t);

/* Environment keys that differ between group a and group b and are not in
 * labels: a key differs when the set of values it takes over a's runs
 * (runs a[0..na-1]) is not the set over b's runs, a key missing in some run
 * counting as the value "absent". Keys are appended to out in sorted order. */
void stats_confounders(const struct kvlist *a, size_t na, const struct kvlist *b, size_t nb,
		       const struct strv *labels, struct strv *out);
/* The same from each group's value sets: one st_env_set per key that some run of the group
 * records (its distinct values, and whether some run lacks it); a key none of a group's
 * nruns runs records takes "absent" there (when nruns > 0). */
struct st_env_set {
	const char *key;
	const char *const *values;
	size_t nvalues;
	bool absent;
};
void stats_confounder_sets(const struct st_env_set *a, size_t nka, size_t nruns_a, const struct st_env_set *b,
			   size_t nkb, size_t nruns_b, const struct strv *labels, struct strv *out);

/* ---------------------------------------------------------------- per-run summary */

struct st_summary {
	size_t n;
	double median, mean, cv, min, max; /* cv = sd / mean; sd with n - 1 */
};
/* Summary of x[0..n-1] (pass ops/s). With n == 0 everything is NAN. */
void stats_summary(const double *x, size_t n, struct st_summary *out);

/* ---------------------------------------------------------------- stored run summary */

/* The version of the method behind struct st_run_summary. Every stored summary is
 * stamped with it; a summary with another stamp is stale and is recomputed from the raw
 * samples (docs/METHOD.md, "Stored run summaries"). Bump it whenever anything that
 * stats_run_summary() computes changes (batch means, the warm-up rule, the interval). */
#define ST_SUMMARY_METHOD 3

/* The rounding step the estimator detects in a group's values (nested.c) is a fold over
 * its runs in order: k starts at 9 and each run may only lower it. A run's effect for
 * every starting k in [ST_ROUND_EXP_MIN, 9] is its round map, one letter per k ('a' + k
 * after the run - ST_ROUND_EXP_MIN + 1), so the fold over stored maps equals the fold
 * over the samples. */
#define ST_ROUND_EXP_MIN (-6)
#define ST_ROUND_MAP_LEN 16
void stats_run_round_map(const struct st_run *r, char map[ST_ROUND_MAP_LEN + 1]);
/* Apply a run's map to *k; false (k untouched) when map is not such a map. */
bool stats_round_map_apply(const char *map, int *k);

/* What the estimators and diagnostics need of one run of one (workload, copies), so
 * they can read one row per run instead of every sample. */
struct st_run_summary {
	struct st_runstat b;   /* batch means of y: n, mean, tau2, df, r1, ... */
	double halfwidth;      /* relative 95% CI half-width (stats_run_halfwidth) */
	double median_y, mad_y; /* median of y and the median absolute deviation from it */
	struct st_summary v;   /* of the values, ops/s: median, mean, cv, min, max */
	char round_map[ST_ROUND_MAP_LEN + 1]; /* stats_run_round_map */
	struct st_diag_tally diag; /* the run's warnings under stats_diag_defaults() */
};
/* Summarise run r (y without its warm-up prefix, with rounds as loaded). Never fails;
 * with r->n == 0 the fields are NAN or 0. */
void stats_run_summary(const struct st_run *r, struct st_run_summary *out);

/* ---------------------------------------------------------------- allocation */

/* One (workload, copies) of a run to come, for stats_allocate (docs/METHOD.md, "Allocating
 * a run's samples"). */
struct st_alloc_item {
	double w;       /* its weight in the objective (ln index: 1/m of an index of m members);
	                   0: not in an index, keeps n0 */
	double tau2;    /* within-run variance per sample (st_components.var_within); NAN: no history */
	double cost;    /* seconds per sample; NAN or <= 0: no history */
	double var_run; /* run-level variance (st_components.var_run); NAN when not resolved */
};

struct st_alloc_opts {
	size_t n0;    /* the default count per item: the budget is what the allocated items cost at it */
	size_t floor; /* fewest samples an allocated item gets (its self-checks, diagnostics) */
	size_t cap;   /* most samples an allocated item gets */
};

/* What stats_allocate decided. var_* are variances of the weighted sum sum_i w_i ybar_i
 * (the ln index) from the allocated items, under the model ybar_i ~ (mu_i, tau2_i / n_i). */
struct st_alloc {
	size_t nalloc;       /* items allocated (weight, tau2 and cost known) */
	double budget_s;     /* their sampling time at n0 */
	double time_s;       /* their sampling time as allocated (<= budget_s) */
	double var_default;  /* within-run variance at n0 */
	double var_alloc;    /* within-run variance as allocated */
	double var_run;      /* run-level variance sum_i w_i^2 var_run_i (independent run effects);
	                        NAN when an allocated item has none */
};

/* Neyman allocation: n_i proportional to w_i sqrt(tau2_i / cost_i), within [floor, cap], the
 * sampling time of the allocated items at most what they take at n0 each; this minimises
 * sum_i w_i^2 tau2_i / n_i at that time. Items without weight or history get n0. The
 * continuous solution is found by bisection on the multiplier; its floors are then raised
 * one sample at a time, greatest variance drop per second first, while the budget allows.
 * An item with tau2 = 0 gets the floor. When the whole counts are worse than n0 for all,
 * every item keeps n0, so var_alloc <= var_default always. n[0..k-1] gets the counts.
 * Returns 0, or -1 with e set when the options are inconsistent (floor > cap, n0 == 0,
 * floor == 0). */
int stats_allocate(const struct st_alloc_item *it, size_t k, const struct st_alloc_opts *o, size_t *n,
		   struct st_alloc *out, struct err *e);

/* More, shorter runs: when the run level dominates, k runs of fewer samples each beat one
 * run of the same total time. */
struct st_alloc_runs {
	size_t runs;         /* best number of runs in the time of one (1: one run is best) */
	size_t n0;           /* the default count (--samples) of each of them; the allocation at it */
	double var_one;      /* variance of the ln index from one run at the given n0: var_run + var_alloc */
	double var_best;     /* from `runs` runs at `n0` each: (var_run + var_alloc(n0)) / runs */
	double time_one;     /* seconds of one run: run_cost + all items' sampling time */
	double time_best;    /* seconds of the `runs` runs */
	bool run_dominates;  /* var_run > var_alloc at the given n0 */
};

/* For 1..max_runs runs in at most the time of one run at o->n0 (each run costs run_cost
 * seconds beyond its samples; items with history but no weight take n0 samples each, at
 * their cost), the per-run default count whose allocation fits, and the variance of the
 * mean of the runs' ln indexes; the best into out. var_run is the run level of the ln index
 * itself (estimated from whole runs, so run effects shared between workloads count); NAN
 * takes sum_i w_i^2 var_run_i, which needs the run level of every allocated item: returns 1
 * (out->runs 0) when neither is known, 0 when planned, -1 with e set as stats_allocate. */
int stats_allocate_runs(const struct st_alloc_item *it, size_t k, const struct st_alloc_opts *o, double var_run,
			double run_cost, size_t max_runs, struct st_alloc_runs *out, struct err *e);

#endif
