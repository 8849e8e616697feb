/* store_stage.c — a provider's offers written as they stream in, then put
 * in place with a few set-based statements; part of the one store module
 * (see store_int.h and store.h).
 *
 * Why (issue 16, bench/README.md): holding every normalised row of a
 * 200,000-offer Vast.ai refresh as a 560-byte struct offer took 224 MB,
 * and the history, gone rows and replace were decided row by row against
 * hash maps of 400,000 keys. The rows now go into a staging table of a
 * database of their own as they are made (with whether each is a history
 * row, known from the stored prices, store_seen.c); the price history,
 * the replace and the gone rows are five statements over it inside one
 * transaction, so a refresh holds a batch of rows and SQLite's page
 * caches, whatever the feed's size.
 *
 * The staging rows are written in a transaction of their own that touches
 * only the staging database (no lock on the main file while the feed is
 * read); store_stage_apply commits it and starts the write of the main
 * file (IMMEDIATE, store_write_begin). A feed that fails never reaches
 * apply: store_stage_free drops the staged rows and the previous prices
 * stay as they were. */
#include "store_int.h"

#include <math.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "util.h"

struct store_stage {
	struct store *st;
	char provider[32];
	sqlite3_stmt *ins; /* the staging INSERT, prepared once */
	size_t rows;       /* put so far (feed rows 1..rows) */
	bool own_tx;       /* began the temp-only transaction, so ends it */
	/* The provider's stored offers and the keys seen (store_seen.c): a
	 * row equal to its stored offer is not staged (issue 16). */
	struct store_seen seen;
	size_t distinct;   /* keys seen: rows - distinct are duplicates */
	size_t stored;     /* the provider's stored offers */
	size_t stored_seen; /* ... of them seen: fewer, and some are gone */
	char at0[24];      /* the first row's fetched_at: a skipped row's date */
	char newest[24];   /* the newest fetched_at of the staged rows */
	bool restaged;     /* a key was staged twice (or more): see drop_duplicates */
	const char *schema; /* of the staging tables: "stage" (attached) or "temp" */
	bool attached;      /* "stage" is attached, so detached at the end */
	int data_version;  /* PRAGMA data_version when the stored rows were read */
	uint64_t digest;   /* of those rows (stored_pass), to tell at apply */
	/* The provider's commitments, replaced in the same write as its
	 * offers (store_stage_terms); the caller's rows. */
	bool has_terms;
	const struct offer_term *terms;
	size_t n_terms;
};

/* The staging table, in schema %1$s (stage_exec): the offers table's
 * columns without the provider (one provider at a time), rowid in feed
 * order (the last row of a key wins, as the INSERT OR REPLACE of the
 * row-by-row code did), and hist: whether the row, put in place, is a
 * price_history row (its key is new, or its price moved by more than 1e-9
 * from the stored one). The statements below name it and its companions
 * unqualified: no table of main or temp has their names. */
#define STAGE_CREATE                                                                               \
	"DROP TABLE IF EXISTS %1$s.offer_stage;"                                                   \
	"CREATE TABLE %1$s.offer_stage (hist INTEGER NOT NULL" STORE_OFFER_DECLS ")"

/* A staged row: rowid ?1, hist ?2, column c of OFFER_COLUMNS ?(c + 2). */
#define STAGE_INSERT                                                                               \
	"INSERT INTO offer_stage (rowid, hist" STORE_OFFER_NAMES                                   \
	") VALUES (?1, ?2" STORE_OFFER_PARAMS ")"
#define STAGE_PARAM(c) ((c) + 2)

/* Binds field name of the struct offer *o to its parameter of STAGE_INSERT. */
#define STAGE_BIND(name, type, size, role, empty, json, json_at)                                            \
	STAGE_BIND_##role(STAGE_PARAM(OFFER_COLUMN_##name), type, o->name, empty)
#define STAGE_BIND_PROVIDER(i, type, v, empty)
#define STAGE_BIND_KEY(i, type, v, empty)  STAGE_BIND_##type(i, v, empty);
#define STAGE_BIND_DATE(i, type, v, empty) STAGE_BIND_##type(i, v, empty);
#define STAGE_BIND_DATA(i, type, v, empty) STAGE_BIND_##type(i, v, empty);
#define STAGE_BIND_TEXT(i, v, empty)                                                               \
	sqlite3_bind_text(s, i, store_offer_text(v, empty), -1, SQLITE_STATIC)
#define STAGE_BIND_INT(i, v, empty)  sqlite3_bind_int(s, i, v)
#define STAGE_BIND_REAL(i, v, empty) sqlite3_bind_double(s, i, v)
#define STAGE_BIND_BOOL(i, v, empty) sqlite3_bind_int(s, i, v)

/* A price above this far from the stored one is a change the history
 * records (as a refresh always has). */
#define STAGE_PRICE_MOVED 1e-9

/* What read_stored reads of each stored offer: column c at c
 * (store_seen_stored). */
#define STORED_SELECT "SELECT rowid" STORE_OFFER_NAMES " FROM main.offers"

/* Below this many stored offers the key index is walked without asking
 * how big the table is (counting it costs a pass over an index). */
#define STORED_SMALL 10000

/* One count of the offers: the provider's (provider non-NULL) or all. */
static int count_one(struct store_stage *sg, const char *provider, long long *n, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(sg->st->db,
	                       provider ? "SELECT count(*) FROM main.offers WHERE provider = ?"
	                                : "SELECT count(*) FROM main.offers",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot read offers");
	if (provider)
		sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	int step = sqlite3_step(s);
	*n = step == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	sqlite3_finalize(s);
	return step == SQLITE_ROW ? PLANNER_OK : store_db_err(sg->st, err, "cannot read offers");
}

/* The provider's stored offers and, when they are many, all offers (else
 * *all = 0), counted on the key index. */
static int count_offers(struct store_stage *sg, long long *mine, long long *all, char **err)
{
	int rc = count_one(sg, sg->provider, mine, err);
	*all = 0;
	if (rc == PLANNER_OK && *mine >= STORED_SMALL)
		rc = count_one(sg, NULL, all, err);
	return rc;
}

/* A stored offer read, on its way into sg->seen. */
struct stored_row {
	uint64_t key, content;
	double price;
};

/* The n rows read into sg->seen (their slots were fetched ahead while they
 * were read); false when out of memory. */
static bool fill_seen(struct store_stage *sg, const struct stored_row *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct seen_entry *e = store_seen_get(&sg->seen, r[i].key);
		if (!e)
			return false;
		e->content = r[i].content;
		e->price = r[i].price;
	}
	return true;
}

/* One pass over the provider's stored offers: into sg->seen when fill,
 * and in any case their digest, a sum of each key's and content's hash
 * (order does not matter), and their count. */
static int stored_pass(struct store_stage *sg, bool fill, uint64_t *digest, size_t *n, char **err)
{
	sqlite3_stmt *s = NULL;
	int step, rc = PLANNER_OK;
	long long mine = 0, all = 0;
	if ((rc = count_offers(sg, &mine, &all, err)))
		return rc;
	if (fill && store_seen_reserve(&sg->seen, (size_t)mine))
		return set_err(err, PLANNER_ESYS, "out of memory");
	/* Most of the table (a big feed): one pass over it costs less than
	 * the key index's walk and a row lookup for each. */
	bool most = mine * 2 > all;
	if (sqlite3_prepare_v2(sg->st->db,
	                       most ? STORED_SELECT " NOT INDEXED WHERE provider = ?"
	                            : STORED_SELECT " WHERE provider = ?",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot read offers");
	sqlite3_bind_text(s, 1, sg->provider, -1, SQLITE_STATIC);
	*digest = 0;
	*n = 0;
	struct stored_row ahead[SEEN_AHEAD];
	size_t n_ahead = 0;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *offer = (const char *)sqlite3_column_text(s, OFFER_COLUMN_offer);
		const char *region = (const char *)sqlite3_column_text(s, OFFER_COLUMN_region);
		struct stored_row r = {
		    .key = offer && region
		               ? store_seen_key(offer, region,
		                                sqlite3_column_int(s, OFFER_COLUMN_spot))
		               : 0, /* NOT NULL columns: NULL is SQLite out of memory */
		    .content = store_seen_stored(s),
		    .price = sqlite3_column_double(s, OFFER_COLUMN_price_per_hour)};
		if (!r.key || (fill && n_ahead == SEEN_AHEAD && !fill_seen(sg, ahead, n_ahead))) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			break;
		}
		if (fill) {
			n_ahead %= SEEN_AHEAD;
			store_seen_prefetch(&sg->seen, r.key);
			ahead[n_ahead++] = r;
		}
		*digest += hash_fmix64(r.key ^ r.content);
		(*n)++;
	}
	if (rc == PLANNER_OK && step != SQLITE_DONE)
		rc = store_db_err(sg->st, err, "cannot read offers");
	if (rc == PLANNER_OK && fill && !fill_seen(sg, ahead, n_ahead))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	sqlite3_finalize(s);
	return rc;
}

/* The provider's stored offers into sg->seen, with their digest and the
 * database's data_version, to check at apply that nobody changed them
 * meanwhile. */
static int read_stored(struct store_stage *sg, char **err)
{
	int rc = stored_pass(sg, true, &sg->digest, &sg->stored, err);
	if (rc == PLANNER_OK)
		rc = store_pragma_int(sg->st, "PRAGMA data_version", &sg->data_version, err);
	return rc;
}

/* Runs statements on the staging schema: fmt names it %1$s (its one
 * argument). */
static int stage_exec(struct store_stage *sg, const char *fmt, char **err)
{
	char sql[2048];
	int n = snprintf(sql, sizeof sql, fmt, sg->schema);
	if (n < 0 || (size_t)n >= sizeof sql)
		return set_err(err, PLANNER_ESYS, "staging statement too long");
	return store_exec(sg->st, sql, err);
}

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
	 * join it, in the temp schema (ATTACH is refused in a transaction).
	 * On their own they go to a database of their own, a private file
	 * that DETACH deletes at once: dropping a 400,000-row TEMP table read
	 * back every page of it to free it, a tenth of a first refresh of
	 * 200,000 Vast.ai offers (issue 16). Either way they get a
	 * transaction that leaves the main file unlocked while the feed is
	 * read; the attached file's journal is kept in memory (a failed
	 * statement, the UNIQUE index on a duplicate key, is undone). */
	bool own = sqlite3_get_autocommit(st->db) != 0;
	sg->schema = own ? "stage" : "temp";
	if (own &&
	    (rc = store_exec(st, "ATTACH '' AS stage; PRAGMA stage.journal_mode = MEMORY", err)))
		goto fail;
	sg->attached = own;
	if ((rc = stage_exec(sg, STAGE_CREATE, err)) ||
	    (own && (rc = store_exec(st, "BEGIN", err))))
		goto fail;
	sg->own_tx = own && !sqlite3_get_autocommit(st->db);
	if ((rc = read_stored(sg, err)))
		goto fail;
	if (sqlite3_prepare_v2(st->db, STAGE_INSERT, -1, &sg->ins, NULL) != SQLITE_OK) {
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

/* Whether row o, feed row sg->rows + 1, need not be staged: its offer is
 * stored unchanged (dated by offer_dates, and o by the refresh's first
 * date) and no earlier row of its key was staged; and if it is, whether it
 * is a history row (*hist). Notes the sighting. */
static int skip_row(struct store_stage *sg, const struct offer *o, uint64_t key, bool *skip,
                    bool *hist, char **err)
{
	struct seen_entry *e = store_seen_get(&sg->seen, key);
	*skip = *hist = false;
	if (!e)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if (!sg->rows)
		memcpy(sg->at0, o->fetched_at, sizeof sg->at0);
	if (!e->first) {
		e->first = (uint32_t)sg->rows + 1;
		sg->distinct++;
		sg->stored_seen += (e->content & SEEN_STORED) != 0;
	}
	if (!e->staged && e->content & SEEN_DATE_EMPTY && o->fetched_at[0] &&
	    !strcmp(o->fetched_at, sg->at0)) {
		*skip = (store_seen_content(o, true) | SEEN_STORED) == e->content;
	}
	if (*skip)
		return PLANNER_OK;
	if (e->staged)
		sg->restaged = true;
	else
		e->staged = (uint32_t)sg->rows + 1;
	*hist =
	    !(e->content & SEEN_STORED) || fabs(e->price - o->price_per_hour) > STAGE_PRICE_MOVED;
	return PLANNER_OK;
}

int store_stage_put(struct store_stage *sg, const struct offer *rows, size_t n, char **err)
{
	sqlite3_stmt *s = sg->ins;
	uint64_t keys[SEEN_AHEAD];
	for (size_t i = 0; i < n; i++) {
		/* The catalogue's fabric where the feed states none (fabric.h):
		 * on a copy, as the feed's rows are its own, of the few rows the
		 * catalogue names. */
		const struct offer *o = &rows[i];
		struct offer marked;
		if (!o->fabric[0] && fabric_find(o->provider, o->offer)) {
			marked = *o;
			fabric_mark_offer(&marked);
			o = &marked;
		}
		bool skip, hist;
		/* The keys of the next rows first, their slots fetched ahead. */
		if (i % SEEN_AHEAD == 0)
			for (size_t j = i; j < n && j < i + SEEN_AHEAD; j++) {
				const struct offer *r = &rows[j];
				keys[j - i] = store_seen_key(r->offer, r->region, r->spot);
				store_seen_prefetch(&sg->seen, keys[j - i]);
			}
		int rc = skip_row(sg, o, keys[i % SEEN_AHEAD], &skip, &hist, err);
		if (rc)
			return rc;
		if (skip) {
			sg->rows++;
			continue;
		}
		sqlite3_reset(s);
		sqlite3_bind_int64(s, 1, (sqlite3_int64)sg->rows + 1);
		sqlite3_bind_int(s, 2, hist);
		OFFER_COLUMNS(STAGE_BIND)
		if (sqlite3_step(s) != SQLITE_DONE)
			return store_db_err(sg->st, err, "cannot stage offers");
		if (strcmp(o->fetched_at, sg->newest) > 0)
			memcpy(sg->newest, o->fetched_at, sizeof sg->newest);
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
	if (sqlite3_prepare_v2(sg->st->db, "DELETE FROM offer_stage WHERE rowid > ?", -1, &s,
	                       NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot stage offers");
	sqlite3_bind_int64(s, 1, (sqlite3_int64)keep);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	/* The newest date of the rows kept, read back (rare: a retry). */
	if (step != SQLITE_DONE ||
	    sqlite3_prepare_v2(sg->st->db, "SELECT coalesce(max(fetched_at), '') FROM offer_stage",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot stage offers");
	step = sqlite3_step(s);
	const unsigned char *v = step == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL;
	snprintf(sg->newest, sizeof sg->newest, "%s", v ? (const char *)v : "");
	sqlite3_finalize(s);
	if (!v)
		return store_db_err(sg->st, err, "cannot stage offers");
	sg->rows = keep;
	sg->distinct = store_seen_forget_after(&sg->seen, (uint32_t)keep, &sg->stored_seen);
	return PLANNER_OK;
}

void store_stage_free(struct store_stage *sg)
{
	if (!sg)
		return;
	sqlite3_finalize(sg->ins);
	if (sg->own_tx)
		sqlite3_exec(sg->st->db, "ROLLBACK", NULL, NULL, NULL);
	/* Inside a caller's transaction the temp tables go with its commit
	 * or rollback; either way nothing of them is read again. */
	if (sg->attached)
		sqlite3_exec(sg->st->db, "DETACH stage", NULL, NULL, NULL);
	else
		sqlite3_exec(
		    sg->st->db,
		    "DROP TABLE IF EXISTS temp.offer_stage; DROP TABLE IF EXISTS temp.offer_gone",
		    NULL, NULL, NULL);
	store_seen_free(&sg->seen);
	free(sg);
}

/* A staged row's stored date: '' when it is the replace's date ?2 (read
 * back from offer_dates, so the next refresh of an unchanged offer
 * leaves its row alone, issue 16), else its own; a row without one is
 * dated now (?3). */
#define STAGE_AT                                                                                   \
	"CASE WHEN fetched_at = ?2 OR (fetched_at = '' AND ?3 = ?2) THEN '' "                      \
	"WHEN fetched_at = '' THEN ?3 ELSE fetched_at END"

/* The upsert's condition: an offer is rewritten only when a column
 * differs (IS NOT: exact, as a row stores them), so a refresh of a feed
 * that barely moves writes the few rows that did. The date first, then
 * " OR" each DATA column. */
#define STAGE_CHANGED                                                                              \
	"WHERE" OFFER_COLUMNS(STAGE_CHANGED_DATE) OFFER_COLUMNS(STAGE_CHANGED_DATA)

#define STAGE_CHANGED_DATE(name, type, size, role, empty, json, json_at) STAGE_CHANGED_DATE_##role(name)
#define STAGE_CHANGED_DATE_PROVIDER(name)
#define STAGE_CHANGED_DATE_KEY(name)
#define STAGE_CHANGED_DATE_DATE(name) " offers." #name " IS NOT excluded." #name
#define STAGE_CHANGED_DATE_DATA(name)
#define STAGE_CHANGED_DATA(name, type, size, role, empty, json, json_at) STAGE_CHANGED_DATA_##role(name)
#define STAGE_CHANGED_DATA_PROVIDER(name)
#define STAGE_CHANGED_DATA_KEY(name)
#define STAGE_CHANGED_DATA_DATE(name)
#define STAGE_CHANGED_DATA_DATA(name) " OR offers." #name " IS NOT excluded." #name

/* The upsert's SET: the date, then ", name = excluded.name" of each DATA
 * column. */
#define STAGE_SET OFFER_COLUMNS(STAGE_SET_DATE) OFFER_COLUMNS(STAGE_SET_DATA)

#define STAGE_SET_DATE(name, type, size, role, empty, json, json_at) STAGE_SET_DATE_##role(name)
#define STAGE_SET_DATE_PROVIDER(name)
#define STAGE_SET_DATE_KEY(name)
#define STAGE_SET_DATE_DATE(name) " " #name " = excluded." #name
#define STAGE_SET_DATE_DATA(name)
#define STAGE_SET_DATA(name, type, size, role, empty, json, json_at) STAGE_SET_DATA_##role(name)
#define STAGE_SET_DATA_PROVIDER(name)
#define STAGE_SET_DATA_KEY(name)
#define STAGE_SET_DATA_DATE(name)
#define STAGE_SET_DATA_DATA(name) ", " #name " = excluded." #name

/* ", name" of each staged column, the date as STAGE_AT. */
#define STAGE_SOURCE(name, type, size, role, empty, json, json_at) STAGE_SOURCE_##role(name)
#define STAGE_SOURCE_PROVIDER(name)
#define STAGE_SOURCE_KEY(name)  ", " #name
#define STAGE_SOURCE_DATE(name) ", " STAGE_AT
#define STAGE_SOURCE_DATA(name) ", " #name

/* The statements of store_stage_apply, in order; ?1 the provider, ?2 the
 * replace's date (its newest fetched_at), ?3 now (rows without a date). */
static const char *const apply_sql[] = {
    /* A price_history row, at the replace's date, for each staged row of a
     * new key or a moved price (hist, from the stored prices read at
     * open, still current), in feed order. Set at staging, where TEMP
     * triggers on the upsert below had cost a fifth of a first refresh
     * of 200,000 Vast.ai offers (issue 16). */
    "INSERT INTO price_history (provider, offer, region, spot, gpu, gpu_count, "
    "price_per_hour, recorded_at, currency) "
    "SELECT ?1, offer, region, spot, gpu, gpu_count, price_per_hour, ?2, currency "
    "FROM offer_stage WHERE hist ORDER BY rowid",
    /* The staged rows over the stored ones of the same key, in feed order;
     * an upsert rewrites a row in place instead of a delete and an insert
     * of each. */
    "INSERT INTO main.offers (provider" STORE_OFFER_NAMES ") "
    "SELECT ?1" OFFER_COLUMNS(STAGE_SOURCE) " FROM offer_stage "
                                            "WHERE true ON CONFLICT (provider, offer, region, "
                                            "spot) DO UPDATE SET" STAGE_SET " " STAGE_CHANGED,
    /* A gone row, at its last price, for each stored offer no row of the
     * feed had (offer_gone, from gone_rows). */
    "INSERT INTO price_history (provider, offer, region, spot, gpu, gpu_count, "
    "price_per_hour, recorded_at, gone, currency) "
    "SELECT o.provider, o.offer, o.region, o.spot, o.gpu, o.gpu_count, o.price_per_hour, "
    "?2, 1, o.currency FROM offer_gone g JOIN main.offers o ON o.rowid = g.id "
    "ORDER BY g.id",
    /* And those offers go. */
    "DELETE FROM main.offers WHERE rowid IN (SELECT id FROM offer_gone)",
    /* The date the rows stored with fetched_at = '' read as. (One
     * statement over two lines: parenthesised, as clang's
     * -Wstring-concatenation asks, for macOS's -Werror build.) */
    ("INSERT INTO offer_dates (provider, fetched_at) VALUES (?1, ?2) "
     "ON CONFLICT (provider) DO UPDATE SET fetched_at = excluded.fetched_at"),
};

/* Runs one statement of apply_sql with its parameters bound. */
static int apply_one(struct store *st, const char *sql, const char *provider, const char *at,
                     const char *now, char **err)
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
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	return step == SQLITE_DONE ? PLANNER_OK : store_db_err(st, err, "cannot replace offers");
}

/* The replace's date: the newest of the staged rows' fetched_at and the
 * first row's (a skipped row has that date; a snapshot keeps its own),
 * else now. */
static void stage_date(const struct store_stage *sg, char *at, size_t len, const char *now)
{
	const char *newest = store_newest(sg->newest, sg->rows ? sg->at0 : "");
	snprintf(at, len, "%s", *newest ? newest : now);
}

/* Skipped rows read their date from offer_dates, as the first row's; when
 * the replace is dated later (rows of several dates: the snapshot), the
 * provider's undated rows get that date written. Rare; exact. */
static int pin_first_date(struct store_stage *sg, const char *at, char **err)
{
	if (!sg->at0[0] || !strcmp(at, sg->at0))
		return PLANNER_OK;
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(sg->st->db,
	                       "UPDATE main.offers SET fetched_at = ?2 WHERE provider = ?1 "
	                       "AND fetched_at = ''",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(sg->st, err, "cannot replace offers");
	sqlite3_bind_text(s, 1, sg->provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, sg->at0, -1, SQLITE_STATIC);
	int step = sqlite3_step(s);
	sqlite3_finalize(s);
	return step == SQLITE_DONE ? PLANNER_OK : store_db_err(sg->st, err, "cannot replace offers");
}

/* The stored offers whose key no row of the feed had, by rowid, into
 * offer_gone (before the upsert: the rows it adds are all seen). */
static int gone_rows(struct store_stage *sg, char **err)
{
	struct store *st = sg->st;
	sqlite3_stmt *s = NULL, *ins = NULL;
	int step, rc = stage_exec(sg,
	                          "DROP TABLE IF EXISTS %1$s.offer_gone; "
	                          "CREATE TABLE %1$s.offer_gone (id INTEGER PRIMARY KEY)",
	                          err);
	if (rc || sg->stored_seen == sg->stored) /* every stored offer is still listed */
		return rc;
	if (sqlite3_prepare_v2(
	        st->db, "SELECT rowid, offer, region, spot FROM main.offers WHERE provider = ?", -1,
	        &s, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "INSERT INTO offer_gone VALUES (?)", -1, &ins, NULL) !=
	        SQLITE_OK) {
		rc = store_db_err(st, err, "cannot read offers");
		goto out;
	}
	sqlite3_bind_text(s, 1, sg->provider, -1, SQLITE_STATIC);
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		const char *offer = (const char *)sqlite3_column_text(s, 1);
		const char *region = (const char *)sqlite3_column_text(s, 2);
		const struct seen_entry *e =
		    store_seen_find(&sg->seen, store_seen_key(offer ? offer : "", region ? region : "",
		                                              sqlite3_column_int(s, 3)));
		if (e && e->first)
			continue;
		sqlite3_reset(ins);
		sqlite3_bind_int64(ins, 1, sqlite3_column_int64(s, 0));
		if (sqlite3_step(ins) != SQLITE_DONE)
			break;
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read offers");
out:
	sqlite3_finalize(s);
	sqlite3_finalize(ins);
	return rc;
}

/* When a key was staged twice, every staged row but the last of it goes
 * (the duplicates are counted from sg->seen, skipped rows included). */
static int drop_duplicates(struct store_stage *sg, char **err)
{
	struct store *st = sg->st;
	if (!sg->restaged) /* the common case: the index it took cost 5 % of a first refresh */
		return PLANNER_OK;
	/* UNIQUE fails on the first duplicate: the common case, none, costs
	 * the index alone. */
	if (stage_exec(
	        sg, "CREATE UNIQUE INDEX %1$s.offer_stage_key ON offer_stage (offer, region, spot)",
	        NULL) == PLANNER_OK)
		return PLANNER_OK;
	if ((sqlite3_errcode(st->db) & 0xff) != SQLITE_CONSTRAINT)
		return store_db_err(st, err, "cannot index staged offers");
	int rc = stage_exec(
	    sg, "CREATE INDEX %1$s.offer_stage_key ON offer_stage (offer, region, spot)", err);
	if (rc == PLANNER_OK)
		rc = store_exec(st,
		                "DELETE FROM offer_stage AS s WHERE EXISTS (SELECT 1 FROM "
		                "offer_stage d WHERE d.offer = s.offer AND d.region = s.region "
		                "AND d.spot = s.spot AND d.rowid > s.rowid)",
		                err);
	return rc;
}

/* Refuses the replace when another process changed the provider's
 * offers since they were read: rows found unchanged then might not be
 * now. Any write by another process (a run recorded by a refresh that
 * found the lock taken, say) changes data_version; only then are the
 * offers read again and their digest compared. */
static int still_current(struct store_stage *sg, char **err)
{
	int v = 0, rc = store_pragma_int(sg->st, "PRAGMA data_version", &v, err);
	uint64_t digest = 0;
	size_t n = 0;
	if (rc == PLANNER_OK && v != sg->data_version &&
	    (rc = stored_pass(sg, false, &digest, &n, err)) == PLANNER_OK &&
	    (digest != sg->digest || n != sg->stored))
		rc = set_err(err, PLANNER_EDB,
		             "%s: another process wrote the database during the refresh of %s; "
		             "run the refresh again",
		             sg->st->path, sg->provider);
	return rc;
}

void store_stage_terms(struct store_stage *sg, const struct offer_term *rows, size_t n)
{
	sg->has_terms = true;
	sg->terms = rows;
	sg->n_terms = n;
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
	stage_date(sg, at, sizeof at, now);
	if ((rc = still_current(sg, err)) || (rc = pin_first_date(sg, at, err)) ||
	    (rc = gone_rows(sg, err)) || (rc = drop_duplicates(sg, err)))
		goto fail;
	for (size_t i = 0; i < sizeof apply_sql / sizeof *apply_sql; i++)
		if ((rc = apply_one(st, apply_sql[i], sg->provider, at, now, err)))
			goto fail;
	if ((sg->has_terms &&
	     (rc = store_replace_terms(st, sg->provider, sg->terms, sg->n_terms, err))) ||
	    (rc = store_mark_fresh(st, sg->provider, "rented", at, err)) ||
	    (rc = store_write_end(st, &w, err)))
		goto fail;
	*dups = sg->rows - sg->distinct;
	sg->rows = sg->distinct;
	return PLANNER_OK;
fail:
	store_write_undo(st, &w);
	return rc;
}
