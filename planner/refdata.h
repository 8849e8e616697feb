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

/* cJSON without its header: refdata.h is included everywhere. */
struct cJSON;

/* HBM or GDDR, as the speed model classes a card (device.c,
 * device_gpu_hbm). */
enum gpu_mem_class {
	GPU_MEM_UNSET, /* not recorded: classed from the name on use */
	GPU_MEM_GDDR,
	GPU_MEM_HBM,
};

/* What kind of hardware it is: how its memory is shared and what runs the
 * matrices (device.h reads it; gpus.json says it as "kind"). */
enum device_kind {
	DEVICE_GPU,     /* a discrete accelerator with its own memory */
	DEVICE_UNIFIED, /* GPU and CPU sharing one memory (Apple Silicon, Strix Halo) */
	DEVICE_CPU,     /* CPU cores over host RAM */
};

/* How the GPUs of one node talk (gpus.json "interconnect"). */
enum gpu_interconnect {
	GPU_LINK_UNKNOWN,
	GPU_LINK_PCIE,
	GPU_LINK_NVLINK,   /* NVLink bridges between pairs */
	GPU_LINK_NVSWITCH, /* every GPU to every GPU at full NVLink rate */
};

/* What joins nodes (gpus.json "node_fabric"). */
enum node_fabric {
	NODE_FABRIC_UNKNOWN,
	NODE_FABRIC_INFINIBAND,
	NODE_FABRIC_ROCE,
	NODE_FABRIC_ETHERNET,
	NODE_FABRIC_EFA, /* AWS's Elastic Fabric Adapter (SRD over its network); offers only */
};

struct gpu_spec {
	char *name;           /* canonical name, e.g. "H100 SXM", "A100 80GB" */
	char *vendor;         /* "nvidia", "amd", "google" */
	char **aliases;       /* other spellings (as written in gpus.json) */
	size_t n_aliases;
	double vram_gib;      /* memory per GPU in GiB (2^30 bytes) */
	double bandwidth_gbs; /* memory bandwidth, GB/s (10^9 bytes/s) */
	double fp16_tflops;   /* dense FP16/BF16 tensor TFLOPS (not sparse) */
	double fp8_tflops;    /* dense FP8 tensor TFLOPS; 0 when unsupported */
	double fp4_tflops;    /* dense FP4 tensor TFLOPS (NVFP4/MXFP4); 0 when unsupported */
	double int8_tops;     /* dense INT8 tensor TOPS; 0 when unknown */
	double watts;         /* board power (TDP/TGP), W */
	double price_usd;     /* typical purchase price, USD; 0 when none public */
	char *memory_type;    /* "GDDR6", "GDDR6X", "GDDR7", "HBM2", "HBM2e", "HBM3", "HBM3e" */
	char *source;         /* where the spec figures come from, with date */
	char *price_source;   /* where the price comes from, with date; NULL if none */
	enum gpu_mem_class mem_class; /* recorded by refdata_load from the name */
	/* Devices that are not discrete GPUs (local_device.h). A GPU leaves
	 * them zero. */
	enum device_kind kind; /* "kind" in gpus.json; absent = gpu */
	char *family;          /* the chip as people name it ("M3 Max") when the table
	                        * lists its GPU-core variants apart; NULL = the name */
	double *memory_options; /* memory sizes offered, GiB, ascending; vram_gib is the
	                         * smallest (unified) or the priced machine's (cpu) */
	size_t n_memory_options;
	int threads;           /* CPU cores llama.cpp runs a thread on; 0 = not a CPU */
	char *isa;             /* the widest matrix/SIMD extension llama.cpp's CPU kernels
	                        * use: "avx2", "avx512", "amx", "neon"; NULL for a GPU */
	double gpu_share;      /* share of unified memory the GPU may wire by default;
	                        * 0 = the platform's rule (local_device_gpu_share) */
	int socket_vcpus;      /* vCPUs a cloud sells of one socket (cores x the threads
	                        * per core it leaves on); 0 = not a rented CPU part */
	/* Past one GPU (gpus.json's node_source cites each): the node it comes
	 * in, how its GPUs talk inside the node and between nodes. */
	int gpus_per_node;          /* GPUs of one board or tray; 0 = not stated: one node only */
	enum gpu_interconnect link_kind; /* inside a node */
	double link_gbs;            /* GPU-to-GPU inside a node, GB/s per GPU, both directions */
	enum node_fabric fabric;    /* between nodes; NODE_FABRIC_UNKNOWN = one node only */
	double fabric_gbps;         /* between nodes, Gb/s per GPU, one direction */
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
	int mlp_matrices;    /* 3 for gated (SwiGLU/GeGLU) MLPs, 2 for GPT-style up/down;
			      * 0 reads as 3 */
	int dense_intermediate; /* MLP width of the dense layers of an MoE model when it
				 * differs from the experts' (Llama 4 intermediate_size_mlp);
				 * 0 = intermediate */
	int mlp_layers;      /* layers with an MLP or MoE block; 0 = every layer
			      * (Nemotron-H gives MLP and mixer layers of their own) */
	/* Which layers keep a KV cache and how much of it. vram.c charges, per
	 * sequence of c tokens:
	 *   (kv_layers - sliding_layers) * c  +  sliding_layers * min(c, sliding_window)
	 * token-layers of K and V, and nothing for ssm_layers (their state is a
	 * fixed few MiB per sequence, independent of c). */
	int kv_layers;       /* layers holding a KV cache; 0 = every layer */
	int sliding_window;  /* tokens a sliding-window or chunked-attention layer
			      * keeps in its cache; 0 = none */
	int sliding_layers;  /* of kv_layers, those capped at sliding_window */
	int ssm_layers;      /* Mamba / linear-attention layers: no KV cache */
	int ssm_inner;       /* their inner width (mamba_expand * hidden) */
	int ssm_state;       /* their state per channel (mamba_d_state, ssm_state_size,
			      * state_size); 0 = not given */
	/* A quantised checkpoint (FP8, MXFP4…) keeps some layers in 16 bit:
	 * embeddings always, and whatever quantization_config lists as ignored
	 * (modules_to_not_convert, ignored_layers, ignore). vram.c charges
	 * params_16bit at 2 bytes and the rest at the checkpoint's width. */
	char *quant_method;  /* quantization_config.quant_method; NULL when none */
	double params_16bit; /* parameters kept in BF16/FP16; 0 when not quantised */
	double params_total; /* all parameters (memory), count */
	double params_active;/* parameters used per token (decode speed), count */
	char **api_models;   /* the same model at API hosts, "vendor/model" ids */
	size_t n_api_models;
	char *source;        /* where the architecture and counts come from */
};

struct gpu_alias;
struct fx_table;

/* One worker size a serverless offering bills per second
 * (schema/serverless.json). */
struct serverless_row {
	const struct gpu_spec *gpu; /* the refdata's */
	int count;                  /* GPUs of one worker */
	char *offer;                /* the provider's name of it, "gpu-a100-large" */
	double usd_per_second;      /* the whole worker */
};

/* A serverless offering: a provider's tier of workers billed per second
 * of their time (route_serverless.c). */
struct serverless_offering {
	char *provider;           /* "runpod" */
	char *tier;               /* "flex", "active" */
	char *source;             /* where the prices come from, and when */
	bool scale_to_zero;       /* false: the workers run all month */
	double idle_timeout_s;    /* the default wait before scale-down; NAN: not stated */
	double container_start_s; /* a start before the weights load; NAN: not stated */
	struct serverless_row *rows;
	size_t n_rows;
};

/* One electricity price of a country (schema/countries.json): the
 * source's figure, in the currency it is published in. */
struct country_price {
	double per_kwh;  /* in currency */
	char currency[4];/* ISO 4217, "EUR" (Eurostat), "USD" (EIA) */
	char *period;    /* "2024-S2", "2023" */
	char *label;     /* a few words for the notes: "Eurostat household price (nrg_pc_204)" */
	char *source;    /* the whole citation, from the file's sources */
};

/* A country's defaults for a job spec's country: key (spec_keys.c). They
 * never limit where data may go; that is regions:. */
struct country {
	char code[3];     /* ISO 3166-1 alpha-2, upper case */
	char *name;       /* "Netherlands" */
	char currency[4]; /* its own currency */
	char **zones;     /* IANA zones; more than one: the spec must name one */
	size_t n_zones;
	struct country_price business;  /* Eurostat non-household, EIA commercial */
	struct country_price household; /* Eurostat household, EIA residential */
};

struct refdata {
	struct gpu_spec *gpus;     /* owned */
	size_t n_gpus;
	struct model_spec *models; /* owned */
	size_t n_models;
	char *as_of;               /* date of the reference data */
	char *snapshot_as_of;      /* the bundled snapshot's own as_of (owned) */
	struct gpu_alias *keys;    /* every name and alias, normalised and sorted */
	size_t n_keys;
	/* Exchange rates through EUR (fx.h, owned): the bundled snapshot's, or
	 * the store's once a command has read them (cli_store). */
	struct fx_table *fx;
	struct serverless_offering *serverless; /* owned (refdata_serverless.c) */
	size_t n_serverless;
	struct country *countries; /* owned (refdata_countries.c) */
	size_t n_countries;
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
/* The GPU of a caller's own list whose name matches `name` after the same
 * normalisation as refdata_gpu; the list is n gpu_specs `stride` bytes
 * apart from first (a gpu_spec inside a larger struct). NULL when none. */
const struct gpu_spec *refdata_gpu_in(const struct gpu_spec *first, size_t stride, size_t n,
				      const char *name);
/* Whether two spellings name the same part after refdata_gpu's
 * normalisation ("M3 Max" and "m3-max"). */
bool refdata_same_gpu_name(const char *a, const char *b);
/* Nearest canonical GPU name, for "did you mean" messages; may be NULL. */
const char *refdata_gpu_suggest(const struct refdata *ref, const char *name);

/* The reference model with this id (case-insensitive), or NULL. */
const struct model_spec *refdata_model(const struct refdata *ref, const char *id);
const char *refdata_model_suggest(const struct refdata *ref, const char *id);
/* What to say after "unknown model 'id'" into buf: the nearest reference
 * id, if any, and that the path of the model's Hugging Face config.json
 * works too, with where to download it. Returns buf. */
char *refdata_model_advice(const struct refdata *ref, const char *id, char *buf, size_t len);

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

/* Reads the architecture of a config.json-shaped object (a Hugging Face
 * config.json or a row of models.json) into m, the text model's when it
 * sits under text_config / llm_config / language_config, under legacy key
 * names too (n_layer, n_head, n_embd, d_model, num_layers, multi_query…).
 * Every figure is checked: PLANNER_EINPUT with *err naming the field when
 * one is missing, not a whole number, or out of range, or when the derived
 * parameter count is not finite and positive. `name` is used in messages.
 * Fills params_total / params_active from the architecture. Does not set
 * id, name or source. (refdata_config.c) */
int model_read_config(const char *name, const struct cJSON *o, struct model_spec *m, char **err);

/* The embedded files (planner/embed.c); NUL-terminated. */
extern const char planner_schema_sql[];
extern const char planner_gpus_json[];
extern const char planner_models_json[];
extern const char planner_snapshot_json[];
extern const char planner_serverless_json[];
extern const char planner_countries_json[];

/* Reads the embedded serverless.json into ref (after its GPUs). Returns
 * PLANNER_OK, or PLANNER_EINPUT with *err naming the row when a GPU name
 * matches no part or a price is not positive, PLANNER_ESYS when out of
 * memory. (refdata_serverless.c) */
int refdata_load_serverless(struct refdata *ref, char **err);
/* Frees ref's serverless offerings; accepts NULL. */
void refdata_free_serverless(struct refdata *ref);

/* Reads the embedded countries.json into ref. Returns PLANNER_OK, or
 * PLANNER_EINPUT with *err naming the row when a field is missing or a
 * price not above 0, PLANNER_ESYS when out of memory.
 * (refdata_countries.c) */
int refdata_load_countries(struct refdata *ref, char **err);
/* Frees ref's countries; accepts NULL. */
void refdata_free_countries(struct refdata *ref);
/* The country of this ISO 3166 code (case-insensitive), or NULL. */
const struct country *refdata_country(const struct refdata *ref, const char *code);
/* Every code ref knows, ", "-separated, into buf; for error messages.
 * Returns buf. */
char *refdata_country_codes(const struct refdata *ref, char *buf, size_t len);

#endif
