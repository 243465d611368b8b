/* composite.h - the composite indexes: fixed, named member sets on UnixBench's scale, defined and computed here only. */
#ifndef SYSAB_COMPOSITE_H
#define SYSAB_COMPOSITE_H

#include "store/store.h"

#define AN_UB_INDEX "unixbench-index"                 /* UnixBench's 12 index tests, UnixBench's baselines */
#define AN_UB_INDEX_PARTIAL "unixbench-index-partial" /* the same over the index tests a log holds */
#define AN_SYSAB_INDEX "sysab-index"                  /* one sysab workload per UnixBench index test, its baselines */
#define AN_COMPOSITE_MAX 16

/* A composite at one copies count: index = geometric mean over the members of
 * 10 * value / ref (UnixBench's scale, on which its 1995 reference machine scores 10). */
struct an_composite {
	const char *name; /* AN_UB_INDEX, AN_UB_INDEX_PARTIAL or AN_SYSAB_INDEX */
	int copies;
	size_t n;
	const char *workload[AN_COMPOSITE_MAX]; /* member workloads (registry names) */
	const char *test[AN_COMPOSITE_MAX];     /* their UnixBench test names */
	double ref[AN_COMPOSITE_MAX];           /* reference value in stored ops/s of the workload */
};

/* The composites over sets[0..ns-1] at `copies`, into out[0..1]; returns how many (0-2).
 * The runs a composite uses are those holding any of its members. A composite is
 * returned only when every such run holds every member and is of its kind:
 * unixbench-index(-partial) for runs imported from UnixBench logs (members: the
 * UnixBench index tests the first such run holds, which every other must hold too,
 * no more and no fewer); sysab-index for all other runs. Never both kinds in one. */
size_t an_composites(const struct store_set *sets, size_t ns, int copies, struct an_composite out[2]);

/* Every run of set that c uses, as (boot, run, y) with y = ln of its composite value:
 * the mean over the members of the run's score (store_series_run.kept_y) minus
 * ln(ref / 10). Returns the count, *out allocated (free it), sorted by boot then run. */
struct an_composite_run {
	int64_t boot, run;
	double y;
};
size_t an_composite_runs(const struct store_set *set, const struct an_composite *c, struct an_composite_run **out);

/* The members of sysab-index that set lacks at copies, into missing[0..max-1] (registry
 * names, static), when set holds at least one other member and no UnixBench log; returns
 * how many it lacks (0 when it holds all or none, or holds UnixBench logs). */
size_t an_sysab_index_missing(const struct store_set *set, int copies, const char **missing, size_t max);

/* One line naming c's members and scale, e.g. "UnixBench's index over its 11 index tests in the log (no shell8)". */
void an_composite_describe(const struct an_composite *c, char *buf, size_t size);

#endif
