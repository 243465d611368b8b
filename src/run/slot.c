/* slot.c - worker processes for one (workload, copies): setup, timed batches on a barrier, teardown. */
#include "slot.h"
#include "core/testhooks.h"
#include "core/core.h"
#include "core/tmp.h"

#include <alloca.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

enum cmd_type { CMD_BATCH = 1, CMD_EMPTY, CMD_QUIT };

struct cmd {
	int type;
	int sampled; /* the batch is a sample: its usage and counts feed the self-checks */
	uint64_t n;
};

struct reply {
	int rc;
	uint64_t elapsed_ns;
	uint64_t t0, t1; /* the batch's start and end on CLOCK_MONOTONIC_RAW, shared by all copies */
	uint64_t wall_ns; /* under pressure: the whole batch, sweeps and all */
	struct slot_checks checks;
	char why[WL_WHY_MAX];
};

/* --- the worker side --- */

/* What the self-checks judge: the sampled batches only, not calibration or warm-up. */
struct totals {
	uint64_t ops;
	struct wl_usage usage;
	uint64_t count[2];
	struct wl_check_tally tally; /* each sampled batch judged on its own */
	struct node_place place;     /* a per-node run: the CPUs of the sampled batches */
	uint64_t sweeps, sweeps_short; /* under pressure: the sweeps before the sampled ops */
};

static void eval_checks(const struct workload *w, const struct wl_ctx *ctx, const struct totals *t,
			struct slot_checks *out)
{
	memset(out, 0, sizeof *out);
	wl_check_judge(w, ctx, &t->usage, t->count, t->ops, &t->tally, out->value, out->ok);
	out->tally = t->tally;
	while (out->n < WL_MAX_CHECKS && w->checks[out->n].metric != WL_M_NONE)
		out->n++;
	memcpy(out->why, ctx->cannot_check, sizeof out->why);
}

static bool write_all(int fd, const void *p, size_t n)
{
	while (n) {
		ssize_t r = write(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p = (const char *)p + r;
		n -= (size_t)r;
	}
	return true;
}

static bool read_all(int fd, void *p, size_t n)
{
	while (n) {
		ssize_t r = read(fd, p, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		p = (char *)p + r;
		n -= (size_t)r;
	}
	return true;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void barrier_wait(void *b)
{
	pthread_barrier_wait(b);
}

/* One copy's process: set up the workload, then answer the parent's commands until it quits.
 * Long by design: the command loop holds every command's case (empty batch, batch, quit). */
static __attribute__((noreturn)) void worker(const struct slot_cfg *cfg, int copy, int cmd_fd, int res_fd,
					     pthread_barrier_t *barrier)
{
	signal(SIGINT, SIG_IGN); /* the parent decides when a worker stops */
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	const struct workload *w = cfg->w;
	/* Copy i sees the run's CPUs rotated by i, so workloads that pin to cpus[0] (and
	 * cpus[1]) spread their copies over the CPUs instead of piling onto one. */
	int *cpus = xcalloc((size_t)cfg->ncpus, sizeof *cpus);
	for (int i = 0; i < cfg->ncpus; i++)
		cpus[i] = cfg->cpus[(i + copy) % cfg->ncpus];
	struct wl_ctx ctx = {
		.copy = copy,
		.ncopies = cfg->copies,
		.tmpdir = cfg->tmpdir,
		.self_exe = cfg->self_exe,
		.page_size = sysconf(_SC_PAGESIZE),
		.ncpus = cfg->ncpus,
		.cpus = cpus,
		.emulated = cfg->emulated,
		.param = w->param,
	};
	struct reply rep = {0};
	struct wl_sweep sweep = {0};
	rep.rc = wl_enter(w, &ctx);
	if (!rep.rc && cfg->pressure) { /* after wl_enter: the buffer is placed where the copy runs */
		rep.rc = wl_sweep_open(&sweep, cfg->pressure, ctx.why, sizeof ctx.why);
		if (rep.rc)
			wl_leave(w, &ctx);
		else {
			/* the seam of tests/e2e/t_icache.sh: every sweep falls short, its check fails */
			sweep.omit = testhooks()->short_sweep;
			wl_sweep_run(&sweep); /* the code's pages faulted in before any batch */
			ctx.sweep = &sweep;
			wl_pressure_uncheckable(w, &ctx);
		}
	}
	memcpy(rep.why, ctx.why, sizeof rep.why);
	if (!write_all(res_fd, &rep, sizeof rep) || rep.rc != 0)
		_exit(rep.rc ? 1 : 2);

	struct totals tot = {0};
	struct cmd c;
	while (read_all(cmd_fd, &c, sizeof c)) {
		memset(&rep, 0, sizeof rep);
		if (c.type == CMD_QUIT)
			break;
		if (c.type == CMD_EMPTY) {
			uint64_t t[51];
			for (int i = 0; i < 51; i++) {
				if (ctx.sweep)
					wl_sweep_run(ctx.sweep);
				uint64_t t0 = clock_raw_ns();
				w->run(&ctx, 0);
				t[i] = clock_raw_ns() - t0;
			}
			qsort(t, 51, sizeof t[0], cmp_u64);
			rep.elapsed_ns = t[25];
		} else {
			struct wl_usage bu = {0};
			uint64_t bc[2] = {0, 0};
			uint64_t s0 = sweep.sweeps, p0 = sweep.partial;
			rep.rc = wl_batch(w, &ctx, c.n, barrier_wait, barrier, &rep.t0, &rep.t1, c.sampled, &bu, bc);
			rep.elapsed_ns = rep.t1 - rep.t0;
			rep.wall_ns = ctx.sweep ? sweep.wall_ns : 0;
			if (c.sampled && !rep.rc) {
				static const struct wl_usage none;
				tot.sweeps += sweep.sweeps - s0;
				tot.sweeps_short += sweep.partial - p0;
				wl_check_tally_add(w, &ctx, &bu, bc, c.n, &tot.tally);
				wl_usage_add_delta(&tot.usage, &none, &bu);
				tot.usage.run_ns += bu.run_ns;
				tot.count[0] += bc[0];
				tot.count[1] += bc[1];
				tot.ops += c.n;
				if (cfg->node)
					node_place_cpu(&tot.place, cfg->node->cpus, cfg->node->ncpus);
			}
			memcpy(rep.why, ctx.why, sizeof rep.why);
		}
		if (!write_all(res_fd, &rep, sizeof rep))
			break;
		if (rep.rc)
			break; /* the parent stops this slot */
	}
	if (cfg->node) { /* the pages while the workload's memory is still mapped */
		tot.place.on = true;
		node_place_pages(&tot.place, cfg->node->mem_id);
	}
	wl_leave(w, &ctx);
	wl_sweep_close(&sweep);
	memset(&rep, 0, sizeof rep);
	eval_checks(w, &ctx, &tot, &rep.checks);
	rep.checks.place = tot.place;
	rep.checks.sweeps = tot.sweeps;
	rep.checks.sweeps_short = tot.sweeps_short;
	rep.checks.ops = tot.ops;
	write_all(res_fd, &rep, sizeof rep);
	_exit(0);
}

/* Close every descriptor from 3 up except keep_a and keep_b: a worker holds only its own
 * two pipes, not the database or other workers' pipes (so it costs no descriptors that a
 * low `ulimit -n` would miss, and no pipe stays open after its owner is gone). */
static void close_other_fds(int keep_a, int keep_b)
{
	DIR *d = opendir("/proc/self/fd");
	if (!d)
		return;
	int self = dirfd(d);
	struct dirent *de;
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);
		if (fd > 2 && fd != self && fd != keep_a && fd != keep_b)
			close(fd);
	}
	closedir(d);
}

/* --- the parent side --- */

static void kill_all(struct slot *s)
{
	if (s->pgid > 0)
		kill(-s->pgid, SIGKILL);
	for (int i = 0; i < s->cfg.copies; i++)
		if (s->pid[i] > 0)
			kill(s->pid[i], SIGKILL);
}

/* Reap the workers and everything else in their process group. A process a workload
 * started and left behind is killed here (it would otherwise outlive the slot); it was
 * re-parented to us when its parent died, since we are a child subreaper. The group is
 * killed while worker 0, its leader, is not yet reaped, so its id cannot have been reused.
 * Only this group is waited for: another slot's workers are never reaped here. */
static void reap_all(struct slot *s)
{
	if (s->pgid > 0)
		kill(-s->pgid, SIGKILL);
	for (int i = 0; i < s->cfg.copies; i++) {
		if (s->pid[i] <= 0)
			continue;
		while (waitpid(s->pid[i], NULL, 0) < 0 && errno == EINTR)
			;
		s->pid[i] = 0;
	}
	if (s->pgid > 0)
		while (waitpid(-s->pgid, NULL, 0) > 0 || errno == EINTR)
			;
	s->pgid = 0;
}

static void release(struct slot *s)
{
	for (int i = 0; i < s->cfg.copies; i++) {
		if (s->cmd[i] >= 0)
			close(s->cmd[i]);
		if (s->res[i] >= 0)
			close(s->res[i]);
	}
	if (s->barrier) {
		pthread_barrier_destroy(s->barrier);
		munmap(s->barrier, sizeof *s->barrier);
	}
	free(s->pid);
	free(s->cmd);
	free(s->res);
	s->pid = NULL;
	s->cmd = s->res = NULL;
	s->barrier = NULL;
	s->alive = 0;
}

static void abort_slot(struct slot *s)
{
	kill_all(s);
	reap_all(s);
	release(s);
}

/* Is a worker stopped (SIGSTOP, SIGTSTP, a debugger)? Read from /proc/PID/stat; false
 * when that cannot be read. */
/* The worker with its stack shifted by cfg->stack_pad bytes (rounded up to 16, the stack's
 * alignment), as a larger environment at sysab's start would shift it: the frames of the
 * workload's loop land elsewhere relative to cache lines and pages. Not inlined, so that the
 * shift is a frame of its own below which the worker runs. */
static __attribute__((noreturn, noinline)) void worker_shifted(const struct slot_cfg *cfg, int copy, int cmd_fd,
							  int res_fd, pthread_barrier_t *barrier)
{
	size_t n = (cfg->stack_pad + 15) & ~(size_t)15;
	volatile char *shift = alloca(n + 16); /* 16 more: a zero pad allocates too, so shifts differ by n */
	shift[0] = 0; /* the shift is used, so it stays */
	worker(cfg, copy, cmd_fd, res_fd, barrier);
}

static bool any_worker_stopped(const struct slot *s)
{
	for (int i = 0; i < s->cfg.copies; i++) {
		if (s->pid[i] <= 0)
			continue;
		char path[40], buf[512];
		snprintf(path, sizeof path, "/proc/%d/stat", (int)s->pid[i]);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		ssize_t r = read(fd, buf, sizeof buf - 1);
		close(fd);
		if (r <= 0)
			continue;
		buf[r] = 0;
		const char *p = strrchr(buf, ')'); /* the state follows the command name */
		if (p && p[1] == ' ' && (p[2] == 'T' || p[2] == 't'))
			return true;
	}
	return false;
}

/* How far the hang clock advances over one wait of collect() that ended at now, begun at
 * last: the time waited, but nothing while a worker is stopped, and at most HANG_GAP_NS
 * for one wait, since a longer gap between two polls of 200 ms means that sysab itself was
 * stopped (kill -STOP, Ctrl-Z) or not scheduled, which is no sign of a hung workload. */
#define HANG_GAP_NS 1000000000ull
static uint64_t hang_advance(const struct slot *s, uint64_t last, uint64_t now, bool idle)
{
	if (idle && any_worker_stopped(s))
		return 0;
	uint64_t d = now > last ? now - last : 0;
	return d < HANG_GAP_NS ? d : HANG_GAP_NS;
}

/* Read what the pollfds pf[0..np) say is ready into reps; got counts the complete replies.
 * Returns 0, or WL_ERROR with s->why set when a worker's pipe closed. */
static int read_ready(struct slot *s, struct reply *reps, size_t *have, const struct pollfd *pf, int np, int *got)
{
	for (int j = 0; j < np; j++) {
		if (!pf[j].revents)
			continue;
		int i = 0;
		while (i < s->cfg.copies && s->res[i] != pf[j].fd)
			i++;
		if (i == s->cfg.copies || have[i] >= sizeof reps[i])
			continue;
		ssize_t r = read(s->res[i], (char *)&reps[i] + have[i], sizeof reps[i] - have[i]);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(s->why, sizeof s->why, "worker %d of %s exited unexpectedly", i, s->cfg.w->name);
			return WL_ERROR;
		}
		have[i] += (size_t)r;
		if (have[i] == sizeof reps[i])
			(*got)++;
	}
	return 0;
}

/* Read one reply from every worker. What the workers sent is read before any timeout is
 * judged. The batch is hung when the hang clock (hang_advance: the wait, without the time
 * sysab or a worker spent stopped) passes timeout_ns. Waits while stop is requested for at
 * most a short grace period, then gives up. Returns 0, SLOT_STOPPED, or WL_ERROR (worker
 * died or hung). */
static int collect(struct slot *s, struct reply *reps, uint64_t timeout_ns)
{
	int n = s->cfg.copies;
	int got = 0;
	size_t *have = xcalloc((size_t)n, sizeof *have);
	struct pollfd *pf = xcalloc((size_t)n, sizeof *pf);
	uint64_t last = clock_raw_ns(), waited = 0, stop_seen = 0;
	int rc = 0;
	while (got < n) {
		int np = 0;
		for (int i = 0; i < n; i++)
			if (have[i] < sizeof reps[i]) {
				pf[np].fd = s->res[i];
				pf[np].events = POLLIN;
				pf[np].revents = 0;
				np++;
			}
		int pr = poll(pf, (nfds_t)np, 200);
		if (pr > 0 && (rc = read_ready(s, reps, have, pf, np, &got)))
			break;
		if (got == n)
			break;
		uint64_t now = clock_raw_ns();
		waited += hang_advance(s, last, now, pr == 0);
		last = now;
		if (sig_stop && !stop_seen)
			stop_seen = now;
		if (stop_seen && now - stop_seen > 3000000000ull) {
			rc = SLOT_STOPPED;
			break;
		}
		if (waited > timeout_ns) {
			snprintf(s->why, sizeof s->why, "a batch did not finish within %.*f s; the workload hung",
				 timeout_ns < 10000000000ull ? 1 : 0, (double)timeout_ns / 1e9);
			rc = WL_ERROR;
			break;
		}
	}
	free(have);
	free(pf);
	return rc;
}

int slot_open(struct slot *s, const struct slot_cfg *cfg)
{
	memset(s, 0, sizeof *s);
	s->cfg = *cfg;
	int n = cfg->copies;
	s->pid = xcalloc((size_t)n, sizeof *s->pid);
	s->cmd = xcalloc((size_t)n, sizeof *s->cmd);
	s->res = xcalloc((size_t)n, sizeof *s->res);
	for (int i = 0; i < n; i++)
		s->cmd[i] = s->res[i] = -1;
	s->barrier = mmap(NULL, sizeof *s->barrier, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s->barrier == MAP_FAILED) {
		s->barrier = NULL;
		snprintf(s->why, sizeof s->why, "cannot map the start barrier: %s", strerror(errno));
		release(s);
		return WL_NORESOURCE;
	}
	pthread_barrierattr_t ba;
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(s->barrier, &ba, (unsigned)n);
	pthread_barrierattr_destroy(&ba);

	pid_t parent = getpid();
	for (int i = 0; i < n; i++) {
		int c[2], r[2];
		if (pipe2(c, O_CLOEXEC) < 0) {
			snprintf(s->why, sizeof s->why, "pipe for worker %d: %s%s", i, strerror(errno),
				 errno == EMFILE ? " (the open file limit, ulimit -n, is reached)" : "");
			abort_slot(s);
			return WL_NORESOURCE;
		}
		if (pipe2(r, O_CLOEXEC) < 0) {
			snprintf(s->why, sizeof s->why, "pipe for worker %d: %s%s", i, strerror(errno),
				 errno == EMFILE ? " (the open file limit, ulimit -n, is reached)" : "");
			close(c[0]);
			close(c[1]);
			abort_slot(s);
			return WL_NORESOURCE;
		}
		pid_t pid = fork();
		if (pid < 0) {
			int err = errno;
			snprintf(s->why, sizeof s->why, "fork of worker %d: %s%s", i, strerror(err),
				 err == EAGAIN ? " (the process limit, ulimit -u, or memory is exhausted)" : "");
			close(c[0]), close(c[1]), close(r[0]), close(r[1]);
			abort_slot(s);
			return err == EAGAIN || err == ENOMEM ? WL_NORESOURCE : WL_ERROR;
		}
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() != parent)
				_exit(1);
			setpgid(0, s->pgid); /* all copies in one process group, apart from our terminal's */
			close_other_fds(c[0], r[1]);
			worker_shifted(cfg, i, c[0], r[1], s->barrier);
		}
		if (!s->pgid)
			s->pgid = pid;
		setpgid(pid, s->pgid);
		s->pid[i] = pid;
		close(c[0]);
		close(r[1]);
		s->cmd[i] = c[1];
		s->res[i] = r[0];
	}
	s->alive = 1;
	struct reply *reps = xcalloc((size_t)n, sizeof *reps);
	int rc = collect(s, reps, 120000000000ull);
	for (int i = 0; i < n && rc == 0; i++)
		if (reps[i].rc) {
			rc = reps[i].rc;
			snprintf(s->why, sizeof s->why, "%s", reps[i].why);
		}
	free(reps);
	if (rc) {
		abort_slot(s);
		return rc == SLOT_STOPPED ? SLOT_STOPPED : rc;
	}
	return 0;
}

static int send_all(struct slot *s, int type, uint64_t n, bool sampled)
{
	struct cmd c = {.type = type, .sampled = sampled, .n = n};
	for (int i = 0; i < s->cfg.copies; i++)
		if (!write_all(s->cmd[i], &c, sizeof c)) {
			snprintf(s->why, sizeof s->why, "worker %d of %s is gone", i, s->cfg.w->name);
			return WL_ERROR;
		}
	return 0;
}

void slot_combine(const uint64_t *t0, const uint64_t *t1, const uint64_t *ops, int copies, double overhead_ns,
		  struct slot_batch *b)
{
	memset(b, 0, sizeof *b);
	uint64_t first = 0, last = 0;
	for (int i = 0; i < copies; i++) {
		if (i == 0 || t0[i] < first)
			first = t0[i];
		if (i == 0 || t1[i] > last)
			last = t1[i];
		b->ops += ops[i];
	}
	uint64_t t = last > first ? last - first : 1;
	double eff = (double)t;
	if (overhead_ns > 0.001 * eff && overhead_ns < eff)
		eff -= overhead_ns;
	b->elapsed_ns = t;
	b->value = (double)b->ops * 1e9 / eff;
}

int slot_batch(struct slot *s, uint64_t n, double overhead_ns, bool sampled, struct slot_batch *b)
{
	memset(b, 0, sizeof *b);
	int copies = s->cfg.copies;
	int rc = send_all(s, CMD_BATCH, n, sampled);
	struct reply *reps = xcalloc((size_t)copies, sizeof *reps);
	uint64_t *t = xcalloc(3 * (size_t)copies, sizeof *t);
	if (!rc)
		rc = collect(s, reps, s->cfg.timeout_ns);
	for (int i = 0; i < copies && rc == 0; i++) {
		if (reps[i].rc) {
			rc = reps[i].rc;
			snprintf(s->why, sizeof s->why, "%s", reps[i].why);
			break;
		}
		t[i] = reps[i].t0;
		t[copies + i] = reps[i].t1;
		t[2 * copies + i] = n;
	}
	if (!rc) {
		slot_combine(t, t + copies, t + 2 * copies, copies, s->cfg.pressure ? overhead_ns * (double)n : overhead_ns,
			     b);
		for (int i = 0; i < copies; i++)
			if (reps[i].wall_ns > b->wall_ns)
				b->wall_ns = reps[i].wall_ns;
	}
	free(t);
	free(reps);
	if (rc)
		abort_slot(s);
	return rc;
}

double slot_empty_cost(struct slot *s)
{
	struct cmd c = {.type = CMD_EMPTY};
	struct reply rep;
	if (!write_all(s->cmd[0], &c, sizeof c) || !read_all(s->res[0], &rep, sizeof rep))
		return -1;
	return (double)rep.elapsed_ns;
}

void slot_close(struct slot *s, struct slot_checks *checks)
{
	if (!s->alive) {
		release(s);
		return;
	}
	if (checks)
		memset(checks, 0, sizeof *checks);
	int rc = send_all(s, CMD_QUIT, 0, false);
	struct reply *reps = xcalloc((size_t)s->cfg.copies, sizeof *reps);
	if (!rc)
		rc = collect(s, reps, 30000000000ull);
	if (!rc && checks) {
		*checks = reps[0].checks;
		for (int i = 1; i < s->cfg.copies; i++) {
			wl_check_tally_merge(s->cfg.w, &checks->tally, &reps[i].checks.tally);
			node_place_merge(&checks->place, &reps[i].checks.place);
			checks->sweeps += reps[i].checks.sweeps;
			checks->sweeps_short += reps[i].checks.sweeps_short;
			checks->ops += reps[i].checks.ops;
			for (int j = 0; j < checks->n; j++)
				if (!reps[i].checks.ok[j] && checks->ok[j]) {
					checks->ok[j] = false;
					checks->value[j] = reps[i].checks.value[j];
					checks->why[j][0] = '\0'; /* judged, and failed, in this copy */
				}
		}
	}
	free(reps);
	if (rc)
		kill_all(s);
	reap_all(s);
	release(s);
}
