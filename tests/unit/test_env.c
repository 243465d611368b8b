/* test_env.c - the environment names the hypervisor, the temp directory's filesystem, and the new confounder keys. */
#include "unit.h"
#include "core/core.h"
#include "run/env.h"

#include <stdlib.h>
#include <string.h>

static void hypervisor_kind_from_each_source(void **state)
{
	(void)state;
	char *own;
	assert_string_equal(env_hypervisor_kind("KVMKVMKVM", NULL, NULL, true, &own), "kvm");
	assert_string_equal(env_hypervisor_kind("", "QEMU Standard PC (Q35 + ICH9, 2009)", NULL, false, &own), "qemu");
	assert_string_equal(env_hypervisor_kind("", "", "xen", false, &own), "xen");
	assert_string_equal(env_hypervisor_kind("", "", "xen,xen-4.17", false, &own), "xen");
	assert_string_equal(env_hypervisor_kind("", "Dell Inc. PowerEdge", NULL, false, &own), "none");
	assert_string_equal(env_hypervisor_kind(NULL, NULL, NULL, true, &own), "unknown");
	const char *k = env_hypervisor_kind("NewHypervsr!", "", NULL, true, &own);
	assert_string_equal(k, "other:NewHypervsr!");
	free(own);
}

static void filesystem_names(void **state)
{
	(void)state;
	assert_string_equal(env_fs_name(0xEF53), "ext4");
	assert_string_equal(env_fs_name(0x01021994), "tmpfs");
	assert_null(env_fs_name(0x12345678));
}

/* Every run records the keys whose change alters results; the confounder diff compares
 * all environment keys, so recording them is what puts them in it. */
static void capture_records_the_confounders(void **state)
{
	(void)state;
	struct kvlist env = {0};
	env_capture(&env);
	env_add_tmpfs(&env, "/");
	const char *keys[] = {"clocksource", "cpuidle.governor", "thp.mthp", "hypervisor", "tmp.fs"};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const char *v = kv_get(&env, keys[i]);
		assert_non_null(v);
		assert_true(*v);
	}
	kv_free(&env);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hypervisor_kind_from_each_source),
		cmocka_unit_test(filesystem_names),
		cmocka_unit_test(capture_records_the_confounders),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
