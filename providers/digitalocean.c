/* digitalocean.c — DigitalOcean Droplet sizes (GET /v2/sizes on
 * api.digitalocean.com, a Bearer token). `sizes` is a list; a GPU size has
 * `gpu_info` {count, model ("nvidia_h100", "amd_mi300x",
 * "nvidia_rtx6000_ada"), vram {amount, unit}}, where vram is the whole
 * Droplet's (640 gib for gpu-h100x8-640gb); `price_hourly` is USD per
 * Droplet-hour; `memory` is MiB; `regions` lists the region slugs where the
 * size can be created, empty when none. Sizes without gpu_info are CPU
 * Droplets and are passed over. No spot price.
 *
 * Shape, units and the field names: gpuhunt's DigitalOcean provider and its
 * test (dstackai/gpuhunt src/gpuhunt/providers/digitalocean.py and
 * src/tests/providers/test_digitalocean.py, stored version
 * 10755df86b2163139f57950cb7a102e4978e23fd, read 2026-11-30: memory "MB ->
 * GB" divides by 1024, vram amount in "gib" for all the GPUs of the size).
 * Paging: DigitalOcean's list endpoints take per_page (at most 200, by
 * DigitalOcean's API reference, docs.digitalocean.com/reference/api/,
 * "Pagination"; unconfirmed here beyond that page) and give the next page's
 * full URL in links.pages.next; gpuhunt asks per_page=500 in one request. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* Sizes asked per page (the API's per_page maximum, see above). */
#define DO_PER_PAGE 200
/* Pages followed at most: the size list held 147 sizes in gpuhunt's test
 * (meta.total), one page at DO_PER_PAGE; room for growth. */
#define DO_MAX_PAGES 20
/* The most GPUs a size has (gpu-h100x8-640gb). */
#define DO_MAX_GPUS 64

/* "nvidia_rtx6000_ada" → "rtx6000 ada": the vendor word dropped and the
 * underscores spaces, the spelling refdata's alias table reads. */
static void model_name(const char *model, char *buf, size_t len)
{
	const char *m = model;
	if (!strncasecmp(m, "nvidia_", 7))
		m += 7;
	else if (!strncasecmp(m, "amd_", 4))
		m += 4;
	snprintf(buf, len, "%s", m);
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* One size into out: a row per region it can be created in. */
static void read_size(struct norm *out, const cJSON *s)
{
	const cJSON *info = cJSON_GetObjectItemCaseSensitive(s, "gpu_info");
	const cJSON *vram = cJSON_GetObjectItemCaseSensitive(info, "vram");
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(s, "regions");
	if (!cJSON_IsObject(info))
		return; /* a CPU Droplet: not an offer */
	long gpus = pj_count(info, "count", DO_MAX_GPUS);
	double price = 0, amount = 0;
	if (gpus <= 0 || !pj_number(s, "price_hourly", &price) || !*pj_str(s, "slug")) {
		out->skipped++;
		return;
	}
	char gpu[64];
	model_name(pj_str(info, "model"), gpu, sizeof gpu);
	pj_number(vram, "amount", &amount);
	/* gib as gpuhunt reads it; a "gb" unit would be decimal. */
	if (!strcasecmp(pj_str(vram, "unit"), "gb"))
		amount = amount * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
	struct raw_offer r = {
	    .offer = pj_str(s, "slug"),
	    .gpu_name = gpu,
	    .gpu_count = (int)gpus,
	    .vram_gib = amount / (double)gpus,
	    .vcpus = pj_num(s, "vcpus"),
	    .ram_gib = pj_num(s, "memory") / NORM_MIB_PER_GIB,
	    .price = price,
	};
	bool sold = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(s, "available"));
	if (cJSON_GetArraySize(regions) == 0) {
		norm_offer(out, &r); /* nowhere to create it now */
		return;
	}
	const cJSON *reg;
	cJSON_ArrayForEach(reg, regions)
	{
		if (!cJSON_IsString(reg))
			continue;
		r.region = reg->valuestring;
		r.available = sold;
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
	const cJSON *sizes = cJSON_GetObjectItemCaseSensitive(root, "sizes");
	if (!cJSON_IsArray(sizes)) {
		/* An error object: {"id": "unauthorized", "message": "..."}. */
		rc = provider_says("digitalocean", root, "response has no \"sizes\" list", err);
		goto out;
	}
	const cJSON *s;
	cJSON_ArrayForEach(s, sizes)
	{
		read_size(out, s);
	}
	const cJSON *pages = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "links"), "pages");
	const char *nx = pj_str(pages, "next");
	if (next && *nx && !(*next = strdup(nx)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

/* One page for http_paged: the next link is followed on fx->base only. */
static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct fetch_ctx *fx = ud;
	char *link = NULL;
	*next = NULL;
	int rc = parse(fx->out, body, len, &link, err);
	if (rc == PLANNER_OK && link && !(*next = provider_rebase(fx, link)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	free(link);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = xasprintf("%s/v2/sizes?per_page=%d", fx->base, DO_PER_PAGE);
	char *auth = xasprintf("Authorization: Bearer %s", fx->key ? fx->key : "");
	const char *headers[] = {"Accept: application/json", auth, NULL};
	int rc;
	if (!url || !auth) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v2/sizes", fx->base);
	rc = http_paged(fx->http, url, headers, page, fx, DO_MAX_PAGES, &fx->http_status, err);
out:
	free(auth);
	free(url);
	return rc;
}

const struct provider provider_digitalocean = {
    .name = "digitalocean",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.digitalocean.com",
    /* doctl's variable for the API token (docs.digitalocean.com/reference/
     * doctl/, "DIGITALOCEAN_ACCESS_TOKEN"); gpuhunt reads
     * DIGITAL_OCEAN_TOKEN instead. */
    .key_env = "DIGITALOCEAN_ACCESS_TOKEN",
    .summary = "DigitalOcean GPU Droplets (H100, H200, L40S, MI300X …) per region",
    .fetch = fetch,
    .parse = parse,
};
