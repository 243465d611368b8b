/* file.c - reading small files and creating directories. */
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *read_text_file(const char *path)
{
	struct err e;
	size_t len;
	char *s = read_whole_file(path, 1 << 20, &len, &e);
	if (!s)
		return NULL;
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' '))
		s[--len] = 0;
	return s;
}

char *read_whole_file(const char *path, size_t max, size_t *len, struct err *e)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		errf(e, "%s: cannot open: %s", path, strerror(errno));
		return NULL;
	}
	struct sb b = {0};
	char buf[65536];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			errf(e, "%s: cannot read: %s", path, strerror(errno));
			goto fail;
		}
		if (r == 0)
			break;
		if (b.len + (size_t)r > max) {
			errf(e, "%s: larger than %zu bytes; split it or check the file", path, max);
			goto fail;
		}
		sb_addn(&b, buf, (size_t)r);
	}
	close(fd);
	*len = b.len;
	if (!b.s)
		return xstrdup("");
	return b.s;
fail:
	close(fd);
	sb_free(&b);
	return NULL;
}

int mkdir_p(const char *path, unsigned mode, struct err *e)
{
	char *p = xstrdup(path);
	int rc = 0;
	for (char *s = p + 1;; s++) {
		if (*s == '/' || *s == 0) {
			char c = *s;
			*s = 0;
			if (mkdir(p, mode) < 0 && errno != EEXIST) {
				rc = errf(e, "%s: cannot create directory: %s", p, strerror(errno));
				break;
			}
			*s = c;
			if (!c)
				break;
		}
	}
	free(p);
	return rc;
}
