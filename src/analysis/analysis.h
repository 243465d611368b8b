/* analysis.h - compare, analyze and plan over loaded sample sets: estimates, verdicts, plans. */
#ifndef SYSAB_ANALYSIS_H
#define SYSAB_ANALYSIS_H

#include "stats/stats.h"
#include "store/store.h"

/*
 * The step between the store and the reports. Input: store_set (one per group
 * or cell, as store_load_set returns it) and the groups' runs; output: plain
 * structs for report/. Nothing here prints or reads the database.
 *
 * Rows are (workload, copies) pairs present in any group, filtered by -w
 * patterns, plus the composite rows of analysis/composite.h (sysab-index,
 * unixbench-index): per run the log of the composite value, then treated as
 * one workload with one value per run. A composite row exists only when every
 * run that holds one of its members holds all of them (composite.h).
 */

/* One group, or the filter of an analysis, as the user selected it: for headers. */
struct an_group_info {
	const char *name;     /* "A", "B", "runs", "cell" */
	const char *selector; /* as given */
	size_t nruns, nboots;
};

/* Warnings of one group for one row, counted by kind with the largest value. */
struct an_diag {
	size_t count[ST_WARN_AUTOCORR + 1];
	double worst[ST_WARN_AUTOCORR + 1];
	double limit[ST_WARN_AUTOCORR + 1]; /* the threshold it was held to (e.g. the CV limit) */
};

/* A group estimate in natural units: ops/s of the mean and its (1-alpha) interval,
 * and the interval's relative half-width. All NAN when there is no estimate. */
/* No interval is shown from fewer degrees of freedom than this: with 1-3 df the t
 * quantile (12.7, 4.3, 3.2) makes intervals that mean little, and a variance from so few
 * batches is itself too rough to trust (issue 17 item 6). The spread (CV) is shown instead. */
#define AN_MIN_INTERVAL_DF ST_MIN_INTERVAL_DF

struct an_value {
	double ops, lo, hi, hw; /* hw: hi / ops - 1; lo, hi, hw NAN when there is no interval */
	double df;              /* the estimate's df (NAN without data) */
	bool low_df;            /* no interval because df < AN_MIN_INTERVAL_DF */
};
/* A change of B against A (an effect, a later segment against an earlier one) as every
 * command and format shows it (docs/METHOD.md, "Signs and words"): the percent change of
 * the number the row shows. A rate row (ops/s, an index) shows throughput, so + is faster;
 * a time/op row shows time per op, so + is slower. lo, hi: its (1-alpha) interval. */
struct an_change {
	double pct, lo, hi;
	bool time; /* a time/op row: the change is of time per op (+ = slower) */
	bool within; /* no replication at the declared unit (ST_SCOPE_WITHIN_BOOT or _RUN): no verdict,
	              * so lo and hi are NAN and renderers print "–" for the interval and the q */
};
/* Which kinds of change a table holds, for the legend that says how to read its signs:
 * AN_CHG_RATE (some rate row), AN_CHG_TIME (some time/op row), or both. */
enum { AN_CHG_RATE = 1, AN_CHG_TIME = 2 };
void an_value_of(const struct st_estimate *est, double alpha, struct an_value *out);

/* The data behind a strip plot of one group for one row: per run its boot (index
 * within the group, in boot order), the geometric mean of its samples and the
 * samples themselves, in ops/s (for the composite index: one index value per run). */
struct an_run_pts {
	size_t boot;
	double mean;
	const double *v; /* points into an_points.buf */
	size_t n;
};
struct an_points {
	struct an_run_pts *runs;
	size_t nruns, nboots;
	double *buf;
	double min, max; /* over all samples and run means; NAN when empty */
};
void an_points_free(struct an_points *p);

/* A stored run summary as stats takes it (stats_run_summary's fields the estimators and
 * diagnostics use; the rest NAN). Returns false when its round map or diagnostics tally
 * is not one stats wrote: then the run's samples must be used. */
bool an_run_summary_of(const struct store_run_sum *x, struct st_run_summary *out);
/* True when every stored summary of all converts. */
bool an_sums_ok(const struct store_sums *all);

/* The environment of several groups side by side: one row per key, with the
 * value the group's runs have ("-" when none records it; "mixed: a, b" when its
 * runs differ, with "-" among the values when some lack it) and whether groups
 * differ. Keys that always differ (boot.id, load.*) are left out; machine, source,
 * cpu and kernel come from the run records, then come the labels as label.KEY, then
 * the environment keys, sorted. */
struct an_envrow {
	char *key;
	char **values; /* [ngroups] */
	bool differs;
};
struct an_envtab {
	struct an_envrow *rows;
	size_t nrows, ngroups;
};
/* runs[g][0..n[g]-1]: the runs of group g (env filled). Free with an_envtab_free. */
void an_envtab_build(const struct store_run_info *const *const *runs, const size_t *n, size_t ngroups,
		     struct an_envtab *out);
void an_envtab_free(struct an_envtab *t);
/* The change of comparison c (d = ln B - ln A with its interval lo, hi) in the display
 * direction of a row (latency: a time/op row). The one place a sign is decided. Without
 * replication at c's unit (no verdict) the interval is not carried: out->within is set. */
void an_change_of(const struct st_comparison *c, int latency, struct an_change *out);
/* Has c no replication at its unit (stats_interval_scope ST_SCOPE_WITHIN_*), so no verdict,
 * no q, and an interval of the measured boots' runs that is not shown? */
bool an_interval_within(const struct st_comparison *c);
/* The same from a difference of logs d and its interval [lo, hi] (NAN: none). */
void an_change_log(double d, double lo, double hi, int latency, struct an_change *out);

/* The self-checks of a row's runs that failed (docs/METHOD.md, "Self-checks withhold the
 * verdict"): a run whose workload measured something other than its name says cannot
 * back a verdict. */
struct an_failed_check {
	char *check;    /* the name of the first failed check, as stored; NULL: every check held */
	char *workload; /* the workload it belongs to (a composite row: the member that failed) */
	size_t runs;    /* runs of the row's groups with a failed check of the row's workloads */
	int64_t first_run; /* the lowest of them */
	bool withheld;  /* the verdict was withheld for it: verdict ST_WITHHELD (not with
	                   --allow-failed-checks, or when there was no verdict to withhold) */
};

/* Runs measured under an emulator (docs/METHOD.md, "Emulated runs"): their times are the
 * emulator's costs, not the kernel's or the machine's. From the environment the runs
 * recorded: `emulated` yes (qemu-user), `campaign.accel` tcg, `hypervisor` qemu-tcg. */
struct an_emulation {
	bool any;       /* some run of the group was emulated */
	char *how;      /* the evidence, "; "-joined: "qemu TCG: campaign.accel tcg", ...; NULL without */
	int64_t first;  /* the lowest run id with that evidence */
	bool cpu;       /* an emulated CPU (TCG, qemu-user); else only the NUMA nodes were (qemu -numa) */
};
/* The emulation of the runs whose environment env holds (store_env_values). Free with
 * an_emulation_free. */
void an_emulation_of(const struct store_env *env, struct an_emulation *out);
void an_emulation_free(struct an_emulation *x);
/* How one run's environment says its CPU was emulated ("qemu-user: emulated yes"; the same
 * rules as an_emulation_of), or NULL when it was not. The caller frees it. */
char *an_emulated_env(const struct kvlist *env);
void an_failed_check_free(struct an_failed_check *x);

/* A look at a question (docs/METHOD.md, "Repeated looks"): compare and analyze record each
 * look in the database; a later look of the same question with other runs, in no declared
 * sequential design, gets no verdict (the first look spent all of alpha). */
struct an_repeat {
	bool on;            /* looks were consulted (compare, analyze, report) */
	int question;       /* the question's number for its key: 1, then one more per --fresh */
	int k;              /* this look's number within the question */
	bool same;          /* the runs of an earlier look: its answer again, no new look */
	bool withheld;      /* a later look in no declared design: verdicts withheld */
	bool first_undeclared; /* the question's first look declared no sequential design */
	int max_boots;      /* the declared design's N (from the options or the look it repeats) */
	int first_max_boots; /* the N the question's first look declared (0: none) */
	int look_given;     /* --look K lower than the looks recorded: that K (judged as k instead) */
	bool fresh;         /* --fresh: a new question over the runs no earlier look judged */
	size_t excluded;    /* --fresh: runs left out because an earlier look judged them */
	bool recorded;      /* stored now */
	bool readonly;      /* not stored: the database is read-only (or its disk is full) */
	bool disk_full;     /* not stored: the disk is full (readonly is set too) */
	size_t rows;        /* rows whose verdict it withheld */
	char *next_step;    /* a withheld look after an undeclared look 1: the step that fits the
	                       comparison's pairing (new string, freed with the comparison; NULL: the
	                       words of a comparison across boots) */
	bool same_boot;     /* ... a same-boot comparison (paired runs, --unit run): never add boots */
};

/* An earlier look of the question, as an_repeat_decide takes it. */
struct an_look_prior {
	const char *fingerprint;
	int question, k, max_boots;
	bool withheld;
};
/* Decide what a look with runs fingerprint fp is, given the question's earlier looks
 * p[0..n-1] (oldest first), the declared design's maximum boots (0: none) and --fresh:
 * fills r's question, k, same, withheld, first_undeclared, max_boots and first_max_boots (the rest is left
 * alone). The rule: the first look of a question is a full-alpha look (or look 1 of a design
 * declared with it); the runs of an earlier look repeat its answer; any other look is a
 * later look, withheld unless the question's first look declared a design and this one
 * declares the same maximum (which also lifts a withheld look of the same runs); --fresh
 * starts the next question. Pure: the grid simulates users through it. */
void an_repeat_decide(const struct an_look_prior *p, size_t n, const char *fp, size_t declared, bool fresh,
		      struct an_repeat *r);
/* FNV-1a (64 bits, hex into out[17]) of the groups' run ids: ids[g][0..n[g]-1], sorted first. */
void an_repeat_fingerprint(int64_t *const *ids, const size_t *n, size_t ngroups, char out[17]);

/* A compare row: a timing row of a (workload, copies), or a counter row (event set) of one
 * event of it. A counter row is estimated on the linear scale (per sample y = count / op,
 * stats_estimate_groups_scale) with the same nested estimator, levels and --unit rule:
 * va/vb hold the mean count per op (ops), its interval (lo, hi) and the absolute half-width
 * (hw); chg holds B - A in counts per op and its interval (pct, lo, hi); rel is B/A - 1
 * (a point figure, NAN when A's mean is not > 0). c.verdict ST_FASTER means more per op in
 * B, ST_SLOWER fewer; never equivalent (no margin); q comes from the counter rows' own
 * Benjamini-Hochberg family. No diagnostics, points or more_boots. */
struct an_row {
	char *workload;
	char *event; /* counter rows: the event; NULL for timing rows */
	double rel;  /* counter rows: B/A - 1 */
	double constant; /* counter rows: the count per op when every sample of both groups has it, else NAN */
	int copies;
	char *unit;
	int latency;
	size_t ncomposite; /* > 0: the composite index of this many workloads */
	char *composite;   /* composite rows: its members and scale in words, else NULL */
	bool have_a, have_b;
	struct st_estimate a, b;
	struct an_value va, vb;
	struct st_comparison c;   /* valid when have_a && have_b */
	struct an_change chg;
	bool by_round;            /* c is B - A by round over paired runs (an_compare.paired_rounds) */
	size_t more_boots;        /* inconclusive: boots per group to add before the next look, or ST_MORE_* */
	enum st_verdict settles_as;
	struct an_diag diag_a, diag_b;
	struct an_points pa, pb;  /* strip-plot data of each group */
	struct an_failed_check failed; /* timing rows: the self-checks of its runs that failed */
	bool look_withheld;            /* its verdict was withheld as a later look (an_repeat) */
	struct st_adjust adj;          /* --adjust host: what the adjustment did (status ST_ADJ_OFF without it) */
};

/* How much a difference in an environment key can move the workloads (confound.c's table). */
enum an_impact { AN_IMPACT_HIGH, AN_IMPACT_MEDIUM, AN_IMPACT_LOW };
/* What explains a difference as the change under test's own doing. */
enum an_explained {
	AN_EXPLAINED_NOT,
	AN_EXPLAINED_LABEL,    /* a label that differs between the groups names it (mitigations=off) */
	AN_EXPLAINED_CAMPAIGN, /* a word a boot campaign's configuration put on the command line */
	AN_EXPLAINED_CMDLINE,  /* a word that differs on the kernel command line, itself listed */
};
struct an_confounder {
	char *key;
	char *a, *b; /* the values in each group, ", "-joined ("absent" for a missing key) */
	enum an_impact impact;
	enum an_explained explained;
	char *explained_by; /* the label pair or command-line word that explains it; NULL when not */
};
/* The impact class of key (unlisted keys: medium). */
enum an_impact an_env_impact(const char *key);

/* What boot campaigns declared as the configuration on the kernel command line, which the
 * confounder check does not count (cmdline.c): each token of a configuration's --append, and
 * the image a boot loader names (BOOT_IMAGE=, initrd=) when configurations give --kernel or
 * --entry. The campaign's per-slot marker (sysab.boot=NAME:SLOT) is never counted either. */
struct an_cmdline_declared {
	struct strv tokens;
	bool image;
};
/* Add what the campaigns of runs[0..n-1] declared to d (runs of no campaign add nothing).
 * Returns 0 or -1 with e set. */
int an_cmdline_declared_add(struct store *st, const struct store_run_info *const *runs, size_t n,
			    struct an_cmdline_declared *d, struct err *e);
void an_cmdline_declared_free(struct an_cmdline_declared *d);
/* cmdline without the marker and the tokens d declared, the rest in order, single-spaced
 * (new string). */
char *an_cmdline_strip(const char *cmdline, const struct an_cmdline_declared *d);
/* The words of a kernel command line (blank-separated, a double-quoted part kept in its word)
 * appended to out. */
void an_cmdline_words(const char *cmdline, struct strv *out);
/* The values of env's kernel.cmdline key through an_cmdline_strip, equal ones merged. */
void an_cmdline_env_strip(struct store_env *env, const struct an_cmdline_declared *d);

/* How compare pairs B with A, decided once from the two groups' runs and the options
 * (an_pairing_decide) and dispatched through one table of rules (analysis.c, pair_rules[]). */
enum an_pairing {
	AN_PAIR_GROUPS,   /* independent groups: stats_compare of the two nested estimates */
	AN_PAIR_BY_BOOT,  /* A and B ran on the same boots: B - A inside each boot */
	AN_PAIR_BY_BLOCK, /* the two configurations of a duet campaign: B - A inside each block */
	AN_PAIR_BY_ROUND, /* the arms of paired runs (sysab run --arm): B - A by round inside each run */
};
/* A pairing's rule: what a new design adds is one row of this table, one estimator in stats/
 * and one caveat row (report/verdict.c). */
struct an_pair_rule {
	enum an_pairing pairing;
	const char *name;      /* its word: compare's JSON "pairing" */
	const char *estimator; /* the stats/ function that compares a row */
	unsigned caveat;       /* ST_CAVEAT_* its paired rows carry (0: none) */
	bool raw;              /* it needs the raw samples (a stored summary holds no rounds) */
	bool adjust_host;      /* --adjust host applies */
	const char *no_adjust; /* when it does not: why, and what to do (the error's words) */
};
/* The rule of p (never NULL for a value of the enum). */
const struct an_pair_rule *an_pair_rule(enum an_pairing p);
/* The pairing of a comparison of B (runs_b[0..nb-1]; nb 0: one group) against A: by round when
 * every run of A and of B is one arm of one paired run (an_arm_pairs); with unit ST_LEVEL_BOOT,
 * by block when every run of both belongs to one duet campaign, records its block, the runs of
 * each boot share one block, and at least 2 blocks each hold runs of both groups (and only such
 * blocks); else by boot when at least 2 boots each hold runs of both groups (and only such
 * boots); else as groups. */
enum an_pairing an_pairing_decide(const struct store_run_info *const *runs_a, size_t na,
				  const struct store_run_info *const *runs_b, size_t nb, enum st_level unit);

struct an_compare {
	size_t ngroups;       /* 2: b against a; 1: the estimates of a alone (no b, no comparisons) */
	struct an_row *rows;
	size_t nrows;
	struct an_row *crows; /* counter rows (an_compare_counters), sorted by workload, copies, event */
	size_t ncrows;
	struct an_confounder *conf;
	size_t nconf;
	bool env_missing; /* some runs (imports) record no environment: confounders not checked */
	struct an_emulation emu[2]; /* per group: runs measured under an emulator */
	bool allow_failed_checks;   /* --allow-failed-checks: verdicts kept despite failed self-checks */
	size_t allowed_rows;        /* rows that kept a verdict only by it */
	struct an_repeat look;      /* the look this comparison is (an_repeat.on: consulted) */
	bool paired;                /* A and B ran on the same boots (at least 2): each timing row's c is taken
	                               inside each boot, as analyze takes a within-boot factor */
	size_t paired_rounds;       /* A and B are the arms of this many paired runs (sysab run --arm): each
	                               timing row holding rounds is compared by round (row.by_round) */
	bool duet;                  /* paired by duet block instead (a --duet campaign): caveat duet_paired */
	enum an_pairing pairing;    /* how B was paired with A (an_pairing_decide); paired, paired_rounds and
	                               duet say the same for the renderers */
	unsigned change_kinds;      /* AN_CHG_* of its timing rows */
	struct st_compare_opts o;
};
/* A paired run's two arms in the two groups of a comparison. */
struct an_arm_pair {
	int64_t a, b;     /* the run ids of A's arm and B's */
	const char *boot; /* their boot id (points into the run infos) */
};
/* The paired runs (sysab run --arm: the runs' pair tag, store_run_info.pair) that A and B are the arms
 * of: when every run of A and every run of B is one arm of one paired run whose other arm is on
 * the other side, on the same boot, the pairs into *out (allocated, sorted by boot; free it) and
 * their count; else 0 (*out NULL): A and B are compared as groups. */
size_t an_arm_pairs(const struct store_run_info *const *runs_a, size_t na, const struct store_run_info *const *runs_b,
		    size_t nb, struct an_arm_pair **out);

/* Paired runs that grow (run --arm --until decided, study/grow.c): their most and default cap. */
#define AN_GROW_MAX_RUNS 1000
#define AN_GROW_DEFAULT_RUNS 20

/* Withhold the verdicts of c's timing rows when c->look.withheld (rows without data keep
 * theirs; counter rows are never judged by --fail-on, and go too). */
void an_compare_repeat(struct an_compare *c);

/* What an_compare compares. a, b: the groups' loaded sets (b NULL: the record of one group, its
 * estimates, diagnostics and points, no comparisons; runs_b NULL, nb 0, env_b empty). runs_a,
 * runs_b: the groups' runs (their labels are keys never to count as confounders); env_a, env_b:
 * their environment (store_env_values), for confounders. patterns (may be empty) filter rows;
 * a pattern matching no row is an error. pairing: an_pairing_decide's for these runs (a set
 * loaded from stored summaries when its rule needs raw samples compares as groups). */
struct an_compare_in {
	const struct store_set *a, *b;
	const struct store_run_info *const *runs_a, *const *runs_b;
	size_t na, nb;
	const struct store_env *env_a, *env_b;
	const struct strv *patterns;
	const struct st_compare_opts *o;
	enum an_pairing pairing;
};
/* Compare in->b against in->a for every row, paired as in->pairing's rule says. Returns 0 (free
 * *out with an_compare_free) or -1 with e set (--adjust host with a pairing it does not apply to). */
int an_compare(const struct an_compare_in *in, struct an_compare *out, struct err *e);
void an_compare_free(struct an_compare *c);
/* Mark each of c's confounders that the change under test explains (docs/METHOD.md,
 * "Confounders"): a key whose difference follows from a label that differs between the groups
 * (runs ra, rb), from a word a boot campaign declared (d), or from a word that differs on the
 * groups' kernel command lines (ea, eb: their environments, cmdline stripped as the check sees
 * it), by confound.c's table of words and the keys they move (mitigations=off: vuln.*). The
 * kernel.cmdline key itself is explained when every word that differs is one a differing label
 * names. The list's order (an_compare's: by impact, then key) is kept. */
void an_confounders_explain(struct an_compare *c, const struct store_run_info *const *ra, size_t na,
			    const struct store_run_info *const *rb, size_t nb, const struct store_env *ea,
			    const struct store_env *eb, const struct an_cmdline_declared *d);
/* Withhold the verdict of every timing row of c whose runs have a failed self-check among
 * f[0..nf-1] (the failures of both groups' runs, store_failed_checks): the row's own
 * workload, or for a composite row any of its members (over sets[0..ns-1], the groups'
 * sets). With allow, the verdicts stay and the rows only name the check. */
void an_compare_checks(struct an_compare *c, const struct store_set *sets, size_t ns,
		       const struct store_failed_check *f, size_t nf, bool allow);
/* Add the counter rows of b against a to out (a finished an_compare of the same groups):
 * one per (workload, copies, event) present in both counter sets (store_load_counter_set)
 * whose workload is one of out's rows, and that is not 0 in every sample of both. The
 * rows' q-values are Benjamini-Hochberg over the counter rows alone, so the timing rows'
 * q and verdicts are never changed. Returns 0 or -1 with e set (out then keeps no counter rows). */
int an_compare_counters(const struct store_set *a, const struct store_set *b, struct an_compare *out, struct err *e);

/* ---------------------------------------------------------------- factorial */

struct an_frow {
	char *workload;
	int copies;
	char *unit;
	int latency;
	size_t ncomposite;
	char *composite;          /* as in an_row */
	bool *have;               /* per cell: the cell has data for this row */
	struct st_estimate *est;  /* per cell */
	struct an_value *val;     /* per cell: est in ops/s with its interval (all NAN without data) */
	struct an_points *pts;    /* per cell: strip-plot data */
	struct st_factorial fa;
	struct an_change *chg;    /* per effect of fa: its change in the row's display direction */
	struct an_failed_check failed; /* the self-checks of its runs that failed */
	bool look_withheld;            /* its effects' verdicts were withheld as a later look */
	/* a design with within-boot factors (an_analyze.within): the boots it pairs runs in, and
	 * those lacking some combination of the within-boot levels (boot ids, ascending), which
	 * each effect needing that combination leaves out (st_effect.left_out) */
	size_t nwboots;
	int64_t *incomplete;
	size_t nincomplete;
	struct st_adjust adj;          /* as in an_row */
};

struct an_analyze {
	const struct st_factor *factors; /* borrowed from the caller */
	size_t nfactors;
	size_t ncells;
	const size_t *cell_level; /* borrowed: cell_level[c*nfactors + f] */
	/* bits per factor, decided by the data: within, the factors every boot holds runs at two
	 * or more levels of (node, with `sysab run --nodes all`): their effects are paired inside
	 * boots (stats_factorial_within); mixed, those only some boots hold several levels of
	 * (analysed as between-boot factors, and the output says so) */
	unsigned within, mixed;
	struct an_frow *rows;
	size_t nrows;
	/* the data behind "what would settle it": the most boots any cell has and the
	 * most runs any boot has, over all rows; the need of the cells lacking an interval */
	size_t max_boots, max_runs;
	bool any_interval;   /* some effect of some row has an interval */
	enum st_need need;   /* most common need among cells without an interval */
	/* Effects whose cells all have data but not all an interval (one value per configuration,
	 * as published numbers are) still have a point estimate (their d, in chg): shown, with no
	 * interval, q or verdict, and why_no_interval says why ("1 boot per cell"; "" when no
	 * effect is such). points_only: every effect of every row is such. */
	bool points_only;
	char why_no_interval[64];
	struct an_emulation emu;  /* the analyzed runs measured under an emulator */
	bool allow_failed_checks; /* as in an_compare */
	size_t allowed_rows;
	struct an_repeat look;    /* as in an_compare */
	unsigned change_kinds;    /* AN_CHG_* of its rows */
	struct st_compare_opts o;
};
/* True when ef has a point estimate (its d) but no interval: every cell it needs has data,
 * some has no interval (an_analyze.why_no_interval says why). */
bool an_effect_point_only(const struct st_effect *ef);
/* an_compare_repeat for a factorial analysis: every effect of every row. */
void an_analyze_repeat(struct an_analyze *a);

/* Factorial analysis: cells[c] holds the data of the cell whose levels are
 * cell_level[c*nf .. c*nf+nf-1]. Effects per row via stats_factorial, with
 * Benjamini-Hochberg across rows for each effect. Returns 0 (free with
 * an_analyze_free) or -1 with e set. */
int an_analyze(const struct store_set *cells, size_t ncells, const size_t *cell_level, const struct st_factor *f,
	       size_t nf, const struct strv *patterns, const struct st_compare_opts *o, struct an_analyze *out,
	       struct err *e);
void an_analyze_free(struct an_analyze *a);
/* an_compare_checks for the rows of a factorial analysis: every effect of such a row is withheld. */
void an_analyze_checks(struct an_analyze *a, const struct store_set *sets, size_t ns,
		       const struct store_failed_check *f, size_t nf, bool allow);
/* An effect in words: "pernode: yes vs no" (main effect or level against the reference),
 * "pernode x pie" (interaction), "kernel x node: 3 vs 0" (interaction with a level of a
 * factor of more levels), "kernel at node=3" (simple effect: the main effect's levels at
 * one level of a within-boot factor). Cut to size. */
void an_effect_label(char *buf, size_t size, const struct an_analyze *a, const struct st_effect *ef);
/* Cell c's levels appended to b: "pernode=yes pie=no". */
void an_cell_label(struct sb *b, const struct an_analyze *a, size_t c);

/* ---------------------------------------------------------------- plan */

/* The costs a plan assumes where nothing was measured and no option gave one: seconds per
 * run beyond its samples, and per sample. The one place these defaults live (the help
 * of `sysab plan` prints them). Whole numbers, so the help can spell them. */
#define AN_PLAN_RUN_COST_S 10
#define AN_PLAN_SAMPLE_COST_S 1

/* Measured costs: seconds per sample of each row and per run beyond its samples. */
struct an_costs {
	double run;          /* mean (run duration - its samples' time) per (workload, copies); 0 = unmeasured */
	double round;        /* seconds for one sample of every row */
	bool run_measured, sample_measured;
	/* a boot: the median over the pilot's campaign slots of the slot's time less its runs'
	 * (boot_slots of campaign boot_campaign; "" and 0 when no pilot run came from one) */
	double boot;
	size_t boot_slots;
	char boot_campaign[72];
	bool boot_given;     /* --boot-cost */
};

struct an_prow {
	char *workload;
	int copies;
	size_t ncomposite;
	bool have;
	double cost_sample;     /* seconds per sample used for this row */
	struct st_plan plan;    /* a factorial: for every effect (the interaction needs most) */
	struct st_plan plan_main; /* a factorial: for the main effects alone */
	bool compared;          /* two groups: c is their comparison */
	struct st_comparison c;
	int latency;            /* a time/op row */
	struct an_change chg;   /* c in the row's display direction */
	size_t more_boots;
	enum st_verdict settles_as;
};

struct an_plan {
	struct an_prow *rows;
	size_t nrows;
	struct st_plan_opts po; /* as used (costs filled in) */
	struct an_costs costs;
	bool two_groups;
	size_t ncells;          /* a factorial's cells (plan --factors), else 0 */
	char factors[128];      /* its factors, "pernode x pie" */
	/* the design meeting the target for every feasible row, and its total time */
	size_t boots, runs, samples;
	double total_s;
	size_t infeasible;
	unsigned change_kinds;  /* AN_CHG_* of its rows (two groups: the kinds of their comparisons) */
	/* plan --factors with within-boot factors (an_analyze.within): boots per between-boot
	 * combination (ncells of them), each boot running all nwithin within-boot combinations
	 * with the pilot's runs (per combination) and samples; plan: the interactions (every
	 * paired one meets the target), plan_main: the within-boot effects alone. run_args[g]: the
	 * `sysab run` arguments (after "sysab") of one boot of combination g, as printed. */
	size_t nwithin;
	char within[64];
	struct strv *run_args;
};

/* Plan a two-level full factorial from its ncells cells (every cell with runs): per
 * row, the design per cell whose every effect meets the target (plan: the highest-order
 * interaction, a difference of differences as analyze has it, needs most) and the one
 * for the main effects alone (plan_main), from the cells' components as analyze
 * estimates them (stats_components_contrast). Returns as an_plan. */
int an_plan_cells(const struct store_set *cells, size_t ncells, const struct store_run_info *const *runs,
		  size_t nruns, const struct strv *patterns, const struct st_compare_opts *co,
		  const struct st_plan_opts *po, struct an_plan *out, struct err *e);

/* Plan a design whose factors of the bit set a->within vary within boots (node), from the
 * finished analysis a of the pilot (its cells' sets and runs for the costs): per row the boots
 * per between-boot combination that give every paired interaction the target (plan) and every
 * paired effect of the within-boot factors alone (plan_main), from the pilot's per-boot
 * contrasts (st_effect.rep_var; stats_plan_paired). Returns as an_plan. */
int an_plan_within(const struct an_analyze *a, const struct store_set *cells, const struct store_run_info *const *runs,
		   size_t nruns, const struct strv *patterns, const struct st_plan_opts *po, struct an_plan *out,
		   struct err *e);

/* Plan from the variance components of a (and b, or a against a copy of
 * itself when b is NULL). runs_* give durations for the measured costs; a
 * cost in po that is > 0 overrides the measured one. Returns 0 (free with
 * an_plan_free) or -1 with e set. */
int an_plan(const struct store_set *a, const struct store_set *b, const struct store_run_info *const *runs,
	    size_t nruns, const struct strv *patterns, const struct st_compare_opts *co,
	    const struct st_plan_opts *po, struct an_plan *out, struct err *e);
void an_plan_free(struct an_plan *p);

/* ---------------------------------------------------------------- allocation (run --allocate) */

/* The default floor and cap of an allocation: fewest samples an index workload keeps (its
 * self-checks, warm-up detection and batch means need them) and most it may take, as a
 * multiple of the default count. */
#define AN_ALLOC_FLOOR 12
#define AN_ALLOC_CAP_TIMES 4
/* Most runs `run --allocate` weighs in the time of one (more, shorter runs). */
#define AN_ALLOC_MAX_RUNS 8

/* One (workload, copies) of the run to come. The caller fills workload, copies and
 * samples (the default count); an_allocate the rest. */
struct an_alloc_row {
	const char *workload; /* borrowed */
	int copies;
	int samples;          /* the default count in, the allocated count out */
	double weight;        /* in ln(index): 1/m of an index of m members at these copies; 0 = none */
	size_t history;       /* FROM runs that hold it */
	double tau2, cost, var_run; /* estimated from them: NAN when not (cost: s per sample) */
	bool allocated;       /* weight and history: its count came from the allocation */
	bool cut_short;       /* its FROM runs took under 3/4 of the default count on average (a
	                         time budget stopped them: one op outlasts a sample): not allocated,
	                         as the default run would not take the default count either */
	double sd_sample_pct; /* sqrt(tau2) in percent, for the reports */
};

struct an_alloc {
	struct st_alloc_opts ao; /* as used */
	struct st_alloc a;
	double run_cost;         /* seconds per (workload, copies) beyond its samples (setup, calibration,
	                            warm-up), measured in FROM; 0 when not */
	double var_run_index;    /* the run level of ln(sysab-index) from FROM's whole runs (shared run
	                            effects included); NAN: not estimable, runs then sums the rows' */
	bool runs_planned;       /* a run level is known: runs holds the plan */
	struct st_alloc_runs runs;
	/* For the reports, the variances above as sds of ln(index) in percent: from the samples at the
	 * default count and as allocated, the change of that variance, and (runs_planned) the run
	 * level, one run, and the best number of runs. */
	double sd_default_pct, sd_alloc_pct, var_change_pct, sd_run_pct, sd_one_pct, sd_best_pct;
};

/* The allocation record of a run to come: the one value `run --allocate` prints (report/, any
 * format) and records in the run's settings. Borrows everything it points to. */
struct an_alloc_record {
	const char *from;            /* the --allocate selector */
	const int64_t *ids;          /* FROM's runs */
	size_t nids;
	const struct an_alloc_row *rows; /* every (workload, copies) of the run to come */
	size_t n;
	const struct an_alloc *al;
};

/* The record as a JSON object text (compact, keys sorted: the run's settings hold it as
 * "allocation"; docs/FORMATS.md). Free it. */
char *an_alloc_record_json(const struct an_alloc_record *r);

/* Allocate rows[0..n-1] a default count of o->n0 each from set (FROM's samples; runs[0..nruns-1]
 * its runs): each row's within-run variance per sample, run-level variance and seconds per sample
 * from its series, its weight from the sysab-index members among rows (WL_INDEX with a baseline,
 * per copies count), then stats_allocate and stats_allocate_runs. Returns 0, or -1 with e set. */
int an_allocate(const struct store_set *set, const struct store_run_info *const *runs, size_t nruns,
		struct an_alloc_row *rows, size_t n, const struct st_alloc_opts *o, struct an_alloc *out, struct err *e);

#endif
