/* stats.h - pure statistics: nested estimates, comparisons, factorial effects, plans, diagnostics. */
#ifndef SYSAB_STATS_H
#define SYSAB_STATS_H

/*
 * Everything here works on in-memory data and returns plain structs. Nothing
 * prints, reads files or touches the store. All values y are ln(ops/s), so a
 * larger y is always better and a difference d = y_B - y_A > 0 means B is
 * faster. docs/METHOD.md gives every formula in words.
 */

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* ---------------------------------------------------------------- distributions */

/* Quantile of Student's t with df > 0 degrees of freedom (df may be non-integer). */
double stats_t_quantile(double p, double df);
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
/* Benjamini-Hochberg q-values of p[0..n-1] into q[0..n-1] (may alias p). NaN
 * p-values are passed through as NaN and not counted in n. */
void stats_bh(const double *p, size_t n, double *q);

/* ---------------------------------------------------------------- input model */

/* One run: samples y[0..n-1] = ln(ops/s) in time order. round, when not NULL,
 * gives each sample's round index (non-decreasing); batches never split a round. */
struct st_run {
	const double *y;
	const int *round;
	size_t n;
};
struct st_boot {
	const struct st_run *runs;
	size_t nruns;
};
/* The runs of one group (one configuration) for one (workload, copies). */
struct st_group {
	const struct st_boot *boots;
	size_t nboots;
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

/* Relative half-width of the (conf) confidence interval of one run's mean throughput,
 * exp(t * sqrt(var_mean)) - 1 from its batch means. INFINITY when the run has too few
 * samples for two batches. Adaptive sampling stops on this. */
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
};

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
};

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
};

/* Estimate every group of one comparison (or every cell of a factorial) for
 * one (workload, copies). The groups are estimated together because a group
 * that cannot estimate a level borrows the pooled estimate from the others,
 * and a level no group can estimate is left out of every interval and
 * recorded as a caveat. out[0..ngroups-1] are filled. Returns 0, or -1 with e
 * set when the input is malformed (a boot without runs, a non-finite y). */
int stats_estimate_groups(const struct st_group *groups, size_t ngroups, struct st_estimate *out,
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
};

struct st_compare_opts {
	double alpha;  /* default 0.05 */
	double margin; /* relative, default 0.01 = 1%: bounds ln(1-margin), ln(1+margin) */
};
/* The defaults above. */
struct st_compare_opts stats_compare_defaults(void);

/* B versus A. */
struct st_comparison {
	enum st_verdict verdict;
	bool negligible;           /* significant, yet the (1-2alpha) CI is inside the margin */
	double d, se, df, t, p, q; /* q == p until stats_compare_adjust() */
	double lo, hi;             /* (1-alpha) CI of d */
	double lo2, hi2;           /* (1-2alpha) CI of d */
	double pct, pct_lo, pct_hi, pct_lo2, pct_hi2; /* 100(e^x - 1) of the above */
	double alpha, margin, eq_lo, eq_hi;           /* eq_*: margin bounds on d */
	unsigned caveats;          /* union of both groups' caveats */
	enum st_need need;
};

/* Compare b against a. Never fails: without an interval the verdict is
 * ST_NO_DATA and the numbers other than d are NAN. */
void stats_compare(const struct st_estimate *a, const struct st_estimate *b, const struct st_compare_opts *o,
		   struct st_comparison *out);
/* Benjamini-Hochberg across the n comparisons (one per workload): set each q
 * and recompute each verdict from q. */
void stats_compare_adjust(struct st_comparison *c, size_t n);

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
};

struct st_effect {
	enum st_effect_kind kind;
	size_t factor, factor2; /* factor2 only for interactions */
	size_t level;           /* for ST_EFFECT_LEVEL: the level compared with levels[0] */
	bool available;         /* false when a cell it needs is missing or has no interval */
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

/* A linear contrast sum_i c[i] * est[i]->mean: se^2 = sum c_i^2 se_i^2,
 * Satterthwaite df; reported like a comparison. Cells with c[i] == 0 are
 * ignored. Without an interval in a used cell the verdict is ST_NO_DATA. */
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
	double kj_runs, kj_samples; /* Kalibera-Jones optimal runs/boot and samples/run (real) */
	unsigned caveats;          /* ST_CAVEAT_NO_BOOT_LEVEL etc. when a component is unknown (taken as 0) */
};

/* The cheapest design (same for both groups) whose expected CI half-width for
 * the difference of two groups with components a and b meets o->target.
 * Returns 0, or -1 with e set for bad options. */
int stats_plan(const struct st_components *a, const struct st_components *b, const struct st_plan_opts *o,
	       struct st_plan *out, struct err *e);

/* For an inconclusive comparison of groups a and b: the number of extra boots
 * per group (same runs and samples per boot as now) after which, if the
 * current difference is the truth, the comparison is expected to be decided
 * (significant or equivalent). Returns 0 when it already is, and SIZE_MAX
 * when no count up to max_boots settles it. *settles_as gets the expected
 * verdict. Each group's se^2 is scaled by boots/(boots + k); when a group's
 * boot level is not covered (one boot, nothing to borrow) the projection is
 * optimistic, and the comparison's caveats already say so. */
size_t stats_more_boots(const struct st_estimate *a, const struct st_estimate *b, const struct st_comparison *c,
			size_t max_boots, enum st_verdict *settles_as);

/* ---------------------------------------------------------------- diagnostics */

enum st_warn_kind {
	ST_WARN_DRIFT,    /* value: total drift over the run, relative; x: t statistic */
	ST_WARN_WARMUP,   /* value: first samples slower by this fraction; x: robust z */
	ST_WARN_OUTLIER,  /* value: the sample's relative deviation from the median; x: robust z */
	ST_WARN_CV,       /* value: coefficient of variation of ops/s; x: threshold */
	ST_WARN_BIMODAL,  /* value: bimodality coefficient; x: threshold */
	ST_WARN_AUTOCORR, /* value: lag-1 autocorrelation of batch means; x: z score */
};

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

struct st_diag_opts {
	double drift_alpha;  /* default 0.01 */
	double drift_min;    /* smallest total drift worth a warning, default 0.005 (0.5%) */
	double warmup_z;     /* default 3.5 */
	double outlier_z;    /* default 3.5 */
	double cv_max;       /* default 0.05 */
	double bimodal_bc;   /* default 0.555; needs >= 10 samples */
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

/* Environment keys that differ between group a and group b and are not in
 * labels: a key differs when the set of values it takes over a's runs
 * (runs a[0..na-1]) is not the set over b's runs, a key missing in some run
 * counting as the value "absent". Keys are appended to out in sorted order. */
void stats_confounders(const struct kvlist *a, size_t na, const struct kvlist *b, size_t nb,
		       const struct strv *labels, struct strv *out);

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
#define ST_SUMMARY_METHOD 1

/* What the estimators and diagnostics need of one run of one (workload, copies), so
 * they can read one row per run instead of every sample. */
struct st_run_summary {
	struct st_runstat b;   /* batch means of y: n, mean, tau2, df, r1, ... */
	double halfwidth;      /* relative 95% CI half-width (stats_run_halfwidth) */
	double median_y, mad_y; /* median of y and the median absolute deviation from it */
	struct st_summary v;   /* of the values, ops/s: median, mean, cv, min, max */
};
/* Summarise run r (y without its warm-up prefix, with rounds as loaded). Never fails;
 * with r->n == 0 the fields are NAN or 0. */
void stats_run_summary(const struct st_run *r, struct st_run_summary *out);

#endif
