/* vast.c — Vast.ai offer search (POST /api/v0/bundles/). Each offer's
 * dph_total is USD per hour for the whole offer, gpu_ram is MiB per GPU,
 * min_bid the interruptible price; thousands of offers, no paging. */
#include <cJSON.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* Offers asked for per refresh (PLANNER_VAST_LIMIT overrides): enough for
 * every GPU model's cheapest few hundred, cheapest first. */
#define VAST_DEFAULT_LIMIT 10000

/* The members offer_item reads. An offer has some 25 members: finding
 * these in one pass over them, instead of one lookup by name each, was a
 * tenth of reading 200,000 offers (issue 16). A repeated name counts
 * once, its first, as cJSON_GetObjectItemCaseSensitive would. */
enum field {
	F_ID, F_GEO, F_GPU, F_NUM_GPUS, F_GPU_RAM, F_CPU_CORES, F_CPU_RAM, F_DPH, F_MIN_BID,
	F_VERIFIED, F_VERIFICATION, F_EXTERNAL, F_HOSTING, F_COUNT
};
static const char *const field_names[F_COUNT] = {
	"id", "geolocation", "gpu_name", "num_gpus", "gpu_ram", "cpu_cores_effective", "cpu_ram",
	"dph_total", "min_bid", "verified", "verification", "external", "hosting_type",
};

static void find_fields(const cJSON *it, const cJSON *f[F_COUNT])
{
	memset(f, 0, F_COUNT * sizeof *f);
	for (const cJSON *c = cJSON_IsObject(it) ? it->child : NULL; c; c = c->next) {
		if (!c->string)
			continue;
		for (int k = 0; k < F_COUNT; k++)
			if (!f[k] && c->string[0] == field_names[k][0] &&
			    !strcmp(c->string, field_names[k])) {
				f[k] = c;
				break;
			}
	}
}

static const char *str_of(const cJSON *x)
{
	return cJSON_IsString(x) && x->valuestring ? x->valuestring : "";
}

static double num_of(const cJSON *x)
{
	double v;
	return pj_number_of(x, &v) ? v : 0;
}

/* Whether an offer comes from a verified host that Vast itself runs the
 * offer of: vast-cli's default query (vast-ai/vast-cli, search__offers)
 * asks verified = true and external = false, and fetch() sends the same.
 * The filter is applied here too because a recorded `--raw` offer
 * (tests/fixtures/real/vast, 2024-07-30) carries no "verified" boolean
 * but "verification": "verified", and "external": null. */
static bool verified_host(const cJSON *const f[F_COUNT])
{
	const cJSON *v = f[F_VERIFIED], *ver = f[F_VERIFICATION];
	if (cJSON_IsBool(v) && !cJSON_IsTrue(v))
		return false;
	if (cJSON_IsString(ver) && strcmp(ver->valuestring, "verified"))
		return false;
	return !cJSON_IsTrue(f[F_EXTERNAL]);
}

/* snprintf(id, len, "%.0f", v) for v > 0, without the format's cost for
 * a whole number (an offer's id: issue 16). */
static void format_id(char *id, size_t len, double v)
{
	char digits[24];
	size_t n = 0;
	/* whole numbers below 2^53 convert exactly */
	if (!(v < 9007199254740992.0) || v != (double)(uint64_t)v) {
		snprintf(id, len, "%.0f", v);
		return;
	}
	for (uint64_t x = (uint64_t)v; x; x /= 10)
		digits[n++] = (char)('0' + x % 10);
	size_t i = 0;
	for (; n && i + 1 < len; i++)
		id[i] = digits[--n];
	id[i] = '\0';
}

/* One offer from its members f (NULL: absent). */
static int offer_fields(struct norm *out, const cJSON *const f[F_COUNT], char **err)
{
	char id[32];
	double idnum = num_of(f[F_ID]);
	if (idnum <= 0 || !verified_host(f)) {
		out->skipped++;
		return PLANNER_OK;
	}
	format_id(id, sizeof id, idnum);
	struct raw_offer r = {
		.offer = id,
		.region = str_of(f[F_GEO]),
		.gpu_name = str_of(f[F_GPU]),
		.gpu_count = (int)pj_count_of(f[F_NUM_GPUS], INT_MAX),
		.vram_gib = num_of(f[F_GPU_RAM]) / NORM_MIB_PER_GIB,
		.vcpus = num_of(f[F_CPU_CORES]),
		.ram_gib = num_of(f[F_CPU_RAM]) / NORM_MIB_PER_GIB,
		.price = num_of(f[F_DPH]),
		.available = true,
		/* hosting_type 1 is a data-centre host: vast-cli's
		 * postprocess_search_results sets datacenter = hosting_type == 1
		 * (vast-ai/vast-cli vastai/utils.py at 55679830, 2026-08-06);
		 * 0 or absent, a marketplace host. Verified is not the same. */
		.host = num_of(f[F_HOSTING]) == 1 ? NORM_HOST_DATACENTRE : NORM_HOST_MARKETPLACE,
	};
	if (!norm_offer(out, &r))
		return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
	double bid = num_of(f[F_MIN_BID]);
	if (bid > 0) {
		r.price = bid;
		r.spot = true;
		norm_offer(out, &r);
	}
	return out->oom ? set_err(err, PLANNER_ESYS, "out of memory") : PLANNER_OK;
}

/* One offer of the "offers" list as a tree (json_item_fn; ud is the norm). */
static int offer_item(void *ud, const cJSON *it, char **err)
{
	const cJSON *f[F_COUNT];
	find_fields(it, f);
	return offer_fields(ud, f, err);
}

/* The bytes of a Vast.ai offer's strings read (gpu_name, geolocation,
 * verification, a string id): a longer offer goes through cJSON. */
#define VAST_TEXT_MAX 512

/* One offer read from its bytes (json_raw_fn; ud is the norm): the same
 * members offer_item finds in a tree, without the tree of its 25 (issue
 * 16); JSON_RAW_NO for what json_flat_object leaves to cJSON. */
static int offer_raw(void *ud, const char *p, size_t n, size_t *used, char **err)
{
	cJSON nodes[F_COUNT];
	const cJSON *f[F_COUNT];
	char text[VAST_TEXT_MAX];
	struct json_flat fl = {.names = field_names, .n_names = F_COUNT, .nodes = nodes,
	                       .found = f, .text = text, .text_size = sizeof text};
	if (!(*used = json_flat_object(p, n, &fl)))
		return JSON_RAW_NO;
	return offer_fields(ud, f, err);
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
	json_items_raw(s, offer_raw);
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
	int rc = provider_stream_json_raw(fx, "/api/v0/bundles/", body, "offers", offer_item,
	                                  offer_raw, err);
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
