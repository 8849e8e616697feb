/* plan.h — the cost routes (route.h) for each job, the cheapest, and the
 * break-even points (docs/estimation.md, "Cost"). Pure computation over a
 * job spec, the reference data and the offers/API prices in the store;
 * printing is the CLI's job (cmd_compare.c). All money is in the spec's
 * currency. */
#ifndef PLANNER_PLAN_H
#define PLANNER_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "jobspec.h"
#include "refdata.h"
#include "route.h"
#include "confidence.h"
#include "store.h"
#include "tco.h"
#include "workload.h"

/* The parts of a serverless bill (route_serverless.c), in worker-hours
 * a month unless said. */
struct serverless_terms {
	double busy_hours;     /* the work: replicas x the hours each runs */
	double idle_hours;     /* waiting for the next request, until scale-down */
	double starts;         /* cold starts a month */
	double cold_start_s;   /* billed seconds of one start */
	double idle_timeout_s; /* the wait before scale-down */
	bool always_on;        /* an active worker: billed every hour of the month */
};

struct route_result {
	enum route route;
	bool feasible;
	char why[256];           /* when infeasible: what to do about it */
	/* owned: the devices on hand the job cannot use and why ("" none),
	 * named whether or not another device runs it. */
	char left_out[256];
	char provider[64];       /* api, rented */
	char offer[160];         /* api model / rented offer id / quote */
	char region[64];         /* rented */
	char fetched_at[24];     /* api, rented: the date of the price row ("" a quote) */
	const struct gpu_spec *gpu; /* rented, owned */
	int gpu_count;           /* every GPU of the route: replicas x one configuration's */
	/* Past one node (docs/estimation.md, "Past one node"): the nodes one
	 * configuration spans (0: one), their GPUs each, the layout over
	 * them and, rented, the fabric that joins the instances. */
	int nodes;
	int gpus_per_node;
	struct parallel layout;
	char fabric[16];
	bool spot;               /* rented at a spot price */
	bool already_owned;      /* owned route uses GPUs on hand (capex sunk) */
	int owned_entry;         /* already_owned: the index of its owned: entry */
	/* already_owned: the owned route's month without that entry (INFINITY
	 * when nothing else runs the job), from the same pass; NAN when the
	 * pass could not tell (latency targets prune it, carbon is priced):
	 * plan_share.c prices the route again then. */
	double owned_alt_cost;
	double price_per_hour;   /* rented: instance-hour, currency */
	double input_per_mtok;   /* api: currency per million input tokens */
	double output_per_mtok;  /* api: currency per million output tokens */
	double cached_share;     /* api: request.cached_share the cost used; 0 none */
	double cache_read_per_mtok;  /* api: currency per million cached input tokens
	                              * (the input price where the feed lists none) */
	double cache_write_per_mtok; /* api: per million input tokens written to the
	                              * cache; 0 when the feed lists no surcharge */
	char price_currency[4];      /* api: the currency the host publishes in */
	double capex;            /* owned: purchase, currency (0 if on hand) */
	double watts;            /* owned: per GPU */
	double idle_watts;       /* owned: per GPU between runs (plan_mix.c prices fewer) */
	double capex_per_gpu;    /* owned: the purchase of one GPU; 0 on hand */
	double power_cost;       /* owned: electricity part of monthly_cost */
	double gpu_hours;        /* hours each replica runs per month */
	double tokens_per_second;/* output (or training) tokens/s, all replicas together */
	const char *measured;    /* the result file that speed comes from (measurements:);
	                          * NULL = estimated */
	double monthly_cost;     /* currency per month */
	/* Capacity (docs/estimation.md, "Capacity"); rented, owned. */
	int replicas;            /* copies of the configuration running together */
	int batch;               /* sequences one replica runs at once */
	double ttft_ms;          /* slo: time to first token at its percentile (slo.c) */
	double tpot_ms;          /* slo: time per output token at its percentile */
	bool slo_sized;          /* sized to the job's slo: (ttft_ms, tpot_ms set) */
	double work_hours;       /* hours one replica needs for the month's tokens */
	double cost_per_mtok;    /* monthly_cost per million tokens; NAN without tokens */
	struct tco_owned tco;    /* owned: the month's terms, monthly_cost = tco.monthly (tco.h) */
	double setup_cost;       /* rented: costs.setup_hours of its runs, in monthly_cost */
	/* rented on a commitment (offer_terms, route_rented.c): its term
	 * ("1y", "3y"; "" on demand), how it is paid ("All Upfront", ""), the
	 * upfront of all its instances in currency; monthly_cost is then the
	 * fixed month (price_per_hour, the effective rate, x COMMIT_HOURS_PER_MONTH
	 * x instances) whatever the job's hours. */
	char term[4];
	char term_option[32];
	double upfront;
	double on_demand_cost;   /* on a commitment: the month of the cheapest on-demand
	                          * rental or quote it replaced; 0 when there was none */
	enum confidence confidence; /* rented, owned: of tokens_per_second (confidence.h) */
	struct serverless_terms sls; /* serverless: what its bill is made of */
	/* The month's energy and CO2e (carbon.h), set for every priced route. */
	char country[4];         /* rented: the offer's country; "" unknown */
	double energy_kwh;       /* with the PUE that applies; NAN: not known (api) */
	double grid_g_per_kwh;   /* the grid's CO2e per kWh used; NAN: not known */
	double co2_kg;           /* energy_kwh x grid_g_per_kwh / 1000; NAN: not known */
	double carbon_cost;      /* costs.carbon_price_per_tonne x co2, in monthly_cost */
	const char *co2_source;  /* the grid figure's source; NULL when not known */
	const char *co2_note;    /* why co2_kg is not known; NULL when it is */
};

/* The break-even figures of a job, one per pair of breakeven_at(i)
 * (route.h); NAN means the curves never cross ("never" in tables, null in
 * JSON). The shipped pairs come first: */
enum breakeven_builtin {
	BREAKEVEN_OWNED_VS_RENTED, /* H* = (capex/months) / (price − kW·PUE·elec), hours */
	BREAKEVEN_OWNED_PAYBACK,   /* capex / (rented − owned power) per month */
	BREAKEVEN_API_VS_RENTED,   /* tokens/month where the API bill equals rented */
	BREAKEVEN_SERVERLESS_VS_RENTED, /* hours/month where the cost lines cross */
	BREAKEVEN_BUILTIN
};

struct breakeven {
	double value[BREAKEVEN_MAX];
	/* Why value[i] is NAN when both routes run the job; for the payback:
	 * "not within 36 months" (beyond amortize_months, the hardware's life
	 * in the plan) or "never" (owning costs more to run than renting); ""
	 * when it is a figure or a route is missing. */
	char note[BREAKEVEN_MAX][64];
};

/* The note of both owned vs rented figures when the owned route runs on
 * GPUs on hand: nothing was bought, so nothing pays back or breaks even;
 * the figures are NAN (null, an empty cell), never 0. */
#define BREAKEVEN_ALREADY_OWNED "already owned: power only"

/* Whether be's figures are those of GPUs on hand (a note is
 * BREAKEVEN_ALREADY_OWNED); route.c. */
bool breakeven_already_owned(const struct breakeven *be);

/* The owned payback as text: "12.3 months", "not within 36 months",
 * "already owned: power only", "never" (also when a route is missing).
 * Returns buf. */
char *plan_payback_text(const struct breakeven *be, char *buf, size_t len);

struct route_mix;

struct job_result {
	const struct job *job;
	struct workload work;          /* the job as the pricing rules see it */
	double vram_gib;               /* work.need.total_gib: on one GPU */
	double gpu_hours_per_month;    /* given, or of the best GPU route */
	struct route_result routes[ROUTE_MAX]; /* by route index (route.h) */
	int best;                      /* index into routes; -1 when none feasible */
	struct breakeven be;
	/* The traffic-shape mix of its routes (plan_mix.h), computed once the
	 * plan's routes are final; NULL when none was found. */
	const struct route_mix *mix;
};

/* A job the shared pass (plan_share.c) moved off GPUs on hand: the
 * jobs that save more per GPU-hour on them took what it needed. */
struct capacity_move {
	size_t job;                 /* index into plan.jobs */
	const struct gpu_spec *gpu; /* the kind on hand it was priced on alone */
	int entry;                  /* that owned: entry's index */
	int on_hand;                /* the entry's count */
	enum route from_route;      /* where it was alone: owned, on hand */
	double from_cost;           /* its monthly cost there */
	int to_route;               /* where it went (route index); -1: no route is left */
	double to_cost;             /* its monthly cost there (NAN with no route) */
	int gpus_needed, gpus_left; /* GPUs at once it needs, and those not taken before it */
	double hours_needed, hours_left; /* GPU-hours a month (count x 744 on hand) */
	char from_what[128], to_what[128]; /* the routes' decisions: "own 1x RTX 4090", "rent …" */
	char reason[200];           /* "needs 8 A100 80GB at once; 6 of the 16 on hand are left …" */
};

/* How plan_compare_opts prices. */
struct plan_opts {
	/* Share the GPUs on hand across the jobs (compare, breakeven and
	 * report by default; --each-alone turns it off): jobs that would run
	 * on them together never need more of them at once, or more
	 * GPU-hours, than are owned. false: each job priced alone, as if it
	 * had every GPU on hand. */
	bool share_owned;
};

struct offer_group;

struct plan {
	struct route_mix *mixes; /* n_jobs, job_result.mix points in; NULL: no job has a shape */
	/* The offer index's groups, kept: a rented CPU route's gpu points at
	 * its group's device (the VM's share of the socket). */
	struct offer_group *offer_groups;
	char currency[8];
	char prices_as_of[24];
	bool snapshot_only;            /* every provider holding rows holds the snapshot's */
	/* Where each provider's rows come from (issue 12: one failed refresh
	 * labelled the snapshot "live"): only providers holding rows count. */
	struct plan_source {
		char name[32];
		bool live;                 /* rows from a refresh; false: the bundled snapshot */
		char as_of[24];            /* live: the last good refresh */
	} *sources;
	size_t n_sources;
	const char *prices_source;     /* "live", "snapshot" or "mixed" (static) */
	char snapshot_dates[1024];     /* "aws 2026-06-30, openrouter 2025-10-03" (snapshot rows):
	                               * about 25 bytes a provider, room for 40 */
	/* "openrouter 2025-10-03, runpod 2026-03-10": the bundled snapshot's
	 * rows a route is priced with that are dated more than
	 * SNAPSHOT_STALE_DAYS (plan.c) before the snapshot's own as_of, never
	 * today's clock, so the note does not drift day to day; "" none. */
	char old_rows[512];
	char old_rows_as_of[11];       /* that as_of, "YYYY-MM-DD" */
	char **stale;                  /* providers whose last refresh failed */
	size_t n_stale;
	struct job_result *jobs;
	size_t n_jobs;
	/* The exchange rates prices were converted with, for compare's footer:
	 * "1 USD = 0.8887 EUR, ECB 2025-05-09"; "" when none was needed. */
	char fx_note[256];
	size_t fx_dropped;             /* offers left out: no rate for their currency */
	bool owned_shared;             /* the GPUs on hand were shared (plan_opts, a spec with owned:) */
	struct capacity_move *moves;   /* the jobs the shared pass moved, in the order it moved them */
	size_t n_moves;
	/* The commitments the spec's commit: lets a plan weigh, priced in its
	 * currency (route_rented.c; fleet's shared commitments), n_terms. */
	struct offer_term *terms;
	size_t n_terms;
};

/* Prices every job of spec on the three routes, each job alone. Returns
 * PLANNER_OK and a plan (free with plan_free), or an error code with *err
 * set. */
int plan_compare(const struct jobspec *spec, const struct refdata *ref, struct store *st,
		 struct plan **out, char **err);
/* The same under opts (NULL: as plan_compare): with share_owned, after
 * each job is priced alone the GPUs on hand are shared (plan_share.c,
 * docs/design.md "Owned capacity in compare"), and the jobs moved are
 * p->moves. */
int plan_compare_opts(const struct jobspec *spec, const struct refdata *ref, struct store *st,
		      const struct plan_opts *opts, struct plan **out, char **err);
void plan_free(struct plan *p);

/* "2x" for one configuration of two GPUs, "3 replicas of 2x" when the route
 * runs several copies; the GPU name follows it in every output. */
void route_gpu_count_text(char *buf, size_t len, const struct route_result *r);
/* The confidence of w's speed on n GPUs of g (one configuration; replicas
 * add none), by confidence_of. */
enum confidence route_confidence(const struct workload *w, const struct gpu_spec *g, int n);
/* "~" before a speed the calibration set has not confirmed, else "". */
const char *route_speed_mark(const struct route_result *r);
/* Whether a GPU route of some job of p shows a `~` speed: the reports then
 * print CONFIDENCE_LEGEND. */
bool plan_speed_marked(const struct plan *p);
/* Where the rows of `provider` come from: "live", "snapshot", or "quote"
 * for a provider the store does not know (a spec's quotes:). */
const char *plan_provider_source(const struct plan *p, const char *provider);
/* The providers still on the bundled snapshot, ", "-joined into buf (len
 * bytes, cut to fit); "" when none. Returns buf. */
char *plan_snapshot_names(const struct plan *p, char *buf, size_t len);

/* The plan compare prints (plan_total.c): each job on its best route,
 * priced one by one as compare prices it, summed. The figure compare's
 * summary line states and fleet and the report quote for that plan, so
 * that one plan has one figure (issue 26). */
struct plan_total {
	double monthly;                /* every job's best route, summed */
	double by_route[ROUTE_MAX];    /* of which on each route */
	size_t jobs_on[ROUTE_MAX];     /* jobs whose best route it is */
	double capex;                  /* the purchases the best routes make */
	double saving;                 /* what those that pay back save a month
	                                * against renting (capex / payback each) */
	size_t late;                   /* purchases that do not pay back within
	                                * amortize_months */
	size_t unrunnable;             /* jobs no route can run */
};

/* Adds up p into *t. This function can't fail. */
void plan_total(const struct plan *p, struct plan_total *t);
/* Months until t's purchases pay back against renting (capex over what
 * they save a month); NAN when nothing is bought or nothing saved. */
double plan_total_payback(const struct plan_total *t);

/* Prices offers o[0..*n) in the spec's currency, in place, as compare
 * does: through USD with the spec's fx, else the reference rates; leaves
 * out those with no rate (p->fx_dropped) and notes the reference rates
 * used in p->fx_note. The order is kept (fx_sort_offers re-sorts). This
 * function can't fail. */
void plan_convert_offers(const struct jobspec *spec, const struct refdata *ref, struct plan *p,
			 struct offer *o, size_t *n);

#endif
