/* grub.c - the grub backend: `grub-reboot ENTRY`, then `systemctl reboot` (a cold boot). A grub
 * entry cannot carry a marker, so the image the boot loader names in BOOT_IMAGE= and the booted
 * release must be the configuration's --kernel (reboot_check_kernel). */
#include "campaign/backend.h"

/* c is NULL for `new`; a campaign stored before --kernel was needed loads, and start refuses it. */
static int grub_check(const struct campaign *c, const struct store_campaign_config *k, struct err *e)
{
	if (!k->entry)
		return errf(e, "--config '%s': the grub backend needs --entry (a grub menu entry or its index)", k->name);
	if (!k->kernel && !c)
		return errf(e, "--config '%s': the grub backend needs --kernel, the image its entry boots (e.g. "
			       "/boot/vmlinuz-RELEASE), so that a fallback to the default kernel is caught (a grub entry "
			       "cannot carry sysab's marker)",
			    k->name);
	if (k->command)
		return errf(e, "--config '%s': --command is for the command backend", k->name);
	return 0;
}

static void grub_argv(struct campaign_ctx *x, int i, struct campaign_cmds *out)
{
	const struct store_campaign_config *k = &x->c->r.configs[x->c->r.slots[i].config];
	struct campaign_cmd *arm = campaign_cmds_add(out, false);
	strv_add(&arm->argv, "grub-reboot");
	strv_add(&arm->argv, k->entry);
	struct campaign_cmd *boot = campaign_cmds_add(out, true);
	strv_add(&boot->argv, "systemctl");
	strv_add(&boot->argv, "reboot");
}

/* Refuse to boot a configuration without --kernel (stored before it was needed); else as reboot_prepare. */
static int grub_prepare(struct campaign_ctx *x, struct err *e)
{
	for (size_t i = 0; i < x->c->r.nconfigs; i++)
		if (!x->c->r.configs[i].kernel)
			return errf(e, "campaign '%s': configuration '%s' names no --kernel, so a fallback to the default "
				       "kernel could not be told from its boot; plan it again with `sysab campaign new ... "
				       "--entry E --kernel /boot/vmlinuz-RELEASE`",
				    x->c->r.name, x->c->r.configs[i].name);
	return reboot_prepare(x, e);
}

const struct campaign_backend campaign_backend_grub = {
	.name = "grub",
	.caps = CB_REBOOTS | CB_NEEDS_ROOT,
	.root_for = "grub-reboot",
	.check_config = grub_check,
	.prepare = grub_prepare,
	.argv = grub_argv,
	.boot_slot = reboot_boot_slot,
	.collect = reboot_collect,
	.cleanup = reboot_cleanup,
	.new_args = reboot_new_args,
};
