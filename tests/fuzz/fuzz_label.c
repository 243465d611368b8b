/* fuzz_label.c - libFuzzer target: label_parse and the parse_* number helpers of core.h. */
#include "core/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = xstrndup((const char *)data, size); /* stops at the first NUL, as argv would */
	struct err e;
	char *k = NULL, *v = NULL;
	if (label_parse(s, &k, &v, &e) == 0) {
		if (label_check_key(k, NULL) || label_check_value(k, v, NULL))
			__builtin_trap();
		free(k);
		free(v);
	} else if (k || v || !e.msg[0]) {
		__builtin_trap();
	}
	label_check_key(s, &e);
	label_check_value("k", s, &e);
	text_is_clean(s, true);
	/* whatever the input, what fputs_clean writes is clean text */
	char *out = NULL;
	size_t outlen = 0;
	FILE *f = open_memstream(&out, &outlen);
	if (f) {
		fputs_clean(s, f);
		fclose(f);
		if (!text_is_clean(out, true))
			__builtin_trap();
		free(out);
	}
	uint64_t u;
	int i;
	double d;
	if (parse_u64(s, 1, 1000, "-x", &u, &e) == 0 && (u < 1 || u > 1000))
		__builtin_trap();
	if (parse_int(s, -5, 5, "-x", &i, &e) == 0 && (i < -5 || i > 5))
		__builtin_trap();
	if (parse_double(s, 0, 1e6, "-x", &d, &e) == 0 && !(d >= 0 && d <= 1e6))
		__builtin_trap();
	if (parse_percent(s, 0, 1, "-x", &d, &e) == 0 && !(d >= 0 && d <= 1))
		__builtin_trap();
	parse_duration(s, "-x", &u, &e);
	free(s);
	return 0;
}
