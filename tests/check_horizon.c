/* check_horizon.c — month by month with growth (planner/horizon.c),
 * against the hand-worked example of docs/estimation.md, "Horizon": an
 * API at 100 a month, renting at 200, or buying one GPU for 1000 that
 * draws 500 W for the job's 100 h at 0.20/kWh (10 a month); the volume
 * grows 10 % a month. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "horizon.h"
#include "jobspec.h"
#include "testutil.h"
#include "util.h"

static struct jobspec *spec_of(const char *yaml)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err);
	return spec;
}

#define SPEC(extra)                                                                                \
	"version: 1\nelectricity_per_kwh: 0.20\namortize_months: 36\n" extra                       \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 100}\n"

/* The example's three routes for job 0 of spec. */
static void example(const struct jobspec *spec, struct job_result *r)
{
	memset(r, 0, sizeof *r);
	r->job = &spec->jobs[0];
	r->best = ROUTE_API;
	r->routes[ROUTE_API] = (struct route_result){.route = ROUTE_API, .feasible = true,
	                                             .monthly_cost = 100};
	r->routes[ROUTE_RENTED] = (struct route_result){.route = ROUTE_RENTED, .feasible = true,
	                                                .monthly_cost = 200};
	struct route_result *o = &r->routes[ROUTE_OWNED];
	o->route = ROUTE_OWNED;
	o->feasible = true;
	o->gpu_count = 1;
	o->replicas = 1;
	o->gpu_hours = 100;
	o->watts = 500;
	tco_owned_month(spec, NULL, 1, 1000, 500, 0, 100, false, &o->tco);
	o->capex = o->tco.capex;
	o->monthly_cost = o->tco.monthly;
}

START_TEST(each_route_grows_with_the_volume_and_owning_pays_from_month_8)
{
	struct jobspec *spec = spec_of(SPEC("growth: 10%\n"));
	struct job_result r;
	example(spec, &r);
	struct horizon h;
	char *err = NULL;
	ck_assert_int_eq(horizon_job(spec, &r, &h, &err), PLANNER_OK);
	ck_assert_int_eq(h.months, 36); /* amortize_months */
	ck_assert_double_eq_tol(h.growth_percent, 10, 1e-12);
	/* month 1: api 100, rented 200, owned 1000 + 10; month 2: x 1.1 */
	ck_assert_double_eq_tol(h.m[0].cost[ROUTE_API], 100, 1e-9);
	ck_assert_double_eq_tol(h.m[0].cost[ROUTE_OWNED], 1010, 1e-9);
	ck_assert_double_eq_tol(h.m[1].cost[ROUTE_API], 110, 1e-9);
	ck_assert_double_eq_tol(h.m[1].cost[ROUTE_RENTED], 220, 1e-9);
	ck_assert_double_eq_tol(h.m[1].cost[ROUTE_OWNED], 11, 1e-9);
	/* month 7: api 100 x (1.1^7 - 1) / 0.1 = 948.72 < owned 1000 + 94.87;
	 * month 8: 1143.59 >= 1114.36 */
	ck_assert_double_eq_tol(h.m[6].cum[ROUTE_API], 948.7171, 1e-4);
	ck_assert_double_eq_tol(h.m[7].cum[ROUTE_API], 1143.5888, 1e-4);
	ck_assert_double_eq_tol(h.m[7].cum[ROUTE_OWNED], 1114.3589, 1e-4);
	ck_assert_int_eq(h.owned_pays_from, 8);
	horizon_free(&h);
	jobspec_free(spec);
}
END_TEST

START_TEST(without_growth_and_within_a_short_horizon_owning_never_pays)
{
	struct jobspec *spec = spec_of(SPEC("horizon_months: 6\n"));
	struct job_result r;
	example(spec, &r);
	struct horizon h;
	char *err = NULL;
	ck_assert_int_eq(horizon_job(spec, &r, &h, &err), PLANNER_OK);
	ck_assert_int_eq(h.months, 6);
	/* 6 x 100 = 600 < 1000 + 6 x 10 */
	ck_assert_double_eq_tol(h.m[5].cum[ROUTE_API], 600, 1e-9);
	ck_assert_double_eq_tol(h.m[5].cum[ROUTE_OWNED], 1060, 1e-9);
	ck_assert_int_eq(h.owned_pays_from, 0);
	horizon_free(&h);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_jobs_own_growth_replaces_the_specs)
{
	struct jobspec *spec = spec_of(
	    "version: 1\ngrowth: 10%\njobs:\n - {name: a, model: llama-3.1-8b, precision: "
	    "q4_k_m, hours_per_month: 100, growth: -5}\n - {name: b, model: llama-3.1-8b, "
	    "precision: q4_k_m, hours_per_month: 100}\n");
	ck_assert_double_eq_tol(spec->jobs[0].growth_percent, -5, 1e-12);
	ck_assert(isnan(spec->jobs[1].growth_percent));
	struct job_result r;
	example(spec, &r);
	struct horizon h;
	char *err = NULL;
	ck_assert_int_eq(horizon_job(spec, &r, &h, &err), PLANNER_OK);
	ck_assert_double_eq_tol(h.m[1].cost[ROUTE_API], 95, 1e-9);
	horizon_free(&h);
	jobspec_free(spec);
	char *e = NULL;
	const char *bad = "version: 1\ngrowth: 5 percent\njobs: [{name: a, model: llama-3.1-8b, "
	                  "hours_per_month: 1}]\n";
	ck_assert_int_eq(jobspec_parse("t.yaml", bad, strlen(bad), test_ref(), &spec, &e),
	                 PLANNER_EINPUT);
	ck_assert_msg(strstr(e, "percentage a month"), "%s", e);
	free(e);
}
END_TEST

Suite *horizon_suite(void)
{
	Suite *s = suite_create("horizon");
	TCase *tc = tcase_create("months");
	tcase_add_test(tc, each_route_grows_with_the_volume_and_owning_pays_from_month_8);
	tcase_add_test(tc, without_growth_and_within_a_short_horizon_owning_never_pays);
	tcase_add_test(tc, a_jobs_own_growth_replaces_the_specs);
	suite_add_tcase(s, tc);
	return s;
}
