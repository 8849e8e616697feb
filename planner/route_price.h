/* route_price.h — what a route's price function is handed (plan.c builds
 * it once per job) and the helpers the shipped routes share. Private to
 * plan.c and planner/route_*.c. */
#ifndef PLANNER_ROUTE_PRICE_H
#define PLANNER_ROUTE_PRICE_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

struct offer_index;
struct api_cache;
struct size_cache;

/* Everything one job's pricing needs, gathered once. */
struct route_ctx {
	const struct jobspec *spec;
	const struct refdata *ref;
	struct store *st;
	const struct job *job;
	const struct workload *w; /* &res->work */
	struct job_result *res;
	struct offer_index *idx;  /* the available catalogue, read and grouped once per plan */
	struct api_cache *api;    /* API prices per model, read once per plan */
	struct size_cache *sizes; /* estimates per shape of job, made once per plan */
	size_t shape;             /* the job's shape in sizes */
	/* GPUs of each owned: entry this job may still take (the shared
	 * pass, plan_share.c); NULL: each entry's count. */
	const int *owned_free;
	/* The commitments the rented route may weigh (offer_terms up to the
	 * spec's commit:, priced in its currency), n_terms of them. */
	const struct offer_term *terms;
	size_t n_terms;
};

/* The hours a month a commitment bills (store.h). */
#define COMMIT_HOURS_PER_MONTH OFFER_TERM_HOURS_PER_MONTH

/* plan.c: the factor that prices an amount in currency cur in the spec's
 * currency (the spec's fx, else the reference rates); false when cur has
 * no rate. */
bool plan_currency_rate(const struct jobspec *spec, const struct refdata *ref, const char *cur,
                        double *rate);
/* plan.c: c becomes base for the job of res (its workload made). */
void plan_job_ctx(const struct route_ctx *base, struct job_result *res, struct route_ctx *c);
/* plan.c: prices route k of c's job afresh into c->res->routes[k]. */
int plan_price_route(const struct route_ctx *c, size_t k, char **err);
/* plan.c: c's job's best route, hours, break-evens and costs per Mtok from
 * its priced routes. This function can't fail. */
void plan_job_finish(const struct route_ctx *c);
/* plan_share.c: shares the GPUs on hand across p's jobs, each priced alone
 * under base; moves the jobs that do not fit to their next-cheapest route
 * (p->moves). PLANNER_OK, or PLANNER_ESYS (out of memory) with *err. */
int plan_share_owned(const struct route_ctx *base, struct plan *p, char **err);

/* route.c: a GPU route's speed in JSON: tokens_per_second, speed_source
 * ("measured" or "estimated") and, when measured, measured_file. */
void route_json_speed(struct cJSON *o, const struct route_result *r);
/* route.c: r's nodes, gpus_per_node, layout (parallel) and, when joined by
 * one, fabric, for a configuration past one node; nothing otherwise, so
 * the JSON of a single-node route stays as it was. */
void route_json_nodes(struct cJSON *o, const struct route_result *r);
/* route.c: records on r the layout of n GPUs of g that w runs past one
 * node (r->nodes, gpus_per_node, layout); r->nodes 0 when n takes one. */
void route_set_nodes(struct route_result *r, const struct workload *w, const struct gpu_spec *g,
                     int n);

/* route.c: " (measured, FILE)" after a measured route's tok/s, appended to
 * buf at n (what snprintf returned so far, len bytes in all); returns the
 * new n. */
int route_speed_text(char *buf, size_t len, int n, const struct route_result *r);

/* Marks r infeasible with the reason. */
void route_why(struct route_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The configuration that fit in memory but not in time, closest to
 * doing the work: its reason becomes the route's when nothing else fits. */
struct short_of {
	bool any;
	double tps;
	size_t at; /* the offer's index; SIZE_MAX for quotes and owned GPUs */
	char why[256];
	double ttft_ms, tpot_ms; /* its run's slo: latency (slo_sized) */
	bool slo_sized;          /* it missed the job's slo: (slo.c) */
};

/* Keeps the fastest; on a tie the first in the offers' order, as one
 * pass over the offers, then the quotes, would (SIZE_MAX: after every
 * offer, in the order of the calls). */
void route_note_short_at(struct short_of *sh, const struct workload_run *run, const char *why,
                         size_t at);
void route_note_short(struct short_of *sh, const struct workload_run *run, const char *why);

/* A route's candidates in the order of their floors (struct size_bound):
 * for a job sized to latency targets each candidate's work is sized first,
 * cheaply, and the candidates are then sized to the targets from the
 * lowest floor up, until the next floor is above the best found. Any order
 * finds the same answer when the route's comparison is a total order. */
struct route_floors {
	struct route_floor {
		size_t at;    /* the route's own number of the candidate */
		double floor; /* the least it can cost */
	} * at;
	size_t n;
};
/* False, with nothing to free, when the job has no latency targets (or
 * memory runs out): then the route sizes each candidate as it meets it. */
bool route_floors_init(struct route_floors *fl, const struct route_ctx *c, size_t most);
/* Adds candidate `at` (none when floor is NAN: its work does not fit). */
void route_floors_add(struct route_floors *fl, size_t at, double floor);
/* Sorts them, lowest floor first (then by at); returns how many. */
size_t route_floors_sort(struct route_floors *fl);
void route_floors_free(struct route_floors *fl);
/* The floor (probe->floor) of n GPUs of kind gpu at the job's work
 * sizing, before its latency targets; NAN, with the reason in why and
 * the sizing in *run, when the work alone does not fit. */
double route_floor_of(const struct route_ctx *c, const struct gpu_spec *gpu, int n,
                      int max_replicas, struct size_bound *probe, struct workload_run *run,
                      char *why, size_t len);

/* The latency a route's run was sized to (slo.c), into r. */
void route_copy_latency(struct route_result *r, const struct workload_run *run);
/* The route's reason from sh (route_why) and, when the job's slo: was
 * missed, the best latency that configuration reached. */
void route_why_short(struct route_result *r, const struct short_of *sh);

/* The shipped break-even figures (route.c lists them). */
double breakeven_owned_rented_hours(const struct breakeven_pair *bp, const struct jobspec *spec,
                                    const struct job_result *res, char *note, size_t len);
double breakeven_owned_payback(const struct breakeven_pair *bp, const struct jobspec *spec,
                               const struct job_result *res, char *note, size_t len);
double breakeven_api_rented_tokens(const struct breakeven_pair *bp, const struct jobspec *spec,
                                   const struct job_result *res, char *note, size_t len);

#endif
