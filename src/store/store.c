/* store.c - opening, creating and migrating the results database; writing runs and samples. */
#include "store_impl.h"
#include "core/live.h"
#include "core/tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *store_default_path(const char *db_opt, struct err *e)
{
	if (db_opt && *db_opt)
		return xstrdup(db_opt);
	const char *env = getenv("SYSAB_DB");
	if (env && *env)
		return xstrdup(env);
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg == '/')
		return xasprintf("%s/sysab/results.db", xdg);
	const char *home = getenv("HOME");
	if (home && *home == '/')
		return xasprintf("%s/.local/share/sysab/results.db", home);
	if (home && *home) {
		errf(e, "HOME is '%s', not an absolute path, so there is no default database; set HOME to your home "
			"directory, or give --db FILE or set SYSAB_DB",
		     home);
		return NULL;
	}
	/* never the current directory: from cron it may be a shared one such as /tmp */
	struct passwd *pw = getpwuid(getuid());
	if (pw && pw->pw_dir && *pw->pw_dir == '/')
		return xasprintf("%s/.local/share/sysab/results.db", pw->pw_dir);
	errf(e, "HOME is not set and the password database names no home directory for uid %u; give --db FILE or "
		"set SYSAB_DB",
	     (unsigned)getuid());
	return NULL;
}

/* The path SQLite opens: the directory resolved (symbolic links in it are fine), the last
 * component kept as it is, so SQLITE_OPEN_NOFOLLOW still refuses a link there, atomically. */
static char *open_path(const char *path)
{
	char *dir = xstrdup(path), *base = xstrdup(path);
	char *real = realpath(dirname(dir), NULL);
	char *p = real ? xasprintf("%s/%s", strcmp(real, "/") ? real : "", basename(base)) : xstrdup(path);
	free(real);
	free(dir);
	free(base);
	return p;
}

int store_fail(struct store *s, const char *what, struct err *e)
{
	int code = sqlite3_errcode(s->db);
	const char *hint = "";
	if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB)
		hint = "; the file is damaged or not a sysab database: restore it from a backup or use --db with "
		       "another file";
	else if (code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM)
		hint = "; check that the file and its directory are writable, or use --db with another file";
	else if (code == SQLITE_BUSY && s->stop_gave_up)
		hint = "; another process held the database when a stop signal arrived, and sysab stopped waiting "
		       "for it";
	else if (code == SQLITE_BUSY)
		hint = "; another process holds the database for too long: retry when it is done";
	else if (code == SQLITE_FULL)
		hint = "; the disk is full: free space and retry";
	else if (code == SQLITE_IOERR)
		hint = "; the disk failed, or the file size limit (ulimit -f) is reached: check dmesg and ulimit -f";
	return errf(e, "%s: %s: %s%s", s->path, what, sqlite3_errmsg(s->db), hint);
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st, struct err *e)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return store_fail(s, "cannot prepare a query", e);
	return 0;
}

void store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

char *store_ids_json(const int64_t *ids, size_t n)
{
	struct sb b = {0};
	sb_add(&b, "[");
	for (size_t i = 0; i < n; i++)
		sb_addf(&b, "%s%lld", i ? "," : "", (long long)ids[i]);
	sb_add(&b, "]");
	return b.s;
}

char *store_col_text(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	return xstrdup(t ? (const char *)t : "");
}

char *store_col_text_or_null(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NULL : store_col_text(st, i);
}

static int exec_sql(struct store *s, const char *sql, const char *what, struct err *e)
{
	if (sqlite3_exec(s->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return store_fail(s, what, e);
	return 0;
}

static int user_version(struct store *s, int *v, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "PRAGMA user_version", &st, e))
		return -1;
	int rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		sqlite3_finalize(st);
		return store_fail(s, "cannot read the schema version", e);
	}
	*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Whether path's write-ahead log exists and holds anything. */
static bool has_wal(const char *path)
{
	char *wal = xasprintf("%s-wal", path);
	struct stat sb;
	bool yes = stat(wal, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 32;
	free(wal);
	return yes;
}

/* Look at an existing file before SQLite touches it: is it SQLite, and whole? */
static int check_header(const char *path, const struct stat *sb, struct err *e)
{
	if (sb->st_size == 0)
		return 0;
	unsigned char h[100];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errf(e, "%s: cannot read the database: %s; check its permissions or use --db with another file",
			    path, strerror(errno));
	ssize_t r = read(fd, h, sizeof h);
	close(fd);
	if (r < (ssize_t)sizeof h || memcmp(h, "SQLite format 3", 16) != 0)
		return errf(e, "%s: not a SQLite database; point --db or SYSAB_DB at a sysab database or a new file",
			    path);
	uint32_t page = (uint32_t)h[16] << 8 | h[17];
	if (page == 1)
		page = 65536;
	uint32_t pages = be32(h + 28);
	/* The in-header size is valid when the change counter matches its "valid for" copy. A
	 * checkpoint cut short (a full disk) leaves the header ahead of the file, with the pages
	 * still in the write-ahead log, which SQLite replays: only without a log is it truncated. */
	if (pages && be32(h + 24) == be32(h + 92) && (uint64_t)sb->st_size < (uint64_t)page * pages &&
	    !has_wal(path))
		return errf(e, "%s: the database is truncated (%lld of %llu bytes); restore it from a backup or "
			       "use --db with another file",
			    path, (long long)sb->st_size, (unsigned long long)page * pages);
	return 0;
}

/* A database with a schema version must hold sysab's tables: another program's SQLite file
 * (whatever its user_version, even negative) is refused before anything is written to it. */
static int check_sysab_tables(struct store *s, int v, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
			     "('machine', 'boot', 'run', 'label', 'environment', 'slot', 'sample')",
			  &st, e))
		return -1;
	int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
	sqlite3_finalize(st);
	if (n < 0)
		return store_fail(s, "cannot read the list of tables", e);
	if (v < 0 || n != 7)
		return errf(e, "%s: a SQLite database of another program (schema version %d, without sysab's tables); "
			       "give --db a sysab database or a new file",
			    s->path, v);
	return 0;
}

/* Copy from to a new file to (what it is, for messages), a block at a time: a database of
 * any size, in constant memory. Synced; an incomplete copy is removed. */
static int copy_file(const char *from, const char *to, const char *what, struct err *e)
{
	int in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return errf(e, "%s: cannot read it to make %s: %s", from, what, strerror(errno));
	int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (out < 0) {
		int err = errno;
		close(in);
		return errf(e, "%s: cannot write %s: %s%s", to, what, strerror(err),
			    err == EEXIST ? "; move the old backup away and retry" : "");
	}
	size_t cap = (size_t)1 << 20;
	char *buf = xcalloc(cap, 1);
	int rc = 0;
	for (;;) {
		ssize_t n = read(in, buf, cap);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = errf(e, "%s: cannot read it to make %s: %s", from, what, strerror(errno));
			break;
		}
		if (n == 0)
			break;
		for (ssize_t off = 0; off < n && !rc;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				rc = errf(e, "%s: cannot write %s: %s", to, what, w < 0 ? strerror(errno) : "nothing written");
			else
				off += w;
		}
		if (rc)
			break;
	}
	if (!rc && fsync(out) < 0)
		rc = errf(e, "%s: cannot write %s: %s", to, what, strerror(errno));
	free(buf);
	close(in);
	close(out);
	if (rc)
		unlink(to); /* ours and incomplete */
	return rc;
}

/* Bring the schema to the current version, in one transaction, after backing up a
 * database that already holds data to "<path>.v<from>.bak" (never overwritten: an existing
 * backup stops the migration). When the migration fails it is rolled back and the backup
 * removed, so the file is as before. */
static int migrate(struct store *s, int from, struct err *e)
{
	int target = store_schema_target();
	char *bak = NULL;
	if (from == target)
		return 0;
	if (from > 0) {
		if (exec_sql(s, "PRAGMA wal_checkpoint(TRUNCATE)", "cannot checkpoint before migrating", e))
			return -1;
		bak = xasprintf("%s.v%d.bak", s->path, from);
		if (copy_file(s->path, bak, "the backup before migrating", e)) {
			free(bak);
			return -1;
		}
	}
	if (exec_sql(s, "BEGIN IMMEDIATE", "cannot start the schema migration", e))
		goto fail_nobegin;
	int now;
	if (user_version(s, &now, e))
		goto fail;
	for (int v = now; v < target; v++)
		if (exec_sql(s, store_schema_step(v), "cannot migrate the schema", e))
			goto fail;
	char *set = xasprintf("PRAGMA user_version = %d", target);
	int rc = exec_sql(s, set, "cannot record the schema version", e);
	free(set);
	if (rc || exec_sql(s, "COMMIT", "cannot commit the schema migration", e))
		goto fail;
	free(bak);
	return 0;
fail:
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
fail_nobegin:
	/* nothing changed: the backup of an unchanged file would only block the next attempt */
	if (bak)
		unlink(bak);
	free(bak);
	return -1;
}

/* A stop signal (Ctrl-C) ends a statement on another program's database at once. */
static int copy_progress(void *arg)
{
	(void)arg;
	return sig_stop != 0;
}

/* The private copy of a source, made safe to read and migrate: a view or a virtual table
 * (sysab's schema has neither; one named like a table of sysab's can run an endless query
 * or return anything) is refused, and every trigger is dropped from the copy (only the
 * migration writes it, and a hostile trigger would run there; reading needs none). name
 * (the source) is what messages name. *v gets the schema version, read after SQLite has
 * applied the copied write-ahead log. Returns 0 or -1 with e set. */
static int copy_make_safe(const char *copy, const char *name, int *v, struct err *e)
{
	struct store t = {.path = (char *)name};
	sqlite3_stmt *st = NULL;
	struct strv trig = {0};
	int rc = -1;
	if (sqlite3_open_v2(copy, &t.db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		store_fail(&t, "cannot open the database", e);
		goto out;
	}
	sqlite3_progress_handler(t.db, 10000, copy_progress, NULL);
	if (exec_sql(&t, "PRAGMA trusted_schema=OFF", "cannot read the database", e) || user_version(&t, v, e))
		goto out;
	if (store_prepare(&t, "SELECT type, name, sql LIKE 'CREATE VIRTUAL%' FROM sqlite_master "
			      "WHERE type IN ('view', 'trigger') OR sql LIKE 'CREATE VIRTUAL%'",
			  &st, e))
		goto out;
	int r;
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0);
		const char *obj = (const char *)sqlite3_column_text(st, 1);
		bool virt = sqlite3_column_int(st, 2);
		if (!type || !obj || virt || strcmp(type, "trigger")) {
			errf(e, "%s: holds a %s named '%.40s', which no sysab database has; it was not written by "
				"sysab (or was altered): give a database sysab wrote",
			     name, virt ? "virtual table" : "view", obj && text_is_clean(obj, false) ? obj : "?");
			goto out;
		}
		strv_add(&trig, obj);
	}
	if (r != SQLITE_DONE) {
		store_fail(&t, "cannot read the list of tables", e);
		goto out;
	}
	sqlite3_finalize(st);
	st = NULL;
	for (size_t i = 0; i < trig.n; i++) {
		char *sql = sqlite3_mprintf("DROP TRIGGER \"%w\"", trig.v[i]); /* %w: a quoted identifier */
		int x = exec_sql(&t, sql, "cannot prepare the private copy", e);
		sqlite3_free(sql);
		if (x)
			goto out;
	}
	rc = 0;
out:
	sqlite3_finalize(st);
	strv_free(&trig);
	sqlite3_close(t.db); /* the last connection: the log is checkpointed into the copy */
	return rc;
}

/* STORE_COPY: see store.h. The source is never opened by SQLite: it is copied, with its
 * write-ahead log, into a private temporary directory, where SQLite applies the log (runs
 * that sit only in FILE-wal are read, also from a read-only mount) and a migration, if one
 * is needed, runs. */
static int open_copy(const char *path, struct store **out, struct err *e)
{
	struct stat sb;
	int v = 0;
	if (stat(path, &sb) != 0)
		return errf(e, "%s: %s; give the path of a sysab database", path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return errf(e, "%s: not a regular file; give the path of a sysab database", path);
	if (check_header(path, &sb, e))
		return -1;
	char *dir = NULL, *copy = NULL, *wal = xasprintf("%s-wal", path), *cwal = NULL;
	int rc = -1, lock = -1;
	if (tmpdir_create_held(&dir, &lock, e))
		goto out;
	copy = xasprintf("%s/copy.db", dir);
	cwal = xasprintf("%s-wal", copy);
	if (copy_file(path, copy, "a private copy to read", e) ||
	    (stat(wal, &sb) == 0 && S_ISREG(sb.st_mode) && copy_file(wal, cwal, "a private copy to read", e)) ||
	    copy_make_safe(copy, path, &v, e))
		goto out;
	if (v > store_schema_target()) {
		errf(e, "%s: written by a newer sysab (schema version %d, this one knows %d); import it with a newer sysab",
		     path, v, store_schema_target());
		goto out;
	}
	if (v <= 0) {
		errf(e, "%s: not a sysab database (no schema version); give a database written by sysab", path);
		goto out;
	}
	if (store_open(copy, v == store_schema_target() ? STORE_RO : STORE_RW, out, e)) {
		if (!strstr(e->msg, path))
			err_prefix(e, "%s", path);
		goto out;
	}
	sqlite3_progress_handler((*out)->db, 10000, copy_progress, NULL);
	free((*out)->path);
	(*out)->path = xstrdup(path); /* messages name the source */
	(*out)->tmpdir = dir;
	(*out)->tmpdir_lock = lock;
	dir = NULL;
	rc = 0;
out:
	if (dir)
		tmpdir_remove_held(dir, lock);
	free(dir);
	free(copy);
	free(cwal);
	free(wal);
	return rc;
}

/* The checks of the file before SQLite opens it, each with its own message: a link, not a
 * regular file, missing, a bad header, and for STORE_RW a directory or file that cannot be
 * written. *writable: whether to open it read-write. Returns 0 or -1 with e set. */
static int check_path(const char *path, enum store_mode mode, bool *writable, struct err *e)
{
	struct stat sb;
	if (lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
		return errf(e, "%s: a symbolic link; give --db the database file itself (a link in the last "
			       "component is refused, so nobody can redirect the database)",
			    path);
	bool exists = stat(path, &sb) == 0;
	if (exists && !S_ISREG(sb.st_mode))
		return errf(e, "%s: not a regular file; give --db a database file", path);
	if (!exists && mode != STORE_RW)
		return errf(e, "%s: no database here yet; run `sysab run` first or give --db the right file", path);
	if (exists && check_header(path, &sb, e))
		return -1;

	char *dir = xstrdup(path);
	char *d = dirname(dir);
	int rc = 0;
	if (mode == STORE_RW) {
		if (!exists && mkdir_p(d, 0755, e)) {
			char why[sizeof e->msg];
			snprintf(why, sizeof why, "%s", e->msg);
			rc = errf(e, "%s (for the database %s); give --db FILE or set SYSAB_DB to a writable place",
				  why, path);
		}
		if (!rc && access(d, W_OK) != 0)
			rc = errf(e, "%s: the directory %s is not writable (the database needs its journal there); "
				     "fix the permissions or use --db with another file",
				  path, d);
		if (!rc && exists && access(path, W_OK) != 0)
			rc = errf(e, "%s: the database is read-only; fix its permissions or use --db with another file",
				  path);
	}
	*writable = mode == STORE_RW || (mode == STORE_READ && access(d, W_OK) == 0 && access(path, W_OK) == 0);
	free(dir);
	return rc;
}

/* A database without a schema version (v == 0): new and empty (fine for STORE_RW), or
 * another program's. Read together with the version (one snapshot), so a concurrent sysab
 * creating the schema is not mistaken for another program; *v gets the version seen. */
static int check_unversioned(struct store *s, enum store_mode mode, int *v, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "SELECT user_version, (SELECT count(*) FROM sqlite_master) FROM pragma_user_version", &st,
			  e))
		return -1;
	int objects = -1;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		objects = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	if (*v == 0 && objects != 0)
		return errf(e, "%s: a SQLite database of another program (it has tables but no sysab schema version); "
			       "give --db a sysab database or a new file",
			    s->path);
	if (*v == 0 && mode != STORE_RW)
		return errf(e, "%s: an empty database with no runs yet; run `sysab run` first or give --db the right file",
			    s->path);
	return 0;
}

/* How long a statement waits for another process's lock, and, after a stop signal, how
 * long all statements together still wait (so that a short write by another sysab does not
 * lose the end of a stopped run, and a lock held for minutes does not delay the stop). */
#define STORE_BUSY_NS 60000000000ull
#define STORE_STOP_GRACE_NS 2000000000ull

/* A new database to WAL journaling. That needs the file to itself, and SQLite may answer
 * SQLITE_BUSY at once, without its busy handler, while another sysab creates the same new
 * database (three concurrent first runs: t_database); so retry for as long as a statement
 * would wait (STORE_BUSY_NS), or until a stop signal. */
static int switch_to_wal(struct store *s, struct err *e)
{
	uint64_t start = clock_raw_ns();
	for (;;) {
		int rc = sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
		if (rc == SQLITE_OK)
			return 0;
		if (rc != SQLITE_BUSY || sig_stop || clock_raw_ns() - start >= STORE_BUSY_NS)
			return store_fail(s, "cannot switch to WAL journaling", e);
		struct timespec ts = {.tv_nsec = 10000000L};
		nanosleep(&ts, NULL);
	}
}

/* The schema at version v made ready for mode: created or migrated for STORE_RW, else it
 * must be current. */
static int ready_schema(struct store *s, enum store_mode mode, int v, struct err *e)
{
	if (mode == STORE_RW) {
		if (v == 0 && switch_to_wal(s, e))
			return -1;
		if (migrate(s, v, e))
			return -1;
		return exec_sql(s, "PRAGMA synchronous=NORMAL", "cannot set synchronous mode", e);
	}
	if (v < store_schema_target() && v > 0)
		return errf(e, "%s: written by an older sysab (schema version %d); run any writing command such as "
			       "`sysab run` once to migrate it",
			    s->path, v);
	return 0;
}


/* SQLite's busy handler: 1 to try again after a short sleep (5 ms, growing to 100 ms), 0 to
 * give up with SQLITE_BUSY: after STORE_BUSY_NS of one wait, or once a stop signal has been
 * pending for STORE_STOP_GRACE_NS. The sleep ends early when a signal arrives. */
static int store_busy_wait(void *arg, int count)
{
	struct store *s = arg;
	uint64_t now = clock_raw_ns();
	if (count == 0)
		s->busy_since = now;
	if (sig_stop && !s->stop_deadline)
		s->stop_deadline = now + STORE_STOP_GRACE_NS;
	if (s->stop_deadline && now >= s->stop_deadline) {
		s->stop_gave_up = true;
		return 0;
	}
	if (now - s->busy_since >= STORE_BUSY_NS)
		return 0;
	struct timespec ts = {.tv_nsec = (count < 19 ? count + 1 : 20) * 5000000L};
	nanosleep(&ts, NULL);
	return 1;
}

/* The path as a SQLite URI with immutable=1: every byte but unreserved ones and '/'
 * percent-encoded (a path may hold '?', '#' or '%'). */
static char *immutable_uri(const char *path)
{
	struct sb b = {0};
	sb_add(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("/-._~", *p))
			sb_addf(&b, "%c", *p);
		else
			sb_addf(&b, "%%%02X", *p);
	}
	sb_add(&b, "?immutable=1");
	return b.s;
}

/* Open s->path into s->db with flags (immutable: as a URI with immutable=1). Returns 0 or
 * -1 with e set (s->db then still to be closed). */
static int open_db(struct store *s, int flags, bool immutable, struct err *e)
{
	char *opath = open_path(s->path);
	if (immutable) {
		char *u = immutable_uri(opath);
		free(opath);
		opath = u;
		flags |= SQLITE_OPEN_URI;
	}
	/* NOMUTEX: one connection is only ever used by one thread (workers are forked), so
	 * SQLite need not lock it around every call (a column read each, 5M in a large compare) */
	int orc = sqlite3_open_v2(opath, &s->db, flags | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_NOMUTEX, NULL);
	free(opath);
	if (orc != SQLITE_OK)
		return store_fail(s, "cannot open the database", e);
	sqlite3_extended_result_codes(s->db, 0);
	sqlite3_busy_handler(s->db, store_busy_wait, s);
	s->immutable = immutable;
	return 0;
}

/* A WAL database opened read-only needs its shared-memory index (FILE-shm): SQLite creates
 * it in the database's directory, so another user's database in a directory we cannot
 * write fails with "attempt to write a readonly database", and any database on a full disk
 * with "disk I/O error" (FILE-shm gets no pages). When its write-ahead log holds nothing, the
 * file alone is the whole database: open it again as immutable (a snapshot: writes from now
 * on are not seen; store_immutable and store_disk_full say so). Only for reading (mode
 * STORE_READ). Returns true when s was reopened so; else false with e as it was, or saying
 * what to do about the log. */
static bool read_only_fallback(struct store *s, enum store_mode mode, int flags, struct err *e)
{
	int code = sqlite3_errcode(s->db);
	bool denied = !s->writable && (flags & SQLITE_OPEN_READONLY) && (code == SQLITE_READONLY || code == SQLITE_CANTOPEN);
	bool full = mode == STORE_READ && (code == SQLITE_FULL || code == SQLITE_IOERR);
	if (!denied && !full)
		return false;
	if (full && has_wal(s->path)) {
		errf(e, "%s: cannot read the database: its write-ahead log (FILE-wal) holds changes, and reading them "
			"needs FILE-shm, which its full (or failing) disk cannot hold: free space and retry",
		     s->path);
		return false;
	}
	if (has_wal(s->path)) {
		errf(e, "%s: cannot read the database: its write-ahead log (FILE-wal) holds changes, and reading them "
			"needs FILE-shm, which cannot be created in a directory you cannot write; ask its owner to "
			"checkpoint it (sqlite3 FILE 'PRAGMA wal_checkpoint(TRUNCATE)') or copy FILE and FILE-wal "
			"together to a directory of yours",
		     s->path);
		return false;
	}
	sqlite3_close(s->db);
	s->db = NULL;
	struct err ignored;
	if (open_db(s, SQLITE_OPEN_READONLY, true, &ignored))
		return false;
	s->writable = false;
	s->full = full;
	return true;
}

int store_open(const char *path, enum store_mode mode, struct store **out, struct err *e)
{
	if (mode == STORE_COPY)
		return open_copy(path, out, e);
	bool writable;
	if (check_path(path, mode, &writable, e))
		return -1;

	struct store *s = xcalloc(1, sizeof *s);
	s->path = xstrdup(path);
	s->tmpdir_lock = -1;
	s->writable = writable;
	int flags = mode == STORE_RW ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
		    : writable       ? SQLITE_OPEN_READWRITE
				     : SQLITE_OPEN_READONLY;
	int v;
	if (open_db(s, flags, false, e))
		goto fail;
	if (user_version(s, &v, e)) {
		if (!read_only_fallback(s, mode, flags, e) || user_version(s, &v, e))
			goto fail;
	}
	struct stat id;
	if (stat(path, &id) == 0) {
		s->dev = id.st_dev;
		s->ino = id.st_ino;
	}
	if (v != 0 && check_sysab_tables(s, v, e))
		goto fail;
	if (v > store_schema_target()) {
		errf(e, "%s: written by a newer sysab (schema version %d, this one knows %d); use a newer sysab", path, v,
		     store_schema_target());
		goto fail;
	}
	if ((v == 0 && check_unversioned(s, mode, &v, e)) || ready_schema(s, mode, v, e) ||
	    exec_sql(s, "PRAGMA foreign_keys=ON", "cannot enable foreign keys", e))
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

int store_check_files(struct store *s, struct err *e)
{
	struct stat sb;
	const char *what = NULL;
	char *wal = xasprintf("%s-wal", s->path);
	if (s->lost)
		what = "was deleted or replaced";
	else if (stat(s->path, &sb) < 0 || sb.st_dev != s->dev || sb.st_ino != s->ino)
		what = "was deleted or replaced";
	else if (stat(wal, &sb) == 0 && !s->have_wal) {
		s->have_wal = true;
		s->wal_dev = sb.st_dev;
		s->wal_ino = sb.st_ino;
	} else if (s->have_wal && (stat(wal, &sb) < 0 || sb.st_dev != s->wal_dev || sb.st_ino != s->wal_ino))
		what = "has lost its write-ahead log (FILE-wal was deleted or replaced)";
	free(wal);
	if (!what)
		return 0;
	if (!s->lost) /* what this connection holds must not overwrite what others wrote since */
		sqlite3_db_config(s->db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	s->lost = true;
	return errf(e, "%s: the database %s while sysab was writing it; what this command wrote is not in the "
		       "file: check the file, and repeat the command",
		    s->path, what);
}

/* The lock file that tells run id live: beside the database, as every process that opens it sees it. */
static char *run_lock_name(const struct store *s, int64_t id)
{
	return xasprintf("%s-run%lld.lock", s->path, (long long)id);
}

/* Hold the lock of run id, being begun in the open transaction, so that no reader sees it
 * running without it. Where the lock file cannot be made (a read-only directory), the run is
 * recorded without: then its pid tells it live, as in older sysabs (docs/RELIABILITY.md). */
static void run_lock_take(struct store *s, int64_t id)
{
	if (!s->writable)
		return;
	struct err ignored;
	char *p = run_lock_name(s, id);
	int fd = live_lock_create(p, &ignored);
	if (fd < 0) {
		free(p);
		return;
	}
	s->run_locks = xgrow(s->run_locks, &s->run_locks_cap, s->nrun_locks + 1, sizeof *s->run_locks);
	s->run_locks[s->nrun_locks++] = (struct store_run_lock){fd, id, p};
}

/* Release the lock of run id (-1: every one held): remove its file, then let go. */
static void run_lock_release(struct store *s, int64_t id)
{
	for (size_t i = s->nrun_locks; i-- > 0;) {
		struct store_run_lock *l = &s->run_locks[i];
		if (id >= 0 && l->id != id)
			continue;
		unlink(l->path);
		close(l->fd);
		free(l->path);
		*l = s->run_locks[--s->nrun_locks];
	}
	if (id < 0) {
		free(s->run_locks);
		s->run_locks = NULL;
		s->run_locks_cap = 0;
	}
}

void store_close(struct store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < sizeof s->kept / sizeof s->kept[0]; i++)
		sqlite3_finalize(s->kept[i].st);
	sqlite3_finalize(s->summary_put);
	sqlite3_finalize(s->slot_put);
	sqlite3_finalize(s->sample_add);
	sqlite3_close(s->db);
	run_lock_release(s, -1);
	if (s->tmpdir)
		tmpdir_remove_held(s->tmpdir, s->tmpdir_lock);
	free(s->tmpdir);
	free(s->path);
	free(s);
}

const char *store_path(const struct store *s)
{
	return s->path;
}

bool store_immutable(const struct store *s)
{
	return s->immutable;
}

bool store_disk_full(const struct store *s)
{
	return s->full || sqlite3_errcode(s->db) == SQLITE_FULL;
}

bool store_writable(const struct store *s)
{
	return s->writable;
}

bool store_stopped_waiting(const struct store *s)
{
	return s->stop_gave_up;
}

int store_begin(struct store *s, struct err *e)
{
	if (exec_sql(s, "BEGIN IMMEDIATE", "cannot start a transaction", e))
		return -1;
	s->in_tx = 1;
	return 0;
}

int store_commit(struct store *s, struct err *e)
{
	s->in_tx = 0;
	if (exec_sql(s, "COMMIT", "cannot commit", e)) {
		s->full |= sqlite3_errcode(s->db) == SQLITE_FULL; /* the rollback clears the code */
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

void store_rollback(struct store *s)
{
	s->in_tx = 0;
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int store_snapshot_begin(struct store *s, bool *began, struct err *e)
{
	*began = false;
	if (s->in_tx || !sqlite3_get_autocommit(s->db))
		return 0;
	if (exec_sql(s, "BEGIN", "cannot start a read transaction", e))
		return -1;
	*began = true;
	return 0;
}

void store_snapshot_end(struct store *s, bool began)
{
	/* nothing was written: ending it cannot lose anything, and it must end (a writing
	 * command's next BEGIN IMMEDIATE would fail inside it) */
	if (began && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Run one statement that returns no rows. */
static int step_done(struct store *s, sqlite3_stmt *st, const char *what, struct err *e)
{
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, what, e);
	return 0;
}

/* Step a statement kept for reuse (s->slot_put, s->sample_add), then ready it for the next
 * use; the error is read before the reset. */
static int step_kept(struct store *s, sqlite3_stmt *st, const char *what, struct err *e)
{
	int rc = sqlite3_step(st);
	int r = rc == SQLITE_DONE ? 0 : store_fail(s, what, e);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return r;
}

/* The kept statement for the constant text sql (prepared on first use), ready to bind.
 * After use it goes back with sqlite3_reset (step_kept does that); store_close finalizes it. */
static int prepare_kept(struct store *s, const char *sql, sqlite3_stmt **st, struct err *e)
{
	size_t n = sizeof s->kept / sizeof s->kept[0], i;
	for (i = 0; i < n && s->kept[i].sql; i++)
		if (s->kept[i].sql == sql) {
			*st = s->kept[i].st;
			return 0;
		}
	if (i == n)
		abort(); /* more kept statements than room: a programming error */
	if (store_prepare(s, sql, st, e))
		return -1;
	s->kept[i].sql = sql;
	s->kept[i].st = *st;
	return 0;
}

static int get_or_insert_id(struct store *s, const char *select_sql, const char *insert_sql,
			    int (*bind)(sqlite3_stmt *, const struct store_host *, int64_t), const struct store_host *h,
			    int64_t extra, int64_t *id, struct err *e)
{
	sqlite3_stmt *st;
	if (prepare_kept(s, select_sql, &st, e))
		return -1;
	bind(st, h, extra);
	int rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc != SQLITE_DONE)
		return store_fail(s, "cannot look up the machine or boot", e);
	if (prepare_kept(s, insert_sql, &st, e))
		return -1;
	bind(st, h, extra);
	if (step_kept(s, st, "cannot record the machine or boot", e))
		return -1;
	*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

static int bind_machine(sqlite3_stmt *st, const struct store_host *h, int64_t unused)
{
	(void)unused;
	store_bind_text(st, 1, h->hostname);
	store_bind_text(st, 2, h->cpu_model);
	sqlite3_bind_int(st, 3, h->ncpus);
	sqlite3_bind_int64(st, 4, (int64_t)h->mem_bytes);
	return 0;
}

static int bind_boot(sqlite3_stmt *st, const struct store_host *h, int64_t machine)
{
	store_bind_text(st, 1, h->boot_id);
	if (sqlite3_bind_parameter_count(st) > 1) {
		sqlite3_bind_int64(st, 2, machine);
		store_bind_text(st, 3, h->kernel_release);
		store_bind_text(st, 4, h->kernel_version);
		sqlite3_bind_int64(st, 5, (int64_t)clock_wall_ns());
	}
	return 0;
}

static int put_kv(struct store *s, const char *table, int64_t run, const struct kvlist *l, struct err *e)
{
	if (!l)
		return 0;
	static const char label_sql[] = "INSERT OR REPLACE INTO label(run, key, value) VALUES(?, ?, ?)";
	static const char env_sql[] = "INSERT OR REPLACE INTO environment(run, key, value) VALUES(?, ?, ?)";
	sqlite3_stmt *st;
	if (prepare_kept(s, !strcmp(table, "label") ? label_sql : env_sql, &st, e))
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		sqlite3_bind_int64(st, 1, run);
		store_bind_text(st, 2, l->v[i].key);
		store_bind_text(st, 3, l->v[i].value);
		if (step_kept(s, st, "cannot record labels or environment", e))
			return -1;
	}
	return 0;
}

int store_run_begin(struct store *s, const struct store_run_new *r, int64_t *run_id, struct err *e)
{
	int own_tx = !s->in_tx;
	if (own_tx && store_begin(s, e))
		return -1;
	int64_t machine, boot;
	if (get_or_insert_id(s,
			     "SELECT id FROM machine WHERE hostname=? AND cpu_model=? AND ncpus=? AND mem_bytes=?",
			     "INSERT INTO machine(hostname, cpu_model, ncpus, mem_bytes) VALUES(?, ?, ?, ?)",
			     bind_machine, &r->host, 0, &machine, e))
		goto fail;
	if (get_or_insert_id(s, "SELECT id FROM boot WHERE boot_id=?",
			     "INSERT INTO boot(boot_id, machine, kernel_release, kernel_version, first_seen_ns) "
			     "VALUES(?, ?, ?, ?, ?)",
			     bind_boot, &r->host, machine, &boot, e))
		goto fail;
	sqlite3_stmt *st;
	if (prepare_kept(s,
			 "INSERT INTO run(boot, started_ns, status, source, seed, settings, pid, uuid) "
			 "VALUES(?, ?, ?, ?, ?, ?, ?, coalesce(?, lower(hex(randomblob(16)))))",
			 &st, e))
		goto fail;
	sqlite3_bind_int64(st, 1, boot);
	sqlite3_bind_int64(st, 2, (int64_t)r->started_ns);
	store_bind_text(st, 3, r->status);
	store_bind_text(st, 4, r->source);
	sqlite3_bind_int64(st, 5, (int64_t)r->seed);
	store_bind_text(st, 6, r->settings ? r->settings : "{}");
	sqlite3_bind_int64(st, 7, (int64_t)getpid());
	store_bind_text(st, 8, r->uuid);
	if (step_kept(s, st, "cannot record the run", e))
		goto fail;
	*run_id = sqlite3_last_insert_rowid(s->db);
	if (put_kv(s, "label", *run_id, r->labels, e) || put_kv(s, "environment", *run_id, r->env, e))
		goto fail;
	if (r->status && !strcmp(r->status, "running"))
		run_lock_take(s, *run_id);
	if (own_tx && store_commit(s, e)) {
		run_lock_release(s, *run_id);
		return -1;
	}
	return 0;
fail:
	if (own_tx)
		store_rollback(s);
	return -1;
}

int store_run_finish(struct store *s, int64_t run_id, const char *status, const char *reason,
		     double overhead_ns, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE run SET status=?, reason=?, finished_ns=?, overhead_ns=? WHERE id=?", &st, e))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, reason);
	sqlite3_bind_int64(st, 3, (int64_t)clock_wall_ns());
	if (overhead_ns >= 0)
		sqlite3_bind_double(st, 4, overhead_ns);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, run_id);
	if (step_done(s, st, "cannot finish the run", e))
		return -1;
	run_lock_release(s, run_id);
	return store_check_files(s, e);
}

int store_run_set_end(struct store *s, int64_t run_id, const char *status, const char *reason, uint64_t finished_ns,
		      double overhead_ns, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE run SET status=?, reason=?, finished_ns=?, overhead_ns=?, pid=NULL WHERE id=?", &st,
			  e))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, reason);
	if (finished_ns)
		sqlite3_bind_int64(st, 3, (int64_t)finished_ns);
	else
		sqlite3_bind_null(st, 3);
	if (overhead_ns >= 0)
		sqlite3_bind_double(st, 4, overhead_ns);
	else
		sqlite3_bind_null(st, 4);
	sqlite3_bind_int64(st, 5, run_id);
	if (step_done(s, st, "cannot record how the run ended", e))
		return -1;
	run_lock_release(s, run_id);
	return 0;
}

int store_run_env(struct store *s, int64_t run_id, const char *key, const char *value, struct err *e)
{
	struct kvlist l = {0};
	kv_add(&l, key, value);
	int rc = put_kv(s, "environment", run_id, &l, e);
	kv_free(&l);
	return rc;
}

int store_slot_put(struct store *s, int64_t run_id, const struct store_slot *x, struct err *e)
{
	if (!s->slot_put && store_prepare(s,
					  "INSERT OR REPLACE INTO slot(run, workload, copies, unit, latency, status, reason, "
					  "batch_ops, overhead_ns, checks) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
					  &s->slot_put, e))
		return -1;
	sqlite3_stmt *st = s->slot_put;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, x->workload);
	sqlite3_bind_int(st, 3, x->copies);
	store_bind_text(st, 4, x->unit ? x->unit : "op");
	sqlite3_bind_int(st, 5, x->latency);
	store_bind_text(st, 6, x->status);
	store_bind_text(st, 7, x->reason);
	sqlite3_bind_int64(st, 8, (int64_t)x->batch_ops);
	sqlite3_bind_double(st, 9, x->overhead_ns);
	store_bind_text(st, 10, x->checks);
	return step_kept(s, st, "cannot record a workload's outcome", e);
}

int store_sample_add(struct store *s, int64_t run_id, const struct store_sample *x, struct err *e)
{
	if (!s->sample_add &&
	    store_prepare(s,
			  "INSERT INTO sample(run, workload, copies, seq, round, ops, elapsed_ns, value, warmup, dropped) "
			  "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
			  &s->sample_add, e))
		return -1;
	sqlite3_stmt *st = s->sample_add;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, x->workload);
	sqlite3_bind_int(st, 3, x->copies);
	sqlite3_bind_int(st, 4, x->seq);
	sqlite3_bind_int(st, 5, x->round);
	sqlite3_bind_int64(st, 6, (int64_t)x->ops);
	sqlite3_bind_int64(st, 7, (int64_t)x->elapsed_ns);
	sqlite3_bind_double(st, 8, x->value);
	sqlite3_bind_int(st, 9, x->warmup);
	sqlite3_bind_int(st, 10, x->dropped);
	if (step_kept(s, st, "cannot record a sample", e))
		return -1;
	return s->writable ? store_check_files(s, e) : 0;
}

int store_samples_mark_warmup(struct store *s, int64_t run_id, const char *workload, int copies, int count,
			      struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, "UPDATE sample SET warmup = 1 WHERE run = ? AND workload = ? AND copies = ? AND seq < ?",
			  &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, workload);
	sqlite3_bind_int(st, 3, copies);
	sqlite3_bind_int(st, 4, count);
	return step_done(s, st, "cannot flag warm-up samples", e);
}

int store_reap_interrupted(struct store *s, const char *this_boot_id, struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s,
			  "SELECT run.id, run.pid, boot.boot_id FROM run JOIN boot ON boot.id = run.boot "
			  "WHERE run.status = 'running'",
			  &st, e))
		return -1;
	int64_t *ids = NULL;
	size_t n = 0, cap = 0;
	while (sqlite3_step(st) == SQLITE_ROW) {
		int64_t id = sqlite3_column_int64(st, 0);
		pid_t pid = (pid_t)sqlite3_column_int64(st, 1);
		const char *boot = (const char *)sqlite3_column_text(st, 2);
		char *lock = run_lock_name(s, id);
		/* another boot's run is dead whatever its lock file says; on this boot the lock its
		 * writer holds tells, seen alike from every PID namespace, else (none) its pid */
		bool gone = !boot || strcmp(boot, this_boot_id) != 0 || !live_owner_alive(lock, pid);
		free(lock);
		if (gone) {
			ids = xgrow(ids, &cap, n + 1, sizeof *ids);
			ids[n++] = id;
		}
	}
	sqlite3_finalize(st);
	int reaped = 0, rc = -1;
	if (n && store_prepare(s,
			       "UPDATE run SET status=?, reason=?, finished_ns=?, overhead_ns=NULL "
			       "WHERE id=? AND status='running'",
			       &st, e))
		goto out;
	for (size_t i = 0; i < n; i++) {
		/* only a run still running: its writer may have finished it since the look above */
		sqlite3_reset(st);
		store_bind_text(st, 1, store_run_status_word(STORE_RUN_INTERRUPTED));
		store_bind_text(st, 2, "the sysab process ended without finishing the run");
		sqlite3_bind_int64(st, 3, (int64_t)clock_wall_ns());
		sqlite3_bind_int64(st, 4, ids[i]);
		if (sqlite3_step(st) != SQLITE_DONE) {
			store_fail(s, "cannot mark a run interrupted", e);
			sqlite3_finalize(st);
			goto out;
		}
		int changed = sqlite3_changes(s->db);
		char *lock = run_lock_name(s, ids[i]);
		if (changed > 0 && live_lock_probe(lock) == LIVE_FREE)
			unlink(lock); /* its dead writer's */
		free(lock);
		reaped += changed;
	}
	if (n)
		sqlite3_finalize(st);
	rc = n && store_check_files(s, e) ? -1 : reaped;
out:
	free(ids);
	return rc;
}

/* Run one statement with an int64 and up to two texts bound; returns the changed rows or -1. */
static int exec_bound(struct store *s, const char *sql, int64_t id, const char *t1, const char *t2, const char *what,
		      struct err *e)
{
	sqlite3_stmt *st;
	if (store_prepare(s, sql, &st, e))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	if (t1)
		store_bind_text(st, 2, t1);
	if (t2)
		store_bind_text(st, 3, t2);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_fail(s, what, e);
	return sqlite3_changes(s->db);
}

int store_runs_delete(struct store *s, const int64_t *ids, size_t n, struct err *e)
{
	if (store_begin(s, e))
		return -1;
	for (size_t i = 0; i < n; i++) {
		int r = exec_bound(s, "DELETE FROM run WHERE id = ?", ids[i], NULL, NULL, "cannot remove a run", e);
		if (r == 0)
			errf(e, "run %lld does not exist; nothing was removed", (long long)ids[i]);
		if (r <= 0) {
			store_rollback(s);
			return -1;
		}
	}
	/* boots and machines that no run refers to any more go too: no orphans */
	if (exec_bound(s, "DELETE FROM boot WHERE ?1 = ?1 AND id NOT IN (SELECT boot FROM run)", 0, NULL, NULL,
		       "cannot remove unused boots", e) < 0 ||
	    exec_bound(s, "DELETE FROM machine WHERE ?1 = ?1 AND id NOT IN (SELECT machine FROM boot)", 0, NULL,
		       NULL, "cannot remove unused machines", e) < 0) {
		store_rollback(s);
		return -1;
	}
	return store_commit(s, e);
}

int store_run_relabel(struct store *s, int64_t id, const struct kvlist *set, struct err *e)
{
	for (size_t i = 0; i < set->n; i++) {
		const char *k = set->v[i].key, *v = set->v[i].value;
		int r = *v ? exec_bound(s, "INSERT OR REPLACE INTO label(run, key, value) VALUES(?1, ?2, ?3)", id, k, v,
					"cannot set a label", e)
			   : exec_bound(s, "DELETE FROM label WHERE run = ?1 AND key = ?2", id, k, NULL,
					"cannot remove a label", e);
		if (r < 0)
			return -1;
	}
	return 0;
}
