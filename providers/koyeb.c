/* koyeb.c — Koyeb's serverless GPU instance types (GET
 * /v1/catalog/instances on app.koyeb.com). Koyeb's API description puts
 * a Bearer token on every path, the catalogue's too, and whether it
 * answers without one was not confirmed here: the key (KOYEB_TOKEN) is
 * sent when set and the feed is tried without it.
 *
 * Shape: Koyeb's OpenAPI description (koyeb/koyeb-api-client-go
 * api/v1/koyeb/openapi.json @ 5958795c16851c96908bab6cfcc1cf0212794d59,
 * read 2026-12-02): {"instances": [CatalogInstanceListItem], "limit",
 * "offset", "count" (the total)}; an item has id ("gpu-nvidia-l4"),
 * description ("Nvidia RTX 4000 SFF Ada Generation", "2x Nvidia L4"),
 * vcpu_shares, memory ("44GB": "the memory in bytes in a format like
 * 5MB"), price_per_second, price_hourly, price_monthly (decimal strings;
 * "The price to pay per hour", USD: the dashboard reads them with Number()
 * and Koyeb's pricing page quotes USD per hour), regions (ids: "fra",
 * "was"; empty when none), status ("AVAILABLE", "COMING_SOON",
 * "RESTRICTED"), type ("gpu"), gpu {count, brand, memory ("20GB" per
 * GPU), name}. Koyeb's dashboard (koyeb/control-panel src/api/mappers/
 * catalog.ts @ 597d36d49ccd884dbcc345f2d277ca0f46b04ccf) reads the same
 * fields and asks limit=100.
 *
 * One row per region of a GPU type, at price_hourly per instance-hour
 * (per-second billing; the hourly figure is Koyeb's own), available while
 * status is AVAILABLE. The GPU is gpu.name when given, else the
 * description without its "<n>x " count and its vendor word, for the
 * normaliser's alias table ("RTX 4000 SFF Ada Generation", "L4"; "A100"
 * placed by gpu.memory). A type with no region is left out and counted.
 * Paging: limit and offset, the next page while offset + items < count. */
#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"
#include "util.h"

#define KOYEB_LIMIT     100
#define KOYEB_MAX_PAGES 20
#define KOYEB_MAX_GPUS  16
#define KOYEB_MAX_COUNT 100000

/* "2x Nvidia L4" → "L4": the count and the vendor word dropped. */
static void gpu_name(const cJSON *t, char *buf, size_t len)
{
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(t, "gpu");
	const char *s = pj_str(gpu, "name");
	if (!*s) {
		s = pj_str(t, "description");
		const char *p = s;
		while (isdigit((unsigned char)*p))
			p++;
		if (p > s && *p == 'x' && p[1] == ' ')
			s = p + 2;
		if (!strncasecmp(s, "nvidia ", 7))
			s += 7;
		else if (!strncasecmp(s, "amd ", 4))
			s += 4;
	}
	snprintf(buf, len, "%s", s);
}

static void read_type(struct norm *out, const cJSON *t)
{
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(t, "gpu");
	long count = pj_count(gpu, "count", KOYEB_MAX_GPUS);
	if (strcmp(pj_str(t, "type"), "gpu") && count <= 0)
		return; /* a CPU instance */
	char name[128], *end = NULL;
	gpu_name(t, name, sizeof name);
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(t, "regions");
	double price, vram = strtod(pj_str(gpu, "memory"), &end), ram;
	struct raw_offer r = {
	    .offer = pj_str(t, "id"),
	    .gpu_name = name,
	    .gpu_count = (int)count,
	    .vram_gib = end && !strcasecmp(end, "GB") ? vram : 0,
	    .vcpus = pj_num(t, "vcpu_shares"),
	    .available = !strcmp(pj_str(t, "status"), "AVAILABLE"),
	};
	ram = strtod(pj_str(t, "memory"), &end);
	r.ram_gib = end && !strcasecmp(end, "GB") ? ram : 0;
	if (!*r.offer || !*name || count <= 0 || !pj_number(t, "price_hourly", &price) ||
	    price <= 0 || cJSON_GetArraySize(regions) == 0) {
		out->skipped++;
		return;
	}
	r.price = price;
	const cJSON *reg;
	cJSON_ArrayForEach(reg, regions)
	{
		if (cJSON_IsString(reg) && *reg->valuestring) {
			r.region = reg->valuestring;
			norm_offer(out, &r);
		}
	}
}

/* The next page while offset + items < count. */
static bool follow(const cJSON *root, size_t items, char **next)
{
	long offset = pj_count(root, "offset", KOYEB_MAX_COUNT);
	long count = pj_count(root, "count", KOYEB_MAX_COUNT);
	*next = NULL;
	if (!items || offset + (long)items >= count)
		return true;
	*next = xasprintf("/v1/catalog/instances?limit=%d&offset=%ld", KOYEB_LIMIT,
	                  offset + (long)items);
	return *next != NULL;
}

static const struct provider_items feed = {
    .provider = "koyeb",
    .path = {"instances"},
    .missing = "no \"instances\" list",
    .item = read_type,
    .follow = follow,
};

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char path[64];
	snprintf(path, sizeof path, "/v1/catalog/instances?limit=%d", KOYEB_LIMIT);
	return provider_fetch_items(fx, &feed, path, KOYEB_MAX_PAGES, err);
}

const struct provider provider_koyeb = {
    .name = "koyeb",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://app.koyeb.com",
    /* The variable Koyeb's CLI and Terraform provider read for the API
     * token (koyeb/terraform-provider-koyeb; unconfirmed for the CLI). */
    .key_env = "KOYEB_TOKEN",
    .key_optional = true,
    .summary = "Koyeb serverless GPU instances (RTX 4000 SFF Ada, L4, L40S, A100, H100 …) "
               "per region",
    .fetch = fetch,
    .parse = parse,
};
