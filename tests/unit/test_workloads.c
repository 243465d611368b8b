/* test_workloads.c - every registered workload sets up, runs, passes its self-checks and cleans up. */
#include "unit.h"
#include "core/core.h"
#include "core/tmp.h"
#include "run/env.h"
#include "workloads/util.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Each workload runs in doubling batches until this much time has passed and
 * it has done MIN_OPS ops (so start-up effects do not dominate the per-op
 * checks), or until MAX_NS has passed (for slow ops such as exec). */
#define TARGET_NS (4 * 1000 * 1000ull)
#define MAX_NS (60 * 1000 * 1000ull)
#define MIN_OPS 200

static bool name_is_wellformed(const char *name)
{
	/* group "." then one or more lower-case words joined by '.' or '-' */
	if (!*name || *name == '.' || *name == '-')
		return false;
	int dots = 0;
	char prev = '.';
	for (const char *p = name; *p; p++) {
		char c = *p;
		bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!word && c != '.' && c != '-')
			return false;
		if (!word && (prev == '.' || prev == '-'))
			return false;
		dots += c == '.';
		prev = c;
	}
	return dots >= 1 && prev != '.' && prev != '-';
}

static void registry_is_consistent(void **state)
{
	(void)state;
	assert_true(wl_count() > 0);
	for (size_t i = 0; i < wl_count(); i++) {
		const struct workload *w = wl_at(i);
		assert_non_null(w->name);
		assert_true(name_is_wellformed(w->name));
		assert_non_null(w->group);
		size_t gl = strlen(w->group);
		assert_true(strncmp(w->name, w->group, gl) == 0 && w->name[gl] == '.');
		assert_true(w->summary && *w->summary);
		assert_true(w->kernel_path && *w->kernel_path);
		assert_true(w->unit && *w->unit);
		assert_non_null(w->run);
		assert_true(w->baseline >= 0);
		if (w->baseline > 0) {
			assert_true(w->flags & WL_INDEX);
			assert_non_null(w->unixbench);
		}
		/* every workload has a check that fails when it measures the wrong thing */
		assert_int_not_equal(w->checks[0].metric, WL_M_NONE);
		for (int c = 0; c < WL_MAX_CHECKS; c++) {
			const struct wl_check *k = &w->checks[c];
			if (k->metric == WL_M_NONE)
				continue;
			assert_true(k->name && *k->name);
			assert_true(k->lo <= k->hi);
		}
		for (size_t j = i + 1; j < wl_count(); j++)
			assert_string_not_equal(w->name, wl_at(j)->name);
		assert_ptr_equal(wl_find(w->name), w);
	}
}

static void check_eval_divides_by_ops(void **state)
{
	(void)state;
	const struct workload w = {
		.name = "t.t",
		.checks = {{"faults", WL_M_MINFLT, 0.9, 1.1}, {"count", WL_M_COUNT1, 2, 2}},
	};
	struct wl_usage u = {.minflt = 95};
	uint64_t count[2] = {0, 300};
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	assert_int_equal(wl_check_eval(&w, NULL, &u, count, 100, v, ok), 1);
	assert_float_equal(v[0], 0.95, 1e-12);
	assert_true(ok[0]);
	assert_float_equal(v[1], 3.0, 1e-12);
	assert_false(ok[1]);
	assert_true(ok[2]);
	count[1] = 200;
	assert_int_equal(wl_check_eval(&w, NULL, &u, count, 100, v, ok), 0);
	assert_int_equal(wl_check_eval(&w, NULL, &u, count, 0, v, ok), -1);
}

/* The switches of both sides of a ping-pong: this process's voluntary and involuntary ones
 * plus count[1], the other process's, kept by the workload (unixbench.context1). */
static void check_eval_adds_own_switches_to_count1(void **state)
{
	(void)state;
	const struct workload w = {.name = "t.t", .checks = {{"switches", WL_M_CSW_COUNT1, 1.5, 6}}};
	struct wl_usage u = {.nvcsw = 80, .nivcsw = 7};
	uint64_t count[2] = {0, 100};
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	assert_int_equal(wl_check_eval(&w, NULL, &u, count, 100, v, ok), 0);
	assert_float_equal(v[0], 1.87, 1e-12);
	count[1] = 50; /* the peer stopped blocking in half of the round trips */
	assert_int_equal(wl_check_eval(&w, NULL, &u, count, 100, v, ok), 1);
	assert_float_equal(v[0], 1.37, 1e-12);
}

/* Under a user-mode emulator a batch with extra minor faults (the emulator's own) does not
 * fail the check on its own, one with too few still does, and the run's total is judged
 * as everywhere. Natively the same batch fails. */
static void emulated_batches_fail_minflt_only_below(void **state)
{
	(void)state;
	const struct workload w = {.name = "t.t", .checks = {{"faults", WL_M_MINFLT, 0.9, 1.1}}};
	uint64_t count[2] = {0, 0};
	struct wl_usage high = {.minflt = 150}, low = {.minflt = 50}, total = {.minflt = 1010};
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	for (int emulated = 0; emulated <= 1; emulated++) {
		struct wl_ctx ctx = {.emulated = emulated};
		struct wl_check_tally t = {0};
		wl_check_tally_add(&w, &ctx, &high, count, 100, &t); /* 1.5 per op in this batch */
		assert_int_equal(t.batches, 1);
		assert_int_equal(t.failed[0], emulated ? 0 : 1);
		assert_int_equal(wl_check_judge(&w, &ctx, &total, count, 1000, &t, v, ok), emulated ? 0 : 1);
		wl_check_tally_add(&w, &ctx, &low, count, 100, &t); /* 0.5: faults went missing */
		assert_int_equal(t.failed[0], emulated ? 1 : 2);
		assert_int_equal(wl_check_judge(&w, &ctx, &total, count, 1000, &t, v, ok), 1);
		struct wl_check_tally none = {0};
		struct wl_usage over = {.minflt = 1500};
		assert_int_equal(wl_check_judge(&w, &ctx, &over, count, 1000, &none, v, ok), 1);
	}
}

/* Each copy gets its own two CPUs, disjoint from every other copy's: copy i sees the run's
 * CPUs rotated by i (as the slot gives them) and takes the run's 2i and 2i+1. More copies
 * than pairs are refused. */
static void cpu_pairs_are_disjoint(void **state)
{
	(void)state;
	const int run[] = {4, 5, 6, 7, 8};
	for (int ncpus = 1; ncpus <= 5; ncpus++)
		for (int copies = 1; copies <= 3; copies++) {
			bool used[9] = {false};
			for (int copy = 0; copy < copies; copy++) {
				int cpus[5], a = -1, b = -1;
				for (int i = 0; i < ncpus; i++)
					cpus[i] = run[(i + copy) % ncpus];
				struct wl_ctx ctx = {.copy = copy, .ncopies = copies, .ncpus = ncpus, .cpus = cpus};
				int rc = wl_cpu_pair(&ctx, &a, &b);
				if (2 * copies > ncpus) {
					assert_int_equal(rc, -1);
					continue;
				}
				assert_int_equal(rc, 0);
				assert_int_equal(a, run[2 * copy]);
				assert_int_equal(b, run[2 * copy + 1]);
				assert_false(used[a] || used[b]);
				used[a] = used[b] = true;
			}
		}
}

/* A per-second check divides by the time inside run(), not by ops: membarrier's spinner
 * may take at most 20 involuntary switches a second. A check the workload said it cannot
 * make here fails nothing, whatever its count. */
static void check_eval_rates_per_second(void **state)
{
	(void)state;
	const struct workload *w = wl_find("kernel.ipi.membarrier");
	assert_int_equal(w->checks[1].metric, WL_M_COUNT1_PER_S);
	struct wl_usage u = {.run_ns = 500000000ull}; /* half a second in run() */
	uint64_t count[2] = {1000, 9}; /* 1000 barriers with one IPI each; 9 switches: 18/s */
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	assert_int_equal(wl_check_eval(w, NULL, &u, count, 1000, v, ok), 0);
	assert_float_equal(v[0], 1.0, 1e-12);
	assert_float_equal(v[1], 18.0, 1e-12);
	assert_true(ok[1]);
	count[1] = 11; /* 22/s: another task took the spinner's CPU */
	assert_int_equal(wl_check_eval(w, NULL, &u, count, 1000, v, ok), 1);
	assert_float_equal(v[1], 22.0, 1e-12);
	assert_false(ok[1]);
	count[1] = 11;
	u.run_ns = 2000000000ull; /* the same 11 over 2 s: 5.5/s */
	assert_int_equal(wl_check_eval(w, NULL, &u, count, 1000, v, ok), 0);
	assert_float_equal(v[1], 5.5, 1e-12);
	struct wl_ctx ctx = {0};
	count[0] = 35; /* 0.035 IPIs per barrier fails, unless the IPIs cannot be counted */
	assert_int_equal(wl_check_eval(w, &ctx, &u, count, 1000, v, ok), 1);
	assert_false(ok[0]);
	wl_cannot_check(&ctx, 0, "%s is missing", "/proc/interrupts");
	assert_string_equal(ctx.cannot_check[0], "cannot check: /proc/interrupts is missing");
	assert_int_equal(wl_check_eval(w, &ctx, &u, count, 1000, v, ok), 0);
	assert_true(ok[0]);
	assert_float_equal(v[0], 0, 0);
}

static void ipi_count_reads_the_function_call_line(void **state)
{
	(void)state;
	static const char x86[] = "           CPU0       CPU2\n"
				  "  0:         41          0   IO-APIC    2-edge      timer\n"
				  "LOC:      81847      95887   Local timer interrupts\n"
				  "CAL:      78018      78556   Function call interrupts\n";
	static const char arm64[] = "           CPU0       CPU1       CPU2\n"
				    "IPI0:        10         20         30       Rescheduling interrupts\n"
				    "IPI1:       111        222        333       Function call interrupts\n";
	uint64_t v = 0;
	FILE *f = fmemopen((void *)x86, sizeof x86 - 1, "r");
	assert_int_equal(wl_ipi_count_from(f, 2, &v), 0);
	assert_int_equal(v, 78556);
	rewind(f);
	assert_int_equal(wl_ipi_count_from(f, 1, &v), -1); /* CPU1 is offline: no column */
	fclose(f);
	f = fmemopen((void *)arm64, sizeof arm64 - 1, "r");
	assert_int_equal(wl_ipi_count_from(f, 2, &v), 0);
	assert_int_equal(v, 333);
	fclose(f);
	static const char none[] = "           CPU0\n  0:   41  IO-APIC timer\n";
	f = fmemopen((void *)none, sizeof none - 1, "r");
	assert_int_equal(wl_ipi_count_from(f, 0, &v), -1);
	fclose(f);
}

static int online_cpus(int *cpus)
{
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	int n = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[n++] = c;
	return n;
}

/* Without a readable /proc/interrupts membarrier still runs: its IPI check says "cannot
 * check" and names the file, and its switch check is still made. */
static void membarrier_without_interrupts_cannot_check(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const struct wl_mb_param missing = {.interrupts = "/nonexistent/interrupts"};
	struct workload w = *wl_find("kernel.ipi.membarrier");
	w.param = &missing;
	struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
			     .param = &missing};
	int rc = wl_enter(&w, &ctx);
	if (rc == WL_UNSUPPORTED) {
		print_message("[   SKIP   ] %s\n", ctx.why);
		skip();
	}
	assert_int_equal(rc, 0);
	print_message("[   INFO   ] %s\n", ctx.cannot_check[0]);
	assert_non_null(strstr(ctx.cannot_check[0], "cannot check: /nonexistent/interrupts"));
	assert_string_equal(ctx.cannot_check[1], "");
	struct wl_usage total = {0};
	uint64_t count[2] = {0, 0}, t0, t1;
	assert_int_equal(wl_batch(&w, &ctx, 100, NULL, NULL, &t0, &t1, true, &total, count), 0);
	wl_leave(&w, &ctx);
	assert_int_equal(count[0], 0);
	assert_true(total.run_ns > 0);
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	wl_check_eval(&w, &ctx, &total, count, 100, v, ok);
	assert_true(ok[0]);
}

/* Under an emulator the switch checks of the ping-pongs between processes on two CPUs
 * (kernel.ctx.pipe-cross's two, unixbench.context1's one: unpinned, it may run on two) are
 * not judged (a race between two emulated code paths decides them), their answers still
 * are; natively all are. Usage as a round trip that never blocked would leave it: the
 * switch checks fail natively only. */
static void pipe_cross_emulated_leaves_switches_unjudged(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const struct {
		const char *name;
		int nswitch; /* its switch checks: 1 .. nswitch */
	} pp[] = {{"kernel.ctx.pipe-cross", 2}, {"unixbench.context1", 1}};
	for (size_t i = 0; i < sizeof pp / sizeof pp[0]; i++) {
		const struct workload *w = wl_find(pp[i].name);
		assert_non_null(w);
		for (int emulated = 0; emulated <= 1; emulated++) {
			struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
					     .emulated = emulated};
			int rc = wl_enter(w, &ctx);
			if (rc == WL_UNSUPPORTED) {
				print_message("[   SKIP   ] %s: %s\n", pp[i].name, ctx.why);
				continue;
			}
			assert_int_equal(rc, 0);
			wl_leave(w, &ctx);
			assert_string_equal(ctx.cannot_check[0], "");
			for (int c = 1; c <= pp[i].nswitch; c++)
				if (emulated)
					assert_non_null(strstr(ctx.cannot_check[c], "cannot check: under a user-mode emulator"));
				else
					assert_string_equal(ctx.cannot_check[c], "");
			struct wl_usage never_blocked = {.nvcsw = 0, .run_ns = 1000000};
			uint64_t count[2] = {100, 0};
			double v[WL_MAX_CHECKS];
			bool ok[WL_MAX_CHECKS];
			assert_int_equal(wl_check_eval(w, &ctx, &never_blocked, count, 100, v, ok),
					 emulated ? 0 : pp[i].nswitch);
			assert_true(ok[0]);
			count[0] = 99; /* one wrong answer fails either way */
			assert_int_equal(wl_check_eval(w, &ctx, &never_blocked, count, 100, v, ok),
					 emulated ? 1 : 1 + pp[i].nswitch);
		}
	}
}

/* Run w with a CPU hog pinned to cpus[hog_cpu] for about 300 ms; each of its needs_idle
 * checks must fail. */
static void hogged_check_fails(const char *name, int hog_cpu, uint64_t batch)
{
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	if (ncpus < hog_cpu + 1) {
		print_message("[   SKIP   ] %s: needs %d CPUs\n", name, hog_cpu + 1);
		return;
	}
	const struct workload *w = wl_find(name);
	assert_non_null(w);
	struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus};
	int rc = wl_enter(w, &ctx);
	if (rc == WL_UNSUPPORTED) {
		print_message("[   SKIP   ] %s: %s\n", name, ctx.why);
		return;
	}
	assert_int_equal(rc, 0);
	pid_t hog = fork();
	assert_true(hog >= 0);
	if (hog == 0) {
		wl_pin_self(cpus[hog_cpu]);
		for (;;)
			;
	}
	struct wl_usage total = {0};
	uint64_t count[2] = {0, 0}, ops = 0, t0, t1, start = clock_raw_ns();
	while (!rc && clock_raw_ns() - start < 300000000ull) {
		rc = wl_batch(w, &ctx, batch, NULL, NULL, &t0, &t1, true, &total, count);
		ops += batch;
	}
	kill(hog, SIGKILL);
	waitpid(hog, NULL, 0);
	wl_leave(w, &ctx);
	assert_int_equal(rc, 0);
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	wl_check_eval(w, &ctx, &total, count, ops, v, ok);
	int idle_checks = 0;
	for (int c = 0; c < WL_MAX_CHECKS; c++) {
		if (w->checks[c].metric == WL_M_NONE || !w->checks[c].needs_idle)
			continue;
		idle_checks++;
		print_message("[   INFO   ] %s with a hog on CPU %d: %s %.4g [%g, %g]\n", name, cpus[hog_cpu],
			      w->checks[c].name, v[c], w->checks[c].lo, w->checks[c].hi);
		assert_false(ok[c]);
	}
	assert_true(idle_checks > 0);
}

/* With a hog on the pinned CPU, a pinned workload (proc.fork) still keeps its placement.
 * Behaviour, not speed: every check must still pass. */
static void hog_keeps_placement(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	/* unixbench.spawn and context1 are not pinned: UnixBench leaves its processes to the
	 * scheduler, and they must be UnixBench's op */
	assert_false(wl_find("unixbench.spawn")->flags & WL_PIN);
	assert_false(wl_find("unixbench.context1")->flags & WL_PIN);
	const char *names[] = {"kernel.proc.fork"};
	for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
		const struct workload *w = wl_find(names[k]);
		assert_true(w->flags & WL_PIN);
		struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus};
		pid_t hog = fork();
		assert_true(hog >= 0);
		if (hog == 0) {
			wl_pin_self(cpus[0]);
			for (;;)
				;
		}
		int rc = wl_enter(w, &ctx);
		struct wl_usage total = {0};
		uint64_t count[2] = {0, 0}, ops = 0, t0, t1, start = clock_raw_ns();
		while (!rc && (ops < 50 || clock_raw_ns() - start < 100000000ull) && clock_raw_ns() - start < 2000000000ull) {
			rc = wl_batch(w, &ctx, 10, NULL, NULL, &t0, &t1, true, &total, count);
			ops += 10;
		}
		if (rc == 0)
			wl_leave(w, &ctx);
		kill(hog, SIGKILL);
		waitpid(hog, NULL, 0);
		assert_int_equal(rc, 0);
		double v[WL_MAX_CHECKS];
		bool ok[WL_MAX_CHECKS];
		int failed = wl_check_eval(w, &ctx, &total, count, ops, v, ok);
		print_message("[   INFO   ] %s with a hog on its CPU: %llu ops, %s %.4g\n", names[k], (unsigned long long)ops,
			      w->checks[0].name, v[0]);
		assert_int_equal(failed, 0);
	}
}

/* A CPU hog on the partner's CPU: membarrier then often finds the spinner off its CPU
 * and sends it no IPI, which used to read as a 16x speed-up; tlb.shootdown's sibling loses
 * its CPU the same way. A hog on sched.yield's CPU
 * turns every yield into a switch (300x slower). Their checks must fail. */
static void load_fails_the_idle_checks(void **state)
{
	(void)state;
	hogged_check_fails("kernel.ipi.membarrier", 1, 2000);
	hogged_check_fails("kernel.sched.yield", 0, 2000);
	/* the sibling's switches everywhere, and on x86 its IPIs (x86 flushes remote TLBs by IPI) */
	hogged_check_fails("kernel.tlb.shootdown", 1, 500);
}

/* execl forks its chain's process in prepare (untimed) and reaps it in finish: run only
 * releases it and waits for the last exec's byte, so no fork or wait is timed and the
 * cost per exec cannot depend on n. */
static void execl_forks_and_reaps_outside_run(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	char exe[PATH_MAX];
	const char *bin = getenv("SYSAB"); /* the binary under test (cross runs); else the native build */
	assert_non_null(realpath(bin && *bin ? bin : "build/sysab", exe));
	const struct workload *w = wl_find("unixbench.execl");
	struct wl_ctx ctx = {.ncopies = 1, .self_exe = exe, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus};
	assert_int_equal(wl_enter(w, &ctx), 0);
	for (uint64_t n = 1; n <= 5; n += 2) {
		uint64_t before = ctx.count[0];
		assert_int_equal(w->prepare(&ctx, n), 0);
		assert_int_equal(waitpid(-1, NULL, WNOHANG), 0); /* a child waits to be released */
		assert_int_equal(w->run(&ctx, n), 0);
		assert_int_equal(ctx.count[0] - before, n);
		assert_int_equal(w->finish(&ctx, n), 0);
		errno = 0;
		assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* reaped */
		assert_int_equal(errno, ECHILD);
	}
	assert_int_equal(w->prepare(&ctx, 4), 0); /* a batch abandoned after prepare */
	wl_leave(w, &ctx);
	errno = 0;
	assert_int_equal(waitpid(-1, NULL, WNOHANG), -1);
	/* the chain's image refuses a malformed descriptor */
	char helper[PATH_MAX + 32];
	snprintf(helper, sizeof helper, "%s", exe);
	snprintf(strrchr(helper, '/') + 1, 32, "sysab-execl-helper");
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(helper, helper, "0", "x", (char *)NULL);
		_exit(127);
	}
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 2);
}

/* execl's image must be dynamic (UnixBench's execl runs the dynamic loader each exec) and
 * proc.exec's static: each refuses the other's helper, saying why. */
static void helpers_are_linked_as_their_op_needs(void **state)
{
	(void)state;
	char exe[PATH_MAX];
	const char *bin = getenv("SYSAB");
	assert_non_null(realpath(bin && *bin ? bin : "build/sysab", exe));
	struct wl_ctx ctx = {.self_exe = exe};
	char *path = (char *)1;
	assert_int_equal(wl_helper_find(&ctx, "sysab-execl-helper", true, &path), 0);
	assert_non_null(strstr(path, "/sysab-execl-helper"));
	free(path);
	assert_int_equal(wl_helper_find(&ctx, "sysab-execl-helper", false, &path), WL_UNSUPPORTED);
	assert_null(path);
	assert_non_null(strstr(ctx.why, "dynamically linked"));
	assert_int_equal(wl_helper_find(&ctx, "sysab-no-such-helper", true, &path), WL_UNSUPPORTED);
	assert_non_null(strstr(ctx.why, "helper not found at "));
}

/* With the clock read through the syscall (what a clocksource without vDSO support
 * does), the workload must still run and its no-syscall check must fail. */
static void vdso_fallback_fails_its_check(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const struct wl_vdso_param sim = {.simulate_fallback = true};
	struct workload w = *wl_find("kernel.vdso.clock");
	w.param = &sim;
	struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus, .param = &sim};
	int rc = wl_enter(&w, &ctx);
	if (rc == WL_UNSUPPORTED) {
		print_message("[   SKIP   ] %s\n", ctx.why);
		skip();
	}
	assert_int_equal(rc, 0);
	struct wl_usage total = {0};
	uint64_t count[2] = {0, 0}, t0, t1;
	assert_int_equal(wl_batch(&w, &ctx, 1000, NULL, NULL, &t0, &t1, true, &total, count), 0);
	wl_leave(&w, &ctx);
	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	assert_int_equal(wl_check_eval(&w, &ctx, &total, count, 1000, v, ok), 1);
	assert_true(ok[0]);
	assert_false(ok[1]);
}

/* Each workload that honours ctx->omit (a seam for this test) leaves out what one op exists
 * to exercise: the trap, the emulation, the walk over distinct pages, a right answer. Its
 * checks must then fail: a check that passes without them proves nothing. (Run normally,
 * the same workloads pass their checks in workload_runs_and_checks.) */
static void omitted_op_fails_its_check(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const char *const names[] = {"kernel.trap.break", "kernel.trap.undef", "kernel.trap.emul",
					    "kernel.syscall.mix", "kernel.itlb.null", "kernel.itlb.control"};
	int judged = 0;
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const struct workload *w = wl_find(names[i]);
		assert_non_null(w);
		struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
				     .param = w->param, .omit = true};
		int rc = wl_enter(w, &ctx);
		if (rc == WL_UNSUPPORTED) {
			print_message("[   SKIP   ] %s: %s\n", w->name, ctx.why);
			continue;
		}
		assert_int_equal(rc, 0);
		struct wl_usage total = {0};
		uint64_t count[2] = {0, 0}, t0, t1;
		assert_int_equal(wl_batch(w, &ctx, 50, NULL, NULL, &t0, &t1, true, &total, count), 0);
		wl_leave(w, &ctx);
		double v[WL_MAX_CHECKS];
		bool ok[WL_MAX_CHECKS];
		int failed = wl_check_eval(w, &ctx, &total, count, 50, v, ok);
		print_message("[   INFO   ] %s without its op: %s %g\n", w->name, w->checks[0].name, v[0]);
		if (failed < 1)
			fail_msg("%s: every check passed with its op left out", w->name);
		assert_false(ok[0]);
		judged++;
	}
	assert_true(judged >= 4); /* trap.emul needs UMIP (x86_64) or ID register emulation (arm64) */
}

/* walk-huge reports "no huge pages" when THP is [never] or when smaps shows the buffer
 * was not given huge pages (both simulated through its param). */
static void walk_huge_without_huge_pages_is_unsupported(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const struct wl_tlb_param never = {.thp_enabled = "always madvise [never]\n", .anon_huge_kb = -1};
	static const struct wl_tlb_param none = {.thp_enabled = "always [madvise] never\n", .anon_huge_kb = 0};
	const struct wl_tlb_param *cases[] = {&never, &none};
	for (int i = 0; i < 2; i++) {
		struct workload w = *wl_find("kernel.tlb.walk-huge");
		w.param = cases[i];
		struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
				     .param = cases[i]};
		assert_int_equal(wl_enter(&w, &ctx), WL_UNSUPPORTED);
		print_message("[   INFO   ] %s\n", ctx.why);
		assert_non_null(strstr(ctx.why, "no huge pages"));
	}
}

/* fault.zero probes for the zero page before it runs: where reading fresh pages adds
 * resident pages (no zero page), it is unsupported and says so; where it adds none, it
 * enters. Both answers go through its param, so both paths run on every kernel. */
static void zero_page_probe_decides(void **state)
{
	(void)state;
	static int cpus[CPU_SETSIZE];
	int ncpus = online_cpus(cpus);
	static const struct wl_zero_param none = {.probe_added = WL_ZERO_PROBE_PAGES + 1};
	static const struct wl_zero_param zero = {.probe_added = 0};
	struct workload w = *wl_find("kernel.fault.zero");
	w.param = &none;
	struct wl_ctx ctx = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
			     .param = &none};
	assert_int_equal(wl_enter(&w, &ctx), WL_UNSUPPORTED);
	print_message("[   INFO   ] %s\n", ctx.why);
	assert_non_null(strstr(ctx.why, "read faults allocate pages on this kernel: no zero page"));
	w.param = &zero;
	struct wl_ctx ok = {.ncopies = 1, .page_size = sysconf(_SC_PAGESIZE), .ncpus = ncpus, .cpus = cpus,
			    .param = &zero};
	assert_int_equal(wl_enter(&w, &ok), 0);
	wl_leave(&w, &ok);
}

static bool dir_is_empty(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return false;
	struct dirent *de;
	bool empty = true;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			empty = false;
	closedir(d);
	return empty;
}

static void workload_runs_and_checks(void **state)
{
	const struct workload *w = *state;
	static int cpus[CPU_SETSIZE];
	cpu_set_t set;
	assert_int_equal(sched_getaffinity(0, sizeof set, &set), 0);
	int ncpus = 0;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &set))
			cpus[ncpus++] = c;

	char exe[PATH_MAX];
	/* the sysab built with this test ($SYSAB; cross builds live in build/<triplet>/),
	 * else build/sysab from the repository root */
	const char *bin = getenv("SYSAB");
	assert_non_null(realpath(bin && *bin ? bin : "build/sysab", exe));
	char *tmp;
	struct err e;
	assert_int_equal(tmpdir_create(&tmp, &e), 0);
	char why[256];
	bool emulated = env_emulated(why, sizeof why);

	struct wl_ctx ctx = {
		.copy = 0,
		.ncopies = 1,
		.tmpdir = tmp,
		.self_exe = exe,
		.page_size = sysconf(_SC_PAGESIZE),
		.ncpus = ncpus,
		.cpus = cpus,
		.emulated = emulated,
		.param = w->param,
	};
	int rc = wl_enter(w, &ctx);
	if (rc == WL_UNSUPPORTED || rc == WL_NORESOURCE) {
		print_message("[   SKIP   ] %s: %s: %s\n", w->name, rc == WL_UNSUPPORTED ? "unsupported" : "no resource",
			      ctx.why);
		assert_true(dir_is_empty(tmp));
		tmpdir_remove(tmp);
		free(tmp);
		skip();
	}
	if (rc != 0)
		fail_msg("%s: setup failed: %s", w->name, ctx.why);

	/* Under qemu-user the emulator translates the workload's code on its first call, and
	 * its faults land in this process: the first judged batch is left out there, usage,
	 * counts and ops alike. (Only its usage was, with its ops counted: on a loaded machine
	 * whose 1-op batch of kernel.tlb.shootdown took 122 ms, past MAX_NS, that batch was
	 * the only one, and 0 minor faults per op failed the check.) */
	struct wl_usage total = {0};
	uint64_t count[2] = {0, 0};
	uint64_t ops = 0, n = 1, start = clock_raw_ns(), t0, t1;
	bool left_out = false;
	/* One batch first that is not judged, as the runner's calibration is not: the
	 * workload's own first touches (its helper threads' stacks) land there. Judged, they
	 * failed kernel.fault.threads' check on a loaded machine whose first batch of 1 op took
	 * 590 ms, so that no second batch was taken. */
	rc = wl_batch(w, &ctx, 1, NULL, NULL, &t0, &t1, false, &total, count);
	do {
		if (rc != 0)
			break;
		rc = wl_batch(w, &ctx, n, NULL, NULL, &t0, &t1, true, &total, count);
		if (rc != 0)
			break;
		if (emulated && !left_out) {
			memset(&total, 0, sizeof total);
			count[0] = count[1] = 0;
			left_out = true;
			continue;
		}
		ops += n;
		n *= 2;
		if (w->max_batch && n > w->max_batch(ctx.page_size))
			n = w->max_batch(ctx.page_size);
		uint64_t t = clock_raw_ns() - start;
		if (t >= MAX_NS || (t >= TARGET_NS && ops >= MIN_OPS))
			break;
	} while (true);
	uint64_t elapsed = clock_raw_ns() - start;
	wl_leave(w, &ctx);
	if (rc != 0)
		fail_msg("%s: run failed: %s", w->name, ctx.why);

	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	int failed = wl_check_eval(w, &ctx, &total, count, ops, v, ok);
	/* a check that detects other load on the CPUs cannot be asserted on a shared machine;
	 * it is printed, and load_fails_the_idle_checks asserts that it can fail */
	for (int c = 0; c < WL_MAX_CHECKS; c++)
		if (w->checks[c].metric != WL_M_NONE && w->checks[c].needs_idle && !ok[c])
			failed--;
	char line[1024];
	int len = snprintf(line, sizeof line, "%s: %llu ops, %.0f ns/op", w->name, (unsigned long long)ops,
			   (double)elapsed / (double)ops);
	for (int c = 0; c < WL_MAX_CHECKS; c++)
		if (w->checks[c].metric != WL_M_NONE && len < (int)sizeof line && ctx.cannot_check[c][0])
			len += snprintf(line + len, sizeof line - (size_t)len, "; %s not judged (%s)", w->checks[c].name,
					ctx.cannot_check[c]);
		else if (w->checks[c].metric != WL_M_NONE && len < (int)sizeof line)
			len += snprintf(line + len, sizeof line - (size_t)len, "; %s %.4g [%g, %g]%s", w->checks[c].name,
					v[c], w->checks[c].lo, w->checks[c].hi, ok[c] ? "" : " FAILED");
	print_message("[   INFO   ] %s\n", line);

	errno = 0;
	pid_t left = waitpid(-1, NULL, WNOHANG);
	assert_int_equal(left, -1);
	assert_int_equal(errno, ECHILD);
	assert_true(dir_is_empty(tmp));
	assert_int_equal(tmpdir_remove(tmp), 0);
	free(tmp);
	assert_int_equal(failed, 0);
}

int main(void)
{
	size_t n = wl_count();
	struct CMUnitTest *tests = xcalloc(n + 17, sizeof *tests);
	tests[0] = (struct CMUnitTest)cmocka_unit_test(registry_is_consistent);
	tests[1] = (struct CMUnitTest)cmocka_unit_test(check_eval_divides_by_ops);
	tests[2] = (struct CMUnitTest)cmocka_unit_test(ipi_count_reads_the_function_call_line);
	tests[3] = (struct CMUnitTest)cmocka_unit_test(load_fails_the_idle_checks);
	const char *only = getenv("SYSAB_TEST_WORKLOADS"); /* optional glob, for debugging */
	tests[4] = (struct CMUnitTest)cmocka_unit_test(execl_forks_and_reaps_outside_run);
	tests[5] = (struct CMUnitTest)cmocka_unit_test(vdso_fallback_fails_its_check);
	tests[6] = (struct CMUnitTest)cmocka_unit_test(walk_huge_without_huge_pages_is_unsupported);
	tests[7] = (struct CMUnitTest)cmocka_unit_test(hog_keeps_placement);
	tests[8] = (struct CMUnitTest)cmocka_unit_test(check_eval_rates_per_second);
	tests[9] = (struct CMUnitTest)cmocka_unit_test(membarrier_without_interrupts_cannot_check);
	tests[10] = (struct CMUnitTest)cmocka_unit_test(cpu_pairs_are_disjoint);
	tests[11] = (struct CMUnitTest)cmocka_unit_test(omitted_op_fails_its_check);
	tests[12] = (struct CMUnitTest)cmocka_unit_test(pipe_cross_emulated_leaves_switches_unjudged);
	tests[13] = (struct CMUnitTest)cmocka_unit_test(emulated_batches_fail_minflt_only_below);
	tests[14] = (struct CMUnitTest)cmocka_unit_test(zero_page_probe_decides);
	tests[15] = (struct CMUnitTest)cmocka_unit_test(helpers_are_linked_as_their_op_needs);
	tests[16] = (struct CMUnitTest)cmocka_unit_test(check_eval_adds_own_switches_to_count1);
	size_t k = 17;
	for (size_t i = 0; i < n; i++) {
		const struct workload *w = wl_at(i);
		if (only && !wl_matches(w, only))
			continue;
		tests[k++] = (struct CMUnitTest){w->name, workload_runs_and_checks, NULL, NULL, (void *)w};
	}
	int rc = _cmocka_run_group_tests("workloads", tests, k, NULL, NULL);
	free(tests);
	return rc;
}
