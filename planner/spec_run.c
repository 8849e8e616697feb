/* spec_run.c — a job's run: block, how the exports start it
 * (`planner schedule --format slurm|k8s`): the command, the image, where
 * the weights are (Kubernetes) and whether Slurm runs the image through
 * pyxis. The row is in job_keys (spec_job.c); the nested table is here. */
#include "spec_table.h"

#include <stddef.h>
#include <string.h>

#include "util.h"


/* run.weights: "pvc:" and a claim name, or an absolute directory. */
static int check_run_weights(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	const char *v = ((const struct job *)r->target)->run_weights;
	return v[0] == '/' || (!strncmp(v, "pvc:", 4) && v[4])
	           ? PLANNER_OK
	           : yr_fail(&r->c->y, kv->val->start_mark,
	                     "weights %s %s is neither pvc:NAME nor an "
	                     "absolute path",
	                     yr_describe(kv->val, d, sizeof d), r->where);
}

static const struct spec_key run_keys[] = {
    {.name = "command",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, run_command),
     .flags = SPEC_LINES,
     .example = "command: \"python serve.py\"",
     .desc = "Shell command the exported job runs (the Slurm script; /bin/sh -c in the "
             "Kubernetes container)."},
    {.name = "image",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, run_image),
     .example = "image: \"vllm/vllm-openai:latest\"",
     .desc = "Container image of the exported Kubernetes job (the Slurm one's with pyxis)."},
    {.name = "weights",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct job, run_weights),
     .check = check_run_weights,
     .def_text = "pvc:model-weights",
     .example = "weights: /data/hf",
     .type = "text, pvc:NAME or an absolute path",
     .desc = "Where the Kubernetes job finds the "
             "model weights: a PersistentVolumeClaim (pvc:NAME) or a node's directory (hostPath), "
             "mounted at /root/.cache/huggingface."},
    {.name = "pyxis",
     .kind = SPEC_BOOL,
     .offset = offsetof(struct job, run_pyxis),
     .def_text = "false",
     .example = "pyxis: true",
     .desc = "The Slurm export runs run.command "
             "in run.image through the pyxis plugin (srun --container-image)."},
};

const struct spec_table spec_run = {
    .intro = "How to start the job, for the exports (`planner schedule --format`).",
    .keys = run_keys,
    .n = NELEM(run_keys),
    .where = "in run of ",
};

_Static_assert(NELEM(run_keys) <= SPEC_MAX_KEYS, "run_keys: raise SPEC_MAX_KEYS");
