/* mm_dontneed.c - kernel.mm.dontneed: drop a page with MADV_DONTNEED, then fault it back. */
#include "workloads/util.h"

#include <stdlib.h>
#include <sys/mman.h>

struct dn {
	char *page;
};

static int dn_setup(struct wl_ctx *ctx)
{
	struct dn *d = malloc(sizeof *d);
	if (!d)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	d->page = mmap(NULL, (size_t)ctx->page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d->page == MAP_FAILED) {
		free(d);
		return wl_sys_fail(ctx, "mmap");
	}
	ctx->priv = d;
	return 0;
}

static int dn_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct dn *d = ctx->priv;
	size_t ps = (size_t)ctx->page_size;
	for (uint64_t i = 0; i < n; i++) {
		if (madvise(d->page, ps, MADV_DONTNEED) < 0)
			return wl_sys_fail(ctx, "madvise");
		*(volatile char *)d->page = 1;
	}
	return 0;
}

static void dn_teardown(struct wl_ctx *ctx)
{
	struct dn *d = ctx->priv;
	munmap(d->page, (size_t)ctx->page_size);
	free(d);
}

const struct workload wl_kernel_mm_dontneed = {
	.name = "kernel.mm.dontneed",
	.group = "kernel",
	.summary = "madvise(MADV_DONTNEED) one anonymous page, then write to it so it faults back in",
	.kernel_path = "madvise (zap page range, TLB flush, page free), anonymous page fault with zeroed page allocation",
	.unit = "drop+fault",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1)},
	.setup = dn_setup,
	.run = dn_run,
	.teardown = dn_teardown,
};
