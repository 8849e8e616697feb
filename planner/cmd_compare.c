/* cmd_compare.c — `planner compare FILE`: every job against the four
 * routes, the cheapest, and where the curves cross.
 * layout: long file — one route's JSON and text (latency, mix, energy and
 * left-out lines) are printed here; splitting the JSON writer into its own
 * file is the next step. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "horizon.h"
#include "plan.h"
#include "plan_mix.h"

#define COMPARE_HEAP_HUGE (64 << 20)

/* JSON null for "never", else the rounded number. */
static void add_num_or_null(cJSON *o, const char *k, double v, int places)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, round_to(v, places));
	else
		cJSON_AddNullToObject(o, k);
}

/* The month's energy and CO2e (carbon.h): figures, or null with the
 * reason; carbon_cost is the part of monthly_cost a carbon price adds. */
static void co2_json(cJSON *o, const struct route_result *r)
{
	add_num_or_null(o, "energy_kwh", r->energy_kwh, 1);
	add_num_or_null(o, "grid_g_per_kwh", r->grid_g_per_kwh, 2);
	add_num_or_null(o, "co2_kg", r->co2_kg, 2);
	if (r->co2_source)
		cJSON_AddStringToObject(o, "co2_source", r->co2_source);
	else
		cJSON_AddStringToObject(o, "co2_note", r->co2_note ? r->co2_note : "not known");
	cJSON_AddNumberToObject(o, "carbon_cost", round_to(r->carbon_cost, 2));
}

/* The latency of a route sized to the job's slo: (slo.c); the API's is
 * not modelled. Nothing for a job without slo:. */
static void latency_json(cJSON *o, const struct job *j, const struct route_result *r)
{
	if (!j->slo.given)
		return;
	if (!r->slo_sized) {
		cJSON_AddNullToObject(o, "ttft_ms");
		cJSON_AddNullToObject(o, "tpot_ms");
		cJSON_AddNullToObject(o, "slo_met");
		cJSON_AddStringToObject(o, "slo_note", "not modelled");
		return;
	}
	cJSON_AddNumberToObject(o, "ttft_ms", round_to(r->ttft_ms, 1));
	cJSON_AddNumberToObject(o, "tpot_ms", round_to(r->tpot_ms, 2));
	cJSON_AddBoolToObject(o, "slo_met", true); /* a feasible route met it */
}

static cJSON *route_json(const struct plan *p, const struct job *j, const struct route_result *r)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "route", route_name(r->route));
	cJSON_AddBoolToObject(o, "feasible", r->feasible);
	if (r->left_out[0])
		cJSON_AddStringToObject(o, "left_out", r->left_out);
	if (!r->feasible) {
		cJSON_AddStringToObject(o, "why", r->why);
		if (j->slo.given && r->slo_sized) { /* the best latency it reaches */
			cJSON_AddNumberToObject(o, "ttft_ms", round_to(r->ttft_ms, 1));
			cJSON_AddNumberToObject(o, "tpot_ms", round_to(r->tpot_ms, 2));
			cJSON_AddBoolToObject(o, "slo_met", false);
		}
		return o;
	}
	const struct route_ops *ops = route_at((size_t)r->route);
	if (ops && ops->json)
		ops->json(o, p, r);
	if (route_has(r->route, ROUTE_ON_GPUS)) {
		cJSON_AddNumberToObject(o, "replicas", r->replicas);
		cJSON_AddNumberToObject(o, "batch", r->batch);
	}
	latency_json(o, j, r);
	cJSON_AddNumberToObject(o, "monthly_cost", round_to(r->monthly_cost, 2));
	add_num_or_null(o, "cost_per_mtok", r->cost_per_mtok, 4);
	co2_json(o, r);
	return o;
}

/* usage: as given, the days it counts and the tokens it comes to. */
static void usage_json(cJSON *j, const struct job *job)
{
	const struct job_usage *u = &job->usage;
	if (!u->given)
		return;
	char text[256];
	cJSON *o = cJSON_AddObjectToObject(j, "usage");
	const char *names[] = {"users", "requests_per_user_day", "requests_per_day",
	                       "documents_per_month", "tokens_per_document", "output_per_document"};
	const double vals[] = {u->users, u->requests_per_user_day, u->requests_per_day,
	                       u->documents_per_month, u->tokens_per_document,
	                       u->output_per_document};
	for (size_t i = 0; i < sizeof vals / sizeof *vals; i++)
		if (vals[i] > 0)
			cJSON_AddNumberToObject(o, names[i], vals[i]);
	cJSON_AddStringToObject(o, "kind", u->interactive ? "interactive" : "batch");
	cJSON_AddNumberToObject(o, "days", round_to(u->days, 2));
	cJSON *t = cJSON_AddObjectToObject(o, "tokens_per_month");
	cJSON_AddNumberToObject(t, "input", round(job->input_tokens));
	cJSON_AddNumberToObject(t, "output", round(job->output_tokens));
	job_usage_text(job, text, sizeof text);
	cJSON_AddStringToObject(o, "arithmetic", text);
	cJSON_AddBoolToObject(o, "serving_implied", job->serving_implied);
}

/* The job's serving settings as compare priced them. */
static void serving_json(cJSON *j, const struct job *job)
{
	if (job->batch_max)
		cJSON_AddStringToObject(j, "batch", "max");
	else
		cJSON_AddNumberToObject(j, "batch", job->batch);
	cJSON *rq = cJSON_AddObjectToObject(j, "request");
	cJSON_AddNumberToObject(rq, "input", round_to(job->request_input, 1));
	cJSON_AddNumberToObject(rq, "output", round_to(job->request_output, 1));
	cJSON_AddStringToObject(j, "kv_cache", kv_cache_name(job->kv_cache));
	cJSON_AddStringToObject(j, "serving", serving_name(job->serving));
	usage_json(j, job);
}

/* An array of n figures rounded to cents, NAN as null. */
static cJSON *money_array(const double *v, size_t stride, int n)
{
	cJSON *a = cJSON_CreateArray();
	for (int i = 0; i < n; i++) {
		double x = v[(size_t)i * stride];
		cJSON_AddItemToArray(a, isfinite(x) ? cJSON_CreateNumber(round_to(x, 2))
						    : cJSON_CreateNull());
	}
	return a;
}

/* The job's months (horizon.h): each route's bill and cumulative cash,
 * and the month from which owning has paid. */
static int horizon_json(cJSON *j, const struct jobspec *spec, const struct job_result *r,
			char **err)
{
	struct horizon h;
	int rc = horizon_job(spec, r, &h, err);
	if (rc != PLANNER_OK)
		return rc;
	cJSON *o = cJSON_AddObjectToObject(j, "horizon");
	cJSON_AddNumberToObject(o, "months", h.months);
	cJSON_AddNumberToObject(o, "growth_percent", h.growth_percent);
	cJSON *monthly = cJSON_AddObjectToObject(o, "monthly");
	cJSON *cum = cJSON_AddObjectToObject(o, "cumulative");
	size_t stride = sizeof *h.m / sizeof(double);
	for (int k = 0; k < (int)route_count(); k++) {
		cJSON_AddItemToObject(monthly, route_name((enum route)k),
				      money_array(&h.m[0].cost[k], stride, h.months));
		cJSON_AddItemToObject(cum, route_name((enum route)k),
				      money_array(&h.m[0].cum[k], stride, h.months));
	}
	if (h.owned_pays_from > 0)
		cJSON_AddNumberToObject(o, "owned_pays_from_month", h.owned_pays_from);
	else
		cJSON_AddNullToObject(o, "owned_pays_from_month");
	horizon_free(&h);
	return PLANNER_OK;
}

/* The whole plan's months: buying as compare buys against buying nothing. */
static int plan_horizon_json(cJSON *root, const struct jobspec *spec, const struct plan *p,
			     char **err)
{
	struct horizon_plan h;
	int rc = horizon_plan(spec, p, &h, err);
	if (rc != PLANNER_OK)
		return rc;
	cJSON *o = cJSON_AddObjectToObject(root, "horizon");
	cJSON_AddNumberToObject(o, "months", h.months);
	cJSON_AddNumberToObject(o, "capex", round_to(h.capex, 2));
	cJSON_AddItemToObject(o, "with_purchases_cumulative", money_array(h.with_buy, 1, h.months));
	cJSON_AddItemToObject(o, "without_purchases_cumulative",
			      money_array(h.without_buy, 1, h.months));
	if (h.pays_from > 0)
		cJSON_AddNumberToObject(o, "purchases_pay_from_month", h.pays_from);
	else
		cJSON_AddNullToObject(o, "purchases_pay_from_month");
	horizon_plan_free(&h);
	return PLANNER_OK;
}

struct json_jobs {
	const struct jobspec *spec;
	const struct plan *plan;
};

/* One job of the document (json_print_items makes them one at a time). */
static int job_json(void *ud, size_t i, cJSON **out, char **err)
{
	const struct json_jobs *jj = ud;
	const struct plan *p = jj->plan;
	const struct job_result *r = &p->jobs[i];
	cJSON *j = cJSON_CreateObject();
	*out = j;
	cJSON_AddStringToObject(j, "name", r->job->name);
	cJSON_AddStringToObject(j, "model", r->job->model_ref);
	cJSON_AddStringToObject(j, "precision", r->job->precision);
	cJSON_AddStringToObject(j, "task", task_name(r->job->task));
	cJSON_AddStringToObject(j, "data", data_class_name(r->job->data));
	cJSON_AddNumberToObject(j, "vram_gib", round_to(r->vram_gib, 2));
	cJSON_AddNumberToObject(j, "gpu_hours_per_month", round_to(r->gpu_hours_per_month, 2));
	if (r->job->has_tokens) {
		cJSON *t = cJSON_AddObjectToObject(j, "tokens_per_month");
		cJSON_AddNumberToObject(t, "input", r->job->input_tokens);
		cJSON_AddNumberToObject(t, "output", r->job->output_tokens);
	}
	serving_json(j, r->job);
	if (r->mix)
		plan_mix_json(j, r->mix, r);
	cJSON *routes = cJSON_AddArrayToObject(j, "routes");
	for (int k = 0; k < (int)route_count(); k++)
		cJSON_AddItemToArray(routes, route_json(p, r->job, &r->routes[k]));
	if (r->best >= 0) {
		cJSON *b = cJSON_AddObjectToObject(j, "best");
		cJSON_AddStringToObject(b, "route", route_name((enum route)r->best));
		cJSON_AddNumberToObject(b, "monthly_cost",
					round_to(r->routes[r->best].monthly_cost, 2));
	} else {
		cJSON_AddNullToObject(j, "best");
	}
	cJSON *be = cJSON_AddObjectToObject(j, "breakeven");
	/* GPUs on hand: the owned figures are null, and this says why. */
	cJSON_AddBoolToObject(be, "already_owned", breakeven_already_owned(&r->be));
	for (size_t b = 0; b < breakeven_count(); b++) {
		const struct breakeven_pair *bp = breakeven_at(b);
		add_num_or_null(be, bp->json_key, r->be.value[b], bp->json_places);
		/* Why the figure is null: "not within 36 months", "never". */
		if (bp->note_key && r->be.note[b][0])
			cJSON_AddStringToObject(be, bp->note_key, r->be.note[b]);
		else if (bp->note_key)
			cJSON_AddNullToObject(be, bp->note_key);
	}
	return horizon_json(j, jj->spec, r, err);
}

/* A route and its cost, for a move's from and to; null without one. */
static cJSON *move_end_json(int route, double cost, const char *what)
{
	if (route < 0)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "route", route_name((enum route)route));
	cJSON_AddStringToObject(o, "decision", what);
	cJSON_AddNumberToObject(o, "monthly_cost", round_to(cost, 2));
	return o;
}

/* How the GPUs on hand were priced, and the jobs the shared pass moved
 * (plan_share.c); only for a spec with owned: GPUs. */
static void capacity_json(cJSON *root, const struct jobspec *spec, const struct plan *p)
{
	if (!spec->n_owned)
		return;
	cJSON_AddStringToObject(root, "owned_capacity", p->owned_shared ? "shared" : "each-alone");
	cJSON *a = cJSON_AddArrayToObject(root, "capacity_moves");
	for (size_t i = 0; i < p->n_moves; i++) {
		const struct capacity_move *m = &p->moves[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "job", p->jobs[m->job].job->name);
		cJSON_AddStringToObject(o, "gpu", m->gpu->name);
		cJSON_AddNumberToObject(o, "on_hand", m->on_hand);
		cJSON_AddItemToObject(o, "from",
		                      move_end_json((int)m->from_route, m->from_cost, m->from_what));
		cJSON_AddItemToObject(o, "to", move_end_json(m->to_route, m->to_cost, m->to_what));
		cJSON_AddNumberToObject(o, "gpus_needed", m->gpus_needed);
		cJSON_AddNumberToObject(o, "gpus_left", m->gpus_left);
		cJSON_AddNumberToObject(o, "gpu_hours_needed", round_to(m->hours_needed, 1));
		cJSON_AddNumberToObject(o, "gpu_hours_left", round_to(m->hours_left, 1));
		cJSON_AddStringToObject(o, "reason", m->reason);
		cJSON_AddItemToArray(a, o);
	}
}

/* The plan's total, as the table's summary line states it. */
static void total_json(cJSON *root, const struct plan *p)
{
	struct plan_total t;
	plan_total(p, &t);
	cJSON *o = cJSON_AddObjectToObject(root, "total");
	cJSON_AddNumberToObject(o, "monthly_cost", round_to(t.monthly, 2));
	cJSON_AddStringToObject(o, "basis", "jobs priced one by one");
	cJSON_AddNumberToObject(o, "capex", round_to(t.capex, 2));
	add_num_or_null(o, "payback_months", plan_total_payback(&t), 1);
	cJSON_AddNumberToObject(o, "unrunnable_jobs", (double)t.unrunnable);
}

/* The document without its jobs, which job_json makes as they print. */
static int print_json(const struct jobspec *spec, const struct plan *p)
{
	cJSON *root = json_doc_new("planner/compare/v1");
	cJSON_AddStringToObject(root, "currency", p->currency);
	cJSON_AddStringToObject(root, "prices_as_of", p->prices_as_of);
	if (p->fx_note[0])
		cJSON_AddStringToObject(root, "exchange_rates", p->fx_note);
	/* Kept for compatibility: "mixed" when some providers are live and
	 * others the snapshot; providers_source says which. */
	cJSON_AddStringToObject(root, "prices_source", p->prices_source);
	cJSON *srcs = cJSON_AddObjectToObject(root, "providers_source");
	for (size_t i = 0; i < p->n_sources; i++)
		cJSON_AddStringToObject(srcs, p->sources[i].name,
					p->sources[i].live ? "live" : "snapshot");
	cJSON *stale = cJSON_AddArrayToObject(root, "stale_providers");
	for (size_t i = 0; i < p->n_stale; i++)
		cJSON_AddItemToArray(stale, cJSON_CreateString(p->stale[i]));
	cJSON_AddNumberToObject(root, "electricity_per_kwh", spec->electricity_per_kwh);
	cJSON_AddNumberToObject(root, "pue", spec->pue);
	cJSON_AddNumberToObject(root, "amortize_months", spec->amortize_months);
	capacity_json(root, spec, p);
	total_json(root, p);
	cJSON *jobs = cJSON_AddArrayToObject(root, "jobs");
	struct json_jobs jj = {.spec = spec, .plan = p};
	char *err = NULL;
	int rc = plan_horizon_json(root, spec, p, &err);
	if (rc != PLANNER_OK) {
		cJSON_Delete(root);
		errorf("%s", err);
		free(err);
		return rc;
	}
	return cli_print_json_items(root, jobs, p->n_jobs, job_json, &jj);
}

static void csv_num(FILE *f, double v, int places)
{
	if (isfinite(v))
		fprintf(f, "%.*f", places, round_to(v, places));
}

static int print_csv(const struct plan *p, bool co2)
{
	FILE *f = stdout;
	fputs("job,model,route,feasible,provider,offer,gpu,gpu_count,price_per_hour,gpu_hours,"
	      "tokens_per_second,monthly_cost,best,why,currency,prices_as_of",
	      f);
	fputs(co2 ? ",energy_kwh,co2_kg,co2_source\r\n" : "\r\n", f);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		for (int k = 0; k < (int)route_count(); k++) {
			const struct route_result *r = &j->routes[k];
			csv_field(f, j->job->name);
			fputc(',', f);
			csv_field(f, j->job->model_ref);
			fprintf(f, ",%s,%s,", route_name(r->route), r->feasible ? "true" : "false");
			csv_field(f, r->provider);
			fputc(',', f);
			csv_field(f, r->offer);
			fputc(',', f);
			csv_field(f, r->gpu ? r->gpu->name : "");
			fputc(',', f);
			if (r->gpu)
				fprintf(f, "%d", r->gpu_count);
			fputc(',', f);
			if (route_has(r->route, ROUTE_HOURLY) && r->feasible)
				csv_num(f, r->price_per_hour, 4);
			fputc(',', f);
			if (route_has(r->route, ROUTE_ON_GPUS) && r->feasible)
				csv_num(f, r->gpu_hours, 2);
			fputc(',', f);
			if (route_has(r->route, ROUTE_ON_GPUS) && r->feasible)
				csv_num(f, r->tokens_per_second, 1);
			fputc(',', f);
			if (r->feasible)
				csv_num(f, r->monthly_cost, 2);
			fprintf(f, ",%s,", j->best == k ? "true" : "false");
			csv_field(f, r->feasible ? "" : r->why);
			fprintf(f, ",%s,%s", p->currency, p->prices_as_of);
			if (co2) {
				fputc(',', f);
				csv_num(f, r->feasible ? r->energy_kwh : NAN, 1);
				fputc(',', f);
				csv_num(f, r->feasible ? r->co2_kg : NAN, 2);
				fputc(',', f);
				csv_field(f, r->co2_source ? r->co2_source : "");
			}
			fputs("\r\n", f);
		}
	}
	return PLANNER_OK;
}

/* The route column of the detail lines: as wide as the longest route
 * name ("serverless"), 6 at least. */
static int route_name_width(void)
{
	int w = 6;
	for (size_t k = 0; k < route_count(); k++) {
		int n = (int)strlen(route_name((enum route)k));
		if (n > w)
			w = n;
	}
	return w;
}
/* The widest the summary's job column grows (40 + the other columns fit a
 * 100-column terminal). */
#define JOB_COLUMN_MAX 40
/* Width of a route's cost column: "serverless" and a five-figure cost
 * with cents, so the four shipped routes beside a 22-character job name
 * fit in 80 columns. */
#define COST_COLUMN 10

/* What the table's words mean, once, under it. */
#define TABLE_LEGEND                                                                               \
	"GiB in all: the job's GPU memory (weights, KV cache, overhead) before it is split "       \
	"over GPUs; tok/s: output tokens per second of all streams and replicas together "         \
	"(fine-tuning: training tokens/s), not one stream's; Mtok: million tokens"

/* What --show co2's figures are, once, under the table. */
#define CO2_LEGEND                                                                                 \
	"kWh: GPU board power x billed hours x PUE (owned: as its power cost counts it; rented: "   \
	"the provider's published PUE, else the industry average 1.58); CO2e: kWh x the yearly "    \
	"average grid intensity of the region or country (docs/estimation.md, \"Energy and CO2\")"

/* Whether the spec's costs: block adds a term to the owned route. */
static bool costs_given(const struct jobspec *spec)
{
	const struct tco_costs *k = &spec->costs;
	return k->host_price > 0 || k->host_watts > 0 || k->resale_percent > 0 ||
	       k->capital_rate_percent > 0 || k->maintenance_per_gpu_month > 0;
}

/* ", 62.1 kWh, 15.7 kg CO2e (Ember 2024 (NL))" or ", CO2e not known: why"
 * after a feasible route's text (compare --show co2). */
static void co2_text(char *buf, size_t len, const struct route_result *r)
{
	size_t n = strlen(buf);
	if (n >= len)
		return;
	if (isfinite(r->co2_kg))
		snprintf(buf + n, len - n, ", %.1f kWh, %.1f kg CO2e (%s)", r->energy_kwh, r->co2_kg,
		         r->co2_source);
	else if (isfinite(r->energy_kwh))
		snprintf(buf + n, len - n, ", %.1f kWh, CO2e not known: %s", r->energy_kwh,
		         r->co2_note);
	else
		snprintf(buf + n, len - n, ", energy and CO2e %s", r->co2_note);
}

static void route_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
			 bool costs)
{
	if (!r->feasible) {
		snprintf(buf, len, "not possible: %s", r->why);
		return;
	}
	const struct route_ops *ops = route_at((size_t)r->route);
	int n = 0;
	if (ops && ops->detail)
		n = ops->detail(buf, len, r, cur, costs);
	else
		buf[0] = '\0';
	if (n > 0 && (size_t)n < len && isfinite(r->cost_per_mtok))
		snprintf(buf + n, len - (size_t)n, ", %.4g %s/Mtok", r->cost_per_mtok, cur);
}

/* compare's "  break-even: …" line of job j into line (len bytes). */
static void breakeven_line(char *line, size_t len, const struct job_result *j)
{
	snprintf(line, len, "  break-even:");
	for (size_t b = 0; b < breakeven_count(); b++) {
		const struct breakeven_pair *bp = breakeven_at(b);
		char t[64];
		size_t used = strlen(line);
		const char *note = j->be.note[b];
		/* GPUs on hand: one "already owned: power only" in place
		 * of the figures it stands for. */
		if (!strcmp(note, BREAKEVEN_ALREADY_OWNED)) {
			if (b == 0 || strcmp(j->be.note[b - 1], note))
				snprintf(line + used, len - used, "%s %s", b ? ";" : "", note);
			continue;
		}
		bp->text(t, sizeof t, j->be.value[b], note);
		snprintf(line + used, len - used, "%s %s %s", b ? ";" : "", bp->label, t);
	}
}

/* How the GPUs on hand were priced, under the table, and each job the
 * shared pass moved with why. */
static void print_moves(const struct cli *c, const struct jobspec *spec, const struct plan *p)
{
	if (!spec->n_owned)
		return;
	if (!p->owned_shared) {
		cli_wrap(c, 0,
		         "GPUs on hand: each job priced alone, as if it had all of them "
		         "(--each-alone)");
		return;
	}
	cli_wrap(c, 0,
	         "GPUs on hand: shared, to the jobs that save most per GPU-hour on them "
	         "(ties: priority); --each-alone prices each job alone");
	for (size_t i = 0; i < p->n_moves; i++) {
		const struct capacity_move *m = &p->moves[i];
		char name[64], to[160] = "no route", what[128];
		if (m->to_route >= 0)
			snprintf(to, sizeof to, "%s (%.2f)", cli_safe(what, sizeof what, m->to_what),
			         m->to_cost);
		cli_wrap(c, 2, "moved: %s from %s (%.2f) to %s: %s",
		         cli_safe(name, sizeof name, p->jobs[m->job].job->name), m->from_what,
		         m->from_cost, to, m->reason);
	}
}

/* The plan in one line, as plan_total sums it: the figure fleet and the
 * report quote for "jobs priced one by one" (issue 26). */
static void summary_line(const struct cli *c, const struct plan *p)
{
	struct plan_total t;
	plan_total(p, &t);
	double payback = plan_total_payback(&t);
	char buys[160] = "; no purchases";
	if (t.capex > 0 && isfinite(payback))
		snprintf(buys, sizeof buys,
		         "; purchases %.0f %s up front, paying back in %.1f months against renting",
		         t.capex, p->currency, payback);
	else if (t.capex > 0)
		snprintf(buys, sizeof buys,
		         "; purchases %.0f %s up front, not paying back within the amortisation",
		         t.capex, p->currency);
	putchar('\n');
	cli_wrap(c, 0,
	         "in all: %.2f %s a month, jobs priced one by one%s; buying for all the jobs "
	         "together: planner fleet",
	         t.monthly, p->currency, buys);
	if (t.unrunnable)
		cli_wrap(c, 0, "%zu job%s no route can run %s not in the total", t.unrunnable,
		         t.unrunnable == 1 ? "" : "s", t.unrunnable == 1 ? "is" : "are");
}

/* The usage arithmetic, and the hours the service is up when serving
 * sets them (window, always-on). */
static void usage_line(const struct cli *c, const struct job *job)
{
	char text[256];
	job_usage_text(job, text, sizeof text);
	if (!text[0])
		return;
	if (job->serving == SERVING_ON_DEMAND)
		cli_wrap(c, 4, "  usage: %s", text);
	else
		cli_wrap(c, 4, "  usage: %s; up %.1f h a month (serving: %s%s)", text,
		         job->hours_per_month, serving_name(job->serving),
		         job->serving_implied ? ", as an interactive job" : "");
}

/* compare's summary table: a row per job, its best route and each
 * route's monthly cost (with co2, the best route's kg CO2e), and the line
 * under it. */
static void summary_table(const struct cli *c, const struct plan *p, bool co2)
{
	const char *green = c->color ? "\033[32m" : "", *off = c->color ? "\033[0m" : "";
	/* The job column is as wide as the longest name, at least 22 and
	 * at most JOB_COLUMN_MAX; a longer name is cut here and shown whole
	 * in its section below. */
	int w = 22;
	for (size_t i = 0; i < p->n_jobs; i++) {
		char name[64];
		int len = (int)strlen(cli_safe(name, sizeof name, p->jobs[i].job->name));
		w = len > w ? (len < JOB_COLUMN_MAX ? len : JOB_COLUMN_MAX) : w;
	}
	size_t n_routes = route_count();
	printf("%-*s %-9s", w, "job", "best");
	for (size_t k = 0; k < n_routes; k++)
		printf(" %*s", COST_COLUMN, route_name((enum route)k));
	if (co2)
		printf(" %*s", COST_COLUMN, "kg CO2e");
	putchar('\n');
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		char name[64];
		printf("%-*.*s %s%-9s%s", w, w, cli_safe(name, sizeof name, j->job->name), green,
		       j->best >= 0 ? route_name((enum route)j->best) : "none", off);
		for (size_t k = 0; k < n_routes; k++) {
			char cell[32] = "-";
			if (j->routes[k].feasible)
				snprintf(cell, sizeof cell, "%.2f", j->routes[k].monthly_cost);
			printf(" %*s", COST_COLUMN, cell);
		}
		if (co2) {
			char cell[32] = "-";
			if (j->best >= 0 && isfinite(j->routes[j->best].co2_kg))
				snprintf(cell, sizeof cell, "%.1f", j->routes[j->best].co2_kg);
			printf(" %*s", COST_COLUMN, cell);
		}
		putchar('\n');
	}
	printf("(monthly cost, %s; - means the route cannot run the job%s)\n", p->currency,
	       co2 ? "; kg CO2e: the best route's month, - when not known" : "");
}

/* Under a feasible route of a job with slo: the latency it was sized
 * to, or that the route has no latency model. */
static void latency_line(const struct cli *c, int col, const struct job *j,
                         const struct route_result *r)
{
	if (!j->slo.given || !r->feasible)
		return;
	if (!r->slo_sized) {
		cli_wrap(c, col, "%*slatency: not modelled", col, "");
		return;
	}
	char t[32] = "", u[32] = "";
	if (j->slo.ttft_ms > 0)
		snprintf(t, sizeof t, " (slo %g)", j->slo.ttft_ms);
	if (j->slo.tpot_ms > 0)
		snprintf(u, sizeof u, " (slo %g)", j->slo.tpot_ms);
	cli_wrap(c, col, "%*slatency: p%g TTFT %.0f ms%s, TPOT %.1f ms%s, batch %d", col, "",
	         j->slo.percentile, r->ttft_ms, t, r->tpot_ms, u, r->batch);
}

static int print_table(const struct cli *c, const struct jobspec *spec, const struct plan *p,
                       bool co2)
{
	const char *bold = c->color ? "\033[1m" : "", *off = c->color ? "\033[0m" : "";
	summary_table(c, p, co2);
	if (plan_speed_marked(p))
		cli_wrap(c, 0, "%s", CONFIDENCE_LEGEND);
	print_moves(c, spec, p);
	summary_line(c, p);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		char name[256], model[256];
		putchar('\n');
		cli_wrap(c, 2,
		         "%s%s%s  %s %s, %s, needs %.1f GiB of GPU memory in all, %.1f GPU-h/month",
		         bold, cli_safe(name, sizeof name, j->job->name), off,
		         cli_safe(model, sizeof model, j->job->model_ref), j->job->precision,
		         task_name(j->job->task), j->vram_gib, j->gpu_hours_per_month);
		usage_line(c, j->job);
		/* Where a route's "how" text starts: "  rented     *   1585.34  " */
		int rw = route_name_width(), detail_col = rw + 17;
		for (int k = 0; k < (int)route_count(); k++) {
			char detail[512];
			route_detail(detail, sizeof detail, &j->routes[k], p->currency,
				     costs_given(spec));
			if (co2 && j->routes[k].feasible)
				co2_text(detail, sizeof detail, &j->routes[k]);
			if (j->routes[k].carbon_cost > 0)
				snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
				         ", carbon %.2f", j->routes[k].carbon_cost);
			cli_safe(detail, sizeof detail, detail); /* offer names come from feeds */
			char cost[32] = "-";
			if (j->routes[k].feasible)
				snprintf(cost, sizeof cost, "%.2f", j->routes[k].monthly_cost);
			/* Never cut: the "how" figures let the cost be redone by
			 * hand, and a reason is needed whole. Wrapped lines go
			 * under the text, clear of the route and cost columns. */
			cli_wrap(c, detail_col, "  %-*s %s %10s  %s", rw, route_name((enum route)k),
			         j->best == k ? "*" : " ", cost, detail);
			/* Devices on hand the job cannot use, under the route. */
			if (j->routes[k].left_out[0])
				cli_wrap(c, detail_col, "%*sleft out: %s", detail_col, "",
				         cli_safe(detail, sizeof detail, j->routes[k].left_out));
			latency_line(c, detail_col, j->job, &j->routes[k]);
		}
		char line[512];
		if (j->mix) {
			plan_mix_text(line, sizeof line, j->mix, j, p->currency);
			cli_wrap(c, 4, "%s", line);
		}
		breakeven_line(line, sizeof line, j);
		cli_wrap(c, 4, "%s", line);
	}
	printf("\n");
	cli_wrap(c, 0, "electricity %.3f %s/kWh, PUE %.2f, purchases over %.0f months",
	         spec->electricity_per_kwh, p->currency, spec->pue, spec->amortize_months);
	cli_wrap(c, 0, "%s", TABLE_LEGEND);
	if (co2)
		cli_wrap(c, 0, "%s", CO2_LEGEND);
	if (spec->costs.carbon_price_per_tonne > 0)
		cli_wrap(c, 0, "costs include a carbon price of %.2f %s a tonne CO2e where the CO2e "
		               "is known", spec->costs.carbon_price_per_tonne, p->currency);
	if (p->fx_note[0])
		cli_wrap(c, 0, "exchange rates: %s", p->fx_note);
	if (p->fx_dropped)
		cli_wrap(c, 0, "%zu offer%s left out: no exchange rate for %s currency", p->fx_dropped,
		         p->fx_dropped == 1 ? "" : "s", p->fx_dropped == 1 ? "its" : "their");
	return PLANNER_OK;
}

/* An on-demand job with a request shape whose tokens take less than this
 * share of its window's hours looks like a service priced as a batch
 * (issue 27: a chat job up 221 h priced for the 4.9 h its tokens take).
 * A judgement, not a measurement: a tenth leaves room for a batch that
 * runs a few nights of a week's window. */
#define WINDOW_BUSY_SHARE_HINT 0.10

/* Warns of jobs whose token-derived hours look implausible for their
 * window: served, they would be up all of it (serving: window). */
static void warn_implausible_hours(const struct jobspec *spec, const struct plan *p)
{
	for (size_t i = 0; i < p->n_jobs && i < spec->n_jobs; i++) {
		const struct job *j = &spec->jobs[i];
		double window = schedule_month_hours(&j->sched), busy = p->jobs[i].gpu_hours_per_month;
		if (j->serving != SERVING_ON_DEMAND || j->has_hours || !j->has_tokens ||
		    !j->has_request || j->task != TASK_INFERENCE || window >= HOURS_PER_MONTH ||
		    !(busy > 0) || busy >= WINDOW_BUSY_SHARE_HINT * window)
			continue;
		warnf("job '%s' is priced for the %.1f h its tokens take, %.0f%% of its window's "
		      "%.1f h a month; if people use it during the window, write serving: window",
		      j->name, busy, 100 * busy / window, window);
	}
}

/* --measured FILE and the flags that say what it ran on. */
static int measured_option(struct cli *c, int opt)
{
	struct measured_flags *f = &c->measured;
	double v;
	switch (opt) {
	case 'M':
		f->file = optarg;
		break;
	case 'g':
		f->gpu = optarg;
		break;
	case 'n':
		if (!parse_count(optarg, &v) || v < 1 || v > JOBSPEC_MAX_GPU_COUNT || v != (int)v)
			return cli_usage(c, "--gpus wants a whole number of GPUs, 1 to %d",
			                 JOBSPEC_MAX_GPU_COUNT);
		f->count = (int)v;
		break;
	case 'p':
		f->precision = optarg;
		break;
	case 'e':
		f->engine = optarg;
		break;
	default:
		f->model = optarg;
	}
	return PLANNER_OK;
}

static int exec_compare(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
					     {"quiet", no_argument, NULL, 'q'},
					     CLI_SET_OPTION, CLI_ALONE_OPTION,
					     {"measured", required_argument, NULL, 'M'},
					     {"gpu", required_argument, NULL, 'g'},
					     {"gpus", required_argument, NULL, 'n'},
					     {"precision", required_argument, NULL, 'p'},
					     {"engine", required_argument, NULL, 'e'},
					     {"model", required_argument, NULL, 'm'},
					     {"show", required_argument, NULL, 's'},
					     {0, 0, 0, 0}};
	int opt, rc;
	bool co2 = false;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hq", opts, NULL)) != -1) {
		if (opt == 'q') {
			c->quiet = true;
			continue;
		}
		if (opt == 's') {
			char hint[128];
			if (strcmp(optarg, "co2"))
				return cli_usage(c, "--show '%s' is not a column; %s", optarg,
				                 near_miss_text(optarg, "co2", hint, sizeof hint));
			co2 = true;
			continue;
		}
		if ((rc = opt > 0 && opt < 128 && strchr("Mgnpem", opt)
		              ? measured_option(c, opt)
		              : cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	const struct measured_flags *f = &c->measured;
	if (!f->file && (f->gpu || f->count || f->precision || f->engine || f->model))
		return cli_usage(c, "--gpu, --gpus, --precision, --engine and --model say what "
		                    "--measured FILE was measured on; give --measured FILE");
	const char *path = argv[optind];
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	heap_huge_pages(COMPARE_HEAP_HUGE);
	c->share_owned = true;
	if ((rc = cli_plan(c, path, &spec, &plan)) != PLANNER_OK)
		return rc;
	warn_implausible_hours(spec, plan);
	if (c->format == FORMAT_JSON)
		rc = print_json(spec, plan);
	else if (c->format == FORMAT_CSV)
		rc = print_csv(plan, co2);
	else
		rc = print_table(c, spec, plan, co2);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_compare_entry = {
	.name = "compare",
	.args = "FILE [--format table|json|csv] [--set KEY=VALUE]... [--each-alone] "
		"[--measured FILE --gpu G [--gpus N] [--precision P] [--engine E] [--model M]] "
		"[--show co2] [--db PATH] [--quiet]",
	.summary = "cost of every job on the api, rented, owned and serverless routes; the cheapest",
	.help = "Prices every job in the job spec FILE on the four routes: a cloud API\n"
		"paid per token, a rented cloud GPU paid per hour, a GPU you own (power\n"
		"only) or buy (amortised purchase plus power), and a serverless GPU\n"
		"endpoint paid per second of worker time. Prints the cheapest route,\n"
		"the monthly cost of each, and the break-even points; under the table, the\n"
		"plan in all, jobs priced one by one (the figure 'planner fleet' and the\n"
		"report quote for it; what to buy for all the jobs together is fleet's).\n\n"
		"  --format F   table (default), json or csv\n"
		"  --db PATH    price database (else $PLANNER_DB, else\n"
		"               $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet      no note about where the prices come from or stale ones\n"
		"  --show co2   each route's energy (kWh) and CO2e (kg) a month, and the\n"
		"               best route's CO2e in the table (csv: three more columns)\n"
		CLI_SET_HELP CLI_ALONE_HELP
		"  --measured FILE    a benchmark you ran (llama-bench -o json, vllm bench\n"
		"                     serve --save-result, GuideLLM or AIPerf/genai-perf\n"
		"                     JSON) on --gpus N (default 1) of --gpu G; --precision,\n"
		"                     --engine and --model limit it to jobs of those (default:\n"
		"                     any). A job it matches uses the measured speed, as with\n"
		"                     the spec's measurements:\n"
		"\n"
		"examples:\n  planner compare jobs/monthly.yaml --format json | jq '.jobs[].best'\n"
		"  planner compare jobs/monthly.yaml --set costs.capital_rate_percent=8\n"
		"  planner compare jobs/monthly.yaml --show co2\n",
	.exec = exec_compare,
};
