/* probe.c - measure the CPU's own stability before a run: a pinned register-only loop in short samples. */
#include "probe.h"
#include "stats/noise.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* n rounds of a dependent multiply-add chain that stays in registers. */
static uint64_t spin(uint64_t n)
{
	uint64_t x = 1;
	for (uint64_t i = 0; i < n; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static bool steal_ticks(unsigned long long *total, unsigned long long *steal)
{
	char *s = read_text_file("/proc/stat");
	unsigned long long f[8] = {0};
	int n = s ? sscanf(s, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4],
			   &f[5], &f[6], &f[7])
		  : 0;
	free(s);
	if (n < 8)
		return false;
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += f[i];
	*steal = f[7];
	return true;
}

#define PROBE_SAMPLES 40
#define PROBE_BLOCK 8

void probe_run(uint64_t budget_ns, int cpu, struct probe_result *out)
{
	memset(out, 0, sizeof *out);
	out->cv = out->drift = NAN;
	out->steal_pct = -1;
	cpu_set_t old, one;
	bool pinned = sched_getaffinity(0, sizeof old, &old) == 0;
	if (pinned) {
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		pinned = sched_setaffinity(0, sizeof one, &one) == 0;
	}
	unsigned long long t0 = 0, s0 = 0, t1, s1;
	bool st = steal_ticks(&t0, &s0);
	uint64_t start = clock_raw_ns();
	uint64_t target = budget_ns / PROBE_SAMPLES * 3 / 4; /* a quarter of the budget for calibration */
	uint64_t n = 1000;
	volatile uint64_t sink = 0;
	for (;;) { /* calibrate: grow n until a sample lasts the target */
		uint64_t a = clock_raw_ns();
		sink += spin(n);
		uint64_t d = clock_raw_ns() - a;
		if (d >= target / 2 || clock_raw_ns() - start > budget_ns / 4) {
			if (d)
				n = (uint64_t)((double)n * (double)target / (double)d) + 1;
			break;
		}
		n *= 4;
	}
	double x[PROBE_SAMPLES];
	int k = 0;
	while (k < PROBE_SAMPLES && clock_raw_ns() - start < budget_ns) {
		uint64_t a = clock_raw_ns();
		sink += spin(n);
		x[k++] = (double)(clock_raw_ns() - a) / (double)n;
	}
	(void)sink;
	out->wall_ns = clock_raw_ns() - start;
	out->nsamples = k;
	stats_noise(x, (size_t)k, PROBE_BLOCK, &out->cv, &out->drift);
	if (st && steal_ticks(&t1, &s1) && t1 > t0)
		out->steal_pct = 100.0 * (double)(s1 - s0) / (double)(t1 - t0);
	if (pinned)
		sched_setaffinity(0, sizeof old, &old);
}

void probe_env(const struct probe_result *r, struct kvlist *env)
{
	if (isnan(r->cv)) {
		kv_add(env, "noise.level", "unknown (the probe took too few samples)");
	} else {
		kv_addf(env, "probe.cv", "%.4f", r->cv);
		if (!isnan(r->drift))
			kv_addf(env, "probe.drift", "%.4f", r->drift);
		kv_addf(env, "probe.samples", "%d", r->nsamples);
		double worst = isnan(r->drift) || r->cv > r->drift ? r->cv : r->drift;
		kv_add(env, "noise.level", worst < 0.01 ? "low" : worst < 0.05 ? "moderate" : "high");
	}
	if (r->steal_pct >= 0) {
		kv_addf(env, "probe.steal_pct", "%.2f", r->steal_pct);
		kv_add(env, "steal.level", r->steal_pct < 0.5 ? "none" : r->steal_pct < 5 ? "some" : "high");
	}
}
