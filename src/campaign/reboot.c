/* reboot.c - the self-rebooting backends (kexec, grub, command): arming a boot, the resume unit, the kernel check. */
#include "campaign/campaign.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Run argv (or print it with dry_run); extra environment in envp (may be NULL). shutdown: argv
 * takes the machine down (systemctl kexec|reboot), and systemd stops every service on the way,
 * the one running sysab included, so a command killed by SIGTERM, SIGKILL or SIGHUP is taken for
 * the shutdown under way, not for a failure: the slot is already armed and marked booting. */
static int run_cmd(const struct campaign_env *env, char *const argv[], char *const envp[], bool shutdown,
		   struct err *e)
{
	if (env->dry_run) {
		fprintf(env->out, "  would run:");
		for (size_t i = 0; envp && envp[i]; i++)
			fprintf(env->out, " %s", envp[i]);
		for (size_t i = 0; argv[i]; i++)
			fprintf(env->out, " %s", argv[i]);
		fprintf(env->out, "\n");
		return 0;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return errf(e, "cannot run %s: %s", argv[0], strerror(errno));
	if (pid == 0) {
		for (size_t i = 0; envp && envp[i]; i++)
			putenv(envp[i]);
		execvp(argv[0], argv);
		fprintf(stderr, "sysab campaign: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return errf(e, "cannot wait for %s: %s", argv[0], strerror(errno));
	if (shutdown && WIFSIGNALED(status) &&
	    (WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGKILL || WTERMSIG(status) == SIGHUP))
		return 0;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return errf(e, "%s failed (status %d)%s", argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1,
			    WIFEXITED(status) && WEXITSTATUS(status) == 127 ? "; is it installed?" : "");
	return 0;
}

static char *slot_append(const struct store_campaign *c, const struct store_campaign_slot *x)
{
	const struct store_campaign_config *k = &c->configs[x->config];
	char *m = campaign_marker(c->name, x->slot);
	char *a = xasprintf("%s%s%s", k->append ? k->append : "", k->append && *k->append ? " " : "", m);
	free(m);
	return a;
}

int campaign_arm_and_boot(const struct campaign_env *env, const struct store_campaign *c,
			  const struct store_campaign_slot *x, struct err *e)
{
	const struct store_campaign_config *k = &c->configs[x->config];
	char *append = slot_append(c, x);
	int rc = -1;
	if (env->dry_run)
		fprintf(env->out, "slot %d (block %d): %s\n", x->slot, x->block, k->name);
	if (!strcmp(c->backend, "kexec")) {
		char *kappend = xasprintf("--append=%s", append);
		char *kinitrd = k->initrd ? xasprintf("--initrd=%s", k->initrd) : NULL;
		char *load[] = {"kexec", "-l", k->kernel, kappend, kinitrd, NULL};
		char *boot[] = {"systemctl", "kexec", NULL};
		rc = run_cmd(env, load, NULL, false, e);
		if (!rc)
			rc = run_cmd(env, boot, NULL, true, e);
		free(kappend);
		free(kinitrd);
	} else if (!strcmp(c->backend, "grub")) {
		char *arm[] = {"grub-reboot", k->entry, NULL};
		char *boot[] = {"systemctl", "reboot", NULL};
		rc = run_cmd(env, arm, NULL, false, e);
		if (!rc)
			rc = run_cmd(env, boot, NULL, true, e);
	} else {
		/* command: the user's command boots the machine; it gets the configuration in its environment */
		struct strv ev = {0};
		char *t = xasprintf("SYSAB_CAMPAIGN=%s", c->name);
		strv_add(&ev, t);
		free(t);
		t = xasprintf("SYSAB_CONFIG=%s", k->name);
		strv_add(&ev, t);
		free(t);
		t = xasprintf("SYSAB_SLOT=%d", x->slot);
		strv_add(&ev, t);
		free(t);
		t = xasprintf("SYSAB_APPEND=%s", append);
		strv_add(&ev, t);
		free(t);
		if (k->kernel) {
			t = xasprintf("SYSAB_KERNEL=%s", k->kernel);
			strv_add(&ev, t);
			free(t);
		}
		if (k->initrd) {
			t = xasprintf("SYSAB_INITRD=%s", k->initrd);
			strv_add(&ev, t);
			free(t);
		}
		json_t *j = json_loads(k->labels, 0, NULL);
		const char *key;
		json_t *v;
		json_object_foreach(j, key, v)
		{
			t = xasprintf("SYSAB_LABEL_%s=%s", key, json_string_value(v));
			for (char *p = t + 12; *p && *p != '='; p++)
				if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
					*p = '_';
			strv_add(&ev, t);
			free(t);
		}
		json_decref(j);
		char **envp = xcalloc(ev.n + 1, sizeof *envp);
		for (size_t i = 0; i < ev.n; i++)
			envp[i] = ev.v[i];
		char *argv[] = {"/bin/sh", "-c", k->command, NULL};
		rc = run_cmd(env, argv, envp, false, e);
		free(envp);
		strv_free(&ev);
	}
	if (rc && !env->dry_run)
		err_prefix(e, "campaign '%s' slot %d (%s)", c->name, x->slot, k->name);
	free(append);
	return rc;
}

static char *unit_name(const struct store_campaign *c)
{
	return xasprintf("sysab-campaign-%s.service", c->name);
}

static char *unit_text(const struct campaign_env *env, const struct store_campaign *c)
{
	return xasprintf("# written by `sysab campaign start %s`; removed when the campaign ends\n"
			 "[Unit]\n"
			 "Description=sysab boot campaign %s: run this boot's slot, then boot the next\n"
			 "After=multi-user.target\n"
			 "\n"
			 "[Service]\n"
			 "Type=oneshot\n"
			 "ExecStart=%s campaign resume %s --db %s\n"
			 "StandardOutput=journal+console\n"
			 "\n"
			 "[Install]\n"
			 "WantedBy=multi-user.target\n",
			 c->name, c->name, env->self, c->name, env->db_path);
}

int campaign_unit_install(const struct campaign_env *env, const struct store_campaign *c,
			  const struct campaign_opts *o, struct err *e)
{
	char *name = unit_name(c), *text = unit_text(env, c);
	char *path = xasprintf("%s/%s", o->unit_dir, name);
	char *wants = xasprintf("%s/multi-user.target.wants", o->unit_dir);
	char *link = xasprintf("%s/%s", wants, name);
	int rc = -1;
	bool systemd = access("/run/systemd/system", F_OK) == 0 || strcmp(o->unit_dir, "/etc/systemd/system");
	if (env->dry_run) {
		fprintf(env->out, "would write %s:\n%s", path, text);
		fprintf(env->out, "would enable it: ln -s %s %s\n", path, link);
		rc = 0;
		goto out;
	}
	if (!systemd) {
		errf(e, "campaign '%s': this machine does not run systemd; add this line to a script that runs once at "
			"every boot after the system is up (e.g. /etc/rc.local), then start again with --unit-dir pointing "
			"at an empty directory: %s campaign resume %s --db %s",
		     c->name, env->self, c->name, env->db_path);
		goto out;
	}
	if (mkdir(wants, 0755) && errno != EEXIST) {
		errf(e, "%s: cannot create: %s%s", wants, strerror(errno),
		     errno == EACCES || errno == EPERM ? "; installing the resume unit needs root (sudo)" : "");
		goto out;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		errf(e, "%s: cannot write the resume unit: %s%s", path, strerror(errno),
		     errno == EACCES || errno == EPERM ? "; installing it needs root (sudo)" : "");
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		goto out;
	}
	close(fd);
	unlink(link);
	if (symlink(path, link)) {
		errf(e, "%s: cannot enable the resume unit: %s", link, strerror(errno));
		unlink(path);
		goto out;
	}
	fprintf(env->out, "installed %s (runs `sysab campaign resume %s` at boot)\n", path, c->name);
	rc = 0;
out:
	free(name);
	free(text);
	free(path);
	free(wants);
	free(link);
	return rc;
}

void campaign_unit_remove(const struct campaign_env *env, const struct store_campaign *c,
			  const struct campaign_opts *o)
{
	char *name = unit_name(c);
	char *path = xasprintf("%s/%s", o->unit_dir, name);
	char *link = xasprintf("%s/multi-user.target.wants/%s", o->unit_dir, name);
	if (env->dry_run)
		fprintf(env->out, "would remove %s and %s\n", link, path);
	else {
		bool had = access(path, F_OK) == 0;
		unlink(link);
		unlink(path);
		if (had)
			fprintf(env->out, "removed %s\n", path);
	}
	free(name);
	free(path);
	free(link);
}

static char *proc_text(const char *name, const char *real)
{
	const char *dir = getenv("SYSAB_CAMPAIGN_PROC");
	char *p = dir && *dir ? xasprintf("%s/%s", dir, name) : xstrdup(real);
	char *t = read_text_file(p);
	free(p);
	if (t)
		t[strcspn(t, "\n")] = 0;
	return t;
}

int campaign_check_kernel(const struct store_campaign *c, const struct store_campaign_slot *x, char **why,
			  char **boot_id)
{
	const struct store_campaign_config *k = &c->configs[x->config];
	char *cmdline = proc_text("cmdline", "/proc/cmdline");
	char *release = proc_text("osrelease", "/proc/sys/kernel/osrelease");
	*boot_id = proc_text("boot_id", "/proc/sys/kernel/random/boot_id");
	char *marker = campaign_marker(c->name, x->slot);
	int ok = 1;
	*why = NULL;
	bool has_marker = false;
	for (char *p = cmdline; p && (p = strstr(p, marker)); p++)
		if ((p == cmdline || p[-1] == ' ') && (p[strlen(marker)] == 0 || p[strlen(marker)] == ' '))
			has_marker = true;
	if (!cmdline || !release)
		ok = 0, *why = xstrdup("cannot read /proc/cmdline or the kernel release");
	else if (strcmp(c->backend, "grub") && !has_marker)
		ok = 0, *why = xasprintf("wrong kernel: booted %s with '%s', without the marker %s (the default kernel came "
					 "back, or the new one failed)",
					 release, cmdline, marker);
	else if (!strcmp(c->backend, "grub") && k->append && !strstr(cmdline, k->append))
		ok = 0, *why = xasprintf("wrong kernel: booted %s with '%s', not the entry's '%s'", release, cmdline,
					 k->append);
	free(cmdline);
	free(release);
	free(marker);
	return ok;
}
