/* check_neoclouds.c — the GPU clouds of issue 29 item 3 that planner
 * prices from bundled rows alone, because they publish no price feed it
 * can read (Nebius: a gRPC calculator behind a service-account JWT;
 * Crusoe: an API that carries no price). The rows come from a published
 * catalogue or price list (schema/snapshot/sources.json, rows/<name>.json,
 * schema/snapshot/sources/PROVENANCE.md); the tests read them as a new
 * user does, through `planner offers` on a fresh database. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "providers_util.h"
#include "testutil.h"
#include "util.h"

#include <cJSON.h>

/* The element of a JSON list of offers with that offer, region and spot
 * flag, or NULL. */
static const cJSON *offer_in(const cJSON *list, const char *offer, const char *region, bool spot)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, list)
	{
		if (!strcmp(pj_str(r, "offer"), offer) && !strcmp(pj_str(r, "region"), region) &&
		    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(r, "spot")) == spot)
			return r;
	}
	return NULL;
}

/* `planner offers --provider name --format json` on a fresh database in
 * dir: the parsed list (the caller frees it). */
static cJSON *bundled_offers(const char *dir, const char *name)
{
	char *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	const char *argv[] = {"offers", "--db", db, "--provider", name, "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(cJSON_IsArray(root), "%s", out);
	free(out);
	free(err);
	free(db);
	return root;
}

/* `planner providers` lists name as a snapshot of `date`, and no adapter
 * refreshes it. */
static void listed_as_snapshot(const char *dir, const char *name, const char *date)
{
	char *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	char *needle = xasprintf("\n%s ", name);
	const char *argv[] = {"providers", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	const char *line = strstr(out, needle);
	ck_assert_msg(line && strstr(line, date) && strstr(line, "snapshot"), "%s", out);
	ck_assert_ptr_null(provider_find(name));
	free(needle);
	free(out);
	free(err);
	free(db);
}

/* --- nebius ---------------------------------------------------------- */

START_TEST(nebius_has_skypilots_catalogue_rows_per_region_on_demand_and_spot)
{
	char *dir = test_tmpdir();
	cJSON *rows = bundled_offers(dir, "nebius");
	/* 21 GPU presets of the catalogue, 8 of them with a spot price. */
	ck_assert_int_eq(cJSON_GetArraySize(rows), 29);
	const char *h8 = "gpu-h100-sxm_8gpu-128vcpu-1600gb";
	const cJSON *h = offer_in(rows, h8, "eu-north1", false);
	ck_assert_ptr_nonnull(h);
	/* USD per instance-hour: the whole 8-GPU VM. */
	CLOSE(pj_num(h, "price_per_hour"), 23.60);
	CLOSE(pj_num(h, "price_per_gpu_hour"), 2.95);
	ck_assert_str_eq(pj_str(h, "gpu"), "H100 SXM");
	ck_assert_int_eq((int)pj_num(h, "gpu_count"), 8);
	ck_assert_int_eq((int)pj_num(h, "vcpus"), 128);
	ck_assert_str_eq(pj_str(h, "currency"), "USD");
	ck_assert_str_eq(pj_str(h, "region_group"), "eu");
	/* No page gave the country: none is made up. */
	ck_assert_str_eq(pj_str(h, "country"), "");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "marketplace")));
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "estimated")));
	ck_assert_str_eq(pj_str(h, "fetched_at"), "2026-12-02T00:00:00Z");
	CLOSE(pj_num(offer_in(rows, h8, "eu-north1", true), "price_per_hour"), 10.00);
	/* B200 only in us-central1, with no spot price. */
	const char *b8 = "gpu-b200-sxm_8gpu-160vcpu-1792gb";
	CLOSE(pj_num(offer_in(rows, b8, "us-central1", false), "price_per_hour"), 44.00);
	ck_assert_str_eq(pj_str(offer_in(rows, b8, "us-central1", false), "region_group"), "us");
	ck_assert_ptr_null(offer_in(rows, b8, "us-central1", true));
	/* The catalogue's CPU-only rows are not GPU offers. */
	ck_assert_ptr_null(offer_in(rows, "cpu-d3_4vcpu-16gb", "eu-north1", false));
	cJSON_Delete(rows);
	listed_as_snapshot(dir, "nebius", "2026-12-02");
	free(dir);
}
END_TEST

/* --- crusoe ---------------------------------------------------------- */

START_TEST(crusoe_has_its_dated_per_gpu_list_prices_as_whole_8_gpu_vms)
{
	char *dir = test_tmpdir();
	cJSON *rows = bundled_offers(dir, "crusoe");
	/* Eight 8-GPU products, on-demand only (no B200: its price was an estimate). */
	ck_assert_int_eq(cJSON_GetArraySize(rows), 8);
	const cJSON *h = offer_in(rows, "h100-80gb-sxm-ib.8x", "", false);
	ck_assert_ptr_nonnull(h);
	/* 3.90 per GPU-hour on crusoe.ai/cloud/pricing: 8 x 3.90 the VM. */
	CLOSE(pj_num(h, "price_per_hour"), 31.20);
	CLOSE(pj_num(h, "price_per_gpu_hour"), 3.90);
	ck_assert_str_eq(pj_str(h, "gpu"), "H100 SXM");
	ck_assert_int_eq((int)pj_num(h, "vcpus"), 176);
	ck_assert_str_eq(pj_str(h, "fetched_at"), "2026-02-26T00:00:00Z");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "marketplace")));
	/* The list names no location: none is made up. */
	ck_assert_str_eq(pj_str(h, "region_group"), "");
	/* H200 came into the transcription on 2026-03-03. */
	const cJSON *h200 = offer_in(rows, "h200-141gb-sxm-ib.8x", "", false);
	CLOSE(pj_num(h200, "price_per_hour"), 34.32);
	ck_assert_str_eq(pj_str(h200, "fetched_at"), "2026-03-03T00:00:00Z");
	/* PCIe 40 GB and 80 GB A100s are different parts. */
	ck_assert_str_eq(pj_str(offer_in(rows, "a100.8x", "", false), "gpu"), "A100 40GB");
	ck_assert_str_eq(pj_str(offer_in(rows, "a100-80gb.8x", "", false), "gpu"), "A100 80GB");
	CLOSE(pj_num(offer_in(rows, "mi300x-192gb-ib.8x", "", false), "price_per_hour"), 27.60);
	cJSON_Delete(rows);
	listed_as_snapshot(dir, "crusoe", "2026-02-26");
	free(dir);
}
END_TEST

Suite *neoclouds_suite(void)
{
	Suite *s = suite_create("neoclouds");
	TCase *t = tcase_create("bundled");
	tcase_add_test(t, nebius_has_skypilots_catalogue_rows_per_region_on_demand_and_spot);
	tcase_add_test(t, crusoe_has_its_dated_per_gpu_list_prices_as_whole_8_gpu_vms);
	suite_add_tcase(s, t);
	return s;
}
