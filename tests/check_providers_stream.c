/* check_providers_stream.c — the streaming readers the adapters share
 * (providers/json_items.c, json_flat.c): a list, an object's members or a
 * paged feed read as the body arrives, in any split, holding one element;
 * chosen members read from an element's bytes as cJSON would read them. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "provider.h"
#include "providers_util.h"
#include "testutil.h"

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

Suite *providers_stream_suite(void)
{
	Suite *s = suite_create("providers_stream");
	TCase *t = tcase_create("stream readers");
	tcase_add_test(t, vast_offers_stream_in_any_split_holding_one_offer_at_a_time);
	tcase_add_test(t, a_next_page_member_before_or_after_the_list_is_kept_in_any_split);
	tcase_add_test(t, a_next_page_member_cut_off_or_over_8_kib_is_an_error);
	tcase_add_test(t, azure_and_gcp_pages_stream_one_item_at_a_time);
	tcase_add_test(t, the_flat_reader_reads_members_as_cjson_does_or_leaves_the_object_to_it);
	tcase_add_test(t, the_members_of_a_top_level_object_stream_with_their_names_in_any_split);
	suite_add_tcase(s, t);
	t = tcase_create("streamed memory");
	tcase_set_timeout(t, 0); /* no wall-clock limit */
	tcase_add_test(t, a_streamed_body_far_larger_than_the_memory_cap_is_read_whole);
	suite_add_tcase(s, t);
	return s;
}
