/* check_providers.c — each adapter's parse on recorded payloads in the
 * feed's real shape (tests/fixtures/providers), with the edge cases of its
 * units and fields, and the normaliser they share. No network. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "aws.h"
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
	/* Commit1Yr is left out: 2 regions × 5 A2 shapes + 3 N1 T4 shapes. */
	ck_assert_uint_eq(n.n_offers, 13);
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

/* A sink that counts the rows it is handed and its largest batch. */
struct counting_sink {
	size_t rows, largest;
};

static int count_put(void *ud, const struct offer *rows, size_t n, char **err)
{
	struct counting_sink *c = ud;
	(void)rows;
	(void)err;
	c->rows += n;
	c->largest = n > c->largest ? n : c->largest;
	return PLANNER_OK;
}

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

/* --- issue 11, cloud adapters (gcp, azure, aws) over loopback HTTP ---
 * Each test runs the adapter's fetch against tests/fixture_server.py: the
 * recorded real responses of tests/fixtures/real/ (scenario "real-<tag>",
 * see REAL in the server), or a documented-shape fixture where no
 * recorded response exists (its "_fixture_note" or preamble says so). */

static struct test_fixture cloud_server;

static void cloud_start(void)
{
	test_fixture_start(&cloud_server, 2.0);
}

static void cloud_stop(void)
{
	test_fixture_stop(&cloud_server);
}

/* Runs p's fetch against `scenario` into n; aws_regions may be NULL. */
static int cloud_fetch(const struct provider *p, const char *scenario, const char *aws_regions,
		       struct norm *n, char **err)
{
	struct http_opts o;
	char base[128];
	http_opts_init(&o);
	o.retries = 0;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/%s", cloud_server.port, scenario);
	norm_init(n, test_ref(), p->name);
	struct provider_option regions = {
	    .provider = "aws", .name = "regions", .value = aws_regions};
	struct fetch_ctx fx = {.p = p,
	                       .http = &o,
	                       .base = base,
	                       .key = "test-key",
	                       .options = &regions,
	                       .n_options = 1,
	                       .out = n};
	return p->fetch(&fx, err);
}

static size_t count_offers(const struct norm *n, const char *offer, const char *region, bool spot)
{
	size_t k = 0;
	for (size_t i = 0; i < n->n_offers; i++)
		k += !strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region) &&
		     n->offers[i].spot == spot;
	return k;
}

/* Every zone of the list, each located; a full page of 100 asks for the
 * next; a type at end of service is left out and counted. */
START_TEST(scaleway_reads_every_zone_and_follows_a_full_page)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(cloud_fetch(&provider_scaleway, "paged", NULL, &n, &err) == PLANNER_OK, "%s",
		      err);
	const char *zones[][2] = {{"fr-par-1", "FR"}, {"fr-par-2", "FR"}, {"nl-ams-1", "NL"},
				  {"pl-waw-2", "PL"}};
	for (size_t z = 0; z < 4; z++) {
		size_t k = 0;
		for (size_t i = 0; i < n.n_offers; i++)
			k += !strcmp(n.offers[i].region, zones[z][0]);
		ck_assert_msg(k == 100, "%s: %zu offers", zones[z][0], k); /* 99 + 1 */
		const struct offer *o = find(&n, "P2-000", zones[z][0], false);
		ck_assert_ptr_nonnull(o);
		ck_assert_str_eq(o->country, zones[z][1]);
		ck_assert_str_eq(o->region_group, "eu");
		ck_assert_ptr_null(find(&n, "P1-000", zones[z][0], false));
	}
	ck_assert_uint_eq(n.skipped, 4);
	char *log = test_fixture_log(&cloud_server, "paged");
	ck_assert_ptr_nonnull(strstr(log, "per_page=100&page=2"));
	free(log);
	norm_free(&n);
}
END_TEST

/* One GET of /ecs/v2/plans with the key in X-APITOKEN, never in the URL. */
START_TEST(seeweb_sends_its_token_in_a_header_and_reads_one_response)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(cloud_fetch(&provider_seeweb, "ok-seeweb", NULL, &n, &err) == PLANNER_OK,
		      "%s", err);
	ck_assert_uint_eq(n.n_offers, 8);
	char *log = test_fixture_log(&cloud_server, "ok-seeweb");
	ck_assert_ptr_nonnull(strstr(log, "\"path\": \"/ecs/v2/plans\""));
	ck_assert_ptr_nonnull(strstr(log, "\"apitoken\": true"));
	ck_assert_ptr_null(strstr(log, "test-key"));
	free(log);
	norm_free(&n);
}
END_TEST

/* One GET of the hostnodes list, no query, no paging. */
START_TEST(tensordock_reads_one_keyless_response)
{
	struct norm n;
	char *err = NULL;
	ck_assert_msg(cloud_fetch(&provider_tensordock, "ok-tensordock", NULL, &n, &err) ==
			      PLANNER_OK,
		      "%s", err);
	ck_assert_uint_eq(n.n_offers, 8);
	char *log = test_fixture_log(&cloud_server, "ok-tensordock");
	ck_assert_ptr_nonnull(strstr(log, "\"path\": \"/api/v0/client/deploy/hostnodes\""));
	ck_assert_ptr_null(strstr(log, "hostnodes?")); /* no query */
	free(log);
	norm_free(&n);
}
END_TEST

START_TEST(gcp_prices_a2_highgpu_1g_with_its_vcpus_and_ram_on_the_recorded_page)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(cloud_fetch(&provider_gcp, "real-a2", NULL, &n, &err), PLANNER_OK);
	/* opencost's recorded page: 2.933908 + 12 × 0.031611 + 85 × 0.004237. */
	const struct offer *a = find(&n, "a2-highgpu-1g", "us-central1", false);
	ck_assert_ptr_nonnull(a);
	CLOSE(a->price_per_hour, 3.673385);
	ck_assert_str_eq(a->gpu, "A100 40GB");
	ck_assert_int_eq(a->gpu_count, 1);
	CLOSE(a->vcpus, 12);
	CLOSE(a->ram_gib, 85); /* the RAM SKU's unit is GiBy.h */
	CLOSE(find(&n, "a2-highgpu-8g", "us-west1", false)->price_per_hour, 29.387080);
	norm_free(&n);
}
END_TEST

START_TEST(gcp_lists_only_the_machine_shapes_gcp_sells)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(cloud_fetch(&provider_gcp, "real-a2", NULL, &n, &err), PLANNER_OK);
	/* 16× A100 is a2-megagpu-16g; no 3×, 8× T4 or other invented count. */
	const struct offer *mega = find(&n, "a2-megagpu-16g", "us-east1", false);
	ck_assert_ptr_nonnull(mega);
	ck_assert_int_eq(mega->gpu_count, 16);
	CLOSE(mega->price_per_hour, 16 * 2.933908 + 96 * 0.031611 + 1360 * 0.004237);
	size_t t4 = 0;
	for (size_t i = 0; i < n.n_offers; i++) {
		ck_assert_msg(!strncmp(n.offers[i].offer, "a2-", 3) ||
				      !strncmp(n.offers[i].offer, "a4-highgpu-8g", 13) ||
				      !strncmp(n.offers[i].offer, "n1-standard-", 12),
			      "%s", n.offers[i].offer);
		if (!strcmp(n.offers[i].gpu, "T4")) {
			ck_assert_int_le(n.offers[i].gpu_count, 4);
			t4++;
		}
	}
	ck_assert_uint_eq(t4, 3); /* N1 takes 1, 2 or 4 T4 */
	/* N1 + T4: the GPU SKU plus the N1 core and RAM SKUs. */
	CLOSE(find(&n, "n1-standard-8 + 1x T4", "us-central1", false)->price_per_hour,
	      0.35 + 8 * 0.031611 + 30 * 0.004237);
	/* B200 comes only as a4-highgpu-8g; "NVIDIA" matches "Nvidia". */
	const struct offer *b200 = find(&n, "a4-highgpu-8g", "us-central1", false);
	ck_assert_ptr_nonnull(b200);
	ck_assert_int_eq(b200->gpu_count, 8);
	CLOSE(b200->price_per_hour, 8 * 10.0 + 224 * 0.03 + 3968 * 0.004);
	/* 3 regions × 5 A2 shapes, on demand and spot, 3 N1 T4 shapes, 1 A4. */
	ck_assert_uint_eq(n.n_offers, 34);
	norm_free(&n);
}
END_TEST

START_TEST(gcp_reads_spot_preemptible_descriptions_as_spot)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(cloud_fetch(&provider_gcp, "real-a2", NULL, &n, &err), PLANNER_OK);
	/* "Spot Preemptible A2 Instance Core/Ram" and "… GPU attached to Spot
	 * Preemptible VMs" (documented-shape page; placeholder prices). */
	const struct offer *s = find(&n, "a2-highgpu-1g", "us-east1", true);
	ck_assert_ptr_nonnull(s);
	CLOSE(s->price_per_hour, 1.0 + 12 * 0.01 + 85 * 0.001);
	norm_free(&n);
}
END_TEST

START_TEST(gcp_leaves_out_dws_calendar_reserved_and_commitment_skus)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(cloud_fetch(&provider_gcp, "real-a2", NULL, &n, &err), PLANNER_OK);
	/* The only A100 80GB SKUs are DWS and calendar mode: no A2 Ultra. */
	for (size_t i = 0; i < n.n_offers; i++)
		ck_assert_msg(strncmp(n.offers[i].offer, "a2-ultragpu", 11), "%s",
			      n.offers[i].offer);
	/* The Reserved core SKU does not replace the on-demand one. */
	const struct offer *a = find(&n, "a2-highgpu-1g", "us-west1", false);
	ck_assert_ptr_nonnull(a);
	CLOSE(a->price_per_hour, 3.673385);
	norm_free(&n);
}
END_TEST

START_TEST(an_azure_cloud_services_row_never_replaces_the_linux_row)
{
	struct norm n;
	char *err = NULL;
	/* The 13 recorded rows of one size in one region (SKU name mapped to a
	 * GPU size by the server): Linux 0.673, spot 0.6057; the Cloud Services
	 * row at the Windows price 0.747 comes after the Linux one. */
	ck_assert_int_eq(cloud_fetch(&provider_azure, "real-b16als", NULL, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(count_offers(&n, "Standard_NC24ads_A100_v4", "australiacentral", false), 1);
	CLOSE(find(&n, "Standard_NC24ads_A100_v4", "australiacentral", false)->price_per_hour,
	      0.673);
	CLOSE(find(&n, "Standard_NC24ads_A100_v4", "australiacentral", true)->price_per_hour,
	      0.6057);
	ck_assert_uint_eq(n.n_offers, 2);
	norm_free(&n);
}
END_TEST

START_TEST(an_azure_win_row_never_passes_as_linux_and_current_sizes_are_known)
{
	struct norm n;
	char *err = NULL;
	/* Documented shape (tests/fixtures/providers/azure.win.json). */
	ck_assert_int_eq(cloud_fetch(&provider_azure, "win", NULL, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(count_offers(&n, "Standard_ND96isr_H100_v5", "eastus", false), 1);
	CLOSE(find(&n, "Standard_ND96isr_H100_v5", "eastus", false)->price_per_hour, 117.984);
	CLOSE(find(&n, "Standard_ND96isr_H100_v5", "eastus", true)->price_per_hour, 29.496);
	const struct offer *ncc = find(&n, "Standard_NCC40ads_H100_v5", "eastus", false);
	ck_assert_ptr_nonnull(ncc);
	CLOSE(ncc->price_per_hour, 7.0);
	ck_assert_str_eq(ncc->gpu, "H100 NVL");
	ck_assert_uint_eq(count_offers(&n, "Standard_NCC40ads_H100_v5", "eastus", false), 1);
	const struct offer *is = find(&n, "Standard_ND96is_H100_v5", "eastus", false);
	ck_assert_ptr_nonnull(is);
	ck_assert_int_eq(is->gpu_count, 8);
	ck_assert_str_eq(find(&n, "Standard_NC8ads_A10_v4", "eastus", false)->gpu, "A10");
	ck_assert_int_eq(find(&n, "Standard_NC32ads_A10_v4", "eastus", false)->gpu_count, 2);
	ck_assert_str_eq(find(&n, "Standard_ND96is_MI300X_v5", "eastus", false)->gpu, "MI300X");
	const struct offer *gb = find(&n, "Standard_ND128isr_NDR_GB200_v6", "eastus", false);
	ck_assert_ptr_nonnull(gb);
	ck_assert_str_eq(gb->gpu, "GB200");
	ck_assert_int_eq(gb->gpu_count, 4);
	ck_assert_uint_eq(n.n_offers, 8);
	norm_free(&n);
}
END_TEST

START_TEST(aws_knows_gr6_g5g_g4ad_and_the_p6_variants)
{
	struct norm n;
	char *err = NULL;
	/* Documented shape (tests/fixtures/providers/aws.families.csv). */
	ck_assert_int_eq(cloud_fetch(&provider_aws, "families", "eu-central-1", &n, &err),
			 PLANNER_OK);
	const struct offer *gr6 = find(&n, "gr6.4xlarge", "eu-central-1", false);
	ck_assert_ptr_nonnull(gr6);
	ck_assert_str_eq(gr6->gpu, "L4");
	ck_assert_str_eq(find(&n, "p6-b200.48xlarge", "eu-central-1", false)->gpu, "B200");
	ck_assert_str_eq(find(&n, "g6e.xlarge", "eu-north-1", false)->gpu, "L40S");
	/* Families whose GPUs the table has since issue 11: T4G is the T4
	 * part (AWS G5g page), the rest are their own rows. */
	ck_assert_str_eq(find(&n, "g5g.xlarge", "eu-central-1", false)->gpu, "T4");
	ck_assert_str_eq(find(&n, "g4ad.xlarge", "eu-central-1", false)->gpu, "Radeon Pro V520");
	ck_assert_str_eq(find(&n, "p6-b300.48xlarge", "eu-central-1", false)->gpu, "B300");
	ck_assert_int_eq(find(&n, "p6-b300.48xlarge", "eu-central-1", false)->gpu_count, 8);
	ck_assert_str_eq(find(&n, "p6e-gb200.36xlarge", "eu-central-1", false)->gpu, "GB200");
	ck_assert_uint_eq(n.n_unknown, 0);
	/* g7e's RTX PRO 6000 is in the GPU table: stored, not unknown. */
	ck_assert(!unknown_has(&n, "RTX PRO 6000"));
	ck_assert_str_eq(find(&n, "g7e.2xlarge", "eu-north-1", false)->gpu, "RTX PRO 6000");
	for (size_t i = 0; i < n.n_unknown; i++)
		ck_assert_msg(!strchr(n.unknown[i], '.'), "%s", n.unknown[i]);
	norm_free(&n);
}
END_TEST

START_TEST(aws_default_regions_include_eu_central_1_and_eu_north_1)
{
	struct norm n;
	char *err = NULL;
	unsetenv("PLANNER_AWS_REGIONS");
	ck_assert_int_eq(cloud_fetch(&provider_aws, "families-default", NULL, &n, &err),
			 PLANNER_OK);
	norm_free(&n);
	char *log = test_fixture_log(&cloud_server, "families-default");
	static const char *const want[] = {"us-east-1", "us-west-2", "eu-west-1", "eu-central-1",
					   "eu-north-1"};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
		char path[96];
		snprintf(path, sizeof path, "/current/%s/index.csv", want[i]);
		ck_assert_msg(strstr(log, path), "%s not asked for: %s", want[i], log);
	}
	free(log);
}
END_TEST

START_TEST(aws_reads_the_recorded_index_head_and_drops_its_reserved_and_dedicated_rows)
{
	struct norm n;
	char *err = NULL;
	/* The real 2025-09-12 head: bare empty fields, and only a Dedicated
	 * SUSE UnusedCapacityReservation g5.48xlarge as GPU row. */
	ck_assert_int_eq(cloud_fetch(&provider_aws, "real-sample", "ap-southeast-2", &n, &err),
			 PLANNER_OK);
	ck_assert_uint_eq(n.n_offers, 0);
	ck_assert_uint_eq(n.n_unknown, 0);
	norm_free(&n);
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
	tcase_add_test(t, vast_asks_for_and_keeps_only_verified_non_external_hosts);
	tcase_add_test(t, vast_reads_escapes_repeats_and_odd_numbers_as_a_json_tree_does);
	tcase_add_test(t, lambda_uses_the_production_host_of_lambdas_openapi_document);
	tcase_add_test(t, lambda_on_the_recorded_price_book_stores_its_b200_and_gh200_rows);
	tcase_add_test(t, the_api_route_finds_hosted_copies_and_skips_a_price_shorter_than_the_job);
	suite_add_tcase(s, t);
}
/* --- end of issue 11, API feeds block --- */

/* --- issue 11, what was left: tiers, non-text rows, GPU names, aws OOM ---
 * Over loopback HTTP against tests/fixture_server.py where a feed is
 * involved: the recorded real responses (scenario "real", see
 * tests/fixtures/real/PROVENANCE.md) or a documented-shape fixture. */

START_TEST(aws_out_of_memory_while_streaming_is_a_system_error_not_a_feed_error)
{
	struct norm n;
	struct http_opts o;
	char base[128], *err = NULL;
	http_opts_init(&o);
	o.retries = 0;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/families", cloud_server.port);
	norm_init(&n, test_ref(), "aws");
	/* What norm_offer leaves when an allocation fails mid-stream. */
	n.oom = true;
	struct provider_option regions = {
	    .provider = "aws", .name = "regions", .value = "eu-central-1"};
	struct fetch_ctx fx = {.p = &provider_aws,
	                       .http = &o,
	                       .base = base,
	                       .options = &regions,
	                       .n_options = 1,
	                       .out = &n};
	ck_assert_int_eq(provider_aws.fetch(&fx, &err), PLANNER_ESYS);
	ck_assert_ptr_nonnull(strstr(err, "out of memory"));
	free(err);
	err = NULL;
	/* The same from a whole body. */
	size_t len;
	char *body = read_file("tests/fixtures/providers/aws.families.csv", &len);
	ck_assert_ptr_nonnull(body);
	ck_assert_int_eq(provider_aws.parse(&n, body, len, NULL, &err), PLANNER_ESYS);
	free(body);
	free(err);
	norm_free(&n);
}
END_TEST

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

START_TEST(every_gpu_of_runpods_real_gpu_table_is_known_or_a_mig_slice)
{
	/* RunPod's own id / displayName / memoryInGb table (45 rows). */
	size_t len;
	char *body = read_file(
	    "tests/fixtures/real/runpod/gputypes-id-displayname-memory.reconstructed.json", &len);
	ck_assert_ptr_nonnull(body);
	cJSON *root = cJSON_Parse(body);
	free(body);
	struct norm n;
	norm_init(&n, test_ref(), "runpod");
	size_t slices = 0, known = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, cJSON_GetObjectItem(cJSON_GetObjectItem(root, "data"), "gpuTypes"))
	{
		const char *id = pj_str(t, "id"), *shown = pj_str(t, "displayName");
		if (provider_mig_slice(id)) {
			slices++;
			continue;
		}
		double gib = pj_num(t, "memoryInGb") * NORM_BYTES_PER_GB / NORM_BYTES_PER_GIB;
		const struct gpu_spec *g = norm_gpu(&n, id, gib);
		if (!g)
			g = norm_gpu(&n, shown, gib);
		ck_assert_msg(g != NULL, "%s (%s, %g GB) unknown", id, shown,
		              pj_num(t, "memoryInGb"));
		known++;
	}
	ck_assert_uint_eq(slices, 2);
	ck_assert_uint_eq(known, 43);
	ck_assert(!provider_mig_slice("NVIDIA RTX PRO 6000 Blackwell Server Edition"));
	ck_assert(provider_mig_slice("A100 1g.10gb"));
	ck_assert(!provider_mig_slice("RTX 4080 SUPER"));
	cJSON_Delete(root);
	norm_free(&n);
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

START_TEST(azure_steps_skip_when_a_full_page_comes_back_without_a_next_link)
{
	struct norm n;
	char *err = NULL;
	/* 100 items, NextPageLink empty (Microsoft Q&A, 2023-03-10), then one
	 * more at $skip=100. */
	ck_assert_int_eq(cloud_fetch(&provider_azure, "nolink", NULL, &n, &err), PLANNER_OK);
	ck_assert_ptr_nonnull(find(&n, "Standard_NC24ads_A100_v4", "eastus", false));
	const struct offer *we = find(&n, "Standard_NC24ads_A100_v4", "westeurope", false);
	ck_assert_ptr_nonnull(we);
	ck_assert_str_eq(we->region_group, "eu");
	ck_assert_uint_eq(n.n_offers, 2);
	norm_free(&n);
	char *log = test_fixture_log(&cloud_server, "nolink");
	ck_assert_ptr_nonnull(strstr(log, "$skip=100"));
	ck_assert_ptr_null(strstr(log, "$skip=101"));
	free(log);
}
END_TEST

/* Azure keeps the first of two rows of one key, even when its rows are
 * more than a flush batch: they are held for that check, not handed to
 * the refresh's sink as they are made. */
START_TEST(azure_keeps_the_first_of_a_repeated_row_past_a_flush_batch)
{
	struct norm n;
	struct http_opts o;
	char base[128], *err = NULL;
	struct counting_sink counted = {0};
	const struct norm_sink sink = {.put = count_put, .ud = &counted};
	http_opts_init(&o);
	o.retries = 0;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/dups", cloud_server.port);
	norm_init(&n, test_ref(), "azure");
	n.sink = &sink;
	struct fetch_ctx fx = {.p = &provider_azure, .http = &o, .base = base, .out = &n};
	ck_assert_msg(provider_azure.fetch(&fx, &err) == PLANNER_OK, "%s", err);
	ck_assert_uint_eq(counted.rows, 0);
	ck_assert_uint_eq(n.n_offers, 300);
	ck_assert_uint_eq(n.skipped, 1);
	const struct offer *r0 = find(&n, "Standard_NC24ads_A100_v4", "r0", false);
	ck_assert_ptr_nonnull(r0);
	ck_assert_double_eq_tol(r0->price_per_hour, 3.0, 1e-9);
	norm_free(&n);
}
END_TEST

static void add_prices_tests(Suite *s)
{
	TCase *t = tcase_create("issue 11 prices over loopback");
	tcase_add_checked_fixture(t, cloud_start, cloud_stop);
	tcase_add_test(t, aws_out_of_memory_while_streaming_is_a_system_error_not_a_feed_error);
	tcase_add_test(t, azure_steps_skip_when_a_full_page_comes_back_without_a_next_link);
	tcase_add_test(t, azure_keeps_the_first_of_a_repeated_row_past_a_flush_batch);
	tcase_add_test(t, every_gpu_of_runpods_real_gpu_table_is_known_or_a_mig_slice);
	suite_add_tcase(s, t);
	t = tcase_create("issue 11 api feeds over loopback");
	tcase_add_checked_fixture(t, feeds_start, feeds_stop);
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, openrouter_stores_only_models_that_write_text);
	tcase_add_test(t, litellm_stores_no_image_embedding_or_audio_only_entry_of_the_real_map);
	tcase_add_test(
	    t, litellm_reads_its_above_n_k_tokens_fields_as_tiers_and_not_the_priority_ones);
	tcase_add_test(t,
	               a_job_whose_prompts_are_past_a_tier_pays_the_tier_for_prompt_and_completion);
	tcase_add_test(t, offers_api_shows_a_models_long_prompt_tiers);
	tcase_add_test(t, runpod_leaves_out_mig_slices_and_stores_the_new_blackwell_and_ada_parts);
	suite_add_tcase(s, t);
}
/* --- end of issue 11, what was left --- */

/* json_items_fn for the test: counts the elements and the ids seen. */
static int count_item(void *ud, const struct cJSON *it, char **err)
{
	double *sum = ud;
	sum[0] += 1;
	sum[1] += pj_num(it, "id");
	return PLANNER_OK;
}

/* Feeds b to s in pieces of 1 to 97 bytes, as a download arrives. */
static void feed_in_pieces(struct json_items *s, const struct buf *b)
{
	char *err = NULL;
	for (size_t at = 0, k = 0; at < b->len; k++) {
		size_t n = 1 + k * 7919 % 97;
		if (n > b->len - at)
			n = b->len - at;
		ck_assert_msg(json_items_feed(s, b->data + at, n, &err), "%s", err);
		at += n;
	}
}

/* Issue 12 item 13: a Vast body became a cJSON tree several times its size.
 * The streaming reader gives the same offers however the body is split,
 * holding one offer at a time; brackets and quotes inside strings, other
 * top-level keys before and after, and nested arrays in an offer do not
 * confuse it. */
START_TEST(vast_offers_stream_in_any_split_holding_one_offer_at_a_time)
{
	struct buf b = {0};
	enum { OFFERS = 4000 };
	ck_assert(buf_printf(&b, "{\"msg\": \"ok [\\\"offers\\\": [\", \"x\": {\"offers\": 1},"
				 " \"offers\" : [ "));
	double ids = 0;
	for (int i = 0; i < OFFERS; i++) {
		ck_assert(buf_printf(&b,
				     "%s{\"id\": %d, \"gpu_name\": \"RTX 4090\", \"num_gpus\": 1, "
				     "\"gpu_ram\": 24564, \"dph_total\": 0.3%d, \"min_bid\": 0, "
				     "\"geolocation\": \"Quebec, CA \\\"]}{\\\\\", \"tags\": [[1], {}],"
				     " \"rentable\": true}",
				     i ? ", " : "", 1000 + i, i % 10));
		ids += 1000 + i;
	}
	ck_assert(buf_printf(&b, "], \"after\": [1, 2, {\"offers\": []}]}"));
	/* Whole, through the adapter's parse: every offer, none twice. */
	struct norm whole;
	char *err = NULL;
	norm_init(&whole, test_ref(), "vast");
	ck_assert_int_eq(provider_vast.parse(&whole, b.data, b.len, NULL, &err), PLANNER_OK);
	ck_assert_uint_eq(whole.n_offers, OFFERS);
	ck_assert_str_eq(whole.offers[0].region, "Quebec, CA \"]}{\\");
	norm_free(&whole);
	/* In pieces of 1 to 97 bytes. */
	double sum[2] = {0, 0};
	struct json_items *s = json_items_new("offers", count_item, sum);
	ck_assert_ptr_nonnull(s);
	feed_in_pieces(s, &b);
	ck_assert_int_eq(json_items_finish(s, &err), PLANNER_OK);
	ck_assert_double_eq(sum[0], OFFERS);
	ck_assert_double_eq(sum[1], ids);
	/* One offer (about 180 bytes) at a time, of a body of about 700 KB. */
	ck_assert_uint_gt(b.len, 700000);
	ck_assert_uint_lt(json_items_peak(s), 512);
	/* Cut inside the list: an error, never a short catalogue. */
	json_items_reset(s);
	ck_assert(json_items_feed(s, b.data, b.len / 2, &err));
	ck_assert_int_eq(json_items_finish(s, &err), PLANNER_ENET);
	ck_assert_msg(strstr(err, "not valid JSON"), "%s", err);
	free(err);
	err = NULL;
	/* No such list. */
	json_items_reset(s);
	ck_assert(json_items_feed(s, "{\"msg\": \"bad key\"}", 18, &err));
	ck_assert_int_eq(json_items_finish(s, &err), JSON_ITEMS_NONE);
	json_items_free(s);
	buf_free(&b);
}
END_TEST

/* Feeds body to s, after a reset, in chunks of n bytes: the finish code. */
static int feed_in_chunks(struct json_items *s, const char *body, size_t len, size_t n, char **err)
{
	json_items_reset(s);
	for (size_t at = 0; at < len; at += n)
		if (!json_items_feed(s, body + at, len - at < n ? len - at : n, err))
			return PLANNER_ENET;
	return json_items_finish(s, err);
}

/* Issue 16: a paged feed's next-page member usually comes after its list
 * (Azure's NextPageLink, GCP's nextPageToken), past the 64 KiB of body the
 * reader keeps. json_items_keep keeps its string, decoded as cJSON would,
 * before or after the list, however the body is split; the same name
 * inside an element, a second member of the name, and a key spelled alike
 * are not it. */
START_TEST(a_next_page_member_before_or_after_the_list_is_kept_in_any_split)
{
	static const struct {
		const char *list, *member, *body, *want;
	} cases[] = {
	    {"Items", "NextPageLink",
	     "{\"Items\": [{\"NextPageLink\": \"inner\", \"a\": \"x\\\"]},\"}, "
	     "{\"b\": [1, {\"NextPageLink\": 2}]}, 3], \"Count\": 3, \"NextPageLinkX\": \"no\", "
	     "\"x\": \"NextPageLink\", \"NextPageLink\" : \"https://h/api?$skip=1000&q=\\\"a\\\\b"
	     "\\/c\\u00e9\", \"NextPageLink\": \"second\"}",
	     "https://h/api?$skip=1000&q=\"a\\b/c\xc3\xa9"},
	    {"skus", "nextPageToken",
	     "{\"nextPageToken\":\"tok-1\",\"skus\":[{\"nextPageToken\":\"no\"},[],{}]}", "tok-1"},
	    /* cJSON reads the first member of a name: here null, no string. */
	    {"Items", "NextPageLink",
	     "{\"NextPageLink\": null, \"Items\": [1, 2, 3], \"NextPageLink\": \"late\"}", NULL},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		double sum[2];
		char *err = NULL;
		struct json_items *s = json_items_new(cases[c].list, count_item, sum);
		ck_assert_ptr_nonnull(s);
		json_items_keep(s, cases[c].member);
		size_t len = strlen(cases[c].body);
		for (size_t n = 1; n <= len; n++) {
			sum[0] = sum[1] = 0;
			ck_assert_int_eq(feed_in_chunks(s, cases[c].body, len, n, &err),
			                 PLANNER_OK);
			ck_assert_double_eq(sum[0], 3);
			if (cases[c].want)
				ck_assert_pstr_eq(json_items_kept(s), cases[c].want);
			else
				ck_assert_ptr_null(json_items_kept(s));
		}
		/* A reset forgets it; a body without the member keeps none. */
		json_items_reset(s);
		ck_assert_ptr_null(json_items_kept(s));
		static const char bare[] = "{\"Items\": [1, 2, 3], \"skus\": [1, 2, 3]}";
		ck_assert_int_eq(feed_in_chunks(s, bare, sizeof bare - 1, 5, &err), PLANNER_OK);
		ck_assert_ptr_null(json_items_kept(s));
		json_items_free(s);
	}
}
END_TEST

/* A body cut after the list, before its next-page member would come, is
 * an error, not a last page; a member over 8 KiB is refused, not held. */
START_TEST(a_next_page_member_cut_off_or_over_8_kib_is_an_error)
{
	double sum[2] = {0, 0};
	char *err = NULL;
	struct json_items *s = json_items_new("Items", count_item, sum);
	ck_assert_ptr_nonnull(s);
	json_items_keep(s, "NextPageLink");
	static const char cut[] = "{\"Items\": [{\"id\": 1}], \"Count\": 1";
	ck_assert_int_eq(feed_in_chunks(s, cut, sizeof cut - 1, 7, &err), PLANNER_ENET);
	ck_assert_msg(strstr(err, "before the top-level object closes"), "%s", err);
	free(err);
	err = NULL;
	static const char in_link[] = "{\"Items\": [], \"NextPageLink\": \"https://h/a";
	ck_assert_int_eq(feed_in_chunks(s, in_link, sizeof in_link - 1, 7, &err), PLANNER_ENET);
	ck_assert_ptr_null(json_items_kept(s));
	free(err);
	err = NULL;
	/* An escape cJSON would not read is not taken as it stands. */
	static const char bad[] = "{\"Items\": [], \"NextPageLink\": \"https://h/a\\qb\"}";
	ck_assert_int_eq(feed_in_chunks(s, bad, sizeof bad - 1, 7, &err), PLANNER_ENET);
	ck_assert_msg(strstr(err, "not valid JSON (the \"NextPageLink\" member)"), "%s", err);
	ck_assert_ptr_null(json_items_kept(s));
	free(err);
	err = NULL;
	struct buf b = {0};
	for (size_t size = 8000; size <= 9000; size += 1000) {
		b.len = 0;
		ck_assert(
		    buf_printf(&b, "{\"Items\": [], \"NextPageLink\": \"%0*d\"}", (int)size, 7));
		int rc = feed_in_chunks(s, b.data, b.len, 1000, &err);
		if (size < 8192) {
			ck_assert_int_eq(rc, PLANNER_OK);
			ck_assert_uint_eq(strlen(json_items_kept(s)), size);
		} else {
			ck_assert_int_eq(rc, PLANNER_ENET);
			ck_assert_msg(strstr(err, "\"NextPageLink\" member is longer than 8 KiB"),
			              "%s", err);
		}
	}
	free(err);
	buf_free(&b);
	json_items_free(s);
}
END_TEST

/* Issue 16: an Azure or GCP page of thousands of items was read whole and
 * made a cJSON tree (352 MB of RSS for a 64 MB page). Read as it streams,
 * a page's memory is one item, however many it holds; the adapter's parse
 * of the whole page, through the same reader, gives every row and the next
 * page. */
START_TEST(azure_and_gcp_pages_stream_one_item_at_a_time)
{
	enum { ROWS = 3000 };
	static const struct {
		const struct provider *p;
		const char *list, *member, *next;
		size_t per_row; /* items a row takes */
	} pages[] = {
	    {&provider_azure, "Items", "NextPageLink", "https://prices.azure.com/api?$skip=3000",
	     1},
	    {&provider_gcp, "skus", "nextPageToken", "page-2", 3},
	};
	for (size_t f = 0; f < 2; f++) {
		struct buf b = {0};
		ck_assert(buf_printf(&b, "{\"%s\": [", pages[f].list));
		for (int i = 0; i < ROWS; i++) {
			const char *sep = i ? ", " : "";
			if (f == 0)
				ck_assert(buf_printf(
				    &b,
				    "%s{\"currencyCode\": \"USD\", \"retailPrice\": 3.%03d, "
				    "\"armRegionName\": \"region%d\", \"location\": \"Region %d\", "
				    "\"meterName\": \"NC24ads A100 v4\", \"productName\": "
				    "\"Virtual "
				    "Machines NCadsA100v4 Series\", \"skuName\": \"NC24ads A100 "
				    "v4\", "
				    "\"serviceName\": \"Virtual Machines\", \"unitOfMeasure\": \"1 "
				    "Hour\", "
				    "\"type\": \"Consumption\", \"isPrimaryMeterRegion\": true, "
				    "\"armSkuName\": \"Standard_NC24ads_A100_v4\"}",
				    sep, i % 1000, i, i));
			else
				for (int k = 0; k < 3; k++)
					ck_assert(buf_printf(
					    &b,
					    "%s{\"skuId\": \"S-%d-%d\", \"description\": \"%s "
					    "running in "
					    "Americas\", \"category\": {\"resourceGroup\": \"%s\", "
					    "\"usageType\": \"OnDemand\"}, \"serviceRegions\": "
					    "[\"r%d\"], "
					    "\"pricingInfo\": [{\"pricingExpression\": "
					    "{\"usageUnit\": \"%s\", "
					    "\"tieredRates\": [{\"unitPrice\": {\"currencyCode\": "
					    "\"USD\", "
					    "\"units\": \"0\", \"nanos\": %d}}]}}]}",
					    k ? ", " : sep, i, k,
					    (const char *[]){"Nvidia Tesla T4 GPU",
					                     "N1 Predefined Instance Core",
					                     "N1 Predefined Instance Ram"}[k],
					    k ? "N1Standard" : "GPU", i, k == 2 ? "GiBy.h" : "h",
					    (int[]){350000000, 31611000, 4237000}[k]));
		}
		ck_assert(buf_printf(&b, "], \"%s\": \"%s\"}", pages[f].member, pages[f].next));
		/* In pieces of 1 to 97 bytes, as a refresh reads it. */
		double sum[2] = {0, 0};
		char *err = NULL, *next = NULL;
		struct json_items *s = json_items_new(pages[f].list, count_item, sum);
		ck_assert_ptr_nonnull(s);
		json_items_keep(s, pages[f].member);
		feed_in_pieces(s, &b);
		ck_assert_int_eq(json_items_finish(s, &err), PLANNER_OK);
		ck_assert_double_eq(sum[0], ROWS * pages[f].per_row);
		ck_assert_str_eq(json_items_kept(s), pages[f].next);
		/* One item (under 600 bytes) at a time, of a body of over 1 MB. */
		ck_assert_uint_gt(b.len, 1000000);
		ck_assert_uint_lt(json_items_peak(s), 1024);
		json_items_free(s);
		/* Whole, through the adapter's parse: a row an item or a VM. */
		struct norm n;
		norm_init(&n, test_ref(), pages[f].p->name);
		ck_assert_int_eq(pages[f].p->parse(&n, b.data, b.len, &next, &err), PLANNER_OK);
		/* GCP: a region's T4, core and RAM SKUs price the three N1 T4 VMs. */
		ck_assert_uint_eq(n.n_offers, f == 0 ? ROWS : ROWS * 3);
		ck_assert_str_eq(next, pages[f].next);
		free(next);
		norm_free(&n);
		buf_free(&b);
	}
}
END_TEST

/* The members json_flat_test reads. */
static const char *const flat_names[] = {"id", "gpu_name", "dph_total", "min_bid", "verified",
					 "external", "geolocation", "gpu_ids"};
#define FLAT_N (sizeof flat_names / sizeof *flat_names)

/* Whether json_flat_object reads text (one object) as cJSON does: when it
 * reads it (returns its length), cJSON parses it too and each wanted
 * member has the type, number (to the bit) and string of cJSON's first of
 * that name; when cJSON cannot parse it, json_flat_object leaves it.
 * Returns whether json_flat_object read it. */
static bool flat_as_cjson(const char *text, size_t len)
{
	cJSON nodes[FLAT_N];
	const cJSON *found[FLAT_N];
	char strings[256];
	struct json_flat f = {.names = flat_names, .n_names = FLAT_N, .nodes = nodes,
			      .found = found, .text = strings, .text_size = sizeof strings};
	size_t used = json_flat_object(text, len, &f);
	cJSON *tree = cJSON_ParseWithLength(text, len);
	if (!used) {
		cJSON_Delete(tree);
		return false;
	}
	ck_assert_msg(tree, "read what cJSON refuses: %.*s", (int)len, text);
	ck_assert_msg(used <= len && text[used - 1] == '}', "%.*s", (int)len, text);
	for (size_t k = 0; k < FLAT_N; k++) {
		const cJSON *t = cJSON_GetObjectItemCaseSensitive(tree, flat_names[k]), *m = found[k];
		ck_assert_msg(!t == !m, "%s of %.*s", flat_names[k], (int)len, text);
		if (!t)
			continue;
		ck_assert_int_eq(t->type & 0xff, m->type & 0xff);
		if (cJSON_IsNumber(t))
			ck_assert_msg(!memcmp(&t->valuedouble, &m->valuedouble, sizeof(double)),
				      "%s: %.17g, not %.17g", flat_names[k], m->valuedouble,
				      t->valuedouble);
		if (cJSON_IsString(t))
			ck_assert_str_eq(t->valuestring, m->valuestring);
	}
	cJSON_Delete(tree);
	return true;
}

/* Issue 16: the Vast adapter reads an offer's members from its bytes, and
 * leaves to cJSON what it does not read exactly as cJSON would. */
START_TEST(the_flat_reader_reads_members_as_cjson_does_or_leaves_the_object_to_it)
{
	static const char *const read[] = {
	    "{}",
	    "{ }",
	    "{\"id\": 12, \"gpu_name\": \"RTX 4090\", \"dph_total\": 0.2466759259259259}",
	    "{\"id\":-0,\"dph_total\":1e2,\"min_bid\":-1.5E-3,\"verified\":true,\"external\":null}",
	    "{\"id\": 1e999, \"dph_total\": 0.1e-400, \"min_bid\": 123456789012345678901234}",
	    "{\"id\": 9007199254740993, \"dph_total\": 2.2250738585072011e-308}",
	    "{\"id\": 0.30000000000000004, \"dph_total\": 4.9e-324, \"min_bid\": 1.7976931348623157e308}",
	    "{\"gpu_ids\": [1, [2, {\"a\": \"\\\"}\"}]], \"x\": {\"y\": [\"\\n\\t\\/\"]}, \"id\": 3}",
	    "{\"id\": 1, \"id\": 2, \"gpu_name\": \"A\", \"gpu_name\": null}",
	    "{\"gpu_name\": {}, \"geolocation\": [], \"verified\": false, \"external\": \"x\"}",
	    "{\"dph_total\": \"0.75\", \"geolocation\": \"Caf\xc3\xa9, \x01 FR\"}",
	    "{\r\n\t\"id\" :\t7 ,\n\"min_bid\" : 0 }",
	};
	static const char *const left[] = {
	    "{\"gpu_name\": \"RTX \\u0034090\"}",   /* an escape in a string read */
	    "{\"gpu\\u005fname\": \"RTX 4090\"}",   /* in a name */
	    "{\"geolocation\": \"Oslo \\\"N\\\"\"}", /* \" in a string read */
	    "{\"x\": \"\\ud83d\\ude00\", \"id\": 1}", /* \u in a string skipped */
	    "{\"id\": 01}",
	    "{\"id\": 1.}",
	    "{\"id\": 12345678901234567890123456789012345678901234567890123456789012345}",
	    "{\"id\":\x0b 1}",                      /* a byte cJSON skips as space */
	    "{\"id\": 1,}",
	    "{\"id\" 1}",
	    "{\"gpu_ids\": [1,,2]}",
	    "{\"id\": 1",
	    "{\"id\": nul}",
	    "{\"gpu_ids\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	};
	for (size_t i = 0; i < sizeof read / sizeof *read; i++)
		ck_assert_msg(flat_as_cjson(read[i], strlen(read[i])), "left: %s", read[i]);
	for (size_t i = 0; i < sizeof left / sizeof *left; i++)
		ck_assert_msg(!flat_as_cjson(left[i], strlen(left[i])), "read: %s", left[i]);
	/* A NUL byte in a name: cJSON's name ends there. */
	ck_assert(!flat_as_cjson("{\"id\0x\": 1}", 11));
	/* Seeded byte edits of a recorded offer: whatever is read, cJSON
	 * reads the same. */
	size_t len;
	char *body = read_file("tests/fixtures/real/vast/cli-search-offers-raw.2024-rtx4090.json",
			       &len);
	char *start = strchr(strchr(body, '[') + 1, '{'), *end = strrchr(body, ']');
	while (end > start && end[-1] != '}')
		end--;
	size_t n = (size_t)(end - start), kept = 0;
	ck_assert(flat_as_cjson(start, n));
	char *copy = malloc(n);
	ck_assert_ptr_nonnull(copy);
	unsigned seed = 16;
	static const char bytes[] = "\"\\{}[],: 0123456789.eE-+nultrfas\x01";
	for (int k = 0; k < 3000; k++) {
		memcpy(copy, start, n);
		for (int e = 0; e <= k % 3; e++)
			copy[(size_t)rand_r(&seed) % n] = bytes[(size_t)rand_r(&seed) % (sizeof bytes - 1)];
		kept += flat_as_cjson(copy, n);
	}
	ck_assert_uint_gt(kept, 100); /* the test reads some edits, not none */
	free(copy);
	free(body);
}
END_TEST

/* json_item_fn for the members test: counts the members, sums their "n"
 * and keeps their names, joined by '|'. */
static int name_item(void *ud, const struct cJSON *it, char **err)
{
	struct buf *names = ud;
	ck_assert_ptr_nonnull(it->string);
	ck_assert(buf_printf(names, "%s|", it->string));
	return PLANNER_OK;
}

/* Issue 16: LiteLLM's map is one object keyed by model; its members stream
 * one at a time with their keys, escapes undone, however the body is split;
 * braces and quotes inside strings and nested values do not confuse it,
 * and a cut body is an error. */
START_TEST(the_members_of_a_top_level_object_stream_with_their_names_in_any_split)
{
	static const char body[] =
	    "{\"gpt-4o\": {\"n\": 1, \"t\": [\"}\", {\"x\": \"\\\"}\"}]}, \"sample_spec\": 3,"
	    " \"a\\/b\\u00e9\": \"s,}\" , \"z\": null, \"deep\": [[{}], []]}";
	for (size_t step = 1; step <= 9; step++) {
		struct buf names = {0};
		char *err = NULL;
		struct json_items *s = json_members_new(name_item, &names);
		ck_assert_ptr_nonnull(s);
		for (size_t at = 0; at < sizeof body - 1; at += step) {
			size_t n = sizeof body - 1 - at < step ? sizeof body - 1 - at : step;
			ck_assert(json_items_feed(s, body + at, n, &err));
		}
		ck_assert_int_eq(json_items_finish(s, &err), PLANNER_OK);
		ck_assert_str_eq(names.data, "gpt-4o|sample_spec|a/b\xc3\xa9|z|deep|");
		/* Cut before the last member ends. */
		json_items_reset(s);
		ck_assert(json_items_feed(s, body, sizeof body - 4, &err));
		ck_assert_int_eq(json_items_finish(s, &err), PLANNER_ENET);
		ck_assert_msg(strstr(err, "not valid JSON"), "%s", err);
		free(err);
		err = NULL;
		/* Not an object. */
		json_items_reset(s);
		ck_assert(json_items_feed(s, "[1, 2]", 6, &err));
		ck_assert_int_eq(json_items_finish(s, &err), JSON_ITEMS_NONE);
		json_items_free(s);
		buf_free(&names);
	}
}
END_TEST

/* Issue 16: a streamed body's memory is one element, not the body. A child
 * under RLIMIT_AS of what it holds plus 32 MiB cannot allocate a 128 MiB
 * buffer (the limit bites), yet reads a 128 MiB OpenRouter-shaped "data"
 * list fed in 64 KiB pieces, every element. Not under AddressSanitizer or
 * valgrind, whose own memory the limit would starve. */
#if defined(__SANITIZE_ADDRESS__)
#define PROVIDERS_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROVIDERS_UNDER_ASAN 1
#endif
#endif

enum { BIG_BODY = 128 << 20, BIG_CHUNK = 64 << 10, BIG_HEADROOM = 32 << 20 };

/* In the child: 0 when the whole body was read under the cap; 97 when the
 * cap did not stop a buffer of the body's size; others on failure. */
static int stream_big_body_under_cap(void)
{
	static char chunk[BIG_CHUNK];
	static const char model[] =
	    "{\"id\": \"vendor/model\", \"pricing\": {\"prompt\": \"0.000001\", "
	    "\"completion\": \"0.000002\"}, \"context_length\": 131072},\n";
	size_t per = sizeof model - 1, n = 0, items = 0;
	long pages = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld", &pages) != 1)
		return 99;
	fclose(f);
	rlim_t cap = (rlim_t)pages * (rlim_t)sysconf(_SC_PAGESIZE) + BIG_HEADROOM;
	struct rlimit rl = {cap, cap};
	if (setrlimit(RLIMIT_AS, &rl))
		return 98;
	char *whole = malloc(BIG_BODY);
	if (whole) {
		memset(whole, 1, BIG_BODY);
		return 97;
	}
	while (n + per <= sizeof chunk) {
		memcpy(chunk + n, model, per);
		n += per;
		items++;
	}
	memset(chunk + n, ' ', sizeof chunk - n); /* whitespace between elements */
	double sum[2] = {0, 0};
	char *err = NULL;
	struct json_items *s = json_items_new("data", count_item, sum);
	if (!s || !json_items_feed(s, "{\"data\": [", 10, &err))
		return 96;
	size_t fed = 0;
	for (; fed < BIG_BODY; fed += sizeof chunk)
		if (!json_items_feed(s, chunk, sizeof chunk, &err))
			return 95;
	if (!json_items_feed(s, "{\"id\": 1}]}", 11, &err) || json_items_finish(s, &err) != PLANNER_OK)
		return 94;
	size_t want = items * (fed / sizeof chunk) + 1;
	int rc = sum[0] == (double)want && json_items_peak(s) < 512 ? 0 : 93;
	json_items_free(s);
	return rc;
}

START_TEST(a_streamed_body_far_larger_than_the_memory_cap_is_read_whole)
{
#ifdef PROVIDERS_UNDER_ASAN
	return;
#endif
	const char *preload = getenv("LD_PRELOAD");
	if (preload && strstr(preload, "vgpreload"))
		return; /* valgrind */
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0)
		_exit(stream_big_body_under_cap());
	int status;
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
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
	tcase_add_test(t, scaleway_prices_are_eur_per_instance_hour_and_memory_is_bytes);
	tcase_add_test(t, an_error_body_says_its_message_in_a_fixed_order_else_what_is_missing);
	tcase_add_test(t, a_scaleway_error_object_is_an_error_with_its_message);
	tcase_add_test(t, seeweb_plans_are_eur_per_instance_hour_one_row_per_region);
	tcase_add_test(t, tensordock_sums_per_unit_usd_prices_over_a_balanced_configuration);
	tcase_add_test(t, lambda_prices_are_cents_and_vram_comes_from_the_description);
	tcase_add_test(t, a_lambda_error_object_is_an_error_with_its_message);
	tcase_add_test(t, vast_memory_is_mib_and_picks_the_right_a100);
	tcase_add_test(t, vast_offers_stream_in_any_split_holding_one_offer_at_a_time);
	tcase_add_test(t, a_next_page_member_before_or_after_the_list_is_kept_in_any_split);
	tcase_add_test(t, a_next_page_member_cut_off_or_over_8_kib_is_an_error);
	tcase_add_test(t, azure_and_gcp_pages_stream_one_item_at_a_time);
	tcase_add_test(t, the_flat_reader_reads_members_as_cjson_does_or_leaves_the_object_to_it);
	tcase_add_test(t, the_members_of_a_top_level_object_stream_with_their_names_in_any_split);
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
	t = tcase_create("cloud adapters over loopback");
	tcase_add_checked_fixture(t, cloud_start, cloud_stop);
	tcase_add_test(t, gcp_prices_a2_highgpu_1g_with_its_vcpus_and_ram_on_the_recorded_page);
	tcase_add_test(t, scaleway_reads_every_zone_and_follows_a_full_page);
	tcase_add_test(t, seeweb_sends_its_token_in_a_header_and_reads_one_response);
	tcase_add_test(t, tensordock_reads_one_keyless_response);
	tcase_add_test(t, gcp_lists_only_the_machine_shapes_gcp_sells);
	tcase_add_test(t, gcp_reads_spot_preemptible_descriptions_as_spot);
	tcase_add_test(t, gcp_leaves_out_dws_calendar_reserved_and_commitment_skus);
	tcase_add_test(t, an_azure_cloud_services_row_never_replaces_the_linux_row);
	tcase_add_test(t, an_azure_win_row_never_passes_as_linux_and_current_sizes_are_known);
	tcase_add_test(t, aws_knows_gr6_g5g_g4ad_and_the_p6_variants);
	tcase_add_test(t, aws_default_regions_include_eu_central_1_and_eu_north_1);
	tcase_add_test(t, aws_reads_the_recorded_index_head_and_drops_its_reserved_and_dedicated_rows);
	suite_add_tcase(s, t);
	add_apifeeds_tests(s);
	add_prices_tests(s);
	t = tcase_create("streamed memory");
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, a_streamed_body_far_larger_than_the_memory_cap_is_read_whole);
	suite_add_tcase(s, t);
	return s;
}
