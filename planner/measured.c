/* measured.c — reading the result files of llama-bench, vllm bench serve,
 * GuideLLM and AIPerf/genai-perf, and the speed they give. Field names are
 * the tools' own:
 *   llama-bench -o json (ggml-org/llama.cpp tools/llama-bench/llama-bench.cpp,
 *     json_printer; README "JSON" at 08d0baaca6745ecaec3a75cccf63b533646ead22):
 *     an array of tests, each with n_prompt, n_gen and avg_ts (tokens/s);
 *   vllm bench serve --save-result (vllm-project/vllm vllm/benchmarks/serve.py,
 *     result_json, at def9ce85ba1079af970a58ed3d42dd861ae35d58): output_throughput,
 *     max_concurrency (null without --max-concurrency), completed,
 *     total_input_tokens, total_output_tokens, model_id;
 *   GuideLLM benchmarks.json (vllm-project/guidellm
 *     src/guidellm/benchmark/schemas/metrics.py, GenerativeMetrics at
 *     ee7a77457ba668b4b5ccb40f110518829893b36a): benchmarks[].metrics.
 *     output_tokens_per_second, request_concurrency, prompt_token_count,
 *     output_token_count, each {successful: {mean}};
 *   AIPerf profile_export_aiperf.json / genai-perf profile_export_genai_perf.json
 *     (ai-dynamo/aiperf aiperf/metrics/types/output_token_throughput_metrics.py,
 *     aiperf/common/config/loadgen_config.py at
 *     db4f6397d11ee2d4cfbb41f70b2327315163dcf0): output_token_throughput,
 *     input_sequence_length, output_sequence_length {avg}, and
 *     input_config.loadgen.concurrency (genai-perf: input_config.concurrency). */
#include "measured.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util.h"

const char *measured_format_name(enum measured_format f)
{
	static const char *const names[] = {"llama-bench", "vllm bench serve", "GuideLLM",
	                                    "AIPerf/genai-perf"};
	return names[f];
}

/* A positive finite number at o[key], else 0. */
static double num(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	return cJSON_IsNumber(v) && isfinite(v->valuedouble) && v->valuedouble > 0 ? v->valuedouble
	                                                                           : 0;
}

/* The number at the path of object keys (NULL-terminated), else 0. */
static double num_at(const cJSON *o, const char *const *path)
{
	for (; o && path[1]; path++)
		o = cJSON_GetObjectItemCaseSensitive(o, path[0]);
	return o ? num(o, path[0]) : 0;
}

static int bad(char **err, const char *name, const char *what, const char *field, const char *fix)
{
	return set_err(err, PLANNER_EINPUT, "%s: %s result has no positive number at '%s'; %s",
	               name, what, field, fix);
}

/* llama-bench: the first pp test (n_prompt > 0, n_gen 0) and tg test
 * (n_gen > 0, n_prompt 0); pg tests mix the two and are skipped. */
static int parse_llama(const char *name, const cJSON *root, struct measured *out, char **err)
{
	out->format = MEASURED_LLAMA_BENCH;
	out->concurrency = 1;
	int i = 0;
	const cJSON *t;
	cJSON_ArrayForEach(t, root)
	{
		char field[64];
		snprintf(field, sizeof field, "[%d].avg_ts", i++);
		if (!cJSON_IsObject(t))
			return set_err(
			    err, PLANNER_EINPUT,
			    "%s: llama-bench result %.*s is not an object; give the output "
			    "of llama-bench -o json",
			    name, (int)(strchr(field, '.') - field), field);
		double p = num(t, "n_prompt"), g = num(t, "n_gen"), ts = num(t, "avg_ts");
		if (!ts)
			return bad(err, name, "llama-bench", field,
			           "give the output of llama-bench -o json");
		if (p > 0 && g == 0 && !out->prefill_tps)
			out->prefill_tps = ts;
		else if (g > 0 && p == 0 && !out->decode_tps)
			out->decode_tps = ts;
	}
	if (!out->prefill_tps && !out->decode_tps)
		return set_err(
		    err, PLANNER_EINPUT,
		    "%s: llama-bench result has no pp test (n_prompt > 0, n_gen 0) nor tg "
		    "test (n_gen > 0, n_prompt 0); run llama-bench with -p and -n",
		    name);
	return PLANNER_OK;
}

static int parse_vllm(const char *name, const cJSON *root, struct measured *out, char **err)
{
	out->format = MEASURED_VLLM_SERVE;
	out->output_tps = num(root, "output_throughput");
	if (!out->output_tps)
		return bad(err, name, "vllm bench serve", "output_throughput",
		           "give the file vllm bench serve --save-result wrote");
	/* No max_concurrency (null): every request was sent at once, so the
	 * concurrency is the number completed. */
	double c = num(root, "completed");
	out->concurrency = num(root, "max_concurrency");
	if (!out->concurrency)
		out->concurrency = c;
	if (!out->concurrency)
		return bad(err, name, "vllm bench serve", "max_concurrency",
		           "run it with --max-concurrency N");
	if (c > 0) {
		out->input_len = num(root, "total_input_tokens") / c;
		out->output_len = num(root, "total_output_tokens") / c;
	}
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(root, "model_id");
	if (cJSON_IsString(m) && m->valuestring[0] && !(out->model = strdup(m->valuestring)))
		return set_err(err, PLANNER_ESYS, "%s: out of memory", name);
	return PLANNER_OK;
}

/* GuideLLM: the benchmark with the highest output throughput (a sweep
 * holds several rates; the plan runs the engine at its most). */
static int parse_guidellm(const char *name, const cJSON *list, struct measured *out, char **err)
{
	out->format = MEASURED_GUIDELLM;
	static const char *const tps[] = {"metrics", "output_tokens_per_second", "successful",
	                                  "mean", NULL};
	static const char *const conc[] = {"metrics", "request_concurrency", "successful", "mean",
	                                   NULL};
	static const char *const in[] = {"metrics", "prompt_token_count", "successful", "mean",
	                                 NULL};
	static const char *const outl[] = {"metrics", "output_token_count", "successful", "mean",
	                                   NULL};
	const cJSON *b;
	cJSON_ArrayForEach(b, list)
	{
		double v = num_at(b, tps);
		if (v > out->output_tps && num_at(b, conc) > 0) {
			out->output_tps = v;
			out->concurrency = num_at(b, conc);
			out->input_len = num_at(b, in);
			out->output_len = num_at(b, outl);
		}
	}
	if (!out->output_tps)
		return bad(err, name, "GuideLLM",
		           "benchmarks[].metrics.output_tokens_per_second.successful.mean (with "
		           "request_concurrency)",
		           "give the benchmarks.json guidellm benchmark wrote");
	return PLANNER_OK;
}

static int parse_aiperf(const char *name, const cJSON *root, struct measured *out, char **err)
{
	out->format = MEASURED_AIPERF;
	static const char *const tps[] = {"output_token_throughput", "avg", NULL};
	static const char *const conc[] = {"input_config", "loadgen", "concurrency", NULL};
	static const char *const conc_gp[] = {"input_config", "concurrency", NULL};
	static const char *const in[] = {"input_sequence_length", "avg", NULL};
	static const char *const outl[] = {"output_sequence_length", "avg", NULL};
	out->output_tps = num_at(root, tps);
	if (!out->output_tps)
		return bad(err, name, "AIPerf/genai-perf", "output_token_throughput.avg",
		           "give profile_export_aiperf.json (or profile_export_genai_perf.json)");
	out->concurrency = num_at(root, conc);
	if (!out->concurrency)
		out->concurrency = num_at(root, conc_gp);
	if (!out->concurrency)
		return bad(err, name, "AIPerf/genai-perf", "input_config.loadgen.concurrency",
		           "run it with --concurrency N");
	out->input_len = num_at(root, in);
	out->output_len = num_at(root, outl);
	return PLANNER_OK;
}

static int parse_root(const char *name, const cJSON *root, struct measured *out, char **err)
{
	if (cJSON_IsArray(root))
		return parse_llama(name, root, out, err);
	if (cJSON_IsObject(root)) {
		const cJSON *b = cJSON_GetObjectItemCaseSensitive(root, "benchmarks");
		if (cJSON_IsArray(b))
			return parse_guidellm(name, b, out, err);
		if (cJSON_GetObjectItemCaseSensitive(root, "output_token_throughput"))
			return parse_aiperf(name, root, out, err);
		if (cJSON_GetObjectItemCaseSensitive(root, "output_throughput"))
			return parse_vllm(name, root, out, err);
	}
	return set_err(err, PLANNER_EINPUT,
	               "%s: not a benchmark result planner reads (no 'output_throughput', "
	               "'output_token_throughput', 'benchmarks' or llama-bench test array); give "
	               "the JSON of llama-bench -o json, vllm bench serve --save-result, GuideLLM "
	               "or AIPerf/genai-perf",
	               name);
}

int measured_parse(const char *name, const char *buf, size_t len, struct measured *out, char **err)
{
	memset(out, 0, sizeof *out);
	const char *end = NULL;
	cJSON *root = cJSON_ParseWithLengthOpts(buf, len, &end, false);
	if (!root)
		return set_err(err, PLANNER_EINPUT,
		               "%s: not JSON (byte %zu); give the result file "
		               "the tool wrote",
		               name, end && end >= buf ? (size_t)(end - buf) : (size_t)0);
	int rc = parse_root(name, root, out, err);
	cJSON_Delete(root);
	if (rc != PLANNER_OK)
		measured_free(out);
	return rc;
}

int measured_load(const char *path, struct measured *out, char **err)
{
	memset(out, 0, sizeof *out);
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > MEASURED_MAX_FILE_BYTES)
		return set_err(err, PLANNER_EINPUT,
		               "%s: %lld bytes, more than the %u MiB a result "
		               "file may have",
		               path, (long long)st.st_size, MEASURED_MAX_FILE_BYTES >> 20);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
		return set_err(err, PLANNER_EINPUT, "cannot open %s: not a regular file", path);
	size_t len;
	char *buf = read_file(path, &len);
	if (!buf)
		return set_err(err, errno == ENOMEM ? PLANNER_ESYS : PLANNER_EINPUT,
		               "cannot open %s: %s", path, strerror(errno));
	int rc = measured_parse(path, buf, len, out, err);
	free(buf);
	return rc;
}

void measured_free(struct measured *m)
{
	if (!m)
		return;
	free(m->model);
	m->model = NULL;
}

/* Within the tolerance of the measured value (either 0: no shape to hold). */
static bool near(double measured, double job)
{
	if (measured <= 0 || job <= 0)
		return true;
	return fabs(job - measured) <= MEASURED_SHAPE_TOLERANCE * measured;
}

bool measured_shape_matches(const struct measured *m, double input, double output)
{
	return near(m->input_len, input) && near(m->output_len, output);
}

void measured_apply(const struct measured *m, struct speed_est *s)
{
	if (m->output_tps > 0) {
		s->decode_tps = m->output_tps;
		s->output_tps = m->output_tps;
		s->stream_tps = m->output_tps / (m->concurrency > 0 ? m->concurrency : 1);
		s->prefill_counted = true;
		return;
	}
	if (m->decode_tps > 0) {
		s->decode_tps = m->decode_tps;
		s->stream_tps = m->decode_tps;
		s->output_tps = m->decode_tps;
	}
	if (m->prefill_tps > 0)
		s->prefill_tps = m->prefill_tps;
}

/* a is NULL (any) or names b, case-insensitive. */
static bool same(const char *a, const char *b)
{
	return !a || (b && !strcasecmp(a, b));
}

bool measured_entry_matches(const struct measured_entry *e, const char *model,
                            const char *precision, const char *engine, const struct gpu_spec *gpu,
                            int count, double input, double output)
{
	return same(e->model, model) && same(e->precision, precision) && same(e->engine, engine) &&
	       gpu && !strcasecmp(e->gpu->name, gpu->name) &&
	       (e->count <= 0 || e->count == count) && measured_shape_matches(&e->m, input, output);
}

const struct measured_entry *measured_find(const struct measured_entry *list, size_t n,
                                           const char *model, const char *precision,
                                           const char *engine, const struct gpu_spec *gpu,
                                           int count, double input, double output)
{
	for (size_t i = 0; i < n; i++)
		if (measured_entry_matches(&list[i], model, precision, engine, gpu, count, input,
		                           output))
			return &list[i];
	return NULL;
}

void measured_entry_apply(const struct measured_entry *e, struct speed_est *s)
{
	measured_apply(&e->m, s);
	s->measured = e->file;
}

void measured_entry_free(struct measured_entry *e)
{
	if (!e)
		return;
	free(e->file);
	free(e->path);
	free(e->precision);
	free(e->engine);
	free(e->model);
	measured_free(&e->m);
}
