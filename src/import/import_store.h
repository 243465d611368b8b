/* import_store.h - storing parsed CSV rows and UnixBench logs as runs, one transaction per file. */
#ifndef SYSAB_IMPORT_STORE_H
#define SYSAB_IMPORT_STORE_H

#include "import/import_csv.h"
#include "import/import_unixbench.h"
#include "store/store.h"

struct import_opts {
	const struct kvlist *labels; /* -l labels for every run */
	const char *machine;         /* hostname to record, default "imported" */
	const char *kernel;          /* kernel release to record, default "unknown" */
	const char *boot;            /* unixbench: boot key shared by several logs, or NULL */
	/* a log measured here and now (`sysab run --unixbench`): this machine, boot and kernel
	 * instead of machine/kernel/boot, its environment, the command and its wall time */
	const struct store_host *host;
	const struct kvlist *env;
	const char *command;
	uint64_t started_ns, finished_ns;
};

struct import_result {
	int64_t first_run, last_run;
	size_t nruns, nboots, nvalues;
	struct strv unknown; /* unixbench tests without a sysab equivalent */
};
void import_result_free(struct import_result *r);

/* Hex FNV-1a 64 of len bytes: the file's identity in synthesized boot ids. */
void import_hash(const char *buf, size_t len, char out[17]);

/*
 * Store the rows of one CSV file (name: its path, used in messages; the base name is recorded; content hash `hash`): one run per run
 * key, boots "import:HASH:BOOTKEY", status "imported", source "csv". A -l label
 * that a row gives a different value for, rows of one run with different labels,
 * or a file imported before is an error naming the file (and line). Everything
 * lands in one transaction; on error nothing is stored and -1 is returned with e set.
 */
int import_store_csv(struct store *s, const char *name, const char *hash, const struct csv_import *c,
		     const struct import_opts *o, struct import_result *res, struct err *e);

/*
 * Store one UnixBench log as one run (source "unixbench"), or as one run per run of
 * UnixBench appended to it (log->nrun, in file order, all on the log's boot): each test
 * section becomes the slot (workload, copies) of its run and every pass a sample,
 * discarded passes included and not flagged. The boot is "import:HASH", or "import:boot:KEY" with
 * o->boot, or o->host's real boot when the log was measured here (then the run also
 * gets o->env, the command in its settings and the command's start and end times).
 * Same transaction rules as above.
 */
int import_store_unixbench(struct store *s, const char *name, const char *hash, const struct ub_log *log,
			   const struct import_opts *o, struct import_result *res, struct err *e);

/* Read one file (path; "-" is standard input), parse it as CSV (csv) or as a UnixBench
 * log, and store it as above; messages and the settings name it name (NULL: path).
 * Returns 0 with *res filled (free with import_result_free), or -1 with e set and
 * nothing stored. */
int import_file_store(struct store *s, bool csv, const char *path, const char *name, const struct import_opts *o,
		      struct import_result *res, struct err *e);

#endif
