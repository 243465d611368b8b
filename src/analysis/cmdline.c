/* cmdline.c - the kernel command line as the confounder check sees it: without what a boot campaign put there. */
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* The per-slot marker a campaign appends to every boot's command line (campaign_marker() in
 * src/campaign/campaign.c: "sysab.boot=NAME:SLOT"); analysis may not include campaign/. */
#define MARKER "sysab.boot="

/* The next token of a kernel command line at *p (words split at blanks; a double-quoted part,
 * as in foo="a b", stays in its word), as a new string, or NULL at the end. */
static char *next_token(const char **p)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\n')
		s++;
	if (!*s)
		return NULL;
	const char *t = s;
	bool quoted = false;
	for (; *t && (quoted || (*t != ' ' && *t != '\t' && *t != '\n')); t++)
		if (*t == '"')
			quoted = !quoted;
	*p = t;
	return xstrndup(s, (size_t)(t - s));
}

void an_cmdline_words(const char *cmdline, struct strv *out)
{
	const char *p = cmdline;
	for (char *t; (t = next_token(&p)); free(t))
		strv_add(out, t);
}

static bool declared(const char *tok, const struct an_cmdline_declared *d)
{
	if (!strncmp(tok, MARKER, strlen(MARKER)))
		return true;
	if (d->image && (!strncmp(tok, "BOOT_IMAGE=", 11) || !strncmp(tok, "initrd=", 7)))
		return true;
	return strv_has(&d->tokens, tok);
}

char *an_cmdline_strip(const char *cmdline, const struct an_cmdline_declared *d)
{
	struct sb b = {0};
	sb_add(&b, "");
	const char *p = cmdline;
	for (char *t; (t = next_token(&p)); free(t))
		if (!declared(t, d))
			sb_addf(&b, "%s%s", b.len ? " " : "", t);
	return b.s;
}

int an_cmdline_declared_add(struct store *st, const struct store_run_info *const *runs, size_t n,
			    struct an_cmdline_declared *d, struct err *e)
{
	struct strv seen = {0};
	int rc = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		const char *name = runs[i]->campaign;
		if (!name || strv_has(&seen, name))
			continue;
		strv_add(&seen, name);
		struct store_campaign c;
		if (store_campaign_get(st, name, &c, e)) {
			rc = -1;
			break;
		}
		for (size_t k = 0; k < c.nconfigs; k++) {
			const struct store_campaign_config *x = &c.configs[k];
			if (x->kernel || x->entry)
				d->image = true;
			const char *p = x->append ? x->append : "";
			for (char *t; (t = next_token(&p)); free(t))
				if (!strv_has(&d->tokens, t))
					strv_add(&d->tokens, t);
		}
		store_campaign_free(&c);
	}
	strv_free(&seen);
	return rc;
}

void an_cmdline_env_strip(struct store_env *env, const struct an_cmdline_declared *d)
{
	for (size_t k = 0; k < env->nk; k++) {
		struct store_env_key *x = &env->k[k];
		if (strcmp(x->key, "kernel.cmdline"))
			continue;
		size_t m = 0;
		for (size_t i = 0; i < x->nv; i++) {
			char *v = an_cmdline_strip(x->v[i].value, d);
			free(x->v[i].value);
			size_t j = 0;
			while (j < m && strcmp(x->v[j].value, v))
				j++;
			if (j < m) { /* the same line once the declared tokens are gone */
				if (x->v[i].first < x->v[j].first)
					x->v[j].first = x->v[i].first;
				free(v);
				continue;
			}
			x->v[m] = x->v[i];
			x->v[m++].value = v;
		}
		x->nv = m;
	}
}

void an_cmdline_declared_free(struct an_cmdline_declared *d)
{
	strv_free(&d->tokens);
	d->image = false;
}
