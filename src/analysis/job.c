/* job.c - the database's runs, groups picked by selectors, and the compare and plan jobs. */
#include "analysis/job.h"
#include "analysis/mde.h"
#include "core/testhooks.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

int an_db_open(struct store *st, struct an_db *d, struct err *e)
{
	memset(d, 0, sizeof *d);
	d->st = st;
	return store_runs_list_bare(d->st, &d->runs, &d->n, e);
}

int an_db_env(struct an_db *d, const char *key, struct err *e)
{
	return key ? store_runs_env_key(d->st, d->runs, d->n, key, e) : store_runs_env(d->st, d->runs, d->n, e);
}

void an_db_want(struct an_db *d, const size_t *idx, size_t n)
{
	free(d->want);
	d->want = xcalloc(n, sizeof *d->want);
	d->nwant = 0;
	for (size_t i = 0; i < n; i++)
		d->want[d->nwant++] = d->runs[idx[i]].id;
}

/* an_db_want of the union of the runs that the selectors texts[0..n-1] pick; a selector in
 * error is left to an_group_select to report. */
static void want_selected(struct an_db *d, const char *const *texts, size_t n)
{
	bool *pick = xcalloc(d->n, sizeof *pick);
	for (size_t t = 0; t < n; t++) {
		struct selector sel;
		struct err e;
		size_t *idx, k;
		if (select_parse(texts[t], &sel, &e))
			continue;
		if (!select_runs(&sel, d->runs, d->n, &idx, &k, &e)) {
			for (size_t i = 0; i < k; i++)
				pick[idx[i]] = true;
			free(idx);
		}
		select_free(&sel);
	}
	size_t *idx = xcalloc(d->n, sizeof *idx), k = 0;
	for (size_t i = 0; i < d->n; i++)
		if (pick[i])
			idx[k++] = i;
	an_db_want(d, idx, k);
	free(idx);
	free(pick);
}

void an_db_close(struct an_db *d)
{
	free(d->want);
	store_sums_free(&d->sums);
	store_runs_free(d->runs, d->n);
	store_close(d->st);
	memset(d, 0, sizeof *d);
}

static int boot_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t an_count_boots(const struct store_run_info *const *runs, size_t n)
{
	/* sorted, so that a fleet's thousands of boots are counted in n log n */
	const char **b = xcalloc(n, sizeof *b);
	for (size_t i = 0; i < n; i++)
		b[i] = runs[i]->boot_id;
	qsort(b, n, sizeof *b, boot_cmp);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += i == 0 || strcmp(b[i], b[i - 1]);
	free(b);
	return k;
}

/* The boot ids of runs[0..n-1], sorted, duplicates kept: a new array of borrowed strings. */
static const char **sorted_boots(const struct store_run_info *const *runs, size_t n)
{
	const char **b = xcalloc(n, sizeof *b);
	for (size_t i = 0; i < n; i++)
		b[i] = runs[i]->boot_id;
	qsort(b, n, sizeof *b, boot_cmp);
	return b;
}

/* A boot in x[0..nx-1] that is not in y[0..ny-1] (both sorted), or NULL. */
static const char *boot_missing(const char *const *x, size_t nx, const char *const *y, size_t ny)
{
	for (size_t i = 0, k = 0; i < nx; i++) {
		while (k < ny && strcmp(y[k], x[i]) < 0)
			k++;
		if (k == ny || strcmp(y[k], x[i]))
			return x[i];
	}
	return NULL;
}

int an_groups_share_boots(const struct an_group *g, const char *const *names, size_t n, struct err *e)
{
	const char ***b = xcalloc(n, sizeof *b);
	for (size_t i = 0; i < n; i++)
		b[i] = sorted_boots(g[i].runs, g[i].n);
	int rc = 0;
	for (size_t i = 1; i < n && !rc; i++)
		for (int way = 0; way < 2 && !rc; way++) {
			size_t x = way ? i : 0, y = way ? 0 : i; /* group 0 against group i, both ways */
			const char *boot = boot_missing(b[x], g[x].n, b[y], g[y].n);
			if (boot)
				rc = errf(e, "--unit run compares runs within the same boots, but %s ran on boot %s and "
					     "%s did not (%s: %zu boot%s, %s: %zu): across boots it would compare "
					     "configuration plus boot; run every configuration on each boot, or compare "
					     "boots (the default --unit boot)",
					  names[x], boot, names[y], names[x], g[x].info.nboots,
					  g[x].info.nboots == 1 ? "" : "s", names[y], g[y].info.nboots);
		}
	for (size_t i = 0; i < n; i++)
		free(b[i]);
	free(b);
	return rc;
}

int an_group_one_origin(const struct an_group *g, const char *what, struct err *e)
{
	bool mixed = false;
	for (size_t i = 1; i < g->n && !mixed; i++)
		mixed = strcmp(g->runs[i]->source, g->runs[0]->source) || strcmp(g->runs[i]->hostname, g->runs[0]->hostname);
	if (!mixed)
		return 0;
	struct sb t = {0};
	struct strv seen = {0};
	for (size_t i = 0; i < g->n; i++) {
		char *key = xasprintf("source=%s machine=%s", g->runs[i]->source, g->runs[i]->hostname);
		if (!strv_has(&seen, key)) {
			size_t k = 0;
			for (size_t j = 0; j < g->n; j++)
				k += !strcmp(g->runs[j]->source, g->runs[i]->source) &&
				     !strcmp(g->runs[j]->hostname, g->runs[i]->hostname);
			sb_addf(&t, "%s%zu run%s with %s", seen.n ? ", " : "", k, k == 1 ? "" : "s", key);
			strv_add(&seen, key);
		}
		free(key);
	}
	errf(e, "%s holds runs of %zu origins, which sysab never pools: %s; add source=... or machine=... to the "
		"selector to pick one",
	     what, seen.n, sb_str(&t));
	sb_free(&t);
	strv_free(&seen);
	return -1;
}

/* Fill g from the runs at idx[0..n-1] (taken), without their samples. */
static void group_take(struct an_db *d, struct an_group *g, size_t *idx, size_t n, const char *name)
{
	g->idx = idx;
	g->n = n;
	g->ids = xcalloc(n, sizeof *g->ids);
	g->runs = xcalloc(n, sizeof *g->runs);
	for (size_t i = 0; i < n; i++) {
		g->ids[i] = d->runs[idx[i]].id;
		g->runs[i] = &d->runs[idx[i]];
	}
	g->info = (struct an_group_info){name, g->sel.text ? g->sel.text : "", n, an_count_boots(g->runs, n)};
}

/* Load g's set: from the runs' stored summaries when they are current (and raw is false), else
 * from the samples. Returns 0 or -1 with e set. */
static int group_set(struct an_db *d, struct an_group *g, bool raw, struct err *e)
{
	if (!raw && !d->samples && !testhooks()->samples && !d->sums_state) {
		bool ok;
		if (store_sums_load(d->st, ST_SUMMARY_METHOD, d->want, d->nwant, &d->sums, &ok, e))
			return -1;
		d->sums_state = ok && an_sums_ok(&d->sums) ? 1 : -1;
		if (d->sums_state < 0)
			store_sums_free(&d->sums);
	}
	if (!raw && d->sums_state > 0)
		return store_set_of_sums(d->st, &d->sums, g->ids, g->n, &g->set, e);
	return store_load_set(d->st, g->ids, g->n, &g->set, e);
}

/* Select the runs of text into g (an_group_select without loading the samples). */
static int group_pick(struct an_db *d, const char *text, const char *name, struct an_group *g, struct err *e)
{
	memset(g, 0, sizeof *g);
	size_t *idx, n;
	if (select_parse(text, &g->sel, e))
		return err_prefix(e, "%s", name);
	if (select_runs(&g->sel, d->runs, d->n, &idx, &n, e))
		return -1;
	if (d->nexclude) {
		size_t dropped = an_look_drop(d->exclude, d->nexclude, d->runs, idx, n);
		d->excluded += dropped;
		if (dropped == n) {
			free(idx);
			return errf(e, "%s '%s': an earlier look of this question judged every run it picks, and --fresh "
				       "judges only runs no earlier look saw; add boots first",
				    name, text);
		}
		n -= dropped;
	}
	group_take(d, g, idx, n, name);
	char *what = xasprintf("%s '%s'", name, text);
	int rc = an_group_one_origin(g, what, e);
	free(what);
	return rc;
}

int an_group_select(struct an_db *d, const char *text, const char *name, struct an_group *g, struct err *e)
{
	return group_pick(d, text, name, g, e) || group_set(d, g, false, e) ? -1 : 0;
}

/* A group of given runs, for the cells of a design. */
int an_group_of(struct an_db *d, size_t *idx, size_t n, struct an_group *g, struct err *e)
{
	memset(g, 0, sizeof *g);
	group_take(d, g, idx, n, "cell");
	return group_set(d, g, false, e);
}

void an_group_free(struct an_group *g)
{
	select_free(&g->sel);
	free(g->idx);
	free(g->ids);
	free(g->runs);
	store_set_free(&g->set);
	memset(g, 0, sizeof *g);
}

/* The campaign that sels name, as a new string; NULL when none or several (*several set). */
static char *campaign_named(const char *const *sels, size_t n, bool *several)
{
	char *name = NULL;
	*several = false;
	for (size_t i = 0; i < n; i++) {
		struct selector s;
		struct err e;
		if (select_parse(sels[i], &s, &e))
			continue; /* the job reports it */
		for (size_t t = 0; t < s.nterms; t++) {
			const char *v = s.terms[t].value;
			if (s.terms[t].kind != SEL_CAMPAIGN)
				continue;
			if (!name)
				name = xstrdup(v);
			else if (strcmp(name, v))
				*several = true;
		}
		select_free(&s);
	}
	if (*several) {
		free(name);
		name = NULL;
	}
	return name;
}

void an_campaign_look(struct store *st, const char *const *sels, size_t n, struct st_compare_opts *co,
		      struct an_look *l)
{
	memset(l, 0, sizeof *l);
	if (co->look || co->max_boots)
		return; /* given by hand: e.g. a look already counted, rendered again */
	bool several;
	char *name = campaign_named(sels, n, &several);
	if (several)
		l->note = xstrdup("the selectors name more than one campaign, so no look was counted; give --look K "
				  "--max-boots N if this is a look before they are done");
	struct store_campaign c;
	struct err e;
	if (!name || store_campaign_get(st, name, &c, &e)) {
		free(name);
		return; /* no such campaign: the selector finds no runs and says so */
	}
	free(name);
	bool done = !strcmp(c.state, "done");
	if (!done || c.looks > 0) {
		l->k = (size_t)c.looks + 1;
		l->campaign = done ? 0 : c.id;
		co->look = l->k;
		co->max_boots = (size_t)c.boots;
		l->note = xasprintf("campaign %s is %s: this is look %zu of a group-sequential design with %d boots per "
				    "configuration (docs/CAMPAIGNS.md)",
				    c.name, c.state, l->k, c.boots);
	}
	store_campaign_free(&c);
}

int an_campaign_look_count(struct store *st, struct an_look *l, struct err *e)
{
	if (!l->campaign)
		return 0;
	if (!store_writable(st)) {
		char *n = xasprintf("%s; not counted: the database is read-only", l->note);
		free(l->note);
		l->note = n;
		return 0;
	}
	return store_campaign_look(st, l->campaign, (int)l->k, e);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int an_campaign_factors(struct store *st, const char *const *sels, size_t n, struct strv *factors, char **note,
			struct err *e)
{
	*note = NULL;
	bool several;
	char *name = campaign_named(sels, n, &several);
	if (!name)
		return errf(e, "give the factors, e.g. --factors pernode,pie%s; see `sysab analyze --help`",
			    several ? " (the selectors name several campaigns, whose labels may differ)"
				    : ", or select one boot campaign with campaign:NAME to take its labels");
	struct store_campaign c;
	if (store_campaign_get(st, name, &c, e)) {
		free(name);
		return -1;
	}
	free(name);
	/* every key with at least two values among the configurations */
	struct strv keys = {0};
	struct kvlist first = {0};
	for (size_t i = 0; i < c.nconfigs; i++) {
		json_t *j = json_loads(c.configs[i].labels ? c.configs[i].labels : "{}", 0, NULL);
		const char *k;
		json_t *v;
		json_object_foreach(j, k, v)
		{
			const char *val = json_string_value(v);
			const char *was = kv_get(&first, k);
			if (!val)
				continue;
			if (!was)
				kv_add(&first, k, val);
			else if (strcmp(was, val) && !strv_has(&keys, k))
				strv_add(&keys, k);
		}
		json_decref(j);
	}
	/* runs per node (sysab run --nodes, at 2 nodes or more): node is a factor too, within boots */
	size_t nodes = 0;
	int rc = store_campaign_nodes(st, c.name, &nodes, e);
	bool by_node = nodes >= 2 && !strv_has(&keys, "node");
	if (rc) {
	} else if (!keys.n) {
		rc = errf(e, "campaign %s: its configurations do not differ in any label, so there is no factor; give "
			     "--factors%s",
			  c.name, by_node ? " (its runs are per node: --factors node)" : "");
	} else {
		qsort(keys.v, keys.n, sizeof *keys.v, str_cmp);
		struct sb b = {0};
		for (size_t i = 0; i < keys.n; i++) {
			strv_add(factors, keys.v[i]);
			sb_addf(&b, "%s%s", i ? "," : "", keys.v[i]);
		}
		if (by_node) {
			strv_add(factors, "node");
			sb_add(&b, ",node");
		}
		*note = xasprintf("factors %s: the labels that differ between the configurations of campaign %s%s", b.s,
				  c.name, by_node ? "; node kept as a factor: the runs are per node" : "");
		sb_free(&b);
	}
	kv_free(&first);
	strv_free(&keys);
	store_campaign_free(&c);
	return rc;
}

static int run_id_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* The lowest run id in both a[0..na-1] and b[0..nb-1], or 0: sorted copies, merged (a fleet's
 * groups hold 50,000 runs each). */
static int64_t common_run(const int64_t *a, size_t na, const int64_t *b, size_t nb)
{
	int64_t *x = xcalloc(na + nb + 1, sizeof *x), *y = x + na;
	memcpy(x, a, na * sizeof *x);
	memcpy(y, b, nb * sizeof *y);
	qsort(x, na, sizeof *x, run_id_cmp);
	qsort(y, nb, sizeof *y, run_id_cmp);
	int64_t both = 0;
	for (size_t i = 0, k = 0; i < na && k < nb && !both;) {
		if (x[i] == y[k])
			both = x[i];
		else if (x[i] < y[k])
			i++;
		else
			k++;
	}
	free(x);
	return both;
}

int an_checks_apply(struct store *st, const int64_t *ids, size_t n, struct an_compare *c, struct an_analyze *a,
		    const struct store_set *sets, size_t ns, bool allow, struct err *e)
{
	struct store_failed_check *f;
	size_t nf;
	if (store_failed_checks(st, ids, n, &f, &nf, e))
		return -1;
	if (c)
		an_compare_checks(c, sets, ns, f, nf, allow);
	if (a)
		an_analyze_checks(a, sets, ns, f, nf, allow);
	store_failed_checks_free(f, nf);
	return 0;
}

/* The failed self-checks of both groups withhold their rows' verdicts (an_compare_checks). */
static int compare_checks(struct an_compare_job *j, bool allow, struct err *e)
{
	size_t n = j->g[0].n + j->g[1].n;
	int64_t *ids = xcalloc(n, sizeof *ids);
	memcpy(ids, j->g[0].ids, j->g[0].n * sizeof *ids);
	if (j->g[1].n)
		memcpy(ids + j->g[0].n, j->g[1].ids, j->g[1].n * sizeof *ids);
	struct store_set sets[2] = {j->g[0].set, j->g[1].set};
	int rc = an_checks_apply(j->d.st, ids, n, &j->c, NULL, sets, j->ng, allow, e);
	free(ids);
	return rc;
}

/* Select the groups of sa and sb (sb NULL: one group) into j->g, without their samples
 * (compare_rest loads them once the pairing is known). */
static int compare_groups(struct an_compare_job *j, const char *sa, const char *sb, struct err *e)
{
	return group_pick(&j->d, sa, sb ? "A" : "runs", &j->g[0], e) ||
			       (sb && group_pick(&j->d, sb, "B", &j->g[1], e))
		       ? -1
		       : 0;
}

/* compare's runs for a look (an_look_select_fn): the groups selected into j->g with the seen
 * runs left out, their ids in the question's order (B first when its terms sort first). */
struct compare_pick {
	struct an_compare_job *j;
	const char *sa, *sb;
	bool swapped;
};

static int compare_pick_select(void *ctx, const int64_t *seen, size_t nseen, int64_t **ids, size_t *n,
			       size_t *excluded, struct err *e)
{
	struct compare_pick *p = ctx;
	struct an_compare_job *j = p->j;
	j->d.exclude = seen;
	j->d.nexclude = nseen;
	j->d.excluded = 0;
	an_group_free(&j->g[0]);
	an_group_free(&j->g[1]);
	if (compare_groups(j, p->sa, p->sb, e))
		return -1;
	for (int g = 0; g < 2; g++) {
		int q = p->swapped ? 1 - g : g;
		n[q] = j->g[g].n;
		ids[q] = xcalloc(n[q] + 1, sizeof **ids);
		memcpy(ids[q], j->g[g].ids, n[q] * sizeof **ids);
	}
	*excluded = j->d.excluded;
	return 0;
}

/* The look a comparison is (docs/METHOD.md, "Repeated looks"): its question's earlier looks,
 * --fresh's runs left out, the groups selected (into j->g) and the look decided (into *r); co
 * becomes the options to compare with (a re-read of a declared look gets its design back). */
static int compare_look(struct an_compare_job *j, const char *sa, const char *sb, const struct strv *patterns,
			const struct an_look_req *lr, struct st_compare_opts *co, struct an_look_state *ls,
			int64_t **seen, struct an_repeat *r, char fp[17], struct err *e)
{
	struct compare_pick p = {j, sa, sb, false};
	char *key = an_look_key_compare(sa, sb, patterns, co->unit, &p.swapped);
	int rc = an_look_begin(j->d.st, key, ls, e);
	free(key);
	return rc || an_look_pick(j->d.st, ls, lr, compare_pick_select, &p, 2, co, seen, r, fp, e) ? -1 : 0;
}

/* Record the look r of j (its groups, rows and runs). */
static int compare_record(struct an_compare_job *j, struct an_look_state *ls, struct an_repeat *r,
			  const char *fp, struct err *e)
{
	size_t boots[2] = {j->g[0].info.nboots, j->g[1].info.nboots}, runs[2] = {j->g[0].n, j->g[1].n};
	char *design = an_look_json_design(boots, runs, 2);
	json_t *v = json_object();
	for (size_t i = 0; i < j->c.nrows; i++)
		an_look_json_verdict(v, j->c.rows[i].workload, j->c.rows[i].copies, NULL, j->c.rows[i].c.verdict);
	char *verdicts = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(v);
	int64_t *ids = xcalloc(runs[0] + runs[1] + 1, sizeof *ids);
	memcpy(ids, j->g[0].ids, runs[0] * sizeof *ids);
	memcpy(ids + runs[0], j->g[1].ids, runs[1] * sizeof *ids);
	int rc = an_look_record(j->d.st, ls, r, fp, design, verdicts, ids, runs[0] + runs[1], e);
	free(ids);
	free(design);
	free(verdicts);
	return rc;
}

/* The rest of the job once the groups are selected: the comparison, its checks and counter rows. */
static int compare_rest(struct store *st, const char *sa, const char *sb, const struct strv *patterns,
			const struct st_compare_opts *co, bool with_env, bool allow_checks, struct an_compare_job *j,
			struct err *e)
{
	struct an_group *g = j->g;
	int64_t both = sb ? common_run(g[0].ids, g[0].n, g[1].ids, g[1].n) : 0;
	if (both)
		return errf(e, "run %lld matches both A '%s' and B '%s'; make the selectors exclusive, e.g. "
			       "with a label that differs",
			    (long long)both, sa, sb);
	static const char *const ab[2] = {"A", "B"};
	if (sb && co->unit == ST_LEVEL_RUN && an_groups_share_boots(g, ab, 2, e))
		return -1;
	j->info[0] = g[0].info;
	j->info[1] = g[1].info;
	/* the pairing, decided once from the runs: its rule says whether the samples must be raw
	 * (arms paired by round: a stored summary holds no rounds) */
	enum an_pairing pairing = sb ? an_pairing_decide(g[0].runs, g[0].n, g[1].runs, g[1].n, co->unit) : AN_PAIR_GROUPS;
	bool raw = an_pair_rule(pairing)->raw;
	int rc = 0;
	for (size_t i = 0; i < j->ng && !rc; i++)
		rc = group_set(&j->d, &g[i], raw, e);
	struct store_env env[2] = {{0}};
	struct an_cmdline_declared decl = {0};
	if (!rc)
		rc = store_env_values(st, g[0].ids, g[0].n, &env[0], e);
	if (!rc && sb)
		rc = store_env_values(st, g[1].ids, g[1].n, &env[1], e);
	/* a campaign's marker and its configurations' command lines are not confounders */
	for (size_t i = 0; i < j->ng && !rc; i++)
		rc = an_cmdline_declared_add(st, g[i].runs, g[i].n, &decl, e);
	for (size_t i = 0; i < j->ng && !rc; i++)
		an_cmdline_env_strip(&env[i], &decl);
	if (!rc) {
		const struct an_compare_in in = {&g[0].set,  sb ? &g[1].set : NULL,
						 g[0].runs,  sb ? g[1].runs : NULL,
						 g[0].n,     sb ? g[1].n : 0,
						 &env[0],    &env[1],
						 patterns,   co,
						 pairing};
		rc = an_compare(&in, &j->c, e);
	}
	if (!rc && sb) /* what the change under test explains is not listed as a confounder */
		an_confounders_explain(&j->c, g[0].runs, g[0].n, g[1].runs, g[1].n, &env[0], &env[1], &decl);
	an_cmdline_declared_free(&decl);
	store_env_free(&env[0]);
	store_env_free(&env[1]);
	if (rc || compare_checks(j, allow_checks, e))
		return -1;
	if (with_env) {
		const struct store_run_info *const *runs[2] = {g[0].runs, g[1].runs};
		size_t n[2] = {g[0].n, g[1].n};
		an_envtab_build(runs, n, j->ng, &j->env);
	}
	if (sb) { /* the counter rows: always from the samples, which hold the counts */
		struct store_set ca, cb;
		if (store_load_counter_set(st, g[0].ids, g[0].n, &ca, e))
			return -1;
		rc = store_load_counter_set(st, g[1].ids, g[1].n, &cb, e);
		if (!rc) {
			rc = an_compare_counters(&ca, &cb, &j->c, e);
			store_set_free(&cb);
		}
		store_set_free(&ca);
	}
	return rc;
}

/* s quoted for the shell (single quotes, each ' as '\''), appended to b. */
static void sh_quote(struct sb *b, const char *s)
{
	sb_add(b, "'");
	for (; *s; s++)
		sb_add(b, *s == '\'' ? "'\\''" : (char[2]){*s, 0});
	sb_add(b, "'");
}

/* The paired runs a grow needs to resolve co's margin, from the pilot A selects (the MDE's
 * paired rows): the most any row needs, at least twice the pairs so far, at most
 * AN_GROW_MAX_RUNS. */
static size_t grow_runs(struct store *st, const char *sa, const struct strv *rows, size_t pairs,
			const struct st_compare_opts *co)
{
	struct an_mde m;
	struct err e;
	struct an_mde_in in = {.boots = pairs >= 2 ? pairs : 2, .runs = 1, .alpha = co->alpha, .power = 0.8,
			       .paired = true, .from = sa, .target = co->margin, .max_boots = AN_GROW_MAX_RUNS};
	size_t n = 2 * pairs > AN_GROW_DEFAULT_RUNS ? 2 * pairs : AN_GROW_DEFAULT_RUNS;
	if (!an_mde_select(st, rows, &in, &m, &e)) {
		n = m.boots_needed ? (m.boots_needed > n ? m.boots_needed : n) : AN_GROW_MAX_RUNS;
		an_mde_free(&m);
	}
	return n < AN_GROW_MAX_RUNS ? n : AN_GROW_MAX_RUNS;
}

/* The step that fits a withheld same-boot comparison (an_repeat.next_step): for the arms of
 * paired runs, the `sysab run --arm` that grows a new design of its own from the arms' commands,
 * labels and sample settings, with the rows' workloads; for runs compared on one boot (--unit
 * run), more runs on it and --fresh. NULL for a comparison across boots. */
static char *next_step(const struct an_compare_job *j, const char *sa, const struct st_compare_opts *co)
{
	const struct an_compare *c = &j->c;
	if (c->pairing != AN_PAIR_BY_ROUND)
		return co->unit == ST_LEVEL_RUN
			       ? xstrdup("add runs on this boot and compare with --fresh, which judges only the runs no "
					 "earlier look judged (a new question)")
			       : NULL;
	const struct store_run_info *ra = j->g[0].runs[0], *rb = j->g[1].runs[0];
	if (!ra->arm || !ra->arm_cmd || !rb->arm || !rb->arm_cmd)
		return NULL;
	struct sb b = {0};
	struct strv rows = {0};
	sb_addf(&b, "sysab run --arm %s=", ra->arm);
	sh_quote(&b, ra->arm_cmd);
	sb_addf(&b, " --arm %s=", rb->arm);
	sh_quote(&b, rb->arm_cmd);
	for (size_t i = 0; i < ra->labels.n; i++) {
		const struct kv *l = &ra->labels.v[i];
		if (strcmp(l->key, "arm") && strcmp(l->key, "grow") && !strcmp(kv_get(&rb->labels, l->key) ?: "", l->value)) {
			char *t = xasprintf("%s=%s", l->key, l->value);
			sb_add(&b, " -l ");
			sh_quote(&b, t);
			free(t);
		}
	}
	for (size_t i = 0; i < c->nrows; i++)
		if (!c->rows[i].ncomposite && c->rows[i].have_a && c->rows[i].have_b &&
		    !strv_has(&rows, c->rows[i].workload)) {
			strv_add(&rows, c->rows[i].workload);
			sb_addf(&b, " -w %s", c->rows[i].workload);
		}
	json_t *so = ra->settings_obj, *cp = json_object_get(so, "copies");
	for (size_t i = 0; i < json_array_size(cp); i++) /* the copies counts the runs were asked for */
		if (json_integer_value(json_array_get(cp, i)) >= 1)
			sb_addf(&b, " -c %lld", (long long)json_integer_value(json_array_get(cp, i)));
	json_int_t n = json_integer_value(json_object_get(so, "samples"));
	json_int_t ms = json_integer_value(json_object_get(so, "sample_ns")) / 1000000;
	json_int_t wu = json_integer_value(json_object_get(so, "warmup_ns")) / 1000000;
	if (n >= 2)
		sb_addf(&b, " --samples %lld", (long long)n);
	if (ms >= 1)
		sb_addf(&b, " --sample-ms %lld", (long long)ms);
	if (json_is_integer(json_object_get(so, "warmup_ns")))
		sb_addf(&b, " --warmup-ms %lld", (long long)wu);
	if (co->margin != stats_compare_defaults().margin)
		sb_addf(&b, " --target %g%%", co->margin * 100);
	sb_addf(&b, " --until decided --max-runs %zu", grow_runs(j->d.st, sa, &rows, c->paired_rounds, co));
	strv_free(&rows);
	return b.s;
}

int an_compare_job_build(struct store *st, const char *sa, const char *sb, const struct strv *patterns,
			 const struct st_compare_opts *co, bool with_env, bool allow_checks, const struct an_look_req *lr,
			 struct an_compare_job *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	j->ng = sb ? 2 : 1;
	if (an_db_open(st, &j->d, e))
		return -1;
	j->d.samples = with_env;
	const char *texts[2] = {sa, sb};
	want_selected(&j->d, texts, sb ? 2 : 1);
	if (with_env && an_db_env(&j->d, NULL, e))
		return -1;
	if (!(lr && lr->on && sb))
		return compare_groups(j, sa, sb, e) || compare_rest(st, sa, sb, patterns, co, with_env, allow_checks, j, e)
			       ? -1
			       : 0;
	struct st_compare_opts o = *co;
	struct an_look_state ls;
	struct an_repeat r = {0};
	int64_t *seen = NULL;
	char fp[17];
	int rc = compare_look(j, sa, sb, patterns, lr, &o, &ls, &seen, &r, fp, e);
	if (!rc)
		rc = compare_rest(st, sa, sb, patterns, &o, with_env, allow_checks, j, e);
	if (!rc) {
		j->c.look = r;
		int again = 0;
		do /* 1: decided again, as another process recorded a look meanwhile */
			an_compare_repeat(&j->c);
		while ((rc = compare_record(j, &ls, &j->c.look, fp, e)) == 1 && ++again < AN_LOOK_AGAIN);
		if (rc == 1)
			rc = an_look_busy(e);
		j->c.look.same_boot = j->c.pairing == AN_PAIR_BY_ROUND || o.unit == ST_LEVEL_RUN;
		if (!rc && j->c.look.withheld && j->c.look.first_undeclared)
			j->c.look.next_step = next_step(j, sa, &o);
	}
	j->d.exclude = NULL;
	j->d.nexclude = 0;
	free(seen);
	an_look_state_free(&ls);
	return rc;
}

void an_compare_job_free(struct an_compare_job *j)
{
	an_envtab_free(&j->env);
	an_compare_free(&j->c);
	an_group_free(&j->g[0]);
	an_group_free(&j->g[1]);
	an_db_close(&j->d);
}

/* The pilot run (of groups g[0..ng)) with this uuid, or NULL. */
static const struct store_run_info *pilot_run(const struct an_group *g, size_t ng, const char *uuid)
{
	for (size_t gi = 0; gi < ng; gi++)
		for (size_t r = 0; r < g[gi].n; r++)
			if (g[gi].runs[r]->uuid && !strcmp(g[gi].runs[r]->uuid, uuid))
				return g[gi].runs[r];
	return NULL;
}

/* What a boot costs, measured: over the slots of the campaign that made most of the pilot's
 * runs, the median of each slot's time (start of its boot to its end) less its runs' own
 * times. 0 when no pilot run came from a campaign slot with both times. */
static int measured_boot(struct store *st, const struct an_group *g, size_t ng, struct an_costs *c, struct err *e)
{
	struct strv names = {0};
	if (store_campaign_names(st, &names, e))
		return -1;
	double *best = NULL;
	size_t nbest = 0;
	int rc = 0;
	for (size_t k = 0; k < names.n && !rc; k++) {
		struct store_campaign cp;
		struct store_campaign_run *cr = NULL;
		size_t ncr = 0;
		if (store_campaign_get(st, names.v[k], &cp, e) || store_campaign_runs(st, cp.id, &cr, &ncr, e)) {
			rc = -1;
			break;
		}
		/* per slot: the time of its pilot runs, and whether it has any */
		double *runs_s = xcalloc(cp.nslots + 1, sizeof *runs_s), *d = xcalloc(cp.nslots + 1, sizeof *d);
		bool *pilot = xcalloc(cp.nslots + 1, sizeof *pilot);
		for (size_t i = 0; i < ncr; i++) {
			const struct store_run_info *ri = pilot_run(g, ng, cr[i].run_uuid);
			if (ri && cr[i].slot >= 0 && (size_t)cr[i].slot < cp.nslots) {
				pilot[cr[i].slot] = true;
				if (ri->finished_ns > ri->started_ns)
					runs_s[cr[i].slot] += (double)(ri->finished_ns - ri->started_ns) / 1e9;
			}
		}
		size_t nd = 0;
		for (size_t x = 0; x < cp.nslots; x++) {
			const struct store_campaign_slot *sl = &cp.slots[x];
			size_t sk = (size_t)sl->slot;
			if (sk >= cp.nslots || !pilot[sk] || !sl->started_ns || sl->finished_ns <= sl->started_ns)
				continue;
			double slot_s = (double)(sl->finished_ns - sl->started_ns) / 1e9;
			if (slot_s > runs_s[sk])
				d[nd++] = slot_s - runs_s[sk];
		}
		free(runs_s);
		free(pilot);
		if (nd > nbest) {
			free(best);
			best = d;
			nbest = nd;
			snprintf(c->boot_campaign, sizeof c->boot_campaign, "%s", cp.name);
		} else {
			free(d);
		}
		store_campaign_runs_free(cr, ncr);
		store_campaign_free(&cp);
	}
	if (!rc && nbest) {
		c->boot = stats_median_sorting(best, nbest);
		c->boot_slots = nbest;
	}
	free(best);
	strv_free(&names);
	return rc;
}

/* A boot's cost into p (po otherwise): as given (--boot-cost), else measured on the
 * pilot's campaign (into boot), else the default. */
static int boot_cost(struct store *st, const struct an_group *g, size_t ng, const struct st_plan_opts *po,
		     struct st_plan_opts *p, struct an_costs *boot, struct err *e)
{
	memset(boot, 0, sizeof *boot);
	*p = *po;
	if (p->cost_boot <= 0 && measured_boot(st, g, ng, boot, e))
		return -1;
	boot->boot_given = p->cost_boot > 0;
	if (!boot->boot_given)
		p->cost_boot = boot->boot_slots ? boot->boot : stats_plan_defaults().cost_boot;
	return 0;
}

static void keep_boot_cost(struct an_plan *p, const struct an_costs *boot)
{
	p->costs.boot = boot->boot;
	p->costs.boot_slots = boot->boot_slots;
	p->costs.boot_given = boot->boot_given;
	memcpy(p->costs.boot_campaign, boot->boot_campaign, sizeof boot->boot_campaign);
}

int an_plan_factors_job_build(struct store *st, const struct strv *filter, const struct strv *factors,
			      const struct strv *patterns, const struct st_compare_opts *co,
			      const struct st_plan_opts *po, struct an_plan_job *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	j->factorial = true;
	struct an_analyze_job *fa = &j->fa;
	if (an_analyze_job_build(st, filter, factors, &(struct kvlist){0}, patterns, co, false, true, NULL, fa, e))
		return -1;
	const struct an_design *d = &fa->design;
	size_t want = 1;
	for (size_t k = 0; k < d->nf && !fa->an.within; k++) {
		if (d->levels[k].n != 2)
			return errf(e, "--factors: %s has %zu level%s among the runs (%s); plan --factors sizes factors of "
				       "two levels each: select two with the filter, or plan two configurations with A B",
				    factors->v[k], d->levels[k].n, d->levels[k].n == 1 ? "" : "s",
				    d->levels[k].n ? d->levels[k].v[0] : "none");
		want *= 2;
	}
	if (!fa->an.within && d->ncells != want)
		return errf(e, "--factors: the pilot has runs in %zu of the %zu cells; run every combination of the "
			       "levels at least once (a pilot of each cell), then plan",
			    d->ncells, want);
	j->info[0] = fa->info;
	j->ng = 1;
	size_t nr = 0;
	for (size_t c = 0; c < d->ncells; c++)
		nr += fa->cells[c].n;
	const struct store_run_info **all = xcalloc(nr + 1, sizeof *all);
	nr = 0;
	for (size_t c = 0; c < d->ncells; c++)
		for (size_t i = 0; i < fa->cells[c].n; i++)
			all[nr++] = fa->cells[c].runs[i];
	struct an_costs boot;
	struct st_plan_opts p;
	int rc = boot_cost(st, fa->cells, d->ncells, po, &p, &boot, e);
	if (!rc && fa->an.within)
		rc = an_plan_within(&fa->an, fa->sets, all, nr, patterns, &p, &j->p, e);
	else if (!rc)
		rc = an_plan_cells(fa->sets, d->ncells, all, nr, patterns, co, &p, &j->p, e);
	free(all);
	if (!rc) {
		keep_boot_cost(&j->p, &boot);
		struct sb t = {0};
		for (size_t k = 0; k < d->nf; k++)
			sb_addf(&t, "%s%s", k ? " x " : "", factors->v[k]);
		snprintf(j->p.factors, sizeof j->p.factors, "%s", sb_str(&t));
		sb_free(&t);
	}
	return rc;
}

int an_plan_job_build(struct store *st, const char *const *sel, size_t nsel, const struct strv *patterns,
		      const struct st_compare_opts *co, const struct st_plan_opts *po, struct an_plan_job *j,
		      struct err *e)
{
	memset(j, 0, sizeof *j);
	struct an_group *g = j->g;
	j->ng = nsel ? nsel : 1;
	if (an_db_open(st, &j->d, e))
		return -1;
	const char *every = "";
	want_selected(&j->d, nsel ? sel : &every, j->ng);
	for (size_t i = 0; i < j->ng; i++)
		if (an_group_select(&j->d, nsel ? sel[i] : "", i ? "B" : "A", &g[i], e))
			return -1;
	j->info[0] = g[0].info;
	j->info[1] = g[1].info;
	const struct store_run_info **all = xcalloc(g[0].n + g[1].n + 1, sizeof *all);
	for (size_t i = 0; i < g[0].n; i++)
		all[i] = g[0].runs[i];
	for (size_t i = 0; i < g[1].n; i++)
		all[g[0].n + i] = g[1].runs[i];
	struct an_costs boot;
	struct st_plan_opts p;
	int rc = boot_cost(st, g, j->ng, po, &p, &boot, e);
	if (!rc)
		rc = an_plan(&g[0].set, j->ng == 2 ? &g[1].set : NULL, all, g[0].n + g[1].n, patterns, co, &p, &j->p, e);
	free(all);
	if (!rc)
		keep_boot_cost(&j->p, &boot);
	return rc;
}

void an_plan_job_free(struct an_plan_job *j)
{
	an_plan_free(&j->p);
	if (j->factorial) {
		an_analyze_job_free(&j->fa);
		return;
	}
	an_group_free(&j->g[0]);
	an_group_free(&j->g[1]);
	an_db_close(&j->d);
}

int an_alloc_job_build(struct store *st, const char *from, struct an_alloc_row *rows, size_t n,
		       const struct st_alloc_opts *o, struct an_alloc_job *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	if (an_db_open(st, &j->d, e))
		return -1;
	want_selected(&j->d, &from, 1);
	if (an_group_select(&j->d, from, "--allocate", &j->g, e))
		return err_prefix(e, "--allocate %s", from);
	if (an_allocate(&j->g.set, j->g.runs, j->g.n, rows, n, o, &j->al, e))
		return -1;
	j->rec = (struct an_alloc_record){from, j->g.ids, j->g.n, rows, n, &j->al};
	return 0;
}

void an_alloc_job_free(struct an_alloc_job *j)
{
	an_group_free(&j->g);
	j->d.st = NULL; /* borrowed */
	an_db_close(&j->d);
}
