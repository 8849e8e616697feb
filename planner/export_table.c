/* export_table.c — the schedule for a terminal: a month view per owned GPU
 * (one row per local day, one letter per hour, the job's letter from the
 * legend), each job's hours by route, rented and API totals, the cost
 * split by route and what could not be placed. */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "export.h"
#include "util.h"

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static char job_letter(size_t j)
{
	return j < sizeof letters - 1 ? letters[j] : '*';
}

static void month_view(FILE *f, const struct schedule *s, const struct sched_resource *res,
                       size_t k, char *line)
{
	static const char *const wd[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
	const int T = s->n_slots;
	memset(line, '.', (size_t)T);
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		int g = 0;
		/* this resource's bit in its pool */
		for (size_t q = 0; q < k; q++)
			g += s->resources[q].pool == res->pool;
		if (r->route != ROUTE_OWNED || r->pool != res->pool || !(r->gpus >> g & 1))
			continue;
		for (int t = r->slot; t < r->slot + r->n_slots; t++)
			line[t] = job_letter(r->job);
	}
	fprintf(f, "\n%s  (%.0f of %.0f h used)\n", res->name, res->hours_used,
	        res->hours_available);
	fprintf(f, "          0     6     12    18    24\n");
	for (int t = 0; t < T;) {
		int d = s->slots[t].mday, n = 0;
		while (t + n < T && s->slots[t + n].mday == d)
			n++;
		fprintf(f, "  %s %2d  %.*s%s\n", wd[s->slots[t].wday], d, n, line + t,
		        n == 23   ? "   (23 h: clocks go forward)"
		        : n == 25 ? "  (25 h: clocks go back)"
		                  : "");
		t += n;
	}
}

static int write_table(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	bool color = opts->color;
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[0m" : "";
	fprintf(f, "%sschedule for %s%s (%s, %d hours), costs in %s\n", bold, s->month, off,
	        s->timezone, s->n_slots, s->currency);
	fprintf(f, "\n%-3s %-24s %9s %9s %9s %9s %10s %9s\n", "", "job", "needed h", "owned h",
	        "rented h", "api", "cost", "unplaced");
	for (size_t j = 0; j < s->n_jobs; j++) {
		double h[ROUTE_COUNT] = {0}, api = 0;
		for (size_t i = 0; i < s->n_runs; i++) {
			const struct sched_run *r = &s->runs[i];
			if (r->job != j)
				continue;
			h[r->route] += r->hours;
			if (r->route == ROUTE_API)
				api += r->cost;
		}
		const struct sched_job_result *r = &s->jobs[j];
		char unpl[16] = "-", apis[16] = "-";
		if (r->why[0])
			snprintf(unpl, sizeof unpl, "%.1f h", r->unplaced_hours);
		if (api > 0)
			snprintf(apis, sizeof apis, "%.2f", api);
		char name[256]; /* job names and offers reach the terminal through cli_safe */
		fprintf(f, "%c   %-24.24s %9.1f %9.1f %9.1f %9s %10.2f %9s\n", job_letter(j),
		        cli_safe(name, sizeof name, r->job->name), r->hours_needed, h[ROUTE_OWNED],
		        h[ROUTE_RENTED], apis, r->cost, unpl);
	}
	char *line = malloc((size_t)s->n_slots + 1);
	if (!line)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t k = 0; k < s->n_resources; k++)
		month_view(f, s, &s->resources[k], k, line);
	free(line);
	if (s->n_resources == 0)
		fprintf(f, "\nno owned GPUs in the spec: everything runs rented or on an API\n");
	bool any = false;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->route == ROUTE_OWNED)
			continue;
		if (!any)
			fprintf(f, "\n%srented and api%s\n", bold, off);
		any = true;
		char start[32], name[256], res[256];
		cli_safe(name, sizeof name, s->jobs[r->job].job->name);
		cli_safe(res, sizeof res, r->resource);
		sched_iso(r->start, r->start_offset, start, sizeof start);
		if (r->route == ROUTE_RENTED)
			fprintf(f, "  %-22.22s %.16s  %6.1f h  %9.2f  %s\n", name, start, r->hours,
			        r->cost, res);
		else
			fprintf(f, "  %-22.22s %-16s  %8s  %9.2f  %s\n", name, "api, all month",
			        "tokens", r->cost, res);
	}
	fprintf(f, "\n%scost by route%s\n", bold, off);
	for (int k = ROUTE_OWNED; k >= 0; k--)
		fprintf(f, "  %-7s %10.2f %s  (%.1f h)\n", route_name((enum route)k),
		        s->route_cost[k], s->currency, s->route_hours[k]);
	fprintf(f, "  %-7s %10.2f %s\n", "total", s->total_cost, s->currency);
	char name[256];
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].why[0])
			fprintf(f, "\nunplaced: %s, %.1f h: %s\n",
			        cli_safe(name, sizeof name, s->jobs[j].job->name),
			        s->jobs[j].unplaced_hours, s->jobs[j].why);
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].note[0])
			fprintf(f, "\nnote: %s: %s\n",
			        cli_safe(name, sizeof name, s->jobs[j].job->name), s->jobs[j].note);
	return PLANNER_OK;
}

const struct export_format export_format_table = {
    .name = "table",
    .applies = EXPORT_DATA | EXPORT_SCHEDULE,
    .data = FORMAT_TABLE,
    .write = write_table,
};
