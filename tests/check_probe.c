/* check_probe.c — nvidia-smi output parsing (planner/probe.c) on the
 * outputs in tests/fixtures/probe/ (hand-written; see its README), the
 * host's CPU or Apple chip (planner/probe_host.c) on recorded /proc files
 * and sysctl output (real; the README says from where), and `planner
 * probe` end to end with PLANNER_NVIDIA_SMI, PLANNER_PROBE_ROOT and
 * PLANNER_SYSCTL pointing at fakes. */
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
/* This machine's /proc/cpuinfo and /proc/meminfo, and lscpu beside them. */
#define EPYC_ROOT FIXTURES "root-epyc-kvm"

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
	/* No CPU either: a root with no proc/ and no sysctl. */
	const char *e[] = {env, "PLANNER_PROBE_ROOT=/nonexistent-probe-root",
	                   "PLANNER_SYSCTL=/no/such/sysctl", NULL};
	const char *argv[] = {"probe", "--verbose", NULL};
	ck_assert_int_eq(test_run_planner(argv, e, &out, &err), 0);
	ck_assert_str_eq(out, "no NVIDIA GPU found on this machine\n");
	ck_assert_ptr_nonnull(strstr(err, "couldn't communicate with the NVIDIA driver"));
	free(out);
	free(err);
	const char *missing[] = {"PLANNER_NVIDIA_SMI=/no/such/nvidia-smi",
	                         "PLANNER_PROBE_ROOT=/nonexistent-probe-root",
	                         "PLANNER_SYSCTL=/no/such/sysctl", NULL};
	ck_assert_int_eq(test_run_planner(argv, missing, &out, NULL), 0);
	ck_assert_str_eq(out, "no NVIDIA GPU found on this machine\n");
	free(out);
	free(env);
	free(dir);
}
END_TEST

/* A number lscpu prints after "label:", for checking /proc's reading
 * against a second reader of the same machine. */
static long lscpu_value(const char *label)
{
	char *text = test_slurp(EPYC_ROOT "/lscpu.txt");
	ck_assert_ptr_nonnull(text);
	char *at = strstr(text, label);
	ck_assert_msg(at != NULL, "lscpu has no %s", label);
	long v = strtol(at + strlen(label), NULL, 10);
	free(text);
	return v;
}

START_TEST(this_machines_proc_files_give_its_cpu_as_lscpu_counts_it)
{
	struct probe_host h;
	ck_assert(probe_host_read(EPYC_ROOT, &h));
	ck_assert_int_eq(h.kind, PROBE_HOST_CPU);
	ck_assert_str_eq(h.model, "AMD EPYC");
	ck_assert_int_eq(h.sockets, lscpu_value("Socket(s):"));
	ck_assert_int_eq(h.cores, lscpu_value("Core(s) per socket:") * lscpu_value("Socket(s):"));
	ck_assert_int_eq(h.threads, lscpu_value("CPU(s):"));
	ck_assert_int_eq(probe_host_threads(&h), h.cores);
	/* MemTotal: 24684084 kB */
	ck_assert_double_eq_tol(h.memory_gib, 24684084 / 1048576.0, 1e-9);
	ck_assert_uint_eq(h.isa, PROBE_ISA_AVX2 | PROBE_ISA_AVX512);
}
END_TEST

START_TEST(an_unknown_cpu_becomes_a_commented_custom_device_saying_what_to_fill_in)
{
	struct probe_host h;
	ck_assert(probe_host_read(EPYC_ROOT, &h));
	char *yaml = probe_owned_yaml_host(NULL, 0, &h);
	ck_assert_ptr_nonnull(yaml);
	ck_assert_ptr_nonnull(
	    strstr(yaml, "owned:\n  # cpu: AMD EPYC, 2 cores, 2 threads, 23.5 GiB memory, AVX2 "
	                 "AVX-512\n  # planner's device table does not know this CPU yet"));
	ck_assert_ptr_nonnull(strstr(yaml, "channels x MT/s x 8 / 1000"));
	ck_assert_ptr_nonnull(strstr(yaml,
	                             "  #     - {name: \"AMD EPYC\", kind: cpu, vram_gib: 23.5, "
	                             "bandwidth_gbs: GBS, fp16_tflops: TFLOPS, threads: 2}\n"
	                             "  #   owned:\n  #     - {gpu: \"AMD EPYC\", count: 1}\n"));
	/* Every line but the first is a comment: nothing half-described reads. */
	ck_assert_ptr_null(strstr(yaml, "\n  -"));
	free(yaml);
	/* A CPU the table knows is an entry. */
	h.device = refdata_gpu(test_ref(), "RTX 4090");
	yaml = probe_owned_yaml_host(NULL, 0, &h);
	ck_assert_str_eq(yaml, "owned:\n  - {gpu: RTX 4090, count: 1}  # 23.5 GiB memory\n");
	free(yaml);
}
END_TEST

/* Parses a recorded sysctl output into h. */
static void parse_sysctl(const char *name, struct probe_host *h)
{
	char *path = xasprintf(FIXTURES "sysctl/%s", name);
	char *text = test_slurp(path);
	ck_assert_msg(text != NULL, "cannot read %s", path);
	ck_assert(probe_host_sysctl(text, h));
	free(text);
	free(path);
}

START_TEST(an_m1s_sysctl_hw_gives_unified_memory_and_its_performance_cores)
{
	struct probe_host h;
	parse_sysctl("m1_hw.txt", &h);
	ck_assert_int_eq(h.kind, PROBE_HOST_UNIFIED);
	ck_assert_str_eq(h.model, "");         /* sysctl hw has no brand string */
	ck_assert_double_eq(h.memory_gib, 16); /* hw.memsize: 17179869184 */
	ck_assert_int_eq(h.cores, 8);
	ck_assert_int_eq(h.threads, 8);
	ck_assert_int_eq(h.perf_cores, 4);
	ck_assert_int_eq(h.sockets, 1); /* hw.packages */
	ck_assert_int_eq(probe_host_threads(&h), 4);
	ck_assert_uint_eq(h.isa, PROBE_ISA_NEON);
	char *yaml = probe_owned_yaml_host(NULL, 0, &h);
	ck_assert_ptr_nonnull(strstr(yaml,
	                             "# chip: (name not reported), 8 cores (4 performance), 8 "
	                             "threads, 16.0 GiB unified memory, NEON\n"));
	ck_assert_ptr_nonnull(strstr(yaml, "fill in its name, its memory bandwidth"));
	ck_assert_ptr_nonnull(strstr(yaml, "{name: \"CHIP_NAME\", kind: unified, vram_gib: 16.0, "
	                                   "bandwidth_gbs: GBS, fp16_tflops: TFLOPS, threads: 4}"));
	free(yaml);
	parse_sysctl("m2_hw.txt", &h);
	ck_assert_double_eq(h.memory_gib, 24); /* hw.memsize: 25769803776 */
}
END_TEST

/* Hand-written lines in sysctl's format (not recordings): the brand
 * string names the chip, and a Mac with an Intel CPU is a CPU. */
START_TEST(the_brand_string_names_the_chip_and_an_intel_mac_is_a_cpu)
{
	struct probe_host h;
	ck_assert(
	    probe_host_sysctl("machdep.cpu.brand_string: Apple M1 Pro\nhw.physicalcpu: 10\n", &h));
	ck_assert_int_eq(h.kind, PROBE_HOST_UNIFIED);
	ck_assert_str_eq(h.model, "Apple M1 Pro");
	ck_assert_int_eq(probe_host_threads(&h), 10);
	ck_assert(probe_host_sysctl("machdep.cpu.brand_string: Intel(R) Core(TM) i9\n"
	                            "hw.memsize: 34359738368\nhw.optional.avx2_0: 1\n",
	                            &h));
	ck_assert_int_eq(h.kind, PROBE_HOST_CPU);
	ck_assert_uint_eq(h.isa, PROBE_ISA_AVX2);
	/* sysctl's own complaint, an empty output and /proc of nothing: no host. */
	ck_assert(!probe_host_sysctl("sysctl: unknown oid 'machdep.cpu'\n", &h));
	ck_assert(!probe_host_sysctl("", &h));
	ck_assert(!probe_host_linux(NULL, "MemFree: 5 kB\nprocessor: x\n", &h));
	ck_assert_int_eq(h.kind, PROBE_HOST_NONE);
	ck_assert(!probe_host_read("/nonexistent-probe-root", &h));
}
END_TEST

/* Hand-written brand strings in the shapes /proc/cpuinfo and sysctl
 * print them (not recordings). */
START_TEST(a_brand_string_is_looked_up_by_the_name_the_device_table_uses)
{
	static const char *const cases[][2] = {
	    {"AMD Ryzen 9 7950X 16-Core Processor", "Ryzen 9 7950X"},
	    {"Intel(R) Core(TM) i9-13900K", "Core i9-13900K"},
	    {"Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz", "Xeon Platinum 8480+"},
	    {"AMD RYZEN AI MAX+ 395 w/ Radeon 8060S", "RYZEN AI MAX+ 395"},
	    {"Apple M1 Pro", "M1 Pro"},
	    {"AMD EPYC", "EPYC"},
	    {"", ""},
	};
	char name[96];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		probe_host_short_name(cases[i][0], name, sizeof name);
		ck_assert_str_eq(name, cases[i][1]);
	}
	/* Either spelling finds the table's entry: a GPU name stands in for
	 * a CPU here, as the table has none yet. */
	struct probe_host h = {.kind = PROBE_HOST_CPU, .model = "NVIDIA GeForce RTX 4090"};
	ck_assert_ptr_eq(probe_host_device(test_ref(), &h), refdata_gpu(test_ref(), "RTX 4090"));
	snprintf(h.model, sizeof h.model, "AMD EPYC");
	ck_assert_ptr_null(probe_host_device(test_ref(), &h));
	/* A name the table has only with more after it lists those entries
	 * (an "Apple M1 Max" is a 24-core or 32-core one; "AMD EPYC" either
	 * of the table's EPYCs). */
	char family[160];
	probe_host_family(test_ref(), &h, family, sizeof family);
	ck_assert_str_eq(family, "EPYC 9654, EPYC 9175F, EPYC 9R14");
	snprintf(h.model, sizeof h.model, "H100");
	probe_host_family(test_ref(), &h, family, sizeof family);
	ck_assert_str_eq(family, "H100 PCIe, H100 SXM, H100 NVL");
	snprintf(h.family, sizeof h.family, "%s", family);
	char *yaml = probe_owned_yaml_host(NULL, 0, &h);
	ck_assert_ptr_nonnull(strstr(yaml, "  # planner's device table has H100 PCIe, H100 SXM, H100 NVL: "
	                                   "own the one this\n"));
	ck_assert_ptr_nonnull(strstr(yaml, "  #     - {gpu: \"H100 PCIe\", count: 1}\n"));
	ck_assert_ptr_null(strstr(yaml, "kind: cpu"));
	free(yaml);
}
END_TEST

/* A fake sysctl printing a recorded output, exiting 1 as sysctl does
 * when one name is unknown; returns the "PLANNER_SYSCTL=..." entry. */
static char *fake_sysctl(const char *dir, const char *fixture)
{
	char *cwd = getcwd(NULL, 0);
	char *body = xasprintf("#!/bin/sh\n[ \"$*\" = 'hw machdep.cpu' ] || exit 2\n"
	                       "cat '%s/" FIXTURES "sysctl/%s'\nexit 1\n",
	                       cwd, fixture);
	char *path = test_write(dir, "sysctl", body);
	ck_assert_int_eq(chmod(path, 0755), 0);
	char *env = xasprintf("PLANNER_SYSCTL=%s", path);
	free(path);
	free(body);
	free(cwd);
	return env;
}

START_TEST(probe_prints_the_host_cpu_beside_the_gpus_and_in_the_owned_block)
{
	char *dir = test_tmpdir(), *env = fake_smi(dir, "mixed_workstation.txt", 0), *out = NULL;
	const char *e[] = {env, "PLANNER_PROBE_ROOT=" EPYC_ROOT, NULL};
	const char *argv[] = {"probe", NULL};
	ck_assert_int_eq(test_run_planner(argv, e, &out, NULL), 0);
	ck_assert_ptr_nonnull(
	    strstr(out, "\ncpu: AMD EPYC, 2 cores, 2 threads, 23.5 GiB memory, AVX2 AVX-512\n\n"));
	ck_assert_ptr_nonnull(
	    strstr(out, "owned:\n  - {gpu: RTX 4090, count: 2}\n"
	                "  - {gpu: RTX 3090, count: 1, watts: 350}\n  # cpu: AMD EPYC"));
	free(out);
	const char *json[] = {"probe", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(json, e, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	cJSON *host = cJSON_GetObjectItem(root, "host");
	ck_assert_str_eq(cJSON_GetObjectItem(host, "kind")->valuestring, "cpu");
	ck_assert_int_eq(cJSON_GetObjectItem(host, "cores")->valueint, 2);
	ck_assert(cJSON_IsNull(cJSON_GetObjectItem(host, "performance_cores")));
	ck_assert_double_eq_tol(cJSON_GetObjectItem(host, "memory_gib")->valuedouble, 23.54, 1e-9);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(host, "isa")), 2);
	cJSON_Delete(root);
	free(out);
	free(env);
	free(dir);
}
END_TEST

START_TEST(on_a_mac_probe_reads_sysctl_and_writes_the_chip)
{
	char *dir = test_tmpdir(), *env = fake_sysctl(dir, "m2_hw.txt"), *out = NULL;
	const char *e[] = {env, "PLANNER_PROBE_ROOT=/nonexistent-probe-root",
	                   "PLANNER_NVIDIA_SMI=/no/such/nvidia-smi", NULL};
	const char *argv[] = {"probe", NULL};
	ck_assert_int_eq(test_run_planner(argv, e, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "no NVIDIA GPU found on this machine\nchip: (name not "
	                                  "reported), 8 cores (4 performance), 8 threads, 24.0 GiB "
	                                  "unified memory, NEON\n"));
	ck_assert_ptr_nonnull(strstr(out, "kind: unified, vram_gib: 24.0,"));
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
	TCase *host = tcase_create("the host's CPU or chip");
	tcase_add_test(host, this_machines_proc_files_give_its_cpu_as_lscpu_counts_it);
	tcase_add_test(host,
	               an_unknown_cpu_becomes_a_commented_custom_device_saying_what_to_fill_in);
	tcase_add_test(host, an_m1s_sysctl_hw_gives_unified_memory_and_its_performance_cores);
	tcase_add_test(host, the_brand_string_names_the_chip_and_an_intel_mac_is_a_cpu);
	tcase_add_test(host, a_brand_string_is_looked_up_by_the_name_the_device_table_uses);
	suite_add_tcase(s, host);
	TCase *e2e = tcase_create("end to end");
	tcase_set_timeout(e2e, 0); /* no wall-clock limit: runs are slow under ASan */
	tcase_add_test(e2e, probe_prints_the_gpus_and_an_owned_block_to_paste);
	tcase_add_test(e2e, no_driver_or_no_nvidia_smi_says_no_gpu_and_exits_0);
	tcase_add_test(e2e, probe_prints_the_host_cpu_beside_the_gpus_and_in_the_owned_block);
	tcase_add_test(e2e, on_a_mac_probe_reads_sysctl_and_writes_the_chip);
	suite_add_tcase(s, e2e);
	return s;
}
