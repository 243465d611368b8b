/* system.c - `sysab system show|tune|reset`: the machine's benchmarking knobs. */
#include "cli.h"
#include "report/system.h"
#include "system/system.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { O_ROOT = 1, O_STATE };

const struct cli_opt cli_system_opts[] = {
	CLI_OUT_OPTS("show: text (default), json or markdown (tune and reset: text or --json)", "text json markdown"),
	CLI_OPT("root", 0, "DIR", "read, tune and reset the sysfs/procfs tree under DIR instead of / (for tests)", O_ROOT),
	CLI_OPT("state-file", 0, "FILE",
	 "where tune saves the original values and reset reads them (default $XDG_STATE_HOME/sysab/tune.json, "
	 "else ~/.local/state/sysab/tune.json)",
	 O_STATE),
	CLI_OPT("help", 'h', NULL, "show this help", OPT_HELP),
	CLI_END,
};

struct sys_args {
	struct cli_out out; /* show: any format of REPORT_SYSTEM; tune, reset: text or json */
	bool json;
	const char *root, *state;
};

static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct sys_args *a = ctx;
	switch (id) {
	case OPT_JSON:
	case OPT_FORMAT:
	case OPT_OUTPUT: return cli_out_opt(&a->out, id, arg, e);
	case O_ROOT: a->root = arg; return 0;
	case O_STATE: a->state = arg; return 0;
	}
	return errf(e, "unhandled option");
}

static void print_doc(char *s)
{
	if (s)
		puts(s);
	free(s);
}

/* The verb (pos), its formats and the tree under root: 0, or -1 with e saying what to give. */
static int check_args(const struct sys_args *a, const struct strv *pos, const char *root, struct err *e)
{
	const char *verb = pos->n ? pos->v[0] : "";
	if (pos->n != 1 || (strcmp(verb, "show") && strcmp(verb, "tune") && strcmp(verb, "reset")))
		return errf(e, "give one of show, tune or reset; see `sysab system --help`");
	if (strcmp(verb, "show") && ((!a->json && !cli_out_text(&a->out)) || a->out.path))
		return errf(e, "%s prints text or --json to standard output; --format markdown and -o are for `sysab "
			       "system show`",
			    verb);
	struct stat sb;
	if (stat(root, &sb) < 0 || !S_ISDIR(sb.st_mode))
		return errf(e, "--root %s: not a directory; give the top of a sysfs/procfs tree", root);
	return 0;
}

int cmd_system(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct sys_args a = {0};
	cli_out_init(&a.out, REPORT_SYSTEM, "text");
	struct strv pos = {0};
	struct sys_state s = {0};
	struct sys_changes ch = {0};
	char *state = NULL;
	struct err e;
	int rc = cli_start(cmd, argc, argv, on_opt, &a, &pos);
	if (rc >= 0)
		goto out;
	const char *verb = pos.n ? pos.v[0] : "";
	const char *root = a.root ? a.root : "/";
	a.json = a.out.fmt == &report_format_json;
	if (check_args(&a, &pos, root, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	state = !strcmp(verb, "show") ? xstrdup("") : a.state ? xstrdup(a.state) : system_state_file_default(&e);
	if (!state) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (strcmp(verb, "show") && !a.root && geteuid() != 0) {
		errf(&e, "%s changes kernel settings and needs root; run it with sudo (show needs no root)", verb);
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (!strcmp(verb, "reset")) {
		bool ok;
		if (system_reset(root, state, &ch, &ok, &e)) {
			rc = cli_fail(cmd, &e);
			goto out;
		}
		if (a.json)
			print_doc(report_changes_json("reset", &ch, state));
		else
			report_changes_text(stdout, "reset", &ch, state, NULL);
		rc = ok ? EXIT_OK : EXIT_INPUT;
		goto out;
	}
	/* the CPUs sysab would use: its affinity on this machine, the online ones of a fake tree */
	int *cpus = NULL, ncpus = 0;
	cpu_set_t set;
	if (!a.root && sched_getaffinity(0, sizeof set, &set) == 0) {
		cpus = xcalloc(CPU_SETSIZE, sizeof *cpus);
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				cpus[ncpus++] = c;
	}
	system_read(root, cpus, ncpus, a.root ? 0 : 300, &s);
	free(cpus);
	if (!strcmp(verb, "show")) {
		rc = cli_emit(&a.out, &(struct report_doc){.system = &s}, &e) ? cli_fail(cmd, &e) : EXIT_OK;
		goto out;
	}
	if (system_tune(a.root ? a.root : "/", &s, state, &ch, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (a.json)
		print_doc(report_changes_json("tune", &ch, state));
	else {
		/* the reset it names runs as printed: the same tree, the state file unless the default */
		struct err ignored;
		char *dflt = a.state ? system_state_file_default(&ignored) : NULL;
		struct sys_reset_hint h = {.root = a.root,
					   .state_file = a.state && (!dflt || strcmp(dflt, a.state)) ? a.state : NULL};
		report_changes_text(stdout, "tune", &ch, state, &h);
		free(dflt);
	}
	rc = EXIT_OK;
out:
	system_changes_free(&ch);
	system_free(&s);
	free(state);
	strv_free(&pos);
	return rc;
}
