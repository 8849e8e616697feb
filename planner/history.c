/* history.c — price curves over refreshes (see history.h). */
#include "history.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One offer's price as of the refresh being built. */
struct current {
	const struct price_point *row; /* the offer's newest row so far */
	double per_gpu;                /* USD per GPU-hour */
};

static bool same_offer(const struct price_point *a, const struct price_point *b)
{
	return a->spot == b->spot && !strcmp(a->provider, b->provider) &&
	       !strcmp(a->offer, b->offer) && !strcmp(a->region, b->region);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Builds the curve of rows[0..n), which all share one GPU. */
static int one_curve(const struct price_point *rows, size_t n, struct history_curve *c, char **err)
{
	struct current *cur = calloc(n, sizeof *cur);
	double *prices = calloc(n, sizeof *prices);
	c->steps = calloc(n, sizeof *c->steps);
	size_t n_cur = 0;
	int rc = PLANNER_OK;
	if (!cur || !prices || !c->steps) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	snprintf(c->gpu, sizeof c->gpu, "%s", rows[0].gpu);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		for (; j < n && !strcmp(rows[j].recorded_at, rows[i].recorded_at); j++) {
			size_t k = 0;
			while (k < n_cur && !same_offer(cur[k].row, &rows[j]))
				k++;
			if (k == n_cur)
				n_cur++;
			cur[k].row = &rows[j];
			cur[k].per_gpu = rows[j].price_per_hour /
			                 (rows[j].gpu_count > 0 ? rows[j].gpu_count : 1);
		}
		for (size_t k = 0; k < n_cur; k++)
			prices[k] = cur[k].per_gpu;
		qsort(prices, n_cur, sizeof *prices, cmp_double);
		struct history_step *s = &c->steps[c->n_steps++];
		snprintf(s->at, sizeof s->at, "%s", rows[i].recorded_at);
		s->offers = n_cur;
		s->min = prices[0];
		s->median =
		    n_cur % 2 ? prices[n_cur / 2] : (prices[n_cur / 2 - 1] + prices[n_cur / 2]) / 2;
		i = j;
	}
out:
	free(cur);
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
