/* fuzz_db.c - libFuzzer target: `import db` of a mutated SQLite file (issue 34 item 9). Each
 * input is written as the source database and merged into one target; a refusal must name the
 * source, a merge must leave the target consistent, and nothing may crash, leak or hang. */
#include "campaign/campaign.h"
#include "core/core.h"
#include "core/tmp.h"
#include "import/import_db.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char *dir;
static unsigned long count;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct err e;
	if (!dir && tmpdir_create(&dir, &e))
		__builtin_trap();
	char *src = xasprintf("%s/src.db", dir), *dst = xasprintf("%s/dst.db", dir);
	char *wal = xasprintf("%s-wal", src), *shm = xasprintf("%s-shm", src);
	unlink(wal);
	unlink(shm);
	if (count++ % 500 == 0) { /* a fresh target now and then, so it stays small */
		unlink(dst);
		char *x = xasprintf("%s-wal", dst);
		unlink(x);
		free(x);
	}
	int fd = open(src, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		__builtin_trap();
	close(fd);
	struct store *s;
	if (store_open(dst, STORE_RW, &s, &e))
		__builtin_trap();
	struct import_db_result r;
	if (import_db_file(s, src, campaign_record_check, &r, &e)) {
		if (!strstr(e.msg, src))
			__builtin_trap(); /* every refusal names the source */
	} else {
		for (size_t i = 0; i < r.nruns; i++)
			if (r.ids[i] <= 0 || strlen(r.uuids[i]) != 32)
				__builtin_trap();
		import_db_result_free(&r);
	}
	store_close(s);
	free(src);
	free(dst);
	free(wal);
	free(shm);
	return 0;
}
