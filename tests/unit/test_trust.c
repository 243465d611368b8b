/* test_trust.c - failed self-checks withhold verdicts (or are only named with the override); emulated runs are found. */
#include "unit.h"
#include "analysis/analysis.h"

#include <stdlib.h>
#include <string.h>

/* Two timing rows w.a and w.b with a verdict, and w.c without data. */
static void compare_fixture(struct an_compare *c)
{
	memset(c, 0, sizeof *c);
	c->ngroups = 2;
	c->nrows = 3;
	c->rows = xcalloc(3, sizeof *c->rows);
	const char *names[] = {"w.a", "w.b", "w.c"};
	for (size_t i = 0; i < 3; i++) {
		c->rows[i].workload = xstrdup(names[i]);
		c->rows[i].unit = xstrdup("op");
		c->rows[i].copies = 1;
		c->rows[i].c.verdict = i == 2 ? ST_NO_DATA : ST_SLOWER;
		c->rows[i].c.negligible = i == 1;
	}
}

/* w.a failed "faults" in runs 7 and 4 (twice in 7), w.c in run 2; w.a/2 is another row. */
static const struct store_failed_check fails[] = {
	{7, "w.a", 1, "faults"}, {4, "w.a", 1, "bytes"}, {7, "w.a", 1, "bytes"}, {9, "w.a", 2, "faults"}, {2, "w.c", 1, "x"},
};

static void failed_check_withholds_its_rows_verdict(void **state)
{
	(void)state;
	struct an_compare c;
	compare_fixture(&c);
	an_compare_checks(&c, NULL, 0, fails, 5, false);
	const struct an_row *a = &c.rows[0], *b = &c.rows[1], *x = &c.rows[2];
	assert_int_equal(a->c.verdict, ST_WITHHELD);
	assert_true(a->failed.withheld);
	assert_string_equal(a->failed.check, "faults");
	assert_string_equal(a->failed.workload, "w.a");
	assert_int_equal(a->failed.runs, 2); /* runs 7 and 4; run 9's is of w.a/2 */
	assert_int_equal(a->failed.first_run, 4);
	/* a row whose checks held keeps its verdict and names nothing */
	assert_int_equal(b->c.verdict, ST_SLOWER);
	assert_true(b->c.negligible);
	assert_null(b->failed.check);
	/* no verdict to withhold: still no data, but the check is named */
	assert_int_equal(x->c.verdict, ST_NO_DATA);
	assert_false(x->failed.withheld);
	assert_string_equal(x->failed.check, "x");
	assert_int_equal(c.allowed_rows, 0);
	assert_false(c.allow_failed_checks);
	an_compare_free(&c);
}

static void override_keeps_the_verdict_and_counts_it(void **state)
{
	(void)state;
	struct an_compare c;
	compare_fixture(&c);
	an_compare_checks(&c, NULL, 0, fails, 5, true);
	assert_int_equal(c.rows[0].c.verdict, ST_SLOWER);
	assert_false(c.rows[0].failed.withheld);
	assert_string_equal(c.rows[0].failed.check, "faults");
	assert_true(c.allow_failed_checks);
	assert_int_equal(c.allowed_rows, 1); /* w.c had no verdict to keep */
	an_compare_free(&c);
}

static void emulated_runs_are_found_by_their_environment(void **state)
{
	(void)state;
	struct store_env_value tcg[] = {{"kvm", 3}, {"tcg", 5}};
	struct store_env_value user[] = {{"no", 1}, {"yes: system call 63", 6}};
	struct store_env_value hv[] = {{"kvm", 3}};
	struct store_env_key k[] = {
		{"campaign.accel", 2, 0, tcg, 2}, {"emulated", 2, 0, user, 2}, {"hypervisor", 1, 1, hv, 1}};
	struct store_env env = {k, 3, 6, 6};
	struct an_emulation x;
	an_emulation_of(&env, &x);
	assert_true(x.any);
	assert_string_equal(x.how, "qemu TCG: campaign.accel tcg; qemu-user: emulated yes");
	assert_int_equal(x.first, 5);
	assert_true(x.cpu);
	an_emulation_free(&x);
	/* KVM and a native run: nothing */
	k[0].nv = 1;
	k[1].nv = 1;
	an_emulation_of(&env, &x);
	assert_false(x.any);
	assert_null(x.how);
	an_emulation_free(&x);
	an_emulation_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(failed_check_withholds_its_rows_verdict),
		cmocka_unit_test(override_keeps_the_verdict_and_counts_it),
		cmocka_unit_test(emulated_runs_are_found_by_their_environment),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
