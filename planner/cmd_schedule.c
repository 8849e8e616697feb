/* cmd_schedule.c — `planner schedule FILE`: the month as a schedule, in
 * one of the formats batch systems and calendars take. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "export.h"
#include "fleet.h"
#include "plan.h"
#include "schedule.h"

/* What write_out needs, for cli_write_file. */
struct out_args {
	struct cli *c;
	const struct schedule *s;
	const struct export_format *fmt;
	const struct job_cluster *cluster; /* the spec's cluster: */
};

static int write_out(FILE *f, void *arg)
{
	const struct out_args *a = arg;
	struct export_opts o = {.color = a->c->color && f == stdout, .cluster = a->cluster};
	char *err = NULL;
	int rc = a->fmt->write(f, a->s, &o, &err);
	if (rc != PLANNER_OK)
		errorf("%s", err ? err : "cannot write the schedule");
	else if (o.skipped > 0)
		warnf("%d owned run%s left out: their jobs have no run.%s; add run: {%s: …} to "
		      "the job",
		      o.skipped, o.skipped == 1 ? " is" : "s are", a->fmt->needs, a->fmt->needs);
	if (rc == PLANNER_OK && o.skipped_runs > 0)
		warnf("%d run%s of a route --format %s cannot express left out (the output says "
		      "which; --format json has every run)",
		      o.skipped_runs, o.skipped_runs == 1 ? "" : "s", a->fmt->name);
	free(err);
	return rc;
}

/* Warns of every job's unplaced hours (unless --quiet); true when any. */
static bool note_unplaced(const struct cli *c, const struct schedule *s)
{
	bool any = false;
	for (size_t j = 0; j < s->n_jobs; j++)
		if (s->jobs[j].why[0] && (any = true) && !c->quiet)
			warnf("%.1f h of job '%s' not placed: %s", s->jobs[j].unplaced_hours,
			      s->jobs[j].job->name, s->jobs[j].why);
	return any;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The month on the fleet that `planner fleet` proposes: its schedule of
 * the owned GPUs plus the purchase. */
static int schedule_on_fleet(const struct cli *c, const struct jobspec *spec,
			     const struct plan *plan, int year, int month, struct schedule **out,
			     char **err)
{
	struct fleet *f = NULL;
	int rc = fleet_plan(spec, plan, year, month, &f, err);
	if (rc != PLANNER_OK)
		return rc;
	if (!c->quiet) {
		char buy[256];
		fleet_purchase_text(spec, fleet_recommended(f), buy, sizeof buy);
		notef("on the fleet: owned GPUs plus %s bought (planner fleet)", buy);
	}
	*out = fleet_take_recommended(f);
	fleet_free(f);
	return PLANNER_OK;
}

/* The synopsis and --help name the formats export_formats lists for
 * schedule; describe() writes them here before anything can print them. */
static char schedule_args[160], schedule_help[2048];

#define HELP_HEAD                                                                                  \
	"Lays the month out hour by hour in the spec's time zone: each job's hours on\n"           \
	"the GPUs you own (power only), then the cheapest rented capacity (spot where\n"           \
	"the job is interruptible), and token work on an API where that is cheapest,\n"            \
	"inside each job's window, days and deadline, at the least total cost. Higher\n"           \
	"priority wins owned GPUs only when the cost is equal. Hours that cannot be\n"             \
	"placed are listed with what to change.\n\n"                                               \
	"  --month YYYY-MM  the month (default: next month)\n"
#define HELP_TAIL                                                                                  \
	"  -o, --output P   write to P instead of standard output\n"                               \
	"  --db PATH        price database (else $PLANNER_DB, else\n"                              \
	"                   $XDG_DATA_HOME/planner/prices.db)\n"                                   \
	"  --quiet          no notes about prices (stale ones too) or unplaced hours\n"            \
	"  --allow-unplaced exit 0 even when hours could not be placed (else 6)\n"                 \
	"  --baseline       greedy by priority instead of the optimiser (for\n"                    \
	"                   benchmarks: bench/schedule.sh compares the two)\n"                     \
	"  --fleet          on the owned GPUs plus what 'planner fleet' proposes to buy\n"       \
	CLI_SET_HELP "\n"                                                                         \
	"examples:\n"                                                                              \
	"  planner schedule jobs/monthly.yaml --month 2026-03\n"                                   \
	"  planner schedule jobs/monthly.yaml --format slurm -o march.sh && bash march.sh\n"       \
	"  planner schedule jobs/monthly.yaml --format k8s -o march.yaml\n"

static void describe(void)
{
	char names[128], formats[512];
	snprintf(schedule_args, sizeof schedule_args,
	         "FILE [--month YYYY-MM] [--format %s] [-o PATH] [--db PATH] [--fleet]",
	         export_format_names(EXPORT_SCHEDULE, "|", "|", false, names, sizeof names));
	snprintf(schedule_help, sizeof schedule_help, "%s%s%s", HELP_HEAD,
	         export_format_help(EXPORT_SCHEDULE, formats, sizeof formats), HELP_TAIL);
}

static int exec_schedule(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
	                                     CLI_OUTPUT_OPTIONS,
	                                     {"month", required_argument, NULL, 'm'},
	                                     {"baseline", no_argument, NULL, 'B'},
	                                     {"allow-unplaced", no_argument, NULL, 'U'},
	                                     CLI_SET_OPTION,
	                                     {"fleet", no_argument, NULL, 'L'},
	                                     {0, 0, 0, 0}};
	int opt, rc, year = 0, month = 0;
	unsigned flags = 0;
	bool allow_unplaced = false, on_fleet = false;
	const struct export_format *fmt = export_formats[0];
	describe();
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hqo:", opts, NULL)) != -1) {
		switch (opt) {
		case 'B':
			flags |= SCHEDULE_BASELINE;
			continue;
		case 'U':
			allow_unplaced = true;
			continue;
		case 'L':
			on_fleet = true;
			continue;
		case 'm':
			if (!cli_parse_month(optarg, &year, &month))
				return cli_usage(c, "--month '%s' is not YYYY-MM, e.g. 2026-03",
				                 optarg);
			continue;
		case 'F': {
			char names[128];
			if (!(fmt = export_format_find(optarg, EXPORT_SCHEDULE)))
				return cli_usage(c, "unknown format '%s'; use %s", optarg,
				                 export_format_names(EXPORT_SCHEDULE, ", ", " or ",
				                                     false, names, sizeof names));
			continue;
		}
		default:
			break;
		}
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	if (!year)
		cli_next_month(&year, &month);
	const char *path = argv[optind];
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	struct schedule *sched = NULL;
	char *err = NULL;
	if ((rc = cli_plan(c, path, &spec, &plan)) != PLANNER_OK)
		return rc;
	double t0 = now_s();
	if (on_fleet)
		rc = schedule_on_fleet(c, spec, plan, year, month, &sched, &err);
	else
		rc = schedule_month(spec, plan, year, month, flags, &sched, &err);
	if (rc != PLANNER_OK) {
		errorf("%s", err ? err : "cannot schedule the month");
		goto out;
	}
	if (c->verbose)
		notef("scheduled %zu jobs over %d hours in %.2f s", spec->n_jobs, sched->n_slots,
		      now_s() - t0);
	bool unplaced = note_unplaced(c, sched);
	struct out_args args = {.c = c, .s = sched, .fmt = fmt, .cluster = &spec->cluster};
	rc = cli_write_file(c->out_path, write_out, &args);
	/* The schedule is written either way; scripts learn it is incomplete. */
	if (rc == PLANNER_OK && unplaced && !allow_unplaced)
		rc = PLANNER_EUNPLACED;
out:
	free(err);
	schedule_free(sched);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_schedule_entry = {
    .name = "schedule",
    .args = schedule_args,
    .summary = "the month as a schedule: which job runs where and when",
    .help = schedule_help,
    .exec = exec_schedule,
};
