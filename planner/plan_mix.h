/* plan_mix.h — a serving job's cheapest mix of routes hour by hour
 * (docs/estimation.md, "Traffic shape"): owned replicas for the base of
 * its hourly load and a rented or serverless route for the peak above
 * them, from the routes compare has already priced. */
#ifndef PLANNER_PLAN_MIX_H
#define PLANNER_PLAN_MIX_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"

struct route_mix {
	bool found;             /* a base and a peak both run: 0 < owned_replicas, peak_hours > 0 */
	enum route base_route;  /* the route with a stock of GPUs (owned) */
	enum route peak_route;  /* the route the peak goes to */
	bool per_second;        /* the peak route bills busy seconds (serverless), not hours */
	int owned_replicas;     /* replicas of the base route's configuration, all month */
	int peak_min, peak_max; /* replicas of the peak route in the hours it runs */
	double days;            /* days of the nominal month the schedule allows */
	double rps[24];         /* requests a second in each local hour */
	int base[24];           /* base replicas busy in each hour */
	int peak[24];           /* peak replicas running in each hour */
	double peak_hours;      /* hours a month with a peak replica running */
	double rented_replica_hours;               /* hourly peak: replica-hours a month */
	double serverless_busy_s;                  /* per-second peak: busy seconds a month */
	double serverless_starts;                  /* per-second peak: cold starts a month */
	double base_cost, peak_cost, monthly_cost; /* currency a month */
	double best_single; /* the cheapest single route's monthly cost; NAN none */
	bool beats_every_route;
};

/* The cheapest mix of job r (priced by plan_compare) into m: for each
 * base k = 0..the owned route's replicas and each peak route, the owned
 * month of k replicas (tco_owned_month at their busy hours) plus the peak
 * route's cost of the load above them, hour by hour. m->found is false
 * when the job has no hourly shape (load: with a profile or
 * peak_factor and a requests-a-second peak), a route is missing, or the
 * cheapest choice is one route alone. This function can't fail. */
void plan_mix(const struct jobspec *spec, const struct job_result *r, struct route_mix *m);

/* plan_mix of every job of p whose load has an hourly shape, into
 * p->mixes, each found one at its job's mix. PLANNER_ESYS with *err when
 * memory runs out. */
int plan_mix_all(struct plan *p, const struct jobspec *spec, char **err);

/* Replicas of capacity cap (requests a second each) that rps needs. */
int plan_mix_replicas(double rps, double cap);

/* The requests a second one replica of route result rr serves for job j
 * (its throughput at its batch over the request's output tokens; at most
 * the load per replica it was sized for when sized to slo:); 0 when not
 * known. */
double plan_mix_capacity(const struct job *j, const struct route_result *rr);

struct cJSON;
/* compare's line of a found mix m of job r, in currency cur: "mix: 2
 * owned RTX 4090 base + rented H100 peak (38 h x 1-3 replicas), 812.40 a
 * month, beats every single route". */
void plan_mix_text(char *buf, size_t len, const struct route_mix *m, const struct job_result *r,
                   const char *cur);
/* Adds compare's "mix" object of a found m to job object o. */
void plan_mix_json(struct cJSON *o, const struct route_mix *m, const struct job_result *r);

#endif
