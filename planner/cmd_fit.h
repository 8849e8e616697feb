/* cmd_fit.h — what `planner fit` (cmd_fit.c) shares with the part that
 * reads its device flags (cmd_fit_device.c): the arguments and the
 * long-only options. The command layer only. */
#ifndef PLANNER_CMD_FIT_H
#define PLANNER_CMD_FIT_H

#include <stdbool.h>

#include "confidence.h"
#include "engines.h"
#include "local_device.h"
#include "measured.h"
#include "offload.h"
#include "parallel.h"
#include "speed.h"
#include "vram.h"

struct cli;

struct fit_args {
	const char *model;
	const char *precision; /* default bf16 */
	long context;          /* default 4096 */
	int batch;             /* default 1 */
	enum task task;
	const struct engine *engine; /* --engine, else the default for task and precision */
	const struct gpu_spec *gpu;  /* --gpu: this GPU only; NULL = every GPU */
	int gpus;                    /* --gpus: a fixed count; 0 = the fewest that fit */
	double input, output;        /* --input/--output: mean tokens per request; 0 = none */
	const char *kv_cache;        /* --kv-cache: bf16, fp8; NULL = the engine's default */
	double kv_bytes;             /* its element size under the engine */
	bool batch_max;              /* --batch max: the largest batch that fits */
	/* Fine-tuning: --lora-rank, --lora-targets, --micro-batch, --optimizer,
	 * --checkpointing. */
	int lora_rank;                          /* 0 = VRAM_LORA_RANK */
	bool lora_attention;                    /* --lora-targets attention */
	int micro_batch;                        /* 0 = the batch split over the GPUs */
	const struct optimizer_info *optimizer; /* NULL = the engine's */
	enum ckpt checkpointing;                /* CKPT_ON = the engine's */
	bool checkpointing_given;               /* --checkpointing was given */
	/* A Mac, a Strix Halo PC or a CPU (local_device.h), or a device
	 * described with --gpu custom: the rows fit answers for. */
	struct local_variant variants[32];
	size_t n_variants;
	double memory_gib;            /* --memory-gib: the variant, the RAM, or custom's */
	double bandwidth_gbs, tflops; /* --bandwidth-gbs, --tflops: custom's */
	const char *kind;             /* --kind: custom's; NULL = gpu */
	int threads;                  /* --threads: CPU threads; 0 = every core */
	struct gpu_spec custom;       /* --gpu custom */
	/* --offload: layers on the GPU, the rest in --ram-gib of host RAM
	 * read at --ram-gbs (offload.h). */
	int offload; /* OFFLOAD_NONE, OFFLOAD_AUTO or the GPU's layers */
	double ram_gib, ram_gbs;
	/* --measured FILE: a benchmark of MODEL at --precision under --engine
	 * on --gpus (default 1) of --gpu; measured.file NULL = none. */
	struct measured_entry measured;
	/* --parallel tp=..,pp=..,dp=..,ep=..: the layout of --gpus
	 * (parallel.h); unset = planner's choice. */
	struct parallel parallel;
	bool parallel_given;
};

enum { OFFLOAD_NONE = -2, OFFLOAD_AUTO = -1 };

/* One GPU kind's line: how many it takes, whether the asked count fits,
 * and the speeds there. */
struct fit_line {
	const struct gpu_spec *g;
	int needed;     /* fewest that fit; 0 = none up to max_tp */
	int n;          /* the count the line is about: --gpus, else needed */
	int batch;      /* sequences at once: --batch, or the most that fit (max) */
	bool fits;      /* the job fits on n */
	bool measured;  /* s is --measured's, not the estimate */
	double per_gpu; /* GiB on each of n */
	struct speed_est s;
	struct offload_plan split; /* --offload: the layers on the GPU and in RAM */
	enum confidence conf;      /* of the speeds: what the calibration set holds */
	/* Its layout over nodes (cmd_fit_parallel.c): layout_ok false with
	 * layout_why when the model cannot estimate n of g. */
	struct parallel layout;
	int nodes;
	bool layout_ok;
	char layout_why[240];
};

/* The memory job `fit` asks about, with b sequences. */
struct vram_job fit_job(const struct fit_args *a, int b);

/* Fills l: model m at precision p (need: its memory) on GPU kind g under
 * a's engine, count, batch and split. Cannot fail. */
void fit_line(const struct fit_args *a, const struct model_spec *m, const struct precision_info *p,
              const struct vram_need *need, const struct gpu_spec *g, struct fit_line *l);

/* The line's speed: decode tokens/s of all streams, or training's. */
double fit_line_tps(const struct fit_args *a, const struct fit_line *l);

/* `planner fit --gpu G` with no model: the reference models and
 * quantisations that fit G (each variant of a chip), fastest first.
 * precision_given / engine_given: --precision and --engine were given
 * (a's precision and engine then hold for every row). Returns a PLANNER_
 * code. */
int fit_models(struct cli *c, struct fit_args *a, bool precision_given, bool engine_given);

/* Long-only options (no short letter). */
enum {
	OPT_LORA_RANK = 256,
	OPT_LORA_TARGETS,
	OPT_MICRO_BATCH,
	OPT_OPTIMIZER,
	OPT_CHECKPOINTING,
	OPT_MEMORY_GIB,
	OPT_BANDWIDTH,
	OPT_TFLOPS,
	OPT_KIND,
	OPT_THREADS,
	OPT_OFFLOAD,
	OPT_RAM_GIB,
	OPT_RAM_GBS,
	OPT_MEASURED,
	OPT_PARALLEL,
};

/* --parallel S into a (a clear error for a layout it cannot read). */
int fit_parallel_option(struct cli *c, struct fit_args *a, const char *s);

/* The --gpus caps (a training job over up to PARALLEL_MAX_TRAIN_GPUS, a
 * serving instance over up to PARALLEL_MAX_INSTANCE_GPUS) and, with --gpu
 * and --gpus, the layout: refused naming why where the model cannot
 * estimate it. m NULL: the caps only. */
int fit_parallel_check(struct cli *c, struct fit_args *a, const struct model_spec *m);

/* l's layout over l->n of g, and its speed where it is not the
 * single-host estimate (l->s replaced). False when there is no layout. */
bool fit_line_layout(const struct fit_args *a, const struct model_spec *m,
                     const struct precision_info *p, const struct gpu_spec *g,
                     const struct speed_job *sj, struct fit_line *l);

/* Whether l's row says its layout (past one node, past the engine's own
 * split, or --parallel given). */
bool fit_line_multi(const struct fit_args *a, const struct fit_line *l);

/* nodes, gpus_per_node and parallel {tp, pp, dp, ep} of l into o. */
struct cJSON;
void fit_line_layout_json(const struct fit_line *l, struct cJSON *o);

/* "  H100 SXM x64 (8 nodes, tp1 pp1 dp64)" after a row that spans nodes. */
void fit_line_layout_text(const struct fit_args *a, const struct fit_line *l);

/* --gpu and the device flags, after --engine and before the engine's
 * default: a GPU of the table, the variants of a chip or CPU (each with
 * llama.cpp, inference, one machine), the device --gpu custom describes,
 * and --offload's split. Returns PLANNER_OK or cli_usage's code. */
int fit_device_check(struct cli *c, struct fit_args *a, const char *engine, const char *gpu);

/* --memory-gib, --bandwidth-gbs, --tflops, --kind, --threads, --offload,
 * --ram-gib, --ram-gbs into a (ranges checked by fit_device_check). */
int fit_device_option(struct cli *c, struct fit_args *a, int opt);

#endif
