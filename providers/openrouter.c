/* openrouter.c — OpenRouter models (GET /api/v1/models). pricing.prompt
 * and pricing.completion are decimal strings in USD per token. */
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

/* The prompt length up to which the base prices hold: pricing.overrides
 * lists long-prompt tiers as {"min_prompt_tokens": N, "prompt": …,
 * "completion": …} (44 of 336 models on 2026-08-01; 200000 for
 * anthropic/claude-sonnet-4, 32000 and 128000 for qwen/qwen3-max). The
 * store keeps the base tier with its context cut to the lowest N, so a
 * job whose sequences are longer is not priced at the base rate
 * (plan.c skips API rows whose context is below the job's). */
static long base_tier_limit(const cJSON *pricing, long context)
{
	const cJSON *tier;
	cJSON_ArrayForEach(tier, cJSON_GetObjectItemCaseSensitive(pricing, "overrides"))
	{
		long min = pj_count(tier, "min_prompt_tokens", LONG_MAX);
		if (min > 0 && (context <= 0 || min < context))
			context = min;
	}
	return context;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data");
	if (!cJSON_IsArray(data)) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
		rc = set_err(err, PLANNER_ENET, "response has no \"data\" list%s%s", e ? ": " : "",
			     e ? pj_str(e, "message") : "");
		goto out;
	}
	const cJSON *m;
	cJSON_ArrayForEach(m, data)
	{
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(m, "pricing");
		const char *id = pj_str(m, "id");
		double in, outp;
		if (!pj_number(pr, "prompt", &in) || !pj_number(pr, "completion", &outp)) {
			out->skipped++;
			continue;
		}
		if (!plannable(id, in, outp)) {
			out->skipped++;
			continue;
		}
		norm_api(out, id, in, outp,
			 base_tier_limit(pr, pj_count(m, "context_length", LONG_MAX)));
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/api/v1/models", NULL, err);
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
