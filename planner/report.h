/* report.h — the HTML report of `planner report`: one self-contained
 * XHTML-compatible file (no scripts, fonts or images from elsewhere; the
 * charts are inline SVG written here) that a person opens in a browser or
 * attaches to an e-mail. Pure output over a plan: the caller gathers the
 * data (cmd_report.c) and owns the stream. */
#ifndef PLANNER_REPORT_H
#define PLANNER_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "fleet.h"
#include "history.h"
#include "plan.h"
#include "store.h"

/* struct cost_line: route.h. */

/* The lines of a job, one per route of the list (route_cost_line). This function can't
 * fail. */
void report_cost_lines(const struct jobspec *spec, const struct job_result *j,
		       struct cost_line out[ROUTE_MAX]);

/* Where lines a and b cross, in hours per month, or NAN when they do not
 * cross in (0, max_hours] (parallel, or they cross outside). */
double report_crossing(const struct cost_line *a, const struct cost_line *b, double max_hours);

/* Everything the report shows besides the plan. */
struct report_input {
	const struct jobspec *spec;
	const struct plan *plan;
	struct offer *const *offers;          /* per job: cheapest offers that fit, in the
	                                       * plan's currency (plan_convert_offers) */
	const size_t *n_offers;               /* per job */
	const struct history_curve *history;  /* price curves (history_curves) */
	size_t n_history;
	const char *generated_at;             /* ISO 8601 UTC */
	const char *history_fx;               /* rates the history was converted to USD
	                                       * with (fx_note_add); "" or NULL: none */
	const struct fleet *fleet;            /* what planner fleet proposes; NULL: none */
	const char *fleet_note;               /* why there is no fleet, or NULL */
	const struct schedule *month;         /* the month planner schedule lays out;
	                                       * NULL: none */
	const char *month_note;               /* why there is no month, or NULL */
};

/* Writes the report to f. Returns PLANNER_OK, or PLANNER_ESYS with *err
 * set when the stream reports a write error. */
/* The XML escapes of s, as report.c writes all text (report_escf:
 * printf first); for report_summary.c. */
void report_esc(FILE *f, const char *s);
void report_escf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The first screen: totals by route, capex and payback, regions, the
 * decision per job (report_summary.c). */
struct report_input;
void report_summary(FILE *f, const struct report_input *in);
/* The horizon: the plan's cumulative cash with and without its purchases,
 * month by month, as a sentence and a chart (report_horizon.c). */
void report_horizon(FILE *f, const struct report_input *in);
/* The fleet beside buying nothing and one purchase per job, and the
 * month's schedule per job and in total (report_fleet.c). */
void report_fleet(FILE *f, const struct report_input *in);
void report_month(FILE *f, const struct report_input *in);

int report_write_html(FILE *f, const struct report_input *in, char **err);

#endif
