/* route_owned.c — the owned route: GPUs on hand (power only) or bought
 * (the purchase over amortize_months, plus power and the costs: terms;
 * tco.h), and its break-even figures against renting (docs/estimation.md,
 * "Cost"). */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "plan_cache.h"
#include "route_price.h"
#include "util.h"

/* What an owned configuration's floor reads (struct size_bound). */
struct owned_floor {
	const struct jobspec *spec;
	const struct gpu_spec *gpu;
	int n;
	double capex_per_gpu, watts, idle_watts;
	bool on_hand;
};

static double owned_floor(const void *ctx, const struct workload_run *run)
{
	const struct owned_floor *f = ctx;
	return tco_owned_floor(f->spec, f->gpu, f->n * run->replicas, f->capex_per_gpu, f->watts,
	                       f->idle_watts, run->hours, f->on_hand);
}

/* A kind to own: up to max_sets sets of n GPUs of kind gpu, bought at
 * price each (0 on hand: owned: entry `entry`, else -1); `at` is its
 * place in price_owned's pass. */
struct owned_cand {
	const struct gpu_spec *gpu;
	int n, entry, max_sets;
	double price, watts, idle_watts;
	size_t at;
};

/* Considers owning candidate k (as many sets as the work needs); keeps it
 * when cheaper. */
static void consider_owned(const struct route_ctx *c, struct route_result *r,
                           const struct owned_cand *k, struct short_of *sh, size_t *best_at,
                           double *entry_best)
{
	const struct gpu_spec *g = k->gpu;
	int n = k->n, entry = k->entry;
	double capex_per_gpu = k->price, watts = k->watts, idle_watts = k->idle_watts;
	bool on_hand = entry >= 0;
	struct workload_run run;
	char why_short[256];
	/* Once one fits, a kind that cannot beat it is not sized to latency
	 * targets (struct size_bound). */
	struct owned_floor f = {c->spec, g, n, capex_per_gpu, watts, idle_watts, on_hand};
	struct size_bound bound = {
	    .floor = owned_floor, .ctx = &f, .best = r->feasible ? r->monthly_cost : INFINITY};
	if (!size_cache_size_within(c->sizes, c->shape, c->w, g, n, k->max_sets, &bound, &run,
	                            why_short, sizeof why_short)) {
		if (!run.beaten)
			route_note_short_at(sh, &run, why_short, k->at);
		return;
	}
	/* One set runs at most the job's hours (or a month's); more work
	 * needs more sets, each running run.hours. */
	int sets = run.replicas;
	struct tco_owned t;
	tco_owned_month(c->spec, g, n * sets, capex_per_gpu, watts, idle_watts, run.hours, on_hand,
	                &t);
	double cost = t.monthly;
	if (entry_best && cost < entry_best[entry + 1])
		entry_best[entry + 1] = cost;
	/* The cheaper, then on hand, then the first met: a total order, so
	 * the kinds may come in any order (route_floors). */
	if (r->feasible &&
	    (cost > r->monthly_cost || (cost == r->monthly_cost && (r->already_owned || !on_hand) &&
	                                !(r->already_owned == on_hand && k->at < *best_at))))
		return;
	*best_at = k->at;
	r->feasible = true;
	r->gpu = g;
	/* gpu_count x watts x gpu_hours is the energy used. */
	r->gpu_count = n * sets;
	route_set_nodes(r, c->w, g, n);
	r->replicas = sets;
	r->batch = run.batch;
	route_copy_latency(r, &run);
	r->work_hours = run.work_hours;
	r->already_owned = on_hand;
	r->owned_entry = entry;
	r->capex = t.capex;
	r->watts = watts;
	r->idle_watts = idle_watts;
	r->capex_per_gpu = capex_per_gpu;
	r->power_cost = t.power;
	r->tco = t;
	r->gpu_hours = run.hours;
	r->tokens_per_second = run.tps * sets;
	r->measured = run.measured;
	r->confidence = route_confidence(c->w, g, n);
	r->monthly_cost = cost; /* r->offer: once the best is known (price_owned) */
}

/* A kind of GPU that would hold the job with more of it than the spec has
 * (owned: count) or allows (buy: max_count): the reason to give when
 * nothing fits, as it is not that the engine's most are too few. */
struct too_few {
	const struct gpu_spec *gpu; /* NULL: none seen */
	int need;                   /* GPUs of the kind that would hold the job */
	int have;                   /* on hand, or the most buy: allows */
	bool on_hand;
};

/* Keeps the kind closest to enough: fewest missing, then fewest needed;
 * on a tie the first seen (owned before buy, in the spec's order). */
static void note_too_few(struct too_few *t, const struct gpu_spec *g, int need, int have,
                         bool on_hand)
{
	if (t->gpu && (need - have > t->need - t->have ||
	               (need - have == t->need - t->have && need >= t->need)))
		return;
	*t = (struct too_few){.gpu = g, .need = need, .have = have, .on_hand = on_hand};
}

static void why_too_few(struct route_result *r, const struct too_few *t, double gib)
{
	if (t->on_hand)
		route_why(r,
		          "needs %.1f GiB, which %dx %s would hold; %d %s on hand (owned: count)",
		          gib, t->need, t->gpu->name, t->have, t->have == 1 ? "is" : "are");
	else
		route_why(r,
		          "needs %.1f GiB, which %dx %s would hold; buy: allows at most %d "
		          "(max_count)",
		          gib, t->need, t->gpu->name, t->have);
}

/* The devices on hand a job cannot use that compare names: more owned:
 * entries than this are rare, and the text has room for about as many. */
#define OWNED_LEFT_OUT_MAX 8

/* What price_owned's pass over the GPUs it may own has seen so far. */
struct owned_scan {
	double max_vram;    /* the largest GPU memory considered */
	int considered;     /* kinds the job may use */
	struct short_of sh; /* fit in memory, short of the work */
	struct too_few few; /* fit on more GPUs than there are */
	/* The kinds on hand the job may not use, in the spec's order. */
	const struct gpu_spec *left_out[OWNED_LEFT_OUT_MAX];
	int n_left_out;
	size_t met;     /* kinds that fit, in the order met */
	size_t best_at; /* r's kind's place in that order */
	/* A job sized to latency targets: the kinds that fit, by floor. */
	bool by_floor;
	struct route_floors floors;
	struct owned_cand *cands;
	/* The cheapest month of each owned: entry (1 + its index) and of
	 * buying (0), for owned_alt_cost; NULL when not kept. */
	double *entry_best;
};

/* Why the job cannot use the owned g: a Mac or a CPU box runs llama.cpp
 * jobs only, another vendor's GPU needs accelerator: any. */
static void left_out_reason(char *buf, size_t len, const struct route_ctx *c,
                            const struct gpu_spec *g)
{
	if (g->kind != DEVICE_GPU)
		snprintf(buf, len,
		         "the owned %s runs llama.cpp jobs only and this job's engine is %s",
		         g->name, c->w->engine->name);
	else
		snprintf(buf, len, "the owned %s is %s, not NVIDIA", g->name, g->vendor);
}

/* Notes g, on hand and of no use to the job, once. */
static void note_left_out(struct owned_scan *s, const struct gpu_spec *g)
{
	for (int i = 0; i < s->n_left_out; i++)
		if (s->left_out[i] == g)
			return;
	if (s->n_left_out < OWNED_LEFT_OUT_MAX)
		s->left_out[s->n_left_out++] = g;
}

/* r->left_out from the kinds noted: the Macs and CPU boxes in one clause
 * ("the owned A and B run llama.cpp jobs only ..."), each other vendor's
 * GPU in its own. */
static void write_left_out(const struct route_ctx *c, struct route_result *r,
                           const struct owned_scan *s)
{
	char *out = r->left_out;
	size_t len = sizeof r->left_out, used = 0;
	int local = 0;
	for (int i = 0; i < s->n_left_out; i++)
		local += s->left_out[i]->kind != DEVICE_GPU;
	for (int i = 0, seen = 0; i < s->n_left_out && used < len; i++) {
		const struct gpu_spec *g = s->left_out[i];
		if (g->kind == DEVICE_GPU)
			continue;
		seen++;
		used += (size_t)snprintf(out + used, len - used, "%s%s",
		                         seen == 1       ? "the owned "
		                         : seen == local ? " and "
		                                         : ", ",
		                         g->name);
	}
	if (local && used < len)
		used += (size_t)snprintf(out + used, len - used,
		                         " run%s llama.cpp jobs only and this job's engine is %s",
		                         local == 1 ? "s" : "", c->w->engine->name);
	for (int i = 0; i < s->n_left_out && used < len; i++) {
		if (s->left_out[i]->kind != DEVICE_GPU)
			continue;
		char why[200];
		left_out_reason(why, sizeof why, c, s->left_out[i]);
		used += (size_t)snprintf(out + used, len - used, "%s%s", used ? "; " : "", why);
	}
}

/* The least owning candidate k can cost (route_floor_of); NAN when the
 * work does not fit it (noted in sh). */
static double kind_floor(const struct route_ctx *c, const struct owned_cand *k, struct short_of *sh)
{
	struct owned_floor f = {c->spec,  k->gpu,        k->n,         k->price,
	                        k->watts, k->idle_watts, k->entry >= 0};
	struct size_bound probe = {.floor = owned_floor, .ctx = &f};
	struct workload_run run;
	char why_short[256];
	double floor =
	    route_floor_of(c, k->gpu, k->n, k->max_sets, &probe, &run, why_short, sizeof why_short);
	if (isnan(floor))
		route_note_short_at(sh, &run, why_short, k->at);
	return floor;
}

/* Considers owning GPUs of kind g, `stock` of them at most (on hand:
 * owned: entry `entry`, else -1 for the most buy: allows), each bought at
 * price (0 on hand). */
static void consider_kind(const struct route_ctx *c, struct route_result *r, struct owned_scan *s,
                          const struct gpu_spec *g, int stock, double price, double watts,
                          double idle_watts, int entry)
{
	bool on_hand = entry >= 0;
	if (!workload_gpu_allowed(c->w, g)) {
		if (on_hand)
			note_left_out(s, g);
		return;
	}
	s->considered++;
	if (g->vram_gib > s->max_vram)
		s->max_vram = g->vram_gib;
	int n = workload_min_gpus(c->w, g);
	/* Past one node: a job no node holds, or whose parallel: names more
	 * GPUs than a node has, on hosts of the GPU's node size. */
	if (g->gpus_per_node > 0 &&
	    (n == 0 || parallel_gpus(&c->w->shape.parallel) > g->gpus_per_node))
		n = workload_nodes_min_gpus(c->w, g, g->gpus_per_node);
	if (n > 0 && n <= stock) {
		struct owned_cand k = {.gpu = g,
		                       .n = n,
		                       .entry = entry,
		                       .max_sets = stock / n,
		                       .price = price,
		                       .watts = watts,
		                       .idle_watts = idle_watts,
		                       .at = s->met++};
		if (s->by_floor) {
			s->cands[k.at] = k;
			route_floors_add(&s->floors, k.at, kind_floor(c, &k, &s->sh));
		} else {
			consider_owned(c, r, &k, &s->sh, &s->best_at, s->entry_best);
		}
	} else if (n > 0) {
		note_too_few(&s->few, g, n, stock, on_hand);
	}
}

/* Sizes the kinds of a job with latency targets from the lowest floor up,
 * until one cannot beat the best (route_floors). */
static void consider_by_floor(const struct route_ctx *c, struct route_result *r,
                              struct owned_scan *s)
{
	size_t n = route_floors_sort(&s->floors);
	for (size_t m = 0; m < n; m++) {
		const struct route_floor *f = &s->floors.at[m];
		if (r->feasible && size_floor_above(f->floor, r->monthly_cost))
			break;
		consider_owned(c, r, &s->cands[f->at], &s->sh, &s->best_at, NULL);
	}
	route_floors_free(&s->floors);
	free(s->cands);
}

/* Why the owned g, the only kind on hand, cannot run the job, and what to
 * do about it. */
static void why_left_out(const struct route_ctx *c, struct route_result *r,
                         const struct gpu_spec *g)
{
	char why[200];
	left_out_reason(why, sizeof why, c, g);
	if (g->kind != DEVICE_GPU)
		route_why(r,
		          "%s; give it engine: llama.cpp, or list a GPU under owned: or buy:", why);
	else
		route_why(r, "%s; add accelerator: any to the job if its software runs there", why);
}

static int price_owned(const struct route_ctx *c, struct route_result *r, char **err)
{
	(void)err;
	const struct job *j = c->job;
	const struct jobspec *spec = c->spec;
	const struct refdata *ref = c->ref;
	struct owned_scan s = {0};
	size_t kinds = spec->n_owned + (spec->has_buy ? spec->n_buy : ref->n_gpus);
	s.by_floor = route_floors_init(&s.floors, c, kinds);
	if (s.by_floor && !(s.cands = malloc(kinds * sizeof *s.cands))) {
		route_floors_free(&s.floors);
		s.by_floor = false;
	}
	/* Without pruning or a carbon price, the month without the entry on
	 * hand that wins is the cheapest of the other entries' (owned_alt_cost). */
	if (spec->n_owned && !j->slo.given && !(spec->costs.carbon_price_per_tonne > 0) &&
	    (s.entry_best = malloc((spec->n_owned + 1) * sizeof *s.entry_best)))
		for (size_t i = 0; i <= spec->n_owned; i++)
			s.entry_best[i] = INFINITY;
	for (size_t i = 0; i < spec->n_owned; i++) {
		const struct owned_gpu *o = &spec->owned[i];
		/* The shared pass (plan_share.c) leaves a job what others have
		 * not taken. */
		int stock = c->owned_free ? c->owned_free[i] : o->count;
		consider_kind(c, r, &s, o->gpu, stock, 0, o->watts, o->idle_watts, (int)i);
	}
	for (size_t i = 0; spec->has_buy && i < spec->n_buy; i++) {
		const struct buy_option *b = &spec->buy[i];
		consider_kind(c, r, &s, b->gpu, b->max_count, b->price, b->watts, b->idle_watts,
		              -1);
	}
	/* Without buy: every GPU with a price and a power figure may be bought. */
	for (size_t i = 0; !spec->has_buy && i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		/* Macs and CPU boxes are bought when a buy: entry names them. */
		if (g->price_usd > 0 && g->watts > 0 && g->kind == DEVICE_GPU)
			consider_kind(c, r, &s, g, WORKLOAD_MAX_GPUS,
			              g->price_usd * spec->usd_to_currency, g->watts, 0, -1);
	}
	if (s.by_floor)
		consider_by_floor(c, r, &s);
	r->left_out[0] = '\0';
	/* With no other device, the reason is the route's whole answer. */
	if (r->feasible || s.considered > 0 || s.n_left_out > 1)
		write_left_out(c, r, &s);
	r->owned_alt_cost = NAN;
	if (r->feasible && r->already_owned && s.entry_best) {
		r->owned_alt_cost = INFINITY;
		for (size_t i = 0; i <= spec->n_owned; i++)
			if ((int)i != r->owned_entry + 1 && s.entry_best[i] < r->owned_alt_cost)
				r->owned_alt_cost = s.entry_best[i];
	}
	free(s.entry_best);
	if (r->feasible) {
		snprintf(r->offer, sizeof r->offer, "%s %dx %s", r->already_owned ? "owned" : "buy",
		         r->gpu_count, r->gpu->name);
		return PLANNER_OK;
	}
	if (s.sh.any)
		route_why_short(r, &s.sh);
	else if (s.considered == 0 && s.n_left_out == 1)
		why_left_out(c, r, s.left_out[0]);
	else if (s.considered == 0 && s.n_left_out)
		route_why(r,
		          "no GPU on hand or to buy runs this job; list one under owned: or buy:");
	else if (s.considered == 0)
		route_why(r, "no GPU to own or buy%s; list one under owned: or buy:",
		          j->any_accelerator ? "" : " (NVIDIA only)");
	else if (s.few.gpu)
		why_too_few(r, &s.few, c->w->need.total_gib);
	else
		route_why(
		    r,
		    "needs %.1f GiB; the largest GPU on hand or to buy has %.0f GiB, and %d of "
		    "them are not enough",
		    c->w->need.total_gib, s.max_vram, c->w->engine->max_tp);
	return PLANNER_OK;
}

/* GPUs on hand were not bought: with no purchase there is no hour at
 * which owning starts to beat renting and nothing to pay back, only power
 * (and the costs: upkeep), which compare's cost already holds. A figure
 * would be 0.0, which reads like a fault; the note says why there is none. */
static bool own_on_hand(const struct route_result *own, char *note, size_t len)
{
	if (!own->feasible || !own->already_owned)
		return false;
	snprintf(note, len, "%s", BREAKEVEN_ALREADY_OWNED);
	return true;
}

/* Compare equal work: when the hours come from tokens, the owned GPUs
 * may need more or fewer hours than the rented ones, so an owned hour
 * replaces rent_hours / own_hours rented hours. With given hours the
 * ratio is 1 and this is docs/estimation.md's H*. */
double breakeven_owned_rented_hours(const struct breakeven_pair *bp, const struct jobspec *spec,
                                    const struct job_result *res, char *note, size_t len)
{
	(void)spec;
	const struct route_result *own = &res->routes[route_index(bp->a)];
	const struct route_result *rent = &res->routes[route_index(bp->b)];
	if (len)
		note[0] = '\0';
	if (own_on_hand(own, note, len))
		return NAN;
	if (!rent->feasible || !own->feasible || !(own->gpu_hours > 0))
		return NAN;
	if (rent->term[0]) {
		/* Neither month grows with renting's hours: no hour to cross at. */
		snprintf(note, len, "rented on a %s commitment", rent->term);
		return NAN;
	}
	double power_per_hour = own->tco.per_hour;
	double rent_per_own_hour =
	    rent->price_per_hour * rent->replicas * rent->gpu_hours / own->gpu_hours +
	    rent->setup_cost / own->gpu_hours;
	double margin = rent_per_own_hour - power_per_hour;
	if (margin > 0) {
		double h = own->tco.fixed / margin;
		if (h <= HOURS_PER_MONTH)
			return h;
	}
	return NAN;
}

/* A payback past amortize_months, the hardware's life in the plan, does not
 * happen in it. */
double breakeven_owned_payback(const struct breakeven_pair *bp, const struct jobspec *spec,
                               const struct job_result *res, char *note, size_t len)
{
	const struct route_result *own = &res->routes[route_index(bp->a)];
	const struct route_result *rent = &res->routes[route_index(bp->b)];
	if (len)
		note[0] = '\0';
	if (own_on_hand(own, note, len))
		return NAN;
	if (!rent->feasible || !own->feasible || !(own->gpu_hours > 0))
		return NAN;
	double saving = rent->monthly_cost - own->power_cost - own->tco.maintenance;
	double months = saving > 0 ? own->capex / saving : NAN;
	if (months <= spec->amortize_months)
		return months;
	if (isfinite(months))
		snprintf(note, len, "not within %.0f months", spec->amortize_months);
	else
		snprintf(note, len, "never");
	return NAN;
}

/* Capital, upkeep and the always-on power are fixed (tco.h); at no use
 * the slope is the running cost of an hour. */
static void owned_cost_line(const struct route_result *r, double use, struct cost_line *l)
{
	l->fixed = r->tco.fixed;
	l->slope = use > 0 ? (r->monthly_cost - r->tco.fixed) / use : r->tco.per_hour;
}

static void owned_json(cJSON *o, const struct plan *p, const struct route_result *r)
{
	(void)p;
	cJSON_AddStringToObject(o, "gpu", r->gpu->name);
	cJSON_AddNumberToObject(o, "gpu_count", r->gpu_count);
	route_json_nodes(o, r);
	cJSON_AddBoolToObject(o, "already_owned", r->already_owned);
	cJSON_AddNumberToObject(o, "capex", round_to(r->capex, 2));
	cJSON_AddNumberToObject(o, "watts", round_to(r->watts, 1));
	cJSON_AddNumberToObject(o, "power_cost", round_to(r->power_cost, 2));
	/* The terms of costs: (tco.h): monthly_cost = capital_cost +
	 * power_cost + maintenance_cost. */
	cJSON_AddNumberToObject(o, "hosts", r->tco.hosts);
	cJSON_AddNumberToObject(o, "capital_cost", round_to(r->tco.capital, 2));
	cJSON_AddNumberToObject(o, "maintenance_cost", round_to(r->tco.maintenance, 2));
	cJSON_AddNumberToObject(o, "resale_value", round_to(r->tco.resale, 2));
	cJSON_AddNumberToObject(o, "gpu_hours", round_to(r->gpu_hours, 4));
	route_json_speed(o, r);
	cJSON_AddStringToObject(o, "confidence", confidence_name(r->confidence));
}

/* "1650 EUR (card 450 + host 1200)": a purchase, and what of it is the
 * hosts the GPUs go in; "450 EUR" when the spec prices no host. */
static char *capex_text(char *buf, size_t len, const struct route_result *r, const char *cur)
{
	double host = r->tco.host_capex;
	if (host <= 0)
		snprintf(buf, len, "%.0f %s", r->capex, cur);
	else
		snprintf(buf, len, "%.0f %s (card%s %.0f + host%s %.0f)", r->capex, cur,
		         r->gpu_count > 1 ? "s" : "", r->capex - host, r->tco.hosts > 1 ? "s" : "",
		         host);
	return buf;
}

static int owned_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
                        bool costs)
{
	char reps[48], paid[96];
	int n;
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->already_owned)
		n = snprintf(buf, len, "%s %s on hand, power %.2f for %.1f h, %s%.0f tok/s", reps,
		             r->gpu->name, r->power_cost, r->gpu_hours, route_speed_mark(r),
		             r->tokens_per_second);
	else {
		n = snprintf(buf, len,
		             "buy %s %s for %s, amortised + power %.2f for %.1f h, "
		             "%s%.0f tok/s",
		             reps, r->gpu->name, capex_text(paid, sizeof paid, r, cur),
		             r->power_cost, r->gpu_hours, route_speed_mark(r), r->tokens_per_second);
	}
	n = route_speed_text(buf, len, n, r);
	/* With a costs: block, the month's terms (tco.h). */
	if (costs && n > 0 && (size_t)n < len)
		n += snprintf(buf + n, len - (size_t)n,
		              " = capital %.2f + power %.2f + upkeep %.2f a month", r->tco.capital,
		              r->power_cost, r->tco.maintenance);
	return n;
}

static void owned_report_detail(char *buf, size_t len, const struct route_result *r,
                                const char *cur)
{
	char reps[48], paid[96];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->already_owned)
		snprintf(buf, len, "%s %s on hand: power %.2f %s for %.1f h, %.0f output tokens/s",
		         reps, r->gpu->name, r->power_cost, cur, r->gpu_hours,
		         r->tokens_per_second);
	else
		snprintf(buf, len,
		         "buy %s %s for %s: amortised + power %.2f %s for %.1f h, "
		         "%.0f output tokens/s",
		         reps, r->gpu->name, capex_text(paid, sizeof paid, r, cur), r->power_cost,
		         cur, r->gpu_hours, r->tokens_per_second);
}

/* On hand, or bought with its payback against renting. */
static void owned_summary(char *buf, size_t len, const struct job_result *j, const char *cur)
{
	const struct route_result *r = &j->routes[j->best];
	double months = j->be.value[BREAKEVEN_OWNED_PAYBACK];
	const char *note = j->be.note[BREAKEVEN_OWNED_PAYBACK];
	char reps[48], paid[96];
	route_gpu_count_text(reps, sizeof reps, r);
	if (r->already_owned)
		snprintf(buf, len, "run on the %s %s on hand", reps, r->gpu->name);
	else if (isfinite(months))
		snprintf(buf, len, "buy %s %s for %s; pays back in %.1f months", reps, r->gpu->name,
		         capex_text(paid, sizeof paid, r, cur), months);
	else if (note[0])
		snprintf(buf, len, "buy %s %s for %s; pays back: %s", reps, r->gpu->name,
		         capex_text(paid, sizeof paid, r, cur), note);
	else
		snprintf(buf, len, "buy %s %s for %s", reps, r->gpu->name,
		         capex_text(paid, sizeof paid, r, cur));
}

static void owned_decision(char *buf, size_t len, const struct route_result *r)
{
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	snprintf(buf, len, "%s %s %s", r->already_owned ? "own" : "buy", reps, r->gpu->name);
}

static const enum route_field owned_head[] = {ROUTE_FIELD_MONTHLY_COST, ROUTE_FIELD_GPU,
                                              ROUTE_FIELD_GPU_COUNT,    ROUTE_FIELD_ALREADY_OWNED,
                                              ROUTE_FIELD_CAPEX,        ROUTE_FIELD_END};
static const enum route_field owned_tail[] = {ROUTE_FIELD_REPLICAS, ROUTE_FIELD_END};

const struct route_ops route_owned = {
    .name = "owned",
    .tie_rank = 0,
    .flags = ROUTE_HAS_CAPACITY | ROUTE_HAS_CAPEX | ROUTE_ON_GPUS,
    .colour = "#009e73",
    .price = price_owned,
    .cost_line = owned_cost_line,
    .json = owned_json,
    .detail = owned_detail,
    .report_detail = owned_report_detail,
    .summary = owned_summary,
    .decision = owned_decision,
    .csv_head = owned_head,
    .csv_tail = owned_tail,
};
