/* util.h - helpers shared by workloads: errno mapping, child processes, CPU pinning, temp files. */
#ifndef SYSAB_WL_UTIL_H
#define SYSAB_WL_UTIL_H

#include "workload.h"

#include <sched.h>
#include <sys/resource.h>
#include <sys/types.h>

/* WL_NORESOURCE for errno values that mean a resource limit (EAGAIN, EMFILE,
 * ENFILE, ENOSPC, ENOMEM, EDQUOT), WL_ERROR for anything else. */
int wl_errno_code(int err);

/* wl_fail() with "what: strerror(errno)" and the code wl_errno_code(errno). */
int wl_sys_fail(struct wl_ctx *ctx, const char *what);

/* fork(2) for workloads. In the child (*pid == 0) PR_SET_PDEATHSIG is SIGKILL
 * and the child has checked that its parent is still alive. Returns 0, or
 * WL_NORESOURCE/WL_ERROR with ctx->why filled (no child then). */
int wl_fork(struct wl_ctx *ctx, pid_t *pid);

/* Wait for pid, retrying on EINTR. status and ru may be NULL. Returns 0 or -1. */
int wl_wait(pid_t pid, int *status, struct rusage *ru);

/* SIGKILL pid and reap it. */
void wl_kill_reap(pid_t pid);

/* Pin the calling thread to cpu. Returns 0 or -1 with errno set. */
int wl_pin_self(int cpu);

/* Create tmpdir/name for reading and writing with O_CREAT|O_EXCL|O_NOFOLLOW|O_CLOEXEC,
 * mode 0600. *path (may be NULL) gets a newly allocated path. Returns the fd, or a
 * negative WL_* code with ctx->why filled. */
int wl_tmp_create(struct wl_ctx *ctx, const char *name, char **path);

/* Write all of buf to fd, retrying short writes. Returns 0 or -1 with errno set. */
int wl_write_all(int fd, const void *buf, size_t len);

/* The process's CPU affinity, saved by setup and restored by teardown of the
 * workloads that pin themselves. */
struct wl_affinity {
	cpu_set_t set;
	bool saved;
};
void wl_affinity_save(struct wl_affinity *a);
void wl_affinity_restore(const struct wl_affinity *a);

#endif
