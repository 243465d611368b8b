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

/* The lock file inside a held directory, and how long one without it is kept whatever its pid. */
#define TMP_LOCK "lock"
#define TMP_YOUNG_S 60

/* As tmpdir_create, and hold a lock on the file TMP_LOCK inside it (core/live.h) so that no
 * sysab in any PID namespace takes it for a dead run's. On success *lock is the descriptor that
 * holds it, to pass to tmpdir_remove_held. On error -1 with e set, *path NULL, nothing left. */
int tmpdir_create_held(char **path, int *lock, struct err *e);

/* Remove a directory made by tmpdir_create_held, then release its lock (lock < 0: none).
 * Returns as tmpdir_remove. */
int tmpdir_remove_held(const char *path, int lock);

/* Remove directories that runs of sysab which no longer exist left under $TMPDIR: a
 * directory whose lock nobody holds, or without a lock one whose pid does not exist and that
 * is older than TMP_YOUNG_S seconds. Returns how many were removed. */
int tmpdir_reap_stale(void);

/* The one mutable global: the first stop signal received (0 = none). */
extern volatile sig_atomic_t sig_stop;

/* Install handlers for SIGINT, SIGTERM, SIGHUP, SIGQUIT and SIGXFSZ that set sig_stop, without
 * SA_RESTART so blocking calls return EINTR; ignore SIGPIPE (workers restore it). */
void sig_install(void);

#endif
