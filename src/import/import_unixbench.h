/* import_unixbench.h - parse a UnixBench 6 results/NAME.log into tests, passes and per-copy counts. */
#ifndef SYSAB_IMPORT_UNIXBENCH_H
#define SYSAB_IMPORT_UNIXBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "core/core.h"

/* One copy's "# COUNT0 ... # status" record within a pass. */
struct ub_copy {
	double count;    /* COUNT0: work done, or the rate itself when timebase is 0 */
	double timebase; /* COUNT1: seconds per reported unit (1 = lps, 60 = lpm); 0 = count is a rate */
	double time;     /* TIME when the record has one (whetstone, fstime), else elapsed; seconds */
	double elapsed;  /* elapsed: wall-clock seconds UnixBench measured around the program */
	bool has_time;   /* the record had a TIME line */
	long pid;        /* pid, or -1 when the record had none */
	long status;     /* exit status, or -1 when the record had none */
	double rate;     /* this copy alone: count * timebase / time, or count when timebase is 0 */
	size_t line;     /* line of its COUNT0 */
};

/* One "#### Pass N" of a test. */
struct ub_pass {
	unsigned number;   /* N */
	bool discarded;    /* UnixBench dropped it as one of the worst third ("*Dump score") */
	double count;      /* sum of the copies' COUNT0: what "Count score:" or "*Dump score:" shows */
	double score;      /* UnixBench's pass score in the test's unit, all copies together:
			    * sum(count) * timebase / mean(time), or sum(count) when timebase is 0 */
	double ops_per_s;  /* score per second (score / 60 for lpm, else score) */
	struct ub_copy *copy; /* exactly the test's copies records, in log order */
	size_t ncopy;
	size_t line;       /* line of "#### Pass N" */
};

/* One test section ("####...", "TITLE -- N copies", "==> command", passes, summary). */
struct ub_test {
	char *title;    /* "System Call Overhead" */
	char *program;  /* basename of the program run: "syscall", "fstime", "looper" */
	char *name;     /* UnixBench test name: "syscall", "fsbuffer", "fstime-r", "shell8" */
	char *workload; /* sysab workload: "unixbench.syscall", "cpu.int"; "unixbench.<name>" if unknown */
	bool unknown;   /* name has no sysab equivalent */
	unsigned copies;
	char unit[16];  /* COUNT2 of the records: "lps", "lpm", "KBps", "MWIPS" */
	struct ub_pass *pass; /* every pass in log order, discarded ones included */
	size_t npass;
	double reported_score; /* ">>>> score:" as UnixBench printed it */
	double reported_time;  /* ">>>> time:" */
	unsigned reported_iterations; /* ">>>> iterations:" = passes kept */
	size_t line;    /* line of the title */
	char *command;  /* the "==> " line's command, before its redirections */
	char *results;  /* the file its output was appended to (">> FILE"), or "" */
	size_t run;     /* which run of the log the section belongs to: 0, 1, ... in file order */
};

/* A log holds one run of UnixBench's Run, or several appended one after another: a section
 * starts the next run when its command and copies repeat a section of the current run, or
 * when its output went to another results file than the section before it's. */
struct ub_log {
	struct ub_test *test;
	size_t ntest;
	size_t nrun;    /* runs in the log (test[ntest - 1].run + 1), 0 when empty */
};

/* Parse the len bytes at buf (any bytes; need not be NUL-terminated) as the text of a
 * UnixBench 6 results log. name is the file name used in error messages.
 * On success returns 0 and fills *out (caller frees it with import_unixbench_free()).
 * A log that ends between two test sections parses to the complete sections. The
 * sections are split into runs (struct ub_log) in file order.
 * On error returns -1 with e->msg as "NAME:LINE: what was wrong; what to do", and *out
 * is left empty (nothing to free). */
int import_unixbench_parse(const char *name, const char *buf, size_t len, struct ub_log *out, struct err *e);

/* UnixBench's score for a test: the geometric mean of the kept passes' scores, in the
 * test's unit. 0 when no pass is kept or a kept score is 0. */
double import_unixbench_score(const struct ub_test *t);

/* Release everything *log owns and empty it. NULL or an empty log is a no-op. */
void import_unixbench_free(struct ub_log *log);

#endif
