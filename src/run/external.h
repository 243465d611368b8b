/* external.h - another benchmark run under sysab (UnixBench's Run): its process and the log it leaves; ending a command's group. */
#ifndef SYSAB_EXTERNAL_H
#define SYSAB_EXTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/core.h"

/* What one external command did. */
struct external_outcome {
	uint64_t started_ns, finished_ns; /* wall clock around the command */
	char *log;                        /* the one *.log it left in the result directory (newly allocated) */
};

/*
 * Run `/bin/sh -c shell` in its own process group, with UB_RESULTDIR set to dir (an empty
 * private directory: UnixBench's Run writes its results there), standard input from
 * /dev/null and its standard output on sysab's standard error (sysab's own output stays
 * parseable). A stop signal (sig_stop) ends it: SIGTERM to its group, SIGKILL 10 s later.
 * Returns 0 when it exited 0 and left exactly one *.log in dir; else -1 with e saying what
 * happened and that nothing was stored.
 */
int external_unixbench(const char *shell, const char *dir, struct external_outcome *out, struct err *e);

/*
 * Wait for pid, a child that leads its own process group. When a stop signal arrives (sig_stop)
 * or, with timeout_ns > 0, timeout_ns pass first, end the group: SIGTERM, SIGKILL 10 s later if
 * the child is still there, and SIGKILL for whatever it left in the group once it is reaped.
 * Returns the child's wait status (always reaped), or -1 with errno when waitpid fails; *timed_out
 * says whether the timeout (not a stop signal) ended it.
 */
int external_wait_group(pid_t pid, uint64_t timeout_ns, bool *timed_out);

void external_outcome_free(struct external_outcome *o);

#endif
