/* store_terms.c — commitments (table offer_terms, schema 11): reserved,
 * savings-plan and committed-use prices, apart from the on-demand offers
 * (store.h, struct offer_term). */
#include "store_int.h"

#include <sqlite3.h>
#include <string.h>

#include "util.h"

double offer_term_hours(const char *term)
{
	if (term && !strcmp(term, "1y"))
		return 8760.0; /* 365 days */
	if (term && !strcmp(term, "3y"))
		return 26280.0; /* 1095 days */
	return 0;
}

double offer_term_month(const struct offer_term *t, int instances)
{
	return instances * t->o.price_per_hour * OFFER_TERM_HOURS_PER_MONTH;
}

static void bind_term(sqlite3_stmt *s, const struct offer_term *t, const char *now)
{
	const struct offer *o = &t->o;
	sqlite3_bind_text(s, 2, o->offer, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, o->region, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 4, t->term, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 5, t->option, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 6, o->gpu, -1, SQLITE_STATIC);
	sqlite3_bind_int(s, 7, o->gpu_count);
	sqlite3_bind_double(s, 8, o->vram_gib);
	sqlite3_bind_double(s, 9, o->vcpus);
	sqlite3_bind_double(s, 10, o->ram_gib);
	sqlite3_bind_double(s, 11, o->price_per_hour);
	sqlite3_bind_double(s, 12, t->upfront);
	sqlite3_bind_text(s, 13, o->currency[0] ? o->currency : "USD", -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 14, o->country, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 15, o->region_group, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 16, o->fetched_at[0] ? o->fetched_at : now, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 17, o->source, -1, SQLITE_STATIC);
}

int store_replace_terms(struct store *st, const char *provider, const struct offer_term *rows,
                        size_t n, char **err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	char now[24];
	iso_now(now, sizeof now);
	struct store_write w;
	int rc = store_write_begin(st, &w, err);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(st->db, "DELETE FROM offer_terms WHERE provider = ?", -1, &del,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "INSERT OR REPLACE INTO offer_terms (provider, offer, region, term, "
	                       "option, gpu, gpu_count, vram_gib, vcpus, ram_gib, price_per_hour, "
	                       "upfront, currency, country, region_group, fetched_at, source) "
	                       "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	                       -1, &ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare commitment update");
		goto fail;
	}
	sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = store_db_err(st, err, "cannot replace commitments");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, provider, -1, SQLITE_STATIC);
		bind_term(ins, &rows[i], now);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = store_db_err(st, err, "cannot store commitments");
			goto fail;
		}
	}
	if ((rc = store_write_end(st, &w, err)))
		goto fail;
	goto out;
fail:
	store_write_undo(st, &w);
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

static void read_term(sqlite3_stmt *s, void *row)
{
	struct offer_term *t = row;
	struct offer *o = &t->o;
	store_copy_text(o->provider, sizeof o->provider, sqlite3_column_text(s, 0));
	store_copy_text(o->offer, sizeof o->offer, sqlite3_column_text(s, 1));
	store_copy_text(o->region, sizeof o->region, sqlite3_column_text(s, 2));
	store_copy_text(t->term, sizeof t->term, sqlite3_column_text(s, 3));
	store_copy_text(t->option, sizeof t->option, sqlite3_column_text(s, 4));
	store_copy_text(o->gpu, sizeof o->gpu, sqlite3_column_text(s, 5));
	o->gpu_count = sqlite3_column_int(s, 6);
	o->vram_gib = sqlite3_column_double(s, 7);
	o->vcpus = sqlite3_column_double(s, 8);
	o->ram_gib = sqlite3_column_double(s, 9);
	o->price_per_hour = sqlite3_column_double(s, 10);
	t->upfront = sqlite3_column_double(s, 11);
	store_copy_text(o->currency, sizeof o->currency, sqlite3_column_text(s, 12));
	store_copy_text(o->country, sizeof o->country, sqlite3_column_text(s, 13));
	store_copy_text(o->region_group, sizeof o->region_group, sqlite3_column_text(s, 14));
	store_copy_text(o->fetched_at, sizeof o->fetched_at, sqlite3_column_text(s, 15));
	store_copy_text(o->source, sizeof o->source, sqlite3_column_text(s, 16));
	o->available = true;
	o->marketplace = false;
}

int store_read_terms(struct store *st, const char *term, struct offer_term **out, size_t *n,
                     char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT provider, offer, region, term, option, gpu, gpu_count, "
	                       "vram_gib, vcpus, ram_gib, price_per_hour, upfront, currency, "
	                       "country, region_group, fetched_at, source FROM offer_terms "
	                       "WHERE (?1 IS NULL OR term = ?1) "
	                       "ORDER BY price_per_hour, provider, offer, region, term, option",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read commitments");
	if (term)
		sqlite3_bind_text(s, 1, term, -1, SQLITE_STATIC);
	void *rows;
	int rc =
	    store_collect(st, s, sizeof **out, read_term, &rows, n, "cannot read commitments", err);
	*out = rows;
	return rc;
}
