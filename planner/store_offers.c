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

/* A provider's current prices keyed by offer, region and spot: history is
 * decided against one read of the old rows instead of one query per new row
 * (400,000 rows in a refresh of 200,000 Vast.ai offers). Open addressing;
 * the keys live in one pool, not one allocation each (issue 16: the
 * strdup per key was a tenth of such a refresh). */
struct price_map {
	size_t *at;     /* 1 + the key's offset in pool; 0 = empty slot */
	double *prices; /* USD per instance-hour */
	size_t cap;     /* a power of two, at least twice the entries */
	char *pool;     /* the keys, NUL-terminated, one after another */
	size_t pool_len, pool_cap;
};

static void offer_key(char *buf, size_t len, const char *offer, const char *region, int spot)
{
	snprintf(buf, len, "%s\x1f%s\x1f%d", offer, region, spot);
}

/* FNV-1a, then MurmurHash3's 64-bit finaliser (fmix64, aappleby/smhasher,
 * src/MurmurHash3.cpp): FNV-1a's low bits, the ones a power-of-two table
 * uses, depend only on the low bits of each step, and ids that differ in
 * their last digits clustered (issue 16: probing was 8 % of a refresh). */
static size_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return (size_t)h;
}

static void price_map_free(struct price_map *m)
{
	free(m->at);
	free(m->prices);
	free(m->pool);
}

static const char *price_map_key(const struct price_map *m, size_t slot)
{
	return m->at[slot] ? m->pool + m->at[slot] - 1 : NULL;
}

/* Where key is, or the empty slot where it would go. */
static size_t price_map_slot(const struct price_map *m, const char *key)
{
	size_t i = key_hash(key) & (m->cap - 1);
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): only after price_map_init succeeded */
	while (m->at[i] && strcmp(m->pool + m->at[i] - 1, key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* An empty map for n keys. */
static int price_map_init(struct price_map *m, size_t n, char **err)
{
	memset(m, 0, sizeof *m);
	for (m->cap = 16; m->cap < n * 2; m->cap *= 2)
		;
	m->at = calloc(m->cap, sizeof *m->at);
	m->prices = calloc(m->cap, sizeof *m->prices);
	return m->at && m->prices ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
}

/* Puts key in the empty slot; false when out of memory. */
static bool price_map_put(struct price_map *m, size_t slot, const char *key)
{
	size_t len = strlen(key) + 1;
	if (m->pool_len + len > m->pool_cap) {
		size_t cap = m->pool_cap ? m->pool_cap : 4096;
		while (cap < m->pool_len + len)
			cap *= 2;
		char *p = realloc(m->pool, cap);
		if (!p)
			return false;
		m->pool = p;
		m->pool_cap = cap;
	}
	memcpy(m->pool + m->pool_len, key, len);
	m->at[slot] = m->pool_len + 1;
	m->pool_len += len;
	return true;
}

static int load_prices(struct store *st, const char *provider, struct price_map *m, char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = PLANNER_OK;
	long long rows = 0;
	memset(m, 0, sizeof *m);
	if (sqlite3_prepare_v2(st->db, "SELECT count(*) FROM offers WHERE provider = ?", -1, &s,
	                       NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read offers");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		rows = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	if ((rc = price_map_init(m, (size_t)rows, err)))
		return rc;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT offer, region, spot, price_per_hour FROM offers "
	                       "WHERE provider = ?",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read offers");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	int step;
	char key[512];
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		offer_key(key, sizeof key, (const char *)sqlite3_column_text(s, 0),
		          (const char *)sqlite3_column_text(s, 1), sqlite3_column_int(s, 2));
		size_t i = price_map_slot(m, key);
		if (!m->at[i] && !price_map_put(m, i, key)) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			break;
		}
		m->prices[i] = sqlite3_column_double(s, 3);
	}
	if (rc == PLANNER_OK && step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read offers");
	sqlite3_finalize(s);
	return rc;
}

/* Whether price is new, or differs from the one old holds for key. */
static bool price_changed(const struct price_map *old, const char *key, double price)
{
	size_t slot = price_map_slot(old, key);
	/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): load_prices allocated it */
	return !old->at[slot] || fabs(old->prices[slot] - price) > 1e-9;
}

/* Adds a price_history row for each of rows whose price is new or changed
 * against old (the provider's rows before this replace). */
static int write_history(struct store *st, const char *provider, const struct price_map *old,
                         const struct offer *rows, size_t n, const char *now, char **err)
{
	sqlite3_stmt *hist = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db,
	                       "INSERT INTO price_history (provider, offer, region, spot, gpu, "
	                       "gpu_count, price_per_hour, recorded_at, currency) "
	                       "VALUES (?,?,?,?,?,?,?,?,?)",
	                       -1, &hist, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot prepare offer update");
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &rows[i];
		char key[512];
		offer_key(key, sizeof key, o->offer, o->region, o->spot);
		if (!price_changed(old, key, o->price_per_hour))
			continue;
		sqlite3_reset(hist);
		sqlite3_bind_text(hist, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(hist, 2, o->offer, -1, SQLITE_STATIC);
		sqlite3_bind_text(hist, 3, o->region, -1, SQLITE_STATIC);
		sqlite3_bind_int(hist, 4, o->spot);
		sqlite3_bind_text(hist, 5, o->gpu, -1, SQLITE_STATIC);
		sqlite3_bind_int(hist, 6, o->gpu_count);
		sqlite3_bind_double(hist, 7, o->price_per_hour);
		/* One stamp per replace: the bundled snapshot's rows carry their
		 * own sources' dates, yet seeding it is one price point. */
		sqlite3_bind_text(hist, 8, now, -1, SQLITE_STATIC);
		sqlite3_bind_text(hist, 9, o->currency[0] ? o->currency : "USD", -1, SQLITE_STATIC);
		if (sqlite3_step(hist) != SQLITE_DONE) {
			rc = store_db_err(st, err, "cannot record price history");
			break;
		}
	}
	sqlite3_finalize(hist);
	return rc;
}

/* The keys of rows, in a price_map (prices unused). */
static int new_keys(const struct offer *rows, size_t n, struct price_map *m, char **err)
{
	char key[512];
	int rc = price_map_init(m, n, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		offer_key(key, sizeof key, rows[i].offer, rows[i].region, rows[i].spot);
		size_t slot = price_map_slot(m, key);
		if (!m->at[slot] && !price_map_put(m, slot, key))
			return set_err(err, PLANNER_ESYS, "out of memory");
	}
	return PLANNER_OK;
}

/* Adds a gone row (its last price) for each of the provider's offers that
 * is not in rows: history then shows what each refresh really saw. One
 * pass over the old rows against a hash of the new keys. */
static int write_vanished(struct store *st, const char *provider, const struct offer *rows,
                          size_t n, const char *now, char **err)
{
	sqlite3_stmt *rd = NULL, *ins = NULL;
	struct price_map fresh;
	int rc = new_keys(rows, n, &fresh, err), step = SQLITE_DONE;
	char key[512];
	if (rc)
		goto out;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT offer, region, spot, gpu, gpu_count, price_per_hour, currency "
	                       "FROM offers WHERE provider = ?",
	                       -1, &rd, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "INSERT INTO price_history (provider, offer, region, spot, gpu, "
	                       "gpu_count, price_per_hour, recorded_at, gone, currency) "
	                       "VALUES (?,?,?,?,?,?,?,?,1,?)",
	                       -1, &ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare offer update");
		goto out;
	}
	sqlite3_bind_text(rd, 1, provider, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(rd)) == SQLITE_ROW) {
		offer_key(key, sizeof key, (const char *)sqlite3_column_text(rd, 0),
		          (const char *)sqlite3_column_text(rd, 1), sqlite3_column_int(rd, 2));
		if (price_map_key(&fresh, price_map_slot(&fresh, key)))
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, provider, -1, SQLITE_STATIC);
		for (int c = 0; c < 6; c++)
			sqlite3_bind_value(ins, c + 2, sqlite3_column_value(rd, c));
		sqlite3_bind_text(ins, 8, now, -1, SQLITE_STATIC);
		sqlite3_bind_value(ins, 9, sqlite3_column_value(rd, 6));
		if (sqlite3_step(ins) != SQLITE_DONE) {
			step = SQLITE_ERROR;
			break;
		}
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot record price history");
out:
	sqlite3_finalize(rd);
	sqlite3_finalize(ins);
	price_map_free(&fresh);
	return rc;
}

/* Deletes the provider's offers and inserts rows in their place. */
static int replace_rows(struct store *st, const char *provider, const struct offer *rows, size_t n,
                        const char *now, char **err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db, "DELETE FROM offers WHERE provider = ?", -1, &del, NULL) !=
	        SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "INSERT OR REPLACE INTO offers (provider, offer, region, spot, gpu, "
	                       "gpu_count, vram_gib, vcpus, ram_gib, price_per_hour, available, "
	                       "fetched_at, source, country, region_group, tier, estimated, "
	                       "currency) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	                       -1, &ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare offer update");
		goto out;
	}
	sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = store_db_err(st, err, "cannot replace offers");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &rows[i];
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, o->offer, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 3, o->region, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 4, o->spot);
		sqlite3_bind_text(ins, 5, o->gpu, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 6, o->gpu_count);
		sqlite3_bind_double(ins, 7, o->vram_gib);
		sqlite3_bind_double(ins, 8, o->vcpus);
		sqlite3_bind_double(ins, 9, o->ram_gib);
		sqlite3_bind_double(ins, 10, o->price_per_hour);
		sqlite3_bind_int(ins, 11, o->available);
		sqlite3_bind_text(ins, 12, o->fetched_at[0] ? o->fetched_at : now, -1,
		                  SQLITE_STATIC);
		sqlite3_bind_text(ins, 13, o->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 14, o->country, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 15, o->region_group, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 16, o->tier, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 17, o->estimated);
		sqlite3_bind_text(ins, 18, o->currency[0] ? o->currency : "USD", -1, SQLITE_STATIC);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = store_db_err(st, err, "cannot store offers");
			goto out;
		}
	}
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

int store_replace_offers(struct store *st, const char *provider, const struct offer *rows, size_t n,
                         char **err)
{
	struct price_map old = {0};
	int rc;
	char now[24];
	iso_now(now, sizeof now);
	const char *at = "";
	for (size_t i = 0; i < n; i++)
		at = store_newest(at, rows[i].fetched_at);
	if (!*at)
		at = now;
	struct store_write w;
	if ((rc = store_write_begin(st, &w, err)))
		return rc;
	/* History first: it compares against the rows about to be replaced. */
	if ((rc = load_prices(st, provider, &old, err)) ||
	    (rc = write_history(st, provider, &old, rows, n, at, err)) ||
	    (rc = write_vanished(st, provider, rows, n, at, err)) ||
	    (rc = replace_rows(st, provider, rows, n, now, err)) ||
	    (rc = store_mark_fresh(st, provider, "rented", at, err)) ||
	    (rc = store_write_end(st, &w, err)))
		store_write_undo(st, &w);
	price_map_free(&old);
	return rc;
}

static void read_price_point(sqlite3_stmt *s, void *row)
{
	struct price_point *p = row;
	store_copy_text(p->provider, sizeof p->provider, sqlite3_column_text(s, 0));
	store_copy_text(p->offer, sizeof p->offer, sqlite3_column_text(s, 1));
	store_copy_text(p->region, sizeof p->region, sqlite3_column_text(s, 2));
	p->spot = sqlite3_column_int(s, 3) != 0;
	store_copy_text(p->gpu, sizeof p->gpu, sqlite3_column_text(s, 4));
	p->gpu_count = sqlite3_column_int(s, 5);
	p->price_per_hour = sqlite3_column_double(s, 6);
	store_copy_text(p->recorded_at, sizeof p->recorded_at, sqlite3_column_text(s, 7));
	p->gone = sqlite3_column_int(s, 8) != 0;
	store_copy_text(p->currency, sizeof p->currency, sqlite3_column_text(s, 9));
}

int store_price_history(struct store *st, const char *gpu, const char *provider,
                        struct price_point **out, size_t *n, char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(
	        st->db,
	        "SELECT provider, offer, region, spot, gpu, gpu_count, price_per_hour, "
	        "recorded_at, gone, currency FROM price_history WHERE (?1 IS NULL OR gpu = ?1) "
	        "AND (?2 IS NULL OR provider = ?2) "
	        "ORDER BY gpu, recorded_at, provider, offer, region, spot",
	        -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read price history");
	if (gpu)
		sqlite3_bind_text(s, 1, gpu, -1, SQLITE_STATIC);
	if (provider)
		sqlite3_bind_text(s, 2, provider, -1, SQLITE_STATIC);
	void *rows;
	int rc = store_collect(st, s, sizeof **out, read_price_point, &rows, n,
	                       "cannot read price history", err);
	*out = rows;
	return rc;
}
