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
	 "Each (workload, copies) is set up, calibrated so a sample lasts the target time, and\n"
	 "warmed up; then samples are taken in rounds, one of each workload per round in a fresh\n"
	 "shuffled order, so slow drift of the machine spreads evenly over the workloads. Every\n"
	 "sample is committed as it is taken. Ctrl-C stops at the next sample boundary and keeps\n"
	 "what was measured (the run is marked incomplete).",
	 cli_run_opts, cmd_run},
	{"list", "[KEY=VALUE]", "one line per run: id, time, status, boot, kernel, workloads, labels", NULL, look_opts,
	 cmd_list},
	{"show", "RUN", "everything about one run: results, self-checks, environment", NULL, look_opts, cmd_show},
	{"workloads", NULL, "the workloads: name, unit, kernel path, summary", NULL, plain_opts, cmd_workloads},
	{"env", NULL, "the environment snapshot of this machine now", NULL, plain_opts, cmd_env},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];
