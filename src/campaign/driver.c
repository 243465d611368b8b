/* driver.c - start, resume and stop a campaign: one driver at a time (the lease), the slot loop,
 * interruptions and retries, and a stop honoured before every boot. */
#include "campaign/backend.h"
#include "core/tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the lease: an advisory lock on "DB.campaign-NAME.lease", holding who drives ---- */

/* Take the lease of campaign name: *fd holds it until closed (the kernel drops it when the
 * holder dies, so a stale lease is taken over). A lease held by a live driver is an error
 * naming it. The lease is opened without following a link and without truncating, and it is
 * written (its text truncated) only when it is a regular file of this user's with one link:
 * a hard link planted at its name must not have its target cut; anything else is an error
 * naming the file. */
static int lease_take(const struct campaign_env *env, const char *name, int *fd, struct err *e)
{
	char *path = xasprintf("%s.campaign-%s.lease", env->db_path, name);
	int rc = -1;
	*fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0) {
		errf(e, "%s: cannot open the campaign's lease: %s", path, strerror(errno));
		goto out;
	}
	struct stat sb;
	const char *bad = NULL;
	char why[160];
	if (fstat(*fd, &sb))
		snprintf(why, sizeof why, "cannot look at it (%s)", strerror(errno)), bad = why;
	else if (!S_ISREG(sb.st_mode))
		bad = "not a regular file";
	else if (sb.st_nlink != 1 || sb.st_uid != geteuid())
		snprintf(why, sizeof why, "%lu links and owner uid %u, wanted 1 link and uid %u: a planted hard link or "
			 "someone else's file", (unsigned long)sb.st_nlink, (unsigned)sb.st_uid, (unsigned)geteuid()),
			bad = why;
	if (bad) {
		errf(e, "%s: the campaign's lease is %s%s; remove it (it only names the driver) and retry", path,
		     bad == why ? "unsafe: " : "", bad);
		close(*fd);
		*fd = -1;
		goto out;
	}
	char old[256] = {0};
	ssize_t n = pread(*fd, old, sizeof old - 1, 0);
	old[n > 0 ? n : 0] = 0;
	old[strcspn(old, "\n")] = 0;
	if (flock(*fd, LOCK_EX | LOCK_NB)) {
		errf(e, "campaign '%s' is driven by another sysab (%s; lease %s); wait for it to end, or stop it with "
			"`sysab campaign stop %s`",
		     name, *old && text_is_clean(old, false) ? old : "holder unknown", path, name);
		close(*fd);
		*fd = -1;
		goto out;
	}
	long pid = 0;
	if (*old && sscanf(old, "pid %ld", &pid) == 1 && pid > 0 && pid != (long)getpid() &&
	    kill((pid_t)pid, 0) && errno == ESRCH && text_is_clean(old, false))
		fprintf(env->out, "campaign %s: took over the stale lease of a driver that is gone (%s)\n", name, old);
	char host[256] = "?";
	gethostname(host, sizeof host - 1);
	char when[32];
	format_wall(clock_wall_ns(), when, sizeof when);
	char *text = xasprintf("pid %ld on %s since %s UTC\n", (long)getpid(), host, when);
	if (ftruncate(*fd, 0) || pwrite(*fd, text, strlen(text), 0) < 0) {
		/* the lock alone is the lease; the text only names the holder */
	}
	free(text);
	rc = 0;
out:
	free(path);
	return rc;
}

static void lease_drop(int fd)
{
	if (fd >= 0) {
		if (ftruncate(fd, 0)) {
		}
		close(fd);
	}
}

/* ---- one start or resume ---- */

static void ctx_init(struct campaign_ctx *x, const struct campaign_env *env, struct campaign *c)
{
	memset(x, 0, sizeof *x);
	x->env = env;
	x->c = c;
	x->stop_path = campaign_stop_path(env->db_path, c->r.name);
	x->dir_lock = -1;
	if (c->be->init_state)
		c->be->init_state(x);
}

static void ctx_free(struct campaign_ctx *x)
{
	if (x->dir && !x->env->dry_run)
		tmpdir_remove(x->dir);
	if (x->dir_lock >= 0)
		close(x->dir_lock);
	free(x->dir);
	free(x->stop_path);
	if (x->c->be->free_state)
		x->c->be->free_state(x);
}

/* Read the campaign again (another command may have stopped it). */
static int reload(struct campaign_ctx *x, struct err *e)
{
	char *name = xstrdup(x->c->r.name);
	campaign_free(x->c);
	int rc = campaign_load(x->env->st, name, x->c, e);
	free(name);
	return rc;
}

static int set_state(struct campaign_ctx *x, enum campaign_state s, const char *why, struct err *e)
{
	x->c->state = s;
	return store_campaign_set_state(x->env->st, x->c->r.id, campaign_state_word(s), why, 0, e);
}

/* Consecutive failed slots, most recent first, by finish time. */
static int trailing_failures(const struct campaign *c)
{
	int n = 0;
	uint64_t before = UINT64_MAX;
	for (;;) {
		int last = -1;
		for (size_t i = 0; i < c->r.nslots; i++) {
			const struct store_campaign_slot *s = &c->r.slots[i];
			if ((c->slot[i] == SLOT_DONE || c->slot[i] == SLOT_FAILED) && s->finished_ns < before &&
			    (last < 0 || s->finished_ns > c->r.slots[last].finished_ns))
				last = (int)i;
		}
		if (last < 0 || c->slot[last] != SLOT_FAILED)
			return n;
		n++;
		before = c->r.slots[last].finished_ns;
	}
}

/* The campaign ends without some of its runs: state failed, the slots that lack them named in
 * e (and, shorter, in the stored reason), with what boots them again. */
static int end_missing(struct campaign_ctx *x, struct err *e)
{
	struct campaign *c = x->c;
	struct sb list = {0}, detail = {0};
	int n = 0;
	for (size_t i = 0; i < c->r.nslots; i++) {
		if (!campaign_slot_remaining(c, (int)i))
			continue;
		const struct store_campaign_slot *s = &c->r.slots[i];
		sb_addf(&list, "%s%zu", n ? ", " : "", i + 1);
		sb_addf(&detail, "%sslot %zu/%zu (%s) %s after %d attempt%s, %d of %d runs missing%s%s", n ? "; " : "", i + 1,
			c->r.nslots, c->r.configs[s->config].name, slot_state_word(c->slot[i]), s->attempts,
			s->attempts == 1 ? "" : "s", campaign_slot_remaining(c, (int)i),
			c->r.runs * (c->per_run > 0 ? c->per_run : 1), s->reason ? ": " : "", s->reason ? s->reason : "");
		n++;
	}
	char *why = xasprintf("%d of %zu slots lack runs (slot%s %s of %zu); `sysab campaign start %s` boots them again",
			      n, c->r.nslots, n == 1 ? "" : "s", sb_str(&list), c->r.nslots, c->r.name);
	campaign_note(x, "failed: %s", why);
	int rc = set_state(x, CAMPAIGN_FAILED, why, e);
	if (!rc) {
		errf(e, "campaign '%s' ended without all its runs, so it is failed, not done: %s. `sysab campaign start %s` "
			"boots these slots again (`sysab campaign show %s` lists every slot)",
		     c->r.name, sb_str(&detail), c->r.name, c->r.name);
		rc = 1;
	}
	free(why);
	sb_free(&list);
	sb_free(&detail);
	return rc;
}

/* The blocks complete when the campaign stands between two blocks: every slot of blocks
 * 0..B-1 ended and no slot of block B started. 0 when it is inside a block. */
static int blocks_between(const struct campaign *c)
{
	int b = 0;
	for (size_t i = 0; i < c->r.nslots; i++) {
		enum slot_state s = c->slot[i];
		if (s == SLOT_PENDING && c->r.slots[i].attempts == 0)
			continue;
		if (s != SLOT_DONE && s != SLOT_FAILED && s != SLOT_SKIPPED)
			return 0;
		if (c->r.slots[i].block + 1 > b)
			b = c->r.slots[i].block + 1;
	}
	for (size_t i = 0; i < c->r.nslots; i++)
		if (c->r.slots[i].block < b && c->slot[i] == SLOT_PENDING)
			return 0;
	return b;
}

/* At a block boundary of a running campaign, ask env->after_block what next: *paused when it
 * says pause; on end the later blocks' slots are removed and the campaign read again. */
static int ask_after_block(struct campaign_ctx *x, bool *paused, struct err *e)
{
	*paused = false;
	int b = x->env->after_block && x->c->state == CAMPAIGN_RUNNING ? blocks_between(x->c) : 0;
	if (b < 1)
		return 0;
	enum campaign_next next = CAMPAIGN_GO_ON;
	if (x->env->after_block(x->env, x->c, b, &next, e))
		return -1;
	if (next == CAMPAIGN_PAUSE && b < x->c->r.boots)
		*paused = true;
	if (next == CAMPAIGN_END && b < x->c->r.boots) {
		campaign_note(x, "ends after block %d of %d", b, x->c->r.boots);
		if (store_campaign_end_after_block(x->env->st, x->c->r.id, b, e) || reload(x, e))
			return -1;
	}
	return 0;
}

/* After a slot ended, and before every boot: reread the campaign; stop it on too many
 * consecutive failures, finish it (done only with every planned run; else failed), or honour
 * a stop (`campaign stop`, the stop file, a signal). *more: a slot is to be booted next.
 * 0; 1 when the campaign ended failed (e says why and what to do); -1 on an error. */
static int settle_state(struct campaign_ctx *x, bool *more, struct err *e)
{
	*more = false;
	if (reload(x, e))
		return -1;
	struct campaign *c = x->c;
	int fails = trailing_failures(c);
	if (fails >= c->opts.max_failures) {
		char *why = xasprintf("%d consecutive slots failed (limit %d); fix the configuration, then `sysab campaign "
				      "start %s`",
				      fails, c->opts.max_failures, c->r.name);
		campaign_note(x, "stopped: %s", why);
		int rc = set_state(x, CAMPAIGN_FAILED, why, e);
		if (!rc) {
			errf(e, "campaign '%s' failed: %s (`sysab campaign show %s` has each slot's reason)", c->r.name, why,
			     c->r.name);
			rc = 1;
		}
		free(why);
		return rc;
	}
	bool paused;
	if (ask_after_block(x, &paused, e))
		return -1;
	c = x->c;
	if (campaign_next_slot(c) < 0) {
		for (size_t i = 0; i < c->r.nslots; i++)
			if (campaign_slot_remaining(c, (int)i))
				return end_missing(x, e);
		char *hint = campaign_analyze_hint(c);
		campaign_note(x, "done; %s", hint);
		free(hint);
		return set_state(x, CAMPAIGN_DONE, NULL, e);
	}
	if (c->state == CAMPAIGN_STOPPED) {
		campaign_note(x, "stopped (%s); no further boot", c->r.reason ? c->r.reason : "by request");
		return 0;
	}
	if (sig_stop || access(x->stop_path, F_OK) == 0) {
		campaign_note(x, "stopped on request");
		return set_state(x, CAMPAIGN_STOPPED, sig_stop ? "stopped by a signal" : "stopped by the stop file", e);
	}
	*more = !paused || (c->be->caps & CB_REBOOTS); /* a reboot backend returns after every slot anyway */
	return 0;
}

/* `start`: every slot that ended lacking runs (failed, skipped, out of retries) is pending
 * again, to be booted once more. */
static int rearm_missing(struct campaign_ctx *x, struct err *e)
{
	for (size_t i = 0; i < x->c->r.nslots; i++) {
		if (!campaign_slot_rearmable(x->c, (int)i))
			continue;
		campaign_slot_set(x->c, (int)i, SLOT_PENDING, NULL);
		if (campaign_slot_save(x, (int)i, e))
			return -1;
		campaign_note(x, "slot %zu/%zu lacks %d run%s: booted again", i + 1, x->c->r.nslots,
			      campaign_slot_remaining(x->c, (int)i), campaign_slot_remaining(x->c, (int)i) == 1 ? "" : "s");
	}
	return 0;
}

/* Every slot found booting or running when nothing drives it any more. */
static int mark_interrupted(struct campaign_ctx *x, struct err *e)
{
	for (size_t i = 0; i < x->c->r.nslots; i++) {
		if (x->c->slot[i] != SLOT_BOOTING && x->c->slot[i] != SLOT_RUNNING)
			continue;
		campaign_slot_interrupted(x->c, (int)i, "the boot or run did not finish (power loss, crash or kill)");
		if (campaign_slot_save(x, (int)i, e))
			return -1;
	}
	return 0;
}

static int begin_slot(struct campaign_ctx *x, int i, struct err *e)
{
	struct store_campaign_slot *s = &x->c->r.slots[i];
	s->attempts++;
	campaign_slot_set(x->c, i, SLOT_BOOTING, NULL);
	s->started_ns = clock_wall_ns();
	s->finished_ns = 0;
	return campaign_slot_save(x, i, e);
}

/* After collect: a slot interrupted on its retry is skipped; the slot is written. */
static int end_slot(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign *c = x->c;
	struct store_campaign_slot *s = &c->r.slots[i];
	if (c->slot[i] == SLOT_INTERRUPTED && s->attempts > CAMPAIGN_RETRIES && !sig_stop)
		campaign_slot_set(c, i, SLOT_SKIPPED,
				  xasprintf("interrupted again on its retry; skipped (%s)", s->reason ? s->reason : ""));
	if (!s->finished_ns)
		s->finished_ns = clock_wall_ns();
	campaign_note(x, "slot %d/%zu: %s%s%s", i + 1, c->r.nslots, slot_state_word(c->slot[i]), s->reason ? ": " : "",
		      s->reason ? s->reason : ""); /* numbered as "slot I/N (block B)" named it */
	return campaign_slot_save(x, i, e);
}

/* qemu: drive every remaining slot from here. */
static int drive(struct campaign_ctx *x, struct err *e)
{
	bool more = true;
	if (mark_interrupted(x, e) || settle_state(x, &more, e))
		return -1;
	while (more) {
		int i = campaign_next_slot(x->c);
		if (begin_slot(x, i, e))
			return -1;
		campaign_note(x, "slot %d/%zu (block %d): %s, attempt %d", i + 1, x->c->r.nslots, x->c->r.slots[i].block,
			      x->c->r.configs[x->c->r.slots[i].config].name, x->c->r.slots[i].attempts);
		/* --duet: the block's other slot boots at once with this one */
		int j = x->c->be->boot_pair ? campaign_duet_partner(x->c, i) : -1;
		if (j >= 0) {
			if (begin_slot(x, j, e))
				return -1;
			campaign_note(x, "slot %d/%zu (block %d): %s, attempt %d, at once with slot %d (duet)", j + 1,
				      x->c->r.nslots, x->c->r.slots[j].block, x->c->r.configs[x->c->r.slots[j].config].name,
				      x->c->r.slots[j].attempts, i + 1);
		}
		const struct campaign_backend *be = x->c->be;
		if ((j >= 0 ? be->boot_pair(x, i, j, e) : be->boot_slot(x, i, e)) || be->collect(x, i, e) ||
		    end_slot(x, i, e))
			return -1;
		/* its pair's results wait in the backend's state: take_pair takes them, booting nothing */
		if (j >= 0 && (be->take_pair(x, j, e) || be->collect(x, j, e) || end_slot(x, j, e)))
			return -1;
		if (settle_state(x, &more, e))
			return -1;
	}
	return 0;
}

/* --dry-run: every command of the slots left, in schedule order, with the unit; nothing done. */
static int dry_run(struct campaign_ctx *x, struct err *e)
{
	const struct campaign_backend *be = x->c->be;
	if (be->prepare(x, e))
		return -1;
	for (size_t i = 0; i < x->c->r.nslots; i++) {
		enum slot_state s = x->c->slot[i];
		if ((s == SLOT_DONE || s == SLOT_FAILED || s == SLOT_SKIPPED) && !campaign_slot_rearmable(x->c, (int)i))
			continue; /* start boots a slot that lacks runs again */
		fprintf(x->env->out, "slot %zu (block %d): %s", i, x->c->r.slots[i].block,
			x->c->r.configs[x->c->r.slots[i].config].name);
		if (campaign_is_duet(x->c))
			fprintf(x->env->out, " (duet: at once with the other slot of block %d; host CPU set %d)",
				x->c->r.slots[i].block, campaign_duet_set(x->c, (int)i));
		fprintf(x->env->out, "\n");
		struct campaign_cmds cmds = {0};
		be->argv(x, (int)i, &cmds);
		for (size_t k = 0; k < cmds.n; k++)
			campaign_cmd_print(x, &cmds.v[k]);
		campaign_cmds_free(&cmds);
	}
	if (be->caps & CB_REBOOTS) {
		fprintf(x->env->out, "after the last slot (or K=%d consecutive failures, or a stop):\n",
			x->c->opts.max_failures);
		be->cleanup(x);
	}
	return 0;
}

int campaign_start(const struct campaign_env *env, const char *name, struct err *e)
{
	struct campaign c;
	struct campaign_ctx x;
	int lease = -1, rc = -1;
	if (!env->dry_run && lease_take(env, name, &lease, e))
		return -1;
	if (campaign_load(env->st, name, &c, e)) {
		lease_drop(lease);
		return -1;
	}
	ctx_init(&x, env, &c);
	const struct campaign_backend *be = c.be;
	if (env->dry_run) {
		rc = dry_run(&x, e);
		goto out;
	}
	if (c.state == CAMPAIGN_RUNNING) {
		errf(e, "campaign '%s' is already running and no driver holds it; `sysab campaign resume %s` continues it",
		     name, name);
		goto out;
	}
	bool lacking = false;
	for (size_t i = 0; i < c.r.nslots; i++)
		lacking |= campaign_slot_rearmable(&c, (int)i);
	if (c.state == CAMPAIGN_DONE && !lacking) {
		char *hint = campaign_analyze_hint(&c);
		errf(e, "campaign '%s' is done; %s", name, hint);
		free(hint);
		goto out;
	}
	unlink(x.stop_path); /* an explicit start overrides an old stop request */
	if ((be->caps & CB_NEEDS_ROOT) && geteuid() != 0) {
		errf(e, "campaign '%s': the %s backend needs root (%s, installing a systemd unit, rebooting); run "
			"`sudo sysab campaign start %s`, or see what it would do with --dry-run",
		     name, be->name, be->root_for, name);
		goto out;
	}
	if (rearm_missing(&x, e))
		goto out;
	if (!(be->caps & CB_REBOOTS)) {
		if (be->prepare(&x, e) || set_state(&x, CAMPAIGN_RUNNING, NULL, e))
			goto out;
		rc = drive(&x, e);
		goto out;
	}
	/* the reboot backends: install the unit, arm the first slot, reboot */
	if (be->prepare(&x, e))
		goto out;
	int i = campaign_next_slot(&c);
	if (i < 0) {
		errf(e, "campaign '%s' has no slot left to boot", name);
		be->cleanup(&x);
		goto out;
	}
	if (begin_slot(&x, i, e) || set_state(&x, CAMPAIGN_RUNNING, NULL, e)) {
		be->cleanup(&x);
		goto out;
	}
	rc = be->boot_slot(&x, i, e);
	if (rc) {
		struct err e2;
		be->cleanup(&x);
		c.r.slots[i].attempts--;
		campaign_slot_set(&c, i, SLOT_PENDING, NULL);
		campaign_slot_save(&x, i, &e2);
		set_state(&x, CAMPAIGN_STOPPED, "arming the first boot failed", &e2);
	}
out:
	ctx_free(&x);
	campaign_free(&c);
	lease_drop(lease);
	return rc;
}

/* resume for the reboot backends: what the unit runs at boot. */
static int resume_reboot(struct campaign_ctx *x, struct err *e)
{
	const struct campaign_backend *be = x->c->be;
	bool more;
	int i = -1;
	for (size_t k = 0; k < x->c->r.nslots && i < 0; k++)
		if (x->c->slot[k] == SLOT_BOOTING || x->c->slot[k] == SLOT_RUNNING)
			i = (int)k;
	if (i >= 0 && (be->collect(x, i, e) || end_slot(x, i, e)))
		return -1; /* a slot left running is interrupted, or finished, by the next resume */
	int st = settle_state(x, &more, e);
	if (st < 0)
		return -1;
	if (!more) {
		be->cleanup(x);
		return st ? -1 : 0; /* done, failed or stopped: no reboot; the machine stays on this (default) kernel */
	}
	i = campaign_next_slot(x->c);
	if (begin_slot(x, i, e))
		return -1;
	return be->boot_slot(x, i, e);
}

int campaign_resume(const struct campaign_env *env, const char *name, struct err *e)
{
	struct campaign c;
	struct campaign_ctx x;
	int lease = -1, rc = -1;
	if (lease_take(env, name, &lease, e))
		return -1;
	if (campaign_load(env->st, name, &c, e)) {
		lease_drop(lease);
		return -1;
	}
	ctx_init(&x, env, &c);
	if (c.state != CAMPAIGN_RUNNING) {
		if (c.state == CAMPAIGN_NEW)
			errf(e, "campaign '%s' has not started; `sysab campaign start %s` starts it", name, name);
		else if (c.state != CAMPAIGN_DONE)
			errf(e, "campaign '%s' is %s%s%s%s; nothing to resume (`sysab campaign start %s` starts it again)", name,
			     campaign_state_word(c.state), c.r.reason ? " (" : "", c.r.reason ? c.r.reason : "",
			     c.r.reason ? ")" : "", name);
		else
			errf(e, "campaign '%s' is done%s%s%s; nothing to resume", name, c.r.reason ? " (" : "",
			     c.r.reason ? c.r.reason : "", c.r.reason ? ")" : "");
		if (c.be->caps & CB_REBOOTS)
			c.be->cleanup(&x); /* a unit left behind must not loop: remove it */
		goto out;
	}
	if (c.be->caps & CB_REBOOTS)
		rc = resume_reboot(&x, e);
	else
		rc = c.be->prepare(&x, e) ? -1 : drive(&x, e);
out:
	ctx_free(&x);
	campaign_free(&c);
	lease_drop(lease);
	return rc;
}

int campaign_stop(const struct campaign_env *env, const char *name, struct err *e)
{
	struct campaign c;
	if (campaign_load(env->st, name, &c, e))
		return -1;
	struct campaign_ctx x;
	ctx_init(&x, env, &c);
	int rc = 0;
	if (c.state == CAMPAIGN_DONE)
		fprintf(env->out, "campaign %s is already done\n", name);
	else {
		if (c.be->caps & CB_REBOOTS)
			c.be->cleanup(&x);
		rc = set_state(&x, CAMPAIGN_STOPPED, "stopped by campaign stop", e);
		if (!rc)
			fprintf(env->out,
				"campaign %s: stopped; nothing boots any more, a running driver ends after its slot "
				"(`sysab campaign start %s` goes on)\n",
				name, name);
	}
	ctx_free(&x);
	campaign_free(&c);
	return rc;
}
