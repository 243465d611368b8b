/* counters.c - perf_event_open groups per worker process, read between batches (never inside one). */
#include "counters.h"

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TLB_MISS(c) ((c) | (PERF_COUNT_HW_CACHE_OP_READ << 8) | (PERF_COUNT_HW_CACHE_RESULT_MISS << 16))

static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
	int group;
} events[CTR_NEVENTS] = {
	[CTR_TASK_CLOCK] = {"task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, CTR_GROUP_SW},
	[CTR_CTX_SWITCHES] = {"context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, CTR_GROUP_SW},
	[CTR_MIGRATIONS] = {"cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, CTR_GROUP_SW},
	[CTR_PAGE_FAULTS] = {"page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, CTR_GROUP_SW},
	[CTR_CYCLES] = {"cycles:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, CTR_GROUP_HW_USER},
	[CTR_INSTRUCTIONS] = {"instructions:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, CTR_GROUP_HW_USER},
	[CTR_DTLB_MISSES] = {"dTLB-load-misses:u", PERF_TYPE_HW_CACHE, TLB_MISS(PERF_COUNT_HW_CACHE_DTLB), CTR_GROUP_HW_USER},
	[CTR_ITLB_MISSES] = {"iTLB-load-misses:u", PERF_TYPE_HW_CACHE, TLB_MISS(PERF_COUNT_HW_CACHE_ITLB), CTR_GROUP_HW_USER},
	[CTR_BRANCH_MISSES] = {"branch-misses:u", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, CTR_GROUP_HW_USER},
	[CTR_K_CYCLES] = {"cycles:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, CTR_GROUP_HW_KERNEL},
	[CTR_K_INSTRUCTIONS] = {"instructions:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, CTR_GROUP_HW_KERNEL},
	[CTR_K_DTLB_MISSES] = {"dTLB-load-misses:k", PERF_TYPE_HW_CACHE, TLB_MISS(PERF_COUNT_HW_CACHE_DTLB), CTR_GROUP_HW_KERNEL},
	[CTR_K_ITLB_MISSES] = {"iTLB-load-misses:k", PERF_TYPE_HW_CACHE, TLB_MISS(PERF_COUNT_HW_CACHE_ITLB), CTR_GROUP_HW_KERNEL},
	[CTR_K_BRANCH_MISSES] = {"branch-misses:k", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, CTR_GROUP_HW_KERNEL},
};

const char *counters_name(int event)
{
	return event >= 0 && event < CTR_NEVENTS ? events[event].name : "?";
}

int counters_group(int event)
{
	return events[event].group;
}

int counters_parse_mode(const char *s, enum ctr_mode *mode, struct err *e)
{
	if (!strcmp(s, "none"))
		*mode = CTR_MODE_NONE;
	else if (!strcmp(s, "software"))
		*mode = CTR_MODE_SOFTWARE;
	else if (!strcmp(s, "all"))
		*mode = CTR_MODE_ALL;
	else
		return errf(e, "--counters %s: give none, software or all", s);
	return 0;
}

static int open_event(int ev, pid_t pid, int group_fd, bool sw_kernel)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = events[ev].type;
	a.config = events[ev].config;
	a.inherit = 1; /* children the workload forks later count too */
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	a.exclude_hv = 1;
	if (events[ev].group == CTR_GROUP_SW)
		a.exclude_kernel = !sw_kernel;
	else if (events[ev].group == CTR_GROUP_HW_USER)
		a.exclude_kernel = 1;
	else
		a.exclude_user = 1;
	return (int)syscall(SYS_perf_event_open, &a, pid, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static int paranoid(void)
{
	char *s = read_text_file("/proc/sys/kernel/perf_event_paranoid");
	int v = s ? atoi(s) : 2;
	free(s);
	return v;
}

static void reason(char *buf, size_t n, int group, int err)
{
	const char *what = group == CTR_GROUP_SW ? "software events" : group == CTR_GROUP_HW_USER ? "hardware events"
											     : "kernel-mode hardware events";
	if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV)
		snprintf(buf, n, "unavailable: no hardware PMU for %s here (a VM without a virtual PMU, or an "
				 "unsupported CPU)", what);
	else if (err == EACCES || err == EPERM)
		snprintf(buf, n, "unavailable: perf_event_paranoid is %d and this user lacks CAP_PERFMON, so %s "
				 "cannot be counted; run as root or set perf_event_paranoid to 1", paranoid(), what);
	else if (err == ENOSYS)
		snprintf(buf, n, "unavailable: perf_event_open is missing (ENOSYS): a kernel without "
				 "CONFIG_PERF_EVENTS, or a user-mode emulator that does not pass it on");
	else
		snprintf(buf, n, "unavailable: perf_event_open of %s: %s", what, strerror(err));
}

/* Open group g on pid; fds of its open events into fd (leader first), their events into ev.
 * Returns how many opened (0 when the leader failed, with *err set). */
static int open_group(int g, pid_t pid, bool sw_kernel, int *fd, int *ev, int *err)
{
	int n = 0;
	*err = 0;
	for (int i = 0; i < CTR_NEVENTS; i++) {
		if (events[i].group != g)
			continue;
		int f = open_event(i, pid, n ? fd[0] : -1, sw_kernel);
		if (f < 0) {
			if (!n) {
				*err = errno;
				return 0;
			}
			continue; /* a member this PMU lacks (iTLB on some CPUs): count the rest */
		}
		fd[n] = f;
		ev[n++] = i;
	}
	return n;
}

void counters_plan(enum ctr_mode mode, struct ctr_plan *p)
{
	memset(p, 0, sizeof *p);
	p->mode = mode;
	for (int g = 0; g < CTR_NGROUPS; g++) {
		if (mode == CTR_MODE_NONE || (mode == CTR_MODE_SOFTWARE && g != CTR_GROUP_SW)) {
			snprintf(p->why[g], sizeof p->why[g], "off (--counters %s)",
				 mode == CTR_MODE_NONE ? "none" : "software");
			continue;
		}
		int fd[8], ev[8], err;
		bool skern = true;
		int n = open_group(g, 0, skern, fd, ev, &err);
		if (!n && g == CTR_GROUP_SW && (err == EACCES || err == EPERM)) {
			skern = false;
			n = open_group(g, 0, skern, fd, ev, &err);
		}
		if (g == CTR_GROUP_SW)
			p->sw_kernel = n && skern;
		p->group_ok[g] = n > 0;
		if (!n)
			reason(p->why[g], sizeof p->why[g], g, err);
		for (int i = 0; i < n; i++)
			close(fd[i]);
	}
}

void counters_env(const struct ctr_plan *p, struct kvlist *env)
{
	char k[300];
	if (p->group_ok[CTR_GROUP_SW])
		kv_add(env, "counters.software",
		       p->sw_kernel ? "counted: task-clock context-switches cpu-migrations page-faults"
				    : "counted in user mode only (perf_event_paranoid > 1 and no CAP_PERFMON): "
				      "context switches are not seen");
	else
		kv_add(env, "counters.software", p->why[CTR_GROUP_SW]);
	kv_add(env, "counters.hardware", p->group_ok[CTR_GROUP_HW_USER] ? "counted in user mode" : p->why[CTR_GROUP_HW_USER]);
	snprintf(k, sizeof k, "%s", p->group_ok[CTR_GROUP_HW_KERNEL] ? "counted separately from user mode"
								   : p->why[CTR_GROUP_HW_KERNEL]);
	kv_add(env, "counters.kernel", k);
}

static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;
	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

void counters_open(struct ctr_set *c, const struct ctr_plan *p, const pid_t *pids, int n)
{
	memset(c, 0, sizeof *c);
	c->nproc = n;
	c->sw_user_only = !p->sw_kernel;
	c->fd = xcalloc((size_t)n * CTR_NGROUPS * 8, sizeof *c->fd);
	for (int i = 0; i < n * CTR_NGROUPS * 8; i++)
		c->fd[i] = -1;
	/* Leave at least half the open-file limit to the workloads and their pipes. */
	struct rlimit rl;
	int need = 0;
	for (int g = 0; g < CTR_NGROUPS; g++)
		need += p->group_ok[g] ? 5 * n : 0;
	if (!need || (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
		      (rlim_t)(open_fds() + need) > rl.rlim_cur / 2))
		return;
	for (int g = 0; g < CTR_NGROUPS; g++) {
		if (!p->group_ok[g])
			continue;
		bool all = true;
		int nev = 0, ev[8];
		for (int i = 0; i < n && all; i++) {
			int err, m = open_group(g, pids[i], g == CTR_GROUP_SW ? p->sw_kernel : false,
						&c->fd[(i * CTR_NGROUPS + g) * 8], ev, &err);
			if (!m || (i && m != nev))
				all = false;
			nev = m;
		}
		if (!all) { /* not every copy counted: the sum would mislead; leave the group out */
			for (int i = 0; i < n; i++)
				for (int k = 0; k < 8; k++) {
					int *f = &c->fd[(i * CTR_NGROUPS + g) * 8 + k];
					if (*f >= 0)
						close(*f);
					*f = -1;
				}
			continue;
		}
		c->nev[g] = nev;
		memcpy(c->ev[g], ev, sizeof ev);
		c->any = true;
	}
}

bool counters_read(const struct ctr_set *c, uint64_t *v, bool *have)
{
	memset(v, 0, CTR_NEVENTS * sizeof *v);
	memset(have, 0, CTR_NEVENTS * sizeof *have);
	if (!c->any)
		return false;
	for (int g = 0; g < CTR_NGROUPS; g++) {
		if (!c->nev[g])
			continue;
		for (int i = 0; i < c->nproc; i++) {
			uint64_t buf[3 + 8];
			ssize_t r = read(c->fd[(i * CTR_NGROUPS + g) * 8], buf, sizeof buf);
			if (r < (ssize_t)(3 * sizeof(uint64_t)) || buf[0] != (uint64_t)c->nev[g])
				continue;
			double scale = buf[2] && buf[2] < buf[1] ? (double)buf[1] / (double)buf[2] : 1.0;
			for (int k = 0; k < c->nev[g]; k++) {
				int ev = c->ev[g][k];
				if (c->sw_user_only && (ev == CTR_CTX_SWITCHES || ev == CTR_MIGRATIONS))
					continue; /* counted in kernel mode only: always 0 here, so not a figure */
				v[ev] += (uint64_t)((double)buf[3 + k] * scale);
				have[ev] = true;
			}
		}
	}
	return true;
}

void counters_close(struct ctr_set *c)
{
	if (!c->fd)
		return;
	for (int i = 0; i < c->nproc * CTR_NGROUPS * 8; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	free(c->fd);
	memset(c, 0, sizeof *c);
}
