/* spec_table.h — the job spec's keys as data (internal to jobspec*.c and
 * spec_*.c). Each mapping of the spec (top level, a job, its schedule, run
 * and tokens_per_month, an owned/buy/quotes entry) is one struct
 * spec_table; each key one row: its kind, the field it fills (offsetof),
 * bounds, default, example and description, and an optional check. One
 * reader (spec_read) applies a table to a mapping; the same rows give the
 * "did you mean" candidates and the reference in docs/spec.md
 * (spec_reference). Adding a key is one row (plus its field and test). */
#ifndef PLANNER_SPEC_TABLE_H
#define PLANNER_SPEC_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "jobspec.h"
#include "util.h"
#include "yamlread.h"

/* Rows in one table; the reader keeps per-row values on the stack. */
#define SPEC_MAX_KEYS 32

/* One load: the document being read and the spec being filled. */
struct ctx {
	struct yr y;               /* the document and the error */
	const char *dir;           /* config.json paths are relative to this */
	const struct refdata *ref; /* models and GPUs */
	struct jobspec *spec;      /* being filled */
	struct name_index job_names; /* the jobs read so far, by name (check_name) */
};

enum spec_kind {
	SPEC_TEXT,    /* text → char * (strdup'ed) */
	SPEC_NUMBER,  /* number in [lo, hi] → double */
	SPEC_WHOLE,   /* whole number in [lo, hi] → .store */
	SPEC_HOURS,   /* hours, "300" or "300h", in [lo, hi] → double */
	SPEC_COUNT,   /* token count with K/M/B/T suffix, in [lo, hi] → double */
	SPEC_BOOL,    /* true/false (yes/no, on/off) → bool */
	SPEC_ENUM,    /* one of .names, case-insensitive → index as .store */
	SPEC_LIST,    /* text or a list of text → char ** and size_t at .count_offset */
	SPEC_GPU,     /* a GPU name or alias → const struct gpu_spec * */
	SPEC_MAP,     /* nested mapping read with .sub, its fields at .offset */
	SPEC_ENTRIES, /* list of mappings read with .sub into a new array */
	SPEC_CUSTOM,  /* .read reads and stores the value */
};

/* How SPEC_WHOLE, SPEC_ENUM and numeric defaults are stored. */
enum spec_store { STORE_DOUBLE, STORE_INT, STORE_LONG, STORE_BOOL };

enum {
	SPEC_REQUIRED = 1 << 0, /* absent is an error (.missing, else "who has no 'key'") */
	SPEC_FX = 1 << 1,       /* .hi is in USD: scaled by the spec's exchange rate */
	SPEC_NULL_OK = 1 << 2,  /* an empty value (key:) counts as absent */
	SPEC_LOWER = 1 << 3,    /* text is lower-cased */
	SPEC_ALWAYS = 1 << 4,   /* .check also runs when the key is absent (kv->val NULL) */
	SPEC_LINES = 1 << 5,    /* SPEC_TEXT may hold newlines and tabs (run.command); other
	                         * text refuses every control character */
};

struct spec_rd;
struct spec_key;
typedef int (*spec_fn)(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);

/* One key. Pointers and sizes first, the small fields last: no padding. */
struct spec_key {
	const char *name;
	size_t offset;                /* the field in the table's target struct */
	size_t count_offset;          /* SPEC_LIST, SPEC_ENTRIES: its size_t count */
	double lo, hi;                /* bounds of numbers */
	double def;                   /* numeric default, when has_def */
	const char *def_text;         /* SPEC_TEXT default; else the default in words */
	const char *zero;             /* when set, 0 (or an empty list) is an error: the fix */
	const char *missing;          /* SPEC_REQUIRED: the whole message, when not generic */
	const char *const *names;     /* SPEC_ENUM */
	size_t n_names;               /* SPEC_ENUM */
	const struct spec_table *sub; /* SPEC_MAP, SPEC_ENTRIES */
	spec_fn read;                 /* SPEC_CUSTOM */
	spec_fn check;                /* after the value is stored (see SPEC_ALWAYS) */
	const char *example;          /* a whole line, "context: 8192"; quoted in messages */
	const char *type;             /* the reference's type, when not the kind's */
	const char *bounds;           /* the reference's bounds, when not lo..hi */
	const char *desc;             /* one line for the reference */
	enum spec_kind kind;
	enum spec_store store; /* SPEC_WHOLE, SPEC_ENUM, .def */
	unsigned flags;        /* SPEC_REQUIRED ... */
	bool has_def;          /* .def is stored before the mapping is read */
};

struct spec_table {
	const char *intro; /* the paragraph under its heading in docs/spec.md */
	const struct spec_key *keys;
	size_t n;
	/* messages: "at the top level"; for a nested mapping, what precedes
	 * the parent's where less "in " ("in run of " + "job 'bot'") */
	const char *where;
	const char *what;                /* entries: "owned entry" ("owned entry 2 has no 'gpu'") */
	const char *example;             /* entries: one entry, "{gpu: RTX 4090, count: 2}" */
	size_t size;                     /* entries: bytes per entry */
	size_t pos_offset;               /* entries: its struct src_pos */
	bool required_first;             /* every required key is checked before any value */
	void (*init)(void *target);      /* defaults the rows cannot hold */
	int (*begin)(struct spec_rd *r); /* before the keys are read */
	int (*done)(struct spec_rd *r);  /* after every row */
};

/* One mapping being read with a table. */
struct spec_rd {
	struct ctx *c;
	const struct spec_table *t;
	const struct spec_rd *up; /* the mapping this one is nested in, or NULL */
	void *target;             /* the struct the rows' offsets are in */
	yaml_node_t *map;
	size_t index;                  /* entry number (0-based) in its list */
	struct keyed v[SPEC_MAX_KEYS]; /* per row */
	char where[YR_WHERE_LEN];      /* "in job 'bot'", "at the top level" */
	char who[YR_WHERE_LEN];        /* "job 'bot'", "owned entry 2" */
};

extern const struct spec_table spec_top, spec_job;
/* task: and data: values, indexed by enum task and enum data_class. */
extern const char *const jobspec_task_names[], *const jobspec_data_names[];
extern const size_t jobspec_n_task_names, jobspec_n_data_names;

/* spec_keys.c: country_use values, by enum country_use. */
#define SPEC_N_COUNTRY_USE 2
extern const char *const spec_country_use_names[SPEC_N_COUNTRY_USE];
#define SPEC_N_COMMIT 3
extern const char *const spec_commit_names[SPEC_N_COMMIT]; /* by enum commit_term */

/* spec_serve.c: the serving keys' values, nested table and checks. */
#define SPEC_N_KV_CACHE 2
#define SPEC_N_SERVING  3
extern const char *const spec_kv_cache_names[SPEC_N_KV_CACHE]; /* by enum kv_cache_type */
extern const char *const spec_serving_names[SPEC_N_SERVING];   /* by enum serving_mode */
extern const struct spec_table spec_request;                   /* jobs[].request */
extern const struct spec_table spec_serverless;                /* jobs[].serverless */
/* context: a whole number of tokens, with fit --context's suffixes. */
int spec_read_discounts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
int spec_read_context(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* batch: a whole number, or max (inference only). */
int spec_read_batch(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* After context and tokens_per_month: the request, given or defaulted. */
int spec_check_request(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* serving: always-on sets hours_per_month to 744; 744 h means always-on;
 * window sets it to the window's hours and refuses deadline, min_run and
 * max_run; an interactive usage without serving: is window or always-on. */
int spec_check_serving(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* spec_usage.c: jobs[].usage, and its tokens after request:. */
extern const struct spec_table spec_usage;
int spec_check_usage(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* spec_load.c: jobs[].load and jobs[].slo; after serving:, their checks
 * against the job (serving task, window, a load for slo). */
extern const struct spec_table spec_load, spec_slo;
int spec_check_load(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);

/* spec_train.c: the fine-tuning keys' nested table, values and checks. */
#define SPEC_N_LORA_TARGETS 2
extern const char *const spec_lora_target_names[SPEC_N_LORA_TARGETS]; /* by enum lora_targets */
extern const struct spec_table spec_lora;                              /* jobs[].lora */
extern const struct spec_table spec_parallel; /* jobs[].parallel (spec_parallel.c) */
int spec_check_parallel(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* spec_measured.c: measurements[], benchmark results read with the spec. */
extern const struct spec_table spec_measurement;
/* spec_run.c: jobs[].run, how the exports start the job. */
extern const struct spec_table spec_run;
/* spec_schedule.c: jobs[].schedule, when the job may run. */
extern const struct spec_table spec_schedule;
/* lora, micro_batch, optimizer, checkpointing: fine-tuning jobs only
 * (lora: LoRA and QLoRA); micro_batch at most batch; the optimizer a known
 * one, stored by its canonical name. */
int spec_check_training(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
int spec_read_checkpointing(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
int spec_check_optimizer(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* spec_tco.c: costs:, what owning costs beside the GPUs and their power,
 * and the setup hours of a rented run. */
extern const struct spec_table spec_costs;
/* spec_cluster.c: cluster:, how the exports name things on your cluster. */
extern const struct spec_table spec_cluster;
/* idle_watts of an owned or buy entry: at most its watts. */
int spec_check_idle_watts(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
#define SPEC_IDLE_WATTS_ROW(T)                                                                     \
	{.name = "idle_watts",                                                                     \
	 .kind = SPEC_NUMBER,                                                                      \
	 .offset = offsetof(T, idle_watts),                                                        \
	 .lo = 0,                                                                                  \
	 .hi = JOBSPEC_MAX_WATTS,                                                                  \
	 .has_def = true,                                                                          \
	 .def = 0,                                                                                 \
	 .check = spec_check_idle_watts,                                                           \
	 .def_text = "0 (switched off between runs)",                                              \
	 .example = "idle_watts: 30",                                                              \
	 .type = "number, watts per GPU",                                                          \
	 .desc = "Power one GPU draws when on but not running a job; when given, the GPUs and "   \
	         "their hosts stay on all month and the hours without work are priced at it."}
/* spec_device.c: memory_gib of an owned or buy entry, the variant of a
 * Mac or the RAM of a CPU box it names (local_device.h); the entries'
 * .done. */
int spec_owned_done(struct spec_rd *r);
int spec_buy_done(struct spec_rd *r);
/* A GPU's or machine's price, in USD (scaled by the exchange rate). */
#define SPEC_MAX_PRICE_USD 1e7
/* spec_device.c: the gpus: block's entries. */
extern const struct spec_table spec_gpu_table;
#define SPEC_MEMORY_GIB_ROW(T)                                                                     \
	{.name = "memory_gib",                                                                     \
	 .kind = SPEC_NUMBER,                                                                      \
	 .offset = offsetof(T, memory_gib),                                                        \
	 .lo = 1,                                                                                  \
	 .hi = 65536,                                                                              \
	 .def_text = "the smallest size (a chip), the typical machine's RAM (a CPU)",              \
	 .example = "memory_gib: 64",                                                              \
	 .type = "number, GiB",                                                                    \
	 .desc = "A Mac's or Strix Halo PC's memory size (one it is sold with), a CPU box's RAM."}
/* growth: a percentage a month, "5%" or 5, from -50 to 100. */
int spec_read_growth(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
#define SPEC_GROWTH_ROW(T, DEF, DEF_TEXT, DESC)                                                    \
	{.name = "growth",                                                                         \
	 .kind = SPEC_CUSTOM,                                                                      \
	 .read = spec_read_growth,                                                                 \
	 .offset = offsetof(T, growth_percent),                                                    \
	 .store = STORE_DOUBLE,                                                                    \
	 .has_def = true,                                                                          \
	 .def = DEF,                                                                               \
	 .def_text = DEF_TEXT,                                                                     \
	 .example = "growth: 5%",                                                                  \
	 .type = "percent a month",                                                                \
	 .bounds = "-50% to 100%",                                                                 \
	 .desc = DESC}
#define SPEC_HORIZON_ROW                                                                           \
	{.name = "horizon_months",                                                                 \
	 .kind = SPEC_WHOLE,                                                                       \
	 .offset = offsetof(struct jobspec, horizon_months),                                       \
	 .store = STORE_INT,                                                                       \
	 .lo = 1,                                                                                  \
	 .hi = 240,                                                                                \
	 .def_text = "amortize_months",                                                            \
	 .example = "horizon_months: 24",                                                          \
	 .type = "whole number, months",                                                           \
	 .desc = "Months compare's month-by-month costs (JSON horizon) and the report's horizon "  \
	         "chart run over, with growth applied each month."}
/* spec_check.c. timezone: UTC or a compiled zone under $TZDIR (default
 * /usr/share/zoneinfo), not a right/ zone or a database file. */
int spec_check_timezone(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);
/* On quotes: (always, so after it): every providers: name is a GPU
 * adapter's or a quote's, else the list would exclude every offer. */
int spec_check_providers(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);

/* Stores the defaults of t (and its nested mappings) into target. */
int spec_defaults(struct ctx *c, const struct spec_table *t, void *target);
/* Reads mapping `map` into target with table t; up is the enclosing
 * mapping (NULL at the top), index the entry number in its list. */
int spec_read(struct ctx *c, const struct spec_table *t, const struct spec_rd *up, void *target,
              yaml_node_t *map, size_t index);
/* The value read for the row named `name` in r (val NULL when absent). */
const struct keyed *spec_val(const struct spec_rd *r, const char *name);
/* The field of row k in r's target. */
void *spec_field(const struct spec_rd *r, const struct spec_key *k);
/* The check of a `regions:` list (spec level and per job): not empty,
 * and every entry a group, a country code or a region name regions.c
 * knows. */
int spec_check_regions(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv);

#endif
