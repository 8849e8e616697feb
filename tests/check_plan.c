/* check_plan.c — the three cost routes and their break-even points against
 * hand-computed cases, on a real database holding offers the test controls. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan.h"
#include "testutil.h"
#include "util.h"

static struct store *st;
static char *dir;

static void add_offer(struct offer *o, const char *id, const char *gpu, int count, double price,
		      bool spot)
{
	memset(o, 0, sizeof *o);
	snprintf(o->offer, sizeof o->offer, "%s", id);
	snprintf(o->gpu, sizeof o->gpu, "%s", gpu);
	snprintf(o->fetched_at, sizeof o->fetched_at, "2026-12-01T00:00:00Z");
	o->gpu_count = count;
	o->vram_gib = refdata_gpu(test_ref(), gpu)->vram_gib;
	o->price_per_hour = price;
	o->spot = spot;
	o->available = true;
}

/* A database whose provider "lambda" has four (made-up) offers the tests price by
 * hand, and a feed "testfeed" with one API model. */
static void setup(void)
{
	dir = test_tmpdir();
	char *path = xasprintf("%s/plan.db", dir);
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	struct offer o[4];
	add_offer(&o[0], "one-4090", "RTX 4090", 1, 0.40, false);
	add_offer(&o[1], "one-4090-spot", "RTX 4090", 1, 0.20, true);
	add_offer(&o[2], "one-h100", "H100 SXM", 1, 2.00, false);
	add_offer(&o[3], "eight-mi300x", "MI300X", 8, 1.00, false);
	ck_assert_int_eq(store_replace_offers(st, "lambda", o, 4, &err), PLANNER_OK);
	struct api_price a = {.input_per_token = 0.1e-6, .output_per_token = 0.4e-6};
	snprintf(a.model, sizeof a.model, "test/model-a");
	ck_assert_int_eq(store_replace_api_prices(st, "testfeed", &a, 1, &err), PLANNER_OK);
	free(path);
}

static void teardown(void)
{
	store_close(st);
	st = NULL;
	free(dir);
	dir = NULL;
}

#define SPEC_HEAD                                                                                  \
	"version: 1\ncurrency: EUR\nfx: {EUR: 0.5}\nelectricity_per_kwh: 0.10\npue: 1.0\n"        \
	"amortize_months: 24\nproviders: [lambda]\n"

static struct plan *plan_of(const char *yaml, struct jobspec **spec_out)
{
	return test_plan_of(st, NULL, yaml, spec_out);
}

START_TEST(rented_cost_is_hours_times_the_cheapest_fitting_on_demand_price_in_currency)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
					   "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
					   "hours_per_month: 100}\n",
				 &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert(r->feasible);
	ck_assert_str_eq(r->offer, "one-4090"); /* not the spot one: not interruptible */
	ck_assert_double_eq_tol(r->price_per_hour, 0.20, 1e-9); /* 0.40 USD x 0.5 EUR/USD */
	ck_assert_double_eq_tol(r->gpu_hours, 100, 1e-9);
	ck_assert_double_eq_tol(r->monthly_cost, 20.0, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* The costs: block reaches both routes through tco.c: the README's
 * "Cost of ownership" example on this test's offers. */
START_TEST(the_costs_block_reaches_the_owned_and_rented_routes_and_the_payback)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
					   "costs: {host: {price: 600, watts: 100}, "
					   "maintenance_per_gpu_month: 10, setup_hours: 0.5}\n"
					   "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
					   "hours_per_month: 100}\n",
				 &spec);
	const struct job_result *j = &p->jobs[0];
	const struct route_result *o = &j->routes[ROUTE_OWNED], *r = &j->routes[ROUTE_RENTED];
	/* capex 2400 + 600 = 3000, / 24 = 125; power 5.75 + 100 W x 100 h
	 * x 0.10 / 1000 = 6.75; upkeep 10: 141.75 */
	ck_assert_double_eq_tol(o->capex, 3000, 1e-9);
	ck_assert_double_eq_tol(o->power_cost, 6.75, 1e-9);
	ck_assert_double_eq_tol(o->monthly_cost, 141.75, 1e-9);
	/* rented: 100 h x 0.20 + one run's 0.5 h x 0.20 = 20.10 */
	ck_assert_double_eq_tol(r->setup_cost, 0.10, 1e-9);
	ck_assert_double_eq_tol(r->monthly_cost, 20.10, 1e-9);
	/* payback 3000 / (20.10 - 6.75 - 10) = 895.5 months: not within 24 */
	ck_assert(isnan(j->be.value[BREAKEVEN_OWNED_PAYBACK]));
	ck_assert_str_eq(j->be.note[BREAKEVEN_OWNED_PAYBACK], "not within 24 months");
	char buf[64];
	ck_assert_str_eq(plan_payback_text(&j->be, buf, sizeof buf), "not within 24 months");
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* A payback inside amortize_months stays a figure. */
START_TEST(a_payback_within_the_amortisation_is_a_number_of_months)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
					   "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
					   "hours_per_month: 744}\n",
				 &spec);
	const struct job_result *j = &p->jobs[0];
	/* 2400 / (744 x 0.20 - 575 W x 744 h x 0.10 / 1000) = 2400 / 106.02 */
	ck_assert_double_eq_tol(j->be.value[BREAKEVEN_OWNED_PAYBACK], 2400 / 106.02, 1e-6);
	ck_assert_str_eq(j->be.note[BREAKEVEN_OWNED_PAYBACK], "");
	char buf[64];
	ck_assert_str_eq(plan_payback_text(&j->be, buf, sizeof buf), "22.6 months");
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(an_interruptible_job_takes_the_spot_price)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "jobs:\n - {name: a, model: llama-3.1-8b, precision: "
					   "q4_k_m, hours_per_month: 100, interruptible: true}\n",
				 &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert_str_eq(r->offer, "one-4090-spot");
	ck_assert(r->spot);
	ck_assert_double_eq_tol(r->monthly_cost, 10.0, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(buying_costs_amortised_capex_plus_power_and_the_breakevens_follow_by_hand)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
					   "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
					   "hours_per_month: 100,\n    tokens_per_month: {input: 100M, "
					   "output: 10M}, api_models: [test/model-a]}\n",
				 &spec);
	const struct job_result *j = &p->jobs[0];
	const struct route_result *o = &j->routes[ROUTE_OWNED];
	ck_assert(o->feasible);
	ck_assert_str_eq(o->gpu->name, "RTX 5090");
	ck_assert_int_eq(o->gpu_count, 1);
	ck_assert_double_eq_tol(o->capex, 2400, 1e-9);
	/* 2400/24 + 1 x 575 W x 100 h / 1000 x 0.10 = 100 + 5.75 */
	ck_assert_double_eq_tol(o->power_cost, 5.75, 1e-9);
	ck_assert_double_eq_tol(o->monthly_cost, 105.75, 1e-9);
	/* api: (100M x 0.1 + 10M x 0.4) / 1e6 USD = 14 USD = 7 EUR */
	const struct route_result *a = &j->routes[ROUTE_API];
	ck_assert(a->feasible);
	ck_assert_double_eq_tol(a->monthly_cost, 7.0, 1e-9);
	ck_assert_int_eq(j->best, ROUTE_API);
	/* H* = (2400/24) / (0.20 - 0.575 x 0.10) = 100 / 0.1425 */
	ck_assert_double_eq_tol(j->be.value[BREAKEVEN_OWNED_VS_RENTED], 100 / 0.1425, 1e-6);
	/* payback = 2400 / (20 - 5.75) = 168.4 months, past amortize_months
	 * (24): not within the plan, so no figure and a note saying so */
	ck_assert(isnan(j->be.value[BREAKEVEN_OWNED_PAYBACK]));
	ck_assert_str_eq(j->be.note[BREAKEVEN_OWNED_PAYBACK], "not within 24 months");
	/* the API bill equals the 20 EUR rental at 20 / (7 / 110M) tokens */
	ck_assert_double_eq_tol(j->be.value[BREAKEVEN_API_VS_RENTED], 20.0 / (7.0 / 110e6), 1);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_breakeven_that_never_happens_is_nan)
{
	struct jobspec *spec;
	/* Power alone (575 W at 1.0 EUR/kWh = 0.575 EUR/h) costs more than
	 * renting (0.20 EUR/h): owning never catches up. */
	struct plan *p =
		plan_of("version: 1\ncurrency: EUR\nfx: {EUR: 0.5}\nelectricity_per_kwh: 1.0\n"
			"providers: [lambda]\nbuy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
			"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
			"hours_per_month: 100}\n",
			&spec);
	ck_assert(isnan(p->jobs[0].be.value[BREAKEVEN_OWNED_VS_RENTED]));
	ck_assert(isnan(p->jobs[0].be.value[BREAKEVEN_OWNED_PAYBACK]));
	ck_assert(isnan(p->jobs[0].be.value[BREAKEVEN_API_VS_RENTED]));
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(gpus_on_hand_cost_power_only)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "owned: [{gpu: RTX 4090, count: 2, watts: 400}]\n"
					   "buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"
					   "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
					   "hours_per_month: 100}\n",
				 &spec);
	const struct route_result *o = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(o->already_owned);
	ck_assert_int_eq(o->gpu_count, 1);
	ck_assert_double_eq_tol(o->capex, 0, 1e-12);
	/* 1 x 400 W x 100 h / 1000 x 0.10 EUR */
	ck_assert_double_eq_tol(o->monthly_cost, 4.0, 1e-9);
	ck_assert_int_eq(p->jobs[0].best, ROUTE_OWNED);
	/* Nothing bought: no break-even hour, no payback; never 0. */
	const struct breakeven *be = &p->jobs[0].be;
	ck_assert(isnan(be->value[BREAKEVEN_OWNED_VS_RENTED]));
	ck_assert(isnan(be->value[BREAKEVEN_OWNED_PAYBACK]));
	ck_assert_str_eq(be->note[BREAKEVEN_OWNED_PAYBACK], "already owned: power only");
	ck_assert(breakeven_already_owned(be));
	char buf[64];
	ck_assert_str_eq(plan_payback_text(be, buf, sizeof buf), "already owned: power only");
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(restricted_data_rules_out_the_api_and_renting_with_reasons)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "jobs:\n - {name: a, model: llama-3.1-8b, "
					   "hours_per_month: 10, data: restricted,\n"
					   "    tokens_per_month: {input: 1M, output: 1M}}\n",
				 &spec);
	const struct job_result *j = &p->jobs[0];
	ck_assert(!j->routes[ROUTE_API].feasible);
	ck_assert_ptr_nonnull(strstr(j->routes[ROUTE_API].why, "restricted"));
	ck_assert(!j->routes[ROUTE_RENTED].feasible);
	ck_assert_ptr_nonnull(strstr(j->routes[ROUTE_RENTED].why, "owned GPUs only"));
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(confidential_data_may_rent_but_not_call_an_api)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "jobs:\n - {name: a, model: llama-3.1-8b, "
					   "precision: q4_k_m, hours_per_month: 10, data: confidential,\n"
					   "    tokens_per_month: {input: 1M, output: 1M}, api_models: "
					   "[test/model-a]}\n",
				 &spec);
	ck_assert(!p->jobs[0].routes[ROUTE_API].feasible);
	ck_assert(p->jobs[0].routes[ROUTE_RENTED].feasible);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(an_amd_offer_is_a_candidate_only_with_accelerator_any)
{
	struct jobspec *spec;
	/* Llama-3.1-70B in bf16 fits none of the test offers' single NVIDIA GPUs but
	 * fits eight MI300X. */
	const char *base = SPEC_HEAD "jobs:\n - {name: a, model: llama-3.1-70b, precision: bf16, "
				     "hours_per_month: 10%s}\n";
	char yaml[512];
	snprintf(yaml, sizeof yaml, base, "");
	struct plan *p = plan_of(yaml, &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert(!r->feasible);
	ck_assert_msg(strstr(r->why, "needs") && strstr(r->why, "GiB per GPU"), "%s", r->why);
	plan_free(p);
	jobspec_free(spec);
	snprintf(yaml, sizeof yaml, base, ", accelerator: any");
	p = plan_of(yaml, &spec);
	r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert(r->feasible);
	ck_assert_str_eq(r->gpu->name, "MI300X");
	ck_assert_double_eq_tol(r->monthly_cost, 10 * 0.5, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(token_volumes_become_hours_through_the_throughput_estimate)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD "jobs:\n - {name: a, model: llama-3.1-8b, precision: "
					   "q4_k_m, batch: 4, tokens_per_month: {input: 50M, output: "
					   "20M}}\n",
				 &spec);
	const struct job_result *j = &p->jobs[0];
	const struct route_result *r = &j->routes[ROUTE_RENTED];
	struct speed_est s;
	/* A request is the context split 50:20; decode attends to input +
	 * output / 2 tokens of it on average, in bf16. */
	double ctx = spec->jobs[0].context, attended = ctx * 50 / 70 + ctx * 20 / 70 / 2;
	ck_assert_double_eq_tol(j->work.attended, attended, 1e-9);
	speed_estimate_kv(engine_for(false, "q4_k_m"), &spec->jobs[0].model, precision_find("q4_k_m"), r->gpu,
	                  r->gpu_count, TASK_INFERENCE, attended, 2.0, 4, &s);
	double hours = speed_hours_for_tokens(&s, TASK_INFERENCE, 50e6, 20e6);
	ck_assert_double_eq_tol(r->gpu_hours, hours, 1e-9);
	ck_assert_double_eq_tol(r->tokens_per_second, s.decode_tps, 1e-9);
	ck_assert_double_eq_tol(r->monthly_cost, hours * r->price_per_hour, 1e-9);
	/* The API (the snapshot's Llama 3.1 8B host) is cheapest here, so the
	 * job's GPU-hours are the rented route's. */
	ck_assert_int_eq(j->best, ROUTE_API);
	ck_assert_double_eq_tol(j->gpu_hours_per_month, r->gpu_hours, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_quote_is_a_rentable_offer_priced_in_the_spec_currency)
{
	struct jobspec *spec;
	struct plan *p =
		plan_of(SPEC_HEAD "quotes: [{provider: lambda, gpu: H100 SXM, count: 1, "
				  "price_per_hour: 0.15}]\njobs:\n - {name: a, model: llama-3.1-8b, "
				  "precision: q4_k_m, hours_per_month: 100}\n",
			&spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert_str_eq(r->gpu->name, "H100 SXM");
	ck_assert_double_eq_tol(r->monthly_cost, 15.0, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* 20M output tokens in 10 hours: 556 tok/s, several times what one GPU
 * does for an 8B model at batch 1. */
#define BUSY_JOB                                                                                   \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 10, "        \
	"tokens_per_month: {input: 1M, output: 20M}}\n"

START_TEST(a_route_short_of_capacity_rents_replicas_priced_as_such)
{
	struct jobspec *spec;
	struct plan *p = plan_of(SPEC_HEAD BUSY_JOB, &spec);
	const struct job_result *j = &p->jobs[0];
	const struct route_result *r = &j->routes[ROUTE_RENTED];
	ck_assert(r->feasible);
	struct workload_run run;
	ck_assert(workload_size(&j->work, r->gpu, r->gpu_count / r->replicas, 64, &run, NULL, 0));
	ck_assert_int_gt(run.replicas, 1);
	ck_assert_int_eq(r->replicas, (int)ceil(run.work_hours / 10));
	ck_assert_int_eq(r->replicas, run.replicas);
	ck_assert_double_eq_tol(r->gpu_hours, 10, 1e-9); /* each copy runs the job's hours */
	ck_assert_double_eq_tol(r->monthly_cost, r->replicas * 10 * r->price_per_hour, 1e-9);
	ck_assert_double_eq_tol(r->tokens_per_second, r->replicas * run.tps, 1e-9);
	ck_assert(r->tokens_per_second * 10 * 3600 >= 20e6);
	ck_assert_double_eq_tol(r->cost_per_mtok, r->monthly_cost / 21, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_quote_is_not_replicated_and_says_what_it_lacks)
{
	struct jobspec *spec;
	struct plan *p = plan_of("version: 1\nproviders: [acme]\nquotes: [{provider: acme, gpu: "
				 "H100 SXM, count: 1, price_per_hour: 2}]\n" BUSY_JOB,
				 &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert(!r->feasible);
	ck_assert_msg(strstr(r->why, "needs 556 tok/s over 10 h; 1x H100 SXM does ") == r->why,
		      "%s", r->why);
	ck_assert_ptr_nonnull(strstr(r->why, " under llama.cpp")); /* GGUF: llama.cpp */
	ck_assert_ptr_nonnull(strstr(r->why, "copies (")); /* what it would take */
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* No rented offer but one dear quote: providers: [acme] must name a
 * provider the spec or an adapter has. */
#define ACME_QUOTE "quotes: [{provider: acme, gpu: B200, count: 8, price_per_hour: 5000}]\n"

START_TEST(gpus_on_hand_run_as_many_sets_as_the_work_needs_if_there_are_enough)
{
	struct jobspec *spec;
	struct plan *p = plan_of("version: 1\nowned: [{gpu: RTX 4090, count: 2}]\nbuy: []\n"
				 "providers: [acme]\n" ACME_QUOTE BUSY_JOB,
				 &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(!r->feasible);
	ck_assert_msg(strstr(r->why, "needs 556 tok/s over 10 h; 1x RTX 4090 does "), "%s", r->why);
	plan_free(p);
	jobspec_free(spec);
	p = plan_of("version: 1\nowned: [{gpu: RTX 4090, count: 16}]\nbuy: []\n"
		    "providers: [acme]\n" ACME_QUOTE BUSY_JOB,
		    &spec);
	r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(r->feasible);
	ck_assert_int_gt(r->replicas, 2);
	ck_assert_int_eq(r->gpu_count, r->replicas); /* sets of one GPU */
	ck_assert_double_eq_tol(r->gpu_hours, 10, 1e-9);
	ck_assert_double_eq_tol(r->power_cost,
				r->gpu_count * r->watts * spec->pue * 10 / 1000 *
				    spec->electricity_per_kwh,
				1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* The 27 GiB job fits 2x RTX 4090 or 2x RTX 5080: too few on hand, or
 * allowed to buy, says how many would do; only GPUs the engine cannot
 * split the job over in enough of them are "not enough". */
START_TEST(an_owned_route_short_of_gpus_names_how_many_would_fit_and_how_many_there_are)
{
	static const char job[] = "jobs:\n - {name: a, model: qwen2.5-32b, precision: q4_k_m, "
	                          "context: 32768, hours_per_month: 100, data: restricted}\n";
	struct jobspec *spec;
	char *yaml = xasprintf("%sowned: [{gpu: RTX 4090, count: 1}]\nbuy: []\n%s", SPEC_HEAD, job);
	struct plan *p = plan_of(yaml, &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(!r->feasible);
	char *want = xasprintf("needs %.1f GiB, which 2x RTX 4090 would hold; 1 is on hand "
	                       "(owned: count)",
	                       p->jobs[0].vram_gib);
	ck_assert_str_eq(r->why, want);
	free(want);
	free(yaml);
	plan_free(p);
	jobspec_free(spec);
	yaml = xasprintf("%sbuy: [{gpu: RTX 5080, price: 1200, watts: 360, max_count: 1}]\n%s",
	                 SPEC_HEAD, job);
	p = plan_of(yaml, &spec);
	r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(!r->feasible);
	want = xasprintf("needs %.1f GiB, which 2x RTX 5080 would hold; buy: allows at most 1 "
	                 "(max_count)",
	                 p->jobs[0].vram_gib);
	ck_assert_str_eq(r->why, want);
	free(want);
	free(yaml);
	plan_free(p);
	jobspec_free(spec);
	/* 1.2 TiB: 8 H200, one node, do not hold it; two nodes of them would. */
	p = plan_of(SPEC_HEAD "owned: [{gpu: H200, count: 8}]\nbuy: []\n"
	                      "jobs:\n - {name: a, model: deepseek-v3, precision: bf16, "
	                      "hours_per_month: 60, data: restricted}\n",
	            &spec);
	r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(!r->feasible);
	ck_assert_msg(strstr(r->why, "which 16x H200 would hold; 8 are on hand (owned: count)"),
	              "%s", r->why);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* The owned route's month without the entry on hand it chose
 * (owned_alt_cost, which plan_share.c weighs a claim by) is what pricing
 * the job again with that entry left out of owned: finds, on jobs of
 * several sizes over three kinds on hand and two to buy. */
START_TEST(the_owned_month_without_its_entry_is_the_route_priced_without_it)
{
	static const char *const owned[] = {
	    "{gpu: RTX 4090, count: 2}", "{gpu: A100 80GB, count: 1}", "{gpu: RTX 3090, count: 4}"};
	static const char *const jobs[] = {
	    "{name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 200}",
	    "{name: b, model: qwen2.5-32b, precision: q4_k_m, hours_per_month: 100}",
	    "{name: c, model: llama-3.1-70b, precision: q4_k_m, hours_per_month: 50}",
	    "{name: d, model: llama-3.1-8b, tokens_per_month: {input: 300M, output: 60M}}",
	    "{name: e, model: qwen2.5-7b, precision: fp8, hours_per_month: 700}"};
	const size_t n_owned = sizeof owned / sizeof *owned;
	int on_hand = 0;
	for (size_t j = 0; j < sizeof jobs / sizeof *jobs; j++) {
		char *yaml = xasprintf("version: 1\nowned: [%s, %s, %s]\nbuy: [{gpu: RTX 5090, "
		                       "price: 2400}, {gpu: L40S, price: 8000}]\njobs:\n - %s\n",
		                       owned[0], owned[1], owned[2], jobs[j]);
		struct jobspec *spec = NULL;
		struct plan *p = test_plan_of(st, NULL, yaml, &spec);
		const struct route_result *r = &p->jobs[0].routes[ROUTE_OWNED];
		free(yaml);
		if (r->feasible && r->already_owned) {
			on_hand++;
			ck_assert(!isnan(r->owned_alt_cost));
			char list[256] = "";
			for (size_t e = 0; e < n_owned; e++)
				if ((int)e != r->owned_entry)
					snprintf(list + strlen(list), sizeof list - strlen(list),
					         "%s%s", list[0] ? ", " : "", owned[e]);
			yaml = xasprintf(
			    "version: 1\nowned: [%s]\nbuy: [{gpu: RTX 5090, price: 2400}, "
			    "{gpu: L40S, price: 8000}]\njobs:\n - %s\n",
			    list, jobs[j]);
			struct jobspec *without = NULL;
			struct plan *q = test_plan_of(st, NULL, yaml, &without);
			const struct route_result *o = &q->jobs[0].routes[ROUTE_OWNED];
			double want = o->feasible ? o->monthly_cost : INFINITY;
			ck_assert_msg(r->owned_alt_cost == want,
			              "job %s on %s: %.6f, priced without %.6f", spec->jobs[0].name,
			              r->gpu->name, r->owned_alt_cost, want);
			plan_free(q);
			jobspec_free(without);
			free(yaml);
		}
		plan_free(p);
		jobspec_free(spec);
	}
	ck_assert_int_ge(on_hand, 3);
}
END_TEST

Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("routes");
	tcase_set_timeout(tc, 30);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, rented_cost_is_hours_times_the_cheapest_fitting_on_demand_price_in_currency);
	tcase_add_test(tc, the_owned_month_without_its_entry_is_the_route_priced_without_it);
	tcase_add_test(tc, an_interruptible_job_takes_the_spot_price);
	tcase_add_test(tc, the_costs_block_reaches_the_owned_and_rented_routes_and_the_payback);
	tcase_add_test(tc, a_payback_within_the_amortisation_is_a_number_of_months);
	tcase_add_test(tc, buying_costs_amortised_capex_plus_power_and_the_breakevens_follow_by_hand);
	tcase_add_test(tc, a_breakeven_that_never_happens_is_nan);
	tcase_add_test(tc, gpus_on_hand_cost_power_only);
	tcase_add_test(
	    tc, an_owned_route_short_of_gpus_names_how_many_would_fit_and_how_many_there_are);
	tcase_add_test(tc, restricted_data_rules_out_the_api_and_renting_with_reasons);
	tcase_add_test(tc, confidential_data_may_rent_but_not_call_an_api);
	tcase_add_test(tc, an_amd_offer_is_a_candidate_only_with_accelerator_any);
	tcase_add_test(tc, token_volumes_become_hours_through_the_throughput_estimate);
	tcase_add_test(tc, a_quote_is_a_rentable_offer_priced_in_the_spec_currency);
	tcase_add_test(tc, a_route_short_of_capacity_rents_replicas_priced_as_such);
	tcase_add_test(tc, a_quote_is_not_replicated_and_says_what_it_lacks);
	tcase_add_test(tc, gpus_on_hand_run_as_many_sets_as_the_work_needs_if_there_are_enough);
	suite_add_tcase(s, tc);
	return s;
}
