/* check_calibration.c — planner's estimates against the published
 * measurements of tests/calibration/measurements.tsv (issue 10, "How it
 * is checked"; tests/calibration/README.md).
 *
 * Every row the estimator can express (a model in the reference table or
 * in the small architecture table below, a GPU it knows, a precision and
 * an engine it models) is estimated with the row's engine and settings.
 * Whole sources (the source_id column: one publisher's table or page for
 * one engine version) are fit or held out (issue 25; split.py's rule). The
 * suite prints, per kind, the median absolute error on the fit and the
 * held-out sources, how many rows were used or skipped and why, and one
 * line per source and kind:
 *
 *   make calibration    (CK_RUN_SUITE=calibration build/tests/run)
 *
 * (CALIBRATION_RATIOS=1 also prints every row's measured / estimated,
 * the input of the fitting procedure in the README.) It then holds each
 * kind to the target and each source to 40 %, or where planner
 * does not reach one yet to the figure it reaches (a ratchet, so it cannot
 * get worse), and fails when a source is on both sides. */
#include <check.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "confidence.h"
#include "engines.h"
#include "parallel.h"
#include "speed.h"
#include "testutil.h"
#include "util.h"
#include "vram.h"

#define TSV "tests/calibration/measurements.tsv"
#define GIB 1073741824.0
#define MAX_ROWS 2048
#define MAX_COLS 32

/* ---- The reader ---------------------------------------------------------- */

enum col {
	C_ID, C_KIND, C_MODEL, C_PARAMS, C_PREC, C_ENGINE, C_GPU, C_COUNT, C_PARALLEL, C_CONTEXT,
	C_BATCH, C_IN, C_OUT, C_KV, C_FT, C_RANK, C_TARGETS, C_MICRO, C_OPT, C_CKPT, C_SEQ, C_VALUE,
	C_UNIT, C_NOTES, C_SOURCE, C_SPLIT, N_COLS
};

static const char *const col_names[N_COLS] = {
    "id",         "kind",          "model",      "params_b",   "precision",   "engine",
    "gpu",        "gpu_count",     "parallel",   "context",    "batch",       "input_tokens",
    "output_tokens", "kv_dtype",   "ft_method",  "lora_rank",  "lora_targets", "micro_batch",
    "optimizer",  "grad_ckpt",     "seq_len",    "value",      "unit",        "notes",
    "source_id",  "split"};

struct row {
	const char *c[N_COLS];
};

/* The file's rows, cells pointing into one buffer that is never freed (the
 * runner forks per test). */
static size_t read_rows(struct row *rows, size_t max)
{
	char *text = test_slurp(TSV);
	ck_assert_msg(text != NULL, "cannot read %s", TSV);
	int map[MAX_COLS];
	size_t n = 0;
	bool header = true;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		const char *cells[MAX_COLS] = {0};
		size_t nc = 0;
		for (char *p = line;; p++) {
			if (nc < MAX_COLS)
				cells[nc] = p;
			nc++;
			p = strchr(p, '\t');
			if (!p)
				break;
			*p = '\0';
		}
		if (header) {
			for (size_t i = 0; i < nc && i < MAX_COLS; i++) {
				map[i] = -1;
				for (int k = 0; k < N_COLS; k++)
					if (!strcmp(cells[i], col_names[k]))
						map[i] = k;
			}
			header = false;
			continue;
		}
		ck_assert_uint_lt(n, max);
		for (int k = 0; k < N_COLS; k++)
			rows[n].c[k] = "";
		for (size_t i = 0; i < nc && i < MAX_COLS; i++)
			if (map[i] >= 0)
				rows[n].c[map[i]] = cells[i];
		n++;
	}
	return n;
}

/* ---- What a row means ----------------------------------------------------- */

/* Models of the set that are not in the reference table, from their
 * Hugging Face config.json (read 2026-11-30): meta-llama/Llama-2-7b-hf,
 * Llama-2-13b-hf, Llama-2-70b-hf and codellama/CodeLlama-34b-hf. Llama 2
 * 7B/13B are multi-head (kv = heads); 70B and CodeLlama-34B use 8 KV heads. */
static const struct model_spec extra_models[] = {
    {.id = "llama-2-7b", .layers = 32, .hidden = 4096, .heads = 32, .kv_heads = 32,
     .head_dim = 128, .intermediate = 11008, .vocab = 32000, .max_context = 4096},
    {.id = "llama-2-13b", .layers = 40, .hidden = 5120, .heads = 40, .kv_heads = 40,
     .head_dim = 128, .intermediate = 13824, .vocab = 32000, .max_context = 4096},
    {.id = "llama-2-70b", .layers = 80, .hidden = 8192, .heads = 64, .kv_heads = 8,
     .head_dim = 128, .intermediate = 28672, .vocab = 32000, .max_context = 4096},
    {.id = "codellama-34b", .layers = 48, .hidden = 8192, .heads = 64, .kv_heads = 8,
     .head_dim = 128, .intermediate = 22016, .vocab = 32000, .max_context = 16384},
};

/* Source names → model id. Llama 3 8B/70B have the architecture of 3.1
 * (same layers, widths, heads and vocabulary; only RoPE scaling and
 * context differ: meta-llama/Meta-Llama-3-8B vs Llama-3.1-8B config.json).
 * QwQ-32B is Qwen2.5-32B's architecture, DeepSeek-R1-Distill-Qwen-14B
 * Qwen2.5-14B's (their config.json). First match wins. */
static const struct {
	const char *needle;
	const char *id;
} model_names[] = {
    {"Llama-3.1-8B", "llama-3.1-8b"},   {"Llama-3-8B", "llama-3.1-8b"},
    {"Llama-3.1-70B", "llama-3.1-70b"}, {"Llama-3-70B", "llama-3.1-70b"},
    {"Llama-3.3-70B", "llama-3.3-70b"}, {"Llama-3.1-405B", "llama-3.1-405b"},
    {"Llama-3.2-3B", "llama-3.2-3b"},   {"QwQ-32B", "qwen2.5-32b"},
    {"Distill-Qwen-14B", "qwen2.5-14b"}, {"Llama-2-70B", "llama-2-70b"},
    {"Llama-2-13B", "llama-2-13b"},     {"Llama-2-7B", "llama-2-7b"},
    {"llama 7B", "llama-2-7b"},         {"LLaMA 7B", "llama-2-7b"},
    {"LLaMA 70B", "llama-2-70b"},       {"CodeLlama-34B", "codellama-34b"},
    {"Qwen3-235B-A22B", "qwen3-235b-a22b"}, {"gpt-oss-120b", "gpt-oss-120b"},
    /* issue 25's rows: the reference table's ids under their HF names */
    {"Llama-4-Scout", "llama-4-scout"},     {"Llama-4-Maverick", "llama-4-maverick"},
    {"Qwen3-30B-A3B", "qwen3-30b-a3b"},     {"Mixtral-8x7B", "mixtral-8x7b"},
    {"Mixtral-8x22B", "mixtral-8x22b"},     {"Mistral-7B", "mistral-7b"},
    {"gpt-oss-20b", "gpt-oss-20b"},         {"DeepSeek-R1", "deepseek-r1"},
    {"DeepSeek-V3", "deepseek-v3"},         {"Qwen2.5-7B", "qwen2.5-7b"},
    {"Qwen2.5-72B", "qwen2.5-72b"},         {"Qwen2.5-32B", "qwen2.5-32b"},
    {"Qwen3-8B", "qwen3-8b"},               {"Qwen3-32B", "qwen3-32b"},
    {"Qwen3-14B", "qwen3-14b"},             {"Llama-3.2-1B", "llama-3.2-1b"},
    {"gemma-2-9b", "gemma-2-9b"},           {"gemma-3-27b", "gemma-3-27b"},
    {"Llama-2-70b", "llama-2-70b"},
};

static struct model_spec extra_resolved[sizeof extra_models / sizeof extra_models[0]];

/* Meta's Llama-3.1-405B-Instruct-FP8 keeps every layer's attention and
 * lm_head in BF16 (its config.json: quantization_config fbgemm_fp8,
 * modules_to_not_convert; the keys planner reads, as in
 * tests/check_refdata.c). Rows on that checkpoint say so in their
 * precision cell. */
static const char llama405b_fp8_config[] =
    "{\"model_type\": \"llama\", \"hidden_size\": 16384, \"intermediate_size\": 53248, "
    "\"num_attention_heads\": 128, \"num_hidden_layers\": 126, \"num_key_value_heads\": 8, "
    "\"vocab_size\": 128256, \"max_position_embeddings\": 131072, "
    "\"tie_word_embeddings\": false, \"quantization_config\": {\"quant_method\": "
    "\"fbgemm_fp8\", \"modules_to_not_convert\": [\"model.layers.*.self_attn\", "
    "\"lm_head\"]}}";

static const struct model_spec *checkpoint_model(const struct row *r)
{
	static struct model_spec fp8;
	if (!strstr(r->c[C_PREC], "Meta FP8 checkpoint") || !strstr(r->c[C_MODEL], "405B"))
		return NULL;
	char *err = NULL;
	if (!fp8.params_total)
		ck_assert_msg(model_from_config_text("Llama-3.1-405B-Instruct-FP8", llama405b_fp8_config,
		                                     sizeof llama405b_fp8_config - 1, &fp8,
		                                     &err) == PLANNER_OK,
		              "%s", err ? err : "?");
	return &fp8;
}

static const struct model_spec *row_model(const struct row *r)
{
	const struct model_spec *ck = checkpoint_model(r);
	if (ck)
		return ck;
	for (size_t i = 0; i < sizeof model_names / sizeof model_names[0]; i++) {
		if (!strstr(r->c[C_MODEL], model_names[i].needle))
			continue;
		const struct model_spec *m = refdata_model(test_ref(), model_names[i].id);
		if (m)
			return m;
		for (size_t k = 0; k < sizeof extra_models / sizeof extra_models[0]; k++) {
			if (strcmp(extra_models[k].id, model_names[i].id))
				continue;
			struct model_spec *x = &extra_resolved[k];
			if (!x->params_total) {
				*x = extra_models[k];
				x->params_total = model_param_count(x, &x->params_active);
			}
			return x;
		}
	}
	return NULL;
}

/* The precision cell → a planner precision, or NULL (MLC's q4f16_1 and
 * "not stated" have none). */
static const struct precision_info *row_precision(const struct row *r)
{
	const char *s = r->c[C_PREC];
	if (!*s)
		return precision_find("bf16");
	if (!strncasecmp(s, "nf4", 3) || !strncasecmp(s, "4-bit", 5))
		return precision_find("nf4");
	if (strstr(s, "not stated"))
		return NULL;
	char word[32];
	size_t n = 0;
	while (s[n] && !isspace((unsigned char)s[n]) && s[n] != '(' && n + 1 < sizeof word) {
		word[n] = (char)tolower((unsigned char)s[n]);
		n++;
	}
	word[n] = '\0';
	if (!strcmp(word, "amp_bf16"))
		return precision_find("bf16");
	return precision_find(word);
}

/* The GPU cell → a reference GPU, or NULL. "N GB GPU (model not stated)"
 * (fits rows) becomes a card of N GiB, the size such cards have (a "24 GB"
 * RTX 4090 is 23.99 GiB, a "48 GB" RTX A6000 47.99, an "80 GB" A100 80.0). */
static const struct gpu_spec *row_gpu(const struct row *r, struct gpu_spec *generic)
{
	char name[96];
	snprintf(name, sizeof name, "%s", r->c[C_GPU]);
	double gb;
	if (sscanf(name, "%lf GB", &gb) == 1 && strstr(name, "GPU")) {
		*generic = (struct gpu_spec){.name = "generic", .vendor = "nvidia"};
		generic->vram_gib = gb - 0.01;
		return generic;
	}
	char *paren = strchr(name, '(');
	if (paren)
		*paren = '\0';
	for (size_t n = strlen(name); n > 0 && isspace((unsigned char)name[n - 1]); n--)
		name[n - 1] = '\0';
	const struct gpu_spec *g = refdata_gpu(test_ref(), name);
	char *last = strrchr(name, ' ');
	if (!g && last && strstr(last, "GB")) { /* "A10G 24GB", "A100 SXM 80GB" */
		*last = '\0';
		g = refdata_gpu(test_ref(), name);
	}
	return g;
}

static double cell_num(const struct row *r, enum col c)
{
	char *end;
	double v = strtod(r->c[c], &end);
	return end == r->c[c] ? 0.0 : v;
}

static int row_count(const struct row *r)
{
	int n = (int)cell_num(r, C_COUNT);
	return n > 0 ? n : 1;
}

/* The row's engine profile, or NULL (mlc, exllamav2, nim, llm-foundry and
 * others are not modelled). */
static const struct engine *row_engine(const struct row *r)
{
	return engine_find(r->c[C_ENGINE]);
}

/* A value in GiB from GiB, MiB or GB (10^9) as the row's unit says. */
static double to_gib(const struct row *r, double v)
{
	const char *u = r->c[C_UNIT];
	if (!strncmp(u, "MiB", 3))
		return v / 1024.0;
	if (!strncmp(u, "GB", 2))
		return v * 1e9 / GIB;
	return v;
}

/* The layout of a Megatron row ("TP 4, PP 8, CP 2, VP 5, EP 1, ..."): tp,
 * pp and ep as given, dp what is left of the GPUs. Context parallelism
 * (CP) splits each sequence over GPUs that each do 1/CP of its work, as
 * data parallelism splits the batch: it is counted in dp, its ring
 * exchange of K and V not modelled. The virtual pipeline (VP) is not
 * modelled: the bubble is the plain 1F1B one. False when the row states
 * none; out may be NULL. */
static bool row_layout(const struct row *r, struct parallel *out)
{
	const char *s = r->c[C_PARALLEL];
	const char *tp = strstr(s, "TP "), *pp = strstr(s, "PP "), *ep = strstr(s, "EP ");
	if (strcmp(r->c[C_ENGINE], "megatron") || !tp || !pp)
		return false;
	struct parallel l = {.tp = atoi(tp + 3), .pp = atoi(pp + 3), .ep = ep ? atoi(ep + 3) : 1};
	int n = (int)strtol(r->c[C_COUNT], NULL, 10);
	if (l.tp < 1 || l.pp < 1 || n < l.tp * l.pp || n % (l.tp * l.pp))
		return false;
	l.dp = n / (l.tp * l.pp);
	if (l.ep < 1)
		l.ep = 1;
	if (out)
		*out = l;
	return true;
}

/* Skip reasons that start with this are counted apart: rows the model
 * cannot express yet (issue 25: runs past one node or past one instance's 8
 * GPUs, FP4 formats), recorded so they are estimated once it can. */
#define NOT_EXPRESSIBLE "not expressible: "

/* ---- One estimate per kind ------------------------------------------------ */

struct outcome {
	double est;             /* planner's figure, in the row's unit */
	double meas;            /* the row's value */
	const char *skip;       /* why the row cannot be expressed; NULL when est is set */
	const char *mem;        /* "hbm", "gddr", or "-" without a GPU */
	const struct engine *e; /* the row's engine, GPU and model, once known */
	const struct gpu_spec *g;
	const struct model_spec *m;
};

struct ctx {
	const struct row *r;
	const struct model_spec *m;
	const struct precision_info *p;
	const struct engine *e;
	const struct gpu_spec *g;
	int n;
};

static void est_weights(const struct ctx *x, struct outcome *o)
{
	struct vram_need need;
	vram_estimate(x->e, x->m, x->p, TASK_INFERENCE, 1, 1, &need);
	double w = need.weights_gib;
	if (strstr(x->r->c[C_UNIT], "per GPU"))
		w /= x->n;
	o->est = w;
	o->meas = to_gib(x->r, o->meas);
}

/* kv_cache rows in GiB: the memory a serving engine logged for its KV
 * cache on each GPU ("Available KV cache memory", "the rest of the memory
 * reserved for KV Cache"), against the room planner leaves there at the
 * row's gpu_memory_utilization= / mem_fraction_static= (notes; the
 * engine's default when absent). */
static void est_kv_room(const struct ctx *x, struct outcome *o)
{
	static struct gpu_spec generic;
	const struct gpu_spec *g = row_gpu(x->r, &generic);
	if (!g || !g->vram_gib) {
		o->skip = "GPU not in the reference table";
		return;
	}
	double fraction = 0;
	const char *keys[] = {"gpu_memory_utilization=", "mem_fraction_static="};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
		const char *f = strstr(x->r->c[C_NOTES], keys[i]);
		if (f)
			fraction = strtod(f + strlen(keys[i]), NULL);
	}
	o->g = g;
	o->mem = gpu_memory_class(g) == MEM_HBM ? "hbm" : "gddr";
	o->est = vram_kv_room(x->e, x->m, x->p, g, x->n, fraction);
}

/* kv_cache rows: tokens that fit in the KV memory the engine logged
 * (notes: kv_mem_gib_per_gpu=G), one GPU's shard of each token. */
static void est_kv(const struct ctx *x, struct outcome *o)
{
	if (strstr(x->r->c[C_UNIT], "GiB")) {
		est_kv_room(x, o);
		return;
	}
	const char *k = strstr(x->r->c[C_NOTES], "kv_mem_gib_per_gpu=");
	if (!k) {
		o->skip = "no KV memory in notes";
		return;
	}
	double gib = strtod(k + strlen("kv_mem_gib_per_gpu="), NULL);
	/* One GPU's shard of each token (all of it when tensor parallelism
	 * replicates the cache); with the row's context, the tokens of
	 * requests of that length (vLLM reports max_concurrency x
	 * max_model_len), sliding-window layers capped at their window. */
	double shard = vram_kv_replicated(x->e, x->m) ? 1.0 : x->n;
	double ctx = cell_num(x->r, C_CONTEXT);
	if (ctx > 0)
		o->est = gib * GIB * ctx / (vram_kv_bytes(x->e, x->m, ctx, 0) / shard);
	else
		o->est = gib * GIB / (vram_kv_bytes_per_token(x->e, x->m) / shard);
}

static void row_request(const struct ctx *x, struct speed_job *j)
{
	j->task = TASK_INFERENCE;
	j->input_tokens = cell_num(x->r, C_IN);
	j->output_tokens = cell_num(x->r, C_OUT);
	j->context = (long)(j->input_tokens + j->output_tokens);
	if (strstr(x->r->c[C_KV], "fp8"))
		j->kv_bytes_per_element = x->e->kv_fp8_bytes;
}

static void est_decode(const struct ctx *x, struct outcome *o)
{
	struct speed_job j = {.batch = 1};
	row_request(x, &j);
	j.input_tokens = 0; /* a stream's speed: its own prompt's prefill aside */
	struct speed_est s;
	speed_estimate_job(x->e, x->m, x->p, x->g, x->n, &j, &s);
	o->est = s.stream_tps;
}

static void est_prefill(const struct ctx *x, struct outcome *o)
{
	struct speed_job j = {.batch = 1};
	row_request(x, &j);
	struct speed_est s;
	speed_estimate_job(x->e, x->m, x->p, x->g, x->n, &j, &s);
	o->est = s.prefill_tps;
}

/* The batch a throughput-oriented server reaches (vram_max_batch). */
static int max_batch(const struct ctx *x, const struct speed_job *j)
{
	return vram_max_batch(x->e, x->m, x->p, x->g, x->n, j->context, j->kv_bytes_per_element);
}

static void est_serving(const struct ctx *x, struct outcome *o)
{
	char *end;
	strtod(x->r->c[C_IN], &end);
	if (end == x->r->c[C_IN]) {
		o->skip = "request shape is a dataset (ShareGPT, MLPerf), not a number";
		return;
	}
	struct speed_job j = {0};
	row_request(x, &j);
	j.batch = (int)cell_num(x->r, C_BATCH);
	if (!strncmp(x->r->c[C_BATCH], "max", 3))
		j.batch = max_batch(x, &j);
	if (j.batch < 1) {
		o->skip = "does not fit";
		return;
	}
	struct speed_est s;
	speed_estimate_job(x->e, x->m, x->p, x->g, x->n, &j, &s);
	o->est = s.output_tps;
	if (strstr(x->r->c[C_UNIT], "per GPU"))
		o->est /= x->n;
}

/* The fine-tuning settings of a row: task, sequence, micro-batch, LoRA
 * rank and targets, optimizer, checkpointing. NULL, or why not. */
static const char *row_training(const struct ctx *x, struct vram_job *j, struct engine *e)
{
	const struct row *r = x->r;
	const char *ft = r->c[C_FT];
	/* A pre-training step is a full training step; Megatron's rows say
	 * their layout (row_layout), which planner lays out like a job's. */
	if (strstr(ft, "pretraining") && !row_layout(r, NULL))
		return "pre-training recipe (model not in the tables)";
	/* Unsloth's offloaded checkpoints are its engine's own (engines.c);
	 * any other offload is not modelled. */
	bool own = strstr(r->c[C_CKPT], "unsloth offloaded") && x->e->offload_checkpoints;
	if (strstr(ft, "offload") || (strstr(r->c[C_CKPT], "offload") && !own) ||
	    strstr(r->c[C_OPT], "offload"))
		return "CPU offload is not modelled";
	if (!strncmp(ft, "qlora", 5))
		j->task = TASK_FINETUNE_QLORA;
	else if (!strncmp(ft, "lora", 4))
		j->task = TASK_FINETUNE_LORA;
	else if (!strncmp(ft, "full", 4))
		j->task = TASK_FINETUNE_FULL;
	else
		return "fine-tuning method not stated";
	j->context = (long)cell_num(r, C_SEQ);
	if (j->context <= 0)
		return "sequence length not stated";
	/* micro_batch is per GPU; planner's batch is all GPUs together */
	j->batch = (int)cell_num(r, C_MICRO) * (x->n > 0 ? x->n : 1);
	j->lora_rank = (int)cell_num(r, C_RANK);
	const char *t = r->c[C_TARGETS];
	j->lora_attention_only = *t && !strstr(t, "mlp") && !strstr(t, "all") && !strstr(t, "gate");
	*e = *x->e;
	/* grad_ckpt: "no" and "selective" as the job's checkpointing says
	 * them (vram.c, speed.c); the rest checkpoint every layer. */
	j->checkpointing = !strncmp(r->c[C_CKPT], "no", 2)          ? CKPT_OFF
	                   : !strncmp(r->c[C_CKPT], "selective", 9) ? CKPT_SELECTIVE
	                                                            : CKPT_ON;
	engine_set_checkpointing(e, j->checkpointing);
	/* Full fine-tuning state beyond the bf16 weights, as the row's
	 * optimizer keeps it in a pure-bf16 recipe (torchtune): 16-bit
	 * gradients 2 unless optimizer_in_bwd frees them; AdamW moments in
	 * bf16 4, 8-bit 2; a paged optimizer's state is paged out to host
	 * memory when the GPU is short (bitsandbytes paged optimizers). */
	const char *opt = r->c[C_OPT];
	if (j->task == TASK_FINETUNE_FULL && !strcmp(x->e->name, "torchtune")) {
		double grads = strstr(opt, "optimizer_in_bwd") ? 0.0 : 2.0;
		double moments = strstr(opt, "Paged") ? 0.0 : strstr(opt, "8-bit") ? 2.0 : 4.0;
		j->full_ft_bytes = grads + moments > 0 ? grads + moments : 1e-9;
	}
	return NULL;
}

static void est_ft_memory(const struct ctx *x, struct outcome *o)
{
	struct vram_job j = {0};
	struct engine e;
	if ((o->skip = row_training(x, &j, &e)))
		return;
	struct vram_need need;
	vram_estimate_job(&e, x->m, x->p, &j, &need);
	o->est = vram_per_gpu_engine(&e, &need, x->n);
	o->meas = to_gib(x->r, o->meas);
}

static void est_train(const struct ctx *x, struct outcome *o)
{
	struct vram_job j = {0};
	struct engine e;
	if ((o->skip = row_training(x, &j, &e)))
		return;
	struct speed_job sj = {.task = j.task,
	                       .context = j.context,
	                       .batch = j.batch,
	                       .checkpointing = j.checkpointing};
	struct speed_est s;
	struct parallel l;
	if (row_layout(x->r, &l)) {
		/* the global batch (sequences), in micro-batches per GPU */
		sj.batch = (int)cell_num(x->r, C_BATCH);
		sj.micro_batch = (int)cell_num(x->r, C_MICRO);
		if (sj.batch < 1 || sj.micro_batch < 1) {
			o->skip = "batch or micro-batch not stated";
			return;
		}
		/* a layout `fit --parallel` would refuse is not estimated (no
		 * fabric between nodes in gpus.json: GB200, GB300) */
		struct parallel checked;
		char why[200];
		if (!parallel_layout(&e, x->m, x->g, x->n, sj.task, &l, &checked, why,
		                     sizeof why)) {
			o->skip = NOT_EXPRESSIBLE "a layout parallel_layout refuses (no node size "
			                          "or fabric in gpus.json)";
			return;
		}
		parallel_speed(&e, x->m, x->p, x->g, &checked, &sj, &s);
	} else {
		speed_estimate_job(&e, x->m, x->p, x->g, x->n, &sj, &s);
	}
	o->est = s.train_tps;
	if (strstr(x->r->c[C_UNIT], "/gpu"))
		o->est /= x->n;
}

/* fits rows: 1 when planner says it fits, 0 when not. */
static void est_fits(const struct ctx *x, struct outcome *o)
{
	struct engine e = *x->e;
	struct vram_need need;
	if (x->e->training) {
		struct vram_job j = {0};
		if ((o->skip = row_training(x, &j, &e)))
			return;
		vram_estimate_job(&e, x->m, x->p, &j, &need);
	} else {
		long ctx = (long)cell_num(x->r, C_CONTEXT);
		vram_estimate(&e, x->m, x->p, TASK_INFERENCE, ctx > 0 ? ctx : 4096, 1, &need);
	}
	o->est = vram_fits(&e, &need, x->g, x->n) ? 1.0 : 0.0;
}

/* ---- The driver ------------------------------------------------------------ */

static const struct {
	const char *kind;
	void (*est)(const struct ctx *, struct outcome *);
	bool needs_gpu;       /* a GPU of known bandwidth / FLOPS */
	bool needs_precision; /* a weight format planner knows */
} kinds[] = {
    {"weights", est_weights, false, true},  {"kv_cache", est_kv, false, false},
    {"decode", est_decode, true, true},     {"prefill", est_prefill, true, true},
    {"serving", est_serving, true, true},   {"ft_memory", est_ft_memory, false, true},
    {"train_throughput", est_train, true, true}, {"fits", est_fits, true, true},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

/* Why planner cannot express row r at all yet, or NULL. An FP4 precision
 * counts only while planner's table lacks it. */
static const char *not_expressible(size_t k, const struct row *r)
{
	const char *p = r->c[C_PREC];
	/* Megatron's rows state their layout, which planner lays out (as
	 * `fit --parallel` does), nodes and all. */
	if (!strcmp(kinds[k].kind, "train_throughput") && row_layout(r, NULL))
		return NULL;
	if (strstr(r->c[C_PARALLEL], "node"))
		return NOT_EXPRESSIBLE "more than one node";
	if (row_count(r) > 8)
		return NOT_EXPRESSIBLE "more than 8 GPUs in one instance";
	if (kinds[k].needs_precision && (strstr(p, "FP4") || strstr(p, "fp4")) && !row_precision(r))
		return NOT_EXPRESSIBLE "FP4 format (NVFP4, MXFP4)";
	return NULL;
}

/* Fills o for row r of kind k: an estimate or the reason there is none. */
static void estimate_row(size_t k, const struct row *r, struct outcome *o)
{
	static struct gpu_spec generic;
	struct ctx x = {.r = r, .n = row_count(r)};
	*o = (struct outcome){.meas = cell_num(r, C_VALUE)};
	if ((o->skip = not_expressible(k, r)))
		return;
	if (!(x.e = row_engine(r)))
		o->skip = "engine not modelled (mlc, exllamav2, nim, llm-foundry, "
		          "torchtitan, litgpt)";
	else if (!(x.m = row_model(r)))
		o->skip = "model not in the reference or architecture table";
	else if (!(x.p = row_precision(r)) && kinds[k].needs_precision)
		o->skip = "precision not in planner's table";
	else if (kinds[k].needs_gpu && strstr(r->c[C_GPU], "not stated") &&
	         strcmp(kinds[k].kind, "train_throughput") && strcmp(kinds[k].kind, "fits"))
		o->skip = "GPU memory size / bandwidth not stated";
	else if (kinds[k].needs_gpu && !(x.g = row_gpu(r, &generic)))
		o->skip = "GPU not in the reference table";
	else if (strstr(r->c[C_PARALLEL], "layout not stated"))
		o->skip = "parallel layout not stated";
	else if (strstr(r->c[C_UNIT], "not stated"))
		o->skip = "unit not stated (output or total tokens)";
	else if (strstr(r->c[C_NOTES], "-nkvo 1"))
		/* llama.cpp with its KV cache in host memory runs attention on
		 * the CPU (llama.cpp#4812): planner has no such mode */
		o->skip = "KV cache in host memory (-nkvo 1) is not modelled";
	if (o->skip)
		return;
	if (!x.p)
		x.p = precision_find("bf16");
	o->mem = !x.g ? "-" : gpu_memory_class(x.g) == MEM_HBM ? "hbm" : "gddr";
	o->e = x.e;
	o->g = x.g;
	o->m = x.m;
	kinds[k].est(&x, o);
}

struct half {
	double err[MAX_ROWS]; /* absolute % errors */
	size_t n;
};

struct tally {
	struct half fit, holdout;
	size_t skipped, not_expressible;
	const char *why[16];
	size_t why_n[16];
	size_t fits_true_missed; /* "fits" rows with value 1 planner calls no */
	size_t fits_false_agreed, fits_false_rows;
};

/* One source's rows of one kind: a publisher's table or page for one
 * engine version (the source_id column), on one side of the split. */
#define MAX_SOURCES 256 /* source and kind pairs */
#define SOURCE_ROWS 256 /* estimated rows of one pair */
struct source_kind {
	const char *source, *split;
	size_t kind;
	double err[SOURCE_ROWS]; /* absolute % errors */
	size_t n, skipped;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof v[0], cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double median(struct half *h)
{
	return median_of(h->err, h->n);
}

static void note_skip(struct tally *t, const char *why)
{
	t->skipped++;
	t->not_expressible += !strncmp(why, NOT_EXPRESSIBLE, strlen(NOT_EXPRESSIBLE));
	for (size_t i = 0; i < 16; i++) {
		if (!t->why[i] || !strcmp(t->why[i], why)) {
			t->why[i] = why;
			t->why_n[i]++;
			return;
		}
	}
}

static struct source_kind sources[MAX_SOURCES];
static size_t n_sources;

/* The entry of row r's source for kind k, added in file order. */
static struct source_kind *source_of(size_t k, const struct row *r)
{
	for (size_t i = 0; i < n_sources; i++)
		if (sources[i].kind == k && !strcmp(sources[i].source, r->c[C_SOURCE]))
			return &sources[i];
	ck_assert_uint_lt(n_sources, MAX_SOURCES);
	sources[n_sources] =
	    (struct source_kind){.source = r->c[C_SOURCE], .split = r->c[C_SPLIT], .kind = k};
	return &sources[n_sources++];
}

/* Set by the table test only: one process prints the rows' ratios. */
static bool print_ratios;

/* The row's absolute % error, or a negative number when it has none. */
static double row_error(size_t k, const struct outcome *o, struct tally *t)
{
	if (!strcmp(kinds[k].kind, "fits")) {
		if (o->meas == 1 && o->est != 1)
			t->fits_true_missed++;
		if (o->meas == 0) {
			t->fits_false_rows++;
			t->fits_false_agreed += o->est == 0;
		}
		return o->meas == o->est ? 0.0 : 100.0;
	}
	if (o->meas > 0 && o->est > 0)
		return fabs(o->est / o->meas - 1.0) * 100.0;
	return -1.0;
}

/* ---- Confidence (planner/confidence.c) --------------------------------------
 *
 * The engine x kind x GPU class sets of the fit rows estimated: the table
 * planner grades its speeds by must be this one. */
#define MAX_CONFIRMED 64
static struct confirmed derived[MAX_CONFIRMED];
static size_t n_derived;

static void note_confirmed(size_t k, const struct row *r, const struct outcome *o)
{
	bool training = !strcmp(kinds[k].kind, "train_throughput");
	bool speed = training || !strcmp(kinds[k].kind, "decode") ||
	             !strcmp(kinds[k].kind, "prefill") || !strcmp(kinds[k].kind, "serving");
	if (!speed || !o->g || !o->e || strcmp(r->c[C_SPLIT], "fit"))
		return;
	const char *cls = confidence_gpu_class(o->g);
	struct confirmed *c = NULL;
	for (size_t i = 0; i < n_derived && !c; i++)
		if (!strcmp(derived[i].engine, o->e->name) && derived[i].training == training &&
		    !strcmp(derived[i].gpu_class, cls))
			c = &derived[i];
	if (!c) {
		ck_assert_uint_lt(n_derived, MAX_CONFIRMED);
		c = &derived[n_derived++];
		*c = (struct confirmed){
		    .engine = o->e->name, .training = training, .gpu_class = cls};
	}
	if (row_count(r) > c->max_gpus)
		c->max_gpus = row_count(r);
	c->moe |= o->m && o->m->experts > 0;
}

static void tally_row(size_t k, const struct row *r, struct outcome *o, struct tally *t)
{
	struct source_kind *s = source_of(k, r);
	if (!o->skip && (o->meas <= 0 || o->est <= 0) && strcmp(kinds[k].kind, "fits"))
		o->skip = "no estimate (does not fit, or zero)";
	if (o->skip) {
		note_skip(t, o->skip);
		s->skipped++;
		return;
	}
	double err = row_error(k, o, t);
	note_confirmed(k, r, o);
	struct half *h = !strcmp(r->c[C_SPLIT], "holdout") ? &t->holdout : &t->fit;
	h->err[h->n++] = err;
	ck_assert_uint_lt(s->n, SOURCE_ROWS);
	s->err[s->n++] = err;
	if (print_ratios)
		printf("ratio\t%s\t%s\t%s\t%s\t%s\t%d\t%.4f\t%.4f\n", r->c[C_ID], kinds[k].kind,
		       r->c[C_SPLIT], r->c[C_ENGINE], o->mem, row_count(r), o->meas, o->est);
}

static struct tally tallies[N_KINDS];

/* Reads the set and tallies every row once per process. */
static void run_calibration(void)
{
	static bool done;
	if (done)
		return;
	done = true;
	static struct row rows[MAX_ROWS];
	size_t n = read_rows(rows, MAX_ROWS);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < N_KINDS; k++)
			if (!strcmp(rows[i].c[C_KIND], kinds[k].kind)) {
				struct outcome o;
				estimate_row(k, &rows[i], &o);
				tally_row(k, &rows[i], &o, &tallies[k]);
			}
}

/* ---- What make check holds ------------------------------------------------- */

/* Issue 25's targets: median absolute error per kind, in %, on the
 * held-out sources (and on the fit sources). Where planner does not reach
 * one yet, `held` is the figure it reaches, rounded up a little (a ratchet,
 * so the error cannot grow unnoticed), and the table prints the kind as a
 * miss; tests/calibration/README.md ("Where planner stands") lists them. */
static const struct {
	const char *kind;
	double target;
	double held; /* 0 = the target holds */
} limits[] = {
    {"weights", 3.0, 0},
    {"kv_cache", 3.0, 0},
    {"decode", 20.0, 0},
    /* llama.cpp's prefill runs at the card's FP16-accumulate rate, pays
     * the FP16 expansion of quantised weights per micro-batch and
     * pipelines over a layer split; the residual is the power-limited
     * cards (H100 PCIe, RTX 6000 Ada, L40S), measured at 0.6-0.85 of the
     * estimate */
    {"prefill", 25.0, 0},
    /* the experts a batch touches, the MoE share and vLLM's step cost
     * brought it to 21.5 % (fit) and 15.3 % (held out); the FP4 rows
     * (NVFP4 on B200 at its FP4 rate) keep it there */
    {"serving", 25.0, 0},
    {"ft_memory", 20.0, 0},
    {"train_throughput", 25.0, 0},
    {"fits", 100.0, 0},
};

/* Issue 25: no single source's median error over this, in % (fits rows,
 * which are agree / disagree, aside). */
#define SOURCE_LIMIT 40.0

/* Sources over SOURCE_LIMIT today, each held at its figure rounded up (a
 * ratchet) and printed as over until the model change lands. */
static const struct {
	const char *source, *kind;
	double held;
} source_held[] = {
    /* issue 25 target 40 %: the sources still over it, held at their
     * figure. (The MoE sources, TensorRT-LLM v0.17 and v1.0 and vLLM on
     * MI300X, came under it with the expert-coverage model and the
     * per-step cost, and are held to the 40 % again.) */
    /* Llama 2 70B FP8 on one H200 at batch 192 and 96, 2048-4096 output
     * tokens: 0.49-0.61 of the estimate */
    {"trtllm-blog-falcon180b-h200-v0.7a@3c44cb9", "serving", 66.0},
    /* llama.cpp's k-quant GEMV of 2024-01 on an RTX 3090: Q2_K and Q3_K_S
     * decode a 7B at 92.7 and 87.3 tokens/s, 0.40-0.44 of the bandwidth
     * estimate (230, 200), where Q4_0 reaches 0.75 and F16 1.06: the
     * low-bit kernels were then bound by their dequantisation, which
     * planner does not model per type (Q3_K_S became expressible with
     * issue 25's GGUF types) */
    {"llamacpp-pr4766-johannesgaessler", "decode", 82.0},
    /* LLaMA-Factory's LoRA/QLoRA of Llama 2 7B on one A100 at 1024 tokens:
     * 2392-4007 tokens/s against 4722 for every row (no FlashAttention,
     * QLoRA's dequantisation and Unsloth's kernels all priced alike) */
    {"llamafactory-perf-comparison@unsloth-9406ca6", "train_throughput", 61.0},
    {NULL, NULL, 0},
};

/* The limit source s is held to: SOURCE_LIMIT or its ratchet. */
static double source_limit(const struct source_kind *s)
{
	for (size_t i = 0; source_held[i].source; i++)
		if (!strcmp(source_held[i].source, s->source) &&
		    !strcmp(source_held[i].kind, kinds[s->kind].kind))
			return source_held[i].held;
	return SOURCE_LIMIT;
}

static double kind_limit(size_t k)
{
	return limits[k].held > 0 ? limits[k].held : limits[k].target;
}

static void print_kinds(void)
{
	printf("\ncalibration: median absolute error per kind, fit and held-out sources (%s)\n",
	       TSV);
	printf("%-17s %6s %5s %9s %5s %7s %7s %8s %9s\n", "kind", "fit %", "rows", "holdout %",
	       "rows", "skipped", "not ex.", "target %", "held at %");
	for (size_t k = 0; k < N_KINDS; k++) {
		struct tally *t = &tallies[k];
		double h = median(&t->holdout);
		bool miss = limits[k].held > 0 || h > limits[k].target;
		printf("%-17s %6.1f %5zu %9.1f %5zu %7zu %7zu %8.1f %9.1f%s\n", kinds[k].kind,
		       median(&t->fit), t->fit.n, h, t->holdout.n, t->skipped, t->not_expressible,
		       limits[k].target, kind_limit(k), miss ? "  MISS (target not met)" : "");
	}
	struct tally *f = &tallies[N_KINDS - 1];
	printf("fits: %zu documented runs planner says do not fit; %zu of %zu documented "
	       "out-of-memory rows agreed\n",
	       f->fits_true_missed, f->fits_false_agreed, f->fits_false_rows);
}

static void print_sources(void)
{
	printf("\ncalibration: median absolute error per source and kind (limit %.0f %%)\n",
	       SOURCE_LIMIT);
	printf("%-7s %-48s %-16s %5s %7s %8s\n", "side", "source", "kind", "rows", "skipped",
	       "median %");
	for (int side = 0; side < 2; side++)
		for (size_t i = 0; i < n_sources; i++) {
			struct source_kind *s = &sources[i];
			if ((strcmp(s->split, "holdout") == 0) != side)
				continue;
			double m = median_of(s->err, s->n);
			bool over = strcmp(kinds[s->kind].kind, "fits") && m > SOURCE_LIMIT;
			printf("%-7s %-48s %-16s %5zu %7zu ", s->split, s->source,
			       kinds[s->kind].kind, s->n, s->skipped);
			if (s->n && over && source_limit(s) > SOURCE_LIMIT)
				printf("%8.1f  OVER (held at %.0f %%)\n", m, source_limit(s));
			else if (s->n)
				printf("%8.1f%s\n", m, over ? "  OVER" : "");
			else
				printf("%8s\n", "-");
		}
}

static void print_table(void)
{
	print_kinds();
	print_sources();
	printf("\nskipped rows, by reason:\n");
	for (size_t k = 0; k < N_KINDS; k++)
		for (size_t i = 0; i < 16 && tallies[k].why[i]; i++)
			printf("  %-17s %3zu  %s\n", kinds[k].kind, tallies[k].why_n[i],
			       tallies[k].why[i]);
}

/* Whether planner's table (confidence.c) holds c, at its GPU count and
 * MoE flag. */
static bool in_planner(const struct confirmed *c)
{
	for (size_t i = 0; i < confidence_n_rows; i++) {
		const struct confirmed *p = &confidence_rows[i];
		if (!strcmp(p->engine, c->engine) && p->training == c->training &&
		    !strcmp(p->gpu_class, c->gpu_class))
			return p->max_gpus == c->max_gpus && p->moe == c->moe;
	}
	return false;
}

START_TEST(the_confidence_table_is_what_the_fit_rows_hold)
{
	run_calibration();
	bool print = getenv("CONFIDENCE_ROWS") != NULL;
	for (size_t i = 0; print && i < n_derived; i++) {
		const struct confirmed *c = &derived[i];
		printf("    {\"%s\", %s, \"%s\", %d, %s},\n", c->engine,
		       c->training ? "true" : "false", c->gpu_class, c->max_gpus,
		       c->moe ? "true" : "false");
	}
	fflush(stdout);
	for (size_t i = 0; i < n_derived; i++) {
		const struct confirmed *c = &derived[i];
		ck_assert_msg(in_planner(c),
		              "confidence.c lacks or misstates %s %s on %s (%d GPUs%s); run "
		              "CONFIDENCE_ROWS=1 make calibration",
		              c->engine, c->training ? "training" : "inference", c->gpu_class,
		              c->max_gpus, c->moe ? ", MoE" : "");
	}
	/* and planner claims no row the file does not hold, local devices
	 * (local_devices.tsv) aside */
	for (size_t i = 0; i < confidence_n_rows; i++) {
		const struct confirmed *p = &confidence_rows[i];
		bool found = !strcmp(p->gpu_class, "unified") || !strcmp(p->gpu_class, "cpu");
		for (size_t j = 0; j < n_derived && !found; j++)
			found = !strcmp(p->engine, derived[j].engine) &&
			        p->training == derived[j].training &&
			        !strcmp(p->gpu_class, derived[j].gpu_class);
		ck_assert_msg(found, "confidence.c claims %s on %s, which no fit row holds",
		              p->engine, p->gpu_class);
	}
}
END_TEST

START_TEST(the_calibration_table_is_printed_with_both_halves)
{
	print_ratios = getenv("CALIBRATION_RATIOS") != NULL;
	run_calibration();
	print_table();
	size_t used = 0;
	for (size_t k = 0; k < N_KINDS; k++)
		used += tallies[k].fit.n + tallies[k].holdout.n;
	ck_assert_uint_ge(used, 80); /* issue 10: at least 80 measurements */
}
END_TEST

START_TEST(each_kind_is_within_its_limit_on_both_halves)
{
	run_calibration();
	size_t k = (size_t)_i;
	if (!strcmp(kinds[k].kind, "fits"))
		return;
	double lim = kind_limit(k);
	ck_assert_msg(tallies[k].fit.n > 0 && tallies[k].holdout.n > 0, "%s: no rows in a half",
	              kinds[k].kind);
	double f = median(&tallies[k].fit), h = median(&tallies[k].holdout);
	ck_assert_msg(f <= lim && h <= lim,
	              "%s: median error fit %.1f %%, held-out sources %.1f %%; limit %.1f %%",
	              kinds[k].kind, f, h, lim);
}
END_TEST

START_TEST(no_source_is_far_off)
{
	run_calibration();
	for (size_t i = 0; i < n_sources; i++) {
		struct source_kind *s = &sources[i];
		if (!strcmp(kinds[s->kind].kind, "fits") || s->n == 0)
			continue;
		double m = median_of(s->err, s->n);
		ck_assert_msg(m <= source_limit(s),
		              "%s (%s): median error %.1f %% over %zu rows; limit %.0f %%",
		              s->source, kinds[s->kind].kind, m, s->n, source_limit(s));
	}
}
END_TEST

START_TEST(every_documented_run_fits)
{
	run_calibration();
	struct tally *f = &tallies[N_KINDS - 1];
	ck_assert_uint_gt(f->fit.n + f->holdout.n, 0);
	ck_assert_msg(f->fits_true_missed == 0, "%zu documented runs called 'does not fit'",
	              f->fits_true_missed);
}
END_TEST

/* The split (tests/calibration/README.md, "How the split was made"): every
 * row has a source and a side, no source is on both sides, and about a
 * third of the rows are held out. */
START_TEST(no_source_is_on_both_sides)
{
	static struct row rows[MAX_ROWS];
	size_t n = read_rows(rows, MAX_ROWS);
	size_t hold = 0;
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		ck_assert_msg(*r->c[C_SOURCE], "%s: no source_id", r->c[C_ID]);
		ck_assert_msg(!strcmp(r->c[C_SPLIT], "fit") || !strcmp(r->c[C_SPLIT], "holdout"),
		              "%s: split '%s'", r->c[C_ID], r->c[C_SPLIT]);
		hold += !strcmp(r->c[C_SPLIT], "holdout");
		for (size_t j = 0; j < i; j++)
			ck_assert_msg(strcmp(rows[j].c[C_SOURCE], r->c[C_SOURCE]) ||
			                  !strcmp(rows[j].c[C_SPLIT], r->c[C_SPLIT]),
			              "source %s is on both sides (%s, %s)", r->c[C_SOURCE],
			              rows[j].c[C_ID], r->c[C_ID]);
	}
	ck_assert_uint_ge(hold * 4, n); /* about a third is held out */
	ck_assert_uint_le(hold * 2, n);
}
END_TEST

/* The harness itself: a row it cannot express is skipped with its reason,
 * one it can is estimated, and the reader keeps every column. */
START_TEST(the_reader_sees_every_row_and_column)
{
	static struct row rows[MAX_ROWS];
	size_t n = read_rows(rows, MAX_ROWS);
	ck_assert_uint_ge(n, 396);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(*rows[i].c[C_ID] && *rows[i].c[C_VALUE], "row %zu incomplete", i);
	struct row r = {0};
	for (int k = 0; k < N_COLS; k++)
		r.c[k] = "";
	r.c[C_KIND] = "decode";
	r.c[C_MODEL] = "Llama-2-7B";
	r.c[C_ENGINE] = "mlc";
	struct outcome o;
	estimate_row(2, &r, &o);
	ck_assert_ptr_nonnull(o.skip);
	r.c[C_ENGINE] = "llama.cpp";
	r.c[C_GPU] = "RTX 4090";
	r.c[C_PREC] = "Q4_0";
	r.c[C_OUT] = "128";
	estimate_row(2, &r, &o);
	ck_assert_ptr_null(o.skip);
	ck_assert(o.est > 50 && o.est < 400);
	r.c[C_COUNT] = "64";
	estimate_row(2, &r, &o);
	ck_assert_str_eq(o.skip, NOT_EXPRESSIBLE "more than 8 GPUs in one instance");
}
END_TEST

Suite *calibration_suite(void)
{
	Suite *s = suite_create("calibration");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_calibration_table_is_printed_with_both_halves);
	tcase_add_test(tc, the_confidence_table_is_what_the_fit_rows_hold);
	tcase_add_loop_test(tc, each_kind_is_within_its_limit_on_both_halves, 0, (int)N_KINDS);
	tcase_add_test(tc, no_source_is_far_off);
	tcase_add_test(tc, every_documented_run_fits);
	tcase_add_test(tc, no_source_is_on_both_sides);
	tcase_add_test(tc, the_reader_sees_every_row_and_column);
	suite_add_tcase(s, tc);
	return s;
}
