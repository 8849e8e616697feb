/* route.h — the ways to run a job (docs/estimation.md, "Cost curves") as
 * one interface, `struct route_ops`, and one list of them that every
 * consumer loops over: compare, breakeven, diff, fleet, horizon, the
 * report, the schedule and every export. A route is a file
 * (planner/route_<name>.c) ending in its `struct route_ops`; the four of
 * planner are in the list from the start, and route_register adds one
 * (a test's, or a later route's) at run time.
 *
 * What consumers may ask of a route is its properties (flags), never its
 * name: the data-class and task rules (workload_route_allowed), whether it
 * runs on GPUs with hours and replicas, whether it has a purchase. */
#ifndef PLANNER_ROUTE_H
#define PLANNER_ROUTE_H

#include <stdbool.h>
#include <stddef.h>

/* The routes planner ships, in list order; a registered route takes the
 * next free index. A route's index is its place in every per-route array
 * (job_result.routes, schedule.route_cost, horizon months …). */
enum route { ROUTE_API, ROUTE_RENTED, ROUTE_OWNED, ROUTE_SERVERLESS, ROUTE_BUILTIN };

/* Most routes the list holds: the four shipped plus room for one
 * registered (a test's, or the next route until it ships). Per-route
 * arrays are this long; route_count() says how many are in use. Each
 * slot costs every job 0.7 KiB (route_result), and a plan holds every
 * job at once (issue 16), so the room is kept small. */
#define ROUTE_MAX 5

/* Most break-even figures (struct breakeven): the shipped four plus room
 * for two pairs of registered routes (72 bytes a job each). */
#define BREAKEVEN_MAX 6

/* Properties (route_ops.flags). */
enum route_flag {
	ROUTE_THIRD_PARTY = 1u << 0,    /* someone else's service sees the data: not for
	                                 * data: confidential or restricted */
	ROUTE_LEAVES_HOUSE = 1u << 1,   /* runs outside the house: not for data: restricted */
	ROUTE_INFERENCE_ONLY = 1u << 2, /* prices inference only: not for fine-tuning */
	ROUTE_HAS_CAPACITY = 1u << 3,   /* a fixed stock of GPUs: the schedule's pools */
	ROUTE_HAS_CAPEX = 1u << 4,      /* a purchase (route_result.capex) */
	ROUTE_ON_GPUS = 1u << 5,        /* runs on GPUs the plan sizes: gpu, gpu_count,
	                                 * replicas, batch, gpu_hours are set */
	ROUTE_HOURLY = 1u << 6,         /* priced per instance-hour (price_per_hour) */
};

struct cJSON;
struct jobspec;
struct job_result;
struct plan;
struct route_ctx;
struct route_result;

/* One route's monthly cost as a line over the job's hours per month h:
 * cost(h) = fixed + slope × h. The hours are the job's own
 * (job_result.gpu_hours_per_month at its current use); a route on another
 * GPU configuration needs proportionally more or fewer of its own hours
 * for the same work, which the slope carries, so every line passes
 * through the route's monthly cost at the current use. */
struct cost_line {
	bool feasible;
	double fixed; /* currency per month at 0 h: the owned route's capex / months */
	double slope; /* currency per hour of the job's work */
};

/* The CSV cells of `planner breakeven` a route has (route_ops.csv_head /
 * csv_tail), each named "<route>_<field>" in the header. */
enum route_field {
	ROUTE_FIELD_END,           /* ends a list */
	ROUTE_FIELD_MONTHLY_COST,  /* monthly_cost */
	ROUTE_FIELD_PROVIDER,      /* provider */
	ROUTE_FIELD_OFFER,         /* offer */
	ROUTE_FIELD_GPU,           /* gpu */
	ROUTE_FIELD_GPU_COUNT,     /* gpu_count */
	ROUTE_FIELD_PRICE,         /* price_per_hour */
	ROUTE_FIELD_ALREADY_OWNED, /* already_owned */
	ROUTE_FIELD_CAPEX,         /* capex */
	ROUTE_FIELD_REPLICAS,      /* replicas */
};

/* "monthly_cost", "offer" …; "" for ROUTE_FIELD_END. */
const char *route_field_name(enum route_field f);

struct route_ops {
	const char *name;   /* "api": in every output */
	int tie_rank;       /* on equal cost the lower wins (less outside dependence) */
	unsigned flags;     /* enum route_flag */
	const char *colour; /* the report's line colour */
	/* Prices the job on this route into r (zeroed, r->route set): feasible
	 * with monthly_cost and what it runs on, or r->why. Returns PLANNER_OK,
	 * or an error code with *err set (a failed store read). */
	int (*price)(const struct route_ctx *c, struct route_result *r, char **err);
	/* The route's cost line at the job's use (hours per month); NULL: no
	 * fixed part, slope monthly_cost / use (0 at no use). */
	void (*cost_line)(const struct route_result *r, double use, struct cost_line *out);
	/* Adds the route's own members to compare's JSON object o of a
	 * feasible r (between "feasible" and the common tail). */
	void (*json)(struct cJSON *o, const struct plan *p, const struct route_result *r);
	/* compare's "how" text of a feasible r into buf (len bytes), in
	 * currency cur, with the costs: terms when costs; returns what
	 * snprintf returns. */
	int (*detail)(char *buf, size_t len, const struct route_result *r, const char *cur,
	              bool costs);
	/* The report's "how" text of a feasible r (not yet escaped). */
	void (*report_detail)(char *buf, size_t len, const struct route_result *r, const char *cur);
	/* The report summary's decision for job j, whose best route this is:
	 * "use the API: openrouter x", "buy 2x H100 …; pays back in 9.1 months"
	 * (not yet escaped). */
	void (*summary)(char *buf, size_t len, const struct job_result *j, const char *cur);
	/* diff's decision: "api openrouter x", "rent 1x H100 at vast". */
	void (*decision)(char *buf, size_t len, const struct route_result *r);
	/* breakeven's cells: after the job's figures, and after prices_as_of. */
	const enum route_field *csv_head, *csv_tail;
};

/* The routes in list order: route_count() of them at route_at(0..). */
size_t route_count(void);
const struct route_ops *route_at(size_t k);
/* The index of ops in the list, or -1. */
int route_index(const struct route_ops *ops);

/* "api", "rented", "owned", "serverless", a registered route's name; "?"
 * past the list. */
const char *route_name(enum route r);
/* The routes by tie rank, lowest first (owned, rented, api, serverless,
 * then registered ones by theirs; equal ranks in list order), into out.
 * Returns route_count(). */
size_t route_by_rank(enum route out[ROUTE_MAX]);
/* Whether route r has every flag of mask. */
bool route_has(enum route r, unsigned mask);

/* A break-even figure between two routes (struct breakeven): compare's
 * table and JSON, breakeven's CSV and the report read the list. */
struct breakeven_pair {
	const struct route_ops *a, *b; /* the routes whose costs meet */
	const char *label;             /* compare's table: "owned vs rented" */
	const char *json_key;          /* compare's JSON: "owned_vs_rented_hours_per_month" */
	const char *note_key;          /* JSON key of the note beside it, NULL: none */
	int json_places;               /* JSON rounding */
	const char *csv_column;        /* breakeven's column */
	const char *csv_note_column;   /* breakeven's note column (after best_cost_per_mtok) */
	double csv_unit;               /* the CSV gives round_to(v, json_places) / csv_unit */
	int csv_places;
	/* The figure of job res (NAN: never), and a note why not (note, len
	 * bytes, "" when none). This function can't fail. */
	double (*figure)(const struct breakeven_pair *bp, const struct jobspec *spec,
	                 const struct job_result *res, char *note, size_t len);
	/* compare's table text of figure v with its note. */
	void (*text)(char *buf, size_t len, double v, const char *note);
};

/* The pairs: the shipped four, then those of registered routes. */
size_t breakeven_count(void);
const struct breakeven_pair *breakeven_at(size_t i);

/* A figure for route_register's pairs: the hours per month of the job's
 * work at which the two routes' cost lines cross (NAN when they do not
 * within HOURS_PER_MONTH), and its table text ("12.3 h/month", else the
 * note, else "never"). */
double breakeven_lines_cross(const struct breakeven_pair *bp, const struct jobspec *spec,
                             const struct job_result *res, char *note, size_t len);
void breakeven_hours_text(char *buf, size_t len, double v, const char *note);

/* Adds ops to the end of the list, with pairs[0..n_pairs) to the
 * break-even list. The list is process-wide, as provider_list is: call it
 * before planning, from one thread. Returns PLANNER_OK, or PLANNER_EINPUT
 * with *err set when the list or the pair list is full, the name is
 * taken, or a pair lacks a figure, its texts or a listed route (ops or
 * one before it). */
int route_register(const struct route_ops *ops, const struct breakeven_pair *pairs, size_t n_pairs,
                   char **err);

/* Drops every registered route and pair (a test's clean-up). */
void route_reset(void);

/* The schedule's fallback chain of job r: the routes without a fixed stock of GPUs
 * (every one but owned) that can run it, cheapest first, on equal cost
 * the lower tie rank (rented before api). The part of the job the owned
 * pools do not take goes down the chain: a route on GPUs takes what its
 * runs fit in the free allowed hours, any other route the whole rest in
 * one run. Returns how many, into chain. */
size_t route_fallbacks(const struct job_result *r, enum route chain[ROUTE_MAX]);

/* The cost line of the job's route k. This function can't fail. */
void route_cost_line(const struct job_result *j, size_t k, struct cost_line *out);

/* Where lines a and b cross, in hours per month, or NAN when they do not
 * cross in (0, max_hours] (parallel, or they cross outside). */
double route_lines_cross(const struct cost_line *a, const struct cost_line *b, double max_hours);

extern const struct route_ops route_api, route_rented, route_owned, route_serverless;

#endif
