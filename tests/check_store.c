/* check_store.c — the SQLite store on a real file: creation and seeding,
 * replacing a provider's rows in one transaction, price history, and
 * migrating an older schema forward. */
#include <check.h>
#include <cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fabric.h"
#include "store.h"
#include "testutil.h"
#include "util.h"

static struct store *open_new(char **dir_out, char **path_out)
{
	char *dir = test_tmpdir();
	/* A directory that does not exist yet: the store creates it. */
	char *path = xasprintf("%s/sub/dir/prices.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	*dir_out = dir;
	*path_out = path;
	return st;
}

START_TEST(a_new_database_is_created_versioned_and_seeded_with_the_snapshot)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	cJSON *snap = cJSON_Parse(planner_snapshot_json);
	long offers = cJSON_GetArraySize(cJSON_GetObjectItem(snap, "offers"));
	long apis = cJSON_GetArraySize(cJSON_GetObjectItem(snap, "api_prices"));
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), offers);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM api_prices"), apis);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM gpus"),
	                 (long)test_ref()->n_gpus);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE source = ''"), 0);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM providers WHERE from_snapshot = 0"), 0);
	char as_of[24];
	ck_assert_int_eq(store_prices_as_of(st, as_of, sizeof as_of, NULL), PLANNER_OK);
	ck_assert_str_eq(as_of, cJSON_GetObjectItem(snap, "as_of")->valuestring);
	cJSON_Delete(snap);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(offers_come_back_cheapest_first_and_filters_apply)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	struct offer *rows = NULL;
	size_t n = 0;
	struct offer_filter f = {.spot = -1};
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_gt(n, 10);
	for (size_t i = 1; i < n; i++)
		ck_assert(rows[i - 1].price_per_hour <= rows[i].price_per_hour);
	free(rows);
	f = (struct offer_filter){.gpu = "H100 SXM", .spot = 0, .min_vram_gib = 70};
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(rows[i].gpu, "H100 SXM");
		ck_assert(!rows[i].spot);
	}
	free(rows);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(replacing_a_provider_changes_only_its_rows_and_records_price_changes)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	long others = test_store_long(st, "SELECT count(*) FROM offers WHERE provider <> 'lambda'");
	long hist0 = test_store_long(st, "SELECT count(*) FROM price_history");
	struct offer o[2] = {0};
	for (int i = 0; i < 2; i++) {
		snprintf(o[i].offer, sizeof o[i].offer, "gpu_%dx_h100_sxm5", i + 1);
		snprintf(o[i].gpu, sizeof o[i].gpu, "H100 SXM");
		snprintf(o[i].region, sizeof o[i].region, "us-east-1");
		snprintf(o[i].fetched_at, sizeof o[i].fetched_at, "2026-12-01T03:00:00Z");
		o[i].gpu_count = i + 1;
		o[i].vram_gib = 79.6;
		o[i].price_per_hour = 3.0 * (i + 1);
		o[i].available = true;
	}
	ck_assert_int_eq(store_replace_offers(st, "lambda", o, 2, NULL), PLANNER_OK);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'lambda'"), 2);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider <> 'lambda'"), others);
	long hist1 = test_store_long(st, "SELECT count(*) FROM price_history");
	ck_assert_int_ge(hist1, hist0 + 1);
	/* The same prices again add no history; one changed price adds one row. */
	ck_assert_int_eq(store_replace_offers(st, "lambda", o, 2, NULL), PLANNER_OK);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist1);
	o[1].price_per_hour = 5.5;
	ck_assert_int_eq(store_replace_offers(st, "lambda", o, 2, NULL), PLANNER_OK);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist1 + 1);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT from_snapshot FROM providers WHERE name = 'lambda'"), 0);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_failed_replace_keeps_every_previous_row)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	long before = test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'runpod'");
	ck_assert_int_gt(before, 0);
	struct offer o[2] = {0};
	snprintf(o[0].offer, sizeof o[0].offer, "good");
	snprintf(o[0].gpu, sizeof o[0].gpu, "RTX 4090");
	o[0].gpu_count = 1;
	o[0].price_per_hour = 0.4;
	/* The second row breaks the price > 0 constraint half-way through. */
	o[1] = o[0];
	snprintf(o[1].offer, sizeof o[1].offer, "bad");
	o[1].price_per_hour = -1;
	char *err = NULL;
	ck_assert_int_eq(store_replace_offers(st, "runpod", o, 2, &err), PLANNER_EDB);
	ck_assert_ptr_nonnull(err);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'runpod'"), before);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE offer = 'good'"),
	                 0);
	free(err);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

/* SQLite running out of memory is the system's failure, not the
 * database's: PLANNER_ESYS, with SQLite's message. The hard heap limit
 * makes every SQLite allocation past what it holds now fail; the runner
 * forks per test, and the limit is lifted before the checks anyway. */
START_TEST(sqlite_out_of_memory_is_a_system_error_and_changes_nothing)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	long before = test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'runpod'");
	struct offer o = {.gpu_count = 1, .price_per_hour = 0.4};
	snprintf(o.offer, sizeof o.offer, "new");
	snprintf(o.gpu, sizeof o.gpu, "RTX 4090");
	struct offer *rows = NULL;
	size_t n = 0;
	char *read_err = NULL, *write_err = NULL;
	sqlite3_hard_heap_limit64(sqlite3_memory_used());
	int read_rc = store_offers(st, NULL, &rows, &n, &read_err);
	int write_rc = store_replace_offers(st, "runpod", &o, 1, &write_err);
	sqlite3_hard_heap_limit64(0);
	ck_assert_int_eq(read_rc, PLANNER_ESYS);
	ck_assert_ptr_null(rows);
	ck_assert_msg(strstr(read_err, "out of memory"), "%s", read_err);
	ck_assert_int_eq(write_rc, PLANNER_ESYS);
	ck_assert_msg(strstr(write_err, "out of memory"), "%s", write_err);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'runpod'"), before);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE offer = 'new'"), 0);
	/* With memory back, the same calls work. */
	ck_assert_int_eq(store_offers(st, NULL, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_gt(n, 0);
	free(rows);
	ck_assert_int_eq(store_replace_offers(st, "runpod", &o, 1, NULL), PLANNER_OK);
	free(read_err);
	free(write_err);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_version_1_database_migrates_forward_and_keeps_its_rows)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/old.db", dir);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	/* The version-1 layout: offers and api_prices had no source column. */
	ck_assert_int_eq(
	    sqlite3_exec(db,
	                 "CREATE TABLE offers (provider TEXT NOT NULL, offer TEXT NOT NULL,"
	                 " region TEXT NOT NULL DEFAULT '', spot INTEGER NOT NULL DEFAULT 0,"
	                 " gpu TEXT NOT NULL, gpu_count INTEGER NOT NULL, vram_gib REAL NOT NULL,"
	                 " vcpus REAL NOT NULL DEFAULT 0, ram_gib REAL NOT NULL DEFAULT 0,"
	                 " price_per_hour REAL NOT NULL, available INTEGER NOT NULL DEFAULT 1,"
	                 " fetched_at TEXT NOT NULL, PRIMARY KEY (provider, offer, region, spot));"
	                 "CREATE TABLE api_prices (provider TEXT NOT NULL, model TEXT NOT NULL,"
	                 " input_per_token REAL NOT NULL, output_per_token REAL NOT NULL,"
	                 " context INTEGER NOT NULL DEFAULT 0, fetched_at TEXT NOT NULL,"
	                 " PRIMARY KEY (provider, model));"
	                 "INSERT INTO offers VALUES ('lambda','gpu_1x_a10','us-west-1',0,'A10',1,"
	                 " 22.5,30,200,0.75,1,'2025-01-01T00:00:00Z');"
	                 "PRAGMA user_version = 1;",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), 1);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE source = ''"), 1);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM refresh_runs"), 0);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM gpus"),
	                 (long)test_ref()->n_gpus);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_version_9_database_gets_api_currencies_jurisdictions_and_cache_prices)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/v9.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	/* A version-9 file: today's made, its api_prices cut back to the
	 * version-9 columns and a row of each kind put in. */
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	store_close(st);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(
	    sqlite3_exec(db,
	                 "DELETE FROM api_prices;"
	                 "ALTER TABLE offers DROP COLUMN fabric;"
	                 "ALTER TABLE offers DROP COLUMN fabric_gbps;"
	                 "ALTER TABLE api_prices DROP COLUMN currency;"
	                 "ALTER TABLE api_prices DROP COLUMN jurisdiction;"
	                 "ALTER TABLE api_prices DROP COLUMN cache_read_per_token;"
	                 "ALTER TABLE api_prices DROP COLUMN cache_write_per_token;"
	                 "INSERT INTO api_prices (provider, model, input_per_token, "
	                 " output_per_token, context, fetched_at) VALUES "
	                 " ('litellm','mistral/mistral-large-latest',5e-7,1.5e-6,0,'2026-07-24'),"
	                 " ('litellm','bedrock_converse/eu.amazon.nova-pro-v1:0',1.05e-6,4.2e-6,0,"
	                 " '2026-07-24'),"
	                 " ('openrouter','openai/gpt-4o',2.5e-6,1e-5,0,'2026-07-24');"
	                 "PRAGMA user_version = 9;",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM api_prices WHERE currency = "
	                                     "'USD' AND cache_read_per_token = 0 AND "
	                                     "cache_write_per_token = 0"),
	                 3);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM api_prices WHERE model = "
	                                     "'mistral/mistral-large-latest' AND jurisdiction = "
	                                     "'FR' AND region_group = 'eu'"),
	                 1);
	/* Bedrock's EU profile: in the EU, under US law. */
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM api_prices WHERE model LIKE "
	                                     "'bedrock_converse/eu.%' AND jurisdiction = 'US' AND "
	                                     "region_group = 'eu'"),
	                 1);
	struct api_price *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_api_prices(st, "openai/gpt-4o", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rows[0].currency, "USD");
	ck_assert_str_eq(rows[0].jurisdiction, "US");
	free(rows);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_version_3_database_migrates_to_regions_in_place_and_keeps_its_rows)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/v3.db", dir);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	/* The version-3 layout: no country, region_group, tier or estimated;
	 * RunPod's secure/community in region. */
	ck_assert_int_eq(
	    sqlite3_exec(db,
	                 "CREATE TABLE offers (provider TEXT NOT NULL, offer TEXT NOT NULL,"
	                 " region TEXT NOT NULL DEFAULT '', spot INTEGER NOT NULL DEFAULT 0,"
	                 " gpu TEXT NOT NULL, gpu_count INTEGER NOT NULL, vram_gib REAL NOT NULL,"
	                 " vcpus REAL NOT NULL DEFAULT 0, ram_gib REAL NOT NULL DEFAULT 0,"
	                 " price_per_hour REAL NOT NULL, available INTEGER NOT NULL DEFAULT 1,"
	                 " fetched_at TEXT NOT NULL, source TEXT NOT NULL DEFAULT '',"
	                 " PRIMARY KEY (provider, offer, region, spot));"
	                 "CREATE TABLE api_prices (provider TEXT NOT NULL, model TEXT NOT NULL,"
	                 " input_per_token REAL NOT NULL, output_per_token REAL NOT NULL,"
	                 " context INTEGER NOT NULL DEFAULT 0, fetched_at TEXT NOT NULL,"
	                 " source TEXT NOT NULL DEFAULT '', PRIMARY KEY (provider, model));"
	                 "CREATE TABLE price_history (provider TEXT NOT NULL, offer TEXT NOT NULL,"
	                 " region TEXT NOT NULL DEFAULT '', spot INTEGER NOT NULL DEFAULT 0,"
	                 " gpu TEXT NOT NULL, gpu_count INTEGER NOT NULL,"
	                 " price_per_hour REAL NOT NULL, recorded_at TEXT NOT NULL);"
	                 "INSERT INTO offers VALUES ('aws','p5.48xlarge','eu-central-1',0,"
	                 " 'H100 SXM',8,79.6,192,2048,60.0,1,'2026-01-01T00:00:00Z','feed');"
	                 "INSERT INTO offers VALUES ('runpod','1x H100 (secure)','secure',0,"
	                 " 'H100 SXM',1,79.6,0,0,2.69,1,'2026-01-01T00:00:00Z',"
	                 " 'a list (unconfirmed)');"
	                 "INSERT INTO offers VALUES ('vast','42','Texas, US',0,'RTX 4090',1,24,"
	                 " 16,64,0.35,1,'2026-01-01T00:00:00Z','feed');"
	                 "INSERT INTO price_history VALUES ('runpod','1x H100 (secure)','secure',"
	                 " 0,'H100 SXM',1,2.69,'2026-01-01T00:00:00Z');"
	                 "INSERT INTO api_prices VALUES ('litellm','mistral/mistral-large',"
	                 " 2e-6,6e-6,0,'2026-01-01T00:00:00Z','feed');"
	                 "PRAGMA user_version = 3;",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), 3);
	ck_assert_int_eq(test_store_long(st,
	                                 "SELECT count(*) FROM offers WHERE provider = 'aws' AND "
	                                 "country = 'DE' AND region_group = 'eu' AND "
	                                 "region = 'eu-central-1' AND estimated = 0"),
	                 1);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'runpod' AND "
	                        "region = '' AND tier = 'secure' AND estimated = 1"),
	    1);
	ck_assert_int_eq(test_store_long(st,
	                                 "SELECT count(*) FROM offers WHERE provider = 'vast' AND "
	                                 "country = 'US' AND region_group = 'us'"),
	                 1);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE region = ''"), 1);
	/* Version 7: the rows already stored were USD, and the snapshot's ECB
	 * rates are there for fx: auto before any refresh. */
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE currency = 'USD'"),
	                 3);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE currency = 'USD'"), 1);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM fx_rates WHERE as_of = '2025-05-09'"), 30);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM api_prices WHERE "
	                                     "region_group = 'eu'"),
	                 1);
	/* The same RunPod price again is no price change. */
	struct offer *rows = NULL;
	size_t n = 0;
	struct offer_filter f = {.spot = -1, .provider = "runpod"};
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(store_replace_offers(st, "runpod", rows, n, NULL), PLANNER_OK);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), 1);
	free(rows);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(the_estimated_flag_round_trips_and_marks_every_unconfirmed_snapshot_row)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE estimated = 0 AND "
	                        "(source LIKE '%unconfirmed%' OR source LIKE '%estimate%')"),
	    0);
	ck_assert_int_gt(test_store_long(st, "SELECT count(*) FROM offers WHERE estimated = 1"), 0);
	ck_assert_int_gt(test_store_long(st, "SELECT count(*) FROM offers WHERE estimated = 0"), 0);
	struct offer o[2] = {0};
	for (int i = 0; i < 2; i++) {
		snprintf(o[i].offer, sizeof o[i].offer, "gpu_1x_h100_%d", i);
		snprintf(o[i].gpu, sizeof o[i].gpu, "H100 SXM");
		snprintf(o[i].region, sizeof o[i].region, "europe-central-1");
		snprintf(o[i].country, sizeof o[i].country, "DE");
		snprintf(o[i].region_group, sizeof o[i].region_group, "eu");
		o[i].gpu_count = 1;
		o[i].vram_gib = 79.6;
		o[i].price_per_hour = 3.0 + i;
		o[i].estimated = i == 1;
	}
	ck_assert_int_eq(store_replace_offers(st, "lambda", o, 2, NULL), PLANNER_OK);
	struct offer *rows = NULL;
	size_t n = 0;
	struct offer_filter f = {.spot = -1, .provider = "lambda", .region = "DE"};
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert(!rows[0].estimated && rows[1].estimated);
	ck_assert_str_eq(rows[1].region_group, "eu");
	free(rows);
	/* --region matches the group, the country or the provider's name. */
	const char *names[] = {"eu", "EU", "de", "europe-central-1"};
	for (size_t i = 0; i < 4; i++) {
		f.region = names[i];
		ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
		ck_assert_uint_eq(n, 2);
		free(rows);
	}
	f.region = "us";
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, NULL), PLANNER_OK);
	ck_assert_uint_eq(n, 0);
	free(rows);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(the_snapshot_is_dated_per_provider)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	char dates[512];
	ck_assert_int_eq(store_snapshot_dates(st, dates, sizeof dates, NULL), PLANNER_OK);
	/* The API prices are OpenRouter's of 2025-10-03, not the rented rows' date. */
	ck_assert_msg(strstr(dates, "openrouter 2025-10-03") != NULL, "%s", dates);
	ck_assert_msg(strstr(dates, "lambda 2026-") != NULL, "%s", dates);
	/* A refreshed provider is no longer the snapshot's. */
	struct api_price a = {.input_per_token = 1e-6, .output_per_token = 1e-6};
	snprintf(a.model, sizeof a.model, "openai/gpt-4o");
	ck_assert_int_eq(store_replace_api_prices(st, "openrouter", &a, 1, NULL), PLANNER_OK);
	ck_assert_int_eq(store_snapshot_dates(st, dates, sizeof dates, NULL), PLANNER_OK);
	ck_assert_msg(strstr(dates, "openrouter") == NULL, "%s", dates);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

/* Counts the offers store_offers_dated passes. */
static int count_offer(void *ctx, const struct offer *o, char **err)
{
	size_t *n = ctx;
	ck_assert(o->available);
	(*n)++;
	return PLANNER_OK;
}

START_TEST(one_read_of_the_offers_gives_the_same_dates_as_the_two_date_queries)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	/* A refreshed provider with an unavailable row newer than the rest:
	 * the dates count every row, the callback sees the available ones. */
	struct offer rows[2] = {{.gpu_count = 1, .vram_gib = 80, .price_per_hour = 2.0,
				 .available = true},
				{.gpu_count = 1, .vram_gib = 80, .price_per_hour = 3.0,
				 .available = false}};
	for (int i = 0; i < 2; i++) {
		snprintf(rows[i].provider, sizeof rows[i].provider, "lambda");
		snprintf(rows[i].offer, sizeof rows[i].offer, "gpu_1x_h100_%d", i);
		snprintf(rows[i].gpu, sizeof rows[i].gpu, "H100 SXM");
		snprintf(rows[i].currency, sizeof rows[i].currency, "USD");
	}
	snprintf(rows[0].fetched_at, sizeof rows[0].fetched_at, "2030-01-01T00:00:00Z");
	snprintf(rows[1].fetched_at, sizeof rows[1].fetched_at, "2030-02-01T00:00:00Z");
	ck_assert_int_eq(store_replace_offers(st, "lambda", rows, 2, NULL), PLANNER_OK);
	char as_of[24], as_of2[24], snap[1024], snap2[1024];
	size_t n = 0, avail = 0;
	ck_assert_int_eq(store_offers_dated(st, count_offer, &n, as_of, sizeof as_of, snap,
					    sizeof snap, NULL),
			 PLANNER_OK);
	ck_assert_int_eq(store_prices_as_of(st, as_of2, sizeof as_of2, NULL), PLANNER_OK);
	ck_assert_int_eq(store_snapshot_dates(st, snap2, sizeof snap2, NULL), PLANNER_OK);
	ck_assert_str_eq(as_of, "2030-02-01T00:00:00Z");
	ck_assert_str_eq(as_of, as_of2);
	ck_assert_str_eq(snap, snap2);
	ck_assert_msg(strstr(snap, "openrouter 2025-10-03") && !strstr(snap, "lambda"), "%s", snap);
	struct offer_filter f = {.spot = -1, .available_only = true};
	struct offer *all = NULL;
	ck_assert_int_eq(store_offers(st, &f, &all, &avail, NULL), PLANNER_OK);
	free(all);
	ck_assert_uint_eq(n, avail);
	/* A short buffer is cut as store_snapshot_dates cuts it. */
	ck_assert_int_eq(store_offers_dated(st, count_offer, &n, as_of, sizeof as_of, snap, 12,
					    NULL),
			 PLANNER_OK);
	ck_assert_int_eq(store_snapshot_dates(st, snap2, 12, NULL), PLANNER_OK);
	ck_assert_str_eq(snap, snap2);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_database_from_a_newer_planner_is_refused_untouched)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/new.db", dir);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "PRAGMA user_version = 99", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_int_eq(store_open(path, test_ref(), &st, &err), PLANNER_EDB);
	ck_assert_ptr_nonnull(strstr(err, "newer than this planner"));
	free(err);
	free(dir);
	free(path);
}
END_TEST

/* Makes path a SQLite file from sql (rollback journal, as another program
 * would leave it). */
static void make_db(const char *path, const char *sql)
{
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

/* One integer (or count) from path, opened read-only behind planner's back. */
static long query_long(const char *path, const char *sql)
{
	char *v = test_query(path, sql, NULL);
	long n = v ? atol(v) : -1;
	free(v);
	return n;
}

/* Opening path must fail with PLANNER_EDB, a message holding `says`, and
 * the file still in its rollback journal mode (nothing switched to WAL). */
static void assert_refused_untouched(const char *path, const char *says)
{
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_int_eq(store_open(path, test_ref(), &st, &err), PLANNER_EDB);
	ck_assert_msg(err && strstr(err, says), "%s", err);
	free(err);
	char *mode = test_query(path, "PRAGMA journal_mode", NULL);
	ck_assert_str_eq(mode, "delete");
	free(mode);
}

START_TEST(a_negative_or_huge_schema_version_is_refused_before_any_migration)
{
	char *dir = test_tmpdir();
	const char *versions[] = {"-1", "-5", "-100000000", "-2147483648"};
	for (size_t i = 0; i < sizeof versions / sizeof *versions; i++) {
		char *path = xasprintf("%s/neg%zu.db", dir, i);
		char *sql = xasprintf("CREATE TABLE offers (x); PRAGMA user_version = %s;",
		                      versions[i]);
		make_db(path, sql);
		assert_refused_untouched(path, "is not one planner writes");
		ck_assert_int_eq(query_long(path, "SELECT count(*) FROM sqlite_master"), 1);
		free(sql);
		free(path);
	}
	free(dir);
}
END_TEST

START_TEST(another_programs_database_is_refused_untouched_and_named)
{
	char *dir = test_tmpdir();
	char *a = xasprintf("%s/app.db", dir), *b = xasprintf("%s/crm.db", dir);
	char *c = xasprintf("%s/text.db", dir);
	/* Marked with another program's application_id. */
	make_db(a, "CREATE TABLE blob (x); PRAGMA application_id = 252006674;");
	assert_refused_untouched(a, "another program's SQLite database (application_id 0x0f055112");
	/* Unmarked, with a table planner never made. */
	make_db(b, "CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('x');");
	assert_refused_untouched(b, "has a table \"customers\"");
	ck_assert_int_eq(query_long(b, "SELECT count(*) FROM sqlite_master"), 1);
	/* Not SQLite at all. */
	free(test_write(dir, "text.db", "not a database, just text that is long enough to be "
	                               "mistaken for nothing; SQLite reads the 100-byte header\n"));
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_int_eq(store_open(c, test_ref(), &st, &err), PLANNER_EDB);
	ck_assert_msg(strstr(err, "is not a SQLite database"), "%s", err);
	free(err);
	free(a);
	free(b);
	free(c);
	free(dir);
}
END_TEST

START_TEST(a_database_from_a_newer_planner_is_refused_before_the_switch_to_wal)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/newer.db", dir);
	make_db(path, "CREATE TABLE offers (x); PRAGMA user_version = 99;");
	assert_refused_untouched(path, "newer than this planner");
	free(path);
	free(dir);
}
END_TEST

/* Schema 11: a version-10 database gains offer_terms, its offers kept;
 * commitments round-trip, a refresh's replace drops the provider's old
 * ones, and the table refuses a term that is neither 1y nor 3y. */
START_TEST(a_version_10_database_gains_offer_terms_and_commitments_round_trip)
{
	char *dir, *path, *err = NULL;
	struct store *st = open_new(&dir, &path);
	long offers = test_store_long(st, "SELECT count(*) FROM offers");
	store_close(st);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "DROP TABLE offer_terms; ALTER TABLE offers DROP COLUMN fabric; "
	                                  "ALTER TABLE offers DROP COLUMN fabric_gbps; "
	                                  "PRAGMA user_version = 10;", NULL,
	                              NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), offers);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offer_terms"), 0);
	struct offer_term t[2] = {0};
	for (int i = 0; i < 2; i++) {
		snprintf(t[i].o.offer, sizeof t[i].o.offer, "Standard_NC24ads_A100_v4");
		snprintf(t[i].o.region, sizeof t[i].o.region, "australiacentral");
		snprintf(t[i].o.gpu, sizeof t[i].o.gpu, "A100 80GB");
		snprintf(t[i].o.currency, sizeof t[i].o.currency, "USD");
		t[i].o.gpu_count = 1;
		t[i].o.vram_gib = 80;
	}
	snprintf(t[0].term, sizeof t[0].term, "1y");
	t[0].upfront = 3478;
	t[0].o.price_per_hour = 3478.0 / 8760;
	snprintf(t[1].term, sizeof t[1].term, "3y");
	t[1].upfront = 6721;
	t[1].o.price_per_hour = 6721.0 / 26280;
	ck_assert_msg(store_replace_terms(st, "azure", t, 2, &err) == PLANNER_OK, "%s", err);
	struct offer_term *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_read_terms(st, NULL, &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(rows[0].term, "3y"); /* cheapest effective price first */
	ck_assert_str_eq(rows[0].o.provider, "azure");
	ck_assert_double_eq(rows[0].upfront, 6721);
	free(rows);
	ck_assert_int_eq(store_read_terms(st, "1y", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq_tol(rows[0].o.price_per_hour, 3478.0 / 8760, 1e-12);
	free(rows);
	snprintf(t[0].term, sizeof t[0].term, "2y");
	ck_assert_int_eq(store_replace_terms(st, "azure", t, 1, &err), PLANNER_EDB);
	free(err);
	err = NULL;
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offer_terms"), 2); /* undone */
	ck_assert_int_eq(store_replace_terms(st, "azure", NULL, 0, &err), PLANNER_OK);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offer_terms"), 0);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

/* Schema 12: a version-11 database gains offers.fabric and fabric_gbps,
 * filled on exactly the rows whose instance type the catalogue names
 * (fabric.h); every other row stays single-node only. */
START_TEST(a_version_11_database_marks_the_offers_the_fabric_catalogue_names)
{
	char *dir, *path, *err = NULL;
	struct store *st = open_new(&dir, &path);
	long offers = test_store_long(st, "SELECT count(*) FROM offers");
	store_close(st);
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db,
	                              "ALTER TABLE offers DROP COLUMN fabric; ALTER TABLE offers "
	                              "DROP COLUMN fabric_gbps; PRAGMA user_version = 11;",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(db);
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA user_version"), STORE_SCHEMA_VERSION);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), offers);
	/* The snapshot's p5.48xlarge rows: EFA, 3,200 Gb/s over 8 GPUs. */
	long p5 = test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'aws' AND "
	                              "offer = 'p5.48xlarge'");
	ck_assert_int_gt(p5, 0);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'aws' "
	                                     "AND offer = 'p5.48xlarge' AND fabric = 'efa' AND "
	                                     "fabric_gbps = 400"),
	                 p5);
	size_t n;
	const struct fabric_entry *f = fabric_catalogue(&n);
	long named = 0;
	for (size_t i = 0; i < n; i++) {
		char *sql = xasprintf("SELECT count(*) FROM offers WHERE provider = '%s' AND "
		                      "offer = '%s' AND fabric = '%s'",
		                      f[i].provider, f[i].offer, f[i].fabric);
		named += test_store_long(st, sql);
		free(sql);
	}
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE fabric != ''"),
	                 named);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE fabric = '' AND "
	                                     "fabric_gbps != 0"),
	                 0);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

START_TEST(planner_databases_are_marked_and_an_unmarked_older_one_opens_and_gets_marked)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	ck_assert_int_eq(test_store_long(st, "PRAGMA application_id"), 0x504c4e52);
	/* What planner 0.1.0 wrote: every table, version 4, no mark. */
	ck_assert_int_eq(sqlite3_exec(store_handle(st),
	                              "PRAGMA application_id = 0; DROP TABLE fx_rates; "
	                              "UPDATE offers SET fetched_at = (SELECT d.fetched_at FROM "
	                              "offer_dates d WHERE d.provider = offers.provider) "
	                              "WHERE fetched_at = ''; DROP TABLE offer_dates; "
	                              "DROP TABLE offer_terms",
	                              NULL, NULL, NULL),
	                 SQLITE_OK); /* fx_rates came with version 7, offer_dates with 8,
	                              * offer_terms with 11, marked */
	long offers = test_store_long(st, "SELECT count(*) FROM offers");
	store_close(st);
	ck_assert_int_eq(query_long(path, "PRAGMA application_id"), 0);
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(test_store_long(st, "PRAGMA application_id"), 0x504c4e52);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), offers);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(uri_and_in_memory_names_and_an_unset_home_are_refused_not_used)
{
	char *dir = test_tmpdir();
	char *uri = xasprintf("file:%s/x.db?mode=memory", dir);
	const char *names[] = {uri, "file:x.db", ":memory:", ""};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		struct store *st = NULL;
		char *err = NULL;
		ck_assert_int_eq(store_open(names[i], test_ref(), &st, &err), PLANNER_EUSAGE);
		ck_assert_ptr_null(st);
		ck_assert_msg(strstr(err, "--db"), "%s", err);
		free(err);
	}
	/* HOME unset: the command says so, and makes nothing under ./ */
	const char *bin = getenv("PLANNER_BIN") ? getenv("PLANNER_BIN") : "build/planner";
	char *cwd = getcwd(NULL, 0);
	char *cmd = xasprintf("cd '%s' && env -u HOME -u XDG_DATA_HOME -u PLANNER_DB '%s%s%s' "
	                      "offers 2>&1; echo \"rc=$?\"; ls -A",
	                      dir, *bin == '/' ? "" : cwd, *bin == '/' ? "" : "/", bin);
	char *out = NULL;
	free(cwd);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	ck_assert_msg(strstr(out, "give --db PATH") && strstr(out, "rc=2") &&
	                  !strstr(out, ".local"),
	              "%s", out);
	free(out);
	free(cmd);
	/* Through the command too: exit 2, and nothing "refreshed" to memory. */
	const char *argv[] = {"offers", "--db", uri, NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), PLANNER_EUSAGE);
	ck_assert_msg(strstr(err, "SQLite URI"), "%s", err);
	free(err);
	free(uri);
	free(dir);
}
END_TEST

START_TEST(refresh_runs_are_recorded_and_mark_the_provider)
{
	char *dir, *path;
	struct store *st = open_new(&dir, &path);
	ck_assert_int_eq(store_record_run(st, "vast", "rented", "2026-12-01T03:00:00Z",
	                                  "2026-12-01T03:00:05Z", "failed", 0, 500,
	                                  "http 500 from console.vast.ai", NULL),
	                 PLANNER_OK);
	struct provider_state *p = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_providers(st, &p, &n, NULL), PLANNER_OK);
	bool found = false;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(p[i].name, "vast"))
			continue;
		found = true;
		ck_assert_str_eq(p[i].last_status, "failed");
		ck_assert_int_gt(p[i].rows, 0); /* the previous rows stay */
	}
	ck_assert(found);
	free(p);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM refresh_runs WHERE http_status = 500"), 1);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(the_default_path_follows_planner_db_then_xdg_data_home)
{
	char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *err = NULL;
	char *home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	setenv("PLANNER_DB", "/tmp/x.db", 1);
	ck_assert_int_eq(store_default_path(&a, NULL), PLANNER_OK);
	ck_assert_str_eq(a, "/tmp/x.db");
	unsetenv("PLANNER_DB");
	setenv("XDG_DATA_HOME", "/data", 1);
	ck_assert_int_eq(store_default_path(&b, NULL), PLANNER_OK);
	ck_assert_str_eq(b, "/data/planner/prices.db");
	unsetenv("XDG_DATA_HOME");
	setenv("HOME", "/home/u", 1);
	ck_assert_int_eq(store_default_path(&c, NULL), PLANNER_OK);
	ck_assert_str_eq(c, "/home/u/.local/share/planner/prices.db");
	/* With none of them the database does not land in the current
	 * directory: the user is told. */
	unsetenv("HOME");
	ck_assert_int_eq(store_default_path(&d, &err), PLANNER_EUSAGE);
	ck_assert_ptr_null(d);
	ck_assert_msg(strstr(err, "--db PATH"), "%s", err);
	free(err);
	if (home)
		setenv("HOME", home, 1);
	free(home);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(two_processes_creating_the_same_database_both_succeed)
{
	/* Turning a new file to WAL takes an exclusive lock SQLite's busy
	 * handler does not cover; both openers must still get through. */
	char *dir = test_tmpdir();
	for (int round = 0; round < 10; round++) {
		char *path = xasprintf("%s/race%d.db", dir, round);
		pid_t pid[2];
		for (int k = 0; k < 2; k++) {
			pid[k] = fork();
			if (pid[k] == 0) {
				struct store *st = NULL;
				int rc = store_open(path, test_ref(), &st, NULL);
				store_close(st);
				_exit(rc);
			}
		}
		for (int k = 0; k < 2; k++) {
			int status = -1;
			ck_assert_int_eq(waitpid(pid[k], &status, 0), pid[k]);
			ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == PLANNER_OK,
			              "round %d: opener %d failed", round, k);
		}
		struct store *st = NULL;
		ck_assert_int_eq(store_open(path, test_ref(), &st, NULL), PLANNER_OK);
		cJSON *snap = cJSON_Parse(planner_snapshot_json);
		ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"),
		                 cJSON_GetArraySize(cJSON_GetObjectItem(snap, "offers")));
		cJSON_Delete(snap);
		store_close(st);
		free(path);
	}
	free(dir);
}
END_TEST

START_TEST(four_long_prompt_tiers_round_trip_at_full_precision)
{
	char *dir = NULL, *path = NULL, *err = NULL;
	struct store *st = open_new(&dir, &path);
	struct api_price a = {.input_per_token = 3e-6, .output_per_token = 15e-6, .context = 1000000};
	snprintf(a.model, sizeof a.model, "vendor/long-model");
	/* Above, input and output as long as %.17g and a long print them;
	 * ascending, as provider_api_tier keeps them. */
	const struct api_tier t[4] = {
		{128000, 4.9999999999999996e-06, 1.9999999999999999e-05},
		{200000, 6.0000000000000002e-06, 2.2499999999999998e-05},
		{272000, 7.0000000000000007e-06, 3.3333333333333335e-05},
		{900000000000000000L, 1.2345678901234567e-05, 9.8765432109876543e-05}};
	for (int i = 0; i < 4; i++)
		a.tiers[a.n_tiers++] = t[i];
	ck_assert_int_eq(store_replace_api_prices(st, "testfeed", &a, 1, &err), PLANNER_OK);
	struct api_price *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_api_prices(st, "vendor/long-model", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(rows[0].n_tiers, 4);
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(rows[0].tiers[i].above, t[i].above);
		ck_assert(rows[0].tiers[i].input_per_token == t[i].input_per_token);
		ck_assert(rows[0].tiers[i].output_per_token == t[i].output_per_token);
	}
	free(rows);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

static int count_each(void *ctx, const struct offer *o, char **err)
{
	double *sum = ctx;
	sum[0] += 1;
	sum[1] += o->price_per_hour * o->gpu_count;
	return sum[0] >= 1e9 ? set_err(err, PLANNER_EINPUT, "stop") : PLANNER_OK;
}

static int stop_at_first(void *ctx, const struct offer *o, char **err)
{
	(void)ctx;
	(void)o;
	return set_err(err, PLANNER_EINPUT, "stopped");
}

START_TEST(offers_one_at_a_time_are_the_rows_of_the_array_and_a_callback_can_stop_them)
{
	char *dir, *path, *err = NULL;
	struct store *st = open_new(&dir, &path);
	struct offer *rows = NULL;
	size_t n = 0;
	struct offer_filter f = {.spot = -1, .available_only = true};
	ck_assert_int_eq(store_offers(st, &f, &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_gt(n, 10);
	double want = 0, got[2] = {0, 0};
	for (size_t i = 0; i < n; i++)
		want += rows[i].price_per_hour * rows[i].gpu_count;
	ck_assert_int_eq(store_offers_each(st, &f, count_each, got, &err), PLANNER_OK);
	ck_assert_double_eq(got[0], (double)n);
	ck_assert_double_eq_tol(got[1], want, 1e-6);
	ck_assert_int_eq(store_offers_each(st, &f, stop_at_first, NULL, &err), PLANNER_EINPUT);
	ck_assert_str_eq(err, "stopped");
	free(err);
	free(rows);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

Suite *store_suite(void)
{
	Suite *s = suite_create("store");
	TCase *tc = tcase_create("store");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, a_new_database_is_created_versioned_and_seeded_with_the_snapshot);
	tcase_add_test(tc, a_version_9_database_gets_api_currencies_jurisdictions_and_cache_prices);
	tcase_add_test(tc, offers_come_back_cheapest_first_and_filters_apply);
	tcase_add_test(tc, replacing_a_provider_changes_only_its_rows_and_records_price_changes);
	tcase_add_test(tc, a_failed_replace_keeps_every_previous_row);
	tcase_add_test(tc, sqlite_out_of_memory_is_a_system_error_and_changes_nothing);
	tcase_add_test(tc, a_version_1_database_migrates_forward_and_keeps_its_rows);
	tcase_add_test(tc, a_version_3_database_migrates_to_regions_in_place_and_keeps_its_rows);
	tcase_add_test(tc, the_estimated_flag_round_trips_and_marks_every_unconfirmed_snapshot_row);
	tcase_add_test(tc, the_snapshot_is_dated_per_provider);
	tcase_add_test(tc, one_read_of_the_offers_gives_the_same_dates_as_the_two_date_queries);
	tcase_add_test(tc, a_database_from_a_newer_planner_is_refused_untouched);
	tcase_add_test(tc, a_negative_or_huge_schema_version_is_refused_before_any_migration);
	tcase_add_test(tc, another_programs_database_is_refused_untouched_and_named);
	tcase_add_test(tc, a_database_from_a_newer_planner_is_refused_before_the_switch_to_wal);
	tcase_add_test(tc,
	               planner_databases_are_marked_and_an_unmarked_older_one_opens_and_gets_marked);
	tcase_add_test(tc, a_version_10_database_gains_offer_terms_and_commitments_round_trip);
	tcase_add_test(tc, a_version_11_database_marks_the_offers_the_fabric_catalogue_names);
	tcase_add_test(tc, uri_and_in_memory_names_and_an_unset_home_are_refused_not_used);
	tcase_add_test(tc, refresh_runs_are_recorded_and_mark_the_provider);
	tcase_add_test(tc, the_default_path_follows_planner_db_then_xdg_data_home);
	tcase_add_test(tc, two_processes_creating_the_same_database_both_succeed);
	tcase_add_test(tc, four_long_prompt_tiers_round_trip_at_full_precision);
	tcase_add_test(tc, offers_one_at_a_time_are_the_rows_of_the_array_and_a_callback_can_stop_them);
	suite_add_tcase(s, tc);
	return s;
}
