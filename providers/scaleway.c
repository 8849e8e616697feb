/* scaleway.c — Scaleway Instances' public product catalogue, zone by zone
 * (GET /instance/v1/zones/{zone}/products/servers?per_page=100&page=N on
 * api.scaleway.com, no key needed). `servers` is an object keyed by
 * commercial type ("H100-1-80G"); a GPU type has `gpu` (the count),
 * `gpu_info` {gpu_manufacturer, gpu_name, gpu_memory} and `hourly_price`,
 * EUR per instance-hour; `ram` and `gpu_memory` are bytes. Types without a
 * GPU are not offers and are passed over; one with end_of_service set is
 * left out and counted. No spot price.
 *
 * Shape and units: a real capture of this endpoint for fr-par-1,
 * fr-par-2, nl-ams-1 and pl-waw-2, taken 2026-10-01 and kept in a public
 * repository's test file ("hourly_price is EUR, gpu_memory and ram are
 * bytes"; tests/fixtures/real/scaleway/PROVENANCE.md). Paging: page and
 * per_page query parameters, at most 100 a page (the TypeScript client in
 * the same search asks per_page=100; a Go client follows pages through
 * GetResponsePaginate), and fr-par-1 lists 136 commercial types (a public
 * test's note on that zone's catalogue), so a zone can take two pages. A
 * page with fewer than SCW_PER_PAGE types is the last. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* Types a page holds at most (the API's per_page maximum, see above). */
#define SCW_PER_PAGE 100
/* Pages per zone at most: 136 types take two; room for growth. */
#define SCW_MAX_PAGES 10
/* The most GPUs a commercial type has (H100-SXM-8-80G, B300-SXM-8-288G). */
#define SCW_MAX_GPUS 64

/* The zones read: every zone the products/servers endpoint takes, as
 * its API reference lists them (www.scaleway.com/en/developers/api/
 * instance/instance-types, the {zone} enum, read 2026-12-02). Scaleway's
 * availability table (scaleway/docs-content, products-availability.mdx,
 * validated 2025-06-17) puts GPU types in PAR1 (RENDER-S), PAR2 (H100,
 * H100-SXM, L40S, L4, 3070) and WAW2 (H100, L40S, L4) and none yet in
 * Amsterdam; the recorded capture came from fr-par-1, fr-par-2, nl-ams-1
 * and pl-waw-2. A zone without GPU types costs a request and adds no row,
 * so all are read and a new GPU zone is found without a change here.
 * pl-waw-3 is in the availability table but not in the endpoint's enum. */
static const char *const zones[] = {"fr-par-1", "fr-par-2", "fr-par-3", "nl-ams-1",
                                    "nl-ams-2", "nl-ams-3", "pl-waw-1", "pl-waw-2"};

/* One commercial type into out, located in zone. */
static void read_type(struct norm *out, const char *zone, const cJSON *it)
{
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(it, "gpu_info");
	long gpus = pj_count(it, "gpu", SCW_MAX_GPUS);
	double price = 0, mem = 0;
	if (gpus <= 0 && !cJSON_IsObject(info))
		return; /* a CPU instance: not an offer */
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "end_of_service")) ||
	    !pj_number(it, "hourly_price", &price)) {
		out->skipped++;
		return;
	}
	pj_number(info, "gpu_memory", &mem);
	struct raw_offer r = {
	    .offer = it->string,
	    .region = zone,
	    .gpu_name = pj_str(info, "gpu_name"),
	    .gpu_count = (int)gpus,
	    .vram_gib = mem / NORM_BYTES_PER_GIB,
	    .vcpus = pj_num(it, "ncpus"),
	    .ram_gib = pj_num(it, "ram") / NORM_BYTES_PER_GIB,
	    .price = price,
	    .available = true,
	    .currency = "EUR",
	};
	norm_offer(out, &r);
}

/* One page of one zone; *n gets the number of types it listed. */
static int read_page(struct norm *out, const char *zone, const char *body, size_t len, int *n,
		     char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *servers = cJSON_GetObjectItemCaseSensitive(root, "servers");
	*n = 0;
	if (!cJSON_IsObject(servers)) {
		/* An error object: {"message", "type"}. */
		rc = provider_says("scaleway", root, "response has no \"servers\" object", err);
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, servers)
	{
		(*n)++;
		if (it->string && cJSON_IsObject(it))
			read_type(out, zone, it);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	int n;
	if (next)
		*next = NULL;
	return read_page(out, "", body, len, &n, err);
}

struct scw_fetch {
	struct fetch_ctx *fx;
	const char *zone;
	int page; /* the page being read, from 1 */
};

static char *page_url(const struct scw_fetch *sf)
{
	return xasprintf("%s/instance/v1/zones/%s/products/servers?per_page=%d&page=%d",
			 sf->fx->base, sf->zone, SCW_PER_PAGE, sf->page);
}

static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct scw_fetch *sf = ud;
	int n = 0;
	int rc = read_page(sf->fx->out, sf->zone, body, len, &n, err);
	*next = NULL;
	if (rc == PLANNER_OK && n >= SCW_PER_PAGE) {
		sf->page++;
		if (!(*next = page_url(sf)))
			rc = set_err(err, PLANNER_ESYS, "out of memory");
	}
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	const char *headers[] = {"Accept: application/json", NULL};
	int rc = PLANNER_OK;
	snprintf(fx->out->source, sizeof fx->out->source,
		 "%s/instance/v1/zones/{zone}/products/servers", fx->base);
	for (size_t z = 0; z < sizeof zones / sizeof *zones && rc == PLANNER_OK; z++) {
		struct scw_fetch sf = {.fx = fx, .zone = zones[z], .page = 1};
		char *url = page_url(&sf);
		if (!url)
			return set_err(err, PLANNER_ESYS, "out of memory");
		rc = http_paged(fx->http, url, headers, page, &sf, SCW_MAX_PAGES, &fx->http_status,
				err);
		free(url);
	}
	return rc;
}

const struct provider provider_scaleway = {
    .name = "scaleway",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.scaleway.com",
    .key_env = NULL,
    .summary = "Scaleway GPU instances (L4, L40S, H100, B300) in Paris, Amsterdam, Warsaw; EUR",
    .currency = "EUR",
    .fetch = fetch,
    .parse = parse,
};
