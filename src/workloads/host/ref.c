/* ref.c - host.ref: the host-speed reference, a fixed user-space loop sampled in every round. */
#include "workloads/workload.h"

/* One op is 64 steps of a dependent integer chain (a multiply, an add and a rotate each) held
 * in registers: no system call, no memory access beyond the stack, no branch but the loop's.
 * Its speed is the speed of the CPU the run sits on at that moment (frequency, SMT sibling,
 * host steal), so the runner times it once per round beside the workloads and compare/analyze
 * --adjust host can take that common factor out of them (docs/METHOD.md, "Host-speed
 * adjustment"). It is not in the sysab index and not a compared row unless named. */
static int ref_run(struct wl_ctx *ctx, uint64_t n)
{
	uint64_t x = 0x2545f4914f6cdd1dull;
	for (uint64_t i = 0; i < n; i++)
		for (int k = 0; k < 64; k++) {
			x = x * 0x9e3779b97f4a7c15ull + (uint64_t)k;
			x = (x << 17) | (x >> 47);
			__asm__ volatile("" : "+r"(x)); /* keeps every step */
		}
	ctx->count[0] += n;
	return 0;
}

const struct workload wl_host_ref = {
	.name = "host.ref",
	.group = "host",
	.summary = "host-speed reference: a fixed register-only integer loop, one sample per round",
	.kernel_path = "none (user space only)",
	.unit = "loop",
	.flags = WL_LATENCY | WL_REFERENCE,
	.checks = {WL_CHECK("ops the batch asked for per op", WL_M_COUNT0, 1, 1)},
	.run = ref_run,
};
