/* vast.c — Vast.ai offer search (POST /api/v0/bundles/). Each offer's
 * dph_total is USD per hour for the whole offer, gpu_ram is MiB per GPU,
 * min_bid the interruptible price; thousands of offers, no paging. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* Offers asked for per refresh (PLANNER_VAST_LIMIT overrides): enough for
 * every GPU model's cheapest few hundred, cheapest first. */
#define VAST_DEFAULT_LIMIT 10000

/* Whether an offer comes from a verified host that Vast itself runs the
 * offer of: vast-cli's default query (vast-ai/vast-cli, search__offers)
 * asks verified = true and external = false, and fetch() sends the same.
 * The filter is applied here too because a recorded `--raw` offer
 * (tests/fixtures/real/vast, 2024-07-30) carries no "verified" boolean
 * but "verification": "verified", and "external": null. */
static bool verified_host(const cJSON *it)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(it, "verified");
	const cJSON *ver = cJSON_GetObjectItemCaseSensitive(it, "verification");
	if (cJSON_IsBool(v) && !cJSON_IsTrue(v))
		return false;
	if (cJSON_IsString(ver) && strcmp(ver->valuestring, "verified"))
		return false;
	return !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "external"));
}

/* One offer of the "offers" list (json_item_fn; ud is the norm). */
static int offer_item(void *ud, const cJSON *it, char **err)
{
	struct norm *out = ud;
	char id[32];
	double idnum = pj_num(it, "id");
	if (idnum <= 0 || !verified_host(it)) {
		out->skipped++;
		return PLANNER_OK;
	}
	snprintf(id, sizeof id, "%.0f", idnum);
	struct raw_offer r = {
		.offer = id,
		.region = pj_str(it, "geolocation"),
		.gpu_name = pj_str(it, "gpu_name"),
		.gpu_count = (int)pj_count(it, "num_gpus", INT_MAX),
		.vram_gib = pj_num(it, "gpu_ram") / NORM_MIB_PER_GIB,
		.vcpus = pj_num(it, "cpu_cores_effective"),
		.ram_gib = pj_num(it, "cpu_ram") / NORM_MIB_PER_GIB,
		.price = pj_num(it, "dph_total"),
		.available = true,
	};
	if (!norm_offer(out, &r))
		return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
	double bid = pj_num(it, "min_bid");
	if (bid > 0) {
		r.price = bid;
		r.spot = true;
		norm_offer(out, &r);
	}
	return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
}

/* A body without an "offers" list: an error object says why. */
static int no_offers(const char *body, size_t len, char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	const char *msg = pj_str(root, "msg");
	int rc = set_err(err, PLANNER_ENET, "response has no \"offers\" list%s%s", *msg ? ": " : "",
			 msg);
	cJSON_Delete(root);
	return rc;
}

/* The body read by the same streaming reader a refresh uses, so the tests
 * and the fuzz harness cover it. */
static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	struct json_items *s = json_items_new("offers", offer_item, out);
	if (!s)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = json_items_feed(s, body, len, err) ? json_items_finish(s, err) : PLANNER_ENET;
	if (rc == JSON_ITEMS_NONE)
		rc = no_offers(body, len, err);
	json_items_free(s);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	const char *env = getenv("PLANNER_VAST_LIMIT");
	long limit = env && atol(env) > 0 ? atol(env) : VAST_DEFAULT_LIMIT;
	char *body = xasprintf("{\"verified\":{\"eq\":true},\"external\":{\"eq\":false},"
			       "\"rentable\":{\"eq\":true},\"rented\":{\"eq\":false},"
			       "\"type\":\"on-demand\",\"order\":[[\"dph_total\",\"asc\"]],"
			       "\"limit\":%ld}",
			       limit);
	if (!body)
		return set_err(err, PLANNER_ESYS, "out of memory");
	/* Streamed: 50,000 offers are tens of MB, and their cJSON tree several
	 * times that (issue 12). */
	int rc = provider_stream_json(fx, "/api/v0/bundles/", body, "offers", offer_item, err);
	free(body);
	return rc;
}

const struct provider provider_vast = {
	.name = "vast",
	.kind = PROVIDER_RENTED,
	.base_url = "https://console.vast.ai",
	.key_env = "VAST_API_KEY",
	.key_optional = true,
	.summary = "Vast.ai marketplace offers, on-demand and interruptible (min bid)",
	.fetch = fetch,
	.parse = parse,
};
