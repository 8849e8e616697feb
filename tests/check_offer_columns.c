/* check_offer_columns.c — an offer's columns are one list (OFFER_COLUMNS,
 * store.h), and every piece the store and `offers --format json` make of
 * them follows from it: the offers table of a new and of a migrated
 * database, the refresh's staging, binds and reads, the content hash of a
 * feed row and of a stored one, the upsert's change test, and the JSON.
 *
 * Each test walks the list, so a new row is tested without new test code:
 * a column added to the list alone fails here (no such column in the
 * table), one without its migration fails the migrated database's check,
 * and with both it flows through. A second build with a dummy column
 * would test one column; walking the list tests every one, the new one
 * included (docs/design.md, "What a change touches"). */
#include <check.h>
#include <cJSON.h>
#include <sqlite3.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "store_int.h"
#include "testutil.h"
#include "util.h"

/* The provider of the test's offers: any name is data to the store. */
#define PROVIDER "colco"

/* One row of OFFER_COLUMNS, as data. */
struct column {
	const char *name, *type, *role, *empty;
	size_t off, size; /* of the struct offer field */
};
#define COLUMN(name, type, size, role, empty, json, json_at)                                                \
	{#name,                                                                                    \
	 #type,                                                                                    \
	 #role,                                                                                    \
	 empty,                                                                                    \
	 offsetof(struct offer, name),                                                             \
	 sizeof(((struct offer *)0)->name)},
static const struct column columns[] = {OFFER_COLUMNS(COLUMN)};
#define N_COLUMNS (sizeof columns / sizeof *columns)

static bool is(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* Column c's field of o. */
static void *field(struct offer *o, const struct column *c)
{
	return (char *)o + c->off;
}

static const void *cfield(const struct offer *o, const struct column *c)
{
	return (const char *)o + c->off;
}

/* Column i's value of variant v (0 or 1), distinct per column: a text
 * with a default for "" is "" in variant 0, so it is stored as that
 * default; gpu_count and price_per_hour must be above 0. */
static void set_value(struct offer *o, size_t i, int v)
{
	const struct column *c = &columns[i];
	void *f = field(o, c);
	if (is(c->type, "TEXT")) {
		if (is(c->role, "PROVIDER"))
			snprintf(f, c->size, "%s", PROVIDER);
		else if (v == 0 && *c->empty)
			*(char *)f = '\0';
		else
			snprintf(f, c->size, "%c%zu", v ? 'b' : 'a', i);
	} else if (is(c->type, "INT")) {
		*(int *)f = (int)(1 + i + 100 * v);
	} else if (is(c->type, "REAL")) {
		*(double *)f = 1.25 + (double)i + 100 * v;
	} else {
		ck_assert_str_eq(c->type, "BOOL");
		*(bool *)f = v != 0;
	}
}

/* An offer of every column at variant v. */
static struct offer make_offer(int v)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	for (size_t i = 0; i < N_COLUMNS; i++)
		set_value(&o, i, v);
	return o;
}

/* Asserts column c of got is what want's is once stored. */
static void assert_same(const struct offer *got, const struct offer *want, const struct column *c)
{
	const void *g = cfield(got, c), *w = cfield(want, c);
	if (is(c->type, "TEXT"))
		ck_assert_msg(is(g, *(const char *)w ? w : c->empty), "%s: '%s', not '%s'", c->name,
		              (const char *)g, *(const char *)w ? (const char *)w : c->empty);
	else if (is(c->type, "INT"))
		ck_assert_msg(*(const int *)g == *(const int *)w, "%s: %d", c->name,
		              *(const int *)g);
	else if (is(c->type, "REAL"))
		ck_assert_msg(*(const double *)g == *(const double *)w, "%s: %g", c->name,
		              *(const double *)g);
	else
		ck_assert_msg(*(const bool *)g == *(const bool *)w, "%s: %d", c->name,
		              *(const bool *)g);
}

static struct store *open_store(const char *path)
{
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	return st;
}

/* A refresh of PROVIDER that finds the one offer o, as a feed's rows go
 * in (store_stage.c). */
static void refresh(struct store *st, const struct offer *o)
{
	struct store_stage *sg = NULL;
	size_t dups;
	char *err = NULL;
	ck_assert_msg(store_stage_open(st, PROVIDER, &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_msg(store_stage_put(sg, o, 1, &err) == PLANNER_OK, "%s", err);
	ck_assert_msg(store_stage_apply(sg, &dups, &err) == PLANNER_OK, "%s", err);
	store_stage_free(sg);
}

/* The one offer of PROVIDER the store reads. */
static struct offer read_back(struct store *st)
{
	struct offer_filter f = {.provider = PROVIDER, .spot = -1};
	struct offer *rows = NULL, o;
	size_t n = 0;
	char *err = NULL;
	ck_assert_msg(store_offers(st, &f, &rows, &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(n, 1);
	o = rows[0];
	free(rows);
	return o;
}

/* Counts the writes to main.offers from here on into temp.writes. */
static void count_writes(struct store *st)
{
	ck_assert_int_eq(
	    sqlite3_exec(store_handle(st),
	                 "CREATE TEMP TABLE IF NOT EXISTS writes (n INTEGER); DELETE FROM writes;"
	                 "CREATE TEMP TRIGGER IF NOT EXISTS w_ins AFTER INSERT ON main.offers "
	                 "BEGIN INSERT INTO writes VALUES (1); END;"
	                 "CREATE TEMP TRIGGER IF NOT EXISTS w_upd AFTER UPDATE ON main.offers "
	                 "BEGIN INSERT INTO writes VALUES (1); END",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
}

/* The offers table has exactly the list's columns, in its order, each
 * NOT NULL of its type. */
static void assert_table_is_list(struct store *st)
{
	static const char *const sql_type[][2] = {
	    {"TEXT", "TEXT"}, {"INT", "INTEGER"}, {"REAL", "REAL"}, {"BOOL", "INTEGER"}};
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM pragma_table_info('offers')"),
	                 (long)N_COLUMNS);
	for (size_t i = 0; i < N_COLUMNS; i++) {
		const char *want = NULL;
		for (size_t t = 0; t < sizeof sql_type / sizeof *sql_type; t++)
			if (is(columns[i].type, sql_type[t][0]))
				want = sql_type[t][1];
		ck_assert_ptr_nonnull(want);
		sqlite3_stmt *s = NULL;
		ck_assert_int_eq(sqlite3_prepare_v2(store_handle(st),
		                                    "SELECT type, \"notnull\", cid FROM "
		                                    "pragma_table_info('offers') WHERE name = ?",
		                                    -1, &s, NULL),
		                 SQLITE_OK);
		sqlite3_bind_text(s, 1, columns[i].name, -1, SQLITE_STATIC);
		ck_assert_msg(sqlite3_step(s) == SQLITE_ROW, "offers has no column %s",
		              columns[i].name);
		ck_assert_str_eq((const char *)sqlite3_column_text(s, 0), want);
		ck_assert_int_eq(sqlite3_column_int(s, 1), 1);
		/* In the table's order: the upsert's columns are in the list's. */
		ck_assert_msg(sqlite3_column_int(s, 2) == (int)i, "%s is column %d of offers, not %zu",
		              columns[i].name, sqlite3_column_int(s, 2), i);
		sqlite3_finalize(s);
	}
}

START_TEST(the_offers_table_of_a_new_and_a_migrated_database_is_the_list)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/new.db", dir), *old = xasprintf("%s/v1.db", dir);
	struct store *st = open_store(path);
	assert_table_is_list(st);
	store_close(st);
	/* The version-1 layout (check_store.c): every column added since
	 * comes from a migration, schema.sql creating only what is missing. */
	sqlite3 *db;
	ck_assert_int_eq(sqlite3_open(old, &db), SQLITE_OK);
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
	                 "PRAGMA user_version = 1;",
	                 NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	st = open_store(old);
	assert_table_is_list(st);
	/* And the migrated table takes a refresh of every column. */
	struct offer o = make_offer(1);
	refresh(st, &o);
	struct offer got = read_back(st);
	for (size_t i = 0; i < N_COLUMNS; i++)
		assert_same(&got, &o, &columns[i]);
	store_close(st);
	free(path);
	free(old);
	free(dir);
}
END_TEST

START_TEST(every_column_round_trips_through_a_refresh_and_the_store)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	struct store *st = open_store(path);
	for (int v = 0; v <= 1; v++) {
		struct offer o = make_offer(v);
		refresh(st, &o);
		struct offer got = read_back(st);
		for (size_t i = 0; i < N_COLUMNS; i++)
			assert_same(&got, &o, &columns[i]);
	}
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

/* The content hash of the stored offer of PROVIDER, as a refresh reads
 * it (store_stage.c's read of the stored rows). */
static uint64_t stored_hash(struct store *st)
{
	sqlite3_stmt *s = NULL;
	ck_assert_int_eq(sqlite3_prepare_v2(store_handle(st),
	                                    "SELECT rowid" STORE_OFFER_NAMES
	                                    " FROM main.offers WHERE provider = ?",
	                                    -1, &s, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(s, 1, PROVIDER, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	uint64_t h = store_seen_stored(s);
	sqlite3_finalize(s);
	return h;
}

START_TEST(a_feed_row_and_its_stored_offer_hash_alike_and_any_data_column_changes_the_hash)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	struct store *st = open_store(path);
	struct offer base = make_offer(0);
	refresh(st, &base);
	/* Stored dated by the refresh (fetched_at ''), with the defaults of
	 * empty texts: the feed row's hash is the stored one's. */
	uint64_t h = store_seen_content(&base, true);
	ck_assert_uint_eq(stored_hash(st), h | SEEN_STORED);
	ck_assert_uint_ne(store_seen_content(&base, false), h);
	for (size_t i = 0; i < N_COLUMNS; i++) {
		struct offer o = base;
		set_value(&o, i, 1);
		bool data = is(columns[i].role, "DATA");
		if (data)
			ck_assert_msg(store_seen_content(&o, true) != h, "%s is not hashed",
			              columns[i].name);
		else /* the key, provider and date are compared apart */
			ck_assert_msg(store_seen_content(&o, true) == h, "%s is hashed",
			              columns[i].name);
		if (!data)
			continue;
		/* And the stored row of the changed column hashes as its feed row. */
		refresh(st, &o);
		ck_assert_msg(stored_hash(st) == (store_seen_content(&o, true) | SEEN_STORED),
		              "%s is read otherwise than it is hashed", columns[i].name);
		refresh(st, &base);
	}
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

START_TEST(changing_any_one_column_rewrites_the_offer_and_changing_none_writes_nothing)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	struct store *st = open_store(path);
	struct offer base = make_offer(0);
	refresh(st, &base);
	count_writes(st);
	refresh(st, &base);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM temp.writes"), 0);
	for (size_t i = 0; i < N_COLUMNS; i++) {
		const struct column *c = &columns[i];
		if (is(c->role, "KEY") || is(c->role, "PROVIDER"))
			continue; /* another offer: the round trip covers them */
		struct offer o = base;
		set_value(&o, i, 1);
		count_writes(st);
		refresh(st, &o);
		struct offer got = read_back(st);
		assert_same(&got, &o, c);
		/* A new date alone is the provider's (offer_dates): no write. */
		ck_assert_msg(test_store_long(st, "SELECT count(*) FROM temp.writes") ==
		                  (is(c->role, "DATA") ? 1 : 0),
		              "a change of %s alone is written otherwise", c->name);
		refresh(st, &base);
	}
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

START_TEST(offers_json_prints_every_column_of_the_list)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	struct store *st = open_store(path);
	/* Variant 1 (available), but texts with a default for "" left "" so
	 * the currency is the stored default, one the rates know. */
	struct offer o = make_offer(1);
	for (size_t i = 0; i < N_COLUMNS; i++)
		if (is(columns[i].type, "TEXT") && *columns[i].empty)
			*(char *)field(&o, &columns[i]) = '\0';
	refresh(st, &o);
	store_close(st);
	const char *argv[] = {"offers", "--db",     path,   "--provider",
	                      PROVIDER, "--format", "json", NULL};
	char *out = NULL, *errout = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &errout) == 0, "%s", errout);
	cJSON *arr = cJSON_Parse(out);
	ck_assert_msg(cJSON_IsArray(arr) && cJSON_GetArraySize(arr) == 1, "%s", out);
	const cJSON *x = cJSON_GetArrayItem(arr, 0);
	for (size_t i = 0; i < N_COLUMNS; i++) {
		const struct column *c = &columns[i];
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(x, c->name);
		const void *f = cfield(&o, c);
		ck_assert_msg(v != NULL, "no \"%s\" in %s", c->name, out);
		if (is(c->type, "TEXT"))
			ck_assert_msg(cJSON_IsString(v) &&
			                  is(v->valuestring, *(const char *)f ? f : c->empty),
			              "\"%s\" in %s", c->name, out);
		else if (is(c->type, "INT"))
			ck_assert_msg(cJSON_IsNumber(v) && v->valuedouble == *(const int *)f,
			              "\"%s\" in %s", c->name, out);
		else if (is(c->type, "REAL"))
			ck_assert_msg(cJSON_IsNumber(v) && v->valuedouble == *(const double *)f,
			              "\"%s\" in %s", c->name, out);
		else
			ck_assert_msg(cJSON_IsBool(v) && cJSON_IsTrue(v) == *(const bool *)f,
			              "\"%s\" in %s", c->name, out);
	}
	cJSON_Delete(arr);
	free(out);
	free(errout);
	free(path);
	free(dir);
}
END_TEST

Suite *offer_columns_suite(void)
{
	Suite *s = suite_create("offer_columns");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_offers_table_of_a_new_and_a_migrated_database_is_the_list);
	tcase_add_test(tc, every_column_round_trips_through_a_refresh_and_the_store);
	tcase_add_test(
	    tc, a_feed_row_and_its_stored_offer_hash_alike_and_any_data_column_changes_the_hash);
	tcase_add_test(tc,
	               changing_any_one_column_rewrites_the_offer_and_changing_none_writes_nothing);
	tcase_add_test(tc, offers_json_prints_every_column_of_the_list);
	suite_add_tcase(s, tc);
	return s;
}
