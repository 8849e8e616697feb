/* route_rented.c — the rented route: cloud GPUs paid per instance-hour,
 * from the offers in the store and the spec's quotes (docs/estimation.md,
 * "Cost"). */
#include <cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric.h"
#include "offer_index.h"
#include "plan_cache.h"
#include "route_price.h"
#include "util.h"

/* A rented route: what renting `count` GPUs at `price` costs when the job
 * needs `run`. */
struct rental {
	const struct gpu_spec *gpu;
	int count;
	double price;
	bool spot;
	const char *provider, *offer, *region, *country;
	const char *fetched_at; /* the row's date; NULL for a quote */
	int max_replicas;       /* offers: up to WORKLOAD_MAX_GPUS; a quote: itself only */
	/* Instances joined past one node (join_offers): the run already sized
	 * on `sized`, the GPU with the offer's fabric; NULL for one instance. */
	const struct workload_run *run;
	const struct gpu_spec *sized;
	const char *fabric;
};

/* Considers one rentable configuration; keeps it in r when it is cheaper. */
static void consider_rental(const struct route_ctx *c, struct route_result *r,
                            const struct rental *o, struct short_of *sh)
{
	struct workload_run run;
	char why_short[256];
	if (o->run)
		run = *o->run;
	else if (!size_cache_size(c->sizes, c->shape, c->w, o->gpu, o->count, o->max_replicas,
	                          &run, why_short, sizeof why_short)) {
		route_note_short(sh, &run, why_short);
		return;
	}
	double setup = tco_setup_cost(c->spec, c->job, run.hours, run.replicas, o->price);
	double cost = run.replicas * run.hours * o->price + setup;
	if (r->feasible &&
	    (cost > r->monthly_cost || (cost == r->monthly_cost && o->price >= r->price_per_hour)))
		return;
	r->feasible = true;
	r->gpu = o->gpu;
	r->gpu_count = o->count * run.replicas;
	route_set_nodes(r, c->w, o->sized ? o->sized : o->gpu, o->count);
	if (r->nodes > 1 && o->fabric)
		text_copy(r->fabric, sizeof r->fabric, o->fabric);
	r->replicas = run.replicas;
	r->batch = run.batch;
	route_copy_latency(r, &run);
	r->work_hours = run.work_hours;
	r->spot = o->spot;
	r->price_per_hour = o->price;
	r->gpu_hours = run.hours;
	r->tokens_per_second = run.tps * run.replicas;
	r->measured = run.measured;
	r->confidence = route_confidence(c->w, o->gpu, o->count);
	r->monthly_cost = cost;
	r->setup_cost = setup;
	text_copy(r->provider, sizeof r->provider, o->provider);
	text_copy(r->offer, sizeof r->offer, o->offer);
	text_copy(r->region, sizeof r->region, o->region);
	text_copy(r->fetched_at, sizeof r->fetched_at, o->fetched_at);
	text_copy(r->country, sizeof r->country, o->country);
}

/* The rental an offer is (prices converted by load_offers). */
static struct rental offer_rental(const struct offer *o, const struct gpu_spec *gpu)
{
	return (struct rental){.gpu = gpu,
	                       .count = o->gpu_count,
	                       .price = o->price_per_hour,
	                       .spot = o->spot,
	                       .provider = o->provider,
	                       .offer = o->offer,
	                       .region = o->region,
	                       .country = o->country,
	                       .fetched_at = o->fetched_at,
	                       .max_replicas = WORKLOAD_MAX_GPUS / o->gpu_count};
}

/* The least a rental at *price an hour costs at run's sizing or more
 * (struct size_bound): its replica-hours at the price. */
static double rental_floor(const void *price, const struct workload_run *run)
{
	return run->replicas * run->hours * *(const double *)price;
}

/* What a pass over the groups saw, for the reason when nothing fits. */
struct rent_scan {
	double max_vram;
	int max_count;
	size_t considered;
};

/* The cheapest so far of a pass over the groups. */
struct rent_best {
	size_t i; /* its offer; OFFER_NONE: none yet */
	double cost;
	const struct gpu_spec *gpu;
};

/* A GPU's speed is the part's; a rented CPU's, its VM's share. */
static const struct gpu_spec *group_device(const struct offer_group *g)
{
	return g->gpu->kind == DEVICE_CPU ? &g->sized : g->gpu;
}

/* Sizes group k, priced by its cheapest offer h lets through, and keeps
 * it in b when cheaper: then lower-priced, then earlier, a total order,
 * so the groups may come in any order. */
static void size_group(const struct route_ctx *c, const struct offer_hits *h, size_t k,
                       struct short_of *sh, struct rent_best *b)
{
	const struct offer_index *x = c->idx;
	const struct offer_group *g = &x->groups[k];
	const struct gpu_spec *dev = group_device(g);
	size_t i = h->cheapest[k];
	struct workload_run run;
	char why_short[256];
	/* A group that cannot beat the best is not sized to latency targets
	 * (struct size_bound). */
	struct size_bound bound = {.floor = rental_floor,
	                           .ctx = &x->offers[i].price_per_hour,
	                           .best = b->i == OFFER_NONE ? INFINITY : b->cost};
	if (!size_cache_size_within(c->sizes, c->shape, c->w, dev, g->count,
	                            WORKLOAD_MAX_GPUS / g->count, &bound, &run, why_short,
	                            sizeof why_short)) {
		if (!run.beaten)
			route_note_short_at(sh, &run, why_short, h->first[k]);
		return;
	}
	double cost = run.replicas * run.hours * x->offers[i].price_per_hour;
	double best_price = b->i == OFFER_NONE ? 0 : x->offers[b->i].price_per_hour;
	if (b->i == OFFER_NONE || cost < b->cost ||
	    (cost == b->cost && (x->offers[i].price_per_hour < best_price ||
	                         (i < b->i && x->offers[i].price_per_hour == best_price)))) {
		b->i = i;
		b->gpu = dev;
		b->cost = cost;
	}
}

/* The least group k can cost (route_floor_of): its rental at the work's
 * own sizing; NAN when the work does not fit it (noted in sh). */
static double group_floor(const struct route_ctx *c, const struct offer_hits *h, size_t k,
                          struct short_of *sh)
{
	const struct offer_group *g = &c->idx->groups[k];
	const double *price = &c->idx->offers[h->cheapest[k]].price_per_hour;
	struct size_bound probe = {.floor = rental_floor, .ctx = price};
	struct workload_run run;
	char why_short[256];
	double floor = route_floor_of(c, group_device(g), g->count, WORKLOAD_MAX_GPUS / g->count,
	                              &probe, &run, why_short, sizeof why_short);
	if (isnan(floor))
		route_note_short_at(sh, &run, why_short, h->first[k]);
	return floor;
}

/* The cheapest offer h lets through, as a pass over every offer keeping
 * the cheaper (then lower-priced, then earlier) would find it: the offers
 * of a group share memory and speed, so each group is sized once and
 * priced by the cheapest offer the filters let through (offer_index.h).
 * A job sized to latency targets takes the groups from the lowest floor
 * up and stops at the first that cannot beat the best (route_floors).
 * OFFER_NONE when none fits; else *gpu is its device, *cost its month. */
static size_t cheapest_offer(const struct route_ctx *c, const struct offer_hits *h,
                             struct short_of *sh, struct rent_scan *s,
                             const struct gpu_spec **gpu, double *cost_out)
{
	const struct offer_index *x = c->idx;
	struct rent_best b = {.i = OFFER_NONE};
	struct route_floors fl;
	bool by_floor = route_floors_init(&fl, c, x->n_groups);
	for (size_t k = 0; k < x->n_groups; k++) {
		const struct offer_group *g = &x->groups[k];
		if (h->cheapest[k] == OFFER_NONE)
			continue;
		s->considered++;
		if (g->sized.vram_gib > s->max_vram)
			s->max_vram = g->sized.vram_gib;
		if (g->count > s->max_count)
			s->max_count = g->count;
		if (!workload_fits(c->w, &g->sized, g->count))
			continue;
		if (by_floor)
			route_floors_add(&fl, k, group_floor(c, h, k, sh));
		else
			size_group(c, h, k, sh, &b);
	}
	size_t n_fl = by_floor ? route_floors_sort(&fl) : 0;
	for (size_t m = 0; m < n_fl; m++) {
		if (b.i != OFFER_NONE && size_floor_above(fl.at[m].floor, b.cost))
			break;
		size_group(c, h, fl.at[m].at, sh, &b);
	}
	route_floors_free(&fl);
	*gpu = b.gpu;
	*cost_out = b.i == OFFER_NONE ? 0 : b.cost;
	return b.i;
}

/* A job no single instance runs, on instances of one joinable offer
 * (fabric.h): one provider, one region, one instance type, whole
 * instances as nodes of the GPU's node size, joined over the fabric the
 * provider documents, at its rate per GPU; the instances are assumed
 * placed together (an EC2 cluster placement group, an Azure scale set),
 * as the provider requires for that fabric (docs/estimation.md, "Past one
 * node"). The cheapest such set into r. Few offers are joinable, so each
 * is sized afresh. */
static void join_offers(const struct route_ctx *c, struct route_result *r, struct short_of *sh)
{
	const struct offer_index *x = c->idx;
	for (size_t k = 0; k < x->n_joinable; k++) {
		const struct offer *o = &x->offers[x->joinable[k]];
		struct gpu_spec joined;
		const struct gpu_spec *g = workload_offer_gpu(c->w, c->ref, o, &joined);
		if (!g || g->kind != DEVICE_GPU || o->gpu_count != g->gpus_per_node)
			continue;
		joined.fabric = fabric_kind(o->fabric);
		joined.fabric_gbps = o->fabric_gbps;
		int n = workload_nodes_min_gpus(c->w, &joined, o->gpu_count);
		if (n == 0)
			continue;
		struct workload_run run;
		char why[256];
		if (!workload_size(c->w, &joined, n, WORKLOAD_MAX_GPUS / n, &run, why, sizeof why)) {
			route_note_short_at(sh, &run, why, x->joinable[k]);
			continue;
		}
		struct rental rent = offer_rental(o, g);
		rent.count = n;
		rent.price = o->price_per_hour * (n / o->gpu_count);
		rent.run = &run;
		rent.sized = &joined;
		rent.fabric = o->fabric;
		consider_rental(c, r, &rent, sh);
	}
}

/* r->left_out when the job's hosting: (or data: confidential's default)
 * kept out the offer that would otherwise have been the cheapest, o. */
static void hosting_left_out(const struct route_ctx *c, struct route_result *r,
                             const struct offer *o)
{
	const struct job *j = c->job;
	char why[64];
	if (j->hosting)
		snprintf(why, sizeof why, "hosting: [%s]",
		         j->hosting == HOSTING_DATACENTER ? "datacenter" : "marketplace");
	else
		snprintf(why, sizeof why, "data: %s", data_class_name(j->data));
	/* A long offer id is cut rather than the whole reason lost. */
	int n = snprintf(r->left_out, sizeof r->left_out,
	                 "%s hosts (%s %dx %s at %.4g/h, %s): %s; allow with hosting: "
	                 "[marketplace, datacenter]",
	                 o->marketplace ? "marketplace" : "data-centre", o->provider,
	                 o->gpu_count, o->gpu, o->price_per_hour, o->offer, why);
	if (n < 0 || (size_t)n >= sizeof r->left_out)
		snprintf(r->left_out, sizeof r->left_out,
		         "%s hosts (%s): %s; allow with hosting: [marketplace, datacenter]",
		         o->marketplace ? "marketplace" : "data-centre", o->provider, why);
}

/* The cheapest offer for the job (cheapest_offer) into r; with the job's
 * hosting: narrower than every host, whether it left out a cheaper one. */
static int rent_offers(const struct route_ctx *c, struct route_result *r, struct short_of *sh,
                       struct rent_scan *s, char **err)
{
	const struct offer_index *x = c->idx;
	unsigned hosting = job_hosting(c->job);
	const struct offer_hits *h;
	int rc = offer_index_hits(c->idx, c->w, hosting, &h, err);
	if (rc)
		return rc;
	const struct gpu_spec *best_gpu = NULL;
	double best_cost = 0;
	size_t best = cheapest_offer(c, h, sh, s, &best_gpu, &best_cost);
	if (best != OFFER_NONE) {
		struct rental rent = offer_rental(&x->offers[best], best_gpu);
		consider_rental(c, r, &rent, sh);
	} else if (x->n_joinable)
		join_offers(c, r, sh);
	if (hosting == HOSTING_ALL)
		return PLANNER_OK;
	/* The hits of every host are read once per set of filters, as the
	 * job's own are. */
	const struct offer_hits *all;
	if ((rc = offer_index_hits(c->idx, c->w, HOSTING_ALL, &all, err)))
		return rc;
	struct short_of sh_all = {0};
	struct rent_scan s_all = {0};
	const struct gpu_spec *gpu_all = NULL;
	double cost_all = 0;
	size_t cheaper = cheapest_offer(c, all, &sh_all, &s_all, &gpu_all, &cost_all);
	if (cheaper != OFFER_NONE && cheaper != best &&
	    (best == OFFER_NONE || cost_all < best_cost))
		hosting_left_out(c, r, &x->offers[cheaper]);
	return PLANNER_OK;
}

/* The commitment t on gpu run as `run` sizes it, into r: every instance
 * billed COMMIT_HOURS_PER_MONTH at the effective rate (the upfront spread
 * over the term), no setup hours (the instances stay up). */
static void keep_term(const struct route_ctx *c, struct route_result *r, const struct offer_term *t,
                      const struct gpu_spec *gpu, const struct workload_run *run, double cost)
{
	const struct offer *o = &t->o;
	r->feasible = true;
	r->gpu = gpu;
	r->gpu_count = o->gpu_count * run->replicas;
	r->replicas = run->replicas;
	r->batch = run->batch;
	route_copy_latency(r, run);
	r->work_hours = run->work_hours;
	r->spot = false;
	r->price_per_hour = o->price_per_hour;
	r->gpu_hours = run->hours;
	r->tokens_per_second = run->tps * run->replicas;
	r->measured = run->measured;
	r->confidence = route_confidence(c->w, gpu, o->gpu_count);
	r->monthly_cost = cost;
	r->setup_cost = 0;
	text_copy(r->provider, sizeof r->provider, o->provider);
	text_copy(r->offer, sizeof r->offer, o->offer);
	text_copy(r->region, sizeof r->region, o->region);
	text_copy(r->country, sizeof r->country, o->country);
	text_copy(r->term, sizeof r->term, t->term);
	text_copy(r->term_option, sizeof r->term_option, t->option);
	r->upfront = t->upfront * run->replicas;
}

/* Weighs the commitments the job may rent (the offers' rules: providers:,
 * regions:, hosting, accelerator; GPUs only) against r, the cheapest
 * on-demand rental or quote when there is one: a commitment's month is
 * fixed, so it replaces r only when it costs less at the job's hours,
 * and only when each instance runs the job within the month. */
static void consider_terms(const struct route_ctx *c, struct route_result *r)
{
	unsigned hosting = job_hosting(c->job);
	double on_demand = r->feasible ? r->monthly_cost : 0;
	for (size_t i = 0; i < c->n_terms; i++) {
		const struct offer_term *t = &c->terms[i];
		struct gpu_spec sized;
		const struct gpu_spec *gpu = workload_offer_gpu(c->w, c->ref, &t->o, &sized);
		if (!gpu || gpu->kind == DEVICE_CPU || t->o.gpu_count <= 0 ||
		    !workload_hosting_allowed(hosting, t->o.marketplace) ||
		    !workload_fits(c->w, &sized, t->o.gpu_count))
			continue;
		struct workload_run run;
		char why[256];
		if (!size_cache_size(c->sizes, c->shape, c->w, gpu, t->o.gpu_count,
		                     WORKLOAD_MAX_GPUS / t->o.gpu_count, &run, why, sizeof why) ||
		    !(run.hours > 0) || run.hours > HOURS_PER_MONTH)
			continue;
		double cost = offer_term_month(t, run.replicas);
		if (r->feasible && !(cost < r->monthly_cost))
			continue;
		keep_term(c, r, t, gpu, &run, cost);
		r->on_demand_cost = on_demand;
	}
}

static int price_rented(const struct route_ctx *c, struct route_result *r, char **err)
{
	const struct job *j = c->job;
	const struct jobspec *spec = c->spec;
	struct short_of sh = {0};
	struct rent_scan s = {0};
	int rc = rent_offers(c, r, &sh, &s, err);
	if (rc)
		return rc;
	double max_vram = s.max_vram;
	int max_count = s.max_count;
	size_t considered = s.considered;
	for (size_t i = 0; i < spec->n_quotes; i++) {
		const struct quote *q = &spec->quotes[i];
		if (!workload_rental_allowed(c->w, q->provider, q->gpu, q->spot))
			continue;
		considered++;
		if (q->gpu->vram_gib > max_vram)
			max_vram = q->gpu->vram_gib;
		if (q->count > max_count)
			max_count = q->count;
		if (!workload_fits(c->w, q->gpu, q->count))
			continue;
		char offer[64];
		snprintf(offer, sizeof offer, "quote %dx %s", q->count, q->gpu->name);
		/* A quote prices what it names, so it is never replicated. */
		struct rental rent = {.gpu = q->gpu,
		                      .count = q->count,
		                      .price = q->price_per_hour,
		                      .spot = q->spot,
		                      .provider = q->provider,
		                      .offer = offer,
		                      .region = "",
		                      .max_replicas = 1};
		consider_rental(c, r, &rent, &sh);
	}
	consider_terms(c, r);
	if (r->feasible)
		return PLANNER_OK;
	if (sh.any)
		route_why_short(r, &sh);
	else if (considered == 0)
		route_why(
		    r,
		    "no rentable offer matches (%s%s%s%s%s); run `planner refresh`, widen providers "
		    "or allow accelerator: any",
		    j->interruptible ? "" : "on-demand only, ",
		    j->any_accelerator ? "any accelerator" : "NVIDIA only",
		    spec->providers ? ", listed providers only" : "",
		    j->regions || spec->regions ? ", listed regions only" : "",
		    job_hosting(j) == HOSTING_ALL        ? ""
		    : job_hosting(j) == HOSTING_DATACENTER ? ", data-centre hosts only"
		                                           : ", marketplace hosts only");
	else
		route_why(r, "needs %.1f GiB; largest offer has %.0f GiB per GPU and %d GPUs",
		          c->w->need.total_gib, max_vram, max_count);
	return PLANNER_OK;
}

/* No fixed part; at no use, the hourly price. On a commitment, all of
 * it is fixed. */
static void rented_cost_line(const struct route_result *r, double use, struct cost_line *l)
{
	if (r->term[0]) {
		l->fixed = r->monthly_cost;
		l->slope = 0;
		return;
	}
	l->fixed = 0;
	l->slope = use > 0 ? r->monthly_cost / use : r->price_per_hour;
}

static void rented_json(cJSON *o, const struct plan *p, const struct route_result *r)
{
	cJSON_AddStringToObject(o, "provider", r->provider);
	cJSON_AddStringToObject(o, "prices_source", plan_provider_source(p, r->provider));
	cJSON_AddStringToObject(o, "offer", r->offer);
	cJSON_AddStringToObject(o, "region", r->region);
	cJSON_AddStringToObject(o, "gpu", r->gpu->name);
	cJSON_AddNumberToObject(o, "gpu_count", r->gpu_count);
	route_json_nodes(o, r);
	cJSON_AddBoolToObject(o, "spot", r->spot);
	cJSON_AddNumberToObject(o, "price_per_hour", round_to(r->price_per_hour, 4));
	cJSON_AddNumberToObject(o, "gpu_hours", round_to(r->gpu_hours, 4));
	route_json_speed(o, r);
	cJSON_AddStringToObject(o, "confidence", confidence_name(r->confidence));
	cJSON_AddNumberToObject(o, "setup_cost", round_to(r->setup_cost, 2));
	if (!r->term[0])
		return;
	/* On a commitment only: the output of a store without terms stays. */
	cJSON *t = cJSON_AddObjectToObject(o, "commitment");
	cJSON_AddStringToObject(t, "term", r->term);
	cJSON_AddStringToObject(t, "option", r->term_option);
	cJSON_AddNumberToObject(t, "upfront", round_to(r->upfront, 2));
	cJSON_AddNumberToObject(t, "effective_per_hour", round_to(r->price_per_hour, 4));
	cJSON_AddNumberToObject(t, "hours_per_month", COMMIT_HOURS_PER_MONTH);
	cJSON_AddNumberToObject(t, "monthly_cost", round_to(r->monthly_cost, 2));
}

/* "3y commitment (All Upfront), 6721.00 USD upfront, 0.2557 USD/h
 * effective x 730 h = 186.69 USD/month" of a rental on a commitment (the
 * hours of all its instances), into buf at n (len bytes in all); returns
 * the new n. */
static int term_text(char *buf, size_t len, int n, const struct route_result *r, const char *cur)
{
	if (n < 0 || (size_t)n >= len)
		return n;
	return n + snprintf(buf + n, len - (size_t)n,
	                    "%s commitment%s%s%s, %.2f %s upfront, %.4g %s/h effective x %.0f h "
	                    "= %.2f %s/month",
	                    r->term, r->term_option[0] ? " (" : "", r->term_option,
	                    r->term_option[0] ? ")" : "", r->upfront, cur, r->price_per_hour, cur,
	                    COMMIT_HOURS_PER_MONTH * r->replicas, r->monthly_cost, cur);
}

static int rented_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
                         bool costs)
{
	(void)costs;
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->term[0]) {
		int n = snprintf(buf, len, "%s %s (%s %s), ", r->provider, r->offer, reps,
		                 r->gpu->name);
		n = term_text(buf, len, n, r, cur);
		if (n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ", runs %.1f h%s, %s%.0f tok/s",
			              r->gpu_hours, r->replicas > 1 ? " each" : "",
			              route_speed_mark(r), r->tokens_per_second);
		return route_speed_text(buf, len, n, r);
	}
	int n = snprintf(buf, len, "%s %s (%s %s%s), %.4g %s/h x %.1f h%s, %s%.0f tok/s",
	                 r->provider, r->offer, reps, r->gpu->name, r->spot ? ", spot" : "",
	                 r->price_per_hour, cur, r->gpu_hours, r->replicas > 1 ? " each" : "",
	                 route_speed_mark(r), r->tokens_per_second);
	n = route_speed_text(buf, len, n, r);
	if (r->setup_cost > 0 && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n, " + setup %.2f", r->setup_cost);
	return n;
}

static void rented_report_detail(char *buf, size_t len, const struct route_result *r,
                                 const char *cur)
{
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->term[0]) {
		int n = snprintf(buf, len, "%s %s (%s %s): ", r->provider, r->offer, reps,
		                 r->gpu->name);
		n = term_text(buf, len, n, r, cur);
		if (n >= 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, ", runs %.1f h%s, %.0f output tokens/s",
			         r->gpu_hours, r->replicas > 1 ? " each" : "",
			         r->tokens_per_second);
		return;
	}
	snprintf(buf, len, "%s %s (%s %s%s): %.4g %s/h x %.1f h%s, %.0f output tokens/s",
	         r->provider, r->offer, reps, r->gpu->name, r->spot ? ", spot" : "",
	         r->price_per_hour, cur, r->gpu_hours, r->replicas > 1 ? " each" : "",
	         r->tokens_per_second);
}

static void rented_summary(char *buf, size_t len, const struct job_result *j, const char *cur)
{
	const struct route_result *r = &j->routes[j->best];
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->term[0])
		snprintf(buf, len,
		         "commit %s to %s %s at %s (%s), %.2f %s upfront, %.2f %s a month", r->term,
		         reps, r->gpu->name, r->provider, r->offer, r->upfront, cur,
		         r->monthly_cost, cur);
	else
		snprintf(buf, len, "rent %s %s at %s (%s)%s", reps, r->gpu->name, r->provider,
		         r->offer, r->spot ? ", spot" : "");
}

static void rented_decision(char *buf, size_t len, const struct route_result *r)
{
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->term[0])
		snprintf(buf, len, "commit %s to %s %s at %s", r->term, reps, r->gpu->name,
		         r->provider);
	else
		snprintf(buf, len, "rent %s %s at %s%s", reps, r->gpu->name, r->provider,
		         r->spot ? " (spot)" : "");
}

static const enum route_field rented_head[] = {
    ROUTE_FIELD_MONTHLY_COST, ROUTE_FIELD_PROVIDER, ROUTE_FIELD_OFFER, ROUTE_FIELD_GPU,
    ROUTE_FIELD_GPU_COUNT,    ROUTE_FIELD_PRICE,    ROUTE_FIELD_END};
static const enum route_field rented_tail[] = {ROUTE_FIELD_REPLICAS, ROUTE_FIELD_END};

const struct route_ops route_rented = {
    .name = "rented",
    .tie_rank = 1,
    .flags = ROUTE_LEAVES_HOUSE | ROUTE_ON_GPUS | ROUTE_HOURLY,
    .colour = "#e69f00",
    .price = price_rented,
    .cost_line = rented_cost_line,
    .json = rented_json,
    .detail = rented_detail,
    .report_detail = rented_report_detail,
    .summary = rented_summary,
    .decision = rented_decision,
    .csv_head = rented_head,
    .csv_tail = rented_tail,
};
