/* store_seen.c — the keys of a provider's offers a refresh has seen, and
 * what each stored offer holds, as 64-bit hashes; part of the one store
 * module (see store_int.h).
 *
 * Why (issue 16, bench/README.md): a refresh of 200,000 Vast.ai offers
 * where almost nothing changed staged 400,000 rows and upserted each,
 * about 2 s of SQLite work for rows it then did not write. With the
 * stored rows' hashes in memory, a row equal to its stored offer is
 * recognised in a hash probe and never reaches SQLite; only new and
 * changed rows are staged. The stored offers nobody saw are the gone ones.
 *
 * An entry is 32 bytes, the stored price with the hashes (16.8 MB for
 * 400,000 keys: 2^19 slots, the table grows past a load of 0.8). Two
 * different keys with one 64-bit hash (about 1 in 10^8 for 400,000 keys)
 * would read as one: the later row would count as
 * a duplicate and the offer of the other key as seen; a changed row whose
 * content hash equals its stored one (1 in 2^64) would keep the stored
 * row. Both are accepted as hash collisions are accepted elsewhere. */
#include "store_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Bytes hashed a 64-bit word at a time, each word xored into the state
 * and mixed by MurmurHash3's fmix64 (hash_fmix64, a bijection with full
 * avalanche), the length last: sequences of one length that differ end
 * in different states but by chance (2^-64). */
#define SEEN_SEED 0x9e3779b97f4a7c15ULL /* 2^64 / golden ratio, any odd constant does */

/* The table grows past this load (entries / slots, in tenths). A key is
 * already a mixed hash (store_seen_key), so its low bits pick its slot. */
#define SEEN_LOAD_TENTHS 8

static uint64_t mix_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i = 0;
	for (; i + 8 <= n; i += 8) {
		uint64_t w;
		memcpy(&w, b + i, 8);
		h = hash_fmix64(h ^ w);
	}
	if (i < n) {
		uint64_t w = 0;
		memcpy(&w, b + i, n - i);
		h = hash_fmix64(h ^ w);
	}
	return hash_fmix64(h ^ (uint64_t)n);
}

static uint64_t mix_str(uint64_t h, const char *s)
{
	return mix_bytes(h, s, strlen(s));
}

uint64_t store_seen_key(const char *offer, const char *region, int spot)
{
	uint64_t h = mix_str(mix_str(SEEN_SEED, offer), region);
	h = hash_fmix64(h ^ (spot ? 1u : 0u));
	return h ? h : 1; /* 0 marks an empty slot */
}

/* One column into the hash: a text with its length, a number as its 64
 * bits (the columns come in one order, so a fixed-width value needs no
 * length). */
static inline uint64_t mix_TEXT(uint64_t h, const char *s)
{
	return mix_str(h, s);
}

static inline uint64_t mix_INT(uint64_t h, long long v)
{
	return hash_fmix64(h ^ (uint64_t)v);
}

static inline uint64_t mix_REAL(uint64_t h, double v)
{
	uint64_t w;
	memcpy(&w, &v, sizeof w);
	return hash_fmix64(h ^ w);
}

static inline uint64_t mix_BOOL(uint64_t h, bool v)
{
	return hash_fmix64(h ^ (v ? 1u : 0u));
}

/* The low bits carry the entry's flags. */
static uint64_t content_flags(uint64_t h, bool date_empty)
{
	return (h & ~(uint64_t)SEEN_FLAGS) | (date_empty ? SEEN_DATE_EMPTY : 0);
}

/* An offer's DATA columns, in the list's order. */
#define SEEN_OFFER(name, type, size, role, empty, json, json_at) SEEN_OFFER_##role(name, type, empty)
#define SEEN_OFFER_PROVIDER(name, type, empty)
#define SEEN_OFFER_KEY(name, type, empty)
#define SEEN_OFFER_DATE(name, type, empty)
#define SEEN_OFFER_DATA(name, type, empty) h = mix_##type(h, SEEN_OFFER_##type(o->name, empty));
#define SEEN_OFFER_TEXT(v, empty)          store_offer_text(v, empty)
#define SEEN_OFFER_INT(v, empty)           (v)
#define SEEN_OFFER_REAL(v, empty)          (v)
#define SEEN_OFFER_BOOL(v, empty)          (v)

uint64_t store_seen_content(const struct offer *o, bool date_empty)
{
	uint64_t h = SEEN_SEED;
	OFFER_COLUMNS(SEEN_OFFER)
	return content_flags(h, date_empty);
}

/* A stored text, or "" and !*ok when SQLite could not make it (a NOT NULL
 * column is NULL only then). */
static inline const char *stored_text(sqlite3_stmt *s, int i, const char *empty, bool *ok)
{
	const char *v = (const char *)sqlite3_column_text(s, i);
	*ok = *ok && v;
	return v ? store_offer_text(v, empty) : "";
}

/* The same columns of a stored row, read as SQLite holds them. */
#define SEEN_STORED_COL(name, type, size, role, empty, json, json_at)                                       \
	SEEN_STORED_##role(OFFER_COLUMN_##name, type, empty)
#define SEEN_STORED_PROVIDER(i, type, empty)
#define SEEN_STORED_KEY(i, type, empty)
#define SEEN_STORED_DATE(i, type, empty) date_empty = !*stored_text(s, i, "", &ok);
#define SEEN_STORED_DATA(i, type, empty) h = mix_##type(h, SEEN_STORED_##type(i, empty));
#define SEEN_STORED_TEXT(i, empty)       stored_text(s, i, empty, &ok)
#define SEEN_STORED_INT(i, empty)        sqlite3_column_int(s, i)
#define SEEN_STORED_REAL(i, empty)       sqlite3_column_double(s, i)
#define SEEN_STORED_BOOL(i, empty)       (sqlite3_column_int(s, i) != 0)

uint64_t store_seen_stored(sqlite3_stmt *s)
{
	uint64_t h = SEEN_SEED;
	bool ok = true, date_empty = false;
	OFFER_COLUMNS(SEEN_STORED_COL)
	return ok ? content_flags(h, date_empty) | SEEN_STORED : 0;
}

static int grow_to(struct store_seen *t, size_t cap)
{
	struct seen_entry *v = calloc(cap, sizeof *v);
	if (!v)
		return PLANNER_ESYS;
	for (size_t i = 0; i < t->cap; i++) {
		if (!t->v[i].key)
			continue;
		size_t j = t->v[i].key & (cap - 1);
		while (v[j].key)
			j = (j + 1) & (cap - 1);
		v[j] = t->v[i];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return PLANNER_OK;
}

int store_seen_reserve(struct store_seen *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 1024;
	while (n * 10 > cap * SEEN_LOAD_TENTHS)
		cap *= 2;
	return cap > t->cap ? grow_to(t, cap) : PLANNER_OK;
}

struct seen_entry *store_seen_get(struct store_seen *t, uint64_t key)
{
	if ((t->n + 1) * 10 > t->cap * SEEN_LOAD_TENTHS && grow_to(t, t->cap ? t->cap * 2 : 1024))
		return NULL;
	size_t j = key & (t->cap - 1);
	while (t->v[j].key && t->v[j].key != key)
		j = (j + 1) & (t->cap - 1);
	if (!t->v[j].key) {
		t->v[j].key = key;
		t->n++;
	}
	return &t->v[j];
}

const struct seen_entry *store_seen_find(const struct store_seen *t, uint64_t key)
{
	if (!t->cap)
		return NULL;
	size_t j = key & (t->cap - 1);
	while (t->v[j].key && t->v[j].key != key)
		j = (j + 1) & (t->cap - 1);
	return t->v[j].key ? &t->v[j] : NULL;
}

size_t store_seen_forget_after(struct store_seen *t, uint32_t keep, size_t *stored_seen)
{
	size_t distinct = 0;
	*stored_seen = 0;
	for (size_t i = 0; i < t->cap; i++) {
		struct seen_entry *e = &t->v[i];
		if (e->first > keep)
			e->first = 0;
		if (e->staged > keep)
			e->staged = 0;
		distinct += e->first != 0;
		*stored_seen += e->first && e->content & SEEN_STORED;
	}
	return distinct;
}

void store_seen_free(struct store_seen *t)
{
	free(t->v);
	memset(t, 0, sizeof *t);
}
