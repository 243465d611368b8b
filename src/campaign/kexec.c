/* kexec.c - the kexec backend: `kexec -l KERNEL --append=CMDLINE+marker`, then `systemctl kexec`. */
#include "campaign/backend.h"

#include <stdlib.h>

static int kexec_check(const struct campaign *c, const struct store_campaign_config *k, struct err *e)
{
	(void)c;
	if (!k->kernel)
		return errf(e, "--config '%s': the kexec backend needs --kernel (and usually --initrd and --append)",
			    k->name);
	if (k->entry || k->command)
		return errf(e, "--config '%s': --entry and --command are for the grub and command backends", k->name);
	return 0;
}

static void kexec_argv(struct campaign_ctx *x, int i, struct campaign_cmds *out)
{
	const struct store_campaign_config *k = &x->c->r.configs[x->c->r.slots[i].config];
	char *append = reboot_append(x->c, i);
	struct campaign_cmd *load = campaign_cmds_add(out, false);
	strv_add(&load->argv, "kexec");
	strv_add(&load->argv, "-l");
	strv_add(&load->argv, k->kernel);
	char *t = xasprintf("--append=%s", append);
	strv_add(&load->argv, t);
	free(t);
	if (k->initrd) {
		t = xasprintf("--initrd=%s", k->initrd);
		strv_add(&load->argv, t);
		free(t);
	}
	struct campaign_cmd *boot = campaign_cmds_add(out, true);
	strv_add(&boot->argv, "systemctl");
	strv_add(&boot->argv, "kexec");
	free(append);
}

const struct campaign_backend campaign_backend_kexec = {
	.name = "kexec",
	.caps = CB_REBOOTS | CB_NEEDS_ROOT | CB_MARKER,
	.root_for = "kexec -l",
	.check_config = kexec_check,
	.prepare = reboot_prepare,
	.argv = kexec_argv,
	.boot_slot = reboot_boot_slot,
	.collect = reboot_collect,
	.cleanup = reboot_cleanup,
	.new_args = reboot_new_args,
};
