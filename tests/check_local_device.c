/* check_local_device.c — Macs, Strix Halo PCs and CPUs (planner/local_device.c)
 * as fit and compare answer for them: issue 28's commands. */
#include <cJSON.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "local_device.h"
#include "testutil.h"

/* fit's JSON rows for argv, parsed; the caller deletes the root. */
static cJSON *fit_json(const char *const *argv)
{
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	free(out);
	ck_assert_ptr_nonnull(root);
	return root;
}

START_TEST(an_m3_max_with_64_gib_fits_a_70b_at_q4_k_m_and_shows_each_variant_without_it)
{
	const char *one[] = {"fit",    "llama-3.1-70b", "--precision", "q4_k_m",   "--gpu",
	                     "M3 Max", "--memory-gib",  "64",          "--format", "json",
	                     NULL};
	cJSON *root = fit_json(one);
	const cJSON *gpus = cJSON_GetObjectItem(root, "gpus");
	ck_assert_int_eq(cJSON_GetArraySize(gpus), 1);
	const cJSON *g = cJSON_GetArrayItem(gpus, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "gpu")->valuestring, "M3 Max 40-core");
	ck_assert_str_eq(cJSON_GetObjectItem(g, "kind")->valuestring, "unified");
	ck_assert_str_eq(cJSON_GetObjectItem(g, "engine")->valuestring, "llama.cpp");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	double tps = cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble;
	ck_assert(tps > 4 && tps < 12); /* 400 GB/s over 42 GB of weights */
	cJSON_Delete(root);

	const char *all[] = {"fit",    "llama-3.1-70b", "--precision", "q4_k_m", "--gpu",
	                     "M3 Max", "--format",      "json",        NULL};
	root = fit_json(all);
	gpus = cJSON_GetObjectItem(root, "gpus");
	ck_assert_int_eq(cJSON_GetArraySize(gpus), 5); /* 30-core 36/96, 40-core 48/64/128 */
	g = cJSON_GetArrayItem(gpus, 0);
	ck_assert_int_eq((int)cJSON_GetObjectItem(g, "vram_gib")->valuedouble, 36);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "fits"))); /* 24 GiB wired */
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(g, "decode_tokens_per_second")));
	cJSON_Delete(root);
}
END_TEST

START_TEST(a_size_the_chip_is_not_sold_with_names_the_sizes)
{
	const char *argv[] = {"fit", "llama-3.1-8b", "--gpu", "M3 Max", "--memory-gib", "50", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "M3 Max is sold with 36, 48, 64, 96 or 128 GiB"));
	free(err);
	const char *near[] = {"fit", "llama-3.1-8b", "--gpu", "M3 Maxx", NULL};
	ck_assert_int_eq(test_run_planner(near, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "did you mean 'M3 Max'"));
	free(err);
}
END_TEST

START_TEST(a_ryzen_runs_on_its_cpu_and_cpu_alone_lists_the_choices)
{
	const char *argv[] = {"fit",           "llama-3.1-8b", "--precision", "q4_k_m", "--gpu",
	                      "Ryzen 9 7950X", "--format",     "json",        NULL};
	cJSON *root = fit_json(argv);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "kind")->valuestring, "cpu");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	double tps = cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble;
	ck_assert(tps > 5 && tps < 20); /* 83 GB/s dual-channel DDR5 over 4.6 GB */
	cJSON_Delete(root);

	const char *cpu[] = {"fit", "llama-3.1-8b", "--gpu", "cpu", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(cpu, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "'Ryzen 9 7950X'"));
	ck_assert_ptr_nonnull(strstr(err, "--gpu custom --kind cpu"));
	free(err);
}
END_TEST

START_TEST(a_3060_that_cannot_hold_the_model_prints_no_speed_and_no_footnote_about_8_gpus)
{
	const char *argv[] = {"fit",  "qwen2.5-32b", "--precision", "q4_k_m", "--gpu",
	                      "3060", "--gpus",      "1",           NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "20.32            -    no"));
	ck_assert_ptr_null(strstr(out, "more than 8"));
	ck_assert_ptr_nonnull(strstr(out, "does not fit on 1"));
	free(out);
	const char *json[] = {"fit",    "qwen2.5-32b", "--precision", "q4_k_m", "--gpu", "3060",
	                      "--gpus", "1",           "--format",    "json",   NULL};
	cJSON *root = fit_json(json);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "fits")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(g, "decode_tokens_per_second")));
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(g, "tokens_per_second")));
	cJSON_Delete(root);
}
END_TEST

START_TEST(a_custom_device_is_described_by_its_flags_and_bad_figures_are_refused)
{
	const char *argv[] = {"fit",
	                      "llama-3.1-8b",
	                      "--precision",
	                      "q4_k_m",
	                      "--gpu",
	                      "custom",
	                      "--kind",
	                      "cpu",
	                      "--memory-gib",
	                      "32",
	                      "--bandwidth-gbs",
	                      "90",
	                      "--tflops",
	                      "2",
	                      "--format",
	                      "json",
	                      NULL};
	cJSON *root = fit_json(argv);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "gpu")->valuestring, "custom");
	ck_assert(cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble > 0);
	cJSON_Delete(root);
	const char *missing[] = {"fit",          "llama-3.1-8b", "--gpu", "custom",
	                         "--memory-gib", "32",           NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(missing, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--bandwidth-gbs wants"));
	free(err);
	const char *absurd[] = {"fit", "llama-3.1-8b",    "--gpu", "custom",   "--memory-gib",
	                        "1e9", "--bandwidth-gbs", "90",    "--tflops", "2",
	                        NULL};
	ck_assert_int_eq(test_run_planner(absurd, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "--memory-gib wants"));
	free(err);
	const char *vllm[] = {"fit", "llama-3.1-8b", "--gpu", "M2 Ultra", "--engine", "vllm", NULL};
	ck_assert_int_eq(test_run_planner(vllm, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "does not run on M2 Ultra"));
	free(err);
}
END_TEST

START_TEST(compare_prices_an_owned_mac_for_a_llama_cpp_job_without_accelerator_any)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "mac.yaml",
	                        "version: 1\n"
	                        "electricity_per_kwh: 0.30\n"
	                        "owned:\n"
	                        "  - {gpu: M2 Ultra 76-core, count: 1}\n"
	                        "jobs:\n"
	                        "  - name: chat\n"
	                        "    model: llama-3.1-8b\n"
	                        "    precision: q4_k_m\n"
	                        "    tokens_per_month: {input: 20M, output: 5M}\n"
	                        "    data: restricted\n");
	const char *argv[] = {"compare", spec, "--format", "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "M2 Ultra 76-core"));
	free(out);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_spec_describes_a_cpu_box_under_gpus_with_its_kind_and_threads)
{
	char *dir = test_tmpdir();
	char *spec =
	    test_write(dir, "cpu.yaml",
	               "version: 1\n"
	               "gpus:\n"
	               "  - {name: My Threadripper, kind: cpu, vram_gib: 256, bandwidth_gbs: 300,\n"
	               "     fp16_tflops: 5, watts: 350, threads: 32}\n"
	               "owned:\n"
	               "  - {gpu: My Threadripper, count: 1}\n"
	               "jobs:\n"
	               "  - name: chat\n"
	               "    model: llama-3.1-8b\n"
	               "    precision: q4_k_m\n"
	               "    hours_per_month: 10\n"
	               "    data: restricted\n");
	const char *argv[] = {"compare", spec, NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "1x My Threadripper on hand"));
	free(out);
	char *bad = test_write(dir, "bad.yaml",
	                       "version: 1\n"
	                       "gpus:\n"
	                       "  - {name: Box, kind: tpu, vram_gib: 8, bandwidth_gbs: 30, "
	                       "fp16_tflops: 1, watts: 50}\n"
	                       "jobs:\n"
	                       "  - {name: a, model: llama-3.1-8b, hours_per_month: 1}\n");
	const char *b[] = {"compare", bad, NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(b, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "bad.yaml:3:"));
	ck_assert_ptr_nonnull(strstr(err, "unknown kind 'tpu'"));
	free(err);
	free(bad);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(an_owned_mac_takes_memory_gib_for_its_variant_and_a_size_not_sold_is_refused)
{
	char *dir = test_tmpdir();
	const char *fmt = "version: 1\n"
	                  "owned:\n"
	                  "  - {gpu: M3 Max 40-core, memory_gib: %s, watts: 90}\n"
	                  "jobs:\n"
	                  "  - {name: big, model: llama-3.1-70b, precision: q4_k_m, "
	                  "hours_per_month: 100, data: restricted}\n";
	char text[512];
	snprintf(text, sizeof text, fmt, "64");
	char *spec = test_write(dir, "mac.yaml", text);
	const char *argv[] = {"compare", spec, NULL};
	char *out = NULL, *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "1x M3 Max 40-core 64 GiB on hand"));
	free(out);
	free(spec);
	/* 48 GiB, the smallest, wires 36: a 70B at q4_k_m does not fit on it. */
	snprintf(text, sizeof text, fmt, "48");
	spec = test_write(dir, "mac.yaml", text);
	argv[1] = spec;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_null(strstr(out, "M3 Max 40-core 48 GiB on hand"));
	free(out);
	free(spec);
	snprintf(text, sizeof text, fmt, "50");
	spec = test_write(dir, "mac.yaml", text);
	argv[1] = spec;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err,
	                             "mac.yaml:3:5: owned entry 1: memory_gib 50: M3 Max 40-core "
	                             "is sold with 48, 64 or 128 GiB"));
	free(err);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(an_owned_mac_a_vllm_job_cannot_use_is_named_with_the_reason)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "macv.yaml",
	                        "version: 1\n"
	                        "owned:\n"
	                        "  - {gpu: M2 Ultra 76-core, count: 1, watts: 295}\n"
	                        "buy: []\n"
	                        "jobs:\n"
	                        "  - {name: chat, model: llama-3.1-8b, hours_per_month: 10, "
	                        "data: restricted}\n");
	const char *argv[] = {"compare", spec, NULL};
	char *out = NULL;
	test_run_planner(argv, NULL, &out, NULL);
	ck_assert_ptr_nonnull(strstr(out, "the owned M2 Ultra 76-core runs llama.cpp jobs only and "
	                                  "this job's engine is vllm"));
	free(out);
	free(spec);
	free(dir);
}
END_TEST

/* The owned route of compare's JSON for spec text, parsed; the caller
 * deletes *root. */
static const cJSON *owned_route(const char *yaml, cJSON **root)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "own.yaml", yaml);
	const char *argv[] = {"compare", spec, "--format", "json", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	*root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(*root);
	free(out);
	free(spec);
	free(dir);
	const cJSON *job = cJSON_GetArrayItem(cJSON_GetObjectItem(*root, "jobs"), 0);
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(job, "routes"))
	{
		if (!strcmp(cJSON_GetObjectItem(r, "route")->valuestring, "owned"))
			return r;
	}
	ck_abort_msg("no owned route");
	return NULL;
}

START_TEST(a_bought_mac_is_its_own_host_and_each_machine_runs_its_own_copy)
{
	/* costs.host prices the box GPUs sit in; a Mac Studio is the box.
	 * 2000M + 400M tokens a month need more than one machine's month. */
	cJSON *root = NULL;
	const cJSON *r = owned_route("version: 1\n"
	                             "electricity_per_kwh: 0.30\n"
	                             "costs:\n"
	                             "  host: {price: 3000, watts: 250, gpus: 4}\n"
	                             "buy:\n"
	                             "  - {gpu: M2 Max 30-core}\n"
	                             "jobs:\n"
	                             "  - name: chat\n"
	                             "    model: llama-3.1-8b\n"
	                             "    precision: q4_k_m\n"
	                             "    tokens_per_month: {input: 2000M, output: 400M}\n"
	                             "    data: restricted\n",
	                             &root);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	int machines = cJSON_GetObjectItem(r, "gpu_count")->valueint;
	ck_assert_int_gt(machines, 1);
	ck_assert_int_eq(cJSON_GetObjectItem(r, "replicas")->valueint, machines);
	ck_assert_int_eq(cJSON_GetObjectItem(r, "hosts")->valueint, 0);
	/* The table's Mac Studio price, USD 1,999, for each machine; no host. */
	ck_assert_double_eq_tol(cJSON_GetObjectItem(r, "capex")->valuedouble, 1999.0 * machines,
	                        1e-6);
	/* Power: 145 W a machine for its hours, and no host's 250 W. */
	double hours = cJSON_GetObjectItem(r, "gpu_hours")->valuedouble;
	ck_assert_double_eq_tol(cJSON_GetObjectItem(r, "power_cost")->valuedouble,
	                        machines * 145 * hours / 1000.0 * 0.30, 0.01);
	cJSON_Delete(root);
}
END_TEST

START_TEST(an_owned_mac_a_job_cannot_use_is_named_when_another_device_runs_it)
{
	cJSON *root = NULL;
	const char *yaml = "version: 1\n"
	                   "owned:\n"
	                   "  - {gpu: M2 Ultra 76-core, count: 1}\n"
	                   "  - {gpu: RTX 4090, count: 1}\n"
	                   "jobs:\n"
	                   "  - {name: chat, model: llama-3.1-8b, engine: vllm, "
	                   "hours_per_month: 100, data: restricted}\n";
	const cJSON *r = owned_route(yaml, &root);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")));
	ck_assert_str_eq(cJSON_GetObjectItem(r, "gpu")->valuestring, "RTX 4090");
	const cJSON *left = cJSON_GetObjectItem(r, "left_out");
	ck_assert_msg(cJSON_IsString(left), "the owned route names no device left out");
	ck_assert_str_eq(left->valuestring,
	                 "the owned M2 Ultra 76-core runs llama.cpp jobs only and this job's "
	                 "engine is vllm");
	cJSON_Delete(root);
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "own.yaml", yaml);
	const char *argv[] = {"compare", spec, NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "left out: the owned M2 Ultra 76-core runs llama.cpp"));
	free(out);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(the_laptop_spec_names_its_mac_and_cpu_box_in_one_clause_for_a_vllm_job)
{
	const char *argv[] = {"compare", "jobs/laptop.yaml", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "1x M2 Max 30-core 64 GiB on hand"));
	ck_assert_ptr_nonnull(strstr(out, "left out: the owned M2 Max 30-core 64 GiB and Ryzen 9 "
	                                  "7950X 64 GiB run llama.cpp jobs only and this job's "
	                                  "engine is vllm"));
	free(out);
}
END_TEST

Suite *local_device_suite(void)
{
	Suite *s = suite_create("local_device");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(
	    tc, an_m3_max_with_64_gib_fits_a_70b_at_q4_k_m_and_shows_each_variant_without_it);
	tcase_add_test(tc, a_size_the_chip_is_not_sold_with_names_the_sizes);
	tcase_add_test(tc, a_ryzen_runs_on_its_cpu_and_cpu_alone_lists_the_choices);
	tcase_add_test(
	    tc, a_3060_that_cannot_hold_the_model_prints_no_speed_and_no_footnote_about_8_gpus);
	tcase_add_test(tc, a_custom_device_is_described_by_its_flags_and_bad_figures_are_refused);
	tcase_add_test(tc, compare_prices_an_owned_mac_for_a_llama_cpp_job_without_accelerator_any);
	tcase_add_test(tc, a_spec_describes_a_cpu_box_under_gpus_with_its_kind_and_threads);
	tcase_add_test(tc, an_owned_mac_a_vllm_job_cannot_use_is_named_with_the_reason);
	tcase_add_test(
	    tc, an_owned_mac_takes_memory_gib_for_its_variant_and_a_size_not_sold_is_refused);
	tcase_add_test(tc, a_bought_mac_is_its_own_host_and_each_machine_runs_its_own_copy);
	tcase_add_test(tc, an_owned_mac_a_job_cannot_use_is_named_when_another_device_runs_it);
	tcase_add_test(tc, the_laptop_spec_names_its_mac_and_cpu_box_in_one_clause_for_a_vllm_job);
	suite_add_tcase(s, tc);
	return s;
}
