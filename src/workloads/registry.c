/* registry.c - the one table of workloads. Adding a workload adds one line here. */
#include "workload.h"
#include "core/core.h"

#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define WORKLOADS(X)               \
	X(wl_harness_null)         \
	X(wl_host_ref)             \
	X(wl_cpu_int)              \
	X(wl_cpu_float)            \
	X(wl_kernel_syscall_null)  \
	X(wl_kernel_syscall_read)  \
	X(wl_kernel_syscall_write) \
	X(wl_kernel_syscall_stat)  \
	X(wl_kernel_syscall_openclose) \
	X(wl_kernel_syscall_mix)   \
	X(wl_kernel_fault_anon)    \
	X(wl_kernel_fault_cow)     \
	X(wl_kernel_fault_file)    \
	X(wl_kernel_fault_prot)    \
	X(wl_kernel_fault_zero)    \
	X(wl_kernel_fault_threads) \
	X(wl_kernel_tlb_walk)      \
	X(wl_kernel_tlb_walk_huge) \
	X(wl_kernel_tlb_walk_control) \
	X(wl_kernel_tlb_shootdown) \
	X(wl_kernel_itlb_null)     \
	X(wl_kernel_itlb_control)  \
	X(wl_kernel_mm_mmap)       \
	X(wl_kernel_mm_dontneed)   \
	X(wl_kernel_signal_catch)  \
	X(wl_kernel_trap_break)    \
	X(wl_kernel_trap_undef)    \
	X(wl_kernel_trap_emul)     \
	X(wl_kernel_ctx_pipe)      \
	X(wl_kernel_ctx_pipe_cross) \
	X(wl_kernel_futex_pingpong) \
	X(wl_kernel_sched_yield)   \
	X(wl_kernel_proc_fork)     \
	X(wl_kernel_proc_exec)     \
	X(wl_kernel_ipi_membarrier) \
	X(wl_kernel_vdso_clock)    \
	X(wl_kernel_numa_local)    \
	X(wl_kernel_numa_remote)   \
	X(wl_unixbench_syscall)    \
	X(wl_unixbench_pipe)       \
	X(wl_unixbench_context1)   \
	X(wl_unixbench_spawn)      \
	X(wl_unixbench_execl)      \
	X(wl_unixbench_fstime_r)   \
	X(wl_unixbench_fstime_w)   \
	X(wl_unixbench_fstime)     \
	X(wl_unixbench_fsbuffer_r) \
	X(wl_unixbench_fsbuffer_w) \
	X(wl_unixbench_fsbuffer)   \
	X(wl_unixbench_fsdisk_r)   \
	X(wl_unixbench_fsdisk_w)   \
	X(wl_unixbench_fsdisk)     \
	X(wl_unixbench_shell1)     \
	X(wl_unixbench_shell8)

#define DECLARE(w) extern const struct workload w;
WORKLOADS(DECLARE)
#define ENTRY(w) &w,
static const struct workload *const registry[] = {WORKLOADS(ENTRY)};

size_t wl_count(void)
{
	return sizeof registry / sizeof registry[0];
}

const struct workload *wl_at(size_t i)
{
	return i < wl_count() ? registry[i] : NULL;
}

const struct workload *wl_find(const char *name)
{
	for (size_t i = 0; i < wl_count(); i++)
		if (strcmp(registry[i]->name, name) == 0)
			return registry[i];
	return NULL;
}

const char *wl_suggest(const char *name)
{
	const char *best = NULL;
	size_t bestd = (size_t)-1;
	for (size_t i = 0; i < wl_count(); i++) {
		const char *n = registry[i]->name;
		/* compare with the whole name and with every dotted suffix of it */
		for (const char *p = n; p; p = strchr(p, '.') ? strchr(p, '.') + 1 : NULL) {
			size_t d = edit_distance(name, p);
			if (d < bestd) {
				bestd = d;
				best = n;
			}
		}
	}
	size_t len = strlen(name);
	return bestd <= (len < 6 ? 2 : len / 3 + 1) ? best : NULL;
}

bool wl_matches(const struct workload *w, const char *pattern)
{
	if (strcmp(w->name, pattern) == 0 || fnmatch(pattern, w->name, 0) == 0)
		return true;
	size_t n = strlen(pattern);
	return strncmp(w->name, pattern, n) == 0 && w->name[n] == '.';
}

int wl_fail(struct wl_ctx *ctx, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof ctx->why, fmt, ap);
	va_end(ap);
	return code;
}

double wl_unixbench_units(const struct workload *w)
{
	return w && w->unixbench_units > 0 ? w->unixbench_units : 1.0;
}
