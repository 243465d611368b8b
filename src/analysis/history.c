/* history.c - `sysab history`: the boots of one workload in order, their estimates and change points. */
#include "analysis/history.h"
#include "workloads/workload.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A value that goes on with '-' or '~' and a letter: a pre-release (rc, alpha, ...). */
static bool prerelease(const char *s)
{
	return (*s == '-' || *s == '~') && isalpha((unsigned char)s[1]);
}

int an_version_cmp(const char *a, const char *b)
{
	const char *p = a, *q = b;
	while (*p && *q) {
		if (isdigit((unsigned char)*p) && isdigit((unsigned char)*q)) {
			while (*p == '0' && isdigit((unsigned char)p[1]))
				p++;
			while (*q == '0' && isdigit((unsigned char)q[1]))
				q++;
			size_t np = 0, nq = 0;
			while (isdigit((unsigned char)p[np]))
				np++;
			while (isdigit((unsigned char)q[nq]))
				nq++;
			if (np != nq)
				return np < nq ? -1 : 1;
			int c = memcmp(p, q, np);
			if (c)
				return c;
			p += np;
			q += nq;
			continue;
		}
		if (*p != *q) {
			/* a pre-release sorts before whatever else follows: 6.12-rc1 < 6.12.1 */
			if (prerelease(p) != prerelease(q))
				return prerelease(p) ? -1 : 1;
			return (unsigned char)*p < (unsigned char)*q ? -1 : 1;
		}
		p++;
		q++;
	}
	if (*p || *q) {
		if (*p)
			return prerelease(p) ? -1 : 1;
		return prerelease(q) ? 1 : -1;
	}
	return strcmp(a, b);
}

static int id_cmp(const void *x, const void *y)
{
	const struct store_run_info *const *a = x, *const *b = y;
	return (*a)->id < (*b)->id ? -1 : (*a)->id > (*b)->id;
}

/* The run with id among runs[0..n-1] (sorted by id), or NULL. */
static const struct store_run_info *run_of(const struct store_run_info **runs, size_t n, int64_t id)
{
	struct store_run_info key = {.id = id};
	const struct store_run_info *kp = &key, *const *r = bsearch(&kp, runs, n, sizeof *runs, id_cmp);
	return r ? *r : NULL;
}

/* The one timing series of the set that pattern matches. */
static int find_series(const struct store_set *set, const char *pattern, const struct store_series **out,
		       struct err *e)
{
	struct sb all = {0}, hit = {0};
	size_t n = 0;
	*out = NULL;
	for (size_t i = 0; i < set->nseries; i++) {
		const struct store_series *s = &set->series[i];
		if (s->event)
			continue;
		char name[160];
		snprintf(name, sizeof name, s->copies > 1 ? "%s/%d" : "%s", s->workload, s->copies);
		sb_addf(&all, "%s%s", all.len ? ", " : "", name);
		if (wl_matches(&(const struct workload){.name = s->workload}, pattern)) {
			sb_addf(&hit, "%s%s", hit.len ? ", " : "", name);
			*out = s;
			n++;
		}
	}
	int rc = 0;
	if (!n)
		rc = errf(e, "-w %s: no workload of the selected runs matches; they hold %s", pattern,
			  all.len ? sb_str(&all) : "none");
	else if (n > 1)
		rc = errf(e, "-w %s matches %zu workloads (%s); a history follows one: give its full name", pattern, n,
			  sb_str(&hit));
	sb_free(&all);
	sb_free(&hit);
	return rc;
}

/* Order of the boots: by the label's version order, then start, then boot id. */
struct order_ctx {
	const struct an_history_boot *b;
	bool by_time;
};

static int order_cmp(const void *x, const void *y, void *ctx)
{
	const struct order_ctx *o = ctx;
	const struct an_history_boot *a = &o->b[*(const size_t *)x], *b = &o->b[*(const size_t *)y];
	int c = o->by_time ? 0 : an_version_cmp(a->value, b->value);
	if (!c)
		c = a->started_ns < b->started_ns ? -1 : a->started_ns > b->started_ns;
	return c ? c : strcmp(a->boot_id, b->boot_id);
}

/* The boots of series x with their runs' --by values: each boot's runs as stats takes them
 * (into runs, sums, borrowed samples), skipping runs without the label. */
static int collect(struct an_history_job *j, const struct store_series *x, const char *by, bool by_time,
		   struct an_history_boot *hb, struct st_boot *sb, struct st_run *runs, struct st_run_summary *sums,
		   size_t *nb, struct err *e)
{
	const struct store_run_info **byid = xcalloc(j->g.n, sizeof *byid);
	memcpy(byid, j->g.runs, j->g.n * sizeof *byid);
	qsort(byid, j->g.n, sizeof *byid, id_cmp);
	size_t k = 0, b_out = 0;
	int rc = 0;
	for (size_t b = 0; b < x->nboots && !rc; b++) {
		struct an_history_boot *h = &hb[b_out];
		memset(h, 0, sizeof *h);
		size_t first = k;
		for (size_t r = 0; r < x->boots[b].nruns && !rc; r++) {
			const struct store_series_run *sr = &x->boots[b].runs[r];
			const struct store_run_info *info = run_of(byid, j->g.n, sr->run);
			const char *v = info ? (by_time ? "" : select_label(info, by)) : NULL;
			if (!v || (!by_time && !*v)) {
				j->h.dropped_runs++;
				continue;
			}
			if (h->value && strcmp(h->value, v)) {
				rc = errf(e, "boot %s has runs with %s=%s and %s=%s, but a boot is one point of a history: "
					     "relabel them (sysab relabel) or select one of them",
					  info->boot_id, by, h->value, by, v);
				break;
			}
			h->value = v;
			h->boot_id = info->boot_id;
			if (!h->nruns || info->started_ns < h->started_ns)
				h->started_ns = info->started_ns;
			h->nruns++;
			h->nsamples += sr->n;
			runs[k] = (struct st_run){.y = sr->y, .round = sr->round, .n = sr->n, .sum = NULL};
			if (sr->sum) {
				an_run_summary_of(sr->sum, &sums[k]);
				runs[k].sum = &sums[k];
			}
			k++;
		}
		if (h->nruns) {
			sb[b_out] = (struct st_boot){&runs[first], k - first};
			b_out++;
		}
	}
	free(byid);
	*nb = b_out;
	return rc;
}

/* The plan of an A/B campaign for change c: the boots of each segment (in series order,
 * sbo[i] is the i-th boot) as two groups, sized for a half-width of the change's size with
 * 80% power, as `sysab plan` sizes two groups. */
static void plan_confirm(const struct st_boot *const *sbo, const struct st_cp_change *c, struct an_history_change *out)
{
	size_t na = c->index - c->seg_lo, nb = c->seg_hi - c->index;
	struct st_boot *b = xcalloc(na + nb, sizeof *b);
	for (size_t i = 0; i < na + nb; i++)
		b[i] = *sbo[c->seg_lo + i];
	struct st_group g[2] = {{.boots = b, .nboots = na}, {.boots = b + na, .nboots = nb}};
	struct st_estimate est[2];
	struct st_plan_opts po = stats_plan_defaults();
	po.target = expm1(fabs(c->d));
	po.power = 0.8;
	struct err e;
	out->confirm_planned = po.target > 0 && stats_estimate_groups(g, 2, est, &e) == 0 &&
			       stats_plan(&est[0].used, &est[1].used, &po, &out->confirm, &e) == 0;
	free(b);
}

/* Whether any selected run has a value for key, a label or what selectors take for kernel,
 * machine and source (select_label); keys gets the labels there are. */
static bool label_known(const struct an_group *g, const char *key, struct sb *keys)
{
	bool known = false;
	struct strv seen = {0};
	for (size_t i = 0; i < g->n; i++) {
		const char *v = select_label(g->runs[i], key);
		known |= v && *v;
	}
	for (size_t i = 0; i < g->n; i++)
		for (size_t l = 0; l < g->runs[i]->labels.n; l++) {
			const char *k = g->runs[i]->labels.v[l].key;
			if (!strv_has(&seen, k)) {
				strv_add(&seen, k);
				sb_addf(keys, "%s%s", keys->len ? ", " : "", k);
			}
		}
	strv_free(&seen);
	return known;
}

/* Long by design: select, order, estimate per boot, find the changes and plan their check, in turn. */
int an_history_job_build(struct store *st, const char *selector, const char *pattern, const char *by,
			 const struct st_cp_opts *opts, struct an_history_job *j, struct err *e)
{
	memset(j, 0, sizeof *j);
	struct an_history *h = &j->h;
	bool by_time = !strcmp(by, "time");
	h->by = by;
	h->selector = selector;
	h->opts = *opts;
	if (an_db_open(st, &j->d, e) || an_group_select(&j->d, selector, "the selector", &j->g, e))
		return -1;
	if (!j->g.n)
		return errf(e, "no usable run matches '%s'; `sysab list` shows the runs", selector);
	if (!by_time) {
		struct sb keys = {0};
		bool known = label_known(&j->g, by, &keys);
		if (!known)
			errf(e, "--by %s: no selected run has the label %s (their labels: %s); give one of them, or --by time",
			     by, by, keys.len ? sb_str(&keys) : "none");
		sb_free(&keys);
		if (!known)
			return -1;
	}
	const struct store_series *x;
	if (find_series(&j->g.set, pattern, &x, e))
		return -1;
	h->workload = x->workload;
	h->copies = x->copies;
	h->unit = x->unit;
	h->latency = x->latency;
	h->change_kinds = x->latency ? AN_CHG_TIME : AN_CHG_RATE;

	size_t nr = 0;
	for (size_t b = 0; b < x->nboots; b++)
		nr += x->boots[b].nruns;
	struct an_history_boot *hb = xcalloc(x->nboots, sizeof *hb);
	struct st_boot *sb = xcalloc(x->nboots, sizeof *sb);
	struct st_run *runs = xcalloc(nr, sizeof *runs);
	struct st_run_summary *sums = xcalloc(nr, sizeof *sums);
	struct st_group *groups = NULL;
	struct st_estimate *est = NULL;
	size_t *ord = NULL, nb = 0;
	double *y = NULL, *se = NULL;
	int rc = collect(j, x, by, by_time, hb, sb, runs, sums, &nb, e);
	if (rc)
		goto out;
	/* Each boot is its own group: its estimate and standard error from its runs and samples. */
	groups = xcalloc(nb, sizeof *groups);
	est = xcalloc(nb, sizeof *est);
	for (size_t b = 0; b < nb; b++)
		groups[b] = (struct st_group){.boots = &sb[b], .nboots = 1};
	if ((rc = stats_estimate_groups(groups, nb, est, e)))
		goto out;
	ord = xcalloc(nb, sizeof *ord);
	for (size_t b = 0; b < nb; b++)
		ord[b] = b;
	qsort_r(ord, nb, sizeof *ord, order_cmp, &(struct order_ctx){hb, by_time});
	h->boots = xcalloc(nb, sizeof *h->boots);
	y = xcalloc(nb, sizeof *y);
	se = xcalloc(nb, sizeof *se);
	for (size_t i = 0; i < nb; i++) {
		struct an_history_boot *o = &h->boots[i];
		*o = hb[ord[i]];
		o->y = y[i] = est[ord[i]].mean;
		o->se = se[i] = est[ord[i]].has_interval ? est[ord[i]].se : NAN;
		an_value_of(&est[ord[i]], 0.05, &o->v);
		h->nruns += o->nruns;
	}
	h->nboots = nb;
	if (nb < 2 * opts->min_seg) {
		rc = errf(e, "%zu boot%s of %s%s: a history needs at least %zu (%zu either side of a change); add boots, "
			     "or widen the selector",
			  nb, nb == 1 ? "" : "s", x->workload, by_time ? "" : " with that label", 2 * opts->min_seg,
			  opts->min_seg);
		goto out;
	}
	if ((rc = stats_changepoints(y, se, nb, opts, &h->cp, e)))
		goto out;
	for (size_t i = 0; i < nb; i++)
		h->boots[i].level_ops = exp(h->cp.level[i]);
	h->between_sd = sqrt(h->cp.tau2);
	h->changes = xcalloc(h->cp.nchanges, sizeof *h->changes);
	const struct st_boot **sbo = xcalloc(nb, sizeof *sbo);
	for (size_t i = 0; i < nb; i++)
		sbo[i] = &sb[ord[i]];
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct st_cp_change *c = &h->cp.changes[i];
		const struct an_history_boot *before = &h->boots[c->index - 1], *after = &h->boots[c->index];
		h->changes[i] = (struct an_history_change){
			.c = c,
			.label_before = by_time ? before->boot_id : before->value,
			.label_after = by_time ? after->boot_id : after->value,
			.boot_before = before->boot_id,
			.boot_after = after->boot_id,
			.slower = c->d < 0,
		};
		an_change_log(c->d, c->lo, c->hi, h->latency, &h->changes[i].chg);
		plan_confirm(sbo, c, &h->changes[i]);
	}
	free(sbo);
out:
	free(hb);
	free(sb);
	free(runs);
	free(sums);
	free(groups);
	free(est);
	free(ord);
	free(y);
	free(se);
	return rc;
}

void an_history_job_free(struct an_history_job *j)
{
	free(j->h.boots);
	free(j->h.changes);
	stats_cp_free(&j->h.cp);
	an_group_free(&j->g);
	an_db_close(&j->d);
	memset(j, 0, sizeof *j);
}
