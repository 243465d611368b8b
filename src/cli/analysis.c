/* analysis.c - `sysab compare`, `sysab analyze` and `sysab plan`: verdicts and plans from stored runs. */
#include "cli.h"
#include "report/report.h"
#include "stats/analysis.h"
#include "stats/select.h"
#include "store/store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	O_MARGIN = 1, O_ALPHA, O_WORKLOAD, O_FAIL_ON, O_FACTORS, O_REF, O_TARGET, O_BOOT_COST, O_RUN_COST,
	O_SAMPLE_COST, O_POWER, O_OUTPUT, O_CAMPAIGN,
};

#define OPTS_VERDICT                                                                                          \
	{"margin", 0, "PCT", "equivalence margin, e.g. 1% (default): changes within ±PCT count as no change",      \
	 O_MARGIN},                                                                                            \
		{"alpha", 0, "A", "significance level, default 0.05 (95% intervals)", O_ALPHA},                     \
		{"workload", 'w', "PATTERN", "only workloads matching PATTERN: a name, a glob or a group (repeatable)", \
		 O_WORKLOAD},                                                                                  \
		{"json", 0, NULL, "print JSON instead of a table", OPT_JSON}, CLI_COLOR_OPT

const struct cli_opt cli_compare_opts[] = {
	OPTS_VERDICT,
	{"fail-on", 0, "WHAT", "exit 1 when a row is significantly slower, faster, or either (change); "
			       "negligible changes do not count",
	 O_FAIL_ON},
	CLI_COMMON_OPTS,
	CLI_END,
};

const struct cli_opt cli_analyze_opts[] = {
	{"factors", 'f', "F1,F2", "label keys whose combinations form the cells (required)", O_FACTORS},
	{"ref", 0, "F=V", "reference level V of factor F (default: the first in sorted order; repeatable)", O_REF},
	OPTS_VERDICT,
	CLI_COMMON_OPTS,
	CLI_END,
};

const struct cli_opt cli_plan_opts[] = {
	{"target", 't', "PCT", "wanted half-width of the CI of a difference, e.g. 1% (default)", O_TARGET},
	{"boot-cost", 0, "DURATION", "time one boot costs, e.g. 120s (default)", O_BOOT_COST},
	{"run-cost", 0, "DURATION", "time per run beyond its samples, per workload (default: measured, else 10s)",
	 O_RUN_COST},
	{"sample-cost", 0, "DURATION", "time per sample (default: measured per workload, else 1s)", O_SAMPLE_COST},
	{"power", 0, "P", "also detect a change of the target size with this power, e.g. 0.8 (default: none)",
	 O_POWER},
	{"alpha", 0, "A", "significance level, default 0.05", O_ALPHA},
	{"workload", 'w', "PATTERN", "only workloads matching PATTERN (repeatable)", O_WORKLOAD},
	{"campaign", 0, "NAME", "also print the `sysab campaign new NAME` line that carries out the plan", O_CAMPAIGN},
	{"json", 0, NULL, "print JSON instead of a table", OPT_JSON},
	CLI_COLOR_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

enum fail_on { FAIL_NONE, FAIL_SLOWER, FAIL_FASTER, FAIL_CHANGE };

struct an_args {
	const char *db;
	const char *output;
	bool json, color;
	struct st_compare_opts co;
	struct st_plan_opts po;
	struct strv patterns;
	enum fail_on fail_on;
	struct strv factors;
	struct kvlist refs;
	const char *campaign;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct an_args *a = ctx;
	uint64_t ns;
	switch (id) {
	case OPT_DB: a->db = arg; return 0;
	case OPT_JSON: a->json = true; return 0;
	case O_CAMPAIGN:
		if (!*arg || !text_is_clean(arg, false) || strchr(arg, ' '))
			return errf(e, "--campaign: give a campaign name (letters, digits, '_', '.', '-')");
		a->campaign = arg;
		return 0;
	case OPT_NO_COLOR: a->color = false; return 0;
	case O_OUTPUT:
		if (!*arg)
			return errf(e, "-o: give a file name");
		a->output = arg;
		return 0;
	case O_MARGIN: return parse_percent(arg, 0.0001, 0.5, "--margin", &a->co.margin, e);
	case O_ALPHA:
		if (parse_double(arg, 0.0001, 0.4, "--alpha", &a->co.alpha, e))
			return -1;
		a->po.alpha = a->co.alpha;
		return 0;
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
	case O_TARGET: return parse_percent(arg, 0.0001, 1, "--target", &a->po.target, e);
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
	case O_POWER: return parse_double(arg, 0.5, 0.999, "--power", &a->po.power, e);
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
static int parse(const struct cli_cmd *cmd, int argc, char **argv, struct an_args *a, struct strv *pos)
{
	memset(a, 0, sizeof *a);
	a->co = stats_compare_defaults();
	a->po = stats_plan_defaults();
	a->po.cost_run = a->po.cost_sample = 0; /* 0 = measure */
	a->color = true;
	int rc = cli_start(cmd, argc, argv, on_opt, a, pos);
	a->color = cli_color(!a->color);
	return rc;
}

/* The database's runs, oldest first. */
struct db {
	struct store *st;
	struct store_run_info *runs;
	size_t n;
};

static int db_open(const char *opt, struct db *d, struct err *e)
{
	memset(d, 0, sizeof *d);
	if (cli_open_db(opt, STORE_READ, &d->st, NULL, e) || store_runs_list(d->st, &d->runs, &d->n, e) || store_runs_env(d->st, d->runs, d->n, e))
		return -1;
	return 0;
}

static void db_close(struct db *d)
{
	store_runs_free(d->runs, d->n);
	store_close(d->st);
}

/* One group: the runs a selector picked and their samples. */
struct group {
	struct selector sel;
	size_t *idx, n;
	int64_t *ids;
	const struct store_run_info **runs;
	struct store_set set;
	struct report_group rg;
};

static size_t count_boots(const struct store_run_info *const *runs, size_t n)
{
	struct strv b = {0};
	for (size_t i = 0; i < n; i++)
		if (!strv_has(&b, runs[i]->boot_id))
			strv_add(&b, runs[i]->boot_id);
	size_t k = b.n;
	strv_free(&b);
	return k;
}

/* Fill g from the runs at idx[0..n-1] (taken) and load their samples. */
static int group_load(struct db *d, struct group *g, size_t *idx, size_t n, const char *name, struct err *e)
{
	g->idx = idx;
	g->n = n;
	g->ids = xcalloc(n ? n : 1, sizeof *g->ids);
	g->runs = xcalloc(n ? n : 1, sizeof *g->runs);
	for (size_t i = 0; i < n; i++) {
		g->ids[i] = d->runs[idx[i]].id;
		g->runs[i] = &d->runs[idx[i]];
	}
	g->rg = (struct report_group){name, g->sel.text ? g->sel.text : "", n, count_boots(g->runs, n)};
	return store_load_set(d->st, g->ids, n, &g->set, e);
}

static int group_select(struct db *d, const char *text, const char *name, struct group *g, struct err *e)
{
	memset(g, 0, sizeof *g);
	size_t *idx, n;
	if (select_parse(text, &g->sel, e))
		return err_prefix(e, "%s", name);
	if (select_runs(&g->sel, d->runs, d->n, &idx, &n, e))
		return -1;
	return group_load(d, g, idx, n, name, e);
}

static void group_free(struct group *g)
{
	select_free(&g->sel);
	free(g->idx);
	free(g->ids);
	free(g->runs);
	store_set_free(&g->set);
}

static void print_doc(char *s)
{
	puts(s);
	free(s);
}

static bool gate(enum fail_on f, const struct st_comparison *c)
{
	if (c->negligible)
		return false;
	return (c->verdict == ST_SLOWER && (f == FAIL_SLOWER || f == FAIL_CHANGE)) ||
	       (c->verdict == ST_FASTER && (f == FAIL_FASTER || f == FAIL_CHANGE));
}

/* A comparison of B against A while it is built and rendered. */
struct cjob {
	struct db d;
	struct group g[2];
	struct an_compare c;
};

/* Select A and B (sa, sb) and compare them. Returns 0, or -1 with e set; free j with
 * cjob_free either way. */
static int cjob_build(const struct an_args *a, const char *sa, const char *sb, struct cjob *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	struct group *g = j->g;
	if (db_open(a->db, &j->d, e) || group_select(&j->d, sa, "A", &g[0], e) || group_select(&j->d, sb, "B", &g[1], e))
		return -1;
	for (size_t i = 0; i < g[0].n; i++)
		for (size_t k = 0; k < g[1].n; k++)
			if (g[0].ids[i] == g[1].ids[k])
				return errf(e, "run %lld matches both A '%s' and B '%s'; make the selectors exclusive, e.g. "
					       "with a label that differs",
					    (long long)g[0].ids[i], sa, sb);
	return an_compare(&g[0].set, &g[1].set, g[0].runs, g[0].n, g[1].runs, g[1].n, &a->patterns, &a->co, &j->c, e);
}

static void cjob_free(struct cjob *j)
{
	an_compare_free(&j->c);
	group_free(&j->g[0]);
	group_free(&j->g[1]);
	db_close(&j->d);
}

int cmd_compare(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct cjob j = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos);
	if (rc >= 0)
		goto out;
	if (pos.n != 2) {
		errf(&e, "give two selectors A and B, e.g. sysab compare 'pie=no' 'pie=yes'; see `sysab compare --help`");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (cjob_build(&a, pos.v[0], pos.v[1], &j, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	struct report_group rg[2] = {j.g[0].rg, j.g[1].rg};
	if (a.json)
		print_doc(report_compare_json(&j.c, rg));
	else
		report_compare_text(stdout, &j.c, rg, a.color);
	rc = EXIT_OK;
	for (size_t i = 0; i < j.c.nrows && a.fail_on; i++)
		if (j.c.rows[i].have_a && j.c.rows[i].have_b && gate(a.fail_on, &j.c.rows[i].c))
			rc = EXIT_GATE;
	if (rc == EXIT_GATE && !a.json)
		fprintf(stderr, "sysab compare: --fail-on matched: a significant change of the kind asked for\n");
out:
	cjob_free(&j);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- analyze */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Everything a factorial analysis holds while it is built and rendered. */
struct fjob {
	struct db d;
	struct selector sel;
	size_t *idx, nidx, kept, nf, ncells;
	struct strv *levels;
	struct st_factor *f;
	size_t *run_cell, *cell_level;
	struct group *cells;
	struct store_set *sets;
	struct an_analyze an;
	struct report_group rg;
};

/* Select the runs of the FILTER arguments, split them into cells by a->factors and
 * analyze. Returns 0, or -1 with e set; free j with fjob_free either way. */
static int fjob_build(const struct an_args *a, const struct strv *pos, struct fjob *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	if (!a->factors.n)
		return errf(e, "give the factors, e.g. --factors pernode,pie; see `sysab analyze --help`");
	struct sb filter = {0};
	for (size_t i = 0; i < pos->n; i++)
		sb_addf(&filter, "%s%s", i ? " " : "", pos->v[i]);
	int prc = select_parse(sb_str(&filter), &j->sel, e);
	sb_free(&filter);
	if (prc || db_open(a->db, &j->d, e) || select_runs(&j->sel, j->d.runs, j->d.n, &j->idx, &j->nidx, e))
		return -1;
	struct db *d = &j->d;
	size_t *idx = j->idx, nidx = j->nidx;
	size_t nf = j->nf = a->factors.n;
	struct strv *levels = j->levels = xcalloc(nf, sizeof *levels);
	for (size_t k = 0; k < nf; k++) {
		bool any = false;
		for (size_t i = 0; i < nidx && !any; i++)
			any = select_label(&d->runs[idx[i]], a->factors.v[k]) != NULL;
		if (!any)
			return errf(e, "factor '%s': no selected run has a label '%s'; `sysab list` shows the labels",
				    a->factors.v[k], a->factors.v[k]);
	}
	/* keep the runs that carry every factor */
	size_t kept = 0;
	for (size_t i = 0; i < nidx; i++) {
		bool all = true;
		for (size_t k = 0; k < nf && all; k++)
			all = select_label(&d->runs[idx[i]], a->factors.v[k]) != NULL;
		if (all)
			idx[kept++] = idx[i];
	}
	j->kept = kept;
	for (size_t k = 0; k < nf; k++) {
		for (size_t i = 0; i < kept; i++) {
			const char *v = select_label(&d->runs[idx[i]], a->factors.v[k]);
			if (!strv_has(&levels[k], v))
				strv_add(&levels[k], v);
		}
		if (!levels[k].n)
			return errf(e, "factor '%s': no selected run carries all the factors' labels; `sysab list` shows "
				       "the labels",
				    a->factors.v[k]);
		if (levels[k].n < 2)
			return errf(e, "factor '%s' has one level (%s) among the selected runs; a factor needs two levels, "
				       "so label runs of the other configuration too or drop the factor",
				    a->factors.v[k], levels[k].v[0]);
		qsort(levels[k].v, levels[k].n, sizeof *levels[k].v, str_cmp);
	}
	for (size_t r = 0; r < a->refs.n; r++) {
		size_t k = 0;
		while (k < nf && strcmp(a->factors.v[k], a->refs.v[r].key))
			k++;
		if (k == nf)
			return errf(e, "--ref %s=%s: '%s' is not one of the factors", a->refs.v[r].key, a->refs.v[r].value,
				    a->refs.v[r].key);
		size_t l = 0;
		while (l < levels[k].n && strcmp(levels[k].v[l], a->refs.v[r].value))
			l++;
		if (l == levels[k].n)
			return errf(e, "--ref %s=%s: no selected run has that level; the levels are %s%s%s",
				    a->refs.v[r].key, a->refs.v[r].value, levels[k].v[0], levels[k].n > 1 ? ", " : "",
				    levels[k].n > 1 ? levels[k].v[1] : "");
		char *t = levels[k].v[l];
		memmove(&levels[k].v[1], &levels[k].v[0], l * sizeof *levels[k].v);
		levels[k].v[0] = t;
	}
	struct st_factor *f = j->f = xcalloc(nf, sizeof *f);
	for (size_t k = 0; k < nf; k++)
		f[k] = (struct st_factor){a->factors.v[k], (const char *const *)levels[k].v, levels[k].n};
	/* cells: the distinct level combinations, in order of first appearance */
	size_t *run_cell = j->run_cell = xcalloc(kept ? kept : 1, sizeof *run_cell);
	size_t *cell_level = j->cell_level = xcalloc((kept ? kept : 1) * nf, sizeof *cell_level);
	size_t *lv = xcalloc(nf, sizeof *lv);
	for (size_t i = 0; i < kept; i++) {
		for (size_t k = 0; k < nf; k++) {
			const char *v = select_label(&d->runs[idx[i]], a->factors.v[k]);
			size_t l = 0;
			while (strcmp(levels[k].v[l], v))
				l++;
			lv[k] = l;
		}
		size_t c = 0;
		while (c < j->ncells && memcmp(&cell_level[c * nf], lv, nf * sizeof *lv))
			c++;
		if (c == j->ncells)
			memcpy(&cell_level[j->ncells++ * nf], lv, nf * sizeof *lv);
		run_cell[i] = c;
	}
	free(lv);
	j->cells = xcalloc(j->ncells, sizeof *j->cells);
	j->sets = xcalloc(j->ncells, sizeof *j->sets);
	for (size_t c = 0; c < j->ncells; c++) {
		size_t *ci = xcalloc(kept, sizeof *ci), n = 0;
		for (size_t i = 0; i < kept; i++)
			if (run_cell[i] == c)
				ci[n++] = idx[i];
		if (group_load(d, &j->cells[c], ci, n, "cell", e))
			return -1;
		j->sets[c] = j->cells[c].set;
	}
	if (an_analyze(j->sets, j->ncells, cell_level, f, nf, &a->patterns, &a->co, &j->an, e))
		return -1;
	const struct store_run_info **kr = xcalloc(kept ? kept : 1, sizeof *kr);
	for (size_t i = 0; i < kept; i++)
		kr[i] = &d->runs[idx[i]];
	j->rg = (struct report_group){"runs", j->sel.text, kept, count_boots(kr, kept)};
	free(kr);
	return 0;
}

static void fjob_free(struct fjob *j)
{
	an_analyze_free(&j->an);
	for (size_t c = 0; c < j->ncells && j->cells; c++)
		group_free(&j->cells[c]);
	free(j->cells);
	free(j->sets);
	free(j->run_cell);
	free(j->cell_level);
	free(j->f);
	for (size_t k = 0; j->levels && k < j->nf; k++)
		strv_free(&j->levels[k]);
	free(j->levels);
	free(j->idx);
	select_free(&j->sel);
	db_close(&j->d);
}

int cmd_analyze(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct fjob j = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos);
	if (rc >= 0)
		goto out;
	if (fjob_build(&a, &pos, &j, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (a.json)
		print_doc(report_analyze_json(&j.an, &j.rg));
	else
		report_analyze_text(stdout, &j.an, &j.rg, a.color);
	if (!a.json && j.kept < j.nidx)
		fprintf(stderr, "sysab analyze: %zu selected run%s without a label for every factor left out\n",
			j.nidx - j.kept, j.nidx - j.kept == 1 ? "" : "s");
	rc = EXIT_OK;
out:
	fjob_free(&j);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- plan */

/* The label terms (KEY=VALUE) of a selector, space-separated, as a new string. */
static char *selector_labels(const char *sel)
{
	struct sb b = {0};
	sb_add(&b, "");
	char *copy = xstrdup(sel);
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
		if (strchr(t, '=') && !strchr(t, ':'))
			sb_addf(&b, "%s%s", b.len ? " " : "", t);
	free(copy);
	return b.s;
}

/* `sysab plan --campaign NAME`: the campaign new line that carries out the plan's design. */
static void print_campaign_line(const char *name, const struct an_plan *p, const struct strv *sels,
				const struct strv *patterns)
{
	if (!p->boots) {
		printf("\nno campaign line: no design meets the target (see above)\n");
		return;
	}
	printf("\nthe campaign this plan implies (add each configuration's --kernel/--append or --entry):\n");
	printf("sysab campaign new %s --backend BACKEND --boots %zu --runs %zu", name, p->boots, p->runs);
	for (size_t i = 0; i < (sels ? sels->n : 0); i++) {
		char *l = selector_labels(sels->v[i]);
		printf(" \\\n    --config '%s'", *l ? l : "KEY=VALUE");
		free(l);
	}
	if (!sels || sels->n < 2)
		printf(" \\\n    --config 'KEY=OTHER'");
	printf(" \\\n    -- --samples %zu", p->samples);
	for (size_t i = 0; i < patterns->n; i++)
		printf(" -w '%s'", patterns->v[i]);
	printf("\n");
}

int cmd_plan(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct db d = {0};
	struct group g[2];
	memset(g, 0, sizeof g);
	struct an_plan p = {0};
	const struct store_run_info **all = NULL;
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos);
	size_t ng = pos.n ? pos.n : 1;
	if (rc >= 0)
		goto out;
	rc = EXIT_INPUT;
	if (pos.n > 2) {
		errf(&e, "give at most two selectors: one configuration, or A and B; see `sysab plan --help`");
		goto fail;
	}
	if (db_open(a.db, &d, &e))
		goto fail;
	for (size_t i = 0; i < ng; i++)
		if (group_select(&d, pos.n ? pos.v[i] : "", i ? "B" : "A", &g[i], &e))
			goto fail;
	all = xcalloc(g[0].n + g[1].n + 1, sizeof *all);
	for (size_t i = 0; i < g[0].n; i++)
		all[i] = g[0].runs[i];
	for (size_t i = 0; i < g[1].n; i++)
		all[g[0].n + i] = g[1].runs[i];
	if (an_plan(&g[0].set, ng == 2 ? &g[1].set : NULL, all, g[0].n + g[1].n, &a.patterns, &a.co, &a.po, &p, &e))
		goto fail;
	struct report_group rg[2] = {g[0].rg, g[1].rg};
	if (a.json)
		print_doc(report_plan_json(&p, rg, ng));
	else
		report_plan_text(stdout, &p, rg, ng, a.color);
	if (a.campaign && !a.json)
		print_campaign_line(a.campaign, &p, pos.n ? &pos : NULL, &a.patterns);
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	free(all);
	an_plan_free(&p);
	group_free(&g[0]);
	group_free(&g[1]);
	db_close(&d);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- report */

/* Write the page through a temporary file next to path, renamed into place when complete. */
static int write_page(const char *path, int (*render)(FILE *, const void *), const void *arg, struct err *e)
{
	struct sb tmp = {0};
	sb_addf(&tmp, "%s.tmp", path);
	FILE *f = fopen(sb_str(&tmp), "w");
	int rc = 0;
	if (!f) {
		rc = errf(e, "-o %s: cannot create it (%s); check the directory exists and is writable", path,
			  strerror(errno));
	} else {
		int w = render(f, arg);
		if (fclose(f) || w)
			rc = errf(e, "-o %s: cannot write it (%s)", path, strerror(errno));
		else if (rename(sb_str(&tmp), path))
			rc = errf(e, "-o %s: cannot rename the page into place (%s)", path, strerror(errno));
		if (rc)
			unlink(sb_str(&tmp));
	}
	sb_free(&tmp);
	return rc;
}

struct cmp_page {
	const struct an_compare *c;
	const struct report_group *g;
	size_t ng;
	const struct an_envtab *env;
};

static int render_cmp(FILE *f, const void *arg)
{
	const struct cmp_page *p = arg;
	return report_html_compare(f, p->c, p->g, p->ng, p->env);
}

struct fa_page {
	const struct fjob *j;
	const struct an_envtab *env;
};

static int render_fa(FILE *f, const void *arg)
{
	const struct fa_page *p = arg;
	return report_html_analyze(f, &p->j->an, &p->j->rg, p->env);
}

const struct cli_opt cli_report_opts[] = {
	{"output", 'o', "FILE", "write the HTML page to FILE (required)", O_OUTPUT},
	{"factors", 'f', "F1,F2", "with `analyze`: label keys whose combinations form the cells", O_FACTORS},
	{"ref", 0, "F=V", "with `analyze`: reference level V of factor F (repeatable)", O_REF},
	{"margin", 0, "PCT", "equivalence margin, e.g. 1% (default)", O_MARGIN},
	{"alpha", 0, "A", "significance level, default 0.05 (95% intervals)", O_ALPHA},
	{"workload", 'w', "PATTERN", "only workloads matching PATTERN: a name, a glob or a group (repeatable)",
	 O_WORKLOAD},
	CLI_COMMON_OPTS,
	CLI_END,
};

int cmd_report(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct cjob cj = {0};
	struct fjob fj = {0};
	struct an_envtab env = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos);
	if (rc >= 0)
		goto out;
	if (!a.output) {
		errf(&e, "give the page to write with -o FILE, e.g. sysab report compare 'pie=no' 'pie=yes' -o report.html");
		goto fail;
	}
	if (pos.n && !strcmp(pos.v[0], "compare")) {
		if (pos.n != 3) {
			errf(&e, "compare: give two selectors A and B, e.g. sysab report compare 'pie=no' 'pie=yes' -o r.html");
			goto fail;
		}
		if (cjob_build(&a, pos.v[1], pos.v[2], &cj, &e))
			goto fail;
		const struct store_run_info *const *runs[2] = {cj.g[0].runs, cj.g[1].runs};
		size_t n[2] = {cj.g[0].n, cj.g[1].n};
		an_envtab_build(runs, n, 2, &env);
		struct report_group rg[2] = {cj.g[0].rg, cj.g[1].rg};
		struct cmp_page p = {&cj.c, rg, 2, &env};
		if (write_page(a.output, render_cmp, &p, &e))
			goto fail;
	} else if (pos.n && !strcmp(pos.v[0], "analyze")) {
		struct strv filt = {0};
		for (size_t i = 1; i < pos.n; i++)
			strv_add(&filt, pos.v[i]);
		int brc = fjob_build(&a, &filt, &fj, &e);
		strv_free(&filt);
		if (brc)
			goto fail;
		const struct store_run_info *const **runs = xcalloc(fj.ncells ? fj.ncells : 1, sizeof *runs);
		size_t *n = xcalloc(fj.ncells ? fj.ncells : 1, sizeof *n);
		for (size_t c = 0; c < fj.ncells; c++) {
			runs[c] = fj.cells[c].runs;
			n[c] = fj.cells[c].n;
		}
		an_envtab_build(runs, n, fj.ncells, &env);
		free(runs);
		free(n);
		struct fa_page p = {&fj, &env};
		if (write_page(a.output, render_fa, &p, &e))
			goto fail;
	} else {
		if (a.factors.n) {
			errf(&e, "--factors needs the analyze form: sysab report analyze --factors F1,F2 [FILTER] -o FILE");
			goto fail;
		}
		struct sb sel = {0};
		for (size_t i = 0; i < pos.n; i++)
			sb_addf(&sel, "%s%s", i ? " " : "", pos.v[i]);
		int brc = db_open(a.db, &cj.d, &e) || group_select(&cj.d, sb_str(&sel), "runs", &cj.g[0], &e);
		sb_free(&sel);
		if (brc || an_compare(&cj.g[0].set, &cj.g[1].set, cj.g[0].runs, cj.g[0].n, NULL, 0, &a.patterns, &a.co,
				      &cj.c, &e))
			goto fail;
		const struct store_run_info *const *runs[1] = {cj.g[0].runs};
		size_t n[1] = {cj.g[0].n};
		an_envtab_build(runs, n, 1, &env);
		struct cmp_page p = {&cj.c, &cj.g[0].rg, 1, &env};
		if (write_page(a.output, render_cmp, &p, &e))
			goto fail;
	}
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_envtab_free(&env);
	cjob_free(&cj);
	fjob_free(&fj);
	args_free(&a);
	strv_free(&pos);
	return rc;
}
