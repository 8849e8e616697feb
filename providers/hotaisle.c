/* hotaisle.c — Hot Aisle AMD GPU VMs (GET /api/teams/<team>/
 * virtual_machines/available/ on admin.hotaisle.app, the key as
 * "Authorization: Token <key>"; HOTAISLE_API_KEY, the team handle in
 * HOTAISLE_TEAM_HANDLE).
 *
 * Endpoint, header and shape: dstackai/gpuhunt src/gpuhunt/providers/
 * hotaisle.py at 35841515de3792fe6be73b0422ac8901b6b929c8 (read
 * 2026-12-02; it points to Hot Aisle's API documentation,
 * admin.hotaisle.app/api/docs, not stored here): a JSON list of the VM
 * shapes the team can create, each {OnDemandPrice (US cents per
 * VM-hour), Specs: {cpu_cores, ram_capacity and disk_capacity (bytes),
 * cpus: {count, model}, gpus: [{count, model}]}}; the body "null" when
 * none is available (src/tests/providers/test_hotaisle.py, same commit).
 * Every GPU is AMD; the offer name is gpuhunt's, "<n>x <gpu> <cores>x
 * <cpu model>", and the region us-michigan-1, the one location gpuhunt
 * gives (hard-coded there: the response names none). Hot Aisle runs its
 * own MI300X machines (own_datacentres). Listed means it can be created
 * now: available. No spot price, no paging. No redirect is followed
 * (http.c), so the key never reaches another host. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "util.h"

/* The one location the feed's VMs are in (gpuhunt's hotaisle.py above). */
#define HOTAISLE_REGION   "us-michigan-1"
#define HOTAISLE_TEAM_ENV "HOTAISLE_TEAM_HANDLE"
/* An 8x MI300X bare-metal server is the largest machine Hot Aisle names
 * (dstack release 0.22.3 notes, github.com/dstackai/dstack/releases/tag/
 * 0.22.3, read 2026-12-02: bm-mi300x-8); twice that for margin. */
#define HOTAISLE_MAX_GPUS  16
#define HOTAISLE_MAX_CORES 4096

static void read_vm(struct norm *out, const cJSON *vm)
{
	const cJSON *specs = cJSON_GetObjectItemCaseSensitive(vm, "Specs");
	const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(specs, "gpus");
	const cJSON *gpu = cJSON_IsArray(gpus) ? cJSON_GetArrayItem(gpus, 0) : NULL;
	const cJSON *cpus = cJSON_GetObjectItemCaseSensitive(specs, "cpus");
	const char *model = pj_str(gpu, "model");
	long count = pj_count(gpu, "count", HOTAISLE_MAX_GPUS);
	long cores = pj_count(specs, "cpu_cores", HOTAISLE_MAX_CORES);
	double cents, ram = 0;
	if (!cJSON_IsObject(specs) || !*model || count <= 0 ||
	    !pj_number(vm, "OnDemandPrice", &cents)) {
		out->skipped++;
		return;
	}
	pj_number(specs, "ram_capacity", &ram);
	char offer[160];
	snprintf(offer, sizeof offer, "%ldx %s %ldx %s", count, model, cores,
	         pj_str(cpus, "model"));
	struct raw_offer r = {
	    .offer = offer,
	    .region = HOTAISLE_REGION,
	    .gpu_name = model,
	    .gpu_count = (int)count,
	    .vcpus = (double)cores,
	    .ram_gib = ram / NORM_BYTES_PER_GIB,
	    .price = cents / 100.0,
	    .available = true,
	    .host = NORM_HOST_DATACENTRE,
	};
	norm_offer(out, &r);
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	static const struct provider_items feed = {
	    .provider = "hotaisle",
	    .path = {NULL},
	    .missing = "no list of virtual machines",
	    .null_is_empty = true, /* nothing can be created now: no offers */
	    .item = read_vm,
	};
	return provider_parse_items(&feed, out, body, len, next, err);
}

/* A team handle goes into the path: letters, digits, '-' and '_' only. */
static bool team_ok(const char *t)
{
	if (!t || !*t || strlen(t) > 128)
		return false;
	for (; *t; t++)
		if (!(('a' <= *t && *t <= 'z') || ('A' <= *t && *t <= 'Z') ||
		      ('0' <= *t && *t <= '9') || *t == '-' || *t == '_'))
			return false;
	return true;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	const char *team = provider_option(fx, "team_handle");
	if (!team)
		team = getenv(HOTAISLE_TEAM_ENV);
	if (!team || !*team)
		return set_err(err, PLANNER_ENET, "no %s in the environment", HOTAISLE_TEAM_ENV);
	if (!team_ok(team))
		return set_err(err, PLANNER_ENET, "%s is not a team handle", HOTAISLE_TEAM_ENV);
	char *path = xasprintf("/api/teams/%s/virtual_machines/available/", team);
	char *url = path ? provider_url(fx, path) : NULL;
	char *auth = fx->key ? xasprintf("Authorization: Token %s", fx->key) : NULL;
	struct buf body = {0};
	int rc;
	free(path);
	if (!url || (fx->key && !auth)) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	rc = provider_get(fx, url, NULL, auth, &body, err);
	if (rc == PLANNER_OK)
		rc = parse(fx->out, body.data ? body.data : "", body.len, NULL, err);
out:
	buf_free(&body);
	free(auth);
	free(url);
	return rc;
}

const struct provider provider_hotaisle = {
    .name = "hotaisle",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://admin.hotaisle.app",
    .key_env = "HOTAISLE_API_KEY",
    .summary = "Hot Aisle AMD MI300X VMs (on-demand)",
    .fetch = fetch,
    .parse = parse,
};
