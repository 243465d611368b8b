/* fault_anon.c - kernel.fault.anon: one minor page fault per op on fresh anonymous memory. */
#include "../util.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* Pages mapped at a time: enough that mmap/munmap cost is spread thin. */
#define CHUNK_PAGES 512

static int anon_run(struct wl_ctx *ctx, uint64_t n)
{
	long ps = ctx->page_size;
	size_t len = (size_t)CHUNK_PAGES * (size_t)ps;
	while (n > 0) {
		uint64_t pages = n < CHUNK_PAGES ? n : CHUNK_PAGES;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return wl_sys_fail(ctx, "mmap");
		madvise(p, len, MADV_NOHUGEPAGE);
		for (uint64_t i = 0; i < pages; i++)
			((volatile char *)p)[i * (uint64_t)ps] = 1;
		munmap(p, len);
		n -= pages;
	}
	return 0;
}

const struct workload wl_kernel_fault_anon = {
	.name = "kernel.fault.anon",
	.group = "kernel",
	.summary = "write one byte to each page of fresh anonymous memory (no THP)",
	.kernel_path = "page fault exception entry, anonymous fault handling, zeroed page allocation",
	.unit = "page fault",
	.flags = WL_LATENCY,
	.checks = {{"minor faults per op", WL_M_MINFLT, 0.9, 1.1}},
	.run = anon_run,
};
