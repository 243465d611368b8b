/* select.c - parsing selectors and matching them against stored runs. */
#include "analysis/select.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int parse_ids(const char *term, const char *list, struct sel_term *t, struct err *e)
{
	const char *p = list;
	size_t cap = 0;
	if (!*p)
		return errf(e, "selector term '%s': give run ids, e.g. run:3 or run:3,5,8-10", term);
	while (*p) {
		char *end;
		if (!isdigit((unsigned char)*p))
			return errf(e, "selector term '%s': '%s' is not a run id list; write e.g. run:3,5,8-10", term, p);
		errno = 0;
		long long a = strtoll(p, &end, 10), b = a;
		if (*end == '-' && isdigit((unsigned char)end[1]))
			b = strtoll(end + 1, &end, 10);
		if (errno || a < 1 || b < a || b - a > 1000000)
			return errf(e, "selector term '%s': bad run id or range; ids start at 1, ranges go up (8-10)",
				    term);
		for (long long x = a; x <= b; x++) {
			t->ids = xgrow(t->ids, &cap, t->nids + 1, sizeof *t->ids);
			t->ids[t->nids++] = x;
		}
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			return errf(e, "selector term '%s': '%s' is not a run id list; write e.g. run:3,5,8-10", term, end);
		p = end;
	}
	return 0;
}

static int parse_term(const char *term, struct sel_term *t, struct err *e)
{
	memset(t, 0, sizeof *t);
	if (!strncmp(term, "run:", 4)) {
		t->kind = SEL_RUNS;
		return parse_ids(term, term + 4, t, e);
	}
	if (!strncmp(term, "boot:", 5)) {
		t->kind = SEL_BOOT;
		if (!term[5] || !text_is_clean(term + 5, false))
			return errf(e, "selector term '%s': give the start of a boot id, e.g. boot:3f2a", term);
		t->value = xstrdup(term + 5);
		return 0;
	}
	if (!strncmp(term, "campaign:", 9)) {
		t->kind = SEL_CAMPAIGN;
		if (!term[9] || !text_is_clean(term + 9, false))
			return errf(e, "selector term '%s': give a campaign name, e.g. campaign:pernode", term);
		t->value = xstrdup(term + 9);
		return 0;
	}
	t->kind = SEL_LABEL;
	if (label_parse(term, &t->key, &t->value, e))
		return err_prefix(e, "selector term");
	return 0;
}

static void term_free(struct sel_term *t)
{
	free(t->key);
	free(t->value);
	free(t->ids);
}

int select_parse(const char *text, struct selector *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	out->text = xstrdup(text);
	size_t cap = 0;
	const char *p = text;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		const char *q = p;
		while (*q && *q != ' ' && *q != '\t')
			q++;
		char *term = xstrndup(p, (size_t)(q - p));
		out->terms = xgrow(out->terms, &cap, out->nterms + 1, sizeof *out->terms);
		int rc = parse_term(term, &out->terms[out->nterms], e);
		out->nterms++;
		free(term);
		if (rc) {
			select_free(out);
			return -1;
		}
		p = q;
	}
	return 0;
}

void select_free(struct selector *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nterms; i++)
		term_free(&s->terms[i]);
	free(s->terms);
	free(s->text);
	memset(s, 0, sizeof *s);
}

bool select_usable(const struct store_run_info *r)
{
	return r->state == STORE_RUN_COMPLETE || r->state == STORE_RUN_INCOMPLETE || r->state == STORE_RUN_IMPORTED;
}

const char *select_label(const struct store_run_info *r, const char *key)
{
	const char *v = kv_get(&r->labels, key);
	if (v)
		return v;
	if (!strcmp(key, "kernel"))
		return r->kernel_release;
	if (!strcmp(key, "machine"))
		return r->hostname;
	if (!strcmp(key, "source"))
		return r->source;
	return NULL;
}

static bool term_matches(const struct sel_term *t, const struct store_run_info *r)
{
	switch (t->kind) {
	case SEL_LABEL: {
		const char *v = select_label(r, t->key);
		return v && !strcmp(v, t->value);
	}
	case SEL_RUNS:
		for (size_t i = 0; i < t->nids; i++)
			if (t->ids[i] == r->id)
				return true;
		return false;
	case SEL_BOOT:
		return !strncmp(r->boot_id, t->value, strlen(t->value));
	case SEL_CAMPAIGN:
		return r->campaign && !strcmp(r->campaign, t->value);
	}
	return false;
}

bool select_matches(const struct selector *s, const struct store_run_info *r)
{
	for (size_t i = 0; i < s->nterms; i++)
		if (!term_matches(&s->terms[i], r))
			return false;
	return true;
}

/* Why nothing matched: the first term that matches no usable run on its own, explained. */
/* A label term whose key some run has but whose value no usable run has: the error lists the
 * values the usable runs take (the first 12, in the order first seen) and suggests the closest. */
static int no_value(const struct selector *s, const struct sel_term *t, const struct store_run_info *runs, size_t n,
		    bool any_status, struct err *e)
{
	const char *which = any_status ? "run" : "usable run";
	struct strv seen = {0};
	for (size_t j = 0; j < n; j++) {
		const char *v = any_status || select_usable(&runs[j]) ? select_label(&runs[j], t->key) : NULL;
		if (v && !strv_has(&seen, v))
			strv_add(&seen, v);
	}
	const char *best = typo_of(t->value, (const char *const *)seen.v, seen.n);
	struct sb vals = {0};
	sb_add(&vals, "");
	for (size_t i = 0; i < seen.n && i < 12; i++)
		sb_addf(&vals, "%s%s", i ? ", " : "", seen.v[i]);
	if (seen.n > 12)
		sb_addf(&vals, " and %zu more", seen.n - 12);
	int rc;
	if (!seen.n)
		rc = errf(e, "selector '%s': no usable run has a label '%s' (only running or interrupted ones); `sysab list` "
			     "shows the runs and their labels",
			  s->text, t->key);
	else
		rc = errf(e, "selector '%s': no %s has %s=%s%s%s%s; the values of %s are %s", s->text, which, t->key, t->value,
			  best ? " (did you mean " : "", best ? best : "", best ? "?)" : "", t->key, vals.s);
	sb_free(&vals);
	strv_free(&seen);
	return rc;
}

static int explain(const struct selector *s, const struct store_run_info *runs, size_t n, bool any_status, struct err *e)
{
	for (size_t i = 0; i < s->nterms; i++) {
		const struct sel_term *t = &s->terms[i];
		if (t->kind == SEL_RUNS)
			for (size_t k = 0; k < t->nids; k++) {
				const struct store_run_info *r = NULL;
				for (size_t j = 0; j < n && !r; j++)
					if (runs[j].id == t->ids[k])
						r = &runs[j];
				if (!r)
					return errf(e, "selector '%s': there is no run %lld; `sysab list` shows the runs",
						    s->text, (long long)t->ids[k]);
				if (!any_status && !select_usable(r))
					return errf(e, "selector '%s': run %lld is %s, and only complete, incomplete or "
						       "imported runs are used; leave it out",
						    s->text, (long long)r->id, r->status);
			}
		if (t->kind == SEL_LABEL) {
			bool key_seen = false;
			const char *best = NULL;
			size_t bestd = 3;
			for (size_t j = 0; j < n; j++) {
				if (select_label(&runs[j], t->key))
					key_seen = true;
				for (size_t l = 0; l < runs[j].labels.n; l++) {
					size_t d = edit_distance(t->key, runs[j].labels.v[l].key);
					if (d < bestd) {
						bestd = d;
						best = runs[j].labels.v[l].key;
					}
				}
			}
			if (!key_seen)
				return errf(e, "selector '%s': no run has a label '%s'%s%s%s; `sysab list` shows the labels",
					    s->text, t->key, best ? " (did you mean " : "", best ? best : "",
					    best ? "?)" : "");
		}
		struct selector one = {.text = s->text, .terms = (struct sel_term *)t, .nterms = 1};
		bool any = false;
		for (size_t j = 0; j < n && !any; j++)
			any = (any_status || select_usable(&runs[j])) && select_matches(&one, &runs[j]);
		if (!any && t->kind == SEL_LABEL)
			return no_value(s, t, runs, n, any_status, e);
		if (!any)
			return errf(e, "selector '%s': no %s matches the term '%s%s%s'; `sysab list` shows the runs "
				       "and their labels",
				    s->text, any_status ? "run" : "usable run", t->kind == SEL_LABEL	 ? t->key
				    : t->kind == SEL_BOOT	 ? "boot:"
				    : t->kind == SEL_CAMPAIGN ? "campaign:"
							  : "run:",
				    t->kind == SEL_LABEL ? "=" : "", t->kind == SEL_RUNS ? "..." : t->value);
	}
	if (!n)
		return errf(e, "selector '%s': the database holds no runs yet; `sysab run` or `sysab import` adds some",
			    s->text);
	return errf(e, "selector '%s' matches no %s (each term matches some, but not together); "
		       "`sysab list` shows the runs and their labels",
		    s->text, any_status ? "run" : "usable run");
}

/* The matching runs (usable ones only, or any status) into *idx; on none, why. */
static int pick(const struct selector *s, const struct store_run_info *runs, size_t n, bool any_status, size_t **idx,
		size_t *nidx, struct err *e)
{
	*idx = NULL;
	*nidx = 0;
	size_t *v = xcalloc(n, sizeof *v);
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if ((any_status || select_usable(&runs[i])) && select_matches(s, &runs[i]))
			v[k++] = i;
	if (!k) {
		free(v);
		return explain(s, runs, n, any_status, e);
	}
	*idx = v;
	*nidx = k;
	return 0;
}

int select_runs(const struct selector *s, const struct store_run_info *runs, size_t n, size_t **idx, size_t *nidx,
		struct err *e)
{
	return pick(s, runs, n, false, idx, nidx, e);
}

int select_listed(const struct selector *s, const struct store_run_info *runs, size_t n, size_t **idx, size_t *nidx,
		  struct err *e)
{
	return pick(s, runs, n, true, idx, nidx, e);
}
