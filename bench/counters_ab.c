/* counters_ab.c - the cost of per-sample counters side by side in one run: harness.null and
 * kernel.syscall.null, each sample timed with the run's counter group open on this process
 * (A) or with none (B), in ABBA order, pinned to one CPU; the medians of both and their ratio.
 *
 * usage: counters_ab [SAMPLES [MODE]]   (default 200 samples per side; MODE all|software)
 * The counters are opened, enabled and read exactly as the runner does around a batch
 * (counters_open before, counters_read after, outside the timed span), so what the ratio
 * shows is what counting costs the timed ops themselves. */
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

/* One batch of n ops, with the counter group open (on) or not; its timed span in ns. */
static uint64_t sample(const struct workload *w, struct wl_ctx *ctx, uint64_t n, const struct ctr_plan *plan, bool on)
{
	struct ctr_set c = {0};
	pid_t self = getpid();
	if (on)
		counters_open(&c, plan, &self, 1);
	struct wl_usage u = {0};
	uint64_t count[2] = {0, 0}, t0 = 0, t1 = 0;
	if (wl_batch(w, ctx, n, NULL, NULL, &t0, &t1, true, &u, count)) {
		fprintf(stderr, "counters_ab: %s: %s\n", w->name, ctx->why);
		exit(1);
	}
	if (on) {
		uint64_t v[CTR_NEVENTS];
		bool have[CTR_NEVENTS];
		counters_read(&c, v, have);
		counters_close(&c);
	}
	return t1 - t0;
}

/* ABBA over samples per side of w; prints one table row. */
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
	uint64_t n = 1000, t = sample(w, &ctx, n, plan, false);
	n = t ? n * 10000000ull / t : n;
	if (n < 1)
		n = 1;
	uint64_t *a = calloc(samples, sizeof *a), *b = calloc(samples, sizeof *b);
	for (size_t i = 0; i < samples; i++) {
		bool a_first = i % 2 == 0; /* ABBA: A B, B A, A B, ... */
		for (int k = 0; k < 2; k++) {
			bool on = (k == 0) == a_first;
			uint64_t ns = sample(w, &ctx, n, plan, on);
			(on ? a : b)[i] = ns;
		}
	}
	double ma = median(a, samples) / (double)n, mb = median(b, samples) / (double)n;
	printf("| %s | %.3f ns/op | %.3f ns/op | %+.2f%% | %zu + %zu samples of %llu ops |\n", name, ma, mb,
	       100 * (ma / mb - 1), samples, samples, (unsigned long long)n);
	free(a);
	free(b);
	wl_leave(w, &ctx);
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
	printf("# counters on (A) and off (B) side by side, ABBA per sample, CPU 0; groups counted:%s%s%s\n",
	       plan.group_ok[CTR_GROUP_SW] ? " software" : "", plan.group_ok[CTR_GROUP_HW_USER] ? " hardware" : "",
	       plan.group_ok[CTR_GROUP_HW_KERNEL] ? " hardware-kernel" : "");
	printf("| workload | counters on (median) | off (median) | change | samples |\n|---|---|---|---|---|\n");
	measure("harness.null", samples, &plan);
	measure("kernel.syscall.null", samples, &plan);
	return 0;
}
