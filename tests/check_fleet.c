/* check_fleet.c — the fleet decision (planner/fleet.c): the search against
 * an exact optimum on random small instances, the tour's fleet, payback,
 * and `planner fleet --format json` parsed back. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fleet.h"
#include "schedule.h"
#include "store.h"
#include "tco.h"
#include "testutil.h"
#include "util.h"

/* ---- random small instances and their exact optimum ---- */

#define R_SLOTS 6
#define R_JOBS 3
#define R_POOLS 2
#define R_MAX_BUY 2
#define R_INSTANCES 200

struct inst {
	int base[R_POOLS];              /* GPUs on hand */
	double fixed[R_POOLS];          /* monthly cost of one bought GPU */
	unsigned char allowed[R_JOBS][R_SLOTS];
	double fallback[R_JOBS];
	struct sched_option opt[R_JOBS][R_POOLS];
};

/* A deterministic generator (a 64-bit LCG, Knuth's MMIX constants), so
 * every run sees the same 200 instances. */
static unsigned long long seed;
static double rnd(void)
{
	seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
	return (double)(seed >> 11) / 9007199254740992.0;
}

static void make_inst(struct inst *in, unsigned n)
{
	seed = 0x9e3779b97f4a7c15ULL ^ n;
	memset(in, 0, sizeof *in);
	for (int m = 0; m < R_POOLS; m++) {
		in->base[m] = m == 0 && rnd() < 0.4;
		in->fixed[m] = 1 + rnd() * 12;
	}
	for (int j = 0; j < R_JOBS; j++) {
		in->fallback[j] = 5 + rnd() * 40;
		for (int t = 0; t < R_SLOTS; t++)
			in->allowed[j][t] = rnd() < 0.75;
		for (int m = 0; m < R_POOLS; m++) {
			struct sched_option *o = &in->opt[j][m];
			if (rnd() < 0.2)
				continue; /* does not fit this pool */
			o->gpus = rnd() < 0.7 ? 1 : 2;
			o->replicas = 1;
			o->hours = 1 + (int)(rnd() * 3);
			o->cost_per_hour = 0.2 + rnd() * 3;
		}
	}
}

/* The exact cost of job j given how many slots it holds on each pool:
 * the cheapest fractions first (a fractional knapsack: only a job's last
 * hour is partial), the rest at its fallback. */
static double job_cost_of(const struct inst *in, int j, const int *slots)
{
	double left = 1, cost = 0;
	bool used[R_POOLS] = {false};
	for (;;) {
		int best = -1;
		for (int m = 0; m < R_POOLS; m++) {
			const struct sched_option *o = &in->opt[j][m];
			if (!used[m] && slots[m] > 0 && o->gpus > 0 &&
			    (best < 0 || o->hours * o->cost_per_hour <
					     in->opt[j][best].hours * in->opt[j][best].cost_per_hour))
				best = m;
		}
		if (best < 0)
			break;
		used[best] = true;
		const struct sched_option *o = &in->opt[j][best];
		if (o->hours * o->cost_per_hour >= in->fallback[j])
			break;
		double frac = fmin(left, slots[best] / o->hours);
		cost += frac * o->hours * o->cost_per_hour;
		left -= frac;
	}
	return cost + left * in->fallback[j];
}

/* Mixed-radix state: slots held by each (job, pool), each at most 3
 * (hours are 1..3, so a fourth slot never helps). */
#define R_CAP 3
#define R_STATES 4096 /* 4^(R_JOBS*R_POOLS) */

static double exact_schedule(const struct inst *in, const int *count)
{
	static unsigned char reach[2][R_STATES];
	memset(reach[0], 0, R_STATES);
	reach[0][0] = 1;
	for (int t = 0; t < R_SLOTS; t++) {
		unsigned char *from = reach[t & 1], *to = reach[(t + 1) & 1];
		memset(to, 0, R_STATES);
		for (int st = 0; st < R_STATES; st++) {
			if (!from[st])
				continue;
			for (int a = 0; a < 27; a++) { /* (R_POOLS+1)^R_JOBS */
				int use[R_POOLS] = {0}, ns = st, code = a, ok = 1;
				for (int j = 0; j < R_JOBS && ok; j++, code /= 3) {
					int m = code % 3 - 1;
					if (m < 0)
						continue;
					const struct sched_option *o = &in->opt[j][m];
					if (!in->allowed[j][t] || o->gpus == 0 ||
					    (use[m] += o->gpus) > count[m]) {
						ok = 0;
						break;
					}
					int shift = 1;
					for (int k = 0; k < j * R_POOLS + m; k++)
						shift *= 4;
					if (st / shift % 4 < R_CAP)
						ns += shift;
				}
				if (ok)
					to[ns] = 1;
			}
		}
	}
	double best = INFINITY;
	const unsigned char *end = reach[R_SLOTS & 1];
	for (int st = 0; st < R_STATES; st++) {
		if (!end[st])
			continue;
		double c = 0;
		for (int j = 0; j < R_JOBS; j++) {
			int slots[R_POOLS];
			for (int m = 0; m < R_POOLS; m++) {
				int shift = 1;
				for (int k = 0; k < j * R_POOLS + m; k++)
					shift *= 4;
				slots[m] = st / shift % 4;
			}
			c += job_cost_of(in, j, slots);
		}
		best = fmin(best, c);
	}
	return best;
}

static double exact_optimum(const struct inst *in)
{
	double best = INFINITY;
	for (int a = 0; a <= R_MAX_BUY; a++)
		for (int b = 0; b <= R_MAX_BUY; b++) {
			int count[R_POOLS] = {in->base[0] + a, in->base[1] + b};
			best = fmin(best, exact_schedule(in, count) + a * in->fixed[0] +
						  b * in->fixed[1]);
		}
	return best;
}

/* The planner's evaluation: the scheduler on the pools with the purchase;
 * quick: its construction only (sched_problem.quick). */
static int eval_with(const struct inst *in, const int *counts, bool quick, double *monthly,
		     char **err)
{
	struct sched_pool pools[R_POOLS] = {{.name = "A"}, {.name = "B"}};
	struct sched_option opt[R_JOBS][R_POOLS];
	struct sched_job jobs[R_JOBS];
	memset(jobs, 0, sizeof jobs);
	for (int m = 0; m < R_POOLS; m++)
		pools[m].count = in->base[m] + counts[m];
	for (int j = 0; j < R_JOBS; j++) {
		for (int m = 0; m < R_POOLS; m++) {
			opt[j][m] = in->opt[j][m];
			if (opt[j][m].gpus > pools[m].count)
				opt[j][m].gpus = 0; /* as schedule.c: does not fit what is there */
		}
		jobs[j].name = "j";
		jobs[j].allowed = in->allowed[j];
		jobs[j].fallback_cost = in->fallback[j];
		jobs[j].opt = opt[j];
	}
	struct sched_problem p = {.quick = quick, .n_slots = R_SLOTS, .pools = pools,
				  .n_pools = R_POOLS, .jobs = jobs, .n_jobs = R_JOBS};
	struct sched_solution s;
	int rc = sched_solve(&p, &s, err);
	if (rc)
		return rc;
	ck_assert_msg(sched_check(&p, &s) == NULL, "%s", sched_check(&p, &s));
	*monthly = sched_total_cost(&p, &s, NULL) + counts[0] * in->fixed[0] +
		   counts[1] * in->fixed[1];
	sched_solution_free(&s);
	return PLANNER_OK;
}

static int eval_inst(void *ctx, const int *counts, double *monthly, char **err)
{
	return eval_with(ctx, counts, false, monthly, err);
}

static int eval_inst_quick(void *ctx, const int *counts, double *monthly, char **err)
{
	return eval_with(ctx, counts, true, monthly, err);
}

/* Searches s and checks that the figure it returns is the full
 * evaluation of the purchase it returns, never a quick look's. */
static struct fleet_found search_fully_evaluated(const struct fleet_space *s, struct inst *in)
{
	struct fleet_found f;
	char *err = NULL;
	double full;
	ck_assert_int_eq(fleet_search(s, &f, &err), PLANNER_OK);
	ck_assert_int_eq(eval_inst(in, f.counts, &full, &err), PLANNER_OK);
	ck_assert_double_eq_tol(f.monthly, full, 1e-9);
	return f;
}

/* exact_max 1 forces the local search; quick gives it the quick look
 * first, as fleet_plan does. */
static void search_within_one_percent(int exact_max, bool quick)
{
	int worse = 0;
	double worst = 0;
	for (unsigned n = 0; n < R_INSTANCES; n++) {
		struct inst in;
		make_inst(&in, n);
		struct fleet_space s = {.n_types = R_POOLS,
					.max_count = {R_MAX_BUY, R_MAX_BUY},
					.eval = eval_inst,
					.quick = quick ? eval_inst_quick : NULL,
					.ctx = &in,
					.exact_max = exact_max};
		struct fleet_found f = search_fully_evaluated(&s, &in);
		ck_assert_int_eq(f.quick_evaluations > 0, quick && exact_max == 1);
		double opt = exact_optimum(&in);
		ck_assert_msg(f.monthly >= opt - 1e-6, "instance %u: %.6f below the optimum %.6f", n,
			      f.monthly, opt);
		double gap = f.monthly / opt - 1;
		worst = fmax(worst, gap);
		worse += gap > 0.01;
	}
	ck_assert_msg(worse == 0, "%d of %d instances more than 1%% above the optimum (worst %.2f%%)",
		      worse, R_INSTANCES, worst * 100);
}

START_TEST(the_fleet_by_enumeration_is_within_one_percent_of_the_exact_optimum_on_200_instances)
{
	search_within_one_percent(0, false);
}
END_TEST

START_TEST(the_fleet_by_local_search_is_within_one_percent_of_the_exact_optimum_on_200_instances)
{
	search_within_one_percent(1, false);
}
END_TEST

START_TEST(the_fleet_by_quick_looks_then_full_evaluations_is_within_one_percent_on_200_instances)
{
	search_within_one_percent(1, true);
}
END_TEST

/* A quick look that ranks purchases backwards still ends on the full
 * evaluation's figures, and the full descent from its picks goes on
 * until no move helps within FLEET_POLISH_EVALUATIONS. */
static int eval_backwards(void *ctx, const int *counts, double *monthly, char **err)
{
	int rc = eval_with(ctx, counts, false, monthly, err);
	*monthly = -*monthly;
	return rc;
}

START_TEST(a_misleading_quick_look_still_returns_a_fully_evaluated_purchase)
{
	struct inst in;
	make_inst(&in, 7);
	struct fleet_space s = {.n_types = R_POOLS,
				.max_count = {R_MAX_BUY, R_MAX_BUY},
				.eval = eval_inst,
				.quick = eval_backwards,
				.ctx = &in,
				.exact_max = 1};
	struct fleet_found f = search_fully_evaluated(&s, &in);
	ck_assert(f.monthly >= 0);
	ck_assert_int_le(f.evaluations, FLEET_REFINE + FLEET_POLISH_EVALUATIONS);
	ck_assert_int_gt(f.quick_evaluations, 0);
}
END_TEST

/* The exact side must be able to tell: a purchase the optimum rejects
 * costs more there. */
START_TEST(the_exact_optimum_is_below_buying_everything_on_some_instance)
{
	int below = 0;
	for (unsigned n = 0; n < 20; n++) {
		struct inst in;
		make_inst(&in, n);
		int all[R_POOLS] = {in.base[0] + R_MAX_BUY, in.base[1] + R_MAX_BUY};
		double everything = exact_schedule(&in, all) + R_MAX_BUY * (in.fixed[0] + in.fixed[1]);
		below += exact_optimum(&in) < everything - 1e-6;
	}
	ck_assert_int_gt(below, 0);
}
END_TEST

/* ---- payback ---- */

START_TEST(payback_is_the_capex_over_the_monthly_saving_and_none_beyond_amortisation)
{
	struct jobspec spec = {.amortize_months = 36};
	struct fleet_choice none = {.monthly_total = 1000};
	/* 3600 up front, 100 of it a month; 700 a month in all: without the
	 * purchase share 600, so 400 a month saved and 9 months to pay back. */
	struct fleet_choice c = {.capex = 3600, .purchase_monthly = 100, .monthly_total = 700};
	ck_assert_double_eq_tol(fleet_payback(&spec, &c, &none), 9.0, 1e-9);
	c.capex = 36000; /* 90 months: beyond the 36 of amortisation */
	ck_assert(isnan(fleet_payback(&spec, &c, &none)));
	struct fleet_choice nothing = {.monthly_total = 1000};
	ck_assert(isnan(fleet_payback(&spec, &nothing, &none)));
}
END_TEST

/* ---- the tour ---- */

struct tour {
	struct jobspec *spec;
	struct plan *plan;
	struct store *st;
	struct fleet *f;
};

/* The spec at path, compared on the snapshot and its fleet for March
 * 2026 (744 h in UTC). */
static void tour_load(const char *path, struct tour *t)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir);
	char *err = NULL;
	memset(t, 0, sizeof *t);
	int rc = jobspec_load(path, test_ref(), &t->spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = store_open(db, test_ref(), &t->st, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = plan_compare(t->spec, test_ref(), t->st, &t->plan, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	rc = fleet_plan(t->spec, t->plan, 2026, 3, &t->f, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	free(err);
	free(db);
	free(dir);
}

static void tour_open(struct tour *t)
{
	tour_load("jobs/monthly.yaml", t);
}

static void tour_close(struct tour *t)
{
	fleet_free(t->f);
	plan_free(t->plan);
	store_close(t->st);
	jobspec_free(t->spec);
}

/* The month's bill on the tour with one purchase: the full scheduler. */
static double bill(const struct tour *t, const int *counts)
{
	struct jobspec copy;
	struct schedule *s = NULL;
	char *err = NULL;
	ck_assert_int_eq(fleet_spec(t->spec, counts, &copy, &err), PLANNER_OK);
	ck_assert_int_eq(schedule_month(&copy, t->plan, 2026, 3, 0, &s, &err), PLANNER_OK);
	double total = s->total_cost;
	for (size_t i = 0; i < t->spec->n_buy; i++) {
		struct tco_owned own; /* the purchase's capital; the rest is the schedule's */
		tco_owned_month(t->spec, t->spec->buy[i].gpu, counts[i], t->spec->buy[i].price, 0,
		                0, 0, false, &own);
		total += own.capital;
	}
	for (size_t j = 0; j < s->n_jobs; j++)
		ck_assert_double_eq_tol(s->jobs[j].unplaced_hours, 0, 1e-9);
	schedule_free(s);
	fleet_spec_release(&copy);
	return total;
}

START_TEST(the_tours_fleet_shares_its_purchase_across_jobs_and_beats_both_alternatives)
{
	struct tour t;
	tour_open(&t);
	const struct fleet *f = t.f;
	ck_assert(f->best.monthly_total <= f->none.monthly_total + 1e-6);
	ck_assert(f->best.monthly_total <= f->per_job.monthly_total + 1e-6);
	ck_assert(f->best.capex > 0);
	ck_assert(f->bound <= f->best.monthly_total + 1e-6);
	/* The bought GPUs run more than one job. */
	const struct schedule *s = f->best.sched;
	bool on_bought[64] = {false};
	int jobs = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		for (size_t b = 0; r->route == ROUTE_OWNED && b < t.spec->n_buy; b++)
			if (f->best.counts[b] > 0 && r->gpu == t.spec->buy[b].gpu && !on_bought[r->job]) {
				on_bought[r->job] = true;
				jobs++;
			}
	}
	ck_assert_int_ge(jobs, 2);
	/* Sharing: never more GPUs than the jobs' own purchases together. */
	for (size_t b = 0; b < t.spec->n_buy; b++)
		ck_assert_int_le(f->best.counts[b], f->per_job.counts[b] > 0
						       ? f->per_job.counts[b]
						       : t.spec->buy[b].max_count);
	tour_close(&t);
}
END_TEST

/* No job pays for a GPU that the others could do without at a lower
 * total: dropping any one bought GPU, or moving it to another type on
 * the list, never makes the month cheaper. */
START_TEST(no_bought_gpu_of_the_tours_fleet_could_go_at_a_lower_total)
{
	struct tour t;
	tour_open(&t);
	const struct fleet *f = t.f;
	double best = bill(&t, f->best.counts);
	ck_assert_double_eq_tol(best, f->best.monthly_total, 1e-6);
	for (size_t b = 0; b < t.spec->n_buy; b++) {
		if (f->best.counts[b] == 0)
			continue;
		int c[FLEET_MAX_TYPES];
		memcpy(c, f->best.counts, sizeof c);
		c[b]--;
		ck_assert_msg(bill(&t, c) >= best - 0.01, "dropping one %s saves money",
			      t.spec->buy[b].gpu->name);
	}
	tour_close(&t);
}
END_TEST

/* ---- the JSON contract (docs/fleet.md), parsed back ---- */

static void check_choice(const cJSON *o, int n_jobs, double amortize)
{
	ck_assert(cJSON_IsArray(cJSON_GetObjectItem(o, "purchase")));
	double capex = 0;
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(o, "purchase"))
	{
		ck_assert(cJSON_IsString(cJSON_GetObjectItem(p, "gpu")));
		ck_assert_int_gt(cJSON_GetObjectItem(p, "count")->valueint, 0);
		capex += cJSON_GetObjectItem(p, "count")->valuedouble *
			 cJSON_GetObjectItem(p, "price")->valuedouble;
	}
	ck_assert_double_eq_tol(cJSON_GetObjectItem(o, "capex")->valuedouble, capex, 0.01);
	const cJSON *routes = cJSON_GetObjectItem(o, "by_route");
	double sum = cJSON_GetObjectItem(routes, "api")->valuedouble +
		     cJSON_GetObjectItem(routes, "rented")->valuedouble +
		     cJSON_GetObjectItem(routes, "owned")->valuedouble;
	ck_assert_double_eq_tol(cJSON_GetObjectItem(o, "monthly_total")->valuedouble, sum, 0.05);
	const cJSON *pb = cJSON_GetObjectItem(o, "payback_months");
	ck_assert(cJSON_IsNull(pb) || (cJSON_IsNumber(pb) && pb->valuedouble <= amortize));
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(o, "jobs")), n_jobs);
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(o, "jobs"))
	{
		ck_assert(cJSON_IsString(cJSON_GetObjectItem(j, "name")));
		const cJSON *r;
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "runs_on"))
		{
			const char *route = cJSON_GetObjectItem(r, "route")->valuestring;
			ck_assert(!strcmp(route, "api") || !strcmp(route, "rented") ||
				  !strcmp(route, "owned"));
			ck_assert(cJSON_IsString(cJSON_GetObjectItem(r, "where")));
		}
		ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(j, "runs_on")), 0);
	}
}

START_TEST(fleet_json_keeps_its_contract_for_the_fleet_and_both_alternatives)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *out = NULL;
	const char *argv[] = {"fleet", "jobs/monthly.yaml", "--month", "2026-03", "--format",
			      "json", "--db", db, "-q", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *doc = cJSON_Parse(out);
	ck_assert_ptr_nonnull(doc);
	check_choice(doc, 6, 36);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "month")->valuestring, "2026-03");
	ck_assert_int_eq(cJSON_GetObjectItem(doc, "hours")->valueint, 743);
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "currency")->valuestring, "EUR");
	ck_assert(cJSON_GetObjectItem(doc, "bound")->valuedouble <=
		  cJSON_GetObjectItem(doc, "monthly_total")->valuedouble);
	const cJSON *alt = cJSON_GetObjectItem(doc, "alternatives");
	check_choice(cJSON_GetObjectItem(alt, "buy_nothing"), 6, 36);
	check_choice(cJSON_GetObjectItem(alt, "one_purchase_per_job"), 6, 36);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(alt, "buy_nothing"),
							       "purchase")),
			 0);
	ck_assert(cJSON_GetObjectItem(doc, "monthly_total")->valuedouble <=
		  cJSON_GetObjectItem(cJSON_GetObjectItem(alt, "buy_nothing"), "monthly_total")
			  ->valuedouble);
	cJSON_Delete(doc);
	free(out);
	free(db);
	free(dir);
}
END_TEST

/* The tour's fleet as JSON, with extra arguments (NULL-terminated). */
static cJSON *tour_json(const char *db, const char *extra)
{
	char *out = NULL;
	const char *argv[] = {"fleet", "jobs/monthly.yaml", "--month", "2026-03", "--format",
			      "json", "--db", db, "-q", extra, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *doc = cJSON_Parse(out);
	ck_assert_ptr_nonnull(doc);
	free(out);
	return doc;
}

/* The figure after `lead` in text, or NAN when it is not there. */
static double figure_after(const char *text, const char *lead)
{
	const char *at = text ? strstr(text, lead) : NULL;
	return at ? strtod(at + strlen(lead), NULL) : NAN;
}

/* Issue 26: compare's summary line and fleet state one figure for the
 * plan of one purchase per job, jobs priced one by one: both outputs
 * parsed, in the table and in the JSON, and equal to compare's jobs. */
START_TEST(compares_summary_line_and_fleet_print_one_figure_for_the_same_plan)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *cmp = NULL, *fl = NULL;
	const char *compare[] = {"compare", "jobs/monthly.yaml", "--db", db, "-q", NULL};
	const char *fleet[] = {"fleet", "jobs/monthly.yaml", "--month", "2026-03", "--db", db,
			       "-q", NULL};
	ck_assert_int_eq(test_run_planner(compare, NULL, &cmp, NULL), 0);
	ck_assert_int_eq(test_run_planner(fleet, NULL, &fl, NULL), 0);
	double in_all = figure_after(cmp, "\nin all: ");
	double quoted = figure_after(fl, "one purchase per job, jobs priced one by one "
					 "(planner compare): ");
	ck_assert_msg(isfinite(in_all), "no summary line in compare:\n%s", cmp);
	ck_assert_msg(isfinite(quoted), "no compare figure in fleet:\n%s", fl);
	ck_assert_double_eq_tol(quoted, in_all, 0.005);
	free(cmp);
	const char *json[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db, "-q",
			      NULL};
	ck_assert_int_eq(test_run_planner(json, NULL, &cmp, NULL), 0);
	cJSON *c = cJSON_Parse(cmp), *f = tour_json(db, NULL), *j;
	ck_assert_ptr_nonnull(c);
	double sum = 0;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(c, "jobs"))
	sum += cJSON_GetObjectItem(cJSON_GetObjectItem(j, "best"), "monthly_cost")->valuedouble;
	double total = cJSON_GetObjectItem(cJSON_GetObjectItem(c, "total"), "monthly_cost")
			   ->valuedouble;
	ck_assert_double_eq_tol(total, sum, 0.01);
	ck_assert_double_eq_tol(total, in_all, 0.005);
	ck_assert_double_eq_tol(cJSON_GetObjectItem(f, "compare_monthly_total")->valuedouble, total,
				0.005);
	cJSON_Delete(c);
	cJSON_Delete(f);
	free(cmp);
	free(fl);
	free(db);
	free(dir);
}
END_TEST

/* --thorough schedules every purchase it tries in full (no quick looks)
 * and, on the tour, agrees with the quick-look search on the purchase. */
START_TEST(fleet_thorough_schedules_every_purchase_in_full_and_agrees_on_the_tour)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir);
	cJSON *quick = tour_json(db, NULL), *full = tour_json(db, "--thorough");
	const cJSON *qs = cJSON_GetObjectItem(quick, "search");
	const cJSON *fs = cJSON_GetObjectItem(full, "search");
	ck_assert_int_gt(cJSON_GetObjectItem(qs, "quick_evaluations")->valueint, 0);
	ck_assert_int_eq(cJSON_GetObjectItem(fs, "quick_evaluations")->valueint, 0);
	ck_assert_int_gt(cJSON_GetObjectItem(fs, "evaluations")->valueint,
			 cJSON_GetObjectItem(qs, "evaluations")->valueint);
	char *a = cJSON_PrintUnformatted(cJSON_GetObjectItem(quick, "purchase"));
	char *b = cJSON_PrintUnformatted(cJSON_GetObjectItem(full, "purchase"));
	ck_assert_str_eq(a, b);
	ck_assert_double_eq_tol(cJSON_GetObjectItem(quick, "monthly_total")->valuedouble,
				cJSON_GetObjectItem(full, "monthly_total")->valuedouble, 0.005);
	free(a);
	free(b);
	cJSON_Delete(quick);
	cJSON_Delete(full);
	free(db);
	free(dir);
}
END_TEST

/* Whether a schedule's JSON lays hours on an owned GPU whose resource
 * name starts with gpu (rented offers of that GPU do not count). */
static bool schedule_owns(const char *json, const char *gpu)
{
	cJSON *doc = cJSON_Parse(json);
	ck_assert_ptr_nonnull(doc);
	bool found = false;
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(doc, "owned_utilization"))
	{
		const cJSON *r = cJSON_GetObjectItemCaseSensitive(it, "resource");
		if (cJSON_IsString(r) && !strncmp(r->valuestring, gpu, strlen(gpu)))
			found = true;
	}
	cJSON_Delete(doc);
	return found;
}

START_TEST(schedule_fleet_lays_the_month_out_on_the_bought_gpus)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *out = NULL, *errout = NULL;
	const char *argv[] = {"schedule", "jobs/monthly.yaml", "--month", "2026-03", "--fleet",
			      "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &errout), 0);
	ck_assert_ptr_nonnull(strstr(errout, "on the fleet: owned GPUs plus"));
	/* The plain schedule owns no RTX 5090 (it may rent one): only the
	 * fleet's purchase does. */
	ck_assert(schedule_owns(out, "RTX 5090"));
	free(out);
	free(errout);
	out = NULL;
	const char *plain[] = {"schedule", "jobs/monthly.yaml", "--month", "2026-03", "--format",
			       "json", "--db", db, "-q", NULL};
	ck_assert_int_eq(test_run_planner(plain, NULL, &out, NULL), 0);
	ck_assert(!schedule_owns(out, "RTX 5090"));
	ck_assert(schedule_owns(out, "RTX 4090"));
	free(out);
	free(db);
	free(dir);
}
END_TEST

START_TEST(a_payback_beyond_amortisation_prints_not_within_n_months)
{
	/* One GPU at a price that a month of rented work cannot pay back. */
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *out = NULL;
	char *spec = test_write(dir, "s.yaml",
				"version: 1\ncurrency: USD\namortize_months: 12\n"
				"buy:\n  - {gpu: RTX 4090, price: 1000000, watts: 450}\n"
				"jobs:\n  - name: a\n    model: llama-3.1-8b\n    precision: q4_k_m\n"
				"    hours_per_month: 700\n    data: restricted\n");
	const char *argv[] = {"fleet", spec, "--month", "2026-03", "--db", db, "-q", NULL};
	int rc = test_run_planner(argv, NULL, &out, NULL);
	ck_assert_int_eq(rc, 0);
	ck_assert_ptr_nonnull(strstr(out, "not within 12 months"));
	free(out);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

/* The fleet of a spec given as text, for March 2026 (744 h in UTC). */
static void fleet_of(const char *yaml, struct tour *t)
{
	char *dir = test_tmpdir();
	char *path = test_write(dir, "s.yaml", yaml);
	tour_load(path, t);
	free(path);
	free(dir);
}

START_TEST(a_fully_busy_purchase_costs_the_fleet_what_compare_charges_owning_it)
{
	/* One restricted job that keeps one RTX 4090 busy all 744 h of March,
	 * with every term of costs: and an idle draw. By hand (docs/estimation.md,
	 * "Cost of ownership"): capex 1800 + one host 1200 = 3000; capital at
	 * 6 %/12 = 0.5 % a month over 36 months less the 20 % resale's present
	 * value: (3000 - 600 / 1.005^36) x 0.005 / (1 - 1.005^-36) = 76.01;
	 * power 744 h x (400 W + 100 W host) = 372 kWh x 0.20 = 74.40 (the
	 * schedule: 744 h x 360 W above idle = 53.57 in the job's runs, the
	 * idle 744 h x 40 W = 5.95 and the host 14.88 fixed); upkeep 15.
	 * 165.41 a month either way. */
	struct tour t;
	fleet_of("version: 1\ncurrency: USD\ntimezone: UTC\nelectricity_per_kwh: 0.20\n"
		 "amortize_months: 36\n"
		 "costs: {host: {price: 1200, watts: 100, gpus: 4}, maintenance_per_gpu_month: 15, "
		 "resale_percent: 20, capital_rate_percent: 6}\n"
		 "buy:\n  - {gpu: RTX 4090, price: 1800, watts: 400, idle_watts: 40, max_count: 2}\n"
		 "jobs:\n  - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 744, "
		 "data: restricted}\n",
		 &t);
	const struct route_result *own = &t.plan->jobs[0].routes[ROUTE_OWNED];
	const struct fleet_choice *c = &t.f->best;
	ck_assert(own->feasible && !own->already_owned);
	ck_assert_int_eq(own->gpu_count, 1);
	ck_assert_int_eq(c->counts[0], 1);
	ck_assert_double_eq_tol(c->sched->route_hours[ROUTE_OWNED], 744, 1e-9);
	ck_assert_double_eq_tol(c->capex, own->capex, 1e-9);
	ck_assert_double_eq_tol(c->capex, 3000, 1e-9);
	ck_assert_double_eq_tol(c->monthly_total, own->monthly_cost, 1e-9);
	ck_assert_double_eq_tol(c->monthly_total, 165.41, 0.005);
	ck_assert_double_eq_tol(c->purchase_monthly, own->tco.capital, 1e-9);
	ck_assert_double_eq_tol(c->sched->owned_fixed, 5.952 + 14.88 + 15, 1e-9);
	ck_assert_double_eq_tol(c->sched->jobs[0].cost, 53.568, 1e-9);
	tour_close(&t);
}
END_TEST

START_TEST(one_purchase_per_job_stays_within_max_count)
{
	/* Two restricted jobs each buy 2x RTX 4090 in compare (a 70B model in
	 * 4 bits needs two); max_count 2 lets one of them buy its own. */
	struct tour t;
	fleet_of("version: 1\ncurrency: USD\ntimezone: UTC\n"
		 "buy:\n  - {gpu: RTX 4090, price: 1800, watts: 450, max_count: 2}\n"
		 "jobs:\n"
		 "  - {name: a, model: llama-3.1-70b, precision: q4_k_m, hours_per_month: 200, "
		 "data: restricted}\n"
		 "  - {name: b, model: llama-3.1-70b, precision: q4_k_m, hours_per_month: 200, "
		 "data: restricted}\n",
		 &t);
	for (size_t j = 0; j < 2; j++) {
		const struct route_result *own = &t.plan->jobs[j].routes[ROUTE_OWNED];
		ck_assert(t.plan->jobs[j].best == ROUTE_OWNED && !own->already_owned);
		ck_assert_int_eq(own->gpu_count, 2);
	}
	ck_assert_int_eq(t.f->per_job.counts[0], 2);
	ck_assert_int_eq(t.f->best.counts[0], 2);
	tour_close(&t);
}
END_TEST

/* ---- issue 26: alternatives at equal work ---- */

#define PLATFORM "tests/fixtures/jobs/platform-team.yaml"

/* planner fleet on spec for March 2026 as JSON, with extra arguments
 * (up to 4, NULL-terminated), expecting exit status rc. */
static cJSON *fleet_json_of(const char *spec, int rc, const char *a, const char *b,
			    const char *c)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *out = NULL;
	const char *argv[] = {"fleet", spec, "--month", "2026-03", "--format", "json", "--db",
			      db, "-q", a, b, c, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), rc);
	cJSON *doc = cJSON_Parse(out);
	ck_assert_ptr_nonnull(doc);
	free(out);
	free(db);
	free(dir);
	return doc;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItem(o, k);
	ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", k);
	return v->valuedouble;
}

START_TEST(every_alternative_of_the_platform_spec_does_all_the_work)
{
	/* Buying nothing left 361.9 h of the nightly batch unplaced: it needs
	 * more A100 hours than its 22:00-06:00 window holds, and its rest may
	 * now run on rented GPUs beside its owned ones, in the same hours. */
	cJSON *doc = fleet_json_of(PLATFORM, 0, NULL, NULL, NULL);
	const cJSON *alt = cJSON_GetObjectItem(doc, "alternatives");
	const cJSON *ch[3] = {doc, cJSON_GetObjectItem(alt, "buy_nothing"),
			      cJSON_GetObjectItem(alt, "one_purchase_per_job")};
	for (int k = 0; k < 3; k++) {
		ck_assert_double_eq_tol(num(ch[k], "unplaced_hours"), 0, 1e-9);
		const cJSON *jobs = cJSON_GetObjectItem(ch[k], "jobs"), *j;
		cJSON_ArrayForEach(j, jobs) ck_assert_double_eq_tol(num(j, "unplaced_hours"), 0, 1e-9);
		/* what it rents is shown, and priced */
		const cJSON *hours = cJSON_GetObjectItem(ch[k], "hours_by_route");
		const cJSON *money = cJSON_GetObjectItem(ch[k], "by_route");
		ck_assert(num(hours, "rented") == 0 || num(money, "rented") > 0);
	}
	cJSON_Delete(doc);
}
END_TEST

START_TEST(fleet_buy_prices_a_given_purchase_beside_the_search)
{
	cJSON *doc = fleet_json_of(PLATFORM, 0, "--buy", "8x H100 SXM", NULL);
	const cJSON *given = cJSON_GetObjectItem(cJSON_GetObjectItem(doc, "alternatives"), "given");
	ck_assert_ptr_nonnull(given);
	const cJSON *buy = cJSON_GetObjectItem(given, "purchase");
	ck_assert_int_eq(cJSON_GetArraySize(buy), 1);
	const cJSON *p = cJSON_GetArrayItem(buy, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(p, "gpu")->valuestring, "H100 SXM");
	ck_assert_int_eq((int)num(p, "count"), 8);
	/* 8 x 30000 from buy:, and one 8-GPU host at 40000 (costs:) */
	ck_assert_double_eq_tol(num(given, "capex"), 8 * 30000 + 40000, 0.005);
	ck_assert_double_eq_tol(num(given, "unplaced_hours"), 0, 1e-9);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(given, "jobs")), 3);
	cJSON_Delete(doc);
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *err = NULL;
	const char *bad[] = {"fleet", PLATFORM, "--buy", "8x H100 SMX", "--db", db, "-q", NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), PLANNER_EUSAGE);
	ck_assert_ptr_nonnull(strstr(err, "--buy: unknown GPU 'H100 SMX'"));
	free(err);
	free(db);
	free(dir);
}
END_TEST

START_TEST(fleet_set_changes_the_spec_before_the_search)
{
	cJSON *doc = fleet_json_of(PLATFORM, 0, "--set", "amortize_months=24", NULL);
	ck_assert_double_eq(num(doc, "amortize_months"), 24);
	cJSON_Delete(doc);
}
END_TEST

START_TEST(without_buy_fleet_considers_every_priced_gpu_that_fits_a_job)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "s.yaml",
				"version: 1\ncurrency: USD\ntimezone: UTC\nelectricity_per_kwh: 0.2\n"
				"jobs:\n  - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
				"hours_per_month: 700, data: restricted}\n");
	cJSON *doc = fleet_json_of(spec, 0, NULL, NULL, NULL);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(doc, "buy_list_derived")));
	const cJSON *types = cJSON_GetObjectItem(doc, "buy_candidates"), *t;
	ck_assert_int_gt(cJSON_GetArraySize(types), 0);
	ck_assert_int_le(cJSON_GetArraySize(types), FLEET_AUTO_TYPES);
	cJSON_ArrayForEach(t, types)
	{
		const struct gpu_spec *g = refdata_gpu(test_ref(), t->valuestring);
		ck_assert_ptr_nonnull(g);
		ck_assert(g->price_usd > 0 && g->watts > 0);
	}
	/* the restricted job has no GPU on hand: only a purchase does it */
	ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "purchase")), 0);
	ck_assert_double_eq_tol(num(doc, "unplaced_hours"), 0, 1e-9);
	cJSON_Delete(doc);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_purchase_that_does_not_pay_back_is_not_recommended)
{
	/* 1x RTX 4090 at 2400 with 60 % resale over 12 months: 80 a month of
	 * capital and 33.48 of power (744 h x 450 W x 0.10) is 113.48, below
	 * renting's 148.80, but its cash back is 148.80 - 33.48 = 115.32 a
	 * month, and 2400 / 115.32 = 20.8 months, beyond the 12. Renting is
	 * Vast.ai's typical RTX 3090 (0.20 an hour): Verda's catalogue V100s
	 * would rent it for less than the GPU costs to keep. */
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "s.yaml",
				"version: 1\ncurrency: USD\ntimezone: UTC\nelectricity_per_kwh: 0.10\n"
				"amortize_months: 12\ncosts: {resale_percent: 60}\nproviders: [vast]\n"
				"buy:\n  - {gpu: RTX 4090, price: 2400, watts: 450, max_count: 2}\n"
				"jobs:\n  - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
				"hours_per_month: 744}\n");
	cJSON *doc = fleet_json_of(spec, 0, NULL, NULL, NULL);
	ck_assert_int_gt(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "purchase")), 0);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(doc, "payback_months")));
	ck_assert_str_eq(cJSON_GetObjectItem(doc, "recommended")->valuestring, "buy_nothing");
	cJSON_Delete(doc);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(with_growth_fleet_says_in_which_month_the_fleet_runs_out)
{
	/* At the spec's 8 % the A100s keep up for 12 months once compare's
	 * window bound rents the nightly batch whole; at 20 % they do not. */
	cJSON *doc = fleet_json_of(PLATFORM, 0, "--set", "growth=20%", NULL);
	const cJSON *run = cJSON_GetObjectItem(doc, "runout");
	ck_assert(cJSON_IsObject(run));
	ck_assert_double_eq(num(run, "horizon_months"), 12);
	int month = (int)num(run, "month");
	ck_assert(month >= 2 && month <= 12);
	/* that month the fleet's GPUs fall behind the work's growth */
	ck_assert(num(run, "owned_hours") <
		  num(run, "expected_owned_hours") * (1 - FLEET_RUNOUT_SLACK));
	ck_assert(cJSON_IsArray(cJSON_GetObjectItem(run, "add")));
	cJSON_Delete(doc);
	/* Without growth there is no month to name. */
	doc = fleet_json_of(PLATFORM, 0, "--set", "growth=0", NULL);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(doc, "runout")));
	cJSON_Delete(doc);
}
END_TEST

Suite *fleet_suite(void)
{
	Suite *s = suite_create("fleet");
	TCase *search = tcase_create("search");
	tcase_set_timeout(search, 600);
	tcase_add_test(search, the_fleet_by_enumeration_is_within_one_percent_of_the_exact_optimum_on_200_instances);
	tcase_add_test(search, the_fleet_by_local_search_is_within_one_percent_of_the_exact_optimum_on_200_instances);
	tcase_add_test(search, the_fleet_by_quick_looks_then_full_evaluations_is_within_one_percent_on_200_instances);
	tcase_add_test(search, a_misleading_quick_look_still_returns_a_fully_evaluated_purchase);
	tcase_add_test(search, the_exact_optimum_is_below_buying_everything_on_some_instance);
	tcase_add_test(search, payback_is_the_capex_over_the_monthly_saving_and_none_beyond_amortisation);
	suite_add_tcase(s, search);
	TCase *tour = tcase_create("tour");
	tcase_set_timeout(tour, 600);
	tcase_add_test(tour, the_tours_fleet_shares_its_purchase_across_jobs_and_beats_both_alternatives);
	tcase_add_test(tour, no_bought_gpu_of_the_tours_fleet_could_go_at_a_lower_total);
	tcase_add_test(tour, fleet_json_keeps_its_contract_for_the_fleet_and_both_alternatives);
	tcase_add_test(tour, a_payback_beyond_amortisation_prints_not_within_n_months);
	tcase_add_test(tour, schedule_fleet_lays_the_month_out_on_the_bought_gpus);
	tcase_add_test(tour, fleet_thorough_schedules_every_purchase_in_full_and_agrees_on_the_tour);
	tcase_add_test(tour, a_fully_busy_purchase_costs_the_fleet_what_compare_charges_owning_it);
	tcase_add_test(tour, one_purchase_per_job_stays_within_max_count);
	tcase_add_test(tour, compares_summary_line_and_fleet_print_one_figure_for_the_same_plan);
	suite_add_tcase(s, tour);
	TCase *equal = tcase_create("equal work");
	tcase_set_timeout(equal, 600);
	tcase_add_test(equal, every_alternative_of_the_platform_spec_does_all_the_work);
	tcase_add_test(equal, fleet_buy_prices_a_given_purchase_beside_the_search);
	tcase_add_test(equal, fleet_set_changes_the_spec_before_the_search);
	tcase_add_test(equal, without_buy_fleet_considers_every_priced_gpu_that_fits_a_job);
	tcase_add_test(equal, a_purchase_that_does_not_pay_back_is_not_recommended);
	tcase_add_test(equal, with_growth_fleet_says_in_which_month_the_fleet_runs_out);
	suite_add_tcase(s, equal);
	return s;
}
