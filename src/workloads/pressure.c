/* pressure.c - instruction-cache pressure: cache sizes from sysfs, the sweep plan, the nop code and data sweeps. */
#include "pressure.h"
#include "core/core.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The size in bytes of one nop: 1 on x86, 4 on the fixed-width ISAs sysab builds for
 * (riscv64 is told not to compress it to the 2-byte c.nop). */
#if defined(__x86_64__) || defined(__i386__)
#define PRESSURE_NOP_BYTES 1
#define PRESSURE_ASM_PRE ""
#define PRESSURE_ASM_POST ""
#elif defined(__riscv)
#define PRESSURE_NOP_BYTES 4
#define PRESSURE_ASM_PRE ".option push\n\t.option norvc\n\t"
#define PRESSURE_ASM_POST "\n\t.option pop"
#else
#define PRESSURE_NOP_BYTES 4
#define PRESSURE_ASM_PRE ""
#define PRESSURE_ASM_POST ""
#endif
#define PRESSURE_STR_(x) #x
#define PRESSURE_STR(x) PRESSURE_STR_(x)

/* One chunk: PRESSURE_CHUNK bytes of straight-line nops in a function of its own. The
 * assembler gets the size as a plain number: clang's integrated assembler rejects C's
 * "16u << 10". */
#define PRESSURE_CHUNK_ASM 16384
_Static_assert(PRESSURE_CHUNK == PRESSURE_CHUNK_ASM, "the assembler's chunk size is PRESSURE_CHUNK");
#define PRESSURE_NOPS                                                                                        \
	__asm__ volatile(PRESSURE_ASM_PRE ".rept " PRESSURE_STR(PRESSURE_CHUNK_ASM) "/" PRESSURE_STR(            \
		PRESSURE_NOP_BYTES) "\n\tnop\n\t.endr" PRESSURE_ASM_POST)
#define PC(n) static __attribute__((noinline)) void pressure_chunk_##n(void) { PRESSURE_NOPS; }
#define PC4(a) PC(a##0) PC(a##1) PC(a##2) PC(a##3)
#define PC16(a) PC4(a##0) PC4(a##1) PC4(a##2) PC4(a##3)
PC16(0) PC16(1) PC16(2) PC16(3)
#define PA(n) pressure_chunk_##n,
#define PA4(a) PA(a##0) PA(a##1) PA(a##2) PA(a##3)
#define PA16(a) PA4(a##0) PA4(a##1) PA4(a##2) PA4(a##3)
static void (*const pressure_chunks[])(void) = {PA16(0) PA16(1) PA16(2) PA16(3)};
_Static_assert(sizeof pressure_chunks / sizeof pressure_chunks[0] * PRESSURE_CHUNK == PRESSURE_CODE_MAX,
	       "the chunks make up PRESSURE_CODE_MAX");

size_t wl_size_parse(const char *s)
{
	if (!s || !isdigit((unsigned char)*s))
		return 0;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	if (errno)
		return 0;
	int shift = 0;
	switch (*end) {
	case 'K': case 'k': shift = 10; end++; break;
	case 'M': case 'm': shift = 20; end++; break;
	case 'G': case 'g': shift = 30; end++; break;
	}
	if (shift && *end == 'i')
		end++;
	if (*end == 'B')
		end++;
	while (*end == '\n' || *end == ' ')
		end++;
	if (*end || v > (SIZE_MAX >> shift))
		return 0;
	return (size_t)(v << shift);
}

size_t wl_caches_read(const char *dir, struct wl_cache *v, size_t max)
{
	size_t n = 0;
	for (int i = 0; i < 16 && n < max; i++) {
		char *p = xasprintf("%s/index%d/level", dir, i), *level = read_text_file(p);
		free(p);
		p = xasprintf("%s/index%d/type", dir, i);
		char *type = read_text_file(p);
		free(p);
		p = xasprintf("%s/index%d/size", dir, i);
		char *size = read_text_file(p);
		free(p);
		p = xasprintf("%s/index%d/coherency_line_size", dir, i);
		char *line = read_text_file(p);
		free(p);
		if (level && type && size && atoi(level) > 0 && wl_size_parse(size)) {
			v[n].level = atoi(level);
			v[n].type = !strncmp(type, "Instruction", 11) ? 'i' : !strncmp(type, "Data", 4) ? 'd' : 'u';
			v[n].bytes = wl_size_parse(size);
			v[n].line = line ? wl_size_parse(line) : 0;
			n++;
		}
		free(level), free(type), free(size), free(line);
	}
	return n;
}

int wl_pressure_plan(const char *spec, const struct wl_cache *c, size_t n, struct wl_pressure *p, char *why,
		     size_t whylen)
{
	memset(p, 0, sizeof *p);
	bool l1 = spec && !strcmp(spec, "l1"), llc = spec && !strcmp(spec, "llc");
	size_t size = l1 || llc ? 0 : wl_size_parse(spec);
	if (!l1 && !llc && !size) {
		snprintf(why, whylen, "--icache-pressure %s: give l1, llc or a size such as 8M (a data sweep of that many "
				      "bytes besides the l1 code sweep)", spec ? spec : "");
		return -1;
	}
	if (size > PRESSURE_DATA_MAX) {
		snprintf(why, whylen, "--icache-pressure %s: a data sweep is at most %lu MiB (1G); give a smaller size",
			 spec, PRESSURE_DATA_MAX >> 20);
		return -1;
	}
	size_t l1i = 0, big = 0, line = 0;
	for (size_t i = 0; i < n; i++) {
		if (c[i].level == 1 && c[i].type == 'i')
			l1i = c[i].bytes;
		if (c[i].type == 'u' && c[i].bytes > big) {
			big = c[i].bytes;
			line = c[i].line;
		}
	}
	bool sysfs = l1i && (!llc || big);
	snprintf(p->spec, sizeof p->spec, "%s", spec);
	size_t code = 2 * (l1i ? l1i : PRESSURE_L1I_DEFAULT);
	code = (code + PRESSURE_CHUNK - 1) / PRESSURE_CHUNK * PRESSURE_CHUNK;
	p->code_bytes = code < PRESSURE_CODE_MAX ? code : PRESSURE_CODE_MAX;
	p->data_bytes = llc ? 2 * (big ? big : PRESSURE_LLC_DEFAULT) : size;
	if (p->data_bytes > PRESSURE_DATA_MAX)
		p->data_bytes = PRESSURE_DATA_MAX;
	p->line = line >= 16 && line <= 1024 ? line : PRESSURE_LINE_DEFAULT;
	p->source = sysfs ? "sysfs" : "default";
	return 0;
}

bool wl_pressure_takes(const struct workload *w)
{
	return (w->flags & WL_ENTRY) != 0;
}

void wl_pressure_uncheckable(const struct workload *w, struct wl_ctx *ctx)
{
	for (int i = 0; i < WL_MAX_CHECKS; i++)
		if ((w->checks[i].metric == WL_M_NIVCSW || w->checks[i].metric == WL_M_CSW ||
		     w->checks[i].metric == WL_M_CSW_COUNT1) && !ctx->cannot_check[i][0])
			wl_cannot_check(ctx, i, "under --icache-pressure a switch during the untimed sweep before an op "
						"would count against the op");
}

int wl_sweep_open(struct wl_sweep *s, const struct wl_pressure *p, char *why, size_t whylen)
{
	memset(s, 0, sizeof *s);
	s->p = p;
	if (!p->data_bytes)
		return 0;
	void *b = mmap(NULL, p->data_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED) {
		snprintf(why, whylen, "--icache-pressure %s: cannot map its %zu-byte data sweep: %s", p->spec,
			 p->data_bytes, strerror(errno));
		return WL_NORESOURCE;
	}
	memset(b, 1, p->data_bytes); /* faulted in now, so no sweep faults */
	s->buf = b;
	return 0;
}

void wl_sweep_run(struct wl_sweep *s)
{
	size_t want = s->p->code_bytes / PRESSURE_CHUNK, ran = 0;
	for (size_t i = 0; i < want - (s->omit && want); i++, ran++)
		pressure_chunks[i]();
	size_t lines = 0, wantl = s->p->data_bytes / s->p->line;
	uint64_t sum = 0;
	const volatile unsigned char *b = s->buf;
	for (size_t off = 0; b && lines < wantl; off += s->p->line, lines++)
		sum += b[off];
	s->sink += sum;
	if (ran == want && lines == wantl)
		s->sweeps++;
	else
		s->partial++;
}

void wl_sweep_close(struct wl_sweep *s)
{
	if (s->buf)
		munmap(s->buf, s->p->data_bytes);
	s->buf = NULL;
}
