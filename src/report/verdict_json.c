/* verdict_json.c - JSON documents of compare, analyze and plan (schema in docs/FORMATS.md). */
#include "report.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *doc(const char *kind)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(d, "kind", json_string(kind));
	return d;
}

static char *dump(json_t *d)
{
	char *s = json_dumps(d, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(d);
	return s;
}

static json_t *caveats_json(unsigned bits)
{
	json_t *a = json_array();
	for (unsigned bit = 1; bit && bit <= ST_CAVEAT_LAST; bit <<= 1)
		if ((bits & bit) && report_caveat_name(bit))
			json_array_append_new(a, json_string(report_caveat_name(bit)));
	return a;
}

static json_t *group_json(const struct an_group_info *g)
{
	json_t *o = json_object();
	json_object_set_new(o, "name", json_string(g->name));
	json_object_set_new(o, "selector", json_string(g->selector));
	json_object_set_new(o, "runs", json_integer((json_int_t)g->nruns));
	json_object_set_new(o, "boots", json_integer((json_int_t)g->nboots));
	return o;
}

static json_t *display_unit(const char *unit, int latency)
{
	char buf[64];
	return json_string(report_json_unit(unit, latency, buf, sizeof buf));
}

/* The fields every row of compare and analyze starts with. */
static json_t *row_head(const char *workload, int copies, const char *unit, int latency, size_t ncomposite)
{
	json_t *o = json_object();
	json_object_set_new(o, "workload", json_string(workload));
	json_object_set_new(o, "copies", json_integer(copies));
	json_object_set_new(o, "unit", json_string(unit));
	json_object_set_new(o, "latency", json_boolean(latency));
	json_object_set_new(o, "display_unit", display_unit(unit, latency));
	json_object_set_new(o, "composite_of", json_integer((json_int_t)ncomposite));
	return o;
}

/* What an estimate rests on: its boots, runs and samples, the variance components it used,
 * and its caveats (time rows and counter rows alike). */
static void design_json(json_t *o, const struct st_estimate *e)
{
	json_object_set_new(o, "boots", json_integer((json_int_t)e->nboots));
	json_object_set_new(o, "runs", json_integer((json_int_t)e->nruns));
	json_object_set_new(o, "samples", json_integer((json_int_t)e->nsamples));
	json_object_set_new(o, "var_boot", num(e->used.var_boot));
	json_object_set_new(o, "var_run", num(e->used.var_run));
	json_object_set_new(o, "var_within", num(e->used.var_within));
	json_object_set_new(o, "caveats", caveats_json(e->caveats));
}

/* A group estimate: ops/s (SI base) and its interval, plus what the interval covers. */
static json_t *est_json(const struct st_estimate *e, const struct an_value *vp, int latency)
{
	const struct an_value v = *vp;
	json_t *o = json_object();
	json_object_set_new(o, "display_value", num(latency ? 1 / v.ops : v.ops));
	json_object_set_new(o, "ops_per_s", num(v.ops));
	json_object_set_new(o, "ci_lo_ops_per_s", num(v.lo));
	json_object_set_new(o, "ci_hi_ops_per_s", num(v.hi));
	json_object_set_new(o, "ci_rel_halfwidth", num(v.hw));
	json_object_set_new(o, "no_interval_low_df", json_boolean(v.low_df));
	json_object_set_new(o, "mean_ln", num(e->mean));
	json_object_set_new(o, "se_ln", num(e->se));
	json_object_set_new(o, "df", num(e->df));
	design_json(o, e);
	json_object_set_new(o, "need", json_string(report_need_name(e->need)));
	return o;
}

/* A verdict's replication unit: "boot" or "run" ("round" is never a verdict's unit). */
static const char *unit_name(enum st_level u)
{
	return u == ST_LEVEL_RUN ? "run" : u == ST_LEVEL_WITHIN ? "round" : "boot";
}

/* What the interval stands for: the verdict's, the runs of one boot (or one run) only where the
 * unit is not replicated (no verdict, no q, and "–" in the tables), or none. */
static json_t *scope_json(const struct st_comparison *c, const struct an_change *chg)
{
	if (chg->within)
		return json_string(c->unit == ST_LEVEL_RUN ? "within_run" : "within_boot");
	return isnan(c->lo) ? json_null() : json_string("verdict");
}

/* One comparison; q_family names the multiplicity q is adjusted for ("bh": across workloads;
 * "row_holm+bh": Holm within the row, then BH across workloads). */
static json_t *cmp_json(const struct st_comparison *c, const struct an_change *chg, const char *q_family)
{
	json_t *o = json_object();
	json_object_set_new(o, "verdict", json_string(report_verdict_name(c->verdict)));
	json_object_set_new(o, "negligible", json_boolean(c->negligible));
	json_object_set_new(o, "d_ln", num(c->d));
	json_object_set_new(o, "pct", num(c->pct));
	json_object_set_new(o, "pct_lo", num(c->pct_lo));
	json_object_set_new(o, "pct_hi", num(c->pct_hi));
	json_object_set_new(o, "pct_lo2", num(c->pct_lo2));
	json_object_set_new(o, "pct_hi2", num(c->pct_hi2));
	json_object_set_new(o, "display_pct", num(chg->pct));
	json_object_set_new(o, "display_pct_lo", num(chg->lo));
	json_object_set_new(o, "display_pct_hi", num(chg->hi));
	json_object_set_new(o, "p", num(c->p));
	json_object_set_new(o, "q", num(c->q));
	json_object_set_new(o, "adjusted_for", isnan(c->q) ? json_null() : json_string(q_family));
	json_object_set_new(o, "df", num(c->df));
	json_object_set_new(o, "alpha", num(c->alpha));
	json_object_set_new(o, "unit", json_string(unit_name(c->unit)));
	json_object_set_new(o, "interval_scope", scope_json(c, chg));
	/* The interval is adjusted for repeated looks (its level is the look's, or stage-wise where
	 * the design ends), never for multiplicity. */
	json_object_set_new(o, "interval_adjusted_for",
			    json_string((c->caveats & ST_CAVEAT_STAGEWISE)    ? "sequential_stagewise"
					: (c->caveats & ST_CAVEAT_SEQUENTIAL) ? "sequential_look"
									      : "nothing"));
	json_object_set_new(o, "caveats", caveats_json(c->caveats));
	json_object_set_new(o, "need", json_string(report_need_name(c->need)));
	return o;
}

static json_t *diag_json(const struct an_diag *d)
{
	json_t *o = json_object();
	for (int k = 0; k <= ST_WARN_AUTOCORR; k++)
		if (d->count[k]) {
			json_t *w = json_object();
			json_object_set_new(w, "count", json_integer((json_int_t)d->count[k]));
			json_object_set_new(w, "worst", num(d->worst[k]));
			json_object_set_new(o, report_warn_name(k), w);
		}
	return o;
}

/* A row's failed self-check (an_failed_check), or null when every check held. */
static json_t *failed_json(const struct an_failed_check *f)
{
	if (!f->check)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "check", json_string(f->check));
	json_object_set_new(o, "workload", json_string(f->workload));
	json_object_set_new(o, "runs", json_integer((json_int_t)f->runs));
	json_object_set_new(o, "verdict_withheld", json_boolean(f->withheld));
	return o;
}

/* Why a verdict was withheld: "later_look" (an_repeat), "failed_self_check", or null. */
static json_t *withheld_for(enum st_verdict v, bool look)
{
	if (v != ST_WITHHELD)
		return json_null();
	return json_string(look ? "later_look" : "failed_self_check");
}

/* The groups some of whose runs were emulated, appended to the array a. */
static void emulated_json(json_t *a, const char *group, const struct an_emulation *x)
{
	if (!x->any)
		return;
	json_t *o = json_object();
	json_object_set_new(o, "group", json_string(group));
	json_object_set_new(o, "how", json_string(x->how));
	json_object_set_new(o, "first_run", json_integer((json_int_t)x->first));
	json_object_set_new(o, "cpu", json_boolean(x->cpu));
	json_array_append_new(a, o);
}

/* What holds for the whole document: emulated groups and --allow-failed-checks. */
static void trust_json(json_t *d, const struct an_emulation *emu, const char *const *names, size_t n, bool allow,
		       size_t allowed)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		emulated_json(a, names[i], &emu[i]);
	json_object_set_new(d, "emulated", a);
	json_object_set_new(d, "allow_failed_checks", json_boolean(allow));
	json_object_set_new(d, "allowed_rows", json_integer((json_int_t)allowed));
}

/* A fixed design (no sequential caveat) offers no count of boots: more_boots null and
 * sequential_design false, whatever stats_more_boots said (it gives 0 to a row without
 * replication before it looks at the design). */
static void more_boots(json_t *o, const struct st_comparison *c, size_t more, enum st_verdict as)
{
	if (!(c->caveats & ST_CAVEAT_SEQUENTIAL))
		more = ST_MORE_UNPLANNED;
	bool count = more != ST_MORE_NONE && more != ST_MORE_UNPLANNED;
	json_object_set_new(o, "more_boots", count ? json_integer((json_int_t)more) : json_null());
	json_object_set_new(o, "settles_as", count && more ? json_string(report_verdict_name(as)) : json_null());
	json_object_set_new(o, "sequential_design", json_boolean(more != ST_MORE_UNPLANNED));
}

/* A counter row's group estimate: the mean count per op and its interval (linear scale). */
static json_t *count_est_json(const struct st_estimate *e, const struct an_value *v)
{
	json_t *o = json_object();
	json_object_set_new(o, "per_op", num(v->ops));
	json_object_set_new(o, "ci_lo", num(v->lo));
	json_object_set_new(o, "ci_hi", num(v->hi));
	json_object_set_new(o, "no_interval_low_df", json_boolean(v->low_df));
	json_object_set_new(o, "se", num(e->se));
	json_object_set_new(o, "df", num(e->df));
	design_json(o, e);
	return o;
}

/* The counter rows of a comparison (docs/FORMATS.md, "counters"). */
/* "change_legend": how to read the signs of the changes (report_change_legend), as the text says
 * it: of g[1] against g[0], or of each effect when g is NULL. */
static void legend_json(json_t *d, const struct an_group_info *g, unsigned kinds)
{
	struct sb b = {0};
	char vs[80];
	if (g)
		snprintf(vs, sizeof vs, "%s vs %s", g[1].name, g[0].name);
	report_change_legend(&b, g ? vs : "each effect", kinds);
	json_object_set_new(d, "change_legend", json_string(sb_str(&b)));
	sb_free(&b);
}

static json_t *counters_json(const struct an_compare *c)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->ncrows; i++) {
		const struct an_row *r = &c->crows[i];
		json_t *o = json_object();
		json_object_set_new(o, "workload", json_string(r->workload));
		json_object_set_new(o, "copies", json_integer(r->copies));
		json_object_set_new(o, "event", json_string(r->event));
		json_object_set_new(o, "a", count_est_json(&r->a, &r->va));
		json_object_set_new(o, "b", count_est_json(&r->b, &r->vb));
		json_object_set_new(o, "diff", num(r->c.d));
		json_object_set_new(o, "diff_lo", num(r->c.lo));
		json_object_set_new(o, "diff_hi", num(r->c.hi));
		json_object_set_new(o, "rel_change", num(r->rel));
		json_object_set_new(o, "p", num(r->c.p));
		json_object_set_new(o, "q", num(r->c.q));
		json_object_set_new(o, "interval_scope", scope_json(&r->c, &r->chg));
		json_object_set_new(o, "df", num(r->c.df));
		json_object_set_new(o, "alpha", num(r->c.alpha));
		json_object_set_new(o, "unit", json_string(unit_name(r->c.unit)));
		json_object_set_new(o, "caveats", caveats_json(r->c.caveats));
		json_object_set_new(o, "verdict", json_string(report_counter_verdict_name(&r->c)));
		json_array_append_new(a, o);
	}
	return a;
}

/* --adjust host: what the adjustment did to a row (docs/FORMATS.md), or null without it. */
static json_t *host_adjust_json(const struct st_adjust *x)
{
	static const char *const status[] = {
		[ST_ADJ_APPLIED] = "adjusted", [ST_ADJ_NO_REF] = "no_reference", [ST_ADJ_FEW] = "too_few_runs",
		[ST_ADJ_REF_DIFFERS] = "reference_differs"};
	if (x->status == ST_ADJ_OFF)
		return json_null();
	json_t *o = json_object();
	json_object_set_new(o, "status", json_string(status[x->status]));
	json_object_set_new(o, "slope_from", x->level == ST_ADJ_WITHIN_BOOTS    ? json_string("runs_within_boots")
					     : x->level == ST_ADJ_BETWEEN_BOOTS ? json_string("boots_within_groups")
										: json_null());
	json_object_set_new(o, "beta", num(x->beta));
	json_object_set_new(o, "beta_se", num(x->se_beta));
	json_object_set_new(o, "beta_df", num(x->df_beta));
	json_object_set_new(o, "r2", num(x->r2));
	json_object_set_new(o, "reference_pct", num(x->ref_pct));
	json_object_set_new(o, "reference_p", num(x->ref_p));
	return o;
}

char *report_compare_json(const struct an_compare *c, const struct an_group_info g[2])
{
	json_t *d = doc("compare");
	json_object_set_new(d, "a", group_json(&g[0]));
	json_object_set_new(d, "b", group_json(&g[1]));
	json_object_set_new(d, "alpha", json_real(c->o.alpha));
	json_object_set_new(d, "margin", json_real(c->o.margin));
	json_object_set_new(d, "adjust", c->o.host_adjust ? json_string("host") : json_null());
	json_object_set_new(d, "pairing", json_string(an_pair_rule(c->pairing)->name));
	json_t *rows = json_array();
	for (size_t i = 0; i < c->nrows; i++) {
		const struct an_row *r = &c->rows[i];
		json_t *o = row_head(r->workload, r->copies, r->unit, r->latency, r->ncomposite);
		json_object_set_new(o, "a", r->have_a ? est_json(&r->a, &r->va, r->latency) : json_null());
		json_object_set_new(o, "b", r->have_b ? est_json(&r->b, &r->vb, r->latency) : json_null());
		if (r->have_a && r->have_b) {
			json_t *cj = cmp_json(&r->c, &r->chg, "bh");
			if (r->c.verdict == ST_INCONCLUSIVE)
				more_boots(cj, &r->c, r->more_boots, r->settles_as);
			json_object_set_new(o, "comparison", cj);
		} else {
			json_object_set_new(o, "comparison", json_null());
		}
		json_object_set_new(o, "verdict", json_string(report_verdict_name(r->c.verdict)));
		json_object_set_new(o, "withheld_for", withheld_for(r->c.verdict, r->look_withheld));
		json_object_set_new(o, "host_adjust", host_adjust_json(&r->adj));
		json_object_set_new(o, "failed_check", failed_json(&r->failed));
		json_t *w = json_object();
		json_object_set_new(w, "a", diag_json(&r->diag_a));
		json_object_set_new(w, "b", diag_json(&r->diag_b));
		json_object_set_new(o, "warnings", w);
		json_array_append_new(rows, o);
	}
	json_object_set_new(d, "rows", rows);
	if (c->ngroups == 2)
		legend_json(d, g, c->change_kinds);
	if (c->ncrows) /* absent without counter rows, as in databases without counts */
		json_object_set_new(d, "counters", counters_json(c));
	json_t *cf = json_array();
	for (size_t i = 0; i < c->nconf; i++) {
		json_t *o = json_object();
		json_object_set_new(o, "key", json_string(c->conf[i].key));
		json_object_set_new(o, "a", json_string(c->conf[i].a));
		json_object_set_new(o, "b", json_string(c->conf[i].b));
		static const char *const impact[] = {"high", "medium", "low"};
		static const char *const how[] = {NULL, "label", "campaign", "kernel_cmdline"};
		json_object_set_new(o, "impact", json_string(impact[c->conf[i].impact]));
		json_object_set_new(o, "explained_by",
				    c->conf[i].explained_by ? json_string(c->conf[i].explained_by) : json_null());
		json_object_set_new(o, "explained_as",
				    how[c->conf[i].explained] ? json_string(how[c->conf[i].explained]) : json_null());
		json_array_append_new(cf, o);
	}
	json_object_set_new(d, "confounders", cf);
	json_object_set_new(d, "confounders_checked", json_boolean(!c->env_missing));
	const char *names[2] = {g[0].name, g[1].name};
	trust_json(d, c->emu, names, c->ngroups, c->allow_failed_checks, c->allowed_rows);
	json_object_set_new(d, "look", report_look_json(&c->look));
	return dump(d);
}

/* Long by design: the analyze record's members one after another (docs/FORMATS.md), a few lines each. */
char *report_analyze_json(const struct an_analyze *a, const struct an_group_info *filter)
{
	json_t *d = doc("analyze");
	json_object_set_new(d, "runs", group_json(filter));
	json_object_set_new(d, "alpha", json_real(a->o.alpha));
	json_object_set_new(d, "margin", json_real(a->o.margin));
	json_object_set_new(d, "adjust", a->o.host_adjust ? json_string("host") : json_null());
	json_t *fs = json_array();
	for (size_t f = 0; f < a->nfactors; f++) {
		json_t *o = json_object(), *lv = json_array();
		json_object_set_new(o, "name", json_string(a->factors[f].name));
		for (size_t l = 0; l < a->factors[f].nlevels; l++)
			json_array_append_new(lv, json_string(a->factors[f].levels[l]));
		json_object_set_new(o, "levels", lv);
		json_object_set_new(o, "within_boot", json_boolean(a->within >> f & 1u));
		json_object_set_new(o, "within_some_boots", json_boolean(a->mixed >> f & 1u));
		json_array_append_new(fs, o);
	}
	json_object_set_new(d, "factors", fs);
	json_t *rows = json_array();
	for (size_t i = 0; i < a->nrows; i++) {
		const struct an_frow *r = &a->rows[i];
		json_t *o = row_head(r->workload, r->copies, r->unit, r->latency, r->ncomposite);
		json_t *cells = json_array();
		for (size_t c = 0; c < a->ncells; c++) {
			json_t *cj = json_object(), *lv = json_object();
			for (size_t f = 0; f < a->nfactors; f++)
				json_object_set_new(lv, a->factors[f].name,
						    json_string(a->factors[f].levels[a->cell_level[c * a->nfactors + f]]));
			json_object_set_new(cj, "levels", lv);
			json_object_set_new(cj, "estimate", r->have[c] ? est_json(&r->est[c], &r->val[c], r->latency) : json_null());
			json_array_append_new(cells, cj);
		}
		json_object_set_new(o, "cells", cells);
		json_t *miss = json_array();
		for (size_t m = 0; m < r->fa.nmissing; m++) {
			json_t *lv = json_object();
			for (size_t f = 0; f < a->nfactors; f++)
				json_object_set_new(lv, a->factors[f].name,
						    json_string(a->factors[f].levels[r->fa.missing[m * a->nfactors + f]]));
			json_array_append_new(miss, lv);
		}
		json_object_set_new(o, "missing_cells", miss);
		json_t *wb = json_null();
		if (a->within) {
			json_t *inc = json_array();
			wb = json_object();
			for (size_t x = 0; x < r->nincomplete; x++)
				json_array_append_new(inc, json_integer((json_int_t)r->incomplete[x]));
			json_object_set_new(wb, "boots", json_integer((json_int_t)r->nwboots));
			json_object_set_new(wb, "incomplete_boots", inc);
		}
		json_object_set_new(o, "within_boot", wb);
		json_t *effs = json_array();
		for (size_t k = 0; k < r->fa.neffects; k++) {
			const struct st_effect *ef = &r->fa.effects[k];
			json_t *e = json_object();
			static const char *const kinds[] = {"main", "interaction", "level", "simple"};
			const struct st_factor *f1 = &a->factors[ef->factor], *f2 = &a->factors[ef->factor2];
			bool two = ef->kind == ST_EFFECT_INTERACTION || ef->kind == ST_EFFECT_SIMPLE;
			/* the level an effect names: of its factor (level), of factor2 (simple), of the
			 * interaction's factor with more than 2 levels */
			const char *lvl = ef->kind == ST_EFFECT_LEVEL	 ? f1->levels[ef->level]
					  : ef->kind == ST_EFFECT_SIMPLE ? f2->levels[ef->level]
					  : ef->kind == ST_EFFECT_INTERACTION && f1->nlevels > 2 ? f1->levels[ef->level]
					  : ef->kind == ST_EFFECT_INTERACTION && f2->nlevels > 2 ? f2->levels[ef->level]
												 : NULL;
			json_object_set_new(e, "kind", json_string(kinds[ef->kind]));
			json_object_set_new(e, "factor", json_string(f1->name));
			json_object_set_new(e, "factor2", two ? json_string(f2->name) : json_null());
			json_object_set_new(e, "level", lvl ? json_string(lvl) : json_null());
			json_object_set_new(e, "paired", json_boolean(ef->paired));
			if (a->within) {
				json_object_set_new(e, "boots", json_integer((json_int_t)ef->boots));
				json_object_set_new(e, "boots_left_out", json_integer((json_int_t)ef->left_out));
			}
			json_object_set_new(e, "available", json_boolean(ef->available));
			/* a point estimate without an interval: why (its display_pct is the estimate) */
			json_object_set_new(e, "no_interval",
					    an_effect_point_only(ef) ? json_string(a->why_no_interval) : json_null());
			json_object_set_new(e, "comparison", cmp_json(&ef->c, &r->chg[k], "row_holm+bh"));
			json_object_set_new(e, "verdict", json_string(report_verdict_name(ef->c.verdict)));
			json_object_set_new(e, "withheld_for", withheld_for(ef->c.verdict, r->look_withheld));
			json_array_append_new(effs, e);
		}
		json_object_set_new(o, "effects", effs);
		json_object_set_new(o, "host_adjust", host_adjust_json(&r->adj));
		json_object_set_new(o, "failed_check", failed_json(&r->failed));
		json_array_append_new(rows, o);
	}
	json_object_set_new(d, "rows", rows);
	legend_json(d, NULL, a->change_kinds);
	json_t *settle = json_object();
	json_object_set_new(settle, "any_interval", json_boolean(a->any_interval));
	json_object_set_new(settle, "max_boots_per_cell", json_integer((json_int_t)a->max_boots));
	json_object_set_new(settle, "max_runs_per_boot", json_integer((json_int_t)a->max_runs));
	json_object_set_new(settle, "need", json_string(a->any_interval ? "nothing" : report_need_name(a->need)));
	json_object_set_new(settle, "points_only", json_boolean(a->points_only));
	json_object_set_new(settle, "why_no_interval", *a->why_no_interval ? json_string(a->why_no_interval) : json_null());
	json_object_set_new(d, "data", settle);
	trust_json(d, &a->emu, &filter->name, 1, a->allow_failed_checks, a->allowed_rows);
	json_object_set_new(d, "look", report_look_json(&a->look));
	return dump(d);
}

/* The boot and run levels among ST_BIT(level) bits, as ["boot", "run"]. */
static json_t *levels_json(unsigned bits)
{
	json_t *a = json_array();
	if (bits & ST_BIT(ST_LEVEL_BOOT))
		json_array_append_new(a, json_string("boot"));
	if (bits & ST_BIT(ST_LEVEL_RUN))
		json_array_append_new(a, json_string("run"));
	return a;
}

/* Long by design: the plan record's members one after another (docs/FORMATS.md), a few lines each. */
char *report_plan_json(const struct an_plan *p, const struct an_group_info *g, size_t ng,
		       const struct study_line *line, const struct an_mde *mde)
{
	json_t *d = doc("plan");
	json_t *gs = json_array();
	for (size_t i = 0; i < ng; i++)
		json_array_append_new(gs, group_json(&g[i]));
	json_object_set_new(d, "groups", gs);
	json_object_set_new(d, "target", json_real(p->po.target));
	if (p->ncells) {
		json_object_set_new(d, "factors", json_string(p->factors));
		json_object_set_new(d, "cells", json_integer((json_int_t)p->ncells));
	}
	if (p->nwithin) {
		json_t *w = json_object(), *cmds = json_array();
		json_object_set_new(w, "factors", json_string(p->within));
		json_object_set_new(w, "combinations", json_integer((json_int_t)p->nwithin));
		for (size_t gi = 0; gi < p->ncells; gi++) {
			json_t *a = json_array();
			json_array_append_new(a, json_string("sysab"));
			for (size_t x = 0; x < p->run_args[gi].n; x++)
				json_array_append_new(a, json_string(p->run_args[gi].v[x]));
			json_array_append_new(cmds, a);
		}
		json_object_set_new(w, "run_per_boot", cmds);
		json_object_set_new(d, "within_boot", w);
	}
	json_object_set_new(d, "alpha", json_real(p->po.alpha));
	json_object_set_new(d, "power", json_real(p->po.power));
	json_t *c = json_object();
	json_object_set_new(c, "boot_s", json_real(p->po.cost_boot));
	json_object_set_new(c, "boot_source", json_string(p->costs.boot_given ? "given" : p->costs.boot_slots ? "measured" : "assumed"));
	if (p->costs.boot_slots) {
		json_object_set_new(c, "boot_campaign", json_string(p->costs.boot_campaign));
		json_object_set_new(c, "boot_slots", json_integer((json_int_t)p->costs.boot_slots));
	}
	json_object_set_new(c, "run_s", json_real(p->po.cost_run));
	json_object_set_new(c, "run_measured", json_boolean(p->costs.run_measured));
	json_object_set_new(c, "round_s", json_real(p->po.cost_sample));
	json_object_set_new(c, "sample_measured", json_boolean(p->costs.sample_measured));
	json_object_set_new(d, "costs", c);
	json_t *rows = json_array();
	for (size_t i = 0; i < p->nrows; i++) {
		const struct an_prow *r = &p->rows[i];
		json_t *o = json_object();
		json_object_set_new(o, "workload", json_string(r->workload));
		json_object_set_new(o, "copies", json_integer(r->copies));
		json_object_set_new(o, "composite_of", json_integer((json_int_t)r->ncomposite));
		json_object_set_new(o, "have_data", json_boolean(r->have));
		json_object_set_new(o, "sample_s", json_real(r->cost_sample));
		if (r->have) {
			json_object_set_new(o, "feasible", json_boolean(r->plan.feasible));
			json_object_set_new(o, "boots", json_integer((json_int_t)r->plan.boots));
			json_object_set_new(o, "runs_per_boot", json_integer((json_int_t)r->plan.runs));
			json_object_set_new(o, "samples_per_run", json_integer((json_int_t)r->plan.samples));
			json_object_set_new(o, "time_s", num(r->plan.cost));
			json_object_set_new(o, "expected_rel_halfwidth", num(r->plan.halfwidth));
			json_object_set_new(o, "kj_runs_per_boot", num(r->plan.kj_runs));
			json_object_set_new(o, "kj_samples_per_run", num(r->plan.kj_samples));
			json_object_set_new(o, "caveats", caveats_json(r->plan.caveats));
			json_object_set_new(o, "assurance", num(r->plan.assurance));
			json_object_set_new(o, "unsized_levels", levels_json(r->plan.unsized));
			json_object_set_new(o, "whole_bound_levels", levels_json(r->plan.whole));
			json_object_set_new(o, "assurance_df", r->plan.plan_df > 0 ? num(r->plan.plan_df) : json_null());
			json_object_set_new(o, "pilot_boots_needed",
					    r->plan.unsized ? json_integer((json_int_t)r->plan.pilot_boots) : json_null());
			if (p->ncells) { /* within-boot plans: the within-boot effects alone */
				json_t *mj = json_object();
				json_object_set_new(mj, "feasible", json_boolean(r->plan_main.feasible));
				json_object_set_new(mj, "boots", json_integer((json_int_t)r->plan_main.boots));
				json_object_set_new(mj, "runs_per_boot", json_integer((json_int_t)r->plan_main.runs));
				json_object_set_new(mj, "samples_per_run", json_integer((json_int_t)r->plan_main.samples));
				json_object_set_new(mj, "time_s", num(r->plan_main.cost));
				json_object_set_new(o, "main_effects_only", mj);
			}
			if (r->compared) {
				json_t *cj = cmp_json(&r->c, &r->chg, "bh");
				if (r->c.verdict == ST_INCONCLUSIVE)
					more_boots(cj, &r->c, r->more_boots, r->settles_as);
				json_object_set_new(o, "comparison", cj);
			}
		}
		json_array_append_new(rows, o);
	}
	json_object_set_new(d, "rows", rows);
	if (p->two_groups && ng == 2)
		legend_json(d, g, p->change_kinds);
	json_t *all = json_object();
	json_object_set_new(all, "boots", json_integer((json_int_t)p->boots));
	json_object_set_new(all, "runs_per_boot", json_integer((json_int_t)p->runs));
	json_object_set_new(all, "samples_per_run", json_integer((json_int_t)p->samples));
	json_object_set_new(all, "time_s", num(p->total_s));
	json_object_set_new(all, "infeasible_rows", json_integer((json_int_t)p->infeasible));
	json_object_set_new(d, "all", all);
	if (line) {
		json_t *o = json_object();
		report_study_line_json(o, line);
		json_object_set_new(d, "campaign_line", o);
	}
	if (mde)
		json_object_set_new(d, "mde", report_mde_json(mde));
	return dump(d);
}
