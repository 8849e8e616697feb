/* check_fit_models.c — `planner fit --gpu G` with no model
 * (planner/cmd_fit_models.c): the reference models and quantisations that
 * fit the device, fastest first, as LM Studio's browser lists them. */
#include <cJSON.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

/* The "models" rows fit prints for argv, parsed; the caller deletes the
 * root. */
static cJSON *models_json(const char *const *argv, const cJSON **models)
{
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	free(out);
	ck_assert_ptr_nonnull(root);
	*models = cJSON_GetObjectItem(root, "models");
	ck_assert(cJSON_IsArray(*models));
	return root;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	ck_assert_msg(cJSON_IsNumber(v), "%s is not a number", key);
	return v->valuedouble;
}

/* Whether the rows hold model at precision. */
static bool holds(const cJSON *models, const char *model, const char *precision)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, models)
	{
		if (!strcmp(cJSON_GetObjectItem(r, "model")->valuestring, model) &&
		    !strcmp(cJSON_GetObjectItem(r, "precision")->valuestring, precision))
			return true;
	}
	return false;
}

START_TEST(an_m2_max_with_32_gib_lists_the_models_that_fit_it_fastest_first)
{
	const char *argv[] = {"fit", "--gpu",    "M2 Max", "--memory-gib",
	                      "32",  "--format", "json",   NULL};
	const cJSON *models = NULL;
	cJSON *root = models_json(argv, &models);
	ck_assert_int_gt(cJSON_GetArraySize(models), 10);
	double last = 1e18;
	const cJSON *r;
	cJSON_ArrayForEach(r, models)
	{
		double tps = num(r, "decode_tokens_per_second");
		ck_assert(tps > 0 && tps <= last); /* fastest first */
		last = tps;
		/* Every row fits the GPU's share of 32 GiB, and runs llama.cpp. */
		ck_assert_double_eq(num(r, "memory_gib"), 32);
		ck_assert(num(r, "need_gib") < 32 * 3 / 4.0);
		ck_assert_str_eq(cJSON_GetObjectItem(r, "engine")->valuestring, "llama.cpp");
	}
	/* An 8B at q4_k_m fits; a 70B at q4_k_m (about 40 GiB) does not. */
	ck_assert(holds(models, "llama-3.1-8b", "q4_k_m"));
	ck_assert(!holds(models, "llama-3.1-70b", "q4_k_m"));
	ck_assert(!holds(models, "llama-3.1-70b", "bf16"));
	ck_assert_int_gt((int)num(root, "left_out"), 0);
	cJSON_Delete(root);
}
END_TEST

START_TEST(the_table_names_each_row_and_a_precision_narrows_the_list)
{
	const char *argv[] = {"fit", "--gpu",       "M2 Max", "--memory-gib",
	                      "32",  "--precision", "q8_0",   NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "models that fit M2 Max"));
	ck_assert_ptr_nonnull(strstr(out, "llama-3.1-8b"));
	ck_assert_ptr_null(strstr(out, "q4_k_m"));
	free(out);
}
END_TEST

START_TEST(a_gpu_lists_what_one_of_it_holds_under_each_engine)
{
	const char *argv[] = {"fit", "--gpu", "4090", "--format", "json", NULL};
	const cJSON *models = NULL;
	cJSON *root = models_json(argv, &models);
	/* 24 GB: an 8B in bf16 under vLLM, not a 70B at any precision on one card. */
	ck_assert(holds(models, "llama-3.1-8b", "bf16"));
	ck_assert(holds(models, "llama-3.1-8b", "q4_k_m"));
	ck_assert(!holds(models, "llama-3.1-70b", "q4_k_m"));
	cJSON_Delete(root);
}
END_TEST

START_TEST(no_model_and_no_gpu_or_a_fine_tuning_task_is_a_usage_error)
{
	const char *bare[] = {"fit", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(bare, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--gpu G alone"));
	free(err);
	const char *train[] = {"fit", "--gpu", "4090", "--task", "finetune-lora", NULL};
	ck_assert_int_eq(test_run_planner(train, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "with no model"));
	free(err);
}
END_TEST

START_TEST(csv_has_a_row_per_fit_and_batch_max_is_said_as_max)
{
	const char *csv[] = {"fit",         "--gpu",  "M4",       "--memory-gib", "16",
	                     "--precision", "q4_k_m", "--format", "csv",          NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, NULL), 0);
	ck_assert_ptr_eq(strstr(out, "model,precision,engine,gpu,memory_gib,need_gib,"
	                             "decode_tokens_per_second\r\n"),
	                 out);
	ck_assert_ptr_nonnull(strstr(out, "\r\nllama-3.1-8b,q4_k_m,llama.cpp,M4,16.00,"));
	free(out);
	const char *max[] = {"fit", "--gpu", "4090", "--batch", "max", "--precision", "q8_0", NULL};
	ck_assert_int_eq(test_run_planner(max, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "batch max, fastest first"));
	free(out);
}
END_TEST

Suite *fit_models_suite(void)
{
	Suite *s = suite_create("fit_models");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, an_m2_max_with_32_gib_lists_the_models_that_fit_it_fastest_first);
	tcase_add_test(tc, the_table_names_each_row_and_a_precision_narrows_the_list);
	tcase_add_test(tc, a_gpu_lists_what_one_of_it_holds_under_each_engine);
	tcase_add_test(tc, no_model_and_no_gpu_or_a_fine_tuning_task_is_a_usage_error);
	tcase_add_test(tc, csv_has_a_row_per_fit_and_batch_max_is_said_as_max);
	suite_add_tcase(s, tc);
	return s;
}
