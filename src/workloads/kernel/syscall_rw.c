/* syscall_rw.c - kernel.syscall.read and kernel.syscall.write: one byte from /dev/zero, one byte to /dev/null. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct rw {
	int fd;
};

/* The descriptors' param: which device, opened how. */
struct rw_param {
	const char *dev;
	int flags;
};
static const struct rw_param rw_read = {"/dev/zero", O_RDONLY}, rw_write = {"/dev/null", O_WRONLY};

static int rw_setup(struct wl_ctx *ctx)
{
	const struct rw_param *p = ctx->param;
	const char *dev = p->dev;
	int flags = p->flags;
	int fd = open(dev, flags | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? wl_fail(ctx, WL_UNSUPPORTED, "cannot open %s", dev)
							  : wl_sys_fail(ctx, dev);
	struct rw *r = malloc(sizeof *r);
	if (!r) {
		close(fd);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	r->fd = fd;
	ctx->priv = r;
	return 0;
}

/* count[0] gets the bytes moved. */
static int read_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct rw *r = ctx->priv;
	char b;
	uint64_t bytes = 0;
	for (uint64_t i = 0; i < n; i++) {
		ssize_t got = read(r->fd, &b, 1);
		if (got < 0)
			return wl_sys_fail(ctx, "read /dev/zero");
		bytes += (uint64_t)got;
	}
	ctx->count[0] += bytes;
	return 0;
}

static int write_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct rw *r = ctx->priv;
	char b = 0;
	uint64_t bytes = 0;
	for (uint64_t i = 0; i < n; i++) {
		ssize_t put = write(r->fd, &b, 1);
		if (put < 0)
			return wl_sys_fail(ctx, "write /dev/null");
		bytes += (uint64_t)put;
	}
	ctx->count[0] += bytes;
	return 0;
}

static void rw_teardown(struct wl_ctx *ctx)
{
	struct rw *r = ctx->priv;
	close(r->fd);
	free(r);
}

const struct workload wl_kernel_syscall_read = {
	.name = "kernel.syscall.read",
	.group = "kernel",
	.summary = "read(2) of one byte from /dev/zero",
	.kernel_path = "syscall entry/exit, fd lookup, vfs_read, /dev/zero read_iter (1-byte clear to user)",
	.unit = "syscall",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("bytes read per op", WL_M_COUNT0, 1, 1)},
	.param = &rw_read,
	.setup = rw_setup,
	.run = read_run,
	.teardown = rw_teardown,
};

const struct workload wl_kernel_syscall_write = {
	.name = "kernel.syscall.write",
	.group = "kernel",
	.summary = "write(2) of one byte to /dev/null",
	.kernel_path = "syscall entry/exit, fd lookup, vfs_write, /dev/null write (discards)",
	.unit = "syscall",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("bytes written per op", WL_M_COUNT0, 1, 1)},
	.param = &rw_write,
	.setup = rw_setup,
	.run = write_run,
	.teardown = rw_teardown,
};
