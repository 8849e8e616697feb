/* oci.c — Oracle Cloud's public cost estimator data (no key needed): the
 * shapes (GET /a/ocom/docs/cloudestimator2/data/shapes.json on
 * www.oracle.com) and the price list (…/products.json), as
 * dstackai/gpuhunt src/gpuhunt/providers/oci.py reads them
 * (COST_ESTIMATOR_URL_TEMPLATE; stored version
 * 027c53d153f99d83139ab63dfdd12bdb187c278f, and its newer tests, stored
 * file id 71577231335, with real GPU shapes "as reported by the Cost
 * Estimator on 2026-09-18"; read 2026-11-30). Two documents, no paging.
 *
 * A shape (`items[]` of shapes.json) has `name` ("BM.GPU.H100.8"),
 * `hidden`, `status`, `gpuQty`, `gpuMemoryQty` (GB, the shape's total;
 * for BM.GPU.MI355X.8 one GPU's), `bundleMemoryQty` (GB), `subType.value`
 * "gpu", `allowPreemptible`, and `products[]` {type.value "ocpu",
 * partNumber, qty (OCPUs)}. A product (`items[]` of products.json) has
 * `partNumber`, `billingModel` "UCM", `pricetype` "HOUR" and
 * `currencyCodeLocalizations[]` {currencyCode, prices[] {model
 * "PAY_AS_YOU_GO", value}}. For a GPU shape the ocpu product's value is
 * USD per GPU-hour: the shape costs value × gpuQty (gpuhunt; BM.GPU.H100.8
 * B98415 10 → 80 USD an hour). An x86 OCPU is two vCPUs, a Grace (GB200,
 * GB300) OCPU one (gpuhunt's tests). A preemptible shape costs half
 * (gpuhunt's test: VM.GPU3.1 spot 2.95 / 2). Prices are the same in every
 * region and the estimator names none: rows have no region.
 *
 * parse() reads one body holding both documents, {"shapes": {…},
 * "products": {…}} (what fetch assembles; the tests and the fuzzer use
 * it), or a bare shapes.json whose prices are then unknown (an error). */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "refdata.h"

/* The most GPUs a shape has (BM.GPU.H100.8 has 8). */
#define OCI_MAX_GPUS 64
/* vCPUs an x86 OCPU is (gpuhunt: qty * 2 unless Arm). */
#define OCI_VCPUS_PER_OCPU 2
/* A preemptible shape's share of the on-demand price (gpuhunt's test). */
#define OCI_PREEMPTIBLE_SHARE 0.5

/* The USD pay-as-you-go hourly value of product part, or false. */
static bool product_price(const cJSON *products, const char *part, double *v)
{
	const cJSON *it;
	cJSON_ArrayForEach(it, cJSON_GetObjectItemCaseSensitive(products, "items"))
	{
		if (strcmp(pj_str(it, "partNumber"), part))
			continue;
		if (strcmp(pj_str(it, "billingModel"), "UCM") ||
		    strcmp(pj_str(it, "pricetype"), "HOUR"))
			return false;
		const cJSON *l;
		cJSON_ArrayForEach(
		    l, cJSON_GetObjectItemCaseSensitive(it, "currencyCodeLocalizations"))
		{
			const cJSON *p;
			if (strcmp(pj_str(l, "currencyCode"), "USD"))
				continue;
			cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(l, "prices"))
			{
				if (!strcmp(pj_str(p, "model"), "PAY_AS_YOU_GO"))
					return pj_number(p, "value", v);
			}
		}
		return false;
	}
	return false;
}

/* The GPU a shape name names ("BM.GPU.H100.8" → "H100", "BM.GPU4.8" →
 * "A100", "VM.GPU3.1" → "V100", "VM.GPU2.1" → "P100": gpuhunt's
 * get_gpu_name), into buf; false when none. */
static bool shape_gpu(const char *shape, char *buf, size_t len)
{
	static const struct {
		const char *prefix, *gpu;
	} old[] = {{".GPU4.", "A100"}, {".GPU3.", "V100"}, {".GPU2.", "P100"}};
	for (size_t i = 0; i < sizeof old / sizeof *old; i++)
		if (strstr(shape, old[i].prefix)) {
			snprintf(buf, len, "%s", old[i].gpu);
			return true;
		}
	const char *g = strstr(shape, ".GPU.");
	if (!g)
		return false;
	g += 5;
	snprintf(buf, len, "%.*s", (int)strcspn(g, ".- ("), g);
	return *buf != '\0';
}

/* The ocpu product of a shape, or NULL. */
static const cJSON *ocpu_product(const cJSON *shape)
{
	const cJSON *p;
	cJSON_ArrayForEach(p, cJSON_GetObjectItemCaseSensitive(shape, "products"))
	{
		if (!strcmp(pj_str(cJSON_GetObjectItemCaseSensitive(p, "type"), "value"), "ocpu"))
			return p;
	}
	return NULL;
}

/* One shape: a row for an active GPU shape, and a spot row if it has one. */
static void read_shape(struct norm *out, const cJSON *s, const cJSON *products)
{
	char gpu[64], name[96];
	const char *raw = pj_str(s, "name");
	const cJSON *sub = cJSON_GetObjectItemCaseSensitive(s, "subType");
	if (strcmp(pj_str(sub, "value"), "gpu") || !shape_gpu(raw, gpu, sizeof gpu) ||
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "hidden")) ||
	    strcmp(pj_str(s, "status"), "ACTIVE"))
		return;
	const cJSON *op = ocpu_product(s);
	long n = pj_count(s, "gpuQty", OCI_MAX_GPUS);
	double per_gpu = 0, mem = 0;
	if (!op || n <= 0 || !product_price(products, pj_str(op, "partNumber"), &per_gpu)) {
		out->skipped++;
		return;
	}
	/* "BM.GPU.GB200.4 (NVL72)" is BM.GPU.GB200.4 in the compute API. */
	snprintf(name, sizeof name, "%.*s", (int)strcspn(raw, " "), raw);
	pj_number(s, "gpuMemoryQty", &mem);
	const struct gpu_spec *spec = refdata_gpu(out->ref, gpu);
	double vram = mem / (double)n;
	if (spec && vram < spec->vram_gib / 2)
		vram = mem; /* one GPU's, as for BM.GPU.MI355X.8 */
	double ocpus = pj_num(op, "qty");
	struct raw_offer r = {
	    .offer = name,
	    .gpu_name = gpu,
	    .gpu_count = (int)n,
	    .vram_gib = vram,
	    .vcpus = strstr(name, ".GPU.GB") ? ocpus : ocpus * OCI_VCPUS_PER_OCPU,
	    .ram_gib = pj_num(s, "bundleMemoryQty"),
	    .price = per_gpu * (double)n,
	    .available = true,
	};
	norm_offer(out, &r);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "allowPreemptible"))) {
		r.spot = true;
		r.price *= OCI_PREEMPTIBLE_SHARE;
		norm_offer(out, &r);
	}
}

/* Reads shapes against products; an error when either has no "items". */
static int read_both(struct norm *out, const cJSON *shapes, const cJSON *products, char **err)
{
	const cJSON *items = cJSON_GetObjectItemCaseSensitive(shapes, "items");
	if (!cJSON_IsArray(items))
		return set_err(err, PLANNER_ENET, "shapes.json has no \"items\" list");
	if (!cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(products, "items")))
		return set_err(err, PLANNER_ENET, "products.json has no \"items\" list");
	const cJSON *s;
	cJSON_ArrayForEach(s, items)
	{
		if (cJSON_IsObject(s))
			read_shape(out, s, products);
	}
	return PLANNER_OK;
}

static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = read_both(out, cJSON_GetObjectItemCaseSensitive(root, "shapes"),
	                   cJSON_GetObjectItemCaseSensitive(root, "products"), err);
	cJSON_Delete(root);
	return rc;
}

/* GETs base + path and parses it as JSON into *root. */
static int get_json(struct fetch_ctx *fx, const char *path, cJSON **root, char **err)
{
	const char *headers[] = {"Accept: application/json", NULL};
	struct http_response resp;
	char *url = provider_url(fx, path);
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	struct http_request req = {.url = url, .headers = headers};
	int rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK &&
	    !(*root = provider_json(resp.body.data ? resp.body.data : "", resp.body.len, err)))
		rc = PLANNER_ENET;
	http_response_free(&resp);
	free(url);
	return rc;
}

#define OCI_DATA "/a/ocom/docs/cloudestimator2/data/"

static int fetch(struct fetch_ctx *fx, char **err)
{
	cJSON *products = NULL, *shapes = NULL;
	snprintf(fx->out->source, sizeof fx->out->source, "%s" OCI_DATA "{shapes,products}.json",
	         fx->base);
	int rc = get_json(fx, OCI_DATA "products.json", &products, err);
	if (rc == PLANNER_OK)
		rc = get_json(fx, OCI_DATA "shapes.json", &shapes, err);
	if (rc == PLANNER_OK)
		rc = read_both(fx->out, shapes, products, err);
	cJSON_Delete(shapes);
	cJSON_Delete(products);
	return rc;
}

const struct provider provider_oci = {
    .name = "oci",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://www.oracle.com",
    .key_env = NULL,
    .summary = "Oracle Cloud GPU shapes (A10, A100, H100, H200, B200, MI300X) from its public "
               "cost estimator, any region; USD",
    .currency = NULL,
    .fetch = fetch,
    .parse = parse,
};
