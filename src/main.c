/* main.c - sysab: subcommand dispatch. */
#include "cli/cli.h"
#include "workloads/workload.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: sysab COMMAND [options]\n\n"
		   "sysab measures whether a kernel or system change makes a machine faster, slower or no\n"
		   "different, and backs each answer with confidence intervals.\n\ncommands:\n");
	for (size_t i = 0; i < cli_ncmds; i++)
		fprintf(f, "  %-10s %s\n", cli_cmds[i].name, cli_cmds[i].summary);
	fprintf(f, "\n`sysab COMMAND --help` tells more; `sysab --version` prints the version.\n");
}

int main(int argc, char **argv)
{
	/* the hidden helper mode of unixbench.execl: exec itself n times, then exit */
	if (argc > 1 && strcmp(argv[1], "__exec-chain") == 0)
		return wl_exec_chain_main(argc, argv);
	/* hidden: the generated documentation (make docs) */
	if (argc == 2 && strcmp(argv[1], "__man") == 0) {
		cli_man(stdout);
		return EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "__completion") == 0) {
		cli_completion_bash(stdout);
		return EXIT_OK;
	}
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
	/* a file size limit (ulimit -f) makes a write fail with EFBIG, reported, not kill sysab */
	signal(SIGXFSZ, SIG_IGN);
	/* every view is escaped; an export keeps its exact bytes unless it goes to a terminal */
	if (strcmp(argv[1], "export") || isatty(STDOUT_FILENO)) {
		const char *nc = getenv("NO_COLOR");
		term_guard_stdout(isatty(STDOUT_FILENO) && !(nc && *nc));
	}
	for (size_t i = 0; i < cli_ncmds; i++)
		if (!strcmp(argv[1], cli_cmds[i].name))
			return cli_cmds[i].main(&cli_cmds[i], argc - 1, argv + 1);
	fputs("sysab: unknown command '", stderr);
	fputs_clean(argv[1], stderr);
	fputs("'; `sysab --help` lists the commands\n", stderr);
	return EXIT_INPUT;
}
