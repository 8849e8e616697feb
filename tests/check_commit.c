/* check_commit.c — commitments weighed by compare and fleet (issue 29
 * item 6, route_rented.c's consider_terms, fleet_commit.c, the spec's
 * commit:): the recorded Azure reservation rows and AWS p4d.24xlarge
 * reserved rates (tests/fixtures/real/PROVENANCE.md, scenarios real-b16als
 * and real-p4d) stored by the real `planner refresh` over loopback, then
 * the plan read back against the stored rows. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "testutil.h"

/* A year's 8,760 hours over 12 months: what a commitment bills a month. */
#define TEST_COMMIT_HOURS 730.0

static struct test_fixture fx;

static void fx_start(void)
{
	test_fixture_start(&fx, 2.0);
}

static void fx_stop(void)
{
	test_fixture_stop(&fx);
}

/* A store refreshed by `planner refresh --provider NAME` with NAME's feed
 * at the fixture's scenario scen (its URL variable var); extra: one more
 * "K=V" or NULL. Returns the path. */
static char *feed_db(const char *name, const char *var, const char *scen, const char *extra)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	char *url = xasprintf("%s=http://127.0.0.1:%d/%s", var, fx.port, scen);
	const char *env[] = {url, "PLANNER_HTTP_RETRIES=1", "PLANNER_HTTP_BACKOFF_MS=1", extra,
	                     NULL};
	const char *argv[] = {"refresh", "--db", db, "--provider", name, NULL};
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, env, &out, &err) == 0, "%s", err);
	free(out);
	free(err);
	free(url);
	free(dir);
	return db;
}

/* A store holding azure's recorded rows: two pay-as-you-go offers of
 * Standard_NC24ads_A100_v4 (on demand 0.673, spot 0.6057) and its 1- and
 * 3-year reservations (3478 and 6721 for the term). */
static char *azure_db(void)
{
	return feed_db("azure", "PLANNER_AZURE_URL", "real-b16als", NULL);
}

/* A number the store holds (the first column of sql's first row). */
static double stored(const char *db, const char *sql, const char *param)
{
	char *v = test_query(db, sql, param);
	ck_assert_msg(*v, "no row: %s", sql);
	double d = atof(v);
	free(v);
	return d;
}

/* Two jobs on one A100 80GB at azure only: 600 and 100 hours a month. */
static const char *SPEC = "version: 1\n"
                          "providers: [azure]\n"
                          "buy: []\n"
                          "jobs:\n"
                          "  - {name: always-on, model: llama-3.1-8b, precision: bf16, "
                          "context: 8192, batch: 8, hours_per_month: 600, data: public}\n"
                          "  - {name: evenings, model: llama-3.1-8b, precision: bf16, "
                          "context: 8192, batch: 8, hours_per_month: 100, data: public}\n";

/* SPEC with its providers: [azure] made [provider], written under dir.
 * Returns the path. */
static char *spec_at(const char *dir, const char *provider)
{
	const char *at = strstr(SPEC, "[azure]");
	ck_assert_ptr_nonnull(at);
	char *body =
	    xasprintf("%.*s[%s]%s", (int)(at - SPEC), SPEC, provider, at + strlen("[azure]"));
	char *name = xasprintf("%s.yaml", provider);
	char *path = test_write(dir, name, body);
	free(name);
	free(body);
	return path;
}

/* `planner CMD SPEC --db DB [--set SET] --format json` parsed. */
static cJSON *cmd_json(const char *cmd, const char *db, const char *spec, const char *set)
{
	const char *argv[10] = {cmd, spec, "--db", db, "--format", "json"};
	size_t a = 6;
	if (set) {
		argv[a++] = "--set";
		argv[a++] = set;
	}
	argv[a] = NULL;
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	free(out);
	free(err);
	return root;
}

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
	return v->valuedouble;
}

static const cJSON *rented_of(const cJSON *root, const char *job)
{
	const cJSON *r = test_json_route(test_json_job(root, job), "rented");
	ck_assert_ptr_nonnull(r);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	return r;
}

START_TEST(compare_rents_on_a_commitment_only_when_the_jobs_hours_make_it_cheaper)
{
	char *db = azure_db(), *dir = test_tmpdir();
	char *spec = test_write(dir, "spec.yaml", SPEC);
	double od = stored(db, "SELECT price_per_hour FROM offers WHERE provider = ? AND spot = 0",
	                   "azure");
	double y3 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "3y");
	double up3 = stored(db, "SELECT upfront FROM offer_terms WHERE term = ?", "3y");
	/* the stored term is the recorded one: 6721 over 26,280 hours */
	ck_assert_double_eq(up3, 6721);
	ck_assert_double_eq_tol(y3, 6721.0 / 26280, 1e-9);
	cJSON *root = cmd_json("compare", db, spec, NULL);
	/* 600 h on demand cost more than the commitment's fixed month */
	const cJSON *r = rented_of(root, "always-on");
	ck_assert(600 * od > y3 * TEST_COMMIT_HOURS);
	const cJSON *t = cJSON_GetObjectItem(r, "commitment");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "term")->valuestring, "3y");
	ck_assert_double_eq_tol(num(t, "upfront"), up3, 0.005);
	ck_assert_double_eq_tol(num(t, "effective_per_hour"), y3, 5e-5);
	ck_assert_double_eq_tol(num(t, "monthly_cost"), y3 * TEST_COMMIT_HOURS, 0.005);
	ck_assert_double_eq_tol(num(r, "monthly_cost"), y3 * TEST_COMMIT_HOURS, 0.005);
	ck_assert_double_eq_tol(num(r, "price_per_hour"), y3, 5e-5);
	ck_assert_double_eq(num(r, "gpu_hours"), 600);
	ck_assert_double_eq(num(r, "setup_cost"), 0);
	/* 100 h are too few: 100 x 0.673 is less than a month of the term */
	r = rented_of(root, "evenings");
	ck_assert(100 * od < y3 * TEST_COMMIT_HOURS);
	ck_assert_ptr_null(cJSON_GetObjectItem(r, "commitment"));
	ck_assert_double_eq_tol(num(r, "monthly_cost"), 100 * od, 0.005);
	ck_assert_double_eq_tol(num(r, "price_per_hour"), od, 5e-5);
	cJSON_Delete(root);
	/* the table says the term, the upfront and the month */
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	char want[160];
	snprintf(want, sizeof want,
	         "3y commitment, %.2f USD upfront, %.4g USD/h effective x 730 h "
	         "= %.2f USD/month, runs 600.0 h",
	         up3, y3, y3 * TEST_COMMIT_HOURS);
	ck_assert_msg(strstr(out, want), "%s\nnot in\n%s", want, out);
	free(out);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

START_TEST(commit_caps_the_term_weighed_and_none_refuses_commitments)
{
	char *db = azure_db(), *dir = test_tmpdir();
	char *spec = test_write(dir, "spec.yaml", SPEC);
	double od = stored(db, "SELECT price_per_hour FROM offers WHERE provider = ? AND spot = 0",
	                   "azure");
	double y1 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "1y");
	double up1 = stored(db, "SELECT upfront FROM offer_terms WHERE term = ?", "1y");
	ck_assert_double_eq(up1, 3478);
	cJSON *root = cmd_json("compare", db, spec, "commit=1y");
	const cJSON *r = rented_of(root, "always-on");
	const cJSON *t = cJSON_GetObjectItem(r, "commitment");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "term")->valuestring, "1y");
	ck_assert_double_eq_tol(num(t, "upfront"), up1, 0.005);
	ck_assert_double_eq_tol(num(r, "monthly_cost"), y1 * TEST_COMMIT_HOURS, 0.005);
	cJSON_Delete(root);
	root = cmd_json("compare", db, spec, "commit=none");
	r = rented_of(root, "always-on");
	ck_assert_ptr_null(cJSON_GetObjectItem(r, "commitment"));
	ck_assert_double_eq_tol(num(r, "monthly_cost"), 600 * od, 0.005);
	cJSON_Delete(root);
	const char *bad[] = {"compare", spec, "--db", db, "--set", "commit=2y", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), 1); /* bad input */
	ck_assert_msg(strstr(err, "unknown commit '2y'"), "%s", err);
	free(err);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

/* fleet's buy-nothing month: the committed job pays the commitment's month
 * in the schedule, not its hours at the effective rate. */
START_TEST(fleet_bills_a_committed_rental_its_fixed_month)
{
	char *db = azure_db(), *dir = test_tmpdir();
	char *text = xasprintf("%s", SPEC);
	char *at = strstr(text, "buy: []");
	ck_assert_ptr_nonnull(at);
	char *fleet_spec = xasprintf("%.*sbuy: [{gpu: RTX 4090, price: 1800}]%s", (int)(at - text),
	                             text, at + strlen("buy: []"));
	char *spec = test_write(dir, "fleet.yaml", fleet_spec);
	double od = stored(db, "SELECT price_per_hour FROM offers WHERE provider = ? AND spot = 0",
	                   "azure");
	double y3 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "3y");
	const char *argv[] = {"fleet", spec, "--db", db, "--format", "json", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *none =
	    cJSON_GetObjectItem(cJSON_GetObjectItem(root, "alternatives"), "buy_nothing");
	ck_assert_ptr_nonnull(none);
	double rented = num(cJSON_GetObjectItem(none, "by_route"), "rented");
	ck_assert_double_eq_tol(rented, y3 * TEST_COMMIT_HOURS + 100 * od, 0.01);
	/* at the effective rate for its 600 hours it would be less */
	ck_assert(y3 * 600 + 100 * od < rented - 1);
	cJSON_Delete(root);
	free(out);
	free(err);
	free(spec);
	free(fleet_spec);
	free(text);
	free(dir);
	free(db);
}
END_TEST

/* The where of job `name`'s only run in fleet's recommended month. */
static const char *only_run_where(const cJSON *root, const char *name)
{
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(root, "jobs"))
	{
		if (strcmp(cJSON_GetObjectItem(j, "name")->valuestring, name))
			continue;
		const cJSON *runs = cJSON_GetObjectItem(j, "runs_on");
		ck_assert_int_eq(cJSON_GetArraySize(runs), 1);
		return cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 0), "where")->valuestring;
	}
	ck_abort_msg("no job %s", name);
	return NULL;
}

/* Two jobs of 600 and 100 hours fit one instance's month: fleet commits
 * to one and runs both on it, where compare, pricing each job alone, pays
 * the commitment and 100 hours on demand. A job of data: restricted may
 * not leave the house: it never runs on the commitment. */
START_TEST(fleet_shares_one_commitment_across_jobs_as_it_shares_gpus_on_hand)
{
	char *db = azure_db(), *dir = test_tmpdir();
	char *text = xasprintf("%s  - {name: secret, model: llama-3.1-8b, precision: bf16, "
	                       "context: 8192, batch: 8, hours_per_month: 50, data: restricted}\n",
	                       SPEC);
	char *spec = test_write(dir, "shared.yaml", text);
	double y3 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "3y");
	double up3 = stored(db, "SELECT upfront FROM offer_terms WHERE term = ?", "3y");
	cJSON *root = cmd_json("fleet", db, spec, NULL);
	const cJSON *buy = cJSON_GetObjectItem(root, "purchase");
	ck_assert_int_eq(cJSON_GetArraySize(buy), 1);
	const cJSON *b = cJSON_GetArrayItem(buy, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(b, "gpu")->valuestring, "A100 80GB");
	ck_assert_double_eq(num(b, "price"), 0);
	const cJSON *t = cJSON_GetObjectItem(b, "commitment");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "term")->valuestring, "3y");
	ck_assert_double_eq(num(t, "instances"), 1);
	ck_assert_double_eq_tol(num(t, "upfront"), up3, 0.005);
	ck_assert_double_eq_tol(num(t, "monthly_cost"), y3 * TEST_COMMIT_HOURS, 0.005);
	/* the month is the commitment's alone: both jobs on its one A100 */
	ck_assert_double_eq_tol(num(root, "monthly_total"), y3 * TEST_COMMIT_HOURS, 0.01);
	ck_assert_double_eq(num(root, "capex"), 0);
	ck_assert_ptr_nonnull(strstr(only_run_where(root, "always-on"), "(azure 3y)"));
	ck_assert_ptr_nonnull(strstr(only_run_where(root, "evenings"), "(azure 3y)"));
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(root, "jobs"))
	{
		if (strcmp(cJSON_GetObjectItem(j, "name")->valuestring, "secret"))
			continue;
		ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(j, "runs_on")), 0);
		ck_assert_double_eq(num(j, "unplaced_hours"), 50);
	}
	cJSON_Delete(root);
	/* commit: none: no commitment to share, each job rents on demand */
	root = cmd_json("fleet", db, spec, "commit=none");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "purchase")), 0);
	const cJSON *c;
	cJSON_ArrayForEach(c, cJSON_GetObjectItem(root, "buy_candidates"))
	    ck_assert_ptr_null(strstr(c->valuestring, "commitment"));
	cJSON_Delete(root);
	free(spec);
	free(text);
	free(dir);
	free(db);
}
END_TEST

/* With two RTX 4090 bought, the owned pools leave the 600-hour job a few
 * hours to rent: those cost their on-demand share, not a year's
 * commitment nor its effective rate. */
START_TEST(leftover_hours_of_a_committed_job_are_billed_on_demand)
{
	char *db = azure_db(), *dir = test_tmpdir();
	char *text = xasprintf("%s", SPEC);
	char *at = strstr(text, "buy: []");
	ck_assert_ptr_nonnull(at);
	char *body = xasprintf("%.*sbuy: [{gpu: RTX 4090, price: 1800}]%s  - {name: secret, "
	                       "model: llama-3.1-8b, precision: bf16, context: 8192, batch: 8, "
	                       "hours_per_month: 50, data: restricted}\n",
	                       (int)(at - text), text, at + strlen("buy: []"));
	char *spec = test_write(dir, "left.yaml", body);
	double od = stored(db, "SELECT price_per_hour FROM offers WHERE provider = ? AND spot = 0",
	                   "azure");
	double y3 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "3y");
	cJSON *root = cmd_json("fleet", db, spec, NULL);
	bool rented = false;
	const cJSON *j, *run;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(root, "jobs"))
	{
		if (strcmp(cJSON_GetObjectItem(j, "name")->valuestring, "always-on"))
			continue;
		cJSON_ArrayForEach(run, cJSON_GetObjectItem(j, "runs_on"))
		{
			if (strcmp(cJSON_GetObjectItem(run, "route")->valuestring, "rented"))
				continue;
			double h = num(run, "hours");
			/* below 277 h on demand costs less than the month */
			ck_assert(h * od < y3 * TEST_COMMIT_HOURS);
			ck_assert_double_eq_tol(num(run, "cost"), h * od, 0.01);
			rented = true;
		}
	}
	ck_assert_msg(rented, "the owned pools took the whole job: nothing to check");
	cJSON_Delete(root);
	free(spec);
	free(body);
	free(text);
	free(dir);
	free(db);
}
END_TEST

/* A GPU's recorded reserved rates (ec2instances.info's p4d.24xlarge page,
 * scenario real-p4d): 8x A100 40GB at 32.773 on demand, 20.175 and 12.499
 * on 1- and 3-year No Upfront terms. offers --term lists them; compare
 * commits for 600 h a month and rents 100 h by the hour. */
START_TEST(aws_reserved_gpu_rates_from_a_recording_are_weighed_by_compare)
{
	char *db = feed_db("aws", "PLANNER_AWS_URL", "real-p4d", "PLANNER_AWS_REGIONS=us-east-1");
	char *dir = test_tmpdir();
	const char *term_args[] = {"offers", "--term", "1y", "--db", db, "--format", "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(term_args, NULL, &out, NULL), 0);
	cJSON *arr = cJSON_Parse(out);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 1);
	const cJSON *o = cJSON_GetArrayItem(arr, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(o, "offer")->valuestring, "p4d.24xlarge");
	ck_assert_str_eq(cJSON_GetObjectItem(o, "gpu")->valuestring, "A100 40GB");
	ck_assert_double_eq(num(o, "price_per_hour"), 20.175);
	ck_assert_double_eq(num(o, "upfront"), 0);
	cJSON_Delete(arr);
	free(out);
	char *spec = spec_at(dir, "aws");
	double od =
	    stored(db, "SELECT price_per_hour FROM offers WHERE provider = ? AND spot = 0", "aws");
	double y3 = stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = ?", "3y");
	ck_assert_double_eq(od, 32.773);
	ck_assert_double_eq(y3, 12.499);
	cJSON *root = cmd_json("compare", db, spec, NULL);
	const cJSON *r = rented_of(root, "always-on");
	const cJSON *t = cJSON_GetObjectItem(r, "commitment");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(cJSON_GetObjectItem(t, "term")->valuestring, "3y");
	ck_assert_str_eq(cJSON_GetObjectItem(t, "option")->valuestring, "No Upfront");
	ck_assert_double_eq(num(t, "upfront"), 0);
	ck_assert_double_eq_tol(num(r, "monthly_cost"), y3 * TEST_COMMIT_HOURS, 0.005);
	r = rented_of(root, "evenings");
	ck_assert_ptr_null(cJSON_GetObjectItem(r, "commitment"));
	ck_assert_double_eq_tol(num(r, "monthly_cost"), 100 * od, 0.005);
	cJSON_Delete(root);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

/* GCP's committed use discounts (the real-a2 scenario's T4 GPU and N1
 * core/RAM commitment SKUs, tests/fixtures/providers/gcp.real-a2.next.json):
 * a 3-year term per N1 + T4 shape, none for 1 year (no 1-year RAM SKU).
 * offers --term lists them; compare with commit: 3y commits the 600-hour
 * job and rents the 100-hour one by the hour. */
START_TEST(gcp_committed_use_discounts_are_listed_and_weighed_by_compare)
{
	char *db = feed_db("gcp", "PLANNER_GCP_URL", "real-a2", "GCP_API_KEY=test-key");
	char *dir = test_tmpdir();
	const char *y3_args[] = {"offers", "--provider", "gcp",      "--term", "3y",
	                         "--db",   db,           "--format", "json",   NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(y3_args, NULL, &out, NULL), 0);
	cJSON *arr = cJSON_Parse(out);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 3);
	const cJSON *o = cJSON_GetArrayItem(arr, 0); /* cheapest first */
	ck_assert_str_eq(cJSON_GetObjectItem(o, "offer")->valuestring, "n1-standard-8 + 1x T4");
	ck_assert_str_eq(cJSON_GetObjectItem(o, "term")->valuestring, "3y");
	ck_assert_double_eq_tol(num(o, "price_per_hour"), 0.16 + 8 * 0.014225 + 30 * 0.001907,
	                        1e-9);
	ck_assert_double_eq(num(o, "upfront"), 0);
	cJSON_Delete(arr);
	free(out);
	const char *y1_args[] = {"offers", "--provider", "gcp",      "--term", "1y",
	                         "--db",   db,           "--format", "json",   NULL};
	ck_assert_int_eq(test_run_planner(y1_args, NULL, &out, NULL), 0);
	arr = cJSON_Parse(out);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 0);
	cJSON_Delete(arr);
	free(out);
	char *spec = spec_at(dir, "gcp");
	cJSON *root = cmd_json("compare", db, spec, "commit=3y");
	const cJSON *r = rented_of(root, "always-on");
	const cJSON *t = cJSON_GetObjectItem(r, "commitment");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(cJSON_GetObjectItem(r, "provider")->valuestring, "gcp");
	ck_assert_str_eq(cJSON_GetObjectItem(t, "term")->valuestring, "3y");
	ck_assert_double_eq(num(t, "upfront"), 0);
	/* the offer it commits to, at its stored committed hour x 730 */
	double y3 =
	    stored(db, "SELECT price_per_hour FROM offer_terms WHERE term = '3y' AND offer = ?",
	           cJSON_GetObjectItem(r, "offer")->valuestring);
	ck_assert_double_eq_tol(num(r, "monthly_cost"), y3 * TEST_COMMIT_HOURS, 0.005);
	r = rented_of(root, "evenings");
	ck_assert_ptr_null(cJSON_GetObjectItem(r, "commitment"));
	cJSON_Delete(root);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

Suite *commit_suite(void)
{
	Suite *s = suite_create("commit");
	TCase *t = tcase_create("commitments against on-demand over loopback");
	tcase_add_checked_fixture(t, fx_start, fx_stop);
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, compare_rents_on_a_commitment_only_when_the_jobs_hours_make_it_cheaper);
	tcase_add_test(t, commit_caps_the_term_weighed_and_none_refuses_commitments);
	tcase_add_test(t, fleet_bills_a_committed_rental_its_fixed_month);
	tcase_add_test(t, fleet_shares_one_commitment_across_jobs_as_it_shares_gpus_on_hand);
	tcase_add_test(t, leftover_hours_of_a_committed_job_are_billed_on_demand);
	tcase_add_test(t, aws_reserved_gpu_rates_from_a_recording_are_weighed_by_compare);
	tcase_add_test(t, gcp_committed_use_discounts_are_listed_and_weighed_by_compare);
	suite_add_tcase(s, t);
	return s;
}
