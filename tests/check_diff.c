/* check_diff.c — `planner diff` end to end: its JSON parsed back and held
 * to docs/diff.md (every change is new − old, the totals are the sums, an
 * added and a removed job), the --set form, and its usage errors. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	ck_assert_msg(cJSON_IsNumber(v), "missing number %s", k);
	return v->valuedouble;
}

/* The cost of one side, 0 when null or without a route. */
static double side_cost(const cJSON *s)
{
	const cJSON *c = cJSON_GetObjectItem(s, "monthly_cost");
	return cJSON_IsNumber(c) ? c->valuedouble : 0;
}

/* Runs diff with argv and parses its JSON. */
static cJSON *diff_json(const char *const *argv)
{
	char *out = NULL, *err = NULL;
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(root != NULL, "not JSON: %s", out);
	free(out);
	free(err);
	return root;
}

/* Every field of docs/diff.md, and the sums. */
static void check_contract(const cJSON *root)
{
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(root, "currency")));
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(root, "old")));
	ck_assert(cJSON_IsString(cJSON_GetObjectItem(root, "new")));
	double old_sum = 0, new_sum = 0, old_capex = 0, new_capex = 0;
	int changed = 0;
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(root, "jobs"))
	{
		const cJSON *o = cJSON_GetObjectItem(j, "old"), *n = cJSON_GetObjectItem(j, "new");
		const char *st = cJSON_GetObjectItem(j, "status")->valuestring;
		ck_assert(cJSON_IsObject(o) || cJSON_IsNull(o));
		ck_assert(cJSON_IsObject(n) || cJSON_IsNull(n));
		ck_assert((strcmp(st, "added") == 0) == (bool)cJSON_IsNull(o));
		ck_assert((strcmp(st, "removed") == 0) == (bool)cJSON_IsNull(n));
		ck_assert_double_eq_tol(num(j, "monthly_cost_change"), side_cost(n) - side_cost(o),
		                        0.0051);
		ck_assert(cJSON_IsBool(cJSON_GetObjectItem(j, "decision_changed")));
		old_sum += side_cost(o);
		new_sum += side_cost(n);
		old_capex += cJSON_IsObject(o) ? num(o, "capex") : 0;
		new_capex += cJSON_IsObject(n) ? num(n, "capex") : 0;
		changed += strcmp(st, "unchanged") != 0;
	}
	const cJSON *t = cJSON_GetObjectItem(root, "total");
	ck_assert_double_eq_tol(num(t, "old_monthly_cost"), old_sum, 0.01);
	ck_assert_double_eq_tol(num(t, "new_monthly_cost"), new_sum, 0.01);
	ck_assert_double_eq_tol(num(t, "monthly_cost_change"),
	                        num(t, "new_monthly_cost") - num(t, "old_monthly_cost"), 0.011);
	ck_assert_double_eq_tol(num(t, "old_capex"), old_capex, 0.01);
	ck_assert_double_eq_tol(num(t, "new_capex"), new_capex, 0.01);
	ck_assert_double_eq_tol(num(t, "capex_change"), new_capex - old_capex, 0.01);
	ck_assert_int_eq((int)num(t, "jobs_changed"), changed);
}

START_TEST(diff_json_follows_its_contract_with_added_removed_and_changed_jobs)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	/* new: support-bot with 40x the input, nightly-summaries gone, one
	 * job added */
	char *text = test_slurp("jobs/monthly.yaml");
	ck_assert_ptr_nonnull(text);
	char *cut = strstr(text, "  - name: nightly-summaries");
	ck_assert_ptr_nonnull(cut);
	char *end = strstr(cut + 4, "  - name:");
	ck_assert_ptr_nonnull(end);
	memmove(cut, end, strlen(end) + 1);
	char *newtext = xasprintf("%s  - {name: extra-bot, model: llama-3.1-8b, precision: q4_k_m, "
	                          "hours_per_month: 200}\n",
	                          text);
	char *newspec = test_write(dir, "new.yaml", newtext);
	const char *argv[] = {"diff",  "jobs/monthly.yaml", newspec, "--format", "json",
	                      "--db",  db,                  "--set",
	                      "jobs.support-bot.tokens_per_month.input=4B", NULL};
	cJSON *root = diff_json(argv);
	check_contract(root);
	ck_assert_str_eq(cJSON_GetObjectItem(test_json_job(root, "nightly-summaries"), "status")
	                     ->valuestring,
	                 "removed");
	ck_assert_str_eq(cJSON_GetObjectItem(test_json_job(root, "extra-bot"), "status")->valuestring,
	                 "added");
	const cJSON *bot = test_json_job(root, "support-bot");
	ck_assert(num(bot, "monthly_cost_change") > 0); /* 40x the tokens cost more */
	ck_assert_str_eq(cJSON_GetObjectItem(test_json_job(root, "contract-review"), "status")
	                     ->valuestring,
	                 "unchanged");
	cJSON_Delete(root);
	free(newtext);
	free(text);
	free(newspec);
	free(db);
	free(dir);
}
END_TEST

START_TEST(diff_of_one_spec_and_a_set_shows_the_what_if)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	const char *argv[] = {"diff", "jobs/monthly.yaml", "--format", "json", "--db", db,
	                      "--set", "costs.maintenance_per_gpu_month=10", NULL};
	cJSON *root = diff_json(argv);
	check_contract(root);
	/* 10 a GPU-month makes every owned route dearer: contract-review
	 * (owned only, 2 GPUs on hand) costs 20 more */
	ck_assert_double_eq_tol(num(test_json_job(root, "contract-review"), "monthly_cost_change"),
	                        20, 1e-6);
	cJSON_Delete(root);
	/* the table says the same */
	const char *table[] = {"diff", "jobs/monthly.yaml", "--db", db, "--quiet", "--set",
	                       "costs.maintenance_per_gpu_month=10", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_int_eq(test_run_planner(table, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "~ contract-review") && strstr(out, "+20.00"), "%s", out);
	ck_assert_msg(strstr(out, "total a month"), "%s", out);
	free(out);
	free(err);
	free(db);
	free(dir);
}
END_TEST

START_TEST(diff_needs_two_specs_or_a_set)
{
	char *out = NULL, *err = NULL;
	const char *one[] = {"diff", "jobs/monthly.yaml", NULL};
	ck_assert_int_eq(test_run_planner(one, NULL, &out, &err), 2);
	ck_assert_msg(strstr(err, "one spec and --set"), "%s", err);
	free(out);
	free(err);
	const char *csv[] = {"diff", "jobs/monthly.yaml", "jobs/eu-team.yaml", "--format", "csv",
	                     NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, &err), 2);
	free(out);
	free(err);
}
END_TEST

Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("cli");
	tcase_add_test(tc, diff_json_follows_its_contract_with_added_removed_and_changed_jobs);
	tcase_add_test(tc, diff_of_one_spec_and_a_set_shows_the_what_if);
	tcase_add_test(tc, diff_needs_two_specs_or_a_set);
	suite_add_tcase(s, tc);
	return s;
}
