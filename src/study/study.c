/* study.c - the campaign that carries out a design: a plan's campaign line, the campaigns of history --confirm. */
#include "study.h"
#include "analysis/select.h"
#include "campaign/campaign.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { STUDY_MAXCFG = 64 }; /* configurations one line boots */

static const char *const why_words[] = {
	[STUDY_LINE_OK] = "ok",
	[STUDY_NAMES_UNREADABLE] = "campaigns-unreadable",
	[STUDY_NAME_TAKEN] = "name-taken",
	[STUDY_NO_CONFIGS] = "no-configurations",
	[STUDY_NO_LABELS] = "no-labels",
	[STUDY_UNREADABLE] = "campaign-unreadable",
	[STUDY_NOT_BOOTED] = "not-booted",
	[STUDY_AMBIGUOUS] = "ambiguous",
	[STUDY_ONE_CONFIG] = "one-configuration",
	[STUDY_BACKENDS_DIFFER] = "backends-differ",
	[STUDY_UNIXBENCH] = "unixbench",
	[STUDY_NO_DESIGN] = "no-design",
	[STUDY_TIME_ORDER] = "time-order",
};

const char *study_why_word(enum study_why w)
{
	return (unsigned)w < sizeof why_words / sizeof *why_words && why_words[w] ? why_words[w] : "?";
}

void study_line_free(struct study_line *l)
{
	if (!l)
		return;
	free(l->name);
	free(l->source);
	strv_free(&l->argv);
	free(l->line);
	free(l->why);
	if (l->bisect) {
		free(l->bisect->good);
		free(l->bisect->bad);
		strv_free(&l->bisect->series);
		free(l->bisect->series_file);
		strv_free(&l->bisect->argv);
		free(l->bisect->line);
		free(l->bisect->why);
		free(l->bisect);
	}
	memset(l, 0, sizeof *l);
}

/* No line: kind and its words (a new string, taken). */
static void no_line(struct study_line *out, enum study_why kind, char *why)
{
	out->why_kind = kind;
	out->why = why;
}

/* The line that boots configuration cfg[i] of src[i] (i < n) as src[i] did, with the runs of
 * src[0] given workloads (NULL: its own), copies (0: its own) and samples, and with nodes
 * --nodes (all when src[0]'s runs lack it): out's name,
 * source, argv and line. */
static void make_line(const char *name, const char *db, const struct campaign *const *src, const size_t *cfg,
		      size_t n, size_t boots, size_t runs, size_t samples, const struct strv *workloads, int copies,
		      bool nodes, struct study_line *out)
{
	struct strv args = {0};
	if (nodes && !campaign_runs_nodes(&src[0]->run_args)) {
		strv_add(&args, "--nodes");
		strv_add(&args, "all");
	}
	campaign_run_args_with(&src[0]->run_args, workloads, copies, samples, &args);
	campaign_new_command(name, db, src, cfg, n, (int)boots, (int)runs, &args, &out->argv, &out->line);
	strv_free(&args);
	out->name = xstrdup(name);
	out->source = xstrdup(src[0]->r.name);
	out->nconfigs = n;
	out->why_kind = STUDY_LINE_OK;
}

/* The first i > 0 whose backend differs from src[0]'s, or 0 when one backend boots all. */
static size_t other_backend(const struct campaign *const *src, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(src[i]->r.backend, src[0]->r.backend))
			return i;
	return 0;
}

/* A selector's label terms into terms, and its first campaign:NAME into *only (borrowed
 * from s, or NULL). */
static void config_terms(const struct selector *s, struct kvlist *terms, const char **only)
{
	*only = NULL;
	for (size_t i = 0; i < s->nterms; i++) {
		const struct sel_term *t = &s->terms[i];
		if (t->kind == SEL_CAMPAIGN && !*only)
			*only = t->value;
		else if (t->kind == SEL_LABEL)
			kv_add(terms, t->key, t->value);
	}
}

/* The configurations d's selectors name, found among the campaigns names: src[k] (pointing
 * into loaded, *nloaded of them to free) and cfg[k]. Returns the count, or 0 with out's
 * reason set. */
static size_t design_configs(struct store *st, const struct study_design *d, const struct strv *names,
			     struct campaign *loaded, size_t *nloaded, const struct campaign **src, size_t *cfg,
			     struct study_line *out)
{
	*nloaded = 0;
	if (!d->nconfigs) {
		no_line(out, STUDY_NO_CONFIGS,
			xstrdup("the pilot is every run, which names no configuration; give the pilot's configurations as "
				"selectors (A and B, or campaign:NAME)"));
		return 0;
	}
	size_t n = 0;
	for (size_t i = 0; i < d->nconfigs && !out->why; i++) {
		const char *sel = d->configs[i];
		struct selector s = {0};
		struct kvlist terms = {0};
		const char *only = NULL;
		struct err e;
		if (!select_parse(sel, &s, &e))
			config_terms(&s, &terms, &only);
		size_t nmatch = 0, k;
		struct campaign *c = &loaded[*nloaded];
		if (!terms.n && only && d->nconfigs == 1) {
			if (!campaign_find_config(st, names, only, &terms, c, &k, &nmatch))
				no_line(out, STUDY_UNREADABLE,
					xasprintf("campaign %s cannot be read (see `sysab campaign show %s`)", only, only));
			else
				for (++*nloaded; n < c->r.nconfigs && n < STUDY_MAXCFG; n++) {
					src[n] = c;
					cfg[n] = n;
				}
		} else if (!terms.n) {
			no_line(out, STUDY_NO_LABELS,
				xasprintf("selector '%s' names no configuration (no KEY=VALUE label); give one per "
					  "configuration", sel));
		} else if (!campaign_find_config(st, names, only, &terms, c, &k, &nmatch)) {
			no_line(out, STUDY_NOT_BOOTED,
				xasprintf("no campaign%s%s booted a configuration labelled '%s', so how to boot it is "
					  "unknown; run the pilot as a campaign, or give `sysab campaign new` its --config, "
					  "and --kernel/--append, --entry or --command",
					  only ? " named " : "", only ? only : "", sel));
		} else if (nmatch > 1) {
			no_line(out, STUDY_AMBIGUOUS,
				xasprintf("'%s' matches %zu configurations of campaign %s; add the label that tells them "
					  "apart", sel, nmatch, c->r.name));
			campaign_free(c);
		} else if (n < STUDY_MAXCFG) {
			++*nloaded;
			src[n] = c;
			cfg[n++] = k;
		} else {
			campaign_free(c);
		}
		kv_free(&terms);
		select_free(&s);
	}
	if (!out->why && n == 1)
		no_line(out, STUDY_ONE_CONFIG,
			xstrdup("the plan compares A with another configuration like it; give that configuration as "
				"selector B, so the line boots both"));
	size_t o = out->why ? 0 : other_backend(src, n);
	if (o)
		no_line(out, STUDY_BACKENDS_DIFFER,
			xasprintf("%s was booted by the %s backend and %s by %s; one campaign boots every configuration "
				  "the same way", src[0]->r.name, src[0]->r.backend, src[o]->r.name, src[o]->r.backend));
	return out->why ? 0 : n;
}

void study_design_line(struct store *st, const struct study_design *d, struct study_line *out)
{
	memset(out, 0, sizeof *out);
	out->boots = d->boots;
	out->runs = d->runs;
	out->samples = d->samples;
	struct strv names = {0};
	struct err e;
	if (store_campaign_names(st, &names, &e))
		no_line(out, STUDY_NAMES_UNREADABLE, xasprintf("the campaigns cannot be read: %s", e.msg));
	if (!out->why && strv_has(&names, d->name))
		no_line(out, STUDY_NAME_TAKEN, xasprintf("a campaign named %s exists; give another name to --campaign",
							  d->name));
	struct campaign *loaded = xcalloc(d->nconfigs, sizeof *loaded);
	const struct campaign *src[STUDY_MAXCFG];
	size_t cfg[STUDY_MAXCFG], nloaded = 0, n = 0;
	if (!out->why)
		n = design_configs(st, d, &names, loaded, &nloaded, src, cfg, out);
	if (!out->why && campaign_runs_unixbench(&src[0]->run_args) && !d->samples_fixed)
		no_line(out, STUDY_UNIXBENCH,
			xasprintf("campaign %s ran UnixBench (run --unixbench), whose command fixes the passes per run; "
				  "give --samples N (its Run's -i) so the plan sizes boots and runs alone",
				  src[0]->r.name));
	if (!out->why && !d->boots)
		no_line(out, STUDY_NO_DESIGN, xstrdup("no design meets the target (see above)"));
	if (!out->why)
		make_line(d->name, d->db, src, cfg, n, d->boots, d->runs, d->samples,
			  d->workloads && d->workloads->n ? d->workloads : NULL, d->copies, d->nodes, out);
	for (size_t i = 0; i < nloaded; i++)
		campaign_free(&loaded[i]);
	free(loaded);
	strv_free(&names);
}

/* Whether factor "node" of job fa is the runs' own: every kept run labelled with it ran
 * per node (sysab run --nodes, which labels node=K itself), so no configuration names it. */
static bool node_is_runs(const struct an_analyze_job *fa, const struct strv *factors, size_t k)
{
	if (strcmp(factors->v[k], "node"))
		return false;
	size_t labelled = 0;
	for (size_t i = 0; i < fa->nidx; i++) {
		const struct store_run_info *r = &fa->d.runs[fa->idx[i]];
		if (!kv_get(&r->labels, "node"))
			continue;
		if (!r->on_node)
			return false;
		labelled++;
	}
	return labelled > 0;
}

/* A selector per configuration of a factorial: the filter's words and the cell's levels of
 * the factors the configurations carry (a per-node factor, node_is_runs, is left to the runs:
 * the cells that differ only in it are one configuration). *nodes: such a factor was left. */
static void cell_selectors(const struct an_analyze_job *fa, const struct strv *factors, const struct strv *filter,
			   struct strv *out, bool *nodes)
{
	const struct an_design *d = &fa->design;
	*nodes = false;
	for (size_t k = 0; k < d->nf; k++)
		*nodes |= node_is_runs(fa, factors, k);
	for (size_t c = 0; c < d->ncells; c++) {
		struct sb t = {0};
		for (size_t i = 0; i < filter->n; i++)
			sb_addf(&t, "%s ", filter->v[i]);
		bool first = true;
		for (size_t k = 0; k < d->nf; k++) {
			if (*nodes && !strcmp(factors->v[k], "node"))
				continue;
			sb_addf(&t, "%s%s=%s", first ? "" : " ", factors->v[k], d->levels[k].v[d->cell_level[c * d->nf + k]]);
			first = false;
		}
		if (!strv_has(out, sb_str(&t)))
			strv_add(out, sb_str(&t));
		sb_free(&t);
	}
}

void study_plan_line(const struct an_plan_job *j, const struct strv *sels, const struct strv *factors,
		     const struct strv *patterns, const char *name, const char *db, struct study_line *out)
{
	struct strv cells = {0};
	bool nodes = false;
	if (j->factorial)
		cell_selectors(&j->fa, factors, sels, &cells, &nodes);
	const struct strv *configs = j->factorial ? &cells : sels;
	const struct an_plan *p = &j->p;
	struct study_design d = {
		.name = name,
		.db = db,
		.configs = (const char *const *)configs->v,
		.nconfigs = configs->n,
		.boots = p->boots,
		.runs = p->runs,
		.samples = p->samples,
		.workloads = patterns,
		.samples_fixed = p->po.min_samples == p->po.max_samples,
		.nodes = nodes,
	};
	study_design_line(j->factorial ? j->fa.d.st : j->d.st, &d, out);
	strv_free(&cells);
}

/* A campaign name not taken yet: WHAT-BY-BEFORE-AFTER with other characters as '_',
 * and -2, -3, ... when taken. */
static char *confirm_name(const struct strv *names, const char *what, const char *by, const char *before,
			  const char *after)
{
	char *base = xasprintf("%s-%.16s-%.20s-%.20s", what, by, before, after);
	for (char *p = base; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			*p = '_';
	char *name = xstrdup(base);
	for (int k = 2; strv_has(names, name); k++) {
		free(name);
		name = xasprintf("%s-%d", base, k);
	}
	free(base);
	return name;
}

/* A configuration of a bisection: its --by value (borrowed from the campaign), and the
 * campaign (an index into the loaded ones) and configuration that boot it. */
struct span_cfg {
	const char *value;
	size_t camp, k;
};

static int span_cmp(const void *x, const void *y)
{
	return an_version_cmp(((const struct span_cfg *)x)->value, ((const struct span_cfg *)y)->value);
}

/* Whether value v is among cf[0..n). */
static bool span_has(const struct span_cfg *cf, size_t n, const char *v)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(cf[i].value, v))
			return true;
	return false;
}

/* The bisection history --confirm offers for change c of h (out->bisect, left NULL when its
 * ends are adjacent): from the last boot before the change's location interval to the first
 * after it, every --by value that the history's boots there hold or that a configuration of
 * a campaign of src's backend carries, in version order, each booted as the newest such
 * campaign booted it; the line as the campaign line out runs (its run arguments). names:
 * the campaigns to look in (names not stored are skipped). */
static void bisect_offer(struct store *st, const struct strv *names, const char *db, const struct an_history *h,
			 const struct an_history_change *c, const struct campaign *src, struct study_line *out)
{
	if (!c->c || !h->nboots || c->c->index_lo > c->c->index_hi || !h->boots[0].value)
		return; /* no interval over boots with values: nothing to bisect */
	size_t lo = c->c->index_lo ? c->c->index_lo - 1 : 0;
	size_t hi = c->c->index_hi < h->nboots ? c->c->index_hi : h->nboots - 1;
	const char *good = h->boots[lo].value, *bad = h->boots[hi].value;
	struct campaign *loaded = xcalloc(names->n + 1, sizeof *loaded);
	struct span_cfg *cf = NULL;
	size_t nl = 0, ncf = 0;
	for (size_t i = names->n; i-- > 0;) { /* newest first: it boots a value taken by several */
		struct campaign *cp = &loaded[nl];
		struct err e;
		if (campaign_load(st, names->v[i], cp, &e))
			continue;
		bool used = false;
		for (size_t k = 0; !strcmp(cp->r.backend, src->r.backend) && k < cp->r.nconfigs; k++) {
			const char *v = kv_get(&cp->labels[k], h->by);
			if (!v || an_version_cmp(v, good) < 0 || an_version_cmp(v, bad) > 0 || span_has(cf, ncf, v))
				continue;
			cf = xrealloc(cf, (ncf + 1) * sizeof *cf);
			cf[ncf++] = (struct span_cfg){v, nl, k};
			used = true;
		}
		if (used)
			nl++;
		else
			campaign_free(cp);
	}
	qsort(cf, ncf, sizeof *cf, span_cmp);
	struct strv missing = {0}; /* values the history holds there that no campaign boots */
	for (size_t i = lo; i <= hi; i++)
		if (!span_has(cf, ncf, h->boots[i].value) && !strv_has(&missing, h->boots[i].value))
			strv_add(&missing, h->boots[i].value);
	size_t all = ncf + missing.n;
	if (all > 2) {
		struct study_bisect_offer *b = out->bisect = xcalloc(1, sizeof *b);
		b->good = xstrdup(good);
		b->bad = xstrdup(bad);
		b->between = all - 2;
		if (missing.n) {
			b->why = xasprintf("no campaign of the %s backend booted %s=%s, so its line of the series is "
					   "unknown; boot it in a campaign, or write the series file by hand "
					   "(examples/bisect-series.txt)",
					   src->r.backend, h->by, missing.v[0]);
		} else {
			for (size_t i = 0; i < ncf; i++) {
				char *l = campaign_series_line(&loaded[cf[i].camp], cf[i].k);
				strv_add(&b->series, l);
				free(l);
			}
			char *name = confirm_name(names, "bisect", h->by, good, bad);
			b->series_file = xasprintf("%s.series", name);
			campaign_bisect_command(name, db, src, b->series_file, b->series.n, &out->argv, &b->argv, &b->line);
			free(name);
		}
	}
	strv_free(&missing);
	free(cf);
	for (size_t i = 0; i < nl; i++)
		campaign_free(&loaded[i]);
	free(loaded);
}

/* The confirming campaign of change c of h into *out; names holds the campaigns taken
 * (its name is added). */
static void confirm_line(struct store *st, const char *db, const struct an_history *h,
			 const struct an_history_change *c, struct strv *names, struct study_line *out)
{
	out->boots = c->confirm.boots;
	out->runs = c->confirm.runs;
	out->samples = c->confirm.samples;
	if (!strcmp(h->by, "time")) {
		no_line(out, STUDY_TIME_ORDER,
			xstrdup("the boots are in time order, so nothing names how to boot either side; order them by "
				"the label that names the configuration (--by kernel)"));
		return;
	}
	struct campaign src[2];
	size_t cfg[2];
	const char *side[2] = {c->label_before, c->label_after};
	int found = 0;
	for (; found < 2; found++) {
		struct kvlist term = {0};
		size_t nmatch;
		kv_add(&term, h->by, side[found]);
		bool ok = campaign_find_config(st, names, NULL, &term, &src[found], &cfg[found], &nmatch);
		kv_free(&term);
		if (!ok)
			break;
	}
	const struct campaign *srcs[2] = {&src[0], &src[1]};
	if (found < 2) {
		no_line(out, STUDY_NOT_BOOTED,
			xasprintf("no campaign booted %s=%s, so how to boot it is unknown; give it to `sysab campaign "
				  "new` with --config '%s=%s' and --kernel/--append, --entry or --command",
				  h->by, side[found], h->by, side[found]));
	} else if (other_backend(srcs, 2)) {
		no_line(out, STUDY_BACKENDS_DIFFER,
			xasprintf("%s=%s was booted with the %s backend and %s=%s with %s; one campaign boots both sides "
				  "the same way",
				  h->by, side[0], src[0].r.backend, h->by, side[1], src[1].r.backend));
	} else if (campaign_runs_unixbench(&src[0].run_args)) {
		no_line(out, STUDY_UNIXBENCH,
			xasprintf("%s=%s was measured by UnixBench (run --unixbench), whose command fixes the passes per "
				  "run; size the campaign with `sysab plan "
				  "'%s=%s' '%s=%s' --samples N --campaign NAME` (N: its Run's -i)",
				  h->by, side[0], h->by, side[0], h->by, side[1]));
	} else {
		char *name = confirm_name(names, "confirm", h->by, side[0], side[1]);
		strv_add(names, name);
		struct strv wl = {0};
		strv_add(&wl, h->workload);
		make_line(name, db, srcs, cfg, 2, c->confirm.boots, c->confirm.runs, c->confirm.samples, &wl, h->copies,
			  false, out);
		strv_free(&wl);
		bisect_offer(st, names, db, h, c, &src[0], out);
		free(name);
	}
	for (int k = 0; k < found; k++)
		campaign_free(&src[k]);
}

void study_confirm_lines(struct store *st, const char *db, const struct an_history *h, struct study_line *out)
{
	struct strv names = {0};
	struct err e;
	if (store_campaign_names(st, &names, &e)) /* none readable: every side is "not booted" */
		strv_free(&names);
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		memset(&out[i], 0, sizeof out[i]);
		if (c->confirm_planned && c->confirm.feasible)
			confirm_line(st, db, h, c, &names, &out[i]);
	}
	strv_free(&names);
}
