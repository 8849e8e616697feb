/* history.c — price curves over refreshes (see history.h). */
#include "history.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fx.h"
#include "util.h"

/* One offer listed now in the curve being built: its key, copied (rows
 * are not kept), and its price as of the refresh being built. */
struct entry {
	char provider[32], offer[128], region[64]; /* as struct price_point's */
	bool spot;
	uint64_t hash;  /* offer_hash of the key */
	double per_gpu; /* USD per GPU-hour */
	size_t pos;     /* index in the active list */
};

/* One provider's offers of the GPU being read and the curve they make:
 * a hash of (provider, offer, region, spot) to entries, which are exactly
 * the offers it lists now (a gone row frees its offer's entry for the
 * next new one). Every row is one lookup and every step one pass over the
 * listed offers, so a curve costs time linear in its rows plus a sort of
 * the listed prices per refresh (issue 12: the search was quadratic, 112 s
 * for four refreshes of 20,000 offers), and memory grows with the offers
 * listed at once, not with the rows (issue 16: the rows of 30 refreshes of
 * 50,000 changing offers took 1.1 GB when all were held). One provider's
 * refreshes only (issue 26): the snapshot dates of different providers
 * drew one trend from 3.15 to 1.52 over "4 refreshes" that were four
 * providers' prices. */
struct series {
	size_t curve;          /* its curve in the builder's curves */
	size_t cap_steps;      /* of that curve */
	char at[24];                  /* recorded_at of the step being gathered */
	struct entry *entries;        /* cap_entries; ids in free_ids are unused */
	size_t n_entries, cap_entries;
	size_t *free_ids;             /* cap_entries */
	size_t n_free;
	size_t *active;               /* cap_entries: entry ids listed now */
	size_t n_active;
	double *prices;               /* cap_entries: scratch for a step's sort */
	size_t *slots;                /* hash slots: entry id + 1, 0 = empty */
	size_t cap_slots;             /* a power of two, at least twice n_active */
};

/* The curves built so far and the series of the GPU being read. A GPU's
 * rows come by refresh time, then provider, so each provider's series
 * gathers its own refreshes and closes a step when its next one starts. */
struct history_builder {
	struct history_curve *curves; /* those of the GPU being read are last */
	size_t n_curves, cap_curves;
	struct series *series; /* n_series of the GPU being read; cap_series made */
	size_t n_series, cap_series;
	size_t last; /* the series of the last row */
};

static uint64_t offer_hash(const struct price_point *p)
{
	uint64_t h = 1469598103934665603ULL;
	const char *parts[] = {p->provider, p->offer, p->region};
	for (size_t i = 0; i < 3; i++) {
		for (const char *c = parts[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
		h = (h ^ 0x1f) * 1099511628211ULL;
	}
	return (h ^ (uint64_t)p->spot) * 1099511628211ULL;
}

static bool same_offer(const struct entry *e, const struct price_point *p)
{
	return e->spot == p->spot && !strcmp(e->provider, p->provider) &&
	       !strcmp(e->offer, p->offer) && !strcmp(e->region, p->region);
}

/* The slot of row's offer, or the empty slot where it would go. */
static size_t find_slot(const struct series *b, const struct price_point *row, uint64_t h)
{
	size_t mask = b->cap_slots - 1, i = (size_t)h & mask;
	while (b->slots[i] && !same_offer(&b->entries[b->slots[i] - 1], row))
		i = (i + 1) & mask;
	return i;
}

/* Doubles the hash slots (or makes the first 16), placing every listed
 * offer again. */
static int grow_slots(struct series *b, char **err)
{
	size_t cap = b->cap_slots ? b->cap_slots * 2 : 16;
	size_t *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t k = 0; k < b->n_active; k++) {
		size_t id = b->active[k], i = (size_t)b->entries[id].hash & (cap - 1);
		while (slots[i])
			i = (i + 1) & (cap - 1);
		slots[i] = id + 1;
	}
	free(b->slots);
	b->slots = slots;
	b->cap_slots = cap;
	return PLANNER_OK;
}

/* Doubles the room for entries (and the lists sized by it). */
static int grow_entries(struct series *b, char **err)
{
	size_t cap = b->cap_entries ? b->cap_entries * 2 : 64;
	struct entry *e = realloc(b->entries, cap * sizeof *e);
	if (e)
		b->entries = e;
	size_t *f = realloc(b->free_ids, cap * sizeof *f);
	if (f)
		b->free_ids = f;
	size_t *a = realloc(b->active, cap * sizeof *a);
	if (a)
		b->active = a;
	double *p = realloc(b->prices, cap * sizeof *p);
	if (p)
		b->prices = p;
	if (!e || !f || !a || !p)
		return set_err(err, PLANNER_ESYS, "out of memory");
	b->cap_entries = cap;
	return PLANNER_OK;
}

/* Lists row's offer (new to the set) at slot i; *id its entry. */
static int list_offer(struct series *b, const struct price_point *row, uint64_t h, size_t i,
                      size_t *id, char **err)
{
	int rc;
	if ((b->n_active + 1) * 2 > b->cap_slots) {
		if ((rc = grow_slots(b, err)))
			return rc;
		i = find_slot(b, row, h);
	}
	if (!b->n_free && b->n_entries == b->cap_entries && (rc = grow_entries(b, err)))
		return rc;
	*id = b->n_free ? b->free_ids[--b->n_free] : b->n_entries++;
	struct entry *e = &b->entries[*id];
	snprintf(e->provider, sizeof e->provider, "%s", row->provider);
	snprintf(e->offer, sizeof e->offer, "%s", row->offer);
	snprintf(e->region, sizeof e->region, "%s", row->region);
	e->spot = row->spot;
	e->hash = h;
	e->pos = b->n_active;
	b->active[b->n_active++] = *id;
	b->slots[i] = *id + 1;
	return PLANNER_OK;
}

/* Unlists the offer at slot i: out of the active list, its entry freed,
 * and the slots after it shifted back so no lookup stops short (linear
 * probing's deletion, no tombstones). */
static void unlist_offer(struct series *b, size_t i)
{
	size_t id = b->slots[i] - 1, mask = b->cap_slots - 1;
	size_t last = b->active[--b->n_active];
	b->active[b->entries[id].pos] = last;
	b->entries[last].pos = b->entries[id].pos;
	b->free_ids[b->n_free++] = id;
	b->slots[i] = 0;
	for (size_t j = (i + 1) & mask; b->slots[j]; j = (j + 1) & mask) {
		size_t home = (size_t)b->entries[b->slots[j] - 1].hash & mask;
		/* Stays when its home is cyclically in (i, j]. */
		if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
			continue;
		b->slots[i] = b->slots[j];
		b->slots[j] = 0;
		i = j;
	}
}

/* Applies one history row: a price lists the offer (or reprices it), a
 * gone row unlists it. */
static int apply_row(struct series *b, const struct price_point *row, char **err)
{
	uint64_t h = offer_hash(row);
	size_t i = find_slot(b, row, h);
	int rc;
	if (row->gone) {
		if (b->slots[i])
			unlist_offer(b, i);
		return PLANNER_OK;
	}
	size_t id = b->slots[i] - 1;
	if (!b->slots[i] && (rc = list_offer(b, row, h, i, &id, err)))
		return rc;
	b->entries[id].per_gpu = row->price_per_hour / (row->gpu_count > 0 ? row->gpu_count : 1);
	return PLANNER_OK;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Adds the step at s->at to s's curve from the offers s lists now (none:
 * no step). */
static int add_step(struct history_builder *b, struct series *s, char **err)
{
	struct history_curve *c = &b->curves[s->curve];
	size_t n = s->n_active;
	if (n == 0)
		return PLANNER_OK;
	if (c->n_steps == s->cap_steps) {
		struct history_step *st = grow_array(c->steps, &s->cap_steps, sizeof *st);
		if (!st)
			return set_err(err, PLANNER_ESYS, "out of memory");
		c->steps = st;
	}
	for (size_t k = 0; k < n; k++)
		s->prices[k] = s->entries[s->active[k]].per_gpu;
	qsort(s->prices, n, sizeof *s->prices, cmp_double);
	struct history_step *st = &c->steps[c->n_steps++];
	snprintf(st->at, sizeof st->at, "%s", s->at);
	st->offers = n;
	st->min = s->prices[0];
	st->median = n % 2 ? s->prices[n / 2] : (s->prices[n / 2 - 1] + s->prices[n / 2]) / 2;
	return PLANNER_OK;
}

/* Closes the last step of every series of the GPU being read. */
static int end_gpu(struct history_builder *b, char **err)
{
	int rc = PLANNER_OK;
	for (size_t k = 0; k < b->n_series && rc == PLANNER_OK; k++)
		rc = add_step(b, &b->series[k], err);
	b->n_series = 0;
	return rc;
}

/* Starts the curve of row's GPU at row's provider, and its series with no
 * offer listed (the room of a series made for an earlier GPU is reused). */
static int start_series(struct history_builder *b, const struct price_point *row, char **err)
{
	if (b->n_curves == b->cap_curves) {
		struct history_curve *c = grow_array(b->curves, &b->cap_curves, sizeof *c);
		if (!c)
			return set_err(err, PLANNER_ESYS, "out of memory");
		b->curves = c;
	}
	if (b->n_series == b->cap_series) {
		size_t cap = b->cap_series;
		struct series *s = grow_array(b->series, &cap, sizeof *s);
		if (!s)
			return set_err(err, PLANNER_ESYS, "out of memory");
		memset(s + b->cap_series, 0, (cap - b->cap_series) * sizeof *s);
		b->series = s;
		b->cap_series = cap;
	}
	struct history_curve *c = &b->curves[b->n_curves];
	*c = (struct history_curve){0};
	snprintf(c->gpu, sizeof c->gpu, "%s", row->gpu);
	snprintf(c->provider, sizeof c->provider, "%s", row->provider);
	struct series *s = &b->series[b->n_series];
	s->curve = b->n_curves++;
	s->cap_steps = 0;
	s->at[0] = '\0';
	s->n_entries = s->n_free = s->n_active = 0;
	if (s->slots)
		memset(s->slots, 0, s->cap_slots * sizeof *s->slots);
	b->last = b->n_series++;
	return s->slots ? PLANNER_OK : grow_slots(s, err);
}

/* The series of row's provider in the GPU being read, started if new;
 * NULL with *rc set when out of memory. A refresh's rows come by
 * provider, so the last row's series is nearly always the one. */
static struct series *series_of(struct history_builder *b, const struct price_point *row, int *rc,
                                char **err)
{
	if (b->last < b->n_series &&
	    !strcmp(b->curves[b->series[b->last].curve].provider, row->provider))
		return &b->series[b->last];
	for (size_t k = 0; k < b->n_series; k++)
		if (!strcmp(b->curves[b->series[k].curve].provider, row->provider)) {
			b->last = k;
			return &b->series[k];
		}
	*rc = start_series(b, row, err);
	return *rc ? NULL : &b->series[b->last];
}

int history_builder_new(struct history_builder **out, char **err)
{
	*out = calloc(1, sizeof **out);
	return *out ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory");
}

int history_builder_add(struct history_builder *b, const struct price_point *row, char **err)
{
	int rc = PLANNER_OK;
	bool new_gpu = !b->n_curves || strcmp(row->gpu, b->curves[b->n_curves - 1].gpu);
	if (new_gpu && (rc = end_gpu(b, err)))
		return rc;
	struct series *s = series_of(b, row, &rc, err);
	if (!s)
		return rc;
	if (strcmp(row->recorded_at, s->at)) {
		if (s->at[0] && (rc = add_step(b, s, err)))
		return rc;
		/* once a refresh: snprintf per row was 3 % of the report */
		snprintf(s->at, sizeof s->at, "%s", row->recorded_at);
	}
	return apply_row(s, row, err);
}

/* By GPU, then provider: the order the store's rows have by GPU, and a
 * fixed one for the providers of a GPU. */
static int by_gpu_provider(const void *x, const void *y)
{
	const struct history_curve *a = x, *b = y;
	int c = strcmp(a->gpu, b->gpu);
	return c ? c : strcmp(a->provider, b->provider);
}

int history_builder_finish(struct history_builder *b, struct history_curve **out, size_t *n_out,
			   char **err)
{
	*out = NULL;
	*n_out = 0;
	int rc = end_gpu(b, err);
	if (rc)
		return rc;
	if (b->n_curves > 1)
		qsort(b->curves, b->n_curves, sizeof *b->curves, by_gpu_provider);
	*out = b->curves;
	*n_out = b->n_curves;
	b->curves = NULL;
	b->n_curves = b->cap_curves = 0;
	return PLANNER_OK;
}

void history_builder_free(struct history_builder *b)
{
	if (!b)
		return;
	history_curves_free(b->curves, b->n_curves);
	for (size_t k = 0; k < b->cap_series; k++) {
		struct series *s = &b->series[k];
		free(s->entries);
		free(s->free_ids);
		free(s->active);
		free(s->prices);
		free(s->slots);
	}
	free(b->series);
	free(b);
}

int history_curves(const struct price_point *rows, size_t n, struct history_curve **out,
                   size_t *n_out, char **err)
{
	struct history_builder *b = NULL;
	*out = NULL;
	*n_out = 0;
	int rc = history_builder_new(&b, err);
	for (size_t i = 0; rc == PLANNER_OK && i < n; i++)
		rc = history_builder_add(b, &rows[i], err);
	if (rc == PLANNER_OK)
		rc = history_builder_finish(b, out, n_out, err);
	history_builder_free(b);
	return rc;
}

/* history_load's fold: each row priced in the wanted currency, then into
 * the curves. */
struct load {
	struct history_builder *b;
	const struct fx_table *fx;
	const char *to;
	char *note;
	size_t len, *dropped;
};

static int load_row(const struct price_point *row, void *arg, char **err)
{
	struct load *l = arg;
	struct price_point p = *row;
	if (!fx_convert_point(l->fx, l->to, &p, l->note, l->len)) {
		(*l->dropped)++;
		return PLANNER_OK;
	}
	return history_builder_add(l->b, &p, err);
}

int history_load(struct store *st, const char *gpu, const char *provider,
		 const struct fx_table *fx, const char *to, char *note, size_t len, size_t *dropped,
		 struct history_curve **out, size_t *n_out, char **err)
{
	struct load l = {.fx = fx, .to = to, .note = note, .len = len, .dropped = dropped};
	size_t noted = strlen(note);
	*out = NULL;
	*n_out = 0;
	int rc = history_builder_new(&l.b, err);
	if (rc == PLANNER_OK)
		rc = store_each_price_point(st, gpu, provider, load_row, &l, err);
	if (rc == PLANNER_OK)
		rc = history_builder_finish(l.b, out, n_out, err);
	if (strlen(note) != noted)
		fx_note_date(note, len, fx);
	history_builder_free(l.b);
	return rc;
}

void history_curves_free(struct history_curve *curves, size_t n)
{
	if (!curves)
		return;
	for (size_t i = 0; i < n; i++)
		free(curves[i].steps);
	free(curves);
}

void history_sparkline(const double *v, size_t n, char *buf, size_t len)
{
	/* U+2581 LOWER ONE EIGHTH BLOCK .. U+2588 FULL BLOCK, 3 bytes each. */
	static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
	                                     "\u2585", "\u2586", "\u2587", "\u2588"};
	if (len == 0)
		return;
	buf[0] = '\0';
	double lo = 0, hi = 0;
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || v[i] < lo)
			lo = v[i];
		if (i == 0 || v[i] > hi)
			hi = v[i];
	}
	size_t used = 0;
	for (size_t i = 0; i < n && used + 3 < len; i++) {
		int k = hi > lo ? (int)clamp_llong((v[i] - lo) / (hi - lo) * 7 + 0.5, 0, 7) : 3;
		memcpy(buf + used, blocks[k], 3);
		used += 3;
		buf[used] = '\0';
	}
}
