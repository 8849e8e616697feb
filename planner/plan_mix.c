/* plan_mix.c — the cheapest owned-base + rented/serverless-peak mix of a
 * serving job with an hourly load shape (plan_mix.h; docs/estimation.md,
 * "Traffic shape").
 *
 * Every day the schedule allows is the same 24 local hours of load
 * (job_load_rps_at_hour), so the nominal month is `days` copies of them.
 * In each hour the base's k replicas serve what they can; the rest goes
 * to the peak route, in whole replicas an hour when it bills by the
 * hour, in busy seconds plus a cold start (and the idle wait until
 * scale-down) each time a worker is added when it bills by the second.
 * Reserved or committed capacity (issue 29 item 6, not done) would enter
 * as a third tier between the two: a fixed monthly price for j replicas,
 * chosen by the same search over (k, j). */
#include "plan_mix.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tco.h"
#include "util.h"

int plan_mix_replicas(double rps, double cap)
{
	if (rps <= 0 || cap <= 0)
		return 0;
	/* A share a millionth over a whole replica is rounding, not load. */
	return (int)ceil(rps / cap - 1e-6);
}

double plan_mix_capacity(const struct job *j, const struct route_result *rr)
{
	if (!rr->feasible || rr->replicas <= 0 || rr->tokens_per_second <= 0 ||
	    j->request_output <= 0)
		return 0;
	double cap = rr->tokens_per_second / rr->replicas / j->request_output;
	double peak = job_load_peak_rps(j);
	if (rr->slo_sized && peak > 0 && peak / rr->replicas < cap)
		cap = peak / rr->replicas; /* latency binds before throughput */
	return cap;
}

/* The base route's month with k replicas serving what they can of m's
 * load; fills m->base. */
static double base_month(const struct jobspec *spec, const struct route_result *o, double cap,
                         int k, struct route_mix *m)
{
	if (k == 0) {
		memset(m->base, 0, sizeof m->base);
		return 0;
	}
	double replica_hours = 0;
	for (int h = 0; h < 24; h++) {
		m->base[h] = plan_mix_replicas(fmin(m->rps[h], k * cap), cap);
		replica_hours += m->days * m->base[h];
	}
	int per = o->gpu_count / o->replicas;
	struct tco_owned t;
	tco_owned_month(spec, o->gpu, k * per, o->capex_per_gpu, o->watts, o->idle_watts,
	                replica_hours / k, o->already_owned, &t);
	return t.monthly;
}

/* The peak route p's month for the load above k base replicas; fills
 * m->peak and its hours, replica-hours or busy seconds. */
static double peak_month(const struct route_result *p, double cap_p, double cap_o, int k,
                         bool per_second, struct route_mix *m)
{
	double busy_s = 0, starts = 0, replica_hours = 0, hours = 0;
	m->peak_min = 0;
	m->peak_max = 0;
	for (int h = 0; h < 24; h++) {
		double rest = fmax(0, m->rps[h] - k * cap_o);
		m->peak[h] = plan_mix_replicas(rest, cap_p);
		if (m->peak[h] == 0)
			continue;
		hours += m->days;
		replica_hours += m->days * m->peak[h];
		busy_s += m->days * 3600.0 * rest / cap_p;
		int before = m->peak[(h + 23) % 24];
		starts += m->days * (m->peak[h] > before ? m->peak[h] - before : 0);
		if (m->peak_min == 0 || m->peak[h] < m->peak_min)
			m->peak_min = m->peak[h];
		if (m->peak[h] > m->peak_max)
			m->peak_max = m->peak[h];
	}
	m->peak_hours = hours;
	m->rented_replica_hours = per_second ? 0 : replica_hours;
	m->serverless_busy_s = per_second ? busy_s : 0;
	m->serverless_starts = per_second ? starts : 0;
	if (!per_second)
		return replica_hours * p->price_per_hour;
	/* price_per_hour is the worker's per-second price x 3600. */
	double billed = busy_s + starts * (p->sls.cold_start_s + p->sls.idle_timeout_s);
	return billed * p->price_per_hour / 3600.0;
}

/* Whether j's load has an hourly shape a mix can follow. */
static bool shaped(const struct job *j)
{
	return j->load.given && (j->load.has_profile || j->load.peak_factor > 0) &&
	       job_load_peak_rps(j) > 0;
}

void plan_mix(const struct jobspec *spec, const struct job_result *r, struct route_mix *m)
{
	memset(m, 0, sizeof *m);
	m->best_single = NAN;
	const struct job *j = r->job;
	if (!shaped(j))
		return;
	m->days = schedule_month_days(&j->sched);
	for (int h = 0; h < 24; h++)
		m->rps[h] = job_load_rps_at_hour(j, h);
	for (size_t b = 0; b < route_count(); b++) {
		const struct route_result *rb = &r->routes[b];
		if (rb->feasible && (isnan(m->best_single) || rb->monthly_cost < m->best_single))
			m->best_single = rb->monthly_cost;
	}
	struct route_mix best = *m, try = *m;
	best.monthly_cost = INFINITY;
	for (size_t b = 0; b < route_count(); b++) {
		const struct route_result *o = &r->routes[b];
		double cap_o = plan_mix_capacity(j, o);
		if (!route_has((enum route)b, ROUTE_HAS_CAPACITY) || cap_o <= 0 || !o->gpu)
			continue;
		for (size_t q = 0; q < route_count(); q++) {
			const struct route_result *p = &r->routes[q];
			double cap_p = plan_mix_capacity(j, p);
			bool per_second = !route_has((enum route)q, ROUTE_HOURLY);
			/* A rental on a commitment is a whole month's capacity
			 * at its effective rate, not hours bought for the peak. */
			if (q == b || route_has((enum route)q, ROUTE_HAS_CAPACITY) || cap_p <= 0 ||
			    !p->gpu || (per_second && p->sls.always_on) || p->term[0])
				continue;
			for (int k = 0; k <= o->replicas; k++) {
				try.base_route = (enum route)b;
				try.peak_route = (enum route)q;
				try.per_second = per_second;
				try.owned_replicas = k;
				try.base_cost = base_month(spec, o, cap_o, k, &try);
				try.peak_cost = peak_month(p, cap_p, cap_o, k, per_second, &try);
				try.monthly_cost = try.base_cost + try.peak_cost;
				if (try.monthly_cost < best.monthly_cost)
					best = try;
			}
		}
	}
	/* One route alone (no base, or no peak left) is compare's own rows. */
	best.found = isfinite(best.monthly_cost) && best.owned_replicas > 0 && best.peak_hours > 0;
	best.beats_every_route = best.found && best.monthly_cost < best.best_single;
	*m = best;
}

int plan_mix_all(struct plan *p, const struct jobspec *spec, char **err)
{
	bool any = false;
	for (size_t i = 0; i < p->n_jobs && !any; i++)
		any = shaped(p->jobs[i].job);
	if (!any)
		return PLANNER_OK;
	if (!(p->mixes = calloc(p->n_jobs, sizeof *p->mixes)))
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t i = 0; i < p->n_jobs; i++) {
		plan_mix(spec, &p->jobs[i], &p->mixes[i]);
		if (p->mixes[i].found)
			p->jobs[i].mix = &p->mixes[i];
	}
	return PLANNER_OK;
}

void plan_mix_text(char *buf, size_t len, const struct route_mix *m, const struct job_result *r,
                   const char *cur)
{
	const struct route_result *o = &r->routes[m->base_route], *p = &r->routes[m->peak_route];
	char range[32];
	if (m->peak_min == m->peak_max)
		snprintf(range, sizeof range, "%d", m->peak_max);
	else
		snprintf(range, sizeof range, "%d-%d", m->peak_min, m->peak_max);
	char beats[96];
	if (m->beats_every_route)
		snprintf(beats, sizeof beats, "beats every single route");
	else
		snprintf(beats, sizeof beats, "the cheapest single route is %.2f", m->best_single);
	snprintf(buf, len,
	         "  mix: %d %s %dx %s base + %s %dx %s peak (%.0f h x %s replica%s), %.2f + %.2f "
	         "= %.2f %s a month, %s",
	         m->owned_replicas, route_name(m->base_route), o->gpu_count / o->replicas,
	         o->gpu->name, route_name(m->peak_route), p->gpu_count / p->replicas, p->gpu->name,
	         m->peak_hours, range, m->peak_max == 1 ? "" : "s", m->base_cost, m->peak_cost,
	         m->monthly_cost, cur, beats);
}

void plan_mix_json(cJSON *o, const struct route_mix *m, const struct job_result *r)
{
	const struct route_result *b = &r->routes[m->base_route], *p = &r->routes[m->peak_route];
	cJSON *x = cJSON_AddObjectToObject(o, "mix");
	cJSON_AddStringToObject(x, "base_route", route_name(m->base_route));
	cJSON_AddStringToObject(x, "base_gpu", b->gpu->name);
	cJSON_AddNumberToObject(x, "owned_replicas", m->owned_replicas);
	cJSON_AddStringToObject(x, "peak_route", route_name(m->peak_route));
	cJSON_AddStringToObject(x, "peak_gpu", p->gpu->name);
	cJSON_AddNumberToObject(x, "peak_hours", round_to(m->peak_hours, 2));
	if (m->per_second) {
		cJSON_AddNumberToObject(x, "serverless_busy_s", round_to(m->serverless_busy_s, 0));
		cJSON_AddNumberToObject(x, "serverless_starts", round_to(m->serverless_starts, 2));
	} else {
		cJSON_AddNumberToObject(x, "rented_replica_hours",
		                        round_to(m->rented_replica_hours, 2));
	}
	cJSON_AddNumberToObject(x, "base_monthly_cost", round_to(m->base_cost, 2));
	cJSON_AddNumberToObject(x, "peak_monthly_cost", round_to(m->peak_cost, 2));
	cJSON_AddNumberToObject(x, "monthly_cost", round_to(m->monthly_cost, 2));
	cJSON_AddBoolToObject(x, "beats_every_route", m->beats_every_route);
	cJSON_AddNumberToObject(x, "days", round_to(m->days, 2));
	cJSON *hours = cJSON_AddArrayToObject(x, "hours");
	for (int h = 0; h < 24; h++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "hour", h);
		cJSON_AddNumberToObject(e, "requests_per_second", round_to(m->rps[h], 4));
		cJSON_AddNumberToObject(e, "base", m->base[h]);
		cJSON_AddNumberToObject(e, "peak", m->peak[h]);
		cJSON_AddItemToArray(hours, e);
	}
}
