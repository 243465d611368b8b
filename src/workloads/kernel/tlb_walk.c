/* tlb_walk.c - kernel.tlb.walk and kernel.tlb.walk-huge: dependent random loads, one per page, far beyond TLB reach. */
#include "../util.h"
#include "../../core/core.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define TLB_MIN_BYTES (64ul << 20)
#define TLB_MAX_BYTES (1ul << 30)
#define TLB_DEFAULT_BYTES (256ul << 20)

/* Parse a sysfs cache size ("32K", "8192K", "2M"), 0 when unreadable. */
static size_t cache_size(const char *path)
{
	char *s = read_text_file(path);
	if (!s)
		return 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	else if (*end == 'G')
		v <<= 30;
	free(s);
	return (size_t)v;
}

/* 8 times the largest cache of CPU 0 (so neither the TLBs nor the caches hold
 * the page table entries of the walk), at least 64 MiB, at most 1 GiB, and at
 * most an eighth of physical memory; 256 MiB when sysfs shows no caches.
 * Rounded to a multiple of 2 MiB and of the page size. */
size_t wl_tlb_walk_bytes(long page_size)
{
	size_t largest = 0;
	glob_t g;
	if (glob("/sys/devices/system/cpu/cpu0/cache/index*/size", 0, NULL, &g) == 0) {
		for (size_t i = 0; i < g.gl_pathc; i++) {
			size_t s = cache_size(g.gl_pathv[i]);
			if (s > largest)
				largest = s;
		}
		globfree(&g);
	}
	size_t bytes = largest ? 8 * largest : TLB_DEFAULT_BYTES;
	if (bytes < TLB_MIN_BYTES)
		bytes = TLB_MIN_BYTES;
	if (bytes > TLB_MAX_BYTES)
		bytes = TLB_MAX_BYTES;
	long phys = sysconf(_SC_PHYS_PAGES);
	if (phys > 0 && (size_t)phys / 8 * (size_t)page_size < bytes)
		bytes = (size_t)phys / 8 * (size_t)page_size;
	size_t unit = (size_t)page_size > (2ul << 20) ? (size_t)page_size : (2ul << 20);
	bytes = bytes / unit * unit;
	return bytes ? bytes : unit;
}

struct walk {
	char *map;     /* what mmap returned */
	size_t maplen;
	void **cursor; /* where the walk stands; carried from one run to the next */
};

/* The transparent huge page size, or 0 when THP is off or absent. */
static size_t thp_size(struct wl_ctx *ctx)
{
	char *mode = read_text_file("/sys/kernel/mm/transparent_hugepage/enabled");
	if (!mode) {
		wl_fail(ctx, WL_UNSUPPORTED, "this kernel has no transparent huge pages");
		return 0;
	}
	bool never = strstr(mode, "[never]") != NULL;
	free(mode);
	if (never) {
		wl_fail(ctx, WL_UNSUPPORTED, "transparent huge pages are disabled ([never] in /sys/kernel/mm/transparent_hugepage/enabled)");
		return 0;
	}
	char *s = read_text_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	size_t hp = s ? (size_t)strtoull(s, NULL, 10) : 0;
	free(s);
	return hp ? hp : 2ul << 20;
}

/* Map the buffer and link one slot per page into a single random cycle
 * (Sattolo's shuffle). Each page's slot sits at a pseudo-random cache line, so
 * the loads spread over cache sets. */
static int walk_setup_common(struct wl_ctx *ctx, bool huge)
{
	size_t ps = (size_t)ctx->page_size;
	size_t bytes = wl_tlb_walk_bytes(ctx->page_size);
	size_t align = ps;
	if (huge) {
		align = thp_size(ctx);
		if (!align)
			return WL_UNSUPPORTED;
	}
	struct walk *w = calloc(1, sizeof *w);
	if (!w)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	w->maplen = bytes + align;
	w->map = mmap(NULL, w->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w->map == MAP_FAILED) {
		free(w);
		return wl_sys_fail(ctx, "mmap walk buffer");
	}
	char *base = (char *)(((uintptr_t)w->map + align - 1) / align * align);
	madvise(base, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
	size_t pages = bytes / ps;
	uint32_t *order = malloc(pages * sizeof *order);
	if (!order) {
		munmap(w->map, w->maplen);
		free(w);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	uint64_t rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)ctx->copy;
	for (size_t i = 0; i < pages; i++)
		order[i] = (uint32_t)i;
	for (size_t i = pages - 1; i > 0; i--) { /* Sattolo: one cycle through all pages */
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		size_t j = (size_t)((rng >> 33) % i);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	size_t lines = ps / 64;
	for (size_t i = 0; i < pages; i++) {
		size_t a = order[i], b = order[(i + 1) % pages];
		void **slot_a = (void **)(base + a * ps + (a * 2654435761u % lines) * 64);
		void **slot_b = (void **)(base + b * ps + (b * 2654435761u % lines) * 64);
		*slot_a = slot_b;
	}
	/* Every page has been written once, so no fault happens inside run(). */
	w->cursor = (void **)(base + (size_t)order[0] * ps + ((size_t)order[0] * 2654435761u % lines) * 64);
	free(order);
	ctx->priv = w;
	return 0;
}

static int walk_setup(struct wl_ctx *ctx)
{
	return walk_setup_common(ctx, false);
}

static int walk_huge_setup(struct wl_ctx *ctx)
{
	return walk_setup_common(ctx, true);
}

static int walk_run(struct wl_ctx *ctx, uint64_t n)
{
	struct walk *w = ctx->priv;
	void **p = w->cursor;
	for (uint64_t i = 0; i < n; i++)
		p = (void **)*p;
	w->cursor = p;
	return 0;
}

static void walk_teardown(struct wl_ctx *ctx)
{
	struct walk *w = ctx->priv;
	munmap(w->map, w->maplen);
	free(w);
}

const struct workload wl_kernel_tlb_walk = {
	.name = "kernel.tlb.walk",
	.group = "kernel",
	.summary = "dependent loads in a random cycle, one per base page, over a buffer far beyond TLB reach (no THP)",
	.kernel_path = "none directly: hardware page-table walks over the tables the kernel built (page size, table layout)",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {{"minor faults per op", WL_M_MINFLT, 0, 0.01}},
	.setup = walk_setup,
	.run = walk_run,
	.teardown = walk_teardown,
};

const struct workload wl_kernel_tlb_walk_huge = {
	.name = "kernel.tlb.walk-huge",
	.group = "kernel",
	.summary = "the kernel.tlb.walk loads over the same size of buffer backed by transparent huge pages",
	.kernel_path = "none directly: hardware page-table walks over PMD-mapped THP (THP allocation in setup)",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {{"minor faults per op", WL_M_MINFLT, 0, 0.01}},
	.setup = walk_huge_setup,
	.run = walk_run,
	.teardown = walk_teardown,
};
