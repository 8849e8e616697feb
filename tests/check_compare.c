/* check_compare.c — end to end: the planner binary on jobs/monthly.yaml,
 * its JSON parsed back and every number in it reproduced by hand from the
 * numbers printed beside it; exit codes of the commands. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "util.h"
#include "vram.h"

static char *db_arg(void)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	free(dir);
	return path;
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	ck_assert_msg(cJSON_IsNumber(v), "missing number %s", k);
	return v->valuedouble;
}

/* The rented route's figure of job `name` in a compare JSON. */
static const cJSON *rented_of(const cJSON *root, const char *name)
{
	const cJSON *job;
	cJSON_ArrayForEach(job, cJSON_GetObjectItem(root, "jobs"))
	{
		if (!strcmp(cJSON_GetObjectItem(job, "name")->valuestring, name))
			return test_json_route(job, "rented");
	}
	return NULL;
}

/* discounts: a negotiated share off a provider's on-demand list prices:
 * the offer the plain plan rents for research-deepseek costs half with
 * its provider at 50%, and a spot price (support-bot's) is not a list
 * price and keeps its own, its provider discounted too. */
START_TEST(compare_discounts_take_a_share_off_on_demand_list_prices_only)
{
	char *db = db_arg(), *out = NULL, *err = NULL, *half = NULL;
	const char *plain[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(plain, NULL, &out, &err), 0);
	free(err);
	cJSON *a = cJSON_Parse(out);
	ck_assert_ptr_nonnull(a);
	const cJSON *ra = rented_of(a, "research-deepseek"), *sa = rented_of(a, "support-bot");
	const char *big = cJSON_GetObjectItem(ra, "provider")->valuestring;
	const char *spot = cJSON_GetObjectItem(sa, "provider")->valuestring;
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(ra, "spot")));
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(sa, "spot")));
	char *set = strcmp(big, spot) ? xasprintf("discounts={%s: 50%%, %s: 40%%}", big, spot)
	                              : xasprintf("discounts={%s: 50%%}", big);
	const char *cut[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db,
	                     "--set", set, NULL};
	ck_assert_int_eq(test_run_planner(cut, NULL, &half, &err), 0);
	free(err);
	cJSON *b = cJSON_Parse(half);
	ck_assert_ptr_nonnull(b);
	const cJSON *rb = rented_of(b, "research-deepseek");
	ck_assert_str_eq(cJSON_GetObjectItem(rb, "offer")->valuestring,
	                 cJSON_GetObjectItem(ra, "offer")->valuestring);
	ck_assert_double_eq_tol(num(rb, "price_per_hour"), num(ra, "price_per_hour") / 2, 1e-3);
	ck_assert_double_eq_tol(num(rb, "monthly_cost"), num(ra, "monthly_cost") / 2, 0.02);
	const cJSON *sb = rented_of(b, "support-bot");
	ck_assert_str_eq(cJSON_GetObjectItem(sb, "offer")->valuestring,
	                 cJSON_GetObjectItem(sa, "offer")->valuestring);
	ck_assert_double_eq(num(sb, "price_per_hour"), num(sa, "price_per_hour"));
	free(set);
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(out);
	free(half);
	const char *bad[] = {"compare", "jobs/monthly.yaml", "--db", db, "--set",
	                     "discounts={lambda: 120%}", NULL};
	ck_assert_int_ne(test_run_planner(bad, NULL, NULL, &err), 0);
	ck_assert_msg(strstr(err, "discount for lambda must be a percent"), "%s", err);
	free(err);
	free(db);
}
END_TEST

/* --set is a what-if on the spec: the tour with a costs block and more
 * tokens for one job, its JSON reproduced from the terms printed beside
 * each figure (capital + power + upkeep; price x hours + setup), and a
 * payback that is a figure only within amortize_months. */
START_TEST(compare_set_prices_a_what_if_and_the_cost_terms_add_up)
{
	char *db = db_arg(), *out = NULL, *err = NULL;
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db,
	                      "--set", "jobs.support-bot.tokens_per_month.input=400M",
	                      "--set",
	                      "costs={host: {price: 3000, watts: 250}, capital_rate_percent: 6, "
	                      "maintenance_per_gpu_month: 20, setup_hours: 0.25}",
	                      NULL};
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(root != NULL, "not JSON: %s", out);
	double months = num(root, "amortize_months");
	const cJSON *job;
	bool set_seen = false, setup_seen = false;
	cJSON_ArrayForEach(job, cJSON_GetObjectItem(root, "jobs"))
	{
		const char *name = cJSON_GetObjectItem(job, "name")->valuestring;
		if (!strcmp(name, "support-bot")) {
			ck_assert_double_eq(num(cJSON_GetObjectItem(job, "tokens_per_month"), "input"),
			                    400e6);
			set_seen = true;
		}
		const cJSON *o = test_json_route(job, "owned"), *r = test_json_route(job, "rented");
		if (cJSON_IsTrue(cJSON_GetObjectItem(o, "feasible"))) {
			double sum = num(o, "capital_cost") + num(o, "power_cost") +
			             num(o, "maintenance_cost");
			ck_assert_msg(fabs(num(o, "monthly_cost") - sum) <= 0.011, "%s owned %.2f != %.2f",
			              name, num(o, "monthly_cost"), sum);
			ck_assert_double_eq_tol(num(o, "maintenance_cost"), 20 * num(o, "gpu_count"),
			                        1e-9);
		}
		if (cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible"))) {
			double want = num(r, "price_per_hour") * num(r, "gpu_hours") * num(r, "replicas") +
			              num(r, "setup_cost");
			ck_assert_msg(fabs(num(r, "monthly_cost") - want) <= 0.01 + want * 1e-4,
			              "%s rented %.2f != %.2f", name, num(r, "monthly_cost"), want);
			setup_seen |= num(r, "setup_cost") > 0;
		}
		/* horizon: months entries a route; cumulative the running sum */
		const cJSON *hz = cJSON_GetObjectItem(job, "horizon");
		ck_assert_int_eq((int)num(hz, "months"), (int)months);
		const cJSON *cum = cJSON_GetObjectItem(cJSON_GetObjectItem(hz, "cumulative"), "rented");
		const cJSON *mon = cJSON_GetObjectItem(cJSON_GetObjectItem(hz, "monthly"), "rented");
		ck_assert_int_eq(cJSON_GetArraySize(cum), (int)months);
		double run = 0;
		for (int m = 0; cJSON_IsNumber(cJSON_GetArrayItem(mon, 0)) && m < (int)months; m++) {
			run += cJSON_GetArrayItem(mon, m)->valuedouble;
			ck_assert_double_eq_tol(cJSON_GetArrayItem(cum, m)->valuedouble, run, 0.01 * (m + 1));
		}
		const cJSON *be = cJSON_GetObjectItem(job, "breakeven");
		const cJSON *pb = cJSON_GetObjectItem(be, "owned_payback_months");
		const cJSON *note = cJSON_GetObjectItem(be, "owned_payback_note");
		if (cJSON_IsNumber(pb))
			ck_assert(pb->valuedouble <= months && cJSON_IsNull(note));
		else
			ck_assert(cJSON_IsNull(pb) && (cJSON_IsNull(note) || cJSON_IsString(note)));
	}
	ck_assert(set_seen && setup_seen);
	cJSON_Delete(root);
	free(out);
	free(err);
	/* A bad override is an input error naming it, as a bad line is. */
	const char *bad[] = {"compare", "jobs/monthly.yaml", "--db", db, "--set",
	                     "jobs.support-bot.tokens_per_month.inpt=400M", NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, &out, &err), 1);
	ck_assert_msg(strstr(err, "--set jobs.support-bot.tokens_per_month.inpt=400M: unknown key "
	                          "'inpt'") && strstr(err, "did you mean 'input'"),
	              "%s", err);
	free(out);
	free(err);
	const char *usage[] = {"compare", "jobs/monthly.yaml", "--db", db, "--set", "nokey", NULL};
	ck_assert_int_eq(test_run_planner(usage, NULL, &out, &err), 2);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(compare_json_follows_the_contract_and_every_number_reproduces_by_hand)
{
	char *db = db_arg(), *out = NULL, *err = NULL;
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db, NULL};
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_ptr_nonnull(strstr(err, "bundled snapshot")); /* says where prices come from */
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(root != NULL, "not JSON: %s", out);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "currency")->valuestring, "EUR");
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(root, "prices_as_of")));
	double elec = num(root, "electricity_per_kwh"), pue = num(root, "pue");
	double months = num(root, "amortize_months");
	const cJSON *jobs = cJSON_GetObjectItem(root, "jobs");
	ck_assert_int_ge(cJSON_GetArraySize(jobs), 5);
	bool won[3] = {false, false, false}, restricted = false, multi_gpu = false, on_hand = false;
	const cJSON *job;
	cJSON_ArrayForEach(job, jobs)
	{
		const char *name = cJSON_GetObjectItem(job, "name")->valuestring;
		ck_assert(num(job, "vram_gib") > 0);
		ck_assert(num(job, "gpu_hours_per_month") >= 0);
		ck_assert(cJSON_IsString(cJSON_GetObjectItem(job, "model")));
		double best_cost = INFINITY;
		const char *best_route = NULL;
		const cJSON *r;
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(job, "routes"))
		{
			const char *rn = cJSON_GetObjectItem(r, "route")->valuestring;
			if (!cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible"))) {
				const cJSON *why = cJSON_GetObjectItem(r, "why");
				ck_assert(cJSON_IsString(why) && strlen(why->valuestring) > 10);
				continue;
			}
			double cost = num(r, "monthly_cost");
			if (cost < best_cost) {
				best_cost = cost;
				best_route = rn;
			}
			const cJSON *tok = cJSON_GetObjectItem(job, "tokens_per_month");
			const cJSON *cpm = cJSON_GetObjectItem(r, "cost_per_mtok");
			if (tok) {
				/* Cost per million tokens on every route that has tokens. */
				double mtok = (num(tok, "input") + num(tok, "output")) / 1e6;
				ck_assert_msg(fabs(num(r, "cost_per_mtok") - cost / mtok) <=
						  1e-4 + cost / mtok * 1e-3,
					      "%s %s cost_per_mtok", name, rn);
			} else {
				ck_assert(cJSON_IsNull(cpm));
			}
			if (strcmp(rn, "api")) {
				ck_assert(num(r, "replicas") >= 1 && num(r, "batch") >= 1);
				/* Capacity: with hours and tokens both given, the route's
				 * GPUs produce the output tokens in those hours. */
				if (tok && num(job, "gpu_hours_per_month") > 0 &&
				    !strcmp(cJSON_GetObjectItem(job, "task")->valuestring, "inference"))
					ck_assert_msg(num(r, "tokens_per_second") * num(r, "gpu_hours") *
							      3600 >=
							  num(tok, "output"),
						      "%s %s: %.0f tok/s x %.1f h cannot make %.0f tokens",
						      name, rn, num(r, "tokens_per_second"),
						      num(r, "gpu_hours"), num(tok, "output"));
			}
			if (!strcmp(rn, "rented")) {
				double want =
					num(r, "price_per_hour") * num(r, "gpu_hours") * num(r, "replicas");
				ck_assert_msg(fabs(cost - want) <= 0.01 + want * 1e-4,
					      "%s rented %.2f != %.2f", name, cost, want);
				ck_assert(num(r, "tokens_per_second") > 0);
				ck_assert(cJSON_IsString(cJSON_GetObjectItem(r, "gpu")));
				if (num(r, "gpu_count") > 1)
					multi_gpu = true;
			} else if (!strcmp(rn, "owned")) {
				double power = num(r, "gpu_count") * num(r, "watts") * pue *
					       num(r, "gpu_hours") / 1000 * elec;
				double want = num(r, "capex") / months + power;
				ck_assert_msg(fabs(cost - want) <= 0.01 + want * 1e-4,
					      "%s owned %.2f != %.2f", name, cost, want);
				if (cJSON_IsTrue(cJSON_GetObjectItem(r, "already_owned")))
					on_hand = true;
			} else if (!strcmp(rn, "serverless")) {
				/* Every billed second: busy, idle and starting. */
				double seconds = (num(r, "busy_hours") + num(r, "idle_hours")) * 3600 +
				                 num(r, "cold_starts") * num(r, "cold_start_s");
				double want = seconds * num(r, "price_per_second");
				ck_assert_msg(fabs(cost - want) <= 0.01 + want * 1e-2,
				              "%s serverless %.2f != %.2f", name, cost, want);
			} else {
				const cJSON *t = cJSON_GetObjectItem(job, "tokens_per_month");
				double want = (num(t, "input") * num(r, "input_per_mtok") +
					       num(t, "output") * num(r, "output_per_mtok")) /
					      1e6;
				ck_assert_msg(fabs(cost - want) <= 0.01 + want * 1e-3,
					      "%s api %.2f != %.2f", name, cost, want);
			}
		}
		const cJSON *best = cJSON_GetObjectItem(job, "best");
		ck_assert_ptr_nonnull(best_route);
		ck_assert_str_eq(cJSON_GetObjectItem(best, "route")->valuestring, best_route);
		ck_assert_double_eq_tol(num(best, "monthly_cost"), best_cost, 1e-9);
		won[!strcmp(best_route, "api") ? 0 : !strcmp(best_route, "rented") ? 1 : 2] = true;
		if (!strcmp(cJSON_GetObjectItem(job, "data")->valuestring, "restricted"))
			restricted = true;
		/* Break-even owned vs rented by hand from the printed numbers. */
		const cJSON *be = cJSON_GetObjectItem(job, "breakeven");
		const cJSON *h = cJSON_GetObjectItem(be, "owned_vs_rented_hours_per_month");
		const cJSON *rent = test_json_route(job, "rented"), *own = test_json_route(job, "owned");
		if (cJSON_IsNumber(h)) {
			/* Equal work: an owned hour stands for rented/owned hours. */
			double margin = num(rent, "price_per_hour") * num(rent, "replicas") *
						num(rent, "gpu_hours") / num(own, "gpu_hours") -
					num(own, "gpu_count") * num(own, "watts") * pue / 1000 * elec;
			double want = num(own, "capex") / months / margin;
			ck_assert_msg(fabs(h->valuedouble - want) <= 0.06 + want * 1e-3,
				      "%s break-even %.2f != %.2f", name, h->valuedouble, want);
		} else {
			ck_assert(cJSON_IsNull(h));
		}
		const cJSON *pb = cJSON_GetObjectItem(be, "owned_payback_months");
		if (cJSON_IsNumber(pb)) {
			double power = num(own, "gpu_count") * num(own, "watts") * pue *
				       num(own, "gpu_hours") / 1000 * elec;
			double want = num(own, "capex") / (num(rent, "monthly_cost") - power);
			ck_assert_msg(fabs(pb->valuedouble - want) <= 0.06 + want * 1e-3,
				      "%s payback %.2f != %.2f", name, pb->valuedouble, want);
		} else {
			ck_assert(cJSON_IsNull(pb));
		}
		ck_assert_ptr_nonnull(cJSON_GetObjectItem(be, "api_vs_rented_tokens_per_month"));
	}
	ck_assert_msg(won[0] && won[1] && won[2], "each route should win one job of the tour");
	ck_assert(restricted && multi_gpu && on_hand);
	cJSON_Delete(root);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* 1B input + 1B output tokens in 10 hours: about 28,000 output tokens a
 * second. Was priced on 2x H100 at 25 tok/s as the best route. */
static const char impossible_spec[] = "version: 1\njobs:\n"
				      "  - name: impossible\n"
				      "    model: llama-3.1-70b\n"
				      "    hours_per_month: 10\n"
				      "    tokens_per_month: {input: 1B, output: 3B}\n";

/* compare of text in format; the output, exit status 0. */
static char *compare_text(const char *text, const char *format)
{
	char *dir = test_tmpdir(), *spec = test_write(dir, "job.yaml", text);
	char *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	const char *argv[] = {"compare", spec, "--format", format, "--db", db, NULL};
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	free(err);
	unlink(db);
	unlink(spec);
	rmdir(dir);
	free(db);
	free(spec);
	free(dir);
	return out;
}

/* Every GPU route of the job is either sized to do its tokens in its
 * hours (replicas) or infeasible saying what it needs and what it does. */
static int check_capacity(const cJSON *job, double hours, double output)
{
	int replicated = 0;
	for (int k = 0; k < 2; k++) {
		const cJSON *r = test_json_route(job, k ? "owned" : "rented");
		if (cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible"))) {
			ck_assert_double_eq(num(r, "gpu_hours"), hours);
			ck_assert(num(r, "tokens_per_second") * hours * 3600 >= output);
			replicated += num(r, "replicas") > 1;
		} else {
			const char *why = cJSON_GetObjectItem(r, "why")->valuestring;
			ck_assert_msg(strstr(why, "needs 83333 tok/s over 10 h; ") && strstr(why, " does "),
				      "%s", why);
		}
	}
	return replicated;
}

START_TEST(the_impossible_job_is_resized_or_infeasible_with_the_reason)
{
	char *out = compare_text(impossible_spec, "json");
	cJSON *root = cJSON_Parse(out);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	check_capacity(job, 10, 3e9);
	/* Neither GPU route can: 70B at batch 1 needs over 1,024 GPUs, the
	 * most one route is sized to (WORKLOAD_MAX_GPUS). */
	ck_assert(!cJSON_IsTrue(cJSON_GetObjectItem(test_json_route(job, "rented"), "feasible")));
	ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(job, "best"), "route")->valuestring,
			 "api");
	cJSON_Delete(root);
	free(out);
	out = compare_text(impossible_spec, "table");
	ck_assert_msg(strstr(out, "rented                -  not possible: needs 83333 tok/s over 10 h"),
		      "%s", out);
	free(out);

	/* Served as a throughput server would, with an FP8 KV cache, it fits
	 * in replicas, priced as such. */
	char *spec = xasprintf("%s    batch: max\n    kv_cache: fp8\n"
			       "    request: {input: 500, output: 500}\n",
			       impossible_spec);
	out = compare_text(spec, "json");
	root = cJSON_Parse(out);
	job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	ck_assert_int_ge(check_capacity(job, 10, 3e9), 1);
	const cJSON *r = test_json_route(job, "rented");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	ck_assert(num(r, "replicas") > 1 && num(r, "batch") > 1);
	ck_assert_double_eq_tol(num(r, "monthly_cost"),
				num(r, "replicas") * num(r, "price_per_hour") * 10, 0.01);
	cJSON_Delete(root);
	free(out);
	out = compare_text(spec, "table");
	ck_assert_msg(strstr(out, " replicas of ") && strstr(out, " h each, "), "%s", out);
	free(out);
	free(spec);
}
END_TEST

START_TEST(an_always_on_service_is_priced_for_the_month_with_its_cost_per_mtok)
{
	char *out = compare_text("version: 1\njobs:\n  - name: chat\n    model: llama-3.1-8b\n"
				 "    serving: always-on\n    batch: max\n"
				 "    tokens_per_month: {input: 2B, output: 1B}\n",
				 "json");
	cJSON *root = cJSON_Parse(out);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(job, "serving")->valuestring, "always-on");
	ck_assert_double_eq(num(job, "gpu_hours_per_month"), 744);
	for (int k = 0; k < 3; k++) {
		const cJSON *r = test_json_route(job, k == 0 ? "api" : k == 1 ? "rented" : "owned");
		ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
		ck_assert_double_eq_tol(num(r, "cost_per_mtok"), num(r, "monthly_cost") / 3000,
					1e-4);
		if (k)
			ck_assert_double_eq(num(r, "gpu_hours"), 744);
	}
	cJSON_Delete(root);
	free(out);
}
END_TEST

/* issue 27: the staff assistant, from people to tokens, up its window. */
#define STAFF_SPEC                                                                                 \
	"version: 1\njobs:\n  - name: staff\n    model: qwen2.5-14b\n    precision: q4_k_m\n"        \
	"    api_models: [qwen/qwen-2.5-72b-instruct]\n"                                              \
	"    usage: {users: 12, requests_per_user_day: 20}\n"                                         \
	"    request: {input: 1500, output: 300}\n"                                                   \
	"    schedule: {window: \"08:00-18:00\", days: weekdays}\n"

START_TEST(an_interactive_job_is_priced_for_its_window_with_its_usage_shown)
{
	char *out = compare_text(STAFF_SPEC, "json");
	cJSON *root = cJSON_Parse(out);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	double window = 10 * 5 / 7.0 * 31; /* weekdays 08:00-18:00: 221.4 h */
	ck_assert_str_eq(cJSON_GetObjectItem(job, "serving")->valuestring, "window");
	ck_assert_double_eq_tol(num(job, "gpu_hours_per_month"), window, 0.01);
	for (int k = 1; k < 3; k++) {
		const cJSON *r = test_json_route(job, k == 1 ? "rented" : "owned");
		ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
		ck_assert_double_eq_tol(num(r, "gpu_hours"), window, 0.01);
	}
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(test_json_route(job, "api"), "feasible")));
	const cJSON *u = cJSON_GetObjectItem(job, "usage");
	ck_assert_ptr_nonnull(u);
	ck_assert_double_eq(num(u, "users"), 12);
	ck_assert_double_eq_tol(num(u, "days"), 22.14, 0.005);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(u, "serving_implied")));
	const cJSON *t = cJSON_GetObjectItem(u, "tokens_per_month");
	ck_assert_double_eq(num(t, "input"), round(12 * 20 * 31 * 5 / 7.0 * 1500));
	ck_assert_double_eq(num(t, "output"), round(12 * 20 * 31 * 5 / 7.0 * 300));
	ck_assert_str_eq(cJSON_GetObjectItem(u, "arithmetic")->valuestring,
	                 "12 users x 20 requests a day x 22.1 days x (1500 in + 300 out) = 9.57M "
	                 "tokens a month");
	cJSON_Delete(root);
	free(out);
	out = compare_text(STAFF_SPEC, "table");
	ck_assert_msg(strstr(out, "usage: 12 users x 20 requests a day x 22.1 days x (1500 in + "
	                          "300 out) = 9.57M tokens a month; up 221.4 h a month"),
	              "%s", out);
	ck_assert_msg(strstr(out, "221.4 GPU-h/month"), "%s", out);
	free(out);
}
END_TEST

START_TEST(a_served_looking_job_priced_for_a_sliver_of_its_window_is_warned_of)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *spec = test_write(dir, "job.yaml",
	                        "version: 1\njobs:\n  - name: chat\n    model: qwen2.5-14b\n"
	                        "    precision: q4_k_m\n    request: {input: 1500, output: 300}\n"
	                        "    tokens_per_month: {input: 8M, output: 1.6M}\n"
	                        "    schedule: {window: \"08:00-18:00\", days: weekdays}\n");
	char *out = NULL, *err = NULL;
	const char *argv[] = {"compare", spec, "--quiet", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "job 'chat' is priced for the ") &&
	                  strstr(err, "of its window's 221.4 h a month") &&
	                  strstr(err, "write serving: window"),
	              "%s", err);
	free(out);
	free(err);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

START_TEST(the_table_names_every_job_and_the_csv_has_a_row_a_route)
{
	char *db = db_arg(), *out = NULL;
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "support-bot"));
	ck_assert_ptr_nonnull(strstr(out, "break-even"));
	ck_assert_ptr_null(strstr(out, "\033[")); /* no colour when not a terminal */
	free(out);
	const char *csv[] = {"compare", "jobs/monthly.yaml", "--format", "csv", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, NULL), 0);
	int lines = 0;
	for (char *p = out; *p; p++)
		lines += *p == '\n';
	ck_assert_int_eq(lines, 1 + 4 * 6);
	free(out);
	free(db);
}
END_TEST

/* A job name longer than 22 characters widens the summary's job column
 * instead of being cut (two names sharing their first 22 characters were
 * indistinguishable), up to 40; past that it is cut there. */
START_TEST(the_summary_widens_its_job_column_for_a_long_name)
{
	char *dir = test_tmpdir(), *db = db_arg(), *out = NULL;
	char *spec = test_write(dir, "long.yaml",
	                        "jobs:\n"
	                        "  - {name: nightly-embedding-refresh-eu-west, model: llama-3.1-8b, "
	                        "hours_per_month: 100}\n"
	                        "  - {name: nightly-embedding-refresh-us-east, model: llama-3.1-8b, "
	                        "hours_per_month: 100}\n"
	                        "  - {name: bot, model: llama-3.1-8b, hours_per_month: 100}\n");
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, "\nnightly-embedding-refresh-eu-west rented ") &&
	                  strstr(out, "\nnightly-embedding-refresh-us-east rented ") &&
	                  strstr(out, "\nbot                               rented "),
	              "%s", out);
	free(out);
	free(spec);
	spec = test_write(dir, "longer.yaml",
	                  "jobs:\n"
	                  "  - {name: a-job-name-of-fifty-characters-that-is-cut-at-forty, "
	                  "model: llama-3.1-8b, hours_per_month: 100}\n");
	const char *argv2[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv2, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, "\na-job-name-of-fifty-characters-that-is-c rented "), "%s", out);
	free(out);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

/* Columns of the longest line of text (UTF-8 continuation bytes take none). */
static int widest_line(const char *text)
{
	int widest = 0, cols = 0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			cols = 0;
			continue;
		}
		if (((unsigned char)*p & 0xc0) != 0x80 && ++cols > widest)
			widest = cols;
	}
	return widest;
}

/* text with every run of blanks and line ends made one space: a wrapped
 * figure reads the same as an unwrapped one, a cut one does not. */
static char *joined(const char *text)
{
	char *j = xstrdup(text);
	size_t k = 0;
	for (size_t i = 0; text[i]; i++) {
		bool blank = text[i] == ' ' || text[i] == '\n';
		if (blank && k && j[k - 1] == ' ')
			continue;
		j[k++] = blank ? ' ' : text[i];
	}
	j[k] = '\0';
	return j;
}

static void assert_figure(const char *table, const char *job, const char *fmt, double v)
{
	char fig[64];
	snprintf(fig, sizeof fig, fmt, v);
	ck_assert_msg(strstr(table, fig) != NULL, "%s: %s is not in the 80-column table", job, fig);
}

START_TEST(at_80_columns_compare_wraps_and_shows_every_figure_of_the_json)
{
	char *db = db_arg(), *json = NULL, *tty = NULL;
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &json, NULL), 0);
	char *args = xasprintf("compare jobs/monthly.yaml --db '%s'", db);
	int rc = test_run_tty(80, args, &tty);
	if (rc == -2) {
		printf("compare: terminal test skipped: /usr/bin/script is not installed\n");
		goto out;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(tty, "\u2026") == NULL, "a line is cut:\n%s", tty);
	ck_assert_msg(widest_line(tty) <= 80, "a line passes 80 columns:\n%s", tty);
	char *table = joined(tty);
	cJSON *doc = cJSON_Parse(json);
	const cJSON *job;
	cJSON_ArrayForEach(job, cJSON_GetObjectItem(doc, "jobs"))
	{
		const char *name = cJSON_GetObjectItem(job, "name")->valuestring;
		assert_figure(table, name, "needs %.1f GiB", num(job, "vram_gib"));
		const cJSON *r;
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(job, "routes"))
		{
			if (!cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")))
				continue;
			assert_figure(table, name, " %.2f ", num(r, "monthly_cost"));
			const char *rn = cJSON_GetObjectItem(r, "route")->valuestring;
			if (!strcmp(rn, "api")) {
				assert_figure(table, name, " %.3f in", num(r, "input_per_mtok"));
				assert_figure(table, name, " %.3f out", num(r, "output_per_mtok"));
				continue;
			}
			/* JSON rounds to 0.1, the table to 1: either neighbour,
			 * marked ~ when JSON's confidence is short of calibrated. */
			double tps = num(r, "tokens_per_second");
			const cJSON *cf = cJSON_GetObjectItem(r, "confidence");
			ck_assert_msg(cJSON_IsString(cf), "%s: a GPU route without confidence", name);
			const char *conf = cf->valuestring;
			const char *mark = strcmp(conf, "calibrated") ? "~" : "";
			char lo[32], hi[32];
			snprintf(lo, sizeof lo, " %s%.0f tok/s", mark, floor(tps));
			snprintf(hi, sizeof hi, " %s%.0f tok/s", mark, ceil(tps));
			ck_assert_msg(strstr(table, lo) || strstr(table, hi),
			              "%s: %s is not in the table", name, lo);
			if (!strcmp(rn, "rented")) {
				/* JSON rounds the price to 4 decimals, the table to
				 * 4 digits: under 0.1 the table's has one more
				 * (0.0622 and 0.06221), so the JSON's is its start.
				 * Rounded twice (6.03446 to 6.0345, then to 6.035)
				 * the JSON's can be one off the table's 6.034: a
				 * neighbour half a JSON step away is the same price. */
				double p = num(r, "price_per_hour");
				char fig[3][32];
				for (int d = 0; d < 3; d++)
					snprintf(fig[d], sizeof fig[d], " %.4g",
					         p + (d - 1) * 0.00005);
				ck_assert_msg(strstr(table, fig[0]) || strstr(table, fig[1]) ||
				                  strstr(table, fig[2]),
				              "%s: %s is not in the 80-column table", name, fig[1]);
				assert_figure(table, name, "x %.1f h", num(r, "gpu_hours"));
			} else if (!strcmp(rn, "serverless")) {
				assert_figure(table, name, "busy %.1f h", num(r, "busy_hours"));
				assert_figure(table, name, "idle %.1f h", num(r, "idle_hours"));
			} else if (!cJSON_IsTrue(cJSON_GetObjectItem(r, "already_owned"))) {
				assert_figure(table, name, " %.0f ", num(r, "capex"));
				assert_figure(table, name, "power %.2f ", num(r, "power_cost"));
			}
		}
	}
	cJSON_Delete(doc);
	free(table);
out:
	free(args);
	free(tty);
	free(json);
	free(db);
}
END_TEST

START_TEST(the_table_says_what_its_units_are_and_counts_tokens_in_one_unit)
{
	char *db = db_arg(), *out = NULL;
	char *dir = test_tmpdir();
	/* api vs rented crosses for this job: a token count is printed. */
	char *spec = test_write(dir, "t.yaml",
	                        "version: 1\njobs:\n  - name: chat\n    model: qwen2.5-7b\n"
	                        "    hours_per_month: 100\n    batch: max\n"
	                        "    tokens_per_month: {input: 5B, output: 1B}\n");
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_null(strstr(out, "on one GPU"));
	ck_assert_ptr_nonnull(strstr(out, "GiB of GPU memory in all"));
	ck_assert_ptr_nonnull(strstr(out, "tok/s: output tokens per second of all streams"));
	/* No G, K or bare M token counts: millions (Mtok), like the prices. */
	ck_assert_ptr_null(strstr(out, "G tokens"));
	ck_assert_ptr_null(strstr(out, "M tokens"));
	const char *be = strstr(out, "api vs rented ");
	ck_assert_ptr_nonnull(be);
	be += strlen("api vs rented ");
	/* The crossing (about 3 billion tokens) in millions, as the prices. */
	ck_assert_msg(strstr(be, " Mtok/month") == strpbrk(be, " "), "token count not in Mtok: %.40s",
	              be);
	free(out);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

START_TEST(exit_codes_follow_the_documented_enum)
{
	char *db = db_arg(), *err = NULL;
	const char *missing[] = {"compare", "no-such.yaml", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(missing, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "no-such.yaml"));
	free(err);
	const char *unknown[] = {"compair", NULL};
	ck_assert_int_eq(test_run_planner(unknown, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "did you mean 'compare'"));
	free(err);
	const char *format[] = {"offers", "--format", "xml", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(format, NULL, NULL, NULL), 2);
	const char *nodb[] = {"offers", "--db", "/proc/no/such/prices.db", NULL};
	ck_assert_int_eq(test_run_planner(nodb, NULL, NULL, &err), 4);
	ck_assert_ptr_nonnull(strstr(err, "/proc/no"));
	free(err);
	const char *help[] = {"fit", "--help", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(help, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "example:"));
	free(out);
	free(db);
}
END_TEST

START_TEST(a_bad_job_spec_names_file_line_and_column_and_exits_1)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "bad.yaml",
				"version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n"
				"    hours_per_mnth: 10\n");
	char *db = db_arg(), *err = NULL;
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	char *want = xasprintf("%s:5:5:", spec);
	ck_assert_msg(strstr(err, want) != NULL, "%s", err);
	ck_assert_ptr_nonnull(strstr(err, "hours_per_month"));
	free(want);
	free(err);
	free(db);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(fit_json_lists_gpus_with_the_fewest_that_hold_the_model)
{
	const char *argv[] = {"fit", "llama-3.1-70b", "--precision", "bf16", "--format", "json",
			      NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	double total = num(cJSON_GetObjectItem(root, "need"), "total_gib");
	ck_assert(total > 130 && total < 150); /* 70.6B x 2 bytes = 131.5 GiB + cache */
	const cJSON *g;
	bool h100 = false;
	cJSON_ArrayForEach(g, cJSON_GetObjectItem(root, "gpus"))
	{
		if (strcmp(cJSON_GetObjectItem(g, "gpu")->valuestring, "H100 SXM"))
			continue;
		h100 = true;
		ck_assert_int_eq((int)num(g, "gpus_needed"), 2);
	}
	ck_assert(h100);
	cJSON_Delete(root);
	free(out);
}
END_TEST

START_TEST(offers_never_cuts_an_offer_name_it_goes_on_under_the_column)
{
	char *db = db_arg(), *json = NULL, *table = NULL;
	const char *jargv[] = {"offers", "--format", "json", "--db", db, NULL};
	const char *targv[] = {"offers", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(jargv, NULL, &json, NULL), 0);
	ck_assert_int_eq(test_run_planner(targv, NULL, &table, NULL), 0);
	cJSON *arr = cJSON_Parse(json);
	/* The offer column starts at 11 and is 28 wide; a line that starts
	 * with 11 blanks carries the rest of the row above's name. */
	const cJSON *o = arr ? arr->child : NULL;
	int long_names = 0;
	char *line = strchr(table, '\n') + 1; /* past the header */
	while (o && *line) {
		char *end = strchr(line, '\n');
		ck_assert_ptr_nonnull(end);
		*end = '\0';
		char name[512] = "";
		size_t pieces = 0;
		for (;;) {
			char piece[96];
			const char *at = strlen(line) > 11 ? line + 11 : "";
			/* A word wider than the column is printed whole (cmd_offers.c
			 * name_piece): the piece then runs on to the word's end. */
			size_t word = strcspn(at, " ");
			snprintf(piece, sizeof piece, "%.*s", word > 28 ? (int)word : 28, at);
			for (size_t k = strlen(piece); k && piece[k - 1] == ' ';)
				piece[--k] = '\0';
			if (pieces++)
				strncat(name, " ", sizeof name - strlen(name) - 1);
			strncat(name, piece, sizeof name - strlen(name) - 1);
			line = end + 1;
			if (strncmp(line, "           ", 11) || !(end = strchr(line, '\n')))
				break;
			*end = '\0';
		}
		long_names += pieces > 1;
		const char *want = cJSON_GetObjectItem(o, "offer")->valuestring;
		ck_assert_msg(!strcmp(name, want), "table shows '%s' for '%s'", name, want);
		o = o->next;
	}
	ck_assert_ptr_null(o);           /* every offer had its row */
	ck_assert_int_gt(long_names, 0); /* the snapshot has names over 28 columns */
	cJSON_Delete(arr);
	free(table);
	free(json);
	free(db);
}
END_TEST

#define CONFIDENTIAL_EU "tests/fixtures/jobs/confidential-eu.yaml"

/* The rented route of compare's JSON for spec (its one job). */
static cJSON *rented_route(cJSON *root)
{
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(job, "routes"))
	if (!strcmp(cJSON_GetObjectItem(r, "route")->valuestring, "rented"))
		return (cJSON *)r;
	ck_abort_msg("no rented route");
	return NULL;
}

/* offers' own JSON row for the route r chose: its marketplace flag. */
static bool chosen_is_marketplace(const char *db, const cJSON *r)
{
	const char *provider = cJSON_GetObjectItem(r, "provider")->valuestring;
	const char *offer = cJSON_GetObjectItem(r, "offer")->valuestring;
	const char *region = cJSON_GetObjectItem(r, "region")->valuestring;
	const char *argv[] = {"offers", "--provider", provider, "--format", "json", "--db", db, NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *arr = cJSON_Parse(out);
	int found = -1;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	if (!strcmp(cJSON_GetObjectItem(o, "offer")->valuestring, offer) &&
	    !strcmp(cJSON_GetObjectItem(o, "region")->valuestring, region) &&
	    !cJSON_IsTrue(cJSON_GetObjectItem(o, "spot")))
		found = cJSON_IsTrue(cJSON_GetObjectItem(o, "marketplace"));
	ck_assert_msg(found >= 0, "offers lists no %s %s in %s", provider, offer, region);
	cJSON_Delete(arr);
	free(out);
	return found == 1;
}

static cJSON *compare_json(const char *spec, const char *db)
{
	const char *argv[] = {"compare", spec, "--format", "json", "--db", db, NULL};
	char *out = NULL, *err = NULL;
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	free(out);
	free(err);
	return root;
}

/* Issue 29 item 5: data: confidential in the EU over the bundled snapshot
 * rents from a provider's own data centre although a marketplace host is
 * cheaper, and says which it left out; hosting: [marketplace, datacenter]
 * lets that cheaper one in. */
START_TEST(confidential_data_rents_no_marketplace_host_unless_hosting_allows_it)
{
	char *db = db_arg();
	cJSON *root = compare_json(CONFIDENTIAL_EU, db);
	const cJSON *r = rented_route(root);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	ck_assert(!chosen_is_marketplace(db, r));
	const cJSON *left = cJSON_GetObjectItem(r, "left_out");
	ck_assert_msg(cJSON_IsString(left), "no left_out on the rented route");
	ck_assert_ptr_nonnull(strstr(left->valuestring, "marketplace hosts ("));
	ck_assert_ptr_nonnull(strstr(left->valuestring, "data: confidential; allow with hosting: "
							"[marketplace, datacenter]"));
	double kept_cost = num(r, "monthly_cost");

	char *text = test_slurp(CONFIDENTIAL_EU);
	char *allowed = xasprintf("%s    hosting: [marketplace, datacenter]\n", text);
	char *dir = test_tmpdir(), *spec = test_write(dir, "allowed.yaml", allowed);
	cJSON *root2 = compare_json(spec, db);
	const cJSON *r2 = rented_route(root2);
	ck_assert(chosen_is_marketplace(db, r2));
	ck_assert(num(r2, "monthly_cost") < kept_cost);
	ck_assert_ptr_null(cJSON_GetObjectItem(r2, "left_out"));
	/* The host named as left out is the one let in. */
	ck_assert_ptr_nonnull(
	    strstr(left->valuestring, cJSON_GetObjectItem(r2, "offer")->valuestring));

	/* The table says it too, under the rented route. */
	const char *targv[] = {"compare", CONFIDENTIAL_EU, "--db", db, NULL};
	char *table = NULL;
	ck_assert_int_eq(test_run_planner(targv, NULL, &table, NULL), 0);
	ck_assert_ptr_nonnull(strstr(table, "left out: marketplace hosts ("));
	free(table);
	cJSON_Delete(root);
	cJSON_Delete(root2);
	unlink(spec);
	free(spec);
	free(allowed);
	free(text);
	unlink(db);
	free(db);
	rmdir(dir);
	free(dir);
}
END_TEST

/* When every offer the job could rent is on a marketplace host, the route
 * says data-centre hosts only and names the host it left out. */
START_TEST(a_confidential_job_with_only_marketplace_hosts_says_why_it_rents_none)
{
	char *out = compare_text("version: 1\nproviders: [vast]\njobs:\n  - name: a\n"
				 "    model: llama-3.2-3b\n    hours_per_month: 10\n"
				 "    data: confidential\n",
				 "json");
	cJSON *root = cJSON_Parse(out);
	const cJSON *r = rented_route(root);
	ck_assert(!cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	ck_assert_ptr_nonnull(
	    strstr(cJSON_GetObjectItem(r, "why")->valuestring, "data-centre hosts only"));
	ck_assert_ptr_nonnull(
	    strstr(cJSON_GetObjectItem(r, "left_out")->valuestring, "marketplace hosts (vast "));
	cJSON_Delete(root);
	free(out);
}
END_TEST

/* Issue 29 item 4: `refresh --provider scaleway` also runs the API feed,
 * but the spec's providers: still restricts rented offers only: the API
 * route is priced from every API feed, the rented one from scaleway. */
START_TEST(spec_providers_restricts_rented_offers_only)
{
	char *out = compare_text("version: 1\nproviders: [scaleway]\njobs:\n  - name: a\n"
				 "    model: llama-3.1-8b\n    hours_per_month: 10\n"
				 "    tokens_per_month: {input: 20M, output: 4M}\n",
				 "json");
	cJSON *root = cJSON_Parse(out);
	const cJSON *r = rented_route(root);
	const cJSON *rp = cJSON_GetObjectItem(r, "provider");
	if (cJSON_IsString(rp))
		ck_assert_str_eq(rp->valuestring, "scaleway");
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0), *a, *api = NULL;
	cJSON_ArrayForEach(a, cJSON_GetObjectItem(job, "routes"))
	if (!strcmp(cJSON_GetObjectItem(a, "route")->valuestring, "api"))
		api = a;
	ck_assert_ptr_nonnull(api);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(api, "feasible")));
	const cJSON *ap = cJSON_GetObjectItem(api, "provider");
	ck_assert(cJSON_IsString(ap));
	ck_assert_str_ne(ap->valuestring, "scaleway");
	cJSON_Delete(root);
	free(out);
}
END_TEST

/* hosting: takes the two words only, a near miss named with the fix. */
START_TEST(a_misspelt_hosting_word_is_refused_at_its_line_and_column)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "job.yaml",
				"version: 1\njobs:\n  - name: a\n    model: llama-3.2-3b\n"
				"    hours_per_month: 10\n    data: confidential\n"
				"    hosting: [datacenter, marketplce]\n");
	char *db = xasprintf("%s/prices.db", dir), *err = NULL;
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, "job.yaml:7:27") != NULL, "%s", err);
	ck_assert_msg(strstr(err, "did you mean 'marketplace'") != NULL, "%s", err);
	free(err);
	unlink(spec);
	free(spec);
	free(db);
	rmdir(dir);
	free(dir);
}
END_TEST

START_TEST(offers_json_carries_the_documented_keys_cheapest_first)
{
	char *db = db_arg(), *out = NULL;
	const char *argv[] = {"offers", "--gpu", "h100", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *arr = cJSON_Parse(out);
	ck_assert(cJSON_IsArray(arr) && cJSON_GetArraySize(arr) > 0);
	double last = 0;
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		static const char *const keys[] = {"provider", "offer",  "gpu",    "gpu_count",
						   "vram_gib", "price_per_hour", "spot", "region",
						   "fetched_at"};
		for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
			ck_assert_msg(cJSON_GetObjectItem(o, keys[i]) != NULL, "no %s", keys[i]);
		ck_assert_str_eq(cJSON_GetObjectItem(o, "gpu")->valuestring, "H100 SXM");
		/* Cheapest in one currency: the converted price (an EUR row's own
		 * price_per_hour is in EUR). */
		const cJSON *conv = cJSON_GetObjectItem(o, "converted");
		ck_assert_msg(cJSON_IsObject(conv), "no converted");
		ck_assert(num(conv, "price_per_hour") >= last);
		last = num(conv, "price_per_hour");
	}
	cJSON_Delete(arr);
	free(out);
	const char *api[] = {"offers", "--api", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(api, NULL, &out, NULL), 0);
	arr = cJSON_Parse(out);
	ck_assert(cJSON_IsArray(arr) && cJSON_GetArraySize(arr) > 0);
	cJSON_ArrayForEach(o, arr)
	{
		ck_assert(cJSON_IsString(cJSON_GetObjectItem(o, "model")));
		ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(o, "input_per_mtok")));
		ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(o, "output_per_mtok")));
	}
	cJSON_Delete(arr);
	free(out);
	free(db);
}
END_TEST

/* vram_gib of a QLoRA job on Llama-3.1-8B with extra job keys. */
static double qlora_gib(const char *extra)
{
	char *spec = xasprintf("version: 1\njobs:\n  - name: tune\n    model: llama-3.1-8b\n"
			       "    task: finetune-qlora\n    hours_per_month: 20\n"
			       "    context: 2048\n    batch: 8\n%s",
			       extra);
	char *out = compare_text(spec, "json");
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	double gib = num(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0), "vram_gib");
	cJSON_Delete(root);
	free(out);
	free(spec);
	return gib;
}

START_TEST(a_qlora_jobs_memory_follows_its_rank_optimizer_and_micro_batch)
{
	/* hf's default: rank 16 on every linear layer, fp32 AdamW: 8 bytes of
	 * weight and gradient and 8 of moments per adapter parameter. */
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-8b");
	double p16 = vram_lora_params(m, 16, false);
	double base = qlora_gib("");
	/* rank 64: four times the adapter */
	ck_assert_double_eq_tol(qlora_gib("    lora: {rank: 64}\n") - base, 3 * p16 * 16 / 1073741824.0,
				0.011);
	/* 8-bit AdamW keeps 2 bytes of moments, a paged one none on the GPU */
	ck_assert_double_eq_tol(base - qlora_gib("    optimizer: adamw-8bit\n"),
				p16 * 6 / 1073741824.0, 0.011);
	ck_assert_double_eq_tol(base - qlora_gib("    optimizer: paged-adamw-8bit\n"),
				p16 * 8 / 1073741824.0, 0.011);
	/* attention only: q, k, v, o adapters are a fraction of all-linear */
	ck_assert(qlora_gib("    lora: {targets: attention}\n") < base);
	/* micro-batches of 2 with gradient accumulation: a quarter of the
	 * batch's activations */
	double micro = qlora_gib("    micro_batch: 2\n");
	ck_assert(micro < base - 1.0);
	/* checkpointing off keeps every layer's activations */
	ck_assert(qlora_gib("    checkpointing: false\n") > base + 5.0);
}
END_TEST

START_TEST(fit_takes_the_fine_tuning_flags)
{
	const char *argv[] = {"fit",         "llama-3.1-8b",  "--task",      "finetune-qlora",
			      "--lora-rank", "64",            "--optimizer", "adamw-8bit",
			      "--batch",     "4",             "--micro-batch", "2",
			      "--gpu",       "RTX 4090",      "--format",    "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-8b");
	/* rank 64 adapters at 8 + 2 bytes each */
	ck_assert_double_eq_tol(num(cJSON_GetObjectItem(root, "need"), "training_gib"),
				vram_lora_params(m, 64, false) * 10 / 1073741824.0, 0.006);
	const cJSON *t = cJSON_GetObjectItem(root, "training");
	ck_assert_str_eq(cJSON_GetObjectItem(t, "optimizer")->valuestring, "adamw-8bit");
	ck_assert_int_eq((int)num(t, "lora_rank"), 64);
	ck_assert_int_eq((int)num(t, "micro_batch"), 2);
	cJSON_Delete(root);
	free(out);
	/* usage errors: a fine-tuning flag on inference, an unknown optimizer,
	 * a micro-batch above the batch */
	const char *inf[] = {"fit", "llama-3.1-8b", "--optimizer", "adamw", NULL};
	const char *unk[] = {"fit", "llama-3.1-8b", "--task", "finetune-lora", "--optimizer", "sgd",
			     NULL};
	const char *mb[] = {"fit", "llama-3.1-8b", "--task", "finetune-lora", "--micro-batch", "4",
			    NULL};
	const char *tg[] = {"fit", "llama-3.1-8b", "--task", "finetune-lora", "--lora-targets",
			    "mlp", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(inf, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "--optimizer is for fine-tuning"), "%s", err);
	free(err);
	ck_assert_int_eq(test_run_planner(unk, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "unknown optimizer 'sgd'"), "%s", err);
	free(err);
	ck_assert_int_eq(test_run_planner(mb, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "--micro-batch 4 is more than --batch 1"), "%s", err);
	free(err);
	ck_assert_int_eq(test_run_planner(tg, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "unknown --lora-targets 'mlp'"), "%s", err);
	free(err);
}
END_TEST

/* fit --checkpointing C --format json on a LoRA job of llama-3.1-8b on one
 * H100: its activations and training tokens/s; the mode read back. */
static void fit_ckpt(const char *mode, double *act, double *tps)
{
	const char *argv[] = {"fit",    "llama-3.1-8b",    "--task", "finetune-lora",
			      "--gpu",  "H100 SXM",        "--gpus", "1",
			      "--format", "json", "--checkpointing", mode, NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *t = cJSON_GetObjectItem(root, "training");
	ck_assert_str_eq(cJSON_GetObjectItem(t, "checkpointing")->valuestring, mode);
	*act = num(cJSON_GetObjectItem(root, "need"), "activation_gib");
	*tps = num(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0), "train_tokens_per_second");
	cJSON_Delete(root);
	free(out);
}

START_TEST(fit_checkpointing_trades_activation_memory_for_recompute)
{
	double on_act, on_tps, off_act, off_tps, sel_act, sel_tps;
	fit_ckpt("on", &on_act, &on_tps);
	fit_ckpt("off", &off_act, &off_tps);
	fit_ckpt("selective", &sel_act, &sel_tps);
	/* off keeps every layer's 34 x hidden bytes a token (Korthikanti et
	 * al. 2022) where on keeps 2, and skips the forward rerun: a LoRA step
	 * of 4 FLOPs a parameter instead of 6 */
	ck_assert(off_act > 3 * on_act);
	ck_assert_double_eq_tol(off_tps / on_tps, 6.0 / 4.0, 0.01);
	/* selective holds what off holds under flash attention, and pays a
	 * little for the attention core it reruns */
	ck_assert_double_eq_tol(sel_act, off_act, 1e-9);
	ck_assert(sel_tps < off_tps && sel_tps > 0.9 * off_tps);
	/* a bad mode, and the flag on inference, are usage errors */
	const char *bad[] = {"fit", "llama-3.1-8b", "--task", "finetune-lora", "--checkpointing",
			     "partial", NULL};
	const char *inf[] = {"fit", "llama-3.1-8b", "--checkpointing", "off", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "unknown --checkpointing 'partial'; use on, off or selective"),
		      "%s", err);
	free(err);
	ck_assert_int_eq(test_run_planner(inf, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "--checkpointing is for fine-tuning"), "%s", err);
	free(err);
}
END_TEST

/* The staff assistant (issue 27's done-when): with data: public every
 * route prices it, the rented and owned ones for its ~221 h window, the
 * API per token and the serverless endpoint per busy second (its bill
 * rebuilt from the terms in the JSON), the cheapest marked best; with
 * data: confidential the API is out and serverless stays. */
START_TEST(the_staff_assistant_is_priced_on_all_four_routes_for_its_window)
{
	static const char *const data[] = {"data=public", "data=confidential"};
	double window = 10 * 5 / 7.0 * 31; /* weekdays 08:00-18:00 of 31 days */
	for (int k = 0; k < 2; k++) {
		char *db = db_arg(), *out = NULL, *err = NULL;
		char *set = xasprintf("jobs.staff-assistant.%s", data[k]);
		const char *argv[] = {"compare", "jobs/staff-assistant.yaml", "--format", "json",
		                      "--db", db, "--set", set, NULL};
		int rc = test_run_planner(argv, NULL, &out, &err);
		ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
		cJSON *root = cJSON_Parse(out);
		ck_assert_msg(root != NULL, "not JSON: %s", out);
		const cJSON *job = test_json_job(root, "staff-assistant");
		const char *names[] = {"api", "rented", "owned", "serverless"};
		const char *cheapest = NULL;
		double least = INFINITY;
		for (int i = 0; i < 4; i++) {
			const cJSON *r = test_json_route(job, names[i]);
			bool ok = cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible"));
			ck_assert_msg(ok == (k == 0 || i > 0), "%s %s: %s", data[k], names[i],
			              cJSON_PrintUnformatted(r));
			if (!ok)
				continue;
			if (num(r, "monthly_cost") < least)
				least = num(r, "monthly_cost"), cheapest = names[i];
		}
		ck_assert_str_eq(cJSON_GetObjectItem(cJSON_GetObjectItem(job, "best"), "route")
		                     ->valuestring,
		                 cheapest);
		ck_assert_double_eq_tol(num(test_json_route(job, "rented"), "gpu_hours"), window,
		                        0.01);
		ck_assert_double_eq_tol(num(test_json_route(job, "owned"), "gpu_hours"), window,
		                        0.01);
		/* Serverless: billed for its busy seconds, idle time and starts. */
		const cJSON *sv = test_json_route(job, "serverless");
		double busy = num(sv, "busy_hours"), pps = num(sv, "price_per_second");
		ck_assert_msg(busy > 0 && busy < window / 4, "busy %.1f h", busy);
		double bill = ((busy + num(sv, "idle_hours")) * 3600 +
		               num(sv, "cold_starts") * num(sv, "cold_start_s")) *
		              pps;
		ck_assert_double_eq_tol(bill, num(sv, "monthly_cost"), 0.01 * bill);
		if (k == 0)
			ck_assert(num(test_json_route(job, "api"), "cost_per_mtok") > 0);
		cJSON_Delete(root);
		free(out);
		free(err);
		free(set);
		free(db);
	}
}
END_TEST

/* Issue 29 item 1: a route priced with a bundled-snapshot row dated more
 * than 90 days before the snapshot's own as_of says so, one note naming
 * the provider and the row's date (the API feeds' rows of 2025-10-03 and
 * 2026-07-24 against as_of 2026-12-02); a plan priced only with recent
 * rows (Verda's catalogue rows of 2026-12-02) notes nothing of the kind. */
START_TEST(compare_notes_the_old_snapshot_rows_it_prices_with)
{
	const char *note = "priced with bundled-snapshot rows more than 90 days older than the "
	                   "snapshot (as of 2026-12-02): ";
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	char *api = test_write(dir, "api.yaml",
	                       "version: 1\njobs:\n  - name: chat\n    model: llama-3.1-8b\n"
	                       "    tokens_per_month: {input: 10M, output: 2M}\n");
	const char *a[] = {"compare", api, "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(a, NULL, &out, &err), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const cJSON *r = test_json_route(job, "api");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	const char *host = cJSON_GetObjectItem(r, "provider")->valuestring;
	const char *date = !strcmp(host, "openrouter") ? "2025-10-03" : "2026-07-24";
	char *want = xasprintf("%s %s", host, date);
	const char *at = strstr(err, note);
	ck_assert_msg(at && strstr(at, want) && strchr(at, '\n') > strstr(at, want),
	              "no note of %s in: %s", want, err);
	ck_assert_ptr_null(strstr(at + 1, note)); /* one line */
	cJSON_Delete(root);
	free(want);
	free(out);
	free(err);
	char *fresh = test_write(dir, "fresh.yaml",
	                         "version: 1\nproviders: [verda]\njobs:\n  - name: ledger\n"
	                         "    model: llama-3.2-3b\n    hours_per_month: 10\n"
	                         "    data: confidential\n");
	const char *f[] = {"compare", fresh, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(f, NULL, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(out, "verda "));
	ck_assert_msg(!strstr(err, "priced with bundled-snapshot rows"), "%s", err);
	free(out);
	free(err);
	unlink(api);
	unlink(fresh);
	unlink(db);
	rmdir(dir);
	free(api);
	free(fresh);
	free(db);
	free(dir);
}
END_TEST

Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("end to end");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, compare_discounts_take_a_share_off_on_demand_list_prices_only);
	tcase_add_test(tc, compare_notes_the_old_snapshot_rows_it_prices_with);
	tcase_add_test(tc, compare_set_prices_a_what_if_and_the_cost_terms_add_up);
	tcase_add_test(tc, compare_json_follows_the_contract_and_every_number_reproduces_by_hand);
	tcase_add_test(tc, the_table_names_every_job_and_the_csv_has_a_row_a_route);
	tcase_add_test(tc, the_summary_widens_its_job_column_for_a_long_name);
	tcase_add_test(tc, the_impossible_job_is_resized_or_infeasible_with_the_reason);
	tcase_add_test(tc, an_always_on_service_is_priced_for_the_month_with_its_cost_per_mtok);
	tcase_add_test(tc, an_interactive_job_is_priced_for_its_window_with_its_usage_shown);
	tcase_add_test(tc, a_served_looking_job_priced_for_a_sliver_of_its_window_is_warned_of);
	tcase_add_test(tc, exit_codes_follow_the_documented_enum);
	tcase_add_test(tc, a_bad_job_spec_names_file_line_and_column_and_exits_1);
	tcase_add_test(tc, fit_json_lists_gpus_with_the_fewest_that_hold_the_model);
	tcase_add_test(tc, offers_json_carries_the_documented_keys_cheapest_first);
	tcase_add_test(tc, offers_never_cuts_an_offer_name_it_goes_on_under_the_column);
	tcase_add_test(tc, a_qlora_jobs_memory_follows_its_rank_optimizer_and_micro_batch);
	tcase_add_test(tc, fit_takes_the_fine_tuning_flags);
	tcase_add_test(tc, fit_checkpointing_trades_activation_memory_for_recompute);
	tcase_add_test(tc, at_80_columns_compare_wraps_and_shows_every_figure_of_the_json);
	tcase_add_test(tc, the_table_says_what_its_units_are_and_counts_tokens_in_one_unit);
	tcase_add_test(tc, the_staff_assistant_is_priced_on_all_four_routes_for_its_window);
	tcase_add_test(tc, confidential_data_rents_no_marketplace_host_unless_hosting_allows_it);
	tcase_add_test(tc, a_misspelt_hosting_word_is_refused_at_its_line_and_column);
	tcase_add_test(tc, a_confidential_job_with_only_marketplace_hosts_says_why_it_rents_none);
	tcase_add_test(tc, spec_providers_restricts_rented_offers_only);
	suite_add_tcase(s, tc);
	return s;
}
