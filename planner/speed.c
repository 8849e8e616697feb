/* speed.c — tokens per second of a GPU configuration (docs/estimation.md,
 * "Speed").
 *
 * Decode is memory-bound: every step streams the active weights and the KV
 * cache once, so a step takes bytes / (eta x bandwidth). Batching shares
 * the weight read across streams until 2 FLOPs per active parameter per
 * token meet the tensor cores' limit. Prefill and training are
 * compute-bound.
 *
 * How close the engine gets to the card's bandwidth and FLOPS (decode eta,
 * prefill eta, training MFU, tensor-parallel efficiency) comes from its
 * profile; engines.c holds the figures and the measurements they are
 * calibrated on (tests/check_speed.c holds the estimator to each). */
#include "speed.h"

#include <math.h>

#include "local_device.h"
#include <string.h>

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

/* Dense tensor throughput of one GPU for the precision under engine e, in
 * FLOP/s. Weight-only quantisations (GGUF, AWQ, NF4) dequantise and
 * multiply in 16 bits. An engine that accumulates in FP16 gets the card's
 * FP16-accumulate rate, which on every NVIDIA tensor-core generation from
 * Turing to Blackwell is half the dense INT8 rate (Ampere GA102 and Ada
 * whitepapers: RTX 3090 142 FP16-accumulate / 284 INT8 TOPS, RTX 4090
 * 330.3 / 660.6; data-centre parts run FP32 accumulate at the same rate,
 * A100 312 / 624). GeForce cards halve the FP32-accumulate rate that
 * fp16_tflops holds (RTX 4090 165.2). device_from_gpu records that rule
 * as the device's fp16_acc_tflops. */
static double dense_flops(const struct engine *e, const struct device *d,
                          const struct precision_info *p)
{
	if (p->fp8_compute && d->fp8_tflops > 0)
		return d->fp8_tflops * 1e12;
	if (p->int8_compute && d->int8_tops > 0)
		return d->int8_tops * 1e12;
	if (e->fp16_accumulate && d->fp16_acc_tflops > d->fp16_tflops)
		return d->fp16_acc_tflops * 1e12;
	return d->fp16_tflops * 1e12;
}

/* Attention FLOPs per prompt token beyond the weights: QK^T and AV each
 * take 2 FLOPs per query dimension per attended key in every layer, 4 in
 * all (PaLM, Chowdhery et al. 2022, appendix B: 6N + 12LHQT for training,
 * a third of it forward); a causal prompt of N tokens attends to N/2 keys
 * on average. */
static double attention_flops(const struct model_spec *m, double prompt)
{
	if (prompt <= 0 || m->layers <= 0 || m->heads <= 0 || m->head_dim <= 0)
		return 0.0;
	/* A query attends to half the prompt on average, in the attention
	 * layers only, and a sliding-window layer to at most its window: the
	 * same layer rule as the cache decode reads (vram_kv_token_layers). */
	return 4.0 * (double)m->heads * m->head_dim * vram_kv_token_layers(m, prompt / 2.0);
}

/* Whether the weights are stored in fewer than 16 bits and multiplied in
 * 16 (GGUF k-quants, q4_0, q8_0, AWQ, GPTQ, NF4). */
static bool weight_only_quant(const struct precision_info *p)
{
	return p->bits_per_weight < 16.0 && !p->fp8_compute && !p->int8_compute;
}

double speed_attended_context(const struct speed_job *job)
{
	if (job->input_tokens > 0 || job->output_tokens > 0)
		return job->input_tokens + job->output_tokens / 2.0;
	return job->context > 0 ? (double)job->context : 0.0;
}

/* How much n GPUs multiply one GPU's bandwidth and FLOPS for one model:
 * tensor parallelism adds them up at the engine's efficiency; a layer
 * split runs the GPUs one after another, so a stream gains nothing and
 * pays the hand-overs; data-parallel training adds them up (its MFU is
 * measured on multi-GPU runs already). */
static double gpu_factor(const struct engine *e, const struct device *d, int n)
{
	/* The engines' efficiencies are measured on PCIe cards and on NVLink
	 * parts, and indexed by the memory class that came with each. */
	enum gpu_memory link = d->link == DEVICE_LINK_NVLINK ? MEM_HBM : MEM_GDDR;
	if (n <= 1)
		return 1.0;
	switch (e->multi_gpu) {
	case MULTI_TENSOR_PARALLEL:
		return n * e->tp_efficiency[link];
	case MULTI_LAYER_SPLIT:
		return e->tp_efficiency[link];
	case MULTI_DATA_PARALLEL:
		break;
	}
	return n;
}

static double train_flops_per_param(enum task task)
{
	return task == TASK_FINETUNE_FULL ? FULL_TRAIN_FLOPS_PER_PARAM : LORA_TRAIN_FLOPS_PER_PARAM;
}

/* Prompt tokens per second of one GPU, or of n GPUs under tensor
 * parallelism: the matrix and attention FLOPs at the engine's share of the
 * tensor rate, plus, where the engine expands quantised weights to FP16
 * before each micro-batch (llama.cpp), that pass: the stored bytes read
 * and 2 bytes written per weight, at the card's bandwidth, once per
 * micro-batch of prefill_chunk_tokens. */
static double prefill_rate(const struct engine *e, const struct model_spec *m,
                           const struct precision_info *p, double bandwidth_gbs, double spread,
                           double flops, double prompt)
{
	double secs = (FWD_FLOPS_PER_PARAM * flop_params(m) + attention_flops(m, prompt)) / flops;
	if (e->dequant_pass && weight_only_quant(p) && bandwidth_gbs > 0) {
		double chunk = e->prefill_chunk_tokens > 0 ? e->prefill_chunk_tokens : 1.0;
		if (prompt > 0 && prompt < chunk)
			chunk = prompt;
		double bytes = streamed_params(m) * (p->bits_per_weight / 8.0 + 2.0);
		secs += bytes / (bandwidth_gbs * 1e9 * spread * chunk);
	}
	return secs > 0 ? 1.0 / secs : 0.0;
}

/* Prefill over a layer split is pipelined (llama.cpp#6017, 2024-03): a
 * batch of pipeline_batch_tokens is cut into micro-batches of
 * prefill_chunk_tokens that follow one another through the n GPUs. k
 * micro-batches take k + n - 1 stage times of 1/n of the model each, so
 * the speed-up over one GPU is k n / (k + n - 1) (the pipeline bubble of
 * GPipe, Huang et al. 2019). */
static double pipeline_speedup(const struct engine *e, int n, double prompt)
{
	if (n <= 1 || e->pipeline_batch_tokens <= 0 || e->prefill_chunk_tokens <= 0)
		return 1.0;
	double tokens =
	    prompt > 0 && prompt < e->pipeline_batch_tokens ? prompt : e->pipeline_batch_tokens;
	double k = ceil(tokens / e->prefill_chunk_tokens);
	return k * n / (k + n - 1);
}

void speed_estimate_device(const struct engine *e, const struct model_spec *m,
                           const struct precision_info *p, const struct device *d,
                           const struct speed_job *job, struct speed_est *out)
{
	out->decode_tps = out->stream_tps = out->prefill_tps = out->output_tps = 0.0;
	out->train_tps = 0.0;
	struct device one = device_with_count(d, d->count < 1 ? 1 : d->count);
	if (!device_modelled(&one, NULL, 0))
		return;
	int n = one.count;
	int b = job->batch > 0 ? job->batch : 1;
	double params = flop_params(m);
	if (params <= 0)
		return;

	/* Weights and cache are read from the device's own memory: a layer
	 * split over host RAM would add a second tier's time per step. */
	const struct device_tier *local = &one.tier[DEVICE_TIER_LOCAL];
	enum gpu_memory mem = local->mem;
	bool split = n > 1 && e->multi_gpu == MULTI_LAYER_SPLIT;
	double spread = split ? 1.0 : gpu_factor(e, &one, n);
	double bw = local->bandwidth_gbs * 1e9 * e->decode_eta[mem] * gpu_factor(e, &one, n);
	double flops = dense_flops(e, &one, p) * e->compute_eta[mem] * spread;

	/* One step reads the weights once for all b streams, and each
	 * stream's KV cache up to the context it attends to (sliding-window
	 * layers no further than their window) and its SSM state, by the
	 * rule that sizes the cache (vram_kv_bytes). Every GPU reads the
	 * whole of a cache tensor parallelism replicates (MLA). */
	double weight_bytes = streamed_params(m) * p->bits_per_weight / 8.0;
	double kv_bytes =
	    vram_kv_bytes(e, m, speed_attended_context(job), job->kv_bytes_per_element) +
	    vram_ssm_state_bytes(m);
	if (vram_kv_replicated(e, m))
		kv_bytes *= n;
	if (one.kind != DEVICE_GPU) { /* a Mac, a Strix Halo PC, a CPU: local_device.c */
		local_device_speed(e, m, p, &one, job, weight_bytes, kv_bytes, params, out);
		return;
	}
	double mem_tps = bw > 0 ? b * bw / (weight_bytes + b * kv_bytes) : 0.0;
	double compute_tps = flops / (FWD_FLOPS_PER_PARAM * params);
	if (split) /* a layer split's GPUs decode one after another */
		compute_tps *= pipeline_speedup(e, n, b);
	double prompt = job->input_tokens > 0 ? job->input_tokens : (double)job->context;
	out->prefill_tps = prefill_rate(e, m, p, local->bandwidth_gbs, spread, flops, prompt) *
	                   (split ? pipeline_speedup(e, n, prompt) : 1.0);
	out->decode_tps = fmin(mem_tps, compute_tps);
	out->stream_tps = out->decode_tps / b;
	out->output_tps = out->decode_tps;
	if (job->input_tokens > 0 && job->output_tokens > 0 && out->decode_tps > 0 &&
	    out->prefill_tps > 0) {
		/* b requests: their prompts at the prefill rate, then their
		 * outputs in output_tokens steps of b tokens each. */
		double secs = b * job->input_tokens / out->prefill_tps +
		              b * job->output_tokens / out->decode_tps;
		out->output_tps = b * job->output_tokens / secs;
	}

	if (job->task != TASK_INFERENCE)
		/* Training multiplies in bf16 whatever the stored precision. */
		out->train_tps = e->train_mfu * one.fp16_tflops * 1e12 * gpu_factor(e, &one, n) /
		                 (train_flops_per_param(job->task) * params);
}

void speed_estimate_job(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct gpu_spec *gpu, int n,
                        const struct speed_job *job, struct speed_est *out)
{
	struct device d = device_from_gpu(gpu, n);
	speed_estimate_device(e, m, p, &d, job, out);
}

void speed_estimate_kv_device(const struct engine *e, const struct model_spec *m,
                              const struct precision_info *p, const struct device *d,
                              enum task task, double attended, double kv_bytes_per_element,
                              int batch, struct speed_est *out)
{
	/* A mean attended context given apart is a request of that many
	 * input tokens and no output: speed_attended_context returns it. */
	struct speed_job job = {.task = task,
	                        .batch = batch,
	                        .input_tokens = attended > 0 ? attended : 0.0,
	                        .kv_bytes_per_element = kv_bytes_per_element};
	speed_estimate_device(e, m, p, d, &job, out);
}

void speed_estimate_kv(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, const struct gpu_spec *gpu, int n,
                       enum task task, double attended, double kv_bytes_per_element, int batch,
                       struct speed_est *out)
{
	struct device d = device_from_gpu(gpu, n);
	speed_estimate_kv_device(e, m, p, &d, task, attended, kv_bytes_per_element, batch, out);
}

void speed_estimate(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *gpu, int n,
                    enum task task, long context, int batch, struct speed_est *out)
{
	/* Every sequence at the full context, in the engine's KV type: the
	 * conservative bound `fit` and the calibration use. */
	speed_estimate_kv(e, m, p, gpu, n, task, context > 0 ? (double)context : 0.0,
	                  e->kv_bytes_per_element, batch, out);
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
