/* tmp.c - private temporary directories and the stop flag. */
#include "tmp.h"
#include "live.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

volatile sig_atomic_t sig_stop;

static const char *tmp_base(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t == '/' ? t : "/tmp";
}

int tmpdir_create(char **path, struct err *e)
{
	char *tmpl = xasprintf("%s/" TMP_PREFIX "%ld.XXXXXX", tmp_base(), (long)getpid());
	if (!mkdtemp(tmpl)) {
		errf(e, "cannot create a temporary directory under %s: %s; set TMPDIR to a writable directory",
		     tmp_base(), strerror(errno));
		free(tmpl);
		return -1;
	}
	*path = tmpl;
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f)
{
	(void)st;
	(void)f;
	if (flag == FTW_DP)
		return rmdir(p) < 0 && errno != ENOENT ? 0 : 0;
	unlink(p);
	return 0;
}

int tmpdir_remove(const char *path)
{
	if (!path)
		return 0;
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
	return access(path, F_OK) == 0 ? -1 : 0;
}

int tmpdir_create_held(char **path, int *lock, struct err *e)
{
	*lock = -1;
	if (tmpdir_create(path, e))
		return -1;
	/* made as lock.new and renamed once held, so a visible lock is always a held one */
	char *fresh = xasprintf("%s/" TMP_LOCK ".new", *path), *name = xasprintf("%s/" TMP_LOCK, *path);
	int fd = live_lock_create(fresh, e);
	if (fd >= 0 && rename(fresh, name) < 0) {
		errf(e, "cannot rename %s: %s", fresh, strerror(errno));
		close(fd);
		fd = -1;
	}
	free(fresh);
	free(name);
	if (fd < 0) {
		tmpdir_remove(*path);
		free(*path);
		*path = NULL;
		return -1;
	}
	*lock = fd;
	return 0;
}

int tmpdir_remove_held(const char *path, int lock)
{
	int rc = tmpdir_remove(path);
	if (lock >= 0)
		close(lock);
	return rc;
}

/* Whether the directory p (named for pid, its status st) may belong to a live sysab. */
static bool tmpdir_live(const char *p, long pid, const struct stat *st)
{
	char *lock = xasprintf("%s/" TMP_LOCK, p);
	enum live_state s = live_lock_probe(lock);
	free(lock);
	if (s != LIVE_NONE)
		return s == LIVE_HELD;
	/* no lock: an older sysab's, or one between mkdtemp and its lock; its pid decides, and a
	 * young one is kept anyway, as its pid may be another PID namespace's */
	return live_pid_exists((pid_t)pid) || time(NULL) - st->st_mtime < TMP_YOUNG_S;
}

int tmpdir_reap_stale(void)
{
	DIR *d = opendir(tmp_base());
	if (!d)
		return 0;
	int removed = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (strncmp(de->d_name, TMP_PREFIX, strlen(TMP_PREFIX)))
			continue;
		char *end;
		long pid = strtol(de->d_name + strlen(TMP_PREFIX), &end, 10);
		if (*end != '.' || pid <= 0)
			continue;
		struct stat st;
		char *p = xasprintf("%s/%s", tmp_base(), de->d_name);
		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !tmpdir_live(p, pid, &st) &&
		    tmpdir_remove(p) == 0)
			removed++;
		free(p);
	}
	closedir(d);
	return removed;
}

static void on_stop(int sig)
{
	if (!sig_stop)
		sig_stop = sig;
}

void sig_install(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL); /* Ctrl-\: stop like Ctrl-C, no core, nothing left behind */
	sigaction(SIGXFSZ, &sa, NULL); /* the file size limit: the write fails with EFBIG instead */
	/* a command written to a worker that died fails with EPIPE rather than killing sysab */
	signal(SIGPIPE, SIG_IGN);
}
