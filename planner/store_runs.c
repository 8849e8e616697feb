/* store_runs.c — provider freshness and refresh runs, part of the one
 * store module (see store_int.h). */
#include "store_int.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int store_prices_as_of(struct store *st, char *buf, size_t len, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT max(t) FROM (SELECT max(fetched_at) AS t FROM offers "
	                       "UNION ALL SELECT max(fetched_at) FROM api_prices "
	                       "UNION ALL " STORE_DATED_PROVIDERS ")",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read price dates");
	int step = sqlite3_step(s);
	store_copy_text(buf, len, step == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL);
	sqlite3_finalize(s);
	return step == SQLITE_ROW ? PLANNER_OK : store_db_err(st, err, "cannot read price dates");
}

static void read_provider(sqlite3_stmt *s, void *row)
{
	struct provider_state *p = row;
	store_copy_text(p->name, sizeof p->name, sqlite3_column_text(s, 0));
	store_copy_text(p->kind, sizeof p->kind, sqlite3_column_text(s, 1));
	store_copy_text(p->last_good, sizeof p->last_good, sqlite3_column_text(s, 2));
	store_copy_text(p->last_attempt, sizeof p->last_attempt, sqlite3_column_text(s, 3));
	store_copy_text(p->last_status, sizeof p->last_status, sqlite3_column_text(s, 4));
	store_copy_text(p->last_error, sizeof p->last_error, sqlite3_column_text(s, 5));
	p->from_snapshot = sqlite3_column_int(s, 6) != 0;
	p->rows = (long)sqlite3_column_int64(s, 7);
	store_copy_text(p->prices_as_of, sizeof p->prices_as_of, sqlite3_column_text(s, 8));
}

/* Provider p's oldest row date: the least of STORE_PROVIDER_ROW_DATES's
 * for p, as one provider's lookups through the offers' key rather than a
 * pass grouping every row (a fifth of compare's store time at 100,000
 * rows). NULL when p holds no row. */
#define PROVIDER_OLDEST_ROW                                                                        \
	"SELECT min(at) FROM (SELECT min(o.fetched_at) AS at FROM offers o WHERE o.provider ="     \
	" p.name AND o.fetched_at <> '' UNION ALL SELECT coalesce(d.fetched_at, '') FROM (SELECT"  \
	" 1 WHERE EXISTS (SELECT 1 FROM offers o WHERE o.provider = p.name AND o.fetched_at ="     \
	" '')) LEFT JOIN offer_dates d ON d.provider = p.name UNION ALL SELECT min(fetched_at)"    \
	" FROM api_prices a WHERE a.provider = p.name)"

int store_providers(struct store *st, struct provider_state **out, size_t *n, char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(
	        st->db,
	        "SELECT p.name, p.kind, p.last_good, p.last_attempt, p.last_status, p.last_error,"
	        " p.from_snapshot, (SELECT count(*) FROM offers o WHERE o.provider = p.name) +"
	        " (SELECT count(*) FROM api_prices a WHERE a.provider = p.name) +"
	        " (CASE p.kind WHEN 'fx' THEN (SELECT count(*) FROM fx_rates) ELSE 0 END),"
	        " coalesce((" PROVIDER_OLDEST_ROW "), p.last_good, '') FROM providers p"
	        " ORDER BY p.kind DESC, p.name",
	        -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read providers");
	void *rows;
	int rc = store_collect(st, s, sizeof **out, read_provider, &rows, n,
	                       "cannot read providers", err);
	*out = rows;
	return rc;
}

/* Marks provider as freshly refreshed (inside the caller's transaction). */
int store_mark_fresh(struct store *st, const char *provider, const char *kind, const char *at,
                     char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(
	        st->db,
	        "INSERT INTO providers (name, kind, last_good, last_attempt, "
	        "last_status, last_error, from_snapshot) VALUES (?1, ?2, ?3, ?3, 'ok', "
	        "NULL, 0) ON CONFLICT (name) DO UPDATE SET kind = ?2, last_good = ?3, "
	        "last_attempt = ?3, last_status = 'ok', last_error = NULL, "
	        "from_snapshot = 0",
	        -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot update provider state");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, at, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot update provider state");
	sqlite3_finalize(s);
	return rc;
}

int store_record_run(struct store *st, const char *provider, const char *kind,
                     const char *started_at, const char *ended_at, const char *status, long rows,
                     long http_status, const char *error, char **err)
{
	sqlite3_stmt *run = NULL, *prov = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db,
	                       "INSERT INTO refresh_runs (provider, started_at, ended_at, status, "
	                       "rows, http_status, error) VALUES (?,?,?,?,?,?,?)",
	                       -1, &run, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
	        st->db,
	        "INSERT INTO providers (name, kind, last_attempt, last_status, "
	        "last_error) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO UPDATE "
	        "SET last_attempt = ?3, last_status = ?4, last_error = ?5",
	        -1, &prov, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot record refresh run");
		goto out;
	}
	sqlite3_bind_text(run, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(run, 2, started_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(run, 3, ended_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(run, 4, status, -1, SQLITE_STATIC);
	sqlite3_bind_int64(run, 5, rows);
	sqlite3_bind_int64(run, 6, http_status);
	if (error)
		sqlite3_bind_text(run, 7, error, -1, SQLITE_STATIC);
	if (sqlite3_step(run) != SQLITE_DONE) {
		rc = store_db_err(st, err, "cannot record refresh run");
		goto out;
	}
	sqlite3_bind_text(prov, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 3, ended_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 4, status, -1, SQLITE_STATIC);
	if (error)
		sqlite3_bind_text(prov, 5, error, -1, SQLITE_STATIC);
	if (sqlite3_step(prov) != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot record provider state");
out:
	sqlite3_finalize(run);
	sqlite3_finalize(prov);
	return rc;
}

/* A provider still on the snapshot and its oldest row so far. */
struct snap_prov {
	char name[64];
	char oldest[24];
	bool seen; /* a row of it has passed */
};

/* What store_offers_dated keeps while the offers stream past. */
struct dated {
	store_offer_fn fn;
	void *ctx;
	char newest[24]; /* the newest fetched_at so far ("" none) */
	struct snap_prov *provs;
	size_t n_provs;
	size_t last; /* the provider of the previous row: feeds come in runs */
};

/* Notes at as provider's row time: the oldest per snapshot provider. */
static void note_oldest(struct dated *d, const char *provider, const char *at)
{
	if (d->last >= d->n_provs || strcmp(d->provs[d->last].name, provider)) {
		d->last = d->n_provs;
		for (size_t i = 0; i < d->n_provs; i++)
			if (!strcmp(d->provs[i].name, provider)) {
				d->last = i;
				break;
			}
	}
	struct snap_prov *p = d->last < d->n_provs ? &d->provs[d->last] : NULL;
	if (p && (!p->seen || strcmp(at, p->oldest) < 0)) {
		store_copy_text(p->oldest, sizeof p->oldest, (const unsigned char *)at);
		p->seen = true;
	}
}

static int dated_offer(void *ctx, const struct offer *o, char **err)
{
	struct dated *d = ctx;
	/* SQLite's max and min of text compare bytes, as strcmp does. */
	if (strcmp(o->fetched_at, d->newest) > 0)
		memcpy(d->newest, o->fetched_at, sizeof d->newest);
	note_oldest(d, o->provider, o->fetched_at);
	return o->available ? d->fn(d->ctx, o, err) : PLANNER_OK;
}

/* The providers still on the snapshot, by name, into d. */
static int snapshot_providers(struct store *st, struct dated *d, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT name FROM providers WHERE from_snapshot = 1 ORDER BY name",
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read snapshot dates");
	int step, rc = PLANNER_OK;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		struct snap_prov *grown = realloc(d->provs, (d->n_provs + 1) * sizeof *grown);
		if (!grown) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			break;
		}
		d->provs = grown;
		d->provs[d->n_provs] = (struct snap_prov){.seen = false};
		store_copy_text(d->provs[d->n_provs++].name, sizeof grown->name,
				sqlite3_column_text(s, 0));
	}
	if (rc == PLANNER_OK && step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot read snapshot dates");
	sqlite3_finalize(s);
	return rc;
}

/* The API prices' dates into d: a small table, grouped by SQLite. */
static int api_dates(struct store *st, struct dated *d, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT provider, min(fetched_at), max(fetched_at) FROM api_prices "
			       "GROUP BY provider",
			       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read price dates");
	int step;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		char prov[64], oldest[24], newest[24];
		store_copy_text(prov, sizeof prov, sqlite3_column_text(s, 0));
		store_copy_text(oldest, sizeof oldest, sqlite3_column_text(s, 1));
		store_copy_text(newest, sizeof newest, sqlite3_column_text(s, 2));
		if (strcmp(newest, d->newest) > 0)
			memcpy(d->newest, newest, sizeof d->newest);
		note_oldest(d, prov, oldest);
	}
	sqlite3_finalize(s);
	return step == SQLITE_DONE ? PLANNER_OK : store_db_err(st, err, "cannot read price dates");
}

int store_offers_dated(struct store *st, store_offer_fn fn, void *ctx, char *as_of,
		       size_t as_of_len, char *snap, size_t snap_len, char **err)
{
	struct dated d = {.fn = fn, .ctx = ctx};
	struct offer_filter all = {.spot = -1};
	int rc;
	if ((rc = snapshot_providers(st, &d, err)) || (rc = api_dates(st, &d, err)) ||
	    (rc = store_offers_each(st, &all, dated_offer, &d, err)))
		goto out;
	store_copy_text(as_of, as_of_len, (const unsigned char *)d.newest);
	/* As store_snapshot_dates writes them: by name, those with rows. */
	size_t used = 0;
	if (snap_len > 0)
		snap[0] = '\0';
	for (size_t i = 0; i < d.n_provs && used < snap_len; i++) {
		if (!d.provs[i].seen)
			continue;
		int w = snprintf(snap + used, snap_len - used, "%s%s %.10s", used ? ", " : "",
				 d.provs[i].name, d.provs[i].oldest);
		used += w > 0 ? (size_t)w : 0;
	}
out:
	free(d.provs);
	return rc;
}
