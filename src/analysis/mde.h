/* mde.h - the smallest effect a design can detect, per workload, from a pilot's or the database's runs. */
#ifndef SYSAB_MDE_H
#define SYSAB_MDE_H

#include "core/core.h"
#include "stats/mde.h"
#include "store/store.h"

/* Where a row's variance components came from: one word each (an_mde_source_word). */
enum an_mde_source {
	AN_MDE_PILOT,   /* the runs of a pilot selector (--from SELECTOR, or plan's pilot) */
	AN_MDE_HISTORY, /* every earlier run of the database */
	AN_MDE_ROUGH,   /* no runs of the workload: the documented defaults (stats_mde_rough) */
};
const char *an_mde_source_word(enum an_mde_source s);

/* The design whose MDE is asked for: per configuration boots x runs x samples (samples 0: the
 * pilot's mean samples per run, else AN_MDE_ROUGH_SAMPLES), at 1 - alpha and power. */
struct an_mde_in {
	size_t boots, runs, samples;
	double alpha, power;
	double target;     /* > 0: also the boots that reach it; 0: none */
	size_t max_boots;  /* search bound of those boots */
	bool emulated;     /* the runs measure an emulator (qemu TCG): the MDE is for its costs */
	bool paired;       /* paired runs on one boot (run --arm): boots counts paired runs, runs 1,
			    * samples the rounds (stats_mde_paired) */
	const char *from;  /* the pilot selector (NULL: every run, the database's history) */
	double probe_cv;   /* this host's noise probe (probe.cv of its newest run), 0: none; rough
			    * rows take it as the sample sd when above the default (an_mde_select sets it) */
};
#define AN_MDE_ROUGH_SAMPLES 10 /* samples per run assumed when neither design nor pilot has them */
#define AN_MDE_MAX_BOOTS 10000

struct an_mde_row {
	char *workload;
	int copies;
	enum an_mde_source source;
	size_t samples;   /* per run, as used */
	struct st_mde m;
};

/* A finished record: one row per chosen workload. */
struct an_mde {
	struct an_mde_in in; /* as given, but in.from is from below */
	char *from;          /* the MDE's own copy of the pilot selector (NULL: none) */
	struct an_mde_row *rows;
	size_t nrows;
	double worst;        /* the largest MDE of the rows */
	size_t boots_needed; /* with a target: the most boots any row needs; 0 when a row cannot */
	bool reaches;        /* with a target: every row's MDE meets it */
};

/* The MDE of design in for the workloads patterns chooses (registry names or globs; empty:
 * the members of the sysab index), from the components of each workload in set (NULL or
 * without the workload: rough), source naming where set came from. Into *out (free with
 * an_mde_free). Returns 0, or -1 with e set (a design stats_mde refuses, a pattern that
 * names no workload). */
int an_mde_of_set(const struct store_set *set, enum an_mde_source source, const struct strv *patterns,
		  const struct an_mde_in *in, struct an_mde *out, struct err *e);

/* The same from the runs of st that in->from selects (every run when NULL: history), with
 * in->probe_cv from the newest run that recorded a noise probe. A database without runs gives
 * rough rows; a selector that matches nothing is an error.
 * Returns 0 or -1 with e set. */
int an_mde_select(struct store *st, const struct strv *patterns, const struct an_mde_in *in, struct an_mde *out,
		  struct err *e);

void an_mde_free(struct an_mde *m);

#endif
