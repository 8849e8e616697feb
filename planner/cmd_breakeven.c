/* cmd_breakeven.c — `planner breakeven FILE [-o out.csv]`: one CSV row per
 * job with the monthly cost of each route and where the curves cross,
 * rounded exactly as `compare --format json` rounds them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "plan.h"

/* The column contract (README, man page). Money columns are in the spec's
 * currency, named once in the `currency` column rather than in each
 * header: a header that changed with the spec would break every script
 * that reads the file by column name. */
static const char *const columns[] = {
	"job", "model", "precision", "task", "data", "vram_gib", "gpu_hours_per_month",
	"api_monthly_cost", "api_offer", "rented_monthly_cost", "rented_provider",
	"rented_offer", "rented_gpu", "rented_gpu_count", "rented_price_per_hour",
	"owned_monthly_cost", "owned_gpu", "owned_gpu_count", "owned_already_owned",
	"owned_capex", "best_route", "best_monthly_cost", "owned_vs_rented_breakeven_hours",
	"owned_payback_months", "api_vs_rented_breakeven_mtokens", "currency", "prices_as_of",
	"rented_replicas", "owned_replicas", "best_cost_per_mtok", "owned_payback_note",
};

/* A number rounded as the JSON rounds it; NAN ("never") is an empty cell. */
static void num(FILE *f, double v, int places)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.*f", places, round_to(v, places));
}

static void text(FILE *f, const char *s)
{
	fputc(',', f);
	csv_field(f, s);
}

static void write_row(FILE *f, const struct plan *p, const struct job_result *j)
{
	const struct route_result *api = &j->routes[ROUTE_API];
	const struct route_result *rent = &j->routes[ROUTE_RENTED];
	const struct route_result *own = &j->routes[ROUTE_OWNED];
	csv_field(f, j->job->name);
	text(f, j->job->model_ref);
	text(f, j->job->precision);
	text(f, task_name(j->job->task));
	text(f, data_class_name(j->job->data));
	num(f, j->vram_gib, 2);
	num(f, j->gpu_hours_per_month, 2);
	num(f, api->feasible ? api->monthly_cost : NAN, 2);
	text(f, api->feasible ? api->offer : "");
	num(f, rent->feasible ? rent->monthly_cost : NAN, 2);
	text(f, rent->feasible ? rent->provider : "");
	text(f, rent->feasible ? rent->offer : "");
	text(f, rent->feasible ? rent->gpu->name : "");
	num(f, rent->feasible ? rent->gpu_count : NAN, 0);
	num(f, rent->feasible ? rent->price_per_hour : NAN, 4);
	num(f, own->feasible ? own->monthly_cost : NAN, 2);
	text(f, own->feasible ? own->gpu->name : "");
	num(f, own->feasible ? own->gpu_count : NAN, 0);
	text(f, own->feasible ? (own->already_owned ? "true" : "false") : "");
	num(f, own->feasible ? own->capex : NAN, 2);
	text(f, j->best >= 0 ? route_name((enum route)j->best) : "");
	num(f, j->best >= 0 ? j->routes[j->best].monthly_cost : NAN, 2);
	num(f, j->be.owned_vs_rented_hours, 1);
	num(f, j->be.owned_payback_months, 1);
	/* compare --format json gives whole tokens; this is the same figure
	 * in millions, so six decimals keep every digit. */
	num(f, isfinite(j->be.api_vs_rented_tokens) ? round_to(j->be.api_vs_rented_tokens, 0) / 1e6
						    : NAN,
	    6);
	text(f, p->currency);
	text(f, p->prices_as_of);
	num(f, rent->feasible ? rent->replicas : NAN, 0);
	num(f, own->feasible ? own->replicas : NAN, 0);
	num(f, j->best >= 0 ? j->routes[j->best].cost_per_mtok : NAN, 4);
	/* Why owned_payback_months is empty: "not within 36 months", "never". */
	text(f, j->be.payback_note);
	fputs("\r\n", f);
}

static int write_csv(FILE *f, void *arg)
{
	const struct plan *p = arg;
	for (size_t i = 0; i < sizeof columns / sizeof *columns; i++)
		fprintf(f, "%s%s", i ? "," : "", columns[i]);
	fputs("\r\n", f);
	for (size_t i = 0; i < p->n_jobs; i++)
		write_row(f, p, &p->jobs[i]);
	return PLANNER_OK;
}

static int exec_breakeven(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, CLI_OUTPUT_OPTIONS, CLI_SET_OPTION,
					     {0, 0, 0, 0}};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1)
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	if (c->format == FORMAT_JSON)
		return cli_usage(c, "breakeven writes CSV only; for JSON use 'planner compare "
				    "--format json'");
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	if ((rc = cli_plan(c, argv[optind], &spec, &plan)) != PLANNER_OK)
		return rc;
	rc = cli_write_file(c->out_path, write_csv, plan);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_breakeven_entry = {
	.name = "breakeven",
	.args = "FILE [-o out.csv] [--set KEY=VALUE]... [--db PATH] [--quiet]",
	.summary = "the break-even report as CSV, one row per job",
	.help = "Writes one CSV row (RFC 4180, CRLF line ends, a header row) per job in\n"
		"FILE: the monthly cost of each route, the offer or GPU behind it, the best\n"
		"route, and where the curves cross. Figures are rounded exactly as\n"
		"'planner compare --format json' rounds them, with no thousands separators.\n"
		"Units are in the column names (vram_gib, _hours, _months, _mtokens = millions\n"
		"of tokens a month); money is in the spec's currency, named in the currency\n"
		"column. An empty cell means never (the curves do not cross) or that the\n"
		"route cannot run the job; owned_payback_note says why a payback is empty\n"
		"(\"not within 36 months\": past amortize_months; \"never\").\n\n"
		"  -o, --output FILE  write to FILE instead of standard output\n"
		"  --db PATH          price database (else $PLANNER_DB, else\n"
		"                     $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet            no note about where the prices come from or stale ones\n"
		CLI_SET_HELP "\n"
		"example:\n  planner breakeven jobs/monthly.yaml -o breakeven.csv\n",
	.exec = exec_breakeven,
};
