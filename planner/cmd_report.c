/* cmd_report.c — `planner report FILE -o report.html`: gathers the plan,
 * the cheapest fitting offers per job and the price history, and has
 * report.c write one self-contained HTML file. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "fx.h"
#include "history.h"
#include "plan.h"
#include "report.h"

/* Offers kept per job: the report shows the first few. */
#define OFFERS_PER_JOB 5

/* The offers the job may rent and fits on, by the rules compare prices its
 * rented route with (workload.h). Keeps the cheapest OFFERS_PER_JOB of all
 * (sorted cheapest first). */
static size_t fitting_offers(const struct cli *c, const struct job_result *j,
                             const struct offer *all, size_t n, struct offer *keep)
{
	size_t k = 0;
	if (!workload_route_allowed(&j->work, ROUTE_RENTED, NULL, 0))
		return 0;
	for (size_t i = 0; i < n && k < OFFERS_PER_JOB; i++) {
		struct gpu_spec sized;
		if (workload_offer_gpu(&j->work, c->ref, &all[i], &sized) &&
		    workload_fits(&j->work, &sized, all[i].gpu_count))
			keep[k++] = all[i];
	}
	return k;
}

/* What write_report needs, for cli_write_file. */
struct report_args {
	struct cli *c;
	const struct jobspec *spec;
	const struct plan *plan;
	const struct fleet *fleet;
	const char *fleet_note;
	const struct schedule *month;
	const char *month_note;
};

/* The fleet planner fleet proposes and the month planner schedule lays
 * out, by the same calls (fleet_plan, schedule_month). A spec they cannot
 * take (no buy: list, a job no route can run) leaves a note instead of
 * the section; any other failure fails the report. */
static int gather_month(struct report_args *a, int year, int month, struct fleet **fl,
			struct schedule **sched, char **fleet_err, char **month_err)
{
	int rc = fleet_plan(a->spec, a->plan, year, month, fl, fleet_err);
	if (rc != PLANNER_OK && rc != PLANNER_EINPUT) {
		errorf("%s", *fleet_err ? *fleet_err : "cannot plan the fleet");
		return rc;
	}
	rc = schedule_month(a->spec, a->plan, year, month, 0, sched, month_err);
	if (rc != PLANNER_OK && rc != PLANNER_EINPUT) {
		errorf("%s", *month_err ? *month_err : "cannot schedule the month");
		return rc;
	}
	a->fleet = *fl;
	a->fleet_note = *fleet_err;
	a->month = *sched;
	a->month_note = *month_err;
	return PLANNER_OK;
}

static int write_report(FILE *f, void *arg)
{
	const struct report_args *a = arg;
	struct cli *c = a->c;
	const struct jobspec *spec = a->spec;
	const struct plan *plan = a->plan;
	struct store *st = c->store; /* opened by cli_plan */
	struct offer *all = NULL, **offers = NULL;
	size_t n_all = 0, *n_offers = NULL, n_curves = 0;
	struct history_curve *curves = NULL;
	char *err = NULL, now[24];
	struct offer_filter any = {.spot = -1, .available_only = true};
	char hist_fx[256] = "";
	size_t hist_dropped = 0;
	int rc = store_offers(st, &any, &all, &n_all, &err);
	if (rc == PLANNER_OK) {
		/* In the plan's currency with the plan's rates, cheapest first. */
		struct plan scratch = {0};
		snprintf(scratch.currency, sizeof scratch.currency, "%s", plan->currency);
		plan_convert_offers(spec, c->ref, &scratch, all, &n_all);
		fx_sort_offers(all, n_all);
		/* History in USD (the report scales it by the spec's rate, as
		 * compare), folded as the rows stream (issue 16). */
		rc = history_load(st, NULL, NULL, c->ref->fx, "USD", hist_fx, sizeof hist_fx,
		                  &hist_dropped, &curves, &n_curves, &err);
	}
	if (rc != PLANNER_OK)
		goto out;
	offers = calloc(plan->n_jobs + 1, sizeof *offers);
	n_offers = calloc(plan->n_jobs + 1, sizeof *n_offers);
	if (!offers || !n_offers) {
		rc = set_err(&err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < plan->n_jobs; i++) {
		if (!(offers[i] = calloc(OFFERS_PER_JOB, sizeof **offers))) {
			rc = set_err(&err, PLANNER_ESYS, "out of memory");
			goto out;
		}
		n_offers[i] = fitting_offers(c, &plan->jobs[i], all, n_all, offers[i]);
	}
	iso_written(now, sizeof now);
	struct report_input in = {.spec = spec, .plan = plan, .offers = offers,
				  .n_offers = n_offers, .history = curves, .n_history = n_curves,
				  .generated_at = now, .history_fx = hist_fx, .fleet = a->fleet,
				  .fleet_note = a->fleet_note, .month = a->month,
				  .month_note = a->month_note};
	rc = report_write_html(f, &in, &err);
out:
	if (rc != PLANNER_OK)
		errorf("%s", err ? err : "cannot write the report");
	for (size_t i = 0; offers && i < plan->n_jobs; i++)
		free(offers[i]);
	free(offers);
	free(n_offers);
	history_curves_free(curves, n_curves);
	free(all);
	free(err);
	return rc;
}

static int exec_report(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, CLI_OUTPUT_OPTIONS, CLI_SET_OPTION,
					     CLI_ALONE_OPTION,
					     {"month", required_argument, NULL, 'm'},
					     {0, 0, 0, 0}};
	int opt, rc, year = 0, month = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "ho:q", opts, NULL)) != -1) {
		if (opt == 'm') {
			if (!cli_parse_month(optarg, &year, &month))
				return cli_usage(c, "--month '%s' is not YYYY-MM, e.g. 2026-03",
						 optarg);
			continue;
		}
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	const char *out_path = c->out_path;
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	if (!out_path)
		return cli_usage(c, "give the output file with -o report.html");
	if (!year) /* next month, as planner schedule */
		cli_next_month(&year, &month);
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	struct fleet *fl = NULL;
	struct schedule *sched = NULL;
	char *fleet_err = NULL, *month_err = NULL;
	c->share_owned = true;
	if ((rc = cli_plan(c, argv[optind], &spec, &plan)) != PLANNER_OK)
		return rc;
	struct report_args args = {.c = c, .spec = spec, .plan = plan};
	rc = gather_month(&args, year, month, &fl, &sched, &fleet_err, &month_err);
	if (rc == PLANNER_OK)
		rc = cli_write_file(out_path, write_report, &args);
	if (rc == PLANNER_OK && !c->quiet)
		notef("wrote %s", out_path);
	free(fleet_err);
	free(month_err);
	fleet_free(fl);
	schedule_free(sched);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_report_entry = {
	.name = "report",
	.args = "FILE -o report.html [--month YYYY-MM] [--set KEY=VALUE]... [--each-alone] "
		"[--db PATH] [--quiet]",
	.summary = "an HTML report with cost-curve charts, to open or e-mail",
	.help = "Writes one self-contained HTML file (no scripts, fonts or images from\n"
		"elsewhere; the charts are inline SVG) for the jobs in FILE, titled by the\n"
		"spec's name: (else the file's name): one headline plan, its monthly figure\n"
		"and payback stated once (the fleet 'planner fleet' proposes when the spec\n"
		"can buy, else compare's total), every other figure named for what it is\n"
		"(jobs priced one by one, the month as scheduled, cash over the horizon);\n"
		"the best route per job and what it saves against the next best; per job a\n"
		"chart of monthly cost against hours per month (0 to 744) for the api,\n"
		"rented and owned routes with the break-even points and the current use\n"
		"marked, and the cheapest rentable offers that fit; the fleet 'planner fleet'\n"
		"proposes (purchase, capex, monthly bill by route, payback) beside buying\n"
		"nothing and one purchase per job; the month 'planner schedule --fleet' lays\n"
		"out on that fleet (without a buy: list, 'planner schedule' on the owned GPUs;\n"
		"per job: hours needed, on owned, rented, api, cost, unplaced; totals); the\n"
		"date of the prices; and price-history charts for GPUs with more than one\n"
		"price point.\n\n"
		"  -o, --output FILE  the HTML file to write (required)\n"
		"  --month YYYY-MM    the month of the fleet and the schedule (default: next\n"
		"                     month)\n"
		"  --db PATH          price database (else $PLANNER_DB, else\n"
		"                     $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet            no notes on stderr\n"
		CLI_SET_HELP CLI_ALONE_HELP "\n"
		"example:\n  planner report jobs/monthly.yaml -o report.html && xdg-open report.html\n",
	.exec = exec_report,
};
