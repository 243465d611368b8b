/* sched_yield.c - kernel.sched.yield: sched_yield(2) in a loop. */
#include "../util.h"

#include <sched.h>

static int yield_run(struct wl_ctx *ctx, uint64_t n)
{
	(void)ctx;
	for (uint64_t i = 0; i < n; i++)
		sched_yield();
	return 0;
}

const struct workload wl_kernel_sched_yield = {
	.name = "kernel.sched.yield",
	.group = "kernel",
	.summary = "sched_yield(2); with nothing else runnable on the CPU it returns at once",
	.kernel_path = "syscall entry/exit, scheduler yield and pick of the next task (often the caller again)",
	.unit = "syscall",
	.flags = WL_LATENCY,
	.run = yield_run,
};
