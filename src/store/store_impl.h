/* store_impl.h - what the store's files share; not for use outside src/store/. */
#ifndef SYSAB_STORE_IMPL_H
#define SYSAB_STORE_IMPL_H

#include <sqlite3.h>
#include <sys/types.h>
#include "store.h"

struct store {
	sqlite3 *db;
	char *path;
	int in_tx;
	bool writable;
	bool immutable; /* opened read-only as immutable=1 (read_only_fallback in store.c) */
	bool full;      /* its disk is full: opened immutable as it could not take FILE-shm, or a commit found no room */
	/* the files this connection writes, by device and inode (see store_check_files) */
	dev_t dev, wal_dev;
	ino_t ino, wal_ino;
	bool have_wal, lost;
	char *tmpdir; /* STORE_COPY of an older file: the private copy's directory, removed on close */
	int tmpdir_lock; /* the descriptor holding its lock (tmpdir_create_held) */
	/* the running runs this connection writes (one per arm): the locks that tell them live (core/live.h) */
	struct store_run_lock {
		int fd;
		int64_t id;
		char *path;
	} *run_locks;
	size_t nrun_locks, run_locks_cap;
	sqlite3_stmt *summary_put; /* store_summary_put_run's statement, kept for bulk refreshes */
	sqlite3_stmt *slot_put, *sample_add; /* kept: an import stores one of each per row */
	/* statements of store_run_begin kept for reuse (an import of n one-row runs prepares
	 * them once, not n times), keyed by the address of their constant text */
	struct {
		const char *sql;
		sqlite3_stmt *st;
	} kept[8];
	/* waiting for another process's lock (store_busy_wait) */
	uint64_t busy_since;    /* when the current wait began */
	uint64_t stop_deadline; /* after a stop signal: when waiting ends for good (0: no signal seen) */
	bool stop_gave_up;      /* a wait was given up because of a stop signal */
};

/* Check that the database path and its write-ahead log still name the files this connection
 * has open (nobody deleted or replaced them). On a mismatch returns -1 with e saying what was
 * lost, and from then on the connection never checkpoints into the path again. */
int store_check_files(struct store *s, struct err *e);

/* One snapshot for several reads: BEGIN (deferred) unless a transaction is already open, so
 * that queries that must agree (the summary rows and the runs without one) see the same
 * database although another process commits between them. *began says whether to end it
 * with store_snapshot_end. */
int store_snapshot_begin(struct store *s, bool *began, struct err *e);
void store_snapshot_end(struct store *s, bool began);

/* The newest schema version, and the SQL taking a database from `from` to from + 1. */
int store_schema_target(void);
const char *store_schema_step(int from);

/* The test seam of the migration machinery: append n steps (SQL text, kept by the caller)
 * after the built-in ones, as if the code knew n more schema versions; n = 0 removes them.
 * Only unit tests call this; it is the one mutable state of the store module. */
void store_schema_test_steps(const char *const *steps, int n);

/* Prepare sql; on error -1 with e naming the database. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct err *e);
/* Record a SQLite failure in e, naming the database file. Returns -1. */
int store_fail(struct store *s, const char *what, struct err *e);
/* Bind text or NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v);
/* The run ids as a JSON array text, bound to json_each() so one statement serves any count. */
char *store_ids_json(const int64_t *ids, size_t n);
/* Column text as a new string ("" for NULL). */
char *store_col_text(sqlite3_stmt *st, int i);
/* Column text as a new string, NULL for NULL. */
char *store_col_text_or_null(sqlite3_stmt *st, int i);

/* Reading the blob of a run's summaries (run_summary.slots, docs/FORMATS.md). */
struct sum_blob {
	const unsigned char *p, *end;
	uint32_t left; /* slots not read yet */
};
/* One slot of it: x with its strings NULL; theirs point into the blob, NUL-terminated. */
struct sum_slot {
	struct store_summary x;
	const char *workload, *round_map, *diag;
};
/* The fewest bytes a slot takes in it: the fixed-size fields, three strings of one byte. */
#define SUM_SLOT_MIN (2 * 4 + 4 * 8 + 15 * 8 + 3 * (4 + 1))
/* Start reading data[0..len-1]; false when it is not a blob of this format. */
bool sum_blob_open(struct sum_blob *b, const void *data, size_t len);
/* The next slot into *out: 1, or 0 at the end, or -1 when the blob is malformed. */
int sum_blob_next(struct sum_blob *b, struct sum_slot *out);
/* The same for the copy of the run's environment (run_summary.env), key by key in byte
 * order; *key and *value point into the blob. */
bool sum_env_open(struct sum_blob *b, const void *data, size_t len);
int sum_env_next(struct sum_blob *b, const char **key, const char **value);

#endif
