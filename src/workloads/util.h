/* util.h - helpers shared by workloads: errno mapping, child processes, CPU pinning, temp files. */
#ifndef SYSAB_WL_UTIL_H
#define SYSAB_WL_UTIL_H

#include "workload.h"

#include <sched.h>
#include <stdio.h>
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

/* The helper program name installed next to the sysab binary (ctx->self_exe), which must
 * be dynamically linked when dynamic, else static. A dynamic one must also run here: its
 * loader (PT_INTERP) must exist, and it is exec'd once without arguments (it exits 0),
 * untimed, so a missing library shows now rather than as a failed op. On success *path
 * gets its newly allocated path (the caller frees it) and 0 is returned; else
 * WL_UNSUPPORTED with ctx->why saying what is wrong ("helper not found at PATH", the wrong
 * linking, the missing loader or library) and *path NULL. */
int wl_helper_find(struct wl_ctx *ctx, const char *name, bool dynamic, char **path);

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

/* This copy's own pair of CPUs (*a for the caller, *b for its partner): copy i gets
 * the run's CPUs 2i and 2i+1, so no two copies share a CPU. Returns 0, or -1 when the
 * run has fewer than 2 × copies CPUs. */
int wl_cpu_pair(const struct wl_ctx *ctx, int *a, int *b);

/* The count of function-call IPIs CPU cpu has received, from /proc/interrupts (the
 * "Function call interrupts" line: CAL on x86, IPI1 on arm64, riscv and LoongArch).
 * Returns 0, or -1 when the file or the line or the CPU's column is missing.
 * wl_ipi_count_from parses an open file of that format (for tests). */
int wl_ipi_count(int cpu, uint64_t *out);
int wl_ipi_count_from(FILE *f, int cpu, uint64_t *out);
/* The same from the file at path, a file of /proc/interrupts' format. */
int wl_ipi_count_at(const char *path, int cpu, uint64_t *out);

/* The context switches of process pid so far (voluntary and involuntary, from
 * /proc/pid/status), read once it is asleep, or after about 20 ms if it never is: a peer on
 * its way back to read() has then made the switch that belongs to the batch just ended. Call
 * only outside the timed region. Returns 0, or -1 when they cannot be read. */
int wl_proc_switches_asleep(pid_t pid, uint64_t *vol, uint64_t *invol);

/* The most pages a page-fault workload prepares for one batch: 64 MiB worth, at least 64
 * pages. Its max_batch hook. */
#define WL_FAULT_BATCH_BYTES (64u << 20)
uint64_t wl_fault_batch_cap(long page_size);
/* On a page-fault workload's run(): its touches of fresh pages are not instrumented. Under
 * AddressSanitizer each touch would first read the page's shadow, whose own first read
 * faults (one shadow page per 8 pages: 1.08-1.12 faults per op in kernel.fault.anon under
 * make asan, against its check's 1.1). */
#define WL_TOUCH_UNCHECKED __attribute__((no_sanitize_address))

/* kernel.vdso.clock's param, a seam for tests: simulate a clocksource without vDSO
 * support by calling the clock_gettime syscall directly, in the probe and in run(). */
struct wl_vdso_param {
	bool simulate_fallback;
};

/* kernel.tlb.walk-huge's param, a seam for tests: thp_enabled replaces the contents of
 * /sys/kernel/mm/transparent_hugepage/enabled, and with it anon_huge_kb (>= 0) replaces
 * the AnonHugePages figure read from smaps. */
struct wl_tlb_param {
	const char *thp_enabled;
	long anon_huge_kb;
};

/* kernel.fault.zero's param, a seam for tests: probe_added (>= 0) replaces the resident
 * pages that reading WL_ZERO_PROBE_PAGES fresh anonymous pages added in its probe, so that
 * both answers (zero page present, or every read fault allocating) are tested everywhere. */
#define WL_ZERO_PROBE_PAGES 64
struct wl_zero_param {
	long probe_added;
};

/* kernel.ipi.membarrier's param, a seam for tests: interrupts replaces the path
 * /proc/interrupts (a file that does not exist makes the IPI check "cannot check"). */
struct wl_mb_param {
	const char *interrupts;
};

/* The process's CPU affinity, saved by setup and restored by teardown of the
 * workloads that pin themselves. */
struct wl_affinity {
	cpu_set_t set;
	bool saved;
};
void wl_affinity_save(struct wl_affinity *a);
void wl_affinity_restore(const struct wl_affinity *a);

#endif
