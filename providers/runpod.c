/* runpod.c — RunPod GraphQL gpuTypes and dataCenters (POST /graphql).
 * Prices are USD per GPU-hour (an N-GPU pod costs N times), null or 0 when
 * not offered; errors arrive as HTTP 200 with {"errors":[{"message"}]}.
 * Works without a key; the key is sent as a Bearer header when set.
 *
 * Secure Cloud runs in RunPod's data centres: each data centre that lists
 * a GPU type in stock gets its own rows, region = the data centre's id
 * (EU-RO-1, US-KS-2; country and region group from planner/regions.c).
 * Community Cloud runs on hosts' machines, located by country, not by data
 * centre (gpuhunt queries it by countryCode): its rows have no region. A
 * type no data centre lists, or an answer without dataCenters, keeps one
 * Secure row without a region, as before. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* dataCenters is a root field next to gpuTypes, asked for in the same
 * keyless query by gpuhunt (dstackai/gpuhunt providers/runpod.py,
 * gpu_types_query: dataCenters { id name listed }). gpuAvailability
 * { gpuTypeId stockStatus available } is the DataCenter type's list of
 * GPU types, as public RunPod clients read it on nodeGroupDatacenters and
 * myself.datacenters (tests/fixtures/real/PROVENANCE.md, runpod);
 * that the root field answers it without a key is unconfirmed. */
static const char query[] =
    "{\"query\":\"query GpuTypes { dataCenters { id name location listed "
    "gpuAvailability { gpuTypeId stockStatus available } } "
    "gpuTypes { id displayName memoryInGb securePrice "
    "communityPrice secureSpotPrice communitySpotPrice maxGpuCount "
    "lowestPrice(input: {gpuCount: 1}) { minimumBidPrice uninterruptablePrice stockStatus "
    "availableGpuCounts } "
    "} }\"}";

/* Pod sizes offered as rows: a job needing 4 GPUs needs a 4-GPU row. */
static const int pod_sizes[] = {1, 2, 4, 8};

/* The four prices of a GPU type: cloud tier × interruptible. */
static const struct {
	const char *field; /* gpuTypes field */
	const char *tier;  /* "secure" or "community", in the offer id */
	bool spot;
} prices[] = {
	{"securePrice", "secure", false},
	{"communityPrice", "community", false},
	{"secureSpotPrice", "secure", true},
	{"communitySpotPrice", "community", true},
};

/* Whether a pod of `count` GPUs is in stock. stock is the stockStatus
 * that answers for one GPU ("High", "Medium", "Low"; NULL or "None" when
 * there is none), of the type or of one data centre; availableGpuCounts
 * lists the pod sizes that can be had now ([1, 2, 4] at High stock in
 * RunPod's own example, runpod/docs sdks/graphql/manage-pods.mdx,
 * 2026-07-20). Without that list a larger pod's stock is unknown, and
 * unknown is not available. */
static bool in_stock(const char *stock, const cJSON *lowest, int count)
{
	if (!stock || !*stock || !strcmp(stock, "None"))
		return false;
	const cJSON *counts = cJSON_GetObjectItemCaseSensitive(lowest, "availableGpuCounts");
	if (!cJSON_IsArray(counts))
		return count == 1;
	const cJSON *c;
	cJSON_ArrayForEach(c, counts)
	{
		if (cJSON_IsNumber(c) && c->valuedouble == count)
			return true;
	}
	return false;
}

/* The stockStatus data centre dc gives GPU type id, or NULL when it does
 * not offer the type now: not listed (listed false), the type absent from
 * its gpuAvailability, available false, or no stock status. */
static const char *dc_stock(const cJSON *dc, const char *id)
{
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(dc, "listed")) || !*pj_str(dc, "id"))
		return NULL;
	const cJSON *a;
	cJSON_ArrayForEach(a, cJSON_GetObjectItemCaseSensitive(dc, "gpuAvailability"))
	{
		if (strcmp(pj_str(a, "gpuTypeId"), id))
			continue;
		const char *stock = pj_str(a, "stockStatus");
		if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(a, "available")) || !*stock ||
		    !strcmp(stock, "None"))
			return NULL;
		return stock;
	}
	return NULL;
}

/* What one GPU type's rows share. */
struct rp_type {
	const char *id, *shown, *name;
	double gib;
	int max;
	const cJSON *lowest;
};

/* The rows of price k of type t in region ("" for none) at stock, one a
 * pod size; false when the GPU is unknown (counted once by norm_offer). */
static bool add_sizes(struct norm *out, const struct rp_type *t, size_t k, double price,
                      const char *region, const char *stock)
{
	for (size_t s = 0; s < sizeof pod_sizes / sizeof pod_sizes[0]; s++) {
		if (pod_sizes[s] > t->max)
			break;
		char offer[128];
		snprintf(offer, sizeof offer, "%dx %s (%s)", pod_sizes[s],
		         *t->id ? t->id : t->shown, prices[k].tier);
		struct raw_offer r = {
		    .offer = offer,
		    .region = region,
		    .tier = prices[k].tier,
		    /* Secure Cloud runs in data centres, Community
		     * Cloud on individual hosts' machines. */
		    .host = strcmp(prices[k].tier, "secure") ? NORM_HOST_MARKETPLACE
		                                             : NORM_HOST_DATACENTRE,
		    .gpu_name = t->name,
		    .gpu_count = pod_sizes[s],
		    .vram_gib = t->gib,
		    .price = price,
		    .per_gpu = true,
		    .spot = prices[k].spot,
		    .available = in_stock(stock, t->lowest, pod_sizes[s]),
		};
		if (!norm_offer(out, &r))
			return false;
	}
	return true;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *errors = cJSON_GetObjectItemCaseSensitive(root, "errors");
	const cJSON *types = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "data"), "gpuTypes");
	if (cJSON_GetArraySize(errors) > 0) {
		rc = set_err(err, PLANNER_ENET, "runpod says: %s",
			     pj_str(cJSON_GetArrayItem(errors, 0), "message"));
		goto out;
	}
	if (!cJSON_IsArray(types)) {
		rc = set_err(err, PLANNER_ENET, "response has no data.gpuTypes list");
		goto out;
	}
	const cJSON *dcs = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "data"), "dataCenters");
	const cJSON *it;
	cJSON_ArrayForEach(it, types)
	{
		struct rp_type t = {
		    .id = pj_str(it, "id"),
		    .shown = pj_str(it, "displayName"),
		    .gib = pj_num(it, "memoryInGb") * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
		    .max = (int)pj_count(it, "maxGpuCount", INT_MAX),
		    .lowest = cJSON_GetObjectItemCaseSensitive(it, "lowestPrice"),
		};
		/* A MIG slice ("… Server Edition MIG 1g.24gb", runpod/docs
		 * references/gpu-types.mdx, 2026-08-18) is a share of a GPU the
		 * table does not model: left out, counted once. */
		if (provider_mig_slice(t.id) || provider_mig_slice(t.shown)) {
			out->skipped++;
			continue;
		}
		/* An id like "NVIDIA A100 80GB PCIe" names the part best. */
		t.name = t.id;
		if (!refdata_gpu(out->ref, t.id) && *t.shown)
			t.name = t.shown;
		if (t.max <= 0)
			t.max = 1;
		/* The data centres that offer the type now. */
		bool in_dc = false;
		const cJSON *dc;
		cJSON_ArrayForEach(dc, dcs) in_dc = in_dc || dc_stock(dc, t.id);
		const char *stock = pj_str(t.lowest, "stockStatus");
		for (size_t k = 0; k < sizeof prices / sizeof prices[0]; k++) {
			double price = pj_num(it, prices[k].field);
			if (price <= 0)
				continue; /* null or 0: not offered */
			if (!in_dc || strcmp(prices[k].tier, "secure")) {
				add_sizes(out, &t, k, price, "", stock);
				continue;
			}
			cJSON_ArrayForEach(dc, dcs)
			{
				const char *s = dc_stock(dc, t.id);
				if (s && !add_sizes(out, &t, k, price, pj_str(dc, "id"), s))
					break; /* an unknown GPU, counted once per price */
			}
		}
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/graphql", query, err);
}

const struct provider provider_runpod = {
    .name = "runpod",
    .kind = PROVIDER_RENTED,
    .base_url = "https://api.runpod.io",
    .key_env = "RUNPOD_API_KEY",
    /* The gpuTypes prices query answers without a key: RunPod's own docs
     * generator (runpod/docs helpers/gpu_types.py) and gpuhunt
     * (dstackai/gpuhunt providers/runpod.py) POST it keyless daily. */
    .key_optional = true,
    .summary = "RunPod GPU types, secure cloud per data centre and community cloud, spot, "
               "per GPU",
    .fetch = fetch,
    .parse = parse,
};
