/* qemu.c - the qemu backend: each slot boots a fresh VM that runs sysab and sends its database back. */
#include "campaign/campaign.h"
#include "core/tmp.h"
#include "import/import_db.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Append one newc cpio entry (mode: file or directory) to b. */
static void cpio_entry(struct sb *b, const char *name, unsigned mode, const char *data, size_t len)
{
	static unsigned ino = 1;
	size_t nlen = strlen(name) + 1;
	sb_addf(b, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X", ino++, mode, 0u, 0u, 1u, 0u, len,
		0u, 0u, 0u, 0u, nlen, 0u);
	sb_addn(b, name, nlen);
	while (b->len % 4)
		sb_addn(b, "", 1);
	if (len)
		sb_addn(b, data, len);
	while (b->len % 4)
		sb_addn(b, "", 1);
}

/* Single-quote s for sh. */
static void sh_quote(struct sb *b, const char *s)
{
	sb_add(b, "'");
	for (; *s; s++)
		if (*s == '\'')
			sb_add(b, "'\\''");
		else
			sb_addn(b, s, 1);
	sb_add(b, "'");
}

/* The job of a slot: /job/run.sh with its `sysab run` commands, as a cpio archive. */
static void job_cpio(const struct store_campaign *c, const struct store_campaign_slot *x, struct sb *out)
{
	struct sb sh = {0};
	json_t *args = json_loads(c->run_args, 0, NULL);
	json_t *labels = json_loads(c->configs[x->config].labels, 0, NULL);
	sb_add(&sh, "rc=0\n");
	for (int r = 0; r < c->runs; r++) {
		sb_add(&sh, "sysab run --db /tmp/guest.db");
		for (size_t i = 0; i < json_array_size(args); i++) {
			sb_add(&sh, " ");
			sh_quote(&sh, json_string_value(json_array_get(args, i)));
		}
		const char *k;
		json_t *v;
		json_object_foreach(labels, k, v)
		{
			char *l = xasprintf("%s=%s", k, json_string_value(v));
			sb_add(&sh, " -l ");
			sh_quote(&sh, l);
			free(l);
		}
		sb_add(&sh, " </dev/null || rc=$?\n");
	}
	sb_add(&sh, "exit $rc\n");
	json_decref(args);
	json_decref(labels);
	cpio_entry(out, "job", 040755, NULL, 0);
	cpio_entry(out, "job/run.sh", 0100755, sh.s, sh.len);
	cpio_entry(out, "TRAILER!!!", 0, NULL, 0);
	sb_free(&sh);
}

static int write_file(const char *path, const char *a, size_t alen, const char *b, size_t blen, struct err *e)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, a, alen) != (ssize_t)alen || (blen && write(fd, b, blen) != (ssize_t)blen)) {
		int err = errno;
		if (fd >= 0)
			close(fd);
		return errf(e, "%s: cannot write: %s", path, strerror(err));
	}
	close(fd);
	return 0;
}

static int b64val(int c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Decode base64 text between p and end (whitespace ignored) into out. */
static void b64_decode(const char *p, const char *end, struct sb *out)
{
	unsigned acc = 0;
	int bits = 0;
	for (; p < end; p++) {
		int v = b64val((unsigned char)*p);
		if (v < 0)
			continue;
		acc = acc << 6 | (unsigned)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			char ch = (char)(acc >> bits & 0xff);
			sb_addn(out, &ch, 1);
		}
	}
}

/* The value after "KEY " on its own line in text, as a new string, or NULL. */
static char *field(const char *text, const char *key)
{
	size_t kl = strlen(key);
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, kl) && p[kl] == ' ') {
			const char *q = p + kl + 1;
			size_t n = strcspn(q, "\r\n");
			return xstrndup(q, n);
		}
	return NULL;
}

static bool kvm_usable(void)
{
	int fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

const char *campaign_qemu_accel(const struct campaign_opts *o)
{
	return strcmp(o->accel, "auto") ? o->accel : kvm_usable() ? "kvm" : "tcg";
}

void campaign_qemu_tcg_note(const struct campaign_env *env, const char *name, const char *accel)
{
	if (strcmp(accel, "tcg"))
		return;
	fprintf(env->out, "campaign %s: qemu emulates the guest's CPU (TCG, no KVM): every cost it measures is the "
			  "emulator's, not the kernel's; analyze, compare and report say so beside each result\n",
		name);
	fflush(env->out);
}

/* Where a slot's console log is kept: next to the database. */
static char *log_path(const struct campaign_env *env, const struct store_campaign *c, const struct store_campaign_slot *x)
{
	return xasprintf("%s.campaign-%s.slot%d.try%d.log", env->db_path, c->name, x->slot, x->attempts);
}

/* Run qemu; wait at most timeout_s, or at most probe_s for the kernel's first line on the
 * console (0 = no probe). *outcome: 0 exited, 1 timed out, 2 probe failed, 3 stopped. */
static int run_qemu(char **argv, const char *console, const char *errlog, int timeout_s, int probe_s, int *outcome,
		    struct err *e)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		return errf(e, "cannot start qemu: %s", strerror(errno));
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the sysab that drives it */
		int null = open("/dev/null", O_RDWR);
		int err = open(errlog, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		dup2(null, 0);
		dup2(null, 1);
		if (err >= 0)
			dup2(err, 2); /* qemu's warnings go to the slot's log, not the user's terminal */
		execvp(argv[0], argv);
		fprintf(stderr, "sysab campaign: cannot run %s: %s; install qemu-system-x86\n", argv[0], strerror(errno));
		_exit(127);
	}
	uint64_t t0 = clock_wall_ns();
	*outcome = 0;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		double el = (double)(clock_wall_ns() - t0) / 1e9;
		if (sig_stop)
			*outcome = 3;
		else if (el > timeout_s)
			*outcome = 1;
		else if (probe_s && el > probe_s) {
			char *t = read_text_file(console);
			bool up = t && strstr(t, "Linux version");
			free(t);
			if (up)
				probe_s = 0;
			else
				*outcome = 2;
		}
		if (*outcome) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (!*outcome && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return errf(e, "cannot run qemu-system-x86_64; install qemu-system-x86 (Debian)");
	return 0;
}

/* The qemu command line of a slot: the guest kernel, the slot's initrd, two serial ports
 * (console, then the data channel) written to files. */
static void qemu_argv(const struct campaign_opts *o, const char *kernel, const char *initrd, const char *append,
		      const char *console, const char *data, struct strv *argv)
{
	char *serial_con = xasprintf("file:%s", console), *serial_data = xasprintf("file:%s", data);
	char smp[16], mem[16];
	snprintf(smp, sizeof smp, "%d", o->smp);
	snprintf(mem, sizeof mem, "%d", o->mem_mb);
	const char *av[] = {"qemu-system-x86_64", "-machine", "q35", "-accel", o->accel, "-m", mem, "-smp", smp,
			    "-kernel", kernel, "-initrd", initrd, "-append", append, "-display", "none", "-no-reboot",
			    "-monitor", "none", "-serial", serial_con, "-serial", serial_data, "-net", "none"};
	for (size_t i = 0; i < sizeof av / sizeof av[0]; i++)
		strv_add(argv, av[i]);
	free(serial_con);
	free(serial_data);
}

/* Boot the guest once; if KVM was chosen and the kernel prints nothing under it, switch
 * this campaign to TCG (noted in o->accel_note) and boot again. */
static int boot_guest(const struct campaign_env *env, const struct store_campaign *c, struct campaign_opts *o,
		      struct strv *argv, const char *console, const char *data, const char *qerr, int *outcome,
		      struct err *e)
{
	for (;;) {
		unlink(console);
		unlink(data);
		char **avp = xcalloc(argv->n + 1, sizeof *avp);
		for (size_t i = 0; i < argv->n; i++)
			avp[i] = argv->v[i];
		bool probing = !strcmp(o->accel, "kvm") && !o->accel_note;
		int r = run_qemu(avp, console, qerr, o->boot_timeout_s, probing ? 60 : 0, outcome, e);
		free(avp);
		if (r)
			return r;
		if (*outcome == 2) {
			/* KVM exists but the guest kernel does not start under it: use TCG from now on */
			snprintf(o->accel, sizeof o->accel, "tcg");
			free(o->accel_note);
			o->accel_note = xstrdup("kvm: the guest kernel printed nothing within 60 s; tcg used");
			fprintf(env->out, "campaign %s: %s\n", c->name, o->accel_note);
			campaign_qemu_tcg_note(env, c->name, o->accel);
			for (size_t i = 0; i < argv->n; i++)
				if (!strcmp(argv->v[i], "kvm")) {
					free(argv->v[i]);
					argv->v[i] = xstrdup("tcg");
				}
			continue;
		}
		if (probing && !o->accel_note)
			o->accel_note = xstrdup("kvm: the guest kernel started under it");
		return 0;
	}
}

/* Keep the console log (and qemu's own messages after it) at logp, next to the database. */
static void keep_console_log(const char *logp, const char *console, const char *qerr)
{
	size_t n = 0, qn = 0;
	struct err ig;
	char *t = read_whole_file(console, (size_t)64 << 20, &n, &ig);
	char *q = read_whole_file(qerr, (size_t)1 << 20, &qn, &ig);
	write_file(logp, t ? t : "", t ? n : 0, q ? q : "", q ? qn : 0, &ig);
	free(t);
	free(q);
}

/* The guest never said SYSAB-DONE: judge from the console how far it got. The kernel
 * prints its command line first: the slot's marker there means the right kernel booted
 * and then stopped (crash, hang, power off): interrupted, retried; no marker: failed. */
static void judge_unfinished(struct store_campaign_slot *x, const char *console, const char *marker, const char *logp,
			     int outcome)
{
	char *con = read_text_file(console);
	const char *at = con ? strstr(con, "Kernel command line:") : NULL;
	char *kcl = at ? field(at, "Kernel command line:") : NULL;
	bool init = con && strstr(con, "sysab guest:");
	bool booted = kcl && strstr(kcl, marker);
	free(con);
	if (kcl && !booted) {
		x->state = xstrdup("failed");
		x->reason = xasprintf("wrong kernel: it booted with '%s', without the marker %s", kcl, marker);
	} else if (init || booted) {
		x->state = xstrdup("interrupted");
		x->reason = xasprintf("the guest stopped %s%s (console: %s)", init ? "during its runs" : "after its kernel started",
				      outcome == 1 ? ", killed at the boot timeout" : "", logp);
	} else {
		x->state = xstrdup("failed");
		x->reason = xasprintf("the guest never reached sysab's init%s (console: %s)",
				      outcome == 1 ? " before the boot timeout" : "", logp);
	}
	free(kcl);
}

/* Merge the guest's database (decoded into db) into the campaign's, tag its runs with the
 * campaign and the accelerator, keep a copy beside the console log, and set x's state.
 * Returns -1 only when this database could not take the runs (e says why). */
static int merge_guest_db(const struct campaign_env *env, const struct store_campaign *c, const struct campaign_opts *o,
			  struct store_campaign_slot *x, const char *dir, const char *logp, const struct sb *db, struct err *e)
{
	char *dbp = xasprintf("%s/guest.db", dir);
	struct import_db_result res = {0};
	int rc = 0;
	if (write_file(dbp, db->s, db->len, NULL, 0, e) || import_db_file(env->st, dbp, &res, e)) {
		x->state = xstrdup("interrupted");
		free(dbp);
		return -1;
	}
	for (size_t i = 0; i < res.nruns && !rc; i++)
		rc = store_campaign_add_run(env->st, c->id, x->slot, res.ids[i], e) ||
		     store_run_env(env->st, res.ids[i], "campaign.accel", o->accel, e) ||
		     (o->accel_note && store_run_env(env->st, res.ids[i], "campaign.accel_note", o->accel_note, e)) ||
		     store_run_env(env->st, res.ids[i], "campaign.name", c->name, e) ||
		     store_run_env(env->st, res.ids[i], "campaign.backend", "qemu", e);
	/* the guest's database is kept beside its console log, for audits and re-imports */
	char *keep = xasprintf("%.*s.db", (int)(strlen(logp) - 4), logp);
	struct err ig;
	write_file(keep, db->s, db->len, NULL, 0, &ig);
	free(keep);
	x->state = xstrdup(res.nruns >= (size_t)c->runs ? "done" : "failed");
	if (res.nruns < (size_t)c->runs)
		x->reason = xasprintf("the guest stored %zu of %d runs (console: %s)", res.nruns, c->runs, logp);
	import_db_result_free(&res);
	free(dbp);
	return rc ? -1 : 0;
}

/* The guest finished: check it booted the right kernel, then take its database from the
 * data channel's text. Returns -1 only when the merge could not store (e says why). */
static int take_guest_result(const struct campaign_env *env, const struct store_campaign *c,
			     const struct campaign_opts *o, struct store_campaign_slot *x, const char *dir,
			     const char *logp, const char *marker, const char *text, struct err *e)
{
	char *cmdline = field(text, "SYSAB-CMDLINE"), *kver = field(text, "SYSAB-KERNEL");
	free(x->boot_id);
	x->boot_id = field(text, "SYSAB-BOOT-ID");
	bool right = cmdline && strstr(cmdline, marker);
	const char *b = strstr(text, "SYSAB-DB-BEGIN"), *end = strstr(text, "SYSAB-DB-END");
	int rc = 0;
	if (!right) {
		x->state = xstrdup("failed");
		x->reason = xasprintf("wrong kernel: booted '%s' with '%s', expected the marker %s", kver ? kver : "?",
				      cmdline ? cmdline : "?", marker);
	} else if (!b || !end || end < b) {
		char *st = field(text, "SYSAB-STATUS");
		x->state = xstrdup("failed");
		x->reason = xasprintf("the guest's sysab run stored nothing (status %s; console: %s)", st ? st : "?", logp);
		free(st);
	} else {
		struct sb db = {0};
		char *sz = field(b, "SYSAB-DB-BEGIN");
		size_t want = sz ? strtoull(sz, NULL, 10) : 0;
		free(sz);
		const char *nl = strchr(b, '\n');
		b64_decode(nl && nl < end ? nl : end, end, &db);
		if (db.len != want) {
			x->state = xstrdup("interrupted");
			x->reason = xasprintf("the guest's database came back truncated (%zu of %zu bytes)", db.len, want);
		} else
			rc = merge_guest_db(env, c, o, x, dir, logp, &db, e);
		sb_free(&db);
	}
	free(cmdline);
	free(kver);
	return rc;
}

int campaign_qemu_slot(const struct campaign_env *env, const struct store_campaign *c, struct campaign_opts *o,
		       struct store_campaign_slot *x, struct err *e)
{
	const struct store_campaign_config *k = &c->configs[x->config];
	char *dir = NULL, *qerr = NULL, *kernel = NULL, *base = NULL, *initrd = NULL, *data = NULL, *console = NULL, *append = NULL;
	char *marker = campaign_marker(c->name, x->slot), *text = NULL, *logp = NULL;
	struct sb job = {0};
	struct strv argv = {0};
	int rc = -1;
	const char *image = o->image ? o->image : "build/guest";
	kernel = k->kernel ? xstrdup(k->kernel) : xasprintf("%s/vmlinuz", image);
	base = k->initrd ? xstrdup(k->initrd) : xasprintf("%s/initramfs.cpio.gz", image);
	if (env->dry_run && (access(kernel, R_OK) || access(base, R_OK)))
		fprintf(env->out, "note: %s is missing; `make guest` builds the guest before a real start\n",
			access(kernel, R_OK) ? kernel : base);
	else if (access(kernel, R_OK) || access(base, R_OK)) {
		errf(e, "campaign '%s': the guest %s is missing or unreadable; build the guest with `make guest` (or give "
			"--image DIR with vmlinuz and initramfs.cpio.gz)",
		     c->name, access(kernel, R_OK) ? kernel : base);
		goto out;
	}
	if (!strcmp(o->accel, "auto") && !env->dry_run)
		snprintf(o->accel, sizeof o->accel, "%s", kvm_usable() ? "kvm" : "tcg");
	append = xasprintf("console=ttyS0 panic=-1 %s %s", k->append ? k->append : "", marker);
	if (env->dry_run)
		dir = xstrdup("TMPDIR");
	else if (tmpdir_create(&dir, e))
		goto out;
	initrd = xasprintf("%s/initrd", dir);
	qerr = xasprintf("%s/qemu.err", dir);
	data = xasprintf("%s/data", dir);
	console = xasprintf("%s/console", dir);
	qemu_argv(o, kernel, initrd, append, console, data, &argv);
	if (env->dry_run) {
		fprintf(env->out, "slot %d (block %d): %s\n  would run:", x->slot, x->block, k->name);
		for (size_t i = 0; i < argv.n; i++)
			fprintf(env->out, " %s", argv.v[i]);
		fprintf(env->out, "\n");
		rc = 0;
		goto out;
	}
	size_t blen;
	char *basebuf = read_whole_file(base, (size_t)1 << 30, &blen, e);
	if (!basebuf)
		goto out;
	job_cpio(c, x, &job);
	rc = write_file(initrd, job.s, job.len, basebuf, blen, e);
	free(basebuf);
	int outcome;
	if (rc || (rc = boot_guest(env, c, o, &argv, console, data, qerr, &outcome, e)))
		goto out;
	logp = log_path(env, c, x);
	keep_console_log(logp, console, qerr);
	size_t dlen = 0;
	struct err ig;
	text = read_whole_file(data, (size_t)1 << 30, &dlen, &ig);
	free(x->state);
	free(x->reason);
	x->reason = NULL;
	if (outcome == 3) {
		x->state = xstrdup("interrupted");
		x->reason = xstrdup("stopped by a signal during the boot");
	} else if (!text || !strstr(text, "SYSAB-DONE"))
		judge_unfinished(x, console, marker, logp, outcome);
	else
		rc = take_guest_result(env, c, o, x, dir, logp, marker, text, e);
out:
	if (dir && !env->dry_run)
		tmpdir_remove(dir);
	free(dir);
	free(kernel);
	free(base);
	free(initrd);
	free(qerr);
	free(data);
	free(console);
	free(append);
	free(marker);
	free(text);
	free(logp);
	sb_free(&job);
	strv_free(&argv);
	return rc;
}
