/* report_summary.c — the report's first screen, for the person who has to
 * decide: the one headline plan, its monthly figure and payback; every
 * other figure of the page named for what it is; compare's plan by route
 * and what each route would cost alone; where rented GPUs and APIs may
 * run; and the decision per job in one sentence each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "horizon.h"
#include "report.h"
#include "util.h"

/* Compare's plan (plan_total), and each route's cost if every job it can
 * run ran there. */
struct totals {
	struct plan_total plan;
	double alone[ROUTE_MAX];
	size_t cannot[ROUTE_MAX]; /* jobs a route cannot run */
};

static void add_up(const struct plan *p, struct totals *t)
{
	memset(t, 0, sizeof *t);
	plan_total(p, &t->plan);
	for (size_t i = 0; i < p->n_jobs; i++)
		for (int k = 0; k < (int)route_count(); k++) {
			if (p->jobs[i].routes[k].feasible)
				t->alone[k] += p->jobs[i].routes[k].monthly_cost;
			else
				t->cannot[k]++;
		}
}

/* "; it buys GPUs for 4800 EUR up front, paying back in 25.5 months
 * against renting" (lead "it buys"), or that it buys none: compare's
 * plan's purchases. */
static void compare_purchases(FILE *f, const struct report_input *in, const struct totals *t,
			      const char *lead)
{
	const struct plan_total *pt = &t->plan;
	double payback = plan_total_payback(pt);
	if (pt->capex <= 0) {
		report_escf(f, "; %s no GPUs", lead);
		return;
	}
	report_escf(f, "; %s GPUs for %.0f %s up front", lead, pt->capex, in->plan->currency);
	if (isfinite(payback))
		report_escf(f, ", paying back in %.1f months against renting", payback);
	if (pt->late)
		report_escf(f, " (%zu purchase%s not within %.0f months)", pt->late,
		            pt->late == 1 ? "" : "s", in->spec->amortize_months);
}

/* Fleet's plan when the spec can buy (a fleet with GPUs to choose among),
 * else NULL: compare's plan is the headline. */
static const struct fleet *headline_fleet(const struct report_input *in)
{
	return in->fleet && in->fleet->n_types > 0 ? in->fleet : NULL;
}

/* The headline of fleet's plan: its purchase, monthly figure and payback
 * as planner fleet gives them. */
static void fleet_headline(FILE *f, const struct report_input *in, const struct fleet *fl)
{
	const char *cur = in->plan->currency;
	const struct fleet_choice *b = fleet_recommended(fl);
	char buy[256], pay[64];
	fleet_purchase_text(in->spec, b, buy, sizeof buy);
	fleet_payback_text(in->spec, fl, b, pay, sizeof pay);
	fputs("The plan: buy <b>", f);
	report_esc(f, buy);
	fputs("</b>", f);
	if (b->capex > 0)
		fprintf(f, " for %.0f %s up front, shared with the GPUs on hand", b->capex, cur);
	fputs(", all the jobs together hour by hour (<a href=\"#fleet\">planner fleet</a>): ", f);
	fprintf(f, "<b id=\"headline-monthly\">%.2f %s a month</b>", b->monthly_total, cur);
	if (b->unplaced_hours > 0) /* work no route could take has no price */
		fprintf(f, " for the work it places (%.1f h no route could take are not priced)",
		        b->unplaced_hours);
	else
		fputs(" with all the work priced", f);
	if (b->capex > 0)
		fputs(", the purchase's capital included", f);
	if (b->capex > 0 && isfinite(fleet_payback(in->spec, b, &fl->none)))
		fprintf(f,
		        "; it pays back in <b id=\"headline-payback\">%s</b> against buying "
		        "nothing",
		        pay);
	else if (b->capex > 0)
		fprintf(f,
		        "; it does not pay back against buying nothing (<b "
		        "id=\"headline-payback\">%s</b>)",
		        pay);
}

/* The headline plan, its monthly figure and payback, once (issue 26: the
 * page gave four figures for one plan): fleet's, all the work priced with
 * the purchases made jointly, when the spec can buy; else compare's. */
static void headline(FILE *f, const struct report_input *in, const struct totals *t)
{
	const struct plan *p = in->plan;
	const struct fleet *fl = headline_fleet(in);
	fputs("<p class=\"headline\" id=\"headline\">", f);
	if (fl) {
		fleet_headline(f, in, fl);
	} else {
		fprintf(f,
		        "The plan: each job on its cheapest route, priced one by one (planner "
		        "compare): <b id=\"headline-monthly\">%.2f %s a month</b>",
		        t->plan.monthly, p->currency);
		compare_purchases(f, in, t, "it buys");
	}
	fputs(".", f);
	if (t->plan.unrunnable)
		fprintf(f, " %zu job%s cannot run on any route.", t->plan.unrunnable,
		        t->plan.unrunnable == 1 ? "" : "s");
	fputs("</p>\n", f);
}

/* Every other figure of the page, each named for what it is. */
static void other_figures(FILE *f, const struct report_input *in, const struct totals *t)
{
	const struct plan *p = in->plan;
	const struct jobspec *spec = in->spec;
	fputs("<p>Other figures on this page, each labelled as what it is: ", f);
	if (headline_fleet(in)) {
		fprintf(f,
		        "<b>jobs priced one by one</b> (planner compare, the table below: each job "
		        "on its cheapest route alone, <span id=\"compare-monthly\">%.2f</span> %s a "
		        "month",
		        t->plan.monthly, p->currency);
		compare_purchases(f, in, t, "buying");
		fputs("); ", f);
	} else {
		fputs("<b>jobs priced one by one</b> (the table below, by route); ", f);
	}
	fputs("<b>the month as scheduled</b> (<a href=\"#month\">the month</a>: each job "
	      "inside its windows, power, rentals and API calls, before any purchase's "
	      "capital)",
	      f);
	struct horizon_plan h;
	char *err = NULL;
	if (horizon_plan(spec, p, &h, &err) == PLANNER_OK) {
		fprintf(f,
		        "; <b>cash over the horizon</b> (<a href=\"#horizon\">%d months</a>, growth "
		        "applied, each job's own purchase paid when made: %.0f %s in all)",
		        h.months, h.with_buy[h.months - 1], p->currency);
		horizon_plan_free(&h);
	}
	free(err);
	fputs(". Rented GPUs and API hosts: ", f);
	if (spec->n_regions) {
		fputs("only in ", f);
		for (size_t i = 0; i < spec->n_regions; i++) {
			fputs(i ? ", " : "", f);
			report_esc(f, spec->regions[i]);
		}
		fputs(" (the spec's regions).", f);
	} else {
		fputs("any region.", f);
	}
	fputs("</p>\n", f);
}

static void totals_table(FILE *f, const struct plan *p, const struct totals *t)
{
	fprintf(f,
	        "<table class=\"totals\">\n<tr><th>route</th>"
	        "<th class=\"num\">jobs priced one by one, each on its cheapest route "
	        "(%s/month)</th>"
	        "<th class=\"num\">every job it can run on it alone (%s/month)</th>"
	        "<th>jobs it cannot run</th></tr>\n",
	        p->currency, p->currency);
	for (int k = 0; k < (int)route_count(); k++)
		fprintf(f,
		        "<tr><td>%s</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f</td>"
		        "<td class=\"num\">%zu</td></tr>\n",
		        route_name((enum route)k), t->plan.by_route[k], t->alone[k], t->cannot[k]);
	fprintf(f,
	        "<tr><th>total, jobs priced one by one</th><th class=\"num\">%.2f</th><th></th>"
	        "<th></th></tr>\n</table>\n",
	        t->plan.monthly);
}

/* One sentence: what to do for job j. */
static void decision(FILE *f, const struct plan *p, const struct job_result *j)
{
	if (j->best < 0) {
		fputs("no route can run it", f);
		return;
	}
	const struct route_ops *ops = route_at((size_t)j->best);
	char buf[1024];
	if (ops->summary)
		ops->summary(buf, sizeof buf, j, p->currency);
	else
		snprintf(buf, sizeof buf, "use the %s route: %s", ops->name, j->routes[j->best].offer);
	report_esc(f, buf);
}

static void decisions_table(FILE *f, const struct plan *p)
{
	fprintf(f,
	        "<table class=\"summary\">\n<tr><th>job</th><th>model</th><th>best route</th>"
	        "<th class=\"num\">monthly cost (%s)</th><th>decision</th><th>next-best route</th>"
	        "<th class=\"num\">savings vs next best (%s/month)</th></tr>\n",
	        p->currency, p->currency);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		int next = -1;
		for (int k = 0; k < (int)route_count(); k++)
			if (k != j->best && j->routes[k].feasible &&
			    (next < 0 || j->routes[k].monthly_cost < j->routes[next].monthly_cost))
				next = k;
		fprintf(f, "<tr><td><a href=\"#job%zu\">", i);
		report_esc(f, j->job->name);
		fputs("</a></td><td>", f);
		report_escf(f, "%s %s", j->job->model_ref, j->job->precision);
		if (j->best < 0) {
			fputs(
			    "</td><td>none</td><td class=\"num\">-</td><td>no route can run it</td>"
			    "<td>-</td><td class=\"num\">-</td></tr>\n",
			    f);
			continue;
		}
		double best = j->routes[j->best].monthly_cost;
		fprintf(f, "</td><td class=\"best\">%s</td><td class=\"num\">%.2f</td><td>",
		        route_name((enum route)j->best), best);
		decision(f, p, j);
		fputs("</td>", f);
		if (next < 0)
			fputs("<td class=\"muted\">no other route can run it</td>"
			      "<td class=\"num\">-</td></tr>\n",
			      f);
		else
			fprintf(f, "<td>%s (%.2f)</td><td class=\"num\">%.2f</td></tr>\n",
			        route_name((enum route)next), j->routes[next].monthly_cost,
			        j->routes[next].monthly_cost - best);
	}
	fputs("</table>\n", f);
}

void report_summary(FILE *f, const struct report_input *in)
{
	struct totals t;
	add_up(in->plan, &t);
	fputs("<h2 id=\"summary\">Summary</h2>\n", f);
	headline(f, in, &t);
	other_figures(f, in, &t);
	totals_table(f, in->plan, &t);
	decisions_table(f, in->plan);
	report_horizon(f, in);
}
