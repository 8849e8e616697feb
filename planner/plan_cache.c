/* plan_cache.c — store reads a plan makes once for all its jobs (see
 * plan_cache.h). */
#include "plan_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

void api_cache_free(struct api_cache *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->n; i++) {
		free(a->m[i].model);
		free(a->m[i].rows);
	}
	free(a->m);
	a->m = NULL;
	a->n = 0;
}

int api_cache_prices(struct api_cache *a, struct store *st, const char *model,
		     const struct api_price **rows, size_t *n, char **err)
{
	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->m[i].model, model)) {
			*rows = a->m[i].rows;
			*n = a->m[i].n;
			return PLANNER_OK;
		}
	struct api_models *grown = realloc(a->m, (a->n + 1) * sizeof *grown);
	if (!grown)
		return set_err(err, PLANNER_ESYS, "out of memory");
	a->m = grown;
	struct api_models *e = &a->m[a->n];
	*e = (struct api_models){.model = strdup(model)};
	if (!e->model)
		return set_err(err, PLANNER_ESYS, "out of memory");
	int rc = store_api_prices(st, model, &e->rows, &e->n, err);
	if (rc) {
		free(e->model);
		return rc;
	}
	a->n++;
	*rows = e->rows;
	*n = e->n;
	return PLANNER_OK;
}
