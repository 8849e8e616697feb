/* spec_serve.c — the serving keys of a job (docs/estimation.md,
 * "Serving" and "Capacity"): the request shape, the KV cache type, batch:
 * max and serving: always-on. Their rows are in job_keys (spec_job.c);
 * the values, nested table and checks they use are here. */
#include "spec_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "workload.h"

/* Tokens per sequence when the model states no maximum (as spec_job.c). */
#define MAX_REQUEST_TOKENS 100000000

/* kv_cache: values, indexed by enum kv_cache_type. bf16 is the default of
 * vLLM (--kv-cache-dtype auto: the model's dtype) and llama.cpp (-ctk/-ctv
 * f16, two bytes too); fp8 is vLLM's --kv-cache-dtype fp8 and
 * TensorRT-LLM's FP8 KV cache, one byte per element (vllm-project/vllm,
 * vllm/config.py CacheDType, docs.vllm.ai v0.9-v0.10, read 2026-11-30). */
const char *const spec_kv_cache_names[SPEC_N_KV_CACHE] = {
    [KV_CACHE_BF16] = "bf16",
    [KV_CACHE_FP8] = "fp8",
};
static const double kv_cache_element_bytes[SPEC_N_KV_CACHE] = {
    [KV_CACHE_BF16] = 2.0,
    [KV_CACHE_FP8] = 1.0,
};
const char *const spec_serving_names[SPEC_N_SERVING] = {
    [SERVING_ON_DEMAND] = "on-demand",
    [SERVING_ALWAYS_ON] = "always-on",
    [SERVING_WINDOW] = "window",
};

const char *serving_name(int serving)
{
	return (unsigned)serving < SPEC_N_SERVING ? spec_serving_names[serving] : "?";
}

const char *kv_cache_name(enum kv_cache_type k)
{
	return (unsigned)k < SPEC_N_KV_CACHE ? spec_kv_cache_names[k] : "?";
}

double kv_cache_bytes(enum kv_cache_type k)
{
	return (unsigned)k < SPEC_N_KV_CACHE ? kv_cache_element_bytes[k] : 2.0;
}

static int request_done(struct spec_rd *r)
{
	struct job *j = r->target;
	/* A request of only cached_share keeps the default shape. */
	if (j->request_input + j->request_output == 0 && spec_val(r, "cached_share")->val &&
	    !spec_val(r, "input")->val && !spec_val(r, "output")->val)
		return PLANNER_OK;
	if (j->request_input + j->request_output == 0)
		return yr_fail(&r->c->y, r->map->start_mark,
		               "'request' %s has no tokens; give the mean tokens of one request, "
		               "e.g. {input: 512, output: 256}",
		               r->up->where);
	j->has_request = true;
	return PLANNER_OK;
}

static const struct spec_key request_keys[] = {
    {.name = "input",
     .kind = SPEC_COUNT,
     .offset = offsetof(struct job, request_input),
     .lo = 0,
     .hi = MAX_REQUEST_TOKENS,
     .def_text = "0",
     .example = "input: 512",
     .desc = "Mean prompt tokens of one request."},
    {.name = "output",
     .kind = SPEC_COUNT,
     .offset = offsetof(struct job, request_output),
     .lo = 0,
     .hi = MAX_REQUEST_TOKENS,
     .def_text = "0",
     .example = "output: 256",
     .desc = "Mean tokens one request generates."},
    {.name = "cached_share",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job, cached_share),
     .lo = 0,
     .hi = 1,
     .def_text = "0",
     .example = "cached_share: 0.6",
     .desc = "Share of input tokens read from a prompt cache (a shared system prompt, a "
             "long document asked again). The api route bills them at the host's cached-"
             "input price where its feed lists one (else at the full input price) and the "
             "rest at its cache-write price where listed, on the assumption that each "
             "uncached input token is written to the cache once; engines with prefix "
             "caching (vllm, sglang) skip their prefill, which cuts GPU hours, not the "
             "price per hour."},
};

const struct spec_table spec_request = {
    .intro = "The mean request the job serves; input and output together must not be 0 and "
             "must fit in context. A decode step attends on average to input + output / 2 "
             "tokens of each sequence, which sizes the KV cache read per step and, with "
             "batch: max, the batch.",
    .keys = request_keys,
    .n = sizeof request_keys / sizeof *request_keys,
    .where = "in request of ",
    .done = request_done,
};

/* Most seconds serverless: takes: a day. */
#define MAX_SERVERLESS_SECONDS 86400

/* The given keys of serverless: replace the provider's defaults. */
static int serverless_done(struct spec_rd *r)
{
	struct job *j = r->target;
	j->has_idle_timeout = spec_val(r, "idle_timeout_s")->val != NULL;
	j->has_cold_start = spec_val(r, "cold_start_s")->val != NULL;
	return PLANNER_OK;
}

static const struct spec_key serverless_keys[] = {
    {.name = "idle_timeout_s",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job, idle_timeout_s),
     .lo = 0,
     .hi = MAX_SERVERLESS_SECONDS,
     .def_text = "the provider's (RunPod: 5)",
     .example = "idle_timeout_s: 60",
     .desc = "Seconds an idle worker waits for the next request before it scales down; "
             "billed, and a gap between requests longer than it costs a cold start."},
    {.name = "cold_start_s",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job, cold_start_s),
     .lo = 0,
     .hi = MAX_SERVERLESS_SECONDS,
     .def_text = "the provider's container start + the weights' GiB at 1 GiB/s",
     .example = "cold_start_s: 40",
     .desc = "Billed seconds of one cold start, as measured on your own endpoint."},
};

const struct spec_table spec_serverless = {
    .intro = "How the serverless route bills the job (docs/estimation.md, \"Serverless\"): "
             "each key replaces the provider's default.",
    .keys = serverless_keys,
    .n = sizeof serverless_keys / sizeof *serverless_keys,
    .where = "in serverless of ",
    .done = serverless_done,
};

/* A whole number of sequences, or max: the largest batch that fits
 * beside the weights on each configuration (workload_batch). */
int spec_read_batch(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	long x = 0;
	if (yr_is_text(kv->val) && !strcasecmp(yr_sval(kv->val), "max")) {
		if (j->task != TASK_INFERENCE)
			return yr_fail(
			    &r->c->y, kv->val->start_mark,
			    "batch: max %s is for serving; %s trains a fixed batch, give "
			    "e.g. batch: 4",
			    r->where, task_name(j->task));
		j->batch_max = true;
		j->batch = 1; /* one sequence must fit; the batch grows per GPU */
		return PLANNER_OK;
	}
	int rc = yr_get_int(&r->c->y, kv, r->where, k->example, (long)k->lo, (long)k->hi, &x);
	if (rc == PLANNER_OK)
		j->batch = (int)x;
	return rc;
}

/* A whole number of tokens, with the suffixes `fit --context` takes
 * ("32K" is 32768). */
int spec_read_context(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	char d[64];
	double v = 0;
	int rc = yr_check_numeral(&r->c->y, kv, r->where);
	if (rc != PLANNER_OK)
		return rc;
	if (!yr_is_text(kv->val) || !parse_context(yr_sval(kv->val), &v) || v != floor(v))
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "'context' %s must be a whole number of tokens, got %s; write e.g. "
		               "context: 8192 or context: 32K",
		               r->where, yr_describe(kv->val, d, sizeof d));
	rc = yr_check_range(&r->c->y, kv, r->where, v, k->lo, k->hi);
	if (rc == PLANNER_OK)
		j->context = (long)v;
	return rc;
}

/* After context and tokens_per_month: the request shape, given or the
 * default (the whole context, split as the month's tokens are). */
int spec_check_request(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	double in = j->request_input, out = j->request_output;
	if (!j->has_request) {
		double tot = j->input_tokens + j->output_tokens;
		double share = j->has_tokens && tot > 0 ? j->input_tokens / tot : 1.0;
		j->request_input = j->context * share;
		j->request_output = j->context - j->request_input;
		return PLANNER_OK;
	}
	if (in + out > j->context)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "request of %.0f tokens %s is longer than context %ld; raise "
		               "context to at least %.0f or shorten the request",
		               in + out, r->where, j->context, ceil(in + out));
	return PLANNER_OK;
}

/* The key `name` of the job's schedule: mapping, or NULL. */
static yaml_node_t *schedule_key(struct spec_rd *r, const char *name)
{
	yaml_node_t *m = spec_val(r, "schedule")->val;
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *key = yaml_document_get_node(&r->c->y.doc, p->key);
		if (key && yr_is_text(key) && !strcmp(yr_sval(key), name))
			return key;
	}
	return NULL;
}

/* serving: window is up every hour of the window on its days: its hours
 * are the window's in the nominal month, and a deadline or run lengths
 * would leave hours of the window without the service. */
static int serve_window(struct spec_rd *r, const struct keyed *kv)
{
	static const char *const refused[] = {"deadline", "min_run", "max_run"};
	struct job *j = r->target;
	const char *how = kv->val ? "serving: window" : "an interactive usage (serving: window)";
	for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
		yaml_node_t *at = schedule_key(r, refused[i]);
		if (at)
			return yr_fail(&r->c->y, at->start_mark,
			               "%s %s is up every hour of its window, so schedule.%s does "
			               "not apply; remove %s, or write serving: on-demand",
			               how, r->where, refused[i], refused[i]);
	}
	const struct keyed *hours = spec_val(r, "hours_per_month");
	double up = schedule_month_hours(&j->sched);
	if (hours->val)
		return yr_fail(&r->c->y, hours->key->start_mark,
		               "%s %s is up its window's %g h a month; remove hours_per_month or "
		               "serving",
		               how, r->where, round_to(up, 1));
	j->has_hours = true;
	j->hours_per_month = up;
	return PLANNER_OK;
}

/* serving: always-on is up all month: hours_per_month is 744, given or
 * not. window is up the window's hours. Without serving:, an interactive
 * usage is window when its schedule leaves hours out, else always-on:
 * people wait on it during those hours, whatever its tokens take. */
int spec_check_serving(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	if (!kv->val && j->usage.interactive) {
		bool all = schedule_month_hours(&j->sched) >= HOURS_PER_MONTH;
		j->serving = all ? SERVING_ALWAYS_ON : SERVING_WINDOW;
		j->serving_implied = true;
	}
	if (j->serving == SERVING_WINDOW)
		return serve_window(r, kv);
	if (j->serving != SERVING_ALWAYS_ON) {
		if (j->has_hours && j->hours_per_month >= HOURS_PER_MONTH)
			j->serving = SERVING_ALWAYS_ON; /* up every hour of the month */
		j->always_on = j->serving == SERVING_ALWAYS_ON;
		return PLANNER_OK;
	}
	j->always_on = true;
	if (j->has_hours && j->hours_per_month < HOURS_PER_MONTH)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "serving: always-on %s is up %g h a month, but hours_per_month "
		               "says %g; remove hours_per_month or serving",
		               r->where, HOURS_PER_MONTH, j->hours_per_month);
	j->has_hours = true;
	j->hours_per_month = HOURS_PER_MONTH;
	return PLANNER_OK;
}
