/* analysis.c - rows, group data, composites, comparisons, factorial effects and plans over sample sets. */
#include "analysis/analysis.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The registry's rule, for row names that need not be registered (imports, "index"). */
static bool name_matches(const char *name, const char *pattern)
{
	return wl_matches(&(const struct workload){.name = name}, pattern);
}

/* A group's value and interval: on the log scale (y = ln ops/s, linear false: ops/s and the
 * relative half-width) or as it is (counts per op: the mean and the absolute half-width). */
static void value_on(const struct st_estimate *est, double alpha, bool linear, struct an_value *out)
{
	out->ops = out->lo = out->hi = out->hw = out->df = NAN;
	out->low_df = false;
	if (!est || !est->nsamples)
		return;
	out->ops = linear ? est->mean : exp(est->mean);
	if (!est->has_interval || !(est->se >= 0))
		return;
	out->df = est->df;
	if (est->df < AN_MIN_INTERVAL_DF) {
		out->low_df = true;
		return;
	}
	double h = stats_t_quantile(1 - alpha / 2, est->df) * est->se;
	out->lo = linear ? est->mean - h : exp(est->mean - h);
	out->hi = linear ? est->mean + h : exp(est->mean + h);
	out->hw = linear ? h : exp(h) - 1;
}

void an_value_of(const struct st_estimate *est, double alpha, struct an_value *out)
{
	value_on(est, alpha, false, out);
}

void an_change_log(double d, double lo, double hi, int latency, struct an_change *out)
{
	/* time per op is 1 / throughput: its log difference is -d, and the interval turns over */
	double s = latency ? -1 : 1;
	double a = latency ? hi : lo, b = latency ? lo : hi;
	*out = (struct an_change){100 * expm1(s * d), 100 * expm1(s * a), 100 * expm1(s * b), latency != 0};
}

void an_change_of(const struct st_comparison *c, int latency, struct an_change *out)
{
	an_change_log(c->d, c->lo, c->hi, latency, out);
}

/* ---------------------------------------------------------------- rows */

struct rowkey {
	const char *workload; /* points into a set, or a composite's name */
	int copies;
	const char *unit;
	int latency;
	struct an_composite *comp; /* a composite row: its definition (owned), else NULL */
	size_t ncomp;              /* its members */
};

static int key_cmp(const void *pa, const void *pb)
{
	const struct rowkey *a = pa, *b = pb;
	int c = strcmp(a->workload, b->workload);
	if (c)
		return c;
	return a->copies < b->copies ? -1 : a->copies > b->copies;
}

static void keys_free(struct rowkey *k, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(k[i].comp);
	free(k);
}

/* Is workload the host reference (WL_REFERENCE)? */
static bool is_reference(const char *workload)
{
	const struct workload *w = wl_find(workload);
	return w && (w->flags & WL_REFERENCE);
}

/* The rows over sets[0..ns-1]: every (workload, copies) any set has, then the composites;
 * filtered by patterns, each of which must match some row. */
/* Long by design: collect, sort and filter the rows, then add the composites, in one pass each. */
static int make_rows(const struct store_set *sets, size_t ns, const struct strv *patterns, struct rowkey **out,
		     size_t *nout, struct err *e)
{
	struct rowkey *k = NULL;
	size_t n = 0, cap = 0;
	for (size_t s = 0; s < ns; s++)
		for (size_t i = 0; i < sets[s].nseries; i++) {
			const struct store_series *x = &sets[s].series[i];
			bool named = false; /* the host reference is a row only when a pattern names it */
			for (size_t p = 0; p < patterns->n && !named; p++)
				named = !strcmp(patterns->v[p], x->workload);
			if (is_reference(x->workload) && !named)
				continue;
			k = xgrow(k, &cap, n + 1, sizeof *k);
			k[n++] = (struct rowkey){x->workload, x->copies, x->unit, x->latency, NULL, 0};
		}
	if (n)
		qsort(k, n, sizeof *k, key_cmp);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (!m || key_cmp(&k[m - 1], &k[i]))
			k[m++] = k[i];
	n = m;
	/* composites (composite.c): a fixed member set per copies count, present in every run */
	size_t nplain = n;
	for (size_t i = 0; i < nplain; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = k[j].copies == k[i].copies;
		if (seen)
			continue;
		struct an_composite c[2];
		size_t nc = an_composites(sets, ns, k[i].copies, c);
		for (size_t j = 0; j < nc; j++) {
			struct an_composite *own = xcalloc(1, sizeof *own);
			*own = c[j];
			k = xgrow(k, &cap, n + 1, sizeof *k);
			k[n++] = (struct rowkey){own->name, own->copies, "index", 0, own, own->n};
		}
	}
	/* filter */
	for (size_t p = 0; p < patterns->n; p++) {
		bool any = false;
		for (size_t i = 0; i < n && !any; i++)
			any = name_matches(k[i].workload, patterns->v[p]);
		if (!any) {
			struct sb names = {0};
			for (size_t i = 0; i < n && i < 12; i++)
				sb_addf(&names, "%s%s", i ? ", " : "", k[i].workload);
			errf(e, "-w %s: no workload of the selected runs matches; they hold %s%s", patterns->v[p],
			     n ? sb_str(&names) : "no samples", n > 12 ? ", ..." : "");
			sb_free(&names);
			keys_free(k, n);
			return -1;
		}
	}
	if (patterns->n) {
		m = 0;
		for (size_t i = 0; i < n; i++) {
			bool take = false;
			for (size_t p = 0; p < patterns->n && !take; p++)
				take = name_matches(k[i].workload, patterns->v[p]);
			if (take)
				k[m++] = k[i];
			else
				free(k[i].comp);
		}
		n = m;
	}
	*out = k;
	*nout = n;
	return 0;
}

/* ---------------------------------------------------------------- stored summaries */

bool an_run_summary_of(const struct store_run_sum *x, struct st_run_summary *out)
{
	memset(out, 0, sizeof *out);
	out->b = (struct st_runstat){
		.n = (size_t)x->n, .mean = x->mean_y, .nbatches = (size_t)x->nbatches,
		.batch_size = (size_t)x->batch_size, .tau2 = x->tau2, .var_mean = x->var_mean,
		.df = x->df, .r1 = x->r1, .autocorr = x->autocorr != 0,
	};
	out->halfwidth = out->median_y = out->mad_y = NAN;
	stats_summary(NULL, 0, &out->v);
	int k = 9;
	bool ok = strlen(x->round_map) == ST_ROUND_MAP_LEN && stats_round_map_apply(x->round_map, &k);
	/* ok: exactly ST_ROUND_MAP_LEN bytes (a copy per row and look: no snprintf) */
	memcpy(out->round_map, x->round_map, ok ? ST_ROUND_MAP_LEN : 0);
	out->round_map[ok ? ST_ROUND_MAP_LEN : 0] = 0;
	return stats_diag_tally_parse(x->diag, &out->diag) && ok;
}

bool an_sums_ok(const struct store_sums *all)
{
	struct st_run_summary s;
	for (size_t i = 0; i < all->n; i++)
		if (!an_run_summary_of(&all->v[i], &s))
			return false;
	return true;
}

/* ---------------------------------------------------------------- group data */

/* One group's data for one row, as stats wants it. */
struct gdata {
	struct st_group g;
	struct st_boot *boots;
	struct st_run *runs;
	double *y;   /* composite values, owned */
	struct st_run_summary *sums; /* runs loaded from their summaries: what they point to */
	int64_t *bid; /* each boot's id */
	int64_t *ids; /* each run's id, in the order of runs */
	size_t nruns;
	bool have;
};

static void gdata_free(struct gdata *d)
{
	free(d->boots);
	free(d->runs);
	free(d->sums);
	free(d->y);
	free(d->bid);
	free(d->ids);
	memset(d, 0, sizeof *d);
}

static void gdata_series(const struct store_series *x, struct gdata *d)
{
	memset(d, 0, sizeof *d);
	if (!x || !x->nboots)
		return;
	size_t nr = 0;
	for (size_t b = 0; b < x->nboots; b++)
		nr += x->boots[b].nruns;
	d->boots = xcalloc(x->nboots, sizeof *d->boots);
	d->runs = xcalloc(nr, sizeof *d->runs);
	d->bid = xcalloc(x->nboots, sizeof *d->bid);
	d->ids = xcalloc(nr, sizeof *d->ids);
	d->nruns = nr;
	size_t k = 0;
	for (size_t b = 0; b < x->nboots; b++) {
		d->bid[b] = x->boots[b].boot;
		d->boots[b].runs = &d->runs[k];
		d->boots[b].nruns = x->boots[b].nruns;
		for (size_t r = 0; r < x->boots[b].nruns; r++) {
			const struct store_series_run *sr = &x->boots[b].runs[r];
			d->ids[k] = sr->run;
			d->runs[k] = (struct st_run){.y = sr->y, .round = sr->round, .n = sr->n, .sum = NULL};
			if (sr->sum) {
				if (!d->sums)
					d->sums = xcalloc(nr, sizeof *d->sums);
				an_run_summary_of(sr->sum, &d->sums[k]);
				d->runs[k].sum = &d->sums[k];
			}
			k++;
		}
	}
	d->g = (struct st_group){.boots = d->boots, .nboots = x->nboots};
	d->have = true;
}

/* A composite row: per run the log of its composite value (an_composite_runs). */
static void gdata_composite(const struct store_set *set, const struct rowkey *k, struct gdata *d)
{
	memset(d, 0, sizeof *d);
	struct an_composite_run *v;
	size_t n = an_composite_runs(set, k->comp, &v);
	d->y = xcalloc(n, sizeof *d->y);
	d->runs = xcalloc(n, sizeof *d->runs);
	d->boots = xcalloc(n, sizeof *d->boots);
	d->bid = xcalloc(n, sizeof *d->bid);
	d->ids = xcalloc(n, sizeof *d->ids);
	d->nruns = n;
	size_t nb = 0;
	for (size_t i = 0; i < n; i++) {
		d->y[i] = v[i].y;
		d->ids[i] = v[i].run;
		d->runs[i] = (struct st_run){.y = &d->y[i], .round = NULL, .n = 1, .sum = NULL};
		if (!nb || v[i].boot != v[i - 1].boot) {
			d->bid[nb] = v[i].boot;
			d->boots[nb].runs = &d->runs[i];
			d->boots[nb++].nruns = 0;
		}
		d->boots[nb - 1].nruns++;
	}
	free(v);
	d->g = (struct st_group){.boots = d->boots, .nboots = nb};
	d->have = nb > 0;
}

static void gdata_row(const struct store_set *set, const struct rowkey *k, struct gdata *d)
{
	if (k->ncomp)
		gdata_composite(set, k, d);
	else
		gdata_series(store_set_find(set, k->workload, k->copies), d);
}

/* ---------------------------------------------------------------- host-speed adjustment */

/* The host reference (the WL_REFERENCE workload at one copy) of a loaded set, or NULL. */
static const struct store_series *host_ref_series(const struct store_set *set)
{
	for (size_t i = 0; i < wl_count(); i++)
		if (wl_at(i)->flags & WL_REFERENCE)
			return store_set_find(set, wl_at(i)->name, 1);
	return NULL;
}

/* Append to ref[*n..] the reference's mean ln(ops/s) in each run of d (NAN where the run has
 * none), in d's run order: the covariate stats_estimate_adjusted takes. */
static void host_ref_values(const struct store_set *set, const struct gdata *d, double *ref, size_t *n)
{
	const struct store_series *x = host_ref_series(set);
	for (size_t k = 0; k < d->nruns; k++) {
		double v = NAN;
		for (size_t b = 0; x && b < x->nboots && isnan(v); b++)
			for (size_t r = 0; r < x->boots[b].nruns; r++) {
				const struct store_series_run *sr = &x->boots[b].runs[r];
				if (sr->run != d->ids[k])
					continue;
				struct st_run_summary sum;
				struct st_run run = {.y = sr->y, .round = sr->round, .n = sr->n};
				if (sr->sum && an_run_summary_of(sr->sum, &sum))
					run.sum = &sum;
				struct st_runstat rs;
				stats_run_batches(&run, &rs);
				v = rs.mean;
				break;
			}
		ref[(*n)++] = v;
	}
}

/* Estimate groups g[0..ng-1] of row k, each from set[map[j]] with data gd[map[j]]: adjusted for
 * host speed when o asks and the row is not the reference itself. Returns as
 * stats_estimate_groups. */
static int estimate_row(const struct store_set *sets, const struct gdata *gd, const size_t *map,
			const struct st_group *g, size_t ng, const struct rowkey *k, const struct st_compare_opts *o,
			struct st_estimate *est, struct st_adjust *adj, struct err *e)
{
	memset(adj, 0, sizeof *adj);
	if (!o->host_adjust || is_reference(k->workload))
		return stats_estimate_groups(g, ng, est, e);
	size_t nr = 0;
	for (size_t j = 0; j < ng; j++)
		nr += gd[map[j]].nruns;
	double *ref = xcalloc(nr, sizeof *ref);
	size_t n = 0;
	for (size_t j = 0; j < ng; j++)
		host_ref_values(&sets[map[j]], &gd[map[j]], ref, &n);
	int rc = stats_estimate_adjusted(g, ng, ref, est, adj, e);
	free(ref);
	return rc;
}

/* The warnings of the group's runs in order: a run loaded from its summary gives its stored
 * tally, any other its samples' warnings (the same fold, stats.h). Only the kinds the group
 * reports (stats_diag_raised: more runs flagged than the stated rate explains) are kept. */
static void diag_group(const struct gdata *d, struct an_diag *out)
{
	memset(out, 0, sizeof *out);
	if (!d->have)
		return;
	struct st_diag_opts o = stats_diag_defaults();
	struct st_diag_tally t = {0};
	size_t nruns = 0, nsamples = 0;
	for (size_t b = 0; b < d->g.nboots; b++)
		for (size_t r = 0; r < d->g.boots[b].nruns; r++) {
			const struct st_run *run = &d->g.boots[b].runs[r];
			nruns++;
			nsamples += run->n;
			if (run->sum) {
				stats_diag_tally_merge(&t, &run->sum->diag);
				continue;
			}
			struct st_warnings w = {0};
			stats_diagnose_run(run, b, r, &o, &w);
			stats_diag_tally_add(&t, &w);
			stats_warnings_free(&w);
		}
	unsigned raised = stats_diag_raised(&t, nruns, nsamples);
	for (int k = 0; k < ST_NWARN; k++)
		if (!(raised & 1u << k)) {
			t.count[k] = 0;
			t.worst[k] = t.limit[k] = 0;
		}
	memcpy(out->count, t.count, sizeof out->count);
	memcpy(out->worst, t.worst, sizeof out->worst);
	memcpy(out->limit, t.limit, sizeof out->limit);
}

/* Strip-plot data of one group: per run the samples in ops/s and their geometric mean.
 * None when the group was loaded from summaries (only the page draws them, and the page
 * loads the samples). */
static void points_of(const struct gdata *d, struct an_points *out)
{
	memset(out, 0, sizeof *out);
	out->min = out->max = NAN;
	if (!d->have || d->sums)
		return;
	size_t nr = 0, ns = 0;
	for (size_t b = 0; b < d->g.nboots; b++) {
		nr += d->g.boots[b].nruns;
		for (size_t r = 0; r < d->g.boots[b].nruns; r++)
			ns += d->g.boots[b].runs[r].n;
	}
	out->runs = xcalloc(nr, sizeof *out->runs);
	out->buf = xcalloc(ns, sizeof *out->buf);
	out->nboots = d->g.nboots;
	size_t k = 0;
	for (size_t b = 0; b < d->g.nboots; b++)
		for (size_t r = 0; r < d->g.boots[b].nruns; r++) {
			const struct st_run *sr = &d->g.boots[b].runs[r];
			struct an_run_pts *p = &out->runs[out->nruns++];
			double s = 0;
			p->boot = b;
			p->v = &out->buf[k];
			p->n = sr->n;
			for (size_t i = 0; i < sr->n; i++) {
				double v = exp(sr->y[i]);
				out->buf[k++] = v;
				s += sr->y[i];
				if (!(v >= out->min))
					out->min = v;
				if (!(v <= out->max))
					out->max = v;
			}
			p->mean = sr->n ? exp(s / (double)sr->n) : NAN;
		}
}

void an_points_free(struct an_points *p)
{
	if (!p)
		return;
	free(p->runs);
	free(p->buf);
	memset(p, 0, sizeof *p);
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool env_noise(const char *key)
{
	return !strcmp(key, "boot.id") || !strncmp(key, "load.", 5);
}

void an_envtab_build(const struct store_run_info *const *const *runs, const size_t *n, size_t ngroups,
		     struct an_envtab *out)
{
	memset(out, 0, sizeof *out);
	out->ngroups = ngroups;
	static const char *const pseudo[] = {"machine", "source", "cpu", "kernel"};
	struct strv keys = {0};
	for (size_t i = 0; i < 4; i++)
		strv_add(&keys, pseudo[i]);
	struct strv envk = {0}, labk = {0};
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < n[g]; i++)
			for (size_t j = 0; j < runs[g][i]->labels.n; j++) {
				struct sb k = {0};
				sb_addf(&k, "label.%s", runs[g][i]->labels.v[j].key);
				if (!strv_has(&labk, sb_str(&k)))
					strv_add(&labk, sb_str(&k));
				sb_free(&k);
			}
	if (labk.n)
		qsort(labk.v, labk.n, sizeof *labk.v, str_cmp);
	for (size_t i = 0; i < labk.n; i++)
		strv_add(&keys, labk.v[i]);
	size_t nfixed = keys.n;
	strv_free(&labk);
	for (size_t g = 0; g < ngroups; g++)
		for (size_t i = 0; i < n[g]; i++)
			for (size_t j = 0; j < runs[g][i]->env.n; j++) {
				const char *k = runs[g][i]->env.v[j].key;
				if (!env_noise(k) && !strv_has(&envk, k))
					strv_add(&envk, k);
			}
	if (envk.n)
		qsort(envk.v, envk.n, sizeof *envk.v, str_cmp);
	for (size_t i = 0; i < envk.n; i++)
		strv_add(&keys, envk.v[i]);
	strv_free(&envk);
	out->rows = xcalloc(keys.n, sizeof *out->rows);
	for (size_t k = 0; k < keys.n; k++) {
		struct an_envrow *row = &out->rows[out->nrows++];
		row->key = xstrdup(keys.v[k]);
		row->values = xcalloc(ngroups, sizeof *row->values);
		for (size_t g = 0; g < ngroups; g++) {
			struct strv v = {0};
			bool absent = false;
			for (size_t i = 0; i < n[g]; i++) {
				const struct store_run_info *r = runs[g][i];
				const char *x = k == 0 ? r->hostname : k == 1 ? r->source : k == 2 ? r->cpu_model
					      : k == 3 ? r->kernel_release : k < nfixed ? kv_get(&r->labels, keys.v[k] + 6)
									: kv_get(&r->env, keys.v[k]);
				if (!x)
					absent = true;
				else if (!strv_has(&v, x))
					strv_add(&v, x);
			}
			/* one value for every run, or "mixed" with the values ("-": runs without it) */
			struct sb b = {0};
			if (v.n > 1 || (v.n && absent))
				sb_add(&b, "mixed: ");
			for (size_t i = 0; i < v.n; i++)
				sb_addf(&b, "%s%s", i ? ", " : "", v.v[i]);
			if (v.n && absent)
				sb_add(&b, ", -");
			row->values[g] = b.s ? b.s : xstrdup("-");
			strv_free(&v);
			if (g && strcmp(row->values[g], row->values[0]))
				row->differs = true;
		}
	}
	strv_free(&keys);
}

void an_envtab_free(struct an_envtab *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t g = 0; g < t->ngroups; g++)
			free(t->rows[i].values[g]);
		free(t->rows[i].values);
		free(t->rows[i].key);
	}
	free(t->rows);
	memset(t, 0, sizeof *t);
}

/* ---------------------------------------------------------------- compare */

static const struct store_env_key *env_key(const struct store_env *x, const char *key)
{
	for (size_t i = 0; i < x->nk; i++)
		if (!strcmp(x->k[i].key, key))
			return &x->k[i];
	return NULL;
}

/* The first three values of key over a group's runs in the order of the first run that has
 * each ("absent" for runs without it), and how many more. */
static char *values_of(const struct store_env *x, const char *key)
{
	const struct store_env_key *k = env_key(x, key);
	struct strv v = {0};
	bool absent = k ? k->nruns < x->nruns : x->nruns > 0;
	int64_t at = k ? k->first_without : 0;
	for (size_t i = 0; k && i <= k->nv; i++) {
		if (absent && (i == k->nv || at < k->v[i].first)) {
			if (!strv_has(&v, "absent"))
				strv_add(&v, "absent");
			absent = false;
		}
		if (i < k->nv && !strv_has(&v, k->v[i].value))
			strv_add(&v, k->v[i].value);
	}
	if (absent)
		strv_add(&v, "absent");
	struct sb b = {0};
	for (size_t i = 0; i < v.n && i < 3; i++)
		sb_addf(&b, "%s%s", i ? ", " : "", v.v[i]);
	if (v.n > 3)
		sb_addf(&b, " (+%zu more)", v.n - 3);
	strv_free(&v);
	return b.s ? b.s : xstrdup("");
}

/* Environment keys that always differ between runs or are the treatment itself. The noise
 * probe's numbers (probe.*) always differ; its words noise.level and steal.level are compared.
 * run.env_pad is drawn per run on purpose (layout as variance), no confounder of a mean. */
static bool always_differs(const char *key)
{
	return !strcmp(key, "boot.id") || !strncmp(key, "load.", 5) || !strcmp(key, "kernel.release") ||
	       !strcmp(key, "kernel.version") || !strncmp(key, "probe.", 6) || !strcmp(key, "run.env_pad") ||
	       !strncmp(key, "campaign.duet_", 14); /* a duet's block, CPU set, partner and go: the design's own */
}

/* Is key "run.L.xxx" for a label key L in labels? The runner records how it applied a label
 * it set itself there (run --nodes: label node=K, run.node.cpus the node's CPUs), which then
 * differs with the label: the treatment, not a confounder. */
static bool label_env(const struct strv *labels, const char *key)
{
	if (strncmp(key, "run.", 4))
		return false;
	const char *dot = strchr(key + 4, '.');
	if (!dot)
		return false;
	char *l = xstrndup(key + 4, (size_t)(dot - key - 4));
	bool r = strv_has(labels, l);
	free(l);
	return r;
}

/* Run options that change what an op measures (run --icache-pressure): a group whose runs
 * differ in one is a confounder even when the other group mixes them alike, which the
 * comparison of the groups' value sets would not show. Adds such keys to keys. */
static void mixed_options(const struct store_env *ea, size_t na, const struct store_env *eb, size_t nb,
			  const struct strv *skip, struct strv *keys)
{
	static const char *const opts[] = {"run.icache_pressure"};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		if (strv_has(keys, opts[i]) || strv_has(skip, opts[i]))
			continue;
		const struct store_env_key *ka = env_key(ea, opts[i]), *kb = env_key(eb, opts[i]);
		bool mixed = (ka && (ka->nv > 1 || ka->nruns < na)) || (kb && (kb->nv > 1 || kb->nruns < nb));
		if (mixed)
			strv_add(keys, opts[i]);
	}
}

static int conf_cmp(const void *pa, const void *pb)
{
	const struct an_confounder *a = pa, *b = pb;
	if (a->impact != b->impact)
		return a->impact < b->impact ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void confounders(const struct store_run_info *const *ra, size_t na, const struct store_run_info *const *rb,
			size_t nb, const struct store_env *ea, const struct store_env *eb, struct an_compare *out)
{
	struct strv skip = {0};
	const struct store_env *env[2] = {ea, eb};
	struct st_env_set *sets[2];
	for (size_t s = 0; s < 2; s++) { /* the label keys of both groups first (label_env) */
		const struct store_run_info *const *r = s ? rb : ra;
		for (size_t i = 0; i < (s ? nb : na); i++)
			for (size_t j = 0; j < r[i]->labels.n; j++)
				if (!strv_has(&skip, r[i]->labels.v[j].key))
					strv_add(&skip, r[i]->labels.v[j].key);
	}
	for (size_t s = 0; s < 2; s++) {
		size_t n = s ? nb : na;
		if (env[s]->nenv < n)
			out->env_missing = true;
		sets[s] = xcalloc(env[s]->nk, sizeof *sets[s]);
		for (size_t k = 0; k < env[s]->nk; k++) {
			const struct store_env_key *x = &env[s]->k[k];
			if ((always_differs(x->key) || label_env(&skip, x->key)) && !strv_has(&skip, x->key))
				strv_add(&skip, x->key);
			const char **v = xcalloc(x->nv, sizeof *v);
			for (size_t i = 0; i < x->nv; i++)
				v[i] = x->v[i].value;
			sets[s][k] = (struct st_env_set){x->key, v, x->nv, x->nruns < n};
		}
	}
	if (!out->env_missing) {
		struct strv keys = {0};
		stats_confounder_sets(sets[0], ea->nk, na, sets[1], eb->nk, nb, &skip, &keys);
		mixed_options(ea, na, eb, nb, &skip, &keys);
		out->conf = xcalloc(keys.n, sizeof *out->conf);
		for (size_t i = 0; i < keys.n; i++) {
			struct an_confounder *c = &out->conf[out->nconf++];
			c->key = xstrdup(keys.v[i]);
			c->a = values_of(ea, keys.v[i]);
			c->b = values_of(eb, keys.v[i]);
			c->impact = an_env_impact(c->key);
		}
		/* most able to move the workloads first, then by key */
		qsort(out->conf, out->nconf, sizeof *out->conf, conf_cmp);
		strv_free(&keys);
	}
	for (size_t s = 0; s < 2; s++) {
		for (size_t k = 0; k < env[s]->nk; k++)
			free((void *)sets[s][k].values);
		free(sets[s]);
	}
	strv_free(&skip);
}

/* A composite row's members and scale in words, or NULL for a plain row. */
static char *describe(const struct rowkey *k)
{
	if (!k->comp)
		return NULL;
	char buf[512];
	an_composite_describe(k->comp, buf, sizeof buf);
	return xstrdup(buf);
}

static void row_init(struct an_row *r, const struct rowkey *k)
{
	memset(r, 0, sizeof *r);
	r->workload = xstrdup(k->workload);
	r->copies = k->copies;
	r->unit = xstrdup(k->unit);
	r->latency = k->latency;
	r->ncomposite = k->ncomp;
	r->composite = describe(k);
	r->c.verdict = ST_NO_DATA;
	r->constant = r->rel = NAN;
	r->more_boots = 0;
}

/* ---------------------------------------------------------------- within-boot factors */

struct bootcell {
	int64_t boot;
	size_t cell;
};

static int bootcell_cmp(const void *pa, const void *pb)
{
	const struct bootcell *a = pa, *b = pb;
	if (a->boot != b->boot)
		return a->boot < b->boot ? -1 : 1;
	return a->cell < b->cell ? -1 : a->cell > b->cell;
}

static int int64_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

/* Which factors vary within units, from bc[0..n-1] (each unit a boot or block holds data of a
 * cell at; sorted here): within, the factors at least 2 levels of which every unit holds, when
 * there are at least 2 units; mixed, those only some units hold several levels of. The one rule
 * analyze's within-boot factors (and so plan's) and compare's pairing by boot or block follow. */
static void within_units(struct bootcell *bc, size_t n, const size_t *cell_level, size_t nf, unsigned *within,
			 unsigned *mixed)
{
	*within = *mixed = 0;
	if (nf >= 8 * sizeof *within)
		return;
	if (n)
		qsort(bc, n, sizeof *bc, bootcell_cmp);
	size_t nboots = 0;
	for (size_t a = 0; a < n; a++)
		nboots += !a || bc[a].boot != bc[a - 1].boot;
	/* one boot has nothing to pair over: its runs are analysed as before (--unit run's case) */
	for (size_t i = 0; i < nf && nboots >= 2; i++) {
		bool all = n > 0, some = false;
		for (size_t a = 0; a < n;) {
			size_t z = a;
			bool several = false;
			for (; z < n && bc[z].boot == bc[a].boot; z++)
				several |= cell_level[bc[z].cell * nf + i] != cell_level[bc[a].cell * nf + i];
			all &= several;
			some |= several;
			a = z;
		}
		if (all)
			*within |= 1u << i;
		else if (some)
			*mixed |= 1u << i;
	}
}

/* Which factors vary within boots, decided by the data (an_analyze.within and .mixed): over
 * every series of every cell, the levels of each factor that each boot holds runs at. */
static void within_factors(const struct store_set *cells, size_t ncells, const size_t *cell_level, size_t nf,
			   unsigned *within, unsigned *mixed)
{
	struct bootcell *bc = NULL;
	size_t n = 0, cap = 0;
	for (size_t c = 0; c < ncells; c++)
		for (size_t s = 0; s < cells[c].nseries; s++)
			for (size_t b = 0; b < cells[c].series[s].nboots; b++) {
				bc = xgrow(bc, &cap, n + 1, sizeof *bc);
				bc[n++] = (struct bootcell){cells[c].series[s].boots[b].boot, c};
			}
	within_units(bc, n, cell_level, nf, within, mixed);
	free(bc);
}

/* The boots of one row in a design with within-boot factors: per boot (and between-boot
 * combination) its mean at each within-boot combination, from the cells' data gd (cell c at
 * levels cell_level[c*nf..]). Fills wb[0..*nk-1] (pointing into *m) and keys (boot id, between
 * combination in .cell); free *wb, *m and *key. */
struct wboots {
	struct st_wboot *wb;
	struct bootcell *key;
	double *m;
	size_t n, nw;
};

static void wboots_build(const struct gdata *gd, size_t ncells, const size_t *cell_level, const struct st_factor *f,
			 size_t nf, unsigned within, struct wboots *out)
{
	memset(out, 0, sizeof *out);
	size_t nb, nw, g, w, cap = 0, mcap = 0;
	stats_within_split(f, nf, within, cell_level, &g, &w, &nb, &nw);
	out->nw = nw;
	for (size_t c = 0; c < ncells; c++) {
		if (!gd[c].have)
			continue;
		stats_within_split(f, nf, within, &cell_level[c * nf], &g, &w, NULL, NULL);
		for (size_t b = 0; b < gd[c].g.nboots; b++) {
			size_t k = 0;
			while (k < out->n && !(out->key[k].boot == gd[c].bid[b] && out->key[k].cell == g))
				k++;
			if (k == out->n) {
				out->key = xgrow(out->key, &cap, k + 1, sizeof *out->key);
				out->m = xgrow(out->m, &mcap, (k + 1) * nw, sizeof *out->m);
				out->key[k] = (struct bootcell){gd[c].bid[b], g};
				for (size_t x = 0; x < nw; x++)
					out->m[k * nw + x] = NAN;
				out->n++;
			}
			out->m[k * nw + w] = stats_boot_mean(&gd[c].g.boots[b]);
		}
	}
	out->wb = xcalloc(out->n, sizeof *out->wb);
	for (size_t k = 0; k < out->n; k++)
		out->wb[k] = (struct st_wboot){out->key[k].cell, &out->m[k * nw]};
}

static void wboots_free(struct wboots *x)
{
	free(x->wb);
	free(x->key);
	free(x->m);
	memset(x, 0, sizeof *x);
}

/* Row r's effects in a design with within-boot factors (stats_factorial_within), and its
 * boots lacking some within-boot combination. */
static int row_within(struct an_analyze *out, struct an_frow *r, const struct gdata *gd, const struct st_factor *f,
		      size_t nf, const struct st_compare_opts *o, struct err *e)
{
	struct wboots x;
	wboots_build(gd, out->ncells, out->cell_level, f, nf, out->within, &x);
	for (size_t k = 0; k < x.n; k++) {
		bool full = true;
		for (size_t w = 0; w < x.nw; w++)
			full &= isfinite(x.m[k * x.nw + w]);
		if (!full) {
			r->incomplete = xrealloc(r->incomplete, (r->nincomplete + 1) * sizeof *r->incomplete);
			r->incomplete[r->nincomplete++] = x.key[k].boot;
		}
	}
	r->nwboots = x.n;
	if (r->nincomplete)
		qsort(r->incomplete, r->nincomplete, sizeof *r->incomplete, int64_cmp);
	int rc = stats_factorial_within(f, nf, out->within, x.wb, x.n, o, &r->fa, e);
	wboots_free(&x);
	return rc;
}

/* B against A paired inside each boot: both groups ran on the same boots (compare decides it
 * as analyze decides a within-boot factor, so a one-factor analyze gives the same row). The
 * comparison is the within-boot effect of a two-level factor (stats_factorial_within); *d gets
 * the estimate of the per-boot differences, for the advice on more boots. */
/* A run's pairing unit when it is not its boot: a duet campaign's block (AN_PAIR_BY_BLOCK). */
struct run_unit {
	int64_t run, unit;
};

static int run_unit_cmp(const void *pa, const void *pb)
{
	const struct run_unit *a = pa, *b = pb;
	return a->run < b->run ? -1 : a->run > b->run;
}

/* The same, with each boot of ga and gb keyed by the unit of its first run (units[0..nu-1],
 * sorted by run) instead of its boot id, when units is not NULL: B against A inside each duet
 * block. */
static int compare_paired(const struct gdata *ga, const struct gdata *gb, const struct run_unit *units, size_t nu,
			  const struct st_compare_opts *o, struct st_comparison *c, struct st_estimate *d,
			  struct err *e)
{
	static const char *const lv[] = {"A", "B"};
	const struct st_factor f = {"group", lv, 2};
	const size_t level[2] = {0, 1};
	struct gdata gd[2] = {*ga, *gb};
	int64_t *key[2] = {NULL, NULL};
	for (int i = 0; i < 2 && units; i++) {
		key[i] = xcalloc(gd[i].g.nboots ? gd[i].g.nboots : 1, sizeof *key[i]);
		for (size_t b = 0; b < gd[i].g.nboots; b++) {
			struct run_unit want = {gd[i].ids[gd[i].boots[b].runs - gd[i].runs], 0};
			const struct run_unit *hit = bsearch(&want, units, nu, sizeof *units, run_unit_cmp);
			key[i][b] = hit ? hit->unit : gd[i].bid[b];
		}
		gd[i].bid = key[i];
	}
	struct wboots x;
	wboots_build(gd, 2, level, &f, 1, 1u, &x);
	free(key[0]);
	free(key[1]);
	struct st_factorial fa;
	int rc = stats_factorial_within(&f, 1, 1u, x.wb, x.n, o, &fa, e);
	if (!rc) {
		*c = fa.effects[0].c;
		double *q = xcalloc(x.n, sizeof *q);
		size_t n = 0;
		for (size_t k = 0; k < x.n; k++)
			if (isfinite(x.m[2 * k]) && isfinite(x.m[2 * k + 1]))
				q[n++] = x.m[2 * k + 1] - x.m[2 * k];
		stats_iid_estimate(q, n, d);
		free(q);
	}
	stats_factorial_free(&fa);
	wboots_free(&x);
	return rc;
}

/* ---------------------------------------------------------------- arms paired by round */

static int arm_pair_cmp(const void *pa, const void *pb)
{
	const struct an_arm_pair *a = pa, *b = pb;
	int c = strcmp(a->boot, b->boot);
	return c ? c : a->a < b->a ? -1 : a->a > b->a;
}

size_t an_arm_pairs(const struct store_run_info *const *runs_a, size_t na, const struct store_run_info *const *runs_b,
		    size_t nb, struct an_arm_pair **out)
{
	*out = NULL;
	if (!na || na != nb)
		return 0;
	struct an_arm_pair *p = xcalloc(na, sizeof *p);
	size_t n = 0;
	bool ok = true;
	for (size_t i = 0; i < na && ok; i++)
		ok = runs_a[i]->pair && runs_b[i]->pair;
	for (size_t i = 0; i < na && ok; i++) {
		const char *tag = runs_a[i]->pair;
		size_t hits = 0, at = 0;
		for (size_t k = 0; k < nb; k++)
			if (!strcmp(tag, runs_b[k]->pair)) {
				hits++;
				at = k;
			}
		for (size_t k = 0; k < na; k++) /* one run of each side per paired run */
			if (k != i && !strcmp(tag, runs_a[k]->pair))
				hits = 0;
		ok = hits == 1 && runs_a[i]->id != runs_b[at]->id && runs_a[i]->boot_id && runs_b[at]->boot_id &&
		     !strcmp(runs_a[i]->boot_id, runs_b[at]->boot_id);
		if (ok)
			p[n++] = (struct an_arm_pair){runs_a[i]->id, runs_b[at]->id, runs_a[i]->boot_id};
	}
	if (!ok) {
		free(p);
		return 0;
	}
	qsort(p, n, sizeof *p, arm_pair_cmp);
	*out = p;
	return n;
}

static const struct store_series_run *series_run(const struct store_series *x, int64_t id)
{
	for (size_t b = 0; x && b < x->nboots; b++)
		for (size_t r = 0; r < x->boots[b].nruns; r++)
			if (x->boots[b].runs[r].run == id)
				return &x->boots[b].runs[r];
	return NULL;
}

/* Row k's differences B - A per round in the paired run p into *d, *rd (allocated; free them):
 * a plain row's over the rounds both arms sampled (warm-up left out), a composite's the mean
 * over its members of theirs, over the rounds both sampled every member (the composite is the
 * mean of its members' logs, less constants that cancel). Returns the count; 0 when either run
 * lacks the row or its rounds. */
static size_t pair_diffs(const struct store_set *a, const struct store_set *b, const struct rowkey *k,
			 const struct an_arm_pair *p, double **d, int **rd)
{
	size_t nm = k->ncomp ? k->comp->n : 1, cap = 0, n = 0;
	double *acc = NULL;
	size_t *cnt = NULL;
	*d = NULL;
	*rd = NULL;
	for (size_t m = 0; m < nm; m++) {
		const char *w = k->ncomp ? k->comp->workload[m] : k->workload;
		const struct store_series_run *sa = series_run(store_set_find(a, w, k->copies), p->a);
		const struct store_series_run *sb = series_run(store_set_find(b, w, k->copies), p->b);
		if (!sa || !sb || !sa->round || !sb->round) {
			free(acc);
			free(cnt);
			return 0;
		}
		for (size_t i = 0, j = 0; i < sa->n && j < sb->n;) {
			if (sa->round[i] < sb->round[j]) {
				i++;
			} else if (sb->round[j] < sa->round[i]) {
				j++;
			} else {
				size_t r = (size_t)sa->round[i];
				if (r >= cap) {
					size_t old = cap;
					cap = 2 * r + 16;
					acc = xrealloc(acc, cap * sizeof *acc);
					cnt = xrealloc(cnt, cap * sizeof *cnt);
					for (size_t z = old; z < cap; z++) {
						acc[z] = 0;
						cnt[z] = 0;
					}
				}
				acc[r] += sb->y[j] - sa->y[i];
				cnt[r]++;
				i++;
				j++;
			}
		}
	}
	*d = xcalloc(cap, sizeof **d);
	*rd = xcalloc(cap, sizeof **rd);
	for (size_t r = 0; r < cap; r++)
		if (cnt[r] == nm) {
			(*d)[n] = acc[r] / (double)nm;
			(*rd)[n++] = (int)r;
		}
	free(acc);
	free(cnt);
	return n;
}

/* Row k compared by round over the paired runs p[0..np-1] (an_arm_pairs): 1 with c and *pd set,
 * 0 when no paired run holds the row with rounds (the row is then compared as groups), -1 with
 * e set. */
static int compare_rounds(const struct store_set *a, const struct store_set *b, const struct rowkey *k,
			  const struct an_arm_pair *p, size_t np, const struct st_compare_opts *o, struct st_comparison *c,
			  struct st_estimate *pd, struct err *e)
{
	struct st_pairrun *pr = xcalloc(np, sizeof *pr);
	double **dv = xcalloc(np, sizeof *dv);
	int **rv = xcalloc(np, sizeof *rv);
	size_t n = 0, boot = 0;
	const char *last = NULL;
	for (size_t i = 0; i < np; i++) {
		size_t m = pair_diffs(a, b, k, &p[i], &dv[i], &rv[i]);
		if (!m)
			continue;
		if (last && strcmp(p[i].boot, last)) /* boots numbered from 0, without gaps */
			boot++;
		last = p[i].boot;
		pr[n++] = (struct st_pairrun){dv[i], rv[i], m, boot};
	}
	int rc = n ? stats_compare_rounds(pr, n, o, c, pd, e) ? -1 : 1 : 0;
	for (size_t i = 0; i < np; i++) {
		free(dv[i]);
		free(rv[i]);
	}
	free(dv);
	free(rv);
	free(pr);
	return rc;
}

/* ---------------------------------------------------------------- the pairing of a comparison */

/* True when the runs pair by unit (each run's boot, or by_block its duet block): the group is
 * a within-unit factor of two levels by the rule analyze follows (within_units). */
static bool units_paired(const struct store_run_info *const *const runs[2], const size_t n[2], bool by_block)
{
	struct bootcell *bc = xcalloc(n[0] + n[1] + 1, sizeof *bc);
	const char **boots = xcalloc(n[0] + n[1] + 1, sizeof *boots);
	size_t nc = 0, nboots = 0;
	for (size_t side = 0; side < 2; side++)
		for (size_t i = 0; i < n[side]; i++) {
			const struct store_run_info *r = runs[side][i];
			int64_t key = r->duet_block;
			if (!by_block) { /* a boot by the index of its id */
				const char *id = r->boot_id ? r->boot_id : "";
				size_t k = 0;
				while (k < nboots && strcmp(boots[k], id))
					k++;
				if (k == nboots)
					boots[nboots++] = id;
				key = (int64_t)k;
			}
			bc[nc++] = (struct bootcell){key, side};
		}
	static const size_t level[2] = {0, 1};
	unsigned within, mixed;
	within_units(bc, nc, level, 1, &within, &mixed);
	free(bc);
	free(boots);
	return within != 0;
}

/* True when the runs of every boot of both groups record one duet block. */
static bool boots_in_one_block(const struct store_run_info *const *const runs[2], const size_t n[2])
{
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			for (int t = 0; t < 2; t++)
				for (size_t j = 0; j < n[t]; j++) {
					const struct store_run_info *x = runs[s][i], *y = runs[t][j];
					if (x->boot_id && y->boot_id && !strcmp(x->boot_id, y->boot_id) &&
					    x->duet_block != y->duet_block)
						return false;
				}
	return true;
}

/* True when every run of both groups belongs to one campaign and records its duet block. */
static bool one_duet(const struct store_run_info *const *const runs[2], const size_t n[2])
{
	const char *camp = n[0] ? runs[0][0]->campaign : NULL;
	for (int side = 0; side < 2 && camp; side++)
		for (size_t i = 0; i < n[side] && camp; i++)
			if (!runs[side][i]->campaign || strcmp(runs[side][i]->campaign, camp) || !runs[side][i]->in_duet)
				camp = NULL;
	return camp != NULL;
}

enum an_pairing an_pairing_decide(const struct store_run_info *const *runs_a, size_t na,
				  const struct store_run_info *const *runs_b, size_t nb, enum st_level unit)
{
	if (!runs_b || !nb || !na)
		return AN_PAIR_GROUPS;
	struct an_arm_pair *ap;
	size_t nap = an_arm_pairs(runs_a, na, runs_b, nb, &ap);
	free(ap);
	if (nap)
		return AN_PAIR_BY_ROUND;
	if (unit != ST_LEVEL_BOOT)
		return AN_PAIR_GROUPS;
	const struct store_run_info *const *const runs[2] = {runs_a, runs_b};
	const size_t n[2] = {na, nb};
	if (one_duet(runs, n) && boots_in_one_block(runs, n)) /* a duet's boots are never shared */
		return units_paired(runs, n, true) ? AN_PAIR_BY_BLOCK : AN_PAIR_GROUPS;
	return units_paired(runs, n, false) ? AN_PAIR_BY_BOOT : AN_PAIR_GROUPS;
}

/* What a rule's row estimator reads: the sets, the options, the arm pairs (by round) and the
 * runs' blocks (by block). */
struct pair_ctx {
	const struct store_set *a, *b;
	const struct st_compare_opts *o;
	struct an_arm_pair *ap; /* owned: freed by an_compare */
	size_t nap;
	struct run_unit *units; /* owned too */
	size_t nu;
};

/* Compare row k (its groups' data ga, gb; r->a and r->b estimated) into r->c; *pd gets the
 * estimate of the paired differences (paired rules). Returns 0 or -1 with e set. */
typedef int pair_row_fn(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
			const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e);

static int row_groups(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
		      const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	(void)k, (void)ga, (void)gb, (void)pd, (void)e;
	stats_compare(&r->a, &r->b, x->o, &r->c);
	return 0;
}

static int row_by_unit(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
		       const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	(void)k;
	return compare_paired(ga, gb, x->units, x->nu, x->o, &r->c, pd, e);
}

/* by round; a row no paired run holds with rounds is compared as groups */
static int row_by_round(const struct pair_ctx *x, const struct rowkey *k, const struct gdata *ga,
			const struct gdata *gb, struct an_row *r, struct st_estimate *pd, struct err *e)
{
	int rc = compare_rounds(x->a, x->b, k, x->ap, x->nap, x->o, &r->c, pd, e);
	if (rc > 0)
		r->by_round = true;
	return rc < 0 ? -1 : rc ? 0 : row_groups(x, k, ga, gb, r, pd, e);
}

static const struct pair_rule {
	struct an_pair_rule rule;
	pair_row_fn *row;
} pair_rules[] = {
	[AN_PAIR_GROUPS] = {{AN_PAIR_GROUPS, "groups", "stats_compare", 0, false, true, NULL}, row_groups},
	[AN_PAIR_BY_BOOT] = {{AN_PAIR_BY_BOOT, "by_boot", "stats_factorial_within", ST_CAVEAT_PAIRED, false, false,
			      "--adjust host: A and B ran on the same boots, so B is compared with A inside each boot, "
			      "and that paired comparison is not adjusted for host speed; compare without --adjust host "
			      "(the pairing already cancels what the runs of one boot share)"},
			     row_by_unit},
	/* a duet was refused in the words of shared boots before it was a rule: the same words */
	[AN_PAIR_BY_BLOCK] = {{AN_PAIR_BY_BLOCK, "by_block", "stats_factorial_within", ST_CAVEAT_DUET_PAIRED, false,
			       false,
			       "--adjust host: A and B ran on the same boots, so B is compared with A inside each boot, "
			       "and that paired comparison is not adjusted for host speed; compare without --adjust host "
			       "(the pairing already cancels what the runs of one boot share)"},
			      row_by_unit},
	[AN_PAIR_BY_ROUND] = {{AN_PAIR_BY_ROUND, "by_round", "stats_compare_rounds", ST_CAVEAT_PAIRED_ROUNDS, true,
			       false,
			       "--adjust host: A and B are arms of paired runs (sysab run --arm), compared round by round "
			       "inside each run, and that comparison is not adjusted for host speed; compare without "
			       "--adjust host (the pairing already cancels what the rounds share)"},
			      row_by_round},
};

const struct an_pair_rule *an_pair_rule(enum an_pairing p)
{
	return &pair_rules[(size_t)p < sizeof pair_rules / sizeof *pair_rules ? p : AN_PAIR_GROUPS].rule;
}

/* The block of each run of both groups, sorted by run (for AN_PAIR_BY_BLOCK). */
static struct run_unit *run_blocks(const struct an_compare_in *in, size_t *n)
{
	struct run_unit *u = xcalloc(in->na + in->nb + 1, sizeof *u);
	*n = 0;
	for (size_t i = 0; i < in->na; i++)
		u[(*n)++] = (struct run_unit){in->runs_a[i]->id, in->runs_a[i]->duet_block};
	for (size_t i = 0; i < in->nb; i++)
		u[(*n)++] = (struct run_unit){in->runs_b[i]->id, in->runs_b[i]->duet_block};
	qsort(u, *n, sizeof *u, run_unit_cmp);
	return u;
}

/* Row k of a comparison into r: both groups' estimates, diagnostics and points, and where both
 * have data (*compared set) B against A by rule's estimator, its rows carrying the rule's caveat.
 * Returns 0 or -1 with e set. */
static int compare_row(const struct pair_rule *rule, const struct pair_ctx *x, const struct store_set sets[2],
		       const struct rowkey *k, struct an_row *r, struct st_estimate *pd, bool *compared, struct err *e)
{
	int rc = 0;
	row_init(r, k);
	struct gdata ga, gb;
	gdata_row(&sets[0], k, &ga);
	gdata_row(&sets[1], k, &gb);
	r->have_a = ga.have;
	r->have_b = gb.have;
	points_of(&ga, &r->pa);
	points_of(&gb, &r->pb);
	if (!k->ncomp) {
		diag_group(&ga, &r->diag_a);
		diag_group(&gb, &r->diag_b);
	}
	if (ga.have && gb.have) {
		struct st_group g[2] = {ga.g, gb.g};
		struct st_estimate est[2];
		struct gdata gd[2] = {ga, gb};
		if (estimate_row(sets, gd, (size_t[]){0, 1}, g, 2, k, x->o, est, &r->adj, e)) {
			err_prefix(e, "%s", r->workload);
			rc = -1;
		} else {
			r->a = est[0];
			r->b = est[1];
			rc = rule->row(x, k, &ga, &gb, r, pd, e);
			/* the estimator's "paired inside each unit" named as the rule's unit */
			if (!rc && rule->rule.caveat && (r->c.caveats & ST_CAVEAT_PAIRED))
				r->c.caveats = (r->c.caveats & ~ST_CAVEAT_PAIRED) | rule->rule.caveat;
			*compared = true;
		}
	} else if (ga.have || gb.have) {
		struct st_estimate est;
		if (stats_estimate_groups(ga.have ? &ga.g : &gb.g, 1, &est, e) == 0)
			*(ga.have ? &r->a : &r->b) = est;
	}
	gdata_free(&ga);
	gdata_free(&gb);
	return rc;
}

int an_compare(const struct an_compare_in *in, struct an_compare *out, struct err *e)
{
	const struct st_compare_opts *o = in->o;
	const struct store_set *a = in->a, *b = in->b;
	memset(out, 0, sizeof *out);
	out->o = *o;
	out->ngroups = b ? 2 : 1;
	static const struct store_set none;
	if (!b) /* one group: its estimates, with nothing to compare against */
		b = &none;
	enum an_pairing pairing = b == &none ? AN_PAIR_GROUPS : in->pairing;
	const struct pair_rule *rule = &pair_rules[an_pair_rule(pairing)->pairing];
	struct pair_ctx x = {a, b, o, NULL, 0, NULL, 0};
	if (pairing == AN_PAIR_BY_ROUND)
		x.nap = an_arm_pairs(in->runs_a, in->na, in->runs_b, in->nb, &x.ap);
	if (pairing == AN_PAIR_BY_BLOCK)
		x.units = run_blocks(in, &x.nu);
	out->pairing = pairing;
	out->paired_rounds = x.nap;
	out->paired = pairing == AN_PAIR_BY_BOOT || pairing == AN_PAIR_BY_BLOCK;
	out->duet = pairing == AN_PAIR_BY_BLOCK;
	struct store_set sets[2] = {*a, *b};
	struct rowkey *k;
	size_t nk;
	if (make_rows(sets, 2, in->patterns, &k, &nk, e)) {
		free(x.ap);
		free(x.units);
		return -1;
	}
	out->rows = xcalloc(nk, sizeof *out->rows);
	out->nrows = nk;
	struct st_comparison *cs = xcalloc(nk, sizeof *cs);
	size_t *ci = xcalloc(nk, sizeof *ci);
	struct st_estimate *pd = xcalloc(nk, sizeof *pd); /* paired rows: per-unit differences */
	size_t ncs = 0;
	int rc = 0;
	if (o->host_adjust && !rule->rule.adjust_host)
		rc = errf(e, "%s", rule->rule.no_adjust);
	for (size_t i = 0; i < nk && !rc; i++) {
		bool compared = false;
		rc = compare_row(rule, &x, sets, &k[i], &out->rows[i], &pd[i], &compared, e);
		if (compared) {
			cs[ncs] = out->rows[i].c;
			ci[ncs++] = i;
		}
	}
	if (!rc) {
		stats_compare_adjust(cs, ncs);
		for (size_t j = 0; j < ncs; j++) {
			struct an_row *r = &out->rows[ci[j]];
			r->c = cs[j];
			/* paired: the per-unit differences are the one varying term */
			struct st_estimate zero = pd[ci[j]];
			zero.se = 0;
			if (r->c.verdict == ST_INCONCLUSIVE)
				r->more_boots = out->paired || r->by_round
							? stats_more_boots(&zero, &pd[ci[j]], &r->c, o, &r->settles_as)
							    : stats_more_boots(&r->a, &r->b, &r->c, o, &r->settles_as);
		}
		for (size_t i = 0; i < nk; i++) {
			struct an_row *r = &out->rows[i];
			an_value_of(r->have_a ? &r->a : NULL, o->alpha, &r->va);
			an_value_of(r->have_b ? &r->b : NULL, o->alpha, &r->vb);
			an_change_of(&r->c, r->latency, &r->chg);
			out->change_kinds |= r->latency ? AN_CHG_TIME : AN_CHG_RATE;
		}
		confounders(in->runs_a, in->na, in->runs_b, in->nb, in->env_a, in->env_b, out);
		an_emulation_of(in->env_a, &out->emu[0]);
		an_emulation_of(in->env_b, &out->emu[1]);
	}
	free(cs);
	free(ci);
	free(pd);
	free(x.ap);
	free(x.units);
	keys_free(k, nk);
	if (rc)
		an_compare_free(out);
	return rc;
}

static void rows_free(struct an_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].workload);
		free(rows[i].event);
		free(rows[i].unit);
		free(rows[i].composite);
		an_points_free(&rows[i].pa);
		an_points_free(&rows[i].pb);
		an_failed_check_free(&rows[i].failed);
	}
	free(rows);
}

void an_compare_free(struct an_compare *c)
{
	if (!c)
		return;
	rows_free(c->rows, c->nrows);
	rows_free(c->crows, c->ncrows);
	for (size_t i = 0; i < c->nconf; i++) {
		free(c->conf[i].key);
		free(c->conf[i].a);
		free(c->conf[i].b);
		free(c->conf[i].explained_by);
	}
	free(c->conf);
	an_emulation_free(&c->emu[0]);
	an_emulation_free(&c->emu[1]);
	memset(c, 0, sizeof *c);
}

/* ---------------------------------------------------------------- counter rows */

/* True when every sample of the series is 0. */
static bool series_all_zero(const struct store_series *x)
{
	for (size_t b = 0; b < x->nboots; b++)
		for (size_t r = 0; r < x->boots[b].nruns; r++)
			for (size_t i = 0; i < x->boots[b].runs[r].n; i++)
				if (x->boots[b].runs[r].y[i] != 0)
					return false;
	return true;
}

/* The value every sample of both series has, or NAN when they differ. */
static double series_constant(const struct store_series *x, const struct store_series *y)
{
	double v = NAN;
	const struct store_series *xy[2] = {x, y};
	for (int k = 0; k < 2; k++)
		for (size_t b = 0; b < xy[k]->nboots; b++)
			for (size_t r = 0; r < xy[k]->boots[b].nruns; r++)
				for (size_t i = 0; i < xy[k]->boots[b].runs[r].n; i++) {
					double s = xy[k]->boots[b].runs[r].y[i];
					if (isnan(v))
						v = s;
					else if (s != v)
						return NAN;
				}
	return v;
}

/* Is (workload, copies) one of c's timing rows (so -w filters counter rows too)? */
static bool has_row(const struct an_compare *c, const char *workload, int copies)
{
	for (size_t i = 0; i < c->nrows; i++)
		if (c->rows[i].copies == copies && !strcmp(c->rows[i].workload, workload))
			return true;
	return false;
}

static const struct store_series *counter_find(const struct store_set *set, const struct store_series *x)
{
	for (size_t i = 0; i < set->nseries; i++)
		if (set->series[i].copies == x->copies && !strcmp(set->series[i].workload, x->workload) &&
		    !strcmp(set->series[i].event, x->event))
			return &set->series[i];
	return NULL;
}

int an_compare_counters(const struct store_set *a, const struct store_set *b, struct an_compare *out, struct err *e)
{
	/* Counters explain, they do not gate: no equivalence margin (never "equivalent" or
	 * "negligible"); alpha, --unit and the sequential look as for the timing rows. */
	struct st_compare_opts o = out->o;
	o.margin = 0;
	out->crows = xcalloc(a->nseries, sizeof *out->crows);
	out->ncrows = 0;
	struct st_comparison *cs = xcalloc(a->nseries, sizeof *cs);
	int rc = 0;
	for (size_t i = 0; i < a->nseries && !rc; i++) {
		const struct store_series *xa = &a->series[i], *xb = counter_find(b, xa);
		if (!xb || !has_row(out, xa->workload, xa->copies) || (series_all_zero(xa) && series_all_zero(xb)))
			continue;
		struct gdata ga, gb;
		gdata_series(xa, &ga);
		gdata_series(xb, &gb);
		struct st_group g[2] = {ga.g, gb.g};
		struct st_estimate est[2];
		if (stats_estimate_groups_scale(g, 2, true, est, e)) {
			err_prefix(e, "%s, %s per op", xa->workload, xa->event);
			rc = -1;
		} else {
			struct an_row *r = &out->crows[out->ncrows];
			memset(r, 0, sizeof *r);
			r->workload = xstrdup(xa->workload);
			r->event = xstrdup(xa->event);
			r->copies = xa->copies;
			r->unit = xstrdup("op");
			r->have_a = r->have_b = true;
			r->constant = series_constant(xa, xb);
			r->a = est[0];
			r->b = est[1];
			stats_compare(&r->a, &r->b, &o, &r->c);
			cs[out->ncrows++] = r->c;
		}
		gdata_free(&ga);
		gdata_free(&gb);
	}
	if (rc) {
		rows_free(out->crows, out->ncrows);
		out->crows = NULL;
		out->ncrows = 0;
		free(cs);
		return -1;
	}
	stats_compare_adjust(cs, out->ncrows); /* their own family: the timing rows' q stay as they are */
	for (size_t i = 0; i < out->ncrows; i++) {
		struct an_row *r = &out->crows[i];
		r->c = cs[i];
		value_on(&r->a, o.alpha, true, &r->va);
		value_on(&r->b, o.alpha, true, &r->vb);
		/* B - A per op and its interval at the level the comparison used */
		r->chg = (struct an_change){r->c.d, r->c.lo, r->c.hi, false};
		r->rel = r->a.mean > 0 ? r->b.mean / r->a.mean - 1 : NAN;
	}
	free(cs);
	return 0;
}

/* ---------------------------------------------------------------- factorial */

/* Adjust each effect across rows (Benjamini-Hochberg), then record the changes as shown. */
/* Which effects have a point estimate and no interval (an_analyze.points_only), and why. */
static void point_estimates(struct an_analyze *out)
{
	size_t points = 0, all = 0;
	for (size_t i = 0; i < out->nrows; i++)
		for (size_t k = 0; k < out->rows[i].fa.neffects; k++) {
			const struct st_effect *ef = &out->rows[i].fa.effects[k];
			all++;
			points += an_effect_point_only(ef);
		}
	out->points_only = points && points == all;
	if (!points)
		return;
	if (out->max_boots <= 1)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "1 boot per cell");
	else if (out->need == ST_NEED_RUNS)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "1 run per boot in a cell");
	else if (out->need == ST_NEED_SAMPLES)
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "too few samples in a cell's runs");
	else
		snprintf(out->why_no_interval, sizeof out->why_no_interval, "a cell on fewer than 2 boots");
}

bool an_effect_point_only(const struct st_effect *ef)
{
	return !ef->available && isfinite(ef->c.d);
}

static void analyze_finish(struct an_analyze *out)
{
	/* Benjamini-Hochberg across rows, per effect */
	if (out->nrows) {
		size_t ne = out->rows[0].fa.neffects;
		struct st_comparison *cs = xcalloc(out->nrows, sizeof *cs);
		size_t *ri = xcalloc(out->nrows, sizeof *ri);
		for (size_t ef = 0; ef < ne; ef++) {
			size_t n = 0;
			for (size_t i = 0; i < out->nrows; i++) {
				struct st_factorial *fa = &out->rows[i].fa;
				if (ef < fa->neffects && fa->effects[ef].available && fa->effects[ef].c.verdict != ST_NO_DATA) {
					cs[n] = fa->effects[ef].c;
					ri[n++] = i;
				}
			}
			stats_compare_adjust(cs, n);
			for (size_t j = 0; j < n; j++)
				out->rows[ri[j]].fa.effects[ef].c = cs[j];

			if (n)
				out->any_interval = true;
		}
		free(cs);
		free(ri);
	}
	/* the changes as shown, from the adjusted comparisons */
	for (size_t i = 0; i < out->nrows; i++) {
		struct an_frow *r = &out->rows[i];
		r->chg = xcalloc(r->fa.neffects, sizeof *r->chg);
		out->change_kinds |= r->latency ? AN_CHG_TIME : AN_CHG_RATE;
		for (size_t ef = 0; ef < r->fa.neffects; ef++)
			an_change_of(&r->fa.effects[ef].c, r->latency, &r->chg[ef]);
	}
}

/* A new row for key k, with its per-cell arrays for ncells cells. */
static void frow_init(struct an_frow *r, const struct rowkey *k, size_t ncells)
{
	r->workload = xstrdup(k->workload);
	r->copies = k->copies;
	r->unit = xstrdup(k->unit);
	r->latency = k->latency;
	r->ncomposite = k->ncomp;
	r->composite = describe(k);
	r->have = xcalloc(ncells, sizeof *r->have);
	r->est = xcalloc(ncells, sizeof *r->est);
	r->pts = xcalloc(ncells, sizeof *r->pts);
}

/* Row k's data in every cell into gd (and r's have and points); the cells that have some
 * into g, with map[j] the cell of g[j]; the most boots and runs per boot seen into out.
 * Returns how many cells have data. */
static size_t gather_cells(const struct store_set *cells, size_t ncells, const struct rowkey *k, struct gdata *gd,
			   struct an_frow *r, struct st_group *g, size_t *map, struct an_analyze *out)
{
	size_t ng = 0;
	for (size_t c = 0; c < ncells; c++) {
		gdata_row(&cells[c], k, &gd[c]);
		r->have[c] = gd[c].have;
		points_of(&gd[c], &r->pts[c]);
		if (!gd[c].have)
			continue;
		map[ng] = c;
		g[ng++] = gd[c].g;
		for (size_t b = 0; b < gd[c].g.nboots; b++)
			if (gd[c].g.boots[b].nruns > out->max_runs)
				out->max_runs = gd[c].g.boots[b].nruns;
		if (gd[c].g.nboots > out->max_boots)
			out->max_boots = gd[c].g.nboots;
	}
	return ng;
}

int an_analyze(const struct store_set *cells, size_t ncells, const size_t *cell_level, const struct st_factor *f,
	       size_t nf, const struct strv *patterns, const struct st_compare_opts *o, struct an_analyze *out,
	       struct err *e)
{
	memset(out, 0, sizeof *out);
	out->factors = f;
	out->nfactors = nf;
	out->ncells = ncells;
	out->cell_level = cell_level;
	out->o = *o;
	/* --unit run declares runs the replicates within one boot: nothing to pair boots over */
	if (o->unit == ST_LEVEL_BOOT)
		within_factors(cells, ncells, cell_level, nf, &out->within, &out->mixed);
	if (out->within && o->host_adjust)
		return errf(e, "--adjust host: a factor varies inside each boot, whose effects are taken inside each "
			       "boot, and those are not adjusted for host speed; analyze without --adjust host (the "
			       "pairing already cancels what the runs of one boot share)");
	struct rowkey *k;
	size_t nk;
	if (make_rows(cells, ncells, patterns, &k, &nk, e))
		return -1;
	out->rows = xcalloc(nk, sizeof *out->rows);
	size_t needs[ST_NEED_BOOTS + 1] = {0};
	int rc = 0;
	struct gdata *gd = xcalloc(ncells, sizeof *gd);
	struct st_group *g = xcalloc(ncells, sizeof *g);
	struct st_estimate *est = xcalloc(ncells, sizeof *est);
	struct st_cell *sc = xcalloc(ncells, sizeof *sc);
	size_t *map = xcalloc(ncells, sizeof *map);
	for (size_t i = 0; i < nk && !rc; i++) {
		struct an_frow *r = &out->rows[out->nrows++];
		frow_init(r, &k[i], ncells);
		size_t ng = gather_cells(cells, ncells, &k[i], gd, r, g, map, out);
		if (ng && estimate_row(cells, gd, map, g, ng, &k[i], o, est, &r->adj, e)) {
			err_prefix(e, "%s", r->workload);
			rc = -1;
		}
		size_t nsc = 0;
		for (size_t j = 0; j < ng && !rc; j++) {
			r->est[map[j]] = est[j];
			sc[nsc++] = (struct st_cell){&cell_level[map[j] * nf], &r->est[map[j]]};
			if (!est[j].has_interval)
				needs[est[j].need]++;
		}
		if (!rc && (out->within ? row_within(out, r, gd, f, nf, o, e) : stats_factorial(f, nf, sc, nsc, o, &r->fa, e)))
			rc = -1;
		r->val = xcalloc(ncells, sizeof *r->val);
		for (size_t c = 0; c < ncells; c++)
			an_value_of(r->have[c] ? &r->est[c] : NULL, o->alpha, &r->val[c]);
		for (size_t c = 0; c < ncells; c++)
			gdata_free(&gd[c]);
	}
	if (!rc)
		analyze_finish(out);
	size_t best = 0;
	for (size_t x = 0; x <= ST_NEED_BOOTS; x++)
		if (needs[x] > best) {
			best = needs[x];
			out->need = (enum st_need)x;
		}
	if (!rc)
		point_estimates(out);
	free(gd);
	free(g);
	free(est);
	free(sc);
	free(map);
	keys_free(k, nk);
	if (rc)
		an_analyze_free(out);
	return rc;
}

void an_analyze_free(struct an_analyze *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nrows; i++) {
		free(a->rows[i].workload);
		free(a->rows[i].unit);
		free(a->rows[i].composite);
		free(a->rows[i].have);
		free(a->rows[i].est);
		free(a->rows[i].val);
		free(a->rows[i].chg);
		free(a->rows[i].incomplete);
		for (size_t c = 0; c < a->ncells && a->rows[i].pts; c++)
			an_points_free(&a->rows[i].pts[c]);
		free(a->rows[i].pts);
		stats_factorial_free(&a->rows[i].fa);
		an_failed_check_free(&a->rows[i].failed);
	}
	free(a->rows);
	an_emulation_free(&a->emu);
	memset(a, 0, sizeof *a);
}

/* ---------------------------------------------------------------- plan */

/* Mean seconds per sample of one series (0 when nothing was timed). */
static double series_sample_cost(const struct store_series *x)
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
static double run_overhead(const struct store_set *sets, size_t ns, const struct store_run_info *const *runs,
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
				c += series_sample_cost(store_set_find(&sets[s], k->comp->workload[w], k->copies));
		else
			c = series_sample_cost(store_set_find(&sets[s], k->workload, k->copies));
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
		gdata_row(&sets[c], k, &gd[c]);
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
		gdata_free(&gd[c]);
	free(gd);
	return rc;
}

static int plan_row_within(const struct an_analyze *a, const struct rowkey *k, const struct st_plan_opts *p,
			   struct an_prow *r, struct err *e);
static void plan_within_args(const struct an_analyze *a, struct an_plan *out);

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
	if (make_rows(sets, ns, patterns, &k, &nk, e))
		return -1;
	out->costs.run = run_overhead(sets, ns, runs, nruns);
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
	keys_free(k, nk);
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

/* ---------------------------------------------------------------- allocation */

/* The run level of ln(sysab-index) from FROM's whole runs, summed over the copies counts of
 * rows: per count, the variance of the runs' ln index less its within-run part
 * sum w_i^2 tau2_i / nbar_i (nbar_i: member i's mean samples per run there), truncated at 0.
 * Run effects shared between members count, as they do in the index. NAN when a count's
 * members in rows are not FROM's composite, or fewer than 2 runs hold it. */
static double index_run_level(const struct store_set *set, const struct an_alloc_row *rows, size_t n,
			      const double *nbar)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++) {
		if (!(rows[i].weight > 0))
			continue;
		bool first = true;
		for (size_t k = 0; k < i && first; k++)
			first = !(rows[k].weight > 0 && rows[k].copies == rows[i].copies);
		if (!first)
			continue;
		struct an_composite c[2];
		size_t nc = an_composites(set, 1, rows[i].copies, c), ci = nc;
		for (size_t k = 0; k < nc; k++)
			if (!strcmp(c[k].name, AN_SYSAB_INDEX))
				ci = k;
		size_t m = 0;
		double within = 0;
		for (size_t k = 0; k < n; k++)
			if (rows[k].weight > 0 && rows[k].copies == rows[i].copies) {
				bool in = false;
				for (size_t j = 0; ci < nc && j < c[ci].n; j++)
					in |= !strcmp(c[ci].workload[j], rows[k].workload);
				if (!in || !(rows[k].tau2 >= 0) || !(nbar[k] > 0))
					return NAN;
				within += rows[k].weight * rows[k].weight * rows[k].tau2 / nbar[k];
				m++;
			}
		if (ci == nc || m != c[ci].n)
			return NAN;
		struct an_composite_run *v;
		size_t nr = an_composite_runs(set, &c[ci], &v);
		double *y = xcalloc(nr, sizeof *y);
		for (size_t k = 0; k < nr; k++)
			y[k] = v[k].y;
		double var = stats_mean_var(y, nr, NULL);
		free(y);
		free(v);
		if (!(var >= 0))
			return NAN;
		sum += var > within ? var - within : 0;
	}
	return sum;
}

/* A variance of a log as a relative sd in percent (NAN stays NAN). */
static double sd_pct(double v)
{
	return sqrt(v) * 100;
}

int an_allocate(const struct store_set *set, const struct store_run_info *const *runs, size_t nruns,
		struct an_alloc_row *rows, size_t n, const struct st_alloc_opts *o, struct an_alloc *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->ao = *o;
	struct st_alloc_item *it = xcalloc(n, sizeof *it);
	size_t *cnt = xcalloc(n, sizeof *cnt);
	double *nbar = xcalloc(n, sizeof *nbar);
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		struct an_alloc_row *r = &rows[i];
		const struct workload *w = wl_find(r->workload);
		size_t m = 0; /* index members at these copies */
		for (size_t k = 0; k < n; k++) {
			const struct workload *x = wl_find(rows[k].workload);
			m += rows[k].copies == r->copies && x && (x->flags & WL_INDEX) && x->baseline > 0;
		}
		r->weight = w && (w->flags & WL_INDEX) && w->baseline > 0 ? 1.0 / (double)m : 0;
		r->tau2 = r->cost = r->var_run = NAN;
		r->history = 0;
		const struct store_series *x = store_set_find(set, r->workload, r->copies);
		struct gdata gd;
		gdata_series(x, &gd);
		if (gd.have) {
			struct st_estimate est;
			if (stats_estimate_groups(&gd.g, 1, &est, e)) {
				err_prefix(e, "%s", r->workload);
				rc = -1;
			} else {
				r->history = gd.nruns;
				r->tau2 = est.own.var_within;
				r->var_run = est.own.have & ST_BIT(ST_LEVEL_RUN) ? est.own.var_run : NAN;
				double c = series_sample_cost(x);
				r->cost = c > 0 ? c : NAN;
				size_t ns = 0;
				for (size_t k = 0; k < gd.nruns; k++)
					ns += gd.runs[k].n;
				nbar[i] = (double)ns / (double)gd.nruns;
				/* below 3/4: more than the warm-up detector ever drops (a quarter) */
				r->cut_short = 4 * (double)ns < 3 * (double)o->n0 * (double)gd.nruns;
				if (r->cut_short)
					r->cost = NAN; /* keeps its default count */
			}
		}
		gdata_free(&gd);
		it[i] = (struct st_alloc_item){.w = r->weight, .tau2 = r->tau2, .cost = r->cost, .var_run = r->var_run};
	}
	if (!rc)
		rc = stats_allocate(it, n, o, cnt, &out->a, e);
	if (!rc) {
		for (size_t i = 0; i < n; i++) {
			rows[i].allocated = rows[i].weight > 0 && isfinite(it[i].tau2) && it[i].tau2 >= 0 &&
					    isfinite(it[i].cost) && it[i].cost > 0;
			rows[i].samples = (int)cnt[i];
		}
		out->run_cost = run_overhead(set, 1, runs, nruns) * (double)n;
		out->var_run_index = index_run_level(set, rows, n, nbar);
		int pr = stats_allocate_runs(it, n, o, out->var_run_index, out->run_cost, AN_ALLOC_MAX_RUNS,
					     &out->runs, e);
		if (pr < 0)
			rc = -1;
		out->runs_planned = pr == 0;
		for (size_t i = 0; i < n; i++)
			rows[i].sd_sample_pct = sd_pct(rows[i].tau2);
		out->sd_default_pct = sd_pct(out->a.var_default);
		out->sd_alloc_pct = sd_pct(out->a.var_alloc);
		out->var_change_pct = out->a.var_default > 0 ? (out->a.var_alloc / out->a.var_default - 1) * 100 : 0;
		out->sd_run_pct = sd_pct(out->runs.var_one - out->a.var_alloc);
		out->sd_one_pct = sd_pct(out->runs.var_one);
		out->sd_best_pct = sd_pct(out->runs.var_best);
	}
	free(it);
	free(cnt);
	free(nbar);
	return rc;
}
