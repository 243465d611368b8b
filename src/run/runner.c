/* runner.c - the run loop: environment, order, setup, warm-up, calibration, samples, cleanup. */
#include "runner.h"
#include "calibrate.h"
#include "env.h"
#include "slot.h"
#include "core/tmp.h"

#include <errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <jansson.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

struct job {
	const struct workload *w;
	int copies;
};

static char *settings_json(const struct run_opts *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "profile", json_string(o->profile));
	json_object_set_new(j, "samples", json_integer(o->samples));
	json_object_set_new(j, "sample_ns", json_integer((json_int_t)o->sample_ns));
	json_object_set_new(j, "warmup_ns", json_integer((json_int_t)o->warmup_ns));
	json_object_set_new(j, "order", json_string(o->shuffle ? "shuffled" : "fixed"));
	json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
	json_t *c = json_array();
	for (size_t i = 0; i < o->ncopies; i++)
		json_array_append_new(c, json_integer(o->copies[i]));
	json_object_set_new(j, "copies", c);
	json_t *w = json_array();
	for (size_t i = 0; i < o->nwl; i++)
		json_array_append_new(w, json_string(o->wl[i]->name));
	json_object_set_new(j, "workloads", w);
	json_object_set_new(j, "cpus", o->cpus_text ? json_string(o->cpus_text) : json_null());
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	return s;
}

static char *checks_json(const struct workload *w, const struct slot_checks *c)
{
	if (!c->n)
		return NULL;
	json_t *a = json_array();
	for (int i = 0; i < c->n; i++)
		json_array_append_new(a, json_pack("{s:s, s:f, s:f, s:f, s:b}", "name", w->checks[i].name, "value",
						   c->value[i], "lo", w->checks[i].lo, "hi", w->checks[i].hi, "ok",
						   c->ok[i]));
	char *s = json_dumps(a, JSON_COMPACT);
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

struct runctx {
	struct store *st;
	const struct run_opts *o;
	int64_t run_id;
	const char *tmpdir;
	const char *self_exe;
	const int *cpus;
	int ncpus;
	uint64_t t_start;
	int slot_index, nslots;
	double min_overhead;
};

/* Measure one (workload, copies): open, calibrate, warm up, sample, close; record it all. */
static int measure(struct runctx *rc, const struct job *j, struct err *e)
{
	const struct run_opts *o = rc->o;
	struct slot s;
	struct slot_cfg cfg = {
		.w = j->w,
		.copies = j->copies,
		.tmpdir = rc->tmpdir,
		.self_exe = rc->self_exe,
		.cpus = rc->cpus,
		.ncpus = rc->ncpus,
		.timeout_ns = o->sample_ns * 200 + 60000000000ull,
	};
	struct store_slot rec = {
		.workload = j->w->name,
		.copies = j->copies,
		.unit = j->w->unit,
		.latency = (j->w->flags & WL_LATENCY) != 0,
	};
	if (o->progress)
		o->progress(o->progress_arg, j->w->name, j->copies, rc->slot_index, rc->nslots, 0, o->samples,
			    clock_raw_ns() - rc->t_start, 0);
	int r;
	if ((j->w->flags & WL_NEEDS_2CPU) && rc->ncpus < 2) {
		r = WL_UNSUPPORTED;
		snprintf(s.why, sizeof s.why, "needs two CPUs; this run may use %d", rc->ncpus);
	} else {
		r = slot_open(&s, &cfg);
	}
	if (r) {
		rec.status = status_word(r);
		rec.reason = s.why;
		return store_slot_put(rc->st, rc->run_id, &rec, e) ? -1 : r;
	}
	rec.overhead_ns = slot_empty_cost(&s);
	if (rec.overhead_ns >= 0 && (rc->min_overhead < 0 || rec.overhead_ns < rc->min_overhead))
		rc->min_overhead = rec.overhead_ns;

	/* Calibrate, then warm up at the calibrated size. */
	uint64_t n = 1;
	bool done = false;
	struct slot_batch b;
	while (!done && !sig_stop) {
		if ((r = slot_batch(&s, n, &b)))
			goto out;
		n = calib_next(n, b.elapsed_ns, o->sample_ns, &done);
	}
	rec.batch_ops = n;
	uint64_t warm_end = clock_raw_ns() + o->warmup_ns;
	while (!sig_stop && clock_raw_ns() < warm_end)
		if ((r = slot_batch(&s, n, &b)))
			goto out;

	for (int i = 0; i < o->samples && !sig_stop; i++) {
		if ((r = slot_batch(&s, n, &b)))
			goto out;
		struct store_sample x = {
			.workload = j->w->name,
			.copies = j->copies,
			.seq = i,
			.round = -1,
			.ops = b.ops,
			.elapsed_ns = b.elapsed_ns,
			.value = b.value,
		};
		if (store_sample_add(rc->st, rc->run_id, &x, e)) {
			slot_close(&s, NULL);
			return -1;
		}
		if (o->progress) {
			uint64_t el = clock_raw_ns() - rc->t_start;
			double frac = ((double)rc->slot_index + (double)(i + 1) / o->samples) / rc->nslots;
			o->progress(o->progress_arg, j->w->name, j->copies, rc->slot_index, rc->nslots, i + 1,
				    o->samples, el, (uint64_t)((double)el / frac * (1 - frac)));
		}
	}
	if (sig_stop)
		r = SLOT_STOPPED;
out:;
	struct slot_checks chk = {0};
	slot_close(&s, r ? NULL : &chk);
	char *cj = r ? NULL : checks_json(j->w, &chk);
	rec.status = status_word(r);
	rec.reason = r ? s.why : NULL;
	if (r == SLOT_STOPPED)
		rec.reason = "stopped by a signal";
	rec.checks = cj;
	int wr = store_slot_put(rc->st, rc->run_id, &rec, e);
	free(cj);
	return wr ? -1 : r;
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

int runner_run(struct store *st, const struct run_opts *o, struct run_outcome *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	int rc = -1;
	struct kvlist env = {0};
	char *settings = NULL, *tmpdir = NULL, *exe = NULL;
	struct job *jobs = NULL;
	int *allowed = NULL;

	/* Workers left behind by a workload are re-parented to us, so we can reap them. */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	if (o->cpus) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (int i = 0; i < o->ncpus; i++)
			CPU_SET(o->cpus[i], &set);
		if (sched_setaffinity(0, sizeof set, &set) < 0) {
			errf(e, "--cpus %s: cannot pin the run: %s; give CPUs that are online (see `sysab env`)",
			     o->cpus_text, strerror(errno));
			goto out;
		}
	}
	cpu_set_t aff;
	int nallowed = 0;
	allowed = xcalloc(CPU_SETSIZE, sizeof *allowed);
	if (sched_getaffinity(0, sizeof aff, &aff) == 0) {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &aff))
				allowed[nallowed++] = c;
	} else {
		allowed[nallowed++] = 0;
	}

	tmpdir_reap_stale();
	if (tmpdir_create(&tmpdir, e))
		goto out;
	if (self_exe(&exe))
		exe = xstrdup("/proc/self/exe");

	env_capture(&env);
	if (o->cpus_text)
		kv_add(&env, "run.cpus", o->cpus_text);
	kv_sort(&env);
	settings = settings_json(o);
	struct store_run_new rn = {
		.started_ns = clock_wall_ns(),
		.status = "running",
		.source = "sysab",
		.seed = o->seed,
		.settings = settings,
		.labels = o->labels,
		.env = &env,
	};
	env_host(&env, &rn.host);
	if (store_run_begin(st, &rn, &out->run_id, e))
		goto out;

	size_t nj = o->nwl * o->ncopies;
	jobs = xcalloc(nj, sizeof *jobs);
	for (size_t i = 0; i < o->nwl; i++)
		for (size_t c = 0; c < o->ncopies; c++)
			jobs[i * o->ncopies + c] = (struct job){o->wl[i], o->copies[c]};
	if (o->shuffle && nj > 1) {
		gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
		gsl_rng_set(r, (unsigned long)o->seed);
		gsl_ran_shuffle(r, jobs, nj, sizeof *jobs);
		gsl_rng_free(r);
	}

	struct runctx ctx = {
		.st = st,
		.o = o,
		.run_id = out->run_id,
		.tmpdir = tmpdir,
		.self_exe = exe,
		.cpus = allowed,
		.ncpus = nallowed,
		.t_start = clock_raw_ns(),
		.nslots = (int)nj,
		.min_overhead = -1,
	};
	int werr = 0;
	for (size_t i = 0; i < nj && !sig_stop; i++) {
		ctx.slot_index = (int)i;
		int r = measure(&ctx, &jobs[i], e);
		out->slots++;
		if (r == -1) {
			werr = 1;
			break;
		}
		if (r == 0)
			out->slots_ok++;
		else if (r == WL_UNSUPPORTED)
			out->slots_unsupported++;
		else if (r != SLOT_STOPPED)
			out->slots_failed++;
	}
	out->wall_ns = clock_raw_ns() - ctx.t_start;
	out->stop_signal = sig_stop;

	char *load = env_loadavg();
	struct err e2;
	store_run_env(st, out->run_id, "load.after", load, &e2);
	free(load);
	const char *status = "complete";
	char *reason = NULL;
	if (werr) {
		status = "incomplete";
		reason = xasprintf("stopped by an error: %s", e->msg);
	} else if (sig_stop) {
		status = "incomplete";
		const char *abbr = sigabbrev_np(sig_stop);
		reason = abbr ? xasprintf("stopped by SIG%s", abbr) : xasprintf("stopped by signal %d", (int)sig_stop);
	}
	if (store_run_finish(st, out->run_id, status, reason, ctx.min_overhead, werr ? &e2 : e)) {
		free(reason);
		goto out;
	}
	free(reason);
	rc = werr ? -1 : 0;
out:
	if (tmpdir)
		tmpdir_remove(tmpdir);
	free(tmpdir);
	free(exe);
	free(settings);
	free(jobs);
	free(allowed);
	kv_free(&env);
	return rc;
}
