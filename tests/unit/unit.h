/* unit.h - common includes for cmocka unit tests. */
#ifndef SYSAB_UNIT_H
#define SYSAB_UNIT_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

/* UNIT_TMPDIR_FIXTURE: a file-level `char *dir`, a fresh temporary directory made by
 * setup() and removed with everything in it by teardown() (cmocka fixtures). The test
 * file includes the tmpdir and err headers. */
#define UNIT_TMPDIR_FIXTURE                                     \
	static char *dir;                                       \
	static int setup(void **state)                          \
	{                                                       \
		(void)state;                                    \
		struct err e;                                   \
		return tmpdir_create(&dir, &e);                 \
	}                                                       \
	static int teardown(void **state)                       \
	{                                                       \
		(void)state;                                    \
		tmpdir_remove(dir);                             \
		free(dir);                                      \
		return 0;                                       \
	}
#endif
