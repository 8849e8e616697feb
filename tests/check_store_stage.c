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

static long one_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	ck_assert_int_eq(sqlite3_prepare_v2(store_handle(st), sql, -1, &s, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	long n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
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
	char *dir = test_tmpdir(), *path = xasprintf("%s/prices.db", dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	long before = one_int(st, "SELECT count(*) FROM price_history WHERE provider = 'vast'");
	/* The snapshot's Vast rows go at the first refresh: gone rows. */
	long snap = one_int(st, "SELECT count(*) FROM offers WHERE provider = 'vast'");
	struct offer *rows = calloc(FIRST + ADDED + 1, sizeof *rows);
	size_t dups;
	/* First refresh: FIRST offers, and offer 5 once more at the end at
	 * another price: the last row of a key wins and is one history row. */
	for (int i = 0; i < FIRST; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	make_offer(&rows[FIRST], 5, 9.0, "2026-11-01T00:00:00Z");
	stage_all(st, rows, FIRST + 1, &dups);
	ck_assert_uint_eq(dups, 1);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"), FIRST);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT price_per_hour FROM offers WHERE offer = 'o5'"), 9.0, 1e-12);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE provider = 'vast' "
	                             "AND recorded_at = '2026-11-01T00:00:00Z' AND gone = 0"),
	                 FIRST);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE provider = 'vast'"),
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
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE "
	                             "recorded_at = '2026-11-02T00:00:00Z' AND gone = 0"),
	                 changed + ADDED);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE "
	                             "recorded_at = '2026-11-02T00:00:00Z' AND gone = 1"),
	                 VANISH);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE gone = 1 AND "
	                             "recorded_at = '2026-11-02T00:00:00Z' AND "
	                             "abs(price_per_hour - (0.5 + CAST(substr(offer, 2) AS "
	                             "INTEGER) * 0.01)) > 1e-9"),
	                 0);
	ck_assert_double_eq_tol(one_double(st, "SELECT price_per_hour FROM price_history WHERE "
	                                       "offer = 'o10' AND recorded_at = "
	                                       "'2026-11-02T00:00:00Z'"),
	                        first_price(10) + 0.5, 1e-12);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history WHERE offer = 'o11' AND "
	                             "recorded_at = '2026-11-02T00:00:00Z'"),
	                 0);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"),
	                 FIRST - VANISH + ADDED);
	assert_dated(st, "2026-11-02T00:00:00Z", FIRST - VANISH + ADDED);
	ck_assert_double_eq_tol(
	    one_double(st, "SELECT sum(price_per_hour) FROM offers WHERE provider = 'vast'"),
	    /* sum of first_price over 0..899 and 1000..1049, plus 90 x 0.5 */
	    (FIRST - VANISH) * 0.5 + 0.01 * (899.0 * 900 / 2) + ADDED * 0.5 +
	        0.01 * (1049.0 * 1050 / 2 - 999.0 * 1000 / 2) + 90 * 0.5,
	    1e-6);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers WHERE provider = 'vast' AND "
	                             "spot = 1"),
	                 300 + 16);
	/* The other providers' rows are left alone. */
	ck_assert_int_gt(one_int(st, "SELECT count(*) FROM offers WHERE provider <> 'vast'"), 0);
	free(rows);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

START_TEST(a_stage_freed_unapplied_or_dropped_back_changes_nothing_it_should_not)
{
	char *dir = test_tmpdir(), *path = xasprintf("%s/prices.db", dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	long offers = one_int(st, "SELECT count(*) FROM offers");
	long hist = one_int(st, "SELECT count(*) FROM price_history");
	struct offer rows[3];
	for (int i = 0; i < 3; i++)
		make_offer(&rows[i], i, first_price(i), "2026-11-01T00:00:00Z");
	/* A feed that fails after two batches: nothing changes. */
	struct store_stage *sg = NULL;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, 2, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_put(sg, rows + 2, 1, &err), PLANNER_OK);
	store_stage_free(sg);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers"), offers);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM price_history"), hist);
	/* A retried download: the rows after the first are forgotten. */
	size_t dups;
	ck_assert_msg(store_stage_open(st, "vast", &sg, &err) == PLANNER_OK, "%s", err);
	ck_assert_int_eq(store_stage_put(sg, rows, 3, &err), PLANNER_OK);
	ck_assert_int_eq(store_stage_drop(sg, 1, &err), PLANNER_OK);
	ck_assert_uint_eq(store_stage_rows(sg), 1);
	ck_assert_int_eq(store_stage_apply(sg, &dups, &err), PLANNER_OK);
	store_stage_free(sg);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers WHERE provider = 'vast'"), 1);
	ck_assert_int_eq(one_int(st, "SELECT count(*) FROM offers WHERE offer = 'o0'"), 1);
	store_close(st);
	free(dir);
	free(path);
}
END_TEST

Suite *store_stage_suite(void)
{
	Suite *s = suite_create("store_stage");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_second_refresh_where_offers_vanish_and_change_writes_exactly_their_history);
	tcase_add_test(tc, a_stage_freed_unapplied_or_dropped_back_changes_nothing_it_should_not);
	suite_add_tcase(s, tc);
	return s;
}
