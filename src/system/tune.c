/* tune.c - set the benchmarking knobs and restore them byte for byte from a saved state file. */
#include "system.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *system_state_file_default(struct err *e)
{
	const char *x = getenv("XDG_STATE_HOME");
	if (x && *x == '/')
		return xasprintf("%s/sysab/tune.json", x);
	const char *h = getenv("HOME");
	if (h && *h == '/')
		return xasprintf("%s/.local/state/sysab/tune.json", h);
	if (h && *h) {
		errf(e, "HOME is '%s', not an absolute path, so there is no default state file; set HOME to your home "
			"directory, or give --state-file FILE",
		     h);
		return NULL;
	}
	/* never the current directory: a planted state file there would steer reset */
	struct passwd *pw = getpwuid(geteuid());
	if (pw && pw->pw_dir && *pw->pw_dir == '/')
		return xasprintf("%s/.local/state/sysab/tune.json", pw->pw_dir);
	errf(e, "HOME is not set and the password database names no home directory for uid %u; give --state-file FILE",
	     (unsigned)geteuid());
	return NULL;
}

/* The files tune may write and reset may write back: the only ones. '#' stands for a CPU
 * number. Each value kind is the syntax the kernel shows for that file. */
enum knob_kind { KV_WORD, KV_UINT, KV_BOOL };
static const struct knob_file {
	const char *knob;
	const char *path;
	enum knob_kind kind;
} knob_files[] = {
	{"cpufreq.governor", "sys/devices/system/cpu/cpu#/cpufreq/scaling_governor", KV_WORD},
	{"cpufreq.min_freq", "sys/devices/system/cpu/cpu#/cpufreq/scaling_min_freq", KV_UINT},
	{"turbo", "sys/devices/system/cpu/intel_pstate/no_turbo", KV_BOOL},
	{"turbo", "sys/devices/system/cpu/cpufreq/boost", KV_BOOL},
	{"perf_event_max_sample_rate", "proc/sys/kernel/perf_event_max_sample_rate", KV_UINT},
};

/* Does rel match pattern ('#' = 1 to 5 decimal digits)? */
static bool path_matches(const char *pat, const char *rel)
{
	for (; *pat; pat++) {
		if (*pat == '#') {
			size_t n = strspn(rel, "0123456789");
			if (n < 1 || n > 5)
				return false;
			rel += n;
		} else if (*rel++ != *pat) {
			return false;
		}
	}
	return !*rel;
}

/* Is v (with at most one trailing newline) a value of this kind? */
static bool value_ok(enum knob_kind k, const char *v)
{
	size_t n = strlen(v);
	if (n && v[n - 1] == '\n')
		n--;
	const char *set = k == KV_WORD ? "abcdefghijklmnopqrstuvwxyz0123456789_-" : k == KV_UINT ? "0123456789" : "01";
	size_t max = k == KV_WORD ? 32 : k == KV_UINT ? 19 : 1;
	return n >= 1 && n <= max && strspn(v, set) == n;
}

const char *system_knob_file_check(const char *knob, const char *rel, const char *value)
{
	for (size_t i = 0; i < sizeof knob_files / sizeof *knob_files; i++) {
		const struct knob_file *f = &knob_files[i];
		if (!path_matches(f->path, rel))
			continue;
		if (knob && strcmp(knob, f->knob))
			return "the file belongs to another knob";
		if (value && !value_ok(f->kind, value))
			return "the value is not one this knob can hold";
		return NULL;
	}
	return "not a file of any knob sysab tunes";
}

void system_changes_free(struct sys_changes *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].knob);
		free(c->v[i].path);
		free(c->v[i].from);
		free(c->v[i].to);
		free(c->v[i].refused);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

static void change(struct sys_changes *c, const char *knob, const char *path, const char *from, const char *to,
		   char *refused)
{
	c->v = xgrow(c->v, &c->cap, c->n + 1, sizeof *c->v);
	struct sys_change *x = &c->v[c->n++];
	x->knob = xstrdup(knob);
	x->path = xstrdup(path);
	x->from = from ? xstrndup(from, strcspn(from, "\n")) : NULL;
	x->to = to ? xstrndup(to, strcspn(to, "\n")) : NULL;
	x->refused = refused;
}

/* Write s to path as `echo s > path` would, by system_knob_open's rule (never through a
 * link, never to a FIFO or device). Returns 0, or an errno with *why set. */
static int knob_write(const char *path, const char *s, const char **why)
{
	int fd = system_knob_open(path, O_WRONLY | O_TRUNC, why);
	if (fd < 0)
		return errno;
	size_t n = strlen(s);
	ssize_t w = write(fd, s, n);
	int err = w < 0 ? errno : (size_t)w != n ? EIO : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	if (err)
		*why = strerror(err);
	return err;
}

static bool same_value(const char *a, const char *b)
{
	size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
	return la == lb && !strncmp(a, b, la);
}

/* The state file, trusted only when it is a regular file (not a link) owned by the effective
 * user and writable by nobody else: reset runs as root and writes what it names. A missing
 * file is an empty state. Returns the JSON or NULL with e set. */
static json_t *load_state(const char *file, struct err *e)
{
	struct stat ls;
	if (lstat(file, &ls) < 0 && errno == ENOENT)
		return json_pack("{s:i, s:[]}", "version", 1, "saved");
	if (S_ISLNK(ls.st_mode)) {
		errf(e, "%s: the tune state file is a symbolic link; give --state-file the file itself", file);
		return NULL;
	}
	int fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		errf(e, "%s: cannot read the tune state file: %s", file, strerror(errno));
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	const char *bad = !S_ISREG(st.st_mode) ? "not a regular file"
			  : st.st_uid != geteuid() ? "owned by another user"
			  : (st.st_mode & 022) ? "writable by its group or by others"
			  : NULL;
	if (bad) {
		close(fd);
		errf(e, "%s: the tune state file is %s, so it cannot be trusted; remove it (tune saves a new one) or fix "
			"its owner and mode (chmod go-w)",
		     file, bad);
		return NULL;
	}
	json_error_t je;
	json_t *j = json_loadfd(fd, 0, &je);
	close(fd);
	if (!j || !json_is_array(json_object_get(j, "saved"))) {
		json_decref(j);
		errf(e, "%s: not a sysab tune state file (%s); move it away to start afresh", file,
		     j ? "no \"saved\" list" : je.text);
		return NULL;
	}
	return j;
}

static int save_state(const char *file, json_t *j, struct err *e)
{
	char *dir = xstrdup(file);
	char *slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = 0;
		if (mkdir_p(dir, 0700, e)) {
			free(dir);
			return -1;
		}
	}
	free(dir);
	char *tmp = xasprintf("%s.XXXXXX", file);
	int rc = 0;
	int fd = mkostemp(tmp, O_CLOEXEC); /* a fresh name, mode 0600: never a planted file */
	if (fd < 0) {
		rc = errf(e, "%s: cannot write the tune state: %s; nothing was changed", file, strerror(errno));
		free(tmp);
		return rc;
	}
	int w = json_dumpfd(j, fd, JSON_INDENT(2) | JSON_SORT_KEYS);
	if (close(fd) < 0 || w < 0 || rename(tmp, file) < 0) {
		rc = errf(e, "%s: cannot write the tune state: %s; nothing was changed", file, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

static json_t *saved_entry(json_t *saved, const char *path)
{
	size_t i;
	json_t *x;
	json_array_foreach(saved, i, x)
	{
		const char *p = json_string_value(json_object_get(x, "path"));
		if (p && !strcmp(p, path))
			return x;
	}
	return NULL;
}

int system_tune(const char *root, const struct sys_state *s, const char *state_file, struct sys_changes *out,
		struct err *e)
{
	memset(out, 0, sizeof *out);
	json_t *st = load_state(state_file, e);
	if (!st)
		return -1;
	json_t *saved = json_object_get(st, "saved");
	int rc = -1;
	/* 1. read every original and save them all before anything is written */
	struct strv todo = {0}; /* path, value, knob triples */
	for (size_t i = 0; i < s->nknob; i++)
		for (size_t j = 0; j < s->knob[i].nset; j++) {
			const struct sys_setting *x = &s->knob[i].set[j];
			char *path = xasprintf("%s/%s", strcmp(root, "/") ? root : "", x->path);
			const char *why = system_knob_file_check(s->knob[i].name, x->path, x->value), *rwhy = NULL;
			char *orig = why ? NULL : system_knob_read(path, &rwhy);
			if (why) {
				change(out, s->knob[i].name, path, NULL, x->value, xasprintf("refused: %s", why));
			} else if (!orig) {
				change(out, s->knob[i].name, path, NULL, x->value,
				       xasprintf("refused, nothing written: cannot read its value, so it could not be "
						 "restored: %s",
						 rwhy));
			} else if (access(path, W_OK) < 0) {
				change(out, s->knob[i].name, path, orig, x->value,
				       xasprintf("not writable here (%s)", strerror(errno)));
			} else {
				if (!saved_entry(saved, path))
					json_array_append_new(saved, json_pack("{s:s, s:s, s:s}", "knob", s->knob[i].name,
									       "path", path, "original", orig));
				strv_add(&todo, path);
				strv_add(&todo, x->value);
				strv_add(&todo, s->knob[i].name);
			}
			free(orig);
			free(path);
		}
	if (todo.n && save_state(state_file, st, e))
		goto out;
	/* 2. write each; a value the kernel does not take is put back at once */
	for (size_t i = 0; i < todo.n; i += 3) {
		const char *path = todo.v[i], *val = todo.v[i + 1], *name = todo.v[i + 2];
		const char *why = NULL;
		char *orig = system_knob_read(path, &why);
		char *nv = xasprintf("%s\n", val);
		int err = orig ? knob_write(path, nv, &why) : EINVAL;
		char *now = err ? NULL : system_knob_read(path, &why);
		if (err || !now || !same_value(now, val)) {
			if (orig && !err)
				knob_write(path, orig, &why);
			change(out, name, path, orig, val,
			       err ? xasprintf("the kernel refused the value: %s", why)
				   : xasprintf("the kernel did not take the value (it reads back as %s); left as it was",
					       now ? now : "nothing"));
		} else {
			change(out, name, path, orig, val, NULL);
		}
		free(now);
		free(nv);
		free(orig);
	}
	rc = 0;
out:
	strv_free(&todo);
	json_decref(st);
	return rc;
}

int system_reset(const char *root, const char *state_file, struct sys_changes *out, bool *all_ok, struct err *e)
{
	memset(out, 0, sizeof *out);
	*all_ok = true;
	struct stat ls;
	if (lstat(state_file, &ls) < 0 && errno == ENOENT)
		return 0;
	json_t *st = load_state(state_file, e);
	if (!st)
		return -1;
	const char *prefix = strcmp(root, "/") ? root : "";
	size_t plen = strlen(prefix);
	size_t i;
	json_t *x;
	json_array_foreach(json_object_get(st, "saved"), i, x)
	{
		const char *path = json_string_value(json_object_get(x, "path"));
		const char *orig = json_string_value(json_object_get(x, "original"));
		const char *knob = json_string_value(json_object_get(x, "knob"));
		if (!path || !orig) {
			*all_ok = false;
			change(out, knob ? knob : "?", path ? path : "?", NULL, NULL,
			       xstrdup("the state file lacks its path or original value"));
			continue;
		}
		/* only a knob file of the table, under this root, and only a value that knob can hold */
		bool under = !strncmp(path, prefix, plen) && path[plen] == '/';
		const char *why = !under ? "not under the tree being reset (give reset the --root tune had)"
				  : system_knob_file_check(knob ? knob : "?", path + plen + 1, NULL);
		const char *rwhy = NULL;
		char *before = why ? NULL : system_knob_read(path, &rwhy);
		/* a value already in place needs no write, so it needs no judging either */
		if (!why && !(before && !strcmp(before, orig))) {
			why = system_knob_file_check(knob, path + plen + 1, orig);
			if (!why && !before)
				why = rwhy; /* the same rule knob_write would apply */
		}
		if (why) {
			*all_ok = false;
			change(out, knob ? knob : "?", path, before, NULL,
			       xasprintf("refused, nothing written: %s", why));
			free(before);
			continue;
		}
		const char *wwhy = NULL;
		int err = before && !strcmp(before, orig) ? 0 : knob_write(path, orig, &wwhy);
		char *now = err ? NULL : system_knob_read(path, &wwhy);
		if (err || !now || strcmp(now, orig)) {
			*all_ok = false;
			change(out, knob, path, before, orig,
			       err ? xasprintf("cannot write it back: %s", wwhy)
				   : xstrdup("it does not read back byte-identical to the saved value"));
		} else {
			change(out, knob, path, before, orig, NULL);
		}
		free(before);
		free(now);
	}
	json_decref(st);
	if (*all_ok && unlink(state_file) < 0)
		return errf(e, "%s: restored every value but cannot remove the state file: %s", state_file,
			    strerror(errno));
	return 0;
}
