/* check_providers_keyless.c — the keyless GPU price lists added for issue
 * 14 (ovhcloud, vultr, oci, cudo): each adapter's parse on its fixture in the feed's
 * documented shape (tests/fixtures/providers, provenance in
 * tests/fixtures/real/<provider>/PROVENANCE.md), pinning units, currency
 * and paging, and its fetch over loopback HTTP (tests/fixture_server.py).
 * A file of its own: tests/check_providers.c is past 800 lines. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "providers_util.h"
#include "testutil.h"

/* How many times needle occurs in hay. */
static size_t count_str(const char *hay, const char *needle)
{
	size_t k = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		k++;
	return k;
}

/* Runs p's fetch against `scenario` into n. */
static int fetch(const struct provider *p, const char *scenario, struct norm *n, char **err)
{
	return fetch_scenario(p, feed_server.port, scenario, NULL, NULL, 0, n, err);
}

/* --- ovhcloud ------------------------------------------------------- */

/* pricings[].price is 1e-8 EUR: h100-380.consumption's 280000000 is 2.80
 * EUR an instance-hour (public pins, PROVENANCE.md), never the monthly
 * plan's 194000000000 / 730; h200-1920's 4200000000 is 42 EUR for its 8
 * GPUs. The hourly plan lists no region: its monthly plan's are used. */
START_TEST(ovhcloud_prices_are_1e8_eur_per_instance_hour_in_each_region_of_the_flavour)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_ovhcloud, "ovhcloud.json", &n, NULL, &err),
	                 PLANNER_OK);
	const struct offer *h = find_first(&n, "h100-380", "GRA11");
	ck_assert_ptr_nonnull(h);
	CLOSE(h->price_per_hour, 2.80);
	ck_assert_str_eq(h->currency, "EUR");
	ck_assert_int_eq(h->gpu_count, 1);
	CLOSE(h->vcpus, 30);
	CLOSE(h->ram_gib, 380);
	ck_assert_str_eq(h->country, "FR");
	ck_assert_str_eq(h->region_group, "eu");
	ck_assert_ptr_nonnull(find_first(&n, "h100-380", "BHS5"));
	ck_assert_uint_eq(count_named(&n, "h100-380"), 2); /* not the Local Zone plan */
	const struct offer *h8 = find_first(&n, "h200-1920", "GRA11");
	ck_assert_ptr_nonnull(h8);
	ck_assert_str_eq(h8->gpu, "H200");
	ck_assert_int_eq(h8->gpu_count, 8);
	CLOSE(h8->price_per_hour, 42.0); /* the instance's, not a GPU's */
	CLOSE(find_first(&n, "t1-45", "WAW1")->price_per_hour, 0.70);
	ck_assert_str_eq(find_first(&n, "t1-45", "WAW1")->country, "PL");
	ck_assert_str_eq(find_first(&n, "t1-45", "UK1")->region_group, "europe");
	CLOSE(find_first(&n, "a10-45", "SBG7")->price_per_hour, 0.76);
	/* "Tesla V100S" (t2) is the table's V100S, a 32 GB PCIe part. */
	ck_assert_str_eq(find_first(&n, "t2-45", "GRA9")->gpu, "V100S");
	CLOSE(find_first(&n, "t2-45", "GRA9")->price_per_hour, 0.88);
	/* Windows flavours, the per-minute AI serving addon and CPU flavours
	 * are not GPU instance-hours. */
	ck_assert_uint_eq(count_named(&n, "win-t1-45"), 0);
	ck_assert_uint_eq(count_named(&n, "ai-serving L4"), 0);
	ck_assert_uint_eq(count_named(&n, "b3-8"), 0);
	for (size_t i = 0; i < n.n_offers; i++)
		ck_assert_str_eq(n.offers[i].currency, "EUR");
	ck_assert_uint_eq(n.skipped, 0);
	norm_free(&n);
}
END_TEST

START_TEST(an_ovhcloud_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL;
	const char *body =
	    "{\"class\": \"Client::BadRequest\", \"message\": \"Invalid subsidiary\"}";
	norm_init(&n, test_ref(), "ovhcloud");
	ck_assert_int_eq(provider_ovhcloud.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "ovhcloud says: Invalid subsidiary"));
	free(err);
	norm_free(&n);
}
END_TEST

/* The catalogue is one document of the FR subsidiary, asked once, keyless. */
START_TEST(ovhcloud_asks_the_fr_catalogue_once_without_a_key)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_ovhcloud, "ok-ovh", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_gt(n.n_offers, 10);
	char *log = test_fixture_log(&feed_server, "ok-ovh");
	ck_assert_msg(strstr(log, "/1.0/order/catalog/public/cloud") &&
	                  strstr(log, "ovhSubsidiary=FR") && strstr(log, "\"auth\": \"\""),
	              "%s", log);
	ck_assert_uint_eq(count_str(log, "\"method\""), 1);
	free(log);
	norm_free(&n);
}
END_TEST

/* --- vultr ---------------------------------------------------------- */

static const struct offer *find_spot(const struct norm *n, const char *offer, const char *region,
                                     bool spot)
{
	for (size_t i = 0; i < n->n_offers; i++)
		if (!strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region) &&
		    n->offers[i].spot == spot)
			return &n->offers[i];
	return NULL;
}

/* hourly_cost is USD per instance-hour (2.397 for the 80 GB A100 plan,
 * whose monthly_cost is 1750); ram is MB; gpu_vram_gb is the plan's total,
 * so 80 is one A100 80GB; a "1/4" count and 4 GB or 40 GB of an A100 (Vultr's
 * A100 is the 80 GB card: 40 GB is half of one, not an A100 40GB) are shares
 * of a GPU, left out and counted; a vdm plan without GPU fields is read from
 * its id. */
START_TEST(vultr_prices_are_usd_per_instance_hour_and_shares_of_a_gpu_are_left_out)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_vultr, "vultr.json", &n, NULL, &err), PLANNER_OK);
	const struct offer *a = find_first(&n, "vcg-a100-12c-120g-80vram", "ewr");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "A100 80GB");
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->price_per_hour, 2.397);
	ck_assert_str_eq(a->currency, "USD");
	CLOSE(a->ram_gib, 120); /* 122880 MB */
	CLOSE(a->vcpus, 12);
	ck_assert_str_eq(a->country, "US");
	const struct offer *l = find_first(&n, "vcg-l40s-16c-180g-48vram", "fra");
	ck_assert_ptr_nonnull(l);
	ck_assert_str_eq(l->gpu, "L40S");
	ck_assert_str_eq(l->region_group, "eu");
	ck_assert_uint_eq(count_named(&n, "vcg-l40s-16c-180g-48vram"), 3); /* a row a location */
	ck_assert_str_eq(find_first(&n, "vcg-a40-24c-120g-48vram", "blr")->gpu, "A40");
	ck_assert_uint_eq(count_named(&n, "vcg-a40-6c-30g-12vram"), 0);
	ck_assert_uint_eq(count_named(&n, "vcg-a100-1c-6g-4vram"), 0);
	ck_assert_uint_eq(count_named(&n, "vcg-a100-6c-60g-40vram"), 0);
	/* the three shares, and the MI325X plan whose 1536 GB is no 1, 2, 4 or 8 cards */
	ck_assert_uint_eq(n.skipped, 4);
	ck_assert_uint_eq(count_named(&n, "vc2-2c-4gb"), 0);
	/* No location: sold nowhere. */
	ck_assert_uint_eq(count_named(&n, "vcg-mi325x-252c-2872g-1536vram"), 0);
	norm_free(&n);
}
END_TEST

/* Bare metal: the count and GPU from the id, the preemptible price a spot
 * row; the instance's price, not a GPU's; the id's "l40" is an L40S. */
START_TEST(vultr_bare_metal_counts_gpus_from_the_id_and_has_spot_rows)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_vultr, "vultr.metal.json", &n, NULL, &err),
	                 PLANNER_OK);
	const struct offer *h = find_spot(&n, "vbm-112c-2048gb-8-h100-gpu", "sea", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->gpu_count, 8);
	CLOSE(h->price_per_hour, 23.92);
	CLOSE(h->vcpus, 224); /* cpu_threads */
	CLOSE(find_spot(&n, "vbm-112c-2048gb-8-h100-gpu", "sea", true)->price_per_hour, 18.4);
	const struct offer *m = find_spot(&n, "vbm-256c-2048gb-8-mi300x-gpu", "ord", false);
	ck_assert_str_eq(m->gpu, "MI300X");
	ck_assert_int_eq(m->gpu_count, 8);
	const struct offer *l = find_spot(&n, "vbm-64c-2048gb-8-l40-gpu", "ewr", false);
	ck_assert_ptr_nonnull(l);
	ck_assert_str_eq(l->gpu, "L40S");
	ck_assert_int_eq(l->gpu_count, 8);
	CLOSE(l->price_per_hour, 13.37);
	ck_assert_uint_eq(count_named(&n, "vbm-4c-32gb"), 0);
	ck_assert_uint_eq(n.n_offers, 5);
	norm_free(&n);
}
END_TEST

START_TEST(a_vultr_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL;
	const char *body = "{\"error\": \"Invalid API token.\", \"status\": 401}";
	norm_init(&n, test_ref(), "vultr");
	ck_assert_int_eq(provider_vultr.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "vultr says: Invalid API token."));
	free(err);
	norm_free(&n);
}
END_TEST

/* Both lists, 500 a page, keyless; meta.links.next is sent back as the
 * cursor (escaped) until it is empty. */
START_TEST(vultr_reads_both_lists_and_follows_the_cursor)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_vultr, "paged-vultr", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_ptr_nonnull(find_first(&n, "vcg-a100-12c-120g-80vram", "ewr"));
	const struct offer *two = find_first(&n, "vcg-l40s-32c-375g-96vram", "ewr"); /* page 2 */
	ck_assert_ptr_nonnull(two);
	ck_assert_int_eq(two->gpu_count, 2);
	ck_assert_ptr_nonnull(find_first(&n, "vbm-112c-2048gb-8-h100-gpu", "sea"));
	char *log = test_fixture_log(&feed_server, "paged-vultr");
	ck_assert_uint_eq(count_str(log, "\"method\""), 3);
	ck_assert_msg(strstr(log, "type=all&per_page=500\"") &&
	                  strstr(log, "per_page=500&cursor=bmV4dF9fdmNnLWE%3D") &&
	                  strstr(log, "/v2/plans-metal") && !strstr(log, "Bearer"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

/* --- oci ------------------------------------------------------------ */

/* The ocpu product's value is USD per GPU-hour, times gpuQty (gpuhunt's
 * real shapes of 2026-09-18: BM.GPU.H100.8 at 10 is 80 USD an hour); the
 * A100s are told apart by gpuMemoryQty (320 for 8 is the 40 GB part);
 * MI355X's 288 is one GPU's memory; VM.GPU3.1 is preemptible at half. */
START_TEST(oci_prices_are_usd_per_gpu_hour_times_the_gpus_of_the_shape)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_oci, "oci.json", &n, NULL, &err), PLANNER_OK);
	const struct offer *h = find_spot(&n, "BM.GPU.H100.8", "", false);
	ck_assert_ptr_nonnull(h);
	CLOSE(h->price_per_hour, 80.0);
	ck_assert_int_eq(h->gpu_count, 8);
	CLOSE(h->vcpus, 224); /* 112 OCPUs */
	CLOSE(h->ram_gib, 2048);
	ck_assert_str_eq(h->currency, "USD");
	ck_assert_str_eq(find_spot(&n, "BM.GPU4.8", "", false)->gpu, "A100 40GB");
	CLOSE(find_spot(&n, "BM.GPU4.8", "", false)->price_per_hour, 24.4);
	ck_assert_str_eq(find_spot(&n, "BM.GPU.A100-v2.8", "", false)->gpu, "A100 80GB");
	CLOSE(find_spot(&n, "BM.GPU.MI300X.8", "", false)->price_per_hour, 48.0);
	const struct offer *mi = find_spot(&n, "BM.GPU.MI355X.8", "", false);
	ck_assert_ptr_nonnull(mi);
	ck_assert_str_eq(mi->gpu, "MI355X");
	ck_assert_int_eq(mi->gpu_count, 8);
	const struct offer *gb = find_spot(&n, "BM.GPU.GB200.4", "", false); /* "(NVL72)" cut */
	ck_assert_ptr_nonnull(gb);
	CLOSE(gb->price_per_hour, 64.0);
	CLOSE(gb->vcpus, 128); /* Grace: an OCPU is a core */
	CLOSE(find_spot(&n, "VM.GPU3.1", "", true)->price_per_hour, 2.95 / 2);
	ck_assert_ptr_null(find_spot(&n, "BM.GPU.H100.8", "", true));
	ck_assert_uint_eq(count_named(&n, "BM.DenseIO.E5.128"), 0);
	norm_free(&n);
}
END_TEST

/* Both documents are fetched, keyless; a shape list without its prices is
 * an error, never a catalogue of zero prices. */
START_TEST(oci_fetches_shapes_and_products_and_needs_both)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_oci, "ok-oci", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_ptr_nonnull(find_spot(&n, "BM.GPU.H100.8", "", false));
	char *log = test_fixture_log(&feed_server, "ok-oci");
	ck_assert_msg(strstr(log, "cloudestimator2/data/products.json") &&
	                  strstr(log, "cloudestimator2/data/shapes.json"),
	              "%s", log);
	free(log);
	norm_free(&n);
	const char *body = "{\"shapes\": {\"items\": []}}";
	norm_init(&n, test_ref(), "oci");
	ck_assert_int_eq(provider_oci.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "products.json has no"));
	free(err);
	norm_free(&n);
}
END_TEST

/* --- cudo ----------------------------------------------------------- */

/* Prices are USD per hour by part, decimal strings; a row is a size of
 * 1, 2, 4 (up to maxGpuFree) GPUs priced as the sum of its parts: the
 * RTX A5000 type of no-luster-1 with one GPU has 48 GiB of RAM (twice 24),
 * 13 vCPUs (0.259109 a GiB), 48 GiB of disk and an IPv4 address. */
START_TEST(cudo_prices_a_size_as_the_sum_of_its_parts_in_usd_per_hour)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_cudo, "cudo.json", &n, NULL, &err), PLANNER_OK);
	const struct offer *a = find_first(&n, "epyc-rome-rtx-a5000.1gpu", "no-luster-1");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "RTX A5000");
	CLOSE(a->ram_gib, 48);
	CLOSE(a->vcpus, 13);
	CLOSE(a->price_per_hour, 0.52 + 0.0021 * 13 + 0.0034 * 48 + 0.000107 * 48 + 0.0035);
	ck_assert_str_eq(a->currency, "USD");
	ck_assert_str_eq(a->country, "NO");
	ck_assert_str_eq(a->region_group, "eu");
	ck_assert(a->available);
	ck_assert_int_eq(find_first(&n, "epyc-rome-rtx-a5000.4gpu", "no-luster-1")->gpu_count, 4);
	ck_assert_ptr_null(find_first(&n, "epyc-rome-rtx-a5000.8gpu", "no-luster-1")); /* 4 free */
	/* No GPU free: one size, unavailable. */
	const struct offer *none = find_first(&n, "epyc-rome-rtx-a5000.1gpu", "se-smedjebacken-1");
	ck_assert_ptr_nonnull(none);
	ck_assert(!none->available);
	ck_assert_ptr_null(find_first(&n, "epyc-rome-rtx-a5000.2gpu", "se-smedjebacken-1"));
	ck_assert_uint_eq(count_named(&n, "epyc-rome.1gpu"), 0); /* no GPU */
	ck_assert_ptr_nonnull(find_first(&n, "cascade-lake.4gpu", "br-saopaulo-1"));
	norm_free(&n);
}
END_TEST

START_TEST(a_cudo_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL;
	const char *body = "{\"code\": 16, \"message\": \"unauthenticated\"}";
	norm_init(&n, test_ref(), "cudo");
	ck_assert_int_eq(provider_cudo.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "cudo says: unauthenticated"));
	free(err);
	norm_free(&n);
}
END_TEST

Suite *providers_keyless_suite(void)
{
	Suite *s = suite_create("providers_keyless");
	TCase *t = tcase_create("parsers");
	tcase_add_test(t,
	               ovhcloud_prices_are_1e8_eur_per_instance_hour_in_each_region_of_the_flavour);
	tcase_add_test(t, an_ovhcloud_error_object_is_an_error_with_its_message);
	tcase_add_test(t, vultr_prices_are_usd_per_instance_hour_and_shares_of_a_gpu_are_left_out);
	tcase_add_test(t, vultr_bare_metal_counts_gpus_from_the_id_and_has_spot_rows);
	tcase_add_test(t, a_vultr_error_object_is_an_error_with_its_message);
	tcase_add_test(t, oci_prices_are_usd_per_gpu_hour_times_the_gpus_of_the_shape);
	tcase_add_test(t, cudo_prices_a_size_as_the_sum_of_its_parts_in_usd_per_hour);
	tcase_add_test(t, a_cudo_error_object_is_an_error_with_its_message);
	suite_add_tcase(s, t);
	t = tcase_create("over loopback");
	tcase_add_checked_fixture(t, feed_server_start, feed_server_stop);
	tcase_add_test(t, ovhcloud_asks_the_fr_catalogue_once_without_a_key);
	tcase_add_test(t, vultr_reads_both_lists_and_follows_the_cursor);
	tcase_add_test(t, oci_fetches_shapes_and_products_and_needs_both);
	suite_add_tcase(s, t);
	return s;
}
