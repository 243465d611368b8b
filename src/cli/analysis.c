/* analysis.c - `sysab compare`, `sysab analyze` and `sysab plan`: verdicts and plans from stored runs. */
#include "cli.h"
#include "report/report.h"
#include "stats/analysis.h"
#include "stats/select.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

enum {
	O_MARGIN = 1, O_ALPHA, O_WORKLOAD, O_FAIL_ON, O_FACTORS, O_REF, O_TARGET, O_BOOT_COST, O_RUN_COST,
	O_SAMPLE_COST, O_POWER,
};

#define OPTS_VERDICT                                                                                          \
	{"margin", 0, "PCT", "equivalence margin, e.g. 1% (default): changes within ±PCT count as no change",      \
	 O_MARGIN},                                                                                            \
		{"alpha", 0, "A", "significance level, default 0.05 (95% intervals)", O_ALPHA},                     \
		{"workload", 'w', "PATTERN", "only workloads matching PATTERN: a name, a glob or a group (repeatable)", \
		 O_WORKLOAD},                                                                                  \
		{"json", 0, NULL, "print JSON instead of a table", OPT_JSON}

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
	{"json", 0, NULL, "print JSON instead of a table", OPT_JSON},
	CLI_COMMON_OPTS,
	CLI_END,
};

enum fail_on { FAIL_NONE, FAIL_SLOWER, FAIL_FASTER, FAIL_CHANGE };

struct an_args {
	const char *db;
	bool json;
	struct st_compare_opts co;
	struct st_plan_opts po;
	struct strv patterns;
	enum fail_on fail_on;
	struct strv factors;
	struct kvlist refs;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct an_args *a = ctx;
	uint64_t ns;
	switch (id) {
	case OPT_DB: a->db = arg; return 0;
	case OPT_JSON: a->json = true; return 0;
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
	struct err e;
	bool help;
	if (cli_parse(cmd, argc, argv, on_opt, a, pos, &help, &e))
		return cli_fail(cmd, &e);
	if (help) {
		cli_help(cmd, stdout);
		return EXIT_OK;
	}
	return -1;
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
	char *path = store_default_path(opt);
	int rc = store_open(path, STORE_RO, &d->st, e);
	free(path);
	if (rc || store_runs_list(d->st, &d->runs, &d->n, e) || store_runs_env(d->st, d->runs, d->n, e))
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

int cmd_compare(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct db d = {0};
	struct group g[2];
	memset(g, 0, sizeof g);
	struct an_compare c = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos);
	if (rc >= 0)
		goto out;
	rc = EXIT_INPUT;
	if (pos.n != 2) {
		errf(&e, "give two selectors A and B, e.g. sysab compare 'pie=no' 'pie=yes'; see `sysab compare --help`");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (db_open(a.db, &d, &e) || group_select(&d, pos.v[0], "A", &g[0], &e) ||
	    group_select(&d, pos.v[1], "B", &g[1], &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	for (size_t i = 0; i < g[0].n; i++)
		for (size_t j = 0; j < g[1].n; j++)
			if (g[0].ids[i] == g[1].ids[j]) {
				errf(&e, "run %lld matches both A '%s' and B '%s'; make the selectors exclusive, e.g. with "
					 "a label that differs",
				     (long long)g[0].ids[i], pos.v[0], pos.v[1]);
				rc = cli_fail(cmd, &e);
				goto out;
			}
	if (an_compare(&g[0].set, &g[1].set, g[0].runs, g[0].n, g[1].runs, g[1].n, &a.patterns, &a.co, &c, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	struct report_group rg[2] = {g[0].rg, g[1].rg};
	if (a.json)
		print_doc(report_compare_json(&c, rg));
	else
		report_compare_text(stdout, &c, rg);
	rc = EXIT_OK;
	for (size_t i = 0; i < c.nrows && a.fail_on; i++)
		if (c.rows[i].have_a && c.rows[i].have_b && gate(a.fail_on, &c.rows[i].c))
			rc = EXIT_GATE;
	if (rc == EXIT_GATE && !a.json)
		fprintf(stderr, "sysab compare: --fail-on matched: a significant change of the kind asked for\n");
out:
	an_compare_free(&c);
	group_free(&g[0]);
	group_free(&g[1]);
	db_close(&d);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- analyze */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_analyze(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct an_args a;
	struct strv pos = {0};
	struct db d = {0};
	struct selector sel = {0};
	struct err e;
	size_t *idx = NULL, nidx = 0, nf = 0, ncells = 0;
	struct strv *levels = NULL;
	struct st_factor *f = NULL;
	size_t *run_cell = NULL, *cell_level = NULL;
	struct group *cells = NULL;
	struct store_set *sets = NULL;
	struct an_analyze an = {0};
	int rc = parse(cmd, argc, argv, &a, &pos);
	if (rc >= 0)
		goto out;
	rc = EXIT_INPUT;
	if (!a.factors.n) {
		errf(&e, "give the factors, e.g. --factors pernode,pie; see `sysab analyze --help`");
		goto fail;
	}
	struct sb filter = {0};
	for (size_t i = 0; i < pos.n; i++)
		sb_addf(&filter, "%s%s", i ? " " : "", pos.v[i]);
	int prc = select_parse(sb_str(&filter), &sel, &e);
	sb_free(&filter);
	if (prc || db_open(a.db, &d, &e) || select_runs(&sel, d.runs, d.n, &idx, &nidx, &e))
		goto fail;
	nf = a.factors.n;
	levels = xcalloc(nf, sizeof *levels);
	for (size_t k = 0; k < nf; k++) {
		bool any = false;
		for (size_t i = 0; i < nidx && !any; i++)
			any = select_label(&d.runs[idx[i]], a.factors.v[k]) != NULL;
		if (!any) {
			errf(&e, "factor '%s': no selected run has a label '%s'; `sysab list` shows the labels",
			     a.factors.v[k], a.factors.v[k]);
			goto fail;
		}
	}
	/* keep the runs that carry every factor */
	size_t kept = 0;
	for (size_t i = 0; i < nidx; i++) {
		bool all = true;
		for (size_t k = 0; k < nf && all; k++)
			all = select_label(&d.runs[idx[i]], a.factors.v[k]) != NULL;
		if (all)
			idx[kept++] = idx[i];
	}
	for (size_t k = 0; k < nf; k++) {
		for (size_t i = 0; i < kept; i++) {
			const char *v = select_label(&d.runs[idx[i]], a.factors.v[k]);
			if (!strv_has(&levels[k], v))
				strv_add(&levels[k], v);
		}
		if (!levels[k].n) {
			errf(&e, "factor '%s': no selected run carries all the factors' labels; `sysab list` shows the labels",
			     a.factors.v[k]);
			goto fail;
		}
		if (levels[k].n < 2) {
			errf(&e, "factor '%s' has one level (%s) among the selected runs; a factor needs two levels, so "
				 "label runs of the other configuration too or drop the factor",
			     a.factors.v[k], levels[k].v[0]);
			goto fail;
		}
		qsort(levels[k].v, levels[k].n, sizeof *levels[k].v, str_cmp);
	}
	for (size_t r = 0; r < a.refs.n; r++) {
		size_t k = 0;
		while (k < nf && strcmp(a.factors.v[k], a.refs.v[r].key))
			k++;
		if (k == nf) {
			errf(&e, "--ref %s=%s: '%s' is not one of the factors", a.refs.v[r].key, a.refs.v[r].value,
			     a.refs.v[r].key);
			goto fail;
		}
		size_t l = 0;
		while (l < levels[k].n && strcmp(levels[k].v[l], a.refs.v[r].value))
			l++;
		if (l == levels[k].n) {
			errf(&e, "--ref %s=%s: no selected run has that level; the levels are %s%s%s", a.refs.v[r].key,
			     a.refs.v[r].value, levels[k].v[0], levels[k].n > 1 ? ", " : "",
			     levels[k].n > 1 ? levels[k].v[1] : "");
			goto fail;
		}
		char *t = levels[k].v[l];
		memmove(&levels[k].v[1], &levels[k].v[0], l * sizeof *levels[k].v);
		levels[k].v[0] = t;
	}
	f = xcalloc(nf, sizeof *f);
	for (size_t k = 0; k < nf; k++)
		f[k] = (struct st_factor){a.factors.v[k], (const char *const *)levels[k].v, levels[k].n};
	/* cells: the distinct level combinations, in order of first appearance */
	run_cell = xcalloc(kept ? kept : 1, sizeof *run_cell);
	cell_level = xcalloc((kept ? kept : 1) * nf, sizeof *cell_level);
	size_t *lv = xcalloc(nf, sizeof *lv);
	for (size_t i = 0; i < kept; i++) {
		for (size_t k = 0; k < nf; k++) {
			const char *v = select_label(&d.runs[idx[i]], a.factors.v[k]);
			size_t l = 0;
			while (strcmp(levels[k].v[l], v))
				l++;
			lv[k] = l;
		}
		size_t c = 0;
		while (c < ncells && memcmp(&cell_level[c * nf], lv, nf * sizeof *lv))
			c++;
		if (c == ncells)
			memcpy(&cell_level[ncells++ * nf], lv, nf * sizeof *lv);
		run_cell[i] = c;
	}
	free(lv);
	cells = xcalloc(ncells, sizeof *cells);
	sets = xcalloc(ncells, sizeof *sets);
	for (size_t c = 0; c < ncells; c++) {
		size_t *ci = xcalloc(kept, sizeof *ci), n = 0;
		for (size_t i = 0; i < kept; i++)
			if (run_cell[i] == c)
				ci[n++] = idx[i];
		if (group_load(&d, &cells[c], ci, n, "cell", &e))
			goto fail;
		sets[c] = cells[c].set;
	}
	if (an_analyze(sets, ncells, cell_level, f, nf, &a.patterns, &a.co, &an, &e))
		goto fail;
	const struct store_run_info **kr = xcalloc(kept ? kept : 1, sizeof *kr);
	for (size_t i = 0; i < kept; i++)
		kr[i] = &d.runs[idx[i]];
	struct report_group rg = {"runs", sel.text, kept, count_boots(kr, kept)};
	free(kr);
	if (a.json)
		print_doc(report_analyze_json(&an, &rg));
	else
		report_analyze_text(stdout, &an, &rg);
	if (!a.json && kept < nidx)
		fprintf(stderr, "sysab analyze: %zu selected run%s without a label for every factor left out\n",
			nidx - kept, nidx - kept == 1 ? "" : "s");
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_analyze_free(&an);
	for (size_t c = 0; c < ncells && cells; c++)
		group_free(&cells[c]);
	free(cells);
	free(sets);
	free(run_cell);
	free(cell_level);
	free(f);
	for (size_t k = 0; levels && k < nf; k++)
		strv_free(&levels[k]);
	free(levels);
	free(idx);
	select_free(&sel);
	db_close(&d);
	args_free(&a);
	strv_free(&pos);
	return rc;
}

/* ---------------------------------------------------------------- plan */

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
		report_plan_text(stdout, &p, rg, ng);
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
