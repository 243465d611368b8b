/* arch.c - the table of guest architectures the qemu backend boots (campaign/arch.h). */
#include "campaign/arch.h"
#include "campaign/campaign.h"

#include <string.h>

/* loongarch64 boots without firmware: qemu (10.0, Debian 13's) loads the kernel's plain EFI
 * image itself (not a zstd-compressed zboot one: scripts/guest-image.sh unpacks that) and
 * hands it a device tree but no ACPI tables, so the i8042 probe faults on ISA ports that are
 * not there and is left out. KVM needs a host of the guest's architecture. Its virt machine
 * accepts -numa, but with a device tree and no ACPI the kernel fakes one node (seen with
 * Debian's loong64 kernel under qemu 10.0), so --numa is refused there. */
const struct guest_arch campaign_arches[] = {
	{"x86_64", "qemu-system-x86_64", "qemu-system-x86", "q35", "console=ttyS0 panic=-1", 0x8664, 62, NULL},
	{"loongarch64", "qemu-system-loongarch64", "qemu-system-misc", "virt",
	 "console=ttyS0 panic=-1 initcall_blacklist=i8042_init", 0x6264, 258,
	 "its guest boots with a device tree and no ACPI tables, and the LoongArch kernel then fakes one node for "
	 "all memory (\"Faking a node\"), so the guest would see one node"},
};
const size_t campaign_narches = sizeof campaign_arches / sizeof campaign_arches[0];

const struct guest_arch *campaign_arch_find(const char *name)
{
	for (size_t i = 0; name && i < campaign_narches; i++)
		if (!strcmp(campaign_arches[i].name, name))
			return &campaign_arches[i];
	return NULL;
}

bool campaign_qemu_arch_ok(const char *name)
{
	return name && (!strcmp(name, "auto") || campaign_arch_find(name));
}

const char *campaign_qemu_arch_names(void)
{
	return "auto, x86_64 or loongarch64";
}
