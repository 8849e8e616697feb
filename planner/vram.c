/* vram.c — GPU memory a job needs (docs/estimation.md, "Memory").
 *
 * Everything is counted in bytes and reported in GiB (2^30), the unit
 * nvidia-smi and the serving engines print; vendors' "80 GB" cards are
 * converted to GiB in the reference data, not here. */
#include "vram.h"

#include <stddef.h>
#include <strings.h>

#include "util.h"

#define GIB 1073741824.0

/* ---- Bits per weight ------------------------------------------------------
 *
 * Real bits per weight, scales and mixed tensors included, so that
 * params x bpw / 8 lands on the published file size.
 *
 * GGUF k-quant recipes (Q*_K_M etc.) mix tensor types, so their bpw is the
 * model-level figure measured by llama.cpp on Llama-3.1-8B in
 * tools/quantize/README.md (ggml-org/llama.cpp): Q2_K 3.1593,
 * Q3_K_M 3.9960, Q4_K_M 4.8944 (4.58 GiB), Q5_K_M 5.7036, Q6_K 6.5633,
 * Q8_0 8.5008, F16 16.0005 (14.96 GiB). The older README table for
 * Llama-2-7B gives slightly lower mixes (Q4_K_M 4.84, Q3_K_M 3.91, Q2_K 3.35)
 * because its vocabulary, kept at higher precision, is 4x smaller.
 * Single-type legacy quants follow from their block layout (ggml-common.h):
 * Q4_0 = 32 4-bit weights + one fp16 scale = 18 bytes / 32 = 4.5 bpw;
 * Q5_0 = 22 bytes / 32 = 5.5; Q8_0 = 34 bytes / 32 = 8.5. */
#define BPW_Q2_K   3.16
#define BPW_Q3_K_M 4.00
#define BPW_Q4_0   4.5
#define BPW_Q4_K_M 4.89
#define BPW_Q5_0   5.5
#define BPW_Q5_K_M 5.70
#define BPW_Q6_K   6.5625 /* 210 bytes per 256-weight super-block */
#define BPW_Q8_0   8.5

/* AWQ / GPTQ "4-bit" (also `int4`): 4-bit weights in groups of 128 with a
 * 16-bit scale and a 16-bit zero point per group: 4 + 32/128 = 4.25 bpw.
 * (AutoAWQ/GPTQ default q_group_size 128; checkpoints that pack zeros as
 * int4 come out a little lower, fp16 embeddings a little higher.) */
#define BPW_INT4_G128 4.25

/* bitsandbytes NF4 (QLoRA, Dettmers et al. 2023): 4-bit codes in blocks of
 * 64 with one fp32 absmax per block: 4 + 32/64 = 4.5 bpw. Double
 * quantisation (bnb_4bit_use_double_quant, off by default in transformers'
 * BitsAndBytesConfig) would bring the constants from 0.5 to 0.127 bits. */
#define BPW_NF4 4.5

static const struct precision_info precisions[] = {
	{ .name = "fp32", .bits_per_weight = 32.0 },
	{ .name = "bf16", .bits_per_weight = 16.0 },
	{ .name = "fp16", .bits_per_weight = 16.0 },
	/* Per-tensor / per-channel scales add well under 0.1 bit. */
	{ .name = "fp8", .bits_per_weight = 8.0, .fp8_compute = true },
	{ .name = "int8", .bits_per_weight = 8.0, .int8_compute = true },
	{ .name = "q8_0", .bits_per_weight = BPW_Q8_0 },
	{ .name = "q6_k", .bits_per_weight = BPW_Q6_K },
	{ .name = "q5_k_m", .bits_per_weight = BPW_Q5_K_M },
	{ .name = "q5_0", .bits_per_weight = BPW_Q5_0 },
	{ .name = "q4_k_m", .bits_per_weight = BPW_Q4_K_M },
	{ .name = "q4_0", .bits_per_weight = BPW_Q4_0 },
	{ .name = "q3_k_m", .bits_per_weight = BPW_Q3_K_M },
	{ .name = "q2_k", .bits_per_weight = BPW_Q2_K },
	{ .name = "int4", .bits_per_weight = BPW_INT4_G128 },
	{ .name = "awq", .bits_per_weight = BPW_INT4_G128 },
	{ .name = "gptq", .bits_per_weight = BPW_INT4_G128 },
	{ .name = "nf4", .bits_per_weight = BPW_NF4 },
};

#define N_PRECISIONS (sizeof precisions / sizeof precisions[0])

/* Other spellings people write, mapped to the canonical entry. */
static const struct {
	const char *alias;
	const char *name;
} precision_aliases[] = {
	{ "bnb4", "nf4" },   { "f32", "fp32" },     { "f16", "fp16" },
	{ "float16", "fp16" }, { "bfloat16", "bf16" }, { "float32", "fp32" },
};

static const char *const precision_name_list[] = {
	"fp32", "bf16", "fp16", "fp8", "int8", "q8_0", "q6_k", "q5_k_m", "q5_0",
	"q4_k_m", "q4_0", "q3_k_m", "q2_k", "int4", "awq", "gptq", "nf4", "bnb4", NULL,
};

const struct precision_info *precision_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < sizeof precision_aliases / sizeof precision_aliases[0]; i++)
		if (strcasecmp(name, precision_aliases[i].alias) == 0)
			name = precision_aliases[i].name;
	for (size_t i = 0; i < N_PRECISIONS; i++)
		if (strcasecmp(name, precisions[i].name) == 0)
			return &precisions[i];
	return NULL;
}

const char *precision_suggest(const char *name)
{
	if (!name)
		return NULL;
	size_t n = sizeof precision_name_list / sizeof precision_name_list[0] - 1;
	return nearest_name(name, precision_name_list, n);
}

const char *const *precision_names(void)
{
	return precision_name_list;
}

/* ---- Memory --------------------------------------------------------------
 *
 * What the engine decides (usable fraction of the card, runtime overhead,
 * KV element size, prefill micro-batch, tensor-parallel sizes) comes from
 * its profile (engines.c); the rest follows from the model and the task. */

/* Full fine-tuning with Adam in mixed precision (ZeRO paper, Rajbhandari et
 * al. 2020, "16 bytes per parameter"): bf16 weights 2 + bf16 gradients 2 +
 * fp32 master weights 4 + fp32 Adam first and second moments 4 + 4. */
#define FULL_FT_BYTES_PER_PARAM 16.0
/* The part of those 16 bytes that is the weights themselves (bf16). */
#define FULL_FT_WEIGHT_BYTES 2.0

/* LoRA adapters: trainable parameters as a fraction of the model. Rank 16
 * on every linear layer of Llama-2-7B is 40 M parameters (0.6 %); the
 * QLoRA paper's rank 64 on every linear layer is about 2.4 %; we charge 1 %.
 * Each adapter parameter is trained like a full fine-tune's (fp32 weight,
 * gradient and two Adam moments, PEFT's default): 16 bytes. */
#define LORA_PARAM_FRACTION 0.01
#define LORA_BYTES_PER_ADAPTER_PARAM 16.0

/* Training activations with activation (gradient) checkpointing, the
 * default of QLoRA/LoRA recipes (prepare_model_for_kbit_training) and of
 * large full fine-tunes: each layer keeps its bf16 input (2 bytes x hidden
 * per token), and one layer at a time is recomputed holding the full set,
 * 34 x hidden bytes per token with flash attention (Korthikanti et al.
 * 2022, "Reducing Activation Recomputation", s*b*h*34 without the
 * attention-score term that flash attention never stores). */
#define ACT_CHECKPOINT_BYTES_PER_HIDDEN 2.0
#define ACT_LAYER_BYTES_PER_HIDDEN 34.0
/* Logits and their gradient in fp32 over the vocabulary, for every token of
 * the micro-batch (the loss upcasts logits to fp32). */
#define LOGIT_BYTES_TRAIN 8.0
/* Inference only keeps fp32 logits of the last position of each sequence. */
#define LOGIT_BYTES_INFER 4.0

double vram_kv_bytes_per_token(const struct engine *e, const struct model_spec *m)
{
	if (m->kv_lora_rank > 0)
		/* MLA caches one compressed latent plus the decoupled RoPE key
		 * per layer, shared by all heads (DeepSeek-V2 paper, sec. 2.1). */
		return (double)m->layers * (m->kv_lora_rank + m->rope_head_dim) *
		       e->kv_bytes_per_element;
	int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	return 2.0 * m->layers * kv * m->head_dim * e->kv_bytes_per_element;
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
	return tokens * m->hidden * ACT_CHECKPOINT_BYTES_PER_HIDDEN * m->layers +
	       tokens * m->hidden * ACT_LAYER_BYTES_PER_HIDDEN +
	       tokens * m->vocab * LOGIT_BYTES_TRAIN;
}

void vram_estimate(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, enum task task, long context, int batch,
                   struct vram_need *out)
{
	double params = m->params_total; /* every expert sits in memory */
	double ctx = context > 0 ? (double)context : 0.0;
	int b = batch > 0 ? batch : 1;
	double tokens = ctx * b;
	double weight_bytes = params * p->bits_per_weight / 8.0;
	double train_bytes = 0.0;

	switch (task) {
	case TASK_INFERENCE:
		break;
	case TASK_FINETUNE_FULL:
		/* Mixed precision keeps bf16 weights even when the job names a
		 * quantised precision; fp32 weights need no master copy. */
		if (p->bits_per_weight / 8.0 < FULL_FT_WEIGHT_BYTES)
			weight_bytes = params * FULL_FT_WEIGHT_BYTES;
		train_bytes = params * FULL_FT_BYTES_PER_PARAM - weight_bytes;
		if (train_bytes < 0)
			train_bytes = 0;
		break;
	case TASK_FINETUNE_QLORA:
		/* QLoRA means an NF4 base whatever precision the job names. */
		weight_bytes = params * BPW_NF4 / 8.0;
		train_bytes = params * LORA_PARAM_FRACTION * LORA_BYTES_PER_ADAPTER_PARAM;
		break;
	case TASK_FINETUNE_LORA:
		train_bytes = params * LORA_PARAM_FRACTION * LORA_BYTES_PER_ADAPTER_PARAM;
		break;
	}

	out->weights_gib = weight_bytes / GIB;
	/* Training holds no KV cache: each step's attention is recomputed. */
	out->kv_gib = task == TASK_INFERENCE ? vram_kv_bytes_per_token(e, m) * tokens / GIB : 0.0;
	out->training_gib = train_bytes / GIB;
	out->activation_gib = activation_bytes(e, m, task, tokens, b) / GIB;
	out->overhead_gib = e->overhead_gib;
	out->total_gib = out->weights_gib + out->kv_gib + out->training_gib + out->activation_gib +
			 out->overhead_gib;
}

double vram_per_gpu(const struct vram_need *need, int n)
{
	if (n < 1)
		n = 1;
	double split = need->weights_gib + need->kv_gib + need->training_gib + need->activation_gib;
	return split / n + need->overhead_gib;
}

double vram_usable(const struct engine *e, const struct gpu_spec *gpu)
{
	return gpu->vram_gib * e->usable_fraction;
}

bool vram_fits(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu,
               int n)
{
	if (n < 1)
		return false;
	return vram_per_gpu(need, n) <= vram_usable(e, gpu);
}

int vram_min_gpus(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu)
{
	/* Tensor-parallel degrees: powers of two up to the engine's largest. */
	for (int n = 1; n <= e->max_tp; n *= 2)
		if (vram_fits(e, need, gpu, n))
			return n;
	return 0;
}
