/* normalise.h — the one normaliser: every adapter hands it what its feed
 * says, in the feed's own units, and gets back rows in the store's shape
 * (canonical GPU through the refdata alias table, VRAM per GPU in GiB,
 * USD per instance-hour, spot flag, region, fetched-at). Names no alias
 * matches are collected for the report, never guessed. */
#ifndef PLANNER_NORMALISE_H
#define PLANNER_NORMALISE_H

#include <stdbool.h>
#include <stddef.h>

#include "refdata.h"
#include "store.h"

/* Distinct unknown GPU names kept for the report; more are only counted. */
#define NORM_MAX_UNKNOWN 16

/* Lookups remembered by norm_gpu. */
#define NORM_CACHE 16

/* Regions remembered by norm_offer with their place (a direct-mapped
 * table by a hash of the name): a feed names a few hundred regions over
 * and over (Vast.ai's geolocations), and the region tables' walk was an
 * eighth of reading 200,000 Vast.ai offers (issue 16). */
#define NORM_REGION_CACHE 128

/* Units feeds use for memory. Vast's "MB" are MiB (an RTX 4090 reports
 * 24564, i.e. 23.99 GiB); "GB" in descriptions are decimal marketing GB. */
#define NORM_MIB_PER_GIB 1024.0
#define NORM_BYTES_PER_GB 1e9
#define NORM_BYTES_PER_GIB 1073741824.0

/* A feed's VRAM figure further than this from the matched part's is a
 * different part of the same family (A100 40 GB vs 80 GB, V100 16 vs 32):
 * the largest gap between a marketing "GB" and the real GiB is about 7 %
 * (80 GB → 74.5 GiB), the smallest gap between sizes of one family 15 %
 * (H100 SXM 80 GB vs H100 NVL 94 GB). */
#define NORM_VRAM_TOLERANCE 0.12

/* Prices above these are a unit mix-up or a broken row, never an offer:
 * the dearest machines listed anywhere (8 B200 or H200 on AWS, Azure, GCP)
 * cost about 110 USD an hour, and the dearest API price (o1-pro output)
 * is 600 USD per million tokens; both caps leave a margin of over ten. */
#define NORM_MAX_PRICE_PER_HOUR 2000.0
#define NORM_MAX_PRICE_PER_TOKEN 0.01

/* Plausibility bounds (issue 12): a row outside them is a broken or
 * hostile feed, never an offer, and is counted as implausible.
 *
 * NORM_MAX_GPUS_PER_OFFER: the largest instance any feed lists is GCP's
 * a2-megagpu-16g with 16 A100 40GB (tests/fixtures/real/gcp/
 * cyclenerd-machinetypes.gpu-families.excerpt.csv, from
 * github.com/Cyclenerd/google-cloud-compute-machine-types, retrieved
 * 2026-11-30); AWS p4d/p5, Azure ND and Lambda 8x nodes hold 8, and the
 * bundled snapshot's largest offer (schema/snapshot.json) holds 8.
 *
 * NORM_MIN_PRICE_PER_GPU_HOUR: no GPU rents for under a cent an hour; the
 * cheapest in the bundled snapshot is a Vast.ai RTX 3090 at 0.12 USD per
 * GPU-hour (schema/snapshot.json, as of 2026-08), and the oldest cards
 * Vast.ai lists (GTX 10-series) rent for a few cents (unconfirmed).
 *
 * NORM_MIN_PRICE_PER_TOKEN: a price above 0 but below 0.0001 USD per
 * million tokens. The cheapest priced model in the recorded OpenRouter
 * response is 1e-8 USD per token (inclusionai/ling-2.6-flash input,
 * tests/fixtures/real/openrouter/api-v1-models.2026-08-01.json), in the
 * recorded LiteLLM table 1e-9 (an image model,
 * tests/fixtures/real/litellm/model_prices_and_context_window.2026-07-24.
 * excerpt.json); the bound is ten times below both. A price of exactly 0
 * is the adapter's to judge (a free tier). The upper bounds are
 * NORM_MAX_PRICE_PER_HOUR and NORM_MAX_PRICE_PER_TOKEN above. */
#define NORM_MAX_GPUS_PER_OFFER 16
#define NORM_MIN_PRICE_PER_GPU_HOUR 0.01
#define NORM_MIN_PRICE_PER_TOKEN 1e-10

struct fx_table;

/* Where offers go as they are made instead of being held (issue 16): a
 * refresh hands norm a sink, and the adapters' streaming reader
 * (provider_stream_json) passes each batch of NORM_FLUSH_ROWS rows on with
 * norm_flush. Without a sink every row stays in norm.offers. */
struct norm_sink {
	/* Takes n rows; PLANNER_OK or an error with *err set. */
	int (*put)(void *ud, const struct offer *rows, size_t n, char **err);
	/* Forgets every row it took after the first `keep`. */
	int (*drop)(void *ud, size_t keep, char **err);
	void *ud;
};

/* Rows a streamed feed holds before handing them to the sink: enough that
 * a batch costs one call, few enough (256 x 560 bytes) to be nothing. */
#define NORM_FLUSH_ROWS 256

/* Rows collected from one provider's fetch. */
struct norm {
	const struct refdata *ref; /* alias table and GPU specs (borrowed) */
	const char *provider;      /* adapter name (borrowed, static) */
	bool own_datacentres;      /* the adapter's own_datacentres (norm_init) */
	const char *key;           /* the provider's key (borrowed), never stored: every
	                            * text field is passed through text_sanitize with it */
	char fetched_at[24];       /* stamped on every row */
	char source[160];          /* stamped on every row; set by the adapter */
	struct offer *offers;      /* owned */
	size_t n_offers, cap_offers;
	struct offer_term *terms;  /* commitments (norm_term; owned, never flushed) */
	size_t n_terms, cap_terms;
	struct api_price *apis;    /* owned */
	size_t n_apis, cap_apis;
	char *unknown[NORM_MAX_UNKNOWN]; /* distinct unknown GPU names (owned) */
	size_t n_unknown;
	size_t unknown_rows;       /* rows dropped for an unknown GPU */
	size_t skipped;            /* rows dropped for missing, zero or malformed fields */
	size_t implausible;        /* rows dropped outside the plausibility bounds above */
	bool oom;                  /* an allocation failed; rows are incomplete */
	struct fx_table *fx;       /* exchange rates (the ecb feed only; owned) */
	const struct norm_sink *sink; /* NULL: rows stay in offers (borrowed) */
	size_t flushed;            /* offers handed to the sink already (not in offers) */
	bool sink_failed;          /* the sink could not drop rows (norm_truncate) */
	/* The last lookups of norm_gpu: a feed names a handful of parts over
	 * and over (50,000 Vast offers, a dozen GPU models), and the alias
	 * table walk is the costliest step per row. */
	struct {
		char name[64];
		double vram_gib;
		const struct gpu_spec *gpu; /* NULL: known unknown */
	} cache[NORM_CACHE];
	size_t cache_next;
	struct {
		char region[64]; /* as in offer.region; "" unused */
		char country[4], region_group[16];
	} places[NORM_REGION_CACHE];
	/* source as text_sanitize left it, for source_raw */
	char source_raw[160], source_clean[160];
	const char *source_key;    /* the key source_clean was made with */
};

/* One offer as the feed states it. */
struct raw_offer {
	const char *offer;    /* offer id / instance type (required) */
	const char *region;   /* NULL or "" when none; the provider's own name */
	const char *tier;     /* NULL, or RunPod's "secure" / "community" */
	const char *gpu_name; /* the feed's spelling (required) */
	int gpu_count;        /* GPUs in the instance (> 0) */
	double vram_gib;      /* per GPU as the feed states it, converted to GiB; 0 unknown */
	double vcpus, ram_gib;
	double price;         /* per hour in currency: per instance, or per GPU when per_gpu */
	bool per_gpu;         /* the feed prices one GPU; multiplied by gpu_count */
	bool spot;
	bool available;
	const char *currency; /* ISO 4217 of price, as published; NULL or "" is USD */
	/* Who hosts it, as the feed says: NORM_HOST_UNKNOWN counts as a
	 * marketplace host unless the provider runs only its own data
	 * centres (provider.h, own_datacentres). */
	enum norm_host { NORM_HOST_UNKNOWN, NORM_HOST_MARKETPLACE, NORM_HOST_DATACENTRE } host;
};

/* Sets up n for one provider; fetched_at is now. Can't fail. */
void norm_init(struct norm *n, const struct refdata *ref, const char *provider);
/* Frees what n owns; accepts NULL. */
void norm_free(struct norm *n);
/* Drops rows back to offers in all (the sink's included) and n_apis =
 * apis (a retried stream). When the sink cannot drop its rows,
 * n->sink_failed is set. */
void norm_truncate(struct norm *n, size_t offers, size_t apis);
/* Offers made so far: those handed to the sink and those held. */
size_t norm_offers_total(const struct norm *n);
/* Hands the rows held to the sink (none: nothing to do); PLANNER_OK or
 * the sink's error. */
int norm_flush(struct norm *n, char **err);

/* The canonical GPU for a feed's name and, when known (> 0), its VRAM per
 * GPU: a name that matches a part of the wrong memory size is moved to the
 * family member whose memory fits. NULL when none fits; the name is then
 * recorded as unknown. */
const struct gpu_spec *norm_gpu(struct norm *n, const char *name, double vram_gib);

/* Every text a feed gives (offer id, region, tier, model id, unknown GPU
 * names) is stored through text_sanitize (util.h): valid UTF-8, no control
 * characters, n->key never kept. */

/* Adds one offer, located: its country and region group come from the
 * region tables (regions_locate_offer), never from an adapter. Returns true when added; false when dropped (unknown
 * GPU, missing id, non-positive count, price not above 0 — counted in
 * skipped; more than NORM_MAX_GPUS_PER_OFFER GPUs, under
 * NORM_MIN_PRICE_PER_GPU_HOUR a GPU, or over NORM_MAX_PRICE_PER_HOUR —
 * counted in implausible) or on out of memory (n->oom set). */
bool norm_offer(struct norm *n, const struct raw_offer *r);

/* Adds one commitment of the offer r (store.h, struct offer_term): term
 * "1y" or "3y", paid by option (may be "" or NULL), r->price its recurring
 * hourly rate and upfront its fee paid at the start, both in r->currency.
 * Its effective hourly price is the rate plus the upfront over the term's
 * hours; the row is then checked as norm_offer checks an offer. Counted
 * in skipped, never kept as anything else: a term that is neither (a
 * commitment with no term), a currency the exchange rates do not know, a
 * negative or non-finite rate or fee. */
bool norm_term(struct norm *n, const struct raw_offer *r, const char *term, const char *option,
               double upfront);

/* Adds one per-token API price (USD per token), with its host's
 * jurisdiction (regions_locate_api). Negative or non-finite prices are
 * dropped and counted in skipped; prices above NORM_MAX_PRICE_PER_TOKEN,
 * or above 0 and below NORM_MIN_PRICE_PER_TOKEN, in implausible. */
bool norm_api(struct norm *n, const char *model, double in_per_token, double out_per_token,
	      long context);

/* Parses a decimal string or number-like text ("0.00000015", "12.24")
 * into *v; false when s is NULL, empty or not wholly a finite number. */
bool norm_number(const char *s, double *v);

#endif
