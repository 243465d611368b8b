/* fuzz_csv.c - libFuzzer target: the CSV importer on arbitrary bytes. */
#include "core/core.h"
#include "import/import_csv.h"

#include <math.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct csv_import c;
	struct err e;
	if (import_csv_parse("fuzz.csv", (const char *)data, size, &c, &e)) {
		if (strncmp(e.msg, "fuzz.csv:", 9) != 0 || c.row != NULL)
			__builtin_trap();
		return 0;
	}
	for (size_t i = 0; i < c.nrow; i++) {
		const struct csv_row *r = &c.row[i];
		if (!(r->value > 0) || !isfinite(r->value) || !r->boot || !r->run || !r->workload ||
		    r->copies < 1)
			__builtin_trap();
		for (size_t k = 0; k < r->labels.n; k++)
			if (label_check_key(r->labels.v[k].key, NULL) ||
			    label_check_value(r->labels.v[k].key, r->labels.v[k].value, NULL))
				__builtin_trap();
	}
	import_csv_free(&c);
	return 0;
}
