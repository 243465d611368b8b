/* testhooks.h - the switches and seams of the tests (SYSAB_TEST_* and the SYSAB_* seams in the environment), read once. */
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
	const char *arm_values;   /* SYSAB_TEST_ARM_VALUES=SD:NAME=OPS,...: a paired run stores these values
	                             (t_armgrow; runner.c, test_arm_value) */
	const char *fake_samples; /* SYSAB_TEST_FAKE_SAMPLES="SD[:KEY=VALUE:FACTOR]": each sample's rate is
				   * replaced by a deterministic one, 1e6/s times exp(SD x a normal draw of
				   * its boot id (the boot's noise) + SD/5 x one of the boot and sample), divided
				   * by FACTOR in runs labelled KEY=VALUE (t_campaign_adaptive) */
	/* seams: a directory or device read instead of the machine's own */
	const char *node_sysfs;   /* SYSAB_NODE_SYSFS: instead of /sys/devices/system/node (t_nodes, test_node) */
	const char *cache_sysfs;  /* SYSAB_CACHE_SYSFS: instead of cpu0's cache directory (t_icache) */
	const char *kvm_dev;      /* SYSAB_KVM_DEV: opened instead of /dev/kvm (t_campaign, check-boot) */
	double kvm_probe_s;       /* SYSAB_KVM_PROBE_S: how long KVM's first boot may stay silent (0: not set) */
	const char *campaign_proc; /* SYSAB_CAMPAIGN_PROC: instead of /proc for the kernel check (t_campaign) */
	const char *boot_id;      /* SYSAB_BOOT_ID: read instead of /proc/sys/kernel/random/boot_id as the
				   * boot runs are stored on (t_campaign_adaptive: the command backend's
				   * simulated reboots are boots of their own) */
	const char *campaign_crash; /* SYSAB_CAMPAIGN_CRASH=after-merge: die between merging and recording a slot */
};

/* The hooks, read from the environment by the first call (main makes it at startup, before any
 * thread or child); later changes of the environment are not seen. Never NULL. */
const struct testhooks *testhooks(void);

/* Read the environment again: for unit tests that set a seam between calls in one process
 * (production code never calls it). Not thread-safe. */
void testhooks_reload(void);

#endif
