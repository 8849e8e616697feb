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

/* The column contract (README, man page): the job's columns, each
 * route's head cells (route_ops.csv_head, "<route>_<field>"), the best
 * route, each break-even figure, the prices' currency and date, each
 * route's tail cells, the best cost per Mtok and the figures' notes.
 * Money columns are in the spec's currency, named once in the `currency`
 * column rather than in each header: a header that changed with the spec
 * would break every script that reads the file by column name. */
static const char *const job_columns[] = {
	"job", "model", "precision", "task", "data", "vram_gib", "gpu_hours_per_month",
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

/* One route's cell of field k: empty when the route cannot run the job. */
static void field(FILE *f, const struct route_result *r, enum route_field k)
{
	bool ok = r->feasible;
	switch (k) {
	case ROUTE_FIELD_MONTHLY_COST: num(f, ok ? r->monthly_cost : NAN, 2); break;
	case ROUTE_FIELD_PROVIDER: text(f, ok ? r->provider : ""); break;
	case ROUTE_FIELD_OFFER: text(f, ok ? r->offer : ""); break;
	case ROUTE_FIELD_GPU: text(f, ok && r->gpu ? r->gpu->name : ""); break;
	case ROUTE_FIELD_GPU_COUNT: num(f, ok ? r->gpu_count : NAN, 0); break;
	case ROUTE_FIELD_PRICE: num(f, ok ? r->price_per_hour : NAN, 4); break;
	case ROUTE_FIELD_ALREADY_OWNED:
		text(f, ok ? (r->already_owned ? "true" : "false") : "");
		break;
	case ROUTE_FIELD_CAPEX: num(f, ok ? r->capex : NAN, 2); break;
	case ROUTE_FIELD_REPLICAS: num(f, ok ? r->replicas : NAN, 0); break;
	case ROUTE_FIELD_END: break;
	}
}

/* Every route's cells of its list (head, or tail), or their names when
 * j is NULL. */
static void route_cells(FILE *f, const struct job_result *j, bool tail)
{
	for (size_t k = 0; k < route_count(); k++) {
		const struct route_ops *ops = route_at(k);
		const enum route_field *l = tail ? ops->csv_tail : ops->csv_head;
		for (; l && *l != ROUTE_FIELD_END; l++) {
			if (j)
				field(f, &j->routes[k], *l);
			else
				fprintf(f, ",%s_%s", ops->name, route_field_name(*l));
		}
	}
}

static void write_header(FILE *f)
{
	for (size_t i = 0; i < sizeof job_columns / sizeof *job_columns; i++)
		fprintf(f, "%s%s", i ? "," : "", job_columns[i]);
	route_cells(f, NULL, false);
	fputs(",best_route,best_monthly_cost", f);
	for (size_t i = 0; i < breakeven_count(); i++)
		fprintf(f, ",%s", breakeven_at(i)->csv_column);
	fputs(",currency,prices_as_of", f);
	route_cells(f, NULL, true);
	fputs(",best_cost_per_mtok", f);
	for (size_t i = 0; i < breakeven_count(); i++)
		if (breakeven_at(i)->csv_note_column)
			fprintf(f, ",%s", breakeven_at(i)->csv_note_column);
	fputs("\r\n", f);
}

static void write_row(FILE *f, const struct plan *p, const struct job_result *j)
{
	csv_field(f, j->job->name);
	text(f, j->job->model_ref);
	text(f, j->job->precision);
	text(f, task_name(j->job->task));
	text(f, data_class_name(j->job->data));
	num(f, j->vram_gib, 2);
	num(f, j->gpu_hours_per_month, 2);
	route_cells(f, j, false);
	text(f, j->best >= 0 ? route_name((enum route)j->best) : "");
	num(f, j->best >= 0 ? j->routes[j->best].monthly_cost : NAN, 2);
	for (size_t i = 0; i < breakeven_count(); i++) {
		const struct breakeven_pair *bp = breakeven_at(i);
		double v = j->be.value[i];
		if (bp->csv_unit != 1 && isfinite(v))
			v = round_to(v, bp->json_places) / bp->csv_unit;
		num(f, v, bp->csv_places);
	}
	text(f, p->currency);
	text(f, p->prices_as_of);
	route_cells(f, j, true);
	num(f, j->best >= 0 ? j->routes[j->best].cost_per_mtok : NAN, 4);
	/* Why a figure is empty: "not within 36 months", "never". */
	for (size_t i = 0; i < breakeven_count(); i++)
		if (breakeven_at(i)->csv_note_column)
			text(f, j->be.note[i]);
	fputs("\r\n", f);
}

static int write_csv(FILE *f, void *arg)
{
	const struct plan *p = arg;
	write_header(f);
	for (size_t i = 0; i < p->n_jobs; i++)
		write_row(f, p, &p->jobs[i]);
	return PLANNER_OK;
}

static int exec_breakeven(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, CLI_OUTPUT_OPTIONS, CLI_SET_OPTION,
					     CLI_ALONE_OPTION,
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
	c->share_owned = true;
	if ((rc = cli_plan(c, argv[optind], &spec, &plan)) != PLANNER_OK)
		return rc;
	rc = cli_write_file(c->out_path, write_csv, plan);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_breakeven_entry = {
	.name = "breakeven",
	.args = "FILE [-o out.csv] [--set KEY=VALUE]... [--each-alone] [--db PATH] [--quiet]",
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
		CLI_SET_HELP CLI_ALONE_HELP "\n"
		"example:\n  planner breakeven jobs/monthly.yaml -o breakeven.csv\n",
	.exec = exec_breakeven,
};
