/* report_summary.c — the report's first screen, for the person who has to
 * decide: what the chosen plan costs a month in all and by route, what
 * it would cost on each route alone, what must be bought and when that
 * pays back, where rented GPUs and APIs may run, and the decision per
 * job in one sentence each. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "horizon.h"
#include "report.h"
#include "util.h"

/* Sum of monthly costs: the chosen plan's by route, and each route's if
 * every job it can run ran there. */
struct totals {
	double chosen[ROUTE_MAX], chosen_all;
	double alone[ROUTE_MAX];
	size_t cannot[ROUTE_MAX]; /* jobs a route cannot run */
	size_t chosen_jobs[ROUTE_MAX];
	double capex, saving; /* purchases the plan makes; what they save a month */
	size_t late;          /* purchases that do not pay back within amortize_months */
	size_t unrunnable;
};

static void add_up(const struct plan *p, struct totals *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		for (int k = 0; k < (int)route_count(); k++) {
			if (j->routes[k].feasible)
				t->alone[k] += j->routes[k].monthly_cost;
			else
				t->cannot[k]++;
		}
		if (j->best < 0) {
			t->unrunnable++;
			continue;
		}
		const struct route_result *b = &j->routes[j->best];
		t->chosen[j->best] += b->monthly_cost;
		t->chosen_jobs[j->best]++;
		t->chosen_all += b->monthly_cost;
		/* A purchase pays back against renting (the owned route's pair). */
		bool buys = route_has((enum route)j->best, ROUTE_HAS_CAPEX) && !b->already_owned;
		double payback = j->be.value[BREAKEVEN_OWNED_PAYBACK];
		if (buys && b->capex > 0 && isfinite(payback) && payback > 0) {
			t->capex += b->capex;
			t->saving += b->capex / payback;
		} else if (buys) {
			t->capex += b->capex;
			t->late += j->be.note[BREAKEVEN_OWNED_PAYBACK][0] != '\0';
		}
	}
}

static void headline(FILE *f, const struct report_input *in, const struct totals *t)
{
	const struct plan *p = in->plan;
	const struct jobspec *spec = in->spec;
	fputs("<p class=\"headline\">", f);
	fprintf(f, "The cheapest plan costs <b>%.2f %s a month</b>: ", t->chosen_all, p->currency);
	for (int k = 0; k < (int)route_count(); k++)
		fprintf(f, "%s%s %.2f (%zu job%s)", k ? ", " : "", route_name((enum route)k),
		        t->chosen[k], t->chosen_jobs[k], t->chosen_jobs[k] == 1 ? "" : "s");
	fputs(".", f);
	if (t->unrunnable)
		fprintf(f, " %zu job%s cannot run on any route.", t->unrunnable,
		        t->unrunnable == 1 ? "" : "s");
	fputs("</p>\n<p class=\"headline\">", f);
	if (t->capex > 0) {
		fprintf(f,
		        "It buys GPUs for <b>%.0f %s up front</b> (capex, counted above as its "
		        "capital cost a month over %.0f months)",
		        t->capex, p->currency, spec->amortize_months);
		if (t->saving > 0)
			fprintf(f, "; they pay back in <b>%.1f months</b> against renting",
			        t->capex / t->saving);
		if (t->late)
			fprintf(f, "; %zu purchase%s do%s not pay back within %.0f months", t->late,
			        t->late == 1 ? "" : "s", t->late == 1 ? "es" : "", spec->amortize_months);
		fputs(".", f);
	} else {
		fputs("It buys no GPUs (capex 0).", f);
	}
	/* The whole horizon in cash, growth applied (horizon.c): the purchase
	 * is in it once. */
	struct horizon_plan h;
	char *err = NULL;
	if (horizon_plan(spec, p, &h, &err) == PLANNER_OK) {
		fprintf(f,
		        " Over the %d-month horizon the plan costs <b>%.0f %s</b> in all, %.0f of it "
		        "paid up front.",
		        h.months, h.with_buy[h.months - 1], p->currency, h.capex);
		horizon_plan_free(&h);
	}
	free(err);
	fputs(" Rented GPUs and API hosts: ", f);
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
	fputs(" What to buy for all the jobs together is under <a href=\"#fleet\">the "
	      "fleet</a>; the month on it (or, without a fleet, on the owned GPUs), job by job, "
	      "under <a href=\"#month\">the month</a>.</p>\n",
	      f);
}

static void totals_table(FILE *f, const struct plan *p, const struct totals *t)
{
	fprintf(f,
	        "<table class=\"totals\">\n<tr><th>route</th>"
	        "<th class=\"num\">in the cheapest plan (%s/month)</th>"
	        "<th class=\"num\">every job it can run on it alone (%s/month)</th>"
	        "<th>jobs it cannot run</th></tr>\n",
	        p->currency, p->currency);
	for (int k = 0; k < (int)route_count(); k++)
		fprintf(f,
		        "<tr><td>%s</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f</td>"
		        "<td class=\"num\">%zu</td></tr>\n",
		        route_name((enum route)k), t->chosen[k], t->alone[k], t->cannot[k]);
	fprintf(f,
	        "<tr><th>total</th><th class=\"num\">%.2f</th><th></th><th></th></tr>\n"
	        "</table>\n",
	        t->chosen_all);
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
	totals_table(f, in->plan, &t);
	decisions_table(f, in->plan);
	report_horizon(f, in);
}
