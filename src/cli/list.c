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
	bool json, no_color;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct look_args *a = ctx;
	switch (id) {
	case OPT_DB: a->db = arg; return 0;
	case OPT_JSON: a->json = true; return 0;
	case OPT_NO_COLOR: a->no_color = true; return 0;
	}
	return errf(e, "unhandled option");
}

static void print_doc(char *s)
{
	puts(s);
	free(s);
}

/* Parse the options; returns -1 to continue, or the exit code to return. */
static int parse(const struct cli_cmd *cmd, int argc, char **argv, struct look_args *a, struct strv *pos,
		 size_t max_pos)
{
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
	return cli_open_db(a->db, STORE_READ, st, NULL, e);
}

int cmd_list(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a = {0};
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, 1);
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
		struct selector sel;
		size_t *idx = NULL, ni = 0;
		if (select_parse(pos.v[0], &sel, &e) || select_listed(&sel, runs, n, &idx, &ni, &e)) {
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
	if (a.json)
		print_doc(report_runs_json(runs, k));
	else
		report_runs_text(stdout, runs, k, cli_color(a.no_color));
	rc = EXIT_OK;
out:
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	return rc;
}

int cmd_show(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a = {0};
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, 1);
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
	if (a.json)
		print_doc(report_summary_json(&s, true));
	else
		report_summary_text(stdout, &s, true, cli_color(a.no_color));
	summary_free(&s);
	rc = EXIT_OK;
out:
	store_close(st);
	strv_free(&pos);
	return rc;
}

int cmd_workloads(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a = {0};
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, 0);
	if (rc < 0) {
		if (a.json)
			print_doc(report_workloads_json());
		else
			report_workloads_text(stdout);
		rc = EXIT_OK;
	}
	strv_free(&pos);
	return rc;
}

int cmd_env(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct look_args a = {0};
	struct strv pos = {0};
	int rc = parse(cmd, argc, argv, &a, &pos, 0);
	if (rc < 0) {
		struct kvlist env = {0};
		env_capture(&env);
		if (a.json)
			print_doc(report_env_json(&env));
		else
			report_env_text(stdout, &env);
		kv_free(&env);
		rc = EXIT_OK;
	}
	strv_free(&pos);
	return rc;
}
