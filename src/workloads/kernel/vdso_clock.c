/* vdso_clock.c - kernel.vdso.clock: clock_gettime(CLOCK_MONOTONIC) through the vDSO. */
#include "workloads/util.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A vDSO can still fall back to the clock_gettime syscall (a clocksource without vDSO
 * support, such as hpet or acpi_pm, or a time namespace quirk); then the op is a
 * syscall and the workload measures the wrong thing. Setup probes it in a child: a
 * seccomp filter makes the real syscall fail with EPERM, so a clock_gettime that
 * still succeeds never entered the kernel. The check counts calls of batches run
 * while the probe said "no syscall". param (for tests only) may point to a
 * struct wl_vdso_param that simulates the fallback. */

struct vclk {
	int64_t last; /* the last reading, so the next run checks against it */
	bool in_user; /* the probe saw clock_gettime answered without the syscall */
	bool direct;  /* simulate_fallback */
};

static int vclk_read(bool direct, struct timespec *ts)
{
#ifdef SYS_clock_gettime
	if (direct)
		return (int)syscall(SYS_clock_gettime, CLOCK_MONOTONIC, ts);
#else
	(void)direct;
#endif
	return clock_gettime(CLOCK_MONOTONIC, ts);
}

/* In a child: forbid the clock_gettime syscall, then read the clock. Returns 1 when it
 * was answered without the syscall, 0 when it needed it, -1 when seccomp is not
 * available (errno-style reason in *why). */
static int vclk_probe(bool direct, char *why, size_t len)
{
#ifdef SYS_clock_gettime
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clock_gettime, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = {.len = sizeof f / sizeof f[0], .filter = f};
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) < 0)
			_exit(3);
		struct timespec ts;
		_exit(vclk_read(direct, &ts) == 0 ? 0 : 1);
	}
	int status;
	if (wl_wait(pid, &status, NULL) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) > 1) {
		snprintf(why, len, "seccomp filters are not available here");
		return -1;
	}
	return WEXITSTATUS(status) == 0;
#else
	(void)direct;
	snprintf(why, len, "this architecture has no clock_gettime syscall number to filter");
	return -1;
#endif
}

static int vclk_setup(struct wl_ctx *ctx)
{
	if (getauxval(AT_SYSINFO_EHDR) == 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "this process has no vDSO, so clock_gettime would be a syscall");
	const struct wl_vdso_param *p = ctx->param;
	bool direct = p && p->simulate_fallback;
	char why[128];
	int r = vclk_probe(direct, why, sizeof why);
	if (r < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "cannot verify that clock_gettime avoids the syscall: %s", why);
	struct vclk *v = calloc(1, sizeof *v);
	if (!v)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	v->in_user = r == 1;
	v->direct = direct;
	ctx->priv = v;
	return 0;
}

/* count[0] counts the readings that did not go backwards. */
static int vclk_run(struct wl_ctx *ctx, uint64_t n)
{
	struct vclk *v = ctx->priv;
	int64_t last = v->last;
	uint64_t ordered = 0;
	bool direct = v->direct;
	for (uint64_t i = 0; i < n; i++) {
		struct timespec ts;
		vclk_read(direct, &ts);
		int64_t t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
		ordered += t >= last;
		last = t;
	}
	v->last = last;
	ctx->count[0] += ordered;
	ctx->count[1] += v->in_user ? n : 0;
	return 0;
}

static void vclk_teardown(struct wl_ctx *ctx)
{
	free(ctx->priv);
}

const struct workload wl_kernel_vdso_clock = {
	.name = "kernel.vdso.clock",
	.group = "kernel",
	.summary = "clock_gettime(CLOCK_MONOTONIC), answered in user space by the vDSO",
	.kernel_path = "none when the clocksource supports the vDSO: vDSO code reads the clocksource and the vvar page",
	.unit = "call",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("monotonic readings per op", WL_M_COUNT0, 1, 1),
		   WL_CHECK("calls answered without the syscall (seccomp probe) per op", WL_M_COUNT1, 1, 1)},
	.setup = vclk_setup,
	.run = vclk_run,
	.teardown = vclk_teardown,
};
