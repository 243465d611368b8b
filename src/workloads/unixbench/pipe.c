/* pipe.c - unixbench.pipe: write 512 bytes to a pipe and read them back, one process. */
#include "workloads/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PIPE_BYTES 512

struct pipe_state {
	int fd[2];
	char buf[PIPE_BYTES];
};

static int pipe_setup(struct wl_ctx *ctx)
{
	struct pipe_state *p = calloc(1, sizeof *p);
	if (!p)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	if (pipe(p->fd) < 0) {
		int rc = wl_sys_fail(ctx, "pipe");
		free(p);
		return rc;
	}
	ctx->priv = p;
	return 0;
}

static int pipe_run(struct wl_ctx *ctx, uint64_t n)
{
	struct pipe_state *p = ctx->priv;
	for (uint64_t i = 0; i < n; i++) {
		if (write(p->fd[1], p->buf, PIPE_BYTES) != PIPE_BYTES)
			return wl_fail(ctx, WL_ERROR, "pipe write: %s", strerror(errno));
		if (read(p->fd[0], p->buf, PIPE_BYTES) != PIPE_BYTES)
			return wl_fail(ctx, WL_ERROR, "pipe read: %s", strerror(errno));
		ctx->count[0] += PIPE_BYTES;
	}
	return 0;
}

static void pipe_teardown(struct wl_ctx *ctx)
{
	struct pipe_state *p = ctx->priv;
	close(p->fd[0]);
	close(p->fd[1]);
	free(p);
}

const struct workload wl_unixbench_pipe = {
	.name = "unixbench.pipe",
	.group = "unixbench",
	.summary = "write 512 bytes to a pipe and read them back, in one process",
	.kernel_path = "pipe_write/pipe_read, page-cache-less copy to and from user space",
	.unit = "loop",
	.unixbench = "pipe",
	.baseline = 12440.0,
	.flags = WL_INDEX,
	.checks = {WL_CHECK("bytes read per op", WL_M_COUNT0, PIPE_BYTES, PIPE_BYTES)},
	.setup = pipe_setup,
	.run = pipe_run,
	.teardown = pipe_teardown,
};
