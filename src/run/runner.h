/* runner.h - executing a run: every (workload, copies) measured, every sample stored as taken. */
#ifndef SYSAB_RUNNER_H
#define SYSAB_RUNNER_H

#include "core/core.h"
#include "store/store.h"
#include "run/slot.h"
#include "workloads/workload.h"
#include "run/counters.h"
#include "run/node.h"

/* The fewest samples a (workload, copies) gets when a time budget cuts it short. */
#define RUN_MIN_SAMPLES 8

enum run_order {
	ORDER_ROUNDS,  /* every round samples each (workload, copies) once, in a fresh shuffled order */
	ORDER_BLOCKED, /* all samples of one (workload, copies), then the next, in shuffled order */
	ORDER_FIXED,   /* blocked, in registry order */
};

/* Where a run stands, for a progress display. */
struct run_progress {
	const char *phase;   /* "preparing" (setup, calibration, warm-up) or "sampling" */
	const char *workload;
	int copies;
	int step, steps;     /* work units done and expected in all */
	int round, rounds;   /* current round (1-based) and the planned number; 0 in blocked order */
	uint64_t elapsed_ns, eta_ns;
};

/* The timed part of a run, replaceable so that tests drive the runner deterministically.
 * With a NULL run_opts.timing the runner forks workers (slot.h) and reads
 * clock_raw_ns(); with a timing set it forks nothing, takes every batch from batch() and
 * every time from now(), so calibration, warm-up, budgets and adaptive stopping are
 * decided on exactly the numbers the test supplies. */
struct run_timing {
	void *arg;
	/* The runner's monotonic clock in ns. */
	uint64_t (*now)(void *arg);
	/* One batch of n ops per copy of (w, copies): fill b and advance the clock by the
	 * batch's length. Returns 0 or a WL_* code (then b is ignored). */
	int (*batch)(void *arg, const struct workload *w, int copies, uint64_t n, struct slot_batch *b);
};

/* One (workload, copies) of a run and its sample count (--allocate). */
struct run_quota {
	const struct workload *w;
	int copies;
	int samples;
};

/* The most arms a paired run takes (sysab run --arm). */
#define RUN_MAX_ARMS 8
/* How long an arm's command may take by default (sysab run --arm-timeout). */
#define RUN_ARM_TIMEOUT_NS (600ull * 1000000000ull)

/* One arm of a paired run: a state of the machine that a command switches to inside the boot.
 * Every round runs each arm's command (untimed), then samples that arm's workloads; each arm
 * is stored as its own run, labelled arm=NAME, its samples stamped with their round. */
struct run_arm {
	const char *name;   /* [A-Za-z0-9_.-]+, unique */
	const char *cmd;    /* run by /bin/sh -c with SYSAB_ARM and SYSAB_ROUND set; stdout goes to stderr */
	const struct kvlist *env; /* set in sysab's environment while the arm's workers are forked and
	                             its command runs (inherited by both); may be NULL */
};

enum run_arm_order {
	ARM_ORDER_ALTERNATE, /* the arms in order, reversed every other round (AB BA AB ...) */
	ARM_ORDER_RANDOM,    /* a fresh shuffled order each round */
};

struct run_opts {
	const struct kvlist *labels;
	const struct workload **wl; /* the selected workloads, registry order */
	size_t nwl;
	const int *copies;          /* copies counts to run each workload at */
	size_t ncopies;
	bool multi_index_only;      /* copies counts above 1 only for index workloads (--quick) */
	int samples;                /* measured samples per (workload, copies) */
	const struct run_quota *quota; /* --allocate: these (workload, copies) take their own count
	                               instead of `samples` (the others keep it); NULL = none */
	size_t nquota;
	const char *quota_json;     /* recorded in the settings as "allocation" (a JSON object text) */
	uint64_t sample_ns;         /* target length of one sample */
	uint64_t warmup_ns;         /* unrecorded running before the samples */
	uint64_t slot_budget_ns;    /* a (workload, copies) whose samples took this long stops at
	                               RUN_MIN_SAMPLES samples; 0 = no budget */
	uint64_t seed;
	enum run_order order;       /* how samples of different workloads interleave */
	bool rewarm;                /* rounds: an unrecorded quarter batch before each sample */
	double target_ci;           /* adaptive: stop a workload once its 95% CI half-width (relative)
	                               is at or below this; 0 = take exactly `samples` */
	uint64_t max_ns;            /* adaptive: time budget for the sampling phase; 0 = none */
	const int *cpus;            /* pin the run to these CPUs; NULL = all allowed */
	int ncpus;
	const char *profile;        /* "quick", "default", "full" */
	const char *cpus_text;      /* --cpus as given, for the record */
	const struct node_info *node; /* a per-node run: the process is bound to this node's CPUs and
	                               memory (node_bind) before anything of the run, the environment
	                               records it and every workload gets the placement checks;
	                               NULL = none (cpus is then not given) */
	const struct wl_pressure *pressure; /* run --icache-pressure: the workloads that take it
	                               (wl_pressure_takes) sweep the caches before each op and time
	                               each op on its own; their per-sample counters are not taken
	                               (they would count the sweeps); recorded in the environment
	                               (run.icache_pressure*) and settings; NULL = none */
	const struct run_timing *timing; /* NULL = real workers and the real clock (tests set it) */
	enum ctr_mode counters;     /* per-sample counters (0: none; sysab run defaults to all) */
	uint64_t probe_ns;          /* noise probe before sampling; 0 = none */
	bool host_ref;              /* add the host-speed reference (the WL_REFERENCE workload, host.ref)
	                               at one copy when wl does not hold it: one sample per round */
	bool randomize_env;         /* pad the environment by 0-4095 bytes (SYSAB_ENV_PAD, a size drawn
	                               from the seed) and shift each worker's stack by as much, as a
	                               larger environment would: layout becomes run-to-run variance,
	                               not a fixed bias; recorded as run.env_pad ("off" without) */
	uint64_t hang_ns;           /* a batch that waits longer than this (not counting time stopped)
	                               is a hung workload; 0 = 200 samples' length + 60 s */
	const struct run_arm *arms; /* a paired run: narms >= 2 arms (rounds order only); NULL = none */
	size_t narms;
	enum run_arm_order arm_order;
	uint64_t arm_timeout_ns;    /* the most an arm's command may take each time; 0 = RUN_ARM_TIMEOUT_NS */
	/* Called as the run advances; may be NULL. */
	void (*progress)(void *arg, const struct run_progress *p);
	void *progress_arg;
};

struct run_outcome {
	int64_t run_id;   /* a paired run: the first arm's run */
	int64_t arm_run_id[RUN_MAX_ARMS]; /* a paired run: each arm's run, 0 for one not begun */
	/* The run could not be bound to o->node (node_bind): nothing was measured or stored
	 * (run_id is 0), and why says what the kernel refused. */
	bool unsupported;
	char why[256];
	int stop_signal;  /* the signal that stopped the run, or 0 */
	int slots, slots_ok, slots_unsupported, slots_failed;
	int rounds;       /* rounds taken (rounds order) */
	int slots_short;  /* ok slots that stopped short of target_ci (the slot's reason says so) */
	uint64_t wall_ns;
	/* The stop signal cut the recording short: the database was locked by another process
	 * and the store stopped waiting for it (store_stopped_waiting). Then: */
	bool stop_cut;
	int slots_unrecorded; /* (workload, copies) whose end could not be recorded */
	bool end_recorded;    /* the run's final status was recorded */
	/* The run's summary row (issue 18) could not be written: why. The run is recorded all the
	 * same; analysis reads its samples until a writing command recomputes the row. */
	bool summary_lost;
	struct err summary_why;
};

/* The (workload, copies) a run with o takes, in registry order (host.ref first when o adds
 * it), each with o->samples: *out allocated (free it). Returns how many. */
size_t runner_jobs(const struct run_opts *o, struct run_quota **out);

/* Run everything in o into the store. Returns 0 when the run was recorded (whatever
 * its individual workloads did; see the slot records), or -1 with e set when nothing
 * could be recorded. A stop signal ends the run early with out->stop_signal set; when it
 * also cut a wait for a lock short (out->stop_cut), -1 is returned with e saying what
 * failed first, and the runner has still recorded what the database took. */
int runner_run(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e);

/* ---- run --nodes (nodes.c): one run per selected node ---- */

/* The nodes a per-node run runs on. */
struct run_nodes {
	struct node_topo topo;
	size_t *sel, n;          /* indexes into topo.v, ascending: the nodes, in the order they run */
	bool all_is_one;         /* --nodes all on a machine with one node with CPUs: one run on it */
};

/* The nodes --nodes spec selects (node_select) on this machine's topology (node_topo_read)
 * into *rn (free with run_nodes_free, also after an error). Returns 0, or -1 with e set
 * naming spec (or saying that no node here has CPUs to run on). */
int run_nodes_select(const char *spec, struct run_nodes *rn, struct err *e);
void run_nodes_free(struct run_nodes *rn);

/* What a per-node run does around each node's run. */
struct run_node_hooks {
	/* Before the run of node nd, the i-th of the selection (a heading); may be NULL. */
	void (*begin)(void *arg, size_t i, const struct node_info *nd);
	/* After it: r and out are what the run returned (e its error when r is -1); returns the
	 * command's status so far. Required. */
	int (*done)(void *arg, const struct run_opts *o, int r, struct run_outcome *out, struct err *e);
	/* The run itself: NULL is runner_run (tests give their own). */
	int (*run)(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e);
	void *arg;
};

/* `sysab run --nodes`: o run once per node of rn, in order, each bound to its node
 * (o->node), with o's labels and node=K, and, when copies_per_node, at 1 copy and one per
 * CPU of the node (instead of o's copies); h's hooks around each. Stops after a run that
 * a stop signal or an error ended, and before the next when the stop flag is set. o is
 * left as it was given. Returns what the last h->done returned (0 when none ran). */
int runner_run_nodes(struct store *st, const struct run_nodes *rn, const struct run_opts *o, bool copies_per_node,
		     const struct run_node_hooks *h);

#endif
