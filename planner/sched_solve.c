/* sched_solve.c — places jobs on owned GPU pools to minimise the month's
 * cost (see schedule.h for the problem).
 *
 * An owned hour of job j on pool m saves fallback_cost/hours − power per
 * hour; divided by the GPUs a run takes, that is the option's density, the
 * value of one GPU-hour of the pool. Three phases:
 *
 * 1. Construction: options in decreasing density (priority, then spec
 *    order, on a tie — so priority decides only at equal cost). Each takes
 *    the free slots of its window that the options still to come want
 *    least ("pressure": density × GPUs × share of their window they need),
 *    in blocks of min_run and never busy longer than max_run.
 * 2. Repair (sched_repair.c): a job left partly off owned GPUs tries again
 *    after evicting one or two of the jobs that hold slots it could use,
 *    re-placing them afterwards; the move is kept only when the month gets
 *    cheaper. This is what fixes greedy's slot choices where windows
 *    overlap, and packs multi-GPU runs beside single-GPU ones.
 * 3. Large-neighbourhood search (sched_lns.c): groups of up to three jobs
 *    taken off and placed again in every order and every mode, some of
 *    them exactly by a dynamic programme over the slots (sched_dp.c).
 *
 * Repair and search spend from one work budget, counted by the meter of
 * sched_solver.h in units of work done (slots scanned, programme states
 * visited), not in moves or placements, whose cost varies a
 * hundredfold with the spec's shape (issue 16).
 *
 * Everything is in a fixed order with no clock or randomness, so the same
 * problem gives the same answer. The tests compare the result with an
 * exhaustive search on small instances (tests/check_schedule.c) and check
 * it with sched_check (sched_check.c), which shares no code with the
 * solver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_solver.h"
#include "util.h"

/* The work (sched_solver.h's meter) repair and search may spend together:
 * a base and a share per job, so a month of 5,000 jobs gets more than one
 * of 10, and any shape the same per job. Measured on the development
 * machine (2 cores, 2026-11-30, bench/schedule_shapes.sh): the meter
 * advances about 3e8 a second; see bench/README.md. Repair may spend
 * REPAIR_SHARE of it; the search the rest. */
#define SOLVE_WORK_BASE    100000000L
#define SOLVE_WORK_PER_JOB 60000L
#define REPAIR_SHARE       0.75

/* Options densest first (the baseline: by priority and spec order); ctx
 * is the problem. */
static int cmp_opt(const void *a, const void *b, const void *ctx)
{
	const struct sched_problem *p = ctx;
	const struct opt_ref *x = a, *y = b;
	if (p->baseline) {
		/* the yardstick: priority first, then spec order, pools in order */
		int px = p->jobs[x->job].priority, py = p->jobs[y->job].priority;
		if (px != py)
			return px > py ? -1 : 1;
		if (x->job != y->job)
			return x->job < y->job ? -1 : 1;
		return x->pool - y->pool;
	}
	if (x->density != y->density)
		return x->density > y->density ? -1 : 1;
	int px = p->jobs[x->job].priority, py = p->jobs[y->job].priority;
	if (px != py)
		return px > py ? -1 : 1;
	if (x->job != y->job)
		return x->job < y->job ? -1 : 1;
	return x->pool - y->pool;
}

/* qsort has no context argument in C11; a small merge sort with one keeps
 * the module free of globals. Sorts the n elements of `size` bytes at base
 * by cmp (given ctx), stably, with tmp (n elements) as scratch. */
static void merge_sort(void *base, size_t n, size_t size,
                       int (*cmp)(const void *, const void *, const void *), const void *ctx,
                       void *tmp)
{
	if (n < 2)
		return;
	char *a = base, *t = tmp;
	size_t h = n / 2;
	merge_sort(a, h, size, cmp, ctx, tmp);
	merge_sort(a + h * size, n - h, size, cmp, ctx, tmp);
	size_t i = 0, k = h, o = 0;
	while (i < h && k < n) {
		size_t from = cmp(a + k * size, a + i * size, ctx) < 0 ? k++ : i++;
		memcpy(t + o++ * size, a + from * size, size);
	}
	memcpy(t + o * size, a + i * size, (h - i) * size);
	o += h - i;
	memcpy(t + o * size, a + k * size, (n - k) * size);
	memcpy(a, t, n * size);
}

double solver_objective(const struct solver *v, size_t j)
{
	double u;
	double c = sched_job_cost(v->p, v->s, j, &u);
	return c + u * SCHED_UNPLACED_PENALTY;
}

/* Share of a job's window one of its options expects to fill. */
static double demand_share(const struct solver *v, size_t j, int m)
{
	int n = v->allowed_n[j];
	double need = ceil(v->p->jobs[j].opt[m].hours - WORK_EPS);
	return n > 0 && need < n ? need / n : 1.0;
}

static void add_pressure(struct solver *v, size_t j, int m, double sign)
{
	const struct sched_job *job = &v->p->jobs[j];
	double d = solver_density(job, &job->opt[m]);
	if (d <= 0)
		return;
	double w = sign * d * job->opt[m].gpus * demand_share(v, j, m);
	double *pr = &v->pressure[(size_t)m * v->T];
	const int *slot = &v->allowed_slots[v->allowed_at[j]];
	const size_t n = v->allowed_at[j + 1] - v->allowed_at[j];
	for (size_t i = 0; i < n; i++)
		pr[slot[i]] += w;
	v->work += (long)n;
}

void solver_set_active(struct solver *v, size_t j, int m, bool on)
{
	unsigned char *a = &v->active[j * v->p->n_pools + m];
	if (*a == on)
		return;
	*a = on;
	add_pressure(v, j, m, on ? 1 : -1);
}

/* Consecutive busy slots of job j ending just before t (dir −1) or
 * starting just after t (dir +1). */
static int busy_run(const struct solver *v, size_t j, int t, int dir)
{
	const int16_t *at = &v->s->pool[j * v->T];
	int n = 0;
	for (int u = t + dir; u >= 0 && u < v->T && at[u] >= 0; u += dir)
		n++;
	return n;
}

/* Whether job j, busy in the free slots s0 .. s0 + len − 1, would be busy
 * longer than max_run. */
static bool too_long(const struct solver *v, size_t j, int s0, int len)
{
	int max_run = v->p->jobs[j].max_run;
	return max_run > 0 &&
	       busy_run(v, j, s0, -1) + len + busy_run(v, j, s0 + len - 1, +1) > max_run;
}

/* The job's last busy slot, -1 when none. */
static int last_busy(const struct solver *v, size_t j)
{
	const int16_t *at = &v->s->pool[j * v->T];
	int t = v->T - 1;
	while (t >= 0 && at[t] < 0)
		t--;
	return t;
}

void solver_take(struct solver *v, size_t j, int m, int t, double w)
{
	const struct sched_option *o = &v->p->jobs[j].opt[m];
	v->s->pool[j * v->T + t] = (int16_t)m;
	v->s->work[j * v->T + t] = w;
	v->freecap[(size_t)m * v->T + t] -= o->gpus;
	solver_occ_add(v, m, t, j);
	v->s->rest[j] -= w / o->hours;
	if (v->s->rest[j] < WORK_EPS)
		v->s->rest[j] = 0;
}

/* Slots by score, then earliest; ctx is the scores. */
static int cmp_slot_score(const void *pa, const void *pb, const void *ctx)
{
	const double *score = ctx;
	const int *a = pa, *b = pb;
	if (score[*a] != score[*b])
		return score[*a] < score[*b] ? -1 : 1;
	return *a - *b;
}

/* ---- the heuristic placement of one job on one pool ---- */

/* Scores every slot for job j on pool m (lower is preferred: by tie, the
 * pressure of the others, the earliest or the latest) into v->score, and
 * marks the free ones it may use in v->cand, listed in v->idx; returns how
 * many. */
static int place_scores(struct solver *v, size_t j, int m, enum tie tie)
{
	const struct sched_job *job = &v->p->jobs[j];
	const struct sched_option *o = &job->opt[m];
	const int T = v->T;
	const int16_t *at = &v->s->pool[j * T];
	const int *fc = &v->freecap[(size_t)m * T];
	const double *pr = &v->pressure[(size_t)m * T];
	double own = v->active[j * v->p->n_pools + m] && solver_density(job, o) > 0
	                 ? solver_density(job, o) * o->gpus * demand_share(v, j, m)
	                 : 0;
	int n_cand = 0;
	v->work += T;
	for (int t = 0; t < T; t++) {
		v->cand[t] = job->allowed[t] && at[t] < 0 && fc[t] >= o->gpus;
		v->score[t] = tie == TIE_EARLY  ? t
		              : tie == TIE_LATE ? T - t
		                                : pr[t] - (job->allowed[t] ? own : 0);
		if (v->cand[t])
			v->idx[n_cand++] = t;
	}
	return n_cand;
}

/* Need hours of job j on pool m as single hours: the least wanted of the
 * n_cand candidates, earliest on a tie. */
static void place_hours(struct solver *v, size_t j, int m, int n_cand, double need)
{
	const struct sched_job *job = &v->p->jobs[j];
	const struct sched_option *o = &job->opt[m];
	const int T = v->T;
	const int16_t *at = &v->s->pool[j * T];
	merge_sort(v->idx, (size_t)n_cand, sizeof *v->idx, cmp_slot_score, v->score, v->sort_tmp);
	v->work += n_cand;
	for (int i = 0; i < n_cand && need > WORK_EPS; i++) {
		int t = v->idx[i];
		if (too_long(v, j, t, 1))
			continue;
		/* With min_run, a lone last hour goes after the job's other
		 * runs or onto the end of one. */
		if (job->min_run > 1 && t <= last_busy(v, j) && !(t > 0 && at[t - 1] == m) &&
		    !(t + 1 < T && at[t + 1] == m))
			continue;
		double w = need < 1 ? need : 1;
		/* A last, partial hour is worth only its share: leave the
		 * slot when others are expected to value it more. */
		if (v->constructing && w < 1 && w * solver_density(job, o) * o->gpus < v->score[t])
			continue;
		solver_take(v, j, m, t, w);
		need -= w;
	}
}

/* Where a block of slots would go, and how good it is. */
struct block {
	int start, len; /* start -1: nowhere */
	double score;   /* mean slot score */
	bool adj;       /* beside the job's own run on the pool */
};

/* Whether a block at start with score and adj beats b. */
static bool block_better(const struct block *b, double score, bool adj)
{
	return b->start < 0 || score < b->score - SCHED_COST_EPS ||
	       (fabs(score - b->score) <= SCHED_COST_EPS && adj && !b->adj);
}

/* The best run of L free candidate slots for job j on pool m. */
static struct block best_block(const struct solver *v, size_t j, int m, int L)
{
	const int T = v->T;
	const int16_t *at = &v->s->pool[j * T];
	const int min_run = v->p->jobs[j].min_run;
	const int last = L < min_run ? last_busy(v, j) : -1;
	struct block b = {.start = -1};
	double sum = 0;
	int run = 0; /* candidate slots ending at t */
	for (int t = 0; t < T; t++) {
		if (!v->cand[t] || at[t] >= 0) {
			run = 0;
			sum = 0;
			continue;
		}
		run++;
		sum += v->score[t];
		if (run > L) {
			sum -= v->score[t - L];
			run = L;
		}
		if (run < L)
			continue;
		int s0 = t - L + 1;
		if (too_long(v, j, s0, L))
			continue;
		/* A run shorter than min_run must be the job's last. */
		if (L < min_run && s0 <= last)
			continue;
		/* Beside the job's own run on this pool: one longer run leaves
		 * whole gaps for others. */
		bool adj = (s0 > 0 && at[s0 - 1] == m) || (t + 1 < T && at[t + 1] == m);
		double mean = sum / L;
		if (block_better(&b, mean, adj))
			b = (struct block){.start = s0, .len = L, .score = mean, .adj = adj};
	}
	return b;
}

/* One more hour on the end of one of job j's runs on pool m, already long
 * enough, when it beats *b. */
static void best_extension(const struct solver *v, size_t j, int m, struct block *b)
{
	const int T = v->T;
	const int16_t *at = &v->s->pool[j * T];
	for (int t = 0; t < T; t++) {
		if (!v->cand[t] || at[t] >= 0)
			continue;
		bool left = t > 0 && at[t - 1] == m, right = t + 1 < T && at[t + 1] == m;
		if ((!left && !right) || too_long(v, j, t, 1))
			continue;
		if (b->start < 0 || v->score[t] < b->score - SCHED_COST_EPS ||
		    (fabs(v->score[t] - b->score) <= SCHED_COST_EPS && !b->adj))
			*b =
			    (struct block){.start = t, .len = 1, .score = v->score[t], .adj = true};
	}
}

/* Need hours of job j on pool m in blocks of min_run, the last shorter. */
static void place_blocks(struct solver *v, size_t j, int m, double need)
{
	const int min_run = v->p->jobs[j].min_run;
	while (need > WORK_EPS) {
		int L = (int)ceil(need - WORK_EPS);
		if (L > min_run)
			L = min_run;
		struct block b = best_block(v, j, m, L);
		best_extension(v, j, m, &b);
		v->work += 2L * v->T;
		if (b.start < 0)
			break;
		for (int t = b.start; t < b.start + b.len && need > WORK_EPS; t++) {
			double w = need < 1 ? need : 1;
			solver_take(v, j, m, t, w);
			need -= w;
			v->cand[t] = 0;
		}
	}
}

void solver_place(struct solver *v, size_t j, int m, enum tie tie)
{
	const struct sched_job *job = &v->p->jobs[j];
	double need = v->s->rest[j] * job->opt[m].hours;
	if (need <= WORK_EPS)
		return;
	int n_cand = place_scores(v, j, m, tie);
	if (job->min_run <= 1 || ceil(need - WORK_EPS) <= 1)
		place_hours(v, j, m, n_cand, need);
	else
		place_blocks(v, j, m, need);
}

/* a job short of hours in its window may do more on a pool (first >= 0)
 * that is less dense per GPU-hour but needs fewer hours */
void solver_place_job(struct solver *v, size_t j, int first, enum tie tie)
{
	if (first >= 0)
		solver_place(v, j, first, tie);
	for (size_t i = v->by_job[j]; i < v->by_job[j + 1] && v->s->rest[j] > WORK_EPS; i++)
		if (v->job_opts[i].density >= 0 && v->job_opts[i].pool != first)
			solver_place(v, j, v->job_opts[i].pool, tie);
}

void solver_remove_job(struct solver *v, size_t j)
{
	const int T = v->T;
	int16_t *at = &v->s->pool[j * T];
	double *work = &v->s->work[j * T];
	for (int t = 0; t < T; t++) {
		if (at[t] < 0)
			continue;
		v->freecap[(size_t)at[t] * T + t] += v->p->jobs[j].opt[at[t]].gpus;
		solver_occ_del(v, at[t], t, j);
		at[t] = -1;
		work[t] = 0;
	}
	v->s->rest[j] = 1;
	v->work += T;
}

void solver_save_job(struct solver *v, int k, size_t j, double *rest)
{
	memcpy(v->save_pool[k], &v->s->pool[j * v->T], (size_t)v->T * sizeof(int16_t));
	memcpy(v->save_work[k], &v->s->work[j * v->T], (size_t)v->T * sizeof(double));
	*rest = v->s->rest[j];
	v->work += v->T;
}

void solver_restore_job(struct solver *v, int k, size_t j, double rest)
{
	const int T = v->T;
	memcpy(&v->s->pool[j * T], v->save_pool[k], (size_t)T * sizeof(int16_t));
	memcpy(&v->s->work[j * T], v->save_work[k], (size_t)T * sizeof(double));
	for (int t = 0; t < T; t++) {
		int m = v->s->pool[j * T + t];
		if (m >= 0) {
			v->freecap[(size_t)m * T + t] -= v->p->jobs[j].opt[m].gpus;
			solver_occ_add(v, m, t, j);
		}
	}
	v->s->rest[j] = rest;
	v->work += T;
}

/* ---- setup ---- */

static void solver_free(struct solver *v)
{
	free(v->freecap);
	free(v->pressure);
	free(v->active);
	free(v->opts);
	free(v->by_job);
	free(v->job_opts);
	free(v->allowed_n);
	free(v->cand);
	free(v->idx);
	free(v->sort_tmp);
	free(v->score);
	free(v->dens);
	for (int i = 0; i < GROUP_MAX; i++) {
		free(v->save_pool[i]);
		free(v->save_work[i]);
	}
	free(v->save_active);
	free(v->modes);
	solver_memo_free(&v->one);
	solver_memo_free(&v->pair);
	solver_index_free(v);
}

void sched_solution_free(struct sched_solution *s)
{
	if (!s)
		return;
	free(s->pool);
	free(s->work);
	free(s->rest);
	s->pool = NULL;
	s->work = NULL;
	s->rest = NULL;
}

/* Allocates the solution and the solver's arrays, and fills the solution
 * with nothing placed; false when out of memory. */
static bool solver_alloc(struct solver *v, struct sched_solution *out)
{
	const struct sched_problem *p = v->p;
	const size_t J = p->n_jobs, M = p->n_pools, T = (size_t)v->T;
	const size_t JT = J * T + 1, MT = M * T + 1;
	out->pool = malloc(JT * sizeof *out->pool);
	out->work = calloc(JT, sizeof *out->work);
	out->rest = malloc((J + 1) * sizeof *out->rest);
	v->freecap = malloc(MT * sizeof *v->freecap);
	v->pressure = calloc(MT, sizeof *v->pressure);
	v->active = calloc(J * M + 1, 1);
	v->opts = malloc((J * M + 1) * sizeof *v->opts);
	v->job_opts = malloc((J * M + 1) * sizeof *v->job_opts);
	v->by_job = calloc(J + 1, sizeof *v->by_job);
	v->allowed_n = calloc(J + 1, sizeof *v->allowed_n);
	v->cand = malloc(T + 1);
	v->idx = malloc((T + 1) * sizeof *v->idx);
	v->sort_tmp = malloc((T + 1) * sizeof *v->sort_tmp);
	v->score = malloc((T + 1) * sizeof *v->score);
	v->dens = malloc((J + 1) * sizeof *v->dens);
	v->save_active = malloc(GROUP_MAX * M + 1);
	v->modes = malloc(GROUP_MAX * MODES_MAX(M, T) * sizeof *v->modes);
	bool ok = out->pool && out->work && out->rest && v->freecap && v->pressure && v->active &&
	          v->opts && v->job_opts && v->by_job && v->allowed_n && v->cand && v->idx &&
	          v->sort_tmp && v->score && v->dens && v->save_active && v->modes;
	for (int i = 0; i < GROUP_MAX; i++) {
		v->save_pool[i] = malloc((T + 1) * sizeof(int16_t));
		v->save_work[i] = malloc((T + 1) * sizeof(double));
		ok = ok && v->save_pool[i] && v->save_work[i];
	}
	if (!ok || !solver_index_alloc(v))
		return false;
	for (size_t j = 0; j < J; j++)
		v->dens[j] = INFINITY; /* solver_partners keeps it so between calls */
	for (size_t i = 0; i < J * T; i++)
		out->pool[i] = -1;
	for (size_t m = 0; m < M; m++)
		for (size_t t = 0; t < T; t++)
			v->freecap[m * T + t] = p->pools[m].count;
	for (size_t j = 0; j < J; j++)
		out->rest[j] = 1;
	return true;
}

/* Lists every usable option, all densest first (v->opts) and by job
 * (v->job_opts, v->by_job), with tmp as the sort's scratch. */
static void list_options(struct solver *v, struct opt_ref *tmp)
{
	const struct sched_problem *p = v->p;
	for (size_t j = 0; j < p->n_jobs; j++) {
		for (int t = 0; t < v->T; t++)
			v->allowed_n[j] += p->jobs[j].allowed[t] != 0;
		v->by_job[j] = v->n_opts;
		size_t first = v->n_opts;
		for (size_t m = 0; m < p->n_pools; m++) {
			if (!solver_usable(p, j, m) || v->allowed_n[j] == 0)
				continue;
			struct opt_ref r = {j, (int)m,
			                    solver_density(&p->jobs[j], &p->jobs[j].opt[m])};
			v->opts[v->n_opts++] = r;
		}
		memcpy(&v->job_opts[first], &v->opts[first], (v->n_opts - first) * sizeof *v->opts);
		merge_sort(&v->job_opts[first], v->n_opts - first, sizeof *v->opts, cmp_opt, p,
		           tmp);
	}
	v->by_job[p->n_jobs] = v->n_opts;
	merge_sort(v->opts, v->n_opts, sizeof *v->opts, cmp_opt, p, tmp);
}

/* Phase 1: every option in turn, densest first, takes what it can. */
static void construct(struct solver *v)
{
	const struct sched_problem *p = v->p;
	for (size_t i = 0; i < v->n_opts && !p->baseline; i++)
		solver_set_active(v, v->opts[i].job, v->opts[i].pool, true);
	v->constructing = !p->baseline;
	for (size_t i = 0; i < v->n_opts; i++) {
		const struct opt_ref *o = &v->opts[i];
		solver_set_active(v, o->job, o->pool, false);
		if (o->density >= 0 || (p->baseline && o->density > -INFINITY))
			solver_place(v, o->job, o->pool, TIE_PRESSURE);
		if (v->s->rest[o->job] <= WORK_EPS)
			for (size_t m = 0; m < p->n_pools; m++)
				solver_set_active(v, o->job, (int)m, false);
	}
	v->constructing = false;
}

int sched_solve(const struct sched_problem *p, struct sched_solution *out, char **err)
{
	const int T = p->n_slots > 0 ? p->n_slots : 0;
	const size_t J = p->n_jobs, M = p->n_pools;
	struct solver v = {.p = p, .s = out, .T = T, .dp_on = !p->baseline && !p->no_exact};
	memset(out, 0, sizeof *out);
	out->n_slots = T;
	out->n_jobs = J;
	if (M > INT16_MAX)
		return set_err(err, PLANNER_EINPUT, "too many GPU pools (%zu) to schedule", M);
	struct opt_ref *tmp = malloc((J * M + 1) * sizeof *tmp);
	int rc = PLANNER_OK;
	if (!tmp || !solver_alloc(&v, out)) {
		rc = PLANNER_ESYS;
		goto out;
	}
	list_options(&v, tmp);
	construct(&v);
	if (!p->baseline && !p->quick) {
		long start = v.work;
		v.budget = SOLVE_WORK_BASE + SOLVE_WORK_PER_JOB * (long)J;
		v.work_limit = start + (long)(REPAIR_SHARE * (double)v.budget);
		solver_repair(&v);
		v.work_limit = start + v.budget;
		rc = solver_lns(&v);
	}
out:
	free(tmp);
	solver_free(&v);
	if (rc) {
		sched_solution_free(out);
		return set_err(err, rc, "out of memory scheduling %zu jobs", J);
	}
	return PLANNER_OK;
}
