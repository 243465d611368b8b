/* test_calibrate.c - batch-size arithmetic converges on the target and never overflows. */
#include "unit.h"
#include "run/calibrate.h"

static void short_batches_grow_at_most_16x(void **state)
{
	(void)state;
	bool done;
	assert_int_equal(calib_next(1, 10, 50000000, &done), 16);
	assert_false(done);
	assert_int_equal(calib_next(1000, 0, 50000000, &done), 16000);
	/* 12.5% of the target is trusted: scale straight to it */
	assert_int_equal(calib_next(100, 6250000, 50000000, &done), 800);
	assert_true(done);
}

static void long_batches_shrink(void **state)
{
	(void)state;
	bool done;
	assert_int_equal(calib_next(10, 500000000, 50000000, &done), 1);
	assert_true(done);
	assert_int_equal(calib_next(1, 500000000, 50000000, &done), 1); /* never 0 */
}

static void capped(void **state)
{
	(void)state;
	bool done;
	assert_int_equal(calib_next(CALIB_MAX_OPS, 1, 50000000, &done), CALIB_MAX_OPS);
}

static void converges_on_a_simulated_workload(void **state)
{
	(void)state;
	/* a workload costing 37 ns per op: calibration must land within 1% of 50 ms */
	uint64_t n = 1;
	bool done = false;
	int steps = 0;
	while (!done && steps < 50) {
		n = calib_next(n, n * 37, 50000000, &done);
		steps++;
	}
	assert_true(done);
	assert_in_range(n * 37, 49500000, 50500000);
	assert_true(steps < 12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(short_batches_grow_at_most_16x),
		cmocka_unit_test(long_batches_shrink),
		cmocka_unit_test(capped),
		cmocka_unit_test(converges_on_a_simulated_workload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
