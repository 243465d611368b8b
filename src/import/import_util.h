/* import_util.h - helpers shared by the importers: strict number syntax. */
#ifndef SYSAB_IMPORT_UTIL_H
#define SYSAB_IMPORT_UTIL_H

#include <stddef.h>

enum {
	IMPORT_NUM_OK = 0,
	IMPORT_NUM_SYNTAX = -1, /* not a plain decimal number */
	IMPORT_NUM_RANGE = -2,  /* a number, but outside [min, max] */
};

/* Parse the n bytes at s (not NUL-terminated, may hold any byte) as a plain decimal
 * number: [+-]digits[.digits][e[+-]digits], at most 64 bytes, no spaces, no hex, inf
 * or nan. Returns IMPORT_NUM_OK and sets *out, or one of the error codes above and
 * leaves *out unchanged. */
int import_number(const char *s, size_t n, double min, double max, double *out);

#endif
