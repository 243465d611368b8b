/* fault_threads.c - kernel.fault.threads: anonymous write faults from one thread per CPU of one process at once. */
#include "workloads/util.h"
#include "core/core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Like will-it-scale's page_fault1 in thread mode: T threads of one process (one per
 * CPU the copy may use: the run's CPUs divided among the copies, at least 1) each write
 * one byte to each page of their own fresh anonymous region, so they contend on the
 * process's mm (mmap lock or per-VMA locks, page table locks, the mm counters). One op
 * is one fault by any thread; a batch of n gives each thread n / T (the first the
 * remainder). prepare maps every thread's region and finish unmaps them, untimed; run
 * releases the threads (a new generation under a condition variable) and waits until
 * all have finished. Thread i is pinned to the copy's CPU i. */
struct ft_thread {
	struct ft *f;
	int idx;
	pthread_t tid;
};

struct ft {
	int nthreads;
	int *cpus;
	pthread_mutex_t mu;
	pthread_cond_t go, done_cv;
	uint64_t gen;      /* batch generation: a thread works once per new value */
	int busy;          /* threads still working on this generation */
	bool stop;
	uint64_t n;        /* the batch, set before a new generation */
	char **region;     /* per thread */
	size_t *len;
	long ps;
	uint64_t *mine;
	struct ft_thread *t;
	struct wl_affinity aff;
};

static uint64_t ft_share(const struct ft *f, int i, uint64_t n)
{
	uint64_t each = n / (uint64_t)f->nthreads;
	return i == 0 ? each + n % (uint64_t)f->nthreads : each;
}

static void ft_work(struct ft *f, int i)
{
	uint64_t k = ft_share(f, i, f->n);
	for (uint64_t p = 0; p < k; p++)
		((volatile char *)f->region[i])[p * (uint64_t)f->ps] = 1;
	f->mine[i] = k;
}

static void *ft_main(void *arg)
{
	struct ft_thread *t = arg;
	struct ft *f = t->f;
	wl_pin_self(f->cpus[t->idx]);
	uint64_t seen = 0;
	for (;;) {
		pthread_mutex_lock(&f->mu);
		while (f->gen == seen && !f->stop)
			pthread_cond_wait(&f->go, &f->mu);
		seen = f->gen;
		bool stop = f->stop;
		pthread_mutex_unlock(&f->mu);
		if (stop)
			return NULL;
		ft_work(f, t->idx);
		pthread_mutex_lock(&f->mu);
		if (--f->busy == 0)
			pthread_cond_signal(&f->done_cv);
		pthread_mutex_unlock(&f->mu);
	}
}

/* Stop and join threads 1 .. started-1. */
static void ft_stop(struct ft *f, int started)
{
	pthread_mutex_lock(&f->mu);
	f->stop = true;
	pthread_cond_broadcast(&f->go);
	pthread_mutex_unlock(&f->mu);
	for (int i = 1; i < started; i++)
		pthread_join(f->t[i].tid, NULL);
}

static void ft_free(struct ft *f)
{
	pthread_mutex_destroy(&f->mu);
	pthread_cond_destroy(&f->go);
	pthread_cond_destroy(&f->done_cv);
	free(f->cpus), free(f->region), free(f->len), free(f->mine), free(f->t);
	free(f);
}

static int ft_setup(struct wl_ctx *ctx)
{
	int t = ctx->ncpus / (ctx->ncopies > 0 ? ctx->ncopies : 1);
	if (t < 1)
		t = 1;
	struct ft *f = xcalloc(1, sizeof *f);
	f->nthreads = t;
	f->ps = ctx->page_size;
	f->cpus = xcalloc((size_t)t, sizeof *f->cpus);
	for (int i = 0; i < t; i++)
		f->cpus[i] = ctx->cpus[i % ctx->ncpus];
	f->region = xcalloc((size_t)t, sizeof *f->region);
	f->len = xcalloc((size_t)t, sizeof *f->len);
	f->mine = xcalloc((size_t)t, sizeof *f->mine);
	f->t = xcalloc((size_t)t, sizeof *f->t);
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->go, NULL);
	pthread_cond_init(&f->done_cv, NULL);
	wl_affinity_save(&f->aff);
	wl_pin_self(f->cpus[0]);
	for (int i = 1; i < t; i++) {
		f->t[i] = (struct ft_thread){.f = f, .idx = i};
		int err = pthread_create(&f->t[i].tid, NULL, ft_main, &f->t[i]);
		if (err) {
			ft_stop(f, i);
			wl_affinity_restore(&f->aff);
			ft_free(f);
			return wl_fail(ctx, wl_errno_code(err), "pthread_create: %s", strerror(err));
		}
	}
	ctx->priv = f;
	return 0;
}

static int ft_finish(struct wl_ctx *ctx, uint64_t n)
{
	(void)n;
	struct ft *f = ctx->priv;
	for (int i = 0; i < f->nthreads; i++) {
		if (f->region[i])
			munmap(f->region[i], f->len[i]);
		f->region[i] = NULL;
	}
	return 0;
}

static int ft_prepare(struct wl_ctx *ctx, uint64_t n)
{
	struct ft *f = ctx->priv;
	for (int i = 0; i < f->nthreads; i++) {
		uint64_t k = ft_share(f, i, n);
		f->len[i] = (size_t)(k ? k : 1) * (size_t)f->ps;
		char *p = mmap(NULL, f->len[i], PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED) {
			int rc = wl_sys_fail(ctx, "mmap");
			ft_finish(ctx, n);
			return rc;
		}
		madvise(p, f->len[i], MADV_NOHUGEPAGE);
		f->region[i] = p;
	}
	return 0;
}

static int ft_run(struct wl_ctx *ctx, uint64_t n)
{
	struct ft *f = ctx->priv;
	if (n == 0)
		return 0;
	pthread_mutex_lock(&f->mu);
	f->n = n;
	f->busy = f->nthreads - 1;
	f->gen++;
	pthread_cond_broadcast(&f->go);
	pthread_mutex_unlock(&f->mu);
	ft_work(f, 0);
	pthread_mutex_lock(&f->mu);
	while (f->busy > 0)
		pthread_cond_wait(&f->done_cv, &f->mu);
	pthread_mutex_unlock(&f->mu);
	for (int i = 0; i < f->nthreads; i++)
		ctx->count[0] += f->mine[i];
	return 0;
}

static void ft_teardown(struct wl_ctx *ctx)
{
	struct ft *f = ctx->priv;
	ft_finish(ctx, 0);
	ft_stop(f, f->nthreads);
	wl_affinity_restore(&f->aff);
	ft_free(f);
}

const struct workload wl_kernel_fault_threads = {
	.name = "kernel.fault.threads",
	.group = "kernel",
	.summary = "one thread per CPU of one process writes one byte to each page of its own fresh anonymous memory",
	.kernel_path = "concurrent anonymous faults in one mm: mmap/per-VMA locks, page table locks, mm counters, page allocation",
	.unit = "page fault",
	.flags = WL_LATENCY,
	/* the helper threads' own first touches (stack, sanitizer shadow) add a few faults
	 * to small batches; a second fault per page would read 2 */
	.checks = {WL_CHECK("minor faults per op, all threads", WL_M_MINFLT, 0.9, 1.25),
		   WL_CHECK("pages written per op, all threads", WL_M_COUNT0, 1, 1)},
	.max_batch = wl_fault_batch_cap,
	.setup = ft_setup,
	.prepare = ft_prepare,
	.run = ft_run,
	.finish = ft_finish,
	.teardown = ft_teardown,
};
