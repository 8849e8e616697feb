/* openrouter.c — OpenRouter models (GET /api/v1/models). pricing.prompt
 * and pricing.completion are decimal strings in USD per token. The "data"
 * list is read as it streams (provider_stream_json). */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "provider.h"

/* ":free" variants are rate-limited tasters, not a price a month of work
 * can be planned on; "-1" marks routers whose price depends on the model
 * picked; "openrouter/free" (a router, tokenizer "Router") and the music
 * models google/lyria-3-* are priced "0"/"0" without a ":free" suffix
 * (api-v1-models.2026-08-01.json, tests/fixtures/real/openrouter): a price
 * of 0 for both is no offer either. Ids starting with '~'
 * ("~anthropic/claude-opus-latest", 10 on 2026-08-01) are aliases of a
 * dated model listed under its own id (alias_target). None is listed. */
static bool plannable(const char *id, double in, double out)
{
	size_t n = strlen(id);
	return !(n > 5 && !strcmp(id + n - 5, ":free")) && id[0] != '~' && in >= 0 && out >= 0 &&
	       (in > 0 || out > 0);
}

/* Long-prompt tiers are pricing.overrides: {"min_prompt_tokens": N,
 * "prompt": …, "completion": …} (44 of 336 models on 2026-08-01; 200000
 * for anthropic/claude-sonnet-4, 32000 and 128000 for qwen/qwen3-max).
 * Each becomes a tier of the row (store.h struct api_tier): a request
 * whose prompt is over N tokens pays that tier's prices for prompt and
 * completion, as Anthropic and Google bill prompts "over 200K tokens".
 * A price an override leaves out stays the base one. */
static void add_tiers(struct norm *out, const cJSON *pricing, double in, double outp)
{
	const cJSON *tier;
	cJSON_ArrayForEach(tier, cJSON_GetObjectItemCaseSensitive(pricing, "overrides"))
	{
		double ti = in, to = outp;
		long min = pj_count(tier, "min_prompt_tokens", LONG_MAX);
		pj_number(tier, "prompt", &ti);
		pj_number(tier, "completion", &to);
		provider_api_tier(out, min, ti, to);
	}
}

/* Whether a model writes text only. architecture.output_modalities lists
 * what it outputs (["text"]; ["image", "text"] for google/gemini-*-image
 * and openai/gpt-5-image*, ["text", "audio"] for openai/gpt-audio* and
 * google/lyria-*: 15 of 336 models on 2026-08-01, routers included); an
 * older response has only architecture.modality ("text->text"). Image
 * and audio generators bill their output otherwise: not a text offer.
 * A model that says neither is taken as text. */
static bool text_output(const cJSON *m)
{
	const cJSON *arch = cJSON_GetObjectItemCaseSensitive(m, "architecture");
	const cJSON *outs = cJSON_GetObjectItemCaseSensitive(arch, "output_modalities");
	if (cJSON_IsArray(outs)) {
		const cJSON *o;
		int n = 0;
		cJSON_ArrayForEach(o, outs)
		{
			if (!cJSON_IsString(o) || strcmp(o->valuestring, "text"))
				return false;
			n++;
		}
		return n > 0;
	}
	const char *mod = pj_str(arch, "modality");
	const char *to = strstr(mod, "->");
	return !to || !strcmp(to, "->text");
}

/* One model of the "data" list (json_item_fn; ud is the norm). */
static int model_item(void *ud, const cJSON *m, char **err)
{
	struct norm *out = ud;
	const cJSON *pr = cJSON_GetObjectItemCaseSensitive(m, "pricing");
	const char *id = pj_str(m, "id");
	double in, outp;
	if (!pj_number(pr, "prompt", &in) || !pj_number(pr, "completion", &outp) ||
	    !plannable(id, in, outp) || !text_output(m)) {
		out->skipped++;
		return PLANNER_OK;
	}
	if (norm_api(out, id, in, outp, pj_count(m, "context_length", LONG_MAX))) {
		add_tiers(out, pr, in, outp);
		/* pricing.input_cache_read / input_cache_write: decimal strings in
		 * USD per token, where the model has a prompt cache. */
		double rd = 0, wr = 0;
		pj_number(pr, "input_cache_read", &rd);
		pj_number(pr, "input_cache_write", &wr);
		if (!provider_api_cache(out, rd, wr))
			out->implausible++;
	}
	return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
}

/* A body without a "data" list: an error object says why. */
static int no_data(const char *body, size_t len, char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	int rc = set_err(err, PLANNER_ENET, "response has no \"data\" list%s%s", e ? ": " : "",
			 e ? pj_str(e, "message") : "");
	cJSON_Delete(root);
	return rc;
}

/* The body read by the streaming reader a refresh uses (as vast.c), so
 * the tests and the fuzz harness cover it. */
static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	struct json_items *s = json_items_new("data", model_item, out);
	if (!s)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = json_items_feed(s, body, len, err) ? json_items_finish(s, err) : PLANNER_ENET;
	if (rc == JSON_ITEMS_NONE)
		rc = no_data(body, len, err);
	json_items_free(s);
	return rc;
}

/* Streamed (issue 16): the list is about 1 MB today (336 models on
 * 2026-08-01), but a body of 60 MiB held as a cJSON tree peaked at
 * 490 MB (bench/README.md); streamed, memory is the rows kept. */
static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_stream_json(fx, "/api/v1/models", NULL, "data", model_item, err);
}

const struct provider provider_openrouter = {
	.name = "openrouter",
	.kind = PROVIDER_API,
	.base_url = "https://openrouter.ai",
	.key_env = "OPENROUTER_API_KEY",
	.key_optional = true,
	.summary = "OpenRouter per-token prices, open and closed models",
	.fetch = fetch,
	.parse = parse,
};
