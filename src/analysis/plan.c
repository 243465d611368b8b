/* plan.c - plans: how many runs or boots a row needs, for comparisons and factorial designs. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- plan */

/* Mean seconds per sample of one series (0 when nothing was timed). */
double an_series_sample_cost(const struct store_series *x)
{
	double t = 0;
	size_t n = 0;
	for (size_t b = 0; x && b < x->nboots; b++)
		for (size_t r = 0; r < x->boots[b].nruns; r++) {
			t += x->boots[b].runs[r].elapsed_s;
			n += x->boots[b].runs[r].n;
		}
	return n ? t / (double)n : 0;
}

/* A run's id and the sums of its series' sample time, for run_overhead. */
struct run_time {
	int64_t id;
	double smp;
	size_t nser;
};

static int run_time_cmp(const void *a, const void *b)
{
	int64_t x = ((const struct run_time *)a)->id, y = ((const struct run_time *)b)->id;
	return x < y ? -1 : x > y;
}

/* Per run: duration minus the time of its samples, shared among its series. One pass over
 * the series (each run's time summed in the same order as a walk per run would). */
double an_run_overhead(const struct store_set *sets, size_t ns, const struct store_run_info *const *runs,
		       size_t nruns)
{
	struct run_time *t = xcalloc(nruns, sizeof *t);
	for (size_t i = 0; i < nruns; i++)
		t[i].id = runs[i]->id;
	qsort(t, nruns, sizeof *t, run_time_cmp);
	for (size_t s = 0; s < ns; s++)
		for (size_t j = 0; j < sets[s].nseries; j++) {
			const struct store_series *x = &sets[s].series[j];
			for (size_t b = 0; b < x->nboots; b++)
				for (size_t r = 0; r < x->boots[b].nruns; r++) {
					struct run_time key = {.id = x->boots[b].runs[r].run};
					struct run_time *rt = bsearch(&key, t, nruns, sizeof *t, run_time_cmp);
					if (rt) {
						rt->smp += x->boots[b].runs[r].elapsed_s;
						rt->nser++;
					}
				}
		}
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < nruns; i++) {
		const struct store_run_info *ri = runs[i];
		if (!ri->finished_ns || ri->finished_ns <= ri->started_ns)
			continue;
		struct run_time key = {.id = ri->id};
		const struct run_time *rt = bsearch(&key, t, nruns, sizeof *t, run_time_cmp);
		double dur = (double)(ri->finished_ns - ri->started_ns) * 1e-9;
		if (rt->nser && dur > rt->smp) {
			sum += (dur - rt->smp) / (double)rt->nser;
			n++;
		}
	}
	free(t);
	return n ? sum / (double)n : 0;
}

/* Seconds per sample of a row: the series' own, averaged over the sets; a composite costs
 * one sample of each of its workloads. */
static double row_sample_cost(const struct store_set *sets, size_t ns, const struct rowkey *k)
{
	double cs = 0;
	for (size_t s = 0; s < ns; s++) {
		double c = 0;
		if (k->ncomp)
			for (size_t w = 0; w < k->ncomp; w++)
				c += an_series_sample_cost(store_set_find(&sets[s], k->comp->workload[w], k->copies));
		else
			c = an_series_sample_cost(store_set_find(&sets[s], k->workload, k->copies));
		cs += c / (double)ns;
	}
	return cs;
}

static void plan_design(struct an_plan *out, const struct rowkey *k, size_t nk);

/* One row's plan from its data in each set: two groups (compared), one against a copy of
 * itself, or the cells of a two-level factorial (every effect's contrast). */
static int plan_row(const struct store_set *sets, size_t ns, bool factorial, const struct rowkey *k,
		    const struct st_compare_opts *co, const struct st_plan_opts *p, struct an_prow *r, struct err *e)
{
	struct gdata *gd = xcalloc(ns, sizeof *gd);
	bool all = true;
	for (size_t c = 0; c < ns; c++) {
		an_gdata_row(&sets[c], k, &gd[c]);
		all = all && gd[c].have;
	}
	int rc = 0;
	if (all) {
		struct st_group *g = xcalloc(ns, sizeof *g);
		struct st_estimate *est = xcalloc(ns < 2 ? 2 : ns, sizeof *est);
		for (size_t c = 0; c < ns; c++)
			g[c] = gd[c].g;
		if (stats_estimate_groups(g, ns, est, e)) {
			err_prefix(e, "%s", r->workload);
			rc = -1;
		} else {
			struct st_components ca = est[0].used, cb = ns == 1 ? est[0].used : est[1].used, cm;
			if (factorial) {
				/* In a 2^k factorial a main effect's coefficients are +-2/n on every cell and
				 * the k-way interaction's (a difference of differences, as analyze has it)
				 * +-1: the interaction needs four times a main effect's variance per factor
				 * beyond the first. The row plans for every effect; main effects alone too. */
				struct st_components *u = xcalloc(ns, sizeof *u);
				for (size_t c = 0; c < ns; c++)
					u[c] = est[c].used;
				stats_components_contrast(u, ns, 1, &ca);
				stats_components_contrast(u, ns, 4.0 / ((double)ns * (double)ns), &cm);
				cb = ca;
				free(u);
				if (stats_plan(&cm, &cm, p, &r->plan_main, e))
					rc = -1;
				r->plan_main.cost *= (double)ns / 2;
			}
			r->comp_a = ca;
			r->comp_b = cb;
			if (factorial)
				r->comp_main = cm;
			if (rc || stats_plan(&ca, &cb, p, &r->plan, e)) {
				rc = -1;
			} else {
				r->have = true;
				if (factorial)
					r->plan.cost *= (double)ns / 2;
				if (ns == 2 && !factorial) {
					r->compared = true;
					stats_compare(&est[0], &est[1], co, &r->c);
					an_change_of(&r->c, r->latency, &r->chg);
					if (r->c.verdict == ST_INCONCLUSIVE)
						r->more_boots = stats_more_boots(&est[0], &est[1], &r->c, co, &r->settles_as);
				}
			}
		}
		free(g);
		free(est);
	}
	for (size_t c = 0; c < ns; c++)
		an_gdata_free(&gd[c]);
	free(gd);
	return rc;
}

static int plan_row_within(const struct an_analyze *a, const struct rowkey *k, const struct st_plan_opts *p,
			      struct an_prow *r, struct err *e);
static void plan_within_args(const struct an_analyze *a, struct an_plan *out);

/* The MDE that out's design (every row at once) reaches per row of two groups or a factorial,
 * from the components each row planned from (an_prow.have_mde); none without a design of 2 or
 * more boots. */
static void plan_mde(struct an_plan *out)
{
	if (out->boots < 2 || !out->runs || !out->samples)
		return;
	for (size_t i = 0; i < out->nrows; i++) {
		struct an_prow *r = &out->rows[i];
		struct err e;
		if (!r->have)
			continue;
		r->have_mde = !stats_mde(&r->comp_a, &r->comp_b, out->boots, out->runs, out->samples, out->po.alpha,
					 AN_PLAN_MDE_POWER, 0, 0, &r->mde, &e) &&
			      (!out->ncells || !stats_mde(&r->comp_main, &r->comp_main, out->boots, out->runs, out->samples,
							  out->po.alpha, AN_PLAN_MDE_POWER, 0, 0, &r->mde_main, &e));
	}
}

/* wa: a finished analysis whose within-boot factors the plan pairs (NULL: none). */
static int plan_sets(const struct store_set *sets, size_t ns, bool factorial, const struct an_analyze *wa,
		     const struct store_run_info *const *runs, size_t nruns, const struct strv *patterns,
		     const struct st_compare_opts *co, const struct st_plan_opts *po, struct an_plan *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->po = *po;
	out->two_groups = ns == 2 && !factorial;
	out->ncells = factorial ? ns : 0;
	struct rowkey *k;
	size_t nk;
	if (an_make_rows(sets, ns, patterns, &k, &nk, e))
		return -1;
	out->costs.run = an_run_overhead(sets, ns, runs, nruns);
	out->costs.run_measured = out->costs.run > 0;
	out->rows = xcalloc(nk, sizeof *out->rows);
	double round = 0;
	int rc = 0;
	for (size_t i = 0; i < nk && !rc; i++) {
		struct an_prow *r = &out->rows[out->nrows++];
		r->workload = xstrdup(k[i].workload);
		r->copies = k[i].copies;
		r->ncomposite = k[i].ncomp;
		r->latency = k[i].latency;
		out->change_kinds |= k[i].latency ? AN_CHG_TIME : AN_CHG_RATE;
		double cs = row_sample_cost(sets, ns, &k[i]);
		if (!k[i].ncomp)
			round += cs;
		/* The cost as used: given, else measured, else 1 s (so the JSON shows what was assumed). */
		r->cost_sample = po->cost_sample > 0 ? po->cost_sample : cs > 0 ? cs : AN_PLAN_SAMPLE_COST_S;
		struct st_plan_opts p = *po;
		p.cost_sample = r->cost_sample;
		p.cost_run = po->cost_run > 0 ? po->cost_run : out->costs.run > 0 ? out->costs.run : AN_PLAN_RUN_COST_S;
		rc = wa ? plan_row_within(wa, &k[i], &p, r, e) : plan_row(sets, ns, factorial, &k[i], co, &p, r, e);
	}
	out->costs.round = round;
	out->costs.sample_measured = round > 0;
	out->po.cost_run = po->cost_run > 0 ? po->cost_run : out->costs.run > 0 ? out->costs.run : AN_PLAN_RUN_COST_S;
	out->po.cost_sample = po->cost_sample > 0 ? po->cost_sample : round > 0 ? round : AN_PLAN_SAMPLE_COST_S;
	if (wa && !rc)
		plan_within_args(wa, out);
	plan_design(out, k, nk);
	if (!wa && !rc && (out->two_groups || factorial))
		plan_mde(out);
	an_keys_free(k, nk);
	if (rc)
		an_plan_free(out);
	return rc;
}

int an_plan(const struct store_set *a, const struct store_set *b, const struct store_run_info *const *runs,
	    size_t nruns, const struct strv *patterns, const struct st_compare_opts *co,
	    const struct st_plan_opts *po, struct an_plan *out, struct err *e)
{
	struct store_set sets[2] = {*a, b ? *b : *a};
	return plan_sets(sets, b ? 2 : 1, false, NULL, runs, nruns, patterns, co, po, out, e);
}

int an_plan_cells(const struct store_set *cells, size_t ncells, const struct store_run_info *const *runs,
		  size_t nruns, const struct strv *patterns, const struct st_compare_opts *co,
		  const struct st_plan_opts *po, struct an_plan *out, struct err *e)
{
	return plan_sets(cells, ncells, true, NULL, runs, nruns, patterns, co, po, out, e);
}

/* The row of a matching key k, or NULL. */
static const struct an_frow *frow_of(const struct an_analyze *a, const struct rowkey *k)
{
	for (size_t i = 0; i < a->nrows; i++)
		if (!strcmp(a->rows[i].workload, k->workload) && a->rows[i].copies == k->copies)
			return &a->rows[i];
	return NULL;
}

/* The largest boots any of row r's paired effects of the kinds asked for needs (interactions,
 * or effects of the within-boot factors alone) into pl; false when it has none. */
static int plan_paired_max(const struct an_analyze *a, const struct an_frow *r, bool interactions,
			   const struct st_plan_opts *p, struct st_plan *pl, bool *any, struct err *e)
{
	*any = false;
	memset(pl, 0, sizeof *pl);
	for (size_t k = 0; k < r->fa.neffects; k++) {
		const struct st_effect *ef = &r->fa.effects[k];
		bool ix = ef->kind == ST_EFFECT_INTERACTION && !((a->within >> ef->factor & 1u) &&
								 (a->within >> ef->factor2 & 1u));
		if (!ef->paired || ix != interactions)
			continue;
		struct st_plan x;
		if (stats_plan_paired(ef->rep_var, ef->rep_df, ef->rep_w, p, &x, e))
			return -1;
		/* the worst effect: an unsized or infeasible one first, then the most boots */
		bool worse = !*any || (x.unsized && !pl->unsized) ||
			     (!!x.unsized == !!pl->unsized && ((!x.feasible && pl->feasible) ||
							       (x.feasible == pl->feasible && x.boots > pl->boots)));
		if (worse)
			*pl = x;
		*any = true;
	}
	return 0;
}

/* One row of a within-boot plan: the pilot's runs per within-boot combination of a boot and
 * samples per run, the boots for the interactions and for the within-boot effects alone. */
static int plan_row_within(const struct an_analyze *a, const struct rowkey *k, const struct st_plan_opts *p,
			      struct an_prow *r, struct err *e)
{
	const struct an_frow *fr = frow_of(a, k);
	if (!fr)
		return 0;
	double runs = 1, samples = 1;
	for (size_t c = 0; c < a->ncells; c++)
		if (fr->have[c]) {
			runs = fr->est[c].runs_per_boot > runs ? fr->est[c].runs_per_boot : runs;
			samples = fr->est[c].samples_per_run > samples ? fr->est[c].samples_per_run : samples;
		}
	size_t nr = (size_t)ceil(runs - 1e-9), ns = (size_t)ceil(samples - 1e-9);
	bool any, anym;
	if (plan_paired_max(a, fr, true, p, &r->plan, &any, e) || plan_paired_max(a, fr, false, p, &r->plan_main, &anym, e))
		return -1;
	if (!any) /* no between-boot factor: the within-boot effects are the plan */
		r->plan = r->plan_main;
	size_t nb, nw, g, w;
	stats_within_split(a->factors, a->nfactors, a->within, a->cell_level, &g, &w, &nb, &nw);
	double boot = p->cost_boot + (double)nw * (double)nr * (p->cost_run + (double)ns * p->cost_sample);
	struct st_plan *pl[2] = {&r->plan, &r->plan_main};
	for (int i = 0; i < 2; i++) {
		pl[i]->runs = nr;
		pl[i]->samples = ns;
		pl[i]->cost = (double)nb * (double)pl[i]->boots * boot;
	}
	r->have = any || anym;
	return 0;
}

/* The `sysab run` arguments of one boot of each between-boot combination: with the one
 * within-boot factor node (as `sysab run --nodes all` labels its runs), --nodes all; else one
 * line per within-boot combination is needed, and the line labels the first (the report says
 * to repeat it for each). */
static void plan_within_args(const struct an_analyze *a, struct an_plan *out)
{
	size_t nb, nw, g, w;
	stats_within_split(a->factors, a->nfactors, a->within, a->cell_level, &g, &w, &nb, &nw);
	out->ncells = nb;
	out->nwithin = nw;
	struct sb names = {0};
	bool node = false;
	for (size_t i = 0; i < a->nfactors; i++)
		if (a->within >> i & 1u) {
			sb_addf(&names, "%s%s", names.len ? " x " : "", a->factors[i].name);
			node = !strcmp(a->factors[i].name, "node") && a->within == 1u << i;
		}
	snprintf(out->within, sizeof out->within, "%s", sb_str(&names));
	sb_free(&names);
	size_t samples = 0;
	for (size_t i = 0; i < out->nrows; i++)
		if (out->rows[i].have && out->rows[i].plan.samples > samples)
			samples = out->rows[i].plan.samples;
	out->run_args = xcalloc(nb, sizeof *out->run_args);
	size_t *lv = xcalloc(a->nfactors, sizeof *lv);
	for (size_t gi = 0; gi < nb; gi++) {
		/* the levels of combination gi: the first cell that has them */
		bool found = false;
		for (size_t c = 0; c < a->ncells && !found; c++) {
			stats_within_split(a->factors, a->nfactors, a->within, &a->cell_level[c * a->nfactors], &g, &w, NULL,
					   NULL);
			if (g == gi && (node || w == 0)) {
				memcpy(lv, &a->cell_level[c * a->nfactors], a->nfactors * sizeof *lv);
				found = true;
			}
		}
		struct strv *v = &out->run_args[gi];
		strv_add(v, "run");
		if (node)
			strv_add(v, "--nodes");
		if (node)
			strv_add(v, "all");
		for (size_t i = 0; i < a->nfactors && found; i++) {
			if (node && (a->within >> i & 1u))
				continue;
			struct sb t = {0};
			sb_addf(&t, "%s=%s", a->factors[i].name, a->factors[i].levels[lv[i]]);
			strv_add(v, "-l");
			strv_add(v, sb_str(&t));
			sb_free(&t);
		}
		if (samples >= 2) {
			char n[32];
			snprintf(n, sizeof n, "%zu", samples);
			strv_add(v, "--samples");
			strv_add(v, n);
		}
		for (size_t i = 0; i < out->nrows; i++)
			if (out->rows[i].have && !out->rows[i].ncomposite) {
				strv_add(v, "-w");
				strv_add(v, out->rows[i].workload);
			}
	}
	free(lv);
}

int an_plan_within(const struct an_analyze *a, const struct store_set *cells, const struct store_run_info *const *runs,
		   size_t nruns, const struct strv *patterns, const struct st_plan_opts *po, struct an_plan *out,
		   struct err *e)
{
	struct st_compare_opts co = a->o;
	return plan_sets(cells, a->ncells, true, a, runs, nruns, patterns, &co, po, out, e);
}

/* One design for all rows: the largest of each count over the feasible rows; a run then
 * measures every (workload, copies), so a sample costs a round. */
static void plan_design(struct an_plan *out, const struct rowkey *k, size_t nk)
{
	for (size_t i = 0; i < out->nrows; i++) {
		const struct an_prow *r = &out->rows[i];
		if (!r->have)
			continue;
		if (!r->plan.feasible) {
			out->infeasible++;
			continue;
		}
		if (r->plan.boots > out->boots)
			out->boots = r->plan.boots;
		if (r->plan.runs > out->runs)
			out->runs = r->plan.runs;
		if (r->plan.samples > out->samples)
			out->samples = r->plan.samples;
	}
	size_t nplain = 0;
	for (size_t i = 0; i < nk; i++)
		nplain += !k[i].ncomp;
	double nw = out->nwithin ? (double)out->nwithin : 1; /* a within-boot plan: each boot runs them all */
	if (out->boots)
		out->total_s = (out->ncells ? (double)out->ncells : 2.0) * (double)out->boots *
			       (out->po.cost_boot + nw * (double)out->runs * (out->po.cost_run * (double)(nplain ? nplain : 1) +
									      (double)out->samples * out->po.cost_sample));
}

void an_plan_free(struct an_plan *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrows; i++)
		free(p->rows[i].workload);
	free(p->rows);
	for (size_t g = 0; g < p->ncells && p->run_args; g++)
		strv_free(&p->run_args[g]);
	free(p->run_args);
	memset(p, 0, sizeof *p);
}

void an_effect_label(char *buf, size_t size, const struct an_analyze *a, const struct st_effect *ef)
{
	const struct st_factor *f = &a->factors[ef->factor];
	switch (ef->kind) {
	case ST_EFFECT_MAIN:
		snprintf(buf, size, "%s: %s vs %s", f->name, f->levels[1], f->levels[0]);
		break;
	case ST_EFFECT_INTERACTION: {
		const struct st_factor *f2 = &a->factors[ef->factor2];
		const struct st_factor *many = f->nlevels > 2 ? f : f2->nlevels > 2 ? f2 : NULL;
		if (many)
			snprintf(buf, size, "%s x %s: %s vs %s", f->name, f2->name, many->levels[ef->level],
				 many->levels[0]);
		else
			snprintf(buf, size, "%s x %s", f->name, f2->name);
		break;
	}
	case ST_EFFECT_SIMPLE: /* its levels are those of the factor's main effect, just above it */
		snprintf(buf, size, "%s at %s=%s", f->name, a->factors[ef->factor2].name,
			 a->factors[ef->factor2].levels[ef->level]);
		break;
	case ST_EFFECT_LEVEL:
		snprintf(buf, size, "%s: %s vs %s", f->name, f->levels[ef->level], f->levels[0]);
		break;
	}
}

void an_cell_label(struct sb *b, const struct an_analyze *a, size_t c)
{
	for (size_t f = 0; f < a->nfactors; f++)
		sb_addf(b, "%s%s=%s", f ? " " : "", a->factors[f].name,
			a->factors[f].levels[a->cell_level[c * a->nfactors + f]]);
}
