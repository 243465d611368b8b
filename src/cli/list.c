/* list.c - `sysab list`, `sysab show`, `sysab workloads`, `sysab env`: looking at what is there. */
#include "cli.h"
#include "report/report.h"
#include "run/env.h"
#include "analysis/select.h"
#include "analysis/summary.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

struct look_args {
	const char *db;
	struct cli_out out;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct look_args *a = ctx;
	int r = cli_out_opt(&a->out, id, arg, e);
	if (r <= 0)
		return r;
	if (id == OPT_DB) {
		a->db = a->out.db = arg;
		return 0;
	}
	return errf(e, "unhandled option");
}

/* Parse the options; returns -1 to continue, or the exit code to return. */
static int parse(const struct cli_cmd *cmd, int argc, char **argv, struct look_args *a, struct strv *pos,
		 size_t max_pos, enum report_kind kind)
{
	*a = (struct look_args){0};
	cli_out_init(&a->out, kind, "text");
	int rc = cli_start(cmd, argc, argv, on_opt, a, pos);
	if (rc >= 0)
		return rc;
	struct err e;
	if (pos->n > max_pos) {
		errf(&e, "unexpected argument '%s'; see `sysab %s --help`", pos->v[max_pos], cmd->name);
		return cli_fail(cmd, &e);
	}
	return -1;
}

/* Open the database for reading and mark runs whose process died as interrupted. */
static int open_db(const struct look_args *a, struct store **st, struct err *e)
{
	return cli_out_check(&a->out, e) ? -1 : cli_open_db(a->db, STORE_READ, st, NULL, e);
}

int cmd_list(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a;
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, SIZE_MAX, REPORT_RUNS);
	struct store *st = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0;
	struct err e;
	if (rc >= 0)
		goto out;
	if (open_db(&a, &st, &e) || store_runs_list(st, &runs, &n, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	/* FILTER: a selector, the same as every other command's; every status is listed */
	size_t k = n;
	if (pos.n) {
		/* several words are the terms of one selector: list a=1 b=2 is list 'a=1 b=2' */
		struct sb text = {0};
		for (size_t i = 0; i < pos.n; i++)
			sb_addf(&text, "%s%s", i ? " " : "", pos.v[i]);
		struct selector sel;
		size_t *idx = NULL, ni = 0;
		int src = select_parse(sb_str(&text), &sel, &e) || select_listed(&sel, runs, n, &idx, &ni, &e);
		sb_free(&text);
		if (src) {
			select_free(&sel);
			rc = cli_fail(cmd, &e);
			goto out;
		}
		select_free(&sel);
		/* idx is increasing: move the matching runs to the front, in order */
		for (k = 0; k < ni; k++) {
			struct store_run_info t = runs[k];
			runs[k] = runs[idx[k]];
			runs[idx[k]] = t;
		}
		free(idx);
	}
	rc = cli_emit(&a.out, &(struct report_doc){.runs = runs, .nruns = k}, &e) ? cli_fail(cmd, &e) : EXIT_OK;
out:
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	return rc;
}

int cmd_show(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a;
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, 1, REPORT_RUN);
	struct store *st = NULL;
	struct err e;
	if (rc >= 0)
		goto out;
	uint64_t id;
	if (pos.n != 1) {
		errf(&e, "give one run id; `sysab list` shows them");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (parse_u64(pos.v[0], 1, INT64_MAX, "run id", &id, &e) || open_db(&a, &st, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	struct summary s;
	if (summary_load(st, (int64_t)id, &s, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	rc = cli_emit(&a.out, &(struct report_doc){.summary = &s, .with_env = true}, &e) ? cli_fail(cmd, &e) : EXIT_OK;
	summary_free(&s);
out:
	store_close(st);
	strv_free(&pos);
	return rc;
}

int cmd_workloads(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a;
	struct strv pos = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, 0, REPORT_WORKLOADS);
	if (rc < 0)
		rc = cli_emit(&a.out, &(struct report_doc){0}, &e) ? cli_fail(cmd, &e) : EXIT_OK;
	strv_free(&pos);
	return rc;
}

int cmd_env(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a;
	struct strv pos = {0};
	struct err e;
	int rc = parse(cmd, argc, argv, &a, &pos, 0, REPORT_ENV);
	if (rc < 0) {
		struct kvlist env = {0};
		env_capture(&env);
		rc = cli_emit(&a.out, &(struct report_doc){.env = &env}, &e) ? cli_fail(cmd, &e) : EXIT_OK;
		kv_free(&env);
	}
	strv_free(&pos);
	return rc;
}
