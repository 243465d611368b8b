/* lines.c - `sysab campaign new` lines that other commands print (plan, history --confirm):
 * built from campaigns that booted the configurations, shell-quoted, runnable as printed. */
#include "campaign.h"
#include "backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void campaign_opt_str(struct strv *out, const char *flag, const char *value)
{
	if (value && *value) {
		strv_add(out, flag);
		strv_add(out, value);
	}
}

void campaign_opt_int(struct strv *out, const char *flag, int v)
{
	if (v <= 0)
		return;
	char buf[24];
	snprintf(buf, sizeof buf, "%d", v);
	campaign_opt_str(out, flag, buf);
}

/* How configuration k boots: its --kernel, --initrd, --append, --entry, --command. */
static void boot_opts(const struct store_campaign_config *k, struct strv *out)
{
	campaign_opt_str(out, "--kernel", k->kernel);
	campaign_opt_str(out, "--initrd", k->initrd);
	campaign_opt_str(out, "--append", k->append);
	campaign_opt_str(out, "--entry", k->entry);
	campaign_opt_str(out, "--command", k->command);
}

/* w onto l as bisect's series reader splits words: bare when it holds no space or quote,
 * else in '...', each ' as '"'"'. */
static void series_quote(struct sb *l, const char *w)
{
	if (*w && !strpbrk(w, " \t'\"")) {
		sb_add(l, w);
		return;
	}
	sb_add(l, "'");
	for (const char *p = w; *p; p++)
		if (*p == '\'')
			sb_add(l, "'\"'\"'");
		else
			sb_addf(l, "%c", *p);
	sb_add(l, "'");
}

char *campaign_series_line(const struct campaign *c, size_t k)
{
	struct strv w = {0};
	const struct kvlist *lab = &c->labels[k];
	for (size_t m = 0; m < lab->n; m++) {
		char *kv = xasprintf("%s=%s", lab->v[m].key, lab->v[m].value);
		strv_add(&w, kv);
		free(kv);
	}
	boot_opts(&c->r.configs[k], &w);
	struct sb l = {0};
	for (size_t i = 0; i < w.n; i++) {
		if (i)
			sb_add(&l, " ");
		series_quote(&l, w.v[i]);
	}
	strv_free(&w);
	char *s = xstrdup(sb_str(&l));
	sb_free(&l);
	return s;
}

static void campaign_new_argv(const struct campaign *const *src, const size_t *cfg, size_t n, int boots, int runs,
		       const struct strv *run_args, struct strv *out)
{
	const struct campaign_opts *o = &src[0]->opts;
	campaign_opt_str(out, "--backend", src[0]->r.backend);
	campaign_opt_int(out, "--boots", boots);
	campaign_opt_int(out, "--runs", runs);
	if (src[0]->be->new_args)
		src[0]->be->new_args(o, out);
	campaign_opt_int(out, "--max-failures", o->max_failures);
	for (size_t i = 0; i < n; i++) {
		const struct store_campaign_config *k = &src[i]->r.configs[cfg[i]];
		const struct kvlist *lab = &src[i]->labels[cfg[i]];
		struct sb l = {0};
		for (size_t m = 0; m < lab->n; m++)
			sb_addf(&l, "%s%s=%s", m ? " " : "", lab->v[m].key, lab->v[m].value);
		campaign_opt_str(out, "--config", l.len ? sb_str(&l) : k->name);
		sb_free(&l);
		boot_opts(k, out);
	}
	if (run_args->n)
		strv_add(out, "--");
	for (size_t i = 0; i < run_args->n; i++)
		strv_add(out, run_args->v[i]);
}

bool campaign_find_config(struct store *st, const struct strv *names, const char *only, const struct kvlist *terms,
			  struct campaign *c, size_t *cfg, size_t *nmatch)
{
	*nmatch = 0;
	for (size_t i = names->n; i-- > 0;) {
		struct err e;
		if ((only && strcmp(names->v[i], only)) || campaign_load(st, names->v[i], c, &e))
			continue;
		for (size_t k = 0; k < c->r.nconfigs; k++) {
			bool all = true;
			for (size_t t = 0; t < terms->n && all; t++) {
				const char *v = kv_get(&c->labels[k], terms->v[t].key);
				all = v && !strcmp(v, terms->v[t].value);
			}
			if (all && !(*nmatch)++)
				*cfg = k;
		}
		if (*nmatch)
			return true;
		campaign_free(c);
	}
	return false;
}

/* Whether argument a of `sysab run` sets what `replace` replaces: 1 with its value in the
 * next argument, 2 with it joined, 0 otherwise. */
static int replaced_arg(const char *a, bool workloads, bool copies)
{
	static const struct {
		const char *flag;
		int what; /* 0 workloads, 1 copies, 2 samples */
	} own[] = {{"-w", 0}, {"--workload", 0}, {"-c", 1}, {"--copies", 1}, {"--samples", 2}};
	for (size_t i = 0; i < sizeof own / sizeof *own; i++) {
		if ((own[i].what == 0 && !workloads) || (own[i].what == 1 && !copies))
			continue;
		size_t n = strlen(own[i].flag);
		if (!strcmp(a, own[i].flag))
			return 1;
		if (!strncmp(a, own[i].flag, n) && (own[i].flag[1] != '-' ? a[n] != 0 : a[n] == '='))
			return 2;
	}
	return 0;
}

char *campaign_analyze_hint(const struct campaign *c)
{
	return xasprintf("`sysab analyze campaign:%s` analyzes it%s", c->r.name,
			 c->run_nodes >= 2 ? " (node kept as a factor: the runs are per node)" : "");
}

bool campaign_runs_nodes(const struct strv *run_args)
{
	for (size_t i = 0; i < run_args->n; i++)
		if (!strcmp(run_args->v[i], "--nodes") || !strncmp(run_args->v[i], "--nodes=", 8))
			return true;
	return false;
}

bool campaign_runs_unixbench(const struct strv *run_args)
{
	for (size_t i = 0; i < run_args->n; i++)
		if (!strcmp(run_args->v[i], "--unixbench") || !strncmp(run_args->v[i], "--unixbench=", 12))
			return true;
	return false;
}

void campaign_run_args_with(const struct strv *src, const struct strv *workloads, int copies, size_t samples,
			    struct strv *out)
{
	if (campaign_runs_unixbench(src)) {
		for (size_t i = 0; i < src->n; i++)
			strv_add(out, src->v[i]);
		return;
	}
	for (size_t i = 0; i < src->n; i++) {
		int r = replaced_arg(src->v[i], workloads != NULL, copies > 0);
		if (r == 1)
			i++;
		else if (!r)
			strv_add(out, src->v[i]);
	}
	char buf[24];
	for (size_t i = 0; workloads && i < workloads->n; i++) {
		strv_add(out, "-w");
		strv_add(out, workloads->v[i]);
	}
	if (copies > 0) {
		snprintf(buf, sizeof buf, "%d", copies);
		strv_add(out, "-c");
		strv_add(out, buf);
	}
	snprintf(buf, sizeof buf, "%zu", samples);
	strv_add(out, "--samples");
	strv_add(out, buf);
}

void campaign_new_command(const char *name, const char *db, const struct campaign *const *src, const size_t *cfg,
			  size_t n, int boots, int runs, const struct strv *run_args, struct strv *argv, char **line)
{
	strv_add(argv, "campaign");
	strv_add(argv, "new");
	strv_add(argv, name);
	if (db) {
		strv_add(argv, "--db");
		strv_add(argv, db);
	}
	campaign_new_argv(src, cfg, n, boots, runs, run_args, argv);
	struct sb l = {0};
	sb_add(&l, "sysab");
	for (size_t i = 0; i < argv->n; i++) {
		sb_add(&l, " ");
		campaign_sh_quote(&l, argv->v[i]);
	}
	sb_add(&l, " && sysab campaign start ");
	campaign_sh_quote(&l, name);
	if (db) {
		sb_add(&l, " --db ");
		campaign_sh_quote(&l, db);
	}
	*line = xstrdup(sb_str(&l));
	sb_free(&l);
}

void campaign_bisect_command(const char *name, const char *db, const struct campaign *src, const char *series_file,
			     size_t nseries, const struct strv *line_argv, struct strv *argv, char **line)
{
	char n[24];
	snprintf(n, sizeof n, "%zu", nseries);
	const char *head[] = {"bisect", "new", name, "--series", series_file, "--good", "1", "--bad", n};
	for (size_t i = 0; i < sizeof head / sizeof *head; i++)
		strv_add(argv, head[i]);
	campaign_opt_str(argv, "--db", db);
	campaign_opt_str(argv, "--backend", src->r.backend);
	if (src->be->new_args)
		src->be->new_args(&src->opts, argv);
	campaign_opt_int(argv, "--max-failures", src->opts.max_failures);
	size_t dd = 0;
	while (dd < line_argv->n && strcmp(line_argv->v[dd], "--"))
		dd++;
	for (size_t i = dd; i < line_argv->n; i++)
		strv_add(argv, line_argv->v[i]);
	struct sb l = {0};
	sb_add(&l, "sysab");
	for (size_t i = 0; i < argv->n; i++) {
		sb_add(&l, " ");
		campaign_sh_quote(&l, argv->v[i]);
	}
	sb_add(&l, " && sysab bisect start ");
	campaign_sh_quote(&l, name);
	if (db) {
		sb_add(&l, " --db ");
		campaign_sh_quote(&l, db);
	}
	*line = xstrdup(sb_str(&l));
	sb_free(&l);
}
