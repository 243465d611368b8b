/* adaptive.c - adaptive campaigns: the rule asked after each block, its looks, and the API other designs drive. */
#include "study/adaptive.h"
#include "analysis/job.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

const char *study_stop_word(enum study_stop s)
{
	static const char *const word[STUDY_NSTOPS] = {"go_on", "decided", "cap", "budget"};
	return s < STUDY_NSTOPS ? word[s] : "?";
}

void study_decision_free(struct study_decision *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nrows; i++)
		free(d->rows[i].workload);
	free(d->rows);
	free(d->verdicts);
	memset(d, 0, sizeof *d);
}

enum study_stop study_decided_stop(const enum st_verdict *v, size_t n, int blocks, int max_boots, double elapsed_s,
				   double budget_s)
{
	bool all = n > 0;
	for (size_t i = 0; i < n; i++)
		all &= v[i] == ST_FASTER || v[i] == ST_SLOWER || v[i] == ST_EQUIVALENT;
	if (all)
		return STUDY_DECIDED;
	if (blocks >= max_boots)
		return STUDY_CAP;
	if (budget_s > 0 && elapsed_s >= budget_s)
		return STUDY_BUDGET;
	return STUDY_GO_ON;
}

/* The selector of configuration i of c: campaign:NAME and its labels (new string). */
static char *config_selector(const struct campaign *c, size_t i)
{
	struct sb s = {0};
	sb_addf(&s, "campaign:%s", c->r.name);
	for (size_t k = 0; k < c->labels[i].n; k++)
		sb_addf(&s, " %s=%s", c->labels[i].v[k].key, c->labels[i].v[k].value);
	return s.s;
}

/* The look's rows as JSON text: {"decided": [...], "open": [...]} by workload. */
static char *rows_json(const struct study_row *rows, size_t n)
{
	json_t *o = json_object(), *dec = json_array(), *open = json_array();
	for (size_t i = 0; i < n; i++) {
		enum st_verdict v = rows[i].verdict;
		bool d = v == ST_FASTER || v == ST_SLOWER || v == ST_EQUIVALENT;
		json_array_append_new(d ? dec : open, json_string(rows[i].workload));
	}
	json_object_set_new(o, "decided", dec);
	json_object_set_new(o, "open", open);
	char *t = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	return t;
}

static int decided_decide(const struct study_rule *r, const struct campaign_env *env, const struct campaign *c,
			  const struct store_adaptive *a, int blocks, double elapsed_s, struct study_decision *out,
			  struct err *e)
{
	(void)r;
	memset(out, 0, sizeof *out);
	out->blocks = blocks;
	int rc = -1;
	enum st_verdict *v = NULL;
	char *sa = NULL, *sb = NULL;
	struct strv patterns = {0};
	if (blocks >= 2) {
		size_t samples;
		study_run_design(&c->run_args, &patterns, &samples);
		sa = config_selector(c, 0);
		sb = config_selector(c, 1);
		struct st_compare_opts co = stats_compare_defaults();
		co.margin = a->target;
		co.max_boots = (size_t)a->max_boots;
		co.look = (size_t)(blocks - 1);
		struct an_look_req lr = {0};
		struct an_compare_job j;
		struct store *rst;
		if (store_open(env->db_path, STORE_READ, &rst, e))
			goto out;
		/* the job owns rst and closes it */
		if (an_compare_job_build(rst, sa, sb, &patterns, &co, false, false, &lr, &j, e))
			goto out;
		out->k = blocks - 1;
		out->rows = xcalloc(j.c.nrows ? j.c.nrows : 1, sizeof *out->rows);
		for (size_t i = 0; i < j.c.nrows; i++) {
			const struct an_row *row = &j.c.rows[i];
			if (row->ncomposite || row->event)
				continue;
			struct study_row *x = &out->rows[out->nrows++];
			x->workload = xstrdup(row->workload);
			x->copies = row->copies;
			x->verdict = row->have_a && row->have_b ? row->c.verdict : ST_NO_DATA;
		}
		an_compare_job_free(&j);
	}
	v = xcalloc(out->nrows ? out->nrows : 1, sizeof *v);
	for (size_t i = 0; i < out->nrows; i++)
		v[i] = out->rows[i].verdict;
	out->stop = study_decided_stop(v, out->nrows, blocks, a->max_boots, elapsed_s, a->budget_s);
	out->verdicts = rows_json(out->rows, out->nrows);
	rc = 0;
out:
	free(v);
	free(sa);
	free(sb);
	strv_free(&patterns);
	if (rc)
		study_decision_free(out);
	return rc;
}

const struct study_rule study_rule_decided = {.name = "decided", .decide = decided_decide};

int study_adaptive_check(const struct study_adaptive_spec *a, size_t nconfigs, bool boots_given, struct err *e)
{
	if (!a->until || strcmp(a->until, "decided"))
		return errf(e, "--until '%s': give --until decided (stop when every chosen workload has a verdict)",
			    a->until ? a->until : "");
	if (a->max_boots < 2)
		return errf(e, "--max-boots %d: an adaptive campaign needs a cap of at least 2 boots per configuration "
			       "(a look needs 2)",
			    a->max_boots);
	if (boots_given)
		return errf(e, "--boots and --until go together badly: an adaptive campaign boots until it decides, at "
			       "most --max-boots per configuration; give --max-boots N instead of --boots");
	if (nconfigs != 2)
		return errf(e, "--until decided compares two configurations (B against A); give exactly two --config, "
			       "not %zu",
			    nconfigs);
	if (!(a->target > 0))
		return errf(e, "--target: give a margin above 0%%, e.g. --target 1%%");
	if (a->budget_s < 0)
		return errf(e, "--budget: give a wall time above 0, e.g. --budget 2h");
	return 0;
}

int study_adaptive_create(struct store *st, struct campaign_spec *sp, const struct study_adaptive_spec *a,
			  struct err *e)
{
	/* bisect's steps (study/bisectrun.c) bring their own rule over three configurations */
	bool bisect = a->until && !strcmp(a->until, "bisect");
	if (bisect && a->max_boots < 2)
		return errf(e, "a bisection step needs at least 2 blocks (a look needs 2 boots of each)");
	if (!bisect && study_adaptive_check(a, sp->nconfigs, false, e))
		return -1;
	struct store_adaptive sa = {.until = (char *)a->until, .target = a->target, .max_boots = a->max_boots,
				    .budget_s = a->budget_s};
	sp->boots = a->max_boots;
	sp->adaptive = &sa;
	int rc = campaign_create(st, sp, e);
	sp->adaptive = NULL;
	return rc;
}

/* What one start or resume carries to the driver's after_block. */
struct step {
	const struct study_rule *rule;
	bool pause;
	struct study_decision last;
};

/* Wall seconds since the campaign's first boot began. */
static double elapsed_s(const struct campaign *c)
{
	uint64_t first = 0;
	for (size_t i = 0; i < c->r.nslots; i++)
		if (c->r.slots[i].started_ns && (!first || c->r.slots[i].started_ns < first))
			first = c->r.slots[i].started_ns;
	uint64_t now = clock_wall_ns();
	return first && now > first ? (double)(now - first) / 1e9 : 0;
}

static int after_block(const struct campaign_env *env, const struct campaign *c, int blocks, enum campaign_next *next,
		       struct err *e)
{
	struct step *s = env->arg;
	struct store_adaptive a;
	*next = CAMPAIGN_GO_ON;
	int rc = store_adaptive_get(env->st, c->r.id, &a, e);
	if (rc <= 0)
		return rc;
	struct study_decision d;
	rc = -1;
	if (s->rule->decide(s->rule, env, c, &a, blocks, elapsed_s(c), &d, e))
		goto out;
	if (d.k > 0) {
		struct store_adaptive_look l = {.k = d.k, .blocks = blocks, .at_ns = clock_wall_ns(),
						.decision = (char *)study_stop_word(d.stop), .verdicts = d.verdicts};
		if (store_adaptive_look_put(env->st, c->r.id, &l, e) < 0)
			goto out_d;
	}
	if (d.stop != STUDY_GO_ON && store_adaptive_set_stopped(env->st, c->r.id, study_stop_word(d.stop), e))
		goto out_d;
	*next = d.stop != STUDY_GO_ON ? CAMPAIGN_END : s->pause ? CAMPAIGN_PAUSE : CAMPAIGN_GO_ON;
	study_decision_free(&s->last);
	s->last = d;
	memset(&d, 0, sizeof d);
	rc = 0;
out_d:
	study_decision_free(&d);
out:
	store_adaptive_free(&a);
	return rc;
}

int study_adaptive_step(const struct campaign_env *env, const char *name, bool resume, const struct study_rule *rule,
			bool pause, struct study_decision *last, struct err *e)
{
	struct step s = {.rule = rule ? rule : &study_rule_decided, .pause = pause};
	struct campaign_env x = *env;
	x.after_block = after_block;
	x.arg = &s;
	int rc = resume ? campaign_resume(&x, name, e) : campaign_start(&x, name, e);
	if (last)
		*last = s.last;
	else
		study_decision_free(&s.last);
	return rc;
}

int study_adaptive_reached(struct store *st, const char *name, const struct study_decision *d, struct study_mde *md,
			   struct err *e)
{
	memset(md, 0, sizeof *md);
	struct campaign c;
	struct store_adaptive a;
	if (campaign_load(st, name, &c, e))
		return -1;
	int rc = store_adaptive_get(st, c.r.id, &a, e);
	char *pilot = NULL;
	if (rc > 0) {
		/* the pilot: configuration A's runs (both configurations' would count B - A as noise) */
		pilot = config_selector(&c, 0);
		struct study_mde_in in = {(size_t)d->blocks, (size_t)c.r.runs, &c.run_args, c.r.backend,
					  campaign_qemu_accel(&c.opts), pilot, a.target};
		rc = study_campaign_mde(st, &in, md, e);
	} else if (!rc)
		rc = errf(e, "campaign '%s' is not adaptive", name);
	free(pilot);
	store_adaptive_free(&a);
	campaign_free(&c);
	return rc;
}

int study_adaptive_state(struct store *st, int64_t id, struct study_adaptive_state *s, struct err *e)
{
	memset(s, 0, sizeof *s);
	int rc = store_adaptive_get(st, id, &s->a, e);
	if (rc <= 0)
		return rc;
	if (store_adaptive_looks(st, id, &s->looks, &s->nlooks, e)) {
		study_adaptive_state_free(s);
		return -1;
	}
	return 0;
}

void study_adaptive_state_free(struct study_adaptive_state *s)
{
	if (!s)
		return;
	store_adaptive_free(&s->a);
	store_adaptive_looks_free(s->looks, s->nlooks);
	memset(s, 0, sizeof *s);
}
