/* commands.c - the table of subcommands, their option tables and help. */
#include "cli.h"

static const struct cli_opt look_opts[] = {
	{"json", 0, NULL, "print JSON instead of a table", OPT_JSON},
	CLI_COMMON_OPTS,
	CLI_END,
};

static const struct cli_opt plain_opts[] = {
	{"json", 0, NULL, "print JSON instead of a table", OPT_JSON},
	{"help", 'h', NULL, "show this help", OPT_HELP},
	CLI_END,
};

extern const struct cli_opt cli_run_opts[];

const struct cli_cmd cli_cmds[] = {
	{"run", NULL, "measure workloads and store every sample",
	 "Each (workload, copies) is set up, warmed up, calibrated so a sample lasts the target\n"
	 "time, then sampled; every sample is committed as it is taken. Ctrl-C (or SIGTERM, SIGHUP)\n"
	 "stops at the next sample boundary, keeps what was measured and marks the run incomplete;\n"
	 "the exit status is then 128 + the signal. A run whose sysab was killed outright is marked\n"
	 "interrupted by the next sysab command.",
	 cli_run_opts, cmd_run},
	{"list", "[KEY=VALUE]", "one line per run: id, time, status, boot, kernel, workloads, labels", NULL, look_opts,
	 cmd_list},
	{"show", "RUN", "everything about one run: results, self-checks, environment", NULL, look_opts, cmd_show},
	{"workloads", NULL, "the workloads: name, unit, kernel path, summary", NULL, plain_opts, cmd_workloads},
	{"env", NULL, "the environment snapshot of this machine now", NULL, plain_opts, cmd_env},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];
