/* speed.c — tokens per second of a GPU configuration (ESTIMATION.md,
 * "Speed").
 *
 * Decode is memory-bound: every step streams the active weights and the KV
 * cache once, so a step takes bytes / (eta x bandwidth). Batching shares
 * the weight read across streams until 2 FLOPs per active parameter per
 * token meet the tensor cores' limit. Prefill and training are
 * compute-bound.
 *
 * Calibration (tests/check_speed.c holds the estimator to each figure).
 * llama.cpp llama-bench tg128, one stream, 6.74 B-parameter Llama-2-7B
 * (codellama-7b), bytes read per token = weights less the embedding table:
 *
 *   GPU (GB/s)            format  measured   eta      source
 *   RTX 4090 (1008)       F16     61.03 t/s  0.80     ggml-org/llama.cpp#4766, 2024-01-10
 *   RTX 4090 (1008)       Q8_0    98.13 t/s  0.68     ggml-org/llama.cpp#4766, 2024-01-10
 *   RTX 3090 Ti (1008)    Q4_0   127.43 t/s  0.47     ggml-org/llama.cpp#4812, 2024-01-07
 *   A100 80GB PCIe (1935) F16     74.77 t/s  0.51     ggml-org/llama.cpp#6017, 2024-03-12
 *
 * and, other engines on the same model at 4-bit, RTX 4090: MLC-LLM 191.0
 * t/s (eta 0.70), ExLlama 152.56 t/s (eta 0.53) (mlc-ai/llm-perf-bench#1,
 * 2023-08-05). One eta of 0.62 puts all six within +-35 %. */
#include "speed.h"

#include <math.h>

/* Fraction of peak memory bandwidth a decode step achieves (see the table
 * above: measured 0.47-0.80, geometric mean ~0.61). */
#define DECODE_ETA 0.62

/* Fraction of dense tensor TFLOPS reached by prefill and by large-batch
 * decode. llama-bench pp512, Llama-2-7B F16: RTX 4090 11048 t/s = 0.88 of
 * 165.2 TFLOPS (llama.cpp#4766, 2024-01-10); A100 80GB PCIe 8668 t/s = 0.37
 * of 312 TFLOPS (llama.cpp#6017, 2024-03-12). 0.5 sits between. */
#define COMPUTE_ETA 0.50

/* Model FLOPs utilisation of training. Llama 3 405B pre-training on H100
 * reached 38-43 % BF16 MFU (380-430 TFLOPS per GPU; "The Llama 3 Herd of
 * Models", 2024, table 4). MFU is measured on multi-GPU jobs, so it already
 * pays for communication and no tensor-parallel factor is applied on top. */
#define TRAIN_MFU 0.40

/* Tensor parallelism over n > 1 GPUs splits every matrix, so bandwidth and
 * FLOPS add up, but each layer then waits on two all-reduces (Megatron-LM,
 * Shoeybi et al. 2019) whose latency does not shrink with n. At decode
 * batch sizes those take on the order of a tenth or more of a step over
 * NVLink; we charge 15 %. */
#define TP_EFFICIENCY 0.85

/* FLOPs per parameter per token: forward 2 (one multiply-add); training 6
 * (forward 2 + backward 4, Kaplan et al. 2020). LoRA and QLoRA skip the
 * weight gradients of the frozen base (2 of the backward 4) and keep the
 * activation gradients that reach the adapters: 4. Adapter FLOPs (~1 %)
 * are neglected. */
#define FWD_FLOPS_PER_PARAM 2.0
#define FULL_TRAIN_FLOPS_PER_PARAM 6.0
#define LORA_TRAIN_FLOPS_PER_PARAM 4.0

/* Parameters a decode step streams from memory: the active ones, less the
 * input embedding table when it is separate from the output head, because
 * a step reads one row of it, not all of it. */
static double streamed_params(const struct model_spec *m)
{
	double p = m->params_active > 0 ? m->params_active : m->params_total;
	if (!m->tied_embeddings && m->vocab > 0 && m->hidden > 0) {
		double embed = (double)m->vocab * m->hidden;
		if (embed < p)
			p -= embed;
	}
	return p;
}

/* Parameters that do matrix work per token (same reasoning: a lookup is
 * no FLOPs). */
static double flop_params(const struct model_spec *m)
{
	return streamed_params(m);
}

/* Dense tensor throughput for the precision, in FLOP/s. Weight-only
 * quantisations (GGUF, AWQ, NF4) dequantise and multiply in 16 bits. */
static double dense_flops(const struct gpu_spec *gpu, const struct precision_info *p)
{
	if (p->fp8_compute && gpu->fp8_tflops > 0)
		return gpu->fp8_tflops * 1e12;
	if (p->int8_compute && gpu->int8_tops > 0)
		return gpu->int8_tops * 1e12;
	return gpu->fp16_tflops * 1e12;
}

static double tp_factor(int n)
{
	return n > 1 ? n * TP_EFFICIENCY : 1.0;
}

void speed_estimate(const struct model_spec *m, const struct precision_info *p,
		    const struct gpu_spec *gpu, int n, enum task task, long context, int batch,
		    struct speed_est *out)
{
	out->decode_tps = out->stream_tps = out->prefill_tps = out->train_tps = 0.0;
	if (n < 1)
		n = 1;
	int b = batch > 0 ? batch : 1;
	double ctx = context > 0 ? (double)context : 0.0;
	double params = flop_params(m);
	if (params <= 0)
		return;

	double bw = gpu->bandwidth_gbs * 1e9 * DECODE_ETA * tp_factor(n);
	double flops = dense_flops(gpu, p) * COMPUTE_ETA * tp_factor(n);

	/* One step reads the weights once for all b streams, and each
	 * stream's KV cache. The KV is charged at the full context: a
	 * conservative bound for long prompts with short answers. */
	double weight_bytes = streamed_params(m) * p->bits_per_weight / 8.0;
	double kv_bytes = vram_kv_bytes_per_token(m) * ctx;
	double mem_tps = bw > 0 ? b * bw / (weight_bytes + b * kv_bytes) : 0.0;
	double compute_tps = flops / (FWD_FLOPS_PER_PARAM * params);
	out->decode_tps = fmin(mem_tps, compute_tps);
	out->stream_tps = out->decode_tps / b;
	out->prefill_tps = compute_tps;

	if (task != TASK_INFERENCE) {
		double per_token = task == TASK_FINETUNE_FULL ? FULL_TRAIN_FLOPS_PER_PARAM
							      : LORA_TRAIN_FLOPS_PER_PARAM;
		/* Training multiplies in bf16 whatever the stored precision. */
		out->train_tps = TRAIN_MFU * gpu->fp16_tflops * 1e12 * n / (per_token * params);
	}
}

/* Seconds to push `tokens` through at `rate`; infinite when there is work
 * and no rate. */
static double seconds_for(double tokens, double rate)
{
	if (tokens <= 0)
		return 0.0;
	return rate > 0 ? tokens / rate : INFINITY;
}

double speed_hours_for_tokens(const struct speed_est *s, enum task task, double input_tokens,
			      double output_tokens)
{
	double seconds;
	if (task == TASK_INFERENCE)
		seconds = seconds_for(input_tokens, s->prefill_tps) +
			  seconds_for(output_tokens, s->decode_tps);
	else
		seconds = seconds_for(input_tokens + output_tokens, s->train_tps);
	return seconds / 3600.0;
}
