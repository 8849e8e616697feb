/* spec_parallel.c — a job's `parallel:` layout (jobs[].parallel): tensor,
 * pipeline, data and expert parallel degrees, read and checked here;
 * workload.c checks it against the model and each route's GPUs
 * (parallel.h). */
#include <stddef.h>

#include "parallel.h"
#include "spec_table.h"

/* One HGX/DGX board: the most GPUs a node of planner's GPU table holds,
 * and so the largest tensor-parallel degree. */
#define SPEC_MAX_TP 8

#define DEGREE(key, field, top, what)                                                              \
	{.name = key, .kind = SPEC_WHOLE, .offset = offsetof(struct job, parallel.field),          \
	 .store = STORE_INT, .lo = 1, .hi = top, .def_text = "planner's choice",                   \
	 .example = key ": 2", .type = "whole number", .desc = what}

static const struct spec_key parallel_keys[] = {
    DEGREE("tp", tp, SPEC_MAX_TP,
           "Tensor-parallel degree: each layer split over tp GPUs of one node (it stays "
           "inside a node)."),
    DEGREE("pp", pp, PARALLEL_MAX_TRAIN_GPUS,
           "Pipeline stages: the layers cut into pp stages, one after another; a training step "
           "idles (pp - 1) / (m + pp - 1) of its time over m micro-batches."),
    DEGREE("dp", dp, PARALLEL_MAX_TRAIN_GPUS,
           "Data-parallel (FSDP) replicas of a fine-tuning job; the GPUs are tp x pp x dp. Not "
           "for serving: its replicas are compare's."),
    DEGREE("ep", ep, PARALLEL_MAX_TRAIN_GPUS,
           "Expert-parallel degree of a mixture-of-experts model: its experts split over ep of "
           "the tp x dp GPUs, each token sent to its experts and back (all-to-all)."),
};

const struct spec_table spec_parallel = {
    .intro = "The layout of a job over its GPUs (docs/estimation.md, \"Past one node\"); keys "
             "not given are planner's choice, and a route whose GPUs the layout cannot use "
             "is infeasible, saying why.",
    .keys = parallel_keys,
    .n = sizeof parallel_keys / sizeof *parallel_keys,
    .where = "in parallel of ",
};

int spec_check_parallel(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	const struct parallel *l = &j->parallel;
	j->parallel_pos = (struct src_pos){(int)kv->val->start_mark.line + 1,
	                                   (int)kv->val->start_mark.column + 1};
	if (!l->tp && !l->pp && !l->dp && !l->ep)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "%s %s names no degree; write e.g. %s: {tp: 2, pp: 4}", k->name,
		               r->where, k->name);
	if (j->task == TASK_INFERENCE && l->dp > 1)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "dp %s: a serving instance holds one copy of the model, and compare "
		               "prices its replicas; remove dp",
		               r->where);
	return PLANNER_OK;
}
