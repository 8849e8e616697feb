/* plan_cache.h — what a plan reads from the store or estimates once and
 * every job shares: the API prices of each model asked for (10,000 jobs of
 * a few models read the same rows 10,000 times before; issue 16), and the
 * batch and speed of each GPU configuration per shape of job. */
#ifndef PLANNER_PLAN_CACHE_H
#define PLANNER_PLAN_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "workload.h"

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

/* The batch and speed of each configuration (workload_shape_estimate),
 * kept per shape of job (struct workload_shape, all the estimate reads of
 * a job: model, precision, engine, task, request shape, KV type, batch
 * setting): jobs of one shape get the same answer for the same GPU and count,
 * so 10,000 jobs of a few dozen shapes estimate each configuration once per
 * shape rather than once per job (issue 16: the estimates were a quarter of
 * compare's time at 10,000 jobs). Shapes and configurations (GPU, count)
 * are numbered through open-addressing tables; each shape keeps its
 * estimates in an array by configuration number, so one job's lookups
 * stay in one small block of memory. */
struct size_cache {
	struct size_shape *shapes; /* each distinct shape met */
	size_t n_shapes, cap_shapes;
	size_t *shape_slots; /* 1 + index into shapes; 0 = empty; shape_cap slots */
	size_t shape_cap;    /* a power of two, at least twice n_shapes */
	struct size_config *configs; /* each GPU and count met, numbered */
	size_t n_configs, cap_configs;
	size_t *config_slots; /* 1 + index into configs; 0 = empty; config_cap slots */
	size_t config_cap;    /* a power of two, at least twice n_configs */
	size_t n;             /* estimates made and kept */
	unsigned long jobs;   /* jobs met (size_cache_shape), numbering their sizings kept */
};

/* The shape of w's job (an index kept by the cache), or SIZE_MAX when its
 * estimates are not kept: for the first job of a shape (most shapes of
 * jobs given tokens are met once: the default request follows the job's
 * token split), or out of memory. size_cache_size then estimates afresh. */
size_t size_cache_shape(struct size_cache *c, const struct workload *w);

/* workload_size of w (whose shape size_cache_shape gave) on n GPUs of kind
 * gpu, estimating each configuration once per shape. Same answers as
 * workload_size. */
bool size_cache_size(struct size_cache *c, size_t shape, const struct workload *w,
		     const struct gpu_spec *gpu, int n, int max_replicas, struct workload_run *out,
		     char *why, size_t len);
/* The same, stopping early at bound (NULL: none; workload.h, struct
 * size_bound). */
bool size_cache_size_within(struct size_cache *c, size_t shape, const struct workload *w,
                            const struct gpu_spec *gpu, int n, int max_replicas,
                            const struct size_bound *bound, struct workload_run *out, char *why,
                            size_t len);
/* Frees what the cache holds (not c itself); accepts NULL. */
void size_cache_free(struct size_cache *c);

/* The cache's key of a shape: a hash of its bytes, model and model_ref
 * read as the text of model_ref (workload.h). s->model_ref must not be
 * NULL. */
uint64_t size_cache_key(const struct workload_shape *s);
/* Whether two shapes are one key: equal bytes and equal model_ref text. */
bool size_cache_same(const struct workload_shape *a, const struct workload_shape *b);

#endif
