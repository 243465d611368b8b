/* job.h - one call per command: select the runs, build the groups or cells, return the finished result. */
#ifndef SYSAB_JOB_H
#define SYSAB_JOB_H

#include "analysis/analysis.h"
#include "analysis/counters.h"
#include "analysis/mde.h"
#include "analysis/select.h"
#include "store/store.h"

/*
 * The CLI opens the database and hands it to one of the *_build functions below,
 * which select the runs (analysis/select.h, one selector language for every
 * command), load their samples, build the groups or factorial cells and run
 * the analysis. The job then holds everything a renderer needs; *_free
 * releases it and closes the database. Nothing here prints.
 */

/* The database and its runs, oldest first, with labels (environment: an_db_env). */
struct an_db {
	struct store *st;
	struct store_run_info *runs;
	size_t n;
	bool samples; /* groups load their raw samples (for the page's strip plots), not the
	                 runs' stored summaries; set by the *_build functions */
	int sums_state;         /* 0: not read yet, 1: sums holds the current summaries (of the wanted
	                           runs), -1: not current */
	struct store_sums sums; /* read once, at the first group */
	int64_t *want;          /* the runs whose summaries to read (an_db_want); NULL: every run's */
	size_t nwant;
	const int64_t *exclude; /* --fresh: runs no group may hold (sorted; borrowed), and how many */
	size_t nexclude;        /* of them a selector picked (excluded) */
	size_t excluded;
};

/* Read the runs of st into *d; d owns st from here on, also on error (an_db_close closes it).
 * Returns 0 or -1 with e set. */
int an_db_open(struct store *st, struct an_db *d, struct err *e);
void an_db_close(struct an_db *d);
/* Read only the summaries of runs[idx[0..n-1]] (before the first group is loaded): the
 * groups and cells to come hold no other run. */
void an_db_want(struct an_db *d, const size_t *idx, size_t n);
/* Fill the runs' environment: every key (key NULL), or only key. Returns 0 or -1 with e set. */
int an_db_env(struct an_db *d, const char *key, struct err *e);

/* One group: the runs a selector picked and their samples, or, unless an_db.samples, their
 * stored summaries when those are current (store_sums_load, store_set_of_sums): the same results from
 * one row per (run, workload, copies). SYSAB_TEST_SAMPLES=1 in the environment always
 * loads the samples, so tests can hold both paths against each other. */
struct an_group {
	struct selector sel;
	size_t *idx, n;                    /* indexes into an_db.runs */
	int64_t *ids;
	const struct store_run_info **runs; /* point into an_db.runs */
	struct store_set set;
	struct an_group_info info;
};

/* Select the usable runs matching text (named name in errors, e.g. "A"), and load their
 * samples. Returns 0 or -1 with e set; free g with an_group_free either way. */
int an_group_select(struct an_db *d, const char *text, const char *name, struct an_group *g, struct err *e);
/* The group of the runs at idx[0..n-1] (idx taken), named "cell", with their samples.
 * Returns 0 or -1 with e set; free g with an_group_free either way. */
int an_group_of(struct an_db *d, size_t *idx, size_t n, struct an_group *g, struct err *e);
void an_group_free(struct an_group *g);
/* The rule that keeps origins apart: a group's runs all come from one source (sysab, csv,
 * unixbench) on one machine. Returns 0, or -1 with e saying which origins the group (named
 * what in the error) would pool, with their run counts and the terms that pick each.
 * an_group_select applies it to every group; the design to every cell. */
int an_group_one_origin(const struct an_group *g, const char *what, struct err *e);
/* The number of distinct boots among runs[0..n-1]. */
size_t an_count_boots(const struct store_run_info *const *runs, size_t n);
/* The rule of --unit run: runs are the unit only within boots, so every group g[0..n-1] (named
 * names[i] in the error) must have run on the same boots; else a comparison of runs would
 * compare configuration plus boot. Returns 0, or -1 with e naming a boot that one group ran on
 * and another did not, and what to do. */
int an_groups_share_boots(const struct an_group *g, const char *const *names, size_t n, struct err *e);

/* ---------------------------------------------------------------- campaign looks */

/* A look at a boot campaign (docs/CAMPAIGNS.md, "Campaigns and sequential verdicts"). */
struct an_look {
	int64_t campaign; /* its id; 0: no look to count */
	size_t k;         /* this look's number */
	char *note;       /* for the user (new string) or NULL */
};

/* Selectors sels[0..n-1] that name one boot campaign (campaign:NAME) make the analysis a
 * look at it. Unless co already has --look/--max-boots: a campaign that is not done is
 * analyzed as look K = looks + 1 of a group-sequential design with its --boots per
 * configuration (co->look, co->max_boots set; l->campaign set for an_campaign_look_count);
 * a done campaign looked at before is its final look (K = looks + 1, not counted); a done
 * campaign never looked at is a single look (co left alone). Writes nothing. */
void an_campaign_look(struct store *st, const char *const *sels, size_t n, struct st_compare_opts *co,
		      struct an_look *l);
/* Count the look in the store, once the analysis is done (looks only grows). A read-only
 * database adds that to l->note. Returns 0, or -1 with e set. Frees nothing. */
int an_campaign_look_count(struct store *st, struct an_look *l, struct err *e);
/* The factors of an analysis given none: when sels[0..n-1] name one boot campaign, the label
 * keys that take two or more values among its configurations, sorted, appended to factors,
 * with *note saying so (new string). Returns 0, or -1 with e set (no single campaign named,
 * or its configurations differ in no label; *note NULL). */
int an_campaign_factors(struct store *st, const char *const *sels, size_t n, struct strv *factors, char **note,
			struct err *e);

/* ---------------------------------------------------------------- self-checks */

/* Read the failed self-checks of runs ids[0..n-1] and withhold the verdicts of c's rows (c
 * not NULL) or a's (a not NULL) that they concern, unless allow; sets[0..ns-1] are the
 * groups' or cells' sets (for the members of composite rows). Returns 0 or -1 with e set. */
int an_checks_apply(struct store *st, const int64_t *ids, size_t n, struct an_compare *c, struct an_analyze *a,
		    const struct store_set *sets, size_t ns, bool allow, struct err *e);

/* ---------------------------------------------------------------- repeated looks */

/* What the command asks of its look (docs/METHOD.md, "Repeated looks"): consult and record
 * it (on), and --fresh (a new question over the runs no earlier look of it judged). */
struct an_look_req {
	bool on, fresh;
};
/* The question's key and its earlier looks, while a job decides its look. */
struct an_look_state {
	char *key;
	struct store_look *prior;
	size_t nprior;
};
/* The key of compare's question: the two selectors' terms sorted, the pair in sorted order
 * (*swapped: B's terms sort first), the replication unit and the -w patterns. New string. */
char *an_look_key_compare(const char *sa, const char *sb, const struct strv *patterns, enum st_level unit,
			  bool *swapped);
/* The key of analyze's question: the filter's terms, the factors, the --ref levels, the
 * unit and the -w patterns, each sorted. New string. */
char *an_look_key_analyze(const struct strv *filter, const struct strv *factors, const struct kvlist *refs,
			  const struct strv *patterns, enum st_level unit);
/* Read the looks of key into ls (free with an_look_state_free either way). Returns 0 or -1. */
int an_look_begin(struct store *st, const char *key, struct an_look_state *ls, struct err *e);
/* The number of the key's current question (0: never looked at). */
int an_look_question(const struct an_look_state *ls);
/* The runs the question's earlier questions judged (all: and its current question too),
 * sorted, as a new array. Returns 0 or -1 with e set. */
int an_look_seen(struct store *st, const struct an_look_state *ls, bool all, int64_t **ids, size_t *n,
		 struct err *e);
/* Drop from idx[0..n-1] (indexes into runs) the runs in seen[0..nseen-1] (sorted), keeping
 * the order; returns how many were dropped. */
size_t an_look_drop(const int64_t *seen, size_t nseen, const struct store_run_info *runs, size_t *idx, size_t n);
/* an_repeat_decide over ls's looks; sets r->on. */
void an_look_decide(const struct an_look_state *ls, const char *fp, size_t declared, bool fresh, struct an_repeat *r);
/* The options to judge look r with, into co: the recorded design of a declared look read
 * again (also when the options are left out), and in a declared design the look number sysab
 * counted when --look gave a lower one (r->look_given then holds it). */
void an_look_options(struct an_repeat *r, struct st_compare_opts *co);
/* Select a look's runs with seen[0..nseen-1] (sorted; NULL: none) left out: the runs of each of
 * its groups (new arrays, in the question's group order) into ids[0..] and n[0..], and how many
 * runs were left out into *excluded. Returns 0 or -1 with e set. */
typedef int an_look_select_fn(void *ctx, const int64_t *seen, size_t nseen, int64_t **ids, size_t *n,
			      size_t *excluded, struct err *e);
/* Decide the look of the question ls (begun) whose ngroups (1 or 2) groups select selects: with
 * --fresh, first without the runs of earlier questions (which finds a re-read of the current
 * question's look when --fresh started it), else without every run the question's looks judged.
 * The look goes into r and its fingerprint into fp, the runs left out stay in *seen (free), and
 * co becomes the options to judge with (an_look_options). Returns 0 or -1 with e set. */
int an_look_pick(struct store *st, const struct an_look_state *ls, const struct an_look_req *lr,
		 an_look_select_fn *select, void *ctx, size_t ngroups, struct st_compare_opts *co, int64_t **seen,
		 struct an_repeat *r, char fp[17], struct err *e);
/* Record the look r (unless it repeats an earlier one, or the database is read-only or its
 * disk full: then r->readonly, and r->disk_full for a full disk) with its design, verdicts
 * (JSON texts) and runs, in one transaction with a fresh read of the key's looks. When
 * another process recorded a look of the key since ls was read, ls takes the looks now
 * recorded and r is decided again: 1 when r is now withheld or the same look as one recorded
 * (the caller withholds its rows, as r says, and records again), -1 with e set when the
 * verdicts were judged at a level r no longer has (run again). Returns 0, 1 or -1. */
int an_look_record(struct store *st, struct an_look_state *ls, struct an_repeat *r, const char *fp,
		   const char *design, const char *verdicts, const int64_t *ids, size_t nids, struct err *e);
/* How many times a job records its look again (an_look_record's 1) before an_look_busy. */
#define AN_LOOK_AGAIN 8
/* The error when other processes kept recording looks at the question: -1 with e set. */
int an_look_busy(struct err *e);
void an_look_state_free(struct an_look_state *ls);
/* {"boots":[..],"runs":[..]} of n groups, a new string (free). */
char *an_look_json_design(const size_t *boots, const size_t *runs, size_t n);
/* Set "WORKLOAD/COPIES[ EFFECT]": verdict in the JSON object obj (a json_t *). */
void an_look_json_verdict(void *obj, const char *workload, int copies, const char *effect, enum st_verdict v);

/* ---------------------------------------------------------------- compare */

/* B against A, or one group's estimates (ng == 1: b is empty), with their environment. */
struct an_compare_job {
	struct an_db d;
	struct an_group g[2];
	size_t ng;
	struct an_compare c;          /* with B: its counter rows too (an_compare_counters) */
	struct an_group_info info[2]; /* g[i].info */
	struct an_envtab env;         /* filled when asked for */
};

/* Compare the runs of selector sb against those of sa (sb NULL: the estimates of sa
 * alone). patterns (may be empty) filter rows; with_env (the page) builds the environment
 * table and the strip plots, which need the samples. A row whose runs failed a self-check
 * gets no verdict unless allow_checks (an_compare_checks). With lr->on and two groups the
 * comparison is a look at its question (an_compare.look, docs/METHOD.md, "Repeated looks"):
 * recorded, repeated for the runs of an earlier look, withheld as a later undeclared look;
 * lr NULL: no look.
 * Takes st. Returns 0 or -1 with e set; free j with an_compare_job_free either way. */
int an_compare_job_build(struct store *st, const char *sa, const char *sb, const struct strv *patterns,
			 const struct st_compare_opts *co, bool with_env, bool allow_checks, const struct an_look_req *lr,
			 struct an_compare_job *j, struct err *e);
void an_compare_job_free(struct an_compare_job *j);

/* ---------------------------------------------------------------- analyze */

/* The design of a factorial analysis: the factors and the levels found among the
 * selected runs (reference level first), and the cells they form. */
struct an_design {
	size_t nf;
	struct strv *levels;      /* [nf] */
	struct st_factor *f;      /* [nf], names borrowed from the caller's factors */
	size_t ncells;
	size_t *cell_level;       /* [ncells * nf]: cell c's level of factor k at c*nf+k */
	size_t *run_cell;         /* [kept]: the cell of each kept run */
};

/* Levels of each factor among runs idx[0..n-1] (those lacking a factor's label first
 * dropped from idx: *kept is how many remain), --ref applied, and the cells in order of
 * first appearance. Returns 0, or -1 with e naming the factor or --ref at fault; free
 * with an_design_free either way. */
int an_design_build(const struct store_run_info *runs, size_t *idx, size_t n, const struct strv *factors,
		    const struct kvlist *refs, struct an_design *d, size_t *kept, struct err *e);
void an_design_free(struct an_design *d);

struct an_analyze_job {
	struct an_db d;
	struct selector sel;
	size_t *idx, nidx, kept;  /* the selected runs; kept: those carrying every factor */
	struct an_design design;
	struct an_group *cells;   /* [design.ncells] */
	struct store_set *sets;   /* [design.ncells], copies of cells[c].set */
	struct an_analyze an;
	struct an_group_info info;
	struct an_envtab env;     /* one column per cell, filled when asked for */
	struct kvlist noise_levels; /* noise.level of the runs → how many runs had it */
};

/* Select the runs of filter (the words joined by spaces), split them into cells by
 * factors (with reference levels refs) and analyze; failed self-checks withhold verdicts
 * unless allow_checks, and emulated runs are named (an_analyze.emu); lr as for compare
 * (an_analyze.look). Takes st. Returns 0,
 * or -1 with e set; free j with an_analyze_job_free either way. */
int an_analyze_job_build(struct store *st, const struct strv *filter, const struct strv *factors,
			 const struct kvlist *refs, const struct strv *patterns, const struct st_compare_opts *co,
			 bool with_env, bool allow_checks, const struct an_look_req *lr, struct an_analyze_job *j,
			 struct err *e);
void an_analyze_job_free(struct an_analyze_job *j);

/* ---------------------------------------------------------------- plan */

struct an_plan_job {
	struct an_db d;
	struct an_group g[2];
	size_t ng;
	struct an_plan p;
	struct an_group_info info[2];
	bool factorial;              /* plan --factors: the cells of fa */
	struct an_analyze_job fa;
};

/* Plan from one configuration (nsel 0 or 1: the selector, none = every run) or from two
 * (A and B). Takes st. Returns 0, or -1 with e set; free j with an_plan_job_free either way. */
int an_plan_job_build(struct store *st, const char *const *sel, size_t nsel, const struct strv *patterns,
		      const struct st_compare_opts *co, const struct st_plan_opts *po, struct an_plan_job *j,
		      struct err *e);
void an_plan_job_free(struct an_plan_job *j);
/* One configuration's plan j (selector sel, NULL: every run): the MDE of the design it planned
 * (j->p.boots >= 2) for its rows, from the same pilot runs, at 1 - alpha and AN_PLAN_MDE_POWER,
 * into *out (free with an_mde_free). Returns 1 with *out filled, 0 when the plan has no such
 * design (two groups and factorials carry theirs per row: an_prow.mde; fewer than 2 boots),
 * or -1 with e set. */
int an_plan_job_mde(const struct an_plan_job *j, const char *sel, double alpha, struct an_mde *out, struct err *e);
/* Plan --factors: the runs of filter split into the cells of factors (as analyze splits
 * them); every factor needs two levels and every cell runs. Takes st. Returns 0, or -1
 * with e set; free with an_plan_job_free either way. */
int an_plan_factors_job_build(struct store *st, const struct strv *filter, const struct strv *factors,
			      const struct strv *patterns, const struct st_compare_opts *co,
			      const struct st_plan_opts *po, struct an_plan_job *j, struct err *e);

/* ---------------------------------------------------------------- allocation (run --allocate) */

struct an_alloc_job {
	struct an_db d;
	struct an_group g; /* FROM's runs */
	struct an_alloc al;
	struct an_alloc_record rec; /* the record of al, from and rows (after a build that returned 0) */
};

/* Allocate rows[0..n-1] (an_allocate) from the runs that selector from picks. Borrows st (the
 * run to come writes to it): an_alloc_job_free leaves it open. Returns 0, or -1 with e set
 * (a selector that picks no run says so); free j with an_alloc_job_free either way. */
int an_alloc_job_build(struct store *st, const char *from, struct an_alloc_row *rows, size_t n,
		       const struct st_alloc_opts *o, struct an_alloc_job *j, struct err *e);
void an_alloc_job_free(struct an_alloc_job *j);

#endif
