/* lambda.c — Lambda instance types (GET /api/v1/instance-types).
 * `data` is an object keyed by instance-type name; prices are integer US
 * cents per instance-hour; VRAM is only in the description ("8x H100
 * (80 GB SXM5)"); available means a non-empty regions list. No spot.
 *
 * Host: Lambda's own OpenAPI document 1.10.0 (tests/fixtures/real/lambda/
 * openapi-1.10.0-instance-types.excerpt.json, api-evangelist/lambda-labs
 * snapshot 911506f4, 2026-08-22) names https://cloud.lambda.ai/ the
 * "Production server" and https://cloud.lambdalabs.com/ the "Secondary
 * production server (deprecated)", so base_url stays cloud.lambda.ai,
 * although gpuhunt still calls the deprecated host. No redirect is
 * followed (http.c): the key travels as a header and must never reach
 * another host; a 3xx fails the refresh with its status, and
 * PLANNER_LAMBDA_URL points planner at a moved API. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"

#define CENTS_PER_USD 100.0

/* "8x H100 (80 GB SXM5)" → count 8, name "H100 (80 GB SXM5)", 80 GB. */
static void read_description(const char *d, int *count, char *name, size_t len, double *gib)
{
	int n = 0, used = 0;
	if (sscanf(d, "%dx %n", &n, &used) == 1 && used > 0) {
		*count = n;
		d += used;
	}
	snprintf(name, len, "%s", d);
	const char *paren = strchr(d, '(');
	double gb;
	if (paren && sscanf(paren + 1, "%lf GB", &gb) == 1 && gb > 0)
		*gib = gb * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	const cJSON *data = cJSON_GetObjectItemCaseSensitive(root, "data");
	if (e) {
		rc = set_err(err, PLANNER_ENET, "lambda says: %s", pj_str(e, "message"));
		goto out;
	}
	if (!cJSON_IsObject(data)) {
		rc = set_err(err, PLANNER_ENET, "response has no \"data\" object");
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, data)
	{
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(it, "instance_type");
		const cJSON *specs = cJSON_GetObjectItemCaseSensitive(t, "specs");
		const cJSON *regions =
			cJSON_GetObjectItemCaseSensitive(it, "regions_with_capacity_available");
		char gpu[96] = "";
		int count = 0;
		double gib = 0;
		const char *desc = pj_str(t, "gpu_description");
		read_description(*desc ? desc : pj_str(t, "description"), &count, gpu, sizeof gpu,
				 &gib);
		int gpus = (int)pj_count(specs, "gpus", INT_MAX);
		if (gpus > 0)
			count = gpus;
		struct raw_offer r = {
			.offer = *pj_str(t, "name") ? pj_str(t, "name") : it->string,
			.gpu_name = gpu,
			.gpu_count = count,
			.vram_gib = gib,
			.vcpus = pj_num(specs, "vcpus"),
			.ram_gib = pj_num(specs, "memory_gib"),
			.price = pj_num(t, "price_cents_per_hour") / CENTS_PER_USD,
		};
		/* One row per region with capacity; none means sold out. */
		if (cJSON_GetArraySize(regions) == 0) {
			r.available = false;
			norm_offer(out, &r);
			continue;
		}
		const cJSON *reg;
		cJSON_ArrayForEach(reg, regions)
		{
			r.region = pj_str(reg, "name");
			r.available = true;
			norm_offer(out, &r);
		}
	}
out:
	cJSON_Delete(root);
	if (next)
		*next = NULL;
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	return provider_fetch_json(fx, "/api/v1/instance-types", NULL, err);
}

const struct provider provider_lambda = {
	.name = "lambda",
	.kind = PROVIDER_RENTED,
	.own_datacentres = true,
	.base_url = "https://cloud.lambda.ai",
	.key_env = "LAMBDA_API_KEY",
	.summary = "Lambda instance types (on-demand)",
	.fetch = fetch,
	.parse = parse,
};
