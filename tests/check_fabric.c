/* check_fabric.c — the catalogue of joinable rented instances (fabric.c)
 * and compare's routes past one node: a 70B full fine-tune on 32 H100s,
 * rented as four joined instances of one offer, owned as four hosts. */
#include <check.h>
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "testutil.h"
#include "util.h"

#define MULTINODE "tests/fixtures/jobs/multinode-finetune.yaml"

START_TEST(every_catalogue_entry_names_its_fabric_rate_and_source)
{
	size_t n;
	const struct fabric_entry *f = fabric_catalogue(&n);
	ck_assert_uint_gt(n, 0);
	for (size_t i = 0; i < n; i++) {
		ck_assert_msg(fabric_kind(f[i].fabric) != NODE_FABRIC_UNKNOWN, "%s", f[i].offer);
		ck_assert_msg(f[i].gbps_per_gpu > 0, "%s", f[i].offer);
		ck_assert_msg(strstr(f[i].source, "read 20"), "%s: %s", f[i].offer, f[i].source);
		ck_assert_ptr_eq(fabric_find(f[i].provider, f[i].offer), &f[i]);
	}
	ck_assert_ptr_null(fabric_find("lambda", "gpu_8x_h100_sxm5"));
	ck_assert_int_eq(fabric_kind(""), NODE_FABRIC_UNKNOWN);
}
END_TEST

START_TEST(an_offer_is_marked_from_the_catalogue_unless_its_feed_said)
{
	struct offer o = {0};
	snprintf(o.provider, sizeof o.provider, "aws");
	snprintf(o.offer, sizeof o.offer, "p5.48xlarge");
	fabric_mark_offer(&o);
	ck_assert_str_eq(o.fabric, "efa");
	ck_assert_double_eq(o.fabric_gbps, 400);
	/* A feed's own figure stands. */
	snprintf(o.fabric, sizeof o.fabric, "roce");
	o.fabric_gbps = 100;
	fabric_mark_offer(&o);
	ck_assert_str_eq(o.fabric, "roce");
	ck_assert_double_eq(o.fabric_gbps, 100);
	/* Not in the catalogue: single-node only. */
	struct offer l = {0};
	snprintf(l.provider, sizeof l.provider, "lambda");
	snprintf(l.offer, sizeof l.offer, "gpu_8x_h100_sxm5");
	fabric_mark_offer(&l);
	ck_assert_str_eq(l.fabric, "");
	ck_assert_double_eq(l.fabric_gbps, 0);
}
END_TEST

static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	ck_assert_msg(cJSON_IsNumber(v), "no number %s", key);
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItem(o, key);
	ck_assert_msg(cJSON_IsString(v), "no string %s", key);
	return v->valuestring;
}

/* The hourly price the store lists for provider's offer in region (on
 * demand), read back through `planner offers`. */
static double listed_price(const char *db, const char *provider, const char *offer,
                           const char *region)
{
	const char *args[] = {"offers", "--format", "json", NULL};
	char *out;
	test_run_ok(db, args, &out);
	cJSON *rows = cJSON_Parse(out);
	ck_assert_ptr_nonnull(rows);
	double price = 0;
	const cJSON *it;
	cJSON_ArrayForEach(it, rows)
	{
		if (!strcmp(str(it, "provider"), provider) && !strcmp(str(it, "offer"), offer) &&
		    !strcmp(str(it, "region"), region) &&
		    !cJSON_IsTrue(cJSON_GetObjectItem(it, "spot")))
			price = num(it, "price_per_hour");
	}
	cJSON_Delete(rows);
	free(out);
	return price;
}

START_TEST(a_70b_full_fine_tune_rents_four_joined_instances_at_four_times_the_offer)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out;
	const char *args[] = {"compare", MULTINODE, "--format", "json", NULL};
	test_run_ok(db, args, &out);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *job = test_json_job(root, "ft70b");
	const cJSON *r = test_json_route(job, "rented");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	/* One provider, one region, one instance type, joined over the
	 * fabric its provider documents. */
	ck_assert_double_eq(num(r, "gpu_count"), 32);
	ck_assert_double_eq(num(r, "nodes"), 4);
	ck_assert_double_eq(num(r, "gpus_per_node"), 8);
	ck_assert_double_eq(num(r, "replicas"), 1);
	ck_assert_ptr_nonnull(fabric_find(str(r, "provider"), str(r, "offer")));
	ck_assert_str_eq(str(r, "fabric"),
	                 fabric_find(str(r, "provider"), str(r, "offer"))->fabric);
	const cJSON *lay = cJSON_GetObjectItem(r, "parallel");
	ck_assert_double_eq(num(lay, "dp"), 32); /* the job's parallel: {dp: 32} */
	ck_assert_double_eq(num(lay, "tp") * num(lay, "pp") * num(lay, "dp"), 32);
	/* The month: the offer's price x 4 instances x the hours. */
	double price = listed_price(db, str(r, "provider"), str(r, "offer"), str(r, "region"));
	ck_assert_double_gt(price, 0);
	ck_assert_double_eq_tol(num(r, "price_per_hour"), price * 4, 1e-4);
	ck_assert_double_eq_tol(num(r, "monthly_cost"), price * 4 * num(r, "gpu_hours"), 0.01);
	ck_assert_double_eq(num(r, "gpu_hours"), 100);
	/* Owned: the same layout on hosts of the GPU's node, each a host. */
	const cJSON *o = test_json_route(job, "owned");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(o, "feasible")));
	ck_assert_double_eq(num(o, "gpu_count"), 32);
	ck_assert_double_eq(num(o, "nodes"), num(o, "hosts"));
	ck_assert_double_eq(num(o, "gpu_count"), num(o, "nodes") * num(o, "gpus_per_node"));
	cJSON_Delete(root);
	free(out);
	const char *table[] = {"compare", MULTINODE, NULL};
	test_run_ok(db, table, &out);
	ck_assert_msg(strstr(out, " (4 nodes of 8x H100 SXM)"), "%s", out);
	free(out);
	free(db);
	free(dir);
}
END_TEST

START_TEST(a_provider_whose_instances_join_over_nothing_is_single_node_only)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out;
	char *text = test_slurp(MULTINODE);
	char *spec_text = xasprintf("providers: [lambda]\n%s", text);
	char *spec = test_write(dir, "job.yaml", spec_text);
	const char *args[] = {"compare", spec, "--format", "json", NULL};
	test_run_ok(db, args, &out);
	cJSON *root = cJSON_Parse(out);
	const cJSON *r = test_json_route(test_json_job(root, "ft70b"), "rented");
	/* Lambda sells 8-GPU H100 instances, and none joined to another. */
	ck_assert(!cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	ck_assert_msg(strstr(str(r, "why"), "needs 1372.0 GiB"), "%s", str(r, "why"));
	cJSON_Delete(root);
	free(out);
	free(spec);
	free(spec_text);
	free(text);
	free(db);
	free(dir);
}
END_TEST

Suite *fabric_suite(void)
{
	Suite *s = suite_create("fabric");
	TCase *tc = tcase_create("catalogue");
	tcase_add_test(tc, every_catalogue_entry_names_its_fabric_rate_and_source);
	tcase_add_test(tc, an_offer_is_marked_from_the_catalogue_unless_its_feed_said);
	suite_add_tcase(s, tc);
	TCase *cli = tcase_create("compare past one node");
	tcase_add_test(cli,
	               a_70b_full_fine_tune_rents_four_joined_instances_at_four_times_the_offer);
	tcase_add_test(cli, a_provider_whose_instances_join_over_nothing_is_single_node_only);
	suite_add_tcase(s, cli);
	return s;
}
