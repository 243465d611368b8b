/* syscall_mix.c - kernel.syscall.mix: a fixed sequence of 13 different system calls, each answer checked. */
#include "workloads/util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* kernel.syscall.null enters the kernel and leaves at once: its kernel text is the entry
 * code and one tiny function, a few cache lines that stay hot. One op here is 13 calls
 * through 13 different syscall implementations (process, file, pipe, time, resource,
 * signal, poll code), so the kernel text an op runs is many times larger and exposes
 * text placement and iTLB reach. Every call's answer is checked against what setup saw,
 * and count[0] gets the checked calls: a call that failed, or that libc answered without
 * the kernel with a wrong value, does not count. */
#define MIX_CALLS 13

struct mix {
	int zero;       /* /dev/zero, read-only */
	int pipe[2];    /* written and read back within the op: no other process, no switch */
	long ppid;
	dev_t zero_rdev;
	rlim_t nofile;
	struct timespec last;
	struct utsname uts;
	struct rusage ru;
	struct stat st;
	sigset_t mask;
	unsigned char byte;
};

static void mix_free(struct mix *m)
{
	if (m->zero >= 0)
		close(m->zero);
	if (m->pipe[0] >= 0)
		close(m->pipe[0]), close(m->pipe[1]);
	free(m);
}

static int mix_setup(struct wl_ctx *ctx)
{
	struct mix *m = calloc(1, sizeof *m);
	if (!m)
		return wl_fail(ctx, WL_NORESOURCE, "out of memory");
	m->pipe[0] = m->pipe[1] = -1;
	m->zero = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (m->zero < 0) {
		int rc = errno == ENOENT || errno == EACCES ? wl_fail(ctx, WL_UNSUPPORTED, "cannot open /dev/zero")
							    : wl_sys_fail(ctx, "/dev/zero");
		mix_free(m);
		return rc;
	}
	struct rlimit rl;
	if (pipe2(m->pipe, O_CLOEXEC | O_NONBLOCK) < 0 || fstat(m->zero, &m->st) < 0 ||
	    getrlimit(RLIMIT_NOFILE, &rl) < 0) {
		int rc = wl_sys_fail(ctx, "syscall.mix setup");
		mix_free(m);
		return rc;
	}
	m->zero_rdev = m->st.st_rdev;
	m->nofile = rl.rlim_cur;
	m->ppid = ctx->omit ? -1 : getppid(); /* tests only: one call per op then answers wrong */
	ctx->priv = m;
	return 0;
}

/* One op: the 13 calls, in this order. Returns how many answered as expected. */
static unsigned mix_op(struct mix *m)
{
	unsigned ok = 0;
	unsigned char b = 1, r = 0;
	struct timespec ts;
	struct rlimit rl;
	struct pollfd pfd = {.fd = m->pipe[0], .events = POLLIN};

	ok += syscall(SYS_getppid) == m->ppid;
	ok += read(m->zero, &b, 1) == 1 && b == 0;
	m->byte++;
	ok += write(m->pipe[1], &m->byte, 1) == 1;
	ok += read(m->pipe[0], &r, 1) == 1 && r == m->byte;
	ok += fstat(m->zero, &m->st) == 0 && m->st.st_rdev == m->zero_rdev;
	/* through syscall(2): the vDSO would answer without entering the kernel */
	if (syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &ts) == 0 &&
	    (ts.tv_sec > m->last.tv_sec || (ts.tv_sec == m->last.tv_sec && ts.tv_nsec >= m->last.tv_nsec))) {
		m->last = ts;
		ok++;
	}
	ok += getrusage(RUSAGE_SELF, &m->ru) == 0;
	ok += lseek(m->zero, 0, SEEK_SET) == 0;
	ok += uname(&m->uts) == 0 && m->uts.sysname[0] != '\0';
	ok += sigprocmask(SIG_BLOCK, NULL, &m->mask) == 0;
	ok += getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur == m->nofile;
	ok += fcntl(m->zero, F_GETFD) == FD_CLOEXEC;
	ok += poll(&pfd, 1, 0) == 0; /* the pipe is empty again: nothing ready */
	return ok;
}

static int mix_run(struct wl_ctx *ctx, uint64_t n)
{
	struct mix *m = ctx->priv;
	uint64_t ok = 0;
	for (uint64_t i = 0; i < n; i++)
		ok += mix_op(m);
	ctx->count[0] += ok;
	return 0;
}

static void mix_teardown(struct wl_ctx *ctx)
{
	mix_free(ctx->priv);
}

const struct workload wl_kernel_syscall_mix = {
	.name = "kernel.syscall.mix",
	.group = "kernel",
	.summary = "13 different system calls in a fixed order (getppid, read, pipe write and read, fstat, "
		   "clock_gettime, getrusage, lseek, uname, sigprocmask, getrlimit, fcntl, poll)",
	.kernel_path = "syscall entry/exit 13 times through 13 implementations: a kernel text footprint per op "
		       "far larger than syscall.null's (text placement, iTLB reach)",
	.unit = "13-syscall mix",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("checked calls per op", WL_M_COUNT0, MIX_CALLS, MIX_CALLS)},
	.setup = mix_setup,
	.run = mix_run,
	.teardown = mix_teardown,
};
