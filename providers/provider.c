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
    &provider_jarvislabs,
    &provider_cloudrift,
    &provider_hotaisle,
    &provider_primeintellect,
    &provider_hyperbolic,
    &provider_linode,
    &provider_koyeb,
    &provider_openrouter, &provider_litellm, NULL,
};

const struct provider *provider_find(const char *name)
{
	for (size_t i = 0; provider_list[i]; i++)
		if (!strcmp(provider_list[i]->name, name))
			return provider_list[i];
	return NULL;
}

/* A company whose GPU catalogue and per-token API prices come from two
 * feeds: `refresh --provider NAME` runs both. The API rows of these hosts
 * are LiteLLM's map entries under "NAME/" (litellm.c); mistral has no GPU
 * feed, so the name stands for its API prices alone. */
static const struct {
	const char *name, *api_feed;
} companies[] = {
    {"scaleway", "litellm"},
    {"ovhcloud", "litellm"},
    {"mistral", "litellm"},
};

const char *provider_api_feed(const char *name)
{
	for (size_t i = 0; i < sizeof companies / sizeof *companies; i++)
		if (!strcmp(companies[i].name, name))
			return companies[i].api_feed;
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

/* "PLANNER_<NAME>_<WHAT>" into buf, both upper-cased. */
static void provider_env(const struct provider *p, const char *what, char *buf, size_t len)
{
	char upper[32], w[32];
	size_t i = 0;
	for (; p->name[i] && i + 1 < sizeof upper; i++)
		upper[i] = (char)toupper((unsigned char)p->name[i]);
	upper[i] = '\0';
	for (i = 0; what[i] && i + 1 < sizeof w; i++)
		w[i] = (char)toupper((unsigned char)what[i]);
	w[i] = '\0';
	snprintf(buf, len, "PLANNER_%s_%s", upper, w);
}

void provider_url_env(const struct provider *p, char *buf, size_t len)
{
	provider_env(p, "url", buf, len);
}

const char *provider_option(const struct fetch_ctx *fx, const char *name)
{
	for (size_t i = fx->n_options; i-- > 0;) {
		const struct provider_option *o = &fx->options[i];
		if (!strcmp(o->provider, fx->p->name) && !strcmp(o->name, name) && o->value &&
		    *o->value)
			return o->value;
	}
	char var[80];
	provider_env(fx->p, name, var, sizeof var);
	const char *env = getenv(var);
	return env && *env ? env : NULL;
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

/* The key header fx's adapter sends ("NAME: key", else a Bearer header)
 * into *auth (malloc'd), or NULL when there is no key; false when out of
 * memory. */
static bool key_header(const struct fetch_ctx *fx, char **auth)
{
	*auth = NULL;
	if (!fx->key || !*fx->key)
		return true;
	*auth = fx->p->key_header ? xasprintf("%s: %s", fx->p->key_header, fx->key)
	                          : xasprintf("Authorization: Bearer %s", fx->key);
	return *auth != NULL;
}

int provider_fetch_json(struct fetch_ctx *fx, const char *path, const char *post, char **err)
{
	char *url = provider_url(fx, path), *auth = NULL;
	const char *headers[3] = {"Accept: application/json", NULL, NULL};
	struct http_response resp;
	int rc;
	if (!url || !key_header(fx, &auth)) {
		free(url);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	headers[1] = auth;
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

/* A cached-input price: 0 (none), else within norm_api's bounds. */
static bool cache_price(double v, double *out)
{
	*out = 0;
	if (v == 0)
		return true;
	if (!(v >= NORM_MIN_PRICE_PER_TOKEN && v <= NORM_MAX_PRICE_PER_TOKEN))
		return false;
	*out = v;
	return true;
}

bool provider_api_cache(struct norm *out, double read, double write)
{
	if (!out->n_apis)
		return false;
	struct api_price *a = &out->apis[out->n_apis - 1];
	bool ok = cache_price(read, &a->cache_read_per_token);
	return cache_price(write, &a->cache_write_per_token) && ok;
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

int provider_parse_items(const struct provider_items *f, struct norm *out, const char *body,
                         size_t len, char **next, char **err)
{
	if (next)
		*next = NULL;
	cJSON *root = provider_json(body, len, err);
	if (!root)
		return PLANNER_ENET;
	int rc = PLANNER_OK;
	const cJSON *list = root;
	for (size_t i = 0; i < sizeof f->path / sizeof *f->path && f->path[i]; i++)
		list = cJSON_GetObjectItemCaseSensitive(list, f->path[i]);
	if (f->null_is_empty && cJSON_IsNull(root)) {
		/* nothing on offer now */
	} else if (!cJSON_IsArray(list)) {
		rc = provider_says(f->provider, root, f->missing, err);
	} else {
		const cJSON *it;
		cJSON_ArrayForEach(it, list)
		{
			f->item(out, it);
		}
		if (next && f->follow && !f->follow(root, (size_t)cJSON_GetArraySize(list), next))
			rc = set_err(err, PLANNER_ESYS, "out of memory");
	}
	cJSON_Delete(root);
	return rc;
}

struct items_pages {
	struct fetch_ctx *fx;
	const struct provider_items *f;
};

/* One page for http_paged: the next page's path is read on fx->base. */
static int items_page(void *ud, const char *body, size_t len, char **next, char **err)
{
	const struct items_pages *ip = ud;
	char *path = NULL;
	*next = NULL;
	int rc = provider_parse_items(ip->f, ip->fx->out, body, len, &path, err);
	if (rc == PLANNER_OK && path && !(*next = provider_url(ip->fx, path)))
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	free(path);
	return rc;
}

int provider_fetch_items(struct fetch_ctx *fx, const struct provider_items *f, const char *path,
                         int max_pages, char **err)
{
	char *url = provider_url(fx, path), *auth = NULL;
	const char *headers[3] = {"Accept: application/json", NULL, NULL};
	struct items_pages ip = {.fx = fx, .f = f};
	if (!url || !key_header(fx, &auth)) {
		free(url);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	headers[1] = auth;
	snprintf(fx->out->source, sizeof fx->out->source, "%s", url);
	int rc =
	    http_paged(fx->http, url, headers, items_page, &ip, max_pages, &fx->http_status, err);
	free(auth);
	free(url);
	return rc;
}
