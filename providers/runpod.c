/* runpod.c — RunPod GraphQL gpuTypes (POST /graphql). Prices are USD per
 * GPU-hour (an N-GPU pod costs N times), null or 0 when not offered;
 * errors arrive as HTTP 200 with {"errors":[{"message"}]}. Works without
 * a key; the key is sent as a Bearer header when set. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

static const char query[] =
	"{\"query\":\"query GpuTypes { gpuTypes { id displayName memoryInGb securePrice "
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

/* Whether a pod of `count` GPUs is in stock. stockStatus answers for the
 * one GPU the query asks about ("High", "Medium", "Low"; null or "None"
 * when there is none); availableGpuCounts lists the pod sizes that can be
 * had now ([1, 2, 4] at High stock in RunPod's own example,
 * runpod/docs sdks/graphql/manage-pods.mdx, 2026-07-20). Without that
 * list a larger pod's stock is unknown, and unknown is not available. */
static bool in_stock(const cJSON *lowest, int count)
{
	const cJSON *stock = cJSON_GetObjectItemCaseSensitive(lowest, "stockStatus");
	if (!cJSON_IsString(stock) || !strcmp(stock->valuestring, "None"))
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
	const cJSON *t;
	cJSON_ArrayForEach(t, types)
	{
		const char *id = pj_str(t, "id");
		const char *shown = pj_str(t, "displayName");
		double gib = pj_num(t, "memoryInGb") * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
		int max = (int)pj_count(t, "maxGpuCount", INT_MAX);
		const cJSON *lowest = cJSON_GetObjectItemCaseSensitive(t, "lowestPrice");
		/* A MIG slice ("… Server Edition MIG 1g.24gb", runpod/docs
		 * references/gpu-types.mdx, 2026-08-18) is a share of a GPU the
		 * table does not model: left out, counted once. */
		if (provider_mig_slice(id) || provider_mig_slice(shown)) {
			out->skipped++;
			continue;
		}
		/* An id like "NVIDIA A100 80GB PCIe" names the part best. */
		const char *name = id;
		if (!refdata_gpu(out->ref, id) && *shown)
			name = shown;
		if (max <= 0)
			max = 1;
		for (size_t k = 0; k < sizeof prices / sizeof prices[0]; k++) {
			double price = pj_num(t, prices[k].field);
			if (price <= 0)
				continue; /* null or 0: not offered */
			for (size_t s = 0; s < sizeof pod_sizes / sizeof pod_sizes[0]; s++) {
				if (pod_sizes[s] > max)
					break;
				char offer[128];
				snprintf(offer, sizeof offer, "%dx %s (%s)", pod_sizes[s],
					 *id ? id : shown, prices[k].tier);
				struct raw_offer r = {
					.offer = offer,
					.tier = prices[k].tier,
					/* Secure Cloud runs in data centres, Community
					 * Cloud on individual hosts' machines. */
					.host = strcmp(prices[k].tier, "secure")
					            ? NORM_HOST_MARKETPLACE
					            : NORM_HOST_DATACENTRE,
					.gpu_name = name,
					.gpu_count = pod_sizes[s],
					.vram_gib = gib,
					.price = price,
					.per_gpu = true,
					.spot = prices[k].spot,
					.available = in_stock(lowest, pod_sizes[s]),
				};
				if (!norm_offer(out, &r))
					break; /* one unknown GPU, counted once per price */
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
	.summary = "RunPod GPU types, secure and community cloud, spot, per GPU",
	.fetch = fetch,
	.parse = parse,
};
