/* check_plan_cache.c — planner/plan_cache.c: a plan reads each model's API
 * prices from the store once and every job after that shares them, and
 * estimates each GPU configuration once per shape of job. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
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

/* Three jobs of one shape (hours differ), a fourth of another batch. */
static const char shapes_yaml[] =
    "version: 1\njobs:\n"
    " - {name: a, model: llama-3.1-8b, batch: max, hours_per_month: 100}\n"
    " - {name: b, model: llama-3.1-8b, batch: max, hours_per_month: 300}\n"
    " - {name: c, model: llama-3.1-8b, batch: max, tokens_per_month: {input: 900M, output: 90M},"
    " request: {input: 4096, output: 0}}\n"
    " - {name: d, model: llama-3.1-8b, batch: 4, hours_per_month: 100}\n";

START_TEST(jobs_of_one_shape_share_each_configurations_estimate_and_size_as_workload_size_does)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", shapes_yaml, strlen(shapes_yaml), test_ref(), &spec,
				    &err) == PLANNER_OK,
		      "%s", err);
	ck_assert_uint_eq(spec->n_jobs, 4);
	const struct gpu_spec *gpus[] = {refdata_gpu(test_ref(), "H100 SXM"),
					 refdata_gpu(test_ref(), "RTX 4090"),
					 refdata_gpu(test_ref(), "A100 80GB")};
	struct size_cache c = {0};
	size_t shapes[4];
	for (size_t i = 0; i < 4; i++) {
		struct workload w;
		ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[i], &err), PLANNER_OK);
		shapes[i] = size_cache_shape(&c, &w);
		for (size_t g = 0; g < 3; g++) {
			ck_assert_ptr_nonnull(gpus[g]);
			for (int n = 1; n <= 2; n++) {
				struct workload_run a, b;
				char why_a[256] = "", why_b[256] = "";
				bool ok_a = workload_size(&w, gpus[g], n, 1, &a, why_a, sizeof why_a);
				bool ok_b = size_cache_size(&c, shapes[i], &w, gpus[g], n, 1, &b,
							    why_b, sizeof why_b);
				ck_assert_int_eq(ok_a, ok_b);
				ck_assert_int_eq(a.batch, b.batch);
				ck_assert_int_eq(a.replicas, b.replicas);
				ck_assert(a.tps == b.tps && a.hours == b.hours &&
					  a.work_hours == b.work_hours);
				ck_assert_str_eq(why_a, why_b);
			}
		}
	}
	/* The first job of a shape keeps nothing; the second and third share
	 * one shape (the request shape makes c's the same as a's); d's batch
	 * makes its own. */
	ck_assert_uint_eq(shapes[0], SIZE_MAX);
	ck_assert_uint_ne(shapes[1], SIZE_MAX);
	ck_assert_uint_eq(shapes[1], shapes[2]);
	ck_assert_uint_eq(shapes[3], SIZE_MAX);
	ck_assert_uint_eq(c.n_shapes, 2);
	ck_assert_uint_eq(c.n, 3 * 2); /* one estimate per configuration, kept once */
	size_cache_free(&c);
	size_cache_free(NULL);
	jobspec_free(spec);
}
END_TEST

Suite *plan_cache_suite(void)
{
	Suite *s = suite_create("plan_cache");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_models_api_prices_are_read_once_per_cache_and_another_model_is_read_afresh);
	tcase_add_test(tc,
		       jobs_of_one_shape_share_each_configurations_estimate_and_size_as_workload_size_does);
	suite_add_tcase(s, tc);
	return s;
}
