/* check_vram.c — planner/vram.c against published sizes and hand-computed
 * memory. Models and GPUs are built here from their public configs, so the
 * suite does not depend on schema/models.json or schema/gpus.json. */
#include <check.h>
#include <math.h>
#include <string.h>

#include "vram.h"

#define GIB 1073741824.0

/* The figures here are the default engine profile's (engines.c). */
#define E engine_default()
/* The training default (transformers + PEFT). */
#define HF engine_find("hf")

/* meta-llama/Llama-2-7b-hf config.json; llama-bench counts 6.74 B params. */
static const struct model_spec llama2_7b = {
	.id = "llama-2-7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32,
	.head_dim = 128, .intermediate = 11008, .vocab = 32000, .max_context = 4096,
	.params_total = 6.74e9, .params_active = 6.74e9,
};

/* meta-llama/Llama-3.1-8B config.json (8.03 B parameters). */
static const struct model_spec llama31_8b = {
	.id = "llama-3.1-8b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
	.head_dim = 128, .intermediate = 14336, .vocab = 128256, .max_context = 131072,
	.params_total = 8.03e9, .params_active = 8.03e9,
};

/* meta-llama/Llama-3.1-70B config.json (70.6 B parameters). */
static const struct model_spec llama31_70b = {
	.id = "llama-3.1-70b", .layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8,
	.head_dim = 128, .intermediate = 28672, .vocab = 128256, .max_context = 131072,
	.params_total = 70.6e9, .params_active = 70.6e9,
};

/* google/gemma-2-9b config.json: head_dim 256 while hidden/heads = 224. */
static const struct model_spec gemma2_9b = {
	.id = "gemma-2-9b", .layers = 42, .hidden = 3584, .heads = 16, .kv_heads = 8,
	.head_dim = 256, .intermediate = 14336, .vocab = 256000, .max_context = 8192,
	.tied_embeddings = true, .params_total = 9.24e9, .params_active = 9.24e9,
};

/* mistralai/Mixtral-8x7B-v0.1: 46.7 B parameters, 12.9 B active per token
 * (Mistral AI, "Mixtral of experts", 2023-12-11). */
static const struct model_spec mixtral = {
	.id = "mixtral-8x7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
	.head_dim = 128, .intermediate = 14336, .vocab = 32000, .max_context = 32768,
	.experts = 8, .experts_active = 2, .params_total = 46.7e9, .params_active = 12.9e9,
};

/* deepseek-ai/DeepSeek-V3 config.json: MLA with kv_lora_rank 512 and
 * qk_rope_head_dim 64; 671 B parameters, 37 B active. */
static const struct model_spec deepseek_v3 = {
	.id = "deepseek-v3", .layers = 61, .hidden = 7168, .heads = 128, .kv_heads = 128,
	.head_dim = 128, .intermediate = 18432, .vocab = 129280, .max_context = 163840,
	.experts = 256, .experts_active = 8, .moe_intermediate = 2048, .shared_experts = 1,
	.first_dense = 3, .kv_lora_rank = 512, .rope_head_dim = 64,
	.params_total = 671e9, .params_active = 37e9,
};

/* H100 SXM 80GB: nvidia-smi reports 81559 MiB = 79.6 GiB. */
static const struct gpu_spec h100 = {
	.name = "H100 SXM", .vram_gib = 79.6, .bandwidth_gbs = 3350, .fp16_tflops = 989.4,
	.fp8_tflops = 1978.9,
};

/* RTX 4090: 24 GB GDDR6X = 24564 MiB. */
static const struct gpu_spec rtx4090 = {
	.name = "RTX 4090", .vram_gib = 23.99, .bandwidth_gbs = 1008, .fp16_tflops = 165.2,
	.fp8_tflops = 330.3,
};

static void assert_close(double got, double want, double rel, const char *what)
{
	ck_assert_msg(fabs(got - want) <= rel * want, "%s: got %.4f, want %.4f (+-%.0f%%)", what,
		      got, want, rel * 100);
}

static double weights_gib(const struct model_spec *m, const char *precision)
{
	const struct precision_info *p = precision_find(precision);
	ck_assert_ptr_nonnull(p);
	struct vram_need need;
	vram_estimate(E, m, p, TASK_INFERENCE, 1, 1, &need);
	return need.weights_gib;
}

START_TEST(precision_names_are_case_insensitive_and_every_listed_name_resolves)
{
	ck_assert_ptr_eq(precision_find("Q4_K_M"), precision_find("q4_k_m"));
	ck_assert_str_eq(precision_find("BF16")->name, "bf16");
	ck_assert_str_eq(precision_find("bnb4")->name, "nf4");
	ck_assert_ptr_null(precision_find("q4_k_x"));
	ck_assert_ptr_null(precision_find(NULL));
	for (const char *const *n = precision_names(); *n; n++)
		ck_assert_msg(precision_find(*n) != NULL, "%s does not resolve", *n);
	ck_assert_str_eq(precision_suggest("q4km"), "q4_k_m");
}
END_TEST

START_TEST(four_bit_formats_are_not_four_bits)
{
	/* Q4_0 block: 16 bytes of codes + 2-byte scale per 32 weights. */
	ck_assert_double_eq_tol(precision_find("q4_0")->bits_per_weight, 4.5, 1e-9);
	/* group-128 AWQ/GPTQ: 4 + (16-bit scale + 16-bit zero) / 128. */
	ck_assert_double_eq_tol(precision_find("awq")->bits_per_weight, 4.25, 1e-9);
	ck_assert_double_eq_tol(precision_find("gptq")->bits_per_weight, 4.25, 1e-9);
	ck_assert_double_eq_tol(precision_find("int4")->bits_per_weight, 4.25, 1e-9);
	/* bitsandbytes NF4: 4 + fp32 absmax / 64. */
	ck_assert_double_eq_tol(precision_find("nf4")->bits_per_weight, 4.5, 1e-9);
	/* llama.cpp quantize README (Llama-3.1-8B): Q4_K_M 4.8944 bpw. */
	ck_assert_double_eq_tol(precision_find("q4_k_m")->bits_per_weight, 4.89, 0.01);
	ck_assert_double_eq_tol(precision_find("q6_k")->bits_per_weight, 6.5625, 0.01);
}
END_TEST

START_TEST(only_fp8_and_int8_claim_their_tensor_cores)
{
	ck_assert(precision_find("fp8")->fp8_compute);
	ck_assert(!precision_find("fp8")->int8_compute);
	ck_assert(precision_find("int8")->int8_compute);
	ck_assert(!precision_find("q8_0")->fp8_compute);
	ck_assert(!precision_find("q8_0")->int8_compute);
	ck_assert(!precision_find("bf16")->fp8_compute);
}
END_TEST

START_TEST(llama_2_7b_weights_match_the_sizes_llama_bench_prints)
{
	/* llama-bench "size" column for codellama-7b (6.74 B params),
	 * ggml-org/llama.cpp#3776 and #4766: F16 12.55 GiB, Q8_0 6.67 GiB,
	 * Q4_0 3.56 GiB, Q4_K - Medium 3.80 GiB. The Q4 files keep the output
	 * tensor at Q6_K, hence a percent or two above the pure block size. */
	assert_close(weights_gib(&llama2_7b, "f16"), 12.55, 0.01, "F16");
	assert_close(weights_gib(&llama2_7b, "q8_0"), 6.67, 0.01, "Q8_0");
	assert_close(weights_gib(&llama2_7b, "q4_0"), 3.56, 0.02, "Q4_0");
	assert_close(weights_gib(&llama2_7b, "q4_k_m"), 3.80, 0.03, "Q4_K_M");
}
END_TEST

START_TEST(q4_k_m_weights_of_llama_3_1_8b_match_the_published_gguf_size)
{
	/* llama.cpp tools/quantize/README.md, Llama-3.1-8B: Q4_K_M 4.58 GiB,
	 * Q5_K_M 5.33, Q6_K 6.14, Q8_0 7.95, F16 14.96 GiB. In GB these are the
	 * 4.92 / 8.54 / 16.07 GB listed on GGUF model pages. */
	assert_close(weights_gib(&llama31_8b, "q4_k_m"), 4.58, 0.01, "Q4_K_M");
	assert_close(weights_gib(&llama31_8b, "q5_k_m"), 5.33, 0.01, "Q5_K_M");
	assert_close(weights_gib(&llama31_8b, "q6_k"), 6.14, 0.01, "Q6_K");
	assert_close(weights_gib(&llama31_8b, "q8_0"), 7.95, 0.01, "Q8_0");
	assert_close(weights_gib(&llama31_8b, "fp16"), 14.96, 0.01, "F16");
	assert_close(weights_gib(&llama31_8b, "q4_k_m") * GIB / 1e9, 4.92, 0.01, "Q4_K_M in GB");
}
END_TEST

START_TEST(gguf_tensor_types_take_the_bits_of_their_block)
{
	/* ggml-common.h: bytes per block / weights per block x 8. */
	ck_assert_double_eq_tol(gguf_type_bpw("q4_0"), 18 * 8.0 / 32, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("Q4_1"), 5.0, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q5_1"), 6.0, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q2_k"), 2.625, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q3_k"), 3.4375, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q4_k"), 4.5, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q5_k"), 5.5, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("q6_k"), 6.5625, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("iq1_s"), 1.5625, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("iq2_xxs"), 2.0625, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("iq4_xs"), 4.25, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("tq1_0"), 1.6875, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("mxfp4"), 4.25, 1e-9);
	ck_assert_double_eq_tol(gguf_type_bpw("nvfp4"), 4.5, 1e-9);
	ck_assert_double_eq(gguf_type_bpw("q4_k_m"), 0.0); /* a mix, not a type */
	/* A file of one type throughout is that type. */
	ck_assert_double_eq_tol(precision_find("q4_1")->bits_per_weight, 5.0, 1e-9);
	ck_assert_double_eq_tol(precision_find("tq2_0")->bits_per_weight, 2.0625, 1e-9);
	ck_assert_double_eq_tol(precision_find("q8_k")->bits_per_weight, 9.125, 1e-9);
	/* q4_k, as llama-quantize reads it, is its Q4_K_M mix */
	ck_assert_ptr_eq(precision_find("Q4_K"), precision_find("q4_k_m"));
}
END_TEST

START_TEST(k_and_iq_mixes_of_llama_3_1_8b_match_the_readmes_file_sizes)
{
	/* llama.cpp tools/quantize/README.md at 311c2c9, Llama-3.1-8B, size
	 * (GiB) column beside the bits/weight planner takes. */
	assert_close(weights_gib(&llama31_8b, "q4_k_s"), 4.36, 0.01, "Q4_K_S");
	assert_close(weights_gib(&llama31_8b, "q3_k_s"), 3.41, 0.01, "Q3_K_S");
	assert_close(weights_gib(&llama31_8b, "q3_k_l"), 4.02, 0.01, "Q3_K_L");
	assert_close(weights_gib(&llama31_8b, "q5_k_s"), 5.21, 0.01, "Q5_K_S");
	assert_close(weights_gib(&llama31_8b, "q2_k_s"), 2.78, 0.01, "Q2_K_S");
	assert_close(weights_gib(&llama31_8b, "iq2_m"), 2.74, 0.01, "IQ2_M");
	assert_close(weights_gib(&llama31_8b, "iq4_xs"), 4.17, 0.01, "IQ4_XS");
	assert_close(weights_gib(&llama31_8b, "IQ1_S"), 1.87, 0.01, "IQ1_S");
}
END_TEST

/* openai/gpt-oss-120b config.json: 36 layers, 8 KV heads of 64, every
 * other layer a 128-token sliding window (layer_types); 128 experts, 4 a
 * token; 116.8 B parameters, 5.1 B active (OpenAI's model card). */
static const struct model_spec gpt_oss_120b = {
	.id = "gpt-oss-120b", .layers = 36, .hidden = 2880, .heads = 64, .kv_heads = 8,
	.head_dim = 64, .intermediate = 2880, .vocab = 201088, .max_context = 131072,
	.experts = 128, .experts_active = 4, .sliding_window = 128, .sliding_layers = 18,
	.params_total = 116.8e9, .params_active = 5.1e9,
};

START_TEST(gpt_oss_keeps_attention_in_bf16_and_its_experts_in_mxfp4)
{
	const struct precision_info *mx = precision_find("MXFP4");
	ck_assert_ptr_nonnull(mx);
	ck_assert_double_eq_tol(mx->bits_per_weight, 4.25, 1e-9); /* E8M0 per 32 */
	/* every expert: (116.8 - 5.1) / (128 - 4) per expert, 128 of them */
	double experts = (116.8e9 - 5.1e9) / 124.0 * 128.0;
	double rest = 116.8e9 - experts;
	ck_assert_double_eq_tol(vram_params_16bit(&gpt_oss_120b, mx), rest, 1e3);
	double want = (experts * 4.25 / 8.0 + rest * 2.0) / GIB;
	assert_close(weights_gib(&gpt_oss_120b, "mxfp4"), want, 1e-6, "gpt-oss-120b MXFP4");
	/* ggml-org's GGUF of it weighs 59.02 GiB (calibration weights-025),
	 * vLLM loads 65.97 on an H100 (weights-030) */
	assert_close(weights_gib(&gpt_oss_120b, "mxfp4"), 59.02, 0.03, "against llama.cpp");
	/* a dense model at mxfp4 keeps only its embeddings and head */
	ck_assert_double_eq_tol(vram_params_16bit(&llama31_8b, mx), 2.0 * 128256 * 4096, 1.0);
	/* NVFP4: one E4M3 scale per 16 values */
	ck_assert_double_eq_tol(precision_find("nvfp4")->bits_per_weight, 4.5, 1e-9);
	ck_assert_double_eq_tol(precision_find("gptq-int8")->bits_per_weight, 8.25, 1e-9);
}
END_TEST

START_TEST(kv_cache_of_llama_3_1_70b_at_8k_is_eight_times_smaller_than_with_full_heads)
{
	/* 2 (K,V) x 80 layers x 8 kv heads x 128 x 8192 tokens x 2 bytes
	 * = 2 684 354 560 bytes = 2.5 GiB exactly. */
	struct vram_need need;
	vram_estimate(E, &llama31_70b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &need);
	ck_assert_double_eq_tol(need.kv_gib, 2.5, 1e-9);

	struct model_spec mha = llama31_70b;
	mha.kv_heads = mha.heads;
	struct vram_need full;
	vram_estimate(E, &mha, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &full);
	ck_assert_double_eq_tol(full.kv_gib / need.kv_gib, 8.0, 1e-9);

	/* batch scales it linearly */
	struct vram_need four;
	vram_estimate(E, &llama31_70b, precision_find("bf16"), TASK_INFERENCE, 8192, 4, &four);
	ck_assert_double_eq_tol(four.kv_gib, 10.0, 1e-9);
}
END_TEST

START_TEST(gemma_2_9b_kv_cache_uses_head_dim_256_not_hidden_over_heads)
{
	/* 2 x 42 x 8 x 256 x 2 bytes = 344 064 bytes per token; hidden/heads
	 * (224) would give 301 056. */
	ck_assert_double_eq_tol(vram_kv_bytes_per_token(E, &gemma2_9b), 344064.0, 1e-6);
	struct vram_need need;
	vram_estimate(E, &gemma2_9b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &need);
	ck_assert_double_eq_tol(need.kv_gib, 344064.0 * 8192 / GIB, 1e-9);
}
END_TEST

START_TEST(mixtral_memory_counts_every_expert)
{
	/* 46.7 B x 2 bytes, although only 12.9 B are used per token. */
	ck_assert_double_eq_tol(weights_gib(&mixtral, "bf16"), 46.7e9 * 2 / GIB, 1e-9);
	ck_assert_double_eq_tol(weights_gib(&mixtral, "q4_k_m"), 46.7e9 * 4.89 / 8 / GIB, 1e-9);
}
END_TEST

START_TEST(deepseek_v3_caches_the_mla_latent_not_per_head_keys_and_values)
{
	/* (512 latent + 64 rope) x 61 layers x 2 bytes = 70 272 bytes/token. */
	ck_assert_double_eq_tol(vram_kv_bytes_per_token(E, &deepseek_v3), 70272.0, 1e-6);
	struct vram_need need;
	vram_estimate(E, &deepseek_v3, precision_find("fp8"), TASK_INFERENCE, 32768, 2, &need);
	ck_assert_double_eq_tol(need.kv_gib, 70272.0 * 32768 * 2 / GIB, 1e-9);
	/* 128 full heads of 128 would be 2 x 61 x 128 x 128 x 2 = 3 997 696. */
	struct model_spec mha = deepseek_v3;
	mha.kv_lora_rank = 0;
	ck_assert(vram_kv_bytes_per_token(E, &mha) / vram_kv_bytes_per_token(E, &deepseek_v3) > 50);
}
END_TEST

START_TEST(llama_3_1_70b_in_bf16_needs_two_80gb_gpus_not_one)
{
	struct vram_need need;
	vram_estimate(E, &llama31_70b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &need);
	/* 141 GB of weights: more than one card's 79.6 GiB */
	ck_assert(need.weights_gib > 130);
	ck_assert(!vram_fits(E, &need, &h100, 1));
	ck_assert(vram_fits(E, &need, &h100, 2));
	ck_assert(vram_fits(E, &need, &h100, 4));
	ck_assert_int_eq(vram_min_gpus(E, &need, &h100), 2);
	/* total memory of two 24 GB cards is not what matters: per GPU is */
	ck_assert(!vram_fits(E, &need, &rtx4090, 4));
	ck_assert_int_eq(vram_min_gpus(E, &need, &rtx4090), 8);
}
END_TEST

START_TEST(tensor_parallel_splits_the_model_and_pays_overhead_on_each_gpu)
{
	struct vram_need need;
	vram_estimate(E, &llama31_70b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &need);
	double split = need.weights_gib + need.kv_gib + need.training_gib + need.activation_gib;
	ck_assert_double_eq_tol(vram_per_gpu(&need, 1), need.total_gib, 1e-9);
	ck_assert_double_eq_tol(vram_per_gpu(&need, 4), split / 4 + need.overhead_gib, 1e-9);
	ck_assert_double_eq(need.overhead_gib, E->overhead_gib);
}
END_TEST

START_TEST(vllm_keeps_less_kv_room_than_the_card_left_over_and_sglang_its_static_fraction)
{
	const struct precision_info *bf16 = precision_find("bf16");
	const struct engine *vllm = engine_find("vllm"), *sglang = engine_find("sglang");
	struct vram_need need;
	vram_estimate(vllm, &llama31_70b, bf16, TASK_INFERENCE, 1, 1, &need);
	/* vLLM: 0.9 of the card less weights, its profiling peak and the
	 * CUDA context; with TP each GPU holds NCCL's buffers too. */
	double left = 0.9 * h100.vram_gib - need.weights_gib / 4;
	double v4 = vram_kv_room(vllm, &llama31_70b, bf16, &h100, 4, 0);
	ck_assert(v4 < left - vllm->kv_nontorch_gib - vllm->kv_tp_gib);
	ck_assert(v4 > left - 6.0);
	/* On an 80 GB A100 vLLM profiles 2048 tokens and 256 sequences, not
	 * 8192 and 1024: a little more room than on an H100 of that size. */
	ck_assert(engine_big_card(h100.vram_gib, h100.name));
	ck_assert(!engine_big_card(80.0, "A100 SXM 80GB"));
	ck_assert(!engine_big_card(44.99, "L40S"));
	/* SGLang: mem_fraction_static less weights and non-torch memory. */
	double s4 = vram_kv_room(sglang, &llama31_70b, bf16, &h100, 4, 0.93);
	ck_assert_double_eq_tol(s4,
	                        0.93 * h100.vram_gib - need.weights_gib / 4 -
	                            sglang->kv_nontorch_gib - sglang->kv_tp_gib,
	                        0.05);
	/* and a lower utilisation leaves less */
	ck_assert(vram_kv_room(vllm, &llama31_70b, bf16, &h100, 4, 0.8) < v4);
}
END_TEST

START_TEST(a_model_fits_only_within_the_usable_ninety_percent_of_the_card)
{
	ck_assert_double_eq_tol(vram_usable(E, &h100), 79.6 * 0.9, 1e-9);
	/* Llama-3.1-8B in bf16 (14.96 GiB) fits a 24 GB card at 8k context but
	 * not at its full 128k, whose KV cache alone is 16 GiB. */
	struct vram_need need;
	vram_estimate(E, &llama31_8b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &need);
	ck_assert(vram_fits(E, &need, &rtx4090, 1));
	vram_estimate(E, &llama31_8b, precision_find("bf16"), TASK_INFERENCE, 131072, 1, &need);
	ck_assert_double_eq_tol(need.kv_gib, 16.0, 1e-9);
	ck_assert(!vram_fits(E, &need, &rtx4090, 1));
}
END_TEST

START_TEST(full_fine_tune_costs_sixteen_bytes_per_parameter_plus_activations)
{
	/* transformers Trainer, bf16 mixed precision: 16 bytes a parameter */
	struct vram_need need;
	vram_estimate(HF, &llama31_8b, precision_find("bf16"), TASK_FINETUNE_FULL, 2048, 1, &need);
	ck_assert_double_eq_tol(need.weights_gib + need.training_gib, 8.03e9 * 16 / GIB, 1e-9);
	ck_assert_double_eq_tol(need.weights_gib, 8.03e9 * 2 / GIB, 1e-9);
	ck_assert_double_eq_tol(need.kv_gib, 0.0, 1e-12);
	ck_assert(need.activation_gib > 0);
	/* fp32 training has no master copy: still 16 bytes in all */
	vram_estimate(HF, &llama31_8b, precision_find("fp32"), TASK_FINETUNE_FULL, 2048, 1, &need);
	ck_assert_double_eq_tol(need.weights_gib + need.training_gib, 8.03e9 * 16 / GIB, 1e-9);
	/* torchtune's single-device recipe (bf16, paged 8-bit AdamW in the
	 * backward pass) holds 2 + 2 bytes */
	vram_estimate(engine_find("torchtune"), &llama31_8b, precision_find("bf16"),
	              TASK_FINETUNE_FULL, 2048, 1, &need);
	ck_assert_double_eq_tol(need.weights_gib + need.training_gib, 8.03e9 * 4 / GIB, 1e-9);
	/* a 70B full fine-tune (1.05 TiB of state) does not fit 8 x 80 GB by
	 * tensor parallelism alone: it needs sharding across nodes */
	vram_estimate(HF, &llama31_70b, precision_find("bf16"), TASK_FINETUNE_FULL, 4096, 1, &need);
	ck_assert(need.weights_gib + need.training_gib > 1000);
	ck_assert_int_eq(vram_min_gpus(HF, &need, &h100), 0);
}
END_TEST

START_TEST(lora_keeps_frozen_weights_at_the_job_precision_and_qlora_at_nf4)
{
	struct vram_need lora, qlora;
	vram_estimate(HF, &llama31_8b, precision_find("bf16"), TASK_FINETUNE_LORA, 2048, 1, &lora);
	vram_estimate(HF, &llama31_8b, precision_find("bf16"), TASK_FINETUNE_QLORA, 2048, 1, &qlora);
	ck_assert_double_eq_tol(lora.weights_gib, 8.03e9 * 2 / GIB, 1e-9);
	/* NF4 with double quantisation on the linear layers; the embedding
	 * and the head (2 x 128256 x 4096) stay bf16 */
	double embed = 2.0 * 128256 * 4096;
	ck_assert_double_eq_tol(qlora.weights_gib, ((8.03e9 - embed) * 4.127 / 8 + embed * 2) / GIB,
	                        1e-9);
	/* adapters: rank 16 on every linear layer of 32 layers, fp32 weight +
	 * gradient + two fp32 Adam moments = 16 bytes each */
	double per_layer = (4096 + 4096) + (4096 + 1024) * 2 + (4096 + 4096) + 3 * (4096 + 14336);
	double adapter = 16.0 * 32 * per_layer;
	ck_assert_double_eq_tol(vram_lora_params(&llama31_8b, 16, false), adapter, 1e-3);
	ck_assert_double_eq_tol(lora.training_gib, adapter * 16 / GIB, 1e-9);
	ck_assert_double_eq_tol(qlora.training_gib, lora.training_gib, 1e-12);
	ck_assert(vram_lora_params(&llama31_8b, 16, true) < adapter / 3);
	ck_assert(lora.total_gib < 0.5 * (8.03e9 * 16 / GIB));
	/* QLoRA of a 70B model fits one 80 GB card; LoRA in bf16 does not */
	vram_estimate(HF, &llama31_70b, precision_find("bf16"), TASK_FINETUNE_QLORA, 2048, 1,
	              &qlora);
	vram_estimate(HF, &llama31_70b, precision_find("bf16"), TASK_FINETUNE_LORA, 2048, 1, &lora);
	ck_assert(vram_fits(HF, &qlora, &h100, 1));
	ck_assert(!vram_fits(HF, &lora, &h100, 1));
}
END_TEST

/* The training stack decides the logits and checkpoints: transformers
 * holds fp32 logits of every token, torchtune a chunked loss, Unsloth a
 * fused one with checkpoints offloaded. */
START_TEST(the_training_stack_decides_logits_and_checkpoints)
{
	struct vram_need hf, tt, un;
	const struct precision_info *p = precision_find("bf16");
	vram_estimate(HF, &llama31_8b, p, TASK_FINETUNE_QLORA, 8192, 1, &hf);
	vram_estimate(engine_find("torchtune"), &llama31_8b, p, TASK_FINETUNE_QLORA, 8192, 1, &tt);
	vram_estimate(engine_find("unsloth"), &llama31_8b, p, TASK_FINETUNE_QLORA, 8192, 1, &un);
	ck_assert(hf.activation_gib > tt.activation_gib);
	ck_assert(tt.activation_gib > un.activation_gib);
	/* fp32 logits and their gradient: 8192 x 128256 x 8 bytes = 7.8 GiB */
	ck_assert(hf.activation_gib > 8192.0 * 128256 * 8 / GIB);
}
END_TEST

START_TEST(min_gpus_is_zero_when_eight_are_not_enough)
{
	struct model_spec big = llama31_70b;
	big.params_total = big.params_active = 405e9;
	struct vram_need need;
	vram_estimate(E, &big, precision_find("bf16"), TASK_INFERENCE, 4096, 1, &need);
	ck_assert_int_eq(vram_min_gpus(E, &need, &rtx4090), 0);
	ck_assert(!vram_fits(E, &need, &rtx4090, 0));
}
END_TEST

START_TEST(sliding_window_layers_hold_only_their_window_of_kv)
{
	/* 2 x 8 x 64 x 2 = 2048 bytes per token and layer: 18 full layers
	 * x 131072 tokens + 18 sliding layers x 128 = 4.50 GiB; vLLM asks
	 * 4.54 GiB for one 131072-token request (vllm-project/vllm#27508,
	 * its sliding layers also hold a batch of prefill tokens). Full
	 * attention on every layer would be 9.0 GiB. */
	double want = 2048.0 * (18 * 131072.0 + 18 * 128.0);
	ck_assert_double_eq_tol(vram_kv_bytes(E, &gpt_oss_120b, 131072, 0), want, 1e-3);
	struct vram_need need;
	vram_estimate(E, &gpt_oss_120b, precision_find("bf16"), TASK_INFERENCE, 131072, 1, &need);
	ck_assert_double_eq_tol(need.kv_gib, want / GIB, 1e-9);
	assert_close(need.kv_gib, 4.54, 0.02, "gpt-oss-120b KV at 131072");
	/* Below the window every layer holds every token. */
	ck_assert_double_eq_tol(vram_kv_bytes(E, &gpt_oss_120b, 100, 0), 2048.0 * 36 * 100, 1e-6);
	/* An fp8 cache halves it. */
	ck_assert_double_eq_tol(vram_kv_bytes(E, &gpt_oss_120b, 131072, 1.0), want / 2, 1e-3);
}
END_TEST

START_TEST(hybrid_ssm_layers_hold_a_fixed_state_instead_of_kv)
{
	/* Jamba v0.1 (ai21labs/Jamba-v0.1 config.json): 4 attention layers of
	 * 32, 28 Mamba layers of inner width 2 x 4096, mamba_d_state 16. */
	struct model_spec jamba = llama31_8b;
	jamba.kv_layers = 4;
	jamba.ssm_layers = 28;
	jamba.ssm_inner = 8192;
	jamba.ssm_state = 16;
	/* 2 x 4 layers x 8 x 128 x 2 bytes per token, not 32 layers' worth */
	ck_assert_double_eq_tol(vram_kv_bytes_per_token(E, &jamba), 16384.0, 1e-6);
	/* 28 x 8192 x (16 + 3) x 2 bytes = 8.3 MiB per sequence, any length */
	double state = 28.0 * 8192 * 19 * 2;
	ck_assert_double_eq_tol(vram_ssm_state_bytes(&jamba), state, 1e-6);
	struct vram_need need;
	vram_estimate(E, &jamba, precision_find("bf16"), TASK_INFERENCE, 65536, 2, &need);
	ck_assert_double_eq_tol(need.kv_gib, 2 * (16384.0 * 65536 + state) / GIB, 1e-9);
	ck_assert(vram_ssm_state_bytes(&llama31_8b) == 0.0);
}
END_TEST

START_TEST(an_fp8_checkpoint_keeps_its_16_bit_layers_at_two_bytes)
{
	/* Meta-Llama-3.1-405B-Instruct-FP8 keeps attention and embeddings in
	 * BF16: 76.1 B of 405.9 B parameters (tests/check_refdata.c). vLLM
	 * loads 57.75 GiB per GPU on 8 (vllm-project/vllm#6746); 8 bits on
	 * every parameter would be 47.3. */
	struct model_spec fp8 = llama31_70b;
	fp8.params_total = 405.9e9;
	fp8.params_16bit = 76.1e9;
	struct vram_need need;
	vram_estimate(E, &fp8, precision_find("fp8"), TASK_INFERENCE, 1, 1, &need);
	double want = (76.1e9 * 2 + (405.9e9 - 76.1e9)) / GIB;
	ck_assert_double_eq_tol(need.weights_gib, want, 1e-9);
	assert_close(need.weights_gib / 8, 57.75, 0.035, "405B FP8 per GPU of 8");
	/* A GGUF quantisation of the same model re-quantises every layer */
	vram_estimate(E, &fp8, precision_find("q4_k_m"), TASK_INFERENCE, 1, 1, &need);
	ck_assert_double_eq_tol(need.weights_gib, 405.9e9 * 4.89 / 8 / GIB, 1e-9);
	/* and bf16 weights are bf16 either way */
	vram_estimate(E, &fp8, precision_find("bf16"), TASK_INFERENCE, 1, 1, &need);
	ck_assert_double_eq_tol(need.weights_gib, 405.9e9 * 2 / GIB, 1e-9);
}
END_TEST

/* Qwen/Qwen2.5-7B-Instruct config.json: untied 152064 x 3584 embedding
 * and lm_head, 7.61 B parameters. */
static const struct model_spec qwen25_7b = {
    .id = "qwen2.5-7b",
    .layers = 28,
    .hidden = 3584,
    .heads = 28,
    .kv_heads = 4,
    .head_dim = 128,
    .intermediate = 18944,
    .vocab = 152064,
    .max_context = 32768,
    .params_total = 7.61e9,
    .params_active = 7.61e9,
};

START_TEST(a_named_awq_checkpoint_keeps_embeddings_and_lm_head_at_16_bits)
{
	/* AWQ, GPTQ and FP8 quantise the linear layers of the blocks; the
	 * embedding and lm_head, 2 x 152064 x 3584 = 1.09 B parameters,
	 * stay at 2 bytes (vLLM's GPTQ/AWQ configs: lm_head_quantized
	 * defaults to false) */
	double keep = 2 * 152064.0 * 3584;
	ck_assert_double_eq_tol(vram_params_16bit(&qwen25_7b, precision_find("awq")), keep, 1);
	double rest = 7.61e9 - keep;
	ck_assert_double_eq_tol(weights_gib(&qwen25_7b, "awq"), (keep * 2 + rest * 4.25 / 8) / GIB,
	                        1e-9);
	ck_assert_double_eq_tol(weights_gib(&qwen25_7b, "gptq"), (keep * 2 + rest * 4.25 / 8) / GIB,
	                        1e-9);
	ck_assert_double_eq_tol(weights_gib(&qwen25_7b, "fp8"), (keep * 2 + rest) / GIB, 1e-9);
	/* GGUF files are re-quantised whole; 16 bits stay 16 bits */
	ck_assert_double_eq_tol(vram_params_16bit(&qwen25_7b, precision_find("q4_k_m")), 0, 1e-12);
	ck_assert_double_eq_tol(weights_gib(&qwen25_7b, "q4_k_m"), 7.61e9 * 4.89 / 8 / GIB, 1e-9);
	ck_assert_double_eq_tol(weights_gib(&qwen25_7b, "bf16"), 7.61e9 * 2 / GIB, 1e-9);
}
END_TEST

START_TEST(an_mla_cache_is_held_whole_on_every_tensor_parallel_gpu)
{
	/* vLLM keeps DeepSeek's one latent per token on every rank; GQA heads
	 * are divided by the TP degree. */
	struct vram_need need;
	const struct precision_info *p = precision_find("fp8");
	vram_estimate(E, &deepseek_v3, p, TASK_INFERENCE, 32768, 8, &need);
	ck_assert(vram_kv_replicated(E, &deepseek_v3));
	ck_assert_double_eq_tol(need.unsplit_gib, need.kv_gib, 1e-12);
	double rest = need.weights_gib + need.activation_gib;
	ck_assert_double_eq_tol(vram_per_gpu_engine(E, &need, 8),
				rest / 8 + need.kv_gib + need.overhead_gib, 1e-9);
	/* llama.cpp's layer split gives each GPU its own layers' cache */
	const struct engine *lc = engine_find("llama.cpp");
	ck_assert(!vram_kv_replicated(lc, &deepseek_v3));
	vram_estimate(lc, &deepseek_v3, p, TASK_INFERENCE, 32768, 8, &need);
	ck_assert(need.unsplit_gib == 0.0);
	/* and a GQA model's cache divides under tensor parallelism */
	ck_assert(!vram_kv_replicated(E, &llama31_70b));
	/* The most sequences that fit do not grow with the GPU count the
	 * way split heads would: each GPU holds every sequence's latent. */
	int one = vram_max_batch(E, &deepseek_v3, p, &h100, 8, 32768, 0);
	struct vram_need at;
	vram_estimate(E, &deepseek_v3, p, TASK_INFERENCE, 32768, one + 1, &at);
	ck_assert(!vram_fits(E, &at, &h100, 8));
}
END_TEST

START_TEST(a_named_optimizer_and_rank_set_the_adapter_state)
{
	/* QLoRA of Llama-3.1-8B: rank 16 on every linear layer. AdamW keeps 8
	 * bytes of moments per adapter parameter, 8-bit AdamW 2, a paged one
	 * none on the GPU; each adds to the 8 of fp32 weight and gradient. */
	const struct precision_info *p = precision_find("nf4");
	double lora16 = vram_lora_params(&llama31_8b, 16, false);
	struct vram_job job = {.task = TASK_FINETUNE_QLORA, .context = 2048, .batch = 1,
			       .optimizer = optimizer_find("adamw")};
	struct vram_need adamw, eight, paged, r64;
	vram_estimate_job(HF, &llama31_8b, p, &job, &adamw);
	ck_assert_double_eq_tol(adamw.training_gib, lora16 * 16 / GIB, 1e-9);
	job.optimizer = optimizer_find("ADAMW-8BIT");
	vram_estimate_job(HF, &llama31_8b, p, &job, &eight);
	ck_assert_double_eq_tol(eight.training_gib, lora16 * 10 / GIB, 1e-9);
	job.optimizer = optimizer_find("paged-adamw-8bit");
	vram_estimate_job(HF, &llama31_8b, p, &job, &paged);
	ck_assert_double_eq_tol(paged.training_gib, lora16 * 8 / GIB, 1e-9);
	job.lora_rank = 64;
	job.optimizer = optimizer_find("adamw");
	vram_estimate_job(HF, &llama31_8b, p, &job, &r64);
	ck_assert_double_eq_tol(r64.training_gib, 4 * adamw.training_gib, 1e-9);
	ck_assert_ptr_null(optimizer_find("sgd"));
	/* Full fine-tuning: hf's 6 bytes of bf16 gradient and fp32 master copy
	 * plus the optimizer's moments: 8 for AdamW (16 in all), 2 for 8-bit. */
	struct vram_job full = {.task = TASK_FINETUNE_FULL, .context = 2048, .batch = 1,
				.optimizer = optimizer_find("adamw-8bit")};
	struct vram_need f;
	vram_estimate_job(HF, &llama31_8b, precision_find("bf16"), &full, &f);
	ck_assert_double_eq_tol(f.training_gib, 8.03e9 * 8 / GIB, 1e-6);
	full.optimizer = optimizer_find("adamw");
	vram_estimate_job(HF, &llama31_8b, precision_find("bf16"), &full, &f);
	ck_assert_double_eq_tol(f.training_gib, 8.03e9 * 14 / GIB, 1e-6);
}
END_TEST

START_TEST(a_micro_batch_sizes_the_activations_of_each_gpu)
{
	/* batch 16 over 4 GPUs in micro-batches of 2: every GPU holds the
	 * activations of 2 sequences, whatever the GPU count; without a
	 * micro-batch the 16 are split over the GPUs (4 each). */
	const struct precision_info *p = precision_find("bf16");
	struct vram_job job = {.task = TASK_FINETUNE_LORA, .context = 2048, .batch = 16};
	struct vram_need whole, micro, one;
	vram_estimate_job(HF, &llama31_8b, p, &job, &whole);
	job.micro_batch = 2;
	vram_estimate_job(HF, &llama31_8b, p, &job, &micro);
	job.micro_batch = 0;
	job.batch = 2;
	vram_estimate_job(HF, &llama31_8b, p, &job, &one);
	ck_assert_double_eq_tol(micro.activation_gib, one.activation_gib, 1e-9);
	ck_assert_double_eq_tol(micro.unsplit_gib, micro.activation_gib, 1e-12);
	ck_assert_double_eq_tol(vram_per_gpu_engine(HF, &micro, 4),
				(micro.weights_gib + micro.training_gib) / 4 +
				    micro.activation_gib + micro.overhead_gib,
				1e-9);
	ck_assert(vram_per_gpu_engine(HF, &micro, 1) < vram_per_gpu_engine(HF, &whole, 1));
	/* Checkpointing off keeps every layer's activations */
	job.checkpointing = CKPT_OFF;
	struct vram_need off;
	vram_estimate_job(HF, &llama31_8b, p, &job, &off);
	ck_assert(off.activation_gib > 3 * one.activation_gib);
	/* Selective recomputation keeps s*b*h*34 a layer; without it an engine
	 * that stores the attention scores adds s*b*h*5as/h (Korthikanti et
	 * al. 2022, eq. 1), which flash attention never stores. */
	job.checkpointing = CKPT_SELECTIVE;
	struct vram_need sel, eager;
	vram_estimate_job(HF, &llama31_8b, p, &job, &sel);
	ck_assert_double_eq_tol(sel.activation_gib, off.activation_gib, 1e-12);
	struct engine plain = *HF;
	plain.flash_attention = false;
	job.checkpointing = CKPT_OFF;
	vram_estimate_job(&plain, &llama31_8b, p, &job, &eager);
	double s = 2048, tokens = s * 2;
	ck_assert_double_eq_tol((eager.activation_gib - off.activation_gib) * 1073741824.0,
				tokens * 5.0 * llama31_8b.heads * s * llama31_8b.layers, 1.0);
}
END_TEST

Suite *vram_suite(void)
{
	Suite *s = suite_create("vram");
	TCase *tc = tcase_create("vram");
	tcase_add_test(tc, precision_names_are_case_insensitive_and_every_listed_name_resolves);
	tcase_add_test(tc, four_bit_formats_are_not_four_bits);
	tcase_add_test(tc, only_fp8_and_int8_claim_their_tensor_cores);
	tcase_add_test(tc, llama_2_7b_weights_match_the_sizes_llama_bench_prints);
	tcase_add_test(tc, q4_k_m_weights_of_llama_3_1_8b_match_the_published_gguf_size);
	tcase_add_test(tc, gguf_tensor_types_take_the_bits_of_their_block);
	tcase_add_test(tc, k_and_iq_mixes_of_llama_3_1_8b_match_the_readmes_file_sizes);
	tcase_add_test(tc, gpt_oss_keeps_attention_in_bf16_and_its_experts_in_mxfp4);
	tcase_add_test(tc, kv_cache_of_llama_3_1_70b_at_8k_is_eight_times_smaller_than_with_full_heads);
	tcase_add_test(tc, gemma_2_9b_kv_cache_uses_head_dim_256_not_hidden_over_heads);
	tcase_add_test(tc, mixtral_memory_counts_every_expert);
	tcase_add_test(tc, deepseek_v3_caches_the_mla_latent_not_per_head_keys_and_values);
	tcase_add_test(tc, llama_3_1_70b_in_bf16_needs_two_80gb_gpus_not_one);
	tcase_add_test(tc, tensor_parallel_splits_the_model_and_pays_overhead_on_each_gpu);
	tcase_add_test(tc, a_model_fits_only_within_the_usable_ninety_percent_of_the_card);
	tcase_add_test(
	    tc, vllm_keeps_less_kv_room_than_the_card_left_over_and_sglang_its_static_fraction);
	tcase_add_test(tc, full_fine_tune_costs_sixteen_bytes_per_parameter_plus_activations);
	tcase_add_test(tc, lora_keeps_frozen_weights_at_the_job_precision_and_qlora_at_nf4);
	tcase_add_test(tc, the_training_stack_decides_logits_and_checkpoints);
	tcase_add_test(tc, min_gpus_is_zero_when_eight_are_not_enough);
	tcase_add_test(tc, sliding_window_layers_hold_only_their_window_of_kv);
	tcase_add_test(tc, hybrid_ssm_layers_hold_a_fixed_state_instead_of_kv);
	tcase_add_test(tc, an_fp8_checkpoint_keeps_its_16_bit_layers_at_two_bytes);
	tcase_add_test(tc, a_named_awq_checkpoint_keeps_embeddings_and_lm_head_at_16_bits);
	tcase_add_test(tc, an_mla_cache_is_held_whole_on_every_tensor_parallel_gpu);
	tcase_add_test(tc, a_named_optimizer_and_rank_set_the_adapter_state);
	tcase_add_test(tc, a_micro_batch_sizes_the_activations_of_each_gpu);
	suite_add_tcase(s, tc);
	return s;
}
