/* slo.h — replicas and batch of a serving job sized to its latency
 * targets (jobs[].slo, jobs[].load; docs/estimation.md, "Latency
 * targets"): an analytic queueing model of continuous batching with
 * chunked prefill over the speed model's step time. workload_size_est
 * calls slo_size for a job with slo:; the tests re-check its choice with a
 * discrete-event simulation built on the same step-time model. */
#ifndef PLANNER_SLO_H
#define PLANNER_SLO_H

#include <stdbool.h>

#include "device.h"
#include "speed.h"
#include "workload.h"

/* Batch sizes the step time is estimated at: 1, 4, 16, … up to the most
 * that fit (at most WORKLOAD_MAX_SEQS_LARGE). */
#define SLO_MAX_POINTS 12

/* One replica's step-time model. */
struct slo_model {
	double batch[SLO_MAX_POINTS];  /* sequences in a decode step */
	double step_s[SLO_MAX_POINTS]; /* its seconds: batch / decode tokens/s */
	int n_points;
	int max_batch;      /* the most sequences that fit beside the weights */
	double prefill_tps; /* prompt tokens/s of the replica; 0 = not modelled */
	double budget;      /* tokens one step carries: decode tokens + a prefill chunk */
	double z;           /* slo_size: the normal quantile of the job's percentile */
};

/* Latency of one configuration at a load. */
struct slo_latency {
	double ttft_ms;      /* time to first token at the percentile */
	double tpot_ms;      /* time per output token at the percentile */
	bool stable;         /* the replica keeps up with its share of the load */
	bool slot_wait_free; /* no request waits for a batch slot: a larger cap
	                      * gives the same latency */
};

/* The step-time model of a replica on device d for w's job shape. */
void slo_model_build(const struct workload *w, const struct device *d, struct slo_model *m);
/* Seconds of a step with n decode sequences and k prefill tokens:
 * the decode step at n (interpolated between the estimated batches) plus
 * k at the prefill rate. */
double slo_step_s(const struct slo_model *m, double n, double k);
/* The standard normal quantile of q in (0, 1). */
double slo_z(double q);
/* Latency of one replica with batch cap b, at `rps` Poisson arrivals a
 * second (or, rps 0, `concurrency` requests in flight), requests of
 * `in` / `out` tokens, at the percentile q in (0, 1) whose normal
 * quantile is z (slo_z). */
void slo_eval(const struct slo_model *m, int b, double rps, double concurrency, double in,
              double out, double q, double z, struct slo_latency *lat);
/* Sizes w's job on device d to its slo: at its peak: the fewest replicas
 * (at most max_replicas, at least out->replicas) and the batch cap that
 * meet both targets, into out (replicas, batch, ttft_ms, tpot_ms,
 * slo_met). Returns false with the best latency it reaches in why when
 * none does. */
/* batch and est: w->shape's estimate on d (workload_shape_estimate), which
 * it reuses rather than estimating again (NULL: it makes its own); the
 * same result either way. */
bool slo_size(const struct workload *w, const struct device *d, int max_replicas, int batch,
              const struct speed_est *est, struct workload_run *out, char *why, size_t len);

#endif
