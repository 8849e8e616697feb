/* horizon.c — each route of a job month by month as its volume grows, on
 * a cash basis (see horizon.h): the API and rented bills grow with the
 * volume; owned GPUs are paid when bought (the first sets in month 1,
 * more when the volume outgrows them), then their power and upkeep, and
 * their resale comes back in month amortize_months. */
#include "horizon.h"

#include <math.h>
#include <stdlib.h>

#include "util.h"

int horizon_months(const struct jobspec *spec)
{
	return spec->horizon_months > 0 ? spec->horizon_months : (int)spec->amortize_months;
}

/* The most GPUs of o's kind the owned route may have: those on hand, or
 * a route's bound when it buys. */
static double on_hand_max(const struct jobspec *spec, const struct route_result *o)
{
	if (!o->already_owned)
		return WORKLOAD_MAX_GPUS;
	int n = 0;
	for (size_t i = 0; i < spec->n_owned; i++)
		if (spec->owned[i].gpu == o->gpu)
			n += spec->owned[i].count;
	return n;
}

/* The owned route in month m at volume factor f: sets needed (never fewer
 * than before: a purchase is kept), what the new ones cost and the month's
 * running cost. NAN when GPUs on hand no longer carry the volume. */
static double owned_month(const struct jobspec *spec, const struct job *j,
                          const struct route_result *o, double f, int m, int *sets)
{
	int base = o->replicas > 0 ? o->replicas : 1;
	/* The sets the volume needs and the hours they run. With tokens, one
	 * set needs work_hours x f for them, within the job's hours (when
	 * given, every set runs them) or a month; with hours only, each set
	 * runs its hours x f, more sets once that passes a month. */
	double need, set_hours;
	if (j->has_tokens) {
		double work = o->work_hours * f;
		double cap = j->has_hours ? j->hours_per_month : HOURS_PER_MONTH;
		need = fmax(1, ceil(work / cap - 1e-9));
		set_hours = j->has_hours ? need * j->hours_per_month : work;
	} else {
		double per_set = o->gpu_hours * f;
		need = base * fmax(1, ceil(per_set / HOURS_PER_MONTH - 1e-9));
		set_hours = per_set * base;
	}
	if (m == 1)
		need = base;
	if (need * (o->gpu_count / base) > on_hand_max(spec, o))
		return NAN;
	int before = *sets;
	if (need > *sets)
		*sets = (int)need;
	double per_set_capex = o->capex / base;
	/* running: the fixed part (upkeep, always-on power) per set, and the
	 * hourly part per set-hour (tco.h); capital is the cash below */
	double fixed = (o->tco.fixed - o->tco.capital) / base;
	double per_set_hour = o->tco.per_hour / base;
	double cost = (*sets - before) * per_set_capex + fixed * *sets + per_set_hour * set_hours;
	if (m == (int)spec->amortize_months)
		cost -= o->tco.resale / base * *sets;
	return cost;
}

/* The first month from which the route that buys (ROUTE_HAS_CAPEX: owned)
 * has cost no more than the cheapest of the others, to the end; 0 when
 * none. */
static int pays_from(const struct horizon *h)
{
	int from = 0;
	for (int i = h->months - 1; i >= 0; i--) {
		const double *c = h->m[i].cum;
		double owned = NAN, other = INFINITY;
		for (int k = 0; k < (int)route_count(); k++) {
			if (route_has((enum route)k, ROUTE_HAS_CAPEX))
				owned = c[k];
			else if (isfinite(c[k]))
				other = fmin(other, c[k]);
		}
		if (!isfinite(owned) || !isfinite(other) || owned > other + 1e-9)
			break;
		from = i + 1;
	}
	return from;
}

int horizon_job(const struct jobspec *spec, const struct job_result *res, struct horizon *out,
                char **err)
{
	out->months = horizon_months(spec);
	double g = isnan(res->job->growth_percent) ? spec->growth_percent
	                                           : res->job->growth_percent;
	out->growth_percent = g;
	out->owned_pays_from = 0;
	if (!(out->m = calloc((size_t)out->months, sizeof *out->m)))
		return set_err(err, PLANNER_ESYS, "out of memory");
	int sets = 0;
	double cum[ROUTE_MAX] = {0};
	for (int i = 0; i < out->months; i++) {
		double f = pow(1 + g / 100.0, i);
		struct horizon_month *hm = &out->m[i];
		for (int k = 0; k < (int)route_count(); k++) {
			const struct route_result *r = &res->routes[k];
			double c = !r->feasible        ? NAN
			           : route_has((enum route)k, ROUTE_HAS_CAPEX)
			                 ? owned_month(spec, res->job, r, f, i + 1, &sets)
			                 : r->monthly_cost * f;
			hm->cost[k] = c;
			cum[k] += c; /* NAN stays NAN: the route stopped */
			hm->cum[k] = cum[k];
		}
	}
	out->owned_pays_from = pays_from(out);
	return PLANNER_OK;
}

void horizon_free(struct horizon *h)
{
	if (!h)
		return;
	free(h->m);
	h->m = NULL;
}

/* A job's month without buying: the cheapest of the API, renting and
 * GPUs on hand; NAN when none runs it. */
static double no_buy_cost(const struct job_result *res, const struct horizon_month *hm)
{
	double best = NAN;
	for (int k = 0; k < (int)route_count(); k++) {
		bool bought = route_has((enum route)k, ROUTE_HAS_CAPEX) && !res->routes[k].already_owned;
		if (!bought && isfinite(hm->cost[k]) && !(hm->cost[k] >= best))
			best = hm->cost[k];
	}
	return best;
}

/* Adds job res's months to the plan's (monthly, not yet cumulative). */
static void add_job(const struct job_result *res, const struct horizon *h,
                    struct horizon_plan *out)
{
	for (int i = 0; i < out->months; i++) {
		double without = no_buy_cost(res, &h->m[i]);
		double with = res->best >= 0 ? h->m[i].cost[res->best] : NAN;
		if (!isfinite(with))
			with = without;
		/* a job no route runs without buying costs the same either way */
		if (!isfinite(without))
			without = with;
		out->with_buy[i] += isfinite(with) ? with : 0;
		out->without_buy[i] += isfinite(without) ? without : 0;
	}
	if (res->best >= 0 && route_has((enum route)res->best, ROUTE_HAS_CAPEX) &&
	    !res->routes[res->best].already_owned)
		out->capex += res->routes[res->best].capex;
}

int horizon_plan(const struct jobspec *spec, const struct plan *p, struct horizon_plan *out,
                 char **err)
{
	out->months = horizon_months(spec);
	out->capex = 0;
	out->pays_from = 0;
	out->with_buy = calloc((size_t)out->months, sizeof *out->with_buy);
	out->without_buy = calloc((size_t)out->months, sizeof *out->without_buy);
	if (!out->with_buy || !out->without_buy) {
		horizon_plan_free(out);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	for (size_t j = 0; j < p->n_jobs; j++) {
		struct horizon h;
		int rc = horizon_job(spec, &p->jobs[j], &h, err);
		if (rc != PLANNER_OK) {
			horizon_plan_free(out);
			return rc;
		}
		add_job(&p->jobs[j], &h, out);
		horizon_free(&h);
	}
	for (int i = 1; i < out->months; i++) {
		out->with_buy[i] += out->with_buy[i - 1];
		out->without_buy[i] += out->without_buy[i - 1];
	}
	for (int i = out->months - 1; out->capex > 0 && i >= 0; i--) {
		if (out->with_buy[i] > out->without_buy[i] + 1e-9)
			break;
		out->pays_from = i + 1;
	}
	return PLANNER_OK;
}

void horizon_plan_free(struct horizon_plan *h)
{
	if (!h)
		return;
	free(h->with_buy);
	free(h->without_buy);
	h->with_buy = h->without_buy = NULL;
}
