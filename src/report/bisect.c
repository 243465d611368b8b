/* bisect.c - renders a bisection's finished view (text, JSON, Markdown) and its dry run; computes nothing. */
#include "report/bisect.h"

#include <jansson.h>
#include <math.h>
#include <string.h>

/* "configuration 6 'v=6'" */
static void cfg(FILE *f, const struct study_bisect_view *v, size_t i)
{
	fprintf(f, "%zu '%s'", i + 1, i < v->configs.n ? v->configs.v[i] : "?");
}

/* The headline: what the bisection found, or where it stands. */
static void headline(FILE *f, const struct study_bisect_view *v, const char *md)
{
	fprintf(f, "%sbisection %s: ", md, v->name);
	if (v->found) {
		fprintf(f, "culprit ");
		cfg(f, v, v->culprit);
		fprintf(f, " (after ");
		cfg(f, v, v->culprit - 1);
		fprintf(f, "), %s\n", v->checked ? v->checked : "not yet checked");
	} else if (v->ambiguous) {
		fprintf(f, "culprit one of configurations %zu to %zu (skipped ones between)\n", v->culprit_lo + 1,
			v->culprit + 1);
	} else if (!strcmp(v->state, "no_step"))
		fprintf(f, "no change between the ends\n");
	else
		fprintf(f, "%s%s%s\n", v->state, v->reason ? ": " : "", v->reason ? v->reason : "");
}

static void effect(FILE *f, const struct study_bisect_view *v, const char *md)
{
	if (v->have_effect)
		fprintf(f, "%seffect: %s %+.2f%% [%+.2f%%, %+.2f%%] (%s, 95%% interval; culprit check, %d fresh boots)\n",
			md, v->workload, v->pct, v->lo, v->hi, v->time ? "time per op" : "rate", v->check_boots);
	else if (v->found && v->checked)
		fprintf(f, "%seffect: not measured (culprit check, %d boots)\n", md, v->check_boots);
}

static void step_line(FILE *f, const struct study_bisect_view *v, const struct study_bisect_view_step *s,
		      const char *md)
{
	fprintf(f, "%sstep %d: ", md, s->n);
	cfg(f, v, s->mid);
	fprintf(f, " between %zu and %zu: %s", s->good + 1, s->bad + 1, s->call ? s->call : "open");
	if (s->why)
		fprintf(f, " (%s)", s->why);
	if (s->assumed)
		fprintf(f, ", assumed");
	fprintf(f, ", %d boot%s, %d look%s\n", s->boots, s->boots == 1 ? "" : "s", s->looks, s->looks == 1 ? "" : "s");
}

void report_bisect_text(FILE *f, const struct study_bisect_view *v)
{
	headline(f, v, "");
	effect(f, v, "");
	for (size_t i = 0; i < v->nsteps; i++)
		step_line(f, v, &v->steps[i], "  ");
	fprintf(f, "%d boots in all, at most %d per step; state %s\n", v->boots, v->cap, v->state);
}

void report_bisect_markdown(FILE *f, const struct study_bisect_view *v)
{
	headline(f, v, "### ");
	fprintf(f, "\n");
	effect(f, v, "- ");
	for (size_t i = 0; i < v->nsteps; i++)
		step_line(f, v, &v->steps[i], "- ");
	fprintf(f, "- %d boots in all, at most %d per step; state %s\n", v->boots, v->cap, v->state);
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

void report_bisect_json(FILE *f, const struct study_bisect_view *v)
{
	json_t *o = json_object(), *cf = json_array(), *st = json_array();
	json_object_set_new(o, "schema_version", json_integer(1));
	json_object_set_new(o, "kind", json_string("bisect"));
	json_object_set_new(o, "name", json_string(v->name));
	json_object_set_new(o, "state", json_string(v->state));
	json_object_set_new(o, "reason", v->reason ? json_string(v->reason) : json_null());
	for (size_t i = 0; i < v->configs.n; i++)
		json_array_append_new(cf, json_string(v->configs.v[i]));
	json_object_set_new(o, "configurations", cf);
	json_object_set_new(o, "good", json_integer((json_int_t)v->good + 1));
	json_object_set_new(o, "bad", json_integer((json_int_t)v->bad + 1));
	json_object_set_new(o, "max_boots", json_integer(v->cap));
	json_object_set_new(o, "assume", json_boolean(v->assume));
	json_object_set_new(o, "culprit", v->found || v->ambiguous ? json_integer((json_int_t)v->culprit + 1) : json_null());
	json_object_set_new(o, "culprit_from",
			    v->ambiguous ? json_integer((json_int_t)v->culprit_lo + 1) : json_null());
	json_object_set_new(o, "check", v->checked ? json_string(v->checked) : json_null());
	json_object_set_new(o, "check_boots", json_integer(v->check_boots));
	if (v->have_effect) {
		json_t *x = json_object();
		json_object_set_new(x, "workload", json_string(v->workload));
		json_object_set_new(x, "pct", num(v->pct));
		json_object_set_new(x, "lo", num(v->lo));
		json_object_set_new(x, "hi", num(v->hi));
		json_object_set_new(x, "time", json_boolean(v->time));
		json_object_set_new(o, "effect", x);
	} else
		json_object_set_new(o, "effect", json_null());
	for (size_t i = 0; i < v->nsteps; i++) {
		const struct study_bisect_view_step *s = &v->steps[i];
		json_t *x = json_object();
		json_object_set_new(x, "n", json_integer(s->n));
		json_object_set_new(x, "good", json_integer((json_int_t)s->good + 1));
		json_object_set_new(x, "mid", json_integer((json_int_t)s->mid + 1));
		json_object_set_new(x, "bad", json_integer((json_int_t)s->bad + 1));
		json_object_set_new(x, "campaign", s->campaign ? json_string(s->campaign) : json_null());
		json_object_set_new(x, "call", s->call ? json_string(s->call) : json_null());
		json_object_set_new(x, "why", s->why ? json_string(s->why) : json_null());
		json_object_set_new(x, "boots", json_integer(s->boots));
		json_object_set_new(x, "looks", json_integer(s->looks));
		json_object_set_new(x, "assumed", json_boolean(s->assumed));
		json_array_append_new(st, x);
	}
	json_object_set_new(o, "steps", st);
	json_object_set_new(o, "boots", json_integer(v->boots));
	json_dumpf(o, f, JSON_INDENT(2));
	fputc('\n', f);
	json_decref(o);
}

void report_bisect_plan_text(FILE *f, const struct study_bisect_plan *p)
{
	fprintf(f, "bisection %s (dry run: nothing stored, nothing boots)\n", p->name);
	for (size_t i = 0; i < p->configs.n; i++)
		fprintf(f, "  %2zu  %s%s\n", i + 1, p->configs.v[i],
			i == p->good ? "  (good)" : i == p->bad ? "  (bad)" : "");
	if (!p->nsteps) {
		fprintf(f, "the ends are adjacent: no step; the culprit check boots %zu against %zu (%d boots each)\n",
			p->bad + 1, p->good + 1, p->cap / 2);
		return;
	}
	fprintf(f, "each step: campaign %s.sK of blocks of 3 boots (good end, midpoint, bad end in shuffled order), "
		   "a look after every block from the 2nd, at most %d blocks (%d boots)\n",
		p->name, p->blocks, p->cap);
	size_t depth = 0;
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct study_bisect_plan_step *s = &p->steps[i];
		if (s->depth != depth && s->depth == 1)
			fprintf(f, "step 1 (campaign %s.s1):", p->name);
		else if (s->depth != depth)
			fprintf(f, "step %zu:", s->depth);
		fprintf(f, "%s %zu with %zu and %zu", s->depth == depth ? " |" : "", s->mid + 1, s->good + 1, s->bad + 1);
		depth = s->depth;
		if (i + 1 == p->nsteps || p->steps[i + 1].depth != depth)
			fprintf(f, "\n");
	}
	fprintf(f, "at most %zu steps, then the culprit check %s.check: the culprit against its parent, %d fresh "
		   "boots each\n",
		p->depth, p->name, p->cap / 2);
}
