/* null.c - harness.null: an empty op, to measure the harness itself. */
#include "workloads/workload.h"

static int null_run(struct wl_ctx *ctx, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("" : "+r"(i)); /* keeps the loop, adds no work */
	ctx->count[0] += n; /* the runner hands every batch's n to run() */
	return 0;
}

const struct workload wl_harness_null = {
	.name = "harness.null",
	.group = "harness",
	.summary = "an empty op: the cost of sysab's own loop and timing",
	.kernel_path = "none (user space only)",
	.unit = "op",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("ops the batch asked for per op", WL_M_COUNT0, 1, 1)},
	.run = null_run,
};
