/* grub.c - the grub backend: `grub-reboot ENTRY`, then `systemctl reboot` (a cold boot). A grub
 * entry cannot carry a marker, so the booted command line must hold the configuration's --append. */
#include "campaign/backend.h"

static int grub_check(const struct campaign *c, const struct store_campaign_config *k, struct err *e)
{
	(void)c;
	if (!k->entry)
		return errf(e, "--config '%s': the grub backend needs --entry (a grub menu entry or its index)", k->name);
	if (!k->append || !*k->append)
		return errf(e, "--config '%s': the grub backend needs --append (the command line the entry boots with), "
			       "so that a fallback to the default kernel is caught",
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

const struct campaign_backend campaign_backend_grub = {
	.name = "grub",
	.caps = CB_REBOOTS | CB_NEEDS_ROOT,
	.root_for = "grub-reboot",
	.check_config = grub_check,
	.prepare = reboot_prepare,
	.argv = grub_argv,
	.boot_slot = reboot_boot_slot,
	.collect = reboot_collect,
	.cleanup = reboot_cleanup,
};
