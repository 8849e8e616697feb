/* store_offers.c — offers and their price history, part of the one store
 * module (see store_int.h). */
#include "store_int.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void read_offer(sqlite3_stmt *s, void *row)
{
	struct offer *o = row;
	store_copy_text(o->provider, sizeof o->provider, sqlite3_column_text(s, 0));
	store_copy_text(o->offer, sizeof o->offer, sqlite3_column_text(s, 1));
	store_copy_text(o->region, sizeof o->region, sqlite3_column_text(s, 2));
	o->spot = sqlite3_column_int(s, 3) != 0;
	store_copy_text(o->gpu, sizeof o->gpu, sqlite3_column_text(s, 4));
	o->gpu_count = sqlite3_column_int(s, 5);
	o->vram_gib = sqlite3_column_double(s, 6);
	o->vcpus = sqlite3_column_double(s, 7);
	o->ram_gib = sqlite3_column_double(s, 8);
	o->price_per_hour = sqlite3_column_double(s, 9);
	o->available = sqlite3_column_int(s, 10) != 0;
	store_copy_text(o->fetched_at, sizeof o->fetched_at, sqlite3_column_text(s, 11));
	store_copy_text(o->source, sizeof o->source, sqlite3_column_text(s, 12));
	store_copy_text(o->country, sizeof o->country, sqlite3_column_text(s, 13));
	store_copy_text(o->region_group, sizeof o->region_group, sqlite3_column_text(s, 14));
	store_copy_text(o->tier, sizeof o->tier, sqlite3_column_text(s, 15));
	o->estimated = sqlite3_column_int(s, 16) != 0;
	store_copy_text(o->currency, sizeof o->currency, sqlite3_column_text(s, 17));
}

/* The offers matching a filter; store_offers adds its order. */
#define OFFERS_SELECT                                                                              \
	"SELECT provider, offer, region, spot, gpu, gpu_count, vram_gib, vcpus, "                  \
	"ram_gib, price_per_hour, available, fetched_at, source, country, region_group, "          \
	"tier, estimated, currency FROM offers "                                                   \
	"WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR provider = ?2) "                        \
	"AND vram_gib >= ?3 AND (?4 <= 0 OR price_per_hour <= ?4) "                                \
	"AND (?5 < 0 OR spot = ?5) AND (?6 = 0 OR available = 1) "                                 \
	"AND (?7 IS NULL OR (region_group <> '' AND region_group = ?7 COLLATE NOCASE) "            \
	"OR (country <> '' AND country = ?7 COLLATE NOCASE) "                                      \
	"OR (region <> '' AND region = ?7 COLLATE NOCASE))"

/* The statement of store_offers (ordered) and store_offers_each, prepared and bound. */
static int offers_stmt(struct store *st, const struct offer_filter *f, bool ordered,
		       sqlite3_stmt **out, char **err)
{
	static const struct offer_filter none = {.spot = -1};
	sqlite3_stmt *s = NULL;
	if (!f)
		f = &none;
	if (sqlite3_prepare_v2(st->db,
			       ordered ? OFFERS_SELECT
				       " ORDER BY price_per_hour, provider, offer, region, spot"
				       : OFFERS_SELECT,
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read offers");
	if (f->gpu)
		sqlite3_bind_text(s, 1, f->gpu, -1, SQLITE_STATIC);
	if (f->provider)
		sqlite3_bind_text(s, 2, f->provider, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 3, f->min_vram_gib);
	sqlite3_bind_double(s, 4, f->max_price);
	sqlite3_bind_int(s, 5, f->spot);
	sqlite3_bind_int(s, 6, f->available_only);
	if (f->region && *f->region)
		sqlite3_bind_text(s, 7, f->region, -1, SQLITE_STATIC);
	*out = s;
	return PLANNER_OK;
}

int store_offers(struct store *st, const struct offer_filter *f, struct offer **out, size_t *n,
                 char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	int rc = offers_stmt(st, f, true, &s, err);
	if (rc)
		return rc;
	void *rows;
	rc = store_collect(st, s, sizeof **out, read_offer, &rows, n, "cannot read offers", err);
	*out = rows;
	return rc;
}

int store_offers_each(struct store *st, const struct offer_filter *f, store_offer_fn fn, void *ctx,
		      char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = offers_stmt(st, f, false, &s, err), step;
	if (rc)
		return rc;
	struct offer o;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		memset(&o, 0, sizeof o);
		read_offer(s, &o);
		if ((rc = fn(ctx, &o, err)))
			goto out;
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read offers");
out:
	sqlite3_finalize(s);
	return rc;
}

/* The rows staged and put in place by store_stage.c, the one way offers
 * are written (a refresh streams into the same staging). Duplicate keys:
 * the last row wins. */
int store_replace_offers(struct store *st, const char *provider, const struct offer *rows, size_t n,
                         char **err)
{
	struct store_stage *sg = NULL;
	size_t dups;
	int rc;
	if (!(rc = store_stage_open(st, provider, &sg, err)) &&
	    !(rc = store_stage_put(sg, rows, n, err)))
		rc = store_stage_apply(sg, &dups, err);
	store_stage_free(sg);
	return rc;
}

/* store_price_history's rows, gathered from store_each_price_point (one
 * query and one row copy, in store_history.c). */
struct point_list {
	struct price_point *rows;
	size_t n, cap;
};

static int keep_point(const struct price_point *row, void *arg, char **err)
{
	struct point_list *l = arg;
	if (l->n == l->cap) {
		struct price_point *r = grow_array(l->rows, &l->cap, sizeof *r);
		if (!r)
			return set_err(err, PLANNER_ESYS, "out of memory");
		l->rows = r;
	}
	l->rows[l->n++] = *row;
	return PLANNER_OK;
}

int store_price_history(struct store *st, const char *gpu, const char *provider,
                        struct price_point **out, size_t *n, char **err)
{
	struct point_list l = {0};
	int rc = store_each_price_point(st, gpu, provider, keep_point, &l, err);
	if (rc != PLANNER_OK) {
		free(l.rows);
		l.rows = NULL;
		l.n = 0;
	}
	*out = l.rows;
	*n = l.n;
	return rc;
}
