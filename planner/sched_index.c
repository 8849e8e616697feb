/* sched_index.c — the solver's indexes (see sched_solver.h): each job's
 * allowed slots as a list, and who runs on each pool in each slot, so that
 * the pressure of an option costs its window rather than the month, and
 * the jobs a starving job could evict are found from the slots it may use
 * rather than by scanning every job's month (which made the repair and the
 * search quadratic in the jobs: issue 16). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_solver.h"
#include "util.h"

bool solver_index_alloc(struct solver *v)
{
	const struct sched_problem *p = v->p;
	const size_t J = p->n_jobs, M = p->n_pools, T = (size_t)v->T;
	size_t n_allowed = 0, n_occ = 0;
	for (size_t j = 0; j < J; j++)
		for (size_t t = 0; t < T; t++)
			n_allowed += p->jobs[j].allowed[t] != 0;
	for (size_t m = 0; m < M; m++)
		n_occ += (size_t)(p->pools[m].count > 0 ? p->pools[m].count : 0) * T;
	v->allowed_at = malloc((J + 1) * sizeof *v->allowed_at);
	v->allowed_slots = malloc((n_allowed + 1) * sizeof *v->allowed_slots);
	v->occ_at = malloc((M + 1) * sizeof *v->occ_at);
	v->occ = malloc((n_occ + 1) * sizeof *v->occ);
	v->occ_n = calloc(M * T + 1, sizeof *v->occ_n);
	v->touched = malloc((J + 1) * sizeof *v->touched);
	if (!v->allowed_at || !v->allowed_slots || !v->occ_at || !v->occ || !v->occ_n ||
	    !v->touched)
		return false;
	size_t k = 0;
	for (size_t j = 0; j < J; j++) {
		v->allowed_at[j] = k;
		for (int t = 0; t < v->T; t++)
			if (p->jobs[j].allowed[t])
				v->allowed_slots[k++] = t;
	}
	v->allowed_at[J] = k;
	size_t at = 0;
	for (size_t m = 0; m < M; m++) {
		v->occ_at[m] = at;
		at += (size_t)(p->pools[m].count > 0 ? p->pools[m].count : 0) * T;
	}
	return true;
}

void solver_index_free(struct solver *v)
{
	free(v->allowed_at);
	free(v->allowed_slots);
	free(v->occ_at);
	free(v->occ);
	free(v->occ_n);
	free(v->touched);
}

/* The list of jobs on pool m in slot t, *n of them. */
static int *occ_list(const struct solver *v, int m, int t, int **n)
{
	*n = &v->occ_n[(size_t)m * v->T + t];
	return &v->occ[v->occ_at[m] + (size_t)t * (size_t)v->p->pools[m].count];
}

void solver_occ_add(struct solver *v, int m, int t, size_t j)
{
	int *n;
	int *list = occ_list(v, m, t, &n);
	list[(*n)++] = (int)j; /* a job takes at least one GPU: never more than count */
}

void solver_occ_del(struct solver *v, int m, int t, size_t j)
{
	int *n;
	int *list = occ_list(v, m, t, &n);
	for (int i = 0; i < *n; i++)
		if (list[i] == (int)j) {
			list[i] = list[--*n];
			return;
		}
}

/* Jobs holding slots that job k could use on its pools, the cheapest to
 * evict (lowest density there; on a tie the first in spec order) first;
 * at most `max`. */
int solver_partners(struct solver *v, size_t k, size_t *out, int max)
{
	const struct sched_problem *p = v->p;
	double *dens = v->dens; /* INFINITY outside a call */
	size_t n_touched = 0;
	for (size_t a = v->allowed_at[k]; a < v->allowed_at[k + 1]; a++) {
		int t = v->allowed_slots[a];
		for (size_t o = v->by_job[k]; o < v->by_job[k + 1]; o++) {
			int m = v->job_opts[o].pool, *n;
			const int *list = occ_list(v, m, t, &n);
			v->work += *n + 1;
			for (int i = 0; i < *n; i++) {
				size_t j = (size_t)list[i];
				if (j == k)
					continue;
				double d = solver_density(&p->jobs[j], &p->jobs[j].opt[m]);
				if (isinf(dens[j]))
					v->touched[n_touched++] = j;
				if (d < dens[j])
					dens[j] = d;
			}
		}
	}
	int n = 0;
	for (int i = 0; i < max; i++) {
		size_t best = p->n_jobs;
		for (size_t x = 0; x < n_touched; x++) {
			size_t j = v->touched[x];
			if (isfinite(dens[j]) &&
			    (best == p->n_jobs || dens[j] < dens[best] ||
			     (j < best && dens[j] == dens[best])))
				best = j;
		}
		if (best == p->n_jobs)
			break;
		out[n++] = best;
		dens[best] = INFINITY;
	}
	for (size_t x = 0; x < n_touched; x++)
		dens[v->touched[x]] = INFINITY;
	v->work += (long)n_touched * (max + 1);
	return n;
}
