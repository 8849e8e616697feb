/* plan_total.c — the plan compare prints, summed once (plan.h): compare's
 * summary line, fleet's line for the same plan and the report's first
 * screen all read this one sum. */
#include <math.h>
#include <string.h>

#include "plan.h"

void plan_total(const struct plan *p, struct plan_total *t)
{
	memset(t, 0, sizeof *t);
	for (size_t i = 0; i < p->n_jobs; i++) {
		const struct job_result *j = &p->jobs[i];
		if (j->best < 0) {
			t->unrunnable++;
			continue;
		}
		const struct route_result *b = &j->routes[j->best];
		t->by_route[j->best] += b->monthly_cost;
		t->jobs_on[j->best]++;
		t->monthly += b->monthly_cost;
		/* A purchase pays back against renting (the owned route's pair). */
		if (!route_has((enum route)j->best, ROUTE_HAS_CAPEX) || b->already_owned)
			continue;
		double payback = j->be.value[BREAKEVEN_OWNED_PAYBACK];
		t->capex += b->capex;
		if (b->capex > 0 && isfinite(payback) && payback > 0)
			t->saving += b->capex / payback;
		else
			t->late += j->be.note[BREAKEVEN_OWNED_PAYBACK][0] != '\0';
	}
}

double plan_total_payback(const struct plan_total *t)
{
	return t->capex > 0 && t->saving > 0 ? t->capex / t->saving : NAN;
}
