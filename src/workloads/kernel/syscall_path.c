/* syscall_path.c - kernel.syscall.stat and kernel.syscall.openclose: one-component lookups in the temp dir. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Both look up one name relative to an O_PATH descriptor of ctx->tmpdir, so the
 * path walk is one component long wherever the temp dir lives. */
struct target {
	int dirfd;
	char name[32];
	char *path; /* to unlink in teardown */
	ino_t ino;
};

static int target_setup(struct wl_ctx *ctx)
{
	struct target *t = calloc(1, sizeof *t);
	if (!t)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	snprintf(t->name, sizeof t->name, "path-target.%d", ctx->copy);
	int fd = wl_tmp_create(ctx, t->name, &t->path);
	if (fd < 0) {
		free(t);
		return fd;
	}
	struct stat st;
	fstat(fd, &st);
	t->ino = st.st_ino;
	close(fd);
	t->dirfd = open(ctx->tmpdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfd < 0) {
		int rc = wl_sys_fail(ctx, "open temp dir");
		unlink(t->path);
		free(t->path);
		free(t);
		return rc;
	}
	ctx->priv = t;
	return 0;
}

static void target_teardown(struct wl_ctx *ctx)
{
	struct target *t = ctx->priv;
	close(t->dirfd);
	unlink(t->path);
	free(t->path);
	free(t);
}

static int stat_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct target *t = ctx->priv;
	struct stat st;
	uint64_t found = 0;
	for (uint64_t i = 0; i < n; i++) {
		if (fstatat(t->dirfd, t->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
			return wl_sys_fail(ctx, "fstatat");
		found += st.st_ino == t->ino;
	}
	ctx->count[0] += found;
	return 0;
}

static int openclose_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct target *t = ctx->priv;
	uint64_t opened = 0;
	for (uint64_t i = 0; i < n; i++) {
		int fd = openat(t->dirfd, t->name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0)
			return wl_sys_fail(ctx, "openat");
		close(fd);
		opened++;
	}
	ctx->count[0] += opened;
	return 0;
}

const struct workload wl_kernel_syscall_stat = {
	.name = "kernel.syscall.stat",
	.group = "kernel",
	.summary = "fstatat(2) of one file name relative to a directory descriptor",
	.kernel_path = "syscall entry/exit, one-component path walk (dcache hit), getattr, copy of struct stat",
	.unit = "syscall",
	.flags = WL_LATENCY | WL_FS | WL_ENTRY,
	.checks = {WL_CHECK("stats of the right inode per op", WL_M_COUNT0, 1, 1)},
	.setup = target_setup,
	.run = stat_run,
	.teardown = target_teardown,
};

const struct workload wl_kernel_syscall_openclose = {
	.name = "kernel.syscall.openclose",
	.group = "kernel",
	.summary = "openat(2) of one file name read-only, then close(2)",
	.kernel_path = "two syscalls: path walk, struct file allocation and fd install, then fput and release",
	.unit = "open+close",
	.flags = WL_LATENCY | WL_FS | WL_ENTRY,
	.checks = {WL_CHECK("successful opens per op", WL_M_COUNT0, 1, 1)},
	.setup = target_setup,
	.run = openclose_run,
	.teardown = target_teardown,
};
