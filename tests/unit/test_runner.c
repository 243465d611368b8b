/* test_runner.c - the runner on simulated timing: rounds spread drift evenly, a precision
 * target governs and stops once met, a run short of it says so, every sample is stored. */
#include "unit.h"
#include "core/tmp.h"
#include "report/report.h"
#include "run/runner.h"
#include "run/runsum.h"
#include "analysis/analysis.h"
#include "analysis/summary.h"
#include "store/store.h"
#include "store/store_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The machine the runner sees: a simulated clock and synthetic batches. Nothing here
 * reads the real clock, so every result is the same on an idle or a loaded machine. */
struct sim {
	uint64_t t;        /* the clock, ns */
	uint64_t batches;  /* batches taken so far, across workloads */
	double op_ns;      /* cost of one op */
	double drift;      /* relative slow-down per batch taken (any workload) */
	double noise;      /* each batch's cost varies uniformly by ± this fraction */
	uint64_t rng;      /* state of a 64-bit LCG for the noise */
	int fail_after;    /* a batch number from which batches fail; 0 = never */
};

static uint64_t sim_now(void *arg)
{
	return ((struct sim *)arg)->t;
}

static double sim_uniform(struct sim *s)
{
	s->rng = s->rng * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(s->rng >> 11) / 9007199254740992.0 * 2 - 1; /* [-1, 1) */
}

static int sim_batch(void *arg, const struct workload *w, int copies, uint64_t n, struct slot_batch *b)
{
	(void)w;
	struct sim *s = arg;
	uint64_t g = s->batches++;
	if (s->fail_after && g >= (uint64_t)s->fail_after)
		return WL_ERROR;
	double cost = s->op_ns * (1.0 + s->drift * (double)g) * (1.0 + s->noise * sim_uniform(s));
	uint64_t el = (uint64_t)((double)n * cost);
	if (!el)
		el = 1;
	s->t += el;
	b->ops = n * (uint64_t)copies;
	b->elapsed_ns = el;
	b->value = (double)copies * (double)n * 1e9 / (double)el;
	return 0;
}

static const struct workload drift_a = {.name = "test.drift-a", .group = "test", .unit = "op"};
static const struct workload drift_b = {.name = "test.drift-b", .group = "test", .unit = "op"};
static const struct workload steady = {.name = "test.steady", .group = "test", .unit = "op"};

UNIT_TMPDIR_FIXTURE

static struct store *open_db(const char *name)
{
	struct err e = {{0}};
	char *path = xasprintf("%s/%s.db", dir, name);
	struct store *st;
	assert_int_equal(store_open(path, STORE_RW, &st, &e), 0);
	free(path);
	return st;
}

/* Run drift_a and drift_b in the given order; return mean ln(A) - mean ln(B) over all samples. */
static double drift_gap(enum run_order order, const char *name)
{
	struct err e = {{0}};
	struct store *st = open_db(name);
	const struct workload *wl[] = {&drift_a, &drift_b};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct sim sim = {.op_ns = 2000, .drift = 0.03};
	struct run_timing tm = {.arg = &sim, .now = sim_now, .batch = sim_batch};
	struct run_opts o = {
		.labels = &labels,
		.wl = wl,
		.nwl = 2,
		.copies = copies,
		.ncopies = 1,
		.samples = 12,
		.sample_ns = 2000000,
		.warmup_ns = 0,
		.seed = 7,
		.order = order,
		.profile = "test",
		.timing = &tm,
	};
	struct run_outcome out;
	assert_int_equal(runner_run(st, &o, &out, &e), 0);
	assert_int_equal(out.slots_ok, 2);
	struct summary s;
	assert_int_equal(summary_load(st, out.run_id, &s, &e), 0);
	assert_int_equal(s.nslots, 2);
	assert_int_equal(s.rows[0].n + s.rows[0].warmup, 12);
	assert_int_equal(s.rows[1].n + s.rows[1].warmup, 12);
	/* every sample, warm-up or not: the question is how the drift fell, not what the
	 * summary keeps */
	struct store_sample_info *x;
	size_t nx;
	assert_int_equal(store_samples_get(st, out.run_id, &x, &nx, &e), 0);
	assert_int_equal(nx, 24);
	double sum[2] = {0, 0};
	for (size_t i = 0; i < nx; i++)
		sum[strcmp(x[i].workload, drift_a.name) != 0] += log(x[i].value);
	store_samples_free(x, nx);
	double gap = (sum[0] - sum[1]) / 12;
	summary_free(&s);
	store_close(st);
	return gap;
}

static void rounds_spread_drift_evenly(void **state)
{
	(void)state;
	/* Blocked, registry order: B runs after A and inherits all the drift. */
	double blocked = drift_gap(ORDER_FIXED, "blocked");
	/* Rounds: both see the same drift on average. */
	double rounds = drift_gap(ORDER_ROUNDS, "rounds");
	print_message("ln(A/B): blocked %.3f, rounds %.3f\n", blocked, rounds);
	assert_true(blocked > 0.15);
	assert_true(fabs(rounds) < 0.03);
	/* the same simulated machine gives the same answer */
	assert_true(rounds == drift_gap(ORDER_ROUNDS, "rounds-again"));
}

/* One adaptive run of `steady` on sim; returns the summary (caller frees) and the outcome. */
static void adaptive(const char *name, struct sim *sim, double target, uint64_t max_ns, uint64_t slot_budget_ns,
		     enum run_order order, struct run_outcome *out, struct summary *s, char **text, char **json)
{
	struct err e = {{0}};
	struct store *st = open_db(name);
	const struct workload *wl[] = {&steady};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct run_timing tm = {.arg = sim, .now = sim_now, .batch = sim_batch};
	struct run_opts o = {
		.labels = &labels,
		.wl = wl,
		.nwl = 1,
		.copies = copies,
		.ncopies = 1,
		.samples = 6,
		.sample_ns = 2000000,
		.slot_budget_ns = slot_budget_ns,
		.target_ci = target,
		.max_ns = max_ns,
		.seed = 1,
		.order = order,
		.profile = "test",
		.timing = &tm,
	};
	assert_int_equal(runner_run(st, &o, out, &e), 0);
	assert_int_equal(summary_load(st, out->run_id, s, &e), 0);
	assert_int_equal(s->nslots, 1);
	size_t len;
	FILE *f = open_memstream(text, &len);
	report_summary_text(f, s, false, &(struct report_style){.width = REPORT_WIDTH});
	fclose(f);
	*json = report_summary_json(s, false);
	store_close(st);
}

static void adaptive_stops_when_precise(void **state)
{
	(void)state;
	struct sim sim = {.op_ns = 1000, .noise = 0.01, .rng = 1};
	struct run_outcome out;
	struct summary s;
	char *text, *json;
	adaptive("adaptive", &sim, 0.02, 20000000000ull, 0, ORDER_ROUNDS, &out, &s, &text, &json);
	size_t n = s.rows[0].n + s.rows[0].warmup;
	print_message("adaptive: %zu samples, half-width %.4f, %.3f s simulated\n", n, s.rows[0].halfwidth,
		      (double)out.wall_ns / 1e9);
	assert_true(n >= 6);
	assert_true(s.rows[0].halfwidth <= 0.02);
	assert_true(out.wall_ns < 1000000000ull); /* stopped on precision, long before the 20 s budget */
	assert_int_equal(out.rounds, (int)n);
	assert_int_equal(out.slots_short, 0);
	assert_string_equal(s.slots[0].status, "ok");
	assert_string_equal(s.slots[0].reason, "");
	assert_string_equal(s.run.reason, "");
	assert_null(strstr(text, "not reached"));
	summary_free(&s);
	free(text);
	free(json);
}

/* Samples of budget_run: 28 asked for, 2 ms each, a 20 ms budget per workload. */
static size_t budget_run(const char *name, struct sim *sim)
{
	struct err e = {{0}};
	struct store *st = open_db(name);
	const struct workload *wl[] = {&steady};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct run_timing tm = {.arg = sim, .now = sim_now, .batch = sim_batch};
	struct run_opts o = {.labels = &labels, .wl = wl, .nwl = 1, .copies = copies, .ncopies = 1, .samples = 28,
			     .sample_ns = 2000000, .slot_budget_ns = 20000000, .seed = 1, .order = ORDER_ROUNDS,
			     .profile = "test", .timing = &tm};
	struct run_outcome out;
	struct summary s;
	assert_int_equal(runner_run(st, &o, &out, &e), 0);
	assert_int_equal(summary_load(st, out.run_id, &s, &e), 0);
	size_t n = s.rows[0].n + s.rows[0].warmup;
	summary_free(&s);
	store_close(st);
	return n;
}

/* The per-workload time budget stops a workload whose single op outlasts the sample target
 * (a shell script) at the minimum count; it must not cut a workload whose samples only got
 * slower (a loaded machine): --quick then took 26 samples instead of 28 on a shared machine
 * (t_run_list_show failed so). */
static void budget_cuts_only_ops_that_outlast_a_sample(void **state)
{
	(void)state;
	/* 1 us ops, 2,000 a sample, each batch 5% slower than the one before (under 4x the target
	 * by the end, so never recalibrated): 28 samples, about 100 ms in all, past the budget */
	struct sim loaded = {.op_ns = 1000, .drift = 0.05, .rng = 1};
	assert_int_equal(budget_run("budget-loaded", &loaded), 28);
	/* 5 ms ops, one a sample: the budget stops it at the minimum */
	struct sim slow = {.op_ns = 5000000, .rng = 1};
	assert_int_equal(budget_run("budget-slow", &slow), RUN_MIN_SAMPLES);
}

/* Issue 17 item 5: the per-workload time budget (2 s by default) ended the sampling before
 * the target was checked, so --target-ci did nothing. With a target, the target governs. */
static void target_overrides_slot_budget(void **state)
{
	(void)state;
	for (int order = ORDER_ROUNDS; order <= ORDER_BLOCKED; order++) {
		struct sim sim = {.op_ns = 1000, .noise = 0.1, .rng = 3};
		struct run_outcome out;
		struct summary s;
		char *text, *json;
		/* a 20 ms budget is 10 samples of 2 ms; the target needs several times that */
		adaptive(order == ORDER_ROUNDS ? "budget-rounds" : "budget-blocked", &sim, 0.01, 20000000000ull,
			 20000000, (enum run_order)order, &out, &s, &text, &json);
		size_t n = s.rows[0].n + s.rows[0].warmup;
		print_message("target over budget (%s): %zu samples, half-width %.4f\n",
			      order == ORDER_ROUNDS ? "rounds" : "blocked", n, s.rows[0].halfwidth);
		assert_true(n > 3 * RUN_MIN_SAMPLES);
		assert_true(s.rows[0].halfwidth <= 0.01);
		assert_int_equal(out.slots_short, 0);
		assert_string_equal(s.slots[0].reason, "");
		summary_free(&s);
		free(text);
		free(json);
	}
}

/* A run whose --max-time ends before the target is met says so for that workload, in the
 * stored slot, the text and the JSON, and in the run's reason; --max-time bounds it. */
static void short_of_target_says_so(void **state)
{
	(void)state;
	for (int order = ORDER_ROUNDS; order <= ORDER_BLOCKED; order++) {
		struct sim sim = {.op_ns = 1000, .noise = 0.2, .rng = 5};
		struct run_outcome out;
		struct summary s;
		char *text, *json;
		uint64_t max_ns = 100000000; /* 0.1 s: about 50 samples of 2 ms */
		adaptive(order == ORDER_ROUNDS ? "short-rounds" : "short-blocked", &sim, 0.001, max_ns, 2000000000ull,
			 (enum run_order)order, &out, &s, &text, &json);
		size_t n = s.rows[0].n + s.rows[0].warmup;
		print_message("short (%s): %zu samples, half-width %.4f\n%s", order == ORDER_ROUNDS ? "rounds" : "blocked",
			      n, s.rows[0].halfwidth, text);
		assert_true(s.rows[0].halfwidth > 0.001);
		/* bounded by --max-time: at most one sample past it */
		assert_true(n >= 40 && n <= 60);
		assert_true(out.wall_ns < max_ns + 100000000ull);
		assert_int_equal(out.slots_ok, 1);
		assert_int_equal(out.slots_short, 1);
		assert_string_equal(s.slots[0].status, "ok");
		assert_non_null(strstr(s.slots[0].reason, "precision target ±0.1% not reached"));
		assert_non_null(strstr(s.slots[0].reason, "when --max-time ran out"));
		assert_string_equal(s.run.status, "complete");
		assert_non_null(strstr(s.run.reason, "not reached for 1 of 1 workloads"));
		assert_non_null(strstr(text, "[1] precision target ±0.1% not reached")); /* the row carries the mark */
		assert_non_null(strstr(json, "\"reason\": \"precision target ±0.1% not reached"));
		summary_free(&s);
		free(text);
		free(json);
	}
}

/* A failing workload is recorded as such and is not reported as short of the target. */
static void failed_batch_is_not_short(void **state)
{
	(void)state;
	struct sim sim = {.op_ns = 1000, .noise = 0.2, .rng = 5, .fail_after = 40};
	struct run_outcome out;
	struct summary s;
	char *text, *json;
	adaptive("failed", &sim, 0.001, 20000000000ull, 0, ORDER_ROUNDS, &out, &s, &text, &json);
	assert_int_equal(out.slots_failed, 1);
	assert_int_equal(out.slots_short, 0);
	assert_string_equal(s.slots[0].status, "error");
	assert_non_null(strstr(s.slots[0].reason, "failed in the test timing"));
	summary_free(&s);
	free(text);
	free(json);
}

/* A paired run (--arm) of one workload on a machine that drifts 3% per batch: arms A and B,
 * whose commands log their switches. */
static int arms_run(struct store *st, const char *cmd_b, double target, struct run_outcome *out, struct err *e)
{
	const struct workload *wl[] = {&steady};
	int copies[] = {1};
	struct kvlist labels = {0}, env_b = {0};
	kv_add(&labels, "k", "v");
	kv_add(&env_b, "SYSAB_TEST_ARM_VAR", "b");
	char *log_a = xasprintf("echo \"$SYSAB_ARM $SYSAB_ROUND ${SYSAB_TEST_ARM_VAR:--}\" >> %s/arms.log", dir);
	char *log_b = cmd_b ? xstrdup(cmd_b)
			    : xasprintf("echo \"$SYSAB_ARM $SYSAB_ROUND ${SYSAB_TEST_ARM_VAR:--}\" >> %s/arms.log", dir);
	struct run_arm arms[] = {{"A", log_a, NULL}, {"B", log_b, &env_b}};
	struct sim sim = {.op_ns = 2000, .drift = target > 0 ? 0 : 0.03, .noise = target > 0 ? 0.05 : 0, .rng = 9};
	struct run_timing tm = {.arg = &sim, .now = sim_now, .batch = sim_batch};
	struct run_opts o = {
		.labels = &labels, .wl = wl, .nwl = 1, .copies = copies, .ncopies = 1, .samples = 6,
		.sample_ns = 2000000, .seed = 3, .order = ORDER_ROUNDS, .profile = "test", .timing = &tm,
		.arms = arms, .narms = 2, .arm_order = ARM_ORDER_ALTERNATE, .target_ci = target,
		.max_ns = target > 0 ? 2000000000ull : 0,
	};
	int rc = runner_run(st, &o, out, e);
	free(log_a);
	free(log_b);
	kv_free(&labels);
	kv_free(&env_b);
	return rc;
}

/* Issue 38 item 3: a paired run switches arms by command round by round (AB, BA, ...), stores
 * each arm as its own run labelled arm=NAME on the same boot with every sample's round, and its
 * per-round differences cancel the drift that the arms share. */
static void arms_alternate_and_pair_by_round(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("arms");
	struct run_outcome out;
	assert_int_equal(arms_run(st, NULL, 0, &out, &e), 0);
	assert_true(out.arm_run_id[0] > 0 && out.arm_run_id[1] > 0 && out.run_id == out.arm_run_id[0]);
	/* the commands: each arm checked, begun and prepared, then AB, BA, ... with B's variable */
	char *path = xasprintf("%s/arms.log", dir), *text;
	assert_non_null(text = read_text_file(path));
	assert_string_equal(text, "A setup -\nB setup b\nA setup -\nB setup b\nA setup -\nB setup b\n"
				  "A 0 -\nB 0 b\nB 1 b\nA 1 -\nA 2 -\nB 2 b\nB 3 b\nA 3 -\nA 4 -\nB 4 b\nB 5 b\nA 5 -"); /* read_text_file drops the last newline */
	free(text);
	free(path);
	struct store_run_info ri[2];
	const struct store_run_info *rp[2];
	double mean[2] = {0, 0};
	for (int a = 0; a < 2; a++) {
		assert_int_equal(store_run_get(st, out.arm_run_id[a], &ri[a], &e), 0);
		rp[a] = &ri[a];
		assert_string_equal(kv_get(&ri[a].labels, "arm"), a ? "B" : "A");
		assert_string_equal(kv_get(&ri[a].labels, "k"), "v");
		assert_string_equal(ri[a].status, "complete");
		assert_non_null(strstr(ri[a].settings, "\"pair\""));
		struct store_sample_info *x;
		size_t nx;
		assert_int_equal(store_samples_get(st, out.arm_run_id[a], &x, &nx, &e), 0);
		assert_int_equal(nx, 6);
		for (size_t i = 0; i < nx; i++) {
			assert_int_equal(x[i].round, (int)i);
			mean[a] += log(x[i].value) / 6;
		}
		store_samples_free(x, nx);
	}
	assert_string_equal(ri[0].boot_id, ri[1].boot_id);
	/* drift 3% per batch: AB BA cancels it (blocked, B would be 18% slower) */
	print_message("ln(B/A) by round: %.4f\n", mean[1] - mean[0]);
	assert_true(fabs(mean[1] - mean[0]) < 0.005);
	struct an_arm_pair *p;
	assert_int_equal(an_arm_pairs(&rp[0], 1, &rp[1], 1, &p), 1);
	assert_true(p[0].a == out.arm_run_id[0] && p[0].b == out.arm_run_id[1]);
	free(p);
	assert_int_equal(an_arm_pairs(&rp[0], 1, &rp[0], 1, &p), 0); /* a run with itself: no pair */
	store_run_info_free(&ri[0]);
	store_run_info_free(&ri[1]);
	store_close(st);
}

/* A precision target stops the arms together: a job samples while its twin in the other arm
 * wants more, so both arms' runs hold the same rounds. */
static void arms_keep_in_step(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("arms-step");
	struct run_outcome out;
	assert_int_equal(arms_run(st, "true", 0.004, &out, &e), 0);
	struct store_sample_info *x[2];
	size_t nx[2];
	for (int a = 0; a < 2; a++)
		assert_int_equal(store_samples_get(st, out.arm_run_id[a], &x[a], &nx[a], &e), 0);
	print_message("arms in step: %zu and %zu samples\n", nx[0], nx[1]);
	assert_true(nx[0] > 6 && nx[0] == nx[1]);
	for (size_t i = 0; i < nx[0]; i++)
		assert_int_equal(x[0][i].round, x[1][i].round);
	store_samples_free(x[0], nx[0]);
	store_samples_free(x[1], nx[1]);
	store_close(st);
}

/* An arm whose command fails: before the rounds nothing is stored; in a round both arms' runs
 * end incomplete, saying which arm, command and round. */
static void arm_command_failure_is_clear(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("arms-fail");
	struct run_outcome out;
	assert_int_equal(arms_run(st, "exit 3", 0, &out, &e), -1);
	assert_non_null(strstr(e.msg, "--arm B: its command 'exit 3' failed before the rounds (exit status 3)"));
	struct store_run_info *runs;
	size_t n;
	assert_int_equal(store_runs_list(st, &runs, &n, &e), 0);
	assert_int_equal(n, 0);
	store_runs_free(runs, n);
	assert_int_equal(arms_run(st, "test \"$SYSAB_ROUND\" != 2", 0, &out, &e), -1);
	assert_non_null(strstr(e.msg, "failed in round 2"));
	assert_int_equal(store_runs_list(st, &runs, &n, &e), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(runs[i].status, "incomplete");
		assert_non_null(strstr(runs[i].reason, "--arm B"));
	}
	store_runs_free(runs, n);
	store_close(st);
}

/* One run of wl[0..nwl-1] at copies 1 (and 2 when ncopies is 2), samples each, on simulated
 * timing seeded by rng: the runs of the summary tests. */
static void sim_run(struct store *st, const struct workload **wl, size_t nwl, size_t ncopies, int samples,
		    uint64_t rng, struct run_outcome *out)
{
	struct err e = {{0}};
	int copies[] = {1, 2};
	struct kvlist labels = {0};
	struct sim sim = {.op_ns = 1000, .noise = 0.05, .rng = rng};
	struct run_timing tm = {.arg = &sim, .now = sim_now, .batch = sim_batch};
	struct run_opts o = {
		.labels = &labels, .wl = wl, .nwl = nwl, .copies = copies, .ncopies = ncopies, .samples = samples,
		.sample_ns = 2000000, .seed = 3, .order = ORDER_ROUNDS, .profile = "test", .timing = &tm,
	};
	assert_int_equal(runner_run(st, &o, out, &e), 0);
}

/* Issue 18: the runner stores the run's summaries once, as the run ends; they equal what the
 * samples give (runsum_check recomputes it); a stale method stamp is found and refreshed. */
static void summaries_match_samples(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("summaries");
	const struct workload *wl[] = {&drift_a, &steady};
	struct run_outcome out;
	sim_run(st, wl, 2, 2, 16, 9, &out);
	struct store_summary *m;
	size_t nm;
	size_t unreadable;
	assert_int_equal(store_summaries_get(st, &out.run_id, 1, &m, &nm, &unreadable, &e), 0);
	assert_int_equal(nm, 4);
	assert_int_equal(unreadable, 0);
	for (size_t i = 0; i < nm; i++) {
		assert_int_equal(m[i].method, ST_SUMMARY_METHOD);
		assert_int_equal(m[i].n + m[i].warmup, 16);
		assert_true(m[i].nbatches >= 2 && m[i].df == (double)(m[i].nbatches - 1));
		assert_true(m[i].tau2 > 0 && m[i].halfwidth > 0 && m[i].mad_y > 0);
	}
	struct runsum_check c;
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.checked, 4);
	assert_int_equal(c.missing + c.stale + c.differ + (size_t)c.orphans + (size_t)c.warmup, 0);

	/* the run's row as written by another method version: stale until refreshed */
	m[2].tau2 *= 1.000001;
	for (size_t i = 0; i < nm; i++)
		m[i].warmup = 99; /* the store counts the warm-up samples itself */
	assert_int_equal(store_summary_put_run(st, out.run_id, ST_SUMMARY_METHOD + 1, m, nm, &e), 0);
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.stale, 4);
	assert_int_equal(c.differ + c.warmup, 0);
	assert_non_null(strstr(c.first, "another method"));
	size_t n;
	assert_int_equal(runsum_refresh(st, false, 0, &n, &e), 0); /* the stale run, all its slots */
	assert_int_equal(n, 1);
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.stale + c.differ, 0);
	/* a wrong row with the current stamp is not stale: only a full recompute repairs it */
	assert_int_equal(store_summary_put_run(st, out.run_id, ST_SUMMARY_METHOD, m, nm, &e), 0);
	assert_int_equal(runsum_refresh(st, false, 0, &n, &e), 0);
	assert_int_equal(n, 0);
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.differ, 1);
	assert_int_equal(c.warmup, 0);
	/* a slot the samples do not have, and one of theirs left out */
	struct store_summary extra = m[0];
	extra.workload = "zz.none";
	struct store_summary two[] = {m[1], extra};
	assert_int_equal(store_summary_put_run(st, out.run_id, ST_SUMMARY_METHOD, two, 2, &e), 0);
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.missing, 3);
	assert_int_equal(c.orphans, 1);
	assert_int_equal(runsum_refresh(st, true, 0, &n, &e), 0); /* everything: check-db --fix */
	assert_int_equal(runsum_check(st, &c, &e), 0);
	assert_int_equal(c.missing + c.stale + c.differ + (size_t)c.orphans + (size_t)c.warmup + c.unreadable, 0);
	store_summaries_free(m, nm);
	store_close(st);
}

/* Another process writes a run's summary row while this one reads: once `when` (the start of
 * a statement's text) is running on the reading connection, the writer stores the row. */
struct writer {
	struct store *rd, *wr;
	const char *when;
	int64_t run;
	struct store_summary *m;
	size_t nm;
	bool fired;
};

static int write_midway(void *arg)
{
	struct writer *w = arg;
	if (!w->when)
		return 0;
	for (sqlite3_stmt *st = sqlite3_next_stmt(w->rd->db, NULL); !w->fired && st; st = sqlite3_next_stmt(w->rd->db, st))
		if (sqlite3_stmt_busy(st) && !strncmp(sqlite3_sql(st), w->when, strlen(w->when))) {
			struct err e = {{0}};
			w->fired = true;
			assert_int_equal(store_summary_put_run(w->wr, w->run, ST_SUMMARY_METHOD, w->m, w->nm, &e), 0);
		}
	return 0;
}

/* Issue 18: the summary rows and the check that no finished run lacks one are read from one
 * snapshot. Before, a row written between the two reads (a runner finishing) left its run out
 * of the analysis while the summaries counted as complete; and the environment of a run whose
 * row appeared between the two reads of store_env_values was read twice. */
static void summaries_read_one_snapshot(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("snapshot");
	const struct workload *wl[] = {&steady};
	struct run_outcome out;
	sim_run(st, wl, 1, 2, 8, 4, &out);
	assert_int_equal(store_summary_method_set(st, ST_SUMMARY_METHOD, &e), 0); /* as runsum_ensure does */
	struct writer w = {.rd = st, .run = out.run_id};
	size_t unreadable;
	assert_int_equal(store_summaries_get(st, &out.run_id, 1, &w.m, &w.nm, &unreadable, &e), 0);
	assert_int_equal(w.nm, 2);
	struct store_env whole;
	assert_int_equal(store_env_values(st, &out.run_id, 1, &whole, &e), 0);
	assert_true(whole.nk > 0);

	char *path = xasprintf("%s/snapshot.db", dir);
	assert_int_equal(store_open(path, STORE_RW, &w.wr, &e), 0);
	free(path);
	sqlite3_progress_handler(st->db, 1, write_midway, &w);
	const char *at[] = {"SELECT run, method, slots FROM run_summary", "SELECT run FROM run_summary"};
	for (size_t k = 0; k < 2; k++) {
		w.when = NULL;
		assert_int_equal(sqlite3_exec(st->db, "DELETE FROM run_summary", NULL, NULL, NULL), SQLITE_OK);
		w.when = at[k];
		w.fired = false;
		if (!k) {
			struct store_sums sums;
			bool ok;
			assert_int_equal(store_sums_load(st, ST_SUMMARY_METHOD, NULL, 0, &sums, &ok, &e), 0);
			assert_true(w.fired);
			/* either the row is read or the summaries are not complete (the samples are read) */
			assert_true(ok ? sums.n == 2 : sums.n == 0);
			store_sums_free(&sums);
		} else {
			struct store_env env;
			assert_int_equal(store_env_values(st, &out.run_id, 1, &env, &e), 0);
			assert_true(w.fired);
			assert_int_equal(env.nenv, 1);
			assert_int_equal(env.nk, whole.nk);
			for (size_t i = 0; i < env.nk; i++) {
				assert_string_equal(env.k[i].key, whole.k[i].key);
				assert_int_equal(env.k[i].nruns, 1);
				assert_int_equal(env.k[i].nv, 1);
				assert_string_equal(env.k[i].v[0].value, whole.k[i].v[0].value);
			}
			store_env_free(&env);
		}
	}
	sqlite3_progress_handler(st->db, 0, NULL, NULL);
	store_env_free(&whole);
	store_summaries_free(w.m, w.nm);
	store_close(w.wr);
	store_close(st);
}

/* A run whose summary row cannot be written is recorded all the same: the runner says why in
 * its outcome (the CLI warns) and analysis falls back to the samples. */
static void summary_row_lost_is_not_a_failed_run(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("rowlost");
	assert_int_equal(sqlite3_exec(st->db,
				      "CREATE TRIGGER no_rows BEFORE INSERT ON run_summary BEGIN "
				      "SELECT RAISE(ABORT, 'summary rows refused by the test'); END",
				      NULL, NULL, NULL),
			 SQLITE_OK);
	const struct workload *wl[] = {&steady};
	struct run_outcome out;
	sim_run(st, wl, 1, 1, 8, 6, &out);
	assert_true(out.end_recorded);
	assert_true(out.summary_lost);
	assert_non_null(strstr(out.summary_why.msg, "refused by the test"));
	struct store_run_info *runs;
	size_t nr;
	assert_int_equal(store_runs_list(st, &runs, &nr, &e), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(runs[0].state, STORE_RUN_COMPLETE);
	store_runs_free(runs, nr);
	assert_int_equal(store_summary_method_set(st, ST_SUMMARY_METHOD, &e), 0);
	struct store_sums sums;
	bool ok;
	assert_int_equal(store_sums_load(st, ST_SUMMARY_METHOD, NULL, 0, &sums, &ok, &e), 0);
	assert_false(ok); /* the run has no row: the samples are read */
	store_close(st);
}

/* --allocate: a (workload, copies) with a quota takes that many samples, the others the
 * default, in rounds; the allocation is recorded in the settings. */
static void quota_sets_each_count(void **state)
{
	(void)state;
	struct err e = {{0}};
	struct store *st = open_db("quota");
	const struct workload *wl[] = {&drift_a, &drift_b, &steady};
	int copies[] = {1};
	struct kvlist labels = {0};
	struct sim sim = {.op_ns = 2000};
	struct run_timing tm = {.arg = &sim, .now = sim_now, .batch = sim_batch};
	struct run_quota q[] = {{&drift_a, 1, 20}, {&steady, 1, 6}};
	struct run_opts o = {
		.labels = &labels, .wl = wl, .nwl = 3, .copies = copies, .ncopies = 1, .samples = 12,
		.quota = q, .nquota = 2, .quota_json = "{\"from\":\"run:1\"}",
		.sample_ns = 2000000, .seed = 7, .order = ORDER_ROUNDS, .profile = "test", .timing = &tm,
	};
	struct run_quota *jobs;
	size_t nj = runner_jobs(&o, &jobs);
	assert_int_equal(nj, 3);
	assert_ptr_equal(jobs[0].w, &drift_a);
	assert_int_equal(jobs[0].samples, 12);
	free(jobs);
	struct run_outcome out;
	assert_int_equal(runner_run(st, &o, &out, &e), 0);
	struct store_sample_info *x;
	size_t nx;
	assert_int_equal(store_samples_get(st, out.run_id, &x, &nx, &e), 0);
	size_t n[3] = {0, 0, 0};
	for (size_t i = 0; i < nx; i++)
		for (int k = 0; k < 3; k++)
			n[k] += !strcmp(x[i].workload, wl[k]->name);
	store_samples_free(x, nx);
	assert_int_equal(n[0], 20);
	assert_int_equal(n[1], 12);
	assert_int_equal(n[2], 6);
	struct store_run_info ri;
	assert_int_equal(store_run_get(st, out.run_id, &ri, &e), 0);
	assert_non_null(strstr(ri.settings, "\"allocation\":{\"from\":\"run:1\"}"));
	store_run_info_free(&ri);
	store_close(st);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rounds_spread_drift_evenly),
		cmocka_unit_test(quota_sets_each_count),
		cmocka_unit_test(arms_alternate_and_pair_by_round),
		cmocka_unit_test(arms_keep_in_step),
		cmocka_unit_test(arm_command_failure_is_clear),
		cmocka_unit_test(adaptive_stops_when_precise),
		cmocka_unit_test(target_overrides_slot_budget),
		cmocka_unit_test(budget_cuts_only_ops_that_outlast_a_sample),
		cmocka_unit_test(short_of_target_says_so),
		cmocka_unit_test(failed_batch_is_not_short),
		cmocka_unit_test(summaries_match_samples),
		cmocka_unit_test(summaries_read_one_snapshot),
		cmocka_unit_test(summary_row_lost_is_not_a_failed_run),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
