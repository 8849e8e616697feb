/* vultr.c — Vultr's public plan lists (no key needed): cloud plans
 * (GET /v2/plans?type=all&per_page=500 on api.vultr.com, list "plans") and
 * bare-metal plans (GET /v2/plans-metal?per_page=500, list "plans_metal"),
 * as dstackai/gpuhunt src/gpuhunt/providers/vultr.py reads them (its tests
 * src/tests/providers/test_vultr.py, stored version
 * 3b389574a62dd0036b41169921beaba81f7dd369, read 2026-11-30). type=all and
 * not type=vcg: a dedicated GPU plan has type "vdm" though its id starts
 * "vcg-" (gpuhunt's test of the public /plans response).
 *
 * Units: `hourly_cost` is USD per instance-hour (vcg-a100-12c-120g-80vram:
 * 2.397, monthly_cost 1750 = 730 hours of it); `ram` is MB (a "4gb" plan
 * has 4096: gpuhunt divides by 1024, and a public autoscaler's tests pin
 * it); `gpu_vram_gb` is the plan's GPU memory in all (gpuhunt divides it by
 * one GPU's memory to count them); `gpu_count`, when there, is a string
 * and may be a fraction ("1/4" of an A40, abridged from the live /plans
 * response in the same autoscaler's tests). A fractional GPU (a vGPU
 * share) is left out and counted, as MIG slices are. `gpu_type` is
 * "NVIDIA_L40S", "NVIDIA_A100_SXM"; without it the GPU comes from the id
 * ("vcg-<gpu>-<n>c-<n>g-<n>vram"; bare metal "vbm-<n>c-<n>gb-<count>-<gpu>-
 * gpu"). `hourly_cost_preemptible`, when above 0, is a spot row.
 *
 * Paging: cursor based; `meta.links.next` holds the next page's cursor
 * ("" on the last), sent back as `cursor=`; per_page at most 500 (Vultr
 * CLI reference, docs.vultr.com/reference/vultr-cli/plans/list; the
 * vultr-api crate's meta DTO "Cursor value for the next page"). */
#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "refdata.h"

/* Plans a page holds at most (the API's per_page maximum, see above). */
#define VULTR_PER_PAGE 500
/* Pages per list at most: a few hundred plans take one. */
#define VULTR_MAX_PAGES 20
/* The most GPUs a plan has (vbm-…-8-h100-gpu has 8). */
#define VULTR_MAX_GPUS 64
/* MB per GiB: `ram` is MB (see above). */
#define VULTR_MB_PER_GIB 1024.0
/* How far a plan's GB a GPU may be from the table's GiB (GB vs GiB is
 * 7%; "48vram" for a 48 GB A40). */
#define VULTR_MEMORY_SLACK 0.1

/* Dash-separated token `i` of id (negative counts from the end) into buf;
 * false when there is none. */
static bool id_token(const char *id, int i, char *buf, size_t len)
{
	int n = 1;
	for (const char *p = id; *p; p++)
		n += *p == '-';
	if (i < 0)
		i += n;
	if (i < 0 || i >= n)
		return false;
	const char *s = id;
	for (int k = 0; k < i; k++)
		s = strchr(s, '-') + 1;
	snprintf(buf, len, "%.*s", (int)strcspn(s, "-"), s);
	return *buf != '\0';
}

/* The card behind a Vultr GPU name that the GPU table reads as another
 * one. Vultr's cloud A100 is the 80 GB card: its plans are shares of it
 * ("NVIDIA A100 (1/2 GPU, 40GB)" for vcg-a100-6c-60g-40vram in public
 * Vultr walkthroughs found with the search tools, stored file id
 * 19124092516; gpuhunt counts gpu_vram_gb 160 as 2 x 80), so 40 GB is half
 * a card, left out like the 4 GB share, not a whole A100 40GB. The bare
 * metal "l40" is an L40S (gpuhunt src/gpuhunt/providers/vultr.py
 * BARE_METAL_GPU_DETAILS, "vbm-64c-2048gb-8-l40-gpu": (8, "L40S", 48),
 * stored file id 4544914980; a public Terraform module's table of
 * GET /v2/plans-metal, "8x L40S", stored file id 69038306779; read
 * 2026-12-02). */
static const struct {
	const char *name; /* as gpu_words spells it */
	bool metal;       /* for bare-metal plans only */
	const char *card; /* the GPU table's name */
} VULTR_CARDS[] = {
    {"A100", false, "A100 80GB"},
    {"L40", true, "L40S"},
};

/* name, as gpu_words spelt it, replaced by its card; whether it was. */
static bool vultr_card(char *name, size_t len, bool metal)
{
	for (size_t i = 0; i < sizeof VULTR_CARDS / sizeof *VULTR_CARDS; i++)
		if (!strcmp(name, VULTR_CARDS[i].name) && (!VULTR_CARDS[i].metal || metal)) {
			snprintf(name, len, "%s", VULTR_CARDS[i].card);
			return true;
		}
	return false;
}

/* "NVIDIA_A100_SXM" → "A100 SXM"; "a40" → "A40". */
static void gpu_words(const char *in, char *buf, size_t len)
{
	if (!strncmp(in, "NVIDIA_", 7))
		in += 7;
	else if (!strncmp(in, "AMD_", 4))
		in += 4;
	snprintf(buf, len, "%s", in);
	for (char *p = buf; *p; p++)
		*p = *p == '_' ? ' ' : (char)toupper((unsigned char)*p);
}

/* Whether per GB is the memory of a member of base's family (same first
 * word: "A100 40GB", "A100 80GB"), within VULTR_MEMORY_SLACK. */
static bool family_memory(const struct refdata *ref, const struct gpu_spec *base, double per)
{
	size_t w = strcspn(base->name, " ");
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (!strncmp(g->name, base->name, w) && (g->name[w] == ' ' || !g->name[w]) &&
		    fabs(g->vram_gib - per) <= VULTR_MEMORY_SLACK * g->vram_gib)
			return true;
	}
	return false;
}

/* GPUs in a plan without gpu_count: the fewest (1, 2, 4, 8) whose share
 * of `total` GB is one GPU's memory (of that card only when `exact`, a
 * VULTR_CARDS one; else of any member of its family); 0 for a share of a
 * GPU (4 GB of an A100); 1 for a part the table does not know, reported
 * unknown. */
static long count_by_memory(const struct refdata *ref, const char *name, double total, bool exact)
{
	const struct gpu_spec *base = refdata_gpu(ref, name);
	if (!base)
		return 1;
	for (long n = 1; n <= 8; n *= 2) {
		double per = total / (double)n;
		if (exact ? fabs(base->vram_gib - per) <= VULTR_MEMORY_SLACK * base->vram_gib
		          : family_memory(ref, base, per))
			return n;
	}
	return 0;
}

/* The GPU name, count and memory per GPU of a plan; false when it has none
 * (a CPU plan). count is 0 for a share of a GPU. */
static bool plan_gpu(struct norm *out, const cJSON *p, bool metal, char *name, size_t len,
                     int *count, double *vram)
{
	const char *id = pj_str(p, "id"), *type = pj_str(p, "gpu_type");
	char tok[64] = "";
	double total = 0;
	*count = 0;
	*vram = 0;
	if (*type)
		gpu_words(type, name, len);
	else if (metal ? !(id_token(id, -1, tok, sizeof tok) && !strcmp(tok, "gpu") &&
	                   id_token(id, -2, tok, sizeof tok))
	               : !(!strncmp(id, "vcg-", 4) && id_token(id, 1, tok, sizeof tok)))
		return false;
	else
		gpu_words(tok, name, len);
	bool exact = vultr_card(name, len, metal);
	if (!pj_number(p, "gpu_vram_gb", &total) && !metal && id_token(id, -1, tok, sizeof tok) &&
	    strstr(tok, "vram"))
		total = atof(tok);
	const char *c = pj_str(p, "gpu_count");
	if (strchr(c, '/'))
		return true; /* "1/4": a share */
	long n = pj_count(p, "gpu_count", VULTR_MAX_GPUS);
	if (n <= 0 && metal)
		n = id_token(id, -3, tok, sizeof tok) && strspn(tok, "0123456789") == strlen(tok)
		        ? atol(tok)
		        : 1; /* "vbm-64c-2048gb-l40-gpu": no count, one */
	if (n <= 0 && total > 0)
		n = count_by_memory(out->ref, name, total, exact);
	else if (n <= 0)
		n = 1;
	*count = n > VULTR_MAX_GPUS ? 0 : (int)n;
	*vram = *count > 0 && total > 0 ? total / *count : 0;
	return true;
}

/* One plan: a row per location, and a spot row where it has a spot price. */
static void read_plan(struct norm *out, const cJSON *p, bool metal)
{
	char name[64];
	int count;
	double vram, price = 0, spot = 0;
	if (!plan_gpu(out, p, metal, name, sizeof name, &count, &vram))
		return;
	if (count <= 0 || !pj_number(p, "hourly_cost", &price)) {
		out->skipped++;
		return;
	}
	pj_number(p, "hourly_cost_preemptible", &spot);
	double cpus = pj_num(p, metal ? "cpu_threads" : "vcpu_count");
	struct raw_offer r = {
	    .offer = pj_str(p, "id"),
	    .gpu_name = name,
	    .gpu_count = count,
	    .vram_gib = vram,
	    .vcpus = cpus > 0 ? cpus : pj_num(p, "cpu_count"),
	    .ram_gib = pj_num(p, "ram") / VULTR_MB_PER_GIB,
	    .price = price,
	    .available = true,
	    .currency = "USD",
	};
	const cJSON *loc;
	cJSON_ArrayForEach(loc, cJSON_GetObjectItemCaseSensitive(p, "locations"))
	{
		if (!cJSON_IsString(loc) || !*loc->valuestring)
			continue;
		r.region = loc->valuestring;
		r.spot = false;
		r.price = price;
		norm_offer(out, &r);
		if (spot > 0) {
			r.spot = true;
			r.price = spot;
			norm_offer(out, &r);
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
	bool metal = false;
	const cJSON *plans = cJSON_GetObjectItemCaseSensitive(root, "plans");
	if (!cJSON_IsArray(plans)) {
		plans = cJSON_GetObjectItemCaseSensitive(root, "plans_metal");
		metal = true;
	}
	if (!cJSON_IsArray(plans)) {
		/* An error object: {"error": "...", "status": 401}. */
		rc = provider_says("vultr", root, "response has no \"plans\" list", err);
		goto out;
	}
	const cJSON *p;
	cJSON_ArrayForEach(p, plans)
	{
		if (cJSON_IsObject(p))
			read_plan(out, p, metal);
	}
	const cJSON *links = cJSON_GetObjectItemCaseSensitive(
	    cJSON_GetObjectItemCaseSensitive(root, "meta"), "links");
	const char *cursor = pj_str(links, "next");
	if (next && *cursor && !(*next = xstrdup(cursor)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
out:
	cJSON_Delete(root);
	return rc;
}

struct vultr_fetch {
	struct fetch_ctx *fx;
	const char *path; /* "/v2/plans?type=all" or "/v2/plans-metal" */
};

/* The URL of a list's page: the first when cursor is NULL. */
static char *page_url(const struct vultr_fetch *vf, const char *cursor)
{
	char *esc = cursor ? http_escape(cursor) : NULL, *url = NULL;
	if (cursor && !esc)
		return NULL;
	url = xasprintf("%s%s%cper_page=%d%s%s", vf->fx->base, vf->path,
	                strchr(vf->path, '?') ? '&' : '?', VULTR_PER_PAGE, esc ? "&cursor=" : "",
	                esc ? esc : "");
	free(esc);
	return url;
}

static int page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct vultr_fetch *vf = ud;
	char *cursor = NULL;
	int rc = parse(vf->fx->out, body, len, &cursor, err);
	*next = NULL;
	if (rc == PLANNER_OK && cursor && !(*next = page_url(vf, cursor)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	free(cursor);
	return rc;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	static const char *const lists[] = {"/v2/plans?type=all", "/v2/plans-metal"};
	const char *headers[] = {"Accept: application/json", NULL};
	int rc = PLANNER_OK;
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v2/plans, %s/v2/plans-metal",
	         fx->base, fx->base);
	for (size_t i = 0; i < sizeof lists / sizeof *lists && rc == PLANNER_OK; i++) {
		struct vultr_fetch vf = {.fx = fx, .path = lists[i]};
		char *url = page_url(&vf, NULL);
		if (!url)
			return set_err(err, PLANNER_ESYS, "out of memory");
		rc = http_paged(fx->http, url, headers, page, &vf, VULTR_MAX_PAGES,
		                &fx->http_status, err);
		free(url);
	}
	return rc;
}

const struct provider provider_vultr = {
    .name = "vultr",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://api.vultr.com",
    .key_env = NULL,
    .summary = "Vultr cloud GPU and bare-metal GPU plans (A100, L40S, H100, MI300X), per "
               "location; USD",
    .currency = NULL,
    .fetch = fetch,
    .parse = parse,
};
