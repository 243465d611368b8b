/* tmp.h - private temporary directories and the stop flag set by signals. */
#ifndef SYSAB_TMP_H
#define SYSAB_TMP_H

#include <signal.h>
#include "core.h"

/* Prefix of every temporary directory sysab makes: "<prefix><pid>.XXXXXX" under
 * $TMPDIR (or /tmp). The pid lets a later run remove what a killed run left. */
#define TMP_PREFIX "sysab."

/* Create a fresh private directory (mode 0700, via mkdtemp) under $TMPDIR.
 * On success *path is newly allocated. On error -1 with e set. */
int tmpdir_create(char **path, struct err *e);

/* Remove a directory tree without following symlinks. Returns 0 or -1. */
int tmpdir_remove(const char *path);

/* Remove directories that runs of sysab which no longer exist left under $TMPDIR.
 * Returns how many were removed. */
int tmpdir_reap_stale(void);

/* The one mutable global: the first stop signal received (0 = none). */
extern volatile sig_atomic_t sig_stop;

/* Install handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGXFSZ that set sig_stop, without
 * SA_RESTART so blocking calls return EINTR; ignore SIGPIPE (workers restore it). */
void sig_install(void);

#endif
