/* main.c — the command table and the thin main: parse the subcommand,
 * load the reference data, run the command, and make sure output was not
 * silently lost. Each command lives in its own cmd_<name>.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cli.h"
#include "export.h"

/* In the order a new user meets them: price, plan, report, explore, feed. */
static const struct cmd_entry *const commands[] = {
    &cmd_init_entry,
    &cmd_compare_entry,
    &cmd_schedule_entry,
    &cmd_fleet_entry,
    &cmd_breakeven_entry,
    &cmd_report_entry,
    &cmd_diff_entry,
    &cmd_fit_entry,
    &cmd_offers_entry,
    &cmd_refresh_entry,
    &cmd_providers_entry,
    &cmd_models_entry,
    &cmd_gpus_entry,
    &cmd_history_entry,
    &cmd_probe_entry,
    NULL,
};

static void print_help(FILE *f)
{
	fprintf(f, "usage: planner COMMAND [OPTIONS]\n\n"
	           "What each AI workload costs on a cloud API, a rented GPU or a GPU you own,\n"
	           "where the curves cross, and a schedule for the month.\n\n"
	           "commands:\n");
	for (size_t i = 0; commands[i]; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	char formats[128];
	fprintf(f,
	        "\n"
	        "options every command takes:\n"
	        "  --db PATH        price database (else $PLANNER_DB, else\n"
	        "                   $XDG_DATA_HOME/planner/prices.db)\n"
	        "  --format F       %s where the command prints data\n"
	        "  --help           the command's own help, with an example\n\n"
	        "exit codes: 0 ok, 1 job or input problem, 2 usage, 3 network/provider,\n"
	        "4 database, 5 system (out of memory, failed write), 6 schedule could not\n"
	        "place every hour (--allow-unplaced: 0)\n\n"
	        "example: planner compare jobs/monthly.yaml\n",
	        export_format_names(EXPORT_DATA, ", ", " or ", false, formats, sizeof formats));
}

static const struct cmd_entry *find_command(const char *name)
{
	for (size_t i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	struct cli c = {.prog = "planner", .format = FORMAT_TABLE};
	int status;
	if (argc < 2) {
		print_help(stderr);
		return PLANNER_EUSAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		print_help(stdout);
		goto flush;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("planner %s\n", PLANNER_VERSION);
		goto flush;
	}
	c.cmd = find_command(argv[1]);
	if (!c.cmd) {
		const char *names[sizeof commands / sizeof commands[0]];
		size_t n = 0;
		for (; commands[n]; n++) /* NULL-terminated: names has room */
			names[n] = commands[n]->name;
		const char *near = nearest_name(argv[1], names, n);
		errorf("unknown command '%s'%s%s%s; see 'planner --help'", argv[1],
		       near ? "; did you mean '" : "", near ? near : "", near ? "'" : "");
		return PLANNER_EUSAGE;
	}
	const char *nc = getenv("NO_COLOR");
	c.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	c.err_tty = isatty(STDERR_FILENO);
	struct winsize ws;
	if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0)
		c.term_width = ws.ws_col;
	char *err = NULL;
	if ((status = refdata_load(&c.ref, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "cannot load reference data");
		free(err);
		return status;
	}
	/* getopt_long permutes from argv[1]: the command sees itself as argv[0].
	 * getopt stays silent: cli_other_option says what is wrong, once. */
	opterr = 0;
	c.argc = argc - 1;
	c.argv = argv + 1;
	status = c.cmd->exec(&c, argc - 1, argv + 1);
	if (status == CLI_HELP_SHOWN)
		status = PLANNER_OK;
	store_close(c.store);
	refdata_free(c.ref);
	free(c.db_path);
	if (status != PLANNER_OK)
		return status;
flush:
	/* A full disk or a closed pipe must not pass silently (jq's habit). */
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		errorf("writing output failed: %s", strerror(errno));
		return PLANNER_ESYS;
	}
	return PLANNER_OK;
}
