/* export_json.c — the schedule as JSON. The contract: month, timezone,
 * currency, total_cost, cost_by_route, owned_fixed_cost and
 * rented_setup_cost (when not 0), skipped_runs (when a format cannot
 * express some runs' route: format -> count), runs, jobs, unplaced,
 * owned_utilization (times ISO 8601 with their UTC offset). */
#include <cJSON.h>
#include <stdlib.h>

#include "export.h"
#include "json_print.h"
#include "util.h"

static cJSON *run_json(const struct schedule *s, const struct sched_run *r)
{
	char start[32], end[32];
	sched_iso(r->start, r->start_offset, start, sizeof start);
	sched_iso(r->end, r->end_offset, end, sizeof end);
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "job", s->jobs[r->job].job->name);
	cJSON_AddStringToObject(o, "route", route_name(r->route));
	cJSON_AddStringToObject(o, "resource", r->resource);
	if (r->gpu)
		cJSON_AddStringToObject(o, "gpu", r->gpu->name);
	else
		cJSON_AddNullToObject(o, "gpu");
	cJSON_AddNumberToObject(o, "gpu_count", r->gpu_count);
	cJSON_AddStringToObject(o, "start", start);
	cJSON_AddStringToObject(o, "end", end);
	cJSON_AddNumberToObject(o, "hours", round_to(r->hours, 2));
	cJSON_AddNumberToObject(o, "cost", round_to(r->cost, 2));
	if (r->mix) { /* only a traffic-shape mix's runs (plan_mix) */
		cJSON_AddStringToObject(o, "mix", r->mix);
		cJSON_AddNumberToObject(o, "replicas", r->replicas);
	}
	return o;
}

static int write_json(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	cJSON *root = json_doc_new("planner/schedule/v1");
	cJSON_AddStringToObject(root, "month", s->month);
	cJSON_AddStringToObject(root, "timezone", s->timezone);
	cJSON_AddStringToObject(root, "currency", s->currency);
	cJSON_AddStringToObject(root, "prices_as_of", s->prices_as_of);
	cJSON_AddNumberToObject(root, "hours_in_month", s->n_slots);
	cJSON_AddNumberToObject(root, "total_cost", round_to(s->total_cost, 2));
	cJSON *split = cJSON_AddObjectToObject(root, "cost_by_route");
	for (int k = 0; k < (int)route_count(); k++)
		cJSON_AddNumberToObject(split, route_name((enum route)k),
		                        round_to(s->route_cost[k], 2));
	/* Parts of the owned and rented figures, present when not 0. */
	if (s->owned_fixed > 0)
		cJSON_AddNumberToObject(root, "owned_fixed_cost", round_to(s->owned_fixed, 2));
	if (s->setup_cost > 0)
		cJSON_AddNumberToObject(root, "rented_setup_cost", round_to(s->setup_cost, 2));
	/* Runs each format leaves out because it cannot express their route
	 * (export.h); present when any does. */
	cJSON *skipped = NULL;
	for (size_t i = 0; export_formats[i]; i++) {
		const struct export_format *x = export_formats[i];
		int n = x->skipped_runs ? x->skipped_runs(s) : 0;
		if (n <= 0)
			continue;
		if (!skipped)
			skipped = cJSON_AddObjectToObject(root, "skipped_runs");
		cJSON_AddNumberToObject(skipped, x->name, n);
	}
	cJSON *runs = cJSON_AddArrayToObject(root, "runs");
	for (size_t i = 0; i < s->n_runs; i++)
		cJSON_AddItemToArray(runs, run_json(s, &s->runs[i]));
	cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
	cJSON *unplaced = cJSON_AddArrayToObject(root, "unplaced");
	for (size_t j = 0; j < s->n_jobs; j++) {
		const struct sched_job_result *r = &s->jobs[j];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", r->job->name);
		cJSON_AddNumberToObject(o, "hours_needed", round_to(r->hours_needed, 2));
		cJSON_AddNumberToObject(o, "hours_placed", round_to(r->hours_placed, 2));
		cJSON_AddNumberToObject(o, "cost", round_to(r->cost, 2));
		if (r->note[0])
			cJSON_AddStringToObject(o, "note", r->note);
		else
			cJSON_AddNullToObject(o, "note");
		cJSON_AddItemToArray(jobs, o);
		if (!r->why[0])
			continue;
		cJSON *u = cJSON_CreateObject();
		cJSON_AddStringToObject(u, "job", r->job->name);
		cJSON_AddNumberToObject(u, "hours", round_to(r->unplaced_hours, 2));
		cJSON_AddStringToObject(u, "why", r->why);
		cJSON_AddItemToArray(unplaced, u);
	}
	cJSON *util = cJSON_AddArrayToObject(root, "owned_utilization");
	for (size_t i = 0; i < s->n_resources; i++) {
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "resource", s->resources[i].name);
		cJSON_AddNumberToObject(o, "hours_used", round_to(s->resources[i].hours_used, 2));
		cJSON_AddNumberToObject(o, "hours_available", s->resources[i].hours_available);
		cJSON_AddItemToArray(util, o);
	}
	char *text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text)
		return set_err(err, PLANNER_ESYS, "out of memory writing JSON");
	fputs(text, f);
	fputc('\n', f);
	free(text);
	return PLANNER_OK;
}

const struct export_format export_format_json = {
    .name = "json",
    .applies = EXPORT_DATA | EXPORT_SCHEDULE,
    .data = FORMAT_JSON,
    .write = write_json,
};
