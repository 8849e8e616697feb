/* cli.h — the command-line layer: the command table entry each cmd_*.c
 * ends with, the state every command receives, and the one place that
 * writes messages to stderr (msg.c). Library code never prints. */
#ifndef PLANNER_CLI_H
#define PLANNER_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include <cJSON.h>

#include "export.h"
#include "jobspec.h"
#include "json_print.h"
#include "measured.h"
#include "plan.h"
#include "refdata.h"
#include "store.h"
#include "util.h"

/* State shared by every command; one per process, passed by pointer. */
/* --set overrides one command takes: a what-if rarely needs more. */
#define CLI_MAX_SETS 64

struct cli {
	const char *prog;        /* "planner" */
	char *db_path;           /* --db, else the default path (owned) */
	enum out_format format;  /* --format; table by default */
	bool verbose;            /* --verbose */
	bool quiet;              /* --quiet */
	const char *out_path;    /* -o, --output; NULL for standard output */
	bool color;              /* stdout is a terminal and NO_COLOR is unset */
	int term_width;          /* columns of the terminal; 0 when not a terminal */
	bool err_tty;            /* stderr is a terminal: notes fit one line of it */
	struct refdata *ref;     /* reference data, loaded before the command runs */
	struct store *store;     /* opened on first cli_store() */
	const struct cmd_entry *cmd; /* the command running */
	char **argv;             /* the command's arguments (argv[0] is its name), */
	int argc;                /* for messages about an unknown option */
	const char *sets[CLI_MAX_SETS]; /* --set KEY=VALUE, in order (argv's strings) */
	size_t n_sets;
	bool share_owned;        /* cli_plan shares the GPUs on hand (compare, breakeven, report) */
	bool each_alone;         /* --each-alone: ... unless this is given */
	struct measured_flags measured; /* compare --measured FILE and what it ran on */
};

struct cmd_entry {
	const char *name;    /* subcommand word */
	const char *args;    /* synopsis after the name, "FILE [--format F]" */
	const char *summary; /* one line for `planner --help` */
	const char *help;    /* full --help text after the synopsis, with an example */
	int (*exec)(struct cli *c, int argc, char **argv); /* returns the exit status */
};

/* Options every command accepts; add them to a command's long options. */
#define CLI_COMMON_OPTIONS                                                                         \
	{"db", required_argument, NULL, 'D'}, {"format", required_argument, NULL, 'F'},           \
		{"help", no_argument, NULL, 'h'}, {"verbose", no_argument, NULL, 'v'}

/* The options of a command that writes one file: -o/--output PATH (into
 * c->out_path) and --quiet; getopt's short options then take "o:q".
 * cli_common_option handles them. */
/* clang-format off */
#define CLI_OUTPUT_OPTIONS                                                                         \
	{"output", required_argument, NULL, 'o'}, {"quiet", no_argument, NULL, 'q'}
/* --set KEY=VALUE (compare, breakeven, report, schedule): a what-if on
 * the spec, read by cli_plan (spec_set.c). */
#define CLI_SET_OPTION {"set", required_argument, NULL, 'S'}
#define CLI_SET_HELP                                                                               \
	"  --set KEY=VALUE    what if: change a spec key before pricing (repeatable;\n"            \
	"                     e.g. jobs.support-bot.tokens_per_month.input=400M)\n"
/* --each-alone (compare, breakeven, report): each job priced alone, as if
 * it had every GPU on hand, not the GPUs on hand shared (plan_share.c). */
#define CLI_ALONE_OPTION {"each-alone", no_argument, NULL, 'A'}
#define CLI_ALONE_HELP                                                                             \
	"  --each-alone       price each job alone, as if it had every GPU on hand\n"             \
	"                     (default: the GPUs on hand are shared across the jobs)\n"
/* clang-format on */

/* Handles a common option (opt is 'D', 'F', 'h', 'v', with
 * CLI_OUTPUT_OPTIONS 'o' and 'q', 'S' and 'A'). Returns -1 when
 * opt is not a common option, 0 when handled, PLANNER_EUSAGE on a bad
 * value, PLANNER_ESYS when out of memory, or a special value
 * CLI_HELP_SHOWN after printing --help. */
#define CLI_HELP_SHOWN 100
int cli_common_option(struct cli *c, int opt, const char *arg);

/* For a command's `default:` option case: handles a common option, or
 * reports an unknown one. Returns 0 when the command should go on, else the
 * status to return (PLANNER_EUSAGE, PLANNER_ESYS, or CLI_HELP_SHOWN after
 * --help). */
int cli_other_option(struct cli *c, int opt, const char *arg);

/* The whole option loop of a command that takes the common options only
 * and no argument (gpus, models, providers). Returns 0 to go on, else the
 * status to return, as cli_other_option. */
int cli_common_options_only(struct cli *c, int argc, char **argv);

/* Prints a cJSON document to stdout and deletes it. Returns PLANNER_OK, or
 * PLANNER_ESYS after an error message when out of memory. Write errors on
 * stdout are main's to find at its final fclose. */
int cli_print_json(cJSON *doc);

/* As cli_print_json, with items 0..n-1 of make() printed in array, an
 * empty array of doc, made and freed one at a time (json_print_items). */
int cli_print_json_items(cJSON *doc, cJSON *array, size_t n, json_make_fn make, void *ud);

/* Reads the job spec at path, opens the database and prices every job,
 * then says on stderr where the prices come from (not with --quiet) and
 * which providers are stale. On success *spec and *plan are the caller's
 * (jobspec_free, plan_free). Returns the exit status; errors are printed. */
int cli_plan(struct cli *c, const char *path, struct jobspec **spec, struct plan **plan);

/* Runs write(f, arg) on the file at path, or on stdout when path is NULL.
 * The file is written as a temporary file beside it and renamed into
 * place once written whole: after a failure the old file is as it was
 * (or there is none), and nothing planner did not create is removed.
 * Returns write's status, PLANNER_EINPUT after a message when path is
 * not a regular file or a new name (a device, FIFO or directory is
 * refused) or cannot be created, or PLANNER_ESYS after a message when it
 * cannot be written (full disk, I/O error). */
int cli_write_file(const char *path, int (*write)(FILE *f, void *arg), void *arg);

/* Prints "usage: planner NAME ARGS" and a hint to stderr; returns
 * PLANNER_EUSAGE. */
int cli_usage(struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Opens the database (once) and returns it, or NULL after printing the
 * error; *status gets the exit code (PLANNER_ESYS when out of memory). */
struct store *cli_store(struct cli *c, int *status);

/* Messages (msg.c): "planner: ...", lowercase, what failed first. */
void errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void notef(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The commands' names for util.h's text helpers (text_csv_field,
 * text_safe, text_columns, text_wrap_to), which the exports share. */
static inline void csv_field(FILE *f, const char *s)
{
	text_csv_field(f, s);
}

static inline char *cli_safe(char *dst, size_t len, const char *s)
{
	return text_safe(dst, len, s);
}

/* Prints one line (printf-style, no newline needed) to stdout, wrapped
 * at spaces to the terminal's width when stdout is a terminal, the lines
 * after the first indented by `indent` columns (never wrapped in a pipe
 * or a file). A word is never cut, so neither is a figure: one wider than
 * the room left starts the next line whole. */
void cli_wrap(const struct cli *c, int indent, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static inline size_t cli_columns(const char *s)
{
	return text_columns(s);
}
/* cli_wrap for a finished line into f at `width` columns (0: no wrap). */
static inline void cli_wrap_to(FILE *f, int width, int indent, const char *line)
{
	text_wrap_to(f, width, indent, line);
}

/* Appends text to the string in buf (len bytes, cut to fit), filled word
 * by word for --help: the first word follows what buf holds, which ends
 * `col` columns into its line; a word that would pass column `width`
 * starts a new line of `indent` spaces. Ends with a newline. For help text
 * made from a list (providers, formats) that grows a row at a time.
 * Returns buf. */
char *cli_fill(char *buf, size_t len, int col, int indent, int width, const char *text);

extern const struct cmd_entry cmd_compare_entry;
extern const struct cmd_entry cmd_fit_entry;
extern const struct cmd_entry cmd_offers_entry;
extern const struct cmd_entry cmd_breakeven_entry;
extern const struct cmd_entry cmd_report_entry;
extern const struct cmd_entry cmd_history_entry;
extern const struct cmd_entry cmd_probe_entry;
extern const struct cmd_entry cmd_refresh_entry;
extern const struct cmd_entry cmd_providers_entry;
extern const struct cmd_entry cmd_schedule_entry;
extern const struct cmd_entry cmd_models_entry;
extern const struct cmd_entry cmd_gpus_entry;
extern const struct cmd_entry cmd_diff_entry;
extern const struct cmd_entry cmd_fleet_entry;
extern const struct cmd_entry cmd_init_entry;

/* "2026-03" into year and month (1970-9999); false on anything else. */
bool cli_parse_month(const char *s, int *year, int *month);
/* The month after this one, local time: the default of --month. */
void cli_next_month(int *year, int *month);

#endif
