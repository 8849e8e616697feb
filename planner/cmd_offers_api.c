/* cmd_offers_api.c — `planner offers --api` (cmd_offers.c): the per-token
 * API prices kept by provider and region, converted from each row's
 * currency, ordered by the converted price and printed as a table, JSON
 * or CSV. The command layer only. */
#include "cmd_offers.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fx.h"
#include "regions.h"
#include "util.h"

/* The API table's columns at full width: a narrower terminal gets the
 * model's id cut to MODEL_COLS_NARROW and long-prompt tiers on a line of
 * their own. */
#define API_FULL_COLUMNS  94
#define MODEL_COLS        44
#define MODEL_COLS_NARROW 34

/* One API price in the table, at rate units of currency per USD. */
static void api_row(const struct api_price *a, double rate, bool narrow, bool cur, bool cached)
{
	char model[sizeof a->model];
	printf("%-11.11s %-*.*s %11.3f %12.3f %7ld", a->provider,
	       narrow ? MODEL_COLS_NARROW : MODEL_COLS, narrow ? MODEL_COLS_NARROW : MODEL_COLS,
	       cli_safe(model, sizeof model, a->model), a->input_per_token * 1e6 * rate,
	       a->output_per_token * 1e6 * rate, a->context);
	/* Only when some row is published in another currency or lists a
	 * cached-input price: other tables stay as they were. A narrow
	 * terminal gets them on the row's second line, with its tiers. */
	bool more =
	    a->n_tiers || (cur && strcmp(a->currency, "USD")) || a->cache_read_per_token > 0;
	if (narrow && more)
		printf("\n%11s", "");
	if (narrow && cur && strcmp(a->currency, "USD"))
		printf("  published in %s", a->currency);
	else if (cur && !narrow)
		printf(" %-3s", a->currency);
	if (narrow && a->cache_read_per_token > 0)
		printf("  cached %.3f", a->cache_read_per_token * 1e6 * rate);
	else if (cached && !narrow && a->cache_read_per_token > 0)
		printf(" %10.3f", a->cache_read_per_token * 1e6 * rate);
	else if (cached && !narrow)
		printf(" %10s", "-");
	/* Long-prompt tiers: prompts over N tokens pay in/out. */
	for (int t = 0; t < a->n_tiers; t++)
		printf("  >%ld: %.3f/%.3f", a->tiers[t].above,
		       a->tiers[t].input_per_token * 1e6 * rate,
		       a->tiers[t].output_per_token * 1e6 * rate);
	putchar('\n');
}

/* Adds x's cached-input prices, null when the feed lists none. */
static void add_cache_json(cJSON *x, const char *key, double per_token, double rate)
{
	if (per_token > 0)
		cJSON_AddNumberToObject(x, key, round_to(per_token * 1e6 * rate, 6));
	else
		cJSON_AddNullToObject(x, key);
}

/* layout: long function — the table, JSON and CSV of one list, over the
 * same order and the same currency conversion. */
int offers_api_print(const struct cli *c, const struct api_price *a, size_t n, size_t limit,
                     const char *currency, const double *rate)
{
	if (limit == 0 || limit > n)
		limit = n;
	bool cur = false, cached = false;
	for (size_t i = 0; i < limit; i++) {
		cur = cur || strcmp(a[i].currency, "USD");
		cached = cached || a[i].cache_read_per_token > 0;
	}
	if (c->format == FORMAT_JSON) {
		cJSON *arr = cJSON_CreateArray();
		for (size_t i = 0; i < limit; i++) {
			cJSON *x = cJSON_CreateObject();
			cJSON_AddStringToObject(x, "provider", a[i].provider);
			cJSON_AddStringToObject(x, "model", a[i].model);
			cJSON_AddNumberToObject(x, "input_per_mtok",
			                        round_to(a[i].input_per_token * 1e6, 6));
			cJSON_AddNumberToObject(x, "output_per_mtok",
			                        round_to(a[i].output_per_token * 1e6, 6));
			cJSON_AddNumberToObject(x, "context", (double)a[i].context);
			cJSON_AddStringToObject(x, "fetched_at", a[i].fetched_at);
			cJSON_AddStringToObject(x, "source", a[i].source);
			cJSON_AddStringToObject(x, "country", a[i].country);
			cJSON_AddStringToObject(x, "region_group", a[i].region_group);
			cJSON_AddBoolToObject(x, "estimated", a[i].estimated);
			cJSON_AddStringToObject(x, "currency", a[i].currency);
			cJSON_AddStringToObject(x, "jurisdiction", a[i].jurisdiction);
			add_cache_json(x, "cache_read_per_mtok", a[i].cache_read_per_token, 1);
			add_cache_json(x, "cache_write_per_mtok", a[i].cache_write_per_token, 1);
			cJSON *tiers = cJSON_AddArrayToObject(x, "long_prompt");
			for (int t = 0; tiers && t < a[i].n_tiers; t++) {
				cJSON *y = cJSON_CreateObject();
				cJSON_AddNumberToObject(y, "above_tokens",
				                        (double)a[i].tiers[t].above);
				cJSON_AddNumberToObject(
				    y, "input_per_mtok",
				    round_to(a[i].tiers[t].input_per_token * 1e6, 6));
				cJSON_AddNumberToObject(
				    y, "output_per_mtok",
				    round_to(a[i].tiers[t].output_per_token * 1e6, 6));
				cJSON_AddItemToArray(tiers, y);
			}
			/* The published prices are in currency; these in --currency. */
			cJSON *cv = cJSON_AddObjectToObject(x, "converted");
			cJSON_AddStringToObject(cv, "currency", currency);
			cJSON_AddNumberToObject(cv, "input_per_mtok",
			                        round_to(a[i].input_per_token * 1e6 * rate[i], 6));
			cJSON_AddNumberToObject(cv, "output_per_mtok",
			                        round_to(a[i].output_per_token * 1e6 * rate[i], 6));
			add_cache_json(cv, "cache_read_per_mtok", a[i].cache_read_per_token,
			               rate[i]);
			cJSON_AddItemToArray(arr, x);
		}
		return cli_print_json(arr);
	}
	if (c->format == FORMAT_CSV) {
		fputs("provider,model,input_per_mtok,output_per_mtok,context,fetched_at,"
		      "long_prompt,currency\r\n",
		      stdout);
		for (size_t i = 0; i < limit; i++) {
			csv_field(stdout, a[i].provider);
			putchar(',');
			csv_field(stdout, a[i].model);
			printf(",%.6g,%.6g,%ld,%s,", a[i].input_per_token * 1e6,
			       a[i].output_per_token * 1e6, a[i].context, a[i].fetched_at);
			/* "above:in/out" per tier, space-separated: no comma, no quote. */
			for (int t = 0; t < a[i].n_tiers; t++)
				printf("%s%ld:%.6g/%.6g", t ? " " : "", a[i].tiers[t].above,
				       a[i].tiers[t].input_per_token * 1e6,
				       a[i].tiers[t].output_per_token * 1e6);
			printf(",%s\r\n", a[i].currency);
		}
		return PLANNER_OK;
	}
	bool narrow = c->term_width > 0 && c->term_width < API_FULL_COLUMNS;
	char in[24], out[24];
	snprintf(in, sizeof in, "in %s/Mtok", currency);
	snprintf(out, sizeof out, "out %s/Mtok", currency);
	printf("%-11s %-*s %11s %12s %7s", "provider", narrow ? MODEL_COLS_NARROW : MODEL_COLS,
	       "model", in, out, "context");
	if (cur && !narrow)
		printf(" %-3s", "cur");
	if (cached && !narrow)
		printf(" %10s", "cached");
	putchar('\n');
	for (size_t i = 0; i < limit; i++)
		api_row(&a[i], rate[i], narrow, cur, cached);
	if (limit < n)
		printf("(%zu more; --limit 0 shows all)\n", n - limit);
	return PLANNER_OK;
}

/* Keeps the API prices whose host processes data in region (all when
 * NULL), in order; returns how many are left. */
static size_t keep_region(struct api_price *a, size_t n, const char *region)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!region || regions_match(region, NULL, a[i].country, a[i].region_group))
			a[kept++] = a[i];
	return kept;
}

/* Keeps the rows of `provider` (all when NULL), in order; returns how many. */
static size_t only_provider(struct api_price *a, size_t n, const char *provider)
{
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (!provider || !strcmp(a[i].provider, provider))
			a[kept++] = a[i];
	return kept;
}

/* One row's converted price, for the order after conversion. */
struct api_key {
	double price; /* input + output per token, in --currency */
	size_t at;    /* the row's index in the store's order */
};

static int by_converted(const void *x, const void *y)
{
	const struct api_key *a = x, *b = y;
	if (a->price != b->price)
		return a->price < b->price ? -1 : 1;
	return a->at < b->at ? -1 : a->at > b->at;
}

/* Orders rows (and their rates) cheapest first in --currency: the store
 * orders by the published numbers, which mix currencies. false when out
 * of memory (the store's order is kept). */
static bool order_converted(struct api_price *rows, double *rate, size_t n)
{
	struct api_key *k = calloc(n + 1, sizeof *k);
	struct api_price *tmp = calloc(n + 1, sizeof *tmp);
	double *r = calloc(n + 1, sizeof *r);
	bool ok = k && tmp && r;
	for (size_t i = 0; ok && i < n; i++)
		k[i] = (struct api_key){
		    (rows[i].input_per_token + rows[i].output_per_token) * rate[i], i};
	if (ok && n) {
		qsort(k, n, sizeof *k, by_converted);
		for (size_t i = 0; i < n; i++) {
			tmp[i] = rows[k[i].at];
			r[i] = rate[k[i].at];
		}
		memcpy(rows, tmp, n * sizeof *rows);
		memcpy(rate, r, n * sizeof *rate);
	}
	free(k);
	free(tmp);
	free(r);
	return ok;
}

void offers_api_empty(const char *model, const char *provider, const char *region,
                      size_t in_store)
{
	if (!in_store)
		fprintf(stderr,
		        "0 API prices%s%s in the database; `planner refresh --provider "
		        "litellm,openrouter` brings them\n",
		        model ? " for " : "", model ? model : "");
	else if (region)
		fprintf(stderr,
		        "0 rows in %s (%zu elsewhere or of unknown location); API prices with a "
		        "location come with `planner refresh --provider litellm` (Mistral, "
		        "Scaleway, OVHcloud and the EU deployments of Azure and Bedrock)\n",
		        region, in_store);
	else
		fprintf(stderr, "0 rows of provider %s (%zu of others)\n",
		        provider ? provider : "?", in_store);
}


size_t offers_api_keep(struct api_price *rows, size_t n, const char *provider, const char *region)
{
	return keep_region(rows, only_provider(rows, n, provider), region);
}

bool offers_api_convert(const struct fx_table *fx, struct api_price *rows, size_t n,
                        const char *currency, double *rate, size_t *kept)
{
	*kept = 0;
	for (size_t i = 0; i < n; i++)
		if (fx_rate(fx, rows[i].currency, currency, &rate[*kept])) {
			rows[(*kept)++] = rows[i];
		} else if (!strcmp(rows[i].currency, currency)) {
			rate[*kept] = 1;
			rows[(*kept)++] = rows[i];
		}
	if (*kept < n)
		fprintf(stderr, "%zu rows left out: their currency has no rate into %s\n", n - *kept,
		        currency);
	return order_converted(rows, rate, *kept);
}
