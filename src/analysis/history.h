/* history.h - `sysab history`: one workload's per-boot estimates in version or time order, and where they changed. */
#ifndef SYSAB_HISTORY_H
#define SYSAB_HISTORY_H

#include "analysis/job.h"
#include "stats/changepoint.h"

/* Compare two label values in version order: runs of digits as numbers (2 < 10, leading
 * zeros ignored), other characters byte by byte, and a value that goes on past the other
 * with '-' or '~' and a letter is a pre-release of it, so 6.12-rc1 < 6.12-rc2 < 6.12 <
 * 6.12.1 < 6.13-rc1. Returns < 0, 0 or > 0; equal only for equal strings. */
int an_version_cmp(const char *a, const char *b);

/* One boot of the series, in order. */
struct an_history_boot {
	const char *boot_id;  /* borrowed from the job's runs */
	const char *value;    /* the --by label's value ("" with --by time) */
	uint64_t started_ns;  /* its first run's start */
	size_t nruns, nsamples;
	double y, se;         /* mean ln(ops/s) and its standard error within the boot (NAN: none) */
	struct an_value v;    /* the estimate in ops/s with its 95% interval from within the boot */
	double level_ops;     /* the fitted level of its segment (between changes), ops/s */
};

/* One change, with the boots either side named. */
struct an_history_change {
	const struct st_cp_change *c;
	const char *label_before, *label_after; /* the --by values (with --by time: boot ids) */
	const char *boot_before, *boot_after;   /* boot ids of the last unchanged and first changed boot */
	bool slower;
	struct an_change chg;                   /* the change as every format shows it (an_change) */
	/* The A/B campaign that settles it (--confirm): boots, runs and samples per side for an
	 * interval of the change's size at 80% power, planned from the boots either side
	 * (segments [seg_lo, index) and [index, seg_hi)) as `sysab plan` plans two groups. */
	struct st_plan confirm;
	bool confirm_planned;                   /* false: the segments cannot be estimated; the
	                                           campaign line is the study's (study_confirm_lines) */
};

/* The finished record that renderers print. */
struct an_history {
	const char *workload;
	int copies;
	const char *unit;
	int latency;
	unsigned change_kinds; /* AN_CHG_TIME for a time/op workload, else AN_CHG_RATE */
	const char *by;       /* the label key, or "time" */
	const char *selector; /* as given ("" for every run) */
	struct an_history_boot *boots;
	size_t nboots, nruns;
	struct st_cp_opts opts;
	struct st_cp_result cp;
	double between_sd;    /* sqrt(cp.tau2): the between-boot sd on the log scale */
	struct an_history_change *changes; /* [cp.nchanges] */
	size_t dropped_runs;  /* selected runs of the workload without the --by label */
};

struct an_history_job {
	struct an_db d;
	struct an_group g;
	struct an_history h;
};

/* The series of the workload matching pattern (exactly one (workload, copies) among the runs
 * that selector picks, "" = every usable run), one estimate per boot, ordered by label `by`
 * (as selectors read it, select_label: kernel, machine and source without such a label; version
 * order; ties by start time) or by the boots' first start when by is "time", and its
 * change points (opts). Takes st. Returns 0, or -1 with e set (an unknown label, a boot whose
 * runs disagree on it, too few boots, ...); free j with an_history_job_free either way. */
int an_history_job_build(struct store *st, const char *selector, const char *pattern, const char *by,
			 const struct st_cp_opts *opts, struct an_history_job *j, struct err *e);
void an_history_job_free(struct an_history_job *j);

#endif
