/* engines.h — the numbers of the software that runs a job, as opposed to
 * the model's or the GPU's own (docs/estimation.md, "Engines"): how much
 * of a card the engine plans inside, what it keeps per GPU, how it spreads
 * a model over several GPUs, how close it gets to the card's bandwidth and
 * FLOPS, and for training stacks how they hold logits, activations and
 * optimizer state. vram.c and speed.c read them from an engine profile;
 * each profile is one row of engines[] in engines.c, with the source of
 * every figure beside it. */
#ifndef PLANNER_ENGINES_H
#define PLANNER_ENGINES_H

#include <stdbool.h>
#include <stddef.h>

/* How an engine spreads one model over n GPUs. */
enum multi_gpu {
	MULTI_TENSOR_PARALLEL, /* every matrix split n ways (vLLM, SGLang, TensorRT-LLM) */
	MULTI_LAYER_SPLIT,     /* whole layers per GPU, run one after another (llama.cpp) */
	MULTI_DATA_PARALLEL,   /* sharded training state, each GPU its own batch (FSDP) */
};

/* Memory technology of a card: decode efficiency differs between them. */
enum gpu_memory { MEM_GDDR, MEM_HBM, MEM_KINDS };

struct engine {
	const char *name;    /* "vllm", "llama.cpp", ...; what a job spec names */
	const char *summary; /* one line on what the profile models */
	bool inference;      /* runs inference jobs */
	bool training;       /* runs fine-tuning jobs */

	/* Memory (vram.c). */
	double usable_fraction;      /* of a card's memory the engine plans inside */
	double overhead_gib;         /* runtime overhead on every GPU, GiB */
	double kv_bytes_per_element; /* default KV cache element size, bytes */
	double kv_fp8_bytes;         /* element size of its fp8 KV option; 0 = none */
	double prefill_chunk_tokens; /* tokens one prefill micro-batch holds live */
	int max_tp;                  /* most GPUs it splits one model over, a power of two */
	/* How the engine sizes its KV cache (vram_kv_room): */
	enum kv_sizing {
		KV_SIZING_PLANNED,  /* what is left of usable_fraction beside weights,
		                     * the job's activations and overhead_gib */
		KV_SIZING_PROFILED, /* vLLM: usable_fraction less the weights, the peak
		                     * of a profiling forward of kv_profile_tokens and a
		                     * sampler run over kv_sampler_seqs, and non-torch
		                     * memory (kv_nontorch_gib, + kv_tp_gib with n > 1) */
		KV_SIZING_STATIC,   /* SGLang: usable_fraction less the weights and
		                     * non-torch memory; activations live outside it */
	} kv_sizing;
	double kv_profile_tokens[2]; /* [0] smaller cards, [1] big ones (engines.c) */
	double kv_sampler_seqs[2];   /* the same split */
	double kv_nontorch_gib;      /* non-torch memory counted against the fraction */
	double kv_tp_gib;            /* more of it on each GPU with n > 1 (NCCL) */

	/* Speed (speed.c). */
	enum multi_gpu multi_gpu;
	double decode_eta[MEM_KINDS]; /* fraction of memory bandwidth a decode step reaches */
	double compute_eta[MEM_KINDS]; /* fraction of dense tensor FLOPS prefill reaches */
	double train_mfu;             /* model FLOPs utilisation of fine-tuning */
	double tp_efficiency[MEM_KINDS]; /* per-GPU efficiency with n > 1 GPUs: PCIe
	                                  * cards (GDDR) vs NVLink parts (HBM) */
	double pipeline_batch_tokens;    /* layer split: prompt tokens one pipelined batch
	                                  * spreads over the GPUs, in micro-batches of
	                                  * prefill_chunk_tokens; 0 = no pipelining */
	bool fp16_accumulate;            /* prefill multiplies in FP16 with FP16 accumulate:
	                                  * the card's FP16-accumulate tensor rate */
	bool dequant_pass;               /* weight-only quantised weights are expanded to
	                                  * FP16 once per prefill micro-batch */
	bool prefix_caching;             /* reuses the KV of a prompt prefix it has seen:
	                                  * request.cached_share skips that prefill */
	int max_batch;                /* most sequences it schedules at once */
	double step_overhead_s;       /* fixed time of every decode step beyond the GPU's
	                               * reads (scheduling, sampling, launches), s */
	double moe_eta;               /* share of the rates above a mixture-of-experts model
	                               * reaches (grouped GEMMs, routing, expert dispatch);
	                               * 0 reads as 1 */

	/* Training (vram.c); 0 / false for inference engines. */
	double logit_bytes;        /* bytes per token per vocabulary entry the loss holds */
	bool grad_checkpointing;   /* activation checkpointing on by default */
	bool offload_checkpoints;  /* checkpointed activations kept in host memory */
	bool selective_recompute;  /* only the attention core is recomputed (a job's
	                            * checkpointing: selective; engine_set_checkpointing) */
	bool flash_attention;      /* training attention never stores the score matrix */
	double optimizer_bytes;    /* optimizer state per trained parameter, bytes */
	double full_ft_bytes;      /* full fine-tuning: bytes per parameter beyond the
	                            * 16-bit weights (gradients, master copy, optimizer) */
	const char *optimizer;     /* the recipe's default optimizer, for messages */
	double dist_optimizer_bytes; /* of full_ft_bytes, the bytes per parameter a
	                              * distributed optimizer shards over the
	                              * data-parallel ranks (Megatron: fp32 master
	                              * copy and Adam moments) while weights and
	                              * gradients are split by tp x pp only; 0 = the
	                              * engine shards everything alike (FSDP) */
	bool selective_default;      /* the engine's own checkpointing (a job's `on`) is
	                              * selective recomputation, and its train_mfu is of
	                              * runs that recompute no more (Megatron) */
	bool fp8_frozen;             /* LoRA on an fp8 base multiplies in FP8 too
	                              * (Transformer Engine): the FP8 training rate */

	/* Launch (export_k8s.c): how a run command that starts this engine asks
	 * for tensor parallelism over a pod's GPUs; NULL launcher: none is
	 * added. */
	const char *launcher;    /* a command containing this starts the engine */
	const char *tp_option;   /* appended with the GPU count: "--tp-size" */
	const char *tp_given[2]; /* a command containing any of these sets it already */
};

/* Sets the copy e of a training profile to a job's checkpointing (enum
 * ckpt, jobspec.h, passed as int): CKPT_ON leaves the engine's own (every
 * stack checkpoints each layer; Unsloth offloads), CKPT_OFF keeps every
 * layer's activations, CKPT_SELECTIVE too but recomputes the attention
 * core. Cannot fail. */
void engine_set_checkpointing(struct engine *e, int ckpt);

/* Whether vLLM counts a card of gib GiB named name as big (index 1 of
 * kv_profile_tokens / kv_sampler_seqs). */
bool engine_big_card(double gib, const char *name);

/* Every profile, in the order help text lists them. */
extern const struct engine engines[];
extern const size_t n_engines;

/* The profile a job gets when its spec names none: llama.cpp for GGUF
 * precisions (q*_k*, q4_0, q8_0, ...), vLLM for other inference, Hugging
 * Face transformers + PEFT for fine-tuning. Never NULL. */
const struct engine *engine_for(bool training, const char *precision);

/* engine_for(false, "bf16"): vLLM. Never NULL. */
const struct engine *engine_default(void);

/* The profile named (case-insensitive), or NULL. */
const struct engine *engine_find(const char *name);

/* Whether precision names a GGUF (llama.cpp) quantisation. */
bool engine_gguf_precision(const char *precision);

/* Bytes of one KV-cache element under engine e for dtype "bf16", "fp16",
 * "auto" (NULL too: the engine's default) or "fp8" (llama.cpp: q8_0, its
 * 8-bit cache); 0 when the engine has no such option. */
double engine_kv_bytes(const struct engine *e, const char *dtype);

/* Engine names joined by ", " into buf (for messages and help). */
const char *engine_names(char *buf, size_t len);

/* The names of the engines that run fine-tuning (training) or inference
 * (!training), in engines[] order, joined by sep, the last two by last
 * ("vllm, sglang or llama.cpp"), into buf (len bytes, cut to fit): the
 * lists help and messages show, so a new row is named there by itself.
 * Returns buf. */
const char *engine_names_for(bool training, const char *sep, const char *last, char *buf,
                             size_t len);

/* The option to append, with the GPU count, to `command` so that e splits
 * its model over a pod's GPUs: e's tp_option when command starts e (names
 * its launcher) and sets no degree of its own; NULL otherwise. */
const char *engine_tp_option(const struct engine *e, const char *command);

#endif
