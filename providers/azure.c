/* azure.c — Azure Retail Prices (GET /api/retail/prices), paged by
 * NextPageLink. retailPrice is USD per unitOfMeasure ("1 Hour") for the
 * whole VM; the GPU is not in the feed, so a table maps SKU names. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* More pages than this is a loop or a filter gone wrong (the GPU VMs of
 * every region are a few dozen pages of 1,000). */
#define AZURE_MAX_PAGES 500

static const char first_path[] =
	"/api/retail/prices?api-version=2023-01-01-preview&$filter="
	"serviceName%20eq%20%27Virtual%20Machines%27%20and%20priceType%20eq%20%27Consumption%27"
	"%20and%20contains(armSkuName,%20%27Standard_N%27)";

/* GPU VM sizes, from Microsoft's size pages (learn.microsoft.com/azure/
 * virtual-machines/sizes, "GPU accelerated"). count 0 marks a fractional
 * GPU (NVadsA10 v5 below 36 vCPUs): no whole-GPU offer, skipped. */
static const struct azure_sku {
	const char *sku; /* armSkuName */
	const char *gpu; /* canonical name or an alias */
	int count;
} skus[] = {
	{"Standard_NC6s_v3", "V100 16GB", 1},
	{"Standard_NC12s_v3", "V100 16GB", 2},
	{"Standard_NC24s_v3", "V100 16GB", 4},
	{"Standard_NC24rs_v3", "V100 16GB", 4},
	{"Standard_ND40rs_v2", "V100 32GB", 8},
	{"Standard_NC4as_T4_v3", "T4", 1},
	{"Standard_NC8as_T4_v3", "T4", 1},
	{"Standard_NC16as_T4_v3", "T4", 1},
	{"Standard_NC64as_T4_v3", "T4", 4},
	{"Standard_NC24ads_A100_v4", "A100 80GB", 1},
	{"Standard_NC48ads_A100_v4", "A100 80GB", 2},
	{"Standard_NC96ads_A100_v4", "A100 80GB", 4},
	{"Standard_ND96asr_v4", "A100 40GB", 8},
	{"Standard_ND96amsr_A100_v4", "A100 80GB", 8},
	{"Standard_NC40ads_H100_v5", "H100 NVL", 1},
	{"Standard_NC80adis_H100_v5", "H100 NVL", 2},
	{"Standard_ND96isr_H100_v5", "H100 SXM", 8},
	{"Standard_ND96isr_H200_v5", "H200", 8},
	{"Standard_ND96isr_MI300X_v5", "MI300X", 8},
	{"Standard_NV6ads_A10_v5", "A10", 0},
	{"Standard_NV12ads_A10_v5", "A10", 0},
	{"Standard_NV18ads_A10_v5", "A10", 0},
	{"Standard_NV36ads_A10_v5", "A10", 1},
	{"Standard_NV36adms_A10_v5", "A10", 1},
	{"Standard_NV72ads_A10_v5", "A10", 2},
};

static const struct azure_sku *find_sku(const char *name)
{
	for (size_t i = 0; i < sizeof skus / sizeof skus[0]; i++)
		if (!strcasecmp(skus[i].sku, name))
			return &skus[i];
	return NULL;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(root, "Items");
	if (!cJSON_IsArray(items)) {
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
		rc = set_err(err, PLANNER_ENET, "response has no \"Items\" list%s%s",
			     e ? ": " : "", e ? pj_str(e, "message") : "");
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, items)
	{
		const char *sku_name = pj_str(it, "armSkuName");
		const char *meter = pj_str(it, "meterName"), *sku = pj_str(it, "skuName");
		if (strcmp(pj_str(it, "type"), "Consumption") ||
		    strcmp(pj_str(it, "currencyCode"), "USD") ||
		    strcmp(pj_str(it, "unitOfMeasure"), "1 Hour") || strstr(meter, "Low Priority") ||
		    strstr(sku, "Low Priority") || strstr(pj_str(it, "productName"), "Windows"))
			continue; /* not a Linux pay-as-you-go hour */
		const struct azure_sku *m = find_sku(sku_name);
		if (!m) {
			if (!strncasecmp(sku_name, "Standard_N", 10))
				norm_gpu(out, sku_name, 0); /* a GPU size the table lacks: report */
			continue;
		}
		if (m->count == 0) {
			out->skipped++;
			continue;
		}
		struct raw_offer r = {
			.offer = sku_name,
			.region = pj_str(it, "armRegionName"),
			.gpu_name = m->gpu,
			.gpu_count = m->count,
			.price = pj_num(it, "retailPrice"),
			.spot = strstr(sku, " Spot") || strstr(meter, " Spot"),
			.available = true,
		};
		norm_offer(out, &r);
	}
	const char *link = pj_str(root, "NextPageLink");
	if (next && *link && !(*next = strdup(link)))
		rc = set_err(err, PLANNER_ENET, "out of memory");
out:
	cJSON_Delete(root);
	return rc;
}


static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct fetch_ctx *fx = ud;
	char *link = NULL;
	int rc = parse(fx->out, body, len, &link, err);
	*next = NULL;
	if (rc == PLANNER_OK && link && !(*next = provider_rebase(fx, link)))
		rc = set_err(err, PLANNER_ENET, "out of memory");
	free(link);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, first_path);
	if (!url)
		return set_err(err, PLANNER_ENET, "out of memory");
	snprintf(fx->out->source, sizeof fx->out->source, "%s/api/retail/prices", fx->base);
	const char *headers[] = {"Accept: application/json", NULL};
	int rc = http_paged(fx->http, url, headers, page, fx, AZURE_MAX_PAGES, &fx->http_status,
			    err);
	free(url);
	return rc;
}

const struct provider provider_azure = {
	.name = "azure",
	.kind = PROVIDER_RENTED,
	.base_url = "https://prices.azure.com",
	.summary = "Azure retail VM prices, pay-as-you-go and spot (GPU from the SKU)",
	.fetch = fetch,
	.parse = parse,
};
