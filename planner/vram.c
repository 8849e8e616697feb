/* vram.c — GPU memory a job needs (docs/estimation.md, "Memory").
 *
 * Everything is counted in bytes and reported in GiB (2^30), the unit
 * nvidia-smi and the serving engines print; vendors' "80 GB" cards are
 * converted to GiB in the reference data, not here. */
#include "vram.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "local_device.h"
#include "util.h"

#define GIB 1073741824.0

/* QLoRA's NF4 with double quantisation, which the QLoRA recipes turn on
 * (and torchao's NF4Tensor in torchtune and Unsloth's loaders use): 4-bit
 * codes in blocks of 64, their absmax constants themselves 8-bit in blocks
 * of 256: 4 + 8/64 + 32/(64 x 256) = 4.127 bpw (Dettmers et al. 2023, sec.
 * 3, "Double Quantization"); without it 4.5 (precision.c, BPW_NF4). */
#define BPW_NF4_DQ 4.127

/* ---- Memory --------------------------------------------------------------
 *
 * What the engine decides (usable fraction of the card, runtime overhead,
 * KV element size, prefill micro-batch, tensor-parallel sizes) comes from
 * its profile (engines.c); the rest follows from the model and the task. */

/* The 16-bit weights a full fine-tune trains; the engine adds its
 * gradient, master-copy and optimizer bytes (engines.c, full_ft_bytes). */
#define FULL_FT_WEIGHT_BYTES 2.0

/* Each adapter parameter is trained in fp32 (PEFT's default, and torchtune's
 * AdamW on the adapters): weight 4 + gradient 4 + the engine's optimizer
 * moments (8 for fp32 AdamW, 2 for 8-bit). */
#define LORA_ADAPTER_WEIGHT_GRAD_BYTES 8.0

/* Training activations per layer and token, from Korthikanti et al. 2022,
 * "Reducing Activation Recomputation in Large Transformer Models"
 * (arXiv:2205.05198, sec. 4.1, eq. 1 and sec. 5): a layer without
 * recomputation keeps s*b*h*(34 + 5*a*s/h) bytes in 16 bits, 34 x hidden
 * per token for its inputs, projections, MLP and norms, and 5 x heads x
 * sequence for the attention scores, their softmax and its dropout mask.
 * Selective recomputation drops that score term and recomputes the
 * attention core: s*b*h*34. Full checkpointing keeps only each layer's
 * 16-bit input (2 x hidden per token) and recomputes one layer at a time,
 * holding its 34 (the default of QLoRA/LoRA recipes through
 * prepare_model_for_kbit_training, of torchtune's and of Unsloth's).
 * Every training engine modelled runs flash attention (PyTorch SDPA in
 * transformers and torchtune, Unsloth's fused kernels), which never stores
 * the scores: there the score term is 0, so that off and selective hold
 * the same memory and differ only in what the backward recomputes
 * (speed.c). */
#define ACT_CHECKPOINT_BYTES_PER_HIDDEN 2.0
#define ACT_LAYER_BYTES_PER_HIDDEN      34.0
#define ACT_SCORE_BYTES_PER_HEAD_TOKEN  5.0
/* Training logits: the engine's logit_bytes (engines.c). */
/* Inference only keeps fp32 logits of the last position of each sequence. */
#define LOGIT_BYTES_INFER 4.0
/* A profiling sampler run's bytes per vocabulary entry per row (engines.c,
 * "KV room"): fp32 logits 4, the sort's fp32 values 4 and int64 indices 8. */
#define SAMPLER_BYTES 16.0

/* Hybrid SSM layers keep a recurrent state instead of a KV cache: a
 * convolution state of (conv kernel - 1) and a temporal state of `state`
 * per inner channel, in the model's dtype (vLLM
 * vllm/model_executor/layers/mamba/mamba_utils.py,
 * MambaStateShapeCalculator.mamba1_state_shape: (inner, conv_kernel - 1)
 * and (inner, state_size); mamba_cache_dtype "auto" = the model's dtype;
 * read 2026-11-30). Mamba-2 (Nemotron-H) adds 2 x groups x state to the
 * conv width, a few percent. When the config gives no state size: 16,
 * transformers MambaConfig.state_size and JambaConfig.mamba_d_state
 * defaults; conv kernel 4, MambaConfig.conv_kernel, Jamba mamba_d_conv,
 * Nemotron-H conv_kernel. */
#define SSM_STATE_DEFAULT       16
#define SSM_CONV_KERNEL         4
#define SSM_STATE_ELEMENT_BYTES 2.0

/* Layers holding a KV cache: kv_layers (hybrid models), else all. */
static int kv_layer_count(const struct model_spec *m)
{
	return m->kv_layers > 0 ? m->kv_layers : m->layers;
}

/* KV bytes of one token in one layer, elements of the engine's size. */
static double kv_bytes_per_token_layer(const struct engine *e, const struct model_spec *m)
{
	if (m->kv_lora_rank > 0)
		/* MLA caches one compressed latent plus the decoupled RoPE key
		 * per layer, shared by all heads (DeepSeek-V2 paper, sec. 2.1). */
		return (double)(m->kv_lora_rank + m->rope_head_dim) * e->kv_bytes_per_element;
	int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	return 2.0 * kv * m->head_dim * e->kv_bytes_per_element;
}

double vram_kv_bytes_per_token(const struct engine *e, const struct model_spec *m)
{
	return kv_layer_count(m) * kv_bytes_per_token_layer(e, m);
}

double vram_kv_token_layers(const struct model_spec *m, double c)
{
	int layers = kv_layer_count(m);
	int sliding = m->sliding_window > 0 ? m->sliding_layers : 0;
	if (sliding > layers)
		sliding = layers;
	if (c < 0)
		c = 0;
	/* A sliding-window (or chunked-attention) layer keeps and attends to
	 * its last sliding_window tokens only: vLLM allocates those layers
	 * window-sized caches (hybrid KV cache manager, v0.10), llama.cpp a
	 * separate SWA cache (llama-kv-cache-iswa). */
	double capped = sliding > 0 && c > m->sliding_window ? (double)m->sliding_window : c;
	return (double)(layers - sliding) * c + (double)sliding * capped;
}

double vram_kv_bytes(const struct engine *e, const struct model_spec *m, double c, double kv_el)
{
	double scale = kv_el > 0 ? kv_el / e->kv_bytes_per_element : 1.0;
	return kv_bytes_per_token_layer(e, m) * scale * vram_kv_token_layers(m, c);
}

double vram_ssm_state_bytes(const struct model_spec *m)
{
	if (m->ssm_layers <= 0 || m->ssm_inner <= 0)
		return 0.0;
	int state = m->ssm_state > 0 ? m->ssm_state : SSM_STATE_DEFAULT;
	return (double)m->ssm_layers * m->ssm_inner * (state + SSM_CONV_KERNEL - 1) *
	       SSM_STATE_ELEMENT_BYTES;
}

bool vram_kv_replicated(const struct engine *e, const struct model_spec *m)
{
	/* vLLM's MLA cache is [blocks, block_size, 1, kv_lora_rank +
	 * qk_rope_head_dim]: one latent "head" that every tensor-parallel
	 * rank keeps whole, where GQA's KV heads are divided by the TP size
	 * (docs.vllm.ai/en/v0.9.0, vllm/distributed/kv_transfer/kv_connector/
	 * utils.py, read 2026-11-30). llama.cpp's layer split gives each GPU
	 * its own layers' cache, so that one still divides. */
	return m->kv_lora_rank > 0 && e->multi_gpu == MULTI_TENSOR_PARALLEL;
}

/* Width of the MLP activations one token produces: the dense MLP, or the
 * experts it is routed to plus shared experts. */
static double mlp_width(const struct model_spec *m)
{
	if (m->experts <= 0)
		return m->intermediate;
	double per_expert = m->moe_intermediate > 0 ? m->moe_intermediate : m->intermediate;
	int active = m->experts_active > 0 ? m->experts_active : 1;
	return per_expert * (active + (m->shared_experts > 0 ? m->shared_experts : 0));
}

/* Bytes of live activations per token inside one layer at inference:
 * residual and normed input (2 x hidden), q, k and v, and the MLP's gate
 * and up projections, all 16-bit. */
static double infer_bytes_per_token(const struct model_spec *m)
{
	int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	double q = (double)m->heads * m->head_dim;
	double kvw = 2.0 * kv * m->head_dim;
	return (2.0 * m->hidden + q + kvw + 2.0 * mlp_width(m)) * 2.0;
}

static double activation_bytes(const struct engine *e, const struct model_spec *m, enum task task,
                               double tokens, int batch)
{
	if (task == TASK_INFERENCE) {
		double chunk = tokens < e->prefill_chunk_tokens ? tokens : e->prefill_chunk_tokens;
		return chunk * infer_bytes_per_token(m) +
		       (double)batch * m->vocab * LOGIT_BYTES_INFER;
	}
	bool full = e->grad_checkpointing;
	double per_layer = full ? (e->offload_checkpoints ? 0.0 : ACT_CHECKPOINT_BYTES_PER_HIDDEN)
	                        : ACT_LAYER_BYTES_PER_HIDDEN;
	double per_token_layer = m->hidden * per_layer;
	if (!full && !e->selective_recompute && !e->flash_attention)
		/* sbh x 5as/h per layer is 5 x heads x s per token */
		per_token_layer += ACT_SCORE_BYTES_PER_HEAD_TOKEN * m->heads * (tokens / batch);
	double logits = e->logit_bytes;
	return tokens * per_token_layer * m->layers +
	       (full ? tokens * m->hidden * ACT_LAYER_BYTES_PER_HIDDEN : 0.0) +
	       tokens * m->vocab * logits;
}

/* Input embedding and output head: bitsandbytes quantises nn.Linear layers
 * only, so NF4 leaves these in 16 bit (and so does lm_head, excluded by
 * transformers' llm_int8_skip_modules default), as do FP8 checkpoints. */
static double embedding_params(const struct model_spec *m)
{
	double one = (double)m->vocab * m->hidden;
	double both = m->tied_embeddings ? one : 2.0 * one;
	return both < m->params_total ? both : 0.0;
}

double vram_lora_params(const struct model_spec *m, int rank, bool attention_only)
{
	int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	double h = m->hidden, q = (double)m->heads * m->head_dim, kvw = (double)kv * m->head_dim;
	/* q, k, v: hidden -> width; o: q width -> hidden. */
	double attn = (h + q) + (h + kvw) * 2.0 + (q + h);
	double mlp = 0.0;
	if (!attention_only) {
		double width = m->experts > 0 ? mlp_width(m) : m->intermediate;
		mlp = 3.0 * (h + width); /* gate and up: hidden -> width; down back */
	}
	return (double)rank * m->layers * (attn + mlp);
}

/* ---- Optimizers ------------------------------------------------------------
 *
 * Bytes of optimizer state per trained parameter that stay on the GPU.
 * AdamW keeps two moments: fp32 in torch.optim.AdamW on fp32 parameters
 * (transformers' default optim "adamw_torch"), bf16 when the parameters
 * are bf16 (torchtune's pure-bf16 recipes), 8-bit block-quantised in
 * bitsandbytes' AdamW8bit (Dettmers et al. 2022, "8-bit Optimizers via
 * Block-wise Quantization": 2 bytes for both moments). A paged optimizer
 * (bitsandbytes PagedAdamW8bit) keeps its state in CUDA unified memory
 * that moves to the host as the GPU fills, so none of it has to fit:
 * torchtune's Llama-3.1-8B full fine-tune with it peaks at 18.9 GiB on an
 * RTX 4090 (README table, PR #1664, 2024-09-24; calibration
 * ft_memory-001), below its 15 GiB of weights plus 15 GiB of 8-bit
 * moments. */
static const struct optimizer_info optimizers[] = {
    {.name = "adamw", .state_bytes = 8.0},
    {.name = "adamw-bf16", .state_bytes = 4.0},
    {.name = "adamw-8bit", .state_bytes = 2.0},
    {.name = "paged-adamw-8bit", .state_bytes = 0.0},
};
#define N_OPTIMIZERS (sizeof optimizers / sizeof optimizers[0])

static const char *const optimizer_name_list[N_OPTIMIZERS + 1] = {
    "adamw", "adamw-bf16", "adamw-8bit", "paged-adamw-8bit", NULL,
};

const struct optimizer_info *optimizer_find(const char *name)
{
	for (size_t i = 0; name && i < N_OPTIMIZERS; i++)
		if (strcasecmp(name, optimizers[i].name) == 0)
			return &optimizers[i];
	return NULL;
}

const char *const *optimizer_names(void)
{
	return optimizer_name_list;
}

/* Full fine-tuning bytes per parameter beyond the 16-bit weights: the
 * engine's, or with an optimizer named, the engine's gradient and
 * master-copy bytes (its full_ft_bytes less its own optimizer's state,
 * never below 0: torchtune frees gradients in the backward pass) plus the
 * named optimizer's state. */
static double full_ft_state(const struct engine *e, const struct vram_job *job)
{
	if (job->full_ft_bytes > 0)
		return job->full_ft_bytes;
	if (!job->optimizer)
		return e->full_ft_bytes;
	const struct optimizer_info *own = optimizer_find(e->optimizer);
	double rest = e->full_ft_bytes - (own ? own->state_bytes : 0.0);
	return (rest > 0 ? rest : 0.0) + job->optimizer->state_bytes;
}

/* Whether p names a checkpoint format that quantises the linear layers of
 * the blocks only, not a GGUF file (which llama.cpp re-quantises whole, by
 * its recipe) and not a 16-bit or wider one. */
static bool block_linear_quant(const struct precision_info *p)
{
	return p->bits_per_weight < 16.0 && !engine_gguf_precision(p->name);
}

double vram_routed_expert_params(const struct model_spec *m)
{
	if (m->experts <= m->experts_active || m->experts_active <= 0 || m->params_active <= 0 ||
	    m->params_total <= m->params_active)
		return 0.0;
	return (m->params_total - m->params_active) / (m->experts - m->experts_active);
}

double vram_params_16bit(const struct model_spec *m, const struct precision_info *p)
{
	if (!block_linear_quant(p))
		return 0.0;
	/* The checkpoint's own config.json said which modules it keeps
	 * (refdata_config.c, read_quant). */
	if (m->params_16bit > 0)
		return m->params_16bit < m->params_total ? m->params_16bit : m->params_total;
	/* gpt-oss ships its MoE experts in MXFP4 and the rest in BF16: its
	 * quantization_config (quant_method mxfp4) lists
	 * model.layers.*.self_attn, model.layers.*.mlp.router,
	 * model.embed_tokens and lm_head as modules_to_not_convert (openai/
	 * gpt-oss-20b config.json as copied in EchoCog/gpt-oss-20b at commit
	 * 52971a17, tests/fixtures/configs/gpt-oss-20b.json; OpenAI's gpt-oss
	 * model card, 2025-08-05: "MXFP4 quantization of the MoE weights").
	 * gpt-oss-120b keeps 116.8 - 128 x 0.896 = 2.1 B parameters so. */
	double experts = vram_routed_expert_params(m) * m->experts;
	if (p->experts_only && experts > 0)
		return m->params_total - experts;
	/* Only a name: AWQ, GPTQ, FP8 and bitsandbytes quantise the Linear
	 * layers inside the decoder blocks; the embedding is no Linear, and
	 * lm_head stays 16-bit unless the config says `lm_head: true` (vLLM
	 * model_executor/layers/quantization/gptq_marlin.py and awq_triton.py,
	 * from_config: lm_head_quantized defaults to False; fp8.py quantises
	 * LinearBase only; retrieved 2026-12-02). Qwen2.5-7B keeps 2 x 152064
	 * x 3584 = 1.09B parameters so. */
	return embedding_params(m);
}

/* Weights at precision p: vram_params_16bit of them at 2 bytes, the rest
 * at p's width. Meta's Llama-3.1-405B FP8 keeps all attention in BF16,
 * and vLLM loads 57.75 GiB per GPU of it on 8 GPUs: vllm-project/vllm#6746,
 * calibration weights-027. */
static double weight_bytes_at(const struct model_spec *m, const struct precision_info *p)
{
	double keep = vram_params_16bit(m, p);
	return keep * 2.0 + (m->params_total - keep) * p->bits_per_weight / 8.0;
}

void vram_estimate_job(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, const struct vram_job *job,
                       struct vram_need *out)
{
	double params = m->params_total; /* every expert sits in memory */
	double ctx = job->context > 0 ? (double)job->context : 0.0;
	int b = job->batch > 0 ? job->batch : 1;
	double weight_bytes = weight_bytes_at(m, p);
	double train_bytes = 0.0;
	int rank = job->lora_rank > 0 ? job->lora_rank : VRAM_LORA_RANK;
	double opt = job->optimizer ? job->optimizer->state_bytes : e->optimizer_bytes;
	double adapter = vram_lora_params(m, rank, job->lora_attention_only) *
	                 (LORA_ADAPTER_WEIGHT_GRAD_BYTES + opt);
	double embed = embedding_params(m);
	struct engine te = *e; /* the job's checkpointing */
	engine_set_checkpointing(&te, job->checkpointing);

	switch (job->task) {
	case TASK_INFERENCE:
		break;
	case TASK_FINETUNE_FULL:
		/* Mixed precision keeps 16-bit weights even when the job names a
		 * quantised precision; fp32 weights stay fp32. */
		weight_bytes = params * p->bits_per_weight / 8.0;
		if (p->bits_per_weight / 8.0 < FULL_FT_WEIGHT_BYTES)
			weight_bytes = params * FULL_FT_WEIGHT_BYTES;
		/* fp32 weights are their own master copy: the engine's bytes
		 * beyond 16-bit weights shrink by what the weights grew. */
		train_bytes = params * (full_ft_state(e, job) -
		                        (weight_bytes / params - FULL_FT_WEIGHT_BYTES));
		if (train_bytes < 0)
			train_bytes = 0;
		break;
	case TASK_FINETUNE_QLORA:
		/* QLoRA means NF4 linear layers whatever precision the job names;
		 * embeddings and head stay 16-bit. */
		weight_bytes = (params - embed) * BPW_NF4_DQ / 8.0 + embed * 2.0;
		train_bytes = adapter;
		break;
	case TASK_FINETUNE_LORA:
		train_bytes = adapter;
		break;
	}

	out->weights_gib = weight_bytes / GIB;
	out->unsplit_gib = 0.0;
	/* Training holds no KV cache: each step's attention is recomputed.
	 * Serving holds each sequence's KV, sliding-window layers capped at
	 * their window, and the fixed state of its SSM layers. */
	out->kv_gib = job->task == TASK_INFERENCE
	                  ? b *
	                        (vram_kv_bytes(e, m, ctx, job->kv_bytes_per_element) +
	                         vram_ssm_state_bytes(m)) /
	                        GIB
	                  : 0.0;
	if (vram_kv_replicated(e, m))
		out->unsplit_gib += out->kv_gib;
	out->training_gib = train_bytes / GIB;
	out->dp_sharded_gib = job->task == TASK_FINETUNE_FULL && e->dist_optimizer_bytes > 0
	                          ? fmin(params * e->dist_optimizer_bytes, train_bytes) / GIB
	                          : 0.0;
	if (job->task != TASK_INFERENCE && job->micro_batch > 0) {
		/* Each GPU holds the activations of its own micro-batch; the
		 * rest of the batch comes from gradient accumulation. */
		out->activation_gib =
		    activation_bytes(&te, m, job->task, ctx * job->micro_batch, job->micro_batch) /
		    GIB;
		out->unsplit_gib += out->activation_gib;
	} else {
		out->activation_gib = activation_bytes(&te, m, job->task, ctx * b, b) / GIB;
	}
	out->overhead_gib = e->overhead_gib;
	out->total_gib = out->weights_gib + out->kv_gib + out->training_gib + out->activation_gib +
	                 out->overhead_gib;
}

void vram_estimate(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, enum task task, long context, int batch,
                   struct vram_need *out)
{
	struct vram_job job = {.task = task, .context = context, .batch = batch};
	vram_estimate_job(e, m, p, &job, out);
}

double vram_per_gpu(const struct vram_need *need, int n)
{
	if (n < 1)
		n = 1;
	double split = need->weights_gib + need->kv_gib + need->training_gib +
	               need->activation_gib - need->unsplit_gib;
	return split / n + need->unsplit_gib + need->overhead_gib;
}

double vram_per_gpu_layout(const struct vram_need *need, int tp, int pp, int dp)
{
	int mp = (tp < 1 ? 1 : tp) * (pp < 1 ? 1 : pp), n = mp * (dp < 1 ? 1 : dp);
	double state = need->weights_gib + need->training_gib - need->dp_sharded_gib;
	double act = need->activation_gib - need->unsplit_gib;
	return state / mp + need->dp_sharded_gib / n + act / ((tp < 1 ? 1 : tp) * (n / mp)) +
	       need->unsplit_gib / (tp < 1 ? 1 : tp) + need->kv_gib / n + need->overhead_gib;
}

double vram_per_gpu_engine(const struct engine *e, const struct vram_need *need, int n)
{
	/* Tensor parallelism and a layer split divide the model; FSDP shards
	 * weights and training state, and the job's batch is split over the
	 * GPUs, so activations divide too. Overhead is paid on each. */
	(void)e;
	return vram_per_gpu(need, n);
}

double vram_device_usable(const struct engine *e, const struct device *d)
{
	if (d->kind != DEVICE_GPU) /* the GPU's wired share, or the RAM */
		return local_device_usable(e, d);
	return d->tier[DEVICE_TIER_LOCAL].gib * e->usable_fraction;
}

/* vram_place's rule, static so that vram_device_fits, which compare asks
 * once per job and offer group, gets it inlined without the figures it
 * does not read. */
static bool place(const struct engine *e, const struct vram_need *need, const struct device *d,
                  struct vram_fit *out, char *why, size_t len)
{
	/* Every byte in the device's own memory: the host tier stays empty
	 * until a layer split is modelled, so its usable share is 0 too. */
	*out = (struct vram_fit){0};
	if (!device_modelled(d, why, len))
		return false;
	out->need_gib[DEVICE_TIER_LOCAL] = vram_per_gpu_engine(e, need, d->count);
	out->usable_gib[DEVICE_TIER_LOCAL] = vram_device_usable(e, d);
	out->fits = out->need_gib[DEVICE_TIER_LOCAL] <= out->usable_gib[DEVICE_TIER_LOCAL];
	return out->fits;
}

bool vram_place(const struct engine *e, const struct vram_need *need, const struct device *d,
                struct vram_fit *out, char *why, size_t len)
{
	if (place(e, need, d, out, why, len) || !device_modelled(d, NULL, 0))
		return out->fits;
	if (why && len > 0)
		snprintf(why, len, "needs %.2f GiB on each of %d %s, %.2f usable",
		         out->need_gib[DEVICE_TIER_LOCAL], d->count, d->name ? d->name : "device",
		         out->usable_gib[DEVICE_TIER_LOCAL]);
	return false;
}

bool vram_device_fits(const struct engine *e, const struct vram_need *need, const struct device *d)
{
	struct vram_fit fit;
	return place(e, need, d, &fit, NULL, 0);
}

double vram_device_slack(const struct engine *e, const struct vram_need *need,
                         const struct device *d)
{
	struct vram_fit fit;
	place(e, need, d, &fit, NULL, 0);
	if (!device_modelled(d, NULL, 0))
		return -INFINITY;
	return fit.usable_gib[DEVICE_TIER_LOCAL] - fit.need_gib[DEVICE_TIER_LOCAL];
}

int vram_device_min_count(const struct engine *e, const struct vram_need *need,
                          const struct device *d)
{
	/* Tensor-parallel degrees: powers of two up to the engine's largest. */
	struct device at = *d;
	/* A Mac or a CPU box is one machine with its own copy of the model. */
	int most = d->kind == DEVICE_GPU ? e->max_tp : 1;
	for (at.count = 1; at.count <= most; at.count *= 2)
		if (vram_device_fits(e, need, &at))
			return at.count;
	return 0;
}

/* What one of n GPUs with usable GiB keeps for the KV cache beside the
 * job's weights, activation peak and runtime memory. */
static double kv_room(const struct engine *e, const struct model_spec *m,
                      const struct vram_need *need, double usable, int n, double card_gib,
                      const char *name)
{
	double nontorch = e->kv_nontorch_gib + (n > 1 ? e->kv_tp_gib : 0.0);
	switch (e->kv_sizing) {
	case KV_SIZING_PROFILED: {
		int big = engine_big_card(card_gib, name) ? 1 : 0;
		double peak = e->kv_profile_tokens[big] * infer_bytes_per_token(m) / n +
		              e->kv_sampler_seqs[big] * m->vocab * SAMPLER_BYTES;
		return usable - need->weights_gib / n - peak / GIB - nontorch;
	}
	case KV_SIZING_STATIC:
		return usable - need->weights_gib / n - nontorch;
	case KV_SIZING_PLANNED:
		break;
	}
	return usable - (need->weights_gib + need->activation_gib) / n - need->overhead_gib;
}

int vram_device_max_batch(const struct engine *e, const struct model_spec *m,
                          const struct precision_info *p, const struct device *d, long context,
                          double kv_bytes)
{
	struct vram_need need;
	struct vram_job job = {.task = TASK_INFERENCE,
	                       .context = context,
	                       .batch = 1,
	                       .kv_bytes_per_element = kv_bytes};
	struct device at = device_with_count(d, d->count < 1 ? 1 : d->count);
	int n = at.count;
	vram_estimate_job(e, m, p, &job, &need);
	/* Per device: what one sequence's cache adds (all of it when every
	 * device holds the whole cache), and what is left beside the model. */
	double kv_gpu = need.unsplit_gib > 0 ? need.kv_gib : need.kv_gib / n;
	double free_gib = kv_room(e, m, &need, vram_device_usable(e, &at), n,
	                          at.tier[DEVICE_TIER_LOCAL].gib, at.name);
	if (kv_gpu <= 0 || free_gib < kv_gpu)
		return 0;
	double most = free_gib / kv_gpu;
	int b = most > e->max_batch ? e->max_batch : (int)most;
	/* Each sequence also holds its logits: step down until all fit. */
	for (; b > 0; b--) {
		job.batch = b;
		vram_estimate_job(e, m, p, &job, &need);
		if (vram_device_fits(e, &need, &at))
			break;
	}
	return b;
}

int vram_max_batch(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, const struct gpu_spec *gpu, int n, long context,
                   double kv_bytes)
{
	struct device d = device_from_gpu(gpu, n);
	return vram_device_max_batch(e, m, p, &d, context, kv_bytes);
}

double vram_usable(const struct engine *e, const struct gpu_spec *gpu)
{
	struct device d = device_from_gpu(gpu, 1);
	return vram_device_usable(e, &d);
}

bool vram_fits(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu,
               int n)
{
	struct device d = device_from_gpu(gpu, n);
	return vram_device_fits(e, need, &d);
}

int vram_min_gpus(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu)
{
	struct device d = device_from_gpu(gpu, 1);
	return vram_device_min_count(e, need, &d);
}

double vram_kv_room(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *gpu, int n,
                    double fraction)
{
	struct vram_need need;
	struct vram_job job = {.task = TASK_INFERENCE, .context = 1, .batch = 1};
	if (n < 1)
		n = 1;
	vram_estimate_job(e, m, p, &job, &need);
	double usable = fraction > 0 ? gpu->vram_gib * fraction : vram_usable(e, gpu);
	return kv_room(e, m, &need, usable, n, gpu->vram_gib, gpu->name);
}
