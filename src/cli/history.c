/* history.c - `sysab history`: where a series of kernels (or any label) changed one workload. */
#include "cli.h"
#include "report/report.h"
#include "analysis/history.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

enum { O_WORKLOAD = 1, O_BY, O_ALPHA, O_SEED };

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
	CLI_OUT_OPTS("text (default), json, markdown or html", "text json markdown html"),
	CLI_COLOR_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

struct hist_args {
	const char *db, *workload, *by;
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
	case OPT_DB: a->db = arg; return 0;
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
	}
	return errf(e, "unhandled option");
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
	if (pos.n > 1) {
		errf(&e, "give one selector (its terms in one argument, e.g. 'machine=lab3 source=csv'); see `sysab history "
			 "--help`");
		goto fail;
	}
	if (cli_open_db(a.db, STORE_READ, &st, NULL, &e) ||
	    an_history_job_build(st, pos.n ? pos.v[0] : "", a.workload, a.by, &a.o, &j, &e) ||
	    cli_emit(&a.out, &(struct report_doc){.history = &j.h}, &e))
		goto fail;
	rc = EXIT_OK;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	an_history_job_free(&j);
	strv_free(&pos);
	return rc;
}
