/* import_util.c - strict number syntax shared by the UnixBench and CSV importers. */
#include "import/import_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NUM_MAX_LEN 64

static size_t digits(const char *s, size_t i, size_t n)
{
	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

int import_number(const char *s, size_t n, double min, double max, double *out)
{
	if (n == 0 || n > NUM_MAX_LEN)
		return IMPORT_NUM_SYNTAX;
	size_t i = 0;
	if (s[i] == '+' || s[i] == '-')
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
		return IMPORT_NUM_SYNTAX;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			i++;
		j = digits(s, i, n);
		if (j == i || j - i > 3)
			return IMPORT_NUM_SYNTAX;
		i = j;
	}
	if (i != n)
		return IMPORT_NUM_SYNTAX;
	char buf[NUM_MAX_LEN + 1];
	memcpy(buf, s, n);
	buf[n] = 0;
	double v = strtod(buf, NULL);
	if (!isfinite(v) || v < min || v > max)
		return IMPORT_NUM_RANGE;
	*out = v;
	return IMPORT_NUM_OK;
}
