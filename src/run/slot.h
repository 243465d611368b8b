/* slot.h - the copies of one workload: forked workers that take timed batches on command. */
#ifndef SYSAB_SLOT_H
#define SYSAB_SLOT_H

#include <pthread.h>
#include <sys/types.h>
#include "workloads/workload.h"
#include "run/node.h"
#include "workloads/pressure.h"

struct slot_cfg {
	const struct workload *w;
	int copies;
	const char *tmpdir;
	const char *self_exe;
	const int *cpus;  /* CPUs the run may use */
	int ncpus;
	bool emulated;    /* a user-mode emulator runs the workers (wl_ctx.emulated) */
	uint64_t timeout_ns; /* a batch taking longer than this is a hung workload */
	const struct node_info *node; /* a per-node run: each worker checks its placement on it (NULL: none) */
	size_t stack_pad;  /* bytes each worker's stack is shifted by before the workload starts
			    * (run_opts.randomize_env: the environment's padding) */
	const struct wl_pressure *pressure; /* run --icache-pressure: each worker sweeps before each op and
				     * times each op on its own (wl_batch); NULL: none */
};

/* One timed batch over all copies, measured over one common window: from the
 * earliest start of any copy to the latest end. */
struct slot_batch {
	uint64_t ops;        /* total over copies */
	uint64_t elapsed_ns; /* the common window */
	double value;        /* ops / window, in ops/s */
	uint64_t wall_ns;    /* under pressure: the longest copy's whole batch, sweeps and all
			      * (calibration sizes batches by it); 0 otherwise */
};

/* Self-check results, evaluated by each worker over its sampled batches (worst copy kept). */
struct slot_checks {
	int n;
	double value[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	char why[WL_MAX_CHECKS][WL_WHY_MAX]; /* non-empty: the check could not be judged ("cannot check: ...") */
	struct wl_check_tally tally;        /* the sampled batches, each judged on its own, of every copy */
	struct node_place place;            /* a per-node run: where the copies ran and their pages lay */
	uint64_t sweeps, sweeps_short;      /* under pressure: complete and short sweeps before the sampled ops */
	uint64_t ops;                       /* the sampled ops of every copy */
};

struct slot {
	struct slot_cfg cfg;
	pid_t *pid;
	int *cmd, *res;     /* per worker: command pipe (write end), result pipe (read end) */
	pthread_barrier_t *barrier; /* shared memory */
	pid_t pgid;
	int alive;
	char why[WL_WHY_MAX];
};

/* Result codes besides 0 and the WL_* codes. */
enum { SLOT_STOPPED = -10 /* a stop signal arrived and the workers were stopped */ };

/* Fork the workers and run setup in each. Returns 0, or WL_UNSUPPORTED / WL_NORESOURCE /
 * WL_ERROR with s->why set; on failure every worker is already gone. */
int slot_open(struct slot *s, const struct slot_cfg *cfg);

/* Release all copies together on n ops each and collect the batch (see slot_combine).
 * Under pressure, overhead_ns is the cost of one timed empty op and n of them are subtracted.
 * sampled says the batch is a sample, whose usage and counts the self-checks judge;
 * calibration, warm-up and re-warm batches are not. Returns 0, SLOT_STOPPED (the workers
 * were stopped), or a WL_* error with s->why set (the workers are gone). */
int slot_batch(struct slot *s, uint64_t n, double overhead_ns, bool sampled, struct slot_batch *b);

/* The batch of copies whose i-th copy did ops[i] ops from t0[i] to t1[i] (ns on one
 * clock): total ops over the common window max(t1) - min(t0). overhead_ns, the cost of an
 * empty batch, is subtracted from the window when it exceeds 0.1% of it. So a sample never
 * counts a copy's ops at its own rate while another copy holds the CPU. */
void slot_combine(const uint64_t *t0, const uint64_t *t1, const uint64_t *ops, int copies, double overhead_ns,
		  struct slot_batch *b);

/* The median cost of an empty timed batch, in ns, measured in copy 0 (under pressure: of
 * one timed empty op right after a sweep). <0 on error. */
double slot_empty_cost(struct slot *s);

/* Tell the workers to tear down and exit; collect their self-checks (may be NULL).
 * Workers that do not exit promptly are killed. Always reaps everything. */
void slot_close(struct slot *s, struct slot_checks *checks);

#endif
