/* syscall_read.c - kernel.syscall.read: read one byte from /dev/zero. */
#include "../util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct rd {
	int fd;
};

static int rd_setup(struct wl_ctx *ctx)
{
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? wl_fail(ctx, WL_UNSUPPORTED, "cannot open /dev/zero")
							  : wl_sys_fail(ctx, "open /dev/zero");
	struct rd *r = malloc(sizeof *r);
	if (!r) {
		close(fd);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	r->fd = fd;
	ctx->priv = r;
	return 0;
}

static int rd_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct rd *r = ctx->priv;
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

static void rd_teardown(struct wl_ctx *ctx)
{
	struct rd *r = ctx->priv;
	close(r->fd);
	free(r);
}

const struct workload wl_kernel_syscall_read = {
	.name = "kernel.syscall.read",
	.group = "kernel",
	.summary = "read(2) of one byte from /dev/zero",
	.kernel_path = "syscall entry/exit, fd lookup, vfs_read, /dev/zero read_iter (1-byte clear to user)",
	.unit = "syscall",
	.flags = WL_LATENCY,
	.checks = {{"bytes read per op", WL_M_COUNT0, 1, 1}},
	.setup = rd_setup,
	.run = rd_run,
	.teardown = rd_teardown,
};
