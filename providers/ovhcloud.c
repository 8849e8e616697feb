/* ovhcloud.c — OVHcloud's public cloud order catalogue (GET
 * /1.0/order/catalog/public/cloud?ovhSubsidiary=FR on eu.api.ovh.com, no
 * key needed; the URL Elemento's OVH flavour generator reads, and the path
 * SpareCores/sc-crawler src/sc_crawler/vendors/ovh.py asks through the OVH
 * client, stored version f1247511f28d05b8ce507237b599d4fbb032eb35, read
 * 2026-11-30). One document, no paging.
 *
 * `addons[]` holds every orderable thing; an instance flavour is an addon
 * with product "publiccloud-instance", billed by the hour under planCode
 * "<flavour>.consumption" and by the month under
 * "<flavour>.monthly.postpaid". Its `blobs.technical.gpu` gives the GPU
 * {model, number, memory.size (GB a GPU)}; `cpu.cores`, `memory.size`
 * (GB). `pricings[].price` is in units of 1e-8 of the catalogue's currency
 * (`locale.currencyCode`: EUR for the FR subsidiary) per `intervalUnit`:
 * sc-crawler's MICROCENTS_PER_CURRENCY_UNIT = 100_000_000, and public
 * tests pin h100-380.consumption's 280000000 as 2.80 EUR an hour and
 * h100-380.monthly.postpaid's 194000000000 as 1940 EUR a month
 * (tests/fixtures/real/ovhcloud/PROVENANCE.md). Regions are the values of
 * `configurations[]` named "region"; the hourly addon often has none and
 * the monthly one of the same flavour (same invoiceName) lists them
 * (sc-crawler's _get_regions_from_catalog merges them the same way).
 *
 * Read: hourly GPU flavours, one row per region. Passed over: CPU
 * flavours, Windows ("win-" flavours: the licence is in the price), Local
 * Zone and 3-AZ variants (planCode ".consumption.LZ…", ".consumption.3AZ",
 * which sc-crawler skips too), other products (the AI serving addons carry
 * a GPU blob but are priced by the minute). No spot price. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* pricings[].price is this many to one unit of the currency (sc-crawler's
 * MICROCENTS_PER_CURRENCY_UNIT, read 2026-11-30; see above). */
#define OVH_PRICE_UNITS 1e8
/* The most GPUs a flavour has (h200-1920 has 8). */
#define OVH_MAX_GPUS 64

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && !strcmp(s + n - k, suffix);
}

/* The "region" values of an addon's configurations, or NULL. */
static const cJSON *regions_of(const cJSON *addon)
{
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(addon, "configurations"))
	{
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(c, "values");
		if (!strcmp(pj_str(c, "name"), "region") && cJSON_GetArraySize(v) > 0)
			return v;
	}
	return NULL;
}

/* Whether planCode is flavour `name`'s plain hourly or monthly plan (not a
 * Local Zone or 3-AZ variant, whose regions are others). */
static bool plain_plan(const char *plan, const char *name)
{
	size_t n = strlen(name);
	return !strncmp(plan, name, n) &&
	       (!strcmp(plan + n, ".consumption") || !strcmp(plan + n, ".monthly.postpaid"));
}

/* The regions listed for flavour `name` by its plain plans, or NULL. */
static const cJSON *flavour_regions(const cJSON *addons, const char *name)
{
	const cJSON *a;
	cJSON_ArrayForEach(a, addons)
	{
		const cJSON *r;
		if (!strcmp(pj_str(a, "product"), "publiccloud-instance") &&
		    plain_plan(pj_str(a, "planCode"), name) && (r = regions_of(a)))
			return r;
	}
	return NULL;
}

/* The hourly price of an addon in the currency, or false. */
static bool hourly_price(const cJSON *addon, double *price)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(addon, "pricings"))
	{
		double v;
		if (!strcmp(pj_str(p, "intervalUnit"), "hour") && pj_number(p, "price", &v)) {
			*price = v / OVH_PRICE_UNITS;
			return true;
		}
	}
	return false;
}

/* One addon: rows for an hourly Linux GPU flavour, nothing otherwise. */
static void read_addon(struct norm *out, const cJSON *addons, const cJSON *a, const char *cur)
{
	const char *plan = pj_str(a, "planCode");
	const cJSON *blobs = cJSON_GetObjectItemCaseSensitive(a, "blobs");
	const cJSON *tech = cJSON_GetObjectItemCaseSensitive(blobs, "technical");
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(tech, "gpu");
	if (strcmp(pj_str(a, "product"), "publiccloud-instance") ||
	    !ends_with(plan, ".consumption") || !strncmp(plan, "win-", 4) || !cJSON_IsObject(gpu))
		return;
	double price = 0;
	const char *name = pj_str(a, "invoiceName");
	if (!*name || !hourly_price(a, &price)) {
		out->skipped++;
		return;
	}
	struct raw_offer r = {
	    .offer = name,
	    .gpu_name = pj_str(gpu, "model"),
	    .gpu_count = (int)pj_count(gpu, "number", OVH_MAX_GPUS),
	    .vram_gib = pj_num(cJSON_GetObjectItemCaseSensitive(gpu, "memory"), "size"),
	    .vcpus = pj_num(cJSON_GetObjectItemCaseSensitive(tech, "cpu"), "cores"),
	    .ram_gib = pj_num(cJSON_GetObjectItemCaseSensitive(tech, "memory"), "size"),
	    .price = price,
	    .available = true,
	    .currency = cur,
	};
	const cJSON *regions = regions_of(a);
	if (!regions)
		regions = flavour_regions(addons, name);
	if (!regions) {
		norm_offer(out, &r);
		return;
	}
	const cJSON *reg;
	cJSON_ArrayForEach(reg, regions)
	{
		if (!cJSON_IsString(reg) || !*reg->valuestring)
			continue;
		r.region = reg->valuestring;
		norm_offer(out, &r);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *addons = cJSON_GetObjectItemCaseSensitive(root, "addons");
	if (!cJSON_IsArray(addons)) {
		/* An error object: {class, message}. */
		rc = provider_says("ovhcloud", root, "response has no \"addons\" list", err);
		goto out;
	}
	const char *cur = pj_str(cJSON_GetObjectItemCaseSensitive(root, "locale"), "currencyCode");
	if (!*cur)
		cur = "EUR"; /* the FR subsidiary's */
	const cJSON *a;
	cJSON_ArrayForEach(a, addons)
	{
		if (cJSON_IsObject(a))
			read_addon(out, addons, a, cur);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/1.0/order/catalog/public/cloud?ovhSubsidiary=FR", NULL,
	                           err);
}

const struct provider provider_ovhcloud = {
    .name = "ovhcloud",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://eu.api.ovh.com",
    .key_env = NULL,
    .summary = "OVHcloud Public Cloud GPU flavours (H100, H200, L40S, L4, A10, V100S) from its "
               "order catalogue; EUR",
    .currency = "EUR",
    .fetch = fetch,
    .parse = parse,
};
