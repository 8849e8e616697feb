/* spec_measured.c — measurements:, benchmark results the user ran
 * (measured.h): each entry names the file the tool wrote and what it was
 * measured on; the file is read when the spec is, so a bad one is an error
 * at its entry. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engines.h"
#include "measured.h"
#include "spec_table.h"
#include "vram.h"


/* "any", the default of precision, engine and model: matches every job. */
#define ANY "any"

static int check_precision(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *p = *(char **)spec_field(r, k);
	if (strcmp(p, ANY) && !precision_find(p))
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "%s: unknown precision '%s'; give one fit --precision takes (bf16, "
		               "fp8, q4_k_m, ...) or any",
		               r->who, p);
	return PLANNER_OK;
}

static int check_engine(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *e = *(char **)spec_field(r, k);
	if (strcmp(e, ANY) && !engine_find(e))
		return yr_fail(
		    &r->c->y, kv->val->start_mark,
		    "%s: unknown engine '%s'; `planner fit --help` lists the engines (or any)",
		    r->who, e);
	return PLANNER_OK;
}

/* A text field left at (or given as) "any" becomes NULL: any job. */
static void any_to_null(char **field)
{
	if (*field && !strcasecmp(*field, ANY)) {
		free(*field);
		*field = NULL;
	}
}

/* Reads the file, relative to the spec's directory; its error points at
 * the file: value. */
static int measurement_done(struct spec_rd *r)
{
	struct measured_entry *e = r->target;
	any_to_null(&e->precision);
	any_to_null(&e->engine);
	any_to_null(&e->model);
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
     .bounds = "a known precision, e.g. bf16, fp8, q4_k_m, or any",
     .example = "precision: fp8",
     .desc = "The weights' precision; a job of another precision does not use it."},
    {.name = "engine",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct measured_entry, engine),
     .flags = SPEC_LOWER,
     .check = check_engine,
     .def_text = "any",
     .bounds = "an engine profile: vllm, sglang, llama.cpp, ..., or any",
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
             "with a mean request (its request:) within 25 % of the measured one (when both "
             "give one), "
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

/* The entry's text fields from f, checked as the spec's keys are. */
static int flags_entry(const struct refdata *ref, const struct measured_flags *f,
                       struct measured_entry *e, char **err)
{
	const struct precision_info *p = f->precision ? precision_find(f->precision) : NULL;
	const struct engine *en = f->engine ? engine_find(f->engine) : NULL;
	if (!f->gpu)
		return set_err(err, PLANNER_EINPUT,
		               "--measured %s needs --gpu G, the GPU it was measured on", f->file);
	if (!(e->gpu = refdata_gpu(ref, f->gpu)))
		return set_err(err, PLANNER_EINPUT,
		               "--gpu %s: unknown GPU; `planner gpus` lists them", f->gpu);
	if (f->precision && !p)
		return set_err(err, PLANNER_EINPUT, "--precision %s: unknown precision",
		               f->precision);
	if (f->engine && !en)
		return set_err(err, PLANNER_EINPUT,
		               "--engine %s: unknown engine; `planner fit --help` lists them",
		               f->engine);
	e->count = f->count > 0 ? f->count : 1;
	e->file = strdup(f->file);
	e->path = strdup(f->file);
	e->precision = p ? strdup(p->name) : NULL;
	e->engine = en ? strdup(en->name) : NULL;
	e->model = f->model ? strdup(f->model) : NULL;
	if (!e->file || !e->path || (p && !e->precision) || (en && !e->engine) ||
	    (f->model && !e->model))
		return set_err(err, PLANNER_ESYS, "out of memory");
	return PLANNER_OK;
}

int jobspec_add_measured(struct jobspec *spec, const struct refdata *ref,
                         const struct measured_flags *f, char **err)
{
	struct measured_entry e = {0};
	int rc = flags_entry(ref, f, &e, err);
	if (rc == PLANNER_OK) {
		char *why = NULL;
		rc = measured_load(e.path, &e.m, &why);
		if (rc != PLANNER_OK)
			set_err(err, rc, "--measured: %s", why ? why : "cannot read the file");
		free(why);
	}
	struct measured_entry *grown =
	    rc == PLANNER_OK
	        ? realloc(spec->measurements, (spec->n_measurements + 1) * sizeof *grown)
	        : NULL;
	if (rc == PLANNER_OK && !grown)
		rc = set_err(err, PLANNER_ESYS, "out of memory");
	if (rc != PLANNER_OK) {
		measured_entry_free(&e);
		return rc;
	}
	memmove(grown + 1, grown, spec->n_measurements * sizeof *grown);
	grown[0] = e;
	spec->measurements = grown;
	spec->n_measurements++;
	return PLANNER_OK;
}
