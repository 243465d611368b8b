/* trap_emul.c - kernel.trap.emul: an instruction the kernel traps and emulates for user space, no signal. */
#include "workloads/util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

/* One op is one exception round trip that the kernel finishes itself: the trap, decoding
 * or identifying the instruction, writing its result to user space, stepping the PC, and
 * the return; no signal is delivered.
 *
 *   x86_64   sgdt with UMIP on: the #GP handler emulates it (fixup_umip_exception) and
 *            stores a dummy GDT base 0xfffffffffffe0000 with limit 0. Native execution
 *            (UMIP off) would store the real base and limit, so every answer is checked
 *            against the dummy: a run without the trap fails the check, and setup says
 *            unsupported. The kernel logs a rate-limited "umip: ... SGDT instruction
 *            cannot be used by applications" line.
 *   aarch64  mrs of ID_AA64ISAR0_EL1 (S3_0_C0_C6_0): EL0 cannot read the ID registers, so
 *            every read traps and the kernel emulates it (emulate_mrs, advertised by
 *            HWCAP_CPUID) with its sanitised value; each answer must equal setup's.
 * Elsewhere: unsupported, with the reason. */

#if defined(__x86_64__)
#define EMUL_DUMMY_GDT_BASE 0xfffffffffffe0000ull

struct __attribute__((packed)) emul_dt {
	uint16_t limit;
	uint64_t base;
};

/* 1 when this sgdt gave the answer expected of the emulation (setup's: the dummy base,
 * limit 0), else 0. */
static inline unsigned emul_op(uint64_t expect)
{
	struct emul_dt d = {0xffff, 0};
	__asm__ volatile("sgdt %0" : "=m"(d) : : "memory");
	return d.base == expect && d.limit == 0;
}

/* In the probe child: 0 when sgdt gave the emulated answer, 1 when it ran natively. */
static int emul_probe_child(uint64_t *value)
{
	*value = EMUL_DUMMY_GDT_BASE;
	return emul_op(EMUL_DUMMY_GDT_BASE) ? 0 : 1;
}
#define EMUL_NATIVE_WHY "sgdt ran without a trap and stored the real GDT: UMIP is off (no CPU support, " \
			"or a kernel without CONFIG_X86_UMIP)"
#define EMUL_SIGNAL_WHY "sgdt raised a signal: this kernel does not emulate it for user space"
#define EMUL_HAVE 1

#elif defined(__aarch64__)
static inline uint64_t emul_read(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, S3_0_C0_C6_0" : "=r"(v) : : "memory");
	return v;
}

static inline unsigned emul_op(uint64_t expect)
{
	return emul_read() == expect;
}

static int emul_probe_child(uint64_t *value)
{
	*value = emul_read();
	return 0;
}
#define EMUL_NATIVE_WHY "unexpected probe answer"
#define EMUL_SIGNAL_WHY "mrs of ID_AA64ISAR0_EL1 raised a signal: this kernel does not emulate ID register reads"
#define EMUL_HAVE 1
#endif

#ifdef EMUL_HAVE
/* Probe in a child, which a signal may kill: 0 with *value (setup's answer), or a WL_*
 * code with ctx->why filled. */
static int emul_probe(struct wl_ctx *ctx, uint64_t *value)
{
	int p[2];
	if (pipe2(p, O_CLOEXEC) < 0)
		return wl_sys_fail(ctx, "pipe");
	pid_t pid;
	int rc = wl_fork(ctx, &pid);
	if (rc < 0) {
		close(p[0]), close(p[1]);
		return rc;
	}
	if (pid == 0) {
		uint64_t v;
		int code = emul_probe_child(&v);
		_exit(write(p[1], &v, sizeof v) == (ssize_t)sizeof v ? code : 3);
	}
	close(p[1]);
	ssize_t got = read(p[0], value, sizeof *value);
	close(p[0]);
	int status;
	if (wl_wait(pid, &status, NULL) < 0)
		return wl_sys_fail(ctx, "waiting for the probe");
	if (WIFSIGNALED(status))
		return wl_fail(ctx, WL_UNSUPPORTED, "%s (signal %d)", EMUL_SIGNAL_WHY, WTERMSIG(status));
	if (!WIFEXITED(status) || got != (ssize_t)sizeof *value)
		return wl_fail(ctx, WL_ERROR, "the emulated-trap probe failed");
	if (WEXITSTATUS(status) == 1)
		return wl_fail(ctx, WL_UNSUPPORTED, "%s", EMUL_NATIVE_WHY);
	return WEXITSTATUS(status) == 0 ? 0 : wl_fail(ctx, WL_ERROR, "the emulated-trap probe failed");
}
#endif

static int emul_setup(struct wl_ctx *ctx)
{
#if defined(__aarch64__) && defined(HWCAP_CPUID)
	if (!(getauxval(AT_HWCAP) & HWCAP_CPUID))
		return wl_fail(ctx, WL_UNSUPPORTED, "the kernel does not advertise ID register emulation (HWCAP_CPUID)");
#endif
#ifdef EMUL_HAVE
	static uint64_t expect; /* one per process: a copy is a process */
	int rc = emul_probe(ctx, &expect);
	if (rc < 0)
		return rc;
	if (ctx->omit)
		expect = ~expect; /* tests only: every answer then differs, as a native instruction's would */
	ctx->priv = &expect;
	return 0;
#else
	return wl_fail(ctx, WL_UNSUPPORTED, "no instruction that the kernel emulates for user space without a "
		       "signal is known for this architecture (x86_64: sgdt under UMIP; arm64: ID register reads)");
#endif
}

/* count[0] gets the answers that only the kernel's emulation gives. */
static int emul_run(struct wl_ctx *ctx, uint64_t n)
{
#ifdef EMUL_HAVE
	uint64_t expect = *(const uint64_t *)ctx->priv, ok = 0;
	for (uint64_t i = 0; i < n; i++)
		ok += emul_op(expect);
	ctx->count[0] += ok;
	return 0;
#else
	(void)n;
	return wl_fail(ctx, WL_ERROR, "kernel.trap.emul cannot run on this architecture");
#endif
}

const struct workload wl_kernel_trap_emul = {
	.name = "kernel.trap.emul",
	.group = "kernel",
	.summary = "an instruction the kernel traps and emulates for user space without a signal (x86_64: sgdt under "
		   "UMIP; arm64: an ID register read)",
	.kernel_path = "exception entry (#GP on x86, undefined-instruction/sysreg trap on arm64), instruction "
		       "emulation, result copied to user space, return; no signal",
	.unit = "trap",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("emulated answers per op", WL_M_COUNT0, 1, 1)},
	.setup = emul_setup,
	.run = emul_run,
};
