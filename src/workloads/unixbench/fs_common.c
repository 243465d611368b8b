/* fs_common.c - the read, write and copy loops shared by unixbench.fstime, fsbuffer and fsdisk. */
#include "fs_common.h"
#include "../util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct fs_state {
	struct fs_params p;
	int src, dst;    /* src for read and copy, dst for write and copy; -1 when unused */
	size_t nblocks;  /* blocks in the file */
	size_t pos;      /* blocks written since the last rewind (write mode) */
	uint64_t credit; /* bytes moved beyond what the ops so far asked for */
	char *buf;
};

/* Create tmpdir/<tag>.<copy>.<what> and unlink it at once; the fd keeps it. */
static int fs_open(struct wl_ctx *ctx, const char *tag, const char *what)
{
	char name[64];
	snprintf(name, sizeof name, "%s.%d.%s", tag, ctx->copy, what);
	char *path;
	int fd = wl_tmp_create(ctx, name, &path);
	if (fd >= 0) {
		unlink(path);
		free(path);
	}
	return fd;
}

static void fs_free(struct fs_state *s)
{
	if (s->src >= 0)
		close(s->src);
	if (s->dst >= 0)
		close(s->dst);
	free(s->buf);
	free(s);
}

int fs_setup(struct wl_ctx *ctx, const struct fs_params *p)
{
	struct fs_state *s = calloc(1, sizeof *s);
	if (!s)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	s->p = *p;
	s->src = s->dst = -1;
	s->nblocks = p->kib * 1024 / p->block;
	s->buf = malloc(p->block);
	if (!s->buf) {
		free(s);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	for (size_t i = 0; i < p->block; i++)
		s->buf[i] = (char)('a' + i % 26);
	ctx->priv = s;
	int rc = 0;
	if (p->mode != FS_WRITE) {
		s->src = fs_open(ctx, p->tag, "src");
		if (s->src < 0) {
			rc = s->src;
			goto fail;
		}
		for (size_t b = 0; b < s->nblocks; b++)
			if (wl_write_all(s->src, s->buf, p->block) < 0) {
				rc = wl_sys_fail(ctx, "write source file");
				goto fail;
			}
		if (lseek(s->src, 0, SEEK_SET) < 0) {
			rc = wl_sys_fail(ctx, "lseek");
			goto fail;
		}
	}
	if (p->mode != FS_READ) {
		s->dst = fs_open(ctx, p->tag, "dst");
		if (s->dst < 0) {
			rc = s->dst;
			goto fail;
		}
	}
	return 0;
fail:
	fs_free(s);
	ctx->priv = NULL;
	return rc;
}

int fs_run(struct wl_ctx *ctx, uint64_t n)
{
	struct fs_state *s = ctx->priv;
	uint64_t owed = n * 1024, moved = 0;
	size_t bs = s->p.block;
	while (s->credit + moved < owed) {
		if (s->src >= 0) {
			ssize_t r = read(s->src, s->buf, bs);
			if (r == 0) { /* end of file: rewind, and the copy's output too */
				if (lseek(s->src, 0, SEEK_SET) < 0 || (s->dst >= 0 && lseek(s->dst, 0, SEEK_SET) < 0))
					return wl_sys_fail(ctx, "lseek");
				continue;
			}
			if (r != (ssize_t)bs)
				return r < 0 ? wl_sys_fail(ctx, "read")
					     : wl_fail(ctx, WL_ERROR, "short read of %zd bytes", r);
		}
		if (s->dst >= 0) {
			ssize_t w = write(s->dst, s->buf, bs);
			if (w != (ssize_t)bs)
				return w < 0 ? wl_sys_fail(ctx, "write")
					     : wl_fail(ctx, WL_NORESOURCE, "short write of %zd bytes (file system full?)", w);
			if (s->src < 0 && ++s->pos == s->nblocks) {
				if (lseek(s->dst, 0, SEEK_SET) < 0)
					return wl_sys_fail(ctx, "lseek");
				s->pos = 0;
			}
		}
		moved += bs;
	}
	s->credit = s->credit + moved - owed;
	ctx->count[0] += moved;
	return 0;
}

void fs_teardown(struct wl_ctx *ctx)
{
	fs_free(ctx->priv);
}
