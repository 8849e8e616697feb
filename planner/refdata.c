/* refdata.c — parses the compiled-in GPU and model tables (see refdata.h)
 * and holds the one GPU alias table every feed and job spec goes through. */
#include "refdata.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "device.h"
#include "fx.h"
#include "util.h"

/* Words that say who made a part, not which part it is: "NVIDIA GeForce
 * RTX 4090" and "RTX 4090" are one GPU. */
static const char *const vendor_words[] = {"nvidia", "geforce", "tesla", "amd", "instinct",
					   "radeon", NULL};

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
	free(g->memory_type);
	free(g->family);
	free(g->memory_options);
	free(g->isa);
}

void model_spec_clear(struct model_spec *m)
{
	if (!m)
		return;
	free(m->id);
	free(m->name);
	free_strings(m->api_models, m->n_api_models);
	free(m->source);
	free(m->quant_method);
	memset(m, 0, sizeof *m);
}

bool model_spec_copy(struct model_spec *dst, const struct model_spec *src)
{
	*dst = *src;
	dst->id = xstrdup(src->id);
	dst->name = xstrdup(src->name);
	dst->source = xstrdup(src->source);
	dst->quant_method = xstrdup(src->quant_method);
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
	if ((src->id && !dst->id) || (src->name && !dst->name) || (src->source && !dst->source) ||
	    (src->quant_method && !dst->quant_method))
		goto fail;
	return true;
fail:
	model_spec_clear(dst);
	return false;
}

/* Whether it[key] is the string s. */
static bool json_is(const cJSON *it, const char *key, const char *s)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, key);
	return cJSON_IsString(v) && !strcmp(v->valuestring, s);
}

/* The node a GPU comes in and its links (gpus_per_node, interconnect,
 * link_gbs, node_fabric, node_fabric_gbps). */
static void load_node_fields(const cJSON *it, struct gpu_spec *g)
{
	g->gpus_per_node = (int)json_num(it, "gpus_per_node");
	g->link_kind = json_is(it, "interconnect", "nvswitch") ? GPU_LINK_NVSWITCH
	               : json_is(it, "interconnect", "nvlink") ? GPU_LINK_NVLINK
	               : json_is(it, "interconnect", "pcie")   ? GPU_LINK_PCIE
	                                                       : GPU_LINK_UNKNOWN;
	g->link_gbs = json_num(it, "link_gbs");
	g->fabric = json_is(it, "node_fabric", "infiniband") ? NODE_FABRIC_INFINIBAND
	            : json_is(it, "node_fabric", "roce")     ? NODE_FABRIC_ROCE
	            : json_is(it, "node_fabric", "ethernet") ? NODE_FABRIC_ETHERNET
	                                                     : NODE_FABRIC_UNKNOWN;
	g->fabric_gbps = json_num(it, "node_fabric_gbps");
}

/* The fields of a device that is not a discrete GPU (kind, family,
 * memory_options, threads, isa, gpu_share, socket_vcpus). False when out of memory. */
static bool load_local_fields(const cJSON *it, struct gpu_spec *g)
{
	char *kind = json_str(it, "kind");
	g->kind = !kind || !strcmp(kind, "gpu") ? DEVICE_GPU
	          : !strcmp(kind, "cpu")        ? DEVICE_CPU
	                                        : DEVICE_UNIFIED;
	free(kind);
	g->family = json_str(it, "family");
	g->isa = json_str(it, "isa");
	g->threads = (int)json_num(it, "threads");
	g->gpu_share = json_num(it, "gpu_share");
	g->socket_vcpus = (int)json_num(it, "socket_vcpus");
	load_node_fields(it, g);
	const cJSON *opts = cJSON_GetObjectItemCaseSensitive(it, "memory_options_gib");
	int n = cJSON_IsArray(opts) ? cJSON_GetArraySize(opts) : 0;
	if (n > 0 && !(g->memory_options = calloc((size_t)n, sizeof *g->memory_options)))
		return false;
	const cJSON *o;
	cJSON_ArrayForEach(o, opts)
	{
		if (cJSON_IsNumber(o))
			g->memory_options[g->n_memory_options++] = o->valuedouble;
	}
	return true;
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
		g->memory_type = json_str(it, "memory_type");
		if (!g->name || !g->vendor)
			goto oom;
		if (!json_strings(cJSON_GetObjectItemCaseSensitive(it, "aliases"), &g->aliases,
				  &g->n_aliases))
			goto oom;
		g->vram_gib = json_num(it, "vram_gib");
		g->bandwidth_gbs = json_num(it, "bandwidth_gbs");
		g->fp16_tflops = json_num(it, "fp16_tflops");
		g->fp8_tflops = json_num(it, "fp8_tflops");
		g->fp4_tflops = json_num(it, "fp4_tflops");
		g->int8_tops = json_num(it, "int8_tops");
		g->watts = json_num(it, "watts");
		g->price_usd = json_num(it, "price_usd");
		g->mem_class = device_gpu_hbm(g) ? GPU_MEM_HBM : GPU_MEM_GDDR;
		if (!load_local_fields(it, g))
			goto oom;
	}
	goto out;
oom:
	rc = set_err(err, PLANNER_ESYS, "cannot read embedded gpus.json: out of memory");
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
		if ((rc = model_read_config(m->id, it, m, err)) != PLANNER_OK)
			goto out;
		/* The published counts win over the architecture's estimate. */
		if (json_num(it, "params_total") > 0)
			m->params_total = json_num(it, "params_total");
		if (json_num(it, "params_active") > 0)
			m->params_active = json_num(it, "params_active");
		if (!json_strings(cJSON_GetObjectItemCaseSensitive(it, "api_models"),
				  &m->api_models, &m->n_api_models))
			goto oom;
	}
	goto out;
oom:
	rc = set_err(err, PLANNER_ESYS, "cannot read embedded models.json: out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

static int build_alias_table(struct refdata *ref, char **err);

int refdata_load(struct refdata **out, char **err)
{
	struct refdata *ref = calloc(1, sizeof *ref);
	if (!ref)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = load_gpus(ref, err);
	if (rc == PLANNER_OK)
		rc = build_alias_table(ref, err);
	if (rc == PLANNER_OK)
		rc = load_models(ref, err);
	if (rc == PLANNER_OK)
		rc = refdata_load_serverless(ref, err);
	if (rc == PLANNER_OK)
		rc = refdata_load_countries(ref, err);
	/* The snapshot's rates until the command reads the store's. */
	if (rc == PLANNER_OK && !(ref->fx = calloc(1, sizeof *ref->fx)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	if (rc == PLANNER_OK)
		rc = fx_from_json(planner_snapshot_json, ref->fx, err);
	if (rc == PLANNER_OK) {
		cJSON *root = cJSON_Parse(planner_gpus_json);
		ref->as_of = json_str(root, "as_of");
		cJSON_Delete(root);
		root = cJSON_Parse(planner_snapshot_json);
		ref->snapshot_as_of = json_str(root, "as_of");
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
	free(ref->snapshot_as_of);
	free(ref->fx);
	refdata_free_serverless(ref);
	refdata_free_countries(ref);
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
		return set_err(err, PLANNER_ESYS, "out of memory");
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

const struct gpu_spec *refdata_gpu_in(const struct gpu_spec *first, size_t stride, size_t n,
				      const char *name)
{
	char want[64], have[64];
	if (!first || !name)
		return NULL;
	gpu_key(name, want, sizeof want);
	for (size_t i = 0; want[0] && i < n; i++) {
		const struct gpu_spec *g =
			(const struct gpu_spec *)(const void *)((const char *)first + i * stride);
		gpu_key(g->name ? g->name : "", have, sizeof have);
		if (!strcmp(want, have))
			return g;
	}
	return NULL;
}

bool refdata_same_gpu_name(const char *a, const char *b)
{
	char ka[64], kb[64];
	if (!a || !b)
		return false;
	gpu_key(a, ka, sizeof ka);
	gpu_key(b, kb, sizeof kb);
	return ka[0] && !strcmp(ka, kb);
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

char *refdata_model_advice(const struct refdata *ref, const char *id, char *buf, size_t len)
{
	const char *near = refdata_model_suggest(ref, id);
	/* huggingface.co serves a repository's files at
	 * /<org>/<name>/resolve/main/<file> (huggingface_hub's
	 * hf_hub_url, checked 2026-11). */
	snprintf(buf, len,
	         "%s%s%sgive the path of its Hugging Face config.json, downloaded from "
	         "https://huggingface.co/ORG/NAME/resolve/main/config.json ('planner fit "
	         "./config.json', or 'model: ./config.json' in a spec); 'planner models' lists the "
	         "reference ids",
	         near ? "did you mean '" : "", near ? near : "", near ? "'? Or " : "");
	return buf;
}
