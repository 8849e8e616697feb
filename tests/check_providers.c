/* check_providers.c — each adapter's parse on recorded payloads in the
 * feed's real shape (tests/fixtures/providers), with the edge cases of its
 * units and fields, the AWS price list's stream reader, the normaliser
 * and the helpers of provider.c they share. No network. Over loopback:
 * check_providers_cloud.c (the cloud adapters' fetches) and
 * check_providers_feeds.c (refreshes of the API and GPU feeds); the
 * streaming JSON readers: check_providers_stream.c. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws.h"
#include "provider.h"
#include "providers_util.h"
#include "testutil.h"

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
	const struct offer *one = find(&n, "1x NVIDIA A100 80GB PCIe (secure)", "", false);
	const struct offer *eight = find(&n, "8x NVIDIA A100 80GB PCIe (secure)", "", false);
	ck_assert_str_eq(one->gpu, "A100 80GB");
	/* secure/community is RunPod's tier, not a region (issue 11). */
	ck_assert_str_eq(one->tier, "secure");
	CLOSE(one->price_per_hour, 1.64);
	CLOSE(eight->price_per_hour, 8 * 1.64);
	CLOSE(find(&n, "1x NVIDIA A100 80GB PCIe (secure)", "", true)->price_per_hour, 0.82);
	/* null and 0 mean not offered; maxGpuCount bounds the pod sizes. */
	ck_assert_ptr_null(find(&n, "1x NVIDIA A100 80GB PCIe (community)", "", true));
	ck_assert_ptr_null(find(&n, "1x NVIDIA H100 80GB HBM3 (community)", "", false));
	ck_assert_ptr_null(find(&n, "4x NVIDIA GeForce RTX 4090 (secure)", "", false));
	ck_assert_ptr_nonnull(find(&n, "2x NVIDIA GeForce RTX 4090 (secure)", "", false));
	/* stockStatus null: listed, not available. */
	ck_assert(!find(&n, "1x NVIDIA H100 80GB HBM3 (secure)", "", false)->available);
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

START_TEST(gcp_prices_a_vm_from_its_gpu_core_and_ram_skus_in_units_plus_nanos)
{
	struct norm n;
	char *err = NULL, *next = NULL;
	ck_assert_int_eq(parse_file(&provider_gcp, "gcp.json", &n, &next, &err), PLANNER_OK);
	const struct offer *a = find(&n, "a2-highgpu-1g", "us-east1", false);
	ck_assert_ptr_nonnull(a);
	ck_assert_str_eq(a->gpu, "A100 40GB");
	CLOSE(a->price_per_hour, 2.933908 + 12 * 0.031611 + 85 * 0.004237);
	CLOSE(find(&n, "a2-highgpu-8g", "us-central1", false)->price_per_hour,
	      8 * 2.933908 + 96 * 0.031611 + 680 * 0.004237);
	const struct offer *t4 = find(&n, "n1-standard-8 + 1x T4", "us-central1", true);
	ck_assert_ptr_nonnull(t4); /* Preemptible is spot */
	CLOSE(t4->price_per_hour, 0.11 + 8 * 0.01 + 30 * 0.001);
	/* 2 regions × 5 A2 shapes + 3 N1 T4 shapes; the Commit1Yr T4 SKU has
	 * no N1 core/RAM commitment beside it, so no term. */
	ck_assert_uint_eq(n.n_offers, 13);
	ck_assert_uint_eq(n.n_terms, 0);
	ck_assert_str_eq(next, "page2");
	free(next);
	norm_free(&n);
	next = NULL;
	ck_assert_int_eq(parse_file(&provider_gcp, "gcp.page2.json", &n, &next, &err), PLANNER_OK);
	ck_assert_ptr_null(next);
	/* The A3 core SKU is on the first page: this page alone cannot price A3. */
	ck_assert_ptr_null(find(&n, "a3-highgpu-8g", "us-central1", false));
	/* units as a JSON number instead of a string is read the same. */
	CLOSE(find(&n, "g2-standard-4", "europe-west4", false)->price_per_hour,
	      0.644046 + 4 * 0.02 + 16 * 0.0025);
	ck_assert_int_eq(find(&n, "g2-standard-96", "europe-west4", false)->gpu_count, 8);
	ck_assert(unknown_has(&n, "Nvidia Tesla P4 Virtual Workstation"));
	ck_assert_uint_eq(n.n_offers, 8);
	norm_free(&n);
}
END_TEST

START_TEST(a_cache_price_out_of_bounds_is_counted_and_the_row_keeps_none)
{
	/* The shape of a row of OpenRouter's recorded models, with a cached
	 * read priced 5 USD a token (no feed's real price) and a good write. */
	const char *body =
	    "{\"data\":[{\"id\":\"x/model-a\",\"context_length\":8192,"
	    "\"architecture\":{\"modality\":\"text->text\"},"
	    "\"pricing\":{\"prompt\":\"0.000001\",\"completion\":\"0.000002\","
	    "\"input_cache_read\":\"5\",\"input_cache_write\":\"0.00000125\"}},"
	    "{\"id\":\"x/model-b\",\"context_length\":8192,"
	    "\"architecture\":{\"modality\":\"text->text\"},"
	    "\"pricing\":{\"prompt\":\"0.000001\",\"completion\":\"0.000002\","
	    "\"input_cache_read\":\"0.0000001\"}}]}";
	struct norm n;
	char *err = NULL;
	norm_init(&n, test_ref(), "openrouter");
	ck_assert_int_eq(provider_openrouter.parse(&n, body, strlen(body), NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(n.n_apis, 2);
	const struct api_price *a = find_api(&n, "x/model-a"), *b = find_api(&n, "x/model-b");
	ck_assert(a->cache_read_per_token == 0);
	CLOSE(a->cache_write_per_token, 1.25e-6);
	ck_assert_uint_eq(n.implausible, 1);
	CLOSE(b->cache_read_per_token, 1e-7);
	ck_assert(b->cache_write_per_token == 0);
	ck_assert_str_eq(b->currency, "USD");
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
	 * blocks and CPU instances are left out; the AMD family is kept. */
	ck_assert_uint_eq(n.n_offers, 5);
	ck_assert_str_eq(find(&n, "g4ad.xlarge", "us-east-1", false)->gpu, "Radeon Pro V520");
	ck_assert_uint_eq(n.n_unknown, 0);
	norm_free(&n);
}
END_TEST

/* The field walk skips columns without reading them (aws.c): a GPU row
 * whose values are bare, or whose skipped text holds commas and ""
 * escapes, is still kept with the same columns. */
START_TEST(aws_keeps_a_gpu_row_with_bare_values_or_quoted_commas)
{
	size_t len;
	char *body = read_file("tests/fixtures/providers/aws.csv", &len);
	char *row = strstr(body, "\n\"ABCDEFGH12345678\"");
	ck_assert_ptr_nonnull(row);
	char *eol = strchr(row + 1, '\n');
	*eol = '\0';
	char *bare = strdup(row + 1), *w = bare;
	for (const char *r = row + 1; *r; r++)
		if (*r != '"')
			*w++ = *r;
	*w = '\0';
	const char *desc = "\"$x per On Demand Linux instance Hour\"";
	char *at = strstr(row + 1, desc);
	ck_assert_ptr_nonnull(at);
	*at = '\0';
	char *docs[2] = {
	    xasprintf("%.*s\n%s\n", (int)(row - body), body, bare),
	    xasprintf("%.*s\n%s\"a, \"\"b\"\", c,,\"\"\"\"\"%s\n", (int)(row - body), body, row + 1,
	              at + strlen(desc))};
	for (int v = 0; v < 2; v++) {
		struct norm n;
		char *err = NULL;
		norm_init(&n, test_ref(), "aws");
		ck_assert_int_eq(provider_aws.parse(&n, docs[v], strlen(docs[v]), NULL, &err), PLANNER_OK);
		ck_assert_uint_eq(n.n_offers, 1);
		CLOSE(n.offers[0].price_per_hour, 98.32);
		ck_assert_int_eq(n.offers[0].gpu_count, 8);
		ck_assert_str_eq(n.offers[0].gpu, "H100 SXM");
		norm_free(&n);
		free(docs[v]);
	}
	free(bare);
	free(body);
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
		ck_assert_uint_eq(n.n_offers, 5);
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
	struct counting_sink counted = {0};
	const struct norm_sink sink = {.put = count_put, .ud = &counted};
	/* The preamble and header once, then the data rows 20,000 times
	 * (about 20 MB), fed in 64 KiB chunks as libcurl would. */
	char *rows = strstr(body, "\"ABCDEFGH");
	ck_assert_ptr_nonnull(rows);
	size_t head = (size_t)(rows - body), rl = len - head;
	struct norm n;
	char *err = NULL;
	norm_init(&n, test_ref(), "aws");
	n.sink = &sink;
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
	/* And the GPU rows went on to the sink a batch at a time, a batch at
	 * most held. */
	ck_assert_uint_gt(counted.rows, 100u * NORM_FLUSH_ROWS);
	ck_assert_uint_le(counted.largest, NORM_FLUSH_ROWS);
	ck_assert_uint_lt(n.n_offers, NORM_FLUSH_ROWS);
	ck_assert_uint_eq(counted.rows + n.n_offers, norm_offers_total(&n));
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

/* The recorded catalogue (tests/fixtures/real/scaleway, captured
 * 2026-10-01): EUR per instance-hour as published, memory in bytes, CPU
 * types passed over, the P100 of RENDER-S unknown to the GPU table. */
START_TEST(scaleway_prices_are_eur_per_instance_hour_and_memory_is_bytes)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_scaleway, "scaleway.json", &n, NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 6);
	const struct offer *l4 = find(&n, "L4-1-24G", "", false);
	ck_assert_ptr_nonnull(l4);
	ck_assert_str_eq(l4->gpu, "L4");
	ck_assert_str_eq(l4->currency, "EUR");
	ck_assert_int_eq(l4->gpu_count, 1);
	CLOSE(l4->price_per_hour, 0.7875);
	CLOSE(l4->vcpus, 8);
	CLOSE(l4->ram_gib, 48); /* 51539607552 bytes */
	const struct offer *h8 = find(&n, "H100-SXM-8-80G", "", false);
	ck_assert_ptr_nonnull(h8);
	ck_assert_str_eq(h8->gpu, "H100 SXM");
	ck_assert_int_eq(h8->gpu_count, 8);
	CLOSE(h8->price_per_hour, 25.3308); /* the instance's, not a GPU's */
	ck_assert_str_eq(find(&n, "H100-1-80G", "", false)->gpu, "H100 PCIe");
	ck_assert_ptr_null(find(&n, "DEV1-S", "", false));
	ck_assert(unknown_has(&n, "P100"));
	ck_assert_uint_eq(n.skipped, 0);
	norm_free(&n);
}
END_TEST

/* A payload of gpuhunt's documented /plans shape (no real response is
 * public; tests/fixtures/real/seeweb/PROVENANCE.md): EUR per
 * instance-hour, ram in MiB, counts as strings, a row per region; CPU
 * plans passed over, an inactive plan left out and counted, a Tenstorrent
 * card unknown to the GPU table. */
START_TEST(seeweb_plans_are_eur_per_instance_hour_one_row_per_region)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_seeweb, "seeweb.json", &n, NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 8); /* L4 x3 regions, L40S, A100, H100 x2, H200 */
	const struct offer *l4 = find(&n, "ECS1GPU6", "ch-lug1", false);
	ck_assert_ptr_nonnull(l4);
	ck_assert_str_eq(l4->gpu, "L4");
	ck_assert_str_eq(l4->currency, "EUR");
	CLOSE(l4->price_per_hour, 0.38);
	CLOSE(l4->ram_gib, 32); /* "32768" MiB */
	CLOSE(l4->vcpus, 4);
	ck_assert_str_eq(l4->country, "CH");
	const struct offer *a100 = find(&n, "ECS2GPU3", "it-fr2", false);
	ck_assert_ptr_nonnull(a100);
	ck_assert_int_eq(a100->gpu_count, 2);
	CLOSE(a100->price_per_hour, 1.98); /* the instance's, not a GPU's */
	CLOSE(a100->ram_gib, 240);
	ck_assert_str_eq(a100->region_group, "eu");
	const struct offer *h200 = find(&n, "ECS8GPU10", "it-fr2", false);
	ck_assert_ptr_nonnull(h200);
	ck_assert_str_eq(h200->gpu, "H200");
	ck_assert_int_eq(h200->gpu_count, 8);
	ck_assert_str_eq(find(&n, "ECS1GPU7", "it-fr2", false)->gpu, "L40S"); /* "L40s 48GB" */
	ck_assert_ptr_nonnull(find(&n, "ECS1GPU8", "bg-sof1", false));
	ck_assert_ptr_null(find(&n, "eCS4", "it-fr2", false));
	ck_assert_ptr_null(find(&n, "ECS1GPU2", "it-fr2", false)); /* available: false */
	ck_assert_uint_eq(n.skipped, 1);
	ck_assert(unknown_has(&n, "Tenstorrent Grayskull e150"));
	norm_free(&n);
	const char *body = "{\"status\": \"KO\", \"message\": \"Invalid token\"}";
	norm_init(&n, test_ref(), "seeweb");
	ck_assert_int_eq(provider_seeweb.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "seeweb says: Invalid token"));
	free(err);
	norm_free(&n);
}
END_TEST

/* A payload of the documented hostnodes shape (no real response is
 * public; tests/fixtures/real/tensordock/PROVENANCE.md): per-unit USD
 * prices per hour summed over gpuhunt's balanced configuration, VRAM and
 * RAM in GB, a row per node, model and GPU count, the region the country
 * name. An offline node is left out and counted; a model with none free is
 * passed over; a Quadro unknown to the GPU table is named. */
START_TEST(tensordock_sums_per_unit_usd_prices_over_a_balanced_configuration)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_file(&provider_tensordock, "tensordock.json", &n, NULL, &err),
			 PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 8); /* RTX 3080 x1; L40 x1, 2, 4, 8; H100 x1, 2, 4 */
	const char *l40 = "7d3a07b6-de25-44a2-a9f4 1cd241fa0d0f 1x l40-pcie-48gb";
	const struct offer *o = find(&n, l40, "germany", false);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->gpu, "L40");
	ck_assert_str_eq(o->currency, "USD");
	ck_assert_str_eq(o->country, "DE");
	ck_assert_str_eq(o->region_group, "eu");
	/* gpuhunt's test: 16 vCPUs, 96 GB RAM, 96 GB disk for one of eight L40 */
	CLOSE(o->price_per_hour, 1.05 + 16 * 0.003 + 96 * 0.002 + 96 * 5e-05);
	CLOSE(o->vcpus, 16);
	CLOSE(o->ram_gib, 96e9 / 1073741824.0);
	o = find(&n, "7d3a07b6-de25-44a2-a9f4 1cd241fa0d0f 8x l40-pcie-48gb", "germany", false);
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(o->gpu_count, 8);
	CLOSE(o->price_per_hour, 8 * 1.05 + 128 * 0.003 + 768 * 0.002 + 768 * 5e-05);
	/* No vram field: 10 GB from the model id; the whole node's one GPU. */
	o = find(&n, "02c65d45-6da5-4232-a8db ee0e5bc76110 1x geforcertx3080-pcie-10gb", "canada",
		 false);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->gpu, "RTX 3080");
	ck_assert_str_eq(o->country, "CA");
	CLOSE(o->price_per_hour, 0.15 + 4 * 0.003 + 20 * 0.002 + 20 * 0.00005);
	/* Three quarters of the node for one of four H100: 160 GB RAM, 28 vCPUs. */
	o = find(&n, "84352cea-7bc8-4859-8a5c d173a98ca236 1x h100-sxm5-80gb", "unitedstates",
		 false);
	ck_assert_ptr_nonnull(o);
	ck_assert_str_eq(o->gpu, "H100 SXM");
	ck_assert_str_eq(o->country, "US");
	CLOSE(o->price_per_hour, 2.8 + 28 * 0.01 + 160 * 0.005 + 160 * 0.0001);
	ck_assert_ptr_null(find(&n, "84352cea-7bc8-4859-8a5c d173a98ca236 1x geforcertx4090-pcie-24gb",
				"unitedstates", false));
	ck_assert_ptr_null(find(&n, "8db2ec46-c094-4262-bc7e 6c76617f4237 1x a100-pcie-80gb",
				"unitedstates", false)); /* online: false */
	ck_assert_uint_eq(n.skipped, 1);
	ck_assert(unknown_has(&n, "quadrortx8000"));
	norm_free(&n);
	ck_assert_int_eq(parse_file(&provider_tensordock, "tensordock.error.json", &n, NULL, &err),
			 PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "tensordock says: Internal server error"));
	free(err);
	norm_free(&n);
}
END_TEST

START_TEST(a_scaleway_error_object_is_an_error_with_its_message)
{
	struct norm n;
	char *err = NULL;
	const char *body = "{\"message\": \"zone not found\", \"type\": \"not_found\"}";
	norm_init(&n, test_ref(), "scaleway");
	ck_assert_int_eq(provider_scaleway.parse(&n, body, strlen(body), NULL, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "scaleway says: zone not found"));
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

/* provider_says: the error text of the keyed feeds' error bodies, the
 * first of "message", "error" and "error"."message"; else the fixed text. */
START_TEST(an_error_body_says_its_message_in_a_fixed_order_else_what_is_missing)
{
	static const struct {
		const char *body, *want;
	} cases[] = {
	    {"{\"message\": \"m\", \"error\": \"e\"}", "feed says: m"},
	    {"{\"message\": \"\", \"error\": \"e\"}", "feed says: e"},
	    {"{\"error\": {\"message\": \"nested\"}}", "feed says: nested"},
	    {"{\"error\": 401, \"message\": 7}", "no list"},
	    {"[1, 2]", "no list"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		cJSON *root = cJSON_Parse(cases[i].body);
		char *err = NULL;
		ck_assert_ptr_nonnull(root);
		ck_assert_int_eq(provider_says("feed", root, "no list", &err), PLANNER_ENET);
		ck_assert_str_eq(err, cases[i].want);
		free(err);
		cJSON_Delete(root);
	}
}
END_TEST

/* The generic per-adapter settings: refresh --aws-regions is aws's
 * "regions", read by the adapter alone; the environment is the fallback. */
START_TEST(an_adapter_reads_its_own_option_else_its_environment_variable)
{
	struct provider_option opts[] = {
	    {.provider = "gcp", .name = "regions", .value = "europe-west4"},
	    {.provider = "aws", .name = "regions", .value = "eu-west-1"},
	    {.provider = "aws", .name = "other", .value = "x"},
	};
	struct fetch_ctx fx = {.p = &provider_aws, .options = opts, .n_options = 3};
	setenv("PLANNER_AWS_REGIONS", "us-west-2", 1);
	ck_assert_str_eq(provider_option(&fx, "regions"), "eu-west-1");
	/* An empty value is not given: the environment's. */
	opts[1].value = "";
	ck_assert_str_eq(provider_option(&fx, "regions"), "us-west-2");
	fx.n_options = 0;
	ck_assert_str_eq(provider_option(&fx, "regions"), "us-west-2");
	setenv("PLANNER_AWS_REGIONS", "", 1);
	ck_assert_ptr_null(provider_option(&fx, "regions"));
	unsetenv("PLANNER_AWS_REGIONS");
	ck_assert_ptr_null(provider_option(&fx, "regions"));
	/* Another adapter's setting of the same name is not aws's. */
	fx.p = &provider_gcp;
	fx.n_options = 3;
	ck_assert_str_eq(provider_option(&fx, "regions"), "europe-west4");
}
END_TEST

Suite *providers_suite(void)
{
	Suite *s = suite_create("providers");
	TCase *t = tcase_create("parsers");
	tcase_add_test(t, a_cache_price_out_of_bounds_is_counted_and_the_row_keeps_none);
	tcase_add_test(t, scaleway_prices_are_eur_per_instance_hour_and_memory_is_bytes);
	tcase_add_test(t, an_error_body_says_its_message_in_a_fixed_order_else_what_is_missing);
	tcase_add_test(t, a_scaleway_error_object_is_an_error_with_its_message);
	tcase_add_test(t, seeweb_plans_are_eur_per_instance_hour_one_row_per_region);
	tcase_add_test(t, tensordock_sums_per_unit_usd_prices_over_a_balanced_configuration);
	tcase_add_test(t, lambda_prices_are_cents_and_vram_comes_from_the_description);
	tcase_add_test(t, a_lambda_error_object_is_an_error_with_its_message);
	tcase_add_test(t, vast_memory_is_mib_and_picks_the_right_a100);
	tcase_add_test(t, runpod_prices_are_per_gpu_and_multiplied_out);
	tcase_add_test(t, runpod_errors_with_status_200_are_errors);
	tcase_add_test(t, azure_keeps_linux_pay_as_you_go_and_spot_and_gives_the_next_page);
	tcase_add_test(t, gcp_prices_a_vm_from_its_gpu_core_and_ram_skus_in_units_plus_nanos);
	tcase_add_test(t, openrouter_prices_are_decimal_strings_per_token);
	tcase_add_test(t, litellm_prices_are_floats_per_token_and_get_a_vendor);
	tcase_add_test(t, html_and_broken_json_are_named_as_such);
	tcase_add_test(t, the_normaliser_multiplies_per_gpu_prices_and_keeps_the_parts_memory);
	tcase_add_test(t, an_adapter_reads_its_own_option_else_its_environment_variable);
	suite_add_tcase(s, t);
	t = tcase_create("aws stream");
	tcase_add_test(t, aws_keeps_only_linux_shared_on_demand_gpu_rows);
	tcase_add_test(t, the_aws_csv_parses_the_same_in_chunks_of_any_size);
	tcase_add_test(t, aws_keeps_a_gpu_row_with_bare_values_or_quoted_commas);
	tcase_add_test(t, aws_memory_does_not_grow_with_the_file);
	tcase_add_test(t, a_file_without_the_header_row_is_not_the_price_list);
	suite_add_tcase(s, t);
	return s;
}
