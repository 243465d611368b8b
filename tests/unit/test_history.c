/* test_history.c - the version order sysab history sorts label values in. */
#include "unit.h"
#include "analysis/history.h"

#include <stdlib.h>
#include <string.h>

static int sgn(int x)
{
	return (x > 0) - (x < 0);
}

/* Each list is in increasing version order: every pair compares so, both ways. */
static void version_order(void **state)
{
	(void)state;
	static const char *const order[] = {
		"5.19",     "6.1-rc1",  "6.1-rc2",  "6.1-rc10", "6.1",      "6.1.1",  "6.1.2", "6.1.10",
		"6.2-rc1",  "6.2",      "6.10-rc1", "6.10",     "6.12-rc1", "6.12-rc2", "6.12", "6.13-rc1",
	};
	size_t n = sizeof order / sizeof order[0];
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			assert_int_equal(sgn(an_version_cmp(order[i], order[j])), i < j ? -1 : i > j);
	/* numbers as numbers, leading zeros aside; words byte by byte; equal only when equal */
	assert_true(an_version_cmp("build-9", "build-10") < 0);
	assert_true(an_version_cmp("007", "7") != 0);
	assert_true(an_version_cmp("a", "b") < 0);
	assert_true(an_version_cmp("nightly-2026-01-09", "nightly-2026-01-10") < 0);
	assert_int_equal(an_version_cmp("", ""), 0);
	assert_true(an_version_cmp("", "1") < 0);
	assert_true(an_version_cmp("6.12~rc1", "6.12") < 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(version_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
