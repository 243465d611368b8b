/* campaign.c - `sysab campaign show`: a campaign's plan and progress as text, markdown or JSON. Never computes. */
#include "report/campaign.h"
#include "report/report.h"
#include "report/words.h"

#include <jansson.h>
#include <string.h>

/* Why an adaptive campaign stopped, in words. */
static const char *stopped_text(const char *why)
{
	if (!why)
		return "goes on";
	if (!strcmp(why, "decided"))
		return "stopped: decided (every chosen workload has a verdict)";
	if (!strcmp(why, "cap"))
		return "stopped: cap (--max-boots reached without a verdict for every workload)";
	if (!strcmp(why, "budget"))
		return "stopped: budget (--budget spent without a verdict for every workload)";
	return why;
}

/* How many rows a look's verdicts JSON ({"decided": [...], "open": [...]}) lists under key. */
static size_t look_count(const char *verdicts, const char *key)
{
	json_t *j = json_loads(verdicts ? verdicts : "{}", 0, NULL);
	size_t n = json_array_size(json_object_get(j, key));
	json_decref(j);
	return n;
}

/* An adaptive campaign's settings, looks and why it stopped; each line after lead. */
static void adaptive_text(FILE *f, const struct campaign_view *v, const char *lead)
{
	const struct store_adaptive *a = v->adaptive;
	if (!a)
		return;
	fprintf(f, "%sadaptive: --until %s, target %.2f%%, at most %d boots per configuration", lead, a->until,
		100 * a->target, a->max_boots);
	if (a->budget_s > 0)
		fprintf(f, ", budget %.0f s", a->budget_s);
	fprintf(f, "; %s\n", stopped_text(a->stopped));
	for (size_t i = 0; i < v->nlooks; i++) {
		const struct store_adaptive_look *l = &v->looks[i];
		fprintf(f, "%slook %d after %d block%s: %zu decided, %zu open: %s\n", lead, l->k, l->blocks,
			l->blocks == 1 ? "" : "s", look_count(l->verdicts, "decided"), look_count(l->verdicts, "open"),
			l->decision);
	}
}

void report_adaptive_text(FILE *f, const char *name, const struct study_decision *d, const struct study_mde *md)
{
	fprintf(f, "adaptive campaign %s %s after %d block%s", name, stopped_text(study_stop_word(d->stop)), d->blocks,
		d->blocks == 1 ? "" : "s");
	if (d->k > 0)
		fprintf(f, " (look %d)\n", d->k);
	else
		fprintf(f, " (no look yet: a look needs 2 blocks)\n");
	for (size_t i = 0; i < d->nrows; i++)
		fprintf(f, "  %-32s x%d  %s\n", d->rows[i].workload, d->rows[i].copies,
			report_verdict_name(d->rows[i].verdict));
	if (md->have) {
		fprintf(f, "reached with %d boot%s per configuration:\n", d->blocks, d->blocks == 1 ? "" : "s");
		report_mde_text(f, &md->m);
	}
}

void report_campaign_text(FILE *f, const struct campaign_view *v)
{
	const struct campaign *c = v->c;
	const struct store_campaign *r = &c->r;
	fprintf(f, "campaign %s: %s backend, %zu configuration%s x %d boot%s, %d run%s per boot, seed %llu\n", r->name,
		r->backend, r->nconfigs, r->nconfigs == 1 ? "" : "s", r->boots, r->boots == 1 ? "" : "s", r->runs,
		r->runs == 1 ? "" : "s", (unsigned long long)r->seed);
	fprintf(f, "state: %s%s%s\n", campaign_state_word(c->state), r->reason ? " - " : "", r->reason ? r->reason : "");
	if (v->guest) {
		fprintf(f, "guest: %d CPU%s, %d MB, accel %s, arch %s", v->guest_cpus, v->guest_cpus == 1 ? "" : "s",
			v->guest_mb, v->guest_accel, v->guest_arch);
		if (v->guest_nodes > 1)
			fprintf(f, ", %d NUMA nodes emulated by qemu -numa (%d CPU%s, %d MB each)", v->guest_nodes,
				v->node_cpus, v->node_cpus == 1 ? "" : "s", v->node_mb);
		fprintf(f, "\n");
		if (v->duet)
			fprintf(f, "duet: each block boots both configurations at once, pinned to host CPU sets 0 (CPUs %s "
				   "here) and 1 (CPUs %s), swapped every block; compare pairs them by block\n",
				v->duet_cpus[0], v->duet_cpus[1]);
	}
	fprintf(f, "each run: sysab run");
	for (size_t i = 0; i < c->run_args.n; i++)
		fprintf(f, " %s", c->run_args.v[i]);
	fprintf(f, " -l LABELS\n");
	if (c->per_run > 1)
		fprintf(f, "each slot: %d runs (%d sysab run x %d nodes of --nodes, a run per node)\n", r->runs * c->per_run,
			r->runs, c->per_run);
	/* the configurations as a table sorted by name, then (below) the schedule in boot order */
	int nw = 4;
	for (size_t i = 0; i < r->nconfigs; i++)
		nw = (int)strlen(r->configs[i].name) > nw ? (int)strlen(r->configs[i].name) : nw;
	nw = nw > 40 ? 40 : nw;
	fprintf(f, "configurations (by name), %d boot%s each:\n  %-6s  %-*s  %s\n", r->boots, r->boots == 1 ? "" : "s",
		"config", nw, "name", "boots it with");
	for (size_t j = 0; j < r->nconfigs; j++) {
		size_t i = v->config_order[j];
		const struct store_campaign_config *k = &r->configs[i];
		fprintf(f, "  %6zu  %-*s", i, nw, k->name);
		if (k->kernel)
			fprintf(f, "  kernel %s", k->kernel);
		if (k->initrd)
			fprintf(f, "  initrd %s", k->initrd);
		if (k->append)
			fprintf(f, "  append \"%s\"", k->append);
		if (k->entry)
			fprintf(f, "  entry %s", k->entry);
		if (k->command)
			fprintf(f, "  command %s", k->command);
		fprintf(f, "\n");
	}
	fprintf(f, "progress: %zu of %zu slots done, %zu failed, %zu skipped, %zu to go", v->done, r->nslots, v->failed,
		v->skipped, v->left);
	if (v->done && v->left)
		fprintf(f, ", about %.0f min left (at %.0f s per boot so far)", v->min_left, v->s_per_boot);
	fprintf(f, "\n");
	if (v->next >= 0)
		fprintf(f, "next: slot %d (block %d), %s\n", v->next, r->slots[v->next].block,
			r->configs[r->slots[v->next].config].name);
	adaptive_text(f, v, "");
	if (!v->slots)
		return;
	fprintf(f, "\nschedule (randomized, in boot order):\n");
	fprintf(f, "slot block config                          state        tries runs boot      reason\n");
	for (size_t i = 0; i < r->nslots; i++) {
		const struct store_campaign_slot *x = &r->slots[i];
		fprintf(f, "%4d %5d %-32.32s %-12s %5d %4d %-8.8s  %s%s", x->slot, x->block, r->configs[x->config].name,
			slot_state_word(c->slot[i]), x->attempts, x->nruns, x->boot_id ? x->boot_id : "-",
			x->reason ? x->reason : "", v->duet_set && x->reason ? "; " : "");
		if (v->duet_set)
			fprintf(f, "CPU set %d", v->duet_set[i]);
		fprintf(f, "\n");
	}
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

void *report_campaign_json(const struct campaign_view *v)
{
	const struct campaign *c = v->c;
	const struct store_campaign *r = &c->r;
	json_t *j = json_object();
	json_object_set_new(j, "name", json_string(r->name));
	json_object_set_new(j, "uuid", json_string(r->uuid));
	json_object_set_new(j, "backend", json_string(r->backend));
	json_object_set_new(j, "state", json_string(campaign_state_word(c->state)));
	json_object_set_new(j, "reason", str_or_null(r->reason));
	json_object_set_new(j, "seed", json_integer((json_int_t)r->seed));
	json_object_set_new(j, "boots", json_integer(r->boots));
	json_object_set_new(j, "runs", json_integer(r->runs));
	json_object_set_new(j, "runs_per_sysab_run", json_integer(c->per_run > 0 ? c->per_run : 1));
	json_object_set_new(j, "looks", json_integer(r->looks));
	if (v->guest) {
		json_object_set_new(j, "guest", json_pack("{s:i, s:i, s:i, s:s, s:s}", "smp", v->guest_cpus, "mem_mb",
							  v->guest_mb, "numa", v->guest_nodes, "accel", v->guest_accel,
							  "arch", v->guest_arch));
		if (v->duet)
			json_object_set_new(j, "duet", json_pack("{s:[s,s]}", "cpu_sets", v->duet_cpus[0], v->duet_cpus[1]));
	}
	json_t *args = json_array();
	for (size_t i = 0; i < c->run_args.n; i++)
		json_array_append_new(args, json_string(c->run_args.v[i]));
	json_object_set_new(j, "run_args", args);
	json_t *cfgs = json_array();
	for (size_t i = 0; i < r->nconfigs; i++) {
		const struct store_campaign_config *k = &r->configs[i];
		json_t *o = json_object(), *l = json_object();
		json_object_set_new(o, "name", json_string(k->name));
		for (size_t n = 0; n < c->labels[i].n; n++)
			json_object_set_new(l, c->labels[i].v[n].key, json_string(c->labels[i].v[n].value));
		json_object_set_new(o, "labels", l);
		json_object_set_new(o, "kernel", str_or_null(k->kernel));
		json_object_set_new(o, "initrd", str_or_null(k->initrd));
		json_object_set_new(o, "append", str_or_null(k->append));
		json_object_set_new(o, "entry", str_or_null(k->entry));
		json_object_set_new(o, "command", str_or_null(k->command));
		json_array_append_new(cfgs, o);
	}
	json_object_set_new(j, "configs", cfgs);
	json_t *p = json_object();
	json_object_set_new(p, "slots", json_integer((json_int_t)r->nslots));
	json_object_set_new(p, "done", json_integer((json_int_t)v->done));
	json_object_set_new(p, "failed", json_integer((json_int_t)v->failed));
	json_object_set_new(p, "skipped", json_integer((json_int_t)v->skipped));
	json_object_set_new(p, "left", json_integer((json_int_t)v->left));
	json_object_set_new(p, "next", v->next >= 0 ? json_integer(v->next) : json_null());
	json_object_set_new(p, "s_per_boot", v->done ? json_real(v->s_per_boot) : json_null());
	json_object_set_new(p, "min_left", v->done && v->left ? json_real(v->min_left) : json_null());
	json_object_set_new(j, "progress", p);
	if (v->adaptive) {
		const struct store_adaptive *a = v->adaptive;
		json_t *ad = json_object(), *looks = json_array();
		json_object_set_new(ad, "until", json_string(a->until));
		json_object_set_new(ad, "target", json_real(a->target));
		json_object_set_new(ad, "max_boots", json_integer(a->max_boots));
		json_object_set_new(ad, "budget_s", a->budget_s > 0 ? json_real(a->budget_s) : json_null());
		json_object_set_new(ad, "stopped", str_or_null(a->stopped));
		for (size_t i = 0; i < v->nlooks; i++) {
			const struct store_adaptive_look *l = &v->looks[i];
			json_t *o = json_object();
			json_object_set_new(o, "k", json_integer(l->k));
			json_object_set_new(o, "blocks", json_integer(l->blocks));
			json_object_set_new(o, "decision", json_string(l->decision));
			json_t *rows = json_loads(l->verdicts ? l->verdicts : "{}", 0, NULL);
			json_object_set_new(o, "rows", rows ? rows : json_object());
			json_array_append_new(looks, o);
		}
		json_object_set_new(ad, "looks", looks);
		json_object_set_new(j, "adaptive", ad);
	}
	if (v->slots) {
		json_t *sl = json_array();
		for (size_t i = 0; i < r->nslots; i++) {
			const struct store_campaign_slot *x = &r->slots[i];
			json_t *o = json_object();
			json_object_set_new(o, "slot", json_integer(x->slot));
			json_object_set_new(o, "block", json_integer(x->block));
			json_object_set_new(o, "config", json_integer(x->config));
			json_object_set_new(o, "state", json_string(slot_state_word(c->slot[i])));
			json_object_set_new(o, "attempts", json_integer(x->attempts));
			if (v->duet_set)
				json_object_set_new(o, "duet_cpu_set", json_integer(v->duet_set[i]));
			json_object_set_new(o, "runs", json_integer(x->nruns));
			json_object_set_new(o, "boot_id", str_or_null(x->boot_id));
			json_object_set_new(o, "reason", str_or_null(x->reason));
			json_array_append_new(sl, o);
		}
		json_object_set_new(j, "slots", sl);
	}
	return j;
}

void report_campaign_markdown(FILE *f, const struct campaign_view *v)
{
	const struct campaign *c = v->c;
	const struct store_campaign *r = &c->r;
	fprintf(f, "## Campaign %s\n\n", r->name);
	fprintf(f, "- backend: %s, %zu configuration%s x %d boot%s, %d run%s per boot, seed %llu\n", r->backend,
		r->nconfigs, r->nconfigs == 1 ? "" : "s", r->boots, r->boots == 1 ? "" : "s", r->runs,
		r->runs == 1 ? "" : "s", (unsigned long long)r->seed);
	fprintf(f, "- state: %s%s%s\n", campaign_state_word(c->state), r->reason ? " - " : "", r->reason ? r->reason : "");
	fprintf(f, "- progress: %zu of %zu slots done, %zu failed, %zu skipped, %zu to go\n", v->done, r->nslots, v->failed,
		v->skipped, v->left);
	if (v->next >= 0)
		fprintf(f, "- next: slot %d (block %d), %s\n", v->next, r->slots[v->next].block,
			r->configs[r->slots[v->next].config].name);
	adaptive_text(f, v, "- ");
	fprintf(f, "\n| config | name | boots it with |\n|---:|---|---|\n");
	for (size_t j = 0; j < r->nconfigs; j++) {
		size_t i = v->config_order[j];
		const struct store_campaign_config *k = &r->configs[i];
		struct sb with = {0};
		if (k->kernel)
			sb_addf(&with, "%skernel %s", with.len ? ", " : "", k->kernel);
		if (k->initrd)
			sb_addf(&with, "%sinitrd %s", with.len ? ", " : "", k->initrd);
		if (k->append)
			sb_addf(&with, "%sappend \"%s\"", with.len ? ", " : "", k->append);
		if (k->entry)
			sb_addf(&with, "%sentry %s", with.len ? ", " : "", k->entry);
		if (k->command)
			sb_addf(&with, "%scommand %s", with.len ? ", " : "", k->command);
		fprintf(f, "| %zu |", i);
		report_md_cell(f, k->name);
		report_md_cell(f, with.len ? sb_str(&with) : "-");
		fputc('\n', f);
		sb_free(&with);
	}
	fputc('\n', f);
}
