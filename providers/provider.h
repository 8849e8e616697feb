/* provider.h — the adapter interface. Each feed is one file in providers/
 * ending in a `const struct provider`; what they all share (HTTP, paging,
 * GPU-name normalisation, the store insert) lives once, in http.c,
 * normalise.c, provider.c and planner/refresh.c. */
#ifndef PLANNER_PROVIDER_H
#define PLANNER_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>

#include "http.h"
#include "normalise.h"

enum provider_kind {
	PROVIDER_RENTED, /* GPU offers, priced per instance-hour */
	PROVIDER_API,    /* per-token API prices */
	PROVIDER_FX,     /* exchange rates (ecb.c): not in provider_list; refresh
	                  * runs it after the feeds (refresh.c) */
};

struct provider;

/* A setting that one adapter alone reads (refresh --aws-regions is aws's
 * "regions"): the fetch context carries them all, and each adapter takes
 * its own with provider_option, so the shared context names no provider. */
struct provider_option {
	const char *provider; /* the adapter's name ("aws") */
	const char *name;     /* the setting ("regions") */
	const char *value;    /* NULL or "": not given */
};

/* What one fetch works with. Built by refresh.c; adapters read it. */
struct fetch_ctx {
	const struct provider *p;      /* the adapter running */
	const struct http_opts *http;  /* timeouts, retries, caps */
	const char *base;              /* scheme://host[:port][/prefix], no trailing '/':
					* PLANNER_<NAME>_URL, else p->base_url */
	const char *key;               /* the key from p->key_env; NULL when unset */
	const struct provider_option *options; /* n_options settings, any adapter's */
	size_t n_options;
	struct norm *out;              /* rows go here */
	long http_status;              /* the last response's status, for refresh_runs */
};

struct provider {
	/* Adapter name: the --provider word, the database's provider column,
	 * and the stem of PLANNER_<NAME>_URL. */
	const char *name;
	/* Whether rows are GPU offers or per-token API prices. */
	enum provider_kind kind;
	/* The real API's scheme://host; the adapter appends the real paths. */
	const char *base_url;
	/* Environment variable holding the key; NULL when the feed is public. */
	const char *key_env;
	/* True when the feed works without the key too (sent when present). */
	bool key_optional;
	/* The header the key travels in ("X-API-KEY": "X-API-KEY: <key>");
	 * NULL: "Authorization: Bearer <key>" (provider_fetch_json). */
	const char *key_header;
	/* One line for `planner providers`: what the feed brings. */
	const char *summary;
	/* True when the provider rents only machines in its own data centres
	 * (a cloud's regions); false: a marketplace or aggregator, whose rows
	 * are marketplace hosts unless the feed says a row is in a data
	 * centre (raw_offer.host). */
	bool own_datacentres;
	/* The feed carries commitments (norm_term): a refresh replaces the
	 * provider's offer_terms by those it read, none included. */
	bool terms;
	/* ISO 4217 of the prices the feed publishes; NULL is USD. */
	const char *currency;
	/* NULL while the feed is live. Else the date ("2026-02-25") of the
	 * evidence that its API is gone or no longer kept by anyone (issue
	 * 29); retired_why says what the evidence is, retired_confirmed
	 * whether it shows the API gone (else nothing here confirms it either
	 * way: there is no network to call it). A retired feed is not run by
	 * a plain refresh, refused by refresh --provider NAME, holds no rows
	 * of the bundled snapshot and is not counted among the live ones. */
	const char *retired;
	const char *retired_why;
	bool retired_confirmed;
	/* Fetches the feed (every page, region or stream) and parses it into
	 * fx->out. Returns PLANNER_OK or PLANNER_ENET (PLANNER_ESYS when out of
	 * memory) with *err set; leaves the store alone (refresh.c writes the
	 * rows in one transaction). */
	int (*fetch)(struct fetch_ctx *fx, char **err);
	/* Parses one response body in the feed's real shape into out. For
	 * paged feeds *next gets the next page's link or token (malloc'd) or
	 * NULL; others leave it NULL (next may be NULL). Returns PLANNER_OK,
	 * or PLANNER_ENET when the body is not the feed's shape (HTML, bad
	 * JSON, an error object) with *err set. Needs no network. */
	int (*parse)(struct norm *out, const char *body, size_t len, char **next, char **err);
};

/* Every adapter, in the order refresh runs them; NULL-terminated. */
extern const struct provider *const provider_list[];
/* The adapter named `name`, or NULL. */
const struct provider *provider_find(const char *name);
/* The API feed that carries company `name`'s per-token prices when its
 * GPU catalogue is another adapter (scaleway, ovhcloud) or it has none
 * (mistral); NULL for any other name. */
const char *provider_api_feed(const char *name);

/* Which adapters provider_names() lists. */
enum provider_pick {
	PROVIDER_PICK_ALL,          /* every adapter's name */
	PROVIDER_PICK_RENTED,       /* the names of the PROVIDER_RENTED ones */
	PROVIDER_PICK_KEY_NEEDED,   /* the key variables refresh cannot do without */
	PROVIDER_PICK_KEY_OPTIONAL, /* the key variables sent only when set */
};

/* What `pick` takes from provider_list, in its order, joined by ", " into
 * buf (len bytes, cut to fit): the text --help and the docs show, so a new
 * adapter is named there by its row alone. Returns buf. */
char *provider_names(enum provider_pick pick, char *buf, size_t len);

extern const struct provider provider_lambda;
extern const struct provider provider_vast;
extern const struct provider provider_runpod;
extern const struct provider provider_azure;
extern const struct provider provider_aws;
extern const struct provider provider_gcp;
extern const struct provider provider_scaleway;
extern const struct provider provider_seeweb;
extern const struct provider provider_ovhcloud;
extern const struct provider provider_vultr;
extern const struct provider provider_oci;
extern const struct provider provider_cudo;
extern const struct provider provider_tensordock;
extern const struct provider provider_openrouter;
extern const struct provider provider_litellm;
extern const struct provider provider_digitalocean;
extern const struct provider provider_verda;
extern const struct provider provider_hyperstack;
extern const struct provider provider_jarvislabs;
extern const struct provider provider_cloudrift;
extern const struct provider provider_hotaisle;
extern const struct provider provider_primeintellect;
extern const struct provider provider_hyperbolic;
extern const struct provider provider_linode;
extern const struct provider provider_koyeb;
extern const struct provider provider_shadeform;
extern const struct provider provider_fluidstack;
/* The ECB's exchange rates: a refresh step, not a price feed. */
extern const struct provider provider_ecb;

/* --- helpers every adapter shares (provider.c) --- */

/* "PLANNER_<NAME>_URL" into buf. */
void provider_url_env(const struct provider *p, char *buf, size_t len);

/* The running adapter's setting `name`: the last of fx->options for it
 * with a value, else $PLANNER_<ADAPTER>_<NAME> (upper case) when set and
 * not empty, else NULL. */
const char *provider_option(const struct fetch_ctx *fx, const char *name);

/* fx->base + path, malloc'd; NULL when out of memory. */
char *provider_url(const struct fetch_ctx *fx, const char *path);

/* Replaces a server-sent link's scheme://host[:port] with fx->base, so
 * paging follows the override and never another host. malloc'd. */
char *provider_rebase(const struct fetch_ctx *fx, const char *link);

/* GETs (or POSTs `post`) base+path with the key, when there is one, in
 * p->key_header (else as a Bearer header), and runs p->parse on the body.
 * Sets fx->http_status. */
int provider_fetch_json(struct fetch_ctx *fx, const char *path, const char *post, char **err);

/* GETs url (POSTs `post`, JSON, when not NULL) with `auth` ("Name: value",
 * a key header; NULL for none) beside Accept, and hands the body over in
 * *body (free with buf_free) on success. For feeds with more than one
 * document (a token, then prices) or a key header other than Bearer. Sets
 * fx->http_status. */
int provider_get(struct fetch_ctx *fx, const char *url, const char *post, const char *auth,
                 struct buf *body, char **err);

/* Parses body as JSON for an adapter's parse: NULL with *err set when it
 * is not JSON (an HTML error page says so). Free with cJSON_Delete. */
struct cJSON *provider_json(const char *body, size_t len, char **err);

/* The error a feed's body gives in place of its list: "NAME says: MSG"
 * with MSG the first non-empty of the body's "message", "error" (a string)
 * and "error"."message" (the shapes the keyed feeds answer with: see each
 * adapter), else `what` (the list that is missing). Always PLANNER_ENET. */
int provider_says(const char *name, const struct cJSON *root, const char *what, char **err);

/* A feed whose body holds its items in one JSON list: at path (keys from
 * the root, NULL-terminated; none: the body is the list). */
struct provider_items {
	const char *provider;
	const char *path[3];
	const char *missing; /* provider_says's what when the list is not there */
	bool null_is_empty;  /* a body of JSON null holds no items (not an error) */
	void (*item)(struct norm *out, const struct cJSON *item);
	/* A feed of numbered pages (linode, koyeb): sets *next to the path
	 * (from the base, with its query; malloc'd) of the page after the one
	 * whose body is root and whose list held `items` entries, or NULL
	 * after the last; false when out of memory. NULL: one page. */
	bool (*follow)(const struct cJSON *root, size_t items, char **next);
};
/* The parse of such a feed: item() of each entry of the list; *next (next
 * may be NULL) gets follow's path, or NULL. */
int provider_parse_items(const struct provider_items *f, struct norm *out, const char *body,
                         size_t len, char **next, char **err);
/* Reads such a feed from base+path, the key sent as provider_fetch_json
 * sends it, following f->follow's pages on fx->base, at most max_pages.
 * Sets fx->http_status. */
int provider_fetch_items(struct fetch_ctx *fx, const struct provider_items *f, const char *path,
                         int max_pages, char **err);

/* cJSON accessors tolerant of nulls and wrong types. */
const char *pj_str(const struct cJSON *o, const char *key);   /* "" when absent */
double pj_num(const struct cJSON *o, const char *key);        /* 0 when absent */
/* A finite number, or a string holding one ("0.00000015"); false otherwise. */
bool pj_number(const struct cJSON *o, const char *key, double *v);
/* A count (GPUs, context tokens) truncated to a whole number; 0 when
 * absent, negative, or above max, so the caller's cast cannot overflow
 * (a feed's 1e30 is a broken row, not a count). */
long pj_count(const struct cJSON *o, const char *key, long max);
/* pj_number and pj_count of a value already found (NULL: absent), for an
 * adapter that reads an object's members in one pass (vast.c). */
bool pj_number_of(const struct cJSON *x, double *v);
long pj_count_of(const struct cJSON *x, long max);

/* Adds a long-prompt tier (store.h struct api_tier) to the API row the
 * last norm_api call added: prompts longer than `above` tokens are billed
 * at in/out USD per token. Kept ascending by `above`; a tier at a
 * threshold already there, beyond API_MAX_TIERS, or with a price outside
 * what norm_api accepts is left out (false); the row keeps its base. */
bool provider_api_tier(struct norm *out, long above, double in, double outp);

/* Sets the cached-input prices (per token, in the row's currency) of the
 * API row the last norm_api call added: read, a token read from a prompt
 * cache; write, a token written to it. A price that is absent (0), not
 * finite or outside what norm_api accepts stays 0 (none listed); false
 * when one was given and left out. */
bool provider_api_cache(struct norm *out, double read, double write);

/* Whether a GPU name is a MIG slice of a GPU ("NVIDIA RTX PRO 6000
 * Blackwell Server Edition MIG 1g.24gb", "A100 1g.10gb"): a word
 * <n>g.<m>gb, or the word MIG. A slice has a share of the GPU's compute
 * and memory that the GPU table does not model; adapters leave such rows
 * out and count them (norm.skipped). */
bool provider_mig_slice(const char *name);
/* --- a streaming reader for one array of a JSON body (json_items.c) ---
 * Reads the elements of the top-level object's array `key` as the body
 * arrives, holding one element (at most 1 MiB), the body's first 64 KiB and
 * one top-level string asked for (json_items_keep), never the whole body or
 * its tree: a feed's memory is then the rows kept. */
struct json_items;
/* Gets one element, a small tree freed after the call; PLANNER_OK to go on. */
typedef int (*json_item_fn)(void *ud, const struct cJSON *item, char **err);
/* json_items_finish: the body held no such list. */
#define JSON_ITEMS_NONE (-1)
/* A reader of key's list calling fn(ud, element); NULL when out of memory. */
struct json_items *json_items_new(const char *key, json_item_fn fn, void *ud);
/* A reader of the values of the top-level object (LiteLLM's map of models):
 * fn gets each value with its key as item->string (cut at 255 bytes);
 * json_items_finish says JSON_ITEMS_NONE when the body is not an object. */
struct json_items *json_members_new(json_item_fn fn, void *ud);
/* Feeds the next bytes (any split). false with *err set when an element
 * is over 1 MiB, fn failed, or memory ran out. */
bool json_items_feed(struct json_items *s, const char *p, size_t n, char **err);
/* Whether a streamed body of `total` bytes so far is within `cap`; false
 * with "response larger than …" in *err when not. */
bool json_items_capped(size_t total, size_t cap, char **err);
/* Ends the body: PLANNER_OK when the list was read whole; PLANNER_ENET with
 * *err set when the body ended inside it or an element was not JSON;
 * JSON_ITEMS_NONE when there was no such list. */
int json_items_finish(struct json_items *s, char **err);
/* The body's first 64 KiB; *whole when that is all of it. */
const char *json_items_prefix(const struct json_items *s, size_t *len, bool *whole);
/* Keeps the string value of the top-level member `name` (the first one,
 * before or after the list: a paged feed's next-page link), at most 8 KiB:
 * json_items_feed fails beyond that. With it json_items_finish also says
 * PLANNER_ENET for a body that ends after the list, before the top-level
 * object closes. */
void json_items_keep(struct json_items *s, const char *name);
/* The kept member's value, decoded; NULL when the body had no such member
 * or its value is not a string. Valid until the next reset or free. */
const char *json_items_kept(const struct json_items *s);
/* Starts over (a retried download); the kept value is forgotten. */
void json_items_reset(struct json_items *s);
/* The largest element held, bytes (for the memory test). */
size_t json_items_peak(const struct json_items *s);
void json_items_free(struct json_items *s);

/* provider_fetch_json, streamed: the elements of the body's top-level list
 * `key` go to fn (with fx->out as ud) as they arrive; a retried attempt
 * drops the rows of the one before. A body without the list (an error
 * object, an HTML page) goes whole to p->parse when under 64 KiB. */
int provider_stream_json(struct fetch_ctx *fx, const char *path, const char *post, const char *key,
                         json_item_fn fn, char **err);

/* A paged feed streamed (provider_stream_pages): each page's list `list`
 * is read as it arrives, and its member `next` names the next page. */
struct provider_pages {
	const char *url;  /* the first page's full URL */
	const char *auth; /* a key header ("Name: value"), or NULL */
	const char *list; /* each page's top-level list */
	const char *next; /* each page's top-level string naming the next page */
	json_item_fn fn;  /* gets each element, with ud */
	void *ud;
	/* After a page read whole: sets *url to the next page's full URL
	 * (malloc'd) or NULL at the end, from the page's `next` value (NULL
	 * when absent) and its number of elements. */
	int (*follow)(void *ud, const char *next, size_t items, char **url, char **err);
	/* Before each attempt of a page: forgets what fn kept of an attempt
	 * before (its rows and counts go without it); NULL when nothing. */
	void (*reset)(void *ud);
	int max_pages;
	/* Rows stay in fx->out, not flushed to the sink: fn looks back at them. */
	bool hold;
};
/* A paged feed's parse: one page read whole by the streaming reader a
 * fetch uses, so the tests and the fuzz harness cover it. list's elements
 * go to fn with ud; *next (next may be NULL) gets the member `member`'s
 * string, malloc'd, or NULL when it is absent or empty. A body without
 * the list is PLANNER_ENET, "response has no "<list>" list", with its
 * "error"."message" (Azure's and Google's error object) when it has one. */
int provider_parse_page(const char *body, size_t len, const char *list, const char *member,
                        json_item_fn fn, void *ud, char **next, char **err);
/* Reads every page as provider_stream_json reads its one body (a retried
 * attempt drops only its own page's rows); at most pg->max_pages pages.
 * Sets fx->http_status. */
int provider_stream_pages(struct fetch_ctx *fx, const struct provider_pages *pg, char **err);

/* --- an element read from its bytes, before any tree (issue 16) ---
 * A reader may hand an element's bytes to a json_raw_fn first: it reads
 * the object at p (at most n bytes, possibly followed by more of the
 * body), sets *used to its length and returns PLANNER_OK or an error; or
 * returns JSON_RAW_NO, having done nothing, and the element is parsed
 * into a tree for the json_item_fn as before. */
#define JSON_RAW_NO (-2)
typedef int (*json_raw_fn)(void *ud, const char *p, size_t n, size_t *used, char **err);
/* Gives s's elements that are objects to raw first (not for
 * json_members_new's readers). */
void json_items_raw(struct json_items *s, json_raw_fn raw);
/* provider_stream_json with the elements going to raw first. */
int provider_stream_json_raw(struct fetch_ctx *fx, const char *path, const char *post,
                             const char *key, json_item_fn fn, json_raw_fn raw, char **err);

/* Chosen members of a flat object, read from its bytes (json_flat.c). */
struct json_flat {
	const char *const *names; /* the members wanted */
	size_t n_names;
	struct cJSON *nodes;      /* n_names nodes the values go in */
	const struct cJSON **found; /* n_names: a member's node, NULL when absent */
	char *text;               /* the string values' bytes, NUL-terminated */
	size_t text_size;
};
/* Reads the object at p (within n bytes): found[k] is the node of the
 * first member named names[k], as cJSON would parse it (an object or array
 * value without its members), or NULL. Returns the object's length in
 * bytes, or 0 when it is not whole within n bytes or holds what this
 * reader leaves to cJSON (an escape in a name or a wanted string, a \u
 * escape, control bytes between tokens, a number cJSON reads otherwise,
 * nesting over 32, strings over text_size): the caller then parses it
 * with cJSON. */
size_t json_flat_object(const char *p, size_t n, const struct json_flat *f);

#endif
