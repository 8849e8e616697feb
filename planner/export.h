/* export.h — a schedule in the formats people already run jobs with
 * (docs/design.md, "Schedules run on real batch systems"). One small file
 * per format, export_<format>.c, ending in its `const struct export_format`
 * row; export.c lists the rows. `--format` parsing, the format lists in
 * --help and usage errors, and the docs test are all driven by that list,
 * so a new format is one file, one line in export_formats[] and its test. */
#ifndef PLANNER_EXPORT_H
#define PLANNER_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "jobspec.h"
#include "schedule.h"
#include "util.h"

/* The data formats every command's --format takes (cli.c sets struct
 * cli.format from export_format.data). */
enum out_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV };

/* Where a format applies (export_format.applies, a bit set). */
enum export_kind {
	/* The data formats every command's --format takes (cli.c): table,
	 * json, csv; each command prints its own data in them. */
	EXPORT_DATA = 1u << 0,
	/* `planner schedule --format`: the schedule written by the row's
	 * write function. */
	EXPORT_SCHEDULE = 1u << 1,
};

/* What a writer is given besides the file and the schedule, and what it
 * says back. */
struct export_opts {
	bool color;  /* in: ANSI bold wanted (the table, on a terminal) */
	const struct job_cluster *cluster; /* in: the spec's cluster: (NULL: none) */
	int skipped; /* out: owned runs left out for want of run.<needs> */
	int skipped_runs; /* out: runs of a route the format cannot express, left out
	                   * (export_skipped_runs); the file says so in a note */
};

/* Writes s to f in one format. Returns PLANNER_OK, or PLANNER_ESYS (out
 * of memory, a failed write) with *err set; never prints anything else.
 * Plain write errors also show on f (ferror): the caller checks them at
 * fclose. */
typedef int export_write_fn(FILE *f, const struct schedule *s, struct export_opts *opts,
                            char **err);

struct export_format {
	const char *name;       /* the --format word */
	const char *summary;    /* "(…)" after the name in --help; NULL when the
	                         * name says it all */
	unsigned applies;       /* enum export_kind bits */
	enum out_format data;   /* with EXPORT_DATA: the value cli.c sets */
	const char *needs;      /* run.<needs> a job must have for its owned runs
	                         * to be written ("command"); NULL when none */
	export_write_fn *write; /* the schedule writer (EXPORT_SCHEDULE) */
	/* How many runs of s write leaves out because the format cannot
	 * express their route (export_skipped_runs); NULL: it writes every
	 * run. The JSON schedule lists them (skipped_runs) when not 0. */
	int (*skipped_runs)(const struct schedule *s);
};

/* The runs of s a format neither writes (writes(r) false) nor leaves out
 * on purpose (their route has a flag of `leaves`, route.h: the cloud's and
 * the API's runs are not a cluster's): runs of a route it cannot express.
 * This function can't fail. */
int export_skipped_runs(const struct schedule *s, bool (*writes)(const struct sched_run *r),
                        unsigned leaves);
/* The note a format writes about them: "N run(s) of route(s) R left out:
 * FORMAT cannot express them" into buf; "" when n is 0. Returns buf. */
char *export_skipped_note(const struct schedule *s, bool (*writes)(const struct sched_run *r),
                          unsigned leaves, const char *format, char *buf, size_t len);

/* Every format, NULL-terminated, in the order --help lists them; the
 * first is the default. */
extern const struct export_format *const export_formats[];

/* The format named `name` that applies to `kind`, or NULL. */
const struct export_format *export_format_find(const char *name, unsigned kind);

/* The names of the formats for `kind` into buf: joined by sep, the last
 * by last ("table, json or csv"; "table|json|csv" with "|" twice), with
 * each summary in brackets when summaries is true and " (default)" after
 * the first. Cut to fit len. Returns buf. */
char *export_format_names(unsigned kind, const char *sep, const char *last, bool summaries,
                          char *buf, size_t len);

/* The --help paragraph for --format: "  --format F       " and the names
 * of the formats for `kind` with their summaries, wrapped at 79 columns
 * under the option's text, ending in a newline, into buf (cut to fit
 * len). Returns buf. */
char *export_format_help(unsigned kind, char *buf, size_t len);

extern const struct export_format export_format_table;
extern const struct export_format export_format_json;
extern const struct export_format export_format_csv;
extern const struct export_format export_format_ics;
extern const struct export_format export_format_slurm;
extern const struct export_format export_format_k8s;
extern const struct export_format export_format_skypilot;
extern const struct export_format export_format_dstack;

/* Lower-case letters, digits and '-' from s, at most len-1 bytes, never
 * starting or ending with '-' ("RTX 4090" -> "rtx-4090"); "x" when
 * nothing is left. For names Slurm, Kubernetes and UIDs accept. */
void export_slug(const char *s, char *out, size_t len);

/* The escaping writers (export_text.c), one per format; every text from a
 * spec or a feed goes through one, comments included. For YAML (SkyPilot,
 * dstack): s as the inside of a double-quoted scalar, every control
 * character escaped and a byte that is not UTF-8 written as U+FFFD, and
 * as the whole scalar in double quotes. */
void export_yaml_body(FILE *f, const char *s);
void export_yaml_str(FILE *f, const char *s);
/* "# ", the formatted text with its control characters escaped as in
 * export_yaml_body, and a newline: a comment line of a YAML file or a
 * shell script that stays one line. False (nothing written) when out of
 * memory. */
bool export_comment(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as one bash word: '...', or $'...' with escapes when s holds a
 * control character, so the word never spans lines. */
void export_shell_quote(FILE *f, const char *s);
/* s as RFC 5545 TEXT (3.3.11) appended to b, a control character as
 * U+FFFD (TEXT has none); false when out of memory. */
struct buf;
bool export_ics_text(struct buf *b, const char *s);
/* Whether r is a rented run on a known GPU (what the SkyPilot and dstack
 * exports launch), and how many of s's runs are. */
bool export_launchable(const struct sched_run *r);
size_t export_launchable_count(const struct schedule *s);
/* Their runs of a route they cannot express (export_skipped_runs), and
 * the "# …" note line about them (nothing when none). */
int export_launchable_skipped(const struct schedule *s);
void export_launchable_note(FILE *f, const struct schedule *s, const char *format);

/* The accelerator name SkyPilot uses for a planner GPU name ("A100 80GB"
 * -> "A100-80GB", "RTX 4090" -> "RTX4090"), at most len-1 bytes. */
void export_sky_accel(const char *gpu, char *out, size_t len);

/* Past one node (issue 25): the nodes one replica of run r spans, its
 * GPUs over its GPU's node (gpus.json gpus_per_node; a rented run past
 * one node is instances of that size, route_rented.c); 1 within a node
 * or where the GPU states no node. */
int export_run_nodes(const struct sched_run *r);

/* run.command launched by torchrun with `flags` (each ending in a space):
 * a command that is torchrun already gets the flags after its name; a
 * python script loses its interpreter, as torchrun runs python scripts;
 * anything else runs with --no-python (torchrun's options: docs.pytorch.org
 * /docs/stable/elastic/run.html, read 2026-12-02). Allocated; NULL when
 * out of memory. */
char *export_torchrun(const char *command, const char *flags);

/* Serving jobs (export_serve.c): a job with serving: always-on or window
 * is a service, written as one object per job, not as runs. */
bool export_serving(const struct job *job);
/* A serving engine's HTTP server: what a Service, a readiness probe or a
 * SkyServe / dstack service needs. */
struct serve_engine {
	const char *word;   /* in run.command: "vllm", "llama-server" */
	const char *engine; /* engines.c's name, or NULL */
	const char *name;
	int port;           /* its default port */
	bool loopback;      /* binds 127.0.0.1 unless the command says --host */
};
#define SERVE_HEALTH_PATH "/health" /* the same path on all four engines */
/* The serving engine of job: by run.command's words, then by its engine;
 * vLLM's when neither says (the default inference engine, engines.c). */
const struct serve_engine *export_serve_engine(const struct job *job);
/* The port job's command listens on: its --port N (or --port=N), else
 * the engine's default. */
int export_serve_port(const struct job *job, const struct serve_engine *se);
/* Whether the engine binds 127.0.0.1 and run.command does not say --host:
 * nothing outside the machine or pod reaches it. */
bool export_serve_loopback(const struct job *job, const struct serve_engine *se);
/* The cron days of mask (days_mask bits, Monday bit 0) shifted by shift
 * days: cron's day of the week is 0 for Sunday. "1,2,3,4,5" for weekdays. */
void export_cron_days(unsigned mask, int shift, char *out, size_t len);
/* 1 when window w ends the day after it starts (crosses midnight or ends
 * at 24:00), else 0: the shift for its end's cron days. */
int export_window_end_shift(const struct job_schedule *w);
/* Whether run i is the first of its job's runs that writes(r) takes (the
 * one that writes a service's objects). */
bool export_serve_first(const struct schedule *s, size_t i,
                        bool (*writes)(const struct sched_run *r));

/* The SkyServe and dstack services (export_serve.c): whether run i is a
 * launchable run of a serving job; how many serving jobs have one; the
 * hours and cost of run i's job's launchable runs from i on. */
bool export_service_run(const struct schedule *s, size_t i);
size_t export_service_count(const struct schedule *s);
void export_service_totals(const struct schedule *s, size_t i, double *hours, double *cost);
/* Comment lines for a window service in a tool (SkyServe, dstack) that
 * has no time schedule: cron lines running up at the window's start and
 * down at its end, in the spec's time zone; nothing for always-on. And
 * the note that the engine binds 127.0.0.1 (export_serve_loopback). False
 * when out of memory. */
bool export_service_window_note(FILE *f, const struct schedule *s, const struct job *job,
                                const char *tool, const char *up, const char *down);
bool export_service_loopback_note(FILE *f, const struct job *job, const struct serve_engine *se);

/* The runs of s the SkyPilot and dstack exports write as tasks (rented,
 * not a service's); and their documents in order, numbered from 1: task()
 * for each such run, service() at each serving job's first launchable run.
 * False when one of them is (out of memory). */
size_t export_task_count(const struct schedule *s);
typedef bool export_task_fn(FILE *f, const struct schedule *s, const struct sched_run *r,
                            size_t k);
typedef bool export_service_fn(FILE *f, const struct schedule *s, size_t i, size_t k);
bool export_launch_docs(FILE *f, const struct schedule *s, export_task_fn *task,
                        export_service_fn *service);

#endif
