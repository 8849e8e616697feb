/* refresh.c — runs adapters into the store (see refresh.h). */
#include "refresh.h"

#include <curl/curl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fx.h"
#include "util.h"

/* A second refresh waits this long for the first before giving up; a
 * nightly cron run overlapping a manual one is the case in mind. */
#define REFRESH_LOCK_WAIT_MS 5000

const char *refresh_status_name(enum refresh_status s)
{
	switch (s) {
	case REFRESH_OK:
		return "ok";
	case REFRESH_FAILED:
		return "failed";
	case REFRESH_SKIPPED:
		return "skipped";
	case REFRESH_FRESH:
		return "fresh";
	}
	return "?";
}

/* Is `name` in the comma-separated list (NULL or "": every name is)? */
static bool listed(const char *list, const char *name)
{
	if (!list || !*list)
		return true;
	size_t nl = strlen(name);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == nl && !strncmp(p, name, n))
			return true;
		p += n;
		p += *p == ',';
	}
	return false;
}

/* Does the list name feed `name`, itself or as a company's API feed
 * (provider_api_feed: "scaleway" also runs litellm)? */
static bool selected(const char *list, const char *name)
{
	if (listed(list, name))
		return true;
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), p);
		const char *feed = provider_api_feed(word);
		if (feed && !strcmp(feed, name))
			return true;
		p += n;
		p += *p == ',';
	}
	return false;
}

int refresh_check_providers(const char *list, char **err)
{
	for (const char *p = list ? list : ""; *p;) {
		size_t n = strcspn(p, ",");
		char word[64];
		snprintf(word, sizeof word, "%.*s", (int)(n < 63 ? n : 63), p);
		if (!provider_find(word) && !provider_api_feed(word) &&
		    strcmp(word, provider_ecb.name)) {
			/* Every adapter is a candidate, however long the list. */
			size_t k = 0;
			while (provider_list[k])
				k++;
			const char **names = calloc(k ? k : 1, sizeof *names);
			if (!names)
				return set_err(err, PLANNER_ESYS, "out of memory");
			for (size_t i = 0; i < k; i++)
				names[i] = provider_list[i]->name;
			const char *near = nearest_name(word, names, k);
			int rc = set_err(err, PLANNER_EUSAGE, "unknown provider '%s'%s%s%s", word,
			                 near ? "; did you mean '" : "", near ? near : "",
			                 near ? "'" : "");
			free(names);
			return rc;
		}
		const struct provider *r = provider_find(word);
		if (r && r->retired)
			return set_err(err, PLANNER_EUSAGE,
			               "%s is retired (%s%s): %s; not refreshed (see 'planner "
			               "providers')",
			               word, r->retired,
			               r->retired_confirmed ? "" : ", unconfirmed", r->retired_why);
		p += n;
		p += *p == ',';
	}
	return PLANNER_OK;
}

/* Replaces every occurrence of key in *msg by "***": a provider may echo
 * the key in an error body, and the message goes to the database and the
 * terminal. */
static void redact(char **msg, const char *key)
{
	if (!*msg)
		return;
	/* The one sanitising step (util.h): also drops control characters and
	 * invalid UTF-8 a feed's error body may hold. In place: never longer. */
	text_sanitize(*msg, strlen(*msg) + 1, *msg, key);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The provider's row in the providers table, zeroed when it has none. */
static void find_state(const struct provider_state *ps, size_t n, const char *name,
                       struct provider_state *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ps[i].name, name))
			*out = ps[i];
}

/* The base URL: PLANNER_<NAME>_URL or the real host, without a trailing
 * '/'; malloc'd into *out, or an error naming the variable. */
static int base_url(const struct provider *p, char **out, char **err)
{
	char var[48];
	provider_url_env(p, var, sizeof var);
	const char *v = getenv(var);
	if (!v || !*v)
		v = p->base_url;
	else if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8))
		return set_err(err, PLANNER_ENET, "%s must start with http:// or https://", var);
	size_t n = strlen(v);
	while (n > 0 && v[n - 1] == '/')
		n--;
	*out = xasprintf("%.*s", (int)n, v);
	return *out ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
}

/* Fetches one provider and writes its rows; fills r. */
/* A row's identity in the store: offer, region and spot for an offer (the
 * offers table's key within a provider), the model for an API price. */
static void row_key(const struct norm *rows, bool api, size_t i, char *key, size_t len)
{
	if (api) {
		snprintf(key, len, "%s", rows->apis[i].model);
		return;
	}
	const struct offer *o = &rows->offers[i];
	snprintf(key, len, "%s\x1f%s\x1f%d", o->offer, o->region, o->spot);
}

static size_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64-bit offset basis and prime */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	/* the table uses the low bits, which FNV-1a mixes poorly (issue 16) */
	return hash_fmix64(h);
}

/* Drops each row whose key comes again later in the feed and counts it in
 * rows->skipped (API prices; a rented feed's staging drops its own): the store keeps one row per key (the last, as its INSERT
 * OR REPLACE did), so the row count and the price history must see that
 * one only, not a phantom second price. False when out of memory. */
static bool drop_duplicates(struct norm *rows, bool api)
{
	size_t n = api ? rows->n_apis : rows->n_offers, cap = 16, w = 0;
	while (cap < n * 2)
		cap *= 2;
	size_t *slot = calloc(cap, sizeof *slot); /* row index + 1; 0 is empty */
	bool *keep = calloc(n + 1, sizeof *keep);
	char key[512], other[512];
	if (!slot || !keep) {
		free(slot);
		free(keep);
		return false;
	}
	for (size_t i = n; i-- > 0;) {
		row_key(rows, api, i, key, sizeof key);
		size_t h = fnv1a(key) & (cap - 1);
		keep[i] = true;
		for (; slot[h] && keep[i]; h = (h + 1) & (cap - 1)) {
			row_key(rows, api, slot[h] - 1, other, sizeof other);
			keep[i] = strcmp(key, other) != 0;
		}
		if (keep[i])
			slot[h] = i + 1;
	}
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		if (api)
			rows->apis[w++] = rows->apis[i];
		else
			rows->offers[w++] = rows->offers[i];
	}
	rows->skipped += n - w;
	*(api ? &rows->n_apis : &rows->n_offers) = w;
	free(slot);
	free(keep);
	return true;
}

/* The rows one fetch brought: offers (staged or held), API prices or
 * exchange rates. */
static size_t rows_held(const struct provider *p, const struct norm *rows)
{
	if (p->kind == PROVIDER_FX)
		return rows->fx ? rows->fx->n : 0;
	return p->kind == PROVIDER_API ? rows->n_apis : norm_offers_total(rows);
}

/* A rented feed's rows go to the store's staging as they are made
 * (store_stage.c, issue 16): norm's sink. */
static int stage_put(void *ud, const struct offer *rows, size_t n, char **err)
{
	return store_stage_put(ud, rows, n, err);
}

static int stage_drop(void *ud, size_t keep, char **err)
{
	return store_stage_drop(ud, keep, err);
}

/* A rented feed's staging, wired to rows through sink; none for others. */
static int open_stage(struct store *st, const struct provider *p, struct norm *rows,
                      struct norm_sink *sink, struct store_stage **stage, char **err)
{
	if (p->kind != PROVIDER_RENTED)
		return PLANNER_OK;
	int rc = store_stage_open(st, p->name, stage, err);
	if (rc == PLANNER_OK) {
		sink->ud = *stage;
		rows->sink = sink;
	}
	return rc;
}

/* After a fetch: the rows still held go to the staging, duplicate API
 * rows are dropped (the staging drops duplicate offers itself). */
static int settle_rows(const struct provider *p, struct norm *rows, char **err)
{
	int rc = norm_flush(rows, err);
	if (rc == PLANNER_OK && rows->sink_failed)
		rc = set_err(err, PLANNER_EDB, "cannot drop the staged offers of a retried download");
	if (rc == PLANNER_OK && p->kind == PROVIDER_API && !drop_duplicates(rows, true))
		rows->oom = true;
	return rc;
}

/* Replaces the provider's rows in the store by the *n fetched; *n drops
 * the duplicate offers the staging left out (counted in rows->skipped). */
static int write_rows(struct store *st, const struct provider *p, struct norm *rows,
                      struct store_stage *stage, size_t *n, char **err)
{
	if (p->kind == PROVIDER_FX)
		return store_replace_fx(st, p->name, rows->fx, err);
	if (p->kind == PROVIDER_API)
		return store_replace_api_prices(st, p->name, rows->apis, *n, err);
	size_t dups = 0;
	/* Offers and commitments in one write: a failure keeps both. */
	if (p->terms)
		store_stage_terms(stage, rows->terms, rows->n_terms);
	int rc = store_stage_apply(stage, &dups, err);
	if (rc == PLANNER_OK) {
		rows->skipped += dups;
		*n -= dups;
	}
	return rc;
}

/* An exchange-rate feed's rates against the stored ones, else the
 * reference data's (the bundled snapshot), and today (fx_check_plausible):
 * an implausible set fails the step and the stored rates stay. */
static int rates_plausible(struct store *st, const struct refdata *ref,
                           const struct fx_table *fresh, char **err)
{
	struct fx_table *old = malloc(sizeof *old);
	char today[16];
	if (!old)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = store_read_fx(st, old, err);
	today_utc(today, sizeof today);
	if (rc == PLANNER_OK)
		rc = fx_check_plausible(fresh, old, ref->fx, today, err);
	free(old);
	return rc;
}

/* The rows left out, and the unknown GPU names (moved from rows to r). */
static void take_counts(struct refresh_result *r, struct norm *rows)
{
	r->unknown_rows = rows->unknown_rows;
	r->skipped_rows = rows->skipped;
	r->implausible_rows = rows->implausible;
	for (size_t i = 0; i < rows->n_unknown; i++) {
		r->unknown[i] = rows->unknown[i];
		rows->unknown[i] = NULL;
	}
	r->n_unknown = rows->n_unknown;
	rows->n_unknown = 0;
}

static void refresh_one(struct store *st, const struct refdata *ref, const struct refresh_opts *o,
                        const struct http_opts *http, const struct provider_state *state,
                        struct refresh_result *r)
{
	const struct provider *p = r->p;
	const char *kind = p->kind == PROVIDER_API ? "api" : p->kind == PROVIDER_FX ? "fx" : "rented";
	const char *key = p->key_env ? getenv(p->key_env) : NULL;
	char started[24], ended[24];
	char *base = NULL, *err = NULL;
	struct norm rows;
	struct store_stage *stage = NULL;
	struct norm_sink sink = {.put = stage_put, .drop = stage_drop};
	double t0 = now_s();
	norm_init(&rows, ref, p->name);
	iso_now(started, sizeof started);
	if (key && !*key)
		key = NULL;
	snprintf(r->last_good, sizeof r->last_good, "%s", state->last_good);
	r->rows = state->rows;
	if (p->key_env && !p->key_optional && !key) {
		r->status = REFRESH_SKIPPED;
		r->message = xasprintf("no %s in the environment", p->key_env);
		goto record;
	}
	rows.key = key;
	/* The deadline covers every request of this provider, and only it. */
	struct http_opts mine = *http;
	http_deadline_start(&mine, o->timeout_s > 0 ? o->timeout_s : REFRESH_DEFAULT_TIMEOUT_S);
	int rc = base_url(p, &base, &err);
	if (rc == PLANNER_OK)
		rc = open_stage(st, p, &rows, &sink, &stage, &err);
	struct fetch_ctx fx = {
	    .p = p,
	    .http = &mine,
	    .base = base,
	    .key = key,
	    .options = o->options,
	    .n_options = o->n_options,
	    .out = &rows,
	};
	if (rc == PLANNER_OK)
		rc = p->fetch(&fx, &err);
	r->http_status = fx.http_status;
	if (rc == PLANNER_OK)
		rc = settle_rows(p, &rows, &err);
	size_t n = rows_held(p, &rows);
	if (rc == PLANNER_OK && rows.oom)
		rc = set_err(&err, PLANNER_ESYS, "out of memory");
	if (rc == PLANNER_OK && n == 0)
		rc = set_err(&err, PLANNER_ENET, "no usable %s in the response%s%s",
		             p->kind == PROVIDER_RENTED ? "offers" : p->kind == PROVIDER_FX ? "rates" : "prices",
		             rows.unknown_rows ? " (every GPU unknown)" : "",
		             rows.implausible ? " (implausible rows left out)" : "");
	if (rc == PLANNER_OK && p->kind == PROVIDER_FX)
		rc = rates_plausible(st, ref, rows.fx, &err);
	if (rc == PLANNER_OK)
		rc = write_rows(st, p, &rows, stage, &n, &err);
	if (rc == PLANNER_OK) {
		r->status = REFRESH_OK;
		r->rows = (long)n;
		snprintf(r->last_good, sizeof r->last_good, "%s", rows.fetched_at);
	} else {
		r->status = REFRESH_FAILED;
		r->code = rc;
		r->message = err;
		err = NULL;
		redact(&r->message, key);
	}
	take_counts(r, &rows);
	/* Before the run's record: a stage never applied rolls its rows back. */
	store_stage_free(stage);
	stage = NULL;
record:
	iso_now(ended, sizeof ended);
	r->seconds = now_s() - t0;
	/* A record that cannot be written loses history, not prices: the rows
	 * are in already, so it does not turn an ok into a failure. */
	store_record_run(st, p->name, kind, started, ended, refresh_status_name(r->status),
	                 r->status == REFRESH_OK ? r->rows : 0, r->http_status, r->message, &err);
	free(err);
	free(base);
	norm_free(&rows);
}

int refresh_run(struct store *st, const struct refdata *ref, const struct refresh_opts *o,
                struct refresh_result **out, size_t *n, char **err)
{
	struct provider_state *states = NULL;
	size_t n_states = 0, count = 0;
	struct store_lock *lock = NULL;
	struct refresh_result *res = NULL;
	struct http_opts http;
	int rc;
	*out = NULL;
	*n = 0;
	if ((rc = refresh_check_providers(o->providers, err)))
		return rc;
	long wait = o->lock_wait_ms;
	if (wait < 0) {
		const char *env = getenv("PLANNER_REFRESH_LOCK_WAIT_MS");
		wait = env && *env ? atol(env) : REFRESH_LOCK_WAIT_MS;
	}
	if ((rc = store_lock_refresh(st, wait, &lock, err)))
		return rc;
	/* Read after the lock: a refresh that just ended may have changed it. */
	if ((rc = store_providers(st, &states, &n_states, err)))
		goto out;
	size_t total = 0;
	while (provider_list[total])
		total++;
	res = calloc(total + 2, sizeof *res);
	if (!res) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	http_opts_init(&http);
	curl_global_init(CURL_GLOBAL_DEFAULT);
	long long t_now = (long long)time(NULL);
	/* The feeds, then the exchange rates (ecb.c) they are converted with. */
	for (size_t i = 0; i <= total; i++) {
		const struct provider *p = i < total ? provider_list[i] : &provider_ecb;
		/* A retired feed runs only when named, and naming it is refused
		 * above (refresh_check_providers). */
		if (!selected(o->providers, p->name) || p->retired)
			continue;
		struct refresh_result *r = &res[count++];
		struct provider_state state;
		find_state(states, n_states, p->name, &state);
		r->p = p;
		long long good = state.last_good[0] ? iso_to_epoch(state.last_good) : -1;
		if (o->if_older_than_s > 0 && !state.from_snapshot && good >= 0 &&
		    !strcmp(state.last_status, "ok") &&
		    (double)(t_now - good) < o->if_older_than_s) {
			r->status = REFRESH_FRESH;
			r->rows = state.rows;
			snprintf(r->last_good, sizeof r->last_good, "%s", state.last_good);
			if (o->on_done)
				o->on_done(o->ud, r);
			continue;
		}
		if (o->on_start)
			o->on_start(o->ud, p);
		refresh_one(st, ref, o, &http, &state, r);
		if (o->on_done)
			o->on_done(o->ud, r);
	}
	curl_global_cleanup();
	*out = res;
	*n = count;
	res = NULL;
out:
	free(res);
	free(states);
	store_unlock_refresh(lock);
	return rc;
}

void refresh_results_free(struct refresh_result *r, size_t n)
{
	if (!r)
		return;
	for (size_t i = 0; i < n; i++) {
		free(r[i].message);
		for (size_t k = 0; k < r[i].n_unknown; k++)
			free(r[i].unknown[k]);
	}
	free(r);
}
