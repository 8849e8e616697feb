/* speed.h — how many tokens a GPU configuration turns out (docs/estimation.md,
 * "Speed"): decode is memory-bound, prefill compute-bound, batching shares
 * the weight read until compute becomes the limit. */
#ifndef PLANNER_SPEED_H
#define PLANNER_SPEED_H

#include "jobspec.h"
#include "refdata.h"
#include "vram.h"

struct speed_est {
	double decode_tps;   /* output tokens/s, all `batch` streams together */
	double stream_tps;   /* output tokens/s of one stream */
	double prefill_tps;  /* input tokens/s */
	double train_tps;    /* training tokens/s (fine-tuning tasks); 0 for inference */
};

/* Throughput of `n` GPUs of kind `gpu` running the job's model at the
 * precision, task, context and batch under engine e. Cannot fail; e, m, p
 * and gpu must not be NULL. */
void speed_estimate(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *gpu, int n,
                    enum task task, long context, int batch, struct speed_est *out);

/* The same, with the KV cache a decode step reads given apart: each
 * sequence attends on average to `attended` tokens (a request of input N
 * and output M: N + M/2, docs/estimation.md "Serving"), stored in
 * kv_bytes_per_element bytes (2 bf16, 1 fp8; 0 takes the engine's).
 * speed_estimate is this with attended = context and the engine's KV
 * element size. */
void speed_estimate_kv(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, const struct gpu_spec *gpu, int n,
                       enum task task, double attended, double kv_bytes_per_element, int batch,
                       struct speed_est *out);

/* GPU-hours this configuration needs for a month's tokens: input at the
 * prefill rate plus output at the decode rate (inference), or all tokens at
 * the training rate (fine-tuning). Hours of the whole configuration (all n
 * GPUs together), not multiplied by n. INFINITY when there are tokens and
 * the matching rate is 0. */
double speed_hours_for_tokens(const struct speed_est *s, enum task task, double input_tokens,
			      double output_tokens);

#endif
