/* workload.h — one job as every consumer of the pricing rules sees it
 * (docs/design.md): `compare` (plan.c), `schedule` (schedule.c) and
 * `report` (cmd_report.c, report.c) ask here which offers, quotes and GPUs
 * a job may use, how many GPU-hours it takes on a configuration and what
 * its power costs, so they cannot disagree. A workload is built once per
 * job from the job and its spec, and carries the job's engine profile and
 * its memory need under that engine. */
#ifndef PLANNER_WORKLOAD_H
#define PLANNER_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "engines.h"
#include "jobspec.h"
#include "refdata.h"
#include "speed.h"
#include "store.h"
#include "vram.h"

/* Hours in the longest month (31 days x 24). One GPU set cannot run more
 * than this in a month, so work beyond it needs more sets and a break-even
 * beyond it never happens; the report's charts run 0..744 h. A month with
 * a daylight-saving change may have 743 or 745 local hours; schedules count
 * their real slots (sched_month_slots), this bound is for the monthly
 * cost model. */
#define HOURS_PER_MONTH 744.0

/* The three ways to run a job (docs/estimation.md, "Cost curves"). */
enum route { ROUTE_API, ROUTE_RENTED, ROUTE_OWNED, ROUTE_COUNT };

/* "api", "rented", "owned"; "?" for anything else. */
const char *route_name(enum route r);

struct workload {
	const struct jobspec *spec;
	const struct job *job;
	const struct precision_info *prec; /* the job's precision */
	const struct engine *engine;       /* the job's engine profile */
	struct vram_need need;             /* on one GPU, under engine */
};

/* Builds the workload of job j of spec: its precision, its engine profile
 * and its memory need. Returns PLANNER_OK, or PLANNER_EINPUT with *err set
 * to "FILE:LINE:COL: unknown precision '…'". */
int workload_init(struct workload *w, const struct jobspec *spec, const struct job *j, char **err);

/* Whether the job's task and data class let it take route r at all: the
 * API route prices inference of public data only, rented GPUs take
 * anything but data: restricted, owned GPUs take everything. When not, and
 * why is not NULL, the reason goes in why (len bytes), as a sentence that
 * says what rules it out. */
bool workload_route_allowed(const struct workload *w, enum route r, char *why, size_t len);

/* Whether the job may run on this kind of GPU: NVIDIA unless the job says
 * accelerator: any. */
bool workload_gpu_allowed(const struct workload *w, const struct gpu_spec *gpu);

/* Whether the job may rent from provider: any when the spec lists no
 * providers, else only those listed (case-insensitive). */
bool workload_provider_allowed(const struct workload *w, const char *provider);

/* Whether the job's regions (its own, else the spec's; any when neither
 * lists one) take a row located at region / country / group (regions.h):
 * a rented offer, or an API host (region NULL). A row of unknown location
 * is left out whenever regions are listed. */
bool workload_region_allowed(const struct workload *w, const char *region, const char *country,
                             const char *group);

/* Whether the job may rent gpu from provider at this price kind: spot
 * prices only for interruptible jobs, plus the GPU and provider rules
 * above. Memory is not checked here (see workload_fits). */
bool workload_rental_allowed(const struct workload *w, const char *provider,
                             const struct gpu_spec *gpu, bool spot);

/* An offer from the store as the job sees it: its reference GPU when the
 * job may rent the offer (workload_rental_allowed and
 * workload_region_allowed), else NULL. *sized gets
 * a copy of that GPU with the offer's own memory figure, which wins over
 * the reference one (a feed may sell a slice of a card, like Azure NV A10
 * v5, or a variant the table rounds); check fit against *sized. */
const struct gpu_spec *workload_offer_gpu(const struct workload *w, const struct refdata *ref,
                                          const struct offer *o, struct gpu_spec *sized);

/* True when the job fits on n GPUs of kind gpu under its engine. */
bool workload_fits(const struct workload *w, const struct gpu_spec *gpu, int n);

/* Fewest GPUs of kind gpu the job fits on under its engine (a
 * tensor-parallel size), or 0 when none does. */
int workload_min_gpus(const struct workload *w, const struct gpu_spec *gpu);

/* Hours n GPUs of kind gpu take for the job's month of work, all n
 * together: the hours the job gives, or the hours its tokens take at the
 * estimated throughput (INFINITY when that throughput is 0). When tps is
 * not NULL it gets the configuration's output tokens/s (inference) or
 * training tokens/s (fine-tuning). */
double workload_gpu_hours(const struct workload *w, const struct gpu_spec *gpu, int n, double *tps);

/* Electricity for `gpus` GPUs of `watts` each running `hours`, with the
 * spec's PUE and price per kWh, in the spec's currency. hours = 1 gives
 * the cost per hour. */
double power_cost(const struct jobspec *spec, int gpus, double watts, double hours);

#endif
