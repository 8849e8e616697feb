/* check_providers.c — each adapter's parse on recorded payloads in the
 * feed's real shape (tests/fixtures/providers), with the edge cases of its
 * units and fields, and the normaliser they share. No network. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan.h"
#include "provider.h"
#include "testutil.h"

/* Parses a fixture file with p's parse into n; returns the parse status. */
static int parse_file(const struct provider *p, const char *file, struct norm *n, char **next,
		      char **err)
{
	char *path = NULL;
	size_t len = 0;
	char *body;
	norm_init(n, test_ref(), p->name);
	path = malloc(strlen(file) + 40);
	strcpy(path, "tests/fixtures/providers/");
	strcat(path, file);
	body = read_file(path, &len);
	ck_assert_msg(body != NULL, "cannot read %s", path);
	int rc = p->parse(n, body, len, next, err);
	free(body);
	free(path);
	return rc;
}

static const struct offer *find(const struct norm *n, const char *offer, const char *region,
				bool spot)
{
	for (size_t i = 0; i < n->n_offers; i++)
		if (!strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region) &&
		    n->offers[i].spot == spot)
			return &n->offers[i];
	return NULL;
}

static const struct api_price *find_api(const struct norm *n, const char *model)
{
	for (size_t i = 0; i < n->n_apis; i++)
		if (!strcmp(n->apis[i].model, model))
			return &n->apis[i];
	return NULL;
}

static bool unknown_has(const struct norm *n, const char *prefix)
{
	for (size_t i = 0; i < n->n_unknown; i++)
		if (!strncmp(n->unknown[i], prefix, strlen(prefix)))
			return true;
	return false;
}

#define CLOSE(a, b) ck_assert_msg(fabs((a) - (b)) < 1e-9, "%.10g != %.10g", (double)(a), (double)(b))

START_TEST(lambda_prices_are_cents_and_vram_comes_from_the_description)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_lambda, "lambda.json", &n, NULL, &err), PLANNER_OK);
	const struct offer *a = find(&n, "gpu_1x_a100_sxm4", "us-east-1", false);
	ck_assert_ptr_nonnull(a);
	CLOSE(a->price_per_hour, 1.29); /* 129 cents */
	ck_assert_str_eq(a->gpu, "A100 40GB");
	ck_assert_int_eq(a->gpu_count, 1);
	const struct offer *h = find(&n, "gpu_8x_h100_sxm5", "us-west-1", false);
	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(h->gpu_count, 8);
	ck_assert_str_eq(h->gpu, "H100 SXM");
	CLOSE(h->price_per_hour, 23.92); /* per instance, not per GPU */
	/* No gpu_description: the description alone names the part. */
	const struct offer *g = find(&n, "gpu_1x_gh200", "", false);
	ck_assert_ptr_nonnull(g);
	ck_assert(!g->available); /* no region has capacity */
	ck_assert(unknown_has(&n, "Z9000"));
	ck_assert_int_eq(n.skipped, 1); /* the null price */
	ck_assert_uint_eq(n.n_offers, 4);
	norm_free(&n);
}
END_TEST

START_TEST(a_lambda_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_lambda, "lambda.error.json", &n, NULL, &err),
			 PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "API key was invalid"));
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(vast_memory_is_mib_and_picks_the_right_a100)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_vast, "vast.json", &n, NULL, &err), PLANNER_OK);
	/* "A100 SXM4" with 40960 MiB is the 40 GB part, with 81920 the 80 GB. */
	ck_assert_str_eq(find(&n, "1002", "Texas, US", false)->gpu, "A100 40GB");
	const struct offer *big = find(&n, "1003", "Oslo, NO", false);
	ck_assert_str_eq(big->gpu, "A100 80GB");
	CLOSE(big->price_per_hour, 2.10); /* dph_total is the whole offer */
	ck_assert_int_eq(big->gpu_count, 2);
	/* min_bid is the interruptible price; 0 or null means none. */
	CLOSE(find(&n, "1003", "Oslo, NO", true)->price_per_hour, 1.2);
	CLOSE(find(&n, "1001", "Quebec, CA", true)->price_per_hour, 0.21);
	ck_assert_ptr_null(find(&n, "1004", "Virginia, US", true));
	ck_assert_ptr_null(find(&n, "1002", "Texas, US", true));
	/* A 48 GB "RTX 4090" is no part we know: reported, not guessed. */
	ck_assert(unknown_has(&n, "RTX 4090 (48 GiB)"));
	ck_assert(unknown_has(&n, "Quadro Z9"));
	ck_assert_ptr_null(find(&n, "1005", "Texas, US", false)); /* null gpu_name */
	ck_assert_ptr_null(find(&n, "1008", "Texas, US", false)); /* null price */
	ck_assert_uint_eq(n.n_offers, 6);
	norm_free(&n);
}
END_TEST

START_TEST(runpod_prices_are_per_gpu_and_multiplied_out)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_runpod, "runpod.json", &n, NULL, &err), PLANNER_OK);
	const struct offer *one = find(&n, "1x NVIDIA A100 80GB PCIe (secure)", "secure", false);
	const struct offer *eight = find(&n, "8x NVIDIA A100 80GB PCIe (secure)", "secure", false);
	ck_assert_str_eq(one->gpu, "A100 80GB");
	CLOSE(one->price_per_hour, 1.64);
	CLOSE(eight->price_per_hour, 8 * 1.64);
	CLOSE(find(&n, "1x NVIDIA A100 80GB PCIe (secure)", "secure", true)->price_per_hour, 0.82);
	/* null and 0 mean not offered; maxGpuCount bounds the pod sizes. */
	ck_assert_ptr_null(find(&n, "1x NVIDIA A100 80GB PCIe (community)", "community", true));
	ck_assert_ptr_null(find(&n, "1x NVIDIA H100 80GB HBM3 (community)", "community", false));
	ck_assert_ptr_null(find(&n, "4x NVIDIA GeForce RTX 4090 (secure)", "secure", false));
	ck_assert_ptr_nonnull(find(&n, "2x NVIDIA GeForce RTX 4090 (secure)", "secure", false));
	/* stockStatus null: listed, not available. */
	ck_assert(!find(&n, "1x NVIDIA H100 80GB HBM3 (secure)", "secure", false)->available);
	ck_assert(unknown_has(&n, "Z9000"));
	norm_free(&n);
}
END_TEST

START_TEST(runpod_errors_with_status_200_are_errors)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_runpod, "runpod.error.json", &n, NULL, &err),
			 PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "Something went wrong"));
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(azure_keeps_linux_pay_as_you_go_and_spot_and_gives_the_next_page)
{
	struct norm n;
	char *err = NULL, *next = NULL;
	ck_assert_int_eq(parse_file(&provider_azure, "azure.json", &n, &next, &err), PLANNER_OK);
	CLOSE(find(&n, "Standard_NC24ads_A100_v4", "eastus", false)->price_per_hour, 3.673);
	CLOSE(find(&n, "Standard_NC24ads_A100_v4", "eastus", true)->price_per_hour, 0.9183);
	ck_assert_str_eq(find(&n, "Standard_NC24ads_A100_v4", "eastus", false)->gpu, "A100 80GB");
	/* Windows, Low Priority, DevTest and CPU-only sizes are left out. */
	ck_assert_uint_eq(n.n_offers, 3);
	ck_assert(unknown_has(&n, "Standard_NC99zz_Z9_v9"));
	ck_assert_ptr_nonnull(next);
	ck_assert_ptr_nonnull(strstr(next, "$skip=1000"));
	free(next);
	norm_free(&n);
	next = NULL;
	ck_assert_int_eq(parse_file(&provider_azure, "azure.skip1000.json", &n, &next, &err),
			 PLANNER_OK);
	const struct offer *h = find(&n, "Standard_ND96isr_H100_v5", "westeurope", false);
	ck_assert_int_eq(h->gpu_count, 8);
	ck_assert_uint_eq(n.n_offers, 1); /* fractional A10 and the 0 price dropped */
	free(next);
	norm_free(&n);
	next = NULL;
	ck_assert_int_eq(parse_file(&provider_azure, "azure.skip2000.json", &n, &next, &err),
			 PLANNER_OK);
	ck_assert_ptr_null(next); /* NextPageLink null ends the feed */
	ck_assert_str_eq(n.offers[0].gpu, "A100 40GB");
	norm_free(&n);
}
END_TEST

START_TEST(gcp_prices_are_units_plus_nanos_per_gpu_hour)
{
	struct norm n;
	char *err = NULL, *next = NULL;
	ck_assert_int_eq(parse_file(&provider_gcp, "gcp.json", &n, &next, &err), PLANNER_OK);
	const struct offer *a = find(&n, "1x Nvidia Tesla A100 (039F-D0DA-4055)", "us-east1", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "A100 40GB");
	CLOSE(a->price_per_hour, 2.933908);
	CLOSE(find(&n, "8x Nvidia Tesla A100 (039F-D0DA-4055)", "us-central1", false)->price_per_hour,
	      8 * 2.933908);
	const struct offer *t4 = find(&n, "1x Nvidia Tesla T4 (0A34-AC5C-7BA2)", "us-central1", true);
	ck_assert_ptr_nonnull(t4); /* Preemptible is spot */
	CLOSE(t4->price_per_hour, 0.11);
	/* Commit1Yr and non-GPU SKUs are left out: 2 regions × 4 + 1 × 4. */
	ck_assert_uint_eq(n.n_offers, 12);
	ck_assert_str_eq(next, "page2");
	free(next);
	norm_free(&n);
	next = NULL;
	ck_assert_int_eq(parse_file(&provider_gcp, "gcp.page2.json", &n, &next, &err), PLANNER_OK);
	ck_assert_ptr_null(next);
	CLOSE(find(&n, "1x Nvidia H100 80GB (0D33-3333-3333)", "us-central1", false)->price_per_hour,
	      11.060822);
	/* units as a JSON number instead of a string is read the same. */
	CLOSE(find(&n, "1x Nvidia L4 (0E44-4444-4444)", "europe-west4", false)->price_per_hour,
	      0.644046);
	ck_assert(unknown_has(&n, "Nvidia Tesla P4 Virtual Workstation"));
	norm_free(&n);
}
END_TEST

START_TEST(openrouter_prices_are_decimal_strings_per_token)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_openrouter, "openrouter.json", &n, NULL, &err),
			 PLANNER_OK);
	const struct api_price *m = find_api(&n, "openai/gpt-4o-mini");
	CLOSE(m->input_per_token, 0.15e-6);
	CLOSE(m->output_per_token, 0.6e-6);
	ck_assert_int_eq(m->context, 128000);
	/* :free tasters, "-1" routers, null and non-numeric pricing: left out. */
	ck_assert_ptr_null(find_api(&n, "meta-llama/llama-3.1-8b-instruct:free"));
	ck_assert_ptr_null(find_api(&n, "openrouter/auto"));
	ck_assert_ptr_null(find_api(&n, "broken/no-pricing"));
	ck_assert_ptr_null(find_api(&n, "broken/not-a-number"));
	ck_assert_uint_eq(n.n_apis, 3);
	norm_free(&n);
}
END_TEST

START_TEST(litellm_prices_are_floats_per_token_and_get_a_vendor)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_litellm, "litellm.json", &n, NULL, &err), PLANNER_OK);
	CLOSE(find_api(&n, "openai/gpt-4o-mini")->input_per_token, 1.5e-7);
	CLOSE(find_api(&n, "anthropic/claude-3-5-sonnet-20241022")->output_per_token, 1.5e-5);
	ck_assert_ptr_nonnull(find_api(&n, "bedrock/anthropic.claude-3-haiku-20240307-v1:0"));
	ck_assert_ptr_null(find_api(&n, "sample_spec"));
	ck_assert_ptr_null(find_api(&n, "openai/text-embedding-3-small")); /* embedding */
	ck_assert_ptr_null(find_api(&n, "openai/gpt-no-output-price"));
	ck_assert_uint_eq(n.n_apis, 4);
	norm_free(&n);
}
END_TEST

START_TEST(aws_keeps_only_linux_shared_on_demand_gpu_rows)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_aws, "aws.csv", &n, NULL, &err), PLANNER_OK);
	const struct offer *p5 = find(&n, "p5.48xlarge", "us-east-1", false);
	ck_assert_ptr_nonnull(p5);
	CLOSE(p5->price_per_hour, 98.32);
	ck_assert_int_eq(p5->gpu_count, 8);
	ck_assert_str_eq(p5->gpu, "H100 SXM");
	CLOSE(p5->ram_gib, 2048);
	CLOSE(p5->vcpus, 192);
	/* A quoted value with "" inside does not shift the columns. */
	CLOSE(find(&n, "g5.xlarge", "us-east-1", false)->price_per_hour, 1.006);
	ck_assert_str_eq(find(&n, "p4de.24xlarge", "us-east-1", false)->gpu, "A100 80GB");
	ck_assert_str_eq(find(&n, "g6e.12xlarge", "us-east-1", false)->gpu, "L40S");
	/* Reserved, Windows, Dedicated, reservations, SQL images, capacity
	 * blocks and CPU instances are left out; an AMD family is reported. */
	ck_assert_uint_eq(n.n_offers, 4);
	ck_assert(unknown_has(&n, "g4ad.xlarge"));
	norm_free(&n);
}
END_TEST

static char *aws_fixture(size_t *len)
{
	char *body = read_file("tests/fixtures/providers/aws.csv", len);
	ck_assert_ptr_nonnull(body);
	return body;
}

START_TEST(the_aws_csv_parses_the_same_in_chunks_of_any_size)
{
	size_t len;
	char *body = aws_fixture(&len);
	static const size_t sizes[] = {1, 2, 7, 64, 1000, 100000};
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct norm n;
		char *err = NULL;
		norm_init(&n, test_ref(), "aws");
		struct aws_csv *a = aws_csv_new(&n, "us-east-1");
		for (size_t off = 0; off < len; off += sizes[s]) {
			size_t k = len - off < sizes[s] ? len - off : sizes[s];
			ck_assert(aws_csv_feed(a, body + off, k, &err));
		}
		ck_assert(aws_csv_finish(a, &err));
		ck_assert_uint_eq(n.n_offers, 4);
		CLOSE(find(&n, "p5.48xlarge", "us-east-1", false)->price_per_hour, 98.32);
		aws_csv_free(a);
		norm_free(&n);
	}
	free(body);
}
END_TEST

START_TEST(aws_memory_does_not_grow_with_the_file)
{
	size_t len;
	char *body = aws_fixture(&len);
	/* The preamble and header once, then the data rows 20,000 times
	 * (about 20 MB), fed in 64 KiB chunks as libcurl would. */
	char *rows = strstr(body, "\"ABCDEFGH");
	ck_assert_ptr_nonnull(rows);
	size_t head = (size_t)(rows - body), rl = len - head;
	struct norm n;
	char *err = NULL;
	norm_init(&n, test_ref(), "aws");
	struct aws_csv *a = aws_csv_new(&n, "us-east-1");
	ck_assert(aws_csv_feed(a, body, head, &err));
	size_t chunk = 65536, total = 0;
	char *buf = malloc(chunk + rl);
	size_t have = 0;
	for (int i = 0; i < 20000; i++) {
		memcpy(buf + have, rows, rl);
		have += rl;
		if (have >= chunk) {
			ck_assert(aws_csv_feed(a, buf, chunk, &err));
			memmove(buf, buf + chunk, have - chunk);
			have -= chunk;
			total += chunk;
		}
	}
	ck_assert(aws_csv_feed(a, buf, have, &err));
	ck_assert(aws_csv_finish(a, &err));
	ck_assert_uint_gt(total, 10u << 20);
	ck_assert_uint_eq(aws_csv_rows(a), 20000u * 12);
	/* One partial line at a time: a few KiB, whatever the file size. */
	ck_assert_uint_le(aws_csv_peak_buffer(a), 8192);
	aws_csv_free(a);
	free(buf);
	free(body);
	norm_free(&n);
}
END_TEST

START_TEST(a_file_without_the_header_row_is_not_the_price_list)
{
	struct norm n;
	char *err = NULL;
	norm_init(&n, test_ref(), "aws");
	const char *html = "<html><body>Access Denied</body></html>\n";
	ck_assert_int_eq(provider_aws.parse(&n, html, strlen(html), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "not the EC2 price list"));
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(html_and_broken_json_are_named_as_such)
{
	struct norm n;
	char *err = NULL;
	const char *html = "\n  <!DOCTYPE html><html>502</html>";
	const char *cut = "{\"offers\": [{\"id\": 1, \"gpu_na";
	norm_init(&n, test_ref(), "vast");
	ck_assert_int_eq(provider_vast.parse(&n, html, strlen(html), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "HTML"));
	ck_assert_int_eq(provider_vast.parse(&n, cut, strlen(cut), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "not valid JSON"));
	ck_assert_int_eq(provider_vast.parse(&n, "", 0, NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "empty"));
	/* Valid JSON of the wrong shape is an error too, not zero offers. */
	ck_assert_int_eq(provider_vast.parse(&n, "[1,2]", 5, NULL, &err), PLANNER_ENET);
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(the_normaliser_multiplies_per_gpu_prices_and_keeps_the_parts_memory)
{
	struct norm n;
	norm_init(&n, test_ref(), "x");
	struct raw_offer r = {.offer = "o", .gpu_name = "NVIDIA H100 80GB HBM3", .gpu_count = 4,
			      .vram_gib = 80 * 1e9 / 1073741824.0, .price = 2.5, .per_gpu = true};
	ck_assert(norm_offer(&n, &r));
	CLOSE(n.offers[0].price_per_hour, 10.0);
	ck_assert_str_eq(n.offers[0].gpu, "H100 SXM");
	CLOSE(n.offers[0].vram_gib, refdata_gpu(test_ref(), "H100 SXM")->vram_gib);
	/* A V100 stated with 32 GB is the 32 GB part, not the 16. */
	r.gpu_name = "V100";
	r.vram_gib = 32;
	ck_assert(norm_offer(&n, &r));
	ck_assert_str_eq(n.offers[1].gpu, "V100 32GB");
	/* Zero price, zero count, no name: dropped and counted. */
	r.price = 0;
	ck_assert(!norm_offer(&n, &r));
	r.price = 1;
	r.gpu_count = 0;
	ck_assert(!norm_offer(&n, &r));
	ck_assert_uint_eq(n.skipped, 2);
	ck_assert(!norm_api(&n, "a/b", -1, 0, 0));
	ck_assert(norm_api(&n, "a/b", 0, 0, 0)); /* free is a price */
	norm_free(&n);
	norm_free(NULL);
}
END_TEST

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
	char *env[32];
	size_t e = 0;
	for (size_t i = 0; provider_list[i] && e < 16; i++) {
		char var[64];
		provider_url_env(provider_list[i], var, sizeof var);
		env[e++] = xasprintf("%s=http://127.0.0.1:%d/%s", var, feeds.port,
				     strstr(name, provider_list[i]->name) ? scen : "ok");
	}
	const char *fixed[] = {"PLANNER_HTTP_RETRIES=1", "PLANNER_HTTP_BACKOFF_MS=1",
			       "PLANNER_HTTP_MAX_WAIT_MS=5", "PLANNER_HTTP_TIMEOUT_MS=5000"};
	for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
		env[e++] = xasprintf("%s", fixed[i]);
	for (size_t i = 0; extra && extra[i] && e < 31; i++)
		env[e++] = xasprintf("%s", extra[i]);
	env[e] = NULL;
	const char *argv[] = {"refresh", "--db", db, "--provider", name, NULL};
	int rc = test_run_planner(argv, (const char *const *)env, out, err);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
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
	 * id, 4 (wandb/…) are above NORM_MAX_PRICE_PER_TOKEN. */
	ck_assert_int_eq(feed_count(db,
				    "SELECT count(*) FROM api_prices WHERE provider = 'litellm'",
				    NULL),
			 1100);
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
	ck_assert_uint_eq(a.n_apis, 1100);
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

START_TEST(openrouter_on_real_data_lists_no_zero_price_or_alias_and_keeps_tier_limits)
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
	/* The base tier, valid up to the first override's min_prompt_tokens. */
	const char *ctx = "SELECT context FROM api_prices WHERE model = ?";
	ck_assert_int_eq(feed_count(db, ctx, "anthropic/claude-sonnet-4"), 200000);
	ck_assert_int_eq(feed_count(db, ctx, "qwen/qwen3-max"), 32000);
	char *in = test_query(db, "SELECT input_per_token * 1e6 FROM api_prices WHERE model = ?",
			      "anthropic/claude-sonnet-4");
	ck_assert_msg(fabs(atof(in) - 3.0) < 1e-6, "%s", in);
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
	struct http_opts o;
	struct http_response resp;
	char *url = xasprintf("http://127.0.0.1:%d/_log/ok-nokey", feeds.port), *e2 = NULL;
	struct http_request req = {.url = url};
	http_opts_init(&o);
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &e2), PLANNER_OK);
	ck_assert_ptr_nonnull(strstr(resp.body.data, "/graphql"));
	ck_assert_ptr_null(strstr(resp.body.data, "Bearer"));
	http_response_free(&resp);
	free(url);
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
	struct http_opts o;
	struct http_response resp;
	char *url = xasprintf("http://127.0.0.1:%d/_log/verify", feeds.port), *e2 = NULL;
	struct http_request req = {.url = url};
	http_opts_init(&o);
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &e2), PLANNER_OK);
	ck_assert_ptr_nonnull(strstr(resp.body.data, "\\\"verified\\\":{\\\"eq\\\":true}"));
	ck_assert_ptr_nonnull(strstr(resp.body.data, "\\\"external\\\":{\\\"eq\\\":false}"));
	http_response_free(&resp);
	free(url);
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
	tcase_add_test(t, offers_api_honours_provider);
	tcase_add_test(t, openrouter_on_real_data_lists_no_zero_price_or_alias_and_keeps_tier_limits);
	tcase_add_test(t, runpod_refreshes_without_a_key_and_sends_none);
	tcase_add_test(t, a_missing_needed_key_names_its_variable_once_and_the_rest_refreshes);
	tcase_add_test(t, runpod_stock_of_one_gpu_is_not_copied_to_larger_pods);
	tcase_add_test(t, vast_asks_for_and_keeps_only_verified_non_external_hosts);
	tcase_add_test(t, lambda_uses_the_production_host_of_lambdas_openapi_document);
	tcase_add_test(t, lambda_on_the_recorded_price_book_stores_its_b200_and_gh200_rows);
	tcase_add_test(t, the_api_route_finds_hosted_copies_and_skips_a_price_shorter_than_the_job);
	suite_add_tcase(s, t);
}
/* --- end of issue 11, API feeds block --- */

Suite *providers_suite(void)
{
	Suite *s = suite_create("providers");
	TCase *t = tcase_create("parsers");
	tcase_add_test(t, lambda_prices_are_cents_and_vram_comes_from_the_description);
	tcase_add_test(t, a_lambda_error_object_is_an_error_with_its_message);
	tcase_add_test(t, vast_memory_is_mib_and_picks_the_right_a100);
	tcase_add_test(t, runpod_prices_are_per_gpu_and_multiplied_out);
	tcase_add_test(t, runpod_errors_with_status_200_are_errors);
	tcase_add_test(t, azure_keeps_linux_pay_as_you_go_and_spot_and_gives_the_next_page);
	tcase_add_test(t, gcp_prices_are_units_plus_nanos_per_gpu_hour);
	tcase_add_test(t, openrouter_prices_are_decimal_strings_per_token);
	tcase_add_test(t, litellm_prices_are_floats_per_token_and_get_a_vendor);
	tcase_add_test(t, html_and_broken_json_are_named_as_such);
	tcase_add_test(t, the_normaliser_multiplies_per_gpu_prices_and_keeps_the_parts_memory);
	suite_add_tcase(s, t);
	t = tcase_create("aws stream");
	tcase_add_test(t, aws_keeps_only_linux_shared_on_demand_gpu_rows);
	tcase_add_test(t, the_aws_csv_parses_the_same_in_chunks_of_any_size);
	tcase_add_test(t, aws_memory_does_not_grow_with_the_file);
	tcase_add_test(t, a_file_without_the_header_row_is_not_the_price_list);
	suite_add_tcase(s, t);
	add_apifeeds_tests(s);
	return s;
}
