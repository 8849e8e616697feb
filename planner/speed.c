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

/* The input embedding table when it is separate from the output head: a
 * step reads one row of it, not all of it, and a lookup is no FLOPs. */
static double input_embedding(const struct model_spec *m)
{
	if (m->tied_embeddings || m->vocab <= 0 || m->hidden <= 0)
		return 0.0;
	double p = m->params_active > 0 ? m->params_active : m->params_total;
	double embed = (double)m->vocab * m->hidden;
	return embed < p ? embed : 0.0;
}

/* Parameters that do matrix work per token: the active ones less the
 * lookup. */
static double flop_params(const struct model_spec *m)
{
	double p = m->params_active > 0 ? m->params_active : m->params_total;
	return p - input_embedding(m);
}

double speed_experts_touched(const struct model_spec *m, double tokens)
{
	if (m->experts <= 0 || m->experts_active <= 0)
		return 0.0;
	double e = m->experts, k = m->experts_active;
	if (tokens <= 1.0)
		return k;
	/* Each token picks k of E: an expert is missed by one token with
	 * probability 1 - k/E, by all T with (1 - k/E)^T (uniform routing;
	 * docs/estimation.md "Mixture of experts at batch"). */
	return e * (1.0 - pow(1.0 - k / e, tokens));
}

/* Parameters one step of `tokens` tokens streams from memory: the
 * matrix-work parameters, with as many routed experts per MoE layer as
 * those tokens touch instead of the k one token uses. */
static double streamed_params(const struct model_spec *m, double tokens)
{
	double p = flop_params(m);
	double expert = vram_routed_expert_params(m);
	if (expert > 0)
		p += expert * (speed_experts_touched(m, tokens) - m->experts_active);
	return p;
}

/* Bytes one step of `tokens` tokens reads of the weights at precision p:
 * what the checkpoint keeps in 16 bits (vram_params_16bit, less the input
 * embedding a step only looks up) at 2 bytes, the rest at p's width. */
static double streamed_weight_bytes(const struct model_spec *m, const struct precision_info *p,
                                    double tokens)
{
	double all = streamed_params(m, tokens);
	double keep = vram_params_16bit(m, p) - input_embedding(m);
	if (keep < 0)
		keep = 0;
	if (keep > all)
		keep = all;
	return keep * 2.0 + (all - keep) * p->bits_per_weight / 8.0;
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
	/* NVFP4 and MXFP4 multiply on the FP4 tensor cores of Blackwell parts
	 * (fp4_tflops); elsewhere they run weight-only at the FP16 rate, as
	 * vLLM's Marlin FP4 kernels do on Hopper and Ada (planner fit says
	 * so in its footnote), and so does an engine that expands its
	 * weights to FP16 before it multiplies (llama.cpp). */
	if (p->fp4_compute && d->fp4_tflops > 0 && !e->dequant_pass)
		return d->fp4_tflops * 1e12;
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

/* Recomputation (Korthikanti et al. 2022, arXiv:2205.05198, sec. 5):
 * checkpointing every layer reruns its forward in the backward pass, 2
 * FLOPs per parameter per token more; selective recomputation reruns the
 * attention core only, QK^T and softmax x V, 2 x 2 x sequence x (heads x
 * head_dim) FLOPs per token and layer. The engines' MFUs (engines.c) are
 * of runs that checkpoint every layer, so a job that recomputes less runs
 * faster by the FLOPs it no longer spends: this factor, 1 for the
 * engine's own checkpointing. */
#define ATTN_CORE_FLOPS_PER_TOKEN_WIDTH 4.0

static double recompute_gain(const struct engine *e, const struct model_spec *m,
                             const struct speed_job *job)
{
	if (job->checkpointing == CKPT_ON)
		return 1.0;
	double model = train_flops_per_param(job->task) * flop_params(m);
	double core = ATTN_CORE_FLOPS_PER_TOKEN_WIDTH * (double)job->context * m->heads *
	              m->head_dim * m->layers;
	double redo = job->checkpointing == CKPT_SELECTIVE ? core : 0.0;
	/* What the engine's own runs recompute, which its MFU was measured
	 * with: every layer's forward, or the attention core (Megatron). */
	double own = e->selective_default ? core : FWD_FLOPS_PER_PARAM * flop_params(m);
	return (model + own) / (model + redo);
}

/* What one configuration reaches of its device: bytes/s a step reads the
 * weights and cache at, the card's own bandwidth times the GPUs' spread
 * (llama.cpp's expansion pass runs at it), and FLOP/s of its matrix work. */
struct rates {
	double read_bps;   /* decode reads: bandwidth x engine eta x GPU factor */
	double expand_bps; /* the card's bandwidth x spread, for the FP16 expansion */
	double flops;      /* dense tensor rate x engine share x spread */
};

/* Prompt tokens per second of one GPU, or of n GPUs under tensor
 * parallelism: the matrix and attention FLOPs at the engine's share of the
 * tensor rate, and at least the weights one prefill step of `step` tokens
 * reads (every expert those tokens touch), at the decode read rate. An
 * engine that expands quantised weights to FP16 before each micro-batch
 * (llama.cpp) pays that pass instead, its share of the tensor rate fitted
 * with it: the stored bytes read and 2 bytes written per weight, at the
 * card's bandwidth, once per micro-batch of prefill_chunk_tokens. */
static double prefill_rate(const struct engine *e, const struct model_spec *m,
                           const struct precision_info *p, const struct rates *r, double prompt,
                           double step)
{
	double secs =
	    (FWD_FLOPS_PER_PARAM * flop_params(m) + attention_flops(m, prompt)) / r->flops;
	double chunk = e->prefill_chunk_tokens > 0 ? e->prefill_chunk_tokens : 1.0;
	if (e->dequant_pass) {
		if (prompt > 0 && prompt < chunk)
			chunk = prompt;
		double bytes = streamed_params(m, chunk) * (p->bits_per_weight / 8.0 + 2.0);
		if (weight_only_quant(p) && r->expand_bps > 0)
			secs += bytes / (r->expand_bps * chunk);
	} else if (r->read_bps > 0 && step >= 1.0) {
		secs = fmax(secs, streamed_weight_bytes(m, p, step) / (r->read_bps * step));
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

/* FP8 training runs its GEMMs on the FP8 tensor cores but reaches a
 * smaller share of that peak than BF16 training of the BF16 one (scaling,
 * casts, the layers left in BF16): llm-foundry's MPT-1B on 8 H100 80GB
 * reaches 29.06 % of the FP8 peak with amp_fp8 and 41.82 % of the BF16 peak
 * with amp_bf16 (mosaicml/llm-foundry scripts/train/benchmarking/README.md,
 * tables of PR #838, 2024-01-06; calibration train_throughput-019 and -016,
 * both fit rows): 0.695 of the BF16 share, 1.39x the BF16 rate on an H100
 * (1979 / 989 dense TFLOPS). */
#define FP8_TRAIN_SHARE (0.2906 / 0.4182)

/* Mixture-of-experts training multiplies each expert's share of a
 * micro-batch in a grouped GEMM of tokens x hidden x expert width; small
 * GEMMs, the router, token permutation and the all-to-all take a share of
 * the step that grows as those GEMMs shrink. planner takes the efficiency
 * against a dense model as S / (S + S0), S the multiply-adds of one
 * expert's GEMM per micro-batch (micro-batch x sequence x k / E tokens x
 * hidden x expert width). S0 from Megatron-Bridge's performance summary
 * (NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md, 25.11
 * container, read at commit 00b7660, 2026-12-02), each MoE run's model
 * TFLOP/s over the dense Llama3-8B run's in the same precision on the same
 * system: Qwen3-30B-A3B on DGX-H100, MBS 2, 4096 tokens, FP8-CS, 121 /
 * 744 = 0.163 at S = 0.81e9 (S0 4.1e9); Qwen3-235B-A22B there, 233 / 744
 * = 0.313 at S = 1.61e9 (its row lacks a cell; read as MBS 1, S0 3.5e9);
 * Qwen3-30B-A3B on DGX-B200, MBS 1, FP8-MX, 214 / 1519 = 0.141 at S =
 * 0.40e9 (S0 2.5e9). S0 is their geometric mean; the three are then
 * matched within 22 %. Megatron forces balanced routing in these runs;
 * the stacks planner models (hf, torchtune, Unsloth) run no faster. */
#define MOE_TRAIN_HALF_MACS 3.3e9

/* Share of a dense model's training efficiency that MoE model m reaches
 * with micro-batches of `tokens` tokens per GPU; 1 for a dense model. */
static double moe_train_share(const struct model_spec *m, double tokens)
{
	if (m->experts <= 0 || m->experts_active <= 0 || tokens <= 0)
		return 1.0;
	double width = m->moe_intermediate > 0 ? m->moe_intermediate : m->intermediate;
	double macs = tokens * m->experts_active / m->experts * m->hidden * width;
	return macs / (macs + MOE_TRAIN_HALF_MACS);
}

/* FLOP/s one GPU of d delivers to a training job's model FLOPs: the
 * engine's MFU of the BF16 rate (training multiplies in 16 bits whatever
 * the stored precision), or of the FP8 rate at FP8_TRAIN_SHARE for full
 * fine-tuning at fp8 on a card that has it (and LoRA on an fp8 base under
 * an engine that runs it in FP8, fp8_frozen), times the MoE share at the
 * job's micro-batch (its micro_batch, else the batch split over the GPUs,
 * at least one sequence, of `context` tokens). */
static double train_rate(const struct engine *e, const struct model_spec *m,
                         const struct precision_info *p, const struct device *d,
                         const struct speed_job *job)
{
	double rate = d->fp16_tflops * 1e12;
	bool fp8_task =
	    job->task == TASK_FINETUNE_FULL || (e->fp8_frozen && job->task == TASK_FINETUNE_LORA);
	if (fp8_task && p->fp8_compute && d->fp8_tflops > 0)
		rate = d->fp8_tflops * 1e12 * FP8_TRAIN_SHARE;
	int gpus = d->count > 0 ? d->count : 1;
	double seqs = job->micro_batch > 0 ? job->micro_batch : (double)(job->batch / gpus);
	if (seqs < 1)
		seqs = 1;
	return e->train_mfu * rate * moe_train_share(m, seqs * (double)job->context);
}

/* Tokens one prefill step holds: the prompts of the b requests together,
 * cut into the engine's chunks (vLLM's max_num_batched_tokens, llama.cpp's
 * n_ubatch). */
static double prefill_step_tokens(const struct engine *e, double prompt, int b)
{
	double step = prompt > 0 ? prompt * b : 0.0;
	if (e->prefill_chunk_tokens > 0 && step > e->prefill_chunk_tokens)
		step = e->prefill_chunk_tokens;
	return step;
}

/* Output tokens per second of b streams: each step reads the weights the
 * b tokens touch once and every stream's KV cache (kv_bytes each), or
 * does their matrix work if that takes longer, and pays the engine's fixed
 * cost per step on top (scheduling, sampling, launches: engines.c,
 * step_overhead_s). */
static double decode_rate(const struct engine *e, const struct model_spec *m,
                          const struct precision_info *p, const struct rates *r, int b,
                          double kv_bytes, double compute_speedup)
{
	if (r->read_bps <= 0)
		return 0.0;
	double mem = (streamed_weight_bytes(m, p, b) + b * kv_bytes) / r->read_bps;
	double compute = b * FWD_FLOPS_PER_PARAM * flop_params(m) / (r->flops * compute_speedup);
	return b / (fmax(mem, compute) + e->step_overhead_s);
}

void speed_estimate_device(const struct engine *e, const struct model_spec *m,
                           const struct precision_info *p, const struct device *d,
                           const struct speed_job *job, struct speed_est *out)
{
	*out = (struct speed_est){0};
	struct device one = device_with_count(d, d->count < 1 ? 1 : d->count);
	if (!device_modelled(&one, NULL, 0))
		return;
	int n = one.count;
	int b = job->batch > 0 ? job->batch : 1;
	if (flop_params(m) <= 0)
		return;

	/* Weights and cache are read from the device's own memory: a layer
	 * split over host RAM would add a second tier's time per step. */
	const struct device_tier *local = &one.tier[DEVICE_TIER_LOCAL];
	enum gpu_memory mem = local->mem;
	bool split = n > 1 && e->multi_gpu == MULTI_LAYER_SPLIT;
	double spread = split ? 1.0 : gpu_factor(e, &one, n);
	/* A mixture-of-experts model runs at the engine's share of what a
	 * dense one reaches (engines.c, moe_eta). */
	double moe = m->experts > 0 && e->moe_eta > 0 ? e->moe_eta : 1.0;
	struct rates r = {
	    .read_bps =
	        local->bandwidth_gbs * 1e9 * e->decode_eta[mem] * gpu_factor(e, &one, n) * moe,
	    .expand_bps = local->bandwidth_gbs * 1e9 * spread,
	    .flops = dense_flops(e, &one, p) * e->compute_eta[mem] * spread * moe,
	};

	/* Each stream's KV cache up to the context it attends to
	 * (sliding-window layers no further than their window) and its SSM
	 * state, by the rule that sizes the cache (vram_kv_bytes). Every GPU
	 * reads the whole of a cache tensor parallelism replicates (MLA). */
	double kv_bytes =
	    vram_kv_bytes(e, m, speed_attended_context(job), job->kv_bytes_per_element) +
	    vram_ssm_state_bytes(m);
	if (vram_kv_replicated(e, m))
		kv_bytes *= n;
	if (one.kind != DEVICE_GPU) { /* a Mac, a Strix Halo PC, a CPU: local_device.c */
		local_device_speed(e, m, p, &one, job, streamed_weight_bytes(m, p, b), kv_bytes,
		                   flop_params(m), out);
		return;
	}
	/* A layer split's GPUs decode one after another. */
	out->decode_tps =
	    decode_rate(e, m, p, &r, b, kv_bytes, split ? pipeline_speedup(e, n, b) : 1.0);
	double prompt = job->input_tokens > 0 ? job->input_tokens : (double)job->context;
	out->prefill_tps = prefill_rate(e, m, p, &r, prompt, prefill_step_tokens(e, prompt, b)) *
	                   (split ? pipeline_speedup(e, n, prompt) : 1.0);
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
		out->train_tps = train_rate(e, m, p, &one, job) * gpu_factor(e, &one, n) *
		                 recompute_gain(e, m, job) /
		                 (train_flops_per_param(job->task) * flop_params(m));
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
		seconds = (s->prefill_counted ? 0 : seconds_for(input_tokens, s->prefill_tps)) +
		          seconds_for(output_tokens, s->decode_tps);
	else
		seconds = seconds_for(input_tokens + output_tokens, s->train_tps);
	return seconds / 3600.0;
}
