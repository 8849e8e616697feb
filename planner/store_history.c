/* store_history.c — price-history rows streamed to a callback (issue 16):
 * `planner report` and `planner history` fold the rows into curves as
 * they come, so they hold one row at a time, not every row of the table
 * (3.1 M rows, about 1.1 GB as struct price_point, after 30 nightly
 * refreshes of 50,000 changing offers). */
#include <stdlib.h>

#include "store_int.h"
#include "util.h"

/* Column i as text into dst (len bytes), cut to fit as store_copy_text
 * cuts it (the columns hold no NUL), without its snprintf: that took 15 %
 * of `planner history` over 3.1 M rows (perf record --call-graph dwarf,
 * 2026-12-01). */
static void copy_column(char *dst, size_t len, sqlite3_stmt *s, int i)
{
	const unsigned char *src = sqlite3_column_text(s, i);
	size_t n = src ? (size_t)sqlite3_column_bytes(s, i) : 0;
	if (n >= len)
		n = len - 1;
	memcpy(dst, src ? (const char *)src : "", n);
	dst[n] = '\0';
}

static void read_point(sqlite3_stmt *s, struct price_point *p)
{
	copy_column(p->provider, sizeof p->provider, s, 0);
	copy_column(p->offer, sizeof p->offer, s, 1);
	copy_column(p->region, sizeof p->region, s, 2);
	p->spot = sqlite3_column_int(s, 3) != 0;
	copy_column(p->gpu, sizeof p->gpu, s, 4);
	p->gpu_count = sqlite3_column_int(s, 5);
	p->price_per_hour = sqlite3_column_double(s, 6);
	copy_column(p->recorded_at, sizeof p->recorded_at, s, 7);
	p->gone = sqlite3_column_int(s, 8) != 0;
	copy_column(p->currency, sizeof p->currency, s, 9);
}

/* The rows of one GPU use price_history_by_gpu for `gpu = ?`; the rows of
 * every GPU scan it in order. Either way SQLite sorts only the rows of one
 * (gpu, recorded_at), one refresh, for the rest of the order (EXPLAIN
 * QUERY PLAN: "USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"), so the time
 * is linear in the rows and the sorter's memory bounded by one refresh. */
static const char sql_one_gpu[] =
    "SELECT provider, offer, region, spot, gpu, gpu_count, price_per_hour, recorded_at, gone, "
    "currency FROM price_history WHERE gpu = ?1 AND (?2 IS NULL OR provider = ?2) "
    "ORDER BY gpu, recorded_at, provider, offer, region, spot";
static const char sql_all_gpus[] =
    "SELECT provider, offer, region, spot, gpu, gpu_count, price_per_hour, recorded_at, gone, "
    "currency FROM price_history WHERE (?2 IS NULL OR provider = ?2) "
    "ORDER BY gpu, recorded_at, provider, offer, region, spot";

int store_each_price_point(struct store *st, const char *gpu, const char *provider,
                           store_point_fn fn, void *arg, char **err)
{
	sqlite3_stmt *s = NULL;
	struct price_point p;
	int rc, step;
	/* Read, not mapped: the history's pages would stay resident as the
	 * file grows (bench/history.sh: 216 to 401 MB for 15 and 30
	 * refreshes mapped, flat read). */
	if ((rc = store_map_reads(st, false, err)))
		return rc;
	if (sqlite3_prepare_v2(st->db, gpu ? sql_one_gpu : sql_all_gpus, -1, &s, NULL) !=
	    SQLITE_OK) {
		rc = store_db_err(st, err, "cannot read price history");
		goto out;
	}
	if (gpu)
		sqlite3_bind_text(s, 1, gpu, -1, SQLITE_STATIC);
	if (provider)
		sqlite3_bind_text(s, 2, provider, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		memset(&p, 0, sizeof p);
		read_point(s, &p);
		if ((rc = fn(&p, arg, err)))
			goto out;
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read price history");
out:
	sqlite3_finalize(s);
	if (rc == PLANNER_OK)
		rc = store_map_reads(st, true, err);
	else
		store_map_reads(st, true, NULL);
	return rc;
}
