/* refdata_serverless.c — the serverless offerings of the reference data
 * (schema/serverless.json): per-second worker prices with their sources,
 * each provider's default idle timeout and container start. */
#include <cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "refdata.h"
#include "util.h"

static char *dup_str(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return strdup(cJSON_IsString(v) && v->valuestring ? v->valuestring : "");
}

/* A number, or NAN when null or absent (the provider states none). */
static double num_or_nan(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) ? v->valuedouble : NAN;
}

static int load_rows(const struct refdata *ref, struct serverless_offering *s, const cJSON *rows,
                     char **err)
{
	s->rows = calloc((size_t)cJSON_GetArraySize(rows) + 1, sizeof *s->rows);
	if (!s->rows)
		return set_err(err, PLANNER_ESYS, "out of memory");
	const cJSON *it;
	cJSON_ArrayForEach(it, rows)
	{
		struct serverless_row *r = &s->rows[s->n_rows++];
		const cJSON *gpu = cJSON_GetObjectItemCaseSensitive(it, "gpu");
		r->gpu = cJSON_IsString(gpu) ? refdata_gpu(ref, gpu->valuestring) : NULL;
		r->count = (int)num_or_nan(it, "count");
		r->usd_per_second = num_or_nan(it, "usd_per_second");
		if (!(r->offer = dup_str(it, "offer")))
			return set_err(err, PLANNER_ESYS, "out of memory");
		if (!r->gpu || r->count < 1 || !(r->usd_per_second > 0))
			return set_err(
			    err, PLANNER_EINPUT,
			    "embedded serverless.json: %s %s row %zu needs a known gpu, a "
			    "count and a price above 0",
			    s->provider, s->tier, s->n_rows);
	}
	return PLANNER_OK;
}

int refdata_load_serverless(struct refdata *ref, char **err)
{
	cJSON *root = cJSON_Parse(planner_serverless_json);
	const cJSON *arr = cJSON_GetObjectItemCaseSensitive(root, "providers");
	int rc = PLANNER_OK;
	if (!cJSON_IsArray(arr)) {
		rc = set_err(err, PLANNER_EINPUT, "embedded serverless.json has no providers list");
		goto out;
	}
	ref->serverless = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *ref->serverless);
	if (!ref->serverless) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	const cJSON *it;
	cJSON_ArrayForEach(it, arr)
	{
		struct serverless_offering *s = &ref->serverless[ref->n_serverless++];
		s->provider = dup_str(it, "name");
		s->tier = dup_str(it, "tier");
		s->source = dup_str(it, "source");
		s->scale_to_zero =
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(it, "scale_to_zero"));
		s->idle_timeout_s = num_or_nan(it, "idle_timeout_s");
		s->container_start_s = num_or_nan(it, "container_start_s");
		if (!s->provider || !s->tier || !s->source) {
			rc = set_err(err, PLANNER_ESYS, "out of memory");
			goto out;
		}
		rc = load_rows(ref, s, cJSON_GetObjectItemCaseSensitive(it, "rows"), err);
		if (rc)
			goto out;
	}
out:
	cJSON_Delete(root);
	return rc;
}

void refdata_free_serverless(struct refdata *ref)
{
	if (!ref)
		return;
	for (size_t i = 0; i < ref->n_serverless; i++) {
		struct serverless_offering *s = &ref->serverless[i];
		for (size_t k = 0; k < s->n_rows; k++)
			free(s->rows[k].offer);
		free(s->rows);
		free(s->provider);
		free(s->tier);
		free(s->source);
	}
	free(ref->serverless);
	ref->serverless = NULL;
	ref->n_serverless = 0;
}
