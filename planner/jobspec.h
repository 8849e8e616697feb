/* jobspec.h — the YAML job spec (docs/spec.md), read with
 * libyaml. Every value keeps the line and column it came from, so errors
 * found later (an unknown model, an unplaceable job) can still name
 * file:line:column. */
#ifndef PLANNER_JOBSPEC_H
#define PLANNER_JOBSPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "refdata.h"

struct refdata;

enum task { TASK_INFERENCE, TASK_FINETUNE_LORA, TASK_FINETUNE_QLORA, TASK_FINETUNE_FULL };

/* Activation checkpointing of a fine-tuning job (docs/estimation.md,
 * "Checkpointing"): on (the engine's own, every layer recomputed; Unsloth
 * offloads), off (every layer keeps its activations), or selective (the
 * attention core alone is recomputed, Korthikanti et al. 2022). */
enum ckpt { CKPT_ON, CKPT_OFF, CKPT_SELECTIVE, CKPT_MODES };
enum data_class { DATA_PUBLIC, DATA_CONFIDENTIAL, DATA_RESTRICTED };

/* hosting: the kinds of rented host a job may use, as bits: marketplace
 * or community hosts, and providers' own data centres (issue 29). */
#define HOSTING_MARKETPLACE 1u
#define HOSTING_DATACENTER  2u
#define HOSTING_ALL         (HOSTING_MARKETPLACE | HOSTING_DATACENTER)
/* kv_cache: element type of the KV cache (2 bytes, 1 byte). */
enum kv_cache_type { KV_CACHE_BF16, KV_CACHE_FP8 };
/* serving: how a job is up. on-demand runs for the hours its work takes;
 * always-on is up all month (744 h); window is up every hour of its
 * schedule's window on its days (schedule_month_hours). */
enum serving_mode { SERVING_ON_DEMAND, SERVING_ALWAYS_ON, SERVING_WINDOW };
/* country_use: whose electricity price a country: gives (schema/countries.json). */
enum country_use { COUNTRY_BUSINESS, COUNTRY_HOUSEHOLD };

/* commit: the longest commitment (offer_terms: reserved, savings-plan,
 * committed-use prices) the rented route may weigh; none refuses them. */
enum commit_term { COMMIT_NONE, COMMIT_1Y, COMMIT_3Y };
/* lora.targets: the linear layers LoRA adapters sit on. */
enum lora_targets { LORA_ALL_LINEAR, LORA_ATTENTION };

/* Electricity price when the spec gives none, USD per kWh: the US average
 * retail price to residential customers in 2023, 16.00 cents/kWh (EIA,
 * Electric Power Annual 2023, released October 2024, "Average revenue per
 * kilowatthour" table, https://www.eia.gov/electricity/annual/secrev-map.php,
 * read 2026-11-30). Converted to the spec's currency with its fx rate. */
#define JOBSPEC_DEFAULT_ELECTRICITY_USD 0.16

/* GPUs in one entry of owned/buy/quotes/measurements: one training job's
 * most (PARALLEL_MAX_TRAIN_GPUS, 128 8-GPU nodes; issue 25). */
#define JOBSPEC_MAX_GPU_COUNT 1024
/* GPUs of one host or node (costs.host.gpus, cluster.gpus_per_node): the
 * most any one machine holds, as before (eight 8-GPU boards). */
#define JOBSPEC_MAX_HOST_GPUS 64
/* Watts per GPU: the largest boards (GB200 superchip) draw about 2.7 kW. */
#define JOBSPEC_MAX_WATTS 5000.0

struct measured_entry;
struct measured_flags;

struct src_pos {
	int line;   /* 1-based; 0 when not from the file */
	int column; /* 1-based */
};

/* A layout over GPUs (parallel.h): tensor, pipeline, data and expert
 * parallel degrees. 0 in a layout given by the user = not given. tp x pp x
 * dp = the GPUs; ep splits the experts of an MoE model over ep of the
 * tp x dp GPUs of a stage. */
struct parallel {
	int tp, pp, dp, ep;
};

/* days_mask bits: 1 << 0 is Monday … 1 << 6 is Sunday. */
#define DAYS_ALL 0x7f

struct job_schedule {
	int window_start;     /* minutes after local midnight, 0..1439 */
	int window_end;       /* minutes, 1..1440; < start means it crosses midnight */
	unsigned days_mask;   /* days a window may start on; DAYS_ALL by default */
	int deadline;         /* day of month all hours are done by; 0 = end of month */
	int priority;         /* breaks ties only; default 0 */
	double min_run;       /* contiguous hours per run, at least; 0 = no minimum */
	double max_run;       /* contiguous hours per run, at most; 0 = no maximum */
};

/* Minutes in a day: a window this long lets a run go on across days. */
#define SCHEDULE_MINUTES_PER_DAY 1440
/* Days in compare's nominal month: 31, so that its hours are
 * HOURS_PER_MONTH (744, workload.h). */
#define SCHEDULE_MONTH_DAYS 31

/* Minutes one of s's daily windows lasts, 1..1440 (22:00-06:00 is 480: a
 * window that crosses midnight runs on into the next day). This function
 * can't fail. */
int schedule_window_minutes(const struct job_schedule *s);

/* Hours s lets a job run in compare's nominal month of 31 days (744 h):
 * the window's daily hours x the share of the week's days it may start
 * on x 31. 22:00-06:00 every day is 248 h; weekdays 08:00-18:00 are
 * 10 x 5/7 x 31 = 221.4 h; no schedule: is 744 h. The deadline is the
 * schedule's to place (it depends on the month's calendar), not counted
 * here. A route's hours (replicas x the hours each runs) never exceed it
 * in compare (workload_size). This function can't fail. */
double schedule_month_hours(const struct job_schedule *s);

/* usage: a job's volume in people's terms (spec_usage.c), turned into
 * its tokens_per_month over the days its schedule allows in compare's
 * nominal month. Counts are 0 when not given. */
struct job_usage {
	double users;                 /* people who send requests */
	double requests_per_user_day; /* each of them, on a day the schedule allows */
	double requests_per_day;      /* all of them together, instead of the two above */
	double documents_per_month;   /* batch: documents a month */
	double tokens_per_document;   /* batch: prompt tokens one document brings */
	double output_per_document;   /* batch: tokens generated for one document */
	double days;                  /* days of the nominal month its schedule allows */
	bool given;                   /* usage: is in the spec */
	bool interactive;             /* users or requests_per_day: people wait on it */
};

/* Days of compare's nominal month (31) that s's days allow: 31 x the
 * share of the week's days, 22.1 for weekdays. This function can't fail. */
double schedule_month_days(const struct job_schedule *s);

/* load: a serving job's peak and its shape over the day (spec_load.c).
 * Numbers are 0 when not given. */
struct job_load {
	double peak_requests_per_second; /* arrivals a second in the busiest hour */
	double peak_concurrency;         /* requests in flight at the peak, instead */
	double peak_factor;              /* busiest hour over the mean hour up; 0 = none */
	double profile[24];              /* relative load per local hour 0..23 */
	bool has_profile;
	bool given;
};

/* slo: latency targets at a percentile (spec_load.c; slo.c sizes them).
 * A target not given is 0 (not constrained). */
struct job_slo {
	double ttft_ms;    /* time to first token */
	double tpot_ms;    /* time per output token after the first */
	double percentile; /* of requests meeting both; default 95 */
	bool given;
};

struct job {
	char *name;
	char *model_ref;          /* as written: reference id or config.json path */
	struct model_spec model;  /* resolved architecture (owned deep copy) */
	char *precision;          /* canonical lower-case precision, e.g. "q4_k_m" */
	enum task task;
	long context;             /* tokens per sequence; default 4096 */
	int batch;                /* concurrent sequences; default 1 */
	bool has_hours;
	double hours_per_month;   /* GPU time the job needs */
	bool has_tokens;
	double input_tokens;      /* per month */
	double output_tokens;     /* per month */
	enum data_class data;     /* default public */
	bool interruptible;       /* spot / preemptible allowed; default false */
	bool any_accelerator;     /* accelerator: any (default nvidia only) */
	unsigned hosting;         /* HOSTING_* bits as written; 0 = by data (job_hosting) */
	char **api_models;        /* explicit API alternatives; NULL = model's own */
	size_t n_api_models;
	char **regions;           /* where it may run; NULL = the spec's regions */
	size_t n_regions;
	struct job_schedule sched;
	char *run_command;        /* run.command, may be NULL */
	char *run_image;          /* run.image, may be NULL */
	char *run_weights;        /* run.weights: "pvc:NAME" or an absolute host path;
	                           * NULL = the PVC "model-weights" (export_k8s.c) */
	bool run_pyxis;           /* run.pyxis: Slurm --container-image (pyxis) */
	char *engine;             /* engine profile name; NULL = by task and precision */
	struct src_pos pos;       /* where the job's mapping starts */
	struct src_pos model_pos; /* where `model:` value is */
	/* Serving (docs/estimation.md, "Serving"). */
	bool has_request;         /* request: given (else request_* are the default shape) */
	double request_input;     /* mean prompt tokens per request */
	double request_output;    /* mean generated tokens per request */
	double cached_share;      /* request.cached_share: share of input tokens read
	                           * from a prompt cache, 0..1; 0 = none */
	enum kv_cache_type kv_cache; /* default KV_CACHE_BF16 */
	bool batch_max;           /* batch: max (batch holds 1, the fit check's) */
	bool always_on;           /* serving is SERVING_ALWAYS_ON (hours_per_month is then 744) */
	int serving;              /* enum serving_mode; window: hours_per_month is the window's */
	bool serving_implied;     /* serving not in the spec: set by the interactive-usage rule */
	struct job_usage usage;   /* usage: (spec_usage.c) */
	struct job_load load;     /* load: (spec_load.c) */
	struct job_slo slo;       /* slo: (spec_load.c; slo.c) */
	/* serverless: (spec_serve.c; route_serverless.c) */
	bool has_idle_timeout;    /* serverless.idle_timeout_s given */
	double idle_timeout_s;    /* the wait before a worker scales down, seconds */
	bool has_cold_start;      /* serverless.cold_start_s given */
	double cold_start_s;      /* one cold start, seconds (else container start + load) */
	/* Fine-tuning (docs/estimation.md, "Memory"; spec_train.c). */
	int lora_rank;            /* lora.rank; 0 = VRAM_LORA_RANK */
	enum lora_targets lora_targets; /* lora.targets; default all linear layers */
	int micro_batch;          /* sequences each GPU trains on at once; 0 = the batch
	                           * split over the GPUs (no gradient accumulation) */
	char *optimizer;          /* canonical optimizer name; NULL = the engine's */
	enum ckpt checkpointing;  /* activation checkpointing; default CKPT_ON */
	double growth_percent;    /* growth: a month; NAN = the spec's (spec_tco.c) */
	struct parallel parallel; /* parallel: its layout (spec_parallel.c); 0s = planner's */
	struct src_pos parallel_pos; /* where `parallel:` is */
};

/* The HOSTING_* bits job j may rent on: its hosting:, else datacentres
 * only for data: confidential and every host for other classes (restricted
 * rents nothing: workload_route_allowed). This function can't fail. */
unsigned job_hosting(const struct job *j);

struct offer_term; /* store.h */

struct owned_gpu {
	const struct gpu_spec *gpu; /* points into the refdata, or at sized */
	int count;
	double memory_gib;          /* memory_gib: the chip's size, a CPU box's RAM; 0 = none */
	struct gpu_spec *sized;     /* owned: the part at memory_gib (name with the size) */
	double watts;               /* per GPU; default the reference board power */
	double idle_watts;          /* per GPU between runs; 0 = switched off (spec_tco.c) */
	/* fleet only (fleet_spec): the GPUs of a shared commitment, not owned
	 * (the plan's offer_terms); NULL for every entry of a spec. */
	const struct offer_term *commit;
	struct src_pos pos;
};

/* Most GPUs a `buy` option considers when max_count is not given: one
 * 8-GPU server. */
#define JOBSPEC_DEFAULT_MAX_BUY 8

struct buy_option {
	const struct gpu_spec *gpu; /* the refdata's, a gpus: entry's, or sized */
	double memory_gib;          /* as owned_gpu's */
	struct gpu_spec *sized;     /* owned: as owned_gpu's */
	double price;               /* per GPU, in the spec's currency */
	double watts;               /* per GPU */
	int max_count;              /* most GPUs one would buy; default 8 */
	double idle_watts;          /* per GPU between runs; 0 = switched off (spec_tco.c) */
	const struct offer_term *commit; /* fleet's shared commitment (fleet.c); NULL: a purchase */
	struct src_pos pos;
};

struct quote {
	char *provider;
	const struct gpu_spec *gpu;
	int count;
	double price_per_hour;      /* whole quote, in the spec's currency */
	bool spot;
	struct src_pos pos;
};

/* A card described in the spec's gpus: list, for GPUs planner does not
 * know; owned: and buy: entries may name it. */
struct custom_gpu {
	struct gpu_spec spec;       /* name, vram_gib, bandwidth_gbs, fp16_tflops, watts… */
	double price;               /* per GPU, in the spec's currency; 0 when not given */
	struct src_pos pos;
};

/* costs: the terms of owning beyond the GPUs and their load power, and
 * the setup of a rented run (spec_tco.c, tco.c). Every default is 0: a
 * term counts only when the spec gives it. */
struct tco_costs {
	double host_price;          /* host.price: one host (chassis, CPU, RAM, PSU), currency */
	double host_watts;          /* host.watts: what one host draws beside its GPUs */
	int host_gpus;              /* host.gpus: GPUs one host holds; default 4 */
	double resale_percent;      /* of the purchase, recovered after amortize_months */
	double capital_rate_percent;/* annual cost of capital */
	double maintenance_per_gpu_month; /* maintenance or colocation, currency */
	double setup_hours;         /* billed hours per rented run before work starts */
	double grid_co2_g_per_kwh;  /* the owned hardware's grid, g CO2e per kWh; < 0: not given */
	double carbon_price_per_tonne; /* currency per tonne CO2e added to the bill; 0: none */
};

/* One NAME: VALUE of a cluster: mapping (gres, node_selector). */
struct cluster_pair {
	char *key;   /* gres: the GPU's planner name ("A100 80GB"); node_selector: the label key */
	char *value; /* gres: the cluster's GRES type ("a100"); node_selector: the label value */
};

/* cluster: how the exports name things on the reader's own cluster
 * (spec_cluster.c), each value checked against its target's grammar when
 * the spec is read. Every field is optional: NULL / 0 writes what the
 * exports wrote without it. */
struct job_cluster {
	struct cluster_pair *gres;  /* Slurm GRES type per GPU model; a model not here gets
	                             * its name's letters and digits ("a10080gb") */
	size_t n_gres;
	char *partition;            /* sbatch --partition */
	char *account;              /* sbatch --account, passed through (slurmdbd checks it) */
	char *qos;                  /* sbatch --qos, passed through (slurmdbd checks it) */
	int gpus_per_node;          /* GPUs one node holds; 0 = one node holds a replica */
	char *namespace_;           /* Kubernetes metadata.namespace of every object */
	struct cluster_pair *node_selector; /* extra nodeSelector labels of every pod */
	size_t n_node_selector;
};

struct fx_rate {
	char code[8];               /* ISO 4217, upper case */
	double per_usd;             /* units of `code` per USD */
};

/* Most providers discounts: names (each one a rented provider). */
#define SPEC_MAX_DISCOUNTS 16

/* The share (0.2 for 20%) discounts: takes off provider's on-demand list
 * prices; 0 when none. */
struct jobspec;
double jobspec_discount(const struct jobspec *spec, const char *provider);

struct jobspec {
	char *path;                 /* file as given */
	char *name;                 /* name: the plan's title; NULL: none given */
	int version;                /* 1 */
	const struct country *country; /* country: the refdata's; NULL when none (defaults only) */
	int country_use;            /* enum country_use; default business */
	bool currency_from_country; /* currency: not given, the country's */
	bool fx_from_country;       /* fx: not given, auto for the country's currency */
	bool timezone_from_country; /* timezone: not given, the country's one zone */
	char currency[8];           /* output currency; default "USD" */
	struct fx_rate *fx;
	size_t n_fx;
	bool fx_auto;               /* fx: auto — the reference rates (refdata fx) */
	/* discounts: negotiated shares off providers' on-demand list prices
	 * (spec_discounts.c); n_discounts of them. */
	struct spec_discount {
		char provider[32];
		double share; /* 0.2 for 20% */
	} discounts[SPEC_MAX_DISCOUNTS];
	size_t n_discounts;
	int commit;                 /* enum commit_term: the longest term weighed; default 3y */
	double usd_to_currency;     /* resolved rate for `currency` (1 for USD) */
	char *timezone;             /* IANA name; default "UTC" */
	double electricity_per_kwh; /* in `currency` */
	bool electricity_default;   /* not in the file: the country's price, else
	                             * JOBSPEC_DEFAULT_ELECTRICITY_USD, converted */
	double pue;                 /* default 1.0 */
	double amortize_months;     /* default 36 */
	struct tco_costs costs;     /* costs: (spec_tco.c) */
	double growth_percent;      /* growth: every job's volume a month, percent; default 0 */
	int horizon_months;         /* horizon_months: 0 = amortize_months (horizon.c) */
	struct job_cluster cluster; /* cluster: (spec_cluster.c), for the exports */
	char **providers;           /* rented offers only from these; NULL = all */
	size_t n_providers;
	char **regions;             /* rented offers and API hosts only here; NULL = all */
	size_t n_regions;
	struct owned_gpu *owned;
	size_t n_owned;
	bool has_buy;               /* `buy:` present (else every priced GPU) */
	struct buy_option *buy;
	size_t n_buy;
	struct quote *quotes;
	size_t n_quotes;
	struct custom_gpu *gpus;    /* gpus: cards described in the spec */
	size_t n_gpus;
	struct measured_entry *measurements; /* measurements: (measured.h) */
	size_t n_measurements;
	struct job *jobs;
	size_t n_jobs;
};

/* The electricity price spec's country: gives for its country_use; NULL
 * when the spec has no country. */
const struct country_price *jobspec_country_price(const struct jobspec *spec);

/* Adds the measurement f (its file relative to the current directory) to
 * spec's measurements:, first, so that it wins over the file's. Returns
 * PLANNER_OK, or PLANNER_EINPUT with *err naming the flag ("--gpu X:
 * unknown GPU ...") or the file and field, or PLANNER_ESYS. */
int jobspec_add_measured(struct jobspec *spec, const struct refdata *ref,
                         const struct measured_flags *f, char **err);

/* Reads and validates the job spec at path. Models are resolved against
 * ref (or read from a config.json path, relative to the spec's directory),
 * GPUs through the alias table. Returns PLANNER_OK and a new spec in *out
 * (free with jobspec_free), or PLANNER_EINPUT with *out NULL and *err set
 * to "FILE:LINE:COL: what is wrong; how to fix it" ("cannot open FILE: ..."
 * when the file cannot be read), or PLANNER_ESYS when memory runs out.
 * YAML aliases are rejected. */
int jobspec_load(const char *path, const struct refdata *ref, struct jobspec **out, char **err);
/* Same, from a buffer of len bytes (need not be NUL-terminated); `name` is
 * used in messages, and config.json paths are relative to its directory
 * (the current directory when name has no '/'). */
int jobspec_parse(const char *name, const char *text, size_t len, const struct refdata *ref,
		  struct jobspec **out, char **err);
/* The same with what-if overrides: each of sets[0..n_sets) is
 * "KEY=VALUE" (`--set`, spec_set.c), applied to the document before it is
 * read, so the values are checked as the file's are; errors in them name
 * the override. */
int jobspec_load_set(const char *path, const struct refdata *ref, const char *const *sets,
                     size_t n_sets, struct jobspec **out, char **err);
int jobspec_parse_set(const char *name, const char *text, size_t len, const struct refdata *ref,
                      const char *const *sets, size_t n_sets, struct jobspec **out, char **err);
void jobspec_free(struct jobspec *spec);
/* Frees what c holds and zeroes it (spec_cluster.c); c may be NULL. */
void jobspec_cluster_clear(struct job_cluster *c);
/* The GRES type c maps the GPU `gpu` to (cluster.gres), or NULL. This
 * function can't fail. */
const char *jobspec_cluster_gres(const struct job_cluster *c, const char *gpu);

/* The plan's title: the spec's name:, else its file's base name (never
 * the directories it was given with: issue 26 titled a report with an
 * absolute path), else "job spec". Points into spec; this function can't
 * fail. */
const char *jobspec_title(const struct jobspec *spec);

/* The key reference, docs/spec.md, as Markdown rendered from the key
 * tables the reader applies; malloc'd, NULL when out of memory. */
char *jobspec_reference(void);
/* The same reference as the manual page planner-spec(5), in roff
 * (planner-spec.5); malloc'd, NULL when out of memory. */
char *jobspec_reference_man(void);
/* Every key's path ("version", "jobs[].schedule.window") in table order,
 * as a malloc'd array of *n malloc'd strings. PLANNER_OK, or PLANNER_ESYS
 * (out of memory) with *paths NULL. */
int jobspec_key_paths(char ***paths, size_t *n);

const char *task_name(enum task t);

/* "on", "off" or "selective" for c; "?" out of range. */
const char *ckpt_name(enum ckpt c);

/* c from "on", "off", "selective" or a boolean spelling (true, yes; false,
 * no), any case, into *out; false (and *out untouched) for anything else,
 * NULL included. */
bool ckpt_parse(const char *s, enum ckpt *out);
const char *data_class_name(enum data_class d);
/* "bf16", "fp8". */
const char *kv_cache_name(enum kv_cache_type k);
/* "on-demand", "always-on", "window". */
const char *serving_name(int serving);
/* The usage arithmetic of j in words ("12 users x 20 requests a day x
 * 22.1 days x (1500 in + 300 out) = 9.57M tokens a month") into buf; an
 * empty string when j has no usage:. This function can't fail. */
void job_usage_text(const struct job *j, char *buf, size_t len);

/* Requests a second arriving in local hour `hour` (0..23) of a day j's
 * schedule allows; 0 outside its window or without a load. With
 * load.peak_requests_per_second: the peak x profile[hour] / the profile's
 * largest weight (the busiest hour is the peak); without a profile, the
 * peak in the window's middle hour and the peak / peak_factor in its other
 * hours (the peak in all of them when there is no peak_factor). Without a
 * peak rate: usage's requests a day x profile[hour] / the profile's sum,
 * per 3600 s; without a profile, the requests a day spread evenly over the
 * window's minutes, x peak_factor in the middle hour only. A
 * peak_concurrency gives no rate (0): its service time is the hardware's
 * (slo.c). This function can't fail. */
double job_load_rps_at_hour(const struct job *j, int hour);
/* The largest job_load_rps_at_hour of j's 24 hours. This function can't
 * fail. */
double job_load_peak_rps(const struct job *j);
/* Bytes per KV-cache element: 2 for bf16, 1 for fp8. */
double kv_cache_bytes(enum kv_cache_type k);

#endif
