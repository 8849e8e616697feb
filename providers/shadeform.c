/* shadeform.c — Shadeform's marketplace: one key, offers from many clouds
 * (GET /v1/instances/types on api.shadeform.ai, the key in an X-API-KEY
 * header). `instance_types` is a list of {cloud ("massedcompute",
 * "hyperstack", "lambda" …), shade_instance_type ("A6000", "H100x8"),
 * cloud_instance_type, hourly_price (integer US cents per instance-hour),
 * configuration {gpu_type, num_gpus, vcpus, memory_in_gb,
 * vram_per_gpu_in_gb, …}, availability [{region, available}]}. Each row
 * keeps its cloud: the offer is "<cloud>/<cloud_instance_type>" and the
 * region "<cloud>/<region>", so the same GPU sold by two clouds are two
 * offers, and a region name means one cloud's region. No spot price; no
 * paging (the whole list comes in one response).
 *
 * Sources: SkyPilot's catalogue fetcher (skypilot-org/skypilot
 * sky/catalog/data_fetchers/fetch_shadeform.py at
 * 0b83a4eafc2697c3057cd7b3ebf4146ae1114a18: the endpoint, X-API-KEY,
 * "Price is in cents per hour, convert to dollars", configuration.gpu_type,
 * num_gpus, vcpus, memory_in_gb, one row per available region); a
 * reference of Shadeform's API kept in a public repository (found with
 * find_string 2026-11-30: "hourly_price: integer # price in cents"); and
 * the fields vram_per_gpu_in_gb and cloud_instance_type as a public test's
 * payload shows them. Read 2026-11-30. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* hourly_price is in US cents (above). */
#define SF_CENTS_PER_USD 100.0
/* The most GPUs an instance type has (H100x8, B200x8). */
#define SF_MAX_GPUS 64

/* configuration.gpu_type ("A6000", "H100", "A100_80G") as refdata reads
 * it: underscores spaces, a trailing "80G" "80GB", and the interconnect
 * ("pcie", "sxm5") added when the alias table knows the result ("H100"
 * over PCIe is "H100 PCIe", not the SXM part the bare name means). */
static void gpu_name(const struct norm *out, const cJSON *cfg, char *buf, size_t len)
{
	char base[64], with[80];
	snprintf(base, sizeof base, "%s", pj_str(cfg, "gpu_type"));
	for (char *p = base; *p; p++)
		if (*p == '_')
			*p = ' ';
	size_t n = strlen(base);
	if (n > 1 && base[n - 1] == 'G' && base[n - 2] >= '0' && base[n - 2] <= '9' &&
	    n + 1 < sizeof base) {
		base[n] = 'B';
		base[n + 1] = '\0';
	}
	const char *ic = pj_str(cfg, "interconnect");
	const char *form = !strncasecmp(ic, "pcie", 4) ? "PCIe" : !strncasecmp(ic, "sxm", 3) ? "SXM" : NULL;
	snprintf(with, sizeof with, "%s %s", base, form ? form : "");
	snprintf(buf, len, "%s", form && refdata_gpu(out->ref, with) ? with : base);
}

/* One instance type into out: a row per region of its cloud. */
static void read_type(struct norm *out, const cJSON *t)
{
	const cJSON *cfg = cJSON_GetObjectItemCaseSensitive(t, "configuration");
	const cJSON *where = cJSON_GetObjectItemCaseSensitive(t, "availability");
	const char *cloud = pj_str(t, "cloud");
	const char *type = *pj_str(t, "cloud_instance_type") ? pj_str(t, "cloud_instance_type")
							     : pj_str(t, "shade_instance_type");
	long gpus = pj_count(cfg, "num_gpus", SF_MAX_GPUS);
	double cents = 0;
	if (gpus <= 0)
		return; /* a CPU instance: not an offer */
	if (!*cloud || !*type || !pj_number(t, "hourly_price", &cents)) {
		out->skipped++;
		return;
	}
	char offer[160], gpu[96], region[160];
	snprintf(offer, sizeof offer, "%s/%s", cloud, type);
	gpu_name(out, cfg, gpu, sizeof gpu);
	struct raw_offer r = {
	    .offer = offer,
	    .gpu_name = gpu,
	    .gpu_count = (int)gpus,
	    .vram_gib = pj_num(cfg, "vram_per_gpu_in_gb") * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .vcpus = pj_num(cfg, "vcpus"),
	    .ram_gib = pj_num(cfg, "memory_in_gb"),
	    .price = cents / SF_CENTS_PER_USD,
	};
	if (cJSON_GetArraySize(where) == 0) {
		norm_offer(out, &r);
		return;
	}
	const cJSON *a;
	cJSON_ArrayForEach(a, where)
	{
		if (!*pj_str(a, "region"))
			continue;
		snprintf(region, sizeof region, "%s/%s", cloud, pj_str(a, "region"));
		r.region = region;
		r.available = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(a, "available"));
		if (!norm_offer(out, &r))
			return; /* an unknown GPU, counted once */
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "shadeform",
	    .path = {"instance_types"},
	    .missing = "response has no \"instance_types\" list",
	    .item = read_type,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/v1/instances/types", NULL, err);
}

const struct provider provider_shadeform = {
    .name = "shadeform",
    .kind = PROVIDER_RENTED,
    .base_url = "https://api.shadeform.ai",
    /* The variable Shadeform's own examples and users' scripts use (a
     * public provisioning guide found 2026-11-30: SHADEFORM_API_KEY). */
    .key_env = "SHADEFORM_API_KEY",
    .key_header = "X-API-KEY",
    .summary = "Shadeform marketplace: offers of many clouds, each row keeping its cloud",
    .fetch = fetch,
    .parse = parse,
};
