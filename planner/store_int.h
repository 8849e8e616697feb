/* store_int.h — what the parts of the one store module share, private to
 * them: store.c (open, migrate, seed, lock), store_offers.c (offers and
 * price history), store_stage.c (a provider's offers staged as a feed
 * streams, then put in place with set-based SQL), store_api.c (API
 * prices), store_runs.c (provider freshness and refresh runs) and
 * store_check.c (what is checked before a write). Every SQL statement of
 * the program is in these files,
 * prepared and bound; nothing outside them includes this header but
 * tests/check_offer_columns.c, which holds what it makes of OFFER_COLUMNS
 * to the list. */
#ifndef PLANNER_STORE_INT_H
#define PLANNER_STORE_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "store.h"

struct store {
	sqlite3 *db; /* the connection */
	char *path;  /* file name, for messages */
};

/* Sets *err to "<path>: <what>: <SQLite's message>" and returns
 * PLANNER_ESYS when SQLite ran out of memory, else PLANNER_EDB. */
int store_db_err(struct store *st, char **err, const char *what);

/* Runs one or more statements without parameters (pragmas, savepoints,
 * the schema); PLANNER_EDB (PLANNER_ESYS when out of memory) with *err
 * set on failure. */
int store_exec(struct store *st, const char *sql, char **err);

/* Reads through a memory map of up to 1 GiB (on: store_open's setting,
 * for reads of a table that fits, such as the offers) or through read()
 * and the page cache (off: a scan of a table that grows without bound,
 * the price history, whose mapped pages would count in resident memory
 * as the file grows). */
int store_map_reads(struct store *st, bool on, char **err);

/* A write that is one transaction on its own, or a savepoint inside the
 * caller's (seeding a new database). On its own it begins IMMEDIATE: the
 * write lock is taken, waiting out the busy timeout, before anything is
 * read, so a writer that committed in between can never turn a later
 * write into "database is locked" (SQLite does not retry a read
 * transaction's upgrade). */
struct store_write {
	bool own; /* began the transaction, so ends it */
};
int store_write_begin(struct store *st, struct store_write *w, char **err);
/* Commits (or releases the savepoint); PLANNER_EDB/ESYS on failure. */
int store_write_end(struct store *st, struct store_write *w, char **err);
/* Undoes everything since store_write_begin. Cannot fail. */
void store_write_undo(struct store *st, struct store_write *w);

/* planner's mark in the SQLite header (PRAGMA application_id, the 4-byte
 * big-endian integer at offset 68, https://www.sqlite.org/fileformat.html
 * section 1.3.15, read 2026-11-30): "PLNR" in ASCII, chosen for planner;
 * not checked against SQLite's magic.txt registry (unconfirmed). */
#define STORE_APPLICATION_ID 0x504c4e52

/* store_check.c. Refuses, with *err, a --db that is not a file name (an
 * SQLite URI, ":memory:", ""). */
int store_check_path(const char *path, char **err);
/* Refuses a file that is not planner's database, or is from a newer
 * planner, before anything is written; *marked: it carries the mark;
 * *busy: another process held a lock (retry). One read transaction. */
int store_check_identity(struct store *st, bool *marked, bool *busy, char **err);
/* A schema version migrations cannot bring forward (< 0, or newer). */
int store_bad_version(struct store *st, int v, char **err);
/* One integer PRAGMA into *v. */
int store_pragma_int(struct store *st, const char *sql, int *v, char **err);
/* Refuses a refresh while another user owns the -wal or -shm file. */
int store_check_wal_owner(struct store *st, char **err);

/* Copies a column's text into dst ("" for NULL), truncating to len. */
void store_copy_text(char *dst, size_t len, const unsigned char *src);

/* What the store makes of OFFER_COLUMNS (store.h), once for every
 * statement that names the offers' columns. Each maker X(...) expands a
 * row by its role through <maker>_<role>, or by its type. */

/* Column numbers: a row's place in the list, the provider 0; a SELECT of
 * "provider" (or rowid) then STORE_OFFER_NAMES reads column c at c. */
#define STORE_OFFER_ENUM(name, type, size, role, empty, json, json_at) OFFER_COLUMN_##name,
enum offer_column { OFFER_COLUMNS(STORE_OFFER_ENUM) OFFER_N_COLUMNS };
_Static_assert(OFFER_COLUMN_provider == 0, "the provider is the first offer column");

/* ", name" of each column but the provider (bound once, not staged). */
#define STORE_OFFER_NAME(name, type, size, role, empty, json, json_at) STORE_OFFER_NAME_##role(name)
#define STORE_OFFER_NAME_PROVIDER(name)
#define STORE_OFFER_NAME_KEY(name)  ", " #name
#define STORE_OFFER_NAME_DATE(name) ", " #name
#define STORE_OFFER_NAME_DATA(name) ", " #name
#define STORE_OFFER_NAMES           OFFER_COLUMNS(STORE_OFFER_NAME)

/* ", ?" for each of them: parameters numbered on from the last one. */
#define STORE_OFFER_PARAM(name, type, size, role, empty, json, json_at) STORE_OFFER_PARAM_##role
#define STORE_OFFER_PARAM_PROVIDER
#define STORE_OFFER_PARAM_KEY  ", ?"
#define STORE_OFFER_PARAM_DATE ", ?"
#define STORE_OFFER_PARAM_DATA ", ?"
#define STORE_OFFER_PARAMS     OFFER_COLUMNS(STORE_OFFER_PARAM)

/* ", name TYPE NOT NULL" of each: a table of the offers' columns. */
#define STORE_OFFER_DECL(name, type, size, role, empty, json, json_at)                                      \
	STORE_OFFER_DECL_##role(name, STORE_SQL_##type)
#define STORE_OFFER_DECL_PROVIDER(name, sql)
#define STORE_OFFER_DECL_KEY(name, sql)  ", " #name " " sql " NOT NULL"
#define STORE_OFFER_DECL_DATE(name, sql) ", " #name " " sql " NOT NULL"
#define STORE_OFFER_DECL_DATA(name, sql) ", " #name " " sql " NOT NULL"
#define STORE_OFFER_DECLS                OFFER_COLUMNS(STORE_OFFER_DECL)
#define STORE_SQL_TEXT                   "TEXT"
#define STORE_SQL_INT                    "INTEGER"
#define STORE_SQL_REAL                   "REAL"
#define STORE_SQL_BOOL                   "INTEGER"

/* Reads column i of result row s into field f of a struct offer. */
#define STORE_OFFER_READ(name, type, size, role, empty, json, json_at)                                      \
	STORE_READ_##type(s, OFFER_COLUMN_##name, o->name);
#define STORE_READ_TEXT(s, i, f) store_copy_text(f, sizeof f, sqlite3_column_text(s, i))
#define STORE_READ_INT(s, i, f)  f = sqlite3_column_int(s, i)
#define STORE_READ_REAL(s, i, f) f = sqlite3_column_double(s, i)
#define STORE_READ_BOOL(s, i, f) f = sqlite3_column_int(s, i) != 0
/* Every column of result row s (column c at c) into *o. */
static inline void store_offer_read(sqlite3_stmt *s, struct offer *o)
{
	OFFER_COLUMNS(STORE_OFFER_READ)
}

/* An offer's text as stored: `empty` when it is "". */
static inline const char *store_offer_text(const char *v, const char *empty)
{
	return *v ? v : empty;
}

/* Reads one result row of a store_collect statement into row (zeroed). */
typedef void (*store_read_fn)(sqlite3_stmt *s, void *row);

/* Steps the prepared, bound statement s to its end, reading each row with
 * read() into a malloc'd array of zeroed `size`-byte rows, and finalizes
 * s. On PLANNER_OK *out (NULL when there are no rows) and *n are the
 * caller's; on error nothing is. `what` names the read in messages. */
int store_collect(struct store *st, sqlite3_stmt *s, size_t size, store_read_fn read, void **out,
                  size_t *n, const char *what, char **err);

/* Marks provider as freshly refreshed at `at` (inside the caller's
 * transaction); kind is "rented" or "api". */
int store_mark_fresh(struct store *st, const char *provider, const char *kind, const char *at,
                     char **err);

/* The dates of offer_dates that rows read as: those of providers with a
 * row stored with fetched_at = '' (schema 8; a max over them and over
 * offers' own dates is the newest date a reader sees). */
#define STORE_DATED_PROVIDERS                                                                      \
	"SELECT max(d.fetched_at) FROM offer_dates d WHERE EXISTS (SELECT 1 FROM offers o "        \
	"WHERE o.provider = d.provider AND o.fetched_at = '')"

/* Each price row's provider and date as readers see it (an offer stored
 * with fetched_at = '' reads as its provider's offer_dates date): the
 * oldest per provider is the date compare names for a provider's prices
 * (store_snapshot_dates) and `providers` shows beside it (store_providers),
 * so both state one date for the same rows (issue 26). */
#define STORE_PROVIDER_ROW_DATES                                                                   \
	"SELECT o.provider AS provider, coalesce(nullif(o.fetched_at, ''), d.fetched_at, '') AS at " \
	"FROM offers o LEFT JOIN offer_dates d ON d.provider = o.provider "                          \
	"UNION ALL SELECT provider, fetched_at FROM api_prices"

/* store_seen.c: the offers of one provider by the 64-bit hashes of their
 * key and their content, for a refresh that stages only the new and
 * changed rows (issue 16). */
struct seen_entry {
	uint64_t key;     /* store_seen_key; 0: an empty slot */
	uint64_t content; /* store_seen_content of the stored row with SEEN_STORED; 0: not stored */
	uint32_t first;   /* 1 + the feed row that first had the key; 0: unseen */
	uint32_t staged;  /* 1 + the first feed row of the key staged; 0: none */
	double price;     /* the stored offer's price_per_hour, when SEEN_STORED */
};
/* Flags in the low bits of seen_entry.content. */
#define SEEN_STORED 1u     /* an offer of the key is stored */
#define SEEN_DATE_EMPTY 2u /* ... with fetched_at = '' (offer_dates' date) */
#define SEEN_FLAGS 3u

struct store_seen {
	struct seen_entry *v;
	size_t cap, n; /* slots (a power of two), entries */
};

uint64_t store_seen_key(const char *offer, const char *region, int spot);
/* The hash of what a refresh compares of an offer (its DATA columns,
 * OFFER_COLUMNS), SEEN_DATE_EMPTY set when date_empty (SEEN_STORED is the
 * caller's to add). */
uint64_t store_seen_content(const struct offer *o, bool date_empty);
/* The same of a stored offer: result row s of a SELECT of rowid or the
 * provider, then STORE_OFFER_NAMES; SEEN_DATE_EMPTY when its fetched_at
 * is '', and SEEN_STORED. 0 when SQLite ran out of memory (never equal
 * to a row's). */
uint64_t store_seen_stored(sqlite3_stmt *s);
/* Room for n entries without growing; PLANNER_ESYS when out of memory. */
int store_seen_reserve(struct store_seen *t, size_t n);
/* The entry of key, added (zeroed) when new; NULL when out of memory. */
struct seen_entry *store_seen_get(struct store_seen *t, uint64_t key);
const struct seen_entry *store_seen_find(const struct store_seen *t, uint64_t key);
/* Asks the CPU for key's slot ahead of a get or find: the table (16 MB for
 * 400,000 offers) misses the cache at each probe, and SEEN_AHEAD probes
 * asked for together overlap their waits. */
#define SEEN_AHEAD 32
static inline void store_seen_prefetch(const struct store_seen *t, uint64_t key)
{
	if (t->cap)
		__builtin_prefetch(&t->v[key & (t->cap - 1)]);
}
/* Forgets every sighting and staging after feed row `keep` (a retried
 * download); returns the keys still seen, *stored_seen those of them
 * stored. */
size_t store_seen_forget_after(struct store_seen *t, uint32_t keep, size_t *stored_seen);
void store_seen_free(struct store_seen *t);

/* The newer of two ISO 8601 stamps: a replace is dated by its newest
 * fetched_at, so a snapshot keeps its own date. */
static inline const char *store_newest(const char *a, const char *b)
{
	return strcmp(a, b) >= 0 ? a : b;
}

#endif
