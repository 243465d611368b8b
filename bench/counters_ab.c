/* counters_ab.c - what per-sample counters cost the time rows, side by side in one run:
 * harness.null and kernel.syscall.null, each timed batch taken four ways in rotating order,
 * pinned to one CPU:
 *   A  as the runner does: the timed batch with no counter open, then an untimed batch of the
 *      same size with the run's counter groups opened before it, read after it and closed
 *      (here after every timed batch: the runner counts after one in seven);
 *   D  the same untimed batch after the timed one, with no counters: A against D is what the
 *      counting itself does to the time rows;
 *   B  no counters and no extra batch: A against B adds what any extra untimed work does
 *      to the next timed batch on a shared CPU (the scheduler's fair share);
 *   C  the counter groups open on the timed batch itself (the runner's earlier design).
 * It prints the medians of the timed batches and A against D and B, C against B.
 *
 * usage: counters_ab [SAMPLES [MODE]]   (default 200 samples per arm; MODE all|software) */
#include "run/counters.h"
#include "workloads/workload.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static double median(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	return n % 2 ? (double)v[n / 2] : ((double)v[n / 2 - 1] + (double)v[n / 2]) / 2;
}

/* One batch of n ops; its timed span in ns. With count, the counter groups are open on this
 * process around it (opened before, read after, outside the timed span). */
static uint64_t batch(const struct workload *w, struct wl_ctx *ctx, uint64_t n, const struct ctr_plan *plan, bool count)
{
	struct ctr_set c = {0};
	pid_t self = getpid();
	if (count)
		counters_open(&c, plan, &self, 1);
	struct wl_usage u = {0};
	uint64_t tally[2] = {0, 0}, t0 = 0, t1 = 0;
	if (wl_batch(w, ctx, n, NULL, NULL, &t0, &t1, true, &u, tally)) {
		fprintf(stderr, "counters_ab: %s: %s\n", w->name, ctx->why);
		exit(1);
	}
	if (count) {
		uint64_t v[CTR_NEVENTS];
		bool have[CTR_NEVENTS];
		counters_read(&c, v, have);
		counters_close(&c);
	}
	return t1 - t0;
}

enum { ARM_AFTER, ARM_NONE, ARM_ON, ARM_EXTRA, NARMS };

/* One timed sample of arm k: its timed span in ns. */
static uint64_t sample(const struct workload *w, struct wl_ctx *ctx, uint64_t n, const struct ctr_plan *plan, int k)
{
	uint64_t ns = batch(w, ctx, n, plan, k == ARM_ON);
	if (k == ARM_AFTER || k == ARM_EXTRA)
		batch(w, ctx, n, plan, k == ARM_AFTER); /* untimed for the row */
	return ns;
}

/* samples per arm of w in rotating order (each arm first, second, third and last equally
 * often, forwards and backwards); prints one table row. */
static void measure(const char *name, size_t samples, const struct ctr_plan *plan)
{
	const struct workload *w = wl_find(name);
	static int cpus[1] = {0};
	struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = 1, .cpus = cpus};
	if (!w || wl_enter(w, &ctx)) {
		fprintf(stderr, "counters_ab: %s cannot run here\n", name);
		exit(1);
	}
	/* a batch of about 10 ms */
	uint64_t n = 1000, t = batch(w, &ctx, n, plan, false);
	n = t ? n * 10000000ull / t : n;
	if (n < 1)
		n = 1;
	uint64_t *v[NARMS];
	for (int k = 0; k < NARMS; k++)
		v[k] = calloc(samples, sizeof *v[k]);
	for (size_t i = 0; i < samples; i++)
		for (int r = 0; r < NARMS; r++) {
			int pos = (int)(i / 2 % NARMS) + (i % 2 ? NARMS - 1 - r : r);
			int k = pos % NARMS;
			v[k][i] = sample(w, &ctx, n, plan, k);
		}
	double m[NARMS];
	for (int k = 0; k < NARMS; k++) {
		m[k] = median(v[k], samples) / (double)n;
		free(v[k]);
	}
	printf("| %s | %.3f | %.3f | %.3f | %.3f | %+.2f%% | %+.2f%% | %+.2f%% | %zu × 4 of %llu ops |\n", name,
	       m[ARM_AFTER], m[ARM_EXTRA], m[ARM_NONE], m[ARM_ON], 100 * (m[ARM_AFTER] / m[ARM_EXTRA] - 1),
	       100 * (m[ARM_AFTER] / m[ARM_NONE] - 1), 100 * (m[ARM_ON] / m[ARM_NONE] - 1), samples,
	       (unsigned long long)n);
	wl_leave(w, &ctx);
}

/* The load average of the last minute, as /proc/loadavg says it. */
static const char *load(void)
{
	static char buf[32] = "?";
	FILE *f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%31s", buf) != 1)
			strcpy(buf, "?");
		fclose(f);
	}
	return buf;
}

int main(int argc, char **argv)
{
	size_t samples = argc > 1 ? strtoul(argv[1], NULL, 10) : 200;
	enum ctr_mode mode = argc > 2 && !strcmp(argv[2], "software") ? CTR_MODE_SOFTWARE : CTR_MODE_ALL;
	if (samples < 2)
		samples = 2;
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof set, &set);
	struct ctr_plan plan;
	counters_plan(mode, &plan);
	printf("# timed batches: A counted after (the runner), D uncounted batch after, B nothing after, "
	       "C counters on the batch; rotating order, CPU 0, load %s; groups counted:%s%s%s\n", load(),
	       plan.group_ok[CTR_GROUP_SW] ? " software" : "", plan.group_ok[CTR_GROUP_HW_USER] ? " hardware" : "",
	       plan.group_ok[CTR_GROUP_HW_KERNEL] ? " hardware-kernel" : "");
	printf("| workload | A ns/op | D ns/op | B ns/op | C ns/op | A vs D | A vs B | C vs B | samples |\n"
	       "|---|---|---|---|---|---|---|---|---|\n");
	measure("harness.null", samples, &plan);
	measure("kernel.syscall.null", samples, &plan);
	return 0;
}
