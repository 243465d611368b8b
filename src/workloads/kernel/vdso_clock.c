/* vdso_clock.c - kernel.vdso.clock: clock_gettime(CLOCK_MONOTONIC) through the vDSO. */
#include "../util.h"

#include <stdlib.h>
#include <sys/auxv.h>
#include <time.h>

struct vclk {
	int64_t last; /* the last reading, so the next run checks against it */
};

static int vclk_setup(struct wl_ctx *ctx)
{
	if (getauxval(AT_SYSINFO_EHDR) == 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "this process has no vDSO, so clock_gettime would be a syscall");
	struct vclk *v = calloc(1, sizeof *v);
	if (!v)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	ctx->priv = v;
	return 0;
}

/* count[0] counts the readings that did not go backwards. */
static int vclk_run(struct wl_ctx *ctx, uint64_t n)
{
	struct vclk *v = ctx->priv;
	int64_t last = v->last;
	uint64_t ordered = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct timespec ts;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		ordered += t >= last;
		last = t;
	}
	v->last = last;
	ctx->count[0] += ordered;
	return 0;
}

static void vclk_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
}

const struct workload wl_kernel_vdso_clock = {
	.name = "kernel.vdso.clock",
	.group = "kernel",
	.summary = "clock_gettime(CLOCK_MONOTONIC), answered in user space by the vDSO",
	.kernel_path = "none when the clocksource supports the vDSO: vDSO code reads the clocksource and the vvar page",
	.unit = "call",
	.flags = WL_LATENCY,
	.checks = {{"monotonic readings per op", WL_M_COUNT0, 1, 1}},
	.setup = vclk_setup,
	.run = vclk_run,
	.teardown = vclk_teardown,
};
