/* seeweb.c — Seeweb Cloud Server GPU plans (GET /ecs/v2/plans on
 * api.seeweb.it, the key in an X-APITOKEN header; SEEWEB_API_TOKEN).
 *
 * Endpoint, header and shape: dstackai/gpuhunt src/gpuhunt/providers/
 * seeweb.py at commit 310de515f0564f04944dfba05336b197135485ee (API_URL
 * "https://api.seeweb.it/ecs/v2", GET {API_URL}/plans, headers
 * {"X-APITOKEN": token}, the token from SEEWEB_API_TOKEN), and its test
 * src/tests/providers/test_seeweb.py at the same commit, whose payload
 * "mirrors the live /plans shape": {"status": "ok", "plans": [...]}, each
 * plan {name, cpu, ram, disk, gpu, gpu_label, hourly_price, available,
 * available_regions: [{location}]}; cpu, ram, disk and gpu are strings
 * holding numbers ("8", "32768"), ram in MB (MiB: 32768 -> 32 GiB in that
 * test), gpu the GPU count, gpu_label the part with its memory ("L40s
 * 48GB", "A100 80GB"; "A30" without), hourly_price a number per
 * instance-hour. "available" means the plan is active, not capacity, and
 * available_regions lists where it may run (seeweb.py comments). One
 * response, no paging (neither peer pages). Retrieved 2026-11-30.
 *
 * Units: hourly_price is taken as EUR per instance-hour (unconfirmed: the
 * response names no currency; Seeweb is an Italian company whose public
 * price pages are in euros; SkyPilot's fetcher, skypilot-org/skypilot
 * sky/catalog/data_fetchers/fetch_seeweb.py, copies it unconverted). A
 * plan with gpu 0 or no gpu_label is a CPU plan and passed over; one with
 * available false is left out and counted. No spot price. No redirect is
 * followed (http.c), so the key never reaches another host. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

/* The most GPUs a Seeweb plan has: ECS8GPU10 holds 8 H200
 * (skypilot-org/skypilot-catalog catalogs/v8/seeweb/vms.csv at commit
 * 004a1aef76542bb40d12fcedaaf091551ddf5fb4, retrieved 2026-11-30). */
#define SEEWEB_MAX_GPUS 16

/* A number given as a JSON number or a string that starts with one
 * ("8", "32768"); false otherwise. */
static bool lenient_number(const cJSON *o, const char *key, double *v)
{
	const cJSON *x = cJSON_GetObjectItemCaseSensitive(o, key);
	char *end = NULL;
	if (cJSON_IsNumber(x)) {
		*v = x->valuedouble;
		return true;
	}
	if (!cJSON_IsString(x) || !x->valuestring)
		return false;
	*v = strtod(x->valuestring, &end);
	return end != x->valuestring;
}

/* "L40s 48GB" -> name "L40s", 48 GB as GiB; a label without a size is
 * copied whole with *gib 0. */
static void read_label(const char *label, char *name, size_t len, double *gib)
{
	const char *sp = strrchr(label, ' ');
	double gb = 0;
	char unit[4] = "";
	*gib = 0;
	snprintf(name, len, "%s", label);
	if (sp && sscanf(sp + 1, "%lf%3s", &gb, unit) == 2 && gb > 0 &&
	    !strcmp(unit, "GB")) {
		*gib = gb * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
		if ((size_t)(sp - label) < len)
			name[sp - label] = 0;
	}
}

/* One plan into out: a row per region it may run in. */
static void read_plan(struct norm *out, const cJSON *plan)
{
	if (!cJSON_IsObject(plan))
		return;
	const char *label = pj_str(plan, "gpu_label");
	double gpus = 0, price = 0, cpu = 0, ram = 0;
	lenient_number(plan, "gpu", &gpus);
	if (gpus <= 0 || !*label)
		return; /* a CPU plan: not an offer */
	const cJSON *regions = cJSON_GetObjectItemCaseSensitive(plan, "available_regions");
	if (cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(plan, "available")) ||
	    gpus > SEEWEB_MAX_GPUS || !lenient_number(plan, "hourly_price", &price) ||
	    !cJSON_IsArray(regions)) {
		out->skipped++;
		return;
	}
	lenient_number(plan, "cpu", &cpu);
	lenient_number(plan, "ram", &ram);
	char name[96];
	double gib;
	read_label(label, name, sizeof name, &gib);
	struct raw_offer r = {
	    .offer = pj_str(plan, "name"),
	    .gpu_name = name,
	    .gpu_count = (int)gpus,
	    .vram_gib = gib,
	    .vcpus = cpu,
	    .ram_gib = ram / NORM_MIB_PER_GIB,
	    .price = price,
	    .available = true,
	    .currency = "EUR",
	};
	const cJSON *reg;
	cJSON_ArrayForEach(reg, regions)
	{
		r.region = pj_str(reg, "location");
		if (*r.region)
			norm_offer(out, &r);
	}
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "seeweb",
	    .path = {"plans"},
	    .missing = "response has no \"plans\" array",
	    .item = read_plan,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/ecs/v2/plans", NULL, err);
}

const struct provider provider_seeweb = {
    .name = "seeweb",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.seeweb.it",
    .key_env = "SEEWEB_API_TOKEN",
    .key_header = "X-APITOKEN",
    .summary = "Seeweb Cloud Server GPU plans (L4, L40S, A100, H100, H200) in Italy, "
               "Switzerland, Bulgaria; EUR",
    .currency = "EUR",
    .fetch = fetch,
    .parse = parse,
};
