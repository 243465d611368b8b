/* test_tmp.c - temp directories are private, never follow symlinks, and the stale-directory
 * reaper removes only what a dead sysab run of this user left. */
#include "unit.h"
#include "core/live.h"
#include "core/tmp.h"
#include "workloads/util.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static char *base; /* a private TMPDIR for these tests */

static int setup(void **state)
{
	(void)state;
	const char *t = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/sysab-test-tmp.XXXXXX", t && *t == '/' ? t : "/tmp");
	if (!mkdtemp(tmpl)) {
		free(tmpl);
		return -1;
	}
	base = tmpl;
	return setenv("TMPDIR", base, 1);
}

static int teardown(void **state)
{
	(void)state;
	tmpdir_remove(base);
	free(base);
	return 0;
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void run_dir_is_private_and_named_for_the_reaper(void **state)
{
	(void)state;
	struct err e;
	char *d;
	assert_int_equal(tmpdir_create(&d, &e), 0);
	struct stat st;
	assert_int_equal(lstat(d, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0700);
	char *want = xasprintf("%s/" TMP_PREFIX "%ld.", base, (long)getpid());
	assert_int_equal(strncmp(d, want, strlen(want)), 0);
	assert_int_equal(tmpdir_remove(d), 0);
	free(want);
	free(d);
}

/* Workload files are created with O_EXCL|O_NOFOLLOW: a planted symlink or file is refused
 * and its target untouched. */
static void workload_files_refuse_planted_names(void **state)
{
	(void)state;
	char *victim = xasprintf("%s/victim", base);
	char *link = xasprintf("%s/planted", base);
	char *file = xasprintf("%s/existing", base);
	touch(victim);
	assert_int_equal(symlink(victim, link), 0);
	touch(file);
	struct wl_ctx ctx = {.tmpdir = base};
	assert_true(wl_tmp_create(&ctx, "planted", NULL) < 0);
	assert_non_null(strstr(ctx.why, "planted"));
	assert_true(wl_tmp_create(&ctx, "existing", NULL) < 0);
	struct stat st;
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(st.st_size, 0);
	int fd = wl_tmp_create(&ctx, "fresh", NULL);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	close(fd);
	char *fresh = xasprintf("%s/fresh", base);
	unlink(fresh);
	unlink(link);
	unlink(file);
	unlink(victim);
	free(fresh);
	free(victim);
	free(link);
	free(file);
}

/* Make path look older than the reaper's grace for a directory without a lock. */
static void age(const char *path)
{
	struct timeval tv[2] = {{time(NULL) - 2 * TMP_YOUNG_S, 0}, {time(NULL) - 2 * TMP_YOUNG_S, 0}};
	assert_int_equal(lutimes(path, tv), 0);
}

/* A pid that is not running: a child that has exited and been reaped. */
static pid_t dead_pid(void)
{
	pid_t p = fork();
	if (p == 0)
		_exit(0);
	waitpid(p, NULL, 0);
	return p;
}

/* The lock inside a directory decides, whatever the pid in its name (which another PID namespace
 * may have given); without one, a young directory is kept. */
static void reaper_trusts_the_lock_over_the_pid(void **state)
{
	(void)state;
	pid_t dead = dead_pid();
	struct err e;
	/* held lock, a pid that does not exist here: kept */
	char *held = xasprintf("%s/" TMP_PREFIX "%ld.ffffff", base, (long)dead);
	assert_int_equal(mkdir(held, 0700), 0);
	char *hl = xasprintf("%s/" TMP_LOCK, held);
	int fd = live_lock_create(hl, &e);
	assert_true(fd >= 0);
	age(held);
	/* a lock nobody holds, the pid of a live process (this one): removed */
	char *freed = xasprintf("%s/" TMP_PREFIX "%ld.gggggg", base, (long)getpid());
	assert_int_equal(mkdir(freed, 0700), 0);
	char *fl = xasprintf("%s/" TMP_LOCK, freed);
	int gone = live_lock_create(fl, &e);
	assert_true(gone >= 0);
	close(gone);
	/* no lock, a dead pid, young: kept (old rule, plus the grace) */
	char *young = xasprintf("%s/" TMP_PREFIX "%ld.hhhhhh", base, (long)dead);
	assert_int_equal(mkdir(young, 0700), 0);

	assert_int_equal(live_lock_probe(hl), LIVE_HELD);
	assert_int_equal(live_lock_probe(fl), LIVE_FREE);
	assert_int_equal(tmpdir_reap_stale(), 1);
	struct stat st;
	assert_int_equal(lstat(hl, &st), 0);
	assert_int_not_equal(lstat(freed, &st), 0);
	assert_int_equal(lstat(young, &st), 0);

	/* once its holder lets go, the held one is a dead run's */
	close(fd);
	assert_int_equal(live_lock_probe(hl), LIVE_FREE);
	assert_int_equal(tmpdir_reap_stale(), 1);
	assert_int_not_equal(lstat(held, &st), 0);
	/* and aged, the one without a lock goes by its dead pid */
	age(young);
	assert_int_equal(tmpdir_reap_stale(), 1);
	assert_int_not_equal(lstat(young, &st), 0);
	free(held);
	free(hl);
	free(freed);
	free(fl);
	free(young);
}

/* A held directory's lock is visible and held while it exists, released by tmpdir_remove_held. */
static void held_dir_keeps_its_lock(void **state)
{
	(void)state;
	struct err e;
	char *d;
	int lock;
	assert_int_equal(tmpdir_create_held(&d, &lock, &e), 0);
	char *l = xasprintf("%s/" TMP_LOCK, d), *fresh = xasprintf("%s/" TMP_LOCK ".new", d);
	struct stat st;
	assert_int_equal(live_lock_probe(l), LIVE_HELD);
	assert_int_not_equal(lstat(fresh, &st), 0);
	assert_int_equal(tmpdir_reap_stale(), 0);
	assert_int_equal(tmpdir_remove_held(d, lock), 0);
	assert_int_not_equal(lstat(d, &st), 0);
	free(l);
	free(fresh);
	free(d);
}

/* A lock file that is a symlink or not a regular file is refused, never followed. */
static void lock_file_must_be_regular(void **state)
{
	(void)state;
	struct err e;
	char *target = xasprintf("%s/target", base), *link = xasprintf("%s/lnk", base), *dir = xasprintf("%s/adir", base);
	touch(target);
	assert_int_equal(symlink(target, link), 0);
	assert_int_equal(mkdir(dir, 0700), 0);
	assert_int_equal(live_lock_create(link, &e), -1);
	assert_int_equal(live_lock_probe(link), LIVE_NONE);
	assert_int_equal(live_lock_create(dir, &e), -1);
	assert_int_equal(live_lock_probe(dir), LIVE_NONE);
	assert_int_equal(live_lock_probe(target), LIVE_FREE);
	unlink(link);
	unlink(target);
	rmdir(dir);
	free(target);
	free(link);
	free(dir);
}

static void reaper_removes_only_dead_runs_of_this_user(void **state)
{
	(void)state;
	pid_t dead = dead_pid();
	char *outside = xasprintf("%s/outside", base);
	assert_int_equal(mkdir(outside, 0700), 0);
	char *victim = xasprintf("%s/keep", outside);
	touch(victim);

	/* ours, dead: removed, without following the symlink inside it */
	char *stale = xasprintf("%s/" TMP_PREFIX "%ld.aaaaaa", base, (long)dead);
	assert_int_equal(mkdir(stale, 0700), 0);
	char *inner = xasprintf("%s/link", stale);
	assert_int_equal(symlink(outside, inner), 0);
	age(stale);
	/* ours, alive (this process): kept */
	char *alive = xasprintf("%s/" TMP_PREFIX "%ld.bbbbbb", base, (long)getpid());
	assert_int_equal(mkdir(alive, 0700), 0);
	/* a symlink with a dead pid's name: neither followed nor removed */
	char *link = xasprintf("%s/" TMP_PREFIX "%ld.cccccc", base, (long)dead);
	assert_int_equal(symlink(outside, link), 0);
	/* a plain file with such a name: kept */
	char *file = xasprintf("%s/" TMP_PREFIX "%ld.dddddd", base, (long)dead);
	touch(file);
	/* another user's directory (only testable as root): kept */
	char *foreign = xasprintf("%s/" TMP_PREFIX "%ld.eeeeee", base, (long)dead);
	bool as_root = geteuid() == 0;
	if (as_root) {
		assert_int_equal(mkdir(foreign, 0700), 0);
		assert_int_equal(chown(foreign, 65534, 65534), 0);
	}

	assert_int_equal(tmpdir_reap_stale(), 1);
	struct stat st;
	assert_int_not_equal(lstat(stale, &st), 0);
	assert_int_equal(stat(victim, &st), 0);
	assert_int_equal(lstat(alive, &st), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(file, &st), 0);
	if (as_root)
		assert_int_equal(lstat(foreign, &st), 0);

	rmdir(alive);
	unlink(link);
	unlink(file);
	rmdir(foreign);
	unlink(victim);
	rmdir(outside);
	free(stale), free(inner), free(alive), free(link), free(file), free(foreign), free(victim), free(outside);
}

/* Removing a tree never follows a symlink in it. */
static void remove_does_not_follow_symlinks(void **state)
{
	(void)state;
	struct err e;
	char *d;
	assert_int_equal(tmpdir_create(&d, &e), 0);
	char *outside = xasprintf("%s/outside2", base);
	assert_int_equal(mkdir(outside, 0700), 0);
	char *victim = xasprintf("%s/keep", outside);
	touch(victim);
	char *sub = xasprintf("%s/sub", d);
	assert_int_equal(mkdir(sub, 0700), 0);
	char *l1 = xasprintf("%s/dirlink", sub);
	char *l2 = xasprintf("%s/filelink", d);
	assert_int_equal(symlink(outside, l1), 0);
	assert_int_equal(symlink(victim, l2), 0);
	assert_int_equal(tmpdir_remove(d), 0);
	struct stat st;
	assert_int_equal(stat(victim, &st), 0);
	unlink(victim);
	rmdir(outside);
	free(d), free(outside), free(victim), free(sub), free(l1), free(l2);
}

static int render_hello(FILE *f, const void *arg)
{
	(void)arg;
	return fputs("hello\n", f) < 0 ? -1 : 0;
}

/* Issue 34 item 7: the -o temporary name was PATH.PID.RANDOM.tmp with an unseeded random(),
 * so its every try could be planted in advance; now mkostemps picks it. The first 100 names
 * of the old sequence are planted (links to a victim): the write still succeeds, follows none
 * and leaves no temporary file. */
static void output_temp_names_cannot_be_planted(void **state)
{
	(void)state;
	char *dir = NULL;
	struct err e;
	assert_int_equal(tmpdir_create(&dir, &e), 0);
	char *victim = xasprintf("%s/victim", dir), *out = xasprintf("%s/out.csv", dir);
	FILE *f = fopen(victim, "w");
	fputs("precious\n", f);
	fclose(f);
	srandom(1);
	for (int i = 0; i < 100; i++) {
		char *name = xasprintf("%s.%ld.%08lx.tmp", out, (long)getpid(), (unsigned long)random());
		assert_int_equal(symlink(victim, name), 0);
		free(name);
	}
	srandom(1);
	assert_int_equal(file_write_atomic(out, "-o", render_hello, NULL, &e), 0);
	char *text = read_text_file(out), *v = read_text_file(victim);
	assert_string_equal(text, "hello");
	assert_string_equal(v, "precious");
	free(text);
	free(v);
	char *cmd = xasprintf("test $(ls -A '%s' | wc -l) = 102", dir);
	assert_int_equal(system(cmd), 0); /* 100 planted links, the victim, the output: no temp left */
	free(cmd);
	tmpdir_remove(dir);
	free(dir);
	free(victim);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(run_dir_is_private_and_named_for_the_reaper),
		cmocka_unit_test(workload_files_refuse_planted_names),
		cmocka_unit_test(reaper_removes_only_dead_runs_of_this_user),
		cmocka_unit_test(reaper_trusts_the_lock_over_the_pid),
		cmocka_unit_test(held_dir_keeps_its_lock),
		cmocka_unit_test(lock_file_must_be_regular),
		cmocka_unit_test(remove_does_not_follow_symlinks),
		cmocka_unit_test(output_temp_names_cannot_be_planted),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
