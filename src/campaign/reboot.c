/* reboot.c - what the self-rebooting backends (kexec, grub, command) share: running the slot's
 * commands, the resume unit, the kernel check at boot, and the runs of a slot on this machine. */
#include "campaign/backend.h"
#include "core/testhooks.h"
#include "core/tmp.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run cmd. A shutdown command (systemctl kexec|reboot) takes the machine down, and systemd stops
 * every service on the way, the one running sysab included, so one killed by SIGTERM, SIGKILL or
 * SIGHUP is the shutdown under way, not a failure: the slot is already armed and marked booting. */
static int run_cmd(const struct campaign_cmd *cmd, struct err *e)
{
	char **av = xcalloc(cmd->argv.n + 1, sizeof *av);
	for (size_t i = 0; i < cmd->argv.n; i++)
		av[i] = cmd->argv.v[i];
	const char *name = av[0];
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		free(av);
		return errf(e, "cannot run %s: %s", name, strerror(errno));
	}
	if (pid == 0) {
		for (size_t i = 0; i < cmd->envp.n; i++)
			putenv(cmd->envp.v[i]);
		execvp(av[0], av);
		fprintf(stderr, "sysab campaign: cannot run %s: %s\n", av[0], strerror(errno));
		_exit(127);
	}
	free(av);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errf(e, "cannot wait for %s: %s", name, strerror(errno));
	if (cmd->shutdown && WIFSIGNALED(status) &&
	    (WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGKILL || WTERMSIG(status) == SIGHUP))
		return 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return errf(e, "%s failed (status %d)%s", name, WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			    WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "; is it installed?" : "");
	return 0;
}

char *reboot_append(const struct campaign *c, int i)
{
	const struct store_campaign_config *k = &c->r.configs[c->r.slots[i].config];
	char *m = campaign_marker(c->r.name, i);
	char *a = xasprintf("%s%s%s", k->append ? k->append : "", k->append && *k->append ? " " : "", m);
	free(m);
	return a;
}

int reboot_boot_slot(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign_cmds cmds = {0};
	x->c->be->argv(x, i, &cmds);
	int rc = 0;
	for (size_t k = 0; k < cmds.n && !rc; k++)
		rc = run_cmd(&cmds.v[k], e);
	campaign_cmds_free(&cmds);
	if (rc)
		err_prefix(e, "campaign '%s' slot %d (%s)", x->c->r.name, i, x->c->r.configs[x->c->r.slots[i].config].name);
	return rc;
}

/* ---- the unit ---- */

char *reboot_exec_start(const char *const *argv)
{
	/* systemd.service(5) "Command lines": double quotes group a word, in which \\ and \" are
	 * escapes; % starts a specifier (%% is one %), $ a variable ($$ is one $) */
	struct sb b = {0};
	for (size_t i = 0; argv[i]; i++) {
		const char *s = argv[i];
		bool plain = *s && strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@+=:,./-") ==
					 strlen(s);
		if (i)
			sb_add(&b, " ");
		if (!plain)
			sb_add(&b, "\"");
		for (; *s; s++)
			switch (*s) {
			case '\\': sb_add(&b, "\\\\"); break;
			case '"': sb_add(&b, "\\\""); break;
			case '%': sb_add(&b, "%%"); break;
			case '$': sb_add(&b, "$$"); break;
			default: sb_addn(&b, s, 1);
			}
		if (!plain)
			sb_add(&b, "\"");
	}
	return b.s ? b.s : xstrdup("");
}

static char *unit_name(const struct campaign *c)
{
	return xasprintf("sysab-campaign-%s.service", c->r.name);
}

static char *unit_text(const struct campaign_ctx *x)
{
	const char *av[] = {x->env->self, "campaign", "resume", x->c->r.name, "--db", x->env->db_path, NULL};
	char *exec = reboot_exec_start(av);
	char *t = xasprintf("# written by `sysab campaign start %s`; removed when the campaign ends\n"
			    "[Unit]\n"
			    "Description=sysab boot campaign %s: run this boot's slot, then boot the next\n"
			    "After=multi-user.target\n"
			    "\n"
			    "[Service]\n"
			    "Type=oneshot\n"
			    "ExecStart=%s\n"
			    "StandardOutput=journal+console\n"
			    "\n"
			    "[Install]\n"
			    "WantedBy=multi-user.target\n",
			    x->c->r.name, x->c->r.name, exec);
	free(exec);
	return t;
}

int reboot_prepare(struct campaign_ctx *x, struct err *e)
{
	const struct campaign *c = x->c;
	const char *dir = c->opts.unit_dir;
	char *name = unit_name(c), *text = unit_text(x);
	char *path = xasprintf("%s/%s", dir, name);
	char *wants = xasprintf("%s/multi-user.target.wants", dir);
	char *link = xasprintf("%s/%s", wants, name);
	int rc = -1;
	bool systemd = access("/run/systemd/system", F_OK) == 0 || strcmp(dir, "/etc/systemd/system");
	if (x->env->dry_run) {
		fprintf(x->env->out, "would write %s:\n%s", path, text);
		fprintf(x->env->out, "would enable it: ln -s %s %s\n", path, link);
		rc = 0;
		goto out;
	}
	if (!systemd) {
		struct sb b = {0};
		const char *av[] = {x->env->self, "campaign", "resume", c->r.name, "--db", x->env->db_path};
		for (size_t i = 0; i < sizeof av / sizeof av[0]; i++) {
			if (i)
				sb_add(&b, " ");
			campaign_sh_quote(&b, av[i]);
		}
		errf(e, "campaign '%s': this machine does not run systemd; add this line to a script that runs once at "
			"every boot after the system is up (e.g. /etc/rc.local), then start again with --unit-dir pointing "
			"at an empty directory: %s",
		     c->r.name, sb_str(&b));
		sb_free(&b);
		goto out;
	}
	if (mkdir(wants, 0755) && errno != EEXIST) {
		errf(e, "%s: cannot create: %s%s", wants, strerror(errno),
		     errno == EACCES || errno == EPERM ? "; installing the resume unit needs root (sudo)" : "");
		goto out;
	}
	if (campaign_write_new(path, 0644, text, strlen(text), NULL, 0, e)) {
		err_prefix(e, "the resume unit");
		goto out;
	}
	unlink(link);
	if (symlink(path, link)) {
		errf(e, "%s: cannot enable the resume unit: %s", link, strerror(errno));
		unlink(path);
		goto out;
	}
	fprintf(x->env->out, "installed %s (runs `sysab campaign resume %s` at boot)\n", path, c->r.name);
	rc = 0;
out:
	free(name);
	free(text);
	free(path);
	free(wants);
	free(link);
	return rc;
}

void reboot_cleanup(struct campaign_ctx *x)
{
	char *name = unit_name(x->c);
	char *path = xasprintf("%s/%s", x->c->opts.unit_dir, name);
	char *link = xasprintf("%s/multi-user.target.wants/%s", x->c->opts.unit_dir, name);
	if (x->env->dry_run)
		fprintf(x->env->out, "would remove %s and %s\n", link, path);
	else {
		bool had = access(path, F_OK) == 0;
		unlink(link);
		unlink(path);
		if (had)
			fprintf(x->env->out, "removed %s\n", path);
	}
	free(name);
	free(path);
	free(link);
}

/* ---- the kernel check ---- */

static char *proc_text(const char *name, const char *real)
{
	const char *dir = testhooks()->campaign_proc;
	char *p = dir && *dir ? xasprintf("%s/%s", dir, name) : xstrdup(real);
	char *t = read_text_file(p);
	free(p);
	if (t)
		t[strcspn(t, "\n")] = 0;
	return t;
}

/* The file name part of path (a pointer into it). */
static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

int reboot_check_kernel(const struct campaign *c, int i, char **why, char **boot_id)
{
	const struct store_campaign_config *k = &c->r.configs[c->r.slots[i].config];
	char *cmdline = proc_text("cmdline", "/proc/cmdline");
	char *release = proc_text("osrelease", "/proc/sys/kernel/osrelease");
	*boot_id = proc_text("boot_id", "/proc/sys/kernel/random/boot_id");
	char *marker = campaign_marker(c->r.name, i);
	char *want = campaign_kernel_release(k->kernel);
	char *image = NULL;
	int ok = 0;
	*why = NULL;
	if (!cmdline || !release || !*boot_id) {
		*why = xstrdup("cannot read /proc/cmdline, the kernel release or the boot id");
		goto out;
	}
	if ((c->be->caps & CB_MARKER) && !campaign_cmdline_has(cmdline, marker)) {
		*why = xasprintf("wrong kernel: booted %s with '%s', without the marker %s (the default kernel came back, "
				 "or the new one failed)",
				 release, cmdline, marker);
		goto out;
	}
	/* grub: an entry cannot carry the marker; the boot loader names the image it booted in
	 * BOOT_IMAGE=, and that image must be the configuration's --kernel (its release below) */
	image = campaign_cmdline_value(cmdline, "BOOT_IMAGE");
	if (!(c->be->caps & CB_MARKER) && k->kernel && (!image || strcmp(base_name(image), base_name(k->kernel)))) {
		*why = xasprintf("wrong kernel: booted %s with '%s': %s%s%s, not the configuration's --kernel %s (the default "
				 "entry came back, or the entry boots another image)",
				 release, cmdline, image ? "its image is " : "no BOOT_IMAGE= names the image booted",
				 image ? image : "", image ? "" : " (not booted by GRUB?)", k->kernel);
		goto out;
	}
	/* without a marker every word of the configuration's --append must be there too */
	for (const char *p = k->append; !(c->be->caps & CB_MARKER) && p && *p;) {
		p += strspn(p, " ");
		char *w = xstrndup(p, strcspn(p, " "));
		bool there = !*w || campaign_cmdline_has(cmdline, w);
		p += strlen(w);
		free(w);
		if (!there) {
			*why = xasprintf("wrong kernel: booted %s with '%s', not the configuration's '%s'", release, cmdline,
					 k->append);
			goto out;
		}
	}
	if (want && strcmp(want, release)) {
		*why = xasprintf("wrong kernel: booted release %s, but %s is %s", release, k->kernel, want);
		goto out;
	}
	ok = 1;
out:
	free(cmdline);
	free(release);
	free(marker);
	free(want);
	free(image);
	return ok;
}

/* ---- the runs of a slot on this boot ---- */

/* Wait until the 1-minute load is below the settle load or the timeout passed; the load seen. */
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

/* One `sysab run ARGS -l LABELS` into its own database in the private directory, then
 * attached to slot i (only runs the campaign started are attached). */
static int one_run(struct campaign_ctx *x, int i, int r, const struct kvlist *tags, struct err *e)
{
	const struct campaign *c = x->c;
	char *db = xasprintf("%s/slot%d.run%d.db", x->dir, i, r);
	struct strv argv = {0};
	strv_add(&argv, x->env->self);
	strv_add(&argv, "run");
	strv_add(&argv, "--db");
	strv_add(&argv, db);
	for (size_t k = 0; k < c->run_args.n; k++)
		strv_add(&argv, c->run_args.v[k]);
	const struct kvlist *l = &c->labels[c->r.slots[i].config];
	for (size_t k = 0; k < l->n; k++) {
		char *t = xasprintf("%s=%s", l->v[k].key, l->v[k].value);
		strv_add(&argv, "-l");
		strv_add(&argv, t);
		free(t);
	}
	char **av = xcalloc(argv.n + 1, sizeof *av);
	for (size_t k = 0; k < argv.n; k++)
		av[k] = argv.v[k];
	int rc = -1;
	unlink(db);
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0) {
		execv(x->env->self, av);
		_exit(127);
	}
	int status = 0;
	while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (pid < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		errf(e, "campaign '%s' slot %d: `sysab run` failed (status %d)", c->r.name, i,
		     pid < 0 ? -1 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
		goto out;
	}
	size_t added;
	rc = campaign_attach_db(x, i, db, tags, &added, e);
	/* a run that stored fewer runs than it makes (a node it found unsupported) ends its slot:
	 * running it again would store its other runs twice */
	if (!rc && (int)added < c->per_run) {
		campaign_slot_set(x->c, i, SLOT_FAILED,
				  xasprintf("`sysab run` stored %zu of the %d runs it makes (one per node of --nodes); "
					    "see its output with `sysab run` by hand on this machine",
					    added, c->per_run));
		rc = 1;
	}
out:
	unlink(db);
	free(av);
	strv_free(&argv);
	free(db);
	return rc;
}

int reboot_collect(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign *c = x->c;
	struct store_campaign_slot *s = &c->r.slots[i];
	char *why = NULL, *boot_id = NULL;
	int ok = reboot_check_kernel(c, i, &why, &boot_id);
	int rc = -1;
	if (c->slot[i] == SLOT_RUNNING && !(boot_id && s->boot_id && !strcmp(boot_id, s->boot_id))) {
		/* the machine went down during the runs of this slot */
		campaign_slot_interrupted(c, i, "the machine went down during the slot's runs");
		rc = 0;
		goto out;
	}
	if (c->slot[i] == SLOT_BOOTING) {
		free(s->boot_id);
		s->boot_id = boot_id;
		boot_id = NULL;
		if (!ok) {
			campaign_slot_set(c, i, SLOT_FAILED, why);
			why = NULL;
			s->finished_ns = clock_wall_ns();
			rc = 0;
			goto out;
		}
		campaign_slot_set(c, i, SLOT_RUNNING, NULL);
		if (campaign_slot_save(x, i, e))
			goto out;
	}
	/* running on this boot: the runs it still needs (a resume killed during them finishes them) */
	if (!x->dir && tmpdir_create_held(&x->dir, &x->dir_lock, e))
		goto out;
	int waited = 0;
	double load = settle(&c->opts, &waited);
	campaign_note(x, "slot %d: load %.2f after %d s; %d run%s to go", i, load, waited, campaign_slot_remaining(c, i),
		      campaign_slot_remaining(c, i) == 1 ? "" : "s");
	struct kvlist tags = {0};
	kv_addf(&tags, "campaign.settle_load", "%.2f", load);
	kv_addf(&tags, "campaign.settle_s", "%d", waited);
	kv_add(&tags, "campaign.name", c->r.name);
	kv_add(&tags, "campaign.backend", c->be->name);
	int todo = campaign_slot_invocations(c, i), failed = 0;
	for (int r = 0; r < todo && !sig_stop && !failed; r++)
		if ((failed = one_run(x, i, r, &tags, e)) < 0) {
			kv_free(&tags);
			goto out; /* stays running: the next resume goes on or counts it as interrupted */
		}
	kv_free(&tags);
	if (failed) {
		s->finished_ns = clock_wall_ns();
	} else if (campaign_slot_remaining(c, i) == 0) {
		campaign_slot_set(c, i, SLOT_DONE, NULL);
		s->finished_ns = clock_wall_ns();
	}
	rc = 0;
out:
	free(why);
	free(boot_id);
	return rc;
}

void reboot_new_args(const struct campaign_opts *o, struct strv *out)
{
	char load[32];
	snprintf(load, sizeof load, "%g", o->settle_load);
	campaign_opt_str(out, "--settle-load", o->settle_load >= 0.01 ? load : NULL);
	campaign_opt_int(out, "--settle-timeout", o->settle_timeout_s);
	campaign_opt_str(out, "--unit-dir", o->unit_dir);
}
