/* check_carbon.c — energy and CO2e per route (planner/carbon.c): the
 * rented route's kWh from board power, hours and the provider's PUE, its
 * grid from a Google Cloud region's published figure or the offer's
 * country; the owned route's kWh as its power cost counts them; the API
 * route's "not published"; a carbon price added to the bill; compare's
 * --show co2 table, CSV and JSON; bad input. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "carbon.h"
#include "jobspec.h"
#include "plan.h"
#include "regions.h"
#include "route.h"
#include "testutil.h"
#include "util.h"

static char *dir, *db;

/* Grid figures of the tables, as published (carbon.c cites them). */
#define GCP_EUROPE_WEST4 208.81 /* Google Cloud 2024 */
#define EMBER_US         383.55 /* Ember 2024 */
#define EMBER_NL         252.7
#define PUE_GCP          1.10
#define PUE_DEFAULT      1.58

static void add_offer(struct store *st, const char *provider, const char *id, const char *region,
                      double price)
{
	char *err = NULL;
	struct offer o = {
	    .gpu = "RTX 4090", .gpu_count = 1, .price_per_hour = price, .available = true};
	snprintf(o.offer, sizeof o.offer, "%s", id);
	snprintf(o.region, sizeof o.region, "%s", region);
	snprintf(o.provider, sizeof o.provider, "%s", provider);
	regions_locate_offer(&o); /* as the adapters' normaliser does */
	o.vram_gib = refdata_gpu(test_ref(), "RTX 4090")->vram_gib;
	snprintf(o.fetched_at, sizeof o.fetched_at, "2026-12-01T00:00:00Z");
	ck_assert_msg(store_replace_offers(st, provider, &o, 1, &err) == PLANNER_OK, "%s", err);
}

/* A 4090 at Google in the Netherlands (europe-west4) at 1 USD/h, and one
 * at Lambda in Virginia at 2 USD/h. */
static void setup(void)
{
	dir = test_tmpdir();
	db = xasprintf("%s/co2.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	add_offer(st, "gcp", "g-4090", "europe-west4", 1.0);
	add_offer(st, "lambda", "l-4090", "us-east-1", 2.0);
	store_close(st);
}

static void teardown(void)
{
	free(dir);
	free(db);
}

#define HEAD "version: 1\nowned: [{gpu: RTX 4090, count: 1}]\n"
#define JOB                                                                                        \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 10, "        \
	"tokens_per_month: {input: 1M, output: 1M}"

static struct plan *plan_of(const char *yaml, struct jobspec **spec)
{
	return test_plan_of(NULL, db, yaml, spec);
}

START_TEST(the_tables_give_a_cloud_regions_figure_before_its_countrys)
{
	char buf[64];
	struct carbon_grid g = carbon_grid_of("gcp", "europe-west4", "NL", buf, sizeof buf);
	ck_assert_double_eq(g.g_per_kwh, GCP_EUROPE_WEST4);
	ck_assert_str_eq(g.source, "Google Cloud 2024 (europe-west4)");
	/* Another cloud in the same country: the country's grid. */
	g = carbon_grid_of("aws", "eu-west-3", "NL", buf, sizeof buf);
	ck_assert_double_eq(g.g_per_kwh, EMBER_NL);
	ck_assert_str_eq(g.source, "Ember 2024 (NL)");
	g = carbon_grid_of("vast", "", "", buf, sizeof buf);
	ck_assert(isnan(g.g_per_kwh) && g.source == NULL);
	const char *src;
	ck_assert_double_eq(carbon_provider_pue("aws", &src), 1.15);
	ck_assert_double_eq(carbon_provider_pue("vast", &src), PUE_DEFAULT);
	ck_assert_ptr_nonnull(strstr(src, "Uptime"));
}
END_TEST

START_TEST(a_rented_gpu_uses_board_power_hours_pue_and_its_regions_grid)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD "providers: [gcp]\n" JOB "}\n", &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert_str_eq(r->provider, "gcp");
	double kwh = r->gpu_count * r->gpu->watts * r->gpu_hours * PUE_GCP / 1000.0;
	ck_assert(kwh > 0);
	ck_assert_double_eq_tol(r->energy_kwh, kwh, 1e-9);
	ck_assert_double_eq_tol(r->co2_kg, kwh * GCP_EUROPE_WEST4 / 1000.0, 1e-9);
	ck_assert_str_eq(r->co2_source, "Google Cloud 2024 (europe-west4)");
	ck_assert_double_eq(r->carbon_cost, 0);
	plan_free(p);
	jobspec_free(spec);

	/* Lambda publishes no PUE: the industry average; its country's grid. */
	p = plan_of(HEAD "providers: [lambda]\n" JOB "}\n", &spec);
	r = &p->jobs[0].routes[ROUTE_RENTED];
	ck_assert_msg(r->feasible, "%s", r->why);
	kwh = r->gpu_count * r->gpu->watts * r->gpu_hours * PUE_DEFAULT / 1000.0;
	ck_assert_double_eq_tol(r->energy_kwh, kwh, 1e-9);
	ck_assert_str_eq(r->country, "US");
	ck_assert_double_eq_tol(r->co2_kg, kwh * EMBER_US / 1000.0, 1e-9);
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(owned_energy_is_what_its_power_cost_counts)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of("version: 1\npue: 1.3\nelectricity_per_kwh: 0.25\n"
	                         "costs: {grid_co2_g_per_kwh: 100, host: {watts: 80}}\n"
	                         "owned: [{gpu: RTX 4090, count: 1, idle_watts: 40}]\n" JOB "}\n",
	                         &spec);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert(r->energy_kwh > 0);
	/* Idle draw and the host kept on for the month: more than the load. */
	ck_assert(r->energy_kwh > r->gpu_count * r->watts * r->gpu_hours * 1.3 / 1000.0);
	ck_assert_double_eq_tol(r->energy_kwh * 0.25, r->power_cost, 1e-9);
	ck_assert_double_eq_tol(r->co2_kg, r->energy_kwh * 100 / 1000.0, 1e-9);
	ck_assert_str_eq(r->co2_source, "costs.grid_co2_g_per_kwh");
	plan_free(p);
	jobspec_free(spec);

	/* country: gives the owned hardware its country's grid. */
	p = plan_of("version: 1\ncountry: NL\nowned: [{gpu: RTX 4090, count: 1}]\n" JOB "}\n",
	            &spec);
	r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert_msg(r->feasible, "%s", r->why);
	ck_assert_str_eq(r->co2_source, "Ember 2024 (NL)");
	ck_assert_double_eq_tol(r->co2_kg, r->energy_kwh * EMBER_NL / 1000.0, 1e-9);
	plan_free(p);
	jobspec_free(spec);

	/* Without a grid figure: the energy, and why there is no CO2e. */
	p = plan_of(HEAD JOB "}\n", &spec);
	r = &p->jobs[0].routes[ROUTE_OWNED];
	ck_assert(r->energy_kwh > 0 && isnan(r->co2_kg));
	ck_assert_ptr_nonnull(strstr(r->co2_note, "costs.grid_co2_g_per_kwh"));
	const struct route_result *api = &p->jobs[0].routes[ROUTE_API];
	if (api->feasible) {
		ck_assert(isnan(api->energy_kwh) && isnan(api->co2_kg));
		ck_assert_str_eq(api->co2_note, "not published by the provider");
	}
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_carbon_price_adds_the_co2e_to_the_bill)
{
	struct jobspec *spec = NULL;
	struct plan *p = plan_of(HEAD "costs: {grid_co2_g_per_kwh: 300}\n" JOB "}\n", &spec);
	struct route_result plain[ROUTE_MAX];
	memcpy(plain, p->jobs[0].routes, sizeof plain);
	plan_free(p);
	jobspec_free(spec);
	p = plan_of(HEAD "costs: {grid_co2_g_per_kwh: 300, carbon_price_per_tonne: 200}\n" JOB
	                 "}\n",
	            &spec);
	int priced = 0;
	for (size_t k = 0; k < route_count(); k++) {
		const struct route_result *a = &plain[k], *b = &p->jobs[0].routes[k];
		if (!a->feasible)
			continue;
		if (isnan(a->co2_kg)) {
			ck_assert_double_eq(b->monthly_cost, a->monthly_cost);
			continue;
		}
		ck_assert_double_eq_tol(b->carbon_cost, a->co2_kg / 1000.0 * 200, 1e-9);
		ck_assert_double_eq_tol(b->monthly_cost, a->monthly_cost + b->carbon_cost, 1e-9);
		priced++;
	}
	ck_assert_int_ge(priced, 2); /* rented and owned */
	plan_free(p);
	jobspec_free(spec);
}
END_TEST

/* The line's field n from its end (0: the last), into buf: the last
 * columns (kWh, kg, the grid's source) hold no commas, while an offer
 * name before them may (quoted). */
static const char *field_from_end(const char *line, int n, char *buf, size_t len)
{
	const char *end = line + strcspn(line, "\r\n");
	const char *p = end;
	for (int i = 0; i <= n; i++) {
		end = p;
		while (p > line && p[-1] != ',')
			p--;
		if (i < n && p > line)
			p--;
	}
	snprintf(buf, len, "%.*s", (int)(end - p), p);
	return buf;
}

START_TEST(compare_shows_co2_in_its_table_csv_and_json)
{
	char *out = NULL, *errout = NULL;
	const char *tab[] = {"compare", "jobs/monthly.yaml", "--show", "co2", "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(tab, NULL, &out, &errout), 0);
	ck_assert_ptr_nonnull(strstr(out, "kg CO2e"));
	ck_assert_ptr_nonnull(strstr(out, " kg CO2e (Ember 2024 ("));
	ck_assert_ptr_nonnull(strstr(out, "energy and CO2e not published by the provider"));
	free(out);
	free(errout);

	const char *csv[] = {"compare", "jobs/monthly.yaml", "--show", "co2", "--format",
	                     "csv",     "--quiet",           NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, &errout), 0);
	ck_assert_ptr_nonnull(strstr(out, ",prices_as_of,energy_kwh,co2_kg,co2_source\r\n"));
	/* Every rented row with a CO2e: kg = kWh x its grid; the grid named. */
	int rows = 0;
	for (char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		char kwh[32], kg[32], src[64];
		field_from_end(l + 1, 2, kwh, sizeof kwh);
		field_from_end(l + 1, 1, kg, sizeof kg);
		field_from_end(l + 1, 0, src, sizeof src);
		if (!strstr(l + 1, ",rented,true,") || !kg[0])
			continue;
		ck_assert_msg(!strncmp(src, "Ember ", 6) || !strncmp(src, "Google Cloud ", 13),
		              "%s", src);
		ck_assert(atof(kwh) > 0 && atof(kg) > 0);
		rows++;
	}
	ck_assert_int_ge(rows, 1);
	free(out);
	free(errout);

	const char *js[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(js, NULL, &out, &errout), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	int seen = 0;
	const cJSON *job, *route;
	cJSON_ArrayForEach(job, cJSON_GetObjectItem(root, "jobs"))
	{
		cJSON_ArrayForEach(route, cJSON_GetObjectItem(job, "routes"))
		{
			if (!cJSON_IsTrue(cJSON_GetObjectItem(route, "feasible")))
				continue;
			const cJSON *kg = cJSON_GetObjectItem(route, "co2_kg");
			ck_assert_ptr_nonnull(kg);
			ck_assert_ptr_nonnull(cJSON_GetObjectItem(route, "energy_kwh"));
			ck_assert(cJSON_IsNumber(kg)
			              ? cJSON_GetObjectItem(route, "co2_source") != NULL
			              : cJSON_GetObjectItem(route, "co2_note") != NULL);
			seen++;
		}
	}
	ck_assert_int_ge(seen, 6);
	cJSON_Delete(root);
	free(out);
	free(errout);
}
END_TEST

START_TEST(bad_input_is_refused)
{
	char *out = NULL, *errout = NULL;
	const char *show[] = {"compare", "jobs/monthly.yaml", "--show", "c02", NULL};
	ck_assert_int_eq(test_run_planner(show, NULL, &out, &errout), 2);
	ck_assert_ptr_nonnull(strstr(errout, "did you mean 'co2'"));
	free(out);
	free(errout);

	struct jobspec *spec = NULL;
	char *err = NULL;
	const char *yaml = "version: 1\ncosts:\n  grid_co2_g_per_kwh: 5000\n" JOB "}\n";
	ck_assert_int_eq(jobspec_parse("s.yaml", yaml, strlen(yaml), test_ref(), &spec, &err),
	                 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "s.yaml:3:") && strstr(err, "grid_co2_g_per_kwh"), "%s", err);
	free(err);
}
END_TEST

Suite *carbon_suite(void)
{
	Suite *s = suite_create("carbon");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_tables_give_a_cloud_regions_figure_before_its_countrys);
	tcase_add_test(tc, a_rented_gpu_uses_board_power_hours_pue_and_its_regions_grid);
	tcase_add_test(tc, owned_energy_is_what_its_power_cost_counts);
	tcase_add_test(tc, a_carbon_price_adds_the_co2e_to_the_bill);
	tcase_add_test(tc, compare_shows_co2_in_its_table_csv_and_json);
	tcase_add_test(tc, bad_input_is_refused);
	suite_add_tcase(s, tc);
	return s;
}
