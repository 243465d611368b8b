/* bisect.c - `sysab bisect new|start|resume|show|stop`: find the configuration of a series that made it slower. */
#include "cli.h"
#include "campaign/campaign.h"
#include "core/tmp.h"
#include "report/bisect.h"
#include "study/bisectrun.h"

#include <stdlib.h>
#include <string.h>

enum {
	O_SERIES = 1, O_GOOD, O_BAD, O_BACKEND, O_WORKLOAD, O_MAX_BOOTS, O_ASSUME, O_DRY_RUN, O_FORMAT, O_JSON,
	O_UNIT_DIR, O_MAX_FAILURES, O_SETTLE_LOAD, O_SETTLE_TIMEOUT, O_SMP, O_MEM, O_ACCEL, O_IMAGE, O_ARCH, O_QEMU,
	O_BOOT_TIMEOUT, O_NUMA, O_SEED,
};

const struct cli_opt cli_bisect_opts[] = {
	CLI_OPT("series", 0, "FILE", "new: the ordered series, one configuration per line (labels, then --kernel, "
		"--append, --command ... as campaign new takes them)", O_SERIES),
	CLI_OPT("good", 0, "G", "new: the good end: a line number of the series (from 1) or a line's labels", O_GOOD),
	CLI_OPT("bad", 0, "B", "new: the bad end, after the good one", O_BAD),
	CLI_CHOICE("backend", 0, "NAME", "new: " CAMPAIGN_BACKEND_NAMES, O_BACKEND, CAMPAIGN_BACKEND_CHOICES),
	CLI_OPT("workload", 'w', "PATTERN", "new: a workload that regressed, judged at every step (repeatable; default: "
		"the run's)", O_WORKLOAD),
	CLI_NUM("max-boots", 0, "N", "new: the cap of boots per step, every configuration counted", O_MAX_BOOTS, CLI_INT,
		6, 10000, "24"),
	CLI_OPT("assume", 0, NULL, "new: take a step that stays undecided at the cap as the side its evidence favours "
		"and go on, marked assumed (default: the bisection stops there)", O_ASSUME),
	CLI_OPT("dry-run", 'n', NULL, "new: print every step's campaign instead of storing the bisection", O_DRY_RUN),
	CLI_CHOICE("format", 0, "FORMAT", "show: text (default), json or markdown", O_FORMAT, "text json markdown"),
	CLI_OPT("json", 0, NULL, "show: the same as --format json", O_JSON),
	CLI_OPT("seed", 0, "N", "new: seed of the steps' shuffles (step K's campaign takes N + K; default: random)",
		O_SEED),
	CLI_OPT("unit-dir", 0, "DIR", "new: where the resume unit goes (campaign new's)", O_UNIT_DIR),
	CLI_NUM("max-failures", 0, "K", "new: stop a step after K consecutive failed slots", O_MAX_FAILURES, CLI_INT, 1,
		1000, "2"),
	CLI_NUM("settle-load", 0, "LOAD", "new: before the runs wait for the 1-minute load below LOAD", O_SETTLE_LOAD,
		CLI_REAL, 0.01, 1000, "1.0"),
	CLI_NUM("settle-timeout", 0, "SECONDS", "new: ... but at most this long (0: no wait)", O_SETTLE_TIMEOUT, CLI_INT,
		0, 86400, "0"),
	CLI_NUM("smp", 0, "N", "new: qemu -smp", O_SMP, CLI_INT, 1, 256, "1"),
	CLI_NUM("mem", 0, "MB", "new: qemu -m", O_MEM, CLI_INT, 64, 1 << 20, "512"),
	CLI_NUM("numa", 0, "N", "new: qemu guest NUMA nodes, each an even share of --smp and --mem (x86_64 guests)",
		O_NUMA, CLI_INT, 1, 256, "1"),
	CLI_CHOICE("accel", 0, "auto|kvm|tcg", "new: qemu accelerator", O_ACCEL, "auto kvm tcg"),
	CLI_OPT("image", 0, "DIR", "new: qemu guest with vmlinuz and initramfs.cpio.gz", O_IMAGE),
	CLI_CHOICE("arch", 0, "auto|x86_64|loongarch64", "new: qemu guest architecture", O_ARCH,
		   "auto x86_64 loongarch64"),
	CLI_OPT("qemu", 0, "PATH", "new: the qemu binary", O_QEMU),
	CLI_NUM("boot-timeout", 0, "SECONDS", "new: qemu: kill a boot and its runs after this long", O_BOOT_TIMEOUT,
		CLI_INT, 10, 86400, "900"),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct bisect_args {
	struct study_bisect_spec sp;
	const char *series_path, *db, *format;
	bool dry_run, cap_given, new_given;
};

/* The option's long name in the table (the spelling campaign new takes). */
static const char *opt_name(int id)
{
	const struct cli_opt *o = cli_bisect_opts;
	while (o->lng && o->id != id)
		o++;
	return o->lng;
}

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct bisect_args *a = ctx;
	(void)e;
	if (id != O_FORMAT && id != O_JSON && id != OPT_DB)
		a->new_given = true;
	switch (id) {
	case O_SERIES: a->series_path = arg; return 0;
	case O_GOOD: a->sp.good = arg; return 0;
	case O_BAD: a->sp.bad = arg; return 0;
	case O_BACKEND: a->sp.backend = arg; return 0;
	case O_WORKLOAD: strv_add(&a->sp.workloads, arg); return 0;
	case O_MAX_BOOTS: a->sp.cap = cli_int_of(arg); return 0;
	case O_ASSUME: a->sp.assume = 1; return 0;
	case O_DRY_RUN: a->dry_run = true; return 0;
	case O_FORMAT: a->format = arg; return 0;
	case O_JSON: a->format = "json"; return 0;
	case O_SEED: {
		uint64_t seed;
		if (parse_u64(arg, 0, INT64_MAX / 2, "--seed", &seed, e))
			return -1;
		strv_add(&a->sp.options, opt_name(id));
		strv_add(&a->sp.options, arg);
		return 0;
	}
	case O_UNIT_DIR: case O_MAX_FAILURES: case O_SETTLE_LOAD: case O_SETTLE_TIMEOUT: case O_SMP: case O_MEM:
	case O_ACCEL: case O_IMAGE: case O_ARCH: case O_QEMU: case O_BOOT_TIMEOUT: case O_NUMA:
		strv_add(&a->sp.options, opt_name(id));
		strv_add(&a->sp.options, arg ? arg : "");
		return 0;
	case OPT_DB: a->db = arg; return 0;
	}
	return errf(e, "unhandled option");
}

static const char *const subcommands[] = {"new", "start", "resume", "show", "stop"};

/* What pos and the options ask for, before the database is opened: 0, or -1 with e set. */
static int check_usage(const struct bisect_args *a, const struct strv *pos, bool run_args, struct err *e)
{
	bool known = false;
	for (size_t i = 0; pos->n && i < sizeof subcommands / sizeof subcommands[0]; i++)
		known |= !strcmp(pos->v[0], subcommands[i]);
	if (!known)
		return errf(e, "%s%s%sgive what to do: sysab bisect new|start|resume|show|stop NAME", pos->n ? "'" : "",
			    pos->n ? pos->v[0] : "", pos->n ? "' is not a bisect command; " : "");
	if (pos->n != 2)
		return errf(e, "bisect %s: give the bisection's NAME (one argument)", pos->v[0]);
	bool is_new = !strcmp(pos->v[0], "new");
	if (!is_new && (a->new_given || run_args))
		return errf(e, "bisect %s: --series, --good, --bad, --backend, -w, --max-boots, --assume, --dry-run and "
			       "run arguments are for `sysab bisect new`",
			    pos->v[0]);
	if (a->format && strcmp(pos->v[0], "show"))
		return errf(e, "bisect %s: --format and --json are for `sysab bisect show`", pos->v[0]);
	if (is_new && (!a->series_path || !a->sp.good || !a->sp.bad))
		return errf(e, "bisect new %s: give --series FILE --good G --bad B (G and B: line numbers or labels of "
			       "FILE)",
			    pos->v[1]);
	if (is_new && !a->sp.backend)
		return errf(e, "bisect new %s: give --backend %s", pos->v[1], CAMPAIGN_BACKEND_USAGE);
	return 0;
}

int cli_bisect_drive(const struct campaign_env *env, const char *name, struct err *e)
{
	if (study_bisect_drive(env, name, e))
		return -1;
	struct study_bisect_view v;
	struct err ve;
	if (!study_bisect_view(env->st, env->db_path, name, &v, &ve)) {
		if (strcmp(v.state, "running")) /* ended or stopped: where it stands */
			report_bisect_text(stdout, &v);
		study_bisect_view_free(&v);
	}
	return 0;
}

int cmd_bisect(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct bisect_args a = {.sp.cap = BISECT_CAP_DEFAULT};
	struct strv pos = {0};
	struct err e;
	struct store *st = NULL;
	char *path = NULL, *self = NULL, *abs_db = NULL;
	int rc, r = 0;
	/* everything after "--" is the `sysab run` arguments of each run */
	int dd = cli_run_args(argc, argv, &a.sp.run_args);
	if ((rc = cli_start(cmd, dd, argv, on_opt, &a, &pos)) >= 0)
		goto out;
	if (check_usage(&a, &pos, dd < argc, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	const char *what = pos.v[0];
	a.sp.name = pos.v[1];
	if (!a.sp.run_args.n)
		strv_add(&a.sp.run_args, "--quick");
	/* the series is read before the database is opened: a bad file writes nothing */
	if (!strcmp(what, "new") && study_bisect_series_read(a.series_path, &a.sp.series, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (!strcmp(what, "new") && a.dry_run) { /* nothing stored: no database needed */
		struct study_bisect_plan p;
		r = study_bisect_plan(&a.sp, &p, &e);
		if (!r)
			report_bisect_plan_text(stdout, &p);
		study_bisect_plan_free(&p);
		rc = r ? cli_fail(cmd, &e) : EXIT_OK;
		goto out;
	}
	bool writes = strcmp(what, "show");
	if (cli_open_db(a.db, writes ? STORE_RW : STORE_READ, &st, &path, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	self = realpath("/proc/self/exe", NULL);
	abs_db = realpath(path, NULL);
	struct campaign_env env = {st, abs_db ? abs_db : path, self ? self : "sysab", false, stdout, NULL, NULL};
	if (!strcmp(what, "new")) {
		r = study_bisect_create(st, &a.sp, &e);
		if (!r)
			printf("bisection %s stored; nothing boots until `sysab bisect start %s` (try `bisect new ... "
			       "--dry-run` for its steps)\n",
			       a.sp.name, a.sp.name);
	} else if (!strcmp(what, "show")) {
		struct study_bisect_view v;
		r = study_bisect_view(st, env.db_path, a.sp.name, &v, &e);
		if (!r) {
			if (a.format && !strcmp(a.format, "json"))
				report_bisect_json(stdout, &v);
			else if (a.format && !strcmp(a.format, "markdown"))
				report_bisect_markdown(stdout, &v);
			else
				report_bisect_text(stdout, &v);
		}
		study_bisect_view_free(&v);
	} else if (!strcmp(what, "stop")) {
		r = study_bisect_stop(&env, a.sp.name, &e);
		if (!r)
			printf("bisection %s stopped after the current boot; `sysab bisect resume %s` goes on\n", a.sp.name,
			       a.sp.name);
	} else {
		sig_install();
		tmpdir_reap_stale();
		r = cli_bisect_drive(&env, a.sp.name, &e);
	}
	rc = r ? cli_fail(cmd, &e) : sig_stop ? 128 + sig_stop : EXIT_OK;
out:
	store_close(st);
	free(path);
	free(abs_db);
	free(self);
	strv_free(&a.sp.series);
	strv_free(&a.sp.run_args);
	strv_free(&a.sp.options);
	strv_free(&a.sp.workloads);
	strv_free(&pos);
	return rc;
}
