/* refdata.h — the reference data compiled into the binary: GPU specs,
 * model architectures, and the canonical-GPU-name alias table shared by
 * the planner and every provider adapter.
 *
 * The data lives in schema/gpus.json and schema/models.json (each figure
 * with its source), embedded at build time by planner/embed.c and parsed
 * with cJSON by refdata_load(). */
#ifndef PLANNER_REFDATA_H
#define PLANNER_REFDATA_H

#include <stdbool.h>
#include <stddef.h>

struct gpu_spec {
	char *name;           /* canonical name, e.g. "H100 SXM", "A100 80GB" */
	char *vendor;         /* "nvidia", "amd", "google" */
	char **aliases;       /* other spellings (as written in gpus.json) */
	size_t n_aliases;
	double vram_gib;      /* memory per GPU in GiB (2^30 bytes) */
	double bandwidth_gbs; /* memory bandwidth, GB/s (10^9 bytes/s) */
	double fp16_tflops;   /* dense FP16/BF16 tensor TFLOPS (not sparse) */
	double fp8_tflops;    /* dense FP8 tensor TFLOPS; 0 when unsupported */
	double int8_tops;     /* dense INT8 tensor TOPS; 0 when unknown */
	double watts;         /* board power (TDP/TGP), W */
	double price_usd;     /* typical purchase price, USD; 0 when none public */
	char *source;         /* where the spec figures come from, with date */
	char *price_source;   /* where the price comes from, with date; NULL if none */
};

struct model_spec {
	char *id;            /* reference id ("llama-3.1-8b") or config path */
	char *name;          /* display name */
	int layers;          /* num_hidden_layers */
	int hidden;          /* hidden_size */
	int heads;           /* num_attention_heads */
	int kv_heads;        /* num_key_value_heads (GQA); = heads for MHA */
	int head_dim;        /* head_dim as given by config (not hidden/heads) */
	int intermediate;    /* intermediate_size (dense MLP, or per expert) */
	int vocab;           /* vocab_size */
	long max_context;    /* max_position_embeddings */
	bool tied_embeddings;/* tie_word_embeddings */
	int experts;         /* routed experts per MoE layer; 0 for dense */
	int experts_active;  /* experts used per token; 0 for dense */
	int moe_intermediate;/* per-expert MLP width; 0 = intermediate */
	int shared_experts;  /* always-on experts per MoE layer (DeepSeek) */
	int first_dense;     /* leading dense layers before MoE (first_k_dense_replace) */
	int kv_lora_rank;    /* multi-head latent attention latent size; 0 if none */
	int rope_head_dim;   /* MLA decoupled RoPE key dim (qk_rope_head_dim) */
	double params_total; /* all parameters (memory), count */
	double params_active;/* parameters used per token (decode speed), count */
	char **api_models;   /* the same model at API hosts, "vendor/model" ids */
	size_t n_api_models;
	char *source;        /* where the architecture and counts come from */
};

struct gpu_alias;

struct refdata {
	struct gpu_spec *gpus;     /* owned */
	size_t n_gpus;
	struct model_spec *models; /* owned */
	size_t n_models;
	char *as_of;               /* date of the reference data */
	struct gpu_alias *keys;    /* every name and alias, normalised and sorted */
	size_t n_keys;
};

/* One entry of the alias table: a normalised spelling and its part. */
struct gpu_alias {
	char key[64];               /* lower-case letters and digits, vendor words dropped */
	const struct gpu_spec *gpu; /* the part it names */
};

/* Parses the compiled-in reference data. Returns PLANNER_OK and a new
 * refdata (free with refdata_free), or an error code with *err set. */
int refdata_load(struct refdata **out, char **err);
void refdata_free(struct refdata *ref);

/* Canonical GPU for any spelling a feed or a user might write ("H100 SXM5",
 * "NVIDIA H100 80GB HBM3", "h100-80gb", "GeForce RTX 4090"), matching one
 * alias table after normalisation (case, punctuation, vendor words). NULL
 * when nothing matches: callers report the name, they never guess. */
const struct gpu_spec *refdata_gpu(const struct refdata *ref, const char *name);
/* Nearest canonical GPU name, for "did you mean" messages; may be NULL. */
const char *refdata_gpu_suggest(const struct refdata *ref, const char *name);

/* The reference model with this id (case-insensitive), or NULL. */
const struct model_spec *refdata_model(const struct refdata *ref, const char *id);
const char *refdata_model_suggest(const struct refdata *ref, const char *id);

/* Reads a Hugging Face config.json into *out (a deep copy the caller frees
 * with model_spec_clear). Parameter counts are derived from the
 * architecture. Returns PLANNER_OK or PLANNER_EINPUT with *err set. */
int model_from_config(const char *path, struct model_spec *out, char **err);
/* Same, from a buffer of len bytes (need not be NUL-terminated); `name`
 * becomes the model's id and is used in messages. Needs no disk. */
int model_from_config_text(const char *name, const char *text, size_t len, struct model_spec *out,
			   char **err);
/* Deep-copies src into dst. Returns false when out of memory. */
bool model_spec_copy(struct model_spec *dst, const struct model_spec *src);
/* Frees what a model_spec owns (not the struct itself); accepts NULL. */
void model_spec_clear(struct model_spec *m);
/* Parameter count implied by the architecture fields (embeddings, attention,
 * MLP or experts, norms). Used for config.json models and to check the
 * reference table. Sets *active to the per-token count. */
double model_param_count(const struct model_spec *m, double *active);

/* The embedded files (planner/embed.c); NUL-terminated. */
extern const char planner_schema_sql[];
extern const char planner_gpus_json[];
extern const char planner_models_json[];
extern const char planner_snapshot_json[];

#endif
