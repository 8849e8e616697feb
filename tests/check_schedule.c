/* check_schedule.c — planner/sched_solve.c and planner/schedule.c: the
 * solver against an exhaustive search on many small instances, the trap
 * greedy-by-priority falls into, ties going to priority, the month's hours
 * in a time zone with daylight saving, and every run of real schedules
 * checked against every rule. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>

#include "plan.h"
#include "schedule.h"
#include "store.h"
#include "testutil.h"
#include "util.h"
#include "vram.h"

/* ---- small instances ---- */

#define MAXJ 3
#define MAXM 2
#define MAXT 8

struct inst {
	int T;
	struct sched_pool pools[MAXM];
	size_t M;
	struct sched_job jobs[MAXJ];
	size_t J;
	struct sched_option opt[MAXJ][MAXM];
	unsigned char allowed[MAXJ][MAXT];
};

/* Tests only: the solver without its exact placers (no_exact), as on a real
 * month, where the states of a job or a pair are too many for them. */
static bool without_exact;

static struct sched_problem problem(struct inst *in)
{
	for (size_t j = 0; j < in->J; j++) {
		in->jobs[j].allowed = in->allowed[j];
		in->jobs[j].opt = in->opt[j];
	}
	struct sched_problem p = {.n_slots = in->T, .pools = in->pools, .n_pools = in->M,
				  .jobs = in->jobs, .n_jobs = in->J, .no_exact = without_exact};
	return p;
}

/* Exhaustive search: every assignment of jobs to pools, slot by slot, with
 * the run rules of schedule.h; memoised on the state so instances of 8
 * slots, 3 jobs and 2 pools take milliseconds. Returns the least cost +
 * penalty × unplaced, the split in *cost and *unplaced. */
struct jstate {
	int x[MAXM];  /* slots used on each pool */
	int cur;      /* pool of the run in progress, -1 none */
	int len;      /* its length */
	int busy;     /* consecutive busy slots */
	int shorts;   /* runs shorter than min_run so far */
};

/* unplaced fraction first, then cost */
struct val {
	double u, c;
};

static bool better(struct val a, struct val b)
{
	if (fabs(a.u - b.u) > 1e-9)
		return a.u < b.u;
	return a.c < b.c;
}

static const struct val worst = {INFINITY, INFINITY};

struct memo {
	uint64_t *key;
	struct val *val;
	size_t cap;
	size_t *used;   /* the slots filled, cleared again after each search */
	size_t n_used;
};

struct search {
	const struct inst *in;
	struct memo memo;
};

static double frac_done(const struct inst *in, size_t j, const struct jstate *s)
{
	double f = 0;
	for (size_t m = 0; m < in->M; m++)
		if (s->x[m])
			f += s->x[m] / in->opt[j][m].hours;
	return f;
}

/* Closes the run in progress; false when that breaks min_run for good. */
static bool close_run(const struct inst *in, size_t j, struct jstate *s)
{
	if (s->cur >= 0 && s->len < in->jobs[j].min_run)
		s->shorts++;
	s->cur = -1;
	s->len = 0;
	return s->shorts <= 1;
}

static struct val job_final(const struct inst *in, size_t j, struct jstate s)
{
	if (!close_run(in, j, &s))
		return worst;
	double f = frac_done(in, j, &s);
	if (s.shorts == 1 && f < 1 - 1e-9)
		return worst; /* only a run that finishes the job may be short */
	double c = 0, best_trim = 0;
	for (size_t m = 0; m < in->M; m++) {
		const struct sched_option *o = &in->opt[j][m];
		c += s.x[m] * o->cost_per_hour;
		/* the work past the job's end, as part of one hour on pool m */
		if (s.x[m] && f > 1 && (f - 1) * o->hours < 1) {
			double trim = (f - 1) * o->hours * o->cost_per_hour;
			if (trim > best_trim)
				best_trim = trim;
		}
	}
	c -= best_trim; /* the last hour is partial: pay only for the work */
	double rest = f < 1 ? 1 - f : 0;
	struct val v = {0, c};
	if (isinf(in->jobs[j].fallback_cost))
		v.u = rest;
	else
		v.c += rest * in->jobs[j].fallback_cost;
	return v;
}

static uint64_t pack(int t, const struct jstate *s, size_t J)
{
	uint64_t k = (uint64_t)t;
	for (size_t j = 0; j < J; j++) {
		k = k << 4 | (uint64_t)s[j].x[0];
		k = k << 4 | (uint64_t)s[j].x[1];
		k = k << 2 | (uint64_t)(s[j].cur + 1);
		k = k << 4 | (uint64_t)s[j].len;
		k = k << 4 | (uint64_t)s[j].busy;
		k = k << 1 | (uint64_t)s[j].shorts;
	}
	return k + 1;
}

static struct val search_slot(struct search *S, int t, struct jstate *st);

/* Chooses a pool (or none) for jobs j.. in slot t. */
static struct val search_job(struct search *S, int t, size_t j, struct jstate *st, int *free)
{
	const struct inst *in = S->in;
	if (j == in->J)
		return search_slot(S, t + 1, st);
	struct val best = worst;
	struct jstate save = st[j];
	/* idle */
	if (close_run(in, j, &st[j])) {
		st[j].busy = 0;
		struct val v = search_job(S, t, j + 1, st, free);
		if (better(v, best))
			best = v;
	}
	st[j] = save;
	double f = frac_done(in, j, &st[j]);
	if (in->allowed[j][t] && f < 1 - 1e-9) {
		for (size_t m = 0; m < in->M; m++) {
			const struct sched_option *o = &in->opt[j][m];
			if (o->gpus <= 0 || o->gpus > free[m])
				continue;
			if (in->jobs[j].max_run > 0 && save.busy + 1 > in->jobs[j].max_run)
				continue;
			st[j] = save;
			if (st[j].cur != (int)m) {
				/* after a short run the job is over: it must be the last */
				if (!close_run(in, j, &st[j]) || st[j].shorts > 0)
					continue;
				st[j].cur = (int)m;
			}
			st[j].len++;
			st[j].busy++;
			st[j].x[m]++;
			free[m] -= o->gpus;
			struct val v = search_job(S, t, j + 1, st, free);
			free[m] += o->gpus;
			if (better(v, best))
				best = v;
		}
	}
	st[j] = save;
	return best;
}

static struct val search_slot(struct search *S, int t, struct jstate *st)
{
	const struct inst *in = S->in;
	if (t == in->T) {
		struct val total = {0, 0};
		for (size_t j = 0; j < in->J; j++) {
			struct val v = job_final(in, j, st[j]);
			total.u += v.u;
			total.c += v.c;
		}
		return total;
	}
	uint64_t key = pack(t, st, in->J);
	size_t h = (size_t)(key * 0x9E3779B97F4A7C15ull >> 40) % S->memo.cap;
	for (size_t i = h; S->memo.key[i]; i = (i + 1) % S->memo.cap)
		if (S->memo.key[i] == key)
			return S->memo.val[i];
	int free[MAXM];
	for (size_t m = 0; m < in->M; m++)
		free[m] = in->pools[m].count;
	struct val v = search_job(S, t, 0, st, free);
	size_t i = h;
	while (S->memo.key[i])
		i = (i + 1) % S->memo.cap;
	S->memo.key[i] = key;
	S->memo.val[i] = v;
	S->memo.used[S->memo.n_used++] = i;
	return v;
}

static struct val optimum(const struct inst *in)
{
	/* one table for every search, emptied slot by slot after each: far
	 * fewer pages touched than a fresh one per instance */
	static struct memo memo = {.cap = 1u << 21};
	if (!memo.key) {
		memo.key = calloc(memo.cap, sizeof *memo.key);
		memo.val = calloc(memo.cap, sizeof *memo.val);
		memo.used = calloc(memo.cap, sizeof *memo.used);
		ck_assert_ptr_nonnull(memo.key);
		ck_assert_ptr_nonnull(memo.val);
		ck_assert_ptr_nonnull(memo.used);
	}
	struct search S = {.in = in, .memo = memo};
	struct jstate st[MAXJ];
	memset(st, 0, sizeof st);
	for (size_t j = 0; j < MAXJ; j++)
		st[j].cur = -1;
	struct val v = search_slot(&S, 0, st);
	for (size_t i = 0; i < S.memo.n_used; i++)
		S.memo.key[S.memo.used[i]] = 0;
	return v;
}

/* Deterministic generator (a 64-bit LCG): the same instances every run. */
static uint64_t rng_state;
static double rnd(void)
{
	rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(rng_state >> 11) / 9007199254740992.0;
}
static int rndi(int lo, int hi)
{
	return lo + (int)(rnd() * (hi - lo + 1));
}

/* Hours per pool: whole numbers (hours_per_month as users write it), or
 * also fractions (hours from tokens at each GPU's own speed). */
static bool fractional_hours;

static void random_inst(struct inst *in)
{
	memset(in, 0, sizeof *in);
	in->T = rndi(5, MAXT);
	in->M = (size_t)rndi(1, MAXM);
	for (size_t m = 0; m < in->M; m++) {
		in->pools[m].count = in->M == 1 ? rndi(1, 2) : rndi(1, 2) - (m == 1 && rnd() < 0.5);
		if (in->pools[m].count < 1)
			in->pools[m].count = 1;
		snprintf(in->pools[m].name, sizeof in->pools[m].name, "GPU%zu", m);
	}
	in->J = (size_t)rndi(2, MAXJ);
	for (size_t j = 0; j < in->J; j++) {
		struct sched_job *job = &in->jobs[j];
		static const char *const names[] = {"a", "b", "c"};
		job->name = names[j];
		job->priority = rndi(0, 2);
		job->fallback_cost = rnd() < 0.15 ? INFINITY : 5 + rnd() * 95;
		job->min_run = rnd() < 0.6 ? 0 : rndi(2, 3);
		job->max_run = rnd() < 0.7 ? 0 : (job->min_run > 0 ? job->min_run : 1) + rndi(0, 2);
		int a = rndi(0, in->T - 2), b = rndi(a + 2, in->T);
		for (int t = a; t < b; t++)
			in->allowed[j][t] = rnd() < 0.85;
		for (size_t m = 0; m < in->M; m++) {
			if (rnd() < 0.2)
				continue;
			struct sched_option *o = &in->opt[j][m];
			o->gpus = rndi(1, in->pools[m].count);
			o->hours = !fractional_hours || rnd() < 0.7 ? rndi(1, 5) : 1 + rnd() * 4;
			o->cost_per_hour = (0.1 + rnd() * 3) * o->gpus;
		}
	}
}

/* A failing instance, for the person reading the test log. */
static void dump(const struct inst *in, const struct sched_solution *s)
{
	fprintf(stderr, "T=%d pools:", in->T);
	for (size_t m = 0; m < in->M; m++)
		fprintf(stderr, " %d", in->pools[m].count);
	fprintf(stderr, "\n");
	for (size_t j = 0; j < in->J; j++) {
		const struct sched_job *job = &in->jobs[j];
		fprintf(stderr, "job %zu: F=%g prio=%d min=%d max=%d allowed=", j,
			job->fallback_cost, job->priority, job->min_run, job->max_run);
		for (int t = 0; t < in->T; t++)
			fputc(in->allowed[j][t] ? '1' : '0', stderr);
		for (size_t m = 0; m < in->M; m++)
			fprintf(stderr, " [g=%d h=%g e=%g]", in->opt[j][m].gpus, in->opt[j][m].hours,
				in->opt[j][m].cost_per_hour);
		fprintf(stderr, "\n  got:");
		for (int t = 0; t < in->T; t++)
			fprintf(stderr, " %d", s->pool[j * in->T + t]);
		fprintf(stderr, " rest=%g\n", s->rest[j]);
	}
}

static double worst_gap;
static int n_over;          /* instances more than tol over the optimum */
static int n_unplaced;      /* instances leaving more work unplaced than it */

/* Solves in, checks every rule, and compares with the exhaustive optimum:
 * never more unplaced work; cost within tol, counted in n_over (strict
 * callers assert n_over stays 0). */
static void solve_and_measure(struct inst *in, int id, double tol)
{
	struct sched_problem p = problem(in);
	struct sched_solution s;
	ck_assert_int_eq(sched_solve(&p, &s, NULL), PLANNER_OK);
	const char *bad = sched_check(&p, &s);
	ck_assert_msg(bad == NULL, "instance %d: %s", id, bad ? bad : "");
	double unpl, cost = sched_total_cost(&p, &s, &unpl);
	struct val opt = optimum(in);
	double gap = opt.c > 0 ? cost / opt.c - 1 : cost > 1e-9;
	n_unplaced += unpl > opt.u + 1e-6;
	if (unpl > opt.u + 1e-6 || gap > tol) {
		/* The strict runs fail on any miss: show it. The run without
		 * the exact placers expects a few and reports only the count
		 * (PLANNER_TEST_VERBOSE=1 shows each). */
		if (!without_exact || getenv("PLANNER_TEST_VERBOSE")) {
			fprintf(stderr,
				"instance %d: unplaced %.4f (optimum %.4f), cost %.4f (optimum %.4f)\n",
				id, unpl, opt.u, cost, opt.c);
			dump(in, &s);
		}
		n_over++;
	}
	if (gap > worst_gap)
		worst_gap = gap;
	sched_solution_free(&s);
}

static void solve_and_compare(struct inst *in, int id)
{
	n_over = 0;
	solve_and_measure(in, id, 0.01);
	ck_assert_msg(n_over == 0, "instance %d is more than 1%% over the optimum", id);
}

/* n random instances from seed, whole hours (fractional < 0), fractional
 * hours (> 0) or alternating (0); returns how many are over 1 %. */
static int random_run(uint64_t seed, int n, int fractional, const char *what)
{
	rng_state = seed;
	worst_gap = 0;
	n_over = 0;
	n_unplaced = 0;
	for (int i = 0; i < n; i++) {
		struct inst in;
		fractional_hours = fractional > 0 || (fractional == 0 && (i & 1));
		random_inst(&in);
		solve_and_measure(&in, i, 0.01);
	}
	fprintf(stderr, "schedule: %d random instances (%s%s), %d over 1%%, worst gap %.2f%%\n",
		n, what, without_exact ? ", no exact placer" : "", n_over, worst_gap * 100);
	return n_over;
}

/* The issue asks for 1 % on every instance, and gets it here. */
START_TEST(the_solver_is_within_one_percent_of_the_optimum_on_every_random_instance)
{
	ck_assert_int_eq(random_run(20260301, 400, -1, "whole hours"), 0);
}
END_TEST

START_TEST(with_fractional_hours_the_solver_is_within_one_percent_on_every_instance)
{
	ck_assert_int_eq(random_run(20260302, 400, 1, "fractional hours"), 0);
}
END_TEST

/* A further, independent set. Instance 946 needs two jobs to swap pools
 * in the same hours (7.9 % over when jobs moved one at a time); the exact
 * placement of a pair finds it. (Whole hours only at this seed, and 5,000
 * instances at seed 11, also come out with none over 1 %, moves of a pair
 * placed exactly with a third before or after it included; they are left
 * out here for the suite's time.) */
START_TEST(on_a_further_two_thousand_instances_none_misses)
{
	ck_assert_int_eq(random_run(20260303, 2000, 0, "whole and fractional"), 0);
}
END_TEST

/* On a real month a job's states (slots × hours per pool × run) are far
 * more than the exact placers take, so the heuristic moves do the work.
 * The same instances without the exact placers measure what they do alone:
 *   20260301, 400 whole hours:     4 over 1 %, worst 10.99 %
 *   20260302, 400 fractional:      3 over 1 %, worst 17.57 %
 *   20260303, 2000 mixed:         18 over 1 %, worst 18.40 %
 * (and 48 of 5,000 at seed 11, where one instance leaves work unplaced that
 * the optimum places). Held here to what they meet: within 1 % on at least
 * 99 % of the 2,800 instances, none more than 20 % over, and never more
 * work unplaced than the optimum. */
START_TEST(without_the_exact_placers_99_percent_are_within_one_percent)
{
	without_exact = true;
	int over = 0, unplaced = 0, n = 0;
	double max_gap = 0;
	static const struct {
		uint64_t seed;
		int n, fractional;
		const char *what;
	} sets[] = {{20260301, 400, -1, "whole hours"},
		    {20260302, 400, 1, "fractional hours"},
		    {20260303, 2000, 0, "whole and fractional"}};
	for (size_t i = 0; i < sizeof sets / sizeof *sets; i++) {
		over += random_run(sets[i].seed, sets[i].n, sets[i].fractional, sets[i].what);
		unplaced += n_unplaced;
		n += sets[i].n;
		if (worst_gap > max_gap)
			max_gap = worst_gap;
	}
	without_exact = false;
	ck_assert_msg(over * 100 <= n, "%d of %d instances more than 1 %% over", over, n);
	ck_assert_msg(max_gap <= 0.20, "worst gap %.2f %%", max_gap * 100);
	ck_assert_int_eq(unplaced, 0);
}
END_TEST

/* One GPU, four hours. "fast-chat" has the higher priority but costs 4 to
 * rent for the month; "big-eval" costs 100 to rent. Greedy by priority
 * puts fast-chat on the GPU and pays 100; the optimum pays about 4. */
static void trap(struct inst *in)
{
	memset(in, 0, sizeof *in);
	in->T = 4;
	in->M = 1;
	in->pools[0].count = 1;
	snprintf(in->pools[0].name, sizeof in->pools[0].name, "RTX 4090");
	in->J = 2;
	in->jobs[0] = (struct sched_job){.name = "fast-chat", .priority = 10, .fallback_cost = 4};
	in->jobs[1] = (struct sched_job){.name = "big-eval", .priority = 0, .fallback_cost = 100};
	for (int j = 0; j < 2; j++) {
		in->opt[j][0] = (struct sched_option){.gpus = 1, .hours = 4, .cost_per_hour = 0.2};
		memset(in->allowed[j], 1, 4);
	}
}

START_TEST(an_expensive_to_rent_job_gets_the_owned_gpu_over_a_higher_priority_cheap_one)
{
	struct inst in;
	trap(&in);
	struct sched_problem p = problem(&in);
	struct sched_solution s;
	ck_assert_int_eq(sched_solve(&p, &s, NULL), PLANNER_OK);
	ck_assert_ptr_null(sched_check(&p, &s));
	ck_assert_double_eq_tol(s.rest[1], 0, 1e-9);   /* big-eval all owned */
	ck_assert_double_eq_tol(s.rest[0], 1, 1e-9);   /* fast-chat rented */
	ck_assert_double_eq_tol(sched_total_cost(&p, &s, NULL), 4 + 0.8, 1e-9);
	sched_solution_free(&s);
	solve_and_compare(&in, -1);
}
END_TEST

START_TEST(priority_decides_only_when_the_cost_is_equal)
{
	struct inst in;
	trap(&in);
	in.jobs[0].fallback_cost = 100; /* now both cost the same */
	in.jobs[0].priority = 0;
	in.jobs[1].priority = 5;
	struct sched_problem p = problem(&in);
	struct sched_solution s;
	ck_assert_int_eq(sched_solve(&p, &s, NULL), PLANNER_OK);
	ck_assert_double_eq_tol(s.rest[1], 0, 1e-9);
	sched_solution_free(&s);
	in.jobs[0].priority = 9;
	p = problem(&in);
	ck_assert_int_eq(sched_solve(&p, &s, NULL), PLANNER_OK);
	ck_assert_double_eq_tol(s.rest[0], 0, 1e-9);
	sched_solution_free(&s);
}
END_TEST

/* A job wanting the whole day takes the hours a narrow-window job needs
 * unless slots are chosen with the others in mind. */
START_TEST(a_wide_window_leaves_a_narrow_window_its_hours)
{
	struct inst in;
	memset(&in, 0, sizeof in);
	in.T = 6;
	in.M = 1;
	in.pools[0].count = 1;
	in.J = 2;
	in.jobs[0] = (struct sched_job){.name = "wide", .fallback_cost = 90};
	in.jobs[1] = (struct sched_job){.name = "narrow", .fallback_cost = 60};
	in.opt[0][0] = (struct sched_option){.gpus = 1, .hours = 3, .cost_per_hour = 0.1};
	in.opt[1][0] = (struct sched_option){.gpus = 1, .hours = 3, .cost_per_hour = 0.1};
	memset(in.allowed[0], 1, 6);
	memset(in.allowed[1], 1, 3);
	struct sched_problem p = problem(&in);
	struct sched_solution s;
	ck_assert_int_eq(sched_solve(&p, &s, NULL), PLANNER_OK);
	ck_assert_ptr_null(sched_check(&p, &s));
	ck_assert_double_eq_tol(s.rest[0] + s.rest[1], 0, 1e-9);
	sched_solution_free(&s);
}
END_TEST

START_TEST(hand_made_instances_with_runs_and_multi_gpu_jobs_are_optimal)
{
	struct inst in;
	/* Two GPUs: a 2-GPU job worth more per GPU-hour than two 1-GPU jobs. */
	memset(&in, 0, sizeof in);
	in.T = 4;
	in.M = 1;
	in.pools[0].count = 2;
	in.J = 3;
	in.jobs[0] = (struct sched_job){.name = "tp2", .fallback_cost = 200};
	in.jobs[1] = (struct sched_job){.name = "s1", .fallback_cost = 40};
	in.jobs[2] = (struct sched_job){.name = "s2", .fallback_cost = 30};
	in.opt[0][0] = (struct sched_option){.gpus = 2, .hours = 2, .cost_per_hour = 1};
	in.opt[1][0] = (struct sched_option){.gpus = 1, .hours = 4, .cost_per_hour = 0.5};
	in.opt[2][0] = (struct sched_option){.gpus = 1, .hours = 4, .cost_per_hour = 0.5};
	for (int j = 0; j < 3; j++)
		memset(in.allowed[j], 1, 4);
	solve_and_compare(&in, -2);
	/* min_run 3 in a 5-slot window with a 2-slot blocker in the middle. */
	memset(&in, 0, sizeof in);
	in.T = 7;
	in.M = 1;
	in.pools[0].count = 1;
	in.J = 2;
	in.jobs[0] = (struct sched_job){.name = "long", .fallback_cost = 50, .min_run = 3};
	in.jobs[1] = (struct sched_job){.name = "blocker", .fallback_cost = 80};
	in.opt[0][0] = (struct sched_option){.gpus = 1, .hours = 3, .cost_per_hour = 0.1};
	in.opt[1][0] = (struct sched_option){.gpus = 1, .hours = 2, .cost_per_hour = 0.1};
	memset(in.allowed[0], 1, 7);
	memset(in.allowed[1], 1, 7);
	solve_and_compare(&in, -3);
	/* max_run 2: four hours need a break in between. */
	in.jobs[0].min_run = 0;
	in.jobs[0].max_run = 2;
	in.opt[0][0].hours = 4;
	solve_and_compare(&in, -4);
}
END_TEST

START_TEST(the_same_problem_gives_the_same_solution)
{
	rng_state = 7;
	for (int i = 0; i < 50; i++) {
		struct inst in;
		random_inst(&in);
		struct sched_problem p = problem(&in);
		struct sched_solution a, b;
		ck_assert_int_eq(sched_solve(&p, &a, NULL), PLANNER_OK);
		ck_assert_int_eq(sched_solve(&p, &b, NULL), PLANNER_OK);
		ck_assert_int_eq(memcmp(a.pool, b.pool, in.J * (size_t)in.T * sizeof *a.pool), 0);
		ck_assert_int_eq(memcmp(a.work, b.work, in.J * (size_t)in.T * sizeof *a.work), 0);
		sched_solution_free(&a);
		sched_solution_free(&b);
	}
}
END_TEST

/* The shape that took longest before the work budget (issue 16): many
 * pools of one GPU each (owned GPUs of distinct wattage) and more jobs
 * than the search tries in every group, each with a window of its own and
 * some with min_run. Every run keeps every rule, the answer repeats
 * itself, and it costs no more than the greedy baseline. */
#define WIDE_T    336
#define WIDE_POOLS 96
#define WIDE_JOBS  40

START_TEST(many_one_gpu_pools_keep_every_rule_and_the_same_answer)
{
	static struct sched_pool pools[WIDE_POOLS];
	static struct sched_option opt[WIDE_JOBS][WIDE_POOLS];
	static unsigned char allowed[WIDE_JOBS][WIDE_T];
	static struct sched_job jobs[WIDE_JOBS];
	rng_state = 16;
	for (int m = 0; m < WIDE_POOLS; m++) {
		snprintf(pools[m].name, sizeof pools[m].name, "GPU %d W", 200 + m);
		pools[m].count = 1;
	}
	for (int j = 0; j < WIDE_JOBS; j++) {
		int from = rndi(0, 23), len = rndi(4, 24);
		for (int t = 0; t < WIDE_T; t++)
			allowed[j][t] = (t % 24 - from + 24) % 24 < len;
		for (int m = 0; m < WIDE_POOLS; m++)
			opt[j][m] = (struct sched_option){.gpus = 1, .hours = rndi(20, 160),
							  .cost_per_hour = 0.05 + 0.001 * m,
							  .replicas = 1};
		jobs[j] = (struct sched_job){.name = "job", .priority = rndi(0, 3),
					     .allowed = allowed[j],
					     .fallback_cost = j % 5 ? rnd() * 60 : INFINITY,
					     .min_run = j % 3 ? 0 : rndi(2, 4), .opt = opt[j]};
	}
	struct sched_problem p = {.n_slots = WIDE_T, .pools = pools, .n_pools = WIDE_POOLS,
				  .jobs = jobs, .n_jobs = WIDE_JOBS};
	struct sched_solution a, b, g;
	ck_assert_int_eq(sched_solve(&p, &a, NULL), PLANNER_OK);
	ck_assert_int_eq(sched_solve(&p, &b, NULL), PLANNER_OK);
	const char *bad = sched_check(&p, &a);
	ck_assert_msg(bad == NULL, "%s", bad ? bad : "");
	size_t cells = (size_t)WIDE_JOBS * WIDE_T;
	ck_assert_int_eq(memcmp(a.pool, b.pool, cells * sizeof *a.pool), 0);
	ck_assert_int_eq(memcmp(a.work, b.work, cells * sizeof *a.work), 0);
	p.baseline = true;
	ck_assert_int_eq(sched_solve(&p, &g, NULL), PLANNER_OK);
	double ua, ug;
	double ca = sched_total_cost(&p, &a, &ua), cg = sched_total_cost(&p, &g, &ug);
	ck_assert_msg(ua < ug - 1e-9 || (fabs(ua - ug) <= 1e-9 && ca <= cg + 1e-9),
		      "solver: %.4f unplaced, %.2f; greedy: %.4f unplaced, %.2f", ua, ca, ug,
		      cg);
	sched_solution_free(&a);
	sched_solution_free(&b);
	sched_solution_free(&g);
}
END_TEST

/* Out of memory: sched_solve returns PLANNER_ESYS, not a placement made
 * with less, whether setup runs short (a month of a million slots) or the
 * exact placer's memo does (one job whose programme has ~155,000 states,
 * ~3.4 MB, under a limit 1 MB above what the process holds). Each case
 * runs in a child of its own under RLIMIT_AS; not under AddressSanitizer
 * or valgrind, whose own memory the limit would starve. */
#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

static int solve_with_headroom(int T, int min_run, int max_run, long headroom)
{
	static unsigned char allowed[1 << 20];
	memset(allowed, 1, sizeof allowed);
	struct sched_pool pool = {.name = "GPU", .count = 1};
	struct sched_option opt = {.gpus = 1, .hours = 20, .cost_per_hour = 0.1};
	struct sched_job job = {.name = "j", .allowed = allowed, .fallback_cost = 100,
				.min_run = min_run, .max_run = max_run, .opt = &opt};
	struct sched_problem p = {.n_slots = T, .pools = &pool, .n_pools = 1, .jobs = &job,
				  .n_jobs = 1};
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		long pages = 0;
		FILE *f = fopen("/proc/self/statm", "r");
		if (!f || fscanf(f, "%ld", &pages) != 1)
			_exit(99);
		fclose(f);
		rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + (rlim_t)headroom;
		struct rlimit rl = {cap, cap};
		if (setrlimit(RLIMIT_AS, &rl))
			_exit(98);
		struct sched_solution s;
		_exit(sched_solve(&p, &s, NULL));
	}
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	return WEXITSTATUS(status);
}

START_TEST(out_of_memory_is_a_system_error_at_setup_and_in_the_exact_placer)
{
#ifdef UNDER_ASAN
	return;
#endif
	const char *preload = getenv("LD_PRELOAD");
	if (preload && strstr(preload, "vgpreload"))
		return; /* valgrind */
	ck_assert_int_eq(solve_with_headroom(1 << 20, 0, 0, 1L << 20), PLANNER_ESYS);
	/* 21 hour counts × 2 runs × 5 lengths × 9 busy × 2 × 41 slots */
	ck_assert_int_eq(solve_with_headroom(40, 4, 8, 1L << 20), PLANNER_ESYS);
	/* and with room, the same problem solves */
	ck_assert_int_eq(solve_with_headroom(40, 4, 8, 64L << 20), PLANNER_OK);
}
END_TEST

/* ---- the month ---- */

static int hours_in(const char *tz, int y, int m)
{
	struct sched_slot *s;
	int n;
	ck_assert_int_eq(sched_month_slots(tz, y, m, &s, &n, NULL), PLANNER_OK);
	free(s);
	return n;
}

START_TEST(a_month_with_a_daylight_saving_change_has_743_or_745_hours)
{
	ck_assert_int_eq(hours_in("Europe/Amsterdam", 2026, 3), 743);
	ck_assert_int_eq(hours_in("Europe/Amsterdam", 2026, 10), 745);
	ck_assert_int_eq(hours_in("Europe/Amsterdam", 2026, 1), 744);
	ck_assert_int_eq(hours_in("UTC", 2026, 2), 672);
	ck_assert_int_eq(hours_in("America/New_York", 2026, 3), 743);
	/* and TZ is as it was */
	ck_assert_ptr_null(getenv("TZ"));
}
END_TEST

START_TEST(slots_carry_local_time_and_offset_across_the_change)
{
	struct sched_slot *s;
	int n;
	ck_assert_int_eq(sched_month_slots("Europe/Amsterdam", 2026, 3, &s, &n, NULL), PLANNER_OK);
	/* 29 March 2026: 02:00 CET becomes 03:00 CEST. */
	int t = 28 * 24; /* first hour of the 29th */
	ck_assert_int_eq(s[t].mday, 29);
	ck_assert_int_eq(s[t].wday, 6);
	ck_assert_int_eq(s[t + 1].minute, 60);
	ck_assert_int_eq(s[t + 2].minute, 180);
	ck_assert_int_eq(s[t + 1].utc_offset, 3600);
	ck_assert_int_eq(s[t + 2].utc_offset, 7200);
	char iso[32];
	sched_iso(s[t + 2].start, s[t + 2].utc_offset, iso, sizeof iso);
	ck_assert_str_eq(iso, "2026-03-29T03:00:00+02:00");
	sched_iso(s[n].start, s[n].utc_offset, iso, sizeof iso);
	ck_assert_str_eq(iso, "2026-04-01T00:00:00+02:00");
	free(s);
}
END_TEST

START_TEST(a_window_crossing_midnight_belongs_to_the_day_it_starts)
{
	struct sched_slot *s;
	int n;
	ck_assert_int_eq(sched_month_slots("UTC", 2026, 1, &s, &n, NULL), PLANNER_OK);
	/* 2026-01-02 is a Friday. days: [fri], 22:00-06:00: Friday 22-24 and
	 * Saturday 00-06, not Friday 00-06. */
	struct job_schedule js = {.window_start = 22 * 60, .window_end = 6 * 60,
				  .days_mask = 1u << 4};
	unsigned char *al = calloc((size_t)n, 1);
	sched_allowed(&js, s, n, al);
	int fri = 24, sat = 48;
	ck_assert_int_eq(al[fri + 1], 0);
	ck_assert_int_eq(al[fri + 22], 1);
	ck_assert_int_eq(al[fri + 23], 1);
	ck_assert_int_eq(al[sat + 0], 1);
	ck_assert_int_eq(al[sat + 5], 1);
	ck_assert_int_eq(al[sat + 6], 0);
	ck_assert_int_eq(al[sat + 22], 0);
	int count = 0;
	for (int t = 0; t < n; t++)
		count += al[t];
	ck_assert_int_eq(count, 5 * 8); /* five Fridays in January 2026 */
	/* deadline 10: nothing after the 10th */
	struct job_schedule all = {.window_start = 0, .window_end = 1440, .deadline = 10};
	sched_allowed(&all, s, n, al);
	count = 0;
	for (int t = 0; t < n; t++)
		count += al[t];
	ck_assert_int_eq(count, 10 * 24);
	free(al);
	free(s);
}
END_TEST

START_TEST(zones_with_odd_offsets_and_shifts_tile_every_month_of_the_year)
{
	/* Lord Howe shifts by 30 minutes, Chatham is +12:45/+13:45,
	 * Kathmandu +5:45, Troll shifts by two hours. */
	const char *zones[] = {"Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu",
			       "Antarctica/Troll", "Europe/Amsterdam"};
	struct job_schedule all = {.window_start = 0, .window_end = 1440};
	for (size_t z = 0; z < sizeof zones / sizeof *zones; z++)
		for (int m = 1; m <= 12; m++) {
			struct sched_slot *s;
			int n;
			ck_assert_int_eq(sched_month_slots(zones[z], 2026, m, &s, &n, NULL),
					 PLANNER_OK);
			unsigned char *al = calloc((size_t)n, 1);
			sched_allowed(&all, s, n, al);
			long allowed_s = 0;
			for (int t = 0; t < n; t++) {
				long len = (long)(s[t + 1].start - s[t].start);
				ck_assert(len > 0 && len <= 3600);
				allowed_s += al[t] ? len : 0;
			}
			/* A job without a window may use the whole month. */
			ck_assert_msg(allowed_s == (long)(s[n].start - s[0].start),
				      "%s 2026-%02d: %ld of %ld s", zones[z], m, allowed_s,
				      (long)(s[n].start - s[0].start));
			ck_assert_int_eq(s[0].minute, 0);
			ck_assert_int_eq(s[0].mday, 1);
			free(al);
			free(s);
		}
}
END_TEST

START_TEST(after_a_half_hour_shift_a_window_keeps_within_its_hours)
{
	struct sched_slot *s;
	int n;
	/* Lord Howe leaves daylight saving on 2026-04-05 (+11 to +10:30):
	 * from then on slots start at :30. 09:00-17:00 gets the slots wholly
	 * inside it, 09:30-16:30, never one past 17:00. */
	ck_assert_int_eq(sched_month_slots("Australia/Lord_Howe", 2026, 4, &s, &n, NULL),
			 PLANNER_OK);
	struct job_schedule day = {.window_start = 9 * 60, .window_end = 17 * 60};
	unsigned char *al = calloc((size_t)n, 1);
	sched_allowed(&day, s, n, al);
	for (int t = 0; t < n; t++) {
		int a = s[t].minute, b = a + (int)((s[t + 1].start - s[t].start) / 60);
		ck_assert_int_eq(al[t], a >= 9 * 60 && b <= 17 * 60);
	}
	free(al);
	free(s);
}
END_TEST

/* ---- real schedules, every run checked ---- */

struct built {
	struct jobspec *spec;
	struct plan *plan;
	struct schedule *sched;
	struct store *st;
};

static void build(struct built *b, const char *yaml, int y, int m)
{
	char *dir = test_tmpdir();
	char *path = test_write(dir, "spec.yaml", yaml);
	char *db = xasprintf("%s/prices.db", dir);
	char *err = NULL;
	memset(b, 0, sizeof *b);
	int rc = jobspec_load(path, test_ref(), &b->spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = store_open(db, test_ref(), &b->st, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = plan_compare(b->spec, test_ref(), b->st, &b->plan, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = schedule_month(b->spec, b->plan, y, m, 0, &b->sched, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	free(err);
	free(path);
	free(db);
	free(dir);
}

static void unbuild(struct built *b)
{
	schedule_free(b->sched);
	plan_free(b->plan);
	store_close(b->st);
	jobspec_free(b->spec);
}

/* Every run against every rule: window, days and deadline; owned GPUs
 * never double-booked; a job in one place at a time; fit; data rules;
 * min_run and max_run; costs and totals add up. */
static void check_runs(const struct built *b)
{
	const struct schedule *s = b->sched;
	const int T = s->n_slots;
	unsigned char *al = malloc((size_t)T);
	size_t n_res = s->n_resources;
	int *gpu_use = calloc((size_t)T * (n_res + 1), sizeof *gpu_use);
	double total = 0;
	for (size_t j = 0; j < s->n_jobs; j++) {
		const struct job *job = &b->spec->jobs[j];
		const struct job_result *jr = &b->plan->jobs[j];
		int *busy = calloc((size_t)T, sizeof *busy);
		int shorts = 0;
		double job_cost = 0;
		sched_allowed(&job->sched, s->slots, T, al);
		for (size_t i = 0; i < s->n_runs; i++) {
			const struct sched_run *r = &s->runs[i];
			if (r->job != j)
				continue;
			job_cost += r->cost;
			ck_assert(r->cost >= 0);
			if (r->route == ROUTE_API) {
				ck_assert_msg(job->data == DATA_PUBLIC, "%s: api run for data %s",
					      job->name, data_class_name(job->data));
				continue;
			}
			ck_assert_msg(r->route == ROUTE_OWNED || job->data != DATA_RESTRICTED,
				      "%s: restricted job off owned GPUs", job->name);
			ck_assert(r->hours > 0 && r->hours <= r->n_slots + 1e-9);
			ck_assert(r->end > r->start);
			ck_assert(r->end <= s->slots[r->slot + r->n_slots].start);
			/* fit */
			ck_assert_msg(workload_fits(&jr->work, r->gpu, r->gpu_count),
			              "%s: %d x %s does not fit", job->name, r->gpu_count,
			              r->gpu->name);
			if (r->n_slots < job->sched.min_run - 1e-9)
				shorts++;
			/* A job that may split (inference replicas) may run rented
			 * copies beside its owned run; never two owned runs, and a
			 * fine-tune never two runs at all. */
			bool copy = sched_split_allowed(job) && r->route != ROUTE_OWNED;
			if (copy && job->sched.max_run > 0)
				ck_assert(r->n_slots <= job->sched.max_run + 1e-9);
			for (int t = r->slot; t < r->slot + r->n_slots; t++) {
				ck_assert_msg(al[t], "%s runs outside its window in slot %d",
					      job->name, t);
				if (copy)
					continue;
				ck_assert_msg(!busy[t], "%s runs twice in slot %d", job->name, t);
				busy[t] = 1;
			}
			if (r->route == ROUTE_OWNED) {
				int bits = 0;
				for (size_t k = 0, g = 0; k < n_res; k++) {
					if (s->resources[k].pool != r->pool)
						continue;
					if (r->gpus >> g & 1) {
						bits++;
						for (int t = r->slot; t < r->slot + r->n_slots; t++)
							ck_assert_msg(!gpu_use[(size_t)t * n_res + k]++,
								      "%s double-booked in slot %d",
								      s->resources[k].name, t);
					}
					g++;
				}
				ck_assert_int_eq(bits, r->gpu_count);
			}
		}
		ck_assert_msg(shorts <= 1, "%s has %d runs shorter than min_run", job->name, shorts);
		if (job->sched.max_run > 0) {
			int run = 0;
			for (int t = 0; t < T; t++) {
				run = busy[t] ? run + 1 : 0;
				ck_assert_msg(run <= job->sched.max_run + 1e-9,
					      "%s busy %d h, max_run %g", job->name, run,
					      job->sched.max_run);
			}
		}
		ck_assert_double_eq_tol(job_cost, s->jobs[j].cost, 1e-6);
		ck_assert(s->jobs[j].hours_placed <= s->jobs[j].hours_needed + 1e-6);
		if (s->jobs[j].unplaced_hours > 1e-6)
			ck_assert_msg(strlen(s->jobs[j].why) > 20, "%s unplaced without a reason",
				      job->name);
		total += job_cost;
		free(busy);
	}
	/* The jobs' costs and the owned pools' fixed month (costs:, idle_watts). */
	ck_assert_double_eq_tol(total + s->owned_fixed, s->total_cost, 1e-6);
	for (size_t k = 0; k < n_res; k++) {
		int used = 0;
		for (int t = 0; t < T; t++)
			used += gpu_use[(size_t)t * n_res + k] > 0;
		ck_assert(s->resources[k].hours_used <= used + 1e-6);
		ck_assert_double_eq(s->resources[k].hours_available, T);
	}
	free(gpu_use);
	free(al);
}

static char *tour_yaml(void)
{
	char *text = test_slurp("jobs/monthly.yaml");
	ck_assert_ptr_nonnull(text);
	return text;
}

START_TEST(every_run_of_the_tour_keeps_every_rule_in_march_and_october)
{
	char *yaml = tour_yaml();
	int months[] = {3, 10};
	for (int i = 0; i < 2; i++) {
		struct built b;
		build(&b, yaml, 2026, months[i]);
		ck_assert_int_eq(b.sched->n_slots, months[i] == 3 ? 743 : 745);
		check_runs(&b);
		/* contract-review is restricted: all of it on the owned 4090s */
		ck_assert_str_eq(b.sched->jobs[2].job->name, "contract-review");
		ck_assert_double_eq_tol(b.sched->jobs[2].unplaced_hours, 0, 1e-9);
		ck_assert_double_eq_tol(b.sched->jobs[2].hours_placed, 120, 1e-6);
		unbuild(&b);
	}
	free(yaml);
}
END_TEST

static const char busy_yaml[] =
	"version: 1\n"
	"currency: USD\n"
	"timezone: Europe/Amsterdam\n"
	"electricity_per_kwh: 0.25\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 2}\n"
	"  - {gpu: RTX 3090, count: 1}\n"
	"jobs:\n"
	"  - name: private-rag\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 200\n"
	"    data: restricted\n"
	"    schedule: {window: \"08:00-20:00\", days: [mon, tue, wed, thu, fri], priority: 1}\n"
	"  - name: batch-embed\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 300\n"
	"    data: confidential\n"
	"    interruptible: true\n"
	"    schedule: {window: \"22:00-06:00\", min_run: 4, max_run: 6, deadline: 20}\n"
	"  - name: evals\n"
	"    model: qwen2.5-7b\n"
	"    precision: bf16\n"
	"    hours_per_month: 150\n"
	"    schedule: {window: \"00:00-24:00\", days: [sat, sun], min_run: 3}\n"
	"  - name: chat\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    tokens_per_month: {input: 50M, output: 10M}\n"
	"    schedule: {window: \"09:00-17:00\"}\n";

START_TEST(every_run_of_a_crowded_month_keeps_every_rule)
{
	int months[] = {3, 10, 2};
	for (int i = 0; i < 3; i++) {
		struct built b;
		build(&b, busy_yaml, 2026, months[i]);
		check_runs(&b);
		/* the restricted job only ever runs owned */
		ck_assert(b.sched->jobs[0].hours_placed > 0);
		unbuild(&b);
	}
}
END_TEST

/* Whether job j of b runs (on any route, one copy or more) in slot t. */
static bool runs_in(const struct built *b, size_t j, int t)
{
	for (size_t i = 0; i < b->sched->n_runs; i++) {
		const struct sched_run *r = &b->sched->runs[i];
		if (r->job == j && r->slot <= t && t < r->slot + r->n_slots)
			return true;
	}
	return false;
}

/* serving: window (issue 27) is up in every slot its window allows in the
 * calendar month, on GPUs on hand and on rented ones alike, and in no
 * other slot: November 2026 has 21 weekdays, so 210 hours. */
START_TEST(a_window_service_is_placed_in_every_slot_of_its_window)
{
	static const char *const owned[] = {"owned:\n  - {gpu: RTX 4090, count: 1}\n", ""};
	for (int k = 0; k < 2; k++) {
		char *yaml = xasprintf(
		    "version: 1\ntimezone: Europe/Berlin\n%sjobs:\n  - name: staff\n"
		    "    model: qwen2.5-14b\n    precision: q4_k_m\n    data: confidential\n"
		    "    usage: {users: 12, requests_per_user_day: 20}\n"
		    "    request: {input: 1500, output: 300}\n"
		    "    schedule: {window: \"08:00-18:00\", days: weekdays}\n",
		    owned[k]);
		struct built b;
		build(&b, yaml, 2026, 11);
		check_runs(&b);
		const struct schedule *s = b.sched;
		unsigned char *al = malloc((size_t)s->n_slots);
		sched_allowed(&b.spec->jobs[0].sched, s->slots, s->n_slots, al);
		int n = 0;
		for (int t = 0; t < s->n_slots; t++) {
			ck_assert_msg(runs_in(&b, 0, t) == (al[t] != 0), "slot %d", t);
			n += al[t];
		}
		ck_assert_int_eq(n, 210);
		ck_assert_double_eq_tol(s->jobs[0].hours_needed, 210, 1e-9);
		ck_assert_double_eq_tol(s->jobs[0].hours_placed, 210, 1e-9);
		ck_assert_double_eq_tol(s->jobs[0].unplaced_hours, 0, 1e-9);
		/* With no GPU on hand the serverless endpoint, billed by its busy
		 * seconds (route_serverless.c), is the cheapest fallback: one run
		 * per weekday's window, up its ten hours, the bill scaled to
		 * November's 210 of compare's 221.4 window hours and spread by
		 * hours. */
		const struct route_result *sv = &b.plan->jobs[0].routes[ROUTE_SERVERLESS];
		for (size_t i = 0; k == 1 && i < s->n_runs; i++) {
			const struct sched_run *r = &s->runs[i];
			ck_assert_int_eq(r->route, ROUTE_SERVERLESS);
			ck_assert_ptr_eq(r->gpu, sv->gpu);
			ck_assert_double_eq_tol(r->hours, r->n_slots, 1e-9);
			ck_assert_double_eq_tol(r->cost, sv->monthly_cost * 10 / (10 * 5 / 7.0 * 31),
			                        1e-9);
		}
		if (k == 1) {
			ck_assert_uint_eq(s->n_runs, 21);
			ck_assert_double_eq_tol(s->route_hours[ROUTE_SERVERLESS], 210, 1e-9);
			ck_assert(sv->sls.busy_hours < 210 / 4.0);
		}
		free(al);
		unbuild(&b);
		free(yaml);
	}
}
END_TEST

START_TEST(an_inference_job_rents_beside_its_owned_hours_and_a_fine_tune_never_does)
{
	/* The platform team's nightly batch needs more A100 hours than its
	 * 22:00-06:00 window holds: its rest runs on rented GPUs in the same
	 * hours as its owned runs (replicas). The LoRA fine-tune is one
	 * training run: never in two places at once. */
	char *yaml = test_slurp("tests/fixtures/jobs/platform-team.yaml");
	ck_assert_ptr_nonnull(yaml);
	struct built b;
	build(&b, yaml, 2026, 3);
	check_runs(&b);
	const struct schedule *s = b.sched;
	bool beside = false;
	for (size_t j = 0; j < s->n_jobs; j++) {
		ck_assert_double_eq_tol(s->jobs[j].unplaced_hours, 0, 1e-9);
		bool split = sched_split_allowed(s->jobs[j].job);
		ck_assert(split == (s->jobs[j].job->task == TASK_INFERENCE));
		for (size_t x = 0; x < s->n_runs; x++)
			for (size_t y = x + 1; y < s->n_runs; y++) {
				const struct sched_run *p = &s->runs[x], *q = &s->runs[y];
				if (p->job != j || q->job != j || p->route == q->route)
					continue;
				bool overlap = p->slot < q->slot + q->n_slots &&
					       q->slot < p->slot + p->n_slots;
				ck_assert_msg(split || !overlap, "%s runs in two places at once",
					      s->jobs[j].job->name);
				beside |= overlap;
			}
	}
	ck_assert(beside);
	unbuild(&b);
	free(yaml);
}
END_TEST

START_TEST(the_same_spec_gives_a_byte_identical_schedule)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/p.db", dir);
	const char *argv[] = {"schedule", "jobs/monthly.yaml", "--month", "2026-10", "--format",
			      "json", "--db", db, NULL};
	char *a = NULL, *b = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &a, NULL), 0);
	ck_assert_int_eq(test_run_planner(argv, NULL, &b, NULL), 0);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_nonnull(strstr(a, "\"hours_in_month\":\t745"));
	free(a);
	free(b);
	free(db);
	free(dir);
}
END_TEST

/* Runs `planner schedule SPEC --month 2026-03 --db DB` plus extra (NULL-
 * terminated, may be NULL) on yaml; returns the exit status, stdout in *out. */
static int schedule_cli(const char *yaml, const char *const *extra, char **out)
{
	char *dir = test_tmpdir();
	char *path = test_write(dir, "spec.yaml", yaml);
	char *db = xasprintf("%s/p.db", dir);
	const char *argv[16] = {"schedule", path, "--month", "2026-03", "--db", db};
	size_t a = 6;
	for (size_t i = 0; extra && extra[i] && a < 15; i++)
		argv[a++] = extra[i];
	int rc = test_run_planner(argv, NULL, out, NULL);
	free(path);
	free(db);
	free(dir);
	return rc;
}

static const char short_month_yaml[] =
	"version: 1\n"
	"currency: USD\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 1}\n"
	"jobs:\n"
	"  - name: tiny\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 1\n"
	"    data: restricted\n"
	"    schedule: {min_run: 12}\n";

START_TEST(a_month_of_work_shorter_than_min_run_is_noted_in_table_and_json)
{
	char *out = NULL;
	const char *json[] = {"--format", "json", NULL};
	ck_assert_int_eq(schedule_cli(short_month_yaml, json, &out), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const char *note = cJSON_GetStringValue(cJSON_GetObjectItem(job, "note"));
	ck_assert_ptr_nonnull(note);
	ck_assert_ptr_nonnull(strstr(note, "min_run 12h"));
	cJSON_Delete(root);
	free(out);
	ck_assert_int_eq(schedule_cli(short_month_yaml, NULL, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "note: tiny: min_run 12h"));
	free(out);
}
END_TEST

static const char unplaceable_yaml[] =
	"version: 1\n"
	"currency: USD\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 1}\n"
	"jobs:\n"
	"  - name: too-much\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 200\n"
	"    data: restricted\n"
	"    schedule: {window: \"09:00-10:00\"}\n";

START_TEST(unplaced_hours_exit_6_unless_allowed)
{
	char *out = NULL;
	ck_assert_int_eq(schedule_cli(unplaceable_yaml, NULL, &out), PLANNER_EUNPLACED);
	/* The schedule is still written. */
	ck_assert_ptr_nonnull(strstr(out, "unplaced: too-much"));
	free(out);
	const char *allow[] = {"--allow-unplaced", NULL};
	ck_assert_int_eq(schedule_cli(unplaceable_yaml, allow, &out), 0);
	free(out);
	ck_assert_int_eq(schedule_cli(short_month_yaml, NULL, &out), 0);
	free(out);
}
END_TEST

/* One RTX 4090 on hand at 400 W, 0.20 USD/kWh, PUE 1, March 2026 in UTC
 * (744 h); a restricted job that needs it 100 h. `costs` and `idle` are
 * put into the spec. */
static struct built owned_month(const char *costs, const char *idle)
{
	char *yaml = xasprintf("version: 1\ncurrency: USD\ntimezone: UTC\n"
			       "electricity_per_kwh: 0.20\n%s"
			       "owned:\n  - {gpu: RTX 4090, count: 1, watts: 400%s}\n"
			       "jobs:\n  - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
			       "hours_per_month: 100, data: restricted}\n",
			       costs, idle);
	struct built b;
	build(&b, yaml, 2026, 3);
	free(yaml);
	check_runs(&b);
	ck_assert_int_eq(b.sched->n_slots, 744);
	ck_assert_double_eq_tol(b.sched->route_hours[ROUTE_OWNED], 100, 1e-9);
	return b;
}

START_TEST(idle_draw_and_a_hosts_power_change_the_month_by_the_hand_worked_amounts)
{
	/* Without them: 100 h x 400 W = 40 kWh x 0.20 = 8.00. */
	struct built b = owned_month("", "");
	ck_assert_double_eq_tol(b.sched->total_cost, 8.00, 1e-9);
	ck_assert_double_eq_tol(b.sched->owned_fixed, 0, 1e-12);
	unbuild(&b);
	/* idle_watts 50: the GPU stays on all 744 h. Busy hours draw 400 - 50
	 * above idle: 100 h x 350 W = 35 kWh = 7.00 (the job's cost, what the
	 * solver sees an hour); the month at idle, 744 h x 50 W = 37.2 kWh =
	 * 7.44, is fixed. 14.44 in all: +6.44 = 50 W x (744 - 100) h x 0.20. */
	b = owned_month("", ", idle_watts: 50");
	ck_assert_double_eq_tol(b.sched->jobs[0].cost, 7.00, 1e-9);
	ck_assert_double_eq_tol(b.sched->owned_fixed, 7.44, 1e-9);
	ck_assert_double_eq_tol(b.sched->total_cost, 14.44, 1e-9);
	ck_assert_double_eq_tol(b.sched->route_cost[ROUTE_OWNED], 14.44, 1e-9);
	unbuild(&b);
	/* A host of 100 W, GPUs switched off between runs: it runs with the
	 * GPU, 100 h x 100 W = 10 kWh = +2.00 (its price is sunk with the GPU
	 * on hand). */
	const char *host = "costs: {host: {price: 1000, watts: 100, gpus: 4}}\n";
	b = owned_month(host, "");
	ck_assert_double_eq_tol(b.sched->total_cost, 10.00, 1e-9);
	ck_assert_double_eq_tol(b.sched->owned_fixed, 0, 1e-12);
	unbuild(&b);
	/* Both: kept on, the host draws all 744 h, 74.4 kWh = 14.88 fixed:
	 * 7.00 + 7.44 + 14.88 = 29.32. */
	b = owned_month(host, ", idle_watts: 50");
	ck_assert_double_eq_tol(b.sched->owned_fixed, 22.32, 1e-9);
	ck_assert_double_eq_tol(b.sched->total_cost, 29.32, 1e-9);
	unbuild(&b);
}
END_TEST

/* A confidential job of 10 h inside 09:00-13:00 (runs of at most 4 h)
 * rented from a quote of 0.02 USD an hour; `costs` put into the spec. */
static struct built rented_month(const char *costs)
{
	char *yaml = xasprintf("version: 1\ncurrency: USD\ntimezone: UTC\n%s"
			       "quotes:\n  - {provider: acme, gpu: RTX 4090, count: 1, "
			       "price_per_hour: 0.02}\n"
			       "jobs:\n  - {name: r, model: llama-3.1-8b, precision: q4_k_m, "
			       "hours_per_month: 10, data: confidential, "
			       "schedule: {window: \"09:00-13:00\"}}\n",
			       costs);
	struct built b;
	build(&b, yaml, 2026, 3);
	free(yaml);
	check_runs(&b);
	ck_assert_uint_eq(b.sched->n_runs, 3); /* 4 h, 4 h, 2 h */
	for (size_t i = 0; i < b.sched->n_runs; i++)
		ck_assert_str_eq(b.sched->runs[i].provider, "acme");
	return b;
}

START_TEST(each_rented_run_pays_its_setup_hours_at_its_price)
{
	/* 10 h x 0.02 = 0.20. */
	struct built b = rented_month("");
	ck_assert_double_eq_tol(b.sched->total_cost, 0.20, 1e-12);
	ck_assert_double_eq_tol(b.sched->setup_cost, 0, 1e-12);
	unbuild(&b);
	/* setup_hours 1: three runs x 1 h x 0.02 = +0.06; the last run (2 h)
	 * costs 2 x 0.02 + 0.02 = 0.06. */
	b = rented_month("costs: {setup_hours: 1}\n");
	ck_assert_double_eq_tol(b.sched->setup_cost, 0.06, 1e-12);
	ck_assert_double_eq_tol(b.sched->total_cost, 0.26, 1e-12);
	ck_assert_double_eq_tol(b.sched->route_cost[ROUTE_RENTED], 0.26, 1e-12);
	ck_assert_double_eq_tol(b.sched->runs[2].cost, 0.06, 1e-12);
	unbuild(&b);
}
END_TEST

START_TEST(the_fixed_month_and_setup_are_their_own_lines_in_table_and_json)
{
	static const char yaml[] =
		"version: 1\ncurrency: USD\ntimezone: UTC\nelectricity_per_kwh: 0.20\n"
		"costs: {setup_hours: 1}\n"
		"owned:\n  - {gpu: RTX 4090, count: 1, watts: 400, idle_watts: 50}\n"
		"quotes:\n  - {provider: acme, gpu: RTX 4090, count: 1, price_per_hour: 0.02}\n"
		"jobs:\n  - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 100, "
		"data: restricted}\n"
		"  - {name: r, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 10, "
		"data: confidential, schedule: {window: \"09:00-13:00\", days: [sat]}}\n";
	char *out = NULL;
	const char *json[] = {"--format", "json", NULL};
	ck_assert_int_eq(schedule_cli(yaml, json, &out), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	/* the idle month of the hand-worked example: 744 h x 50 W x 0.20 */
	ck_assert_double_eq_tol(cJSON_GetObjectItem(root, "owned_fixed_cost")->valuedouble, 7.44,
				1e-9);
	const cJSON *setup = cJSON_GetObjectItem(root, "rented_setup_cost");
	ck_assert(cJSON_IsNumber(setup) && setup->valuedouble > 0);
	double routes = 0;
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "cost_by_route"))
		routes += r->valuedouble;
	ck_assert_double_eq_tol(routes, cJSON_GetObjectItem(root, "total_cost")->valuedouble, 0.015);
	cJSON_Delete(root);
	free(out);
	ck_assert_int_eq(schedule_cli(yaml, NULL, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "   fixed        7.44 USD  (of owned: idle draw"));
	ck_assert_ptr_nonnull(strstr(out, "   setup "));
	free(out);
	/* Without costs: and idle_watts, neither. */
	ck_assert_int_eq(schedule_cli(short_month_yaml, json, &out), 0);
	ck_assert_ptr_null(strstr(out, "owned_fixed_cost"));
	ck_assert_ptr_null(strstr(out, "rented_setup_cost"));
	free(out);
}
END_TEST

Suite *schedule_suite(void)
{
	Suite *s = suite_create("schedule");
	TCase *solver = tcase_create("solver");
	tcase_set_timeout(solver, 120);
	tcase_add_test(solver, the_solver_is_within_one_percent_of_the_optimum_on_every_random_instance);
	tcase_add_test(solver, with_fractional_hours_the_solver_is_within_one_percent_on_every_instance);
	tcase_add_test(solver, on_a_further_two_thousand_instances_none_misses);
	tcase_add_test(solver, without_the_exact_placers_99_percent_are_within_one_percent);
	tcase_add_test(solver,
		       an_expensive_to_rent_job_gets_the_owned_gpu_over_a_higher_priority_cheap_one);
	tcase_add_test(solver, priority_decides_only_when_the_cost_is_equal);
	tcase_add_test(solver, a_wide_window_leaves_a_narrow_window_its_hours);
	tcase_add_test(solver, hand_made_instances_with_runs_and_multi_gpu_jobs_are_optimal);
	tcase_add_test(solver, the_same_problem_gives_the_same_solution);
	tcase_add_test(solver, many_one_gpu_pools_keep_every_rule_and_the_same_answer);
	tcase_add_test(solver, out_of_memory_is_a_system_error_at_setup_and_in_the_exact_placer);
	suite_add_tcase(s, solver);
	TCase *month = tcase_create("month");
	tcase_add_test(month, a_month_with_a_daylight_saving_change_has_743_or_745_hours);
	tcase_add_test(month, slots_carry_local_time_and_offset_across_the_change);
	tcase_add_test(month, a_window_crossing_midnight_belongs_to_the_day_it_starts);
	tcase_add_test(month, zones_with_odd_offsets_and_shifts_tile_every_month_of_the_year);
	tcase_add_test(month, after_a_half_hour_shift_a_window_keeps_within_its_hours);
	suite_add_tcase(s, month);
	TCase *real = tcase_create("real schedules");
	tcase_set_timeout(real, 60);
	tcase_add_test(real, every_run_of_the_tour_keeps_every_rule_in_march_and_october);
	tcase_add_test(real, every_run_of_a_crowded_month_keeps_every_rule);
	tcase_add_test(real, an_inference_job_rents_beside_its_owned_hours_and_a_fine_tune_never_does);
	tcase_add_test(real, a_window_service_is_placed_in_every_slot_of_its_window);
	tcase_add_test(real, the_same_spec_gives_a_byte_identical_schedule);
	tcase_add_test(real, a_month_of_work_shorter_than_min_run_is_noted_in_table_and_json);
	tcase_add_test(real, unplaced_hours_exit_6_unless_allowed);
	tcase_add_test(real, idle_draw_and_a_hosts_power_change_the_month_by_the_hand_worked_amounts);
	tcase_add_test(real, each_rented_run_pays_its_setup_hours_at_its_price);
	tcase_add_test(real, the_fixed_month_and_setup_are_their_own_lines_in_table_and_json);
	suite_add_tcase(s, real);
	return s;
}
