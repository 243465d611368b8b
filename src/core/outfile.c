/* outfile.c - writing an output file (-o) whole or not at all, without following planted links. */
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open a fresh temporary file next to path, never one that exists already (a planted file or
 * symbolic link): mkostemps, O_CREAT | O_EXCL with an unpredictable name "PATH.XXXXXX.tmp"
 * (random bits from the C library, not a sequence anyone can compute, so planted names cannot
 * deny the write). Returns the fd and sets *tmp (owned by the caller), or -1 with errno set. */
static int open_temp(const char *path, char **tmp)
{
	char *name = xasprintf("%s.XXXXXX.tmp", path);
	int fd = mkostemps(name, 4, O_CLOEXEC); /* mode 0600 */
	if (fd < 0) {
		int saved = errno;
		free(name);
		errno = saved;
		return -1;
	}
	*tmp = name;
	return fd;
}

/* A stream over fd that keeps the cause of its first failed write: stdio's own errno is long
 * gone (or overwritten by whatever ran since) when the caller finally sees the failure, and a
 * flush that failed may even let fclose() report success. */
struct sink {
	int fd;
	int err; /* errno of the first failed write, 0 while every write succeeded */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
	struct sink *k = cookie;
	size_t done = 0;
	while (done < size) {
		ssize_t w = write(k->fd, buf + done, size - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!k->err)
				k->err = w < 0 ? errno : ENOSPC;
			return -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)size;
}

static int sink_close(void *cookie)
{
	struct sink *k = cookie;
	return close(k->fd);
}

/* Render into fd (which it closes, also on error), then fchmod it to mode when mode is not
 * (mode_t)-1. Returns 0, or -1 with e naming opt, path and the real cause. */
static int write_fd(int fd, const char *path, const char *opt, mode_t mode, int (*render)(FILE *, const void *),
		    const void *arg, struct err *e)
{
	struct sink k = {.fd = fd};
	FILE *f = fopencookie(&k, "w", (cookie_io_functions_t){.write = sink_write, .close = sink_close});
	if (!f) {
		int saved = errno;
		close(fd);
		return errf(e, "%s %s: cannot write it (%s)", opt, path, strerror(saved));
	}
	int cause = 0;
	errno = 0;
	if (render(f, arg) && !k.err)
		cause = errno ? errno : EIO; /* not a write: what the renderer left */
	if (!cause && !k.err && fflush(f) == 0 && mode != (mode_t)-1 && fchmod(fd, mode) < 0)
		cause = errno;
	if (fclose(f) && !cause && !k.err)
		cause = errno ? errno : EIO;
	if (k.err)
		cause = k.err;
	if (cause)
		return errf(e, "%s %s: cannot write it (%s)", opt, path, strerror(cause));
	return 0;
}

/* Write to a target that must not be replaced (a device, a FIFO, a symbolic link such as
 * /dev/stdout): opened as it is, never created, never renamed over; a regular file reached
 * through a link is truncated first, as a shell's '>' would. */
static int write_direct(const char *path, const char *opt, bool trunc, int (*render)(FILE *, const void *), const void *arg, struct err *e)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (trunc ? O_TRUNC : 0));
	if (fd < 0)
		return errf(e, "%s %s: cannot open it for writing (%s)", opt, path, strerror(errno));
	return write_fd(fd, path, opt, (mode_t)-1, render, arg, e);
}

int file_write_atomic(const char *path, const char *opt, int (*render)(FILE *, const void *), const void *arg,
		      struct err *e)
{
	struct stat ls, ts;
	mode_t mode;
	if (!*path)
		return errf(e, "%s: give a file name", opt);
	if (lstat(path, &ls) == 0) {
		bool link = S_ISLNK(ls.st_mode);
		if (link && stat(path, &ts) < 0)
			return errf(e, "%s %s: a symbolic link to nothing (%s); give a file name that is not a link",
				    opt, path, strerror(errno));
		const struct stat *t = link ? &ts : &ls;
		if (S_ISDIR(t->st_mode))
			return errf(e, "%s %s: a directory; give a file name", opt, path);
		if (S_ISCHR(t->st_mode) || S_ISFIFO(t->st_mode))
			return write_direct(path, opt, false, render, arg, e);
		if (!S_ISREG(t->st_mode))
			return errf(e, "%s %s: not a regular file, character device or FIFO; give a file name", opt, path);
		if (link)
			return write_direct(path, opt, true, render, arg, e);
		mode = ls.st_mode & 07777;
	} else if (errno == ENOENT) {
		mode_t um = umask(0);
		umask(um);
		mode = 0666 & ~um;
	} else {
		return errf(e, "%s %s: cannot look at it (%s)", opt, path, strerror(errno));
	}

	char *tmp = NULL;
	int fd = open_temp(path, &tmp);
	if (fd < 0)
		return errf(e, "%s %s: cannot create it (%s); check the directory exists and is writable", opt, path,
			    strerror(errno));
	int rc = write_fd(fd, path, opt, mode, render, arg, e);
	if (rc)
		goto out;
	if (rename(tmp, path) < 0)
		rc = errf(e, "%s %s: cannot rename the file into place (%s)", opt, path, strerror(errno));
out:
	if (rc)
		unlink(tmp);
	free(tmp);
	return rc;
}

/* path with its directory resolved (symbolic links, "..") and its last component as it is,
 * or a copy of path when the directory cannot be resolved. Owned by the caller. */
static char *resolve_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path + (slash == path)), path) : xstrdup(".");
	char *real = realpath(dir, NULL);
	free(dir);
	if (!real)
		return xstrdup(path);
	char *r = xasprintf("%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path);
	free(real);
	return r;
}

bool file_same(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char *ra = resolve_dir(a), *rb = resolve_dir(b);
	bool same = strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}
