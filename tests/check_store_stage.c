/* check_store_stage.c — a provider's offers staged in batches as a feed
 * streams, then put in place by set-based statements (store_stage.c):
 * the offers, price history and gone rows are exactly what the row-by-row
 * replace wrote, computed here by hand. */
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store.h"
#include "testutil.h"
#include "util.h"

/* Offers of the first refresh; the second drops the last VANISH, changes
 * the price of every CHANGE_EVERY-th and adds ADDED new ones. */
#define FIRST 1000
#define VANISH 100
#define CHANGE_EVERY 10
#define ADDED 50

/* A new database in a temporary directory, opened on the reference data. */
struct test_db {
	char *dir, *path;
	struct store *st;
};

static struct test_db test_db_open(void)
{
	struct test_db db = {.dir = test_tmpdir()};
	char *err = NULL;
	db.path = xasprintf("%s/prices.db", db.dir);
	ck_assert_msg(store_open(db.path, test_ref(), &db.st, &err) == PLANNER_OK, "%s", err);
	return db;
}

static void test_db_close(struct test_db *db)
{
	store_close(db->st);
	free(db->dir);
	free(db->path);
}

static double one_double(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	ck_assert_int_eq(sqlite3_prepare_v2(store_handle(st), sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	double v = sqlite3_column_double(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* Offer i: id "o<i>", two regions, spot every third, a price of its own. */
static void make_offer(struct offer *o, int i, double price, const char *at)
{
	memset(o, 0, sizeof *o);
	snprintf(o->provider, sizeof o->provider, "vast");
	snprintf(o->offer, sizeof o->offer, "o%d", i);
	snprintf(o->region, sizeof o->region, "%s", i % 2 ? "Quebec, CA" : "Texas, US");
	snprintf(o->gpu, sizeof o->gpu, "%s", i % 3 ? "RTX 4090" : "A100 80GB");
	o->spot = i % 3 == 0;
	o->gpu_count = 1 + i % 4;
	o->vram_gib = 24;
	o->price_per_hour = price;
	o->available = true;
	snprintf(o->fetched_at, sizeof o->fetched_at, "%s", at);
	snprintf(o->source, sizeof o->source, "test");
	snprintf(o->currency, sizeof o->currency, "USD");
}

static double first_price(int i)
{
	return 0.5 + i * 0.01;
}

/* Every Vast offer as the store reads it is dated `at` (an offer the
 * refresh left unwritten reads its provider's date), n of them. */
static void assert_dated(struct store *st, const char *at, size_t n)
{
	struct offer_filter f = {.provider = "vast", .spot = -1};
	struct offer *o = NULL;
	size_t got = 0;
	char *err = NULL;
	ck_assert_msg(store_offers(st, &f, &o, &got, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(got, n);
	for (size_t i = 0; i < got; i++)
		ck_assert_str_eq(o[i].fetched_at, at);
	free(o);
}

/* Stages rows in batches of 64 (as a stream would) and applies them. */
static void stage_all(struct store *st, const struct offer *rows, size_t n, size_t *dups)
{
	struct store_stage *sg = NULL;
	char *err = NULL;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	for (size_t i = 0; i < n; i += 64)
		ck_assert_msg(store_stage_put(sg, rows + i, n - i < 64 ? n - i : 64, &err) ==
		                  PLANNER_OK, "%s", err);
	ck_assert_msg(store_stage_apply(sg, dups, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(store_stage_rows(sg), n - *dups);
	store_stage_free(sg);
}

START_TEST(a_second_refresh_where_offers_vanish_and_change_writes_exactly_their_history)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	long before =
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE provider = 'vast'");
	/* The snapshot's Vast rows go at the first refresh: gone rows. */
	long snap = test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'vast'");
	struct offer *rows = calloc(FIRST + ADDED + 1, sizeof *rows);
	size_t dups;
	/* First refresh: FIRST offers, and offer 5 once more at the end at
	 * another price: the last row of a key wins and is one history row. */
	for (int i = 0; i < FIRST; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	make_offer(&rows[FIRST], 5, 9.0, "2026-11-01T00:00:00Z");
	stage_all(st, rows, FIRST + 1, &dups);
	ck_assert_uint_eq(dups, 1);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"),
	                 FIRST);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT price_per_hour FROM offers WHERE offer = 'o5'"), 9.0, 1e-12);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE provider = 'vast' "
	                        "AND recorded_at = '2026-11-01T00:00:00Z' AND gone = 0"),
	    FIRST);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE provider = 'vast'"),
	    before + snap + FIRST);
	/* Second refresh: offers 0 .. FIRST-VANISH-1, every CHANGE_EVERY-th
	 * dearer by 0.5, and ADDED new ones; 5 is back at its first price. */
	size_t n = 0;
	for (int i = 0; i < FIRST - VANISH; i++)
		make_offer(&rows[n++], i, first_price(i) + (i % CHANGE_EVERY ? 0 : 0.5),
		           "2026-11-02T00:00:00Z");
	for (int i = FIRST; i < FIRST + ADDED; i++)
		make_offer(&rows[n++], i, first_price(i), "2026-11-02T00:00:00Z");
	stage_all(st, rows, n, &dups);
	ck_assert_uint_eq(dups, 0);
	/* Changed: the CHANGE_EVERY-th of the kept (90) and offer 5 (9.0 back
	 * to its first price); new: ADDED; gone: VANISH at their last price. */
	long changed = (FIRST - VANISH) / CHANGE_EVERY + 1;
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history WHERE "
	                                     "recorded_at = '2026-11-02T00:00:00Z' AND gone = 0"),
	                 changed + ADDED);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history WHERE "
	                                     "recorded_at = '2026-11-02T00:00:00Z' AND gone = 1"),
	                 VANISH);
	ck_assert_int_eq(test_store_long(st,
	                                 "SELECT count(*) FROM price_history WHERE gone = 1 AND "
	                                 "recorded_at = '2026-11-02T00:00:00Z' AND "
	                                 "abs(price_per_hour - (0.5 + CAST(substr(offer, 2) AS "
	                                 "INTEGER) * 0.01)) > 1e-9"),
	                 0);
	ck_assert_double_eq_tol(one_double(st, "SELECT price_per_hour FROM price_history WHERE "
	                                       "offer = 'o10' AND recorded_at = "
	                                       "'2026-11-02T00:00:00Z'"),
	                        first_price(10) + 0.5, 1e-12);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE offer = 'o11' AND "
	                        "recorded_at = '2026-11-02T00:00:00Z'"),
	    0);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"),
	                 FIRST - VANISH + ADDED);
	assert_dated(st, "2026-11-02T00:00:00Z", FIRST - VANISH + ADDED);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'"),
	    /* sum of first_price over 0..899 and 1000..1049, plus 90 x 0.5 */
	    (FIRST - VANISH) * 0.5 + 0.01 * (899.0 * 900 / 2) + ADDED * 0.5 +
	        0.01 * (1049.0 * 1050 / 2 - 999.0 * 1000 / 2) + 90 * 0.5,
	    1e-6);
	ck_assert_int_eq(test_store_long(st,
	                                 "SELECT count(*) FROM offers WHERE provider = 'vast' AND "
	                                 "spot = 1"),
	                 300 + 16);
	/* The other providers' rows are left alone. */
	ck_assert_int_gt(
	    test_store_long(st, "SELECT count(*) FROM offers WHERE provider <> 'vast'"), 0);
	free(rows);
	test_db_close(&db);
}
END_TEST

/* A price that moved by a billionth or less is stored but makes no
 * history row; a larger move does; an unmoved price neither. Each stage,
 * applied or not, leaves no database attached. */
START_TEST(a_history_row_needs_a_price_moved_by_more_than_a_billionth)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	struct offer rows[3];
	size_t dups;
	for (int i = 0; i < 3; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	stage_all(st, rows, 3, &dups);
	long hist = test_store_long(st, "SELECT count(*) FROM price_history");
	rows[0].price_per_hour += 1e-12;
	rows[1].price_per_hour += 1e-6;
	for (int i = 0; i < 3; i++)
		snprintf(rows[i].fetched_at, sizeof rows[i].fetched_at, "2026-11-02T00:00:00Z");
	stage_all(st, rows, 3, &dups);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist + 1);
	ck_assert_int_eq(test_store_long(st,
	                                 "SELECT count(*) FROM price_history WHERE offer = 'o1' "
	                                 "AND recorded_at = '2026-11-02T00:00:00Z'"),
	                 1);
	ck_assert_double_eq(one_double(st, "SELECT price_per_hour FROM offers WHERE offer = 'o0'"),
	                    first_price(0) + 1e-12);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM pragma_database_list"), 2);
	test_db_close(&db);
}
END_TEST

START_TEST(a_stage_freed_unapplied_or_dropped_back_changes_nothing_it_should_not)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	char *err = NULL;
	long offers = test_store_long(st, "SELECT count(*) FROM offers");
	long hist = test_store_long(st, "SELECT count(*) FROM price_history");
	struct offer rows[3];
	for (int i = 0; i < 3; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	/* A feed that fails after two batches: nothing changes. */
	struct store_stage *sg = NULL;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, 2, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_put(sg, rows + 2, 1, &err), PLANNER_OK);
	store_stage_free(sg);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers"), offers);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM pragma_database_list"), 2);
	/* A retried download: the rows after the first are forgotten. */
	size_t dups;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, 3, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_drop(sg, 1, &err), PLANNER_OK);
	ck_assert_uint_eq(store_stage_rows(sg), 1);
	ck_assert_int_eq(store_stage_apply(sg, &dups, &err), PLANNER_OK);
	store_stage_free(sg);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"),
	                 1);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM offers WHERE offer = 'o0'"), 1);
	test_db_close(&db);
}
END_TEST

/* FIRST offers at their first prices, dated at, into rows. */
static void first_rows(struct offer *rows, const char *at)
{
	for (int i = 0; i < FIRST; i++)
		make_offer(&rows[i], i, first_price(i), at);
}

/* Counts the offers rows written from now on (temp.writes). */
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

START_TEST(an_unchanged_offer_is_not_rewritten_and_reads_the_refresh_date)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	char *err = NULL;
	struct offer *rows = calloc(FIRST, sizeof *rows);
	size_t dups;
	char snap[512], snap2[512], as_of[24];
	ck_assert_int_eq(store_snapshot_dates(st, snap, sizeof snap, &err), PLANNER_OK);
	first_rows(rows, "2027-01-01T00:00:00Z");
	stage_all(st, rows, FIRST, &dups);
	/* A database of schema 7 dated every row itself: the next refresh
	 * moves the rows to the provider's date, writing each once. */
	ck_assert_int_eq(sqlite3_exec(store_handle(st),
	                              "UPDATE offers SET fetched_at = '2027-01-01T00:00:00Z' "
	                              "WHERE provider = 'vast'",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	long hist = test_store_long(st, "SELECT count(*) FROM price_history");
	count_writes(st);
	first_rows(rows, "2027-01-02T00:00:00Z");
	stage_all(st, rows, FIRST, &dups);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM temp.writes"), FIRST);
	assert_dated(st, "2027-01-02T00:00:00Z", FIRST);
	/* The same feed a day later: nothing written, every offer dated anew. */
	count_writes(st);
	first_rows(rows, "2027-01-03T00:00:00Z");
	stage_all(st, rows, FIRST, &dups);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM temp.writes"), 0);
	assert_dated(st, "2027-01-03T00:00:00Z", FIRST);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist);
	ck_assert_int_eq(store_prices_as_of(st, as_of, sizeof as_of, &err), PLANNER_OK);
	ck_assert_str_eq(as_of, "2027-01-03T00:00:00Z");
	/* Ten repriced: ten rows written, ten history rows at the new date. */
	count_writes(st);
	first_rows(rows, "2027-01-04T00:00:00Z");
	for (int i = 0; i < 10; i++)
		rows[i * 7].price_per_hour += 0.25;
	stage_all(st, rows, FIRST, &dups);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM temp.writes"), 10);
	assert_dated(st, "2027-01-04T00:00:00Z", FIRST);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history WHERE "
	                                     "recorded_at = '2027-01-04T00:00:00Z' AND gone = 0"),
	                 10);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist + 10);
	/* The snapshot's providers keep their own dates. */
	ck_assert_int_eq(store_snapshot_dates(st, snap2, sizeof snap2, &err), PLANNER_OK);
	ck_assert_ptr_nonnull(strstr(snap, "vast "));
	ck_assert_ptr_null(strstr(snap2, "vast "));
	ck_assert_ptr_nonnull(strstr(snap2, "lambda 2026-11-30")); /* its oldest bundled row */
	free(rows);
	test_db_close(&db);
}
END_TEST

START_TEST(a_repeated_key_is_its_last_row_against_the_stored_offer)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	struct offer *rows = calloc(FIRST + 2, sizeof *rows);
	size_t dups;
	first_rows(rows, "2026-11-01T00:00:00Z");
	stage_all(st, rows, FIRST, &dups);
	long hist = test_store_long(st, "SELECT count(*) FROM price_history");
	/* o5 unchanged, then at 9.0; o6 at 9.0, then unchanged again. */
	first_rows(rows, "2026-11-02T00:00:00Z");
	rows[6].price_per_hour = 9.0;
	make_offer(&rows[FIRST], 5, 9.0, "2026-11-02T00:00:00Z");
	make_offer(&rows[FIRST + 1], 6, first_price(6), "2026-11-02T00:00:00Z");
	stage_all(st, rows, FIRST + 2, &dups);
	ck_assert_uint_eq(dups, 2);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT price_per_hour FROM offers WHERE offer = 'o5'"), 9.0, 1e-12);
	ck_assert_double_eq_tol(one_double(st, "SELECT price_per_hour FROM offers WHERE offer = 'o6'"),
	                        first_price(6), 1e-12);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist + 1);
	ck_assert_int_eq(
	    test_store_long(st, "SELECT count(*) FROM price_history WHERE offer = 'o5' AND "
	                        "recorded_at = '2026-11-02T00:00:00Z' AND price_per_hour = 9.0"),
	    1);
	assert_dated(st, "2026-11-02T00:00:00Z", FIRST);
	free(rows);
	test_db_close(&db);
}
END_TEST

/* A provider's commitments are replaced in the write of its offers: a
 * commitment the store refuses (a GPU count of 0) keeps both the offers
 * and the commitments as they were; a good one lands with the offers. */
static void make_term(struct offer_term *t, int gpus, double price)
{
	memset(t, 0, sizeof *t);
	make_offer(&t->o, 1, price, "2026-11-03T00:00:00Z");
	t->o.gpu_count = gpus;
	snprintf(t->term, sizeof t->term, "1y");
	snprintf(t->option, sizeof t->option, "No Upfront");
}

static void stage_with_terms(struct store *st, const struct offer *rows, size_t n,
                             const struct offer_term *terms, size_t n_terms, int want)
{
	struct store_stage *sg = NULL;
	size_t dups = 0;
	char *err = NULL;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, n, &err), PLANNER_OK);
	store_stage_terms(sg, terms, n_terms);
	ck_assert_int_eq(store_stage_apply(sg, &dups, &err), want);
	free(err);
	store_stage_free(sg);
}

START_TEST(offers_and_commitments_are_written_together_or_not_at_all)
{
	struct test_db db = test_db_open();
	struct offer rows[8];
	for (int i = 0; i < 8; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	struct offer_term good, bad;
	make_term(&good, 1, 0.4);
	make_term(&bad, 0, 0.4);
	stage_with_terms(db.st, rows, 8, &good, 1, PLANNER_OK);
	ck_assert_int_eq(test_store_long(db.st, "SELECT count(*) FROM offer_terms"), 1);
	double sum = one_double(db.st, "SELECT sum(price_per_hour) FROM offers WHERE provider = "
	                               "'vast'");
	for (int i = 0; i < 8; i++)
		rows[i].price_per_hour *= 2;
	stage_with_terms(db.st, rows, 8, &bad, 1, PLANNER_EDB);
	ck_assert_double_eq_tol(
	    one_double(db.st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'"),
	    sum, 1e-9);
	ck_assert_double_eq_tol(one_double(db.st, "SELECT price_per_hour FROM offer_terms"), 0.4,
	                        1e-12);
	stage_with_terms(db.st, rows, 8, NULL, 0, PLANNER_OK);
	ck_assert_double_eq_tol(
	    one_double(db.st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'"),
	    2 * sum, 1e-9);
	ck_assert_int_eq(test_store_long(db.st, "SELECT count(*) FROM offer_terms"), 0);
	test_db_close(&db);
}
END_TEST

START_TEST(a_feed_that_fails_midway_leaves_prices_dates_and_history_as_they_were)
{
	struct test_db db = test_db_open();
	struct store *st = db.st;
	char *err = NULL;
	struct offer *rows = calloc(FIRST, sizeof *rows);
	size_t dups;
	first_rows(rows, "2026-11-01T00:00:00Z");
	stage_all(st, rows, FIRST, &dups);
	long hist = test_store_long(st, "SELECT count(*) FROM price_history");
	double sum = one_double(st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'");
	/* Half the feed, every price changed, then the connection drops. */
	struct store_stage *sg = NULL;
	first_rows(rows, "2026-11-02T00:00:00Z");
	for (int i = 0; i < FIRST; i++)
		rows[i].price_per_hour *= 2;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, FIRST / 2, &err), PLANNER_OK);
	store_stage_free(sg);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'"), sum,
	    1e-9);
	assert_dated(st, "2026-11-01T00:00:00Z", FIRST);
	/* A retried download: the changed rows dropped back, the feed again
	 * as stored; nothing is repriced, the offers read the new date. */
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, FIRST / 2, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_drop(sg, 0, &err), PLANNER_OK);
	first_rows(rows, "2026-11-02T00:00:00Z");
	ck_assert_int_eq(store_stage_put(sg, rows, FIRST, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_apply(sg, &dups, &err), PLANNER_OK);
	ck_assert_uint_eq(dups, 0);
	ck_assert_uint_eq(store_stage_rows(sg), FIRST);
	store_stage_free(sg);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist);
	assert_dated(st, "2026-11-02T00:00:00Z", FIRST);
	/* Another writer between the read of the stored offers and the
	 * replace: refused, nothing changed. */
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, FIRST, &err), PLANNER_OK);
	sqlite3 *other = NULL;
	ck_assert_int_eq(sqlite3_open(db.path, &other), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(other, "UPDATE offers SET price_per_hour = 7 WHERE offer = 'o1'",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	sqlite3_close(other);
	ck_assert_int_eq(store_stage_apply(sg, &dups, &err), PLANNER_EDB);
	ck_assert_ptr_nonnull(strstr(err, "another process"));
	free(err);
	err = NULL;
	store_stage_free(sg);
	ck_assert_int_eq(test_store_long(st, "SELECT count(*) FROM price_history"), hist);
	assert_dated(st, "2026-11-02T00:00:00Z", FIRST);
	/* A write by another process that leaves this provider's offers as
	 * they were (another provider's price; a refresh that found the lock
	 * taken records its run) does not refuse the replace. */
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, FIRST, &err), PLANNER_OK);
	ck_assert_int_eq(sqlite3_open(db.path, &other), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(other,
	                              "UPDATE offers SET price_per_hour = price_per_hour + 1 "
	                              "WHERE provider <> 'vast'",
	                              NULL, NULL, NULL),
	                 SQLITE_OK);
	ck_assert_int_gt(sqlite3_changes(other), 0);
	sqlite3_close(other);
	ck_assert_msg(store_stage_apply(sg, &dups, &err) == PLANNER_OK, "%s", err);
	store_stage_free(sg);
	free(rows);
	test_db_close(&db);
}
END_TEST

Suite *store_stage_suite(void)
{
	Suite *s = suite_create("store_stage");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_second_refresh_where_offers_vanish_and_change_writes_exactly_their_history);
	tcase_add_test(tc, a_history_row_needs_a_price_moved_by_more_than_a_billionth);
	tcase_add_test(tc, a_stage_freed_unapplied_or_dropped_back_changes_nothing_it_should_not);
	tcase_add_test(tc, an_unchanged_offer_is_not_rewritten_and_reads_the_refresh_date);
	tcase_add_test(tc, a_repeated_key_is_its_last_row_against_the_stored_offer);
	tcase_add_test(tc, a_feed_that_fails_midway_leaves_prices_dates_and_history_as_they_were);
	tcase_add_test(tc, offers_and_commitments_are_written_together_or_not_at_all);
	suite_add_tcase(s, tc);
	return s;
}
