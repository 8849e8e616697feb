/* sched_hours.c — what a schedule's runs come to per job, read the same
 * way by the terminal table (export_table.c) and the report
 * (report_fleet.c): hours on GPUs, owned or someone else's, and the cost
 * of work without hours (the API's). */
#include <string.h>

#include "schedule.h"

bool sched_run_has_hours(const struct sched_run *r)
{
	return r->gpu != NULL;
}

void sched_job_hours(const struct schedule *s, size_t j, struct sched_job_hours *h)
{
	memset(h, 0, sizeof *h);
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->job != j)
			continue;
		if (!sched_run_has_hours(r))
			h->api_cost += r->cost;
		else if (route_has(r->route, ROUTE_HAS_CAPACITY))
			h->owned += r->hours;
		else
			h->cloud += r->hours;
	}
}
