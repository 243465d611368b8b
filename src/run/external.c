/* external.c - running UnixBench's Run (or a command that runs it) and finding its log. */
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

/* Wait for pid; after a stop signal, end its group (SIGTERM, then SIGKILL). The wait status. */
static int external_wait(pid_t pid)
{
	int status = 0, waited_ms = -1;
	for (;;) {
		pid_t r = waitpid(pid, &status, sig_stop ? WNOHANG : 0);
		if (r == pid)
			return status;
		if (r < 0 && errno != EINTR)
			return -1;
		if (!sig_stop)
			continue;
		if (waited_ms < 0) {
			kill(-pid, SIGTERM);
			waited_ms = 0;
		} else if (waited_ms >= EXTERNAL_KILL_AFTER_MS) {
			kill(-pid, SIGKILL);
		}
		nanosleep(&(struct timespec){0, 100 * 1000 * 1000}, NULL);
		waited_ms += 100;
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
	int status = external_wait(pid);
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
