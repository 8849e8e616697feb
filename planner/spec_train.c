/* spec_train.c — the fine-tuning keys of a job (docs/estimation.md,
 * "Memory"): LoRA rank and target layers, micro-batch with gradient
 * accumulation, optimizer and gradient checkpointing. Their rows are in
 * job_keys (spec_job.c); the nested table, values and checks are here. */
#include "spec_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "vram.h"

/* LoRA ranks: 8-64 in the recipes (Hu et al. 2021 use 1-64; QLoRA 64;
 * torchtune and Unsloth 8-16); past 4096 it is a typo, not an adapter. */
#define MAX_LORA_RANK 4096

/* lora.targets values, indexed by enum lora_targets: every linear layer
 * of the blocks (PEFT's target_modules="all-linear"; QLoRA's and
 * Unsloth's recipes), or q, k, v and o only (Hu et al. 2021). */
const char *const spec_lora_target_names[SPEC_N_LORA_TARGETS] = {
    [LORA_ALL_LINEAR] = "all-linear",
    [LORA_ATTENTION] = "attention",
};

static const struct spec_key lora_keys[] = {
    {.name = "rank",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct job, lora_rank),
     .store = STORE_INT,
     .lo = 1,
     .hi = MAX_LORA_RANK,
     .def_text = "16",
     .example = "rank: 16",
     .type = "whole number",
     .desc = "Adapter rank r: each targeted layer of in x out weights trains r x (in + "
             "out) parameters."},
    {.name = "targets",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct job, lora_targets),
     .store = STORE_INT,
     .names = spec_lora_target_names,
     .n_names = SPEC_N_LORA_TARGETS,
     .def_text = "all-linear",
     .example = "targets: attention",
     .desc = "Layers the adapters sit on: every linear layer (attention and MLP), or the "
             "attention projections q, k, v and o only."},
};

const struct spec_table spec_lora = {
    .intro = "The LoRA adapters of a finetune-lora or finetune-qlora job; their parameter "
             "count follows from the model's architecture, and each trains with its "
             "gradient and the optimizer's state.",
    .keys = lora_keys,
    .n = sizeof lora_keys / sizeof *lora_keys,
    .where = "in lora of ",
};

int spec_check_training(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	bool lora = !strcmp(k->name, "lora");
	if (lora ? j->task != TASK_FINETUNE_LORA && j->task != TASK_FINETUNE_QLORA
	         : j->task == TASK_INFERENCE)
		return yr_fail(
		    &r->c->y, kv->val->start_mark,
		    "%s %s is for %s jobs, and this one's task is %s; remove %s or set "
		    "task: %s",
		    k->name, r->where, lora ? "finetune-lora and finetune-qlora" : "fine-tuning",
		    task_name(j->task), k->name, lora ? "finetune-lora" : "finetune-qlora");
	if (!strcmp(k->name, "micro_batch") && j->micro_batch > j->batch)
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "micro_batch %d %s is more than batch %d; give at most %d (gradient "
		               "accumulation runs batch / micro_batch steps of micro_batch "
		               "sequences)",
		               j->micro_batch, r->where, j->batch, j->batch);
	return PLANNER_OK;
}

/* checkpointing: on, off, selective or a boolean spelling (ckpt_parse). */
int spec_read_checkpointing(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	enum ckpt *c = (enum ckpt *)((char *)r->target + k->offset);
	if (yr_is_text(kv->val) && ckpt_parse(yr_sval(kv->val), c))
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "'%s' %s must be on, off or selective (true and false also read), got %s; "
	               "write e.g. %s: selective",
	               k->name, r->where, yr_describe(kv->val, d, sizeof d), k->name);
}

/* A known optimizer (vram.c), stored by its canonical name. */
int spec_check_optimizer(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	const struct optimizer_info *o = optimizer_find(j->optimizer);
	if (!o) {
		const char *const *names = optimizer_names();
		size_t n = 0;
		while (names[n])
			n++;
		const char *s = nearest_name(j->optimizer, names, n);
		if (s)
			return yr_fail(&r->c->y, kv->val->start_mark,
			               "unknown optimizer '%s' %s; did you mean '%s'?",
			               j->optimizer, r->where, s);
		return yr_fail(&r->c->y, kv->val->start_mark,
		               "unknown optimizer '%s' %s; use adamw, adamw-bf16, adamw-8bit or "
		               "paged-adamw-8bit",
		               j->optimizer, r->where);
	}
	char *name = strdup(o->name);
	if (!name)
		return yr_oom(&r->c->y);
	free(j->optimizer);
	j->optimizer = name;
	return spec_check_training(r, k, kv);
}
