/* live.h - is the process that owns a run or a temporary directory still alive: a kernel-held lock. */
#ifndef SYSAB_LIVE_H
#define SYSAB_LIVE_H

#include <stdbool.h>
#include <sys/types.h>
#include "core.h"

/* Liveness rests on an open-file-description lock (fcntl F_OFD_SETLK) that the owner holds
 * on a lock file for as long as it lives. The kernel releases it when the owner dies, and it
 * is seen alike from every PID namespace, unlike a pid. Where there is no lock file (an older
 * sysab, or a directory it could not write), the owner's pid decides, as before. */

/* Create (or take over) the regular file path, mode 0644 (any reader of the database may test
 * it; it holds nothing), never through a symlink, and hold a write lock on it. On success
 * returns the descriptor (close-on-exec) that holds the lock, until it is closed. On error -1
 * with e naming path. */
int live_lock_create(const char *path, struct err *e);

/* What a lock file says of its owner. */
enum live_state {
	LIVE_NONE, /* no lock file (or not a regular file): fall back on the pid */
	LIVE_HELD, /* its owner holds the lock: alive */
	LIVE_FREE, /* nobody holds it: its owner died */
};

/* Test, without taking it, whether the lock at path is held (by any process, this one through
 * another descriptor included). Never follows a symlink, never blocks. */
enum live_state live_lock_probe(const char *path);

/* Whether pid names a process that exists (the old rule; meaningless across PID namespaces). */
bool live_pid_exists(pid_t pid);

/* The one rule: is the owner of the lock at path, whose pid was pid, alive. Lock held: yes;
 * lock free: no; no lock file: whether pid exists. */
bool live_owner_alive(const char *path, pid_t pid);

#endif
