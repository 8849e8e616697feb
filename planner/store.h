/* store.h — the one SQLite store. Every SQL statement of the program lives
 * in store.c and its parts store_offers.c, store_stage.c, store_api.c,
 * store_runs.c and store_check.c (store_int.h), prepared and bound. The schema (schema/schema.sql, compiled
 * in) is versioned with PRAGMA user_version and migrated forward on open.
 * A new database is seeded with the reference data and the bundled price
 * snapshot, so the planner works before any `planner refresh`. */
#ifndef PLANNER_STORE_H
#define PLANNER_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "refdata.h"

/* The schema version this build writes (PRAGMA user_version). */
#define STORE_SCHEMA_VERSION 12

/* Provider name of rows that came from the bundled snapshot. */
#define STORE_SNAPSHOT_SOURCE "snapshot"

struct store;

/* The columns of a rented offer, one row each: the fields of struct
 * offer, the columns of the offers table, and all that the store does
 * with them (store_int.h: the SQL column lists, binds, reads, a refresh's
 * change test and content hash) and `offers --format json` (cmd_offers.c)
 * follow from this list. A new column is a row at the end, its column in
 * schema/schema.sql with a migration (store.c), and nothing else
 * (tests/check_offer_columns.c holds the rest to the list). The rows are
 * in the table's order (a migration's ALTER TABLE adds a column last):
 * SQLite copies every value of an INSERT whose columns are in another.
 *
 *   X(name, type, size, role, empty, json, json_at)
 *   type    TEXT (char[size]), INT (int), REAL (double) or BOOL (bool)
 *   role    PROVIDER: whose offer it is, bound once per statement, the
 *           first row; KEY: with it, the primary key; DATE: fetched_at,
 *           '' when the provider's offer_dates date; DATA: what a refresh
 *           compares, so a change rewrites the row
 *   empty   what an empty text is stored as ("": itself)
 *   json    as_is; round2 (to 2 decimals); published (the price and
 *           currency as published, not as converted, cmd_offers.c)
 *   json_at its place among the JSON's keys, 0 first: each once */
#define OFFER_COLUMNS(X)                                                                           \
	X(provider, TEXT, 32, PROVIDER, "", as_is, 0) /* adapter name: "lambda", "vast", … */    \
	X(offer, TEXT, 128, KEY, "", as_is, 1)        /* offer id / instance type */               \
	X(region, TEXT, 64, KEY, "", as_is, 9)        /* provider's region name; "" when none */   \
	X(spot, BOOL, 0, KEY, "", as_is, 7)           /* interruptible / preemptible price */      \
	X(gpu, TEXT, 48, DATA, "", as_is, 2)          /* canonical GPU name (refdata aliases) */   \
	X(gpu_count, INT, 0, DATA, "", as_is, 3)      /* GPUs in the instance */                   \
	X(vram_gib, REAL, 0, DATA, "", round2, 4)     /* per GPU */                                \
	X(vcpus, REAL, 0, DATA, "", as_is, 15)        /* 0 when unknown */                         \
	X(ram_gib, REAL, 0, DATA, "", as_is, 16)      /* 0 when unknown */                         \
	X(price_per_hour, REAL, 0, DATA, "", published, 5) /* per instance-hour, in currency */    \
	X(available, BOOL, 0, DATA, "", as_is, 8)          /* capacity reported available */       \
	X(fetched_at, TEXT, 24, DATE, "", as_is, 17)       /* ISO 8601 UTC */                      \
	X(source, TEXT, 160, DATA, "", as_is, 18)          /* URL or feed, and date */             \
	X(country, TEXT, 4, DATA, "", as_is, 10)           /* ISO 3166-1 alpha-2; "" unknown */    \
	X(region_group, TEXT, 16, DATA, "", as_is, 11)  /* "eu", "us", "asia", …; "" unknown */  \
	X(tier, TEXT, 16, DATA, "", as_is, 12)          /* RunPod's "secure" / "community"; "" */  \
	X(estimated, BOOL, 0, DATA, "", as_is, 14)      /* not confirmed at the provider itself */ \
	X(currency, TEXT, 4, DATA, "USD", published, 6) /* ISO 4217 of price_per_hour */        \
	X(marketplace, BOOL, 0, DATA, "", as_is, 13) /* a marketplace or community host, not the \
	                                              * provider's own data centre (normalise.h) */ \
	X(fabric, TEXT, 16, DATA, "", as_is, 19) /* joins instances: "efa", "infiniband", "roce"; \
	                                          * "" single-node only (fabric.h) */             \
	X(fabric_gbps, REAL, 0, DATA, "", as_is, 20) /* that fabric per GPU, Gb/s; 0 = none */

/* A field of struct offer from its row of OFFER_COLUMNS. */
#define OFFER_FIELD(name, type, size, role, empty, json, json_at) OFFER_FIELD_##type(name, size)
#define OFFER_FIELD_TEXT(name, size)                              char name[size];
#define OFFER_FIELD_INT(name, size)                               int name;
#define OFFER_FIELD_REAL(name, size)                              double name;
#define OFFER_FIELD_BOOL(name, size)                              bool name;

/* One rentable offer, normalised (docs/design.md, "Adapters"). */
struct offer {
	OFFER_COLUMNS(OFFER_FIELD)
	/* Set by fx_convert_offers when price_per_hour is converted: the
	 * price and currency as published. Not stored. */
	double price_published;
	char currency_published[4];
};

/* A commitment: a 1- or 3-year reserved, savings-plan or committed-use
 * price of an offer (table offer_terms, schema 11). o.price_per_hour is
 * the effective hourly price over the term (the recurring rate plus the
 * upfront spread over the term's hours), in o.currency; o.spot is false. */
struct offer_term {
	struct offer o;
	char term[4];    /* "1y" or "3y" */
	char option[32]; /* how it is paid: "No Upfront", "All Upfront", …; "" one way */
	double upfront;  /* paid once at the start, in o.currency; 0 none */
};

/* The hours a term bills: a reserved instance bills every hour of it
 * (AWS: a 1-year term is 31,536,000 seconds, a 3-year 94,608,000, "Reserved
 * Instance term", docs.aws.amazon.com/AWSEC2/latest/UserGuide/
 * reserved-instances-types.html, read 2026-12-02; Azure reservations are
 * 8,760 and 26,280 hours). 0 for a term that is neither "1y" nor "3y". */
double offer_term_hours(const char *term);

/* The hours a month a commitment bills: a year's 8,760 over 12 months. */
#define OFFER_TERM_HOURS_PER_MONTH 730.0

/* The fixed month of `instances` instances of commitment t: its effective
 * hourly price x OFFER_TERM_HOURS_PER_MONTH each. */
double offer_term_month(const struct offer_term *t, int instances);

/* Long-prompt tiers one API price may have: OpenRouter lists up to two
 * (qwen/qwen3-max, 32000 and 128000, 2026-08-01), LiteLLM one per entry. */
#define API_MAX_TIERS 4

/* A long-prompt tier: a request whose prompt is longer than `above` tokens
 * is billed at these prices for its prompt and its completion (OpenRouter
 * pricing.overrides min_prompt_tokens, LiteLLM *_above_<N>k_tokens). */
struct api_tier {
	long above;              /* prompt tokens; the tier holds above this */
	double input_per_token;  /* in the price's currency */
	double output_per_token; /* in the price's currency */
};

/* One per-token API price. */
struct api_price {
	char provider[32];       /* feed: "openrouter", "litellm", … */
	char model[128];         /* "vendor/model", e.g. "openai/gpt-4o-mini" */
	double input_per_token;  /* in currency */
	double output_per_token; /* in currency */
	long context;            /* context length, tokens; 0 when unknown */
	char fetched_at[24];
	char source[160];
	char country[4];       /* where the host processes data; "" unknown (regions.h) */
	char region_group[16]; /* "eu", "us", …; "" unknown */
	bool estimated;        /* price not confirmed at the host itself */
	/* Long-prompt tiers, ascending by `above`; the prices above hold for
	 * prompts up to tiers[0].above (api_price_for_prompt). */
	struct api_tier tiers[API_MAX_TIERS];
	int n_tiers;
	char currency[4];             /* ISO 4217 the prices are published in */
	char jurisdiction[4];         /* country whose law the host is under; "" unknown */
	double cache_read_per_token;  /* cached input read; 0 when none listed */
	double cache_write_per_token; /* input written to the cache; 0 when none listed */
};

/* The tier a request of `prompt` tokens is billed at: the last tier whose
 * `above` it exceeds, or NULL for the base prices. */
const struct api_tier *api_price_tier(const struct api_price *a, double prompt);

/* Filters for store_offers; zero/NULL fields do not filter. */
struct offer_filter {
	const char *gpu;        /* canonical GPU name */
	const char *provider;   /* one provider */
	double min_vram_gib;    /* per GPU */
	double max_price;       /* USD per hour */
	int spot;               /* -1 any, 0 on-demand only, 1 spot only */
	bool available_only;
	const char *region; /* a group ("eu"), a country code or a provider's region name */
};

/* Freshness of one provider's rows. */
struct provider_state {
	char name[32];
	char kind[8];             /* "rented" or "api" */
	char last_good[24];       /* ISO time of the last good refresh; "" never */
	char last_attempt[24];    /* ISO time of the last attempt; "" never */
	char last_status[16];     /* "ok", "failed", "skipped", "" */
	char last_error[256];
	long rows;                /* rows held now */
	char prices_as_of[24];    /* its oldest row's date, the one compare names
	                           * (else last_good; "" never) */
	bool from_snapshot;       /* the rows are the bundled snapshot's */
};

/* Default database path: $PLANNER_DB, else $XDG_DATA_HOME/planner/prices.db,
 * else $HOME/.local/share/planner/prices.db, into *out (malloc'd). With
 * none of the three set (HOME unset or empty, as under some cron or
 * systemd setups) PLANNER_EUSAGE and *err: never the current directory,
 * silently. PLANNER_ESYS when out of memory. */
int store_default_path(char **out, char **err);

/* Opens (creating the file and its directory if needed) and migrates the
 * database; seeds reference data and the snapshot into a new one. Returns
 * PLANNER_OK, or PLANNER_EDB (PLANNER_ESYS when out of memory) with *err
 * set. Every other store call that fails returns the same two codes. */
int store_open(const char *path, const struct refdata *ref, struct store **out, char **err);
/* Closes the database and frees st; accepts NULL. */
void store_close(struct store *st);

/* Offers matching f, cheapest first (ties: provider, offer). *out is a
 * malloc'd array the caller frees. */
int store_offers(struct store *st, const struct offer_filter *f, struct offer **out, size_t *n,
		 char **err);

/* Called by store_offers_each with each row in turn (o is reused: copy
 * what is kept); a non-zero return stops the walk and is returned. */
typedef int (*store_offer_fn)(void *ctx, const struct offer *o, char **err);
/* The rows of store_offers one at a time, in no particular order: no
 * array of every row and no sort of them (compare keeps a few hundred of
 * 100,000 and sorts those; issue 16). */
int store_offers_each(struct store *st, const struct offer_filter *f, store_offer_fn fn, void *ctx,
		      char **err);

/* API prices for `model` ("vendor/model"; NULL for all), cheapest blended
 * first: the id itself, and for an open model every hosted copy whose id
 * has the same key (api_model.h; "llama-3.1-70b" finds
 * "deepinfra/meta-llama/Meta-Llama-3.1-70B-Instruct"). *out is malloc'd. */
int store_api_prices(struct store *st, const char *model, struct api_price **out, size_t *n,
		     char **err);

/* The newest fetched_at over all price rows, into buf ("" when none). */
int store_prices_as_of(struct store *st, char *buf, size_t len, char **err);

/* The bundled snapshot's date per provider still on it, oldest row of
 * each: "lambda 2026-08-11, openrouter 2025-10-03" ("" when no provider's
 * rows are the snapshot's). */
int store_snapshot_dates(struct store *st, char *buf, size_t len, char **err);

/* store_offers_each of the available offers, and from the same read of the
 * offers table store_prices_as_of (into as_of) and store_snapshot_dates
 * (into snap): compare read the table three times (issue 16: the two
 * dates were half of pricing 10 jobs against 100,000 rows). */
int store_offers_dated(struct store *st, store_offer_fn fn, void *ctx, char *as_of,
		       size_t as_of_len, char *snap, size_t snap_len, char **err);

/* Each known provider's freshness (snapshot rows included). *out malloc'd. */
int store_providers(struct store *st, struct provider_state **out, size_t *n, char **err);

/* Replaces all of `provider`'s offers with rows in one transaction, adds a
 * price_history row for each offer whose price is new or changed and a
 * gone row for each offer no longer in rows, and marks the provider fresh.
 * On error nothing changes. */
int store_replace_offers(struct store *st, const char *provider, const struct offer *rows,
			 size_t n, char **err);
/* A provider's offers written as a feed streams (store_stage.c): open,
 * put rows in batches as they are made, apply once the feed was read
 * whole, free always. apply replaces the provider's offers by the staged
 * rows exactly as store_replace_offers does (history, gone rows, fresh
 * mark; the last row of a duplicate key wins, *dups gets how many were
 * dropped) in one transaction; a stage freed without apply changes
 * nothing. The staged rows live in a TEMP table, not in memory. */
struct store_stage;
int store_stage_open(struct store *st, const char *provider, struct store_stage **out,
		     char **err);
int store_stage_put(struct store_stage *sg, const struct offer *rows, size_t n, char **err);
/* Forgets every staged row after the first `keep` (a retried download). */
int store_stage_drop(struct store_stage *sg, size_t keep, char **err);
/* Rows staged (after apply: stored). */
size_t store_stage_rows(const struct store_stage *sg);
/* The provider's commitments (none: n = 0), replacing its stored ones in
 * the write that store_stage_apply makes of its offers: both or neither.
 * rows stay the caller's until the apply. */
void store_stage_terms(struct store_stage *sg, const struct offer_term *rows, size_t n);
int store_stage_apply(struct store_stage *sg, size_t *dups, char **err);
void store_stage_free(struct store_stage *sg);
/* Same for API prices. */
/* Replaces provider's commitments by the n rows (none: deletes them). */
int store_replace_terms(struct store *st, const char *provider, const struct offer_term *rows,
                        size_t n, char **err);
/* The commitments of term ("1y" / "3y"; NULL: both), cheapest effective
 * hourly price first; *out is malloc'd (NULL when none). */
int store_read_terms(struct store *st, const char *term, struct offer_term **out, size_t *n,
                     char **err);

int store_replace_api_prices(struct store *st, const char *provider,
			     const struct api_price *rows, size_t n, char **err);

/* Records one refresh attempt of a provider (refresh_runs). status is "ok",
 * "failed" or "skipped"; http_status 0 when no response; error may be NULL. */
int store_record_run(struct store *st, const char *provider, const char *kind,
		     const char *started_at, const char *ended_at, const char *status, long rows,
		     long http_status, const char *error, char **err);

/* The underlying handle, for tests only. */
struct sqlite3 *store_handle(struct store *st);

/* One price_history row: an offer's price when it first appeared or
 * changed (store_replace_offers writes these). */
struct price_point {
	char provider[32];
	char offer[128];
	char region[64];
	bool spot;
	char gpu[48];          /* canonical GPU name */
	int gpu_count;
	double price_per_hour; /* per instance-hour, in currency */
	char recorded_at[24];  /* ISO 8601 UTC: the refresh's fetched_at */
	bool gone;             /* the offer vanished from its feed at recorded_at
	                        * (price_per_hour is its last price) */
	char currency[4];      /* ISO 4217 of price_per_hour, as recorded */
};

/* Price-history rows of one GPU (canonical name; NULL for every GPU) and
 * one provider (NULL for all), ordered by gpu, recorded_at, provider,
 * offer. *out is a malloc'd array the caller frees (NULL when n is 0). */
int store_price_history(struct store *st, const char *gpu, const char *provider,
			struct price_point **out, size_t *n, char **err);

/* The same rows, in the same order, handed one at a time to fn (row is
 * valid during the call only), so the caller's memory need not grow with
 * the history (store_history.c). Stops at fn's first status other than
 * PLANNER_OK and returns it (fn sets *err); else PLANNER_OK, or
 * PLANNER_EDB/ESYS with *err set when the read fails. */
typedef int (*store_point_fn)(const struct price_point *row, void *arg, char **err);
int store_each_price_point(struct store *st, const char *gpu, const char *provider,
			   store_point_fn fn, void *arg, char **err);

struct fx_table;

/* Replaces the stored exchange rates by t's, in one transaction, and marks
 * provider (the ecb step) fresh; NULL when seeding from the snapshot
 * (store_fx.c). */
int store_replace_fx(struct store *st, const char *provider, const struct fx_table *t,
                     char **err);
/* The stored exchange rates into t (zeroed first; t->n 0 when none). */
int store_read_fx(struct store *st, struct fx_table *t, char **err);

/* The refresh lock: one `planner refresh` per database at a time. An
 * flock on "<db>.lock", so a crashed refresh never leaves it held.
 * Readers (compare, offers) never take it; WAL lets them read meanwhile. */
struct store_lock;
/* Takes the lock, waiting up to wait_ms for another refresh to finish.
 * PLANNER_OK with *out set, or PLANNER_EDB with *err set ("another planner
 * refresh is using DB; try again when it ends"). */
int store_lock_refresh(struct store *st, long wait_ms, struct store_lock **out, char **err);
/* Releases the lock; accepts NULL. */
void store_unlock_refresh(struct store_lock *lk);

#endif
