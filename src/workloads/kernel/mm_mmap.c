/* mm_mmap.c - kernel.mm.mmap: map one anonymous page, touch it, unmap it. */
#include "workloads/util.h"

#include <sys/mman.h>

static int mmap_run(struct wl_ctx *ctx, uint64_t n)
{
	size_t ps = (size_t)ctx->page_size;
	for (uint64_t i = 0; i < n; i++) {
		char *p = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return wl_sys_fail(ctx, "mmap");
		*(volatile char *)p = 1;
		munmap(p, ps);
	}
	return 0;
}

const struct workload wl_kernel_mm_mmap = {
	.name = "kernel.mm.mmap",
	.group = "kernel",
	.summary = "mmap one anonymous page, write to it, munmap it",
	.kernel_path = "mmap (VMA allocation, maple tree insert), anonymous page fault, munmap (unmap, TLB flush, free)",
	.unit = "map+touch+unmap",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1)},
	.run = mmap_run,
};
