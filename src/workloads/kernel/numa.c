/* numa.c - kernel.numa.local and kernel.numa.remote: dependent loads from memory on the CPU's own node or on another. */
#include "workloads/util.h"
#include "core/core.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The copy is pinned to cpus[0]; a 64 MiB buffer is bound (mbind MPOL_BIND) to that
 * CPU's node (local) or to the next node with memory (remote), filled, and checked page
 * by page with get_mempolicy(MPOL_F_NODE | MPOL_F_ADDR). One op is one dependent load
 * at a random cache line of the buffer, which misses the caches. The page tables are
 * built by the pinned CPU, so they are local in both variants. A machine with one node
 * reports unsupported. No libnuma: the two system calls are made directly. */
#define NUMA_BYTES (64ul << 20)
#define MPOL_BIND_ 2
#define MPOL_F_NODE_ (1 << 0)
#define MPOL_F_ADDR_ (1 << 1)

struct numa_param {
	bool remote;
};
static const struct numa_param numa_local = {false}, numa_remote = {true};

struct numa {
	char *buf;
	void **cursor;
	int node;
	struct wl_affinity aff;
};

/* The node of CPU cpu, -1 when sysfs does not say. */
static int numa_cpu_node(int cpu)
{
	char *pat = xasprintf("/sys/devices/system/cpu/cpu%d/node*", cpu);
	glob_t g;
	int node = -1;
	if (glob(pat, 0, NULL, &g) == 0) {
		if (g.gl_pathc > 0)
			node = atoi(strrchr(g.gl_pathv[0], 'e') + 1);
		globfree(&g);
	}
	free(pat);
	return node;
}

/* The nodes that have memory, into has[] (up to max); returns how many. */
static int numa_mem_nodes(bool *has, int max)
{
	char *s = read_text_file("/sys/devices/system/node/has_memory");
	if (!s)
		s = read_text_file("/sys/devices/system/node/online");
	int n = 0;
	for (char *p = s; p && *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long i = a; i <= b && i < max; i++)
			if (i >= 0 && !has[i])
				has[i] = true, n++;
		p = *end == ',' ? end + 1 : end + (*end != 0);
	}
	free(s);
	return n;
}

static int numa_setup(struct wl_ctx *ctx)
{
	const struct numa_param *p = ctx->param;
	enum { MAXN = 1024 };
	bool has[MAXN] = {false};
	int nn = numa_mem_nodes(has, MAXN);
	if (nn < 2)
		return wl_fail(ctx, WL_UNSUPPORTED, "one NUMA node with memory here (needs two for local against remote)");
	int home = numa_cpu_node(ctx->cpus[0]);
	if (home < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "sysfs does not say which node CPU %d is on", ctx->cpus[0]);
	int node = home;
	if (p->remote)
		for (int i = 1; i < MAXN; i++)
			if (has[(home + i) % MAXN]) {
				node = (home + i) % MAXN;
				break;
			}
	struct numa *m = xcalloc(1, sizeof *m);
	m->node = node;
	wl_affinity_save(&m->aff);
	int rc = 0;
	if (wl_pin_self(ctx->cpus[0]) < 0) {
		rc = wl_sys_fail(ctx, "sched_setaffinity");
		goto fail;
	}
	m->buf = mmap(NULL, NUMA_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->buf == MAP_FAILED) {
		m->buf = NULL;
		rc = wl_sys_fail(ctx, "mmap");
		goto fail;
	}
	unsigned long mask[MAXN / (8 * sizeof(unsigned long))] = {0};
	mask[node / (8 * sizeof(unsigned long))] |= 1ul << (node % (8 * sizeof(unsigned long)));
	if (syscall(SYS_mbind, m->buf, NUMA_BYTES, MPOL_BIND_, mask, (unsigned long)MAXN, 0) < 0) {
		rc = errno == ENOSYS || errno == EPERM ? wl_fail(ctx, WL_UNSUPPORTED, "mbind: %s", strerror(errno))
						      : wl_sys_fail(ctx, "mbind");
		goto fail;
	}
	/* one random cycle over the cache lines (Sattolo), written through, so every page
	 * is allocated on the bound node now */
	size_t lines = NUMA_BYTES / 64;
	uint32_t *order = xcalloc(lines, sizeof *order);
	uint64_t rng = 0x2545f4914f6cdd1dull ^ (uint64_t)ctx->copy;
	for (size_t i = 0; i < lines; i++)
		order[i] = (uint32_t)i;
	for (size_t i = lines - 1; i > 0; i--) {
		rng = rng * 6364136223846793005ull + 1442695040888963407ull;
		size_t j = (size_t)((rng >> 33) % i);
		uint32_t t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		*(void **)(m->buf + (size_t)order[i] * 64) = m->buf + (size_t)order[(i + 1) % lines] * 64;
	m->cursor = (void **)(m->buf + (size_t)order[0] * 64);
	free(order);
	for (size_t off = 0; off < NUMA_BYTES; off += (size_t)ctx->page_size) {
		int where = -1;
		if (syscall(SYS_get_mempolicy, &where, NULL, 0, m->buf + off, MPOL_F_NODE_ | MPOL_F_ADDR_) < 0 ||
		    where != node) {
			rc = wl_fail(ctx, WL_ERROR, "a page of the buffer is on node %d, not on node %d as bound", where, node);
			goto fail;
		}
	}
	ctx->priv = m;
	return 0;
fail:
	if (m->buf)
		munmap(m->buf, NUMA_BYTES);
	wl_affinity_restore(&m->aff);
	free(m);
	return rc;
}

static int numa_run(struct wl_ctx *ctx, uint64_t n)
{
	struct numa *m = ctx->priv;
	void **p = m->cursor;
	for (uint64_t i = 0; i < n; i++)
		p = (void **)*p;
	m->cursor = p;
	ctx->count[0] += n * (sched_getcpu() == ctx->cpus[0]);
	return 0;
}

static void numa_teardown(struct wl_ctx *ctx)
{
	struct numa *m = ctx->priv;
	munmap(m->buf, NUMA_BYTES);
	wl_affinity_restore(&m->aff);
	free(m);
}

const struct workload wl_kernel_numa_local = {
	.name = "kernel.numa.local",
	.group = "kernel",
	.summary = "dependent loads at random cache lines of 64 MiB bound to the pinned CPU's own NUMA node",
	.kernel_path = "none directly: memory placement by mbind (MPOL_BIND); the local half of a NUMA comparison",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0, 0.01), WL_CHECK("loads from the pinned CPU per op", WL_M_COUNT0, 1, 1)},
	.param = &numa_local,
	.setup = numa_setup,
	.run = numa_run,
	.teardown = numa_teardown,
};

const struct workload wl_kernel_numa_remote = {
	.name = "kernel.numa.remote",
	.group = "kernel",
	.summary = "dependent loads at random cache lines of 64 MiB bound to another NUMA node than the pinned CPU's",
	.kernel_path = "none directly: memory placement by mbind (MPOL_BIND); the remote half of a NUMA comparison",
	.unit = "load",
	.flags = WL_LATENCY,
	.checks = {WL_CHECK("minor faults per op", WL_M_MINFLT, 0, 0.01), WL_CHECK("loads from the pinned CPU per op", WL_M_COUNT0, 1, 1)},
	.param = &numa_remote,
	.setup = numa_setup,
	.run = numa_run,
	.teardown = numa_teardown,
};
