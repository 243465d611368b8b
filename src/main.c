/* main.c - sysab: subcommand dispatch. */
#include "cli/cli.h"
#include "workloads/workload.h"
#include "core/testhooks.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: sysab COMMAND [options]\n\n"
		   "sysab measures whether a kernel or system change makes a machine faster, slower or no\n"
		   "different, and backs each answer with confidence intervals.\n\ncommands:\n");
	for (size_t i = 0; i < cli_ncmds; i++)
		fprintf(f, "  %-10s %s\n", cli_cmds[i].name, cli_cmds[i].summary);
	fprintf(f, "\nOptions of the command may also come before it: sysab --db FILE list.\n"
		   "`sysab COMMAND --help` tells more; `sysab --version` prints the version.\n");
}

/* Options given before the command that take a value as the next word. */
static bool takes_value(const char *opt)
{
	return !strcmp(opt, "--db") || !strcmp(opt, "--format") || !strcmp(opt, "-o") || !strcmp(opt, "--output");
}

/* Move options given before the command (sysab --db X list) to after it, where the
 * command's own option table takes them. Returns the new argv (argv[0] the command, NULL
 * when there is none) in *out, which the caller frees. */
static int hoist(int argc, char **argv, char ***out)
{
	int k = 1;
	while (k < argc && argv[k][0] == '-' && strcmp(argv[k], "--"))
		k += takes_value(argv[k]) && k + 1 < argc ? 2 : 1;
	char **v = xcalloc((size_t)argc + 1, sizeof *v);
	int n = 0;
	v[n++] = k < argc ? argv[k] : NULL;
	for (int i = 1; i < k; i++)
		v[n++] = argv[i];
	for (int i = k + 1; i < argc; i++)
		v[n++] = argv[i];
	*out = v;
	return n;
}

int main(int argc, char **argv)
{
	/* hidden: the generated documentation (make docs) */
	if (argc == 2 && strcmp(argv[1], "__man") == 0) {
		cli_man(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "__completion") == 0) {
		cli_completion_bash(stdout);
		return EXIT_OK;
	}
	(void)testhooks(); /* the switches of the tests, read once before any thread or child */
	if (argc < 2) {
		usage(stderr);
		return EXIT_INPUT;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("sysab %s\n", SYSAB_VERSION);
		return EXIT_OK;
	}
	char **v;
	int n = hoist(argc, argv, &v);
	const char *name = v[0];
	/* a file size limit (ulimit -f) makes a write fail with EFBIG, reported, not kill sysab */
	signal(SIGXFSZ, SIG_IGN);
	/* every view is escaped; an export keeps its exact bytes unless it goes to a terminal */
	if (!name || strcmp(name, "export") || isatty(STDOUT_FILENO)) {
		const char *nc = getenv("NO_COLOR");
		term_guard_stdout(isatty(STDOUT_FILENO) && !(nc && *nc));
	}
	for (size_t i = 0; i < cli_ncmds && name; i++)
		if (!strcmp(name, cli_cmds[i].name)) {
			int rc = cli_cmds[i].main(&cli_cmds[i], n, v);
			free(v);
			return rc;
		}
	free(v);
	char prog[256];
	prog_name(prog, sizeof prog);
	if (!name) {
		fprintf(stderr, "sysab: give a command after the options, e.g. sysab --db FILE list; `%s --help` lists "
				"the commands\n",
			prog);
		return EXIT_INPUT;
	}
	fputs("sysab: unknown command '", stderr);
	fputs_clean(name, stderr);
	struct sb names = {0};
	for (size_t i = 0; i < cli_ncmds; i++)
		sb_addf(&names, "%s%s", i ? " " : "", cli_cmds[i].name);
	char best[64];
	bool close = cli_suggest(name, sb_str(&names), best, sizeof best);
	sb_free(&names);
	if (close)
		fprintf(stderr, "'; did you mean %s? (`%s --help` lists the commands)\n", best, prog);
	else
		fprintf(stderr, "'; `%s --help` lists the commands\n", prog);
	return EXIT_INPUT;
}
