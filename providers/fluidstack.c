/* fluidstack.c — Fluidstack's GPU plans (GET /list_available_configurations
 * on platform.fluidstack.io, the key in an `api-key` header). The body is
 * a list of plans {gpu_type ("H100_SXM5_80GB", "RTX_A6000_48GB"),
 * gpu_counts [1, 2, 4, 8], price_per_gpu_hr (USD per GPU-hour), regions
 * ["norway_4_eu", …]}; an N-GPU machine costs N times the GPU price and is
 * one row per region the plan lists. Errors come as {"error": "..."}. No
 * spot price; no paging.
 *
 * Sources: SkyPilot's catalogue fetcher and client (skypilot-org/skypilot
 * sky/catalog/data_fetchers/fetch_fluidstack.py at
 * 40654dda6e31f3d9c17f0baef03959b721220afb: the endpoint, gpu_type,
 * gpu_counts, price_per_gpu_hr times the count, regions, the memory in the
 * gpu_type's last "_80GB"; and SkyPilot's FluidstackClient, found with
 * find_string 2026-11-30: headers={'api-key': …}, errors' "error" field).
 * Read 2026-11-30. Fluidstack has since announced other APIs; whether this
 * endpoint still answers is not confirmed (unconfirmed). */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* The most GPUs a plan offers (RTX_A4000 x10 in SkyPilot's v5 catalogue). */
#define FS_MAX_GPUS 64

/* "A100_PCIE_80GB" → "A100 PCIE", 80 GB: the memory part out, underscores
 * spaces, as refdata reads the name. */
static void gpu_name(const char *t, char *buf, size_t len, double *gb)
{
	snprintf(buf, len, "%s", t);
	*gb = 0;
	char *last = strrchr(buf, '_');
	char *end = NULL;
	double v = last ? strtod(last + 1, &end) : 0;
	if (last && end && end != last + 1 && !strcmp(end, "GB")) {
		*gb = v;
		*last = '\0';
	}
	for (char *p = buf; *p; p++)
		if (*p == '_')
			*p = ' ';
}

/* One plan into out: a row per GPU count and region. */
static void read_plan(struct norm *out, const cJSON *plan)
{
	const char *type = pj_str(plan, "gpu_type");
	const cJSON *counts = cJSON_GetObjectItemCaseSensitive(plan, "gpu_counts");
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(plan, "regions");
	double price = 0, gb;
	if (!*type || !pj_number(plan, "price_per_gpu_hr", &price) || !cJSON_IsArray(counts)) {
		out->skipped++;
		return;
	}
	char gpu[96];
	gpu_name(type, gpu, sizeof gpu, &gb);
	const cJSON *c;
	cJSON_ArrayForEach(c, counts)
	{
		double v = 0;
		if (!(cJSON_IsNumber(c) ? (v = c->valuedouble, true)
					: cJSON_IsString(c) && norm_number(c->valuestring, &v)) ||
		    !(v >= 1 && v <= FS_MAX_GPUS)) {
			out->skipped++;
			continue;
		}
		int n = (int)v;
		char offer[128];
		snprintf(offer, sizeof offer, "%s::%d", type, n); /* SkyPilot's id */
		struct raw_offer r = {
		    .offer = offer,
		    .gpu_name = gpu,
		    .gpu_count = n,
		    .vram_gib = gb * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB,
		    .price = price,
		    .per_gpu = true,
		};
		if (cJSON_GetArraySize(regions) == 0 && !norm_offer(out, &r))
			return;
		const cJSON *reg;
		cJSON_ArrayForEach(reg, regions)
		{
			if (!cJSON_IsString(reg))
				continue;
			r.region = reg->valuestring;
			r.available = true; /* the list is of plans available now */
			if (!norm_offer(out, &r))
				return; /* an unknown GPU, counted once */
		}
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
	if (!cJSON_IsArray(root)) {
		rc = provider_says("fluidstack", root, "response is not a list of plans", err);
		goto out;
	}
	const cJSON *p;
	cJSON_ArrayForEach(p, root)
	{
		read_plan(out, p);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/list_available_configurations", NULL, err);
}

const struct provider provider_fluidstack = {
    .name = "fluidstack",
    .kind = PROVIDER_RENTED,
    .base_url = "https://platform.fluidstack.io",
    /* SkyPilot keeps the key in ~/.fluidstack/api_key; the variable's name
     * follows the others' <PROVIDER>_API_KEY. */
    .key_env = "FLUIDSTACK_API_KEY",
    .key_header = "api-key",
    .summary = "Fluidstack GPU plans per GPU-hour, per region (Norway, Canada …)",
    /* SkyPilot's catalogue v8 has no fluidstack directory (skypilot-org/
     * skypilot-catalog, find_files under catalogs/v8, 2026-12-02), its
     * last Fluidstack catalogues are v5 and v6; nothing found says whether
     * the platform.fluidstack.io API still answers. */
    .retired = "2026-12-02",
    .retired_why = "SkyPilot stopped publishing a Fluidstack catalogue after v6 (none under "
                   "catalogs/v8 of skypilot-org/skypilot-catalog)",
    .retired_confirmed = false,
    .fetch = fetch,
    .parse = parse,
};
