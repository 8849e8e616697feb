/* plan_cache.h — what a plan reads from the store once and every job
 * shares: the API prices of each model asked for (10,000 jobs of a few
 * models read the same rows 10,000 times before; issue 16). */
#ifndef PLANNER_PLAN_CACHE_H
#define PLANNER_PLAN_CACHE_H

#include <stddef.h>

#include "store.h"

struct api_cache {
	struct api_models {
		char *model;
		struct api_price *rows;
		size_t n;
	} *m;
	size_t n;
};

/* store_api_prices of model, read once per cache: *rows stay owned by the
 * cache. Returns what store_api_prices returns, or PLANNER_ESYS. */
int api_cache_prices(struct api_cache *a, struct store *st, const char *model,
		     const struct api_price **rows, size_t *n, char **err);
/* Frees what the cache holds (not a itself); accepts NULL. */
void api_cache_free(struct api_cache *a);

#endif
