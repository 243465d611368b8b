/* changepoint.h - change points in a series of per-boot estimates: robust, calibrated by simulation. Pure. */
#ifndef SYSAB_STATS_CHANGEPOINT_H
#define SYSAB_STATS_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "core/core.h"

/*
 * The series is x[0..n-1] (one estimate of ln(ops/s) per boot, in the order the user
 * chose) with standard errors se[0..n-1] from within the boot. Between boots the
 * estimates scatter by tau^2 more (estimated robustly from successive differences).
 * Binary segmentation with a Huberized, weighted CUSUM (weights 1/(se^2 + tau^2)) and, when
 * no split is significant, a scan of short episodes (a segment against the boots either side
 * of it); each test's p-value is a Monte Carlo p-value against the same procedure on
 * simulated series without a change (with the spread changing where a test finds the
 * spread to change), and the two tests share alpha, so the chance that a series without
 * change reports any is at most alpha. Each change is then refitted and located between its
 * neighbours. docs/METHOD.md, "History: change points", gives the method and its measured
 * operating characteristics.
 */

struct st_cp_opts {
	double alpha;    /* family-wise level of a false change over the series (default 0.005: half
			  * the 1% that sysab promises, for what the model only approximates) */
	double conf;     /* level of the location and size intervals (default 0.95) */
	size_t min_seg;  /* fewest boots on either side of a change (default 3) */
	double huber_c;  /* Huber's c for standardized residuals (default 2) */
	size_t nsim;     /* simulated null series per test (default 199; at least 2 / level - 1, the level
			  * being the test's share of alpha: 499 for the splits, 1999 for the episodes) */
	size_t nboot;    /* bootstrap series for the location interval (default 200) */
	uint64_t seed;   /* the simulations' seed: the same data and seed give the same answer */
};

/* The defaults above. */
struct st_cp_opts stats_cp_defaults(void);

/* The fewest boots on one side of a change that history judges: a change with fewer boots
 * after it (or before it) is reported too seldom to call its absence "no change", so those
 * boots are marked as too few to judge (docs/METHOD.md, "History: change points", measured
 * per k). */
#define ST_CP_EDGE 5

/* One change: boots [index, ...) differ from those before. */
struct st_cp_change {
	size_t index;              /* the first changed boot (0-based) */
	size_t index_lo, index_hi; /* conf interval of index */
	double stat, p;            /* the statistic of its test (the splits' or the episodes' largest) and its
				    * Monte Carlo p-value over the test's share of alpha (compares with alpha) */
	size_t seg_lo, seg_hi;     /* the boots [seg_lo, seg_hi) the size compares: the segments
				    * either side, up to the neighbouring changes */
	double before, after;      /* robust weighted means of ln(ops/s) of those segments */
	double d, se, lo, hi;      /* after - before, its standard error and conf interval */
	double pct, pct_lo, pct_hi; /* 100 (e^x - 1) of d, lo, hi */
};

struct st_cp_result {
	size_t n;
	double tau2;    /* between-boot variance of the whole series */
	struct st_cp_change *changes; /* by index */
	size_t nchanges;
	double *level;  /* [n]: the fitted level (segment mean) of each boot */
	/* Where a change cannot be judged: a change whose first boot is tail_from or later has
	 * fewer than ST_CP_EDGE boots after it, one whose first boot is 1..head_to fewer than
	 * ST_CP_EDGE before it; it is found too seldom there for its absence to mean "no change".
	 * 1 <= head_to, tail_from <= n - 1 (they cross when n < 2 ST_CP_EDGE). */
	size_t head_to, tail_from;
};

/* Find the change points of x[0..n-1] with standard errors se[0..n-1] (a NAN or negative
 * se is taken as 0: the boot's scatter is then tau^2 alone). Returns 0 and fills *out (free
 * with stats_cp_free), or -1 with e set when n < 2 * min_seg or a value is not finite. */
int stats_changepoints(const double *x, const double *se, size_t n, const struct st_cp_opts *o,
		       struct st_cp_result *out, struct err *e);
void stats_cp_free(struct st_cp_result *r);

/* The between-boot variance of x[0..n-1] with squared standard errors s2[0..n-1]: the tau^2
 * at which the median of d_i^2 / (2 tau^2 + s2_i + s2_{i+1}) over successive differences
 * d_i = x_{i+1} - x_i is the median of chi-square(1); 0 when the s2 alone explain them.
 * A step or one outlying boot moves only one or two of the differences. */
double stats_cp_tau2(const double *x, const double *s2, size_t n);

#endif
