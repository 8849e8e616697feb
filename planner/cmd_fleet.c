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
#include <strings.h>

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
		/* a shared commitment's pool has a provider: its name says whose */
		snprintf(buf, len, "%s", r->provider[0] || !r->gpu ? r->resource : r->gpu->name);
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

/* c's purchase as {gpu, count, price} items of a. */
static void purchase_json(cJSON *a, const struct fleet *f, const struct fleet_choice *c)
{
	for (size_t i = 0; i < f->n_types; i++) {
		if (c->counts[i] <= 0)
			continue;
		cJSON *x = cJSON_CreateObject();
		cJSON_AddItemToArray(a, x);
		cJSON_AddStringToObject(x, "gpu", f->buy[i].gpu->name);
		cJSON_AddNumberToObject(x, "count", c->counts[i]);
		cJSON_AddNumberToObject(x, "price", round_to(f->buy[i].price, 2));
		const struct offer_term *t = f->buy[i].commit;
		if (!t)
			continue;
		/* a shared commitment: nothing bought, a fixed month */
		int instances = fleet_commit_instances(&f->buy[i], c->counts[i]);
		cJSON *m = cJSON_AddObjectToObject(x, "commitment");
		cJSON_AddStringToObject(m, "provider", t->o.provider);
		cJSON_AddStringToObject(m, "offer", t->o.offer);
		cJSON_AddStringToObject(m, "region", t->o.region);
		cJSON_AddStringToObject(m, "term", t->term);
		cJSON_AddStringToObject(m, "option", t->option);
		cJSON_AddNumberToObject(m, "instances", instances);
		cJSON_AddNumberToObject(m, "upfront", round_to(t->upfront * instances, 2));
		cJSON_AddNumberToObject(m, "effective_per_hour", round_to(t->o.price_per_hour, 4));
		cJSON_AddNumberToObject(m, "monthly_cost",
		                        round_to(offer_term_month(t, instances), 2));
	}
}

/* c's members added to o (a new object when o is NULL); returns o. */
static cJSON *choice_json(cJSON *o, const struct jobspec *spec, const struct fleet *f,
                          const struct fleet_choice *c)
{
	if (!o)
		o = cJSON_CreateObject();
	cJSON *buy = cJSON_CreateArray(), *routes = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "purchase", buy);
	purchase_json(buy, f, c);
	cJSON_AddNumberToObject(o, "capex", round_to(c->capex, 2));
	cJSON_AddNumberToObject(o, "purchase_monthly", round_to(c->purchase_monthly, 2));
	if (c->sched->owned_fixed > 0) /* as schedule's JSON: present when not 0 */
		cJSON_AddNumberToObject(o, "owned_fixed_cost", round_to(c->sched->owned_fixed, 2));
	cJSON_AddNumberToObject(o, "monthly_total", round_to(c->monthly_total, 2));
	cJSON_AddItemToObject(o, "by_route", routes);
	for (int r = 0; r < (int)route_count(); r++)
		cJSON_AddNumberToObject(routes, route_name((enum route)r),
		                        round_to(c->by_route[r], 2));
	cJSON *hours = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "hours_by_route", hours);
	for (int r = 0; r < (int)route_count(); r++)
		if (route_has((enum route)r, ROUTE_ON_GPUS))
			cJSON_AddNumberToObject(hours, route_name((enum route)r),
			                        round_to(c->sched->route_hours[r], 1));
	add_num_or_null(o, "payback_months", fleet_payback(spec, c, &f->none), 1);
	cJSON_AddNumberToObject(o, "unplaced_hours", round_to(c->unplaced_hours, 1));
	cJSON_AddItemToObject(o, "jobs", jobs_json(c->sched));
	return o;
}

/* When the fleet runs out (fleet_runout): null without growth or horizon. */
static cJSON *runout_json(const struct fleet *f, const struct fleet_runout *r)
{
	if (!r || !r->checked)
		return cJSON_CreateNull();
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "horizon_months", r->months);
	cJSON_AddNumberToObject(o, "growth_percent", r->growth_percent);
	if (!r->month) {
		cJSON_AddNullToObject(o, "month");
		return o;
	}
	cJSON_AddNumberToObject(o, "month", r->month);
	cJSON_AddNumberToObject(o, "owned_hours", round_to(r->owned_hours, 1));
	cJSON_AddNumberToObject(o, "expected_owned_hours", round_to(r->expected_hours, 1));
	cJSON *add = cJSON_AddArrayToObject(o, "add");
	purchase_json(add, f, &r->add);
	cJSON_AddNumberToObject(o, "add_capex", round_to(r->add.capex, 2));
	cJSON_AddNumberToObject(o, "monthly_total_then", round_to(r->add.monthly_total, 2));
	return o;
}

static cJSON *fleet_json(const struct jobspec *spec, const struct plan *plan, const struct fleet *f,
                         const struct fleet_runout *run)
{
	const struct schedule *s = f->best.sched;
	cJSON *root = choice_json(json_doc_new("planner/fleet/v1"), spec, f, &f->best);
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
	cJSON_AddItemToObject(alt, "buy_nothing", choice_json(NULL, spec, f, &f->none));
	cJSON_AddItemToObject(alt, "one_purchase_per_job", choice_json(NULL, spec, f, &f->per_job));
	if (f->given.sched)
		cJSON_AddItemToObject(alt, "given", choice_json(NULL, spec, f, &f->given));
	cJSON_AddStringToObject(root, "recommended", fleet_pick_name(f->recommended));
	cJSON_AddBoolToObject(root, "buy_list_derived", f->derived);
	cJSON *types = cJSON_CreateArray();
	cJSON_AddItemToObject(root, "buy_candidates", types);
	for (size_t i = 0; i < f->n_types; i++) {
		char name[96];
		if (f->buy[i].commit)
			snprintf(name, sizeof name, "%s (%s %s commitment)", f->buy[i].gpu->name,
			         f->buy[i].commit->o.provider, f->buy[i].commit->term);
		else
			snprintf(name, sizeof name, "%s", f->buy[i].gpu->name);
		cJSON_AddItemToArray(types, cJSON_CreateString(name));
	}
	cJSON_AddItemToObject(root, "runout", runout_json(f, run));
	return root;
}

/* The strategies the table shows: the search's, buying nothing, one
 * purchase per job, and --buy's when given; *n gets how many. */
static size_t table_choices(const struct fleet *f, const struct fleet_choice **ch,
                            const char **head)
{
	static const char *const names[] = {"fleet", "buy nothing", "one purchase per job",
	                                    "given"};
	const struct fleet_choice *all[4] = {&f->best, &f->none, &f->per_job, &f->given};
	size_t n = f->given.sched ? 4 : 3;
	for (size_t k = 0; k < n; k++)
		ch[k] = all[k], head[k] = names[k];
	return n;
}

/* One row: label, then a number per strategy. */
static void num_row(FILE *out, const char *label, const double *v, size_t n, const char *f)
{
	fprintf(out, "%-22s", label);
	for (size_t k = 0; k < n; k++)
		fprintf(out, f, v[k]);
	fprintf(out, "\n");
}

static void text_row(FILE *out, const char *label, char (*v)[256], size_t n)
{
	fprintf(out, "%-22s", label);
	for (size_t k = 0; k < n; k++)
		fprintf(out, " %22s", cli_safe(v[k], sizeof v[k], v[k]));
	fprintf(out, "\n");
}

static void strategies_table(FILE *out, const struct jobspec *spec, const struct fleet *f)
{
	const struct fleet_choice *ch[4];
	const char *head[4];
	size_t n = table_choices(f, ch, head);
	char buf[4][256];
	double v[4];
	for (size_t k = 0; k < n; k++)
		snprintf(buf[k], sizeof buf[k], "%s", head[k]);
	text_row(out, "", buf, n);
	for (size_t k = 0; k < n; k++)
		fleet_purchase_text(spec, ch[k], buf[k], sizeof buf[k]);
	text_row(out, "purchase", buf, n);
#define ROW(label, expr)                                                                           \
	do {                                                                                       \
		for (size_t k = 0; k < n; k++)                                                     \
			v[k] = (expr);                                                             \
		num_row(out, label, v, n, " %22.2f");                                              \
	} while (0)
	ROW("capex", ch[k]->capex);
	for (int r = 0; r < (int)route_count(); r++)
		ROW(route_name((enum route)r), ch[k]->by_route[r]);
	ROW("  of which purchase", ch[k]->purchase_monthly);
	bool committed = false; /* shared commitments (fleet_commit.c) */
	for (size_t k = 0; k < n; k++)
		committed |= ch[k]->commit_monthly > 0;
	if (committed)
		ROW("  of which commitments", ch[k]->commit_monthly);
	/* The owned pools' fixed month (schedule.h, owned_fixed), when costs:
	 * or idle_watts give one. */
	bool fixed = false;
	for (size_t k = 0; k < n; k++)
		fixed |= ch[k]->sched->owned_fixed > 0;
	if (fixed)
		ROW("  of which fixed", ch[k]->sched->owned_fixed);
	ROW("monthly total", ch[k]->monthly_total);
#undef ROW
	for (size_t k = 0; k < n; k++)
		fleet_payback_text(spec, f, ch[k], buf[k], sizeof buf[k]);
	text_row(out, "payback", buf, n);
	/* What each strategy rents: the hours off the owned GPUs, every
	 * strategy doing all the work it can (docs/fleet.md). */
	for (int r = 0; r < (int)route_count(); r++) {
		if (route_has((enum route)r, ROUTE_HAS_CAPACITY) ||
		    !route_has((enum route)r, ROUTE_ON_GPUS))
			continue;
		char label[32];
		snprintf(label, sizeof label, "%s hours", route_name((enum route)r));
		for (size_t k = 0; k < n; k++)
			v[k] = ch[k]->sched->route_hours[r];
		num_row(out, label, v, n, " %22.1f");
	}
	bool unplaced = false;
	for (size_t k = 0; k < n; k++)
		unplaced |= ch[k]->unplaced_hours > 0;
	if (unplaced) {
		for (size_t k = 0; k < n; k++)
			v[k] = ch[k]->unplaced_hours;
		num_row(out, "unplaced hours", v, n, " %22.1f");
	}
}

/* Where each job of s runs, by route and place. */
static void where_table(FILE *out, const struct schedule *s)
{
	char name[160];
	fprintf(out, "%-22s %-7s %-44s %8s %10s\n", "job", "route", "where", "hours", "cost");
	for (size_t j = 0; j < s->n_jobs; j++) {
		struct where w[WHERE_MAX];
		size_t n = where_of(s, j, w);
		cli_safe(name, sizeof name, s->jobs[j].job->name);
		for (size_t k = 0; k < n; k++) {
			cli_safe(w[k].what, sizeof w[k].what, w[k].what);
			char hours[32] = "-";
			if (w[k].hours > 0) /* on GPUs: owned, rented, a serverless window */
				snprintf(hours, sizeof hours, "%.1f", w[k].hours);
			fprintf(out, "%-22s %-7s %-44s %8s %10.2f\n", k ? "" : name,
				route_name(w[k].route), w[k].what, hours, w[k].cost);
		}
		if (s->jobs[j].unplaced_hours > 0)
			fprintf(out, "%-22s %-7s %-44s %8.1f %10s\n", n ? "" : name, "-", "unplaced",
				s->jobs[j].unplaced_hours, "-");
	}
}

/* The recommendation, and why the search's purchase is not it. */
static void print_recommended(FILE *out, const struct jobspec *spec, const struct fleet *f)
{
	const struct fleet_choice *r = fleet_recommended(f);
	char buy[256], pay[64];
	fleet_purchase_text(spec, r, buy, sizeof buy);
	fprintf(out, "\nrecommended: %s, %.2f a month", cli_safe(buy, sizeof buy, buy),
	        r->monthly_total);
	if (r->capex > 0) {
		fleet_payback_text(spec, f, r, pay, sizeof pay);
		fprintf(out, ", pays back in %s", pay);
	}
	if (f->recommended != FLEET_PICK_SEARCH && f->best.capex > 0) {
		fleet_purchase_text(spec, &f->best, buy, sizeof buy);
		fprintf(out, "; the search's %s does not pay back within %g months",
		        cli_safe(buy, sizeof buy, buy), spec->amortize_months);
	} else if (r->capex > 0 && !isfinite(fleet_payback(spec, r, &f->none)))
		fprintf(out,
		        "; it does not pay back within %g months, but no strategy that "
		        "buys less does all the work",
		        spec->amortize_months);
	fprintf(out, "\n");
}

/* The lower bound in words (docs/fleet.md, "The bound"). */
static void print_bound(FILE *out, const struct fleet *f)
{
	const struct fleet_choice *r = fleet_recommended(f);
	fprintf(out,
	        "no purchase can cost less than %.2f a month (each job on its cheapest "
	        "route alone, as if windows and the other jobs did not limit it), so the "
	        "recommended %.2f is at most %.2f above the best possible; the search scheduled "
	        "%d purchases%s",
	        f->bound, r->monthly_total,
	        r->monthly_total > f->bound ? r->monthly_total - f->bound : 0.0, f->evaluations,
	        f->exact ? ", every one" : "");
	if (f->quick_evaluations > 0)
		fprintf(out, " after a quick look at %d", f->quick_evaluations);
	fprintf(out, "\n");
}

/* When the fleet runs out over the horizon (fleet_runout). */
static void print_runout(FILE *out, const struct jobspec *spec, const struct fleet_runout *run)
{
	if (!run || !run->checked)
		return;
	if (!run->month) {
		fprintf(out,
		        "over %d months with growth, the fleet does not run out: its GPUs "
		        "keep taking their share of the work\n",
		        run->months);
		return;
	}
	char buy[256];
	fleet_purchase_text(spec, &run->add, buy, sizeof buy);
	fprintf(out,
	        "over %d months with growth, the fleet runs out in month %d: its GPUs "
	        "take %.1f h of work where %.1f h would keep pace, the rest rented or sent to the "
	        "API; ",
	        run->months, run->month, run->owned_hours, run->expected_hours);
	if (run->add.capex > 0)
		fprintf(out, "then add %s (capex %.2f; %.2f a month in all then)\n",
		        cli_safe(buy, sizeof buy, buy), run->add.capex, run->add.monthly_total);
	else
		fprintf(out, "then add nothing: renting the rest stays cheaper (%.2f a month)\n",
		        run->add.monthly_total);
}

static void print_table(FILE *out, const struct jobspec *spec, const struct plan *plan,
                        const struct fleet *f, const struct fleet_runout *run)
{
	const struct schedule *s = fleet_recommended(f)->sched;
	fprintf(out, "fleet for %s (%d h, %s), %s, prices as of %s\n", s->month, s->n_slots,
	        s->timezone, plan->currency, plan->prices_as_of);
	if (f->derived) {
		fprintf(out, "no buy: list, so the GPUs to buy are those with a price that suit "
		             "the jobs best:");
		for (size_t i = 0; i < f->n_types; i++)
			fprintf(out, "%s %s", i ? "," : "", f->buy[i].gpu->name);
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
	strategies_table(out, spec, f);
	/* The same plan's figure as compare states it (plan_total). */
	struct plan_total t;
	plan_total(plan, &t);
	fprintf(out, "one purchase per job, jobs priced one by one (planner compare): %.2f %s a "
	             "month\n",
	        t.monthly, plan->currency);
	print_recommended(out, spec, f);
	fprintf(out, "\nwhere each job runs on the recommended fleet\n");
	where_table(out, s);
	fprintf(out, "\n");
	print_bound(out, f);
	print_runout(out, spec, run);
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
	const struct fleet_runout *run;
};

static int write_out(FILE *out, void *arg)
{
	const struct out_args *a = arg;
	if (a->c->format != FORMAT_JSON) {
		print_table(out, a->spec, a->plan, a->f, a->run);
		return PLANNER_OK;
	}
	cJSON *doc = fleet_json(a->spec, a->plan, a->f, a->run);
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

/* A GPU named by --buy: one of the spec's (buy:, gpus:) or the reference
 * table's. */
static const struct gpu_spec *given_gpu(const struct cli *c, const struct jobspec *spec,
                                        const char *name)
{
	for (size_t i = 0; i < spec->n_buy; i++)
		if (!strcasecmp(spec->buy[i].gpu->name, name))
			return spec->buy[i].gpu;
	for (size_t i = 0; i < spec->n_gpus; i++)
		if (!strcasecmp(spec->gpus[i].spec.name, name))
			return &spec->gpus[i].spec;
	return refdata_gpu(c->ref, name);
}

/* --buy "8x H100 SXM, 2x A100 80GB" into g[0..*n). */
static int parse_given(struct cli *c, const struct jobspec *spec, const char *arg,
                       struct fleet_given *g, size_t *n)
{
	char text[512];
	snprintf(text, sizeof text, "%s", arg);
	*n = 0;
	for (char *save = NULL, *item = strtok_r(text, ",", &save); item;
	     item = strtok_r(NULL, ",", &save)) {
		char *end;
		errno = 0;
		long count = strtol(item, &end, 10);
		while (*end == ' ')
			end++;
		const char *rest = *end ? end + 1 + strspn(end + 1, " ") : end;
		if (end == item || errno || count < 1 || count > 64 || (*end != 'x' && *end != 'X') ||
		    !*rest)
			return cli_usage(c,
			                 "--buy '%s': write COUNTx GPU, e.g. --buy \"8x H100 SXM\" "
			                 "(1 to 64 of a GPU)",
			                 arg);
		char *name = end + 1;
		while (*name == ' ')
			name++;
		for (size_t len = strlen(name); len && name[len - 1] == ' ';)
			name[--len] = 0;
		const struct gpu_spec *gpu = given_gpu(c, spec, name);
		if (!gpu) {
			const char *near = refdata_gpu_suggest(c->ref, name);
			return cli_usage(c, "--buy: unknown GPU '%s'%s%s%s", name,
			                 near ? "; did you mean '" : "", near ? near : "",
			                 near ? "'?" : "");
		}
		if (*n == FLEET_MAX_GIVEN)
			return cli_usage(c, "--buy: at most %d GPU types", FLEET_MAX_GIVEN);
		g[(*n)++] = (struct fleet_given){.gpu = gpu, .count = (int)count};
	}
	return *n ? PLANNER_OK : cli_usage(c, "--buy: give COUNTx GPU, e.g. \"8x H100 SXM\"");
}

/* fleet_runout's replan: compare's pricing of the grown spec. */
static int replan(void *ctx, const struct jobspec *grown, struct plan **plan, char **err)
{
	struct cli *c = ctx;
	return plan_compare(grown, c->ref, c->store, plan, err);
}

struct fleet_args {
	int year, month;
	unsigned flags;
	const char *buy; /* --buy, or NULL */
};

static int plan_and_write(struct cli *c, const char *path, const struct fleet_args *fa)
{
	struct jobspec *spec = NULL;
	struct plan *plan = NULL;
	struct fleet *f = NULL;
	struct fleet_runout run = {0};
	struct fleet_given given[FLEET_MAX_GIVEN];
	char *err = NULL;
	int rc = cli_plan(c, path, &spec, &plan);
	if (rc != PLANNER_OK)
		return rc;
	struct fleet_opts o = {.flags = fa->flags | FLEET_ANY_GPU, .ref = c->ref, .given = given};
	if (fa->buy && (rc = parse_given(c, spec, fa->buy, given, &o.n_given)))
		goto out;
	keep_heap();
	if ((rc = fleet_plan_with(spec, plan, fa->year, fa->month, &o, &f, &err)) ||
	    (rc = fleet_runout(spec, f, fa->year, fa->month, replan, c, &run, &err)))
		errorf("%s", err ? err : "cannot plan the fleet");
	else {
		struct out_args a = {.c = c, .spec = spec, .plan = plan, .f = f, .run = &run};
		rc = cli_write_file(c->out_path, write_out, &a);
	}
out:
	free(err);
	fleet_free(f);
	plan_free(plan);
	jobspec_free(spec);
	return rc;
}

static int exec_fleet(struct cli *c, int argc, char **argv)
{
	static const struct option opts[] = {CLI_COMMON_OPTIONS,
	                                     CLI_OUTPUT_OPTIONS,
	                                     CLI_SET_OPTION,
					     {"month", required_argument, NULL, 'm'},
					     {"thorough", no_argument, NULL, 'T'},
	                                     {"buy", required_argument, NULL, 'B'},
					     {0, 0, 0, 0}};
	int opt, rc;
	struct fleet_args fa = {0};
	optind = 0;
	while ((opt = getopt_long(argc, argv, "hqo:", opts, NULL)) != -1) {
		if (opt == 'm') {
			if (!cli_parse_month(optarg, &fa.year, &fa.month))
				return cli_usage(c, "--month '%s' is not YYYY-MM, e.g. 2026-03",
						 optarg);
			continue;
		}
		if (opt == 'T') {
			fa.flags |= FLEET_THOROUGH;
			continue;
		}
		if (opt == 'B') {
			fa.buy = optarg;
			continue;
		}
		if ((rc = cli_other_option(c, opt, optarg)))
			return rc;
	}
	if (optind != argc - 1)
		return cli_usage(c, "give one job spec file");
	if (c->format == FORMAT_CSV)
		return cli_usage(c, "fleet prints a table or JSON; use --format table or json");
	if (!fa.year) /* next month, as planner schedule */
		cli_next_month(&fa.year, &fa.month);
	return plan_and_write(c, argv[optind], &fa);
}

const struct cmd_entry cmd_fleet_entry = {
	.name = "fleet",
	.args = "FILE [--month YYYY-MM] [--format table|json] [-o PATH] [--set KEY=VALUE]... "
		"[--buy PURCHASE] [--db PATH] [--thorough]",
	.summary = "what to buy for all the jobs together, beside buying nothing",
	.help = "Finds the purchase from the spec's buy: list (how many of each GPU, possibly\n"
		"none) that runs all the jobs of FILE together at the least monthly cost: the\n"
		"GPUs bought and those already owned are shared between the jobs hour by hour\n"
		"inside their windows, days and deadlines (as 'planner schedule' lays them\n"
		"out), the rest rented or sent to the API. Without buy: the GPUs to buy are\n"
		"those with a price that fit at least one job, the six that suit the jobs\n"
		"best. Every strategy does all the work: what owned GPUs do not take is\n"
		"rented or sent to the API at compare's prices, and an inference job may run\n"
		"rented replicas in the same hours as its owned ones (a fine-tune runs in one\n"
		"place at a time). A bought GPU costs its price over amortize_months every\n"
		"month, and its power for the hours it runs. Prints the purchase, its capex,\n"
		"the monthly bill by route, the hours rented, the payback against buying\n"
		"nothing (\"not within N months\" beyond amortize_months) and where each job\n"
		"runs, beside \"buy nothing\" and \"one purchase per job\" (the purchase each\n"
		"job's own best route in 'planner compare' makes, scheduled together), and\n"
		"the one recommended: the cheapest that pays back within amortize_months,\n"
		"or buys nothing; and the figure compare's summary line gives one purchase\n"
		"per job, jobs priced one by one. With growth: over horizon_months it names\n"
		"the month the fleet runs out, and what to add then (docs/fleet.md).\n\n"
		"  --month YYYY-MM  the month to plan (default: next month)\n"
		"  --buy PURCHASE   price this purchase beside the search, e.g.\n"
		"                   --buy \"8x H100 SXM\" or \"8x H100 SXM, 2x L40S\"\n"
		"  --thorough       schedule every purchase the search tries in full, with no\n"
		"                   quick ranking first (slower: minutes at 200 jobs)\n"
		CLI_SET_HELP
		"  -o, --output P   write to P instead of standard output\n"
		"  --db PATH        price database (else $PLANNER_DB, else\n"
		"                   $XDG_DATA_HOME/planner/prices.db)\n"
		"  --quiet          no notes about where the prices come from\n\n"
		"examples:\n"
		"  planner fleet jobs/monthly.yaml --month 2026-03\n"
		"  planner fleet jobs/monthly.yaml --buy \"4x RTX 5090\"\n"
		"  planner fleet jobs/monthly.yaml --set growth=10%\n"
		"  planner fleet jobs/monthly.yaml --format json -o fleet.json\n"
		"  planner schedule jobs/monthly.yaml --fleet --month 2026-03\n",
	.exec = exec_fleet,
};
