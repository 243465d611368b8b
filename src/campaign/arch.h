/* arch.h - the guest architectures the qemu backend boots: a table the backend and the
 * options' parser share. */
#ifndef SYSAB_CAMPAIGN_ARCH_H
#define SYSAB_CAMPAIGN_ARCH_H

#include <stddef.h>
#include <stdint.h>

/* A guest architecture: how qemu boots it. The console is the first serial port (the data
 * channel the second) on both machines. */
struct guest_arch {
	const char *name;    /* as `uname -m` says it; also the value of --arch */
	const char *qemu;    /* the qemu binary, looked up in PATH unless --qemu names one */
	const char *package; /* the Debian package that has it */
	const char *machine; /* -machine */
	const char *append;  /* the command line before the configuration's own */
	uint16_t pe, elf;    /* the machine numbers of its PE/EFI and ELF kernel images */
	const char *no_numa; /* NULL when its guest kernel was seen to get qemu's -numa nodes; else why not */
};

/* The table, campaign_narches entries; the first is the default. */
extern const struct guest_arch campaign_arches[];
extern const size_t campaign_narches;
/* The entry called name, or NULL. */
const struct guest_arch *campaign_arch_find(const char *name);

#endif
