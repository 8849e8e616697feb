/* litellm.c — LiteLLM's model_prices_and_context_window.json (a public
 * file in BerriAI/litellm, branch main): one object keyed by model name,
 * input_cost_per_token / output_cost_per_token as floats in USD per token. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
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

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
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
	const cJSON *m;
	cJSON_ArrayForEach(m, root)
	{
		if (!m->string || !strcmp(m->string, "sample_spec") || !cJSON_IsObject(m))
			continue;
		double in, outp;
		/* A mode or vendor that is there but not a string is a broken
		 * entry, not a missing field: reading it as absent would list an
		 * embedding model as a chat model under a made-up name. */
		const cJSON *mode = cJSON_GetObjectItemCaseSensitive(m, "mode");
		const cJSON *vend = cJSON_GetObjectItemCaseSensitive(m, "litellm_provider");
		if ((mode && !cJSON_IsString(mode)) || (vend && !cJSON_IsString(vend))) {
			out->skipped++;
			continue;
		}
		if (!text_mode(pj_str(m, "mode")) || !pj_number(m, "input_cost_per_token", &in) ||
		    !pj_number(m, "output_cost_per_token", &outp)) {
			out->skipped++;
			continue;
		}
		/* Keys are "gpt-4o-mini" (provider apart) or already
		 * "anthropic/claude-…"; the store wants "vendor/model". */
		const char *vendor = pj_str(m, "litellm_provider");
		char id[128];
		size_t vl = strlen(vendor);
		if (!*vendor || (!strncmp(m->string, vendor, vl) && m->string[vl] == '/'))
			snprintf(id, sizeof id, "%s", m->string);
		else
			snprintf(id, sizeof id, "%s/%s", vendor, m->string);
		long ctx = pj_count(m, "max_input_tokens", LONG_MAX);
		if (ctx <= 0)
			ctx = pj_count(m, "max_tokens", LONG_MAX);
		norm_api(out, id, in, outp, ctx);
	}
out:
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
