/* json.c - the JSON documents of every command (schema in docs/FORMATS.md). */
#include "report.h"
#include "counters.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *kv_json(const struct kvlist *l)
{
	json_t *o = json_object();
	for (size_t i = 0; i < l->n; i++)
		json_object_set_new(o, l->v[i].key, json_string(l->v[i].value));
	return o;
}

static char *dump(json_t *doc)
{
	char *s = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(doc);
	return s;
}

static json_t *doc_new(const char *kind)
{
	json_t *d = json_object();
	json_object_set_new(d, "schema_version", json_integer(REPORT_SCHEMA_VERSION));
	json_object_set_new(d, "kind", json_string(kind));
	return d;
}

/* The unit of display values in JSON: SI seconds per op for latency rows, else the rate. */
const char *report_json_unit(const char *unit, int latency, char *buf, size_t size)
{
	if (latency)
		snprintf(buf, size, "s/op");
	else if (report_rate_unit(unit))
		snprintf(buf, size, "%s", unit);
	else
		snprintf(buf, size, "%s/s", unit);
	return buf;
}

static json_t *run_json(const struct store_run_info *r, bool with_env)
{
	json_t *o = json_object();
	json_object_set_new(o, "id", json_integer(r->id));
	json_object_set_new(o, "started_ns", json_integer((json_int_t)r->started_ns));
	json_object_set_new(o, "finished_ns", r->finished_ns ? json_integer((json_int_t)r->finished_ns) : json_null());
	json_object_set_new(o, "status", json_string(r->status));
	json_object_set_new(o, "reason", *r->reason ? json_string(r->reason) : json_null());
	json_object_set_new(o, "source", json_string(r->source));
	json_object_set_new(o, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(o, "boot_id", json_string(r->boot_id));
	json_object_set_new(o, "kernel", json_string(r->kernel_release));
	json_object_set_new(o, "hostname", json_string(r->hostname));
	json_object_set_new(o, "cpu_model", json_string(r->cpu_model));
	json_object_set_new(o, "ncpus", json_integer(r->ncpus));
	json_object_set_new(o, "empty_batch_ns", r->overhead_ns >= 0 ? json_real(r->overhead_ns) : json_null());
	json_object_set_new(o, "settings", r->settings_obj ? json_deep_copy(r->settings_obj) : json_object());
	json_object_set_new(o, "labels", kv_json(&r->labels));
	json_t *w = json_array();
	for (size_t i = 0; i < r->workloads.n; i++)
		json_array_append_new(w, json_string(r->workloads.v[i]));
	json_object_set_new(o, "workloads", w);
	if (with_env)
		json_object_set_new(o, "environment", kv_json(&r->env));
	return o;
}

char *report_summary_json(const struct summary *s, bool with_env)
{
	json_t *d = doc_new("run");
	json_object_set_new(d, "run", run_json(&s->run, with_env));
	json_t *nf = report_noise_json(&s->run.env);
	if (nf)
		json_object_set_new(d, "noise_floor", nf);
	json_t *res = json_array();
	for (size_t i = 0; i < s->nslots; i++) {
		const struct summary_row *row = &s->rows[i];
		const struct store_slot_info *sl = row->slot;
		char du[48];
		json_t *o = json_object();
		json_object_set_new(o, "workload", json_string(sl->workload));
		json_object_set_new(o, "copies", json_integer(sl->copies));
		json_object_set_new(o, "status", json_string(sl->status));
		json_object_set_new(o, "reason", *sl->reason ? json_string(sl->reason) : json_null());
		json_object_set_new(o, "unit", json_string(sl->unit));
		json_object_set_new(o, "display_unit",
				    json_string(report_json_unit(sl->unit, sl->latency, du, sizeof du)));
		json_object_set_new(o, "samples", json_integer((json_int_t)row->n));
		json_object_set_new(o, "warmup_samples", json_integer((json_int_t)row->warmup));
		json_object_set_new(o, "ci95_rel_halfwidth", isfinite(row->halfwidth) ? json_real(row->halfwidth) : json_null());
		json_object_set_new(o, "batch_ops", json_integer((json_int_t)sl->batch_ops));
		json_object_set_new(o, "empty_batch_ns", json_real(sl->overhead_ns));
		if (row->n) {
			json_object_set_new(o, "median_ops_per_s", json_real(row->median));
			json_object_set_new(o, "mean_ops_per_s", json_real(row->mean));
			json_object_set_new(o, "min_ops_per_s", json_real(row->min));
			json_object_set_new(o, "max_ops_per_s", json_real(row->max));
			json_object_set_new(o, "cv", json_real(row->cv));
			json_object_set_new(o, "median_display",
					    json_real(sl->latency ? 1 / row->median : row->median));
		}
		json_t *chk = json_array();
		for (size_t k = 0; k < row->nchecks; k++) {
			const struct summary_check *c = &row->checks[k];
			if (c->why)
				json_array_append_new(chk, json_pack("{s:s, s:b, s:s}", "name", c->name, "checked", 0, "why",
								     c->why));
			else {
				json_t *co = json_pack("{s:s, s:f, s:f, s:f, s:b}", "name", c->name, "value", c->value, "lo",
						       c->lo, "hi", c->hi, "ok", c->ok);
				if (c->batches) {
					json_object_set_new(co, "batches", json_integer(c->batches));
					json_object_set_new(co, "failed_batches", json_integer(c->failed_batches));
					if (c->failed_batches)
						json_object_set_new(co, "worst", json_real(c->worst));
				}
				json_array_append_new(chk, co);
			}
		}
		json_object_set_new(o, "checks", chk);
		json_array_append_new(res, o);
	}
	json_object_set_new(d, "results", res);
	json_t *idx = json_array();
	for (size_t i = 0; i < s->nindex; i++)
		json_array_append_new(idx, json_pack("{s:s, s:i, s:i, s:f, s:s}", "name", s->index[i].name, "copies",
						     s->index[i].copies, "members", s->index[i].n, "value",
						     s->index[i].value, "about", s->index[i].about));
	json_object_set_new(d, "index", idx);
	if (s->nnoindex) { /* only when a run ran members of an index that gave no samples */
		json_t *no = json_array();
		for (size_t i = 0; i < s->nnoindex; i++)
			json_array_append_new(no, json_pack("{s:s, s:i, s:s}", "name", s->noindex[i].name, "copies",
							    s->noindex[i].copies, "why", s->noindex[i].why));
		json_object_set_new(d, "index_missing", no);
	}
	if (s->ncounters)
		json_object_set_new(d, "counters", report_counters_json(s->counters, s->ncounters));
	return dump(d);
}

char *report_runs_json(const struct store_run_info *runs, size_t n)
{
	json_t *d = doc_new("runs");
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, run_json(&runs[i], false));
	json_object_set_new(d, "runs", a);
	return dump(d);
}

char *report_workloads_json(void)
{
	json_t *d = doc_new("workloads");
	json_t *a = json_array();
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		char du[48];
		json_t *o = json_object();
		json_object_set_new(o, "name", json_string(w->name));
		json_object_set_new(o, "group", json_string(w->group));
		json_object_set_new(o, "summary", json_string(w->summary));
		json_object_set_new(o, "kernel_path", json_string(w->kernel_path));
		json_object_set_new(o, "unit", json_string(w->unit));
		json_object_set_new(o, "display_unit",
				    json_string(report_json_unit(w->unit, (w->flags & WL_LATENCY) != 0, du, sizeof du)));
		json_object_set_new(o, "unixbench", w->unixbench ? json_string(w->unixbench) : json_null());
		json_object_set_new(o, "baseline_ops_per_s", w->baseline > 0 ? json_real(w->baseline) : json_null());
		json_object_set_new(o, "index", json_boolean(w->flags & WL_INDEX));
		json_t *fl = json_array();
		static const struct {
			unsigned bit;
			const char *name;
		} names[] = {{WL_FORKS, "forks"},   {WL_EXECS, "execs"},     {WL_FS, "filesystem"},
			     {WL_NEEDS_2CPU, "needs-2-cpus"}, {WL_SHELL, "shell"}, {WL_LATENCY, "latency"},
			     {WL_ENTRY, "icache-pressure"}};
		for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
			if (w->flags & names[k].bit)
				json_array_append_new(fl, json_string(names[k].name));
		json_object_set_new(o, "flags", fl);
		json_t *ck = json_array();
		for (size_t c = 0; c < WL_MAX_CHECKS && w->checks[c].metric != WL_M_NONE; c++)
			json_array_append_new(ck, json_pack("{s:s, s:f, s:f, s:b}", "name", w->checks[c].name, "lo",
							    w->checks[c].lo, "hi", w->checks[c].hi, "needs_idle",
							    w->checks[c].needs_idle));
		json_object_set_new(o, "checks", ck);
		json_array_append_new(a, o);
	}
	json_object_set_new(d, "workloads", a);
	return dump(d);
}

char *report_env_json(const struct kvlist *env)
{
	json_t *d = doc_new("environment");
	json_object_set_new(d, "environment", kv_json(env));
	return dump(d);
}

int report_export_json(FILE *f, const struct store_run_info *runs, size_t n, const struct store_export *x)
{
	json_t *d = doc_new("export");
	json_t *a = json_array();
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		json_t *r = run_json(&runs[i], true);
		json_t *smp = json_array();
		while (k < x->n && x->v[k].run < runs[i].id)
			k++;
		for (; k < x->n && x->v[k].run == runs[i].id; k++) {
			const struct store_export_sample *v = &x->v[k];
			char du[48];
			json_array_append_new(
				smp, json_pack("{s:s, s:i, s:s, s:s, s:b, s:i, s:i, s:b, s:I, s:I, s:f, s:f}", "workload",
					       v->workload, "copies", v->copies, "unit", v->unit, "display_unit",
					       report_json_unit(v->unit, v->latency, du, sizeof du), "latency", v->latency,
					       "seq", v->seq, "round", v->round, "warmup", v->warmup, "ops",
					       (json_int_t)v->ops, "elapsed_ns", (json_int_t)v->elapsed_ns, "ops_per_s",
					       v->value, "display_value", v->latency ? 1 / v->value : v->value));
		}
		json_object_set_new(r, "samples", smp);
		json_array_append_new(a, r);
	}
	json_object_set_new(d, "runs", a);
	char *s = json_dumps(d, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
	json_decref(d);
	int rc = fputs(s, f) < 0 || fputc('\n', f) == EOF ? -1 : 0;
	free(s);
	return rc;
}
