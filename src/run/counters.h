/* counters.h - per-sample event counts from perf_event_open: software always, hardware where the PMU allows. */
#ifndef SYSAB_COUNTERS_H
#define SYSAB_COUNTERS_H

#include <stdint.h>
#include <sys/types.h>
#include "core/core.h"

/* Which counters a run asks for (--counters). */
enum ctr_mode { CTR_MODE_NONE, CTR_MODE_SOFTWARE, CTR_MODE_ALL }; /* ALL: software and what hardware allows */

/* The events, in three groups: software; hardware in user mode; hardware in kernel mode. */
enum ctr_event {
	CTR_TASK_CLOCK, CTR_CTX_SWITCHES, CTR_MIGRATIONS, CTR_PAGE_FAULTS,
	CTR_CYCLES, CTR_INSTRUCTIONS, CTR_DTLB_MISSES, CTR_ITLB_MISSES, CTR_BRANCH_MISSES,
	CTR_K_CYCLES, CTR_K_INSTRUCTIONS, CTR_K_DTLB_MISSES, CTR_K_ITLB_MISSES, CTR_K_BRANCH_MISSES,
	CTR_NEVENTS
};
enum { CTR_GROUP_SW, CTR_GROUP_HW_USER, CTR_GROUP_HW_KERNEL, CTR_NGROUPS };

/* The stored name of event i ("task-clock", "cycles:u", "instructions:k", ...). */
const char *counters_name(int event);
/* The group of event i. */
int counters_group(int event);

/* What this machine and user can count, decided once per run by opening each group on
 * the calling process. */
struct ctr_plan {
	enum ctr_mode mode;
	bool group_ok[CTR_NGROUPS];
	bool sw_kernel;                   /* software events include kernel mode */
	char why[CTR_NGROUPS][200];       /* "unavailable: REASON" per group not counted */
};

/* Decide what can be counted under mode. Never fails: what cannot be opened is recorded
 * in plan->why. */
void counters_plan(enum ctr_mode mode, struct ctr_plan *plan);

/* Add the plan to an environment: counters.software, counters.hardware and
 * counters.kernel = "counted ...", "unavailable: REASON" or "off (--counters ...)". */
void counters_env(const struct ctr_plan *plan, struct kvlist *env);

/* The open counters of the processes of one (workload, copies). */
struct ctr_set {
	int nproc;
	int *fd;                  /* nproc × CTR_NGROUPS group leader fds, -1 when not open */
	int nev[CTR_NGROUPS];     /* events per group actually open (in event order) */
	int ev[CTR_NGROUPS][8];
	bool any;
	bool sw_user_only;        /* context switches and migrations are not seen: not reported */
};

/* Count the processes pids[0..n) (and children they fork later) as plan allows. A group
 * that cannot be opened for a process is left out of the set. */
void counters_open(struct ctr_set *c, const struct ctr_plan *plan, const pid_t *pids, int n);

/* The counts so far summed over the processes, into v[CTR_NEVENTS]; have[i] tells which
 * are counted. Scaled when the kernel multiplexed a group. Returns false when nothing is. */
bool counters_read(const struct ctr_set *c, uint64_t *v, bool *have);

/* Close every counter; a zeroed or closed set is fine. */
void counters_close(struct ctr_set *c);

/* Parse "none", "software" or "all". Returns 0 or -1 with e set. */
int counters_parse_mode(const char *s, enum ctr_mode *mode, struct err *e);

#endif
