/* env.h - the environment snapshot stored with every run. */
#ifndef SYSAB_ENV_H
#define SYSAB_ENV_H

#include "core/core.h"
#include "store/store.h"

/* Capture the environment of this machine now into env (keys sorted). */
void env_capture(struct kvlist *env);

/* True when a user-mode emulator (qemu-user) runs this process; why gets the evidence,
 * or "no", or "unknown: ..." when it cannot be told (false then). */
bool env_emulated(char *why, size_t n);

/* Add "tmp.fs", the filesystem type of dir (the run's temp directory: fault.file costs
 * 1.7 µs on ext4 and 1.24 µs on tmpfs). */
void env_add_tmpfs(struct kvlist *env, const char *dir);

/* The name of a statfs f_type ("ext4", "tmpfs", ...), or NULL when it is not known. */
const char *env_fs_name(unsigned long type);

/* The hypervisor kind from a CPUID hypervisor vendor, a DMI vendor or product, or a
 * device-tree hypervisor node (any may be NULL): "kvm", "xen", "hyperv", "vmware",
 * "qemu-tcg", "virtualbox", "other:TEXT", or "none" when nothing names one and
 * cpu_flag_hypervisor is false ("unknown" when it is true). Static string or newly
 * allocated into *owned (freed by the caller). */
const char *env_hypervisor_kind(const char *cpuid_vendor, const char *dmi, const char *dt, bool cpu_flag_hypervisor,
				char **owned);

/* Fill h from env (the pointers point into env's strings). */
void env_host(const struct kvlist *env, struct store_host *h);

/* The current boot id, or "unknown". Newly allocated. */
char *env_boot_id(void);

/* "1.23 0.80 0.50": the load averages now. Newly allocated. */
char *env_loadavg(void);

#endif
