/* testhooks.h - the switches of the tests (SYSAB_TEST_* in the environment), read once. */
#ifndef SYSAB_TESTHOOKS_H
#define SYSAB_TESTHOOKS_H

#include <stdbool.h>

/* Each field is NULL (or false) when its variable is not set; strings are copies owned by
 * the hooks, valid for the life of the process. None of them is for users: each is the seam
 * of the tests named beside it. */
struct testhooks {
	const char *hang_timeout; /* SYSAB_TEST_HANG_TIMEOUT: the hang timeout of a batch (t_hang) */
	const char *numa_maps;    /* SYSAB_TEST_NUMA_MAPS: read instead of /proc/self/numa_maps (t_nodes) */
	bool short_sweep;         /* SYSAB_TEST_SHORT_SWEEP: every code sweep falls short (t_icache) */
	const char *fail_check;   /* SYSAB_TEST_FAIL_CHECK: this workload's first self-check fails (t_trust) */
	bool samples;             /* SYSAB_TEST_SAMPLES=1: analysis reads samples, never the summaries */
	const char *look_gate;    /* SYSAB_TEST_LOOK_GATE: a look waits for this file (t_looksrace) */
};

/* The hooks, read from the environment by the first call (main makes it at startup, before any
 * thread or child); later changes of the environment are not seen. Never NULL. */
const struct testhooks *testhooks(void);

#endif
