/* json_items.c — the streaming reader of one list (or of the members) of a
 * JSON body, and the streamed fetches built on it: one body
 * (provider_stream_json), every page of a paged feed
 * (provider_stream_pages), and a paged feed's parse of one whole page
 * (provider_parse_page). Declared in provider.h. */
#include <cJSON.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "util.h"

/* --- a streaming reader for one array of a JSON body --------------------
 * A 100 MB feed body became a cJSON tree several times its size (issue 12:
 * 4 GB at the peak). This scanner reads the body as it arrives, keeps only
 * the element being read (at most JSON_ITEM_MAX bytes) and the body's first
 * JSON_PREFIX_MAX bytes (for the adapter's ordinary parse of an error
 * object), and hands each element of the top-level object's array `key`
 * to a callback as a small cJSON tree: memory is the rows kept plus one
 * element. */

/* The largest element read: a Vast.ai offer is about 600 bytes. */
#define JSON_ITEM_MAX ((size_t)1 << 20)
/* The body kept whole for an error object or an HTML page. */
#define JSON_PREFIX_MAX ((size_t)64 << 10)
/* The longest string json_items_keep keeps: a next-page link is a few
 * hundred bytes (Azure's NextPageLink holds the query's $filter). */
#define JSON_KEPT_MAX ((size_t)8 << 10)

struct json_items {
	char key[64];
	json_item_fn fn;
	json_raw_fn raw; /* NULL: every element goes to fn as a tree */
	void *ud;
	int depth;        /* containers open */
	bool in_str, esc; /* inside a string; after a backslash in one */
	bool want_key;    /* at depth 1, the next string is a key */
	bool key_str;     /* reading that key */
	char cur[256];    /* the key read so far (cut at 255 bytes) */
	size_t cur_len;
	bool members;   /* json_members_new: the top-level object's values */
	char name[256]; /* members: the last depth-1 key, the element's name */
	bool key_match; /* the last depth-1 key is `key` */
	enum { JI_BEFORE, JI_IN, JI_DONE } state;
	bool capturing, scalar; /* reading an element; a number, string or literal */
	const char *run;        /* during a feed: where the element's unsaved bytes start */
	struct buf item;        /* the element's bytes */
	struct buf prefix;      /* the body's first bytes */
	size_t total, items, peak;
	bool bad;         /* an element did not parse */
	char keep[64];    /* json_items_keep: the member whose string is kept; "" none */
	bool keep_match;  /* the last depth-1 key is `keep` */
	bool keep_next;   /* the next value is that member's, and the first one */
	bool keep_seen;   /* `keep` had its value (cJSON reads the first) */
	bool keep_str;    /* reading that value, a string */
	bool kept;        /* the value was a whole string, now in `value` */
	struct buf value; /* its bytes, quotes included; once whole, decoded */
};

struct json_items *json_items_new(const char *key, json_item_fn fn, void *ud)
{
	struct json_items *s = calloc(1, sizeof *s);
	if (!s)
		return NULL;
	snprintf(s->key, sizeof s->key, "%s", key);
	s->fn = fn;
	s->ud = ud;
	return s;
}

void json_items_reset(struct json_items *s)
{
	struct json_items keep = {.fn = s->fn,
	                          .raw = s->raw,
	                          .ud = s->ud,
	                          .item = s->item,
	                          .prefix = s->prefix,
	                          .peak = s->peak,
	                          .members = s->members,
	                          .value = s->value};
	snprintf(keep.key, sizeof keep.key, "%s", s->key);
	snprintf(keep.keep, sizeof keep.keep, "%s", s->keep);
	keep.item.len = keep.prefix.len = keep.value.len = 0;
	*s = keep;
}

void json_items_keep(struct json_items *s, const char *name)
{
	snprintf(s->keep, sizeof s->keep, "%s", name);
}

const char *json_items_kept(const struct json_items *s)
{
	return s->kept ? s->value.data : NULL;
}

void json_items_raw(struct json_items *s, json_raw_fn raw)
{
	if (!s->members)
		s->raw = raw;
}

struct json_items *json_members_new(json_item_fn fn, void *ud)
{
	struct json_items *s = json_items_new("", fn, ud);
	if (s)
		s->members = true;
	return s;
}

void json_items_free(struct json_items *s)
{
	if (!s)
		return;
	buf_free(&s->item);
	buf_free(&s->prefix);
	buf_free(&s->value);
	free(s);
}

size_t json_items_peak(const struct json_items *s)
{
	return s->peak;
}

const char *json_items_prefix(const struct json_items *s, size_t *len, bool *whole)
{
	*len = s->prefix.len;
	*whole = s->total == s->prefix.len;
	return s->prefix.data ? s->prefix.data : "";
}

static bool json_fail(char **err, int code, const char *msg)
{
	set_err(err, code, "%s", msg);
	return false;
}

/* Appends the pending run of element bytes, [s->run, end), to the element:
 * bytes are copied a run at a time, not one by one. */
static bool flush_run(struct json_items *s, const char *end, char **err)
{
	/* json_items_finish passes no end: every feed call has flushed its
	 * run before returning, so there is nothing pending then. */
	if (!s->run || !end)
		return true;
	size_t n = (size_t)(end - s->run);
	const char *from = s->run;
	s->run = NULL;
	if (s->item.len + n > JSON_ITEM_MAX)
		return json_fail(err, PLANNER_ENET, "an element of the list is larger than 1 MiB");
	if (n && !buf_append(&s->item, from, n))
		return json_fail(err, PLANNER_ESYS, "out of memory");
	if (s->item.len > s->peak)
		s->peak = s->item.len;
	return true;
}

/* A member's key as its bytes stand in the body (escapes undone by
 * cJSON, as a whole-tree parse would), malloc'd; NULL when out of memory. */
static char *member_name(const char *raw)
{
	char quoted[sizeof((struct json_items *)0)->name + 2];
	int n = snprintf(quoted, sizeof quoted, "\"%s\"", raw);
	cJSON *v = n > 0 ? cJSON_ParseWithLength(quoted, (size_t)n) : NULL;
	char *name = strdup(cJSON_IsString(v) ? v->valuestring : raw);
	cJSON_Delete(v);
	return name;
}

/* Ends the element at end (exclusive): parses it and hands it on. */
static bool emit_item(struct json_items *s, const char *end, char **err)
{
	if (!flush_run(s, end, err))
		return false;
	s->capturing = s->scalar = false;
	s->items++;
	const char *data = s->item.data ? s->item.data : "";
	size_t len = s->item.len, used = 0;
	s->item.len = 0;
	/* An object that came in pieces: its bytes to raw first, as whole
	 * objects are in json_items_feed. */
	int raw =
	    s->raw && len && data[0] == '{' ? s->raw(s->ud, data, len, &used, err) : JSON_RAW_NO;
	if (raw != JSON_RAW_NO)
		return raw == PLANNER_OK;
	cJSON *it = cJSON_ParseWithLength(data, len);
	if (!it) {
		s->bad = true;
		return true;
	}
	if (s->members && !(it->string = member_name(s->name))) {
		cJSON_Delete(it);
		return json_fail(err, PLANNER_ESYS, "out of memory");
	}
	int rc = s->fn(s->ud, it, err);
	cJSON_Delete(it);
	return rc == PLANNER_OK;
}

/* Scans the byte at q, outside a string (see json_items_feed). */
static bool scan_byte(struct json_items *s, const char *q, char **err)
{
	char ch = *q, close = s->members ? '}' : ']';
	int at = s->members ? 1 : 2; /* the depth of the elements */
	bool at_items = s->state == JI_IN && s->depth == at;
	if (at_items && s->scalar && (ch == ',' || ch == close || isspace((unsigned char)ch)) &&
	    !emit_item(s, q, err)) /* the byte that ended it is not part of it */
		return false;
	if (s->keep_next && !isspace((unsigned char)ch)) {
		/* The kept member's value: only a string is kept. */
		s->keep_next = false;
		s->keep_seen = true;
		s->keep_str = ch == '"';
	}
	switch (ch) {
	case '"':
		s->in_str = true;
		s->key_str = s->depth == 1 && s->want_key;
		s->cur_len = 0;
		break;
	case '{':
	case '[':
		s->depth++;
		if (s->depth == 1)
			s->want_key = ch == '{';
		if (s->depth == 2 && ch == '[' && s->key_match && s->state == JI_BEFORE &&
		    !s->members)
			s->state = JI_IN;
		if (s->depth == 1 && ch == '{' && s->members && s->state == JI_BEFORE)
			s->state = JI_IN;
		break;
	case '}':
	case ']':
		if (at_items && ch == close)
			s->state = JI_DONE;
		s->depth--;
		if (s->capturing && s->state == JI_IN && s->depth == at &&
		    !emit_item(s, q + 1, err))
			return false;
		break;
	case ',':
		if (s->depth == 1) {
			s->want_key = true;
			s->key_match = s->keep_match = false;
		}
		break;
	case ':':
		if (s->depth == 1) {
			s->want_key = false;
			s->keep_next = s->keep_match && !s->keep_seen;
		}
		break;
	default:
		break;
	}
	return true;
}

/* The kept member's string, whole in s->value with its quotes, decoded
 * by cJSON (escapes undone, as pj_str on a tree would give it). */
static bool keep_value(struct json_items *s, char **err)
{
	cJSON *v = cJSON_ParseWithLength(s->value.data, s->value.len);
	if (!cJSON_IsString(v)) {
		cJSON_Delete(v);
		set_err(err, PLANNER_ENET, "response is not valid JSON (the \"%s\" member)",
		        s->keep);
		return false;
	}
	s->value.len = 0;
	s->kept = buf_append(&s->value, v->valuestring, strlen(v->valuestring));
	cJSON_Delete(v);
	return s->kept || json_fail(err, PLANNER_ESYS, "out of memory");
}

/* One byte inside a string: escapes, the end, a depth-1 key's bytes (kept
 * as they stand, escapes included: member_name undoes them), the kept
 * member's bytes. false with *err set when that member is over
 * JSON_KEPT_MAX or memory ran out. */
static bool string_byte(struct json_items *s, char ch, char **err)
{
	bool end = !s->esc && ch == '"';
	if (s->esc)
		s->esc = false;
	else if (ch == '\\')
		s->esc = true;
	if (s->keep_str) {
		if (s->value.len + 1 > JSON_KEPT_MAX) {
			set_err(err, PLANNER_ENET, "the \"%s\" member is longer than %zu KiB",
			        s->keep, JSON_KEPT_MAX >> 10);
			return false;
		}
		/* The opening quote first: the value is parsed as a JSON string. */
		if ((!s->value.len && !buf_append(&s->value, "\"", 1)) ||
		    !buf_append(&s->value, &ch, 1))
			return json_fail(err, PLANNER_ESYS, "out of memory");
		if (end) {
			s->keep_str = false;
			if (!keep_value(s, err))
				return false;
		}
	}
	if (end) {
		s->in_str = false;
		if (s->key_str) {
			s->cur[s->cur_len] = '\0';
			s->key_match = !strcmp(s->cur, s->key);
			s->keep_match = *s->keep && !strcmp(s->cur, s->keep);
			s->key_str = false;
			if (s->members)
				memcpy(s->name, s->cur, s->cur_len + 1);
		}
	} else if (s->key_str && s->cur_len < sizeof s->cur - 1) {
		s->cur[s->cur_len++] = ch;
	}
	return true;
}

bool json_items_capped(size_t total, size_t cap, char **err)
{
	if (total <= cap)
		return true;
	if (cap >= 1 << 20)
		set_err(err, PLANNER_ENET, "response larger than %zu MiB (PLANNER_HTTP_MAX_BYTES)",
		        cap >> 20);
	else
		set_err(err, PLANNER_ENET, "response larger than %zu bytes", cap);
	return false;
}

bool json_items_feed(struct json_items *s, const char *p, size_t n, char **err)
{
	size_t keep = JSON_PREFIX_MAX - s->prefix.len;
	if (keep > n)
		keep = n;
	if (keep && !buf_append(&s->prefix, p, keep))
		return json_fail(err, PLANNER_ESYS, "out of memory");
	s->total += n;
	if (s->capturing)
		s->run = p; /* the element goes on from the last chunk */
	const char *end = p + n;
	for (const char *q = p; q < end; q++) {
		/* Inside a string only a quote or a backslash matters (a key at
		 * depth 1 is read byte by byte): skip to the next one. Most of
		 * a feed's bytes are strings (issue 16: this loop was a fifth of
		 * a Vast refresh's parse); flush_run still caps the element. */
		if (s->in_str && !s->key_str && !s->keep_str && !s->esc) {
			while (q < end && *q != '"' && *q != '\\')
				q++;
			if (q == end)
				break;
		}
		char ch = *q;
		/* An element starts at its first byte inside the array (or, for
		 * members, after a depth-1 key's ':'). */
		if (!s->capturing && !s->in_str && s->state == JI_IN &&
		    (s->members ? s->depth == 1 && !s->want_key && ch != '}' && ch != ':'
		                : s->depth == 2 && ch != ']') &&
		    ch != ',' && !isspace((unsigned char)ch)) {
			/* An object within this chunk goes to raw as it stands:
			 * no copy, no tree (issue 16). */
			size_t used = 0, left = (size_t)(end - q);
			int raw =
			    s->raw && ch == '{'
			        ? s->raw(s->ud, q, left < JSON_ITEM_MAX ? left : JSON_ITEM_MAX,
			                 &used, err)
			        : JSON_RAW_NO;
			if (raw != JSON_RAW_NO) {
				s->items++;
				if (raw != PLANNER_OK)
					return false;
				q += used - 1;
				continue;
			}
			s->capturing = true;
			s->scalar = ch != '{' && ch != '[';
			s->run = q;
		}
		if (s->run && s->item.len + (size_t)(q - s->run) >= JSON_ITEM_MAX)
			return json_fail(err, PLANNER_ENET,
			                 "an element of the list is larger than 1 MiB");
		if (s->in_str ? !string_byte(s, ch, err) : !scan_byte(s, q, err))
			return false;
	}
	return flush_run(s, end, err);
}

int json_items_finish(struct json_items *s, char **err)
{
	if (s->state == JI_IN && s->scalar && !emit_item(s, NULL, err))
		return PLANNER_ENET;
	if ((s->bad || s->state == JI_IN) && s->members)
		return set_err(err, PLANNER_ENET,
		               "response is not valid JSON (inside the top-level object, %zu "
		               "members read)",
		               s->items);
	if (s->bad || (s->state == JI_IN))
		return set_err(err, PLANNER_ENET,
		               "response is not valid JSON (inside the \"%s\" list, %zu elements "
		               "read)",
		               s->key, s->items);
	/* A kept member may come after the list: a body cut there must not
	 * read as one without it (a paged feed's last page). */
	if (*s->keep && s->state == JI_DONE && (s->depth > 0 || s->in_str))
		return set_err(err, PLANNER_ENET,
		               "response is not valid JSON (it ends after the \"%s\" list, before "
		               "the top-level object closes)",
		               s->key);
	return s->state == JI_DONE ? PLANNER_OK : JSON_ITEMS_NONE;
}

/* What provider_stream_json's sink and reset work on. */
struct stream_ctx {
	struct fetch_ctx *fx;
	struct json_items *items;
	struct norm *out;
	/* The rows and counts before the body's (or page's) first attempt,
	 * what a retry goes back to (stream_mark). */
	size_t offers, apis;
	size_t skipped, implausible, unknown;
	size_t total, cap;                  /* bytes of this attempt; the body cap */
	json_item_fn fn;                    /* the adapter's */
	json_raw_fn raw;                    /* the adapter's, or NULL */
	void *ud;                           /* fn's and raw's: fx->out, or the pages' */
	bool hold;                          /* no norm_flush (provider_pages.hold) */
	const struct provider_pages *pages; /* provider_stream_pages: the adapter's paging */
};

/* A full batch of rows to the refresh's sink (norm_flush): a streamed
 * feed holds NORM_FLUSH_ROWS rows, not all. rc is the adapter's. */
static int stream_flush(struct stream_ctx *c, int rc, char **err)
{
	if (rc == PLANNER_OK && !c->hold && c->out->n_offers >= NORM_FLUSH_ROWS)
		rc = norm_flush(c->out, err);
	return rc;
}

/* The adapter's fn, then stream_flush. */
static int stream_item(void *ud, const cJSON *item, char **err)
{
	struct stream_ctx *c = ud;
	return stream_flush(c, c->fn(c->ud, item, err), err);
}

/* stream_item for an element read from its bytes. */
static int stream_raw(void *ud, const char *p, size_t n, size_t *used, char **err)
{
	struct stream_ctx *c = ud;
	return stream_flush(c, c->raw(c->ud, p, n, used, err), err);
}

static bool stream_sink(void *ud, const char *p, size_t n, char **err)
{
	struct stream_ctx *c = ud;
	c->total += n;
	/* The same cap as a buffered body: memory is bounded here anyway, but
	 * an endless body is not a feed. */
	return json_items_capped(c->total, c->cap, err) && json_items_feed(c->items, p, n, err);
}

/* A retried attempt starts over: its rows and counts go. */
static void stream_reset(void *ud)
{
	struct stream_ctx *c = ud;
	json_items_reset(c->items);
	c->total = 0;
	norm_truncate(c->out, c->offers, c->apis);
	c->out->skipped = c->skipped;
	c->out->implausible = c->implausible;
	c->out->unknown_rows = c->unknown;
	if (c->pages && c->pages->reset)
		c->pages->reset(c->ud);
}

/* What a reset goes back to: the rows and counts as they are now. */
static void stream_mark(struct stream_ctx *c)
{
	c->offers = norm_offers_total(c->out);
	c->apis = c->out->n_apis;
	c->skipped = c->out->skipped;
	c->implausible = c->out->implausible;
	c->unknown = c->out->unknown_rows;
}

/* A stream_ctx for fx reading list `key`; false when out of memory. */
static bool stream_init(struct stream_ctx *c, struct fetch_ctx *fx, const char *key,
                        json_item_fn fn, json_raw_fn raw, void *ud)
{
	*c = (struct stream_ctx){
	    .fx = fx, .out = fx->out, .cap = fx->http->max_body, .fn = fn, .raw = raw, .ud = ud};
	stream_mark(c);
	c->items = json_items_new(key, stream_item, c);
	if (c->items && raw)
		json_items_raw(c->items, stream_raw);
	return c->items;
}

/* Ends a body read by c: PLANNER_OK when its list was read whole. A body
 * without the list (an error object, an HTML page) goes whole to the
 * adapter's own parse when it is short. */
static int stream_finish(struct stream_ctx *c, char **err)
{
	int rc = json_items_finish(c->items, err);
	if (rc != JSON_ITEMS_NONE)
		return rc;
	size_t len;
	bool whole;
	const char *body = json_items_prefix(c->items, &len, &whole);
	return whole ? c->fx->p->parse(c->out, body, len, NULL, err)
	             : set_err(err, PLANNER_ENET, "response has no \"%s\" list", c->items->key);
}

int provider_stream_json(struct fetch_ctx *fx, const char *path, const char *post, const char *key,
                         json_item_fn fn, char **err)
{
	return provider_stream_json_raw(fx, path, post, key, fn, NULL, err);
}

int provider_stream_json_raw(struct fetch_ctx *fx, const char *path, const char *post,
                             const char *key, json_item_fn fn, json_raw_fn raw, char **err)
{
	char *url = provider_url(fx, path), *auth = NULL;
	const char *headers[3] = {"Accept: application/json", NULL, NULL};
	struct stream_ctx c;
	struct http_response resp = {0};
	int rc = PLANNER_OK;
	if (!stream_init(&c, fx, key, fn, raw, fx->out) || !url ||
	    (fx->key && *fx->key && !(auth = xasprintf("Authorization: Bearer %s", fx->key)))) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	headers[1] = auth;
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	struct http_request req = {.url = url,
	                           .post = post,
	                           .headers = headers,
	                           .sink = stream_sink,
	                           .reset = stream_reset,
	                           .ud = &c};
	rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK)
		rc = stream_finish(&c, err);
out:
	http_response_free(&resp);
	json_items_free(c.items);
	free(auth);
	free(url);
	return rc;
}

/* http_page_fn of provider_stream_pages: the page streamed through the
 * sink is ended, and the adapter names the next page from its member. */
static int stream_page(void *ud, const char *body, size_t len, char **next, char **err)
{
	struct stream_ctx *c = ud;
	(void)body, (void)len;
	*next = NULL;
	int rc = stream_finish(c, err);
	if (rc == PLANNER_OK)
		rc = c->pages->follow(c->ud, json_items_kept(c->items), c->items->items, next, err);
	stream_mark(c); /* a retry of the next page keeps this one's rows */
	return rc;
}

int provider_stream_pages(struct fetch_ctx *fx, const struct provider_pages *pg, char **err)
{
	const char *headers[3] = {"Accept: application/json", pg->auth, NULL};
	struct stream_ctx c;
	int rc;
	if (!stream_init(&c, fx, pg->list, pg->fn, NULL, pg->ud)) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	} else {
		c.hold = pg->hold;
		c.pages = pg;
		json_items_keep(c.items, pg->next);
		struct http_request first = {.url = pg->url,
		                             .headers = headers,
		                             .sink = stream_sink,
		                             .reset = stream_reset,
		                             .ud = &c};
		rc = http_paged_stream(fx->http, &first, stream_page, &c, pg->max_pages,
		                       &fx->http_status, err);
	}
	json_items_free(c.items);
	return rc;
}

/* provider_parse_page of a body without the list: its error object says why. */
static int no_list(const char *body, size_t len, const char *list, char **err)
{
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(root, "error");
	int rc = set_err(err, PLANNER_ENET, "response has no \"%s\" list%s%s", list, e ? ": " : "",
	                 e ? pj_str(e, "message") : "");
	cJSON_Delete(root);
	return rc;
}

int provider_parse_page(const char *body, size_t len, const char *list, const char *member,
                        json_item_fn fn, void *ud, char **next, char **err)
{
	if (next)
		*next = NULL;
	struct json_items *s = json_items_new(list, fn, ud);
	if (!s)
		return set_err(err, PLANNER_ESYS, "out of memory");
	json_items_keep(s, member);
	int rc = json_items_feed(s, body, len, err) ? json_items_finish(s, err) : PLANNER_ENET;
	if (rc == JSON_ITEMS_NONE)
		rc = no_list(body, len, list, err);
	const char *v = json_items_kept(s);
	if (rc == PLANNER_OK && next && v && *v && !(*next = strdup(v)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	json_items_free(s);
	return rc;
}
