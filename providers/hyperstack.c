/* hyperstack.c — Hyperstack (NexGen Cloud) GPU flavors and their prices,
 * with the key in an `api_key` header. Two documents:
 *   GET /v1/pricebook     a list of {name, value, original_value, …}: the
 *                         price of one GPU of `name` ("A100-80G-PCIe",
 *                         "RTX-A6000", "L40") per hour, USD, a string;
 *   GET /v1/core/flavors  {"status": true, "data": [{gpu, region_name,
 *                         flavors: [{name, gpu, gpu_count, cpu, ram (GB),
 *                         disk, region_name, stock_available}]}]}.
 * A flavor's price is gpu_count times its GPU's pricebook value, as
 * SkyPilot's fetcher computes it (skypilot-org/skypilot
 * sky/clouds/service_catalog/data_fetchers/fetch_hyperstack.py at
 * cfbb4162e8db2c9486b234fa7a02e418aa437140, read 2026-11-30: endpoints on
 * infrahub-api.nexgencloud.com, the `api_key` header, "status" true on
 * success, GPU memory from the "-80G-" in the name). The flavor fields are
 * those of Hyperstack's own SDK (NexGenCloud/hyperstack-sdk-python
 * docs/FlavorFields.md: cpu, disk, gpu, gpu_count, name, ram (float),
 * region_name, stock_available). Errors come as {"status": false,
 * "message"}. A GPU the pricebook does not price is left out and counted.
 * No spot price; no paging (SkyPilot reads each document in one request). */
#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* The most GPUs a flavor has (n3-H100x8). */
#define HS_MAX_GPUS 64

/* "A100-80G-PCIe" → "A100 PCIe", 80 GB; "RTX-A6000" → "RTX A6000": the
 * "-<n>G-" memory part out, hyphens spaces, the spelling refdata reads. */
static void gpu_name(const char *g, char *buf, size_t len, double *gb)
{
	size_t n = 0;
	*gb = 0;
	for (const char *p = g; *p && n + 1 < len; p++) {
		if (*p == '-' && isdigit((unsigned char)p[1])) {
			char *end;
			double v = strtod(p + 1, &end);
			if (*end == 'G' && (end[1] == '-' || !end[1])) {
				*gb = v;
				p = end; /* the 'G'; the loop steps past it */
				continue;
			}
		}
		buf[n++] = *p == '-' ? ' ' : *p;
	}
	buf[n] = '\0';
}

/* The pricebook's value for gpu, or false. */
static bool price_of(const cJSON *book, const char *gpu, double *v)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, book)
	{
		if (!strcmp(pj_str(e, "name"), gpu))
			return pj_number(e, "value", v) && *v > 0;
	}
	return false;
}

/* One flavor of a group into out. */
static void read_flavor(struct norm *out, const cJSON *book, const cJSON *group,
			const cJSON *f)
{
	const char *gpu = *pj_str(f, "gpu") ? pj_str(f, "gpu") : pj_str(group, "gpu");
	const char *region =
	    *pj_str(f, "region_name") ? pj_str(f, "region_name") : pj_str(group, "region_name");
	long count = pj_count(f, "gpu_count", HS_MAX_GPUS);
	double unit = 0, gb;
	if (!*gpu || count <= 0)
		return; /* a CPU flavor: not an offer */
	if (!*pj_str(f, "name") || !price_of(book, gpu, &unit)) {
		out->skipped++;
		return;
	}
	char name[64];
	gpu_name(gpu, name, sizeof name, &gb);
	struct raw_offer r = {
	    .offer = pj_str(f, "name"),
	    .region = region,
	    .gpu_name = name,
	    .gpu_count = (int)count,
	    .vram_gib = gb * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
	    .vcpus = pj_num(f, "cpu"),
	    .ram_gib = pj_num(f, "ram"),
	    .price = unit,
	    .per_gpu = true,
	    .available = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(f, "stock_available")),
	};
	norm_offer(out, &r);
}

/* The flavors document `flavors` priced with the pricebook `book`. */
static int read_flavors(struct norm *out, const cJSON *book, const cJSON *root, char **err)
{
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data");
	if (!cJSON_IsArray(data) ||
	    cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(root, "status")))
		return provider_says("hyperstack", root, "response has no \"data\" list of flavors",
		                     err);
	const cJSON *g;
	cJSON_ArrayForEach(g, data)
	{
		const cJSON *f;
		cJSON_ArrayForEach(f, cJSON_GetObjectItemCaseSensitive(g, "flavors"))
		{
			read_flavor(out, book, g, f);
		}
	}
	return PLANNER_OK;
}

/* One body: a pricebook (a list) is kept in *book; a flavors document is
 * read with the pricebook held. `want` is 1 for a pricebook, 2 for flavors,
 * 0 for either (parse() sees one alone). */
static int read_body(struct norm *out, cJSON **book, int want, const char *body, size_t len,
		     char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	if (cJSON_IsArray(root) && want == 2) {
		cJSON_Delete(root);
		return set_err(err, PLANNER_ENET, "the flavors response is a list, not an object");
	}
	if (cJSON_IsArray(root)) {
		cJSON_Delete(*book);
		*book = root;
		return PLANNER_OK;
	}
	int rc = read_flavors(out, *book, root, err);
	cJSON_Delete(root);
	return rc;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	cJSON *book = NULL;
	if (next)
		*next = NULL;
	int rc = read_body(out, &book, 0, body, len, err);
	cJSON_Delete(book);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	static const char *const paths[] = {"/v1/pricebook", "/v1/core/flavors"};
	char *auth = xasprintf("api_key: %s", fx->key ? fx->key : "");
	cJSON *book = NULL;
	int rc = auth ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v1/core/flavors", fx->base);
	for (size_t i = 0; i < 2 && rc == PLANNER_OK; i++) {
		struct buf body = {0};
		char *url = provider_url(fx, paths[i]);
		rc = url ? provider_get(fx, url, NULL, auth, &body, err)
			 : set_err(err, PLANNER_ESYS, "out of memory");
		if (rc == PLANNER_OK)
			rc = read_body(fx->out, &book, (int)i + 1, body.data ? body.data : "",
				       body.len, err);
		if (rc == PLANNER_OK && i == 0 && !book)
			rc = set_err(err, PLANNER_ENET, "the pricebook is not a list");
		buf_free(&body);
		free(url);
	}
	cJSON_Delete(book);
	free(auth);
	return rc;
}

const struct provider provider_hyperstack = {
    .name = "hyperstack",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://infrahub-api.nexgencloud.com",
    /* The variable Hyperstack users' scripts read (a public helper found
     * 2026-11-30: os.environ["HYPERSTACK_API_KEY"]). */
    .key_env = "HYPERSTACK_API_KEY",
    .summary = "Hyperstack GPU flavors priced from its pricebook, Canada, Norway, USA",
    .fetch = fetch,
    .parse = parse,
};
