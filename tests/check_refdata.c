/* check_refdata.c — the compiled-in reference data: every feed's spelling
 * of a GPU reaches one canonical part, every figure carries its source,
 * parameter counts agree with the architectures, and the snapshot only
 * names parts and models the tables know. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "refdata.h"
#include "testutil.h"
#include "util.h"
#include "vram.h"

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

START_TEST(every_moe_models_published_counts_give_its_expert_size)
{
	/* speed.c reads one routed expert's size (over the MoE layers) as
	 * (total - active) / (E - k) of the published counts: it must be the
	 * architecture's, MLA models (DeepSeek, Kimi) included, whose
	 * attention the simple count leaves out of both */
	const struct refdata *ref = test_ref();
	int moe = 0;
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *m = &ref->models[i];
		if (m->experts <= 0)
			continue;
		moe++;
		ck_assert_msg(m->experts_active > 0 && m->experts_active < m->experts, "%s", m->id);
		double active, total = model_param_count(m, &active);
		double k = m->experts_active, e = m->experts;
		double published = (m->params_total - m->params_active) / (e - k);
		double arch = (total - active) / (e - k);
		ck_assert_msg(fabs(published / arch - 1) < 0.02,
		              "%s: one expert %.3fB published, %.3fB by architecture", m->id,
		              published / 1e9, arch / 1e9);
	}
	ck_assert_int_ge(moe, 10);
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

/* A Hugging Face repo id given as a model (issue 13) says where its
 * config.json is; a missing .json path says only that it is missing. */
START_TEST(a_repo_id_that_is_no_file_says_where_its_config_json_is)
{
	struct model_spec m;
	char *err = NULL;
	ck_assert_int_eq(model_from_config("Qwen/Qwen3-32B", &m, &err), PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "https://huggingface.co/Qwen/Qwen3-32B/resolve/main/config.json"),
		      "%s", err);
	ck_assert_int_eq(model_from_config("tests/no-such.json", &m, &err), PLANNER_EINPUT);
	ck_assert_msg(!strstr(err, "huggingface.co"), "%s", err);
	free(err);
}
END_TEST

/* Issue 12: configs whose derived figures were negative, infinite or
 * contradictory were accepted (more active than total parameters, a head
 * width of 0); each is refused naming the field to check. */
START_TEST(a_config_whose_derived_figures_are_out_of_range_is_refused_naming_the_field)
{
	static const struct {
		const char *json, *field;
	} cases[] = {
	    {"{\"model_type\":\"nemotron_h\",\"num_hidden_layers\":4,\"hidden_size\":4096,"
	     "\"num_attention_heads\":32,\"vocab_size\":32000,\"intermediate_size\":11008,"
	     "\"n_routed_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":2048,"
	     "\"first_k_dense_replace\":3,\"hybrid_override_pattern\":\"M-M*\"}",
	     "first_k_dense_replace"},
	    {"{\"num_hidden_layers\":4,\"hidden_size\":64,\"num_attention_heads\":128,"
	     "\"vocab_size\":32000,\"intermediate_size\":11008}",
	     "num_attention_heads"},
	    {"{\"num_hidden_layers\":4,\"hidden_size\":4096,\"num_attention_heads\":32,"
	     "\"vocab_size\":32000,\"intermediate_size\":11008,\"first_k_dense_replace\":9}",
	     "first_k_dense_replace"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct model_spec m;
		char *err = NULL;
		int rc = model_from_config_text("x.json", cases[i].json, strlen(cases[i].json), &m,
						&err);
		ck_assert_msg(rc == PLANNER_EINPUT, "case %zu accepted: %g params, %g active", i,
			      rc ? 0.0 : m.params_total, rc ? 0.0 : m.params_active);
		ck_assert_msg(strstr(err, cases[i].field), "case %zu: %s", i, err);
		free(err);
	}
}
END_TEST

START_TEST(every_mac_and_cpu_has_its_memory_sizes_and_sources)
{
	const struct refdata *ref = test_ref();
	size_t n = 0;
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (g->kind == DEVICE_GPU)
			continue;
		n++;
		ck_assert_msg(g->source && strstr(g->source, "http"), "%s: no source", g->name);
		ck_assert_msg(g->bandwidth_gbs > 20 && g->fp16_tflops > 0.1 && g->threads > 0 && g->isa,
		              "%s has an implausible figure", g->name);
		for (size_t k = 1; k < g->n_memory_options; k++)
			ck_assert(g->memory_options[k] > g->memory_options[k - 1]);
		if (g->kind == DEVICE_UNIFIED)
			ck_assert_msg(g->n_memory_options > 0 && g->vram_gib == g->memory_options[0],
			              "%s: vram_gib is not its smallest size", g->name);
	}
	ck_assert_uint_ge(n, 30);
}
END_TEST

START_TEST(every_gpu_names_its_memory_type)
{
	static const char *const types[] = {"GDDR6", "GDDR6X", "GDDR7", "HBM2", "HBM2e",
					    "HBM3", "HBM3e", NULL};
	const struct refdata *ref = test_ref();
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		bool known = false;
		if (g->kind != DEVICE_GPU)
			continue; /* every_mac_and_cpu_has_its_memory_sizes_and_sources */
		for (size_t k = 0; g->memory_type && types[k]; k++)
			known |= !strcmp(g->memory_type, types[k]);
		ck_assert_msg(known, "%s: memory_type '%s'", g->name,
			      g->memory_type ? g->memory_type : "(none)");
		ck_assert_msg(g->vram_gib > 4 && g->bandwidth_gbs > 100 && g->fp16_tflops > 5 &&
				      g->watts > 30,
			      "%s has an implausible figure", g->name);
		ck_assert_msg(g->fp8_tflops == 0 || g->fp8_tflops >= g->fp16_tflops,
			      "%s: fp8 below fp16", g->name);
	}
}
END_TEST

/* Issue 25: NVFP4 and MXFP4 run at the FP4 tensor rate where a card has
 * one; the table carries it dense (NVIDIA quotes it with sparsity: HGX
 * B200 18 PFLOPS a GPU, GB200 20, the RTX PRO 6000's 4,000 and the RTX
 * 5090's 3,352 AI TOPS), and no part before Blackwell has one. */
START_TEST(blackwell_parts_carry_their_dense_fp4_rate)
{
	const struct refdata *r = test_ref();
	ck_assert_double_eq_tol(refdata_gpu(r, "B200")->fp4_tflops, 9000, 0.5);
	ck_assert_double_eq_tol(refdata_gpu(r, "GB200")->fp4_tflops, 10000, 0.5);
	ck_assert_double_eq_tol(refdata_gpu(r, "RTX PRO 6000")->fp4_tflops, 2000, 0.5);
	ck_assert_double_eq_tol(refdata_gpu(r, "RTX 5090")->fp4_tflops, 1676, 0.5);
	ck_assert_double_eq(refdata_gpu(r, "H100 SXM")->fp4_tflops, 0);
	ck_assert_double_eq(refdata_gpu(r, "RTX 4090")->fp4_tflops, 0);
	for (size_t i = 0; i < r->n_gpus; i++) {
		const struct gpu_spec *g = &r->gpus[i];
		ck_assert_msg(g->fp4_tflops == 0 || g->fp4_tflops >= g->fp8_tflops,
		              "%s: fp4 below fp8", g->name);
	}
	/* the reference gpt-oss-120b at mxfp4: experts at 4.25 bits, the 2.1 B
	 * of attention, router and embeddings in bf16, as it ships */
	const struct model_spec *m = refdata_model(r, "gpt-oss-120b");
	ck_assert_ptr_nonnull(m);
	double keep = vram_params_16bit(m, precision_find("mxfp4"));
	ck_assert_double_gt(keep, 2.0e9);
	ck_assert_double_lt(keep, 2.3e9);
}
END_TEST

/* Issue 10: GeForce cards carried their FP16-accumulate tensor rate (RTX
 * 4090: 330) while PyTorch BF16 training runs at the FP32-accumulate rate
 * (165), and tests/check_speed.c's and check_vram.c's RTX 4090 used 165.2:
 * the tests held constants the binary did not ship. */
START_TEST(geforce_cards_carry_the_fp32_accumulate_tensor_rate)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "RTX 4090");
	ck_assert_ptr_nonnull(g);
	ck_assert_double_eq_tol(g->fp16_tflops, 165.2, 0.05);
	ck_assert_double_eq_tol(g->fp8_tflops, 330.3, 0.05);
	ck_assert_double_eq_tol(refdata_gpu(test_ref(), "RTX 3090")->fp16_tflops, 71, 0.05);
	ck_assert_double_eq_tol(refdata_gpu(test_ref(), "RTX 5090")->fp16_tflops, 209.5, 0.05);
	/* a professional Ada card runs FP32 accumulate at full rate */
	ck_assert_double_eq_tol(refdata_gpu(test_ref(), "RTX 6000 Ada")->fp16_tflops, 364.2, 0.05);
}
END_TEST

START_TEST(the_cards_people_own_and_rent_are_known)
{
	static const char *const cases[][2] = {
		{"RTX 3060", "RTX 3060 12GB"},   {"GeForce RTX 3060 12GB", "RTX 3060 12GB"},
		{"RTX 3080", "RTX 3080"},        {"RTX 4070 Ti Super", "RTX 4070 Ti SUPER"},
		{"RTX 5080", "RTX 5080"},        {"A30", "A30"},
		{"NVIDIA H200 NVL", "H200 NVL"}, {"RTX PRO 6000 Blackwell", "RTX PRO 6000"},
		{"AMD Instinct MI250X", "MI250X"}, {"MI325X", "MI325X"},
		{"AMD Radeon RX 7900 XTX", "RX 7900 XTX"}, {"RTX A4500", "RTX A4500"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const struct gpu_spec *g = refdata_gpu(test_ref(), cases[i][0]);
		ck_assert_msg(g && !strcmp(g->name, cases[i][1]), "'%s' -> %s, want %s",
			      cases[i][0], g ? g->name : "nothing", cases[i][1]);
		ck_assert_msg(g->source && strstr(g->source, "2026"), "%s: source undated",
			      g->name);
	}
}
END_TEST

START_TEST(planner_gpus_and_models_list_every_row_in_json_and_csv)
{
	const struct refdata *ref = test_ref();
	const char *gj[] = {"gpus", "--format", "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(gj, NULL, &out, NULL), 0);
	cJSON *arr = cJSON_Parse(out);
	ck_assert_int_eq(cJSON_GetArraySize(arr), (int)ref->n_gpus);
	bool seen = false;
	const cJSON *g;
	cJSON_ArrayForEach(g, arr)
	{
		if (!strcmp(cJSON_GetObjectItem(g, "name")->valuestring, "RTX 3060 12GB")) {
			seen = true;
			ck_assert_str_eq(cJSON_GetObjectItem(g, "memory_type")->valuestring, "GDDR6");
			ck_assert(strlen(cJSON_GetObjectItem(g, "source")->valuestring) > 20);
		}
	}
	ck_assert(seen);
	cJSON_Delete(arr);
	free(out);
	const char *mc[] = {"models", "--format", "csv", NULL};
	ck_assert_int_eq(test_run_planner(mc, NULL, &out, NULL), 0);
	size_t lines = 0;
	for (const char *p = out; *p; p++)
		lines += *p == '\n';
	ck_assert_int_eq(lines, ref->n_models + 1); /* header, then one row each */
	ck_assert(strncmp(out, "id,name,params_total", 20) == 0);
	free(out);
	const char *mt[] = {"models", NULL};
	ck_assert_int_eq(test_run_planner(mt, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "deepseek-v3"));
	free(out);
}
END_TEST

/* Issue 10: an RTX 3060 owner was stopped at "unknown GPU" with no way to
 * describe the card. */
START_TEST(a_card_described_under_gpus_can_be_owned_and_bought)
{
	static const char spec[] =
		"version: 1\n"
		"gpus:\n"
		"  - {name: My RTX 3060, vram_gib: 12, bandwidth_gbs: 360, fp16_tflops: 25.6,\n"
		"     watts: 170, price: 329, memory_type: GDDR6}\n"
		"  - {name: My Blackwell, vram_gib: 32, bandwidth_gbs: 1792, fp16_tflops: 209.5,\n"
		"     fp8_tflops: 419, fp4_tflops: 1676, watts: 575}\n"
		"owned: [{gpu: my-rtx-3060, count: 2}]\n"
		"buy: [{gpu: My RTX 3060}]\n"
		"jobs: [{name: a, model: qwen3-8b, hours_per_month: 10}]\n";
	struct jobspec *sp = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse("s.yaml", spec, strlen(spec), test_ref(), &sp, &err) ==
			      PLANNER_OK,
		      "%s", err);
	ck_assert_uint_eq(sp->n_gpus, 2);
	ck_assert_double_eq(sp->gpus[0].spec.fp4_tflops, 0); /* no FP4 unless given */
	ck_assert_double_eq_tol(sp->gpus[1].spec.fp4_tflops, 1676, 1e-9);
	ck_assert_ptr_eq(sp->owned[0].gpu, &sp->gpus[0].spec);
	ck_assert_ptr_eq(sp->buy[0].gpu, &sp->gpus[0].spec);
	ck_assert_double_eq_tol(sp->owned[0].watts, 170, 1e-9); /* the card's own figure */
	ck_assert_double_eq_tol(sp->buy[0].price, 329, 1e-9);
	ck_assert_str_eq(sp->gpus[0].spec.vendor, "nvidia");
	ck_assert_str_eq(sp->gpus[0].spec.memory_type, "GDDR6");
	jobspec_free(sp);
	static const struct {
		const char *gpus, *says;
	} bad[] = {
		{"[{name: RTX 4090, vram_gib: 24, bandwidth_gbs: 1008, fp16_tflops: 165, watts: 450}]",
		 "already knows"},
		{"[{name: X, vram_gib: 12, bandwidth_gbs: 360, fp16_tflops: 25, watts: 170},"
		 " {name: x, vram_gib: 8, bandwidth_gbs: 300, fp16_tflops: 20, watts: 100}]",
		 "repeats"},
		{"[{name: X, vram_gib: 12, fp16_tflops: 25, watts: 170}]", "bandwidth_gbs"},
		{"[{name: X, vram_gib: 0, bandwidth_gbs: 360, fp16_tflops: 25, watts: 170}]",
		 "vram_gib"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *text = xasprintf("version: 1\ngpus: %s\n"
				       "jobs: [{name: a, model: qwen3-8b, hours_per_month: 10}]\n",
				       bad[i].gpus);
		ck_assert_int_eq(jobspec_parse("s.yaml", text, strlen(text), test_ref(), &sp, &err),
				 PLANNER_EINPUT);
		ck_assert_msg(strstr(err, bad[i].says), "%s", err);
		free(err);
		err = NULL;
		free(text);
	}
	/* an unknown card's message says how to describe it */
	static const char unknown[] = "version: 1\nowned: [{gpu: Quadro X9}]\n"
				      "jobs: [{name: a, model: qwen3-8b, hours_per_month: 10}]\n";
	ck_assert_int_eq(jobspec_parse("s.yaml", unknown, strlen(unknown), test_ref(), &sp, &err),
			 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "gpus:") || strstr(err, "did you mean"), "%s", err);
	free(err);
}
END_TEST

static struct model_spec read_fixture(const char *file)
{
	struct model_spec m;
	char *err = NULL, *path = xasprintf("tests/fixtures/configs/%s", file);
	ck_assert_msg(model_from_config(path, &m, &err) == PLANNER_OK, "%s: %s", file, err);
	free(path);
	return m;
}

static struct model_spec read_text(const char *json)
{
	struct model_spec m;
	char *err = NULL;
	ck_assert_msg(model_from_config_text("inline", json, strlen(json), &m, &err) == PLANNER_OK,
		      "%s", err);
	return m;
}

/* Real config.json files (tests/fixtures/configs/PROVENANCE.md) against the
 * parameter counts their publishers give. */
START_TEST(real_config_files_give_their_published_parameter_counts)
{
	static const struct {
		const char *file;
		double total, active; /* published, billions */
	} cases[] = {
		/* Qwen3 model cards: 8.2B; 30.5B total, 3.3B activated */
		{"qwen3-8b.json", 8.2, 8.2},
		{"qwen3-30b-a3b.json", 30.5, 3.3},
		/* OpenAI gpt-oss model card: 20.9B total (3.6B active without
		 * the input embedding; planner's active count keeps both
		 * embedding matrices, 4.2B) */
		{"gpt-oss-20b.json", 20.9, 4.2},
		/* TII model cards: Falcon-40B 40B, Falcon-7B 7B (transformers
		 * counts 41.8B and 6.92B with biases and norms) */
		{"falcon-40b.json", 41.8, 41.8},
		{"falcon-7b-instruct.json", 6.92, 6.92},
		/* THUDM chatglm3-6b: 6.24B */
		{"chatglm3-6b.json", 6.24, 6.24},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct model_spec m = read_fixture(cases[i].file);
		ck_assert_msg(fabs(m.params_total / 1e9 / cases[i].total - 1) < 0.04,
			      "%s: %.2fB, published %.2fB", cases[i].file, m.params_total / 1e9,
			      cases[i].total);
		ck_assert_msg(fabs(m.params_active / 1e9 / cases[i].active - 1) < 0.06,
			      "%s: active %.2fB, published %.2fB", cases[i].file,
			      m.params_active / 1e9, cases[i].active);
		model_spec_clear(&m);
	}
}
END_TEST

START_TEST(legacy_key_names_of_falcon_and_glm_are_read)
{
	struct model_spec m = read_fixture("falcon-7b-instruct.json");
	ck_assert_int_eq(m.layers, 32);   /* n_layer */
	ck_assert_int_eq(m.hidden, 4544); /* hidden_size */
	ck_assert_int_eq(m.heads, 71);    /* n_head */
	ck_assert_int_eq(m.kv_heads, 1);  /* multi_query: true */
	ck_assert_int_eq(m.head_dim, 64);
	ck_assert_int_eq(m.mlp_matrices, 2);        /* dense_h_to_4h, dense_4h_to_h */
	ck_assert_int_eq(m.intermediate, 4 * 4544); /* no size in the file: 4 * hidden */
	ck_assert(m.tied_embeddings);               /* RWConfig leaves it to the default */
	model_spec_clear(&m);
	m = read_fixture("falcon-40b.json");
	ck_assert_int_eq(m.kv_heads, 8); /* n_head_kv */
	model_spec_clear(&m);
	m = read_fixture("chatglm3-6b.json");
	ck_assert_int_eq(m.layers, 28);      /* num_layers */
	ck_assert_int_eq(m.kv_heads, 2);     /* multi_query_group_num */
	ck_assert_int_eq(m.head_dim, 128);   /* kv_channels */
	ck_assert_int_eq(m.intermediate, 13696); /* ffn_hidden_size */
	ck_assert_int_eq(m.max_context, 8192);   /* seq_length */
	ck_assert_int_eq(m.mlp_matrices, 3);
	model_spec_clear(&m);
	/* MPT-7B's keys (d_model, n_heads, n_layers, expansion_ratio, max_seq_len),
	 * as in mosaicml/mpt-7b config.json */
	m = read_text("{\"model_type\": \"mpt\", \"d_model\": 4096, \"n_heads\": 32, "
		      "\"n_layers\": 32, \"expansion_ratio\": 4, \"max_seq_len\": 2048, "
		      "\"vocab_size\": 50432}");
	ck_assert_int_eq(m.intermediate, 16384);
	ck_assert_int_eq(m.max_context, 2048);
	ck_assert_msg(fabs(m.params_total / 6.7e9 - 1) < 0.03, "%.2fB", m.params_total / 1e9);
	model_spec_clear(&m);
	/* GPT-BigCode (StarCoder): n_embd, n_head, n_layer, n_positions, multi_query */
	m = read_text("{\"model_type\": \"gpt_bigcode\", \"n_embd\": 6144, \"n_head\": 48, "
		      "\"n_layer\": 40, \"n_inner\": 24576, \"n_positions\": 8192, "
		      "\"multi_query\": true, \"vocab_size\": 49152}");
	ck_assert_int_eq(m.kv_heads, 1);
	ck_assert_msg(fabs(m.params_total / 15.5e9 - 1) < 0.03, "%.2fB", m.params_total / 1e9);
	model_spec_clear(&m);
}
END_TEST

START_TEST(the_text_model_under_text_config_is_read)
{
	struct model_spec m = read_fixture("llama4-maverick-2layer.json");
	ck_assert_int_eq(m.layers, 2);
	ck_assert_int_eq(m.hidden, 5120); /* not the vision tower's 1408 */
	ck_assert_int_eq(m.experts, 128);
	ck_assert_int_eq(m.experts_active, 1);
	ck_assert_int_eq(m.first_dense, 1);    /* interleave_moe_layer_step 2 */
	ck_assert_int_eq(m.shared_experts, 1); /* Llama 4's shared expert */
	ck_assert_int_eq(m.dense_intermediate, 16384);
	ck_assert_int_eq(m.sliding_window, 8192); /* attention_chunk_size */
	ck_assert_int_eq(m.sliding_layers, 1);    /* no_rope_layer_interval 2 */
	model_spec_clear(&m);
	/* InternVL-style llm_config, with the vision tower beside it */
	m = read_text("{\"llm_config\": {\"hidden_size\": 4096, \"num_hidden_layers\": 32, "
		      "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, "
		      "\"intermediate_size\": 14336, \"vocab_size\": 92553}, "
		      "\"vision_config\": {\"hidden_size\": 1024, \"num_hidden_layers\": 24}}");
	ck_assert_int_eq(m.hidden, 4096);
	ck_assert_int_eq(m.kv_heads, 8);
	model_spec_clear(&m);
}
END_TEST

START_TEST(sliding_window_layers_are_counted)
{
	struct model_spec m = read_fixture("gpt-oss-20b.json");
	ck_assert_int_eq(m.sliding_window, 128);
	ck_assert_int_eq(m.sliding_layers, 12); /* layer_types: every other layer */
	ck_assert_int_eq(m.kv_layers, 0);       /* every layer keeps a cache */
	model_spec_clear(&m);
	/* Gemma 3 27B's text_config: 62 layers, sliding_window 1024, every 6th
	 * layer global (google/gemma-3-27b-it config.json) */
	m = read_text("{\"model_type\": \"gemma3\", \"text_config\": {\"head_dim\": 128, "
		      "\"hidden_size\": 5376, \"intermediate_size\": 21504, \"model_type\": "
		      "\"gemma3_text\", \"num_attention_heads\": 32, \"num_hidden_layers\": 62, "
		      "\"num_key_value_heads\": 16, \"sliding_window\": 1024, "
		      "\"sliding_window_pattern\": 6, \"vocab_size\": 262208}}");
	ck_assert_int_eq(m.sliding_layers, 52);
	ck_assert_int_eq(m.sliding_window, 1024);
	ck_assert(m.tied_embeddings); /* Gemma3TextConfig's default */
	model_spec_clear(&m);
	/* Qwen3 and Qwen2.5 carry sliding_window with use_sliding_window false */
	m = read_fixture("qwen3-8b.json");
	ck_assert_int_eq(m.sliding_layers, 0);
	model_spec_clear(&m);
	char *err = NULL;
	ck_assert(model_from_config("tests/fixtures/jobs/qwen2.5-0.5b/config.json", &m, &err) ==
		  PLANNER_OK);
	ck_assert_int_eq(m.sliding_layers, 0);
	model_spec_clear(&m);
}
END_TEST

START_TEST(hybrid_ssm_layers_hold_no_kv_cache)
{
	/* Jamba v0.1 (JambaConfig defaults, ai21labs/Jamba-v0.1 config.json):
	 * one attention layer in 8, MoE every other layer */
	struct model_spec m = read_text(
		"{\"model_type\": \"jamba\", \"attn_layer_offset\": 4, \"attn_layer_period\": 8, "
		"\"expert_layer_offset\": 1, \"expert_layer_period\": 2, \"hidden_size\": 4096, "
		"\"intermediate_size\": 14336, \"mamba_expand\": 2, \"num_attention_heads\": 32, "
		"\"num_experts\": 16, \"num_experts_per_tok\": 2, \"num_hidden_layers\": 32, "
		"\"num_key_value_heads\": 8, \"vocab_size\": 65536}");
	ck_assert_int_eq(m.kv_layers, 4);
	ck_assert_int_eq(m.ssm_layers, 28);
	ck_assert_int_eq(m.first_dense, 16);
	/* 52B total, 12B active (AI21 Jamba announcement) */
	ck_assert_msg(fabs(m.params_total / 51.6e9 - 1) < 0.06, "%.2fB", m.params_total / 1e9);
	ck_assert_msg(fabs(m.params_active / 12e9 - 1) < 0.08, "%.2fB", m.params_active / 1e9);
	model_spec_clear(&m);
	/* Nemotron-H style: one letter per layer */
	m = read_text("{\"model_type\": \"nemotron_h\", \"hidden_size\": 4096, "
		      "\"num_attention_heads\": 32, \"num_key_value_heads\": 8, "
		      "\"num_hidden_layers\": 8, \"intermediate_size\": 21504, "
		      "\"hybrid_override_pattern\": \"M-M*-M-M\", \"mamba_num_heads\": 128, "
		      "\"mamba_head_dim\": 64, \"ssm_state_size\": 128, \"vocab_size\": 131072}");
	ck_assert_int_eq(m.ssm_state, 128); /* Mamba-2's state per channel */
	ck_assert_int_eq(m.kv_layers, 1);
	ck_assert_int_eq(m.ssm_layers, 4);
	ck_assert_int_eq(m.mlp_layers, 3);
	model_spec_clear(&m);
}
END_TEST

START_TEST(a_quantised_checkpoint_keeps_its_ignored_layers_in_16_bit)
{
	/* Meta's Llama-3.1-405B-Instruct-FP8 keeps every layer's attention and
	 * lm_head in BF16 (quantization_config fbgemm_fp8, modules_to_not_convert).
	 * 16-bit: 126 x 570M attention + 2 x 2.1B embeddings = 76B of 406B. At 2
	 * bytes for those and 1 for the rest, 8 GPUs hold 56 GiB each; vLLM
	 * reports 57.8 GiB (issue 10). */
	struct model_spec m = read_text(
		"{\"model_type\": \"llama\", \"hidden_size\": 16384, \"intermediate_size\": 53248, "
		"\"num_attention_heads\": 128, \"num_hidden_layers\": 126, "
		"\"num_key_value_heads\": 8, \"vocab_size\": 128256, \"tie_word_embeddings\": false, "
		"\"quantization_config\": {\"quant_method\": \"fbgemm_fp8\", "
		"\"modules_to_not_convert\": [\"model.layers.*.self_attn\", \"lm_head\"]}}");
	ck_assert_str_eq(m.quant_method, "fbgemm_fp8");
	ck_assert_msg(fabs(m.params_16bit / 76.1e9 - 1) < 0.02, "%.1fB", m.params_16bit / 1e9);
	double gib = (m.params_16bit * 2 + (m.params_total - m.params_16bit)) / 8 / (1 << 30);
	ck_assert_msg(gib > 54 && gib < 58, "%.1f GiB per GPU", gib);
	model_spec_clear(&m);
	/* Per-layer names count only the layers and projections they name */
	m = read_text("{\"model_type\": \"llama\", \"hidden_size\": 1024, \"intermediate_size\": "
		      "4096, \"num_attention_heads\": 8, \"num_hidden_layers\": 4, "
		      "\"vocab_size\": 1000, \"tie_word_embeddings\": true, "
		      "\"quantization_config\": {\"quant_method\": \"fp8\", \"ignored_layers\": "
		      "[\"model.layers.0.mlp.down_proj\", \"model.layers.3.self_attn.q_proj\"]}}");
	double want = 1000.0 * 1024 + 2 * 1024 * 4 + 1024.0 * 4096 + 1024.0 * 1024;
	ck_assert_msg(fabs(m.params_16bit - want) < 1, "%.0f, want %.0f", m.params_16bit, want);
	model_spec_clear(&m);
	/* gpt-oss keeps attention, router, embeddings and lm_head */
	m = read_fixture("gpt-oss-20b.json");
	ck_assert_msg(m.params_16bit > 1.5e9 && m.params_16bit < 1.9e9, "%.2fB",
		      m.params_16bit / 1e9);
	model_spec_clear(&m);
}
END_TEST

START_TEST(a_config_with_impossible_values_is_refused_with_the_field_named)
{
	static const char *const base = "\"hidden_size\": 4096, \"intermediate_size\": 14336, "
					"\"vocab_size\": 32000";
	static const struct {
		const char *json, *field;
	} cases[] = {
		{"\"num_hidden_layers\": -32, \"num_attention_heads\": 32", "num_hidden_layers"},
		{"\"num_hidden_layers\": 32.5, \"num_attention_heads\": 32", "num_hidden_layers"},
		{"\"num_hidden_layers\": true, \"num_attention_heads\": 32", "num_hidden_layers"},
		{"\"n_layer\": 1e12, \"num_attention_heads\": 32", "n_layer"},
		{"\"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_key_value_heads\": 12",
		 "num_key_value_heads"},
		{"\"num_hidden_layers\": 32, \"num_attention_heads\": \"32\"", "num_attention_heads"},
		{"\"num_hidden_layers\": 32", "num_attention_heads"},
		{"\"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
		 "\"max_position_embeddings\": 1e15",
		 "max_position_embeddings"},
		{"\"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"num_local_experts\": 8, "
		 "\"num_experts_per_tok\": 9",
		 "num_experts_per_tok"},
		{"\"num_hidden_layers\": 4, \"num_attention_heads\": 32, \"sliding_window\": 128, "
		 "\"layer_types\": [\"full_attention\"]",
		 "layer_types"},
		{"\"num_hidden_layers\": 32, \"num_attention_heads\": 32, \"head_dim\": 0",
		 "head_dim"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *json = xasprintf("{%s, %s}", base, cases[i].json);
		struct model_spec m;
		char *err = NULL;
		ck_assert_msg(model_from_config_text("c.json", json, strlen(json), &m, &err) ==
				      PLANNER_EINPUT,
			      "%s was accepted", json);
		ck_assert_msg(strstr(err, cases[i].field), "'%s' does not name %s", err,
			      cases[i].field);
		free(err);
		free(json);
	}
	/* the field's place is named when it sits under text_config */
	const char *nested = "{\"text_config\": {\"hidden_size\": -1}}";
	struct model_spec m;
	char *err = NULL;
	ck_assert_int_eq(model_from_config_text("c.json", nested, strlen(nested), &m, &err),
			 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "text_config.hidden_size"), "%s", err);
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
	tcase_add_test(tc, every_moe_models_published_counts_give_its_expert_size);
	tcase_add_test(tc, gemma_2_keeps_its_own_head_dim);
	tcase_add_test(tc, the_snapshot_names_only_known_gpus_and_every_row_has_a_source);
	tcase_add_test(tc, every_reference_models_api_equivalent_has_a_snapshot_price);
	tcase_add_test(tc, a_hugging_face_config_json_is_read_and_its_parameters_derived);
	tcase_add_test(tc, a_config_path_that_is_not_a_regular_file_is_refused_without_reading);
	tcase_add_test(tc, a_repo_id_that_is_no_file_says_where_its_config_json_is);
	tcase_add_test(tc, every_gpu_names_its_memory_type);
	tcase_add_test(tc, every_mac_and_cpu_has_its_memory_sizes_and_sources);
	tcase_add_test(tc, a_config_whose_derived_figures_are_out_of_range_is_refused_naming_the_field);
	tcase_add_test(tc, a_card_described_under_gpus_can_be_owned_and_bought);
	tcase_add_test(tc, planner_gpus_and_models_list_every_row_in_json_and_csv);
	tcase_add_test(tc, geforce_cards_carry_the_fp32_accumulate_tensor_rate);
	tcase_add_test(tc, blackwell_parts_carry_their_dense_fp4_rate);
	tcase_add_test(tc, the_cards_people_own_and_rent_are_known);
	tcase_add_test(tc, real_config_files_give_their_published_parameter_counts);
	tcase_add_test(tc, legacy_key_names_of_falcon_and_glm_are_read);
	tcase_add_test(tc, the_text_model_under_text_config_is_read);
	tcase_add_test(tc, sliding_window_layers_are_counted);
	tcase_add_test(tc, hybrid_ssm_layers_hold_no_kv_cache);
	tcase_add_test(tc, a_quantised_checkpoint_keeps_its_ignored_layers_in_16_bit);
	tcase_add_test(tc, a_config_with_impossible_values_is_refused_with_the_field_named);
	suite_add_tcase(s, tc);
	return s;
}
