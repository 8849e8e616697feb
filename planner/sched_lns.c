/* sched_lns.c — the solver's large-neighbourhood search (phase 3 of
 * sched_solve.c): groups of up to GROUP_MAX jobs are taken off and placed
 * again in every order, each member in every mode (struct place_mode) —
 * densest pool first, another pool first, one pool only, not at all, or,
 * where its states are few, exactly by the one-job programme of sched_dp.c
 * (tie-broken by pressure, earliest or latest, and for pairs with a cap on
 * its hours). Pairs whose joint states are few are also placed exactly
 * together (the pair programme: both jobs' states, sharing capacity), and
 * in groups of three, two so with the third in each mode before or after
 * them: moves such as two jobs swapping pools in the same hours, which no
 * one-job placement finds. Until no move helps (a round without a gain,
 * or, on a spec of many jobs, LNS_STALL_SHARE of the budget spent without
 * one) or the work budget (sched_solve.c) is spent. With no_exact (tests,
 * benchmarks) neither exact placer runs, as on a month whose states are too many for them. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>

#include "sched_solver.h"
#include "util.h"

/* Caps tried for one job's exact placement with fewer hours than it holds,
 * at most: held − LNS_CAPS to held − 1. Every cap is a programme
 * over the month, and a job of 120 hours tried 119 of them (issue 16);
 * the small instances of the tests, 8 slots, still try every cap. */
#define LNS_CAPS 8
/* Pools a job is tried on first, or only, in a group move, densest first,
 * at most: with hundreds of pools (owned GPUs of distinct wattage) a group
 * of three had hundreds of modes each (issue 16). */
#define LNS_MODE_POOLS 8
/* Converged: on a spec of more than LNS_ALL_GROUPS jobs the search stops
 * once this share of the budget (sched_solve.c) has gone by without a move
 * that makes the month cheaper. On the bench shapes
 * (bench/schedule_shapes.sh, 2026-11-30) a gain came at most 0.2 of the
 * budget after the one before it, and on most shapes the old fixed budget
 * found nothing after repair. */
#define LNS_STALL_SHARE 0.25
/* Problems with at most this many jobs try every group of jobs; larger ones
 * the groups of a job and its partners. */
#define LNS_ALL_GROUPS 8

/* Places job j in mode md. PLANNER_OK or PLANNER_ESYS. */
static int place_mode(struct solver *v, size_t j, const struct place_mode *md)
{
	bool placed = false;
	int rc = PLANNER_OK;
	switch (md->kind) {
	case PLACE_NONE:
		break;
	case PLACE_DENSEST:
		solver_place_job(v, j, -1, md->tie);
		break;
	case PLACE_POOL_FIRST:
		solver_place_job(v, j, md->pool, TIE_PRESSURE);
		break;
	case PLACE_POOL_ONLY:
		solver_place(v, j, md->pool, TIE_PRESSURE);
		break;
	case PLACE_EXACT:
		rc = solver_place_exact(v, j, md->tie, md->cap, &placed);
		if (!rc && !placed)
			solver_place_job(v, j, -1, TIE_PRESSURE);
		break;
	}
	return rc;
}

/* Whether mode md lets its job use pool m. */
static bool mode_uses(const struct place_mode *md, int m)
{
	return md->kind != PLACE_NONE && (md->kind != PLACE_POOL_ONLY || md->pool == m);
}

/* Takes who[0..n) off the pools and keeps what it takes back: their rows
 * in rest and the save slots, their options' share of the pressure in
 * save_active; returns their objective. */
static double take_off(struct solver *v, const size_t *who, int n, double *rest)
{
	const size_t M = v->p->n_pools;
	double before = 0;
	for (int i = 0; i < n; i++) {
		solver_save_job(v, i, who[i], &rest[i]);
		before += solver_objective(v, who[i]);
		for (size_t m = 0; m < M; m++) {
			v->save_active[i * M + m] = v->active[who[i] * M + m];
			solver_set_active(v, who[i], (int)m, false);
		}
	}
	for (int i = 0; i < n; i++)
		solver_remove_job(v, who[i]);
	return before;
}

/* Puts back the share of the pressure take_off kept. */
static void restore_active(struct solver *v, const size_t *who, int n)
{
	const size_t M = v->p->n_pools;
	for (int i = 0; i < n; i++)
		for (size_t m = 0; m < M; m++)
			solver_set_active(v, who[i], (int)m, v->save_active[i * M + m]);
}

/* Takes jobs a and b off (and a third, k, when k is not NULL) and places
 * a and b exactly together, k in mode kmode before them (k_first) or after
 * them; keeps the result when the month is cheaper (*kept), else puts all
 * back. PLANNER_OK or PLANNER_ESYS. */
static int try_joint(struct solver *v, size_t ja, size_t jb, const size_t *k,
                     const struct place_mode *kmode, bool k_first, bool *kept)
{
	const size_t M = v->p->n_pools;
	size_t who[3] = {ja, jb, k ? *k : 0};
	const int n = k ? 3 : 2;
	double rest[3] = {0};
	double before = take_off(v, who, n, rest);
	bool placed = false;
	int rc = PLANNER_OK;
	if (k && k_first) {
		/* the pair, still to come, presses on the slots it may use */
		for (int i = 0; i < 2; i++)
			for (size_t o = v->by_job[who[i]]; o < v->by_job[who[i] + 1]; o++)
				if (v->job_opts[o].density >= 0)
					solver_set_active(v, who[i], v->job_opts[o].pool, true);
		rc = place_mode(v, *k, kmode);
		for (int i = 0; i < 2; i++)
			for (size_t m = 0; m < M; m++)
				solver_set_active(v, who[i], (int)m, false);
	}
	if (!rc)
		rc = solver_place_pair(v, ja, jb, &placed);
	if (!rc && placed && k && !k_first) {
		rc = place_mode(v, *k, kmode);
	}
	if (rc)
		return rc; /* the solver is abandoned */
	*kept = solver_settle(v, who, n, rest, before, placed, true);
	restore_active(v, who, n);
	return PLANNER_OK;
}

/* Takes who[0..n) off the pools and places them again in that order, each
 * in its mode; the members still to come press on the slots they may use.
 * Keeps the result when the month is cheaper (*kept), else puts everything
 * back. PLANNER_OK or PLANNER_ESYS. */
static int try_group(struct solver *v, const size_t *who, const struct place_mode *mode, int n,
                     bool *kept)
{
	const size_t M = v->p->n_pools;
	double rest[GROUP_MAX];
	double before = take_off(v, who, n, rest);
	for (int i = 0; i < n; i++)
		for (size_t o = v->by_job[who[i]]; o < v->by_job[who[i] + 1]; o++)
			if (v->job_opts[o].density >= 0 && mode_uses(&mode[i], v->job_opts[o].pool))
				solver_set_active(v, who[i], v->job_opts[o].pool, true);
	for (int i = 0; i < n; i++) {
		for (size_t m = 0; m < M; m++)
			solver_set_active(v, who[i], (int)m, false);
		int rc = place_mode(v, who[i], &mode[i]);
		if (rc)
			return rc; /* the solver is abandoned */
	}
	*kept = solver_settle(v, who, n, rest, before, true, true);
	restore_active(v, who, n);
	return PLANNER_OK;
}

/* The modes worth trying for job j, into out (MODES_MAX at most); returns
 * how many. */
static int job_modes(const struct solver *v, size_t j, struct place_mode *out, bool caps)
{
	int n = 0;
	size_t lo = v->by_job[j], hi = v->by_job[j + 1];
	out[n++] = (struct place_mode){.kind = PLACE_DENSEST, .tie = TIE_PRESSURE};
	out[n++] = (struct place_mode){.kind = PLACE_DENSEST, .tie = TIE_EARLY};
	out[n++] = (struct place_mode){.kind = PLACE_DENSEST, .tie = TIE_LATE};
	if (solver_exact_fits(v, j)) {
		out[n++] =
		    (struct place_mode){.kind = PLACE_EXACT, .tie = TIE_PRESSURE, .cap = INT_MAX};
		out[n++] =
		    (struct place_mode){.kind = PLACE_EXACT, .tie = TIE_EARLY, .cap = INT_MAX};
		out[n++] =
		    (struct place_mode){.kind = PLACE_EXACT, .tie = TIE_LATE, .cap = INT_MAX};
		/* fewer hours than it could take, leaving room for others */
		int held = 0;
		for (int t = 0; t < v->T; t++)
			held += v->s->pool[j * v->T + t] >= 0;
		for (int c = held > LNS_CAPS ? held - LNS_CAPS : 1; c < held && caps; c++)
			out[n++] =
			    (struct place_mode){.kind = PLACE_EXACT, .tie = TIE_PRESSURE, .cap = c};
	}
	if (!isinf(v->p->jobs[j].fallback_cost))
		out[n++] = (struct place_mode){.kind = PLACE_NONE};
	int usable_n = 0;
	for (size_t o = lo; o < hi; o++)
		usable_n += v->job_opts[o].density >= 0;
	if (usable_n < 2)
		return n;
	for (size_t o = lo, k = 0; o < hi && k < LNS_MODE_POOLS; o++) {
		if (v->job_opts[o].density < 0)
			continue;
		k++;
		if (o != lo)
			out[n++] = (struct place_mode){.kind = PLACE_POOL_FIRST,
			                               .pool = v->job_opts[o].pool};
		out[n++] =
		    (struct place_mode){.kind = PLACE_POOL_ONLY, .pool = v->job_opts[o].pool};
	}
	return n;
}

/* Group g of two: the pair placed exactly together; of three: two so, the
 * third in each of its modes before or after them. Stops at the first
 * move that stays (*kept). PLANNER_OK or PLANNER_ESYS. */
static int lns_joint(struct solver *v, const size_t *g, int n, bool *kept)
{
	*kept = false;
	if (n == 2 && !solver_spent(v) && solver_pair_fits(v, g[0], g[1]))
		return try_joint(v, g[0], g[1], NULL, &(struct place_mode){.kind = PLACE_NONE},
		                 false, kept);
	for (int k = 0; n == 3 && k < 3; k++) {
		size_t a = g[k == 0 ? 1 : 0], b = g[k == 2 ? 1 : 2];
		if (!solver_pair_fits(v, a, b))
			continue;
		int nk = job_modes(v, g[k], v->modes, false);
		for (int i = 0; i < nk; i++)
			for (int first = 0; first < 2; first++) {
				/* of the exact modes, the one tie-broken by pressure */
				if (v->modes[i].kind == PLACE_EXACT &&
				    v->modes[i].tie != TIE_PRESSURE)
					continue;
				if (solver_spent(v))
					return PLANNER_OK;
				int rc =
				    try_joint(v, a, b, &g[k], &v->modes[i], first, kept);
				if (rc || *kept)
					return rc;
			}
	}
	return PLANNER_OK;
}

/* The next choice of modes, pick[i] of member perm[i]'s nm; false after
 * the last. */
static bool next_pick(int *pick, const int *nm, const int *perm, int n)
{
	int i = n - 1;
	while (i >= 0 && ++pick[i] == nm[perm[i]])
		pick[i--] = 0;
	return i >= 0;
}

/* The next permutation of perm[0..n) in lexical order; false after the
 * last. */
static bool next_perm(int *perm, int n)
{
	int i = n - 2;
	while (i >= 0 && perm[i] > perm[i + 1])
		i--;
	if (i < 0)
		return false;
	int k = n - 1;
	while (perm[k] < perm[i])
		k--;
	int t = perm[i];
	perm[i] = perm[k];
	perm[k] = t;
	for (int a = i + 1, b = n - 1; a < b; a++, b--) {
		t = perm[a];
		perm[a] = perm[b];
		perm[b] = t;
	}
	return true;
}

/* Every order of group g (n jobs) with every mode for each member, first
 * the exact placements of lns_joint; stops at the first move that makes
 * the month cheaper, and sets *improved. PLANNER_OK or PLANNER_ESYS. */
static int lns_group(struct solver *v, const size_t *g, int n, bool *improved)
{
	const size_t stride = MODES_MAX(v->p->n_pools, v->T);
	/* Zeroed so the analyser can see every element read is one written. */
	int nm[GROUP_MAX] = {0}, perm[GROUP_MAX] = {0}, pick[GROUP_MAX] = {0};
	struct place_mode mode[GROUP_MAX] = {{0}};
	size_t who[GROUP_MAX] = {0};
	bool kept = false;
	int rc = lns_joint(v, g, n, &kept);
	if (rc || kept) {
		*improved |= kept;
		return rc;
	}
	for (int i = 0; i < n; i++) {
		nm[i] = job_modes(v, g[i], &v->modes[(size_t)i * stride], n <= 2);
		perm[i] = i;
	}
	do {
		for (int i = 0; i < n; i++) {
			pick[i] = 0;
			who[i] = g[perm[i]];
		}
		do {
			bool skip = false;
			for (int i = 0; i < n; i++) {
				mode[i] = v->modes[(size_t)perm[i] * stride + (size_t)pick[i]];
				/* a member left out has no place in the order */
				if (mode[i].kind == PLACE_NONE && i > 0 && perm[i] < perm[i - 1])
					skip = true;
			}
			if (skip)
				continue;
			if (solver_spent(v))
				return PLANNER_OK;
			if ((rc = try_group(v, who, mode, n, &kept)) || kept) {
				*improved |= kept;
				return rc;
			}
		} while (next_pick(pick, nm, perm, n));
	} while (next_perm(perm, n));
	return PLANNER_OK;
}

/* Every group of up to GROUP_MAX of the J jobs, in lexical order. */
static int lns_all_groups(struct solver *v, bool *improved)
{
	const size_t J = v->p->n_jobs;
	for (int n = 1; n <= GROUP_MAX && (size_t)n <= J; n++) {
		size_t g[GROUP_MAX] = {0};
		for (int i = 0; i < n; i++)
			g[i] = (size_t)i;
		for (;;) {
			bool usable_g = true;
			for (int i = 0; i < n; i++)
				usable_g &= v->by_job[g[i]] < v->by_job[g[i] + 1];
			int rc = usable_g ? lns_group(v, g, n, improved) : PLANNER_OK;
			if (rc)
				return rc;
			int i = n - 1;
			while (i >= 0 && g[i] == J - (size_t)(n - i))
				i--;
			if (i < 0)
				break;
			g[i]++;
			for (int k = i + 1; k < n; k++)
				g[k] = g[k - 1] + 1;
		}
	}
	return PLANNER_OK;
}

/* Each job alone, with one of its partners, and with two of them. */
static int lns_partner_groups(struct solver *v, bool *improved)
{
	size_t part[REPAIR_PARTNERS];
	int rc = PLANNER_OK;
	for (int n = 1; n <= GROUP_MAX; n++)
		for (size_t i = 0; i<v->n_opts && !solver_spent(v); i++) {
			size_t k = v->opts[i].job;
			if (v->job_opts[v->by_job[k]].pool != v->opts[i].pool)
				continue;
			size_t g[GROUP_MAX] = {k};
			if (n == 1) {
				if ((rc = lns_group(v, g, 1, improved)))
					return rc;
				continue;
			}
			int np = solver_partners(v, k, part, REPAIR_PARTNERS);
			for (int a = 0; a < np; a++) {
				g[1] = part[a];
				if (n == 2) {
					if ((rc = lns_group(v, g, 2, improved)))
						return rc;
					continue;
				}
				for (int b = a + 1; b < np; b++) {
					g[2] = part[b];
					if ((rc = lns_group(v, g, 3, improved)))
						return rc;
				}
			}
		}
	return PLANNER_OK;
}

int solver_lns(struct solver *v)
{
	const struct sched_problem *p = v->p;
	int rc = PLANNER_OK;
	v->last_gain = v->work;
	if (p->n_jobs > LNS_ALL_GROUPS)
		v->stall = (long)(LNS_STALL_SHARE * (double)v->budget);
	for (bool improved = true; improved && !solver_spent(v) && !rc;) {
		improved = false;
		for (size_t j = 0; j < p->n_jobs; j++)
			for (size_t m = 0; m < p->n_pools; m++)
				solver_set_active(v, j, (int)m,
				                  solver_usable(p, j, m) &&
				                      v->s->rest[j] > WORK_EPS);
		if (p->n_jobs <= LNS_ALL_GROUPS)
			rc = lns_all_groups(v, &improved);
		else
			rc = lns_partner_groups(v, &improved);
	}
	return rc;
}
