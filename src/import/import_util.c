/* import_util.c - rules shared by the UnixBench and CSV importers: one number syntax, one
 * value range, one workload-name rule, one message. */
#include "import/import_util.h"
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

/* Whether s[0..n) is [+-]digits[.digits][e[+-]digits] with at least one mantissa digit. */
static bool plain_decimal(const char *s, size_t n)
{
	size_t i = 0;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		i++;
	size_t j = digits(s, i, n);
	size_t ndig = j - i;
	i = j;
	if (i < n && s[i] == '.') {
		j = digits(s, i + 1, n);
		ndig += j - (i + 1);
		i = j;
	}
	if (ndig == 0)
		return false;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		j = digits(s, i, n);
		if (j == i)
			return false;
		i = j;
	}
	return i == n;
}

int import_number(const char *s, size_t n, double min, double max, double *out)
{
	if (n == 0 || !plain_decimal(s, n))
		return IMPORT_NUM_SYNTAX;
	/* sysab never calls setlocale(), so strtod reads '.' as the point in every locale. */
	char small[72], *buf = n < sizeof small ? small : xmalloc(n + 1);
	memcpy(buf, s, n);
	buf[n] = 0;
	double v = strtod(buf, NULL);
	if (buf != small)
		free(buf);
	if (!isfinite(v) || v < min || v > max)
		return IMPORT_NUM_RANGE;
	*out = v;
	return IMPORT_NUM_OK;
}

void import_number_msg(char *buf, size_t size, int r, const char *what, const char *s, size_t n, double min,
		       double max)
{
	char text[48];
	size_t k = n > 40 ? 40 : n;
	memcpy(text, s, k);
	text[k] = 0;
	if (!text_is_clean(text, false))
		strcpy(text, "?");
	const char *more = n > 40 ? "..." : "";
	if (r == IMPORT_NUM_RANGE)
		snprintf(buf, size, "%s %s%s is out of range (%g to %g)", what, text, more, min, max);
	else
		snprintf(buf, size, "%s '%s%s' is not a plain decimal number (like 3938.7, 0.5 or 1.5e6)", what,
			 text, more);
}

bool import_workload_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > IMPORT_MAX_WORKLOAD || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '.' || *s == '_' || *s == '-'))
			return false;
	return true;
}
