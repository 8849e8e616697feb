/* sched_dp.c — the solver's exact placers: one job, or a pair of jobs,
 * placed by a dynamic programme over the slots, the other jobs fixed.
 *
 * A job's state at a slot boundary (struct run_state) is its hours on each
 * pool, the run in progress (pool, length up to min_run), the busy stretch
 * (up to max_run) and whether a short run has ended; run_step, the one
 * place the run rules are applied, moves it across a slot. The programme
 * finds the least cost for the job given the free capacity, on a tie the
 * least tie-break score (the pressure of the others, or the earliest or
 * latest slots). It runs where the states are few; the job's last hour is
 * partial, on the pool where that saves most.
 *
 * The pair programme is the same over the joint state of two jobs: in
 * each slot both choose a pool or idle, sharing the capacity the others
 * leave. It finds moves no one-job-at-a-time placement can, such as two
 * jobs that swap pools in the same hours. Both programmes keep their
 * states in a struct memo: the one-job programme indexed by state, the
 * pair hashed, since its joint states are sparse; when those outgrow
 * PAIR_MAX_STATES the pair is left as it was. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched_solver.h"
#include "util.h"

/* The one-job programme's states (slot × hours per pool × run in progress)
 * at most */
#define DP_MAX_STATES 200000
/* What one state of a programme costs, per choice it weighs, on the work
 * meter (sched_solver.h), whose unit is about one slot scanned: a state
 * steps the run rules, indexes and memoises, about 16 times as long
 * (measured with perf on bench/schedule_shapes.sh's shapes, 2026-11-30). */
#define DP_STATE_WORK 16
/* The pair programme: joint states memoised at most (the hash table holding
 * them is a power of two at least twice as large, grown as needed), the
 * product of the two jobs' state spaces over the slots beyond which a pair
 * is not tried, and the pools at most */
#define PAIR_MAX_STATES 100000L
#define PAIR_MAX_SPACE  5e7
#define PAIR_MAX_POOLS  8

/* One job in a programme: its state space and the limits of this call. */
struct dp_job {
	struct solver *v;
	size_t j;
	int M, L, B;
	int cap;      /* most slots it may take; INT_MAX none */
	enum tie tie; /* one-job programme: how equal costs are broken */
	int radix[DP_MAX_POOLS];
	size_t xs; /* product of radix */
};

/* A job's state between two slots. */
struct run_state {
	int x[DP_MAX_POOLS]; /* hours on each pool so far */
	int cur;             /* pool of the run in progress, -1 none */
	int len;             /* its length, counted up to min_run */
	int busy;            /* consecutive busy slots, counted when max_run */
	int shorts;          /* runs shorter than min_run that have ended */
};

static const struct run_state run_start = {.cur = -1};

/* ---- the memo ---- */

void solver_memo_free(struct memo *mm)
{
	free(mm->stamp);
	free(mm->key);
	free(mm->cost);
	free(mm->press);
	free(mm->choice);
	memset(mm, 0, sizeof *mm);
}

/* Room for n entries (keys too when keyed); what it held is lost when it
 * grows. PLANNER_OK or PLANNER_ESYS. */
static int memo_reserve(struct memo *mm, size_t n, bool keyed)
{
	if (n <= mm->n)
		return PLANNER_OK;
	solver_memo_free(mm);
	mm->stamp = calloc(n, sizeof *mm->stamp);
	mm->key = keyed ? malloc(n * sizeof *mm->key) : NULL;
	mm->cost = malloc(n * sizeof *mm->cost);
	mm->press = malloc(n * sizeof *mm->press);
	mm->choice = calloc(n, sizeof *mm->choice); /* zeroed for the analyser */
	if (!mm->stamp || (keyed && !mm->key) || !mm->cost || !mm->press || !mm->choice) {
		solver_memo_free(mm);
		return PLANNER_ESYS;
	}
	mm->n = n;
	return PLANNER_OK;
}

/* Forgets every entry: a new generation. */
static void memo_clear(struct memo *mm)
{
	if (++mm->gen == 0) {
		memset(mm->stamp, 0, mm->n * sizeof *mm->stamp);
		mm->gen = 1;
	}
}

/* ---- the run rules ---- */

/* The states of job j at one slot (hours per pool × run in progress ×
 * busy stretch × short run), and its radices; 0 with more than
 * DP_MAX_POOLS pools. */
static double dp_dims(const struct solver *v, struct dp_job *d)
{
	const struct sched_job *job = &v->p->jobs[d->j];
	const size_t M = v->p->n_pools;
	if (M > DP_MAX_POOLS)
		return 0;
	double n = 1;
	for (size_t m = 0; m < M; m++) {
		d->radix[m] = 1;
		if (solver_usable(v->p, d->j, m) && solver_density(job, &job->opt[m]) >= 0) {
			double h = ceil(job->opt[m].hours - WORK_EPS);
			if (h > v->allowed_n[d->j])
				h = v->allowed_n[d->j];
			d->radix[m] = (int)h + 1;
		}
		n *= d->radix[m];
	}
	d->xs = (size_t)n;
	d->M = (int)M;
	d->L = job->min_run > 1 ? job->min_run : 1;
	d->B = job->max_run > 0 ? job->max_run : 0;
	return n * (double)(M + 1) * (d->L + 1) * (d->B + 1) * 2;
}

/* The one-job programme's states over the month; 0 when too many. */
static size_t dp_size(const struct solver *v, struct dp_job *d)
{
	if (v->p->no_exact)
		return 0;
	double n = dp_dims(v, d) * (double)(v->T + 1);
	return n <= 0 || n > DP_MAX_STATES ? 0 : (size_t)n;
}

/* The share of the job its hours so far do. */
static double dp_frac(const struct sched_job *job, const struct run_state *s, int M)
{
	double f = 0;
	for (int m = 0; m < M; m++)
		if (s->x[m])
			f += s->x[m] / job->opt[m].hours;
	return f;
}

/* Ends the run in progress; false when that makes a second short run. */
static bool run_close(const struct sched_job *job, struct run_state *s)
{
	if (s->cur >= 0 && s->len < job->min_run)
		s->shorts++;
	s->cur = -1;
	s->len = 0;
	return s->shorts <= 1;
}

/* The run rules, in one place: the state after job d->j spends slot t idle
 * (m = -1) or on pool m, capacity aside; false when a rule forbids it.
 * Idle closes the run in progress and the busy stretch. On a pool, the
 * slot must be allowed, the job not done, its hours on the pool fewer than
 * the pool can use, the busy stretch shorter than max_run and its slots
 * under the cap; a new run closes the one in progress, and may not follow
 * a short run, which must be the job's last. */
static bool run_step(const struct dp_job *d, const struct run_state *from, int t, int m,
                     struct run_state *to)
{
	const struct sched_job *job = &d->v->p->jobs[d->j];
	*to = *from;
	if (m < 0) {
		if (!run_close(job, to))
			return false;
		to->busy = 0;
		return true;
	}
	if (!job->allowed[t] || d->radix[m] < 2 || to->x[m] + 1 >= d->radix[m] ||
	    (d->B && to->busy >= d->B) || dp_frac(job, to, d->M) >= 1 - WORK_EPS)
		return false;
	if (d->cap < INT_MAX) {
		int used = 0;
		for (int q = 0; q < d->M; q++)
			used += to->x[q];
		if (used >= d->cap)
			return false;
	}
	if (to->cur != m) {
		if (!run_close(job, to) || to->shorts > 0)
			return false;
		to->cur = m;
	}
	if (to->len < d->L)
		to->len++;
	if (d->B)
		to->busy++;
	to->x[m]++;
	return true;
}

/* The job's cost when its placement ends in state s; INFINITY when the
 * runs break min_run. *trim_pool gets the pool of the partial hour. */
static double dp_final(const struct sched_job *job, struct run_state s, int M, int *trim_pool)
{
	*trim_pool = -1;
	if (!run_close(job, &s))
		return INFINITY;
	double f = dp_frac(job, &s, M);
	if (s.shorts == 1 && f < 1 - WORK_EPS)
		return INFINITY;
	double c = 0, best_trim = 0;
	for (int m = 0; m < M; m++) {
		const struct sched_option *o = &job->opt[m];
		c += s.x[m] * o->cost_per_hour;
		if (s.x[m] && f > 1 + WORK_EPS && (f - 1) * o->hours < 1) {
			double trim = (f - 1) * o->hours * o->cost_per_hour;
			if (*trim_pool < 0 || trim > best_trim) {
				best_trim = trim;
				*trim_pool = m;
			}
		}
	}
	c -= best_trim;
	double rest = f < 1 ? 1 - f : 0;
	return c + rest * solver_fallback(job);
}

/* Whether cost c with tie-break score pr beats bc with bp. */
static bool dp_better(double c, double pr, double bc, double bp)
{
	if (fabs(c - bc) > SCHED_COST_EPS + 1e-12 * fabs(bc))
		return c < bc;
	return pr < bp - 1e-12;
}

/* Whether pool m has room for job j's run in slot t. */
static bool room(const struct solver *v, size_t j, int m, int t)
{
	return v->freecap[(size_t)m * v->T + t] >= v->p->jobs[j].opt[m].gpus;
}

/* Takes the slots marked in job j's row (pool set, no work yet), ending in
 * state s: the last slot on the pool dp_final trims does the partial hour. */
static void dp_take(struct solver *v, size_t j, const struct run_state *s)
{
	const struct sched_job *job = &v->p->jobs[j];
	int16_t *at = &v->s->pool[j * v->T];
	const int M = (int)v->p->n_pools;
	int tp;
	dp_final(job, *s, M, &tp);
	double f = dp_frac(job, s, M);
	int trim_t = -1;
	for (int t = 0; t < v->T; t++)
		if (at[t] >= 0 && at[t] == tp)
			trim_t = t;
	for (int t = 0; t < v->T; t++) {
		int m = at[t];
		if (m < 0)
			continue;
		at[t] = -1;
		double w = 1;
		if (t == trim_t)
			w = 1 - (f - 1) * job->opt[m].hours;
		solver_take(v, j, m, t, w);
	}
}

/* ---- one job placed exactly, the others fixed ---- */

static size_t dp_index(const struct dp_job *d, int t, const struct run_state *s)
{
	size_t xi = 0;
	for (int m = d->M - 1; m >= 0; m--)
		xi = xi * (size_t)d->radix[m] + (size_t)s->x[m];
	size_t k = (size_t)t * d->xs + xi;
	k = k * (size_t)(d->M + 1) + (size_t)(s->cur + 1);
	k = k * (size_t)(d->L + 1) + (size_t)s->len;
	k = k * (size_t)(d->B + 1) + (size_t)s->busy;
	return k * 2 + (size_t)s->shorts;
}

/* What the one-job programme adds for the job on pool m in slot t, to
 * break ties between equal costs. */
static double tie_score(const struct dp_job *d, int m, int t)
{
	const struct solver *v = d->v;
	return d->tie == TIE_PRESSURE
	           ? v->pressure[(size_t)m * v->T + t] * v->p->jobs[d->j].opt[m].gpus
	       : d->tie == TIE_EARLY ? t
	                             : v->T - t;
}

/* The least cost (and tie-break score) of the job from state *s at slot t;
 * *s is left as it came. */
static void dp_solve(struct dp_job *d, int t, struct run_state *s, double *cost, double *press)
{
	struct solver *v = d->v;
	struct memo *mm = &v->one;
	if (t == v->T) {
		int tp;
		*cost = dp_final(&v->p->jobs[d->j], *s, d->M, &tp);
		*press = 0;
		return;
	}
	size_t k = dp_index(d, t, s);
	if (mm->stamp[k] == mm->gen) {
		*cost = mm->cost[k];
		*press = mm->press[k];
		return;
	}
	double bc = INFINITY, bp = INFINITY;
	int choice = -2;
	const struct run_state from = *s;
	v->work += DP_STATE_WORK * (d->M + 1);
	for (int m = -1; m < d->M; m++) {
		if ((m >= 0 && !room(v, d->j, m, t)) || !run_step(d, &from, t, m, s))
			continue;
		double c, pr;
		dp_solve(d, t + 1, s, &c, &pr);
		if (m >= 0)
			pr += tie_score(d, m, t);
		if (c < INFINITY && (choice == -2 || dp_better(c, pr, bc, bp))) {
			bc = c;
			bp = pr;
			choice = m;
		}
	}
	*s = from;
	mm->stamp[k] = mm->gen;
	mm->cost[k] = bc;
	mm->press[k] = bp;
	mm->choice[k] = (int16_t)choice;
	*cost = bc;
	*press = bp;
}

bool solver_exact_fits(const struct solver *v, size_t j)
{
	struct dp_job d = {.j = j};
	return v->dp_on && dp_size(v, &d) > 0;
}

int solver_place_exact(struct solver *v, size_t j, enum tie tie, int cap, bool *placed)
{
	struct dp_job d = {.v = v, .j = j, .cap = cap, .tie = tie};
	size_t n = v->dp_on ? dp_size(v, &d) : 0;
	*placed = false;
	if (n == 0)
		return PLANNER_OK;
	if (memo_reserve(&v->one, n, false))
		return PLANNER_ESYS;
	*placed = true;
	memo_clear(&v->one);
	struct run_state s = run_start;
	double c, pr;
	dp_solve(&d, 0, &s, &c, &pr);
	if (!(c < INFINITY))
		return PLANNER_OK; /* nothing valid but idle: leave it off */
	int16_t *at = &v->s->pool[j * v->T];
	v->work += 4L * v->T;
	for (int t = 0; t < v->T; t++) {
		int m = v->one.choice[dp_index(&d, t, &s)];
		struct run_state next;
		run_step(&d, &s, t, m, &next); /* the path dp_solve found keeps every rule */
		s = next;
		if (m >= 0)
			at[t] = (int16_t)m; /* marked; taken below */
	}
	dp_take(v, j, &s);
	return PLANNER_OK;
}

/* ---- two jobs placed exactly together, the others fixed ---- */

struct pair {
	struct dp_job a, b;
	double sa, sb; /* states of each at one slot */
	bool full;     /* the table overflowed: give up */
	long entries;
};

static uint64_t pair_key(const struct pair *P, int t, const struct run_state *a,
                         const struct run_state *b)
{
	uint64_t ia = dp_index(&P->a, 0, a), ib = dp_index(&P->b, 0, b);
	return ((uint64_t)t * (uint64_t)P->sa + ia) * (uint64_t)P->sb + ib + 1;
}

/* The entry of key in the table: its own, or the empty one it would take. */
static size_t pair_slot(const struct memo *mm, uint64_t key)
{
	size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (mm->n - 1);
	while (mm->stamp[i] == mm->gen && mm->key[i] != key)
		i = (i + 1) & (mm->n - 1);
	return i;
}

/* Claims entry i for key, before its value is known, so the table never
 * holds more than PAIR_MAX_STATES; false (and P->full) when it would. */
static bool pair_claim(struct pair *P, struct memo *mm, size_t i, uint64_t key)
{
	if (P->full || P->entries >= PAIR_MAX_STATES || 2 * (size_t)P->entries >= mm->n) {
		P->full = true;
		return false;
	}
	P->entries++;
	mm->stamp[i] = mm->gen;
	mm->key[i] = key;
	mm->cost[i] = INFINITY;
	mm->press[i] = INFINITY;
	mm->choice[i] = -1;
	return true;
}

static void pair_solve(struct pair *P, int t, const struct run_state *a, const struct run_state *b,
                       double *cost, double *press)
{
	struct solver *v = P->a.v;
	const struct sched_problem *p = v->p;
	struct memo *mm = &v->pair;
	if (t == v->T) {
		int tp;
		*cost = dp_final(&p->jobs[P->a.j], *a, P->a.M, &tp) +
		        dp_final(&p->jobs[P->b.j], *b, P->b.M, &tp);
		*press = 0;
		return;
	}
	uint64_t key = pair_key(P, t, a, b);
	size_t i = pair_slot(mm, key);
	if (mm->stamp[i] == mm->gen) {
		*cost = mm->cost[i];
		*press = mm->press[i];
		return;
	}
	if (!pair_claim(P, mm, i, key)) {
		*cost = INFINITY;
		*press = 0;
		return;
	}
	const int M = P->a.M;
	double bc = INFINITY, bp = INFINITY;
	int choice = -1;
	struct run_state na, nb;
	for (int ma = -1; ma < M; ma++) {
		int ga = ma >= 0 ? p->jobs[P->a.j].opt[ma].gpus : 0;
		if (ma >= 0 && v->freecap[(size_t)ma * v->T + t] < ga)
			continue;
		if (!run_step(&P->a, a, t, ma, &na))
			continue;
		for (int mb = -1; mb < M; mb++) {
			int gb = mb >= 0 ? p->jobs[P->b.j].opt[mb].gpus : 0;
			if (mb >= 0 && v->freecap[(size_t)mb * v->T + t] < gb + (ma == mb ? ga : 0))
				continue;
			if (!run_step(&P->b, b, t, mb, &nb))
				continue;
			double c, pr;
			pair_solve(P, t + 1, &na, &nb, &c, &pr);
			if (P->full)
				return;
			if (ma >= 0)
				pr += v->pressure[(size_t)ma * v->T + t] * ga;
			if (mb >= 0)
				pr += v->pressure[(size_t)mb * v->T + t] * gb;
			if (c < INFINITY && (choice < 0 || dp_better(c, pr, bc, bp))) {
				bc = c;
				bp = pr;
				choice = (ma + 1) * (M + 1) + mb + 1;
			}
		}
	}
	mm->cost[i] = bc;
	mm->press[i] = bp;
	mm->choice[i] = (int16_t)choice;
	*cost = bc;
	*press = bp;
}

/* Sets up the pair's state spaces; false when they are too many for it. */
static bool pair_dims(const struct solver *v, struct pair *P)
{
	if (v->p->no_exact || v->p->n_pools > PAIR_MAX_POOLS)
		return false;
	P->sa = dp_dims(v, &P->a);
	P->sb = dp_dims(v, &P->b);
	return P->sa > 0 && P->sb > 0 && P->sa * P->sb * (v->T + 1) <= PAIR_MAX_SPACE;
}

bool solver_pair_fits(const struct solver *v, size_t ja, size_t jb)
{
	struct pair P = {.a = {.j = ja}, .b = {.j = jb}};
	return pair_dims(v, &P);
}

int solver_place_pair(struct solver *v, size_t ja, size_t jb, bool *placed)
{
	struct pair P = {.a = {.v = v, .j = ja, .cap = INT_MAX, .tie = TIE_PRESSURE},
	                 .b = {.v = v, .j = jb, .cap = INT_MAX, .tie = TIE_PRESSURE}};
	*placed = false;
	if (!pair_dims(v, &P))
		return PLANNER_OK;
	/* a table of at least twice the states it may hold */
	double space = P.sa * P.sb * (v->T + 1);
	double want = space < PAIR_MAX_STATES ? space : PAIR_MAX_STATES;
	size_t n = 64;
	while ((double)n < 2 * want)
		n *= 2;
	if (memo_reserve(&v->pair, n, true))
		return PLANNER_ESYS;
	memo_clear(&v->pair);
	struct run_state a = run_start, b = run_start;
	double c, pr;
	pair_solve(&P, 0, &a, &b, &c, &pr);
	v->work += DP_STATE_WORK * P.entries * (long)(v->p->n_pools + 1) * (long)(v->p->n_pools + 1);
	if (P.full || !(c < INFINITY))
		return PLANNER_OK;
	int16_t *at = &v->s->pool[ja * v->T], *bt = &v->s->pool[jb * v->T];
	const int M = P.a.M;
	for (int t = 0; t < v->T; t++) {
		int ch = v->pair.choice[pair_slot(&v->pair, pair_key(&P, t, &a, &b))];
		int ma = ch / (M + 1) - 1, mb = ch % (M + 1) - 1;
		struct run_state na, nb;
		run_step(&P.a, &a, t, ma, &na);
		run_step(&P.b, &b, t, mb, &nb);
		a = na;
		b = nb;
		if (ma >= 0)
			at[t] = (int16_t)ma; /* marked; taken below */
		if (mb >= 0)
			bt[t] = (int16_t)mb;
	}
	dp_take(v, ja, &a);
	dp_take(v, jb, &b);
	*placed = true;
	return PLANNER_OK;
}
