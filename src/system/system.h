/* system.h - the machine's benchmarking knobs: read and judge them (show), set and restore them (tune, reset). */
#ifndef SYSAB_SYSTEM_H
#define SYSAB_SYSTEM_H

#include "core/core.h"

/* How a knob's current value suits benchmarking. */
enum sys_verdict {
	SYS_GOOD,  /* as a benchmark wants it */
	SYS_BAD,   /* adds noise or bias; why says what to do */
	SYS_INFO,  /* recorded, neither good nor bad in itself */
	SYS_NA,    /* not available here (no such file: VM, container, other architecture) */
};

/* One file tune writes: its path (under the root) and the value it writes. */
struct sys_setting {
	char *path;
	char *value;
};

/* One knob: its value now, the verdict and why, and what tune would set (none = advice only). */
struct sys_knob {
	char *name;
	char *value;  /* NULL when not available here */
	enum sys_verdict verdict;
	char *why;
	struct sys_setting *set;
	size_t nset;
};

/* A CPU sysab would use and its SMT siblings (a cpulist such as "0,4"; NULL = unknown). */
struct sys_cpu {
	int cpu;
	char *siblings;
};

/* A process and its share of one CPU over the sampling interval, in percent. */
struct sys_proc {
	int pid;
	char *comm;
	double cpu_pct;
};

/* Everything `system show` reports. */
struct sys_state {
	struct sys_knob *knob;
	size_t nknob;
	struct sys_cpu *cpu;
	size_t ncpu;
	char *loadavg;          /* "1.00 0.50 0.20", NULL if not available */
	const char *load_level; /* the 1-minute load against the CPUs above: load_level()'s
	                           "high", "some" or "low"; NULL if not available */
	struct sys_proc *top;   /* busiest processes over the interval, busiest first */
	size_t ntop;
	char *virt;             /* hypervisor name, "none" or NULL when unknown */
	double steal_boot_pct;  /* steal time since boot, % of CPU time; <0 unknown */
	double steal_now_pct;   /* over the interval; <0 unknown (no ticks elapsed) */
	int pmu;                /* 1 a hardware PMU is visible, 0 none, -1 unknown */
	char *pmu_name;
};

/* Read the machine under root ("/" for this one; a fake sysfs/procfs tree for tests).
 * cpus: the CPUs sysab would use (NULL = the online ones under root). interval_ms: how
 * long to watch /proc for the top consumers and steal time now. Missing files make
 * knobs "not available here"; nothing under root is an error. Fills out; free with
 * system_free. */
void system_read(const char *root, const int *cpus, int ncpus, int interval_ms, struct sys_state *out);
void system_free(struct sys_state *s);

/* "good", "bad", "info" or "not available here". */
const char *system_verdict_word(enum sys_verdict v);

/* What tune and reset did to one file. */
struct sys_change {
	char *knob;
	char *path;
	char *from, *to;  /* values before and after (newline stripped) */
	char *refused;    /* why it was left alone, or NULL when changed */
};

struct sys_changes {
	struct sys_change *v;
	size_t n, cap;
};
void system_changes_free(struct sys_changes *c);

/* Set every settable knob of s to its benchmark value, saving each original value
 * (exact bytes) in the state file first; originals already saved by an earlier tune are
 * kept. A knob whose value cannot be read back is refused (it could not be restored).
 * Returns 0 with out filled (possibly empty: nothing could be set), or -1 with e set
 * when the state file cannot be written (nothing was changed then). */
int system_tune(const char *root, const struct sys_state *s, const char *state_file, struct sys_changes *out,
		struct err *e);

/* Write back every original value saved in the state file and check each reads back
 * byte-identical; the file is removed when all are restored. No state file: nothing to do.
 * The state file is trusted only when it is a regular file (not a link) owned by the
 * effective user and writable by nobody else; otherwise -1 with e set and nothing written.
 * Each entry is written only when its path is a knob file of tune's table
 * (system_knob_file_check) under root ("/" for this machine), not a link, and its value is
 * one that knob can hold; any other entry is refused (out says why), nothing is written to
 * it, and *all_ok is false. Returns 0 (out lists what was restored or why not), or -1 with e
 * set when the state file is unreadable or untrusted. */
int system_reset(const char *root, const char *state_file, struct sys_changes *out, bool *all_ok, struct err *e);

/* Is rel (relative to the root, no leading '/') a file of the fixed table of knobs tune sets,
 * belonging to knob (NULL: any), and value (NULL: not judged) one that knob can hold? Returns
 * NULL when it is, else why not (static text). */
const char *system_knob_file_check(const char *knob, const char *rel, const char *value);

/* The one rule for a knob file (and any file show reads), for reading, tune and reset:
 * open path with flags (O_RDONLY, or O_WRONLY | O_TRUNC) never through a symbolic link in
 * its last component, never blocking (a FIFO), and keep it only if fstat says it is a
 * regular file. Returns the descriptor, or -1 with errno set and *why set to static text
 * ("not a regular file ...", naming a symbolic link, or the error). */
int system_knob_open(const char *path, int flags, const char **why);

/* The exact bytes of the knob file at path (at most 1 MiB) by system_knob_open's rule;
 * newly allocated, or NULL with *why set (static text). */
char *system_knob_read(const char *path, const char **why);

/* The default state file: $XDG_STATE_HOME/sysab/tune.json, else $HOME/.local/state/sysab/tune.json,
 * else (HOME unset) the password database's home for the effective user; never the current
 * directory. Newly allocated, or NULL with e set (HOME relative, or no home at all). */
char *system_state_file_default(struct err *e);

#endif
