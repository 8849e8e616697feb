/* schedule.h — the month as a schedule (README, "Schedule the month";
 * docs/spec.md, "jobs[].schedule"): every job's hours placed on owned GPUs, rented capacity
 * or the API, inside its window, days and deadline, at the least total
 * cost.
 *
 * Two layers. The solver (sched_solve, sched_solve.c) works on an abstract
 * problem — hourly slots, pools of owned GPUs, and per job the slots it may
 * use, what each pool costs it per hour and what the job costs off owned
 * GPUs — so tests can build small instances by hand and compare with an
 * exhaustive search. schedule_month (schedule.c) turns a job spec and its
 * priced plan into that problem for one calendar month in the spec's time
 * zone, solves it, places the rest on rented capacity or the API, and
 * returns runs with real times. */
#ifndef PLANNER_SCHEDULE_H
#define PLANNER_SCHEDULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "jobspec.h"
#include "plan.h"

/* What a job-fraction that cannot be placed anywhere costs the solver: far
 * above any real monthly bill, so placing work always beats money, and
 * finite, so densities stay ordinary numbers. Never printed. */
#define SCHED_UNPLACED_PENALTY 1e9

/* Costs closer than this (currency) are equal; priority then decides. */
#define SCHED_COST_EPS 1e-9

/* ---- the abstract problem ---- */

struct sched_pool {
	char name[48];      /* GPU model, "RTX 4090" */
	int count;          /* GPUs in the pool; each runs one job per hour */
};

/* One job on one pool. */
struct sched_option {
	int gpus;           /* GPUs of the pool one run takes; 0 = does not fit */
	double hours;       /* hours on this pool that do the whole job (> 0) */
	double cost_per_hour; /* power of all `gpus` above their idle draw (tco_owned_month's
			       * per_hour), currency per hour */
	int replicas;         /* copies of the configuration in `gpus` (gpus / replicas each) */
};

struct sched_job {
	const char *name;
	int priority;              /* higher wins owned capacity at equal cost */
	const unsigned char *allowed; /* n_slots flags: may run in slot t */
	double fallback_cost;      /* whole job off owned GPUs (rented or API);
				      INFINITY when it has no other route */
	int min_run;               /* slots per run, at least; 0 = none */
	int max_run;               /* slots the job is busy without a break, at most; 0 = none */
	/* The same-hour split (sched_split_allowed): the job may run copies in
	 * several places in one hour, so the rest of it that the owned pools
	 * do not take may run on rented GPUs in the hours it also runs on owned
	 * ones, and in as many copies at once as it needs. The solver itself
	 * still puts a job on one pool an hour; the split is the rest's. */
	bool split;
	const struct sched_option *opt; /* one per pool */
};

struct sched_problem {
	bool baseline;      /* benchmarks only: greedy by priority, earliest
			       hours, no repair — the yardstick bench/ compares with */
	bool no_exact;      /* tests and benchmarks only: no exact placement by
			       dynamic programme (of one job or a pair), as on a
			       month whose states are too many for it */
	bool quick;         /* construction only (phase 1 of sched_solve.c): no
			       repair, no search; the fleet search's first look
			       at a candidate (fleet.c) */
	int n_slots;
	const struct sched_pool *pools;
	size_t n_pools;
	const struct sched_job *jobs;
	size_t n_jobs;
};

/* Which pool each job uses in each slot, and how many hours of work the
 * slot does (1, or less in a job's last, partial hour). */
struct sched_solution {
	int n_slots;
	size_t n_jobs;
	int16_t *pool;      /* n_jobs × n_slots: pool index, or -1 */
	double *work;       /* n_jobs × n_slots: hours of work done */
	double *rest;       /* n_jobs: fraction of each job left off owned GPUs */
};

/* Rules every run must keep, in terms of runs: a run is a maximal block of
 * consecutive slots of one job on one pool. The solver keeps them, and
 * sched_check (sched_check.c: the tests' oracle, sharing no code with the
 * solver) verifies:
 * the slot is allowed, a pool never runs more GPUs than it has, a job is in
 * one place at a time, each run is at least min_run slots except the job's
 * last run when it finishes the job, and no stretch of consecutive busy slots of a job
 * is longer than max_run. */

/* Whether job j may run in several places in the same hour (struct
 * sched_job.split): inference, whose replicas serve requests apart, may;
 * a fine-tune is one training run, on one kind of GPU at a time, so its
 * rest goes only to the hours its owned runs leave free. The serving
 * traffic shape (base load owned, peak rented) is this split. */
bool sched_split_allowed(const struct job *j);

/* Solves p. Returns PLANNER_OK and fills *out (free with
 * sched_solution_free), or PLANNER_ESYS with *err set when out of memory
 * (*out then holds nothing). Deterministic: same problem, same solution. */
int sched_solve(const struct sched_problem *p, struct sched_solution *out, char **err);
void sched_solution_free(struct sched_solution *s);

/* The cost of job j in s: power of its owned hours plus the rest of the
 * job at fallback_cost (the rest is returned in *unplaced, as a fraction,
 * when fallback_cost is infinite, and costs nothing here). */
double sched_job_cost(const struct sched_problem *p, const struct sched_solution *s, size_t j,
		      double *unplaced);
/* Sum of sched_job_cost over all jobs; *unplaced gets the summed fractions. */
double sched_total_cost(const struct sched_problem *p, const struct sched_solution *s,
			double *unplaced);
/* Checks s against every rule above; NULL when it keeps them all, else a
 * static description of the first broken one (for tests). */
const char *sched_check(const struct sched_problem *p, const struct sched_solution *s);

/* ---- the month ---- */

/* One hour of the month in the spec's time zone. */
struct sched_slot {
	time_t start;       /* UTC seconds */
	int utc_offset;     /* seconds east of UTC at start */
	int mday;           /* local day of month, 1.. */
	int wday;           /* local weekday, 0 = Monday … 6 = Sunday */
	int minute;         /* local minutes after midnight at start */
};

/* Builds the hourly slots of month (1-12) of year in time zone tz (an IANA
 * name): local midnight of the 1st to local midnight of the next month, so
 * a month with a daylight-saving change has one hour less or more. *out
 * gets n + 1 entries (the last is the month's end). TZ is set for the call
 * and restored; not thread-safe. Returns PLANNER_OK, PLANNER_EINPUT (a
 * month or time zone it cannot lay out) or PLANNER_ESYS (out of memory). */
int sched_month_slots(const char *tz, int year, int month, struct sched_slot **out, int *n,
		      char **err);

/* Fills allowed[0..n) for a job's window, days and deadline. A window that
 * crosses midnight belongs to the day it starts; a whole slot must be
 * inside the window (or two abutting days' windows: after a 30-minute
 * shift a slot may cross midnight); the deadline is the end of local day
 * D. */
void sched_allowed(const struct job_schedule *s, const struct sched_slot *slots, int n,
		   unsigned char *allowed);

/* ---- the schedule ---- */

struct sched_run {
	size_t job;                 /* index into spec->jobs */
	enum route route;
	char resource[160];         /* "RTX 4090 #1", "runpod NVIDIA RTX A6000", "openrouter …" */
	const struct gpu_spec *gpu; /* NULL for api */
	int gpu_count;              /* 0 for api */
	int slot;                   /* first slot; api runs span the job's period */
	int n_slots;
	time_t start, end;          /* UTC seconds; end = start + hours for GPU runs */
	int start_offset, end_offset; /* UTC offsets at start and end, seconds */
	double hours;               /* hours of work (0 for api); serverless: the
	                             * hours it is up, n_slots */
	double cost;                /* currency; serverless: its share of the
	                             * route's month, by hours */
	uint64_t gpus;              /* owned: which GPUs of the pool (bit i = #first+i) */
	int pool;                   /* owned: pool index; -1 otherwise */
	int replicas;               /* owned, rented: copies running together, each on
	                             * gpu_count / replicas GPUs; 1 when one */
	char provider[64];          /* rented: the offer's provider */
	char region[64];            /* rented: the offer's region, "" when unknown */
	bool spot;                  /* rented: at a spot price */
	const char *mix;            /* "base" or "peak" of a traffic-shape mix
	                             * (plan_mix); NULL for any other run */
};

struct sched_job_result {
	const struct job *job;
	double hours_needed;        /* GPU-hours on its reference configuration */
	double hours_placed;        /* share done on any route, in the same hours */
	double unplaced_hours;
	double owned_share; /* fraction of the work done on owned GPUs (0..1) */
	double cost;
	char why[320];              /* when unplaced_hours > 0: what to do about it */
	char note[160];             /* "" or a remark on how it was placed (min_run) */
};

struct sched_resource {
	char name[64];              /* "RTX 4090 #1" */
	int pool;
	double hours_used;
	double hours_available;
};

struct schedule {
	char month[8];              /* "2026-03" */
	char timezone[64];
	char currency[8];
	char prices_as_of[24];
	int n_slots;
	struct sched_slot *slots;   /* n_slots + 1 */
	struct sched_run *runs;     /* by start, then job, then route */
	size_t n_runs;
	struct sched_job_result *jobs; /* one per spec job, in spec order */
	size_t n_jobs;
	struct sched_resource *resources; /* one per owned GPU */
	size_t n_resources;
	struct sched_pool *pools;
	size_t n_pools;
	double total_cost;          /* the jobs' costs plus owned_fixed */
	double route_cost[ROUTE_MAX]; /* owned includes owned_fixed, rented setup_cost */
	double route_hours[ROUTE_MAX];
	/* The owned pools' month that no run's cost carries (tco_owned_month's
	 * fixed part at the hours the schedule gives them): idle draw and
	 * hosts when kept on, maintenance; 0 without costs: and idle_watts.
	 * A job's cost and the solver see the marginal cost of a busy hour. */
	double owned_fixed;
	double setup_cost;          /* rented runs' setup hours (tco_setup_run), in their costs */
};

/* Whether run r holds hours on GPUs: owned and rented runs, and a
 * serverless service's blocks of its window (hours up, billed by busy
 * seconds); an API run spans its period with no hours. This function
 * can't fail. */
bool sched_run_has_hours(const struct sched_run *r);

/* Job j's runs in a schedule, summed (sched_job_hours). */
struct sched_job_hours {
	double owned;    /* hours on the owned pools */
	double cloud;    /* hours on someone else's GPUs: rented, serverless */
	double api_cost; /* cost of its runs without hours (the API), currency */
};

/* Fills *h for job j of s. This function can't fail. */
void sched_job_hours(const struct schedule *s, size_t j, struct sched_job_hours *h);

/* Flags for schedule_month. */
#define SCHEDULE_BASELINE 1u /* the greedy baseline instead of the solver (benchmarks) */
#define SCHEDULE_NO_EXACT                                                                          \
	2u /* no exact placers (sched_problem.no_exact): the fleet                                 \
			      * search's second look at a candidate */
#define SCHEDULE_QUICK                                                                             \
	4u /* construction only (sched_problem.quick): the fleet                                   \
			      * search's first, cheapest look at a candidate */

/* Schedules the month (1-12) of year for spec, priced by plan (from
 * plan_compare on the same spec). Returns PLANNER_OK and a schedule (free
 * with schedule_free), or an error code with *err set. Deterministic. */
int schedule_month(const struct jobspec *spec, const struct plan *plan, int year, int month,
		   unsigned flags, struct schedule **out, char **err);
void schedule_free(struct schedule *s);

/* "2026-03-29T03:00:00+02:00" for t at the given UTC offset; buf >= 32. */
void sched_iso(time_t t, int utc_offset, char *buf, size_t len);

#endif
