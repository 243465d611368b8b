/* syscall.c - unixbench.syscall: UnixBench's default "mix" system call loop. */
#include "workloads/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Each copy dups its own descriptor, as UnixBench's copies each have their own. */
struct mix {
	int fd;
};

static int mix_setup(struct wl_ctx *ctx)
{
	int fd = dup(STDERR_FILENO);
	if (fd < 0)
		fd = dup(STDIN_FILENO);
	if (fd < 0)
		return wl_sys_fail(ctx, "dup");
	struct mix *m = malloc(sizeof *m);
	if (!m) {
		close(fd);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	m->fd = fd;
	ctx->priv = m;
	return 0;
}

static int mix_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct mix *m = ctx->priv;
	for (uint64_t i = 0; i < n; i++) {
		int d = dup(m->fd);
		if (d < 0)
			return wl_sys_fail(ctx, "dup");
		ctx->count[0] += close(d) == 0; /* the dup made a descriptor that close found */
		syscall(SYS_getpid);
		getuid();
		umask(022);
	}
	return 0;
}

static void mix_teardown(struct wl_ctx *ctx)
{
	struct mix *m = ctx->priv;
	close(m->fd);
	free(m);
}

const struct workload wl_unixbench_syscall = {
	.name = "unixbench.syscall",
	.group = "unixbench",
	.summary = "one loop of close(dup(fd)), getpid, getuid, umask (UnixBench's \"mix\")",
	.kernel_path = "syscall entry/exit plus the file table (dup/close) and credentials",
	.unit = "loop",
	.unixbench = "syscall",
	.baseline = 15000.0,
	.flags = WL_INDEX,
	.checks = {WL_CHECK("dup'd descriptors closed per op", WL_M_COUNT0, 1, 1)},
	.setup = mix_setup,
	.run = mix_run,
	.teardown = mix_teardown,
};
