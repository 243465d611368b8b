/* trap.c - kernel.trap.break and kernel.trap.undef: a breakpoint to SIGTRAP and an undefined instruction to SIGILL, and back. */
#include "workloads/util.h"

#include <signal.h>
#include <string.h>
#include <ucontext.h>

/* One op is one trap round trip: the exception entry, the kernel's trap handler, signal
 * delivery to a handler that steps the PC over the instruction, and sigreturn. The
 * instructions per architecture:
 *
 *   x86_64      int3 (trap: the PC is already past it)    ud2 (fault: PC += 2)
 *   aarch64     brk #0 (PC += 4)                          udf #0 (PC += 4)
 *   riscv64     ebreak, 32-bit encoding (PC += 4)         csrrw x0, cycle, x0: a write to a
 *                                                         read-only CSR (PC += 4)
 *   loongarch64 break 0 (PC += 4)                         none known to be reliably undefined
 *
 * Elsewhere the workload reports unsupported. Under a hypervisor an undefined
 * instruction may exit to the host first (x86 #UD does under some KVM setups), so its
 * cost can include a VM exit; the environment records the hypervisor kind. */
struct trap_param {
	int sig;       /* SIGTRAP or SIGILL */
	const char *what;
};

static const struct trap_param trap_break = {SIGTRAP, "breakpoint"};
static const struct trap_param trap_undef = {SIGILL, "undefined instruction"};

/* The handler's state: a signal handler cannot take a context argument, so it lives in
 * the one place signal handlers may write; each copy is its own process. */
static volatile sig_atomic_t trap_hits;

#if defined(__x86_64__)
#define TRAP_BREAK() __asm__ volatile("int3" ::: "memory")
#define TRAP_UNDEF() __asm__ volatile("ud2" ::: "memory")
#define TRAP_STEP_BREAK 0
#define TRAP_STEP_UNDEF 2
#define TRAP_PC(uc) ((uc)->uc_mcontext.gregs[REG_RIP])
#elif defined(__aarch64__)
#define TRAP_BREAK() __asm__ volatile("brk #0" ::: "memory")
#define TRAP_UNDEF() __asm__ volatile("udf #0" ::: "memory")
#define TRAP_STEP_BREAK 4
#define TRAP_STEP_UNDEF 4
#define TRAP_PC(uc) ((uc)->uc_mcontext.pc)
#elif defined(__riscv) && __riscv_xlen == 64
#define TRAP_BREAK() __asm__ volatile(".4byte 0x00100073" ::: "memory") /* ebreak */
#define TRAP_UNDEF() __asm__ volatile(".4byte 0xc0001073" ::: "memory") /* csrrw x0, cycle, x0 */
#define TRAP_STEP_BREAK 4
#define TRAP_STEP_UNDEF 4
#define TRAP_PC(uc) ((uc)->uc_mcontext.__gregs[0])
#elif defined(__loongarch__) && __loongarch_grlen == 64
#define TRAP_BREAK() __asm__ volatile("break 0" ::: "memory")
#define TRAP_STEP_BREAK 4
#define TRAP_PC(uc) ((uc)->uc_mcontext.__pc)
#endif

#ifdef TRAP_PC
static void trap_handler(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	(void)si;
	(void)sig; /* used only where the architecture has an undefined-instruction trap */
#ifdef TRAP_UNDEF
	TRAP_PC(uc) += sig == SIGTRAP ? TRAP_STEP_BREAK : TRAP_STEP_UNDEF;
#else
	TRAP_PC(uc) += TRAP_STEP_BREAK;
#endif
	trap_hits++;
}
#endif

static bool trap_available(int sig)
{
#if defined(TRAP_PC) && defined(TRAP_UNDEF)
	(void)sig;
	return true;
#elif defined(TRAP_PC)
	return sig == SIGTRAP;
#else
	(void)sig;
	return false;
#endif
}

struct trap_state {
	struct sigaction old;
};

static int trap_setup(struct wl_ctx *ctx)
{
	const struct trap_param *p = ctx->param;
	if (!trap_available(p->sig))
		return wl_fail(ctx, WL_UNSUPPORTED, "no %s trap is known for this architecture", p->what);
#ifdef TRAP_PC
	static struct trap_state st; /* one per process: a copy is a process */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = trap_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(p->sig, &sa, &st.old) < 0)
		return wl_sys_fail(ctx, "sigaction");
	ctx->priv = &st;
#endif
	return 0;
}

static int trap_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct trap_param *p = ctx->param;
	if (ctx->omit)
		return 0; /* tests only: the trap left out, so nothing is delivered */
	sig_atomic_t before = trap_hits;
	uint64_t hits = 0;
	for (uint64_t i = 0; i < n; i++) {
#ifdef TRAP_BREAK
		if (p->sig == SIGTRAP)
			TRAP_BREAK();
#endif
#ifdef TRAP_UNDEF
		if (p->sig == SIGILL)
			TRAP_UNDEF();
#endif
		hits += (uint64_t)(trap_hits - before);
		before = trap_hits;
	}
	ctx->count[0] += hits;
	return 0;
}

static void trap_teardown(struct wl_ctx *ctx)
{
	const struct trap_param *p = ctx->param;
	struct trap_state *st = ctx->priv;
	if (st)
		sigaction(p->sig, &st->old, NULL);
}

const struct workload wl_kernel_trap_break = {
	.name = "kernel.trap.break",
	.group = "kernel",
	.summary = "a breakpoint instruction (int3, brk, ebreak, break) caught as SIGTRAP by a handler that steps over it",
	.kernel_path = "breakpoint exception entry, debug trap handler, signal delivery and sigreturn",
	.unit = "trap",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("SIGTRAP deliveries per op", WL_M_COUNT0, 1, 1)},
	.param = &trap_break,
	.setup = trap_setup,
	.run = trap_run,
	.teardown = trap_teardown,
};

const struct workload wl_kernel_trap_undef = {
	.name = "kernel.trap.undef",
	.group = "kernel",
	.summary = "an undefined instruction (ud2, udf, a read-only CSR write) caught as SIGILL by a handler that steps over it",
	.kernel_path = "undefined-instruction exception entry (maybe a VM exit first), signal delivery and sigreturn",
	.unit = "trap",
	.flags = WL_LATENCY | WL_ENTRY,
	.checks = {WL_CHECK("SIGILL deliveries per op", WL_M_COUNT0, 1, 1)},
	.param = &trap_undef,
	.setup = trap_setup,
	.run = trap_run,
	.teardown = trap_teardown,
};
