/* refdata_config.c — reads a model's architecture from a Hugging Face
 * config.json (or a row of models.json, which uses the same names): the
 * text model of a multimodal wrapper, the legacy key names of older
 * families, sliding-window and hybrid (SSM/attention) layer patterns, and
 * the 16-bit layers of a quantised checkpoint. Every figure is checked and
 * a bad one is refused with the field named. */
#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "refdata.h"
#include "util.h"

/* Largest config.json read, bytes: real ones are a few KB (DeepSeek-V3's
 * is under 2 KB, with quantisation blocks rarely past 10 KB; Meta's
 * Llama-3.1-405B-FP8 lists every ignored module and is about 40 KB). */
#define MAX_CONFIG_BYTES (1L << 20)

/* Bounds on what a config.json may claim. Generous: the largest public
 * models (Kimi-K2: 61 layers, 384 experts, hidden 7168; Llama 3.1 405B:
 * hidden 16384, 126 layers; Gemma 3: vocab 262144; Llama 4 Scout: 10M
 * context) sit far inside; a figure past these is a broken file. */
#define MAX_LAYERS 2000
#define MAX_HIDDEN 262144
#define MAX_HEADS 8192
#define MAX_HEAD_DIM 4096
#define MAX_INTERMEDIATE 4194304
#define MAX_VOCAB 10000000
#define MAX_CONTEXT_TOKENS 1000000000
#define MAX_EXPERTS 100000
/* 100 trillion parameters: 100x the largest open model (Kimi-K2, 1.04T). */
#define MAX_PARAMS 1e14

#define NAMES(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Where a field is looked for: the text model's object first (text_config,
 * llm_config, language_config), then the top level. */
struct cfg {
	const cJSON *text; /* NULL when the file is a plain text model */
	const char *text_key;
	const cJSON *root;
	const char *name; /* the file, for messages */
};

static const cJSON *cfg_item(const struct cfg *c, const char *const *names, const char **where,
			     const char **found)
{
	const cJSON *objs[2] = {c->text, c->root};
	for (int o = 0; o < 2; o++) {
		if (!objs[o])
			continue;
		for (size_t i = 0; names[i]; i++) {
			const cJSON *v = cJSON_GetObjectItemCaseSensitive(objs[o], names[i]);
			if (v && !cJSON_IsNull(v)) {
				*where = o == 0 ? c->text_key : NULL;
				*found = names[i];
				return v;
			}
		}
	}
	return NULL;
}

/* Reads the first of names present as a whole number in [lo, hi] into
 * *out (0 when absent or null). PLANNER_EINPUT naming the field when it is
 * present but not a whole number in range. */
static int cfg_int(const struct cfg *c, const char *const *names, long lo, long hi, long *out,
		   char **err)
{
	const char *where = NULL, *found = NULL;
	const cJSON *v = cfg_item(c, names, &where, &found);
	*out = 0;
	if (!v)
		return PLANNER_OK;
	double d = cJSON_IsNumber(v) ? v->valuedouble : NAN;
	if (!isfinite(d) || d != floor(d) || d < lo || d > hi)
		return set_err(err, PLANNER_EINPUT,
			       "%s: %s%s%s is not a whole number from %ld to %ld; check the "
			       "model's config.json",
			       c->name, where ? where : "", where ? "." : "", found, lo, hi);
	*out = (long)d;
	return PLANNER_OK;
}

static bool cfg_bool(const struct cfg *c, const char *const *names, bool dflt)
{
	const char *where, *found;
	const cJSON *v = cfg_item(c, names, &where, &found);
	return cJSON_IsBool(v) ? cJSON_IsTrue(v) : dflt;
}

static const char *cfg_str(const struct cfg *c, const char *const *names)
{
	const char *where, *found;
	const cJSON *v = cfg_item(c, names, &where, &found);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool prefix_of(const char *s, const char *const *prefixes)
{
	for (size_t i = 0; s && prefixes[i]; i++)
		if (!strncasecmp(s, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* Families whose MLP is GPT-style up/down (2 matrices, no gate): Falcon,
 * MPT, GPT-BigCode, BLOOM, GPT-2/NeoX/J, Phi-1/2, StarCoder2 (transformers
 * modeling_<family>.py, main branch, retrieved 2026-11-30). */
static const char *const ungated_families[] = {"falcon", "refinedweb", "mpt", "gpt_bigcode",
					       "bloom", "gpt2", "gpt_neox", "gptj", "opt",
					       "starcoder2", NULL};
/* Families whose config class defaults tie_word_embeddings to true when
 * the file leaves it out (PretrainedConfig's default, kept by Gemma,
 * Falcon, BLOOM, MPT, GPT-BigCode; Llama, Mistral, Qwen2 default false):
 * transformers configuration_<family>.py, retrieved 2026-11-30. */
static const char *const tied_by_default[] = {"gemma", "falcon", "refinedweb", "bloom", "mpt",
					      "gpt_bigcode", "gpt2", NULL};

static int read_shape(const struct cfg *c, struct model_spec *m, char **err)
{
	long v;
	int rc;
	const char *type = cfg_str(c, NAMES("model_type"));
#define INT_FIELD(dst, names, lo, hi)                                                              \
	do {                                                                                       \
		if ((rc = cfg_int(c, names, lo, hi, &v, err)) != PLANNER_OK)                       \
			return rc;                                                                 \
		dst = (int)v;                                                                      \
	} while (0)
	INT_FIELD(m->layers, NAMES("num_hidden_layers", "n_layer", "n_layers", "num_layers"), 1,
		  MAX_LAYERS);
	INT_FIELD(m->hidden, NAMES("hidden_size", "n_embd", "d_model"), 1, MAX_HIDDEN);
	INT_FIELD(m->heads, NAMES("num_attention_heads", "n_head", "n_heads"), 1, MAX_HEADS);
	INT_FIELD(m->kv_heads,
		  NAMES("num_key_value_heads", "num_kv_heads", "n_head_kv", "multi_query_group_num"),
		  1, MAX_HEADS);
	if (m->kv_heads == 0 && cfg_bool(c, NAMES("multi_query"), false))
		m->kv_heads = 1; /* Falcon-7B, GPT-BigCode: one K/V head */
	if (m->kv_heads == 0)
		m->kv_heads = m->heads; /* no GQA field: multi-head attention */
	INT_FIELD(m->head_dim, NAMES("head_dim", "kv_channels"), 1, MAX_HEAD_DIM);
	if (m->head_dim == 0 && m->heads > 0)
		m->head_dim = m->hidden / m->heads;
	INT_FIELD(m->intermediate, NAMES("intermediate_size", "ffn_hidden_size", "n_inner"), 1,
		  MAX_INTERMEDIATE);
	INT_FIELD(m->vocab, NAMES("padded_vocab_size", "vocab_size"), 1, MAX_VOCAB);
	long ctx;
	if ((rc = cfg_int(c,
			  NAMES("max_position_embeddings", "n_positions", "max_seq_len",
				"seq_length", "max_sequence_length"),
			  0, MAX_CONTEXT_TOKENS, &ctx, err)) != PLANNER_OK)
		return rc;
	m->max_context = ctx;
	m->tied_embeddings =
		cfg_bool(c, NAMES("tie_word_embeddings"), prefix_of(type, tied_by_default));
	m->mlp_matrices = prefix_of(type, ungated_families) ? 2 : 3;
	if (m->intermediate == 0 && m->mlp_matrices == 2) {
		long ratio; /* MPT: expansion_ratio * d_model; the others 4 * hidden */
		if ((rc = cfg_int(c, NAMES("expansion_ratio"), 1, 64, &ratio, err)) != PLANNER_OK)
			return rc;
		m->intermediate = (int)((ratio ? ratio : 4) * (long)m->hidden);
	}
	INT_FIELD(m->dense_intermediate, NAMES("intermediate_size_mlp"), 0, MAX_INTERMEDIATE);
	return PLANNER_OK;
}

static int read_experts(const struct cfg *c, struct model_spec *m, char **err)
{
	long v;
	int rc;
	INT_FIELD(m->experts,
		  NAMES("num_experts", "num_local_experts", "n_routed_experts", "moe_num_experts"),
		  0, MAX_EXPERTS);
	INT_FIELD(m->experts_active,
		  NAMES("num_experts_per_tok", "experts_per_token", "moe_top_k", "moe_k"), 0,
		  MAX_EXPERTS);
	INT_FIELD(m->moe_intermediate, NAMES("moe_intermediate_size"), 0, MAX_INTERMEDIATE);
	INT_FIELD(m->shared_experts, NAMES("n_shared_experts", "num_shared_experts"), 0,
		  MAX_EXPERTS);
	INT_FIELD(m->first_dense, NAMES("first_k_dense_replace"), 0, MAX_LAYERS);
	INT_FIELD(m->kv_lora_rank, NAMES("kv_lora_rank"), 0, 65536);
	INT_FIELD(m->rope_head_dim, NAMES("qk_rope_head_dim"), 0, MAX_HEAD_DIM);
	if (m->experts == 0)
		return PLANNER_OK;
	long step;
	/* Llama 4: every step-th layer is MoE, with one shared expert and the
	 * dense layers at intermediate_size_mlp (Maverick 2, Scout 1). Jamba:
	 * expert_layer_period. Qwen2/3-MoE: decoder_sparse_step. */
	if ((rc = cfg_int(c,
			  NAMES("interleave_moe_layer_step", "expert_layer_period",
				"decoder_sparse_step"),
			  1, MAX_LAYERS, &step, err)) != PLANNER_OK)
		return rc;
	if (step > 1 && m->first_dense == 0)
		m->first_dense = m->layers - m->layers / (int)step;
	const char *w, *f;
	if (cfg_item(c, NAMES("interleave_moe_layer_step"), &w, &f) && m->shared_experts == 0)
		m->shared_experts = 1;
	const cJSON *only = cfg_item(c, NAMES("mlp_only_layers"), &w, &f);
	if (cJSON_IsArray(only) && m->first_dense == 0)
		m->first_dense = cJSON_GetArraySize(only);
	return PLANNER_OK;
}

/* Counts the entries of a layer_types / layers_block_type list that are
 * one of kinds. */
static int count_kinds(const cJSON *list, const char *const *kinds)
{
	int n = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, list)
	{
		for (size_t k = 0; cJSON_IsString(it) && kinds[k]; k++)
			if (!strcmp(it->valuestring, kinds[k]))
				n++;
	}
	return n;
}

static const char *const sliding_kinds[] = {"sliding_attention", "chunked_attention", NULL};
static const char *const ssm_kinds[] = {"mamba", "linear_attention", "mamba2", "ssm", NULL};

/* Hybrid SSM/attention layouts: Jamba (attn_layer_period/offset), Nemotron-H
 * (hybrid_override_pattern, one letter per layer: M mamba, * attention,
 * - MLP, E MoE), Zamba/Qwen3-Next (layers_block_type / layer_types). */
static int read_hybrid(const struct cfg *c, struct model_spec *m, char **err)
{
	long period, expand, heads, hdim, state;
	int rc;
	const char *w, *f;
	const char *pattern = cfg_str(c, NAMES("hybrid_override_pattern"));
	const cJSON *types = cfg_item(c, NAMES("layer_types", "layers_block_type"), &w, &f);
	if ((rc = cfg_int(c, NAMES("attn_layer_period"), 1, MAX_LAYERS, &period, err)) !=
	    PLANNER_OK)
		return rc;
	if (pattern) {
		int attn = 0, mamba = 0, mlp = 0, len = 0;
		for (const char *p = pattern; *p; p++, len++) {
			attn += *p == '*';
			mamba += *p == 'M';
			mlp += *p == '-' || *p == 'E';
		}
		if (len != m->layers)
			return set_err(err, PLANNER_EINPUT,
				       "%s: hybrid_override_pattern has %d layers, "
				       "num_hidden_layers says %d",
				       c->name, len, m->layers);
		m->kv_layers = attn;
		m->ssm_layers = mamba;
		m->mlp_layers = mlp;
	} else if (cJSON_IsArray(types) && count_kinds(types, ssm_kinds) > 0) {
		m->ssm_layers = count_kinds(types, ssm_kinds);
		m->kv_layers = m->layers - m->ssm_layers;
	} else if (period > 0) {
		m->kv_layers = m->layers / (int)period;
		m->ssm_layers = m->layers - m->kv_layers;
	}
	if (m->ssm_layers == 0)
		return PLANNER_OK;
	if ((rc = cfg_int(c, NAMES("mamba_expand", "expand"), 1, 64, &expand, err)) ||
	    (rc = cfg_int(c, NAMES("mamba_num_heads"), 1, MAX_HEADS, &heads, err)) ||
	    (rc = cfg_int(c, NAMES("mamba_head_dim"), 1, MAX_HEAD_DIM, &hdim, err)) ||
	    (rc = cfg_int(c, NAMES("mamba_d_state", "ssm_state_size", "state_size"), 1,
			  MAX_HEAD_DIM, &state, err)))
		return rc;
	m->ssm_state = (int)state;
	m->ssm_inner = heads && hdim ? (int)(heads * hdim) : (int)((expand ? expand : 2) * m->hidden);
	return PLANNER_OK;
}

/* Sliding-window layers: a layer_types list (gpt-oss, Gemma 3 in newer
 * transformers), sliding_window_pattern (Gemma 3: every 6th layer global),
 * Gemma 2 (every other layer), Llama 4's chunked attention (3 of every 4
 * layers, attention_chunk_size), or sliding_window on every layer (Mistral
 * 7B v0.1, Phi-3) unless use_sliding_window is false (Qwen2). */
static int read_window(const struct cfg *c, struct model_spec *m, char **err)
{
	long window, chunk, pattern, interval;
	int rc;
	const char *w, *f;
	if ((rc = cfg_int(c, NAMES("sliding_window", "sliding_window_size"), 0,
			  MAX_CONTEXT_TOKENS, &window, err)) ||
	    (rc = cfg_int(c, NAMES("attention_chunk_size"), 0, MAX_CONTEXT_TOKENS, &chunk, err)) ||
	    (rc = cfg_int(c, NAMES("sliding_window_pattern"), 1, MAX_LAYERS, &pattern, err)) ||
	    (rc = cfg_int(c, NAMES("no_rope_layer_interval"), 1, MAX_LAYERS, &interval, err)))
		return rc;
	int kv = m->kv_layers ? m->kv_layers : m->layers;
	const cJSON *types = cfg_item(c, NAMES("layer_types"), &w, &f);
	const char *type = cfg_str(c, NAMES("model_type"));
	if (window > 0 && !cfg_bool(c, NAMES("use_sliding_window"), true))
		window = 0;
	if (window == 0 && chunk > 0) { /* Llama 4 */
		window = chunk;
		m->sliding_layers = kv - kv / (int)(interval ? interval : 4);
	} else if (window > 0 && cJSON_IsArray(types)) {
		if (cJSON_GetArraySize(types) != m->layers)
			return set_err(err, PLANNER_EINPUT,
				       "%s: layer_types lists %d layers, num_hidden_layers says %d",
				       c->name, cJSON_GetArraySize(types), m->layers);
		m->sliding_layers = count_kinds(types, sliding_kinds);
	} else if (window > 0 && pattern > 0) {
		m->sliding_layers = kv - kv / (int)pattern;
	} else if (window > 0 && type && !strcmp(type, "gemma2")) {
		m->sliding_layers = kv / 2;
	} else if (window > 0 && (m->max_context == 0 || window < m->max_context)) {
		m->sliding_layers = kv;
	}
	m->sliding_window = m->sliding_layers > 0 ? (int)window : 0;
	return PLANNER_OK;
}

static double attn_params(const struct model_spec *m)
{
	return (double)m->hidden * m->heads * m->head_dim * 2.0 +
	       (double)m->hidden * m->kv_heads * m->head_dim * 2.0;
}

double model_param_count(const struct model_spec *m, double *active)
{
	double h = m->hidden, L = m->layers;
	double embed = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
	double kv_layers = m->kv_layers ? m->kv_layers : L;
	double mlp_layers = m->mlp_layers ? m->mlp_layers : L;
	double mats = m->mlp_matrices ? m->mlp_matrices : 3;
	/* A Mamba layer: in_proj (x and z, 2 * inner) and out_proj; the conv,
	 * dt and B/C projections are a few percent more. */
	double ssm = 3.0 * h * m->ssm_inner * m->ssm_layers;
	double shared = kv_layers * attn_params(m) + 2 * h * L + ssm;
	double dense_mlp = mats * h * (m->dense_intermediate ? m->dense_intermediate : m->intermediate);
	double total, act;
	if (m->experts > 0) {
		double inter = m->moe_intermediate ? m->moe_intermediate : m->intermediate;
		double expert = mats * h * inter;
		double moe_layers = mlp_layers - m->first_dense;
		double router = h * m->experts;
		shared += embed + m->first_dense * dense_mlp + moe_layers * router;
		total = shared + moe_layers * expert * (m->experts + m->shared_experts);
		act = shared + moe_layers * expert * (m->experts_active + m->shared_experts);
	} else {
		total = act = embed + shared + mlp_layers * dense_mlp;
	}
	if (active)
		*active = act;
	return total;
}

/* Marks which layers' attention (bits 0-3: q, k, v, o) or dense MLP (bits
 * 4-6: gate, up, down) one ignored-module name covers ("model.layers.*.
 * self_attn", "model.layers.3.mlp.down_proj", "lm_head"). */
static void mark_module(const char *name, unsigned char *bits, int layers, bool *lm_head)
{
	static const char *const parts[] = {"q_proj", "k_proj", "v_proj", "o_proj",
					    "gate_proj", "up_proj", "down_proj"};
	if (strstr(name, "lm_head")) {
		*lm_head = true;
		return;
	}
	const char *l = strstr(name, "layers.");
	if (!l)
		return;
	l += strlen("layers.");
	int first = 0, last = layers - 1;
	if (*l >= '0' && *l <= '9') {
		long i = strtol(l, NULL, 10);
		if (i >= layers)
			return;
		first = last = (int)i;
	}
	unsigned char mask = 0;
	for (int p = 0; p < 7; p++)
		if (strstr(name, parts[p]))
			mask |= (unsigned char)(1u << p);
	if (!mask && strstr(name, "attn"))
		mask = 0x0f;
	if (!mask && strstr(name, "mlp") && !strstr(name, "router") && !strstr(name, "gate"))
		mask = 0x70;
	for (int i = first; i <= last; i++)
		bits[i] |= mask;
}

/* The parameters a quantised checkpoint keeps in 16 bit: embeddings (never
 * a quantised Linear), lm_head (vLLM keeps it unquantised for FP8: vllm
 * model_executor/layers/quantization/fp8.py quantises LinearBase only,
 * retrieved 2026-11-30), norms, and the modules its quantization_config
 * lists as not converted. */
static int read_quant(const struct cfg *c, struct model_spec *m, char **err)
{
	const char *w, *f;
	const cJSON *q = cfg_item(c, NAMES("quantization_config", "compression_config"), &w, &f);
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(q, "quant_method");
	if (!cJSON_IsString(method) || !method->valuestring)
		return PLANNER_OK;
	if (!(m->quant_method = strdup(method->valuestring)))
		return set_err(err, PLANNER_ESYS, "out of memory");
	unsigned char *bits = calloc((size_t)m->layers, 1);
	if (!bits)
		return set_err(err, PLANNER_ESYS, "out of memory");
	bool lm_head = !m->tied_embeddings;
	static const char *const lists[] = {"modules_to_not_convert", "ignored_layers", "ignore",
					    NULL};
	for (size_t i = 0; lists[i]; i++) {
		const cJSON *it;
		cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(q, lists[i]))
		{
			if (cJSON_IsString(it) && it->valuestring)
				mark_module(it->valuestring, bits, m->layers, &lm_head);
		}
	}
	double h = m->hidden, hd = m->head_dim;
	double proj[7] = {h * m->heads * hd, h * m->kv_heads * hd, h * m->kv_heads * hd,
			  h * m->heads * hd, h * m->intermediate, h * m->intermediate,
			  h * m->intermediate};
	double keep = (double)m->vocab * h * (lm_head && !m->tied_embeddings ? 2 : 1) + 2 * h * m->layers;
	for (int l = 0; l < m->layers; l++)
		for (int p = 0; p < 7; p++)
			if (bits[l] & (1u << p))
				keep += proj[p];
	free(bits);
	m->params_16bit = keep < m->params_total ? keep : m->params_total;
	return PLANNER_OK;
}

/* Refuses an architecture whose figures contradict each other. */
static int check_shape(const struct cfg *c, const struct model_spec *m, char **err)
{
	const char *missing = !m->layers ? "num_hidden_layers (or n_layer, num_layers)"
			      : !m->hidden ? "hidden_size (or n_embd, d_model)"
			      : !m->heads ? "num_attention_heads (or n_head)"
			      : !m->vocab ? "vocab_size"
			      : !m->intermediate && !m->moe_intermediate ? "intermediate_size"
									  : NULL;
	if (missing)
		return set_err(err, PLANNER_EINPUT,
			       "%s: missing %s%s%s; give the model's Hugging Face config.json", c->name,
			       c->text ? c->text_key : "", c->text ? "." : "", missing);
	if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
		return set_err(err, PLANNER_EINPUT,
			       "%s: num_key_value_heads (%d) must divide num_attention_heads (%d)",
			       c->name, m->kv_heads, m->heads);
	if (m->experts > 0 && (m->experts_active < 1 || m->experts_active > m->experts))
		return set_err(err, PLANNER_EINPUT,
			       "%s: num_experts_per_tok (%d) must be from 1 to the %d experts",
			       c->name, m->experts_active, m->experts);
	int mlp_layers = m->mlp_layers ? m->mlp_layers : m->layers;
	if (m->first_dense >= mlp_layers && m->experts > 0)
		return set_err(err, PLANNER_EINPUT,
			       "%s: first_k_dense_replace (%d) leaves none of the %d MLP layers MoE",
			       c->name, m->first_dense, mlp_layers);
	if (m->head_dim < 1)
		return set_err(err, PLANNER_EINPUT,
			       "%s: num_attention_heads (%d) exceeds hidden_size (%d) and no "
			       "head_dim is given",
			       c->name, m->heads, m->hidden);
	if (m->ssm_layers + (m->kv_layers ? m->kv_layers : 0) > m->layers)
		return set_err(err, PLANNER_EINPUT,
			       "%s: %d attention and %d SSM layers exceed num_hidden_layers (%d)",
			       c->name, m->kv_layers, m->ssm_layers, m->layers);
	return PLANNER_OK;
}

/* The field most likely to blame for a parameter count that is not a
 * model's: the MoE figures when there are experts, else the widths. */
static const char *suspect_field(const struct model_spec *m)
{
	if (m->experts > 0)
		return "first_k_dense_replace, n_routed_experts, num_experts_per_tok and "
		       "moe_intermediate_size";
	return "hidden_size, intermediate_size, num_hidden_layers and vocab_size";
}

/* Refuses derived layer counts outside [0, layers]: every count vram.c and
 * speed.c multiply by must be a part of the model's layers. */
static int check_layers(const struct cfg *c, const struct model_spec *m, char **err)
{
	const struct {
		int v;
		const char *field;
	} counts[] = {
	    {m->kv_layers, "the attention layers (layer_types, attn_layer_period)"},
	    {m->mlp_layers, "the MLP layers (hybrid_override_pattern)"},
	    {m->ssm_layers, "the SSM layers (layer_types, hybrid_override_pattern)"},
	    {m->sliding_layers, "the sliding-window layers (sliding_window_pattern)"},
	    {m->first_dense, "first_k_dense_replace"},
	};
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
		if (counts[i].v < 0 || counts[i].v > m->layers)
			return set_err(err, PLANNER_EINPUT,
				       "%s: %s gives %d of the %d layers (num_hidden_layers)",
				       c->name, counts[i].field, counts[i].v, m->layers);
	if (m->ssm_layers > 0 && m->ssm_inner < 1)
		return set_err(err, PLANNER_EINPUT,
			       "%s: mamba_num_heads x mamba_head_dim is not a width", c->name);
	return PLANNER_OK;
}

int model_read_config(const char *name, const cJSON *o, struct model_spec *m, char **err)
{
	static const char *const nests[] = {"text_config", "llm_config", "language_config", NULL};
	struct cfg c = {.root = o, .name = name};
	for (size_t i = 0; nests[i] && !c.text; i++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, nests[i]);
		if (cJSON_IsObject(t)) {
			c.text = t;
			c.text_key = nests[i];
		}
	}
	int rc;
	if ((rc = read_shape(&c, m, err)) || (rc = read_experts(&c, m, err)) ||
	    (rc = read_hybrid(&c, m, err)) || (rc = read_window(&c, m, err)) ||
	    (rc = check_shape(&c, m, err)))
		return rc;
	m->params_total = model_param_count(m, &m->params_active);
	if (!isfinite(m->params_total) || m->params_total <= 0 || m->params_total > MAX_PARAMS ||
	    !isfinite(m->params_active) || m->params_active <= 0 ||
	    m->params_active > m->params_total)
		return set_err(err, PLANNER_EINPUT,
			       "%s: the architecture gives %g parameters (%g active), not a "
			       "model's count; check %s",
			       name, m->params_total, m->params_active, suspect_field(m));
	if ((rc = check_layers(&c, m, err)) || (rc = read_quant(&c, m, err)))
		return rc;
	if (!isfinite(m->params_16bit) || m->params_16bit < 0 ||
	    m->params_16bit > m->params_total)
		return set_err(err, PLANNER_EINPUT,
			       "%s: quantization_config keeps %g of %g parameters in 16 bit", name,
			       m->params_16bit, m->params_total);
	return PLANNER_OK;
}
#undef INT_FIELD

int model_from_config_text(const char *name, const char *text, size_t len, struct model_spec *out,
			   char **err)
{
	int rc = PLANNER_OK;
	memset(out, 0, sizeof *out);
	cJSON *root = cJSON_ParseWithLength(text, len);
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, PLANNER_EINPUT,
			     "%s: not a JSON object; give the model's Hugging Face config.json", name);
		goto out;
	}
	if ((rc = model_read_config(name, root, out, err)) != PLANNER_OK)
		goto out;
	out->id = strdup(name);
	const char *slash = strrchr(name, '/');
	out->name = strdup(slash ? slash + 1 : name);
	out->source = xasprintf("%s (architecture read from config.json; parameters derived)", name);
	if (!out->id || !out->name || !out->source)
		rc = set_err(err, PLANNER_ESYS, "out of memory");
out:
	if (rc != PLANNER_OK)
		model_spec_clear(out);
	cJSON_Delete(root);
	return rc;
}

/* A path that is not there. One that reads like a Hugging Face repo id
 * ("Qwen/Qwen3-32B": its last two parts, no .json) is not fetched: say
 * where its config.json is (huggingface.co serves a repository's files at
 * /<org>/<name>/resolve/main/<file>, huggingface_hub's hf_hub_url). */
static int no_config(const char *path, int e, char **err)
{
	size_t l = strlen(path);
	const char *name = strrchr(path, '/');
	const char *org = name;
	while (org && org > path && org[-1] != '/')
		org--;
	if (e != ENOENT || !name || l < 5 || !strcasecmp(path + l - 5, ".json") || org == name)
		return set_err(err, PLANNER_EINPUT, "cannot open %s: %s", path, strerror(e));
	return set_err(err, PLANNER_EINPUT,
		       "cannot open %s: %s; planner does not download models: save "
		       "https://huggingface.co/%s/resolve/main/config.json and give its path",
		       path, strerror(e), org);
}

int model_from_config(const char *path, struct model_spec *out, char **err)
{
	size_t len = 0;
	struct stat st;
	memset(out, 0, sizeof *out);
	/* A job spec names this path: /dev/zero would be read until memory
	 * ran out, a FIFO or /dev/stdin would wait for ever. */
	if (stat(path, &st) != 0)
		return no_config(path, errno, err);
	if (!S_ISREG(st.st_mode))
		return set_err(err, PLANNER_EINPUT,
			       "%s is not a regular file; give the model's Hugging Face config.json",
			       path);
	if (st.st_size > MAX_CONFIG_BYTES)
		return set_err(err, PLANNER_EINPUT,
			       "%s is %lld bytes, too large for a Hugging Face config.json", path,
			       (long long)st.st_size);
	char *text = read_file(path, &len);
	if (!text)
		return set_err(err, PLANNER_EINPUT, "cannot open %s: %s", path, strerror(errno));
	int rc = model_from_config_text(path, text, len, out, err);
	free(text);
	return rc;
}
