/* ipi_membarrier.c - kernel.ipi.membarrier: MEMBARRIER_CMD_PRIVATE_EXPEDITED with a thread on another CPU. */
#include "../util.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* An expedited private membarrier interrupts only the CPUs that are running
 * this process's threads. So a partner thread spins on ctx->cpus[1] while the
 * caller, pinned to cpus[0], issues the barriers: each op sends one IPI and
 * waits for it to be acknowledged. */
struct mb {
	atomic_bool stop;
	atomic_bool running;
	pthread_t spinner;
	int cpu;
	struct wl_affinity aff;
};

static long mb_call(int cmd)
{
	return syscall(SYS_membarrier, cmd, 0, 0);
}

static void *mb_spin(void *arg)
{
	struct mb *m = arg;
	wl_pin_self(m->cpu);
	atomic_store(&m->running, true);
	while (!atomic_load_explicit(&m->stop, memory_order_relaxed))
		;
	return NULL;
}

static int mb_setup(struct wl_ctx *ctx)
{
	if (ctx->ncpus < 2)
		return wl_fail(ctx, WL_UNSUPPORTED, "needs two CPUs; this run may use %d", ctx->ncpus);
	long cmds = mb_call(MEMBARRIER_CMD_QUERY);
	if (cmds < 0 || !(cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
		return wl_fail(ctx, WL_UNSUPPORTED, "the kernel has no MEMBARRIER_CMD_PRIVATE_EXPEDITED");
	if (mb_call(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "membarrier register: %s", strerror(errno));
	struct mb *m = calloc(1, sizeof *m);
	if (!m)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	m->cpu = ctx->cpus[1];
	wl_affinity_save(&m->aff);
	if (wl_pin_self(ctx->cpus[0]) < 0) {
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
	while (!atomic_load(&m->running))
		sched_yield();
	ctx->priv = m;
	return 0;
}

static int mb_run(struct wl_ctx *ctx, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (mb_call(MEMBARRIER_CMD_PRIVATE_EXPEDITED) < 0)
			return wl_sys_fail(ctx, "membarrier");
	return 0;
}

static void mb_teardown(struct wl_ctx *ctx)
{
	struct mb *m = ctx->priv;
	atomic_store(&m->stop, true);
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
	.setup = mb_setup,
	.run = mb_run,
	.teardown = mb_teardown,
};
