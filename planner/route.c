/* route.c — the list of routes and of break-even pairs, and what the
 * shipped routes share (see route.h). */
#include "route.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "plan_cache.h"
#include "parallel.h"
#include "route_price.h"
#include "util.h"

void route_json_speed(cJSON *o, const struct route_result *r)
{
	cJSON_AddNumberToObject(o, "tokens_per_second", round_to(r->tokens_per_second, 1));
	cJSON_AddStringToObject(o, "speed_source", r->measured ? "measured" : "estimated");
	if (r->measured)
		cJSON_AddStringToObject(o, "measured_file", r->measured);
}

void route_json_nodes(cJSON *o, const struct route_result *r)
{
	if (r->nodes <= 1)
		return;
	cJSON_AddNumberToObject(o, "nodes", r->nodes);
	cJSON_AddNumberToObject(o, "gpus_per_node", r->gpus_per_node);
	cJSON *x = cJSON_AddObjectToObject(o, "parallel");
	cJSON_AddNumberToObject(x, "tp", r->layout.tp);
	cJSON_AddNumberToObject(x, "pp", r->layout.pp);
	cJSON_AddNumberToObject(x, "dp", r->layout.dp);
	cJSON_AddNumberToObject(x, "ep", r->layout.ep);
	if (r->fabric[0])
		cJSON_AddStringToObject(o, "fabric", r->fabric);
}

void route_set_nodes(struct route_result *r, const struct workload *w, const struct gpu_spec *g,
                     int n)
{
	char why[8];
	r->nodes = 0;
	r->gpus_per_node = 0;
	r->layout = (struct parallel){0};
	r->fabric[0] = '\0';
	if (parallel_nodes(g, n) <= 1 ||
	    !parallel_layout(w->engine, w->shape.model, g, n, w->shape.task, &w->shape.parallel,
	                     &r->layout, why, sizeof why))
		return;
	r->nodes = parallel_nodes(g, n);
	r->gpus_per_node = g->gpus_per_node;
}

int route_speed_text(char *buf, size_t len, int n, const struct route_result *r)
{
	if (r->measured && n >= 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " (measured, %s)", r->measured);
	return n;
}

/* The one list. Mutable only by route_register, which a process calls
 * before it plans, as provider_list is fixed before a refresh: a list
 * passed by pointer through every consumer would change ~25 signatures
 * for a test's sake. */
static const struct route_ops *routes[ROUTE_MAX] = {&route_api, &route_rented, &route_owned,
                                                    &route_serverless};
static size_t n_routes = ROUTE_BUILTIN;

static void api_tokens_text(char *buf, size_t len, double v, const char *note);
static void payback_text(char *buf, size_t len, double v, const char *note);

/* The shipped figures, in the order of every output (index = enum
 * breakeven_builtin). */
static struct breakeven_pair pairs[BREAKEVEN_MAX] = {
    {.a = &route_owned,
     .b = &route_rented,
     .label = "owned vs rented",
     .json_key = "owned_vs_rented_hours_per_month",
     .json_places = 1,
     .csv_column = "owned_vs_rented_breakeven_hours",
     .csv_unit = 1,
     .csv_places = 1,
     .figure = breakeven_owned_rented_hours,
     .text = breakeven_hours_text},
    {.a = &route_owned,
     .b = &route_rented,
     .label = "owned payback",
     .json_key = "owned_payback_months",
     .note_key = "owned_payback_note",
     .json_places = 1,
     .csv_column = "owned_payback_months",
     .csv_note_column = "owned_payback_note",
     .csv_unit = 1,
     .csv_places = 1,
     .figure = breakeven_owned_payback,
     .text = payback_text},
    /* compare --format json gives whole tokens; the CSV the same figure
     * in millions, so six decimals keep every digit. */
    {.a = &route_api,
     .b = &route_rented,
     .label = "api vs rented",
     .json_key = "api_vs_rented_tokens_per_month",
     .json_places = 0,
     .csv_column = "api_vs_rented_breakeven_mtokens",
     .csv_unit = 1e6,
     .csv_places = 6,
     .figure = breakeven_api_rented_tokens,
     .text = api_tokens_text},
    {.a = &route_serverless,
     .b = &route_rented,
     .label = "serverless vs rented",
     .json_key = "serverless_vs_rented_hours_per_month",
     .json_places = 1,
     .csv_column = "serverless_vs_rented_breakeven_hours",
     .csv_unit = 1,
     .csv_places = 1,
     .figure = breakeven_lines_cross,
     .text = breakeven_hours_text},
};
static size_t n_pairs = BREAKEVEN_BUILTIN;

size_t route_count(void)
{
	return n_routes;
}

const struct route_ops *route_at(size_t k)
{
	return k < n_routes ? routes[k] : NULL;
}

int route_index(const struct route_ops *ops)
{
	for (size_t k = 0; k < n_routes; k++)
		if (routes[k] == ops)
			return (int)k;
	return -1;
}

const char *route_name(enum route r)
{
	return (size_t)r < n_routes ? routes[r]->name : "?";
}

size_t route_by_rank(enum route out[ROUTE_MAX])
{
	for (size_t k = 0; k < n_routes; k++) {
		size_t i = k;
		for (; i > 0 && routes[out[i - 1]]->tie_rank > routes[k]->tie_rank; i--)
			out[i] = out[i - 1];
		out[i] = (enum route)k;
	}
	return n_routes;
}

bool route_has(enum route r, unsigned mask)
{
	return (size_t)r < n_routes && (routes[r]->flags & mask) == mask;
}

const char *route_field_name(enum route_field f)
{
	static const char *const names[] = {
	    [ROUTE_FIELD_END] = "",
	    [ROUTE_FIELD_MONTHLY_COST] = "monthly_cost",
	    [ROUTE_FIELD_PROVIDER] = "provider",
	    [ROUTE_FIELD_OFFER] = "offer",
	    [ROUTE_FIELD_GPU] = "gpu",
	    [ROUTE_FIELD_GPU_COUNT] = "gpu_count",
	    [ROUTE_FIELD_PRICE] = "price_per_hour",
	    [ROUTE_FIELD_ALREADY_OWNED] = "already_owned",
	    [ROUTE_FIELD_CAPEX] = "capex",
	    [ROUTE_FIELD_REPLICAS] = "replicas",
	};
	return (size_t)f < sizeof names / sizeof *names ? names[f] : "";
}

size_t breakeven_count(void)
{
	return n_pairs;
}

const struct breakeven_pair *breakeven_at(size_t i)
{
	return i < n_pairs ? &pairs[i] : NULL;
}

int route_register(const struct route_ops *ops, const struct breakeven_pair *more, size_t n_more,
                   char **err)
{
	if (!ops || !ops->name || !ops->price)
		return set_err(err, PLANNER_EINPUT, "a route needs a name and a price function");
	for (size_t k = 0; k < n_routes; k++)
		if (!strcmp(routes[k]->name, ops->name))
			return set_err(err, PLANNER_EINPUT, "route '%s' is already listed",
			               ops->name);
	if (n_routes == ROUTE_MAX)
		return set_err(err, PLANNER_EINPUT, "no room for route '%s': %d routes at most",
		               ops->name, ROUTE_MAX);
	if (n_more > BREAKEVEN_MAX - n_pairs)
		return set_err(err, PLANNER_EINPUT,
		               "no room for the break-evens of route '%s': %d at most", ops->name,
		               BREAKEVEN_MAX);
	for (size_t i = 0; i < n_more; i++) {
		const struct breakeven_pair *bp = &more[i];
		bool a = bp->a == ops || route_index(bp->a) >= 0;
		bool b = bp->b == ops || route_index(bp->b) >= 0;
		if (!a || !b || !bp->figure || !bp->text || !bp->label || !bp->json_key ||
		    !bp->csv_column)
			return set_err(err, PLANNER_EINPUT,
			               "break-even %zu of route '%s' needs two listed routes, a "
			               "figure, a text, a label, a JSON key and a CSV column",
			               i, ops->name);
	}
	routes[n_routes++] = ops;
	for (size_t i = 0; i < n_more; i++)
		pairs[n_pairs++] = more[i];
	return PLANNER_OK;
}

void route_reset(void)
{
	for (size_t k = ROUTE_BUILTIN; k < n_routes; k++)
		routes[k] = NULL;
	n_routes = ROUTE_BUILTIN;
	n_pairs = BREAKEVEN_BUILTIN;
}

void route_why(struct route_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->why, sizeof r->why, fmt, ap);
	va_end(ap);
	r->feasible = false;
}

void route_note_short_at(struct short_of *sh, const struct workload_run *run, const char *why,
                         size_t at)
{
	if (sh->any && (run->tps < sh->tps || (run->tps == sh->tps && at >= sh->at)))
		return;
	sh->any = true;
	sh->tps = run->tps;
	sh->at = at;
	snprintf(sh->why, sizeof sh->why, "%s", why);
	sh->slo_sized = run->slo_sized && !run->slo_met;
	sh->ttft_ms = run->ttft_ms;
	sh->tpot_ms = run->tpot_ms;
}

void route_note_short(struct short_of *sh, const struct workload_run *run, const char *why)
{
	route_note_short_at(sh, run, why, SIZE_MAX);
}

bool route_floors_init(struct route_floors *fl, const struct route_ctx *c, size_t most)
{
	fl->at = NULL;
	fl->n = 0;
	if (!c->job->slo.given || !most)
		return false;
	fl->at = malloc(most * sizeof *fl->at);
	return fl->at != NULL;
}

void route_floors_add(struct route_floors *fl, size_t at, double floor)
{
	if (!isnan(floor))
		fl->at[fl->n++] = (struct route_floor){.at = at, .floor = floor};
}

static int floor_cmp(const void *a, const void *b)
{
	const struct route_floor *x = a, *y = b;
	if (x->floor != y->floor)
		return x->floor < y->floor ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

size_t route_floors_sort(struct route_floors *fl)
{
	if (fl->n > 1)
		qsort(fl->at, fl->n, sizeof *fl->at, floor_cmp);
	return fl->n;
}

void route_floors_free(struct route_floors *fl)
{
	free(fl->at);
	fl->at = NULL;
	fl->n = 0;
}

double route_floor_of(const struct route_ctx *c, const struct gpu_spec *gpu, int n,
                      int max_replicas, struct size_bound *probe, struct workload_run *run,
                      char *why, size_t len)
{
	/* Below any cost, the sizing stops at the work's own. */
	probe->best = -INFINITY;
	if (size_cache_size_within(c->sizes, c->shape, c->w, gpu, n, max_replicas, probe, run, why,
	                           len) ||
	    run->beaten)
		return probe->floor(probe->ctx, run);
	return NAN;
}

void route_cost_line(const struct job_result *j, size_t k, struct cost_line *l)
{
	const struct route_result *r = &j->routes[k];
	const struct route_ops *ops = route_at(k);
	double use = j->gpu_hours_per_month;
	memset(l, 0, sizeof *l);
	l->feasible = r->feasible;
	if (!r->feasible || !ops)
		return;
	if (ops->cost_line)
		ops->cost_line(r, use, l);
	else if (use > 0)
		l->slope = r->monthly_cost / use;
}

double route_lines_cross(const struct cost_line *a, const struct cost_line *b, double max_hours)
{
	if (!a->feasible || !b->feasible || a->slope == b->slope)
		return NAN;
	double h = (b->fixed - a->fixed) / (a->slope - b->slope);
	return h > 0 && h <= max_hours ? h : NAN;
}

double breakeven_lines_cross(const struct breakeven_pair *bp, const struct jobspec *spec,
                             const struct job_result *res, char *note, size_t len)
{
	(void)spec;
	struct cost_line a, b;
	int ia = route_index(bp->a), ib = route_index(bp->b);
	if (len)
		note[0] = '\0';
	if (ia < 0 || ib < 0)
		return NAN;
	route_cost_line(res, (size_t)ia, &a);
	route_cost_line(res, (size_t)ib, &b);
	return route_lines_cross(&a, &b, HOURS_PER_MONTH);
}

bool breakeven_already_owned(const struct breakeven *be)
{
	for (size_t i = 0; i < n_pairs; i++)
		if (!strcmp(be->note[i], BREAKEVEN_ALREADY_OWNED))
			return true;
	return false;
}

/* "12.3 h/month", else the note ("already owned: power only"), else
 * "never". */
void breakeven_hours_text(char *buf, size_t len, double v, const char *note)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f h/month", v);
	else
		snprintf(buf, len, "%s", note && note[0] ? note : "never");
}

/* "12.3 months", else the note ("not within 36 months"), else "never". */
static void payback_text(char *buf, size_t len, double v, const char *note)
{
	if (isfinite(v))
		snprintf(buf, len, "%.1f months", v);
	else
		snprintf(buf, len, "%s", note && note[0] ? note : "never");
}

/* Token counts in millions, the unit the API prices are quoted per. */
static void api_tokens_text(char *buf, size_t len, double v, const char *note)
{
	(void)note;
	if (isfinite(v))
		snprintf(buf, len, "%.1f Mtok/month", v / 1e6);
	else
		snprintf(buf, len, "never");
}

size_t route_fallbacks(const struct job_result *r, enum route chain[ROUTE_MAX])
{
	size_t n = 0;
	for (size_t k = 0; k < route_count(); k++) {
		const struct route_result *x = &r->routes[k];
		if (route_has((enum route)k, ROUTE_HAS_CAPACITY) || !x->feasible ||
		    !workload_route_allowed(&r->work, (enum route)k, NULL, 0))
			continue;
		size_t i = n++;
		for (; i > 0; i--) {
			const struct route_result *a = &r->routes[chain[i - 1]];
			if (a->monthly_cost < x->monthly_cost ||
			    (a->monthly_cost == x->monthly_cost &&
			     route_at(chain[i - 1])->tie_rank <= route_at(k)->tie_rank))
				break;
			chain[i] = chain[i - 1];
		}
		chain[i] = (enum route)k;
	}
	return n;
}

void route_copy_latency(struct route_result *r, const struct workload_run *run)
{
	r->slo_sized = run->slo_sized;
	r->ttft_ms = run->ttft_ms;
	r->tpot_ms = run->tpot_ms;
}

void route_why_short(struct route_result *r, const struct short_of *sh)
{
	route_why(r, "%s", sh->why);
	r->slo_sized = sh->slo_sized;
	r->ttft_ms = sh->ttft_ms;
	r->tpot_ms = sh->tpot_ms;
}
