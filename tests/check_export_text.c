/* check_export_text.c — planner/export_text.c through `planner schedule`:
 * hostile text from the store (a provider, an offer, a region with line
 * breaks, a YAML key, C0, DEL, C1 and U+2028) and from the spec (quotes,
 * $(...), a multi-line command) stays text in every export, each read back
 * with a real parser by tests/tools/hostile_check.py: PyYAML for SkyPilot,
 * dstack and k8s (no extra top-level key), python3-icalendar for ics, and
 * bash itself for the Slurm script, with sbatch a stub (issue 26). */
#include <cJSON.h>
#include <check.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"

/* One owned RTX 4090, for the restricted job (k8s, ics); the other job's
 * hours are rented from the hostile offer, the cheapest there is. */
static const char spec_yaml[] =
	"version: 1\n"
	"currency: USD\n"
	"timezone: Europe/Amsterdam\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 1}\n"
	"jobs:\n"
	"  - name: \"rag, \\\"nightly\\\" 'x' #y: z\"\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 300\n"
	"    schedule: {window: \"22:00-06:00\"}\n"
	"    run: {command: \"python x.py --tag 'a \\\"b\\\"'\\n\\techo done\", image: "
	"\"ghcr.io/acme/rag:1.2\"}\n"
	"  - name: local\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 20\n"
	"    data: restricted\n"
	"    run: {command: \"python local.py\", image: \"ghcr.io/acme/local:1\"}\n";

static const char command[] = "python x.py --tag 'a \"b\"'\n\techo done";

/* A database of the snapshot plus one RTX 4090 offer at 0.01 USD an hour
 * with this provider, offer id and region, stored as they are (as a store
 * written before the feeds' sanitising step would hold them). */
static char *db_with_offer(const char *dir, const char *provider, const char *offer,
			   const char *region)
{
	char *db = xasprintf("%s/p.db", dir), *out = NULL;
	const char *argv[] = {"providers", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	free(out);
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	ck_assert_int_eq(sqlite3_open(db, &h), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(h,
					    "INSERT INTO offers (provider, offer, region, gpu, "
					    "gpu_count, vram_gib, price_per_hour, fetched_at, "
					    "source) VALUES (?1, ?2, ?3, 'RTX 4090', 1, 23.99, 0.01, "
					    "'2026-11-30T00:00:00Z', 'test row')",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, provider, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, offer, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, region, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(h);
	return db;
}

/* Writes EXPECT.json for hostile_check.py; returns its path. */
static char *write_expect(const char *dir, const char *region, const char *job,
			  const char *summary_part)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "command", command);
	cJSON_AddStringToObject(o, "job", job);
	cJSON_AddStringToObject(o, "summary_part", summary_part);
	if (region)
		cJSON_AddStringToObject(o, "region", region);
	char *text = cJSON_PrintUnformatted(o), *path = test_write(dir, "expect.json", text);
	cJSON_free(text);
	cJSON_Delete(o);
	return path;
}

/* `planner schedule` of spec in format, checked by hostile_check.py. */
static void export_reads_back(const char *dir, const char *spec, const char *db,
			      const char *format, const char *expect)
{
	char *path = xasprintf("%s/out.%s", dir, format), *err = NULL, *out = NULL;
	const char *argv[] = {"schedule", spec, "--month", "2026-10", "--format", format,
			      "-o", path, "--db", db, "--allow-unplaced", NULL};
	int rc = test_run_planner(argv, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "schedule --format %s: %s", format, err ? err : "");
	char *cmd = xasprintf("/usr/bin/python3 tests/tools/hostile_check.py %s '%s' '%s' 2>&1",
			      format, path, expect);
	rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0 && !strncmp(out, "ok ", 3),
		      "%s export of hostile text (apt-get install python3-yaml "
		      "python3-icalendar): %s",
		      format, out ? out : "");
	free(out);
	free(cmd);
	free(err);
	free(path);
}

/* A provider name that would start a `setup:` key after a comment, and an
 * offer and region with every kind of control character. */
START_TEST(hostile_feed_text_in_the_store_stays_text_in_every_export)
{
	static const struct {
		const char *provider, *offer, *region;
	} rows[] = {
		{"acme\nsetup: touch pwned\n#\x01", "gpu\x7f\xc2\x85\xe2\x80\xa8x\"y\\z: #w",
		 "r1\nsetup: touch pwned"},
		{"aws", "p\nsetup: touch pwned\n# \x1b[31m\xc2\x9b", "us-east-1\nsetup: x\xe2\x80\xa9"},
	};
	static const char *const formats[] = {"skypilot", "dstack", "k8s", "ics"};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char *dir = test_tmpdir(), *spec = test_write(dir, "s.yaml", spec_yaml);
		char *db = db_with_offer(dir, rows[i].provider, rows[i].offer, rows[i].region);
		/* SkyPilot and dstack set a region only for a cloud they know */
		char *expect = write_expect(dir, i == 1 ? rows[i].region : NULL,
					    "rag, \"nightly\" 'x' #y: z", "rag, \"nightly\" 'x' #y: z on ");
		for (size_t k = 0; k < sizeof formats / sizeof formats[0]; k++)
			export_reads_back(dir, spec, db, formats[k], expect);
		free(expect);
		free(db);
		free(spec);
		free(dir);
	}
}
END_TEST

/* The Slurm script: a GPU name that would end a comment line is refused in
 * the spec; a job whose name and command hold quotes, $(...) and
 * backquotes, the command over two lines, runs under bash with each
 * sbatch word as written and nothing else run. */
START_TEST(the_slurm_script_passes_every_word_as_written_and_runs_nothing_else)
{
	char *dir = test_tmpdir(), *err = NULL;
	char *bad = test_write(dir, "bad.yaml",
			       "version: 1\n"
			       "gpus:\n"
			       "  - {name: \"X\\ntouch pwned\\n#\", vram_gib: 24, bandwidth_gbs: 1000,\n"
			       "     fp16_tflops: 80, watts: 300}\n"
			       "owned:\n"
			       "  - {gpu: \"X\\ntouch pwned\\n#\", count: 1}\n"
			       "jobs:\n"
			       "  - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
			       "hours_per_month: 10}\n");
	const char *argv[] = {"schedule", bad, "--month", "2026-10", "--format", "slurm", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, "bad.yaml:3:12: 'name' in gpus entry 1 holds the control "
				  "character U+000A") != NULL,
		      "%s", err);
	free(err);
	const char job[] = "it's $(touch pwned) `touch pwned`; \"y\" \\";
	char *spec = test_write(dir, "s.yaml",
				"version: 1\n"
				"owned:\n"
				"  - {gpu: RTX 4090, count: 1}\n"
				"jobs:\n"
				"  - name: \"it's $(touch pwned) `touch pwned`; \\\"y\\\" \\\\\"\n"
				"    model: llama-3.1-8b\n"
				"    precision: q4_k_m\n"
				"    hours_per_month: 20\n"
				"    run: {command: \"python x.py --tag 'a \\\"b\\\"'\\n\\techo done\"}\n");
	char *db = xasprintf("%s/p.db", dir), *expect = write_expect(dir, NULL, job, "");
	export_reads_back(dir, spec, db, "slurm", expect);
	free(expect);
	free(db);
	free(spec);
	free(bad);
	free(dir);
}
END_TEST

Suite *export_text_suite(void)
{
	Suite *s = suite_create("export_text");
	TCase *tc = tcase_create("hostile");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, hostile_feed_text_in_the_store_stays_text_in_every_export);
	tcase_add_test(tc, the_slurm_script_passes_every_word_as_written_and_runs_nothing_else);
	suite_add_tcase(s, tc);
	return s;
}
