/* command.c - the command backend: the user's command, run by /bin/sh -c with the configuration
 * in its environment, boots the machine (a remote power switch, a lab's API). */
#include "campaign/backend.h"

#include <stdlib.h>

static int command_check(const struct campaign *c, const struct store_campaign_config *k, struct err *e)
{
	(void)c;
	if (!k->command)
		return errf(e, "--config '%s': the command backend needs --command (a shell command that boots the machine "
			       "into this configuration)",
			    k->name);
	if (k->entry)
		return errf(e, "--config '%s': --entry is for the grub backend", k->name);
	return 0;
}

static void command_argv(struct campaign_ctx *x, int i, struct campaign_cmds *out)
{
	const struct campaign *c = x->c;
	int ci = c->r.slots[i].config;
	const struct store_campaign_config *k = &c->r.configs[ci];
	struct campaign_cmd *cmd = campaign_cmds_add(out, false);
	char *append = reboot_append(c, i);
	char *t;
	strv_add(&cmd->envp, (t = xasprintf("SYSAB_CAMPAIGN=%s", c->r.name)));
	free(t);
	strv_add(&cmd->envp, (t = xasprintf("SYSAB_CONFIG=%s", k->name)));
	free(t);
	strv_add(&cmd->envp, (t = xasprintf("SYSAB_SLOT=%d", i)));
	free(t);
	strv_add(&cmd->envp, (t = xasprintf("SYSAB_APPEND=%s", append)));
	free(t);
	if (k->kernel) {
		strv_add(&cmd->envp, (t = xasprintf("SYSAB_KERNEL=%s", k->kernel)));
		free(t);
	}
	if (k->initrd) {
		strv_add(&cmd->envp, (t = xasprintf("SYSAB_INITRD=%s", k->initrd)));
		free(t);
	}
	const struct kvlist *l = &c->labels[ci];
	for (size_t n = 0; n < l->n; n++) {
		t = xasprintf("SYSAB_LABEL_%s=%s", l->v[n].key, l->v[n].value);
		for (char *p = t + 12; *p && *p != '='; p++)
			if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
				*p = '_';
		strv_add(&cmd->envp, t);
		free(t);
	}
	strv_add(&cmd->argv, "/bin/sh");
	strv_add(&cmd->argv, "-c");
	strv_add(&cmd->argv, k->command);
	free(append);
}

const struct campaign_backend campaign_backend_command = {
	.name = "command",
	.caps = CB_REBOOTS | CB_MARKER,
	.root_for = "",
	.check_config = command_check,
	.prepare = reboot_prepare,
	.argv = command_argv,
	.boot_slot = reboot_boot_slot,
	.collect = reboot_collect,
	.cleanup = reboot_cleanup,
	.new_args = reboot_new_args,
};
