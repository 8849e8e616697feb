/* verda.c — Verda (formerly DataCrunch) instance types, on-demand and spot,
 * per location. OAuth client credentials: POST /v1/oauth2/token with
 * {"grant_type": "client_credentials", "client_id", "client_secret"} as
 * JSON gives an access_token, sent as a Bearer header to
 * GET /v1/instance-types (a list; price_per_hour and spot_price are
 * strings, per instance-hour, in the row's `currency`, "usd"; gpu
 * {description "1x H100 SXM5 80GB", number_of_gpus}; gpu_memory
 * {size_in_gigabytes} for all the GPUs; memory {size_in_gigabytes}; cpu
 * {number_of_cores}) and GET /v1/instance-availability?is_spot=false|true
 * (a list of {location_code, availabilities: [instance type names]}).
 *
 * Sources: the token call and instance-types from DataCrunch's Python SDK
 * (DataCrunch-io/datacrunch-python datacrunch/authentication/
 * authentication.py at 013b883d676cf2edabedabc38001dd098a1115e4 and
 * datacrunch/instance_types/instance_types.py at
 * 1225fd054ae5229e6da2e48b834cfa8a3262dc3d); the host api.verda.com/v1
 * (the SDK's VerdaClient default base_url and verda-cloud/verda-cli's
 * README, found 2026-11-30); instance-availability with is_spot, and the
 * variables VERDA_CLIENT_ID / VERDA_CLIENT_SECRET, from SkyPilot's
 * fetcher (skypilot-org/skypilot sky/catalog/data_fetchers/fetch_verda.py
 * at 0d3f7848afad80d0d7534126f56e2d1a04e01d62); the row shape from
 * gpuhunt's test of its Verda provider (dstackai/gpuhunt
 * src/tests/providers/test_verda.py at
 * 4149df93a3b1bea25e3a89a2a9c7244ac799ef33, "verda.instance_types.get()").
 * All read 2026-11-30.
 *
 * The key variable is VERDA_CLIENT_SECRET; the client id is read from
 * VERDA_CLIENT_ID beside it. A type in no location's list is kept as one
 * row without a region, not available. */
#include <cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

/* The variable holding the OAuth client id (SkyPilot's name, above). */
#define VERDA_ID_ENV "VERDA_CLIENT_ID"
/* Locations a type is listed in at most (FIN-01..03 and ICE-01 in the
 * sources above). */
#define VERDA_MAX_LOCATIONS 32

/* The two availability lists: on-demand and spot. */
struct avail {
	cJSON *list[2]; /* [0] on-demand, [1] spot; NULL when not read */
};

/* The locations whose list for spot (or not) names type, up to max. */
static size_t locations_of(const struct avail *a, bool spot, const char *type,
			   const char **loc, size_t max)
{
	size_t n = 0;
	const cJSON *l;
	const cJSON *lists = a ? a->list[spot] : NULL;
	cJSON_ArrayForEach(l, lists)
	{
		const cJSON *names = cJSON_GetObjectItemCaseSensitive(l, "availabilities");
		const cJSON *t;
		cJSON_ArrayForEach(t, names)
		{
			if (n < max && cJSON_IsString(t) && !strcmp(t->valuestring, type) &&
			    *pj_str(l, "location_code"))
				loc[n++] = pj_str(l, "location_code");
		}
	}
	return n;
}

/* "1x H100 SXM5 80GB" without its count; else the row's `model`, whichever
 * the alias table knows. */
static const char *gpu_name(const struct norm *out, const cJSON *t, const cJSON *gpu)
{
	const char *d = pj_str(gpu, "description");
	const char *x = strstr(d, "x ");
	if (x && x > d && strspn(d, "0123456789") == (size_t)(x - d))
		d = x + 2;
	const char *model = pj_str(t, "model");
	return refdata_gpu(out->ref, d) || !*model ? d : model;
}

/* One instance type into out: on-demand and spot, a row per location. */
static void read_type(struct norm *out, const cJSON *t, const struct avail *a)
{
	const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(t, "gpu");
	long gpus = pj_count(gpu, "number_of_gpus", NORM_MAX_GPUS_PER_OFFER * 4);
	if (gpus <= 0)
		return; /* a CPU node: not an offer */
	const char *type = pj_str(t, "instance_type"), *cur = pj_str(t, "currency");
	char currency[8];
	snprintf(currency, sizeof currency, "%s", *cur ? cur : "usd");
	for (char *p = currency; *p; p++)
		*p = (char)(*p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
	const char *fields[2] = {"price_per_hour", "spot_price"};
	for (int spot = 0; spot < 2; spot++) {
		double price = 0;
		if (!*type || !pj_number(t, fields[spot], &price)) {
			out->skipped++;
			continue;
		}
		if (spot && price <= 0)
			continue; /* no spot price: none offered */
		struct raw_offer r = {
		    .offer = type,
		    .gpu_name = gpu_name(out, t, gpu),
		    .gpu_count = (int)gpus,
		    .vram_gib = pj_num(cJSON_GetObjectItemCaseSensitive(t, "gpu_memory"),
				       "size_in_gigabytes") *
				NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB / (double)gpus,
		    .vcpus = pj_num(cJSON_GetObjectItemCaseSensitive(t, "cpu"), "number_of_cores"),
		    .ram_gib = pj_num(cJSON_GetObjectItemCaseSensitive(t, "memory"),
				      "size_in_gigabytes"),
		    .price = price,
		    .spot = spot,
		    .currency = currency,
		};
		const char *loc[VERDA_MAX_LOCATIONS];
		size_t n = locations_of(a, spot, type, loc, VERDA_MAX_LOCATIONS);
		if (!n && !norm_offer(out, &r))
			return;
		for (size_t i = 0; i < n; i++) {
			r.region = loc[i];
			r.available = true;
			if (!norm_offer(out, &r))
				return; /* an unknown GPU, counted once */
		}
	}
}

/* The instance types of body with the availability lists a (may be NULL). */
static int read_types(struct norm *out, const char *body, size_t len, const struct avail *a,
		      char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	if (!cJSON_IsArray(root)) {
		/* {"code": "unauthorized_request", "message"}: the SDK's handle_error. */
		rc = provider_says("verda", root, "response is not a list of instance types", err);
		goto out;
	}
	const cJSON *t;
	cJSON_ArrayForEach(t, root)
	{
		read_type(out, t, a);
	}
out:
	cJSON_Delete(root);
	return rc;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	return read_types(out, body, len, NULL, err);
}

/* POSTs the client credentials; *token gets the access token (malloc'd). */
static int get_token(struct fetch_ctx *fx, const char *id, char **token, char **err)
{
	struct buf body = {0};
	cJSON *req = cJSON_CreateObject(), *root = NULL;
	char *url = provider_url(fx, "/v1/oauth2/token"), *post = NULL;
	int rc;
	if (!req || !url || !cJSON_AddStringToObject(req, "grant_type", "client_credentials") ||
	    !cJSON_AddStringToObject(req, "client_id", id) ||
	    !cJSON_AddStringToObject(req, "client_secret", fx->key ? fx->key : "") ||
	    !(post = cJSON_PrintUnformatted(req))) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	if ((rc = provider_get(fx, url, post, NULL, &body, err)) != PLANNER_OK)
		goto out;
	if (!(root = provider_json(body.data ? body.data : "", body.len, err))) {
		rc = PLANNER_ENET;
		goto out;
	}
	const char *tok = pj_str(root, "access_token");
	if (!*tok)
		rc = provider_says("verda", root, "the token response has no access_token", err);
	else if (!(*token = strdup(tok)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
out:
	cJSON_Delete(root);
	cJSON_Delete(req);
	buf_free(&body);
	free(post);
	free(url);
	return rc;
}

/* GETs base+path with the token; *body gets the body. */
static int get(struct fetch_ctx *fx, const char *path, const char *token, struct buf *body,
	       char **err)
{
	char *url = provider_url(fx, path);
	char *auth = xasprintf("Authorization: Bearer %s", token);
	int rc = url && auth ? provider_get(fx, url, NULL, auth, body, err)
			     : set_err(err, PLANNER_ESYS, "out of memory");
	free(auth);
	free(url);
	return rc;
}

/* One availability list: a JSON list of locations, or an error. */
static int read_avail(struct fetch_ctx *fx, const char *token, bool spot, struct avail *a,
		      char **err)
{
	struct buf body = {0};
	int rc = get(fx, spot ? "/v1/instance-availability?is_spot=true"
			      : "/v1/instance-availability?is_spot=false",
		     token, &body, err);
	if (rc == PLANNER_OK && !(a->list[spot] = provider_json(body.data ? body.data : "",
								 body.len, err)))
		rc = PLANNER_ENET;
	else if (rc == PLANNER_OK && !cJSON_IsArray(a->list[spot]))
		rc = provider_says("verda", a->list[spot],
		                   "the availability response is not a list", err);
	buf_free(&body);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	const char *id = getenv(VERDA_ID_ENV);
	char *token = NULL;
	struct buf types = {0};
	struct avail a = {{NULL, NULL}};
	int rc;
	if (!id || !*id)
		return set_err(err, PLANNER_ENET, "no %s in the environment (the OAuth client id "
				  "beside %s)", VERDA_ID_ENV, fx->p->key_env);
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v1/instance-types", fx->base);
	if ((rc = get_token(fx, id, &token, err)) != PLANNER_OK ||
	    (rc = get(fx, "/v1/instance-types", token, &types, err)) != PLANNER_OK ||
	    (rc = read_avail(fx, token, false, &a, err)) != PLANNER_OK ||
	    (rc = read_avail(fx, token, true, &a, err)) != PLANNER_OK)
		goto out;
	rc = read_types(fx->out, types.data ? types.data : "", types.len, &a, err);
out:
	cJSON_Delete(a.list[0]);
	cJSON_Delete(a.list[1]);
	buf_free(&types);
	free(token);
	return rc;
}

const struct provider provider_verda = {
    .name = "verda",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.verda.com",
    .key_env = "VERDA_CLIENT_SECRET",
    .summary = "Verda (DataCrunch) instance types, on-demand and spot, Finland and Iceland",
    .fetch = fetch,
    .parse = parse,
};
