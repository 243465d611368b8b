/* export.c - `sysab export`: every sample of the selected runs as CSV or JSON. */
#include "cli.h"
#include "report/report.h"
#include "stats/select.h"
#include "store/store.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { O_FORMAT = 1, O_OUTPUT, O_RAW };

const struct cli_opt cli_export_opts[] = {
	{"format", 0, "FORMAT", "csv (default) or json", O_FORMAT},
	{"output", 'o', "FILE", "write to FILE instead of standard output", O_OUTPUT},
	{"raw", 0, NULL, "CSV: keep cells that start with = + - @ TAB or CR exactly (by default they get a leading ' so a spreadsheet does not run them as formulas)", O_RAW},
	CLI_COMMON_OPTS,
	CLI_END,
};

struct ex_args {
	const char *db, *output;
	bool json, raw;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct ex_args *a = ctx;
	switch (id) {
	case OPT_DB: a->db = arg; return 0;
	case O_FORMAT:
		if (!strcmp(arg, "csv"))
			a->json = false;
		else if (!strcmp(arg, "json"))
			a->json = true;
		else
			return errf(e, "--format: '%s' is not a format; use csv or json", arg);
		return 0;
	case O_RAW: a->raw = true; return 0;
	case O_OUTPUT:
		if (!*arg)
			return errf(e, "-o: give a file name");
		a->output = arg;
		return 0;
	}
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

static int write_all(FILE *f, const struct ex_args *a, const struct store_run_info *runs, size_t n,
		     const struct store_export *x)
{
	return a->json ? report_export_json(f, runs, n, x) : report_export_csv(f, runs, n, x, a->raw);
}

struct ex_page {
	const struct ex_args *a;
	const struct store_run_info *runs;
	size_t n;
	const struct store_export *x;
};

static int render_export(FILE *f, void *arg)
{
	const struct ex_page *p = arg;
	return write_all(f, p->a, p->runs, p->n, p->x);
}

int cmd_export(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct ex_args a = {0};
	struct strv pos = {0};
	struct store *st = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0;
	struct store_export x = {0};
	int64_t *ids = NULL;
	bool *keep = NULL;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	rc = EXIT_OK;
	if (cli_open_db(a.db, STORE_READ, &st, NULL, &e) || store_runs_list(st, &runs, &n, &e) || store_runs_env(st, runs, n, &e))
		goto fail;
	keep = xcalloc(n ? n : 1, sizeof *keep);
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
	ids = xcalloc(n ? n : 1, sizeof *ids);
	for (size_t i = 0; i < n; i++)
		ids[i] = runs[i].id;
	if (store_export_load(st, ids, n, &x, &e))
		goto fail;
	if (!a.output) {
		if (write_all(stdout, &a, runs, n, &x) || fflush(stdout)) {
			errf(&e, "cannot write to standard output (%s)", strerror(errno));
			goto fail;
		}
		goto out;
	}
	struct ex_page pg = {&a, runs, n, &x};
	if (outfile_write(a.output, render_export, &pg, &e))
		goto fail;
	goto out;
fail:
	rc = cli_fail(cmd, &e);
out:
	store_export_free(&x);
	free(ids);
	free(keep);
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	return rc;
}
