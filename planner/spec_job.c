/* spec_job.c — the rows of one job of the spec and of its nested
 * tokens_per_month: mapping (spec_table.h), with the checks a row's kind
 * cannot express. Its schedule: rows are in spec_schedule.c, run: in
 * spec_run.c. */
#include "spec_table.h"

#include <ctype.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "vram.h"
#include "workload.h"

/* A job cannot ask one month for more GPU time than the longest month
 * (HOURS_PER_MONTH, workload.h), and no run can be longer. */
/* Concurrent sequences; above this it is a typo, not a serving setup
 * (vLLM's default max_num_seqs is 256). */
#define MAX_BATCH       4096
#define DEFAULT_CONTEXT 4096
/* Tokens per sequence when the model states no maximum; 100M is beyond
 * any model's context window. */
#define MAX_CONTEXT 100000000
/* Tokens per month: 1e15 is ~370 million tokens a second all month, far
 * beyond any one workload; anything larger is a typo. */
#define MAX_TOKENS_PER_MONTH 1e15
#define MAX_NAME_LEN         128
#define DEFAULT_PRECISION    "bf16"


static const char *const hosting_names[] = {"marketplace", "datacenter"};

unsigned job_hosting(const struct job *j)
{
	if (j->hosting)
		return j->hosting;
	return j->data == DATA_CONFIDENTIAL ? HOSTING_DATACENTER : HOSTING_ALL;
}

/* One word of hosting: into *mask. */
static int read_hosting_word(struct spec_rd *r, yaml_node_t *n, unsigned *mask)
{
	char d[64];
	struct yr *y = &r->c->y;
	if (!yr_is_text(n))
		return yr_fail(y, n->start_mark,
		               "'hosting' %s has %s; write hosting: [marketplace, datacenter]",
		               r->where, yr_describe(n, d, sizeof d));
	for (size_t i = 0; i < NELEM(hosting_names); i++)
		if (!strcasecmp(yr_sval(n), hosting_names[i])) {
			*mask |= 1u << i;
			return PLANNER_OK;
		}
	const char *s = nearest_name(yr_sval(n), hosting_names, NELEM(hosting_names));
	if (s)
		return yr_fail(y, n->start_mark, "unknown hosting '%s' %s; did you mean '%s'?",
		               yr_sval(n), r->where, s);
	return yr_fail(y, n->start_mark,
	               "unknown hosting '%s' %s; use marketplace, datacenter or both",
	               yr_sval(n), r->where);
}

/* hosting: one word or a list of marketplace and datacenter. */
static int read_hosting(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct yr *y = &r->c->y;
	yaml_node_t *n = kv->val;
	unsigned mask = 0;
	if (n->type != YAML_SEQUENCE_NODE) {
		if (read_hosting_word(r, n, &mask) != PLANNER_OK)
			return PLANNER_EINPUT;
	} else {
		size_t len = yr_seq_len(n);
		if (len == 0 || len > NELEM(hosting_names))
			return yr_fail(y, n->start_mark,
			               "'hosting' %s has %zu entries; list marketplace, datacenter "
			               "or both, each once",
			               r->where, len);
		for (size_t i = 0; i < len; i++) {
			yaml_node_t *it = yr_visit(y, n->data.sequence.items.start[i], n->start_mark);
			if (!it || read_hosting_word(r, it, &mask) != PLANNER_OK)
				return PLANNER_EINPUT;
		}
	}
	*(unsigned *)spec_field(r, k) = mask;
	return PLANNER_OK;
}

const char *const jobspec_task_names[] = {
    [TASK_INFERENCE] = "inference",
    [TASK_FINETUNE_LORA] = "finetune-lora",
    [TASK_FINETUNE_QLORA] = "finetune-qlora",
    [TASK_FINETUNE_FULL] = "finetune-full",
};
const size_t jobspec_n_task_names = NELEM(jobspec_task_names);

const char *const jobspec_data_names[] = {
    [DATA_PUBLIC] = "public",
    [DATA_CONFIDENTIAL] = "confidential",
    [DATA_RESTRICTED] = "restricted",
};
const size_t jobspec_n_data_names = NELEM(jobspec_data_names);

static const char *const accel_names[] = {"nvidia", "any"};

/* ---- tokens_per_month -------------------------------------------------- */

static int tokens_done(struct spec_rd *r)
{
	struct job *j = r->target;
	if (j->input_tokens + j->output_tokens == 0)
		return yr_fail(&r->c->y, r->map->start_mark,
		               "'tokens_per_month' %s has no tokens; give e.g. {input: 200M, "
		               "output: 40M}, or remove it and give hours_per_month",
		               r->up->where);
	j->has_tokens = true;
	return PLANNER_OK;
}

static const struct spec_key token_keys[] = {
    {.name = "input",
     .kind = SPEC_COUNT,
     .offset = offsetof(struct job, input_tokens),
     .lo = 0,
     .hi = MAX_TOKENS_PER_MONTH,
     .def_text = "0",
     .example = "input: 200M",
     .desc = "Prompt tokens the job reads in a month."},
    {.name = "output",
     .kind = SPEC_COUNT,
     .offset = offsetof(struct job, output_tokens),
     .lo = 0,
     .hi = MAX_TOKENS_PER_MONTH,
     .def_text = "0",
     .example = "output: 40M",
     .desc = "Tokens the job generates in a month."},
};

static const struct spec_table token_table = {
    .intro = "The job's monthly token volume; input and output together must not be 0. It "
             "prices the API route, and gives the GPU hours (from the estimated speed) when "
             "hours_per_month is not given.",
    .keys = token_keys,
    .n = NELEM(token_keys),
    .where = "in tokens_per_month of ",
    .done = tokens_done,
};

/* ---- the job ----------------------------------------------------------- */

/* The job's name as written, if it has a text one, for messages that come
 * before the name itself is checked. Does not mark anything visited. */
static int job_begin(struct spec_rd *r)
{
	yaml_node_t *map = r->map;
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(&r->c->y.doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&r->c->y.doc, p->value);
		if (k && v && yr_is_text(k) && !strcmp(yr_sval(k), "name") && yr_is_text(v) &&
		    *yr_sval(v) && strlen(yr_sval(v)) <= MAX_NAME_LEN &&
		    yr_text_clean(yr_sval(v))) {
			snprintf(r->where, sizeof r->where, "in job '%s'", yr_sval(v));
			break;
		}
	}
	return PLANNER_OK;
}

/* A short printable name, unique in the spec; names the job from here on. */
static int check_name(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	const struct jobspec *sp = r->c->spec;
	const struct job *j = r->target;
	bool ok = *j->name && strlen(j->name) <= MAX_NAME_LEN;
	for (const char *p = j->name; ok && *p; p++)
		ok = !iscntrl((unsigned char)*p);
	if (!ok)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "job name %s is empty, too long or has control characters; use a "
		               "short name of up to %d characters",
		               yr_describe(kv->val, d, sizeof d), MAX_NAME_LEN);
	size_t first;
	if (!name_index_add(&r->c->job_names, j->name, r->index, &first))
		return yr_oom(&r->c->y);
	if (first != SIZE_MAX)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "duplicate job name '%s' (first on line %d); give each job "
		               "its own name",
		               j->name, sp->jobs[first].pos.line);
	snprintf(r->where, sizeof r->where, "in job '%s'", j->name);
	snprintf(r->who, sizeof r->who, "job '%s'", j->name);
	return PLANNER_OK;
}

static bool is_model_path(const char *s)
{
	size_t l = strlen(s);
	return strchr(s, '/') || (l >= 5 && !strcasecmp(s + l - 5, ".json"));
}

/* A config.json path, relative to the spec's directory. */
static int model_config(struct spec_rd *r, const struct keyed *kv, struct job *j)
{
	struct ctx *c = r->c;
	const char *id = j->model_ref;
	char *path = *id == '/' ? strdup(id) : xasprintf("%s/%s", c->dir, id);
	char *e = NULL;
	if (!path)
		return yr_oom(&c->y);
	int rc = model_from_config(path, &j->model, &e);
	if (rc != PLANNER_OK)
		rc = yr_fail(&c->y, kv->val->start_mark,
		             "cannot read model config '%s' %s (%s); give a reference model "
		             "id or the "
		             "path of a Hugging Face config.json, relative to this file",
		             id, r->where, e ? e : "unknown error");
	free(e);
	free(path);
	return rc;
}

/* model_ref → the model's architecture, from the reference or a config. */
static int check_model(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	const char *id = j->model_ref;
	j->model_pos = (struct src_pos){(int)kv->val->start_mark.line + 1,
	                                (int)kv->val->start_mark.column + 1};
	if (is_model_path(id))
		return model_config(r, kv, j);
	const struct model_spec *m = refdata_model(r->c->ref, id);
	if (m)
		return model_spec_copy(&j->model, m) ? PLANNER_OK : yr_oom(&r->c->y);
	char advice[320];
	return yr_fail(&r->c->y, kv->val->start_mark, "unknown model '%s' %s; %s", id, r->where,
	               refdata_model_advice(r->c->ref, id, advice, sizeof advice));
}

/* The precision as written → its canonical name. */
static int check_precision(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	const struct precision_info *pi = precision_find(j->precision);
	if (!pi) {
		char names[1024], hint[1280];
		return yr_fail(&r->c->y, kv->val->start_mark, "unknown precision '%s' %s; %s",
		               j->precision, r->where,
		               near_miss_text(j->precision, precision_list(names, sizeof names),
		                              hint, sizeof hint));
	}
	char *p = strdup(pi->name);
	if (!p)
		return yr_oom(&r->c->y);
	free(j->precision);
	j->precision = p;
	return PLANNER_OK;
}

/* A known engine profile (engines.c), stored by its canonical name. */
static int check_engine(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	const struct engine *e = engine_find(j->engine);
	if (!e) {
		char names[256], hint[384];
		return yr_fail(&r->c->y, kv->val->start_mark, "unknown engine '%s' %s; %s",
		               j->engine, r->where,
		               near_miss_text(j->engine, engine_names(names, sizeof names), hint,
		                              sizeof hint));
	}
	char *name = strdup(e->name);
	if (!name)
		return yr_oom(&r->c->y);
	free(j->engine);
	j->engine = name;
	return PLANNER_OK;
}

/* At most the model's maximum context; the default is cut down to it. */
static int check_context(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	long maxctx = j->model.max_context > 0 ? j->model.max_context : MAX_CONTEXT;
	if (!kv->val) {
		if (j->context > maxctx)
			j->context = maxctx;
		return PLANNER_OK;
	}
	if (j->context > maxctx)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "context %ld %s is longer than %s's maximum of %ld tokens; use "
		               "at most %ld",
		               j->context, r->where, j->model_ref, maxctx, maxctx);
	return PLANNER_OK;
}

static int hours_given(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	((struct job *)r->target)->has_hours = true;
	return PLANNER_OK;
}

/* After tokens_per_month, with or without it: the job has work. */
static int check_work(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const struct job *j = r->target;
	const struct keyed *serving = spec_val(r, "serving");
	if (j->has_hours || j->has_tokens || spec_val(r, "usage")->val)
		return PLANNER_OK; /* the usage row gives it its tokens */
	if (serving->val && yr_is_text(serving->val) &&
	    (!strcasecmp(yr_sval(serving->val), "always-on") ||
	     !strcasecmp(yr_sval(serving->val), "window")))
		return PLANNER_OK; /* the serving row gives it its hours */
	return yr_fail(&r->c->y, r->map->start_mark,
	               "job '%s' has neither hours_per_month nor tokens_per_month; add e.g. "
	               "hours_per_month: 300 or tokens_per_month: {input: 200M, output: 40M}",
	               j->name);
}

/* Each api model is "vendor/model". */
static int check_api_models(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const struct job *j = r->target;
	yaml_node_t *an = kv->val;
	if (j->n_api_models == 0)
		return yr_fail(&r->c->y, an->start_mark,
		               "'api_models' %s is empty; list vendor/model ids, or remove it to "
		               "use the model's own API hosts",
		               r->where);
	for (size_t i = 0; i < j->n_api_models; i++) {
		const char *a = j->api_models[i], *sl = a ? strchr(a, '/') : NULL;
		if (sl && sl != a && sl[1])
			continue;
		yaml_node_t *at =
		    an->type == YAML_SEQUENCE_NODE
		        ? yaml_document_get_node(&r->c->y.doc, an->data.sequence.items.start[i])
		        : an;
		return yr_fail(
		    &r->c->y, at->start_mark,
		    "api model '%s' %s is not vendor/model; write e.g. openai/gpt-4o-mini", a,
		    r->where);
	}
	return PLANNER_OK;
}

static const struct spec_key job_keys[] = {
    {.name = "name",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, name),
     .flags = SPEC_REQUIRED,
     .check = check_name,
     .example = "name: support-bot",
     .bounds = "1 to 128 characters, no control characters, unique",
     .desc = "Names the job in every output."},
    {.name = "model",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, model_ref),
     .flags = SPEC_REQUIRED,
     .check = check_model,
     .example = "model: llama-3.1-8b",
     .type = "text, model id or path",
     .bounds = "a reference model id, or a Hugging Face config.json path (one with a '/' or "
               "ending in .json) relative to the spec",
     .desc = "The model the job runs; its architecture sizes memory and speed."},
    {.name = "precision",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, precision),
     .check = check_precision,
     .def_text = DEFAULT_PRECISION,
     .example = "precision: bf16",
     .type = "text, precision name",
     .bounds = "fp32, bf16, fp16, fp8, int8, int4, awq, gptq, gptq-int8, nf4 (bnb4), nvfp4, "
               "mxfp4, or a llama.cpp type or mix: q8_0, q6_k, q5_k_m, q5_k_s, q5_1, q5_0, "
               "q4_k_m, q4_k_s, q4_1, q4_0, q3_k_l, q3_k_m, q3_k_s, q2_k, q2_k_s, q8_1, q8_k, "
               "iq4_nl, iq4_xs, iq3_m, iq3_s, iq3_xs, iq3_xxs, iq2_m, iq2_s, iq2_xs, iq2_xxs, "
               "iq1_m, iq1_s, tq2_0, tq1_0 (any case)",
     .desc = "Number format of the weights; sets memory per parameter and speed."},
    {.name = "task",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, task),
     .store = STORE_INT,
     .names = jobspec_task_names,
     .n_names = NELEM(jobspec_task_names),
     .def_text = "inference",
     .example = "task: finetune-qlora",
     .desc = "Serving the model, or fine-tuning it (LoRA, QLoRA or all weights); only "
             "inference can use the API route."},
    {.name = "context",
     .kind = SPEC_CUSTOM,
     .read = spec_read_context,
     .offset = offsetof(struct job, context),
     .store = STORE_LONG,
     .lo = 1,
     .hi = MAX_CONTEXT,
     .flags = SPEC_ALWAYS,
     .check = check_context,
     .has_def = true,
     .def = DEFAULT_CONTEXT,
     .def_text = "4096, or the model's maximum if smaller",
     .example = "context: 8192",
     .type = "whole number, tokens (`32K` is 32768)",
     .bounds = "1 to the model's maximum context",
     .desc = "Tokens per sequence (prompt and output); sizes the KV cache."},
    {.name = "batch",
     .kind = SPEC_CUSTOM,
     .read = spec_read_batch,
     .offset = offsetof(struct job, batch),
     .store = STORE_INT,
     .lo = 1,
     .hi = MAX_BATCH,
     .has_def = true,
     .def = 1,
     .example = "batch: 4",
     .type = "whole number, sequences, or max",
     .bounds = "1 to 4096, or max (inference only)",
     .desc = "Sequences processed at once; sizes the KV cache and the speed estimate. max: "
             "the largest batch whose KV cache fits beside the weights on each GPU "
             "configuration, as a throughput-oriented server runs (at most vLLM's "
             "max_num_seqs)."},
    {.name = "hours_per_month",
     .kind = SPEC_HOURS,
     .offset = offsetof(struct job, hours_per_month),
     .lo = 0,
     .hi = HOURS_PER_MONTH,
     .zero = "give the GPU hours the job needs (up to 744), or remove it",
     .check = hours_given,
     .def_text = "from tokens_per_month",
     .example = "hours_per_month: 300",
     .desc = "GPU time the job needs a month. This or tokens_per_month is required; when "
             "both are given, the GPU hours are this, and a GPU route that cannot make the "
             "tokens in them runs as several copies (replicas) or is not possible."},
    {.name = "tokens_per_month",
     .kind = SPEC_MAP,
     .sub = &token_table,
     .flags = SPEC_ALWAYS,
     .check = check_work,
     .def_text = "none",
     .example = "tokens_per_month: {input: 200M, output: 40M}",
     .desc = "Monthly token volume (see jobs[].tokens_per_month)."},
    {.name = "data",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, data),
     .store = STORE_INT,
     .names = jobspec_data_names,
     .n_names = NELEM(jobspec_data_names),
     .def_text = "public",
     .example = "data: confidential",
     .desc = "Where the data may go: public anywhere; confidential not to third-party APIs, "
             "nor to marketplace hosts unless hosting: allows them; restricted only to owned "
             "or bought GPUs."},
    {.name = "hosting",
     .kind = SPEC_CUSTOM,
     .read = read_hosting,
     .offset = offsetof(struct job, hosting),
     .def_text = "[datacenter] for data: confidential, else both",
     .example = "hosting: [marketplace, datacenter]",
     .type = "list of marketplace, datacenter",
     .bounds = "one or both words",
     .desc = "Kinds of rented host the job may use: marketplace (community and "
             "marketplace hosts such as Vast.ai and RunPod's community cloud) and datacenter "
             "(a provider's own data centres). data: confidential rents from data centres "
             "only unless this lists marketplace."},
    {.name = "interruptible",
     .kind = SPEC_BOOL,
     .offset = offsetof(struct job, interruptible),
     .def_text = "false",
     .example = "interruptible: true",
     .desc = "The job may run on spot (preemptible) GPUs."},
    {.name = "accelerator",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, any_accelerator),
     .store = STORE_BOOL,
     .names = accel_names,
     .n_names = NELEM(accel_names),
     .def_text = "nvidia",
     .example = "accelerator: any",
     .desc = "GPU vendors the job may use: NVIDIA only, or any."},
    {.name = "api_models",
     .kind = SPEC_LIST,
     .offset = offsetof(struct job, api_models),
     .count_offset = offsetof(struct job, n_api_models),
     .check = check_api_models,
     .def_text = "the model's own API models",
     .example = "api_models: [openai/gpt-4o-mini]",
     .type = "text or list of text",
     .bounds = "vendor/model ids, at least one",
     .desc = "API models the API route prices for this job, instead of the model's own "
             "list."},
    {.name = "regions",
     .kind = SPEC_LIST,
     .offset = offsetof(struct job, regions),
     .count_offset = offsetof(struct job, n_regions),
     .flags = SPEC_LOWER,
     .check = spec_check_regions,
     .def_text = "the spec's regions",
     .example = "regions: [eu]",
     .type = "text or list of text",
     .bounds = "as the top-level regions",
     .desc = "Where this job's rented GPUs and API hosts may be, instead of the spec's "
             "regions."},
    {.name = "schedule",
     .kind = SPEC_MAP,
     .sub = &spec_schedule,
     .offset = offsetof(struct job, sched),
     .flags = SPEC_NULL_OK,
     .def_text = "any time",
     .example = "schedule: {window: \"22:00-06:00\", days: [mon, fri]}",
     .desc = "When the job may run (see jobs[].schedule)."},
    {.name = "run",
     .kind = SPEC_MAP,
     .sub = &spec_run,
     .flags = SPEC_NULL_OK,
     .def_text = "none",
     .example = "run: {command: \"python serve.py\", image: \"vllm/vllm-openai:latest\"}",
     .desc = "How to start the job (see jobs[].run)."},
    {.name = "request",
     .kind = SPEC_MAP,
     .sub = &spec_request,
     .flags = SPEC_ALWAYS,
     .check = spec_check_request,
     .def_text = "context tokens, split as tokens_per_month is (all input without it)",
     .example = "request: {input: 512, output: 256}",
     .desc = "Mean tokens per request (see jobs[].request)."},
    {.name = "usage",
     .kind = SPEC_MAP,
     .sub = &spec_usage,
     .offset = offsetof(struct job, usage),
     .check = spec_check_usage,
     .def_text = "none",
     .example = "usage: {users: 12, requests_per_user_day: 20}",
     .desc = "The job's volume in people's terms, instead of tokens_per_month or "
             "hours_per_month (see jobs[].usage)."},
    {.name = "serverless",
     .kind = SPEC_MAP,
     .sub = &spec_serverless,
     .flags = SPEC_NULL_OK,
     .def_text = "the provider's terms",
     .example = "serverless: {idle_timeout_s: 60}",
     .desc = "The serverless route's idle timeout and cold start (see jobs[].serverless)."},
    {.name = "kv_cache",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, kv_cache),
     .store = STORE_INT,
     .names = spec_kv_cache_names,
     .n_names = SPEC_N_KV_CACHE,
     .def_text = "bf16",
     .example = "kv_cache: fp8",
     .desc = "Element type of the KV cache: bf16 (2 bytes, vLLM's and llama.cpp's default) "
             "or fp8 (1 byte, vLLM --kv-cache-dtype fp8)."},
    {.name = "serving",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, serving),
     .store = STORE_INT,
     .names = spec_serving_names,
     .n_names = SPEC_N_SERVING,
     .flags = SPEC_ALWAYS,
     .check = spec_check_serving,
     .def_text = "on-demand (always-on when hours_per_month is 744; an interactive usage: "
                 "window with a window, else always-on)",
     .example = "serving: window",
     .desc = "always-on: the service is up all month (744 h) and priced for those hours; "
             "window: up every hour of schedule.window on schedule.days (weekdays "
             "08:00-18:00 is 221.4 h of the 31-day month), priced for those hours and "
             "placed by schedule in every one, with no deadline, min_run or max_run; "
             "on-demand: the hours its work takes. With tokens every route shows its cost "
             "per million tokens."},
    {.name = "load",
     .kind = SPEC_MAP,
     .sub = &spec_load,
     .offset = offsetof(struct job, load),
     .check = spec_check_load,
     .def_text = "none",
     .example = "load: {peak_requests_per_second: 2.5, peak_factor: 3}",
     .desc = "A serving job's peak load and its shape over the day (see jobs[].load)."},
    {.name = "slo",
     .kind = SPEC_MAP,
     .sub = &spec_slo,
     .offset = offsetof(struct job, slo),
     .check = spec_check_load,
     .def_text = "none",
     .example = "slo: {ttft_ms: 2000, tpot_ms: 100, percentile: 95}",
     .desc = "Latency targets that size the replicas and batch (see jobs[].slo)."},
    {.name = "engine",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, engine),
     .check = check_engine,
     .example = "engine: llama.cpp",
     .type = "text, engine name",
     .bounds = "vllm, sglang, tensorrt-llm, llama.cpp (inference); hf, unsloth, torchtune, "
               "megatron (fine-tuning)",
     .desc = "Software that runs the job; sets the usable share of each card, overhead, "
             "multi-GPU mode and efficiency (docs/estimation.md, \"Engines\"). Default: "
             "llama.cpp for GGUF precisions (q4_k_m, q8_0, ...), vllm for other inference, "
             "hf for fine-tuning."},
    SPEC_GROWTH_ROW(struct job, NAN, "the spec's growth",
                    "How much this job's volume (tokens, or hours) grows each month."),
    /* Fine-tuning keys: table and checks in spec_train.c. */
    {.name = "lora", .kind = SPEC_MAP, .sub = &spec_lora, .check = spec_check_training,
     .def_text = "rank 16 on every linear layer", .example = "lora: {rank: 16, targets: all-linear}",
     .desc = "LoRA adapters of a finetune-lora or finetune-qlora job (see jobs[].lora)."},
    {.name = "micro_batch", .kind = SPEC_WHOLE, .offset = offsetof(struct job, micro_batch),
     .store = STORE_INT, .lo = 1, .hi = MAX_BATCH, .check = spec_check_training,
     .def_text = "the batch, split over the GPUs", .example = "micro_batch: 2",
     .type = "whole number, sequences", .bounds = "1 to batch; fine-tuning only",
     .desc = "Sequences each GPU trains on at once; gradient accumulation makes up the batch "
             "in batch / micro_batch steps, so activations are charged for micro_batch only."},
    {.name = "optimizer", .kind = SPEC_TEXT, .offset = offsetof(struct job, optimizer),
     .check = spec_check_optimizer, .example = "optimizer: adamw-8bit",
     .type = "text, optimizer name",
     .bounds = "adamw, adamw-bf16, adamw-8bit, paged-adamw-8bit; fine-tuning only",
     .desc = "Optimizer state per trained parameter on the GPU: 8 bytes (fp32 moments), 4, 2, "
             "or 0 when paged to host memory. Default: the engine's (hf and torchtune adamw, "
             "unsloth adamw-8bit)."},
    {.name = "checkpointing",
     .kind = SPEC_CUSTOM,
     .read = spec_read_checkpointing,
     .offset = offsetof(struct job, checkpointing),
     .check = spec_check_training,
     .def_text = "on",
     .example = "checkpointing: selective",
     .type = "on, off or selective (true and false also read)",
     .bounds = "fine-tuning only",
     .desc = "Activation checkpointing, on (every layer recomputed) in every training stack "
             "by default; off keeps every layer's activations and skips the forward "
             "recompute; selective recomputes only the attention core (Korthikanti et al. "
             "2022), which with flash attention holds what off holds."},
    {.name = "parallel", .kind = SPEC_MAP, .sub = &spec_parallel, .check = spec_check_parallel,
     .def_text = "planner's choice", .example = "parallel: {tp: 2, pp: 4}",
     .desc = "The job's layout over its GPUs: tensor, pipeline, data and expert parallel "
             "degrees (see jobs[].parallel)."},
};

_Static_assert(NELEM(token_keys) <= SPEC_MAX_KEYS, "token_keys: raise SPEC_MAX_KEYS");
_Static_assert(NELEM(job_keys) <= SPEC_MAX_KEYS, "job_keys: raise SPEC_MAX_KEYS");

const struct spec_table spec_job = {
    .intro = "One workload each. A job needs a name, a model, and hours_per_month or "
             "tokens_per_month.",
    .keys = job_keys,
    .n = NELEM(job_keys),
    .what = "job",
    .example = "{name: bot, model: llama-3.1-8b, hours_per_month: 300}",
    .size = sizeof(struct job),
    .pos_offset = offsetof(struct job, pos),
    .begin = job_begin,
};
