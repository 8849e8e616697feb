/* primeintellect.c — Prime Intellect's GPU availability (GET
 * /api/v1/availability/gpus on api.primeintellect.ai, the key as a Bearer
 * token; PRIME_API_KEY).
 *
 * Prime Intellect resells other clouds' machines (runpod, lambdalabs,
 * hyperstack, datacrunch, nebius, crusoecloud … and its own "dc_*" and
 * primecompute hosts): a reseller, so every row counts as a marketplace
 * host (own_datacentres false, host unknown).
 *
 * Endpoint, base URL, paging and key: PrimeIntellect-ai/prime at
 * 66fb4b704377aa56b0f580756c80f3bc824a797a (read 2026-12-02),
 * packages/prime/src/prime_cli/api/availability.py (`page`, `page_size`
 * 100, stop once `totalCount` items are read), core/config.py
 * (https://api.primeintellect.ai), core/client.py (paths under /api/v1,
 * "Authorization: Bearer"), tests/test_availability.py (PRIME_API_KEY).
 * Shape: {"items": [{cloudId, gpuType ("A100_80GB", "H100_80GB"), socket
 * ("PCIe", "SXM5"), provider, dataCenter ("US-KS-2"), country, gpuCount,
 * gpuMemory (GB), vcpu {defaultCount}, memory {defaultCount} (GB),
 * stockStatus ("Available", "Low", …), prices {onDemand, communityPrice,
 * currency}, isSpot}], "totalCount": n}, as the recorded response in the
 * same repository's tests/data/availability_response.json holds it
 * (tests/fixtures/real/primeintellect/PROVENANCE.md).
 *
 * Units, from SkyPilot's fetcher (skypilot-org/skypilot
 * sky/catalog/data_fetchers/fetch_primeintellect.py at
 * f00893d3287167e36bea67ac477d2bdfb5693828, read 2026-12-02): the price
 * is the whole machine's per hour ("the 2-GPU Blackwell box is $2.70 = 2 x
 * $1.35/GPU"), and gpuMemory is the machine's total ("the 2-GPU Blackwell
 * offer reports 192"). A row priced only by communityPrice is a community
 * host's price; a row with neither price, or no dataCenter, is left out
 * and counted. One offer per row: "<provider>:<cloudId>:<gpuCount>" in
 * region dataCenter. The multi-node list (/availability/multi-node) is
 * clusters, not read here. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* Items asked per page (the CLI's DEFAULT_PAGE_SIZE). */
#define PI_PAGE_SIZE 100
/* Pages followed at most: the recorded response's totalCount is 608, seven
 * pages; room for growth. */
#define PI_MAX_PAGES 40
#define PI_MAX_GPUS  64

/* gpuType and socket as refdata's alias table reads them: "A100_80GB" →
 * "A100 80GB"; an H100's socket tells PCIe from SXM, which the type alone
 * does not ("H100_80GB" is both in the recorded response). */
static void gpu_name(const char *type, const char *socket, char *buf, size_t len)
{
	if (!strncasecmp(type, "H100", 4) && (!type[4] || type[4] == '_')) {
		snprintf(buf, len, "H100 %s", strncasecmp(socket, "pcie", 4) ? "SXM" : "PCIe");
		return;
	}
	snprintf(buf, len, "%s", type);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

static void read_item(struct norm *out, const cJSON *it)
{
	const cJSON *prices = cJSON_GetObjectItemCaseSensitive(it, "prices");
	const char *type = pj_str(it, "gpuType"), *dc = pj_str(it, "dataCenter");
	long gpus = pj_count(it, "gpuCount", PI_MAX_GPUS);
	double price = 0, mem = 0;
	bool community = false;
	if (!pj_number(prices, "onDemand", &price) || price <= 0)
		community = pj_number(prices, "communityPrice", &price);
	if (!*type || !*dc || gpus <= 0 || price <= 0) {
		out->skipped++;
		return;
	}
	char name[64], offer[192];
	gpu_name(type, pj_str(it, "socket"), name, sizeof name);
	snprintf(offer, sizeof offer, "%s:%s:%ld", pj_str(it, "provider"), pj_str(it, "cloudId"),
	         gpus);
	pj_number(it, "gpuMemory", &mem);
	const char *stock = pj_str(it, "stockStatus");
	struct raw_offer r = {
	    .offer = offer,
	    .region = dc,
	    .gpu_name = name,
	    .gpu_count = (int)gpus,
	    .vram_gib = mem / (double)gpus * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .vcpus = pj_num(cJSON_GetObjectItemCaseSensitive(it, "vcpu"), "defaultCount"),
	    .ram_gib = pj_num(cJSON_GetObjectItemCaseSensitive(it, "memory"), "defaultCount"),
	    .price = price,
	    .spot = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "isSpot")),
	    .available = !*stock || !strcasecmp(stock, "available") || !strcasecmp(stock, "low") ||
	                 !strcasecmp(stock, "medium") || !strcasecmp(stock, "high"),
	    .currency = pj_str(prices, "currency"),
	    .host = community ? NORM_HOST_MARKETPLACE : NORM_HOST_UNKNOWN,
	};
	norm_offer(out, &r);
}

/* One page into out; *items and *total get the page's item count and its
 * totalCount (0 when absent). */
static int read_page(struct norm *out, const char *body, size_t len, long *items, long *total,
                     char **err)
{
	cJSON *root = provider_json(body, len, err);
	int rc = PLANNER_OK;
	if (!root)
		return PLANNER_ENET;
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(root, "items");
	if (!cJSON_IsArray(list)) {
		rc = provider_says("primeintellect", root, "response has no \"items\" list", err);
		goto out;
	}
	*items = cJSON_GetArraySize(list);
	*total = pj_count(root, "totalCount", 100000000L);
	const cJSON *it;
	cJSON_ArrayForEach(it, list)
	{
		read_item(out, it);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	long items = 0, total = 0;
	if (next)
		*next = NULL;
	return read_page(out, body, len, &items, &total, err);
}

struct paging {
	struct fetch_ctx *fx;
	int page;  /* the page just asked for */
	long read; /* items read on the pages so far */
};

static char *page_url(const struct fetch_ctx *fx, int page)
{
	return xasprintf("%s/api/v1/availability/gpus?page=%d&page_size=%d", fx->base, page,
	                 PI_PAGE_SIZE);
}

/* The next page while the last was full and totalCount is not reached. */
static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct paging *pg = ud;
	long items = 0, total = 0;
	*next = NULL;
	int rc = read_page(pg->fx->out, body, len, &items, &total, err);
	if (rc != PLANNER_OK)
		return rc;
	pg->read += items;
	if (items >= PI_PAGE_SIZE && pg->read < total) {
		if (!(*next = page_url(pg->fx, ++pg->page)))
			return set_err(err, PLANNER_ESYS, "out of memory");
	}
	return PLANNER_OK;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	struct paging pg = {.fx = fx, .page = 1};
	char *url = page_url(fx, 1);
	char *auth = xasprintf("Authorization: Bearer %s", fx->key ? fx->key : "");
	const char *headers[] = {"Accept: application/json", auth, NULL};
	int rc;
	if (!url || !auth) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s/api/v1/availability/gpus", fx->base);
	rc = http_paged(fx->http, url, headers, page, &pg, PI_MAX_PAGES, &fx->http_status, err);
out:
	free(auth);
	free(url);
	return rc;
}

const struct provider provider_primeintellect = {
    .name = "primeintellect",
    .kind = PROVIDER_RENTED,
    .own_datacentres = false, /* a reseller of other clouds' machines */
    .base_url = "https://api.primeintellect.ai",
    .key_env = "PRIME_API_KEY",
    .summary = "Prime Intellect GPU reseller (other clouds' machines, per data centre)",
    .fetch = fetch,
    .parse = parse,
};
