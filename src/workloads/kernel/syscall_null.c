/* syscall_null.c - kernel.syscall.null: getppid through syscall(2). */
#include "workloads/workload.h"

#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The parent's pid, kept in priv: every answer is compared with it, so a libc that
 * cached or emulated the call (no kernel entry) could not return the wrong thing unseen,
 * and a call that failed counts as no op. */
static int syscall_null_setup(struct wl_ctx *ctx)
{
	ctx->priv = (void *)(intptr_t)getppid();
	return 0;
}

static int syscall_null_run(struct wl_ctx *ctx, uint64_t n)
{
	long ppid = (long)(intptr_t)ctx->priv;
	uint64_t right = 0;
	for (uint64_t i = 0; i < n; i++)
		right += syscall(SYS_getppid) == ppid;
	ctx->count[0] += right;
	return 0;
}

const struct workload wl_kernel_syscall_null = {
	.name = "kernel.syscall.null",
	.group = "kernel",
	.summary = "getppid via syscall(2): the bare cost of entering and leaving the kernel",
	.kernel_path = "syscall entry/exit (entry code, syscall table dispatch, return path)",
	.unit = "syscall",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("answers naming the right parent per op", WL_M_COUNT0, 1, 1)},
	.setup = syscall_null_setup,
	.run = syscall_null_run,
};
