/* cmd_diff.c — `planner diff OLD.yaml NEW.yaml` (or `diff FILE --set
 * KEY=VALUE`): what a change of the spec does to each job's decision and
 * cost and to the total, as Infracost's diff does for infrastructure.
 * Both specs are priced against the same database at once, so the
 * difference is the spec's, not the prices'. The JSON contract is in
 * docs/diff.md. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cJSON.h>

#include "cli.h"
#include "plan.h"

/* A job's side of the diff: its best route, or none (absent, or no route
 * runs it). */
struct side {
	const struct job_result *res; /* NULL when the spec has no such job */
	const struct route_result *best;
	char what[200];
};

/* "buy 8x RTX 5090", "rent 1x H100 SXM at vast", "api openrouter x". */
static void side_of(struct side *s, const struct job_result *res)
{
	memset(s, 0, sizeof *s);
	s->res = res;
	if (!res || res->best < 0) {
		snprintf(s->what, sizeof s->what, "%s", res ? "no route" : "-");
		return;
	}
	const struct route_result *r = s->best = &res->routes[res->best];
	const struct route_ops *ops = route_at((size_t)res->best);
	if (ops->decision)
		ops->decision(s->what, sizeof s->what, r);
	else
		snprintf(s->what, sizeof s->what, "%s %s", ops->name, r->offer);
}

static double cost_of(const struct side *s)
{
	return s->best ? s->best->monthly_cost : 0;
}

static double capex_of(const struct side *s)
{
	return s->best && route_has(s->best->route, ROUTE_HAS_CAPEX) ? s->best->capex : 0;
}

/* "added", "removed", "changed" (route or what it runs on), "cost"
 * (the same decision at another price), "unchanged". */
static const char *status_of(const struct side *o, const struct side *n)
{
	if (!o->res)
		return "added";
	if (!n->res)
		return "removed";
	if (strcmp(o->what, n->what))
		return "changed";
	return round_to(cost_of(o), 2) != round_to(cost_of(n), 2) ? "cost" : "unchanged";
}

static const struct job_result *find_job(const struct plan *p, const char *name)
{
	for (size_t i = 0; i < p->n_jobs; i++)
		if (!strcmp(p->jobs[i].job->name, name))
			return &p->jobs[i];
	return NULL;
}

/* Calls fn for every job of old and new: old's order, then new's added. */
typedef void (*pair_fn)(const struct side *o, const struct side *n, const char *name, void *arg);

static void each_pair(const struct plan *old, const struct plan *new, pair_fn fn, void *arg)
{
	struct side o, n;
	for (size_t i = 0; i < old->n_jobs; i++) {
		const char *name = old->jobs[i].job->name;
		side_of(&o, &old->jobs[i]);
		side_of(&n, find_job(new, name));
		fn(&o, &n, name, arg);
	}
	for (size_t i = 0; i < new->n_jobs; i++) {
		const char *name = new->jobs[i].job->name;
		if (find_job(old, name))
			continue;
		side_of(&o, NULL);
		side_of(&n, &new->jobs[i]);
		fn(&o, &n, name, arg);
	}
}

struct totals {
	double old_cost, new_cost, old_capex, new_capex;
	size_t changed;
};

static void add_pair(const struct side *o, const struct side *n, const char *name, void *arg)
{
	struct totals *t = arg;
	t->old_cost += cost_of(o);
	t->new_cost += cost_of(n);
	t->old_capex += capex_of(o);
	t->new_capex += capex_of(n);
	t->changed += strcmp(status_of(o, n), "unchanged") != 0;
}

static cJSON *side_json(const struct side *s)
{
	if (!s->res)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	if (s->best) {
		cJSON_AddStringToObject(o, "route", route_name(s->best->route));
		cJSON_AddNumberToObject(o, "monthly_cost", round_to(s->best->monthly_cost, 2));
		cJSON_AddNumberToObject(o, "capex", round_to(capex_of(s), 2));
	} else {
		cJSON_AddNullToObject(o, "route");
		cJSON_AddNullToObject(o, "monthly_cost");
		cJSON_AddNumberToObject(o, "capex", 0);
	}
	cJSON_AddStringToObject(o, "decision", s->what);
	return o;
}

static void json_pair(const struct side *o, const struct side *n, const char *name, void *arg)
{
	cJSON *j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "name", name);
	cJSON_AddStringToObject(j, "status", status_of(o, n));
	cJSON_AddItemToObject(j, "old", side_json(o));
	cJSON_AddItemToObject(j, "new", side_json(n));
	cJSON_AddNumberToObject(j, "monthly_cost_change", round_to(cost_of(n) - cost_of(o), 2));
	cJSON_AddBoolToObject(j, "decision_changed", o->res && n->res && strcmp(o->what, n->what));
	cJSON_AddItemToArray(arg, j);
}

static int print_json(const char *old_path, const char *new_path, const struct plan *old,
		      const struct plan *new, const struct totals *t)
{
	cJSON *root = json_doc_new("planner/diff/v1");
	cJSON_AddStringToObject(root, "currency", new->currency);
	cJSON_AddStringToObject(root, "prices_as_of", new->prices_as_of);
	cJSON_AddStringToObject(root, "old", old_path);
	cJSON_AddStringToObject(root, "new", new_path);
	each_pair(old, new, json_pair, cJSON_AddArrayToObject(root, "jobs"));
	cJSON *tot = cJSON_AddObjectToObject(root, "total");
	cJSON_AddNumberToObject(tot, "old_monthly_cost", round_to(t->old_cost, 2));
	cJSON_AddNumberToObject(tot, "new_monthly_cost", round_to(t->new_cost, 2));
	cJSON_AddNumberToObject(tot, "monthly_cost_change", round_to(t->new_cost - t->old_cost, 2));
	cJSON_AddNumberToObject(tot, "old_capex", round_to(t->old_capex, 2));
	cJSON_AddNumberToObject(tot, "new_capex", round_to(t->new_capex, 2));
	cJSON_AddNumberToObject(tot, "capex_change", round_to(t->new_capex - t->old_capex, 2));
	cJSON_AddNumberToObject(tot, "jobs_changed", (double)t->changed);
	return cli_print_json(root);
}

/* One job in the table: "~" changed decision, "+" added, "-" removed. */
static void table_pair(const struct side *o, const struct side *n, const char *name, void *arg)
{
	const char *st = status_of(o, n);
	char mark = !strcmp(st, "added") ? '+' : !strcmp(st, "removed") ? '-'
		    : !strcmp(st, "unchanged")                              ? ' '
									    : '~';
	char safe[64], oc[32] = "-", nc[32] = "-";
	if (o->best)
		snprintf(oc, sizeof oc, "%.2f", o->best->monthly_cost);
	if (n->best)
		snprintf(nc, sizeof nc, "%.2f", n->best->monthly_cost);
	printf("%c %-22.22s %12s %12s %+12.2f\n", mark, cli_safe(safe, sizeof safe, name), oc, nc,
	       cost_of(n) - cost_of(o));
	if (strcmp(o->what, n->what))
		printf("    %s -> %s\n", o->what, n->what);
	(void)arg;
}

static void print_table(const struct plan *old, const struct plan *new, const struct totals *t)
{
	printf("  %-22s %12s %12s %12s\n", "job", "old", "new", "change");
	each_pair(old, new, table_pair, NULL);
	double pct = t->old_cost > 0 ? (t->new_cost - t->old_cost) / t->old_cost * 100 : NAN;
	printf("  %-22s %12.2f %12.2f %+12.2f", "total a month", t->old_cost, t->new_cost,
	       t->new_cost - t->old_cost);
	if (isfinite(pct))
		printf(" (%+.1f%%)", pct);
	printf("\n  %-22s %12.0f %12.0f %+12.0f\n", "capex (up front)", t->old_capex, t->new_capex,
	       t->new_capex - t->old_capex);
	printf("(monthly cost of each job's cheapest route, %s; ~ decision or cost changed, + "
	       "added, - removed; %zu job%s changed)\n",
	       new->currency, t->changed, t->changed == 1 ? "" : "s");
}

/* Prices path with the overrides of c (or none). */
static int price(struct cli *c, const char *path, bool with_sets, struct jobspec **spec,
		 struct plan **plan)
{
	size_t n = c->n_sets;
	if (!with_sets)
		c->n_sets = 0;
	int rc = cli_plan(c, path, spec, plan);
	c->n_sets = n;
	return rc;
}

static int exec_diff(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS, CLI_SET_OPTION,
					     {"quiet", no_argument, NULL, 'q'}, {0, 0, 0, 0}};
	int opt, rc;
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hq", opts, NULL)) != -1)
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	int files = argc - optind;
	if (files != 2 && !(files == 1 && c->n_sets > 0))
		return cli_usage(c, "give the old and the new job spec, or one spec and --set");
	if (c->format == FORMAT_CSV)
		return cli_usage(c, "diff writes a table or JSON");
	const char *old_path = argv[optind], *new_path = argv[argc - 1];
	struct jobspec *os = NULL, *ns = NULL;
	struct plan *op = NULL, *np = NULL;
	struct totals t = {0};
	bool quiet = c->quiet;
	rc = price(c, old_path, false, &os, &op);
	c->quiet = true; /* the notes on prices were given once */
	if (rc == PLANNER_OK)
		rc = price(c, new_path, true, &ns, &np);
	c->quiet = quiet;
	if (rc)
		goto out;
	if (strcmp(op->currency, np->currency)) {
		errorf("%s prices in %s and %s in %s; give both the same currency", old_path,
		       op->currency, new_path, np->currency);
		rc = PLANNER_EINPUT;
		goto out;
	}
	each_pair(op, np, add_pair, &t);
	if (c->format == FORMAT_JSON)
		rc = print_json(old_path, new_path, op, np, &t);
	else
		print_table(op, np, &t);
out:
	plan_free(op);
	plan_free(np);
	jobspec_free(os);
	jobspec_free(ns);
	return rc;
}

const struct cmd_entry cmd_diff_entry = {
	.name = "diff",
	.args = "OLD NEW | FILE --set KEY=VALUE... [--format table|json] [--db PATH] [--quiet]",
	.summary = "what a change of the spec does to each job's decision and cost",
	.help = "Prices two job specs against the same prices and shows, per job and in\n"
		"total, the cheapest route and its monthly cost before and after, the change,\n"
		"and the capex. With one FILE and --set, the old spec is FILE and the new one\n"
		"FILE with the overrides (with two files, --set changes NEW). Jobs are matched\n"
		"by name; one only in NEW is added (+), one only in OLD removed (-).\n\n"
		"  --format F         table (default) or json (docs/diff.md)\n"
		CLI_SET_HELP
		"  --db PATH          price database (else $PLANNER_DB, else\n"
		"                     $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet            no note about where the prices come from or stale ones\n\n"
		"examples:\n  planner diff jobs/monthly.yaml jobs/next-quarter.yaml\n"
		"  planner diff jobs/monthly.yaml --set jobs.support-bot.tokens_per_month.input=400M\n",
	.exec = exec_diff,
};
