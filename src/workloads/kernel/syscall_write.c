/* syscall_write.c - kernel.syscall.write: write one byte to /dev/null. */
#include "../util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

struct wr {
	int fd;
};

static int wr_setup(struct wl_ctx *ctx)
{
	int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? wl_fail(ctx, WL_UNSUPPORTED, "cannot open /dev/null")
							  : wl_sys_fail(ctx, "open /dev/null");
	struct wr *r = malloc(sizeof *r);
	if (!r) {
		close(fd);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	r->fd = fd;
	ctx->priv = r;
	return 0;
}

static int wr_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct wr *r = ctx->priv;
	char b = 0;
	uint64_t bytes = 0;
	for (uint64_t i = 0; i < n; i++) {
		ssize_t got = write(r->fd, &b, 1);
		if (got < 0)
			return wl_sys_fail(ctx, "write /dev/null");
		bytes += (uint64_t)got;
	}
	ctx->count[0] += bytes;
	return 0;
}

static void wr_teardown(struct wl_ctx *ctx)
{
	struct wr *r = ctx->priv;
	close(r->fd);
	free(r);
}

const struct workload wl_kernel_syscall_write = {
	.name = "kernel.syscall.write",
	.group = "kernel",
	.summary = "write(2) of one byte to /dev/null",
	.kernel_path = "syscall entry/exit, fd lookup, vfs_write, /dev/null write (discards)",
	.unit = "syscall",
	.flags = WL_LATENCY,
	.checks = {{"bytes written per op", WL_M_COUNT0, 1, 1}},
	.setup = wr_setup,
	.run = wr_run,
	.teardown = wr_teardown,
};
