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

/* A campaign name not taken yet: confirm-BY-BEFORE-AFTER with other characters as '_',
 * and -2, -3, ... when taken. */
static char *confirm_name(const struct strv *names, const char *by, const char *before, const char *after)
{
	char *base = xasprintf("confirm-%.16s-%.20s-%.20s", by, before, after);
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
		char *name = confirm_name(names, h->by, side[0], side[1]);
		strv_add(names, name);
		struct strv wl = {0};
		strv_add(&wl, h->workload);
		make_line(name, db, srcs, cfg, 2, c->confirm.boots, c->confirm.runs, c->confirm.samples, &wl, h->copies,
			  false, out);
		strv_free(&wl);
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
