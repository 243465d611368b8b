/* test_noise_counters.c - the noise floor arithmetic, counter modes and names, and the system knobs' verdict words. */
#include "unit.h"
#include "run/counters.h"
#include "stats/noise.h"
#include "system/system.h"

#include <math.h>
#include <string.h>

/* Constant samples have no noise; a step between the halves is drift, not just spread. */
static void noise_of_constant_and_step(void **state)
{
	(void)state;
	double flat[16], step[16];
	for (int i = 0; i < 16; i++) {
		flat[i] = 10;
		step[i] = i < 8 ? 10 : 11;
	}
	double cv, drift;
	stats_noise(flat, 16, 8, &cv, &drift);
	assert_true(cv == 0 && drift == 0);
	stats_noise(step, 16, 8, &cv, &drift);
	assert_true(fabs(drift - 1.0 / 10.5) < 1e-12);
	assert_true(cv > 0.04 && cv < 0.06);
	/* alternating samples: spread, but every block has the same mean */
	double alt[16];
	for (int i = 0; i < 16; i++)
		alt[i] = i % 2 ? 9 : 11;
	stats_noise(alt, 16, 8, &cv, &drift);
	assert_true(cv > 0.09 && drift == 0);
	/* too few samples or blocks: NaN, never a made-up number */
	stats_noise(flat, 1, 8, &cv, &drift);
	assert_true(isnan(cv) && isnan(drift));
	stats_noise(flat, 12, 8, &cv, &drift);
	assert_true(cv == 0 && isnan(drift));
}

static void counter_modes_and_names(void **state)
{
	(void)state;
	enum ctr_mode m;
	struct err e;
	assert_int_equal(counters_parse_mode("software", &m, &e), 0);
	assert_int_equal(m, CTR_MODE_SOFTWARE);
	assert_int_equal(counters_parse_mode("none", &m, &e), 0);
	assert_int_equal(m, CTR_MODE_NONE);
	assert_int_equal(counters_parse_mode("hw", &m, &e), -1);
	assert_non_null(strstr(e.msg, "none, software or all"));
	assert_string_equal(counters_name(CTR_PAGE_FAULTS), "page-faults");
	assert_string_equal(counters_name(CTR_K_INSTRUCTIONS), "instructions:k");
	assert_int_equal(counters_group(CTR_DTLB_MISSES), CTR_GROUP_HW_USER);
	/* --counters none opens nothing and says so for every group */
	struct ctr_plan p;
	counters_plan(CTR_MODE_NONE, &p);
	for (int g = 0; g < CTR_NGROUPS; g++) {
		assert_false(p.group_ok[g]);
		assert_non_null(strstr(p.why[g], "--counters none"));
	}
	struct kvlist env = {0};
	counters_env(&p, &env);
	assert_non_null(strstr(kv_get(&env, "counters.hardware"), "off"));
	kv_free(&env);
	/* software only: the hardware groups are off, never "unavailable" */
	counters_plan(CTR_MODE_SOFTWARE, &p);
	assert_non_null(strstr(p.why[CTR_GROUP_HW_USER], "--counters software"));
	/* a closed set reads nothing */
	struct ctr_set c = {0};
	uint64_t v[CTR_NEVENTS];
	bool have[CTR_NEVENTS];
	assert_false(counters_read(&c, v, have));
	counters_close(&c);
}

/* A tree with nothing in it: every knob is "not available here", nothing is an error. */
static void empty_tree_is_not_available(void **state)
{
	(void)state;
	struct sys_state s;
	system_read("/nonexistent-sysab-root", NULL, 0, 0, &s);
	assert_true(s.nknob >= 10);
	for (size_t i = 0; i < s.nknob; i++) {
		assert_null(s.knob[i].value);
		assert_int_equal(s.knob[i].verdict, SYS_NA);
		assert_int_equal(s.knob[i].nset, 0);
	}
	assert_int_equal(s.ncpu, 0);
	assert_null(s.loadavg);
	assert_true(s.steal_boot_pct < 0);
	assert_string_equal(system_verdict_word(SYS_NA), "not available here");
	system_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(noise_of_constant_and_step),
		cmocka_unit_test(counter_modes_and_names),
		cmocka_unit_test(empty_tree_is_not_available),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
