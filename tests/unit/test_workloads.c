/* test_workloads.c - every registered workload sets up, runs, passes its self-checks and cleans up. */
#include "unit.h"
#include "core/core.h"
#include "core/tmp.h"
#include "run/env.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <sched.h>
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
	assert_int_equal(wl_check_eval(&w, &u, count, 100, v, ok), 1);
	assert_float_equal(v[0], 0.95, 1e-12);
	assert_true(ok[0]);
	assert_float_equal(v[1], 3.0, 1e-12);
	assert_false(ok[1]);
	assert_true(ok[2]);
	count[1] = 200;
	assert_int_equal(wl_check_eval(&w, &u, count, 100, v, ok), 0);
	assert_int_equal(wl_check_eval(&w, &u, count, 0, v, ok), -1);
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

	struct wl_ctx ctx = {
		.copy = 0,
		.ncopies = 1,
		.tmpdir = tmp,
		.self_exe = exe,
		.page_size = sysconf(_SC_PAGESIZE),
		.ncpus = ncpus,
		.cpus = cpus,
	};
	int rc = w->setup ? w->setup(&ctx) : 0;
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
	 * its faults land in this process: the first call's usage is left out there (its ops
	 * still count, as the workload's own counters include them). */
	char why[256];
	bool emulated = env_emulated(why, sizeof why);
	struct wl_usage total = {0}, before, after;
	uint64_t ops = 0, n = 1, start = clock_raw_ns();
	do {
		wl_usage_now(&before);
		rc = w->run(&ctx, n);
		wl_usage_now(&after);
		if (rc != 0)
			break;
		if (!(emulated && ops == 0))
			wl_usage_add_delta(&total, &before, &after);
		ops += n;
		n *= 2;
		uint64_t t = clock_raw_ns() - start;
		if (t >= MAX_NS || (t >= TARGET_NS && ops >= MIN_OPS))
			break;
	} while (true);
	uint64_t elapsed = clock_raw_ns() - start;
	if (w->teardown)
		w->teardown(&ctx);
	if (rc != 0)
		fail_msg("%s: run failed: %s", w->name, ctx.why);

	double v[WL_MAX_CHECKS];
	bool ok[WL_MAX_CHECKS];
	int failed = wl_check_eval(w, &total, ctx.count, ops, v, ok);
	char line[512];
	int len = snprintf(line, sizeof line, "%s: %llu ops, %.0f ns/op", w->name, (unsigned long long)ops,
			   (double)elapsed / (double)ops);
	for (int c = 0; c < WL_MAX_CHECKS; c++)
		if (w->checks[c].metric != WL_M_NONE && len < (int)sizeof line)
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
	struct CMUnitTest *tests = xcalloc(n + 2, sizeof *tests);
	tests[0] = (struct CMUnitTest)cmocka_unit_test(registry_is_consistent);
	tests[1] = (struct CMUnitTest)cmocka_unit_test(check_eval_divides_by_ops);
	const char *only = getenv("SYSAB_TEST_WORKLOADS"); /* optional glob, for debugging */
	size_t k = 2;
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
