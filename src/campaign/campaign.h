/* campaign.h - boot campaigns: configurations booted in randomized complete blocks through a backend. */
#ifndef SYSAB_CAMPAIGN_H
#define SYSAB_CAMPAIGN_H

#include <stdio.h>
#include "store/store.h"

/* An interrupted slot is retried this many times, then skipped. */
#define CAMPAIGN_RETRIES 1

/* The backend options of a campaign (stored as its JSON options). */
struct campaign_opts {
	int smp, mem_mb;            /* qemu: -smp and -m */
	char accel[8];              /* qemu: auto, kvm or tcg */
	char *image;                /* qemu: directory with vmlinuz and initramfs.cpio.gz */
	int boot_timeout_s;         /* qemu: a boot (with its runs) taking longer is killed */
	int max_failures;           /* consecutive failed slots that stop the campaign */
	double settle_load;         /* reboot backends: wait for the 1-minute load below this */
	int settle_timeout_s;       /* ... or at most this long */
	char *unit_dir;             /* where the systemd unit goes */
	char *stop_file;            /* its existence stops the campaign (default <db>.NAME.stop) */
	char *accel_note;           /* why qemu uses what it uses, once probed */
};

/* What `sysab campaign new` is given. */
struct campaign_spec {
	const char *name, *backend;
	int boots, runs;
	uint64_t seed;
	bool seed_given;
	struct strv run_args;
	struct store_campaign_config *configs; /* labels as JSON object text */
	size_t nconfigs;
	struct campaign_opts opts;
};

/* Fill order[0 .. boots*nconfigs-1] with the configuration of each slot: `boots` blocks,
 * each holding every configuration once in an order shuffled by a generator seeded
 * with seed (splitmix64 + Fisher-Yates), so the schedule is a pure function of its inputs. */
void campaign_schedule(uint64_t seed, int nconfigs, int boots, int *order);

/* Check a spec and store it as campaign `name` (state new) with its schedule. Returns 0,
 * or -1 with e naming the wrong input and nothing stored. */
int campaign_create(struct store *st, struct campaign_spec *spec, struct err *e);

/* Parse a campaign's options JSON into o (free with campaign_opts_free); missing keys
 * get defaults. */
void campaign_opts_parse(const char *json, struct campaign_opts *o);
char *campaign_opts_json(const struct campaign_opts *o);
void campaign_opts_free(struct campaign_opts *o);

/* Print the campaign: configurations, schedule with progress, what is next, time left. */
void campaign_print(const struct store_campaign *c, bool slots, FILE *f);

/* How the command runs: the database path (for children and units), the sysab binary,
 * whether to only print what would be done. */
struct campaign_env {
	struct store *st;
	const char *db_path;
	const char *self;   /* absolute path of this sysab */
	bool dry_run;
	FILE *out;
};

/* `start`: check that the backend can run here (root, tools), install the resume hook
 * and boot the first slot (qemu: drive every slot from here). A stopped campaign starts
 * again. With dry_run, print every command and file instead. Returns 0, or -1 with e set. */
int campaign_start(const struct campaign_env *env, const char *name, struct err *e);
/* `resume`: continue a running campaign: qemu drives the remaining slots; the reboot
 * backends check the booted kernel against the armed slot, run, arm the next slot and
 * reboot (this is what the unit runs at boot). env->dry_run must be false. */
int campaign_resume(const struct campaign_env *env, const char *name, struct err *e);
/* `stop`: mark it stopped and remove its unit; nothing reboots any more. */
int campaign_stop(const struct campaign_env *env, const char *name, struct err *e);

/* --- backends (campaign/qemu.c, campaign/reboot.c) --- */

/* Boot slot x of c in a fresh qemu guest, run, merge its database. Updates x (state,
 * reason, boot id); o->accel/accel_note may change after the KVM probe. Returns 0 when
 * the slot got its final state for this attempt, -1 with e set on an error of the host. */
int campaign_qemu_slot(const struct campaign_env *env, const struct store_campaign *c, struct campaign_opts *o,
		       struct store_campaign_slot *x, struct err *e);

/* The accelerator a qemu campaign boots with here: o->accel, or for "auto" kvm when
 * /dev/kvm opens, else tcg. */
const char *campaign_qemu_accel(const struct campaign_opts *o);
/* Under TCG (accel "tcg"), say on env->out that the campaign's costs are the emulator's;
 * otherwise nothing. */
void campaign_qemu_tcg_note(const struct campaign_env *env, const char *name, const char *accel);

/* The kernel command line marker of a slot: "sysab.boot=NAME:SLOT" (new string). */
char *campaign_marker(const char *name, int slot);

/* Reboot backends: arm the boot of slot x (kexec -l / grub-reboot / the user's command)
 * and reboot (or print with dry_run). */
int campaign_arm_and_boot(const struct campaign_env *env, const struct store_campaign *c,
			  const struct store_campaign_slot *x, struct err *e);
/* Install (or print) the systemd unit that runs `sysab campaign resume NAME` at boot;
 * remove it. */
int campaign_unit_install(const struct campaign_env *env, const struct store_campaign *c,
			  const struct campaign_opts *o, struct err *e);
void campaign_unit_remove(const struct campaign_env *env, const struct store_campaign *c,
			  const struct campaign_opts *o);
/* Does the running kernel match slot x's configuration? 1 yes, 0 no with *why set (new
 * string). Reads $SYSAB_CAMPAIGN_PROC/{cmdline,osrelease,boot_id} when set (tests). */
int campaign_check_kernel(const struct store_campaign *c, const struct store_campaign_slot *x, char **why,
			  char **boot_id);

#endif
