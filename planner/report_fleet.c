/* report_fleet.c — the report's fleet and month sections: the purchase
 * `planner fleet` proposes (fleet_plan, fleet.h) beside buying nothing and
 * one purchase per job, and the month `planner schedule --fleet` lays out
 * on the recommended fleet (or, without a fleet, `planner schedule` on the
 * owned GPUs; schedule_month, schedule.h), per job and in total. The
 * caller gathers both (cmd_report.c); this file only writes them. */
#include <math.h>
#include <string.h>

#include "report.h"

/* One row of the fleet table: label, then the three strategies' figures,
 * the first cell with id "fleet-<key>" for readers and tests. */
static void fleet_row(FILE *f, const char *label, const char *key, const double v[3])
{
	fprintf(f, "<tr><th>%s</th>", label);
	for (int k = 0; k < 3; k++)
		fprintf(f, "<td class=\"num\"%s%s%s>%.2f</td>", k ? "" : " id=\"fleet-",
			k ? "" : key, k ? "" : "\"", v[k]);
	fputs("</tr>\n", f);
}

static void fleet_table(FILE *f, const struct jobspec *spec, const struct fleet *fl)
{
	const struct fleet_choice *ch[3] = {&fl->best, &fl->none, &fl->per_job};
	char buf[256];
	fputs("<table>\n<tr><th></th><th class=\"num\">fleet</th><th class=\"num\">buy "
	      "nothing</th><th class=\"num\">one purchase per job</th></tr>\n<tr><th>purchase</th>",
	      f);
	for (int k = 0; k < 3; k++) {
		fleet_purchase_text(spec, ch[k], buf, sizeof buf);
		fputs(k ? "<td class=\"num\">" : "<td class=\"num\" id=\"fleet-purchase\">", f);
		report_esc(f, buf);
		fputs("</td>", f);
	}
	fputs("</tr>\n", f);
	double v[3];
	for (int k = 0; k < 3; k++)
		v[k] = ch[k]->capex;
	fleet_row(f, "capex", "capex", v);
	for (int r = 0; r < (int)route_count(); r++) {
		for (int k = 0; k < 3; k++)
			v[k] = ch[k]->by_route[r];
		fleet_row(f, route_name((enum route)r), route_name((enum route)r), v);
	}
	for (int k = 0; k < 3; k++)
		v[k] = ch[k]->purchase_monthly;
	fleet_row(f, "of which purchase", "purchase-monthly", v);
	for (int k = 0; k < 3; k++)
		v[k] = ch[k]->monthly_total;
	fleet_row(f, "monthly total", "total", v);
	fputs("<tr><th>payback</th>", f);
	for (int k = 0; k < 3; k++) {
		fleet_payback_text(spec, fl, ch[k], buf, sizeof buf);
		fprintf(f, "<td class=\"num\">%s</td>", buf);
	}
	fputs("</tr>\n", f);
	if (ch[0]->unplaced_hours > 0 || ch[1]->unplaced_hours > 0 || ch[2]->unplaced_hours > 0)
		fprintf(f, "<tr><th>unplaced hours</th><td class=\"num\">%.1f</td><td "
			"class=\"num\">%.1f</td><td class=\"num\">%.1f</td></tr>\n",
			ch[0]->unplaced_hours, ch[1]->unplaced_hours, ch[2]->unplaced_hours);
	fputs("</table>\n", f);
}

void report_fleet(FILE *f, const struct report_input *in)
{
	const struct jobspec *spec = in->spec;
	const struct fleet *fl = in->fleet;
	fputs("<h2 id=\"fleet\">What to buy for all the jobs</h2>\n<p>", f);
	if (!fl) {
		report_escf(f, "No fleet: %s.", in->fleet_note ? in->fleet_note : "not planned");
		fputs("</p>\n", f);
		return;
	}
	char buy[256];
	fleet_purchase_text(spec, fleet_recommended(fl), buy, sizeof buy);
	report_escf(f, "For %s (%d h), with the GPUs bought and owned shared between the jobs "
		    "hour by hour inside their windows and the rest rented or sent to the API, ",
		    fl->best.sched->month, fl->best.sched->n_slots);
	fputs("<code>", f);
	report_escf(f, "planner fleet %s --month %s", spec->path, fl->best.sched->month);
	fputs("</code> recommends buying <b>", f);
	report_esc(f, buy);
	/* Its monthly figure and payback are the headline's, stated there
	 * once; the table's fleet column holds them beside the others. */
	fputs("</b>", f);
	if (fl->n_types > 0)
		fputs(": the plan of <a href=\"#headline\">the summary</a>", f);
	fputs(". Beside it, buying nothing and one purchase per job, each scheduled the same way.",
	      f);
	struct plan_total t;
	plan_total(in->plan, &t);
	report_escf(f, " Jobs priced one by one (planner compare) put one purchase per job at "
		    "%.2f %s a month; scheduled together, as here, the same purchases cost the "
		    "column's figure.",
		    t.monthly, in->plan->currency);
	fputs("</p>\n", f);
	fleet_table(f, spec, fl);
	fprintf(f, "<p class=\"muted\">Money in %s a month; a bought GPU costs its monthly share "
		"of the purchase (the spec's costs: over %g months) whether it runs or not, and "
		"its power for the hours it runs. \"One purchase per job\" is each job's own "
		"best route in compare, scheduled together. No fleet costs less than %.2f a "
		"month (a lower bound); %d purchases evaluated%s.</p>\n",
		in->plan->currency, spec->amortize_months, fl->bound, fl->evaluations,
		fl->exact ? ", every one" : " by local search");
}

static void month_table(FILE *f, const struct schedule *s)
{
	struct sched_job_hours tot = {0};
	double needed = 0, unplaced = 0;
	fputs("<table>\n<tr><th>job</th><th class=\"num\">hours needed</th><th class=\"num\">on "
	      "owned (h)</th><th class=\"num\">rented, serverless (h)</th><th class=\"num\">api</th><th "
	      "class=\"num\">cost</th><th class=\"num\">unplaced (h)</th></tr>\n",
	      f);
	for (size_t j = 0; j < s->n_jobs; j++) {
		const struct sched_job_result *r = &s->jobs[j];
		struct sched_job_hours h;
		sched_job_hours(s, j, &h);
		fputs("<tr><td>", f);
		report_esc(f, r->job->name);
		fprintf(f, "</td><td class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td "
			"class=\"num\">%.1f</td><td class=\"num\">%.2f</td><td class=\"num\">%.2f</td>"
			"<td class=\"num\">%.1f</td></tr>\n",
			r->hours_needed, h.owned, h.cloud, h.api_cost, r->cost,
			r->unplaced_hours);
		needed += r->hours_needed;
		tot.owned += h.owned;
		tot.cloud += h.cloud;
		tot.api_cost += h.api_cost;
		unplaced += r->unplaced_hours;
	}
	if (s->owned_fixed > 0) /* no job's: the owned pools' month (costs:, idle_watts) */
		fprintf(f, "<tr><td>owned GPUs' fixed month: idle draw, hosts, upkeep</td><td></td>"
			"<td></td><td></td><td></td><td class=\"num\" id=\"month-owned-fixed\">%.2f"
			"</td><td></td></tr>\n",
			s->owned_fixed);
	fprintf(f, "<tr><th>total as scheduled</th><td class=\"num\">%.1f</td><td "
		"class=\"num\">%.1f</td><td class=\"num\">%.1f</td><td class=\"num\" "
		"id=\"month-api\">%.2f</td><td class=\"num best\" id=\"month-total\">%.2f</td><td class=\"num\" "
		"id=\"month-unplaced\">%.1f</td></tr>\n</table>\n",
		needed, tot.owned, tot.cloud, tot.api_cost, s->total_cost, unplaced);
}

/* The sentence above the month's table: which GPUs it is laid out on, by
 * which command, and its totals. */
static void month_intro(FILE *f, const struct report_input *in, const struct schedule *s)
{
	const struct fleet *fl = in->fleet;
	char buy[256] = "";
	if (fl)
		fleet_purchase_text(in->spec, fleet_recommended(fl), buy, sizeof buy);
	fputs("<code>", f);
	report_escf(f, "planner schedule %s --month %s%s", in->spec->path, s->month,
		    fl ? " --fleet" : "");
	fputs("</code> ", f);
	if (fl && fleet_recommended(fl)->capex > 0)
		report_escf(f, "lays %s out (%d h, %s) on the recommended fleet: the GPUs already "
			    "owned plus its purchase (%s)", s->month, s->n_slots, s->timezone,
			    buy);
	else if (fl)
		report_escf(f, "lays %s out (%d h, %s) on the recommended fleet, which buys nothing: "
			    "the GPUs already owned", s->month, s->n_slots, s->timezone);
	else
		report_escf(f, "lays %s out (%d h, %s) on the GPUs already owned", s->month,
			    s->n_slots, s->timezone);
	/* Each route's part, in tie-rank order: owned, rented, api. */
	char parts[256] = "";
	enum route order[ROUTE_MAX];
	size_t n = route_by_rank(order), used = 0;
	for (size_t k = 0; k < n && used < sizeof parts; k++)
		used += (size_t)snprintf(parts + used, sizeof parts - used, "%s%s %.2f",
					 k ? ", " : "", route_name(order[k]),
					 s->route_cost[order[k]]);
	report_escf(f, ", each job inside its windows, days and deadlines, the rest rented or sent "
		    "to the API: the month as scheduled costs %.2f %s (%s)",
		    s->total_cost, s->currency, parts);
	if (fl && fleet_recommended(fl)->capex > 0)
		report_escf(f, ", before the purchase's capital of %.2f a month, which the plan's "
			    "monthly figure in the summary includes",
			    fleet_recommended(fl)->purchase_monthly);
	fputs(".</p>\n", f);
}

void report_month(FILE *f, const struct report_input *in)
{
	/* On the recommended fleet when there is one (its schedule, as planner
	 * schedule --fleet prints it), else on the GPUs owned. */
	const struct schedule *s = in->fleet ? fleet_recommended(in->fleet)->sched : in->month;
	fputs("<h2 id=\"month\">The month, hour by hour</h2>\n<p>", f);
	if (!s) {
		report_escf(f, "No schedule: %s.", in->month_note ? in->month_note : "not laid out");
		fputs("</p>\n", f);
		return;
	}
	month_intro(f, in, s);
	month_table(f, s);
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].why[0]) {
			fputs("<p class=\"warn\">", f);
			report_escf(f, "%.1f h of %s not placed: %s", s->jobs[j].unplaced_hours,
				    s->jobs[j].job->name, s->jobs[j].why);
			fputs("</p>\n", f);
		}
	fputs("<p class=\"muted\">Hours are GPU-hours of each job's work; the api column is "
	      "money. The hour-by-hour layout, and Slurm or Kubernetes files for it, come from "
	      "planner schedule.</p>\n",
	      f);
}
