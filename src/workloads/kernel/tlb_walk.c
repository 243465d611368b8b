/* tlb_walk.c - kernel.tlb.walk, its TLB-resident control, and kernel.tlb.walk-huge: dependent loads that need page walks. */
#include "workloads/util.h"
#include "core/core.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* kernel.tlb.walk maps a few physical pages at many virtual addresses: a memfd of K
 * pages is mapped V/K times side by side, so virtual page v shows physical page v mod K.
 * Each virtual page holds one 8-byte slot at offset (v / K) * 8 of its physical page,
 * and the slots form one random cycle. The data are V × 8 bytes, kept in a cache by
 * construction; the virtual pages are far more than any TLB holds, so every load
 * needs a page-table walk, whose leaf entries (V × 8 bytes too) also stay cached. The
 * earlier design (one cache line per page over 8 × the LLC) mostly timed a cache miss:
 * 4 MiB of data lines against 512 KiB of leaf entries.
 *
 * kernel.tlb.walk-control walks the same slots in the same order through one mapping
 * of the K pages (TLB-resident), so walk minus control is the walk itself.
 *
 * V: the number of slots that fit in half the L2 cache of CPU 0 (sysfs cache/index*
 * level 2, else sysconf(_SC_LEVEL2_CACHE_SIZE)), clamped to [TLB_MIN_PAGES, TLB_MAX_PAGES]; TLB_DEFAULT_PAGES when sysfs
 * shows no L2. The smallest is 8 × the largest second-level TLB documented for
 * x86_64, arm64, RISC-V or LoongArch cores (about 3072 entries). Nothing assumes a
 * page size: K = V / (page size / 8). */
#define TLB_MIN_PAGES 24576u
#define TLB_MAX_PAGES 65536u
#define TLB_DEFAULT_PAGES 32768u

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

/* The size of CPU 0's level-2 data or unified cache, 0 when sysfs does not show it. */
static size_t l2_size(void)
{
	size_t l2 = 0;
	glob_t g;
	bool have = glob("/sys/devices/system/cpu/cpu0/cache/index*", 0, NULL, &g) == 0;
	for (size_t i = 0; have && i < g.gl_pathc; i++) {
		char *lp = xasprintf("%s/level", g.gl_pathv[i]), *tp = xasprintf("%s/type", g.gl_pathv[i]);
		char *lv = read_text_file(lp), *ty = read_text_file(tp);
		if (lv && ty && atoi(lv) == 2 && strncmp(ty, "Instruction", 11) != 0) {
			char *sp = xasprintf("%s/size", g.gl_pathv[i]);
			l2 = cache_size(sp);
			free(sp);
		}
		free(lp), free(tp), free(lv), free(ty);
	}
	if (have)
		globfree(&g);
#ifdef _SC_LEVEL2_CACHE_SIZE
	if (!l2) { /* what getconf LEVEL2_CACHE_SIZE says, where the C library knows it */
		long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
		l2 = v > 0 ? (size_t)v : 0;
	}
#endif
	return l2;
}

/* The number of virtual pages V the walk uses, a multiple of the slots per page. */
static size_t walk_pages(long page_size)
{
	size_t l2 = l2_size();
	size_t v = l2 ? l2 / 2 / 8 : TLB_DEFAULT_PAGES;
	if (v < TLB_MIN_PAGES)
		v = TLB_MIN_PAGES;
	if (v > TLB_MAX_PAGES)
		v = TLB_MAX_PAGES;
	size_t per = (size_t)page_size / 8;
	return (v + per - 1) / per * per;
}

size_t wl_tlb_walk_bytes(long page_size)
{
	return walk_pages(page_size) * (size_t)page_size;
}

/* The anonymous buffer of kernel.tlb.walk-huge: 256 MiB, at most an eighth of memory,
 * a multiple of the huge page size. */
#define HUGE_BYTES (256ul << 20)

struct walk {
	char *map;     /* what mmap returned */
	size_t maplen;
	void **cursor; /* where the walk stands; carried from one run to the next */
	int fd;        /* the memfd of the alias design, -1 for walk-huge */
};

/* One random cycle (Sattolo's shuffle) through n items, seeded by copy. */
static uint32_t *walk_cycle(size_t n, int copy)
{
	uint32_t *order = malloc(n * sizeof *order);
	if (!order)
		return NULL;
	uint64_t rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)copy;
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t i = n - 1; i > 0; i--) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		size_t j = (size_t)((rng >> 33) % i);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	return order;
}

static void walk_free(struct walk *w)
{
	if (w->map && w->map != MAP_FAILED)
		munmap(w->map, w->maplen);
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}

/* The alias design; alias false maps the K pages once (the TLB-resident control). */
static int walk_alias_setup(struct wl_ctx *ctx, bool alias)
{
	size_t ps = (size_t)ctx->page_size, per = ps / 8;
	size_t v = walk_pages(ctx->page_size), k = v / per;
	struct walk *w = calloc(1, sizeof *w);
	if (!w)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	w->fd = memfd_create("sysab-tlb-walk", MFD_CLOEXEC);
	if (w->fd < 0) {
		int rc = wl_errno_code(errno) == WL_NORESOURCE ? wl_sys_fail(ctx, "memfd_create")
							       : wl_fail(ctx, WL_UNSUPPORTED, "memfd_create: %s", strerror(errno));
		free(w);
		return rc;
	}
	if (ftruncate(w->fd, (off_t)(k * ps)) < 0) {
		int rc = wl_sys_fail(ctx, "ftruncate memfd");
		walk_free(w);
		return rc;
	}
	size_t vpages = alias ? v : k;
	w->maplen = vpages * ps;
	w->map = mmap(NULL, w->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w->map == MAP_FAILED) {
		int rc = wl_sys_fail(ctx, "mmap walk reservation");
		w->map = NULL;
		walk_free(w);
		return rc;
	}
	for (size_t c = 0; c < vpages / k; c++)
		if (mmap(w->map + c * k * ps, k * ps, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, w->fd, 0) ==
		    MAP_FAILED) {
			int rc = errno == ENOMEM ? wl_fail(ctx, WL_NORESOURCE,
							   "mapping %zu aliases of the walk pages: %s (vm.max_map_count?)",
							   vpages / k, strerror(errno))
						 : wl_sys_fail(ctx, "mmap walk alias");
			walk_free(w);
			return rc;
		}
	madvise(w->map, w->maplen, MADV_NOHUGEPAGE);
	uint32_t *order = walk_cycle(v, ctx->copy);
	if (!order) {
		walk_free(w);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	/* slot i: physical page i mod k at offset (i / k) * 8; through virtual page i when
	 * aliased, through virtual page i mod k in the control */
#define SLOT(i) ((void **)(w->map + ((alias ? (i) : (i) % k) * ps) + ((i) / k) * 8))
	for (size_t i = 0; i < v; i++)
		*SLOT(order[i]) = SLOT(order[(i + 1) % v]);
	w->cursor = SLOT(order[0]);
#undef SLOT
	free(order);
	/* Every virtual page has been written once, so no fault happens inside run(). */
	ctx->priv = w;
	return 0;
}

static int walk_setup(struct wl_ctx *ctx)
{
	return walk_alias_setup(ctx, true);
}

static int walk_control_setup(struct wl_ctx *ctx)
{
	return walk_alias_setup(ctx, false);
}

/* The transparent huge page size, or 0 when THP is off or absent. */
static size_t thp_size(struct wl_ctx *ctx)
{
	const struct wl_tlb_param *p = ctx->param;
	char *mode = p && p->thp_enabled ? xstrdup(p->thp_enabled)
					 : read_text_file("/sys/kernel/mm/transparent_hugepage/enabled");
	if (!mode) {
		wl_fail(ctx, WL_UNSUPPORTED, "no huge pages: this kernel has no transparent huge pages");
		return 0;
	}
	bool never = strstr(mode, "[never]") != NULL;
	free(mode);
	if (never) {
		wl_fail(ctx, WL_UNSUPPORTED,
			"no huge pages: transparent huge pages are disabled ([never] in /sys/kernel/mm/transparent_hugepage/enabled)");
		return 0;
	}
	char *s = read_text_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
	size_t hp = s ? (size_t)strtoull(s, NULL, 10) : 0;
	free(s);
	return hp ? hp : 2ul << 20;
}

/* KiB of AnonHugePages in the mapping that contains addr, from /proc/self/smaps; -1
 * when it cannot be read. */
static long anon_huge_kb(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	if (!f)
		return -1;
	char line[512];
	bool in = false;
	long kb = -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' ')) {
			if (in)
				break;
			in = (uintptr_t)addr >= lo && (uintptr_t)addr < hi;
			continue;
		}
		if (in && sscanf(line, "AnonHugePages: %ld kB", &kb) == 1)
			break;
	}
	fclose(f);
	return kb;
}

/* walk-huge: one slot per base page at a pseudo-random line, over an anonymous buffer
 * that must really be backed by huge pages (checked in smaps). */
static int walk_huge_setup(struct wl_ctx *ctx)
{
	size_t ps = (size_t)ctx->page_size;
	size_t align = thp_size(ctx);
	if (!align)
		return WL_UNSUPPORTED;
	size_t bytes = HUGE_BYTES;
	long phys = sysconf(_SC_PHYS_PAGES);
	if (phys > 0 && (size_t)phys / 8 * ps < bytes)
		bytes = (size_t)phys / 8 * ps;
	bytes = bytes / align * align;
	if (!bytes)
		return wl_fail(ctx, WL_UNSUPPORTED, "no huge pages: memory is too small for a %zu-byte huge page buffer", align);
	struct walk *w = calloc(1, sizeof *w);
	if (!w)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	w->fd = -1;
	w->maplen = bytes + align;
	w->map = mmap(NULL, w->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (w->map == MAP_FAILED) {
		w->map = NULL;
		walk_free(w);
		return wl_sys_fail(ctx, "mmap walk buffer");
	}
	char *base = (char *)(((uintptr_t)w->map + align - 1) / align * align);
	madvise(base, bytes, MADV_HUGEPAGE);
	size_t pages = bytes / ps;
	uint32_t *order = walk_cycle(pages, ctx->copy);
	if (!order) {
		walk_free(w);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	size_t lines = ps / 64;
	for (size_t i = 0; i < pages; i++) {
		size_t a = order[i], b = order[(i + 1) % pages];
		void **slot_a = (void **)(base + a * ps + (a * 2654435761u % lines) * 64);
		void **slot_b = (void **)(base + b * ps + (b * 2654435761u % lines) * 64);
		*slot_a = slot_b;
	}
	w->cursor = (void **)(base + (size_t)order[0] * ps + ((size_t)order[0] * 2654435761u % lines) * 64);
	free(order);
	const struct wl_tlb_param *p = ctx->param;
	long kb = p && p->anon_huge_kb >= 0 && p->thp_enabled ? p->anon_huge_kb : anon_huge_kb(base);
	if (kb < 0 || (size_t)kb * 1024 < bytes / 2) {
		walk_free(w);
		if (kb < 0)
			return wl_fail(ctx, WL_UNSUPPORTED, "no huge pages: cannot read AnonHugePages in /proc/self/smaps");
		return wl_fail(ctx, WL_UNSUPPORTED,
			       "no huge pages: only %ld KiB of the %zu KiB buffer are huge pages (AnonHugePages in smaps)",
			       kb, bytes >> 10);
	}
	ctx->priv = w;
	return 0;
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
	walk_free(ctx->priv);
}

const struct workload wl_kernel_tlb_walk = {
	.name = "kernel.tlb.walk",
	.group = "kernel",
	.summary = "dependent loads, one per virtual page, over far more pages than the TLB holds, all aliasing a few cached physical pages",
	.kernel_path = "none directly: hardware page-table walks over the tables the kernel built (page size, table layout)",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0, 0.01)},
	.setup = walk_setup,
	.run = walk_run,
	.teardown = walk_teardown,
};

const struct workload wl_kernel_tlb_walk_huge = {
	.name = "kernel.tlb.walk-huge",
	.group = "kernel",
	.summary = "dependent loads, one per base page, over a 256 MiB buffer verified to be backed by transparent huge pages",
	.kernel_path = "none directly: hardware page-table walks over PMD-mapped THP (THP allocation in setup)",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0, 0.01)},
	.setup = walk_huge_setup,
	.run = walk_run,
	.teardown = walk_teardown,
};

const struct workload wl_kernel_tlb_walk_control = {
	.name = "kernel.tlb.walk-control",
	.group = "kernel",
	.summary = "the kernel.tlb.walk loads over the same physical slots through one mapping that stays in the TLB",
	.kernel_path = "none: the control for kernel.tlb.walk (walk minus control is the page-table walk)",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0, 0.01)},
	.setup = walk_control_setup,
	.run = walk_run,
	.teardown = walk_teardown,
};
