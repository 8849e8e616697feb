/* workload.h — one job as every consumer of the pricing rules sees it
 * (docs/design.md): `compare` (plan.c), `schedule` (schedule.c) and
 * `report` (cmd_report.c, report.c) ask here which offers, quotes and GPUs
 * a job may use, how many GPU-hours it takes on a configuration and what
 * its power costs, so they cannot disagree. A workload is built once per
 * job from the job and its spec, and carries the job's engine profile and
 * its memory need under that engine. */
#ifndef PLANNER_WORKLOAD_H
#define PLANNER_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "engines.h"
#include "jobspec.h"
#include "refdata.h"
#include "route.h"
#include "speed.h"
#include "store.h"
#include "vram.h"

/* Hours in the longest month (31 days x 24). One GPU set cannot run more
 * than this in a month, so work beyond it needs more sets and a break-even
 * beyond it never happens; the report's charts run 0..744 h. A month with
 * a daylight-saving change may have 743 or 745 local hours; schedules count
 * their real slots (sched_month_slots), this bound is for the monthly
 * cost model. */
#define HOURS_PER_MONTH 744.0

/* What the estimate of a configuration (workload_shape_estimate: the batch
 * it runs and its speed there) reads of a job, and all it reads: the
 * estimate takes this, not the job, and the estimate cache (plan_cache.c)
 * keys on its bytes, so an input added here is in the key. The bytes are
 * the key: keep it free of padding (workload.c asserts its size). model
 * and model_ref point into one job; the key reads model_ref's text for
 * both, since one spec resolves one reference to one architecture. */
struct workload_shape {
	const struct model_spec *model;        /* the job's architecture */
	const char *model_ref;                 /* the model as written (NULL: not keyed) */
	const struct precision_info *prec;     /* the job's precision */
	const struct engine *engine;           /* the job's engine profile */
	const struct measured_entry *measured; /* the spec's measurements: (measured.h) */
	size_t n_measured;
	double request_input;  /* request: mean prompt tokens (inference); 0 = not given */
	double request_output; /* request: mean output tokens (inference); 0 = not given */
	double attended;       /* mean tokens a decode step attends to */
	double kv_bytes;       /* bytes per KV element (job's kv_cache) */
	double train_seq;      /* training: tokens per sequence (the context) */
	int micro_batch;       /* training: sequences per GPU per step; 0 = the
	                        * batch split over the GPUs */
	enum ckpt checkpointing; /* training: what the backward recomputes */
	enum task task;
	int batch; /* sequences at once; 0 = batch: max, the most that fit */
	struct parallel parallel; /* the job's parallel: (0s = planner's choice) */
};

struct workload {
	const struct jobspec *spec;
	const struct job *job;
	const struct precision_info *prec; /* the job's precision (= shape.prec) */
	const struct engine *engine;       /* the job's engine profile (= shape.engine) */
	struct vram_need need;             /* on one GPU, under engine */
	double kv_bytes;                   /* bytes per KV element (job's kv_cache) */
	double attended;                   /* mean tokens a decode step attends to */
	struct workload_shape shape;       /* what the estimate reads (workload_init) */
	double peak_rps;                   /* load: the peak hour's requests a second (slo.c) */
	double window_hours;               /* schedule_month_hours of the job's window */
};

/* Most GPUs planner sizes one route to: one training job laid out over up
 * to PARALLEL_MAX_TRAIN_GPUS (128 8-GPU nodes), or the replicas of a
 * serving instance, each instance at most PARALLEL_MAX_INSTANCE_GPUS
 * (parallel.h), the replicas on top up to this bound (a policy bound, not
 * a fact; issue 25). */
#define WORKLOAD_MAX_GPUS 1024

/* vLLM's default max_num_seqs, the most sequences it batches: 256, and
 * 1024 on cards of at least 70 GiB other than the A100
 * (vllm-project/vllm, vllm/engine/arg_utils.py,
 * EngineArgs.get_batch_defaults, OPENAI_API_SERVER usage context, v0.10
 * and later; read 2026-11-30). batch: max never exceeds it. */
#define WORKLOAD_MAX_SEQS       256
#define WORKLOAD_MAX_SEQS_LARGE 1024
#define WORKLOAD_LARGE_CARD_GIB 70.0

/* How one GPU configuration does the job's month: the batch it runs, its
 * rate, and how many copies of it (replicas) the tokens need in the hours. */
struct workload_run {
	int batch;            /* sequences one replica runs at once */
	double tps;           /* output (fine-tuning: training) tokens/s of one replica */
	double work_hours;    /* hours one replica needs for the month's tokens; 0 without tokens */
	double hours;         /* hours each replica runs in the month */
	int replicas;         /* copies of the configuration running together, >= 1 */
	double need_tps;      /* tokens given: the rate the tokens need in the hours */
	const char *measured; /* the result file tps comes from (measured.h); NULL = estimated */
	double ttft_ms;       /* slo: time to first token at its percentile (slo.c) */
	double tpot_ms;       /* slo: time per output token at its percentile */
	bool slo_sized;       /* sized to the job's slo: (ttft_ms, tpot_ms set) */
	bool slo_met;         /* and the targets hold */
	bool beaten;          /* not sized: it cannot cost less than the bound (size_bound) */
};

/* A cost a configuration must get under to be worth sizing to the job's
 * latency targets. Those only add replicas to the work's own sizing: with
 * hours given each replica keeps its hours, with tokens the replicas share
 * the same work hours. So a configuration whose work sizing alone cannot
 * cost less than the best so far is not sized further (the sizing returns
 * false with beaten set), and the answers are those of a full sizing. */
struct size_bound {
	/* The least the configuration can cost at any sizing of at least
	 * run's replicas and run's replicas x hours; -INFINITY when none is
	 * known. */
	double (*floor)(const void *ctx, const struct workload_run *run);
	const void *ctx;
	double best; /* the cost to get under; INFINITY: none yet */
};

/* Whether a floor is above best, the floor taken a hair low: work hours
 * spread over more replicas may sum to an ulp under the work's own. */
bool size_floor_above(double floor, double best);

/* Builds the workload of job j of spec: its precision, its engine profile
 * and its memory need. Returns PLANNER_OK, or PLANNER_EINPUT with *err set
 * to "FILE:LINE:COL: unknown precision '…'". */
int workload_init(struct workload *w, const struct jobspec *spec, const struct job *j, char **err);

/* Whether the job's task and data class let it take route r at all, by
 * the route's properties (route.h): an inference-only route (api) takes
 * no fine-tuning, data: confidential or restricted excludes a third-party
 * route (api), data: restricted one that leaves the house (rented, api);
 * owned GPUs take everything. When not, and
 * why is not NULL, the reason goes in why (len bytes), as a sentence that
 * says what rules it out. */
bool workload_route_allowed(const struct workload *w, enum route r, char *why, size_t len);

/* Whether the job may run on this kind of GPU: NVIDIA unless the job says
 * accelerator: any. */
bool workload_gpu_allowed(const struct workload *w, const struct gpu_spec *gpu);

/* Whether the job may rent from provider: any when the spec lists no
 * providers, else only those listed (case-insensitive). */
bool workload_provider_allowed(const struct workload *w, const char *provider);

/* Whether the job's regions (its own, else the spec's; any when neither
 * lists one) take a row located at region / country / group (regions.h):
 * a rented offer, or an API host (region NULL). A row of unknown location
 * is left out whenever regions are listed. */
bool workload_region_allowed(const struct workload *w, const char *region, const char *country,
                             const char *group);

/* Whether the job may rent gpu from provider at this price kind: spot
 * prices only for interruptible jobs, plus the GPU and provider rules
 * above. Memory is not checked here (see workload_fits). */
bool workload_rental_allowed(const struct workload *w, const char *provider,
                             const struct gpu_spec *gpu, bool spot);

/* An offer from the store as the job sees it: its reference GPU when the
 * job may rent the offer (workload_rental_allowed and
 * workload_region_allowed), else NULL. *sized gets
 * a copy of that GPU with the offer's own memory figure, which wins over
 * the reference one (a feed may sell a slice of a card, like Azure NV A10
 * v5, or a variant the table rounds); check fit against *sized. */
/* Whether the HOSTING_* bits `hosting` (job_hosting) take a row on a
 * marketplace host (else a provider's own data centre). */
bool workload_hosting_allowed(unsigned hosting, bool marketplace);

/* Whether the job may run on the instances of commitment t, of GPU gpu
 * (a shared commitment in fleet, fleet.c): the rented route's rules, as
 * route_rented.c applies them to one job's commitment — its data class
 * may leave the house, providers:, regions:, hosting: and accelerator:. */
bool workload_commit_allowed(const struct workload *w, const struct offer_term *t,
                             const struct gpu_spec *gpu);

const struct gpu_spec *workload_offer_gpu(const struct workload *w, const struct refdata *ref,
                                          const struct offer *o, struct gpu_spec *sized);

/* True when the job fits on device d under its engine. */
bool workload_device_fits(const struct workload *w, const struct device *d);

/* Fewest devices like d the job fits on under its engine (a
 * tensor-parallel size), or 0 when none does. */
int workload_device_min_count(const struct workload *w, const struct device *d);

/* The batch device d runs for a job of shape s: the job's, or with batch:
 * max the largest whose KV cache (at the mean attended context) fits
 * beside the weights in the usable memory, at most vLLM's max_num_seqs. */
int workload_shape_batch(const struct workload_shape *s, const struct device *d);

/* What workload_size reads of the configuration: the batch device d runs
 * for a job of shape s (workload_shape_batch) and its speed at it. It
 * reads nothing else, so a caller may keep it for jobs of one shape
 * (plan_cache.h). */
void workload_shape_estimate(const struct workload_shape *s, const struct device *d, int *batch,
                             struct speed_est *out);

/* The fewest GPUs of kind g in whole nodes of `node` GPUs, more than one
 * node, that one instance of the job fits on: the GPUs its parallel:
 * names when it names more than a node, else the first count of whole
 * nodes whose memory holds the job, up to PARALLEL_MAX_TRAIN_GPUS for
 * training or PARALLEL_MAX_INSTANCE_GPUS for a serving instance. 0 when
 * none does, node is not positive, g is not a GPU or the job's engine runs
 * on one host (parallel_engine_spans_nodes). Whether the layout then runs
 * on g (a fabric between nodes) is workload_size's answer. */
int workload_nodes_min_gpus(const struct workload *w, const struct gpu_spec *g, int node);

/* workload_size (below) on device d. */
bool workload_device_size(const struct workload *w, const struct device *d, int max_replicas,
                          struct workload_run *out, char *why, size_t len);
/* The same, stopping early at bound (NULL: none; struct size_bound). */
bool workload_device_size_within(const struct workload *w, const struct device *d, int max_replicas,
                                 const struct size_bound *bound, struct workload_run *out,
                                 char *why, size_t len);

/* workload_gpu_hours (below) on device d. */
double workload_device_hours(const struct workload *w, const struct device *d, double *tps);

/* True when the job fits on n GPUs of kind gpu under its engine. */
bool workload_fits(const struct workload *w, const struct gpu_spec *gpu, int n);

/* Fewest GPUs of kind gpu the job fits on under its engine (a
 * tensor-parallel size), or 0 when none does. */
int workload_min_gpus(const struct workload *w, const struct gpu_spec *gpu);

/* Hours n GPUs of kind gpu take for the job's month of work, all n
 * together: the hours the job gives, or the hours its tokens take at the
 * estimated throughput (INFINITY when that throughput is 0). When tps is
 * not NULL it gets the configuration's output tokens/s (inference) or
 * training tokens/s (fine-tuning). */
double workload_gpu_hours(const struct workload *w, const struct gpu_spec *gpu, int n, double *tps);

/* The batch n GPUs of kind gpu run: the job's, or with batch: max the
 * largest whose KV cache (at the mean attended context) fits beside the
 * weights in the usable memory, at most vLLM's max_num_seqs. */
int workload_batch(const struct workload *w, const struct gpu_spec *gpu, int n);

/* The same without a job: the largest batch of inference sequences of
 * `attended` tokens each, KV elements of kv_bytes bytes, that fits on
 * device d under engine e; 1 when even one does not. */
int workload_max_batch(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, double attended, double kv_bytes,
                       const struct device *d);

/* Sizes n GPUs of kind gpu for the job's month (*out). With tokens and
 * hours both given, a configuration that cannot produce the tokens in the
 * hours gets replicas; with tokens only, the hours follow from them and
 * replicas keep each copy within HOURS_PER_MONTH; with hours only there is
 * nothing to check. Returns false, with the reason in why (len bytes: what
 * the job needs and what the configuration does), when the job would need
 * more than max_replicas copies or the configuration has no rate. */
bool workload_size(const struct workload *w, const struct gpu_spec *gpu, int n, int max_replicas,
                   struct workload_run *out, char *why, size_t len);

/* workload_shape_estimate of w's shape on n GPUs of kind gpu. */
void workload_estimate(const struct workload *w, const struct gpu_spec *gpu, int n, int *batch,
                       struct speed_est *s);

/* workload_device_size with the estimate already made
 * (workload_shape_estimate). */
bool workload_size_est(const struct workload *w, const struct device *d, int max_replicas,
                       int batch, const struct speed_est *est, struct workload_run *out, char *why,
                       size_t len);
/* The same, stopping early at bound (NULL: none; struct size_bound). */
bool workload_size_within(const struct workload *w, const struct device *d, int max_replicas,
                          int batch, const struct speed_est *est, const struct size_bound *bound,
                          struct workload_run *out, char *why, size_t len);

/* Electricity for `gpus` GPUs of `watts` each running `hours`, with the
 * spec's PUE and price per kWh, in the spec's currency. hours = 1 gives
 * the cost per hour. */
double power_cost(const struct jobspec *spec, int gpus, double watts, double hours);
/* The energy of that draw, kWh: gpus x watts x pue x hours / 1000. */
double energy_kwh(const struct jobspec *spec, int gpus, double watts, double hours);

/* What owning `gpus` GPUs bought at `price` each (spec's currency) costs a
 * month whether they run or not: the purchase over amortize_months. The
 * fleet (fleet.c) charges a bought GPU with it. */
double owned_fixed_monthly(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                           double price);

#endif
