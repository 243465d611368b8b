/* test_import_check.c - the one gate of every importer: what a sysab run could write passes,
 * nothing else does (issue 34 item 3). */
#include "core/core.h"
#include "import/import_check.h"
#include "unit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct store_run_new good_run(struct kvlist *labels, struct kvlist *env)
{
	struct store_run_new r = {
		.host = {"h", "cpu", 2, 1024, "boot-1", "6.1.0", "#1 SMP"},
		.status = "complete",
		.source = "sysab",
		.settings = "{}",
		.labels = labels,
		.env = env,
		.uuid = "0123456789abcdef0123456789abcdef",
	};
	return r;
}

static void runs_meet_the_rules(void **state)
{
	(void)state;
	struct kvlist l = {0}, env = {0};
	kv_add(&l, "pie", "yes");
	kv_add(&env, "kernel.cmdline", "quiet\tsplash");
	struct err e;
	struct store_run_new r = good_run(&l, &env);
	assert_int_equal(import_check_run(&r, &e), 0);
	r.uuid = NULL; /* a fresh one: CSV and logs */
	assert_int_equal(import_check_run(&r, &e), 0);
	r.uuid = "";
	assert_int_equal(import_check_run(&r, &e), -1);
	assert_non_null(strstr(e.msg, "32 lowercase hex"));
	r.uuid = "0123456789ABCDEF0123456789abcdef";
	assert_int_equal(import_check_run(&r, &e), -1);
	r = good_run(&l, &env);
	r.status = "pwned";
	assert_int_equal(import_check_run(&r, &e), -1);
	r = good_run(&l, &env);
	r.host.boot_id = "";
	assert_int_equal(import_check_run(&r, &e), -1);
	char *big = xcalloc(258, 1);
	memset(big, 'x', 257);
	kv_add(&l, "big", big);
	r = good_run(&l, &env);
	assert_int_equal(import_check_run(&r, &e), -1);
	assert_non_null(strstr(e.msg, "longer than"));
	free(big);
	kv_free(&l);
	kv_add(&env, "x", "a\x1b[2Jb");
	r = good_run(&l, &env);
	assert_int_equal(import_check_run(&r, &e), -1);
	assert_non_null(strstr(e.msg, "environment value"));
	kv_free(&env);
}

static void slots_and_samples_meet_the_rules(void **state)
{
	(void)state;
	struct err e;
	struct store_slot sl = {"kernel.syscall.null", 1, "syscall", 1, "ok", NULL, 1000, 12.5, NULL};
	assert_int_equal(import_check_slot(&sl, &e), 0);
	sl.copies = -3;
	assert_int_equal(import_check_slot(&sl, &e), -1);
	sl.copies = INT32_MAX;
	assert_int_equal(import_check_slot(&sl, &e), -1);
	sl.copies = 1;
	sl.status = "weird";
	assert_int_equal(import_check_slot(&sl, &e), -1);
	sl.status = "ok";
	char *w = xcalloc(1 << 20, 1);
	memset(w, 'w', (1 << 20) - 1);
	sl.workload = w;
	assert_int_equal(import_check_slot(&sl, &e), -1);
	assert_non_null(strstr(e.msg, "at most 64 bytes"));

	struct store_sample x = {"kernel.syscall.null", 1, 0, -1, 100, 1000, 1e6, 0, 0};
	assert_int_equal(import_check_sample(&x, &e), 0);
	x.workload = w;
	assert_int_equal(import_check_sample(&x, &e), -1);
	x.workload = "kernel.syscall.null";
	double bad[] = {1e300, INFINITY, -INFINITY, NAN, 0, -1, 1e-13};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		x.value = bad[i];
		assert_int_equal(import_check_sample(&x, &e), -1);
	}
	x.value = 1e6;
	x.ops = (uint64_t)-5; /* -5 read back from SQLite */
	assert_int_equal(import_check_sample(&x, &e), -1);
	x.ops = 0; /* CSV rows have no op count */
	assert_int_equal(import_check_sample(&x, &e), 0);
	x.warmup = 2;
	assert_int_equal(import_check_sample(&x, &e), -1);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(runs_meet_the_rules),
		cmocka_unit_test(slots_and_samples_meet_the_rules),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
