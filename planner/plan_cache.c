/* plan_cache.c — store reads and estimates a plan makes once for all its
 * jobs (see plan_cache.h). */
#include "plan_cache.h"

#include <stdint.h>
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

/* A shape of job met (workload_shape: all the estimate reads of a job,
 * besides the configuration), with its estimates. */
struct size_shape {
	struct workload_shape key;
	size_t jobs;            /* jobs of this shape met so far */
	struct size_entry *est; /* by configuration number; n_est of them */
	size_t n_est;
};

/* One configuration's estimate for one shape; for a job with latency
 * targets also its last sizing, which the job's other routes and passes
 * ask for again (the same configuration rented, bought and serverless):
 * kept for the job of memo_job (size_cache's jobs) and memo_max replicas. */
struct size_entry {
	bool done;
	int batch;
	struct speed_est s;
	unsigned long memo_job; /* 0: none */
	int memo_max;
	bool memo_ok;
	struct workload_run memo_run;
	char *memo_why; /* its reason when not ok; NULL: not kept */
};

/* A GPU configuration: n GPUs of kind gpu. */
struct size_config {
	const struct gpu_spec *gpu;
	int n;
};

/* FNV-1a over bytes, continued from h. */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

#define FNV_SEED 1469598103934665603ULL

/* The shape's bytes with the two pointers into its job cleared: model
 * and model_ref stand for one architecture, which the text of model_ref
 * names (workload.h). */
static struct workload_shape shape_bytes(const struct workload_shape *s)
{
	struct workload_shape b;
	memcpy(&b, s, sizeof b);
	b.model = NULL;
	b.model_ref = NULL;
	return b;
}

uint64_t size_cache_key(const struct workload_shape *s)
{
	struct workload_shape b = shape_bytes(s);
	uint64_t h = fnv(FNV_SEED, &b, sizeof b);
	return hash_fmix64(fnv(h, s->model_ref, strlen(s->model_ref)));
}

bool size_cache_same(const struct workload_shape *a, const struct workload_shape *b)
{
	struct workload_shape x = shape_bytes(a), y = shape_bytes(b);
	return !memcmp(&x, &y, sizeof x) && !strcmp(a->model_ref, b->model_ref);
}

/* Doubles the shape slots (from 64) and places every shape again. */
static bool shapes_rehash(struct size_cache *c)
{
	size_t cap = c->shape_cap ? c->shape_cap * 2 : 64;
	size_t *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < c->n_shapes; i++) {
		size_t k = size_cache_key(&c->shapes[i].key) & (cap - 1);
		while (slots[k])
			k = (k + 1) & (cap - 1);
		slots[k] = i + 1;
	}
	free(c->shape_slots);
	c->shape_slots = slots;
	c->shape_cap = cap;
	return true;
}

size_t size_cache_shape(struct size_cache *c, const struct workload *w)
{
	const struct workload_shape *s = &w->shape;
	c->jobs++; /* a new job: the sizings kept are another job's */
	if (!s->model_ref)
		return SIZE_MAX;
	if ((c->n_shapes + 1) * 2 > c->shape_cap && !shapes_rehash(c))
		return SIZE_MAX;
	size_t k = size_cache_key(s) & (c->shape_cap - 1);
	for (; c->shape_slots[k]; k = (k + 1) & (c->shape_cap - 1)) {
		struct size_shape *seen = &c->shapes[c->shape_slots[k] - 1];
		if (size_cache_same(&seen->key, s)) {
			seen->jobs++;
			return c->shape_slots[k] - 1;
		}
	}
	if (c->n_shapes == c->cap_shapes) {
		size_t more = c->cap_shapes ? c->cap_shapes * 2 : 32;
		struct size_shape *grown = realloc(c->shapes, more * sizeof *grown);
		if (!grown)
			return SIZE_MAX;
		c->shapes = grown;
		c->cap_shapes = more;
	}
	struct size_shape *added = &c->shapes[c->n_shapes];
	memcpy(&added->key, s, sizeof added->key);
	added->jobs = 1;
	added->est = NULL;
	added->n_est = 0;
	c->shape_slots[k] = ++c->n_shapes;
	/* A job of a shape met for the first time keeps nothing: a default
	 * request shape follows the job's token split, so most shapes of jobs
	 * given tokens are met once, and their estimates would only fill the
	 * table. A job with latency targets keeps them: its routes estimate
	 * each configuration twice, for its floor and then for its targets
	 * (route_floors). Not with a parallel layout given, which the first
	 * sizing checks (workload_device_size). */
	const struct parallel *l = &s->parallel;
	if (w->job->slo.given && !(l->tp || l->pp || l->dp || l->ep))
		return c->n_shapes - 1;
	return SIZE_MAX;
}

static size_t config_hash(const struct gpu_spec *gpu, int n)
{
	return hash_fmix64(fnv(fnv(FNV_SEED, &gpu, sizeof gpu), &n, sizeof n));
}

/* Doubles the configuration slots (from 256) and places each again. */
static bool configs_rehash(struct size_cache *c)
{
	size_t cap = c->config_cap ? c->config_cap * 2 : 256;
	size_t *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return false;
	for (size_t i = 0; i < c->n_configs; i++) {
		size_t k = config_hash(c->configs[i].gpu, c->configs[i].n) & (cap - 1);
		while (slots[k])
			k = (k + 1) & (cap - 1);
		slots[k] = i + 1;
	}
	free(c->config_slots);
	c->config_slots = slots;
	c->config_cap = cap;
	return true;
}

/* The number of configuration (gpu, n), added when new; SIZE_MAX when out
 * of memory. There are few: the GPUs on offer or to own times their counts. */
static size_t config_of(struct size_cache *c, const struct gpu_spec *gpu, int n)
{
	if ((c->n_configs + 1) * 2 > c->config_cap && !configs_rehash(c))
		return SIZE_MAX;
	size_t k = config_hash(gpu, n) & (c->config_cap - 1);
	for (; c->config_slots[k]; k = (k + 1) & (c->config_cap - 1)) {
		const struct size_config *f = &c->configs[c->config_slots[k] - 1];
		if (f->gpu == gpu && f->n == n)
			return c->config_slots[k] - 1;
	}
	if (c->n_configs == c->cap_configs) {
		size_t more = c->cap_configs ? c->cap_configs * 2 : 64;
		struct size_config *grown = realloc(c->configs, more * sizeof *grown);
		if (!grown)
			return SIZE_MAX;
		c->configs = grown;
		c->cap_configs = more;
	}
	c->configs[c->n_configs] = (struct size_config){.gpu = gpu, .n = n};
	c->config_slots[k] = ++c->n_configs;
	return c->n_configs - 1;
}

/* Shape's estimate of configuration f, the array grown to hold it; NULL
 * when out of memory. */
static struct size_entry *entry_of(struct size_cache *c, size_t shape, size_t f)
{
	struct size_shape *s = &c->shapes[shape];
	if (f >= s->n_est) {
		size_t n = c->cap_configs > f ? c->cap_configs : f + 1;
		struct size_entry *grown = realloc(s->est, n * sizeof *grown);
		if (!grown)
			return NULL;
		memset(grown + s->n_est, 0, (n - s->n_est) * sizeof *grown);
		s->est = grown;
		s->n_est = n;
	}
	return &s->est[f];
}

bool size_cache_size(struct size_cache *c, size_t shape, const struct workload *w,
		     const struct gpu_spec *gpu, int n, int max_replicas, struct workload_run *out,
		     char *why, size_t len)
{
	return size_cache_size_within(c, shape, w, gpu, n, max_replicas, NULL, out, why, len);
}

bool size_cache_size_within(struct size_cache *c, size_t shape, const struct workload *w,
                            const struct gpu_spec *gpu, int n, int max_replicas,
                            const struct size_bound *bound, struct workload_run *out, char *why,
                            size_t len)
{
	size_t f = shape == SIZE_MAX ? SIZE_MAX : config_of(c, gpu, n);
	struct size_entry *e = f == SIZE_MAX ? NULL : entry_of(c, shape, f);
	struct device d = device_from_gpu(gpu, n);
	if (!e)
		return workload_device_size_within(w, &d, max_replicas, bound, out, why, len);
	if (!e->done) {
		workload_shape_estimate(&w->shape, &d, &e->batch, &e->s);
		e->done = true;
		c->n++;
	}
	if (!w->job->slo.given)
		return workload_size_within(w, &d, max_replicas, e->batch, &e->s, bound, out, why,
		                            len);
	if (e->memo_job == c->jobs && e->memo_max == max_replicas &&
	    (e->memo_ok || e->memo_why || !why || !len)) {
		*out = e->memo_run;
		if (!e->memo_ok && why && len)
			snprintf(why, len, "%s", e->memo_why);
		return e->memo_ok;
	}
	bool ok = workload_size_within(w, &d, max_replicas, e->batch, &e->s, bound, out, why, len);
	if (out->beaten)
		return ok; /* not a whole sizing */
	free(e->memo_why);
	e->memo_why = !ok && why && len ? strdup(why) : NULL;
	e->memo_job = c->jobs;
	e->memo_max = max_replicas;
	e->memo_ok = ok;
	e->memo_run = *out;
	return ok;
}

void size_cache_free(struct size_cache *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_shapes; i++) {
		for (size_t k = 0; k < c->shapes[i].n_est; k++)
			free(c->shapes[i].est[k].memo_why);
		free(c->shapes[i].est);
	}
	free(c->shapes);
	free(c->shape_slots);
	free(c->configs);
	free(c->config_slots);
	memset(c, 0, sizeof *c);
}
