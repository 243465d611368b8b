/* export.c - `sysab export`: the selected runs as every sample (CSV, JSON) or one result per slot (KCIDB, LAVA). */
#include "cli.h"
#include "report/report.h"
#include "analysis/select.h"
#include "analysis/summary.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

enum { O_RAW = 1 };

const struct cli_opt cli_export_opts[] = {
	CLI_OUT_OPTS("csv (default: every sample), json, kcidb (KCIDB I/O v5.3 tests) or lava (lava-test-case lines)",
		     "csv json kcidb lava"),
	CLI_KCIDB_OPTS,
	CLI_OPT("raw", 0, NULL, "CSV: keep cells that start with = + - @ TAB or CR exactly (by default they get a leading ' so a spreadsheet does not run them as formulas)", O_RAW),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct ex_args {
	const char *db;
	struct cli_out out;
	bool raw;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct ex_args *a = ctx;
	if (id == OPT_DB) {
		a->db = a->out.db = arg;
		return 0;
	}
	if (id == O_RAW) {
		a->raw = true;
		return 0;
	}
	int r = cli_out_opt(&a->out, id, arg, e);
	if (r <= 0)
		return r;
	return errf(e, "unhandled option");
}

/* Keep runs[i] for which keep[i] is set, in order; free the others. */
static size_t compact(struct store_run_info *runs, size_t n, const bool *keep)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		if (keep[i])
			runs[k++] = runs[i];
		else
			store_run_info_free(&runs[i]);
	}
	return k;
}

int cmd_export(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ex_args a = {0};
	cli_out_init(&a.out, REPORT_SAMPLES, "csv");
	struct strv pos = {0};
	struct store *st = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0;
	struct store_export x = {0};
	int64_t *ids = NULL;
	bool *keep = NULL;
	struct summary *sums = NULL;
	size_t nsums = 0;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	rc = EXIT_OK;
	if (cli_out_opts_check(&a.out, &e))
		goto fail;
	if (cli_out_check(&a.out, &e) || cli_open_db(a.db, STORE_READ, &st, NULL, &e) || store_runs_list(st, &runs, &n, &e) || store_runs_env(st, runs, n, &e))
		goto fail;
	keep = xcalloc(n, sizeof *keep);
	for (size_t i = 0; i < n; i++)
		keep[i] = pos.n == 0;
	for (size_t p = 0; p < pos.n; p++) {
		struct selector sel;
		size_t *idx, ni;
		if (select_parse(pos.v[p], &sel, &e))
			goto fail;
		int src = select_runs(&sel, runs, n, &idx, &ni, &e);
		select_free(&sel);
		if (src)
			goto fail;
		for (size_t i = 0; i < ni; i++)
			keep[idx[i]] = true;
		free(idx);
	}
	n = compact(runs, n, keep);
	ids = xcalloc(n, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = runs[i].id;
	if (a.out.fmt->per_slot) {
		sums = xcalloc(n, sizeof *sums);
		for (; nsums < n; nsums++)
			if (summary_load(st, ids[nsums], &sums[nsums], &e))
				goto fail;
	} else if (store_export_load(st, ids, n, &x, &e)) {
		goto fail;
	}
	if (cli_emit(&a.out, &(struct report_doc){.runs = runs, .nruns = n, .samples = &x, .raw = a.raw, .summaries = sums},
		     &e))
		goto fail;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	for (size_t i = 0; i < nsums; i++)
		summary_free(&sums[i]);
	free(sums);
	store_export_free(&x);
	free(ids);
	free(keep);
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	return rc;
}
