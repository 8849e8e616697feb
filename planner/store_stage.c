/* store_stage.c — a provider's offers written as they stream in, then put
 * in place with a few set-based statements; part of the one store module
 * (see store_int.h and store.h).
 *
 * Why (issue 16, bench/README.md): holding every normalised row of a
 * 200,000-offer Vast.ai refresh as a 560-byte struct offer took 224 MB,
 * and the history, gone rows and replace were decided row by row against
 * hash maps of 400,000 keys. The rows now go into a TEMP table as they are
 * made; the price history, the gone rows and the replace are four
 * statements over it inside one transaction, so a refresh holds a batch of
 * rows and SQLite's page caches, whatever the feed's size.
 *
 * The staging rows are written in a transaction of their own that touches
 * only the temp database (no lock on the main file while the feed is
 * read); store_stage_apply commits it and starts the write of the main
 * file (IMMEDIATE, store_write_begin). A feed that fails never reaches
 * apply: store_stage_free drops the staged rows and the previous prices
 * stay as they were. */
#include "store_int.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

struct store_stage {
	struct store *st;
	char provider[32];
	sqlite3_stmt *ins; /* the staging INSERT, prepared once */
	size_t rows;       /* staged so far (rowids 1..rows, in feed order) */
	bool own_tx;       /* began the temp-only transaction, so ends it */
};

/* The staging table: the offers table's columns without the provider (one
 * provider at a time), rowid in feed order (the last row of a key wins, as
 * the INSERT OR REPLACE of the row-by-row code did). */
#define STAGE_CREATE                                                                               \
	"DROP TABLE IF EXISTS temp.offer_stage;"                                                   \
	"CREATE TEMP TABLE offer_stage (offer TEXT NOT NULL, region TEXT NOT NULL, "               \
	"spot INTEGER NOT NULL, gpu TEXT NOT NULL, gpu_count INTEGER NOT NULL, "                   \
	"vram_gib REAL NOT NULL, vcpus REAL NOT NULL, ram_gib REAL NOT NULL, "                     \
	"price_per_hour REAL NOT NULL, available INTEGER NOT NULL, fetched_at TEXT NOT NULL, "     \
	"source TEXT NOT NULL, country TEXT NOT NULL, region_group TEXT NOT NULL, "                \
	"tier TEXT NOT NULL, estimated INTEGER NOT NULL, currency TEXT NOT NULL)"

int store_stage_open(struct store *st, const char *provider, struct store_stage **out, char **err)
{
	struct store_stage *sg = calloc(1, sizeof *sg);
	int rc;
	*out = NULL;
	if (!sg)
		return set_err(err, PLANNER_ESYS, "out of memory");
	sg->st = st;
	snprintf(sg->provider, sizeof sg->provider, "%s", provider);
	/* Inside a caller's transaction (seeding a new database) the rows
	 * join it; on their own they get a transaction of the temp file. */
	sg->own_tx = sqlite3_get_autocommit(st->db) != 0;
	if ((rc = store_exec(st, STAGE_CREATE, err)) ||
	    (sg->own_tx && (rc = store_exec(st, "BEGIN", err))))
		goto fail;
	sg->own_tx = sg->own_tx && !sqlite3_get_autocommit(st->db);
	if (sqlite3_prepare_v2(st->db,
	                       "INSERT INTO temp.offer_stage VALUES "
	                       "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	                       -1, &sg->ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare offer update");
		goto fail;
	}
	*out = sg;
	return PLANNER_OK;
fail:
	store_stage_free(sg);
	return rc;
}

size_t store_stage_rows(const struct store_stage *sg)
{
	return sg ? sg->rows : 0;
}

int store_stage_put(struct store_stage *sg, const struct offer *rows, size_t n, char **err)
{
	sqlite3_stmt *s = sg->ins;
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &rows[i];
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, o->offer, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 2, o->region, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 3, o->spot);
		sqlite3_bind_text(s, 4, o->gpu, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 5, o->gpu_count);
		sqlite3_bind_double(s, 6, o->vram_gib);
		sqlite3_bind_double(s, 7, o->vcpus);
		sqlite3_bind_double(s, 8, o->ram_gib);
		sqlite3_bind_double(s, 9, o->price_per_hour);
		sqlite3_bind_int(s, 10, o->available);
		sqlite3_bind_text(s, 11, o->fetched_at, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 12, o->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 13, o->country, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 14, o->region_group, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 15, o->tier, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 16, o->estimated);
		sqlite3_bind_text(s, 17, o->currency[0] ? o->currency : "USD", -1, SQLITE_STATIC);
		if (sqlite3_step(s) != SQLITE_DONE)
			return store_db_err(sg->st, err, "cannot stage offers");
		sg->rows++;
	}
	sqlite3_reset(s);
	return PLANNER_OK;
}

int store_stage_drop(struct store_stage *sg, size_t keep, char **err)
{
	sqlite3_stmt *s = NULL;
	if (keep >= sg->rows)
		return PLANNER_OK;
	if (sqlite3_prepare_v2(sg->st->db, "DELETE FROM temp.offer_stage WHERE rowid > ?", -1, &s,
	                       NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot stage offers");
	sqlite3_bind_int64(s, 1, (sqlite3_int64)keep);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	if (step != SQLITE_DONE)
		return store_db_err(sg->st, err, "cannot stage offers");
	sg->rows = keep;
	return PLANNER_OK;
}

void store_stage_free(struct store_stage *sg)
{
	if (!sg)
		return;
	sqlite3_finalize(sg->ins);
	if (sg->own_tx)
		sqlite3_exec(sg->st->db, "ROLLBACK", NULL, NULL, NULL);
	/* Inside a caller's transaction the table goes with its commit or
	 * rollback; either way nothing of it is read again. */
	sqlite3_exec(sg->st->db,
	             "DROP TABLE IF EXISTS temp.offer_stage; DROP TABLE IF EXISTS temp.offer_stage_at",
	             NULL, NULL, NULL);
	free(sg);
}

/* History as the upsert below writes the rows: a row whose key is new,
 * or whose price moved by more than 1e-9, gets a price_history row at the
 * replace's date (temp.offer_stage_at). TEMP triggers, made and dropped
 * inside the replace's transaction: one pass over the staged rows writes
 * both, where a separate probe of the stored prices cost a quarter of a
 * 200,000-offer refresh (issue 16). */
#define STAGE_TRIGGERS                                                                             \
	"CREATE TEMP TRIGGER offer_stage_new AFTER INSERT ON main.offers BEGIN "                   \
	"INSERT INTO price_history (provider, offer, region, spot, gpu, gpu_count, "               \
	"price_per_hour, recorded_at, currency) VALUES (new.provider, new.offer, new.region, "     \
	"new.spot, new.gpu, new.gpu_count, new.price_per_hour, "                                   \
	"(SELECT at FROM offer_stage_at), new.currency); END;"                                     \
	"CREATE TEMP TRIGGER offer_stage_changed AFTER UPDATE OF price_per_hour ON main.offers "   \
	"WHEN abs(old.price_per_hour - new.price_per_hour) > 1e-9 BEGIN "                          \
	"INSERT INTO price_history (provider, offer, region, spot, gpu, gpu_count, "               \
	"price_per_hour, recorded_at, currency) VALUES (new.provider, new.offer, new.region, "     \
	"new.spot, new.gpu, new.gpu_count, new.price_per_hour, "                                   \
	"(SELECT at FROM offer_stage_at), new.currency); END;"

#define STAGE_TRIGGERS_DROP                                                                        \
	"DROP TRIGGER temp.offer_stage_new; DROP TRIGGER temp.offer_stage_changed"

/* The statements of store_stage_apply after the triggers, in order; ?1 the
 * provider, ?2 the replace's date (its newest fetched_at), ?3 now (rows
 * without a date), ?4 the last price_history rowid before the gone rows. */
static const char *const apply_sql[] = {
	/* The staged rows over the stored ones of the same key, in feed order
	 * (the history rows keep it); an upsert rewrites a row in place
	 * instead of a delete and an insert of each. */
	"INSERT INTO main.offers (provider, offer, region, spot, gpu, gpu_count, vram_gib, vcpus, "
	"ram_gib, price_per_hour, available, fetched_at, source, country, region_group, tier, "
	"estimated, currency) "
	"SELECT ?1, offer, region, spot, gpu, gpu_count, vram_gib, vcpus, ram_gib, "
	"price_per_hour, available, CASE WHEN fetched_at = '' THEN ?3 ELSE fetched_at END, "
	"source, country, region_group, tier, estimated, currency FROM temp.offer_stage "
	"WHERE true ON CONFLICT (provider, offer, region, spot) DO UPDATE SET "
	"gpu = excluded.gpu, gpu_count = excluded.gpu_count, vram_gib = excluded.vram_gib, "
	"vcpus = excluded.vcpus, ram_gib = excluded.ram_gib, "
	"price_per_hour = excluded.price_per_hour, available = excluded.available, "
	"fetched_at = excluded.fetched_at, source = excluded.source, "
	"country = excluded.country, region_group = excluded.region_group, "
	"tier = excluded.tier, estimated = excluded.estimated, currency = excluded.currency",
	/* A gone row, at its last price, for each stored offer not staged. */
	"INSERT INTO price_history (provider, offer, region, spot, gpu, gpu_count, "
	"price_per_hour, recorded_at, gone, currency) "
	"SELECT o.provider, o.offer, o.region, o.spot, o.gpu, o.gpu_count, o.price_per_hour, "
	"?2, 1, o.currency FROM main.offers o WHERE o.provider = ?1 AND NOT EXISTS "
	"(SELECT 1 FROM temp.offer_stage s WHERE s.offer = o.offer AND s.region = o.region "
	"AND s.spot = o.spot)",
	/* And those offers go: found from their gone rows, not by probing the
	 * staging for every stored offer a second time. */
	"DELETE FROM main.offers WHERE rowid IN (SELECT o.rowid FROM price_history h "
	"JOIN main.offers o ON o.provider = h.provider AND o.offer = h.offer "
	"AND o.region = h.region AND o.spot = h.spot "
	"WHERE h.rowid > ?4 AND h.gone = 1 AND h.provider = ?1)",
};

/* Runs one statement of apply_sql with its parameters bound. */
static int apply_one(struct store *st, const char *sql, const char *provider, const char *at,
                     const char *now, long long last, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot prepare offer update");
	int n = sqlite3_bind_parameter_count(s);
	if (n >= 1)
		sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	if (n >= 2)
		sqlite3_bind_text(s, 2, at, -1, SQLITE_STATIC);
	if (n >= 3)
		sqlite3_bind_text(s, 3, now, -1, SQLITE_STATIC);
	if (n >= 4)
		sqlite3_bind_int64(s, 4, last);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	return step == SQLITE_DONE ? PLANNER_OK : store_db_err(st, err, "cannot replace offers");
}

/* One integer of a query without parameters; -1 on error. */
static long long query_int(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	long long v = -1;
	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return v;
}

/* The replace's date, the newest staged fetched_at (a snapshot keeps its
 * own date) else now, into at and temp.offer_stage_at for the triggers. */
static int stage_date(struct store *st, char *at, size_t len, const char *now, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT max(fetched_at) FROM temp.offer_stage", -1, &s,
	                       NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read staged offers");
	const unsigned char *v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	snprintf(at, len, "%s", v && *v ? (const char *)v : now);
	sqlite3_finalize(s);
	int rc = store_exec(st, "DROP TABLE IF EXISTS temp.offer_stage_at; "
	                        "CREATE TEMP TABLE offer_stage_at (at TEXT NOT NULL)", err);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(st->db, "INSERT INTO temp.offer_stage_at VALUES (?)", -1, &s,
	                       NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot stage offers");
	sqlite3_bind_text(s, 1, at, -1, SQLITE_STATIC);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	return step == SQLITE_DONE ? PLANNER_OK : store_db_err(st, err, "cannot stage offers");
}

/* The key index, built once over the loaded rows (a sort); when a key
 * comes twice, every row but the last of it goes and *dups says how many. */
static int index_keys(struct store *st, char **err)
{
	return store_exec(st, "CREATE INDEX temp.offer_stage_key ON offer_stage (offer, region, spot)",
	                  err);
}

static int drop_duplicates(struct store *st, size_t *dups, char **err)
{
	*dups = 0;
	/* UNIQUE fails on the first duplicate: the common case, none, costs
	 * the index alone. */
	if (sqlite3_exec(st->db,
	                 "CREATE UNIQUE INDEX temp.offer_stage_key ON offer_stage (offer, region, spot)",
	                 NULL, NULL, NULL) == SQLITE_OK)
		return PLANNER_OK;
	if ((sqlite3_errcode(st->db) & 0xff) != SQLITE_CONSTRAINT)
		return store_db_err(st, err, "cannot index staged offers");
	int rc = index_keys(st, err);
	if (rc == PLANNER_OK)
		rc = store_exec(st,
		                "DELETE FROM temp.offer_stage AS s WHERE EXISTS (SELECT 1 FROM "
		                "temp.offer_stage d WHERE d.offer = s.offer AND d.region = s.region "
		                "AND d.spot = s.spot AND d.rowid > s.rowid)",
		                err);
	if (rc == PLANNER_OK)
		*dups = (size_t)sqlite3_changes(st->db);
	return rc;
}

int store_stage_apply(struct store_stage *sg, size_t *dups, char **err)
{
	struct store *st = sg->st;
	struct store_write w;
	char now[24], at[24];
	int rc;
	*dups = 0;
	iso_now(now, sizeof now);
	sqlite3_finalize(sg->ins);
	sg->ins = NULL;
	if (sg->own_tx) {
		if ((rc = store_exec(st, "COMMIT", err)))
			return rc;
		sg->own_tx = false;
	}
	if ((rc = store_write_begin(st, &w, err)))
		return rc;
	long long last = -1;
	if ((rc = stage_date(st, at, sizeof at, now, err)) ||
	    (rc = drop_duplicates(st, dups, err)) || (rc = store_exec(st, STAGE_TRIGGERS, err)) ||
	    (rc = apply_one(st, apply_sql[0], sg->provider, at, now, 0, err)) ||
	    (rc = store_exec(st, STAGE_TRIGGERS_DROP, err)))
		goto fail;
	if ((last = query_int(st, "SELECT coalesce(max(rowid), 0) FROM price_history")) < 0) {
		rc = store_db_err(st, err, "cannot read price history");
		goto fail;
	}
	for (size_t i = 1; i < sizeof apply_sql / sizeof *apply_sql; i++)
		if ((rc = apply_one(st, apply_sql[i], sg->provider, at, now, last, err)))
			goto fail;
	if ((rc = store_mark_fresh(st, sg->provider, "rented", at, err)) ||
	    (rc = store_write_end(st, &w, err)))
		goto fail;
	sg->rows -= *dups;
	return PLANNER_OK;
fail:
	store_write_undo(st, &w);
	return rc;
}
