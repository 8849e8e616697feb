/* tco.h — the full cost of owning N GPUs of one kind for a month, and the
 * setup cost of a rented run (docs/estimation.md, "Cost of ownership").
 * Every consumer of an owned monthly cost (compare's owned route, its
 * break-even and payback, the report's curves, a fleet of purchases)
 * prices it here, so the terms of the spec's costs: block reach all of
 * them. All money is in the spec's currency. */
#ifndef PLANNER_TCO_H
#define PLANNER_TCO_H

#include <stdbool.h>

#include "jobspec.h"

struct tco_owned {
	int gpus;
	int hosts;          /* ceil(gpus / costs.host.gpus) */
	double capex;       /* GPUs and hosts bought; 0 when on hand (sunk) */
	double resale;      /* what capex sells for after amortize_months */
	double capital;     /* a month: the annuity of capex less the resale's present value */
	double power;       /* a month: GPUs under load and idle, hosts, times PUE */
	double maintenance; /* a month: costs.maintenance_per_gpu_month x gpus */
	double monthly;     /* capital + power + maintenance */
	/* monthly = fixed + per_hour x busy_hours: the same cost as a line in
	 * the hours each GPU works (break-even, the report's curves). */
	double fixed;
	double per_hour;
};

/* What owning `gpus` GPUs of one kind costs a month when each works
 * busy_hours (the mean over the GPUs, at most HOURS_PER_MONTH):
 * price_per_gpu is the purchase (ignored when on_hand), watts the draw
 * under load, idle_watts between runs (0: switched off, and the hosts
 * with them). */
void tco_owned_month(const struct jobspec *spec, int gpus, double price_per_gpu, double watts,
                     double idle_watts, double busy_hours, bool on_hand, struct tco_owned *out);

/* Rented runs a job needs for `hours` of one replica's work in a month:
 * one per schedule window (a run may not outlast it, nor max_run), one in
 * all without a window; 0 without hours. */
double tco_rented_runs(const struct job *j, double hours);

/* The setup cost of renting: costs.setup_hours billed at price_per_hour
 * for each run of each replica. */
double tco_setup_cost(const struct jobspec *spec, const struct job *j, double hours, int replicas,
                      double price_per_hour);

#endif
