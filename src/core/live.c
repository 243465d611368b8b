/* live.c - liveness of a run's or a temporary directory's owner by an OFD lock, across PID namespaces. */
#include "live.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A lock of the given type on the whole file. */
static void whole(struct flock *l, short type)
{
	memset(l, 0, sizeof *l);
	l->l_type = type;
	l->l_whence = SEEK_SET;
}

int live_lock_create(const char *path, struct err *e)
{
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0644);
	if (fd < 0) {
		errf(e, "cannot create the lock file %s: %s", path, strerror(errno));
		return -1;
	}
	struct stat st;
	struct flock l;
	whole(&l, F_WRLCK);
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		errf(e, "cannot use the lock file %s: not a regular file; remove it", path);
		goto fail;
	}
	if (fcntl(fd, F_OFD_SETLK, &l) < 0) {
		errf(e, "cannot lock %s: %s", path, strerror(errno));
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return -1;
}

enum live_state live_lock_probe(const char *path)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return LIVE_NONE;
	enum live_state r = LIVE_NONE;
	struct stat st;
	struct flock l;
	whole(&l, F_WRLCK);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && fcntl(fd, F_OFD_GETLK, &l) == 0)
		r = l.l_type == F_UNLCK ? LIVE_FREE : LIVE_HELD;
	close(fd);
	return r;
}

bool live_pid_exists(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

bool live_owner_alive(const char *path, pid_t pid)
{
	switch (live_lock_probe(path)) {
	case LIVE_HELD:
		return true;
	case LIVE_FREE:
		return false;
	case LIVE_NONE:
		break;
	}
	return live_pid_exists(pid);
}
