/* history.c - `sysab history`: where a series of kernels (or any label) changed one workload. */
#include "cli.h"
#include "report/report.h"
#include "analysis/history.h"
#include "study/study.h"
#include "store/store.h"

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
		"after, interleaved boots sized as `sysab plan` sizes two groups (80% power for the change's size); and "
		"when configurations lie between, the `sysab bisect` over them",
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
static int start_confirming(const struct study_line *lines, size_t n, const char *db)
{
	int worst = 0;
	for (size_t i = 0; i < n; i++) {
		const struct study_line *c = &lines[i];
		if (!c->argv.n)
			continue;
		struct strv start = {0};
		strv_add(&start, "campaign");
		strv_add(&start, "start");
		strv_add(&start, c->name);
		if (db) {
			strv_add(&start, "--db");
			strv_add(&start, db);
		}
		int r = run_self(&c->argv);
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
	struct study_line *lines = NULL;
	size_t nlines = 0;
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
	if (a.confirm) {
		nlines = j.h.cp.nchanges;
		lines = xcalloc(nlines, sizeof *lines);
		study_confirm_lines(j.d.st, a.db, &j.h, lines);
	}
	if (cli_emit(&a.out, &(struct report_doc){.history = &j.h, .lines = lines}, &e))
		goto fail;
	rc = EXIT_OK;
	if (a.run) /* the job's connection is idle: the campaigns write beside it */
		rc = start_confirming(lines, nlines, a.db);
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	for (size_t i = 0; i < nlines; i++)
		study_line_free(&lines[i]);
	free(lines);
	an_history_job_free(&j);
	strv_free(&pos);
	return rc;
}
