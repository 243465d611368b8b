/* fuzz_unixbench.c - libFuzzer target: the UnixBench log parser on arbitrary bytes. */
#include "core/core.h"
#include "import/import_unixbench.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_log log;
	struct err e;
	if (import_unixbench_parse("fuzz.log", (const char *)data, size, &log, &e)) {
		/* An error always names the file and a line. */
		if (strncmp(e.msg, "fuzz.log:", 9) != 0 || log.test != NULL)
			__builtin_trap();
		return 0;
	}
	for (size_t i = 0; i < log.ntest; i++) {
		const struct ub_test *t = &log.test[i];
		if (!t->title || !t->workload || t->npass == 0 || !text_is_clean(t->title, false))
			__builtin_trap();
		for (size_t k = 0; k < t->npass; k++)
			if (t->pass[k].ncopy != t->copies || !isfinite(t->pass[k].score) || t->pass[k].score < 0)
				__builtin_trap();
		double s = import_unixbench_score(t);
		if (!isfinite(s) || s < 0)
			__builtin_trap();
	}
	import_unixbench_free(&log);
	return 0;
}
