/* tlb_shootdown.c - kernel.tlb.shootdown: mmap, touch and munmap one page while a sibling thread runs on another CPU. */
#include "workloads/util.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* A sibling thread of the process spins on the copy's second CPU, so the mm is live
 * there: every munmap must invalidate that CPU's TLB. On x86 that is one IPI per op
 * (7.1 µs alone, 19.3 µs with the sibling on the reviewer's machine); arm64 broadcasts
 * the invalidation in hardware (TLBI ... IS) and sends no IPI. Each copy has its own
 * pair of CPUs. The sibling is woken before a batch (prepare) and sleeps between
 * batches. On x86 the check counts the function-call IPIs of the sibling's CPU per op:
 * a sibling that lost its CPU gets none (the lazy-TLB CPU is skipped); where
 * /proc/interrupts cannot tell, that check says it cannot be made. On every architecture
 * the sibling counts its own involuntary switches (getrusage RUSAGE_THREAD) while it
 * spins: another task on its CPU means the mm was not live there the whole time. */
enum { SD_IDLE, SD_SPIN, SD_STOP };
enum { SD_CHECK_IPIS = 1 }; /* the IPI check's index in .checks (x86) */

struct sd {
	atomic_int state;
	atomic_bool spinning;
	pthread_t sibling;
	int cpu;
	uint64_t ipi0;
	uint64_t nivcsw; /* the sibling's involuntary switches over its last spin (written before
			  * it clears spinning) */
	bool ipis;       /* IPIs can be counted */
	struct wl_affinity aff;
};

static void sd_wake(struct sd *s)
{
	syscall(SYS_futex, &s->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *sd_spin(void *arg)
{
	struct sd *s = arg;
	wl_pin_self(s->cpu);
	for (;;) {
		int st = atomic_load(&s->state);
		if (st == SD_STOP)
			return NULL;
		if (st == SD_IDLE) {
			syscall(SYS_futex, &s->state, FUTEX_WAIT_PRIVATE, SD_IDLE, NULL, NULL, 0);
			continue;
		}
		struct rusage r0, r1;
		getrusage(RUSAGE_THREAD, &r0);
		atomic_store(&s->spinning, true);
		while (atomic_load_explicit(&s->state, memory_order_relaxed) == SD_SPIN)
			;
		getrusage(RUSAGE_THREAD, &r1);
		s->nivcsw = (uint64_t)(r1.ru_nivcsw - r0.ru_nivcsw);
		atomic_store(&s->spinning, false);
	}
}

static int sd_setup(struct wl_ctx *ctx)
{
	int caller, partner;
	if (wl_cpu_pair(ctx, &caller, &partner) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "each copy needs its own two CPUs: %d copies need %d, this run may use %d",
			       ctx->ncopies, 2 * ctx->ncopies, ctx->ncpus);
	struct sd *s = calloc(1, sizeof *s);
	if (!s)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	s->cpu = partner;
	uint64_t v;
	s->ipis = wl_ipi_count(partner, &v) == 0;
#if defined(__x86_64__) || defined(__i386__)
	if (!s->ipis)
		wl_cannot_check(ctx, SD_CHECK_IPIS, "/proc/interrupts is unreadable or has no function-call line for CPU %d",
				partner);
#else
	/* no IPI check elsewhere: remote TLBs are flushed by broadcast instructions */
#endif
	wl_affinity_save(&s->aff);
	if (wl_pin_self(caller) < 0) {
		int rc = wl_sys_fail(ctx, "sched_setaffinity");
		free(s);
		return rc;
	}
	int err = pthread_create(&s->sibling, NULL, sd_spin, s);
	if (err) {
		wl_affinity_restore(&s->aff);
		free(s);
		return wl_fail(ctx, wl_errno_code(err), "pthread_create: %s", strerror(err));
	}
	ctx->priv = s;
	return 0;
}

static int sd_prepare(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct sd *s = ctx->priv;
	atomic_store(&s->state, SD_SPIN);
	sd_wake(s);
	while (!atomic_load(&s->spinning))
		;
	if (s->ipis && wl_ipi_count(s->cpu, &s->ipi0) < 0)
		s->ipis = false;
	return 0;
}

static int sd_run(struct wl_ctx *ctx, uint64_t n)
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

static int sd_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct sd *s = ctx->priv;
	uint64_t v;
	if (s->ipis && wl_ipi_count(s->cpu, &v) == 0)
		ctx->count[0] += v - s->ipi0;
	atomic_store(&s->state, SD_IDLE);
	while (atomic_load(&s->spinning)) /* until it has counted its switches */
		;
	ctx->count[1] += s->nivcsw;
	return 0;
}

static void sd_teardown(struct wl_ctx *ctx)
{
	struct sd *s = ctx->priv;
	atomic_store(&s->state, SD_STOP);
	sd_wake(s);
	pthread_join(s->sibling, NULL);
	wl_affinity_restore(&s->aff);
	free(s);
}

const struct workload wl_kernel_tlb_shootdown = {
	.name = "kernel.tlb.shootdown",
	.group = "kernel",
	.summary = "mmap, write and munmap one page while a sibling thread spins on a second CPU",
	.kernel_path = "mmap, anonymous fault, munmap with a remote TLB flush (an IPI on x86, broadcast TLBI on arm64)",
	.unit = "map-touch-unmap",
	.flags = WL_LATENCY | WL_NEEDS_2CPU,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0.9, 1.1),
#if defined(__x86_64__) || defined(__i386__)
		   {"function-call IPIs to the sibling's CPU per op", WL_M_COUNT0, 0.9, 3, true},
#else
	/* arm64 and others flush remote TLBs by broadcast instructions, not IPIs: no IPI check */
#endif
		   /* a few switches a second (a kernel thread's turn) are tolerated, as for membarrier */
		   {"involuntary switches of the sibling per second (another task took its CPU)", WL_M_COUNT1_PER_S, 0,
		    20, true},
	},
	.setup = sd_setup,
	.prepare = sd_prepare,
	.run = sd_run,
	.finish = sd_finish,
	.teardown = sd_teardown,
};
