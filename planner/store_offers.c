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
	store_offer_read(s, row);
}

/* The providers' dates of offer_dates (schema 8): a row stored with
 * fetched_at = '' reads as its provider's (issue 16). A few rows, loaded
 * once per read; rows come in runs of one provider, so the last hit is
 * tried first. */
struct offer_dates {
	struct {
		char provider[32];
		char at[24];
	} *v;
	size_t n, last;
};

static int load_dates(struct store *st, struct offer_dates *d, char **err)
{
	sqlite3_stmt *s = NULL;
	int step, rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db, "SELECT provider, fetched_at FROM offer_dates", -1, &s,
			       NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read offer dates");
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		void *grown = realloc(d->v, (d->n + 1) * sizeof *d->v);
		if (!grown) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			break;
		}
		d->v = grown;
		store_copy_text(d->v[d->n].provider, sizeof d->v->provider, sqlite3_column_text(s, 0));
		store_copy_text(d->v[d->n].at, sizeof d->v->at, sqlite3_column_text(s, 1));
		d->n++;
	}
	if (rc == PLANNER_OK && step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read offer dates");
	sqlite3_finalize(s);
	return rc;
}

/* o's date: its own, else its provider's. */
static void fill_date(struct offer_dates *d, struct offer *o)
{
	if (o->fetched_at[0])
		return;
	if (d->last >= d->n || strcmp(d->v[d->last].provider, o->provider))
		for (d->last = 0; d->last < d->n; d->last++)
			if (!strcmp(d->v[d->last].provider, o->provider))
				break;
	if (d->last < d->n)
		memcpy(o->fetched_at, d->v[d->last].at, sizeof o->fetched_at);
}

/* The offers matching a filter; store_offers adds its order. */
#define OFFERS_SELECT                                                                              \
	"SELECT provider" STORE_OFFER_NAMES " FROM offers "                                        \
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
	struct offer_dates d = {0};
	if ((rc = load_dates(st, &d, err))) {
		sqlite3_finalize(s);
		goto out;
	}
	void *rows;
	rc = store_collect(st, s, sizeof **out, read_offer, &rows, n, "cannot read offers", err);
	*out = rows;
	for (size_t i = 0; rc == PLANNER_OK && i < *n; i++)
		fill_date(&d, &(*out)[i]);
out:
	free(d.v);
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
	struct offer_dates d = {0};
	if ((rc = load_dates(st, &d, err)))
		goto out;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		memset(&o, 0, sizeof o);
		read_offer(s, &o);
		fill_date(&d, &o);
		if ((rc = fn(ctx, &o, err)))
			goto out;
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read offers");
out:
	sqlite3_finalize(s);
	free(d.v);
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
