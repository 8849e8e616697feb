/* measured.h — a benchmark a user ran, read from the file the tool wrote,
 * and the speed it gives a configuration it matches (issue 25, item 6:
 * measured beats estimated). The file gives the figures; what it was
 * measured on (GPU, count, precision, engine, model) comes from the spec's
 * measurements: entry or fit's flags, since a vllm bench serve result
 * names no GPU and llama-bench names one only as free text. */
#ifndef PLANNER_MEASURED_H
#define PLANNER_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

#include "refdata.h"
#include "speed.h"

/* Largest result file read: a llama-bench or vllm bench serve result is a
 * few KiB, a vllm one with --save-detailed a few MiB (per-request lists). */
#define MEASURED_MAX_FILE_BYTES (16u << 20)

/* How far a job's mean request (input and output tokens) may be from the
 * measured one and still use it: 25 % either way. A policy bound: the
 * serving throughput of an engine changes slowly with the request shape
 * (docs/estimation.md, "Serving"), beyond this it is another workload. */
#define MEASURED_SHAPE_TOLERANCE 0.25

enum measured_format {
	MEASURED_LLAMA_BENCH, /* llama-bench -o json: an array of pp / tg tests */
	MEASURED_VLLM_SERVE,  /* vllm bench serve --save-result */
	MEASURED_GUIDELLM,    /* guidellm benchmark --output-path benchmarks.json */
	MEASURED_AIPERF,      /* aiperf / genai-perf profile_export_*.json */
};

/* The figures of one result file. */
struct measured {
	enum measured_format format;
	double output_tps;  /* serving: output tokens/s of all streams, prefill included */
	double prefill_tps; /* llama-bench pp: prompt tokens/s; 0 = not measured */
	double decode_tps;  /* llama-bench tg: generated tokens/s of one stream; 0 = not measured */
	double concurrency; /* streams the figure was measured at (llama-bench: 1) */
	double input_len;   /* mean prompt tokens per request; 0 = the file does not say */
	double output_len;  /* mean output tokens per request; 0 = the file does not say */
	char *model;        /* the model the file names (vllm: model_id), or NULL */
};

/* The tool's name, "vllm bench serve". */
const char *measured_format_name(enum measured_format f);

/* Reads the result in buf (len bytes) from the file `name` (used in
 * messages) into *out, the format found from its fields. Returns
 * PLANNER_OK, or PLANNER_EINPUT with *err "NAME: <field>: what is wrong"
 * when the file is not one of the formats or a figure is missing or not a
 * positive number, or PLANNER_ESYS (out of memory). Free with
 * measured_free. */
int measured_parse(const char *name, const char *buf, size_t len, struct measured *out, char **err);
/* measured_parse of the file at path, at most MEASURED_MAX_FILE_BYTES;
 * "cannot open PATH: ..." when it cannot be read. */
int measured_load(const char *path, struct measured *out, char **err);
/* Frees what out holds; accepts NULL. */
void measured_free(struct measured *m);

/* Whether a job's mean request (input, output tokens; 0 = not given)
 * is within MEASURED_SHAPE_TOLERANCE of the measured one. A file without
 * a shape (llama-bench) or a job without one matches. */
bool measured_shape_matches(const struct measured *m, double input, double output);

/* The speed of the measured configuration, over the estimate in *s: a
 * serving result sets the output rate of all streams at its concurrency
 * (prefill inside it, so speed_hours_for_tokens counts no prefill apart),
 * llama-bench's tg the one-stream decode and its pp the prefill. Figures
 * the file lacks keep the estimate. Cannot fail. */
void measured_apply(const struct measured *m, struct speed_est *s);

/* One measured configuration: the file's figures and what they were
 * measured on. NULL / 0 fields match any job. */
struct measured_entry {
	char *file;                 /* as given; resolved path in path */
	char *path;                 /* the file read (relative to the spec's directory) */
	const struct gpu_spec *gpu; /* what it ran on */
	int count;                  /* GPUs */
	char *precision;            /* canonical name, or NULL = any */
	char *engine;               /* engine profile name, or NULL = any */
	char *model;                /* model id, or NULL = any */
	struct measured m;          /* the figures */
	struct src_pos pos;         /* where the entry is in the spec */
};

/* Whether entry e was measured on this configuration: model (the
 * entry's; the file's model_id is a served name, often a Hugging Face repo
 * or a path, so it is shown, not matched),
 * precision, engine, GPU kind and count, and the request shape. */
bool measured_entry_matches(const struct measured_entry *e, const char *model,
                            const char *precision, const char *engine, const struct gpu_spec *gpu,
                            int count, double input, double output);

/* The first of list[0..n) matching, or NULL. */
const struct measured_entry *measured_find(const struct measured_entry *list, size_t n,
                                           const char *model, const char *precision,
                                           const char *engine, const struct gpu_spec *gpu,
                                           int count, double input, double output);

/* measured_apply of e's figures, with s->measured set to e's file. */
void measured_entry_apply(const struct measured_entry *e, struct speed_est *s);

/* A measurement given on the command line (compare --measured FILE
 * --gpu G --gpus N --precision P --engine E --model M): NULL / 0 = not
 * given (any; count 1). */
struct measured_flags {
	const char *file, *gpu, *precision, *engine, *model;
	int count;
};

/* Frees what e holds; accepts NULL. */
void measured_entry_free(struct measured_entry *e);

#endif
