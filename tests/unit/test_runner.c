/* test_runner.c - the runner on synthetic workloads: rounds spread drift evenly, adaptive
 * sampling stops once the target precision is met, every sample lands in the store. */
#include "unit.h"
#include "core/tmp.h"
#include "run/runner.h"
#include "analysis/summary.h"
#include "store/store.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Shared by the worker processes (they are forked after it is mapped): how many batches
 * have run so far, across workloads. The synthetic ops get slower with every batch, a
 * drift that does not depend on how busy the machine is. */
static volatile uint64_t *batches;

/* Busy-wait until the clock passes start + ns. */
static void spin(uint64_t ns)
{
	uint64_t end = clock_raw_ns() + ns;
	while (clock_raw_ns() < end)
		;
}

static int drifting_run(struct wl_ctx *ctx, uint64_t n)
{
	(void)ctx;
	uint64_t g = __atomic_fetch_add(batches, 1, __ATOMIC_SEQ_CST);
	spin((uint64_t)((double)n * 2000.0 * (1.0 + 0.03 * (double)g)));
	return 0;
}

static int steady_run(struct wl_ctx *ctx, uint64_t n)
{
	(void)ctx;
	spin(n * 1000);
	return 0;
}

static const struct workload drift_a = {.name = "test.drift-a", .group = "test", .unit = "op", .run = drifting_run};
static const struct workload drift_b = {.name = "test.drift-b", .group = "test", .unit = "op", .run = drifting_run};
static const struct workload steady = {.name = "test.steady", .group = "test", .unit = "op", .run = steady_run};

static char *dir;

static int setup(void **state)
{
	(void)state;
	struct err e;
	batches = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	return batches == MAP_FAILED || tmpdir_create(&dir, &e);
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(dir);
	free(dir);
	return 0;
}

/* Run drift_a and drift_b in the given order; return ln(median A / median B). */
static double drift_gap(enum run_order order, const char *name)
{
	struct err e = {{0}};
	char *path = xasprintf("%s/%s.db", dir, name);
	struct store *st;
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	const struct workload *wl[] = {&drift_a, &drift_b};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct run_opts o = {
		.labels = &labels,
		.wl = wl,
		.nwl = 2,
		.copies = copies,
		.ncopies = 1,
		.samples = 12,
		.sample_ns = 2000000,
		.warmup_ns = 0,
		.seed = 7,
		.order = order,
		.profile = "test",
	};
	*batches = 0;
	struct run_outcome out;
	assert_int_equal(runner_run(st, &o, &out, &e), 0);
	assert_int_equal(out.slots_ok, 2);
	struct summary s;
	assert_int_equal(summary_load(st, out.run_id, &s, &e), 0);
	assert_int_equal(s.nslots, 2);
	assert_int_equal(s.rows[0].n + s.rows[0].warmup, 12);
	double gap = log(s.rows[0].median / s.rows[1].median);
	if (getenv("TEST_RUNNER_DEBUG"))
		print_message("%s: A n=%zu batch=%llu median=%g; B n=%zu batch=%llu median=%g\n", name, s.rows[0].n,
			      (unsigned long long)s.slots[0].batch_ops, s.rows[0].median, s.rows[1].n,
			      (unsigned long long)s.slots[1].batch_ops, s.rows[1].median);
	summary_free(&s);
	store_close(st);
	free(path);
	return gap;
}

static void rounds_spread_drift_evenly(void **state)
{
	(void)state;
	/* Blocked, registry order: B runs after A and inherits all the drift. */
	double blocked = drift_gap(ORDER_FIXED, "blocked");
	/* Rounds: both see the same drift on average. */
	double rounds = drift_gap(ORDER_ROUNDS, "rounds");
	print_message("ln(A/B): blocked %.3f, rounds %.3f\n", blocked, rounds);
	assert_true(blocked > 0.15);
	assert_true(fabs(rounds) < 0.06);
}

static void adaptive_stops_when_precise(void **state)
{
	(void)state;
	struct err e = {{0}};
	char *path = xasprintf("%s/adaptive.db", dir);
	struct store *st;
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	const struct workload *wl[] = {&steady};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct run_opts o = {
		.labels = &labels,
		.wl = wl,
		.nwl = 1,
		.copies = copies,
		.ncopies = 1,
		.samples = 6,
		.sample_ns = 2000000,
		.target_ci = 0.02,
		.max_ns = 20000000000ull,
		.seed = 1,
		.order = ORDER_ROUNDS,
		.profile = "test",
	};
	struct run_outcome out;
	uint64_t t0 = clock_raw_ns();
	assert_int_equal(runner_run(st, &o, &out, &e), 0);
	uint64_t took = clock_raw_ns() - t0;
	struct summary s;
	assert_int_equal(summary_load(st, out.run_id, &s, &e), 0);
	size_t n = s.rows[0].n + s.rows[0].warmup;
	print_message("adaptive: %zu samples, half-width %.4f, %.2f s\n", n, s.rows[0].halfwidth, (double)took / 1e9);
	assert_true(n >= 6);
	assert_true(s.rows[0].halfwidth <= 0.02);
	assert_true(took < 15000000000ull); /* stopped on precision, well before the 20 s budget */
	assert_int_equal(out.rounds, (int)n);
	summary_free(&s);
	store_close(st);
	free(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rounds_spread_drift_evenly),
		cmocka_unit_test(adaptive_stops_when_precise),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
