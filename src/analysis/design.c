/* design.c - a factorial design: factor levels, reference levels (--ref) and cells, and the analyze job. */
#include "analysis/job.h"

#include <jansson.h>

#include <stdlib.h>
#include <string.h>

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Keep in idx the runs that carry every factor; error when a factor is on no run at all. */
static int keep_labelled(const struct store_run_info *runs, size_t *idx, size_t n, const struct strv *factors,
			 size_t *kept, struct err *e)
{
	for (size_t k = 0; k < factors->n; k++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = select_label(&runs[idx[i]], factors->v[k]) != NULL;
		if (!any) {
			struct strv keys = {0};
			for (size_t i = 0; i < n; i++)
				for (size_t l = 0; l < runs[idx[i]].labels.n; l++)
					if (!strv_has(&keys, runs[idx[i]].labels.v[l].key))
						strv_add(&keys, runs[idx[i]].labels.v[l].key);
			const char *best = typo_of(factors->v[k], (const char *const *)keys.v, keys.n);
			errf(e, "factor '%s': no selected run has a label '%s'%s%s%s; `sysab list` shows the labels",
			     factors->v[k], factors->v[k], best ? " (did you mean " : "", best ? best : "", best ? "?)" : "");
			strv_free(&keys);
			return -1;
		}
	}
	size_t m = 0;
	for (size_t i = 0; i < n; i++) {
		bool all = true;
		for (size_t k = 0; k < factors->n && all; k++)
			all = select_label(&runs[idx[i]], factors->v[k]) != NULL;
		if (all)
			idx[m++] = idx[i];
	}
	*kept = m;
	return 0;
}

/* The sorted levels of each factor among the kept runs; a factor needs two. */
static int find_levels(const struct store_run_info *runs, const size_t *idx, size_t kept, const struct strv *factors,
		       struct strv *levels, struct err *e)
{
	for (size_t k = 0; k < factors->n; k++) {
		for (size_t i = 0; i < kept; i++) {
			const char *v = select_label(&runs[idx[i]], factors->v[k]);
			if (!strv_has(&levels[k], v))
				strv_add(&levels[k], v);
		}
		if (!levels[k].n)
			return errf(e, "factor '%s': no selected run carries all the factors' labels; `sysab list` shows "
				       "the labels",
				    factors->v[k]);
		if (levels[k].n < 2)
			return errf(e, "factor '%s' has one level (%s) among the selected runs; a factor needs two levels, "
				       "so label runs of the other configuration too or drop the factor",
				    factors->v[k], levels[k].v[0]);
		qsort(levels[k].v, levels[k].n, sizeof *levels[k].v, str_cmp);
	}
	return 0;
}

/* Move each --ref level to the front of its factor's levels. */
static int apply_refs(const struct strv *factors, const struct kvlist *refs, struct strv *levels, struct err *e)
{
	for (size_t r = 0; r < refs->n; r++) {
		size_t k = 0;
		while (k < factors->n && strcmp(factors->v[k], refs->v[r].key))
			k++;
		if (k == factors->n)
			return errf(e, "--ref %s=%s: '%s' is not one of the factors", refs->v[r].key, refs->v[r].value,
				    refs->v[r].key);
		size_t l = 0;
		while (l < levels[k].n && strcmp(levels[k].v[l], refs->v[r].value))
			l++;
		if (l == levels[k].n)
			return errf(e, "--ref %s=%s: no selected run has that level; the levels are %s%s%s",
				    refs->v[r].key, refs->v[r].value, levels[k].v[0], levels[k].n > 1 ? ", " : "",
				    levels[k].n > 1 ? levels[k].v[1] : "");
		char *t = levels[k].v[l];
		memmove(&levels[k].v[1], &levels[k].v[0], l * sizeof *levels[k].v);
		levels[k].v[0] = t;
	}
	return 0;
}

/* The cells: the distinct level combinations of the kept runs, in order of first appearance. */
static void find_cells(const struct store_run_info *runs, const size_t *idx, size_t kept, const struct strv *factors,
		       struct an_design *d)
{
	size_t nf = d->nf;
	d->run_cell = xcalloc(kept, sizeof *d->run_cell);
	d->cell_level = xcalloc((kept ? kept : 1) * nf, sizeof *d->cell_level);
	size_t *lv = xcalloc(nf, sizeof *lv);
	for (size_t i = 0; i < kept; i++) {
		for (size_t k = 0; k < nf; k++) {
			const char *v = select_label(&runs[idx[i]], factors->v[k]);
			size_t l = 0;
			while (strcmp(d->levels[k].v[l], v))
				l++;
			lv[k] = l;
		}
		size_t c = 0;
		while (c < d->ncells && memcmp(&d->cell_level[c * nf], lv, nf * sizeof *lv))
			c++;
		if (c == d->ncells)
			memcpy(&d->cell_level[d->ncells++ * nf], lv, nf * sizeof *lv);
		d->run_cell[i] = c;
	}
	free(lv);
}

int an_design_build(const struct store_run_info *runs, size_t *idx, size_t n, const struct strv *factors,
		    const struct kvlist *refs, struct an_design *d, size_t *kept, struct err *e)
{
	memset(d, 0, sizeof *d);
	d->nf = factors->n;
	d->levels = xcalloc(d->nf, sizeof *d->levels);
	if (keep_labelled(runs, idx, n, factors, kept, e) || find_levels(runs, idx, *kept, factors, d->levels, e) ||
	    apply_refs(factors, refs, d->levels, e))
		return -1;
	d->f = xcalloc(d->nf, sizeof *d->f);
	for (size_t k = 0; k < d->nf; k++)
		d->f[k] = (struct st_factor){factors->v[k], (const char *const *)d->levels[k].v, d->levels[k].n};
	find_cells(runs, idx, *kept, factors, d);
	return 0;
}

void an_design_free(struct an_design *d)
{
	free(d->run_cell);
	free(d->cell_level);
	free(d->f);
	for (size_t k = 0; d->levels && k < d->nf; k++)
		strv_free(&d->levels[k]);
	free(d->levels);
	memset(d, 0, sizeof *d);
}

/* The look an analysis is: decided once its runs are selected (analyze_look). */
struct look_ctx {
	const struct an_look_req *lr;
	const struct an_look_state *ls;
	int64_t *seen;
	int64_t *ids; /* the runs it judges (those fingerprinted) */
	size_t nids;
	struct an_repeat r;
	char fp[17];
};

/* analyze's runs for a look (an_look_select_fn): the selected runs (orig) with the seen runs
 * left out, into j->idx and lc->ids. */
struct analyze_pick {
	struct an_analyze_job *j;
	struct look_ctx *lc;
	size_t *orig, norig;
};

static int analyze_pick_select(void *ctx, const int64_t *seen, size_t nseen, int64_t **ids, size_t *n,
			       size_t *excluded, struct err *e)
{
	struct analyze_pick *p = ctx;
	struct an_analyze_job *j = p->j;
	memcpy(j->idx, p->orig, p->norig * sizeof *p->orig);
	j->nidx = p->norig;
	*excluded = seen ? an_look_drop(seen, nseen, j->d.runs, j->idx, j->nidx) : 0;
	j->nidx -= *excluded;
	if (!j->nidx && *excluded)
		return errf(e, "an earlier look of this question judged every run the filter picks, and --fresh "
			       "judges only runs no earlier look saw; add boots first");
	free(p->lc->ids);
	p->lc->ids = xcalloc(j->nidx + 1, sizeof *p->lc->ids);
	for (size_t i = 0; i < j->nidx; i++)
		p->lc->ids[i] = j->d.runs[j->idx[i]].id;
	p->lc->nids = j->nidx;
	n[0] = j->nidx;
	ids[0] = xcalloc(n[0] + 1, sizeof **ids);
	memcpy(ids[0], p->lc->ids, n[0] * sizeof **ids);
	return 0;
}

/* Leave out what --fresh leaves out of the selected runs j->idx, decide the look into lc
 * and the options to analyze with into co (a re-read of a declared look gets its design back). */
static int analyze_look(struct an_analyze_job *j, struct look_ctx *lc, struct st_compare_opts *co, struct err *e)
{
	struct analyze_pick p = {j, lc, xcalloc(j->nidx + 1, sizeof *p.orig), j->nidx};
	memcpy(p.orig, j->idx, p.norig * sizeof *p.orig);
	int rc = an_look_pick(j->d.st, lc->ls, lc->lr, analyze_pick_select, &p, 1, co, &lc->seen, &lc->r, lc->fp, e);
	free(p.orig);
	return rc;
}

/* Long by design: the steps of one design (cells, factors, loads, the look), each needing the one before. */
static int analyze_build(struct store *st, const struct strv *filter, const struct strv *factors,
			 const struct kvlist *refs, const struct strv *patterns, const struct st_compare_opts *co_in,
			 bool with_env, bool allow_checks, struct look_ctx *lc, struct an_analyze_job *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	struct st_compare_opts look_co = *co_in, *co = &look_co;
	j->d.st = st;
	if (!factors->n)
		return errf(e, "give the factors, e.g. --factors pernode,pie; see `sysab analyze --help`");
	struct sb text = {0};
	for (size_t i = 0; i < filter->n; i++)
		sb_addf(&text, "%s%s", i ? " " : "", filter->v[i]);
	int prc = select_parse(sb_str(&text), &j->sel, e);
	sb_free(&text);
	/* the noise levels need one key of the environment; the page's table all of it */
	if (prc || an_db_open(st, &j->d, e) || an_db_env(&j->d, with_env ? NULL : "noise.level", e))
		return -1;
	j->d.samples = with_env;
	if (select_runs(&j->sel, j->d.runs, j->d.n, &j->idx, &j->nidx, e) || (lc && analyze_look(j, lc, co, e)) ||
	    an_design_build(j->d.runs, j->idx, j->nidx, factors, refs, &j->design, &j->kept, e))
		return -1;
	size_t nc = j->design.ncells, kept = j->kept;
	an_db_want(&j->d, j->idx, kept);
	j->cells = xcalloc(nc, sizeof *j->cells);
	j->sets = xcalloc(nc, sizeof *j->sets);
	struct strv names = {0}; /* each cell's name, for errors */
	for (size_t c = 0; c < nc; c++) {
		size_t *ci = xcalloc(kept, sizeof *ci), n = 0;
		for (size_t i = 0; i < kept; i++)
			if (j->design.run_cell[i] == c)
				ci[n++] = j->idx[i];
		if (an_group_of(&j->d, ci, n, &j->cells[c], e)) {
			strv_free(&names);
			return -1;
		}
		struct sb what = {0};
		sb_add(&what, "cell '");
		for (size_t k = 0; k < j->design.nf; k++)
			sb_addf(&what, "%s%s=%s", k ? " " : "", factors->v[k],
				j->design.levels[k].v[j->design.cell_level[c * j->design.nf + k]]);
		sb_add(&what, "'");
		int orc = an_group_one_origin(&j->cells[c], sb_str(&what), e);
		strv_add(&names, sb_str(&what));
		sb_free(&what);
		if (orc) {
			strv_free(&names);
			return -1;
		}
		j->sets[c] = j->cells[c].set;
	}
	int brc = co->unit == ST_LEVEL_RUN ? an_groups_share_boots(j->cells, (const char *const *)names.v, nc, e) : 0;
	strv_free(&names);
	if (brc)
		return -1;
	if (an_analyze(j->sets, nc, j->design.cell_level, j->design.f, j->design.nf, patterns, co, &j->an, e))
		return -1;
	const struct store_run_info **kr = xcalloc(kept, sizeof *kr);
	int64_t *ids = xcalloc(kept, sizeof *ids);
	for (size_t i = 0; i < kept; i++) {
		kr[i] = &j->d.runs[j->idx[i]];
		ids[i] = kr[i]->id;
	}
	j->info = (struct an_group_info){"runs", j->sel.text, kept, an_count_boots(kr, kept)};
	free(kr);
	int rc = an_checks_apply(st, ids, kept, NULL, &j->an, j->sets, nc, allow_checks, e);
	struct store_env env = {0};
	if (!rc)
		rc = store_env_values(st, ids, kept, &env, e);
	if (!rc)
		an_emulation_of(&env, &j->an.emu);
	store_env_free(&env);
	free(ids);
	if (rc)
		return -1;
	for (size_t c = 0; c < nc; c++)
		ctr_noise_levels(j->cells[c].runs, j->cells[c].n, &j->noise_levels);
	if (with_env) {
		const struct store_run_info *const **runs = xcalloc(nc, sizeof *runs);
		size_t *n = xcalloc(nc, sizeof *n);
		for (size_t c = 0; c < nc; c++) {
			runs[c] = j->cells[c].runs;
			n[c] = j->cells[c].n;
		}
		an_envtab_build(runs, n, nc, &j->env);
		free(runs);
		free(n);
	}
	return 0;
}

/* Record the look of j: per cell its boots and runs, per row and effect its verdict. */
static int analyze_record(struct an_analyze_job *j, struct an_look_state *ls, const char *fp,
			  const int64_t *ids, size_t nids, struct err *e)
{
	size_t nc = j->design.ncells, *boots = xcalloc(nc + 1, sizeof *boots), *runs = xcalloc(nc + 1, sizeof *runs);
	for (size_t c = 0; c < nc; c++) {
		boots[c] = j->cells[c].info.nboots;
		runs[c] = j->cells[c].n;
	}
	char *design = an_look_json_design(boots, runs, nc);
	free(boots);
	free(runs);
	json_t *v = json_object();
	for (size_t i = 0; i < j->an.nrows; i++)
		for (size_t k = 0; k < j->an.rows[i].fa.neffects; k++) {
			char label[160];
			an_effect_label(label, sizeof label, &j->an, &j->an.rows[i].fa.effects[k]);
			an_look_json_verdict(v, j->an.rows[i].workload, j->an.rows[i].copies, label,
					     j->an.rows[i].fa.effects[k].c.verdict);
		}
	char *verdicts = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(v);
	int rc = an_look_record(j->d.st, ls, &j->an.look, fp, design, verdicts, ids, nids, e);
	free(design);
	free(verdicts);
	return rc;
}

int an_analyze_job_build(struct store *st, const struct strv *filter, const struct strv *factors,
			 const struct kvlist *refs, const struct strv *patterns, const struct st_compare_opts *co,
			 bool with_env, bool allow_checks, const struct an_look_req *lr, struct an_analyze_job *j,
			 struct err *e)
{
	if (!(lr && lr->on))
		return analyze_build(st, filter, factors, refs, patterns, co, with_env, allow_checks, NULL, j, e);
	memset(j, 0, sizeof *j);
	j->d.st = st; /* taken, also when the looks cannot be read */
	char *key = an_look_key_analyze(filter, factors, refs, patterns, co->unit);
	struct an_look_state ls;
	int rc = an_look_begin(st, key, &ls, e);
	free(key);
	struct look_ctx lc = {.lr = lr, .ls = &ls};
	if (!rc)
		rc = analyze_build(st, filter, factors, refs, patterns, co, with_env, allow_checks, &lc, j, e);
	if (!rc) {
		j->an.look = lc.r;
		int again = 0;
		do /* 1: decided again, as another process recorded a look meanwhile */
			an_analyze_repeat(&j->an);
		while ((rc = analyze_record(j, &ls, lc.fp, lc.ids, lc.nids, e)) == 1 && ++again < AN_LOOK_AGAIN);
		if (rc == 1)
			rc = an_look_busy(e);
	}
	free(lc.seen);
	free(lc.ids);
	an_look_state_free(&ls);
	return rc;
}

void an_analyze_job_free(struct an_analyze_job *j)
{
	kv_free(&j->noise_levels);
	an_envtab_free(&j->env);
	an_analyze_free(&j->an);
	for (size_t c = 0; c < j->design.ncells && j->cells; c++)
		an_group_free(&j->cells[c]);
	free(j->cells);
	free(j->sets);
	an_design_free(&j->design);
	free(j->idx);
	select_free(&j->sel);
	an_db_close(&j->d);
}
