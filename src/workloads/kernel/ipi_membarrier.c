/* ipi_membarrier.c - kernel.ipi.membarrier: MEMBARRIER_CMD_PRIVATE_EXPEDITED with a thread on another CPU. */
#include "workloads/util.h"

#include <errno.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

/* An expedited private membarrier interrupts only the CPUs that are running
 * this process's threads. So a partner thread spins on one CPU while the
 * caller, pinned to another, issues the barriers: each op sends one IPI and
 * waits for it to be acknowledged. Each copy has its own pair of CPUs (more
 * copies than pairs are refused): a copy's caller on another copy's spinner
 * CPU would make barriers that send no IPI. The partner is woken before a
 * batch (prepare, untimed), spins only while run() works and sleeps on a
 * futex between batches, so it never steals a CPU from the other workloads of
 * a run. Two checks catch a spinner that lost its CPU (to a hog, say), when
 * barriers find no thread of the process there and send no IPI: the
 * function-call IPIs the spinner's CPU received per barrier (from
 * /proc/interrupts; "cannot check" where that has no such line), and the
 * spinner's own involuntary switches (getrusage RUSAGE_THREAD, taken by the
 * spinner as it starts and stops spinning) per second of run(). param (for
 * tests only) may point to a struct wl_mb_param. */
enum { MB_IDLE, MB_SPIN, MB_STOP };

struct mb {
	atomic_int state;    /* MB_*: what the partner should do; a futex word */
	atomic_bool spinning;/* the partner is on its CPU, spinning */
	uint64_t nivcsw;     /* the partner's involuntary switches over its last spin (written
			      * before it clears spinning) */
	pthread_t spinner;
	int cpu;
	const char *interrupts; /* /proc/interrupts, or the test's file */
	bool ipis;           /* the IPI check can be made: interrupts has the partner's count */
	uint64_t ipi0;       /* the spinner CPU's IPI count before the batch */
	struct wl_affinity aff;
};

static long mb_call(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

static void mb_wake(struct mb *m)
{
	syscall(SYS_futex, &m->state, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *mb_spin(void *arg)
{
	struct mb *m = arg;
	wl_pin_self(m->cpu);
	for (;;) {
		int s = atomic_load(&m->state);
		if (s == MB_STOP)
			return NULL;
		if (s == MB_IDLE) {
			syscall(SYS_futex, &m->state, FUTEX_WAIT_PRIVATE, MB_IDLE, NULL, NULL, 0);
			continue;
		}
		struct rusage r0, r1;
		getrusage(RUSAGE_THREAD, &r0);
		atomic_store(&m->spinning, true);
		while (atomic_load_explicit(&m->state, memory_order_relaxed) == MB_SPIN)
			;
		getrusage(RUSAGE_THREAD, &r1);
		m->nivcsw = (uint64_t)(r1.ru_nivcsw - r0.ru_nivcsw);
		atomic_store(&m->spinning, false);
	}
}

static int mb_setup(struct wl_ctx *ctx)
{
	int caller, partner;
	const struct wl_mb_param *p = ctx->param;
	const char *interrupts = p && p->interrupts ? p->interrupts : "/proc/interrupts";
	uint64_t ipis;
	if (wl_cpu_pair(ctx, &caller, &partner) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "each copy needs its own two CPUs: %d copies need %d, this run may use %d",
			       ctx->ncopies, 2 * ctx->ncopies, ctx->ncpus);
	bool counted = wl_ipi_count_at(interrupts, partner, &ipis) == 0;
	if (!counted)
		wl_cannot_check(ctx, 0, "%s is unreadable or has no function-call line for CPU %d", interrupts,
				partner);
	long cmds = mb_call(MEMBARRIER_CMD_QUERY);
	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return wl_fail(ctx, WL_UNSUPPORTED, "the kernel has no MEMBARRIER_CMD_PRIVATE_EXPEDITED");
	if (mb_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "membarrier register: %s", strerror(errno));
	struct mb *m = calloc(1, sizeof *m);
	if (!m)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	m->cpu = partner;
	m->interrupts = interrupts;
	m->ipis = counted;
	wl_affinity_save(&m->aff);
	if (wl_pin_self(caller) < 0) {
		int rc = wl_sys_fail(ctx, "sched_setaffinity");
		free(m);
		return rc;
	}
	int err = pthread_create(&m->spinner, NULL, mb_spin, m);
	if (err) {
		wl_affinity_restore(&m->aff);
		free(m);
		return wl_fail(ctx, wl_errno_code(err), "pthread_create: %s", strerror(err));
	}
	ctx->priv = m;
	return 0;
}

static int mb_prepare(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct mb *m = ctx->priv;
	/* wake the partner and wait until it runs on its CPU: only then do barriers IPI it */
	atomic_store(&m->state, MB_SPIN);
	mb_wake(m);
	while (!atomic_load(&m->spinning))
		;
	if (m->ipis && wl_ipi_count_at(m->interrupts, m->cpu, &m->ipi0) < 0)
		return wl_fail(ctx, WL_ERROR, "%s no longer has CPU %d's function-call IPIs", m->interrupts, m->cpu);
	return 0;
}

static int mb_run(struct wl_ctx *ctx, uint64_t n)
{
	int rc = 0;
	for (uint64_t i = 0; i < n && !rc; i++)
		if (mb_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED) < 0)
			rc = wl_sys_fail(ctx, "membarrier");
	return rc;
}

static int mb_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct mb *m = ctx->priv;
	uint64_t ipi1 = 0;
	int rc = m->ipis ? wl_ipi_count_at(m->interrupts, m->cpu, &ipi1) : 0;
	atomic_store(&m->state, MB_IDLE);
	while (atomic_load(&m->spinning)) /* until it has counted its switches */
		;
	ctx->count[1] += m->nivcsw;
	if (rc < 0)
		return wl_fail(ctx, WL_ERROR, "%s no longer has CPU %d's function-call IPIs", m->interrupts, m->cpu);
	if (m->ipis)
		ctx->count[0] += ipi1 - m->ipi0;
	return 0;
}

static void mb_teardown(struct wl_ctx *ctx)
{
	struct mb *m = ctx->priv;
	atomic_store(&m->state, MB_STOP);
	mb_wake(m);
	pthread_join(m->spinner, NULL);
	wl_affinity_restore(&m->aff);
	free(m);
}

const struct workload wl_kernel_ipi_membarrier = {
	.name = "kernel.ipi.membarrier",
	.group = "kernel",
	.summary = "membarrier(PRIVATE_EXPEDITED) while a thread of the process spins on a second CPU",
	.kernel_path = "membarrier syscall, smp_call_function_many: an IPI to the other CPU and the wait for it",
	.unit = "barrier",
	.flags = WL_LATENCY | WL_NEEDS_2CPU,
	/* other senders may add a few IPIs; a spinner off its CPU gets none for that time. A few
	 * switches a second (a kernel thread's turn on an otherwise idle CPU) are tolerated. */
	.checks = {{"function-call IPIs to the spinner's CPU per barrier", WL_M_COUNT0, 0.9, 3, true},
		   {"involuntary switches of the spinner per second (another task took its CPU)", WL_M_COUNT1_PER_S, 0,
		    20, true}},
	.setup = mb_setup,
	.prepare = mb_prepare,
	.run = mb_run,
	.finish = mb_finish,
	.teardown = mb_teardown,
};
