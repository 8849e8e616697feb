/* check_gpu_clouds.c — the GPU clouds added for issue 29 item 3
 * (providers/cloudrift.c, hotaisle.c, linode.c, koyeb.c) over real HTTP on loopback
 * (tests/fixture_server.py): units, offers per datacenter, what a row
 * without a usable GPU becomes, the key header, and the error bodies; and
 * Paperspace and Yotta, whose dated price list and catalogue rows are
 * bundled rows alone. The
 * fixtures' provenance is in tests/fixtures/real/<provider>/PROVENANCE.md;
 * the shared fault and key tests (check_faults.c, check_security.c) run
 * on them through provider_list. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "providers_util.h"
#include "testutil.h"
#include "util.h"

#include <cJSON.h>

/* Runs p's fetch against `scenario` into n, with `key` (NULL: none) and
 * the settings opts (n_opts of them). */
static int fetch_with(const struct provider *p, const char *scenario, const char *key,
                      const struct provider_option *opts, size_t n_opts, struct norm *n, char **err)
{
	return fetch_scenario(p, feed_server.port, scenario, key, opts, n_opts, n, err);
}

/* --- cloudrift ------------------------------------------------------ */

START_TEST(cloudrift_prices_each_variant_in_cents_per_hour_in_each_datacenter_it_has_nodes_in)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_cloudrift, "ok-cr", NULL, NULL, 0, &n, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	/* rtx49-8c-nr.1: 3277 cents per variant-hour, nodes in two DCs. */
	const struct offer *a = find_first(&n, "rtx49-8c-nr.1", "us-east-nc-nr-1");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "RTX 4090");
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->price_per_hour, 32.77);
	ck_assert_str_eq(a->currency, "USD");
	CLOSE(a->vcpus, 8);
	CLOSE(a->ram_gib, 50);
	ck_assert(a->available); /* one free node there */
	ck_assert_str_eq(a->country, "US");
	ck_assert(a->marketplace); /* partners' machines, not CloudRift's own */
	ck_assert_ptr_nonnull(find_first(&n, "rtx49-8c-nr.1", "us-central-tx-nr-1"));
	/* The 2-GPU size: the variant's price, not per GPU; no free node. */
	const struct offer *b = find_first(&n, "rtx49-8c-nr.2", "us-east-nc-nr-1");
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(b->gpu_count, 2);
	CLOSE(b->price_per_hour, 65.54);
	CLOSE(b->ram_gib, 100);
	ck_assert(!b->available);
	ck_assert_uint_eq(count_named(&n, "rtx49-8c-nr.2"), 1);
	/* A MIG variant is a slice, and p4d names no GPU (brand_short null):
	 * both left out and counted, nothing guessed from "p4d". */
	ck_assert_uint_eq(count_named(&n, "rtx49-8c-nr.mig"), 0);
	ck_assert_uint_eq(count_named(&n, "p4d.24xlarge"), 0);
	ck_assert_uint_eq(n.skipped, 2);
	ck_assert_uint_eq(n.n_offers, 3);
	/* One POST with gpuhunt's selector, and no key header. */
	char *log = test_fixture_log(&feed_server, "ok-cr");
	ck_assert_msg(strstr(log, "/api/v1/instance-types/list") && strstr(log, "POST") &&
	                  strstr(log, "ByServiceAndLocation") && !strstr(log, "Bearer"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_cloudrift_brand_the_gpu_table_does_not_know_is_counted_unknown)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(
	    parse_body(&provider_cloudrift,
	               "{\"data\": {\"instance_types\": [{\"name\": \"x\", \"brand_short\": "
	               "\"Quantum QPU 9\", \"variants\": [{\"name\": \"x.1\", \"gpu_count\": 1, "
	               "\"cost_per_hour\": 100, \"nodes_per_dc\": {\"us-east-nc-nr-1\": 1}}]}]}}",
	               &n, NULL, &err),
	    PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 0);
	ck_assert_uint_eq(n.unknown_rows, 1);
	norm_free(&n);
}
END_TEST

START_TEST(a_cloudrift_body_without_instance_types_is_an_error_with_its_message)
{
	ck_error_body(&provider_cloudrift, "{\"error\": \"Unsupported version\"}",
	              "cloudrift says: Unsupported version");
}
END_TEST

/* --- hotaisle ------------------------------------------------------- */

static const struct provider_option team = {"hotaisle", "team_handle", "test-team"};

START_TEST(hotaisle_prices_a_vm_in_cents_per_hour_with_the_token_header_in_michigan)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_hotaisle, "ok-ha", "test-key", &team, 1, &n, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_uint_eq(n.n_offers, 1);
	const struct offer *o = find_first(&n, "1x MI300X 13x Xeon Platinum 8470", "us-michigan-1");
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->gpu, "MI300X");
	ck_assert_int_eq(o->gpu_count, 1);
	CLOSE(o->price_per_hour, 1.99);
	CLOSE(o->vcpus, 13);
	CLOSE(o->ram_gib, 240);
	ck_assert(o->available);
	ck_assert(!o->spot);
	ck_assert(!o->marketplace);
	ck_assert_str_eq(o->country, "US");
	char *log = test_fixture_log(&feed_server, "ok-ha");
	ck_assert_msg(strstr(log, "/api/teams/test-team/virtual_machines/available/") &&
	                  strstr(log, "Token"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(hotaisle_null_is_no_vm_available_and_a_missing_team_is_an_error)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_body(&provider_hotaisle, "null", &n, NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 0);
	norm_free(&n);
	/* No team handle (none set in the test environment): no request. */
	unsetenv("HOTAISLE_TEAM_HANDLE");
	ck_assert_int_eq(fetch_with(&provider_hotaisle, "ok-ha-none", "k", NULL, 0, &n, &err),
	                 PLANNER_ENET);
	ck_assert_msg(strstr(err, "HOTAISLE_TEAM_HANDLE"), "%s", err);
	free(err);
	norm_free(&n);
	/* A handle that would change the path is refused. */
	static const struct provider_option bad = {"hotaisle", "team_handle", "../x"};
	err = NULL;
	ck_assert_int_eq(fetch_with(&provider_hotaisle, "ok-ha-bad", "k", &bad, 1, &n, &err),
	                 PLANNER_ENET);
	free(err);
	norm_free(&n);
	char *log = test_fixture_log(&feed_server, "ok-ha-none");
	ck_assert_msg(!strstr(log, "/api/"), "%s", log);
	free(log);
}
END_TEST

START_TEST(a_hotaisle_error_body_is_an_error_with_its_message)
{
	ck_error_body(&provider_hotaisle, "{\"message\": \"Invalid token.\"}",
	              "hotaisle says: Invalid token.");
}
END_TEST

/* Through the CLI: cloudrift's rows stored as marketplace rows; hotaisle
 * skipped with one line without its key, and failing, naming the team
 * variable, with a key but no team. */
START_TEST(refresh_stores_cloudrift_and_says_what_hotaisle_lacks)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	char *env[5] = {
	    xasprintf("PLANNER_CLOUDRIFT_URL=http://127.0.0.1:%d/ok-cli", feed_server.port),
	    xasprintf("PLANNER_HOTAISLE_URL=http://127.0.0.1:%d/ok-cli", feed_server.port),
	    xstrdup("HOTAISLE_API_KEY="), xstrdup("HOTAISLE_TEAM_HANDLE="), NULL};
	const char *argv[] = {"refresh", "--db", db, "--provider", "cloudrift,hotaisle", NULL};
	ck_assert_int_eq(test_run_planner(argv, (const char *const *)env, &out, &err), 0);
	ck_assert_msg(strstr(err, "hotaisle skipped") && strstr(err, "HOTAISLE_API_KEY"), "%s",
	              err);
	char *rows = test_query(
	    db, "SELECT count(*) FROM offers WHERE provider = ? AND marketplace = 1", "cloudrift");
	ck_assert_str_eq(rows, "3");
	free(rows);
	free(out);
	free(err);
	free(env[2]);
	env[2] = xstrdup("HOTAISLE_API_KEY=k");
	const char *ha[] = {"refresh", "--db", db, "--provider", "hotaisle", NULL};
	ck_assert_int_eq(test_run_planner(ha, (const char *const *)env, &out, &err), 3);
	ck_assert_msg(strstr(err, "HOTAISLE_TEAM_HANDLE"), "%s", err);
	for (size_t i = 0; env[i]; i++)
		free(env[i]);
	free(out);
	free(err);
	free(db);
	free(dir);
}
END_TEST

/* --- paperspace ------------------------------------------------------ */

/* A JSON list's element whose "offer" is `offer`, or NULL. */
static const cJSON *row_of(const cJSON *list, const char *offer)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, list)
	{
		if (!strcmp(pj_str(r, "offer"), offer))
			return r;
	}
	return NULL;
}

START_TEST(paperspace_has_its_dated_list_prices_bundled_in_its_own_data_centre)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	const char *argv[] = {"offers",     "--db",     db,     "--provider",
	                      "paperspace", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(cJSON_IsArray(root), "%s", out);
	ck_assert_int_eq(cJSON_GetArraySize(root), 4);
	const cJSON *h = row_of(root, "H100");
	ck_assert_ptr_nonnull(h);
	CLOSE(pj_num(h, "price_per_hour"), 3.09);
	ck_assert_str_eq(pj_str(h, "region"), "East Coast (NY2)");
	ck_assert_str_eq(pj_str(h, "country"), "US");
	ck_assert_str_eq(pj_str(h, "fetched_at"), "2026-09-20T00:00:00Z");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "marketplace")));
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(h, "estimated")));
	CLOSE(pj_num(row_of(root, "A4000"), "price_per_hour"), 0.76);
	/* The list names no region for the A6000: none is made up. */
	ck_assert_str_eq(pj_str(row_of(root, "A6000"), "region"), "");
	cJSON_Delete(root);
	free(out);
	free(err);
	/* Not a feed: `planner providers` shows its snapshot, refresh has no adapter. */
	const char *list[] = {"providers", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(list, NULL, &out, &err), 0);
	const char *line = strstr(out, "\npaperspace ");
	ck_assert_msg(line && strstr(line, "2026-09-20"), "%s", out);
	free(out);
	free(err);
	ck_assert_ptr_null(provider_find("paperspace"));
	free(db);
	free(dir);
}
END_TEST

/* --- yotta ------------------------------------------------------------ */

/* Yotta's catalogue rows (SkyPilot's v8 catalogue) are bundled alone:
 * each 1 to 8 RTX 5090 type in both regions at the list price, located in
 * the US, a secure-cloud data centre, dated by its retrieval. */
START_TEST(yotta_has_its_catalogue_rows_bundled_in_its_two_us_regions)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	const char *argv[] = {"offers", "--db",     db,     "--provider",
	                      "yotta",  "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(cJSON_IsArray(root), "%s", out);
	ck_assert_int_eq(cJSON_GetArraySize(root), 8);
	const cJSON *one = row_of(root, "1x14v119g_NVIDIA_GeForce_RTX_5090_32G_SECURE");
	ck_assert_ptr_nonnull(one);
	ck_assert_str_eq(pj_str(one, "gpu"), "RTX 5090");
	CLOSE(pj_num(one, "gpu_count"), 1);
	CLOSE(pj_num(one, "price_per_hour"), 0.65);
	ck_assert_str_eq(pj_str(one, "region"), "us-east-2");
	ck_assert_str_eq(pj_str(one, "country"), "US");
	ck_assert_str_eq(pj_str(one, "fetched_at"), "2026-12-02T00:00:00Z");
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(one, "marketplace")));
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(one, "spot")));
	const cJSON *eight = row_of(root, "8x240v920g_NVIDIA_GeForce_RTX_5090_32G_SECURE");
	ck_assert_ptr_nonnull(eight);
	CLOSE(pj_num(eight, "gpu_count"), 8);
	CLOSE(pj_num(eight, "price_per_hour"), 5.2);
	ck_assert_str_eq(pj_str(eight, "country"), "US");
	cJSON_Delete(root);
	free(out);
	free(err);
	const char *list[] = {"providers", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(list, NULL, &out, &err), 0);
	const char *line = strstr(out, "\nyotta ");
	ck_assert_msg(line && strstr(line, "2026-12-02"), "%s", out);
	free(out);
	free(err);
	ck_assert_ptr_null(provider_find("yotta"));
	free(db);
	free(dir);
}
END_TEST

/* --- linode --------------------------------------------------------- */

START_TEST(linode_prices_gpu_plans_by_list_price_and_by_region_price_above_zero)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_linode, "ok-li", NULL, NULL, 0, &n, &err) == PLANNER_OK,
	              "%s", err);
	/* The list price: USD per instance-hour, no region named. */
	const struct offer *a = find_first(&n, "g1-gpu-rtx6000-1", "");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "Quadro RTX 6000");
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->price_per_hour, 1.5);
	ck_assert_str_eq(a->currency, "USD");
	CLOSE(a->vcpus, 8);
	CLOSE(a->ram_gib, 32); /* 32768 MB */
	ck_assert(!a->marketplace);
	/* A list price of 0 is no price: the region prices alone. */
	ck_assert_ptr_null(find_first(&n, "g2-gpu-rtx4000a1-s", ""));
	const struct offer *b = find_first(&n, "g2-gpu-rtx4000a1-s", "us-ord");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->gpu, "RTX 4000 Ada");
	CLOSE(b->price_per_hour, 0.52);
	ck_assert_str_eq(b->country, "US");
	const struct offer *c = find_first(&n, "g2-gpu-rtx4000a1-s", "de-fra-2");
	ck_assert_ptr_nonnull(c);
	CLOSE(c->price_per_hour, 0.62);
	ck_assert_str_eq(c->country, "DE");
	/* CPU and VPU plans passed over; a GPU plan priced 0 everywhere
	 * counted. */
	ck_assert_uint_eq(count_named(&n, "g1-gpu-rtx6000-2"), 0);
	ck_assert_uint_eq(n.skipped, 1);
	ck_assert_uint_eq(n.n_offers, 3);
	char *log = test_fixture_log(&feed_server, "ok-li");
	ck_assert_msg(strstr(log, "\"/v4/linode/types\"") && strstr(log, "\"page_size=500\"") &&
	                  !strstr(log, "Bearer"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(linode_follows_page_until_pages)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_linode, "paged-li", NULL, NULL, 0, &n, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_ptr_nonnull(find_first(&n, "g1-gpu-rtx6000-1", ""));
	ck_assert_ptr_nonnull(find_first(&n, "g2-gpu-rtx4000a1-s", "us-ord"));
	ck_assert_uint_eq(n.n_offers, 3);
	char *log = test_fixture_log(&feed_server, "paged-li");
	ck_assert_msg(strstr(log, "page_size=500&page=2") && !strstr(log, "page=3"), "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_linode_gpu_plan_of_an_unknown_id_is_counted_unknown_and_an_error_body_is_an_error)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(
	    parse_body(&provider_linode,
	               "{\"data\": [{\"id\": \"g9-gpu-qpu-1\", \"label\": \"QPU x1\", "
	               "\"class\": \"gpu\", \"gpus\": 1, \"price\": {\"hourly\": 2}}], "
	               "\"page\": 1, \"pages\": 1}",
	               &n, NULL, &err),
	    PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 0);
	ck_assert_uint_eq(n.unknown_rows, 1);
	norm_free(&n);
	ck_assert_int_eq(parse_body(&provider_linode,
	                            "{\"errors\": [{\"reason\": \"Too many requests\"}]}", &n, NULL,
	                            &err),
	                 PLANNER_ENET);
	ck_assert_msg(strstr(err, "\"data\" list"), "%s", err);
	free(err);
	norm_free(&n);
}
END_TEST

/* --- koyeb ---------------------------------------------------------- */

START_TEST(koyeb_prices_each_gpu_type_per_hour_in_each_region_it_lists)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_koyeb, "ok-ko", NULL, NULL, 0, &n, &err) == PLANNER_OK,
	              "%s", err);
	const struct offer *a = find_first(&n, "gpu-nvidia-rtx-4000-sff-ada", "fra");
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "RTX 4000 SFF Ada");
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->price_per_hour, 0.5);
	ck_assert_str_eq(a->currency, "USD");
	CLOSE(a->vcpus, 6);
	CLOSE(a->ram_gib, 44);
	ck_assert(a->available);
	ck_assert(!a->marketplace);
	ck_assert_str_eq(a->country, "DE");
	/* "2x Nvidia L4": the instance's price, not per GPU. */
	const struct offer *b = find_first(&n, "2-gpu-nvidia-l4", "was");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->gpu, "L4");
	ck_assert_int_eq(b->gpu_count, 2);
	CLOSE(b->price_per_hour, 2.0);
	ck_assert_str_eq(b->country, "US");
	/* The coming-soon L4 lists no region: left out and counted; the CPU
	 * instance passed over. */
	ck_assert_uint_eq(count_named(&n, "gpu-nvidia-l4"), 0);
	ck_assert_uint_eq(n.skipped, 1);
	ck_assert_uint_eq(n.n_offers, 2);
	char *log = test_fixture_log(&feed_server, "ok-ko");
	ck_assert_msg(strstr(log, "\"limit=100\"") && !strstr(log, "Bearer"), "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(koyeb_follows_offset_until_count_and_sends_a_token_when_set)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch_with(&provider_koyeb, "paged-ko", "k", NULL, 0, &n, &err) == PLANNER_OK,
	              "%s", err);
	ck_assert_ptr_nonnull(find_first(&n, "gpu-nvidia-rtx-4000-sff-ada", "fra"));
	ck_assert_ptr_nonnull(find_first(&n, "2-gpu-nvidia-l4", "was"));
	ck_assert_uint_eq(n.n_offers, 2);
	char *log = test_fixture_log(&feed_server, "paged-ko");
	ck_assert_msg(strstr(log, "limit=100&offset=2") && !strstr(log, "offset=4") &&
	                  strstr(log, "Bearer"),
	              "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_koyeb_error_body_is_an_error_with_its_message)
{
	ck_error_body(&provider_koyeb,
	              "{\"code\": 16, \"message\": \"Unauthenticated\", \"details\": []}",
	              "koyeb says: Unauthenticated");
}
END_TEST

Suite *gpu_clouds_suite(void)
{
	Suite *s = suite_create("gpu_clouds");
	TCase *t = tcase_create("feeds");
	tcase_add_unchecked_fixture(t, feed_server_start, feed_server_stop);
	tcase_add_test(
	    t, cloudrift_prices_each_variant_in_cents_per_hour_in_each_datacenter_it_has_nodes_in);
	tcase_add_test(t, a_cloudrift_brand_the_gpu_table_does_not_know_is_counted_unknown);
	tcase_add_test(t, a_cloudrift_body_without_instance_types_is_an_error_with_its_message);
	tcase_add_test(t, hotaisle_prices_a_vm_in_cents_per_hour_with_the_token_header_in_michigan);
	tcase_add_test(t, hotaisle_null_is_no_vm_available_and_a_missing_team_is_an_error);
	tcase_add_test(t, a_hotaisle_error_body_is_an_error_with_its_message);
	tcase_add_test(t, refresh_stores_cloudrift_and_says_what_hotaisle_lacks);
	tcase_add_test(t, paperspace_has_its_dated_list_prices_bundled_in_its_own_data_centre);
	tcase_add_test(t, yotta_has_its_catalogue_rows_bundled_in_its_two_us_regions);
	tcase_add_test(t, linode_prices_gpu_plans_by_list_price_and_by_region_price_above_zero);
	tcase_add_test(t, linode_follows_page_until_pages);
	tcase_add_test(
	    t, a_linode_gpu_plan_of_an_unknown_id_is_counted_unknown_and_an_error_body_is_an_error);
	tcase_add_test(t, koyeb_prices_each_gpu_type_per_hour_in_each_region_it_lists);
	tcase_add_test(t, koyeb_follows_offset_until_count_and_sends_a_token_when_set);
	tcase_add_test(t, a_koyeb_error_body_is_an_error_with_its_message);
	suite_add_tcase(s, t);
	return s;
}
