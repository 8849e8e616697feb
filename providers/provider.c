/* provider.c — the adapter registry and what every adapter shares: URLs
 * with the PLANNER_<NAME>_URL override, the JSON fetch, tolerant cJSON
 * accessors. */
#include "provider.h"

#include <cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

const struct provider *const provider_list[] = {
    &provider_lambda,     &provider_runpod,  &provider_vast,
    &provider_azure,      &provider_aws,     &provider_gcp,
    &provider_scaleway,
    &provider_digitalocean, &provider_verda, &provider_hyperstack, &provider_shadeform,
    &provider_fluidstack,
    &provider_seeweb,
    &provider_ovhcloud,
    &provider_vultr,
    &provider_oci,
    &provider_cudo,
    &provider_tensordock,
    &provider_openrouter, &provider_litellm, NULL,
};

const struct provider *provider_find(const char *name)
{
	for (size_t i = 0; provider_list[i]; i++)
		if (!strcmp(provider_list[i]->name, name))
			return provider_list[i];
	return NULL;
}

/* The word `pick` takes from p, or NULL when it takes none. */
static const char *picked(const struct provider *p, enum provider_pick pick)
{
	switch (pick) {
	case PROVIDER_PICK_ALL:
		return p->name;
	case PROVIDER_PICK_RENTED:
		return p->kind == PROVIDER_RENTED ? p->name : NULL;
	case PROVIDER_PICK_KEY_NEEDED:
		return p->key_env && !p->key_optional ? p->key_env : NULL;
	case PROVIDER_PICK_KEY_OPTIONAL:
		return p->key_env && p->key_optional ? p->key_env : NULL;
	}
	return NULL;
}

char *provider_names(enum provider_pick pick, char *buf, size_t len)
{
	size_t n = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; provider_list[i]; i++) {
		const char *w = picked(provider_list[i], pick);
		if (!w)
			continue;
		int k = snprintf(buf + n, len - n, "%s%s", n ? ", " : "", w);
		if (k < 0 || (size_t)k >= len - n)
			break; /* cut to fit; snprintf ended it */
		n += (size_t)k;
	}
	return buf;
}

void provider_url_env(const struct provider *p, char *buf, size_t len)
{
	char upper[32];
	size_t i = 0;
	for (; p->name[i] && i + 1 < sizeof upper; i++)
		upper[i] = (char)toupper((unsigned char)p->name[i]);
	upper[i] = '\0';
	snprintf(buf, len, "PLANNER_%s_URL", upper);
}

char *provider_url(const struct fetch_ctx *fx, const char *path)
{
	return xasprintf("%s%s", fx->base, path);
}

char *provider_rebase(const struct fetch_ctx *fx, const char *link)
{
	size_t bl = strlen(fx->base);
	if (!strncmp(link, fx->base, bl) && (link[bl] == '/' || link[bl] == '?'))
		return strdup(link);
	const char *p = strstr(link, "://");
	p = p ? p + 3 : link;
	p += strcspn(p, "/?");
	return xasprintf("%s%s%s", fx->base, *p == '?' ? "/" : "", p);
}

int provider_fetch_json(struct fetch_ctx *fx, const char *path, const char *post, char **err)
{
	char *url = provider_url(fx, path), *auth = NULL;
	const char *headers[3] = {"Accept: application/json", NULL, NULL};
	struct http_response resp;
	int rc;
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	if (fx->key && *fx->key) {
		auth = fx->p->key_header ? xasprintf("%s: %s", fx->p->key_header, fx->key)
		                         : xasprintf("Authorization: Bearer %s", fx->key);
		if (!auth) {
			free(url);
			return set_err(err, PLANNER_ESYS, "out of memory");
		}
		headers[1] = auth;
	}
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	struct http_request req = {.url = url, .post = post, .headers = headers};
	rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK)
		rc = fx->p->parse(fx->out, resp.body.data ? resp.body.data : "", resp.body.len,
		                  NULL, err);
	http_response_free(&resp);
	free(auth);
	free(url);
	return rc;
}

cJSON *provider_json(const char *body, size_t len, char **err)
{
	const char *end = NULL;
	size_t skip = 0;
	while (skip < len && isspace((unsigned char)body[skip]))
		skip++;
	if (skip == len) {
		set_err(err, PLANNER_ENET, "empty response");
		return NULL;
	}
	if (body[skip] == '<') {
		set_err(err, PLANNER_ENET, "response is HTML, not JSON (an error or login page?)");
		return NULL;
	}
	cJSON *root = cJSON_ParseWithLengthOpts(body, len, &end, false);
	if (!root)
		set_err(err, PLANNER_ENET, "response is not valid JSON (at byte %zu of %zu)",
		        end && end >= body ? (size_t)(end - body) : 0, len);
	return root;
}

int provider_says(const char *name, const cJSON *root, const char *what, char **err)
{
	const char *msg = pj_str(root, "message");
	if (!*msg)
		msg = pj_str(root, "error");
	if (!*msg)
		msg = pj_str(cJSON_GetObjectItemCaseSensitive(root, "error"), "message");
	return *msg ? set_err(err, PLANNER_ENET, "%s says: %s", name, msg)
	            : set_err(err, PLANNER_ENET, "%s", what);
}

const char *pj_str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsString(v) && v->valuestring ? v->valuestring : "";
}

double pj_num(const cJSON *o, const char *key)
{
	double v;
	return pj_number(o, key, &v) ? v : 0;
}

bool pj_number(const cJSON *o, const char *key, double *v)
{
	return pj_number_of(cJSON_GetObjectItemCaseSensitive(o, key), v);
}

bool pj_number_of(const cJSON *x, double *v)
{
	if (cJSON_IsNumber(x)) {
		/* cJSON reads 1e999 as inf. */
		if (!isfinite(x->valuedouble))
			return false;
		*v = x->valuedouble;
		return true;
	}
	return cJSON_IsString(x) && norm_number(x->valuestring, v);
}

long pj_count(const cJSON *o, const char *key, long max)
{
	return pj_count_of(cJSON_GetObjectItemCaseSensitive(o, key), max);
}

long pj_count_of(const cJSON *x, long max)
{
	double v;
	/* (double)max + 1 is a power of two for INT_MAX and LONG_MAX, so
	 * anything below it truncates to at most max. */
	if (!pj_number_of(x, &v) || !(v >= 0) || !(v < (double)max + 1.0))
		return 0;
	return (long)v;
}

bool provider_api_tier(struct norm *out, long above, double in, double outp)
{
	if (!out->n_apis || above <= 0 || !(in >= 0 && in <= NORM_MAX_PRICE_PER_TOKEN) ||
	    !(outp >= 0 && outp <= NORM_MAX_PRICE_PER_TOKEN))
		return false;
	struct api_price *a = &out->apis[out->n_apis - 1];
	int at = 0;
	while (at < a->n_tiers && a->tiers[at].above < above)
		at++;
	if (a->n_tiers == API_MAX_TIERS || (at < a->n_tiers && a->tiers[at].above == above))
		return false;
	memmove(&a->tiers[at + 1], &a->tiers[at], (size_t)(a->n_tiers - at) * sizeof a->tiers[0]);
	a->tiers[at] =
	    (struct api_tier){.above = above, .input_per_token = in, .output_per_token = outp};
	a->n_tiers++;
	return true;
}

/* Whether [w, w + n) is "<digits>g.<digits>gb", any case. */
static bool mig_profile(const char *w, size_t n)
{
	size_t i = 0, d;
	for (d = i; i < n && isdigit((unsigned char)w[i]); i++)
		;
	if (i == d || i + 2 > n || tolower((unsigned char)w[i]) != 'g' || w[i + 1] != '.')
		return false;
	i += 2;
	for (d = i; i < n && isdigit((unsigned char)w[i]); i++)
		;
	return i > d && n - i == 2 && !strncasecmp(w + i, "gb", 2);
}

bool provider_mig_slice(const char *name)
{
	for (const char *p = name ? name : ""; *p;) {
		size_t n = strcspn(p, " ");
		if ((n == 3 && !strncmp(p, "MIG", 3)) || mig_profile(p, n))
			return true;
		p += n;
		p += strspn(p, " ");
	}
	return false;
}

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

struct json_items {
	char key[64];
	json_item_fn fn;
	json_raw_fn raw;     /* NULL: every element goes to fn as a tree */
	void *ud;
	int depth;           /* containers open */
	bool in_str, esc;    /* inside a string; after a backslash in one */
	bool want_key;       /* at depth 1, the next string is a key */
	bool key_str;        /* reading that key */
	char cur[256];       /* the key read so far (cut at 255 bytes) */
	size_t cur_len;
	bool members;        /* json_members_new: the top-level object's values */
	char name[256];      /* members: the last depth-1 key, the element's name */
	bool key_match;      /* the last depth-1 key is `key` */
	enum { JI_BEFORE, JI_IN, JI_DONE } state;
	bool capturing, scalar; /* reading an element; a number, string or literal */
	const char *run;     /* during a feed: where the element's unsaved bytes start */
	struct buf item;     /* the element's bytes */
	struct buf prefix;   /* the body's first bytes */
	size_t total, items, peak;
	bool bad;            /* an element did not parse */
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
	struct json_items keep = {.fn = s->fn, .raw = s->raw, .ud = s->ud, .item = s->item, .prefix = s->prefix,
				  .peak = s->peak, .members = s->members};
	snprintf(keep.key, sizeof keep.key, "%s", s->key);
	keep.item.len = keep.prefix.len = 0;
	*s = keep;
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
	if (!s->run)
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
	char quoted[sizeof ((struct json_items *)0)->name + 2];
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
	int raw = s->raw && len && data[0] == '{' ? s->raw(s->ud, data, len, &used, err)
	                                          : JSON_RAW_NO;
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
		if (s->capturing && s->state == JI_IN && s->depth == at && !emit_item(s, q + 1, err))
			return false;
		break;
	case ',':
		if (s->depth == 1) {
			s->want_key = true;
			s->key_match = false;
		}
		break;
	case ':':
		if (s->depth == 1)
			s->want_key = false;
		break;
	default:
		break;
	}
	return true;
}

/* One byte inside a string: escapes, the end, a depth-1 key's bytes (kept
 * as they stand, escapes included: member_name undoes them). */
static void string_byte(struct json_items *s, char ch)
{
	bool end = !s->esc && ch == '"';
	if (s->esc)
		s->esc = false;
	else if (ch == '\\')
		s->esc = true;
	if (end) {
		s->in_str = false;
		if (s->key_str) {
			s->cur[s->cur_len] = '\0';
			s->key_match = !strcmp(s->cur, s->key);
			s->key_str = false;
			if (s->members)
				memcpy(s->name, s->cur, s->cur_len + 1);
		}
	} else if (s->key_str && s->cur_len < sizeof s->cur - 1) {
		s->cur[s->cur_len++] = ch;
	}
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
		if (s->in_str && !s->key_str && !s->esc) {
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
			int raw = s->raw && ch == '{'
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
		if (s->in_str)
			string_byte(s, ch);
		else if (!scan_byte(s, q, err))
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
	return s->state == JI_DONE ? PLANNER_OK : JSON_ITEMS_NONE;
}

/* What provider_stream_json's sink and reset work on. */
struct stream_ctx {
	struct json_items *items;
	struct norm *out;
	size_t skipped, implausible, unknown; /* the counts before the first attempt */
	size_t total, cap;                    /* bytes of this attempt; the body cap */
	json_item_fn fn;                      /* the adapter's */
	json_raw_fn raw;                      /* the adapter's, or NULL */
};

/* The adapter's fn, then a full batch of rows to the refresh's sink
 * (norm_flush): a streamed feed holds NORM_FLUSH_ROWS rows, not all. */
static int stream_item(void *ud, const cJSON *item, char **err)
{
	struct stream_ctx *c = ud;
	int rc = c->fn(c->out, item, err);
	if (rc == PLANNER_OK && c->out->n_offers >= NORM_FLUSH_ROWS)
		rc = norm_flush(c->out, err);
	return rc;
}

/* stream_item for an element read from its bytes. */
static int stream_raw(void *ud, const char *p, size_t n, size_t *used, char **err)
{
	struct stream_ctx *c = ud;
	int rc = c->raw(c->out, p, n, used, err);
	if (rc == PLANNER_OK && c->out->n_offers >= NORM_FLUSH_ROWS)
		rc = norm_flush(c->out, err);
	return rc;
}

static bool stream_sink(void *ud, const char *p, size_t n, char **err)
{
	struct stream_ctx *c = ud;
	c->total += n;
	/* The same cap as a buffered body: memory is bounded here anyway, but
	 * an endless body is not a feed. */
	if (c->total > c->cap) {
		if (c->cap >= 1 << 20)
			set_err(err, PLANNER_ENET, "response larger than %zu MiB (PLANNER_HTTP_MAX_BYTES)",
			        c->cap >> 20);
		else
			set_err(err, PLANNER_ENET, "response larger than %zu bytes", c->cap);
		return false;
	}
	return json_items_feed(c->items, p, n, err);
}

/* A retried attempt starts over: its rows and counts go. */
static void stream_reset(void *ud)
{
	struct stream_ctx *c = ud;
	json_items_reset(c->items);
	c->total = 0;
	norm_truncate(c->out, 0, 0);
	c->out->skipped = c->skipped;
	c->out->implausible = c->implausible;
	c->out->unknown_rows = c->unknown;
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
	struct stream_ctx c = {.out = fx->out, .skipped = fx->out->skipped,
	                       .implausible = fx->out->implausible,
	                       .unknown = fx->out->unknown_rows, .cap = fx->http->max_body,
	                       .fn = fn, .raw = raw};
	struct http_response resp = {0};
	int rc = PLANNER_OK;
	c.items = json_items_new(key, stream_item, &c);
	if (c.items && raw)
		json_items_raw(c.items, stream_raw);
	if (!url || !c.items || (fx->key && *fx->key &&
	                         !(auth = xasprintf("Authorization: Bearer %s", fx->key)))) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	headers[1] = auth;
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	struct http_request req = {.url = url, .post = post, .headers = headers,
	                           .sink = stream_sink, .reset = stream_reset, .ud = &c};
	rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK && (rc = json_items_finish(c.items, err)) == JSON_ITEMS_NONE) {
		/* No such list: an error object or an HTML page, read whole by
		 * the adapter's own parse when it is short. */
		size_t len;
		bool whole;
		const char *body = json_items_prefix(c.items, &len, &whole);
		rc = whole ? fx->p->parse(fx->out, body, len, NULL, err)
		           : set_err(err, PLANNER_ENET, "response has no \"%s\" list", key);
	}
out:
	http_response_free(&resp);
	json_items_free(c.items);
	free(auth);
	free(url);
	return rc;
}

int provider_get(struct fetch_ctx *fx, const char *url, const char *post, const char *auth,
                 struct buf *body, char **err)
{
	const char *headers[4] = {"Accept: application/json", NULL, NULL, NULL};
	struct http_response resp;
	size_t h = 1;
	if (post)
		headers[h++] = "Content-Type: application/json";
	headers[h] = auth;
	struct http_request req = {.url = url, .post = post, .headers = headers};
	int rc = http_fetch(fx->http, &req, &resp, err);
	fx->http_status = resp.status;
	if (rc == PLANNER_OK) {
		*body = resp.body;
		resp.body = (struct buf){0};
	}
	http_response_free(&resp);
	return rc;
}
