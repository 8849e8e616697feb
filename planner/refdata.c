/* refdata.c — parses the compiled-in GPU and model tables (see refdata.h)
 * and holds the one GPU alias table every feed and job spec goes through. */
#include "refdata.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

/* Words that say who made a part, not which part it is: "NVIDIA GeForce
 * RTX 4090" and "RTX 4090" are one GPU. */
static const char *const vendor_words[] = {"nvidia", "geforce", "tesla", "amd", "instinct",
					   "radeon", NULL};

/* Longest context a config.json may claim, tokens: the longest public
 * models reach 10M (Llama 4 Scout); a larger figure is a broken file, and
 * it must stay well inside a long. */
#define MAX_CONTEXT_TOKENS 1e9

/* Largest config.json read, bytes: real ones are a few KB (DeepSeek-V3's
 * is under 2 KB, with quantisation blocks rarely past 10 KB). */
#define MAX_CONFIG_BYTES (1L << 20)

/* Reduces a GPU name to its comparison key: lower-case letters and digits
 * only, vendor words dropped ("NVIDIA H100 80GB HBM3" -> "h10080gbhbm3").
 * Writes at most len-1 bytes to key. */
static void gpu_key(const char *name, char *key, size_t len)
{
	size_t k = 0;
	const char *p = name;
	while (*p && k + 1 < len) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *w = p;
		while (*p && isalnum((unsigned char)*p))
			p++;
		size_t wl = (size_t)(p - w);
		if (wl == 0)
			break;
		bool vendor = false;
		for (size_t i = 0; vendor_words[i]; i++)
			if (strlen(vendor_words[i]) == wl && !strncasecmp(w, vendor_words[i], wl))
				vendor = true;
		if (vendor)
			continue;
		for (size_t i = 0; i < wl && k + 1 < len; i++)
			key[k++] = (char)tolower((unsigned char)w[i]);
	}
	key[k] = '\0';
}

static char *json_str(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) && v->valuestring ? strdup(v->valuestring) : NULL;
}

static double json_num(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : 0;
}

static int json_int(const cJSON *o, const char *name)
{
	double d = json_num(o, name);
	return d > 0 && d < 1e9 ? (int)d : 0;
}

static bool json_bool(const cJSON *o, const char *name)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, name));
}

/* Copies a JSON array of strings; false when out of memory. */
static bool json_strings(const cJSON *arr, char ***out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!cJSON_IsArray(arr))
		return true;
	size_t count = (size_t)cJSON_GetArraySize(arr);
	if (count == 0)
		return true;
	*out = calloc(count, sizeof **out);
	if (!*out)
		return false;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		if (cJSON_IsString(it) && it->valuestring && !((*out)[(*n)++] = strdup(it->valuestring)))
			return false;
	}
	return true;
}

static void free_strings(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void gpu_clear(struct gpu_spec *g)
{
	free(g->name);
	free(g->vendor);
	free_strings(g->aliases, g->n_aliases);
	free(g->source);
	free(g->price_source);
}

void model_spec_clear(struct model_spec *m)
{
	if (!m)
		return;
	free(m->id);
	free(m->name);
	free_strings(m->api_models, m->n_api_models);
	free(m->source);
	memset(m, 0, sizeof *m);
}

bool model_spec_copy(struct model_spec *dst, const struct model_spec *src)
{
	*dst = *src;
	dst->id = xstrdup(src->id);
	dst->name = xstrdup(src->name);
	dst->source = xstrdup(src->source);
	dst->api_models = NULL;
	dst->n_api_models = 0;
	if (src->n_api_models) {
		dst->api_models = calloc(src->n_api_models, sizeof *dst->api_models);
		if (!dst->api_models)
			goto fail;
		for (size_t i = 0; i < src->n_api_models; i++) {
			dst->api_models[i] = strdup(src->api_models[i]);
			if (!dst->api_models[i])
				goto fail;
			dst->n_api_models++;
		}
	}
	if ((src->id && !dst->id) || (src->name && !dst->name) || (src->source && !dst->source))
		goto fail;
	return true;
fail:
	model_spec_clear(dst);
	return false;
}

/* Fills the architecture fields from a config.json-shaped object. Reference
 * models use the same field names as Hugging Face, so one reader serves the
 * table and a user's config.json. */
static void read_architecture(const cJSON *o, struct model_spec *m)
{
	m->layers = json_int(o, "num_hidden_layers");
	m->hidden = json_int(o, "hidden_size");
	m->heads = json_int(o, "num_attention_heads");
	m->kv_heads = json_int(o, "num_key_value_heads");
	if (m->kv_heads == 0)
		m->kv_heads = m->heads; /* no GQA field: multi-head attention */
	m->head_dim = json_int(o, "head_dim");
	if (m->head_dim == 0 && m->heads > 0)
		m->head_dim = m->hidden / m->heads;
	m->intermediate = json_int(o, "intermediate_size");
	m->vocab = json_int(o, "vocab_size");
	double ctx = json_num(o, "max_position_embeddings");
	m->max_context = ctx > 0 && ctx < MAX_CONTEXT_TOKENS ? (long)ctx : 0;
	m->tied_embeddings = json_bool(o, "tie_word_embeddings");
	m->experts = json_int(o, "num_experts");
	if (!m->experts)
		m->experts = json_int(o, "num_local_experts"); /* Mixtral */
	if (!m->experts)
		m->experts = json_int(o, "n_routed_experts"); /* DeepSeek */
	m->experts_active = json_int(o, "num_experts_per_tok");
	m->moe_intermediate = json_int(o, "moe_intermediate_size");
	m->shared_experts = json_int(o, "n_shared_experts");
	m->first_dense = json_int(o, "first_k_dense_replace");
	m->kv_lora_rank = json_int(o, "kv_lora_rank");
	m->rope_head_dim = json_int(o, "qk_rope_head_dim");
}

double model_param_count(const struct model_spec *m, double *active)
{
	double h = m->hidden, L = m->layers;
	double embed = (double)m->vocab * h * (m->tied_embeddings ? 1 : 2);
	double attn = h * m->heads * m->head_dim * 2.0 + h * m->kv_heads * m->head_dim * 2.0;
	double norms = 2 * h;
	double dense_mlp = 3.0 * h * m->intermediate; /* gate, up, down (SwiGLU) */
	double total, act;
	if (m->experts > 0) {
		double inter = m->moe_intermediate ? m->moe_intermediate : m->intermediate;
		double expert = 3.0 * h * inter;
		double moe_layers = L - m->first_dense;
		double router = h * m->experts;
		total = embed + L * (attn + norms) + m->first_dense * dense_mlp +
			moe_layers * (expert * (m->experts + m->shared_experts) + router);
		act = embed + L * (attn + norms) + m->first_dense * dense_mlp +
		      moe_layers * (expert * (m->experts_active + m->shared_experts) + router);
	} else {
		total = act = embed + L * (attn + norms + dense_mlp);
	}
	if (active)
		*active = act;
	return total;
}

static int load_gpus(struct refdata *ref, char **err)
{
	cJSON *root = cJSON_Parse(planner_gpus_json);
	int rc = PLANNER_OK;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "gpus");
	if (!cJSON_IsArray(arr)) {
		rc = set_err(err, PLANNER_EINPUT, "embedded gpus.json has no gpus list");
		goto out;
	}
	ref->gpus = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *ref->gpus);
	if (!ref->gpus)
		goto oom;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		struct gpu_spec *g = &ref->gpus[ref->n_gpus++];
		g->name = json_str(it, "name");
		g->vendor = json_str(it, "vendor");
		g->source = json_str(it, "source");
		g->price_source = json_str(it, "price_source");
		if (!g->name || !g->vendor)
			goto oom;
		if (!json_strings(cJSON_GetObjectItemCaseSensitive(it, "aliases"), &g->aliases,
				  &g->n_aliases))
			goto oom;
		g->vram_gib = json_num(it, "vram_gib");
		g->bandwidth_gbs = json_num(it, "bandwidth_gbs");
		g->fp16_tflops = json_num(it, "fp16_tflops");
		g->fp8_tflops = json_num(it, "fp8_tflops");
		g->int8_tops = json_num(it, "int8_tops");
		g->watts = json_num(it, "watts");
		g->price_usd = json_num(it, "price_usd");
	}
	goto out;
oom:
	rc = set_err(err, PLANNER_EINPUT, "cannot read embedded gpus.json: out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

static int load_models(struct refdata *ref, char **err)
{
	cJSON *root = cJSON_Parse(planner_models_json);
	int rc = PLANNER_OK;
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "models");
	if (!cJSON_IsArray(arr)) {
		rc = set_err(err, PLANNER_EINPUT, "embedded models.json has no models list");
		goto out;
	}
	ref->models = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *ref->models);
	if (!ref->models)
		goto oom;
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		struct model_spec *m = &ref->models[ref->n_models++];
		m->id = json_str(it, "id");
		m->name = json_str(it, "name");
		m->source = json_str(it, "source");
		if (!m->id)
			goto oom;
		read_architecture(it, m);
		m->params_total = json_num(it, "params_total");
		m->params_active = json_num(it, "params_active");
		if (m->params_total <= 0)
			m->params_total = model_param_count(m, &m->params_active);
		if (m->params_active <= 0)
			m->params_active = m->params_total;
		if (!json_strings(cJSON_GetObjectItemCaseSensitive(it, "api_models"),
				  &m->api_models, &m->n_api_models))
			goto oom;
	}
	goto out;
oom:
	rc = set_err(err, PLANNER_EINPUT, "cannot read embedded models.json: out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

static int build_alias_table(struct refdata *ref, char **err);

int refdata_load(struct refdata **out, char **err)
{
	struct refdata *ref = calloc(1, sizeof *ref);
	if (!ref)
		return set_err(err, PLANNER_EINPUT, "out of memory");
	int rc = load_gpus(ref, err);
	if (rc == PLANNER_OK)
		rc = build_alias_table(ref, err);
	if (rc == PLANNER_OK)
		rc = load_models(ref, err);
	if (rc == PLANNER_OK) {
		cJSON *root = cJSON_Parse(planner_gpus_json);
		ref->as_of = json_str(root, "as_of");
		cJSON_Delete(root);
	}
	if (rc != PLANNER_OK) {
		refdata_free(ref);
		return rc;
	}
	*out = ref;
	return PLANNER_OK;
}

void refdata_free(struct refdata *ref)
{
	if (!ref)
		return;
	for (size_t i = 0; i < ref->n_gpus; i++)
		gpu_clear(&ref->gpus[i]);
	free(ref->gpus);
	free(ref->keys);
	for (size_t i = 0; i < ref->n_models; i++)
		model_spec_clear(&ref->models[i]);
	free(ref->models);
	free(ref->as_of);
	free(ref);
}

static int alias_cmp(const void *a, const void *b)
{
	return strcmp(((const struct gpu_alias *)a)->key, ((const struct gpu_alias *)b)->key);
}

/* Builds the sorted alias table once: feeds look up a GPU name per offer
 * (100,000 rows from one Vast.ai refresh), so each lookup is one key
 * computation and a binary search, not a pass over every alias. */
static int build_alias_table(struct refdata *ref, char **err)
{
	size_t n = 0;
	for (size_t i = 0; i < ref->n_gpus; i++)
		n += 1 + ref->gpus[i].n_aliases;
	ref->keys = calloc(n + 1, sizeof *ref->keys);
	if (!ref->keys)
		return set_err(err, PLANNER_EINPUT, "out of memory");
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		for (size_t a = 0; a <= g->n_aliases; a++) {
			struct gpu_alias *k = &ref->keys[ref->n_keys];
			gpu_key(a == 0 ? g->name : g->aliases[a - 1], k->key, sizeof k->key);
			k->gpu = g;
			if (k->key[0])
				ref->n_keys++;
		}
	}
	qsort(ref->keys, ref->n_keys, sizeof *ref->keys, alias_cmp);
	return PLANNER_OK;
}

const struct gpu_spec *refdata_gpu(const struct refdata *ref, const char *name)
{
	struct gpu_alias probe = {0}; /* only the key is read (alias_cmp) */
	if (!ref || !name)
		return NULL;
	gpu_key(name, probe.key, sizeof probe.key);
	if (!probe.key[0])
		return NULL;
	const struct gpu_alias *hit =
		bsearch(&probe, ref->keys, ref->n_keys, sizeof *ref->keys, alias_cmp);
	return hit ? hit->gpu : NULL;
}

const char *refdata_gpu_suggest(const struct refdata *ref, const char *name)
{
	const char **names = calloc(ref->n_gpus + 1, sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < ref->n_gpus; i++)
		names[i] = ref->gpus[i].name;
	const char *best = nearest_name(name, names, ref->n_gpus);
	free(names);
	return best;
}

const struct model_spec *refdata_model(const struct refdata *ref, const char *id)
{
	if (!ref || !id)
		return NULL;
	for (size_t i = 0; i < ref->n_models; i++)
		if (!strcasecmp(ref->models[i].id, id))
			return &ref->models[i];
	return NULL;
}

const char *refdata_model_suggest(const struct refdata *ref, const char *id)
{
	const char **names = calloc(ref->n_models + 1, sizeof *names);
	if (!names)
		return NULL;
	for (size_t i = 0; i < ref->n_models; i++)
		names[i] = ref->models[i].id;
	const char *best = nearest_name(id, names, ref->n_models);
	free(names);
	return best;
}

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
	read_architecture(root, out);
	if (out->layers <= 0 || out->hidden <= 0 || out->heads <= 0 || out->vocab <= 0) {
		rc = set_err(err, PLANNER_EINPUT,
			     "%s: missing num_hidden_layers, hidden_size, num_attention_heads or "
			     "vocab_size; give the model's Hugging Face config.json",
			     name);
		goto out;
	}
	out->params_total = model_param_count(out, &out->params_active);
	out->id = strdup(name);
	const char *slash = strrchr(name, '/');
	out->name = strdup(slash ? slash + 1 : name);
	out->source = xasprintf("%s (architecture read from config.json; parameters derived)", name);
	if (!out->id || !out->name || !out->source)
		rc = set_err(err, PLANNER_EINPUT, "out of memory");
out:
	if (rc != PLANNER_OK)
		model_spec_clear(out);
	cJSON_Delete(root);
	return rc;
}

int model_from_config(const char *path, struct model_spec *out, char **err)
{
	size_t len = 0;
	struct stat st;
	memset(out, 0, sizeof *out);
	/* A job spec names this path: /dev/zero would be read until memory
	 * ran out, a FIFO or /dev/stdin would wait for ever. */
	if (stat(path, &st) != 0)
		return set_err(err, PLANNER_EINPUT, "cannot open %s: %s", path, strerror(errno));
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
