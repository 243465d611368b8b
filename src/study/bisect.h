/* bisect.h - the bisection of an ordered series of configurations, decided by sysab's verdicts (issue 50). */
#ifndef SYSAB_STUDY_BISECT_H
#define SYSAB_STUDY_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"
#include "stats/stats.h"

/*
 * A bisection walks configurations 0..n-1 of one ordered series (kernels, commits) between a
 * good end and a bad end (good < bad). Each step boots its midpoint with both ends in blocks
 * and is judged, after each block, from sysab's own verdicts (struct bisect_verdicts, one per
 * workload) by bisect_decide(); bisect_record() moves the ends. Nothing here boots, stores or
 * prints: the same code runs the simulation of docs/METHOD.md ("Bisection") and a real
 * bisection, whose verdicts come from the boots its campaigns stored.
 */

/* What is known of one configuration. */
enum bisect_mark {
	BISECT_UNTESTED,
	BISECT_MARK_GOOD,  /* an end, or a midpoint judged (or assumed) good */
	BISECT_MARK_BAD,
	BISECT_MARK_SKIP,  /* could not be built or booted (git bisect skip) */
};

/* The call on a step after a block of boots. */
enum bisect_call {
	BISECT_MORE,       /* not decided: boot another block */
	BISECT_GOOD,       /* the midpoint is equivalent to good */
	BISECT_BAD,        /* slower than good and equivalent to bad */
	BISECT_UNDECIDED,  /* still neither at the cap of boots per step */
	BISECT_NO_STEP,    /* first step: bad is not slower than good, nothing to bisect */
	BISECT_SKIPPED,    /* the midpoint could not be built or booted */
};

/* Why, one word each (bisect_why_word) for JSON and the show line. */
enum bisect_why {
	BISECT_WHY_EQUIV_GOOD,      /* every workload equivalent to good */
	BISECT_WHY_SLOWER_EQUIV_BAD, /* every workload slower than good and equivalent to bad */
	BISECT_WHY_ENDS_PENDING,    /* first step: bad vs good not yet slower (nor settled otherwise) */
	BISECT_WHY_ENDS_NOT_SLOWER, /* first step: bad vs good equivalent or faster, or not slower at the cap */
	BISECT_WHY_OPEN,            /* some workload neither good nor bad yet */
	BISECT_WHY_SPLIT,           /* the workloads disagree: some good, some bad */
	BISECT_WHY_CAP,             /* undecided at the cap */
	BISECT_WHY_WITHHELD,        /* a verdict was withheld or had no data: never decided on */
	BISECT_WHY_BUILD,           /* skipped: the build or boot failed */
};

/* One workload's verdicts at a look of a step, as compare gives them (B against A). */
struct bisect_verdicts {
	enum st_verdict mid_good; /* the midpoint (B) against good (A) */
	enum st_verdict mid_bad;  /* the midpoint (B) against bad (A) */
	enum st_verdict bad_good; /* bad (B) against good (A): read at the first step only */
	double d_good, d_bad;     /* the estimates of mid - good and mid - bad (log scale), for --assume */
};

/* One step as it ended. */
struct bisect_step {
	size_t mid, good, bad;  /* the configuration tried and the ends it was judged against */
	enum bisect_call call;  /* never BISECT_MORE */
	enum bisect_why why;
	size_t boots, looks;    /* boots of the step (every configuration), looks taken */
	bool assumed;           /* undecided, moved to the favoured side under --assume */
};

/* Where the bisection stands. */
enum bisect_state {
	BISECT_RUNNING,   /* bisect_next gives the next midpoint */
	BISECT_FOUND,     /* the culprit is the first bad configuration after the last good one */
	BISECT_AMBIGUOUS, /* skipped configurations lie between the last good and first bad: culprit_lo..culprit */
	BISECT_STUCK,     /* a step stayed undecided at the cap and --assume was not given */
	BISECT_NOSTEP,    /* the ends show no slowdown */
};

struct bisect {
	size_t n, good, bad;     /* the series 0..n-1 and the current ends */
	size_t cap;              /* boots per step, every configuration of its blocks counted */
	bool assume;             /* go on to the favoured side of a step undecided at the cap */
	enum bisect_mark *mark;  /* n */
	struct bisect_step *steps;
	size_t nsteps, steps_cap;
	enum bisect_state state;
	size_t culprit_lo, culprit; /* BISECT_FOUND: culprit_lo == culprit; AMBIGUOUS: the range */
};

#define BISECT_CAP_DEFAULT 24 /* boots per step */

/* Start a bisection of n configurations from good to bad (good < bad < n) with cap boots per step
 * (>= 3: one block of the midpoint and both ends). Adjacent ends leave no step to take: the state is
 * BISECT_FOUND at once, culprit bad, and only the culprit check judges it. The inputs are 0-based;
 * messages number configurations from 1. Returns 0, or -1 with e naming the bad input (and *b
 * left empty, safe to bisect_free). */
int bisect_init(struct bisect *b, size_t n, size_t good, size_t bad, size_t cap, bool assume, struct err *e);
/* Free what b holds; b may be empty or zeroed. */
void bisect_free(struct bisect *b);

/* The next configuration to try: the midpoint of the open range (good, bad) or, when it is
 * skipped, its nearest untested neighbour in that range (the lower one on a tie). false when the
 * bisection is not running or nothing untested is left there (bisect_record then has ended it). */
bool bisect_next(const struct bisect *b, size_t *mid);

/* The call on the step trying mid after a look at boots boots of it (every configuration
 * counted), from one verdict record per workload (nw >= 1). first: this is the bisection's first
 * step, whose ends are checked too: until bad is slower than good for every workload, the step is
 * not decided; equivalent or faster ends, or not slower at the cap, give BISECT_NO_STEP. Then:
 * every workload equivalent to good -> GOOD; every workload slower than good and equivalent to
 * bad -> BAD; a withheld or empty verdict, disagreeing workloads or open ones -> MORE, or
 * UNDECIDED once boots + block > cap (block: boots one more block takes). *why gets the reason. */
enum bisect_call bisect_decide(const struct bisect_verdicts *w, size_t nw, bool first, size_t boots, size_t block,
			       size_t cap, enum bisect_why *why);

/* The side an undecided step's evidence favours: BISECT_GOOD when the midpoint lies nearer good
 * than bad over the workloads (sum of |d_good| below that of |d_bad|), else BISECT_BAD. */
enum bisect_call bisect_favoured(const struct bisect_verdicts *w, size_t nw);

/* Record the step that tried mid (bisect_next's) with its final call (not MORE), reason, boots and
 * looks; fav is bisect_favoured's side for an UNDECIDED call (else ignored). GOOD and BAD move the
 * ends; SKIPPED marks mid; UNDECIDED moves to fav under b->assume (the step marked assumed), else
 * stops the bisection (BISECT_STUCK); NO_STEP stops it (BISECT_NOSTEP). When no untested
 * configuration is left between the ends, the state becomes FOUND or AMBIGUOUS. Returns 0, or -1
 * with e set when the bisection is not running or mid is not inside the open range. */
int bisect_record(struct bisect *b, size_t mid, enum bisect_call call, enum bisect_why why, size_t boots,
		  size_t looks, enum bisect_call fav, struct err *e);

/* The culprit check (fresh boots). */
enum bisect_check {
	BISECT_CONFIRMED,   /* the culprit is slower than its parent (and the revert faster than it) */
	BISECT_UNCONFIRMED,
};
/* From, per workload, the culprit (B) against its parent (A), and when revert is not NULL the
 * culprit with the change reverted (B) against the culprit (A): CONFIRMED when every workload
 * gives "slower" and every revert "faster", else UNCONFIRMED. */
enum bisect_check bisect_check_decide(const enum st_verdict *culprit_parent, const enum st_verdict *revert,
				      size_t nw);

/* One word each, for JSON and text. */
const char *bisect_call_word(enum bisect_call c);
const char *bisect_why_word(enum bisect_why w);
const char *bisect_state_word(enum bisect_state s);

#endif
