/* gcp.c — Google Cloud Billing Catalog, Compute Engine SKUs (GET
 * /v1/services/6F81-5844-456A/skus), paged by nextPageToken. GPU SKUs are
 * priced per GPU-hour as units (a string) + nanos; Preemptible is spot. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

#define GCP_MAX_PAGES 500
#define NANOS_PER_UNIT 1e9

static const char skus_path[] = "/v1/services/6F81-5844-456A/skus?currencyCode=USD";

/* GPUs attach to a VM in these counts; one row each, GPU price only (the
 * VM's vCPU and memory SKUs are priced apart). */
static const int attach_counts[] = {1, 2, 4, 8};

/* "Nvidia Tesla A100 GPU running in Americas" → "Nvidia Tesla A100". */
static void gpu_from_description(const char *d, char *name, size_t len)
{
	const char *g = strstr(d, " GPU");
	size_t n = g ? (size_t)(g - d) : strlen(d);
	snprintf(name, len, "%.*s", (int)(n < len ? n : len - 1), d);
}

/* The first tier with a price: units + nanos / 1e9 USD. */
static double unit_price(const cJSON *sku)
{
	const cJSON *info = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sku, "pricingInfo"), 0);
	const cJSON *expr = cJSON_GetObjectItemCaseSensitive(info, "pricingExpression");
	if (strcmp(pj_str(expr, "usageUnit"), "h"))
		return 0;
	const cJSON *rate;
	cJSON_ArrayForEach(rate, cJSON_GetObjectItemCaseSensitive(expr, "tieredRates"))
	{
		const cJSON *up = cJSON_GetObjectItemCaseSensitive(rate, "unitPrice");
		const char *cur = pj_str(up, "currencyCode");
		if (*cur && strcmp(cur, "USD"))
			return 0;
		double p = pj_num(up, "units") + pj_num(up, "nanos") / NANOS_PER_UNIT;
		if (p > 0)
			return p;
	}
	return 0;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *skus = cJSON_GetObjectItemCaseSensitive(root, "skus");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	if (e || !cJSON_IsArray(skus)) {
		rc = set_err(err, PLANNER_ENET, "response has no \"skus\" list%s%s", e ? ": " : "",
			     e ? pj_str(e, "message") : "");
		goto out;
	}
	const cJSON *s;
	cJSON_ArrayForEach(s, skus)
	{
		const cJSON *cat = cJSON_GetObjectItemCaseSensitive(s, "category");
		const char *usage = pj_str(cat, "usageType");
		bool spot = !strcmp(usage, "Preemptible");
		if (strcmp(pj_str(cat, "resourceGroup"), "GPU") ||
		    (!spot && strcmp(usage, "OnDemand")))
			continue; /* not a GPU, or a commitment */
		char gpu[96], offer[128];
		gpu_from_description(pj_str(s, "description"), gpu, sizeof gpu);
		double price = unit_price(s);
		const char *id = pj_str(s, "skuId");
		const cJSON *reg;
		cJSON_ArrayForEach(reg, cJSON_GetObjectItemCaseSensitive(s, "serviceRegions"))
		{
			if (!cJSON_IsString(reg))
				continue;
			for (size_t k = 0; k < sizeof attach_counts / sizeof attach_counts[0]; k++) {
				snprintf(offer, sizeof offer, "%dx %s (%s)", attach_counts[k], gpu,
					 *id ? id : "sku");
				struct raw_offer r = {
					.offer = offer,
					.region = reg->valuestring,
					.gpu_name = gpu,
					.gpu_count = attach_counts[k],
					.price = price,
					.per_gpu = true,
					.spot = spot,
					.available = true,
				};
				if (!norm_offer(out, &r))
					break;
			}
		}
	}
	const char *token = pj_str(root, "nextPageToken");
	if (next && *token && !(*next = strdup(token)))
		rc = set_err(err, PLANNER_ENET, "out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct fetch_ctx *fx = ud;
	char *token = NULL;
	int rc = parse(fx->out, body, len, &token, err);
	*next = NULL;
	if (rc == PLANNER_OK && token) {
		char *esc = http_escape(token);
		*next = esc ? xasprintf("%s%s&pageToken=%s", fx->base, skus_path, esc) : NULL;
		free(esc);
		if (!*next)
			rc = set_err(err, PLANNER_ENET, "out of memory");
	}
	free(token);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, skus_path);
	/* The key goes in a header, not ?key=, so it is in no URL or log. */
	char *hdr = xasprintf("X-Goog-Api-Key: %s", fx->key ? fx->key : "");
	const char *headers[] = {"Accept: application/json", hdr, NULL};
	int rc;
	if (!url || !hdr) {
		rc = set_err(err, PLANNER_ENET, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v1/services/6F81-5844-456A/skus",
		 fx->base);
	rc = http_paged(fx->http, url, headers, page, fx, GCP_MAX_PAGES, &fx->http_status, err);
out:
	free(url);
	free(hdr);
	return rc;
}

const struct provider provider_gcp = {
	.name = "gcp",
	.kind = PROVIDER_RENTED,
	.base_url = "https://cloudbilling.googleapis.com",
	.key_env = "GCP_API_KEY",
	.summary = "Google Cloud GPU prices per GPU-hour, on-demand and preemptible",
	.fetch = fetch,
	.parse = parse,
};
