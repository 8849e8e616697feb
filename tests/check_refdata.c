/* check_refdata.c — the compiled-in reference data: every feed's spelling
 * of a GPU reaches one canonical part, every figure carries its source,
 * parameter counts agree with the architectures, and the snapshot only
 * names parts and models the tables know. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "refdata.h"
#include "testutil.h"
#include "util.h"

START_TEST(every_feeds_spelling_of_a_gpu_reaches_one_canonical_part)
{
	static const char *const cases[][2] = {
		{"NVIDIA H100 80GB HBM3", "H100 SXM"},   /* RunPod id */
		{"H100 SXM", "H100 SXM"},                /* Vast gpu_name */
		{"h100", "H100 SXM"},                    /* bare, as people write it */
		{"NVIDIA GeForce RTX 4090", "RTX 4090"}, /* RunPod id */
		{"rtx-4090", "RTX 4090"},
		{"NVIDIA A100 80GB PCIe", "A100 80GB"},
		{"A100 (40 GB SXM4)", "A100 40GB"},      /* Lambda description */
		{"Nvidia Tesla T4", "T4"},               /* GCP description */
		{"Tesla V100", "V100 16GB"},
		{"NVIDIA H100 NVL", "H100 NVL"},
		{"AMD Instinct MI300X OAM", "MI300X"},
		{"RTX A6000", "RTX A6000"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct gpu_spec *g = refdata_gpu(test_ref(), cases[i][0]);
		ck_assert_msg(g != NULL, "'%s' matched nothing", cases[i][0]);
		ck_assert_msg(!strcmp(g->name, cases[i][1]), "'%s' -> %s, want %s", cases[i][0],
			      g->name, cases[i][1]);
	}
}
END_TEST

START_TEST(an_unknown_gpu_is_reported_never_guessed)
{
	ck_assert_ptr_null(refdata_gpu(test_ref(), "RTX 9090"));
	ck_assert_ptr_null(refdata_gpu(test_ref(), "A100 48GB"));
	ck_assert_ptr_null(refdata_gpu(test_ref(), ""));
	ck_assert_str_eq(refdata_gpu_suggest(test_ref(), "RTX 4900"), "RTX 4090");
}
END_TEST

START_TEST(no_alias_belongs_to_two_parts)
{
	const struct refdata *ref = test_ref();
	for (size_t i = 0; i < ref->n_gpus; i++)
		for (size_t a = 0; a < ref->gpus[i].n_aliases; a++) {
			const struct gpu_spec *g = refdata_gpu(ref, ref->gpus[i].aliases[a]);
			ck_assert_msg(g == &ref->gpus[i], "alias '%s' of %s resolves to %s",
				      ref->gpus[i].aliases[a], ref->gpus[i].name,
				      g ? g->name : "nothing");
		}
}
END_TEST

START_TEST(the_required_gpus_are_present_with_sourced_figures)
{
	static const char *const required[] = {
		"RTX 3090", "RTX 4090", "RTX 5090",  "RTX A6000", "L4",       "L40S",
		"A10G",     "T4",       "V100 16GB", "V100 32GB", "A100 40GB", "A100 80GB",
		"H100 PCIe", "H100 SXM", "H100 NVL", "H200",      "B200",      "MI300X"};
	for (size_t i = 0; i < sizeof required / sizeof *required; i++) {
		const struct gpu_spec *g = refdata_gpu(test_ref(), required[i]);
		ck_assert_msg(g && !strcmp(g->name, required[i]), "missing %s", required[i]);
		ck_assert(g->vram_gib > 10 && g->bandwidth_gbs > 200 && g->fp16_tflops > 10);
		ck_assert(g->watts > 50);
		ck_assert_msg(g->source && strlen(g->source) > 10, "%s has no source", g->name);
		if (g->price_usd > 0)
			ck_assert_msg(g->price_source && *g->price_source, "%s price unsourced",
				      g->name);
	}
}
END_TEST

START_TEST(published_parameter_counts_agree_with_the_architecture)
{
	const struct refdata *ref = test_ref();
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		ck_assert_msg(m->source && *m->source, "%s has no source", m->id);
		ck_assert(m->head_dim > 0 && m->kv_heads > 0 && m->layers > 0);
		if (m->kv_lora_rank > 0)
			continue; /* MLA attention is not in the simple count */
		double active, total = model_param_count(m, &active);
		ck_assert_msg(fabs(total / m->params_total - 1) < 0.06,
			      "%s: architecture gives %.2fB, published %.2fB", m->id, total / 1e9,
			      m->params_total / 1e9);
		ck_assert_msg(fabs(active / m->params_active - 1) < 0.08,
			      "%s: active %.2fB, published %.2fB", m->id, active / 1e9,
			      m->params_active / 1e9);
	}
}
END_TEST

START_TEST(gemma_2_keeps_its_own_head_dim)
{
	const struct model_spec *m = refdata_model(test_ref(), "gemma-2-9b");
	ck_assert_ptr_nonnull(m);
	ck_assert_int_eq(m->head_dim, 256);
	ck_assert_int_ne(m->head_dim, m->hidden / m->heads);
}
END_TEST

START_TEST(the_snapshot_names_only_known_gpus_and_every_row_has_a_source)
{
	cJSON *snap = cJSON_Parse(planner_snapshot_json);
	ck_assert_ptr_nonnull(snap);
	const cJSON *o;
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(snap, "offers"))
	{
		const char *gpu = cJSON_GetObjectItem(o, "gpu")->valuestring;
		const struct gpu_spec *g = refdata_gpu(test_ref(), gpu);
		ck_assert_msg(g && !strcmp(g->name, gpu), "snapshot GPU '%s' is not canonical", gpu);
		ck_assert(strlen(cJSON_GetObjectItem(o, "source")->valuestring) > 5);
		ck_assert(cJSON_GetObjectItem(o, "price_per_hour")->valuedouble > 0);
	}
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(snap, "api_prices"))
	{
		ck_assert(strlen(cJSON_GetObjectItem(o, "source")->valuestring) > 5);
		ck_assert_ptr_nonnull(strchr(cJSON_GetObjectItem(o, "model")->valuestring, '/'));
	}
	cJSON_Delete(snap);
}
END_TEST

START_TEST(every_reference_models_api_equivalent_has_a_snapshot_price)
{
	cJSON *snap = cJSON_Parse(planner_snapshot_json);
	const struct refdata *ref = test_ref();
	for (size_t i = 0; i < ref->n_models; i++)
		for (size_t k = 0; k < ref->models[i].n_api_models; k++) {
			bool found = false;
			const cJSON *a;
			cJSON_ArrayForEach(a, cJSON_GetObjectItem(snap, "api_prices"))
			{
				found |= !strcmp(cJSON_GetObjectItem(a, "model")->valuestring,
						 ref->models[i].api_models[k]);
			}
			ck_assert_msg(found, "%s has no price", ref->models[i].api_models[k]);
		}
	cJSON_Delete(snap);
}
END_TEST

START_TEST(a_hugging_face_config_json_is_read_and_its_parameters_derived)
{
	struct model_spec m;
	char *err = NULL;
	ck_assert_msg(model_from_config("tests/fixtures/jobs/qwen2.5-0.5b/config.json", &m, &err) ==
			      PLANNER_OK,
		      "%s", err);
	ck_assert_int_eq(m.layers, 24);
	ck_assert_int_eq(m.kv_heads, 2);
	ck_assert_int_eq(m.head_dim, 64);
	/* Qwen2.5-0.5B has 0.49B parameters (model card); q/k/v biases and
	 * norms are the small remainder. */
	ck_assert_msg(fabs(m.params_total / 0.494e9 - 1) < 0.03, "%.3fB", m.params_total / 1e9);
	model_spec_clear(&m);
	ck_assert_int_eq(model_from_config("tests/fixtures/jobs/full.yaml", &m, &err),
			 PLANNER_EINPUT);
	free(err);
}
END_TEST

/* Found reviewing what the job-spec fuzzer could reach: a spec's model
 * path is read as given, and /dev/zero would be read until memory ran out. */
START_TEST(a_config_path_that_is_not_a_regular_file_is_refused_without_reading)
{
	struct model_spec m;
	char *err = NULL;
	ck_assert_int_eq(model_from_config("/dev/zero", &m, &err), PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	ck_assert_int_eq(model_from_config("tests/fixtures", &m, &err), PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "not a regular file"), "%s", err);
	free(err);
}
END_TEST

Suite *refdata_suite(void)
{
	Suite *s = suite_create("refdata");
	TCase *tc = tcase_create("reference");
	tcase_add_test(tc, every_feeds_spelling_of_a_gpu_reaches_one_canonical_part);
	tcase_add_test(tc, an_unknown_gpu_is_reported_never_guessed);
	tcase_add_test(tc, no_alias_belongs_to_two_parts);
	tcase_add_test(tc, the_required_gpus_are_present_with_sourced_figures);
	tcase_add_test(tc, published_parameter_counts_agree_with_the_architecture);
	tcase_add_test(tc, gemma_2_keeps_its_own_head_dim);
	tcase_add_test(tc, the_snapshot_names_only_known_gpus_and_every_row_has_a_source);
	tcase_add_test(tc, every_reference_models_api_equivalent_has_a_snapshot_price);
	tcase_add_test(tc, a_hugging_face_config_json_is_read_and_its_parameters_derived);
	tcase_add_test(tc, a_config_path_that_is_not_a_regular_file_is_refused_without_reading);
	suite_add_tcase(s, tc);
	return s;
}
