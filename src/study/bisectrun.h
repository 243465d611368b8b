/* bisectrun.h - a bisection carried out: each step an adaptive campaign judged by the bisect rule, the culprit check, and the records reports print. */
#ifndef SYSAB_STUDY_BISECTRUN_H
#define SYSAB_STUDY_BISECTRUN_H

#include "campaign/campaign.h"
#include "store/store.h"
#include "study/bisect.h"

/*
 * `sysab bisect` (issue 50) over an ordered series of campaign configurations. Step K is the
 * adaptive campaign NAME.sK (until "bisect") of randomized blocks of three configurations: the
 * good end, the midpoint and the bad end. After each block the step's rule compares, per
 * workload, the midpoint against good and against bad (and at the first step bad against
 * good) through the compare path (an_compare_job_build, as look K of the step's
 * group-sequential design) and calls the step with bisect_decide(); the step ends when it is
 * called. Every configuration's runs carry the label bisect=NAME, so a comparison takes every
 * earlier boot of a configuration, in any step. Once found, the culprit check NAME.check boots
 * the culprit's parent and the culprit afresh (label bisect_check=NAME): "slower" for every
 * workload confirms it. Every boot and decision is in the database, so the driver resumes
 * from where it stopped after a crash: a call replays the recorded steps and goes on.
 */

/* What `bisect new` is given. */
struct study_bisect_spec {
	const char *name;
	struct strv series;    /* one configuration per element, as `bisect new --series` read it */
	const char *good, *bad; /* as given: a line number (1-based) or a line's labels */
	int cap;               /* boots per step, every configuration counted (>= 6) */
	int assume;            /* --assume: 0 none (an undecided step stops the bisection), 1: an undecided
				* step is taken as the side its evidence favours (bisect_favoured) */
	const char *backend;
	struct strv run_args;  /* of each `sysab run` */
	struct strv options;   /* campaign options as pairs of name and value ("" for a flag) */
	struct strv workloads; /* -w patterns judged (empty: the run's) */
};

/* Read a series file's text (path names it in errors) into lines: one configuration per
 * line, blank lines and lines starting with '#' left out. An empty series is an error naming
 * the file. Returns 0, or -1 with e set (*lines empty). */
int study_bisect_series_read(const char *path, struct strv *lines, struct err *e);

/* Check spec against the store (the names of its campaigns free, every line a configuration
 * the backend takes, good before bad) and store it as bisection spec->name in state new.
 * Returns 0, or -1 with e naming the wrong input and nothing stored. */
int study_bisect_create(struct store *st, const struct study_bisect_spec *spec, struct err *e);

/* One step as the dry run plans it: the step's depth (1, 2, ...), its ends and midpoint. */
struct study_bisect_plan_step {
	size_t depth, good, mid, bad;
};
/* What `bisect new --dry-run` prints: every configuration's name, the campaign of the first
 * step and every step a bisection can take after it (both outcomes of each). */
struct study_bisect_plan {
	const char *name;
	struct strv configs;  /* each configuration's labels */
	size_t good, bad;
	int cap, blocks;      /* boots per step; blocks of 3 boots at most */
	struct study_bisect_plan_step *steps;
	size_t nsteps;
	size_t depth;         /* the most steps a bisection takes */
};
/* Check spec as study_bisect_create does (but not against a database), without storing, and plan it into *p (free with
 * study_bisect_plan_free). Returns 0, or -1 with e set. */
int study_bisect_plan(const struct study_bisect_spec *spec, struct study_bisect_plan *p, struct err *e);
void study_bisect_plan_free(struct study_bisect_plan *p);

/* Start (a new or stopped bisection) or resume bisection name under env: replay its recorded
 * steps, go on with the open step's campaign (creating and starting the next step's when none
 * is open), record each step as it is called, and end with the culprit check. Returns when
 * the bisection has ended, was stopped, or waits for a reboot (the reboot backends: the
 * campaign armed its next boot). Returns 0, or -1 with e set. */
int study_bisect_drive(const struct campaign_env *env, const char *name, struct err *e);

/* Stop bisection name after the current boot: its open campaign is stopped and the bisection
 * marked stopped (`bisect resume` goes on). Returns 0, or -1 with e set. */
int study_bisect_stop(const struct campaign_env *env, const char *name, struct err *e);

/* One step as `bisect show` prints it. */
struct study_bisect_view_step {
	int n;                 /* 1, 2, ... */
	size_t good, mid, bad; /* 0-based */
	char *campaign;        /* NULL when removed */
	char *call, *why;      /* NULL while the step is open */
	int boots, looks;
	bool assumed;
};
/* A bisection as `bisect show` prints it: finished numbers only. */
struct study_bisect_view {
	char *name, *state, *reason, *checked; /* checked: NULL while not checked */
	struct strv configs;                   /* each configuration's labels */
	size_t good, bad;
	int cap;
	int assume;             /* 0 or 1 (study_bisect_spec) */
	bool found;             /* state found: culprit (and parent = culprit - 1) */
	size_t culprit;
	bool ambiguous;         /* state ambiguous: culprit_lo..culprit */
	size_t culprit_lo;
	bool have_effect;       /* the culprit check measured the effect of workload */
	char *workload;
	double pct, lo, hi;     /* the culprit against its parent, percent, 95% interval (+: slower) */
	bool time;              /* pct is of time per op */
	int check_boots;        /* boots of the culprit check */
	int boots;              /* every boot of the bisection, the check's included */
	struct study_bisect_view_step *steps;
	size_t nsteps;
};
/* Read bisection name into *v (free with study_bisect_view_free): 0, or -1 with e set (an
 * unknown name named). */
int study_bisect_view(struct store *st, const char *db_path, const char *name, struct study_bisect_view *v,
		      struct err *e);
void study_bisect_view_free(struct study_bisect_view *v);

#endif
