/* check_resold_feeds.c — the GPU feeds of marketplaces and resellers added
 * for issue 29 (providers/primeintellect.c, hyperbolic.c) over real HTTP on loopback
 * (tests/fixture_server.py): each one's units, paging and key header,
 * what its error bodies say, and that its rows are marketplace hosts. The
 * shared fault and key tests (check_faults.c, check_security.c) run on
 * them through provider_list. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "providers_util.h"
#include "testutil.h"

/* Runs p's fetch against `scenario` into n with the key "test-key". */
static int fetch(const struct provider *p, const char *scenario, struct norm *n, char **err)
{
	return fetch_scenario(p, feed_server.port, scenario, "test-key", NULL, 0, n, err);
}

/* The recorded response (PrimeIntellect-ai/prime's test data): 8 runpod
 * machines, one page of a totalCount of 608. */
START_TEST(primeintellect_prices_each_resold_machine_in_its_data_centre_as_a_marketplace_row)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_primeintellect, "ok-pi", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(n.n_offers, 8);
	ck_assert_uint_eq(n.skipped + n.unknown_rows, 0);
	const struct offer *a = find_first(&n, "runpod:NVIDIA A100 80GB PCIe:1", "US-KS-2");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "A100 80GB");
	CLOSE(a->price_per_hour, 1.6567999999999998);
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->vcpus, 14);
	CLOSE(a->ram_gib, 125);
	ck_assert(a->available); /* stockStatus "Low" */
	ck_assert(!a->spot);     /* isSpot null */
	ck_assert(a->marketplace);
	ck_assert_str_eq(a->country, "US");
	/* The socket tells the two H100s apart in one data centre. */
	const struct offer *sxm = find_first(&n, "runpod:NVIDIA H100 80GB HBM3:1", "CA-MTL-3");
	const struct offer *pcie = find_first(&n, "runpod:NVIDIA H100 PCIe:1", "CA-MTL-3");
	ck_assert_ptr_nonnull(sxm);
	ck_assert_ptr_nonnull(pcie);
	ck_assert_str_eq(sxm->gpu, "H100 SXM");
	ck_assert_str_eq(pcie->gpu, "H100 PCIe");
	CLOSE(sxm->price_per_hour, 2.7068);
	CLOSE(pcie->price_per_hour, 2.4068);
	ck_assert_str_eq(pcie->country, "CA");
	/* Eight items are less than a page of 100: no second page asked. */
	char *log = test_fixture_log(&feed_server, "ok-pi");
	ck_assert_msg(strstr(log, "\"/api/v1/availability/gpus\"") &&
	                  strstr(log, "\"page=1&page_size=100\"") && !strstr(log, "page=2") &&
	                  strstr(log, "Bearer"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

/* The price is the whole machine's and gpuMemory its total (SkyPilot's
 * fetcher, see primeintellect.c); a community price stands in for a
 * missing on-demand one; a row without a data centre or price is counted. */
START_TEST(primeintellect_reads_a_machines_total_memory_and_community_prices)
{
	struct norm n;
	char *err = NULL;
	const char *body = "{\"items\": ["
	                   "{\"cloudId\": \"x2\", \"gpuType\": \"H200_141GB\", \"provider\": \"p\","
	                   " \"dataCenter\": \"US-KS-2\", \"gpuCount\": 2, \"gpuMemory\": 282,"
	                   " \"stockStatus\": \"Available\", \"prices\": {\"onDemand\": 5.0}},"
	                   "{\"cloudId\": \"c1\", \"gpuType\": \"A100_80GB\", \"provider\": \"q\","
	                   " \"dataCenter\": \"US-KS-2\", \"gpuCount\": 1, \"gpuMemory\": 80,"
	                   " \"stockStatus\": \"Unavailable\","
	                   " \"prices\": {\"onDemand\": null, \"communityPrice\": 0.9}},"
	                   "{\"cloudId\": \"n\", \"gpuType\": \"A100_80GB\", \"provider\": \"q\","
	                   " \"gpuCount\": 1, \"gpuMemory\": 80, \"prices\": {\"onDemand\": 1.0}},"
	                   "{\"cloudId\": \"z\", \"gpuType\": \"A100_80GB\", \"provider\": \"q\","
	                   " \"dataCenter\": \"US-KS-2\", \"gpuCount\": 1, \"prices\": {}}"
	                   "], \"totalCount\": 4}";
	ck_assert_int_eq(parse_body(&provider_primeintellect, body, &n, NULL, &err), PLANNER_OK);
	const struct offer *h = find_first(&n, "p:x2:2", "US-KS-2");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->gpu, "H200");
	CLOSE(h->price_per_hour, 5.0); /* not 2 x 5 */
	ck_assert_int_eq(h->gpu_count, 2);
	const struct offer *c = find_first(&n, "q:c1:1", "US-KS-2");
	ck_assert_ptr_nonnull(c);
	CLOSE(c->price_per_hour, 0.9);
	ck_assert(!c->available);
	ck_assert(c->marketplace);
	ck_assert_uint_eq(n.n_offers, 2);
	ck_assert_uint_eq(n.skipped, 2);
	norm_free(&n);
}
END_TEST

START_TEST(a_primeintellect_body_without_items_is_an_error_with_its_message)
{
	ck_error_body(&provider_primeintellect,
	              "{\"detail\": \"x\", \"message\": \"Unauthorized\"}",
	              "primeintellect says: Unauthorized");
}
END_TEST

/* A peer's test payload in the shape Hyperbolic's docs give (coinbase
 * agentkit's, tests/fixtures/providers/hyperbolic.json): cents per
 * GPU-hour, POSTed with an empty filter and no key needed. */
START_TEST(hyperbolic_reads_cents_per_gpu_hour_from_the_marketplace_list)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_hyperbolic, "ok-hb", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(n.n_offers, 2); /* one-GPU machines: one size each */
	const struct offer *a = find_first(&n, "korea-amd14-78-1x", "region-1");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "RTX 3070");
	CLOSE(a->price_per_hour, 20.0); /* amount 2000 */
	CLOSE(a->vram_gib, 8.0);        /* ram 8192 MiB */
	CLOSE(a->vcpus, 32);
	ck_assert(a->available);
	ck_assert(a->marketplace);
	CLOSE(find_first(&n, "korea-amd11-181-1x", "region-1")->price_per_hour, 16.0);
	char *log = test_fixture_log(&feed_server, "ok-hb");
	ck_assert_msg(strstr(log, "\"POST\"") && strstr(log, "\"/v1/marketplace\"") &&
	                  strstr(log, "filters"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

/* A machine's sizes up to gpus_total, priced per GPU, free when enough
 * GPUs are not in use; a reserved machine offers nothing free. */
START_TEST(hyperbolic_offers_each_size_of_a_machine_while_its_gpus_are_free)
{
	struct norm n;
	char *err = NULL;
	const char *body =
	    "{\"instances\": ["
	    "{\"id\": \"m8\", \"status\": \"node_ready\", \"gpus_total\": 8, \"gpus_reserved\": 5,"
	    " \"reserved\": false, \"location\": {\"region\": \"r\"},"
	    " \"hardware\": {\"gpus\": [{\"model\": \"NVIDIA-H100-80GB-HBM3\", \"ram\": 81559}],"
	    " \"cpus\": [{\"virtual_cores\": 160}], \"ram\": [{\"capacity\": 1600}]},"
	    " \"pricing\": {\"price\": {\"amount\": 150, \"period\": \"hourly\"}}},"
	    "{\"id\": \"r1\", \"status\": \"node_ready\", \"gpus_total\": 1, \"gpus_reserved\": 0,"
	    " \"reserved\": true, \"hardware\": {\"gpus\": [{\"model\": "
	    "\"NVIDIA-H100-80GB-HBM3\"}]},"
	    " \"pricing\": {\"price\": {\"amount\": 150}}},"
	    "{\"id\": \"x\", \"gpus_total\": 1, \"hardware\": {\"gpus\": [{\"model\": \"A\"}]},"
	    " \"pricing\": {}}"
	    "]}";
	ck_assert_int_eq(parse_body(&provider_hyperbolic, body, &n, NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 5); /* 1, 2, 4, 8 of m8; 1 of r1 */
	ck_assert_uint_eq(n.skipped, 1);  /* no price */
	const struct offer *two = find_first(&n, "m8-2x", "r"),
	                   *four = find_first(&n, "m8-4x", "r");
	ck_assert_ptr_nonnull(two);
	ck_assert_ptr_nonnull(four);
	ck_assert_str_eq(two->gpu, "H100 SXM");
	CLOSE(two->price_per_hour, 3.0);
	CLOSE(two->vcpus, 40);
	CLOSE(two->ram_gib, 400);
	ck_assert(two->available); /* 3 free */
	ck_assert(!four->available);
	ck_assert(!find_first(&n, "r1-1x", "")->available);
	norm_free(&n);
}
END_TEST

START_TEST(a_hyperbolic_body_without_instances_is_an_error_with_its_message)
{
	ck_error_body(&provider_hyperbolic, "{\"error\": \"Not authenticated\"}",
	              "hyperbolic says: Not authenticated");
}
END_TEST

Suite *resold_feeds_suite(void)
{
	Suite *s = suite_create("resold_feeds");
	TCase *t = tcase_create("over loopback");
	tcase_add_checked_fixture(t, feed_server_start, feed_server_stop);
	tcase_add_test(
	    t, primeintellect_prices_each_resold_machine_in_its_data_centre_as_a_marketplace_row);
	tcase_add_test(t, primeintellect_reads_a_machines_total_memory_and_community_prices);
	tcase_add_test(t, a_primeintellect_body_without_items_is_an_error_with_its_message);
	tcase_add_test(t, hyperbolic_reads_cents_per_gpu_hour_from_the_marketplace_list);
	tcase_add_test(t, hyperbolic_offers_each_size_of_a_machine_while_its_gpus_are_free);
	tcase_add_test(t, a_hyperbolic_body_without_instances_is_an_error_with_its_message);
	suite_add_tcase(s, t);
	return s;
}
