/* vram.h — how much GPU memory a model needs (docs/estimation.md, "Memory"),
 * and whether it fits on a device (device.h): N GPUs of a kind. All sizes
 * in GiB. The fit takes the device and says what each of its count holds
 * in each memory tier (vram_place); the functions taking a gpu_spec and a
 * count build that device and ask it. */
#ifndef PLANNER_VRAM_H
#define PLANNER_VRAM_H

#include <stdbool.h>

#include "device.h"
#include "engines.h"
#include "jobspec.h"
#include "refdata.h"

struct precision_info {
	const char *name;       /* canonical lower-case name, "q4_k_m" */
	double bits_per_weight; /* real, not nominal (Q4_K_M is 4.89) */
	bool fp8_compute;       /* runs on FP8 tensor cores where present */
	bool int8_compute;      /* runs on INT8 tensor cores where present */
	bool fp4_compute;       /* runs on FP4 tensor cores where present (nvfp4, mxfp4) */
	bool experts_only;      /* named without a config, quantises the MoE experts
	                         * only (mxfp4, as gpt-oss ships) */
};

/* The precision named (case-insensitive, "Q4_K_M" == "q4_k_m"), or NULL. */
const struct precision_info *precision_find(const char *name);
/* Nearest known precision name for "did you mean"; may be NULL. */
const char *precision_suggest(const char *name);
/* Every precision's name joined by spaces into buf (cut to fit), for
 * messages and completions; returns buf. Cannot fail (truncates). */
const char *precision_list(char *buf, size_t len);
/* All known precision names, NULL-terminated (for help text). */
const char *const *precision_names(void);
/* Bits per weight of one llama.cpp tensor type (ggml_type: q4_0, q4_k,
 * iq2_xxs, tq1_0, mxfp4, ...) from its block's size: 8 x type_size /
 * blck_size. 0 for a name that is no ggml tensor type. A precision names
 * a file, which may mix types (precision_find). */
double gguf_type_bpw(const char *name);

/* Parameters a checkpoint at precision p keeps in 16 bits: none for a
 * 16-bit or wider precision or a GGUF file (llama.cpp re-quantises every
 * tensor by its recipe); the modules a config.json's quantization_config
 * leaves unconverted, with embeddings and lm_head (m->params_16bit); else,
 * for a format named without its config (awq, gptq, gptq-int8, int4, int8,
 * fp8, nf4, nvfp4), the input embedding and lm_head, which those formats
 * leave in 16 bits, and for mxfp4 on a mixture-of-experts model all but the
 * routed experts (gpt-oss keeps attention, router and embeddings in bf16).
 * The rule for both the memory and the bytes a decode step reads. */
double vram_params_16bit(const struct model_spec *m, const struct precision_info *p);

/* Parameters of one routed expert summed over the MoE layers: a token
 * skips E - k of the E routed experts, so the published total less the
 * published active count is E - k experts (shared experts, attention and
 * embeddings are in both): Qwen3-235B-A22B (235 - 22) / (128 - 8) = 1.78B.
 * 0 for a dense model. Cannot fail. */
double vram_routed_expert_params(const struct model_spec *m);

struct vram_need {
	double weights_gib;    /* model weights at the precision (all experts) */
	double kv_gib;         /* KV cache for context × batch */
	double training_gib;   /* gradients, optimizer state, adapters (0 for inference) */
	double activation_gib; /* activation peak */
	double overhead_gib;   /* per-GPU runtime overhead (CUDA context, allocator) */
	double total_gib;      /* on a single GPU: sum of the above */
	double unsplit_gib;    /* of kv_gib + activation_gib, what every GPU of a
	                        * multi-GPU run holds whole: an MLA latent cache under
	                        * tensor parallelism, a per-GPU micro-batch's activations */
	double dp_sharded_gib; /* of training_gib, what a distributed optimizer shards
	                        * over the data-parallel ranks (engines.h,
	                        * dist_optimizer_bytes); 0 for other engines */
};

/* Bytes of KV cache one token of one sequence holds while it is inside
 * every attention layer's window, with elements of the engine's KV size b
 * (2 for fp16): 2 x kv layers x kv_heads x head_dim x b, or for multi-head
 * latent attention (kv_lora_rank > 0) kv layers x (kv_lora_rank +
 * rope_head_dim) x b. Kv layers are the model's kv_layers (hybrid models:
 * SSM layers hold none), else every layer. Cannot fail. */
double vram_kv_bytes_per_token(const struct engine *e, const struct model_spec *m);

/* Token-layers of K and V one sequence of c tokens keeps (or a decode step
 * attending to c tokens reads): (kv layers - sliding_layers) x c +
 * sliding_layers x min(c, sliding_window). The one rule for memory
 * (vram.c) and decode reads (speed.c). */
double vram_kv_token_layers(const struct model_spec *m, double c);

/* Bytes of KV cache one sequence of c tokens holds, or a decode step
 * attending to c tokens reads, in KV elements of kv_el bytes (0 = the
 * engine's), sliding-window layers capped at their window. Excludes SSM
 * state (vram_ssm_state_bytes). */
double vram_kv_bytes(const struct engine *e, const struct model_spec *m, double c, double kv_el);

/* Bytes of recurrent state one sequence holds in a hybrid model's SSM
 * layers, whatever its length: per layer inner x (state + conv kernel - 1)
 * 16-bit elements. 0 for models without SSM layers. */
double vram_ssm_state_bytes(const struct model_spec *m);

/* Whether every GPU of a multi-GPU run under e holds the whole KV cache:
 * a multi-head latent attention (MLA) cache is one latent shared by all
 * heads, so tensor parallelism replicates it rather than splitting heads. */
bool vram_kv_replicated(const struct engine *e, const struct model_spec *m);

/* An optimizer a fine-tuning job can name: the bytes of state it keeps on
 * the GPU per trained parameter (AdamW's two moments). */
struct optimizer_info {
	const char *name;   /* "adamw", "adamw-bf16", "adamw-8bit", "paged-adamw-8bit" */
	double state_bytes; /* moment bytes per trained parameter held on the GPU */
};

/* The optimizer named (case-insensitive), or NULL. */
const struct optimizer_info *optimizer_find(const char *name);
/* Every optimizer name, NULL-terminated (help text, messages). */
const char *const *optimizer_names(void);

/* One job as the memory estimate sees it. Zero fields take the default. */
struct vram_job {
	enum task task;
	long context;                /* tokens per sequence (training: sequence length) */
	int batch;                   /* sequences at once (training: all GPUs together) */
	double kv_bytes_per_element; /* 0 = the engine's default KV element */
	int lora_rank;               /* LoRA/QLoRA adapter rank; 0 = VRAM_LORA_RANK */
	bool lora_attention_only;    /* adapters on q,k,v,o only (default: all linear) */
	double full_ft_bytes;        /* full fine-tuning bytes per parameter beyond the
	                              * 16-bit weights; 0 = the engine's */
	/* Training: the optimizer (NULL = the engine's default); the sequences
	 * each GPU holds activations for at once, gradient accumulation making
	 * up the batch (0 = the batch split over the GPUs); checkpointing
	 * (CKPT_ON: the engine's, on in every stack). */
	const struct optimizer_info *optimizer;
	int micro_batch;
	enum ckpt checkpointing;
};

/* Default LoRA rank: Unsloth's notebooks and torchtune's 70B recipes use
 * 16 (unslothai/unsloth README; recipes/configs/llama3_1/70B_lora.yaml). */
#define VRAM_LORA_RANK 16

/* Trainable parameters of LoRA adapters of rank r on m: r x (in + out) for
 * every targeted linear layer (Hu et al. 2021). */
double vram_lora_params(const struct model_spec *m, int rank, bool attention_only);

/* Memory the job needs under engine e; see vram_estimate. Cannot fail. */
void vram_estimate_job(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, const struct vram_job *job,
                       struct vram_need *out);

/* Memory the job needs (model, precision, task, context, batch) when
 * engine e runs it. Full fine-tuning counts 16-bit weights plus the
 * engine's gradient and optimizer bytes, LoRA the frozen weights at p plus
 * adapter state, QLoRA NF4 linear layers (16-bit embeddings) plus adapter
 * state, whatever p says. Cannot fail; e, m and p must not be NULL. */
void vram_estimate(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, enum task task, long context, int batch,
                   struct vram_need *out);

/* Memory needed on each of n GPUs under tensor parallelism: weights, KV,
 * training state and activations split n ways, except what every GPU
 * holds whole (unsplit_gib), overhead paid on each. */
double vram_per_gpu(const struct vram_need *need, int n);

/* Memory needed on each of n GPUs under engine e: tensor parallelism and a
 * layer split divide the model; data-parallel training (FSDP) shards the
 * weights and training state and splits the job's batch (sequences at
 * once, all GPUs together) over the GPUs, so all of it divides by n. */
double vram_per_gpu_engine(const struct engine *e, const struct vram_need *need, int n);

/* Memory needed on each GPU of a Megatron-style layout of tp x pp x dp
 * GPUs (a training need): weights, gradients and the training state the
 * optimizer does not shard split by tp x pp; dp_sharded_gib split over
 * every GPU; activations split by tp (sequence parallelism) and, when
 * they are the whole batch's, by dp; overhead on each. Korthikanti et al.
 * 2022 sec. 4.2-4.3: with 1F1B the first stage holds pp micro-batches of
 * its L/pp layers, one micro-batch of all L layers. Without a layout
 * (vram_per_gpu) planner takes the one that needs least: every byte split
 * over the n GPUs, as tensor x pipeline parallel over all of them does. */
double vram_per_gpu_layout(const struct vram_need *need, int tp, int pp, int dp);

/* Where a job's memory lies on a device: what each device of its count
 * holds in each memory tier, and how much of the tier the engine plans
 * inside. Today everything lies in DEVICE_TIER_LOCAL; a split of the
 * layers over the host tier (llama.cpp -ngl) will fill need_gib[1]. */
struct vram_fit {
	double need_gib[DEVICE_MAX_TIERS];   /* per device, in each tier */
	double usable_gib[DEVICE_MAX_TIERS]; /* per device, what the engine may use */
	bool fits;                           /* every tier's need within its usable */
};

/* Places the job (need, estimated for e) on device d (*out) and returns
 * whether it fits. A device the fit does not model yet (device_modelled:
 * a kind other than gpu, a count below 1) does not fit, with the reason in
 * why (len bytes) when why is not NULL. Cannot fail otherwise. */
bool vram_place(const struct engine *e, const struct vram_need *need, const struct device *d,
                struct vram_fit *out, char *why, size_t len);

/* True when the job (need, estimated for e) fits on device d: vram_place's
 * answer. */
bool vram_device_fits(const struct engine *e, const struct vram_need *need, const struct device *d);

/* What the job (need, estimated for e) leaves free on each device of d,
 * in GiB: usable less needed, negative when it does not fit, and -INFINITY
 * on a device the fit does not model. vram_device_fits is this >= 0. */
double vram_device_slack(const struct engine *e, const struct vram_need *need,
                         const struct device *d);

/* Memory of one device's own tier that a model may use: its size times the
 * usable fraction that engine e pre-allocates. */
double vram_device_usable(const struct engine *e, const struct device *d);

/* Fewest devices like d (1, 2, 4, … e->max_tp: tensor-parallel sizes; d's
 * own count is not read) that fit the job, or 0 when even e->max_tp do not. */
int vram_device_min_count(const struct engine *e, const struct vram_need *need,
                          const struct device *d);

/* The most sequences of `context` tokens each (KV elements of kv_bytes,
 * 0 = the engine's) whose KV cache fits on device d beside the weights, as
 * a throughput-oriented server fills its cache, capped at the engine's
 * scheduler limit; 0 when not even one fits. */
int vram_device_max_batch(const struct engine *e, const struct model_spec *m,
                          const struct precision_info *p, const struct device *d, long context,
                          double kv_bytes);

/* The same four questions of n GPUs of kind gpu (device_from_gpu). */
int vram_max_batch(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, const struct gpu_spec *gpu, int n, long context,
                   double kv_bytes);
double vram_usable(const struct engine *e, const struct gpu_spec *gpu);

/* GiB each of n GPUs of kind gpu leaves for the KV cache of a serving
 * engine, as the engine sizes it: fraction of the card (0: the engine's
 * usable_fraction, e.g. vLLM's --gpu-memory-utilization) less this GPU's
 * share of the weights and of the profiling run's activation peak and the
 * per-GPU runtime memory. May be negative. */
double vram_kv_room(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *gpu, int n,
                    double fraction);
bool vram_fits(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu,
               int n);
int vram_min_gpus(const struct engine *e, const struct vram_need *need, const struct gpu_spec *gpu);

#endif
