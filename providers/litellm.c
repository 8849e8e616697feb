/* litellm.c — LiteLLM's model_prices_and_context_window.json (a public
 * file in BerriAI/litellm, branch main): one object keyed by model name,
 * input_cost_per_token / output_cost_per_token as floats in USD per token. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

static const char path[] = "/BerriAI/litellm/main/model_prices_and_context_window.json";

/* Modes priced per token for generated text; embeddings, images, audio
 * and rerankers are priced otherwise and have no place on the api route. */
static bool text_mode(const char *mode)
{
	return !*mode || !strcmp(mode, "chat") || !strcmp(mode, "completion") ||
	       !strcmp(mode, "responses");
}

/* One text-mode entry, before id collisions are resolved. */
struct cand {
	char id[128];    /* "vendor/model" */
	const char *key; /* the file's key (borrowed from the cJSON tree) */
	bool prefixed;   /* the key already is the id ("deepseek/deepseek-chat") */
	double in, out;
	long ctx;
};

/* The collision rule, so the row kept does not depend on the file's key
 * order: for one id, the entry whose key already carries the vendor
 * prefix (LiteLLM's own "vendor/model" spelling) wins over the bare key
 * the prefix was added to; then the lower input + output price; then the
 * key in byte order. In the map of 2026-07-24 the 13 priced collisions
 * (deepseek-chat / deepseek/deepseek-chat, …) are priced alike; the rule
 * still decides the context length kept. */
static int cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;
	int c = strcmp(x->id, y->id);
	if (c)
		return c;
	if (x->prefixed != y->prefixed)
		return x->prefixed ? -1 : 1;
	if (x->in + x->out != y->in + y->out)
		return x->in + x->out < y->in + y->out ? -1 : 1;
	return strcmp(x->key, y->key);
}

/* Reads entry m into c; false (counted as skipped) when it is not a
 * priced text model. Entries priced 0 for input and output (every ollama/
 * and lemonade/ model, LoRA adapters, codestral-latest: 84 in the map of
 * 2026-07-24) are local or unpriced, not free offers. */
static bool read_entry(struct norm *out, const cJSON *m, struct cand *c)
{
	if (!m->string || !strcmp(m->string, "sample_spec") || !cJSON_IsObject(m))
		return false;
	/* A mode or vendor that is there but not a string is a broken entry,
	 * not a missing field: reading it as absent would list an embedding
	 * model as a chat model under a made-up name. */
	const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "mode");
	const cJSON *vend = cJSON_GetObjectItemCaseSensitive(m, "litellm_provider");
	if ((mode && !cJSON_IsString(mode)) || (vend && !cJSON_IsString(vend))) {
		out->skipped++;
		return false;
	}
	if (!text_mode(pj_str(m, "mode")) || !pj_number(m, "input_cost_per_token", &c->in) ||
	    !pj_number(m, "output_cost_per_token", &c->out) || (c->in == 0 && c->out == 0)) {
		out->skipped++;
		return false;
	}
	/* Keys are "gpt-4o-mini" (provider apart) or already
	 * "anthropic/claude-…"; the store wants "vendor/model". */
	const char *vendor = pj_str(m, "litellm_provider");
	size_t vl = strlen(vendor);
	c->key = m->string;
	c->prefixed = !*vendor || (!strncmp(m->string, vendor, vl) && m->string[vl] == '/');
	if (c->prefixed)
		snprintf(c->id, sizeof c->id, "%s", m->string);
	else
		snprintf(c->id, sizeof c->id, "%s/%s", vendor, m->string);
	c->ctx = pj_count(m, "max_input_tokens", LONG_MAX);
	if (c->ctx <= 0)
		c->ctx = pj_count(m, "max_tokens", LONG_MAX);
	return true;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	struct cand *cs = NULL;
	size_t n = 0;
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	if (!cJSON_IsObject(root)) {
		rc = set_err(err, PLANNER_ENET, "response is not an object of models");
		goto out;
	}
	cs = calloc((size_t)cJSON_GetArraySize(root) + 1, sizeof *cs);
	if (!cs) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	const cJSON *m;
	cJSON_ArrayForEach(m, root)
	{
		if (read_entry(out, m, &cs[n]))
			n++;
	}
	qsort(cs, n, sizeof *cs, cand_cmp);
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && !strcmp(cs[i].id, cs[i - 1].id)) {
			out->skipped++; /* a collision: the first of the id's entries won */
			continue;
		}
		norm_api(out, cs[i].id, cs[i].in, cs[i].out, cs[i].ctx);
	}
out:
	free(cs);
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, path, NULL, err);
}

const struct provider provider_litellm = {
	.name = "litellm",
	.kind = PROVIDER_API,
	.base_url = "https://raw.githubusercontent.com",
	.summary = "LiteLLM's public per-token price map (OpenAI, Anthropic, Bedrock, …)",
	.fetch = fetch,
	.parse = parse,
};
