/* futex_pingpong.c - kernel.futex.pingpong: two threads hand a futex word back and forth. */
#include "workloads/util.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The word is 0 when it is the caller's turn and 1 when it is the partner's;
 * 2 tells the partner to stop. Both threads are pinned to ctx->cpus[0], like
 * kernel.ctx.pipe. count[0] counts the round trips the partner acknowledged.
 * A wakeup on one CPU may preempt the waker, so a thread's switch can be
 * involuntary; the check counts all switches of both threads. */
struct fx {
	_Atomic uint32_t word;
	_Atomic uint64_t served;
	pthread_t partner;
	int cpu;
	struct wl_affinity aff;
};

static void fx_wait(_Atomic uint32_t *w, uint32_t val)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void fx_wake(_Atomic uint32_t *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void *fx_partner(void *arg)
{
	struct fx *f = arg;
	wl_pin_self(f->cpu);
	for (;;) {
		uint32_t v;
		while ((v = atomic_load(&f->word)) == 0)
			fx_wait(&f->word, 0);
		if (v == 2)
			return NULL;
		atomic_fetch_add(&f->served, 1);
		atomic_store(&f->word, 0);
		fx_wake(&f->word);
	}
}

static int fx_setup(struct wl_ctx *ctx)
{
	if (ctx->ncpus < 1)
		return wl_fail(ctx, WL_UNSUPPORTED, "no CPU to run on");
	struct fx *f = calloc(1, sizeof *f);
	if (!f)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	f->cpu = ctx->cpus[0];
	wl_affinity_save(&f->aff);
	if (wl_pin_self(f->cpu) < 0) {
		int rc = wl_sys_fail(ctx, "sched_setaffinity");
		free(f);
		return rc;
	}
	int err = pthread_create(&f->partner, NULL, fx_partner, f);
	if (err) {
		wl_affinity_restore(&f->aff);
		free(f);
		return wl_fail(ctx, wl_errno_code(err), "pthread_create: %s", strerror(err));
	}
	ctx->priv = f;
	return 0;
}

static int fx_run(struct wl_ctx *ctx, uint64_t n)
{
	struct fx *f = ctx->priv;
	uint64_t before = atomic_load(&f->served);
	for (uint64_t i = 0; i < n; i++) {
		atomic_store(&f->word, 1);
		fx_wake(&f->word);
		while (atomic_load(&f->word) == 1)
			fx_wait(&f->word, 1);
	}
	ctx->count[0] += atomic_load(&f->served) - before;
	return 0;
}

static void fx_teardown(struct wl_ctx *ctx)
{
	struct fx *f = ctx->priv;
	atomic_store(&f->word, 2);
	fx_wake(&f->word);
	pthread_join(f->partner, NULL);
	wl_affinity_restore(&f->aff);
	free(f);
}

const struct workload wl_kernel_futex_pingpong = {
	.name = "kernel.futex.pingpong",
	.group = "kernel",
	.summary = "two threads of one process, pinned to one CPU, hand a futex word back and forth",
	.kernel_path = "futex wait/wake (hash bucket, queueing), wakeup, and a thread switch within one mm each way",
	.unit = "round trip",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("acknowledged round trips per op", WL_M_COUNT0, 1, 1),
		   WL_CHECK("context switches per op, both threads", WL_M_CSW, 0.9, 4)},
	.setup = fx_setup,
	.run = fx_run,
	.teardown = fx_teardown,
};
