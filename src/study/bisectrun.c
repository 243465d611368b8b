/* bisectrun.c - a bisection carried out: step campaigns under the bisect rule, resuming from the database, the culprit check, and the view. */
#include "study/bisectrun.h"
#include "analysis/job.h"
#include "campaign/backend.h"
#include "study/adaptive.h"
#include "study/mde.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define STEP_CONFIGS 3 /* a step's block: good, the midpoint, bad */
#define NAME_MAX_LEN 56 /* leaves room for ".check" and ".sNNN" in a campaign name */

/* ---------------------------------------------------------------- the series */

int study_bisect_series_read(const char *path, struct strv *lines, struct err *e)
{
	memset(lines, 0, sizeof *lines);
	size_t len;
	char *text = read_whole_file(path, (size_t)1 << 20, &len, e);
	if (!text) {
		err_prefix(e, "--series %s", path);
		return -1;
	}
	if (strlen(text) != len) {
		free(text);
		return errf(e, "--series %s: not a text file; give one configuration per line", path);
	}
	size_t no = 0;
	for (char *save = NULL, *l = strtok_r(text, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		no++;
		if (!text_is_clean(l, true) && !(l[strlen(l) - 1] == '\r')) {
			free(text);
			strv_free(lines);
			return errf(e, "--series %s: line %zu is not clean text; give one configuration per line", path, no);
		}
		while (*l == ' ' || *l == '\t')
			l++;
		size_t n = strlen(l);
		while (n && (l[n - 1] == ' ' || l[n - 1] == '\t' || l[n - 1] == '\r'))
			l[--n] = 0;
		if (n && *l != '#')
			strv_add(lines, l);
	}
	free(text);
	if (lines->n < 2) {
		size_t n = lines->n;
		strv_free(lines);
		return errf(e, "--series %s: %s; give one configuration per line (its labels, then its boot options, "
			       "e.g. 'v=6.1 --kernel /boot/vmlinuz-6.1'), at least the good and the bad one",
			    path, n ? "only one configuration" : "no configuration in it (empty)");
	}
	return 0;
}

/* Split line into words: spaces separate, '...' and "..." quote. -1 with e set on an open quote. */
static int split_words(const char *line, struct strv *w, struct err *e)
{
	struct sb cur = {0};
	bool in = false;
	char q = 0;
	for (const char *p = line;; p++) {
		if (q) {
			if (!*p) {
				sb_free(&cur);
				return errf(e, "configuration '%s': a quote is not closed", line);
			}
			if (*p == q)
				q = 0;
			else
				sb_addf(&cur, "%c", *p);
			continue;
		}
		if (!*p || *p == ' ' || *p == '\t') {
			if (in)
				strv_add(w, cur.s ? cur.s : "");
			sb_free(&cur);
			in = false;
			if (!*p)
				return 0;
			continue;
		}
		in = true;
		if (*p == '\'' || *p == '"')
			q = *p;
		else
			sb_addf(&cur, "%c", *p);
	}
}

/* Parse configuration line i (0-based) of a series: its labels, then --kernel, --initrd,
 * --append, --entry, --command with their values, as `campaign new --config` takes them. The
 * labels JSON gets tag=bisection (tag NULL: none). *k is freed with store_campaign_config_free. */
static int config_parse(const char *line, size_t i, const char *tag, const char *bisection,
			struct store_campaign_config *k, struct err *e)
{
	static const char *const opt[] = {"kernel", "initrd", "append", "entry", "command"};
	memset(k, 0, sizeof *k);
	struct strv w = {0};
	struct kvlist l = {0};
	int rc = -1;
	if (split_words(line, &w, e))
		goto out;
	size_t j = 0;
	for (; j < w.n && strncmp(w.v[j], "--", 2); j++)
		if (label_add(&l, w.v[j], e))
			goto bad;
	if (!l.n) {
		errf(e, "configuration %zu '%s': give its labels first, e.g. 'v=6.1 --kernel /boot/vmlinuz-6.1'", i + 1,
		     line);
		goto out;
	}
	if (kv_get(&l, "bisect") || kv_get(&l, "bisect_check")) {
		errf(e, "configuration %zu '%s': the labels bisect and bisect_check are sysab's own; rename yours", i + 1,
		     line);
		goto out;
	}
	struct sb name = {0};
	kv_sort(&l);
	for (size_t x = 0; x < l.n; x++)
		sb_addf(&name, "%s%s=%s", x ? " " : "", l.v[x].key, l.v[x].value);
	k->name = name.s;
	if (tag)
		kv_add(&l, tag, bisection);
	json_t *o = json_object();
	for (size_t x = 0; x < l.n; x++)
		json_object_set_new(o, l.v[x].key, json_string(l.v[x].value));
	k->labels = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(o);
	while (j < w.n) {
		const char *a = w.v[j] + 2, *v = NULL;
		size_t an = strcspn(a, "=");
		if (a[an] == '=')
			v = a + an + 1;
		else if (j + 1 < w.n)
			v = w.v[j + 1], j++;
		j++;
		char **field = NULL;
		char **fields[] = {&k->kernel, &k->initrd, &k->append, &k->entry, &k->command};
		size_t which = 0;
		for (size_t x = 0; x < sizeof opt / sizeof opt[0]; x++)
			if (strlen(opt[x]) == an && !strncmp(a, opt[x], an))
				field = fields[x], which = x;
		if (!field) {
			errf(e, "configuration %zu '%s': '--%.*s' is not a configuration's option; give --kernel, --initrd, "
				"--append, --entry or --command",
			     i + 1, line, (int)an, a);
			goto out;
		}
		if (!v || !text_is_clean(v, false) || strlen(v) > 4000) {
			errf(e, "configuration %zu '%s': --%s needs a value (printable text of at most 4000 bytes)", i + 1,
			     line, opt[which]);
			goto out;
		}
		free(*field);
		*field = xstrdup(v);
	}
	rc = 0;
	goto out;
bad:
	err_prefix(e, "configuration %zu '%s'", i + 1, line);
out:
	if (rc)
		store_campaign_config_free(k);
	strv_free(&w);
	kv_free(&l);
	return rc;
}

/* The index of the line `what` names: a line number (1-based) or a line's labels in any order. */
static int find_line(const struct strv *series, const char *opt, const char *what, size_t *idx, struct err *e)
{
	char *end;
	unsigned long n = strtoul(what, &end, 10);
	if (*what >= '0' && *what <= '9' && !*end) {
		if (n >= 1 && n <= series->n) {
			*idx = n - 1;
			return 0;
		}
		return errf(e, "--%s %s: the series has configurations 1 to %zu", opt, what, series->n);
	}
	struct store_campaign_config want;
	struct err ignored;
	if (!config_parse(what, 0, NULL, NULL, &want, &ignored)) {
		for (size_t i = 0; i < series->n; i++) {
			struct store_campaign_config k;
			if (config_parse(series->v[i], i, NULL, NULL, &k, &ignored))
				continue;
			bool same = !strcmp(k.name, want.name);
			store_campaign_config_free(&k);
			if (same) {
				*idx = i;
				store_campaign_config_free(&want);
				return 0;
			}
		}
		store_campaign_config_free(&want);
	}
	return errf(e, "--%s '%s': no configuration of the series has these labels; give a line number (1 to %zu) "
		       "or a line's labels, e.g. --%s '%s'",
		    opt, what, series->n, opt, series->v[0]);
}

/* ---------------------------------------------------------------- checks and creation */

/* The parsed configurations of spec (each tagged bisect=NAME), its ends: 0, or -1 with e set. */
static int spec_check(const struct study_bisect_spec *sp, struct store_campaign_config **cfg, size_t *good,
		      size_t *bad, struct err *e)
{
	*cfg = NULL;
	if (campaign_name_check(sp->name, e))
		return err_prefix(e, "bisection '%s'", sp->name), -1;
	if (strlen(sp->name) > NAME_MAX_LEN)
		return errf(e, "bisection '%s': give a name of at most %d characters (its campaigns add to it)", sp->name,
			    NAME_MAX_LEN);
	const struct campaign_backend *be = campaign_backend_find(sp->backend);
	if (!be)
		return errf(e, "--backend: give %s", campaign_backend_names());
	if (sp->cap < 2 * STEP_CONFIGS)
		return errf(e, "--max-boots %d: a step needs at least %d boots (2 blocks of good, midpoint and bad: a look "
			       "needs 2 of each)",
			    sp->cap, 2 * STEP_CONFIGS);
	if (find_line(&sp->series, "good", sp->good, good, e) || find_line(&sp->series, "bad", sp->bad, bad, e))
		return -1;
	if (*good >= *bad)
		return errf(e, "--good %s (configuration %zu) %s --bad %s (configuration %zu): the series is ordered; give "
			       "a good configuration before the bad one",
			    sp->good, *good + 1, *good == *bad ? "is" : "comes after", sp->bad, *bad + 1);
	*cfg = xcalloc(sp->series.n, sizeof **cfg);
	for (size_t i = 0; i < sp->series.n; i++) {
		if (config_parse(sp->series.v[i], i, "bisect", sp->name, &(*cfg)[i], e))
			goto bad;
		for (size_t j = 0; j < i; j++)
			if (!strcmp((*cfg)[j].name, (*cfg)[i].name)) {
				errf(e, "configurations %zu and %zu of the series have the same labels '%s'; each needs its "
					"own",
				     j + 1, i + 1, (*cfg)[i].name);
				goto bad;
			}
		if (be->check_config(NULL, &(*cfg)[i], e)) {
			err_prefix(e, "configuration %zu '%s'", i + 1, sp->series.v[i]);
			goto bad;
		}
	}
	return 0;
bad:
	for (size_t i = 0; i < sp->series.n; i++)
		store_campaign_config_free(&(*cfg)[i]);
	free(*cfg);
	*cfg = NULL;
	return -1;
}

static void configs_free(struct store_campaign_config *cfg, size_t n)
{
	for (size_t i = 0; cfg && i < n; i++)
		store_campaign_config_free(&cfg[i]);
	free(cfg);
}

static char *strv_json(const struct strv *v)
{
	json_t *a = json_array();
	for (size_t i = 0; i < v->n; i++)
		json_array_append_new(a, json_string(v->v[i]));
	char *t = json_dumps(a, JSON_COMPACT);
	json_decref(a);
	return t;
}

/* A JSON array of strings into v (appended); -1 with e set when text is not one. */
static int json_strv(const char *text, const char *what, struct strv *v, struct err *e)
{
	json_t *a = json_loads(text ? text : "[]", 0, NULL);
	size_t i;
	json_t *x;
	if (!json_is_array(a)) {
		json_decref(a);
		return errf(e, "the bisection's %s is damaged (not a JSON array)", what);
	}
	json_array_foreach(a, i, x)
	{
		if (!json_is_string(x)) {
			json_decref(a);
			return errf(e, "the bisection's %s is damaged (not a list of strings)", what);
		}
		strv_add(v, json_string_value(x));
	}
	json_decref(a);
	return 0;
}

/* The campaign spec of step `step` (the check: 0) of bisection b: configurations cfg[idx[0..n-1]],
 * the generic and backend options from b's options (--seed: its seed plus step). Borrows cfg; free with spec_free. */
static int step_spec(const struct store_bisect *b, struct store_campaign_config *cfg, const size_t *idx, size_t n,
		     const char *cname, int step, int boots, struct campaign_spec *sp, struct err *e)
{
	memset(sp, 0, sizeof *sp);
	struct strv opts = {0};
	if (json_strv(b->options, "options", &opts, e) || json_strv(b->run_args, "run arguments", &sp->run_args, e))
		goto bad;
	for (size_t i = 0; i + 1 < opts.n; i += 2) {
		const char *o = opts.v[i], *v = opts.v[i + 1];
		if (!strcmp(o, "unit-dir"))
			sp->opts.unit_dir = xstrdup(v);
		else if (!strcmp(o, "max-failures"))
			sp->opts.max_failures = atoi(v);
		else if (!strcmp(o, "settle-load"))
			sp->opts.settle_load = atof(v);
		else if (!strcmp(o, "settle-timeout"))
			sp->opts.settle_timeout_s = atoi(v);
		else if (!strcmp(o, "seed")) /* --seed N: campaign K (the check: 0) takes N + K */
			sp->seed_given = true, sp->seed = strtoull(v, NULL, 10) + (uint64_t)step;
		else {
			strv_add(&sp->be_args, o);
			strv_add(&sp->be_args, v);
		}
	}
	strv_free(&opts);
	sp->name = cname;
	sp->backend = b->backend;
	sp->boots = boots;
	sp->runs = 1;
	sp->configs = xcalloc(n, sizeof *sp->configs);
	sp->nconfigs = n;
	for (size_t i = 0; i < n; i++)
		sp->configs[i] = cfg[idx[i]];
	return 0;
bad:
	strv_free(&opts);
	strv_free(&sp->run_args);
	return -1;
}

static void spec_free(struct campaign_spec *sp)
{
	free(sp->configs);
	strv_free(&sp->run_args);
	strv_free(&sp->be_args);
	campaign_opts_free(&sp->opts);
}

static char *step_name(const char *bisection, int n)
{
	return xasprintf("%s.s%d", bisection, n);
}

/* Create step n's adaptive campaign (good, mid, bad) of bisection b: 0, or -1 with e set. */
static int step_create(struct store *st, const struct store_bisect *b, struct store_campaign_config *cfg, int n,
		       size_t good, size_t mid, size_t bad, struct err *e)
{
	char *cname = step_name(b->name, n);
	size_t idx[STEP_CONFIGS] = {good, mid, bad};
	struct campaign_spec sp;
	int rc = -1;
	if (step_spec(b, cfg, idx, STEP_CONFIGS, cname, n, b->cap / STEP_CONFIGS, &sp, e))
		goto out;
	struct study_adaptive_spec a = {.until = "bisect", .target = 0.01, .max_boots = b->cap / STEP_CONFIGS};
	if (study_adaptive_create(st, &sp, &a, e))
		goto out_sp;
	struct store_bisect_step x = {.n = n, .mid = (int)mid, .good = (int)good, .bad = (int)bad, .campaign = cname};
	rc = store_bisect_step_put(st, b->id, &x, e);
out_sp:
	spec_free(&sp);
out:
	free(cname);
	return rc;
}

int study_bisect_create(struct store *st, const struct study_bisect_spec *spec, struct err *e)
{
	struct store_campaign_config *cfg;
	size_t good, bad;
	if (spec_check(spec, &cfg, &good, &bad, e))
		return -1;
	char *series = strv_json(&spec->series), *args = strv_json(&spec->run_args), *opts = strv_json(&spec->options),
	     *wl = strv_json(&spec->workloads);
	struct store_bisect b = {.name = (char *)spec->name, .series = series, .good = (int)good, .bad = (int)bad,
				 .cap = spec->cap, .assume = spec->assume, .backend = (char *)spec->backend,
				 .run_args = args, .options = opts, .workloads = wl, .state = "new",
				 .created_ns = clock_wall_ns()};
	int rc = -1;
	if (store_begin(st, e))
		goto out;
	/* the first step's campaign is made now, so that its options are checked before anything is kept */
	if (store_bisect_create(st, &b, e) ||
	    (bad > good + 1 && step_create(st, &b, cfg, 1, good, good + (bad - good) / 2, bad, e)) ||
	    store_commit(st, e)) {
		store_rollback(st);
		goto out;
	}
	rc = 0;
out:
	configs_free(cfg, spec->series.n);
	free(series);
	free(args);
	free(opts);
	free(wl);
	return rc;
}

/* ---------------------------------------------------------------- the dry run */

int study_bisect_plan(const struct study_bisect_spec *spec, struct study_bisect_plan *p, struct err *e)
{
	memset(p, 0, sizeof *p);
	struct store_campaign_config *cfg;
	size_t good, bad;
	if (spec_check(spec, &cfg, &good, &bad, e))
		return -1;
	p->name = spec->name;
	for (size_t i = 0; i < spec->series.n; i++)
		strv_add(&p->configs, cfg[i].name);
	configs_free(cfg, spec->series.n);
	p->good = good;
	p->bad = bad;
	p->cap = spec->cap;
	p->blocks = spec->cap / STEP_CONFIGS;
	/* breadth first over the ranges a bisection can reach: each step's midpoint as bisect_next
	 * gives it, then both outcomes */
	size_t cap = 0, head = 0, scap = 0;
	struct study_bisect_plan_step *q = NULL;
	size_t nq = 0;
	q = xgrow(q, &cap, 1, sizeof *q);
	q[nq++] = (struct study_bisect_plan_step){1, good, 0, bad};
	while (head < nq) {
		struct study_bisect_plan_step s = q[head++];
		struct bisect bi;
		size_t mid;
		if (bisect_init(&bi, spec->series.n, s.good, s.bad, (size_t)spec->cap, spec->assume != 0, e)) {
			free(q);
			study_bisect_plan_free(p);
			return -1;
		}
		bool more = bisect_next(&bi, &mid);
		bisect_free(&bi);
		if (!more)
			continue;
		s.mid = mid;
		p->steps = xgrow(p->steps, &scap, p->nsteps + 1, sizeof *p->steps);
		p->steps[p->nsteps++] = s;
		if (s.depth > p->depth)
			p->depth = s.depth;
		q = xgrow(q, &cap, nq + 2, sizeof *q);
		q[nq++] = (struct study_bisect_plan_step){s.depth + 1, mid, 0, s.bad};
		q[nq++] = (struct study_bisect_plan_step){s.depth + 1, s.good, 0, mid};
	}
	free(q);
	return 0;
}

void study_bisect_plan_free(struct study_bisect_plan *p)
{
	if (!p)
		return;
	strv_free(&p->configs);
	free(p->steps);
	memset(p, 0, sizeof *p);
}

/* ---------------------------------------------------------------- the rule of a step */

struct step_rule_arg {
	const char *sel[STEP_CONFIGS]; /* good, mid, bad: bisect=NAME and each one's labels */
	const struct strv *patterns;   /* -w patterns judged (empty: the run's) */
	bool first;
	int cap;
};

/* The verdict rows of B against A by workload: every timing row of the comparison. */
struct vrow {
	char *workload;
	int copies;
	enum st_verdict v;
	double d;
};

static int compare_rows(const char *db_path, const char *sa, const char *sb, const struct strv *patterns,
			const struct st_compare_opts *co, struct vrow **out, size_t *n, struct err *e)
{
	*out = NULL;
	*n = 0;
	struct store *rst;
	struct an_look_req lr = {0};
	struct an_compare_job j;
	if (store_open(db_path, STORE_READ, &rst, e))
		return -1;
	memset(&j, 0, sizeof j);
	/* the job owns rst and closes it */
	int rc = an_compare_job_build(rst, sa, sb, patterns, co, false, false, &lr, &j, e);
	if (!rc) {
		*out = xcalloc(j.c.nrows ? j.c.nrows : 1, sizeof **out);
		for (size_t i = 0; i < j.c.nrows; i++) {
			const struct an_row *row = &j.c.rows[i];
			if (row->ncomposite || row->event)
				continue;
			struct vrow *x = &(*out)[(*n)++];
			x->workload = xstrdup(row->workload);
			x->copies = row->copies;
			x->v = row->have_a && row->have_b ? row->c.verdict : ST_NO_DATA;
			x->d = row->have_a && row->have_b ? row->c.d : 0;
		}
	}
	an_compare_job_free(&j);
	return rc;
}

static void vrows_free(struct vrow *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i].workload);
	free(v);
}

static const struct vrow *vrow_find(const struct vrow *v, size_t n, const struct vrow *like)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].copies == like->copies && !strcmp(v[i].workload, like->workload))
			return &v[i];
	return NULL;
}

static int step_decide(const struct study_rule *r, const struct campaign_env *env, const struct campaign *c,
		       const struct store_adaptive *a, int blocks, double elapsed_s, struct study_decision *out,
		       struct err *e)
{
	(void)c;
	(void)elapsed_s;
	const struct step_rule_arg *x = r->arg;
	memset(out, 0, sizeof *out);
	out->blocks = blocks;
	if (blocks < 2) /* a look needs 2 boots of each */
		return 0;
	struct vrow *mg = NULL, *mb = NULL, *bg = NULL;
	size_t nmg = 0, nmb = 0, nbg = 0;
	struct bisect_verdicts *w = NULL;
	int rc = -1;
	struct strv patterns = {0};
	size_t samples;
	if (x->patterns->n)
		for (size_t i = 0; i < x->patterns->n; i++)
			strv_add(&patterns, x->patterns->v[i]);
	else
		study_run_design(&c->run_args, &patterns, &samples);
	struct st_compare_opts co = stats_compare_defaults();
	co.margin = a->target;
	co.max_boots = (size_t)a->max_boots;
	co.look = (size_t)(blocks - 1);
	if (compare_rows(env->db_path, x->sel[0], x->sel[1], &patterns, &co, &mg, &nmg, e) ||
	    compare_rows(env->db_path, x->sel[2], x->sel[1], &patterns, &co, &mb, &nmb, e) ||
	    (x->first && compare_rows(env->db_path, x->sel[0], x->sel[2], &patterns, &co, &bg, &nbg, e)))
		goto out;
	w = xcalloc(nmg ? nmg : 1, sizeof *w);
	out->rows = xcalloc(nmg ? nmg : 1, sizeof *out->rows);
	for (size_t i = 0; i < nmg; i++) {
		const struct vrow *b = vrow_find(mb, nmb, &mg[i]), *g = x->first ? vrow_find(bg, nbg, &mg[i]) : NULL;
		w[i] = (struct bisect_verdicts){mg[i].v, b ? b->v : ST_NO_DATA, g ? g->v : ST_NO_DATA, mg[i].d,
						b ? b->d : 0};
		out->rows[i] = (struct study_row){xstrdup(mg[i].workload), mg[i].copies, mg[i].v};
	}
	out->nrows = nmg;
	out->k = blocks - 1;
	enum bisect_why why = BISECT_WHY_WITHHELD;
	enum bisect_call call = BISECT_MORE;
	if (nmg)
		call = bisect_decide(w, nmg, x->first, (size_t)blocks * STEP_CONFIGS, STEP_CONFIGS, (size_t)x->cap, &why);
	else if ((size_t)(blocks + 1) * STEP_CONFIGS > (size_t)x->cap)
		call = BISECT_UNDECIDED; /* nothing to judge, and no block left */
	enum bisect_call fav = nmg ? bisect_favoured(w, nmg) : BISECT_GOOD;
	out->stop = call == BISECT_MORE ? STUDY_GO_ON : call == BISECT_UNDECIDED ? STUDY_CAP : STUDY_DECIDED;
	/* the look's record: the workloads as the decided rule lists them, and the step's call */
	json_t *o = json_object(), *dec = json_array(), *open = json_array();
	for (size_t i = 0; i < nmg; i++)
		json_array_append_new(call != BISECT_MORE ? dec : open, json_string(mg[i].workload));
	json_object_set_new(o, "decided", dec);
	json_object_set_new(o, "open", open);
	json_object_set_new(o, "call", json_string(bisect_call_word(call)));
	json_object_set_new(o, "why", json_string(bisect_why_word(why)));
	json_object_set_new(o, "favoured", json_string(bisect_call_word(fav)));
	out->verdicts = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	rc = 0;
out:
	vrows_free(mg, nmg);
	vrows_free(mb, nmb);
	vrows_free(bg, nbg);
	free(w);
	strv_free(&patterns);
	if (rc)
		study_decision_free(out);
	return rc;
}

/* ---------------------------------------------------------------- driving */

static int word_of(const char *word, const char *(*name)(enum bisect_call), int n)
{
	for (int i = 0; word && i < n; i++)
		if (!strcmp(name((enum bisect_call)i), word))
			return i;
	return -1;
}

static const char *why_name(enum bisect_call c)
{
	return bisect_why_word((enum bisect_why)c);
}

/* A loaded bisection: the record, its configurations, its steps and the replayed state. */
struct loaded {
	struct store_bisect b;
	struct strv series, workloads;
	struct store_campaign_config *cfg;
	struct store_bisect_step *steps;
	size_t nsteps;
	struct bisect bi;
};

static void loaded_free(struct loaded *l)
{
	configs_free(l->cfg, l->series.n);
	store_bisect_steps_free(l->steps, l->nsteps);
	strv_free(&l->series);
	strv_free(&l->workloads);
	bisect_free(&l->bi);
	store_bisect_free(&l->b);
	memset(l, 0, sizeof *l);
}

/* Load bisection name and replay its ended steps: 0, or -1 with e set (*l freed). */
static int load(struct store *st, const char *name, struct loaded *l, struct err *e)
{
	memset(l, 0, sizeof *l);
	if (store_bisect_get(st, name, &l->b, e))
		return -1;
	if (json_strv(l->b.series, "series", &l->series, e) || json_strv(l->b.workloads, "workloads", &l->workloads, e))
		goto bad;
	l->cfg = xcalloc(l->series.n ? l->series.n : 1, sizeof *l->cfg);
	for (size_t i = 0; i < l->series.n; i++)
		if (config_parse(l->series.v[i], i, "bisect", l->b.name, &l->cfg[i], e))
			goto bad;
	if (l->b.good < 0 || l->b.bad <= l->b.good || (size_t)l->b.bad >= l->series.n || l->b.cap < 2 * STEP_CONFIGS) {
		errf(e, "bisection '%s' is damaged: its ends or cap", name);
		goto bad;
	}
	if (bisect_init(&l->bi, l->series.n, (size_t)l->b.good, (size_t)l->b.bad, (size_t)l->b.cap, l->b.assume != 0, e) ||
	    store_bisect_steps(st, l->b.id, &l->steps, &l->nsteps, e))
		goto bad;
	for (size_t i = 0; i < l->nsteps; i++) {
		const struct store_bisect_step *x = &l->steps[i];
		if (!x->call)
			continue;
		int call = word_of(x->call, bisect_call_word, BISECT_SKIPPED + 1);
		int why = word_of(x->why, why_name, BISECT_WHY_BUILD + 1);
		int fav = word_of(x->favoured ? x->favoured : "good", bisect_call_word, BISECT_SKIPPED + 1);
		if (call < 0 || why < 0 || fav < 0 ||
		    bisect_record(&l->bi, (size_t)x->mid, (enum bisect_call)call, (enum bisect_why)why, (size_t)x->boots,
				  (size_t)x->looks, (enum bisect_call)fav, e)) {
			errf(e, "bisection '%s' is damaged: step %d cannot be replayed", name, x->n);
			goto bad;
		}
	}
	return 0;
bad:
	loaded_free(l);
	return -1;
}

static char *selector(const char *tag, const char *bisection, const char *labels)
{
	return xasprintf("%s=%s %s", tag, bisection, labels);
}

/* Start or resume campaign cname (rule NULL: a plain campaign) and report its state after. */
static int drive_campaign(const struct campaign_env *env, const char *cname, const struct study_rule *rule,
			  enum campaign_state *state, struct err *e)
{
	struct campaign c;
	if (campaign_load(env->st, cname, &c, e))
		return -1;
	enum campaign_state s = c.state;
	campaign_free(&c);
	if (s == CAMPAIGN_NEW || s == CAMPAIGN_STOPPED || s == CAMPAIGN_RUNNING) {
		struct study_decision d;
		int rc = study_adaptive_step(env, cname, s == CAMPAIGN_RUNNING, rule, false, &d, e);
		study_decision_free(&d);
		if (rc)
			return -1;
		if (campaign_load(env->st, cname, &c, e))
			return -1;
		s = c.state;
		campaign_free(&c);
	}
	*state = s;
	return 0;
}

static int done_slots(const struct campaign *c)
{
	int n = 0;
	for (size_t i = 0; i < c->r.nslots; i++)
		n += c->slot[i] == SLOT_DONE;
	return n;
}

/* Record the ended step x (its campaign in state s) from its last look. */
static int step_end(const struct campaign_env *env, struct loaded *l, struct store_bisect_step *x,
		    enum campaign_state s, struct err *e)
{
	struct campaign c;
	if (campaign_load(env->st, x->campaign, &c, e))
		return -1;
	struct study_adaptive_state as;
	int rc = -1;
	if (study_adaptive_state(env->st, c.r.id, &as, e))
		goto out_c;
	enum bisect_call call = BISECT_SKIPPED, fav = BISECT_GOOD;
	enum bisect_why why = BISECT_WHY_BUILD;
	if (s == CAMPAIGN_DONE) {
		json_t *o = as.nlooks ? json_loads(as.looks[as.nlooks - 1].verdicts, 0, NULL) : NULL;
		int ca = word_of(json_string_value(json_object_get(o, "call")), bisect_call_word, BISECT_SKIPPED + 1);
		int wy = word_of(json_string_value(json_object_get(o, "why")), why_name, BISECT_WHY_BUILD + 1);
		int fv = word_of(json_string_value(json_object_get(o, "favoured")), bisect_call_word, BISECT_SKIPPED + 1);
		json_decref(o);
		if (ca < 0 || ca == BISECT_MORE || wy < 0 || fv < 0) {
			errf(e, "step %d of bisection '%s' (campaign %s) ended without a call; its looks are damaged", x->n,
			     l->b.name, x->campaign);
			goto out_s;
		}
		call = (enum bisect_call)ca;
		why = (enum bisect_why)wy;
		fav = (enum bisect_call)fv;
	}
	size_t before = l->bi.nsteps;
	if (bisect_record(&l->bi, (size_t)x->mid, call, why, (size_t)done_slots(&c), as.nlooks, fav, e))
		goto out_s;
	x->call = xstrdup(bisect_call_word(call));
	x->why = xstrdup(bisect_why_word(why));
	x->boots = done_slots(&c);
	x->looks = (int)as.nlooks;
	x->assumed = l->bi.nsteps > before && l->bi.steps[l->bi.nsteps - 1].assumed;
	x->favoured = call == BISECT_UNDECIDED ? xstrdup(bisect_call_word(fav)) : NULL;
	rc = store_bisect_step_put(env->st, l->b.id, x, e);
out_s:
	study_adaptive_state_free(&as);
out_c:
	campaign_free(&c);
	return rc;
}

/* The culprit check's verdicts, per workload, of the culprit against its parent. */
static int check_rows(const char *db_path, const struct loaded *l, struct vrow **v, size_t *n, struct err *e)
{
	char *sa = selector("bisect_check", l->b.name, l->cfg[l->bi.culprit - 1].name);
	char *sb = selector("bisect_check", l->b.name, l->cfg[l->bi.culprit].name);
	struct st_compare_opts co = stats_compare_defaults();
	int rc = compare_rows(db_path, sa, sb, &l->workloads, &co, v, n, e);
	free(sa);
	free(sb);
	return rc;
}

/* The culprit check: its campaign made, driven, and judged once done. *wait: it waits for a boot. */
static int culprit_check(const struct campaign_env *env, struct loaded *l, bool *wait, struct err *e)
{
	char *cname = xasprintf("%s.check", l->b.name);
	struct store_campaign sc;
	struct err ignored;
	int rc = -1;
	*wait = false;
	if (store_campaign_get(env->st, cname, &sc, &ignored)) {
		size_t idx[2] = {l->bi.culprit - 1, l->bi.culprit};
		struct store_campaign_config cc[2];
		for (size_t i = 0; i < 2; i++)
			if (config_parse(l->series.v[idx[i]], idx[i], "bisect_check", l->b.name, &cc[i], e)) {
				if (i)
					store_campaign_config_free(&cc[0]);
				goto out;
			}
		size_t two[2] = {0, 1};
		struct campaign_spec sp;
		int r = step_spec(&l->b, cc, two, 2, cname, 0, l->b.cap / 2, &sp, e);
		if (!r) {
			r = campaign_create(env->st, &sp, e);
			spec_free(&sp);
		}
		store_campaign_config_free(&cc[0]);
		store_campaign_config_free(&cc[1]);
		if (r)
			goto out;
	} else
		store_campaign_free(&sc);
	enum campaign_state s;
	if (drive_campaign(env, cname, NULL, &s, e))
		goto out;
	if (s == CAMPAIGN_RUNNING || s == CAMPAIGN_STOPPED || s == CAMPAIGN_NEW) {
		*wait = true;
		rc = s == CAMPAIGN_STOPPED ? store_bisect_set_state(env->st, l->b.id, "stopped", NULL, e) : 0;
		goto out;
	}
	enum bisect_check ck = BISECT_UNCONFIRMED;
	if (s == CAMPAIGN_DONE) {
		struct vrow *v;
		size_t n;
		struct err ce;
		if (!check_rows(env->db_path, l, &v, &n, &ce)) {
			enum st_verdict *cv = xcalloc(n ? n : 1, sizeof *cv);
			for (size_t i = 0; i < n; i++)
				cv[i] = v[i].v;
			ck = n ? bisect_check_decide(cv, NULL, n) : BISECT_UNCONFIRMED;
			free(cv);
			vrows_free(v, n);
		}
	}
	rc = store_bisect_set_checked(env->st, l->b.id, ck == BISECT_CONFIRMED ? "confirmed" : "unconfirmed", e);
out:
	free(cname);
	return rc;
}

int study_bisect_drive(const struct campaign_env *env, const char *name, struct err *e)
{
	struct loaded l;
	if (load(env->st, name, &l, e))
		return -1;
	int rc = -1;
	if (store_bisect_set_state(env->st, l.b.id, "running", NULL, e))
		goto out;
	while (l.bi.state == BISECT_RUNNING) {
		struct store_bisect_step *x = l.nsteps && !l.steps[l.nsteps - 1].call ? &l.steps[l.nsteps - 1] : NULL;
		if (!x) {
			size_t mid;
			if (!bisect_next(&l.bi, &mid))
				break;
			int n = (int)l.nsteps + 1;
			if (step_create(env->st, &l.b, l.cfg, n, l.bi.good, mid, l.bi.bad, e))
				goto out;
			store_bisect_steps_free(l.steps, l.nsteps);
			if (store_bisect_steps(env->st, l.b.id, &l.steps, &l.nsteps, e))
				goto out;
			continue;
		}
		if (!x->campaign) {
			errf(e, "step %d of bisection '%s' lost its campaign (removed?); the bisection cannot go on", x->n,
			     name);
			goto out;
		}
		struct step_rule_arg arg = {.patterns = &l.workloads, .first = l.bi.nsteps == 0, .cap = l.b.cap};
		char *sel[STEP_CONFIGS] = {selector("bisect", name, l.cfg[x->good].name),
					   selector("bisect", name, l.cfg[x->mid].name),
					   selector("bisect", name, l.cfg[x->bad].name)};
		for (int i = 0; i < STEP_CONFIGS; i++)
			arg.sel[i] = sel[i];
		struct study_rule rule = {.name = "bisect", .decide = step_decide, .arg = &arg};
		enum campaign_state s;
		int r = drive_campaign(env, x->campaign, &rule, &s, e);
		for (int i = 0; i < STEP_CONFIGS; i++)
			free(sel[i]);
		if (r)
			goto out;
		if (s == CAMPAIGN_STOPPED) {
			rc = store_bisect_set_state(env->st, l.b.id, "stopped", NULL, e);
			goto out;
		}
		if (s != CAMPAIGN_DONE && s != CAMPAIGN_FAILED) {
			rc = 0; /* the next boot is armed: the reboot backends come back here */
			goto out;
		}
		if (step_end(env, &l, x, s, e))
			goto out;
	}
	if (l.bi.state == BISECT_FOUND && !l.b.checked) {
		bool wait;
		if (culprit_check(env, &l, &wait, e))
			goto out;
		if (wait) {
			rc = 0;
			goto out;
		}
	}
	char *reason = l.bi.state == BISECT_FOUND ? xasprintf("culprit: configuration %zu", l.bi.culprit + 1)
		       : l.bi.state == BISECT_AMBIGUOUS
			   ? xasprintf("culprit: one of configurations %zu to %zu (skipped ones between)", l.bi.culprit_lo + 1,
				       l.bi.culprit + 1)
		       : l.bi.state == BISECT_STUCK ? xstrdup("a step stayed undecided at the cap (give --assume to go on)")
		       : l.bi.state == BISECT_NOSTEP ? xstrdup("no change between the ends")
						     : NULL;
	rc = store_bisect_set_state(env->st, l.b.id, bisect_state_word(l.bi.state), reason, e);
	free(reason);
out:
	loaded_free(&l);
	return rc;
}

int study_bisect_stop(const struct campaign_env *env, const char *name, struct err *e)
{
	struct loaded l;
	if (load(env->st, name, &l, e))
		return -1;
	int rc = -1;
	const char *ended[] = {"found", "ambiguous", "stuck", "no_step"};
	for (size_t i = 0; i < sizeof ended / sizeof ended[0]; i++)
		if (!strcmp(l.b.state, ended[i]) && (strcmp(l.b.state, "found") || l.b.checked)) {
			errf(e, "bisection '%s' has ended (%s); nothing to stop", name, l.b.state);
			goto out;
		}
	char *cname = NULL;
	if (l.nsteps && !l.steps[l.nsteps - 1].call && l.steps[l.nsteps - 1].campaign)
		cname = xstrdup(l.steps[l.nsteps - 1].campaign);
	else if (l.bi.state == BISECT_FOUND)
		cname = xasprintf("%s.check", name);
	struct store_campaign sc;
	struct err ignored;
	if (cname && !store_campaign_get(env->st, cname, &sc, &ignored)) {
		bool live = !strcmp(sc.state, "running") || !strcmp(sc.state, "new");
		store_campaign_free(&sc);
		if (live && campaign_stop(env, cname, e)) {
			free(cname);
			goto out;
		}
	}
	free(cname);
	rc = store_bisect_set_state(env->st, l.b.id, "stopped", NULL, e);
out:
	loaded_free(&l);
	return rc;
}

/* ---------------------------------------------------------------- the view */

int study_bisect_view(struct store *st, const char *db_path, const char *name, struct study_bisect_view *v,
		      struct err *e)
{
	memset(v, 0, sizeof *v);
	struct loaded l;
	if (load(st, name, &l, e))
		return -1;
	v->name = xstrdup(l.b.name);
	v->state = xstrdup(l.b.state);
	v->reason = l.b.reason ? xstrdup(l.b.reason) : NULL;
	v->checked = l.b.checked ? xstrdup(l.b.checked) : NULL;
	for (size_t i = 0; i < l.series.n; i++)
		strv_add(&v->configs, l.cfg[i].name);
	v->good = (size_t)l.b.good;
	v->bad = (size_t)l.b.bad;
	v->cap = l.b.cap;
	v->assume = l.b.assume;
	v->found = l.bi.state == BISECT_FOUND;
	v->ambiguous = l.bi.state == BISECT_AMBIGUOUS;
	v->culprit = l.bi.culprit;
	v->culprit_lo = l.bi.culprit_lo;
	v->steps = xcalloc(l.nsteps ? l.nsteps : 1, sizeof *v->steps);
	for (size_t i = 0; i < l.nsteps; i++) {
		const struct store_bisect_step *x = &l.steps[i];
		struct study_bisect_view_step *s = &v->steps[v->nsteps++];
		s->n = x->n;
		s->good = (size_t)x->good;
		s->mid = (size_t)x->mid;
		s->bad = (size_t)x->bad;
		s->campaign = x->campaign ? xstrdup(x->campaign) : NULL;
		s->call = x->call ? xstrdup(x->call) : NULL;
		s->why = x->why ? xstrdup(x->why) : NULL;
		s->boots = x->boots;
		s->looks = x->looks;
		s->assumed = x->assumed != 0;
		if (!x->call && x->campaign) { /* an open step: the boots so far */
			struct campaign c;
			struct err ignored;
			if (!campaign_load(st, x->campaign, &c, &ignored)) {
				s->boots = done_slots(&c);
				campaign_free(&c);
			}
		}
		v->boots += s->boots;
	}
	char *cname = xasprintf("%s.check", name);
	struct campaign c;
	struct err ignored;
	if (v->found && !campaign_load(st, cname, &c, &ignored)) {
		v->check_boots = done_slots(&c);
		v->boots += v->check_boots;
		campaign_free(&c);
		/* the effect: the culprit against its parent over the check's fresh boots, first workload */
		struct store *rst;
		struct an_look_req lr = {0};
		struct an_compare_job j;
		char *sa = selector("bisect_check", name, l.cfg[l.bi.culprit - 1].name);
		char *sb = selector("bisect_check", name, l.cfg[l.bi.culprit].name);
		memset(&j, 0, sizeof j);
		struct st_compare_opts co = stats_compare_defaults();
		if (v->check_boots >= 4 && !store_open(db_path, STORE_READ, &rst, &ignored) &&
		    !an_compare_job_build(rst, sa, sb, &l.workloads, &co, false, false, &lr, &j, &ignored))
			for (size_t i = 0; i < j.c.nrows && !v->have_effect; i++) {
				const struct an_row *row = &j.c.rows[i];
				if (row->ncomposite || row->event || !row->have_a || !row->have_b)
					continue;
				v->have_effect = true;
				v->workload = xstrdup(row->workload);
				v->pct = row->chg.pct;
				v->lo = row->chg.lo;
				v->hi = row->chg.hi;
				v->time = row->chg.time;
			}
		an_compare_job_free(&j);
		free(sa);
		free(sb);
	}
	free(cname);
	loaded_free(&l);
	return 0;
}

void study_bisect_view_free(struct study_bisect_view *v)
{
	if (!v)
		return;
	free(v->name);
	free(v->state);
	free(v->reason);
	free(v->checked);
	free(v->workload);
	strv_free(&v->configs);
	for (size_t i = 0; i < v->nsteps; i++) {
		free(v->steps[i].campaign);
		free(v->steps[i].call);
		free(v->steps[i].why);
	}
	free(v->steps);
	memset(v, 0, sizeof *v);
}
