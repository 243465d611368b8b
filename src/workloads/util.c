/* util.c - helpers shared by workloads: errno mapping, child processes, CPU pinning, temp files. */
#include "util.h"
#include "core/core.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

int wl_errno_code(int err)
{
	switch (err) {
	case EAGAIN:
	case EMFILE:
	case ENFILE:
	case ENOSPC:
	case ENOMEM:
	case EDQUOT:
		return WL_NORESOURCE;
	default:
		return WL_ERROR;
	}
}

int wl_sys_fail(struct wl_ctx *ctx, const char *what)
{
	int err = errno;
	return wl_fail(ctx, wl_errno_code(err), "%s: %s", what, strerror(err));
}

int wl_fork(struct wl_ctx *ctx, pid_t *pid)
{
	pid_t parent = getpid();
	pid_t p = fork();
	if (p < 0)
		return wl_sys_fail(ctx, "fork");
	if (p == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(1);
	}
	*pid = p;
	return 0;
}

int wl_wait(pid_t pid, int *status, struct rusage *ru)
{
	int st;
	while (wait4(pid, &st, 0, ru) < 0)
		if (errno != EINTR)
			return -1;
	if (status)
		*status = st;
	return 0;
}

void wl_kill_reap(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	wl_wait(pid, NULL, NULL);
}

int wl_pin_self(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof set, &set);
}

int wl_tmp_create(struct wl_ctx *ctx, const char *name, char **path)
{
	char *p = xasprintf("%s/%s", ctx->tmpdir, name);
	int fd = open(p, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		int err = errno;
		wl_fail(ctx, wl_errno_code(err), "create %s: %s", p, strerror(err));
		free(p);
		return wl_errno_code(err);
	}
	if (path)
		*path = p;
	else
		free(p);
	return fd;
}

int wl_write_all(int fd, const void *buf, size_t len)
{
	const char *b = buf;
	while (len > 0) {
		ssize_t w = write(fd, b, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		b += w;
		len -= (size_t)w;
	}
	return 0;
}

void wl_affinity_save(struct wl_affinity *a)
{
	a->saved = sched_getaffinity(0, sizeof a->set, &a->set) == 0;
}

void wl_affinity_restore(const struct wl_affinity *a)
{
	if (a->saved)
		sched_setaffinity(0, sizeof a->set, &a->set);
}

int wl_cpu_pair(const struct wl_ctx *ctx, int *a, int *b)
{
	if (ctx->ncpus < 2 || 2 * ctx->ncopies > ctx->ncpus)
		return -1;
	/* ctx->cpus is the run's list rotated by ctx->copy: run[k] = cpus[(k - copy) mod n] */
	int n = ctx->ncpus;
	*a = ctx->cpus[ctx->copy % n];
	*b = ctx->cpus[(ctx->copy + 1) % n];
	return 0;
}

int wl_ipi_count_from(FILE *f, int cpu, uint64_t *out)
{
	char *line = NULL;
	size_t cap = 0;
	int col = -1, rc = -1;
	if (getline(&line, &cap, f) < 0)
		goto out;
	/* the header names the online CPUs in column order: "CPU0 CPU1 CPU3 ..." */
	int k = 0;
	for (char *p = line; (p = strstr(p, "CPU")); p += 3, k++)
		if (atoi(p + 3) == cpu && p[3] >= '0' && p[3] <= '9') {
			col = k;
			break;
		}
	if (col < 0)
		goto out;
	while (getline(&line, &cap, f) >= 0) {
		if (!strcasestr(line, "function call interrupts"))
			continue;
		char *p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		for (int i = 0; i <= col; i++) {
			char *end;
			unsigned long long v = strtoull(p, &end, 10);
			if (end == p)
				goto out;
			if (i == col) {
				*out = v;
				rc = 0;
			}
			p = end;
		}
		break;
	}
out:
	free(line);
	return rc;
}

int wl_ipi_count(int cpu, uint64_t *out)
{
	return wl_ipi_count_at("/proc/interrupts", cpu, out);
}

int wl_ipi_count_at(const char *path, int cpu, uint64_t *out)
{
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int rc = wl_ipi_count_from(f, cpu, out);
	fclose(f);
	return rc;
}

/* One read of /proc/PID/status: the switch counts, and whether the task is asleep. */
static int proc_switches_once(pid_t pid, uint64_t *vol, uint64_t *invol, bool *asleep)
{
	char path[64], line[256];
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return -1;
	int found = 0;
	*asleep = false;
	while (fgets(line, sizeof line, f)) {
		unsigned long long v;
		char st;
		if (sscanf(line, "voluntary_ctxt_switches: %llu", &v) == 1)
			*vol = v, found |= 1;
		else if (sscanf(line, "nonvoluntary_ctxt_switches: %llu", &v) == 1)
			*invol = v, found |= 2;
		else if (sscanf(line, "State: %c", &st) == 1)
			*asleep = st == 'S';
	}
	fclose(f);
	return found == 3 ? 0 : -1;
}

int wl_proc_switches_asleep(pid_t pid, uint64_t *vol, uint64_t *invol)
{
	bool asleep = false;
	int rc = -1;
	/* at most ~20 ms: a task preempted on its way to block comes back within a tick or two */
	for (int i = 0; i < 400 && !asleep; i++) {
		if (i)
			nanosleep(&(struct timespec){.tv_nsec = 50000}, NULL);
		rc = proc_switches_once(pid, vol, invol, &asleep);
		if (rc)
			return rc;
	}
	return rc;
}

uint64_t wl_fault_batch_cap(long page_size)
{
	uint64_t pages = (uint64_t)WL_FAULT_BATCH_BYTES / (uint64_t)page_size;
	return pages < 64 ? 64 : pages;
}

/* 1 when the ELF file at path has a PT_INTERP program header (it is dynamically linked),
 * with the loader's path in interp (cut to len - 1 bytes), 0 when it has none, -1 when it
 * cannot be read as ELF. */
static int elf_interp(const char *path, char *interp, size_t len)
{
	int rc = -1;
	interp[0] = '\0';
	FILE *f = fopen(path, "rbe");
	if (!f)
		return -1;
	unsigned char id[EI_NIDENT];
	if (fread(id, 1, sizeof id, f) != sizeof id || memcmp(id, ELFMAG, SELFMAG) != 0 ||
	    (id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32) || fseek(f, 0, SEEK_SET))
		goto out;
	bool is64 = id[EI_CLASS] == ELFCLASS64;
	uint64_t phoff;
	unsigned phnum, phentsize;
	if (is64) {
		Elf64_Ehdr eh;
		if (fread(&eh, sizeof eh, 1, f) != 1)
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	} else {
		Elf32_Ehdr eh;
		if (fread(&eh, sizeof eh, 1, f) != 1)
			goto out;
		phoff = eh.e_phoff, phnum = eh.e_phnum, phentsize = eh.e_phentsize;
	}
	if (phentsize < (is64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr)))
		goto out;
	rc = 0;
	for (unsigned i = 0; i < phnum; i++) {
		uint32_t type;
		uint64_t off, size;
		if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET))
			goto bad;
		if (is64) {
			Elf64_Phdr ph;
			if (fread(&ph, sizeof ph, 1, f) != 1)
				goto bad;
			type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		} else {
			Elf32_Phdr ph;
			if (fread(&ph, sizeof ph, 1, f) != 1)
				goto bad;
			type = ph.p_type, off = ph.p_offset, size = ph.p_filesz;
		}
		if (type != PT_INTERP)
			continue;
		rc = 1;
		size_t n = size < len ? (size_t)size : len - 1;
		if (fseek(f, (long)off, SEEK_SET) || fread(interp, 1, n, f) != n)
			goto bad;
		interp[n] = '\0'; /* the segment holds the path and its terminating NUL */
		break;
	}
	goto out;
bad:
	rc = -1;
out:
	fclose(f);
	return rc;
}

/* Exec helper with no arguments (it exits 0 then), untimed. Returns its wait status, or
 * -1 when no child could be started. */
static int helper_trial(const char *helper)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0)
			dup2(null, 0), dup2(null, 1), dup2(null, 2);
		char *const argv[] = {(char *)helper, NULL};
		char *const envp[] = {NULL};
		execve(helper, argv, envp);
		_exit(127);
	}
	int status;
	if (wl_wait(pid, &status, NULL) < 0)
		return -1;
	return status;
}

int wl_helper_find(struct wl_ctx *ctx, const char *name, bool dynamic, char **path)
{
	*path = NULL;
	if (!ctx->self_exe)
		return wl_fail(ctx, WL_UNSUPPORTED, "the path of the sysab binary is unknown");
	char *dir = xstrdup(ctx->self_exe);
	char *helper = xasprintf("%s/%s", dirname(dir), name);
	free(dir);
	int rc = 0;
	char interp[256];
	if (access(helper, X_OK) < 0) {
		rc = wl_fail(ctx, WL_UNSUPPORTED,
			     "helper not found at %s (or not executable); build it with make, or install it next "
			     "to sysab with make install",
			     helper);
		goto out;
	}
	int has = elf_interp(helper, interp, sizeof interp);
	if (has < 0)
		rc = wl_fail(ctx, WL_UNSUPPORTED, "%s is not a readable ELF file", helper);
	else if (has && !dynamic)
		rc = wl_fail(ctx, WL_UNSUPPORTED,
			     "%s is dynamically linked (no static C library when it was built), so the op would "
			     "include dynamic loading; install the static C library (libc6-dev) and rebuild",
			     helper);
	else if (!has && dynamic)
		rc = wl_fail(ctx, WL_UNSUPPORTED,
			     "%s is statically linked, so the op would leave out the dynamic loading "
			     "UnixBench's op has; rebuild it with make",
			     helper);
	else if (has && access(interp, R_OK) < 0)
		rc = wl_fail(ctx, WL_UNSUPPORTED,
			     "the dynamic loader %s of helper %s is missing on this system; copy the loader and "
			     "the C library it needs (ldd %s) beside it, as make guest does",
			     interp, helper, helper);
	else if (has) {
		int st = helper_trial(helper);
		if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = wl_fail(ctx, WL_UNSUPPORTED,
				     "helper %s does not run here (wait status %#x): its loader %s finds no C library "
				     "it needs (ldd %s); copy them beside it, as make guest does",
				     helper, st, interp, helper);
	}
out:
	if (rc)
		free(helper);
	else
		*path = helper;
	return rc;
}
