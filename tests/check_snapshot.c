/* check_snapshot.c — schema/snapshot/build.py, which assembles the bundled
 * snapshot from the catalogue extracts, hand rows, API prices and fx block
 * under schema/snapshot/ (issue 29): the committed snapshot is what it
 * builds, and what it does with a catalogue row and an old row. */
#include <cJSON.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "provider.h"
#include "refdata.h"
#include "testutil.h"
#include "util.h"

/* Runs build.py from dir (a copy of schema/snapshot/, or the tree's) with
 * args; its exit status, stdout and stderr in *out. */
static int build(const char *python, const char *dir, const char *args, char **out)
{
	char *cmd = xasprintf("%s '%s/build.py' %s 2>&1", python, dir, args);
	int rc = test_sh(cmd, out);
	free(cmd);
	return rc;
}

/* A scratch snapshot directory: build.py, an empty catalogue list, one
 * fx block and as_of; rows and api files are the test's. */
static char *scratch(const char *as_of)
{
	char *dir = test_tmpdir();
	char *cmd = xasprintf("cp schema/snapshot/build.py schema/snapshot/fx.json '%s' && "
	                      "mkdir '%s/rows' '%s/api' '%s/sources'",
	                      dir, dir, dir, dir);
	ck_assert_int_eq(test_sh(cmd, NULL), 0);
	free(cmd);
	char *meta = xasprintf("{\"as_of\": \"%s\", \"note\": \"test\"}\n", as_of);
	free(test_write(dir, "meta.json", meta));
	free(meta);
	free(test_write(dir, "sources.json", "{\"catalogues\": []}\n"));
	return dir;
}

START_TEST(the_committed_snapshot_is_what_its_inputs_build_byte_for_byte)
{
	const char *pythons[] = {"python3", "/usr/bin/python3"};
	for (size_t i = 0; i < 2; i++) {
		if (i == 1 && access(pythons[i], X_OK) != 0)
			continue;
		char *dir = test_tmpdir(), *path = xasprintf("%s/snapshot.json", dir);
		char *args = xasprintf("--out '%s'", path), *out = NULL;
		ck_assert_msg(build(pythons[i], "schema/snapshot", args, &out) == 0, "%s", out);
		char *built = test_slurp(path), *committed = test_slurp("schema/snapshot.json");
		ck_assert_ptr_nonnull(built);
		ck_assert_ptr_nonnull(committed);
		ck_assert_msg(!strcmp(built, committed),
		              "schema/snapshot.json is not what schema/snapshot/ builds "
		              "(%s); run 'make snapshot'",
		              pythons[i]);
		/* and the binary carries that file (check_embed holds it byte for byte) */
		ck_assert_str_eq(built, planner_snapshot_json);
		free(built);
		free(committed);
		free(out);
		free(args);
		free(path);
		free(dir);
	}
}
END_TEST

START_TEST(a_changed_input_row_makes_the_committed_snapshot_differ)
{
	char *dir = test_tmpdir(), *out = NULL;
	char *cmd = xasprintf("cp -R schema/snapshot '%s/s' && sed -i.bak "
	                      "'0,/\"price_per_hour\": 8.38/s//\"price_per_hour\": 8.39/' "
	                      "'%s/s/rows/lambda.json' && ! cmp -s '%s/s/rows/lambda.json' "
	                      "'%s/s/rows/lambda.json.bak'",
	                      dir, dir, dir, dir);
	ck_assert_int_eq(test_sh(cmd, NULL), 0);
	char *sub = xasprintf("%s/s", dir);
	ck_assert_int_ne(build("python3", sub, "--check schema/snapshot.json", &out), 0);
	ck_assert_msg(strstr(out, "differs from what schema/snapshot/ builds"), "%s", out);
	free(out);
	/* the unchanged tree passes the same check */
	ck_assert_int_eq(build("python3", "schema/snapshot", "--check schema/snapshot.json", &out),
	                 0);
	free(out);
	free(sub);
	free(cmd);
	free(dir);
}
END_TEST

/* One hand row of provider p dated date. */
static char *row(const char *p, const char *offer, const char *date)
{
	return xasprintf("{\"provider\": \"%s\", \"offer\": \"%s\", \"region\": \"\", \"gpu\": "
	                 "\"L4\", \"gpu_count\": 1, \"price_per_hour\": 1.0, \"spot\": false, "
	                 "\"available\": true, \"fetched_at\": \"%sT00:00:00Z\", \"source\": "
	                 "\"test\", \"estimated\": false, \"marketplace\": false}",
	                 p, offer, date);
}

START_TEST(rows_more_than_90_days_before_the_snapshots_own_date_are_named)
{
	char *dir = scratch("2026-12-02T00:00:00Z");
	/* 2026-09-02 is 91 days before 2026-12-02, 2026-09-03 exactly 90 */
	char *a = row("alpha", "old", "2026-09-02"), *b = row("alpha", "edge", "2026-09-03");
	char *c = row("beta", "new", "2026-12-01");
	char *alpha = xasprintf("[%s, %s]\n", a, b), *beta = xasprintf("[%s]\n", c);
	free(test_write(dir, "rows/alpha.json", alpha));
	free(test_write(dir, "rows/beta.json", beta));
	char *args = xasprintf("--out '%s/snapshot.json'", dir), *out = NULL;
	ck_assert_int_eq(build("python3", dir, args, &out), 0);
	ck_assert_msg(strstr(out, "stale: alpha: 1 row dated 2026-09-02 (more than 90 days "
	                          "before as_of 2026-12-02)"),
	              "%s", out);
	ck_assert_msg(!strstr(out, "2026-09-03") && !strstr(out, "stale: beta"), "%s", out);
	/* providers in name order, each provider's rows in its file's order */
	char *path = xasprintf("%s/snapshot.json", dir), *snap = test_slurp(path);
	ck_assert_ptr_nonnull(snap);
	const char *o = strstr(snap, "\"old\""), *e = strstr(snap, "\"edge\""),
	           *n = strstr(snap, "\"new\"");
	ck_assert(o && e && n && o < e && e < n);
	free(snap);
	free(path);
	free(out);
	free(args);
	free(alpha);
	free(beta);
	free(a);
	free(b);
	free(c);
	free(dir);
}
END_TEST

/* A catalogue extract of two types, one of them a GPU the manifest names
 * null (left out), described by a manifest entry. */
static const char *const CATALOGUE_CSV =
    "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,Region,Price,SpotPrice\n"
    "1H100.80S.30V,30.0,120.0,H100,1.0,FIN-03,1.99,1.0\n"
    "share-a100,6.0,30.0,A100-share,1.0,FIN-01,0.5,\n";

static const char *const CATALOGUE_MANIFEST =
    "{\"catalogues\": [{\"provider\": \"verda\", \"file\": \"sources/v.csv\", \"origin\": "
    "\"test catalogue\", \"retrieved\": \"2026-12-02\", \"fetched_at\": "
    "\"2026-11-20T00:00:00Z\", \"basis\": \"list\", \"marketplace\": false, \"columns\": "
    "{\"offer\": \"InstanceType\", \"gpu\": \"AcceleratorName\", \"gpu_count\": "
    "\"AcceleratorCount\", \"vcpus\": \"vCPUs\", \"ram_gib\": \"MemoryGiB\", \"region\": "
    "\"Region\", \"price\": \"Price\", \"spot_price\": \"SpotPrice\"}, \"gpu_names\": "
    "{\"H100\": \"H100 SXM\", \"A100-share\": null}}]}\n";

START_TEST(a_catalogue_row_becomes_an_on_demand_and_a_spot_row_and_a_null_gpu_is_left_out)
{
	char *dir = scratch("2026-12-02T00:00:00Z");
	free(test_write(dir, "sources/v.csv", CATALOGUE_CSV));
	free(test_write(dir, "sources.json", CATALOGUE_MANIFEST));
	char *args = xasprintf("--out '%s/snapshot.json'", dir), *out = NULL;
	ck_assert_msg(build("python3", dir, args, &out) == 0, "%s", out);
	char *path = xasprintf("%s/snapshot.json", dir), *text = test_slurp(path);
	cJSON *snap = cJSON_Parse(text);
	const cJSON *offers = cJSON_GetObjectItem(snap, "offers");
	ck_assert_int_eq(cJSON_GetArraySize(offers), 2);
	for (int i = 0; i < 2; i++) {
		const cJSON *o = cJSON_GetArrayItem(offers, i);
		ck_assert_str_eq(cJSON_GetObjectItem(o, "offer")->valuestring, "1H100.80S.30V");
		ck_assert_str_eq(cJSON_GetObjectItem(o, "gpu")->valuestring, "H100 SXM");
		ck_assert_str_eq(cJSON_GetObjectItem(o, "region")->valuestring, "FIN-03");
		ck_assert_int_eq(cJSON_GetObjectItem(o, "vcpus")->valueint, 30);
		ck_assert_int_eq(cJSON_IsTrue(cJSON_GetObjectItem(o, "spot")), i == 1);
		ck_assert_double_eq(cJSON_GetObjectItem(o, "price_per_hour")->valuedouble,
		                    i ? 1.0 : 1.99);
		ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(o, "estimated")));
		ck_assert_ptr_nonnull(strstr(cJSON_GetObjectItem(o, "source")->valuestring,
		                             "test catalogue, row 1H100.80S.30V FIN-03"));
	}
	cJSON_Delete(snap);
	free(text);
	/* a GPU the manifest does not name stops the build */
	free(test_write(dir, "sources/v.csv",
	                "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,Region,"
	                "Price,SpotPrice\nx,1,1,Mystery-GPU,1,FIN-01,1.0,\n"));
	free(out);
	ck_assert_int_ne(build("python3", dir, args, &out), 0);
	ck_assert_msg(strstr(out, "GPU 'Mystery-GPU' has no name in sources.json"), "%s", out);
	free(out);
	free(path);
	free(args);
	free(dir);
}
END_TEST

/* Issue 29 item 2: a retired feed keeps no fresh-looking rows: the
 * bundled snapshot holds none of a provider whose adapter is retired, and
 * the three found retired are. */
START_TEST(the_snapshot_holds_no_row_of_a_retired_provider)
{
	cJSON *snap = cJSON_Parse(planner_snapshot_json);
	ck_assert_ptr_nonnull(snap);
	size_t retired = 0;
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *p = provider_list[i];
		if (!p->retired)
			continue;
		retired++;
		ck_assert_msg(p->retired_why && *p->retired_why && strlen(p->retired) == 10,
		              "%s: a retired feed says when (YYYY-MM-DD) and why", p->name);
		const cJSON *o;
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(snap, "offers"))
		{
			ck_assert_msg(
			    strcmp(cJSON_GetObjectItem(o, "provider")->valuestring, p->name),
			    "the snapshot holds a row of retired %s", p->name);
		}
	}
	ck_assert_uint_eq(retired, 3);
	ck_assert(provider_find("cudo")->retired && provider_find("fluidstack")->retired &&
	          provider_find("tensordock")->retired);
	cJSON_Delete(snap);
}
END_TEST

Suite *snapshot_suite(void)
{
	Suite *s = suite_create("snapshot");
	TCase *tc = tcase_create("build.py");
	tcase_add_test(tc, the_committed_snapshot_is_what_its_inputs_build_byte_for_byte);
	tcase_add_test(tc, a_changed_input_row_makes_the_committed_snapshot_differ);
	tcase_add_test(tc, rows_more_than_90_days_before_the_snapshots_own_date_are_named);
	tcase_add_test(
	    tc, a_catalogue_row_becomes_an_on_demand_and_a_spot_row_and_a_null_gpu_is_left_out);
	tcase_add_test(tc, the_snapshot_holds_no_row_of_a_retired_provider);
	suite_add_tcase(s, tc);
	return s;
}
