/* offer_index.c — the offers of one plan grouped by reference GPU, memory
 * per GPU and GPU count, each group's offers cheapest first (see
 * offer_index.h). */
#include "offer_index.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local_device.h"
#include "util.h"

/* One offer as the sort sees it. */
struct entry {
	const struct gpu_spec *gpu;
	double vram; /* per GPU: the offer's, else the reference's */
	double vcpus; /* a rented CPU's vCPUs (its share of the socket); 0 for a GPU */
	int count;
	double price;
	size_t idx;
};

static int key_cmp(const struct entry *a, const struct entry *b)
{
	uintptr_t ga = (uintptr_t)a->gpu, gb = (uintptr_t)b->gpu;
	if (ga != gb)
		return ga < gb ? -1 : 1;
	if (a->vram != b->vram)
		return a->vram < b->vram ? -1 : 1;
	if (a->count != b->count)
		return a->count < b->count ? -1 : 1;
	if (a->vcpus != b->vcpus)
		return a->vcpus < b->vcpus ? -1 : 1;
	return 0;
}

static int idx_cmp(const struct entry *a, const struct entry *b)
{
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static int by_index_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = key_cmp(a, b);
	return c ? c : idx_cmp(a, b);
}

/* The group key, then the price, then the index: a total order, so qsort's
 * instability does not matter. */
static int by_price_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = key_cmp(a, b);
	if (c)
		return c;
	if (a->price != b->price)
		return a->price < b->price ? -1 : 1;
	return idx_cmp(a, b);
}

/* Counts the groups of e[0..n) (sorted by key) and fills x->groups. */
static int fill_groups(struct offer_index *x, const struct entry *e, size_t n, char **err)
{
	size_t groups = 0;
	for (size_t i = 0; i < n; i++)
		groups += i == 0 || key_cmp(&e[i - 1], &e[i]) != 0;
	x->groups = calloc(groups + 1, sizeof *x->groups);
	if (!x->groups)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (i > 0 && key_cmp(&e[i - 1], &e[i]) == 0) {
			x->groups[x->n_groups - 1].n++;
			continue;
		}
		struct offer_group *g = &x->groups[x->n_groups++];
		g->gpu = e[i].gpu;
		g->sized = *e[i].gpu;
		g->sized.vram_gib = e[i].vram;
		/* A rented CPU is its VM's share of the socket (checked below). */
		if (e[i].vcpus > 0)
			local_device_rented(e[i].gpu, e[i].vcpus, e[i].vram, &g->sized);
		g->count = e[i].count;
		g->first = i;
		g->n = 1;
	}
	return PLANNER_OK;
}

int offer_index_build(struct offer_index *x, const struct refdata *ref, const struct offer *offers,
		      size_t n, char **err)
{
	memset(x, 0, sizeof *x);
	x->offers = offers;
	x->n_offers = n;
	struct entry *e = calloc(n + 1, sizeof *e);
	x->by_price = calloc(n + 1, sizeof *x->by_price);
	x->by_index = calloc(n + 1, sizeof *x->by_index);
	int rc = PLANNER_OK;
	if (!e || !x->by_price || !x->by_index) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	size_t m = 0;
	const struct gpu_spec *last = NULL;
	for (size_t i = 0; i < n; i++) {
		const struct offer *o = &offers[i];
		/* Feeds list one GPU many times in a row: reuse the last lookup. */
		const struct gpu_spec *g = i > 0 && last && !strcmp(o->gpu, offers[i - 1].gpu)
						   ? last
						   : refdata_gpu(ref, o->gpu);
		last = g;
		/* A CPU offer without its vCPUs, or of a part no cloud is
		 * known to sell, cannot be sized: as unknown as a GPU the
		 * reference lacks. */
		struct gpu_spec vm;
		if (!g || (g->kind == DEVICE_CPU &&
		           !local_device_rented(g, o->vcpus, o->vram_gib, &vm))) {
			x->unknown++;
			continue;
		}
		e[m++] = (struct entry){.gpu = g,
					.vram = o->vram_gib > 0 ? o->vram_gib : g->vram_gib,
					.vcpus = g->kind == DEVICE_CPU ? o->vcpus : 0,
					.count = o->gpu_count,
					.price = o->price_per_hour,
					.idx = i};
	}
	qsort(e, m, sizeof *e, by_index_cmp);
	for (size_t i = 0; i < m; i++)
		x->by_index[i] = e[i].idx;
	qsort(e, m, sizeof *e, by_price_cmp);
	for (size_t i = 0; i < m; i++)
		x->by_price[i] = e[i].idx;
	for (size_t i = 0; i < m; i++)
		x->n_joinable += offers[e[i].idx].fabric[0] != '\0';
	x->joinable = calloc(x->n_joinable + 1, sizeof *x->joinable);
	if (!x->joinable) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	for (size_t i = 0, k = 0; i < m; i++)
		if (offers[e[i].idx].fabric[0])
			x->joinable[k++] = e[i].idx;
	rc = fill_groups(x, e, m, err);
out:
	free(e);
	if (rc)
		offer_index_free(x);
	return rc;
}

void offer_index_free(struct offer_index *x)
{
	if (!x)
		return;
	for (size_t i = 0; i < x->n_hits; i++) {
		free(x->hits[i].cheapest);
		free(x->hits[i].first);
	}
	free(x->hits);
	free(x->by_price);
	free(x->joinable);
	free(x->by_index);
	free(x->groups);
	memset(x, 0, sizeof *x);
}

static bool same_filters(const struct offer_hits *h, const struct workload *w, char *const *regions,
			 size_t n_regions, unsigned hosting)
{
	if (h->hosting != hosting || h->interruptible != w->job->interruptible ||
	    h->any_accelerator != w->job->any_accelerator || !h->regions != !regions ||
	    h->n_regions != n_regions)
		return false;
	for (size_t i = 0; regions && i < n_regions; i++)
		if (strcmp(h->regions[i], regions[i]))
			return false;
	return true;
}

/* The first offer of order[from .. from + n) that w may rent, else OFFER_NONE. */
static size_t first_allowed(const struct offer_index *x, const struct offer_group *g,
			    const size_t *order, const struct workload *w, unsigned hosting)
{
	for (size_t k = g->first; k < g->first + g->n; k++) {
		const struct offer *o = &x->offers[order[k]];
		if (workload_hosting_allowed(hosting, o->marketplace) &&
		    workload_rental_allowed(w, o->provider, g->gpu, o->spot) &&
		    workload_region_allowed(w, o->region, o->country, o->region_group))
			return order[k];
	}
	return OFFER_NONE;
}

int offer_index_hits(struct offer_index *x, const struct workload *w, unsigned hosting,
		     const struct offer_hits **out, char **err)
{
	char *const *regions = w->job->regions ? w->job->regions : w->spec->regions;
	size_t n_regions = w->job->regions ? w->job->n_regions : w->spec->n_regions;
	for (size_t i = 0; i < x->n_hits; i++)
		if (same_filters(&x->hits[i], w, regions, n_regions, hosting)) {
			*out = &x->hits[i];
			return PLANNER_OK;
		}
	struct offer_hits *grown = realloc(x->hits, (x->n_hits + 1) * sizeof *grown);
	if (!grown)
		return set_err(err, PLANNER_ESYS, "out of memory");
	x->hits = grown;
	struct offer_hits *h = &x->hits[x->n_hits];
	*h = (struct offer_hits){.interruptible = w->job->interruptible,
				 .any_accelerator = w->job->any_accelerator,
				 .regions = regions,
				 .n_regions = n_regions,
				 .hosting = hosting,
				 .cheapest = calloc(x->n_groups + 1, sizeof *h->cheapest),
				 .first = calloc(x->n_groups + 1, sizeof *h->first)};
	if (!h->cheapest || !h->first) {
		free(h->cheapest);
		free(h->first);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	x->n_hits++;
	for (size_t g = 0; g < x->n_groups; g++) {
		h->cheapest[g] = first_allowed(x, &x->groups[g], x->by_price, w, hosting);
		h->first[g] = first_allowed(x, &x->groups[g], x->by_index, w, hosting);
	}
	*out = h;
	return PLANNER_OK;
}

static size_t kind_hash(const char *k)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *k; k++)
		h = (h ^ (unsigned char)*k) * 1099511628211ULL;
	return (size_t)h;
}

/* Where key is, or the empty slot where it would go. */
static size_t kind_slot(const struct offer_kinds *k, const char *key)
{
	size_t i = kind_hash(key) & (k->cap - 1);
	while (k->keys[i] && strcmp(k->keys[i], key))
		i = (i + 1) & (k->cap - 1);
	return i;
}

static int kinds_grow(struct offer_kinds *k, char **err)
{
	struct offer_kinds bigger = {.cap = k->cap ? k->cap * 2 : 256, .n = k->n};
	bigger.keys = calloc(bigger.cap, sizeof *bigger.keys);
	bigger.ids = calloc(bigger.cap, sizeof *bigger.ids);
	if (!bigger.keys || !bigger.ids) {
		free(bigger.keys);
		free(bigger.ids);
		return set_err(err, PLANNER_ESYS, "out of memory");
	}
	for (size_t i = 0; i < k->cap; i++)
		if (k->keys[i]) {
			size_t j = kind_slot(&bigger, k->keys[i]);
			bigger.keys[j] = k->keys[i];
			bigger.ids[j] = k->ids[i];
		}
	free(k->keys);
	free(k->ids);
	*k = bigger;
	return PLANNER_OK;
}

int offer_kinds_add(struct offer_kinds *k, const struct offer *o, size_t *kind, bool *first,
		    char **err)
{
	char key[sizeof o->gpu + sizeof o->provider + sizeof o->region + sizeof o->country +
		 sizeof o->region_group + sizeof o->currency + 2 * 6 +
		 2 * (sizeof(double) + sizeof(int) + 2) + 1];
	/* Each text after its length in two hex digits (every field is under
	 * 256 bytes), so no two kinds share a key; then the memory, count,
	 * spot and marketplace as the hex of their bytes. snprintf was a tenth of reading
	 * 100,000 rows. */
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	const char *texts[] = {o->gpu, o->provider, o->region, o->country, o->region_group,
			       o->currency};
	for (size_t t = 0; t < sizeof texts / sizeof *texts; t++) {
		size_t len = strlen(texts[t]);
		key[n++] = hex[len >> 4 & 15];
		key[n++] = hex[len & 15];
		memcpy(key + n, texts[t], len);
		n += len;
	}
	unsigned char raw[sizeof(double) + sizeof(int) + 2];
	memcpy(raw, &o->vram_gib, sizeof(double));
	memcpy(raw + sizeof(double), &o->gpu_count, sizeof(int));
	raw[sizeof raw - 2] = o->spot;
	raw[sizeof raw - 1] = o->marketplace;
	for (size_t b = 0; b < sizeof raw; b++) {
		key[n++] = hex[raw[b] >> 4];
		key[n++] = hex[raw[b] & 15];
	}
	key[n] = '\0';
	*first = false;
	if (k->cap) {
		size_t i = kind_slot(k, key);
		if (k->keys[i]) {
			*kind = k->ids[i];
			return PLANNER_OK;
		}
	}
	if ((k->n + 1) * 2 > k->cap) {
		int rc = kinds_grow(k, err);
		if (rc)
			return rc;
	}
	size_t i = kind_slot(k, key);
	if (!(k->keys[i] = strdup(key)))
		return set_err(err, PLANNER_ESYS, "out of memory");
	*kind = k->ids[i] = k->n++;
	*first = true;
	return PLANNER_OK;
}

void offer_kinds_free(struct offer_kinds *k)
{
	if (!k)
		return;
	for (size_t i = 0; k->keys && i < k->cap; i++)
		free(k->keys[i]);
	free(k->keys);
	free(k->ids);
	memset(k, 0, sizeof *k);
}
