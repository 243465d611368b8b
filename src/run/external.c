/* external.c - running UnixBench's Run (or a command that runs it) and finding its log; the wait that ends a command's process group. */
#include "run/external.h"
#include "core/tmp.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { EXTERNAL_KILL_AFTER_MS = 10000 };

/* The child: its own process group, the result directory, /dev/null in, stderr out. */
static void external_child(const char *shell, const char *dir)
{
	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL); /* sysab ignores it; an ignored signal stays ignored across exec */
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, STDIN_FILENO) < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0 ||
	    setenv("UB_RESULTDIR", dir, 1))
		_exit(126);
	execl("/bin/sh", "sh", "-c", shell, (char *)NULL);
	_exit(127);
}

int external_wait_group(pid_t pid, uint64_t timeout_ns, bool *timed_out)
{
	int status = 0;
	uint64_t start = clock_raw_ns(), term_at = 0;
	long nap_us = 1000; /* polls start fast, so a short command costs little, and slow to 100 ms */
	bool ending = false;
	*timed_out = false;
	for (;;) {
		bool polling = sig_stop || timeout_ns || ending;
		pid_t r = waitpid(pid, &status, polling ? WNOHANG : 0);
		if (r == pid) {
			if (ending) /* what the leader left behind in its group goes too */
				kill(-pid, SIGKILL);
			return status;
		}
		if (r < 0 && errno != EINTR)
			return -1;
		if (!polling)
			continue;
		uint64_t now = clock_raw_ns();
		if (!ending && (sig_stop || now - start >= timeout_ns)) {
			*timed_out = !sig_stop;
			kill(-pid, SIGTERM);
			ending = true;
			term_at = now;
		} else if (ending && now - term_at >= EXTERNAL_KILL_AFTER_MS * 1000000ull) {
			kill(-pid, SIGKILL);
		}
		nanosleep(&(struct timespec){0, nap_us * 1000}, NULL);
		if (nap_us < 100000)
			nap_us *= 2;
	}
}

/* The one regular *.log file in dir: 0 with *log set, else -1 with e. */
static int external_find_log(const char *shell, const char *dir, char **log, struct err *e)
{
	DIR *d = opendir(dir);
	if (!d)
		return errf(e, "the result directory %s cannot be read: %s", dir, strerror(errno));
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len <= 4 || strcmp(de->d_name + len - 4, ".log"))
			continue;
		char *p = xasprintf("%s/%s", dir, de->d_name);
		struct stat st;
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && !n++)
			*log = p;
		else
			free(p);
	}
	closedir(d);
	if (n == 1)
		return 0;
	if (n) {
		free(*log);
		*log = NULL;
		return errf(e, "`%s` left %zu *.log files in UB_RESULTDIR; give one Run per --unixbench (its -c and -i "
			       "give the copies and passes); nothing stored",
			    shell, n);
	}
	return errf(e, "`%s` left no *.log in UB_RESULTDIR; run UnixBench's Run there (it writes its results where "
		       "UB_RESULTDIR says), or copy its results/*.log to \"$UB_RESULTDIR\"; nothing stored",
		    shell);
}

int external_unixbench(const char *shell, const char *dir, struct external_outcome *out, struct err *e)
{
	memset(out, 0, sizeof *out);
	fflush(NULL);
	out->started_ns = clock_wall_ns();
	pid_t pid = fork();
	if (pid < 0)
		return errf(e, "cannot start `%s`: %s", shell, strerror(errno));
	if (pid == 0)
		external_child(shell, dir);
	setpgid(pid, pid); /* also here: a stop signal before the child's own call still reaches its group */
	bool timed_out;
	int status = external_wait_group(pid, 0, &timed_out);
	out->finished_ns = clock_wall_ns();
	if (status < 0)
		return errf(e, "waiting for `%s` failed: %s; nothing stored", shell, strerror(errno));
	if (WIFSIGNALED(status))
		return errf(e, "`%s` was ended by signal %d%s; nothing stored", shell, WTERMSIG(status),
			    sig_stop ? " (sysab was told to stop)" : "");
	if (WEXITSTATUS(status))
		return errf(e, "`%s` exited with status %d%s; nothing stored", shell, WEXITSTATUS(status),
			    WEXITSTATUS(status) == 127 ? " (a command was not found)" : " (its output is above)");
	return external_find_log(shell, dir, &out->log, e);
}

void external_outcome_free(struct external_outcome *o)
{
	free(o->log);
	o->log = NULL;
}
