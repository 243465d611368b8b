/* fault_anon.c - kernel.fault.anon: one minor page fault per op on fresh anonymous memory. */
#include "workloads/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* prepare maps the batch's n pages and finish unmaps them, both untimed (munmap was
 * about 15% of the op when it was timed); run writes one byte to each page. */
struct anon {
	char *p;
	size_t len;
};

static int anon_setup(struct wl_ctx *ctx)
{
	struct anon *a = calloc(1, sizeof *a);
	if (!a)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	ctx->priv = a;
	return 0;
}

static int anon_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct anon *a = ctx->priv;
	a->len = (size_t)(n ? n : 1) * (size_t)ctx->page_size;
	a->p = mmap(NULL, a->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (a->p == MAP_FAILED) {
		a->p = NULL;
		return wl_sys_fail(ctx, "mmap");
	}
	madvise(a->p, a->len, MADV_NOHUGEPAGE);
	return 0;
}

WL_TOUCH_UNCHECKED static int anon_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct anon *a = ctx->priv;
	uint64_t ps = (uint64_t)ctx->page_size;
	for (uint64_t i = 0; i < n; i++)
		((volatile char *)a->p)[i * ps] = 1;
	return 0;
}

static int anon_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct anon *a = ctx->priv;
	if (a->p)
		munmap(a->p, a->len);
	a->p = NULL;
	return 0;
}

static void anon_teardown(struct wl_ctx *ctx)
{
	anon_finish(ctx, 0);
	free(ctx->priv);
}

const struct workload wl_kernel_fault_anon = {
	.name = "kernel.fault.anon",
	.group = "kernel",
	.summary = "write one byte to each page of fresh anonymous memory (no THP)",
	.kernel_path = "page fault exception entry, anonymous fault handling, zeroed page allocation",
	.unit = "page fault",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1)},
	.max_batch = wl_fault_batch_cap,
	.setup = anon_setup,
	.prepare = anon_prepare,
	.run = anon_run,
	.finish = anon_finish,
	.teardown = anon_teardown,
};
