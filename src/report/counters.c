/* counters.c - the noise floor line and the per-op counter table of `run` and `show`. */
#include "counters.h"
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void report_noise_text(FILE *f, const struct kvlist *env)
{
	const char *cv = kv_get(env, "probe.cv"), *dr = kv_get(env, "probe.drift"), *lv = kv_get(env, "noise.level");
	const char *st = kv_get(env, "probe.steal_pct");
	if (lv) {
		fprintf(f, "noise floor: ");
		if (cv)
			fprintf(f, "CV %.1f%%", 100 * atof(cv));
		if (dr)
			fprintf(f, ", block drift %.1f%%", 100 * atof(dr));
		fprintf(f, "%s%s%s", cv ? " (" : "", lv, cv ? ")" : "");
		if (st)
			fprintf(f, "; steal %s%%", st);
		fprintf(f, "\n");
	}
	const char *keys[] = {"counters.software", "counters.hardware", "counters.kernel"};
	const char *what[] = {"software counters", "hardware counters", "kernel-mode counters"};
	for (int i = 0; i < 3; i++) {
		const char *v = kv_get(env, keys[i]);
		if (v && (!strncmp(v, "unavailable", 11) || strstr(v, "user mode only"))) {
			char first[64];
			snprintf(first, sizeof first, "%s: ", what[i]);
			report_wrap(f, first, "  ", v);
		}
	}
}

json_t *report_noise_json(const struct kvlist *env)
{
	const char *lv = kv_get(env, "noise.level");
	if (!lv)
		return NULL;
	const char *cv = kv_get(env, "probe.cv"), *dr = kv_get(env, "probe.drift"), *st = kv_get(env, "probe.steal_pct");
	return json_pack("{s:o, s:o, s:s, s:o}", "cv", cv ? json_real(atof(cv)) : json_null(), "drift",
			 dr ? json_real(atof(dr)) : json_null(), "level", lv, "steal_pct",
			 st ? json_real(atof(st)) : json_null());
}

void report_counters_text(FILE *f, const struct ctr_row *rows, size_t n)
{
	if (!n)
		return;
	fprintf(f, "\ncounters (median of the counted batches; spread: CV, or ±SD near 0):\n");
	fprintf(f, "  %-24s %6s %-30s %10s %9s\n", "workload", "copies", "event", "median", "spread");
	for (size_t i = 0; i < n; i++) {
		const struct ctr_row *r = &rows[i];
		char name[64], ev[64], unit[24], med[24], sp[32];
		report_short_name(name, sizeof name, r->workload, 1, 24);
		double mul = report_counter_scale(r->event, fmax(fabs(r->median), fabs(r->mean)), unit, sizeof unit);
		snprintf(ev, sizeof ev, "%s%s", r->event, unit);
		report_count_cell(med, sizeof med, r->median * mul, false);
		if (isnan(r->sd))
			snprintf(sp, sizeof sp, "-");
		else if (r->absolute) {
			char v[24];
			report_count_cell(v, sizeof v, r->sd * mul, false);
			snprintf(sp, sizeof sp, "±%s", v);
		} else
			snprintf(sp, sizeof sp, "%.1f%%", 100 * r->cv);
		fprintf(f, "  %-24s %6d %-30s %10s %*s\n", name, r->copies, ev, med,
			9 + (int)(strlen(sp) - report_text_width(sp)), sp);
	}
}

json_t *report_counters_json(const struct ctr_row *rows, size_t n)
{
	json_t *a = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct ctr_row *r = &rows[i];
		json_array_append_new(a, json_pack("{s:s, s:i, s:s, s:I, s:f, s:o, s:f, s:o, s:b}", "workload", r->workload,
						   "copies", r->copies, "event", r->event, "n", (json_int_t)r->n,
						   "per_op_median", r->median, "cv", isnan(r->cv) ? json_null() : json_real(r->cv),
						   "per_op_mean", r->mean, "per_op_sd", isnan(r->sd) ? json_null() : json_real(r->sd),
						   "near_zero", r->absolute));
	}
	return a;
}

char *report_add_counters(char *doc, const struct ctr_row *rows, size_t n)
{
	return report_add_json(doc, "counters", report_counters_json(rows, n));
}

char *report_add_json(char *doc, const char *key, json_t *arr)
{
	json_t *d = json_loads(doc, 0, NULL);
	if (!d) {
		json_decref(arr);
		return doc;
	}
	json_object_set_new(d, key, arr);
	char *s = json_dumps(d, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(d);
	if (!s)
		return doc;
	free(doc);
	return s;
}

void report_noise_levels_text(FILE *f, const struct kvlist *levels)
{
	if (levels->n < 2)
		return;
	struct sb b = {0};
	sb_add(&b, "the runs had different noise floors (noise.level, from each run's probe):");
	for (size_t i = 0; i < levels->n; i++)
		sb_addf(&b, "%s %s in %s run%s", i ? "," : "", levels->v[i].key, levels->v[i].value,
			strcmp(levels->v[i].value, "1") ? "s" : "");
	sb_add(&b, "; a cell measured on a noisier machine has wider intervals and may be biased");
	fputc('\n', f);
	report_wrap(f, "warning: ", "  ", sb_str(&b));
	sb_free(&b);
}

json_t *report_noise_levels_json(const struct kvlist *levels)
{
	json_t *o = json_object();
	for (size_t i = 0; i < levels->n; i++)
		json_object_set_new(o, levels->v[i].key, json_integer(atoi(levels->v[i].value)));
	return o;
}
