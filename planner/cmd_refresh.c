/* cmd_refresh.c — `planner refresh`: live prices into the database, made
 * for a nightly cron: silent with --quiet unless something failed, exit 3
 * and one line per failed provider when one did. */
#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "refresh.h"

/* What the progress callbacks print to. */
struct progress {
	struct cli *c;
	bool tty;   /* stdout is a terminal: a "…" line, overwritten when done */
	bool quiet; /* nothing on stdout */
};

static void on_start(void *ud, const struct provider *p)
{
	struct progress *pr = ud;
	if (pr->tty && !pr->quiet && pr->c->format == FORMAT_TABLE) {
		printf("%-11s …", p->name);
		fflush(stdout);
	}
}

static void on_done(void *ud, const struct refresh_result *r)
{
	struct progress *pr = ud;
	if (pr->quiet || pr->c->format != FORMAT_TABLE)
		return;
	const char *what = r->p->kind == PROVIDER_API  ? "prices"
	                   : r->p->kind == PROVIDER_FX ? "rates"
	                                               : "offers";
	if (pr->tty)
		printf("\r");
	switch (r->status) {
	case REFRESH_OK:
		printf("%-11s ok       %6ld %-6s %5.1f s", r->p->name, r->rows, what, r->seconds);
		if (r->unknown_rows)
			printf("  (%zu row%s with unknown GPUs%s)", r->unknown_rows,
			       r->unknown_rows == 1 ? "" : "s",
			       pr->c->verbose ? "" : "; --verbose names them");
		if (r->skipped_rows)
			printf("  (%zu left out: free, duplicate or malformed)", r->skipped_rows);
		if (r->implausible_rows)
			printf("  (%zu implausible: over %d GPUs or outside the price bounds)",
			       r->implausible_rows, NORM_MAX_GPUS_PER_OFFER);
		break;
	case REFRESH_FAILED:
		printf("%-11s failed   %6ld %-6s kept", r->p->name, r->rows, what);
		break;
	case REFRESH_SKIPPED:
		printf("%-11s skipped  %s", r->p->name, r->message ? r->message : "");
		break;
	case REFRESH_FRESH:
		printf("%-11s fresh    %6ld %-6s from %s", r->p->name, r->rows, what, r->last_good);
		break;
	}
	printf("\n");
	fflush(stdout);
}

static int print_json(const struct refresh_result *res, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		const struct refresh_result *r = &res[i];
		cJSON *x = cJSON_CreateObject();
		cJSON_AddStringToObject(x, "provider", r->p->name);
		cJSON_AddStringToObject(x, "status", refresh_status_name(r->status));
		cJSON_AddNumberToObject(x, "rows", (double)r->rows);
		cJSON_AddNumberToObject(x, "http_status", (double)r->http_status);
		cJSON_AddNumberToObject(x, "seconds", round_to(r->seconds, 3));
		if (r->last_good[0])
			cJSON_AddStringToObject(x, "last_good", r->last_good);
		else
			cJSON_AddNullToObject(x, "last_good");
		if (r->message)
			cJSON_AddStringToObject(x, "message", r->message);
		cJSON_AddNumberToObject(x, "unknown_gpu_rows", (double)r->unknown_rows);
		cJSON_AddNumberToObject(x, "skipped_rows", (double)r->skipped_rows);
		cJSON_AddNumberToObject(x, "implausible_rows", (double)r->implausible_rows);
		cJSON *u = cJSON_AddArrayToObject(x, "unknown_gpus");
		for (size_t k = 0; k < r->n_unknown; k++)
			cJSON_AddItemToArray(u, cJSON_CreateString(r->unknown[k]));
		cJSON_AddItemToArray(arr, x);
	}
	return cli_print_json(arr);
}

/* The exit status for a failed provider's code, given the status so far:
 * a system error (out of memory) outranks a database that cannot be
 * written, which outranks a feed that failed: the next refresh would fail
 * the same way. */
static int worse(int rc, int code)
{
	if (code == PLANNER_ESYS || rc == PLANNER_ESYS)
		return PLANNER_ESYS;
	if (code == PLANNER_EDB || rc == PLANNER_EDB)
		return PLANNER_EDB;
	return PLANNER_ENET;
}

/* Says on stderr what failed, was skipped or named unknown GPUs; returns
 * the exit status the results give (rc so far). */
static int report_results(const struct cli *c, const struct refresh_result *res, size_t n, int rc)
{
	for (size_t i = 0; i < n; i++) {
		const struct refresh_result *r = &res[i];
		if (r->status == REFRESH_FAILED) {
			if (r->last_good[0])
				errorf("%s: %s; keeping %ld rows from %s", r->p->name, r->message,
				       r->rows, r->last_good);
			else
				errorf("%s: %s", r->p->name, r->message);
			rc = worse(rc, r->code);
		} else if (r->status == REFRESH_SKIPPED && !c->quiet) {
			notef("%s skipped: %s", r->p->name, r->message);
		}
		if (c->verbose && r->n_unknown) {
			char line[1024] = "";
			size_t used = 0;
			for (size_t k = 0; k < r->n_unknown && used < sizeof line; k++)
				used += (size_t)snprintf(line + used, sizeof line - used, "%s%s",
				                         k ? "; " : "", r->unknown[k]);
			notef("%s: %zu row%s name GPUs no alias matches: %s", r->p->name,
			      r->unknown_rows, r->unknown_rows == 1 ? "" : "s", line);
		}
	}
	return rc;
}

/* The longest --timeout: a day. */
#define REFRESH_MAX_TIMEOUT_S 86400

/* --timeout: whole seconds ("600"), or a duration with a unit ("15m"). */
static bool parse_timeout(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	double d = (double)v;
	if (end == s || errno || *end) {
		size_t n = strlen(s);
		if (!n || isdigit((unsigned char)s[n - 1]) || !parse_duration(s, &d))
			return false;
	}
	if (!(d >= 1 && d <= REFRESH_MAX_TIMEOUT_S))
		return false;
	*out = (long)d;
	return true;
}

/* Reads the options into ro and pr; returns 0 to go on, else the exit
 * status. */
static int parse_args(struct cli *c, int argc, char **argv, struct refresh_opts *ro,
                      struct progress *pr, struct provider_option *aws_regions)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
	                                     {"provider", required_argument, NULL, 'p'},
	                                     {"quiet", no_argument, NULL, 'q'},
	                                     {"if-older-than", required_argument, NULL, 'o'},
	                                     {"aws-regions", required_argument, NULL, 'r'},
	                                     {"timeout", required_argument, NULL, 't'},
	                                     {0, 0, 0, 0}};
	char *err = NULL;
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		switch (opt) {
		case 'p':
			ro->providers = optarg;
			break;
		case 'q':
			pr->quiet = c->quiet = true;
			break;
		case 'o':
			if (!parse_duration(optarg, &ro->if_older_than_s) ||
			    ro->if_older_than_s <= 0)
				return cli_usage(
				    c, "--if-older-than wants a duration, e.g. 20h, 90m, 2d");
			break;
		case 'r':
			aws_regions->value = optarg;
			break;
		case 't':
			if (!parse_timeout(optarg, &ro->timeout_s))
				return cli_usage(c, "--timeout wants seconds from 1 to %d (or 90s, "
				                    "15m, 1h)",
				                 REFRESH_MAX_TIMEOUT_S);
			break;
		default:
			if ((rc = cli_other_option(c, opt, optarg)))
				return rc;
		}
	}
	if (optind != argc)
		return cli_usage(c, "unexpected argument '%s'", argv[optind]);
	if ((rc = refresh_check_providers(ro->providers, &err)) != PLANNER_OK) {
		if (rc == PLANNER_ESYS || !err) { /* !err: the message could not be made */
			errorf("%s", err ? err : "out of memory");
			free(err);
			return PLANNER_ESYS;
		}
		rc = cli_usage(c, "%s", err);
		free(err);
		return rc;
	}
	return 0;
}

/* The --help text: the adapters and their key variables come from
 * provider_list, so a new adapter's row is all it takes to be named here;
 * describe() writes it before anything can print it. */
static char refresh_help[4096];

/* The column the help's own text is filled to, as its hand-written
 * paragraphs are. */
#define HELP_WIDTH 74
/* "  --provider a,b       ": where an option's text starts. */
#define HELP_INDENT 23

#define HELP_HEAD                                                                                  \
	"Fetches each provider's prices and replaces its rows in one transaction. A\n"             \
	"provider that fails keeps its previous rows, marked stale; the others\n"                  \
	"still refresh. Exit status 3 when any provider failed, 4 when the\n"                      \
	"database could not be written, 5 on a system error (out of memory, a\n"                   \
	"failed write). Last, the step ecb stores the ECB's daily euro reference\n"               \
	"rates that fx: auto converts with (--provider ecb runs only it).\n\n"
#define HELP_STR2(x) #x
#define HELP_STR(x) HELP_STR2(x)
#define HELP_OPTIONS                                                                               \
	"  --quiet              print nothing unless a provider failed (for cron)\n"               \
	"  --if-older-than D    leave providers refreshed within D (20h, 90m, 2d)\n"               \
	"  --aws-regions r1,r2  AWS price lists to read (else $PLANNER_AWS_REGIONS)\n"             \
	"  --timeout SECONDS    one deadline per provider for all its requests,\n"                \
	"                       retries, pages and regions (default "                          \
	HELP_STR(REFRESH_DEFAULT_TIMEOUT_S) "; 15m works);\n"                                    \
	"                       past it the provider fails and keeps its rows\n"                 \
	"  --format json        the results as JSON\n\n"
#define HELP_URL                                                                                   \
	"a provider whose key is missing is skipped. PLANNER_<NAME>_URL replaces a "               \
	"provider's scheme, host and port (e.g. PLANNER_VAST_URL=http://127.0.0.1:8123)."
#define HELP_TAIL                                                                                  \
	"\nexample (crontab):\n"                                                                   \
	"  17 3 * * *  planner refresh --quiet --if-older-than 20h\n"

static void describe(void)
{
	char all[512], needed[512], optional[512], text[2048];
	provider_names(PROVIDER_PICK_ALL, all, sizeof all);
	provider_names(PROVIDER_PICK_KEY_NEEDED, needed, sizeof needed);
	provider_names(PROVIDER_PICK_KEY_OPTIONAL, optional, sizeof optional);
	snprintf(refresh_help, sizeof refresh_help, "%s  --provider a,b       ", HELP_HEAD);
	snprintf(text, sizeof text,
	         "only these (%s); scaleway, ovhcloud and mistral also run litellm, the "
	         "feed of their API prices",
	         all);
	cli_fill(refresh_help, sizeof refresh_help, HELP_INDENT, HELP_INDENT, HELP_WIDTH, text);
	size_t n = strlen(refresh_help);
	snprintf(refresh_help + n, sizeof refresh_help - n, "%s", HELP_OPTIONS);
	snprintf(text, sizeof text, "%s%s%s%s%s%s%s%s",
	         *needed || *optional ? "keys come from " : "", needed, *needed ? " (needed)" : "",
	         *needed && *optional ? " and " : "", optional, *optional ? " (optional)" : "",
	         *needed || *optional ? "; " : "", HELP_URL);
	cli_fill(refresh_help, sizeof refresh_help, 0, 0, HELP_WIDTH, text);
	n = strlen(refresh_help);
	snprintf(refresh_help + n, sizeof refresh_help - n, "%s", HELP_TAIL);
}

static int exec_refresh(struct cli *c, int argc, char **argv)
{
	/* --aws-regions: the aws adapter reads it as its "regions". */
	struct provider_option aws_regions = {.provider = "aws", .name = "regions"};
	struct refresh_opts ro = {.lock_wait_ms = -1, .options = &aws_regions, .n_options = 1};
	struct progress pr = {.c = c, .tty = isatty(STDOUT_FILENO)};
	char *err = NULL;
	int rc;
	describe();
	if ((rc = parse_args(c, argc, argv, &ro, &pr, &aws_regions)))
		return rc;
	struct store *st = cli_store(c, &rc);
	if (!st)
		return rc;
	ro.on_start = on_start;
	ro.on_done = on_done;
	ro.ud = &pr;
	struct refresh_result *res = NULL;
	size_t n = 0;
	if ((rc = refresh_run(st, c->ref, &ro, &res, &n, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "refresh failed");
		free(err);
		return rc;
	}
	if (c->format == FORMAT_JSON)
		rc = print_json(res, n);
	rc = report_results(c, res, n, rc);
	refresh_results_free(res, n);
	return rc;
}

const struct cmd_entry cmd_refresh_entry = {
    .name = "refresh",
    .args = "[--provider a,b] [--quiet] [--if-older-than DURATION] [--aws-regions r1,r2] "
            "[--timeout SECONDS]",
    .summary = "fetch live prices from every provider into the database",
    .help = refresh_help,
    .exec = exec_refresh,
};
