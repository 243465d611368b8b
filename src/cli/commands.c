/* commands.c - the table of subcommands, their option tables and help. */
#include "cli.h"
#include "campaign/campaign.h"

static const struct cli_opt look_opts[] = {
	CLI_OUT_OPTS("text (default) or json", "text json"),
	CLI_COLOR_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

static const struct cli_opt show_opts[] = {
	CLI_OUT_OPTS("text (default), json or markdown", "text json markdown"),
	CLI_COLOR_OPT,
	CLI_VERBOSE_OPT,
	CLI_COMMON_OPTS,
	CLI_END,
};

static const struct cli_opt plain_opts[] = {
	CLI_OUT_OPTS("text (default) or json", "text json"),
	CLI_COLOR_OPT,
	CLI_OPT("help", 'h', NULL, "show this help", OPT_HELP),
	CLI_END,
};

extern const struct cli_opt cli_run_opts[];
extern const struct cli_opt cli_compare_opts[];
extern const struct cli_opt cli_analyze_opts[];
extern const struct cli_opt cli_plan_opts[];
extern const struct cli_opt cli_import_opts[];
extern const struct cli_opt cli_export_opts[];
extern const struct cli_opt cli_report_opts[];
extern const struct cli_opt cli_campaign_opts[];
extern const struct cli_opt cli_bisect_opts[];
extern const struct cli_opt cli_checkdb_opts[];
extern const struct cli_opt cli_system_opts[];
extern const struct cli_opt cli_rm_opts[];
extern const struct cli_opt cli_relabel_opts[];
extern const struct cli_opt cli_history_opts[];

#define SELECTOR_HELP                                                                              \
	"A selector is ONE argument of terms separated by spaces, all of which a run must match:\n"     \
	"  KEY=VALUE         label KEY is VALUE (kernel=RELEASE, machine=HOSTNAME and\n"            \
	"                    source=sysab|csv|unixbench work without such a label)\n"                 \
	"  run:ID[,ID|A-B]   one of these run ids\n"                                                   \
	"  boot:PREFIX       the run's boot id starts with PREFIX\n"                                   \
	"  campaign:NAME     the run was made by boot campaign NAME (sysab campaign)\n"                 \
	"Only complete, incomplete and imported runs are used (not running or interrupted ones).\n"     \
	"A group never pools runs of several sources or machines: add source= or machine= to pick one.\n"

const struct cli_cmd cli_cmds[] = {
	{"run", NULL, "measure workloads and store every sample",
	 "Each (workload, copies) is set up, calibrated so a sample lasts the target time, and\n"
	 "warmed up; then samples are taken in rounds, one of each workload per round in a fresh\n"
	 "shuffled order, so slow drift of the machine spreads evenly over the workloads. Every\n"
	 "sample is committed as it is taken. Ctrl-C (or SIGTERM, SIGHUP) stops at the next sample\n"
	 "boundary, keeps what was measured and marks the run incomplete; the exit status is then\n"
	 "128 + the signal. If another process holds the database's lock then, sysab waits at\n"
	 "most 2 s for it and says on stderr what it could not record. A run whose sysab was\n"
	 "killed outright is marked interrupted by the next sysab command.",
	 cli_run_opts, cmd_run, NULL},
	{"list", "[SELECTOR...]", "one line per run: id, time, status, boot, kernel, workloads, labels",
	 SELECTOR_HELP "Unlike the other commands, list shows running and interrupted runs too, and takes the\n"
		       "terms as one argument or several.\n"
		       "Example: sysab list 'machine=imported pie=no'",
	 look_opts, cmd_list, NULL},
	{"show", "RUN", "everything about one run: results, self-checks, environment", NULL, show_opts, cmd_show, NULL},
	{"workloads", NULL, "the workloads: name, unit, kernel path, summary", NULL, plain_opts, cmd_workloads, NULL},
	{"env", NULL, "the environment snapshot of this machine now", NULL, plain_opts, cmd_env, NULL},
	{"compare", "A B", "is B faster, slower or equivalent to A? per workload, with confidence intervals",
	 SELECTOR_HELP "\nExample: sysab compare 'pernode=no pie=yes' 'pernode=yes pie=yes' --fail-on slower\n"
		       "Verdicts: faster/slower (CI excludes 0; '(negligible)': inside the margin), equivalent\n"
		       "(90% CI inside the margin), inconclusive (with what to add), no data or no verdict.\n"
		       "A verdict needs the replication unit: >= 2 boots per configuration (or a supported\n"
		       "borrowed boot variance), or >= 2 runs with --unit run (A and B on the same boots).\n"
		       "To add boots and look again, declare a group-sequential design from the first look:\n"
		       "--max-boots N --look K.\n"
		       "Exit 1 when --fail-on matches a significant, non-negligible change (the rows that\n"
		       "matched are named on stderr); 0 otherwise.",
	 cli_compare_opts, cmd_compare, NULL},
	{"analyze", "[FILTER...]", "factorial analysis: main effects and interactions of labelled factors",
	 "Cells are the combinations of the factors' labels among the runs the FILTER selectors\n"
	 "pick (all terms of all FILTER arguments are ANDed; none = every usable run).\n" SELECTOR_HELP
	 "\nExample: sysab analyze --factors pernode,pie machine=lab3",
	 cli_analyze_opts, cmd_analyze, NULL},
	{"plan", "[A [B]]", "how many boots, runs and samples a comparison needs, and how long it takes",
	 "From the variance components of the selected runs (A alone: a comparison of A with another\n"
	 "configuration like it; A and B: their comparison) and measured costs.\n" SELECTOR_HELP
	 "\nExample: sysab plan 'pie=yes' --target 1%",
	 cli_plan_opts, cmd_plan, NULL},
	{"history", "[SELECTOR] -w WORKLOAD --by LABEL|time",
	 "where a series of kernels (or any label) changed a workload: change points with intervals",
	 "Each boot is one point: its estimate of the workload from its runs and samples, with its own\n"
	 "standard error. The boots are ordered by a label's value in version order (6.12-rc1 <\n"
	 "6.12-rc2 < 6.12 < 6.13-rc1; numbers as numbers; ties by time), or by when they ran (--by time,\n"
	 "the default). Changes are found by binary segmentation with a robust weighted CUSUM and a\n"
	 "scan of short episodes (a regression later fixed), whose p-values come from simulated series\n"
	 "without a change, so a series without any change reports one with probability at most\n"
	 "--alpha; one outlying boot is not a change. Each change: the\n"
	 "first changed boot (counting from 0), an interval for it, the labels either side and the size\n"
	 "in percent with its 95% interval. A change of the boots' spread, not of their mean, is a line\n"
	 "of its own (from which boot, the ratio; 30 boots or more), never a change of mean.\n"
	 "docs/METHOD.md has the method and its measured rates.\n"
	 "Needs at least 6 boots. Example: sysab history -w kernel.syscall.null --by kernel\n\n" SELECTOR_HELP,
	 cli_history_opts, cmd_history, NULL},
	{"import", "csv|unixbench|db FILE...", "store published numbers (CSV), UnixBench logs or other databases",
	 "sysab import csv FILE [-l K=V]...        one value per row with labels (docs/FORMATS.md)\n"
	 "sysab import unixbench FILE.log... [-l K=V]...   each log becomes one run of its passes\n"
	 "sysab import db OTHER.db...              merge other sysab databases: runs (by their UUID, so\n"
	 "                                         a second import stores nothing), campaigns\n"
	 "Each file is stored in one transaction: all of it or nothing.",
	 cli_import_opts, cmd_import, "csv unixbench db"},
	{"export", "[SELECTOR...]", "every sample with its run, boot, labels and environment, as CSV or JSON",
	 "With no SELECTOR every run is exported, whatever its status (running and interrupted\n"
	 "runs too). A SELECTOR picks runs as every other command does: complete, incomplete and\n"
	 "imported ones only; with several, the runs any of them matches. CSV (RFC 4180): one row\n"
	 "per sample; the fixed columns, then label.KEY and env.KEY columns, sorted; `sysab import\n"
	 "csv` reads it back. JSON: the runs, each with its samples (docs/FORMATS.md).\n\n" SELECTOR_HELP,
	 cli_export_opts, cmd_export, NULL},
	{"report", "[SELECTOR | compare A B | analyze [FILTER...]]",
	 "a self-contained HTML page with charts: one group, a comparison, or a factorial analysis",
	 "sysab report 'pie=yes' -o r.html                        estimates of one group of runs\n"
	 "sysab report compare 'pie=no' 'pie=yes' -o r.html       compare B with A\n"
	 "sysab report analyze --factors pernode,pie -o r.html    main effects and interactions\n"
	 "The page has no scripts and fetches nothing: inline CSS and SVG drawn by sysab. Per\n"
	 "workload a strip plot of samples and run means by configuration, coloured by boot, with\n"
	 "the estimate and its interval; a forest plot of changes or effects with the equivalence\n"
	 "band; the environment of each group (differing keys highlighted); the warnings.\n\n" SELECTOR_HELP,
	 cli_report_opts, cmd_report, "compare analyze"},
	{"campaign", "new|show|status|start|resume|stop NAME [-- RUN-ARGS...]",
	 "boot campaigns: boot each configuration several times in randomized blocks and run on every boot",
	 "sysab campaign new NAME --backend " CAMPAIGN_BACKEND_USAGE " --boots N [--runs R] \\\n"
	 "    --config 'K=V ...' [--kernel K --initrd I --append CMDLINE | --entry E | --command SH]... \\\n"
	 "    -- RUN-ARGS...                 plan it (RUN-ARGS: of each `sysab run`, default --quick)\n"
	 "sysab campaign show [NAME]         the schedule, progress, what is next, time left\n"
	 "sysab campaign start NAME [-n]     install the resume hook and boot the first slot (qemu: all)\n"
	 "sysab campaign resume NAME         go on after a reboot, crash or kill (the unit runs this)\n"
	 "sysab campaign status NAME         progress\n"
	 "sysab campaign stop NAME           stop cleanly: no more boots, the unit removed\n"
	 "Nothing boots before `start`; `start --dry-run` prints every command and the unit file.\n"
	 "A slot that booted the wrong kernel fails; K consecutive failures stop the campaign. An\n"
	 "interrupted slot is retried once, then skipped. `sysab analyze campaign:NAME` analyzes it.\n"
	 "docs/CAMPAIGNS.md has the design and the backends.",
	 cli_campaign_opts, cmd_campaign, "new show status start resume stop"},
	{"bisect", "new|start|resume|show|stop NAME [-- RUN-ARGS...]",
	 "find the configuration of an ordered series that made it slower, with a verdict at every step",
	 "sysab bisect new NAME --series FILE --good G --bad B --backend " CAMPAIGN_BACKEND_USAGE " \\\n"
	 "    [-w PATTERN]... [--max-boots N] [--assume good|bad] [-n] -- RUN-ARGS...\n"
	 "sysab bisect start NAME           boot the first step (qemu: every step)\n"
	 "sysab bisect resume NAME          go on after a reboot, crash or kill; every boot is kept\n"
	 "sysab bisect show NAME            the culprit, its effect with interval, the steps\n"
	 "sysab bisect stop NAME            stop after the current boot\n"
	 "FILE holds one configuration per line, as `campaign new --config` takes one: its labels, then\n"
	 "--kernel, --initrd, --append, --entry or --command; G and B are line numbers (from 1) or a\n"
	 "line's labels. Each step is a campaign NAME.sK of randomized blocks of the midpoint with both\n"
	 "ends, a look after each block: equivalent to good -> good; slower than good and equivalent\n"
	 "to bad -> bad; else another block, up to --max-boots boots per step (then undecided: the\n"
	 "bisection stops unless --assume). Every earlier boot of a configuration counts. The culprit\n"
	 "check NAME.check boots its parent and the culprit afresh: \"slower\" confirms it.\n"
	 "docs/METHOD.md (\"Bisection\") has the method and its measured rates.",
	 cli_bisect_opts, cmd_bisect, "new start resume show stop"},
	{"check-db", NULL, "verify the stored per-run summaries against the raw samples",
	 "compare, analyze and plan can read one stored summary per run, workload and copies instead\n"
	 "of every sample. Each summary is stamped with the version of the method that computed it;\n"
	 "a writing command (run, import) computes the missing and stale ones. check-db recomputes\n"
	 "every summary from its samples and compares them exactly; it changes nothing unless --fix.\n"
	 "Exit 0 when all match, 1 when any is missing, stale or different.",
	 cli_checkdb_opts, cmd_check_db, NULL},
	{"rm", "SELECTOR...", "remove runs with their samples, labels and environment",
	 "All the selected runs go in one transaction, or none. More than one needs --yes. Each\n"
	 "removed run is named on standard output. A running run is refused.\n\n" SELECTOR_HELP
	 "rm and relabel see runs of every status, as list does.\n"
	 "Example: sysab rm 'pernode=test'",
	 cli_rm_opts, cmd_rm, NULL},
	{"relabel", "SELECTOR... -l KEY=VALUE...", "set or remove labels of runs",
	 "-l KEY=VALUE sets KEY on every selected run (replacing its value); -l KEY= removes KEY.\n"
	 "All runs change in one transaction, or none; each is named with the old and new value.\n\n"
	 SELECTOR_HELP "Example: sysab relabel 'pernode=adaptive' -l pernode=yes",
	 cli_relabel_opts, cmd_relabel, NULL},
	{"system", "show|tune|reset", "the machine's benchmarking knobs: judge them, set them, restore them",
	 "show    every knob (governor, minimum frequency, turbo/boost, SMT, ASLR, perf sampling rate,\n"
	 "        THP, irqbalance, IRQ affinity, isolcpus/nohz_full/rcu_nocbs, power supply): its value,\n"
	 "        good or bad for benchmarking and why; the CPUs sysab would use and their SMT\n"
	 "        siblings; load and the busiest processes; virtualisation, steal time and the PMU.\n"
	 "        A knob whose file is missing is 'not available here', never an error.\n"
	 "tune    (root) set governor performance, minimum frequency to the maximum, turbo/boost off\n"
	 "        and perf_event_max_sample_rate 1, saving the exact original values first; a knob\n"
	 "        whose value cannot be read back (so not restored) is refused. ASLR stays on:\n"
	 "        comparisons of kernel layouts (KASLR, PIE) need layout variation. The rest is advice.\n"
	 "reset   (root) write the saved values back and check each reads back byte-identical.",
	 cli_system_opts, cmd_system, "show tune reset"},
};

const size_t cli_ncmds = sizeof cli_cmds / sizeof cli_cmds[0];
