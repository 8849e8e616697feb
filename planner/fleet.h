/* fleet.h — the fleet decision (issue 15; README, "What to buy for all the
 * jobs together"): which GPUs of the spec's buy: list to buy, and how many
 * of each, so that all jobs together — sharing those GPUs and the ones
 * already owned hour by hour through the scheduler (schedule.h), the rest
 * rented or sent to the API — cost the least per month.
 *
 * Two layers, as in schedule.h. fleet_search works on an abstract space
 * of purchase counts with a cost callback, so tests can put an exact
 * optimum beside it. fleet_plan evaluates a purchase on a real spec by
 * adding the bought GPUs to owned: and scheduling the month; a bought GPU
 * costs its capital (tco_owned_month) every month whether it runs or not,
 * and, as a GPU on hand, what the schedule charges its pool: the power of
 * the hours it gives it plus the pool's fixed month (idle draw, hosts,
 * maintenance; schedule.h, owned_fixed). */
#ifndef PLANNER_FLEET_H
#define PLANNER_FLEET_H

#include <stdbool.h>
#include <stddef.h>

#include "jobspec.h"
#include "plan.h"
#include "refdata.h"
#include "schedule.h"

/* The scheduler's bound on one pool (schedule.c, SCHED_MAX_POOL_GPUS: a
 * run's GPUs are a 64-bit set). */
#define FLEET_MAX_POOL_GPUS 64

/* Most buy: entries the search takes (a policy bound: each adds a
 * dimension to the local search's neighbourhood). */
#define FLEET_MAX_TYPES 16

/* Every purchase is evaluated when there are at most this many (exact
 * over counts); beyond it, the local search of fleet_search. A policy
 * bound: each purchase is a month's schedule, a few tenths of a second
 * (bench/fleet.sh), so 3 types of up to 2 GPUs each (27) stay exact. */
#define FLEET_EXACT_MAX 27

/* Most purchases the local search schedules before it stops with the best
 * so far (a policy bound on its time: 200 jobs take about half a second a
 * schedule, bench/fleet.sh). */
#define FLEET_MAX_EVALUATIONS 240

/* With a quick look at a candidate (struct fleet_space.quick), the most
 * purchases the local search looks at quickly: a policy bound on its time
 * (a construction-only schedule of 200 jobs takes about 10 ms,
 * bench/fleet.sh); the descents converge well before it there. */
#define FLEET_MAX_QUICK 2000

/* Of the purchases the quick look found cheapest, how many are evaluated
 * again by the full evaluation, and how many more purchases a last descent
 * by the full evaluation may take from the best of them (policy bounds:
 * each is a schedule with repair and search, about 0.15 s at 200 jobs). */
#define FLEET_REFINE 4
#define FLEET_POLISH_EVALUATIONS 12

/* ---- the abstract search ---- */

/* Monthly cost of buying counts[i] GPUs of type i (all types at once),
 * purchase included; PLANNER_OK, or an error with *err set. */
typedef int (*fleet_eval_fn)(void *ctx, const int *counts, double *monthly, char **err);

struct fleet_space {
	size_t n_types;
	int max_count[FLEET_MAX_TYPES]; /* 0 = the type cannot help */
	fleet_eval_fn eval;
	void *ctx;
	const int *start;   /* NULL, or one more purchase to start the local search from */
	int exact_max;      /* 0: FLEET_EXACT_MAX; tests set 1 to force the local search */
	/* Per type, the move sizes worth trying: bit i for fleet_move_sizes[i]
	 * (1, 2, 4, 8 GPUs); 0 = all. */
	unsigned sizes[FLEET_MAX_TYPES];
	int max_evaluations; /* 0: FLEET_MAX_EVALUATIONS; the local search on eval
				alone (with quick, eval takes at most
				FLEET_REFINE + FLEET_POLISH_EVALUATIONS) */
	/* NULL, or a cheaper, rougher cost of the same purchases: then the
	 * local search runs on it, and only its cheapest few (FLEET_REFINE)
	 * and a short descent from the best of them go through eval. */
	fleet_eval_fn quick;
	int max_quick;       /* 0: FLEET_MAX_QUICK */
};

/* GPUs a local-search move adds or removes at once. */
extern const int fleet_move_sizes[4];

struct fleet_found {
	int counts[FLEET_MAX_TYPES];
	double monthly;
	int evaluations;    /* distinct purchases evaluated by eval */
	int quick_evaluations; /* distinct purchases looked at by quick */
	bool exact;         /* every purchase was evaluated */
};

/* Finds the cheapest purchase: every one when few, else a best-improvement
 * local search (add or remove 1, 2, 4 or 8 GPUs of a type; when none
 * helps, swap as many of a type for another) from buying nothing, from
 * s->start and from buying every GPU allowed, each purchase evaluated
 * once. With s->quick, the local search runs on quick looks; the
 * FLEET_REFINE cheapest of them are evaluated by eval, and a descent by
 * eval from the best takes at most FLEET_POLISH_EVALUATIONS more. out's
 * figures are always eval's.
 * Deterministic. Returns PLANNER_OK, or the callback's error, or
 * PLANNER_ESYS when out of memory. */
int fleet_search(const struct fleet_space *s, struct fleet_found *out, char **err);

/* ---- the month ---- */

/* Most GPU types the search takes when the spec has no buy: list (every
 * GPU with a price that fits a job, FLEET_ANY_GPU): the cheapest for some
 * job first. A policy bound on the search's cost: each type adds moves to
 * every step of the local search, and bench/fleet.sh's six types keep it
 * within its target (bench/README.md). */
#define FLEET_AUTO_TYPES 6

/* One strategy's figures for the month. */
struct fleet_choice {
	const struct buy_option *buy; /* the list counts index: struct fleet.buy */
	size_t n_buy;
	int counts[FLEET_MAX_TYPES]; /* per buy entry */
	double capex;                /* purchase, currency */
	double purchase_monthly;     /* its capital a month (tco_owned_month); its
				      * maintenance is in the schedule's owned_fixed */
	double commit_monthly;       /* the shared commitments' fixed month (offer_term_month),
				      * in by_route's owned: capacity like owned GPUs */
	double monthly_total;        /* the month's bill, purchase share included */
	double by_route[ROUTE_MAX];/* owned: power + purchase share */
	double unplaced_hours;       /* work no route could take */
	struct schedule *sched;      /* the month on this fleet */
};

/* Which strategy fleet_plan recommends (struct fleet.recommended). */
enum fleet_pick { FLEET_PICK_SEARCH, FLEET_PICK_NONE, FLEET_PICK_PER_JOB, FLEET_PICK_GIVEN };

/* A purchase to price beside the search (planner fleet --buy). */
struct fleet_given {
	const struct gpu_spec *gpu;
	int count;
};

/* Most --buy entries. */
#define FLEET_MAX_GIVEN 8

/* When the fleet runs out over the horizon (fleet_runout). */
struct fleet_runout {
	bool checked;            /* the spec grows over a horizon of 2 months or more */
	int month;               /* 1.. of the horizon; 0 = not within it */
	int months;              /* the horizon searched (horizon_months) */
	double growth_percent;   /* the spec's growth: a month */
	double owned_hours;      /* that month: GPU-hours of work the fleet's GPUs take */
	double expected_hours;   /* ... and would take at the first month's shares */
	struct fleet_choice add; /* what to add then (sched NULL): a search from the
	                          * fleet as owned at that month's volume; counts all
	                          * 0 when renting the rest stays cheaper */
};

struct fleet {
	size_t n_types; /* entries of buy */
	/* What the search buys from: the spec's buy: list, or without one
	 * (FLEET_ANY_GPU) every GPU with a price that fits a job, pruned to
	 * FLEET_AUTO_TYPES, then the --buy GPUs not on it; owned here. */
	struct buy_option *buy;
	bool derived;                /* buy was derived, not the spec's */
	struct fleet_choice best;    /* the search's cheapest purchase */
	struct fleet_choice none;    /* buy nothing */
	struct fleet_choice per_job; /* each job's own purchase, as compare prices it */
	struct fleet_choice given;   /* --buy's purchase; sched NULL when none was given */
	/* The strategy recommended: of those doing the most work, the
	 * cheapest whose purchase pays back within amortize_months (buying
	 * nothing always qualifies); when none of them does, the cheapest
	 * (the only way to do all the work). */
	enum fleet_pick recommended;
	/* Months until the purchase's saving against buying nothing pays its
	 * capex; NAN when it does not within the amortisation period (or
	 * nothing is bought). */
	double payback_months;
	double bound;                /* a lower bound on any fleet's monthly total */
	int evaluations;             /* purchases scheduled with repair and search */
	int quick_evaluations;       /* purchases scheduled by construction only */
	bool exact;
};

/* Plans the fleet for the month (1-12) of year. Returns PLANNER_OK and a
 * fleet (free with fleet_free), or an error with *err set: PLANNER_EINPUT
 * when the spec has no buy: list or more than FLEET_MAX_TYPES entries. */
int fleet_plan(const struct jobspec *spec, const struct plan *plan, int year, int month,
	       struct fleet **out, char **err);

/* Flags for fleet_plan_opts. */
#define FLEET_THOROUGH                                                                             \
	1u /* every candidate of the local search scheduled with                                   \
	    * repair and search, no quick look first: the method                                   \
			   * before the quick look, slower (planner fleet --thorough) */

#define FLEET_ANY_GPU                                                                              \
	2u /* without a buy: list, every GPU with a price that fits a                              \
	    * job may be bought, as compare considers them (planner                                \
	    * fleet); else such a spec is an error */

/* fleet_plan with flags (FLEET_THOROUGH, FLEET_ANY_GPU); fleet_plan is flags 0. */
int fleet_plan_opts(const struct jobspec *spec, const struct plan *plan, int year, int month,
		    unsigned flags, struct fleet **out, char **err);

/* What fleet_plan_with takes beyond the month. */
struct fleet_opts {
	unsigned flags;                  /* FLEET_THOROUGH, FLEET_ANY_GPU */
	const struct refdata *ref;       /* the GPUs FLEET_ANY_GPU and given take prices from;
	                                  * NULL: the spec's buy: list only */
	const struct fleet_given *given; /* a purchase to price beside the search */
	size_t n_given;
};

/* fleet_plan_opts that also prices the purchase o->given (each GPU's
 * price from buy:, else the reference table's) into f->given. A given
 * GPU without a price, or a count past the scheduler's 64 of a model, is
 * PLANNER_EINPUT naming --buy. */
int fleet_plan_with(const struct jobspec *spec, const struct plan *plan, int year, int month,
                    const struct fleet_opts *o, struct fleet **out, char **err);
void fleet_free(struct fleet *f);

/* A purchase must save more than this (currency a month) to replace
 * another: costs closer than a cent are equal, and the smaller purchase
 * found first is kept (the search, the recommendation). */
#define FLEET_COST_EPS 1e-6

/* Sets f->recommended (struct fleet) from f's strategies; fleet_plan_with
 * calls it. This function can't fail. */
void fleet_recommend(const struct jobspec *spec, struct fleet *f);

/* The recommended strategy's figures. */
const struct fleet_choice *fleet_recommended(const struct fleet *f);
/* Moves the recommended strategy's schedule out of f: the caller frees it
 * (schedule_free); f keeps its figures. */
struct schedule *fleet_take_recommended(struct fleet *f);
/* "fleet", "buy_nothing", "one_purchase_per_job", "given": JSON's names. */
const char *fleet_pick_name(enum fleet_pick p);

/* Prices `grown` (the spec with each job's volume grown: fleet_runout)
 * as plan_compare does, into *plan (freed by the caller with plan_free):
 * the core holds no store, so the command passes one. */
typedef int (*fleet_replan_fn)(void *ctx, const struct jobspec *grown, struct plan **plan,
                               char **err);

/* When f's recommended fleet runs out over the spec's horizon_months with
 * its growth: the first month in which the fleet's GPUs (owned plus the
 * purchase) take a smaller share of the grown work than in the first
 * month (the work at month 1's shares, less what they take, more than
 * FLEET_RUNOUT_SLACK of it), the rest going to rent or the API; and what to add
 * then (a fleet search at that month's volume with the fleet as owned).
 * out->month 0 when it does not run out, or the spec has no growth or
 * horizon. Returns PLANNER_OK or an error with *err set. */
#define FLEET_RUNOUT_SLACK 0.01
int fleet_runout(const struct jobspec *spec, const struct fleet *f, int year, int month,
                 fleet_replan_fn replan, void *ctx, struct fleet_runout *out, char **err);

/* Months until choice c's saving against n (buying nothing) pays c's
 * capex: the saving is n's bill less c's bill without its purchase share.
 * NAN when c buys nothing, saves nothing, or takes longer than
 * amortize_months ("not within N months"). */
double fleet_payback(const struct jobspec *spec, const struct fleet_choice *c,
		     const struct fleet_choice *n);

/* The spec with the purchase counts (per spec->buy entry) added to its
 * owned: list, into *copy: a shallow copy sharing everything with spec
 * but owned, which fleet_spec_release frees. Returns PLANNER_OK or
 * PLANNER_ESYS. */
int fleet_spec(const struct jobspec *spec, const int *counts, struct jobspec *copy, char **err);
void fleet_spec_release(struct jobspec *copy);

/* The lower bound of struct fleet.bound for spec and plan over a month of
 * n_slots hours: each job at the least of its rented or API bill, its power
 * on a fitting owned GPU, or its power plus its GPU-hours' share of a
 * bought GPU's monthly cost at full use (windows and sharing ignored). */
double fleet_bound(const struct jobspec *spec, const struct plan *plan, int n_slots);

/* Most shared commitments the search weighs beside the purchases: the
 * cheapest per GPU-hour of distinct GPU models some job may run on (a
 * policy bound, as FLEET_AUTO_TYPES: each adds moves to every step of the
 * local search). */
#define FLEET_COMMIT_TYPES 2

/* The instances of commitment entry b that `count` of its GPUs take:
 * whole instances of its offer's GPUs. */
int fleet_commit_instances(const struct buy_option *b, int count);

/* The plan's commitments (its spec's commit:) as entries onto f->buy
 * (ref: the GPUs they name; NULL adds none): for each GPU model some job
 * may run on, its cheapest per GPU-hour, the FLEET_COMMIT_TYPES cheapest
 * of those, each with no price and no power (the provider's), up to
 * JOBSPEC_DEFAULT_MAX_BUY GPUs in whole instances. This function can't
 * fail. */
void fleet_add_commitments(const struct plan *plan, const struct refdata *ref, struct fleet *f);

/* "2x RTX 5090, 1x RTX 6000 Ada", or "nothing": c's purchase; a shared
 * commitment reads "1x A100 80GB (azure 3y commitment)". */
void fleet_purchase_text(const struct jobspec *spec, const struct fleet_choice *c, char *buf,
			 size_t len);
/* c's payback against buying nothing: "23.9 months", "not within N
 * months" (amortize_months), or "-" when it buys nothing. */
void fleet_payback_text(const struct jobspec *spec, const struct fleet *f,
			const struct fleet_choice *c, char *buf, size_t len);

#endif
