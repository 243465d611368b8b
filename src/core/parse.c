/* parse.c - validation of numbers, durations, labels and text given by users. */
#include "core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

int parse_u64(const char *s, uint64_t min, uint64_t max, const char *what, uint64_t *out, struct err *e)
{
	if (!s || !*s)
		return errf(e, "%s: empty value; give a whole number from %llu to %llu", what,
			    (unsigned long long)min, (unsigned long long)max);
	const char *p = s;
	if (*p == '+')
		p++;
	if (!isdigit((unsigned char)*p))
		return errf(e, "%s: '%s' is not a whole number; give one from %llu to %llu", what, s,
			    (unsigned long long)min, (unsigned long long)max);
	errno = 0;
	char *end;
	unsigned long long v = strtoull(p, &end, 10);
	if (*end)
		return errf(e, "%s: '%s' is not a whole number; give one from %llu to %llu", what, s,
			    (unsigned long long)min, (unsigned long long)max);
	if (errno == ERANGE || v < min || v > max)
		return errf(e, "%s: %s is out of range; give a number from %llu to %llu", what, s,
			    (unsigned long long)min, (unsigned long long)max);
	*out = v;
	return 0;
}

int parse_int(const char *s, int min, int max, const char *what, int *out, struct err *e)
{
	uint64_t v;
	if (s && *s == '-')
		return errf(e, "%s: '%s' must not be negative; give a number from %d to %d", what, s, min, max);
	if (parse_u64(s, (uint64_t)(min < 0 ? 0 : min), (uint64_t)max, what, &v, e))
		return -1;
	*out = (int)v;
	return 0;
}

static int parse_real(const char *s, const char *what, double *out, bool *pct, struct err *e)
{
	if (!s || !*s)
		return errf(e, "%s: empty value; give a number", what);
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	*pct = false;
	if (end != s && *end == '%' && end[1] == 0) {
		*pct = true;
		end++;
	}
	if (end == s || *end || errno == ERANGE || !isfinite(v))
		return errf(e, "%s: '%s' is not a number", what, s);
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, const char *what, double *out, struct err *e)
{
	double v;
	bool pct;
	if (parse_real(s, what, &v, &pct, e))
		return -1;
	if (pct)
		return errf(e, "%s: '%s' takes a plain number, not a percentage", what, s);
	if (v < min || v > max)
		return errf(e, "%s: %s is out of range; give a number from %g to %g", what, s, min, max);
	*out = v;
	return 0;
}

int parse_percent(const char *s, double min, double max, const char *what, double *out, struct err *e)
{
	double v;
	bool pct;
	if (parse_real(s, what, &v, &pct, e))
		return -1;
	if (!pct)
		return errf(e, "%s: '%s' needs a '%%' sign, e.g. %g%%", what, s, v);
	v /= 100.0;
	if (v < min || v > max)
		return errf(e, "%s: %s is out of range; give %g%% to %g%%", what, s, min * 100, max * 100);
	*out = v;
	return 0;
}

int parse_duration(const char *s, const char *what, uint64_t *out_ns, struct err *e)
{
	if (!s || !*s)
		return errf(e, "%s: empty duration; give e.g. 500ms, 30s, 10m", what);
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	double scale;
	if (end == s || errno == ERANGE || !isfinite(v) || v <= 0)
		return errf(e, "%s: '%s' is not a positive duration; give e.g. 500ms, 30s, 10m", what, s);
	if (!*end || !strcmp(end, "s"))
		scale = 1e9;
	else if (!strcmp(end, "ms"))
		scale = 1e6;
	else if (!strcmp(end, "us"))
		scale = 1e3;
	else if (!strcmp(end, "m") || !strcmp(end, "min"))
		scale = 60e9;
	else if (!strcmp(end, "h"))
		scale = 3600e9;
	else
		return errf(e, "%s: unknown unit in '%s'; use ms, s, m or h", what, s);
	double ns = v * scale;
	if (ns < 1e6 || ns > 7 * 24 * 3600e9)
		return errf(e, "%s: %s is out of range; give 1ms to 7 days", what, s);
	*out_ns = (uint64_t)ns;
	return 0;
}

/* Length of the clean character at p: a printable ASCII byte (tab when tab_ok) or a valid
 * UTF-8 sequence that is not a C1 control; 0 when p starts anything else (or ends). */
static size_t clean_char_len(const unsigned char *p, bool tab_ok)
{
	unsigned c = *p;
	if (c < 0x80)
		return c == 0 || (c < 0x20 && !(tab_ok && c == '\t')) || c == 0x7f ? 0 : 1;
	int n;
	unsigned cp;
	if ((c & 0xe0) == 0xc0) {
		n = 1;
		cp = c & 0x1f;
	} else if ((c & 0xf0) == 0xe0) {
		n = 2;
		cp = c & 0x0f;
	} else if ((c & 0xf8) == 0xf0) {
		n = 3;
		cp = c & 0x07;
	} else {
		return 0;
	}
	for (int i = 1; i <= n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3f);
	}
	if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff) || (cp >= 0x80 && cp < 0xa0))
		return 0;
	return (size_t)n + 1;
}

bool text_is_clean(const char *s, bool tab_ok)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = clean_char_len(p, tab_ok);
		if (!n)
			return false;
		p += n;
	}
	return true;
}

void fputs_clean(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		size_t n = clean_char_len(p, true);
		if (n) {
			fwrite(p, 1, n, f);
			p += n;
		} else {
			fprintf(f, "\\x%02x", *p++);
		}
	}
}

#define LABEL_KEY_MAX 64
#define LABEL_VALUE_MAX 256

int label_check_key(const char *key, struct err *e)
{
	size_t n = strlen(key);
	if (n == 0)
		return errf(e, "label has an empty key; write key=value, e.g. -l kernel=6.8-pernode");
	if (n > LABEL_KEY_MAX)
		return errf(e, "label key '%.40s...' is longer than %d characters; use a shorter key", key,
			    LABEL_KEY_MAX);
	if (!isalpha((unsigned char)key[0]) && key[0] != '_')
		return errf(e, "label key '%s' must start with a letter or '_'", key);
	for (const char *p = key; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-' && *p != '.')
			return errf(e, "label key '%s' may only hold letters, digits, '_', '-' and '.'", key);
	return 0;
}

int label_check_value(const char *key, const char *value, struct err *e)
{
	size_t n = strlen(value);
	if (n == 0)
		return errf(e, "label '%s=' has an empty value; write %s=VALUE", key, key);
	if (n > LABEL_VALUE_MAX)
		return errf(e, "label '%s' has a value longer than %d bytes; shorten it", key, LABEL_VALUE_MAX);
	if (!text_is_clean(value, false))
		return errf(e, "label '%s' has a value that is not clean UTF-8 text (control characters or "
			       "invalid bytes); use printable text",
			    key);
	return 0;
}

int label_parse(const char *arg, char **key, char **value, struct err *e)
{
	const char *eq = strchr(arg, '=');
	if (!eq) {
		if (!text_is_clean(arg, false))
			return errf(e, "malformed label (not clean text): write key=value, e.g. -l pie=yes");
		return errf(e, "malformed label '%.80s': write key=value, e.g. -l pie=yes", arg);
	}
	char *k = xstrndup(arg, (size_t)(eq - arg));
	if (label_check_key(k, e) || label_check_value(k, eq + 1, e)) {
		free(k);
		return -1;
	}
	*key = k;
	*value = xstrdup(eq + 1);
	return 0;
}

int label_add(struct kvlist *labels, const char *arg, struct err *e)
{
	char *k, *v;
	if (label_parse(arg, &k, &v, e))
		return -1;
	int rc = 0;
	if (kv_get(labels, k))
		rc = errf(e, "label '%s' is given twice; give each key once", k);
	else
		kv_add(labels, k, v);
	free(k);
	free(v);
	return rc;
}

size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t *row = xcalloc(lb + 1, sizeof *row);
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t best = diag + cost;
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	size_t d = row[lb];
	free(row);
	return d;
}

/* Whether b is a with two adjacent characters swapped ("yse", "yes"): one typo, two edits. */
static bool one_swap(const char *a, const char *b)
{
	size_t n = strlen(a), i = 0;
	if (strlen(b) != n)
		return false;
	while (i < n && a[i] == b[i])
		i++;
	return i + 1 < n && a[i] == b[i + 1] && a[i + 1] == b[i] && !strcmp(a + i + 2, b + i + 2);
}

const char *typo_of(const char *typed, const char *const *words, size_t n)
{
	size_t len = strlen(typed), most = len / 3 > 1 ? len / 3 : 1, bestd = most + 1;
	const char *best = NULL;
	for (size_t i = 0; i < n; i++) {
		size_t d = one_swap(typed, words[i]) ? 1 : edit_distance(typed, words[i]);
		if (d && d < bestd) {
			bestd = d;
			best = words[i];
		}
	}
	return best;
}
