/* analysis.c - `sysab compare`, `sysab analyze` and `sysab plan`: verdicts and plans from stored runs. */
#include "cli.h"
#include "report/report.h"
#include "analysis/job.h"
#include "analysis/mde.h"
#include "study/study.h"
#include "store/store.h"

#include <malloc.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum {
	O_MARGIN = 1, O_ALPHA, O_WORKLOAD, O_FAIL_ON, O_FACTORS, O_REF, O_TARGET, O_BOOT_COST, O_RUN_COST,
	O_SAMPLE_COST, O_POWER, O_UNIT, O_LOOK, O_MAX_BOOTS, O_CAMPAIGN, O_ALLOW_CHECKS, O_SAMPLES,
	O_COUNTERS, O_FRESH, O_ADJUST,
};

/* Options several commands share, written once. */
#define OPT_MARGIN                                                                                           \
	CLI_NUM("margin", 0, "PCT", "equivalence margin: changes within ±PCT count as no change", O_MARGIN, CLI_PCT, \
		0.0001, 0.5, "1%")
#define OPT_ALLOW_CHECKS                                                                                    \
	CLI_OPT("allow-failed-checks", 0, NULL,                                                             \
		"give verdicts also for rows whose runs failed a self-check (the output says so)", O_ALLOW_CHECKS)
#define OPT_ALPHA CLI_NUM("alpha", 0, "A", "significance level (0.05: 95% intervals)", O_ALPHA, CLI_REAL, 0.0001, 0.4, "0.05")
#define OPTS_VERDICT(FORMATS, VALUES)                                                                      \
	OPT_MARGIN, OPT_ALPHA, OPT_ALLOW_CHECKS,                                                           \
		CLI_CHOICE("unit", 0, "boot|run",                                                              \
			"replication unit a verdict needs: boot (default), or run for settings compared within "   \
			"one boot (boot-to-boot variation is then not covered)",                                   \
			O_UNIT, "boot run"),                                                                       \
		CLI_CHOICE("adjust", 0, "host",                                                                \
			"adjust each row for host speed: the host.ref reference of each run as a covariate "      \
			"(docs/METHOD.md); a row whose reference differs between the groups gets no verdict",     \
			O_ADJUST, "host"),                                                                         \
		CLI_NUM("look", 0, "K",                                                                        \
			"this is look K (1, 2, ...) of a group-sequential design; needs --max-boots (a "           \
			"campaign:NAME selector sets both by itself)",                                             \
			O_LOOK, CLI_INT, 1, 1000, NULL),                                                           \
		CLI_NUM("max-boots", 0, "N", "planned maximum boots per group of the sequential design",        \
			O_MAX_BOOTS, CLI_INT, 2, 10000, NULL),                                                     \
		CLI_OPT("fresh", 0, NULL,                                                                      \
			"start a new question: judge only the runs no earlier look of this question judged (a "    \
			"later look with more runs, in no declared sequential design, is otherwise withheld)",     \
			O_FRESH),                                                                                  \
		CLI_OPT("workload", 'w', "PATTERN",                                                            \
			"only workloads matching PATTERN: a name, a glob or a group (repeatable)", O_WORKLOAD),    \
		CLI_OUT_OPTS(FORMATS, VALUES), CLI_COLOR_OPT

const struct cli_opt cli_compare_opts[] = {
	OPTS_VERDICT("text (default), json, markdown, html or kcidb (B's tests and an issue per slower row, docs/FLEET.md)",
		     "text json markdown html kcidb"),
	CLI_KCIDB_OPTS,
	CLI_CHOICE("fail-on", 0, "WHAT", "exit 1 when a row is significantly slower, faster, or either (change); "
				  "negligible changes do not count",
		   O_FAIL_ON, "slower faster change"),
	CLI_OPT("counters", 0, NULL,
		"text and markdown: a row per counter event (workload · event per op: each group's mean count with the "
		"half-width of its interval, B - A with its interval, q among the counter rows alone, more/fewer; linear "
		"scale, never a time row's verdict or --fail-on), not the one-line summary; JSON and HTML always have them",
		O_COUNTERS),
	CLI_VERBOSE_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

const struct cli_opt cli_analyze_opts[] = {
	CLI_OPT("factors", 'f', "F1,F2",
		"label keys whose combinations form the cells (default with a campaign:NAME selector: the labels "
		"that differ between its configurations, and node when its runs are per node)",
		O_FACTORS),
	CLI_OPT("ref", 0, "F=V", "reference level V of factor F (default: the first in sorted order; repeatable)", O_REF),
	OPTS_VERDICT("text (default), json, markdown or html", "text json markdown html"),
	CLI_COMMON_OPTS,
	CLI_END,
};

const struct cli_opt cli_plan_opts[] = {
	CLI_NUM("target", 't', "PCT", "wanted half-width of the CI of a difference", O_TARGET, CLI_PCT, 0.0001, 1, "1%"),
	CLI_NUM("boot-cost", 0, "DURATION", "time one boot costs", O_BOOT_COST, CLI_TEXT, 0, 0, "120s"),
	CLI_OPT("run-cost", 0, "DURATION",
	 "time per run beyond its samples, per workload (default: measured, else " CLI_STR(AN_PLAN_RUN_COST_S) "s)",
	 O_RUN_COST),
	CLI_OPT("sample-cost", 0, "DURATION",
	 "time per sample (default: measured per workload, else " CLI_STR(AN_PLAN_SAMPLE_COST_S) "s)", O_SAMPLE_COST),
	CLI_NUM("power", 0, "P", "also detect a change of the target size with this power, e.g. 0.8 (none by default)",
		O_POWER, CLI_REAL, 0.5, 0.999, NULL),
	CLI_NUM("samples", 0, "N",
		"size boots and runs alone, at N samples per run (a pilot that ran UnixBench with run --unixbench: "
		"N is its Run's -i)",
		O_SAMPLES, CLI_INT, 1, 1000, NULL),
	OPT_ALPHA,
	CLI_OPT("workload", 'w', "PATTERN", "only workloads matching PATTERN (repeatable)", O_WORKLOAD),
	CLI_OPT("campaign", 0, "NAME", "also print the `sysab campaign new NAME` line that carries out the plan", O_CAMPAIGN),
	CLI_OPT("factors", 'f', "F1,F2",
		"size a two-level factorial: its selectors filter the pilot's runs, whose cells (every combination of "
		"the factors' two levels) give the variances; every main effect and interaction gets the target",
		O_FACTORS),
	CLI_OUT_OPTS("text (default) or json", "text json"),
	CLI_COLOR_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

enum fail_on { FAIL_NONE, FAIL_SLOWER, FAIL_FASTER, FAIL_CHANGE };

struct an_args {
	const char *db;
	struct cli_out out;
	struct st_compare_opts co;
	struct st_plan_opts po;
	struct strv patterns;
	enum fail_on fail_on;
	struct strv factors;
	struct kvlist refs;
	const char *campaign;
	bool allow_checks; /* --allow-failed-checks */
	bool counters; /* --counters */
	bool fresh;    /* --fresh */
};

/* Long by design: one short case per option of compare, analyze, plan and report. */
static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct an_args *a = ctx;
	uint64_t ns;
	switch (id) {
	case OPT_DB: a->db = a->out.db = arg; return 0;
	case OPT_JSON:
	case OPT_FORMAT:
	case OPT_OUTPUT:
	case OPT_NO_COLOR:
	case OPT_VERBOSE:
	case OPT_KCIDB_VERSION:
	case OPT_SAMPLES_URL: return cli_out_opt(&a->out, id, arg, e);
	case O_CAMPAIGN:
		if (!*arg || !text_is_clean(arg, false) || strchr(arg, ' '))
			return errf(e, "--campaign: give a campaign name (letters, digits, '_', '.', '-')");
		a->campaign = arg;
		return 0;
	case O_COUNTERS: a->counters = true; return 0;
	case O_FRESH: a->fresh = true; return 0;
	case O_MARGIN: a->co.margin = cli_real_of(arg); return 0;
	case O_ALPHA: a->co.alpha = a->po.alpha = cli_real_of(arg); return 0;
	case O_WORKLOAD:
		if (!*arg || !text_is_clean(arg, false))
			return errf(e, "-w: give a workload name or pattern; `sysab workloads` lists them");
		strv_add(&a->patterns, arg);
		return 0;
	case O_FAIL_ON:
		if (!strcmp(arg, "slower"))
			a->fail_on = FAIL_SLOWER;
		else if (!strcmp(arg, "faster"))
			a->fail_on = FAIL_FASTER;
		else if (!strcmp(arg, "change"))
			a->fail_on = FAIL_CHANGE;
		else
			return errf(e, "--fail-on: '%s' is not a verdict; use slower, faster or change", arg);
		return 0;
	case O_FACTORS: {
		const char *p = arg;
		while (*p) {
			const char *q = strchr(p, ',');
			char *f = q ? xstrndup(p, (size_t)(q - p)) : xstrdup(p);
			int rc = label_check_key(f, e);
			if (!rc && strv_has(&a->factors, f))
				rc = errf(e, "--factors: '%s' is given twice; give each factor once", f);
			if (!rc && a->factors.n >= 8)
				rc = errf(e, "--factors: at most 8 factors");
			if (!rc)
				strv_add(&a->factors, f);
			free(f);
			if (rc)
				return err_prefix(e, "--factors");
			p = q ? q + 1 : p + strlen(p);
		}
		if (!a->factors.n)
			return errf(e, "--factors: give label keys, e.g. --factors pernode,pie");
		return 0;
	}
	case O_REF: {
		char *k, *v;
		if (label_parse(arg, &k, &v, e))
			return err_prefix(e, "--ref");
		kv_add(&a->refs, k, v);
		free(k);
		free(v);
		return 0;
	}
	case O_UNIT:
		if (!strcmp(arg, "boot"))
			a->co.unit = ST_LEVEL_BOOT;
		else if (!strcmp(arg, "run"))
			a->co.unit = ST_LEVEL_RUN;
		else
			return errf(e, "--unit: '%s' is not a replication unit; use boot or run", arg);
		return 0;
	case O_ADJUST:
		if (strcmp(arg, "host"))
			return errf(e, "--adjust: '%s' is not an adjustment; use host", arg);
		a->co.host_adjust = true;
		return 0;
	case O_LOOK: a->co.look = (size_t)cli_int_of(arg); return 0;
	case O_MAX_BOOTS: a->co.max_boots = (size_t)cli_int_of(arg); return 0;
	case O_TARGET: a->po.target = cli_real_of(arg); return 0;
	case O_BOOT_COST:
		if (parse_duration(arg, "--boot-cost", &ns, e))
			return -1;
		a->po.cost_boot = (double)ns / 1e9;
		return 0;
	case O_RUN_COST:
		if (parse_duration(arg, "--run-cost", &ns, e))
			return -1;
		a->po.cost_run = (double)ns / 1e9;
		return 0;
	case O_SAMPLE_COST:
		if (parse_duration(arg, "--sample-cost", &ns, e))
			return -1;
		a->po.cost_sample = (double)ns / 1e9;
		return 0;
	case O_POWER: a->po.power = cli_real_of(arg); return 0;
	case O_SAMPLES: a->po.min_samples = a->po.max_samples = (size_t)cli_int_of(arg); return 0;
	case O_ALLOW_CHECKS: a->allow_checks = true; return 0;
	}
	return errf(e, "unhandled option");
}

static void args_free(struct an_args *a)
{
	strv_free(&a->patterns);
	strv_free(&a->factors);
	kv_free(&a->refs);
}

/* Parse argv; returns -1 to go on, else the exit code. */
static int parse(const struct cli_cmd *cmd, int argc, char **argv, struct an_args *a, struct strv *pos,
		 enum report_kind kind, const char *format)
{
	memset(a, 0, sizeof *a);
	a->co = stats_compare_defaults();
	a->po = stats_plan_defaults();
	a->po.cost_boot = a->po.cost_run = a->po.cost_sample = 0; /* 0 = measure */
	cli_out_init(&a->out, kind, format);
	int rc = cli_start(cmd, argc, argv, on_opt, a, pos);
	struct err oe;
	if (rc < 0 && cli_out_opts_check(&a->out, &oe))
		return cli_fail(cmd, &oe);
	if (rc < 0 && (a->co.look > 0) != (a->co.max_boots > 0)) {
		struct err e = {{0}};
		errf(&e, "--look and --max-boots go together: give the look number and the planned maximum boots "
			 "per group (docs/METHOD.md, sequential verdicts)");
		return cli_fail(cmd, &e);
	}
	return rc;
}

/* Whether notes for people go to stderr beside the result (not beside a JSON document). */
static bool chatty(const struct an_args *a)
{
	return a->out.fmt != &report_format_json;
}

static bool gate(enum fail_on f, const struct st_comparison *c)
{
	if (c->negligible)
		return false;
	return (c->verdict == ST_SLOWER && (f == FAIL_SLOWER || f == FAIL_CHANGE)) ||
	       (c->verdict == ST_FASTER && (f == FAIL_FASTER || f == FAIL_CHANGE));
}

/* The --fail-on gate over the rows of c: EXIT_GATE when a row matched, else EXIT_OK. Names
 * each matching row, its verdict and change on stderr (not beside a JSON document). */
static int gate_rows(const struct an_args *a, const struct an_compare *c)
{
	static const char *const kind[] = {"", "slower", "faster", "change"};
	size_t n = 0, held = 0, looked = 0;
	for (size_t i = 0; i < c->nrows && a->fail_on; i++) {
		n += c->rows[i].have_a && c->rows[i].have_b && gate(a->fail_on, &c->rows[i].c);
		held += c->rows[i].c.verdict == ST_WITHHELD && !c->rows[i].look_withheld;
		looked += c->rows[i].look_withheld;
	}
	if (held && chatty(a))
		fprintf(stderr, "sysab compare: --fail-on %s judged no row whose verdict was withheld for a failed "
				"self-check (%zu row%s; --allow-failed-checks judges them)\n",
			kind[a->fail_on], held, held == 1 ? "" : "s");
	if (looked && chatty(a))
		fprintf(stderr, "sysab compare: --fail-on %s judged no row whose verdict was withheld as a later look "
				"(%zu row%s; see above)\n",
			kind[a->fail_on], looked, looked == 1 ? "" : "s");
	if (!n)
		return EXIT_OK;
	if (!chatty(a))
		return EXIT_GATE;
	fprintf(stderr, "sysab compare: --fail-on %s matched %zu row%s:\n", kind[a->fail_on], n, n == 1 ? "" : "s");
	for (size_t i = 0; i < c->nrows; i++) {
		const struct an_row *r = &c->rows[i];
		if (!(r->have_a && r->have_b && gate(a->fail_on, &r->c)))
			continue;
		fputs("  ", stderr);
		fputs_clean(r->workload, stderr); /* a merged database's names are not checked here */
		if (r->copies > 1)
			fprintf(stderr, "/%d", r->copies);
		fprintf(stderr, ": %s, %+.1f%% [%+.1f,%+.1f]%s\n", report_verdict_name(r->c.verdict), r->chg.pct,
			r->chg.lo, r->chg.hi, r->latency ? " in time per op" : "");
	}
	return EXIT_GATE;
}

/* Open the database for reading, for a job that takes it. An analysis holds arrays of one
 * entry per stored summary (3M at 100,000 runs), builds and frees others of that size, and
 * exits: glibc would give each its own mapping and unmap it on free, so that every one faults
 * in fresh zeroed pages (a quarter of compare's time at 100,000 runs). Keep them in the heap
 * and freed memory for reuse instead. Only these commands: a run's workers are not touched. */
static int open_db(const struct an_args *a, struct store **st, struct err *e)
{
	mallopt(M_MMAP_THRESHOLD, 1 << 30);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, 64 << 20);
	*st = NULL;
	return cli_out_check(&a->out, e) ? -1 : cli_open_db(a->db, STORE_READ, st, NULL, e);
}

/* Once the result is out: a look at a question that could not be recorded (docs/METHOD.md,
 * "Repeated looks"), said on stderr. */
static void look_note(const struct cli_cmd *cmd, const struct an_args *a, const struct an_repeat *r)
{
	if (r->readonly && chatty(a))
		fprintf(stderr, "sysab %s: note: this look was not recorded, as %s; a later look at this question after "
				"adding runs cannot be counted %s\n",
			cmd->name, r->disk_full ? "the database's disk is full" : "the database is read-only to you",
			r->disk_full ? "as a later one: free space first" : "here");
}

/* Once the result is out, count the look at the campaign the selectors named (an_campaign_look)
 * and say so on stderr. */
static int count_look(const struct cli_cmd *cmd, const struct an_args *a, struct store *st, struct an_look *l,
		      struct err *e)
{
	int rc = an_campaign_look_count(st, l, e);
	if (!rc && l->note && chatty(a))
		fprintf(stderr, "sysab %s: %s\n", cmd->name, l->note);
	free(l->note);
	l->note = NULL;
	return rc;
}

/* The summaries of group g's runs (the tests kcidb writes for B), into *out (free each with
 * summary_free, then the array) and *n. Returns 0 or -1 with e set (the ones loaded kept). */
static int load_summaries(struct store *st, const struct an_group *g, struct summary **out, size_t *n, struct err *e)
{
	*out = xcalloc(g->n, sizeof **out);
	for (*n = 0; *n < g->n; (*n)++)
		if (summary_load(st, g->ids[*n], &(*out)[*n], e))
			return -1;
	return 0;
}

int cmd_compare(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct summary *sums = NULL;
	size_t nsums = 0;
	struct an_args a;
	struct strv pos = {0};
	struct an_compare_job j = {0};
	struct an_look look = {0};
	struct store *st;
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, REPORT_COMPARE, "text");
	if (rc >= 0)
		goto out;
	if (pos.n != 2) {
		errf(&e, "give two selectors A and B, e.g. sysab compare 'pie=no' 'pie=yes'; see `sysab compare --help`");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (!open_db(&a, &st, &e))
		an_campaign_look(st, (const char *const *)pos.v, pos.n, &a.co, &look);
	if (!st || an_compare_job_build(st, pos.v[0], pos.v[1], &a.patterns, &a.co, a.out.fmt == &report_format_html,
					 a.allow_checks, &(struct an_look_req){true, a.fresh}, &j, &e) ||
	    (a.out.fmt == &report_format_kcidb && load_summaries(j.d.st, &j.g[1], &sums, &nsums, &e)) ||
	    cli_emit(&a.out,
		     &(struct report_doc){.compare = &j.c, .groups = j.info, .ngroups = 2, .envtab = &j.env,
					  .counters = a.counters, .summaries = sums, .nruns = nsums},
		     &e) ||
	    count_look(cmd, &a, j.d.st, &look, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	look_note(cmd, &a, &j.c.look);
	rc = gate_rows(&a, &j.c);
out:
	for (size_t i = 0; i < nsums; i++)
		summary_free(&sums[i]);
	free(sums);
	free(look.note);
	an_compare_job_free(&j);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- analyze */

/* Without --factors, the labels that differ between the configurations of the one boot
 * campaign the selectors name (said on stderr). Returns 0, or -1 with e set. */
static int default_factors(const struct cli_cmd *cmd, struct an_args *a, struct store *st, const struct strv *sels,
			   struct err *e)
{
	char *note;
	if (a->factors.n)
		return 0;
	if (an_campaign_factors(st, (const char *const *)sels->v, sels->n, &a->factors, &note, e))
		return -1;
	if (chatty(a))
		fprintf(stderr, "sysab %s: %s\n", cmd->name, note);
	free(note);
	return 0;
}

int cmd_analyze(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct an_analyze_job j = {0};
	struct an_look look = {0};
	struct store *st;
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, REPORT_ANALYZE, "text");
	if (rc >= 0)
		goto out;
	if (!open_db(&a, &st, &e) && !default_factors(cmd, &a, st, &pos, &e))
		an_campaign_look(st, (const char *const *)pos.v, pos.n, &a.co, &look);
	else if (st) {
		store_close(st);
		st = NULL;
	}
	if (!st ||
	    an_analyze_job_build(st, &pos, &a.factors, &a.refs, &a.patterns, &a.co, a.out.fmt == &report_format_html,
				 a.allow_checks, &(struct an_look_req){true, a.fresh}, &j, &e) ||
	    cli_emit(&a.out,
		     &(struct report_doc){.analyze = &j.an, .groups = &j.info, .envtab = &j.env,
					  .noise_levels = &j.noise_levels},
		     &e) ||
	    count_look(cmd, &a, j.d.st, &look, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	look_note(cmd, &a, &j.an.look);
	if (chatty(&a) && j.kept < j.nidx)
		fprintf(stderr, "sysab analyze: %zu selected run%s without a label for every factor left out\n",
			j.nidx - j.kept, j.nidx - j.kept == 1 ? "" : "s");
	rc = EXIT_OK;
out:
	free(look.note);
	an_analyze_job_free(&j);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- plan */

int cmd_plan(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct an_plan_job j = {0};
	struct study_line line = {0};
	struct an_mde mde = {0};
	bool have_mde = false;
	struct store *st;
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, REPORT_PLAN, "text");
	if (rc >= 0)
		goto out;
	if (pos.n > 2 && !a.factors.n) {
		errf(&e, "give at most two selectors: one configuration, or A and B; see `sysab plan --help`");
		goto fail;
	}
	if (open_db(&a, &st, &e) ||
	    (a.factors.n ? an_plan_factors_job_build(st, &pos, &a.factors, &a.patterns, &a.co, &a.po, &j, &e)
			 : an_plan_job_build(st, (const char *const *)pos.v, pos.n, &a.patterns, &a.co, &a.po, &j, &e)))
		goto fail;
	if (a.campaign)
		study_plan_line(&j, &pos, &a.factors, &a.patterns, a.campaign, a.db, &line);
	/* one configuration's plan: the MDE of the design it planned, from the same pilot runs */
	if (!j.factorial && j.ng == 1 && j.p.boots >= 2) {
		struct an_mde_in mi = {.boots = j.p.boots, .runs = j.p.runs, .samples = j.p.samples, .alpha = a.po.alpha,
				       .power = 0.8, .from = pos.n ? pos.v[0] : NULL};
		struct strv rows = {0}; /* the plan's workloads */
		for (size_t i = 0; i < j.p.nrows; i++)
			if (j.p.rows[i].have && !j.p.rows[i].ncomposite)
				strv_add(&rows, j.p.rows[i].workload);
		int r = an_mde_of_set(&j.g[0].set, pos.n ? AN_MDE_PILOT : AN_MDE_HISTORY, &rows, &mi, &mde, &e);
		strv_free(&rows);
		if (r)
			goto fail;
		have_mde = true;
	}
	if (cli_emit(&a.out,
		     &(struct report_doc){.plan = &j.p, .groups = j.info, .ngroups = j.ng, .lines = a.campaign ? &line : NULL,
					  .mde = have_mde ? &mde : NULL},
		     &e))
		goto fail;
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_mde_free(&mde);
	study_line_free(&line);
	an_plan_job_free(&j);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- report */

const struct cli_opt cli_report_opts[] = {
	CLI_OUT_OPTS("html (default), text, json or markdown; give -o FILE",
		     "html text json markdown"),
	CLI_VERBOSE_OPT,
	CLI_OPT("factors", 'f', "F1,F2",
		"with `analyze`: label keys whose combinations form the cells (default with campaign:NAME: the labels "
		"that differ between its configurations, and node when its runs are per node)",
		O_FACTORS),
	CLI_OPT("ref", 0, "F=V", "with `analyze`: reference level V of factor F (repeatable)", O_REF),
	OPT_MARGIN,
	OPT_ALPHA,
	OPT_ALLOW_CHECKS,
	CLI_OPT("workload", 'w', "PATTERN", "only workloads matching PATTERN: a name, a glob or a group (repeatable)",
	 O_WORKLOAD),
	CLI_COMMON_OPTS,
	CLI_END,
};

int cmd_report(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0}, rest = {0};
	struct an_compare_job cj = {0};
	struct an_analyze_job fj = {0};
	struct store *st;
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, REPORT_COMPARE, "html");
	if (rc >= 0)
		goto out;
	if (a.out.fmt == &report_format_kcidb) { /* it needs B's runs' tests, which only compare loads */
		errf(&e, "--format: report cannot print 'kcidb'; use sysab compare A B --format kcidb, or sysab export --format kcidb");
		goto fail;
	}
	if (!a.out.path) {
		errf(&e, "give the page to write with -o FILE, e.g. sysab report compare 'pie=no' 'pie=yes' -o report.html");
		goto fail;
	}
	bool cmp = pos.n && !strcmp(pos.v[0], "compare"), fa = pos.n && !strcmp(pos.v[0], "analyze");
	for (size_t i = cmp || fa; i < pos.n; i++)
		strv_add(&rest, pos.v[i]);
	if (cmp && rest.n != 2) {
		errf(&e, "compare: give two selectors A and B, e.g. sysab report compare 'pie=no' 'pie=yes' -o r.html");
		goto fail;
	}
	if (!cmp && !fa && a.factors.n) {
		errf(&e, "--factors needs the analyze form: sysab report analyze --factors F1,F2 [FILTER] -o FILE");
		goto fail;
	}
	if (open_db(&a, &st, &e))
		goto fail;
	if (fa && default_factors(cmd, &a, st, &rest, &e)) {
		store_close(st);
		goto fail;
	}
	if (fa) {
		a.out.kind = REPORT_ANALYZE;
		if (!report_format_find(a.out.fmt->name, REPORT_ANALYZE)) {
			char names[128];
			report_format_names(names, sizeof names, REPORT_ANALYZE);
			errf(&e, "--format: report analyze cannot print '%s'; use %s", a.out.fmt->name, names);
			store_close(st);
			goto fail;
		}
		if (an_analyze_job_build(st, &rest, &a.factors, &a.refs, &a.patterns, &a.co, true, a.allow_checks,
					 &(struct an_look_req){true, false}, &fj, &e) ||
		    cli_emit(&a.out, &(struct report_doc){.analyze = &fj.an, .groups = &fj.info, .envtab = &fj.env}, &e))
			goto fail;
	} else {
		struct sb sel = {0};
		for (size_t i = 0; !cmp && i < rest.n; i++)
			sb_addf(&sel, "%s%s", i ? " " : "", rest.v[i]);
		int brc = an_compare_job_build(st, cmp ? rest.v[0] : sb_str(&sel), cmp ? rest.v[1] : NULL, &a.patterns,
					       &a.co, true, a.allow_checks, &(struct an_look_req){true, false}, &cj, &e);
		sb_free(&sel);
		if (brc || cli_emit(&a.out,
				    &(struct report_doc){.compare = &cj.c, .groups = cj.info, .ngroups = cj.ng, .envtab = &cj.env},
				    &e))
			goto fail;
	}
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_compare_job_free(&cj);
	an_analyze_job_free(&fj);
	args_free(&a);
	strv_free(&pos);
	strv_free(&rest);
	return rc;
}
