/* run.c - `sysab run`: measure the selected workloads into the database. */
#include "cli.h"
#include "core/testhooks.h"
#include "core/tmp.h"
#include "import/import_store.h"
#include "report/report.h"
#include "run/env.h"
#include "run/external.h"
#include "run/runner.h"
#include "run/node.h"
#include "run/runsum.h"
#include "analysis/job.h"
#include "analysis/mde.h"
#include "analysis/summary.h"
#include "store/store.h"
#include "study/grow.h"
#include "workloads/workload.h"
#include "workloads/pressure.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum {
	O_LABEL = 1, O_WORKLOAD, O_COPIES, O_QUICK, O_FULL, O_SAMPLES, O_SAMPLE_MS, O_WARMUP_MS, O_SEED,
	O_ORDER, O_CPUS, O_QUIET, O_TARGET_CI, O_MAX_TIME, O_COUNTERS, O_NO_PROBE, O_NO_HOST_REF, O_NO_RANDOMIZE_ENV, O_UNIXBENCH, O_NODES,
	O_ICACHE, O_ARM, O_ARM_ENV, O_ARM_ORDER, O_ARM_TIMEOUT, O_ALLOCATE, O_UNTIL, O_MAX_RUNS, O_TARGET,
};

const struct cli_opt cli_run_opts[] = {
	CLI_OPT("label", 'l', "KEY=VALUE", "label the run (repeatable), e.g. -l pernode=yes", O_LABEL),
	CLI_OPT("workload", 'w', "PATTERN", "only workloads matching PATTERN: a name, a glob or a group (repeatable)",
	 O_WORKLOAD),
	CLI_NUM("copies", 'c', "N", "run N copies at once (repeatable); default 1 and, with >1 CPU, one per CPU", O_COPIES,
		CLI_INT, 1, 1024, NULL),
	CLI_OPT("quick", 0, NULL, "the quick profile: short samples, 1 copy (and N copies of the index workloads)",
	 O_QUICK),
	CLI_OPT("full", 0, NULL, "the full profile: long samples, many of them", O_FULL),
	CLI_NUM("samples", 0, "N", "measured samples per workload and copies (overrides the profile)", O_SAMPLES, CLI_INT,
		2, 100000, NULL),
	CLI_NUM("sample-ms", 0, "MS", "target length of one sample in ms (overrides the profile)", O_SAMPLE_MS, CLI_INT,
		1, 60000, NULL),
	CLI_NUM("warmup-ms", 0, "MS", "unrecorded warm-up per workload in ms (overrides the profile)", O_WARMUP_MS,
		CLI_INT, 0, 600000, NULL),
	CLI_OPT("seed", 0, "N", "seed for the workload order (default: from the clock; recorded)", O_SEED),
	CLI_CHOICE("order", 0, "ORDER",
	 "rounds (default: one sample of each workload per round, fresh shuffled order each round), "
	 "blocked (all samples of a workload in a row, workloads shuffled) or fixed (blocked, registry order)",
	 O_ORDER, "rounds blocked fixed"),
	CLI_NUM("target-ci", 0, "PCT",
		"adaptive: keep sampling until each workload's 95% CI half-width is at most PCT, e.g. 0.5%", O_TARGET_CI,
		CLI_PCT, 0.0001, 0.5, NULL),
	CLI_OPT("max-time", 0, "DURATION",
	 "adaptive: time budget for sampling (per workload in blocked order), e.g. 10m (default 10m with "
	 "--target-ci); a workload it stops short of the target says so",
	 O_MAX_TIME),
	CLI_OPT("allocate", 0, "FROM",
	 "spread the run's samples over the index workloads by their variance and cost in the earlier runs FROM "
	 "picks (a selector, e.g. 'host=NAME' or run:3-5): the least index variance in the same sampling time",
	 O_ALLOCATE),
	CLI_OPT("cpus", 0, "LIST", "pin the run to these CPUs, e.g. 0 or 0-1,4", O_CPUS),
	CLI_CHOICE("nodes", 0, "all|LIST",
	 "one run per NUMA node, e.g. all or 0,1: each pinned to the node's CPUs with its memory bound to the node, "
	 "labelled node=K, with placement self-checks (on a machine with one node, all is one run on it, saying so)",
	 O_NODES, "all"),
	CLI_CHOICE("icache-pressure", 0, "l1|llc|SIZE",
	 "before each op, untimed, run code that evicts the L1 instruction cache (l1), and also read a buffer of "
	 "twice the last-level cache (llc) or of SIZE bytes (e.g. 8M), so the kernel entry path is fetched from "
	 "L2, memory or another node; each op is timed on its own; only workloads whose op is one kernel entry "
	 "take it (sysab workloads --json: flag icache-pressure)",
	 O_ICACHE, "l1 llc"),
	CLI_CHOICE("counters", 0, "MODE",
	 "per-sample counters: all (default: software plus what hardware allows), software or none", O_COUNTERS,
	 "all software none"),
	CLI_OPT("no-probe", 0, NULL, "skip the noise probe (a pinned register-only loop measured before sampling)",
	 O_NO_PROBE),
	CLI_OPT("no-host-ref", 0, NULL,
		"leave out the host-speed reference (host.ref: a register-only loop sampled once per round, which "
		"compare/analyze --adjust host use)",
		O_NO_HOST_REF),
	CLI_OPT("no-randomize-env", 0, NULL,
		"keep the environment's size as it is: by default each run adds 0-4095 bytes to it (SYSAB_ENV_PAD) and "
		"shifts its workers' stacks by as much, so that stack layout varies from run to run (recorded as "
		"run.env_pad)",
		O_NO_RANDOMIZE_ENV),
	CLI_OPT("unixbench", 0, "SHELL",
	 "instead of sysab's workloads, run SHELL (which runs UnixBench's Run, e.g. 'cd ~/UnixBench && ./Run -c 1 "
	 "-i 3 syscall pipe') with UB_RESULTDIR set to an empty directory, and store the log it leaves there as "
	 "this run: this machine, boot and kernel, source unixbench",
	 O_UNIXBENCH),
	CLI_OPT("arm", 0, "NAME=COMMAND",
	 "a paired run: an arm (give 2 to 8) that COMMAND (/bin/sh -c, untimed, at most --arm-timeout) switches the machine to inside this "
	 "boot, e.g. --arm A='sysctl -w kernel.foo=0' --arm B='sysctl -w kernel.foo=1'; every round runs each arm's "
	 "command then samples its workloads; each arm is stored as its own run labelled arm=NAME, for compare to "
	 "pair by round",
	 O_ARM),
	CLI_OPT("arm-env", 0, "NAME:VAR=VALUE",
	 "set VAR=VALUE for arm NAME's workers and command (repeatable), e.g. --arm-env B:MALLOC_ARENA_MAX=1",
	 O_ARM_ENV),
	CLI_CHOICE("arm-order", 0, "ORDER",
	 "the arms' order in each round: alternate (default: in order, reversed every other round) or random",
	 O_ARM_ORDER, "alternate random"),
	CLI_OPT("arm-timeout", 0, "DURATION",
	 "the most an arm's command may take each time it runs, from 1s to 24h (default 10m); then sysab sends its "
	 "process group SIGTERM, SIGKILL 10 s later, and the run fails naming the arm (a stop signal ends the "
	 "command the same way)",
	 O_ARM_TIMEOUT),
	CLI_CHOICE("until", 0, "WHAT",
	 "paired runs that grow: with 2 arms, add paired runs on this boot, looking after each from the second on "
	 "(a sequential design of its own, alpha spent by O'Brien-Fleming), until every chosen workload is faster, "
	 "slower or equivalent, or at --max-runs; then the verdicts and the MDE reached",
	 O_UNTIL, "decided"),
	CLI_NUM("max-runs", 0, "N", "--until decided: at most N paired runs", O_MAX_RUNS, CLI_INT, STUDY_GROW_MIN_RUNS,
		AN_GROW_MAX_RUNS, "20"),
	CLI_NUM("target", 0, "PCT",
		"--until decided: the margin of equivalence and the MDE the design is sized for (default 1%)", O_TARGET,
		CLI_PCT, 0.0001, 1, "1%"),
	CLI_OUT_OPTS("text (default), json or markdown", "text json markdown"),
	CLI_COLOR_OPT,
	CLI_VERBOSE_OPT,
	CLI_OPT("quiet", 'q', NULL, "no progress display", O_QUIET),
	CLI_COMMON_OPTS,
	CLI_END,
};

/* The profiles: how long and how many samples. A (workload, copies) whose samples have
 * taken budget_ms stops at RUN_MIN_SAMPLES samples (slow ops such as shell scripts). */
static const struct profile {
	const char *name;
	int samples;
	unsigned sample_ms, warmup_ms, budget_ms;
	unsigned probe_ms; /* the noise probe */
} profiles[] = {
	/* 28 samples: 5 batches (the 4 df an interval needs) from the 25 left when the warm-up
	 * detector drops up to 3 first samples; 25 gave no interval after one was dropped */
	{"quick", 28, 10, 40, 700, 250},
	{"default", 28, 40, 120, 2000, 500},
	{"full", 30, 100, 500, 0, 1000},
};

struct run_args {
	struct kvlist labels;
	struct strv patterns;
	int copies[64];
	size_t ncopies;
	bool quick, full, quiet, seed_set, warmup_set;
	struct cli_out out;
	enum run_order order;
	double target_ci;
	uint64_t max_ns;
	int samples;
	uint64_t sample_ms, warmup_ms, seed;
	int cpus[1024];
	int ncpus;
	const char *cpus_text;
	const char *nodes;       /* --nodes SPEC */
	const char *pressure;    /* --icache-pressure SPEC */
	bool copies_default;     /* no -c: 1 and one per CPU the run may use */
	const char *db;
	enum ctr_mode counters;
	bool counters_set, no_probe, no_host_ref, no_randomize_env;
	uint64_t hang_ns;
	const char *unixbench;   /* --unixbench SHELL */
	const char *allocate;    /* --allocate FROM */
	const char *runner_only; /* the first option given that only sysab's own workloads take */
	struct run_arm arms[RUN_MAX_ARMS]; /* --arm, in the order given */
	struct kvlist arm_env[RUN_MAX_ARMS]; /* --arm-env of each */
	size_t narms;
	enum run_arm_order arm_order;
	uint64_t arm_timeout_ns; /* --arm-timeout; 0 = the default */
	bool until;              /* --until decided */
	size_t max_runs;         /* --max-runs; 0: not given */
	double target;           /* --target, a fraction; 0: not given */
};

/* An arm's name: what a label value and a file name take. */
static bool arm_name_ok(const char *s, size_t n)
{
	if (!n || n > 32)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '_' || s[i] == '-' || s[i] == '.'))
			return false;
	return true;
}

static ssize_t arm_find(const struct run_args *a, const char *name, size_t n)
{
	for (size_t i = 0; i < a->narms; i++)
		if (strlen(a->arms[i].name) == n && !strncmp(a->arms[i].name, name, n))
			return (ssize_t)i;
	return -1;
}

/* --arm NAME=COMMAND */
static int arm_add(struct run_args *a, const char *arg, struct err *e)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : 0;
	if (!eq || !arm_name_ok(arg, n) || !eq[1] || !text_is_clean(eq + 1, false) || strlen(eq + 1) > 4096)
		return errf(e, "--arm '%s': give NAME=COMMAND, NAME of letters, digits, _ . - (at most 32) and a shell "
			       "command that switches the machine to the arm, e.g. --arm B='sysctl -w kernel.foo=1' "
			       "(true for an arm that changes nothing)",
			    arg);
	if (arm_find(a, arg, n) >= 0)
		return errf(e, "--arm '%s': arm %.*s is given twice; give each arm once", arg, (int)n, arg);
	if (a->narms >= RUN_MAX_ARMS)
		return errf(e, "--arm '%s': at most %d arms", arg, RUN_MAX_ARMS);
	char *name = xasprintf("%.*s", (int)n, arg);
	a->arms[a->narms] = (struct run_arm){.name = name, .cmd = eq + 1, .env = &a->arm_env[a->narms]};
	a->narms++;
	return 0;
}

/* --arm-env NAME:VAR=VALUE, for an arm given before it */
static int arm_env_add(struct run_args *a, const char *arg, struct err *e)
{
	const char *colon = strchr(arg, ':'), *eq = colon ? strchr(colon, '=') : NULL;
	if (!colon || !eq || eq == colon + 1 || !text_is_clean(arg, false))
		return errf(e, "--arm-env '%s': give NAME:VAR=VALUE for an arm given with --arm, e.g. --arm-env "
			       "B:MALLOC_ARENA_MAX=1",
			    arg);
	ssize_t i = arm_find(a, arg, (size_t)(colon - arg));
	if (i < 0)
		return errf(e, "--arm-env '%s': no arm %.*s; give --arm %.*s=COMMAND before it", arg, (int)(colon - arg),
			    arg, (int)(colon - arg), arg);
	for (const char *p = colon + 1; p < eq; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return errf(e, "--arm-env '%s': '%.*s' is not an environment variable name", arg,
				    (int)(eq - colon - 1), colon + 1);
	char *var = xasprintf("%.*s", (int)(eq - colon - 1), colon + 1);
	kv_add(&a->arm_env[i], var, eq + 1);
	free(var);
	return 0;
}

/* "0-3,6" into a list of CPU ids. */
static int parse_cpus(const char *s, int *out, int max, int *n, struct err *e)
{
	*n = 0;
	const char *p = s;
	if (!*p)
		return errf(e, "--cpus: empty list; give CPUs like 0 or 0-1,4");
	while (*p) {
		char *end;
		if (*p < '0' || *p > '9')
			return errf(e, "--cpus: '%s' is not a CPU list; give CPUs like 0 or 0-1,4", s);
		long a = strtol(p, &end, 10), b = a;
		if (*end == '-') {
			if (end[1] < '0' || end[1] > '9')
				return errf(e, "--cpus: '%s' is not a CPU list; give CPUs like 0 or 0-1,4", s);
			b = strtol(end + 1, &end, 10);
		}
		if (a > b || b >= CPU_SETSIZE)
			return errf(e, "--cpus: bad range in '%s'; CPU ids go from 0 to %d", s, CPU_SETSIZE - 1);
		for (long c = a; c <= b; c++) {
			if (*n >= max)
				return errf(e, "--cpus: too many CPUs in '%s'", s);
			out[(*n)++] = (int)c;
		}
		if (*end == ',')
			end++;
		else if (*end)
			return errf(e, "--cpus: '%s' is not a CPU list; give CPUs like 0 or 0-1,4", s);
		p = end;
	}
	long online = sysconf(_SC_NPROCESSORS_CONF);
	for (int i = 0; i < *n; i++)
		if (out[i] >= online)
			return errf(e, "--cpus: CPU %d does not exist here (%ld CPUs); see `sysab env`", out[i], online);
	return 0;
}

/* Long by design: one case per option of `sysab run`, each checked where it is read. */
static int on_opt(void *ctx, int id, const char *arg, struct err *e)
{
	struct run_args *a = ctx;
	uint64_t u;
	static const struct {
		int id;
		const char *name;
	} runner_only[] = {{O_WORKLOAD, "-w"},	      {O_COPIES, "-c"},		  {O_QUICK, "--quick"},
			   {O_FULL, "--full"},	      {O_SAMPLES, "--samples"},	  {O_SAMPLE_MS, "--sample-ms"},
			   {O_WARMUP_MS, "--warmup-ms"}, {O_SEED, "--seed"},	  {O_ORDER, "--order"},
			   {O_CPUS, "--cpus"},	      {O_TARGET_CI, "--target-ci"}, {O_MAX_TIME, "--max-time"},
			   {O_COUNTERS, "--counters"}, {O_NO_PROBE, "--no-probe"}, {O_NODES, "--nodes"},
			   {O_NO_HOST_REF, "--no-host-ref"}, {O_NO_RANDOMIZE_ENV, "--no-randomize-env"}, {O_ICACHE, "--icache-pressure"}, {O_ARM, "--arm"},
			   {O_ALLOCATE, "--allocate"}, {O_UNTIL, "--until"}};
	for (size_t i = 0; i < sizeof runner_only / sizeof *runner_only && !a->runner_only; i++)
		if (runner_only[i].id == id)
			a->runner_only = runner_only[i].name;
	switch (id) {
	case O_LABEL:
		return label_add(&a->labels, arg, e);
	case O_WORKLOAD:
		if (!*arg || !text_is_clean(arg, false))
			return errf(e, "-w: give a workload name or pattern; `sysab workloads` lists them");
		if (strlen(arg) > 128)
			return errf(e, "-w: a pattern of %zu bytes is too long for any workload name (at most 128); "
				       "`sysab workloads` lists them", strlen(arg));
		strv_add(&a->patterns, arg);
		return 0;
	case O_COPIES:
		if (a->ncopies >= sizeof a->copies / sizeof a->copies[0])
			return errf(e, "-c: too many copies counts");
		a->copies[a->ncopies] = cli_int_of(arg);
		for (size_t i = 0; i < a->ncopies; i++)
			if (a->copies[i] == a->copies[a->ncopies])
				return errf(e, "-c %s is given twice; give each copies count once", arg);
		a->ncopies++;
		return 0;
	case O_QUICK: a->quick = true; return 0;
	case O_FULL: a->full = true; return 0;
	case O_SAMPLES: a->samples = cli_int_of(arg); return 0;
	case O_SAMPLE_MS: a->sample_ms = (uint64_t)cli_int_of(arg); return 0;
	case O_WARMUP_MS:
		a->warmup_set = true;
		a->warmup_ms = (uint64_t)cli_int_of(arg);
		return 0;
	case O_SEED:
		if (parse_u64(arg, 0, INT64_MAX, "--seed", &u, e))
			return -1;
		a->seed = u;
		a->seed_set = true;
		return 0;
	case O_ORDER:
		if (!strcmp(arg, "rounds"))
			a->order = ORDER_ROUNDS;
		else if (!strcmp(arg, "blocked"))
			a->order = ORDER_BLOCKED;
		else if (!strcmp(arg, "fixed"))
			a->order = ORDER_FIXED;
		else
			return errf(e, "--order: '%s' is not an order; use rounds, blocked or fixed", arg);
		return 0;
	case O_TARGET_CI: a->target_ci = cli_real_of(arg); return 0;
	case O_MAX_TIME: return parse_duration(arg, "--max-time", &a->max_ns, e);
	case O_CPUS:
		a->cpus_text = arg;
		return parse_cpus(arg, a->cpus, 1024, &a->ncpus, e);
	case O_QUIET: a->quiet = true; return 0;
	case O_ALLOCATE:
		if (!text_is_clean(arg, false) || strlen(arg) > 1024)
			return errf(e, "--allocate: give a selector of earlier runs, e.g. 'host=NAME' or run:3-5");
		a->allocate = arg;
		return 0;
	case O_NODES:
		if (!*arg || !text_is_clean(arg, false) || strlen(arg) > 256)
			return errf(e, "--nodes: give all or node ids like 0 or 0,1");
		a->nodes = arg;
		return 0;
	case O_ICACHE:
		if (!*arg || !text_is_clean(arg, false) || strlen(arg) >= sizeof((struct wl_pressure *)0)->spec)
			return errf(e, "--icache-pressure: give l1, llc or a size such as 8M");
		a->pressure = arg;
		return 0;
	case O_COUNTERS:
		a->counters_set = true;
		return counters_parse_mode(arg, &a->counters, e);
	case O_NO_PROBE: a->no_probe = true; return 0;
	case O_NO_HOST_REF: a->no_host_ref = true; return 0;
	case O_NO_RANDOMIZE_ENV: a->no_randomize_env = true; return 0;
	case O_ARM: return arm_add(a, arg, e);
	case O_ARM_ENV: return arm_env_add(a, arg, e);
	case O_ARM_TIMEOUT:
		if (parse_duration(arg, "--arm-timeout", &a->arm_timeout_ns, e))
			return -1;
		if (a->arm_timeout_ns < 1000000000ull || a->arm_timeout_ns > 24 * 3600 * 1000000000ull)
			return errf(e, "--arm-timeout: %s is out of range; give 1s to 24h, e.g. 10m", arg);
		return 0;
	case O_UNTIL:
		if (strcmp(arg, "decided"))
			return errf(e, "--until %s: give --until decided (add paired runs until every chosen workload is "
				       "faster, slower or equivalent, or --max-runs)",
				    arg);
		a->until = true;
		return 0;
	case O_MAX_RUNS: a->max_runs = (size_t)cli_int_of(arg); return 0;
	case O_TARGET: a->target = cli_real_of(arg); return 0;
	case O_ARM_ORDER: a->arm_order = !strcmp(arg, "random") ? ARM_ORDER_RANDOM : ARM_ORDER_ALTERNATE; return 0;
	case O_UNIXBENCH:
		if (!*arg || !text_is_clean(arg, false) || strlen(arg) > 4096)
			return errf(e, "--unixbench: give the shell command that runs UnixBench's Run (printable, at most "
				       "4096 bytes), e.g. 'cd ~/UnixBench && ./Run -c 1 -i 3'");
		a->unixbench = arg;
		return 0;
	case OPT_JSON:
	case OPT_FORMAT:
	case OPT_OUTPUT:
	case OPT_NO_COLOR:
	case OPT_VERBOSE: return cli_out_opt(&a->out, id, arg, e);
	case OPT_DB: a->db = a->out.db = arg; return 0;
	}
	return errf(e, "unhandled option");
}

/* Resolve -w patterns into workloads, in registry order; quick skips slow ones unless named. */
static int select_workloads(const struct run_args *a, const struct workload ***out, size_t *n, struct err *e)
{
	const struct workload **v = xcalloc(wl_count(), sizeof *v);
	*n = 0;
	for (size_t p = 0; p < a->patterns.n; p++) {
		bool any = false;
		for (size_t i = 0; i < wl_count(); i++)
			if (wl_matches(wl_at(i), a->patterns.v[p]))
				any = true;
		if (!any) {
			const char *s = wl_suggest(a->patterns.v[p]);
			free(v);
			if (s)
				return errf(e, "-w %s: no such workload; did you mean %s? (`sysab workloads` lists them)",
					    a->patterns.v[p], s);
			return errf(e, "-w %s: no such workload; `sysab workloads` lists them", a->patterns.v[p]);
		}
	}
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		bool take = a->patterns.n == 0 && !(w->flags & WL_REFERENCE);
		for (size_t p = 0; p < a->patterns.n && !take; p++) /* the reference only by its name or group */
			take = (w->flags & WL_REFERENCE) ? !strcmp(w->name, a->patterns.v[p]) || !strcmp(w->group, a->patterns.v[p])
							 : wl_matches(w, a->patterns.v[p]);
		if (take && a->patterns.n == 0 && a->quick && (w->flags & WL_QUICK_SKIP))
			take = false;
		if (take)
			v[(*n)++] = w;
	}
	*out = v;
	return 0;
}

static void progress_cb(void *arg, const struct run_progress *p)
{
	(void)arg;
	report_progress(stderr, p);
}

/* Long by design: options to runner options, one check each, then the run and its result. */
/* Options that do not go together: -1 with e set. */
static int check_args(const struct run_args *a, const struct strv *pos, struct err *e)
{
	if (pos->n)
		return errf(e, "unexpected argument '%s'; labels go with -l KEY=VALUE, workloads with -w", pos->v[0]);
	if (a->max_ns && a->target_ci <= 0)
		return errf(e, "--max-time needs --target-ci; give both, e.g. --target-ci 0.5%% --max-time 10m");
	if (a->quick && a->full)
		return errf(e, "--quick and --full conflict; choose one profile");
	if (a->allocate && a->target_ci > 0)
		return errf(e, "--allocate and --target-ci conflict: --target-ci samples each workload until its own "
			       "interval is narrow enough, --allocate sets each count in advance; choose one");
	if (a->nodes && a->cpus_text)
		return errf(e, "--nodes %s and --cpus %s conflict: --nodes pins each run to its node's CPUs; give one",
			    a->nodes, a->cpus_text);
	if (a->nodes && kv_get(&a->labels, "node"))
		return errf(e, "-l node=%s: --nodes labels each run node=K itself; leave the node label out or rename "
			       "it (e.g. -l host_node=...)",
			    kv_get(&a->labels, "node"));
	if (a->narms == 1)
		return errf(e, "--arm %s: a paired run needs at least 2 arms, e.g. --arm A=true --arm B='sysctl -w ...'",
			    a->arms[0].name);
	if (!a->narms && a->arm_timeout_ns)
		return errf(e, "--arm-timeout limits the commands of a paired run's arms: give the arms (--arm NAME=CMD, "
			       "2 or more) or leave it out");
	if (a->narms && a->order != ORDER_ROUNDS)
		return errf(e, "--arm: a paired run samples the arms round by round; leave --order out (rounds)");
	if (a->narms && a->nodes)
		return errf(e, "--arm and --nodes %s conflict: give one per command", a->nodes);
	if (a->narms && kv_get(&a->labels, "arm"))
		return errf(e, "-l arm=%s: a paired run labels each arm's run arm=NAME itself; leave the arm label out",
			    kv_get(&a->labels, "arm"));
	if (a->narms && (!cli_out_text(&a->out) || a->out.path))
		return errf(e, "--arm makes %zu runs, one per arm, and -o or a format other than text shows one run: "
			       "show the runs afterwards (sysab show RUN --json)",
			    a->narms);
	if (!a->until && (a->max_runs || a->target > 0))
		return errf(e, "%s sizes paired runs that grow: give it with --until decided and the arms (--arm NAME=CMD "
			       "twice), or leave it out",
			    a->max_runs ? "--max-runs" : "--target");
	if (a->until && a->narms != 2)
		return errf(e, "--until decided grows a paired run of 2 arms on this boot: give exactly 2 (--arm A=CMD "
			       "--arm B=CMD), not %zu; compare more arms pairwise",
			    a->narms);
	if (a->until && kv_get(&a->labels, "grow"))
		return errf(e, "-l grow=%s: --until decided labels its runs grow=TAG itself; leave the grow label out",
			    kv_get(&a->labels, "grow"));
	if (a->unixbench && a->runner_only)
		return errf(e, "%s is for sysab's own workloads, and --unixbench runs UnixBench's tests: give their "
			       "copies, passes and tests in the command (./Run -c N -i N TEST...)",
			    a->runner_only);
	return 0;
}

/* --icache-pressure SPEC resolved against CPU 0's caches (SYSAB_CACHE_SYSFS, a test seam,
 * stands for /sys/devices/system/cpu/cpu0/cache) into *p, after checking that every selected
 * workload takes it. Returns 0, or -1 with e naming the spec or the first workload that does
 * not take it. */
static int pressure_of(const struct run_args *a, const struct workload **wl, size_t nwl, struct wl_pressure *p,
		       struct err *e)
{
	for (size_t i = 0; i < nwl; i++)
		if (!wl_pressure_takes(wl[i])) {
			struct sb b = {0};
			for (size_t k = 0; k < wl_count(); k++)
				if (wl_pressure_takes(wl_at(k)))
					sb_addf(&b, "%s%s", b.len ? " " : "", wl_at(k)->name);
			errf(e, "--icache-pressure %s: %s does not take it: its op is not one kernel entry of the timing "
				"process, so a cold cache before it measures nothing the option is for; select workloads "
				"that take it with -w, e.g. -w kernel.syscall.null (they are: %s)",
			     a->pressure, wl[i]->name, sb_str(&b));
			sb_free(&b);
			return -1;
		}
	const char *dir = testhooks()->cache_sysfs;
	struct wl_cache c[16];
	size_t n = wl_caches_read(dir ? dir : "/sys/devices/system/cpu/cpu0/cache", c, 16);
	char why[256];
	if (wl_pressure_plan(a->pressure, c, n, p, why, sizeof why))
		return errf(e, "%s", why);
	return 0;
}

/* SYSAB_TEST_HANG_TIMEOUT, a duration (e.g. 2s), replaces the hang timeout of a batch
 * (200 samples' length + 60 s), so that tests can see a hung or stopped workload within
 * seconds. A test seam, not for users: documented in docs/RELIABILITY.md. */
static int hang_timeout_env(uint64_t *ns, struct err *e)
{
	const char *v = testhooks()->hang_timeout;
	*ns = 0;
	return v ? parse_duration(v, "SYSAB_TEST_HANG_TIMEOUT", ns, e) : 0;
}

/* The runner's options: the profile, what the options override, the copies. */
/* Before the first round of a paired run: one paired run has no interval, so the MDE of the
 * fewest that have one (2 on this boot), from the database's earlier runs of the workloads; of
 * paired runs that grow (grow_max > 0, --until decided), the MDE of their cap and whether it
 * reaches target (a fraction), else the paired runs that would. */
static int paired_mde(struct store *st, const struct workload **wl, size_t nwl, int samples, size_t grow_max,
		      double target, struct err *e)
{
	struct strv names = {0};
	for (size_t i = 0; i < nwl; i++)
		if (!(wl[i]->flags & WL_REFERENCE))
			strv_add(&names, wl[i]->name);
	struct an_mde m;
	struct an_mde_in in = {.boots = grow_max ? grow_max : 2, .runs = 1, .samples = samples > 0 ? (size_t)samples : 0,
			       .alpha = 0.05, .power = 0.8, .paired = true, .target = grow_max ? target : 0,
			       .max_boots = AN_GROW_MAX_RUNS};
	int rc = an_mde_select(st, &names, &in, &m, e);
	strv_free(&names);
	if (rc)
		return -1;
	if (grow_max) /* --until decided: what its cap can resolve */
		printf("--until decided: at most %zu paired runs on this boot, a look after each from the second on\n",
		       grow_max);
	else
		printf("one paired run gives no verdict: compare needs 2 or more on this boot\n");
	report_mde_text(stdout, &m);
	an_mde_free(&m);
	return 0;
}

static struct run_opts run_opts_of(struct run_args *a, const struct workload **wl, size_t nwl)
{
	const struct profile *prof = &profiles[a->quick ? 0 : a->full ? 2 : 1];
	struct run_opts o = {
		.labels = &a->labels,
		.wl = wl,
		.nwl = nwl,
		.profile = prof->name,
		.samples = prof->samples,
		.sample_ns = prof->sample_ms * 1000000ull,
		.warmup_ns = prof->warmup_ms * 1000000ull,
		.slot_budget_ns = prof->budget_ms * 1000000ull,
		.order = a->order,
		.rewarm = true,
		.target_ci = a->target_ci,
		.max_ns = a->max_ns ? a->max_ns : a->target_ci > 0 ? 600000000000ull : 0,
		.cpus = a->ncpus ? a->cpus : NULL,
		.ncpus = a->ncpus,
		.cpus_text = a->cpus_text,
		.counters = a->counters_set ? a->counters : CTR_MODE_ALL,
		.probe_ns = a->no_probe ? 0 : prof->probe_ms * 1000000ull,
		.host_ref = !a->no_host_ref && a->order == ORDER_ROUNDS,
		.hang_ns = a->hang_ns,
		.randomize_env = !a->no_randomize_env,
	};
	if (a->samples) {
		o.samples = a->samples;
		o.slot_budget_ns = 0; /* an explicit count is taken in full */
	}
	if (a->sample_ms)
		o.sample_ns = a->sample_ms * 1000000ull;
	if (a->warmup_set)
		o.warmup_ns = a->warmup_ms * 1000000ull;
	o.seed = a->seed_set ? a->seed : (clock_wall_ns() ^ ((uint64_t)getpid() << 32)) & INT64_MAX;
	if (!a->ncopies) {
		a->copies[a->ncopies++] = 1;
		int ncpu = a->ncpus;
		if (!ncpu) {
			cpu_set_t set;
			ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
		}
		/* like UnixBench: also one copy per CPU; --quick does that for the index only */
		if (ncpu > 1)
			a->copies[a->ncopies++] = ncpu;
		o.multi_index_only = a->quick;
		a->copies_default = true;
	}
	o.copies = a->copies;
	o.ncopies = a->ncopies;
	o.arms = a->narms ? a->arms : NULL;
	o.narms = a->narms;
	o.arm_order = a->arm_order;
	o.arm_timeout_ns = a->arm_timeout_ns;
	if (!a->quiet && isatty(STDERR_FILENO) && !getenv("CI"))
		o.progress = progress_cb;
	return o;
}

/* Print what run run_id stored (also after a failure that left a run), and where. */
static void print_run(const struct cli_cmd *cmd, struct run_args *a, struct store *st, int64_t run_id, bool ok,
		      const char *path)
{
	struct summary sum;
	struct err e;
	if (summary_load(st, run_id, &sum, &e)) { /* the samples are stored: say so, and why nothing is shown */
		fprintf(stderr, "sysab %s: warning: run %lld is stored in %s, but its results cannot be shown: %s\n",
			cmd->name, (long long)run_id, path, e.msg);
		return;
	}
	/* text: the brief on standard output, after the whole run (every number, as `sysab show`
	 * prints it) with -o FILE or -v; another format: the whole run alone */
	bool brief = cli_out_text(&a->out);
	if ((!brief || a->out.path || a->out.verbose) && cli_emit(&a->out, &(struct report_doc){.summary = &sum}, &e))
		cli_fail(cmd, &e);
	else if (brief) {
		struct summary_brief b;
		char prog[256];
		summary_brief_of(&sum, &b);
		if (a->out.verbose && !a->out.path)
			printf("\n");
		report_run_brief_text(stdout, &b, ok ? path : NULL, prog_name(prog, sizeof prog));
		summary_brief_free(&b);
	}
	summary_free(&sum);
}

/* A stop signal arrived while another process held the database's lock, and sysab stopped
 * waiting for it: say what failed, then plainly what is missing from the database. The exit
 * status is still the signal's, 128 + signal. */
static int stopped_unrecorded(const struct cli_cmd *cmd, const struct err *e, const struct run_outcome *res)
{
	cli_fail(cmd, e);
	const char *abbr = sigabbrev_np(res->stop_signal);
	fprintf(stderr, "sysab %s: stopped by SIG%s before everything was recorded", cmd->name, abbr ? abbr : "?");
	if (res->slots_unrecorded)
		fprintf(stderr, "; %d (workload, copies) still sampling could not be marked `stopped` and read `ok`",
			res->slots_unrecorded);
	if (res->end_recorded)
		fprintf(stderr, "; run %lld is recorded as incomplete", (long long)res->run_id);
	else
		fprintf(stderr, "; run %lld could not be marked stopped: it reads `running` until the next sysab "
				"command marks it `interrupted`",
			(long long)res->run_id);
	fprintf(stderr, "; the samples stored before the signal are kept\n");
	return 128 + res->stop_signal;
}

/* A stop signal ended the run, which is recorded as incomplete: one line says so and where
 * to look (what was measured is in the database, not worth a screen of tables now). Returns
 * the exit status, 128 + the signal. */
static int stopped_text(const struct run_outcome *res, size_t narms)
{
	char prog[256];
	const char *abbr = sigabbrev_np(res->stop_signal);
	prog_name(prog, sizeof prog);
	if (res->stop_signal == SIGINT)
		printf("stopped by Ctrl-C; ");
	else
		printf("stopped by SIG%s; ", abbr ? abbr : "?");
	if (narms) { /* each arm's run */
		const char *sep = "runs ";
		for (size_t i = 0; i < narms; i++)
			if (res->arm_run_id[i]) {
				printf("%s%lld", sep, (long long)res->arm_run_id[i]);
				sep = ", ";
			}
		printf(" kept as incomplete (`%s show RUN` shows one)\n", prog);
	} else {
		printf("run %lld kept as incomplete (`%s show %lld`)\n", (long long)res->run_id, prog,
		       (long long)res->run_id);
	}
	return 128 + res->stop_signal;
}

/* `sysab run --unixbench SHELL`: the command in a private result directory, its log stored
 * as a run of this machine, boot and kernel with this run's labels and environment, then
 * shown as a run is. The directory goes in every case. */
static int run_unixbench(const struct cli_cmd *cmd, struct run_args *a, struct store *st, const char *path)
{
	struct err e;
	char *dir = NULL, *ub = NULL;
	int lock = -1;
	struct external_outcome out = {0};
	struct kvlist env = {0};
	struct import_result res = {0};
	int rc;
	env_capture(&env);
	/* UB_RESULTDIR is an empty directory inside the held one, beside its lock (core/tmp.h) */
	if (tmpdir_create_held(&dir, &lock, &e) ||
	    (mkdir(ub = xasprintf("%s/results", dir), 0700) < 0 &&
	     errf(&e, "cannot create %s: %s; set TMPDIR to a writable directory", ub, strerror(errno))) ||
	    external_unixbench(a->unixbench, ub, &out, &e)) {
		rc = cli_fail(cmd, &e);
		if (sig_stop) /* stopped: the signal's status, as a stopped run has */
			rc = 128 + sig_stop;
		goto out;
	}
	char *load = env_loadavg();
	kv_add(&env, "load.after", load);
	free(load);
	kv_sort(&env);
	struct store_host host;
	env_host(&env, &host);
	struct import_opts o = {.labels = &a->labels, .host = &host, .env = &env, .command = a->unixbench,
				.started_ns = out.started_ns, .finished_ns = out.finished_ns};
	const char *base = strrchr(out.log, '/');
	char *name = xasprintf("$UB_RESULTDIR/%s", base ? base + 1 : out.log);
	rc = import_file_store(st, false, out.log, name, &o, &res, &e);
	free(name);
	if (rc) {
		struct err e2;
		errf(&e2, "%s; nothing stored", e.msg);
		rc = cli_fail(cmd, &e2);
		goto out;
	}
	size_t nsum;
	if (runsum_refresh(st, false, res.first_run, &nsum, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	for (size_t i = 0; i < res.unknown.n; i++)
		fprintf(stderr, "sysab %s: UnixBench test '%s' has no sysab equivalent; kept as unixbench.%s\n", cmd->name,
			res.unknown.v[i], res.unknown.v[i]);
	print_run(cmd, a, st, res.first_run, true, path);
	rc = sig_stop ? 128 + sig_stop : EXIT_OK;
out:
	import_result_free(&res);
	external_outcome_free(&out);
	kv_free(&env);
	if (dir)
		tmpdir_remove_held(dir, lock);
	free(ub);
	free(dir);
	return rc;
}

/* What a run of sysab run prints with: the command and its arguments, the database. */
struct run_show {
	const struct cli_cmd *cmd;
	struct run_args *a;
	struct store *st;
	const char *path;
};

/* The run with o that returned r and res (e its error) shown. Returns the command's exit
 * status so far. */
static int run_shown(void *arg, const struct run_opts *o, int r, struct run_outcome *res, struct err *e)
{
	const struct run_show *sh = arg;
	const struct cli_cmd *cmd = sh->cmd;
	struct run_args *a = sh->a;
	struct store *st = sh->st;
	if (res->unsupported) {
		if (cli_out_text(&a->out)) /* under the node's heading */
			printf("unsupported: %s; nothing measured or stored\n", res->why);
		else
			fprintf(stderr, "sysab %s: node %d: unsupported: %s; nothing measured or stored\n", cmd->name,
				o->node->id, res->why);
		return EXIT_OK;
	}
	/* the runner stores the run's summary row as it ends; when it could not, once more (also
	 * after an error of the run: a lock held too long may be free now). A recorded run stays
	 * recorded: without its row analysis reads its samples, and the next writing command (or
	 * check-db --fix) tries again; from the first run on: every arm's of a paired run */
	size_t nsum;
	if (res->summary_lost && !res->stop_cut && runsum_refresh(st, false, res->run_id, &nsum, &res->summary_why) && !r)
		fprintf(stderr,
			"sysab %s: warning: run %lld is recorded, but its summary row could not be written: %s; "
			"analysis reads its samples until the next writing command writes it\n",
			cmd->name, (long long)res->run_id, res->summary_why.msg);
	if (o->progress)
		report_progress_done(stderr);
	if (res->stop_signal && !r && cli_out_text(&a->out) && !a->out.path && res->run_id)
		return stopped_text(res, o->narms);
	if (o->narms)
		for (size_t i = 0; i < o->narms; i++) {
			if (!res->arm_run_id[i])
				continue;
			if (cli_out_text(&a->out))
				printf("%sarm %s:\n", i ? "\n" : "", o->arms[i].name);
			print_run(cmd, a, st, res->arm_run_id[i], !r, sh->path);
		}
	else if (res->run_id)
		print_run(cmd, a, st, res->run_id, !r, sh->path);
	if (r && res->stop_cut)
		return stopped_unrecorded(cmd, e, res);
	return r ? cli_fail(cmd, e) : res->stop_signal ? 128 + res->stop_signal : EXIT_OK;
}

/* One run with o into st, shown. Returns the command's exit status. */
static int run_one(struct run_show *sh, struct run_opts *o)
{
	struct run_outcome res;
	struct err e;
	int r = runner_run(sh->st, o, &res, &e);
	return run_shown(sh, o, r, &res, &e);
}

/* The heading of node nd's run (text output). */
static void node_heading(void *arg, size_t i, const struct node_info *nd)
{
	const struct run_show *sh = arg;
	if (cli_out_text(&sh->a->out))
		printf("%snode %d (CPUs %s):\n", i ? "\n" : "", nd->id, nd->cpulist);
	fflush(stdout);
}

/* `sysab run --nodes SPEC`: one run per selected node (runner_run_nodes), each under its
 * heading; on a machine with one node, --nodes all is one run on it, saying so. */
static int run_nodes(struct run_show *sh, struct run_opts *o)
{
	const struct cli_cmd *cmd = sh->cmd;
	struct run_args *a = sh->a;
	struct run_nodes rn;
	struct err e;
	int rc;
	if (run_nodes_select(a->nodes, &rn, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	const struct node_info *first = &rn.topo.v[rn.sel[0]];
	if (rn.all_is_one) /* --nodes all, one node: its run, and no other */
		fprintf(stderr, "sysab %s: --nodes all: this machine has one NUMA node (node %d, CPUs %s), so this is "
				"one run on it, labelled node=%d, with nothing to compare it with on another node\n",
			cmd->name, first->id, first->cpulist, first->id);
	if (rn.n > 1 && (!cli_out_text(&a->out) || a->out.path)) {
		errf(&e, "--nodes %s makes %zu runs, one per node, and -o or a format other than text shows one run: "
			 "give one node per command, or show the runs afterwards (sysab show RUN --json)",
		     a->nodes, rn.n);
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (rn.topo.n == 1 && strcmp(a->nodes, "all"))
		fprintf(stderr, "sysab %s: note: this machine has one NUMA node; a run on it uses the whole machine and "
				"shows no difference between nodes\n",
			cmd->name);
	rc = runner_run_nodes(sh->st, &rn, o, a->copies_default,
			      &(struct run_node_hooks){.begin = node_heading, .done = run_shown, .arg = sh});
out:
	run_nodes_free(&rn);
	return rc;
}

/* What --allocate decided: the counts the runner takes and their record. */
struct run_alloc {
	struct run_quota *quota;
	size_t n;
	char *json;
};

/* --allocate FROM: allocate o's (workload, copies) from FROM's runs in st, print its record in
 * the run's format, and set o's quota and the record's JSON. Returns 0, or -1 with e set. */
static int allocate(struct run_args *a, struct store *st, struct run_opts *o, struct run_alloc *ra, struct err *e)
{
	memset(ra, 0, sizeof *ra);
	size_t n = runner_jobs(o, &ra->quota);
	ra->n = n;
	struct an_alloc_row *rows = xcalloc(n, sizeof *rows);
	for (size_t i = 0; i < n; i++)
		rows[i] = (struct an_alloc_row){.workload = ra->quota[i].w->name, .copies = ra->quota[i].copies,
						.samples = o->samples};
	struct st_alloc_opts ao = {.n0 = (size_t)o->samples, .floor = AN_ALLOC_FLOOR,
				   .cap = (size_t)o->samples * AN_ALLOC_CAP_TIMES};
	struct an_alloc_job j;
	int rc = an_alloc_job_build(st, a->allocate, rows, n, &ao, &j, e);
	if (!rc) {
		for (size_t i = 0; i < n; i++)
			ra->quota[i].samples = rows[i].samples;
		ra->json = an_alloc_record_json(&j.rec);
		o->quota = ra->quota;
		o->nquota = n;
		o->quota_json = ra->json;
		/* the allocation, in the run's format, on standard output before the run (-o takes the
		 * run's record alone) */
		struct cli_out aout = a->out;
		aout.kind = REPORT_ALLOC;
		aout.path = NULL;
		rc = cli_emit(&aout, &(struct report_doc){.alloc = &j.rec}, e);
		fflush(stdout);
	}
	an_alloc_job_free(&j);
	free(rows);
	return rc;
}

/* A grow's tag: 8 hex digits from the clock and the process, its runs' label grow=TAG. */
static void grow_tag(char out[9])
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t h = 14695981039346656037ull;
	uint64_t v[3] = {(uint64_t)ts.tv_sec, (uint64_t)ts.tv_nsec, (uint64_t)getpid()};
	for (size_t i = 0; i < sizeof v; i++)
		h = (h ^ ((const unsigned char *)v)[i]) * 1099511628211ull;
	snprintf(out, 9, "%08llx", (unsigned long long)(h >> 32));
}

/* `sysab run --arm A=.. --arm B=.. --until decided`: paired runs on this boot, each labelled
 * grow=TAG, with a look after each from the second on (study_grow_look), until the study's rule
 * says decided or the cap; then the last look's comparison and the MDE reached. */
static int run_grow(struct run_show *sh, struct run_opts *o, const struct workload **wl, size_t nwl)
{
	const struct cli_cmd *cmd = sh->cmd;
	struct run_args *a = sh->a;
	char tag[9];
	grow_tag(tag);
	kv_add(&a->labels, "grow", tag);
	struct strv rows = {0};
	for (size_t i = 0; i < nwl; i++)
		if (!(wl[i]->flags & WL_REFERENCE))
			strv_add(&rows, wl[i]->name);
	size_t max = a->max_runs ? a->max_runs : AN_GROW_DEFAULT_RUNS;
	struct study_grow g = {.arm_a = a->arms[0].name, .arm_b = a->arms[1].name, .tag = tag, .patterns = &rows,
			       .max_runs = max, .target = a->target * 100};
	struct an_compare_job j = {0};
	enum study_grow_state state = STUDY_GROW_GO_ON;
	struct err e;
	int rc = EXIT_OK;
	char prog[256];
	prog_name(prog, sizeof prog);
	printf("paired runs that grow: at most %zu, each arm's run labelled grow=%s\n", max, tag);
	size_t pairs = 0;
	while (state == STUDY_GROW_GO_ON) {
		printf("\npaired run %zu:\n", ++pairs);
		fflush(stdout);
		if ((rc = run_one(sh, o)) != EXIT_OK)
			goto out;
		if (pairs < STUDY_GROW_MIN_RUNS)
			continue;
		an_compare_job_free(&j);
		if (study_grow_look(sh->path, &g, pairs - 1, pairs, &j, &state, &e)) {
			rc = cli_fail(cmd, &e);
			goto out;
		}
		printf("look %zu of the grow (%zu paired runs): %s\n", pairs - 1, pairs,
		       state == STUDY_GROW_GO_ON ? "undecided, one more paired run" : study_grow_state_word(state));
	}
	printf("\n");
	struct cli_out out = a->out;
	out.kind = REPORT_COMPARE;
	if (cli_emit(&out, &(struct report_doc){.compare = &j.c, .groups = j.info, .ngroups = 2}, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	char *sa = study_grow_selector(&g, g.arm_a), *sb = study_grow_selector(&g, g.arm_b);
	struct sb w = {0}; /* the look's -w, which its question holds */
	for (size_t i = 0; i < rows.n; i++)
		sb_addf(&w, " -w %s", rows.v[i]);
	if (state == STUDY_GROW_DECIDED)
		printf("\ndecided after %zu paired runs: every chosen workload is faster, slower or equivalent "
		       "(`%s compare '%s' '%s'%s --unit run --max-boots %zu --look %zu` shows this last look again)\n",
		       pairs, prog, sa, sb, sb_str(&w), max, pairs - 1);
	else
		printf("\nstopped at --max-runs %zu: some workload is still undecided; the MDE below is what %zu paired "
		       "runs can resolve (`%s compare '%s' '%s'%s --unit run --max-boots %zu --look %zu` shows this last "
		       "look again)\n",
		       max, pairs, prog, sa, sb, sb_str(&w), max, pairs - 1);
	sb_free(&w);
	struct an_mde m;
	if (study_grow_mde(sh->path, &g, sa, pairs, &m, &e)) {
		rc = cli_fail(cmd, &e);
	} else {
		printf("MDE reached: ");
		report_mde_text(stdout, &m);
		an_mde_free(&m);
	}
	free(sa);
	free(sb);
out:
	an_compare_job_free(&j);
	strv_free(&rows);
	return rc;
}

int cmd_run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct run_alloc ra = {0};
	struct run_args a = {.samples = 0};
	cli_out_init(&a.out, REPORT_RUN, "text");
	struct strv pos = {0};
	struct err e;
	int rc;
	struct store *st = NULL;
	const struct workload **wl = NULL;
	char *path = NULL;
	if ((rc = cli_start(cmd, argc, argv, on_opt, &a, &pos)) >= 0)
		goto out;
	size_t nwl;
	if (check_args(&a, &pos, &e) || hang_timeout_env(&a.hang_ns, &e) || select_workloads(&a, &wl, &nwl, &e) ||
	    cli_out_check(&a.out, &e) || cli_open_db(a.db, STORE_RW, &st, &path, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	if (a.unixbench) {
		sig_install();
		rc = run_unixbench(cmd, &a, st, path);
		goto out;
	}
	struct run_opts o = run_opts_of(&a, wl, nwl);
	struct wl_pressure pressure;
	if (a.pressure) {
		if (pressure_of(&a, wl, nwl, &pressure, &e)) {
			rc = cli_fail(cmd, &e);
			goto out;
		}
		o.pressure = &pressure;
	}
	if (a.allocate && allocate(&a, st, &o, &ra, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	size_t grow_max = !a.until ? 0 : a.max_runs ? a.max_runs : AN_GROW_DEFAULT_RUNS;
	double margin = a.target > 0 ? a.target : stats_compare_defaults().margin;
	if (a.narms >= 2 && !a.quiet && paired_mde(st, wl, nwl, o.samples, grow_max, margin, &e)) {
		rc = cli_fail(cmd, &e);
		goto out;
	}
	sig_install();
	struct run_show sh = {cmd, &a, st, path};
	rc = a.nodes ? run_nodes(&sh, &o) : a.until ? run_grow(&sh, &o, wl, nwl) : run_one(&sh, &o);
out:
	free(ra.quota);
	free(ra.json);
	store_close(st);
	free(path);
	free(wl);
	kv_free(&a.labels);
	for (size_t i = 0; i < a.narms; i++) {
		free((char *)a.arms[i].name);
		kv_free(&a.arm_env[i]);
	}
	strv_free(&a.patterns);
	strv_free(&pos);
	return rc;
}
