/* check_providers.c — each adapter's parse on recorded payloads in the
 * feed's real shape (tests/fixtures/providers), with the edge cases of its
 * units and fields, and the normaliser they share. No network. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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
	return s;
}
