/* check_providers_feeds.c — the API feeds (OpenRouter, LiteLLM) and
 * RunPod, Lambda and Vast.ai refreshed by the real `planner refresh` over
 * loopback HTTP on recorded data, with the database and `planner offers`
 * read back, and the api route's pick of their prices. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan.h"
#include "provider.h"
#include "providers_util.h"
#include "testutil.h"

/* --- issue 11, API feeds and RunPod/Lambda/Vast on recorded real data ---
 * Over loopback HTTP: the real `planner refresh` against
 * tests/fixture_server.py, scenario "real" (tests/fixtures/real/, see its
 * PROVENANCE.md) or a documented-shape fixture (tests/fixtures/providers/
 * *.stock.json, *.verify.json, each with a _fixture_note), then the
 * database or `planner offers` read back. */

static struct test_fixture feeds;

static void feeds_start(void)
{
	test_fixture_start(&feeds, 2.0);
}

static void feeds_stop(void)
{
	test_fixture_stop(&feeds);
}

/* `planner refresh --db DB --provider NAME` with NAME's feed at scenario
 * `scen` and every other adapter pointed at the fixture server too;
 * extra: more "K=V" (keys). Returns the exit status. */
static int feed_refresh(const char *db, const char *name, const char *scen,
			const char *const *extra, char **out, char **err)
{
	size_t n = 0, e = 0, cap;
	while (provider_list[n])
		n++;
	cap = n + 4 + 16; /* a URL each, the fixed four, extra */
	char **env = calloc(cap + 1, sizeof *env);
	ck_assert_ptr_nonnull(env);
	for (size_t i = 0; i < n; i++) {
		char var[64];
		provider_url_env(provider_list[i], var, sizeof var);
		env[e++] = xasprintf("%s=http://127.0.0.1:%d/%s", var, feeds.port,
				     strstr(name, provider_list[i]->name) ? scen : "ok");
	}
	const char *fixed[] = {"PLANNER_HTTP_RETRIES=1", "PLANNER_HTTP_BACKOFF_MS=1",
			       "PLANNER_HTTP_MAX_WAIT_MS=5", "PLANNER_HTTP_TIMEOUT_MS=5000"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		env[e++] = xasprintf("%s", fixed[i]);
	for (size_t i = 0; extra && extra[i] && e < cap; i++)
		env[e++] = xasprintf("%s", extra[i]);
	env[e] = NULL;
	const char *argv[] = {"refresh", "--db", db, "--provider", name, NULL};
	int rc = test_run_planner(argv, (const char *const *)env, out, err);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
	free(env);
	return rc;
}

static char *feed_db(void)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir);
	free(dir);
	return db;
}

/* The first column of sql's first row as a long (-1 when none). */
static long feed_count(const char *db, const char *sql, const char *param)
{
	char *v = test_query(db, sql, param);
	long n = *v ? atol(v) : -1;
	free(v);
	return n;
}

/* `planner offers ARGS… --format json --db DB` parsed. */
static cJSON *feed_offers(const char *db, const char *const *args)
{
	const char *argv[16];
	size_t a = 0;
	argv[a++] = "offers";
	for (size_t i = 0; args[i]; i++)
		argv[a++] = args[i];
	argv[a++] = "--format";
	argv[a++] = "json";
	argv[a++] = "--db";
	argv[a++] = db;
	argv[a] = NULL;
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *arr = cJSON_Parse(out);
	ck_assert(cJSON_IsArray(arr));
	free(out);
	free(err);
	return arr;
}

static bool lists(const cJSON *arr, const char *key, const char *value)
{
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		if (!strcmp(pj_str(o, key), value))
			return true;
	}
	return false;
}

START_TEST(offers_term_lists_the_recorded_aws_and_azure_commitments_default_offers_none)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *regions[] = {"PLANNER_AWS_REGIONS=ca-central-1", NULL};
	/* The recorded rows (fixture_server.py REAL "b16als" and "reserved"). */
	ck_assert_int_eq(feed_refresh(db, "azure", "real-b16als", NULL, &out, &err), 0);
	free(out);
	free(err);
	ck_assert_int_eq(feed_refresh(db, "aws", "real-reserved", regions, &out, &err), 3);
	/* aws has commitments but no on-demand offer in the head: the refresh
	 * fails with no offers and stores nothing, its terms included. */
	ck_assert_int_eq(feed_count(db, "SELECT count(*) FROM offer_terms WHERE provider = 'aws'",
	                            NULL),
	                 0);
	free(out);
	free(err);
	ck_assert_int_eq(feed_count(db, "SELECT count(*) FROM offer_terms WHERE provider = 'azure'",
	                            NULL),
	                 2);
	const char *y1[] = {"--term", "1y", "--provider", "azure", NULL};
	cJSON *arr = feed_offers(db, y1);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 1);
	const cJSON *o = cJSON_GetArrayItem(arr, 0);
	ck_assert_str_eq(pj_str(o, "offer"), "Standard_NC24ads_A100_v4");
	ck_assert_str_eq(pj_str(o, "term"), "1y");
	ck_assert_double_eq(pj_num(o, "upfront"), 3478);
	ck_assert_double_eq_tol(pj_num(o, "price_per_hour"), 3478.0 / 8760, 1e-9);
	cJSON_Delete(arr);
	const char *y3[] = {"--term", "3y", NULL};
	arr = feed_offers(db, y3);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 1);
	ck_assert_double_eq(pj_num(cJSON_GetArrayItem(arr, 0), "upfront"), 6721);
	cJSON_Delete(arr);
	/* on-demand offers stay as they were: the two pay-as-you-go rows */
	const char *plain[] = {"--provider", "azure", NULL};
	arr = feed_offers(db, plain);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 2);
	cJSON_ArrayForEach(o, arr)
	{
		ck_assert_ptr_null(cJSON_GetObjectItem(o, "term"));
		ck_assert_double_ne_tol(pj_num(o, "price_per_hour"), 3478.0 / 8760, 1e-6);
	}
	cJSON_Delete(arr);
	const char *bad[] = {"offers", "--term", "2y", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, NULL), 2);
	free(db);
}
END_TEST

START_TEST(litellm_on_the_real_map_stores_no_zero_priced_text_model)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "litellm", "real", NULL, &out, &err), 0);
	/* 84 text entries of the map of 2026-07-24 are priced 0/0 (ollama/…,
	 * lemonade/…, codestral-latest); none is an offer. */
	ck_assert_int_eq(feed_count(db,
				    "SELECT count(*) FROM api_prices WHERE provider = 'litellm' AND "
				    "input_per_token = 0 AND output_per_token = 0",
				    NULL),
			 0);
	ck_assert_int_eq(feed_count(db, "SELECT count(*) FROM api_prices WHERE model = ?",
				    "ollama/llama3.1"),
			 0);
	/* 1,201 priced text entries: 84 are 0/0, 13 collide with another
	 * id, 4 (wandb/…) are above NORM_MAX_PRICE_PER_TOKEN, 1 writes
	 * audio only (gemini/gemini-2.5-pro-preview-tts). */
	ck_assert_int_eq(
	    feed_count(db, "SELECT count(*) FROM api_prices WHERE provider = 'litellm'", NULL),
	    1099);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* The real map with its top-level keys in reverse order. */
static char *reversed_map(size_t *len)
{
	char *body = read_file(
		"tests/fixtures/real/litellm/model_prices_and_context_window.2026-07-24.excerpt.json", len);
	ck_assert_ptr_nonnull(body);
	cJSON *root = cJSON_Parse(body), *rev = cJSON_CreateObject();
	free(body);
	while (cJSON_GetArraySize(root) > 0) {
		cJSON *last = cJSON_DetachItemFromArray(root, cJSON_GetArraySize(root) - 1);
		cJSON_AddItemToObject(rev, last->string, last);
	}
	cJSON_Delete(root);
	body = cJSON_PrintUnformatted(rev);
	cJSON_Delete(rev);
	*len = strlen(body);
	return body;
}

START_TEST(litellm_id_collisions_keep_the_same_row_whatever_the_key_order)
{
	struct norm a, b;
	char *err = NULL;
	size_t len;
	ck_assert_int_eq(parse_file(&provider_litellm,
				    "../real/litellm/model_prices_and_context_window.2026-07-24.excerpt.json",
				    &a, NULL, &err),
			 PLANNER_OK);
	char *rev = reversed_map(&len);
	norm_init(&b, test_ref(), "litellm");
	ck_assert_int_eq(provider_litellm.parse(&b, rev, len, NULL, &err), PLANNER_OK);
	free(rev);
	ck_assert_uint_eq(a.n_apis, 1099);
	ck_assert_uint_eq(b.n_apis, a.n_apis);
	ck_assert_uint_eq(b.skipped, a.skipped);
	for (size_t i = 0; i < a.n_apis; i++) {
		const struct api_price *x = &a.apis[i], *y = find_api(&b, x->model);
		ck_assert_msg(y != NULL, "%s", x->model);
		/* cJSON prints a double with 15 digits when that reads back
		 * within its epsilon: compare to 1e-12, not bit for bit. */
		ck_assert_msg(fabs(x->input_per_token - y->input_per_token) <=
					      1e-12 * x->input_per_token &&
				      fabs(x->output_per_token - y->output_per_token) <=
					      1e-12 * x->output_per_token &&
				      x->context == y->context,
			      "%s differs with the key order", x->model);
	}
	/* "deepseek/deepseek-chat" (prefixed) wins over "deepseek-chat". */
	ck_assert_ptr_nonnull(find_api(&a, "deepseek/deepseek-chat"));
	norm_free(&a);
	norm_free(&b);
}
END_TEST

START_TEST(an_offer_listed_twice_in_one_feed_is_counted_and_recorded_once)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *key[] = {"LAMBDA_API_KEY=k", NULL};
	ck_assert_int_eq(feed_refresh(db, "lambda", "ok", key, &out, &err), 0);
	long before = feed_count(db, "SELECT count(*) FROM offers WHERE provider = 'lambda'", NULL);
	free(out);
	free(err);
	/* lambda.dup.json: the A100 at 1.31 $/h lists us-east-1 twice. */
	ck_assert_int_eq(feed_refresh(db, "lambda", "dup", key, &out, &err), 0);
	ck_assert_int_eq(feed_count(db, "SELECT count(*) FROM offers WHERE provider = 'lambda'",
				    NULL),
			 before);
	ck_assert_int_eq(feed_count(db,
				    "SELECT count(*) FROM price_history WHERE provider = 'lambda' "
				    "AND offer = ? AND region = 'us-east-1' AND price_per_hour = 1.31",
				    "gpu_1x_a100_sxm4"),
			 1);
	char *want = xasprintf("%ld offers", before);
	ck_assert_msg(strstr(out, want) && strstr(out, "2 left out"), "%s", out);
	free(want);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(offers_limit_beyond_any_count_lists_every_row)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir);
	char *all = NULL, *huge = NULL;
	/* 1e20 rows is beyond size_t's 2^64: it means all of them, and is
	 * never cast out of range (undefined behaviour under UBSan). */
	const char *a[] = {"offers", "--limit", "0", "--format", "json", "--db", db, NULL};
	const char *b[] = {"offers", "--limit", "1e20", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(a, NULL, &all, NULL), 0);
	ck_assert_int_eq(test_run_planner(b, NULL, &huge, NULL), 0);
	ck_assert_str_eq(huge, all);
	const char *c[] = {"offers", "--api", "--limit", "1e20", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(c, NULL, NULL, NULL), 0);
	free(all);
	free(huge);
	free(db);
	free(dir);
}
END_TEST

START_TEST(offers_api_with_an_open_models_id_lists_its_hosted_copies)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "litellm", "real", NULL, &out, &err), 0);
	const char *args[] = {"--api", "--model", "llama-3.1-70b", "--limit", "0", NULL};
	cJSON *arr = feed_offers(db, args);
	const char *hosted[] = {"deepinfra/meta-llama/Meta-Llama-3.1-70B-Instruct",
				"together_ai/meta-llama/Meta-Llama-3.1-70B-Instruct-Turbo",
				"fireworks_ai/accounts/fireworks/models/llama-v3p1-70b-instruct",
				"nebius/meta-llama/Meta-Llama-3.1-70B-Instruct",
				"ovhcloud/Meta-Llama-3_1-70B-Instruct", "cerebras/llama3.1-70b",
				"lambda_ai/llama3.1-70b-instruct-fp8"};
	for (size_t i = 0; i < sizeof hosted / sizeof *hosted; i++)
		ck_assert_msg(lists(arr, "model", hosted[i]), "%s not listed", hosted[i]);
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		ck_assert_msg(!strstr(pj_str(o, "model"), "Hermes"), "a fine-tune: %s",
			      pj_str(o, "model"));
		ck_assert_msg(!strstr(pj_str(o, "model"), "3.3"), "another model: %s",
			      pj_str(o, "model"));
	}
	cJSON_Delete(arr);
	/* The schema's api_models spelling finds them too; a closed model's
	 * id still matches only itself. */
	const char *spelled[] = {"--api", "--model", "meta-llama/llama-3.1-70b-instruct", NULL};
	arr = feed_offers(db, spelled);
	ck_assert(lists(arr, "model", "nebius/meta-llama/Meta-Llama-3.1-70B-Instruct"));
	cJSON_Delete(arr);
	const char *closed[] = {"--api", "--model", "openai/gpt-4", "--limit", "0", NULL};
	arr = feed_offers(db, closed);
	cJSON_ArrayForEach(o, arr)
	{
		ck_assert_str_eq(pj_str(o, "model"), "openai/gpt-4");
	}
	cJSON_Delete(arr);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(offers_api_honours_provider)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "litellm,openrouter", "real", NULL, &out, &err), 0);
	const char *args[] = {"--api", "--provider", "openrouter", "--limit", "0", NULL};
	cJSON *arr = feed_offers(db, args);
	ck_assert_int_gt(cJSON_GetArraySize(arr), 100);
	const cJSON *o;
	cJSON_ArrayForEach(o, arr)
	{
		ck_assert_str_eq(pj_str(o, "provider"), "openrouter");
	}
	cJSON_Delete(arr);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(openrouter_on_real_data_lists_no_zero_price_or_alias_and_keeps_its_long_prompt_tiers)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "openrouter", "real", NULL, &out, &err), 0);
	const char *q = "SELECT count(*) FROM api_prices WHERE model = ?";
	ck_assert_int_eq(feed_count(db, q, "openrouter/free"), 0);
	ck_assert_int_eq(feed_count(db, q, "google/lyria-3-pro-preview"), 0);
	ck_assert_int_eq(feed_count(db,
				    "SELECT count(*) FROM api_prices WHERE provider = 'openrouter' "
				    "AND (model LIKE '~%' OR (input_per_token = 0 AND "
				    "output_per_token = 0))",
				    NULL),
			 0);
	/* The window stays the model's; the overrides are tiers of the row. */
	const char *ctx = "SELECT context FROM api_prices WHERE model = ?";
	ck_assert_int_eq(feed_count(db, ctx, "anthropic/claude-sonnet-4"), 1000000);
	ck_assert_int_eq(feed_count(db, ctx, "qwen/qwen3-max"), 262144);
	const char *tiers = "SELECT json_array_length(tiers) FROM api_prices WHERE model = ?";
	ck_assert_int_eq(feed_count(db, tiers, "anthropic/claude-sonnet-4"), 1);
	ck_assert_int_eq(feed_count(db, tiers, "qwen/qwen3-max"), 2);
	char *in = test_query(db, "SELECT input_per_token * 1e6 FROM api_prices WHERE model = ?",
			      "anthropic/claude-sonnet-4");
	ck_assert_msg(fabs(atof(in) - 3.0) < 1e-6, "%s", in);
	free(in);
	in = test_query(db,
	                "SELECT json_extract(tiers, '$[0].above') || ' ' || "
	                "(json_extract(tiers, '$[0].input_per_token') * 1e6) || ' ' || "
	                "(json_extract(tiers, '$[0].output_per_token') * 1e6) FROM api_prices "
	                "WHERE model = ?",
	                "anthropic/claude-sonnet-4");
	double above, ti, to;
	ck_assert_int_eq(sscanf(in, "%lf %lf %lf", &above, &ti, &to), 3);
	ck_assert_double_eq_tol(above, 200000, 0.5);
	ck_assert_double_eq_tol(ti, 6.0, 1e-6);
	ck_assert_double_eq_tol(to, 22.5, 1e-6);
	free(in);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(runpod_refreshes_without_a_key_and_sends_none)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *env[] = {"RUNPOD_API_KEY=", NULL};
	ck_assert_int_eq(feed_refresh(db, "runpod", "ok-nokey", env, &out, &err), 0);
	ck_assert_msg(!strstr(err, "skipped"), "%s", err);
	ck_assert_int_gt(feed_count(db, "SELECT count(*) FROM offers WHERE provider = 'runpod'",
				    NULL),
			 0);
	char *log = test_fixture_log(&feeds, "ok-nokey");
	ck_assert_ptr_nonnull(strstr(log, "/graphql"));
	ck_assert_ptr_null(strstr(log, "Bearer"));
	free(log);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(a_missing_needed_key_names_its_variable_once_and_the_rest_refreshes)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *env[] = {"RUNPOD_API_KEY=", "LAMBDA_API_KEY=", NULL};
	ck_assert_int_eq(feed_refresh(db, "lambda,runpod", "ok", env, &out, &err), 0);
	const char *hit = strstr(err, "LAMBDA_API_KEY");
	ck_assert_msg(hit && !strstr(hit + 1, "LAMBDA_API_KEY"), "%s", err);
	ck_assert_ptr_null(strstr(err, "RUNPOD_API_KEY"));
	ck_assert_int_gt(feed_count(db, "SELECT count(*) FROM offers WHERE provider = 'runpod'",
				    NULL),
			 0);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(runpod_stock_of_one_gpu_is_not_copied_to_larger_pods)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *env[] = {"RUNPOD_API_KEY=runpod-test-key", NULL};
	ck_assert_int_eq(feed_refresh(db, "runpod", "stock", env, &out, &err), 0);
	const char *q = "SELECT available FROM offers WHERE offer = ?";
	/* availableGpuCounts [1, 2, 4] (RunPod's own example): 8 is not. */
	ck_assert_int_eq(feed_count(db, q, "1x NVIDIA RTX A5000 (secure)"), 1);
	ck_assert_int_eq(feed_count(db, q, "4x NVIDIA RTX A5000 (secure)"), 1);
	ck_assert_int_eq(feed_count(db, q, "8x NVIDIA RTX A5000 (secure)"), 0);
	/* No list: only the one GPU asked about is known to be in stock. */
	ck_assert_int_eq(feed_count(db, q, "1x NVIDIA RTX A6000 (secure)"), 1);
	ck_assert_int_eq(feed_count(db, q, "2x NVIDIA RTX A6000 (secure)"), 0);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* Issue 29 item 3: a Secure Cloud row per data centre that lists the GPU
 * in stock (region = its id, located by the region table), Community rows
 * without one; an unlisted data centre, one whose entry is not available,
 * and a type no data centre lists (one row, no region) over loopback
 * (tests/fixtures/providers/runpod.dc.json, documented shape). */
START_TEST(runpod_secure_rows_are_one_per_data_centre_that_offers_the_gpu)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "runpod", "dc", NULL, &out, &err), 0);
	const char *n = "SELECT count(*) FROM offers WHERE provider = 'runpod' AND offer = ?";
	ck_assert_int_eq(feed_count(db, n, "1x NVIDIA GeForce RTX 4090 (secure)"), 5);
	ck_assert_int_eq(feed_count(db, n, "2x NVIDIA GeForce RTX 4090 (secure)"), 5);
	ck_assert_int_eq(feed_count(db, n, "1x NVIDIA GeForce RTX 4090 (community)"), 1);
	/* EU-RO-1 and US-KS-2; not EU-SE-1 (available false), not CA-MTL-1
	 * (listed false); on-demand and spot each. */
	ck_assert_int_eq(feed_count(db, n, "8x NVIDIA H100 80GB HBM3 (secure)"), 4);
	char *r =
	    test_query(db,
	               "SELECT group_concat(region || ':' || country || ':' || region_group, ' ') "
	               "FROM (SELECT region, country, region_group FROM offers WHERE offer = ? "
	               "AND NOT spot ORDER BY region)",
	               "1x NVIDIA H100 80GB HBM3 (secure)");
	ck_assert_str_eq(r, "EU-RO-1:RO:eu US-KS-2:US:us");
	free(r);
	r = test_query(db, "SELECT region FROM offers WHERE offer = ?",
	               "1x NVIDIA GeForce RTX 4090 (community)");
	ck_assert_str_eq(r, "");
	free(r);
	/* Listed by no data centre: one Secure row, no region. */
	r = test_query(
	    db, "SELECT group_concat(region, ',') || '|' || count(*) FROM offers WHERE offer = ?",
	    "1x NVIDIA A100 80GB PCIe (secure)");
	ck_assert_str_eq(r, "|1");
	free(r);
	ck_assert_int_eq(
	    feed_count(db, "SELECT count(*) FROM offers WHERE provider = 'runpod'", NULL), 29);
	ck_assert_int_eq(
	    feed_count(db,
	               "SELECT count(*) FROM offers WHERE provider = 'runpod' AND region "
	               "IN ('EU-SE-1', 'CA-MTL-1')",
	               NULL),
	    0);
	/* The query asks for the data centres' GPU lists. */
	char *log = test_fixture_log(&feeds, "dc");
	ck_assert_ptr_nonnull(strstr(log, "dataCenters { id name location listed gpuAvailability"));
	free(log);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(vast_asks_for_and_keeps_only_verified_non_external_hosts)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "vast", "verify", NULL, &out, &err), 0);
	const char *q = "SELECT gpu FROM offers WHERE offer = ? AND NOT spot";
	char *g = test_query(db, q, "11684738"); /* the recorded offer */
	ck_assert_str_eq(g, "RTX 4090");
	free(g);
	const char *dropped[] = {"2", "3", "4"}; /* unverified, external, verified false */
	for (size_t i = 0; i < 3; i++) {
		g = test_query(db, q, dropped[i]);
		ck_assert_msg(!*g, "offer %s kept", dropped[i]);
		free(g);
	}
	g = test_query(db, q, "5");
	ck_assert_str_eq(g, "RTX 4080"); /* "RTX 4080S" */
	free(g);
	g = test_query(db, q, "6");
	ck_assert_str_eq(g, "GH200"); /* "GH200 SXM" */
	free(g);
	char *log = test_fixture_log(&feeds, "verify");
	ck_assert_ptr_nonnull(strstr(log, "\\\"verified\\\":{\\\"eq\\\":true}"));
	ck_assert_ptr_nonnull(strstr(log, "\\\"external\\\":{\\\"eq\\\":false}"));
	free(log);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* Issue 29 item 5: the store keeps whether a row is a marketplace host,
 * from what the feed says: Vast.ai's hosting_type (1 a data centre,
 * tests/fixtures/providers/vast.hosting.json) and RunPod's cloud tier
 * (secure in data centres, community on hosts' machines), over loopback. */
START_TEST(vast_hosting_type_and_runpod_tier_are_stored_as_marketplace_or_not)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "vast", "hosting", NULL, &out, &err), 0);
	const char *q = "SELECT marketplace FROM offers WHERE provider = 'vast' AND offer = ? "
			"AND NOT spot";
	ck_assert_int_eq(feed_count(db, q, "11684738"), 1); /* hosting_type 0 */
	ck_assert_int_eq(feed_count(db, q, "7"), 0);        /* hosting_type 1 */
	free(out);
	free(err);
	ck_assert_int_eq(feed_refresh(db, "runpod", "ok", (const char *const[]){"RUNPOD_API_KEY=k", NULL},
				      &out, &err),
			 0);
	const char *rq = "SELECT count(*) FROM offers WHERE provider = 'runpod' AND tier = ?1 AND "
			 "marketplace = (?1 = 'community')";
	const char *all = "SELECT count(*) FROM offers WHERE provider = 'runpod' AND tier = ?";
	for (int t = 0; t < 2; t++) {
		const char *tier = t ? "community" : "secure";
		long n = feed_count(db, all, tier);
		ck_assert_msg(n > 0, "no %s rows", tier);
		ck_assert_int_eq(feed_count(db, rq, tier), n);
	}
	/* offers' JSON says the same. */
	cJSON *arr = feed_offers(db, (const char *const[]){"--provider", "runpod", NULL});
	const cJSON *o;
	int seen = 0;
	cJSON_ArrayForEach(o, arr)
	{
		const char *tier = cJSON_GetObjectItem(o, "tier")->valuestring;
		ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(o, "marketplace")),
				 !strcmp(tier, "community"));
		seen++;
	}
	ck_assert_int_gt(seen, 0);
	cJSON_Delete(arr);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* Issue 16: a Vast offer is read from its bytes, not a cJSON tree; every
 * way JSON writes its members still gives the rows the tree gave
 * (tests/fixtures/providers/vast.edges.json, over loopback: the body comes
 * in pieces). */
START_TEST(vast_reads_escapes_repeats_and_odd_numbers_as_a_json_tree_does)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "vast", "edges", NULL, &out, &err), 0);
	const char *q = "SELECT gpu || '|' || region || '|' || gpu_count || '|' || price_per_hour "
			"FROM offers WHERE offer = ? AND NOT spot";
	static const struct {
		const char *offer, *row; /* "" when none */
	} want[] = {
	    {"101", "RTX 4090|Qu\xc3\xa9" "bec, CA|1|0.31"}, /* \u escapes in values */
	    {"102", "RTX 4090|Oslo, NO|1|0.32"},           /* "gpu\u005fname" */
	    {"103", "RTX 3090|Texas, US|1|0.33"},          /* repeated: the first counts */
	    {"104", "RTX 4090|Texas, US|2|0.5"},           /* 1.04e2, 5e-1, 2.0 */
	    {"105", "RTX 4090||1|0.75"},                   /* "105", "0.75", null */
	    {"106", "RTX 4090|Oslo \"N\", NO|1|0.36"},     /* nested members, \" */
	    {"107", ""},                                   /* dph_total 1e999 */
	    {"123456789012345677877719597056", "RTX 4090|Texas, US|1|0.38"},
	    {"109", ""}, /* verified false */
	    {"110", "RTX 4090|Texas, US|1|0.4"},
	    {"111", "RTX 4090|Quebec, CA|1|0.41"}, /* no spaces, a tab, CR LF */
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		char *row = test_query(db, q, want[i].offer);
		ck_assert_msg(!strcmp(row, want[i].row), "offer %s: '%s', not '%s'", want[i].offer,
			      row, want[i].row);
		free(row);
	}
	/* The interruptible rows: min_bid -0, null and 0 give none; "0.25" one. */
	const char *spot = "SELECT count(*) FROM offers WHERE provider = 'vast' AND spot";
	ck_assert_int_eq(feed_count(db, spot, NULL), 6);
	char *bid = test_query(db, "SELECT price_per_hour FROM offers WHERE offer = ? AND spot", "110");
	ck_assert_str_eq(bid, "0.25");
	free(bid);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(lambda_uses_the_production_host_of_lambdas_openapi_document)
{
	size_t len;
	char *body = read_file("tests/fixtures/real/lambda/openapi-1.10.0-instance-types.excerpt.json",
			       &len);
	ck_assert_ptr_nonnull(body);
	cJSON *doc = cJSON_Parse(body);
	const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "servers"), 0);
	ck_assert_str_eq(pj_str(first, "description"), "Production server");
	char *want = xasprintf("%s/", provider_lambda.base_url);
	ck_assert_str_eq(pj_str(first, "url"), want);
	free(want);
	cJSON_Delete(doc);
	free(body);
}
END_TEST

START_TEST(lambda_on_the_recorded_price_book_stores_its_b200_and_gh200_rows)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	const char *env[] = {"LAMBDA_API_KEY=lambda-test-key", NULL};
	ck_assert_int_eq(feed_refresh(db, "lambda", "real", env, &out, &err), 0);
	char *p = test_query(db, "SELECT price_per_hour FROM offers WHERE offer = ?",
			     "gpu_1x_gh200");
	ck_assert_msg(fabs(atof(p) - 2.29) < 1e-9, "%s", p);
	free(p);
	ck_assert_int_eq(feed_count(db, "SELECT gpu_count FROM offers WHERE offer = ?",
				    "gpu_8x_b200_sxm6"),
			 8);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* The api route of a plan, on a store holding two hosted copies of
 * llama-3.1-70b: a cheap one whose price holds up to 2048 tokens (a
 * long-prompt tier's threshold) and a dearer one with a 131072 window,
 * both cheaper than the bundled snapshot's rows for the model. */
static const char *plan_api_pick(long context)
{
	static char picked[sizeof ((struct route_result *)0)->offer];
	char *dir = test_tmpdir(), *path = xasprintf("%s/plan.db", dir), *err = NULL;
	struct store *st = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	struct api_price a[2] = {
		{.input_per_token = 0.1e-6, .output_per_token = 0.1e-6, .context = 2048},
		{.input_per_token = 0.11e-6, .output_per_token = 0.11e-6, .context = 131072}};
	snprintf(a[0].model, sizeof a[0].model, "hosta/meta-llama/Meta-Llama-3.1-70B-Instruct");
	snprintf(a[1].model, sizeof a[1].model, "hostb/llama3.1-70b-instruct-fp8");
	ck_assert_int_eq(store_replace_api_prices(st, "testfeed", a, 2, &err), PLANNER_OK);
	char *yaml = xasprintf("version: 1\njobs:\n - {name: a, model: llama-3.1-70b, context: %ld, "
			       "tokens_per_month: {input: 1M, output: 1M}}\n",
			       context);
	struct jobspec *spec = NULL;
	struct plan *p = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) ==
			      PLANNER_OK,
		      "%s", err);
	ck_assert_msg(plan_compare(spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	const struct route_result *r = &p->jobs[0].routes[ROUTE_API];
	snprintf(picked, sizeof picked, "%s", r->feasible ? r->offer : "");
	plan_free(p);
	jobspec_free(spec);
	store_close(st);
	free(yaml);
	free(path);
	free(dir);
	return picked;
}

START_TEST(the_api_route_finds_hosted_copies_and_skips_a_price_shorter_than_the_job)
{
	/* api_models [meta-llama/llama-3.1-70b-instruct] matches both copies. */
	ck_assert_str_eq(plan_api_pick(1024), "hosta/meta-llama/Meta-Llama-3.1-70B-Instruct");
	/* 8192-token sequences are past the cheap row's 2048: the other. */
	ck_assert_str_eq(plan_api_pick(8192), "hostb/llama3.1-70b-instruct-fp8");
}
END_TEST

static void add_apifeeds_tests(Suite *s)
{
	TCase *t = tcase_create("real feeds over loopback");
	tcase_add_checked_fixture(t, feeds_start, feeds_stop);
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, litellm_on_the_real_map_stores_no_zero_priced_text_model);
	tcase_add_test(t, litellm_id_collisions_keep_the_same_row_whatever_the_key_order);
	tcase_add_test(t, offers_api_with_an_open_models_id_lists_its_hosted_copies);
	tcase_add_test(t, offers_limit_beyond_any_count_lists_every_row);
	tcase_add_test(t, an_offer_listed_twice_in_one_feed_is_counted_and_recorded_once);
	tcase_add_test(t, offers_api_honours_provider);
	tcase_add_test(
	    t,
	    openrouter_on_real_data_lists_no_zero_price_or_alias_and_keeps_its_long_prompt_tiers);
	tcase_add_test(t, runpod_refreshes_without_a_key_and_sends_none);
	tcase_add_test(t, a_missing_needed_key_names_its_variable_once_and_the_rest_refreshes);
	tcase_add_test(t, runpod_stock_of_one_gpu_is_not_copied_to_larger_pods);
	tcase_add_test(t, runpod_secure_rows_are_one_per_data_centre_that_offers_the_gpu);
	tcase_add_test(t, vast_asks_for_and_keeps_only_verified_non_external_hosts);
	tcase_add_test(t, vast_hosting_type_and_runpod_tier_are_stored_as_marketplace_or_not);
	tcase_add_test(t, vast_reads_escapes_repeats_and_odd_numbers_as_a_json_tree_does);
	tcase_add_test(t, lambda_uses_the_production_host_of_lambdas_openapi_document);
	tcase_add_test(t, lambda_on_the_recorded_price_book_stores_its_b200_and_gh200_rows);
	tcase_add_test(t, the_api_route_finds_hosted_copies_and_skips_a_price_shorter_than_the_job);
	suite_add_tcase(s, t);
}

/* --- issue 11, what was left: tiers, non-text rows, GPU names, aws OOM ---
 * Over loopback HTTP against tests/fixture_server.py where a feed is
 * involved: the recorded real responses (scenario "real", see
 * tests/fixtures/real/PROVENANCE.md) or a documented-shape fixture. */


START_TEST(openrouter_stores_only_models_that_write_text)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "openrouter", "real", NULL, &out, &err), 0);
	const char *q = "SELECT count(*) FROM api_prices WHERE model = ?";
	/* Image and audio generators of 2026-08-01 (output_modalities
	 * ["image", "text"] and ["text", "audio"]). */
	const char *gone[] = {"google/gemini-3-pro-image", "openai/gpt-5-image",
	                      "google/gemini-2.5-flash-image", "openai/gpt-audio",
	                      "openai/gpt-audio-mini"};
	for (size_t i = 0; i < sizeof gone / sizeof *gone; i++)
		ck_assert_msg(feed_count(db, q, gone[i]) == 0, "%s stored", gone[i]);
	ck_assert_int_eq(feed_count(db, q, "google/gemini-2.5-pro"), 1);
	/* 336 models: 293 priced text-only ones; the 11 priced image or audio
	 * generators are left out with the free, alias and router ids. */
	ck_assert_int_eq(
	    feed_count(db, "SELECT count(*) FROM api_prices WHERE provider = 'openrouter'", NULL),
	    293);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(litellm_stores_no_image_embedding_or_audio_only_entry_of_the_real_map)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(
	    parse_file(&provider_litellm,
	               "../real/litellm/model_prices_and_context_window.2026-07-24.excerpt.json",
	               &n, NULL, &err),
	    PLANNER_OK);
	/* mode image_generation and embedding, and a chat-mode entry whose
	 * only output is audio. */
	const char *gone[] = {"bedrock/1024-x-1024/50-steps/bedrock/amazon.nova-canvas-v1:0",
	                      "bedrock/amazon.titan-embed-image-v1",
	                      "gemini/gemini-2.5-pro-preview-tts"};
	for (size_t i = 0; i < n.n_apis; i++)
		for (size_t k = 0; k < sizeof gone / sizeof *gone; k++)
			ck_assert_msg(!strstr(n.apis[i].model, gone[k] + strcspn(gone[k], "/") + 1),
			              "%s stored", n.apis[i].model);
	/* A text model that can also return images stays. */
	ck_assert_ptr_nonnull(find_api(&n, "openai/gpt-5.1"));
	ck_assert_uint_gt(n.skipped, 0);
	norm_free(&n);
}
END_TEST

START_TEST(litellm_reads_its_above_n_k_tokens_fields_as_tiers_and_not_the_priority_ones)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(
	    parse_file(&provider_litellm,
	               "../real/litellm/model_prices_and_context_window.2026-07-24.excerpt.json",
	               &n, NULL, &err),
	    PLANNER_OK);
	const struct api_price *g = find_api(&n, "gemini/gemini-2.5-pro");
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(g->n_tiers, 1); /* _above_200k_tokens_priority is not a tier */
	ck_assert_int_eq(g->tiers[0].above, 200000);
	ck_assert_double_eq_tol(g->tiers[0].input_per_token * 1e6, 2.5, 1e-9);
	ck_assert_double_eq_tol(g->tiers[0].output_per_token * 1e6, 15, 1e-9);
	ck_assert_int_eq(g->context, 1048576);
	const struct api_price *o = find_api(&n, "openai/gpt-5.6");
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->n_tiers, 1);
	ck_assert_int_eq(o->tiers[0].above, 272000);
	ck_assert_double_eq_tol(o->tiers[0].output_per_token * 1e6, 45, 1e-9);
	const struct api_price *q = find_api(&n, "openrouter/qwen/qwen3.5-plus-02-15");
	ck_assert_ptr_nonnull(q);
	ck_assert_int_eq(q->tiers[0].above, 256000);
	/* The tier chosen is the last one a prompt is over. */
	ck_assert_ptr_null(api_price_tier(g, 200000));
	ck_assert_ptr_eq(api_price_tier(g, 200001), &g->tiers[0]);
	norm_free(&n);
}
END_TEST

START_TEST(litellm_keeps_cache_prices_euro_hosts_and_eu_deployments_of_the_real_map)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(
	    parse_file(&provider_litellm,
	               "../real/litellm/model_prices_and_context_window.2026-07-24.excerpt.json",
	               &n, NULL, &err),
	    PLANNER_OK);
	/* eu.anthropic.claude-haiku-4-5-20251001-v1:0: 1.1 / 5.5 per Mtok,
	 * cache read 0.11, cache creation 1.375; Bedrock's EU profile. */
	const struct api_price *h =
	    find_api(&n, "bedrock_converse/eu.anthropic.claude-haiku-4-5-20251001-v1:0");
	ck_assert_ptr_nonnull(h);
	ck_assert_double_eq_tol(h->cache_read_per_token * 1e6, 0.11, 1e-9);
	ck_assert_double_eq_tol(h->cache_write_per_token * 1e6, 1.375, 1e-9);
	ck_assert_str_eq(h->region_group, "eu");
	ck_assert_str_eq(h->country, "");
	ck_assert_str_eq(h->jurisdiction, "US");
	ck_assert_str_eq(h->currency, "USD");
	/* A Bedrock region in the id: eu-west-3 is Paris. */
	const struct api_price *b =
	    find_api(&n, "bedrock/eu-west-3/mistral.mistral-7b-instruct-v0:2");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->country, "FR");
	ck_assert_str_eq(b->region_group, "eu");
	/* Scaleway's numbers are its euro list prices (0.90 EUR). */
	const struct api_price *s = find_api(&n, "scaleway/meta/llama-3.3-70b-instruct");
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->currency, "EUR");
	ck_assert_str_eq(s->jurisdiction, "FR");
	ck_assert_double_eq_tol(s->input_per_token * 1e6, 0.9, 1e-9);
	ck_assert(s->cache_read_per_token == 0);
	/* A US host's model has no EU location. */
	const struct api_price *o = find_api(&n, "openai/gpt-5.1");
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->jurisdiction, "US");
	ck_assert_str_ne(o->region_group, "eu");
	norm_free(&n);
}
END_TEST

/* anthropic/claude-3-haiku in the recorded OpenRouter models of
 * 2026-08-01: 0.25 / 1.25 per Mtok, input_cache_read 0.03,
 * input_cache_write 0.3. */
static struct route_result cached_pick(const char *db, const char *request)
{
	struct route_result r;
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	char *yaml = xasprintf("version: 1\njobs:\n - {name: a, model: mistral-nemo-12b, context: "
	                       "8192, api_models: [anthropic/claude-3-haiku], %s"
	                       "tokens_per_month: {input: 100M, output: 1M}}\n",
	                       request);
	struct jobspec *spec = NULL;
	struct plan *p = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_msg(plan_compare(spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	r = p->jobs[0].routes[ROUTE_API];
	plan_free(p);
	jobspec_free(spec);
	store_close(st);
	free(yaml);
	return r;
}

START_TEST(a_cached_share_bills_cache_reads_and_writes_at_the_feeds_prices)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "openrouter", "real", NULL, &out, &err), 0);
	struct route_result r = cached_pick(db, "");
	ck_assert(r.feasible);
	ck_assert_double_eq_tol(r.monthly_cost, 100 * 0.25 + 1 * 1.25, 1e-6);
	ck_assert(r.cached_share == 0);
	/* 60 % read at 0.03, the other 40 % written once at 0.3. */
	r = cached_pick(db, "request: {cached_share: 0.6}, ");
	ck_assert(r.feasible);
	ck_assert_double_eq_tol(r.monthly_cost, 100 * (0.6 * 0.03 + 0.4 * 0.3) + 1.25, 1e-6);
	ck_assert_double_eq_tol(r.cache_read_per_mtok, 0.03, 1e-9);
	ck_assert_double_eq_tol(r.cache_write_per_mtok, 0.3, 1e-9);
	ck_assert_double_eq_tol(r.input_per_mtok, 0.25, 1e-9);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(offers_api_in_the_eu_lists_three_eu_hosts_from_the_snapshot)
{
	char *db = feed_db();
	const char *args[] = {"--api", "--region", "eu", "--limit", "0", NULL};
	cJSON *arr = feed_offers(db, args);
	bool mistral = false, scaleway = false, ovh = false, bedrock = false, eur = false;
	const cJSON *x;
	cJSON_ArrayForEach(x, arr)
	{
		const char *m = cJSON_GetObjectItem(x, "model")->valuestring;
		ck_assert_str_eq(cJSON_GetObjectItem(x, "region_group")->valuestring, "eu");
		mistral = mistral || !strncmp(m, "mistral/", 8);
		ovh = ovh || !strncmp(m, "ovhcloud/", 9);
		bedrock = bedrock || !strncmp(m, "bedrock_converse/eu.", 20);
		if (!strncmp(m, "scaleway/", 9)) {
			scaleway = true;
			eur = !strcmp(cJSON_GetObjectItem(x, "currency")->valuestring, "EUR");
		}
	}
	ck_assert(mistral && scaleway && ovh && bedrock && eur);
	cJSON_Delete(arr);
	free(db);
}
END_TEST

/* The api route's pick for a job on the recorded OpenRouter models,
 * whose prompts average `prompt` tokens: mistral-nemo-12b's window of
 * 1,024,000 (schema/models.json) lets the job be as long as the API
 * models'; api_models names the one priced. Returns the route. */
static struct route_result tier_pick(const char *db, const char *model, long context, long prompt)
{
	struct route_result r;
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(db, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	char *yaml =
	    xasprintf("version: 1\njobs:\n - {name: a, model: mistral-nemo-12b, context: %ld, "
	              "api_models: [%s], request: {input: %ld, output: 1000}, "
	              "tokens_per_month: {input: 100M, output: 1M}}\n",
	              context, model, prompt);
	struct jobspec *spec = NULL;
	struct plan *p = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_msg(plan_compare(spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	r = p->jobs[0].routes[ROUTE_API];
	plan_free(p);
	jobspec_free(spec);
	store_close(st);
	free(yaml);
	return r;
}

START_TEST(a_job_whose_prompts_are_past_a_tier_pays_the_tier_for_prompt_and_completion)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "openrouter", "real", NULL, &out, &err), 0);
	/* anthropic/claude-sonnet-4: 3/15 per Mtok; over 200000 prompt
	 * tokens 6/22.5 (pricing.overrides, 2026-08-01). */
	struct route_result r = tier_pick(db, "anthropic/claude-sonnet-4", 262144, 1000);
	ck_assert(r.feasible);
	ck_assert_double_eq_tol(r.input_per_mtok, 3.0, 1e-9);
	ck_assert_double_eq_tol(r.monthly_cost, 100 * 3.0 + 1 * 15.0, 1e-6);
	r = tier_pick(db, "anthropic/claude-sonnet-4", 262144, 250000);
	ck_assert(r.feasible);
	ck_assert_double_eq_tol(r.input_per_mtok, 6.0, 1e-9);
	ck_assert_double_eq_tol(r.output_per_mtok, 22.5, 1e-9);
	ck_assert_double_eq_tol(r.monthly_cost, 100 * 6.0 + 1 * 22.5, 1e-6);
	/* qwen/qwen3-max: two tiers, 32000 and 128000. */
	ck_assert_double_eq_tol(tier_pick(db, "qwen/qwen3-max", 262144, 20000).input_per_mtok, 0.78,
	                        1e-9);
	ck_assert_double_eq_tol(tier_pick(db, "qwen/qwen3-max", 262144, 100000).input_per_mtok,
	                        1.56, 1e-9);
	ck_assert_double_eq_tol(tier_pick(db, "qwen/qwen3-max", 262144, 200000).input_per_mtok,
	                        1.95, 1e-9);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(offers_api_shows_a_models_long_prompt_tiers)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "openrouter", "real", NULL, &out, &err), 0);
	const char *args[] = {"--api", "--model", "qwen/qwen3-max", NULL};
	cJSON *arr = feed_offers(db, args);
	ck_assert_int_eq(cJSON_GetArraySize(arr), 1);
	const cJSON *tiers = cJSON_GetObjectItem(cJSON_GetArrayItem(arr, 0), "long_prompt");
	ck_assert_int_eq(cJSON_GetArraySize(tiers), 2);
	ck_assert_double_eq_tol(pj_num(cJSON_GetArrayItem(tiers, 0), "above_tokens"), 32000, 0.5);
	ck_assert_double_eq_tol(pj_num(cJSON_GetArrayItem(tiers, 1), "input_per_mtok"), 1.95, 1e-9);
	ck_assert_double_eq_tol(pj_num(cJSON_GetArrayItem(tiers, 1), "output_per_mtok"), 9.75,
	                        1e-9);
	cJSON_Delete(arr);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(runpod_leaves_out_mig_slices_and_stores_the_new_blackwell_and_ada_parts)
{
	char *db = feed_db(), *out = NULL, *err = NULL;
	ck_assert_int_eq(feed_refresh(db, "runpod", "mig", NULL, &out, &err), 0);
	const char *q = "SELECT gpu FROM offers WHERE provider = 'runpod' AND offer = ?";
	char *g = test_query(db, q, "1x NVIDIA B300 SXM6 AC (secure)");
	ck_assert_str_eq(g, "B300");
	free(g);
	g = test_query(db, q, "8x NVIDIA B300 SXM6 AC (secure)");
	ck_assert_str_eq(g, "B300");
	free(g);
	g = test_query(db, q,
	               "1x NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition (secure)");
	ck_assert_str_eq(g, "RTX PRO 6000 Max-Q");
	free(g);
	g = test_query(db, q, "1x NVIDIA RTX 4000 SFF Ada Generation (secure)");
	ck_assert_str_eq(g, "RTX 4000 SFF Ada");
	free(g);
	ck_assert_int_eq(feed_count(db,
	                            "SELECT count(*) FROM offers WHERE provider = 'runpod' AND "
	                            "offer LIKE '%MIG%'",
	                            NULL),
	                 0);
	/* The two slices are counted as left out, not as unknown GPUs. */
	ck_assert_msg(strstr(out, "2 left out"), "%s", out);
	ck_assert_msg(!strstr(out, "MIG") && !strstr(err, "MIG"), "%s%s", out, err);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* --- end of issue 11, what was left --- */

Suite *providers_feeds_suite(void)
{
	Suite *s = suite_create("providers_feeds");
	add_apifeeds_tests(s);
	TCase *t = tcase_create("issue 11 api feeds over loopback");
	tcase_add_checked_fixture(t, feeds_start, feeds_stop);
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, openrouter_stores_only_models_that_write_text);
	tcase_add_test(t, litellm_stores_no_image_embedding_or_audio_only_entry_of_the_real_map);
	tcase_add_test(
	    t, litellm_reads_its_above_n_k_tokens_fields_as_tiers_and_not_the_priority_ones);
	tcase_add_test(t,
	               a_job_whose_prompts_are_past_a_tier_pays_the_tier_for_prompt_and_completion);
	tcase_add_test(t, offers_api_shows_a_models_long_prompt_tiers);
	tcase_add_test(t, litellm_keeps_cache_prices_euro_hosts_and_eu_deployments_of_the_real_map);
	tcase_add_test(t, a_cached_share_bills_cache_reads_and_writes_at_the_feeds_prices);
	tcase_add_test(t, offers_api_in_the_eu_lists_three_eu_hosts_from_the_snapshot);
	tcase_add_test(t, runpod_leaves_out_mig_slices_and_stores_the_new_blackwell_and_ada_parts);
	tcase_add_test(t, offers_term_lists_the_recorded_aws_and_azure_commitments_default_offers_none);
	suite_add_tcase(s, t);
	return s;
}
