/* cloudrift.c — CloudRift GPU VMs (POST /api/v1/instance-types/list on
 * api.cloudrift.ai; public: the listing answers without a key).
 *
 * Request and shape: CloudRift's OpenAPI description (rift-server 0.61.0)
 * as vendored in berops/terraform-provider-cloudrift pkg/cloudriftapi/
 * api.json at c013542eacf971ee214abf3f23c255f48875bbd9 (read 2026-12-02):
 * the body {"version": <protocol date>, "data": {"selector":
 * {"ByServiceAndLocation": {"services": ["vm"]}}}} (the selector and
 * version gpuhunt sends, dstackai/gpuhunt src/gpuhunt/providers/
 * cloudrift.py at 35841515de3792fe6be73b0422ac8901b6b929c8); the answer
 * {"version", "data": {"instance_types": [{name, brand_short (the GPU's
 * short brand, nullable), manufacturer, cost_per_hour, datacenters:
 * [{name, country_code, provider_name}], variants: [{name, gpu_count,
 * vram (bytes per GPU), cpu_count, dram (bytes), disk, cost_per_hour
 * (US cents per variant-hour), nodes_per_dc and available_nodes_per_dc
 * ({datacenter: nodes}), mig_profile (nullable)}]}]}}.
 *
 * One offer per variant and datacenter of its nodes_per_dc (gpuhunt's
 * reading), available when available_nodes_per_dc has a free node there.
 * The GPU is the first of gpu_brands that brand_short contains (gpuhunt's
 * GPU_MAP: brand_short may hold more than the name), else brand_short as
 * it is, for the normaliser's alias table (a name it does not know is
 * counted unknown, never guessed); a type without brand_short is left out
 * and counted; a MIG variant is a slice
 * (provider_mig_slice), left out and counted. CloudRift lists machines of
 * the data-centre partners that run its service (datacenters[].
 * provider_name), not its own: marketplace hosts (own_datacentres false,
 * host unknown). No spot price, no paging. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "util.h"

/* The request gpuhunt sends (cloudrift.py above: CLOUDRIFT_API_VERSION
 * "2025-03-21", VM instance types only). */
#define CLOUDRIFT_REQUEST                                                                          \
	"{\"version\": \"2025-03-21\", \"data\": {\"selector\": "                                  \
	"{\"ByServiceAndLocation\": {\"services\": [\"vm\"]}}}}"
#define CLOUDRIFT_MAX_GPUS  16
#define CLOUDRIFT_MAX_NODES 100000

/* The names brand_short is matched against, as gpuhunt's GPU_MAP lists
 * them (cloudrift.py above); the normaliser's alias table maps them. */
static const char *const gpu_brands[] = {"RTX PRO 6000", "RTX 4090", "RTX 5090", "MI350X"};

static const char *brand_gpu(const char *brand)
{
	for (size_t i = 0; i < sizeof gpu_brands / sizeof *gpu_brands; i++)
		if (strstr(brand, gpu_brands[i]))
			return gpu_brands[i];
	return NULL;
}

/* The offers of one variant: a row per datacenter it has nodes in. */
static void read_variant(struct norm *out, const cJSON *v, const char *gpu)
{
	const char *name = pj_str(v, "name");
	long count = pj_count(v, "gpu_count", CLOUDRIFT_MAX_GPUS);
	const cJSON *dcs = cJSON_GetObjectItemCaseSensitive(v, "nodes_per_dc");
	const cJSON *free_dcs = cJSON_GetObjectItemCaseSensitive(v, "available_nodes_per_dc");
	double cents, vram = 0, dram = 0;
	if (provider_mig_slice(pj_str(v, "mig_profile"))) {
		out->skipped++;
		return;
	}
	if (!*name || count <= 0 || !pj_number(v, "cost_per_hour", &cents) ||
	    !cJSON_IsObject(dcs)) {
		out->skipped++;
		return;
	}
	pj_number(v, "vram", &vram);
	pj_number(v, "dram", &dram);
	struct raw_offer r = {
	    .offer = name,
	    .gpu_name = gpu,
	    .gpu_count = (int)count,
	    .vram_gib = vram / NORM_BYTES_PER_GIB,
	    .vcpus = pj_num(v, "cpu_count"),
	    .ram_gib = dram / NORM_BYTES_PER_GIB,
	    .price = cents / 100.0,
	};
	const cJSON *dc;
	cJSON_ArrayForEach(dc, dcs)
	{
		if (!dc->string || !*dc->string)
			continue;
		r.region = dc->string;
		r.available = pj_count(free_dcs, dc->string, CLOUDRIFT_MAX_NODES) > 0;
		norm_offer(out, &r);
	}
}

static void read_type(struct norm *out, const cJSON *t)
{
	const char *brand = pj_str(t, "brand_short");
	const char *gpu = brand_gpu(brand);
	const cJSON *variants = cJSON_GetObjectItemCaseSensitive(t, "variants");
	if (!*brand) {
		out->skipped++; /* no GPU named: a CPU type, or a broken row */
		return;
	}
	const cJSON *v;
	cJSON_ArrayForEach(v, variants)
	{
		read_variant(out, v, gpu ? gpu : brand);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "cloudrift",
	    .path = {"data", "instance_types"},
	    .missing = "no \"instance_types\" list",
	    .item = read_type,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, "/api/v1/instance-types/list");
	struct buf body = {0};
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	int rc = provider_get(fx, url, CLOUDRIFT_REQUEST, NULL, &body, err);
	if (rc == PLANNER_OK)
		rc = parse(fx->out, body.data ? body.data : "", body.len, NULL, err);
	buf_free(&body);
	free(url);
	return rc;
}

const struct provider provider_cloudrift = {
    .name = "cloudrift",
    .kind = PROVIDER_RENTED,
    .base_url = "https://api.cloudrift.ai",
    .summary = "CloudRift GPU VMs of its data-centre partners (on-demand)",
    .fetch = fetch,
    .parse = parse,
};
