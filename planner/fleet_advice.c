/* fleet_advice.c — what `planner fleet` advises beyond the search
 * (fleet.h; docs/fleet.md, "The recommendation" and "When the fleet runs
 * out"): the strategy recommended, and over the horizon the spec's volume
 * grown month by month, priced again and scheduled on the recommended
 * fleet, and what to add in the first month its GPUs fall behind. */
#include "fleet.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "horizon.h"
#include "util.h"

/* ---- the recommendation ---- */

/* Whether c does all the work the most complete strategy does. */
static bool does_most(const struct fleet_choice *c, double least_unplaced)
{
	return c->unplaced_hours <= least_unplaced + 0.05;
}

/* The recommendation (struct fleet.recommended): of the strategies that
 * do the most work, the cheapest that pays back within amortize_months
 * or buys nothing; when none does, the cheapest of them. */
void fleet_recommend(const struct jobspec *spec, struct fleet *f)
{
	const struct fleet_choice *ch[4] = {&f->best, &f->none, &f->per_job, &f->given};
	double least = INFINITY;
	for (int k = 0; k < 4; k++)
		if (ch[k]->sched && ch[k]->unplaced_hours < least)
			least = ch[k]->unplaced_hours;
	int pick = -1, any = -1;
	for (int k = 0; k < 4; k++) {
		const struct fleet_choice *c = ch[k];
		if (!c->sched || !does_most(c, least))
			continue;
		if (any < 0 || c->monthly_total < ch[any]->monthly_total - FLEET_COST_EPS)
			any = k;
		bool pays = !(c->capex > 0) || isfinite(fleet_payback(spec, c, &f->none));
		if (pays &&
		    (pick < 0 || c->monthly_total < ch[pick]->monthly_total - FLEET_COST_EPS))
			pick = k;
	}
	f->recommended = (enum fleet_pick)(pick >= 0 ? pick : any);
}

const struct fleet_choice *fleet_recommended(const struct fleet *f)
{
	const struct fleet_choice *ch[4] = {&f->best, &f->none, &f->per_job, &f->given};
	return ch[f->recommended];
}

struct schedule *fleet_take_recommended(struct fleet *f)
{
	/* f is not const here: the choice fleet_recommended finds is f's own. */
	struct fleet_choice *c = (struct fleet_choice *)fleet_recommended(f);
	struct schedule *s = c->sched;
	c->sched = NULL;
	return s;
}

const char *fleet_pick_name(enum fleet_pick p)
{
	static const char *const names[] = {"fleet", "buy_nothing", "one_purchase_per_job",
	                                    "given"};
	return names[p];
}

/* ---- the horizon: when the fleet runs out ---- */

/* A job's growth a month, percent: its own, else the spec's. */
static double job_growth(const struct jobspec *spec, const struct job *j)
{
	return isnan(j->growth_percent) ? spec->growth_percent : j->growth_percent;
}

/* spec with every job's volume grown over `months` months into *grown (a
 * shallow copy whose jobs array it owns: free it with free(grown->jobs)):
 * tokens, and given hours unless the job is up all month. */
static int grow_spec(const struct jobspec *spec, int months, struct jobspec *grown, char **err)
{
	*grown = *spec;
	grown->jobs = calloc(spec->n_jobs + 1, sizeof *grown->jobs);
	if (!grown->jobs)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t j = 0; j < spec->n_jobs; j++) {
		struct job *g = &grown->jobs[j];
		*g = spec->jobs[j];
		double f = pow(1 + job_growth(spec, g) / 100.0, months);
		g->input_tokens *= f;
		g->output_tokens *= f;
		if (g->has_hours && g->serving == SERVING_ON_DEMAND)
			g->hours_per_month *= f;
	}
	return PLANNER_OK;
}

/* What the horizon's month k (1..) is checked against. */
struct runout_ctx {
	const struct jobspec *spec;
	const struct fleet *f;
	const struct fleet_choice *rec;
	int year, month;
	fleet_replan_fn replan;
	void *ctx;
	const struct schedule *first; /* month 1 on the fleet */
};

/* Month k's spec grown, its plan (replan) and, on the fleet's GPUs, the
 * owned hours it takes and those it would take had they grown with the
 * work; *grown and *plan stay the caller's. */
static int check_month(const struct runout_ctx *c, int k, struct jobspec *grown, struct plan **plan,
                       double *owned, double *expected, char **err)
{
	*plan = NULL;
	int rc = grow_spec(c->spec, k - 1, grown, err);
	if (rc == PLANNER_OK)
		rc = c->replan(c->ctx, grown, plan, err);
	struct jobspec work = *grown, copy;
	work.buy = c->f->buy;
	work.n_buy = c->f->n_types;
	work.has_buy = true;
	struct schedule *s = NULL;
	if (rc == PLANNER_OK &&
	    (rc = fleet_spec(&work, c->rec->counts, &copy, err)) == PLANNER_OK) {
		rc = schedule_month(&copy, *plan, c->year, c->month, SCHEDULE_NO_EXACT, &s, err);
		fleet_spec_release(&copy);
	}
	/* Work in each job's GPU-hours of month k, at the share of it the
	 * fleet's GPUs took in month 1 against the share they take now. */
	*owned = *expected = 0;
	for (size_t j = 0; rc == PLANNER_OK && j < s->n_jobs; j++) {
		*owned += s->jobs[j].owned_share * s->jobs[j].hours_needed;
		*expected += c->first->jobs[j].owned_share * s->jobs[j].hours_needed;
	}
	schedule_free(s);
	return rc;
}

/* What to add in month k: a search at its volume (grown, plan) with the
 * fleet as owned, into out->add. */
static int what_to_add(const struct runout_ctx *c, const struct jobspec *grown,
                       const struct plan *plan, struct fleet_runout *out, char **err)
{
	struct jobspec work = *grown, owned;
	work.buy = c->f->buy;
	work.n_buy = c->f->n_types;
	work.has_buy = true;
	int rc = fleet_spec(&work, c->rec->counts, &owned, err);
	if (rc)
		return rc;
	struct fleet *more = NULL;
	struct fleet_opts o = {0};
	rc = fleet_plan_with(&owned, plan, c->year, c->month, &o, &more, err);
	fleet_spec_release(&owned);
	if (rc == PLANNER_OK) {
		const struct fleet_choice *r = fleet_recommended(more);
		out->add = *r;
		out->add.buy = c->f->buy;
		out->add.sched = NULL;
	}
	fleet_free(more);
	return rc;
}

int fleet_runout(const struct jobspec *spec, const struct fleet *f, int year, int month,
                 fleet_replan_fn replan, void *ctx, struct fleet_runout *out, char **err)
{
	memset(out, 0, sizeof *out);
	out->months = horizon_months(spec);
	out->growth_percent = spec->growth_percent;
	bool grows = false;
	for (size_t j = 0; j < spec->n_jobs; j++)
		grows |= job_growth(spec, &spec->jobs[j]) > 0;
	if (!grows || out->months < 2)
		return PLANNER_OK;
	out->checked = true;
	struct runout_ctx c = {.spec = spec,
	                       .f = f,
	                       .rec = fleet_recommended(f),
	                       .year = year,
	                       .month = month,
	                       .replan = replan,
	                       .ctx = ctx};
	c.first = c.rec->sched;
	/* The first month short of its growth, by halving the horizon: the
	 * shortfall only grows with the volume. */
	int lo = 2, hi = out->months + 1, rc = PLANNER_OK;
	while (lo < hi && rc == PLANNER_OK) {
		int k = (lo + hi) / 2;
		struct jobspec grown = {0};
		struct plan *plan = NULL;
		double owned, expected;
		rc = check_month(&c, k, &grown, &plan, &owned, &expected, err);
		if (rc == PLANNER_OK && owned < expected * (1 - FLEET_RUNOUT_SLACK))
			hi = k;
		else
			lo = k + 1;
		plan_free(plan);
		free(grown.jobs);
	}
	if (rc || lo > out->months)
		return rc;
	out->month = lo;
	struct jobspec grown = {0};
	struct plan *plan = NULL;
	rc = check_month(&c, lo, &grown, &plan, &out->owned_hours, &out->expected_hours, err);
	if (rc == PLANNER_OK)
		rc = what_to_add(&c, &grown, plan, out, err);
	plan_free(plan);
	free(grown.jobs);
	return rc;
}
