/* sched_solve.c — places jobs on owned GPU pools to minimise the month's
 * cost (see schedule.h for the problem).
 *
 * An owned hour of job j on pool m saves fallback_cost/hours − power per
 * hour; divided by the GPUs a run takes, that is the option's density, the
 * value of one GPU-hour of the pool. Two phases:
 *
 * 1. Construction: options in decreasing density (priority, then spec
 *    order, on a tie — so priority decides only at equal cost). Each takes
 *    the free slots of its window that the options still to come want
 *    least ("pressure": density × GPUs × share of their window they need),
 *    in blocks of min_run and never busy longer than max_run.
 * 2. Repair: a job left partly off owned GPUs tries again after evicting
 *    one or two of the jobs that hold slots it could use, re-placing them
 *    afterwards; the move is kept only when the month gets cheaper. This is
 *    what fixes greedy's slot choices where windows overlap, and packs
 *    multi-GPU runs beside single-GPU ones.
 * 3. Large-neighbourhood search (lns): groups of up to three jobs are
 *    taken off and placed again in every order, each member in every mode
 *    — densest pool first, another pool first, one pool only, not at all,
 *    or, where its states are few, exactly by a dynamic programme over the
 *    slots (best_place; tie-broken by pressure, earliest or latest, and
 *    for pairs with a cap on its hours). Pairs whose joint states are few
 *    are also placed exactly together (pair_place: the same programme over
 *    both jobs' states, sharing capacity), and in groups of three, two so
 *    with the third in each mode before or after them: moves such as two
 *    jobs swapping pools in the same hours, which no one-job placement
 *    finds. Until no move helps or a fixed budget of slot-placements is
 *    spent. With no_exact (tests, benchmarks) neither exact placer runs,
 *    as on a month whose states are too many for them.
 *
 * Everything is in a fixed order with no clock or randomness, so the same
 * problem gives the same answer. The tests compare the result with an
 * exhaustive search on small instances (tests/check_schedule.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "schedule.h"
#include "util.h"

/* Repair rounds over all jobs, and the most moves tried in all; bounds the
 * time on a large month (1,000 jobs stay well under a second). */
#define REPAIR_ROUNDS 4
#define REPAIR_MAX_MOVES 6000
/* Occupying jobs considered for eviction per starving job: the cheapest
 * few to move are where the gains are. */
#define REPAIR_PARTNERS 6

#define WORK_EPS 1e-9

/* Large-neighbourhood search: groups of at most GROUP_MAX jobs are taken
 * off and placed again in every order, each member in every mode (its
 * densest pool first, the earliest or latest free hours first, another
 * pool first, one pool only, or not at all),
 * until no move helps or LNS_BUDGET slot-placements are spent. */
#define GROUP_MAX 3
#define LNS_BUDGET 12000000L
/* Problems with at most this many jobs try every group of jobs; larger ones
 * the groups of a job and its partners. */
#define LNS_ALL_GROUPS 8
#define MODE_DEFAULT (-1)
#define MODE_NONE (-2)
#define MODE_BEST (-3)
#define MODE_BEST_EARLY (-4)
#define MODE_BEST_LATE (-5)
#define MODE_EARLY (-6) /* densest first, earliest free slots first */
#define MODE_LATE (-7)  /* densest first, latest free slots first */
#define MODE_BEST_CAP (-100) /* MODE_BEST_CAP - c: at most c slots */
/* best_place's states (slot × hours per pool × run in progress) at most */
#define DP_MAX_STATES 200000
/* pair_place: joint states memoised at most (the hash table holding them
 * is a power of two at least twice as large, grown as needed), the product
 * of the two jobs' state spaces over the slots beyond which a pair is not
 * tried, and the pools at most */
#define PAIR_MAX_STATES 100000L
#define PAIR_MAX_SPACE 5e7
#define PAIR_MAX_POOLS 8

struct opt_ref {
	size_t job;
	int pool;
	double density;
};

struct solver {
	const struct sched_problem *p;
	struct sched_solution *s;
	int T;
	int *freecap;          /* n_pools × T: GPUs not in use */
	double *pressure;      /* n_pools × T */
	unsigned char *active; /* per option (job × pool): counts in pressure */
	struct opt_ref *opts;  /* every usable option, densest first */
	size_t n_opts;
	size_t *by_job;        /* n_jobs + 1 offsets into job_opts */
	struct opt_ref *job_opts; /* each job's options, densest first */
	int *allowed_n;        /* slots each job may use */
	bool constructing;     /* phase 1: pressure may turn down a partial hour */
	int slot_key;          /* place(): 0 least pressure, 1 earliest, 2 latest */
	/* scratch, T each */
	unsigned char *cand;
	int *idx;
	double *score;
	int16_t *save_pool[GROUP_MAX];
	double *save_work[GROUP_MAX];
	unsigned char *save_active; /* GROUP_MAX × n_pools */
	int *modes;            /* GROUP_MAX × (3 + 2 n_pools): modes of a group */
	/* exact placement of one job (best_place): memo stamped per call */
	bool dp_on;            /* not for the baseline, nor with no_exact */
	size_t dp_n;           /* entries allocated, grown as needed */
	unsigned *dp_stamp;
	unsigned dp_gen;
	double *dp_cost, *dp_press;
	int16_t *dp_choice;
	int dp_key;            /* tie-break: 0 pressure, 1 earliest, 2 latest */
	int dp_cap;            /* most slots the job may take */
	/* exact placement of two jobs together (pair_place): hash memo */
	uint64_t *pr_key;
	unsigned *pr_stamp;
	unsigned pr_gen;
	size_t pr_n;           /* table size, a power of two; 0 none yet */
	double *pr_cost, *pr_press;
	int16_t *pr_choice;
};

static double fallback(const struct sched_job *j)
{
	return isinf(j->fallback_cost) ? SCHED_UNPLACED_PENALTY : j->fallback_cost;
}

static double density(const struct sched_job *j, const struct sched_option *o)
{
	return (fallback(j) / o->hours - o->cost_per_hour) / o->gpus;
}

static bool usable(const struct sched_problem *p, size_t j, size_t m)
{
	const struct sched_option *o = &p->jobs[j].opt[m];
	return o->gpus > 0 && o->gpus <= p->pools[m].count && o->hours > 0 &&
	       isfinite(o->hours);
}

static int cmp_opt(const void *a, const void *b, const struct sched_problem *p)
{
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

/* qsort has no context argument in C11; a small insertion-merge sort with
 * one keeps the module free of globals. */
static void sort_opts(struct opt_ref *a, size_t n, const struct sched_problem *p,
		      struct opt_ref *tmp)
{
	if (n < 2)
		return;
	size_t h = n / 2;
	sort_opts(a, h, p, tmp);
	sort_opts(a + h, n - h, p, tmp);
	size_t i = 0, k = h, o = 0;
	while (i < h && k < n)
		tmp[o++] = cmp_opt(&a[k], &a[i], p) < 0 ? a[k++] : a[i++];
	while (i < h)
		tmp[o++] = a[i++];
	while (k < n)
		tmp[o++] = a[k++];
	memcpy(a, tmp, n * sizeof *a);
}

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

/* The solver's objective for one job: unplaced work at the penalty. */
static double objective(const struct solver *v, size_t j)
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
	double d = density(job, &job->opt[m]);
	if (d <= 0)
		return;
	double w = sign * d * job->opt[m].gpus * demand_share(v, j, m);
	double *pr = &v->pressure[(size_t)m * v->T];
	for (int t = 0; t < v->T; t++)
		if (job->allowed[t])
			pr[t] += w;
}

static void set_active(struct solver *v, size_t j, int m, bool on)
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

/* The job's last busy slot, -1 when none. */
static int last_busy(const struct solver *v, size_t j)
{
	const int16_t *at = &v->s->pool[j * v->T];
	int t = v->T - 1;
	while (t >= 0 && at[t] < 0)
		t--;
	return t;
}

static void take(struct solver *v, size_t j, int m, int t, double w)
{
	const struct sched_option *o = &v->p->jobs[j].opt[m];
	v->s->pool[j * v->T + t] = (int16_t)m;
	v->s->work[j * v->T + t] = w;
	v->freecap[(size_t)m * v->T + t] -= o->gpus;
	v->s->rest[j] -= w / o->hours;
	if (v->s->rest[j] < WORK_EPS)
		v->s->rest[j] = 0;
}

static int cmp_slot_score(const int *a, const int *b, const double *score)
{
	if (score[*a] != score[*b])
		return score[*a] < score[*b] ? -1 : 1;
	return *a - *b;
}

static void sort_slots(int *a, int n, const double *score, int *tmp)
{
	if (n < 2)
		return;
	int h = n / 2;
	sort_slots(a, h, score, tmp);
	sort_slots(a + h, n - h, score, tmp);
	int i = 0, k = h, o = 0;
	while (i < h && k < n)
		tmp[o++] = cmp_slot_score(&a[k], &a[i], score) < 0 ? a[k++] : a[i++];
	while (i < h)
		tmp[o++] = a[i++];
	while (k < n)
		tmp[o++] = a[k++];
	memcpy(a, tmp, (size_t)n * sizeof *a);
}

/* Places as much of job j as fits on pool m. */
static void place(struct solver *v, size_t j, int m)
{
	const struct sched_job *job = &v->p->jobs[j];
	const struct sched_option *o = &job->opt[m];
	const int T = v->T;
	double need = v->s->rest[j] * o->hours;
	if (need <= WORK_EPS)
		return;
	const int16_t *at = &v->s->pool[j * T];
	const int *fc = &v->freecap[(size_t)m * T];
	const double *pr = &v->pressure[(size_t)m * T];
	double own = v->active[j * v->p->n_pools + m] && density(job, o) > 0
			     ? density(job, o) * o->gpus * demand_share(v, j, m)
			     : 0;
	int n_cand = 0;
	for (int t = 0; t < T; t++) {
		v->cand[t] = job->allowed[t] && at[t] < 0 && fc[t] >= o->gpus;
		v->score[t] = v->slot_key == 1   ? t
			      : v->slot_key == 2 ? T - t
						 : pr[t] - (job->allowed[t] ? own : 0);
		if (v->cand[t])
			v->idx[n_cand++] = t;
	}
	int minrun = job->min_run > 1 ? job->min_run : 1;
	int maxrun = job->max_run;
	if (minrun == 1 || ceil(need - WORK_EPS) <= 1) {
		/* Single hours: the least wanted slots, earliest on a tie. */
		int *tmp = malloc((size_t)(n_cand ? n_cand : 1) * sizeof *tmp);
		if (!tmp)
			return;
		sort_slots(v->idx, n_cand, v->score, tmp);
		free(tmp);
		for (int i = 0; i < n_cand && need > WORK_EPS; i++) {
			int t = v->idx[i];
			if (maxrun > 0 && busy_run(v, j, t, -1) + 1 + busy_run(v, j, t, +1) > maxrun)
				continue;
			/* With min_run, a lone last hour goes after the job's other
			 * runs or onto the end of one. */
			if (minrun > 1 && t <= last_busy(v, j) && !(t > 0 && at[t - 1] == m) &&
			    !(t + 1 < T && at[t + 1] == m))
				continue;
			double w = need < 1 ? need : 1;
			/* A last, partial hour is worth only its share: leave the
			 * slot when others are expected to value it more. */
			if (v->constructing && w < 1 && w * density(job, o) * o->gpus < v->score[t])
				continue;
			take(v, j, m, t, w);
			need -= w;
		}
		return;
	}
	while (need > WORK_EPS) {
		int L = (int)ceil(need - WORK_EPS);
		if (L > minrun)
			L = minrun;
		int best = -1, best_len = 0;
		double best_score = 0; /* mean pressure per slot */
		bool best_adj = false;
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
			int left = busy_run(v, j, s0, -1), right = busy_run(v, j, t, +1);
			if (maxrun > 0 && left + L + right > maxrun)
				continue;
			/* A run shorter than min_run must be the job's last. */
			if (L < minrun && s0 <= last_busy(v, j))
				continue;
			/* Beside the job's own run on this pool: one longer run
			 * leaves whole gaps for others. */
			bool adj = (s0 > 0 && at[s0 - 1] == m) || (t + 1 < T && at[t + 1] == m);
			double mean = sum / L;
			if (best < 0 || mean < best_score - SCHED_COST_EPS ||
			    (fabs(mean - best_score) <= SCHED_COST_EPS && adj && !best_adj)) {
				best = s0;
				best_len = L;
				best_score = mean;
				best_adj = adj;
			}
		}
		/* One more hour on the end of a run already long enough. */
		for (int t = 0; t < T; t++) {
			if (!v->cand[t] || at[t] >= 0)
				continue;
			bool left = t > 0 && at[t - 1] == m, right = t + 1 < T && at[t + 1] == m;
			if (!left && !right)
				continue;
			if (maxrun > 0 && busy_run(v, j, t, -1) + 1 + busy_run(v, j, t, +1) > maxrun)
				continue;
			if (best < 0 || v->score[t] < best_score - SCHED_COST_EPS ||
			    (fabs(v->score[t] - best_score) <= SCHED_COST_EPS && !best_adj)) {
				best = t;
				best_len = 1;
				best_score = v->score[t];
				best_adj = true;
			}
		}
		if (best < 0)
			break;
		for (int t = best; t < best + best_len && need > WORK_EPS; t++) {
			double w = need < 1 ? need : 1;
			take(v, j, m, t, w);
			need -= w;
			v->cand[t] = 0;
		}
	}
}

/* Places job j on its options, densest first, or pool `first` first (when
 * >= 0: a job short of hours in its window may do more on a pool that is
 * less dense per GPU-hour but needs fewer hours). */
static void place_job(struct solver *v, size_t j, int first)
{
	if (first >= 0)
		place(v, j, first);
	for (size_t i = v->by_job[j]; i < v->by_job[j + 1] && v->s->rest[j] > WORK_EPS; i++)
		if (v->job_opts[i].density >= 0 && v->job_opts[i].pool != first)
			place(v, j, v->job_opts[i].pool);
}

static void remove_job(struct solver *v, size_t j)
{
	const int T = v->T;
	int16_t *at = &v->s->pool[j * T];
	double *work = &v->s->work[j * T];
	for (int t = 0; t < T; t++) {
		if (at[t] < 0)
			continue;
		v->freecap[(size_t)at[t] * T + t] += v->p->jobs[j].opt[at[t]].gpus;
		at[t] = -1;
		work[t] = 0;
	}
	v->s->rest[j] = 1;
}

static void save_job(struct solver *v, int k, size_t j, double *rest)
{
	memcpy(v->save_pool[k], &v->s->pool[j * v->T], (size_t)v->T * sizeof(int16_t));
	memcpy(v->save_work[k], &v->s->work[j * v->T], (size_t)v->T * sizeof(double));
	*rest = v->s->rest[j];
}

static void restore_job(struct solver *v, int k, size_t j, double rest)
{
	const int T = v->T;
	memcpy(&v->s->pool[j * T], v->save_pool[k], (size_t)T * sizeof(int16_t));
	memcpy(&v->s->work[j * T], v->save_work[k], (size_t)T * sizeof(double));
	for (int t = 0; t < T; t++) {
		int m = v->s->pool[j * T + t];
		if (m >= 0)
			v->freecap[(size_t)m * T + t] -= v->p->jobs[j].opt[m].gpus;
	}
	v->s->rest[j] = rest;
}

static bool sched_bad(const struct solver *v, size_t k);

/* After jobs who[0..n) were re-placed: keeps the move when `allowed` and
 * the month got cheaper than `before` (and, with `check_runs`, every job
 * still keeps its run rules), else takes them off and puts back what
 * save_job kept in slot i with rest[i]. Returns whether the move stayed. */
static bool settle(struct solver *v, const size_t *who, int n, const double *rest,
		   double before, bool allowed, bool check_runs)
{
	double after = 0;
	bool keep = allowed;
	if (keep) {
		for (int i = 0; i < n; i++)
			after += objective(v, who[i]);
		keep = after < before - SCHED_COST_EPS - 1e-12 * fabs(before);
		for (int i = 0; i < n && keep && check_runs; i++)
			keep = !sched_bad(v, who[i]);
	}
	if (!keep) {
		for (int i = 0; i < n; i++)
			remove_job(v, who[i]);
		for (int i = 0; i < n; i++)
			restore_job(v, i, who[i], rest[i]);
	}
	return keep;
}

/* Takes jobs who[0..n) off the pools and places them again in that order,
 * who[0] starting on pool `first` (-1: its densest); keeps the result when
 * the month is cheaper, else puts everything back. */
static bool try_order(struct solver *v, const size_t *who, int n, int first)
{
	double rest[3] = {0}, before = 0;
	if (n < 1 || n > 3)
		return false; /* groups are one to three jobs */
	for (int i = 0; i < n; i++) {
		save_job(v, i, who[i], &rest[i]);
		before += objective(v, who[i]);
	}
	for (int i = 0; i < n; i++)
		remove_job(v, who[i]);
	for (int i = 0; i < n; i++)
		place_job(v, who[i], i == 0 ? first : -1);
	return settle(v, who, n, rest, before, true, false);
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
static bool try_orders(struct solver *v, size_t k, size_t a, size_t b, long *moves)
{
	static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
				       {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
	size_t g[3] = {k, a, b};
	for (int i = 0; i < 6; i++) {
		size_t who[3] = {g[perm[i][0]], g[perm[i][1]], g[perm[i][2]]};
		for (size_t o = v->by_job[who[0]]; o < v->by_job[who[0] + 1]; o++) {
			if (*moves >= REPAIR_MAX_MOVES)
				return false;
			++*moves;
			if (try_order(v, who, 3, v->job_opts[o].pool))
				return true;
		}
	}
	return false;
}

/* Jobs holding slots that job k could use on its pools, the cheapest to
 * evict (lowest density there) first; at most `max`. */
static int partners(struct solver *v, size_t k, size_t *out, int max)
{
	const struct sched_problem *p = v->p;
	const int T = v->T;
	double *dens = malloc(p->n_jobs * sizeof *dens);
	if (!dens)
		return 0;
	for (size_t j = 0; j < p->n_jobs; j++)
		dens[j] = INFINITY;
	const struct sched_job *job = &p->jobs[k];
	for (size_t j = 0; j < p->n_jobs; j++) {
		if (j == k)
			continue;
		const int16_t *at = &v->s->pool[j * T];
		for (int t = 0; t < T; t++) {
			int m = at[t];
			if (m < 0 || !job->allowed[t] || !usable(p, k, (size_t)m))
				continue;
			double d = density(&p->jobs[j], &p->jobs[j].opt[m]);
			if (d < dens[j])
				dens[j] = d;
		}
	}
	int n = 0;
	for (int i = 0; i < max; i++) {
		size_t best = p->n_jobs;
		for (size_t j = 0; j < p->n_jobs; j++)
			if (isfinite(dens[j]) && (best == p->n_jobs || dens[j] < dens[best]))
				best = j;
		if (best == p->n_jobs)
			break;
		out[n++] = best;
		dens[best] = INFINITY;
	}
	free(dens);
	return n;
}

/* True when job k's runs break min_run (dropping an hour can split a run). */
static bool sched_bad(const struct solver *v, size_t k)
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

/* Takes one hour of job k off its pool, keeps that pool-hour closed, and
 * places the job's rest again: a job split over two pools may finish more
 * cheaply with one hour fewer on the first. Keeps the result when cheaper. */
static bool try_drop(struct solver *v, size_t k, int t)
{
	const int T = v->T;
	int m = v->s->pool[k * T + t];
	const struct sched_option *o = &v->p->jobs[k].opt[m];
	double rest, before = objective(v, k);
	save_job(v, 0, k, &rest);
	v->s->rest[k] += v->s->work[k * T + t] / o->hours;
	v->s->pool[k * T + t] = -1;
	v->s->work[k * T + t] = 0;
	v->freecap[(size_t)m * T + t] += o->gpus;
	int keep = v->freecap[(size_t)m * T + t];
	v->freecap[(size_t)m * T + t] = -1; /* closed for this try */
	place_job(v, k, -1);
	v->freecap[(size_t)m * T + t] = keep;
	if (objective(v, k) < before - SCHED_COST_EPS - 1e-12 * fabs(before) && !sched_bad(v, k))
		return true;
	remove_job(v, k);
	restore_job(v, 0, k, rest);
	return false;
}

/* ---- one job placed exactly, the others fixed ----
 *
 * A dynamic programme over the slots whose state is the job's hours on
 * each pool, the run in progress (pool, length up to min_run), the busy
 * stretch (up to max_run) and whether a short run has ended: the least
 * cost for the job given the free capacity, on a tie the least pressure
 * from the others. Used where the states are few (dp_size); the job's last
 * hour is partial, on the pool where that saves most. */
struct dp {
	struct solver *v;
	size_t j;
	int M, L, B;
	int radix[64];
	size_t xs;        /* product of radix */
};

/* The states of job j at one slot (hours per pool × run in progress ×
 * busy stretch × short run), and its radices; 0 with more than 64 pools. */
static double dp_dims(const struct solver *v, size_t j, int *radix, size_t *xs, int *L, int *B)
{
	const struct sched_job *job = &v->p->jobs[j];
	const size_t M = v->p->n_pools;
	if (M > 64)
		return 0;
	double n = 1;
	for (size_t m = 0; m < M; m++) {
		radix[m] = 1;
		if (usable(v->p, j, m) && density(job, &job->opt[m]) >= 0) {
			double h = ceil(job->opt[m].hours - WORK_EPS);
			if (h > v->allowed_n[j])
				h = v->allowed_n[j];
			radix[m] = (int)h + 1;
		}
		n *= radix[m];
	}
	*xs = (size_t)n;
	*L = job->min_run > 1 ? job->min_run : 1;
	*B = job->max_run > 0 ? job->max_run : 0;
	return n * (double)(M + 1) * (*L + 1) * (*B + 1) * 2;
}

static size_t dp_size(const struct solver *v, size_t j, int *radix, size_t *xs, int *L, int *B)
{
	if (v->p->no_exact)
		return 0;
	double n = dp_dims(v, j, radix, xs, L, B) * (double)(v->T + 1);
	return n <= 0 || n > DP_MAX_STATES ? 0 : (size_t)n;
}

struct dst {
	int x[64];
	int cur, len, busy, shorts;
};

static double dp_frac(const struct sched_job *job, const struct dst *s, int M)
{
	double f = 0;
	for (int m = 0; m < M; m++)
		if (s->x[m])
			f += s->x[m] / job->opt[m].hours;
	return f;
}

static bool dp_close(const struct sched_job *job, struct dst *s)
{
	if (s->cur >= 0 && s->len < job->min_run)
		s->shorts++;
	s->cur = -1;
	s->len = 0;
	return s->shorts <= 1;
}

/* The job's cost when its placement ends in state s; INFINITY when the
 * runs break min_run. *trim_pool gets the pool of the partial hour. */
static double dp_final(const struct sched_job *job, struct dst s, int M, int *trim_pool)
{
	*trim_pool = -1;
	if (!dp_close(job, &s))
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
	return c + rest * fallback(job);
}

static bool dp_better(double c, double pr, double bc, double bp)
{
	if (fabs(c - bc) > SCHED_COST_EPS + 1e-12 * fabs(bc))
		return c < bc;
	return pr < bp - 1e-12;
}

static size_t dp_index(const struct dp *d, int t, const struct dst *s)
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

static void dp_solve(struct dp *d, int t, struct dst *s, double *cost, double *press)
{
	struct solver *v = d->v;
	const struct sched_job *job = &v->p->jobs[d->j];
	if (t == v->T) {
		int tp;
		*cost = dp_final(job, *s, d->M, &tp);
		*press = 0;
		return;
	}
	size_t k = dp_index(d, t, s);
	if (v->dp_stamp[k] == v->dp_gen) {
		*cost = v->dp_cost[k];
		*press = v->dp_press[k];
		return;
	}
	double bc = INFINITY, bp = INFINITY;
	int choice = -2;
	struct dst save = *s;
	if (dp_close(job, s)) {
		s->busy = 0;
		double c, pr;
		dp_solve(d, t + 1, s, &c, &pr);
		if (c < INFINITY) {
			bc = c;
			bp = pr;
			choice = -1;
		}
	}
	*s = save;
	if (job->allowed[t] && dp_frac(job, s, d->M) < 1 - WORK_EPS &&
	    (d->B == 0 || s->busy < d->B)) {
		for (int m = 0; m < d->M; m++) {
			if (d->radix[m] < 2 || s->x[m] + 1 >= d->radix[m])
				continue;
			const struct sched_option *o = &job->opt[m];
			if (v->freecap[(size_t)m * v->T + t] < o->gpus)
				continue;
			int used = 0;
			for (int q = 0; q < d->M; q++)
				used += s->x[q];
			if (used >= v->dp_cap)
				continue;
			*s = save;
			if (s->cur != m) {
				if (!dp_close(job, s) || s->shorts > 0)
					continue;
				s->cur = m;
			}
			if (s->len < d->L)
				s->len++;
			if (d->B)
				s->busy++;
			s->x[m]++;
			double c, pr;
			dp_solve(d, t + 1, s, &c, &pr);
			pr += v->dp_key == 0   ? v->pressure[(size_t)m * v->T + t] * o->gpus
			      : v->dp_key == 1 ? t
					       : v->T - t;
			if (c < INFINITY && (choice == -2 || dp_better(c, pr, bc, bp))) {
				bc = c;
				bp = pr;
				choice = m;
			}
		}
	}
	*s = save;
	v->dp_stamp[k] = v->dp_gen;
	v->dp_cost[k] = bc;
	v->dp_press[k] = bp;
	v->dp_choice[k] = (int16_t)choice;
	*cost = bc;
	*press = bp;
}

static void dp_take(struct solver *v, size_t j, const struct dst *s);

/* Room for n states in best_place's memo; false when n is 0 or memory is
 * short (then the job is placed by the heuristic). */
static bool dp_reserve(struct solver *v, size_t n)
{
	if (n == 0)
		return false;
	if (n <= v->dp_n)
		return true;
	free(v->dp_stamp);
	free(v->dp_cost);
	free(v->dp_press);
	free(v->dp_choice);
	v->dp_stamp = calloc(n, sizeof *v->dp_stamp);
	v->dp_cost = malloc(n * sizeof *v->dp_cost);
	v->dp_press = malloc(n * sizeof *v->dp_press);
	v->dp_choice = malloc(n * sizeof *v->dp_choice);
	v->dp_gen = 0;
	v->dp_n = v->dp_stamp && v->dp_cost && v->dp_press && v->dp_choice ? n : 0;
	return v->dp_n > 0;
}

/* Places job j (off every pool now) exactly; false when the states are too
 * many, and nothing is placed. */
static bool best_place(struct solver *v, size_t j)
{
	struct dp d = {.v = v, .j = j, .M = (int)v->p->n_pools};
	if (!v->dp_on || !dp_reserve(v, dp_size(v, j, d.radix, &d.xs, &d.L, &d.B)))
		return false;
	const struct sched_job *job = &v->p->jobs[j];
	if (++v->dp_gen == 0) {
		memset(v->dp_stamp, 0, v->dp_n * sizeof *v->dp_stamp);
		v->dp_gen = 1;
	}
	struct dst s;
	memset(&s, 0, sizeof s);
	s.cur = -1;
	double c, pr;
	dp_solve(&d, 0, &s, &c, &pr);
	if (!(c < INFINITY))
		return true; /* nothing valid but idle: leave it off */
	int16_t *at = &v->s->pool[j * v->T];
	for (int t = 0; t < v->T; t++) {
		size_t k = dp_index(&d, t, &s);
		int m = v->dp_choice[k];
		if (m < 0) {
			dp_close(job, &s);
			s.busy = 0;
			continue;
		}
		if (s.cur != m) {
			dp_close(job, &s);
			s.cur = m;
		}
		if (s.len < d.L)
			s.len++;
		if (d.B)
			s.busy++;
		s.x[m]++;
		at[t] = (int16_t)m; /* marked; taken below */
	}
	dp_take(v, j, &s);
	return true;
}

/* Takes the slots marked in job j's row (pool set, no work yet), ending in
 * state s: the last slot on the pool dp_final trims does the partial hour. */
static void dp_take(struct solver *v, size_t j, const struct dst *s)
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
		take(v, j, m, t, w);
	}
}

/* ---- two jobs placed exactly together, the others fixed ----
 *
 * The same programme over the joint state of a pair: in each slot both
 * jobs choose a pool or idle, sharing the capacity the others leave. It
 * finds moves no one-job-at-a-time placement can, such as two jobs that
 * swap pools in the same hours. The states reached are memoised in a hash
 * table; when they outgrow PAIR_MAX_STATES the pair is left as it was. */

/* One step of job d->j from state *from in slot t: idle (m = -1) or on pool
 * m, capacity aside. False when the rules forbid it. */
static bool dp_step(const struct dp *d, const struct dst *from, int t, int m, struct dst *to)
{
	const struct sched_job *job = &d->v->p->jobs[d->j];
	*to = *from;
	if (m < 0) {
		if (!dp_close(job, to))
			return false;
		to->busy = 0;
		return true;
	}
	if (!job->allowed[t] || d->radix[m] < 2 || to->x[m] + 1 >= d->radix[m] ||
	    (d->B && to->busy >= d->B) || dp_frac(job, to, d->M) >= 1 - WORK_EPS)
		return false;
	if (to->cur != m) {
		if (!dp_close(job, to) || to->shorts > 0)
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

struct pair {
	struct dp a, b;
	double sa, sb;    /* states of each at one slot */
	bool full;        /* the table overflowed: give up */
	long entries;
};

/* A table of at least twice `want` entries for pair_place. */
static bool pair_alloc(struct solver *v, double want)
{
	size_t n = 64;
	while ((double)n < 2 * want)
		n *= 2;
	if (n <= v->pr_n)
		return true;
	free(v->pr_key);
	free(v->pr_stamp);
	free(v->pr_cost);
	free(v->pr_press);
	free(v->pr_choice);
	v->pr_key = malloc(n * sizeof *v->pr_key);
	v->pr_stamp = calloc(n, sizeof *v->pr_stamp);
	v->pr_cost = malloc(n * sizeof *v->pr_cost);
	v->pr_press = malloc(n * sizeof *v->pr_press);
	v->pr_choice = malloc(n * sizeof *v->pr_choice);
	v->pr_gen = 0;
	v->pr_n = v->pr_key && v->pr_stamp && v->pr_cost && v->pr_press && v->pr_choice ? n : 0;
	return v->pr_n > 0;
}

static uint64_t pair_key(const struct pair *P, int t, const struct dst *a, const struct dst *b)
{
	uint64_t ia = dp_index(&P->a, 0, a), ib = dp_index(&P->b, 0, b);
	return ((uint64_t)t * (uint64_t)P->sa + ia) * (uint64_t)P->sb + ib + 1;
}

/* The slot of key in the table: its own, or the empty one it would take. */
static size_t pair_slot(const struct solver *v, uint64_t key)
{
	size_t i = (size_t)(key * 0x9E3779B97F4A7C15ull >> 20) & (v->pr_n - 1);
	while (v->pr_stamp[i] == v->pr_gen && v->pr_key[i] != key)
		i = (i + 1) & (v->pr_n - 1);
	return i;
}

static void pair_solve(struct pair *P, int t, const struct dst *a, const struct dst *b,
		       double *cost, double *press)
{
	struct solver *v = P->a.v;
	const struct sched_problem *p = v->p;
	if (t == v->T) {
		int tp;
		*cost = dp_final(&p->jobs[P->a.j], *a, P->a.M, &tp) +
			dp_final(&p->jobs[P->b.j], *b, P->b.M, &tp);
		*press = 0;
		return;
	}
	uint64_t key = pair_key(P, t, a, b);
	size_t i = pair_slot(v, key);
	if (v->pr_stamp[i] == v->pr_gen) {
		*cost = v->pr_cost[i];
		*press = v->pr_press[i];
		return;
	}
	if (P->full || P->entries >= PAIR_MAX_STATES || 2 * (size_t)P->entries >= v->pr_n) {
		P->full = true;
		*cost = INFINITY;
		*press = 0;
		return;
	}
	P->entries++;
	/* claimed now, so the table never holds more than PAIR_MAX_STATES */
	v->pr_stamp[i] = v->pr_gen;
	v->pr_key[i] = key;
	v->pr_cost[i] = INFINITY;
	v->pr_press[i] = INFINITY;
	v->pr_choice[i] = -1;
	const int M = P->a.M;
	const int ga_n = M + 1;
	double bc = INFINITY, bp = INFINITY;
	int choice = -1;
	struct dst na, nb;
	for (int ma = -1; ma < M; ma++) {
		int ga = ma >= 0 ? p->jobs[P->a.j].opt[ma].gpus : 0;
		if (ma >= 0 && v->freecap[(size_t)ma * v->T + t] < ga)
			continue;
		if (!dp_step(&P->a, a, t, ma, &na))
			continue;
		for (int mb = -1; mb < M; mb++) {
			int gb = mb >= 0 ? p->jobs[P->b.j].opt[mb].gpus : 0;
			if (mb >= 0 && v->freecap[(size_t)mb * v->T + t] < gb + (ma == mb ? ga : 0))
				continue;
			if (!dp_step(&P->b, b, t, mb, &nb))
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
				choice = (ma + 1) * ga_n + mb + 1;
			}
		}
	}
	v->pr_cost[i] = bc;
	v->pr_press[i] = bp;
	v->pr_choice[i] = (int16_t)choice;
	*cost = bc;
	*press = bp;
}

/* Places jobs a and b (off every pool now) exactly together; false when
 * their joint states are too many, and nothing is placed. */
static bool pair_place(struct solver *v, size_t ja, size_t jb, long *budget)
{
	if (v->p->no_exact || v->p->n_pools > PAIR_MAX_POOLS)
		return false;
	struct pair P = {.a = {.v = v, .j = ja, .M = (int)v->p->n_pools},
			 .b = {.v = v, .j = jb, .M = (int)v->p->n_pools}};
	P.sa = dp_dims(v, ja, P.a.radix, &P.a.xs, &P.a.L, &P.a.B);
	P.sb = dp_dims(v, jb, P.b.radix, &P.b.xs, &P.b.L, &P.b.B);
	double space = P.sa * P.sb * (v->T + 1);
	if (P.sa <= 0 || P.sb <= 0 || space > PAIR_MAX_SPACE ||
	    !pair_alloc(v, space < PAIR_MAX_STATES ? space : PAIR_MAX_STATES))
		return false;
	if (++v->pr_gen == 0) {
		memset(v->pr_stamp, 0, v->pr_n * sizeof *v->pr_stamp);
		v->pr_gen = 1;
	}
	struct dst a, b;
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	a.cur = b.cur = -1;
	double c, pr;
	pair_solve(&P, 0, &a, &b, &c, &pr);
	*budget -= P.entries * (long)(v->p->n_pools + 1);
	if (P.full || !(c < INFINITY))
		return false;
	int16_t *at = &v->s->pool[ja * v->T], *bt = &v->s->pool[jb * v->T];
	const int M = P.a.M;
	for (int t = 0; t < v->T; t++) {
		size_t i = pair_slot(v, pair_key(&P, t, &a, &b));
		int ch = v->pr_choice[i];
		int ma = ch / (M + 1) - 1, mb = ch % (M + 1) - 1;
		struct dst na, nb;
		dp_step(&P.a, &a, t, ma, &na);
		dp_step(&P.b, &b, t, mb, &nb);
		a = na;
		b = nb;
		if (ma >= 0)
			at[t] = (int16_t)ma; /* marked; taken below */
		if (mb >= 0)
			bt[t] = (int16_t)mb;
	}
	dp_take(v, ja, &a);
	dp_take(v, jb, &b);
	return true;
}

/* Whether pair_place may take on jobs a and b: a cheap test, before any
 * move is set up. */
static bool pair_fits(const struct solver *v, size_t ja, size_t jb)
{
	if (v->p->no_exact || v->p->n_pools > PAIR_MAX_POOLS)
		return false;
	int radix[64], L, B;
	size_t xs;
	double sa = dp_dims(v, ja, radix, &xs, &L, &B);
	double sb = dp_dims(v, jb, radix, &xs, &L, &B);
	return sa > 0 && sb > 0 && sa * sb * (v->T + 1) <= PAIR_MAX_SPACE;
}

static void place_mode(struct solver *v, size_t j, int mode);

/* Takes jobs a and b off (and a third, k, when k is not NULL) and places
 * a and b exactly together, k in mode kmode before them (k_first) or after
 * them; keeps the result when the month is cheaper, else puts all back. */
static bool try_joint(struct solver *v, size_t ja, size_t jb, const size_t *k, int kmode,
		      bool k_first, long *budget)
{
	const size_t M = v->p->n_pools;
	size_t who[3] = {ja, jb, k ? *k : 0};
	const int n = k ? 3 : 2;
	double rest[3] = {0}, before = 0;
	for (int i = 0; i < n; i++) {
		save_job(v, i, who[i], &rest[i]);
		before += objective(v, who[i]);
		for (size_t m = 0; m < M; m++) {
			v->save_active[i * M + m] = v->active[who[i] * M + m];
			set_active(v, who[i], (int)m, false);
		}
	}
	for (int i = 0; i < n; i++)
		remove_job(v, who[i]);
	bool keep = true;
	if (k && k_first) {
		/* the pair, still to come, presses on the slots it may use */
		for (int i = 0; i < 2; i++)
			for (size_t o = v->by_job[who[i]]; o < v->by_job[who[i] + 1]; o++)
				if (v->job_opts[o].density >= 0)
					set_active(v, who[i], v->job_opts[o].pool, true);
		*budget -= v->T;
		place_mode(v, *k, kmode);
		for (int i = 0; i < 2; i++)
			for (size_t m = 0; m < M; m++)
				set_active(v, who[i], (int)m, false);
	}
	keep = pair_place(v, ja, jb, budget);
	if (keep && k && !k_first) {
		*budget -= v->T;
		place_mode(v, *k, kmode);
	}
	keep = settle(v, who, n, rest, before, keep, true);
	for (int i = 0; i < n; i++)
		for (size_t m = 0; m < M; m++)
			set_active(v, who[i], (int)m, v->save_active[i * M + m]);
	return keep;
}

/* Places job j in one mode: MODE_DEFAULT (densest pool first), MODE_NONE
 * (not at all), m < n_pools (pool m first, then the others), or
 * n_pools + m (pool m only). */
static void place_mode(struct solver *v, size_t j, int mode)
{
	int M = (int)v->p->n_pools;
	if (mode == MODE_NONE)
		return;
	if (mode == MODE_EARLY || mode == MODE_LATE) {
		v->slot_key = mode == MODE_EARLY ? 1 : 2;
		place_job(v, j, -1);
		v->slot_key = 0;
		return;
	}
	if (mode <= MODE_BEST) {
		v->dp_key = mode == MODE_BEST_EARLY ? 1 : mode == MODE_BEST_LATE ? 2 : 0;
		v->dp_cap = mode <= MODE_BEST_CAP ? MODE_BEST_CAP - mode : INT32_MAX;
		if (!best_place(v, j))
			place_job(v, j, -1);
		return;
	}
	if (mode == MODE_DEFAULT)
		place_job(v, j, -1);
	else if (mode < M)
		place_job(v, j, mode);
	else
		place(v, j, mode - M);
}

/* Whether mode lets job j use pool m. */
static bool mode_uses(const struct solver *v, int mode, int m)
{
	int M = (int)v->p->n_pools;
	if (mode == MODE_NONE)
		return false;
	return mode < M || mode == MODE_EARLY || mode == MODE_LATE || mode - M == m;
}

/* Takes who[0..n) off the pools and places them again in that order, each
 * in its mode; the members still to come press on the slots they may use.
 * Keeps the result when the month is cheaper, else puts everything back. */
static bool try_group(struct solver *v, const size_t *who, const int *mode, int n)
{
	const size_t M = v->p->n_pools;
	double rest[GROUP_MAX], before = 0;
	for (int i = 0; i < n; i++) {
		save_job(v, i, who[i], &rest[i]);
		before += objective(v, who[i]);
		for (size_t m = 0; m < M; m++) {
			v->save_active[i * M + m] = v->active[who[i] * M + m];
			set_active(v, who[i], (int)m, false);
		}
	}
	for (int i = 0; i < n; i++)
		remove_job(v, who[i]);
	for (int i = 0; i < n; i++)
		for (size_t o = v->by_job[who[i]]; o < v->by_job[who[i] + 1]; o++)
			if (v->job_opts[o].density >= 0 && mode_uses(v, mode[i], v->job_opts[o].pool))
				set_active(v, who[i], v->job_opts[o].pool, true);
	for (int i = 0; i < n; i++) {
		for (size_t m = 0; m < M; m++)
			set_active(v, who[i], (int)m, false);
		place_mode(v, who[i], mode[i]);
	}
	bool keep = settle(v, who, n, rest, before, true, true);
	for (int i = 0; i < n; i++)
		for (size_t m = 0; m < M; m++)
			set_active(v, who[i], (int)m, v->save_active[i * M + m]);
	return keep;
}

/* The modes worth trying for job j, into out; returns how many. */
static int job_modes(const struct solver *v, size_t j, int *out, bool caps)
{
	int M = (int)v->p->n_pools, n = 0;
	size_t lo = v->by_job[j], hi = v->by_job[j + 1];
	out[n++] = MODE_DEFAULT;
	out[n++] = MODE_EARLY;
	out[n++] = MODE_LATE;
	int radix[64], L, B;
	size_t xs;
	if (v->dp_on && dp_size(v, j, radix, &xs, &L, &B)) {
		out[n++] = MODE_BEST;
		out[n++] = MODE_BEST_EARLY;
		out[n++] = MODE_BEST_LATE;
		/* fewer hours than it could take, leaving room for others */
		int held = 0;
		for (int t = 0; t < v->T; t++)
			held += v->s->pool[j * v->T + t] >= 0;
		for (int c = 1; c < held && caps; c++)
			out[n++] = MODE_BEST_CAP - c;
	}
	if (!isinf(v->p->jobs[j].fallback_cost))
		out[n++] = MODE_NONE;
	int usable_n = 0;
	for (size_t o = lo; o < hi; o++)
		usable_n += v->job_opts[o].density >= 0;
	if (usable_n < 2)
		return n;
	for (size_t o = lo; o < hi; o++) {
		if (v->job_opts[o].density < 0)
			continue;
		if (o != lo)
			out[n++] = v->job_opts[o].pool;
		out[n++] = M + v->job_opts[o].pool;
	}
	return n;
}

/* Every order of group g (n jobs) with every mode for each member; stops
 * at the first move that makes the month cheaper. */
static bool lns_group(struct solver *v, const size_t *g, int n, long *budget)
{
	const int stride = 8 + 2 * (int)v->p->n_pools + v->T;
	/* Zeroed so the analyser can see every element read is one written. */
	int nm[GROUP_MAX] = {0}, perm[GROUP_MAX] = {0}, pick[GROUP_MAX] = {0},
	    mode[GROUP_MAX] = {0};
	size_t who[GROUP_MAX] = {0};
	if (n == 2 && *budget > 0 && pair_fits(v, g[0], g[1]) &&
	    try_joint(v, g[0], g[1], NULL, 0, false, budget))
		return true;
	/* two placed exactly together, the third in each of its modes before
	 * or after them */
	for (int k = 0; n == 3 && k < 3; k++) {
		size_t a = g[k == 0 ? 1 : 0], b = g[k == 2 ? 1 : 2];
		if (!pair_fits(v, a, b))
			continue;
		int nk = job_modes(v, g[k], v->modes, false);
		for (int i = 0; i < nk; i++)
			for (int first = 0; first < 2; first++) {
				/* of the exact modes, the one tie-broken by pressure */
				if (v->modes[i] == MODE_BEST_EARLY || v->modes[i] == MODE_BEST_LATE)
					continue;
				if (*budget <= 0)
					return false;
				if (try_joint(v, a, b, &g[k], v->modes[i], first, budget))
					return true;
			}
	}
	for (int i = 0; i < n; i++) {
		nm[i] = job_modes(v, g[i], &v->modes[(size_t)i * stride], n <= 2);
		perm[i] = i;
	}
	for (;;) {
		for (int i = 0; i < n; i++) {
			pick[i] = 0;
			who[i] = g[perm[i]];
		}
		for (;;) {
			bool skip = false;
			for (int i = 0; i < n; i++) {
				mode[i] = v->modes[perm[i] * stride + pick[i]];
				/* a member left out has no place in the order */
				if (mode[i] == MODE_NONE && i > 0 && perm[i] < perm[i - 1])
					skip = true;
			}
			if (!skip) {
				if (*budget <= 0)
					return false;
				*budget -= (long)n * v->T;
				if (try_group(v, who, mode, n))
					return true;
			}
			int i = n - 1;
			while (i >= 0 && ++pick[i] == nm[perm[i]])
				pick[i--] = 0;
			if (i < 0)
				break;
		}
		/* next permutation */
		int i = n - 2;
		while (i >= 0 && perm[i] > perm[i + 1])
			i--;
		if (i < 0)
			break;
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
	}
	return false;
}

/* Rounds of group moves until none helps or the budget is spent. */
static void lns(struct solver *v)
{
	const struct sched_problem *p = v->p;
	const size_t J = p->n_jobs;
	long budget = LNS_BUDGET;
	size_t part[REPAIR_PARTNERS];
	for (bool improved = true; improved && budget > 0;) {
		improved = false;
		for (size_t j = 0; j < J; j++)
			for (size_t m = 0; m < p->n_pools; m++)
				set_active(v, j, (int)m, usable(p, j, m) && v->s->rest[j] > WORK_EPS);
		if (J <= LNS_ALL_GROUPS) {
			for (int n = 1; n <= GROUP_MAX && (size_t)n <= J; n++) {
				size_t g[GROUP_MAX] = {0};
				for (int i = 0; i < n; i++)
					g[i] = (size_t)i;
				for (;;) {
					bool usable_g = true;
					for (int i = 0; i < n; i++)
						usable_g &= v->by_job[g[i]] < v->by_job[g[i] + 1];
					if (usable_g)
						improved |= lns_group(v, g, n, &budget);
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
			continue;
		}
		for (int n = 1; n <= GROUP_MAX; n++)
			for (size_t i = 0; i < v->n_opts && budget > 0; i++) {
				size_t k = v->opts[i].job;
				if (v->job_opts[v->by_job[k]].pool != v->opts[i].pool)
					continue;
				size_t g[GROUP_MAX] = {k};
				if (n == 1) {
					improved |= lns_group(v, g, 1, &budget);
					continue;
				}
				int np = partners(v, k, part, REPAIR_PARTNERS);
				for (int a = 0; a < np; a++) {
					g[1] = part[a];
					if (n == 2) {
						improved |= lns_group(v, g, 2, &budget);
						continue;
					}
					for (int b = a + 1; b < np; b++) {
						g[2] = part[b];
						improved |= lns_group(v, g, 3, &budget);
					}
				}
			}
	}
}

static void repair(struct solver *v)
{
	const struct sched_problem *p = v->p;
	long moves = 0;
	size_t part[REPAIR_PARTNERS];
	for (int round = 0; round < REPAIR_ROUNDS; round++) {
		bool improved = false;
		/* Pressure now comes from the jobs still wanting owned hours. */
		for (size_t j = 0; j < p->n_jobs; j++)
			for (size_t m = 0; m < p->n_pools; m++)
				set_active(v, j, (int)m, usable(p, j, m) && v->s->rest[j] > WORK_EPS);
		for (size_t i = 0; i < v->n_opts && moves < REPAIR_MAX_MOVES; i++) {
			size_t k = v->opts[i].job;
			/* Each job once per round, at its densest option. */
			if (v->job_opts[v->by_job[k]].pool != v->opts[i].pool)
				continue;
			if (v->opts[i].density < 0)
				continue;
			/* Lead pools worth trying: for a job short of hours each
			 * of its pools; for a finished one those that would do
			 * the whole job for less power than it costs now (a less
			 * dense pool can be cheaper in total). -1: densest. */
			int firsts[8], nf = 0;
			double now = objective(v, k);
			bool starving = v->s->rest[k] > WORK_EPS;
			for (size_t o = v->by_job[k]; o < v->by_job[k + 1] && nf < 8; o++) {
				const struct sched_option *op = &p->jobs[k].opt[v->job_opts[o].pool];
				if (!starving && op->hours * op->cost_per_hour >= now - SCHED_COST_EPS)
					continue;
				firsts[nf++] = o == v->by_job[k] ? -1 : v->job_opts[o].pool;
			}
			if (nf == 0)
				continue;
			bool done = false;
			for (int f = 0; f < nf && !done; f++) {
				moves++;
				done = try_move(v, k, NULL, 0, firsts[f]);
			}
			int n = done ? 0 : partners(v, k, part, REPAIR_PARTNERS);
			for (int a = 0; a < n && !done && moves < REPAIR_MAX_MOVES; a++)
				for (int f = 0; f < nf && !done; f++) {
					moves++;
					done = try_move(v, k, &part[a], 1, firsts[f]);
				}
			for (int a = 0; a < n && !done; a++)
				for (int b = a + 1; b < n && !done && moves < REPAIR_MAX_MOVES; b++) {
					size_t two[2] = {part[a], part[b]};
					moves++;
					done = try_move(v, k, two, 2, -1) ||
					       try_orders(v, k, part[a], part[b], &moves);
				}
			improved |= done;
		}
		/* Jobs over more than one pool: one hour fewer on one of them. */
		for (size_t k = 0; k < p->n_jobs && moves < REPAIR_MAX_MOVES; k++) {
			if (v->by_job[k + 1] - v->by_job[k] < 2)
				continue;
			for (int t = 0; t < v->T && moves < REPAIR_MAX_MOVES; t++) {
				if (v->s->pool[k * v->T + t] < 0)
					continue;
				moves++;
				improved |= try_drop(v, k, t);
			}
		}
		if (!improved)
			break;
	}
}

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
	free(v->score);
	for (int i = 0; i < GROUP_MAX; i++) {
		free(v->save_pool[i]);
		free(v->save_work[i]);
	}
	free(v->save_active);
	free(v->modes);
	free(v->dp_stamp);
	free(v->dp_cost);
	free(v->dp_press);
	free(v->dp_choice);
	free(v->pr_key);
	free(v->pr_stamp);
	free(v->pr_cost);
	free(v->pr_press);
	free(v->pr_choice);
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

int sched_solve(const struct sched_problem *p, struct sched_solution *out, char **err)
{
	const int T = p->n_slots > 0 ? p->n_slots : 0;
	const size_t J = p->n_jobs, M = p->n_pools;
	struct solver v = {.p = p, .s = out, .T = T};
	memset(out, 0, sizeof *out);
	out->n_slots = T;
	out->n_jobs = J;
	size_t JT = J * (size_t)T + 1, MT = M * (size_t)T + 1;
	out->pool = malloc(JT * sizeof *out->pool);
	out->work = calloc(JT, sizeof *out->work);
	out->rest = malloc((J + 1) * sizeof *out->rest);
	v.freecap = malloc(MT * sizeof *v.freecap);
	v.pressure = calloc(MT, sizeof *v.pressure);
	v.active = calloc(J * M + 1, 1);
	v.opts = malloc((J * M + 1) * sizeof *v.opts);
	v.job_opts = malloc((J * M + 1) * sizeof *v.job_opts);
	v.by_job = calloc(J + 1, sizeof *v.by_job);
	v.allowed_n = calloc(J + 1, sizeof *v.allowed_n);
	v.cand = malloc((size_t)T + 1);
	v.idx = malloc(((size_t)T + 1) * sizeof *v.idx);
	v.score = malloc(((size_t)T + 1) * sizeof *v.score);
	bool ok = out->pool && out->work && out->rest && v.freecap && v.pressure && v.active &&
		  v.opts && v.job_opts && v.by_job && v.allowed_n && v.cand && v.idx && v.score;
	v.save_active = malloc(GROUP_MAX * M + 1);
	v.modes = malloc(GROUP_MAX * (8 + 2 * M + (size_t)T) * sizeof *v.modes);
	v.dp_on = !p->baseline && !p->no_exact;
	ok = ok && v.save_active && v.modes;
	for (int i = 0; i < GROUP_MAX; i++) {
		v.save_pool[i] = malloc(((size_t)T + 1) * sizeof(int16_t));
		v.save_work[i] = malloc(((size_t)T + 1) * sizeof(double));
		ok = ok && v.save_pool[i] && v.save_work[i];
	}
	struct opt_ref *tmp = malloc((J * M + 1) * sizeof *tmp);
	if (!ok || !tmp || M > INT16_MAX) {
		free(tmp);
		solver_free(&v);
		sched_solution_free(out);
		return set_err(err, PLANNER_EINPUT, "out of memory scheduling %zu jobs", J);
	}
	for (size_t i = 0; i < J * (size_t)T; i++)
		out->pool[i] = -1;
	for (size_t m = 0; m < M; m++)
		for (int t = 0; t < T; t++)
			v.freecap[m * T + t] = p->pools[m].count;
	for (size_t j = 0; j < J; j++) {
		out->rest[j] = 1;
		for (int t = 0; t < T; t++)
			v.allowed_n[j] += p->jobs[j].allowed[t] != 0;
		v.by_job[j] = v.n_opts;
		size_t first = v.n_opts;
		for (size_t m = 0; m < M; m++) {
			if (!usable(p, j, m) || v.allowed_n[j] == 0)
				continue;
			struct opt_ref r = {j, (int)m, density(&p->jobs[j], &p->jobs[j].opt[m])};
			v.opts[v.n_opts++] = r;
		}
		memcpy(&v.job_opts[first], &v.opts[first], (v.n_opts - first) * sizeof *v.opts);
		sort_opts(&v.job_opts[first], v.n_opts - first, p, tmp);
	}
	v.by_job[J] = v.n_opts;
	sort_opts(v.opts, v.n_opts, p, tmp);
	free(tmp);

	for (size_t i = 0; i < v.n_opts && !p->baseline; i++)
		set_active(&v, v.opts[i].job, v.opts[i].pool, true);
	v.constructing = !p->baseline;
	for (size_t i = 0; i < v.n_opts; i++) {
		const struct opt_ref *o = &v.opts[i];
		set_active(&v, o->job, o->pool, false);
		if (o->density >= 0 || (p->baseline && o->density > -INFINITY))
			place(&v, o->job, o->pool);
		if (out->rest[o->job] <= WORK_EPS)
			for (size_t m = 0; m < M; m++)
				set_active(&v, o->job, (int)m, false);
	}
	v.constructing = false;
	if (!p->baseline) {
		repair(&v);
		lns(&v);
	}
	solver_free(&v);
	return PLANNER_OK;
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
			if ((size_t)m >= p->n_pools || !usable(p, j, (size_t)m))
				return "a job runs on a pool it does not fit";
			if (!job->allowed[t])
				return "a job runs outside its window, days or deadline";
			if (w[t] <= 0 || w[t] > 1 + WORK_EPS)
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
							return "a run shorter than min_run is not the job's last";
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
