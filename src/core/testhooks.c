/* testhooks.c - the switches of the tests, read from the environment once. */
#include "core/testhooks.h"
#include "core/core.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Written once, by read_hooks under pthread_once, and only read after. */
static struct testhooks hooks;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static const char *env_copy(const char *name)
{
	const char *v = getenv(name);
	return v ? xstrdup(v) : NULL;
}

static void free_hooks(void)
{
	free((char *)hooks.hang_timeout);
	free((char *)hooks.numa_maps);
	free((char *)hooks.fail_check);
	free((char *)hooks.look_gate);
	free((char *)hooks.arm_values);
	free((char *)hooks.node_sysfs);
	free((char *)hooks.cache_sysfs);
	free((char *)hooks.kvm_dev);
	free((char *)hooks.campaign_proc);
	free((char *)hooks.campaign_crash);
	free((char *)hooks.fake_samples);
	free((char *)hooks.boot_id);
	memset(&hooks, 0, sizeof hooks);
}

static void read_hooks(void)
{
	const char *s = getenv("SYSAB_TEST_SAMPLES"), *k = getenv("SYSAB_KVM_PROBE_S");
	double probe = k ? atof(k) : 0;
	hooks = (struct testhooks){
		.hang_timeout = env_copy("SYSAB_TEST_HANG_TIMEOUT"),
		.numa_maps = env_copy("SYSAB_TEST_NUMA_MAPS"),
		.short_sweep = getenv("SYSAB_TEST_SHORT_SWEEP") != NULL,
		.fail_check = env_copy("SYSAB_TEST_FAIL_CHECK"),
		.samples = s && !strcmp(s, "1"),
		.look_gate = env_copy("SYSAB_TEST_LOOK_GATE"),
		.arm_values = env_copy("SYSAB_TEST_ARM_VALUES"),
		.fake_samples = env_copy("SYSAB_TEST_FAKE_SAMPLES"),
		.node_sysfs = env_copy("SYSAB_NODE_SYSFS"),
		.cache_sysfs = env_copy("SYSAB_CACHE_SYSFS"),
		.kvm_dev = env_copy("SYSAB_KVM_DEV"),
		.kvm_probe_s = probe > 0 ? probe : 0,
		.campaign_proc = env_copy("SYSAB_CAMPAIGN_PROC"),
		.campaign_crash = env_copy("SYSAB_CAMPAIGN_CRASH"),
		.boot_id = env_copy("SYSAB_BOOT_ID"),
	};
}

const struct testhooks *testhooks(void)
{
	pthread_once(&hooks_once, read_hooks);
	return &hooks;
}

void testhooks_reload(void)
{
	pthread_once(&hooks_once, read_hooks);
	free_hooks();
	read_hooks();
}
