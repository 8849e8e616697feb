/* check_measured.c — benchmark results read from the files the tools
 * write (planner/measured.c), the spec's measurements: (spec_measured.c),
 * and fit's and compare's --measured: a matching job uses the measured
 * speed and says so. The llama-bench file is a recorded output from
 * llama.cpp's own repository (tests/fixtures/measured/README.md); the
 * others' repositories hold no recorded result, so their documents here
 * are the fewest fields their writers name, to test the reading only. */
#include <cJSON.h>
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "measured.h"
#include "testutil.h"
#include "util.h"

#define LLAMA_BENCH "tests/fixtures/measured/llama-bench-rtx4080-qwen2.5-7b-q4_k_m.json"

/* vllm bench serve --save-result's fields (vllm/benchmarks/serve.py). */
#define VLLM_DOC                                                                                   \
	"{\"backend\": \"vllm\", \"model_id\": \"Qwen/Qwen2.5-7B-Instruct\", "                     \
	"\"max_concurrency\": "                                                                    \
	"16, \"completed\": 200, \"total_input_tokens\": 204800, \"total_output_tokens\": "        \
	"25600, \"output_throughput\": 1500.0}"

static int parse(const char *doc, struct measured *m, char **err)
{
	return measured_parse("result.json", doc, strlen(doc), m, err);
}

START_TEST(llama_bench_json_gives_its_pp_and_tg_tokens_per_second)
{
	struct measured m;
	char *err = NULL;
	ck_assert_int_eq(measured_load(LLAMA_BENCH, &m, &err), PLANNER_OK);
	ck_assert_int_eq(m.format, MEASURED_LLAMA_BENCH);
	/* The file's avg_ts of its pp 512 and tg 128 tests. */
	ck_assert_double_eq_tol(m.prefill_tps, 7100.002165, 1e-9);
	ck_assert_double_eq_tol(m.decode_tps, 118.881588, 1e-9);
	ck_assert_double_eq(m.concurrency, 1);
	ck_assert_double_eq(m.output_tps, 0);
	struct speed_est s = {.decode_tps = 90, .prefill_tps = 3000, .stream_tps = 90};
	measured_apply(&m, &s);
	ck_assert_double_eq(s.decode_tps, m.decode_tps);
	ck_assert_double_eq(s.prefill_tps, m.prefill_tps);
	ck_assert(!s.prefill_counted);
	measured_free(&m);
}
END_TEST

START_TEST(vllm_bench_serve_gives_output_throughput_at_its_max_concurrency)
{
	struct measured m;
	char *err = NULL;
	ck_assert_int_eq(parse(VLLM_DOC, &m, &err), PLANNER_OK);
	ck_assert_int_eq(m.format, MEASURED_VLLM_SERVE);
	ck_assert_double_eq(m.output_tps, 1500);
	ck_assert_double_eq(m.concurrency, 16);
	ck_assert_double_eq(m.input_len, 1024);
	ck_assert_double_eq(m.output_len, 128);
	ck_assert_str_eq(m.model, "Qwen/Qwen2.5-7B-Instruct");
	/* The prefill is inside the measured rate: a month of 1500 tok/s
	 * for an hour is one hour, whatever the input. */
	struct speed_est s = {.decode_tps = 900, .prefill_tps = 5000};
	measured_apply(&m, &s);
	ck_assert_double_eq(s.decode_tps, 1500);
	ck_assert_double_eq(s.stream_tps, 1500.0 / 16);
	ck_assert_double_eq_tol(speed_hours_for_tokens(&s, TASK_INFERENCE, 1e9, 1500 * 3600.0), 1,
	                        1e-12);
	measured_free(&m);
	/* Without --max-concurrency every request was sent at once. */
	ck_assert_int_eq(parse("{\"max_concurrency\": null, \"completed\": 64, "
	                       "\"output_throughput\": 800}",
	                       &m, &err),
	                 PLANNER_OK);
	ck_assert_double_eq(m.concurrency, 64);
	measured_free(&m);
}
END_TEST

START_TEST(guidellm_and_aiperf_give_output_token_throughput_at_the_measured_concurrency)
{
	struct measured m;
	char *err = NULL;
	/* GuideLLM: the fastest of a sweep's benchmarks. */
	const char *guidellm =
	    "{\"benchmarks\": ["
	    "{\"metrics\": {\"output_tokens_per_second\": {\"successful\": {\"mean\": 300}},"
	    " \"request_concurrency\": {\"successful\": {\"mean\": 4}}}},"
	    "{\"metrics\": {\"output_tokens_per_second\": {\"successful\": {\"mean\": 900}},"
	    " \"request_concurrency\": {\"successful\": {\"mean\": 32}},"
	    " \"prompt_token_count\": {\"successful\": {\"mean\": 256}},"
	    " \"output_token_count\": {\"successful\": {\"mean\": 128}}}}]}";
	ck_assert_int_eq(parse(guidellm, &m, &err), PLANNER_OK);
	ck_assert_int_eq(m.format, MEASURED_GUIDELLM);
	ck_assert_double_eq(m.output_tps, 900);
	ck_assert_double_eq(m.concurrency, 32);
	ck_assert_double_eq(m.input_len, 256);
	measured_free(&m);
	/* AIPerf: input_config.loadgen.concurrency; genai-perf: input_config.concurrency. */
	const char *aiperf =
	    "{\"output_token_throughput\": {\"unit\": \"tokens/sec\", \"avg\": 52.69},"
	    " \"input_config\": {\"loadgen\": {\"concurrency\": 8}},"
	    " \"output_sequence_length\": {\"avg\": 64}}";
	ck_assert_int_eq(parse(aiperf, &m, &err), PLANNER_OK);
	ck_assert_int_eq(m.format, MEASURED_AIPERF);
	ck_assert_double_eq(m.output_tps, 52.69);
	ck_assert_double_eq(m.concurrency, 8);
	ck_assert_double_eq(m.output_len, 64);
	measured_free(&m);
	const char *genai = "{\"output_token_throughput\": {\"avg\": 40},"
	                    " \"input_config\": {\"concurrency\": 2}}";
	ck_assert_int_eq(parse(genai, &m, &err), PLANNER_OK);
	ck_assert_double_eq(m.concurrency, 2);
	measured_free(&m);
}
END_TEST

/* Each bad document and what its message must name. */
START_TEST(a_bad_or_foreign_file_is_refused_naming_the_file_and_the_field)
{
	static const struct {
		const char *doc, *needle;
	} cases[] = {
	    {"version: 1\njobs: []\n", "not JSON"},
	    {"{\"name\": \"x\"}", "not a benchmark result"},
	    {"{\"output_throughput\": \"fast\"}", "'output_throughput'"},
	    {"{\"output_throughput\": -3, \"max_concurrency\": 4}", "'output_throughput'"},
	    {"{\"output_throughput\": 10}", "'max_concurrency'"},
	    {"[{\"n_prompt\": 512, \"n_gen\": 0}]", "'[0].avg_ts'"},
	    {"[{\"n_prompt\": 512, \"n_gen\": 0, \"avg_ts\": 1e999}]", "'[0].avg_ts'"},
	    {"[{\"n_prompt\": 512, \"n_gen\": 128, \"avg_ts\": 50}]", "no pp test"},
	    {"[3]", "[0] is not an object"},
	    {"{\"benchmarks\": []}", "output_tokens_per_second"},
	    {"{\"output_token_throughput\": {\"avg\": 9}}", "input_config.loadgen.concurrency"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct measured m;
		char *err = NULL;
		ck_assert_int_eq(parse(cases[i].doc, &m, &err), PLANNER_EINPUT);
		ck_assert_msg(strstr(err, "result.json: ") == err && strstr(err, cases[i].needle),
		              "case %zu: %s", i, err);
		ck_assert_ptr_null(m.model);
		free(err);
	}
}
END_TEST

START_TEST(a_file_past_the_cap_or_not_a_file_is_refused)
{
	char *dir = test_tmpdir();
	char big[512], cmd[600];
	snprintf(big, sizeof big, "%s/big.json", dir);
	snprintf(cmd, sizeof cmd, "truncate -s %u '%s'", MEASURED_MAX_FILE_BYTES + 1u, big);
	ck_assert_int_eq(system(cmd), 0);
	struct measured m;
	char *err = NULL;
	ck_assert_int_eq(measured_load(big, &m, &err), PLANNER_EINPUT);
	ck_assert_ptr_nonnull(strstr(err, "more than the 16 MiB"));
	ck_assert_int_eq(measured_load(dir, &m, &err), PLANNER_EINPUT);
	ck_assert_ptr_nonnull(strstr(err, "not a regular file"));
	free(err);
	free(dir);
}
END_TEST

START_TEST(a_request_shape_within_a_quarter_of_the_measured_one_matches)
{
	struct measured m = {.input_len = 1000, .output_len = 200};
	ck_assert(measured_shape_matches(&m, 1200, 160));
	ck_assert(!measured_shape_matches(&m, 1300, 200));
	ck_assert(!measured_shape_matches(&m, 1000, 140));
	ck_assert(measured_shape_matches(&m, 0, 0)); /* the job gives none */
	struct measured none = {0};
	ck_assert(measured_shape_matches(&none, 8000, 2000));
}
END_TEST

START_TEST(an_entry_matches_only_its_model_precision_engine_gpu_and_count)
{
	const struct gpu_spec *h100 = refdata_gpu(test_ref(), "H100 SXM");
	const struct gpu_spec *a100 = refdata_gpu(test_ref(), "A100 80GB");
	struct measured_entry e = {
	    .gpu = h100, .count = 2, .precision = "fp8", .engine = "vllm", .model = "llama-3.1-8b"};
	ck_assert(measured_entry_matches(&e, "Llama-3.1-8B", "fp8", "vllm", h100, 2, 0, 0));
	ck_assert(!measured_entry_matches(&e, "llama-3.1-70b", "fp8", "vllm", h100, 2, 0, 0));
	ck_assert(!measured_entry_matches(&e, "llama-3.1-8b", "bf16", "vllm", h100, 2, 0, 0));
	ck_assert(!measured_entry_matches(&e, "llama-3.1-8b", "fp8", "sglang", h100, 2, 0, 0));
	ck_assert(!measured_entry_matches(&e, "llama-3.1-8b", "fp8", "vllm", a100, 2, 0, 0));
	ck_assert(!measured_entry_matches(&e, "llama-3.1-8b", "fp8", "vllm", h100, 1, 0, 0));
	/* A copy of the GPU sized to an offer's memory is still that GPU. */
	struct gpu_spec sized = *h100;
	ck_assert(measured_entry_matches(&e, "llama-3.1-8b", "fp8", "vllm", &sized, 2, 0, 0));
	struct measured_entry any = {.gpu = h100, .count = 2};
	ck_assert(measured_entry_matches(&any, "qwen2.5-7b", "bf16", "sglang", h100, 2, 0, 0));
}
END_TEST

/* fit's JSON row for the one --gpu, parsed (caller frees). */
static cJSON *fit_json(const char *const *argv)
{
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	free(out);
	free(err);
	return root;
}

START_TEST(fit_with_measured_shows_the_measured_speed_and_its_file)
{
	const char *argv[] = {"fit",        "qwen2.5-7b", "--precision", "q4_k_m", "--gpu", "4080",
	                      "--measured", LLAMA_BENCH,  "--format",    "json",   NULL};
	cJSON *root = fit_json(argv);
	const cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "speed_source")->valuestring, "measured");
	ck_assert_str_eq(cJSON_GetObjectItem(g, "measured_file")->valuestring, LLAMA_BENCH);
	ck_assert_double_eq(cJSON_GetObjectItem(g, "tokens_per_second")->valuedouble, 118.9);
	ck_assert_double_eq(cJSON_GetObjectItem(g, "prefill_tokens_per_second")->valuedouble,
	                    7100.0);
	cJSON_Delete(root);
	/* The file was measured on one 4080 (no --gpus); a model that needs
	 * two runs on another configuration: the estimate. */
	const char *other[] = {"fit",      "qwen2.5-32b", "--precision", "q4_k_m",
	                       "--gpu",    "4080",        "--measured",  LLAMA_BENCH,
	                       "--format", "json",        NULL};
	root = fit_json(other);
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_int_eq(cJSON_GetObjectItem(g, "gpus")->valueint, 2);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "speed_source")->valuestring, "estimated");
	cJSON_Delete(root);
	/* A request shape far from the measured one: the estimate. */
	char *dir = test_tmpdir();
	char *vllm = test_write(dir, "vllm.json", VLLM_DOC);
	const char *shape[] = {"fit",      "qwen2.5-7b", "--gpu", "H100 SXM", "--measured",
	                       vllm,       "--input",    "4096",  "--output", "128",
	                       "--format", "json",       NULL};
	root = fit_json(shape);
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "speed_source")->valuestring, "estimated");
	cJSON_Delete(root);
	shape[7] = "1100";
	root = fit_json(shape);
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "speed_source")->valuestring, "measured");
	ck_assert_double_eq(cJSON_GetObjectItem(g, "tokens_per_second")->valuedouble, 1500);
	cJSON_Delete(root);
	free(vllm);
	free(dir);
	/* The table says so on the row and names the figure used. */
	const char *table[] = {"fit",  "qwen2.5-7b", "--precision", "q4_k_m", "--gpu",
	                       "4080", "--measured", LLAMA_BENCH,   NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "119   yes  measured (" LLAMA_BENCH ")"));
	ck_assert_ptr_nonnull(
	    strstr(out, "llama-bench: decode (tg) 118.9 tok/s, prefill (pp) 7100.0"));
	free(out);
}
END_TEST

START_TEST(fit_measured_needs_the_gpu_and_a_readable_file)
{
	const char *nogpu[] = {"fit", "qwen2.5-7b", "--measured", LLAMA_BENCH, NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(nogpu, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "needs --gpu G"));
	free(err);
	const char *missing[] = {"fit",        "qwen2.5-7b", "--gpu", "4080",
	                         "--measured", "nope.json",  NULL};
	ck_assert_int_eq(test_run_planner(missing, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "--measured: cannot open nope.json"));
	free(err);
}
END_TEST

/* A spec in a fresh directory beside a copy of the llama-bench file;
 * returns the spec's path (malloc'd), its directory in *dir. */
static char *spec_with(const char *measurements, char **dir)
{
	*dir = test_tmpdir();
	char *json = test_slurp(LLAMA_BENCH);
	free(test_write(*dir, "lb.json", json));
	free(json);
	char text[1024];
	snprintf(text, sizeof text,
	         "version: 1\nowned:\n  - {gpu: RTX 4080, count: 1}\n%s"
	         "jobs:\n  - name: bot\n    model: qwen2.5-7b\n    precision: q4_k_m\n"
	         "    tokens_per_month: {input: 20M, output: 10M}\n"
	         "  - name: big\n    model: qwen2.5-7b\n    precision: q8_0\n"
	         "    tokens_per_month: {input: 20M, output: 10M}\n",
	         measurements);
	return test_write(*dir, "spec.yaml", text);
}

/* The owned route of job i in compare's JSON. */
static const cJSON *owned_route(const cJSON *root, int i)
{
	const cJSON *routes =
	    cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(root, "jobs"), i), "routes");
	const cJSON *r;
	cJSON_ArrayForEach(
	    r, routes) if (!strcmp(cJSON_GetObjectItem(r, "route")->valuestring, "owned")) return r;
	ck_abort_msg("no owned route");
	return NULL;
}

START_TEST(a_spec_measurement_replaces_the_estimate_for_the_jobs_it_matches)
{
	char *dir;
	char *spec =
	    spec_with("measurements:\n  - {file: lb.json, gpu: RTX 4080, precision: q4_k_m, "
	              "engine: llama.cpp, model: qwen2.5-7b}\n",
	              &dir);
	const char *argv[] = {"compare", spec, "--format", "json", "--quiet", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	const cJSON *bot = owned_route(root, 0), *big = owned_route(root, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(bot, "speed_source")->valuestring, "measured");
	ck_assert_str_eq(cJSON_GetObjectItem(bot, "measured_file")->valuestring, "lb.json");
	ck_assert_double_eq(cJSON_GetObjectItem(bot, "tokens_per_second")->valuedouble, 118.9);
	/* 20M input at pp 7100 tok/s and 10M output at tg 118.88 tok/s. */
	ck_assert_double_eq_tol(cJSON_GetObjectItem(bot, "gpu_hours")->valuedouble,
	                        (20e6 / 7100.002165 + 10e6 / 118.881588) / 3600, 1e-3);
	ck_assert_str_eq(cJSON_GetObjectItem(big, "speed_source")->valuestring, "estimated");
	ck_assert_ptr_null(cJSON_GetObjectItem(big, "measured_file"));
	cJSON_Delete(root);
	free(out);
	/* The table names the file on the route's line. */
	const char *table[] = {"compare", spec, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_ptr_nonnull(strstr(out, "119 tok/s (measured, lb.json)"));
	free(out);
	free(err);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_serving_measurement_applies_to_jobs_whose_request_is_near_the_measured_one)
{
	char *dir = test_tmpdir();
	free(test_write(dir, "vllm.json", VLLM_DOC));
	/* Two jobs of one model on the H100 measured, requests of 1100/120
	 * (within 25 % of the file's 1024/128) and 3000/128. */
	char *spec = test_write(
	    dir, "spec.yaml",
	    "version: 1\nowned:\n  - {gpu: H100 SXM, count: 1}\n"
	    "measurements:\n  - {file: vllm.json, gpu: H100 SXM, engine: vllm, model: qwen2.5-7b}\n"
	    "jobs:\n"
	    "  - {name: near, model: qwen2.5-7b, engine: vllm, batch: 16, request: {input: 1100, "
	    "output: 120}, tokens_per_month: {input: 110M, output: 12M}}\n"
	    "  - {name: far, model: qwen2.5-7b, engine: vllm, batch: 16, request: {input: 3000, "
	    "output: 128}, tokens_per_month: {input: 300M, output: 12.8M}}\n");
	const char *argv[] = {"compare", spec, "--format", "json", "--quiet", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	const cJSON *near = owned_route(root, 0), *far = owned_route(root, 1);
	ck_assert_str_eq(cJSON_GetObjectItem(near, "speed_source")->valuestring, "measured");
	ck_assert_double_eq(cJSON_GetObjectItem(near, "tokens_per_second")->valuedouble, 1500);
	/* The prefill is inside the measured rate: 12M output tokens at 1500/s. */
	ck_assert_double_eq_tol(cJSON_GetObjectItem(near, "gpu_hours")->valuedouble,
	                        12e6 / 1500 / 3600, 1e-3);
	ck_assert_str_eq(cJSON_GetObjectItem(far, "speed_source")->valuestring, "estimated");
	cJSON_Delete(root);
	free(out);
	free(err);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_bad_measurement_in_the_spec_names_its_line_and_the_file)
{
	char *dir;
	char *spec = spec_with("measurements:\n  - {file: spec.yaml, gpu: RTX 4080}\n", &dir);
	const char *argv[] = {"compare", spec, "--quiet", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, "spec.yaml:5:12: measurements entry 1: ") &&
	                  strstr(err, "spec.yaml: not JSON"),
	              "%s", err);
	free(err);
	free(spec);
	free(dir);
	spec =
	    spec_with("measurements:\n  - {file: lb.json, gpu: RTX 4080, precision: q9}\n", &dir);
	const char *bad[] = {"compare", spec, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, ":5:") && strstr(err, "unknown precision 'q9'"), "%s", err);
	free(err);
	free(spec);
	free(dir);
	spec = spec_with("measurements:\n  - {gpu: RTX 4080}\n", &dir);
	const char *nofile[] = {"compare", spec, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(nofile, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, "has no 'file'"), "%s", err);
	free(err);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(compare_measured_flags_apply_a_file_given_on_the_command_line)
{
	char *dir;
	char *spec = spec_with("", &dir);
	const char *argv[] = {"compare",     spec,     "--measured", LLAMA_BENCH, "--gpu",   "4080",
	                      "--precision", "q4_k_m", "--format",   "json",      "--quiet", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, &out, &err) == 0, "%s", err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_str_eq(cJSON_GetObjectItem(owned_route(root, 0), "speed_source")->valuestring,
	                 "measured");
	ck_assert_str_eq(cJSON_GetObjectItem(owned_route(root, 1), "speed_source")->valuestring,
	                 "estimated");
	cJSON_Delete(root);
	free(out);
	free(err);
	const char *lone[] = {"compare", spec, "--gpu", "4080", NULL};
	ck_assert_int_eq(test_run_planner(lone, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "give --measured FILE"));
	free(err);
	free(spec);
	free(dir);
}
END_TEST

Suite *measured_suite(void)
{
	Suite *s = suite_create("measured");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, llama_bench_json_gives_its_pp_and_tg_tokens_per_second);
	tcase_add_test(tc, vllm_bench_serve_gives_output_throughput_at_its_max_concurrency);
	tcase_add_test(
	    tc, guidellm_and_aiperf_give_output_token_throughput_at_the_measured_concurrency);
	tcase_add_test(tc, a_bad_or_foreign_file_is_refused_naming_the_file_and_the_field);
	tcase_add_test(tc, a_file_past_the_cap_or_not_a_file_is_refused);
	tcase_add_test(tc, a_request_shape_within_a_quarter_of_the_measured_one_matches);
	tcase_add_test(tc, an_entry_matches_only_its_model_precision_engine_gpu_and_count);
	tcase_add_test(tc, fit_with_measured_shows_the_measured_speed_and_its_file);
	tcase_add_test(tc, fit_measured_needs_the_gpu_and_a_readable_file);
	tcase_add_test(tc, a_spec_measurement_replaces_the_estimate_for_the_jobs_it_matches);
	tcase_add_test(
	    tc, a_serving_measurement_applies_to_jobs_whose_request_is_near_the_measured_one);
	tcase_add_test(tc, a_bad_measurement_in_the_spec_names_its_line_and_the_file);
	tcase_add_test(tc, compare_measured_flags_apply_a_file_given_on_the_command_line);
	suite_add_tcase(s, tc);
	return s;
}
