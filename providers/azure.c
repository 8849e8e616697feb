/* azure.c — Azure Retail Prices (GET /api/retail/prices), paged by
 * NextPageLink. retailPrice is USD per unitOfMeasure ("1 Hour") for the
 * whole VM; the GPU is not in the feed, so a table maps SKU names. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* More pages than this is a loop or a filter gone wrong (the GPU VMs of
 * every region are a few dozen pages of 1,000). */
#define AZURE_MAX_PAGES 500

/* The smallest page taken as full when NextPageLink is empty: the API
 * sent 100 items a page when a Microsoft Q&A thread recorded NextPageLink
 * coming back empty (learn.microsoft.com/en-us/answers/questions/1188465,
 * 2023-03-10; its workaround: "check the returned item count. If it's
 * 100, then increment the skip counter"), 1,000 now. */
#define AZURE_MIN_FULL_PAGE 100

static const char first_path[] =
	"/api/retail/prices?api-version=2023-01-01-preview&$filter="
	"serviceName%20eq%20%27Virtual%20Machines%27%20and%20(priceType%20eq%20%27Consumption%27"
	"%20or%20priceType%20eq%20%27Reservation%27)"
	"%20and%20contains(armSkuName,%20%27Standard_N%27)";

/* GPU VM sizes, from Microsoft's size pages (learn.microsoft.com/azure/
 * virtual-machines/sizes, "GPU accelerated"). count 0 marks a fractional
 * GPU (NVadsA10 v5 below 36 vCPUs): no whole-GPU offer, skipped. */
static const struct azure_sku {
	const char *sku; /* armSkuName */
	const char *gpu; /* canonical name or an alias */
	int count;
} skus[] = {
	{"Standard_NC6s_v3", "V100 16GB", 1},
	{"Standard_NC12s_v3", "V100 16GB", 2},
	{"Standard_NC24s_v3", "V100 16GB", 4},
	{"Standard_NC24rs_v3", "V100 16GB", 4},
	{"Standard_ND40rs_v2", "V100 32GB", 8},
	{"Standard_NC4as_T4_v3", "T4", 1},
	{"Standard_NC8as_T4_v3", "T4", 1},
	{"Standard_NC16as_T4_v3", "T4", 1},
	{"Standard_NC64as_T4_v3", "T4", 4},
	{"Standard_NC24ads_A100_v4", "A100 80GB", 1},
	{"Standard_NC48ads_A100_v4", "A100 80GB", 2},
	{"Standard_NC96ads_A100_v4", "A100 80GB", 4},
	{"Standard_ND96asr_v4", "A100 40GB", 8},
	{"Standard_ND96amsr_A100_v4", "A100 80GB", 8},
	{"Standard_NC40ads_H100_v5", "H100 NVL", 1},
	{"Standard_NC80adis_H100_v5", "H100 NVL", 2},
	{"Standard_ND96isr_H100_v5", "H100 SXM", 8},
	{"Standard_ND96isr_H200_v5", "H200", 8},
	/* Microsoft's size table lists this one (MicrosoftDocs/azure-docs,
	 * articles/virtual-machines/sizes/gpu-accelerated/nd-mi300x-v5-series.md,
	 * read 2026-11-30); ND96is_MI300X_v5 below is SkyPilot's name. */
	{"Standard_ND96isr_MI300X_v5", "MI300X", 8},
	{"Standard_NV6ads_A10_v5", "A10", 0},
	{"Standard_NV12ads_A10_v5", "A10", 0},
	{"Standard_NV18ads_A10_v5", "A10", 0},
	{"Standard_NV36ads_A10_v5", "A10", 1},
	{"Standard_NV36adms_A10_v5", "A10", 1},
	{"Standard_NV72ads_A10_v5", "A10", 2},
	/* NC A10 v4: whole A10s (StandardNCADSA10v4Family). Microsoft's
	 * nca10v4-series size page; GPU counts as microsoft/aspire lists them
	 * (src/Aspire.Hosting.Azure.Kubernetes/AksNodeVmSizes.cs, commit
	 * 5bd693ae1897dee5e2ce71c2cc08879c1c7eff51), read 2026-11-30. */
	{"Standard_NC8ads_A10_v4", "A10", 1},
	{"Standard_NC16ads_A10_v4", "A10", 1},
	{"Standard_NC32ads_A10_v4", "A10", 2},
	/* The rest from SkyPilot's fetcher and catalog (skypilot-org/skypilot,
	 * sky/catalog/data_fetchers/fetch_azure.py, stored version
	 * 0089fca0c9a46c497d908752cdaa734727ddc0b1): ND96is_H100_v5 8 GPUs
	 * (106.186 USD/h, Dec 2023), ND96is_MI300X_v5 8, the confidential
	 * NCC40ads_H100_v5 (StandardNCCads2023Family) 1 H100 NVL, and the
	 * GB200/GB300 v6 sizes 4 each; read 2026-11-30. */
	{"Standard_ND96is_H100_v5", "H100 SXM", 8},
	{"Standard_ND96is_MI300X_v5", "MI300X", 8},
	{"Standard_NCC40ads_H100_v5", "H100 NVL", 1},
	{"Standard_ND128isr_NDR_GB200_v6", "GB200", 4},
	{"Standard_ND128isr_GB300_v6", "GB300", 4},
};

static const struct azure_sku *find_sku(const char *name)
{
	for (size_t i = 0; i < sizeof skus / sizeof skus[0]; i++)
		if (!strcasecmp(skus[i].sku, name))
			return &skus[i];
	return NULL;
}

/* Whether productName is a Linux VM: it begins "Virtual Machines " and is
 * not a Windows or Cloud Services meter. Windows names end " Windows" or,
 * for some H100 series, " Win" ("Virtual Machines NCCadsv5 Srs Win",
 * SkyPilot's fetch_azure.py, which filters ' Win| Cloud Services|
 * CloudServices'); "Basv2 Series Cloud Services" is priced like Windows
 * (0.747 against 0.673 for Linux in the recorded rows,
 * tests/fixtures/real/azure, FINDINGS.md). isPrimaryMeterRegion is true on
 * all of them, so the name is the only test. */
static bool linux_product(const char *p)
{
	static const char vm[] = "Virtual Machines ";
	size_t n = strlen(p);
	if (strncmp(p, vm, sizeof vm - 1) || strstr(p, "Windows") || strstr(p, "Cloud Services") ||
	    strstr(p, "CloudServices"))
		return false;
	return !(n >= 4 && !strcmp(p + n - 4, " Win")) && !strstr(p, " Win ");
}

/* Whether out already has this provider row: two Linux rows for one key
 * are a feed error, and the first stays rather than the last. */
static bool seen(const struct norm *out, const char *sku, const char *region, bool spot)
{
	for (size_t i = 0; i < out->n_offers; i++)
		if (out->offers[i].spot == spot && !strcmp(out->offers[i].offer, sku) &&
		    !strcmp(out->offers[i].region, region))
			return true;
	return false;
}

/* A reservation (issue 29): unitPrice is the price of the whole term,
 * paid upfront or spread monthly, although unitOfMeasure says "1 Hour"
 * (the recorded rows: 3478 for a year of Standard_B16als_v2 whose hour is
 * 0.673 pay-as-you-go, tests/fixtures/real/azure). reservationTerm is
 * "1 Year" or "3 Years"; any other is a commitment with no term, which
 * norm_term counts. */
static void azure_reservation(struct norm *out, const cJSON *it, const struct azure_sku *m)
{
	const char *rt = pj_str(it, "reservationTerm");
	const char *term = !strcmp(rt, "1 Year") ? "1y" : !strcmp(rt, "3 Years") ? "3y" : "";
	struct raw_offer r = {
	    .offer = pj_str(it, "armSkuName"),
	    .region = pj_str(it, "armRegionName"),
	    .gpu_name = m->gpu,
	    .gpu_count = m->count,
	    .price = 0, /* no hourly rate beside the term's price */
	    .available = true,
	    .currency = pj_str(it, "currencyCode"),
	};
	norm_term(out, &r, term, "", pj_num(it, "unitPrice"));
}

/* Whether the item is a Linux reservation of a whole size. */
static bool reservation_item(const cJSON *it)
{
	return !strcmp(pj_str(it, "type"), "Reservation") &&
	       !strcmp(pj_str(it, "unitOfMeasure"), "1 Hour") &&
	       linux_product(pj_str(it, "productName"));
}

/* One item of a page's "Items" list (json_item_fn; ud is the norm). */
static int azure_item(void *ud, const cJSON *it, char **err)
{
	struct norm *out = ud;
	(void)err;
	const char *sku_name = pj_str(it, "armSkuName");
	const char *meter = pj_str(it, "meterName"), *sku = pj_str(it, "skuName");
	if (reservation_item(it)) {
		const struct azure_sku *m = find_sku(sku_name);
		if (m && m->count > 0)
			azure_reservation(out, it, m);
		return PLANNER_OK;
	}
	if (strcmp(pj_str(it, "type"), "Consumption") ||
	    strcmp(pj_str(it, "currencyCode"), "USD") ||
	    strcmp(pj_str(it, "unitOfMeasure"), "1 Hour") || strstr(meter, "Low Priority") ||
	    strstr(sku, "Low Priority") || !linux_product(pj_str(it, "productName")))
		return PLANNER_OK; /* not a Linux pay-as-you-go hour */
	const struct azure_sku *m = find_sku(sku_name);
	if (!m) {
		if (!strncasecmp(sku_name, "Standard_N", 10))
			norm_gpu(out, sku_name, 0); /* a GPU size the table lacks: report */
		return PLANNER_OK;
	}
	if (m->count == 0) {
		out->skipped++;
		return PLANNER_OK;
	}
	struct raw_offer r = {
	    .offer = sku_name,
	    .region = pj_str(it, "armRegionName"),
	    .gpu_name = m->gpu,
	    .gpu_count = m->count,
	    .price = pj_num(it, "retailPrice"),
	    .spot = strstr(sku, " Spot") || strstr(meter, " Spot"),
	    .available = true,
	};
	if (seen(out, r.offer, r.region, r.spot)) {
		out->skipped++;
		return PLANNER_OK;
	}
	norm_offer(out, &r);
	return PLANNER_OK;
}

/* One page, read by the same streaming reader a refresh uses. */
static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	return provider_parse_page(body, len, "Items", "NextPageLink", azure_item, out, next, err);
}

/* Where the pages are: items read so far, and the first page's size. */
struct az_pages {
	struct fetch_ctx *fx;
	long skip;
	size_t page_size;
};

/* The next page (provider_pages.follow): NextPageLink, or, when it comes
 * back empty after a full page (the first page's size, at least
 * AZURE_MIN_FULL_PAGE items), the first query with $skip past the items
 * read, as the Q&A's workaround does. A short page ends the list. */
static int follow(void *ud, const char *link, size_t items, char **next, char **err)
{
	struct az_pages *pg = ud;
	int rc = PLANNER_OK;
	*next = NULL;
	if (!pg->page_size)
		pg->page_size = items;
	pg->skip += (long)items;
	if (link && *link) {
		if (!(*next = provider_rebase(pg->fx, link)))
			rc = set_err(err, PLANNER_ESYS, "out of memory");
	} else if (items >= AZURE_MIN_FULL_PAGE && items == pg->page_size) {
		char *path = xasprintf("%s&$skip=%ld", first_path, pg->skip);
		if (!path || !(*next = provider_url(pg->fx, path)))
			rc = set_err(err, PLANNER_ESYS, "out of memory");
		free(path);
	}
	return rc;
}

/* azure_item of a fetch's page (ud is the az_pages). */
static int page_item(void *ud, const cJSON *it, char **err)
{
	struct az_pages *pg = ud;
	return azure_item(pg->fx->out, it, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, first_path);
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	snprintf(fx->out->source, sizeof fx->out->source, "%s/api/retail/prices", fx->base);
	struct az_pages pg = {.fx = fx};
	/* Streamed, an item at a time: a page of thousands of meters was a
	 * cJSON tree several times its size (issue 16). The rows are held,
	 * not flushed: seen() looks back at every row made. */
	struct provider_pages pages = {.url = url,
	                               .list = "Items",
	                               .next = "NextPageLink",
	                               .fn = page_item,
	                               .ud = &pg,
	                               .follow = follow,
	                               .max_pages = AZURE_MAX_PAGES,
	                               .hold = true};
	int rc = provider_stream_pages(fx, &pages, err);
	free(url);
	return rc;
}

const struct provider provider_azure = {
	.name = "azure",
	.kind = PROVIDER_RENTED,
	.own_datacentres = true,
	.terms = true,
	.base_url = "https://prices.azure.com",
	.summary = "Azure retail VM prices, pay-as-you-go, spot and 1-/3-year reservations (GPU from the SKU)",
	.fetch = fetch,
	.parse = parse,
};
