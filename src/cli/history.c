/* history.c - `sysab history`: where a series of kernels (or any label) changed one workload. */
#include "cli.h"
#include "report/report.h"
#include "analysis/history.h"
#include "campaign/campaign.h"
#include "store/store.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { O_WORKLOAD = 1, O_BY, O_ALPHA, O_SEED, O_CONFIRM, O_RUN };

const struct cli_opt cli_history_opts[] = {
	CLI_OPT("workload", 'w', "WORKLOAD", "the workload to follow (a name or a pattern that matches one)", O_WORKLOAD),
	CLI_OPT("by", 0, "LABEL|time",
		"order the boots by this label's value in version order (6.12-rc1 < 6.12-rc2 < 6.12 < 6.13-rc1), or by "
		"when they ran (time)",
		O_BY),
	CLI_NUM("alpha", 0, "A", "chance that a series without any change reports one (family-wise)", O_ALPHA, CLI_REAL,
		0.001, 0.2, "0.005"),
	CLI_NUM("seed", 0, "N", "seed of the simulations behind p-values and intervals (same data and seed: same answer)",
		O_SEED, CLI_INT, 0, 2147483647, "36"),
	CLI_OPT("confirm", 0, NULL,
		"for each change, the A/B campaign that settles it: the last configuration before it against the first "
		"after, interleaved boots sized as `sysab plan` sizes two groups (80% power for the change's size)",
		O_CONFIRM),
	CLI_OPT("run", 0, NULL, "with --confirm: create and start those campaigns (boots VMs or this machine)", O_RUN),
	CLI_OUT_OPTS("text (default), json, markdown or html", "text json markdown html"),
	CLI_COLOR_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

struct hist_args {
	const char *db, *workload, *by;
	bool confirm, run;
	struct cli_out out;
	struct st_cp_opts o;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct hist_args *a = ctx;
	int r = cli_out_opt(&a->out, id, arg, e);
	if (r <= 0)
		return r;
	switch (id) {
	case OPT_DB: a->db = a->out.db = arg; return 0;
	case O_WORKLOAD:
		if (!*arg || !text_is_clean(arg, false))
			return errf(e, "-w: give a workload name; `sysab workloads` lists them");
		a->workload = arg;
		return 0;
	case O_BY:
		if (strcmp(arg, "time") && label_check_key(arg, e))
			return err_prefix(e, "--by");
		a->by = arg;
		return 0;
	case O_ALPHA: a->o.alpha = cli_real_of(arg); return 0;
	case O_SEED: a->o.seed = (uint64_t)cli_int_of(arg); return 0;
	case O_CONFIRM: a->confirm = true; return 0;
	case O_RUN: a->run = true; return 0;
	}
	return errf(e, "unhandled option");
}

/* A campaign name not taken yet: confirm-BY-BEFORE-AFTER with other characters as '_',
 * and -2, -3, ... when taken. */
static char *confirm_name(const struct strv *names, const char *by, const char *before, const char *after)
{
	char *base = xasprintf("confirm-%.16s-%.20s-%.20s", by, before, after);
	for (char *p = base; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_.-", *p))
			*p = '_';
	char *name = xstrdup(base);
	for (int k = 2; strv_has(names, name); k++) {
		free(name);
		name = xasprintf("%s-%d", base, k);
	}
	free(base);
	return name;
}

/* The campaign line of each change (--confirm), or why there is none. */
static void confirm_lines(struct store *st, const char *db, struct an_history *h)
{
	struct strv names = {0};
	struct err e;
	if (store_campaign_names(st, &names, &e))
		strv_free(&names);
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		struct an_history_change *c = &h->changes[i];
		if (!c->confirm_planned || !c->confirm.feasible)
			continue;
		if (!strcmp(h->by, "time")) {
			c->confirm_why = xstrdup("the boots are in time order, so nothing names how to boot either side; "
						 "order them by the label that names the configuration (--by kernel)");
			continue;
		}
		struct campaign src[2];
		size_t cfg[2];
		const char *side[2] = {c->label_before, c->label_after};
		int found = 0;
		for (; found < 2; found++) {
			struct kvlist term = {0};
			size_t nmatch;
			kv_add(&term, h->by, side[found]);
			bool ok = campaign_find_config(st, &names, NULL, &term, &src[found], &cfg[found], &nmatch);
			kv_free(&term);
			if (!ok)
				break;
		}
		if (found < 2) {
			c->confirm_why = xasprintf("no campaign booted %s=%s, so how to boot it is unknown; give it to "
						   "`sysab campaign new` with --config '%s=%s' and --kernel/--append, --entry "
						   "or --command",
						   h->by, side[found], h->by, side[found]);
		} else if (strcmp(src[0].r.backend, src[1].r.backend)) {
			c->confirm_why = xasprintf("%s=%s was booted with the %s backend and %s=%s with %s; one campaign "
						   "boots both sides the same way",
						   h->by, side[0], src[0].r.backend, h->by, side[1], src[1].r.backend);
		} else if (campaign_runs_unixbench(&src[0].run_args)) {
			c->confirm_why = xasprintf("%s=%s was measured by UnixBench (run --unixbench), whose command "
						   "fixes the passes per run; size the campaign with `sysab plan "
						   "'%s=%s' '%s=%s' --samples N --campaign NAME` (N: its Run's -i)",
						   h->by, side[0], h->by, side[0], h->by, side[1]);
		} else {
			c->confirm_name = confirm_name(&names, h->by, side[0], side[1]);
			strv_add(&names, c->confirm_name);
			struct strv args = {0};
			struct strv wl = {0};
			strv_add(&wl, h->workload);
			campaign_run_args_with(&src[0].run_args, &wl, h->copies, c->confirm.samples, &args);
			strv_free(&wl);
			const struct campaign *srcs[2] = {&src[0], &src[1]};
			campaign_new_command(c->confirm_name, db, srcs, cfg, 2, (int)c->confirm.boots,
					     (int)c->confirm.runs, &args, &c->confirm_argv, &c->confirm_line);
			strv_free(&args);
		}
		for (int k = 0; k < found; k++)
			campaign_free(&src[k]);
	}
	strv_free(&names);
}

/* Run this sysab with argv (after "sysab"); its exit status, or 1 when it cannot start. */
static int run_self(const struct strv *argv)
{
	char **v = xcalloc(argv->n + 2, sizeof *v);
	v[0] = "sysab";
	for (size_t i = 0; i < argv->n; i++)
		v[i + 1] = argv->v[i];
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execv("/proc/self/exe", v);
		fprintf(stderr, "sysab: cannot run itself: %s\n", strerror(errno));
		_exit(127);
	}
	free(v);
	int status = 0;
	if (pid < 0)
		return 1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* --run: create and start the campaign of each change that has one. */
static int start_confirming(const struct an_history *h, const char *db)
{
	int worst = 0;
	for (size_t i = 0; i < h->cp.nchanges; i++) {
		const struct an_history_change *c = &h->changes[i];
		if (!c->confirm_argv.n)
			continue;
		struct strv start = {0};
		strv_add(&start, "campaign");
		strv_add(&start, "start");
		strv_add(&start, c->confirm_name);
		if (db) {
			strv_add(&start, "--db");
			strv_add(&start, db);
		}
		int r = run_self(&c->confirm_argv);
		if (!r)
			r = run_self(&start);
		strv_free(&start);
		if (r > worst)
			worst = r;
	}
	return worst;
}

int cmd_history(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct hist_args a = {.by = "time", .o = stats_cp_defaults()};
	struct strv pos = {0};
	struct an_history_job j = {0};
	struct store *st = NULL;
	struct err e;
	cli_out_init(&a.out, REPORT_HISTORY, "text");
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	if (!a.workload) {
		errf(&e, "give the workload to follow with -w, e.g. sysab history -w kernel.syscall.null --by kernel");
		goto fail;
	}
	if (a.run && !a.confirm) {
		errf(&e, "--run starts the campaigns that --confirm prints; give both");
		goto fail;
	}
	if (pos.n > 1) {
		errf(&e, "give one selector (its terms in one argument, e.g. 'machine=lab3 source=csv'); see `sysab history "
			 "--help`");
		goto fail;
	}
	if (cli_out_check(&a.out, &e) || cli_open_db(a.db, STORE_READ, &st, NULL, &e) ||
	    an_history_job_build(st, pos.n ? pos.v[0] : "", a.workload, a.by, &a.o, &j, &e))
		goto fail;
	j.h.confirm = a.confirm;
	if (a.confirm)
		confirm_lines(j.d.st, a.db, &j.h);
	if (cli_emit(&a.out, &(struct report_doc){.history = &j.h}, &e))
		goto fail;
	rc = EXIT_OK;
	if (a.run) /* the job's connection is idle: the campaigns write beside it */
		rc = start_confirming(&j.h, a.db);
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_history_job_free(&j);
	strv_free(&pos);
	return rc;
}
