/* qemu.c - the qemu backend: each slot boots a fresh VM that runs sysab and sends its database back. */
#include "campaign/arch.h"
#include "campaign/backend.h"
#include "core/testhooks.h"
#include "core/tmp.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The accelerator of a drive: auto (campaign new's default) until prepare chooses. */
enum qemu_accel { QEMU_ACCEL_AUTO, QEMU_ACCEL_KVM, QEMU_ACCEL_TCG };
/* How a guest's qemu ended. */
enum qemu_outcome {
	QEMU_EXITED,       /* it exited */
	QEMU_TIMED_OUT,    /* killed at the boot timeout */
	QEMU_PROBE_FAILED, /* the KVM probe failed: the guest kernel printed nothing */
	QEMU_STOPPED,      /* stopped by a signal to sysab */
	QEMU_KILLED,       /* killed by a signal sysab did not send (the OOM killer, say): qemu_sig */
};

static const char *accel_word(enum qemu_accel a)
{
	return a == QEMU_ACCEL_KVM ? "kvm" : a == QEMU_ACCEL_TCG ? "tcg" : "auto";
}

/* qemu's options (campaign_opts.be of a qemu campaign), stored under these names in the
 * campaign's options object (qemu_opts_write). */
struct qemu_opts {
	int smp, mem_mb;            /* -smp and -m */
	int numa;                   /* the guest's NUMA nodes, each 1/numa of smp and mem (1: no -numa) */
	bool duet;                  /* each block boots its two configurations at once, on disjoint host CPUs */
	enum qemu_accel accel;      /* asked for: auto, kvm or tcg */
	char *image;                /* directory with vmlinuz and initramfs.cpio.gz */
	char arch[16];              /* the guest's architecture, or auto (told from its kernel) */
	char *qemu;                 /* the qemu binary, or NULL for the architecture's in PATH */
	int boot_timeout_s;         /* a boot (with its runs) taking longer is killed */
	char *accel_note;           /* why qemu uses what it uses, once probed (older campaigns) */
};

/* The defaults of the options a stored campaign lacks (the option table's, test_cli holds them). */
static const struct qemu_opts qemu_defaults = {
	.smp = 1, .mem_mb = 512, .numa = 1, .arch = "auto", .boot_timeout_s = 900};

/* The qemu options of o; the defaults (as an empty options object reads) when o holds another
 * backend's, so an accessor asked about those answers as a campaign without the option would. */
static const struct qemu_opts *qo(const struct campaign_opts *o)
{
	return o->bk == &campaign_backend_qemu && o->be ? o->be : &qemu_defaults;
}

static enum qemu_accel accel_of(const char *w)
{
	return !w ? QEMU_ACCEL_AUTO : !strcmp(w, "kvm") ? QEMU_ACCEL_KVM : !strcmp(w, "tcg") ? QEMU_ACCEL_TCG : QEMU_ACCEL_AUTO;
}

static void qemu_opts_read(void *b, const json_t *j)
{
	struct qemu_opts *q = b;
	q->smp = (int)json_integer_value(json_object_get(j, "smp"));
	q->mem_mb = (int)json_integer_value(json_object_get(j, "mem_mb"));
	q->numa = (int)json_integer_value(json_object_get(j, "numa"));
	q->duet = json_is_true(json_object_get(j, "duet"));
	q->accel = accel_of(json_string_value(json_object_get(j, "accel")));
	const char *s;
	if ((s = json_string_value(json_object_get(j, "image"))))
		q->image = xstrdup(s);
	s = json_string_value(json_object_get(j, "arch"));
	snprintf(q->arch, sizeof q->arch, "%s", s && campaign_qemu_arch_ok(s) ? s : "auto");
	if ((s = json_string_value(json_object_get(j, "qemu"))))
		q->qemu = xstrdup(s);
	if ((s = json_string_value(json_object_get(j, "accel_note"))))
		q->accel_note = xstrdup(s);
	q->boot_timeout_s = (int)json_integer_value(json_object_get(j, "boot_timeout_s"));
	if (q->smp <= 0 || q->smp > 256)
		q->smp = qemu_defaults.smp;
	if (q->mem_mb <= 0 || q->mem_mb > (1 << 20))
		q->mem_mb = qemu_defaults.mem_mb;
	if (q->numa <= 0 || q->numa > 256)
		q->numa = qemu_defaults.numa;
	if (q->boot_timeout_s <= 0)
		q->boot_timeout_s = qemu_defaults.boot_timeout_s;
}

static void qemu_opts_write(const void *b, json_t *j)
{
	const struct qemu_opts *q = b;
	json_object_set_new(j, "smp", json_integer(q->smp));
	json_object_set_new(j, "mem_mb", json_integer(q->mem_mb));
	if (q->numa > 1) /* one node (no -numa) is the default, and the options of older campaigns */
		json_object_set_new(j, "numa", json_integer(q->numa));
	if (q->duet) /* absent: the options of a campaign that is no duet, and of older ones */
		json_object_set_new(j, "duet", json_true());
	json_object_set_new(j, "accel", json_string(accel_word(q->accel)));
	if (q->image)
		json_object_set_new(j, "image", json_string(q->image));
	if (q->arch[0] && strcmp(q->arch, "auto"))
		json_object_set_new(j, "arch", json_string(q->arch));
	if (q->qemu)
		json_object_set_new(j, "qemu", json_string(q->qemu));
	json_object_set_new(j, "boot_timeout_s", json_integer(q->boot_timeout_s));
	if (q->accel_note)
		json_object_set_new(j, "accel_note", json_string(q->accel_note));
}

static void qemu_opts_free(void *b)
{
	struct qemu_opts *q = b;
	free(q->image);
	free(q->qemu);
	free(q->accel_note);
}

/* parse_opt: the options of `campaign new` that are qemu's (their ranges are the option table's). */
static int qemu_parse_opt(void *b, const char *name, const char *arg, struct err *e)
{
	struct qemu_opts *q = b;
	if (!strcmp(name, "smp"))
		q->smp = atoi(arg);
	else if (!strcmp(name, "mem"))
		q->mem_mb = atoi(arg);
	else if (!strcmp(name, "numa"))
		q->numa = atoi(arg);
	else if (!strcmp(name, "duet"))
		q->duet = true;
	else if (!strcmp(name, "boot-timeout"))
		q->boot_timeout_s = atoi(arg);
	else if (!strcmp(name, "accel")) {
		if (strcmp(arg, "auto") && strcmp(arg, "kvm") && strcmp(arg, "tcg"))
			return errf(e, "--accel: give auto, kvm or tcg");
		q->accel = accel_of(arg);
	} else if (!strcmp(name, "image")) {
		free(q->image);
		q->image = realpath(arg, NULL);
		if (!q->image)
			return errf(e, "--image %s: no such directory; build the guest with `make guest`", arg);
	} else if (!strcmp(name, "arch")) {
		if (!campaign_qemu_arch_ok(arg))
			return errf(e, "--arch %s: give %s", arg, campaign_qemu_arch_names());
		snprintf(q->arch, sizeof q->arch, "%s", arg);
	} else if (!strcmp(name, "qemu")) {
		free(q->qemu);
		/* a path is kept absolute, so that a resume from elsewhere runs the same binary */
		q->qemu = strchr(arg, '/') ? realpath(arg, NULL) : xstrdup(arg);
		if (!q->qemu)
			return errf(e, "--qemu %s: no such file", arg);
	} else
		return 1;
	return 0;
}

/* new_defaults: the guest image is guest/ beside this sysab unless --image is given. */
static void qemu_new_defaults(void *b, const char *self)
{
	struct qemu_opts *q = b;
	if (q->image || !self)
		return;
	char *d = xstrdup(self);
	q->image = xasprintf("%s/guest", dirname(d));
	free(d);
}

static int qemu_nodes(const struct campaign_opts *o)
{
	return qo(o)->numa;
}

static bool qemu_duet(const struct campaign_opts *o)
{
	return qo(o)->duet;
}

int campaign_qemu_smp(const struct campaign_opts *o)
{
	return qo(o)->smp;
}

int campaign_qemu_mem_mb(const struct campaign_opts *o)
{
	return qo(o)->mem_mb;
}

int campaign_qemu_numa(const struct campaign_opts *o)
{
	return qo(o)->numa;
}

bool campaign_qemu_duet(const struct campaign_opts *o)
{
	return qo(o)->duet;
}

int campaign_qemu_boot_timeout_s(const struct campaign_opts *o)
{
	return qo(o)->boot_timeout_s;
}

const char *campaign_qemu_accel(const struct campaign_opts *o)
{
	return accel_word(qo(o)->accel);
}

const char *campaign_qemu_arch(const struct campaign_opts *o)
{
	return qo(o)->arch[0] ? qo(o)->arch : "auto";
}

/* What one start or resume of a qemu campaign carries from call to call (campaign_ctx.state). */
struct qemu_state {
	enum qemu_outcome outcome; /* the last boot */
	int qemu_sig;              /* with QEMU_KILLED: the signal */
	char *guest_text;          /* what the guest sent on its data channel, or NULL */
	char *console;             /* its console (in the ctx's dir) */
	char *log;                 /* where the console was kept beside the database */
	double kvm_probe_s;        /* how long a KVM boot may stay silent ($SYSAB_KVM_PROBE_S, default 60) */
	enum qemu_accel accel;     /* chosen for this drive */
	char *accel_note;          /* why */
	/* --duet: boot_pair(i, pair) boots both at once; the pair's results wait in pair_* until
	 * take_pair(pair) takes them (pair_ready) */
	int pair;
	bool pair_ready;
	char *pair_text, *pair_console, *pair_log;
	enum qemu_outcome pair_outcome;
	int pair_qemu_sig;
	uint64_t go_ns[2]; /* when each guest (by slot: [0] the one booted, [1] its pair) got its go */
	double wait_s[2];  /* how long each waited for the go after it was ready */
};

/* x's qemu state (made by qemu_init_state before any other call). */
static struct qemu_state *qs(const struct campaign_ctx *x)
{
	return x->state;
}

static void qemu_init_state(struct campaign_ctx *x)
{
	struct qemu_state *q = xcalloc(1, sizeof *q);
	q->kvm_probe_s = testhooks()->kvm_probe_s > 0 ? testhooks()->kvm_probe_s : 60;
	q->accel = qo(&x->c->opts)->accel;
	if (qo(&x->c->opts)->accel_note)
		q->accel_note = xstrdup(qo(&x->c->opts)->accel_note);
	q->pair = -1;
	x->state = q;
}

static void qemu_free_state(struct campaign_ctx *x)
{
	struct qemu_state *q = x->state;
	if (!q)
		return;
	free(q->guest_text);
	free(q->console);
	free(q->log);
	free(q->accel_note);
	free(q->pair_text);
	free(q->pair_console);
	free(q->pair_log);
	free(q);
	x->state = NULL;
}

/* The architecture of the kernel image at path, from its header: an x86 bzImage ("HdrS"), a
 * PE/EFI image (LoongArch's, also when zboot-compressed) or an ELF file, by its machine
 * number. NULL when the file cannot be read or is none of these. */
static const struct guest_arch *guest_arch_of_image(const char *path)
{
	unsigned char h[0x210];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	ssize_t n = pread(fd, h, sizeof h, 0);
	unsigned pe = 0, elf = 0;
	if (n == (ssize_t)sizeof h && !memcmp(h + 0x202, "HdrS", 4))
		pe = 0x8664; /* x86 boot protocol */
	else if (n >= 20 && !memcmp(h, "\177ELF", 4))
		elf = h[18] | (unsigned)h[19] << 8; /* e_machine */
	else if (n >= 0x40 && h[0] == 'M' && h[1] == 'Z') {
		/* the PE header's offset at 0x3c; its machine after "PE\0\0" */
		unsigned char p[6];
		off_t off = (off_t)(h[0x3c] | h[0x3d] << 8 | h[0x3e] << 16 | (unsigned)h[0x3f] << 24);
		if (pread(fd, p, sizeof p, off) == (ssize_t)sizeof p && !memcmp(p, "PE\0\0", 4))
			pe = p[4] | (unsigned)p[5] << 8;
	}
	close(fd);
	for (size_t i = 0; (pe || elf) && i < campaign_narches; i++)
		if (pe ? pe == campaign_arches[i].pe : elf == campaign_arches[i].elf)
			return &campaign_arches[i];
	return NULL;
}

/* The kernel release the image at path announces: campaign_kernel_release's (an x86 bzImage's
 * header, else the file name), else the banner an uncompressed kernel image holds, "Linux
 * version RELEASE (", as in a LoongArch guest's plain EFI image. A new string, or NULL. */
static char *guest_release(const char *path)
{
	char *rel = campaign_kernel_release(path);
	size_t len = 0;
	struct err ig;
	char *img = rel ? NULL : read_whole_file(path, (size_t)512 << 20, &len, &ig);
	static const char banner[] = "Linux version ";
	for (const char *p = img; p && !rel && (p = memmem(p, len - (size_t)(p - img), banner, sizeof banner - 1));
	     p++) {
		const char *v = p + sizeof banner - 1, *end = img + len;
		size_t n = 0;
		while (v + n < end && n < 128 && v[n] > ' ' && v[n] < 127 && v[n] != '%')
			n++;
		if (n && v + n + 1 < end && v[n] == ' ' && v[n + 1] == '(')
			rel = xstrndup(v, n);
	}
	free(img);
	return rel;
}

/* Whether nodes divide what (smp or mem) evenly; else -1 with e naming both options. */
static int numa_split(int nodes, int what, const char *opt, const char *unit, struct err *e)
{
	if (what % nodes == 0)
		return 0;
	return errf(e, "--numa %d: %s %d does not divide evenly among %d nodes (each node gets the same %s); give %s a "
		       "multiple of %d, or another --numa",
		    nodes, opt, what, nodes, unit, opt, nodes);
}

int campaign_qemu_numa_check(const struct campaign_opts *o, const char *arch, struct err *e)
{
	const struct qemu_opts *q = qo(o);
	if (q->numa <= 1)
		return 0;
	if (q->numa > q->smp)
		return errf(e, "--numa %d: more nodes than the guest's %d CPU%s (--smp %d); every node needs a CPU, so give "
			       "--smp at least %d",
			    q->numa, q->smp, q->smp == 1 ? "" : "s", q->smp, q->numa);
	if (numa_split(q->numa, q->smp, "--smp", "CPUs", e) || numa_split(q->numa, q->mem_mb, "--mem", "memory", e))
		return -1;
	const struct guest_arch *a = campaign_arch_find(arch);
	if (a && a->no_numa)
		return errf(e, "--numa %d: a %s guest gets no NUMA nodes from qemu here: %s; leave --numa out", q->numa,
			    a->name, a->no_numa);
	return 0;
}

/* ---- --duet: two guests at once on disjoint host CPUs ---- */

/* The CPUs this process may run on, in order, into cpu[0..max-1]; their count. */
static int duet_host_cpus(int *cpu, int max)
{
	cpu_set_t set;
	int n = 0;
	if (sched_getaffinity(0, sizeof set, &set))
		return 0;
	for (int k = 0; k < CPU_SETSIZE && n < max; k++)
		if (CPU_ISSET(k, &set))
			cpu[n++] = k;
	return n;
}

bool campaign_duet_cpus(int smp, int k, char *buf, size_t n)
{
	int cpu[CPU_SETSIZE];
	int have = duet_host_cpus(cpu, CPU_SETSIZE);
	if (smp < 1 || have < 2 * smp) {
		snprintf(buf, n, "?");
		return false;
	}
	const int *c = &cpu[k * smp];
	struct sb b = {0};
	for (int i = 0; i < smp;) { /* runs of consecutive CPUs as A-B */
		int j = i;
		while (j + 1 < smp && c[j + 1] == c[j] + 1)
			j++;
		sb_addf(&b, "%s%d", b.len ? "," : "", c[i]);
		if (j > i)
			sb_addf(&b, "-%d", c[j]);
		i = j + 1;
	}
	snprintf(buf, n, "%s", b.s);
	sb_free(&b);
	return true;
}

int campaign_duet_check(const struct campaign_opts *o, const char *backend, size_t nconfigs, struct err *e)
{
	const struct qemu_opts *q = qo(o);
	if (!q->duet)
		return 0;
	const struct campaign_backend *be = campaign_backend_find(backend);
	if (!be || !(be->caps & CB_DUET))
		return errf(e, "--duet: two guests booted at once are qemu guests; the %s backend boots this machine "
			       "itself, one kernel at a time, so leave --duet out (or use --backend qemu)",
			    backend);
	if (nconfigs != 2)
		return errf(e, "--duet: a duet boots exactly two configurations at once (A and B); this campaign has %zu", nconfigs);
	int cpu[CPU_SETSIZE];
	int have = duet_host_cpus(cpu, CPU_SETSIZE);
	if (have < 2 * q->smp)
		return errf(e, "--duet: the two guests need disjoint host CPUs, 2 x --smp %d = %d, but this host gives "
			       "sysab %d; give --smp %d or less",
			    q->smp, 2 * q->smp, have, have / 2 > 0 ? have / 2 : 1);
	if (q->numa > 1)
		return errf(e, "--duet with --numa %d: not built (a duet pins each guest to its own host CPUs, and the "
			       "guest nodes would then need host nodes of their own); leave one of them out",
			    q->numa);
	return 0;
}

/* check_opts: the NUMA split (at loading only when there are nodes), and at `new` the duet. */
static int qemu_check_opts(const struct campaign_opts *o, size_t nconfigs, bool fresh, struct err *e)
{
	const struct qemu_opts *q = qo(o);
	if (campaign_path_check(fresh ? "--image" : "image", q->image, true, e) ||
	    campaign_path_check(fresh ? "--qemu" : "qemu", q->qemu, false, e))
		return -1;
	if (q->accel_note && !text_is_clean(q->accel_note, false))
		return errf(e, "accel_note is not printable text without newlines");
	if (!fresh && q->duet && nconfigs != 2)
		return errf(e, "duet is for two configurations of the qemu backend, but the backend is qemu with %zu",
			    nconfigs);
	if ((fresh || qo(o)->numa > 1) && campaign_qemu_numa_check(o, qo(o)->arch, e))
		return -1;
	return fresh ? campaign_duet_check(o, "qemu", nconfigs, e) : 0;
}

/* new_args: the guest's options. */
static void qemu_new_args(const struct campaign_opts *o, struct strv *out)
{
	const struct qemu_opts *q = qo(o);
	campaign_opt_int(out, "--smp", q->smp);
	campaign_opt_int(out, "--mem", q->mem_mb);
	if (q->numa > 1)
		campaign_opt_int(out, "--numa", q->numa);
	campaign_opt_str(out, "--accel", accel_word(q->accel));
	campaign_opt_str(out, "--image", q->image);
	campaign_opt_int(out, "--boot-timeout", q->boot_timeout_s);
}

/* view: the guest's line, its nodes' share, the duet's host CPU sets here. */
static void qemu_view(const struct campaign *c, struct campaign_view *v)
{
	const struct qemu_opts *q = qo(&c->opts);
	v->guest = true;
	v->guest_cpus = q->smp;
	v->guest_mb = q->mem_mb;
	v->guest_nodes = q->numa;
	snprintf(v->guest_accel, sizeof v->guest_accel, "%s", accel_word(q->accel));
	snprintf(v->guest_arch, sizeof v->guest_arch, "%s", campaign_qemu_arch(&c->opts));
	if (q->duet)
		for (int k = 0; k < 2; k++)
			campaign_duet_cpus(q->smp, k, v->duet_cpus[k], sizeof v->duet_cpus[k]);
	if (q->numa > 1) {
		v->node_cpus = q->smp / q->numa;
		v->node_mb = q->mem_mb / q->numa;
	}
}

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

/* The job of a slot: /job/run.sh with the `sysab run` commands it still needs, as a cpio archive. */
static void job_cpio(const struct campaign *c, int i, struct sb *out)
{
	struct sb sh = {0};
	const struct kvlist *l = &c->labels[c->r.slots[i].config];
	sb_add(&sh, "rc=0\n");
	/* a duet guest says it is ready and waits for the host's go on its third serial port, held
	 * open from before it says so (a port opened afresh drops what arrived while it was closed),
	 * then acknowledges it; the host sends go again until it sees the acknowledgement */
	if (qo(&c->opts)->duet)
		sb_add(&sh, "exec 3</dev/ttyS2\nstty -F /dev/ttyS1 raw -echo 2>/dev/null\n"
			    "stty -F /dev/ttyS2 raw -echo 2>/dev/null\necho SYSAB-READY >/dev/ttyS1\n"
			    "read -r -t 600 go <&3\necho SYSAB-GO >/dev/ttyS1\nexec 3<&-\n");
	for (int r = 0; r < campaign_slot_invocations(c, i); r++) {
		sb_add(&sh, "sysab run --db /tmp/guest.db");
		for (size_t k = 0; k < c->run_args.n; k++) {
			sb_add(&sh, " ");
			campaign_sh_quote(&sh, c->run_args.v[k]);
		}
		for (size_t k = 0; k < l->n; k++) {
			char *t = xasprintf("%s=%s", l->v[k].key, l->v[k].value);
			sb_add(&sh, " -l ");
			campaign_sh_quote(&sh, t);
			free(t);
		}
		sb_add(&sh, " </dev/null || rc=$?\n");
	}
	sb_add(&sh, "exit $rc\n");
	cpio_entry(out, "job", 040755, NULL, 0);
	cpio_entry(out, "job/run.sh", 0100755, sh.s, sh.len);
	cpio_entry(out, "TRAILER!!!", 0, NULL, 0);
	sb_free(&sh);
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

/* Can KVM be opened? ($SYSAB_KVM_DEV names the device, for tests.) errno-text in why. */
static bool kvm_usable(const char **why)
{
	const char *dev = testhooks()->kvm_dev;
	int fd = open(dev && *dev ? dev : "/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		*why = strerror(errno);
		return false;
	}
	close(fd);
	return true;
}

/* Start qemu (argv) with its stderr to errlog; its pid, or -1 with e set. */
static pid_t qemu_spawn(char **argv, const struct guest_arch *a, const char *errlog, struct err *e)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		errf(e, "cannot start qemu: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the sysab that drives it */
		int null = open("/dev/null", O_RDWR);
		int err = open(errlog, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
		dup2(null, 0);
		dup2(null, 1);
		if (err >= 0)
			dup2(err, 2); /* qemu's warnings go to the slot's log, not the user's terminal */
		execvp(argv[0], argv);
		fprintf(stderr, "sysab campaign: cannot run %s: %s; install %s\n", argv[0], strerror(errno),
			!strcmp(argv[0], "taskset") ? "util-linux" : a->package);
		_exit(127);
	}
	return pid;
}

/* The error of a qemu that could not be run (exit 127 from the child). */
static int qemu_missing(char **argv, const struct guest_arch *a, struct err *e)
{
	if (!strcmp(argv[0], "taskset"))
		return errf(e, "cannot run taskset (to pin a duet guest to its host CPUs), or the qemu after it; install "
			       "util-linux and %s (Debian)", a->package);
	return errf(e, "cannot run %s; install %s (Debian)%s", argv[0], a->package,
		    !strcmp(argv[0], a->qemu) ? "" : " or give campaign new --qemu the binary");
}

/* Run qemu; wait at most timeout_s, or at most probe_s for the kernel's first line on the
 * console (0 = no probe). *outcome: how it ended (enum qemu_outcome)
 * by a signal sysab did not send (*sig). */
static int run_qemu(char **argv, const struct guest_arch *a, const char *console, const char *errlog, int timeout_s,
		    double probe_s, enum qemu_outcome *outcome, int *sig, struct err *e)
{
	pid_t pid = qemu_spawn(argv, a, errlog, e);
	if (pid < 0)
		return -1;
	uint64_t t0 = clock_wall_ns();
	*outcome = QEMU_EXITED;
	*sig = 0;
	int status = 0;
	for (;;) {
		pid_t w = waitpid(pid, &status, WNOHANG);
		if (w == pid)
			break;
		double el = (double)(clock_wall_ns() - t0) / 1e9;
		if (sig_stop)
			*outcome = QEMU_STOPPED;
		else if (el > timeout_s)
			*outcome = QEMU_TIMED_OUT;
		else if (probe_s > 0 && el > probe_s) {
			char *t = read_text_file(console);
			bool up = t && strstr(t, "Linux version");
			free(t);
			if (up)
				probe_s = 0;
			else
				*outcome = QEMU_PROBE_FAILED;
		}
		if (*outcome != QEMU_EXITED) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			break;
		}
		struct timespec ts = {0, 100 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	if (*outcome == QEMU_EXITED && WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return qemu_missing(argv, a, e);
	if (*outcome == QEMU_EXITED && WIFSIGNALED(status)) {
		*outcome = QEMU_KILLED;
		*sig = WTERMSIG(status);
	}
	return 0;
}

static int qemu_check(const struct campaign *c, const struct store_campaign_config *k, struct err *e)
{
	(void)c;
	if (k->entry || k->command)
		return errf(e, "--config '%s': --entry and --command are for the grub and command backends", k->name);
	return 0;
}

/* The kernel and the base initramfs slot i boots (new strings). */
static void guest_files(const struct campaign *c, int i, char **kernel, char **base)
{
	const struct store_campaign_config *k = &c->r.configs[c->r.slots[i].config];
	const char *image = qo(&c->opts)->image ? qo(&c->opts)->image : "build/guest";
	*kernel = k->kernel ? xstrdup(k->kernel) : xasprintf("%s/vmlinuz", image);
	*base = k->initrd ? xstrdup(k->initrd) : xasprintf("%s/initramfs.cpio.gz", image);
}

/* The architecture slot i's guest boots as: --arch, else told from its kernel's header, else
 * x86_64 (*told false then: a foreign guest is not presumed, and KVM not ruled out). */
static const struct guest_arch *slot_arch(const struct campaign *c, int i, bool *told)
{
	const struct guest_arch *a = campaign_arch_find(qo(&c->opts)->arch);
	if (!a) {
		char *kernel, *base;
		guest_files(c, i, &kernel, &base);
		a = guest_arch_of_image(kernel);
		free(kernel);
		free(base);
	}
	*told = a != NULL;
	return a ? a : &campaign_arches[0];
}

/* The architecture of this host, as `uname -m` says it, into buf. */
static const char *host_arch(char *buf, size_t n)
{
	struct utsname u;
	snprintf(buf, n, "%s", uname(&u) ? "unknown" : u.machine);
	return buf;
}

/* With more than one guest NUMA node in o: per node K a memory backend mK of 1/numa of the memory and
 * `-numa node,nodeid=K,cpus=...,memdev=mK` with its 1/numa of the CPUs, in order (checked to
 * divide evenly by campaign_qemu_numa_check), appended to argv. One node adds nothing. */
static void numa_argv(const struct campaign_opts *o, struct strv *argv)
{
	const struct qemu_opts *q = qo(o);
	if (q->numa <= 1)
		return;
	int cpus = q->smp / q->numa, mb = q->mem_mb / q->numa;
	for (int k = 0; k < q->numa; k++) {
		char *t = xasprintf("memory-backend-ram,id=m%d,size=%dM", k, mb);
		strv_add(argv, "-object");
		strv_add(argv, t);
		free(t);
	}
	for (int k = 0; k < q->numa; k++) {
		char *t = cpus == 1 ? xasprintf("node,nodeid=%d,cpus=%d,memdev=m%d", k, k, k)
				    : xasprintf("node,nodeid=%d,cpus=%d-%d,memdev=m%d", k, k * cpus, k * cpus + cpus - 1, k);
		strv_add(argv, "-numa");
		strv_add(argv, t);
		free(t);
	}
}

/* What the environment of each run records about the guest's nodes (more than one in o): appended to tags. */
static void numa_tags(const struct campaign_opts *o, struct kvlist *tags)
{
	const struct qemu_opts *q = qo(o);
	if (q->numa <= 1)
		return;
	char n[16];
	snprintf(n, sizeof n, "%d", q->numa);
	char *note = xasprintf("emulated by qemu -numa: %d nodes of %d CPU%s and %d MB each, all backed by the host's "
			       "memory alike: no real distance between them",
			       q->numa, q->smp / q->numa, q->smp / q->numa == 1 ? "" : "s", q->mem_mb / q->numa);
	kv_add(tags, "campaign.numa", n);
	kv_add(tags, "campaign.numa_note", note);
	free(note);
}

/* Said once a campaign boots under TCG: what it measures is not the kernel. */
static void tcg_note(const struct campaign_ctx *x)
{
	campaign_note(x, "qemu emulates the guest's CPU (TCG, no KVM): every cost it measures is the emulator's, not "
			 "the kernel's; analyze, compare and report say so beside each result");
}

/* Whether the next boot probes KVM: the first boot under kvm, before it has been seen to work. */
static bool kvm_probing(const struct campaign_ctx *x)
{
	return qs(x)->accel == QEMU_ACCEL_KVM && !qs(x)->accel_note;
}

/* After a boot that probed KVM (or did not): when the guest kernel was silent under the probe,
 * the campaign switches to TCG for good, says so, and returns true (boot again); otherwise it
 * notes that KVM works (once, when the guest kernel started: a qemu killed before it did
 * settles nothing, and the next boot probes again) and returns false. */
static bool kvm_fell_back(struct campaign_ctx *x, bool probing, bool silent, bool started)
{
	if (!probing || !silent) {
		if (probing && started && !qs(x)->accel_note)
			qs(x)->accel_note = xstrdup("kvm: the guest kernel started under it");
		return false;
	}
	qs(x)->accel = QEMU_ACCEL_TCG;
	free(qs(x)->accel_note);
	qs(x)->accel_note = xasprintf("tcg: under kvm the guest kernel printed nothing within %.0f s", qs(x)->kvm_probe_s);
	campaign_note(x, "%s; costs measured in these guests are emulator costs (QEMU TCG)", qs(x)->accel_note);
	tcg_note(x);
	return true;
}

/* The emulates hook: tcg, or auto where KVM cannot be opened (as accel_choose decides). */
static bool qemu_emulates(const char *accel)
{
	const char *why;
	if (accel && !strcmp(accel, "tcg"))
		return true;
	return (!accel || !strcmp(accel, "auto")) && !kvm_usable(&why);
}

/* The accelerator: auto is kvm when /dev/kvm opens (the first boot then probes it), else tcg. */
static int qemu_prepare(struct campaign_ctx *x, struct err *e)
{
	const char *why = NULL;
	/* KVM runs guests of the host's own architecture only */
	const struct guest_arch *foreign = NULL;
	char host[65];
	host_arch(host, sizeof host);
	for (size_t i = 0; i < x->c->r.nslots; i++) {
		bool told;
		const struct guest_arch *a = slot_arch(x->c, (int)i, &told);
		if (told && strcmp(a->name, host))
			foreign = a;
		if (campaign_qemu_numa_check(&x->c->opts, a->name, e))
			return err_prefix(e, "campaign '%s', slot %zu", x->c->r.name, i);
	}
	if (campaign_duet_check(&x->c->opts, x->c->be->name, x->c->r.nconfigs, e))
		return err_prefix(e, "campaign '%s'", x->c->r.name);
	if (foreign && qs(x)->accel == QEMU_ACCEL_KVM)
		return errf(e, "campaign '%s' asks --accel kvm, but its guest is %s and this host %s: KVM runs guests of "
			       "the host's architecture only; create it with --accel tcg (or auto)",
			    x->c->r.name, foreign->name, host);
	if (foreign && qs(x)->accel == QEMU_ACCEL_AUTO) {
		qs(x)->accel = QEMU_ACCEL_TCG;
		free(qs(x)->accel_note);
		qs(x)->accel_note = xasprintf("tcg: the guest is %s and this host %s (KVM runs the host's architecture only)",
					  foreign->name, host);
	}
	if (qs(x)->accel == QEMU_ACCEL_AUTO) {
		bool kvm = kvm_usable(&why);
		qs(x)->accel = kvm ? QEMU_ACCEL_KVM : QEMU_ACCEL_TCG;
		if (!kvm) {
			free(qs(x)->accel_note);
			qs(x)->accel_note = xasprintf("tcg: /dev/kvm cannot be opened (%s)", why);
		}
	}
	const char *what = qs(x)->accel == QEMU_ACCEL_TCG
				   ? "costs measured in these guests are emulator costs (QEMU TCG)"
				   : "the first boot probes it: a guest kernel silent under KVM switches the campaign to tcg";
	if (x->env->dry_run)
		fprintf(x->env->out, "accelerator: %s%s%s (%s)\n", accel_word(qs(x)->accel), qs(x)->accel_note ? ", " : "",
			qs(x)->accel_note ? qs(x)->accel_note : "", what);
	else
		campaign_note(x, "accelerator %s%s%s (%s)", accel_word(qs(x)->accel), qs(x)->accel_note ? ", " : "",
			      qs(x)->accel_note ? qs(x)->accel_note : "", what);
	if (qs(x)->accel == QEMU_ACCEL_TCG)
		tcg_note(x);
	if (qo(&x->c->opts)->numa > 1) {
		struct kvlist t = {0};
		numa_tags(&x->c->opts, &t);
		if (x->env->dry_run)
			fprintf(x->env->out, "guest NUMA: %s nodes, %s\n", kv_get(&t, "campaign.numa"),
				kv_get(&t, "campaign.numa_note"));
		else
			campaign_note(x, "guest NUMA %s nodes, %s; runs record campaign.numa", kv_get(&t, "campaign.numa"),
				      kv_get(&t, "campaign.numa_note"));
		kv_free(&t);
	}
	for (size_t i = 0; !x->env->dry_run && i < x->c->r.nslots; i++) {
		char *kernel, *base;
		guest_files(x->c, (int)i, &kernel, &base);
		int bad = access(kernel, R_OK) ? 1 : access(base, R_OK) ? 2 : 0;
		if (bad)
			errf(e, "campaign '%s': the guest %s is missing or unreadable; build the guest with `make guest` (or "
				"give --image DIR with vmlinuz and initramfs.cpio.gz)",
			     x->c->r.name, bad == 1 ? kernel : base);
		free(kernel);
		free(base);
		if (bad)
			return -1;
	}
	if (x->env->dry_run) {
		char *kernel, *base;
		guest_files(x->c, 0, &kernel, &base);
		if (access(kernel, R_OK) || access(base, R_OK))
			fprintf(x->env->out, "note: %s is missing; `make guest` builds the guest before a real start\n",
				access(kernel, R_OK) ? kernel : base);
		free(kernel);
		free(base);
		return 0;
	}
	return x->dir ? 0 : tmpdir_create_held(&x->dir, &x->dir_lock, e);
}

static char *in_dir(const struct campaign_ctx *x, const char *name)
{
	return xasprintf("%s/%s", x->dir && !x->env->dry_run ? x->dir : "TMPDIR", name);
}

/* A file of slot i's guest in the drive's directory: a duet guest's carry its CPU set (the two
 * guests of a block run at once). */
static char *slot_in_dir(const struct campaign_ctx *x, int i, const char *name)
{
	if (!qo(&x->c->opts)->duet)
		return in_dir(x, name);
	char *n = xasprintf("%s.set%d", name, campaign_duet_set(x->c, i));
	char *p = in_dir(x, n);
	free(n);
	return p;
}

static void qemu_argv(struct campaign_ctx *x, int i, struct campaign_cmds *out)
{
	const struct campaign *c = x->c;
	const struct qemu_opts *q = qo(&c->opts);
	const struct store_campaign_config *k = &c->r.configs[c->r.slots[i].config];
	char *kernel, *base;
	guest_files(c, i, &kernel, &base);
	bool told;
	const struct guest_arch *a = slot_arch(c, i, &told);
	char *marker = campaign_marker(c->r.name, i);
	char *append = xasprintf("%s %s%s%s", a->append, k->append ? k->append : "", k->append ? " " : "", marker);
	char *initrd = slot_in_dir(x, i, "initrd"), *con = slot_in_dir(x, i, "console"), *data = slot_in_dir(x, i, "data");
	char *serial_con = xasprintf("file:%s", con), *serial_data = xasprintf("file:%s", data);
	char smp[16], mem[16];
	snprintf(smp, sizeof smp, "%d", q->smp);
	snprintf(mem, sizeof mem, "%d", q->mem_mb);
	const char *av[] = {q->qemu ? q->qemu : a->qemu, "-machine", a->machine, "-accel", accel_word(qs(x)->accel),
			    "-m", mem, "-smp", smp};
	const char *av2[] = {"-kernel", kernel, "-initrd", initrd, "-append", append, "-display", "none", "-no-reboot",
			     "-monitor", "none", "-serial", serial_con, "-serial", serial_data, "-net", "none"};
	struct campaign_cmd *cmd = campaign_cmds_add(out, false);
	if (q->duet) { /* pinned to its CPU set: taskset -c CPUS qemu ... */
		char cpus[64];
		campaign_duet_cpus(q->smp, campaign_duet_set(c, i), cpus, sizeof cpus);
		strv_add(&cmd->argv, "taskset");
		strv_add(&cmd->argv, "-c");
		strv_add(&cmd->argv, cpus);
	}
	for (size_t n = 0; n < sizeof av / sizeof av[0]; n++)
		strv_add(&cmd->argv, av[n]);
	numa_argv(&c->opts, &cmd->argv);
	for (size_t n = 0; n < sizeof av2 / sizeof av2[0]; n++)
		strv_add(&cmd->argv, av2[n]);
	if (q->duet) { /* the go signal: a third serial port (on IRQ 5: ttyS0's IRQ 4 is not shared), a
			     * socket the host writes "go" to */
		char *sock = slot_in_dir(x, i, "go"), *chr = xasprintf("socket,id=go,path=%s,server=on,wait=off", sock);
		strv_add(&cmd->argv, "-chardev");
		strv_add(&cmd->argv, chr);
		strv_add(&cmd->argv, "-device");
		strv_add(&cmd->argv, "isa-serial,chardev=go,iobase=0x3e8,irq=5");
		free(sock);
		free(chr);
	}
	free(kernel);
	free(base);
	free(marker);
	free(append);
	free(initrd);
	free(con);
	free(data);
	free(serial_con);
	free(serial_data);
}

/* ---- --duet: a block's two guests at once ---- */

/* One guest of a duet boot. */
struct duet_guest {
	int slot;
	char *initrd, *con, *data, *qerr, *sock;
	char **av;
	struct campaign_cmds cmds;
	pid_t pid;
	int status;
	enum qemu_outcome outcome;
	bool exited, ready, go, acked;
	uint64_t ready_ns, go_ns; /* go_ns: the last go sent before the guest acknowledged one */
};

/* Send "go" to a duet guest's third serial port (its socket); whether it was written. */
static bool duet_send_go(const struct duet_guest *g)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	if (strlen(g->sock) >= sizeof a.sun_path)
		return false;
	memcpy(a.sun_path, g->sock, strlen(g->sock) + 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok = fd >= 0 && !connect(fd, (struct sockaddr *)&a, sizeof a) && write(fd, "go\n", 3) == 3;
	if (fd >= 0)
		close(fd);
	return ok;
}

/* Does the file at path hold s? */
static bool file_has(const char *path, const char *s)
{
	char *t = read_text_file(path);
	bool has = t && strstr(t, s);
	free(t);
	return has;
}

/* Boot n (1 or 2) duet guests at once, each pinned to its CPU set, and wait for all of them: a
 * guest ready for its runs (SYSAB-READY on its data channel) gets its go when every guest still
 * running is ready, so the two measure from the same moment. Timeouts, the KVM probe and a stop
 * as run_qemu's, for both (*probe_failed: kill both, boot again under TCG). */
/* Long by design: one poll loop over both guests' channels, timeouts and the stop flag. */
static int duet_run(struct campaign_ctx *x, struct duet_guest *g, int n, double probe_s, bool *probe_failed,
		    struct err *e)
{
	const struct campaign *c = x->c;
	bool told;
	*probe_failed = false;
	for (int k = 0; k < n; k++) {
		unlink(g[k].con);
		unlink(g[k].data);
		unlink(g[k].sock);
		campaign_cmds_free(&g[k].cmds);
		free(g[k].av);
		qemu_argv(x, g[k].slot, &g[k].cmds);
		g[k].av = xcalloc(g[k].cmds.v[0].argv.n + 1, sizeof *g[k].av);
		for (size_t m = 0; m < g[k].cmds.v[0].argv.n; m++)
			g[k].av[m] = g[k].cmds.v[0].argv.v[m];
		g[k].exited = g[k].ready = g[k].go = g[k].acked = false;
		g[k].outcome = QEMU_EXITED;
		g[k].pid = qemu_spawn(g[k].av, slot_arch(c, g[k].slot, &told), g[k].qerr, e);
		if (g[k].pid < 0) {
			for (int m = 0; m < k; m++) {
				kill(g[m].pid, SIGKILL);
				waitpid(g[m].pid, &g[m].status, 0);
			}
			return -1;
		}
	}
	uint64_t t0 = clock_wall_ns();
	for (;;) {
		int live = 0;
		for (int k = 0; k < n; k++)
			if (!g[k].exited && waitpid(g[k].pid, &g[k].status, WNOHANG) == g[k].pid)
				g[k].exited = true;
		for (int k = 0; k < n; k++)
			live += !g[k].exited;
		if (!live)
			break;
		double el = (double)(clock_wall_ns() - t0) / 1e9;
		enum qemu_outcome why = sig_stop ? QEMU_STOPPED : el > qo(&c->opts)->boot_timeout_s ? QEMU_TIMED_OUT : QEMU_EXITED;
		if (!why && probe_s > 0 && el > probe_s) {
			bool up = true;
			for (int k = 0; k < n; k++)
				up &= file_has(g[k].con, "Linux version");
			if (up)
				probe_s = 0;
			else
				why = QEMU_PROBE_FAILED;
		}
		if (why) {
			for (int k = 0; k < n; k++)
				if (!g[k].exited) {
					g[k].outcome = why;
					kill(g[k].pid, SIGKILL);
					waitpid(g[k].pid, &g[k].status, 0);
					g[k].exited = true;
				}
			*probe_failed = why == 2;
			break;
		}
		/* the go: when every guest still running is ready */
		bool all = true;
		for (int k = 0; k < n; k++) {
			if (!g[k].exited && !g[k].ready && file_has(g[k].data, "SYSAB-READY")) {
				g[k].ready = true;
				g[k].ready_ns = clock_wall_ns();
			}
			all &= g[k].ready || g[k].exited;
		}
		uint64_t now = clock_wall_ns();
		for (int k = 0; all && k < n; k++) {
			if (g[k].go && !g[k].acked)
				g[k].acked = file_has(g[k].data, "SYSAB-GO");
			/* the go, and again every 0.5 s until the guest says it got one */
			if (g[k].ready && !g[k].acked && !g[k].exited && (!g[k].go || now - g[k].go_ns > 500000000)) {
				g[k].go |= duet_send_go(&g[k]);
				g[k].go_ns = now;
			}
		}
		struct timespec ts = {0, 10 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	for (int k = 0; k < n; k++) {
		if (g[k].outcome == QEMU_EXITED && WIFEXITED(g[k].status) && WEXITSTATUS(g[k].status) == 127)
			return qemu_missing(g[k].av, slot_arch(c, g[k].slot, &told), e);
		if (g[k].outcome == QEMU_EXITED && WIFSIGNALED(g[k].status))
			g[k].outcome = QEMU_KILLED; /* killed by another: the OOM killer, say */
	}
	return 0;
}

/* The console log of guest g (and qemu's own messages after it), kept beside the database;
 * the path (new string). */
static char *duet_keep_log(struct campaign_ctx *x, const struct duet_guest *g)
{
	char *log = campaign_slot_file(x, g->slot, "log");
	size_t n = 0, qn = 0;
	struct err ig;
	char *t = read_whole_file(g->con, (size_t)64 << 20, &n, &ig);
	char *q = read_whole_file(g->qerr, (size_t)1 << 20, &qn, &ig);
	if (campaign_write_new(log, 0600, t ? t : "", t ? n : 0, q ? q : "", q ? qn : 0, &ig))
		campaign_note(x, "%s", ig.msg);
	free(t);
	free(q);
	return log;
}

/* Boot slot i and the state's pair (when >= 0) at once; i's results go to the state's
 * guest_text, console, log and outcome, the pair's to pair_*, taken by take_pair(pair). */
static int duet_boot(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign *c = x->c;
	struct duet_guest g[2] = {{.slot = i}, {.slot = qs(x)->pair}};
	int n = qs(x)->pair >= 0 ? 2 : 1, rc = 0;
	for (int k = 0; k < n && !rc; k++) {
		char *kernel, *base;
		struct sb job = {0};
		size_t blen;
		guest_files(c, g[k].slot, &kernel, &base);
		g[k].initrd = slot_in_dir(x, g[k].slot, "initrd");
		g[k].con = slot_in_dir(x, g[k].slot, "console");
		g[k].data = slot_in_dir(x, g[k].slot, "data");
		g[k].qerr = slot_in_dir(x, g[k].slot, "qemu.err");
		g[k].sock = slot_in_dir(x, g[k].slot, "go");
		char *basebuf = read_whole_file(base, (size_t)1 << 30, &blen, e);
		if (!basebuf)
			rc = -1;
		else {
			job_cpio(c, g[k].slot, &job);
			rc = campaign_write_new(g[k].initrd, 0600, job.s, job.len, basebuf, blen, e);
		}
		free(basebuf);
		sb_free(&job);
		free(kernel);
		free(base);
	}
	while (!rc) {
		bool probing = kvm_probing(x), failed;
		rc = duet_run(x, g, n, probing ? qs(x)->kvm_probe_s : 0, &failed, e);
		bool started = false;
		for (int k = 0; k < n; k++)
			started |= file_has(g[k].con, "Linux version");
		if (rc || !kvm_fell_back(x, probing, failed, started))
			break;
	}
	if (!rc) {
		struct err ig;
		size_t dlen;
		char **text[2] = {&qs(x)->guest_text, &qs(x)->pair_text}, **con[2] = {&qs(x)->console, &qs(x)->pair_console},
		     **log[2] = {&qs(x)->log, &qs(x)->pair_log};
		enum qemu_outcome *out[2] = {&qs(x)->outcome, &qs(x)->pair_outcome};
		int *sig[2] = {&qs(x)->qemu_sig, &qs(x)->pair_qemu_sig};
		for (int k = 0; k < n; k++) {
			free(*text[k]);
			*text[k] = read_whole_file(g[k].data, (size_t)1 << 30, &dlen, &ig);
			free(*con[k]);
			*con[k] = xstrdup(g[k].con);
			free(*log[k]);
			*log[k] = duet_keep_log(x, &g[k]);
			*out[k] = g[k].outcome;
			*sig[k] = g[k].outcome == QEMU_KILLED ? WTERMSIG(g[k].status) : 0;
			qs(x)->go_ns[k] = g[k].go ? g[k].go_ns : 0;
			qs(x)->wait_s[k] = g[k].go ? (double)(g[k].go_ns - g[k].ready_ns) / 1e9 : 0;
		}
		qs(x)->pair_ready = n == 2;
		if (n == 2 && g[0].go && g[1].go)
			campaign_note(x, "duet: slots %d and %d got their go %.3f s apart (the first waited %.1f s for the "
					 "other to boot)",
				      i + 1, qs(x)->pair + 1, fabs((double)((int64_t)g[0].go_ns - (int64_t)g[1].go_ns)) / 1e9,
				      qs(x)->wait_s[0] > qs(x)->wait_s[1] ? qs(x)->wait_s[0] : qs(x)->wait_s[1]);
	}
	for (int k = 0; k < n; k++) {
		free(g[k].initrd);
		free(g[k].con);
		free(g[k].data);
		free(g[k].qerr);
		if (g[k].sock)
			unlink(g[k].sock);
		free(g[k].sock);
		free(g[k].av);
		campaign_cmds_free(&g[k].cmds);
	}
	return rc;
}

/* take_pair: the results of slot j, booted by boot_pair with the slot before and kept in
 * pair_*, become the boot's (the go times swapped, so [0] is always the slot collected); it
 * boots nothing. */
static int qemu_take_pair(struct campaign_ctx *x, int j, struct err *e)
{
	struct qemu_state *q = qs(x);
	if (!q->pair_ready || j != q->pair)
		return errf(e, "campaign '%s': slot %d is not the slot booted at once with the one before (%d)",
			    x->c->r.name, j, q->pair);
	free(q->guest_text);
	free(q->console);
	free(q->log);
	q->guest_text = q->pair_text;
	q->console = q->pair_console;
	q->log = q->pair_log;
	q->outcome = q->pair_outcome;
	q->qemu_sig = q->pair_qemu_sig;
	q->pair_text = q->pair_console = q->pair_log = NULL;
	q->pair_ready = false;
	q->pair = -1;
	uint64_t t = q->go_ns[0];
	q->go_ns[0] = q->go_ns[1];
	q->go_ns[1] = t;
	double w = q->wait_s[0];
	q->wait_s[0] = q->wait_s[1];
	q->wait_s[1] = w;
	return 0;
}

/* The other slot of slot i's block, or -1. */
static int duet_other(const struct campaign *c, int i)
{
	for (size_t k = 0; k < c->r.nslots; k++)
		if ((int)k != i && c->r.slots[k].block == c->r.slots[i].block)
			return (int)k;
	return -1;
}

/* What each run of a duet guest records: its block, CPU set and host CPUs, the slot booted with
 * it, and when each got its go (UTC seconds; 0: none). Appended to tags. */
static void duet_tags(const struct campaign_ctx *x, int i, struct kvlist *tags)
{
	const struct campaign *c = x->c;
	char cpus[64];
	int set = campaign_duet_set(c, i), other = duet_other(c, i);
	campaign_duet_cpus(qo(&c->opts)->smp, set, cpus, sizeof cpus);
	kv_addf(tags, "campaign.duet_block", "%d", c->r.slots[i].block);
	kv_addf(tags, "campaign.duet_cpu_set", "%d", set);
	kv_add(tags, "campaign.duet_cpus", cpus);
	kv_addf(tags, "campaign.duet_go", "%.3f", (double)qs(x)->go_ns[0] / 1e9);
	if (qs(x)->go_ns[1] && other >= 0) {
		kv_addf(tags, "campaign.duet_partner_slot", "%d", other);
		kv_addf(tags, "campaign.duet_partner_go", "%.3f", (double)qs(x)->go_ns[1] / 1e9);
	} else
		kv_add(tags, "campaign.duet_partner_slot", "none (booted alone: the block's other slot had ended)");
	kv_addf(tags, "campaign.duet_wait_s", "%.3f", qs(x)->wait_s[0]);
}

/* boot_pair: slots i and j at once, each on its own host CPU set. */
static int qemu_boot_pair(struct campaign_ctx *x, int i, int j, struct err *e)
{
	qs(x)->pair = j;
	return duet_boot(x, i, e);
}

/* Boot slot i's guest to its end; if KVM was chosen and the kernel prints nothing under it within
 * the probe's bound, switch this drive to TCG (the reason kept in accel_note) and boot again. */
static int qemu_boot_slot(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign *c = x->c;
	if (qo(&c->opts)->duet) { /* booted alone: the block's other slot has ended */
		qs(x)->pair = -1;
		return duet_boot(x, i, e);
	}
	char *kernel, *base, *initrd = in_dir(x, "initrd"), *qerr = in_dir(x, "qemu.err"), *data = in_dir(x, "data");
	guest_files(c, i, &kernel, &base);
	struct sb job = {0};
	size_t blen;
	int rc = -1;
	free(qs(x)->guest_text);
	qs(x)->guest_text = NULL;
	free(qs(x)->console);
	qs(x)->console = in_dir(x, "console");
	char *basebuf = read_whole_file(base, (size_t)1 << 30, &blen, e);
	if (!basebuf)
		goto out;
	job_cpio(c, i, &job);
	rc = campaign_write_new(initrd, 0600, job.s, job.len, basebuf, blen, e);
	free(basebuf);
	while (!rc) {
		unlink(qs(x)->console);
		unlink(data);
		struct campaign_cmds cmds = {0};
		qemu_argv(x, i, &cmds);
		char **av = xcalloc(cmds.v[0].argv.n + 1, sizeof *av);
		for (size_t n = 0; n < cmds.v[0].argv.n; n++)
			av[n] = cmds.v[0].argv.v[n];
		bool probing = kvm_probing(x);
		bool told;
		rc = run_qemu(av, slot_arch(c, i, &told), qs(x)->console, qerr, qo(&c->opts)->boot_timeout_s,
			      probing ? qs(x)->kvm_probe_s : 0, &qs(x)->outcome, &qs(x)->qemu_sig, e);
		free(av);
		campaign_cmds_free(&cmds);
		/* QEMU_PROBE_FAILED: KVM opens but the guest kernel does not start under it */
		if (rc || !kvm_fell_back(x, probing, qs(x)->outcome == QEMU_PROBE_FAILED, file_has(qs(x)->console, "Linux version")))
			break;
	}
	if (rc)
		goto out;
	size_t dlen = 0;
	struct err ig;
	qs(x)->guest_text = read_whole_file(data, (size_t)1 << 30, &dlen, &ig);
	/* the console log (and qemu's own messages after it) is kept beside the database */
	free(qs(x)->log);
	qs(x)->log = campaign_slot_file(x, i, "log");
	size_t n = 0, qn = 0;
	char *t = read_whole_file(qs(x)->console, (size_t)64 << 20, &n, &ig);
	char *q = read_whole_file(qerr, (size_t)1 << 20, &qn, &ig);
	if (campaign_write_new(qs(x)->log, 0600, t ? t : "", t ? n : 0, q ? q : "", q ? qn : 0, &ig))
		campaign_note(x, "%s", ig.msg);
	free(t);
	free(q);
out:
	free(kernel);
	free(base);
	free(initrd);
	free(qerr);
	free(data);
	sb_free(&job);
	return rc;
}

/* The guest never said SYSAB-DONE: judge from the console how far it got. The kernel prints
 * its command line first: the slot's marker there means the right kernel booted and then
 * stopped (crash, hang, power off): interrupted, retried; another command line: failed. */
static void judge_unfinished(struct campaign_ctx *x, int i, const char *marker)
{
	char *con = read_text_file(qs(x)->console);
	const char *at = con ? strstr(con, "Kernel command line:") : NULL;
	char *kcl = at ? field(at, "Kernel command line:") : NULL;
	bool init = con && strstr(con, "sysab guest:");
	bool booted = campaign_cmdline_has(kcl, marker);
	free(con);
	if (kcl && !booted)
		campaign_slot_set(x->c, i, SLOT_FAILED,
				  xasprintf("wrong kernel: it booted with '%s', without the marker %s", kcl, marker));
	else if (qs(x)->outcome == QEMU_KILLED) /* the guest did not end: its qemu was killed under it */
		campaign_slot_set(x->c, i, SLOT_INTERRUPTED,
				  xasprintf("qemu was killed by signal %d (%s) %s, by no one sysab knows (the OOM killer, "
					    "or a person; console: %s)",
					    qs(x)->qemu_sig, strsignal(qs(x)->qemu_sig),
					    init ? "during the guest's runs" : booted ? "after the guest kernel started"
									      : "early in the boot",
					    qs(x)->log));
	else if (init || booted)
		campaign_slot_set(x->c, i, SLOT_INTERRUPTED,
				  xasprintf("the guest stopped %s%s (console: %s)",
					    init ? "during its runs" : "after its kernel started",
					    qs(x)->outcome == QEMU_TIMED_OUT ? ", killed at the boot timeout" : "", qs(x)->log));
	else
		campaign_slot_set(x->c, i, SLOT_FAILED,
				  xasprintf("the guest never reached sysab's init%s (console: %s)",
					    qs(x)->outcome == QEMU_TIMED_OUT ? " before the boot timeout" : "", qs(x)->log));
	free(kcl);
}

/* The guest finished: check it booted the right kernel (marker, release), then merge its
 * database and attach its runs to the slot in one transaction.
 * Long by design: the checks and the merge in the order a crash between them must see. */
static int qemu_collect(struct campaign_ctx *x, int i, struct err *e)
{
	struct campaign *c = x->c;
	struct store_campaign_slot *s = &c->r.slots[i];
	const char *text = qs(x)->guest_text;
	char *marker = campaign_marker(c->r.name, i);
	char *kernel, *base;
	guest_files(c, i, &kernel, &base);
	char *want = guest_release(kernel);
	char *cmdline = text ? field(text, "SYSAB-CMDLINE") : NULL, *kver = text ? field(text, "SYSAB-KERNEL") : NULL;
	int rc = 0;
	if (qs(x)->outcome == QEMU_STOPPED) {
		campaign_slot_set(c, i, SLOT_INTERRUPTED, xstrdup("stopped by a signal during the boot"));
		goto out;
	}
	if (!text || !strstr(text, "SYSAB-DONE")) {
		judge_unfinished(x, i, marker);
		goto out;
	}
	free(s->boot_id);
	s->boot_id = field(text, "SYSAB-BOOT-ID");
	const char *b = strstr(text, "SYSAB-DB-BEGIN"), *end = strstr(text, "SYSAB-DB-END");
	if (!campaign_cmdline_has(cmdline, marker)) {
		campaign_slot_set(c, i, SLOT_FAILED,
				  xasprintf("wrong kernel: booted '%s' with '%s', expected the marker %s", kver ? kver : "?",
					    cmdline ? cmdline : "?", marker));
	} else if (want && (!kver || strcmp(want, kver))) {
		campaign_slot_set(c, i, SLOT_FAILED,
				  xasprintf("wrong kernel: booted release %s, but %s is %s", kver ? kver : "?", kernel, want));
	} else if (!b || !end || end < b) {
		char *st = field(text, "SYSAB-STATUS");
		campaign_slot_set(c, i, SLOT_FAILED,
				  xasprintf("the guest's sysab run stored nothing (status %s; console: %s)", st ? st : "?",
					    qs(x)->log));
		free(st);
	} else {
		struct sb db = {0};
		char *sz = field(b, "SYSAB-DB-BEGIN");
		size_t wantn = sz ? strtoull(sz, NULL, 10) : 0;
		free(sz);
		const char *nl = strchr(b, '\n');
		b64_decode(nl && nl < end ? nl : end, end, &db);
		if (db.len != wantn)
			campaign_slot_set(c, i, SLOT_INTERRUPTED,
					  xasprintf("the guest's database came back truncated (%zu of %zu bytes)", db.len,
						    wantn));
		else {
			char *dbp = in_dir(x, "guest.db"), *keep = campaign_slot_file(x, i, "db");
			struct kvlist tags = {0};
			kv_add(&tags, "campaign.accel", accel_word(qs(x)->accel));
			if (qs(x)->accel_note)
				kv_add(&tags, "campaign.accel_note", qs(x)->accel_note);
			numa_tags(&c->opts, &tags);
			if (qo(&c->opts)->duet)
				duet_tags(x, i, &tags);
			kv_add(&tags, "campaign.name", c->r.name);
			kv_add(&tags, "campaign.backend", c->be->name);
			size_t added = 0;
			struct err ig;
			/* the guest's database is kept beside its console log, for audits and re-imports */
			if (campaign_write_new(keep, 0600, db.s, db.len, NULL, 0, &ig))
				campaign_note(x, "%s", ig.msg);
			rc = campaign_write_new(dbp, 0600, db.s, db.len, NULL, 0, e);
			if (!rc)
				rc = campaign_attach_db(x, i, dbp, &tags, &added, e);
			const char *crash = testhooks()->campaign_crash;
			if (!rc && crash && !strcmp(crash, "after-merge"))
				raise(SIGKILL); /* a test's fault: killed between merging and recording the slot */
			if (!rc && campaign_slot_remaining(c, i) == 0)
				campaign_slot_set(c, i, SLOT_DONE, NULL);
			else if (!rc)
				campaign_slot_set(c, i, SLOT_FAILED,
						  xasprintf("the guest stored %zu of the %zu runs it was to make (console: %s)",
							    added, added + (size_t)campaign_slot_remaining(c, i), qs(x)->log));
			kv_free(&tags);
			unlink(dbp);
			free(dbp);
			free(keep);
		}
		sb_free(&db);
	}
out:
	free(marker);
	free(kernel);
	free(base);
	free(want);
	free(cmdline);
	free(kver);
	return rc;
}

static void qemu_cleanup(struct campaign_ctx *x)
{
	(void)x;
}

const struct campaign_backend campaign_backend_qemu = {
	.name = "qemu",
	.caps = CB_MARKER | CB_NUMA | CB_DUET,
	.root_for = "",
	.check_config = qemu_check,
	.prepare = qemu_prepare,
	.argv = qemu_argv,
	.boot_slot = qemu_boot_slot,
	.collect = qemu_collect,
	.cleanup = qemu_cleanup,
	.opts_size = sizeof(struct qemu_opts),
	.opts_read = qemu_opts_read,
	.opts_write = qemu_opts_write,
	.opts_free = qemu_opts_free,
	.parse_opt = qemu_parse_opt,
	.new_defaults = qemu_new_defaults,
	.nodes = qemu_nodes,
	.duet = qemu_duet,
	.check_opts = qemu_check_opts,
	.new_args = qemu_new_args,
	.view = qemu_view,
	.boot_pair = qemu_boot_pair,
	.take_pair = qemu_take_pair,
	.emulates = qemu_emulates,
	.init_state = qemu_init_state,
	.free_state = qemu_free_state,
};
