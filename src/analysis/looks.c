/* looks.c - repeated looks at one question are counted: recorded, repeated idempotently, withheld when undeclared. */
#include "analysis/job.h"
#include "core/testhooks.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---------------------------------------------------------------- the rule (pure) */

void an_repeat_decide(const struct an_look_prior *p, size_t n, const char *fp, size_t declared, bool fresh,
		      struct an_repeat *r)
{
	int q = 0, kmax = 0;
	for (size_t i = 0; i < n; i++)
		q = p[i].question > q ? p[i].question : q;
	r->same = r->withheld = r->first_undeclared = false;
	r->max_boots = (int)declared;
	r->first_max_boots = 0;
	r->fresh = fresh;
	r->k = 1;
	r->question = q ? q : 1;
	const struct an_look_prior *first = NULL;
	for (size_t i = 0; i < n; i++) {
		if (p[i].question != q)
			continue;
		if (!first)
			first = &p[i];
		kmax = p[i].k > kmax ? p[i].k : kmax;
		if (!r->same && !strcmp(p[i].fingerprint, fp)) {
			r->same = true;
			r->k = p[i].k;
			r->withheld = p[i].withheld;
			if (!declared)
				r->max_boots = p[i].max_boots;
		}
	}
	if (!first)
		return; /* the question's first look */
	r->first_undeclared = first->max_boots == 0;
	r->first_max_boots = first->max_boots;
	bool as_designed = !r->first_undeclared && declared == (size_t)first->max_boots;
	if (r->same && r->withheld && as_designed) { /* the withheld look, now declared as look 1 declared */
		r->same = r->withheld = false;
		return;
	}
	if (r->same)
		return;
	if (fresh) { /* a new question over runs no earlier look judged */
		r->question = q + 1;
		r->k = 1;
		return;
	}
	r->k = kmax + 1;
	r->withheld = !as_designed;
}

static int id_cmp(const void *pa, const void *pb)
{
	int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
	return a < b ? -1 : a > b;
}

void an_repeat_fingerprint(int64_t *const *ids, const size_t *n, size_t ngroups, char out[17])
{
	uint64_t h = 14695981039346656037ull;
	for (size_t g = 0; g < ngroups; g++) {
		if (n[g])
			qsort(ids[g], n[g], sizeof *ids[g], id_cmp);
		for (size_t i = 0; i <= n[g]; i++) {
			/* each id's 8 bytes, then a group separator that no id list can imitate */
			uint64_t v = i < n[g] ? (uint64_t)ids[g][i] : UINT64_MAX;
			for (int b = 0; b < 8; b++)
				h = (h ^ ((v >> (8 * b)) & 0xff)) * 1099511628211ull;
		}
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static void withhold(struct st_comparison *c, bool *flag, size_t *rows)
{
	if (c->verdict == ST_NO_DATA || c->verdict == ST_WITHHELD)
		return;
	c->verdict = ST_WITHHELD;
	c->negligible = false;
	if (!*flag)
		++*rows;
	*flag = true;
}

void an_compare_repeat(struct an_compare *c)
{
	if (!c->look.withheld)
		return;
	for (size_t i = 0; i < c->nrows; i++)
		withhold(&c->rows[i].c, &c->rows[i].look_withheld, &c->look.rows);
	for (size_t i = 0; i < c->ncrows; i++) {
		size_t ignored = 0;
		withhold(&c->crows[i].c, &c->crows[i].look_withheld, &ignored);
	}
}

void an_analyze_repeat(struct an_analyze *a)
{
	if (!a->look.withheld)
		return;
	for (size_t i = 0; i < a->nrows; i++) {
		struct an_frow *r = &a->rows[i];
		bool was = r->look_withheld; /* withheld already: counted (a look decided again) */
		for (size_t k = 0; k < r->fa.neffects; k++) {
			bool flag = false;
			size_t one = 0;
			withhold(&r->fa.effects[k].c, &flag, &one);
			r->look_withheld |= flag;
		}
		a->look.rows += r->look_withheld && !was;
	}
}

/* ---------------------------------------------------------------- the question's key */

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The words of text (split on spaces) sorted and joined by one space, appended to b in
 * brackets: "kernel=6.1 pie=no" for "pie=no  kernel=6.1". */
static void canon_words(struct sb *b, const char *text, char split)
{
	struct strv w = {0};
	char *copy = xstrdup(text ? text : "");
	const char sep[3] = {split, split == ' ' ? '\t' : 0, 0};
	for (char *save = NULL, *t = strtok_r(copy, sep, &save); t; t = strtok_r(NULL, sep, &save))
		strv_add(&w, t);
	free(copy);
	if (w.n)
		qsort(w.v, w.n, sizeof *w.v, str_cmp);
	sb_add(b, "[");
	for (size_t i = 0; i < w.n; i++)
		sb_addf(b, "%s%s", i ? (split == ' ' ? " " : ",") : "", w.v[i]);
	sb_add(b, "]");
	strv_free(&w);
}

static void canon_strv(struct sb *b, const struct strv *v)
{
	struct sb t = {0};
	for (size_t i = 0; v && i < v->n; i++)
		sb_addf(&t, "%s%s", i ? "," : "", v->v[i]);
	canon_words(b, sb_str(&t), ',');
	sb_free(&t);
}

char *an_look_key_compare(const char *sa, const char *sb, const struct strv *patterns, enum st_level unit,
			  bool *swapped)
{
	struct sb x = {0}, y = {0}, k = {0};
	canon_words(&x, sa, ' ');
	canon_words(&y, sb, ' ');
	*swapped = strcmp(sb_str(&x), sb_str(&y)) > 0; /* B against A asks what A against B asks */
	sb_addf(&k, "compare %s %s unit=%s w=", *swapped ? sb_str(&y) : sb_str(&x), *swapped ? sb_str(&x) : sb_str(&y),
		unit == ST_LEVEL_RUN ? "run" : "boot");
	canon_strv(&k, patterns);
	sb_free(&x);
	sb_free(&y);
	return k.s;
}

char *an_look_key_analyze(const struct strv *filter, const struct strv *factors, const struct kvlist *refs,
			  const struct strv *patterns, enum st_level unit)
{
	struct sb k = {0}, f = {0};
	for (size_t i = 0; filter && i < filter->n; i++)
		sb_addf(&f, "%s ", filter->v[i]);
	sb_add(&k, "analyze ");
	canon_words(&k, sb_str(&f), ' ');
	sb_add(&k, " factors=");
	canon_strv(&k, factors);
	struct strv r = {0};
	for (size_t i = 0; refs && i < refs->n; i++) {
		char *t = xasprintf("%s=%s", refs->v[i].key, refs->v[i].value);
		strv_add(&r, t);
		free(t);
	}
	sb_add(&k, " ref=");
	canon_strv(&k, &r);
	sb_addf(&k, " unit=%s w=", unit == ST_LEVEL_RUN ? "run" : "boot");
	canon_strv(&k, patterns);
	strv_free(&r);
	sb_free(&f);
	return k.s;
}

/* ---------------------------------------------------------------- the job's side */

int an_look_begin(struct store *st, const char *key, struct an_look_state *ls, struct err *e)
{
	memset(ls, 0, sizeof *ls);
	ls->key = xstrdup(key);
	return store_looks_get(st, key, &ls->prior, &ls->nprior, e);
}

int an_look_question(const struct an_look_state *ls)
{
	int q = 0;
	for (size_t i = 0; i < ls->nprior; i++)
		q = ls->prior[i].question > q ? ls->prior[i].question : q;
	return q;
}

int an_look_seen(struct store *st, const struct an_look_state *ls, bool all, int64_t **ids, size_t *n,
		 struct err *e)
{
	int q = an_look_question(ls);
	return store_looks_seen(st, ls->key, all ? q + 1 : q, ids, n, e);
}

size_t an_look_drop(const int64_t *seen, size_t nseen, const struct store_run_info *runs, size_t *idx, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!nseen || !bsearch(&runs[idx[i]].id, seen, nseen, sizeof *seen, id_cmp))
			idx[k++] = idx[i];
	return n - k;
}

void an_look_decide(const struct an_look_state *ls, const char *fp, size_t declared, bool fresh, struct an_repeat *r)
{
	struct an_look_prior *p = xcalloc(ls->nprior + 1, sizeof *p);
	for (size_t i = 0; i < ls->nprior; i++)
		p[i] = (struct an_look_prior){ls->prior[i].fingerprint, ls->prior[i].question, ls->prior[i].k,
					      ls->prior[i].max_boots, ls->prior[i].withheld};
	an_repeat_decide(p, ls->nprior, fp, declared, fresh, r);
	r->on = true;
	free(p);
}

void an_look_options(struct an_repeat *r, struct st_compare_opts *co)
{
	r->look_given = 0;
	if (r->same && r->max_boots) { /* a declared look, read again: its design and number */
		if (co->max_boots && co->look < (size_t)r->k) /* said again as it was said */
			r->look_given = (int)co->look;
		co->max_boots = (size_t)r->max_boots;
		co->look = (size_t)r->k;
	} else if (co->max_boots && !r->same && !r->withheld) {
		/* the boundary of look K spends what K looks may: fewer than sysab counted would
		 * spend more than the design has */
		if ((size_t)r->k > co->look) {
			r->look_given = (int)co->look;
			co->look = (size_t)r->k;
		} else {
			r->k = (int)co->look;
		}
	}
}

int an_look_pick(struct store *st, const struct an_look_state *ls, const struct an_look_req *lr,
		 an_look_select_fn *select, void *ctx, size_t ngroups, struct st_compare_opts *co, int64_t **seen,
		 struct an_repeat *r, char fp[17], struct err *e)
{
	int rc = 0;
	size_t ns = 0;
	for (int all = an_look_question(ls) < 2; all < 2; all++) {
		if (lr->fresh) {
			free(*seen);
			*seen = NULL;
			if ((rc = an_look_seen(st, ls, all, seen, &ns, e)))
				break;
		}
		int64_t *ids[2] = {NULL, NULL};
		size_t n[2] = {0, 0}, excluded = 0;
		if ((rc = select(ctx, lr->fresh ? *seen : NULL, ns, ids, n, &excluded, e)))
			break;
		an_repeat_fingerprint(ids, n, ngroups, fp);
		free(ids[0]);
		free(ids[1]);
		an_look_decide(ls, fp, co->max_boots, lr->fresh, r);
		r->excluded = excluded;
		if (!lr->fresh || r->same || all)
			break;
	}
	if (!rc)
		an_look_options(r, co);
	return rc;
}

/* Whether the looks now recorded for the key are those ls read (the same ids, each as
 * withheld as it was). */
static bool looks_unchanged(const struct an_look_state *ls, const struct store_look *now, size_t n)
{
	if (n != ls->nprior)
		return false;
	for (size_t i = 0; i < n; i++)
		if (now[i].id != ls->prior[i].id || now[i].withheld != ls->prior[i].withheld)
			return false;
	return true;
}

/* The look could not be written for a full disk: a read goes on, and the caller says it
 * was not recorded. */
static int not_recorded(struct store *st, struct an_repeat *r)
{
	if (!store_disk_full(st))
		return -1;
	r->readonly = r->disk_full = true;
	return 0;
}

/* The seam of the tests (tests/e2e/t_looksrace.sh): with SYSAB_TEST_LOOK_GATE=FILE a look,
 * judged but not yet recorded, creates FILE.waiting and waits until FILE exists (at most
 * 60 s), so that another command can record a look of the question in between. */
static void look_gate(void)
{
	const char *f = testhooks()->look_gate;
	if (!f || !*f)
		return;
	char *w = xasprintf("%s.waiting", f);
	FILE *fw = fopen(w, "w");
	if (fw)
		fclose(fw);
	free(w);
	for (int i = 0; i < 6000 && access(f, F_OK); i++)
		nanosleep(&(struct timespec){0, 10000000}, NULL);
}

int an_look_record(struct store *st, struct an_look_state *ls, struct an_repeat *r, const char *fp,
		   const char *design, const char *verdicts, const int64_t *ids, size_t nids, struct err *e)
{
	if (r->same)
		return 0;
	if (!store_writable(st)) {
		r->readonly = true;
		r->disk_full = store_disk_full(st);
		return 0;
	}
	look_gate();
	/* the look's number is decided on the looks read at the start: read them again under the
	 * write lock, so that two compares of one question at once cannot both be its look 1 */
	if (store_begin(st, e))
		return not_recorded(st, r);
	struct store_look *now;
	size_t nnow;
	if (store_looks_get(st, ls->key, &now, &nnow, e)) {
		store_rollback(st);
		return -1;
	}
	if (!looks_unchanged(ls, now, nnow)) {
		store_rollback(st);
		store_looks_free(ls->prior, ls->nprior);
		ls->prior = now;
		ls->nprior = nnow;
		struct an_repeat was = *r;
		an_look_decide(ls, fp, (size_t)was.max_boots, was.fresh, r);
		r->excluded = was.excluded;
		r->look_given = was.look_given;
		if (r->same || (r->withheld && r->question == was.question))
			return 1; /* judged as it was, withheld or the same look: record again */
		return errf(e, "another compare or analyze recorded a look at this question while this one "
			       "was judging (look %d of question %d); run this command again",
			    r->k, r->question);
	}
	store_looks_free(now, nnow);
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	struct store_look x = {.key = ls->key, .question = r->question, .k = r->k,
			       .at_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec,
			       .fingerprint = (char *)fp, .max_boots = r->max_boots, .withheld = r->withheld,
			       .design = (char *)design, .verdicts = (char *)verdicts};
	if (store_look_add(st, &x, ids, nids, e)) {
		store_rollback(st);
		return not_recorded(st, r);
	}
	if (store_commit(st, e))
		return not_recorded(st, r);
	r->recorded = true;
	return 0;
}

int an_look_busy(struct err *e)
{
	return errf(e, "other compare or analyze commands kept recording looks at this question while this one was "
		       "judging; run this command again");
}

void an_look_state_free(struct an_look_state *ls)
{
	free(ls->key);
	store_looks_free(ls->prior, ls->nprior);
	memset(ls, 0, sizeof *ls);
}

char *an_look_json_design(const size_t *boots, const size_t *runs, size_t n)
{
	json_t *o = json_object(), *b = json_array(), *r = json_array();
	for (size_t i = 0; i < n; i++) {
		json_array_append_new(b, json_integer((json_int_t)boots[i]));
		json_array_append_new(r, json_integer((json_int_t)runs[i]));
	}
	json_object_set_new(o, "boots", b);
	json_object_set_new(o, "runs", r);
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return s;
}

void an_look_json_verdict(void *obj, const char *workload, int copies, const char *effect, enum st_verdict v)
{
	static const char *const name[] = {[ST_FASTER] = "faster", [ST_SLOWER] = "slower",
					   [ST_EQUIVALENT] = "equivalent", [ST_INCONCLUSIVE] = "inconclusive",
					   [ST_WITHHELD] = "withheld", [ST_NO_DATA] = "no_data"};
	char *k = xasprintf("%s/%d%s%s", workload, copies, effect ? " " : "", effect ? effect : "");
	json_object_set_new(obj, k, json_string(name[v] ? name[v] : "?"));
	free(k);
}
