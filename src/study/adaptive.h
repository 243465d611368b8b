/* adaptive.h - adaptive campaigns: boot a block, look, and stop as soon as the rule says so. */
#ifndef SYSAB_STUDY_ADAPTIVE_H
#define SYSAB_STUDY_ADAPTIVE_H

#include "campaign/campaign.h"
#include "stats/stats.h"
#include "store/store.h"
#include "study/mde.h"

/*
 * An adaptive campaign (`campaign new --until decided`, docs/CAMPAIGNS.md "Adaptive
 * campaigns") is a campaign scheduled for its cap (--max-boots blocks) whose driver asks a
 * rule after every block whether to boot the next one. The rule is a record, so other
 * designs (bisect's steps) bring their own; the driver only knows "go on" and "end after
 * block K" (campaign_env.after_block). Every look is stored (store_adaptive_look_put, one
 * row per look number), so a driver that comes back after a crash to the same point takes
 * the same look again, which is not counted twice.
 *
 * The API for other designs:
 *   study_adaptive_create()  a campaign from a spec, its cap and settings (nothing written on error)
 *   study_adaptive_step()    start or resume it under a rule; returns after a block (qemu, with
 *                            pause) or when it stopped; call again to go on
 *   study_adaptive_state()   its settings, looks so far and why it stopped
 */

/* Why an adaptive campaign stops, or that it goes on; the words are what the database holds. */
enum study_stop { STUDY_GO_ON, STUDY_DECIDED, STUDY_CAP, STUDY_BUDGET, STUDY_NSTOPS };
/* "go_on", "decided", "cap", "budget". */
const char *study_stop_word(enum study_stop s);

/* A row the rule judged at a look: its workload, copies and verdict. */
struct study_row {
	char *workload;
	int copies;
	enum st_verdict verdict;
};

/* What a rule decided after a block: stop or not, at which look, over which rows. */
struct study_decision {
	enum study_stop stop;
	int blocks;               /* blocks complete */
	int k;                    /* the look's number (blocks - 1; 0: no look yet) */
	struct study_row *rows;
	size_t nrows;
	char *verdicts;           /* rows as JSON text {"WORKLOAD": "VERDICT"} (stored with the look) */
};
void study_decision_free(struct study_decision *d);

/* A stop rule: given the campaign's env (its store, and the database's path for a reading
 * connection of its own) and campaign c (its adaptive settings a) after `blocks` blocks,
 * elapsed_s seconds of wall time after its first boot, fill *out (free with
 * study_decision_free). Returns 0, or -1 with e set. */
struct study_rule {
	const char *name;
	int (*decide)(const struct study_rule *r, const struct campaign_env *env, const struct campaign *c,
		      const struct store_adaptive *a, int blocks, double elapsed_s, struct study_decision *out,
		      struct err *e);
	void *arg; /* the rule's own (bisect's midpoint and sides); NULL for decided */
};

/* --until decided: B against A (the two configurations, in the order given) for every chosen
 * workload (the run's -w patterns, else every workload it runs), as look K = blocks - 1 of the
 * group-sequential design with at most a->max_boots boots and margin a->target; stop when
 * every row is faster, slower or equivalent. */
extern const struct study_rule study_rule_decided;

/* The decided rule's stop given the rows' verdicts v[0..n-1] (n = 0: nothing judged), the
 * blocks complete, the cap and the budget (0: none): decided when n > 0 and every verdict is
 * faster, slower or equivalent; else cap when blocks >= max_boots; else budget when
 * budget_s > 0 and elapsed_s >= budget_s; else go on. Pure. */
enum study_stop study_decided_stop(const enum st_verdict *v, size_t n, int blocks, int max_boots, double elapsed_s,
				   double budget_s);

/* The adaptive settings of `campaign new`. */
struct study_adaptive_spec {
	const char *until; /* "decided" */
	double target;     /* the margin, as a fraction (plan's default: 0.01) */
	int max_boots;     /* the cap: boots per configuration (>= 2) */
	double budget_s;   /* wall time, 0: none */
};

/* Check a (the option names in errors) for a campaign of nconfigs configurations and sp's
 * boots as given (boots_given): 0, or -1 with e naming the option and what to give. */
int study_adaptive_check(const struct study_adaptive_spec *a, size_t nconfigs, bool boots_given, struct err *e);

/* Create campaign sp (its boots set to a->max_boots, the cap) with the adaptive settings a.
 * Returns 0, or -1 with e set and nothing stored. */
int study_adaptive_create(struct store *st, struct campaign_spec *sp, const struct study_adaptive_spec *a,
			  struct err *e);

/* Start (resume false) or resume campaign name under env, with rule (NULL: decided) deciding
 * after each block when the campaign is adaptive (a plain campaign runs as campaign_start and
 * campaign_resume run it). With pause, the qemu backend returns after each block (resume goes
 * on). *last (not NULL) gets the last decision taken in this call (stop STUDY_GO_ON and k 0
 * when none); free it with study_decision_free. Returns as campaign_start/_resume do. */
int study_adaptive_step(const struct campaign_env *env, const char *name, bool resume, const struct study_rule *rule,
			bool pause, struct study_decision *last, struct err *e);

/* The MDE adaptive campaign name reached with the blocks of decision d (the pilot: the runs of
 * its first configuration, A) into *md (free with study_mde_free).
 * Returns 0, or -1 with e set. */
int study_adaptive_reached(struct store *st, const char *name, const struct study_decision *d, struct study_mde *md,
			   struct err *e);

/* What an adaptive campaign has done: its settings and looks (a.until NULL: not adaptive). */
struct study_adaptive_state {
	struct store_adaptive a;
	struct store_adaptive_look *looks;
	size_t nlooks;
};
/* Read campaign id's state into *s (free with study_adaptive_state_free): 0, or -1 with e set. */
int study_adaptive_state(struct store *st, int64_t id, struct study_adaptive_state *s, struct err *e);
void study_adaptive_state_free(struct study_adaptive_state *s);

#endif
