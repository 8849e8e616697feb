/* gcp.c — Google Cloud Billing Catalog, Compute Engine SKUs (GET
 * /v1/services/6F81-5844-456A/skus), paged by nextPageToken.
 *
 * GCP bills a GPU VM as separate SKUs on the same catalog: the GPUs, the
 * vCPUs and the memory of its machine series ("Nvidia Tesla A100 GPU
 * running in Americas", "A2 Instance Core running in Americas", "A2
 * Instance Ram running in Americas", usageUnit GiBy.h). Every page's SKUs
 * are collected first; then each machine shape GCP sells (shapes[]) is
 * priced per region as GPUs × GPU SKU + vCPUs × core SKU + GiB × RAM SKU.
 * a2-highgpu-1g on the recorded opencost page: 2.933908 + 12 × 0.031611 +
 * 85 × 0.004237 = 3.673385 USD/h (tests/fixtures/real/gcp, FINDINGS.md).
 * Prices are units (a string) + nanos; usageType Preemptible, or a
 * description beginning "Spot Preemptible", is spot.
 *
 * Committed use discounts (issue 29 item 6) are SKUs of the same catalog,
 * usageType Commit1Yr / Commit3Yr, priced per GPU-, vCPU- or GiB-hour like
 * the on-demand ones: "Commitment v1: Nvidia Tesla T4 GPU running in
 * Americas for 3 Years", "Commitment v1: A2 Cpu in Americas for 1 Year",
 * "Commitment v1: A2 Ram in …", and for N1 the unprefixed "Commitment v1:
 * Cpu in …" / "Commitment v1: Ram in …". A shape's committed hour is built
 * as its on-demand hour is, from the commitment SKUs of one term in one
 * region, and stored as a term (norm_term, no upfront); a shape whose
 * GPU, core or RAM commitment is missing gets no term: committed GPUs are
 * never added to on-demand vCPUs. */
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "provider.h"

#define GCP_MAX_PAGES 500
#define NANOS_PER_UNIT 1e9

static const char skus_path[] = "/v1/services/6F81-5844-456A/skus?currencyCode=USD";

/* Spot CPU/RAM SKUs begin with this ("Spot Preemptible A2 Instance Core
 * running in Americas", skuId 3178-715E-CFB6); spot GPU SKUs say "… GPU
 * attached to Spot Preemptible VMs running in …" (39D4-516A-0317).
 * tests/fixtures/real/PROVENANCE.md, gcp section, 2026-11-30. */
static const char spot_prefix[] = "Spot Preemptible ";

/* A commitment SKU's description begins with this; what follows reads as
 * an on-demand description does, with " Cpu in " / " Ram in " for the
 * core and RAM ("Commitment v1: A2 Cpu in APAC for 1 Year", skuId
 * 38FA-6071-3D88, usageType Commit1Yr, usageUnit h, recorded in
 * cloud-barista/cb-spider's GCP price handler, effectiveTime
 * 2023-12-20). tests/fixtures/real/PROVENANCE.md, gcp section. */
static const char commit_prefix[] = "Commitment v1: ";

/* SKUs that are not the plain on-demand or spot hour of a VM, though some
 * carry usageType OnDemand: sole-tenant nodes, premiums, reservations,
 * commitments, DWS (Dynamic Workload Scheduler: "… GPU attached to DWS
 * Defined Duration VMs …", 1.846198 against 3.928080 on demand for an
 * A100 80GB in one peer's test; its flex-start mode too) and calendar
 * mode. The first five are gpuhunt's list (dstackai/gpuhunt
 * src/gpuhunt/providers/gcp.py, commit
 * 027ccf3547aba30a17be6055be1f065291be35f1, Prices.add_skus); the rest from
 * issue 11 and Cyclenerd's build/mapping.csv ("Reserved A2%",
 * "Commitment v1: …"), read 2026-11-30. */
static const char *const skip_words[] = {
	"Sole Tenancy", "Reserved", "Premium", "Custom", "suspended", "Commitment",
	"DWS", "Dynamic Workload", "Defined Duration", "Flex", "Calendar", "Reservation", NULL,
};

/* The machine shapes GCP sells with GPUs, and which SKUs price them.
 * gpu_sku: the GPU SKU description before " GPU" (after "Spot Preemptible
 * "; compared without case: "Nvidia"/"NVIDIA" both occur); family: the core/RAM SKU description before " Instance Core" /
 * " Instance Ram". Shapes (vCPUs, memory GiB) are GCP's own
 * `gcloud compute machine-types list` as Cyclenerd recorded it
 * (tests/fixtures/real/gcp/cyclenerd-machinetypes.gpu-families.excerpt.csv,
 * 2026-07-01); the SKU names are Cyclenerd's build/mapping.csv (snapshot
 * 08440e74c5f5f7dc4ba9a10d0d02f195df568173: "A2 Instance%", "A3 Instance%",
 * "G2 Instance%", "N1 Predefined Instance Core%", "Nvidia Tesla A100 80GB GPU
 * running in%", "Nvidia H100 80GB Mega GPU running%"); A2 Ultra is billed on
 * the A2 core/RAM SKUs and A3 Mega on "A3Plus Instance Core/Ram" (gpuhunt,
 * same file, add_compute_sku: "A3Plus Instance" → a3-megagpu). */
static const struct gcp_shape {
	const char *machine; /* the offer name */
	const char *gpu_sku;
	const char *family;
	const char *gpu;     /* canonical name (schema/gpus.json) or an alias */
	int gpus;
	int vcpus;
	double ram_gib;
	bool spot_only;      /* not sold on demand */
} shapes[] = {
	{"a2-highgpu-1g", "Nvidia Tesla A100", "A2", "A100 40GB", 1, 12, 85, false},
	{"a2-highgpu-2g", "Nvidia Tesla A100", "A2", "A100 40GB", 2, 24, 170, false},
	{"a2-highgpu-4g", "Nvidia Tesla A100", "A2", "A100 40GB", 4, 48, 340, false},
	{"a2-highgpu-8g", "Nvidia Tesla A100", "A2", "A100 40GB", 8, 96, 680, false},
	{"a2-megagpu-16g", "Nvidia Tesla A100", "A2", "A100 40GB", 16, 96, 1360, false},
	{"a2-ultragpu-1g", "Nvidia Tesla A100 80GB", "A2", "A100 80GB", 1, 12, 170, false},
	{"a2-ultragpu-2g", "Nvidia Tesla A100 80GB", "A2", "A100 80GB", 2, 24, 340, false},
	{"a2-ultragpu-4g", "Nvidia Tesla A100 80GB", "A2", "A100 80GB", 4, 48, 680, false},
	{"a2-ultragpu-8g", "Nvidia Tesla A100 80GB", "A2", "A100 80GB", 8, 96, 1360, false},
	/* "1g/2g/4g shapes are Spot/Flex-start only": tgarg01/silybench-data,
	 * derived/csv/gpu_prices.csv, checked 2026-09-26 (PROVENANCE.md). */
	{"a3-highgpu-1g", "Nvidia H100 80GB", "A3", "H100 SXM", 1, 26, 234, true},
	{"a3-highgpu-2g", "Nvidia H100 80GB", "A3", "H100 SXM", 2, 52, 468, true},
	{"a3-highgpu-4g", "Nvidia H100 80GB", "A3", "H100 SXM", 4, 104, 936, true},
	{"a3-highgpu-8g", "Nvidia H100 80GB", "A3", "H100 SXM", 8, 208, 1872, false},
	{"a3-megagpu-8g", "Nvidia H100 80GB Mega", "A3Plus", "H100 SXM", 8, 208, 1872, false},
	/* SKU names "H200 141GB GPU" and "A3Ultra Instance Core/Ram" from one
	 * peer's Go mapping (find_string file id 54067092609, repository not
	 * resolved), 2026-11-30 (unconfirmed). */
	{"a3-ultragpu-8g", "H200 141GB", "A3Ultra", "H200", 8, 224, 2952, false},
	/* "NVIDIA B200 GPU running in Americas", "Nvidia GB200 GPU running in
	 * us-central1", "A4 Instance Core running in Iowa", "A4X Instance Core
	 * running in Iowa": strings in peers' tests (find_string file ids
	 * 70969447193, 53901969132, 71016818543, 55773903208; repositories not
	 * resolved), 2026-11-30 (unconfirmed). */
	{"a4-highgpu-8g", "Nvidia B200", "A4", "B200", 8, 224, 3968, false},
	{"a4x-highgpu-4g", "Nvidia GB200", "A4X", "GB200", 4, 140, 884, false},
	/* G2: 1 L4 for -4/-8/-12/-16/-32, 2 for -24, 4 for -48, 8 for -96 (GCP's
	 * G2 documentation, cloud.google.com/compute/docs/gpus#l4-gpus, as
	 * PROVENANCE.md quotes it). */
	{"g2-standard-4", "Nvidia L4", "G2", "L4", 1, 4, 16, false},
	{"g2-standard-8", "Nvidia L4", "G2", "L4", 1, 8, 32, false},
	{"g2-standard-12", "Nvidia L4", "G2", "L4", 1, 12, 48, false},
	{"g2-standard-16", "Nvidia L4", "G2", "L4", 1, 16, 64, false},
	{"g2-standard-24", "Nvidia L4", "G2", "L4", 2, 24, 96, false},
	{"g2-standard-32", "Nvidia L4", "G2", "L4", 1, 32, 128, false},
	{"g2-standard-48", "Nvidia L4", "G2", "L4", 4, 48, 192, false},
	{"g2-standard-96", "Nvidia L4", "G2", "L4", 8, 96, 384, false},
	/* N1 takes T4/V100/P100/P4 in the counts GCP documents (T4, P100, P4:
	 * 1/2/4; V100: 1/2/4/8; gpuhunt's accelerator_limits, same file). The
	 * host is planner's choice: n1-standard with 8 vCPUs (30 GiB) per GPU,
	 * inside every documented vCPU/memory limit of those counts. */
	{"n1-standard-8 + 1x T4", "Nvidia Tesla T4", "N1 Predefined", "T4", 1, 8, 30, false},
	{"n1-standard-16 + 2x T4", "Nvidia Tesla T4", "N1 Predefined", "T4", 2, 16, 60, false},
	{"n1-standard-32 + 4x T4", "Nvidia Tesla T4", "N1 Predefined", "T4", 4, 32, 120, false},
	{"n1-standard-8 + 1x V100", "Nvidia Tesla V100", "N1 Predefined", "V100 16GB", 1, 8, 30,
	 false},
	{"n1-standard-16 + 2x V100", "Nvidia Tesla V100", "N1 Predefined", "V100 16GB", 2, 16, 60,
	 false},
	{"n1-standard-32 + 4x V100", "Nvidia Tesla V100", "N1 Predefined", "V100 16GB", 4, 32, 120,
	 false},
	{"n1-standard-64 + 8x V100", "Nvidia Tesla V100", "N1 Predefined", "V100 16GB", 8, 64, 240,
	 false},
	{"n1-standard-8 + 1x P100", "Nvidia Tesla P100", "N1 Predefined", "P100", 1, 8, 30, false},
	{"n1-standard-16 + 2x P100", "Nvidia Tesla P100", "N1 Predefined", "P100", 2, 16, 60, false},
	{"n1-standard-32 + 4x P100", "Nvidia Tesla P100", "N1 Predefined", "P100", 4, 32, 120, false},
	{"n1-standard-8 + 1x P4", "Nvidia Tesla P4", "N1 Predefined", "P4", 1, 8, 30, false},
	{"n1-standard-16 + 2x P4", "Nvidia Tesla P4", "N1 Predefined", "P4", 2, 16, 60, false},
	{"n1-standard-32 + 4x P4", "Nvidia Tesla P4", "N1 Predefined", "P4", 4, 32, 120, false},
};

#define N_SHAPES (sizeof shapes / sizeof shapes[0])

enum gcp_part { PART_GPU, PART_CORE, PART_RAM };

/* One SKU's price in one region. */
struct gcp_rate {
	enum gcp_part part;
	bool spot;
	char term[4];    /* "1y" / "3y" for a commitment; "" on demand or spot */
	char name[64];   /* GPU name or machine series */
	char region[40];
	double usd;      /* per GPU-hour, vCPU-hour or GiB-hour */
};

/* The rates of every page read so far. */
struct gcp_book {
	struct gcp_rate *r;
	size_t n, cap;
};

static void book_free(struct gcp_book *b)
{
	free(b->r);
	b->r = NULL;
	b->n = b->cap = 0;
}

/* The rate of (part, name, region) sold as `like` is: spot or not, on the
 * same term. */
static const struct gcp_rate *book_find(const struct gcp_book *b, enum gcp_part part,
                                        const char *name, const char *region,
                                        const struct gcp_rate *like)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->r[i].part == part && b->r[i].spot == like->spot &&
		    !strcmp(b->r[i].term, like->term) && !strcmp(b->r[i].name, name) &&
		    !strcmp(b->r[i].region, region))
			return &b->r[i];
	return NULL;
}

/* Adds a rate; the first one for a (part, name, region, spot, term)
 * stays. false when out of memory. */
static bool book_add(struct gcp_book *b, const struct gcp_rate *r)
{
	if (book_find(b, r->part, r->name, r->region, r))
		return true;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		struct gcp_rate *v = realloc(b->r, cap * sizeof *v);
		if (!v)
			return false;
		b->r = v;
		b->cap = cap;
	}
	b->r[b->n++] = *r;
	return true;
}

/* The name a machine series' commitment SKUs give it: the on-demand one,
 * except N1, whose are "Commitment v1: Cpu in …" and "Commitment v1: Ram
 * in …" (no series named: Cyclenerd's build/mapping.csv
 * gce.compute.cpu.n1.1y "Commitment v1: Cpu%1 Year", snapshot
 * dac31281f2a4575f0a8bff20ac04fc71a5ff2190; skuId 001D-204A-23DA
 * "Commitment v1: Cpu in Montreal for 1 Year" in peers' recorded SKUs). */
static const char *commit_family(const char *family)
{
	return strcmp(family, "N1 Predefined") ? family : "";
}

/* Whether a machine series' core/RAM SKUs price any shape; commit: the
 * name is a commitment SKU's (commit_family). */
static bool family_used(const char *family, bool commit)
{
	for (size_t i = 0; i < N_SHAPES; i++)
		if (!strcmp(commit ? commit_family(shapes[i].family) : shapes[i].family, family))
			return true;
	return false;
}

/* Where a commitment SKU's series name ends before the part marker `mark`
 * (" Cpu in " / " Ram in "); desc itself when it begins with the marker
 * less its space (N1: "Cpu in Americas for 1 Year"). NULL: no marker. */
static const char *commit_part(const char *desc, const char *mark)
{
	if (!strncmp(desc, mark + 1, strlen(mark + 1)))
		return desc;
	return strstr(desc, mark);
}

/* Reads what a SKU prices from its description: the part, the GPU name or
 * machine series into name, and whether it is spot. commit: a commitment
 * SKU's description, commit_prefix removed. false: not a GPU, core or RAM
 * SKU planner reads. */
static bool classify(const char *desc, bool gpu_group, bool commit, enum gcp_part *part, char *name,
                     size_t len, bool *spot)
{
	for (size_t i = 0; skip_words[i]; i++)
		if (strstr(desc, skip_words[i]))
			return false;
	const char *end;
	if (commit) {
		if ((end = commit_part(desc, " Cpu in ")))
			*part = PART_CORE;
		else if ((end = commit_part(desc, " Ram in ")))
			*part = PART_RAM;
		else if (gpu_group && (end = strstr(desc, " GPU")))
			*part = PART_GPU;
		else
			return false;
		goto named;
	}
	if (!strncmp(desc, spot_prefix, sizeof spot_prefix - 1)) {
		desc += sizeof spot_prefix - 1;
		*spot = true;
	}
	if (strstr(desc, spot_prefix))
		*spot = true; /* "… GPU attached to Spot Preemptible VMs …" */
	if ((end = strstr(desc, " Instance Core running in ")))
		*part = PART_CORE;
	else if ((end = strstr(desc, " Instance Ram running in ")))
		*part = PART_RAM;
	else if (gpu_group && ((end = strstr(desc, " GPU")) || (end = strstr(desc, " attached to ")) ||
			       (end = strstr(desc, " running in "))))
		*part = PART_GPU;
	else
		return false;
named:;
	size_t n = (size_t)(end - desc);
	if (n >= len)
		return false;
	memcpy(name, desc, n);
	name[n] = '\0';
	return *part == PART_GPU || family_used(name, commit);
}

/* The first tier with a price, units + nanos / 1e9 USD, when the SKU's
 * unit is `unit` ("h" for GPUs and vCPUs, "GiBy.h" for memory: baseUnit
 * By.s, conversion factor 3865470566400 = 3600 × 2^30, on the recorded
 * page). 0 otherwise. */
static double unit_price(const cJSON *sku, const char *unit)
{
	const cJSON *info = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(sku, "pricingInfo"), 0);
	const cJSON *expr = cJSON_GetObjectItemCaseSensitive(info, "pricingExpression");
	if (strcmp(pj_str(expr, "usageUnit"), unit))
		return 0;
	const cJSON *rate;
	cJSON_ArrayForEach(rate, cJSON_GetObjectItemCaseSensitive(expr, "tieredRates"))
	{
		const cJSON *up = cJSON_GetObjectItemCaseSensitive(rate, "unitPrice");
		const char *cur = pj_str(up, "currencyCode");
		if (*cur && strcmp(cur, "USD"))
			return 0;
		double p = pj_num(up, "units") + pj_num(up, "nanos") / NANOS_PER_UNIT;
		if (p > 0)
			return p;
	}
	return 0;
}

/* Adds one SKU's rates, one per service region. false when out of memory. */
static bool read_sku(struct gcp_book *b, struct norm *out, const cJSON *s)
{
	const cJSON *cat = cJSON_GetObjectItemCaseSensitive(s, "category");
	const char *usage = pj_str(cat, "usageType");
	const char *desc = pj_str(s, "description");
	struct gcp_rate r = {.spot = !strcmp(usage, "Preemptible")};
	/* The term is the usageType's; a commitment SKU of any other kind
	 * ("Commitment: Compute optimized …", Commit1Mo) is not read. */
	const char *term = !strcmp(usage, "Commit1Yr")   ? "1y"
	                   : !strcmp(usage, "Commit3Yr") ? "3y"
	                                                 : "";
	bool commit = *term && !strncmp(desc, commit_prefix, sizeof commit_prefix - 1);
	if (commit) {
		snprintf(r.term, sizeof r.term, "%s", term);
		desc += sizeof commit_prefix - 1;
	} else if (!r.spot && strcmp(usage, "OnDemand"))
		return true;
	if (!classify(desc, !strcmp(pj_str(cat, "resourceGroup"), "GPU"), commit, &r.part, r.name,
	              sizeof r.name, &r.spot))
		return true;
	r.usd = unit_price(s, r.part == PART_RAM ? "GiBy.h" : "h");
	if (!(r.usd > 0)) {
		out->skipped++;
		return true;
	}
	const cJSON *reg;
	cJSON_ArrayForEach(reg, cJSON_GetObjectItemCaseSensitive(s, "serviceRegions"))
	{
		if (!cJSON_IsString(reg) || strlen(reg->valuestring) >= sizeof r.region)
			continue;
		snprintf(r.region, sizeof r.region, "%s", reg->valuestring);
		if (!book_add(b, &r))
			return false;
	}
	return true;
}

/* Prices every shape that uses GPU rate g, in g's region. */
static void price_shapes(const struct gcp_book *b, struct norm *out, const struct gcp_rate *g)
{
	for (size_t i = 0; i < N_SHAPES; i++) {
		const struct gcp_shape *s = &shapes[i];
		/* a shape sold only as spot is never committed to either */
		if (strcasecmp(s->gpu_sku, g->name) || (s->spot_only && !g->spot))
			continue;
		const char *family = *g->term ? commit_family(s->family) : s->family;
		const struct gcp_rate *core = book_find(b, PART_CORE, family, g->region, g);
		const struct gcp_rate *ram = book_find(b, PART_RAM, family, g->region, g);
		if (!core || !ram) {
			/* the VM's vCPUs or memory are not priced here, or not on
			 * this term: no price rather than a mixed one */
			out->skipped++;
			continue;
		}
		struct raw_offer r = {
			.offer = s->machine,
			.region = g->region,
			.gpu_name = s->gpu,
			.gpu_count = s->gpus,
			.vcpus = s->vcpus,
			.ram_gib = s->ram_gib,
			.price = s->gpus * g->usd + s->vcpus * core->usd + s->ram_gib * ram->usd,
			.spot = g->spot,
			.available = true,
		};
		if (*g->term)
			norm_term(out, &r, g->term, "", 0); /* billed hourly, no upfront */
		else
			norm_offer(out, &r);
	}
}

/* Turns the rates into offers and terms; a GPU SKU no shape uses is
 * reported (its on-demand or spot SKU; its commitments say no more). */
static void compose(const struct gcp_book *b, struct norm *out)
{
	for (size_t k = 0; k < b->n; k++) {
		const struct gcp_rate *g = &b->r[k];
		if (g->part != PART_GPU)
			continue;
		bool known = false;
		for (size_t i = 0; i < N_SHAPES && !known; i++)
			known = !strcasecmp(shapes[i].gpu_sku, g->name);
		if (!known && *g->term)
			continue;
		if (!known) {
			char label[96];
			snprintf(label, sizeof label, "%s (no GCP machine shape)", g->name);
			norm_gpu(out, label, 0);
			continue;
		}
		price_shapes(b, out, g);
	}
}

/* What the SKUs of one page or every page are read into. */
struct gcp_read {
	struct gcp_book book;
	struct norm *out;
	struct fetch_ctx *fx; /* a fetch's; NULL in parse */
	size_t page_start;    /* the rates before the page being read */
};

/* One SKU of a page's "skus" list (json_item_fn; ud is the gcp_read). */
static int sku_item(void *ud, const cJSON *s, char **err)
{
	struct gcp_read *g = ud;
	if (read_sku(&g->book, g->out, s))
		return PLANNER_OK;
	g->out->oom = true;
	return set_err(err, PLANNER_ESYS, "out of memory");
}

/* One page alone, read by the same streaming reader a refresh uses: its
 * GPU, core and RAM SKUs priced together. */
static int parse(struct norm *out, const char *body, size_t len, char **next, char **err)
{
	struct gcp_read g = {.out = out};
	int rc = provider_parse_page(body, len, "skus", "nextPageToken", sku_item, &g, next, err);
	if (rc == PLANNER_OK)
		compose(&g.book, out);
	book_free(&g.book);
	return rc;
}

/* The next page (provider_pages.follow): the first query with the page's
 * nextPageToken; none ends the list. */
static int follow(void *ud, const char *token, size_t items, char **next, char **err)
{
	struct gcp_read *g = ud;
	(void)items;
	g->page_start = g->book.n;
	*next = NULL;
	if (!token || !*token)
		return PLANNER_OK;
	char *esc = http_escape(token);
	*next = esc ? xasprintf("%s%s&pageToken=%s", g->fx->base, skus_path, esc) : NULL;
	free(esc);
	return *next ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
}

/* A retried page (provider_pages.reset): its attempt's rates go. */
static void page_reset(void *ud)
{
	struct gcp_read *g = ud;
	g->book.n = g->page_start;
}

static int fetch(struct fetch_ctx *fx, char **err)
{
	char *url = provider_url(fx, skus_path);
	/* The key goes in a header, not ?key=, so it is in no URL or log. */
	char *hdr = xasprintf("X-Goog-Api-Key: %s", fx->key ? fx->key : "");
	struct gcp_read g = {.out = fx->out, .fx = fx};
	int rc;
	if (!url || !hdr) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s/v1/services/6F81-5844-456A/skus",
		 fx->base);
	/* Streamed, a SKU at a time: a page of thousands of SKUs was a cJSON
	 * tree several times its size (issue 16); only the book of rates is
	 * kept across pages. */
	struct provider_pages pages = {.url = url,
	                               .auth = hdr,
	                               .list = "skus",
	                               .next = "nextPageToken",
	                               .fn = sku_item,
	                               .ud = &g,
	                               .follow = follow,
	                               .reset = page_reset,
	                               .max_pages = GCP_MAX_PAGES};
	rc = provider_stream_pages(fx, &pages, err);
	if (rc == PLANNER_OK)
		compose(&g.book, fx->out); /* a VM's SKUs may sit on different pages */
out:
	book_free(&g.book);
	free(url);
	free(hdr);
	return rc;
}

const struct provider provider_gcp = {
    .name = "gcp",
    .kind = PROVIDER_RENTED,
    .own_datacentres = true,
    .base_url = "https://cloudbilling.googleapis.com",
    .key_env = "GCP_API_KEY",
    .summary = "Google Cloud GPU VMs (GPU + vCPU + memory SKUs), on-demand, spot and 1-/3-year "
               "commitments",
    .terms = true,
    .fetch = fetch,
    .parse = parse,
};
