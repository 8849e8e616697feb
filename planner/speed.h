/* speed.h — how many tokens a device (device.h: N GPUs of a kind) turns out
 * (docs/estimation.md, "Speed"): decode is memory-bound, prefill
 * compute-bound, batching shares the weight read until compute becomes the
 * limit. The model reads the device's bandwidth per memory tier and its
 * tensor rates; the functions taking a gpu_spec and a count build that
 * device and ask it. */
#ifndef PLANNER_SPEED_H
#define PLANNER_SPEED_H

#include <stdbool.h>

#include "device.h"
#include "jobspec.h"
#include "refdata.h"
#include "vram.h"

struct speed_est {
	double decode_tps;    /* output tokens/s of the decode steps, all `batch` streams */
	double stream_tps;    /* output tokens/s of one stream */
	double prefill_tps;   /* input tokens/s */
	double output_tps;    /* output tokens/s of all streams with their prefill
	                       * time counted (= decode_tps without a request shape) */
	double train_tps;     /* training tokens/s (fine-tuning tasks); 0 for inference */
	const char *measured; /* the result file the rates come from (measured.c);
	                       * NULL = estimated */
	bool prefill_counted; /* decode_tps already counts the prefill time (a measured
	                       * serving throughput, measured.c): no prefill apart */
};

/* One job as the speed estimate sees it. Zero fields take the default. */
struct speed_job {
	enum task task;
	long context;                /* tokens per sequence */
	int batch;                   /* concurrent sequences */
	double input_tokens;         /* mean prompt tokens per request; 0 = not given */
	double output_tokens;        /* mean output tokens per request; 0 = not given */
	double kv_bytes_per_element; /* 0 = the engine's default KV element */
	int micro_batch;             /* training: sequences one GPU holds per step (of
	                              * `context` tokens); 0 = the batch split over the
	                              * GPUs, at least one */
	enum ckpt checkpointing;     /* training: what the backward pass recomputes */
};

/* Distinct routed experts one MoE layer reads for a step of `tokens`
 * tokens, each routed to k of E experts: E (1 - (1 - k/E)^tokens), k at one
 * token, nearly E at a batch in the hundreds (uniform routing). 0 for a
 * dense model. */
double speed_experts_touched(const struct model_spec *m, double tokens);

/* Mean context a decode step attends to: input + output / 2 with a request
 * shape, else the full context. */
double speed_attended_context(const struct speed_job *job);

/* Throughput of device d (all d->count of it; a count below 1 reads as
 * 1) running the job under engine e. A device the model does not handle
 * yet (device_modelled) gets rates of 0. Cannot fail; e, m, p, d and job
 * must not be NULL. */
void speed_estimate_device(const struct engine *e, const struct model_spec *m,
                           const struct precision_info *p, const struct device *d,
                           const struct speed_job *job, struct speed_est *out);

/* speed_estimate_kv (below) on a device. */
void speed_estimate_kv_device(const struct engine *e, const struct model_spec *m,
                              const struct precision_info *p, const struct device *d,
                              enum task task, double attended, double kv_bytes_per_element,
                              int batch, struct speed_est *out);

/* speed_estimate_device of `n` GPUs of kind `gpu` (device_from_gpu). */
void speed_estimate_job(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct gpu_spec *gpu, int n,
                        const struct speed_job *job, struct speed_est *out);

/* speed_estimate_job without a request shape: every stream's KV cache is
 * charged at the full context. */
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
