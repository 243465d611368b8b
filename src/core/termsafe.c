/* termsafe.c - text that reaches a terminal: control bytes and invalid UTF-8 shown as \xNN. */
#include "core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The colour codes sysab itself writes (report tables); with colour on they pass, nothing else. */
static const char *const palette[] = {"\033[0m", "\033[2m", "\033[31m", "\033[32m", "\033[33m", "\033[34m"};

/* Length of the UTF-8 sequence at p (n bytes available): >0 a valid sequence that is not a C1
 * control, 0 invalid, -1 a valid start that needs more bytes than n. */
static int utf8_len(const unsigned char *p, size_t n)
{
	unsigned c = p[0], cp;
	int k;
	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		k = 1, cp = c & 0x1f;
	else if ((c & 0xf0) == 0xe0)
		k = 2, cp = c & 0x0f;
	else if ((c & 0xf8) == 0xf0)
		k = 3, cp = c & 0x07;
	else
		return 0;
	for (int i = 1; i <= k; i++) {
		if ((size_t)i >= n)
			return -1;
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((k == 1 && cp < 0x80) || (k == 2 && cp < 0x800) || (k == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k + 1;
}

bool text_is_utf8(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	for (size_t i = 0; i < n;) {
		if (!p[i])
			return false;
		int k = utf8_len(p + i, n - i);
		if (k <= 0)
			return false;
		i += (size_t)k;
	}
	return true;
}

size_t term_escape(const char *s, size_t n, bool final, bool colour, struct sb *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0;
	while (i < n) {
		unsigned c = p[i];
		if (c == 033 && colour) {
			bool partial = false, hit = false;
			for (size_t k = 0; k < sizeof palette / sizeof *palette && !hit; k++) {
				size_t len = strlen(palette[k]);
				size_t have = n - i < len ? n - i : len;
				if (memcmp(p + i, palette[k], have))
					continue;
				if (have == len) {
					sb_addn(out, palette[k], len);
					i += len;
					hit = true;
				} else {
					partial = true;
				}
			}
			if (hit)
				continue;
			if (partial && !final)
				return i;
		}
		if (c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f)) {
			sb_addn(out, s + i, 1);
			i++;
			continue;
		}
		int k = c >= 0x80 ? utf8_len(p + i, n - i) : 0;
		if (k < 0 && !final)
			return i;
		unsigned cp = k == 2 ? ((c & 0x1f) << 6 | (p[i + 1] & 0x3f)) : 0;
		if (k > 0 && !(cp >= 0x80 && cp < 0xa0)) {
			sb_addn(out, s + i, (size_t)k);
			i += (size_t)k;
			continue;
		}
		sb_addf(out, "\\x%02x", c);
		i++;
	}
	return i;
}

/* The stream that replaces stdout: bytes held back (a split sequence) and the colour flag. */
struct guard {
	char held[8];
	size_t nheld;
	bool colour;
};

static int write_fd(const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(STDOUT_FILENO, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
	struct guard *g = cookie;
	struct sb in = {0}, out = {0};
	sb_addn(&in, g->held, g->nheld);
	sb_addn(&in, buf, size);
	size_t used = term_escape(in.s, in.len, false, g->colour, &out);
	g->nheld = in.len - used; /* a held sequence is never longer than 5 bytes */
	memcpy(g->held, in.s + used, g->nheld);
	int rc = out.len ? write_fd(out.s, out.len) : 0;
	sb_free(&in);
	sb_free(&out);
	return rc ? -1 : (ssize_t)size;
}

static int guard_close(void *cookie)
{
	struct guard *g = cookie;
	struct sb out = {0};
	term_escape(g->held, g->nheld, true, g->colour, &out);
	int rc = out.len ? write_fd(out.s, out.len) : 0;
	sb_free(&out);
	free(g);
	return rc;
}

static void guard_finish(void)
{
	fclose(stdout); /* writes a held incomplete sequence, escaped */
}

int term_guard_stdout(bool colour)
{
	struct guard *g = xcalloc(1, sizeof *g);
	g->colour = colour;
	cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
	fflush(stdout);
	FILE *f = fopencookie(g, "w", io);
	if (!f) {
		free(g);
		return -1;
	}
	setvbuf(f, NULL, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, BUFSIZ);
	stdout = f;
	atexit(guard_finish);
	return 0;
}
