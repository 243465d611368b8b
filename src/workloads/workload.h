/* workload.h - the workload descriptor: what every benchmark kernel provides. */
#ifndef SYSAB_WORKLOAD_H
#define SYSAB_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

/* Flags describing what a workload needs or does. */
enum wl_flags {
	WL_FORKS = 1u << 0,     /* creates processes */
	WL_EXECS = 1u << 1,     /* execs programs */
	WL_FS = 1u << 2,        /* uses files in the run's temp directory */
	WL_NEEDS_2CPU = 1u << 3,/* needs at least two online CPUs */
	WL_INDEX = 1u << 4,     /* part of the sysab index (the composite) */
	WL_SHELL = 1u << 5,     /* runs /bin/sh on a script sysab ships */
	WL_LATENCY = 1u << 6,   /* shown as time per op (ns/op) rather than ops/s */
	WL_QUICK_SKIP = 1u << 7,/* too slow for --quick */
	WL_PIN = 1u << 8,       /* the op is meant to be local: the copy (and so every process
				 * and thread it starts) is pinned to its own first CPU, cpus[0],
				 * before setup; copies get distinct first CPUs */
	WL_REFERENCE = 1u << 9, /* the host-speed reference (host.ref): the runner adds it to every
				 * rounds-order run at one copy; -w takes it only by its name, and
				 * compare/analyze show it only when a pattern names it */
	WL_ENTRY = 1u << 10,    /* one op is one kernel entry (a syscall, fault or trap, with the signal
				 * it delivers) of the timing process alone: run --icache-pressure may
				 * make the entry path cold before each op (pressure.h) */
};

struct wl_sweep;

/* What the kernel can tell about a sample, used by self-checks. The runner reads
 * getrusage(RUSAGE_SELF) plus getrusage(RUSAGE_CHILDREN) around each sampled batch
 * in the timing process, so children a workload reaped inside run() count too. */
struct wl_usage {
	uint64_t minflt, majflt, nvcsw, nivcsw;
	uint64_t run_ns; /* time inside run(), summed over the sampled batches (wl_batch adds it) */
};

/* A self-check: a per-op ratio (or, for WL_M_COUNT1_PER_S, a rate) that must lie in [lo, hi]. */
enum wl_metric {
	WL_M_NONE = 0,
	WL_M_MINFLT,   /* minor faults per op, this process */
	WL_M_NVCSW,    /* voluntary context switches per op, this process */
	WL_M_COUNT0,   /* ctx->count[0] per op, kept by the workload */
	WL_M_COUNT1,   /* ctx->count[1] per op, kept by the workload */
	WL_M_CSW,      /* context switches per op, voluntary + involuntary, this process */
	WL_M_NIVCSW,   /* involuntary context switches per op, this process and reaped children */
	WL_M_COUNT1_PER_S, /* ctx->count[1] per second of time inside run(), not per op */
	WL_M_CSW_COUNT1,   /* context switches per op, voluntary + involuntary, this process, plus
			    * ctx->count[1] (another process's, kept by the workload) */
};

struct wl_check {
	const char *name; /* e.g. "minor faults per op" */
	enum wl_metric metric;
	double lo, hi;
	bool needs_idle;  /* fails by design when other load shares the workload's CPUs (the
			   * check detects exactly that); the unit tests on a shared machine print
			   * it, and a test with a CPU hog asserts that it fails */
};

/* A check that any load may share (needs_idle false), for a descriptor's .checks. */
#define WL_CHECK(NAME, METRIC, LO, HI) {.name = (NAME), .metric = (METRIC), .lo = (LO), .hi = (HI)}

#define WL_MAX_CHECKS 3
#define WL_WHY_MAX 256

/* The context a workload works in. One exists per copy, in that copy's process. */
struct wl_ctx {
	int copy;            /* index of this copy, 0-based */
	int ncopies;         /* copies running at once */
	const char *tmpdir;  /* the run's private temp directory (mode 0700) */
	const char *self_exe;/* path of the sysab binary, for exec-based workloads */
	long page_size;      /* sysconf(_SC_PAGESIZE) */
	int ncpus;           /* online CPUs the run may use */
	const int *cpus;     /* their ids (ncpus of them) */
	bool emulated;       /* a user-mode emulator (qemu-user) runs this code (env_emulated): a
			      * check that hinges on how fast one code path runs against another
			      * (ctx.pipe-cross's switches) cannot be judged then */
	const void *param;   /* the descriptor's param, for parameterised workloads */
	void *priv;          /* the workload's own state, from setup */
	void *saved_affinity;/* wl_enter's record of the affinity before WL_PIN */
	uint64_t count[2];   /* counters a workload may keep for its self-checks; the runner
			      * judges only their growth over sampled batches (prepare to finish) */
	char why[WL_WHY_MAX];/* reason, when setup/run returns an error or unsupported */
	char cannot_check[WL_MAX_CHECKS][WL_WHY_MAX]; /* set by setup (wl_cannot_check): why check i
			      * cannot be judged here, "cannot check: ..."; it then fails nothing */
	struct wl_sweep *sweep; /* run --icache-pressure: swept before each op, each op timed on its own
			      * (wl_batch); NULL = batches timed whole */
	bool omit;           /* tests only: leave out what one op exists to exercise (the trap, the
			      * emulation, the walk, a right answer); the workloads that honour it
			      * (WORKLOADS.md) must then fail a check (test_workloads) */
};

/* Return values of setup and run besides 0. */
enum {
	WL_ERROR = -1,       /* failed; ctx->why says why */
	WL_UNSUPPORTED = -2, /* cannot run here; ctx->why says why */
	WL_NORESOURCE = -3,  /* a resource limit (processes, files, space) stopped it */
};

struct workload {
	const char *name;        /* "kernel.syscall.null" */
	const char *group;       /* "kernel", "unixbench", "cpu", "harness" */
	const char *summary;     /* one line */
	const char *kernel_path; /* the kernel path exercised, one line */
	const char *unit;        /* what one op is: "syscall", "page fault", "KiB" */
	const char *unixbench;   /* equivalent UnixBench test, or NULL */
	double baseline;         /* sysab-index baseline in ops/s of `unit` (0 = not in the sysab index) */
	double unixbench_units;  /* UnixBench's result unit per op/s of this workload: 60 for a test UnixBench
	                            reports per minute (lpm), 0.1 for MWIPS per Whetstone pass/s; 0 means 1 */
	unsigned flags;          /* enum wl_flags */
	struct wl_check checks[WL_MAX_CHECKS];
	const void *param;       /* workload-specific parameters, copied to ctx->param (may be NULL) */

	/* Prepare for run(); may set ctx->priv. Returns 0, WL_UNSUPPORTED,
	 * WL_NORESOURCE or WL_ERROR with ctx->why filled. Optional. */
	int (*setup)(struct wl_ctx *ctx);
	/* The largest n that prepare() can make ready, so that run() never has setup inside
	 * it; the runner calibrates no batch larger. Optional (no limit). */
	uint64_t (*max_batch)(long page_size);
	/* Untimed, before each batch of n ops: build what run() consumes (a child to
	 * fault against, pages to unmap). Returns like run(). Optional. */
	int (*prepare)(struct wl_ctx *ctx, uint64_t n);
	/* Perform exactly n ops and nothing else. Returns 0 or WL_ERROR/WL_NORESOURCE
	 * with ctx->why filled. Required. */
	int (*run)(struct wl_ctx *ctx, uint64_t n);
	/* Untimed, after each batch: reap, unmap, read counters for the checks. Returns
	 * like run(). Optional. */
	int (*finish)(struct wl_ctx *ctx, uint64_t n);
	/* Release what setup made; called after a successful setup. Optional. */
	void (*teardown)(struct wl_ctx *ctx);
};

/* Fill ctx->why with a formatted reason and return code. */
int wl_fail(struct wl_ctx *ctx, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Mark ctx's check number check as one that cannot be judged here: its reason becomes
 * "cannot check: " and the formatted text. */
void wl_cannot_check(struct wl_ctx *ctx, int check, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The registry (registry.c). */
size_t wl_count(void);
const struct workload *wl_at(size_t i);
/* The workload named exactly name, or NULL. */
const struct workload *wl_find(const char *name);

/* UnixBench's result unit per op/s of w (w->unixbench_units, or 1 when that is 0). */
double wl_unixbench_units(const struct workload *w);
/* Closest registered name to name (for "did you mean"), or NULL when nothing is close. */
const char *wl_suggest(const char *name);
/* True when name matches pattern: a shell glob ("kernel.*"), or an exact name, or a
 * prefix followed by a dot ("kernel" matches "kernel.syscall.null"). */
bool wl_matches(const struct workload *w, const char *pattern);

/* Self-check evaluation, shared by the runner and the tests (check.c).
 * For each used entry i of w->checks (metric != WL_M_NONE), values[i] gets the
 * per-op ratio (total of the metric / ops; for WL_M_COUNT1_PER_S the total per
 * second of total->run_ns) and ok[i] whether it lies in [lo, hi]; unused entries,
 * and those ctx (may be NULL) says cannot be checked, get 0 and true. total is the
 * sum of getrusage deltas around the run() calls, count the growth of ctx->count[]
 * over them, ops the total ops performed. Returns the number of failed checks, or -1
 * when ops is 0 (nothing is evaluated then; values and ok are still filled as unused). */
int wl_check_eval(const struct workload *w, const struct wl_ctx *ctx, const struct wl_usage *total,
		  const uint64_t count[2], uint64_t ops, double *values, bool *ok);

/* Each sampled batch judged on its own (issue 19 item 7): a check whose value over all
 * sampled batches passes can still hide batches that measured the wrong thing (a child on
 * the other CPU now and then, a batch whose faults went missing). Per-second checks
 * (WL_M_COUNT1_PER_S) are judged over all batches only: one preemption in a 40 ms sample
 * is already 25 a second. Under a user-mode emulator a batch fails a minor-fault check
 * only below its range (the emulator's own faults share the rusage; check.c). */
struct wl_check_tally {
	int batches;                 /* sampled batches judged (one per copy and sample) */
	int failed[WL_MAX_CHECKS];   /* of them, those whose value lay outside the check's range */
	double worst[WL_MAX_CHECKS]; /* of those, the value farthest outside the range */
};

/* Judge one sampled batch (its usage delta, its count growth and its ops) into t. */
void wl_check_tally_add(const struct workload *w, const struct wl_ctx *ctx, const struct wl_usage *batch,
			const uint64_t count[2], uint64_t ops, struct wl_check_tally *t);
/* Add tally b (another copy's) to a. */
void wl_check_tally_merge(const struct workload *w, struct wl_check_tally *a, const struct wl_check_tally *b);
/* wl_check_eval over the sampled batches' total, then a check also fails when any sampled
 * batch of t failed it. Returns the number of failed checks, or -1 as wl_check_eval. */
int wl_check_judge(const struct workload *w, const struct wl_ctx *ctx, const struct wl_usage *total,
		   const uint64_t count[2], uint64_t ops, const struct wl_check_tally *t, double *values, bool *ok);

/* This process's resource usage now (getrusage RUSAGE_SELF plus RUSAGE_CHILDREN), as a wl_usage. */
void wl_usage_now(struct wl_usage *u);
/* *acc += (after - before), field by field. */
void wl_usage_add_delta(struct wl_usage *acc, const struct wl_usage *before, const struct wl_usage *after);

/* Enter the workload: pin to ctx->cpus[0] when w has WL_PIN, then setup. Returns what
 * setup returns (the affinity is restored on failure). wl_leave tears down and restores
 * the affinity; call it after a successful wl_enter only. */
int wl_enter(const struct workload *w, struct wl_ctx *ctx);
void wl_leave(const struct workload *w, struct wl_ctx *ctx);

/* One batch as the runner takes it: prepare (untimed), run between *t0 and *t1
 * (CLOCK_MONOTONIC_RAW ns, after wait(arg) returns when wait is not NULL), finish
 * (untimed). Under pressure (ctx->sweep) each op is its own prepare(1), sweep (untimed),
 * timed run(1) and finish(1): *t0 is the batch's start and *t1 - *t0 the sum of the ops'
 * timed calls alone (the clock reads' cost per op is subtracted by the slot); ctx->sweep->wall_ns
 * gets the batch's whole length, which calibration sizes batches by, and the usage is taken
 * around each timed call. When sampled, the usage over the run (into *usage) and the growth of
 * ctx->count from before prepare to after finish (into count[]) are added.
 * Returns 0 or the first failing hook's code with ctx->why filled. */
int wl_batch(const struct workload *w, struct wl_ctx *ctx, uint64_t n, void (*wait)(void *), void *arg,
	     uint64_t *t0, uint64_t *t1, bool sampled, struct wl_usage *usage, uint64_t count[2]);

/* Virtual bytes that kernel.tlb.walk walks on this machine (its virtual pages times
 * the page size): derived from the L2 size in sysfs (a default when it cannot be
 * read), so environment capture can record it. */
size_t wl_tlb_walk_bytes(long page_size);

#endif
