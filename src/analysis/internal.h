/* internal.h - what the rooms of analysis/ share, for analysis/ alone: row keys, a group's data, pairing units. */
#ifndef SYSAB_ANALYSIS_INTERNAL_H
#define SYSAB_ANALYSIS_INTERNAL_H

#include "analysis/analysis.h"

struct rowkey {
	const char *workload; /* points into a set, or a composite's name */
	int copies;
	const char *unit;
	int latency;
	struct an_composite *comp; /* a composite row: its definition (owned), else NULL */
	size_t ncomp;              /* its members */
};

/* One group's data for one row, as stats wants it. */
struct gdata {
	struct st_group g;
	struct st_boot *boots;
	struct st_run *runs;
	double *y;   /* composite values, owned */
	struct st_run_summary *sums; /* runs loaded from their summaries: what they point to */
	int64_t *bid; /* each boot's id */
	int64_t *ids; /* each run's id, in the order of runs */
	size_t nruns;
	bool have;
};

struct bootcell {
	int64_t boot;
	size_t cell;
};

/* A run's pairing unit when it is not its boot: a duet campaign's block (AN_PAIR_BY_BLOCK). */
struct run_unit {
	int64_t run, unit;
};

/* A group's value and interval: on the log scale (y = ln ops/s, linear false: ops/s and the
 * relative half-width) or as it is (counts per op: the mean and the absolute half-width). */
void an_value_on(const struct st_estimate *est, double alpha, bool linear, struct an_value *out);

void an_keys_free(struct rowkey *k, size_t n);

/* Is workload the host reference (WL_REFERENCE)? */
bool an_is_reference(const char *workload);

/* The rows over sets[0..ns-1]: every (workload, copies) any set has, then the composites;
 * filtered by patterns, each of which must match some row. */
/* Long by design: collect, sort and filter the rows, then add the composites, in one pass each. */
int an_make_rows(const struct store_set *sets, size_t ns, const struct strv *patterns, struct rowkey **out,
		 size_t *nout, struct err *e);

void an_gdata_free(struct gdata *d);

void an_gdata_series(const struct store_series *x, struct gdata *d);

void an_gdata_row(const struct store_set *set, const struct rowkey *k, struct gdata *d);

/* Estimate groups g[0..ng-1] of row k, each from set[map[j]] with data gd[map[j]]: adjusted for
 * host speed when o asks and the row is not the reference itself. Returns as
 * stats_estimate_groups. */
int an_estimate_row(const struct store_set *sets, const struct gdata *gd, const size_t *map,
		    const struct st_group *g, size_t ng, const struct rowkey *k, const struct st_compare_opts *o,
		    struct st_estimate *est, struct st_adjust *adj, struct err *e);

/* The warnings of the group's runs in order: a run loaded from its summary gives its stored
 * tally, any other its samples' warnings (the same fold, stats.h). Only the kinds the group
 * reports (stats_diag_raised: more runs flagged than the stated rate explains) are kept. */
void an_diag_group(const struct gdata *d, struct an_diag *out);

/* Strip-plot data of one group: per run the samples in ops/s and their geometric mean.
 * None when the group was loaded from summaries (only the page draws them, and the page
 * loads the samples). */
void an_points_of(const struct gdata *d, struct an_points *out);

void an_confounders(const struct store_run_info *const *ra, size_t na, const struct store_run_info *const *rb,
		    size_t nb, const struct store_env *ea, const struct store_env *eb, struct an_compare *out);

/* Which factors vary within units, from bc[0..n-1] (each unit a boot or block holds data of a
 * cell at; sorted here): within, the factors at least 2 levels of which every unit holds, when
 * there are at least 2 units; mixed, those only some units hold several levels of. The one rule
 * analyze's within-boot factors (and so plan's) and compare's pairing by boot or block follow. */
void an_within_units(struct bootcell *bc, size_t n, const size_t *cell_level, size_t nf, unsigned *within,
		     unsigned *mixed);

/* Which factors vary within boots, decided by the data (an_analyze.within and .mixed): over
 * every series of every cell, the levels of each factor that each boot holds runs at. */
void an_within_factors(const struct store_set *cells, size_t ncells, const size_t *cell_level, size_t nf,
		       unsigned *within, unsigned *mixed);

/* Row r's effects in a design with within-boot factors (stats_factorial_within), and its
 * boots lacking some within-boot combination. */
int an_row_within(struct an_analyze *out, struct an_frow *r, const struct gdata *gd, const struct st_factor *f,
		  size_t nf, const struct st_compare_opts *o, struct err *e);

int an_run_unit_cmp(const void *pa, const void *pb);

/* B against A paired inside each boot: both groups ran on the same boots (compare decides it
 * as analyze decides a within-boot factor, so a one-factor analyze gives the same row). The
 * comparison is the within-boot effect of a two-level factor (stats_factorial_within); *d gets
 * the estimate of the per-boot differences, for the advice on more boots. */
/* With each boot of ga and gb keyed by the unit of its first run (units[0..nu-1], sorted by
 * run) instead of its boot id, when units is not NULL: B against A inside each duet block. */
int an_compare_paired(const struct gdata *ga, const struct gdata *gb, const struct run_unit *units, size_t nu,
		      const struct st_compare_opts *o, struct st_comparison *c, struct st_estimate *d,
		      struct err *e);

/* Row k compared by round over the paired runs p[0..np-1] (an_arm_pairs): 1 with c and *pd set,
 * 0 when no paired run holds the row with rounds (the row is then compared as groups), -1 with
 * e set. */
int an_compare_rounds(const struct store_set *a, const struct store_set *b, const struct rowkey *k,
		      const struct an_arm_pair *p, size_t np, const struct st_compare_opts *o, struct st_comparison *c,
		      struct st_estimate *pd, struct err *e);

char *an_describe(const struct rowkey *k);

void an_rows_free(struct an_row *rows, size_t n);

/* Mean seconds per sample of one series (0 when nothing was timed). */
double an_series_sample_cost(const struct store_series *x);

/* Per run: duration minus the time of its samples, shared among its series. One pass over
 * the series (each run's time summed in the same order as a walk per run would). */
double an_run_overhead(const struct store_set *sets, size_t ns, const struct store_run_info *const *runs,
		       size_t nruns);

#endif
