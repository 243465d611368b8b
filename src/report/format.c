/* format.c - numbers and units for people. */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const struct report_format *const report_formats[] = {
	&report_format_text,
	&report_format_csv,
	&report_format_json,
	&report_format_html,
	&report_format_kcidb,
	&report_format_lava,
	&report_format_markdown,
	NULL,
};

const struct report_format *report_format_find(const char *name, enum report_kind kind)
{
	for (size_t i = 0; report_formats[i]; i++)
		if (!strcmp(report_formats[i]->name, name) && (report_formats[i]->kinds & (1u << kind)))
			return report_formats[i];
	return NULL;
}

void report_format_names(char *buf, size_t size, enum report_kind kind)
{
	size_t n = 0, k = 0;
	for (size_t i = 0; report_formats[i]; i++)
		n += (report_formats[i]->kinds & (1u << kind)) != 0;
	buf[0] = 0;
	for (size_t i = 0; report_formats[i]; i++) {
		if (!(report_formats[i]->kinds & (1u << kind)))
			continue;
		size_t len = strlen(buf);
		snprintf(buf + len, size - len, "%s%s", k == 0 ? "" : k + 1 == n ? " or " : ", ", report_formats[i]->name);
		k++;
	}
}

const char *report_display_unit(const char *unit, int latency, char *buf, size_t size)
{
	if (latency)
		snprintf(buf, size, "ns/%s", "op");
	else
		snprintf(buf, size, "%s/s", unit);
	return buf;
}

size_t report_text_width(const char *s)
{
	size_t n = 0;
	for (; *s; s++) {
		if (*s == '\033') { /* skip an ANSI colour sequence */
			while (*s && *s != 'm')
				s++;
			if (!*s)
				break;
			continue;
		}
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	}
	return n;
}

void report_wrap(FILE *f, const char *first, const char *cont, const char *text)
{
	const char *prefix = first;
	const char *p = text;
	while (*p) {
		size_t room = REPORT_WIDTH > report_text_width(prefix) + 20 ? REPORT_WIDTH - report_text_width(prefix) : 20;
		/* the longest run of whole words (in display columns) that fits in room */
		const char *end = p, *cut = NULL;
		size_t w = 0;
		while (*end && *end != '\n') {
			if (*end == ' ' && w <= room)
				cut = end;
			if (((unsigned char)*end & 0xC0) != 0x80)
				w++;
			if (w > room)
				break;
			end++;
		}
		if (!*end || *end == '\n' || !cut)
			cut = end;
		if (cut == p) /* a word longer than the line */
			while (*cut && *cut != ' ' && *cut != '\n')
				cut++;
		fprintf(f, "%s%.*s\n", prefix, (int)(cut - p), p);
		p = cut;
		while (*p == ' ' || *p == '\n')
			p++;
		prefix = cont;
	}
}

void report_short_name(char *buf, size_t size, const char *name, int copies, size_t width)
{
	char full[256];
	if (copies > 1)
		snprintf(full, sizeof full, "%s/%d", name, copies);
	else
		snprintf(full, sizeof full, "%s", name);
	size_t n = strlen(full);
	if (n <= width || width < 8) {
		snprintf(buf, size, "%s", full);
		return;
	}
	/* keep the start and the last 5 characters: "unixbench.f~r-w" */
	size_t head = width - 6;
	snprintf(buf, size, "%.*s~%s", (int)head, full, full + n - 5);
}

bool report_checks_ok(const struct summary_row *r)
{
	for (size_t i = 0; i < r->nchecks; i++)
		if (!r->checks[i].ok)
			return false;
	return true;
}

void report_name_chars(char *s)
{
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '-' && *s != '.')
			*s = '_';
}
