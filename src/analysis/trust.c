/* trust.c - what keeps a verdict honest: failed self-checks withhold it, emulated runs carry a caveat. */
#include "analysis/analysis.h"
#include "analysis/composite.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- emulation */

/* The environment values that say a run was measured under an emulator (an empty prefix: any
 * value), and whether they say its CPU was emulated (or only its NUMA nodes). */
static const struct {
	const char *key, *prefix, *what;
	bool cpu;
} emulators[] = {
	{"campaign.accel", "tcg", "qemu TCG: campaign.accel tcg", true},
	{"hypervisor", "qemu-tcg", "qemu TCG: hypervisor qemu-tcg", true},
	{"emulated", "yes", "qemu-user: emulated yes", true},
	/* a campaign's --numa: the guest's nodes are qemu's, all on the host's memory alike */
	{"campaign.numa", "", "qemu -numa: campaign.numa, the NUMA nodes were emulated (no real distance between them)",
	 false},
};

void an_emulation_of(const struct store_env *env, struct an_emulation *out)
{
	memset(out, 0, sizeof *out);
	struct sb how = {0};
	for (size_t r = 0; r < sizeof emulators / sizeof emulators[0]; r++)
		for (size_t k = 0; k < env->nk; k++) {
			const struct store_env_key *x = &env->k[k];
			if (strcmp(x->key, emulators[r].key))
				continue;
			for (size_t v = 0; v < x->nv; v++) {
				if (strncmp(x->v[v].value, emulators[r].prefix, strlen(emulators[r].prefix)))
					continue;
				if (!out->any || x->v[v].first < out->first)
					out->first = x->v[v].first;
				if (!strstr(sb_str(&how), emulators[r].what))
					sb_addf(&how, "%s%s", how.len ? "; " : "", emulators[r].what);
				out->any = true;
				out->cpu |= emulators[r].cpu;
			}
		}
	out->how = how.s;
}

char *an_emulated_env(const struct kvlist *env)
{
	struct sb how = {0};
	for (size_t r = 0; r < sizeof emulators / sizeof emulators[0]; r++) {
		const char *v = emulators[r].cpu ? kv_get(env, emulators[r].key) : NULL;
		if (v && !strncmp(v, emulators[r].prefix, strlen(emulators[r].prefix)))
			sb_addf(&how, "%s%s", how.len ? "; " : "", emulators[r].what);
	}
	return how.s;
}

void an_emulation_free(struct an_emulation *x)
{
	if (!x)
		return;
	free(x->how);
	memset(x, 0, sizeof *x);
}

/* ---------------------------------------------------------------- self-checks */

/* Is workload w one of the members of the composite row (name, copies) over sets? */
static bool composite_member(const struct store_set *sets, size_t ns, const char *name, int copies, const char *w)
{
	struct an_composite def[2];
	size_t nd = an_composites(sets, ns, copies, def);
	for (size_t d = 0; d < nd; d++) {
		if (strcmp(def[d].name, name))
			continue;
		for (size_t m = 0; m < def[d].n; m++)
			if (!strcmp(def[d].workload[m], w))
				return true;
	}
	return false;
}

/* The failed checks that concern row (workload, copies; ncomposite > 0: a composite row),
 * into out: the first one's check and workload, and the runs with any. */
static void row_failed(const char *workload, int copies, size_t ncomposite, const struct store_set *sets, size_t ns,
		       const struct store_failed_check *f, size_t nf, struct an_failed_check *out)
{
	memset(out, 0, sizeof *out);
	int64_t *runs = xcalloc(nf, sizeof *runs);
	for (size_t i = 0; i < nf; i++) {
		if (f[i].copies != copies)
			continue;
		bool mine = ncomposite ? composite_member(sets, ns, workload, copies, f[i].workload)
				       : !strcmp(f[i].workload, workload);
		if (!mine)
			continue;
		if (!out->check) {
			out->check = xstrdup(f[i].check);
			out->workload = xstrdup(f[i].workload);
		}
		bool seen = false;
		for (size_t k = 0; k < out->runs && !seen; k++)
			seen = runs[k] == f[i].run;
		if (!seen)
			runs[out->runs++] = f[i].run;
		if (out->runs == 1 || f[i].run < out->first_run)
			out->first_run = f[i].run;
	}
	free(runs);
}

/* Withhold c's verdict for a failed check unless allowed (or there is no verdict). Returns
 * true when a verdict was kept only by allow. */
static bool withhold(struct st_comparison *c, struct an_failed_check *fc, bool allow)
{
	if (!fc->check || c->verdict == ST_NO_DATA)
		return false;
	if (allow)
		return true;
	c->verdict = ST_WITHHELD;
	c->negligible = false;
	fc->withheld = true;
	return false;
}

void an_compare_checks(struct an_compare *c, const struct store_set *sets, size_t ns,
		       const struct store_failed_check *f, size_t nf, bool allow)
{
	c->allow_failed_checks = allow;
	for (size_t i = 0; i < c->nrows; i++) {
		struct an_row *r = &c->rows[i];
		row_failed(r->workload, r->copies, r->ncomposite, sets, ns, f, nf, &r->failed);
		c->allowed_rows += withhold(&r->c, &r->failed, allow);
	}
}

void an_analyze_checks(struct an_analyze *a, const struct store_set *sets, size_t ns,
		       const struct store_failed_check *f, size_t nf, bool allow)
{
	a->allow_failed_checks = allow;
	for (size_t i = 0; i < a->nrows; i++) {
		struct an_frow *r = &a->rows[i];
		row_failed(r->workload, r->copies, r->ncomposite, sets, ns, f, nf, &r->failed);
		bool any = false, kept = false;
		for (size_t k = 0; k < r->fa.neffects; k++) {
			kept |= withhold(&r->fa.effects[k].c, &r->failed, allow);
			any |= r->fa.effects[k].c.verdict == ST_WITHHELD;
		}
		r->failed.withheld = any;
		a->allowed_rows += kept;
	}
}

void an_failed_check_free(struct an_failed_check *x)
{
	if (!x)
		return;
	free(x->check);
	free(x->workload);
	memset(x, 0, sizeof *x);
}
