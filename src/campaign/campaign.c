/* campaign.c - a campaign's schedule, its creation and display, and the start/resume/stop driver. */
#include "campaign/campaign.h"
#include "core/tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

void campaign_schedule(uint64_t seed, int nconfigs, int boots, int *order)
{
	uint64_t s = seed;
	for (int b = 0; b < boots; b++) {
		int *blk = order + (size_t)b * nconfigs;
		for (int i = 0; i < nconfigs; i++)
			blk[i] = i;
		for (int i = nconfigs - 1; i > 0; i--) {
			int j = (int)(splitmix64(&s) % (uint64_t)(i + 1));
			int t = blk[i];
			blk[i] = blk[j];
			blk[j] = t;
		}
	}
}

char *campaign_marker(const char *name, int slot)
{
	return xasprintf("sysab.boot=%s:%d", name, slot);
}

/* ---- options ---- */

void campaign_opts_parse(const char *json, struct campaign_opts *o)
{
	memset(o, 0, sizeof *o);
	json_t *j = json_loads(json ? json : "{}", 0, NULL);
	o->smp = (int)json_integer_value(json_object_get(j, "smp"));
	o->mem_mb = (int)json_integer_value(json_object_get(j, "mem_mb"));
	const char *a = json_string_value(json_object_get(j, "accel"));
	snprintf(o->accel, sizeof o->accel, "%s", a ? a : "auto");
	const char *s;
	if ((s = json_string_value(json_object_get(j, "image"))))
		o->image = xstrdup(s);
	if ((s = json_string_value(json_object_get(j, "unit_dir"))))
		o->unit_dir = xstrdup(s);
	if ((s = json_string_value(json_object_get(j, "stop_file"))))
		o->stop_file = xstrdup(s);
	if ((s = json_string_value(json_object_get(j, "accel_note"))))
		o->accel_note = xstrdup(s);
	o->boot_timeout_s = (int)json_integer_value(json_object_get(j, "boot_timeout_s"));
	o->max_failures = (int)json_integer_value(json_object_get(j, "max_failures"));
	o->settle_load = json_number_value(json_object_get(j, "settle_load"));
	o->settle_timeout_s = (int)json_integer_value(json_object_get(j, "settle_timeout_s"));
	json_decref(j);
	if (o->smp <= 0)
		o->smp = 1;
	if (o->mem_mb <= 0)
		o->mem_mb = 512;
	if (o->boot_timeout_s <= 0)
		o->boot_timeout_s = 900;
	if (o->max_failures <= 0)
		o->max_failures = 2;
	if (o->settle_load <= 0)
		o->settle_load = 1.0;
	if (o->settle_timeout_s < 0)
		o->settle_timeout_s = 0;
	if (!o->unit_dir)
		o->unit_dir = xstrdup("/etc/systemd/system");
}

char *campaign_opts_json(const struct campaign_opts *o)
{
	json_t *j = json_object();
	json_object_set_new(j, "smp", json_integer(o->smp));
	json_object_set_new(j, "mem_mb", json_integer(o->mem_mb));
	json_object_set_new(j, "accel", json_string(o->accel));
	if (o->image)
		json_object_set_new(j, "image", json_string(o->image));
	json_object_set_new(j, "boot_timeout_s", json_integer(o->boot_timeout_s));
	json_object_set_new(j, "max_failures", json_integer(o->max_failures));
	json_object_set_new(j, "settle_load", json_real(o->settle_load));
	json_object_set_new(j, "settle_timeout_s", json_integer(o->settle_timeout_s));
	if (o->unit_dir)
		json_object_set_new(j, "unit_dir", json_string(o->unit_dir));
	if (o->stop_file)
		json_object_set_new(j, "stop_file", json_string(o->stop_file));
	if (o->accel_note)
		json_object_set_new(j, "accel_note", json_string(o->accel_note));
	char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(j);
	char *r = xstrdup(s);
	free(s);
	return r;
}

void campaign_opts_free(struct campaign_opts *o)
{
	free(o->image);
	free(o->unit_dir);
	free(o->stop_file);
	free(o->accel_note);
	memset(o, 0, sizeof *o);
}

/* ---- creation ---- */

static const char *const backends[] = {"qemu", "kexec", "grub", "command"};

static uint64_t random_seed(void)
{
	uint64_t v = 0;
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v)
		v = clock_wall_ns() ^ ((uint64_t)getpid() << 32);
	if (fd >= 0)
		close(fd);
	return v >> 1; /* fits SQLite's signed integer */
}

static void random_uuid(char out[33])
{
	uint64_t a = random_seed(), b = random_seed();
	snprintf(out, 33, "%016llx%016llx", (unsigned long long)a, (unsigned long long)b);
}

int campaign_create(struct store *st, struct campaign_spec *sp, struct err *e)
{
	bool known = false;
	for (size_t i = 0; i < sizeof backends / sizeof backends[0]; i++)
		known |= sp->backend && !strcmp(sp->backend, backends[i]);
	if (!known)
		return errf(e, "--backend: give qemu, kexec, grub or command");
	if (!sp->name || !*sp->name || strlen(sp->name) > 64 || strspn(sp->name, "abcdefghijklmnopqrstuvwxyz"
									 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") !=
										 strlen(sp->name))
		return errf(e, "campaign name '%s': use 1-64 letters, digits, '_', '.' or '-'", sp->name ? sp->name : "");
	if (sp->nconfigs < 1)
		return errf(e, "give at least one --config 'KEY=VALUE ...' (its labels), each followed by how to boot it");
	if (sp->boots < 1)
		return errf(e, "--boots: give the boots per configuration (at least 1; 2 or more for a verdict)");
	if (sp->runs < 1)
		return errf(e, "--runs: give the runs per boot (at least 1)");
	for (size_t i = 0; i < sp->nconfigs; i++) {
		const struct store_campaign_config *k = &sp->configs[i];
		for (size_t j = 0; j < i; j++)
			if (!strcmp(sp->configs[j].labels, k->labels))
				return errf(e, "--config '%s' is given twice; each configuration needs its own labels",
					    k->name);
		if (!strcmp(sp->backend, "kexec") && !k->kernel)
			return errf(e, "--config '%s': the kexec backend needs --kernel (and usually --initrd and --append)",
				    k->name);
		if (!strcmp(sp->backend, "grub") && !k->entry)
			return errf(e, "--config '%s': the grub backend needs --entry (a grub menu entry or its index)",
				    k->name);
		if (!strcmp(sp->backend, "command") && !k->command)
			return errf(e, "--config '%s': the command backend needs --command (a shell command that boots the "
				       "machine into this configuration)",
				    k->name);
		if (!strcmp(sp->backend, "qemu") && (k->entry || k->command))
			return errf(e, "--config '%s': --entry and --command are for the grub and command backends", k->name);
	}
	if (!sp->seed_given)
		sp->seed = random_seed();
	int nslots = (int)sp->nconfigs * sp->boots;
	int *order = xcalloc((size_t)nslots, sizeof *order);
	campaign_schedule(sp->seed, (int)sp->nconfigs, sp->boots, order);
	struct store_campaign c = {0};
	char uuid[33];
	random_uuid(uuid);
	json_t *args = json_array();
	for (size_t i = 0; i < sp->run_args.n; i++)
		json_array_append_new(args, json_string(sp->run_args.v[i]));
	char *args_json = json_dumps(args, JSON_COMPACT);
	json_decref(args);
	char *opts_json = campaign_opts_json(&sp->opts);
	c.name = (char *)sp->name;
	c.uuid = uuid;
	c.backend = (char *)sp->backend;
	c.seed = sp->seed;
	c.boots = sp->boots;
	c.runs = sp->runs;
	c.run_args = args_json;
	c.options = opts_json;
	c.state = "new";
	c.created_ns = clock_wall_ns();
	c.configs = sp->configs;
	c.nconfigs = sp->nconfigs;
	c.slots = xcalloc((size_t)nslots, sizeof *c.slots);
	c.nslots = (size_t)nslots;
	for (int i = 0; i < nslots; i++) {
		c.slots[i].slot = i;
		c.slots[i].block = i / (int)sp->nconfigs;
		c.slots[i].config = order[i];
		c.slots[i].state = "pending";
	}
	int rc = store_campaign_create(st, &c, e);
	free(c.slots);
	free(order);
	free(args_json);
	free(opts_json);
	return rc;
}

/* ---- display ---- */

static bool slot_final(const struct store_campaign_slot *x)
{
	return !strcmp(x->state, "done") || !strcmp(x->state, "failed") || !strcmp(x->state, "skipped");
}

/* The next slot to boot: the first that is pending or interrupted with a retry left; -1 when none. */
static int next_slot(const struct store_campaign *c)
{
	for (size_t i = 0; i < c->nslots; i++) {
		const struct store_campaign_slot *x = &c->slots[i];
		if (!strcmp(x->state, "pending") || !strcmp(x->state, "booting") || !strcmp(x->state, "running") ||
		    (!strcmp(x->state, "interrupted") && x->attempts <= CAMPAIGN_RETRIES))
			return (int)i;
	}
	return -1;
}

void campaign_print(const struct store_campaign *c, bool slots, FILE *f)
{
	size_t done = 0, failed = 0, skipped = 0;
	uint64_t spent = 0;
	for (size_t i = 0; i < c->nslots; i++) {
		const struct store_campaign_slot *x = &c->slots[i];
		done += !strcmp(x->state, "done");
		failed += !strcmp(x->state, "failed");
		skipped += !strcmp(x->state, "skipped");
		if (!strcmp(x->state, "done") && x->finished_ns > x->started_ns && x->started_ns)
			spent += x->finished_ns - x->started_ns;
	}
	fprintf(f, "campaign %s: %s backend, %zu configuration%s x %d boot%s, %d run%s per boot, seed %llu\n", c->name,
		c->backend, c->nconfigs, c->nconfigs == 1 ? "" : "s", c->boots, c->boots == 1 ? "" : "s", c->runs,
		c->runs == 1 ? "" : "s", (unsigned long long)c->seed);
	json_t *args = json_loads(c->run_args, 0, NULL);
	fprintf(f, "state: %s%s%s\n", c->state, c->reason ? " - " : "", c->reason ? c->reason : "");
	fprintf(f, "each run: sysab run");
	for (size_t i = 0; i < json_array_size(args); i++)
		fprintf(f, " %s", json_string_value(json_array_get(args, i)));
	fprintf(f, " -l LABELS\n");
	json_decref(args);
	for (size_t i = 0; i < c->nconfigs; i++) {
		const struct store_campaign_config *k = &c->configs[i];
		fprintf(f, "  config %zu: %s", i, k->name);
		if (k->kernel)
			fprintf(f, "  kernel %s", k->kernel);
		if (k->initrd)
			fprintf(f, "  initrd %s", k->initrd);
		if (k->append)
			fprintf(f, "  append \"%s\"", k->append);
		if (k->entry)
			fprintf(f, "  entry %s", k->entry);
		if (k->command)
			fprintf(f, "  command %s", k->command);
		fprintf(f, "\n");
	}
	size_t left = 0;
	for (size_t i = 0; i < c->nslots; i++)
		left += !slot_final(&c->slots[i]);
	fprintf(f, "progress: %zu of %zu slots done, %zu failed, %zu skipped, %zu to go", done, c->nslots, failed,
		skipped, left);
	if (done && left)
		fprintf(f, ", about %.0f min left (at %.0f s per boot so far)",
			(double)spent / (double)done * (double)left / 60e9, (double)spent / (double)done / 1e9);
	fprintf(f, "\n");
	int nx = next_slot(c);
	if (nx >= 0 && strcmp(c->state, "done"))
		fprintf(f, "next: slot %d (block %d), %s\n", nx, c->slots[nx].block, c->configs[c->slots[nx].config].name);
	if (!slots)
		return;
	fprintf(f, "\nslot block config                          state        tries runs boot      reason\n");
	for (size_t i = 0; i < c->nslots; i++) {
		const struct store_campaign_slot *x = &c->slots[i];
		fprintf(f, "%4d %5d %-32.32s %-12s %5d %4d %-8.8s  %s\n", x->slot, x->block, c->configs[x->config].name,
			x->state, x->attempts, x->nruns, x->boot_id ? x->boot_id : "-", x->reason ? x->reason : "");
	}
}

/* ---- driving ---- */

static int reload(const struct campaign_env *env, const char *name, struct store_campaign *c, struct err *e)
{
	store_campaign_free(c);
	return store_campaign_get(env->st, name, c, e);
}

/* Consecutive failed slots, most recent first, by finish time. */
static int trailing_failures(const struct store_campaign *c)
{
	int n = 0;
	uint64_t before = UINT64_MAX;
	for (;;) {
		const struct store_campaign_slot *last = NULL;
		for (size_t i = 0; i < c->nslots; i++) {
			const struct store_campaign_slot *x = &c->slots[i];
			if ((!strcmp(x->state, "done") || !strcmp(x->state, "failed")) && x->finished_ns < before &&
			    (!last || x->finished_ns > last->finished_ns))
				last = x;
		}
		if (!last || strcmp(last->state, "failed"))
			return n;
		n++;
		before = last->finished_ns;
	}
}

static bool stop_requested(const struct campaign_opts *o)
{
	return sig_stop || (o->stop_file && access(o->stop_file, F_OK) == 0);
}

/* After a slot ended: stop the campaign on too many consecutive failures, or finish it. */
static int settle_state(const struct campaign_env *env, const char *name, struct store_campaign *c,
			const struct campaign_opts *o, bool *more, struct err *e)
{
	*more = false;
	if (reload(env, name, c, e))
		return -1;
	int fails = trailing_failures(c);
	if (fails >= o->max_failures) {
		char *why = xasprintf("%d consecutive slots failed (limit %d); fix the configuration, then `sysab campaign "
				      "start %s`",
				      fails, o->max_failures, name);
		int rc = store_campaign_set_state(env->st, c->id, "failed", why, 0, e);
		fprintf(env->out, "campaign %s: stopped: %s\n", name, why);
		free(why);
		return rc;
	}
	if (next_slot(c) < 0) {
		fprintf(env->out, "campaign %s: done; `sysab analyze campaign:%s` analyzes it\n", name, name);
		return store_campaign_set_state(env->st, c->id, "done", NULL, 0, e);
	}
	if (stop_requested(o)) {
		fprintf(env->out, "campaign %s: stopped on request\n", name);
		return store_campaign_set_state(env->st, c->id, "stopped",
						sig_stop ? "stopped by a signal" : "stopped by the stop file", 0, e);
	}
	*more = true;
	return 0;
}

/* A slot found booting or running when nothing drives it any more was interrupted. */
static int mark_interrupted(const struct campaign_env *env, struct store_campaign *c, struct err *e)
{
	for (size_t i = 0; i < c->nslots; i++) {
		struct store_campaign_slot *x = &c->slots[i];
		if (strcmp(x->state, "booting") && strcmp(x->state, "running"))
			continue;
		bool retry = x->attempts <= CAMPAIGN_RETRIES;
		free(x->state);
		x->state = xstrdup(retry ? "interrupted" : "skipped");
		free(x->reason);
		x->reason = xstrdup(retry ? "the boot or run did not finish (power loss, crash or kill); retried once"
					  : "interrupted again on its retry; skipped");
		x->finished_ns = clock_wall_ns();
		if (store_campaign_slot_put(env->st, c->id, x, e))
			return -1;
	}
	return 0;
}

static int drive_qemu(const struct campaign_env *env, const char *name, struct store_campaign *c, struct err *e)
{
	struct campaign_opts o;
	campaign_opts_parse(c->options, &o);
	int rc = -1;
	bool more = true;
	if (mark_interrupted(env, c, e) || settle_state(env, name, c, &o, &more, e))
		goto out;
	if (more)
		campaign_qemu_tcg_note(env, name, campaign_qemu_accel(&o));
	while (more) {
		int nx = next_slot(c);
		struct store_campaign_slot *x = &c->slots[nx];
		x->attempts++;
		free(x->state);
		x->state = xstrdup("booting");
		free(x->reason);
		x->reason = NULL;
		x->started_ns = clock_wall_ns();
		x->finished_ns = 0;
		if (store_campaign_slot_put(env->st, c->id, x, e))
			goto out;
		fprintf(env->out, "campaign %s: slot %d/%zu (block %d): %s, attempt %d\n", name, nx + 1, c->nslots,
			x->block, c->configs[x->config].name, x->attempts);
		fflush(env->out);
		/* the KVM probe's outcome (o.accel) holds for the rest of this drive */
		if (campaign_qemu_slot(env, c, &o, x, e))
			goto out;
		x->finished_ns = clock_wall_ns();
		if (store_campaign_slot_put(env->st, c->id, x, e))
			goto out;
		fprintf(env->out, "campaign %s: slot %d: %s%s%s\n", name, nx + 1, x->state, x->reason ? ": " : "",
			x->reason ? x->reason : "");
		fflush(env->out);
		if (!strcmp(x->state, "interrupted") && x->attempts > CAMPAIGN_RETRIES && !sig_stop) {
			free(x->state);
			x->state = xstrdup("skipped");
			char *r = xasprintf("interrupted again on its retry; skipped (%s)", x->reason ? x->reason : "");
			free(x->reason);
			x->reason = r;
			if (store_campaign_slot_put(env->st, c->id, x, e))
				goto out;
		}
		if (settle_state(env, name, c, &o, &more, e))
			goto out;
	}
	rc = 0;
out:
	campaign_opts_free(&o);
	return rc;
}

static bool is_root(void)
{
	return geteuid() == 0;
}

int campaign_start(const struct campaign_env *env, const char *name, struct err *e)
{
	struct store_campaign c;
	if (store_campaign_get(env->st, name, &c, e))
		return -1;
	int rc = -1;
	struct campaign_opts o;
	campaign_opts_parse(c.options, &o);
	if (!strcmp(c.state, "running") && !env->dry_run) {
		errf(e, "campaign '%s' is already running; `sysab campaign resume %s` continues it after an interruption",
		     name, name);
		goto out;
	}
	if (!strcmp(c.state, "done")) {
		errf(e, "campaign '%s' is done; `sysab analyze campaign:%s` analyzes it", name, name);
		goto out;
	}
	if (env->dry_run) {
		/* every command of the whole campaign, in schedule order, and the unit */
		bool reboots = strcmp(c.backend, "qemu") != 0;
		if (reboots && campaign_unit_install(env, &c, &o, e))
			goto out;
		if (!reboots)
			campaign_qemu_tcg_note(env, name, campaign_qemu_accel(&o));
		for (size_t i = 0; i < c.nslots; i++) {
			struct store_campaign_slot *x = &c.slots[i];
			if (slot_final(x))
				continue;
			if (reboots ? campaign_arm_and_boot(env, &c, x, e) : campaign_qemu_slot(env, &c, &o, x, e))
				goto out;
		}
		if (reboots) {
			fprintf(env->out, "after the last slot (or K=%d consecutive failures, or a stop):\n", o.max_failures);
			campaign_unit_remove(env, &c, &o);
		}
		rc = 0;
		goto out;
	}
	if (o.stop_file)
		unlink(o.stop_file); /* an explicit start overrides an old stop request */
	if (!strcmp(c.backend, "qemu")) {
		if (store_campaign_set_state(env->st, c.id, "running", NULL, 0, e))
			goto out;
		rc = drive_qemu(env, name, &c, e);
		goto out;
	}
	/* the reboot backends: everything that needs root is checked before anything is done */
	if (!is_root() && strcmp(c.backend, "command")) {
		errf(e, "campaign '%s': the %s backend needs root (%s, installing a systemd unit, rebooting); run "
			"`sudo sysab campaign start %s`, or see what it would do with --dry-run",
		     name, c.backend, !strcmp(c.backend, "kexec") ? "kexec -l" : "grub-reboot", name);
		goto out;
	}
	if (campaign_unit_install(env, &c, &o, e))
		goto out;
	int nx = next_slot(&c);
	if (nx < 0) {
		errf(e, "campaign '%s' has no slot left to boot", name);
		goto out;
	}
	struct store_campaign_slot *x = &c.slots[nx];
	x->attempts++;
	free(x->state);
	x->state = xstrdup("booting");
	x->started_ns = clock_wall_ns();
	if (store_campaign_slot_put(env->st, c.id, x, e) ||
	    store_campaign_set_state(env->st, c.id, "running", NULL, 0, e)) {
		campaign_unit_remove(env, &c, &o);
		goto out;
	}
	rc = campaign_arm_and_boot(env, &c, x, e);
	if (rc) {
		struct err e2;
		campaign_unit_remove(env, &c, &o);
		free(x->state);
		x->state = xstrdup("pending");
		x->attempts--;
		store_campaign_slot_put(env->st, c.id, x, &e2);
		store_campaign_set_state(env->st, c.id, "stopped", "arming the first boot failed", 0, &e2);
	}
out:
	campaign_opts_free(&o);
	store_campaign_free(&c);
	return rc;
}

/* The labels of a configuration as `-l K=V` arguments appended to v. */
static void add_label_args(const char *labels_json, struct strv *v)
{
	json_t *j = json_loads(labels_json, 0, NULL);
	const char *k;
	json_t *val;
	json_object_foreach(j, k, val)
	{
		char *l = xasprintf("%s=%s", k, json_string_value(val));
		strv_add(v, "-l");
		strv_add(v, l);
		free(l);
	}
	json_decref(j);
}

/* Wait until the 1-minute load is below o->settle_load or the timeout passed; returns the load seen. */
static double settle(const struct campaign_opts *o, int *waited_s)
{
	double load = -1;
	for (*waited_s = 0;; (*waited_s)++) {
		char *t = read_text_file("/proc/loadavg");
		load = t ? strtod(t, NULL) : -1;
		free(t);
		if (load < o->settle_load || *waited_s >= o->settle_timeout_s || sig_stop)
			return load;
		sleep(1);
	}
}

/* Run `sysab run ARGS -l LABELS` runs times in child processes; the new runs go to the slot. */
static int run_slot(const struct campaign_env *env, const struct store_campaign *c,
		    const struct store_campaign_slot *x, double load, int waited, struct err *e)
{
	struct strv argv = {0};
	strv_add(&argv, env->self);
	strv_add(&argv, "run");
	strv_add(&argv, "--db");
	strv_add(&argv, env->db_path);
	json_t *args = json_loads(c->run_args, 0, NULL);
	for (size_t i = 0; i < json_array_size(args); i++)
		strv_add(&argv, json_string_value(json_array_get(args, i)));
	json_decref(args);
	add_label_args(c->configs[x->config].labels, &argv);
	char **av = xcalloc(argv.n + 1, sizeof *av);
	for (size_t i = 0; i < argv.n; i++)
		av[i] = argv.v[i];
	int rc = 0;
	for (int r = 0; r < c->runs && !rc && !sig_stop; r++) {
		struct store_run_info *runs = NULL;
		size_t n0 = 0;
		if (store_runs_list(env->st, &runs, &n0, e)) {
			rc = -1;
			break;
		}
		int64_t last = n0 ? runs[n0 - 1].id : 0;
		store_runs_free(runs, n0);
		fflush(NULL);
		pid_t pid = fork();
		if (pid == 0) {
			execv(env->self, av);
			_exit(127);
		}
		int status = 0;
		while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		size_t n = 0;
		if (store_runs_list(env->st, &runs, &n, e)) {
			rc = -1;
			break;
		}
		for (size_t i = 0; i < n; i++)
			if (runs[i].id > last && !rc) {
				char buf[32];
				rc = store_campaign_add_run(env->st, c->id, x->slot, runs[i].id, e);
				snprintf(buf, sizeof buf, "%.2f", load);
				if (!rc)
					rc = store_run_env(env->st, runs[i].id, "campaign.settle_load", buf, e);
				snprintf(buf, sizeof buf, "%d", waited);
				if (!rc)
					rc = store_run_env(env->st, runs[i].id, "campaign.settle_s", buf, e);
			}
		store_runs_free(runs, n);
		if (!rc && (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0))
			rc = errf(e, "campaign '%s' slot %d: `sysab run` failed (status %d)", c->name, x->slot,
				  WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	}
	free(av);
	strv_free(&argv);
	return rc;
}

/* resume for the reboot backends: what the unit runs at boot. */
static int resume_reboot(const struct campaign_env *env, const char *name, struct store_campaign *c, struct err *e)
{
	struct campaign_opts o;
	campaign_opts_parse(c->options, &o);
	int rc = -1;
	bool more;
	struct store_campaign_slot *x = NULL;
	for (size_t i = 0; i < c->nslots && !x; i++)
		if (!strcmp(c->slots[i].state, "booting") || !strcmp(c->slots[i].state, "running"))
			x = &c->slots[i];
	if (x && !strcmp(x->state, "running")) {
		/* the machine went down during the runs of this slot */
		if (mark_interrupted(env, c, e))
			goto out;
		x = NULL;
	} else if (x) {
		char *why = NULL, *boot_id = NULL;
		int ok = campaign_check_kernel(c, x, &why, &boot_id);
		free(x->boot_id);
		x->boot_id = boot_id;
		free(x->state);
		if (!ok) {
			x->state = xstrdup("failed");
			free(x->reason);
			x->reason = why;
			x->finished_ns = clock_wall_ns();
			fprintf(env->out, "campaign %s: slot %d failed: %s\n", name, x->slot, why);
			if (store_campaign_slot_put(env->st, c->id, x, e))
				goto out;
		} else {
			free(why);
			x->state = xstrdup("running");
			if (store_campaign_slot_put(env->st, c->id, x, e))
				goto out;
			int waited = 0;
			double load = settle(&o, &waited);
			fprintf(env->out, "campaign %s: slot %d: load %.2f after %d s; running\n", name, x->slot, load,
				waited);
			fflush(env->out);
			if (run_slot(env, c, x, load, waited, e))
				goto out; /* stays running: the next resume counts it as interrupted */
			free(x->state);
			x->state = xstrdup("done");
			x->finished_ns = clock_wall_ns();
			if (store_campaign_slot_put(env->st, c->id, x, e))
				goto out;
		}
	}
	if (settle_state(env, name, c, &o, &more, e))
		goto out;
	if (!more) {
		campaign_unit_remove(env, c, &o);
		rc = 0;
		goto out; /* done, failed or stopped: no reboot; the machine stays on this (default) kernel */
	}
	x = &c->slots[next_slot(c)];
	x->attempts++;
	free(x->state);
	x->state = xstrdup("booting");
	x->started_ns = clock_wall_ns();
	if (store_campaign_slot_put(env->st, c->id, x, e))
		goto out;
	rc = campaign_arm_and_boot(env, c, x, e);
out:
	campaign_opts_free(&o);
	return rc;
}

int campaign_resume(const struct campaign_env *env, const char *name, struct err *e)
{
	struct store_campaign c;
	if (store_campaign_get(env->st, name, &c, e))
		return -1;
	int rc = -1;
	if (strcmp(c.state, "running")) {
		if (!strcmp(c.state, "new"))
			errf(e, "campaign '%s' has not started; `sysab campaign start %s` starts it", name, name);
		else
			errf(e, "campaign '%s' is %s%s%s%s; nothing to resume%s", name, c.state, c.reason ? " (" : "",
			     c.reason ? c.reason : "", c.reason ? ")" : "",
			     strcmp(c.state, "done") ? " (`sysab campaign start` starts it again)" : "");
		if (strcmp(c.backend, "qemu")) {
			/* a unit left behind must not loop: remove it */
			struct campaign_opts o;
			campaign_opts_parse(c.options, &o);
			campaign_unit_remove(env, &c, &o);
			campaign_opts_free(&o);
		}
		goto out;
	}
	rc = !strcmp(c.backend, "qemu") ? drive_qemu(env, name, &c, e) : resume_reboot(env, name, &c, e);
out:
	store_campaign_free(&c);
	return rc;
}

int campaign_stop(const struct campaign_env *env, const char *name, struct err *e)
{
	struct store_campaign c;
	if (store_campaign_get(env->st, name, &c, e))
		return -1;
	struct campaign_opts o;
	campaign_opts_parse(c.options, &o);
	int rc = 0;
	if (!strcmp(c.state, "done"))
		fprintf(env->out, "campaign %s is already done\n", name);
	else {
		if (strcmp(c.backend, "qemu"))
			campaign_unit_remove(env, &c, &o);
		rc = store_campaign_set_state(env->st, c.id, "stopped", "stopped by `sysab campaign stop`", 0, e);
		if (!rc)
			fprintf(env->out, "campaign %s: stopped; nothing boots any more (`sysab campaign start %s` goes on)\n",
				name, name);
	}
	campaign_opts_free(&o);
	store_campaign_free(&c);
	return rc;
}
