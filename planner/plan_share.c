/* plan_share.c — the GPUs on hand shared across a plan's jobs
 * (docs/design.md, "Owned capacity in compare"). Each job was priced
 * alone, as if it had every GPU on hand. Here the jobs whose cheapest
 * route runs on GPUs on hand claim them, those that save most per
 * GPU-hour against their next-best route first (on a tie the higher
 * priority, then the spec's order). A job that no longer fits — more GPUs
 * of the kind at once than are left, or more GPU-hours than the count x
 * 744 h left — is priced again on what is left and takes its
 * next-cheapest route: other GPUs on hand, buying, renting or the API.
 * Purchases stay each job's own (fleet.c buys for all jobs together). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route_price.h"
#include "util.h"

/* A job whose cheapest route runs on GPUs on hand. */
struct claim {
	size_t job;
	double per_hour; /* saving per GPU-hour against its next-best route; INFINITY: none */
	int priority;
};

/* What the jobs served so far have left of each owned: entry. */
struct stock {
	int *gpus;
	double *hours;
	size_t n;
};

static size_t owned_k(void)
{
	return (size_t)route_index(&route_owned);
}

/* res's owned route priced again with free[i] GPUs of owned: entry i
 * (into *out); res itself is left as it was. */
static int owned_on(const struct route_ctx *base, struct job_result *res, const int *free,
                    struct route_result *out, char **err)
{
	size_t k = owned_k();
	struct route_result keep = res->routes[k];
	struct route_ctx c;
	plan_job_ctx(base, res, &c);
	c.owned_free = free;
	int rc = plan_price_route(&c, k, err);
	*out = res->routes[k];
	res->routes[k] = keep;
	return rc;
}

/* The cheapest of res's routes with `own` in the owned route's place. */
static double cheapest_with(const struct job_result *res, const struct route_result *own)
{
	double best = INFINITY;
	for (size_t k = 0; k < route_count(); k++) {
		const struct route_result *r = k == owned_k() ? own : &res->routes[k];
		if (r->feasible && r->monthly_cost < best)
			best = r->monthly_cost;
	}
	return best;
}

static bool on_hand_best(const struct job_result *res)
{
	return res->best == (int)owned_k() && res->routes[res->best].already_owned;
}

static double gpu_hours_of(const struct route_result *r)
{
	return r->gpu_count * r->gpu_hours;
}

/* Most saving per GPU-hour first, then the higher priority, then the
 * spec's order. */
static int cmp_claim(const void *a, const void *b)
{
	const struct claim *x = a, *y = b;
	if (x->per_hour != y->per_hour)
		return x->per_hour > y->per_hour ? -1 : 1;
	if (x->priority != y->priority)
		return x->priority > y->priority ? -1 : 1;
	return x->job < y->job ? -1 : x->job > y->job;
}

/* The claim of job i: what it saves per GPU-hour on the GPUs on hand it
 * chose, against its best route without that owned: entry. */
static int make_claim(const struct route_ctx *base, struct plan *p, size_t i,
                      const struct stock *full, struct claim *out, char **err)
{
	struct job_result *res = &p->jobs[i];
	const struct route_result *own = &res->routes[owned_k()];
	int e = own->owned_entry, rc = PLANNER_OK;
	struct route_result alt;
	if (!isnan(own->owned_alt_cost)) { /* the first pass's answer */
		alt = (struct route_result){.feasible = isfinite(own->owned_alt_cost),
		                            .monthly_cost = own->owned_alt_cost};
	} else {
		int saved = full->gpus[e];
		full->gpus[e] = 0;
		rc = owned_on(base, res, full->gpus, &alt, err);
		full->gpus[e] = saved;
	}
	double next = cheapest_with(res, &alt);
	double hours = gpu_hours_of(own);
	*out = (struct claim){
	    .job = i,
	    .per_hour = isfinite(next) && hours > 0 ? (next - own->monthly_cost) / hours : INFINITY,
	    .priority = res->job->sched.priority};
	return rc;
}

/* Whether r (on hand) fits in what is left; takes it when it does. */
static bool take(struct stock *s, const struct route_result *r)
{
	int e = r->owned_entry;
	double h = gpu_hours_of(r);
	if (r->gpu_count > s->gpus[e] || h > s->hours[e] + 1e-6)
		return false;
	s->gpus[e] -= r->gpu_count;
	s->hours[e] -= h;
	return true;
}

/* What a route does, in diff's words ("rent 1x RTX 3090 at vast"). */
static void route_decision(char *buf, size_t len, const struct route_result *r)
{
	const struct route_ops *ops = route_at((size_t)r->route);
	if (ops && ops->decision)
		ops->decision(buf, len, r);
	else
		snprintf(buf, len, "%s", route_name(r->route));
}

static void move_reason(struct capacity_move *m)
{
	const char *g = m->gpu->name;
	if (m->gpus_needed > m->gpus_left)
		snprintf(
		    m->reason, sizeof m->reason,
		    "needs %d %s at once; %d of the %d on hand are left to it: jobs saving more "
		    "per GPU-hour (or as much, at a higher priority) came first",
		    m->gpus_needed, g, m->gpus_left, m->on_hand);
	else
		snprintf(
		    m->reason, sizeof m->reason,
		    "needs %.0f GPU-hours of %s a month; %.0f of the %.0f on hand are left to "
		    "it: jobs saving more per GPU-hour (or as much, at a higher priority) came "
		    "first",
		    m->hours_needed, g, m->hours_left, m->on_hand * HOURS_PER_MONTH);
}

/* Moves job i, which does not fit, to its next-cheapest route on what
 * is left (owned on other GPUs on hand, if they fit, included). */
static int move_job(const struct route_ctx *base, struct plan *p, size_t i, struct stock *s,
                    int *free, char **err)
{
	struct job_result *res = &p->jobs[i];
	struct route_result *own = &res->routes[owned_k()];
	struct capacity_move *m = &p->moves[p->n_moves++];
	int e = own->owned_entry;
	*m = (struct capacity_move){.job = i,
	                            .gpu = own->gpu,
	                            .entry = e,
	                            .on_hand = base->spec->owned[e].count,
	                            .from_route = own->route,
	                            .from_cost = own->monthly_cost,
	                            .gpus_needed = own->gpu_count,
	                            .gpus_left = s->gpus[e],
	                            .hours_needed = gpu_hours_of(own),
	                            .hours_left = s->hours[e]};
	move_reason(m);
	route_decision(m->from_what, sizeof m->from_what, own);
	memcpy(free, s->gpus, s->n * sizeof *free);
	free[e] = own->gpu_count > s->gpus[e] ? s->gpus[e] : 0;
	struct route_result alt;
	int rc;
	/* Each pass rules out one more entry whose hours are short. */
	for (size_t tries = 0; tries <= s->n; tries++) {
		if ((rc = owned_on(base, res, free, &alt, err)))
			return rc;
		if (!alt.feasible || !alt.already_owned ||
		    gpu_hours_of(&alt) <= s->hours[alt.owned_entry] + 1e-6)
			break;
		free[alt.owned_entry] = 0;
		alt.feasible = false;
	}
	if (!alt.feasible || (alt.already_owned && !take(s, &alt))) {
		memset(&alt, 0, sizeof alt);
		alt.route = own->route;
		snprintf(alt.why, sizeof alt.why, "shared GPUs on hand: %s", m->reason);
	}
	*own = alt;
	struct route_ctx c;
	plan_job_ctx(base, res, &c);
	plan_job_finish(&c);
	m->to_route = res->best;
	m->to_cost = res->best >= 0 ? res->routes[res->best].monthly_cost : NAN;
	if (res->best >= 0)
		route_decision(m->to_what, sizeof m->to_what, &res->routes[res->best]);
	return PLANNER_OK;
}

int plan_share_owned(const struct route_ctx *base, struct plan *p, char **err)
{
	const struct jobspec *spec = base->spec;
	size_t n_claims = 0;
	int rc = PLANNER_OK;
	struct stock s = {.n = spec->n_owned};
	struct claim *claims = calloc(p->n_jobs + 1, sizeof *claims);
	s.gpus = calloc(s.n + 1, sizeof *s.gpus);
	s.hours = calloc(s.n + 1, sizeof *s.hours);
	int *free_gpus = calloc(s.n + 1, sizeof *free_gpus);
	if (!claims || !s.gpus || !s.hours || !free_gpus) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	for (size_t e = 0; e < s.n; e++) {
		s.gpus[e] = spec->owned[e].count;
		s.hours[e] = spec->owned[e].count * HOURS_PER_MONTH;
	}
	for (size_t i = 0; i < p->n_jobs; i++)
		if (on_hand_best(&p->jobs[i]) &&
		    (rc = make_claim(base, p, i, &s, &claims[n_claims++], err)))
			goto out;
	qsort(claims, n_claims, sizeof *claims, cmp_claim);
	if (!(p->moves = calloc(n_claims + 1, sizeof *p->moves))) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	for (size_t k = 0; k < n_claims; k++) {
		size_t i = claims[k].job;
		if (!take(&s, &p->jobs[i].routes[owned_k()]) &&
		    (rc = move_job(base, p, i, &s, free_gpus, err)))
			goto out;
	}
out:
	free(claims);
	free(s.gpus);
	free(s.hours);
	free(free_gpus);
	return rc;
}
