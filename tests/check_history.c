/* check_history.c — price curves over refreshes (planner/history.c) and
 * `planner history` end to end on a database whose history was written by
 * store_replace_offers at different fetched_at times. */
#include <check.h>
#include <stdbool.h>
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "history.h"
#include "store.h"
#include "testutil.h"
#include "util.h"

static struct price_point point(const char *gpu, const char *offer, int count, double price,
				const char *at)
{
	struct price_point p = {.gpu_count = count, .price_per_hour = price};
	snprintf(p.provider, sizeof p.provider, "acme");
	snprintf(p.offer, sizeof p.offer, "%s", offer);
	snprintf(p.gpu, sizeof p.gpu, "%s", gpu);
	snprintf(p.recorded_at, sizeof p.recorded_at, "%s", at);
	return p;
}

START_TEST(an_unchanged_price_carries_forward_and_prices_are_per_gpu_hour)
{
	/* As store_price_history orders them: by gpu, then time. */
	const struct price_point rows[] = {
		point("A100 80GB", "a", 1, 1.0, "2026-01-01T00:00:00Z"),
		point("H100 SXM", "two", 2, 4.0, "2026-01-01T00:00:00Z"), /* 2.0 per GPU */
		point("H100 SXM", "one", 1, 3.0, "2026-01-01T00:00:00Z"),
		point("H100 SXM", "two", 2, 3.0, "2026-01-08T00:00:00Z"), /* now 1.5 */
		point("H100 SXM", "new", 1, 2.5, "2026-01-08T00:00:00Z"),
	};
	struct history_curve *c = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(history_curves(rows, 5, &c, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_str_eq(c[0].gpu, "A100 80GB");
	ck_assert_int_eq(c[0].n_steps, 1);
	const struct history_curve *h = &c[1];
	ck_assert_str_eq(h->gpu, "H100 SXM");
	ck_assert_int_eq(h->n_steps, 2);
	ck_assert_str_eq(h->steps[0].at, "2026-01-01T00:00:00Z");
	ck_assert_int_eq(h->steps[0].offers, 2);
	ck_assert_double_eq_tol(h->steps[0].min, 2.0, 1e-12);
	ck_assert_double_eq_tol(h->steps[0].median, 2.5, 1e-12); /* of 2.0 and 3.0 */
	ck_assert_int_eq(h->steps[1].offers, 3); /* "one" kept its 3.0 */
	ck_assert_double_eq_tol(h->steps[1].min, 1.5, 1e-12);
	ck_assert_double_eq_tol(h->steps[1].median, 2.5, 1e-12); /* of 1.5, 2.5, 3.0 */
	history_curves_free(c, n);
	ck_assert_int_eq(history_curves(NULL, 0, &c, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 0);
	history_curves_free(c, n);
	history_curves_free(NULL, 0);
}
END_TEST

START_TEST(the_sparkline_spans_the_lowest_to_the_highest_block)
{
	char buf[64];
	const double rising[] = {1, 2, 3};
	history_sparkline(rising, 3, buf, sizeof buf);
	ck_assert_str_eq(buf, "\u2581\u2585\u2588");
	const double flat[] = {2, 2};
	history_sparkline(flat, 2, buf, sizeof buf);
	ck_assert_str_eq(buf, "\u2584\u2584");
	history_sparkline(rising, 3, buf, 7); /* room for two blocks and the NUL */
	ck_assert_str_eq(buf, "\u2581\u2585");
	history_sparkline(rising, 0, buf, sizeof buf);
	ck_assert_str_eq(buf, "");
}
END_TEST

/* A database where histco refreshed three times a week apart: a 1-GPU
 * H100 offer at 2.40, 2.10, 2.25, and a 2-GPU one at 5.00 (2.50 a GPU)
 * listed once and never changed. */
static char *history_db(char **dir)
{
	*dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", *dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	static const char *const when[] = {"2026-12-01T03:00:00Z", "2026-12-08T03:00:00Z",
					   "2026-12-15T03:00:00Z"};
	static const double price[] = {2.40, 2.10, 2.25};
	for (int i = 0; i < 3; i++) {
		struct offer o[2] = {
			{.provider = "histco", .offer = "h100-1x", .gpu = "H100 SXM",
			 .gpu_count = 1, .vram_gib = 80, .price_per_hour = price[i],
			 .available = true},
			{.provider = "histco", .offer = "h100-2x", .gpu = "H100 SXM",
			 .gpu_count = 2, .vram_gib = 80, .price_per_hour = 5.0, .available = true},
		};
		snprintf(o[0].fetched_at, sizeof o[0].fetched_at, "%s", when[i]);
		snprintf(o[1].fetched_at, sizeof o[1].fetched_at, "%s", when[i]);
		ck_assert_int_eq(store_replace_offers(st, "histco", o, 2, &err), PLANNER_OK);
	}
	struct price_point *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_price_history(st, "H100 SXM", "histco", &rows, &n, &err),
			 PLANNER_OK);
	ck_assert_int_eq(n, 4); /* the 2-GPU offer's price never changed: one row */
	ck_assert_str_eq(rows[0].recorded_at, "2026-12-01T03:00:00Z");
	free(rows);
	store_close(st);
	return db;
}

START_TEST(history_json_gives_min_and_median_per_refresh)
{
	char *dir, *db = history_db(&dir), *out = NULL;
	const char *argv[] = {"history", "h100", "--provider", "histco", "--format", "json",
			      "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "gpu")->valuestring, "H100 SXM");
	ck_assert_str_eq(cJSON_GetObjectItem(root, "currency")->valuestring, "USD");
	const cJSON *pts = cJSON_GetObjectItem(root, "points");
	ck_assert_int_eq(cJSON_GetArraySize(pts), 3);
	static const double min[] = {2.40, 2.10, 2.25}, median[] = {2.45, 2.30, 2.375};
	for (int i = 0; i < 3; i++) {
		const cJSON *p = cJSON_GetArrayItem(pts, i);
		ck_assert_int_eq(cJSON_GetObjectItem(p, "offers")->valueint, 2);
		ck_assert_double_eq_tol(cJSON_GetObjectItem(p, "min")->valuedouble, min[i], 1e-9);
		ck_assert_double_eq_tol(cJSON_GetObjectItem(p, "median")->valuedouble, median[i],
					1e-9);
	}
	cJSON_Delete(root);
	free(out);
	free(db);
	free(dir);
}
END_TEST

START_TEST(history_table_has_a_sparkline_and_csv_names_its_units)
{
	char *dir, *db = history_db(&dir), *out = NULL;
	const char *table[] = {"history", "H100", "SXM", "--provider", "histco", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "USD per GPU-hour over 3 refreshes"));
	ck_assert_ptr_nonnull(strstr(out, "min     \u2588\u2581\u2585  2.40 -> 2.25"));
	ck_assert_ptr_null(strstr(out, "\033[")); /* no colour when not a terminal */
	free(out);
	const char *csv[] = {"history", "H100 SXM", "--provider", "histco", "--format", "csv",
			     "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, NULL), 0);
	ck_assert_str_eq(out, "refreshed_at,offers,min_usd_per_gpu_hour,median_usd_per_gpu_hour,"
			      "provider\r\n"
			      "2026-12-01T03:00:00Z,2,2.4000,2.4500,histco\r\n"
			      "2026-12-08T03:00:00Z,2,2.1000,2.3000,histco\r\n"
			      "2026-12-15T03:00:00Z,2,2.2500,2.3750,histco\r\n");
	free(out);
	char *err = NULL;
	const char *bad[] = {"history", "H10O", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "unknown GPU 'H10O'"));
	free(err);
	const char *none[] = {"history", "H100 SXM", "--provider", "nobody", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(none, NULL, &out, &err), 0);
	ck_assert_ptr_nonnull(strstr(err, "no price history for H100 SXM at nobody"));
	free(out);
	free(err);
	free(db);
	free(dir);
}
END_TEST

/* Issue 12 item 9: the latest refresh showed 4 offers and a minimum of
 * 0.10 where one offer at 0.50 existed. Four offers at 0.10..0.40, then a
 * refresh listing only a new one at 0.50: history counts one. */
START_TEST(an_offer_that_vanished_from_its_feed_is_not_counted_later)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	struct offer o[4];
	for (int i = 0; i < 4; i++) {
		o[i] = (struct offer){.provider = "histco", .gpu = "H100 SXM", .gpu_count = 1,
				      .vram_gib = 80, .price_per_hour = 0.10 * (i + 1),
				      .available = true, .fetched_at = "2026-12-01T03:00:00Z"};
		snprintf(o[i].offer, sizeof o[i].offer, "old-%d", i);
	}
	ck_assert_int_eq(store_replace_offers(st, "histco", o, 4, &err), PLANNER_OK);
	struct offer now = {.provider = "histco", .offer = "new", .gpu = "H100 SXM",
			    .gpu_count = 1, .vram_gib = 80, .price_per_hour = 0.50,
			    .available = true, .fetched_at = "2026-12-08T03:00:00Z"};
	ck_assert_int_eq(store_replace_offers(st, "histco", &now, 1, &err), PLANNER_OK);
	/* A third refresh lists "old-0" again: it counts once more. */
	o[0].price_per_hour = 0.20;
	snprintf(o[0].fetched_at, sizeof o[0].fetched_at, "2026-12-15T03:00:00Z");
	snprintf(now.fetched_at, sizeof now.fetched_at, "2026-12-15T03:00:00Z");
	struct offer both[2] = {now, o[0]};
	ck_assert_int_eq(store_replace_offers(st, "histco", both, 2, &err), PLANNER_OK);
	struct price_point *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(store_price_history(st, "H100 SXM", "histco", &rows, &n, &err),
			 PLANNER_OK);
	struct history_curve *c = NULL;
	size_t nc = 0;
	ck_assert_int_eq(history_curves(rows, n, &c, &nc, &err), PLANNER_OK);
	ck_assert_uint_eq(nc, 1);
	ck_assert_uint_eq(c[0].n_steps, 3);
	ck_assert_uint_eq(c[0].steps[0].offers, 4);
	ck_assert_double_eq_tol(c[0].steps[0].min, 0.10, 1e-12);
	ck_assert_uint_eq(c[0].steps[1].offers, 1);
	ck_assert_double_eq_tol(c[0].steps[1].min, 0.50, 1e-12);
	ck_assert_double_eq_tol(c[0].steps[1].median, 0.50, 1e-12);
	ck_assert_uint_eq(c[0].steps[2].offers, 2);
	ck_assert_double_eq_tol(c[0].steps[2].min, 0.20, 1e-12);
	history_curves_free(c, nc);
	free(rows);
	store_close(st);
	free(db);
	free(dir);
}
END_TEST

/* The curve of one GPU's rows[0..n) recounted the slow, obvious way: at
 * each refresh time, every offer's newest row at or before it, counted
 * unless that row is a gone row. Returns the number of steps written. */
static size_t recount(const struct price_point *rows, size_t n, struct history_step *steps)
{
	size_t n_steps = 0;
	double *prices = calloc(n + 1, sizeof *prices);
	ck_assert_ptr_nonnull(prices);
	for (size_t t = 0; t < n; t++) {
		if (t + 1 < n && !strcmp(rows[t + 1].recorded_at, rows[t].recorded_at))
			continue; /* the last row of this refresh */
		size_t k = 0;
		for (size_t i = 0; i <= t; i++) {
			bool newest = true;
			for (size_t j = i + 1; j <= t && newest; j++)
				newest = !(rows[j].spot == rows[i].spot &&
					   !strcmp(rows[j].provider, rows[i].provider) &&
					   !strcmp(rows[j].offer, rows[i].offer) &&
					   !strcmp(rows[j].region, rows[i].region));
			if (newest && !rows[i].gone)
				prices[k++] = rows[i].price_per_hour / rows[i].gpu_count;
		}
		if (k == 0)
			continue;
		for (size_t a = 1; a < k; a++) /* insertion sort */
			for (size_t b = a; b > 0 && prices[b - 1] > prices[b]; b--) {
				double x = prices[b];
				prices[b] = prices[b - 1];
				prices[b - 1] = x;
			}
		struct history_step *st = &steps[n_steps++];
		snprintf(st->at, sizeof st->at, "%s", rows[t].recorded_at);
		st->offers = k;
		st->min = prices[0];
		st->median = k % 2 ? prices[k / 2] : (prices[k / 2 - 1] + prices[k / 2]) / 2;
	}
	free(prices);
	return n_steps;
}

/* The churn: offers per GPU, refreshes. */
enum { CHURN_OFFERS = 300, CHURN_REFRESHES = 30 };

/* Rows of two GPUs over CHURN_REFRESHES refreshes where offers come, change price, go
 * and come back, many at once (the offer set grows past its first room
 * and loses offers in the middle of probe runs), from a fixed seed. */
static size_t churn(struct price_point *rows, size_t cap)
{
	unsigned long long x = 42;
	size_t n = 0;
	static const char *const gpus[] = {"A100 80GB", "H100 SXM"};
	static const char *const providers[] = {"acme", "zeta"};
	for (int g = 0; g < 2; g++) {
		bool listed[CHURN_OFFERS] = {0};
		for (int t = 0; t < CHURN_REFRESHES; t++) {
			char at[32]; /* room for any int, so -Wformat-truncation holds at -O1 */
			snprintf(at, sizeof at, "2026-01-%02dT00:00:00Z", t + 1);
			for (int o = 0; o < CHURN_OFFERS && n < cap; o++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				unsigned r = (unsigned)(x >> 33) % 100;
				bool go = listed[o] && r < 15, change = r >= 15 && r < 40;
				if (!go && !change)
					continue;
				char id[16];
				snprintf(id, sizeof id, "o%d", o);
				struct price_point p = point(gpus[g], id, 1 + o % 4,
							     0.5 + (double)((x >> 20) % 400) / 100, at);
				snprintf(p.provider, sizeof p.provider, "%s", providers[o % 2]);
				p.spot = o % 3 == 0;
				p.gone = go;
				listed[o] = !go;
				rows[n++] = p;
			}
		}
	}
	return n;
}

START_TEST(curves_built_row_by_row_match_a_recount_at_every_refresh)
{
	enum { CAP = 2 * CHURN_REFRESHES * CHURN_OFFERS };
	struct price_point *rows = calloc(CAP, sizeof *rows);
	struct history_step *want = calloc(CAP, sizeof *want);
	ck_assert_ptr_nonnull(rows);
	ck_assert_ptr_nonnull(want);
	size_t n = churn(rows, CAP), half = 0;
	while (half < n && !strcmp(rows[half].gpu, rows[0].gpu))
		half++;
	struct history_curve *c = NULL;
	size_t nc = 0;
	char *err = NULL;
	ck_assert_int_eq(history_curves(rows, n, &c, &nc, &err), PLANNER_OK);
	ck_assert_uint_eq(nc, 4); /* two GPUs at two providers */
	struct price_point *one = calloc(CAP, sizeof *one);
	ck_assert_ptr_nonnull(one);
	static const char *const provs[] = {"acme", "zeta"};
	for (size_t k = 0; k < 4; k++) {
		size_t from = k / 2 ? half : 0, to = k / 2 ? n : half, m = 0;
		for (size_t i = from; i < to; i++) /* one GPU at one provider */
			if (!strcmp(rows[i].provider, provs[k % 2]))
				one[m++] = rows[i];
		size_t n_want = recount(one, m, want);
		ck_assert_str_eq(c[k].gpu, rows[from].gpu);
		ck_assert_str_eq(c[k].provider, provs[k % 2]);
		ck_assert_uint_eq(c[k].n_steps, n_want);
		ck_assert_uint_eq(n_want, CHURN_REFRESHES);
		for (size_t i = 0; i < n_want; i++) {
			ck_assert_str_eq(c[k].steps[i].at, want[i].at);
			ck_assert_uint_eq(c[k].steps[i].offers, want[i].offers);
			ck_assert_double_eq(c[k].steps[i].min, want[i].min);
			ck_assert_double_eq(c[k].steps[i].median, want[i].median);
		}
	}
	history_curves_free(c, nc);
	free(one);
	free(rows);
	free(want);
}
END_TEST

/* Issue 26: one provider at 3.15 on one date and another at 1.52 on a
 * later one are two curves of one point each, not a trend from 3.15 to
 * 1.52 over two refreshes; a provider's own refreshes are its curve's
 * steps, however the other provider's dates fall between them. */
START_TEST(a_curve_is_one_providers_refreshes_never_a_mix_of_providers)
{
	struct price_point rows[] = {
		point("H100 SXM", "x", 1, 3.15, "2026-08-22T00:00:00Z"),
		point("H100 SXM", "y", 1, 2.00, "2026-09-01T00:00:00Z"),
		point("H100 SXM", "z", 1, 1.52, "2026-11-30T00:00:00Z"),
		point("H100 SXM", "y", 1, 1.80, "2026-12-01T00:00:00Z"),
	};
	snprintf(rows[0].provider, sizeof rows[0].provider, "ovh");
	snprintf(rows[2].provider, sizeof rows[2].provider, "bvast");
	struct history_curve *c = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(history_curves(rows, 4, &c, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 3);
	/* By provider: acme (y), bvast (z), ovh (x). */
	ck_assert_str_eq(c[0].provider, "acme");
	ck_assert_uint_eq(c[0].n_steps, 2);
	ck_assert_uint_eq(c[0].steps[1].offers, 1); /* x and z are not acme's */
	ck_assert_double_eq_tol(c[0].steps[0].min, 2.00, 1e-12);
	ck_assert_double_eq_tol(c[0].steps[1].min, 1.80, 1e-12);
	ck_assert_str_eq(c[1].provider, "bvast");
	ck_assert_uint_eq(c[1].n_steps, 1);
	ck_assert_str_eq(c[2].provider, "ovh");
	ck_assert_uint_eq(c[2].n_steps, 1);
	ck_assert_double_eq_tol(c[2].steps[0].min, 3.15, 1e-12);
	for (size_t k = 0; k < n; k++)
		ck_assert_str_eq(c[k].gpu, "H100 SXM");
	history_curves_free(c, n);
}
END_TEST

/* history_db's histco, and oldco with one H100 at 3.15 a week before. */
static char *two_provider_db(char **dir)
{
	char *db = history_db(dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	struct offer o = {.provider = "oldco", .offer = "h100", .gpu = "H100 SXM",
			  .gpu_count = 1, .vram_gib = 80, .price_per_hour = 3.15,
			  .available = true, .fetched_at = "2026-11-24T03:00:00Z"};
	ck_assert_int_eq(store_replace_offers(st, "oldco", &o, 1, &err), PLANNER_OK);
	store_close(st);
	return db;
}

START_TEST(history_without_a_provider_gives_each_provider_its_own_series)
{
	char *dir, *db = two_provider_db(&dir), *out = NULL;
	const char *json[] = {"history", "H100 SXM", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(json, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	/* The snapshot's providers of the GPU too, each with its one date. */
	const cJSON *one = NULL;
	int seen = 0;
	cJSON_ArrayForEach(one, cJSON_GetObjectItem(root, "series"))
	{
		const char *p = cJSON_GetObjectItem(one, "provider")->valuestring;
		int points = cJSON_GetArraySize(cJSON_GetObjectItem(one, "points"));
		ck_assert_int_eq(points, !strcmp(p, "histco") ? 3 : 1);
		seen += !strcmp(p, "histco") || !strcmp(p, "oldco");
	}
	ck_assert_int_eq(seen, 2);
	ck_assert_ptr_null(cJSON_GetObjectItem(root, "points")); /* no mixed series */
	cJSON_Delete(root);
	free(out);
	const char *table[] = {"history", "H100 SXM", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "at each provider over its own refreshes"));
	/* histco's trend is its own 2.40 -> 2.25; oldco's one point none. */
	const char *h = strstr(out, "\nhistco "), *o = strstr(out, "\noldco ");
	ck_assert_ptr_nonnull(h);
	ck_assert_ptr_nonnull(o);
	ck_assert_ptr_nonnull(strstr(h, "\u2588\u2581\u2585 2.40 -> 2.25\n"));
	ck_assert_ptr_null(strstr(out, "3.15 ->"));
	ck_assert_ptr_null(strstr(out, "over 4 refreshes"));
	free(out);
	const char *csv[] = {"history", "H100 SXM", "--format", "csv", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "\n2026-11-24T03:00:00Z,1,3.1500,3.1500,oldco\r\n"));
	free(out);
	free(db);
	free(dir);
}
END_TEST

/* Counts the rows store_each_price_point hands over and stops at the
 * `stop_at`th with PLANNER_EINPUT. */
struct tally {
	struct price_point *rows;
	size_t n, stop_at;
};

static int tally_row(const struct price_point *row, void *arg, char **err)
{
	struct tally *t = arg;
	if (t->n == t->stop_at)
		return set_err(err, PLANNER_EINPUT, "enough");
	t->rows[t->n++] = *row;
	return PLANNER_OK;
}

START_TEST(streamed_rows_are_the_stored_rows_in_their_order_until_the_callback_stops)
{
	char *dir, *db = history_db(&dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	struct price_point *rows = NULL, got[8];
	size_t n = 0;
	ck_assert_int_eq(store_price_history(st, NULL, NULL, &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_ge(n, 4);
	const char *gpus[] = {NULL, "H100 SXM"};
	for (int g = 0; g < 2; g++) {
		struct tally t = {.rows = got, .stop_at = 8};
		ck_assert_int_eq(store_each_price_point(st, gpus[g], "histco", tally_row, &t, &err),
				 PLANNER_OK);
		ck_assert_uint_eq(t.n, 4);
		/* histco's are the H100s, in the stored order, other providers'
		 * rows (the snapshot's) between them or not */
		size_t k = 0;
		for (size_t i = 0; i < t.n; i++, k++) {
			while (k < n && strcmp(rows[k].provider, "histco"))
				k++;
			ck_assert_uint_lt(k, n);
			ck_assert_int_eq(memcmp(&got[i], &rows[k], sizeof got[i]), 0);
		}
	}
	struct tally t = {.rows = got, .stop_at = 2};
	ck_assert_int_eq(store_each_price_point(st, NULL, NULL, tally_row, &t, &err),
			 PLANNER_EINPUT);
	ck_assert_str_eq(err, "enough");
	ck_assert_uint_eq(t.n, 2);
	free(err);
	free(rows);
	store_close(st);
	free(db);
	free(dir);
}
END_TEST

Suite *history_suite(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("curves");
	tcase_add_test(tc, an_unchanged_price_carries_forward_and_prices_are_per_gpu_hour);
	tcase_add_test(tc, the_sparkline_spans_the_lowest_to_the_highest_block);
	tcase_add_test(tc, curves_built_row_by_row_match_a_recount_at_every_refresh);
	tcase_add_test(tc, a_curve_is_one_providers_refreshes_never_a_mix_of_providers);
	suite_add_tcase(s, tc);
	TCase *e2e = tcase_create("end to end");
	tcase_set_timeout(e2e, 0); /* no wall-clock limit: runs are slow under ASan */
	tcase_add_test(e2e, history_json_gives_min_and_median_per_refresh);
	tcase_add_test(e2e, history_table_has_a_sparkline_and_csv_names_its_units);
	tcase_add_test(e2e, history_without_a_provider_gives_each_provider_its_own_series);
	tcase_add_test(e2e, an_offer_that_vanished_from_its_feed_is_not_counted_later);
	tcase_add_test(e2e, streamed_rows_are_the_stored_rows_in_their_order_until_the_callback_stops);
	suite_add_tcase(s, e2e);
	return s;
}
