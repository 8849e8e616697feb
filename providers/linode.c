/* linode.c — Akamai Cloud (Linode) plan types (GET /v4/linode/types on
 * api.linode.com; public: Linode's API reference marks the types list
 * unauthenticated, and api-evangelist/linode plans/linode-plans-pricing.yml
 * records it answering 200 without a token on 2026-09-17).
 *
 * Shape (Linode's OpenAPI description as the linode-rs crate and the
 * linode_openapi_client gem model it, and linode/linode_api4-python
 * test/fixtures/linode_types.json, read 2026-12-02): {"data": [{id,
 * label, class ("gpu" for GPU plans), gpus (GPUs per instance), vcpus,
 * memory (MB), disk (MB), price {hourly, monthly} (USD per instance-hour
 * and instance-month), region_prices [{id (a region), hourly, monthly}],
 * successor, addons}], "page", "pages", "results"}. A region price
 * replaces the list price in that region (Linode's own pricing note; the
 * regions are not otherwise named in this list).
 *
 * api-evangelist's probe of 2026-09-17 found every GPU plan's list price 0
 * in the public catalogue, "region_prices and account entitlements carry
 * the real figure": so a price of 0 is no price (no row, counted when the
 * plan has none at all), a list price above 0 is one row without a region
 * (the regions it applies in are not named here, as OCI's rows), and each
 * region price above 0 a row in its region.
 *
 * GPU: the list names none but in the label ("Dedicated 32GB + RTX6000
 * GPU x1", "RTX4000 Ada x1 Small": Akamai's linode-cli example of
 * `linodes types --class gpu` on techdocs.akamai.com, and public tests of
 * the same response); the id's token says which (g1-gpu-rtx6000-N, the
 * Quadro RTX 6000 of Linode's GPU docs, linode/docs docs/products/compute/
 * gpu/_index.md; g2-gpu-rtx4000a<N>-<size>, the RTX 4000 Ada). An id no
 * token matches passes its label to the normaliser, which counts a name it
 * does not know. Paging: page and page_size (25 to 500, Linode's API
 * reference "Pagination"; unconfirmed here beyond that page); about 75
 * types, one page at 500. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "util.h"

#define LINODE_PAGE_SIZE 500
#define LINODE_MAX_PAGES 10
#define LINODE_MAX_GPUS  16
#define LINODE_MAX_PAGE  10000
/* MB per GiB: memory is MB (g1-gpu-rtx6000-1 "Dedicated 32GB" has 32768). */
#define LINODE_MB_PER_GIB 1024.0

/* Id tokens and the GPU table's names for them (see above). */
static const struct {
	const char *token, *gpu;
} gpu_ids[] = {
    {"-rtx6000-", "Quadro RTX 6000"},
    {"-rtx4000a", "RTX 4000 Ada"},
};

static const char *gpu_of(const char *id, const char *label)
{
	for (size_t i = 0; i < sizeof gpu_ids / sizeof *gpu_ids; i++)
		if (strstr(id, gpu_ids[i].token))
			return gpu_ids[i].gpu;
	return label;
}

static void read_type(struct norm *out, const cJSON *t)
{
	const char *id = pj_str(t, "id");
	long gpus = pj_count(t, "gpus", LINODE_MAX_GPUS);
	if (strcmp(pj_str(t, "class"), "gpu") && gpus <= 0)
		return; /* a CPU plan */
	const char *gpu = gpu_of(id, pj_str(t, "label"));
	if (!*id || gpus <= 0 || !*gpu) {
		out->skipped++;
		return;
	}
	struct raw_offer r = {
	    .offer = id,
	    .gpu_name = gpu,
	    .gpu_count = (int)gpus,
	    .vcpus = pj_num(t, "vcpus"),
	    .ram_gib = pj_num(t, "memory") / LINODE_MB_PER_GIB,
	    .available = true, /* a plan on the list; the list gives no stock */
	};
	size_t rows = 0;
	if (pj_number(cJSON_GetObjectItemCaseSensitive(t, "price"), "hourly", &r.price) &&
	    r.price > 0)
		rows += norm_offer(out, &r);
	const cJSON *rp;
	cJSON_ArrayForEach(rp, cJSON_GetObjectItemCaseSensitive(t, "region_prices"))
	{
		r.region = pj_str(rp, "id");
		if (*r.region && pj_number(rp, "hourly", &r.price) && r.price > 0)
			rows += norm_offer(out, &r);
	}
	if (!rows)
		out->skipped++; /* no price above 0: nothing to rent at a known price */
}

/* The next page while page < pages. */
static bool follow(const cJSON *root, size_t items, char **next)
{
	(void)items;
	long page = pj_count(root, "page", LINODE_MAX_PAGE);
	long pages = pj_count(root, "pages", LINODE_MAX_PAGE);
	*next = NULL;
	if (page <= 0 || page >= pages)
		return true;
	*next = xasprintf("/v4/linode/types?page_size=%d&page=%ld", LINODE_PAGE_SIZE, page + 1);
	return *next != NULL;
}

static const struct provider_items feed = {
    .provider = "linode",
    .path = {"data"},
    .missing = "no \"data\" list of types",
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
	snprintf(path, sizeof path, "/v4/linode/types?page_size=%d", LINODE_PAGE_SIZE);
	return provider_fetch_items(fx, &feed, path, LINODE_MAX_PAGES, err);
}

const struct provider provider_linode = {
    .name = "linode",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.linode.com",
    .summary = "Akamai Cloud (Linode) GPU plans (Quadro RTX 6000, RTX 4000 Ada), list and "
               "region prices",
    .fetch = fetch,
    .parse = parse,
};
