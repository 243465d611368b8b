/* backend.h - the campaign backend descriptor (prepare, boot a slot, collect its runs, clean up, the
 * commands of a slot, capability bits, optional hooks) and what the driver and the backends share. */
#ifndef SYSAB_CAMPAIGN_BACKEND_H
#define SYSAB_CAMPAIGN_BACKEND_H

#include <jansson.h>
#include <sys/types.h>
#include "campaign/campaign.h"

/* Capabilities of a backend. */
enum {
	CB_REBOOTS = 1u << 0,   /* reboots this machine: a unit resumes the campaign at boot */
	CB_NEEDS_ROOT = 1u << 1, /* arming a boot needs root */
	CB_MARKER = 1u << 2,    /* the booted kernel's command line carries the slot's marker */
	CB_NUMA = 1u << 3,      /* boots guests of its own that may have --numa nodes ("--nodes all" is theirs) */
	CB_DUET = 1u << 4,      /* --duet: boots a block's two configurations at once (boot_pair, take_pair) */
};

/* One command of a slot: its argv and the environment added to it. shutdown: it takes the
 * machine down (a kill by SIGTERM/SIGKILL/SIGHUP is the shutdown under way). */
struct campaign_cmd {
	struct strv argv, envp;
	bool shutdown;
};
struct campaign_cmds {
	struct campaign_cmd *v;
	size_t n, cap;
};
struct campaign_cmd *campaign_cmds_add(struct campaign_cmds *l, bool shutdown);
void campaign_cmds_free(struct campaign_cmds *l);

/* What one start or resume carries from backend call to backend call. */
struct campaign_ctx {
	const struct campaign_env *env;
	struct campaign *c;
	char *dir;        /* a private temp directory (0700), removed at the end */
	int dir_lock;     /* the descriptor holding its lock (tmpdir_create_held), -1: none */
	char *stop_path;  /* campaign_stop_path() */
	void *state;      /* the backend's own, owned by it (free_state), NULL until it makes it */
};

struct campaign_backend {
	const char *name;
	unsigned caps;
	const char *root_for; /* what needs root, for the refusal */
	/* `new`: does configuration k give what this backend needs? 0 or -1 with e set. */
	int (*check_config)(const struct campaign *c, const struct store_campaign_config *k, struct err *e);
	/* Before the first boot of a start (qemu: choose the accelerator; reboot: install the
	 * unit, or print it with dry_run). 0 or -1 with e set. */
	int (*prepare)(struct campaign_ctx *x, struct err *e);
	/* The commands that boot slot i, in order (the dry run prints exactly these). */
	void (*argv)(struct campaign_ctx *x, int i, struct campaign_cmds *out);
	/* Boot slot i (qemu: run the VM to its end; reboot: arm and reboot). 0, or -1 with e set on
	 * an error of the host. */
	int (*boot_slot)(struct campaign_ctx *x, int i, struct err *e);
	/* After the boot: verify the kernel, collect the slot's runs and set its state. 0, or -1
	 * with e set when the database could not take them. */
	int (*collect)(struct campaign_ctx *x, int i, struct err *e);
	/* When the campaign ends, stops or fails (reboot: remove the unit; or print it). */
	void (*cleanup)(struct campaign_ctx *x);
	/* Optional hooks; NULL when the backend has nothing to do there. */
	/* Its own options: a struct of opts_size bytes private to its file, in campaign_opts.be.
	 * opts_read fills it from the campaign's options object j (missing keys get defaults;
	 * the generic keys are not its own); opts_write adds its keys to j (what is stored);
	 * opts_free frees what it holds (not b itself). With opts_size 0, none of these is set. */
	size_t opts_size;
	void (*opts_read)(void *b, const json_t *j);
	void (*opts_write)(const void *b, json_t *j);
	void (*opts_free)(void *b);
	/* `new`: option --name with its value arg ("" for a flag) into b. 0; 1 when name is none of
	 * its options (the generic code refuses it); -1 with e naming the option and its value. */
	int (*parse_opt)(void *b, const char *name, const char *arg, struct err *e);
	/* `new`, after parse_opt: the defaults that depend on where this sysab (self, NULL when
	 * unknown) lies (qemu: the guest image beside it). */
	void (*new_defaults)(void *b, const char *self);
	/* CB_NUMA: the NUMA nodes of its guests under options o (1: none). */
	int (*nodes)(const struct campaign_opts *o);
	/* CB_DUET: do options o make the campaign a duet? */
	bool (*duet)(const struct campaign_opts *o);
	/* Its own checks of the options o of a campaign with nconfigs configurations (qemu: its
	 * paths, the NUMA split, the duet's host CPUs), after the driver's capability checks; fresh:
	 * at `new` (the host's CPUs are checked), else at loading. 0, or -1 with e naming the option. */
	int (*check_opts)(const struct campaign_opts *o, size_t nconfigs, bool fresh, struct err *e);
	/* The options of `campaign new` that give this backend's options o, appended to out. */
	void (*new_args)(const struct campaign_opts *o, struct strv *out);
	/* What `campaign show` prints of this backend beyond the record (qemu: the guest line,
	 * each NUMA node's share, the duet's host CPU sets), set in v. */
	void (*view)(const struct campaign *c, struct campaign_view *v);
	/* CB_DUET: boot slots i and j at once; i's results are collect(i)'s, j's wait in the state
	 * until take_pair(j). 0, or -1 with e set on an error of the host. */
	int (*boot_pair)(struct campaign_ctx *x, int i, int j, struct err *e);
	/* CB_DUET: make the results of slot j, booted by boot_pair, the ones collect(j) takes;
	 * it boots nothing. 0, or -1 with e set when j is not the slot booted with the one before. */
	int (*take_pair)(struct campaign_ctx *x, int j, struct err *e);
	/* Does a campaign of this backend with accelerator accel ("auto", "kvm", "tcg"; NULL: its
	 * default) run its guests' code on an emulated CPU, so that its costs are the emulator's?
	 * (qemu under TCG.) NULL: never. */
	bool (*emulates)(const char *accel);
	/* Make x->state (at the start of every start or resume), and free it (at its end). */
	void (*init_state)(struct campaign_ctx *x);
	void (*free_state)(struct campaign_ctx *x);
};

/* Each backend of the table (CAMPAIGN_BACKENDS, campaign.h) is campaign_backend_NAME in its own file. */
#define CAMPAIGN_BACKEND_EXTERN(n) extern const struct campaign_backend campaign_backend_##n;
CAMPAIGN_BACKENDS(CAMPAIGN_BACKEND_EXTERN, CAMPAIGN_BACKEND_EXTERN, CAMPAIGN_BACKEND_EXTERN)
#undef CAMPAIGN_BACKEND_EXTERN

/* ---- shared by the driver and the backends (campaign.c) ---- */

/* 0 when p (option or field what) is NULL or a path the campaign may use: printable text without
 * newlines, absolute when abs; else -1 with e naming it. */
int campaign_path_check(const char *what, const char *p, bool abs, struct err *e);
/* Is campaign c a duet (its backend's duet hook)? */
bool campaign_is_duet(const struct campaign *c);
/* The NUMA nodes of c's guests (its backend's nodes hook), 1 when it has none. */
int campaign_guest_nodes(const struct campaign *c);

/* Append "FLAG VALUE" to out when value is set (non-empty), and "FLAG N" when v > 0 (a stored
 * 0 is the option's default): the options of a `campaign new` line (lines.c). */
void campaign_opt_str(struct strv *out, const char *flag, const char *value);
void campaign_opt_int(struct strv *out, const char *flag, int v);

/* The kernel command line marker of a slot: "sysab.boot=NAME:SLOT" (new string). */
char *campaign_marker(const char *name, int slot);
/* Does word occur in the space-separated command line as a whole word (so the marker of slot 1
 * is not found in slot 10's)? false when line is NULL. */
bool campaign_cmdline_has(const char *line, const char *word);
/* The value of the first whole word "KEY=VALUE" of line with this key (new string), or NULL. */
char *campaign_cmdline_value(const char *line, const char *key);
/* Does slot i's configuration lack runs that `start` may boot again: failed, skipped, or
 * interrupted with no retry left, with runs missing (and never a `sysab run` half stored,
 * which a new boot would store twice)? */
bool campaign_slot_rearmable(const struct campaign *c, int i);
/* The next slot to boot: the first pending, booting, running, or interrupted with a retry
 * left; -1 when none. */
int campaign_next_slot(const struct campaign *c);
/* --duet: the other slot of slot i's block when it is still to boot (as campaign_next_slot
 * takes them), booted at once with i; -1 when there is none (it is done, failed or skipped:
 * i boots alone, on its own CPU set) or the campaign is no duet. */
int campaign_duet_partner(const struct campaign *c, int i);
/* Set slot i's state and reason (reason is taken over; NULL for none). */
void campaign_slot_set(struct campaign *c, int i, enum slot_state s, char *reason);
/* Write slot i's progress to the database. */
int campaign_slot_save(const struct campaign_ctx *x, int i, struct err *e);
/* Slot i did not finish: interrupted (retried), or skipped when its retry is spent; a slot
 * whose runs were all stored before is done. */
void campaign_slot_interrupted(struct campaign *c, int i, const char *why);
/* The runs slot i still needs (its planned runs, r.runs x per_run, less those attached). */
int campaign_slot_remaining(const struct campaign *c, int i);
/* The `sysab run` commands slot i still needs: its remaining runs over per_run, rounded up. */
int campaign_slot_invocations(const struct campaign *c, int i);
/* Attach the runs of the sysab database at path to slot i, with the environment keys tags:
 * they are linked to the slot inside that database, so merging it (import db, one
 * transaction) stores runs, tags and links together or nothing; a run merged before is not
 * merged again. *added: runs stored now. 0, or -1 with e set. */
int campaign_attach_db(const struct campaign_ctx *x, int i, const char *path, const struct kvlist *tags,
		       size_t *added, struct err *e);
/* A per-slot file beside the database: "DB.campaign-NAME.slotK.tryA.EXT" (new string). */
char *campaign_slot_file(const struct campaign_ctx *x, int i, const char *ext);
/* Create path afresh and write a then b to it: an old file (or a planted symlink) there is
 * removed first and the file is created with O_EXCL|O_NOFOLLOW, so nothing is followed. */
int campaign_write_new(const char *path, mode_t mode, const char *a, size_t alen, const char *b, size_t blen, struct err *e);
/* Append s to b quoted for sh when it needs it (a round trip through sh -c gives s back). */
void campaign_sh_quote(struct sb *b, const char *s);
/* Print cmd, shell-quoted, after "  would run: ". */
void campaign_cmd_print(const struct campaign_ctx *x, const struct campaign_cmd *cmd);
/* The kernel release an image announces (an x86 bzImage's version string, else the part of
 * its file name after "vmlinuz-"/"vmlinux-"/"Image-"), or NULL when it cannot be told. */
char *campaign_kernel_release(const char *image);
/* A progress line of the driver: "campaign NAME: ..." on env->out. */
void campaign_note(const struct campaign_ctx *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- the self-rebooting machinery (reboot.c), used by kexec, grub and command ---- */

int reboot_prepare(struct campaign_ctx *x, struct err *e);
int reboot_boot_slot(struct campaign_ctx *x, int i, struct err *e);
int reboot_collect(struct campaign_ctx *x, int i, struct err *e);
void reboot_cleanup(struct campaign_ctx *x);
/* new_args of the reboot backends: the settle load and timeout, the unit's directory. */
void reboot_new_args(const struct campaign_opts *o, struct strv *out);
/* The command line a reboot backend boots slot i with: the configuration's append and the marker. */
char *reboot_append(const struct campaign *c, int i);
/* The [Service] ExecStart= value for argv, quoted by systemd's rules (new string). */
char *reboot_exec_start(const char *const *argv);
/* Does the running kernel match slot i? 1 yes, 0 no with *why set (new string). Reads
 * $SYSAB_CAMPAIGN_PROC/{cmdline,osrelease,boot_id} when set (tests). *boot_id: this boot. */
int reboot_check_kernel(const struct campaign *c, int i, char **why, char **boot_id);

#endif
