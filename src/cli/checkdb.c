/* checkdb.c - `sysab check-db`: verify the stored run summaries against the raw samples. */
#include "cli.h"
#include "run/runsum.h"
#include "store/store.h"

#include <stdio.h>
#include <stdlib.h>

enum { O_FIX = 1 };

const struct cli_opt cli_checkdb_opts[] = {
	CLI_OPT("fix", 0, NULL, "recompute every run's summaries from its samples, then check again", O_FIX),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct checkdb_args {
	const char *db;
	bool fix;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct checkdb_args *a = ctx;
	switch (id) {
	case OPT_DB: a->db = arg; return 0;
	case O_FIX: a->fix = true; return 0;
	default: return errf(e, "unhandled option");
	}
}

int cmd_check_db(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct checkdb_args a = {0};
	struct strv pos = {0};
	struct store *st = NULL;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	if (pos.n) {
		errf(&e, "unexpected argument '%s'; check-db takes only options (--db PATH, --fix)", pos.v[0]);
		rc = cli_fail(cmd, &e);
		goto out;
	}
	/* STORE_READ: checking changes nothing (the writable open of other commands computes
	 * missing summaries first, which would hide them) */
	if (cli_open_db(a.db, a.fix ? STORE_RW : STORE_READ, &st, NULL, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	size_t fixed = 0;
	if (a.fix && runsum_refresh(st, true, 0, &fixed, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	struct runsum_check c;
	if (runsum_check(st, &c, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (a.fix)
		printf("recomputed the summaries of %zu runs\n", fixed);
	bool bad = c.missing || c.stale || c.differ || c.orphans || c.warmup || c.unreadable;
	printf("%zu runs, %zu summaries checked against their samples (method %d): ", c.runs, c.checked,
	       ST_SUMMARY_METHOD);
	if (!bad)
		printf("all match\n");
	else
		printf("%zu missing, %zu stamped with another method, %zu differ, %lld without samples, %lld with a "
		       "wrong warm-up count, %zu rows unreadable\nfirst: %s\nrun `sysab check-db --fix` to recompute "
		       "them from the samples\n",
		       c.missing, c.stale, c.differ, (long long)c.orphans, (long long)c.warmup, c.unreadable, c.first);
	rc = bad ? EXIT_GATE : EXIT_OK;
out:
	store_close(st);
	strv_free(&pos);
	return rc;
}
