/* store_api.c — per-token API prices, part of the one store module (see
 * store_int.h). */
#include "store_int.h"

#include <cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_model.h"
#include "util.h"

const struct api_tier *api_price_tier(const struct api_price *a, double prompt)
{
	const struct api_tier *t = NULL;
	for (int i = 0; a && i < a->n_tiers && i < API_MAX_TIERS; i++)
		if (prompt > (double)a->tiers[i].above)
			t = &a->tiers[i];
	return t;
}

/* The tiers column: a JSON list, '' when there are none. One entry is
 * at most about 125 bytes (a long and two %.17g numbers), so
 * API_MAX_TIERS * 160 bytes hold them all. */
static const char *tiers_text(const struct api_price *a, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	for (int i = 0; i < a->n_tiers && i < API_MAX_TIERS && k < len; i++)
		k +=
		    (size_t)snprintf(buf + k, len - k,
		                     "%s{\"above\": %ld, \"input_per_token\": %.17g, "
		                     "\"output_per_token\": %.17g}%s",
		                     i ? ", " : "[", a->tiers[i].above, a->tiers[i].input_per_token,
		                     a->tiers[i].output_per_token, i + 1 == a->n_tiers ? "]" : "");
	return buf;
}

/* Reads the tiers column back; entries that are not three numbers (a
 * hand-edited database) are left out. */
static void read_tiers(struct api_price *a, const unsigned char *text)
{
	a->n_tiers = 0;
	if (!text || !*text)
		return;
	cJSON *arr = cJSON_Parse((const char *)text);
	const cJSON *t;
	cJSON_ArrayForEach(t, arr)
	{
		const cJSON *ab = cJSON_GetObjectItemCaseSensitive(t, "above");
		const cJSON *in = cJSON_GetObjectItemCaseSensitive(t, "input_per_token");
		const cJSON *out = cJSON_GetObjectItemCaseSensitive(t, "output_per_token");
		if (a->n_tiers == API_MAX_TIERS || !cJSON_IsNumber(ab) || !cJSON_IsNumber(in) ||
		    !cJSON_IsNumber(out))
			continue;
		a->tiers[a->n_tiers++] = (struct api_tier){.above = (long)ab->valuedouble,
		                                           .input_per_token = in->valuedouble,
		                                           .output_per_token = out->valuedouble};
	}
	cJSON_Delete(arr);
}

static void read_api_price(sqlite3_stmt *s, void *row)
{
	struct api_price *a = row;
	store_copy_text(a->provider, sizeof a->provider, sqlite3_column_text(s, 0));
	store_copy_text(a->model, sizeof a->model, sqlite3_column_text(s, 1));
	a->input_per_token = sqlite3_column_double(s, 2);
	a->output_per_token = sqlite3_column_double(s, 3);
	a->context = (long)sqlite3_column_int64(s, 4);
	store_copy_text(a->fetched_at, sizeof a->fetched_at, sqlite3_column_text(s, 5));
	store_copy_text(a->source, sizeof a->source, sqlite3_column_text(s, 6));
	store_copy_text(a->country, sizeof a->country, sqlite3_column_text(s, 7));
	store_copy_text(a->region_group, sizeof a->region_group, sqlite3_column_text(s, 8));
	a->estimated = sqlite3_column_int(s, 9) != 0;
	read_tiers(a, sqlite3_column_text(s, 10));
	store_copy_text(a->currency, sizeof a->currency, sqlite3_column_text(s, 11));
	store_copy_text(a->jurisdiction, sizeof a->jurisdiction, sqlite3_column_text(s, 12));
	a->cache_read_per_token = sqlite3_column_double(s, 13);
	a->cache_write_per_token = sqlite3_column_double(s, 14);
}

int store_api_prices(struct store *st, const char *model, struct api_price **out, size_t *n,
                     char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(
	        st->db,
	        "SELECT provider, model, input_per_token, output_per_token, context, "
	        "fetched_at, source, country, region_group, estimated, tiers, currency, "
	        "jurisdiction, cache_read_per_token, cache_write_per_token FROM api_prices "
	        "WHERE (?1 IS NULL OR model = ?1 COLLATE NOCASE) "
	        "ORDER BY input_per_token + output_per_token, provider, model",
	        -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read API prices");
	/* An open model's id is matched by its key (api_model.h), in C: the
	 * hosted copies are spelled a dozen ways, so every row is read. */
	char key[128];
	bool by_key = model && api_model_key(model, key, sizeof key);
	if (model && !by_key)
		sqlite3_bind_text(s, 1, model, -1, SQLITE_STATIC);
	void *rows;
	int rc = store_collect(st, s, sizeof **out, read_api_price, &rows, n,
	                       "cannot read API prices", err);
	*out = rows;
	if (rc == PLANNER_OK && by_key) {
		size_t kept = 0;
		for (size_t i = 0; i < *n; i++)
			if (api_model_matches(model, (*out)[i].model))
				(*out)[kept++] = (*out)[i];
		*n = kept;
	}
	return rc;
}

int store_replace_api_prices(struct store *st, const char *provider, const struct api_price *rows,
                             size_t n, char **err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
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
	if (sqlite3_prepare_v2(st->db, "DELETE FROM api_prices WHERE provider = ?", -1, &del,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
	        st->db,
	        "INSERT OR REPLACE INTO api_prices (provider, model, input_per_token, "
	        "output_per_token, context, fetched_at, source, country, region_group, "
	        "estimated, tiers, currency, jurisdiction, cache_read_per_token, "
	        "cache_write_per_token) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	        -1, &ins, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare API price update");
		goto fail;
	}
	sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = store_db_err(st, err, "cannot replace API prices");
		goto fail;
	}
	for (size_t i = 0; i < n; i++) {
		const struct api_price *a = &rows[i];
		sqlite3_reset(ins);
		sqlite3_bind_text(ins, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 2, a->model, -1, SQLITE_STATIC);
		sqlite3_bind_double(ins, 3, a->input_per_token);
		sqlite3_bind_double(ins, 4, a->output_per_token);
		sqlite3_bind_int64(ins, 5, a->context);
		sqlite3_bind_text(ins, 6, a->fetched_at[0] ? a->fetched_at : now, -1,
		                  SQLITE_STATIC);
		sqlite3_bind_text(ins, 7, a->source, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 8, a->country, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 9, a->region_group, -1, SQLITE_STATIC);
		sqlite3_bind_int(ins, 10, a->estimated);
		char tiers[API_MAX_TIERS * 160];
		sqlite3_bind_text(ins, 11, tiers_text(a, tiers, sizeof tiers), -1,
		                  SQLITE_TRANSIENT);
		sqlite3_bind_text(ins, 12, a->currency[0] ? a->currency : "USD", -1, SQLITE_STATIC);
		sqlite3_bind_text(ins, 13, a->jurisdiction, -1, SQLITE_STATIC);
		sqlite3_bind_double(ins, 14, a->cache_read_per_token);
		sqlite3_bind_double(ins, 15, a->cache_write_per_token);
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = store_db_err(st, err, "cannot store API prices");
			goto fail;
		}
	}
	if ((rc = store_mark_fresh(st, provider, "api", at, err)))
		goto fail;
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
