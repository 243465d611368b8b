/* fs.c - unixbench.fstime, fsbuffer, fsdisk and their -r/-w variants: UnixBench's fstime read, write and copy loops, one param per variant. */
#include "workloads/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum fs_mode { FS_READ, FS_WRITE, FS_COPY };

/* One variant: a file of `kib` KiB (UnixBench's "maxblocks", counted in KiB
 * whatever the buffer size), read, written or copied `block` bytes at a time,
 * as UnixBench's fstime program does: reads rewind when they reach the end of
 * the file (a read returning 0), a copy rewinds both files then, and writes
 * rewind after kib KiB. One op is one KiB moved (for a copy: read and written). */
struct fs_params {
	const char *tag; /* "fstime", names the files */
	enum fs_mode mode;
	size_t block;
	size_t kib;
};


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

/* Create the files in ctx->tmpdir (unlinked at once, so nothing is left behind
 * whatever happens) and write the source file, for the variant ctx->param. */
static int fs_setup(struct wl_ctx *ctx)
{
	const struct fs_params *p = ctx->param;
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

/* Move n KiB. I/O happens in whole blocks; a block that overshoots n KiB is credited
 * to the next call, so totals are exact to within one block. count[0] gets the bytes. */
static int fs_run(struct wl_ctx *ctx, uint64_t n)
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

static void fs_teardown(struct wl_ctx *ctx)
{
	fs_free(ctx->priv);
}

/* Bytes moved per KiB op: 1024, give or take one block of credit spread over the ops.
 * Credit carries across sample boundaries, so a measured stretch that starts with the
 * credit an untimed warm-up left moves up to one block less than its ops asked for
 * (1023.995 bytes per op under qemu-user, whose batches are not multiples of 4 KiB). */
#define FS_CHECK WL_CHECK("bytes moved per op", WL_M_COUNT0, 1008, 1040)

/* The three variants of one UnixBench file test: -r, -w and the copy (with its index
 * baseline). ID names the descriptors, TAG the files and the UnixBench test. */
#define FS_FAMILY(ID, TAG, BLOCK, KIB, BASELINE)                                                                     \
	static const struct fs_params ID##_r = {TAG, FS_READ, BLOCK, KIB};                                             \
	static const struct fs_params ID##_w = {TAG, FS_WRITE, BLOCK, KIB};                                            \
	static const struct fs_params ID##_c = {TAG, FS_COPY, BLOCK, KIB};                                             \
	const struct workload wl_unixbench_##ID##_r = {                                                                \
		.name = "unixbench." TAG "-r",                                                                         \
		.group = "unixbench",                                                                                  \
		.summary = "read a " #KIB " KiB file in " #BLOCK "-byte blocks from the page cache, rewinding at the end", \
		.kernel_path = "read syscall, file read path, page cache lookup and copy to user (" #BLOCK "-byte reads)", \
		.unit = "KiB",                                                                                         \
		.unixbench = TAG "-r",                                                                                 \
		.flags = WL_FS,                                                                                        \
		.checks = {FS_CHECK},                                                                                  \
		.param = &ID##_r,                                                                                      \
		.setup = fs_setup,                                                                                     \
		.run = fs_run,                                                                                         \
		.teardown = fs_teardown,                                                                               \
	};                                                                                                             \
	const struct workload wl_unixbench_##ID##_w = {                                                                \
		.name = "unixbench." TAG "-w",                                                                         \
		.group = "unixbench",                                                                                  \
		.summary = "write a " #KIB " KiB file in " #BLOCK "-byte blocks, rewinding and overwriting at the end", \
		.kernel_path = "write syscall, file write path, page cache copy from user, dirtying (" #BLOCK "-byte writes)", \
		.unit = "KiB",                                                                                         \
		.unixbench = TAG "-w",                                                                                 \
		.flags = WL_FS,                                                                                        \
		.checks = {FS_CHECK},                                                                                  \
		.param = &ID##_w,                                                                                      \
		.setup = fs_setup,                                                                                     \
		.run = fs_run,                                                                                         \
		.teardown = fs_teardown,                                                                               \
	};                                                                                                             \
	const struct workload wl_unixbench_##ID = {                                                                    \
		.name = "unixbench." TAG,                                                                              \
		.group = "unixbench",                                                                                  \
		.summary = "copy a " #KIB " KiB file to another in " #BLOCK "-byte blocks (read then write), rewinding both at the end", \
		.kernel_path = "read and write syscalls, page cache read and dirtying write paths (" #BLOCK "-byte blocks)", \
		.unit = "KiB",                                                                                         \
		.unixbench = TAG,                                                                                      \
		.baseline = BASELINE,                                                                                  \
		.flags = WL_FS | WL_INDEX,                                                                             \
		.checks = {FS_CHECK},                                                                                  \
		.param = &ID##_c,                                                                                      \
		.setup = fs_setup,                                                                                     \
		.run = fs_run,                                                                                         \
		.teardown = fs_teardown,                                                                               \
	}

/* UnixBench's "File Copy 1024 bufsize 2000 maxblocks", "256 bufsize 500 maxblocks" and
 * "4096 bufsize 8000 maxblocks". */
FS_FAMILY(fstime, "fstime", 1024, 2000, 3960.0);
FS_FAMILY(fsbuffer, "fsbuffer", 256, 500, 1655.0);
FS_FAMILY(fsdisk, "fsdisk", 4096, 8000, 5800.0);
