/* grow.h - same-boot designs that grow: paired runs added until every chosen workload is decided (run --arm --until decided). */
#ifndef SYSAB_STUDY_GROW_H
#define SYSAB_STUDY_GROW_H

#include "analysis/job.h"
#include "analysis/mde.h"

/* The fewest paired runs a grow looks at (one paired run has no interval); its cap's most and
 * default are AN_GROW_MAX_RUNS and AN_GROW_DEFAULT_RUNS (analysis.h: the withheld line's step
 * sizes a grow too). */
#define STUDY_GROW_MIN_RUNS 2

/* A grow's design, fixed before its first paired run (docs/METHOD.md, "Paired runs that grow"):
 * the arms' runs carry the label grow=tag, so the grow's looks are one question of their own
 * (compare 'arm=A grow=tag' 'arm=B grow=tag'), a group-sequential design of at most max_runs
 * paired runs whose information is the paired runs taken over max_runs. */
struct study_grow {
	const char *arm_a, *arm_b; /* the two arms' names */
	const char *tag;           /* the grow label's value */
	const struct strv *patterns; /* the chosen workloads (-w; registry names), as rows */
	size_t max_runs;           /* --max-runs: the cap, >= STUDY_GROW_MIN_RUNS */
	double target;             /* --target in percent (0: the default margin of 1%): the margin of
	                              equivalence and the MDE asked for */
};

/* Where a grow stands after a look. */
enum study_grow_state {
	STUDY_GROW_GO_ON,   /* some chosen workload is still inconclusive: add a paired run */
	STUDY_GROW_DECIDED, /* every chosen workload is faster, slower or equivalent */
	STUDY_GROW_CAP,     /* max_runs paired runs taken, some workload still undecided */
};
/* One word per state, for JSON and the closing line ("go_on", "decided", "cap"). */
const char *study_grow_state_word(enum study_grow_state s);

/* The stopping rule (pure): from look c over pairs paired runs of at most max_runs. Decided when
 * c has at least one row and every row with both arms has a verdict faster, slower or
 * equivalent; else the cap when pairs >= max_runs; else go on. A row withheld or without data
 * is undecided. */
enum study_grow_state study_grow_rule(const struct an_compare *c, size_t pairs, size_t max_runs);

/* The selector of arm's runs in grow g (new string, e.g. "arm=B grow=tag"). */
char *study_grow_selector(const struct study_grow *g, const char *arm);

/* Look k (1-based; the look after paired run k + 1) of grow g at the database at path: compare
 * the arms' runs as look k of the declared design (every look recorded in table look) into *j,
 * and the rule's state into *state. Opens the database itself (the job takes it).
 * Returns 0, or -1 with e set; free j with an_compare_job_free either way. */
int study_grow_look(const char *path, const struct study_grow *g, size_t k, size_t pairs, struct an_compare_job *j,
		    enum study_grow_state *state, struct err *e);

/* The MDE the grow reached with pairs paired runs, from its own runs, those of selector from
 * (study_grow_selector of A's arm; m borrows it: keep it until m is freed), at the design's
 * target, into *m (free with an_mde_free). Returns 0, or -1 with e set. */
int study_grow_mde(const char *path, const struct study_grow *g, const char *from, size_t pairs, struct an_mde *m,
		   struct err *e);

#endif
