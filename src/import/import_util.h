/* import_util.h - rules shared by the importers: number syntax, value range, workload names. */
#ifndef SYSAB_IMPORT_UTIL_H
#define SYSAB_IMPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

/* Every stored value (ops/s), from a CSV row or a UnixBench pass, lies in [min, max]. */
#define IMPORT_MIN_VALUE 1e-12
#define IMPORT_MAX_VALUE 1e15
/* A workload name: a letter, then letters, digits, '.', '_', '-'; at most this many bytes. */
#define IMPORT_MAX_WORKLOAD 64
#define IMPORT_WORKLOAD_RULE "a letter, then letters, digits, '.', '_', '-'; at most 64 bytes"

enum {
	IMPORT_NUM_OK = 0,
	IMPORT_NUM_SYNTAX = -1, /* not a plain decimal number */
	IMPORT_NUM_RANGE = -2,  /* a number, but outside [min, max] */
};

/* Parse the n bytes at s (not NUL-terminated, may hold any byte) as a plain decimal
 * number: [+-]digits[.digits][e[+-]digits] (digits on at least one side of the point),
 * of any length, no spaces, no hex, inf or nan; the point is always '.'. Returns
 * IMPORT_NUM_OK and sets *out, or one of the error codes above and leaves *out
 * unchanged. A value too large for a double is out of range; one too small becomes 0
 * (or a subnormal) and is judged against min like any other. */
int import_number(const char *s, size_t n, double min, double max, double *out);

/* The one message both importers give for a number import_number refused with r:
 * "WHAT 'TEXT' is not a plain decimal number; ..." or "WHAT TEXT is out of range (MIN to
 * MAX)". TEXT is cut at 40 bytes, and shown as '?' when it is not clean text. */
void import_number_msg(char *buf, size_t size, int r, const char *what, const char *s, size_t n, double min,
		       double max);

/* Whether the NUL-terminated s is a workload name by IMPORT_WORKLOAD_RULE. */
bool import_workload_ok(const char *s);

#endif
