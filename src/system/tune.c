/* tune.c - set the benchmarking knobs and restore them byte for byte from a saved state file. */
#include "system.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *system_state_file_default(void)
{
	const char *x = getenv("XDG_STATE_HOME");
	if (x && *x == '/')
		return xasprintf("%s/sysab/tune.json", x);
	const char *h = getenv("HOME");
	return xasprintf("%s/.local/state/sysab/tune.json", h && *h ? h : ".");
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

/* The exact bytes of a small file, or NULL with errno set. */
static char *read_exact(const char *path)
{
	struct err e;
	size_t len;
	return read_whole_file(path, 65536, &len, &e);
}

/* Write s to path as `echo s > path` would. Returns 0 or an errno. */
static int write_value(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return errno;
	size_t n = strlen(s);
	ssize_t w = write(fd, s, n);
	int err = w < 0 ? errno : (size_t)w != n ? EIO : 0;
	if (close(fd) < 0 && !err)
		err = errno;
	return err;
}

static bool same_value(const char *a, const char *b)
{
	size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
	return la == lb && !strncmp(a, b, la);
}

static json_t *load_state(const char *file, struct err *e)
{
	if (access(file, F_OK) < 0)
		return json_pack("{s:i, s:[]}", "version", 1, "saved");
	json_error_t je;
	json_t *j = json_load_file(file, 0, &je);
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
	char *tmp = xasprintf("%s.tmp.%d", file, (int)getpid());
	int rc = 0;
	if (json_dump_file(j, tmp, JSON_INDENT(2) | JSON_SORT_KEYS) < 0 || rename(tmp, file) < 0) {
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
			char *orig = read_exact(path);
			if (!orig) {
				change(out, s->knob[i].name, path, NULL, x->value,
				       xasprintf("cannot read its value (%s), so it could not be restored", strerror(errno)));
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
		char *orig = read_exact(path);
		char *nv = xasprintf("%s\n", val);
		int err = write_value(path, nv);
		char *now = err ? NULL : read_exact(path);
		if (err || !now || !same_value(now, val)) {
			if (orig)
				write_value(path, orig);
			change(out, name, path, orig, val,
			       err ? xasprintf("the kernel refused the value: %s", strerror(err))
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

int system_reset(const char *state_file, struct sys_changes *out, bool *all_ok, struct err *e)
{
	memset(out, 0, sizeof *out);
	*all_ok = true;
	if (access(state_file, F_OK) < 0)
		return 0;
	json_t *st = load_state(state_file, e);
	if (!st)
		return -1;
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
		char *before = read_exact(path);
		int err = before && !strcmp(before, orig) ? 0 : write_value(path, orig);
		char *now = err ? NULL : read_exact(path);
		if (err || !now || strcmp(now, orig)) {
			*all_ok = false;
			change(out, knob ? knob : "?", path, before, orig,
			       err ? xasprintf("cannot write it back: %s", strerror(err))
				   : xstrdup("it does not read back byte-identical to the saved value"));
		} else {
			change(out, knob ? knob : "?", path, before, orig, NULL);
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
