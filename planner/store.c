/* store.c — the one SQLite store (see store.h). Every SQL statement of the
 * program is in this file, prepared and bound, never built from strings. */
#include "store.h"

#include <cJSON.h>
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* How long a reader or writer waits for another process's lock before the
 * call fails: a refresh holds the write lock for one provider's rows only,
 * which takes well under a second even for 50,000 offers. */
#define STORE_BUSY_TIMEOUT_MS 10000

struct store {
	sqlite3 *db;  /* the connection */
	char *path;   /* file name, for messages */
};

/* Forward migrations: migrations[v] brings a database at user_version v-1
 * to v. A new database gets schema.sql (always the newest schema) and jumps
 * straight to STORE_SCHEMA_VERSION. */
static const char *const migrations[] = {
	[1] = NULL, /* version 1 was schema.sql before sources were recorded */
	[2] = "ALTER TABLE offers ADD COLUMN source TEXT NOT NULL DEFAULT '';"
	      "ALTER TABLE api_prices ADD COLUMN source TEXT NOT NULL DEFAULT '';",
	/* Secondary indexes on offers cost a large refresh more than they
	 * ever saved a reader. */
	[3] = "DROP INDEX IF EXISTS offers_by_price; DROP INDEX IF EXISTS offers_by_gpu;",
};

static int db_err(struct store *st, char **err, const char *what)
{
	return set_err(err, PLANNER_EDB, "%s: %s: %s", st->path, what, sqlite3_errmsg(st->db));
}

static void copy_text(char *dst, size_t len, const unsigned char *src)
{
	snprintf(dst, len, "%s", src ? (const char *)src : "");
}

char *store_default_path(void)
{
	const char *env = getenv("PLANNER_DB");
	if (env && *env)
		return strdup(env);
	const char *xdg = getenv("XDG_DATA_HOME");
	if (xdg && *xdg)
		return xasprintf("%s/planner/prices.db", xdg);
	const char *home = getenv("HOME");
	return xasprintf("%s/.local/share/planner/prices.db", home && *home ? home : ".");
}

/* mkdir -p of the directory holding path. */
static int make_parent_dirs(const char *path, char **err)
{
	char *copy = strdup(path);
	if (!copy)
		return set_err(err, PLANNER_EDB, "out of memory");
	char *dir = dirname(copy);
	int rc = PLANNER_OK;
	/* dirname() may return a static "." or "/": nothing to create. */
	if (!strcmp(dir, ".") || !strcmp(dir, "/")) {
		free(copy);
		return PLANNER_OK;
	}
	for (char *p = dir + 1; ; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
				rc = set_err(err, PLANNER_EDB, "cannot create directory %s: %s", dir,
					     strerror(errno));
				break;
			}
			*p = c;
			if (c == '\0')
				break;
		}
	}
	free(copy);
	return rc;
}

static int exec_sql(struct store *st, const char *sql, char **err)
{
	char *msg = NULL;
	if (sqlite3_exec(st->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		int rc = set_err(err, PLANNER_EDB, "%s: %s", st->path, msg ? msg : "error");
		sqlite3_free(msg);
		return rc;
	}
	return PLANNER_OK;
}

static int user_version(struct store *st, int *v, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db, "PRAGMA user_version", -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read schema version");
	*v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int(s, 0) : 0;
	sqlite3_finalize(s);
	return PLANNER_OK;
}

static int set_user_version(struct store *st, int v, char **err)
{
	/* PRAGMA takes no bound parameters; v is an integer we produced. */
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
	return exec_sql(st, sql, err);
}

static int seed_reference(struct store *st, const struct refdata *ref, char **err)
{
	sqlite3_stmt *g = NULL, *m = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO gpus (name, vendor, vram_gib, bandwidth_gbs, "
			       "fp16_tflops, watts, price_usd, source) VALUES (?,?,?,?,?,?,?,?)",
			       -1, &g, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO models (id, name, layers, hidden, heads, "
			       "kv_heads, head_dim, params_total, params_active, source) "
			       "VALUES (?,?,?,?,?,?,?,?,?,?)",
			       -1, &m, NULL) != SQLITE_OK) {
		rc = db_err(st, err, "cannot prepare reference insert");
		goto out;
	}
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *x = &ref->gpus[i];
		sqlite3_reset(g);
		sqlite3_bind_text(g, 1, x->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(g, 2, x->vendor, -1, SQLITE_STATIC);
		sqlite3_bind_double(g, 3, x->vram_gib);
		sqlite3_bind_double(g, 4, x->bandwidth_gbs);
		sqlite3_bind_double(g, 5, x->fp16_tflops);
		sqlite3_bind_double(g, 6, x->watts);
		if (x->price_usd > 0)
			sqlite3_bind_double(g, 7, x->price_usd);
		else
			sqlite3_bind_null(g, 7);
		sqlite3_bind_text(g, 8, x->source ? x->source : "", -1, SQLITE_STATIC);
		if (sqlite3_step(g) != SQLITE_DONE) {
			rc = db_err(st, err, "cannot store reference GPUs");
			goto out;
		}
	}
	for (size_t i = 0; i < ref->n_models; i++) {
		const struct model_spec *x = &ref->models[i];
		sqlite3_reset(m);
		sqlite3_bind_text(m, 1, x->id, -1, SQLITE_STATIC);
		sqlite3_bind_text(m, 2, x->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(m, 3, x->layers);
		sqlite3_bind_int(m, 4, x->hidden);
		sqlite3_bind_int(m, 5, x->heads);
		sqlite3_bind_int(m, 6, x->kv_heads);
		sqlite3_bind_int(m, 7, x->head_dim);
		sqlite3_bind_double(m, 8, x->params_total);
		sqlite3_bind_double(m, 9, x->params_active);
		sqlite3_bind_text(m, 10, x->source ? x->source : "", -1, SQLITE_STATIC);
		if (sqlite3_step(m) != SQLITE_DONE) {
			rc = db_err(st, err, "cannot store reference models");
			goto out;
		}
	}
out:
	sqlite3_finalize(g);
	sqlite3_finalize(m);
	return rc;
}

static const char *jstr(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* Orders offers or API prices by provider: both structs begin with it. */
static int by_provider(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The provider rows a snapshot brings are inserted as if each provider had
 * been refreshed at the snapshot's date, and flagged from_snapshot so the
 * output can say the prices are bundled, not live. */
static int seed_snapshot(struct store *st, const struct refdata *ref, char **err)
{
	cJSON *root = cJSON_Parse(planner_snapshot_json);
	struct offer *offers = NULL;
	struct api_price *apis = NULL;
	size_t n_off = 0, n_api = 0;
	int rc = PLANNER_OK;
	const cJSON *arr_o = cJSON_GetObjectItemCaseSensitive(root, "offers");
	const cJSON *arr_a = cJSON_GetObjectItemCaseSensitive(root, "api_prices");
	if (!cJSON_IsArray(arr_o) || !cJSON_IsArray(arr_a)) {
		rc = set_err(err, PLANNER_EDB, "embedded snapshot.json is malformed");
		goto out;
	}
	offers = calloc((size_t)cJSON_GetArraySize(arr_o) + 1, sizeof *offers);
	apis = calloc((size_t)cJSON_GetArraySize(arr_a) + 1, sizeof *apis);
	if (!offers || !apis) {
		rc = set_err(err, PLANNER_EDB, "out of memory");
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, arr_o)
	{
		struct offer *o = &offers[n_off];
		const struct gpu_spec *g = refdata_gpu(ref, jstr(it, "gpu"));
		if (!g)
			continue; /* the reference test holds the snapshot to the GPU table */
		snprintf(o->provider, sizeof o->provider, "%s", jstr(it, "provider"));
		snprintf(o->offer, sizeof o->offer, "%s", jstr(it, "offer"));
		snprintf(o->region, sizeof o->region, "%s", jstr(it, "region"));
		snprintf(o->gpu, sizeof o->gpu, "%s", g->name);
		o->gpu_count = (int)jnum(it, "gpu_count");
		o->vram_gib = jnum(it, "vram_gib") > 0 ? jnum(it, "vram_gib") : g->vram_gib;
		o->vcpus = jnum(it, "vcpus");
		o->ram_gib = jnum(it, "ram_gib");
		o->price_per_hour = jnum(it, "price_per_hour");
		o->spot = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "spot"));
		o->available = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(it, "available"));
		snprintf(o->fetched_at, sizeof o->fetched_at, "%s", jstr(it, "fetched_at"));
		snprintf(o->source, sizeof o->source, "%s", jstr(it, "source"));
		if (o->gpu_count > 0 && o->price_per_hour > 0)
			n_off++;
	}
	cJSON_ArrayForEach(it, arr_a)
	{
		struct api_price *a = &apis[n_api++];
		snprintf(a->provider, sizeof a->provider, "%s", jstr(it, "provider"));
		snprintf(a->model, sizeof a->model, "%s", jstr(it, "model"));
		a->input_per_token = jnum(it, "input_per_mtok") / 1e6;
		a->output_per_token = jnum(it, "output_per_mtok") / 1e6;
		a->context = (long)jnum(it, "context");
		snprintf(a->fetched_at, sizeof a->fetched_at, "%s", jstr(it, "fetched_at"));
		snprintf(a->source, sizeof a->source, "%s", jstr(it, "source"));
	}
	/* Each provider's rows go in as one refresh of it would. */
	qsort(offers, n_off, sizeof *offers, by_provider);
	qsort(apis, n_api, sizeof *apis, by_provider);
	for (size_t i = 0, j; i < n_off && rc == PLANNER_OK; i = j) {
		for (j = i; j < n_off && !strcmp(offers[j].provider, offers[i].provider); j++)
			;
		rc = store_replace_offers(st, offers[i].provider, &offers[i], j - i, err);
	}
	for (size_t i = 0, j; i < n_api && rc == PLANNER_OK; i = j) {
		for (j = i; j < n_api && !strcmp(apis[j].provider, apis[i].provider); j++)
			;
		rc = store_replace_api_prices(st, apis[i].provider, &apis[i], j - i, err);
	}
	if (rc == PLANNER_OK)
		rc = exec_sql(st, "UPDATE providers SET from_snapshot = 1, last_status = 'snapshot'",
			      err);
out:
	free(offers);
	free(apis);
	cJSON_Delete(root);
	return rc;
}

static int migrate(struct store *st, const struct refdata *ref, char **err)
{
	int v = 0, rc;
	if ((rc = user_version(st, &v, err)))
		return rc;
	if (v == STORE_SCHEMA_VERSION)
		return PLANNER_OK;
	if (v > STORE_SCHEMA_VERSION)
		return set_err(err, PLANNER_EDB,
			       "%s: database schema version %d is newer than this planner (%d); "
			       "upgrade planner or use another --db",
			       st->path, v, STORE_SCHEMA_VERSION);
	/* BEGIN IMMEDIATE takes the write lock first, so two processes that
	 * both find an empty file do not both create and seed it. */
	if ((rc = exec_sql(st, "BEGIN IMMEDIATE", err)))
		return rc;
	if ((rc = user_version(st, &v, err)))
		goto fail;
	if (v == 0) {
		if ((rc = exec_sql(st, planner_schema_sql, err)) ||
		    (rc = seed_reference(st, ref, err)) || (rc = seed_snapshot(st, ref, err)))
			goto fail;
	} else {
		for (int to = v + 1; to <= STORE_SCHEMA_VERSION; to++)
			if (migrations[to] && (rc = exec_sql(st, migrations[to], err)))
				goto fail;
		if ((rc = exec_sql(st, planner_schema_sql, err)) ||
		    (rc = seed_reference(st, ref, err)))
			goto fail;
	}
	if ((rc = set_user_version(st, STORE_SCHEMA_VERSION, err)) ||
	    (rc = exec_sql(st, "COMMIT", err)))
		goto fail;
	return PLANNER_OK;
fail:
	sqlite3_exec(st->db, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

int store_open(const char *path, const struct refdata *ref, struct store **out, char **err)
{
	int rc;
	struct store *st = calloc(1, sizeof *st);
	if (!st || !(st->path = strdup(path))) {
		free(st);
		return set_err(err, PLANNER_EDB, "out of memory");
	}
	if ((rc = make_parent_dirs(path, err)))
		goto fail;
	if (sqlite3_open_v2(path, &st->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		rc = set_err(err, PLANNER_EDB, "cannot open database %s: %s", path,
			     st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	/* PLANNER_DB_BUSY_TIMEOUT_MS exists for tests that hold the lock on
	 * purpose and do not want to wait ten seconds per statement. */
	const char *busy = getenv("PLANNER_DB_BUSY_TIMEOUT_MS");
	int timeout_ms = busy && atoi(busy) > 0 ? atoi(busy) : STORE_BUSY_TIMEOUT_MS;
	sqlite3_busy_timeout(st->db, timeout_ms);
	/* WAL lets compare and offers read while a refresh writes. Turning a
	 * new file to WAL takes an exclusive lock for which SQLite does not
	 * call the busy handler, so two commands creating the same database
	 * at once would see "database is locked": wait here instead. */
	for (int waited = 0; (rc = sqlite3_exec(st->db, "PRAGMA journal_mode = WAL", NULL, NULL,
						 NULL)) != SQLITE_OK;
	     waited += 10) {
		if ((rc & 0xff) != SQLITE_BUSY || waited >= timeout_ms) {
			rc = db_err(st, err, "cannot switch to WAL");
			goto fail;
		}
		usleep(10000);
	}
	/* With WAL, synchronous = NORMAL never corrupts the file (a power cut
	 * may lose the last refresh, which the next cron run fetches again).
	 * A 32 MiB page cache (SQLite's default is 2 MiB) keeps a 100,000-row
	 * replace in memory. */
	if ((rc = exec_sql(st,
			   "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; "
			   "PRAGMA cache_size = -32768",
			   err)))
		goto fail;
	if ((rc = migrate(st, ref, err)))
		goto fail;
	*out = st;
	return PLANNER_OK;
fail:
	store_close(st);
	return rc;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	sqlite3_close(st->db);
	free(st->path);
	free(st);
}

struct sqlite3 *store_handle(struct store *st)
{
	return st->db;
}

/* Steps the prepared, bound statement s to its end, reading each row with
 * read() into a malloc'd array of zeroed `size`-byte rows, and finalizes
 * s. On PLANNER_OK *out (NULL when there are no rows) and *n are the
 * caller's; on error nothing is. `what` names the read in messages. */
static int collect(struct store *st, sqlite3_stmt *s, size_t size,
		   void (*read)(sqlite3_stmt *s, void *row), void **out, size_t *n,
		   const char *what, char **err)
{
	char *rows = NULL;
	size_t count = 0, cap = 0;
	int rc = PLANNER_OK, step;
	*out = NULL;
	*n = 0;
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		if (count == cap) {
			size_t more = cap ? cap * 2 : 64;
			char *r = realloc(rows, more * size);
			if (!r) {
				rc = set_err(err, PLANNER_EDB, "out of memory");
				goto out;
			}
			rows = r;
			cap = more;
		}
		void *row = rows + count++ * size;
		memset(row, 0, size);
		read(s, row);
	}
	if (step != SQLITE_DONE) {
		rc = db_err(st, err, what);
		goto out;
	}
	*out = rows;
	*n = count;
	rows = NULL;
out:
	free(rows);
	sqlite3_finalize(s);
	return rc;
}

static void read_offer(sqlite3_stmt *s, void *row)
{
	struct offer *o = row;
	copy_text(o->provider, sizeof o->provider, sqlite3_column_text(s, 0));
	copy_text(o->offer, sizeof o->offer, sqlite3_column_text(s, 1));
	copy_text(o->region, sizeof o->region, sqlite3_column_text(s, 2));
	o->spot = sqlite3_column_int(s, 3) != 0;
	copy_text(o->gpu, sizeof o->gpu, sqlite3_column_text(s, 4));
	o->gpu_count = sqlite3_column_int(s, 5);
	o->vram_gib = sqlite3_column_double(s, 6);
	o->vcpus = sqlite3_column_double(s, 7);
	o->ram_gib = sqlite3_column_double(s, 8);
	o->price_per_hour = sqlite3_column_double(s, 9);
	o->available = sqlite3_column_int(s, 10) != 0;
	copy_text(o->fetched_at, sizeof o->fetched_at, sqlite3_column_text(s, 11));
	copy_text(o->source, sizeof o->source, sqlite3_column_text(s, 12));
}

int store_offers(struct store *st, const struct offer_filter *f, struct offer **out, size_t *n,
		 char **err)
{
	static const struct offer_filter none = {.spot = -1};
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (!f)
		f = &none;
	if (sqlite3_prepare_v2(
		    st->db,
		    "SELECT provider, offer, region, spot, gpu, gpu_count, vram_gib, vcpus, "
		    "ram_gib, price_per_hour, available, fetched_at, source FROM offers "
		    "WHERE (?1 IS NULL OR gpu = ?1) AND (?2 IS NULL OR provider = ?2) "
		    "AND vram_gib >= ?3 AND (?4 <= 0 OR price_per_hour <= ?4) "
		    "AND (?5 < 0 OR spot = ?5) AND (?6 = 0 OR available = 1) "
		    "ORDER BY price_per_hour, provider, offer, region, spot",
		    -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read offers");
	if (f->gpu)
		sqlite3_bind_text(s, 1, f->gpu, -1, SQLITE_STATIC);
	if (f->provider)
		sqlite3_bind_text(s, 2, f->provider, -1, SQLITE_STATIC);
	sqlite3_bind_double(s, 3, f->min_vram_gib);
	sqlite3_bind_double(s, 4, f->max_price);
	sqlite3_bind_int(s, 5, f->spot);
	sqlite3_bind_int(s, 6, f->available_only);
	void *rows;
	int rc = collect(st, s, sizeof **out, read_offer, &rows, n, "cannot read offers", err);
	*out = rows;
	return rc;
}

static void read_api_price(sqlite3_stmt *s, void *row)
{
	struct api_price *a = row;
	copy_text(a->provider, sizeof a->provider, sqlite3_column_text(s, 0));
	copy_text(a->model, sizeof a->model, sqlite3_column_text(s, 1));
	a->input_per_token = sqlite3_column_double(s, 2);
	a->output_per_token = sqlite3_column_double(s, 3);
	a->context = (long)sqlite3_column_int64(s, 4);
	copy_text(a->fetched_at, sizeof a->fetched_at, sqlite3_column_text(s, 5));
	copy_text(a->source, sizeof a->source, sqlite3_column_text(s, 6));
}

int store_api_prices(struct store *st, const char *model, struct api_price **out, size_t *n,
		     char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT provider, model, input_per_token, output_per_token, context, "
			       "fetched_at, source FROM api_prices "
			       "WHERE (?1 IS NULL OR model = ?1 COLLATE NOCASE) "
			       "ORDER BY input_per_token + output_per_token, provider, model",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read API prices");
	if (model)
		sqlite3_bind_text(s, 1, model, -1, SQLITE_STATIC);
	void *rows;
	int rc = collect(st, s, sizeof **out, read_api_price, &rows, n, "cannot read API prices", err);
	*out = rows;
	return rc;
}

int store_prices_as_of(struct store *st, char *buf, size_t len, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT max(t) FROM (SELECT max(fetched_at) AS t FROM offers "
			       "UNION ALL SELECT max(fetched_at) FROM api_prices)",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read price dates");
	int step = sqlite3_step(s);
	copy_text(buf, len, step == SQLITE_ROW ? sqlite3_column_text(s, 0) : NULL);
	sqlite3_finalize(s);
	return step == SQLITE_ROW ? PLANNER_OK : db_err(st, err, "cannot read price dates");
}

static void read_provider(sqlite3_stmt *s, void *row)
{
	struct provider_state *p = row;
	copy_text(p->name, sizeof p->name, sqlite3_column_text(s, 0));
	copy_text(p->kind, sizeof p->kind, sqlite3_column_text(s, 1));
	copy_text(p->last_good, sizeof p->last_good, sqlite3_column_text(s, 2));
	copy_text(p->last_attempt, sizeof p->last_attempt, sqlite3_column_text(s, 3));
	copy_text(p->last_status, sizeof p->last_status, sqlite3_column_text(s, 4));
	copy_text(p->last_error, sizeof p->last_error, sqlite3_column_text(s, 5));
	p->from_snapshot = sqlite3_column_int(s, 6) != 0;
	p->rows = (long)sqlite3_column_int64(s, 7);
}

int store_providers(struct store *st, struct provider_state **out, size_t *n, char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(
		    st->db,
		    "SELECT p.name, p.kind, p.last_good, p.last_attempt, p.last_status, p.last_error,"
		    " p.from_snapshot, (SELECT count(*) FROM offers o WHERE o.provider = p.name) +"
		    " (SELECT count(*) FROM api_prices a WHERE a.provider = p.name)"
		    " FROM providers p ORDER BY p.kind DESC, p.name",
		    -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read providers");
	void *rows;
	int rc = collect(st, s, sizeof **out, read_provider, &rows, n, "cannot read providers", err);
	*out = rows;
	return rc;
}

/* Marks provider as freshly refreshed (inside the caller's transaction). */
static int mark_fresh(struct store *st, const char *provider, const char *kind, const char *at,
		      char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO providers (name, kind, last_good, last_attempt, "
			       "last_status, last_error, from_snapshot) VALUES (?1, ?2, ?3, ?3, 'ok', "
			       "NULL, 0) ON CONFLICT (name) DO UPDATE SET kind = ?2, last_good = ?3, "
			       "last_attempt = ?3, last_status = 'ok', last_error = NULL, "
			       "from_snapshot = 0",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot update provider state");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 3, at, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_DONE)
		rc = db_err(st, err, "cannot update provider state");
	sqlite3_finalize(s);
	return rc;
}

/* The newest fetched_at of rows, so a snapshot keeps its own date. */
static const char *newest(const char *a, const char *b)
{
	return strcmp(a, b) >= 0 ? a : b;
}

/* A provider's current prices keyed by offer, region and spot: history is
 * decided against one read of the old rows instead of one query per new row
 * (100,000 rows in a Vast.ai refresh). Open addressing, FNV-1a. */
struct price_map {
	char **keys;    /* "offer\x1fregion\x1fspot", owned; NULL = empty slot */
	double *prices; /* USD per instance-hour */
	size_t cap;     /* a power of two, at least twice the entries */
};

static void offer_key(char *buf, size_t len, const char *offer, const char *region, int spot)
{
	snprintf(buf, len, "%s\x1f%s\x1f%d", offer, region, spot);
}

static size_t key_hash(const char *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ULL;
	return (size_t)h;
}

static void price_map_free(struct price_map *m)
{
	for (size_t i = 0; m->keys && i < m->cap; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->prices);
}

/* Where key is, or the empty slot where it would go. */
static size_t price_map_slot(const struct price_map *m, const char *key)
{
	size_t i = key_hash(key) & (m->cap - 1);
	while (m->keys[i] && strcmp(m->keys[i], key))
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int load_prices(struct store *st, const char *provider, struct price_map *m, char **err)
{
	sqlite3_stmt *s = NULL;
	int rc = PLANNER_OK;
	long long rows = 0;
	memset(m, 0, sizeof *m);
	if (sqlite3_prepare_v2(st->db,
			       "SELECT count(*) FROM offers WHERE provider = ?", -1, &s, NULL) !=
	    SQLITE_OK)
		return db_err(st, err, "cannot read offers");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW)
		rows = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	for (m->cap = 16; m->cap < (size_t)rows * 2; m->cap *= 2)
		;
	m->keys = calloc(m->cap, sizeof *m->keys);
	m->prices = calloc(m->cap, sizeof *m->prices);
	if (!m->keys || !m->prices)
		return set_err(err, PLANNER_EDB, "out of memory");
	if (sqlite3_prepare_v2(st->db,
			       "SELECT offer, region, spot, price_per_hour FROM offers "
			       "WHERE provider = ?",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read offers");
	sqlite3_bind_text(s, 1, provider, -1, SQLITE_STATIC);
	int step;
	char key[512];
	while ((step = sqlite3_step(s)) == SQLITE_ROW) {
		offer_key(key, sizeof key, (const char *)sqlite3_column_text(s, 0),
			  (const char *)sqlite3_column_text(s, 1), sqlite3_column_int(s, 2));
		size_t i = price_map_slot(m, key);
		if (!m->keys[i] && !(m->keys[i] = strdup(key))) {
			rc = set_err(err, PLANNER_EDB, "out of memory");
			break;
		}
		m->prices[i] = sqlite3_column_double(s, 3);
	}
	if (rc == PLANNER_OK && step != SQLITE_DONE)
		rc = db_err(st, err, "cannot read offers");
	sqlite3_finalize(s);
	return rc;
}

int store_replace_offers(struct store *st, const char *provider, const struct offer *rows,
			 size_t n, char **err)
{
	sqlite3_stmt *hist = NULL, *del = NULL, *ins = NULL;
	struct price_map old = {0};
	int rc;
	char now[24];
	iso_now(now, sizeof now);
	const char *at = "";
	for (size_t i = 0; i < n; i++)
		at = newest(at, rows[i].fetched_at);
	if (!*at)
		at = now;
	if ((rc = exec_sql(st, "SAVEPOINT replace_offers", err)))
		return rc;
	if ((rc = load_prices(st, provider, &old, err)))
		goto fail;
	if (sqlite3_prepare_v2(st->db,
			       "INSERT INTO price_history (provider, offer, region, spot, gpu, "
			       "gpu_count, price_per_hour, recorded_at) VALUES (?,?,?,?,?,?,?,?)",
			       -1, &hist, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db, "DELETE FROM offers WHERE provider = ?", -1, &del, NULL) !=
		    SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO offers (provider, offer, region, spot, gpu, "
			       "gpu_count, vram_gib, vcpus, ram_gib, price_per_hour, available, "
			       "fetched_at, source) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
			       -1, &ins, NULL) != SQLITE_OK) {
		rc = db_err(st, err, "cannot prepare offer update");
		goto fail;
	}
	/* History first: it compares against the rows about to be replaced. */
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &rows[i];
		char key[512];
		offer_key(key, sizeof key, o->offer, o->region, o->spot);
		size_t slot = price_map_slot(&old, key);
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference): load_prices allocated it */
		bool changed = !old.keys[slot] || fabs(old.prices[slot] - o->price_per_hour) > 1e-9;
		if (!changed)
			continue;
		sqlite3_reset(hist);
		sqlite3_bind_text(hist, 1, provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(hist, 2, o->offer, -1, SQLITE_STATIC);
		sqlite3_bind_text(hist, 3, o->region, -1, SQLITE_STATIC);
		sqlite3_bind_int(hist, 4, o->spot);
		sqlite3_bind_text(hist, 5, o->gpu, -1, SQLITE_STATIC);
		sqlite3_bind_int(hist, 6, o->gpu_count);
		sqlite3_bind_double(hist, 7, o->price_per_hour);
		sqlite3_bind_text(hist, 8, o->fetched_at[0] ? o->fetched_at : now, -1,
				  SQLITE_STATIC);
		if (sqlite3_step(hist) != SQLITE_DONE) {
			rc = db_err(st, err, "cannot record price history");
			goto fail;
		}
	}
	sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = db_err(st, err, "cannot replace offers");
		goto fail;
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
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = db_err(st, err, "cannot store offers");
			goto fail;
		}
	}
	if ((rc = mark_fresh(st, provider, "rented", at, err)))
		goto fail;
	rc = exec_sql(st, "RELEASE replace_offers", err);
	if (rc)
		goto fail;
	goto out;
fail:
	sqlite3_exec(st->db, "ROLLBACK TO replace_offers; RELEASE replace_offers", NULL, NULL,
		     NULL);
out:
	price_map_free(&old);
	sqlite3_finalize(hist);
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
	return rc;
}

int store_replace_api_prices(struct store *st, const char *provider,
			     const struct api_price *rows, size_t n, char **err)
{
	sqlite3_stmt *del = NULL, *ins = NULL;
	int rc;
	char now[24];
	iso_now(now, sizeof now);
	const char *at = "";
	for (size_t i = 0; i < n; i++)
		at = newest(at, rows[i].fetched_at);
	if (!*at)
		at = now;
	if ((rc = exec_sql(st, "SAVEPOINT replace_api", err)))
		return rc;
	if (sqlite3_prepare_v2(st->db, "DELETE FROM api_prices WHERE provider = ?", -1, &del,
			       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
			       "INSERT OR REPLACE INTO api_prices (provider, model, input_per_token, "
			       "output_per_token, context, fetched_at, source) "
			       "VALUES (?,?,?,?,?,?,?)",
			       -1, &ins, NULL) != SQLITE_OK) {
		rc = db_err(st, err, "cannot prepare API price update");
		goto fail;
	}
	sqlite3_bind_text(del, 1, provider, -1, SQLITE_STATIC);
	if (sqlite3_step(del) != SQLITE_DONE) {
		rc = db_err(st, err, "cannot replace API prices");
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
		if (sqlite3_step(ins) != SQLITE_DONE) {
			rc = db_err(st, err, "cannot store API prices");
			goto fail;
		}
	}
	if ((rc = mark_fresh(st, provider, "api", at, err)))
		goto fail;
	if ((rc = exec_sql(st, "RELEASE replace_api", err)))
		goto fail;
	goto out;
fail:
	sqlite3_exec(st->db, "ROLLBACK TO replace_api; RELEASE replace_api", NULL, NULL, NULL);
out:
	sqlite3_finalize(del);
	sqlite3_finalize(ins);
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
	    sqlite3_prepare_v2(st->db,
			       "INSERT INTO providers (name, kind, last_attempt, last_status, "
			       "last_error) VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO UPDATE "
			       "SET last_attempt = ?3, last_status = ?4, last_error = ?5",
			       -1, &prov, NULL) != SQLITE_OK) {
		rc = db_err(st, err, "cannot record refresh run");
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
		rc = db_err(st, err, "cannot record refresh run");
		goto out;
	}
	sqlite3_bind_text(prov, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 3, ended_at, -1, SQLITE_STATIC);
	sqlite3_bind_text(prov, 4, status, -1, SQLITE_STATIC);
	if (error)
		sqlite3_bind_text(prov, 5, error, -1, SQLITE_STATIC);
	if (sqlite3_step(prov) != SQLITE_DONE)
		rc = db_err(st, err, "cannot record provider state");
out:
	sqlite3_finalize(run);
	sqlite3_finalize(prov);
	return rc;
}

static void read_price_point(sqlite3_stmt *s, void *row)
{
	struct price_point *p = row;
	copy_text(p->provider, sizeof p->provider, sqlite3_column_text(s, 0));
	copy_text(p->offer, sizeof p->offer, sqlite3_column_text(s, 1));
	copy_text(p->region, sizeof p->region, sqlite3_column_text(s, 2));
	p->spot = sqlite3_column_int(s, 3) != 0;
	copy_text(p->gpu, sizeof p->gpu, sqlite3_column_text(s, 4));
	p->gpu_count = sqlite3_column_int(s, 5);
	p->price_per_hour = sqlite3_column_double(s, 6);
	copy_text(p->recorded_at, sizeof p->recorded_at, sqlite3_column_text(s, 7));
}

int store_price_history(struct store *st, const char *gpu, const char *provider,
			struct price_point **out, size_t *n, char **err)
{
	sqlite3_stmt *s = NULL;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(st->db,
			       "SELECT provider, offer, region, spot, gpu, gpu_count, price_per_hour, "
			       "recorded_at FROM price_history WHERE (?1 IS NULL OR gpu = ?1) "
			       "AND (?2 IS NULL OR provider = ?2) "
			       "ORDER BY gpu, recorded_at, provider, offer, region, spot",
			       -1, &s, NULL) != SQLITE_OK)
		return db_err(st, err, "cannot read price history");
	if (gpu)
		sqlite3_bind_text(s, 1, gpu, -1, SQLITE_STATIC);
	if (provider)
		sqlite3_bind_text(s, 2, provider, -1, SQLITE_STATIC);
	void *rows;
	int rc = collect(st, s, sizeof **out, read_price_point, &rows, n, "cannot read price history", err);
	*out = rows;
	return rc;
}

struct store_lock {
	int fd; /* the open lock file, flock'ed exclusive */
};

int store_lock_refresh(struct store *st, long wait_ms, struct store_lock **out, char **err)
{
	char *path = xasprintf("%s.lock", st->path);
	struct store_lock *lk = calloc(1, sizeof *lk);
	int rc = PLANNER_OK;
	if (lk)
		lk->fd = -1;
	if (!path || !lk) {
		rc = set_err(err, PLANNER_EDB, "out of memory");
		goto fail;
	}
	lk->fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lk->fd < 0) {
		rc = set_err(err, PLANNER_EDB, "cannot open %s: %s", path, strerror(errno));
		goto fail;
	}
	/* Poll rather than block: a cron refresh that finds another one
	 * running should give up after a short wait, not hang all night. */
	for (long waited = 0;; waited += 100) {
		if (flock(lk->fd, LOCK_EX | LOCK_NB) == 0)
			break;
		if (errno != EWOULDBLOCK && errno != EINTR) {
			rc = set_err(err, PLANNER_EDB, "cannot lock %s: %s", path, strerror(errno));
			goto fail;
		}
		if (waited >= wait_ms) {
			rc = set_err(err, PLANNER_EDB,
				     "another planner refresh is using %s; try again when it ends",
				     st->path);
			goto fail;
		}
		struct timespec ts = {0, 100 * 1000000L};
		nanosleep(&ts, NULL);
	}
	free(path);
	*out = lk;
	return PLANNER_OK;
fail:
	if (lk && lk->fd >= 0)
		close(lk->fd);
	free(lk);
	free(path);
	return rc;
}

void store_unlock_refresh(struct store_lock *lk)
{
	if (!lk)
		return;
	flock(lk->fd, LOCK_UN);
	close(lk->fd);
	free(lk);
}
