/* fleet.c — the fleet decision (see fleet.h): a search over purchase
 * counts whose every candidate is the month scheduled on the GPUs on hand
 * plus the ones bought. */
#include "fleet.h"

#include "plan_mix.h"
#include "tco.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "workload.h"



static double job_floor(const struct jobspec *spec, const struct workload *w,
                        const struct gpu_spec *gpu, double watts, int count, double fixed_per_gpu,
                        int n_slots);

/* ---- the abstract search ---- */

struct memo {
	const struct fleet_space *s;
	fleet_eval_fn eval; /* s->eval, or s->quick */
	int *counts;       /* n × n_types */
	double *cost;
	size_t n, cap;
	size_t budget;     /* most purchases the local search evaluates */
};

/* The monthly cost of counts, evaluated once per purchase. */
static int cost_of(struct memo *m, const int *counts, double *cost, char **err)
{
	size_t k = m->s->n_types;
	for (size_t i = 0; i < m->n; i++)
		if (!memcmp(&m->counts[i * k], counts, k * sizeof *counts)) {
			*cost = m->cost[i];
			return PLANNER_OK;
		}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 64;
		int *c = realloc(m->counts, cap * (k ? k : 1) * sizeof *c);
		if (c)
			m->counts = c;
		double *v = c ? realloc(m->cost, cap * sizeof *v) : NULL;
		if (!v)
			return set_err(err, PLANNER_ESYS, "out of memory");
		m->cost = v;
		m->cap = cap;
	}
	int rc = m->eval(m->s->ctx, counts, cost, err);
	if (rc)
		return rc;
	memcpy(&m->counts[m->n * k], counts, k * sizeof *counts);
	m->cost[m->n++] = *cost;
	return PLANNER_OK;
}

/* Keeps counts when it costs less than the best so far. */
static void keep(struct fleet_found *out, size_t k, const int *counts, double cost)
{
	if (cost < out->monthly - FLEET_COST_EPS) {
		memcpy(out->counts, counts, k * sizeof *counts);
		out->monthly = cost;
	}
}

static int enumerate(struct memo *m, struct fleet_found *out, char **err)
{
	const struct fleet_space *s = m->s;
	int c[FLEET_MAX_TYPES] = {0};
	for (;;) {
		double cost;
		int rc = cost_of(m, c, &cost, err);
		if (rc)
			return rc;
		keep(out, s->n_types, c, cost);
		size_t i = 0;
		while (i < s->n_types && c[i] == s->max_count[i])
			c[i++] = 0;
		if (i == s->n_types)
			return PLANNER_OK;
		c[i]++;
	}
}

/* Tries one neighbour of cur; keeps it in best/best_cost when cheaper. */
static int try_move(struct memo *m, const int *cur, int add, int drop, int n, int *best,
		    double *best_cost, char **err)
{
	size_t k = m->s->n_types;
	int c[FLEET_MAX_TYPES];
	memcpy(c, cur, k * sizeof *c);
	if (add >= 0 && (c[add] += n) > m->s->max_count[add])
		return PLANNER_OK;
	if (drop >= 0 && (c[drop] -= n) < 0)
		return PLANNER_OK;
	double cost;
	int rc = cost_of(m, c, &cost, err);
	if (rc == PLANNER_OK && cost < *best_cost - FLEET_COST_EPS) {
		memcpy(best, c, k * sizeof *c);
		*best_cost = cost;
	}
	return rc;
}

/* GPUs a move adds or removes at once: one, or a whole tensor-parallel
 * set (a job on 2, 4 or 8 GPUs gains nothing from one more), the sizes
 * engines.c's max_tp allows. */
const int fleet_move_sizes[4] = {1, 2, 4, 8};

/* Whether moves of fleet_move_sizes[n] GPUs of type t are worth trying
 * (t < 0: no type, always). */
static bool sized(const struct fleet_space *s, int t, int n)
{
	return t < 0 || !s->sizes[t] || (s->sizes[t] >> n & 1);
}

/* The best neighbour of cur into next/next_cost (left alone when none is
 * cheaper): with swaps false, move_sizes GPUs more or fewer of a type;
 * with swaps true, as many of a type for as many of another. */
static int best_move(struct memo *m, const int *cur, bool swaps, int *next, double *next_cost,
		     char **err)
{
	int k = (int)m->s->n_types, rc = PLANNER_OK;
	for (int n = 0; n < 4; n++)
		for (int a = -1; a < k && rc == PLANNER_OK; a++)
			for (int d = -1; d < k && rc == PLANNER_OK; d++)
				if (a != d && (a >= 0 && d >= 0) == swaps && sized(m->s, a, n) &&
				    sized(m->s, d, n) && m->n < m->budget)
					rc = try_move(m, cur, a, d, fleet_move_sizes[n], next,
						      next_cost, err);
	return rc;
}

/* Best-improvement descent from start: add one GPU of a type or remove
 * one while that helps, then swap one of a type for one of another, and
 * again, until no move helps. */
static int descend(struct memo *m, const int *start, struct fleet_found *out, char **err)
{
	size_t k = m->s->n_types;
	int cur[FLEET_MAX_TYPES];
	memcpy(cur, start, k * sizeof *cur);
	double cur_cost;
	int rc = cost_of(m, cur, &cur_cost, err);
	for (bool moved = true; rc == PLANNER_OK && moved;) {
		int next[FLEET_MAX_TYPES];
		double next_cost = cur_cost;
		rc = best_move(m, cur, false, next, &next_cost, err);
		if (rc == PLANNER_OK && !(next_cost < cur_cost))
			rc = best_move(m, cur, true, next, &next_cost, err);
		moved = next_cost < cur_cost;
		if (moved) {
			memcpy(cur, next, k * sizeof *cur);
			cur_cost = next_cost;
		}
	}
	if (rc == PLANNER_OK)
		keep(out, k, cur, cur_cost);
	return rc;
}

/* The local search's three descents: from s->start, from buying nothing
 * and from buying every GPU allowed, while m's budget lasts. */
static int descents(struct memo *m, struct fleet_found *out, char **err)
{
	const struct fleet_space *s = m->s;
	int zero[FLEET_MAX_TYPES] = {0}, all[FLEET_MAX_TYPES];
	memcpy(all, s->max_count, sizeof all);
	int rc = s->start ? descend(m, s->start, out, err) : PLANNER_OK;
	if (rc == PLANNER_OK && m->n < m->budget)
		rc = descend(m, zero, out, err);
	if (rc == PLANNER_OK && m->n < m->budget)
		rc = descend(m, all, out, err);
	return rc;
}

/* The FLEET_REFINE purchases the quick look q found cheapest (the earlier
 * of equal ones first) evaluated by s->eval into full; the cheapest of
 * them into out. */
static int refine(const struct memo *q, struct memo *full, struct fleet_found *out, char **err)
{
	size_t k = q->s->n_types;
	bool *taken = calloc(q->n + 1, sizeof *taken);
	if (!taken)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = PLANNER_OK;
	for (size_t r = 0; r < FLEET_REFINE && r < q->n && rc == PLANNER_OK; r++) {
		size_t b = q->n;
		for (size_t i = 0; i < q->n; i++)
			if (!taken[i] && (b == q->n || q->cost[i] < q->cost[b]))
				b = i;
		taken[b] = true;
		double cost;
		rc = cost_of(full, &q->counts[b * k], &cost, err);
		if (rc == PLANNER_OK)
			keep(out, k, &q->counts[b * k], cost);
	}
	free(taken);
	return rc;
}

/* With a quick look (s->quick): the descents on it, the cheapest few
 * again by s->eval, and a last descent by s->eval from the best of those
 * while FLEET_POLISH_EVALUATIONS last. */
static int two_stage(struct memo *q, struct memo *full, struct fleet_found *out, char **err)
{
	struct fleet_found rough = {.monthly = INFINITY};
	int rc = descents(q, &rough, err);
	if (rc == PLANNER_OK)
		rc = refine(q, full, out, err);
	if (rc == PLANNER_OK && full->n < full->budget) {
		int from[FLEET_MAX_TYPES];
		memcpy(from, out->counts, sizeof from);
		rc = descend(full, from, out, err);
	}
	return rc;
}

int fleet_search(const struct fleet_space *s, struct fleet_found *out, char **err)
{
	memset(out, 0, sizeof *out);
	out->monthly = INFINITY;
	if (s->n_types > FLEET_MAX_TYPES)
		return set_err(err, PLANNER_EINPUT, "more than %d GPU types to buy",
			       FLEET_MAX_TYPES);
	size_t budget = (size_t)(s->max_evaluations > 0 ? s->max_evaluations
							: FLEET_MAX_EVALUATIONS);
	struct memo m = {.s = s, .eval = s->eval, .budget = budget};
	struct memo q = {.s = s, .eval = s->quick, .budget = budget};
	double space = 1;
	for (size_t i = 0; i < s->n_types; i++)
		space *= s->max_count[i] + 1;
	int limit = s->exact_max > 0 ? s->exact_max : FLEET_EXACT_MAX;
	int rc;
	if (space <= limit) {
		rc = enumerate(&m, out, err);
		out->exact = true;
	} else if (s->quick) {
		q.budget = (size_t)(s->max_quick > 0 ? s->max_quick : FLEET_MAX_QUICK);
		m.budget = FLEET_REFINE + FLEET_POLISH_EVALUATIONS;
		rc = two_stage(&q, &m, out, err);
	} else
		rc = descents(&m, out, err);
	out->evaluations = (int)m.n;
	out->quick_evaluations = (int)q.n;
	free(m.counts);
	free(m.cost);
	free(q.counts);
	free(q.cost);
	return rc;
}

/* ---- the month ---- */

int fleet_spec(const struct jobspec *spec, const int *counts, struct jobspec *copy, char **err)
{
	*copy = *spec;
	size_t n = spec->n_owned;
	for (size_t i = 0; i < spec->n_buy; i++)
		n += counts[i] > 0;
	copy->owned = calloc(n + 1, sizeof *copy->owned);
	if (!copy->owned)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if (spec->n_owned)
		memcpy(copy->owned, spec->owned, spec->n_owned * sizeof *copy->owned);
	copy->n_owned = spec->n_owned;
	for (size_t i = 0; i < spec->n_buy; i++) {
		if (counts[i] <= 0)
			continue;
		struct owned_gpu *o = &copy->owned[copy->n_owned++];
		o->gpu = spec->buy[i].gpu;
		o->count = counts[i];
		o->watts = spec->buy[i].watts;
		o->idle_watts = spec->buy[i].idle_watts;
		o->commit = spec->buy[i].commit;
		o->pos = spec->buy[i].pos;
	}
	return PLANNER_OK;
}

void fleet_spec_release(struct jobspec *copy)
{
	if (!copy)
		return;
	free(copy->owned);
	copy->owned = NULL;
	copy->n_owned = 0;
}

struct month_ctx {
	const struct jobspec *spec;
	const struct plan *plan;
	int year, month;
};

static void choice_free(struct fleet_choice *c)
{
	schedule_free(c->sched);
	c->sched = NULL;
}

/* Schedules the month on counts and fills *c; *objective gets the bill
 * plus SCHED_UNPLACED_PENALTY for each whole job left unplaced. */
static int choose(const struct month_ctx *m, const int *counts, unsigned flags,
		  struct fleet_choice *c, double *objective, char **err)
{
	const struct jobspec *spec = m->spec;
	memset(c, 0, sizeof *c);
	struct jobspec copy;
	int rc = fleet_spec(spec, counts, &copy, err);
	if (rc)
		return rc;
	rc = schedule_month(&copy, m->plan, m->year, m->month, flags, &c->sched, err);
	fleet_spec_release(&copy);
	if (rc)
		return rc;
	c->buy = spec->buy;
	c->n_buy = spec->n_buy;
	for (size_t i = 0; i < spec->n_buy; i++) {
		c->counts[i] = counts[i];
		if (spec->buy[i].commit) { /* a fixed month, nothing bought */
			c->commit_monthly += offer_term_month(
			    spec->buy[i].commit, fleet_commit_instances(&spec->buy[i], counts[i]));
			continue;
		}
		struct tco_owned t; /* the purchase with its hosts (costs:) */
		tco_owned_month(spec, spec->buy[i].gpu, counts[i], spec->buy[i].price, 0, 0, 0,
		                false, &t);
		c->capex += t.capex;
		/* Its capital; power, idle draw, hosts' power and maintenance
		 * are the schedule's, as for the GPUs on hand (owned_fixed). */
		c->purchase_monthly += t.capital;
	}
	const struct schedule *s = c->sched;
	double penalty = 0;
	for (int r = 0; r < (int)route_count(); r++)
		c->by_route[r] = s->route_cost[r];
	c->by_route[ROUTE_OWNED] += c->purchase_monthly + c->commit_monthly;
	c->monthly_total = s->total_cost + c->purchase_monthly + c->commit_monthly;
	for (size_t j = 0; j < s->n_jobs; j++) {
		c->unplaced_hours += s->jobs[j].unplaced_hours;
		if (s->jobs[j].hours_needed > 0)
			penalty += SCHED_UNPLACED_PENALTY * s->jobs[j].unplaced_hours /
				   s->jobs[j].hours_needed;
	}
	*objective = c->monthly_total + penalty;
	return PLANNER_OK;
}

static int eval_month(void *ctx, const int *counts, double *monthly, char **err)
{
	struct fleet_choice c;
	int rc = choose(ctx, counts, SCHEDULE_NO_EXACT, &c, monthly, err);
	choice_free(&c);
	return rc;
}

/* The quick look: the schedule's construction only (SCHEDULE_QUICK). */
static int eval_quick(void *ctx, const int *counts, double *monthly, char **err)
{
	struct fleet_choice c;
	int rc = choose(ctx, counts, SCHEDULE_QUICK, &c, monthly, err);
	choice_free(&c);
	return rc;
}

/* The buy: entry holding the job's own purchase as compare prices it, or
 * -1 when its best route is not a purchase. */
static int own_purchase(const struct jobspec *spec, const struct job_result *r)
{
	const struct route_result *own = &r->routes[ROUTE_OWNED];
	if (r->best != ROUTE_OWNED || !own->feasible || own->already_owned)
		return -1;
	for (size_t i = 0; i < spec->n_buy; i++)
		if (spec->buy[i].gpu == own->gpu && spec->buy[i].watts == own->watts)
			return (int)i;
	return -1;
}

/* The most of buy entry i worth trying: none when no job fits on it,
 * else its max_count within the scheduler's pool bound. */
static int type_max(const struct jobspec *spec, const struct plan *plan, size_t i)
{
	const struct buy_option *b = &spec->buy[i];
	int on_hand = 0;
	for (size_t k = 0; k < spec->n_owned; k++)
		if (spec->owned[k].gpu == b->gpu && spec->owned[k].watts == b->watts &&
		    spec->owned[k].commit == b->commit)
			on_hand += spec->owned[k].count;
	int room = FLEET_MAX_POOL_GPUS - on_hand;
	for (size_t k = 0; k < i; k++) /* an earlier identical entry shares the pool */
		if (spec->buy[k].gpu == b->gpu && spec->buy[k].watts == b->watts &&
		    spec->buy[k].commit == b->commit)
			room -= spec->buy[k].max_count;
	int max = b->max_count < room ? b->max_count : room;
	for (size_t j = 0; j < plan->n_jobs; j++) {
		const struct workload *w = &plan->jobs[j].work;
		if (b->commit && !workload_commit_allowed(w, b->commit, b->gpu))
			continue;
		int n = workload_gpu_allowed(w, b->gpu) ? workload_min_gpus(w, b->gpu) : 0;
		if (n > 0 && n <= max)
			return max;
	}
	return 0;
}

/* The move sizes worth trying on gpu: one GPU, and each size a job needs
 * at least (its tensor-parallel size there). */
static unsigned type_sizes(const struct plan *plan, const struct gpu_spec *gpu)
{
	unsigned mask = 1;
	for (size_t j = 0; j < plan->n_jobs; j++) {
		const struct workload *w = &plan->jobs[j].work;
		int n = workload_gpu_allowed(w, gpu) ? workload_min_gpus(w, gpu) : 0;
		for (int k = 0; k < 4; k++)
			if (fleet_move_sizes[k] == n)
				mask |= 1u << k;
	}
	return mask;
}

double fleet_payback(const struct jobspec *spec, const struct fleet_choice *b,
		     const struct fleet_choice *n)
{
	double saving = n->monthly_total - (b->monthly_total - b->purchase_monthly);
	if (!(b->capex > 0) || !(saving > 0))
		return NAN;
	double months = b->capex / saving;
	return months <= spec->amortize_months ? months : NAN;
}

static int plan_choices(const struct month_ctx *m, struct fleet *f, const int *per_job,
			const int *best, char **err)
{
	int zero[FLEET_MAX_TYPES] = {0};
	double ignore;
	int rc = choose(m, best, 0, &f->best, &ignore, err);
	if (rc == PLANNER_OK)
		rc = choose(m, zero, 0, &f->none, &ignore, err);
	if (rc == PLANNER_OK)
		rc = choose(m, per_job, 0, &f->per_job, &ignore, err);
	return rc;
}

int fleet_plan(const struct jobspec *spec, const struct plan *plan, int year, int month,
	       struct fleet **out, char **err)
{
	return fleet_plan_opts(spec, plan, year, month, 0, out, err);
}

int fleet_plan_opts(const struct jobspec *spec, const struct plan *plan, int year, int month,
		    unsigned flags, struct fleet **out, char **err)
{
	struct fleet_opts o = {.flags = flags};
	return fleet_plan_with(spec, plan, year, month, &o, out, err);
}

/* The buy: entry of gpu in list[0..n), or -1. */
static int buy_index(const struct buy_option *list, size_t n, const struct gpu_spec *gpu)
{
	for (size_t i = 0; i < n; i++)
		if (list[i].gpu == gpu)
			return (int)i;
	return -1;
}

/* A GPU of the reference table as a buy: entry, as compare's owned route
 * considers it without buy: (route_owned.c): its price in the spec's
 * currency, its power, JOBSPEC_DEFAULT_MAX_BUY at most. */
static struct buy_option ref_buy(const struct jobspec *spec, const struct gpu_spec *g)
{
	return (struct buy_option){.gpu = g,
	                           .price = g->price_usd * spec->usd_to_currency,
	                           .watts = g->watts,
	                           .max_count = JOBSPEC_DEFAULT_MAX_BUY};
}

/* How a GPU type ranks for the derived buy: list: its best rank among
 * the jobs (0 = the cheapest GPU to buy for some job), and how many jobs
 * rank it so. */
struct type_rank {
	const struct gpu_spec *gpu;
	int best, votes;
	size_t order; /* the reference table's */
};

static int cmp_rank(const void *a, const void *b)
{
	const struct type_rank *x = a, *y = b;
	if (x->best != y->best)
		return x->best < y->best ? -1 : 1;
	if (x->votes != y->votes)
		return x->votes > y->votes ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Ranks candidate types t[0..n) for every job by the job's floor on them
 * bought at full use (job_floor), into t[].best and .votes. */
static void rank_types(const struct jobspec *spec, const struct plan *plan, struct type_rank *t,
                       size_t n, int n_slots)
{
	double *floor = malloc((n + 1) * sizeof *floor);
	if (!floor)
		return; /* unranked: the reference order decides */
	for (size_t j = 0; j < plan->n_jobs; j++) {
		for (size_t i = 0; i < n; i++) {
			struct buy_option b = ref_buy(spec, t[i].gpu);
			floor[i] = job_floor(spec, &plan->jobs[j].work, b.gpu, b.watts, b.max_count,
			                     owned_fixed_monthly(spec, b.gpu, 1, b.price), n_slots);
		}
		for (size_t i = 0; i < n; i++) {
			if (!isfinite(floor[i]))
				continue;
			int rank = 0;
			for (size_t k = 0; k < n; k++)
				rank += floor[k] < floor[i];
			if (rank < t[i].best)
				t[i].best = rank, t[i].votes = 0;
			t[i].votes += rank == t[i].best;
		}
	}
	free(floor);
}

/* Without buy: (FLEET_ANY_GPU): every GPU of ref with a price and a power
 * figure that fits at least one job, the FLEET_AUTO_TYPES that rank best
 * (the cheapest to buy for most jobs first), into f->buy. */
static int derive_buy(const struct jobspec *spec, const struct plan *plan,
                      const struct refdata *ref, struct fleet *f, char **err)
{
	struct type_rank *t = calloc(ref->n_gpus + 1, sizeof *t);
	if (!t)
		return set_err(err, PLANNER_ESYS, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (g->price_usd > 0 && g->watts > 0)
			t[n++] = (struct type_rank){.gpu = g, .best = INT_MAX, .order = i};
	}
	rank_types(spec, plan, t, n, HOURS_PER_MONTH);
	qsort(t, n, sizeof *t, cmp_rank);
	for (size_t i = 0; i < n && f->n_types < FLEET_AUTO_TYPES && t[i].best < INT_MAX; i++)
		f->buy[f->n_types++] = ref_buy(spec, t[i].gpu);
	free(t);
	f->derived = true;
	return PLANNER_OK;
}

/* The given purchase (--buy) onto f->buy (a GPU not on it is added, up to
 * its count) and into counts. */
static int add_given(const struct jobspec *spec, const struct fleet_opts *o, struct fleet *f,
                     int *counts, char **err)
{
	for (size_t i = 0; i < o->n_given; i++) {
		const struct fleet_given *g = &o->given[i];
		int k = buy_index(f->buy, f->n_types, g->gpu);
		if (k < 0) {
			if (!(g->gpu->price_usd > 0) || !(g->gpu->watts > 0))
		return set_err(err, PLANNER_EINPUT,
				               "--buy: %s has no price in the reference table; "
				               "list it under buy: with its price",
				               g->gpu->name);
			if (f->n_types == FLEET_MAX_TYPES)
		return set_err(err, PLANNER_EINPUT,
				               "--buy: more than %d GPU types in all",
				               FLEET_MAX_TYPES);
			k = (int)f->n_types++;
			f->buy[k] = ref_buy(spec, g->gpu);
			f->buy[k].max_count = 0;
		}
		counts[k] += g->count;
		if (counts[k] > FLEET_MAX_POOL_GPUS)
			return set_err(err, PLANNER_EINPUT,
			               "--buy: %d %s; the scheduler takes up to %d of one model",
			               counts[k], g->gpu->name, FLEET_MAX_POOL_GPUS);
		if (counts[k] > f->buy[k].max_count && f->derived)
			f->buy[k].max_count = counts[k];
	}
	return PLANNER_OK;
}

/* f->buy: the spec's buy: list, or the derived one, the given GPUs and
 * the shared commitments. */
static int buy_list(const struct jobspec *spec, const struct plan *plan, const struct fleet_opts *o,
                    struct fleet *f, int *given, char **err)
{
	f->buy = calloc(FLEET_MAX_TYPES, sizeof *f->buy);
	if (!f->buy)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = PLANNER_OK;
	if (spec->has_buy) {
		if (spec->n_buy)
			memcpy(f->buy, spec->buy, spec->n_buy * sizeof *f->buy);
		f->n_types = spec->n_buy;
	} else if (o->ref) {
		rc = derive_buy(spec, plan, o->ref, f, err);
	}
	if (rc == PLANNER_OK)
		rc = add_given(spec, o, f, given, err);
	if (rc == PLANNER_OK)
		fleet_add_commitments(plan, o->ref, f);
	return rc;
}

/* The search over f->buy (the work spec) and the strategies beside it. */
static int search_month(const struct jobspec *work, const struct plan *plan, int year, int month,
                        unsigned flags, const int *given, size_t n_given, struct fleet *f,
                        char **err)
{
	struct month_ctx m = {.spec = work, .plan = plan, .year = year, .month = month};
	struct fleet_space s = {.n_types = work->n_buy,
				.eval = eval_month,
				.quick = flags & FLEET_THOROUGH ? NULL : eval_quick,
				.ctx = &m};
	int per_job[FLEET_MAX_TYPES] = {0};
	for (size_t i = 0; i < work->n_buy; i++) {
		s.max_count[i] = type_max(work, plan, i);
		s.sizes[i] = type_sizes(plan, work->buy[i].gpu);
	}
	/* Each job's own purchase, in spec order, while the sum stays within
	 * the type's max_count (and the pool bound, type_max); a job whose
	 * purchase would pass it buys nothing of its own. */
	for (size_t j = 0; j < plan->n_jobs; j++) {
		int i = own_purchase(work, &plan->jobs[j]);
		if (i >= 0 &&
		    per_job[i] + plan->jobs[j].routes[ROUTE_OWNED].gpu_count <= s.max_count[i])
			per_job[i] += plan->jobs[j].routes[ROUTE_OWNED].gpu_count;
	}
	int start[FLEET_MAX_TYPES] = {0};
	for (size_t i = 0; i < work->n_buy; i++)
		start[i] = per_job[i] < s.max_count[i] ? per_job[i] : s.max_count[i];
	s.start = start;
	struct fleet_found found;
	int rc = fleet_search(&s, &found, err);
	if (rc == PLANNER_OK)
		rc = plan_choices(&m, f, per_job, found.counts, err);
	double ignore;
	if (rc == PLANNER_OK && n_given)
		rc = choose(&m, given, 0, &f->given, &ignore, err);
	f->evaluations = found.evaluations;
	f->quick_evaluations = found.quick_evaluations;
	f->exact = found.exact;
	return rc;
}

int fleet_plan_with(const struct jobspec *spec, const struct plan *plan, int year, int month,
                    const struct fleet_opts *o, struct fleet **out, char **err)
{
	*out = NULL;
	if (!spec->has_buy && !(o->flags & FLEET_ANY_GPU && o->ref))
		return set_err(err, PLANNER_EINPUT,
		               "%s: no buy: list; list the GPUs you would consider buying, "
		               "e.g. buy: [{gpu: RTX 5090, price: 2400}]",
		               spec->path);
	if (spec->n_buy > FLEET_MAX_TYPES)
		return set_err(err, PLANNER_EINPUT,
		               "%s: %zu buy: entries; the fleet search takes up to %d", spec->path,
		               spec->n_buy, FLEET_MAX_TYPES);
	struct fleet *f = calloc(1, sizeof *f);
	if (!f)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int given[FLEET_MAX_TYPES] = {0};
	int rc = buy_list(spec, plan, o, f, given, err);
	struct jobspec work = *spec; /* the spec buying from f->buy */
	work.buy = f->buy;
	work.n_buy = f->n_types;
	work.has_buy = true;
	if (rc == PLANNER_OK)
		rc = search_month(&work, plan, year, month, o->flags, given, o->n_given, f, err);
	if (rc) {
		fleet_free(f);
		return rc;
	}
	f->payback_months = fleet_payback(spec, &f->best, &f->none);
	f->bound = fleet_bound(&work, plan, f->best.sched->n_slots);
	fleet_recommend(spec, f);
	*out = f;
	return PLANNER_OK;
}

void fleet_free(struct fleet *f)
{
	if (!f)
		return;
	choice_free(&f->best);
	choice_free(&f->none);
	choice_free(&f->per_job);
	choice_free(&f->given);
	free(f->buy);
	free(f);
}

/* The least a job can cost on n_slots hours of `count` GPUs of kind gpu
 * drawing watts each, paying fixed_per_gpu a month for each GPU-hour's
 * share of a GPU at full use; INFINITY when it does not fit. */
static double job_floor(const struct jobspec *spec, const struct workload *w,
			const struct gpu_spec *gpu, double watts, int count, double fixed_per_gpu,
			int n_slots)
{
	int n = workload_gpu_allowed(w, gpu) ? workload_min_gpus(w, gpu) : 0;
	struct workload_run run;
	if (n <= 0 || n > count || !workload_size(w, gpu, n, count / n, &run, NULL, 0) ||
	    !(run.hours > 0) || !isfinite(run.hours))
		return INFINITY;
	int gpus = n * run.replicas;
	return power_cost(spec, gpus, watts, run.hours) +
	       fixed_per_gpu * gpus * run.hours / n_slots;
}

double fleet_bound(const struct jobspec *spec, const struct plan *plan, int n_slots)
{
	double total = 0;
	for (size_t j = 0; j < plan->n_jobs; j++) {
		const struct job_result *r = &plan->jobs[j];
		/* The cheapest route without a stock of GPUs (rented, api). */
		enum route chain[ROUTE_MAX];
		double least = route_fallbacks(r, chain) ? r->routes[chain[0]].monthly_cost : INFINITY;
		for (size_t i = 0; i < spec->n_owned; i++) {
			const struct owned_gpu *o = &spec->owned[i];
			double c = job_floor(spec, &r->work, o->gpu, o->watts, o->count, 0, n_slots);
			least = c < least ? c : least;
		}
		for (size_t i = 0; i < spec->n_buy; i++) {
			const struct buy_option *b = &spec->buy[i];
			if (b->commit && !workload_commit_allowed(&r->work, b->commit, b->gpu))
				continue; /* data: restricted, providers:, regions: … */
			/* a commitment's GPU: its share of the fixed month */
			double fixed = b->commit ? offer_term_month(b->commit, 1) /
			                               b->commit->o.gpu_count
			                         : owned_fixed_monthly(spec, b->gpu, 1, b->price);
			double c = job_floor(spec, &r->work, b->gpu, b->watts, FLEET_MAX_POOL_GPUS,
			                     fixed, n_slots);
			least = c < least ? c : least;
		}
		/* A traffic-shape mix (plan_mix) places fewer owned replicas
		 * than any route alone and rents the peak: its floor is not
		 * modelled here, so it is 0 — the bound stays a bound. */
		if (r->mix)
			least = 0;
		total += isfinite(least) ? least : 0;
	}
	return total;
}

/* "2x RTX 5090, 1x RTX 6000 Ada", or "nothing". */
void fleet_purchase_text(const struct jobspec *spec, const struct fleet_choice *c, char *buf,
			  size_t len)
{
	size_t used = 0, n = c->buy ? c->n_buy : spec->n_buy;
	const struct buy_option *buy = c->buy ? c->buy : spec->buy;
	buf[0] = 0;
	for (size_t i = 0; i < n && used < len; i++) {
		if (c->counts[i] <= 0)
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%dx %s", used ? ", " : "",
		                         c->counts[i], buy[i].gpu->name);
		if (buy[i].commit && used < len)
			used += (size_t)snprintf(buf + used, len - used, " (%s %s commitment)",
			                         buy[i].commit->o.provider, buy[i].commit->term);
	}
	if (!buf[0])
		snprintf(buf, len, "nothing");
}

void fleet_payback_text(const struct jobspec *spec, const struct fleet *f,
			 const struct fleet_choice *c, char *buf, size_t len)
{
	double m = fleet_payback(spec, c, &f->none);
	if (isfinite(m))
		snprintf(buf, len, "%.1f months", m);
	else if (c->capex > 0)
		snprintf(buf, len, "not within %g months", spec->amortize_months);
	else
		snprintf(buf, len, "-");
}
