/* cli.h - option tables, parsing and help shared by every subcommand. */
#ifndef SYSAB_CLI_H
#define SYSAB_CLI_H

#include <stdio.h>
#include "core/core.h"
#include "report/report.h"
#include "store/store.h"

/* The kind of number an option takes. The parser checks it against the option's range
 * before the handler sees it (with the spelling the user wrote, "-c" or "--copies"), and
 * help and the man page print the range: the table is the one place it is written. */
enum cli_num {
	CLI_TEXT = 0, /* not a number (or checked by its handler: durations, CPU lists, seeds) */
	CLI_INT,      /* a whole number in [lo, hi] */
	CLI_REAL,     /* a plain number in [lo, hi] */
	CLI_PCT,      /* a percentage, "1%", whose fraction lies in [lo, hi] */
};

/* One option of a subcommand. id is what the command's handler switches on. */
struct cli_opt {
	const char *lng;  /* long name without "--" */
	int shrt;         /* short letter, or 0 */
	const char *arg;  /* argument name for help, or NULL for a flag */
	const char *help;
	int id;
	enum cli_num num; /* a number in [lo, hi], checked by the parser */
	double lo, hi;
	const char *dflt; /* the default as a user writes it ("1%", "120s"), printed by help and the man
			   * page; tests/unit/test_cli.c holds each against the value the code uses */
	const char *values; /* the words the value can be, space-separated, or NULL: bash completion
			     * offers them and a refused value gets the closest as "did you mean" */
};

/* Table entries: an option, and a number option with its range and default (dflt or NULL). */
#define CLI_OPT(LNG, SHRT, ARG, HELP, ID) {.lng = (LNG), .shrt = (SHRT), .arg = (ARG), .help = (HELP), .id = (ID)}
#define CLI_NUM(LNG, SHRT, ARG, HELP, ID, NUM, LO, HI, DFLT)                                            \
	{.lng = (LNG), .shrt = (SHRT), .arg = (ARG), .help = (HELP), .id = (ID), .num = (NUM), .lo = (LO), \
	 .hi = (HI), .dflt = (DFLT)}

/* An option whose value is one of VALUES (space-separated words); the handler checks it. */
#define CLI_CHOICE(LNG, SHRT, ARG, HELP, ID, VALUES) \
	{.lng = (LNG), .shrt = (SHRT), .arg = (ARG), .help = (HELP), .id = (ID), .values = (VALUES)}

/* A value the parser has checked against its option's range: CLI_INT as an int, CLI_REAL
 * as it is, CLI_PCT as a fraction ("5%" -> 0.05). */
int cli_int_of(const char *arg);
double cli_real_of(const char *arg);
/* "from LO to HI" (percents for CLI_PCT) into buf, "" for CLI_TEXT. */
void cli_range_text(char *buf, size_t size, const struct cli_opt *o);
/* What help and the man page add after an option's help: " (from LO to HI; default D)",
 * or "" when it has neither. */
void cli_opt_extra(char *buf, size_t size, const struct cli_opt *o);

/* Options every subcommand has. */
enum { OPT_HELP = 1000, OPT_DB, OPT_JSON, OPT_NO_COLOR, OPT_FORMAT, OPT_OUTPUT, OPT_VERBOSE, OPT_KCIDB_VERSION,
       OPT_SAMPLES_URL };
#define CLI_COMMON_OPTS                                                                          \
	CLI_OPT("db", 0, "PATH", "results database (default $SYSAB_DB, else ~/.local/share/sysab/results.db)", \
		OPT_DB),                                                                               \
		CLI_OPT("help", 'h', NULL, "show this help", OPT_HELP)
#define CLI_COLOR_OPT CLI_OPT("no-color", 0, NULL, "no colour in tables (also when NO_COLOR is set or stdout is not a terminal)", OPT_NO_COLOR)
#define CLI_VERBOSE_OPT                                                                                  \
	CLI_OPT("verbose", 'v', NULL, "text: every note of every row in a fixed 80-column layout, not the compact table", \
		OPT_VERBOSE)
#define CLI_END {.lng = NULL}
/* A number defined elsewhere (a default) spelled inside a help string. */
#define CLI_STR_(x) #x
#define CLI_STR(x) CLI_STR_(x)
/* How every result-printing command chooses its output: --format (FORMATS: the help, e.g.
 * "text (default) or json"; VALUES: the same names, space-separated, for completion;
 * tests/unit/test_cli.c holds both to the formats the command prints), -o FILE, and --json
 * as an alias of --format json. */
#define CLI_OUT_OPTS(FORMATS, VALUES)                                                                   \
	CLI_CHOICE("format", 0, "FORMAT", "output format: " FORMATS, OPT_FORMAT, VALUES),                        \
		CLI_OPT("output", 'o', "FILE", "write to FILE, complete or not at all, instead of standard output", \
			OPT_OUTPUT),                                                                       \
		CLI_OPT("json", 0, NULL, "the same as --format json", OPT_JSON)

/* The options of the kcidb format (docs/FLEET.md): the schema version, and the URL of the raw
 * samples' file that each test's output_files names. */
#define CLI_KCIDB_OPTS                                                                                    \
	CLI_CHOICE("kcidb-version", 0, "V",                                                                   \
		   "kcidb: the KCIDB I/O schema version written, 5.3 (default) or 4.5", OPT_KCIDB_VERSION,       \
		   "5.3 4.5"),                                                                                 \
		CLI_OPT("samples-url", 0, "URL",                                                              \
			"kcidb: each test names the file at URL (e.g. where the lab publishes `sysab export "     \
			"--format csv` of the same runs) in output_files as its raw samples (none without it)",  \
			OPT_SAMPLES_URL)

/* The output options of a command, and what it prints. */
struct cli_out {
	enum report_kind kind;
	const struct report_format *fmt;
	const char *path; /* -o, or NULL for standard output */
	const char *db;   /* --db, or NULL for the default database (cli_out_check() holds -o away from it) */
	bool no_color;
	bool verbose; /* -v */
	const char *kcidb_version; /* --kcidb-version, or NULL */
	const char *samples_url;   /* --samples-url, or NULL */
};

/* Start with the format called dflt for records of kind. */
void cli_out_init(struct cli_out *o, enum report_kind kind, const char *dflt);
/* Take --format, -o, --json, --no-color, -v, --kcidb-version and --samples-url into o: 0 when id was one of them (or -1 with e
 * set for a format the command cannot print), 1 when id is another option. */
int cli_out_opt(struct cli_out *o, int id, const char *arg, struct err *e);
/* After parsing: 0, or -1 with e set when kcidb options were given to another format. */
int cli_out_opts_check(const struct cli_out *o, struct err *e);
/* True when o prints text to a terminal-capable stream (the format is text). */
bool cli_out_text(const struct cli_out *o);
/* Refuse an -o that is the database (o->db, else $SYSAB_DB or the default) or its -wal or
 * -shm file, by inode as well as by name: 0, or -1 with e naming the path. cli_emit() calls it;
 * a command that writes the database before it prints (run) calls it first. */
int cli_out_check(const struct cli_out *o, struct err *e);
/* Render d in o's format to o's file (through a temporary file, after cli_out_check()) or
 * standard output; colour only for text on a terminal. Returns 0, or -1 with e set. */
int cli_emit(const struct cli_out *o, struct report_doc *d, struct err *e);

/* Whether tables on stdout get colour: stdout is a terminal, NO_COLOR is unset or
 * empty, and --no-color was not given (no_color_opt). */
bool cli_color(bool no_color_opt);

/* The columns a table on stdout may fill: $COLUMNS when it is a number from 40 to 1000,
 * else the terminal's width when stdout is one, else REPORT_WIDTH. */
size_t cli_width(void);

struct cli_cmd {
	const char *name;
	const char *args;     /* positional arguments for the usage line */
	const char *summary;  /* one line */
	const char *details;  /* more text for --help, or NULL */
	const struct cli_opt *opts;
	int (*main)(const struct cli_cmd *cmd, int argc, char **argv);
	const char *subs;     /* its subcommands (the first argument), space-separated, or NULL */
};

/* The word of words (space-separated) closest to s, copied into buf: at most 2 edits (1 for
 * words under 3 characters), or the one word s starts; NULL when none is close. */
const char *cli_suggest(const char *s, const char *words, char *buf, size_t size);

/* Handler for one parsed option; returns 0 or -1 with e set. */
typedef int (*cli_on_opt)(void *ctx, int id, const char *arg, struct err *e);

/* Parse argv (argv[0] = the subcommand name) against cmd->opts. Options and positional
 * arguments may be mixed; "--" ends options. Common options are handled here: --help
 * prints help and sets *help; --db and --json/--no-color go to on_opt like the others.
 * Positional arguments are appended to pos. Returns 0 or -1 with e set. */
int cli_parse(const struct cli_cmd *cmd, int argc, char **argv, cli_on_opt on_opt, void *ctx, struct strv *pos,
	      bool *help, struct err *e);

/* cli_parse, then the usual ending: on a parse error print it (cli_fail) and return
 * EXIT_INPUT; after --help print the help and return EXIT_OK; otherwise return -1 so
 * the command goes on. */
int cli_start(const struct cli_cmd *cmd, int argc, char **argv, cli_on_opt on_opt, void *ctx, struct strv *pos);

/* The `sysab run` arguments after the first "--" of argv[1..argc-1], appended to run_args.
 * Returns that "--"'s index (argc when there is none): the options end before it. */
int cli_run_args(int argc, char **argv, struct strv *run_args);

/* Print cmd's help, generated from its option table. */
void cli_help(const struct cli_cmd *cmd, FILE *f);

/* Report an error the user must act on: "sysab <cmd>: <msg>" on stderr; returns EXIT_INPUT. */
int cli_fail(const struct cli_cmd *cmd, const struct err *e);

/* Open the database (--db PATH, else the default) for a command, then mark runs whose
 * sysab process is gone as interrupted when the database could be opened writable: so
 * whichever command comes next after a killed run notices it. *path (may be NULL) gets
 * the path, newly allocated. Returns 0, or -1 with e set (nothing opened). */
int cli_open_db(const char *db_opt, enum store_mode mode, struct store **st, char **path, struct err *e);

/* The subcommands. */
int cmd_run(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_check_db(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_list(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_show(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_workloads(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_env(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_compare(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_analyze(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_plan(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_import(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_export(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_report(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_campaign(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_bisect(const struct cli_cmd *cmd, int argc, char **argv);
/* Start or resume bisection name (study_bisect_drive) and, once it no longer runs, print where it
 * stands; `campaign start|resume` of a bisection's campaign comes here too (bisect.c). 0, or -1
 * with e set. */
struct campaign_env;
int cli_bisect_drive(const struct campaign_env *env, const char *name, struct err *e);
int cmd_system(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_rm(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_relabel(const struct cli_cmd *cmd, int argc, char **argv);
int cmd_history(const struct cli_cmd *cmd, int argc, char **argv);

/* The man page (roff) and the bash completion script, generated from the tables. */
void cli_man(FILE *f);
void cli_completion_bash(FILE *f);

extern const struct cli_cmd cli_cmds[];
extern const size_t cli_ncmds;

#endif
