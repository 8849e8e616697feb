/* check_resold_feeds.c — the GPU feeds of marketplaces and resellers added
 * for issue 29 (providers/primeintellect.c) over real HTTP on loopback
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
#include "testutil.h"

static struct test_fixture server;

static void start(void)
{
	test_fixture_start(&server, 2.0);
}

static void stop(void)
{
	test_fixture_stop(&server);
}

#define CLOSE(a, b)                                                                                \
	ck_assert_msg(fabs((a) - (b)) < 1e-9, "%.10g != %.10g", (double)(a), (double)(b))

/* Runs p's fetch against `scenario` into n with the key "test-key". */
static int fetch(const struct provider *p, const char *scenario, struct norm *n, char **err)
{
	struct http_opts o;
	char base[128];
	http_opts_init(&o);
	o.retries = 0;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/%s", server.port, scenario);
	norm_init(n, test_ref(), p->name);
	struct fetch_ctx fx = {.p = p, .http = &o, .base = base, .key = "test-key", .out = n};
	return p->fetch(&fx, err);
}

/* Parses body with p's parse into n. */
static int parse(const struct provider *p, const char *body, struct norm *n, char **err)
{
	norm_init(n, test_ref(), p->name);
	return p->parse(n, body, strlen(body), NULL, err);
}

static const struct offer *find(const struct norm *n, const char *offer, const char *region)
{
	for (size_t i = 0; i < n->n_offers; i++)
		if (!strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region))
			return &n->offers[i];
	return NULL;
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
	const struct offer *a = find(&n, "runpod:NVIDIA A100 80GB PCIe:1", "US-KS-2");
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
	const struct offer *sxm = find(&n, "runpod:NVIDIA H100 80GB HBM3:1", "CA-MTL-3");
	const struct offer *pcie = find(&n, "runpod:NVIDIA H100 PCIe:1", "CA-MTL-3");
	ck_assert_ptr_nonnull(sxm);
	ck_assert_ptr_nonnull(pcie);
	ck_assert_str_eq(sxm->gpu, "H100 SXM");
	ck_assert_str_eq(pcie->gpu, "H100 PCIe");
	CLOSE(sxm->price_per_hour, 2.7068);
	CLOSE(pcie->price_per_hour, 2.4068);
	ck_assert_str_eq(pcie->country, "CA");
	/* Eight items are less than a page of 100: no second page asked. */
	char *log = test_fixture_log(&server, "ok-pi");
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
	ck_assert_int_eq(parse(&provider_primeintellect, body, &n, &err), PLANNER_OK);
	const struct offer *h = find(&n, "p:x2:2", "US-KS-2");
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->gpu, "H200");
	CLOSE(h->price_per_hour, 5.0); /* not 2 x 5 */
	ck_assert_int_eq(h->gpu_count, 2);
	const struct offer *c = find(&n, "q:c1:1", "US-KS-2");
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
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse(&provider_primeintellect,
	                       "{\"detail\": \"x\", \"message\": \"Unauthorized\"}", &n, &err),
	                 PLANNER_ENET);
	ck_assert_msg(strstr(err, "primeintellect says: Unauthorized"), "%s", err);
	free(err);
	norm_free(&n);
}
END_TEST

Suite *resold_feeds_suite(void)
{
	Suite *s = suite_create("resold_feeds");
	TCase *t = tcase_create("over loopback");
	tcase_add_checked_fixture(t, start, stop);
	tcase_add_test(
	    t, primeintellect_prices_each_resold_machine_in_its_data_centre_as_a_marketplace_row);
	tcase_add_test(t, primeintellect_reads_a_machines_total_memory_and_community_prices);
	tcase_add_test(t, a_primeintellect_body_without_items_is_an_error_with_its_message);
	suite_add_tcase(s, t);
	return s;
}
