/* engines.h — the numbers of the software that runs a job, as opposed to
 * the model's or the GPU's own (docs/estimation.md, "Memory" and "Speed"):
 * how much of a card the engine plans inside, what it keeps per GPU, how
 * close it gets to the card's bandwidth and FLOPS. vram.c and speed.c read
 * them from an engine profile; each profile is one row of engines[] in
 * engines.c, with the source of every figure beside it. */
#ifndef PLANNER_ENGINES_H
#define PLANNER_ENGINES_H

#include <stddef.h>

struct engine {
	const char *name;    /* "default"; what a job spec will name */
	const char *summary; /* one line on what the profile models */

	/* Memory (vram.c). */
	double usable_fraction;      /* of a card's memory the engine plans inside */
	double overhead_gib;         /* runtime overhead on every GPU, GiB */
	double kv_bytes_per_element; /* KV cache element size, bytes */
	double prefill_chunk_tokens; /* tokens one prefill micro-batch holds live */
	int max_tp;                  /* largest tensor-parallel group, a power of two */

	/* Speed (speed.c). */
	double decode_eta;    /* fraction of memory bandwidth a decode step reaches */
	double compute_eta;   /* fraction of dense tensor FLOPS prefill reaches */
	double train_mfu;     /* model FLOPs utilisation of fine-tuning */
	double tp_efficiency; /* per-GPU efficiency under tensor parallelism */
};

/* Every profile, in the order help text lists them; engines[0] is the
 * default. */
extern const struct engine engines[];
extern const size_t n_engines;

/* The profile a job gets when its spec names none. Never NULL. */
const struct engine *engine_default(void);

/* The profile named (case-insensitive), or NULL. */
const struct engine *engine_find(const char *name);

#endif
