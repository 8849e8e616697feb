/* route_api.c — the api route: a hosted model paid per input and output
 * token (docs/estimation.md, "Cost"). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan_cache.h"
#include "route_price.h"
#include "util.h"

/* price_api copies a price row's date whole into the route. */
_Static_assert(sizeof((struct route_result *)0)->fetched_at ==
                   sizeof((struct api_price *)0)->fetched_at,
               "an API price's fetched_at and a route's are one size");

/* What a cached_share of the input costs per input token at one API
 * price: the cached share at the feed's cached-read price (the full input
 * price where none is listed: no discount assumed) and the rest at the
 * cache-write price where one is listed (each uncached input token is
 * written to the cache once, which is how Anthropic-style caches bill a
 * prompt the first time), else at the input price. `in` is the input
 * price of the request's tier. */
struct cache_bill {
	double input; /* mean price of one input token */
	double read;  /* price used for a cached token */
	double write; /* price used for an uncached token written; 0 none */
};

static struct cache_bill cache_bill(const struct api_price *a, double in, double share)
{
	struct cache_bill b = {.input = in, .read = in, .write = 0};
	if (share <= 0)
		return b;
	if (a->cache_read_per_token > 0)
		b.read = a->cache_read_per_token;
	if (a->cache_write_per_token > 0)
		b.write = a->cache_write_per_token;
	b.input = share * b.read + (1.0 - share) * (b.write > 0 ? b.write : in);
	return b;
}

static int price_api(const struct route_ctx *c, struct route_result *r, char **err)
{
	const struct job *j = c->job;
	if (!j->has_tokens) {
		route_why(
		    r, "no tokens_per_month; give the job's token volume to price the api route");
		return PLANNER_OK;
	}
	char *const *models = j->api_models ? j->api_models : j->model.api_models;
	size_t n_models = j->api_models ? j->n_api_models : j->model.n_api_models;
	if (n_models == 0) {
		route_why(r,
		          "no API serves %s that planner knows of; list alternatives in api_models",
		          j->model.id);
		return PLANNER_OK;
	}
	double best = INFINITY;
	size_t elsewhere = 0; /* prices left out by the job's regions */
	size_t unpriced = 0;  /* prices in a currency with no exchange rate */
	for (size_t m = 0; m < n_models; m++) {
		const struct api_price *rows = NULL;
		size_t n = 0;
		int rc = api_cache_prices(c->api, c->st, models[m], &rows, &n, err);
		if (rc)
			return rc;
		for (size_t i = 0; i < n; i++) {
			/* A row's context is the model's window there. */
			if (rows[i].context > 0 && rows[i].context < j->context)
				continue;
			if (!workload_region_allowed(c->w, NULL, rows[i].country,
			                             rows[i].region_group)) {
				elsewhere++;
				continue;
			}
			/* The row's currency into the spec's; a currency with no
			 * rate leaves the row out. */
			double rate;
			if (!plan_currency_rate(c->spec, c->ref, rows[i].currency, &rate)) {
				unpriced++;
				continue;
			}
			/* A long-prompt tier bills the whole request, prompt and
			 * completion, by the job's mean prompt (request.input). */
			const struct api_tier *t = api_price_tier(&rows[i], j->request_input);
			double in = t ? t->input_per_token : rows[i].input_per_token;
			double out = t ? t->output_per_token : rows[i].output_per_token;
			struct cache_bill cb = cache_bill(&rows[i], in, j->cached_share);
			double cost = (j->input_tokens * cb.input + j->output_tokens * out) * rate;
			if (cost < best) {
				best = cost;
				r->feasible = true;
				r->monthly_cost = cost;
				snprintf(r->provider, sizeof r->provider, "%s", rows[i].provider);
				snprintf(r->offer, sizeof r->offer, "%s", rows[i].model);
				memcpy(r->fetched_at, rows[i].fetched_at, sizeof r->fetched_at);
				snprintf(r->price_currency, sizeof r->price_currency, "%s",
				         rows[i].currency[0] ? rows[i].currency : "USD");
				r->input_per_mtok = in * 1e6 * rate;
				r->output_per_mtok = out * 1e6 * rate;
				r->cached_share = j->cached_share;
				r->cache_read_per_mtok = cb.read * 1e6 * rate;
				r->cache_write_per_mtok = cb.write * 1e6 * rate;
			}
		}
	}
	if (!r->feasible && elsewhere)
		route_why(r,
		          "no API host of %s%s processes data in the job's regions (%zu priced "
		          "elsewhere or of unknown location)",
		          models[0], n_models > 1 ? " or its alternatives" : "", elsewhere);
	else if (!r->feasible && unpriced)
		route_why(r,
		          "the API prices of %s%s are in a currency with no exchange rate (%zu "
		          "rows); give its rate in the spec's fx",
		          models[0], n_models > 1 ? " or its alternatives" : "", unpriced);
	else if (!r->feasible)
		route_why(r,
		          "no API price for %s%s in the database; run `planner refresh` or set "
		          "api_models",
		          models[0], n_models > 1 ? " or its alternatives" : "");
	return PLANNER_OK;
}

/* The API bill and a rented bill for fixed hours cross at the token
 * volume whose API cost equals the rental; when the hours themselves
 * come from the tokens both bills grow in step and never cross. */
double breakeven_api_rented_tokens(const struct breakeven_pair *bp, const struct jobspec *spec,
                                   const struct job_result *res, char *note, size_t len)
{
	(void)spec;
	const struct route_result *api = &res->routes[route_index(bp->a)];
	const struct route_result *rent = &res->routes[route_index(bp->b)];
	const struct job *j = res->job;
	if (len)
		note[0] = '\0';
	if (!api->feasible || !rent->feasible || !j->has_hours)
		return NAN;
	/* k replicas cost k x one's bill and carry k x one's tokens, so the
	 * API line meets the rented steps inside the first replica's
	 * capacity or never. */
	double tokens = j->input_tokens + j->output_tokens;
	double per_token = api->monthly_cost / tokens;
	double one = rent->monthly_cost / rent->replicas;
	double capacity =
	    rent->work_hours > 0 ? tokens * rent->gpu_hours / rent->work_hours : INFINITY;
	if (per_token > 0 && one / per_token <= capacity)
		return one / per_token;
	return NAN;
}

static void api_json(cJSON *o, const struct plan *p, const struct route_result *r)
{
	cJSON_AddStringToObject(o, "provider", r->provider);
	cJSON_AddStringToObject(o, "prices_source", plan_provider_source(p, r->provider));
	cJSON_AddStringToObject(o, "offer", r->offer);
	cJSON_AddNumberToObject(o, "input_per_mtok", round_to(r->input_per_mtok, 4));
	cJSON_AddNumberToObject(o, "output_per_mtok", round_to(r->output_per_mtok, 4));
	/* Only a job with request.cached_share: the others' JSON is as it was. */
	if (r->cached_share > 0) {
		cJSON_AddNumberToObject(o, "cached_share", round_to(r->cached_share, 4));
		cJSON_AddNumberToObject(o, "cache_read_per_mtok",
		                        round_to(r->cache_read_per_mtok, 4));
		cJSON_AddNumberToObject(o, "cache_write_per_mtok",
		                        round_to(r->cache_write_per_mtok, 4));
	}
	if (strcmp(r->price_currency, "USD"))
		cJSON_AddStringToObject(o, "price_currency", r->price_currency);
}

static int api_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
                      bool costs)
{
	(void)cur;
	(void)costs;
	if (r->cached_share > 0)
		return snprintf(
		    buf, len, "%s %s, %.3f in / %.3f out per Mtok, %.0f %% of input cached at %.3f",
		    r->provider, r->offer, r->input_per_mtok, r->output_per_mtok,
		    r->cached_share * 100, r->cache_read_per_mtok);
	return snprintf(buf, len, "%s %s, %.3f in / %.3f out per Mtok", r->provider, r->offer,
	                r->input_per_mtok, r->output_per_mtok);
}

static void api_report_detail(char *buf, size_t len, const struct route_result *r, const char *cur)
{
	snprintf(buf, len, "%s %s: %.3f in / %.3f out %s per million tokens", r->provider, r->offer,
	         r->input_per_mtok, r->output_per_mtok, cur);
}

static void api_summary(char *buf, size_t len, const struct job_result *j, const char *cur)
{
	(void)cur;
	const struct route_result *r = &j->routes[j->best];
	snprintf(buf, len, "use the API: %s %s", r->provider, r->offer);
}

static void api_decision(char *buf, size_t len, const struct route_result *r)
{
	snprintf(buf, len, "api %s %s", r->provider, r->offer);
}

static const enum route_field api_head[] = {ROUTE_FIELD_MONTHLY_COST, ROUTE_FIELD_OFFER,
                                            ROUTE_FIELD_END};
static const enum route_field api_tail[] = {ROUTE_FIELD_END};

const struct route_ops route_api = {
    .name = "api",
    .tie_rank = 2,
    .flags = ROUTE_THIRD_PARTY | ROUTE_LEAVES_HOUSE | ROUTE_INFERENCE_ONLY,
    .colour = "#0072b2",
    .price = price_api,
    .json = api_json,
    .detail = api_detail,
    .report_detail = api_report_detail,
    .summary = api_summary,
    .decision = api_decision,
    .csv_head = api_head,
    .csv_tail = api_tail,
};
