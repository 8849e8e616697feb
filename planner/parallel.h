/* parallel.h — how one job is laid out over GPUs past one node
 * (docs/estimation.md, "Past one node"): tensor parallelism inside a node,
 * pipeline stages, data parallelism (FSDP) and expert parallelism across
 * nodes; the layout planner picks, the checks of one given with `fit
 * --parallel`, and the speed it runs at with its pipeline bubble and the
 * communication it pays over the links gpus.json cites. */
#ifndef PLANNER_PARALLEL_H
#define PLANNER_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>

#include "engines.h"
#include "jobspec.h"
#include "refdata.h"
#include "speed.h"

/* The most GPUs one training job spans, and one serving instance
 * (replicas of an instance come on top: compare prices them). */
#define PARALLEL_MAX_TRAIN_GPUS 1024
#define PARALLEL_MAX_INSTANCE_GPUS 64

/* struct parallel (a layout) is jobspec.h's: a job's `parallel:` holds one. */

/* "tp=2,pp=4[,dp=8,ep=2]" into *out (keys not named stay 0). False with
 * why (an unknown key, a value that is not a whole number 1..1024, a key
 * given twice) otherwise. */
bool parallel_parse(const char *s, struct parallel *out, char *why, size_t len);

/* The checks of layout l (degrees 0 = not given) that need the model
 * only: tp divides the attention heads, pp at most the layers, ep only on
 * an MoE model and dividing its experts. False with why otherwise. */
bool parallel_check_model(const struct model_spec *m, const struct parallel *l, char *why,
                          size_t len);

/* The GPUs a given layout names (the product of its given degrees), 0 if
 * none is given. */
int parallel_gpus(const struct parallel *want);

/* The layout of n GPUs of kind g running m under engine e for task: `want`
 * (NULL or all 0 = planner's choice) with its missing degrees filled in.
 * planner chooses what the engine does on one node (tensor parallel for
 * serving engines, a layer split for llama.cpp, FSDP for training) and,
 * past one node, FSDP over every GPU for training and tensor parallel over
 * a node with one pipeline stage per node for serving. False, with why,
 * for a layout the model cannot estimate: tp past a node or the engine's
 * largest, tp x pp x dp other than n, ep on a dense model or not dividing
 * the experts, more than one node where gpus.json states no node size or
 * fabric for g, an engine that runs on one host only. */
bool parallel_layout(const struct engine *e, const struct model_spec *m,
                     const struct gpu_spec *g, int n, enum task task,
                     const struct parallel *want, struct parallel *out, char *why, size_t len);

/* Nodes n GPUs of g take: 1 up to g's gpus_per_node (or when g states
 * none), else n / gpus_per_node rounded up. */
int parallel_nodes(const struct gpu_spec *g, int n);

/* Whether the layout is the one the single-host estimate already models
 * (the engine's own way of using n GPUs, n up to its max_tp):
 * speed_estimate_device answers for it unchanged. */
bool parallel_is_plain(const struct engine *e, const struct gpu_spec *g, int n, enum task task,
                       const struct parallel *l);

/* Share of a pipeline's time its stages idle: (pp - 1) / (m + pp - 1) for
 * m micro-batches per step (GPipe / 1F1B schedule, Narayanan et al. 2021,
 * arXiv:2104.04473 sec. 2.2.1). 0 for pp <= 1. */
double parallel_bubble(int pp, double micro_batches);

/* Throughput of layout l of g's GPUs running the job under e: the plain
 * single-node estimate where the layout is plain, else the pipeline,
 * its bubble and the communication of each degree (parallel.c). */
void parallel_speed(const struct engine *e, const struct model_spec *m,
                    const struct precision_info *p, const struct gpu_spec *g,
                    const struct parallel *l, const struct speed_job *job, struct speed_est *out);

/* Whether e runs one job over several hosts: the serving engines with
 * pipeline stages across nodes (vLLM, SGLang, TensorRT-LLM) and the
 * training stacks torchrun launches (FSDP); not llama.cpp's layer split
 * nor a single-GPU stack. */
bool parallel_engine_spans_nodes(const struct engine *e);

/* "tp8 pp1 dp8" (ep only when > 1) into buf. */
void parallel_format(const struct parallel *l, char *buf, size_t len);

#endif
