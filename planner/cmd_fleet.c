/* cmd_fleet.c — `planner fleet FILE`: what to buy for all the jobs
 * together (fleet.h), beside buying nothing and one purchase per job. */
#include <cJSON.h>
#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fleet.h"
#include "plan.h"

/* Where one job runs: its schedule's runs summed by route and place. */
#define WHERE_MAX 8
struct where {
	enum route route;
	char what[160];     /* "RTX 5090", "runpod RTX 4090 spot", the API model */
	double hours, cost;
};

/* The place of a run without its GPU numbers. */
static void place_of(const struct sched_run *r, char *buf, size_t len)
{
	if (route_has(r->route, ROUTE_HAS_CAPACITY))
		snprintf(buf, len, "%s", r->gpu ? r->gpu->name : r->resource);
	else if (route_has(r->route, ROUTE_HOURLY))
		snprintf(buf, len, "%s %s%s", r->provider, r->gpu ? r->gpu->name : "",
			 r->spot ? " spot" : "");
	else
		snprintf(buf, len, "%s", r->resource);
}

static size_t where_of(const struct schedule *s, size_t j, struct where *w)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->job != j)
			continue;
		char what[160];
		place_of(r, what, sizeof what);
		size_t k = 0;
		while (k < n && (w[k].route != r->route || strcmp(w[k].what, what)))
			k++;
		if (k == n) {
			if (n == WHERE_MAX)
				k = n - 1; /* a ninth place adds to the last: never in practice */
			else {
				memset(&w[n], 0, sizeof w[n]);
				w[n].route = r->route;
				snprintf(w[n].what, sizeof w[n].what, "%s", what);
				n++;
			}
		}
		w[k].hours += r->hours;
		w[k].cost += r->cost;
	}
	return n;
}

static void add_num_or_null(cJSON *o, const char *k, double v, int places)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, k, round_to(v, places));
	else
		cJSON_AddNullToObject(o, k);
}

static cJSON *jobs_json(const struct schedule *s)
{
	cJSON *a = cJSON_CreateArray();
	for (size_t j = 0; a && j < s->n_jobs; j++) {
		cJSON *o = cJSON_CreateObject(), *runs = cJSON_CreateArray();
		cJSON_AddItemToArray(a, o);
		cJSON_AddStringToObject(o, "name", s->jobs[j].job->name);
		cJSON_AddNumberToObject(o, "cost", round_to(s->jobs[j].cost, 2));
		cJSON_AddNumberToObject(o, "unplaced_hours", round_to(s->jobs[j].unplaced_hours, 1));
		cJSON_AddItemToObject(o, "runs_on", runs);
		struct where w[WHERE_MAX];
		size_t n = where_of(s, j, w);
		for (size_t k = 0; k < n; k++) {
			cJSON *x = cJSON_CreateObject();
			cJSON_AddItemToArray(runs, x);
			cJSON_AddStringToObject(x, "route", route_name(w[k].route));
			cJSON_AddStringToObject(x, "where", w[k].what);
			cJSON_AddNumberToObject(x, "hours", round_to(w[k].hours, 1));
			cJSON_AddNumberToObject(x, "cost", round_to(w[k].cost, 2));
		}
	}
	return a;
}

static cJSON *choice_json(const struct jobspec *spec, const struct fleet *f,
			  const struct fleet_choice *c)
{
	cJSON *o = cJSON_CreateObject(), *buy = cJSON_CreateArray(), *routes = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "purchase", buy);
	for (size_t i = 0; i < f->n_types; i++) {
		if (c->counts[i] <= 0)
			continue;
		cJSON *x = cJSON_CreateObject();
		cJSON_AddItemToArray(buy, x);
		cJSON_AddStringToObject(x, "gpu", spec->buy[i].gpu->name);
		cJSON_AddNumberToObject(x, "count", c->counts[i]);
		cJSON_AddNumberToObject(x, "price", round_to(spec->buy[i].price, 2));
	}
	cJSON_AddNumberToObject(o, "capex", round_to(c->capex, 2));
	cJSON_AddNumberToObject(o, "purchase_monthly", round_to(c->purchase_monthly, 2));
	if (c->sched->owned_fixed > 0) /* as schedule's JSON: present when not 0 */
		cJSON_AddNumberToObject(o, "owned_fixed_cost", round_to(c->sched->owned_fixed, 2));
	cJSON_AddNumberToObject(o, "monthly_total", round_to(c->monthly_total, 2));
	cJSON_AddItemToObject(o, "by_route", routes);
	for (int r = 0; r < (int)route_count(); r++)
		cJSON_AddNumberToObject(routes, route_name((enum route)r), round_to(c->by_route[r], 2));
	add_num_or_null(o, "payback_months", fleet_payback(spec, c, &f->none), 1);
	cJSON_AddNumberToObject(o, "unplaced_hours", round_to(c->unplaced_hours, 1));
	cJSON_AddItemToObject(o, "jobs", jobs_json(c->sched));
	return o;
}

static cJSON *fleet_json(const struct jobspec *spec, const struct plan *plan,
			 const struct fleet *f)
{
	const struct schedule *s = f->best.sched;
	cJSON *root = choice_json(spec, f, &f->best);
	if (!root)
		return NULL;
	cJSON_AddStringToObject(root, "month", s->month);
	cJSON_AddNumberToObject(root, "hours", s->n_slots);
	cJSON_AddStringToObject(root, "currency", plan->currency);
	cJSON_AddStringToObject(root, "prices_as_of", plan->prices_as_of);
	cJSON_AddNumberToObject(root, "amortize_months", spec->amortize_months);
	cJSON_AddNumberToObject(root, "bound", round_to(f->bound, 2));
	struct plan_total t; /* compare's figure for one purchase per job */
	plan_total(plan, &t);
	cJSON_AddNumberToObject(root, "compare_monthly_total", round_to(t.monthly, 2));
	cJSON *search = cJSON_CreateObject(), *alt = cJSON_CreateObject();
	cJSON_AddItemToObject(root, "search", search);
	cJSON_AddNumberToObject(search, "evaluations", f->evaluations);
	cJSON_AddNumberToObject(search, "quick_evaluations", f->quick_evaluations);
	cJSON_AddBoolToObject(search, "exact", f->exact);
	cJSON_AddItemToObject(root, "alternatives", alt);
	cJSON_AddItemToObject(alt, "buy_nothing", choice_json(spec, f, &f->none));
	cJSON_AddItemToObject(alt, "one_purchase_per_job", choice_json(spec, f, &f->per_job));
	return root;
}

static void print_table(FILE *out, const struct jobspec *spec, const struct plan *plan,
			const struct fleet *f)
{
	const struct fleet_choice *ch[3] = {&f->best, &f->none, &f->per_job};
	const struct schedule *s = f->best.sched;
	char buf[3][256], name[160];
	fprintf(out, "fleet for %s (%d h, %s), %s, prices as of %s\n\n", s->month, s->n_slots,
		s->timezone, plan->currency, plan->prices_as_of);
	fprintf(out, "%-22s %22s %22s %22s\n", "", "fleet", "buy nothing", "one purchase per job");
	for (int k = 0; k < 3; k++)
		fleet_purchase_text(spec, ch[k], buf[k], sizeof buf[k]);
	fprintf(out, "%-22s %22s %22s %22s\n", "purchase", cli_safe(buf[0], sizeof buf[0], buf[0]),
		buf[1], cli_safe(buf[2], sizeof buf[2], buf[2]));
	fprintf(out, "%-22s %22.2f %22.2f %22.2f\n", "capex", ch[0]->capex, ch[1]->capex,
		ch[2]->capex);
	for (int r = 0; r < (int)route_count(); r++)
		fprintf(out, "%-22s %22.2f %22.2f %22.2f\n", route_name((enum route)r),
			ch[0]->by_route[r], ch[1]->by_route[r], ch[2]->by_route[r]);
	fprintf(out, "%-22s %22.2f %22.2f %22.2f\n", "  of which purchase", ch[0]->purchase_monthly,
		ch[1]->purchase_monthly, ch[2]->purchase_monthly);
	/* The owned pools' fixed month (schedule.h, owned_fixed), when costs:
	 * or idle_watts give one. */
	if (ch[0]->sched->owned_fixed > 0 || ch[1]->sched->owned_fixed > 0 ||
	    ch[2]->sched->owned_fixed > 0)
		fprintf(out, "%-22s %22.2f %22.2f %22.2f\n", "  of which fixed",
			ch[0]->sched->owned_fixed, ch[1]->sched->owned_fixed,
			ch[2]->sched->owned_fixed);
	fprintf(out, "%-22s %22.2f %22.2f %22.2f\n", "monthly total", ch[0]->monthly_total,
		ch[1]->monthly_total, ch[2]->monthly_total);
	for (int k = 0; k < 3; k++)
		fleet_payback_text(spec, f, ch[k], buf[k], sizeof buf[k]);
	fprintf(out, "%-22s %22s %22s %22s\n", "payback", buf[0], buf[1], buf[2]);
	if (ch[0]->unplaced_hours > 0 || ch[1]->unplaced_hours > 0 || ch[2]->unplaced_hours > 0)
		fprintf(out, "%-22s %22.1f %22.1f %22.1f\n", "unplaced hours",
			ch[0]->unplaced_hours, ch[1]->unplaced_hours, ch[2]->unplaced_hours);
	/* The same plan's figure as compare states it (plan_total). */
	struct plan_total t;
	plan_total(plan, &t);
	fprintf(out, "one purchase per job, jobs priced one by one (planner compare): %.2f %s a "
		"month\n",
		t.monthly, plan->currency);
	fprintf(out, "\nwhere each job runs on the fleet\n%-22s %-7s %-44s %8s %10s\n", "job",
		"route", "where", "hours", "cost");
	for (size_t j = 0; j < s->n_jobs; j++) {
		struct where w[WHERE_MAX];
		size_t n = where_of(s, j, w);
		cli_safe(name, sizeof name, s->jobs[j].job->name);
		for (size_t k = 0; k < n; k++) {
			cli_safe(w[k].what, sizeof w[k].what, w[k].what);
			char hours[32] = "-";
			if (route_has(w[k].route, ROUTE_ON_GPUS))
				snprintf(hours, sizeof hours, "%.1f", w[k].hours);
			fprintf(out, "%-22s %-7s %-44s %8s %10.2f\n", k ? "" : name,
				route_name(w[k].route), w[k].what, hours, w[k].cost);
		}
		if (s->jobs[j].unplaced_hours > 0)
			fprintf(out, "%-22s %-7s %-44s %8.1f %10s\n", n ? "" : name, "-", "unplaced",
				s->jobs[j].unplaced_hours, "-");
	}
	fprintf(out, "\nbound: no fleet costs less than %.2f a month (gap %.1f%%); %d purchases "
		"evaluated%s",
		f->bound, f->bound > 0 ? (f->best.monthly_total / f->bound - 1) * 100 : 0.0,
		f->evaluations, f->exact ? ", every one" : " by local search");
	if (f->quick_evaluations > 0)
		fprintf(out, " after %d quick looks", f->quick_evaluations);
	fprintf(out, "\n");
}

/* The search schedules hundreds of months, each allocating and freeing a
 * few MB (a 200-job month's solution alone is 1.5 MB); by default glibc
 * serves such blocks by mmap, or trims the heap back, and the kernel
 * faults the pages in again every time: 17 % of the time of
 * bench/fleet.sh went there (perf, 2026-12-01). Big blocks from the heap,
 * kept up to 64 MB free, took its CPU from 8.3 s to 4.5 s for 0.8 MB more
 * peak RSS (bench/README.md). 32 MB is glibc's largest mmap threshold on
 * 64-bit (mallopt(3)). */
#define FLEET_MMAP_THRESHOLD (32 << 20)
#define FLEET_TRIM_THRESHOLD (64 << 20)

static void keep_heap(void)
{
#ifdef __GLIBC__
	mallopt(M_MMAP_THRESHOLD, FLEET_MMAP_THRESHOLD);
	mallopt(M_TRIM_THRESHOLD, FLEET_TRIM_THRESHOLD);
#endif
}

struct out_args {
	const struct cli *c;
	const struct jobspec *spec;
	const struct plan *plan;
	const struct fleet *f;
};

static int write_out(FILE *out, void *arg)
{
	const struct out_args *a = arg;
	if (a->c->format != FORMAT_JSON) {
		print_table(out, a->spec, a->plan, a->f);
		return PLANNER_OK;
	}
	cJSON *doc = fleet_json(a->spec, a->plan, a->f);
	char *text = doc ? cJSON_Print(doc) : NULL;
	cJSON_Delete(doc);
	if (!text) {
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	fprintf(out, "%s\n", text);
	free(text);
	return PLANNER_OK;
}

static int exec_fleet(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, CLI_OUTPUT_OPTIONS,
					     {"month", required_argument, NULL, 'm'},
					     {"thorough", no_argument, NULL, 'T'},
					     {0, 0, 0, 0}};
	int opt, rc, year = 0, month = 0;
	unsigned flags = 0;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hqo:", opts, NULL)) != -1) {
		if (opt == 'm') {
			if (!cli_parse_month(optarg, &year, &month))
				return cli_usage(c, "--month '%s' is not YYYY-MM, e.g. 2026-03",
						 optarg);
			continue;
		}
		if (opt == 'T') {
			flags |= FLEET_THOROUGH;
			continue;
		}
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	if (c->format == FORMAT_CSV)
		return cli_usage(c, "fleet prints a table or JSON; use --format table or json");
	if (!year) /* next month, as planner schedule */
		cli_next_month(&year, &month);
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	struct fleet *f = NULL;
	char *err = NULL;
	if ((rc = cli_plan(c, argv[optind], &spec, &plan)) != PLANNER_OK)
		return rc;
	keep_heap();
	if ((rc = fleet_plan_opts(spec, plan, year, month, flags, &f, &err)) != PLANNER_OK)
		errorf("%s", err ? err : "cannot plan the fleet");
	else {
		struct out_args a = {.c = c, .spec = spec, .plan = plan, .f = f};
		rc = cli_write_file(c->out_path, write_out, &a);
	}
	free(err);
	fleet_free(f);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

const struct cmd_entry cmd_fleet_entry = {
	.name = "fleet",
	.args = "FILE [--month YYYY-MM] [--format table|json] [-o PATH] [--db PATH] [--thorough]",
	.summary = "what to buy for all the jobs together, beside buying nothing",
	.help = "Finds the purchase from the spec's buy: list (how many of each GPU, possibly\n"
		"none) that runs all the jobs of FILE together at the least monthly cost: the\n"
		"GPUs bought and those already owned are shared between the jobs hour by hour\n"
		"inside their windows, days and deadlines (as 'planner schedule' lays them\n"
		"out), the rest rented or sent to the API. A bought GPU costs its price over\n"
		"amortize_months every month, and its power for the hours it runs. Prints the\n"
		"purchase, its capex, the monthly bill by route, the payback against buying\n"
		"nothing (\"not within N months\" beyond amortize_months) and where each job\n"
		"runs, beside \"buy nothing\" and \"one purchase per job\" (the purchase each\n"
		"job's own best route in 'planner compare' makes, scheduled together), and\n"
		"the figure compare's summary line gives that plan, jobs priced one by one.\n"
		"With many possible purchases a local search ranks them by a quick schedule\n"
		"(construction only) and schedules the best few in full (docs/fleet.md).\n\n"
		"  --month YYYY-MM  the month to plan (default: next month)\n"
		"  --thorough       schedule every purchase the search tries in full, with no\n"
		"                   quick ranking first (slower: minutes at 200 jobs)\n"
		"  -o, --output P   write to P instead of standard output\n"
		"  --db PATH        price database (else $PLANNER_DB, else\n"
		"                   $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet          no notes about where the prices come from\n\n"
		"examples:\n"
		"  planner fleet jobs/monthly.yaml --month 2026-03\n"
		"  planner fleet jobs/monthly.yaml --format json -o fleet.json\n"
		"  planner schedule jobs/monthly.yaml --fleet --month 2026-03\n",
	.exec = exec_fleet,
};
