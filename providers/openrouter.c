/* openrouter.c — OpenRouter models (GET /api/v1/models). pricing.prompt
 * and pricing.completion are decimal strings in USD per token. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "provider.h"

/* ":free" variants are rate-limited tasters, not a price a month of work
 * can be planned on; "-1" marks routers whose price depends on the model
 * picked. Neither is listed. */
static bool plannable(const char *id, double in, double out)
{
	size_t n = strlen(id);
	return !(n > 5 && !strcmp(id + n - 5, ":free")) && in >= 0 && out >= 0;
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
		norm_api(out, id, in, outp, pj_count(m, "context_length", LONG_MAX));
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
