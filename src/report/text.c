/* text.c - terminal tables for runs, workloads and the environment. */
#include "report.h"
#include "workloads/workload.h"

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void labels_text(struct sb *b, const struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		sb_addf(b, "%s%s=%s", i ? " " : "", l->v[i].key, l->v[i].value);
}

/* "minor faults per op 1.00 ok; ..." from a slot's checks JSON. */
static void checks_text(struct sb *b, const char *checks)
{
	json_t *a = checks && *checks ? json_loads(checks, 0, NULL) : NULL;
	size_t i;
	json_t *c;
	json_array_foreach(a, i, c)
	{
		sb_addf(b, "%s%s %.3g%s", i ? "; " : "", json_string_value(json_object_get(c, "name")),
			json_real_value(json_object_get(c, "value")),
			json_is_true(json_object_get(c, "ok")) ? "" : " FAILED");
	}
	json_decref(a);
}

void report_summary_text(FILE *f, const struct summary *s, bool with_env)
{
	const struct store_run_info *r = &s->run;
	char when[32];
	format_wall(r->started_ns, when, sizeof when);
	struct sb lab = {0};
	labels_text(&lab, &r->labels);
	fprintf(f, "run %lld  %s UTC  boot %.8s  kernel %s  host %s\n", (long long)r->id, when, r->boot_id,
		r->kernel_release, r->hostname);
	fprintf(f, "labels: %s\n", lab.len ? sb_str(&lab) : "(none)");
	fprintf(f, "status: %s%s%s\n", r->status, *r->reason ? " (" : "", *r->reason ? r->reason : "");
	if (*r->reason)
		fprintf(f, ")\n");
	sb_free(&lab);
	if (r->overhead_ns >= 0)
		fprintf(f, "empty batch cost: %.0f ns\n", r->overhead_ns);
	fprintf(f, "\n%-28s %6s %16s %7s %6s %4s  %s\n", "workload", "copies", "median", "±CI95", "CV", "n",
		"self-check");
	for (size_t i = 0; i < s->nslots; i++) {
		const struct summary_row *row = &s->rows[i];
		const struct store_slot_info *sl = row->slot;
		if (strcmp(sl->status, "ok") != 0 && row->n == 0) {
			fprintf(f, "%-28s %6d  %s: %s\n", sl->workload, sl->copies, sl->status, sl->reason);
			continue;
		}
		char v[48];
		report_value(v, sizeof v, row->median, sl->unit, sl->latency);
		struct sb chk = {0};
		checks_text(&chk, sl->checks);
		if (strcmp(sl->status, "ok") != 0)
			sb_addf(&chk, "%s%s: %s", chk.len ? "; " : "", sl->status, sl->reason);
		if (row->warmup)
			sb_addf(&chk, "%s%zu warm-up sample%s left out", chk.len ? "; " : "", row->warmup,
				row->warmup == 1 ? "" : "s");
		char hw[16] = "-";
		if (isfinite(row->halfwidth))
			snprintf(hw, sizeof hw, "%.1f%%", row->halfwidth * 100);
		fprintf(f, "%-28s %6d %16s %7s %5.1f%% %4zu  %s\n", sl->workload, sl->copies, v, hw, row->cv * 100,
			row->n, sb_str(&chk));
		sb_free(&chk);
	}
	for (size_t i = 0; i < s->nindex; i++) {
		const struct summary_index *x = &s->index[i];
		if (x->n)
			fprintf(f, "\nindex (%d cop%s): %.1f  (geometric mean of %d of %d index workloads; not "
				   "comparable with UnixBench's index unless all are present)\n",
				x->copies, x->copies == 1 ? "y" : "ies", x->value, x->n, x->expected);
	}
	if (with_env) {
		fprintf(f, "\nenvironment:\n");
		for (size_t i = 0; i < r->env.n; i++)
			fprintf(f, "  %-28s %s\n", r->env.v[i].key, r->env.v[i].value);
	}
}

void report_runs_text(FILE *f, const struct store_run_info *runs, size_t n)
{
	if (!n) {
		fprintf(f, "no runs yet; `sysab run --quick` makes one\n");
		return;
	}
	fprintf(f, "%5s  %-19s  %-11s  %-8s  %-16s  %-9s  %s\n", "id", "started (UTC)", "status", "boot", "kernel",
		"workloads", "labels");
	for (size_t i = 0; i < n; i++) {
		const struct store_run_info *r = &runs[i];
		char when[32];
		format_wall(r->started_ns, when, sizeof when);
		struct sb lab = {0};
		labels_text(&lab, &r->labels);
		fprintf(f, "%5lld  %-19s  %-11s  %-8.8s  %-16.16s  %9zu  %s\n", (long long)r->id, when, r->status,
			r->boot_id, r->kernel_release, r->workloads.n, sb_str(&lab));
		sb_free(&lab);
	}
}

void report_workloads_text(FILE *f)
{
	fprintf(f, "%-28s %-12s %s\n", "workload", "unit", "summary / kernel path");
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		char u[48];
		report_display_unit(w->unit, (w->flags & WL_LATENCY) != 0, u, sizeof u);
		fprintf(f, "%-28s %-12s %s\n%-41s kernel: %s\n", w->name, u, w->summary, "", w->kernel_path);
	}
}

void report_env_text(FILE *f, const struct kvlist *env)
{
	for (size_t i = 0; i < env->n; i++)
		fprintf(f, "%-28s %s\n", env->v[i].key, env->v[i].value);
}
