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
	int hosts;          /* ceil(gpus / costs.host.gpus); 0 for a Mac or CPU box */
	double capex;       /* GPUs and hosts bought; 0 when on hand (sunk) */
	double host_capex;  /* of capex, the hosts (costs.host.price x hosts) */
	double resale;      /* what capex sells for after amortize_months */
	double capital;     /* a month: the annuity of capex less the resale's present value */
	double power;       /* a month: GPUs under load and idle, hosts, times PUE */
	double kwh;         /* the energy power pays for: the same terms, in kWh */
	double maintenance; /* a month: costs.maintenance_per_gpu_month x gpus */
	double monthly;     /* capital + power + maintenance */
	/* monthly = fixed + per_hour x busy_hours: the same cost as a line in
	 * the hours each GPU works (break-even, the report's curves). */
	double fixed;
	double per_hour;
};

/* What owning `gpus` GPUs of kind `gpu` costs a month when each works
 * busy_hours (the mean over the GPUs, at most HOURS_PER_MONTH):
 * price_per_gpu is the purchase (ignored when on_hand), watts the draw
 * under load, idle_watts between runs (0: switched off, and the hosts
 * with them). A Mac or a CPU box (gpu->kind not DEVICE_GPU) is its own
 * host, so costs.host adds nothing to it; gpu NULL is a GPU in a host. */
void tco_owned_month(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                     double price_per_gpu, double watts, double idle_watts, double busy_hours,
                     bool on_hand, struct tco_owned *out);
/* The same for a month of month_hours hours (a schedule's calendar
 * month: 672 to 745); tco_owned_month is it at HOURS_PER_MONTH. */
void tco_owned_month_of(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                        double price_per_gpu, double watts, double idle_watts, double busy_hours,
                        double month_hours, bool on_hand, struct tco_owned *out);

/* A lower bound of tco_owned_month's monthly figure over every sizing of
 * at least `gpus` GPUs and at least gpus x busy_hours GPU-hours: the
 * capital, upkeep and busy power, which grow with both (the idle and host
 * power, left out, are never negative). -INFINITY when a busy hour costs
 * less than nothing (idle_watts above watts), so no bound holds. */
double tco_owned_floor(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                       double price_per_gpu, double watts, double idle_watts, double busy_hours,
                       bool on_hand);

/* Rented runs a job needs for `hours` of one replica's work in a month:
 * one per schedule window (a run may not outlast it, nor max_run), one in
 * all without a window; 0 without hours. */
double tco_rented_runs(const struct job *j, double hours);

/* The setup cost of one rented run: costs.setup_hours billed at
 * price_per_hour for each of its replicas; 0 without setup_hours.
 * schedule prices each rented block it lays out with it. */
double tco_setup_run(const struct jobspec *spec, int replicas, double price_per_hour);

/* The setup cost of renting: tco_setup_run for each of the job's rented
 * runs (tco_rented_runs). */
double tco_setup_cost(const struct jobspec *spec, const struct job *j, double hours, int replicas,
                      double price_per_hour);

#endif
