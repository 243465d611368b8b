/* system.c - the `sysab system` tables and JSON documents. */
#include "system.h"
#include "report.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

void report_system_text(FILE *f, const struct sys_state *s)
{
	fprintf(f, "%-26s %-28s %s\n", "knob", "value", "verdict");
	for (size_t i = 0; i < s->nknob; i++) {
		const struct sys_knob *k = &s->knob[i];
		char v[29];
		const char *val = k->value ? k->value : "-";
		snprintf(v, sizeof v, "%s", val);
		if (strlen(val) > 28)
			memcpy(v + 25, "...", 4);
		fprintf(f, "%-26s %-28s %s%s\n", k->name, v, system_verdict_word(k->verdict),
			k->nset ? " (tune sets it)" : "");
		report_wrap(f, "    ", "    ", k->why);
		if (k->value && strlen(k->value) > 28)
			report_wrap(f, "    value: ", "    ", k->value);
	}
	fprintf(f, "\ncpus sysab would use (SMT siblings):");
	if (!s->ncpu)
		fprintf(f, " not available here");
	for (size_t i = 0; i < s->ncpu; i++)
		fprintf(f, "%s%d (%s)", i % 6 ? ", " : "\n  ", s->cpu[i].cpu,
			s->cpu[i].siblings ? s->cpu[i].siblings : "unknown");
	fprintf(f, "\n\nload average: %s\n", s->loadavg ? s->loadavg : "not available here");
	if (s->load_level) {
		char why[256];
		snprintf(why, sizeof why, "%s: %.1f runnable tasks over the last minute on %zu CPU%s%s", s->load_level,
			 atof(s->loadavg), s->ncpu, s->ncpu == 1 ? "" : "s",
			 !strcmp(s->load_level, "high") ? "; measurements now would share CPUs with them: wait, or stop "
							 "the busiest processes below"
			 : !strcmp(s->load_level, "some") ? "; a run now may be noisy"
							  : "");
		report_wrap(f, "  load: ", "    ", why);
	}
	if (s->ntop) {
		fprintf(f, "busiest processes now (%% of one CPU):\n");
		for (size_t i = 0; i < s->ntop; i++)
			fprintf(f, "  %7d %-20s %5.1f%%\n", s->top[i].pid, s->top[i].comm, s->top[i].cpu_pct);
	} else {
		fprintf(f, "busiest processes now: none used CPU time while sysab watched\n");
	}
	fprintf(f, "\nvirtualisation: %s\n", s->virt ? s->virt : "not available here");
	if (s->steal_boot_pct >= 0)
		fprintf(f, "steal time: %.2f%% since boot", s->steal_boot_pct);
	else
		fprintf(f, "steal time: not available here");
	if (s->steal_now_pct >= 0)
		fprintf(f, ", %.2f%% now", s->steal_now_pct);
	fprintf(f, "\n");
	if (s->virt && strcmp(s->virt, "none"))
		report_wrap(f, "  ", "  ",
			    "in a VM other guests take CPU time (steal time) and the hypervisor may hide the PMU: "
			    "expect more noise, and hardware counters may be unavailable");
	fprintf(f, "hardware PMU: %s\n", s->pmu == 1 ? s->pmu_name : s->pmu == 0 ? "none (no hardware counters)"
											 : "not available here");
}

char *report_system_json(const struct sys_state *s)
{
	json_t *j = json_object();
	json_t *ks = json_array();
	for (size_t i = 0; i < s->nknob; i++) {
		const struct sys_knob *k = &s->knob[i];
		json_array_append_new(ks, json_pack("{s:s, s:o, s:s, s:s, s:b}", "name", k->name, "value",
						    k->value ? json_string(k->value) : json_null(), "verdict",
						    system_verdict_word(k->verdict), "why", k->why, "tunable", k->nset > 0));
	}
	json_object_set_new(j, "knobs", ks);
	json_t *cs = json_array();
	for (size_t i = 0; i < s->ncpu; i++)
		json_array_append_new(cs, json_pack("{s:i, s:o}", "cpu", s->cpu[i].cpu, "siblings",
						    s->cpu[i].siblings ? json_string(s->cpu[i].siblings) : json_null()));
	json_object_set_new(j, "cpus", cs);
	json_t *top = json_array();
	for (size_t i = 0; i < s->ntop; i++)
		json_array_append_new(top, json_pack("{s:i, s:s, s:f}", "pid", s->top[i].pid, "comm", s->top[i].comm,
						     "cpu_pct", s->top[i].cpu_pct));
	json_object_set_new(j, "load", json_pack("{s:o, s:o, s:o}", "loadavg",
						 s->loadavg ? json_string(s->loadavg) : json_null(), "level",
						 s->load_level ? json_string(s->load_level) : json_null(), "top", top));
	json_object_set_new(j, "virtualization",
			    json_pack("{s:o, s:o, s:o, s:o}", "hypervisor", s->virt ? json_string(s->virt) : json_null(),
				      "steal_boot_pct", s->steal_boot_pct >= 0 ? json_real(s->steal_boot_pct) : json_null(),
				      "steal_now_pct", s->steal_now_pct >= 0 ? json_real(s->steal_now_pct) : json_null(),
				      "pmu", s->pmu < 0 ? json_null() : s->pmu ? json_string(s->pmu_name) : json_false()));
	char *out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	return out;
}

/* s as one shell word: as it is when it holds only safe characters, else in single quotes. */
static void shell_word(FILE *f, const char *s)
{
	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+,:=@%") == strlen(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

void report_changes_text(FILE *f, const char *verb, const struct sys_changes *c, const char *state_file,
			 const struct sys_reset_hint *h)
{
	size_t done = 0;
	for (size_t i = 0; i < c->n; i++)
		done += !c->v[i].refused;
	if (!c->n) {
		if (!strcmp(verb, "tune"))
			fprintf(f, "tune: nothing to set here: every knob sysab can set is already as a benchmark "
				   "wants it, or not available on this machine\n");
		else
			fprintf(f, "reset: nothing to restore (no saved state in %s)\n", state_file);
		return;
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct sys_change *x = &c->v[i];
		if (x->refused)
			fprintf(f, "%s: left %s (%s) alone: %s\n", verb, x->knob, x->path, x->refused);
		else
			fprintf(f, "%s: %s %s: %s -> %s\n", verb, x->knob, x->path, x->from ? x->from : "?",
				x->to ? x->to : "?");
	}
	if (!strcmp(verb, "tune") && done) {
		fprintf(f, "tune: changed %zu, left %zu; saved the original values in %s; `sysab system reset", done,
			c->n - done, state_file);
		if (h && h->root) { /* the hint runs as printed */
			fputs(" --root ", f);
			shell_word(f, h->root);
		}
		if (h && h->state_file) {
			fputs(" --state-file ", f);
			shell_word(f, h->state_file);
		}
		fprintf(f, "` restores them\n");
	}
	else if (!strcmp(verb, "tune"))
		fprintf(f, "tune: changed nothing: every knob sysab could set was refused (see above)\n");
	else
		fprintf(f, "reset: restored %zu of %zu byte-identical\n", done, c->n);
}

char *report_changes_json(const char *verb, const struct sys_changes *c, const char *state_file)
{
	json_t *a = json_array();
	for (size_t i = 0; i < c->n; i++) {
		const struct sys_change *x = &c->v[i];
		json_array_append_new(a, json_pack("{s:s, s:s, s:o, s:o, s:b, s:o}", "knob", x->knob, "path", x->path, "from",
						   x->from ? json_string(x->from) : json_null(), "to",
						   x->to ? json_string(x->to) : json_null(), "changed", !x->refused,
						   "refused", x->refused ? json_string(x->refused) : json_null()));
	}
	json_t *j = json_pack("{s:s, s:s, s:o}", "action", verb, "state_file", state_file, "changes", a);
	char *out = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	return out;
}

void report_system_markdown(FILE *f, const struct sys_state *s)
{
	fprintf(f, "## System state\n\n| knob | value | verdict | why |\n|---|---|---|---|\n");
	for (size_t i = 0; i < s->nknob; i++) {
		const struct sys_knob *k = &s->knob[i];
		fputc('|', f);
		report_md_cell(f, k->name);
		report_md_cell(f, k->value ? k->value : "-");
		struct sb v = {0};
		sb_addf(&v, "%s%s", system_verdict_word(k->verdict), k->nset ? " (tune sets it)" : "");
		report_md_cell(f, sb_str(&v));
		sb_free(&v);
		report_md_cell(f, k->why);
		fputc('\n', f);
	}
	fprintf(f, "\n- cpus sysab would use (SMT siblings):");
	if (!s->ncpu)
		fprintf(f, " not available here");
	for (size_t i = 0; i < s->ncpu; i++)
		fprintf(f, "%s%d (%s)", i ? ", " : " ", s->cpu[i].cpu, s->cpu[i].siblings ? s->cpu[i].siblings : "unknown");
	fprintf(f, "\n- load average: %s%s%s\n", s->loadavg ? s->loadavg : "not available here",
		s->load_level ? ", " : "", s->load_level ? s->load_level : "");
	fprintf(f, "- virtualisation: %s\n", s->virt ? s->virt : "not available here");
	fprintf(f, "- hardware PMU: %s\n", s->pmu == 1 ? s->pmu_name : s->pmu == 0 ? "none (no hardware counters)"
									   : "not available here");
}
