/* horizon.h — month by month over the planning horizon: what each route
 * of a job costs as its volume grows (growth:), the cumulative cash each
 * strategy has paid, and the month from which buying has paid for itself
 * (docs/estimation.md, "Horizon"). */
#ifndef PLANNER_HORIZON_H
#define PLANNER_HORIZON_H

#include "plan.h"

struct horizon_month {
	double cost[ROUTE_MAX]; /* paid in the month: owned capex when bought, then running */
	double cum[ROUTE_MAX];  /* paid from month 1 to this one; NAN once the route cannot */
};

struct horizon {
	int months;               /* horizon_months, else amortize_months */
	double growth_percent;    /* the job's, else the spec's */
	struct horizon_month *m;  /* months entries, m[0] is month 1 */
	int owned_pays_from;      /* first month from which owning has cost no more than the
	                           * cheaper of api and rented, to the end; 0 = not within */
};

/* The months of job res of spec. Returns PLANNER_OK, or PLANNER_ESYS
 * (out of memory) with *err set. Free with horizon_free. */
int horizon_job(const struct jobspec *spec, const struct job_result *res, struct horizon *out,
                char **err);
void horizon_free(struct horizon *h);

/* The whole plan month by month: each job on its cheapest route (buying
 * where compare buys), against buying nothing (each job on the cheaper of
 * the API, renting and GPUs on hand, month by month). */
struct horizon_plan {
	int months;
	double *with_buy;     /* cumulative cash, months entries */
	double *without_buy;  /* the same without purchases */
	double capex;         /* bought in month 1 */
	int pays_from;        /* first month from which with_buy <= without_buy to the end;
	                       * 0 = not within the horizon (or nothing is bought) */
};

int horizon_plan(const struct jobspec *spec, const struct plan *p, struct horizon_plan *out,
                 char **err);
void horizon_plan_free(struct horizon_plan *h);

/* The months the spec plans over: horizon_months, else amortize_months. */
int horizon_months(const struct jobspec *spec);

#endif
