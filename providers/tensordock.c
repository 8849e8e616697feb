/* tensordock.c — TensorDock's public marketplace: every host node with
 * its GPUs and per-unit prices (GET /api/v0/client/deploy/hostnodes on
 * marketplace.tensordock.com, no key needed).
 *
 * Endpoint and use: dstackai/gpuhunt src/gpuhunt/providers/tensordock.py
 * at commit b2fd6ab284e3ce4c2a82f0b47eb5267e94638aa7 (marketplace_
 * hostnodes_url, fetched with a plain GET, no key; response["hostnodes"]
 * an object keyed by host node id; details["location"]["country"];
 * details["specs"] {cpu, ram, storage: {amount, price}, gpu: {model id:
 * {amount, price, vram}}}; the price of a configuration is the sum of
 * amount times price over the GPUs, vCPUs, GB of RAM and GB of storage,
 * an hourly price in USD as gpuhunt catalogues it), and its test
 * src/tests/providers/test_tensordock.py at commit
 * 9303c5d8e1a0e37ebc80de984af05d6c85db91b2 (specs of an 8 x L40 node:
 * vram 48, GPU 1.05, vCPU 0.003, RAM 0.002, storage 5e-05). The envelope
 * {"hostnodes": {...}, "success": true}, location {city, country, region}
 * and status {listed, online}: the example response in
 * ryan-huang1/tensordock-python-sdk DOCS.md at commit
 * 25f636ee894dc122c9a00f16c8b0236c59ea6377 (a Winnipeg, Canada node with
 * one geforcertx3080-pcie-10gb at 0.15; no vram field there, so the GB
 * in the model id is read when it is absent). All retrieved 2026-11-30.
 * One response, no paging (no peer pages). TensorDock's newer v2 API
 * (dashboard.tensordock.com/api/v2/hostnodes) needs a Bearer key; whether
 * v0 still answers is unconfirmed.
 *
 * A node is no fixed instance: the renter picks GPUs, vCPUs, RAM and disk.
 * Rows follow gpuhunt's smallest balanced configuration (optimize_offers
 * with no requirements): for g GPUs of VRAM v GB, RAM = 2 g v GB, vCPUs =
 * RAM / 6 (both rounded up to even), disk = max(RAM, g v) GB, each capped
 * at what the node has (three quarters of it when not every GPU is
 * taken). One row per node, GPU model and count in td_counts (up to the
 * GPUs the node has, and that count itself). A node listed or online
 * false, or without a location.country string, is left out and counted;
 * a GPU with no price is skipped. Region:
 * the country name lower-cased without spaces ("unitedstates", gpuhunt's
 * location), which planner/regions.c maps to a country code. No spot. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* gpuhunt's balance rules (tensordock.py, above): GB of RAM per GB of
 * VRAM, GB of RAM per vCPU, both rounded to even; the share of a node's
 * vCPUs, RAM and disk that a rental taking fewer than all its GPUs gets. */
#define TD_RAM_PER_VRAM 2
#define TD_RAM_PER_CORE 6
#define TD_ROUND        2
#define TD_PART_SHARE   0.75
/* The longest word of an offer id: `planner offers` wraps names at
 * spaces in a 28-column cell, and a node's UUID is one 36-character word. */
#define TD_WORD 24
/* The most GPUs a node may have: the normaliser's bound. */
#define TD_MAX_GPUS NORM_MAX_GPUS_PER_OFFER

/* The GPU counts offered per node and model (with the node's own count). */
static const int td_counts[] = {1, 2, 4, 8};

/* One node's unit prices and amounts. */
struct td_node {
	const char *id, *region;
	double cpu, cpu_price, ram, ram_price, disk, disk_price;
};

static double round_down(double v, int step)
{
	return floor(v / step) * step;
}

static double round_up(double v, int step)
{
	return ceil(v / step) * step;
}

/* {amount, price} of specs[key]; false when either is missing or negative. */
static bool unit(const cJSON *specs, const char *key, double *amount, double *price)
{
	const cJSON *u = cJSON_GetObjectItemCaseSensitive(specs, key);
	return pj_number(u, "amount", amount) && pj_number(u, "price", price) && *amount >= 0 &&
	       *price >= 0;
}

/* "geforcertx4090-pcie-24gb" -> a name the GPU table knows: "rtx4090
 * pcie" when known, else "rtx4090" (gpuhunt's convert_gpu_name drops
 * "geforce" and keeps the first part); *gb the GB the id ends in. */
static void read_model(const struct norm *out, const char *id, char *name, size_t len, double *gb)
{
	const char *dash = strchr(id, '-'), *last = strrchr(id, '-');
	const char *p = strncmp(id, "geforce", 7) ? id : id + 7;
	size_t first = dash ? (size_t)(dash - p) : strlen(p);
	const char *next = dash ? dash + 1 : "";
	size_t second = strcspn(next, "-");
	*gb = 0;
	if (last && sscanf(last + 1, "%lfgb", gb) != 1)
		*gb = 0;
	snprintf(name, len, "%.*s %.*s", (int)first, p, (int)second, next);
	if (!second || !refdata_gpu(out->ref, name))
		snprintf(name, len, "%.*s", (int)first, p);
}

/* The row for g of the node's n GPUs of one model at gpu_price each. */
static void add_config(struct norm *out, const struct td_node *nd, const char *model,
                       const char *name, double vram_gb, int g, int n, double gpu_price)
{
	double share = g < n ? TD_PART_SHARE : 1;
	double ram = fmin(round_down(share * nd->ram, TD_ROUND),
	                  round_up(TD_RAM_PER_VRAM * g * vram_gb, TD_ROUND));
	double cpu = fmin(round_down(share * nd->cpu, TD_ROUND),
	                  round_up(ceil(ram / TD_RAM_PER_CORE), TD_ROUND));
	double disk = fmin(floor(share * nd->disk), fmax(ram, g * vram_gb));
	char offer[128];
	snprintf(offer, sizeof offer, "%s %dx %s", nd->id, g, model);
	/* "02c65d45-6da5-4232-a8db ee0e5bc76110": the id whole, cut at its
	 * last dash within TD_WORD so that no word outgrows the column. */
	if (strlen(nd->id) > TD_WORD)
		for (size_t i = TD_WORD; i-- > 0;)
			if (offer[i] == '-') {
				offer[i] = ' ';
				break;
			}
	struct raw_offer r = {
	    .offer = offer,
	    .region = nd->region,
	    .gpu_name = name,
	    .gpu_count = g,
	    .vram_gib = vram_gb * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .vcpus = cpu,
	    .ram_gib = ram * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .price =
	        g * gpu_price + cpu * nd->cpu_price + ram * nd->ram_price + disk * nd->disk_price,
	    .available = true,
	    .currency = "USD",
	};
	norm_offer(out, &r);
}

/* One GPU model of a node: a row per count. */
static void read_gpu(struct norm *out, const struct td_node *nd, const cJSON *gpu)
{
	long n = pj_count(gpu, "amount", TD_MAX_GPUS);
	double price = 0, vram = 0, amount = -1;
	char name[64];
	if (pj_number(gpu, "amount", &amount) && amount == 0)
		return; /* none free on this node */
	read_model(out, gpu->string, name, sizeof name, &vram);
	pj_number(gpu, "vram", &vram);
	if (n <= 0 || !pj_number(gpu, "price", &price) || !(price > 0) || !(vram > 0)) {
		out->skipped++;
		return;
	}
	for (size_t i = 0; i < sizeof td_counts / sizeof *td_counts && td_counts[i] < n; i++)
		add_config(out, nd, gpu->string, name, vram, td_counts[i], (int)n, price);
	add_config(out, nd, gpu->string, name, vram, (int)n, (int)n, price);
}

/* One host node: its region and unit prices, then each GPU model. */
static void read_node(struct norm *out, const cJSON *node)
{
	const cJSON *specs = cJSON_GetObjectItemCaseSensitive(node, "specs");
	const cJSON *status = cJSON_GetObjectItemCaseSensitive(node, "status");
	const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(specs, "gpu");
	const cJSON *country = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(node, "location"), "country");
	char region[64];
	size_t k = 0;
	struct td_node nd = {.id = node->string, .region = region};
	if (!cJSON_IsString(country) || !country->valuestring ||
	    cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(status, "listed")) ||
	    cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(status, "online")) ||
	    !cJSON_IsObject(gpus) || !unit(specs, "cpu", &nd.cpu, &nd.cpu_price) ||
	    !unit(specs, "ram", &nd.ram, &nd.ram_price) ||
	    !unit(specs, "storage", &nd.disk, &nd.disk_price)) {
		out->skipped++;
		return;
	}
	for (const char *p = country->valuestring; *p && k + 1 < sizeof region; p++)
		if (*p != ' ')
			region[k++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
	region[k] = '\0';
	const cJSON *gpu;
	cJSON_ArrayForEach(gpu, gpus)
	{
		if (gpu->string && *gpu->string && cJSON_IsObject(gpu))
			read_gpu(out, &nd, gpu);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	cJSON *root = provider_json(body, len, err);
	int rc = PLANNER_OK;
	if (next)
		*next = NULL;
	if (!root)
		return PLANNER_ENET;
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(root, "hostnodes");
	if (!cJSON_IsObject(nodes)) {
		/* An error object: its "error" or "message" says why (unconfirmed shape). */
		rc = provider_says("tensordock", root, "response has no \"hostnodes\" object", err);
		goto out;
	}
	const cJSON *node;
	cJSON_ArrayForEach(node, nodes)
	{
		if (node->string && *node->string && cJSON_IsObject(node))
			read_node(out, node);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/api/v0/client/deploy/hostnodes", NULL, err);
}

const struct provider provider_tensordock = {
    .name = "tensordock",
    .kind = PROVIDER_RENTED,
    .base_url = "https://marketplace.tensordock.com",
    .key_env = NULL,
    .summary = "TensorDock marketplace host nodes (RTX 30/40, A-series, L40, A100, H100), "
               "priced per GPU, vCPU, GB RAM and disk; USD",
    .currency = "USD",
    /* The v0 marketplace API this adapter reads: "no longer maintained now
     * that Tensordock API v2 has been released" (livepeer/comfystream#111,
     * 2025-04-10); gpuhunt's tensordock provider "is broken"
     * (dstackai/gpuhunt#214, 2026-02-25) after "Migrate tensordock to v2
     * API" (dstackai/gpuhunt#144); dstack dropped the backend
     * (dstackai/dstack#3094, 2025-09-11). v2 needs a key. Found with the
     * search tools 2026-12-02. */
    .retired = "2026-02-25",
    .retired_why = "the v0 marketplace API is superseded by v2, which needs a key "
                   "(dstackai/gpuhunt#144, #214; livepeer/comfystream#111)",
    .retired_confirmed = true,
    .fetch = fetch,
    .parse = parse,
};
