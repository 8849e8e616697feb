/* check_probe.c — nvidia-smi output parsing (planner/probe.c) on the
 * outputs in tests/fixtures/probe/ (hand-written; see its README), and
 * `planner probe` end to end with PLANNER_NVIDIA_SMI pointing at a fake
 * nvidia-smi script. */
#include <check.h>
#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probe.h"
#include "testutil.h"
#include "util.h"

#define FIXTURES "tests/fixtures/probe/"

static int parse_fixture(const char *name, struct probe_gpu **g, size_t *n, char **err)
{
	char *path = xasprintf(FIXTURES "%s", name);
	char *text = test_slurp(path);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	int rc = probe_parse(text, test_ref(), g, n, err);
	free(text);
	free(path);
	return rc;
}

/* Issue 12: nvidia-smi's name went to the terminal and the JSON raw. */
START_TEST(an_unknown_gpus_name_is_sanitised_before_it_is_shown)
{
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(probe_parse("0, Foo\x1b]52;c;eA==\x07 Bar\xff, 16384, 250\n", test_ref(), &g,
				     &n, &err),
			 PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(g[0].name, "Foo]52;c;eA== Bar?");
	free(g);
}
END_TEST

START_TEST(four_h100_boards_become_one_owned_entry_with_their_power_limit)
{
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(parse_fixture("four_h100.txt", &g, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 4);
	ck_assert_int_eq(g[3].index, 3);
	ck_assert_str_eq(g[0].name, "NVIDIA H100 80GB HBM3");
	ck_assert_ptr_nonnull(g[0].gpu);
	ck_assert_str_eq(g[0].gpu->name, "H100 SXM");
	ck_assert_double_eq_tol(g[0].vram_gib, 81559 / 1024.0, 1e-9);
	ck_assert_double_eq_tol(g[0].power_limit_w, 700, 1e-9);
	char *yaml = probe_owned_yaml(g, n);
	ck_assert_str_eq(yaml, "owned:\n  - {gpu: H100 SXM, count: 4, watts: 700}\n");
	free(yaml);
	free(g);
}
END_TEST

START_TEST(mixed_boards_are_grouped_and_differing_power_limits_drop_watts)
{
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(parse_fixture("mixed_workstation.txt", &g, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 3);
	char *yaml = probe_owned_yaml(g, n);
	/* The two 4090s run at 450 and 400 W: the reference board power is
	 * the better guess than either. */
	ck_assert_str_eq(yaml, "owned:\n  - {gpu: RTX 4090, count: 2}\n"
			       "  - {gpu: RTX 3090, count: 1, watts: 350}\n");
	free(yaml);
	free(g);
}
END_TEST

START_TEST(mig_mode_lists_the_physical_gpus_with_their_full_memory)
{
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(parse_fixture("mig_a100.txt", &g, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_ptr_nonnull(g[0].gpu);
	ck_assert_str_eq(g[0].gpu->name, "A100 80GB");
	ck_assert_double_eq_tol(g[1].vram_gib, 80, 1e-9);
	free(g);
}
END_TEST

START_TEST(na_fields_read_as_unknown_and_unknown_boards_become_comments)
{
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(parse_fixture("na_fields.txt", &g, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 2);
	ck_assert_double_eq(g[0].power_limit_w, 0);
	ck_assert_double_eq(g[1].vram_gib, 0);
	ck_assert_ptr_null(g[1].gpu); /* a Tesla K80 is not in the table */
	char *yaml = probe_owned_yaml(g, n);
	ck_assert_ptr_nonnull(strstr(yaml, "# 1x \"Tesla K80\": not in planner's GPU table"));
	/* How to describe it, not a pointer to a help that lists no GPUs. */
	ck_assert_ptr_null(strstr(yaml, "fit --help"));
	ck_assert_ptr_nonnull(strstr(yaml, "'planner gpus' lists"));
	ck_assert_ptr_nonnull(strstr(yaml, "#   gpus:\n  #     - {name: \"Tesla K80\", vram_gib: "));
	ck_assert_ptr_nonnull(strstr(yaml, "#     - {gpu: \"Tesla K80\", count: 1}"));
	ck_assert_ptr_null(strstr(yaml, "watts: 0"));
	free(yaml);
	free(g);
}
END_TEST

START_TEST(the_driver_error_text_is_not_taken_for_a_gpu)
{
	static const char *const fixtures[] = {"no_driver.txt", "no_devices.txt"};
	for (size_t i = 0; i < 2; i++) {
		struct probe_gpu *g = NULL;
		size_t n = 0;
		char *err = NULL;
		ck_assert_int_eq(parse_fixture(fixtures[i], &g, &n, &err), PLANNER_EINPUT);
		ck_assert_ptr_null(g);
		ck_assert_ptr_nonnull(err);
		free(err);
	}
	struct probe_gpu *g = NULL;
	size_t n = 0;
	char *err = NULL;
	ck_assert_int_eq(probe_parse("\n\n", test_ref(), &g, &n, &err), PLANNER_OK);
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(probe_parse("0, A, 1, 2, 3\n", test_ref(), &g, &n, &err), PLANNER_EINPUT);
	free(err);
}
END_TEST

/* A fake nvidia-smi printing a fixture and exiting with status; returns
 * the "PLANNER_NVIDIA_SMI=..." environment entry. */
static char *fake_smi(const char *dir, const char *fixture, int status)
{
	char *cwd = getcwd(NULL, 0);
	char *body = xasprintf("#!/bin/sh\ncat '%s/" FIXTURES "%s'\nexit %d\n", cwd, fixture,
			       status);
	char *path = test_write(dir, "nvidia-smi", body);
	ck_assert_int_eq(chmod(path, 0755), 0);
	char *env = xasprintf("PLANNER_NVIDIA_SMI=%s", path);
	free(path);
	free(body);
	free(cwd);
	return env;
}

START_TEST(probe_prints_the_gpus_and_an_owned_block_to_paste)
{
	char *dir = test_tmpdir(), *env = fake_smi(dir, "mixed_workstation.txt", 0), *out = NULL;
	const char *e[] = {env, NULL};
	const char *argv[] = {"probe", NULL};
	ck_assert_int_eq(test_run_planner(argv, e, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "NVIDIA GeForce RTX 3090"));
	ck_assert_ptr_nonnull(strstr(out, "owned:\n  - {gpu: RTX 4090, count: 2}\n"));
	ck_assert_ptr_nonnull(strstr(out, "     24.0         350"));
	free(out);
	const char *json[] = {"probe", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(json, e, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "gpus")), 3);
	cJSON_Delete(root);
	free(out);
	free(env);
	free(dir);
}
END_TEST

START_TEST(no_driver_or_no_nvidia_smi_says_no_gpu_and_exits_0)
{
	char *dir = test_tmpdir(), *env = fake_smi(dir, "no_driver.txt", 9), *out = NULL;
	char *err = NULL;
	const char *e[] = {env, NULL};
	const char *argv[] = {"probe", "--verbose", NULL};
	ck_assert_int_eq(test_run_planner(argv, e, &out, &err), 0);
	ck_assert_str_eq(out, "no NVIDIA GPU found on this machine\n");
	ck_assert_ptr_nonnull(strstr(err, "couldn't communicate with the NVIDIA driver"));
	free(out);
	free(err);
	const char *missing[] = {"PLANNER_NVIDIA_SMI=/no/such/nvidia-smi", NULL};
	ck_assert_int_eq(test_run_planner(argv, missing, &out, NULL), 0);
	ck_assert_str_eq(out, "no NVIDIA GPU found on this machine\n");
	free(out);
	free(env);
	free(dir);
}
END_TEST

Suite *probe_suite(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("nvidia-smi output");
	tcase_add_test(tc, four_h100_boards_become_one_owned_entry_with_their_power_limit);
	tcase_add_test(tc, an_unknown_gpus_name_is_sanitised_before_it_is_shown);
	tcase_add_test(tc, mixed_boards_are_grouped_and_differing_power_limits_drop_watts);
	tcase_add_test(tc, mig_mode_lists_the_physical_gpus_with_their_full_memory);
	tcase_add_test(tc, na_fields_read_as_unknown_and_unknown_boards_become_comments);
	tcase_add_test(tc, the_driver_error_text_is_not_taken_for_a_gpu);
	suite_add_tcase(s, tc);
	TCase *e2e = tcase_create("end to end");
	tcase_set_timeout(e2e, 0); /* no wall-clock limit: runs are slow under ASan */
	tcase_add_test(e2e, probe_prints_the_gpus_and_an_owned_block_to_paste);
	tcase_add_test(e2e, no_driver_or_no_nvidia_smi_says_no_gpu_and_exits_0);
	suite_add_tcase(s, e2e);
	return s;
}
