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

/* Fill h from env (the pointers point into env's strings). */
void env_host(const struct kvlist *env, struct store_host *h);

/* The current boot id, or "unknown". Newly allocated. */
char *env_boot_id(void);

/* "1.23 0.80 0.50": the load averages now. Newly allocated. */
char *env_loadavg(void);

#endif
