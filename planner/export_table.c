/* export_table.c — the schedule for a terminal: a month view per owned GPU
 * (one row per local day, one letter per hour, the job's letter from the
 * legend), each job's hours by route, rented and API totals, the cost
 * split by route and what could not be placed. */
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

static char job_letter(size_t j)
{
	return j < sizeof letters - 1 ? letters[j] : '*';
}

/* The table fits this many columns (a terminal's default); longer text
 * (an offer's name) goes on the next line. */
#define TABLE_COLUMNS 80

/* One letter per slot of resource k: its job's letter, '.' when idle. */
static void fill_grid(const struct schedule *s, const struct sched_resource *res, size_t k,
                      char *line)
{
	const int T = s->n_slots;
	memset(line, '.', (size_t)T);
	line[T] = '\0';
	int g = 0; /* this resource's bit in its pool */
	for (size_t q = 0; q < k; q++)
		g += s->resources[q].pool == res->pool;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (!route_has(r->route, ROUTE_HAS_CAPACITY) || r->pool != res->pool ||
		    !(r->gpus >> g & 1))
			continue;
		for (int t = r->slot; t < r->slot + r->n_slots; t++)
			line[t] = job_letter(r->job);
	}
}

static void month_view(FILE *f, const struct schedule *s, const struct sched_resource *res,
                       const char *line)
{
	static const char *const wd[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
	const int T = s->n_slots;
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

/* A month view per owned GPU; a GPU whose hours are the same as an
 * earlier one's (two GPUs of one job run in step) gets one line naming
 * it instead of another 31 identical rows. */
static int month_views(FILE *f, const struct schedule *s, char **err)
{
	const size_t T = (size_t)s->n_slots + 1;
	char *grids = malloc(s->n_resources ? s->n_resources * T : 1);
	if (!grids)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t k = 0; k < s->n_resources; k++) {
		const struct sched_resource *res = &s->resources[k];
		char *line = grids + k * T;
		fill_grid(s, res, k, line);
		size_t same = k;
		for (size_t q = 0; q < k && same == k; q++)
			if (s->resources[q].hours_available == res->hours_available &&
			    !strcmp(grids + q * T, line))
				same = q;
		if (same == k)
			month_view(f, s, res, line);
		else
			fprintf(f, "\n%s  (%.0f of %.0f h used): the same hours as %s above\n",
			        res->name, res->hours_used, res->hours_available,
			        s->resources[same].name);
	}
	free(grids);
	return PLANNER_OK;
}

/* Where an offer's name starts when it goes under its row. */
#define RUN_WHAT_INDENT 6

/* The schedule's cost by route (in tie-rank order: owned, rented, api)
 * and its total, with the parts no hour carries (costs:, idle_watts) under
 * their route when not 0. */
static void route_costs(FILE *f, const struct schedule *s)
{
	enum route order[ROUTE_MAX];
	size_t n = route_by_rank(order);
	for (size_t i = 0; i < n; i++) {
		enum route k = order[i];
		fprintf(f, "  %-10s %7.2f %s  (%.1f h)\n", route_name(k), s->route_cost[k],
		        s->currency, s->route_hours[k]);
		if (route_has(k, ROUTE_HAS_CAPACITY) && s->owned_fixed > 0)
			fprintf(f, "   %-6s %10.2f %s  (of owned: idle draw, hosts, maintenance)\n",
			        "fixed", s->owned_fixed, s->currency);
		if (route_has(k, ROUTE_HOURLY) && s->setup_cost > 0)
			fprintf(f, "   %-6s %10.2f %s  (of rented: setup hours of each run)\n",
			        "setup", s->setup_cost, s->currency);
	}
	fprintf(f, "  %-7s %10.2f %s\n", "total", s->total_cost, s->currency);
}

/* "rented, api and serverless": the routes without a stock of GPUs, in
 * tie-rank order, the heading of their runs. Returns buf. */
static const char *others_heading(char *buf, size_t len)
{
	enum route order[ROUTE_MAX];
	size_t n = route_by_rank(order), m = 0, used = 0;
	for (size_t i = 0; i < n; i++)
		m += !route_has(order[i], ROUTE_HAS_CAPACITY);
	buf[0] = '\0';
	for (size_t i = 0, k = 0; i < n && used < len; i++) {
		if (route_has(order[i], ROUTE_HAS_CAPACITY))
			continue;
		const char *sep = k == 0 ? "" : k + 1 == m ? " and " : ", ";
		used += (size_t)snprintf(buf + used, len - used, "%s%s", sep, route_name(order[i]));
		k++;
	}
	return buf;
}

static int write_table(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	bool color = opts->color;
	const char *bold = color ? "\033[1m" : "", *off = color ? "\033[0m" : "";
	fprintf(f, "%sschedule for %s%s (%s, %d hours), costs in %s\n", bold, s->month, off,
	        s->timezone, s->n_slots, s->currency);
	fprintf(f, "\n%-2s %-22s %8s %8s %8s %8s %9s %8s\n", "", "job", "needed h", "owned h",
	        "cloud h", "api", "cost", "unplaced");
	for (size_t j = 0; j < s->n_jobs; j++) {
		struct sched_job_hours h;
		sched_job_hours(s, j, &h);
		const struct sched_job_result *r = &s->jobs[j];
		char unpl[16] = "-", apis[16] = "-";
		if (r->why[0])
			snprintf(unpl, sizeof unpl, "%.1f h", r->unplaced_hours);
		if (h.api_cost > 0)
			snprintf(apis, sizeof apis, "%.2f", h.api_cost);
		char name[256]; /* job names and offers reach the terminal through text_safe */
		fprintf(f, "%c  %-22.22s %8.1f %8.1f %8.1f %8s %9.2f %8s\n", job_letter(j),
		        text_safe(name, sizeof name, r->job->name), r->hours_needed, h.owned, h.cloud,
		        apis, r->cost, unpl);
	}
	int rc = month_views(f, s, err);
	if (rc != PLANNER_OK)
		return rc;
	if (s->n_resources == 0)
		fprintf(f, "\nno owned GPUs in the spec: everything runs rented or on an API\n");
	bool any = false;
	char heading[96];
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (route_has(r->route, ROUTE_HAS_CAPACITY))
			continue;
		if (!any)
			fprintf(f, "\n%s%s%s\n", bold, others_heading(heading, sizeof heading), off);
		any = true;
		char start[32], name[256], res[256];
		text_safe(name, sizeof name, s->jobs[r->job].job->name);
		text_safe(res, sizeof res, r->resource);
		if (r->mix) { /* a traffic-shape mix's peak (plan_mix) */
			size_t used = strlen(res);
			snprintf(res + used, sizeof res - used, ", mix %s x%d", r->mix,
			         r->replicas);
		}
		sched_iso(r->start, r->start_offset, start, sizeof start);
		char row[128], what[300];
		char span[32];
		snprintf(span, sizeof span, "%s, all month", route_name(r->route));
		if (sched_run_has_hours(r))
			snprintf(row, sizeof row, "  %-22.22s %.16s  %6.1f h  %9.2f", name, start,
			         r->hours, r->cost);
		else
			snprintf(row, sizeof row, "  %-22.22s %-16s  %8s  %9.2f", name, span,
			         "tokens", r->cost);
		/* The offer's name beside the row when it fits in 80 columns,
		 * else on the line under it, never past column 80 or cut. */
		if (strlen(row) + 2 + text_columns(res) <= TABLE_COLUMNS) {
			fprintf(f, "%s  %s\n", row, res);
		} else {
			fprintf(f, "%s\n", row);
			snprintf(what, sizeof what, "%*s%s", RUN_WHAT_INDENT, "", res);
			text_wrap_to(f, TABLE_COLUMNS, RUN_WHAT_INDENT, what);
		}
	}
	fprintf(f, "\n%scost by route%s\n", bold, off);
	route_costs(f, s);
	char name[256];
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].why[0])
			fprintf(f, "\nunplaced: %s, %.1f h: %s\n",
			        text_safe(name, sizeof name, s->jobs[j].job->name),
			        s->jobs[j].unplaced_hours, s->jobs[j].why);
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].note[0])
			fprintf(f, "\nnote: %s: %s\n",
			        text_safe(name, sizeof name, s->jobs[j].job->name),
			        s->jobs[j].note);
	return PLANNER_OK;
}

const struct export_format export_format_table = {
    .name = "table",
    .applies = EXPORT_DATA | EXPORT_SCHEDULE,
    .data = FORMAT_TABLE,
    .write = write_table,
};
