/* check_json_schema.c — every --format json output against its contract
 * in schema/json/ (docs/design.md, "JSON contract"), validated by
 * tests/tools/schema_validate.py with Debian's python3-jsonschema. */
#include <check.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"

/* Runs planner with argv plus --format json --db db; keeps a zero-exit
 * output in dir. Returns the exit status. */
static int keep(const char *dir, const char *db, const char *const *argv)
{
	const char *av[16];
	size_t n = 0;
	while (argv[n] && n < 10) {
		av[n] = argv[n];
		n++;
	}
	av[n++] = "--format";
	av[n++] = "json";
	av[n++] = "--db";
	av[n++] = db;
	av[n] = NULL;
	char *out = NULL;
	int rc = test_run_planner(av, NULL, &out, NULL);
	if (rc == 0 && out && *out)
		test_keep_json(dir, av, out);
	free(out);
	return rc;
}

/* schema_validate.py --outputs dir: its status, its stderr in *err. */
static int validate(const char *dir, char **err)
{
	char *cmd = xasprintf("/usr/bin/python3 tests/tools/schema_validate.py --outputs %s 2>&1",
	                      dir);
	int rc = test_sh(cmd, err);
	free(cmd);
	return rc;
}

START_TEST(every_json_output_over_the_fixture_specs_validates)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *err = NULL;
	glob_t g;
	ck_assert_int_eq(glob("jobs/*.yaml", 0, NULL, &g), 0);
	ck_assert_int_eq(glob("tests/fixtures/jobs/*.yaml", GLOB_APPEND, NULL, &g), 0);
	int ok = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *spec = g.gl_pathv[i];
		const char *cmds[] = {"compare", "fleet", "schedule"};
		for (size_t k = 0; k < 3; k++) {
			const char *a[] = {cmds[k], spec, NULL};
			ok += keep(dir, db, a) == 0;
		}
		const char *d[] = {"diff", "jobs/monthly.yaml", spec, NULL};
		ok += keep(dir, db, d) == 0;
	}
	globfree(&g);
	const char *const lists[][4] = {
	    {"offers", "--limit", "0", NULL}, {"offers", "--api", "--limit", "0"},
	    {"providers", NULL},              {"gpus", NULL},
	    {"models", NULL},                 {"probe", NULL},
	    {"history", "h100", NULL},        {"fit", "llama-3.1-70b", NULL},
	    {"fit", "--gpu", "rtx-4090", NULL}, {"fit", "llama-3.1-8b", "--task", "finetune-lora"},
	};
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
		const char *a[5] = {lists[i][0], lists[i][1], lists[i][2], lists[i][3], NULL};
		ck_assert_msg(keep(dir, db, a) == 0, "planner %s %s failed", a[0], a[1] ? a[1] : "");
	}
	/* the good specs of jobs/ and tests/fixtures/jobs/ at least */
	ck_assert_int_ge(ok, 20);
	ck_assert_msg(validate(dir, &err) == 0, "%s", err);
	free(err);
	free(db);
	free(dir);
}
END_TEST

/* Writes text as dir's one output of argv and validates the folder. */
static int validate_text(const char *text, const char *const *argv, char **err)
{
	char *dir = test_tmpdir();
	test_keep_json(dir, argv, text);
	int rc = validate(dir, err);
	free(dir);
	return rc;
}

START_TEST(an_undocumented_field_fails)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/p.db", dir), *out = NULL, *err = NULL;
	const char *a[] = {"compare", "jobs/monthly.yaml", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(a, NULL, &out, NULL), 0);
	cJSON *j = cJSON_Parse(out);
	ck_assert_ptr_nonnull(j);
	ck_assert_int_eq(validate_text(out, a, &err), 0);
	free(err);
	/* in a route of a job, the shared $defs/route */
	cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "jobs"), 0);
	cJSON *route = cJSON_GetArrayItem(cJSON_GetObjectItem(job, "routes"), 1);
	ck_assert_ptr_nonnull(route);
	cJSON_AddNumberToObject(route, "undocumented_field", 1);
	char *bad = cJSON_Print(j);
	ck_assert_int_eq(validate_text(bad, a, &err), 1);
	ck_assert_msg(strstr(err, "undocumented_field") != NULL, "%s", err);
	free(err);
	free(bad);
	cJSON_Delete(j);
	/* a route key no route has, in an object keyed by route */
	j = cJSON_Parse(out);
	cJSON *mon = cJSON_GetObjectItem(
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(j, "jobs"), 0), "horizon"),
	    "monthly");
	ck_assert_ptr_nonnull(mon);
	cJSON_AddItemToObject(mon, "fifth", cJSON_CreateArray());
	bad = cJSON_Print(j);
	ck_assert_int_eq(validate_text(bad, a, &err), 1);
	ck_assert_msg(strstr(err, "fifth") != NULL, "%s", err);
	free(err);
	free(bad);
	cJSON_Delete(j);
	free(out);
	/* in a top-level array, named by its command line */
	const char *o[] = {"offers", "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(o, NULL, &out, NULL), 0);
	j = cJSON_Parse(out);
	cJSON_AddStringToObject(cJSON_GetArrayItem(j, 0), "undocumented_field", "x");
	bad = cJSON_Print(j);
	ck_assert_int_eq(validate_text(bad, o, &err), 1);
	ck_assert_msg(strstr(err, "undocumented_field") != NULL, "%s", err);
	free(err);
	free(bad);
	cJSON_Delete(j);
	free(out);
	free(db);
	free(dir);
}
END_TEST

/* Every command whose --help offers --format json has a schema file
 * named after it (fit's --gpu listing and offers --api have theirs too). */
START_TEST(every_command_with_json_output_has_a_schema)
{
	char *help = NULL;
	const char *h[] = {"--help", NULL};
	test_run_planner(h, NULL, &help, NULL);
	ck_assert_ptr_nonnull(help);
	const char *p = strstr(help, "\ncommands:\n");
	ck_assert_ptr_nonnull(p);
	int with_json = 0;
	for (p = strchr(p + 1, '\n') + 1; p && !strncmp(p, "  ", 2) && p[2] != ' ';
	     p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		char name[32];
		if (sscanf(p, " %31s", name) != 1)
			break;
		char *out = NULL;
		const char *a[] = {name, "--help", NULL};
		test_run_planner(a, NULL, &out, NULL);
		ck_assert_ptr_nonnull(out);
		/* the usage line, or an option line "  --format ... json" */
		const char *nl = strchr(out, '\n');
		bool json = nl && test_memmem(out, (size_t)(nl - out), "json", 4);
		for (const char *l = out; !json && l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
			json = !strncmp(l, "  --format", 10) && strstr(l, "json") &&
			       strstr(l, "json") < strchr(l, '\n');
		if (json) {
			char *path = xasprintf("schema/json/%s.v1.schema.json", name);
			char *text = test_slurp(path);
			ck_assert_msg(text != NULL, "planner %s prints JSON but %s is missing", name,
			              path);
			free(text);
			free(path);
			with_json++;
		}
		free(out);
	}
	ck_assert_int_ge(with_json, 12);
	free(help);
}
END_TEST

Suite *json_schema_suite(void)
{
	Suite *s = suite_create("json_schema");
	TCase *tc = tcase_create("json_schema");
	tcase_set_timeout(tc, 600);
	tcase_add_test(tc, every_json_output_over_the_fixture_specs_validates);
	tcase_add_test(tc, an_undocumented_field_fails);
	tcase_add_test(tc, every_command_with_json_output_has_a_schema);
	suite_add_tcase(s, tc);
	return s;
}
