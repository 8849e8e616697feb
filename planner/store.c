/* store.c — the one SQLite store (see store.h): opening, migrating and
 * seeding the database, the refresh lock, and the helpers its other parts
 * share (store_int.h). Every SQL statement of the program is in this file
 * or in store_offers.c, store_api.c, store_runs.c and store_check.c,
 * prepared and bound, never built from strings.
 * layout: long file — the migrations of all eleven schema versions are
 * here, each beside the schema change it brings; they read best together. */
#include "store.h"

#include <cJSON.h>
#include <errno.h>
#include <libgen.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

#include "fabric.h"
#include "fx.h"
#include "provider.h"
#include "regions.h"
#include "store_int.h"
#include "util.h"

/* How long a reader or writer waits for another process's lock before the
 * call fails: a refresh holds the write lock for one provider's rows only,
 * which takes well under a second even for 50,000 offers. */
#define STORE_BUSY_TIMEOUT_MS 10000

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
    /* Regions are first-class (issue 11): a location beside the provider's
     * region name (filled by locate_rows), RunPod's secure/community out
     * of `region` into `tier`, and rows whose source says they were not
     * confirmed flagged estimated. */
    [4] = "ALTER TABLE offers ADD COLUMN country TEXT NOT NULL DEFAULT '';"
          "ALTER TABLE offers ADD COLUMN region_group TEXT NOT NULL DEFAULT '';"
          "ALTER TABLE offers ADD COLUMN tier TEXT NOT NULL DEFAULT '';"
          "ALTER TABLE offers ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;"
          "ALTER TABLE api_prices ADD COLUMN country TEXT NOT NULL DEFAULT '';"
          "ALTER TABLE api_prices ADD COLUMN region_group TEXT NOT NULL DEFAULT '';"
          "ALTER TABLE api_prices ADD COLUMN estimated INTEGER NOT NULL DEFAULT 0;"
          "UPDATE offers SET tier = region, region = '' WHERE provider = 'runpod' "
          "AND region IN ('secure', 'community');"
          "UPDATE offers SET estimated = 1 WHERE source LIKE '%unconfirmed%' "
          "OR source LIKE '%estimate%';",
    /* Long-prompt tiers are their own prices (issue 11), no longer a
     * context cut to the first tier's threshold. */
    [5] = "ALTER TABLE api_prices ADD COLUMN tiers TEXT NOT NULL DEFAULT '';",
    /* History records what each refresh saw (issue 12): a row with gone = 1
     * when an offer vanished from its provider's feed. A version-1
     * database has no price_history yet: add_history_column runs after
     * schema.sql instead. */
    [6] = NULL,
    /* Native currencies (issue 14): each offer keeps the currency it is
     * published in; fx_rates comes with schema.sql and is seeded from the
     * snapshot (seed_fx); price_history.currency is added after schema.sql
     * (add_history_column), as a version-1 database has no price_history. */
    [7] = "ALTER TABLE offers ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';",
    /* A refresh no longer rewrites an offer whose only change is its date
     * (issue 16): offer_dates, from schema.sql, holds a provider's date
     * for its rows with fetched_at = ''. Older rows keep their own dates,
     * which read the same; the next refresh moves them over. */
    [8] = NULL,
    /* Hosting trust (issue 29): whether an offer is a marketplace or
     * community host. Every row starts as one, the kind of an unknown
     * host; mark_datacentre_rows then clears it where the provider runs
     * its own data centres, or RunPod's tier says secure. A Vast.ai row
     * stays a marketplace one until a refresh reads its hosting_type. */
    [9] = "ALTER TABLE offers ADD COLUMN marketplace INTEGER NOT NULL DEFAULT 1;",
    /* EU API hosts and prompt caching (issue 29): an API price keeps the
     * currency it is published in (every older row is a USD one), the
     * country whose law its host is under, and the cached-input read and
     * write prices per token (0: none listed). */
    [10] = "ALTER TABLE api_prices ADD COLUMN currency TEXT NOT NULL DEFAULT 'USD';"
           "ALTER TABLE api_prices ADD COLUMN jurisdiction TEXT NOT NULL DEFAULT '';"
           "ALTER TABLE api_prices ADD COLUMN cache_read_per_token REAL NOT NULL DEFAULT 0;"
           "ALTER TABLE api_prices ADD COLUMN cache_write_per_token REAL NOT NULL DEFAULT 0;",
    /* Commitments (issue 29): reserved, savings-plan and committed-use
     * prices in offer_terms, from schema.sql, keyed by their term; the
     * offers table and its readers stay as they were. */
    [11] = NULL,
    /* Multi-node jobs (issue 25): what joins an offer's instances and
     * its rate per GPU; mark_fabric_rows then fills the rows the
     * catalogue names (fabric.h). Every other row is single-node only. */
    [12] = "ALTER TABLE offers ADD COLUMN fabric TEXT NOT NULL DEFAULT '';"
           "ALTER TABLE offers ADD COLUMN fabric_gbps REAL NOT NULL DEFAULT 0;",
};

/* The schema version that added fx_rates (seed_fx runs for older ones). */
#define STORE_FX_VERSION 7

/* The schema version that added price_history.gone (add_history_column). */
#define STORE_GONE_VERSION 6

/* The schema version whose migration needs locate_rows after its SQL. */
#define STORE_LOCATED_VERSION 4

/* The schema version that added offers.marketplace (mark_datacentre_rows). */
#define STORE_HOSTING_VERSION 9

/* The schema version that added offers.fabric (mark_fabric_rows). */
#define STORE_FABRIC_VERSION 12

/* The schema version that added api_prices.currency, jurisdiction and the
 * cached-input prices (locate_rows again for the jurisdictions). */
#define STORE_API_CURRENCY_VERSION 10

/* The exit code of a failed SQLite call: running out of memory is the
 * system's failure, anything else the database's. */
static int sqlite_code(int rc)
{
	return (rc & 0xff) == SQLITE_NOMEM ? PLANNER_ESYS : PLANNER_EDB;
}

int store_db_err(struct store *st, char **err, const char *what)
{
	return set_err(err, sqlite_code(sqlite3_errcode(st->db)), "%s: %s: %s", st->path, what,
	               sqlite3_errmsg(st->db));
}

void store_copy_text(char *dst, size_t len, const unsigned char *src)
{
	/* snprintf's truncation without its format parsing (issue 16: it was
	 * a tenth of reading 100,000 offers). */
	if (len == 0)
		return;
	size_t n = src ? strnlen((const char *)src, len - 1) : 0;
	memcpy(dst, src ? (const char *)src : "", n);
	dst[n] = '\0';
}

int store_default_path(char **out, char **err)
{
	const char *env = getenv("PLANNER_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");
	if (env && *env)
		*out = strdup(env);
	else if (xdg && *xdg)
		*out = xasprintf("%s/planner/prices.db", xdg);
	else if (home && *home)
		*out = xasprintf("%s/.local/share/planner/prices.db", home);
	else
		return set_err(err, PLANNER_EUSAGE,
		               "no database path: HOME, XDG_DATA_HOME and PLANNER_DB are all unset; "
		               "give --db PATH or set one of them");
	return *out ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
}

/* mkdir -p of the directory holding path. */
static int make_parent_dirs(const char *path, char **err)
{
	char *copy = strdup(path);
	if (!copy)
		return set_err(err, PLANNER_ESYS, "out of memory");
	char *dir = dirname(copy);
	int rc = PLANNER_OK;
	/* dirname() may return a static "." or "/": nothing to create. */
	if (!strcmp(dir, ".") || !strcmp(dir, "/")) {
		free(copy);
		return PLANNER_OK;
	}
	for (char *p = dir + 1;; p++) {
		if (*p == '/' || *p == '\0') {
			char c = *p;
			*p = '\0';
			if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
				rc = set_err(err, PLANNER_EDB, "cannot create directory %s: %s",
				             dir, strerror(errno));
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

int store_map_reads(struct store *st, bool on, char **err)
{
	return store_exec(st, on ? "PRAGMA mmap_size = 1073741824" : "PRAGMA mmap_size = 0", err);
}

int store_exec(struct store *st, const char *sql, char **err)
{
	char *msg = NULL;
	int c = sqlite3_exec(st->db, sql, NULL, NULL, &msg);
	if (c != SQLITE_OK) {
		/* No message only when SQLite could not allocate one. */
		int rc =
		    set_err(err, sqlite_code(c), "%s: %s", st->path, msg ? msg : sqlite3_errstr(c));
		sqlite3_free(msg);
		return rc;
	}
	return PLANNER_OK;
}

int store_write_begin(struct store *st, struct store_write *w, char **err)
{
	w->own = sqlite3_get_autocommit(st->db) != 0;
	return store_exec(st, w->own ? "BEGIN IMMEDIATE" : "SAVEPOINT store_write", err);
}

int store_write_end(struct store *st, struct store_write *w, char **err)
{
	return store_exec(st, w->own ? "COMMIT" : "RELEASE store_write", err);
}

void store_write_undo(struct store *st, struct store_write *w)
{
	sqlite3_exec(st->db, w->own ? "ROLLBACK" : "ROLLBACK TO store_write; RELEASE store_write",
	             NULL, NULL, NULL);
}

static int set_user_version(struct store *st, int v, char **err)
{
	/* PRAGMA takes no bound parameters; v is an integer we produced. */
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
	return store_exec(st, sql, err);
}

static int set_application_id(struct store *st, char **err)
{
	char sql[64];
	snprintf(sql, sizeof sql, "PRAGMA application_id = %d", (int)STORE_APPLICATION_ID);
	return store_exec(st, sql, err);
}

static int seed_reference(struct store *st, const struct refdata *ref, char **err)
{
	sqlite3_stmt *g = NULL, *m = NULL;
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(
	        st->db,
	        "INSERT OR REPLACE INTO gpus (name, vendor, vram_gib, bandwidth_gbs, "
	        "fp16_tflops, watts, price_usd, source) VALUES (?,?,?,?,?,?,?,?)",
	        -1, &g, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "INSERT OR REPLACE INTO models (id, name, layers, hidden, heads, "
	                       "kv_heads, head_dim, params_total, params_active, source) "
	                       "VALUES (?,?,?,?,?,?,?,?,?,?)",
	                       -1, &m, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot prepare reference insert");
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
			rc = store_db_err(st, err, "cannot store reference GPUs");
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
			rc = store_db_err(st, err, "cannot store reference models");
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

/* One api_prices entry of the snapshot into a (zeroed): prices per
 * million tokens there, per token here; long_prompt lists its tiers. */
static void snapshot_api(const cJSON *it, struct api_price *a)
{
	snprintf(a->provider, sizeof a->provider, "%s", jstr(it, "provider"));
	snprintf(a->model, sizeof a->model, "%s", jstr(it, "model"));
	a->input_per_token = jnum(it, "input_per_mtok") / 1e6;
	a->output_per_token = jnum(it, "output_per_mtok") / 1e6;
	a->context = (long)jnum(it, "context");
	snprintf(a->fetched_at, sizeof a->fetched_at, "%s", jstr(it, "fetched_at"));
	snprintf(a->source, sizeof a->source, "%s", jstr(it, "source"));
	a->estimated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "estimated"));
	snprintf(a->currency, sizeof a->currency, "%s",
	         *jstr(it, "currency") ? jstr(it, "currency") : "USD");
	a->cache_read_per_token = jnum(it, "cache_read_per_mtok") / 1e6;
	a->cache_write_per_token = jnum(it, "cache_write_per_mtok") / 1e6;
	const cJSON *t;
	cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(it, "long_prompt"))
	{
		if (a->n_tiers < API_MAX_TIERS)
			a->tiers[a->n_tiers++] =
			    (struct api_tier){.above = (long)jnum(t, "above_tokens"),
			                      .input_per_token = jnum(t, "input_per_mtok") / 1e6,
			                      .output_per_token = jnum(t, "output_per_mtok") / 1e6};
	}
	regions_locate_api(a);
}

/* The snapshot's exchange rates, until a refresh brings the ECB's. */
static int seed_fx(struct store *st, char **err)
{
	struct fx_table *t = calloc(1, sizeof *t);
	int rc;
	if (!t)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if ((rc = fx_from_json(planner_snapshot_json, t, err)) == PLANNER_OK)
		rc = store_replace_fx(st, NULL, t, err);
	free(t);
	return rc;
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
		rc = set_err(err, PLANNER_ESYS, "out of memory");
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
		snprintf(o->tier, sizeof o->tier, "%s", jstr(it, "tier"));
		snprintf(o->currency, sizeof o->currency, "%s",
		         *jstr(it, "currency") ? jstr(it, "currency") : "USD");
		o->estimated = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "estimated"));
		/* A row that does not say is a marketplace one (normalise.h). */
		o->marketplace = !cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(it, "marketplace"));
		regions_locate_offer(o);
		if (o->gpu_count > 0 && o->price_per_hour > 0)
			n_off++;
	}
	cJSON_ArrayForEach(it, arr_a)
	{
		snapshot_api(it, &apis[n_api++]);
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
		rc = store_exec(
		    st, "UPDATE providers SET from_snapshot = 1, last_status = 'snapshot'", err);
	if (rc == PLANNER_OK)
		rc = seed_fx(st, err);
out:
	free(offers);
	free(apis);
	cJSON_Delete(root);
	return rc;
}

/* Fills country and region_group of every offer and API price (and an API
 * price's jurisdiction) from the region tables (regions.c): rows a
 * version-3 database kept, and API rows a version-9 one kept (EU
 * deployments and jurisdictions came with version 10). */
static int locate_rows(struct store *st, char **err)
{
	sqlite3_stmt *rd = NULL, *up = NULL;
	int rc = PLANNER_OK, step;
	if (sqlite3_prepare_v2(st->db, "SELECT rowid, provider, region FROM offers", -1, &rd,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(st->db,
	                       "UPDATE offers SET country = ?, region_group = ? WHERE rowid = ?",
	                       -1, &up, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot locate offers");
		goto out;
	}
	while ((step = sqlite3_step(rd)) == SQLITE_ROW) {
		struct offer o = {0};
		store_copy_text(o.provider, sizeof o.provider, sqlite3_column_text(rd, 1));
		store_copy_text(o.region, sizeof o.region, sqlite3_column_text(rd, 2));
		regions_locate_offer(&o);
		sqlite3_reset(up);
		sqlite3_bind_text(up, 1, o.country, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(up, 2, o.region_group, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(up, 3, sqlite3_column_int64(rd, 0));
		if (sqlite3_step(up) != SQLITE_DONE)
			break;
	}
	if (step != SQLITE_DONE) {
		rc = store_db_err(st, err, "cannot locate offers");
		goto out;
	}
	sqlite3_finalize(rd);
	sqlite3_finalize(up);
	rd = up = NULL;
	if (sqlite3_prepare_v2(st->db, "SELECT rowid, provider, model FROM api_prices", -1, &rd,
	                       NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(
	        st->db,
	        "UPDATE api_prices SET country = ?, region_group = ?, jurisdiction = ? "
	        "WHERE rowid = ?",
	        -1, &up, NULL) != SQLITE_OK) {
		rc = store_db_err(st, err, "cannot locate API prices");
		goto out;
	}
	while ((step = sqlite3_step(rd)) == SQLITE_ROW) {
		struct api_price a = {0};
		store_copy_text(a.provider, sizeof a.provider, sqlite3_column_text(rd, 1));
		store_copy_text(a.model, sizeof a.model, sqlite3_column_text(rd, 2));
		regions_locate_api(&a);
		sqlite3_reset(up);
		sqlite3_bind_text(up, 1, a.country, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(up, 2, a.region_group, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(up, 3, a.jurisdiction, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(up, 4, sqlite3_column_int64(rd, 0));
		if (sqlite3_step(up) != SQLITE_DONE)
			break;
	}
	if (step != SQLITE_DONE)
		rc = store_db_err(st, err, "cannot locate API prices");
out:
	sqlite3_finalize(rd);
	sqlite3_finalize(up);
	return rc;
}

/* Clears offers.marketplace of the rows a version-8 database kept that
 * are hosted in a data centre: every row of a provider that runs only its
 * own (provider.h, own_datacentres), and RunPod's secure tier (runpod.c). */
static int mark_datacentre_rows(struct store *st, char **err)
{
	sqlite3_stmt *up = NULL;
	int rc = store_exec(st, "UPDATE offers SET marketplace = 0 WHERE provider = 'runpod' AND "
	                        "tier = 'secure'",
	                    err);
	if (rc)
		return rc;
	if (sqlite3_prepare_v2(st->db, "UPDATE offers SET marketplace = 0 WHERE provider = ?", -1,
	                       &up, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot mark data-centre offers");
	for (const struct provider *const *p = provider_list; *p && rc == PLANNER_OK; p++) {
		if (!(*p)->own_datacentres)
			continue;
		sqlite3_reset(up);
		sqlite3_bind_text(up, 1, (*p)->name, -1, SQLITE_STATIC);
		if (sqlite3_step(up) != SQLITE_DONE)
			rc = store_db_err(st, err, "cannot mark data-centre offers");
	}
	sqlite3_finalize(up);
	return rc;
}

/* Fills offers.fabric and fabric_gbps of the rows an older database kept
 * whose instance type the catalogue names (fabric.h), as a refresh now
 * would. */
static int mark_fabric_rows(struct store *st, char **err)
{
	sqlite3_stmt *up = NULL;
	size_t n;
	const struct fabric_entry *f = fabric_catalogue(&n);
	int rc = PLANNER_OK;
	if (sqlite3_prepare_v2(st->db,
	                       "UPDATE offers SET fabric = ?, fabric_gbps = ? WHERE provider = ? "
	                       "AND offer = ? AND fabric = ''",
	                       -1, &up, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot mark joinable offers");
	for (size_t i = 0; i < n && rc == PLANNER_OK; i++) {
		sqlite3_reset(up);
		sqlite3_bind_text(up, 1, f[i].fabric, -1, SQLITE_STATIC);
		sqlite3_bind_double(up, 2, f[i].gbps_per_gpu);
		sqlite3_bind_text(up, 3, f[i].provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(up, 4, f[i].offer, -1, SQLITE_STATIC);
		if (sqlite3_step(up) != SQLITE_DONE)
			rc = store_db_err(st, err, "cannot mark joinable offers");
	}
	sqlite3_finalize(up);
	return rc;
}

/* Runs `alter` (a literal ALTER TABLE adding price_history column `name`)
 * unless the table has the column (schema.sql made it). */
static int add_history_column(struct store *st, const char *name, const char *alter, char **err)
{
	sqlite3_stmt *s = NULL;
	if (sqlite3_prepare_v2(st->db,
	                       "SELECT count(*) FROM pragma_table_info('price_history') "
	                       "WHERE name = ?",
	                       -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read the price_history columns");
	sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);
	int has = sqlite3_step(s) == SQLITE_ROW && sqlite3_column_int(s, 0) > 0;
	sqlite3_finalize(s);
	return has ? PLANNER_OK : store_exec(st, alter, err);
}

/* Brings the database to STORE_SCHEMA_VERSION and marks it planner's
 * (marked: it already carries the application_id). */
static int migrate(struct store *st, const struct refdata *ref, bool marked, char **err)
{
	int v = 0, rc;
	if ((rc = store_pragma_int(st, "PRAGMA user_version", &v, err)) || (rc = store_bad_version(st, v, err)))
		return rc;
	/* An older database a reader cannot write is marked by its owner. */
	if (v == STORE_SCHEMA_VERSION && (marked || sqlite3_db_readonly(st->db, "main") == 1))
		return PLANNER_OK;
	/* BEGIN IMMEDIATE takes the write lock first, so two processes that
	 * both find an empty file do not both create and seed it. */
	if ((rc = store_exec(st, "BEGIN IMMEDIATE", err)))
		return rc;
	if ((rc = store_pragma_int(st, "PRAGMA user_version", &v, err)) || (rc = store_bad_version(st, v, err)))
		goto fail;
	if (v == STORE_SCHEMA_VERSION) { /* made meanwhile, or older and unmarked */
		if ((rc = set_application_id(st, err)) || (rc = store_exec(st, "COMMIT", err)))
			goto fail;
		return PLANNER_OK;
	}
	if (v == 0) {
		if ((rc = store_exec(st, planner_schema_sql, err)) ||
		    (rc = seed_reference(st, ref, err)) || (rc = seed_snapshot(st, ref, err)))
			goto fail;
	} else {
		for (int to = v + 1; to <= STORE_SCHEMA_VERSION; to++)
			if (migrations[to] && (rc = store_exec(st, migrations[to], err)))
				goto fail;
		if ((rc = store_exec(st, planner_schema_sql, err)) ||
		    (rc = seed_reference(st, ref, err)))
			goto fail;
		/* After schema.sql: a version-1 database had no price_history. */
		if (v < STORE_LOCATED_VERSION &&
		    ((rc = locate_rows(st, err)) ||
		     (rc = store_exec(st,
		                      "UPDATE price_history SET region = '' WHERE provider = "
		                      "'runpod' AND region IN ('secure', 'community')",
		                      err))))
			goto fail;
		if (v >= STORE_LOCATED_VERSION && v < STORE_API_CURRENCY_VERSION &&
		    (rc = locate_rows(st, err)))
			goto fail;
		if (v < STORE_HOSTING_VERSION && (rc = mark_datacentre_rows(st, err)))
			goto fail;
		if (v < STORE_FABRIC_VERSION && (rc = mark_fabric_rows(st, err)))
			goto fail;
		if (v < STORE_GONE_VERSION &&
		    (rc = add_history_column(st, "gone",
		                             "ALTER TABLE price_history ADD COLUMN gone INTEGER "
		                             "NOT NULL DEFAULT 0",
		                             err)))
			goto fail;
		if (v < STORE_FX_VERSION &&
		    ((rc = add_history_column(st, "currency",
		                              "ALTER TABLE price_history ADD COLUMN currency TEXT "
		                              "NOT NULL DEFAULT 'USD'",
		                              err)) ||
		     (rc = seed_fx(st, err))))
			goto fail;
	}
	if ((rc = set_user_version(st, STORE_SCHEMA_VERSION, err)) ||
	    (rc = set_application_id(st, err)) || (rc = store_exec(st, "COMMIT", err)))
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
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	if ((rc = store_check_path(path, err)) || (rc = make_parent_dirs(path, err)))
		goto fail;
	/* NOMUTEX: one thread uses a connection (planner has no other), so
	 * SQLite's per-call mutex is 2.5 % of a Vast.ai refresh for nothing. */
	if ((rc = sqlite3_open_v2(path, &st->db,
	                          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
	                          NULL)) != SQLITE_OK) {
		/* Without a handle SQLite could not allocate one. */
		rc = set_err(err, st->db ? sqlite_code(rc) : PLANNER_ESYS,
		             "cannot open database %s: %s", path,
		             st->db ? sqlite3_errmsg(st->db) : "out of memory");
		goto fail;
	}
	/* PLANNER_DB_BUSY_TIMEOUT_MS exists for tests that hold the lock on
	 * purpose and do not want to wait ten seconds per statement. */
	const char *busy = getenv("PLANNER_DB_BUSY_TIMEOUT_MS");
	int timeout_ms = busy && atoi(busy) > 0 ? atoi(busy) : STORE_BUSY_TIMEOUT_MS;
	sqlite3_busy_timeout(st->db, timeout_ms);
	bool marked = false;
	/* The header is checked before anything is written. WAL lets compare
	 * and offers read while a refresh writes. Turning a new file to WAL
	 * takes an exclusive lock for which SQLite does not call the busy
	 * handler, so two commands creating the same database at once would
	 * see "database is locked" (in either step): wait here instead. */
	for (int waited = 0;; waited += 10, nanosleep(&(struct timespec){0, 10000000}, NULL)) {
		bool locked = false;
		if (!(rc = store_check_identity(st, &marked, &locked, err)) &&
		    !(rc = store_exec(st, "PRAGMA journal_mode = WAL", err)))
			break;
		locked = locked || (sqlite3_errcode(st->db) & 0xff) == SQLITE_BUSY;
		if (!locked || waited >= timeout_ms)
			goto fail;
		if (err) {
			free(*err);
			*err = NULL;
		}
	}
	/* With WAL, synchronous = NORMAL never corrupts the file (a power cut
	 * may lose the last refresh, which the next cron run fetches again).
	 * A 32 MiB page cache (SQLite's default is 2 MiB) keeps a 100,000-row
	 * replace in memory. Reads go through a memory map of up to 1 GiB
	 * (https://sqlite.org/mmap.html): reading 100,000 offers through
	 * read() and the page cache copied every page and allocated one cache
	 * entry per page, half of compare's time for 10 jobs (issue 16).
	 * planner never truncates the file (no VACUUM), the case the page
	 * warns of. */
	if ((rc = store_exec(st,
	                     "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; "
	                     "PRAGMA cache_size = -32768", err)) ||
	    (rc = store_map_reads(st, true, err)))
		goto fail;
	if ((rc = migrate(st, ref, marked, err)))
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

int store_snapshot_dates(struct store *st, char *buf, size_t len, char **err)
{
	sqlite3_stmt *s = NULL;
	size_t used = 0;
	int step;
	if (len > 0)
		buf[0] = '\0';
	if (sqlite3_prepare_v2(
	        st->db,
	        "SELECT p.name, min(t.at) FROM providers p JOIN (" STORE_PROVIDER_ROW_DATES ") t "
	        "ON t.provider = p.name WHERE p.from_snapshot = 1 GROUP BY p.name ORDER BY p.name",
	        -1, &s, NULL) != SQLITE_OK)
		return store_db_err(st, err, "cannot read snapshot dates");
	while ((step = sqlite3_step(s)) == SQLITE_ROW && used < len) {
		const unsigned char *name = sqlite3_column_text(s, 0);
		const unsigned char *at = sqlite3_column_text(s, 1);
		int w = snprintf(buf + used, len - used, "%s%s %.10s", used ? ", " : "",
		                 name ? (const char *)name : "", at ? (const char *)at : "");
		used += w > 0 ? (size_t)w : 0;
	}
	sqlite3_finalize(s);
	if (step != SQLITE_DONE && step != SQLITE_ROW)
		return store_db_err(st, err, "cannot read snapshot dates");
	return PLANNER_OK;
}

struct sqlite3 *store_handle(struct store *st)
{
	return st->db;
}

int store_collect(struct store *st, sqlite3_stmt *s, size_t size, store_read_fn read, void **out,
                  size_t *n, const char *what, char **err)
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
				rc = set_err(err, PLANNER_ESYS, "out of memory");
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
		rc = store_db_err(st, err, what);
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
		rc = set_err(err, PLANNER_ESYS, "out of memory");
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
	/* A refresh reads its provider's stored offers once (store_stage.c)
	 * and writes: pages read rather than mapped keep its resident memory
	 * at the page cache's 32 MiB, not the file's size (issue 16: 118 MB
	 * for a 122 MB file of 400,000 Vast rows, mapped). */
	if ((rc = store_check_wal_owner(st, err)) ||
	    (rc = store_exec(st, "PRAGMA mmap_size = 0; PRAGMA cache_size = -16384", err)))
		goto fail;
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
