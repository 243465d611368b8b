/* confound.c - the confounder list: which differences the change under test explains, and how much the rest can move a workload. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* How much a difference in an environment key can move the workloads sysab compares (a
 * key: exact, or a prefix ending in '.'; the first match wins; unlisted keys are medium).
 * High: what changes the cost of every kernel entry, timer read or page fault, or the clock
 * itself; low: what names a build or a tool without changing what an op costs. */
static const struct {
	const char *key;
	enum an_impact impact;
} impact_table[] = {
	{"clocksource", AN_IMPACT_HIGH},
	{"cpufreq.", AN_IMPACT_HIGH},       /* governor, driver, boost/turbo */
	{"thp.", AN_IMPACT_HIGH},
	{"vuln.", AN_IMPACT_HIGH},          /* the mitigations in force */
	{"kernel.cmdline", AN_IMPACT_HIGH},
	{"smt.", AN_IMPACT_HIGH},
	{"cpuidle.", AN_IMPACT_HIGH},
	{"hypervisor", AN_IMPACT_HIGH},
	{"emulated", AN_IMPACT_HIGH},
	{"campaign.accel", AN_IMPACT_HIGH},
	{"run.icache_pressure", AN_IMPACT_HIGH},
	{"mem.page_size", AN_IMPACT_HIGH},
	{"timer.vdso", AN_IMPACT_HIGH},
	{"timer.clock", AN_IMPACT_HIGH},
	{"glibc", AN_IMPACT_LOW},
	{"sysab.", AN_IMPACT_LOW},          /* version, build flags */
	{"cache.source", AN_IMPACT_LOW},
	{"timer.check", AN_IMPACT_LOW},
	{"timer.res_ns", AN_IMPACT_LOW},
	{"hostname", AN_IMPACT_LOW},
	{"user.root", AN_IMPACT_LOW},
	{"kaslr.", AN_IMPACT_LOW},
	{"counters.", AN_IMPACT_LOW},
};

/* Which environment keys a word explains when it differs between the groups: a word of the
 * kernel command line (its part before '='), a label key or a label value's part before '='.
 * A key pattern ending in '.' is a prefix. */
static const struct {
	const char *word;
	const char *keys;
} explain_table[] = {
	{"mitigations", "vuln."},
	{"nopti", "vuln.meltdown"},
	{"pti", "vuln.meltdown"},
	{"nospectre_v1", "vuln.spectre_v1"},
	{"nospectre_v2", "vuln.spectre_v2"},
	{"spectre_v2", "vuln.spectre_v2"},
	{"spectre_v2_user", "vuln.spectre_v2"},
	{"spectre_bhi", "vuln.spectre_v2"},
	{"spec_store_bypass_disable", "vuln.spec_store_bypass"},
	{"nospec_store_bypass_disable", "vuln.spec_store_bypass"},
	{"ssbd", "vuln.spec_store_bypass"},
	{"mds", "vuln.mds"},
	{"tsx_async_abort", "vuln.tsx_async_abort"},
	{"tsx", "vuln.tsx_async_abort"},
	{"retbleed", "vuln.retbleed"},
	{"l1tf", "vuln.l1tf"},
	{"srbds", "vuln.srbds"},
	{"mmio_stale_data", "vuln.mmio_stale_data"},
	{"gather_data_sampling", "vuln.gather_data_sampling"},
	{"spec_rstack_overflow", "vuln.spec_rstack_overflow"},
	{"reg_file_data_sampling", "vuln.reg_file_data_sampling"},
	{"transparent_hugepage", "thp."},
	{"thp", "thp."},
	{"clocksource", "clocksource"},
	{"nosmt", "smt."},
	{"smt", "smt."},
	{"intel_pstate", "cpufreq."},
	{"amd_pstate", "cpufreq."},
	{"cpufreq.default_governor", "cpufreq.governor"},
	{"governor", "cpufreq.governor"},
	{"idle", "cpuidle."},
	{"cpuidle.off", "cpuidle."},
	{"intel_idle.max_cstate", "cpuidle."},
	{"processor.max_cstate", "cpuidle."},
	{"nokaslr", "kaslr."},
	{"norandmaps", "aslr."},
};

static bool key_matches(const char *pattern, const char *key)
{
	size_t n = strlen(pattern);
	return pattern[n - 1] == '.' ? !strncmp(pattern, key, n) : !strcmp(pattern, key);
}

enum an_impact an_env_impact(const char *key)
{
	for (size_t i = 0; i < sizeof impact_table / sizeof impact_table[0]; i++)
		if (key_matches(impact_table[i].key, key))
			return impact_table[i].impact;
	return AN_IMPACT_MEDIUM;
}

/* The word a token is looked up by: its part before '=' (the whole token without one). */
static bool word_explains(const char *token, const char *key)
{
	const char *eq = strchr(token, '=');
	size_t n = eq ? (size_t)(eq - token) : strlen(token);
	for (size_t i = 0; i < sizeof explain_table / sizeof explain_table[0]; i++)
		if (strlen(explain_table[i].word) == n && !strncmp(explain_table[i].word, token, n) &&
		    key_matches(explain_table[i].keys, key))
			return true;
	return false;
}

/* The words of the values of one group's kernel.cmdline into out (each once). */
static void cmdline_words(const struct store_env *env, struct strv *out)
{
	for (size_t k = 0; k < env->nk; k++) {
		if (strcmp(env->k[k].key, "kernel.cmdline"))
			continue;
		for (size_t v = 0; v < env->k[k].nv; v++) {
			struct strv w = {0};
			an_cmdline_words(env->k[k].v[v].value, &w);
			for (size_t i = 0; i < w.n; i++)
				if (!strv_has(out, w.v[i]))
					strv_add(out, w.v[i]);
			strv_free(&w);
		}
	}
}

/* The label pairs "KEY=VALUE" of one group's runs into out (each once). */
static void label_pairs(const struct store_run_info *const *runs, size_t n, struct strv *out)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < runs[i]->labels.n; j++) {
			char *p = xasprintf("%s=%s", runs[i]->labels.v[j].key, runs[i]->labels.v[j].value);
			if (!strv_has(out, p))
				strv_add(out, p);
			free(p);
		}
}

/* Words in a but not in b, and in b but not in a, into out. */
static void differ(const struct strv *a, const struct strv *b, struct strv *out)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strv_has(b, a->v[i]) && !strv_has(out, a->v[i]))
			strv_add(out, a->v[i]);
	for (size_t i = 0; i < b->n; i++)
		if (!strv_has(a, b->v[i]) && !strv_has(out, b->v[i]))
			strv_add(out, b->v[i]);
}

/* The first word of w explaining key: itself, its key part, or (a label pair) its value. */
static const char *explainer(const struct strv *w, const char *key, bool label)
{
	for (size_t i = 0; i < w->n; i++) {
		const char *eq = strchr(w->v[i], '=');
		if (word_explains(w->v[i], key) || (label && eq && word_explains(eq + 1, key)))
			return w->v[i];
	}
	return NULL;
}

/* The differing label pair that names cmdline word t: "k=v" equal to it, a label key k equal
 * to its key part, or a label value equal to it; NULL when none does. */
static const char *label_naming(const struct strv *labels, const char *t)
{
	const char *eq = strchr(t, '=');
	size_t n = eq ? (size_t)(eq - t) : strlen(t);
	for (size_t i = 0; i < labels->n; i++) {
		const char *l = labels->v[i], *le = strchr(l, '=');
		if (!strcmp(l, t) || (le && (size_t)(le - l) == n && !strncmp(l, t, n)) || (le && !strcmp(le + 1, t)))
			return l;
	}
	return NULL;
}

void an_confounders_explain(struct an_compare *c, const struct store_run_info *const *ra, size_t na,
			    const struct store_run_info *const *rb, size_t nb, const struct store_env *ea,
			    const struct store_env *eb, const struct an_cmdline_declared *d)
{
	struct strv la = {0}, lb = {0}, labels = {0}, wa = {0}, wb = {0}, words = {0};
	label_pairs(ra, na, &la);
	label_pairs(rb, nb, &lb);
	differ(&la, &lb, &labels);
	cmdline_words(ea, &wa);
	cmdline_words(eb, &wb);
	differ(&wa, &wb, &words);
	/* the command line itself is the change under test when every word that differs is one a
	 * differing label names */
	bool named = words.n > 0;
	for (size_t i = 0; i < words.n && named; i++)
		named = label_naming(&labels, words.v[i]) != NULL;
	for (size_t i = 0; i < c->nconf; i++) {
		struct an_confounder *x = &c->conf[i];
		const char *w = NULL;
		enum an_explained how = AN_EXPLAINED_NOT;
		if (!strcmp(x->key, "kernel.cmdline")) {
			if (named) {
				w = label_naming(&labels, words.v[0]);
				how = AN_EXPLAINED_LABEL;
			}
		} else if ((w = explainer(&labels, x->key, true))) {
			how = AN_EXPLAINED_LABEL;
		} else if ((w = explainer(&d->tokens, x->key, false))) {
			how = AN_EXPLAINED_CAMPAIGN;
		} else if ((w = explainer(&words, x->key, false))) {
			how = AN_EXPLAINED_CMDLINE;
		}
		if (w) { /* a label by its key: the groups' values differ, and the table has both */
			const char *eq = strchr(w, '=');
			x->explained_by = how == AN_EXPLAINED_LABEL && eq ? xstrndup(w, (size_t)(eq - w)) : xstrdup(w);
			x->explained = how;
		}
	}
	strv_free(&la);
	strv_free(&lb);
	strv_free(&labels);
	strv_free(&wa);
	strv_free(&wb);
	strv_free(&words);
}
