/* check_routes.c — the route list (planner/route.c): a route registered
 * at run time, with a flat monthly price, is priced and compared with the
 * shipped three, gets its own break-even pair, and appears in compare's
 * table, JSON and CSV, breakeven's CSV, diff, fleet, the report and the
 * schedule's table, JSON and CSV, while every export that cannot express
 * its runs says so (a note, and skipped_runs in the JSON schedule) instead
 * of dropping them. The binary cannot register a route, so the commands
 * run in a forked child through their table entries (libplanner.a). Also:
 * the data-class and task rules follow a route's properties. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "jobspec.h"
#include "plan.h"
#include "route.h"
#include "route_price.h"
#include "testutil.h"
#include "util.h"

/* The flat route's price a month, whatever the job does. */
#define FLAT_MONTHLY 5.0

static int price_flat(const struct route_ctx *c, struct route_result *r, char **err)
{
	(void)c;
	(void)err;
	r->feasible = true;
	r->monthly_cost = FLAT_MONTHLY;
	snprintf(r->provider, sizeof r->provider, "flatco");
	snprintf(r->offer, sizeof r->offer, "flat-plan");
	return PLANNER_OK;
}

/* A flat fee: all of it fixed, nothing per hour. */
static void flat_line(const struct route_result *r, double use, struct cost_line *l)
{
	(void)use;
	l->fixed = r->monthly_cost;
	l->slope = 0;
}

static void flat_json(cJSON *o, const struct plan *p, const struct route_result *r)
{
	(void)p;
	cJSON_AddStringToObject(o, "offer", r->offer);
}

static int flat_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
                       bool costs)
{
	(void)costs;
	return snprintf(buf, len, "%s %s, a flat %.2f %s", r->provider, r->offer, r->monthly_cost,
	                cur);
}

static void flat_decision(char *buf, size_t len, const struct route_result *r)
{
	snprintf(buf, len, "flat %s %s", r->provider, r->offer);
}

static const enum route_field flat_head[] = {ROUTE_FIELD_MONTHLY_COST, ROUTE_FIELD_OFFER,
                                             ROUTE_FIELD_END};

static const struct route_ops route_flat = {
    .name = "flat",
    .tie_rank = 3,
    .flags = 0,
    .colour = "#cc79a7",
    .price = price_flat,
    .cost_line = flat_line,
    .json = flat_json,
    .detail = flat_detail,
    .decision = flat_decision,
    .csv_head = flat_head,
};

static const struct breakeven_pair flat_pairs[] = {{
    .a = &route_flat,
    .b = &route_rented,
    .label = "flat vs rented",
    .json_key = "flat_vs_rented_hours_per_month",
    .json_places = 1,
    .csv_column = "flat_vs_rented_breakeven_hours",
    .csv_unit = 1,
    .csv_places = 1,
    .figure = breakeven_lines_cross,
    .text = breakeven_hours_text,
}};

static void register_flat(void)
{
	char *err = NULL;
	int rc = route_register(&route_flat, flat_pairs, 1, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "");
}

static char *dir, *db, *spec_path, *spec2_path;

/* One provider with one RTX 4090 at 0.40 USD/h (0.20 EUR), one API model,
 * and a job of 100 hours a month: rented 20 EUR, flat 5 EUR. The second
 * spec adds a job, for diff. */
#define SPEC_HEAD                                                                                  \
	"version: 1\ncurrency: EUR\nfx: {EUR: 0.5}\nelectricity_per_kwh: 0.10\npue: 1.0\n"         \
	"amortize_months: 24\nproviders: [lambda]\n"                                               \
	"buy: [{gpu: RTX 5090, price: 2400, watts: 575}]\n"                                        \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 100}\n"

static void setup(void)
{
	dir = test_tmpdir();
	db = xasprintf("%s/routes.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	struct offer o = {.offer = "one-4090",
	                  .gpu = "RTX 4090",
	                  .gpu_count = 1,
	                  .price_per_hour = 0.40,
	                  .available = true};
	o.vram_gib = refdata_gpu(test_ref(), "RTX 4090")->vram_gib;
	snprintf(o.fetched_at, sizeof o.fetched_at, "2026-12-01T00:00:00Z");
	ck_assert_int_eq(store_replace_offers(st, "lambda", &o, 1, &err), PLANNER_OK);
	store_close(st);
	spec_path = test_write(dir, "a.yaml", SPEC_HEAD);
	spec2_path = test_write(dir, "b.yaml",
	                        SPEC_HEAD " - {name: b, model: llama-3.1-8b, precision: q4_k_m, "
	                                  "hours_per_month: 50}\n");
}

static void teardown(void)
{
	route_reset();
	free(dir);
	free(db);
	free(spec_path);
	free(spec2_path);
}

/* Runs `planner ARGS --db db` in a child that registered the flat route,
 * through the command's table entry; stdout into *out (malloc'd). Returns
 * the exit status. */
static int run_cmd(const struct cmd_entry *cmd, const char *const *args, char **out)
{
	char *outp = xasprintf("%s/out.txt", dir), *errp = xasprintf("%s/err.txt", dir);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		if (!freopen(outp, "w", stdout) || !freopen(errp, "w", stderr))
			_exit(98);
		char *err = NULL;
		if (route_register(&route_flat, flat_pairs, 1, &err) != PLANNER_OK)
			_exit(97);
		struct cli c = {.prog = "planner", .format = FORMAT_TABLE, .cmd = cmd};
		if (refdata_load(&c.ref, &err) != PLANNER_OK)
			_exit(96);
		char *argv[32];
		int argc = 0;
		argv[argc++] = (char *)cmd->name;
		for (size_t i = 0; args[i]; i++)
			argv[argc++] = (char *)args[i];
		argv[argc++] = "--db";
		argv[argc++] = db;
		argv[argc] = NULL;
		opterr = 0;
		c.argc = argc;
		c.argv = argv;
		int rc = cmd->exec(&c, argc, argv);
		fflush(NULL);
		_exit(rc == CLI_HELP_SHOWN ? 0 : rc);
	}
	int status = 0;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	*out = test_slurp(outp);
	char *errtext = test_slurp(errp);
	ck_assert_ptr_nonnull(*out);
	int rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	ck_assert_msg(rc == PLANNER_OK, "%s exited %d: %s", cmd->name, rc, errtext ? errtext : "");
	free(errtext);
	free(outp);
	free(errp);
	return rc;
}

static cJSON *run_json(const struct cmd_entry *cmd, const char *const *args)
{
	char *out = NULL;
	run_cmd(cmd, args, &out);
	cJSON *j = cJSON_Parse(out);
	ck_assert_msg(j != NULL, "not JSON: %s", out);
	free(out);
	return j;
}

START_TEST(a_registered_route_is_priced_compared_and_gets_its_break_even)
{
	register_flat();
	ck_assert_uint_eq(route_count(), ROUTE_BUILTIN + 1);
	ck_assert_str_eq(route_name(ROUTE_BUILTIN), "flat");
	ck_assert_uint_eq(breakeven_count(), BREAKEVEN_BUILTIN + 1);
	struct store *st = NULL;
	struct jobspec *spec = NULL;
	struct plan *p = NULL;
	char *err = NULL;
	char *yaml = test_slurp(spec_path);
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	ck_assert_msg(jobspec_parse("a.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_msg(plan_compare(spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	const struct job_result *j = &p->jobs[0];
	ck_assert(j->routes[ROUTE_BUILTIN].feasible);
	ck_assert_int_eq(j->routes[ROUTE_BUILTIN].route, ROUTE_BUILTIN);
	ck_assert_double_eq_tol(j->routes[ROUTE_BUILTIN].monthly_cost, FLAT_MONTHLY, 1e-12);
	ck_assert_double_eq_tol(j->routes[ROUTE_RENTED].monthly_cost, 20.0, 1e-9);
	ck_assert_int_eq(j->best, ROUTE_BUILTIN); /* 5 < 20, and less than owning */
	/* The flat line (5 + 0 h) meets rented's (0.20 EUR an hour of the
	 * job's work) at 25 h a month. */
	ck_assert_double_eq_tol(j->be.value[BREAKEVEN_BUILTIN], 25.0, 1e-9);
	/* The shipped figures keep their places. */
	ck_assert(isfinite(j->routes[ROUTE_OWNED].monthly_cost));
	plan_free(p);
	jobspec_free(spec);
	store_close(st);
	free(yaml);
}
END_TEST

START_TEST(compare_shows_the_route_in_its_table_json_and_csv)
{
	char *out = NULL;
	const char *table[] = {spec_path, NULL};
	run_cmd(&cmd_compare_entry, table, &out);
	ck_assert_msg(strstr(out, "api     rented      owned serverless       flat\n"), "%s", out);
	ck_assert_msg(strstr(out, " flat     "), "best is flat: %s", out);
	ck_assert_msg(strstr(out, "flatco flat-plan, a flat 5.00 EUR"), "%s", out);
	ck_assert_msg(strstr(out, "; flat vs rented 25.0 h/month"), "%s", out);
	free(out);
	const char *json[] = {spec_path, "--format", "json", NULL};
	cJSON *root = run_json(&cmd_compare_entry, json);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const cJSON *routes = cJSON_GetObjectItem(job, "routes");
	ck_assert_int_eq(cJSON_GetArraySize(routes), 5);
	const cJSON *flat = cJSON_GetArrayItem(routes, 4);
	ck_assert_str_eq(cJSON_GetObjectItem(flat, "route")->valuestring, "flat");
	ck_assert_str_eq(cJSON_GetObjectItem(flat, "offer")->valuestring, "flat-plan");
	ck_assert(!cJSON_GetObjectItem(flat, "replicas")); /* not on GPUs */
	ck_assert_double_eq_tol(cJSON_GetObjectItem(flat, "monthly_cost")->valuedouble, 5.0, 1e-9);
	ck_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(job, "best"), "route")->valuestring, "flat");
	const cJSON *be = cJSON_GetObjectItem(job, "breakeven");
	ck_assert_double_eq_tol(
	    cJSON_GetObjectItem(be, "flat_vs_rented_hours_per_month")->valuedouble, 25.0, 1e-9);
	const cJSON *h = cJSON_GetObjectItem(cJSON_GetObjectItem(job, "horizon"), "monthly");
	ck_assert_double_eq_tol(cJSON_GetArrayItem(cJSON_GetObjectItem(h, "flat"), 0)->valuedouble,
	                        5.0, 1e-9);
	cJSON_Delete(root);
	const char *csv[] = {spec_path, "--format", "csv", NULL};
	run_cmd(&cmd_compare_entry, csv, &out);
	ck_assert_msg(strstr(out, "\r\na,llama-3.1-8b,flat,true,flatco,flat-plan,,,,,,5.00,true,"),
	              "%s", out);
	free(out);
}
END_TEST

START_TEST(breakeven_gives_the_route_its_columns_and_pair)
{
	char *out = NULL;
	const char *args[] = {spec_path, NULL};
	run_cmd(&cmd_breakeven_entry, args, &out);
	char *eol = strstr(out, "\r\n");
	ck_assert_ptr_nonnull(eol);
	*eol = '\0';
	ck_assert_msg(strstr(out, ",serverless_gpu_count,flat_monthly_cost,flat_offer,best_route,"), "%s",
	              out);
	ck_assert_msg(strstr(out, ",api_vs_rented_breakeven_mtokens,"
	                          "serverless_vs_rented_breakeven_hours,flat_vs_rented_breakeven_hours,"
	                          "currency,"),
	              "%s", out);
	ck_assert_msg(strstr(eol + 2, ",5.00,flat-plan,flat,5.00,"), "%s", eol + 2);
	ck_assert_msg(strstr(eol + 2, ",25.0,EUR,"), "%s", eol + 2);
	free(out);
}
END_TEST

START_TEST(diff_fleet_and_the_report_name_the_route)
{
	const char *diff[] = {spec_path, spec2_path, "--format", "json", NULL};
	cJSON *d = run_json(&cmd_diff_entry, diff);
	char *text = cJSON_PrintUnformatted(d);
	ck_assert_msg(strstr(text, "\"route\":\"flat\""), "%s", text);
	ck_assert_msg(strstr(text, "flat flatco flat-plan"), "%s", text);
	free(text);
	cJSON_Delete(d);
	const char *fleet[] = {spec_path, "--month", "2026-03", "--format", "json", NULL};
	cJSON *f = run_json(&cmd_fleet_entry, fleet);
	const cJSON *by = cJSON_GetObjectItem(f, "by_route");
	ck_assert_msg(cJSON_GetObjectItem(by, "flat"), "no flat in the fleet's by_route");
	ck_assert_double_eq_tol(cJSON_GetObjectItem(by, "flat")->valuedouble, 5.0, 1e-9);
	cJSON_Delete(f);
	char *html_path = xasprintf("%s/r.html", dir), *out = NULL;
	const char *report[] = {spec_path, "--month", "2026-03", "-o", html_path, NULL};
	run_cmd(&cmd_report_entry, report, &out);
	free(out);
	char *html = test_slurp(html_path);
	ck_assert_ptr_nonnull(html);
	ck_assert_msg(strstr(html, "<td class=\"best\">flat</td>"), "summary lacks the route");
	ck_assert_msg(strstr(html, "stroke=\"#cc79a7\""), "chart lacks the route's line");
	ck_assert_msg(strstr(html, "flat = rented at 25.0 h"), "chart lacks the crossing");
	ck_assert_msg(strstr(html, "; flat vs rented <b>25.0 h/month</b>"), "no break-even text");
	ck_assert_msg(strstr(html, "flat 5.00"), "the month lacks the route's cost");
	free(html);
	free(html_path);
}
END_TEST

/* RFC 5545 unfolding, in place: CRLF and one space join two lines. */
static void unfold(char *s)
{
	char *w = s;
	for (const char *r = s; *r;) {
		if (r[0] == '\r' && r[1] == '\n' && r[2] == ' ') {
			r += 3;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
}

/* The schedule's own formats carry the run; the batch and cloud formats,
 * which cannot start it, say so in the file and in the JSON's
 * skipped_runs. */
START_TEST(every_export_writes_the_route_runs_or_says_it_left_them_out)
{
	char *out = NULL;
	const char *json[] = {spec_path, "--month", "2026-03", "--format", "json", NULL};
	cJSON *s = run_json(&cmd_schedule_entry, json);
	const cJSON *run = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "runs"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(run, "route")->valuestring, "flat");
	ck_assert_double_eq_tol(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(s, "cost_by_route"), "flat")->valuedouble, 5.0,
	    1e-9);
	const cJSON *skipped = cJSON_GetObjectItem(s, "skipped_runs");
	ck_assert_ptr_nonnull(skipped);
	static const char *const cannot[] = {"ics", "slurm", "k8s", "skypilot", "dstack"};
	for (size_t i = 0; i < sizeof cannot / sizeof *cannot; i++) {
		const cJSON *n = cJSON_GetObjectItem(skipped, cannot[i]);
		ck_assert_msg(n && n->valueint == 1, "%s: skipped_runs", cannot[i]);
	}
	ck_assert_int_eq(cJSON_GetArraySize(skipped), 5);
	cJSON_Delete(s);
	const char *table[] = {spec_path, "--month", "2026-03", NULL};
	run_cmd(&cmd_schedule_entry, table, &out);
	ck_assert_msg(strstr(out, "flat, all month"), "%s", out);
	ck_assert_msg(strstr(out, "  flat          5.00 EUR"), "%s", out);
	free(out);
	const char *csv[] = {spec_path, "--month", "2026-03", "--format", "csv", NULL};
	run_cmd(&cmd_schedule_entry, csv, &out);
	ck_assert_msg(strstr(out, "\r\na,flat,flatco flat-plan,"), "%s", out);
	free(out);
	for (size_t i = 0; i < sizeof cannot / sizeof *cannot; i++) {
		const char *args[] = {spec_path, "--month", "2026-03", "--format", cannot[i], NULL};
		run_cmd(&cmd_schedule_entry, args, &out);
		unfold(out); /* a calendar folds its lines at 75 octets */
		char *note =
		    xasprintf("1 run of route flat left out: %s cannot express them", cannot[i]);
		ck_assert_msg(strstr(out, note), "%s: %s", cannot[i], out);
		free(note);
		free(out);
	}
}
END_TEST

/* A registered route's properties, not its name, decide the data and
 * task rules, with the shipped reason texts. */
START_TEST(the_data_and_task_rules_follow_a_route_properties)
{
	static const struct route_ops hosted = {.name = "hosted",
	                                        .tie_rank = 3,
	                                        .flags = ROUTE_THIRD_PARTY | ROUTE_LEAVES_HOUSE,
	                                        .price = price_flat};
	static const struct route_ops cloud = {
	    .name = "cloud", .tie_rank = 4, .flags = ROUTE_LEAVES_HOUSE, .price = price_flat};
	char *err = NULL;
	static const char *const yaml =
	    "version: 1\njobs:\n"
	    " - {name: c, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 1, "
	    "data: confidential}\n"
	    " - {name: r, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 1, "
	    "data: restricted}\n";
	struct jobspec *spec = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	struct workload c, r;
	ck_assert_int_eq(workload_init(&c, spec, &spec->jobs[0], &err), PLANNER_OK);
	ck_assert_int_eq(workload_init(&r, spec, &spec->jobs[1], &err), PLANNER_OK);
	char why[128];
	/* One registered route at a time: the list has room for one beside
	 * the shipped four. */
	ck_assert_int_eq(route_register(&hosted, NULL, 0, &err), PLANNER_OK);
	ck_assert_int_eq(route_register(&hosted, NULL, 0, &err), PLANNER_EINPUT);
	ck_assert_str_eq(err, "route 'hosted' is already listed");
	free(err);
	ck_assert(!workload_route_allowed(&c, ROUTE_BUILTIN, why, sizeof why));
	ck_assert_str_eq(why, "data: confidential excludes third-party APIs");
	route_reset();
	ck_assert_int_eq(route_register(&cloud, NULL, 0, &err), PLANNER_OK);
	ck_assert(workload_route_allowed(&c, ROUTE_BUILTIN, NULL, 0));
	ck_assert(!workload_route_allowed(&r, ROUTE_BUILTIN, why, sizeof why));
	ck_assert_str_eq(why, "data: restricted allows owned GPUs only");
	jobspec_free(spec);
}
END_TEST

START_TEST(the_list_is_bounded)
{
	static struct route_ops extra[ROUTE_MAX];
	static char names[ROUTE_MAX][8];
	char *err = NULL;
	size_t room = ROUTE_MAX - route_count();
	for (size_t i = 0; i <= room; i++) {
		snprintf(names[i], sizeof names[i], "x%zu", i);
		extra[i] = (struct route_ops){.name = names[i], .price = price_flat};
		int rc = route_register(&extra[i], NULL, 0, &err);
		ck_assert_int_eq(rc, i < room ? PLANNER_OK : PLANNER_EINPUT);
	}
	ck_assert_uint_eq(route_count(), ROUTE_MAX);
	ck_assert_str_eq(route_name(ROUTE_MAX), "?");
	free(err);
}
END_TEST

/* A pair's routes must be in the list: a figure reads both. */
START_TEST(a_pair_with_an_unlisted_route_is_refused)
{
	static const struct route_ops other = {.name = "other", .price = price_flat};
	struct breakeven_pair bad = flat_pairs[0];
	bad.b = &other;
	char *err = NULL;
	ck_assert_int_eq(route_register(&route_flat, &bad, 1, &err), PLANNER_EINPUT);
	ck_assert_ptr_nonnull(strstr(err, "needs two listed routes"));
	ck_assert_uint_eq(route_count(), ROUTE_BUILTIN);
	ck_assert_uint_eq(breakeven_count(), BREAKEVEN_BUILTIN);
	free(err);
}
END_TEST

Suite *routes_suite(void)
{
	Suite *s = suite_create("routes");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_registered_route_is_priced_compared_and_gets_its_break_even);
	tcase_add_test(tc, compare_shows_the_route_in_its_table_json_and_csv);
	tcase_add_test(tc, breakeven_gives_the_route_its_columns_and_pair);
	tcase_add_test(tc, diff_fleet_and_the_report_name_the_route);
	tcase_add_test(tc, every_export_writes_the_route_runs_or_says_it_left_them_out);
	tcase_add_test(tc, the_data_and_task_rules_follow_a_route_properties);
	tcase_add_test(tc, the_list_is_bounded);
	tcase_add_test(tc, a_pair_with_an_unlisted_route_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
