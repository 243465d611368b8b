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

static void read_hooks(void)
{
	const char *s = getenv("SYSAB_TEST_SAMPLES");
	hooks = (struct testhooks){
		.hang_timeout = env_copy("SYSAB_TEST_HANG_TIMEOUT"),
		.numa_maps = env_copy("SYSAB_TEST_NUMA_MAPS"),
		.short_sweep = getenv("SYSAB_TEST_SHORT_SWEEP") != NULL,
		.fail_check = env_copy("SYSAB_TEST_FAIL_CHECK"),
		.samples = s && !strcmp(s, "1"),
		.look_gate = env_copy("SYSAB_TEST_LOOK_GATE"),
	};
}

const struct testhooks *testhooks(void)
{
	pthread_once(&hooks_once, read_hooks);
	return &hooks;
}
