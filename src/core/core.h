/* core.h - small shared helpers: errors, allocation, strings, clock. */
#ifndef SYSAB_CORE_H
#define SYSAB_CORE_H

#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <time.h>

#define SYSAB_VERSION "0.1.0"

/* Exit codes shared by every command. */
enum {
	EXIT_OK = 0,
	EXIT_GATE = 1,   /* a --fail-on verdict gate matched */
	EXIT_INPUT = 2,  /* usage or input error, or a failure the user must act on */
};

/* An error message, built once where the failing input is first known. */
struct err {
	char msg[1024];
};

/* Set e->msg from fmt and return -1, so callers can write `return errf(...)`.
 * e may be NULL, in which case only -1 is returned. */
int errf(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prefix the existing message with "prefix: ". Returns -1. */
int err_prefix(struct err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Allocation: these never return NULL; on exhaustion they print and abort. */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Grow an array of `size`-byte elements to hold at least `need` items.
 * *cap is updated; the returned pointer replaces p. */
void *xgrow(void *p, size_t *cap, size_t need, size_t size);

/* A growable string. Zero-initialise; sb_free() releases. s is always NUL-terminated
 * once anything has been appended. */
struct sb {
	char *s;
	size_t len, cap;
};
void sb_add(struct sb *b, const char *s);
void sb_addn(struct sb *b, const char *s, size_t n);
void sb_addf(struct sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_vaddf(struct sb *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
const char *sb_str(const struct sb *b); /* "" when empty */
void sb_free(struct sb *b);

/* A list of owned key=value string pairs (labels, environment). */
struct kv {
	char *key;
	char *value;
};
struct kvlist {
	struct kv *v;
	size_t n, cap;
};
/* Append a copy of key and value. */
void kv_add(struct kvlist *l, const char *key, const char *value);
void kv_addf(struct kvlist *l, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Value for key, or NULL. */
const char *kv_get(const struct kvlist *l, const char *key);
/* Sort by key (stable for equal keys). */
void kv_sort(struct kvlist *l);
void kv_free(struct kvlist *l);

/* A list of owned strings. */
struct strv {
	char **v;
	size_t n, cap;
};
void strv_add(struct strv *l, const char *s);
bool strv_has(const struct strv *l, const char *s);
void strv_free(struct strv *l);

/* Clocks, in nanoseconds. clock_raw_ns() is CLOCK_MONOTONIC_RAW, for timing
 * batches; clock_wall_ns() is CLOCK_REALTIME, for timestamps. */
static inline uint64_t clock_raw_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
uint64_t clock_wall_ns(void);
/* Format a wall-clock ns timestamp as "YYYY-MM-DD HH:MM:SS" UTC into buf. */
void format_wall(uint64_t wall_ns, char *buf, size_t size);

/* Parsing of numeric user input. Each returns 0, or -1 with e naming `what`. */
int parse_u64(const char *s, uint64_t min, uint64_t max, const char *what, uint64_t *out, struct err *e);
int parse_int(const char *s, int min, int max, const char *what, int *out, struct err *e);
/* A positive real number, optionally with a trailing '%' (divided by 100 when present
 * and percent is true). */
int parse_double(const char *s, double min, double max, const char *what, double *out, struct err *e);
int parse_percent(const char *s, double min, double max, const char *what, double *out, struct err *e);
/* A duration like "250ms", "2s", "10m", "1h" or a bare number of seconds, in ns. */
int parse_duration(const char *s, const char *what, uint64_t *out_ns, struct err *e);

/* Label "key=value" parsing and validation (see docs/FORMATS.md for the rules).
 * On success *key and *value are newly allocated. */
int label_parse(const char *arg, char **key, char **value, struct err *e);
/* Parse "key=value" and append it to labels; a key already there is an error naming it.
 * Returns 0 or -1 with e set (labels unchanged). */
int label_add(struct kvlist *labels, const char *arg, struct err *e);
/* Validate a label key or value alone. */
int label_check_key(const char *key, struct err *e);
int label_check_value(const char *key, const char *value, struct err *e);

/* True when s is valid UTF-8 without control characters (tab allowed when tab_ok). */
bool text_is_clean(const char *s, bool tab_ok);

/* Write s to f with every byte that is not part of clean text (see text_is_clean; tab
 * allowed) shown as \xNN, so user input quoted in a message cannot drive the terminal. */
void fputs_clean(const char *s, FILE *f);

/* The program's name as the user invoked it, for the commands that hints print: argv[0]
 * (read from /proc/self/cmdline) when it holds a slash (build/sysab, ./sysab), else "sysab"
 * (found on PATH), cut to size. Returns buf. */
const char *prog_name(char *buf, size_t size);

/* A load average judged against the CPUs that serve it: "high" at or above one runnable task
 * per CPU (measurements then share CPUs), "some" from half of that, else "low". */
const char *load_level(double load, long ncpu);
/* text into out with each hint "`sysab " (a command to type, in backquotes) naming the program
 * as invoked (prog_name); other text unchanged. */
void prog_hints(struct sb *out, const char *text);

/* True when s[0..n) is valid UTF-8 without NUL bytes. */
bool text_is_utf8(const char *s, size_t n);

/* Append s[0..n) to out with every control byte but newline and tab, every C1 control and
 * every byte of invalid UTF-8 written as \xNN; with colour, sysab's own colour codes pass.
 * Unless final, a sequence split at the end is left unconsumed: returns the bytes consumed. */
size_t term_escape(const char *s, size_t n, bool final, bool colour, struct sb *out);

/* Replace stdout with a stream that passes everything through term_escape, so text from a
 * database (labels, environment, reasons) cannot drive the terminal. Returns 0 or -1. */
int term_guard_stdout(bool colour);

/* Edit distance, for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);
/* The word of words[0..n) nearest to typed that is close enough to be a typo of it (at most
 * one edit per three characters of typed, and at least one), the first on a tie; NULL when
 * none is ("test" is no typo of "yes"). */
const char *typo_of(const char *typed, const char *const *words, size_t n);

/* Read a small text file (≤ 1 MiB) into a new string with the trailing newline
 * removed. Returns NULL if it cannot be read. */
char *read_text_file(const char *path);
/* Read a whole file of any size into a new buffer; *len gets the size. NULL on error with e set. */
char *read_whole_file(const char *path, size_t max, size_t *len, struct err *e);

/* Write an output file given with option opt ("-o"): render(f, arg) writes into a new temporary file next to
 * path (created by mkostemps with O_EXCL and an unpredictable name, so a planted file or link is
 * never followed and planted names cannot block it), which is
 * renamed over path only when render returned 0 and every byte was written. A target that is a
 * character device, a FIFO or a symbolic link (such as /dev/stdout) is written directly and
 * never replaced; a directory, a socket or a dangling link is refused. Returns 0, or -1 with
 * e naming opt and path (and no temporary file left). The one write-temp-then-rename of sysab. */
int file_write_atomic(const char *path, const char *opt, int (*render)(FILE *f, const void *arg), const void *arg,
		      struct err *e);

/* Whether paths a and b name the same file: the same device and inode when both exist
 * (through hard links, symbolic links, "x/../"), else the same directory (resolved) and last
 * component. */
bool file_same(const char *a, const char *b);

/* mkdir -p with the given mode for missing components. Returns 0 or -1 with e set. */
int mkdir_p(const char *path, unsigned mode, struct err *e);

#endif
