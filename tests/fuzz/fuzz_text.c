/* fuzz_text.c - libFuzzer target: terminal escaping (term_escape) and CSV export cells. */
#include "core/core.h"
#include "report/report.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Undo RFC 4180 quoting of one cell; NULL when it is not one well-formed cell. */
static char *unquote(const char *s)
{
	size_t n = strlen(s);
	if (n < 2 || s[0] != '"' || s[n - 1] != '"')
		return NULL;
	char *o = xmalloc(n), *p = o;
	for (size_t i = 1; i < n - 1; i++) {
		if (s[i] == '"' && s[++i] != '"')
			return free(o), NULL;
		*p++ = s[i];
	}
	*p = 0;
	return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	bool colour = size && (data[0] & 1);
	/* escaping: no control byte but newline and tab, valid UTF-8, and the same in two pieces */
	struct sb a = {0}, b = {0};
	if (term_escape(s, size, true, colour, &a) != size)
		__builtin_trap();
	if (!colour) {
		for (size_t i = 0; i < a.len; i++) {
			unsigned char c = (unsigned char)a.s[i];
			if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
				__builtin_trap();
		}
		if (a.len && !text_is_utf8(a.s, a.len))
			__builtin_trap();
	}
	size_t cut = size ? data[size - 1] % (size + 1) : 0;
	size_t used = term_escape(s, cut, false, colour, &b);
	struct sb rest = {0};
	sb_addn(&rest, s + used, size - used);
	term_escape(rest.s ? rest.s : "", rest.len, true, colour, &b);
	if (a.len != b.len || (a.len && memcmp(a.s, b.s, a.len)))
		__builtin_trap();
	sb_free(&a);
	sb_free(&b);
	sb_free(&rest);
	/* CSV cells: neutralised cells never start a formula; unquoting gives back the input */
	char *str = xstrndup(s, size);
	struct sb c = {0};
	report_csv_cell(&c, str, false);
	const char *cell = sb_str(&c);
	if (strchr("=+-@\t\r", cell[0]) && cell[0])
		__builtin_trap();
	if (cell[0] == '"') {
		char *u = unquote(cell);
		if (!u)
			__builtin_trap();
		const char *back = u[0] == '\'' && str[0] != '\'' ? u + 1 : u;
		if (strcmp(back, str) && strcmp(u, str))
			__builtin_trap();
		free(u);
	} else if (strcmp(cell, str)) {
		__builtin_trap();
	}
	sb_free(&c);
	free(str);
	return 0;
}
