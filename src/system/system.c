/* system.c - read the benchmarking knobs of a machine (or a fake sysfs/procfs tree) and judge each. */
#include "system.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *system_verdict_word(enum sys_verdict v)
{
	switch (v) {
	case SYS_GOOD: return "good";
	case SYS_BAD: return "bad";
	case SYS_INFO: return "info";
	default: return "not available here";
	}
}

#define KNOB_MAX (1 << 20) /* no knob file, nor any file show reads (proc/cpuinfo, proc/stat), is larger */

int system_knob_open(const char *path, int flags, const char **why)
{
	int fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	int err = errno;
	struct stat st;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		return fd;
	if (fd >= 0) {
		close(fd);
		*why = "not a regular file (knob files are never FIFOs, devices or directories)";
		errno = EINVAL;
		return -1;
	}
	/* a FIFO opened for writing with no reader fails ENXIO: name what the path is */
	if (err == ELOOP || (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)))
		*why = "not a regular file but a symbolic link (knob files never are)";
	else if (err != ENOENT && lstat(path, &st) == 0 && !S_ISREG(st.st_mode))
		*why = "not a regular file (knob files are never FIFOs, devices or directories)";
	else
		*why = strerror(err);
	errno = err;
	return -1;
}

char *system_knob_read(const char *path, const char **why)
{
	int fd = system_knob_open(path, O_RDONLY, why);
	if (fd < 0)
		return NULL;
	struct sb b = {0};
	char buf[4096];
	for (;;) {
		ssize_t r = read(fd, buf, sizeof buf);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 || b.len + (size_t)(r > 0 ? r : 0) > KNOB_MAX) {
			*why = r < 0 ? strerror(errno) : "larger than any knob file";
			close(fd);
			sb_free(&b);
			return NULL;
		}
		if (r == 0)
			break;
		sb_addn(&b, buf, (size_t)r);
	}
	close(fd);
	return b.s ? b.s : xstrdup("");
}

/* The text of root/rel without its trailing newline, or NULL (missing, unreadable, or not
 * a regular file: system_knob_open's rule). */
static char *rd(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);
	const char *why;
	char *s = system_knob_read(p, &why);
	free(p);
	size_t n = s ? strlen(s) : 0;
	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = 0;
	return s;
}

/* Is there anything at root/rel (even a file rd refuses: tune then says why it left it)? */
static bool exists(const char *root, const char *rel)
{
	char *p = xasprintf("%s/%s", root, rel);
	struct stat st;
	bool ok = lstat(p, &st) == 0;
	free(p);
	return ok;
}

/* Parse a cpulist ("0-3,6") into a new array; returns the count (0 on a bad list). */
static int cpulist_parse(const char *s, int **out)
{
	*out = NULL;
	int n = 0;
	size_t cap = 0;
	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;
		if (end == s || a < 0 || a > 65535)
			break;
		if (*end == '-') {
			const char *t = end + 1;
			b = strtol(t, &end, 10);
			if (end == t || b < a || b > 65535)
				break;
		}
		for (long c = a; c <= b; c++) {
			*out = xgrow(*out, &cap, (size_t)n + 1, sizeof **out);
			(*out)[n++] = (int)c;
		}
		s = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return n;
}

/* The bracketed choice of "a [b] c", or the whole text. Newly allocated. */
static char *choice(const char *s)
{
	const char *a = strchr(s, '['), *b = a ? strchr(a, ']') : NULL;
	return a && b ? xstrndup(a + 1, (size_t)(b - a - 1)) : xstrdup(s);
}

static struct sys_knob *knob(struct sys_state *st, size_t *cap, const char *name, char *value,
			     enum sys_verdict v, const char *why)
{
	st->knob = xgrow(st->knob, cap, st->nknob + 1, sizeof *st->knob);
	struct sys_knob *k = &st->knob[st->nknob++];
	memset(k, 0, sizeof *k);
	k->name = xstrdup(name);
	k->value = value; /* owned */
	k->verdict = value ? v : SYS_NA;
	k->why = xstrdup(why);
	return k;
}

static void knob_set(struct sys_knob *k, const char *path, const char *value)
{
	k->set = xrealloc(k->set, (k->nset + 1) * sizeof *k->set);
	k->set[k->nset].path = xstrdup(path);
	k->set[k->nset++].value = xstrdup(value);
}

/* The distinct values of one per-CPU file over cpus, "a" or "a (cpu 0), b (cpu 1)". */
static char *per_cpu_values(const char *root, const struct sys_state *st, const char *file, bool *all_same,
			    int *nfound)
{
	struct strv vals = {0};
	struct sb b = {0};
	*nfound = 0;
	for (size_t i = 0; i < st->ncpu; i++) {
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/%s", st->cpu[i].cpu, file);
		char *v = rd(root, rel);
		free(rel);
		if (!v)
			continue;
		(*nfound)++;
		if (!strv_has(&vals, v))
			strv_add(&vals, v);
		sb_addf(&b, "%s%s (cpu %d)", b.len ? ", " : "", v, st->cpu[i].cpu);
		free(v);
	}
	*all_same = vals.n <= 1;
	char *r = NULL;
	if (vals.n == 1)
		r = xstrdup(vals.v[0]);
	else if (vals.n > 1)
		r = xstrdup(sb_str(&b));
	strv_free(&vals);
	sb_free(&b);
	return r;
}

/* The governor: performance is good; tune sets it where it is available. */
static void add_governor(const char *root, struct sys_state *st, size_t *cap)
{
	bool same;
	int nf;
	char *gov = per_cpu_values(root, st, "scaling_governor", &same, &nf);
	struct sys_knob *k = knob(st, cap, "cpufreq.governor", gov, gov && same && !strcmp(gov, "performance") ? SYS_GOOD : SYS_BAD,
				  gov && same && !strcmp(gov, "performance")
					  ? "performance: the CPU does not wait for load before raising its frequency"
					  : "other governors change the frequency with load, so the first samples "
					    "(and short workloads) run slower; tune sets performance");
	if (!gov)
		free(k->why), k->why = xstrdup("no cpufreq governor");
	for (size_t i = 0; gov && k->verdict == SYS_BAD && i < st->ncpu; i++) {
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", st->cpu[i].cpu);
		char *avail = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_available_governors", st->cpu[i].cpu);
		char *a = rd(root, avail);
		if (exists(root, rel) && (!a || strstr(a, "performance")))
			knob_set(k, rel, "performance");
		free(a);
		free(rel);
		free(avail);
	}
}

/* The minimum frequency: pinned to the maximum means no frequency changes at all. */
static void add_min_freq(const char *root, struct sys_state *st, size_t *cap)
{
	bool same;
	int nf;
	struct sys_knob *k;
	char *mn = per_cpu_values(root, st, "scaling_min_freq", &same, &nf);
	bool pinned = mn != NULL;
	for (size_t i = 0; mn && i < st->ncpu; i++) {
		char *r1 = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_min_freq", st->cpu[i].cpu);
		char *r2 = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", st->cpu[i].cpu);
		char *a = rd(root, r1), *b = rd(root, r2);
		if (a && b && strcmp(a, b))
			pinned = false;
		free(a);
		free(b);
		free(r1);
		free(r2);
	}
	k = knob(st, cap, "cpufreq.min_freq", mn, pinned ? SYS_GOOD : SYS_BAD,
		 pinned ? "equals the maximum: the frequency cannot drop between samples"
			: "below the maximum: the frequency can drop when a workload sleeps or waits; tune "
			  "raises it to cpuinfo_max_freq");
	if (!mn)
		free(k->why), k->why = xstrdup("no cpufreq minimum frequency");
	for (size_t i = 0; mn && !pinned && i < st->ncpu; i++) {
		char *r1 = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_min_freq", st->cpu[i].cpu);
		char *r2 = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/cpuinfo_max_freq", st->cpu[i].cpu);
		char *b = rd(root, r2);
		if (b && exists(root, r1))
			knob_set(k, r1, b);
		free(b);
		free(r1);
		free(r2);
	}
}

/* Turbo: intel_pstate's no_turbo, or cpufreq/boost (acpi-cpufreq, amd-pstate). */
static void add_turbo(const char *root, struct sys_state *st, size_t *cap)
{
	struct sys_knob *k;
	char *nt = rd(root, "sys/devices/system/cpu/intel_pstate/no_turbo");
	char *boost = rd(root, "sys/devices/system/cpu/cpufreq/boost");
	if (nt) {
		bool off = !strcmp(nt, "1");
		k = knob(st, cap, "turbo", xasprintf("%s (intel_pstate no_turbo=%s)", off ? "off" : "on", nt),
			 off ? SYS_GOOD : SYS_BAD,
			 off ? "off: the frequency does not depend on temperature, power budget or how many cores are busy"
			     : "on: the turbo frequency depends on temperature and on how many cores are busy; tune "
			       "turns it off");
		if (!off)
			knob_set(k, "sys/devices/system/cpu/intel_pstate/no_turbo", "1");
	} else if (boost) {
		bool off = !strcmp(boost, "0");
		k = knob(st, cap, "turbo", xasprintf("%s (cpufreq boost=%s)", off ? "off" : "on", boost),
			 off ? SYS_GOOD : SYS_BAD,
			 off ? "off: the frequency does not depend on temperature, power budget or how many cores are busy"
			     : "on: boost frequency depends on temperature and on how many cores are busy; tune turns "
			       "it off");
		if (!off)
			knob_set(k, "sys/devices/system/cpu/cpufreq/boost", "0");
	} else {
		knob(st, cap, "turbo", NULL, SYS_NA, "no intel_pstate/no_turbo or cpufreq/boost file");
	}
	free(nt);
	free(boost);
}

static void add_cpufreq(const char *root, struct sys_state *st, size_t *cap)
{
	char *drv = NULL;
	for (size_t i = 0; i < st->ncpu && !drv; i++) {
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", st->cpu[i].cpu);
		drv = rd(root, rel);
		free(rel);
	}
	knob(st, cap, "cpufreq.driver", drv, SYS_INFO,
	     drv ? "the frequency driver: the knobs below depend on it"
		 : "no cpufreq: frequency is fixed or set by the hypervisor or firmware");
	add_governor(root, st, cap);
	add_min_freq(root, st, cap);
	add_turbo(root, st, cap);
}

static void add_smt(const char *root, struct sys_state *st, size_t *cap)
{
	char *ctl = rd(root, "sys/devices/system/cpu/smt/control");
	char *act = rd(root, "sys/devices/system/cpu/smt/active");
	/* siblings of the benchmark CPUs that are themselves online */
	bool shared = false;
	for (size_t i = 0; i < st->ncpu; i++) {
		int *sib;
		int n = cpulist_parse(st->cpu[i].siblings, &sib);
		if (n > 1)
			shared = true;
		free(sib);
	}
	char *v = ctl ? xasprintf("%s (active %s)", ctl, act ? act : "?") : act ? xasprintf("active %s", act) : NULL;
	bool any = v || st->ncpu;
	if (!v && any)
		v = xstrdup(shared ? "siblings share cores" : "one thread per core");
	struct sys_knob *k = knob(st, cap, "smt", v, shared ? SYS_BAD : SYS_GOOD,
				  shared ? "some of sysab's CPUs share a core with a sibling thread: a copy or another "
					   "process on the sibling slows them; pin with --cpus to one thread per core "
					   "(see cpus below) or echo off > /sys/devices/system/cpu/smt/control (advice only)"
					 : "no benchmark CPU shares its core with an SMT sibling");
	if (!ctl && !act && !st->ncpu)
		k->verdict = SYS_NA;
	free(ctl);
	free(act);
}

static void add_kernel(const char *root, struct sys_state *st, size_t *cap)
{
	char *aslr = rd(root, "proc/sys/kernel/randomize_va_space");
	knob(st, cap, "aslr", aslr, aslr && strcmp(aslr, "0") ? SYS_GOOD : SYS_BAD,
	     aslr && strcmp(aslr, "0")
		     ? "on, and tune keeps it on: comparisons of layouts (KASLR, PIE) need the layout to vary, "
		       "and sysab's intervals cover that variation"
		     : "off: every run sees one address-space layout, so layout effects are hidden; "
		       "echo 2 > /proc/sys/kernel/randomize_va_space (tune does not change ASLR)");
	char *rate = rd(root, "proc/sys/kernel/perf_event_max_sample_rate");
	bool low = rate && atol(rate) <= 1;
	struct sys_knob *k = knob(st, cap, "perf_event_max_sample_rate", rate, low ? SYS_GOOD : SYS_BAD,
				  low ? "1: perf sampling interrupts (of other tools) barely run"
				      : "perf may take sampling interrupts at up to this rate per second, stealing time "
					"from the workload; tune sets 1");
	if (!low && rate)
		knob_set(k, "proc/sys/kernel/perf_event_max_sample_rate", "1");
	char *thp = rd(root, "sys/kernel/mm/transparent_hugepage/enabled");
	char *c = thp ? choice(thp) : NULL;
	free(thp);
	knob(st, cap, "thp", c, c && !strcmp(c, "always") ? SYS_BAD : SYS_INFO,
	     c && !strcmp(c, "always")
		     ? "always: whether a mapping gets huge pages depends on memory fragmentation, which varies "
		       "between runs; madvise is steadier (advice only: THP changes what memory workloads measure)"
		     : "huge pages only where asked, or none: steady between runs (advice only; recorded in the environment)");
	char *pv = rd(root, "proc/sys/kernel/perf_event_paranoid");
	knob(st, cap, "perf_event_paranoid", pv, pv && atoi(pv) <= 1 ? SYS_GOOD : SYS_INFO,
	     pv && atoi(pv) <= 1 ? "≤ 1: counters can count kernel mode (also unprivileged)"
				 : "> 1: only root or CAP_PERFMON counts kernel mode; others count user mode only");
}

/* Is a process named name running under root/proc? */
static bool proc_running(const char *root, const char *name)
{
	char *p = xasprintf("%s/proc", root);
	DIR *d = opendir(p);
	free(p);
	bool found = false;
	struct dirent *de;
	while (d && !found && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char *rel = xasprintf("proc/%s/comm", de->d_name);
		char *c = rd(root, rel);
		found = c && !strcmp(c, name);
		free(c);
		free(rel);
	}
	if (d)
		closedir(d);
	return found;
}

/* The value of a kernel command-line parameter "name=" in root/proc/cmdline, or NULL. */
static char *cmdline_param(const char *cmdline, const char *name)
{
	size_t n = strlen(name);
	for (const char *s = cmdline; s && *s;) {
		while (*s == ' ')
			s++;
		if (!strncmp(s, name, n) && s[n] == '=')
			return xstrndup(s + n + 1, strcspn(s + n + 1, " "));
		s += strcspn(s, " ");
	}
	return NULL;
}

static void add_irq_isolation(const char *root, struct sys_state *st, size_t *cap)
{
	char *p = xasprintf("%s/proc", root);
	DIR *d = opendir(p);
	free(p);
	if (d) {
		closedir(d);
		bool irqb = proc_running(root, "irqbalance");
		knob(st, cap, "irqbalance", xstrdup(irqb ? "running" : "not running"), irqb ? SYS_BAD : SYS_GOOD,
		     irqb ? "moves interrupts between CPUs during a run; systemctl stop irqbalance (advice only)"
			  : "interrupts stay where they are during a run");
	} else {
		knob(st, cap, "irqbalance", NULL, SYS_NA, "no /proc");
	}
	char *aff = rd(root, "proc/irq/default_smp_affinity");
	knob(st, cap, "irq.default_affinity", aff, SYS_INFO,
	     "CPUs new interrupts go to; keeping them off the benchmark CPUs (write a mask without them, and "
	     "the same to /proc/irq/*/smp_affinity) removes interrupt noise (advice only)");
	char *cmd = rd(root, "proc/cmdline");
	const char *names[] = {"isolcpus", "nohz_full", "rcu_nocbs"};
	const char *why[] = {
		"CPUs the scheduler leaves alone: run sysab there with --cpus for the least noise (advice only)",
		"CPUs without the periodic tick when one task runs: less jitter on --cpus there (advice only)",
		"CPUs whose RCU callbacks run elsewhere: less jitter (advice only)",
	};
	for (int i = 0; i < 3; i++) {
		char *v = cmd ? cmdline_param(cmd, names[i]) : NULL;
		struct sys_knob *k = knob(st, cap, names[i], cmd ? (v ? v : xstrdup("not set")) : NULL, SYS_INFO, why[i]);
		if (!cmd)
			free(k->why), k->why = xstrdup("no /proc/cmdline");
	}
	free(cmd);
}

static void add_power(const char *root, struct sys_state *st, size_t *cap)
{
	char *p = xasprintf("%s/sys/class/power_supply", root);
	DIR *d = opendir(p);
	free(p);
	int mains = -1, battery = 0;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *rel = xasprintf("sys/class/power_supply/%s/type", de->d_name);
		char *t = rd(root, rel);
		free(rel);
		rel = xasprintf("sys/class/power_supply/%s/online", de->d_name);
		char *o = rd(root, rel);
		free(rel);
		if (t && !strcmp(t, "Mains") && o)
			mains = mains == 1 ? 1 : atoi(o) == 1;
		if (t && !strcmp(t, "Battery"))
			battery = 1;
		free(t);
		free(o);
	}
	if (d)
		closedir(d);
	if (mains < 0 && !battery) {
		knob(st, cap, "power_supply", NULL, SYS_NA, "no battery or mains adapter: not a laptop");
		return;
	}
	bool ac = mains == 1 || !battery;
	knob(st, cap, "power_supply", xstrdup(ac ? "mains" : "battery"), ac ? SYS_GOOD : SYS_BAD,
	     ac ? "on mains power" : "on battery: firmware lowers frequency and power limits; plug the laptop in");
}

/* "cpu" line fields of root/proc/stat: total ticks and steal ticks. */
static bool stat_ticks(const char *root, unsigned long long *total, unsigned long long *steal)
{
	char *s = rd(root, "proc/stat");
	if (!s)
		return false;
	unsigned long long f[8] = {0};
	int n = sscanf(s, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
		       &f[6], &f[7]);
	free(s);
	if (n < 4)
		return false;
	*total = 0;
	for (int i = 0; i < 8; i++)
		*total += f[i];
	*steal = n >= 8 ? f[7] : 0;
	return true;
}

struct pticks {
	int pid;
	unsigned long long t;
	char *comm;
};

/* utime+stime of every process under root/proc. */
static size_t proc_ticks(const char *root, struct pticks **out)
{
	char *p = xasprintf("%s/proc", root);
	DIR *d = opendir(p);
	free(p);
	size_t n = 0, cap = 0;
	*out = NULL;
	struct dirent *de;
	while (d && (de = readdir(d))) {
		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		char *rel = xasprintf("proc/%s/stat", de->d_name);
		char *s = rd(root, rel);
		free(rel);
		char *rp = s ? strrchr(s, ')') : NULL, *lp = s ? strchr(s, '(') : NULL;
		unsigned long long ut, stt;
		/* after ")": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
		if (rp && lp && sscanf(rp + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &stt) == 2) {
			*out = xgrow(*out, &cap, n + 1, sizeof **out);
			(*out)[n].pid = atoi(de->d_name);
			(*out)[n].t = ut + stt;
			(*out)[n++].comm = xstrndup(lp + 1, (size_t)(rp - lp - 1));
		}
		free(s);
	}
	if (d)
		closedir(d);
	return n;
}

static int cmp_top(const void *a, const void *b)
{
	const struct sys_proc *x = a, *y = b;
	if (x->cpu_pct != y->cpu_pct)
		return x->cpu_pct < y->cpu_pct ? 1 : -1;
	return x->pid - y->pid;
}

static void add_load(const char *root, struct sys_state *st, int interval_ms)
{
	char *la = rd(root, "proc/loadavg");
	if (la) {
		char *p = la;
		for (int i = 0; i < 3 && p; i++)
			p = strchr(p + 1, ' ');
		if (p)
			*p = 0;
	}
	st->loadavg = la;
	unsigned long long t0 = 0, s0 = 0, t1 = 0, s1 = 0;
	bool have = stat_ticks(root, &t0, &s0);
	st->steal_boot_pct = have && t0 ? 100.0 * (double)s0 / (double)t0 : -1;
	struct pticks *a, *b;
	size_t na = proc_ticks(root, &a);
	struct timespec ts = {interval_ms / 1000, (long)(interval_ms % 1000) * 1000000L};
	uint64_t w0 = clock_raw_ns();
	nanosleep(&ts, NULL);
	double secs = (double)(clock_raw_ns() - w0) / 1e9;
	size_t nb = proc_ticks(root, &b);
	st->steal_now_pct = -1;
	if (have && stat_ticks(root, &t1, &s1) && t1 > t0)
		st->steal_now_pct = 100.0 * (double)(s1 - s0) / (double)(t1 - t0);
	long hz = sysconf(_SC_CLK_TCK);
	struct sys_proc *top = xcalloc(nb + 1, sizeof *top);
	size_t nt = 0;
	for (size_t i = 0; i < nb; i++)
		for (size_t j = 0; j < na; j++)
			if (a[j].pid == b[i].pid && b[i].t > a[j].t && secs > 0) {
				top[nt].pid = b[i].pid;
				top[nt].comm = xstrdup(b[i].comm);
				top[nt++].cpu_pct = 100.0 * (double)(b[i].t - a[j].t) / (double)hz / secs;
				break;
			}
	qsort(top, nt, sizeof *top, cmp_top);
	for (size_t i = 5; i < nt; i++)
		free(top[i].comm);
	st->top = top;
	st->ntop = nt < 5 ? nt : 5;
	for (size_t i = 0; i < na; i++)
		free(a[i].comm);
	for (size_t i = 0; i < nb; i++)
		free(b[i].comm);
	free(a);
	free(b);
}

static void add_virt(const char *root, struct sys_state *st)
{
	char *hv = rd(root, "sys/hypervisor/type");
	if (!hv) {
		char *ci = rd(root, "proc/cpuinfo");
		if (ci)
			hv = xstrdup(strstr(ci, " hypervisor") ? "yes (cpuinfo flag)" : "none");
		free(ci);
	}
	if (hv && strcmp(hv, "none")) {
		char *vendor = rd(root, "sys/class/dmi/id/sys_vendor");
		if (vendor) {
			char *t = xasprintf("%s (%s)", hv, vendor);
			free(hv);
			hv = t;
			free(vendor);
		}
	}
	st->virt = hv;
	/* a hardware PMU registers an event source of type PERF_TYPE_HARDWARE's driver: "cpu"
	 * on x86, "armv8_pmuv3*" / "arm_pmu*" on arm64, "cpu_core"/"cpu_atom" on hybrid Intel */
	char *p = xasprintf("%s/sys/bus/event_source/devices", root);
	DIR *d = opendir(p);
	free(p);
	st->pmu = d ? 0 : -1;
	struct dirent *de;
	while (d && (de = readdir(d)))
		if (!strcmp(de->d_name, "cpu") || !strncmp(de->d_name, "cpu_", 4) || !strncmp(de->d_name, "armv", 4) ||
		    !strncmp(de->d_name, "arm_", 4) || !strcmp(de->d_name, "riscv-pmu") ||
		    !strncmp(de->d_name, "loongarch", 9)) {
			st->pmu = 1;
			free(st->pmu_name);
			st->pmu_name = xstrdup(de->d_name);
		}
	if (d)
		closedir(d);
}

void system_read(const char *root, const int *cpus, int ncpus, int interval_ms, struct sys_state *out)
{
	memset(out, 0, sizeof *out);
	int *online = NULL;
	int n = 0;
	if (cpus) {
		online = xcalloc((size_t)ncpus + 1, sizeof *online);
		memcpy(online, cpus, (size_t)ncpus * sizeof *online);
		n = ncpus;
	} else {
		char *s = rd(root, "sys/devices/system/cpu/online");
		n = cpulist_parse(s, &online);
		free(s);
	}
	out->cpu = xcalloc((size_t)n + 1, sizeof *out->cpu);
	for (int i = 0; i < n; i++) {
		char *rel = xasprintf("sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", online[i]);
		out->cpu[i].cpu = online[i];
		out->cpu[i].siblings = rd(root, rel);
		free(rel);
	}
	out->ncpu = (size_t)n;
	free(online);
	size_t cap = 0;
	add_cpufreq(root, out, &cap);
	add_smt(root, out, &cap);
	add_kernel(root, out, &cap);
	add_irq_isolation(root, out, &cap);
	add_power(root, out, &cap);
	add_load(root, out, interval_ms);
	if (out->loadavg && out->ncpu)
		out->load_level = load_level(atof(out->loadavg), (long)out->ncpu);
	add_virt(root, out);
}

void system_free(struct sys_state *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nknob; i++) {
		struct sys_knob *k = &s->knob[i];
		free(k->name);
		free(k->value);
		free(k->why);
		for (size_t j = 0; j < k->nset; j++) {
			free(k->set[j].path);
			free(k->set[j].value);
		}
		free(k->set);
	}
	free(s->knob);
	for (size_t i = 0; i < s->ncpu; i++)
		free(s->cpu[i].siblings);
	free(s->cpu);
	for (size_t i = 0; i < s->ntop; i++)
		free(s->top[i].comm);
	free(s->top);
	free(s->loadavg);
	free(s->virt);
	free(s->pmu_name);
	memset(s, 0, sizeof *s);
}
