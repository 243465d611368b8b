/* proc_exec.c - kernel.proc.exec: fork, exec the tiny sysab-exec-helper, wait. */
#include "workloads/util.h"
#include "core/core.h"

#include <elf.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The helper is installed next to the sysab binary; it is linked statically
 * when the C library allows, so the op has no dynamic loading in it. */
#define HELPER_NAME "sysab-exec-helper"

/* 1 when the ELF file at path has a PT_INTERP program header (it is dynamically linked),
 * 0 when it has none, -1 when it cannot be read as ELF. */
static int px_has_interp(const char *path)
{
	int rc = -1;
	FILE *f = fopen(path, "rbe");
	if (!f)
		return -1;
	unsigned char id[EI_NIDENT];
	if (fread(id, 1, sizeof id, f) != sizeof id || memcmp(id, ELFMAG, SELFMAG) != 0 ||
	    (id[EI_CLASS] != ELFCLASS64 && id[EI_CLASS] != ELFCLASS32) || fseek(f, 0, SEEK_SET))
		goto out;
	uint64_t phoff;
	unsigned phnum, phentsize;
	if (id[EI_CLASS] == ELFCLASS64) {
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
	rc = 0;
	for (unsigned i = 0; i < phnum && rc == 0; i++) {
		uint32_t type; /* p_type is the first 32-bit word of both header classes */
		if (fseek(f, (long)(phoff + (uint64_t)i * phentsize), SEEK_SET) || fread(&type, sizeof type, 1, f) != 1) {
			rc = -1;
			break;
		}
		rc = type == PT_INTERP;
	}
out:
	fclose(f);
	return rc;
}

struct px {
	char *helper;
};

static int px_setup(struct wl_ctx *ctx)
{
	if (!ctx->self_exe)
		return wl_fail(ctx, WL_UNSUPPORTED, "the path of the sysab binary is unknown");
	char *dir = xstrdup(ctx->self_exe);
	char *helper = xasprintf("%s/" HELPER_NAME, dirname(dir));
	free(dir);
	if (access(helper, X_OK) < 0) {
		int rc = wl_fail(ctx, WL_UNSUPPORTED, "%s is missing or not executable; build or install it with sysab",
				 helper);
		free(helper);
		return rc;
	}
	int interp = px_has_interp(helper);
	if (interp != 0) {
		int rc = wl_fail(ctx, WL_UNSUPPORTED,
				 interp > 0 ? "%s is dynamically linked (no static C library when it was built), so the "
					      "op would include dynamic loading; install the static C library "
					      "(libc6-dev) and rebuild"
					    : "%s is not a readable ELF file",
				 helper);
		free(helper);
		return rc;
	}
	struct px *p = xcalloc(1, sizeof *p);
	p->helper = helper;
	ctx->priv = p;
	return 0;
}

static int px_run(struct wl_ctx *ctx, uint64_t n)
{
	const struct px *p = ctx->priv;
	char *const argv[] = {HELPER_NAME, NULL};
	char *const envp[] = {NULL};
	uint64_t clean = 0;
	for (uint64_t i = 0; i < n; i++) {
		pid_t pid;
		int rc = wl_fork(ctx, &pid);
		if (rc)
			return rc;
		if (pid == 0) {
			execve(p->helper, argv, envp);
			_exit(127);
		}
		int status;
		if (wl_wait(pid, &status, NULL) < 0)
			return wl_sys_fail(ctx, "waitpid");
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
			return wl_fail(ctx, WL_ERROR, "%s did not exit cleanly (status %#x)", p->helper, status);
		clean++;
	}
	ctx->count[0] += clean;
	return 0;
}

static void px_teardown(struct wl_ctx *ctx)
{
	struct px *p = ctx->priv;
	free(p->helper);
	free(p);
}

const struct workload wl_kernel_proc_exec = {
	.name = "kernel.proc.exec",
	.group = "kernel",
	.summary = "fork, the child execs the tiny static sysab-exec-helper, which exits 0; the parent waits",
	.kernel_path = "fork, execve (binfmt_elf load, mm replacement), exit and wait4",
	.unit = "process",
	.flags = WL_LATENCY | WL_FORKS | WL_EXECS | WL_PIN,
	.checks = {WL_CHECK("clean helper exits per op", WL_M_COUNT0, 1, 1)},
	.setup = px_setup,
	.run = px_run,
	.teardown = px_teardown,
};
