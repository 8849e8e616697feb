/* spec_measured.c — measurements:, benchmark results the user ran
 * (measured.h): each entry names the file the tool wrote and what it was
 * measured on; the file is read when the spec is, so a bad one is an error
 * at its entry. */
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "measured.h"
#include "spec_table.h"
#include "vram.h"

#define NELEM(a) (sizeof(a) / sizeof *(a))

static int check_precision(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *p = *(char **)spec_field(r, k);
	if (!precision_find(p))
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "%s: unknown precision '%s'; give one fit --precision takes (bf16, "
		               "fp8, q4_k_m, ...)",
		               r->who, p);
	return PLANNER_OK;
}

static int check_engine(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *e = *(char **)spec_field(r, k);
	if (!engine_find(e))
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "%s: unknown engine '%s'; `planner fit --help` lists the engines",
		               r->who, e);
	return PLANNER_OK;
}

/* Reads the file, relative to the spec's directory; its error points at
 * the file: value. */
static int measurement_done(struct spec_rd *r)
{
	struct measured_entry *e = r->target;
	e->path = e->file[0] == '/' ? strdup(e->file) : xasprintf("%s/%s", r->c->dir, e->file);
	if (!e->path)
		return yr_oom(&r->c->y);
	char *why = NULL;
	int rc = measured_load(e->path, &e->m, &why);
	if (rc == PLANNER_ESYS) {
		free(why);
		return yr_oom(&r->c->y);
	}
	if (rc != PLANNER_OK) {
		rc = yr_fail(&r->c->y, spec_val(r, "file")->val->start_mark, "%s: %s", r->who,
		             why ? why : "cannot read the file");
		free(why);
	}
	return rc;
}

static const struct spec_key measurement_keys[] = {
    {.name = "file",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct measured_entry, file),
     .flags = SPEC_REQUIRED,
     .example = "file: bench/vllm-h100.json",
     .type = "path",
     .desc = "The result file as the tool wrote it: llama-bench -o json, vllm bench serve "
             "--save-result, GuideLLM's benchmarks.json, AIPerf's profile_export_aiperf.json "
             "or genai-perf's profile_export_genai_perf.json; relative to the spec's "
             "directory, at most 16 MiB."},
    {.name = "gpu",
     .kind = SPEC_GPU,
     .offset = offsetof(struct measured_entry, gpu),
     .flags = SPEC_REQUIRED,
     .example = "gpu: H100 SXM",
     .desc = "The GPU it was measured on (the files do not say, or only as free text)."},
    {.name = "count",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct measured_entry, count),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_GPU_COUNT,
     .has_def = true,
     .def = 1,
     .example = "count: 2",
     .desc = "GPUs the model was spread over."},
    {.name = "precision",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct measured_entry, precision),
     .flags = SPEC_LOWER,
     .check = check_precision,
     .def_text = "any",
     .example = "precision: fp8",
     .desc = "The weights' precision; a job of another precision does not use it."},
    {.name = "engine",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct measured_entry, engine),
     .flags = SPEC_LOWER,
     .check = check_engine,
     .def_text = "any",
     .example = "engine: vllm",
     .desc = "The engine profile it ran under (vllm, llama.cpp, ...)."},
    {.name = "model",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct measured_entry, model),
     .def_text = "any",
     .example = "model: qwen2.5-7b",
     .desc = "The model, as a job names it; the file's model_id is a served name and is not "
             "matched."},
};

const struct spec_table spec_measurement = {
    .intro = "Benchmarks you ran. A job on the same model, precision, engine, GPU and count, "
             "with a mean request within 25 % of the measured one (when the file has one), "
             "uses the measured speed instead of the estimate: the output throughput at its "
             "concurrency (vllm bench serve, GuideLLM, AIPerf/genai-perf), or the prefill (pp) "
             "and one-stream decode (tg) tokens/s (llama-bench).",
    .keys = measurement_keys,
    .n = NELEM(measurement_keys),
    .what = "measurements entry",
    .example = "{file: bench/vllm-h100.json, gpu: H100 SXM, count: 1, precision: bf16, "
               "engine: vllm}",
    .size = sizeof(struct measured_entry),
    .pos_offset = offsetof(struct measured_entry, pos),
    .required_first = true,
    .done = measurement_done,
};
