/* check_offload.c — a model split between one GPU and host RAM
 * (planner/offload.c), and fit's --offload. */
#include <cJSON.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "offload.h"
#include "testutil.h"

/* qwen2.5-32b at q4_k_m, 4096 tokens: 20.3 GiB, on a 12 GiB RTX 3060. */
struct fixture {
	const struct engine *e;
	const struct model_spec *m;
	const struct precision_info *p;
	struct vram_need need;
	struct device d;
};

static struct fixture fixture(void)
{
	struct fixture f = {.e = engine_find("llama.cpp"),
	                    .m = refdata_model(test_ref(), "qwen2.5-32b"),
	                    .p = precision_find("q4_k_m"),
	                    .d = device_from_gpu(refdata_gpu(test_ref(), "3060"), 1)};
	vram_estimate(f.e, f.m, f.p, TASK_INFERENCE, 4096, 1, &f.need);
	return f;
}

START_TEST(auto_puts_the_most_layers_that_fit_on_the_gpu_and_the_rest_in_ram)
{
	struct fixture f = fixture();
	struct offload_plan plan;
	char why[200] = "";
	ck_assert(offload_place(f.e, f.m, &f.need, &f.d, 32, -1, &plan, why, sizeof why));
	ck_assert_int_eq(plan.layers, f.m->layers);
	ck_assert(plan.gpu_layers > 0 && plan.gpu_layers < plan.layers);
	ck_assert(plan.gpu_gib <= plan.gpu_usable_gib);
	/* One more layer would not fit on the GPU. */
	struct offload_plan more;
	ck_assert(!offload_place(f.e, f.m, &f.need, &f.d, 32, plan.gpu_layers + 1, &more, why,
	                         sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "layers on the GPU need"));
	/* The weights and cache are all somewhere. */
	ck_assert_double_eq_tol(plan.gpu_gib - f.need.overhead_gib - f.need.activation_gib +
	                            plan.ram_gib,
	                        f.need.weights_gib + f.need.kv_gib, 1e-9);
	/* Too little RAM for the rest: no split runs. */
	ck_assert(!offload_place(f.e, f.m, &f.need, &f.d, 4, -1, &plan, why, sizeof why));
}
END_TEST

START_TEST(the_split_decodes_between_the_gpus_speed_and_the_rams)
{
	struct fixture f = fixture();
	struct offload_plan plan;
	char why[200];
	ck_assert(offload_place(f.e, f.m, &f.need, &f.d, 32, -1, &plan, why, sizeof why));
	struct speed_job job = {.task = TASK_INFERENCE, .context = 4096, .batch = 1};
	struct speed_est split, gpu, half;
	offload_speed(f.e, f.m, f.p, &f.d, &f.need, &job, OFFLOAD_HOST_GBS, &plan, &split);
	speed_estimate_device(f.e, f.m, f.p, &f.d, &job, &gpu);
	ck_assert(split.decode_tps > 0 && split.decode_tps < gpu.decode_tps);
	/* Half the host bandwidth: slower. */
	offload_speed(f.e, f.m, f.p, &f.d, &f.need, &job, OFFLOAD_HOST_GBS / 2, &plan, &half);
	ck_assert(half.decode_tps < split.decode_tps);
	/* Prefill pays the upload of the RAM's layers. */
	ck_assert(split.prefill_tps < gpu.prefill_tps);
}
END_TEST

START_TEST(an_engine_with_its_own_offload_is_refused_by_name)
{
	struct fixture f = fixture();
	struct offload_plan plan;
	char why[200];
	ck_assert(!offload_place(engine_find("vllm"), f.m, &f.need, &f.d, 32, -1, &plan, why,
	                         sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "--cpu-offload-gb"));
}
END_TEST

START_TEST(the_3060_with_offload_auto_fits_with_a_split_and_a_speed)
{
	const char *argv[] = {"fit",      "qwen2.5-32b", "--precision", "q4_k_m",    "--gpu",
	                      "3060",     "--offload",   "auto",        "--ram-gib", "32",
	                      "--format", "json",        NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	free(out);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	const cJSON *o = cJSON_GetObjectItem(g, "offload");
	ck_assert_int_eq(cJSON_GetObjectItem(o, "layers")->valueint, 64);
	ck_assert(cJSON_GetObjectItem(o, "gpu_layers")->valueint > 0);
	ck_assert(cJSON_GetObjectItem(o, "ram_gib")->valuedouble > 0);
	ck_assert(cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble > 1);
	cJSON_Delete(root);
	const char *noram[] = {"fit", "qwen2.5-32b", "--gpu", "3060", "--offload", "auto", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(noram, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--offload needs --ram-gib"));
	free(err);
}
END_TEST

Suite *offload_suite(void)
{
	Suite *s = suite_create("offload");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, auto_puts_the_most_layers_that_fit_on_the_gpu_and_the_rest_in_ram);
	tcase_add_test(tc, the_split_decodes_between_the_gpus_speed_and_the_rams);
	tcase_add_test(tc, an_engine_with_its_own_offload_is_refused_by_name);
	tcase_add_test(tc, the_3060_with_offload_auto_fits_with_a_split_and_a_speed);
	suite_add_tcase(s, tc);
	return s;
}
