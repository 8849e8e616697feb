/* schedule.c — one calendar month as a schedule (see schedule.h): the
 * month's hours in the spec's time zone, each job's allowed hours, the
 * owned pools and what each job saves on them, the solver's answer turned
 * into runs, and the rest of every job on rented capacity or the API.
 * layout: long file — the traffic-shape mix's placement (mix_option,
 * mix_runs) reads the month builder's state; it moves to sched_mix.c once
 * that struct is in an internal header (a next step, not yet done). */
#include "schedule.h"

#include "parallel.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_mix.h"
#include "tco.h"
#include "util.h"
#include "workload.h"

/* A run's GPUs are a 64-bit set (struct sched_run.gpus). */
#define SCHED_MAX_POOL_GPUS 64

#define FRACTION_EPS 1e-9

/* snprintf that may cut: names and reasons are long only in odd specs. */
static void fmt(char *buf, size_t len, const char *f, ...) __attribute__((format(printf, 3, 4)));
static void fmt(char *buf, size_t len, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	vsnprintf(buf, len, f, ap);
	va_end(ap);
}

/* ---- building the problem ---- */

bool sched_split_allowed(const struct job *j)
{
	return j->task == TASK_INFERENCE;
}

/* An owned pool, with what the problem does not need to know. */
struct pool_info {
	const struct gpu_spec *gpu;
	double watts;
	double idle_watts;  /* between runs; 0 = switched off */
	int first;          /* number of the pool's first GPU among its model, 0-based */
	/* a shared commitment's GPUs (fleet.c): no power or fixed month here,
	 * only jobs that may rent them; NULL: GPUs on hand */
	const struct offer_term *commit;
};

struct builder {
	const struct jobspec *spec;
	const struct plan *plan;
	struct schedule *out;
	struct sched_pool *pools;
	struct pool_info *pinfo;
	size_t n_pools;
	struct sched_job *jobs;
	struct sched_option *opts;    /* n_jobs × n_pools */
	unsigned char *allowed;       /* n_jobs × n_slots */
	int *allowed_n;
	struct route_mix *mix; /* n_jobs: compare's mix (plan_mix), found or not */
	int *mix_pool;         /* n_jobs: the pool its base runs on, -1 none */
	struct sched_solution sol;
};

static int build_pools(struct builder *b, char **err)
{
	const struct jobspec *spec = b->spec;
	b->pools = calloc(spec->n_owned + 1, sizeof *b->pools);
	b->pinfo = calloc(spec->n_owned + 1, sizeof *b->pinfo);
	if (!b->pools || !b->pinfo)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t i = 0; i < spec->n_owned; i++) {
		const struct owned_gpu *o = &spec->owned[i];
		size_t k = 0;
		int first = 0;
		for (; k < b->n_pools; k++) {
			if (b->pinfo[k].gpu != o->gpu)
				continue;
			if (b->pinfo[k].watts == o->watts && b->pinfo[k].idle_watts == o->idle_watts &&
			    b->pinfo[k].commit == o->commit)
				break;
			first = b->pinfo[k].first + b->pools[k].count;
		}
		if (k == b->n_pools) {
			if (o->commit)
				fmt(b->pools[k].name, sizeof b->pools[k].name, "%s (%s %s)", o->gpu->name,
				    o->commit->o.provider, o->commit->term);
			else
				snprintf(b->pools[k].name, sizeof b->pools[k].name, "%s", o->gpu->name);
			b->pinfo[k].commit = o->commit;
			b->pinfo[k].gpu = o->gpu;
			b->pinfo[k].watts = o->watts;
			b->pinfo[k].idle_watts = o->idle_watts;
			b->pinfo[k].first = first;
			b->n_pools++;
		}
		b->pools[k].count += o->count;
		if (b->pools[k].count > SCHED_MAX_POOL_GPUS)
			return set_err(err, PLANNER_EINPUT,
				       "%s:%d:%d: more than %d owned %s GPUs; the scheduler handles "
				       "up to %d of one model",
				       spec->path, o->pos.line, o->pos.column, SCHED_MAX_POOL_GPUS,
				       o->gpu->name, SCHED_MAX_POOL_GPUS);
	}
	/* Numbering among a model follows the pools in order. */
	for (size_t k = 0; k < b->n_pools; k++) {
		int first = 0;
		for (size_t i = 0; i < k; i++)
			if (b->pinfo[i].gpu == b->pinfo[k].gpu)
				first += b->pools[i].count;
		b->pinfo[k].first = first;
	}
	return PLANNER_OK;
}

/* What compare's hours of job i come to in this month: a serving: window
 * job is up in every slot its window allows (this calendar month's, not
 * the nominal month's schedule_month_hours), as an always-on one is up in
 * every slot; other jobs' hours are compare's. This function can't fail. */
static double month_scale(const struct builder *b, size_t i)
{
	const struct job *j = &b->spec->jobs[i];
	if (j->serving != SERVING_WINDOW || !(j->hours_per_month > 0))
		return 1;
	return b->allowed_n[i] / j->hours_per_month;
}

/* Job i's mix (plan_mix, docs/estimation.md "Traffic shape"): when
 * compare found one and a pool holds the base's GPU model, the job's
 * option there becomes the mix's base, its owned replicas in every hour
 * of its window; the peak runs are mix_runs'. Other jobs keep their
 * options. This function can't fail. */
static void mix_option(struct builder *b, size_t i)
{
	struct route_mix *m = &b->mix[i];
	const struct job_result *r = &b->plan->jobs[i];
	b->mix_pool[i] = -1;
	if (!r->mix)
		return;
	*m = *r->mix;
	const struct route_result *base = &r->routes[m->base_route];
	int gpus = m->owned_replicas * (base->gpu_count / base->replicas);
	for (size_t k = 0; k < b->n_pools; k++) {
		struct sched_option *o = &b->opts[i * b->n_pools + k];
		if (b->pinfo[k].gpu != base->gpu || b->pinfo[k].commit || b->pools[k].count < gpus ||
		    !workload_gpu_allowed(&r->work, base->gpu) || !(b->allowed_n[i] > 0))
			continue;
		struct tco_owned t;
		tco_owned_month(b->spec, base->gpu, gpus, 0, b->pinfo[k].watts,
		                b->pinfo[k].idle_watts, 0, true, &t);
		o->gpus = gpus;
		o->replicas = m->owned_replicas;
		o->hours = b->allowed_n[i];
		o->cost_per_hour = t.per_hour;
		b->mix_pool[i] = (int)k;
		return;
	}
}

static int build_jobs(struct builder *b, char **err)
{
	const struct jobspec *spec = b->spec;
	const int T = b->out->n_slots;
	size_t J = spec->n_jobs, M = b->n_pools;
	b->jobs = calloc(J + 1, sizeof *b->jobs);
	b->opts = calloc(J * M + 1, sizeof *b->opts);
	b->allowed = calloc(J * (size_t)T + 1, 1);
	b->allowed_n = calloc(J + 1, sizeof *b->allowed_n);
	b->mix = calloc(J + 1, sizeof *b->mix);
	b->mix_pool = calloc(J + 1, sizeof *b->mix_pool);
	if (!b->jobs || !b->opts || !b->allowed || !b->allowed_n || !b->mix || !b->mix_pool)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t i = 0; i < J; i++) {
		const struct job *j = &spec->jobs[i];
		const struct job_result *r = &b->plan->jobs[i];
		struct sched_job *sj = &b->jobs[i];
		unsigned char *al = &b->allowed[i * T];
		sched_allowed(&j->sched, b->out->slots, T, al);
		for (int t = 0; t < T; t++)
			b->allowed_n[i] += al[t];
		sj->name = j->name;
		sj->priority = j->sched.priority;
		sj->allowed = al;
		sj->split = sched_split_allowed(j);
		sj->min_run = (int)ceil(j->sched.min_run - FRACTION_EPS);
		sj->max_run = j->sched.max_run > 0 ? (int)floor(j->sched.max_run + FRACTION_EPS) : 0;
		if (sj->max_run == 0 && j->sched.max_run > 0)
			sj->max_run = 1;
		enum route chain[ROUTE_MAX];
		sj->fallback_cost = route_fallbacks(r, chain) ? r->routes[chain[0]].monthly_cost
		                                             : INFINITY;
		sj->opt = &b->opts[i * M];
		for (size_t m = 0; m < M; m++) {
			const struct pool_info *pi = &b->pinfo[m];
			struct sched_option *o = &b->opts[i * M + m];
			if (!workload_gpu_allowed(&r->work, pi->gpu) ||
			    (pi->commit && !workload_commit_allowed(&r->work, pi->commit, pi->gpu)))
				continue;
			int n = workload_min_gpus(&r->work, pi->gpu);
			/* Past one node, as compare's owned route lays it out. */
			if (pi->gpu->gpus_per_node > 0 &&
			    (n == 0 || parallel_gpus(&r->work.shape.parallel) > pi->gpu->gpus_per_node))
				n = workload_nodes_min_gpus(&r->work, pi->gpu, pi->gpu->gpus_per_node);
			if (n <= 0 || n > b->pools[m].count)
				continue;
			/* As compare sizes it: replicas of n GPUs when the tokens
			 * need them in the hours, as many as the pool holds. */
			struct workload_run run;
			if (!workload_size(&r->work, pi->gpu, n, b->pools[m].count / n, &run, NULL,
					   0))
				continue;
			double h = run.hours * month_scale(b, i);
			if (!(h > 0) || !isfinite(h))
				continue;
			o->gpus = n * run.replicas;
			o->replicas = run.replicas > 0 ? run.replicas : 1;
			o->hours = h;
			/* The marginal cost of a busy hour, as compare's owned
			 * route prices it: the idle month is paid anyway. */
			struct tco_owned t;
			tco_owned_month(spec, pi->gpu, o->gpus, 0, pi->watts, pi->idle_watts, 0,
			                true, &t);
			/* a commitment's hour is paid in its fixed month (fleet.c) */
			o->cost_per_hour = pi->commit ? 0 : t.per_hour;
		}
		mix_option(b, i);
	}
	return PLANNER_OK;
}

/* ---- turning the answer into runs ---- */

static struct sched_run *new_run(struct schedule *s, size_t *cap)
{
	if (s->n_runs == *cap) {
		size_t n = *cap ? *cap * 2 : 64;
		struct sched_run *r = realloc(s->runs, n * sizeof *r);
		if (!r)
			return NULL;
		s->runs = r;
		*cap = n;
	}
	struct sched_run *r = &s->runs[s->n_runs++];
	memset(r, 0, sizeof *r);
	r->pool = -1;
	return r;
}

/* The slot index holding time t (n when t is the month's end). */
static int slot_at(const struct schedule *s, time_t t)
{
	int lo = 0, hi = s->n_slots;
	while (lo < hi) {
		int mid = (lo + hi + 1) / 2;
		if (s->slots[mid].start <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static void set_times(const struct schedule *s, struct sched_run *r)
{
	r->start = s->slots[r->slot].start;
	r->start_offset = s->slots[r->slot].utc_offset;
	if (!route_has(r->route, ROUTE_ON_GPUS)) {
		r->end = s->slots[r->slot + r->n_slots].start;
	} else {
		/* Whole minutes: a run of 3.7 h ends 3 h 42 min after it starts. */
		r->end = r->start + (time_t)llround(r->hours * 60) * 60;
		if (r->end > s->slots[r->slot + r->n_slots].start)
			r->end = s->slots[r->slot + r->n_slots].start;
	}
	r->end_offset = s->slots[slot_at(s, r->end)].utc_offset;
}

static int owned_runs(struct builder *b, size_t j, size_t *cap, double *cost)
{
	struct schedule *s = b->out;
	const int T = s->n_slots;
	const int16_t *at = &b->sol.pool[j * T];
	const double *work = &b->sol.work[j * T];
	for (int t = 0; t < T;) {
		int m = at[t];
		if (m < 0) {
			t++;
			continue;
		}
		int len = 0;
		double hours = 0;
		while (t + len < T && at[t + len] == m)
			hours += work[t + len++];
		struct sched_run *r = new_run(s, cap);
		if (!r)
			return PLANNER_ESYS;
		const struct sched_option *o = &b->jobs[j].opt[m];
		r->job = j;
		r->route = ROUTE_OWNED; /* the pools are the spec's owned: GPUs */
		r->gpu = b->pinfo[m].gpu;
		if (b->pinfo[m].commit) { /* or a shared commitment's (fleet.c) */
			fmt(r->resource, sizeof r->resource, "%s", b->pools[m].name);
			fmt(r->provider, sizeof r->provider, "%s", b->pinfo[m].commit->o.provider);
			fmt(r->region, sizeof r->region, "%s", b->pinfo[m].commit->o.region);
		}
		r->gpu_count = o->gpus;
		r->replicas = o->replicas > 0 ? o->replicas : 1;
		r->pool = m;
		r->slot = t;
		r->n_slots = len;
		r->hours = hours;
		r->cost = hours * o->cost_per_hour;
		*cost += r->cost;
		t += len;
	}
	return PLANNER_OK;
}

/* Whether job j is on an owned pool in slot t of `at` (NULL: a copy
 * beside the job's other runs, free in every slot). */
static bool busy_at(const int16_t *at, int t)
{
	return at && at[t] >= 0;
}

/* Fills run r of job j on route k's offer x (its GPUs, provider and
 * region) over slots [t, t + len); hours and cost are the caller's. */
static void offer_run(struct sched_run *r, size_t j, enum route k, const struct route_result *x,
                      int t, int len)
{
	r->job = j;
	r->route = k;
	char kind[32] = "";
	if (x->spot)
		fmt(kind, sizeof kind, " (spot)");
	else if (x->term[0]) /* rented on a commitment (route_rented.c) */
		fmt(kind, sizeof kind, " (%s commitment)", x->term);
	fmt(r->resource, sizeof r->resource, "%s %s%s", x->provider, x->offer, kind);
	r->gpu = x->gpu;
	r->gpu_count = x->gpu_count;
	r->replicas = x->replicas > 0 ? x->replicas : 1;
	snprintf(r->provider, sizeof r->provider, "%s", x->provider);
	snprintf(r->region, sizeof r->region, "%s", x->region);
	r->spot = x->spot;
	r->slot = t;
	r->n_slots = len;
}

/* The bill of the runs [first, n_runs) that gpu_runs placed, `placed`
 * hours, of a rental on a commitment (route_rented.c): its fixed month,
 * or that share of the on-demand rental it replaced when renting the
 * share on demand costs less (a few hours the owned pools leave over are
 * not worth a year's commitment), spread over the runs by their hours;
 * *cost gets the difference from what the runs held. */
static void commit_bill(struct schedule *s, size_t first, double placed,
                        const struct route_result *rent, double *cost)
{
	if (!(placed > 0))
		return;
	double bill = rent->monthly_cost;
	double share = rent->gpu_hours > 0 ? placed / rent->gpu_hours : 1;
	if (rent->on_demand_cost > 0 && share * rent->on_demand_cost < bill)
		bill = share * rent->on_demand_cost;
	for (size_t i = first; i < s->n_runs; i++) {
		*cost -= s->runs[i].cost;
		s->runs[i].cost = bill * s->runs[i].hours / placed;
		*cost += s->runs[i].cost;
	}
}

/* Places `need` hours of job j on route k's GPUs (rented) in its allowed
 * slots that `at` leaves free (NULL: every allowed slot, a copy beside its
 * other runs: the same-hour split), earliest first, in runs of at least
 * min_run (the last may be shorter when it finishes the work) and busy at
 * most max_run; returns the hours placed. */
static double gpu_runs(struct builder *b, size_t j, enum route k, const struct route_result *rent,
                       const int16_t *at, double need, size_t *cap, double *cost, int *rc)
{
	struct schedule *s = b->out;
	const struct sched_job *sj = &b->jobs[j];
	const int T = s->n_slots;
	double placed = 0;
	size_t first = s->n_runs;
	*rc = PLANNER_OK;
	for (int t = 0; t < T && need - placed > FRACTION_EPS;) {
		bool owned_before = t > 0 && busy_at(at, t - 1);
		if (!sj->allowed[t] || busy_at(at, t) || (sj->max_run > 0 && owned_before)) {
			t++;
			continue;
		}
		int seg = 0;
		while (t + seg < T && sj->allowed[t + seg] && !busy_at(at, t + seg))
			seg++;
		if (sj->max_run > 0 && t + seg < T && busy_at(at, t + seg))
			seg--; /* keep a break before the owned run that follows */
		double left = need - placed;
		int want = (int)ceil(left - FRACTION_EPS);
		int len = seg < want ? seg : want;
		if (sj->max_run > 0 && len > sj->max_run)
			len = sj->max_run;
		int min_len = sj->min_run < want ? sj->min_run : want;
		if (len <= 0 || len < min_len) {
			t += seg > 0 ? seg : 1;
			continue;
		}
		struct sched_run *r = new_run(s, cap);
		if (!r) {
			*rc = PLANNER_ESYS;
			return placed;
		}
		offer_run(r, j, k, rent, t, len);
		r->hours = left < len ? left : len;
		r->cost = r->hours * rent->price_per_hour * rent->replicas; /* all copies run */
		/* Each run starts its nodes anew: its setup hours (costs:); a
		 * commitment's instances stay up. */
		double setup =
		    rent->term[0] ? 0 : tco_setup_run(b->spec, r->replicas, rent->price_per_hour);
		r->cost += setup;
		s->setup_cost += setup;
		*cost += r->cost;
		placed += r->hours;
		t += len + (sj->max_run > 0 ? 1 : 0);
	}
	if (rent->term[0])
		commit_bill(s, first, placed, rent, cost);
	return placed;
}

/* Whether job j's share on route k is placed as window_runs places it: a
 * service up for hours it does not work (serving: window or always-on) on
 * a route that sizes GPUs but bills no hours (serverless: busy seconds,
 * cold starts and idle time, route_serverless.c) must answer in every
 * hour it is up. */
static bool up_without_hours(const struct builder *b, size_t j, enum route k,
                             const struct route_result *x)
{
	return !route_has(k, ROUTE_ON_GPUS) && x->gpu && b->spec->jobs[j].serving != SERVING_ON_DEMAND;
}

/* The share frac of job j on route k (up_without_hours): one run per
 * block of its allowed slots that `at` leaves free (NULL: every allowed
 * slot, copies beside its owned runs), each of the block's hours; the
 * share of the route's monthly bill, scaled to this month's window
 * (month_scale), spread over the blocks by their hours (the bill is busy
 * seconds, starts and idle time, not a price per hour the blocks could
 * carry). Returns the
 * hours placed, 0 when no slot is free. */
static double window_runs(struct builder *b, size_t j, enum route k, const struct route_result *x,
                          const int16_t *at, double frac, size_t *cap, double *cost, int *rc)
{
	struct schedule *s = b->out;
	const unsigned char *al = b->jobs[j].allowed;
	const int T = s->n_slots;
	size_t first = s->n_runs;
	/* compare's bill is for its nominal month; this month's traffic is
	 * its window's hours here, as a rented run's hours are. */
	double month = frac * x->monthly_cost * month_scale(b, j);
	double placed = 0;
	*rc = PLANNER_OK;
	for (int t = 0; t < T;) {
		int len = 0;
		while (t + len < T && al[t + len] && !busy_at(at, t + len))
			len++;
		if (len == 0) {
			t++;
			continue;
		}
		struct sched_run *r = new_run(s, cap);
		if (!r) {
			*rc = PLANNER_ESYS;
			return placed;
		}
		offer_run(r, j, k, x, t, len);
		r->hours = len;
		placed += len;
		t += len;
	}
	for (size_t i = first; i < s->n_runs; i++) {
		s->runs[i].cost = month * s->runs[i].hours / placed;
		*cost += s->runs[i].cost;
	}
	return placed;
}

/* The share frac of job j on route k, not on GPUs (api), as one run over
 * its allowed span, charged frac of the route's month. */
static int whole_run(struct builder *b, size_t j, enum route k, const struct route_result *api,
		     double frac, size_t *cap, double *cost)
{
	struct schedule *s = b->out;
	const unsigned char *al = b->jobs[j].allowed;
	int first = 0, last = s->n_slots - 1;
	if (b->allowed_n[j] > 0) {
		while (!al[first])
			first++;
		while (!al[last])
			last--;
	}
	struct sched_run *r = new_run(s, cap);
	if (!r)
		return PLANNER_ESYS;
	r->job = j;
	r->route = k;
	fmt(r->resource, sizeof r->resource, "%s %s", api->provider, api->offer);
	r->slot = first;
	r->n_slots = last - first + 1;
	r->cost = frac * api->monthly_cost;
	*cost += r->cost;
	return PLANNER_OK;
}

/* "no route runs it: no GPU on hand fits its 80.0 GiB; rented: …; api: …":
 * each other route's reason, in tie-rank order (rented before api). */
static void no_route_why(const struct job_result *r, const char *buy, char *buf, size_t len)
{
	int n = snprintf(buf, len, "no route runs it: no GPU on hand fits its %.1f GiB%s",
			 r->vram_gib, buy);
	enum route order[ROUTE_MAX];
	size_t count = route_by_rank(order);
	for (size_t i = 0; i < count && n >= 0 && (size_t)n < len; i++)
		if (!route_has(order[i], ROUTE_HAS_CAPACITY))
			n += snprintf(buf + n, len - (size_t)n, "; %s: %s", route_name(order[i]),
				      r->routes[order[i]].why);
}

/* Why part of job j could not be placed, as something to do about it. */
static void explain(struct builder *b, size_t j, double frac, double rented_short,
		    int free_hours)
{
	const struct job_result *r = &b->plan->jobs[j];
	const struct job *job = r->job;
	struct sched_job_result *res = &b->out->jobs[j];
	char rule[128] = ""; /* why the job may not leave owned GPUs, if so */
	bool owned_only = true;
	/* Owned only when no other route is allowed; the rule is the last
	 * one's reason (rented's: "data: restricted allows owned GPUs only"). */
	for (size_t k = 0; k < route_count(); k++)
		if (!route_has((enum route)k, ROUTE_HAS_CAPACITY))
			owned_only &= !workload_route_allowed(&r->work, (enum route)k, rule, sizeof rule);
	bool fits = false;
	for (size_t m = 0; m < b->n_pools; m++)
		fits |= b->jobs[j].opt[m].gpus > 0;
	if (b->allowed_n[j] == 0) {
		fmt(res->why, sizeof res->why,
			 "no hour of %s is inside its window, days and deadline; widen them",
			 b->out->month);
	} else if (rented_short > 0) {
		fmt(res->why, sizeof res->why,
			 "its window, days and deadline leave %d free hours for %.1f hours of "
			 "rented work%s; widen the window or days, or move the deadline",
			 free_hours, rented_short,
			 job->sched.min_run > 0 ? " in runs of min_run" : "");
	} else if (!fits) {
		const struct route_result *own = &r->routes[ROUTE_OWNED];
		char buy[128] = "";
		if (own->feasible && !own->already_owned && own->gpu)
			snprintf(buy, sizeof buy, " (compare suggests buying %dx %s)",
				 own->gpu_count, own->gpu->name);
		if (owned_only)
			fmt(res->why, sizeof res->why,
			    "%s, and no GPU on hand fits its %.1f GiB; add one under owned:%s or "
			    "relax data",
			    rule, r->vram_gib, buy);
		else
			no_route_why(r, buy, res->why, sizeof res->why);
	} else {
		fmt(res->why, sizeof res->why,
		    "%s; the owned GPUs that fit are busy or outside its window for %.0f%% of "
		    "its work; widen the window or days, move the deadline, raise its "
		    "priority over equal-cost jobs, or add GPUs",
		    owned_only ? rule : "no rented or api route can run it", frac * 100);
	}
}

/* The most copies of a job's rented configuration the same-hour split
 * runs at once: a policy bound, that of one route's GPUs
 * (WORKLOAD_MAX_GPUS), so a job that needs more is left unplaced. */
#define SCHED_MAX_COPIES WORKLOAD_MAX_GPUS

/* gpu_runs in the hours the job's owned runs leave free, then, for a job
 * that may split (struct sched_job.split), in further copies over all its
 * allowed hours, owned ones included, while work is left and a copy still
 * places some; returns the hours placed. */
static double split_runs(struct builder *b, size_t j, enum route k, const struct route_result *x,
                         double need, size_t *cap, double *cost, int *rc)
{
	const int16_t *at = &b->sol.pool[j * b->out->n_slots];
	double got = gpu_runs(b, j, k, x, at, need, cap, cost, rc);
	for (int copy = 1;
	     !*rc && b->jobs[j].split && copy < SCHED_MAX_COPIES && need - got > FRACTION_EPS;
	     copy++) {
		double more = gpu_runs(b, j, k, x, NULL, need - got, cap, cost, rc);
		if (!(more > FRACTION_EPS))
			break;
		got += more;
	}
	return got;
}

/* The mix's peak of job j (mix_option) when the solver put its base in
 * every allowed slot: in each slot, by the slot's local hour, the mix's
 * peak replicas of its peak route, consecutive slots of one count as one
 * run. Per real day of this calendar month, where compare's mix counts
 * its nominal month's days. A rented run costs its replica-hours at the
 * offer's price plus its setup (as gpu_runs' do); a serverless one its
 * busy seconds and cold starts (plan_mix's terms) of its hours. Returns
 * false, placing nothing, when the base is not in every allowed slot;
 * else tags the job's owned runs from base_runs on as the mix's base. */
static bool mix_runs(struct builder *b, size_t j, size_t base_runs, size_t *cap, double *cost,
                     int *rc)
{
	struct schedule *s = b->out;
	const struct route_mix *m = &b->mix[j];
	const int T = s->n_slots;
	const int16_t *at = &b->sol.pool[j * T];
	const unsigned char *al = b->jobs[j].allowed;
	*rc = PLANNER_OK;
	if (b->mix_pool[j] < 0)
		return false;
	for (int t = 0; t < T; t++)
		if (al[t] && at[t] != b->mix_pool[j])
			return false;
	const struct job_result *jr = &b->plan->jobs[j];
	const struct route_result *x = &jr->routes[m->peak_route];
	double cap_o = plan_mix_capacity(jr->job, &jr->routes[m->base_route]);
	double cap_p = plan_mix_capacity(jr->job, x);
	int per = x->gpu_count / x->replicas;
	for (size_t i = base_runs; i < s->n_runs; i++)
		s->runs[i].mix = "base"; /* owned_runs' of job j */
	for (int t = 0; t < T;) {
		int p = al[t] ? m->peak[s->slots[t].minute / 60 % 24] : 0;
		if (p == 0) {
			t++;
			continue;
		}
		int len = 0;
		double c = 0;
		while (t + len < T && al[t + len] &&
		       m->peak[s->slots[t + len].minute / 60 % 24] == p) {
			int h = s->slots[t + len].minute / 60 % 24;
			if (m->per_second) {
				double busy =
				    3600.0 * fmax(0, m->rps[h] - m->owned_replicas * cap_o) / cap_p;
				int before = m->peak[(h + 23) % 24];
				int starts = p > before ? p - before : 0;
				c += (busy +
				      starts * (x->sls.cold_start_s + x->sls.idle_timeout_s)) *
				     x->price_per_hour / 3600.0;
			} else {
				c += x->price_per_hour * p;
			}
			len++;
		}
		struct sched_run *r = new_run(s, cap);
		if (!r) {
			*rc = PLANNER_ESYS;
			return true;
		}
		offer_run(r, j, m->peak_route, x, t, len);
		r->replicas = p;
		r->gpu_count = p * per;
		r->mix = "peak";
		r->hours = len;
		if (!m->per_second) {
			double setup = tco_setup_run(b->spec, p, x->price_per_hour);
			c += setup;
			s->setup_cost += setup;
		}
		r->cost = c;
		*cost += c;
		t += len;
	}
	return true;
}

static int place_rest(struct builder *b, size_t j, size_t *cap)
{
	struct schedule *s = b->out;
	const struct job_result *r = &b->plan->jobs[j];
	struct sched_job_result *res = &s->jobs[j];
	double frac = b->sol.rest[j], cost = 0;
	size_t base_runs = s->n_runs;
	int rc = owned_runs(b, j, cap, &cost);
	if (rc)
		return rc;
	double unplaced = 0, rented_short = 0;
	int free_hours = 0;
	if (b->mix[j].found && mix_runs(b, j, base_runs, cap, &cost, &rc)) {
		if (rc)
			return rc;
		frac = 0; /* the mix's base and peak serve the whole load */
	}
	if (frac > FRACTION_EPS) {
		enum route chain[ROUTE_MAX];
		size_t n = route_fallbacks(r, chain);
		double left = frac;
		for (size_t c = 0; c < n && left > FRACTION_EPS; c++) {
			const struct route_result *x = &r->routes[chain[c]];
			if (up_without_hours(b, j, chain[c], x)) {
				const int16_t *at = &b->sol.pool[j * s->n_slots];
				if (!(window_runs(b, j, chain[c], x, at, left, cap, &cost, &rc) > 0) &&
				    !rc)
					window_runs(b, j, chain[c], x, NULL, left, cap, &cost, &rc);
				if (rc)
					return rc;
				left = 0;
				break;
			}
			if (!route_has(chain[c], ROUTE_ON_GPUS)) {
				if ((rc = whole_run(b, j, chain[c], x, left, cap, &cost)))
					return rc;
				left = 0;
				break;
			}
			if (!(x->gpu_hours > 0))
				continue; /* a route on GPUs that needs no hours */
			double need = left * x->gpu_hours * month_scale(b, j);
			double got = split_runs(b, j, chain[c], x, need, cap, &cost, &rc);
			if (rc)
				return rc;
			left = (need - got) / (x->gpu_hours * month_scale(b, j));
			if (left > FRACTION_EPS) {
				rented_short = need - got;
				free_hours = 0;
				for (int t = 0; t < s->n_slots; t++)
					free_hours += b->jobs[j].allowed[t] &&
						      b->sol.pool[j * s->n_slots + t] < 0;
				free_hours -= (int)floor(got + FRACTION_EPS);
			} else {
				left = 0;
			}
		}
		/* What no route of the chain took (none of owned, rented or API
		 * hours can: a rented route that needs no hours included). */
		unplaced = left;
		if (!(unplaced > FRACTION_EPS))
			rented_short = 0, free_hours = 0;
	}
	res->job = r->job;
	res->hours_needed = r->gpu_hours_per_month * month_scale(b, j);
	res->owned_share = 1 - b->sol.rest[j];
	res->unplaced_hours = unplaced * res->hours_needed;
	res->hours_placed = res->hours_needed - res->unplaced_hours;
	res->cost = cost;
	/* The whole month's work is one run shorter than min_run asks. */
	double min_run = r->job->sched.min_run;
	if (min_run > 0 && res->hours_needed > 0 && res->hours_needed < min_run - FRACTION_EPS)
		fmt(res->note, sizeof res->note,
		    "min_run %gh is longer than the month's %.1f h of work: one shorter run",
		    min_run, res->hours_needed);
	if (unplaced > FRACTION_EPS)
		explain(b, j, unplaced, rented_short, free_hours);
	return PLANNER_OK;
}

static int cmp_pool_runs(const void *a, const void *b)
{
	const struct sched_run *x = *(const struct sched_run *const *)a;
	const struct sched_run *y = *(const struct sched_run *const *)b;
	if (x->slot != y->slot)
		return x->slot < y->slot ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

/* Gives each owned run concrete GPUs of its pool: by start time, the
 * lowest-numbered GPUs free then (free then means free for the whole run,
 * since later runs are not assigned yet). */
static int assign_gpus(struct builder *b)
{
	struct schedule *s = b->out;
	struct sched_run **list = malloc((s->n_runs + 1) * sizeof *list);
	if (!list)
		return PLANNER_ESYS;
	for (size_t m = 0; m < b->n_pools; m++) {
		size_t n = 0;
		for (size_t i = 0; i < s->n_runs; i++)
			if (s->runs[i].route == ROUTE_OWNED && s->runs[i].pool == (int)m)
				list[n++] = &s->runs[i];
		qsort(list, n, sizeof *list, cmp_pool_runs);
		int until[SCHED_MAX_POOL_GPUS] = {0};
		for (size_t i = 0; i < n; i++) {
			struct sched_run *r = list[i];
			int need = r->gpu_count;
			for (int g = 0; g < b->pools[m].count && need > 0; g++) {
				if (until[g] > r->slot)
					continue;
				until[g] = r->slot + r->n_slots;
				r->gpus |= (uint64_t)1 << g;
				need--;
			}
			/* The solver never exceeds a pool, so there always are enough. */
			size_t len = 0;
			len += (size_t)snprintf(r->resource, sizeof r->resource, "%s",
						b->pools[m].name);
			const char *sep = " #";
			for (int g = 0; g < SCHED_MAX_POOL_GPUS && len < sizeof r->resource; g++) {
				if (!(r->gpus >> g & 1))
					continue;
				len += (size_t)snprintf(r->resource + len, sizeof r->resource - len,
							"%s%d", sep, b->pinfo[m].first + g + 1);
				sep = ",#";
			}
		}
	}
	free(list);
	return PLANNER_OK;
}

static int cmp_runs(const void *a, const void *b)
{
	const struct sched_run *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	if (x->route != y->route)
		return (int)x->route - (int)y->route;
	return strcmp(x->resource, y->resource);
}

static int build_resources(struct builder *b)
{
	struct schedule *s = b->out;
	size_t n = 0;
	for (size_t m = 0; m < b->n_pools; m++)
		n += (size_t)b->pools[m].count;
	s->resources = calloc(n + 1, sizeof *s->resources);
	if (!s->resources)
		return PLANNER_ESYS;
	for (size_t m = 0; m < b->n_pools; m++)
		for (int g = 0; g < b->pools[m].count; g++) {
			struct sched_resource *r = &s->resources[s->n_resources++];
			snprintf(r->name, sizeof r->name, "%s #%d", b->pools[m].name,
				 b->pinfo[m].first + g + 1);
			r->pool = (int)m;
			r->hours_available = s->n_slots;
			for (size_t i = 0; i < s->n_runs; i++) {
				const struct sched_run *run = &s->runs[i];
				if (run->route == ROUTE_OWNED && run->pool == (int)m &&
				    (run->gpus >> g & 1))
					r->hours_used += run->hours;
			}
		}
	return PLANNER_OK;
}

/* The owned pools' fixed month (tco_owned_month_of) at the hours the
 * runs keep their GPUs busy, over the calendar month's hours (compare's
 * month is HOURS_PER_MONTH), into the total and the owned route. */
static void owned_fixed(struct builder *b)
{
	struct schedule *s = b->out;
	for (size_t m = 0; m < b->n_pools; m++) {
		if (b->pinfo[m].commit) /* the provider's hosts and power */
			continue;
		double gpu_hours = 0;
		for (size_t i = 0; i < s->n_runs; i++)
			if (s->runs[i].route == ROUTE_OWNED && s->runs[i].pool == (int)m)
				gpu_hours += s->runs[i].hours * s->runs[i].gpu_count;
		int n = b->pools[m].count;
		struct tco_owned t;
		tco_owned_month_of(b->spec, b->pinfo[m].gpu, n, 0, b->pinfo[m].watts,
		                   b->pinfo[m].idle_watts, gpu_hours / n, s->n_slots, true, &t);
		s->owned_fixed += t.fixed;
	}
	if (s->owned_fixed > 0) {
		s->route_cost[ROUTE_OWNED] += s->owned_fixed;
		s->total_cost += s->owned_fixed;
	}
}

static void builder_free(struct builder *b)
{
	free(b->pinfo);
	free(b->jobs);
	free(b->opts);
	free(b->allowed);
	free(b->allowed_n);
	free(b->mix);
	free(b->mix_pool);
	sched_solution_free(&b->sol);
}

int schedule_month(const struct jobspec *spec, const struct plan *plan, int year, int month,
		   unsigned flags, struct schedule **out, char **err)
{
	struct builder b = {.spec = spec, .plan = plan};
	int rc;
	*out = NULL;
	struct schedule *s = calloc(1, sizeof *s);
	if (!s)
		return set_err(err, PLANNER_ESYS, "out of memory");
	b.out = s;
	snprintf(s->month, sizeof s->month, "%04d-%02d", year, month);
	snprintf(s->timezone, sizeof s->timezone, "%s", spec->timezone ? spec->timezone : "UTC");
	snprintf(s->currency, sizeof s->currency, "%s", spec->currency);
	snprintf(s->prices_as_of, sizeof s->prices_as_of, "%s", plan->prices_as_of);
	if (plan->n_jobs != spec->n_jobs) {
		rc = set_err(err, PLANNER_EINPUT, "the plan does not match the job spec");
		goto fail;
	}
	if ((rc = sched_month_slots(s->timezone, year, month, &s->slots, &s->n_slots, err)) ||
	    (rc = build_pools(&b, err)) || (rc = build_jobs(&b, err)))
		goto fail;
	s->pools = b.pools;
	s->n_pools = b.n_pools; /* s owns the pools now; b keeps a view */
	struct sched_problem p = {.baseline = flags & SCHEDULE_BASELINE, .n_slots = s->n_slots, .pools = s->pools, .n_pools = s->n_pools,
				  .jobs = b.jobs, .n_jobs = spec->n_jobs};
	p.no_exact = flags & SCHEDULE_NO_EXACT;
	p.quick = flags & SCHEDULE_QUICK;
	if ((rc = sched_solve(&p, &b.sol, err)))
		goto fail;
	s->jobs = calloc(spec->n_jobs + 1, sizeof *s->jobs);
	if (!s->jobs) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto fail;
	}
	s->n_jobs = spec->n_jobs;
	size_t cap = 0;
	for (size_t j = 0; j < spec->n_jobs; j++)
		if ((rc = place_rest(&b, j, &cap))) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			goto fail;
		}
	if (assign_gpus(&b) || build_resources(&b)) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < s->n_runs; i++) {
		struct sched_run *r = &s->runs[i];
		set_times(s, r);
		s->route_cost[r->route] += r->cost;
		s->route_hours[r->route] += r->hours;
	}
	if (s->n_runs > 1) /* a month with no runs has runs == NULL */
		qsort(s->runs, s->n_runs, sizeof *s->runs, cmp_runs);
	for (size_t j = 0; j < s->n_jobs; j++)
		s->total_cost += s->jobs[j].cost;
	owned_fixed(&b);
	builder_free(&b);
	*out = s;
	return PLANNER_OK;
fail:
	if (!s->pools)
		free(b.pools);
	builder_free(&b);
	schedule_free(s);
	return rc;
}

void schedule_free(struct schedule *s)
{
	if (!s)
		return;
	free(s->slots);
	free(s->runs);
	free(s->jobs);
	free(s->resources);
	free(s->pools);
	free(s);
}
