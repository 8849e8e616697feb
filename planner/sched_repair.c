/* sched_repair.c — the solver's second phase (see sched_solve.c): a job
 * left partly off owned GPUs is placed again after evicting one or two of
 * the jobs holding slots it could use, or with one hour fewer on a pool,
 * and the move is kept only when the month gets cheaper (solver_settle,
 * which the search of sched_lns.c shares). */
#include <math.h>

#include "sched_solver.h"

/* Repair rounds over all jobs at most. */
#define REPAIR_ROUNDS 4
/* Pools a job leads with in a three-job repair move, densest first, at
 * most: with hundreds of pools (owned GPUs of distinct wattage) trying
 * every one made repair take seconds (issue 16); small specs try all. */
#define REPAIR_LEADS 8

/* True when job k's runs break min_run (dropping an hour can split a run). */
static bool runs_bad(const struct solver *v, size_t k)
{
	const struct sched_job *job = &v->p->jobs[k];
	const int16_t *at = &v->s->pool[k * v->T];
	if (job->min_run <= 1)
		return false;
	for (int t = 0; t < v->T;) {
		if (at[t] < 0) {
			t++;
			continue;
		}
		int len = 0;
		while (t + len < v->T && at[t + len] == at[t])
			len++;
		t += len;
		if (len < job->min_run) {
			/* only the last run, finishing the job, may be short */
			for (int u = t; u < v->T; u++)
				if (at[u] >= 0)
					return true;
			if (v->s->rest[k] > WORK_EPS)
				return true;
		}
	}
	return false;
}

/* After jobs who[0..n) were re-placed: keeps the move when `allowed` and
 * the month got cheaper than `before` (and, with `check_runs`, every job
 * still keeps its run rules), else takes them off and puts back what
 * solver_save_job kept in slot i with rest[i]. Returns whether the move
 * stayed. */
bool solver_settle(struct solver *v, const size_t *who, int n, const double *rest, double before,
                   bool allowed, bool check_runs)
{
	double after = 0;
	bool keep = allowed;
	if (keep) {
		for (int i = 0; i < n; i++)
			after += solver_objective(v, who[i]);
		keep = after < before - SCHED_COST_EPS - 1e-12 * fabs(before);
		if (keep)
			v->last_gain = v->work;
		for (int i = 0; i < n && keep && check_runs; i++)
			keep = !runs_bad(v, who[i]);
	}
	if (!keep) {
		for (int i = 0; i < n; i++)
			solver_remove_job(v, who[i]);
		for (int i = 0; i < n; i++)
			solver_restore_job(v, i, who[i], rest[i]);
	}
	return keep;
}

/* Takes jobs who[0..n) off the pools and places them again in that order,
 * who[0] starting on pool `first` (-1: its densest); keeps the result when
 * the month is cheaper, else puts everything back. */
static bool try_order(struct solver *v, const size_t *who, int n, int first)
{
	double rest[GROUP_MAX] = {0}, before = 0;
	if (n < 1 || n > GROUP_MAX)
		return false; /* groups are one to three jobs */
	for (int i = 0; i < n; i++) {
		solver_save_job(v, i, who[i], &rest[i]);
		before += solver_objective(v, who[i]);
	}
	for (int i = 0; i < n; i++)
		solver_remove_job(v, who[i]);
	for (int i = 0; i < n; i++)
		solver_place_job(v, who[i], i == 0 ? first : -1, TIE_PRESSURE);
	return solver_settle(v, who, n, rest, before, true, false);
}

/* Evicts `evict` (n of them, may be 0) and job k, places k first and the
 * evicted after it. */
static bool try_move(struct solver *v, size_t k, const size_t *evict, int n, int first)
{
	size_t who[3] = {k, n > 0 ? evict[0] : 0, n > 1 ? evict[1] : 0};
	return try_order(v, who, n + 1, first);
}

/* Every order of k and two partners, each job in the lead on each of its
 * pools: small groups, tried exhaustively. */
static bool try_orders(struct solver *v, size_t k, size_t a, size_t b)
{
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
	                               {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	size_t g[3] = {k, a, b};
	for (int i = 0; i < 6; i++) {
		size_t who[3] = {g[perm[i][0]], g[perm[i][1]], g[perm[i][2]]};
		size_t end = v->by_job[who[0] + 1];
		if (end > v->by_job[who[0]] + REPAIR_LEADS)
			end = v->by_job[who[0]] + REPAIR_LEADS;
		for (size_t o = v->by_job[who[0]]; o < end; o++) {
			if (solver_spent(v))
				return false;
			if (try_order(v, who, 3, v->job_opts[o].pool))
				return true;
		}
	}
	return false;
}

/* Takes one hour of job k off its pool, keeps that pool-hour closed, and
 * places the job's rest again: a job split over two pools may finish more
 * cheaply with one hour fewer on the first. Keeps the result when cheaper. */
static bool try_drop(struct solver *v, size_t k, int t)
{
	const int T = v->T;
	int m = v->s->pool[k * T + t];
	const struct sched_option *o = &v->p->jobs[k].opt[m];
	double rest, before = solver_objective(v, k);
	solver_save_job(v, 0, k, &rest);
	v->s->rest[k] += v->s->work[k * T + t] / o->hours;
	v->s->pool[k * T + t] = -1;
	v->s->work[k * T + t] = 0;
	v->freecap[(size_t)m * T + t] += o->gpus;
	solver_occ_del(v, m, t, k);
	int keep = v->freecap[(size_t)m * T + t];
	v->freecap[(size_t)m * T + t] = -1; /* closed for this try */
	solver_place_job(v, k, -1, TIE_PRESSURE);
	v->freecap[(size_t)m * T + t] = keep;
	if (solver_objective(v, k) < before - SCHED_COST_EPS - 1e-12 * fabs(before) &&
	    !runs_bad(v, k)) {
		v->last_gain = v->work;
		return true;
	}
	solver_remove_job(v, k);
	solver_restore_job(v, 0, k, rest);
	return false;
}

/* Lead pools worth trying for job k, into firsts (8 at most): for a job
 * short of hours each of its pools; for a finished one those that would do
 * the whole job for less power than it costs now (a less dense pool can be
 * cheaper in total). -1: densest. Returns how many. */
static int lead_pools(const struct solver *v, size_t k, int *firsts)
{
	const struct sched_problem *p = v->p;
	int nf = 0;
	double now = solver_objective(v, k);
	bool starving = v->s->rest[k] > WORK_EPS;
	for (size_t o = v->by_job[k]; o < v->by_job[k + 1] && nf < 8; o++) {
		const struct sched_option *op = &p->jobs[k].opt[v->job_opts[o].pool];
		if (!starving && op->hours * op->cost_per_hour >= now - SCHED_COST_EPS)
			continue;
		firsts[nf++] = o == v->by_job[k] ? -1 : v->job_opts[o].pool;
	}
	return nf;
}

/* Job k again, alone, then evicting one or two of its partners. */
static bool repair_job(struct solver *v, size_t k)
{
	size_t part[REPAIR_PARTNERS];
	int firsts[8];
	int nf = lead_pools(v, k, firsts);
	if (nf == 0)
		return false;
	bool done = false;
	for (int f = 0; f < nf && !done; f++)
		done = try_move(v, k, NULL, 0, firsts[f]);
	int n = done ? 0 : solver_partners(v, k, part, REPAIR_PARTNERS);
	for (int a = 0; a < n && !done && !solver_spent(v); a++)
		for (int f = 0; f < nf && !done; f++)
			done = try_move(v, k, &part[a], 1, firsts[f]);
	for (int a = 0; a < n && !done; a++)
		for (int b = a + 1; b < n && !done && !solver_spent(v); b++) {
			size_t two[2] = {part[a], part[b]};
			done = try_move(v, k, two, 2, -1) || try_orders(v, k, part[a], part[b]);
		}
	return done;
}

void solver_repair(struct solver *v)
{
	const struct sched_problem *p = v->p;
	for (int round = 0; round < REPAIR_ROUNDS; round++) {
		bool improved = false;
		/* Pressure now comes from the jobs still wanting owned hours. */
		for (size_t j = 0; j < p->n_jobs; j++)
			for (size_t m = 0; m < p->n_pools; m++)
				solver_set_active(v, j, (int)m,
				                  solver_usable(p, j, m) &&
				                      v->s->rest[j] > WORK_EPS);
		for (size_t i = 0; i < v->n_opts && !solver_spent(v); i++) {
			size_t k = v->opts[i].job;
			/* Each job once per round, at its densest option. */
			if (v->job_opts[v->by_job[k]].pool != v->opts[i].pool)
				continue;
			if (v->opts[i].density < 0)
				continue;
			improved |= repair_job(v, k);
		}
		/* Jobs over more than one pool: one hour fewer on one of them. */
		for (size_t k = 0; k < p->n_jobs && !solver_spent(v); k++) {
			if (v->by_job[k + 1] - v->by_job[k] < 2)
				continue;
			for (int t = 0; t < v->T && !solver_spent(v); t++) {
				if (v->s->pool[k * v->T + t] < 0)
					continue;
				improved |= try_drop(v, k, t);
			}
		}
		if (!improved)
			break;
	}
}
