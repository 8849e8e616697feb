/* normalise.c — the one normaliser (see normalise.h). */
#include "normalise.h"
#include "provider.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fx.h"
#include "regions.h"
#include "util.h"

void norm_init(struct norm *n, const struct refdata *ref, const char *provider)
{
	memset(n, 0, sizeof *n);
	n->ref = ref;
	n->provider = provider;
	const struct provider *p = provider ? provider_find(provider) : NULL;
	n->own_datacentres = p && p->own_datacentres;
	iso_now(n->fetched_at, sizeof n->fetched_at);
}

void norm_free(struct norm *n)
{
	if (!n)
		return;
	free(n->offers);
	free(n->apis);
	free(n->terms);
	n->terms = NULL;
	n->n_terms = n->cap_terms = 0;
	free(n->fx);
	n->fx = NULL;
	for (size_t i = 0; i < n->n_unknown; i++)
		free(n->unknown[i]);
	n->offers = NULL;
	n->apis = NULL;
	n->n_offers = n->n_apis = n->cap_offers = n->cap_apis = n->n_unknown = 0;
}

void norm_truncate(struct norm *n, size_t offers, size_t apis)
{
	if (offers < n->flushed) {
		char *err = NULL;
		if (n->sink->drop(n->sink->ud, offers, &err))
			n->sink_failed = true;
		free(err);
		n->flushed = offers;
		n->n_offers = 0;
	} else if (offers - n->flushed < n->n_offers) {
		n->n_offers = offers - n->flushed;
	}
	if (apis < n->n_apis)
		n->n_apis = apis;
}

size_t norm_offers_total(const struct norm *n)
{
	return n->flushed + n->n_offers;
}

int norm_flush(struct norm *n, char **err)
{
	if (!n->sink || !n->n_offers)
		return PLANNER_OK;
	int rc = n->sink->put(n->sink->ud, n->offers, n->n_offers, err);
	if (rc == PLANNER_OK) {
		n->flushed += n->n_offers;
		n->n_offers = 0;
	}
	return rc;
}

static void note_unknown(struct norm *n, const char *name, double vram_gib)
{
	char label[96], clean[64];
	text_sanitize(clean, sizeof clean, name, n->key);
	if (vram_gib > 0)
		snprintf(label, sizeof label, "%s (%.0f GiB)", clean, vram_gib);
	else
		snprintf(label, sizeof label, "%s", clean);
	n->unknown_rows++;
	for (size_t i = 0; i < n->n_unknown; i++)
		if (!strcmp(n->unknown[i], label))
			return;
	if (n->n_unknown < NORM_MAX_UNKNOWN) {
		char *copy = strdup(label);
		if (copy)
			n->unknown[n->n_unknown++] = copy;
	}
}

/* The first word of a canonical name that holds a digit ("A100" of
 * "A100 80GB", "4090" of "RTX 4090"): parts that share it differ only in
 * memory or form factor. */
static size_t family(const char *name, const char **start)
{
	const char *p = name;
	while (*p) {
		size_t len = strcspn(p, " ");
		for (size_t i = 0; i < len; i++)
			if (isdigit((unsigned char)p[i])) {
				*start = p;
				return len;
			}
		p += len;
		p += strspn(p, " ");
	}
	*start = name;
	return 0;
}

static bool vram_close(double a, double b)
{
	return fabs(a - b) <= NORM_VRAM_TOLERANCE * b;
}

static const struct gpu_spec *lookup(struct norm *n, const char *name, double vram_gib);

const struct gpu_spec *norm_gpu(struct norm *n, const char *name, double vram_gib)
{
	if (!name || !*name) {
		n->skipped++;
		return NULL;
	}
	if (strlen(name) >= sizeof n->cache[0].name)
		return lookup(n, name, vram_gib);
	for (size_t i = 0; i < NORM_CACHE; i++)
		if (n->cache[i].vram_gib == vram_gib && !strcmp(n->cache[i].name, name) &&
		    n->cache[i].name[0]) {
			if (!n->cache[i].gpu)
				note_unknown(n, name, vram_gib);
			return n->cache[i].gpu;
		}
	const struct gpu_spec *g = lookup(n, name, vram_gib);
	size_t k = n->cache_next++ % NORM_CACHE;
	snprintf(n->cache[k].name, sizeof n->cache[k].name, "%s", name);
	n->cache[k].vram_gib = vram_gib;
	n->cache[k].gpu = g;
	return g;
}

/* Feed spellings of parts schema/gpus.json knows under another name,
 * tried when the alias table has no match. */
static const struct {
	const char *feed;  /* as the feed writes it */
	const char *known; /* a name or alias in schema/gpus.json */
} feed_aliases[] = {
	/* Vast.ai gpu_name of the RTX 4080 SUPER (16 GB): "RTX_4080S" with
	 * 16376 MiB in skypilot-org/skypilot-catalog catalogs/v7/vast/vms.csv
	 * (stored version 00690e7666c7, read 2026-11-30). */
	{"RTX 4080S", "RTX 4080 SUPER"},
	/* Vast.ai gpu_name of the GH200 as issue 11 quotes it (2026-11-30);
	 * not seen in a recorded response (unconfirmed). */
	{"GH200 SXM", "GH200"},
};

/* norm_gpu without the cache. */
static const struct gpu_spec *lookup(struct norm *n, const char *name, double vram_gib)
{
	const struct gpu_spec *g = refdata_gpu(n->ref, name);
	for (size_t i = 0; !g && i < sizeof feed_aliases / sizeof *feed_aliases; i++)
		if (!strcasecmp(name, feed_aliases[i].feed))
			g = refdata_gpu(n->ref, feed_aliases[i].known);
	if (g && (vram_gib <= 0 || vram_close(vram_gib, g->vram_gib)))
		return g;
	if (g) {
		const char *fam, *other;
		size_t fl = family(g->name, &fam);
		const struct gpu_spec *best = NULL;
		for (size_t i = 0; fl && i < n->ref->n_gpus; i++) {
			const struct gpu_spec *c = &n->ref->gpus[i];
			size_t ol = family(c->name, &other);
			if (ol != fl || strncasecmp(fam, other, fl) || !vram_close(vram_gib, c->vram_gib))
				continue;
			if (!best || fabs(c->vram_gib - vram_gib) < fabs(best->vram_gib - vram_gib))
				best = c;
		}
		if (best)
			return best;
	}
	note_unknown(n, name, vram_gib);
	return NULL;
}

/* snprintf(dst, size, "%s", src) without the format's cost: norm_offer
 * runs once per row (issue 16). */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t len = strnlen(src, size - 1);
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* o's country and region group (regions_locate_offer), remembered per
 * region name: they depend on the provider and region only. */
static void locate(struct norm *n, struct offer *o)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a, 64-bit offset basis and prime */
	for (const char *p = o->region; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	size_t k = (size_t)(h % NORM_REGION_CACHE);
	if (o->region[0] && !strcmp(n->places[k].region, o->region)) {
		memcpy(o->country, n->places[k].country, sizeof o->country);
		memcpy(o->region_group, n->places[k].region_group, sizeof o->region_group);
		return;
	}
	regions_locate_offer(o);
	memcpy(n->places[k].region, o->region, sizeof o->region);
	memcpy(n->places[k].country, o->country, sizeof o->country);
	memcpy(n->places[k].region_group, o->region_group, sizeof o->region_group);
}

bool norm_offer(struct norm *n, const struct raw_offer *r)
{
	/* A per-GPU price near DBL_MAX times the count is inf: test the total. */
	double total = r->per_gpu ? r->price * r->gpu_count : r->price;
	if (!r->offer || !*r->offer || r->gpu_count <= 0 || !(r->price > 0) || isnan(total)) {
		n->skipped++;
		return false;
	}
	if (r->gpu_count > NORM_MAX_GPUS_PER_OFFER || !(total <= NORM_MAX_PRICE_PER_HOUR) ||
	    total / r->gpu_count < NORM_MIN_PRICE_PER_GPU_HOUR) {
		n->implausible++;
		return false;
	}
	char id[sizeof n->offers->offer];
	text_sanitize(id, sizeof id, r->offer, n->key);
	if (!*id) { /* nothing but control characters */
		n->implausible++;
		return false;
	}
	const struct gpu_spec *g = norm_gpu(n, r->gpu_name, r->vram_gib);
	if (!g)
		return false;
	if (n->n_offers == n->cap_offers) {
		size_t cap = n->cap_offers ? n->cap_offers * 2 : 64;
		struct offer *o = realloc(n->offers, cap * sizeof *o);
		if (!o) {
			n->oom = true;
			return false;
		}
		n->offers = o;
		n->cap_offers = cap;
	}
	struct offer *o = &n->offers[n->n_offers++];
	memset(o, 0, sizeof *o);
	copy_text(o->provider, sizeof o->provider, n->provider);
	copy_text(o->offer, sizeof o->offer, id);
	text_sanitize(o->region, sizeof o->region, r->region, n->key);
	copy_text(o->gpu, sizeof o->gpu, g->name);
	o->gpu_count = r->gpu_count;
	/* The part decides the memory: feeds round it ("80 GB") or state it
	 * in their own units, and norm_gpu has matched the size already. A
	 * rented CPU's memory is its VM's RAM (local_device_rented). */
	o->vcpus = r->vcpus > 0 && isfinite(r->vcpus) ? r->vcpus : 0;
	o->ram_gib = r->ram_gib > 0 && isfinite(r->ram_gib) ? r->ram_gib : 0;
	o->vram_gib = g->kind == DEVICE_CPU && o->ram_gib > 0 ? o->ram_gib : g->vram_gib;
	o->price_per_hour = total;
	o->spot = r->spot;
	o->available = r->available;
	copy_text(o->fetched_at, sizeof o->fetched_at, n->fetched_at);
	/* The source is the same for every row of a fetch (or a page). */
	if (n->source_key != n->key || strcmp(n->source_raw, n->source)) {
		memcpy(n->source_raw, n->source, sizeof n->source_raw);
		text_sanitize(n->source_clean, sizeof n->source_clean, n->source, n->key);
		n->source_key = n->key;
	}
	copy_text(o->source, sizeof o->source, n->source_clean);
	o->marketplace = !n->own_datacentres && r->host != NORM_HOST_DATACENTRE;
	if (r->tier && *r->tier)
		text_sanitize(o->tier, sizeof o->tier, r->tier, n->key);
	copy_text(o->currency, sizeof o->currency,
	          r->currency && *r->currency ? r->currency : "USD");
	locate(n, o);
	return true;
}

/* Whether the exchange rates know code (EUR, their base, always). */
static bool currency_known(const struct norm *n, const char *code)
{
	double per_eur;
	if (!fx_code_ok(code))
		return false;
	return !strcmp(code, "EUR") || (n->ref && n->ref->fx && fx_per_eur(n->ref->fx, code, &per_eur));
}

bool norm_term(struct norm *n, const struct raw_offer *r, const char *term, const char *option,
               double upfront)
{
	double hours = offer_term_hours(term);
	const char *cur = r->currency && *r->currency ? r->currency : "USD";
	if (!(hours > 0) || !currency_known(n, cur) || !(r->price >= 0) || !isfinite(r->price) ||
	    !(upfront >= 0) || !isfinite(upfront) || r->per_gpu || r->spot) {
		n->skipped++;
		return false;
	}
	if (n->n_terms == n->cap_terms) {
		size_t cap = n->cap_terms ? n->cap_terms * 2 : 16;
		struct offer_term *t = realloc(n->terms, cap * sizeof *t);
		if (!t) {
			n->oom = true;
			return false;
		}
		n->terms = t;
		n->cap_terms = cap;
	}
	struct raw_offer eff = *r;
	eff.price = r->price + upfront / hours;
	/* norm_offer checks and fills the row; it is moved from the offers
	 * at once, before any flush, so no reader of offers sees it. */
	if (!norm_offer(n, &eff))
		return false;
	struct offer_term *t = &n->terms[n->n_terms++];
	memset(t, 0, sizeof *t);
	t->o = n->offers[--n->n_offers];
	copy_text(t->term, sizeof t->term, term);
	text_sanitize(t->option, sizeof t->option, option ? option : "", n->key);
	t->upfront = upfront;
	return true;
}

/* 0 (free), or within [NORM_MIN_PRICE_PER_TOKEN, NORM_MAX_PRICE_PER_TOKEN]. */
static bool api_price_plausible(double per_token)
{
	return per_token == 0 ||
	       (per_token >= NORM_MIN_PRICE_PER_TOKEN && per_token <= NORM_MAX_PRICE_PER_TOKEN);
}

bool norm_api(struct norm *n, const char *model, double in_per_token, double out_per_token,
	      long context)
{
	if (!model || !*model || !(in_per_token >= 0 && isfinite(in_per_token)) ||
	    !(out_per_token >= 0 && isfinite(out_per_token))) {
		n->skipped++;
		return false;
	}
	char id[sizeof n->apis->model];
	text_sanitize(id, sizeof id, model, n->key);
	if (!*id || !api_price_plausible(in_per_token) || !api_price_plausible(out_per_token)) {
		n->implausible++;
		return false;
	}
	if (n->n_apis == n->cap_apis) {
		size_t cap = n->cap_apis ? n->cap_apis * 2 : 64;
		struct api_price *a = realloc(n->apis, cap * sizeof *a);
		if (!a) {
			n->oom = true;
			return false;
		}
		n->apis = a;
		n->cap_apis = cap;
	}
	struct api_price *a = &n->apis[n->n_apis++];
	memset(a, 0, sizeof *a);
	snprintf(a->provider, sizeof a->provider, "%s", n->provider);
	snprintf(a->model, sizeof a->model, "%s", id);
	a->input_per_token = in_per_token;
	a->output_per_token = out_per_token;
	a->context = context > 0 ? context : 0;
	snprintf(a->fetched_at, sizeof a->fetched_at, "%s", n->fetched_at);
	text_sanitize(a->source, sizeof a->source, n->source, n->key);
	snprintf(a->currency, sizeof a->currency, "USD");
	regions_locate_api(a);
	return true;
}

bool norm_number(const char *s, double *v)
{
	if (!s)
		return false;
	while (isspace((unsigned char)*s))
		s++;
	if (!*s)
		return false;
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno == ERANGE || !isfinite(d))
		return false;
	*v = d;
	return true;
}
