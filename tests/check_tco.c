/* check_tco.c — each term of the full cost of ownership (planner/tco.c,
 * the spec's costs: block and idle_watts) against the hand-worked
 * examples in docs/estimation.md, "Cost of ownership", and the README.
 * The base case: 4 GPUs of 2000 USD, 400 W under load, 300 busy hours a
 * month, 0.20 USD/kWh, PUE 1, 36 months. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan.h"
#include "tco.h"
#include "testutil.h"
#include "util.h"

#define BASE "version: 1\nelectricity_per_kwh: 0.20\namortize_months: 36\n"
#define JOB                                                                                        \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 300}\n"

static struct jobspec *spec_of(const char *yaml)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err);
	return spec;
}

/* The error a spec gets, or NULL when it loads. */
static char *error_of(const char *yaml)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	if (jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) == PLANNER_OK) {
		jobspec_free(spec);
		return NULL;
	}
	return err;
}

static struct tco_owned month_of(const char *costs, double idle)
{
	char *yaml = xasprintf(BASE "%s" JOB, costs);
	struct jobspec *spec = spec_of(yaml);
	struct tco_owned t;
	tco_owned_month(spec, NULL, 4, 2000, 400, idle, 300, false, &t);
	jobspec_free(spec);
	free(yaml);
	return t;
}

START_TEST(without_a_costs_block_owning_is_capex_over_the_months_plus_load_power)
{
	struct tco_owned t = month_of("", 0);
	/* 8000 / 36 = 222.22; 4 x 400 W x 300 h / 1000 x 0.20 = 96.00 */
	ck_assert_double_eq_tol(t.capex, 8000, 1e-9);
	ck_assert_double_eq_tol(t.capital, 8000 / 36.0, 1e-9);
	ck_assert_double_eq_tol(t.power, 96.0, 1e-9);
	ck_assert_double_eq_tol(t.maintenance, 0, 1e-12);
	ck_assert_double_eq_tol(t.monthly, 318.2222, 1e-4);
	ck_assert_int_eq(t.hosts, 1);
}
END_TEST

START_TEST(a_host_adds_its_price_to_capex_and_its_watts_while_the_gpus_run)
{
	struct tco_owned t = month_of("costs: {host: {price: 3000, watts: 250, gpus: 4}}\n", 0);
	/* one host: 8000 + 3000 = 11000, / 36 = 305.56; power 96 + 1 x 250 W
	 * x 300 h / 1000 x 0.20 = 96 + 15 = 111 */
	ck_assert_int_eq(t.hosts, 1);
	ck_assert_double_eq_tol(t.capex, 11000, 1e-9);
	ck_assert_double_eq_tol(t.capital, 11000 / 36.0, 1e-9);
	ck_assert_double_eq_tol(t.power, 111.0, 1e-9);
	ck_assert_double_eq_tol(t.monthly, 416.5556, 1e-4);
	/* two GPUs a host: two hosts */
	struct tco_owned two = month_of("costs: {host: {price: 3000, gpus: 2}}\n", 0);
	ck_assert_int_eq(two.hosts, 2);
	ck_assert_double_eq_tol(two.capex, 14000, 1e-9);
}
END_TEST

START_TEST(idle_watts_keep_the_gpus_on_and_price_the_hours_without_work)
{
	struct tco_owned t = month_of("", 50);
	/* 4 x 400 W x 300 h + 4 x 50 W x (744 - 300) h = 480 + 88.8 kWh,
	 * x 0.20 = 96 + 17.76 = 113.76 */
	ck_assert_double_eq_tol(t.power, 113.76, 1e-9);
	/* the line in busy hours: fixed 222.22 + 4 x 50 x 744 / 1000 x 0.2 =
	 * 29.76; 4 x 350 W / 1000 x 0.2 = 0.28 an hour */
	ck_assert_double_eq_tol(t.fixed, 8000 / 36.0 + 29.76, 1e-9);
	ck_assert_double_eq_tol(t.per_hour, 0.28, 1e-12);
	ck_assert_double_eq_tol(t.fixed + 300 * t.per_hour, t.monthly, 1e-9);
	/* a host kept on draws all month: 250 W x 744 h x 0.2 / 1000 = 37.20 */
	struct tco_owned h = month_of("costs: {host: {watts: 250}}\n", 50);
	ck_assert_double_eq_tol(h.power, 113.76 + 37.20, 1e-9);
}
END_TEST

START_TEST(resale_lowers_the_capital_cost_by_what_the_hardware_sells_for)
{
	struct tco_owned t = month_of("costs: {resale_percent: 25}\n", 0);
	/* (8000 - 2000) / 36 = 166.67 */
	ck_assert_double_eq_tol(t.resale, 2000, 1e-9);
	ck_assert_double_eq_tol(t.capital, 6000 / 36.0, 1e-9);
}
END_TEST

START_TEST(the_cost_of_capital_makes_the_purchase_an_annuity)
{
	struct tco_owned t = month_of("costs: {capital_rate_percent: 6}\n", 0);
	/* i = 0.06 / 12 = 0.005, n = 36: 8000 x 0.005 / (1 - 1.005^-36) =
	 * 243.38, the payment of a 36-month loan of 8000 at 6 % */
	ck_assert_double_eq_tol(t.capital, 243.3755, 1e-4);
	/* with 25 % resale: (8000 - 2000 x 1.005^-36) x 0.005 / (1 -
	 * 1.005^-36) = 192.53 */
	struct tco_owned r = month_of("costs: {capital_rate_percent: 6, resale_percent: 25}\n", 0);
	ck_assert_double_eq_tol(r.capital, 192.5316, 1e-4);
}
END_TEST

START_TEST(maintenance_is_paid_per_gpu_every_month_even_on_gpus_on_hand)
{
	char *yaml = xasprintf(BASE "costs: {maintenance_per_gpu_month: 20}\n" JOB);
	struct jobspec *spec = spec_of(yaml);
	struct tco_owned t;
	tco_owned_month(spec, NULL, 4, 2000, 400, 0, 300, true, &t);
	/* on hand: no capex, no capital; 4 x 20 = 80 upkeep + 96 power */
	ck_assert_double_eq_tol(t.capex, 0, 1e-12);
	ck_assert_double_eq_tol(t.capital, 0, 1e-12);
	ck_assert_double_eq_tol(t.maintenance, 80, 1e-9);
	ck_assert_double_eq_tol(t.monthly, 176, 1e-9);
	jobspec_free(spec);
	free(yaml);
}
END_TEST

START_TEST(setup_hours_are_billed_once_per_run_a_window_allows)
{
	struct jobspec *spec = spec_of(
	    BASE "costs: {setup_hours: 0.25}\njobs:\n - {name: a, model: llama-3.1-8b, "
	         "precision: q4_k_m, hours_per_month: 100, schedule: {window: \"22:00-06:00\"}}\n"
	         " - {name: b, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 100}\n");
	/* an 8-hour window: ceil(100 / 8) = 13 runs x 0.25 h x 2.00 = 6.50 */
	ck_assert_double_eq_tol(tco_rented_runs(&spec->jobs[0], 100), 13, 1e-12);
	ck_assert_double_eq_tol(tco_setup_cost(spec, &spec->jobs[0], 100, 1, 2.0), 6.5, 1e-9);
	/* two replicas set up twice */
	ck_assert_double_eq_tol(tco_setup_cost(spec, &spec->jobs[0], 100, 2, 2.0), 13.0, 1e-9);
	/* no window: one run all month, 0.25 x 2.00 = 0.50 */
	ck_assert_double_eq_tol(tco_setup_cost(spec, &spec->jobs[1], 100, 1, 2.0), 0.5, 1e-9);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_costs_keys_are_checked_like_every_other_key)
{
	char *e = error_of(BASE "costs: {resale_percent: 120}\n" JOB);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e, "resale_percent") && strstr(e, "costs"), "%s", e);
	free(e);
	e = error_of(BASE "costs: {host: {gpus: 0}}\n" JOB);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e, "gpus"), "%s", e);
	free(e);
	e = error_of(BASE "costs: {resale: 10}\n" JOB);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e, "resale_percent"), "did you mean: %s", e);
	free(e);
	e = error_of(BASE "buy: [{gpu: RTX 5090, price: 2400, watts: 575, idle_watts: 600}]\n" JOB);
	ck_assert_ptr_nonnull(e);
	ck_assert_msg(strstr(e, "idle_watts 600") && strstr(e, "above its watts 575"), "%s", e);
	free(e);
	ck_assert_ptr_null(error_of(BASE "owned: [{gpu: RTX 4090, idle_watts: 20}]\n" JOB));
}
END_TEST

START_TEST(a_mac_or_cpu_box_is_its_own_host_so_costs_host_adds_nothing)
{
	char *yaml = xasprintf(BASE "costs:\n  host: {price: 3000, watts: 250, gpus: 4}\n" JOB);
	struct jobspec *spec = spec_of(yaml);
	struct tco_owned gpu, mac;
	tco_owned_month(spec, NULL, 4, 2000, 400, 0, 300, false, &gpu);
	tco_owned_month(spec, refdata_gpu(test_ref(), "M2 Max 30-core"), 4, 2000, 400, 0, 300,
	                false, &mac);
	/* A GPU: 8000 + one host of 3000; a Mac: four machines of 2000. */
	ck_assert_int_eq(gpu.hosts, 1);
	ck_assert_double_eq_tol(gpu.capex, 11000, 1e-9);
	ck_assert_int_eq(mac.hosts, 0);
	ck_assert_double_eq_tol(mac.capex, 8000, 1e-9);
	ck_assert_double_eq_tol(mac.power, 96.0, 1e-9);
	jobspec_free(spec);
	free(yaml);
}
END_TEST

Suite *tco_suite(void)
{
	Suite *s = suite_create("tco");
	TCase *tc = tcase_create("terms");
	tcase_add_test(tc, without_a_costs_block_owning_is_capex_over_the_months_plus_load_power);
	tcase_add_test(tc, a_host_adds_its_price_to_capex_and_its_watts_while_the_gpus_run);
	tcase_add_test(tc, idle_watts_keep_the_gpus_on_and_price_the_hours_without_work);
	tcase_add_test(tc, resale_lowers_the_capital_cost_by_what_the_hardware_sells_for);
	tcase_add_test(tc, the_cost_of_capital_makes_the_purchase_an_annuity);
	tcase_add_test(tc, maintenance_is_paid_per_gpu_every_month_even_on_gpus_on_hand);
	tcase_add_test(tc, setup_hours_are_billed_once_per_run_a_window_allows);
	tcase_add_test(tc, the_costs_keys_are_checked_like_every_other_key);
	tcase_add_test(tc, a_mac_or_cpu_box_is_its_own_host_so_costs_host_adds_nothing);
	suite_add_tcase(s, tc);
	return s;
}
