/* export.h — a schedule in the formats people already run jobs with
 * (DESIGN.md, "Schedules run on real batch systems"). One small file per
 * format (export_<format>.c). Each writes to f and returns PLANNER_OK, or
 * PLANNER_EINPUT with *err set; they never print anything else. Write
 * errors show on f (ferror) and are the caller's to check at fclose. */
#ifndef PLANNER_EXPORT_H
#define PLANNER_EXPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "jobspec.h"
#include "schedule.h"

/* The JSON contract: month, timezone, currency, total_cost, runs, jobs,
 * unplaced, owned_utilization (times ISO 8601 with their UTC offset). */
int export_json(FILE *f, const struct schedule *s, char **err);
/* A month view per owned GPU (a row per day, a letter per hour), the
 * rented and API totals and the cost split by route. */
int export_table(FILE *f, const struct schedule *s, bool color, char **err);
/* One row per run, RFC 4180 (CRLF, quoted where needed). */
int export_csv(FILE *f, const struct schedule *s, char **err);
/* RFC 5545: one VEVENT per owned or rented run, times in UTC, stable UIDs
 * from job and start, CRLF and folded lines. API work has no hours and is
 * left out. */
int export_ics(FILE *f, const struct schedule *s, char **err);
/* A bash script of sbatch calls, one per owned run. Runs of a job without
 * run.command are written commented out; *skipped counts them. */
int export_slurm(FILE *f, const struct schedule *s, int *skipped, char **err);
/* Kubernetes batch/v1 Jobs, one per owned run, created suspended with the
 * start as an annotation; runs of a job without run.image are left out and
 * counted in *skipped. */
int export_k8s(FILE *f, const struct schedule *s, int *skipped, char **err);

/* Lower-case letters, digits and '-' from s, at most len-1 bytes, never
 * starting or ending with '-' ("RTX 4090" -> "rtx-4090"); "x" when
 * nothing is left. For names Slurm, Kubernetes and UIDs accept. */
void export_slug(const char *s, char *out, size_t len);

#endif
