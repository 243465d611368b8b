/* itlb.c - kernel.itlb.null and kernel.itlb.control: a syscall between user code walks that evict the iTLB. */
#include "workloads/util.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* One physical page holds a tiny function (a stub) that returns its own address. A
 * memfd of that page is mapped ITLB_RING times, one virtual page per mapping, read and
 * execute, so every virtual page runs the same cached instructions through its own
 * page-table entry: the walk costs iTLB misses, not instruction-cache misses. One op of
 * kernel.itlb.null calls the next ITLB_WALK stubs of a fixed random order of the ring,
 * then makes one getppid syscall; kernel.itlb.control is the same walk without the
 * syscall, so syscall minus control is the syscall's cost when the iTLB holds none of
 * its entries. ITLB_WALK equals the largest first-level iTLB documented for 4 KiB pages
 * on x86_64, arm64, RISC-V and LoongArch cores (256 entries; most have 32 to 128), so each
 * walk replaces a first-level iTLB's entries; twice that cost 14 us per walk on a
 * nested-paging VM and hid the syscall in the walk's noise. The ring is larger than any
 * second-level TLB (about 3072 entries), so the walk's own entries do not stay resident.
 *
 * The stubs, little-endian instruction bytes per architecture:
 *   x86_64      lea rax, [rip - 7]; ret
 *   aarch64     adr x0, .; ret
 *   riscv64     auipc a0, 0; jalr x0, 0(ra)
 *   loongarch64 pcaddi $a0, 0; jirl $zero, $ra, 0
 * Elsewhere (and on big-endian arm64) the workloads report unsupported. */
#define ITLB_RING 4096u
#define ITLB_WALK 256u

#if defined(__x86_64__)
static const unsigned char itlb_stub[] = {0x48, 0x8d, 0x05, 0xf9, 0xff, 0xff, 0xff, 0xc3};
#define ITLB_ARCH_OK 1
#elif defined(__aarch64__) && !defined(__AARCH64EB__)
static const unsigned char itlb_stub[] = {0x00, 0x00, 0x00, 0x10, 0xc0, 0x03, 0x5f, 0xd6};
#define ITLB_ARCH_OK 1
#elif defined(__riscv) && __riscv_xlen == 64
static const unsigned char itlb_stub[] = {0x17, 0x05, 0x00, 0x00, 0x67, 0x80, 0x00, 0x00};
#define ITLB_ARCH_OK 1
#elif defined(__loongarch__) && __loongarch_grlen == 64
static const unsigned char itlb_stub[] = {0x04, 0x00, 0x00, 0x18, 0x20, 0x00, 0x00, 0x4c};
#define ITLB_ARCH_OK 1
#endif

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010u
#endif

typedef uintptr_t (*itlb_fn)(void);

struct itlb {
	char *map;       /* the reservation the aliases replace */
	size_t maplen;
	itlb_fn *order;  /* the ring's stubs in walk order */
	uintptr_t *want; /* the page each call of the walk is meant to run in */
	size_t cursor;   /* the next stub to call; carried from one op to the next */
	long ppid;
	int fd;
};

static void itlb_free(struct itlb *t)
{
	if (t->map)
		munmap(t->map, t->maplen);
	if (t->fd >= 0)
		close(t->fd);
	free(t->order);
	free(t->want);
	free(t);
}

#ifdef ITLB_ARCH_OK
/* The memfd holding one page with the stub at offset 0. Returns the fd or a WL_* code. */
static int itlb_stub_file(struct wl_ctx *ctx)
{
	int fd = memfd_create("sysab-itlb", MFD_CLOEXEC | MFD_EXEC);
	if (fd < 0 && errno == EINVAL) /* a kernel before 6.3 knows no MFD_EXEC */
		fd = memfd_create("sysab-itlb", MFD_CLOEXEC);
	if (fd < 0)
		return wl_errno_code(errno) == WL_NORESOURCE ? wl_sys_fail(ctx, "memfd_create")
							     : wl_fail(ctx, WL_UNSUPPORTED, "memfd_create: %s", strerror(errno));
	if (ftruncate(fd, ctx->page_size) < 0 ||
	    pwrite(fd, itlb_stub, sizeof itlb_stub, 0) != (ssize_t)sizeof itlb_stub) {
		int rc = wl_sys_fail(ctx, "writing the stub page");
		close(fd);
		return rc;
	}
	return fd;
}

/* Map the stub page at every page of t->map, make the icache see it, and call each stub
 * once (so no fault lands in run()). Returns 0 or a WL_* code with ctx->why filled. */
static int itlb_map_ring(struct wl_ctx *ctx, struct itlb *t)
{
	size_t ps = (size_t)ctx->page_size;
	for (size_t i = 0; i < ITLB_RING; i++) {
		char *p = t->map + i * ps;
		if (mmap(p, ps, PROT_READ | PROT_EXEC, MAP_SHARED | MAP_FIXED, t->fd, 0) == MAP_FAILED) {
			if (errno == EPERM || errno == EACCES)
				return wl_fail(ctx, WL_UNSUPPORTED, "executable mappings of a memfd are refused here: %s "
					       "(vm.memfd_noexec, a security module's execmem rule?)", strerror(errno));
			return errno == ENOMEM ? wl_fail(ctx, WL_NORESOURCE, "mapping %u aliases of the stub page: %s "
							 "(vm.max_map_count?)", ITLB_RING, strerror(errno))
					       : wl_sys_fail(ctx, "mmap stub alias");
		}
		__builtin___clear_cache(p, p + sizeof itlb_stub);
	}
	for (size_t i = 0; i < ITLB_RING; i++) {
		char *p = t->map + i * ps;
		itlb_fn f;
		memcpy(&f, &p, sizeof f);
		if (f() != (uintptr_t)p)
			return wl_fail(ctx, WL_ERROR, "the stub at %p did not return its own address", (void *)p);
	}
	return 0;
}

/* A fixed random order of the ring (Fisher-Yates, seeded by the copy), and the page each
 * call is meant to run in. With omit (tests only) every call goes to the first stub: a walk
 * that does not walk, which the check must catch. */
static void itlb_shuffle(struct itlb *t, long page_size, int copy, bool omit)
{
	uint64_t rng = 0x2545f4914f6cdd1dull ^ (uint64_t)copy;
	for (size_t i = 0; i < ITLB_RING; i++) {
		char *p = t->map + i * (size_t)page_size;
		memcpy(&t->order[i], &p, sizeof p);
	}
	for (size_t i = ITLB_RING - 1; i > 0; i--) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		size_t j = (size_t)((rng >> 33) % (i + 1));
		itlb_fn x = t->order[i];
		t->order[i] = t->order[j];
		t->order[j] = x;
	}
	for (size_t i = 0; i < ITLB_RING; i++) {
		memcpy(&t->want[i], &t->order[i], sizeof t->want[i]);
		if (omit)
			t->order[i] = t->order[0];
	}
}
#endif

static int itlb_setup(struct wl_ctx *ctx)
{
#ifndef ITLB_ARCH_OK
	return wl_fail(ctx, WL_UNSUPPORTED, "no stub that returns its own address is known for this architecture");
#else
	struct itlb *t = calloc(1, sizeof *t);
	if (!t)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	t->fd = -1;
	t->order = malloc(ITLB_RING * sizeof *t->order);
	t->want = malloc(ITLB_RING * sizeof *t->want);
	if (!t->order || !t->want) {
		itlb_free(t);
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	}
	int rc = t->fd = itlb_stub_file(ctx);
	if (rc < 0) {
		t->fd = -1;
		itlb_free(t);
		return rc;
	}
	t->maplen = ITLB_RING * (size_t)ctx->page_size;
	t->map = mmap(NULL, t->maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (t->map == MAP_FAILED) {
		t->map = NULL;
		rc = wl_sys_fail(ctx, "mmap stub ring reservation");
		itlb_free(t);
		return rc;
	}
	rc = itlb_map_ring(ctx, t);
	if (rc < 0) {
		itlb_free(t);
		return rc;
	}
	itlb_shuffle(t, ctx->page_size, ctx->copy, ctx->omit);
	t->ppid = getppid();
	ctx->priv = t;
	return 0;
#endif
}

/* Call the next ITLB_WALK stubs; returns how many answered from the page the walk meant. */
static inline uint64_t itlb_walk(struct itlb *t)
{
	uint64_t ok = 0;
	size_t c = t->cursor;
	for (unsigned i = 0; i < ITLB_WALK; i++) {
		itlb_fn f = t->order[c];
		ok += f() == t->want[c];
		c = c + 1 == ITLB_RING ? 0 : c + 1;
	}
	t->cursor = c;
	return ok;
}

/* count[0] gets the stubs that answered from their own page, count[1] the syscalls
 * that named the right parent. */
static int itlb_null_run(struct wl_ctx *ctx, uint64_t n)
{
	struct itlb *t = ctx->priv;
	uint64_t walked = 0, right = 0;
	for (uint64_t i = 0; i < n; i++) {
		walked += itlb_walk(t);
		right += syscall(SYS_getppid) == t->ppid;
	}
	ctx->count[0] += walked;
	ctx->count[1] += right;
	return 0;
}

static int itlb_control_run(struct wl_ctx *ctx, uint64_t n)
{
	struct itlb *t = ctx->priv;
	uint64_t walked = 0;
	for (uint64_t i = 0; i < n; i++)
		walked += itlb_walk(t);
	ctx->count[0] += walked;
	return 0;
}

static void itlb_teardown(struct wl_ctx *ctx)
{
	itlb_free(ctx->priv);
}

const struct workload wl_kernel_itlb_null = {
	.name = "kernel.itlb.null",
	.group = "kernel",
	.summary = "a getppid syscall after calls into 256 distinct code pages (aliases of one cached page) that evict the iTLB",
	.kernel_path = "syscall entry/exit with the iTLB holding none of the kernel's entries (text placement, "
		       "page size of kernel text); the walk's own iTLB misses",
	.unit = "walk + syscall",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("stub pages walked per op", WL_M_COUNT0, ITLB_WALK, ITLB_WALK),
		   WL_CHECK("syscalls naming the right parent per op", WL_M_COUNT1, 1, 1)},
	.setup = itlb_setup,
	.run = itlb_null_run,
	.teardown = itlb_teardown,
};

const struct workload wl_kernel_itlb_control = {
	.name = "kernel.itlb.control",
	.group = "kernel",
	.summary = "the kernel.itlb.null walk of 256 code pages without the syscall (itlb.null minus this is the syscall)",
	.kernel_path = "none: the control for kernel.itlb.null (user-space iTLB misses only)",
	.unit = "walk",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("stub pages walked per op", WL_M_COUNT0, ITLB_WALK, ITLB_WALK)},
	.setup = itlb_setup,
	.run = itlb_control_run,
	.teardown = itlb_teardown,
};
