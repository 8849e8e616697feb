/* check_route_serverless.c — the serverless route (planner/route_serverless.c):
 * a job is billed per busy second of the cheapest worker it fits, plus
 * the idle time and cold starts its traffic implies (a batch job's few,
 * an interactive job's by the Poisson rule); the data-class, region and
 * task rules follow its properties; it appears in compare's table, JSON
 * and CSV, breakeven's CSV, the report and the schedule's fallbacks. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan.h"
#include "route.h"
#include "testutil.h"
#include "util.h"

static char *dir, *db;

/* One offer at 5 USD/h each at lambda and runpod, so a small job rents
 * dearly and the serverless worker is the cheapest route. */
static void setup(void)
{
	dir = test_tmpdir();
	db = xasprintf("%s/sls.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	struct offer o = {.offer = "dear-4090",
	                  .gpu = "RTX 4090",
	                  .gpu_count = 1,
	                  .price_per_hour = 5.0,
	                  .available = true};
	o.vram_gib = refdata_gpu(test_ref(), "RTX 4090")->vram_gib;
	snprintf(o.fetched_at, sizeof o.fetched_at, "2026-12-01T00:00:00Z");
	ck_assert_int_eq(store_replace_offers(st, "lambda", &o, 1, &err), PLANNER_OK);
	/* RunPod rents pods too: its snapshot's are replaced by the dear one. */
	ck_assert_int_eq(store_replace_offers(st, "runpod", &o, 1, &err), PLANNER_OK);
	store_close(st);
}

static void teardown(void)
{
	free(dir);
	free(db);
}

#define HEAD "version: 1\nproviders: [lambda, runpod, replicate, modal]\njobs:\n"
#define JOB  " - {name: a, model: llama-3.1-8b, precision: q4_k_m, "

/* Plans yaml against the fixture's store. */
static struct plan *plan_of(const char *yaml, struct jobspec **spec)
{
	return test_plan_of(NULL, db, yaml, spec);
}

/* The cheapest per-second price of a worker of one GPU with at least
 * vram GiB, from the reference data: what the route should pick. */
static double cheapest_per_second(double vram)
{
	const struct refdata *ref = test_ref();
	double best = INFINITY;
	for (size_t k = 0; k < ref->n_serverless; k++) {
		const struct serverless_offering *s = &ref->serverless[k];
		if (!s->scale_to_zero || isnan(s->idle_timeout_s))
			continue;
		for (size_t i = 0; i < s->n_rows; i++)
			if (s->rows[i].count == 1 && s->rows[i].gpu->vram_gib >= vram &&
			    s->rows[i].usd_per_second < best)
				best = s->rows[i].usd_per_second;
	}
	return best;
}

START_TEST(a_batch_job_is_billed_per_busy_second)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD JOB "hours_per_month: 10, "
	                                  "serverless: {idle_timeout_s: 0, cold_start_s: 0}}\n",
	                         &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert_str_eq(route_name(ROUTE_SERVERLESS), "serverless");
	/* No idle time and free starts: the busy seconds alone, at the
	 * cheapest worker the job fits on. */
	double per_s = cheapest_per_second(p->jobs[0].vram_gib);
	ck_assert_double_eq_tol(r->price_per_hour, per_s * 3600, 1e-9);
	ck_assert_double_eq_tol(r->sls.busy_hours, r->replicas * r->gpu_hours, 1e-9);
	ck_assert_double_eq_tol(r->monthly_cost, r->sls.busy_hours * 3600 * per_s, 1e-9);
	ck_assert_double_eq_tol(r->sls.starts, 1, 1e-12); /* 10 h in one run, no window */
	ck_assert_int_eq(p->jobs[0].best, ROUTE_SERVERLESS);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* issue 27: a service up its office hours (serving: window) is up for
 * 221.4 h on the rented and owned routes, but a worker scaled to zero
 * bills the hours its tokens take, its idle time and its starts; with
 * data: confidential the API is out and serverless stays. */
START_TEST(a_window_service_bills_its_work_not_its_window)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD JOB "data: confidential, usage: {users: 12, "
	                                  "requests_per_user_day: 20}, request: {input: 1500, "
	                                  "output: 300}, schedule: {window: \"08:00-18:00\", "
	                                  "days: weekdays}}\n",
	                         &spec);
	const struct job_result *j = &p->jobs[0];
	const struct route_result *r = &j->routes[ROUTE_SERVERLESS];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert(!j->routes[ROUTE_API].feasible);
	double window = 10 * 5 / 7.0 * 31;
	ck_assert_double_eq_tol(j->routes[ROUTE_RENTED].gpu_hours, window, 0.01);
	ck_assert_double_eq_tol(r->sls.busy_hours, r->work_hours, 1e-9);
	ck_assert_msg(r->sls.busy_hours > 0 && r->sls.busy_hours < window / 4,
	              "busy %.1f h of a %.1f h window", r->sls.busy_hours, window);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(cold_starts_and_idle_time_are_billed)
{
	struct jobspec *spec = NULL;
	/* 10 h of work in a 2-hour daily window: 5 runs, 5 starts, each
	 * billed 60 s and followed by 30 s idle. */
	struct plan *p =
	    plan_of(HEAD JOB "hours_per_month: 10, schedule: {window: \"01:00-03:00\"}, "
	                     "serverless: {idle_timeout_s: 30, cold_start_s: 60}}\n",
	            &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert_msg(r->feasible, "%s", r->why);
	double runs = ceil(r->gpu_hours / 2.0);
	ck_assert_double_eq_tol(r->sls.starts, r->replicas * runs, 1e-9);
	ck_assert_double_eq_tol(r->sls.idle_hours, r->sls.starts * 30 / 3600.0, 1e-9);
	double seconds = r->sls.busy_hours * 3600 + r->sls.idle_hours * 3600 + r->sls.starts * 60;
	ck_assert_double_eq_tol(r->monthly_cost, seconds * r->price_per_hour / 3600, 1e-9);
	plan_free(p);
	jobspec_free(spec);
	/* Without serverless:, the provider's idle timeout and container
	 * start plus the weights' load: every start costs more than none. */
	p = plan_of(HEAD JOB "hours_per_month: 10}\n", &spec);
	r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert_double_eq_tol(r->sls.idle_timeout_s, 5, 1e-12); /* RunPod's default */
	ck_assert(r->sls.cold_start_s > p->jobs[0].work.need.weights_gib);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* Requests spread over the window as a Poisson process: a gap longer
 * than the timeout costs a start, as does each day's first request. */
START_TEST(an_interactive_job_starts_by_its_request_rate)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(
	    HEAD JOB "tokens_per_month: {input: 4M, output: 1M}, "
	             "request: {input: 800, output: 200}, "
	             "schedule: {window: \"08:00-18:00\", days: [mon, tue, wed, thu, fri]}, "
	             "serverless: {idle_timeout_s: 60}}\n",
	    &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert_msg(r->feasible, "%s", r->why);
	double n = 5e6 / 1000, window = 10.0 * 5 / 7 * 31; /* 221.4 h */
	double cold = exp(-(n / window) * 60 / 3600);
	double opens = window / 10;
	ck_assert_double_eq_tol(r->sls.starts, n * cold + opens * (1 - cold), 1e-6);
	ck_assert_double_eq_tol(r->sls.idle_hours, window * (1 - cold), 1e-6);
	/* A longer timeout: fewer starts, more idle time. */
	struct jobspec *spec2 = NULL;
	struct plan *p2 = plan_of(
	    HEAD JOB "tokens_per_month: {input: 4M, output: 1M}, "
	             "request: {input: 800, output: 200}, "
	             "schedule: {window: \"08:00-18:00\", days: [mon, tue, wed, thu, fri]}, "
	             "serverless: {idle_timeout_s: 600}}\n",
	    &spec2);
	const struct route_result *r2 = &p2->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert(r2->sls.starts < r->sls.starts);
	ck_assert(r2->sls.idle_hours > r->sls.idle_hours);
	plan_free(p);
	plan_free(p2);
	jobspec_free(spec);
	jobspec_free(spec2);
}
END_TEST

/* Your container on someone's GPUs, as renting is: confidential data
 * may go, restricted may not, listed regions exclude workers of unknown
 * location, and it serves inference only. */
START_TEST(the_data_region_and_task_rules_apply)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD JOB "hours_per_month: 10, data: confidential}\n"
	                                  " - {name: b, model: llama-3.1-8b, precision: q4_k_m, "
	                                  "hours_per_month: 10, data: restricted}\n"
	                                  " - {name: c, model: llama-3.1-8b, precision: q4_k_m, "
	                                  "hours_per_month: 10, regions: [eu]}\n"
	                                  " - {name: d, model: llama-3.1-8b, precision: bf16, "
	                                  "task: finetune-lora, hours_per_month: 10}\n",
	                         &spec);
	ck_assert(p->jobs[0].routes[ROUTE_SERVERLESS].feasible);
	ck_assert(!p->jobs[0].routes[ROUTE_API].feasible);
	ck_assert(!p->jobs[1].routes[ROUTE_SERVERLESS].feasible);
	ck_assert_str_eq(p->jobs[1].routes[ROUTE_SERVERLESS].why,
	                 "data: restricted allows owned GPUs only");
	ck_assert(!p->jobs[2].routes[ROUTE_SERVERLESS].feasible);
	ck_assert_ptr_nonnull(strstr(p->jobs[2].routes[ROUTE_SERVERLESS].why, "regions"));
	ck_assert_str_eq(
	    p->jobs[3].routes[ROUTE_SERVERLESS].why,
	    "task: finetune-lora is fine-tuning; the serverless route prices inference "
	    "only");
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* providers: names whose prices count, rented or serverless alike. */
START_TEST(providers_limit_the_serverless_offerings)
{
	struct jobspec *spec = NULL;
	struct plan *p =
	    plan_of("version: 1\nproviders: [lambda]\njobs:\n" JOB "hours_per_month: 10}\n", &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert(!r->feasible);
	ck_assert_ptr_nonnull(strstr(r->why, "no serverless offering from the listed providers"));
	plan_free(p);
	jobspec_free(spec);
	p = plan_of("version: 1\nproviders: [lambda, replicate]\njobs:\n" JOB
	            "hours_per_month: 10, serverless: {idle_timeout_s: 60}}\n",
	            &spec);
	r = &p->jobs[0].routes[ROUTE_SERVERLESS];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert_str_eq(r->provider, "replicate deployment");
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_bad_serverless_key_names_its_place)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	const char *yaml = HEAD JOB "hours_per_month: 10, serverless: {idle_timeout_s: -1}}\n";
	ck_assert_int_eq(jobspec_parse("s.yaml", yaml, strlen(yaml), test_ref(), &spec, &err),
	                 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "s.yaml:4:") && strstr(err, "idle_timeout_s"), "%s", err);
	free(err);
}
END_TEST

static void run(const char *const *args, char **out)
{
	test_run_ok(db, args, out);
}

START_TEST(the_route_appears_in_every_output)
{
	char *spec = test_write(dir, "a.yaml", HEAD JOB "hours_per_month: 10}\n");
	char *out = NULL;
	const char *table[] = {"compare", spec, NULL};
	run(table, &out);
	ck_assert_msg(strstr(out, "owned serverless\n"), "%s", out);
	ck_assert_msg(strstr(out, "  serverless *"), "%s", out);
	ck_assert_msg(strstr(out, "; serverless vs rented "), "%s", out);
	free(out);
	const char *json[] = {"compare", spec, "--format", "json", NULL};
	run(json, &out);
	cJSON *root = cJSON_Parse(out);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const cJSON *r = cJSON_GetArrayItem(cJSON_GetObjectItem(job, "routes"), ROUTE_SERVERLESS);
	ck_assert_str_eq(cJSON_GetObjectItem(r, "route")->valuestring, "serverless");
	ck_assert(cJSON_GetObjectItem(r, "busy_hours") && cJSON_GetObjectItem(r, "cold_starts"));
	ck_assert_str_eq(
	    cJSON_GetObjectItem(cJSON_GetObjectItem(job, "best"), "route")->valuestring,
	    "serverless");
	ck_assert(cJSON_GetObjectItem(cJSON_GetObjectItem(job, "breakeven"),
	                              "serverless_vs_rented_hours_per_month"));
	cJSON_Delete(root);
	free(out);
	const char *csv[] = {"compare", spec, "--format", "csv", NULL};
	run(csv, &out);
	ck_assert_msg(strstr(out, "\r\na,llama-3.1-8b,serverless,true,runpod flex,"), "%s", out);
	free(out);
	const char *be[] = {"breakeven", spec, NULL};
	run(be, &out);
	ck_assert_msg(strstr(out, ",serverless_monthly_cost,serverless_provider,"), "%s", out);
	ck_assert_msg(strstr(out, ",serverless_vs_rented_breakeven_hours,"), "%s", out);
	free(out);
	/* The schedule sends the job down its fallbacks: serverless first. */
	const char *sched[] = {"schedule", spec, "--month", "2026-03", "--format", "json", NULL};
	run(sched, &out);
	root = cJSON_Parse(out);
	const cJSON *run0 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "runs"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(run0, "route")->valuestring, "serverless");
	cJSON_Delete(root);
	free(out);
	char *html = xasprintf("%s/r.html", dir);
	const char *report[] = {"report", spec, "--month", "2026-03", "-o", html, NULL};
	run(report, &out);
	free(out);
	char *page = test_slurp(html);
	ck_assert_msg(strstr(page, "<td class=\"best\">serverless</td>"), "summary lacks it");
	ck_assert_msg(strstr(page, "run serverless: runpod flex"), "no decision");
	free(page);
	free(html);
	free(spec);
}
END_TEST

Suite *route_serverless_suite(void)
{
	Suite *s = suite_create("route_serverless");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_batch_job_is_billed_per_busy_second);
	tcase_add_test(tc, cold_starts_and_idle_time_are_billed);
	tcase_add_test(tc, an_interactive_job_starts_by_its_request_rate);
	tcase_add_test(tc, the_data_region_and_task_rules_apply);
	tcase_add_test(tc, providers_limit_the_serverless_offerings);
	tcase_add_test(tc, a_bad_serverless_key_names_its_place);
	tcase_add_test(tc, the_route_appears_in_every_output);
	tcase_add_test(tc, a_window_service_bills_its_work_not_its_window);
	suite_add_tcase(s, tc);
	return s;
}
