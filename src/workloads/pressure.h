/* pressure.h - instruction-cache pressure (run --icache-pressure): sweeps that make a kernel entry path cold before each op. */
#ifndef SYSAB_WL_PRESSURE_H
#define SYSAB_WL_PRESSURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload.h"

/* User space cannot flush kernel text from the caches. What it can do is run enough
 * other code (which evicts the first-level instruction cache) and read enough other
 * data (which evicts the unified second- and last-level caches, where kernel text also
 * lives) that the kernel's entry path is no longer cached when the op enters the kernel.
 * The code sweep calls straight-line blocks of nops (PRESSURE_CHUNK bytes each, at most
 * PRESSURE_CODE_MAX bytes in all); the data sweep reads one byte per cache line of a
 * buffer. Both run untimed, between ops (wl_batch). */
#define PRESSURE_CHUNK (16u << 10)
#define PRESSURE_CODE_MAX (1u << 20)
#define PRESSURE_DATA_MAX (1ul << 30)
#define PRESSURE_L1I_DEFAULT (64u << 10)   /* when sysfs names no L1 instruction cache */
#define PRESSURE_LLC_DEFAULT (32ul << 20)  /* when sysfs names no unified cache */
#define PRESSURE_LINE_DEFAULT 64u

/* One cache of CPU 0, as sysfs cache/index<N>/{level,type,size,coherency_line_size} say. */
struct wl_cache {
	int level;
	char type;   /* 'i' instruction, 'd' data, 'u' unified */
	size_t bytes;
	size_t line; /* 0 when not shown */
};

/* What --icache-pressure SPEC asks for, resolved against this machine's caches. */
struct wl_pressure {
	char spec[32];      /* as given: "l1", "llc" or a size such as "8M" */
	size_t code_bytes;  /* nop code executed before each op, a multiple of PRESSURE_CHUNK */
	size_t data_bytes;  /* buffer read before each op (0: none) */
	size_t line;        /* the data sweep's stride */
	const char *source; /* "sysfs" or "default": where the cache sizes came from */
};

/* The bytes of a size: a decimal number with an optional K, M or G (powers of 1024),
 * optionally followed by "iB" or "B" ("32K" as sysfs writes it, "8MiB"). 0 when s is not
 * one (or overflows). */
size_t wl_size_parse(const char *s);

/* The caches listed under dir (e.g. /sys/devices/system/cpu/cpu0/cache: index0,
 * index1, ...) into v (at most max of them). Returns how many were read; 0 when dir
 * shows none. */
size_t wl_caches_read(const char *dir, struct wl_cache *v, size_t max);

/* Resolve spec against the caches c[0..n) into *p:
 *   l1   code sweep of twice the L1 instruction cache (the entry path then comes from L2);
 *   llc  that code sweep and a data sweep of twice the largest unified cache (the entry
 *        path then comes from memory: the local or a remote node's);
 *   SIZE that code sweep and a data sweep of SIZE bytes.
 * A SIZE above PRESSURE_DATA_MAX is refused; the sizes l1 and llc derive from the caches are
 * clamped to PRESSURE_CODE_MAX and PRESSURE_DATA_MAX. Returns 0, or -1 with why (size whylen)
 * saying what is wrong with spec. */
int wl_pressure_plan(const char *spec, const struct wl_cache *c, size_t n, struct wl_pressure *p, char *why,
		     size_t whylen);

/* Does w take --icache-pressure (its op is one kernel entry of the timing process)? */
bool wl_pressure_takes(const struct workload *w);

/* Mark w's checks that pressure makes meaningless as "cannot check" in ctx: switches per
 * op (involuntary or all), since the usage around an op must be read before its sweep (a
 * read after it would warm the kernel path again), so a switch during the sweep would
 * count against the op, and a sweep lasts much longer than an op. */
void wl_pressure_uncheckable(const struct workload *w, struct wl_ctx *ctx);

/* A copy's sweep: its buffer and what it has done. */
struct wl_sweep {
	const struct wl_pressure *p;
	unsigned char *buf;   /* data_bytes, faulted in by wl_sweep_open */
	uint64_t sweeps;      /* complete sweeps: every chunk called and every line read */
	uint64_t partial;     /* sweeps that fell short (a self-check fails then) */
	uint64_t sink;        /* what the data sweep read, so that the reads stay */
	uint64_t wall_ns;     /* the last batch's whole length, sweeps and all (wl_batch) */
	bool omit;            /* tests only: leave out the last chunk, so every sweep falls short */
};

/* Prepare a sweep of p: allocate and touch its buffer. Returns 0 or WL_NORESOURCE with why. */
int wl_sweep_open(struct wl_sweep *s, const struct wl_pressure *p, char *why, size_t whylen);
/* Run one sweep: the code, then the data. */
void wl_sweep_run(struct wl_sweep *s);
/* Release the buffer. wl_sweep_close of a zeroed sweep is a no-op. */
void wl_sweep_close(struct wl_sweep *s);

#endif
