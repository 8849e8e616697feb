/* sched_check.c — the schedule problem's costs and its rules, checked
 * (schedule.h). sched_check is the tests' oracle for the solver: it reads
 * only the problem and a solution, and shares no code with the solver
 * (sched_solve.c, sched_repair.c, sched_dp.c, sched_lns.c), so a rule the solver gets
 * wrong cannot be wrong here the same way. */
#include <math.h>
#include <stdbool.h>

#include "schedule.h"

/* A slot's work may pass an hour by this much (rounding), no more. */
#define SLOT_EPS 1e-9

double sched_job_cost(const struct sched_problem *p, const struct sched_solution *s, size_t j,
                      double *unplaced)
{
	const struct sched_job *job = &p->jobs[j];
	double cost = 0;
	for (int t = 0; t < s->n_slots; t++) {
		int m = s->pool[j * s->n_slots + t];
		if (m >= 0)
			cost += s->work[j * s->n_slots + t] * job->opt[m].cost_per_hour;
	}
	if (unplaced)
		*unplaced = 0;
	if (isinf(job->fallback_cost)) {
		if (unplaced)
			*unplaced = s->rest[j];
	} else {
		cost += s->rest[j] * job->fallback_cost;
	}
	return cost;
}

double sched_total_cost(const struct sched_problem *p, const struct sched_solution *s,
                        double *unplaced)
{
	double cost = 0, u = 0;
	for (size_t j = 0; j < p->n_jobs; j++) {
		double uj;
		cost += sched_job_cost(p, s, j, &uj);
		u += uj;
	}
	if (unplaced)
		*unplaced = u;
	return cost;
}

/* Whether job j's option on pool m can run at all. */
static bool fits(const struct sched_problem *p, size_t j, size_t m)
{
	const struct sched_option *o = &p->jobs[j].opt[m];
	return o->gpus > 0 && o->gpus <= p->pools[m].count && o->hours > 0 && isfinite(o->hours);
}

const char *sched_check(const struct sched_problem *p, const struct sched_solution *s)
{
	const int T = s->n_slots;
	if (T != p->n_slots || s->n_jobs != p->n_jobs)
		return "solution does not match the problem";
	for (size_t m = 0; m < p->n_pools; m++)
		for (int t = 0; t < T; t++) {
			int used = 0;
			for (size_t j = 0; j < p->n_jobs; j++)
				if (s->pool[j * T + t] == (int)m)
					used += p->jobs[j].opt[m].gpus;
			if (used > p->pools[m].count)
				return "a pool runs more GPUs than it has";
		}
	for (size_t j = 0; j < p->n_jobs; j++) {
		const struct sched_job *job = &p->jobs[j];
		const int16_t *at = &s->pool[j * T];
		const double *w = &s->work[j * T];
		double done = 0;
		int short_runs = 0, busy = 0;
		for (int t = 0; t < T; t++) {
			int m = at[t];
			if (m < 0) {
				busy = 0;
				continue;
			}
			if ((size_t)m >= p->n_pools || !fits(p, j, (size_t)m))
				return "a job runs on a pool it does not fit";
			if (!job->allowed[t])
				return "a job runs outside its window, days or deadline";
			if (w[t] <= 0 || w[t] > 1 + SLOT_EPS)
				return "a slot does no work or more than an hour";
			done += w[t] / job->opt[m].hours;
			if (job->max_run > 0 && ++busy > job->max_run)
				return "a job is busy longer than max_run";
			if (t == 0 || at[t - 1] != m) {
				int len = 0;
				while (t + len < T && at[t + len] == m)
					len++;
				if (len < job->min_run) {
					short_runs++;
					for (int u = t + len; u < T; u++)
						if (at[u] >= 0)
							return "a run shorter than min_run is not "
							       "the job's last";
				}
			}
		}
		if (done > 1 + 1e-6)
			return "a job runs more hours than it needs";
		if (fabs((1 - done > 0 ? 1 - done : 0) - s->rest[j]) > 1e-6)
			return "a job's rest does not match its runs";
		if (short_runs > 1 || (short_runs == 1 && s->rest[j] > 1e-6))
			return "a run is shorter than min_run";
	}
	return NULL;
}
