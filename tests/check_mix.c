/* check_mix.c — the traffic-shape mix (planner/plan_mix.c): a serving
 * job whose hourly load has a flat base and a short peak is priced as
 * owned replicas for the base and rented ones for the peak when that is
 * cheaper than any route alone, its cost is the hour-by-hour sum redone
 * here from the offer's price and the purchase's terms, a flat load gets
 * no mix, and compare shows it in its table and JSON. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "fleet.h"
#include "plan.h"
#include "plan_mix.h"
#include "route.h"
#include "schedule.h"
#include "testutil.h"
#include "util.h"

static char *dir, *db;

#define RENT_PRICE 0.95   /* USD an instance-hour of the one offer below */
#define BUY_PRICE  1800.0 /* the spec's own purchase price: an input, not data */
#define WATTS      400.0
#define KWH        0.16
#define MONTHS     36.0

/* One A100 offer at lambda: the only rented price the job sees. */
static void setup(void)
{
	dir = test_tmpdir();
	db = xasprintf("%s/mix.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	struct offer o = {.offer = "a100-test",
	                  .gpu = "A100 80GB",
	                  .gpu_count = 1,
	                  .price_per_hour = RENT_PRICE,
	                  .available = true};
	o.vram_gib = refdata_gpu(test_ref(), "A100 80GB")->vram_gib;
	snprintf(o.fetched_at, sizeof o.fetched_at, "2026-12-01T00:00:00Z");
	ck_assert_int_eq(store_replace_offers(st, "lambda", &o, 1, &err), PLANNER_OK);
	store_close(st);
}

static void teardown(void)
{
	free(dir);
	free(db);
}

#define HEAD                                                                                       \
	"version: 1\ncurrency: USD\nproviders: [lambda]\nelectricity_per_kwh: 0.16\npue: 1\n"      \
	"amortize_months: 36\n"                                                                    \
	"buy:\n  - {gpu: \"RTX 4090\", price: 1800, watts: 400, idle_watts: 0, max_count: 8}\n"    \
	"jobs:\n"                                                                                  \
	"  - name: chat\n    model: llama-3.1-8b\n    precision: bf16\n"                           \
	"    request: {input: 1000, output: 200}\n"                                                \
	"    schedule: {window: \"08:00-18:00\", days: weekdays}\n    serving: window\n"           \
	"    slo: {ttft_ms: 2000, tpot_ms: 100, percentile: 95}\n"
/* Office hours at a quarter of the peak, the peak in one hour (11:00). */
#define PEAKED                                                                                     \
	"    load:\n      peak_requests_per_second: 6\n"                                           \
	"      profile: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 4, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, "    \
	"0]\n"
#define FLAT                                                                                       \
	"    load:\n      peak_requests_per_second: 6\n"                                           \
	"      profile: [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, "    \
	"0]\n"

static struct plan *plan_of(const char *yaml, struct jobspec **spec)
{
	struct store *st = NULL;
	struct plan *p = NULL;
	char *err = NULL;
	ck_assert_int_eq(store_open(db, test_ref(), &st, &err), PLANNER_OK);
	ck_assert_msg(jobspec_parse("s.yaml", yaml, strlen(yaml), test_ref(), spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_msg(plan_compare(*spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	store_close(st);
	return p;
}

START_TEST(a_short_peak_goes_to_rented_above_an_owned_base)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD PEAKED, &spec);
	const struct job_result *r = &p->jobs[0];
	const struct route_result *o = &r->routes[ROUTE_OWNED], *rent = &r->routes[ROUTE_RENTED];
	ck_assert(o->feasible && rent->feasible);
	ck_assert_str_eq(o->gpu->name, "RTX 4090");
	struct route_mix m;
	plan_mix(spec, r, &m);
	ck_assert(m.found);
	ck_assert_int_eq(m.base_route, ROUTE_OWNED);
	ck_assert_int_eq(m.peak_route, ROUTE_RENTED);
	ck_assert_int_gt(m.owned_replicas, 0);
	ck_assert_int_lt(m.owned_replicas, o->replicas);
	/* Weekdays of a 31-day month. */
	ck_assert_double_eq_tol(m.days, 31.0 * 5 / 7, 1e-9);
	/* Each hour's replicas carry its load: the base's k at most, the
	 * peak's the rest; the peak runs only in the busy hour. */
	double cap_o = plan_mix_capacity(r->job, o), cap_r = plan_mix_capacity(r->job, rent);
	double busy = 0, rented_h = 0, peak_hours = 0;
	for (int h = 0; h < 24; h++) {
		double rps = job_load_rps_at_hour(r->job, h);
		ck_assert_int_le(m.base[h], m.owned_replicas);
		ck_assert_msg(m.base[h] * cap_o + m.peak[h] * cap_r >= rps - 1e-9, "hour %d", h);
		ck_assert_int_eq(m.peak[h] > 0, h == 11);
		busy += m.days * m.base[h];
		rented_h += m.days * m.peak[h];
		peak_hours += m.peak[h] > 0 ? m.days : 0;
	}
	ck_assert_double_eq_tol(m.peak_hours, peak_hours, 1e-9);
	ck_assert_double_eq_tol(m.rented_replica_hours, rented_h, 1e-9);
	/* The bill redone from the prices: the purchase straight over 36
	 * months and 400 W for the base's busy hours, the offer's hourly
	 * price for the peak's replica-hours. */
	double base = m.owned_replicas * BUY_PRICE / MONTHS + busy * WATTS / 1000 * KWH;
	double peak = rented_h * RENT_PRICE;
	ck_assert_double_eq_tol(m.base_cost, base, 1e-6);
	ck_assert_double_eq_tol(m.peak_cost, peak, 1e-9);
	ck_assert_double_eq_tol(m.monthly_cost, base + peak, 1e-6);
	/* Cheaper than either route alone, which run the peak's replicas
	 * for every hour of the window. */
	ck_assert(m.beats_every_route);
	ck_assert(m.monthly_cost < o->monthly_cost && m.monthly_cost < rent->monthly_cost);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* Without a rented offer the peak goes to a serverless worker, billed
 * for its busy seconds, and a cold start and the idle wait each time a
 * worker is added. */
START_TEST(a_serverless_peak_is_billed_by_the_second)
{
	struct jobspec *spec = NULL;
	char *yaml = xasprintf("%s%s", HEAD PEAKED, "    serverless: {idle_timeout_s: 60}\n");
	char *at = strstr(yaml, "[lambda]");
	memcpy(at, "[modal] ", 8);
	struct plan *p = plan_of(yaml, &spec);
	const struct job_result *r = &p->jobs[0];
	const struct route_result *s = &r->routes[ROUTE_SERVERLESS];
	ck_assert(s->feasible && !r->routes[ROUTE_RENTED].feasible);
	struct route_mix m;
	plan_mix(spec, r, &m);
	ck_assert(m.found && m.per_second);
	ck_assert_int_eq(m.peak_route, ROUTE_SERVERLESS);
	double cap_o = plan_mix_capacity(r->job, &r->routes[ROUTE_OWNED]);
	double cap_s = plan_mix_capacity(r->job, s);
	/* The one busy hour: its load above the base, in a worker's seconds;
	 * one start a day, as the hour before had no worker. */
	double rest = job_load_rps_at_hour(r->job, 11) - m.owned_replicas * cap_o;
	double busy = m.days * 3600 * rest / cap_s;
	ck_assert_double_eq_tol(m.serverless_busy_s, busy, 1e-6);
	ck_assert_double_eq_tol(m.serverless_starts, m.days, 1e-9);
	double billed = busy + m.days * (s->sls.cold_start_s + 60);
	ck_assert_double_eq_tol(m.peak_cost, billed * s->price_per_hour / 3600, 1e-6);
	ck_assert_double_eq_tol(s->sls.idle_timeout_s, 60, 1e-9);
	free(yaml);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* The schedule places the mix on the fleet that buys its base
 * (schedule --fleet): the owned base replicas in every slot of the
 * window, a rented run of the mix's peak replicas in each slot whose
 * local hour has a peak, per real weekday of March 2026, and the job's
 * cost is its runs' costs redone here from the prices. */
START_TEST(schedule_places_the_base_owned_and_the_peak_rented)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD PEAKED, &spec);
	struct route_mix m;
	plan_mix(spec, &p->jobs[0], &m);
	ck_assert(m.found && m.peak_route == ROUTE_RENTED);
	struct fleet *f = NULL;
	char *err = NULL;
	ck_assert_msg(fleet_plan(spec, p, 2026, 3, &f, &err) == PLANNER_OK, "%s", err);
	struct schedule *s = fleet_take_recommended(f);
	fleet_free(f);
	ck_assert_ptr_nonnull(s);
	const int T = s->n_slots;
	unsigned char *al = calloc((size_t)T, 1);
	int *owned = calloc((size_t)T, sizeof *owned), *rented = calloc((size_t)T, sizeof *rented);
	sched_allowed(&spec->jobs[0].sched, s->slots, T, al);
	double cost = 0, sum = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		ck_assert_uint_eq(r->job, 0);
		double c;
		if (r->route == ROUTE_OWNED) {
			ck_assert_str_eq(r->gpu->name, "RTX 4090");
			ck_assert_int_eq(r->replicas, m.owned_replicas);
			/* 400 W each, idle 0 W: a busy hour's power. */
			c = r->hours * r->gpu_count * WATTS / 1000 * KWH;
		} else {
			ck_assert_int_eq(r->route, ROUTE_RENTED);
			ck_assert_str_eq(r->gpu->name, "A100 80GB");
			ck_assert_double_eq_tol(r->hours, r->n_slots, 1e-9);
			c = r->hours * r->replicas * RENT_PRICE;
		}
		for (int t = r->slot; t < r->slot + r->n_slots; t++)
			(r->route == ROUTE_OWNED ? owned : rented)[t] += r->replicas;
		ck_assert_double_eq_tol(r->cost, c, 1e-9);
		cost += c;
		sum += r->cost;
	}
	int peak_slots = 0;
	for (int t = 0; t < T; t++) {
		int h = s->slots[t].minute / 60;
		ck_assert_int_eq(owned[t], al[t] ? m.owned_replicas : 0);
		ck_assert_int_le(owned[t], s->pools[0].count); /* 1 GPU a replica */
		ck_assert_msg(rented[t] == (al[t] ? m.peak[h] : 0), "slot %d", t);
		peak_slots += rented[t] > 0;
		ck_assert(rented[t] == 0 || h == 11); /* the profile's one busy hour */
	}
	ck_assert_int_eq(peak_slots, 22); /* the weekdays of March 2026 */
	ck_assert_double_eq_tol(s->jobs[0].cost, cost, 1e-6);
	ck_assert_double_eq_tol(s->jobs[0].cost, sum, 1e-9);
	ck_assert_double_eq_tol(s->jobs[0].unplaced_hours, 0, 1e-9);
	free(al);
	free(owned);
	free(rented);
	schedule_free(s);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* A serverless peak in the schedule: a run in each weekday's busy hour,
 * billed as plan_mix bills that hour (its busy seconds above the base
 * and one cold start with the idle wait), the job's cost its runs'. */
START_TEST(schedule_places_a_serverless_peak_by_the_hour)
{
	struct jobspec *spec = NULL;
	char *yaml = xasprintf("%s%s", HEAD PEAKED, "    serverless: {idle_timeout_s: 60}\n");
	memcpy(strstr(yaml, "[lambda]"), "[modal] ", 8);
	struct plan *p = plan_of(yaml, &spec);
	const struct job_result *r = &p->jobs[0];
	const struct route_result *sv = &r->routes[ROUTE_SERVERLESS];
	struct route_mix m;
	plan_mix(spec, r, &m);
	ck_assert(m.found && m.per_second);
	double rest = job_load_rps_at_hour(r->job, 11) -
	              m.owned_replicas * plan_mix_capacity(r->job, &r->routes[ROUTE_OWNED]);
	double hour = (3600 * rest / plan_mix_capacity(r->job, sv) + sv->sls.cold_start_s + 60) *
	              sv->price_per_hour / 3600;
	struct fleet *f = NULL;
	char *err = NULL;
	ck_assert_msg(fleet_plan(spec, p, 2026, 3, &f, &err) == PLANNER_OK, "%s", err);
	struct schedule *s = fleet_take_recommended(f);
	fleet_free(f);
	int peaks = 0;
	double cost = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *x = &s->runs[i];
		double c = x->hours * x->gpu_count * WATTS / 1000 * KWH;
		if (x->route != ROUTE_OWNED) {
			ck_assert_int_eq(x->route, ROUTE_SERVERLESS);
			ck_assert_int_eq(x->n_slots, 1);
			ck_assert_int_eq(s->slots[x->slot].minute, 11 * 60);
			ck_assert_int_eq(x->replicas, m.peak[11]);
			c = hour;
			peaks++;
		}
		ck_assert_double_eq_tol(x->cost, c, 1e-9);
		cost += c;
	}
	ck_assert_int_eq(peaks, 22);
	ck_assert_double_eq_tol(s->jobs[0].cost, cost, 1e-6);
	schedule_free(s);
	free(yaml);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_flat_load_gets_no_mix)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD FLAT, &spec);
	struct route_mix m;
	plan_mix(spec, &p->jobs[0], &m);
	ck_assert(!m.found);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* peak_factor shapes the day too: the peak in the window's middle hour. */
START_TEST(a_peak_factor_gets_the_same_split)
{
	struct jobspec *spec = NULL;
	struct plan *p =
	    plan_of(HEAD "    load: {peak_requests_per_second: 6, peak_factor: 4}\n", &spec);
	struct route_mix m;
	plan_mix(spec, &p->jobs[0], &m);
	ck_assert(m.found);
	for (int h = 0; h < 24; h++)
		ck_assert_int_eq(m.peak[h] > 0, job_load_rps_at_hour(p->jobs[0].job, h) == 6);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_job_without_a_shape_gets_no_mix)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD "    load: {peak_requests_per_second: 6}\n", &spec);
	struct route_mix m;
	plan_mix(spec, &p->jobs[0], &m);
	ck_assert(!m.found);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_profile_not_of_24_numbers_is_refused_at_its_place)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	const char *yaml = HEAD "    load:\n      peak_requests_per_second: 6\n"
	                        "      profile: [1, 2, 3]\n";
	ck_assert_int_eq(jobspec_parse("s.yaml", yaml, strlen(yaml), test_ref(), &spec, &err),
	                 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "s.yaml:") && strstr(err, "profile"), "%s", err);
	free(err);
}
END_TEST

static void run(const char *const *args, char **out)
{
	test_run_ok(db, args, out);
}

/* schedule --fleet shows the mix's runs in its table, JSON and calendar. */
START_TEST(schedule_exports_show_the_peak_runs)
{
	char *spec = test_write(dir, "peaked.yaml", HEAD PEAKED);
	char *out = NULL;
	const char *json[] = {"schedule", spec,       "--fleet", "--month",
	                      "2026-03",  "--format", "json",    NULL};
	run(json, &out);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	int base = 0, peak = 0;
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(root, "runs"))
	{
		const cJSON *mix = cJSON_GetObjectItem(r, "mix");
		ck_assert_ptr_nonnull(mix);
		const char *route = cJSON_GetObjectItem(r, "route")->valuestring;
		if (!strcmp(mix->valuestring, "base")) {
			base++;
			ck_assert_str_eq(route, "owned");
		} else {
			peak++;
			ck_assert_str_eq(mix->valuestring, "peak");
			ck_assert_str_eq(route, "rented");
			ck_assert(
			    strstr(cJSON_GetObjectItem(r, "start")->valuestring, "T11:00:00"));
			ck_assert_int_eq(cJSON_GetObjectItem(r, "replicas")->valueint, 1);
		}
	}
	ck_assert_int_eq(base, 22); /* one a weekday, 08:00-18:00 */
	ck_assert_int_eq(peak, 22);
	cJSON_Delete(root);
	free(out);
	const char *table[] = {"schedule", spec, "--fleet", "--month", "2026-03", NULL};
	run(table, &out);
	ck_assert_msg(strstr(out, "2026-03-02T11:00     1.0 h") && strstr(out, ", mix peak x1"),
	              "%s", out);
	free(out);
	const char *ics[] = {"schedule", spec,       "--fleet", "--month",
	                     "2026-03",  "--format", "ics",     NULL};
	run(ics, &out);
	ck_assert_msg(strstr(out, "DTSTART:20260302T110000Z") && strstr(out, "mix: peak"), "%s",
	              out);
	free(out);
	free(spec);
}
END_TEST

START_TEST(compare_shows_the_mix_in_its_table_and_json)
{
	char *spec = test_write(dir, "peaked.yaml", HEAD PEAKED);
	char *out = NULL;
	const char *table[] = {"compare", spec, NULL};
	run(table, &out);
	ck_assert_msg(strstr(out, "  mix: ") && strstr(out, " owned 1x RTX 4090 base + rented 1x "
	                                                    "A100 80GB peak (22 h x 1 replica)"),
	              "%s", out);
	ck_assert_msg(strstr(out, "beats every single route"), "%s", out);
	free(out);
	const char *json[] = {"compare", spec, "--format", "json", NULL};
	run(json, &out);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	const cJSON *mix = cJSON_GetObjectItem(job, "mix");
	ck_assert_ptr_nonnull(mix);
	ck_assert_str_eq(cJSON_GetObjectItem(mix, "peak_route")->valuestring, "rented");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(mix, "hours")), 24);
	const cJSON *best = cJSON_GetObjectItem(cJSON_GetObjectItem(job, "best"), "monthly_cost");
	ck_assert(cJSON_GetObjectItem(mix, "monthly_cost")->valuedouble < best->valuedouble);
	cJSON_Delete(root);
	free(out);
	free(spec);
	/* A flat load: no mix key at all, as for a job without load:. */
	spec = test_write(dir, "flat.yaml", HEAD FLAT);
	const char *flat[] = {"compare", spec, "--format", "json", NULL};
	run(flat, &out);
	root = cJSON_Parse(out);
	job = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), 0);
	ck_assert_ptr_null(cJSON_GetObjectItem(job, "mix"));
	cJSON_Delete(root);
	free(out);
	free(spec);
}
END_TEST

Suite *mix_suite(void)
{
	Suite *s = suite_create("mix");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, a_short_peak_goes_to_rented_above_an_owned_base);
	tcase_add_test(tc, a_serverless_peak_is_billed_by_the_second);
	tcase_add_test(tc, schedule_places_the_base_owned_and_the_peak_rented);
	tcase_add_test(tc, schedule_places_a_serverless_peak_by_the_hour);
	tcase_add_test(tc, a_flat_load_gets_no_mix);
	tcase_add_test(tc, a_peak_factor_gets_the_same_split);
	tcase_add_test(tc, a_job_without_a_shape_gets_no_mix);
	tcase_add_test(tc, a_profile_not_of_24_numbers_is_refused_at_its_place);
	tcase_add_test(tc, compare_shows_the_mix_in_its_table_and_json);
	tcase_add_test(tc, schedule_exports_show_the_peak_runs);
	suite_add_tcase(s, tc);
	return s;
}
