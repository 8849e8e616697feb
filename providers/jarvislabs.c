/* jarvislabs.c — JarvisLabs GPU VMs (GET /misc/server_meta on
 * backendprod.jarvislabs.net, the key as a Bearer token; JL_API_KEY).
 *
 * Endpoint, header and shape: dstackai/gpuhunt src/gpuhunt/providers/
 * jarvislabs.py at 035b764b06b523d7182a674f083de9b1c672492e (read
 * 2026-12-02): {"server_meta": [{gpu_type ("L4", "A100-80GB", "H100"),
 * region ("india-01", "india-noida-01", "europe-01"), price_per_hour and
 * spot_price (USD per GPU-hour, spot null when none), vram (GB, a string),
 * cpus_per_gpu, ram_per_gpu (GB), num_gpus (the most GPUs one VM takes, a
 * string; absent: 1), num_free_devices, effective_num_free_devices,
 * spot_num_free_devices, workload_type ("vm", "container" or null)}],
 * "cpu_meta": {...}}. A row whose workload_type is "container" is a
 * container offer, the same GPUs again, and is passed over; null is a VM
 * row (gpuhunt's comment: older EU H100/H200 rows). cpu_meta holds CPU
 * VMs, not offers here. No recorded response was found: the test replays
 * a payload in this shape (tests/fixtures/providers/jarvislabs.json).
 *
 * One offer per VM size 1, 2, 4 and 8 GPUs up to num_gpus, priced
 * per_gpu; available when that many devices are free (spot: spot
 * devices). JarvisLabs runs its own data centres (own_datacentres). No
 * paging. No redirect is followed (http.c), so the key never reaches
 * another host. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

#define JL_MAX_GPUS 64

/* "A100-80GB" → "A100 80GB": the spelling refdata reads. */
static void gpu_name(const char *g, char *buf, size_t len)
{
	size_t n = 0;
	for (; *g && n + 1 < len; g++)
		buf[n++] = *g == '-' ? ' ' : *g;
	buf[n] = '\0';
}

/* The free devices a row states: effective_num_free_devices, else
 * num_free_devices (gpuhunt reads them in that order). */
static long free_devices(const cJSON *row)
{
	long n = pj_count(row, "effective_num_free_devices", JL_MAX_GPUS * 1000L);
	return n > 0 ? n : pj_count(row, "num_free_devices", JL_MAX_GPUS * 1000L);
}

/* The rows of one price (on-demand or spot) of one server_meta row. */
static void sizes(struct norm *out, struct raw_offer *r, const char *gpu_type, long most, long free,
                  double cpus, double ram_gib)
{
	for (int c = 1; c <= most; c *= 2) {
		char offer[96];
		snprintf(offer, sizeof offer, "%s-%dx", gpu_type, c);
		r->offer = offer;
		r->gpu_count = c;
		r->vcpus = cpus * c;
		r->ram_gib = ram_gib * c;
		r->available = free >= c;
		norm_offer(out, r);
	}
}

static void read_row(struct norm *out, const cJSON *row)
{
	const char *wt = pj_str(row, "workload_type");
	const char *type = pj_str(row, "gpu_type");
	double price, vram, spot, cpus = pj_num(row, "cpus_per_gpu");
	double ram = pj_num(row, "ram_per_gpu");
	if (*wt && strcmp(wt, "vm"))
		return; /* a container offer: the same GPUs */
	if (!*type || !*pj_str(row, "region") || !pj_number(row, "price_per_hour", &price) ||
	    !pj_number(row, "vram", &vram)) {
		out->skipped++;
		return;
	}
	long most = pj_count(row, "num_gpus", JL_MAX_GPUS);
	if (most <= 0)
		most = 1;
	char name[64];
	gpu_name(type, name, sizeof name);
	/* vcpus and RAM are per GPU: sizes multiplies them out. */
	ram *= NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
	struct raw_offer r = {
	    .region = pj_str(row, "region"),
	    .gpu_name = name,
	    .vram_gib = vram * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .price = price,
	    .per_gpu = true,
	    .host = NORM_HOST_DATACENTRE,
	};
	sizes(out, &r, type, most, free_devices(row), cpus, ram);
	if (pj_number(row, "spot_price", &spot)) {
		r.price = spot;
		r.spot = true;
		sizes(out, &r, type, most,
		      pj_count(row, "spot_num_free_devices", JL_MAX_GPUS * 1000L), cpus, ram);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "jarvislabs",
	    .path = {"server_meta"},
	    .missing = "no \"server_meta\" list",
	    .item = read_row,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/misc/server_meta", NULL, err);
}

const struct provider provider_jarvislabs = {
    .name = "jarvislabs",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://backendprod.jarvislabs.net",
    .key_env = "JL_API_KEY",
    .summary = "JarvisLabs GPU VMs (on-demand and spot)",
    .fetch = fetch,
    .parse = parse,
};
