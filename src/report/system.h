/* system.h - rendering `sysab system show|tune|reset` as a table, markdown or JSON. Never computes. */
#ifndef SYSAB_REPORT_SYSTEM_H
#define SYSAB_REPORT_SYSTEM_H

#include <stdio.h>
#include "system/system.h"

/* The knobs, CPUs, load and virtualisation of s as tables on f. */
void report_system_text(FILE *f, const struct sys_state *s);
/* The same as a JSON document; the caller frees it. */
char *report_system_json(const struct sys_state *s);
/* The knobs of s as a markdown table, then the CPUs, load and virtualisation as a list. */
void report_system_markdown(FILE *f, const struct sys_state *s);

/* The options the reset a tune names must repeat: each NULL when its default is right. */
struct sys_reset_hint {
	const char *root;
	const char *state_file;
};

/* What tune (verb "tune") or reset ("reset") did; h: for tune, the reset's options. */
void report_changes_text(FILE *f, const char *verb, const struct sys_changes *c, const char *state_file,
			 const struct sys_reset_hint *h);
char *report_changes_json(const char *verb, const struct sys_changes *c, const char *state_file);

#endif
