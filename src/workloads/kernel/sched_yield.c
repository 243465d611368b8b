/* sched_yield.c - kernel.sched.yield: sched_yield(2) in a loop, pinned to the copy's own CPU. */
#include "workloads/util.h"

#include <sched.h>

/* The op is meant to find nothing else runnable: with one competing task on the CPU a
 * yield becomes a full context switch and costs 300x as much. So the copy is pinned to
 * its own CPU (copies get distinct first CPUs), and the check counts involuntary
 * switches: a yield that handed the CPU to another task shows up as one. */
static int yield_run(struct wl_ctx *ctx, uint64_t n)
{
	uint64_t ok = 0;
	for (uint64_t i = 0; i < n; i++)
		ok += sched_yield() == 0;
	ctx->count[0] += ok;
	return 0;
}



const struct workload wl_kernel_sched_yield = {
	.name = "kernel.sched.yield",
	.group = "kernel",
	.summary = "sched_yield(2); with nothing else runnable on the CPU it returns at once",
	.kernel_path = "syscall entry/exit, scheduler yield and pick of the next task (often the caller again)",
	.unit = "syscall",
	.flags = WL_LATENCY | WL_PIN | WL_ENTRY,
	.checks = {WL_CHECK("successful yields per op", WL_M_COUNT0, 1, 1),
		   {"involuntary switches per op (another task took the CPU)", WL_M_NIVCSW, 0, 0.001, true}},
	.run = yield_run,
};
