/* study.h - designs that boot campaigns carry out: the campaign line of a plan, the campaigns that confirm a change point. */
#ifndef SYSAB_STUDY_H
#define SYSAB_STUDY_H

#include "analysis/history.h"
#include "analysis/job.h"
#include "store/store.h"

/*
 * A study turns a design (configurations x boots x runs x samples) into the boot campaign
 * that carries it out, booting each configuration as an earlier campaign booted it. It
 * returns records (report/ prints them); what it cannot do is said in the record, never
 * printed. Adaptive campaigns and bisection build their steps as designs too.
 */

/* A design to carry out. Each configuration is a selector (analysis/select.h): its label
 * terms (KEY=VALUE) name the configuration, its campaign:NAME term the campaign that booted
 * it (else the newest that did); one selector that is only campaign:NAME stands for every
 * configuration of that campaign. Other terms are ignored. */
struct study_design {
	const char *name;            /* the campaign to create */
	const char *db;              /* the database the line names with --db, or NULL */
	const char *const *configs;  /* selectors, one per configuration */
	size_t nconfigs;
	size_t boots, runs, samples; /* per configuration and boot; boots 0: nothing meets the target */
	const struct strv *workloads; /* the runs' workloads (NULL or empty: the booting campaign's) */
	int copies;                  /* the runs' copies (0: the booting campaign's) */
	bool samples_fixed;          /* the samples per run are fixed (plan --samples N), as UnixBench's
	                                command fixes its passes; a design that sizes them cannot run UnixBench */
	bool nodes;                  /* its runs are per node (a factor node that sysab run --nodes
	                                labels): the line's runs keep --nodes (the booting campaign's, else all) */
};

/* Why a design has no campaign line: one word each (study_why_word), for --json. */
enum study_why {
	STUDY_LINE_OK,           /* there is a line */
	STUDY_NAMES_UNREADABLE,  /* the campaigns cannot be read */
	STUDY_NAME_TAKEN,        /* a campaign of that name exists */
	STUDY_NO_CONFIGS,        /* no selector: the pilot names no configuration */
	STUDY_NO_LABELS,         /* a selector holds no KEY=VALUE term */
	STUDY_UNREADABLE,        /* the campaign a selector names cannot be read */
	STUDY_NOT_BOOTED,        /* no campaign booted a configuration so labelled */
	STUDY_AMBIGUOUS,         /* a selector matches several configurations of one campaign */
	STUDY_ONE_CONFIG,        /* a plan of one configuration, with nothing to compare it with */
	STUDY_BACKENDS_DIFFER,   /* the configurations were booted by different backends */
	STUDY_UNIXBENCH,         /* UnixBench fixes the passes the design would size */
	STUDY_NO_DESIGN,         /* no design meets the target */
	STUDY_TIME_ORDER,        /* history --by time: nothing names how to boot either side */
};

/* The word of w ("ok", "not-booted", ...). */
const char *study_why_word(enum study_why w);

/* history --confirm's offer of `sysab bisect` for a change whose two sides lie far apart: the
 * configurations from the good end (the last boot before the change's location interval) to
 * the bad end (the first boot after it), in the history's version order of the --by label,
 * as campaigns booted them; or why there is none. A finished record. */
struct study_bisect_offer {
	char *good, *bad;    /* the ends' --by values */
	size_t between;      /* configurations strictly between the ends */
	struct strv series;  /* the series file's lines, good first and bad last (none without a line) */
	char *series_file;   /* the file name the line reads (NAME.series) */
	struct strv argv;    /* `bisect new NAME ...`: the arguments after "sysab" */
	char *line;          /* the shell line that creates and starts it, runnable as printed once
	                        series is saved as series_file; NULL with why */
	char *why;           /* without a line: why, and what would give one */
};

/* The campaign that carries out a design, or why there is none: a finished record. */
struct study_line {
	char *name;                  /* the campaign the line creates; NULL without a line */
	char *source;                /* the campaign whose backend and options it takes */
	size_t nconfigs;             /* configurations it boots */
	size_t boots, runs, samples; /* as the design says */
	struct strv argv;            /* `campaign new NAME ...`: the arguments after "sysab" */
	char *line;                  /* the shell line that creates and starts it, runnable as printed */
	enum study_why why_kind;     /* STUDY_LINE_OK with a line */
	char *why;                   /* without a line: why, and what would give one */
	struct study_bisect_offer *bisect; /* history --confirm: the bisection it offers; NULL when
	                                      the two sides are adjacent configurations (or not asked) */
};

/* The campaign line of design d into *out, whose campaigns st holds: booting each of d's
 * configurations as the campaign that booted it did, with d's boots, runs, samples and
 * workloads; or why there is none (out->why, worded for `sysab plan`). Never fails: a
 * campaign that cannot be read is a reason. Free out with study_line_free. */
void study_design_line(struct store *st, const struct study_design *d, struct study_line *out);

/* The campaign line of a plan (`sysab plan ... --campaign NAME`): the design j planned
 * (its configurations: the selectors sels, or with plan --factors one per cell, the
 * filter sels with the cell's levels of factors), run with the workloads patterns, into
 * *out as study_design_line does. */
void study_plan_line(const struct an_plan_job *j, const struct strv *sels, const struct strv *factors,
		     const struct strv *patterns, const char *name, const char *db, struct study_line *out);

/* `sysab history --confirm`: for each change of h, the A/B campaign that settles it (the
 * last configuration before it against the first after, sized as h planned it), named
 * confirm-BY-BEFORE-AFTER apart from every campaign of st and each other, or why there is
 * none; with a line, when configurations lie between the ends of the change's location
 * interval (out[i].bisect), the `sysab bisect` over them with the same backend and runs. out[0..h->cp.nchanges) (free each with study_line_free); a change with no feasible
 * design gets an empty record (no line, no why). */
void study_confirm_lines(struct store *st, const char *db, const struct an_history *h, struct study_line *out);

/* Release l's strings; l is zeroed. NULL is a no-op. */
void study_line_free(struct study_line *l);

#endif
