/* campaign.c - `sysab campaign new|show|status|start|resume|stop`: boot campaigns over configurations. */
#include "cli.h"
#include "campaign/campaign.h"
#include "core/tmp.h"
#include "report/campaign.h"
#include "report/report.h"
#include "study/adaptive.h"
#include "study/mde.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	O_BOOTS = 1, O_RUNS, O_UNTIL, O_MAX_BOOTS, O_BUDGET, O_BACKEND, O_SEED, O_CONFIG, O_KERNEL, O_INITRD, O_APPEND, O_ENTRY, O_COMMAND,
	O_SMP, O_MEM, O_ACCEL, O_IMAGE, O_BOOT_TIMEOUT, O_MAX_FAILURES, O_SETTLE_LOAD, O_SETTLE_TIMEOUT,
	O_UNIT_DIR, O_DRY_RUN, O_ARCH, O_QEMU, O_NUMA, O_DUET, O_FROM, O_TARGET, O_STRICT,
};

const struct cli_opt cli_campaign_opts[] = {
	CLI_CHOICE("backend", 0, "NAME", "new: " CAMPAIGN_BACKEND_NAMES, O_BACKEND, CAMPAIGN_BACKEND_CHOICES),
	CLI_NUM("boots", 0, "N", "new: boots per configuration (randomized complete blocks)", O_BOOTS, CLI_INT, 1, 10000,
		NULL),
	CLI_NUM("runs", 0, "R", "new: `sysab run` invocations per boot", O_RUNS, CLI_INT, 1, 1000, "1"),
	CLI_OPT("seed", 0, "N", "new: seed of the schedule's shuffles (default: random, recorded)", O_SEED),
	CLI_OPT("config", 0, "'K=V ...'", "new: a configuration: its labels; the boot options after it are its own", O_CONFIG),
	CLI_OPT("kernel", 0, "PATH", "new: the configuration's kernel (qemu: default the guest's; kexec)", O_KERNEL),
	CLI_OPT("initrd", 0, "PATH", "new: the configuration's initrd (kexec; qemu: replaces the guest's initramfs)", O_INITRD),
	CLI_OPT("append", 0, "CMDLINE", "new: the configuration's kernel command line (qemu, kexec; grub: expected)", O_APPEND),
	CLI_OPT("entry", 0, "ENTRY", "new: grub menu entry to boot (grub-reboot ENTRY)", O_ENTRY),
	CLI_OPT("command", 0, "SHELL", "new: command that boots the machine into the configuration (command backend)",
	 O_COMMAND),
	CLI_NUM("smp", 0, "N", "new: qemu -smp", O_SMP, CLI_INT, 1, 256, "1"),
	CLI_NUM("mem", 0, "MB", "new: qemu -m", O_MEM, CLI_INT, 64, 1 << 20, "512"),
	CLI_NUM("numa", 0, "N", "new: qemu guest NUMA nodes, each an even share of --smp and --mem (x86_64 guests)",
		O_NUMA, CLI_INT, 1, 256, "1"),
	CLI_OPT("duet", 0, NULL, "new: qemu, two configurations: each block boots both guests at once on disjoint host "
		"CPUs, swapped every block", O_DUET),
	CLI_CHOICE("accel", 0, "auto|kvm|tcg", "new: qemu accelerator (auto: kvm when a kernel boots under it, else tcg)",
	 O_ACCEL, "auto kvm tcg"),
	CLI_OPT("image", 0, "DIR", "new: qemu guest with vmlinuz and initramfs.cpio.gz (default: guest/ beside sysab)",
	 O_IMAGE),
	CLI_CHOICE("arch", 0, "auto|x86_64|loongarch64",
		   "new: qemu guest architecture (auto: told from the kernel image's header, else x86_64)", O_ARCH,
		   "auto x86_64 loongarch64"),
	CLI_OPT("qemu", 0, "PATH", "new: the qemu binary (default: qemu-system-ARCH in PATH)", O_QEMU),
	CLI_NUM("boot-timeout", 0, "SECONDS", "new: qemu: kill a boot and its runs after this long", O_BOOT_TIMEOUT,
		CLI_INT, 10, 86400, "900"),
	CLI_NUM("max-failures", 0, "K", "new: stop after K consecutive failed slots", O_MAX_FAILURES, CLI_INT, 1, 1000,
		"2"),
	CLI_NUM("settle-load", 0, "LOAD", "new: before the runs wait for the 1-minute load below LOAD", O_SETTLE_LOAD,
		CLI_REAL, 0.01, 1000, "1.0"),
	CLI_NUM("settle-timeout", 0, "SECONDS", "new: ... but at most this long (0: no wait)", O_SETTLE_TIMEOUT, CLI_INT,
		0, 86400, "0"),
	CLI_OPT("unit-dir", 0, "DIR", "new: where the resume unit goes (default /etc/systemd/system)", O_UNIT_DIR),
	CLI_OPT("dry-run", 'n', NULL, "start: print every command (shell-quoted) and file of the campaign instead of acting", O_DRY_RUN),
	CLI_OUT_OPTS("show, status: text (default), json or markdown; new, start: text or json (the MDE of the "
		     "design in JSON; start's progress goes to stderr then)",
		     "text json markdown"),
	CLI_OPT("from", 0, "SELECTOR",
		"new, start: the pilot runs whose variance gives the MDE printed before any boot (default: every "
		"earlier run of the database; none: rough defaults)",
		O_FROM),
	CLI_NUM("target", 0, "PCT", "new, start: say whether the design's MDE reaches PCT, else the boots that would; "
		"with --until: the margin of its verdicts (default 1%)",
		O_TARGET, CLI_PCT, 0.0001, 1, NULL),
	CLI_OPT("strict", 0, NULL, "new, start: refuse (exit 2, nothing written) when the MDE misses --target", O_STRICT),
	CLI_OPT("until", 0, "decided",
		"new: adaptive: boot a block at a time, look after each, stop when every workload has a verdict "
		"(faster, slower, or equivalent within --target)",
		O_UNTIL),
	CLI_NUM("max-boots", 0, "N", "new, with --until: the cap, boots per configuration", O_MAX_BOOTS, CLI_INT, 2,
		10000, "10"),
	CLI_OPT("budget", 0, "DURATION", "new, with --until: stop after this much wall time (e.g. 2h; default none)",
		O_BUDGET),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct campaign_args {
	struct campaign_spec sp;
	size_t cap;
	const char *db;
	bool dry_run;
	bool runs_given;
	struct cli_out out; /* show, status */
	const char *from; /* --from */
	double target;    /* --target, 0: none */
	bool strict;      /* --strict */
	struct study_adaptive_spec ad; /* --until, --max-boots, --budget (ad.until NULL: not adaptive) */
	bool max_boots_given, budget_given;
};

static int set_config_field(struct campaign_args *a, const char *opt, char **field, const char *arg, struct err *e)
{
	if (!a->sp.nconfigs)
		return errf(e, "--%s '%s': give --config 'K=V ...' first; boot options belong to the configuration before "
			       "them",
			    opt, arg);
	if (!text_is_clean(arg, false) || strlen(arg) > 4000)
		return errf(e, "--%s: give printable text of at most 4000 bytes", opt);
	free(*field);
	*field = xstrdup(arg);
	return 0;
}

static int add_config(struct campaign_args *a, const char *arg, struct err *e)
{
	struct kvlist l = {0};
	int rc = -1;
	char *copy = xstrdup(arg);
	for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
		if (label_add(&l, t, e)) {
			err_prefix(e, "--config '%s'", arg);
			goto out;
		}
	if (!l.n) {
		errf(e, "--config: give the configuration's labels, e.g. --config 'pti=on thp=never'");
		goto out;
	}
	kv_sort(&l);
	json_t *j = json_object();
	struct sb name = {0};
	for (size_t i = 0; i < l.n; i++) {
		json_object_set_new(j, l.v[i].key, json_string(l.v[i].value));
		sb_addf(&name, "%s%s=%s", i ? " " : "", l.v[i].key, l.v[i].value);
	}
	char *js = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	a->sp.configs = xgrow(a->sp.configs, &a->cap, a->sp.nconfigs + 1, sizeof *a->sp.configs);
	struct store_campaign_config *k = &a->sp.configs[a->sp.nconfigs++];
	memset(k, 0, sizeof *k);
	k->name = name.s;
	k->labels = xstrdup(js);
	free(js);
	rc = 0;
out:
	free(copy);
	kv_free(&l);
	return rc;
}

/* A backend's option (table id): its name and value ("" for a flag) kept as given, for the
 * backend to parse once --backend is known (campaign_create). */
static int backend_opt(struct campaign_args *a, int id, const char *arg)
{
	const struct cli_opt *o = cli_campaign_opts;
	while (o->lng && o->id != id)
		o++;
	strv_add(&a->sp.be_args, o->lng);
	strv_add(&a->sp.be_args, arg ? arg : "");
	return 0;
}

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct campaign_args *a = ctx;
	struct campaign_opts *o = &a->sp.opts;
	struct store_campaign_config *k = a->sp.nconfigs ? &a->sp.configs[a->sp.nconfigs - 1] : NULL;
	switch (id) {
	case O_BACKEND: a->sp.backend = arg; return 0;
	case O_BOOTS: a->sp.boots = cli_int_of(arg); return 0;
	case O_RUNS: a->runs_given = true; a->sp.runs = cli_int_of(arg); return 0;
	case O_SEED:
		a->sp.seed_given = true;
		return parse_u64(arg, 0, INT64_MAX, "--seed", &a->sp.seed, e);
	case O_CONFIG: return add_config(a, arg, e);
	case O_KERNEL: return set_config_field(a, "kernel", k ? &k->kernel : NULL, arg, e);
	case O_INITRD: return set_config_field(a, "initrd", k ? &k->initrd : NULL, arg, e);
	case O_APPEND: return set_config_field(a, "append", k ? &k->append : NULL, arg, e);
	case O_ENTRY: return set_config_field(a, "entry", k ? &k->entry : NULL, arg, e);
	case O_COMMAND: return set_config_field(a, "command", k ? &k->command : NULL, arg, e);
	case O_SMP: case O_MEM: case O_NUMA: case O_DUET: case O_ACCEL: case O_IMAGE: case O_ARCH: case O_QEMU:
	case O_BOOT_TIMEOUT:
		return backend_opt(a, id, arg);
	case O_MAX_FAILURES: o->max_failures = cli_int_of(arg); return 0;
	case O_SETTLE_LOAD: o->settle_load = cli_real_of(arg); return 0;
	case O_SETTLE_TIMEOUT: o->settle_timeout_s = cli_int_of(arg); return 0;
	case O_UNIT_DIR: free(o->unit_dir); o->unit_dir = xstrdup(arg); return 0;
	case O_DRY_RUN: a->dry_run = true; return 0;
	case OPT_JSON:
	case OPT_FORMAT:
	case OPT_OUTPUT: return cli_out_opt(&a->out, id, arg, e);
	case O_FROM: a->from = arg; return 0;
	case O_TARGET: a->target = cli_real_of(arg); return 0;
	case O_STRICT: a->strict = true; return 0;
	case O_UNTIL: a->ad.until = arg; return 0;
	case O_MAX_BOOTS: a->max_boots_given = true; a->ad.max_boots = cli_int_of(arg); return 0;
	case O_BUDGET: {
		uint64_t ns;
		if (parse_duration(arg, "--budget", &ns, e))
			return -1;
		if (!ns)
			return errf(e, "--budget %s: give a wall time above 0, e.g. --budget 2h", arg);
		a->budget_given = true;
		a->ad.budget_s = (double)ns / 1e9;
		return 0;
	}
	case OPT_DB: a->db = a->out.db = arg; return 0;
	}
	return errf(e, "unhandled option");
}

static void args_free(struct campaign_args *a)
{
	for (size_t i = 0; i < a->sp.nconfigs; i++)
		store_campaign_config_free(&a->sp.configs[i]);
	free(a->sp.configs);
	strv_free(&a->sp.run_args);
	strv_free(&a->sp.be_args);
	campaign_opts_free(&a->sp.opts);
}

static const char *const subcommands[] = {"new", "show", "status", "start", "resume", "stop"};

/* --json or --format json was given. */
static bool json_out(const struct cli_out *o)
{
	return o->fmt == &report_format_json;
}

/* What pos and the options ask for, checked before the database is opened: -1 with e set
 * when they do not go together. given_run_args: run arguments after "--" were given. */
static int check_usage(const struct campaign_args *a, const struct strv *pos, bool given_run_args, struct err *e)
{
	bool known = false;
	for (size_t i = 0; pos->n && i < sizeof subcommands / sizeof subcommands[0]; i++)
		known |= !strcmp(pos->v[0], subcommands[i]);
	if (!known)
		return errf(e, "%s%s%sgive what to do: sysab campaign new|show|status|start|resume|stop NAME",
			    pos->n ? "'" : "", pos->n ? pos->v[0] : "", pos->n ? "' is not a campaign command; " : "");
	const char *what = pos->v[0];
	if ((pos->n != 2 && !(pos->n == 1 && !strcmp(what, "show"))) || pos->n > 2)
		return errf(e, "give one campaign name: sysab campaign %s NAME", what);
	bool new_only = a->sp.backend || a->sp.boots || a->sp.nconfigs || a->sp.run_args.n || given_run_args;
	if (new_only && strcmp(what, "new"))
		return errf(e, "campaign %s: --backend, --boots, --config and run arguments are for `sysab campaign new`",
			    what);
	if (pos->n == 2 && campaign_name_check(pos->v[1], e))
		return -1;
	bool show = !strcmp(what, "show") || !strcmp(what, "status");
	bool new_or_start = !strcmp(what, "new") || !strcmp(what, "start");
	if (!show && (a->out.path || !(cli_out_text(&a->out) || (new_or_start && json_out(&a->out)))))
		return errf(e, "campaign %s: --format, --json and -o are for show and status (new and start take --json "
			       "alone: the MDE of the design in JSON)",
			    what);
	if ((a->from || a->target > 0 || a->strict) && strcmp(what, "new") && strcmp(what, "start"))
		return errf(e, "--from, --target and --strict are for `sysab campaign new` and `start`");
	if (a->strict && !(a->target > 0))
		return errf(e, "--strict refuses a design that misses --target: give --target PCT too");
	if ((a->ad.until || a->max_boots_given || a->budget_given) && strcmp(what, "new"))
		return errf(e, "--until, --max-boots and --budget are for `sysab campaign new`");
	if ((a->max_boots_given || a->budget_given) && !a->ad.until)
		return errf(e, "--max-boots and --budget are the cap and budget of an adaptive campaign: give --until "
			       "decided too");
	if (a->ad.until && a->strict)
		return errf(e, "--strict and --until go together badly: an adaptive campaign boots until it decides; "
			       "drop --strict");
	if (a->dry_run && strcmp(what, "start"))
		return errf(e, "--dry-run is for start (a dry resume would still have to record the boot it checks)");
	return 0;
}

/* Load campaign name into *c and its view (the schedule too with slots) into *v, with its
 * adaptive state in *ad (free with study_adaptive_state_free). Returns 0, or -1 with e set
 * (nothing to free then). */
static int view_one(struct store *st, const char *name, bool slots, struct campaign *c, struct campaign_view *v,
		    struct study_adaptive_state *ad, struct err *e)
{
	if (campaign_load(st, name, c, e))
		return -1;
	if (study_adaptive_state(st, c->r.id, ad, e)) {
		campaign_free(c);
		return -1;
	}
	campaign_view(c, slots, v);
	if (ad->a.until) {
		v->adaptive = &ad->a;
		v->looks = ad->looks;
		v->nlooks = ad->nlooks;
	}
	return 0;
}

/* Print campaign name with its schedule on stdout (campaign new): as text, then the MDE of its
 * design md; in JSON, one document with md as its "mde". */
static int show_one(struct store *st, const char *name, const struct cli_out *out, const struct study_mde *md,
		    struct err *e)
{
	struct campaign c;
	struct campaign_view v;
	struct study_adaptive_state ad;
	if (view_one(st, name, true, &c, &v, &ad, e))
		return -1;
	int rc = 0;
	if (json_out(out)) {
		rc = cli_emit(out, &(struct report_doc){.views = &v, .nviews = 1, .design_mde = md}, e);
	} else {
		report_campaign_text(stdout, &v);
		printf("\n");
		report_design_mde_text(stdout, md);
	}
	campaign_view_free(&v);
	study_adaptive_state_free(&ad);
	campaign_free(&c);
	return rc;
}

/* --strict: -1 with e set when the design's MDE misses --target (or it has none). */
static int strict_check(const struct campaign_args *a, const struct study_mde *md, struct err *e)
{
	if (!a->strict || (md->have && md->m.reaches))
		return 0;
	if (!md->have)
		return errf(e, "--strict: 1 boot per configuration has no MDE to meet --target; give --boots 2 or more");
	if (md->m.boots_needed)
		return errf(e, "--strict: the design's MDE %.2f%% misses --target %.2f%%; --boots %zu would reach it "
			       "(nothing was written)",
			    100 * md->m.worst, 100 * a->target, md->m.boots_needed);
	return errf(e, "--strict: the design's MDE %.2f%% misses --target %.2f%% at any number of boots; give more "
		       "runs or samples (nothing was written)",
		    100 * md->m.worst, 100 * a->target);
}

/* `sysab campaign start NAME` before its first boot: the MDE of its design in a's format (text,
 * or one JSON document), or -1 with e set (--strict refuses, nothing is written). A campaign
 * already under way prints nothing; one that cannot be loaded neither: the start that follows
 * says why, after its lease's checks. */
static int start_mde(const struct campaign_env *env, const struct campaign_args *a, const char *name, struct err *e)
{
	struct campaign c;
	struct err le = {{0}};
	if (campaign_load(env->st, name, &c, &le))
		return 0;
	int rc = 0;
	if (c.state == CAMPAIGN_NEW) {
		struct study_mde md;
		struct study_mde_in in = {(size_t)c.r.boots, (size_t)c.r.runs, &c.run_args, c.r.backend,
					  campaign_qemu_accel(&c.opts), a->from, a->target};
		struct cli_out out = a->out;
		out.kind = REPORT_MDE;
		rc = study_campaign_mde(env->st, &in, &md, e) || strict_check(a, &md, e) ||
			     cli_emit(&out, &(struct report_doc){.design_mde = &md}, e)
			     ? -1
			     : 0;
		fflush(stdout);
		study_mde_free(&md);
	}
	campaign_free(&c);
	return rc;
}

/* The --accel given to campaign new (a backend option, kept as given), or NULL. */
static const char *given_accel(const struct campaign_args *a)
{
	const char *v = NULL;
	for (size_t i = 0; i + 1 < a->sp.be_args.n; i += 2)
		if (!strcmp(a->sp.be_args.v[i], "accel"))
			v = a->sp.be_args.v[i + 1];
	return v;
}

/* `sysab campaign new NAME`: fill in the defaults, store the campaign, print its schedule and
 * the MDE of its design (a's format: text, or one JSON document). */
static int campaign_new(const struct campaign_env *env, struct campaign_args *a, const char *name, const char *self,
			struct err *e)
{
	a->sp.name = name;
	if (!a->runs_given)
		a->sp.runs = 1;
	if (!a->sp.run_args.n)
		strv_add(&a->sp.run_args, "--quick");
	a->sp.self = self;
	if (a->ad.until) {
		if (!a->max_boots_given)
			a->ad.max_boots = 10;
		a->ad.target = a->target > 0 ? a->target : 0.01;
		if (study_adaptive_check(&a->ad, a->sp.nconfigs, a->sp.boots > 0, e))
			return -1;
		a->sp.boots = a->ad.max_boots;
	}
	struct study_mde md;
	struct study_mde_in in = {(size_t)a->sp.boots, (size_t)a->sp.runs, &a->sp.run_args, a->sp.backend,
				  given_accel(a), a->from, a->target};
	if (study_campaign_mde(env->st, &in, &md, e) || strict_check(a, &md, e) ||
	    (a->ad.until ? study_adaptive_create(env->st, &a->sp, &a->ad, e) : campaign_create(env->st, &a->sp, e)) ||
	    show_one(env->st, name, &a->out, &md, e)) {
		study_mde_free(&md);
		return -1;
	}
	study_mde_free(&md);
	char prog[256];
	if (!json_out(&a->out))
		printf("\nnothing boots until `%s campaign start %s` (try --dry-run first)\n", prog_name(prog, sizeof prog),
		       name);
	return 0;
}

/* `start` (resume false) or `resume` campaign name; an adaptive campaign's rule decides after each
 * block, and when it stopped in this call its verdicts and the MDE reached are printed. */
static int drive(const struct campaign_env *env, const char *name, bool resume, struct err *e)
{
	/* a bisection's step or check (what its unit resumes at boot) goes on as the bisection */
	char *owner;
	int own = store_bisect_of_campaign(env->st, name, &owner, e);
	if (own) {
		int r = own < 0 ? -1 : cli_bisect_drive(env, owner, e);
		free(owner);
		return r;
	}
	struct study_decision d;
	struct study_mde md = {0};
	int rc = study_adaptive_step(env, name, resume, NULL, false, &d, e);
	struct err e2;
	if (d.stop != STUDY_GO_ON && !study_adaptive_reached(env->st, name, &d, &md, &e2))
		report_adaptive_text(env->out, name, &d, &md);
	study_mde_free(&md);
	study_decision_free(&d);
	return rc;
}

/* `sysab campaign show [NAME]` and `status NAME`, in out's format. */
static int campaign_show(struct store *st, const struct strv *pos, const struct cli_out *out, struct err *e)
{
	const char *what = pos->v[0];
	struct strv names = {0}, bad = {0};
	int r = 0;
	if (pos->n == 1)
		r = store_campaign_names(st, &names, e);
	else
		strv_add(&names, pos->v[1]);
	struct campaign *c = xcalloc(names.n + 1, sizeof *c);
	struct campaign_view *v = xcalloc(names.n + 1, sizeof *v);
	struct study_adaptive_state *ad = xcalloc(names.n + 1, sizeof *ad);
	size_t n = 0;
	/* every campaign that loads is shown; a damaged one is named on stderr, not the end */
	for (size_t i = 0; !r && i < names.n; i++) {
		struct err one;
		if (!view_one(st, names.v[i], pos->n == 2 && !strcmp(what, "show"), &c[n], &v[n], &ad[n],
			      pos->n == 1 ? &one : e))
			n++;
		else if (pos->n == 2)
			r = -1;
		else {
			fprintf(stderr, "sysab campaign: %s\n", one.msg);
			strv_add(&bad, names.v[i]);
		}
	}
	if (!r)
		r = cli_emit(out, &(struct report_doc){.views = v, .nviews = n, .view_list = pos->n == 1}, e);
	if (!r && bad.n) {
		struct sb list = {0};
		for (size_t i = 0; i < bad.n; i++)
			sb_addf(&list, "%s%s", i ? ", " : "", bad.v[i]);
		r = errf(e, "%zu of %zu campaigns could not be shown (%s: damaged, see above); the others were shown",
			 bad.n, names.n, list.s);
		sb_free(&list);
	}
	/* the closing hint: status always, show once the campaign is done */
	if (!r && pos->n == 2 && cli_out_text(out) && !out->path &&
	    (!strcmp(what, "status") || c[0].state == CAMPAIGN_DONE)) {
		char *hint = campaign_analyze_hint(&c[0]);
		printf("analysis: %s; %s (docs/CAMPAIGNS.md)\n", hint,
		       c[0].state != CAMPAIGN_DONE ? "before the campaign is done, that is a sequential look, counted by itself"
						   : "the final look");
		free(hint);
	}
	for (size_t i = 0; i < n; i++) {
		campaign_view_free(&v[i]);
		study_adaptive_state_free(&ad[i]);
		campaign_free(&c[i]);
	}
	free(ad);
	free(v);
	free(c);
	strv_free(&bad);
	strv_free(&names);
	return r;
}

int cmd_campaign(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct campaign_args a = {0};
	cli_out_init(&a.out, REPORT_CAMPAIGN, "text");
	struct strv pos = {0};
	struct err e;
	struct store *st = NULL;
	char *path = NULL, *self = NULL;
	int rc;
	/* everything after "--" is the `sysab run` arguments of each run */
	int dd = cli_run_args(argc, argv, &a.sp.run_args);
	if ((rc = cli_start(cmd, dd, argv, on_opt, &a, &pos)) >= 0)
		goto out;
	if (check_usage(&a, &pos, dd < argc, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	const char *what = pos.v[0];
	bool is_new = !strcmp(what, "new");
	bool writes = is_new || (!a.dry_run && strcmp(what, "show") && strcmp(what, "status"));
	self = realpath("/proc/self/exe", NULL);
	if (cli_open_db(a.db, writes ? STORE_RW : STORE_READ, &st, &path, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	char *abs_db = realpath(path, NULL);
	/* start --json: stdout holds the MDE's JSON document alone, the progress goes to stderr */
	struct campaign_env env = {st, abs_db ? abs_db : path, self ? self : "sysab", a.dry_run,
				   !is_new && json_out(&a.out) ? stderr : stdout, NULL, NULL};
	int r;
	if (is_new) {
		r = campaign_new(&env, &a, pos.v[1], self, &e);
	} else if (!strcmp(what, "show") || !strcmp(what, "status")) {
		r = campaign_show(st, &pos, &a.out, &e);
	} else {
		sig_install();
		tmpdir_reap_stale(); /* what a killed campaign left (its VM died with it) */
		r = !strcmp(what, "start")    ? start_mde(&env, &a, pos.v[1], &e) || drive(&env, pos.v[1], false, &e)
		    : !strcmp(what, "resume") ? drive(&env, pos.v[1], true, &e)
					      : campaign_stop(&env, pos.v[1], &e);
	}
	free(abs_db);
	rc = r ? cli_fail(cmd, &e) : sig_stop ? 128 + sig_stop : EXIT_OK;
out:
	store_close(st);
	free(path);
	free(self);
	args_free(&a);
	strv_free(&pos);
	return rc;
}
