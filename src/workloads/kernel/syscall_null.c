/* syscall_null.c - kernel.syscall.null: getppid through syscall(2). */
#include "../workload.h"

#include <sys/syscall.h>
#include <unistd.h>

static int syscall_null_run(struct wl_ctx *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}

const struct workload wl_kernel_syscall_null = {
	.name = "kernel.syscall.null",
	.group = "kernel",
	.summary = "getppid via syscall(2): the bare cost of entering and leaving the kernel",
	.kernel_path = "syscall entry/exit (entry code, syscall table dispatch, return path)",
	.unit = "syscall",
	.flags = WL_LATENCY,
	.run = syscall_null_run,
};
