/* check_keyed_feeds.c — the GPU feeds that need a key (providers/
 * digitalocean.c, verda.c, hyperstack.c, shadeform.c, fluidstack.c, jarvislabs.c) over real HTTP on
 * loopback (tests/fixture_server.py): each one's units, paging, currency
 * and key header, what its error bodies say, and the one line a missing key
 * gives while the snapshot's rows stay. The shared fault and key tests
 * (check_faults.c, check_security.c) run on them through provider_list. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provider.h"
#include "providers_util.h"
#include "refdata.h"
#include "testutil.h"

/* Runs p's fetch against `scenario` into n with the key "test-key". */
static int fetch(const struct provider *p, const char *scenario, struct norm *n, char **err)
{
	return fetch_scenario(p, feed_server.port, scenario, "test-key", NULL, 0, n, err);
}

START_TEST(digitalocean_prices_a_droplet_hour_in_usd_and_reads_vram_as_the_whole_droplets)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_digitalocean, "ok-do", &n, &err) == PLANNER_OK, "%s", err);
	/* 640 gib for 8 GPUs: 80 GiB each; price_hourly is the Droplet's. */
	const struct offer *h8 = find(&n, "gpu-h100x8-640gb", "nyc2", false);
	ck_assert_ptr_nonnull(h8);
	ck_assert_int_eq(h8->gpu_count, 8);
	CLOSE(h8->price_per_hour, 23.92);
	ck_assert_str_eq(h8->currency, "USD");
	CLOSE(h8->ram_gib, 1920.0); /* memory 1966080 MiB */
	ck_assert(h8->available);
	ck_assert_str_eq(h8->country, "US");
	/* One row per region the size can be created in. */
	ck_assert_uint_eq(count_named(&n, "gpu-h100x1-80gb"), 2);
	ck_assert_str_eq(find(&n, "gpu-h100x1-80gb", "tor1", false)->country, "CA");
	/* No region: one row, not available. */
	const struct offer *ada = find(&n, "gpu-6000adax1-48gb", "", false);
	ck_assert_ptr_nonnull(ada);
	ck_assert(!ada->available);
	ck_assert_str_eq(ada->gpu, "RTX 6000 Ada");
	/* The second page, reached through links.pages.next. */
	const struct offer *mi = find(&n, "gpu-mi300x8-1536gb", "atl1", false);
	ck_assert_ptr_nonnull(mi);
	ck_assert_str_eq(mi->gpu, "MI300X");
	ck_assert_uint_eq(count_named(&n, "s-1vcpu-512mb-10gb"), 0); /* a CPU Droplet */
	char *log = test_fixture_log(&feed_server, "ok-do");
	ck_assert_msg(strstr(log, "per_page=200") && strstr(log, "page=2&per_page=200"), "%s", log);
	ck_assert_ptr_nonnull(strstr(log, "\"auth\": \"Bearer\""));
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(digitalocean_on_the_peer_recorded_sizes_keeps_the_h100_and_mi300x_droplets)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_digitalocean, "real", &n, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(n.n_offers, 2);
	const struct offer *h = find(&n, "gpu-h100x8-640gb", "nyc1", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->gpu, "H100 SXM");
	CLOSE(h->price_per_hour, 23.92);
	CLOSE(find(&n, "gpu-mi300x8-1536gb", "nyc1", false)->price_per_hour, 15.92);
	norm_free(&n);
}
END_TEST

START_TEST(a_digitalocean_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL, *next = NULL;
	ck_assert_int_eq(
	    parse_body(&provider_digitalocean,
	               "{\"id\": \"Unauthorized\", \"message\": \"Unable to authenticate you\"}",
	               &n, &next, &err),
	    PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "digitalocean says: Unable to authenticate you"));
	ck_assert_ptr_null(next);
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(verda_trades_its_client_credentials_for_a_token_and_prices_on_demand_and_spot)
{
	struct norm n;
	char *err = NULL;
	setenv("VERDA_CLIENT_ID", "test-client-id", 1);
	ck_assert_msg(fetch(&provider_verda, "ok-verda", &n, &err) == PLANNER_OK, "%s", err);
	/* price_per_hour and spot_price are strings, per instance-hour, USD. */
	const struct offer *h = find(&n, "1H100.80S.30V", "FIN-01", false);
	ck_assert_ptr_nonnull(h);
	CLOSE(h->price_per_hour, 3.95);
	ck_assert_str_eq(h->gpu, "H100 SXM");
	ck_assert_str_eq(h->currency, "USD");
	ck_assert_str_eq(h->country, "FI");
	ck_assert_str_eq(h->region_group, "eu");
	ck_assert_ptr_nonnull(find(&n, "1H100.80S.30V", "ICE-01", false));
	/* Spot where the spot list names the type; a 2-GPU type's price is
	 * the instance's. */
	const struct offer *s = find(&n, "2A6000.20V", "FIN-01", true);
	ck_assert_ptr_nonnull(s);
	CLOSE(s->price_per_hour, 0.70);
	ck_assert_int_eq(s->gpu_count, 2);
	ck_assert_str_eq(s->gpu, "RTX A6000");
	/* In no spot list: one row without a region, not available. */
	const struct offer *none = find(&n, "1H100.80S.30V", "", true);
	ck_assert_ptr_nonnull(none);
	ck_assert(!none->available);
	ck_assert_uint_eq(count_named(&n, "CPU.120V.480G"), 0);
	char *log = test_fixture_log(&feed_server, "ok-verda");
	ck_assert_msg(strstr(log, "/v1/oauth2/token") && strstr(log, "\"client_secret\": true") &&
			  strstr(log, "\"client_id\": \"test-client-id\"") &&
			  strstr(log, "client_credentials"),
		      "%s", log);
	ck_assert_msg(strstr(log, "is_spot=true") && strstr(log, "is_spot=false"), "%s", log);
	ck_assert_ptr_nonnull(strstr(log, "\"auth\": \"Bearer\""));
	ck_assert_ptr_null(strstr(log, "test-key"));
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(verda_on_the_peer_recorded_rows_prices_spot_where_the_spot_list_names_the_type)
{
	struct norm n;
	char *err = NULL;
	setenv("VERDA_CLIENT_ID", "test-client-id", 1);
	ck_assert_msg(fetch(&provider_verda, "real", &n, &err) == PLANNER_OK, "%s", err);
	CLOSE(find(&n, "1V100.6V", "FIN-01", true)->price_per_hour, 0.25);
	ck_assert_str_eq(find(&n, "1V100.6V", "FIN-01", true)->gpu, "V100 16GB");
	CLOSE(find(&n, "2A6000.20V", "FIN-01", true)->price_per_hour, 0.70);
	/* On demand, 1V100.6V is in no location of the on-demand list. */
	ck_assert(!find(&n, "1V100.6V", "", false)->available);
	CLOSE(find(&n, "1V100.6V", "", false)->price_per_hour, 0.89);
	ck_assert_uint_eq(count_named(&n, "CPU.120V.480G"), 0);
	norm_free(&n);
}
END_TEST

START_TEST(verda_without_a_client_id_fails_naming_the_variable)
{
	struct norm n;
	char *err = NULL;
	unsetenv("VERDA_CLIENT_ID");
	ck_assert_int_eq(fetch(&provider_verda, "ok-verdanoid", &n, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "VERDA_CLIENT_ID"));
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(hyperstack_prices_a_flavor_as_its_gpu_count_times_the_pricebook_value)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_hyperstack, "ok-hs", &n, &err) == PLANNER_OK, "%s", err);
	const struct offer *a8 = find(&n, "n3-A100x8", "CANADA-1", false);
	ck_assert_ptr_nonnull(a8);
	CLOSE(a8->price_per_hour, 8 * 1.35);
	ck_assert_str_eq(a8->gpu, "A100 80GB");
	ck_assert(!a8->available); /* stock_available false */
	ck_assert_str_eq(a8->country, "CA");
	const struct offer *h = find(&n, "n3-H100-SXM5x8", "NORWAY-1", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->gpu, "H100 SXM");
	ck_assert(h->available);
	ck_assert_str_eq(h->region_group, "eu");
	CLOSE(find(&n, "n3-RTX-A6000x1", "NORWAY-1", false)->price_per_hour, 0.50);
	/* The H200 flavor has no pricebook row: left out, counted. */
	ck_assert_uint_eq(count_named(&n, "n3-H200-SXM5x8"), 0);
	ck_assert_uint_eq(n.skipped, 1);
	ck_assert_uint_eq(count_named(&n, "n1-cpu-small"), 0);
	char *log = test_fixture_log(&feed_server, "ok-hs");
	ck_assert_msg(strstr(log, "/v1/pricebook") && strstr(log, "/v1/core/flavors") &&
			  strstr(log, "\"key_header\": \"api_key\"") && !strstr(log, "Bearer"),
		      "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_hyperstack_status_false_is_an_error_with_its_message)
{
	ck_error_body(&provider_hyperstack, "{\"status\": false, \"message\": \"Invalid API key\"}",
	              "hyperstack says: Invalid API key");
}
END_TEST

START_TEST(shadeform_prices_are_cents_and_each_row_keeps_its_cloud)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_shadeform, "ok-sf", &n, &err) == PLANNER_OK, "%s", err);
	const struct offer *c = find(&n, "crusoe/h100-80gb-sxm-ib.8x", "crusoe/us-east1-a", false);
	ck_assert_ptr_nonnull(c);
	CLOSE(c->price_per_hour, 27.80); /* hourly_price 2780 cents */
	ck_assert_int_eq(c->gpu_count, 8);
	ck_assert_str_eq(c->gpu, "H100 SXM");
	ck_assert(c->available);
	ck_assert(!find(&n, "crusoe/h100-80gb-sxm-ib.8x", "crusoe/eu-iceland1-a", false)->available);
	/* The same GPU name over PCIe is the PCIe part. */
	const struct offer *p = find(&n, "hyperstack/n3-H100x1", "hyperstack/canada-1", false);
	ck_assert_ptr_nonnull(p);
	ck_assert_str_eq(p->gpu, "H100 PCIe");
	CLOSE(p->price_per_hour, 1.90);
	ck_assert_str_eq(p->country, "CA"); /* the underlying cloud's region */
	CLOSE(find(&n, "massedcompute/gpu_1x_a6000", "massedcompute/us-central-2", false)
		  ->price_per_hour,
	      0.57);
	char *log = test_fixture_log(&feed_server, "ok-sf");
	ck_assert_msg(strstr(log, "\"key_header\": \"X-API-KEY\"") && !strstr(log, "Bearer"), "%s",
		      log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(fluidstack_multiplies_the_gpu_hour_price_out_for_each_count_and_region)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_fluidstack, "ok-fs", &n, &err) == PLANNER_OK, "%s", err);
	const struct offer *h = find(&n, "H100_SXM5_80GB::8", "norway_4_eu", false);
	ck_assert_ptr_nonnull(h);
	CLOSE(h->price_per_hour, 8 * 2.89); /* price_per_gpu_hr times the count */
	ck_assert_str_eq(h->gpu, "H100 SXM");
	ck_assert_str_eq(h->country, "NO");
	ck_assert_str_eq(h->region_group, "eu");
	ck_assert_uint_eq(count_named(&n, "H100_SXM5_80GB::1"), 2); /* two regions */
	const struct offer *a = find(&n, "RTX_A6000_48GB::2", "norway_4_eu", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "RTX A6000");
	CLOSE(a->price_per_hour, 1.6);
	/* No region: one row, not available. */
	const struct offer *none = find(&n, "A100_PCIE_80GB::8", "", false);
	ck_assert_ptr_nonnull(none);
	ck_assert_str_eq(none->gpu, "A100 80GB");
	ck_assert(!none->available);
	ck_assert_uint_eq(n.n_unknown, 1); /* Z9000: reported, not guessed */
	char *log = test_fixture_log(&feed_server, "ok-fs");
	ck_assert_msg(strstr(log, "/list_available_configurations") &&
			  strstr(log, "\"key_header\": \"api-key\"") && !strstr(log, "Bearer"),
		      "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_fluidstack_error_is_an_error_with_its_message)
{
	ck_error_body(&provider_fluidstack, "{\"error\": \"Invalid API key\"}",
	              "fluidstack says: Invalid API key");
}
END_TEST

START_TEST(jarvislabs_prices_each_vm_size_per_gpu_and_passes_over_container_rows)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(fetch(&provider_jarvislabs, "ok-jl", &n, &err) == PLANNER_OK, "%s", err);
	/* L4 VM: num_gpus 8 gives 1, 2, 4 and 8; 3 free devices. */
	const struct offer *l4 = find(&n, "L4-4x", "india-noida-01", false);
	ck_assert_ptr_nonnull(l4);
	CLOSE(l4->price_per_hour, 4 * 0.44);
	ck_assert_int_eq(l4->gpu_count, 4);
	CLOSE(l4->vcpus, 4 * 28);
	ck_assert(!l4->available); /* 4 > 3 free */
	ck_assert(find(&n, "L4-2x", "india-noida-01", false)->available);
	ck_assert_str_eq(l4->country, "IN");
	ck_assert(!l4->marketplace);
	const struct offer *s = find(&n, "L4-2x", "india-noida-01", true);
	ck_assert_ptr_nonnull(s);
	CLOSE(s->price_per_hour, 2 * 0.29);
	ck_assert(s->available); /* 2 spot devices free */
	/* The container row is the same GPUs: not counted twice. */
	ck_assert_uint_eq(count_named(&n, "L4-1x"), 2); /* on-demand and spot */
	const struct offer *a = find(&n, "A100-80GB-1x", "india-noida-01", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "A100 80GB");
	ck_assert_ptr_null(find(&n, "A100-80GB-8x", "india-noida-01", false)); /* num_gpus 4 */
	/* workload_type null is a VM row; no num_gpus: one GPU; no spot. */
	const struct offer *h = find(&n, "H100-1x", "europe-01", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->region_group, "eu");
	ck_assert_ptr_null(find(&n, "H100-2x", "europe-01", false));
	ck_assert_ptr_null(find(&n, "H100-1x", "europe-01", true));
	/* The H200 row's price is not a number: left out, counted. */
	ck_assert_uint_eq(count_named(&n, "H200-1x"), 0);
	ck_assert_uint_eq(n.skipped, 1);
	char *log = test_fixture_log(&feed_server, "ok-jl");
	ck_assert_msg(strstr(log, "/misc/server_meta") && strstr(log, "Bearer"), "%s", log);
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(a_jarvislabs_body_without_server_meta_is_an_error_with_its_message)
{
	ck_error_body(&provider_jarvislabs, "{\"message\": \"Invalid token\"}",
	              "jarvislabs says: Invalid token");
}
END_TEST

/* How many offer rows of provider the bundled snapshot holds. */
static long snapshot_rows(const char *provider)
{
	cJSON *snap = cJSON_Parse(planner_snapshot_json);
	long n = 0;
	const cJSON *o;
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(snap, "offers"))
	{
		n += !strcmp(cJSON_GetObjectItem(o, "provider")->valuestring, provider);
	}
	cJSON_Delete(snap);
	return n;
}

/* Each keyed feed refreshed with its key variable empty: one line naming
 * the variable, exit 0, and the bundled snapshot's rows still there, as
 * many as the snapshot has (none for a feed it holds no rows of). */
START_TEST(a_missing_key_skips_each_keyed_feed_with_one_line_and_its_snapshot_rows_remain)
{
	/* fluidstack is retired: refresh refuses it by name (check_refresh). */
	static const char *const feeds[] = {"digitalocean", "verda", "hyperstack", "shadeform",
					    "jarvislabs"};
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	char *env[20];
	size_t e = 0;
	for (size_t i = 0; i < 5; i++) {
		const struct provider *p = provider_find(feeds[i]);
		char var[64];
		ck_assert_ptr_nonnull(p);
		provider_url_env(p, var, sizeof var);
		env[e++] = xasprintf("%s=http://127.0.0.1:%d/ok-nokey", var, feed_server.port);
		env[e++] = xasprintf("%s=", p->key_env);
	}
	env[e] = NULL;
	const char *argv[] = {"refresh", "--db", db, "--provider",
			      "digitalocean,verda,hyperstack,shadeform,jarvislabs", NULL};
	ck_assert_int_eq(test_run_planner(argv, (const char *const *)env, &out, &err), 0);
	long kept = 0;
	for (size_t i = 0; i < 5; i++) {
		const struct provider *p = provider_find(feeds[i]);
		char want[96];
		snprintf(want, sizeof want, "%s skipped", p->name);
		const char *hit = strstr(err, p->key_env);
		ck_assert_msg(hit && !strstr(hit + 1, p->key_env) && strstr(err, want), "%s", err);
		char *rows = test_query(db, "SELECT count(*) FROM offers WHERE provider = ?", p->name);
		long want_rows = snapshot_rows(p->name);
		ck_assert_msg(atol(rows) == want_rows, "%s: %s rows, the snapshot has %ld", p->name,
			      rows, want_rows);
		kept += want_rows;
		free(rows);
	}
	ck_assert_int_gt(kept, 0); /* verda's, hyperstack's and jarvislabs' at least */
	char *log = test_fixture_log(&feed_server, "ok-nokey");
	ck_assert_str_eq(log, "[]"); /* nothing was asked */
	free(log);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
	free(out);
	free(err);
	free(db);
	free(dir);
}
END_TEST

Suite *keyed_feeds_suite(void)
{
	Suite *s = suite_create("keyed_feeds");
	TCase *t = tcase_create("over loopback");
	tcase_add_checked_fixture(t, feed_server_start, feed_server_stop);
	tcase_add_test(t, digitalocean_prices_a_droplet_hour_in_usd_and_reads_vram_as_the_whole_droplets);
	tcase_add_test(t, digitalocean_on_the_peer_recorded_sizes_keeps_the_h100_and_mi300x_droplets);
	tcase_add_test(t, a_digitalocean_error_object_is_an_error_with_its_message);
	tcase_add_test(t, verda_trades_its_client_credentials_for_a_token_and_prices_on_demand_and_spot);
	tcase_add_test(t, verda_on_the_peer_recorded_rows_prices_spot_where_the_spot_list_names_the_type);
	tcase_add_test(t, verda_without_a_client_id_fails_naming_the_variable);
	tcase_add_test(t, hyperstack_prices_a_flavor_as_its_gpu_count_times_the_pricebook_value);
	tcase_add_test(t, a_hyperstack_status_false_is_an_error_with_its_message);
	tcase_add_test(t, shadeform_prices_are_cents_and_each_row_keeps_its_cloud);
	tcase_add_test(t, fluidstack_multiplies_the_gpu_hour_price_out_for_each_count_and_region);
	tcase_add_test(t, a_fluidstack_error_is_an_error_with_its_message);
	tcase_add_test(t, jarvislabs_prices_each_vm_size_per_gpu_and_passes_over_container_rows);
	tcase_add_test(t, a_jarvislabs_body_without_server_meta_is_an_error_with_its_message);
	tcase_add_test(t, a_missing_key_skips_each_keyed_feed_with_one_line_and_its_snapshot_rows_remain);
	suite_add_tcase(s, t);
	return s;
}
