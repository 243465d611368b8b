/* runner.h - executing a run: every (workload, copies) measured, every sample stored as taken. */
#ifndef SYSAB_RUNNER_H
#define SYSAB_RUNNER_H

#include "core/core.h"
#include "store/store.h"
#include "workloads/workload.h"

struct run_opts {
	const struct kvlist *labels;
	const struct workload **wl; /* the selected workloads, registry order */
	size_t nwl;
	const int *copies;          /* copies counts to run each workload at */
	size_t ncopies;
	int samples;                /* measured samples per (workload, copies) */
	uint64_t sample_ns;         /* target length of one sample */
	uint64_t warmup_ns;         /* unrecorded running before the samples */
	uint64_t seed;
	bool shuffle;               /* shuffle the (workload, copies) order with seed */
	const int *cpus;            /* pin the run to these CPUs; NULL = all allowed */
	int ncpus;
	const char *profile;        /* "quick", "default", "full" */
	const char *cpus_text;      /* --cpus as given, for the record */
	/* Called after each sample and at each new (workload, copies); may be NULL. */
	void (*progress)(void *arg, const char *workload, int copies, int slot, int nslots, int sample,
			 int nsamples, uint64_t elapsed_ns, uint64_t eta_ns);
	void *progress_arg;
};

struct run_outcome {
	int64_t run_id;
	int stop_signal;  /* the signal that stopped the run, or 0 */
	int slots, slots_ok, slots_unsupported, slots_failed;
	uint64_t wall_ns;
};

/* Run everything in o into the store. Returns 0 when the run was recorded (whatever
 * its individual workloads did; see the slot records), or -1 with e set when nothing
 * could be recorded. A stop signal ends the run early with out->stop_signal set. */
int runner_run(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e);

#endif
