/* check_plan_cache.c — planner/plan_cache.c: a plan reads each model's API
 * prices from the store once and every job after that shares them. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan_cache.h"
#include "testutil.h"
#include "util.h"

static void put_price(struct store *st, const char *model, double out_per_token)
{
	struct api_price a = {.input_per_token = 0.1e-6, .output_per_token = out_per_token};
	char *err = NULL;
	snprintf(a.model, sizeof a.model, "%s", model);
	ck_assert_int_eq(store_replace_api_prices(st, "testfeed", &a, 1, &err), PLANNER_OK);
}

START_TEST(a_models_api_prices_are_read_once_per_cache_and_another_model_is_read_afresh)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/cache.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	put_price(st, "test/model-a", 0.4e-6);
	struct api_cache c = {0};
	const struct api_price *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-a", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.4e-6);
	/* The store changes; the cache still answers what it read. */
	put_price(st, "test/model-b", 0.9e-6);
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-a", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.4e-6);
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-b", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.9e-6);
	ck_assert_uint_eq(c.n, 2);
	api_cache_free(&c);
	api_cache_free(NULL);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

Suite *plan_cache_suite(void)
{
	Suite *s = suite_create("plan_cache");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_models_api_prices_are_read_once_per_cache_and_another_model_is_read_afresh);
	suite_add_tcase(s, tc);
	return s;
}
