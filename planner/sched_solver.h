/* sched_solver.h — the solver's private parts, shared by its files:
 * sched_solve.c (setup, construction and the placement moves),
 * sched_repair.c (repair, and keeping or undoing a move),
 * sched_dp.c (the exact placers: one job, or a pair, by dynamic programme)
 * and sched_lns.c (large-neighbourhood search). Nothing else includes it:
 * the problem, its rules and sched_check, the tests' oracle, are in
 * schedule.h and sched_check.c, which know nothing of the solver. */
#ifndef PLANNER_SCHED_SOLVER_H
#define PLANNER_SCHED_SOLVER_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "schedule.h"

/* Work below this (hours, or a fraction of a job) is none. */
#define WORK_EPS 1e-9

/* Jobs taken off and placed again together, at most (try_order, lns). */
#define GROUP_MAX 3
/* Occupying jobs considered for eviction per starving job: the cheapest
 * few to move are where the gains are. */
#define REPAIR_PARTNERS 6

/* The most pools an exact placer's state can hold (struct run_state). */
#define DP_MAX_POOLS 64

/* Which of equally cheap slots a placement prefers. */
enum tie {
	TIE_PRESSURE, /* the least wanted by the options still to come */
	TIE_EARLY,    /* the earliest */
	TIE_LATE,     /* the latest */
};

/* How a move places one job again (sched_lns.c). */
enum place_kind {
	PLACE_DENSEST,    /* its pools densest first, slots preferred by tie */
	PLACE_POOL_FIRST, /* pool first, then the others densest first */
	PLACE_POOL_ONLY,  /* pool only */
	PLACE_EXACT,      /* by the one-job programme, ties by tie, in at most
	                     cap slots; as PLACE_DENSEST when its states are
	                     too many */
	PLACE_NONE,       /* not at all: the whole job off owned GPUs */
};

struct place_mode {
	enum place_kind kind;
	enum tie tie; /* PLACE_DENSEST, PLACE_EXACT */
	int pool;     /* PLACE_POOL_FIRST, PLACE_POOL_ONLY */
	int cap;      /* PLACE_EXACT: most slots; INT_MAX none */
};

struct opt_ref {
	size_t job;
	int pool;
	double density;
};

/* An exact placer's memo: cost, tie-break score and choice per state,
 * valid where its stamp is the current generation, so a new placement
 * clears it by counting. The one-job programme indexes it by state; the
 * pair programme hashes its joint states into it (key). */
struct memo {
	size_t n; /* entries allocated; 0 none yet */
	unsigned gen;
	unsigned *stamp;
	uint64_t *key; /* hashed use only */
	double *cost, *press;
	int16_t *choice;
};

struct solver {
	const struct sched_problem *p;
	struct sched_solution *s;
	int T;
	int *freecap;          /* n_pools × T: GPUs not in use */
	double *pressure;      /* n_pools × T */
	unsigned char *active; /* per option (job × pool): counts in pressure */
	struct opt_ref *opts;  /* every usable option, densest first */
	size_t n_opts;
	size_t *by_job;           /* n_jobs + 1 offsets into job_opts */
	struct opt_ref *job_opts; /* each job's options, densest first */
	int *allowed_n;           /* slots each job may use */
	bool constructing;        /* phase 1: pressure may turn down a partial hour */
	/* scratch, T each */
	unsigned char *cand;
	int *idx;
	int *sort_tmp;
	double *score;
	double *dens; /* scratch, n_jobs: partners() */
	int16_t *save_pool[GROUP_MAX];
	double *save_work[GROUP_MAX];
	unsigned char *save_active; /* GROUP_MAX × n_pools */
	struct place_mode *modes;   /* GROUP_MAX × MODES_MAX(n_pools, T) */
	bool dp_on;                 /* exact placers: not for the baseline, nor with no_exact */
	struct memo one;            /* the one-job programme's */
	struct memo pair;           /* the pair programme's */
	/* sched_index.c: each job's allowed slots, allowed_slots[allowed_at[j]
	 * .. allowed_at[j + 1]); the jobs on pool m in slot t, occ_n[m × T + t]
	 * of them from occ[occ_at[m] + t × count]; touched: scratch, n_jobs */
	size_t *allowed_at;
	int *allowed_slots;
	size_t *occ_at;
	int *occ;
	int *occ_n;
	size_t *touched;
	/* The work meter: slots scanned, options and states visited, as the
	 * solver goes. Budgets are spent from it, so they bound the time
	 * whatever the spec's shape (issue 16), and, with no clock, the same
	 * problem still gives the same answer. */
	long work;
	long budget;     /* the work repair and search may spend together */
	long work_limit; /* repair and search stop when work reaches it */
	long last_gain;  /* the meter when a move last made the month cheaper */
	long stall;      /* > 0: the search stops after this much work with no
	                    move that helps, converged (sched_lns.c) */
};

/* The modes of one job a group tries at most (sched_lns.c's job_modes):
 * eight fixed ones, two per pool and a cap per slot. */
#define MODES_MAX(n_pools, T) (8 + 2 * (size_t)(n_pools) + (size_t)(T))

static inline double solver_fallback(const struct sched_job *j)
{
	return isinf(j->fallback_cost) ? SCHED_UNPLACED_PENALTY : j->fallback_cost;
}

/* The value of one GPU-hour of the option's pool to the job. */
static inline double solver_density(const struct sched_job *j, const struct sched_option *o)
{
	return (solver_fallback(j) / o->hours - o->cost_per_hour) / o->gpus;
}

static inline bool solver_usable(const struct sched_problem *p, size_t j, size_t m)
{
	const struct sched_option *o = &p->jobs[j].opt[m];
	return o->gpus > 0 && o->gpus <= p->pools[m].count && o->hours > 0 && isfinite(o->hours);
}

/* ---- sched_solve.c ---- */

/* The solver's objective for one job: unplaced work at the penalty. */
double solver_objective(const struct solver *v, size_t j);
/* Counts option (j, m) in the pressure on its slots, or stops counting it. */
void solver_set_active(struct solver *v, size_t j, int m, bool on);
/* Job j does w hours of work on pool m in slot t. */
void solver_take(struct solver *v, size_t j, int m, int t, double w);
/* Places as much of job j as fits on pool m, preferring slots by tie. */
void solver_place(struct solver *v, size_t j, int m, enum tie tie);
/* Places job j on its options, densest first, or pool `first` first (-1:
 * densest). */
void solver_place_job(struct solver *v, size_t j, int first, enum tie tie);
void solver_remove_job(struct solver *v, size_t j);
/* Keeps job j's row in save slot k (< GROUP_MAX), its rest in *rest. */
void solver_save_job(struct solver *v, int k, size_t j, double *rest);
void solver_restore_job(struct solver *v, int k, size_t j, double rest);
/* Whether the meter has reached the limit of the phase, or the search has
 * gone stall work without a gain. */
static inline bool solver_spent(const struct solver *v)
{
	return v->work >= v->work_limit || (v->stall > 0 && v->work - v->last_gain >= v->stall);
}

/* ---- sched_repair.c ---- */

/* Keeps the move of who[0..n) or undoes it (see sched_repair.c). */
bool solver_settle(struct solver *v, const size_t *who, int n, const double *rest, double before,
                   bool allowed, bool check_runs);
/* Phase 2: rounds of repair moves until none helps or work_limit. */
void solver_repair(struct solver *v);

/* ---- sched_index.c ---- */

/* Allocates and fills the indexes; false when out of memory (free with
 * solver_index_free all the same). */
bool solver_index_alloc(struct solver *v);
void solver_index_free(struct solver *v);
/* Job j starts or stops running on pool m in slot t. */
void solver_occ_add(struct solver *v, int m, int t, size_t j);
void solver_occ_del(struct solver *v, int m, int t, size_t j);
/* Jobs holding slots job k could use, the cheapest to evict first. */
int solver_partners(struct solver *v, size_t k, size_t *out, int max);

/* ---- sched_dp.c ---- */

/* Whether job j's states are few enough for solver_place_exact. */
bool solver_exact_fits(const struct solver *v, size_t j);
/* Places job j (off every pool now) exactly, in at most cap slots, ties by
 * tie; *placed false when its states are too many (nothing is placed).
 * PLANNER_OK, or PLANNER_ESYS when its memo cannot be allocated. */
int solver_place_exact(struct solver *v, size_t j, enum tie tie, int cap, bool *placed);
/* Whether jobs a and b may be tried by solver_place_pair: a cheap test. */
bool solver_pair_fits(const struct solver *v, size_t ja, size_t jb);
/* Places jobs a and b (off every pool now) exactly together; *placed false
 * when their joint states are too many (nothing is placed). Counts the
 * states it visits on the work meter. PLANNER_OK or PLANNER_ESYS. */
int solver_place_pair(struct solver *v, size_t ja, size_t jb, bool *placed);
void solver_memo_free(struct memo *mm);

/* ---- sched_lns.c ---- */

/* Rounds of group moves until none helps or the budget is spent.
 * PLANNER_OK or PLANNER_ESYS. */
int solver_lns(struct solver *v);

#endif
