/* check_speed.c — planner/speed.c held to public measurements.
 *
 * Each calibration test names the measurement (engine, GPU, model, format,
 * value, where and when it was published) and the tolerance. Models and
 * GPUs are built here from public specs, independent of the schema/ JSON. */
#include <check.h>
#include <math.h>

#include "engines.h"
#include "speed.h"


/* codellama-7b as benchmarked by llama-bench: Llama-2-7B architecture,
 * 6.74 B parameters (meta-llama/Llama-2-7b-hf config.json). */
static const struct model_spec llama2_7b = {
	.id = "llama-2-7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32,
	.head_dim = 128, .intermediate = 11008, .vocab = 32000, .max_context = 4096,
	.params_total = 6.74e9, .params_active = 6.74e9,
};

/* meta-llama/Llama-3.1-8B config.json. */
static const struct model_spec llama31_8b = {
	.id = "llama-3.1-8b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
	.head_dim = 128, .intermediate = 14336, .vocab = 128256, .max_context = 131072,
	.params_total = 8.03e9, .params_active = 8.03e9,
};

/* Mixtral-8x7B: 46.7 B parameters, 12.9 B active (Mistral AI, 2023-12-11). */
static const struct model_spec mixtral = {
	.id = "mixtral-8x7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 8,
	.head_dim = 128, .intermediate = 14336, .vocab = 32000, .max_context = 32768,
	.experts = 8, .experts_active = 2, .params_total = 46.7e9, .params_active = 12.9e9,
};

/* Llama-3.1-405B config.json (405 B parameters). */
static const struct model_spec llama31_405b = {
	.id = "llama-3.1-405b", .layers = 126, .hidden = 16384, .heads = 128, .kv_heads = 8,
	.head_dim = 128, .intermediate = 53248, .vocab = 128256, .max_context = 131072,
	.params_total = 405e9, .params_active = 405e9,
};

/* Memory bandwidth and dense tensor TFLOPS from the vendors' datasheets:
 * RTX 4090 1008 GB/s, 165.2 FP16 (FP32 accumulate), 330.3 FP8 (Ada
 * whitepaper); RTX 3090 Ti 1008 GB/s, 160 FP16; A100 80GB PCIe 1935 GB/s,
 * 312 FP16, no FP8; H100 SXM 3350 GB/s, 989.4 FP16, 1978.9 FP8. */
static const struct gpu_spec rtx4090 = {
	.name = "RTX 4090", .vram_gib = 23.99, .bandwidth_gbs = 1008, .fp16_tflops = 165.2,
	.fp8_tflops = 330.3,
};
static const struct gpu_spec a100_pcie = {
	.name = "A100 80GB PCIe", .vram_gib = 80, .bandwidth_gbs = 1935, .fp16_tflops = 312,
};
static const struct gpu_spec h100 = {
	.name = "H100 SXM", .vram_gib = 79.6, .bandwidth_gbs = 3350, .fp16_tflops = 989.4,
	.fp8_tflops = 1978.9,
};

static struct speed_est est(const struct model_spec *m, const char *precision,
			    const struct gpu_spec *gpu, int n, enum task task, long context,
			    int batch)
{
	const struct precision_info *p = precision_find(precision);
	ck_assert_ptr_nonnull(p);
	struct speed_est s;
	/* One engine for every precision, so that tests compare like with
	 * like: vLLM serving, transformers training; without vLLM's fixed cost
	 * per step, so that ratios of reads show as such (its own test below
	 * holds it). */
	struct engine e = *(task == TASK_INFERENCE ? engine_default() : engine_find("hf"));
	e.step_overhead_s = 0;
	speed_estimate(&e, m, p, gpu, n, task, context, batch, &s);
	return s;
}


/* llama-bench tg128: one stream, 128 tokens generated after an empty
 * prompt; context 128 charges the cache at its largest. */
static double tg128(const struct model_spec *m, const char *precision, const struct gpu_spec *g)
{
	return est(m, precision, g, 1, TASK_INFERENCE, 128, 1).stream_tps;
}

/* The single measurements this suite used to hold one by one (llama.cpp
 * tg128 and pp512 in llama.cpp#4766, #4812, #6017; MLC and ExLlama in
 * mlc-ai/llm-perf-bench) are rows of tests/calibration/measurements.tsv
 * now, held with the rest by tests/check_calibration.c per kind and
 * engine. */

START_TEST(decode_is_memory_bound_and_quantisation_speeds_it_up)
{
	double f16 = tg128(&llama2_7b, "fp16", &rtx4090);
	double q4 = tg128(&llama2_7b, "q4_0", &rtx4090);
	/* 16 / 4.5 bits: the weights are read ~3.5x faster */
	ck_assert(q4 / f16 > 3.0 && q4 / f16 < 3.6);
	/* and below the bandwidth roofline: eta < 1 */
	double roofline = 1008e9 / ((6.74e9 - 32000.0 * 4096) * 2);
	ck_assert(f16 < 0.9 * roofline);
	ck_assert(f16 > 0.4 * roofline);
}
END_TEST

START_TEST(mixtral_decode_reads_only_the_active_experts)
{
	double moe = tg128(&mixtral, "bf16", &h100);
	struct model_spec dense = mixtral;
	dense.experts = dense.experts_active = 0;
	dense.params_active = dense.params_total;
	double all = tg128(&dense, "bf16", &h100);
	/* (46.7 - 0.13) / (12.9 - 0.13) B streamed per token: ~3.6x faster,
	 * at the engine's share for MoE models */
	double r = moe / all / engine_default()->moe_eta;
	ck_assert_msg(r > 3.4 && r < 3.8, "ratio %.2f", r);
}
END_TEST

START_TEST(batching_shares_the_weight_read_until_compute_is_the_limit)
{
	struct speed_est one = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 2048, 1);
	struct speed_est many = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 2048, 32);
	struct speed_est huge = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 128, 4096);
	ck_assert_double_eq_tol(one.decode_tps, one.stream_tps, 1e-9);
	ck_assert(many.decode_tps > 15 * one.decode_tps);
	ck_assert(many.stream_tps < one.stream_tps);
	ck_assert_double_eq_tol(many.decode_tps, 32 * many.stream_tps, 1e-6);
	/* at 4096 streams the tensor cores, not memory, set the rate: the
	 * weights' 2 FLOPs per parameter, as a prompt pays them plus its
	 * attention (2 x 32 layers x 4096 x 128 tokens, 0.2 % more) */
	ck_assert(huge.prefill_tps < huge.decode_tps);
	ck_assert_double_eq_tol(huge.prefill_tps / huge.decode_tps, 1.0, 5e-3);
	/* KV of every stream is read each step: long contexts slow batches */
	struct speed_est longctx = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 32768, 32);
	ck_assert(longctx.decode_tps < 0.5 * many.decode_tps);
}
END_TEST

START_TEST(fp8_uses_fp8_tensor_cores_only_where_the_gpu_has_them)
{
	struct speed_est bf = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 1024, 1);
	struct speed_est f8 = est(&llama31_8b, "fp8", &h100, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(f8.prefill_tps / bf.prefill_tps, 2.0, 1e-3);
	struct speed_est a = est(&llama31_8b, "fp8", &a100_pcie, 1, TASK_INFERENCE, 1024, 1);
	struct speed_est b = est(&llama31_8b, "bf16", &a100_pcie, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(a.prefill_tps, b.prefill_tps, 1e-6);
	/* a weight-only 8-bit GGUF stays on FP16 math */
	struct speed_est q8 = est(&llama31_8b, "q8_0", &h100, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(q8.prefill_tps, bf.prefill_tps, 1e-6);
}
END_TEST

/* B200: 8000 GB/s, dense 2250 FP16 / 4500 FP8 / 9000 FP4 (NVIDIA's HGX
 * B200 table: 4.5 / 9 / 18 PFLOPS per GPU with sparsity, halved). */
static const struct gpu_spec b200 = {
    .name = "B200",
    .vram_gib = 179.06,
    .bandwidth_gbs = 8000,
    .fp16_tflops = 2250,
    .fp8_tflops = 4500,
    .fp4_tflops = 9000,
};

START_TEST(nvfp4_prefills_at_the_fp4_rate_of_a_b200_and_at_fp16_where_there_is_none)
{
	/* A 1024-token prompt is compute-bound: the FP4 rate is twice FP8's
	 * and four times BF16's on a B200. */
	struct speed_est bf = est(&llama31_8b, "bf16", &b200, 1, TASK_INFERENCE, 1024, 1);
	struct speed_est f8 = est(&llama31_8b, "fp8", &b200, 1, TASK_INFERENCE, 1024, 1);
	struct speed_est f4 = est(&llama31_8b, "nvfp4", &b200, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(f4.prefill_tps / f8.prefill_tps, 2.0, 1e-3);
	ck_assert_double_eq_tol(f4.prefill_tps / bf.prefill_tps, 4.0, 1e-3);
	/* MXFP4 too; an H100 has no FP4 tensor cores, so NVFP4 runs
	 * weight-only at its BF16 rate there. */
	struct speed_est mx = est(&llama31_8b, "mxfp4", &b200, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(mx.prefill_tps / bf.prefill_tps, 4.0, 1e-3);
	struct speed_est hf4 = est(&llama31_8b, "nvfp4", &h100, 1, TASK_INFERENCE, 1024, 1);
	struct speed_est hbf = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 1024, 1);
	ck_assert_double_eq_tol(hf4.prefill_tps, hbf.prefill_tps, 1e-6);
	/* and decode reads 4.5 bits a weight (one E4M3 scale per 16) beside
	 * the 16-bit lm_head, faster than FP8's 8 */
	ck_assert_double_gt(f4.stream_tps, f8.stream_tps * 1.4);
	/* llama.cpp expands its weights to FP16 first: no FP4 rate for it */
	struct gpu_spec no_fp4 = b200;
	no_fp4.fp4_tflops = 0;
	const struct engine *lc = engine_find("llama.cpp");
	struct speed_est a, b;
	speed_estimate(lc, &llama31_8b, precision_find("mxfp4"), &b200, 1, TASK_INFERENCE, 1024, 1,
	               &a);
	speed_estimate(lc, &llama31_8b, precision_find("mxfp4"), &no_fp4, 1, TASK_INFERENCE, 1024,
	               1, &b);
	ck_assert_double_eq_tol(a.prefill_tps, b.prefill_tps, 1e-6);
}
END_TEST

START_TEST(tensor_parallel_over_two_gpus_is_faster_but_less_than_twice)
{
	struct speed_est one = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 4096, 1);
	struct speed_est two = est(&llama31_8b, "bf16", &h100, 2, TASK_INFERENCE, 4096, 1);
	double r = two.stream_tps / one.stream_tps;
	ck_assert_msg(r > 1.5 && r < 2.0, "ratio %.2f", r);
}
END_TEST

START_TEST(full_training_of_llama_3_405b_reaches_the_published_tflops_per_gpu)
{
	/* Llama 3 405B pre-training: 380-430 BF16 TFLOPS per H100, 38-43 % MFU
	 * ("The Llama 3 Herd of Models", 2024, table 4). Tokens/s x 6 x params
	 * per GPU must land in that band, +-10 %. */
	struct speed_est s = est(&llama31_405b, "bf16", &h100, 8, TASK_FINETUNE_FULL, 8192, 1);
	double tflops = s.train_tps * 6 * 405e9 / 8 / 1e12;
	ck_assert_msg(tflops > 380 * 0.9 && tflops < 430 * 1.1, "%.0f TFLOPS/GPU", tflops);
}
END_TEST

START_TEST(lora_trains_one_and_a_half_times_faster_than_a_full_fine_tune)
{
	/* 6 vs 4 FLOPs per parameter per token (frozen base: no weight grads) */
	struct speed_est full = est(&llama31_8b, "bf16", &h100, 1, TASK_FINETUNE_FULL, 2048, 4);
	struct speed_est lora = est(&llama31_8b, "bf16", &h100, 1, TASK_FINETUNE_LORA, 2048, 4);
	struct speed_est qlora = est(&llama31_8b, "nf4", &h100, 1, TASK_FINETUNE_QLORA, 2048, 4);
	ck_assert_double_eq_tol(lora.train_tps / full.train_tps, 1.5, 1e-9);
	ck_assert_double_eq_tol(qlora.train_tps, lora.train_tps, 1e-6);
	struct speed_est inf = est(&llama31_8b, "bf16", &h100, 1, TASK_INFERENCE, 2048, 4);
	ck_assert_double_eq_tol(inf.train_tps, 0.0, 1e-12);
}
END_TEST

START_TEST(hours_for_tokens_add_prefill_and_decode_time)
{
	struct speed_est s = { .decode_tps = 100, .stream_tps = 25, .prefill_tps = 1000,
			       .train_tps = 50 };
	/* 3.6 M input at 1000/s = 1 h; 360 k output at 100/s = 1 h */
	ck_assert_double_eq_tol(speed_hours_for_tokens(&s, TASK_INFERENCE, 3.6e6, 3.6e5), 2.0,
				1e-12);
	/* fine-tuning: all 180 k tokens at 50/s = 1 h */
	ck_assert_double_eq_tol(speed_hours_for_tokens(&s, TASK_FINETUNE_LORA, 9e4, 9e4), 1.0,
				1e-12);
	ck_assert_double_eq_tol(speed_hours_for_tokens(&s, TASK_INFERENCE, 0, 0), 0.0, 1e-12);
	struct speed_est none = { 0 };
	ck_assert(isinf(speed_hours_for_tokens(&none, TASK_INFERENCE, 1, 0)));
	ck_assert_double_eq_tol(speed_hours_for_tokens(&none, TASK_FINETUNE_FULL, 0, 0), 0.0,
				1e-12);
}
END_TEST

START_TEST(hours_for_tokens_of_a_real_estimate_are_reproducible_by_hand)
{
	struct speed_est s = est(&llama31_8b, "q4_k_m", &rtx4090, 1, TASK_INFERENCE, 4096, 1);
	double h = speed_hours_for_tokens(&s, TASK_INFERENCE, 50e6, 10e6);
	ck_assert_double_eq_tol(h, (50e6 / s.prefill_tps + 10e6 / s.decode_tps) / 3600, 1e-9);
}
END_TEST

/* llama.cpp prefill, one GPU (engines.c LLAMA_CPP_COMPUTE_*): an RTX 4090
 * as its datasheet gives it, 165.2 TFLOPS FP16 with FP32 accumulate and
 * 660.6 INT8 TOPS (Ada whitepaper). */
static const struct gpu_spec rtx4090_int8 = {
	.name = "RTX 4090", .vram_gib = 23.99, .bandwidth_gbs = 1008, .fp16_tflops = 165.2,
	.fp8_tflops = 330.3, .int8_tops = 660.6,
};

static struct speed_est prompt(const struct engine *e, const char *precision,
                               const struct gpu_spec *g, int n, double tokens)
{
	struct speed_job j = {.task = TASK_INFERENCE, .batch = 1, .input_tokens = tokens};
	struct speed_est s;
	speed_estimate_job(e, &llama31_8b, precision_find(precision), g, n, &j, &s);
	return s;
}

START_TEST(llama_cpp_prefill_runs_at_the_fp16_accumulate_rate)
{
	/* cuBLAS with CUBLAS_COMPUTE_16F: half the INT8 rate, 330.3 on a
	 * GeForce 4090, twice the 165.2 an FP32-accumulating engine gets */
	struct engine e = *engine_find("llama.cpp");
	double fast = prompt(&e, "fp16", &rtx4090_int8, 1, 512).prefill_tps;
	e.fp16_accumulate = false;
	double slow = prompt(&e, "fp16", &rtx4090_int8, 1, 512).prefill_tps;
	ck_assert_double_eq_tol(fast / slow, 330.3 / 165.2, 1e-3);
	/* a card without an INT8 figure keeps its FP16 rate */
	e.fp16_accumulate = true;
	double plain = prompt(&e, "fp16", &rtx4090, 1, 512).prefill_tps;
	ck_assert_double_eq_tol(plain, slow, 1e-6);
}
END_TEST

START_TEST(quantised_weights_pay_their_fp16_expansion_once_per_micro_batch)
{
	const struct engine *e = engine_find("llama.cpp");
	double f16 = prompt(e, "fp16", &rtx4090_int8, 1, 1024).prefill_tps;
	double q4 = prompt(e, "q4_k_m", &rtx4090_int8, 1, 1024).prefill_tps;
	/* 7.50 B streamed weights (8.03 B less the 0.53 B input embedding):
	 * 4.89 bits read and 16 written per weight at 1008 GB/s, over 512
	 * tokens */
	double streamed = 8.03e9 - 128256.0 * 4096;
	double pass = streamed * (4.89 / 8 + 2) / (1008e9 * 512);
	ck_assert_double_eq_tol(1 / q4 - 1 / f16, pass, 1e-9);
	/* a prompt shorter than a micro-batch pays it over its own tokens */
	double f16s = prompt(e, "fp16", &rtx4090_int8, 1, 128).prefill_tps;
	double q4s = prompt(e, "q4_k_m", &rtx4090_int8, 1, 128).prefill_tps;
	ck_assert_double_eq_tol(1 / q4s - 1 / f16s, pass * 4, 1e-9);
	/* an engine that multiplies quantised weights directly does not */
	const struct engine *v = engine_find("vllm");
	ck_assert_double_eq_tol(prompt(v, "awq", &rtx4090_int8, 1, 1024).prefill_tps,
	                        prompt(v, "fp16", &rtx4090_int8, 1, 1024).prefill_tps, 1e-6);
}
END_TEST

START_TEST(long_prompts_pay_the_attention_flops)
{
	/* 2 N FLOPs per token for the weights, plus 4 x layers x heads x
	 * head_dim x N/2 for attention (PaLM appendix B, causal) */
	const struct engine *v = engine_find("vllm");
	double short_ = prompt(v, "bf16", &h100, 1, 512).prefill_tps;
	double long_ = prompt(v, "bf16", &h100, 1, 32768).prefill_tps;
	double weights = 2 * (8.03e9 - 128256.0 * 4096);
	double attn = 4.0 * 32 * 32 * 128;
	ck_assert_double_eq_tol(short_ / long_, (weights + attn * 16384) / (weights + attn * 256),
	                        1e-9);
	ck_assert(long_ < 0.75 * short_);
}
END_TEST

START_TEST(a_layer_split_pipelines_the_micro_batches_of_a_prompt)
{
	/* k micro-batches of 512 through n GPUs: k n / (k + n - 1) */
	const struct engine *e = engine_find("llama.cpp");
	double one = prompt(e, "fp16", &h100, 1, 1024).prefill_tps;
	ck_assert_double_eq_tol(prompt(e, "fp16", &h100, 4, 1024).prefill_tps / one, 8.0 / 5,
	                        1e-9);
	/* one micro-batch has nothing to overlap */
	double one_s = prompt(e, "fp16", &h100, 1, 512).prefill_tps;
	ck_assert_double_eq_tol(prompt(e, "fp16", &h100, 4, 512).prefill_tps / one_s, 1.0, 1e-9);
	/* a logical batch holds at most 2048 / 512 = 4 micro-batches */
	double one_l = prompt(e, "fp16", &h100, 1, 8192).prefill_tps;
	ck_assert_double_eq_tol(prompt(e, "fp16", &h100, 8, 8192).prefill_tps / one_l,
	                        4.0 * 8 / 11, 1e-9);
}
END_TEST

/* openai/gpt-oss-120b config.json: every other layer a 128-token window. */
static const struct model_spec gpt_oss_120b = {
	.id = "gpt-oss-120b", .layers = 36, .hidden = 2880, .heads = 64, .kv_heads = 8,
	.head_dim = 64, .intermediate = 2880, .vocab = 201088, .max_context = 131072,
	.experts = 128, .experts_active = 4, .sliding_window = 128, .sliding_layers = 18,
	.params_total = 116.8e9, .params_active = 5.1e9,
};

/* deepseek-ai/DeepSeek-V3 config.json: MLA, kv_lora_rank 512 + rope 64. */
static const struct model_spec deepseek_v3 = {
	.id = "deepseek-v3", .layers = 61, .hidden = 7168, .heads = 128, .kv_heads = 128,
	.head_dim = 128, .intermediate = 18432, .vocab = 129280, .max_context = 163840,
	.experts = 256, .experts_active = 8, .moe_intermediate = 2048, .shared_experts = 1,
	.first_dense = 3, .kv_lora_rank = 512, .rope_head_dim = 64,
	.params_total = 671e9, .params_active = 37e9,
};

/* Prompt tokens per second of m under vLLM on one H100. */
static double prompt_of(const struct model_spec *m, double tokens)
{
	struct speed_job j = {.task = TASK_INFERENCE, .batch = 1, .input_tokens = tokens};
	struct speed_est s;
	speed_estimate_job(engine_find("vllm"), m, precision_find("bf16"), &h100, 1, &j, &s);
	ck_assert(s.prefill_tps > 0);
	return s.prefill_tps;
}

/* Seconds one decode step of one stream takes, attending to `attended`,
 * without the engine's floor of CPU work per step or its MoE share (so
 * that what a step reads shows in full). */
static double step_seconds(const struct model_spec *m, const char *precision, int n,
			   double attended)
{
	struct speed_est s;
	struct engine e = *engine_default();
	e.step_overhead_s = 0;
	e.moe_eta = 1;
	speed_estimate_kv(&e, m, precision_find(precision), &h100, n, TASK_INFERENCE, attended, 0,
	                  1, &s);
	ck_assert(s.decode_tps > 0);
	return 1.0 / s.decode_tps;
}

START_TEST(decode_reads_a_sliding_layer_only_up_to_its_window)
{
	/* At 100k attended tokens a step reads the full layers' 100k and the
	 * sliding layers' 128: what the cache holds (vram_kv_bytes), not 36
	 * layers of 100k. The step time grows by exactly those bytes over the
	 * engine's bandwidth. */
	const struct engine *e = engine_default();
	double bw = h100.bandwidth_gbs * 1e9 * e->decode_eta[MEM_HBM];
	double grow = step_seconds(&gpt_oss_120b, "bf16", 1, 100000) -
		      step_seconds(&gpt_oss_120b, "bf16", 1, 1000);
	double bytes = vram_kv_bytes(e, &gpt_oss_120b, 100000, 0) -
		       vram_kv_bytes(e, &gpt_oss_120b, 1000, 0);
	ck_assert_msg(fabs(grow / (bytes / bw) - 1) < 1e-6, "%g s, want %g", grow, bytes / bw);
	/* 18 full layers of 2048 bytes a token: 99000 more tokens */
	ck_assert_double_eq_tol(bytes, 18 * 2048.0 * 99000, 1e-3);
	struct model_spec full = gpt_oss_120b;
	full.sliding_layers = full.sliding_window = 0;
	ck_assert(step_seconds(&full, "bf16", 1, 100000) >
		  step_seconds(&gpt_oss_120b, "bf16", 1, 100000) * 1.2);
}
END_TEST

START_TEST(every_tensor_parallel_gpu_reads_the_whole_mla_cache)
{
	/* Over 8 GPUs each reads its eighth of the weights but all of the
	 * latent cache, so the KV part of a step costs 8 times its bytes over
	 * the 8 GPUs' bandwidth. */
	const struct engine *e = engine_default();
	double bw8 = h100.bandwidth_gbs * 1e9 * e->decode_eta[MEM_HBM] * 8 *
		     e->tp_efficiency[MEM_HBM];
	double grow = step_seconds(&deepseek_v3, "fp8", 8, 65536) -
		      step_seconds(&deepseek_v3, "fp8", 8, 1024);
	double bytes = vram_kv_bytes(e, &deepseek_v3, 65536, 0) -
		       vram_kv_bytes(e, &deepseek_v3, 1024, 0);
	ck_assert_msg(fabs(grow / (8 * bytes / bw8) - 1) < 1e-6, "%g s, want %g", grow,
		      8 * bytes / bw8);
}
END_TEST

START_TEST(a_sliding_layer_attends_to_its_window_when_a_prompt_is_read)
{
	/* gpt-oss-120b: 18 full layers attend to half the prompt, the 18
	 * sliding ones to at most their 128 tokens, so going from a 512- to
	 * a 32768-token prompt adds half the attention time it would add if
	 * every layer were full. */
	/* Its dense part only: a prompt step of 128 experts' weights would be
	 * bound by their reads, not by the attention FLOPs this is about. */
	struct model_spec swa = gpt_oss_120b;
	swa.experts = swa.experts_active = 0;
	swa.params_total = swa.params_active;
	struct model_spec full = swa;
	full.sliding_layers = full.sliding_window = 0;
	double grow_swa = 1 / prompt_of(&swa, 32768) - 1 / prompt_of(&swa, 512);
	double grow_full = 1 / prompt_of(&full, 32768) - 1 / prompt_of(&full, 512);
	ck_assert_double_eq_tol(grow_swa / grow_full, 0.5, 1e-9);
}
END_TEST

/* Qwen/Qwen3-235B-A22B and Qwen/Qwen3-30B-A3B config.json: 128 routed
 * experts, 8 per token, no shared expert; 235 B / 22 B and 30.5 B / 3.3 B
 * parameters per the model cards. */
static const struct model_spec qwen3_235b = {
    .id = "qwen3-235b-a22b",
    .layers = 94,
    .hidden = 4096,
    .heads = 64,
    .kv_heads = 4,
    .head_dim = 128,
    .intermediate = 12288,
    .vocab = 151936,
    .max_context = 40960,
    .experts = 128,
    .experts_active = 8,
    .moe_intermediate = 1536,
    .params_total = 235e9,
    .params_active = 22e9,
};
static const struct model_spec qwen3_30b = {
    .id = "qwen3-30b-a3b",
    .layers = 48,
    .hidden = 2048,
    .heads = 32,
    .kv_heads = 4,
    .head_dim = 128,
    .intermediate = 6144,
    .vocab = 151936,
    .max_context = 40960,
    .experts = 128,
    .experts_active = 8,
    .moe_intermediate = 768,
    .params_total = 30.5e9,
    .params_active = 3.3e9,
};

/* vLLM with neither a compute limit, a floor per step nor an MoE share: a
 * decode step's time is what it reads over the bandwidth. */
static struct engine reads_only(void)
{
	struct engine e = *engine_default();
	e.step_overhead_s = 0;
	e.moe_eta = 1;
	e.compute_eta[MEM_GDDR] = e.compute_eta[MEM_HBM] = 1e6;
	return e;
}

/* Bytes one decode step of `batch` streams reads, with no KV cache. */
static double step_bytes(const struct engine *e, const struct model_spec *m, const char *precision,
                         int batch)
{
	struct speed_est s;
	speed_estimate_kv(e, m, precision_find(precision), &h100, 1, TASK_INFERENCE, 0, 0, batch,
	                  &s);
	ck_assert(s.decode_tps > 0);
	return batch / s.decode_tps * h100.bandwidth_gbs * 1e9 * e->decode_eta[MEM_HBM];
}

START_TEST(an_moe_decode_step_at_batch_256_reads_nearly_every_expert)
{
	/* One token reads its 8 experts a layer; 256 tokens routed to 8 of
	 * 128 each miss an expert with probability (120/128)^256 = 7e-8. */
	ck_assert_double_eq_tol(speed_experts_touched(&qwen3_235b, 1), 8, 1e-12);
	double e256 = speed_experts_touched(&qwen3_235b, 256);
	ck_assert_double_eq_tol(e256, 128 * (1 - pow(120.0 / 128, 256)), 1e-9);
	ck_assert(e256 > 127.99);
	ck_assert_double_eq_tol(speed_experts_touched(&llama31_8b, 256), 0, 1e-12);
	/* So the step's weights grow from the active parameters to all of
	 * them (less the input embedding a step only looks up): one expert
	 * over the 94 layers is (235 - 22) / 120 B. */
	struct engine e = reads_only();
	double embed = 151936.0 * 4096;
	double expert = (235e9 - 22e9) / 120;
	ck_assert_double_eq_tol(step_bytes(&e, &qwen3_235b, "bf16", 1) / ((22e9 - embed) * 2), 1,
	                        1e-9);
	double all = (22e9 - embed + expert * (e256 - 8)) * 2;
	ck_assert_double_eq_tol(step_bytes(&e, &qwen3_235b, "bf16", 256) / all, 1, 1e-9);
	ck_assert(all > 0.999 * (235e9 - embed) * 2);
	/* A dense model's step reads the same weights at any batch */
	ck_assert_double_eq_tol(step_bytes(&e, &llama31_8b, "bf16", 256) /
	                            step_bytes(&e, &llama31_8b, "bf16", 1),
	                        1, 1e-9);
}
END_TEST

START_TEST(an_moe_prompt_step_reads_every_expert_its_tokens_touch)
{
	/* A 2048-token prefill chunk of Qwen3-235B touches all 128 experts:
	 * 470 GB in bf16 over one H100's decode read rate is 0.114 ms a
	 * token, more than its 22 B active parameters' FLOPs take at half
	 * the tensor rate (0.089 ms), both at the engine's MoE share. */
	struct speed_job j = {.task = TASK_INFERENCE, .batch = 1, .input_tokens = 2048};
	struct speed_est s;
	const struct engine *e = engine_find("vllm");
	speed_estimate_job(e, &qwen3_235b, precision_find("bf16"), &h100, 1, &j, &s);
	double embed = 151936.0 * 4096;
	double expert = (235e9 - 22e9) / 120;
	double bytes = (22e9 - embed + expert * (speed_experts_touched(&qwen3_235b, 2048) - 8)) * 2;
	double read =
	    bytes / (h100.bandwidth_gbs * 1e9 * e->decode_eta[MEM_HBM] * e->moe_eta * 2048);
	ck_assert_double_eq_tol(1 / s.prefill_tps / read, 1, 1e-9);
}
END_TEST

/* meta-llama/Llama-3.2-1B config.json: tied embeddings, 1.24 B. */
static const struct model_spec llama32_1b = {
    .id = "llama-3.2-1b",
    .layers = 16,
    .hidden = 2048,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 64,
    .intermediate = 8192,
    .vocab = 128256,
    .max_context = 131072,
    .tied_embeddings = true,
    .params_total = 1.24e9,
    .params_active = 1.24e9,
};

START_TEST(a_decode_step_pays_the_engines_fixed_cost_on_top_of_its_reads)
{
	/* vLLM's 4 ms of scheduling and sampling per step
	 * (vllm-project/vllm#6854) come on top of what a step reads: a 1B in
	 * bf16 reads 2.48 GB in 1.2 ms on an H100, so 190 tokens/s, not 800;
	 * an 8B's 8 ms step becomes 12 ms */
	const struct engine *e = engine_find("vllm");
	ck_assert(e->step_overhead_s > 0);
	struct engine none = *e;
	none.step_overhead_s = 0;
	const struct model_spec *models[] = {&llama32_1b, &llama31_8b};
	for (int i = 0; i < 2; i++) {
		struct speed_est with, without;
		speed_estimate(e, models[i], precision_find("bf16"), &h100, 1, TASK_INFERENCE, 512,
		               1, &with);
		speed_estimate(&none, models[i], precision_find("bf16"), &h100, 1, TASK_INFERENCE,
		               512, 1, &without);
		ck_assert_double_eq_tol(1 / with.decode_tps,
		                        1 / without.decode_tps + e->step_overhead_s, 1e-12);
	}
	/* llama.cpp's fitted eta holds its per-token cost already */
	ck_assert_double_eq_tol(engine_find("llama.cpp")->step_overhead_s, 0, 1e-12);
}
END_TEST

START_TEST(a_named_awq_checkpoint_decodes_its_lm_head_at_16_bits)
{
	/* AWQ quantises the blocks' linear layers; Llama-3.1-8B's 0.525 B
	 * lm_head is read at 2 bytes every step, the input embedding only
	 * looked up */
	struct engine e = reads_only();
	double head = 128256.0 * 4096;
	double want = head * 2 + (8.03e9 - 2 * head) * 4.25 / 8;
	ck_assert_double_eq_tol(step_bytes(&e, &llama31_8b, "awq", 1) / want, 1, 1e-9);
	ck_assert_double_eq_tol(step_bytes(&e, &llama31_8b, "fp8", 1) / (head * 2 + 8.03e9 - 2 * head),
	                        1, 1e-9);
	/* a GGUF file is re-quantised whole by its recipe */
	ck_assert_double_eq_tol(step_bytes(&e, &llama31_8b, "q4_k_m", 1) /
	                            ((8.03e9 - head) * 4.89 / 8),
	                        1, 1e-9);
}
END_TEST

/* Training tokens/s of m on one H100 under hf at `precision`. */
static double train_tps(const struct model_spec *m, const char *precision, enum task task, long seq,
                        int micro_batch)
{
	struct speed_job j = {
	    .task = task, .context = seq, .batch = micro_batch, .micro_batch = micro_batch};
	struct speed_est s;
	speed_estimate_job(engine_find("hf"), m, precision_find(precision), &h100, 1, &j, &s);
	ck_assert(s.train_tps > 0);
	return s.train_tps;
}

START_TEST(fp8_full_fine_tuning_runs_at_its_measured_share_of_the_fp8_rate)
{
	/* llm-foundry MPT-1B on H100: 29.06 % of the FP8 peak in amp_fp8,
	 * 41.82 % of the BF16 peak in amp_bf16: 1.39x the BF16 rate */
	double bf16 = train_tps(&llama31_8b, "bf16", TASK_FINETUNE_FULL, 2048, 1);
	double fp8 = train_tps(&llama31_8b, "fp8", TASK_FINETUNE_FULL, 2048, 1);
	ck_assert_double_eq_tol(fp8 / bf16, 1978.9 / 989.4 * 0.2906 / 0.4182, 1e-9);
	/* LoRA on an fp8 base trains its adapters in bf16 as before */
	ck_assert_double_eq_tol(train_tps(&llama31_8b, "fp8", TASK_FINETUNE_LORA, 2048, 1) /
	                            train_tps(&llama31_8b, "bf16", TASK_FINETUNE_LORA, 2048, 1),
	                        1, 1e-9);
}
END_TEST

START_TEST(fine_grained_moe_trains_at_a_fraction_of_dense_efficiency)
{
	/* Megatron-Bridge 25.11 on DGX-H100: Qwen3-30B-A3B at micro-batch 2
	 * of 4096 tokens reaches 121 model TFLOP/s per GPU where dense
	 * Llama3-8B reaches 744 (0.163); planner is held within 25 % */
	struct model_spec dense = qwen3_30b;
	dense.experts = dense.experts_active = 0;
	double share = train_tps(&qwen3_30b, "bf16", TASK_FINETUNE_FULL, 4096, 2) /
	               train_tps(&dense, "bf16", TASK_FINETUNE_FULL, 4096, 2);
	ck_assert_msg(fabs(share / (121.0 / 744) - 1) < 0.25, "share %.3f", share);
	/* smaller micro-batches give each expert smaller GEMMs */
	double one = train_tps(&qwen3_30b, "bf16", TASK_FINETUNE_FULL, 2048, 1) /
	             train_tps(&dense, "bf16", TASK_FINETUNE_FULL, 2048, 1);
	ck_assert(one < share / 2);
	/* Mixtral's 8 wide experts, 2 a token, train near a dense model */
	struct model_spec mixtral_dense = mixtral;
	mixtral_dense.experts = mixtral_dense.experts_active = 0;
	double wide = train_tps(&mixtral, "bf16", TASK_FINETUNE_FULL, 4096, 1) /
	              train_tps(&mixtral_dense, "bf16", TASK_FINETUNE_FULL, 4096, 1);
	ck_assert_msg(wide > 0.9, "share %.3f", wide);
}
END_TEST

Suite *speed_suite(void)
{
	Suite *s = suite_create("speed");
	TCase *cal = tcase_create("calibration");
	tcase_add_test(cal, full_training_of_llama_3_405b_reaches_the_published_tflops_per_gpu);
	suite_add_tcase(s, cal);

	TCase *tc = tcase_create("model");
	tcase_add_test(tc, decode_is_memory_bound_and_quantisation_speeds_it_up);
	tcase_add_test(tc, mixtral_decode_reads_only_the_active_experts);
	tcase_add_test(tc, batching_shares_the_weight_read_until_compute_is_the_limit);
	tcase_add_test(tc, fp8_uses_fp8_tensor_cores_only_where_the_gpu_has_them);
	tcase_add_test(tc,
	               nvfp4_prefills_at_the_fp4_rate_of_a_b200_and_at_fp16_where_there_is_none);
	tcase_add_test(tc, tensor_parallel_over_two_gpus_is_faster_but_less_than_twice);
	tcase_add_test(tc, lora_trains_one_and_a_half_times_faster_than_a_full_fine_tune);
	tcase_add_test(tc, llama_cpp_prefill_runs_at_the_fp16_accumulate_rate);
	tcase_add_test(tc, quantised_weights_pay_their_fp16_expansion_once_per_micro_batch);
	tcase_add_test(tc, long_prompts_pay_the_attention_flops);
	tcase_add_test(tc, a_layer_split_pipelines_the_micro_batches_of_a_prompt);
	tcase_add_test(tc, hours_for_tokens_add_prefill_and_decode_time);
	tcase_add_test(tc, hours_for_tokens_of_a_real_estimate_are_reproducible_by_hand);
	tcase_add_test(tc, decode_reads_a_sliding_layer_only_up_to_its_window);
	tcase_add_test(tc, every_tensor_parallel_gpu_reads_the_whole_mla_cache);
	tcase_add_test(tc, a_sliding_layer_attends_to_its_window_when_a_prompt_is_read);
	tcase_add_test(tc, an_moe_decode_step_at_batch_256_reads_nearly_every_expert);
	tcase_add_test(tc, an_moe_prompt_step_reads_every_expert_its_tokens_touch);
	tcase_add_test(tc, a_decode_step_pays_the_engines_fixed_cost_on_top_of_its_reads);
	tcase_add_test(tc, a_named_awq_checkpoint_decodes_its_lm_head_at_16_bits);
	tcase_add_test(tc, fp8_full_fine_tuning_runs_at_its_measured_share_of_the_fp8_rate);
	tcase_add_test(tc, fine_grained_moe_trains_at_a_fraction_of_dense_efficiency);
	suite_add_tcase(s, tc);
	return s;
}
