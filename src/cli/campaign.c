/* campaign.c - `sysab campaign new|show|status|start|resume|stop`: boot campaigns over configurations. */
#include "cli.h"
#include "campaign/campaign.h"
#include "core/tmp.h"
#include "report/campaign.h"

#include <jansson.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
	O_BOOTS = 1, O_RUNS, O_BACKEND, O_SEED, O_CONFIG, O_KERNEL, O_INITRD, O_APPEND, O_ENTRY, O_COMMAND,
	O_SMP, O_MEM, O_ACCEL, O_IMAGE, O_BOOT_TIMEOUT, O_MAX_FAILURES, O_SETTLE_LOAD, O_SETTLE_TIMEOUT,
	O_UNIT_DIR, O_DRY_RUN, O_ARCH, O_QEMU, O_NUMA, O_DUET,
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
	CLI_OPT("json", 0, NULL, "show, status: print JSON instead of text", OPT_JSON),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct campaign_args {
	struct campaign_spec sp;
	size_t cap;
	const char *db;
	bool dry_run;
	bool runs_given;
	bool json;
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
	case OPT_JSON: a->json = true; return 0;
	case OPT_DB: a->db = arg; return 0;
	}
	return errf(e, "unhandled option");
}

static void args_free(struct campaign_args *a)
{
	for (size_t i = 0; i < a->sp.nconfigs; i++) {
		struct store_campaign_config *k = &a->sp.configs[i];
		free(k->name);
		free(k->labels);
		free(k->kernel);
		free(k->initrd);
		free(k->append);
		free(k->entry);
		free(k->command);
	}
	free(a->sp.configs);
	strv_free(&a->sp.run_args);
	strv_free(&a->sp.be_args);
	campaign_opts_free(&a->sp.opts);
}

static const char *const subcommands[] = {"new", "show", "status", "start", "resume", "stop"};

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
	if (a->json && strcmp(what, "show") && strcmp(what, "status"))
		return errf(e, "--json is for show and status");
	if (a->dry_run && strcmp(what, "start"))
		return errf(e, "--dry-run is for start (a dry resume would still have to record the boot it checks)");
	return 0;
}

/* Render campaign name (the schedule too with slots) as text or JSON on stdout. */
static int show_one(struct store *st, const char *name, bool slots, bool json, json_t *all, struct err *e)
{
	struct campaign c;
	if (campaign_load(st, name, &c, e))
		return -1;
	struct campaign_view v;
	campaign_view(&c, slots, &v);
	if (json)
		json_array_append_new(all, report_campaign_json(&v));
	else
		report_campaign_text(stdout, &v);
	campaign_view_free(&v);
	campaign_free(&c);
	return 0;
}

static int print_json(json_t *j)
{
	char *s = json_dumps(j, JSON_INDENT(2) | JSON_ENSURE_ASCII);
	if (s)
		printf("%s\n", s);
	free(s);
	return 0;
}

/* `sysab campaign new NAME`: fill in the defaults, store the campaign, print its schedule. */
static int campaign_new(const struct campaign_env *env, struct campaign_args *a, const char *name, const char *self,
			struct err *e)
{
	a->sp.name = name;
	if (!a->runs_given)
		a->sp.runs = 1;
	if (!a->sp.run_args.n)
		strv_add(&a->sp.run_args, "--quick");
	a->sp.self = self;
	if (campaign_create(env->st, &a->sp, e) || show_one(env->st, name, true, false, NULL, e))
		return -1;
	char prog[256];
	printf("\nnothing boots until `%s campaign start %s` (try --dry-run first)\n", prog_name(prog, sizeof prog), name);
	return 0;
}

/* `sysab campaign show [NAME]` and `status NAME`. */
static int campaign_show(struct store *st, const struct strv *pos, bool json, struct err *e)
{
	const char *what = pos->v[0];
	int r = 0;
	json_t *all = json ? json_array() : NULL;
	if (pos->n == 1) {
		/* every campaign that loads is shown; a damaged one is named on stderr, not the end */
		struct strv names = {0}, bad = {0};
		r = store_campaign_names(st, &names, e);
		for (size_t i = 0; !r && i < names.n; i++) {
			struct err one;
			if (show_one(st, names.v[i], false, json, all, &one)) {
				fprintf(stderr, "sysab campaign: %s\n", one.msg);
				strv_add(&bad, names.v[i]);
			} else if (!json) {
				printf("\n");
			}
		}
		if (!r && !names.n && !json)
			printf("no campaigns yet; `sysab campaign new NAME ...` plans one\n");
		if (!r && json)
			print_json(all);
		if (!r && bad.n) {
			struct sb list = {0};
			for (size_t i = 0; i < bad.n; i++)
				sb_addf(&list, "%s%s", i ? ", " : "", bad.v[i]);
			r = errf(e, "%zu of %zu campaigns could not be shown (%s: damaged, see above); the others were "
				    "shown", bad.n, names.n, list.s);
			sb_free(&list);
		}
		strv_free(&bad);
		strv_free(&names);
		json_decref(all);
		return r;
	}
	r = show_one(st, pos->v[1], !strcmp(what, "show"), json, all, e);
	if (!r && json)
		print_json(json_array_get(all, 0));
	json_decref(all);
	if (!r && !json && !strcmp(what, "status")) {
		struct campaign c;
		if (!(r = campaign_load(st, pos->v[1], &c, e)))
			printf("analysis: sysab analyze --factors KEYS campaign:%s (%s; docs/CAMPAIGNS.md)\n", c.r.name,
			       c.state != CAMPAIGN_DONE
				       ? "before the campaign is done, that is a sequential look, counted by itself"
				       : "the final look");
		campaign_free(&c);
	}
	return r;
}

int cmd_campaign(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct campaign_args a = {0};
	struct strv pos = {0};
	struct err e;
	struct store *st = NULL;
	char *path = NULL, *self = NULL;
	int rc;
	/* everything after "--" is the `sysab run` arguments of each run */
	int dd = argc;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			dd = i;
			break;
		}
	for (int i = dd + 1; i < argc; i++)
		strv_add(&a.sp.run_args, argv[i]);
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
	struct campaign_env env = {st, abs_db ? abs_db : path, self ? self : "sysab", a.dry_run, stdout};
	int r;
	if (is_new) {
		r = campaign_new(&env, &a, pos.v[1], self, &e);
	} else if (!strcmp(what, "show") || !strcmp(what, "status")) {
		r = campaign_show(st, &pos, a.json, &e);
	} else {
		sig_install();
		tmpdir_reap_stale(); /* what a killed campaign left (its VM died with it) */
		r = !strcmp(what, "start")    ? campaign_start(&env, pos.v[1], &e)
		    : !strcmp(what, "resume") ? campaign_resume(&env, pos.v[1], &e)
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
