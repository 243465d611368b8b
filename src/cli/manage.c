/* manage.c - `sysab rm` and `sysab relabel`: remove runs, or change their labels, in one transaction. */
#include "cli.h"
#include "analysis/select.h"
#include "store/store.h"

#include <stdlib.h>
#include <string.h>

enum { O_YES = 1, O_LABEL };

const struct cli_opt cli_rm_opts[] = {
	CLI_OPT("yes", 'y', NULL, "remove more than one run (without it, rm refuses to)", O_YES),
	CLI_COMMON_OPTS,
	CLI_END,
};

const struct cli_opt cli_relabel_opts[] = {
	CLI_OPT("label", 'l', "KEY=VALUE", "set label KEY to VALUE on every selected run; KEY= removes it (repeatable)",
	 O_LABEL),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct manage_args {
	const char *db;
	bool yes;
	struct kvlist set; /* relabel: KEY -> VALUE, "" to remove */
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct manage_args *a = ctx;
	switch (id) {
	case O_YES:
		a->yes = true;
		return 0;
	case O_LABEL: {
		size_t n = strlen(arg);
		if (n > 1 && arg[n - 1] == '=' && !strchr(arg, '=')[1]) {
			char *k = xstrndup(arg, n - 1);
			int rc = label_check_key(k, e);
			if (!rc && kv_get(&a->set, k))
				rc = errf(e, "label '%s' is given twice; give each key once", k);
			if (!rc)
				kv_add(&a->set, k, "");
			free(k);
			return rc;
		}
		return label_add(&a->set, arg, e);
	}
	case OPT_DB:
		a->db = arg;
		return 0;
	}
	return errf(e, "unhandled option");
}

/* The runs the selector words in pos pick, any status: *idx into runs, in id order. */
static int pick(struct store *st, const struct strv *pos, struct store_run_info **runs, size_t *n, size_t **idx,
		size_t *ni, struct err *e)
{
	if (!pos->n)
		return errf(e, "give a run selector, e.g. run:12 or 'pernode=test'; `sysab list` shows the runs");
	if (store_runs_list(st, runs, n, e))
		return -1;
	struct sb text = {0};
	for (size_t i = 0; i < pos->n; i++)
		sb_addf(&text, "%s%s", i ? " " : "", pos->v[i]);
	struct selector sel;
	int rc = select_parse(sb_str(&text), &sel, e);
	if (!rc) {
		rc = select_listed(&sel, *runs, *n, idx, ni, e);
		select_free(&sel);
	}
	if (!rc && !*ni)
		rc = errf(e, "no run matches '%s'; nothing changed (`sysab list` shows the runs)", sb_str(&text));
	for (size_t i = 0; !rc && i < *ni; i++)
		if ((*runs)[(*idx)[i]].state == STORE_RUN_RUNNING)
			rc = errf(e, "run %lld is still running; wait for it or stop it first; nothing changed",
				  (long long)(*runs)[(*idx)[i]].id);
	sb_free(&text);
	return rc;
}

/* "run 3 (2026-12-03 06:51, pernode=yes pie=no)" for the confirmation lines. */
static void run_line(struct sb *b, const struct store_run_info *r)
{
	sb_addf(b, "run %lld (%s, %s", (long long)r->id, r->source, r->hostname);
	for (size_t i = 0; i < r->labels.n; i++)
		sb_addf(b, "%s%s=%s", i ? " " : "; ", r->labels.v[i].key, r->labels.v[i].value);
	sb_add(b, ")");
}

int cmd_rm(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct manage_args a = {0};
	struct strv pos = {0};
	struct store *st = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0, *idx = NULL, ni = 0;
	int64_t *ids = NULL;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	if (cli_open_db(a.db, STORE_READ, &st, NULL, &e) || pick(st, &pos, &runs, &n, &idx, &ni, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (ni > 1 && !a.yes) {
		struct sb b = {0};
		for (size_t i = 0; i < ni && i < 20; i++)
			sb_addf(&b, "%s%lld", i ? "," : "", (long long)runs[idx[i]].id);
		errf(&e, "this would remove %zu runs (%s%s); add --yes to remove them all", ni, sb_str(&b),
		     ni > 20 ? ",..." : "");
		sb_free(&b);
		rc = cli_fail(cmd, &e);
		goto out;
	}
	ids = xcalloc(ni, sizeof *ids);
	for (size_t i = 0; i < ni; i++)
		ids[i] = runs[idx[i]].id;
	if (store_runs_delete(st, ids, ni, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	for (size_t i = 0; i < ni; i++) {
		struct sb b = {0};
		sb_add(&b, "removed ");
		run_line(&b, &runs[idx[i]]);
		printf("%s\n", sb_str(&b));
		sb_free(&b);
	}
	rc = EXIT_OK;
out:
	free(ids);
	free(idx);
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	return rc;
}

int cmd_relabel(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct manage_args a = {0};
	struct strv pos = {0};
	struct store *st = NULL;
	struct store_run_info *runs = NULL;
	size_t n = 0, *idx = NULL, ni = 0;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	if (!a.set.n) {
		errf(&e, "give at least one -l KEY=VALUE (or -l KEY= to remove KEY)");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (cli_open_db(a.db, STORE_READ, &st, NULL, &e) || pick(st, &pos, &runs, &n, &idx, &ni, &e) ||
	    store_begin(st, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	for (size_t i = 0; i < ni; i++)
		if (store_run_relabel(st, runs[idx[i]].id, &a.set, &e)) {
			store_rollback(st);
			rc = cli_fail(cmd, &e);
			goto out;
		}
	if (store_commit(st, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	for (size_t i = 0; i < ni; i++) {
		const struct store_run_info *r = &runs[idx[i]];
		struct sb b = {0};
		sb_addf(&b, "run %lld:", (long long)r->id);
		for (size_t k = 0; k < a.set.n; k++) {
			const char *was = kv_get(&r->labels, a.set.v[k].key), *now = a.set.v[k].value;
			if (!*now)
				sb_addf(&b, " %s removed%s%s%s", a.set.v[k].key, was ? " (was " : " (was not set",
					was ? was : "", ")");
			else
				sb_addf(&b, " %s=%s%s%s%s", a.set.v[k].key, now, was ? " (was " : " (new",
					was ? was : "", ")");
		}
		printf("%s\n", sb_str(&b));
		sb_free(&b);
	}
	rc = EXIT_OK;
out:
	free(idx);
	store_runs_free(runs, n);
	store_close(st);
	strv_free(&pos);
	kv_free(&a.set);
	return rc;
}
