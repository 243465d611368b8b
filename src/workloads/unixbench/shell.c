/* shell.c - unixbench.shell1 and unixbench.shell8: a fixed sort/od/grep/tee/wc shell script, 1 or 8 at once. */
#include "workloads/util.h"
#include "core/core.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The script sysab ships. It takes two arguments, both made by sysab: the
 * input file and a tag for its work files. It checks its own result: the
 * generated input has exactly SHELL_MATCHES lines containing "kernel". */
#define SHELL_LINES 400
#define SHELL_MATCHES 80 /* every fifth line */
#define STR_(x) #x
#define STR(x) STR_(x)
static const char shell_script[] =
	"# sysab shell workload: a fixed text-processing pipeline (written by sysab)\n"
	"set -e\n"
	"in=$1\n"
	"t=$2\n"
	"trap 'rm -f sort.$t od.$t grep.$t wc.$t' EXIT\n"
	"sort <\"$in\" >sort.$t\n"
	"od sort.$t | sort -n -k 1 >od.$t\n"
	"grep kernel sort.$t | tee grep.$t | wc >wc.$t\n"
	"read lines words chars <wc.$t\n"
	"[ \"$lines\" -eq " STR(SHELL_MATCHES) " ]\n";

static const char *const shell_tools[] = {"sort", "od", "grep", "tee", "wc", "rm"};

#define SHELL_MAX_PAR 8

struct shell {
	int par;           /* scripts per op */
	char *script, *input; /* paths, to remove in teardown */
	char script_name[32], input_name[32];
	char tags[SHELL_MAX_PAR][16];
};

/* Deterministic text: words from a fixed list (none contains "kernel"), and
 * "kernel" in every fifth line. */
static void shell_input(struct sb *b)
{
	static const char *const words[] = {"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
					    "hotel", "india", "juliet", "kilo", "lima", "mike", "november",
					    "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
					    "victor", "whiskey", "xray", "yankee", "zulu", "page", "fault",
					    "syscall", "pipe", "sched", "cache"};
	uint32_t r = 12345;
	for (int i = 0; i < SHELL_LINES; i++) {
		int nw = 4 + i % 7;
		for (int w = 0; w < nw; w++) {
			r = r * 1103515245u + 12345u;
			sb_add(b, words[(r >> 16) % (sizeof words / sizeof words[0])]);
			sb_add(b, w + 1 < nw ? " " : "");
		}
		sb_addf(b, "%s %d\n", i % 5 == 0 ? " kernel" : "", (int)((r >> 8) % 100000));
	}
}

static void shell_remove(struct wl_ctx *ctx, struct shell *s)
{
	static const char *const work[] = {"sort", "od", "grep", "wc"};
	for (int j = 0; j < s->par; j++)
		for (size_t k = 0; k < sizeof work / sizeof work[0]; k++) {
			char *p = xasprintf("%s/%s.%s", ctx->tmpdir, work[k], s->tags[j]);
			unlink(p);
			free(p);
		}
	if (s->script)
		unlink(s->script);
	if (s->input)
		unlink(s->input);
	free(s->script);
	free(s->input);
	free(s);
}

static int shell_write(struct wl_ctx *ctx, const char *name, const char *text, size_t len, char **path)
{
	int fd = wl_tmp_create(ctx, name, path);
	if (fd < 0)
		return fd;
	int rc = wl_write_all(fd, text, len) < 0 ? wl_sys_fail(ctx, "write shell workload file") : 0;
	close(fd);
	return rc;
}

static int shell_setup_common(struct wl_ctx *ctx, int par)
{
	if (access("/bin/sh", X_OK) < 0)
		return wl_fail(ctx, WL_UNSUPPORTED, "/bin/sh is not executable");
	for (size_t i = 0; i < sizeof shell_tools / sizeof shell_tools[0]; i++) {
		char a[64], b[64];
		snprintf(a, sizeof a, "/usr/bin/%s", shell_tools[i]);
		snprintf(b, sizeof b, "/bin/%s", shell_tools[i]);
		if (access(a, X_OK) < 0 && access(b, X_OK) < 0)
			return wl_fail(ctx, WL_UNSUPPORTED, "%s is in neither /usr/bin nor /bin", shell_tools[i]);
	}
	struct shell *s = xcalloc(1, sizeof *s);
	s->par = par;
	snprintf(s->script_name, sizeof s->script_name, "shell.%d.sh", ctx->copy);
	snprintf(s->input_name, sizeof s->input_name, "shell.%d.in", ctx->copy);
	for (int j = 0; j < par; j++)
		snprintf(s->tags[j], sizeof s->tags[j], "%d.%d", ctx->copy, j);
	int rc = shell_write(ctx, s->script_name, shell_script, sizeof shell_script - 1, &s->script);
	if (rc == 0) {
		struct sb in = {0};
		shell_input(&in);
		rc = shell_write(ctx, s->input_name, sb_str(&in), in.len, &s->input);
		sb_free(&in);
	}
	if (rc) {
		shell_remove(ctx, s);
		return rc;
	}
	ctx->priv = s;
	return 0;
}

static int shell1_setup(struct wl_ctx *ctx)
{
	return shell_setup_common(ctx, 1);
}

static int shell8_setup(struct wl_ctx *ctx)
{
	return shell_setup_common(ctx, 8);
}

/* One op: start s->par scripts at once, wait for all; each must exit 0. */
static int shell_run(struct wl_ctx *ctx, uint64_t n)
{
	struct shell *s = ctx->priv;
	char *const envp[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};
	for (uint64_t i = 0; i < n; i++) {
		pid_t pids[SHELL_MAX_PAR];
		int started = 0, rc = 0;
		for (; started < s->par; started++) {
			rc = wl_fork(ctx, &pids[started]);
			if (rc)
				break;
			if (pids[started] == 0) {
				char *const argv[] = {"sh", s->script_name, s->input_name, s->tags[started], NULL};
				if (chdir(ctx->tmpdir) == 0)
					execve("/bin/sh", argv, envp);
				_exit(127);
			}
		}
		int bad = 0, badstatus = 0;
		for (int j = 0; j < started; j++) {
			int status;
			if (rc)
				kill(pids[j], SIGKILL);
			if (wl_wait(pids[j], &status, NULL) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
				bad++;
				badstatus = status;
			}
		}
		if (rc)
			return rc;
		if (bad)
			return wl_fail(ctx, WL_ERROR, "%d of %d shell scripts failed (status %#x)", bad, s->par,
				       badstatus);
		ctx->count[0]++;
	}
	return 0;
}

static void shell_teardown(struct wl_ctx *ctx)
{
	shell_remove(ctx, ctx->priv);
}

const struct workload wl_unixbench_shell1 = {
	.name = "unixbench.shell1",
	.group = "unixbench",
	.summary = "/bin/sh runs a fixed sort | od | sort -n | grep | tee | wc script over generated text",
	.kernel_path = "fork, execve of sh and of each tool, pipes, small file create/write/read/unlink, exit and wait",
	.unit = "script run",
	.unixbench = "shell1",
	.unixbench_units = 60, /* UnixBench reports lpm */
	.baseline = 42.4 / 60,
	.flags = WL_INDEX | WL_FORKS | WL_EXECS | WL_FS | WL_SHELL,
	.checks = {WL_CHECK("script runs with the right result per op", WL_M_COUNT0, 1, 1)},
	.setup = shell1_setup,
	.run = shell_run,
	.teardown = shell_teardown,
};

const struct workload wl_unixbench_shell8 = {
	.name = "unixbench.shell8",
	.group = "unixbench",
	.summary = "eight concurrent runs of the unixbench.shell1 script; one op ends when all eight have",
	.kernel_path = "as unixbench.shell1, with eight scripts competing for the CPUs at once",
	.unit = "8 concurrent script runs",
	.unixbench = "shell8",
	.unixbench_units = 60, /* UnixBench reports lpm */
	.baseline = 6.0 / 60,
	.flags = WL_INDEX | WL_FORKS | WL_EXECS | WL_FS | WL_SHELL,
	.checks = {WL_CHECK("script batches with the right result per op", WL_M_COUNT0, 1, 1)},
	.setup = shell8_setup,
	.run = shell_run,
	.teardown = shell_teardown,
};
