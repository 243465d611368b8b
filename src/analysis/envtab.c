/* envtab.c - the environment table of a comparison and the confounders between its groups. */
#include "analysis/internal.h"
#include "analysis/composite.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void an_confounders(const struct store_run_info *const *ra, size_t na, const struct store_run_info *const *rb,
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
