/* check_confidence.c — planner/confidence.c: how far a speed rests on the
 * calibration set's fit rows, and where fit and compare say so. */
#include <cJSON.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "confidence.h"
#include "engines.h"
#include "refdata.h"
#include "testutil.h"

static enum confidence conf(const char *engine, bool training, const char *model, const char *gpu,
                            int n)
{
	const struct refdata *ref = test_ref();
	const struct model_spec *m = refdata_model(ref, model);
	const struct gpu_spec *g = refdata_gpu(ref, gpu);
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(g);
	return confidence_of(engine_find(engine), training, m, g, n);
}

START_TEST(a_speed_is_calibrated_only_where_fit_rows_of_its_engine_gpu_class_and_scale_are)
{
	/* vLLM has fit rows on GDDR NVIDIA cards up to 8 of them */
	ck_assert_int_eq(conf("vllm", false, "llama-3.1-8b", "RTX 4090", 1), CONF_CALIBRATED);
	/* ... but none on NVIDIA HBM parts: the engine has rows, not there */
	ck_assert_int_eq(conf("vllm", false, "llama-3.1-8b", "H100 SXM", 1), CONF_EXTRAPOLATED);
	/* llama.cpp's HBM rows ran on at most 4 GPUs: 8 is past them */
	ck_assert_int_eq(conf("llama.cpp", false, "llama-3.1-8b", "H100 SXM", 4), CONF_CALIBRATED);
	ck_assert_int_eq(conf("llama.cpp", false, "llama-3.1-8b", "H100 SXM", 8),
	                 CONF_EXTRAPOLATED);
	/* no fit row of SGLang's speed, nor of hf's training */
	ck_assert_int_eq(conf("sglang", false, "llama-3.1-8b", "H100 SXM", 1), CONF_UNCONFIRMED);
	ck_assert_int_eq(conf("hf", true, "llama-3.1-8b", "H100 SXM", 1), CONF_UNCONFIRMED);
	/* vLLM's MoE share is TensorRT-LLM's, borrowed: a MoE model on a
	 * calibrated card is still unconfirmed; TensorRT-LLM's own is not */
	ck_assert_int_eq(conf("vllm", false, "mixtral-8x7b", "RTX 4090", 2), CONF_UNCONFIRMED);
	ck_assert_int_eq(conf("tensorrt-llm", false, "mixtral-8x7b", "H100 SXM", 2),
	                 CONF_CALIBRATED);
	ck_assert(!confidence_marked(CONF_CALIBRATED));
	ck_assert(confidence_marked(CONF_EXTRAPOLATED) && confidence_marked(CONF_UNCONFIRMED));
	ck_assert_str_eq(confidence_name(CONF_EXTRAPOLATED), "extrapolated");
}
END_TEST

START_TEST(fit_marks_a_speed_with_a_tilde_and_says_so_in_json)
{
	const char *table[] = {"fit", "llama-3.1-8b", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	const char *h100 = strstr(out, "\nH100 SXM");
	const char *rtx = strstr(out, "\nRTX 4090");
	ck_assert_ptr_nonnull(h100);
	ck_assert_ptr_nonnull(rtx);
	ck_assert_msg(strchr(h100 + 1, '~') && strchr(h100 + 1, '~') < strchr(h100 + 1, '\n'), "%s",
	              out);
	ck_assert_msg(!memchr(rtx + 1, '~', (size_t)(strchr(rtx + 1, '\n') - rtx)), "%s", out);
	ck_assert_ptr_nonnull(strstr(out, CONFIDENCE_LEGEND));
	free(out);
	const char *json[] = {"fit", "llama-3.1-8b", "--gpu", "H100 SXM", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(json, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	const cJSON *c = cJSON_GetObjectItem(g, "confidence");
	ck_assert(cJSON_IsString(c));
	ck_assert_str_eq(c->valuestring, "extrapolated");
	cJSON_Delete(root);
	free(out);
	/* calibrated everywhere: no legend */
	const char *one[] = {"fit", "llama-3.1-8b", "--gpu", "RTX 4090", NULL};
	ck_assert_int_eq(test_run_planner(one, NULL, &out, NULL), 0);
	ck_assert_ptr_null(strstr(out, CONFIDENCE_LEGEND));
	free(out);
}
END_TEST

START_TEST(compare_routes_carry_their_confidence)
{
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--format", "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	/* research-deepseek runs DeepSeek-V3, a MoE model, under vLLM: its
	 * rented route is unconfirmed */
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *jobs = cJSON_GetObjectItem(root, "jobs"), *j;
	bool seen = false;
	cJSON_ArrayForEach(j, jobs)
	{
		const cJSON *name = cJSON_GetObjectItem(j, "name");
		if (!name || strcmp(name->valuestring, "research-deepseek"))
			continue;
		const cJSON *r;
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(j, "routes"))
		{
			if (strcmp(cJSON_GetObjectItem(r, "route")->valuestring, "rented"))
				continue;
			const cJSON *c = cJSON_GetObjectItem(r, "confidence");
			ck_assert(cJSON_IsString(c));
			ck_assert_str_eq(c->valuestring, "unconfirmed");
			seen = true;
		}
	}
	ck_assert(seen);
	cJSON_Delete(root);
	free(out);
	const char *table[] = {"compare", "jobs/monthly.yaml", NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, CONFIDENCE_LEGEND));
	ck_assert_ptr_nonnull(strstr(out, " ~"));
	free(out);
}
END_TEST

Suite *confidence_suite(void)
{
	Suite *s = suite_create("confidence");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(
	    tc, a_speed_is_calibrated_only_where_fit_rows_of_its_engine_gpu_class_and_scale_are);
	tcase_add_test(tc, fit_marks_a_speed_with_a_tilde_and_says_so_in_json);
	tcase_add_test(tc, compare_routes_carry_their_confidence);
	suite_add_tcase(s, tc);
	return s;
}
