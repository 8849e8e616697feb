/* hyperbolic.c — Hyperbolic's GPU marketplace (POST /v1/marketplace on
 * api.hyperbolic.xyz with the body {"filters": {}}; keyless,
 * HYPERBOLIC_API_KEY sent as a Bearer token when set).
 *
 * Endpoint, body and shape: Hyperbolic's "Marketplace API" page
 * (https://docs.hyperbolic.xyz/docs/marketplace-api, read 2026-12-02 in
 * the search tools' stored copy): "List Available Machines … does not
 * require a Bearer token"; {"instances": [{id (the node), status
 * ("node_ready"), hardware {cpus [{virtual_cores}], gpus [{model
 * ("NVIDIA-GeForce-RTX-3070"), ram (MiB: 8192 for that card)}], ram
 * [{capacity}]}, location {region}, gpus_total, gpus_reserved (GPUs in
 * use), reserved (the whole machine taken), pricing {price {amount,
 * period "hourly"}}, cluster_name}]}.
 *
 * Units: the page says amount is the "Hourly cost in USD"; the peers that
 * read it divide it by 100 and call it the price per GPU ("The GPU prices
 * are in CENTS per hour", coinbase/agentkit's TypeScript Hyperbolic
 * action, and its Python tests: amount 2000 prints "$20.00/hour per
 * GPU"), and Hyperbolic's own pricing page caps an H100 SXM at USD 3.20
 * an hour (docs.hyperbolic.xyz/docs/gpu-marketplace-pricing), which only
 * cents per GPU-hour fit; so cents per GPU-hour (unconfirmed against a
 * recorded response: none was found).
 *
 * Suppliers list their own machines: a marketplace, every row a
 * marketplace host. One offer per machine and size (1, 2, 4, 8 … GPUs up
 * to gpus_total), available when the machine is ready, not reserved and
 * has that many GPUs free. No paging, no spot price. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

#define HB_MAX_GPUS 64

/* "NVIDIA-GeForce-RTX-3070" → "NVIDIA GeForce RTX 3070". */
static void gpu_name(const char *m, char *buf, size_t len)
{
	size_t n = 0;
	for (; *m && n + 1 < len; m++)
		buf[n++] = *m == '-' ? ' ' : *m;
	buf[n] = '\0';
}

/* The first element of hardware's list `key`. */
static const cJSON *first(const cJSON *hw, const char *key)
{
	return cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(hw, key), 0);
}

static void read_instance(struct norm *out, const cJSON *in)
{
	const cJSON *hw = cJSON_GetObjectItemCaseSensitive(in, "hardware");
	const cJSON *gpu = first(hw, "gpus");
	const cJSON *price = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(in, "pricing"), "price");
	const char *id = pj_str(in, "id"), *model = pj_str(gpu, "model");
	long total = pj_count(in, "gpus_total", HB_MAX_GPUS);
	double cents = 0;
	if (!*id || !*model || total <= 0 || !pj_number(price, "amount", &cents) || cents <= 0) {
		out->skipped++;
		return;
	}
	long used = pj_count(in, "gpus_reserved", HB_MAX_GPUS);
	bool ready = !strcmp(pj_str(in, "status"), "node_ready") &&
	             !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(in, "reserved"));
	double cpus = pj_num(first(hw, "cpus"), "virtual_cores");
	double ram = pj_num(first(hw, "ram"), "capacity");
	char name[96];
	gpu_name(model, name, sizeof name);
	struct raw_offer r = {
	    .region = pj_str(cJSON_GetObjectItemCaseSensitive(in, "location"), "region"),
	    .gpu_name = name,
	    .vram_gib = pj_num(gpu, "ram") / NORM_MIB_PER_GIB,
	    .price = cents / 100.0,
	    .per_gpu = true,
	    .host = NORM_HOST_MARKETPLACE,
	};
	/* A part of the machine gets its share of the CPUs and memory. */
	for (long c = 1; c <= total; c *= 2) {
		char offer[160];
		snprintf(offer, sizeof offer, "%s-%ldx", id, c);
		r.offer = offer;
		r.gpu_count = (int)c;
		r.vcpus = cpus * (double)c / (double)total;
		r.ram_gib = ram * (double)c / (double)total;
		r.available = ready && total - used >= c;
		norm_offer(out, &r);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "hyperbolic",
	    .path = {"instances"},
	    .missing = "response has no \"instances\" list",
	    .item = read_instance,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/v1/marketplace", "{\"filters\": {}}", err);
}

const struct provider provider_hyperbolic = {
    .name = "hyperbolic",
    .kind = PROVIDER_RENTED,
    .own_datacentres = false, /* suppliers' machines */
    .base_url = "https://api.hyperbolic.xyz",
    .key_env = "HYPERBOLIC_API_KEY",
    .key_optional = true,
    .summary = "Hyperbolic GPU marketplace (suppliers' machines, per GPU-hour)",
    .fetch = fetch,
    .parse = parse,
};
