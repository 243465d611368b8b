/* fault_zero.c - kernel.fault.zero: the minimal page fault, a read that maps the shared zero page. */
#include "workloads/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

/* prepare maps n fresh anonymous pages (no THP, so no huge zero page) and finish drops
 * them with MADV_DONTNEED and unmaps, both untimed; run reads one byte of each page.
 * A read fault on untouched anonymous memory maps the zero page: no allocation, no
 * zeroing, the smallest fault the kernel has (1.94 µs against 3.61 µs for the write
 * version on the reviewer's machine). The checks count the faults and the resident
 * pages the batch added: the zero page is not counted in RSS, a real page would be.
 * Some kernels have no zero page for this (a paravirtualised guest booted with
 * pvm_no_zero_page=1: a read fault allocates and zeroes a real page). There the op would
 * be kernel.fault.anon's, so setup probes first and reports unsupported. */
struct zf {
	char *p;
	size_t len;
	long rss0;
};

/* Resident anonymous pages of this process, from /proc/self/statm; -1 when unreadable. */
static long zf_rss(void)
{
	FILE *f = fopen("/proc/self/statm", "re");
	long size, res = -1;
	if (!f)
		return -1;
	if (fscanf(f, "%ld %ld", &size, &res) != 2)
		res = -1;
	fclose(f);
	return res;
}

/* Resident pages added by reading one byte of each of WL_ZERO_PROBE_PAGES fresh
 * anonymous pages (0 where reads map the zero page), or -1 when the probe cannot run. */
WL_TOUCH_UNCHECKED static long zf_probe(long page_size)
{
	size_t len = (size_t)WL_ZERO_PROBE_PAGES * (size_t)page_size;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	madvise(p, len, MADV_NOHUGEPAGE);
	long rss0 = zf_rss(), zeros = 0;
	for (size_t i = 0; i < WL_ZERO_PROBE_PAGES; i++)
		zeros += ((volatile char *)p)[i * (size_t)page_size] == 0;
	long rss1 = zf_rss();
	munmap(p, len);
	if (rss0 < 0 || rss1 < 0 || zeros != WL_ZERO_PROBE_PAGES)
		return -1;
	return rss1 > rss0 ? rss1 - rss0 : 0;
}

static int zf_setup(struct wl_ctx *ctx)
{
	if (zf_rss() < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "cannot read /proc/self/statm to check that the zero page was mapped");
	const struct wl_zero_param *param = ctx->param;
	long added = param && param->probe_added >= 0 ? param->probe_added : zf_probe(ctx->page_size);
	if (added < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "cannot probe whether read faults map the zero page");
	if (added > WL_ZERO_PROBE_PAGES / 2)
		return wl_fail(ctx, WL_UNSUPPORTED,
			       "read faults allocate pages on this kernel: no zero page (reading %d fresh pages added %ld "
			       "resident pages)",
			       WL_ZERO_PROBE_PAGES, added);
	struct zf *z = calloc(1, sizeof *z);
	if (!z)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	ctx->priv = z;
	return 0;
}

static int zf_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct zf *z = ctx->priv;
	z->len = (size_t)(n ? n : 1) * (size_t)ctx->page_size;
	z->p = mmap(NULL, z->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (z->p == MAP_FAILED) {
		z->p = NULL;
		return wl_sys_fail(ctx, "mmap");
	}
	madvise(z->p, z->len, MADV_NOHUGEPAGE);
	z->rss0 = zf_rss();
	return 0;
}

WL_TOUCH_UNCHECKED static int zf_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct zf *z = ctx->priv;
	uint64_t ps = (uint64_t)ctx->page_size, zeros = 0;
	for (uint64_t i = 0; i < n; i++)
		zeros += ((volatile char *)z->p)[i * ps] == 0;
	ctx->count[0] += zeros;
	return 0;
}

static int zf_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct zf *z = ctx->priv;
	if (!z->p)
		return 0;
	long rss = zf_rss();
	if (rss > z->rss0 && z->rss0 >= 0)
		ctx->count[1] += (uint64_t)(rss - z->rss0);
	madvise(z->p, z->len, MADV_DONTNEED);
	munmap(z->p, z->len);
	z->p = NULL;
	return 0;
}

static void zf_teardown(struct wl_ctx *ctx)
{
	zf_finish(ctx, 0);
	free(ctx->priv);
}

const struct workload wl_kernel_fault_zero = {
	.name = "kernel.fault.zero",
	.group = "kernel",
	.summary = "read one byte of each page of fresh anonymous memory: each read maps the shared zero page (no THP)",
	.kernel_path = "page fault exception entry, anonymous read fault, zero-page PTE install (no allocation)",
	.unit = "page fault",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1),
		   WL_CHECK("zero bytes read per op", WL_M_COUNT0, 1, 1),
		   /* a real page adds 1; other memory the process touches meanwhile adds a little */
		   WL_CHECK("resident pages added per op (0 for the zero page)", WL_M_COUNT1, 0, 0.5)},
	.max_batch = wl_fault_batch_cap,
	.setup = zf_setup,
	.prepare = zf_prepare,
	.run = zf_run,
	.finish = zf_finish,
	.teardown = zf_teardown,
};
