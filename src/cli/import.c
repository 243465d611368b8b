/* import.c - `sysab import csv|unixbench|db FILE...`: store outside results and other databases' runs. */
#include "cli.h"
#include "campaign/campaign.h"
#include "import/import_db.h"
#include "import/import_store.h"
#include "run/runsum.h"

#include <stdlib.h>
#include <string.h>

enum { O_LABEL = 1, O_MACHINE, O_KERNEL, O_BOOT };

const struct cli_opt cli_import_opts[] = {
	CLI_OPT("label", 'l', "KEY=VALUE", "label every imported run (repeatable)", O_LABEL),
	CLI_OPT("machine", 0, "NAME", "hostname to record (default: imported)", O_MACHINE),
	CLI_OPT("kernel", 0, "RELEASE", "kernel release to record (default: unknown)", O_KERNEL),
	CLI_OPT("boot", 0, "KEY", "unixbench: logs given the same KEY ran on one boot (default: each log its own)", O_BOOT),
	CLI_COMMON_OPTS,
	CLI_END,
};

struct import_args {
	struct kvlist labels;
	const char *machine, *kernel, *boot, *db;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct import_args *a = ctx;
	switch (id) {
	case O_LABEL:
		return label_add(&a->labels, arg, e);
	case O_MACHINE:
	case O_KERNEL:
	case O_BOOT:
		if (!*arg || !text_is_clean(arg, false) || strlen(arg) > 200)
			return errf(e, "--%s: give printable text of at most 200 bytes",
				    id == O_MACHINE ? "machine" : id == O_KERNEL ? "kernel" : "boot");
		*(id == O_MACHINE ? &a->machine : id == O_KERNEL ? &a->kernel : &a->boot) = arg;
		return 0;
	case OPT_DB: a->db = arg; return 0;
	}
	return errf(e, "unhandled option");
}

/* Import one file; prints what was stored. */
static int import_file(struct store *st, bool csv, const char *path, const struct import_opts *o, struct err *e)
{
	struct import_result res;
	int rc = import_file_store(st, csv, path, NULL, o, &res, e);
	if (!rc) {
		printf("%s: %zu value%s as run%s %lld", path, res.nvalues, res.nvalues == 1 ? "" : "s",
		       res.nruns == 1 ? "" : "s", (long long)res.first_run);
		if (res.nruns > 1)
			printf("-%lld", (long long)res.last_run);
		printf(" on %zu boot%s\n", res.nboots, res.nboots == 1 ? "" : "s");
		for (size_t i = 0; i < res.unknown.n; i++)
			printf("  unknown UnixBench test '%s' kept as unixbench.%s\n", res.unknown.v[i], res.unknown.v[i]);
	}
	import_result_free(&res);
	return rc;
}

/* Merge one other database; prints what was stored, or that nothing was new. */
static int import_db(struct store *st, const char *path, struct err *e)
{
	struct import_db_result res;
	if (import_db_file(st, path, campaign_record_check, &res, e))
		return -1;
	if (!res.nruns && !res.ncampaigns)
		printf("%s: nothing new (%zu run%s already stored)\n", path, res.nknown, res.nknown == 1 ? "" : "s");
	else {
		printf("%s: %zu run%s with %zu sample%s stored", path, res.nruns, res.nruns == 1 ? "" : "s", res.nsamples,
		       res.nsamples == 1 ? "" : "s");
		if (res.nruns)
			printf(" as run%s %lld%s", res.nruns == 1 ? "" : "s", (long long)res.ids[0], res.nruns > 1 ? "-" : "");
		if (res.nruns > 1)
			printf("%lld", (long long)res.ids[res.nruns - 1]);
		if (res.nknown)
			printf(", %zu already stored", res.nknown);
		if (res.ncampaigns)
			printf(", %zu campaign%s", res.ncampaigns, res.ncampaigns == 1 ? "" : "s");
		printf("\n");
	}
	import_db_result_free(&res);
	return 0;
}

int cmd_import(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct import_args a = {0};
	struct strv pos = {0};
	struct err e;
	struct store *st = NULL;
	char *path = NULL;
	int rc = EXIT_INPUT;
	if ((rc = cli_start(cmd, argc, argv, on_opt, &a, &pos)) >= 0)
		goto out;
	rc = EXIT_INPUT;
	bool csv = pos.n && !strcmp(pos.v[0], "csv");
	bool db = pos.n && !strcmp(pos.v[0], "db");
	if (!pos.n || (!csv && !db && strcmp(pos.v[0], "unixbench"))) {
		errf(&e, "%s%s%sgive the format first: sysab import csv FILE, sysab import unixbench FILE.log..., or "
			 "sysab import db OTHER.db...",
		     pos.n ? "'" : "", pos.n ? pos.v[0] : "", pos.n ? "' is not a format; " : "");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (pos.n < 2 || (csv && pos.n > 2)) {
		errf(&e, csv ? "give one CSV file: sysab import csv FILE"
		     : db    ? "give the databases: sysab import db OTHER.db..."
			     : "give the logs: sysab import unixbench FILE.log...");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (db && (a.labels.n || a.machine || a.kernel || a.boot)) {
		errf(&e, "import db keeps each run's own labels, machine, kernel and boot; leave out -l, --machine, "
			 "--kernel and --boot");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (csv && a.boot) {
		errf(&e, "--boot is for unixbench logs; a CSV file gives boots in its boot column");
		rc = cli_fail(cmd, &e);
		goto out;
	}
	kv_sort(&a.labels);
	if (cli_open_db(a.db, STORE_RW, &st, &path, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	struct import_opts o = {.labels = &a.labels, .machine = a.machine, .kernel = a.kernel, .boot = a.boot};
	int64_t before;
	if (store_run_max_id(st, &before, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	rc = EXIT_OK;
	for (size_t i = 1; i < pos.n; i++)
		if (db ? import_db(st, pos.v[i], &e) : import_file(st, csv, pos.v[i], &o, &e))
			rc = cli_fail(cmd, &e); /* the files before stay imported; the rest are still tried */
	/* the imported runs' summaries, so analysis can read them instead of the samples */
	size_t nsum;
	if (runsum_refresh(st, false, before + 1, &nsum, &e))
		rc = cli_fail(cmd, &e);
out:
	store_close(st);
	free(path);
	kv_free(&a.labels);
	strv_free(&pos);
	return rc;
}
