/* history.c — price curves over refreshes (see history.h). */
#include "history.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One offer seen in a curve: its price as of the refresh being built. */
struct entry {
	const struct price_point *row; /* the offer's newest row so far */
	double per_gpu;                /* USD per GPU-hour */
	size_t pos;                    /* index in the active list; SIZE_MAX when gone */
};

/* The offers of one curve: a hash of (provider, offer, region, spot) to
 * entries, and the list of those listed now. Every row is one lookup and
 * every step one pass over the listed offers, so a curve costs time linear
 * in its rows plus a sort of the listed prices per refresh (issue 12: the
 * search was quadratic, 112 s for four refreshes of 20,000 offers). */
struct offer_set {
	struct entry *entries; /* one per distinct offer, at most n */
	size_t n_entries;
	size_t *slots;         /* hash slots: entry index + 1, 0 = empty */
	size_t cap;            /* a power of two, at least twice n */
	size_t *active;        /* entry indexes of the offers listed now */
	size_t n_active;
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

static bool same_offer(const struct price_point *a, const struct price_point *b)
{
	return a->spot == b->spot && !strcmp(a->provider, b->provider) &&
	       !strcmp(a->offer, b->offer) && !strcmp(a->region, b->region);
}

/* The entry of row's offer, made (not listed) when new. */
static struct entry *find_entry(struct offer_set *s, const struct price_point *row)
{
	size_t i = (size_t)offer_hash(row) & (s->cap - 1);
	while (s->slots[i] && !same_offer(s->entries[s->slots[i] - 1].row, row))
		i = (i + 1) & (s->cap - 1);
	if (!s->slots[i]) {
		s->entries[s->n_entries] = (struct entry){.row = row, .pos = SIZE_MAX};
		s->slots[i] = ++s->n_entries;
	}
	return &s->entries[s->slots[i] - 1];
}

/* Applies one history row: a price lists the offer, a gone row unlists it. */
static void apply_row(struct offer_set *s, const struct price_point *row)
{
	struct entry *e = find_entry(s, row);
	e->row = row;
	e->per_gpu = row->price_per_hour / (row->gpu_count > 0 ? row->gpu_count : 1);
	size_t id = (size_t)(e - s->entries);
	if (!row->gone && e->pos == SIZE_MAX) {
		e->pos = s->n_active;
		s->active[s->n_active++] = id;
	} else if (row->gone && e->pos != SIZE_MAX) {
		size_t last = s->active[--s->n_active];
		s->active[e->pos] = last;
		s->entries[last].pos = e->pos;
		e->pos = SIZE_MAX;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Adds the step at `at` from the offers listed now (none: no step). */
static void add_step(struct history_curve *c, const struct offer_set *s, double *prices,
		     const char *at)
{
	size_t n = s->n_active;
	if (n == 0)
		return;
	for (size_t k = 0; k < n; k++)
		prices[k] = s->entries[s->active[k]].per_gpu;
	qsort(prices, n, sizeof *prices, cmp_double);
	struct history_step *st = &c->steps[c->n_steps++];
	snprintf(st->at, sizeof st->at, "%s", at);
	st->offers = n;
	st->min = prices[0];
	st->median = n % 2 ? prices[n / 2] : (prices[n / 2 - 1] + prices[n / 2]) / 2;
}

/* Builds the curve of rows[0..n), which all share one GPU. */
static int one_curve(const struct price_point *rows, size_t n, struct history_curve *c, char **err)
{
	struct offer_set s = {0};
	for (s.cap = 16; s.cap < n * 2; s.cap *= 2)
		;
	s.entries = calloc(n, sizeof *s.entries);
	s.slots = calloc(s.cap, sizeof *s.slots);
	s.active = calloc(n, sizeof *s.active);
	double *prices = calloc(n, sizeof *prices);
	c->steps = calloc(n, sizeof *c->steps);
	int rc = PLANNER_OK;
	if (!s.entries || !s.slots || !s.active || !prices || !c->steps) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(c->gpu, sizeof c->gpu, "%s", rows[0].gpu);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		for (; j < n && !strcmp(rows[j].recorded_at, rows[i].recorded_at); j++)
			apply_row(&s, &rows[j]);
		add_step(c, &s, prices, rows[i].recorded_at);
		i = j;
	}
out:
	free(s.entries);
	free(s.slots);
	free(s.active);
	free(prices);
	return rc;
}

int history_curves(const struct price_point *rows, size_t n, struct history_curve **out,
                   size_t *n_out, char **err)
{
	*out = NULL;
	*n_out = 0;
	struct history_curve *curves = calloc(n + 1, sizeof *curves);
	size_t count = 0;
	if (!curves)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j < n && !strcmp(rows[j].gpu, rows[i].gpu))
			j++;
		int rc = one_curve(rows + i, j - i, &curves[count++], err);
		if (rc) {
			history_curves_free(curves, count);
			return rc;
		}
		i = j;
	}
	*out = curves;
	*n_out = count;
	return PLANNER_OK;
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
