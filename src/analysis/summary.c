/* summary.c - per-run medians, CVs and the UnixBench-style index. */
#include "analysis/summary.h"
#include "analysis/composite.h"
#include "analysis/analysis.h"
#include "stats/stats.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* v: the run's measured samples (ops/s) in time order. */
static void row_stats(struct summary_row *r, const double *v, size_t n)
{
	r->n = n;
	r->halfwidth = INFINITY;
	if (!n)
		return;
	double *y = xcalloc(n, sizeof *y);
	for (size_t i = 0; i < n; i++)
		y[i] = log(v[i]);
	struct st_runstat rs;
	stats_run_batches(&(struct st_run){.y = y, .n = n}, &rs);
	r->df = rs.nbatches >= 2 ? rs.df : 0;
	if (r->df >= AN_MIN_INTERVAL_DF)
		r->halfwidth = stats_run_halfwidth(&(struct st_run){.y = y, .n = n}, 0.95);
	free(y);
	struct st_summary s;
	stats_summary(v, n, &s);
	r->median = s.median;
	r->mean = s.mean;
	r->cv = n > 1 ? s.cv : 0;
	r->min = s.min;
	r->max = s.max;
}

/* Decode a slot's self-check JSON ("[{name, value, lo, hi, ok}...]"); text that is not such
 * an array decodes to no checks. */
static void checks_decode(struct summary_row *r, const char *text)
{
	json_t *a = text && *text ? json_loads(text, 0, NULL) : NULL;
	size_t n = json_is_array(a) ? json_array_size(a) : 0;
	r->checks = xcalloc(n, sizeof *r->checks);
	for (size_t i = 0; i < n; i++) {
		json_t *c = json_array_get(a, i);
		const char *name = json_string_value(json_object_get(c, "name"));
		r->checks[r->nchecks++] = (struct summary_check){
			.name = xstrdup(name ? name : "?"),
			.value = json_number_value(json_object_get(c, "value")),
			.lo = json_number_value(json_object_get(c, "lo")),
			.hi = json_number_value(json_object_get(c, "hi")),
			.ok = json_is_true(json_object_get(c, "ok")),
			.batches = (int)json_integer_value(json_object_get(c, "batches")),
			.failed_batches = (int)json_integer_value(json_object_get(c, "failed_batches")),
			.worst = json_number_value(json_object_get(c, "worst")),
		};
		if (json_is_false(json_object_get(c, "checked"))) { /* a counter check without its counter */
			const char *why = json_string_value(json_object_get(c, "why"));
			r->checks[r->nchecks - 1].why = xstrdup(why ? why : "cannot check");
		}
	}
	json_decref(a);
}

/* Why the run has no sysab-index at copies c although it ran members of it: the members it ran
 * (a slot) without samples, with their status and reason. Appended to out->noindex when any;
 * members it never ran (a -w subset) are no reason to mention it. */
static void summary_noindex_add(struct summary *out, const struct store_set *set, int c)
{
	const char *missing[AN_COMPOSITE_MAX];
	size_t nm = an_sysab_index_missing(set, c, missing, AN_COMPOSITE_MAX);
	struct sb why = {0};
	for (size_t m = 0; m < nm; m++)
		for (size_t i = 0; i < out->nslots; i++) {
			const struct store_slot_info *sl = &out->slots[i];
			if (sl->copies != c || strcmp(sl->workload, missing[m]))
				continue;
			sb_addf(&why, "%s%s %s", why.len ? "; " : "", sl->workload, sl->status);
			if (sl->reason && *sl->reason)
				sb_addf(&why, ": %s", sl->reason);
		}
	if (why.len) {
		out->noindex = xrealloc(out->noindex, (out->nnoindex + 1) * sizeof *out->noindex);
		out->noindex[out->nnoindex++] = (struct summary_noindex){AN_SYSAB_INDEX, c, xstrdup(sb_str(&why))};
	}
	sb_free(&why);
}

/* The run's composite indexes, one per copies count that holds all members (composite.c computes
 * them), and why sysab-index is missing where the run ran members that gave no samples. */
static int summary_composites(struct store *st, int64_t id, struct summary *out, struct err *e)
{
	struct store_set set;
	if (store_load_set(st, &id, 1, &set, e)) {
		summary_free(out);
		return -1;
	}
	for (size_t i = 0; i < set.nseries; i++) {
		int c = set.series[i].copies;
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = set.series[j].copies == c;
		struct an_composite def[2];
		size_t nd = seen ? 0 : an_composites(&set, 1, c, def);
		bool have_sy = false;
		for (size_t d = 0; d < nd; d++)
			have_sy |= !strcmp(def[d].name, AN_SYSAB_INDEX);
		if (!seen && !have_sy)
			summary_noindex_add(out, &set, c);
		for (size_t d = 0; d < nd; d++) {
			struct an_composite_run *r;
			size_t nr = an_composite_runs(&set, &def[d], &r);
			if (nr == 1) {
				char about[512];
				an_composite_describe(&def[d], about, sizeof about);
				out->index = xrealloc(out->index, (out->nindex + 1) * sizeof *out->index);
				out->index[out->nindex++] =
					(struct summary_index){def[d].name, c, (int)def[d].n, exp(r[0].y), xstrdup(about)};
			}
			free(r);
		}
	}
	store_set_free(&set);
	return 0;
}

int summary_load(struct store *st, int64_t id, struct summary *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	struct store_sample_info *smp = NULL;
	size_t ns = 0;
	if (store_run_get(st, id, &out->run, e))
		return -1;
	if (store_slots_get(st, id, &out->slots, &out->nslots, e) || store_samples_get(st, id, &smp, &ns, e) ||
	    ctr_rows_load(st, &id, 1, &out->counters, &out->ncounters, e)) {
		summary_free(out);
		return -1;
	}
	out->rows = xcalloc(out->nslots, sizeof *out->rows);
	double *v = xcalloc(ns, sizeof *v);
	/* slots and samples are both ordered by (workload, copies) */
	size_t k = 0;
	for (size_t i = 0; i < out->nslots; i++) {
		struct summary_row *r = &out->rows[i];
		const struct store_slot_info *sl = &out->slots[i];
		r->slot = sl;
		size_t n = 0;
		for (; k < ns; k++) {
			int c = strcmp(smp[k].workload, sl->workload);
			if (c > 0 || (c == 0 && smp[k].copies > sl->copies))
				break;
			if (c == 0 && smp[k].copies == sl->copies) {
				if (smp[k].warmup)
					r->warmup++;
				else
					v[n++] = smp[k].value;
			}
		}
		row_stats(r, v, n);
		checks_decode(r, sl->checks);
	}
	free(v);
	store_samples_free(smp, ns);

	return summary_composites(st, id, out, e);
}

void summary_free(struct summary *s)
{
	if (!s)
		return;
	store_run_info_free(&s->run);
	for (size_t i = 0; s->rows && i < s->nslots; i++) {
		for (size_t k = 0; k < s->rows[i].nchecks; k++) {
			free(s->rows[i].checks[k].name);
			free(s->rows[i].checks[k].why);
		}
		free(s->rows[i].checks);
	}
	store_slots_free(s->slots, s->nslots);
	free(s->rows);
	for (size_t i = 0; s->index && i < s->nindex; i++)
		free(s->index[i].about);
	free(s->index);
	for (size_t i = 0; s->noindex && i < s->nnoindex; i++)
		free(s->noindex[i].why);
	free(s->noindex);
	ctr_rows_free(s->counters, s->ncounters);
	memset(s, 0, sizeof *s);
}

void summary_tally_of(const struct summary *s, struct summary_tally *t)
{
	memset(t, 0, sizeof *t);
	t->fails = xcalloc(s->nslots, sizeof *t->fails);
	t->unfinished = xcalloc(s->nslots, sizeof *t->unfinished);
	for (size_t i = 0; i < s->nslots; i++) {
		const struct summary_row *r = &s->rows[i];
		const char *bad = NULL;
		for (size_t k = 0; k < r->nchecks && !bad; k++)
			if (!r->checks[k].why && !r->checks[k].ok) {
				bad = r->checks[k].name;
				t->fails[t->failed_checks] = (struct summary_failed){r, &r->checks[k]};
			}
		if (r->slot->state == STORE_SLOT_UNSUPPORTED) {
			t->unsupported++;
		} else if (bad) {
			t->failed_checks++;
			struct sb n = {0};
			sb_add(&n, r->slot->workload);
			if (r->slot->copies > 1)
				sb_addf(&n, "/%d", r->slot->copies);
			sb_addf(&n, " (%s)", bad);
			strv_add(&t->failed, sb_str(&n));
			sb_free(&n);
		} else if (r->slot->state == STORE_SLOT_OK) {
			t->ok++;
		} else {
			t->unfinished[t->other++] = r;
		}
	}
}

void summary_tally_free(struct summary_tally *t)
{
	if (!t)
		return;
	strv_free(&t->failed);
	free(t->fails);
	free(t->unfinished);
	memset(t, 0, sizeof *t);
}

const char *summary_machine_word(enum summary_machine_verdict v)
{
	static const char *const words[] = {"quiet", "noisy", "emulated", "unjudged"};
	return (unsigned)v < sizeof words / sizeof *words ? words[v] : "?";
}

/* The machine's verdict from a run's environment (see enum summary_machine_verdict). */
static void machine_of(const struct kvlist *env, struct summary_machine *m)
{
	memset(m, 0, sizeof *m);
	struct sb why = {0};
	char *emu = an_emulated_env(env);
	const char *lv = kv_get(env, "noise.level"), *cv = kv_get(env, "probe.cv"), *dr = kv_get(env, "probe.drift");
	const char *steal = kv_get(env, "steal.level"), *steal_pct = kv_get(env, "probe.steal_pct");
	const char *load = kv_get(env, "load.before"), *cpus = kv_get(env, "cpu.online");
	if (emu) {
		m->verdict = SUMMARY_MACHINE_EMULATED;
		sb_addf(&why, "%s; the times mean nothing here, only the self-checks do", emu);
		free(emu);
		m->why = why.s;
		return;
	}
	if (!lv || !strcmp(lv, "unknown") || !strncmp(lv, "unknown ", 8)) {
		m->verdict = SUMMARY_MACHINE_UNJUDGED;
		sb_add(&why, lv ? "the noise probe took too few samples" : "no noise probe in this run (--no-probe, or imported)");
		m->why = why.s;
		return;
	}
	bool noisy = strcmp(lv, "low") != 0;
	sb_addf(&why, "noise floor %s", lv);
	if (cv)
		sb_addf(&why, " (probe CV %.1f%%%s", 100 * atof(cv), dr ? "" : ")");
	if (cv && dr)
		sb_addf(&why, ", drift %.1f%%)", 100 * atof(dr));
	if (steal && strcmp(steal, "none")) {
		noisy = true;
		sb_addf(&why, "; CPU steal %s%% (the hypervisor ran others on this VM's CPUs)", steal_pct ? steal_pct : "?");
	} else if (steal) {
		sb_add(&why, "; no CPU steal");
	}
	long ncpu = cpus ? atol(cpus) : 0;
	if (load && ncpu > 0) {
		double l1 = atof(load);
		const char *level = load_level(l1, ncpu);
		noisy |= !strcmp(level, "high");
		sb_addf(&why, "; load %.1f on %ld CPU%s before the run%s", l1, ncpu, ncpu == 1 ? "" : "s",
			!strcmp(level, "high") ? " (other tasks wanted every CPU)" : "");
	}
	m->verdict = noisy ? SUMMARY_MACHINE_NOISY : SUMMARY_MACHINE_QUIET;
	m->why = why.s;
}

void summary_brief_of(const struct summary *s, struct summary_brief *b)
{
	memset(b, 0, sizeof *b);
	b->s = s;
	summary_tally_of(s, &b->tally);
	machine_of(&s->run.env, &b->machine);
}

void summary_brief_free(struct summary_brief *b)
{
	if (!b)
		return;
	summary_tally_free(&b->tally);
	free(b->machine.why);
	memset(b, 0, sizeof *b);
}
