/* runner.c - the run loop: environment, order, setup, warm-up, calibration, samples, cleanup. */
#include "runner.h"
#include "core/testhooks.h"
#include "calibrate.h"
#include "env.h"
#include "runsum.h"
#include "probe.h"
#include "external.h"
#include "counter_checks.h"
#include "store/counters.h"
#include "slot.h"
#include "core/tmp.h"
#include "stats/stats.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

static const char *const order_names[] = {"rounds", "blocked", "fixed"};

/* The run's settings; a paired run's also say which arm it is (arm, of arms, switched by
 * command, in arm_order) and tie the arms' runs together (pair: one tag for all of them). */
static char *settings_json(const struct run_opts *o, size_t arm, const char *pair)
{
	json_t *j = json_object();
	if (o->narms) {
		json_t *arms = json_array();
		for (size_t i = 0; i < o->narms; i++)
			json_array_append_new(arms, json_string(o->arms[i].name));
		json_object_set_new(j, "arms", arms);
		json_object_set_new(j, "arm", json_string(o->arms[arm].name));
		json_object_set_new(j, "arm_command", json_string(o->arms[arm].cmd));
		json_object_set_new(j, "arm_order", json_string(o->arm_order == ARM_ORDER_RANDOM ? "random" : "alternate"));
		json_object_set_new(j, "pair", json_string(pair));
	}
	json_object_set_new(j, "profile", json_string(o->profile));
	json_object_set_new(j, "samples", json_integer(o->samples));
	json_object_set_new(j, "sample_ns", json_integer((json_int_t)o->sample_ns));
	json_object_set_new(j, "warmup_ns", json_integer((json_int_t)o->warmup_ns));
	json_object_set_new(j, "slot_budget_ns", json_integer((json_int_t)o->slot_budget_ns));
	json_object_set_new(j, "order", json_string(order_names[o->order]));
	json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(j, "target_ci", o->target_ci > 0 ? json_real(o->target_ci) : json_null());
	json_object_set_new(j, "max_ns", o->max_ns ? json_integer((json_int_t)o->max_ns) : json_null());
	json_t *c = json_array();
	for (size_t i = 0; i < o->ncopies; i++)
		json_array_append_new(c, json_integer(o->copies[i]));
	json_object_set_new(j, "copies", c);
	json_object_set_new(j, "multi_copies_index_only", json_boolean(o->multi_index_only));
	json_t *w = json_array();
	for (size_t i = 0; i < o->nwl; i++)
		json_array_append_new(w, json_string(o->wl[i]->name));
	json_object_set_new(j, "workloads", w);
	json_object_set_new(j, "cpus", o->cpus_text ? json_string(o->cpus_text) : json_null());
	json_object_set_new(j, "host_ref", json_boolean(o->host_ref));
	if (o->node)
		json_object_set_new(j, "node", json_integer(o->node->id));
	json_t *q = o->quota_json ? json_loads(o->quota_json, 0, NULL) : NULL;
	if (q)
		json_object_set_new(j, "allocation", q);
	if (o->pressure)
		json_object_set_new(j, "icache_pressure", json_string(o->pressure->spec));
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

/* The pressure's self-check (run --icache-pressure): one complete sweep before every sampled
 * op of every copy, so that each op the samples timed did start cold. */
static void pressure_check(const struct slot_checks *c, json_t *a)
{
	double v = c->ops ? (double)c->sweeps / (double)c->ops : 0;
	bool ok = c->ops > 0 && c->sweeps == c->ops && !c->sweeps_short;
	json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:b}", "name", "complete cache sweeps per op (icache pressure)",
			      "value", v, "lo", 1.0, "hi", 1.0, "ok", ok);
	if (c->sweeps_short)
		json_object_set_new(o, "short_sweeps", json_integer((json_int_t)c->sweeps_short));
	json_array_append_new(a, o);
}

/* The self-checks of a job: the workload's own, then those from its counters, then those
 * of its placement on the run's node (a per-node run), then its sweeps (under pressure). */
static char *checks_json(const struct workload *w, const struct slot_checks *c, double *const cnt[CTR_NEVENTS],
			 const size_t ncnt[CTR_NEVENTS], const struct node_info *node, bool pressured)
{
	json_t *a = json_array();
	for (int i = 0; i < c->n; i++)
		if (c->why[i][0]) /* the workload could not judge it here: it fails nothing */
			json_array_append_new(a, json_pack("{s:s, s:n, s:f, s:f, s:b, s:b, s:s}", "name", w->checks[i].name,
							   "value", "lo", w->checks[i].lo, "hi", w->checks[i].hi, "ok",
							   true, "checked", false, "why", c->why[i]));
		else {
			json_t *o = json_pack("{s:s, s:f, s:f, s:f, s:b}", "name", w->checks[i].name, "value",
					      c->value[i], "lo", w->checks[i].lo, "hi", w->checks[i].hi, "ok", c->ok[i]);
			/* each sampled batch judged on its own (not for per-second checks) */
			if (c->tally.batches && w->checks[i].metric != WL_M_COUNT1_PER_S) {
				json_object_set_new(o, "batches", json_integer(c->tally.batches));
				json_object_set_new(o, "failed_batches", json_integer(c->tally.failed[i]));
				if (c->tally.failed[i])
					json_object_set_new(o, "worst", json_real(c->tally.worst[i]));
			}
			json_array_append_new(a, o);
		}
	counter_checks(w->name, cnt, ncnt, a);
	if (node)
		node_checks(node->id, &c->place, a);
	if (pressured)
		pressure_check(c, a);
	char *s = json_array_size(a) ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return s;
}

static const char *status_word(int rc)
{
	switch (rc) {
	case 0: return "ok";
	case WL_UNSUPPORTED: return "unsupported";
	case WL_NORESOURCE: return "no-resource";
	case SLOT_STOPPED: return "stopped";
	default: return "error";
	}
}

/* One (workload, copies) of the run and what has happened to it. */
struct job {
	const struct workload *w;
	size_t arm;          /* its arm (0 without arms) */
	int64_t run_id;      /* the run it is stored in: its arm's */
	int copies;
	struct slot s;
	int rc;              /* 0 while usable; else why it stopped */
	bool tried, open, done; /* prepared; workers alive; finished normally */
	bool ended;          /* finish() ran: its end was recorded, or that failed */
	uint64_t n;          /* calibrated ops per copy per sample */
	int want;            /* samples to take (run_opts.samples, or its quota) */
	double overhead_ns;  /* empty batch cost */
	char *dir;           /* this job's own directory inside the run's temp directory */
	double *y;           /* ln(value) of the samples taken, in order */
	int *round;          /* the round of each sample, -1 in blocked order */
	int nsamples, cap;
	uint64_t sampled_ns;  /* time spent in its samples */
	double halfwidth;    /* current relative 95% CI half-width */
	char short_why[192]; /* set when the job ended ok but short of the precision target */
	double *cnt[CTR_NEVENTS]; /* per counted batch: count per op of each counted event */
	size_t ncnt[CTR_NEVENTS];
	int counted_to;      /* 1 + the last sample with counts; 0 before the first */
	uint64_t last_ops;   /* the ops of its last sample */
};

struct runctx {
	struct store *st;
	const struct run_opts *o;
	const char *tmpdir;
	const char *self_exe;
	const int *cpus;
	int ncpus;
	bool emulated;     /* env_emulated, read once per run */
	uint64_t t_start;
	int step, steps;
	int rounds;        /* the most samples any job wants: the planned rounds */
	double min_overhead;
	gsl_rng *rng;
	struct ctr_plan plan;
	size_t stack_pad;  /* run_opts.randomize_env: the environment's padding, each worker's shift */
};

/* The runner's clock: the real one, or the test's. */
static uint64_t now(const struct runctx *rc)
{
	const struct run_timing *t = rc->o->timing;
	return t ? t->now(t->arg) : clock_raw_ns();
}

/* One timed batch of j: from its workers, or from the test's timing. */
static int job_batch(struct runctx *rc, struct job *j, uint64_t n, double overhead_ns, bool sampled,
		     struct slot_batch *b)
{
	const struct run_timing *t = rc->o->timing;
	if (!t)
		return slot_batch(&j->s, n, overhead_ns, sampled, b);
	memset(b, 0, sizeof *b);
	int r = t->batch(t->arg, j->w, j->copies, n, b);
	if (r)
		snprintf(j->s.why, sizeof j->s.why, "%s failed in the test timing", j->w->name);
	return r;
}

static void progress(struct runctx *rc, const char *phase, const struct job *j, int round, int rounds)
{
	const struct run_opts *o = rc->o;
	if (!o->progress)
		return;
	uint64_t el = now(rc) - rc->t_start;
	double frac = rc->steps ? (double)rc->step / rc->steps : 0;
	struct run_progress p = {
		.phase = phase,
		.workload = j->w->name,
		.copies = j->copies,
		.step = rc->step,
		.steps = rc->steps,
		.round = round,
		.rounds = rounds,
		.elapsed_ns = el,
		.eta_ns = frac > 0.02 ? (uint64_t)((double)el / frac * (1 - frac)) : 0,
	};
	o->progress(o->progress_arg, &p);
}

/* Record the outcome of a job (again, when it changes). */
static int put_slot(struct runctx *rc, struct job *j, const char *checks, struct err *e)
{
	struct store_slot rec = {
		.workload = j->w->name,
		.copies = j->copies,
		.unit = j->w->unit,
		.latency = (j->w->flags & WL_LATENCY) != 0,
		.status = status_word(j->rc),
		.reason = j->rc == SLOT_STOPPED ? "stopped by a signal"
			  : j->rc                ? j->s.why
			  : j->short_why[0]      ? j->short_why
						 : NULL,
		.batch_ops = j->n,
		.overhead_ns = j->overhead_ns,
		.checks = checks,
	};
	return store_slot_put(rc->st, j->run_id, &rec, e);
}

/* The pressure w runs under: the run's, when w takes it. */
static const struct wl_pressure *job_pressure(const struct run_opts *o, const struct workload *w)
{
	return o->pressure && wl_pressure_takes(w) ? o->pressure : NULL;
}

/* A batch's length as calibration sees it: the whole batch under pressure (sweeps and
 * all: a sample must last the target in time spent, not only in time timed). */
static uint64_t batch_len(const struct slot_batch *b)
{
	return b->wall_ns ? b->wall_ns : b->elapsed_ns;
}

/* n, capped at the largest batch the workload can prepare untimed. */
static uint64_t batch_cap(const struct workload *w, uint64_t n)
{
	uint64_t cap = w->max_batch ? w->max_batch(sysconf(_SC_PAGESIZE)) : 0;
	return cap && n > cap ? cap : n;
}

/* Fork the workers, measure the empty batch, calibrate and warm up. Returns -1 only on a
 * database error; a workload that cannot run has j->rc set. */
static int prepare(struct runctx *rc, struct job *j, struct err *e)
{
	const struct run_opts *o = rc->o;
	/* each job gets its own directory, so workloads open at once never share file names */
	j->dir = o->narms ? xasprintf("%s/%s.%d.%s", rc->tmpdir, j->w->name, j->copies, o->arms[j->arm].name)
			  : xasprintf("%s/%s.%d", rc->tmpdir, j->w->name, j->copies);
	if (mkdir(j->dir, 0700) < 0) {
		j->tried = true;
		j->rc = errno == ENOSPC || errno == EDQUOT ? WL_NORESOURCE : WL_ERROR;
		snprintf(j->s.why, sizeof j->s.why, "cannot create %s: %s", j->dir, strerror(errno));
		rc->step++;
		return put_slot(rc, j, NULL, e);
	}
	struct slot_cfg cfg = {
		.w = j->w,
		.copies = j->copies,
		.tmpdir = j->dir,
		.self_exe = rc->self_exe,
		.cpus = rc->cpus,
		.ncpus = rc->ncpus,
		.emulated = rc->emulated,
		.timeout_ns = o->hang_ns ? o->hang_ns : o->sample_ns * 200 + 60000000000ull,
		.node = o->node,
		.stack_pad = rc->stack_pad,
		.pressure = job_pressure(o, j->w),
	};
	progress(rc, "preparing", j, 0, 0);
	memset(&j->s, 0, sizeof j->s);
	j->tried = true;
	if ((j->w->flags & WL_NEEDS_2CPU) && rc->ncpus < 2) {
		j->rc = WL_UNSUPPORTED;
		snprintf(j->s.why, sizeof j->s.why, "needs two CPUs; this run may use %d", rc->ncpus);
	} else if (!o->timing) {
		j->rc = slot_open(&j->s, &cfg);
	}
	if (j->rc == 0) {
		j->open = true;
		j->overhead_ns = o->timing ? 0 : slot_empty_cost(&j->s);
		if (j->overhead_ns >= 0 && (rc->min_overhead < 0 || j->overhead_ns < rc->min_overhead))
			rc->min_overhead = j->overhead_ns;
		uint64_t n = 1;
		bool done = false;
		struct slot_batch b;
		while (!done && !sig_stop && !j->rc) {
			j->rc = job_batch(rc, j, n, 0, false, &b); /* calibration: no correction */
			n = calib_next(n, batch_len(&b), o->sample_ns, &done);
			if (batch_cap(j->w, n) < n) {
				n = batch_cap(j->w, n);
				done = true;
			}
		}
		/* Confirm at the calibrated size: interference only ever slows a batch down, so
		 * a confirmation much faster than the target means the calibration batch was
		 * disturbed; scale once more from the faster measurement. */
		if (!j->rc && !sig_stop) {
			j->rc = job_batch(rc, j, n, 0, false, &b);
			if (!j->rc && batch_len(&b) < o->sample_ns / 2)
				n = batch_cap(j->w, calib_next(n, batch_len(&b), o->sample_ns, &done));
			if (batch_cap(j->w, n) < n) {
				n = batch_cap(j->w, n);
				done = true;
			}
		}
		j->n = n;
		uint64_t warm_end = now(rc) + o->warmup_ns;
		while (!j->rc && !sig_stop && now(rc) < warm_end)
			j->rc = job_batch(rc, j, n, j->overhead_ns, false, &b);
		if (sig_stop && !j->rc) {
			if (!o->timing)
				slot_close(&j->s, NULL); /* stopped between batches: the workers are still up */
			j->rc = SLOT_STOPPED;
		}
		if (j->rc)
			j->open = false; /* the workers are gone (slot_batch stops them on failure) */
	}
	rc->step++;
	return put_slot(rc, j, NULL, e);
}

/* Counters never ride on a timed batch: a software event does its work at every context
 * switch, so a busy machine would slow the very batches it explains (+8% to +21% at load
 * 6, docs/PERFORMANCE.md). They are opened on the workers for an untimed batch of the
 * sample's size run right after a sample, read around it and closed again; its counts are
 * stored against that sample. One sample in COUNT_EVERY is followed by one (the last of
 * each COUNT_EVERY), and the last steady sample when none of the steady ones was, so the
 * counts cost a seventh of the sampling time and every job has some. */
enum { COUNT_EVERY = 7 };

/* Rounds: refill caches and TLBs with an unrecorded batch a quarter of the size, since
 * another workload ran just before. A workload whose batch is a few long ops (a shell
 * script) is its own warm-up. */
static void rewarm(struct runctx *rc, struct job *j, int round)
{
	struct slot_batch b;
	if (round >= 0 && rc->o->rewarm && j->n >= 4 && !j->rc)
		j->rc = job_batch(rc, j, j->n / 4, j->overhead_ns, false, &b);
}

/* The job's workers failed or stopped in a batch: record it. */
static int job_lost(struct runctx *rc, struct job *j, struct err *e)
{
	j->open = false;
	return put_slot(rc, j, NULL, e);
}

/* Count the events of an untimed batch of j's size and store them against sample seq (of
 * sample_ops ops), scaled to its ops when the sizes differ. Returns -1 only on a database
 * error; a failed batch ends the job as a failed sample would. */
static int count_batch(struct runctx *rc, struct job *j, int seq, uint64_t sample_ops, struct err *e)
{
	if (rc->o->timing || j->rc || job_pressure(rc->o, j->w)) /* no workers to count in a test's timing; */
		return 0;                                         /* under pressure they would count the sweeps */
	struct ctr_set c;
	uint64_t c0[CTR_NEVENTS], c1[CTR_NEVENTS];
	bool h0[CTR_NEVENTS], h1[CTR_NEVENTS];
	counters_open(&c, &rc->plan, j->s.pid, j->copies);
	if (!counters_read(&c, c0, h0)) { /* nothing to count: --counters none, or none opened */
		counters_close(&c);
		return 0;
	}
	struct slot_batch b;
	j->rc = job_batch(rc, j, j->n, j->overhead_ns, false, &b);
	bool counted = !j->rc && counters_read(&c, c1, h1);
	counters_close(&c);
	if (j->rc)
		return job_lost(rc, j, e);
	if (!counted || !b.ops)
		return 0;
	const char *names[CTR_NEVENTS];
	uint64_t d[CTR_NEVENTS];
	size_t nc = 0;
	double scale = (double)sample_ops / (double)b.ops;
	for (int i = 0; i < CTR_NEVENTS; i++)
		if (h0[i] && h1[i]) {
			uint64_t delta = c1[i] >= c0[i] ? c1[i] - c0[i] : 0;
			names[nc] = counters_name(i);
			d[nc] = scale == 1 ? delta : (uint64_t)llround((double)delta * scale);
			j->cnt[i] = xrealloc(j->cnt[i], (j->ncnt[i] + 1) * sizeof *j->cnt[i]);
			j->cnt[i][j->ncnt[i]++] = (double)delta / (double)b.ops;
			nc++;
		}
	j->counted_to = seq + 1;
	return store_counters_add(rc->st, j->run_id, j->w->name, j->copies, seq, names, d, nc, e);
}

/* A standard normal draw that is a pure function of key (splitmix64, Box-Muller). */
static double fake_normal(uint64_t key)
{
	uint64_t u[2];
	for (int i = 0; i < 2; i++) {
		uint64_t z = (key += 0x9e3779b97f4a7c15ULL);
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		u[i] = z ^ (z >> 31);
	}
	double a = ((double)(u[0] >> 11) + 0.5) / 9007199254740992.0, b = (double)(u[1] >> 11) / 9007199254740992.0;
	return sqrt(-2 * log(a)) * cos(2 * M_PI * b);
}

/* The seam of the tests (tests/e2e/t_armgrow.sh): SYSAB_TEST_ARM_VALUES=SD:NAME=OPS,NAME=OPS
 * (e.g. 0.01:A=1000,B=1020) makes a paired run store, instead of what each sample measured,
 * OPS of the sample's arm times e^(SD z), z a standard normal drawn from the run, workload and
 * sample number alone (the same on every machine at any speed). Arms it does not name, and
 * text it cannot read, keep their measured values. */
static double test_arm_value(const struct runctx *rc, const struct job *j, int seq, double measured)
{
	const char *spec = testhooks()->arm_values;
	const struct run_opts *o = rc->o;
	if (!spec || !o->narms)
		return measured;
	char *end;
	double sd = strtod(spec, &end), ops = NAN;
	if (end == spec || *end != ':' || !(sd >= 0))
		return measured;
	const char *name = o->arms[j->arm].name;
	size_t n = strlen(name);
	for (const char *p = end + 1; p && *p; p = strchr(p, ','), p = p ? p + 1 : NULL)
		if (!strncmp(p, name, n) && p[n] == '=')
			ops = strtod(p + n + 1, NULL);
	if (!(ops > 0))
		return measured;
	uint64_t h = 14695981039346656037ull;
	uint64_t key[2] = {(uint64_t)j->run_id, (uint64_t)seq};
	for (size_t i = 0; i < sizeof key; i++)
		h = (h ^ ((const unsigned char *)key)[i]) * 1099511628211ull;
	for (const char *c = j->w->name; *c; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return ops * exp(sd * fake_normal(h));
}

/* SYSAB_TEST_FAKE_SAMPLES (testhooks.h): replace sample seq's rate in b by the test's. */
static void fake_sample(const struct runctx *rc, int seq, struct slot_batch *b)
{
	const char *spec = testhooks()->fake_samples;
	char key[128] = "", *colon;
	double sd = atof(spec), factor = 1;
	const char *k = strchr(spec, ':');
	if (k && strlen(k + 1) < sizeof key) {
		strcpy(key, k + 1);
		if ((colon = strrchr(key, ':'))) {
			factor = atof(colon + 1);
			*colon = 0;
		}
	}
	char *eq = strchr(key, '=');
	if (eq && factor > 0 && rc->o->labels) {
		*eq = 0;
		const char *v = kv_get(rc->o->labels, key);
		if (!v || strcmp(v, eq + 1))
			factor = 1;
	} else
		factor = 1;
	char *boot = env_boot_id();
	uint64_t id = 1469598103934665603ULL; /* FNV-1a of the boot id */
	for (const char *p = boot; *p; p++)
		id = (id ^ (unsigned char)*p) * 0x100000001b3ULL;
	free(boot);
	double lnv = log(1e6) + sd * fake_normal(id * 0x100000001b3ULL) +
		     sd / 5 * fake_normal(id * 0x100000001b3ULL + 7919 * (uint64_t)(seq + 1)) - log(factor);
	b->value = exp(lnv);
	b->elapsed_ns = (uint64_t)((double)b->ops / b->value * 1e9);
}

/* Take one sample of j and store it. Returns -1 only on a database error. */
static int sample(struct runctx *rc, struct job *j, int round, struct err *e)
{
	struct slot_batch b;
	rewarm(rc, j, round);
	if (!j->rc)
		j->rc = job_batch(rc, j, j->n, j->overhead_ns, true, &b);
	if (j->rc)
		return job_lost(rc, j, e);
	if (testhooks()->fake_samples)
		fake_sample(rc, (int)j->nsamples, &b);
	struct store_sample x = {
		.workload = j->w->name,
		.copies = j->copies,
		.seq = j->nsamples,
		.round = round,
		.ops = b.ops,
		.elapsed_ns = b.elapsed_ns,
		.value = test_arm_value(rc, j, j->nsamples, b.value),
	};
	b.value = x.value;
	if (store_sample_add(rc->st, j->run_id, &x, e))
		return -1;
	if (j->nsamples == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 64;
		j->y = xrealloc(j->y, (size_t)j->cap * sizeof *j->y);
		j->round = xrealloc(j->round, (size_t)j->cap * sizeof *j->round);
	}
	j->round[j->nsamples] = round;
	j->y[j->nsamples++] = log(b.value);
	j->sampled_ns += batch_len(&b);
	j->last_ops = b.ops;
	rc->step++;
	if (x.seq % COUNT_EVERY == COUNT_EVERY - 1 && count_batch(rc, j, x.seq, b.ops, e))
		return -1;
	/* The machine changed under the workload (load came or went, a cache filled): keep
	 * samples near the target length by recalibrating from this one. */
	uint64_t target = rc->o->sample_ns;
	if (batch_len(&b) > 4 * target || batch_len(&b) < target / 4) {
		bool done;
		j->n = batch_cap(j->w, calib_next(j->n, batch_len(&b), target, &done));
	}
	return 0;
}

/* j's current relative 95% CI half-width, on the samples the summary will use: without
 * the warm-up prefix. */
static double job_halfwidth(const struct job *j)
{
	size_t warm = stats_warmup_prefix(j->y, (size_t)j->nsamples);
	return stats_run_halfwidth(&(struct st_run){.y = j->y + warm, .n = (size_t)j->nsamples - warm}, 0.95);
}

/* Has j what the run wants? With a precision target, the target alone decides (the run's
 * --max-time bounds it); without one, the sample count, shortened by the per-workload
 * time budget. */
static bool job_satisfied(const struct run_opts *o, struct job *j)
{
	if (o->target_ci > 0) {
		if (j->nsamples < j->want)
			return false;
		j->halfwidth = job_halfwidth(j);
		return j->halfwidth <= o->target_ci;
	}
	/* A workload whose op outlasts the sample target (a shell script, say: one op a
	 * sample) would take samples × op time; past its time budget it stops at the minimum
	 * count. Samples that only ran slow (a loaded machine) are not cut: their count would
	 * depend on the load. */
	if (o->slot_budget_ns && j->n <= 1 && j->sampled_ns >= o->slot_budget_ns && j->nsamples >= RUN_MIN_SAMPLES)
		return true;
	return j->nsamples >= j->want;
}

/* The seam of the tests (tests/e2e/t_trust.sh): SYSAB_TEST_FAIL_CHECK=WORKLOAD fails that
 * workload's first judged self-check, as if it had measured out of its range. */
static void test_fail_check(const struct workload *w, struct slot_checks *c)
{
	const char *name = testhooks()->fail_check;
	if (name && !strcmp(name, w->name) && c->n > 0 && !c->why[0][0])
		c->ok[0] = false;
}

/* Stop j's workers, evaluate its self-checks, record it. */
static int finish(struct runctx *rc, struct job *j, struct err *e)
{
	char *cj = NULL;
	j->ended = true;
	size_t warm = stats_warmup_prefix(j->y, (size_t)j->nsamples);
	/* no steady sample was followed by a counted batch (a short job): count after the last */
	if (j->open && j->done && !sig_stop && j->nsamples > (int)warm && j->counted_to <= (int)warm) {
		rewarm(rc, j, rc->o->order == ORDER_ROUNDS ? 0 : -1);
		if (j->rc)
			j->open = false; /* the workers are gone; recorded below */
		else if (count_batch(rc, j, j->nsamples - 1, j->last_ops, e))
			return -1;
	}
	if (j->open) {
		struct slot_checks chk = {0};
		if (!rc->o->timing)
			slot_close(&j->s, sig_stop ? NULL : &chk);
		j->open = false;
		test_fail_check(j->w, &chk);
		if (!sig_stop)
			cj = checks_json(j->w, &chk, j->cnt, j->ncnt, rc->o->node, job_pressure(rc->o, j->w) != NULL);
	}
	if (!j->rc && sig_stop && !j->done)
		j->rc = SLOT_STOPPED;
	/* The time budget ended the sampling before the precision target was met: say so. */
	if (!j->rc && j->done && rc->o->target_ci > 0 && j->nsamples > 0) {
		double hw = job_halfwidth(j);
		if (!(hw <= rc->o->target_ci)) {
			char now_hw[48];
			if (isfinite(hw))
				snprintf(now_hw, sizeof now_hw, "±%.3g%%", hw * 100);
			else
				snprintf(now_hw, sizeof now_hw, "no interval yet");
			snprintf(j->short_why, sizeof j->short_why,
				 "precision target ±%.3g%% not reached: %s after %d samples when --max-time ran out",
				 rc->o->target_ci * 100, now_hw, j->nsamples);
		}
	}
	if (warm && store_samples_mark_warmup(rc->st, j->run_id, j->w->name, j->copies, (int)warm, e)) {
		free(cj);
		return -1;
	}
	int r = put_slot(rc, j, cj, e);
	free(cj);
	return r;
}

/* A stop signal cut a wait for the database short (another process holds its lock): record
 * each job not ended yet as stopped, as far as the database takes it (the store no longer
 * waits, so this is quick). Returns how many could not be recorded. */
static int finish_stopped(struct runctx *rc, struct job *jobs, size_t nj)
{
	int lost = 0;
	for (size_t i = 0; i < nj; i++) {
		struct job *j = &jobs[i];
		struct err e2;
		if (j->tried && !j->ended) {
			j->done = false;
			lost += finish(rc, j, &e2) != 0;
		}
	}
	return lost;
}

static bool budget_left(const struct runctx *rc, uint64_t sampling_start)
{
	return !rc->o->max_ns || now(rc) - sampling_start < rc->o->max_ns;
}

/* Blocked order: each job from setup to teardown before the next. */
static int run_blocked(struct runctx *rc, struct job *jobs, size_t nj, struct err *e)
{
	for (size_t i = 0; i < nj && !sig_stop; i++) {
		struct job *j = &jobs[i];
		if (prepare(rc, j, e))
			return -1;
		uint64_t start = now(rc);
		while (j->open && !sig_stop && !job_satisfied(rc->o, j) && budget_left(rc, start)) {
			if (sample(rc, j, -1, e))
				return -1;
			progress(rc, "sampling", j, 0, 0);
		}
		j->done = !sig_stop;
		if (finish(rc, j, e))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- arms (a paired run) */

/* What an arm's environment replaced in sysab's own, to put back. */
struct arm_saved {
	struct kvlist had;
	struct strv unset;
};

static void arm_env_push(const struct run_arm *a, struct arm_saved *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; a->env && i < a->env->n; i++) {
		const char *k = a->env->v[i].key, *old = getenv(k);
		if (old)
			kv_add(&s->had, k, old);
		else
			strv_add(&s->unset, k);
		setenv(k, a->env->v[i].value, 1);
	}
}

static void arm_env_pop(struct arm_saved *s)
{
	for (size_t i = 0; i < s->had.n; i++)
		setenv(s->had.v[i].key, s->had.v[i].value, 1);
	for (size_t i = 0; i < s->unset.n; i++)
		unsetenv(s->unset.v[i]);
	kv_free(&s->had);
	strv_free(&s->unset);
}

/* A timeout as the user would write it: 10m, 90s, 1500ms. */
static void format_timeout(uint64_t ns, char *buf, size_t size)
{
	if (ns % 60000000000ull == 0)
		snprintf(buf, size, "%llum", (unsigned long long)(ns / 60000000000ull));
	else if (ns % 1000000000ull == 0)
		snprintf(buf, size, "%llus", (unsigned long long)(ns / 1000000000ull));
	else
		snprintf(buf, size, "%llums", (unsigned long long)(ns / 1000000ull));
}

/* Switch the machine to arm `arm` of o: its command, by /bin/sh -c in its own process group,
 * with its environment and SYSAB_ARM=NAME, SYSAB_ROUND=N (the round, 0-based; "setup" before the
 * rounds), stdin from /dev/null and stdout to sysab's stderr (sysab's stdout may be a report).
 * Untimed. A stop signal meanwhile, or o->arm_timeout_ns passing (0: RUN_ARM_TIMEOUT_NS), ends the
 * command's process group (external_wait_group: SIGTERM, SIGKILL after a grace). Returns 0 (also
 * after a stop signal: the caller sees sig_stop), or -1 with e naming the arm, its command and
 * how it failed. */
static int arm_switch(const struct run_opts *o, size_t arm, int round, struct err *e)
{
	const struct run_arm *a = &o->arms[arm];
	struct arm_saved sv;
	char when[48];
	if (round < 0)
		snprintf(when, sizeof when, "before the rounds");
	else
		snprintf(when, sizeof when, "in round %d", round);
	arm_env_push(a, &sv);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid == 0) {
		char r[24];
		if (round < 0)
			snprintf(r, sizeof r, "setup");
		else
			snprintf(r, sizeof r, "%d", round);
		setpgid(0, 0); /* its own process group, which a stop ends as a whole */
		setenv("SYSAB_ARM", a->name, 1);
		setenv("SYSAB_ROUND", r, 1);
		int fd = open("/dev/null", O_RDONLY);
		if (fd >= 0) {
			dup2(fd, 0);
			close(fd);
		}
		dup2(2, 1);
		execl("/bin/sh", "sh", "-c", a->cmd, (char *)NULL);
		_exit(127);
	}
	int err = errno;
	if (pid > 0)
		setpgid(pid, pid); /* as the child does, so that kill(-pid) never misses */
	arm_env_pop(&sv);
	if (pid < 0)
		return errf(e, "--arm %s: cannot start its command %s: %s", a->name, when, strerror(err));
	bool timed_out;
	int status = external_wait_group(pid, o->arm_timeout_ns ? o->arm_timeout_ns : RUN_ARM_TIMEOUT_NS, &timed_out);
	if (status < 0)
		return errf(e, "--arm %s: lost its command %s: %s", a->name, when, strerror(errno));
	if (timed_out) {
		char t[32];
		format_timeout(o->arm_timeout_ns ? o->arm_timeout_ns : RUN_ARM_TIMEOUT_NS, t, sizeof t);
		return errf(e, "--arm %s: its command '%s' did not finish within %s %s (--arm-timeout), so sysab ended "
			       "it: sysab cannot switch to the arm, so the arms cannot be paired",
			    a->name, a->cmd, t, when);
	}
	/* a stop signal (which the command's process group got too) ends the run as a stop */
	if ((WIFEXITED(status) && WEXITSTATUS(status) == 0) || sig_stop)
		return 0;
	if (WIFEXITED(status))
		return errf(e, "--arm %s: its command '%s' failed %s (exit status %d): sysab cannot switch to the arm, "
			       "so the arms cannot be paired",
			    a->name, a->cmd, when, WEXITSTATUS(status));
	return errf(e, "--arm %s: its command '%s' was killed by signal %d %s: sysab cannot switch to the arm, so "
		       "the arms cannot be paired",
		    a->name, a->cmd, WTERMSIG(status), when);
}

/* The arms' order in round `round`: alternate (0 1 .. n-1, reversed every other round, so each
 * arm comes first as often as last) or a fresh shuffle. Without arms: the one "arm" 0. */
static size_t arm_order(const struct runctx *rc, int round, size_t ord[RUN_MAX_ARMS])
{
	const struct run_opts *o = rc->o;
	size_t n = o->narms ? o->narms : 1;
	for (size_t i = 0; i < n; i++)
		ord[i] = round % 2 && o->arm_order == ARM_ORDER_ALTERNATE ? n - 1 - i : i;
	if (n > 1 && o->arm_order == ARM_ORDER_RANDOM)
		gsl_ran_shuffle(rc->rng, ord, n, sizeof *ord);
	return n;
}

/* Rounds order: prepare every job (a paired run: each arm's with the machine switched to it and
 * its environment set, so that its workers inherit both), then rounds of one sample each in a
 * fresh order; a paired run takes each arm's samples of a round together, after switching to it. */
static int run_rounds(struct runctx *rc, struct job *jobs, size_t nj, int *rounds, struct err *e)
{
	const struct run_opts *o = rc->o;
	size_t narms = o->narms ? o->narms : 1;
	for (size_t a = 0; a < narms && !sig_stop; a++) {
		struct arm_saved sv = {0};
		if (o->narms) {
			if (arm_switch(o, a, -1, e))
				return -1;
			arm_env_push(&o->arms[a], &sv);
		}
		int r = 0;
		for (size_t i = 0; i < nj && !sig_stop && !r; i++)
			if (jobs[i].arm == a)
				r = prepare(rc, &jobs[i], e);
		if (o->narms)
			arm_env_pop(&sv);
		if (r)
			return -1;
	}
	struct job **order = xcalloc(nj, sizeof *order);
	size_t nj0 = nj / narms; /* jobs per arm: job i of arm a is jobs[a * nj0 + i] (plan_jobs) */
	bool *want = xcalloc(nj0, sizeof *want);
	uint64_t start = now(rc);
	int round = 0;
	for (; !sig_stop && budget_left(rc, start); round++) {
		size_t ord[RUN_MAX_ARMS], any = 0;
		arm_order(rc, round, ord);
		/* a paired run keeps its arms in step: a job samples while it or its twin in any other
		 * arm wants more, so that every round of one arm has its pair in the others */
		for (size_t i = 0; i < nj0; i++) {
			want[i] = false;
			for (size_t a = 0; a < narms; a++)
				want[i] |= jobs[a * nj0 + i].open && !job_satisfied(o, &jobs[a * nj0 + i]);
		}
		for (size_t ai = 0; ai < narms && !sig_stop; ai++) {
			size_t k = 0;
			for (size_t i = 0; i < nj; i++)
				if (jobs[i].arm == ord[ai] && jobs[i].open && want[i % nj0])
					order[k++] = &jobs[i];
			if (!k)
				continue;
			any++;
			if (o->narms && arm_switch(o, ord[ai], round, e)) {
				free(order);
				free(want);
				return -1;
			}
			if (o->order != ORDER_FIXED)
				gsl_ran_shuffle(rc->rng, order, k, sizeof *order);
			for (size_t i = 0; i < k && !sig_stop; i++) {
				if (sample(rc, order[i], round, e)) {
					free(order);
					free(want);
					return -1;
				}
				progress(rc, "sampling", order[i], round + 1, rc->rounds);
			}
		}
		if (!any)
			break;
	}
	free(order);
	free(want);
	*rounds = round;
	for (size_t i = 0; i < nj; i++) {
		jobs[i].done = !sig_stop;
		if (finish(rc, &jobs[i], e))
			return -1;
	}
	return 0;
}

static int self_exe(char **out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	*out = xstrdup(buf);
	return 0;
}

/* Pin the run to --cpus or bind it to its node if given, and list the CPUs it may use
 * (*allowed, *n). A node the kernel will not bind to sets out->unsupported (0 returned,
 * *allowed NULL); what the binding did goes into bound (the environment). */
static int pin_run(const struct run_opts *o, int **allowed, int *n, struct kvlist *bound, struct run_outcome *out,
		   struct err *e)
{
	*allowed = NULL;
	if (o->node) {
		char *policy;
		long unmoved;
		if (node_bind(o->node, &policy, &unmoved, out->why, sizeof out->why)) {
			out->unsupported = true;
			return 0;
		}
		kv_add(bound, "run.node.cpus", o->node->cpulist);
		kv_add(bound, "run.node.mempolicy", policy);
		kv_addf(bound, "run.node.unmoved_pages", "%ld", unmoved);
		free(policy);
	}
	if (o->cpus) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int i = 0; i < o->ncpus; i++)
			CPU_SET(o->cpus[i], &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0)
			return errf(e, "--cpus %s: cannot pin the run: %s; give CPUs that are online (see `sysab env`)",
				    o->cpus_text, strerror(errno));
	}
	cpu_set_t aff;
	*n = 0;
	*allowed = xcalloc(CPU_SETSIZE, sizeof **allowed);
	if (sched_getaffinity(0, sizeof aff, &aff) == 0) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &aff))
				(*allowed)[(*n)++] = c;
	} else {
		(*allowed)[(*n)++] = 0;
	}
	return 0;
}

size_t runner_jobs(const struct run_opts *o, struct run_quota **out)
{
	struct run_quota *q = xcalloc(o->nwl * o->ncopies + 1, sizeof *q);
	size_t nj = 0;
	bool have_ref = false;
	for (size_t i = 0; i < o->nwl; i++)
		have_ref |= (o->wl[i]->flags & WL_REFERENCE) != 0;
	if (o->host_ref && !have_ref && wl_find("host.ref")) /* the reference: one copy, every round */
		q[nj++] = (struct run_quota){wl_find("host.ref"), 1, o->samples};
	for (size_t i = 0; i < o->nwl; i++)
		for (size_t c = 0; c < o->ncopies; c++) {
			if (o->multi_index_only && o->copies[c] > 1 && !(o->wl[i]->flags & WL_INDEX))
				continue;
			q[nj++] = (struct run_quota){o->wl[i], o->copies[c], o->samples};
		}
	*out = q;
	return nj;
}

/* One job per (workload, copies) of the run, in the order --order asks for, each wanting
 * its quota or o->samples. */
static struct job *plan_jobs(const struct run_opts *o, gsl_rng *rng, size_t *njobs)
{
	struct run_quota *q;
	size_t nj = runner_jobs(o, &q);
	struct job *jobs = xcalloc(nj + 1, sizeof *jobs);
	for (size_t i = 0; i < nj; i++) {
		jobs[i].w = q[i].w;
		jobs[i].copies = q[i].copies;
		jobs[i].want = o->samples;
		for (size_t k = 0; k < o->nquota; k++)
			if (o->quota[k].w == q[i].w && o->quota[k].copies == q[i].copies)
				jobs[i].want = o->quota[k].samples;
	}
	free(q);
	if (o->order != ORDER_FIXED && nj > 1)
		gsl_ran_shuffle(rng, jobs, nj, sizeof *jobs);
	if (o->narms > 1 && nj) { /* each arm its own copy of every job */
		jobs = xrealloc(jobs, nj * o->narms * sizeof *jobs);
		for (size_t a = 1; a < o->narms; a++)
			for (size_t i = 0; i < nj; i++) {
				jobs[a * nj + i] = jobs[i];
				jobs[a * nj + i].arm = a;
			}
		nj *= o->narms;
	}
	*njobs = nj;
	return jobs;
}

/* Count the slots tried, ok, unsupported, failed and short of the precision target. */
static void tally_slots(const struct job *jobs, size_t nj, struct run_outcome *out)
{
	for (size_t i = 0; i < nj; i++) {
		const struct job *j = &jobs[i];
		if (!j->tried)
			continue;
		out->slots++;
		if (j->rc == 0)
			out->slots_ok++;
		else if (j->rc == WL_UNSUPPORTED)
			out->slots_unsupported++;
		else if (j->rc != SLOT_STOPPED)
			out->slots_failed++;
		if (j->rc == 0 && j->short_why[0])
			out->slots_short++;
	}
}

/* Capture the environment (with the counter plan and the noise probe) into env and
 * store the run as running; *run_id is its id. */
static int begin_run(struct store *st, const struct run_opts *o, size_t arm, const char *pair, const char *tmpdir,
		     int probe_cpu, const struct kvlist *bound, struct kvlist *env, struct ctr_plan *plan, int64_t *run_id,
		     struct err *e)
{
	env_capture(env);
	for (size_t i = 0; i < bound->n; i++)
		kv_add(env, bound->v[i].key, bound->v[i].value);
	env_add_tmpfs(env, tmpdir);
	counters_plan(o->counters, plan);
	counters_env(plan, env);
	if (o->probe_ns) {
		struct probe_result pr;
		probe_run(o->probe_ns, probe_cpu, &pr);
		probe_env(&pr, env);
	}
	if (o->cpus_text)
		kv_add(env, "run.cpus", o->cpus_text);
	if (o->pressure) {
		kv_add(env, "run.icache_pressure", o->pressure->spec);
		kv_addf(env, "run.icache_pressure.code_bytes", "%zu", o->pressure->code_bytes);
		kv_addf(env, "run.icache_pressure.data_bytes", "%zu", o->pressure->data_bytes);
		kv_add(env, "run.icache_pressure.sizes", o->pressure->source);
	}
	kv_sort(env);
	char *settings = settings_json(o, arm, pair);
	struct kvlist labels = {0}; /* a paired run: the user's labels and arm=NAME */
	for (size_t i = 0; o->narms && o->labels && i < o->labels->n; i++)
		kv_add(&labels, o->labels->v[i].key, o->labels->v[i].value);
	if (o->narms) {
		kv_add(&labels, "arm", o->arms[arm].name);
		kv_sort(&labels);
	}
	struct store_run_new rn = {
		.started_ns = clock_wall_ns(),
		.status = "running",
		.source = "sysab",
		.seed = o->seed,
		.settings = settings,
		.labels = o->narms ? &labels : o->labels,
		.env = env,
	};
	env_host(env, &rn.host);
	int rc = store_run_begin(st, &rn, run_id, e);
	free(settings);
	kv_free(&labels);
	return rc;
}

/* Record the load after the run and its final status: complete, or incomplete with the
 * error (werr: e holds it) or stop signal (also after an error that the signal caused:
 * out->stop_cut), or complete with the workloads that stopped short
 * of the precision target. Returns 0, or -1 with e set when the database failed (after an
 * error of the run, e keeps that error). */
static int finish_run(struct store *st, const struct run_opts *o, struct run_outcome *out, double min_overhead,
		      int werr, const char *tmpdir, struct err *e)
{
	struct stat tb;
	char *load = env_loadavg();
	struct err e2;
	store_run_env(st, out->run_id, "load.after", load, &e2);
	free(load);
	/* The run's summary row, once, with everything of the run stored (a slot's samples or an
	 * environment entry written after it would delete it: the schema's triggers), and before
	 * the run counts as finished, so that no reader sees it finished without its row. Also
	 * after an error of the run (its samples so far are kept), but not when a stop signal
	 * cut a wait for the database's lock short: the store no longer waits. */
	if (!out->stop_cut && runsum_put(st, out->run_id, &out->summary_why))
		out->summary_lost = true;
	const char *status = "complete";
	char *reason = NULL;
	if (werr && !out->stop_cut) {
		status = "incomplete";
		reason = xasprintf("stopped by an error: %s", e->msg);
	} else if (sig_stop) {
		status = "incomplete";
		const char *abbr = sigabbrev_np(sig_stop);
		reason = sig_stop == SIGXFSZ ? xstrdup("stopped by SIGXFSZ: the file size limit (ulimit -f) is reached")
			 : abbr	     ? xasprintf("stopped by SIG%s", abbr)
				     : xasprintf("stopped by signal %d", (int)sig_stop);
	} else if (lstat(tmpdir, &tb) != 0 || !S_ISDIR(tb.st_mode)) {
		/* someone removed it: the workloads after that could not make their files */
		status = "incomplete";
		reason = xasprintf("its temporary directory %s vanished during the run", tmpdir);
	} else if (out->slots_short) {
		reason = xasprintf("precision target ±%.3g%% not reached for %d of %d workloads; see their notes",
				   o->target_ci * 100, out->slots_short, out->slots_ok);
	}
	int rc = store_run_finish(st, out->run_id, status, reason, min_overhead, werr ? &e2 : e);
	free(reason);
	return rc;
}

static void jobs_free(struct job *jobs, size_t nj)
{
	for (size_t i = 0; i < nj; i++) {
		for (int k = 0; k < CTR_NEVENTS; k++)
			free(jobs[i].cnt[k]);
		free(jobs[i].y);
		free(jobs[i].round);
		free(jobs[i].dir);
	}
	free(jobs);
}

/* The environment's padding of a run: 0-4095 bytes (hyperfine's range), drawn from the seed by
 * its own mix (splitmix64's) so that the workload order's stream stays as it was. */
static size_t env_pad_size(uint64_t seed)
{
	uint64_t z = seed ^ 0x53595341424e56ull; /* "SYSABNV" */
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (size_t)((z ^ (z >> 31)) % 4096);
}

/* The environment's padding while a run lasts (run_opts.randomize_env). */
struct env_pad {
	char *had;   /* SYSAB_ENV_PAD before the run (NULL: unset) */
	bool set;
};

/* Set SYSAB_ENV_PAD to pad bytes, so that every process the run starts (exec'd workloads, arm
 * commands) sees an environment that much larger; record the size in bound. Without
 * randomize_env, record "off" and touch nothing. */
static void env_pad_push(const struct run_opts *o, size_t pad, struct env_pad *sv, struct kvlist *bound)
{
	memset(sv, 0, sizeof *sv);
	if (!o->randomize_env) {
		kv_add(bound, "run.env_pad", "off");
		return;
	}
	const char *had = getenv("SYSAB_ENV_PAD");
	sv->had = had ? xstrdup(had) : NULL;
	char *v = xmalloc(pad + 1);
	memset(v, 'x', pad);
	v[pad] = 0;
	sv->set = setenv("SYSAB_ENV_PAD", v, 1) == 0;
	free(v);
	kv_addf(bound, "run.env_pad", "%zu", pad);
}

/* The environment as it was before env_pad_push. */
static void env_pad_pop(struct env_pad *sv)
{
	if (sv->set) {
		if (sv->had)
			setenv("SYSAB_ENV_PAD", sv->had, 1);
		else
			unsetenv("SYSAB_ENV_PAD");
	}
	free(sv->had);
	sv->had = NULL;
	sv->set = false;
}

/* Long by design: the run's phases in order (pin, temp dir, arms, begin, rounds, finish), each
 * with what its failure must undo. */
int runner_run(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	int rc = -1;
	struct kvlist env = {0}, bound = {0};
	char *tmpdir = NULL, *exe = NULL;
	int tmplock = -1;
	struct job *jobs = NULL;
	size_t nj = 0;
	int *allowed = NULL;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
	gsl_rng_set(rng, (unsigned long)o->seed);
	size_t pad = o->randomize_env ? env_pad_size(o->seed) : 0;
	struct env_pad padsv;
	env_pad_push(o, pad, &padsv, &bound);

	/* Workers left behind by a workload are re-parented to us, so we can reap them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	int nallowed = 0;
	if (pin_run(o, &allowed, &nallowed, &bound, out, e))
		goto out;
	if (out->unsupported) {
		rc = 0;
		goto out;
	}

	tmpdir_reap_stale();
	if (tmpdir_create_held(&tmpdir, &tmplock, e))
		goto out;
	if (self_exe(&exe))
		exe = xstrdup("/proc/self/exe");

	struct ctr_plan plan;
	size_t narms = o->narms ? o->narms : 1, begun = 0;
	char pair[40];
	snprintf(pair, sizeof pair, "%016llx%08llx", (unsigned long long)clock_wall_ns(), (unsigned long long)getpid());
	/* a paired run: every arm's command once before anything is stored, so that a command that
	 * fails leaves nothing behind; then each arm's run begins with the machine in its state */
	for (size_t a = 0; a < o->narms; a++)
		if (arm_switch(o, a, -1, e))
			goto out;
	if (o->narms && sig_stop) { /* stopped before anything was stored */
		out->stop_signal = sig_stop;
		rc = 0;
		goto out;
	}
	int werr = 0;
	for (; begun < narms && !werr; begun++) {
		kv_free(&env);
		werr = (o->narms && arm_switch(o, begun, -1, e)) ||
		       begin_run(st, o, begun, pair, tmpdir, allowed[0], &bound, &env, &plan, &out->arm_run_id[begun], e);
		if (werr && !begun)
			goto out;
	}
	if (werr)
		begun--;
	out->run_id = out->arm_run_id[0];

	jobs = plan_jobs(o, rng, &nj);
	for (size_t i = 0; i < nj; i++)
		jobs[i].run_id = out->arm_run_id[jobs[i].arm];

	struct runctx ctx = {
		.st = st,
		.o = o,
		.tmpdir = tmpdir,
		.self_exe = exe,
		.cpus = allowed,
		.ncpus = nallowed,
		.steps = 0,
		.min_overhead = -1,
		.rng = rng,
		.plan = plan,
		.stack_pad = pad,
	};
	int most = 0;
	for (size_t i = 0; i < nj; i++) {
		ctx.steps += jobs[i].want + 1;
		most = jobs[i].want > most ? jobs[i].want : most;
	}
	ctx.rounds = most;
	char emu_why[256];
	ctx.emulated = env_emulated(emu_why, sizeof emu_why);
	ctx.t_start = now(&ctx);
	if (!werr)
		werr = o->order == ORDER_ROUNDS ? run_rounds(&ctx, jobs, nj, &out->rounds, e)
						: run_blocked(&ctx, jobs, nj, e);
	out->stop_cut = werr && sig_stop && store_stopped_waiting(st);
	if (out->stop_cut)
		out->slots_unrecorded = finish_stopped(&ctx, jobs, nj);
	/* After a database error, workers may still run: stop them before their directory goes. */
	for (size_t i = 0; i < nj; i++)
		if (jobs[i].s.alive)
			slot_close(&jobs[i].s, NULL);
	tally_slots(jobs, nj, out);
	out->wall_ns = now(&ctx) - ctx.t_start;
	out->stop_signal = sig_stop;

	/* every arm's run that began ends with the same status */
	int ferr = 0;
	for (size_t a = 0; a < begun; a++) {
		out->run_id = out->arm_run_id[a];
		ferr |= finish_run(st, o, out, ctx.min_overhead, werr, tmpdir, e);
	}
	out->run_id = out->arm_run_id[0];
	if (ferr)
		goto out;
	out->end_recorded = true;
	rc = werr ? -1 : 0;
out:
	env_pad_pop(&padsv);
	if (tmpdir)
		tmpdir_remove_held(tmpdir, tmplock);
	free(tmpdir);
	free(exe);
	jobs_free(jobs, nj);
	free(allowed);
	gsl_rng_free(rng);
	kv_free(&env);
	kv_free(&bound);
	return rc;
}
