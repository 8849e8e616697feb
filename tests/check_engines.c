/* check_engines.c — planner/engines.c: the profile table is well formed,
 * holds the engines issue 10 names, picks the documented default per task
 * and precision, and vram.c and speed.c read the profile they are given
 * rather than numbers of their own. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include <cJSON.h>
#include <stdlib.h>

#include "engines.h"
#include "speed.h"
#include "testutil.h"
#include "util.h"
#include "vram.h"
#include "workload.h"

/* meta-llama/Llama-3.1-8B config.json (8.03 B parameters). */
static const struct model_spec llama31_8b = {
    .id = "llama-3.1-8b",
    .layers = 32,
    .hidden = 4096,
    .heads = 32,
    .kv_heads = 8,
    .head_dim = 128,
    .intermediate = 14336,
    .vocab = 128256,
    .max_context = 131072,
    .params_total = 8.03e9,
    .params_active = 8.03e9,
};

/* RTX 4090: 1008 GB/s, 165.2 dense FP16 TFLOPS (Ada whitepaper). */
static const struct gpu_spec rtx4090 = {
    .name = "RTX 4090",
    .vendor = "nvidia",
    .vram_gib = 23.99,
    .bandwidth_gbs = 1008,
    .fp16_tflops = 165.2,
};

START_TEST(the_default_engine_follows_the_task_and_precision)
{
	ck_assert_str_eq(engine_for(false, "q4_k_m")->name, "llama.cpp");
	ck_assert_str_eq(engine_for(false, "q8_0")->name, "llama.cpp");
	ck_assert_str_eq(engine_for(false, "bf16")->name, "vllm");
	ck_assert_str_eq(engine_for(false, "fp8")->name, "vllm");
	ck_assert_str_eq(engine_for(false, "awq")->name, "vllm");
	ck_assert_str_eq(engine_for(true, "bf16")->name, "hf");
	ck_assert_str_eq(engine_for(true, "q4_k_m")->name, "hf");
	ck_assert_ptr_eq(engine_default(), engine_for(false, "bf16"));
	ck_assert_ptr_eq(engine_find("LLAMA.CPP"), engine_find("llama.cpp"));
	ck_assert_ptr_null(engine_find("nosuch"));
	ck_assert_ptr_null(engine_find(NULL));
	char buf[256];
	ck_assert_ptr_nonnull(strstr(engine_names(buf, sizeof buf), "tensorrt-llm"));
	/* KV options: every engine has 16 bit; fp8 where it offers it */
	ck_assert_double_eq(engine_kv_bytes(engine_find("vllm"), NULL), 2.0);
	ck_assert_double_eq(engine_kv_bytes(engine_find("vllm"), "fp8"), 1.0);
	ck_assert_double_eq(engine_kv_bytes(engine_find("llama.cpp"), "fp8"), 1.0625);
	ck_assert_double_eq(engine_kv_bytes(engine_find("hf"), "fp8"), 0.0);
	ck_assert_double_eq(engine_kv_bytes(engine_find("vllm"), "fp4"), 0.0);
}
END_TEST

/* The issue's list: four inference engines and three training stacks, the
 * serving ones planning in 90 % of the card, llama.cpp and training in
 * nearly all of it. */
START_TEST(every_engine_the_issue_names_is_a_row)
{
	const char *inf[] = {"vllm", "sglang", "tensorrt-llm", "llama.cpp"};
	const char *ft[] = {"hf", "unsloth", "torchtune"};
	for (size_t i = 0; i < 4; i++)
		ck_assert_msg(engine_find(inf[i]) && engine_find(inf[i])->inference, "%s", inf[i]);
	for (size_t i = 0; i < 3; i++)
		ck_assert_msg(engine_find(ft[i]) && engine_find(ft[i])->training, "%s", ft[i]);
	ck_assert_double_eq(engine_find("vllm")->usable_fraction, 0.90);
	ck_assert(engine_find("llama.cpp")->usable_fraction > 0.95);
	ck_assert(engine_find("hf")->usable_fraction > 0.9);
	ck_assert_int_eq(engine_find("llama.cpp")->multi_gpu, MULTI_LAYER_SPLIT);
	ck_assert_int_eq(engine_find("vllm")->multi_gpu, MULTI_TENSOR_PARALLEL);
	ck_assert(engine_find("torchtune")->logit_bytes < engine_find("hf")->logit_bytes);
	ck_assert(engine_find("unsloth")->optimizer_bytes < engine_find("hf")->optimizer_bytes);
}
END_TEST

START_TEST(every_row_is_complete_and_in_range)
{
	for (size_t i = 0; i < n_engines; i++) {
		const struct engine *e = &engines[i];
		ck_assert_msg(e->name && *e->name, "row %zu has no name", i);
		ck_assert_msg(e->summary && *e->summary, "%s has no summary", e->name);
		for (size_t k = 0; k < i; k++)
			ck_assert_msg(strcasecmp(e->name, engines[k].name) != 0, "%s twice",
			              e->name);
		ck_assert_ptr_eq(engine_find(e->name), e);
		ck_assert_msg(e->inference != e->training, "%s: one task kind", e->name);
		const double frac[] = {e->usable_fraction, e->decode_eta[MEM_GDDR],
		                       e->decode_eta[MEM_HBM], e->compute_eta[MEM_GDDR],
		                       e->compute_eta[MEM_HBM], e->train_mfu,
		                       e->tp_efficiency[MEM_GDDR], e->tp_efficiency[MEM_HBM]};
		for (size_t k = 0; k < sizeof frac / sizeof *frac; k++)
			ck_assert_msg(frac[k] > 0 && frac[k] <= 1, "%s: fraction %zu is %g",
			              e->name, k, frac[k]);
		ck_assert(e->overhead_gib >= 0);
		ck_assert(e->kv_bytes_per_element > 0);
		ck_assert(e->max_batch >= 1);
		ck_assert_msg(!e->training || e->optimizer_bytes > 0, "%s: optimizer", e->name);
		ck_assert(e->prefill_chunk_tokens >= 1);
		ck_assert_msg(e->max_tp >= 1 && (e->max_tp & (e->max_tp - 1)) == 0,
		              "%s: max_tp %d is not a power of two", e->name, e->max_tp);
	}
}
END_TEST

/* The K8s export's tensor-parallel flag comes from the engine's row: vLLM
 * and SGLang get theirs when the command starts them and sets no degree
 * already (either spelling); the other engines get none. Every row with an
 * option has a launcher, and a command that already carries the option is
 * left alone, so no row can double it. */
START_TEST(the_tensor_parallel_option_is_the_engines_when_its_command_lacks_one)
{
	static const struct {
		const char *engine, *command, *want;
	} cases[] = {
	    {"vllm", "vllm serve meta-llama/Llama-3.1-70B", "--tensor-parallel-size"},
	    {"vllm", "python -m vllm.entrypoints.openai.api_server", "--tensor-parallel-size"},
	    {"vllm", "vllm serve m --tensor-parallel-size 4", NULL},
	    {"vllm", "vllm serve m -tp 4 --port 80", NULL},
	    {"vllm", "python serve.py", NULL},
	    {"sglang", "python -m sglang.launch_server --model-path m", "--tp-size"},
	    {"sglang", "python -m sglang.launch_server --tp 2", NULL},
	    {"sglang", "python -m sglang.launch_server --tp-size 2", NULL},
	    {"sglang", "vllm serve m", NULL},
	    {"tensorrt-llm", "trtllm-serve m", NULL},
	    {"llama.cpp", "llama-server -m m.gguf", NULL},
	    {"hf", "accelerate launch train.py", NULL},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *got = engine_tp_option(engine_find(cases[i].engine), cases[i].command);
		ck_assert_msg(cases[i].want ? got && !strcmp(got, cases[i].want) : !got,
		              "%s on '%s': %s, want %s", cases[i].engine, cases[i].command,
		              got ? got : "none", cases[i].want ? cases[i].want : "none");
	}
	ck_assert_ptr_null(engine_tp_option(engine_find("vllm"), NULL));
	ck_assert_ptr_null(engine_tp_option(NULL, "vllm serve m"));
	for (size_t i = 0; i < n_engines; i++) {
		const struct engine *e = &engines[i];
		if (!e->tp_option)
			continue;
		ck_assert_msg(e->launcher && *e->launcher, "%s: a tp_option without a launcher",
		              e->name);
		char *plain = xasprintf("%s m", e->launcher);
		char *given = xasprintf("%s m %s 2", e->launcher, e->tp_option);
		ck_assert_ptr_eq(engine_tp_option(e, plain), e->tp_option);
		ck_assert_msg(!engine_tp_option(e, given), "%s: '%s' would get it twice", e->name,
		              given);
		free(given);
		free(plain);
	}
}
END_TEST

/* The help's and messages' lists of engines by task are the rows of that
 * task, in table order, each once. */
START_TEST(the_names_by_task_are_the_rows_of_that_task)
{
	char buf[512], want[512];
	ck_assert_str_eq(engine_names_for(false, ", ", " or ", buf, sizeof buf),
	                 "vllm, sglang, tensorrt-llm or llama.cpp");
	ck_assert_str_eq(engine_names_for(true, ", ", " or ", buf, sizeof buf),
	                 "hf, unsloth, torchtune or megatron");
	for (int training = 0; training < 2; training++) {
		want[0] = '\0';
		for (size_t i = 0; i < n_engines; i++)
			if (training ? engines[i].training : engines[i].inference)
				snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s",
				         want[0] ? "|" : "", engines[i].name);
		ck_assert_str_eq(engine_names_for(training, "|", "|", buf, sizeof buf), want);
	}
	/* Cut to fit, never past the buffer. */
	ck_assert_str_eq(engine_names_for(false, ", ", " or ", buf, 7), "vllm, ");
	ck_assert_str_eq(engine_names(buf, 5), "vllm");
}
END_TEST

/* A profile that is the default with one figure changed moves exactly the
 * estimate that figure belongs to. */
START_TEST(memory_estimates_read_the_profile)
{
	const struct engine *d = engine_find("vllm");
	struct engine e = *d;
	e.overhead_gib = 2.0;
	e.kv_bytes_per_element = 1.0; /* an fp8 KV cache */
	struct vram_need a, b;
	vram_estimate(d, &llama31_8b, precision_find("bf16"), TASK_INFERENCE, 32768, 1, &a);
	vram_estimate(&e, &llama31_8b, precision_find("bf16"), TASK_INFERENCE, 32768, 1, &b);
	ck_assert_double_eq(b.overhead_gib, 2.0);
	ck_assert_double_eq_tol(b.kv_gib, a.kv_gib / 2, 1e-12);
	ck_assert_double_eq_tol(b.weights_gib, a.weights_gib, 1e-12);
	ck_assert_double_eq_tol(vram_kv_bytes_per_token(&e, &llama31_8b),
	                        vram_kv_bytes_per_token(d, &llama31_8b) / 2, 1e-9);

	e = *d;
	e.usable_fraction = 0.5;
	ck_assert_double_eq_tol(vram_usable(&e, &rtx4090), 23.99 * 0.5, 1e-12);
	vram_estimate(d, &llama31_8b, precision_find("bf16"), TASK_INFERENCE, 8192, 1, &a);
	ck_assert(vram_fits(d, &a, &rtx4090, 1));   /* ~18 GiB of 21.6 usable */
	ck_assert(!vram_fits(&e, &a, &rtx4090, 1)); /* of 12.0 usable */
	ck_assert_int_eq(vram_min_gpus(&e, &a, &rtx4090), 2);
	e.max_tp = 1;
	ck_assert_int_eq(vram_min_gpus(&e, &a, &rtx4090), 0);
}
END_TEST

START_TEST(speed_estimates_read_the_profile)
{
	/* vLLM without its fixed cost per step, which no eta scales */
	struct engine base = *engine_find("vllm");
	base.step_overhead_s = 0;
	const struct engine *d = &base;
	struct engine e = *d;
	e.decode_eta[MEM_GDDR] = d->decode_eta[MEM_GDDR] / 2;
	e.train_mfu = d->train_mfu / 2;
	const struct precision_info *p = precision_find("bf16");
	struct speed_est a, b;
	speed_estimate(d, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &a);
	speed_estimate(&e, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &b);
	/* One stream is memory-bound: half the bandwidth, half the tokens. */
	ck_assert_double_eq_tol(b.decode_tps, a.decode_tps / 2, 1e-9);
	ck_assert_double_eq_tol(b.prefill_tps, a.prefill_tps, 1e-9);
	speed_estimate(d, &llama31_8b, p, &rtx4090, 1, TASK_FINETUNE_LORA, 2048, 1, &a);
	speed_estimate(&e, &llama31_8b, p, &rtx4090, 1, TASK_FINETUNE_LORA, 2048, 1, &b);
	ck_assert_double_eq_tol(b.train_tps, a.train_tps / 2, 1e-9);

	/* The HBM figure is not read for a GDDR card. */
	e = *d;
	e.decode_eta[MEM_HBM] = 0.01;
	speed_estimate(&e, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &b);
	speed_estimate(d, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &a);
	ck_assert_double_eq_tol(b.decode_tps, a.decode_tps, 1e-9);

	e = *d;
	e.tp_efficiency[MEM_GDDR] = 1.0;
	speed_estimate(d, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &a);
	speed_estimate(&e, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &b);
	ck_assert_double_eq_tol(b.decode_tps / a.decode_tps, 1.0 / d->tp_efficiency[MEM_GDDR],
	                        1e-9);
}
END_TEST

/* llama.cpp's default layer split runs the GPUs one after another: two
 * cards hold a bigger model but one stream gets no faster. */
START_TEST(a_layer_split_adds_memory_but_not_stream_speed)
{
	const struct engine *l = engine_find("llama.cpp");
	const struct precision_info *p = precision_find("q4_k_m");
	struct speed_est one, two;
	speed_estimate(l, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &one);
	speed_estimate(l, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &two);
	ck_assert(two.stream_tps <= one.stream_tps);
	/* Tensor parallelism adds bandwidth at its efficiency. */
	struct engine v = *engine_find("vllm");
	v.tp_efficiency[MEM_GDDR] = 0.8;
	v.step_overhead_s = 0; /* a fixed cost per step no GPU shortens */
	speed_estimate(&v, &llama31_8b, p, &rtx4090, 1, TASK_INFERENCE, 4096, 1, &one);
	speed_estimate(&v, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &two);
	ck_assert_double_eq_tol(two.stream_tps / one.stream_tps, 1.6, 1e-9);
}
END_TEST

/* A job picks its engine with engine: (any spelling), else gets the
 * default for its task and precision; a wrong name or a serving engine on
 * a fine-tuning job is refused with the place and the choices. */
static int load(const char *body, struct jobspec **spec, struct workload *w, char **err)
{
	char *yaml = xasprintf("version: 1\njobs:\n  - {name: a, model: llama-3.1-8b, "
	                       "hours_per_month: 10%s}\n",
	                       body);
	int rc = jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), spec, err);
	free(yaml);
	if (rc == PLANNER_OK)
		rc = workload_init(w, *spec, &(*spec)->jobs[0], err);
	return rc;
}

START_TEST(a_job_names_its_engine_or_gets_the_default_for_its_task_and_precision)
{
	struct jobspec *spec = NULL;
	struct workload w;
	char *err = NULL;
	ck_assert_int_eq(load(", engine: SGLang", &spec, &w, &err), PLANNER_OK);
	ck_assert_str_eq(w.engine->name, "sglang");
	ck_assert_str_eq(spec->jobs[0].engine, "sglang");
	jobspec_free(spec);
	ck_assert_int_eq(load(", precision: q4_k_m", &spec, &w, &err), PLANNER_OK);
	ck_assert_str_eq(w.engine->name, "llama.cpp");
	jobspec_free(spec);
	ck_assert_int_eq(load(", task: finetune-qlora", &spec, &w, &err), PLANNER_OK);
	ck_assert_str_eq(w.engine->name, "hf");
	jobspec_free(spec);

	spec = NULL;
	ck_assert_int_eq(load(", engine: vlm", &spec, &w, &err), PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "t.yaml:3:") && strstr(err, "unknown engine 'vlm'") &&
	                  strstr(err, "tensorrt-llm"),
	              "%s", err);
	free(err);
	err = NULL;
	jobspec_free(spec);
	spec = NULL;
	ck_assert_int_eq(load(", task: finetune-lora, engine: vllm", &spec, &w, &err),
	                 PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "does not run finetune-lora"), "%s", err);
	free(err);
	jobspec_free(spec);
}
END_TEST

/* fit answers for one fixed configuration: "will it run on my two 4090s?" */
START_TEST(fit_answers_for_a_fixed_gpu_and_count_with_every_speed)
{
	const char *argv[] = {"fit",   "llama-3.1-70b", "--precision", "q4_k_m", "--gpu",
	                      "4090",  "--gpus",        "2",           "--format", "json",
	                      NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "engine")->valuestring, "llama.cpp");
	cJSON *gpus = cJSON_GetObjectItem(root, "gpus");
	ck_assert_int_eq(cJSON_GetArraySize(gpus), 1);
	cJSON *g = cJSON_GetArrayItem(gpus, 0);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "gpu")->valuestring, "RTX 4090");
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits"))); /* 40 GiB over 2 x 24 */
	ck_assert_int_eq(cJSON_GetObjectItem(g, "gpus")->valueint, 2);
	ck_assert_int_eq(cJSON_GetObjectItem(g, "gpus_needed")->valueint, 2);
	const char *keys[] = {"per_gpu_gib", "decode_tokens_per_second", "output_tokens_per_second",
	                      "prefill_tokens_per_second", "train_tokens_per_second",
	                      "tokens_per_second"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		ck_assert_msg(cJSON_IsNumber(cJSON_GetObjectItem(g, keys[i])), "%s", keys[i]);
	ck_assert_str_eq(cJSON_GetObjectItem(g, "engine")->valuestring, "llama.cpp");
	/* one stream over a layer split: about one card's bandwidth over
	 * 40 GiB of weights, 15-30 tok/s (measured 19.06, calibration set) */
	double d = cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble;
	ck_assert_msg(d > 12 && d < 30, "%g", d);
	cJSON_Delete(root);
	free(out);

	const char *one[] = {"fit", "llama-3.1-70b", "--precision", "q4_k_m", "--gpu", "4090",
	                     "--gpus", "1", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(one, NULL, &out, NULL), 0);
	root = cJSON_Parse(out);
	g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(g, "fits")));
	cJSON_Delete(root);
	free(out);

	/* A throughput server's batch: as many sequences as the KV cache holds;
	 * an fp8 cache holds about twice as many. */
	int batch[2];
	const char *kv[2] = {"bf16", "fp8"};
	for (int i = 0; i < 2; i++) {
		const char *mx[] = {"fit", "llama-3.1-70b", "--precision", "fp8", "--gpu", "h100",
		                    "--gpus", "2", "--input", "1000", "--output", "1000",
		                    "--context", "2000", "--batch", "max", "--kv-cache", kv[i],
		                    "--format", "json", NULL};
		ck_assert_int_eq(test_run_planner(mx, NULL, &out, NULL), 0);
		root = cJSON_Parse(out);
		g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
		ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
		batch[i] = cJSON_GetObjectItem(g, "batch")->valueint;
		ck_assert(cJSON_GetObjectItem(g, "output_tokens_per_second")->valuedouble >
		          cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble * 10);
		cJSON_Delete(root);
		free(out);
	}
	ck_assert_msg(batch[0] > 8 && batch[1] > batch[0] * 1.8, "%d %d", batch[0], batch[1]);

	char *err = NULL;
	const char *bad[] = {"fit", "llama-3.1-8b", "--engine", "vlm", NULL};
	ck_assert_int_eq(test_run_planner(bad, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown engine 'vlm'"));
	free(err);
	const char *gpu[] = {"fit", "llama-3.1-8b", "--gpu", "RTX 4091", NULL};
	ck_assert_int_eq(test_run_planner(gpu, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "unknown GPU"));
	free(err);
}
END_TEST

/* Megatron (engines.c): a spec's `engine: megatron` and `fit --engine
 * megatron` choose it for training; it runs no inference, and says so. */
START_TEST(megatron_is_chosen_by_name_and_refuses_inference)
{
	struct jobspec *spec = NULL;
	struct workload w;
	char *err = NULL;
	ck_assert_int_eq(load(", task: finetune-full, engine: megatron", &spec, &w, &err),
	                 PLANNER_OK);
	ck_assert_str_eq(w.engine->name, "megatron");
	jobspec_free(spec);
	spec = NULL;
	ck_assert_int_eq(load(", engine: megatron", &spec, &w, &err), PLANNER_EINPUT);
	ck_assert_msg(strstr(err, "t.yaml:3:") && strstr(err, "megatron") &&
	                  strstr(err, "does not run inference"),
	              "%s", err);
	free(err);
	err = NULL;
	jobspec_free(spec);

	const char *inf[] = {"fit", "llama-3.1-8b", "--engine", "megatron", NULL};
	ck_assert_int_eq(test_run_planner(inf, NULL, NULL, &err), 2);
	ck_assert_msg(strstr(err, "'megatron' does not run inference"), "%s", err);
	free(err);
	const char *ft[] = {"fit",      "llama-3.1-8b", "--task", "finetune-lora",
	                    "--engine", "megatron",     "--gpu",  "h100",
	                    "--format", "json",         NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(ft, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "engine")->valuestring, "megatron");
	cJSON_Delete(root);
	free(out);
}
END_TEST

/* Megatron's memory: bf16 weights and fp32 gradients on every
 * data-parallel rank, the fp32 master copy and Adam moments sharded over
 * them: 6 + 12/d bytes per parameter (Megatron-LM
 * docs/user-guide/features/dist_optimizer.md at 859b66a, its table's
 * "bf16 parameters, fp32 gradients" row: 18 without the distributed
 * optimizer). Activations of one micro-batch: 34 sbh per layer (selective
 * recompute, Korthikanti et al. 2022 sec. 5) and the 4sbv fp32 logits,
 * split over tp by sequence parallelism. */
START_TEST(megatron_memory_is_the_distributed_optimizers)
{
	const struct engine *e = engine_find("megatron");
	ck_assert_ptr_nonnull(e);
	struct vram_job j = {
	    .task = TASK_FINETUNE_FULL, .context = 4096, .batch = 8, .micro_batch = 1};
	struct vram_need need;
	vram_estimate_job(e, &llama31_8b, precision_find("bf16"), &j, &need);
	double p = llama31_8b.params_total / 1073741824.0;
	ck_assert_double_eq_tol(need.weights_gib + need.training_gib, 18.0 * p, 1e-6);
	struct vram_need state = need;
	state.activation_gib = state.unsplit_gib = state.overhead_gib = 0;
	const int d[] = {1, 8, 64};
	for (size_t i = 0; i < 3; i++)
		ck_assert_double_eq_tol(vram_per_gpu_layout(&state, 1, 1, d[i]),
		                        (6.0 + 12.0 / d[i]) * p, 1e-6);
	/* tp x pp split the replicated 6 bytes too */
	ck_assert_double_eq_tol(vram_per_gpu_layout(&state, 4, 2, 8), (6.0 / 8 + 12.0 / 64) * p,
	                        1e-6);
	const struct model_spec *m = &llama31_8b;
	double act = (34.0 * m->hidden * m->layers + 4.0 * m->vocab) * 4096 / 1073741824.0;
	ck_assert_double_eq_tol(need.activation_gib, act, 1e-6);
	struct vram_need a = need;
	a.weights_gib = a.training_gib = a.dp_sharded_gib = a.overhead_gib = 0;
	ck_assert_double_eq_tol(vram_per_gpu_layout(&a, 4, 1, 2), act / 4, 1e-6);
	/* other engines shard nothing apart: FSDP's plain split */
	vram_estimate_job(engine_find("hf"), m, precision_find("bf16"), &j, &need);
	ck_assert_double_eq(need.dp_sharded_gib, 0.0);
}
END_TEST

/* Megatron's speed against published runs of sources no constant was
 * fitted on (MEGATRON_MFU rests on Megatron-Bridge 25.11 only):
 * NeMo 24.07's Llama 3 8B pre-training on 8 H100 at FP8, 12,273 tokens/s
 * per GPU (NVIDIA/NeMo docs/source/performance/performance_summary.md at
 * 8e3d65dc; calibration train_throughput-130), and Megatron-Bridge 26.06's
 * Llama 3 70B LoRA on 8 H100 at FP8 as tp2 pp4, 2,643 per GPU
 * (docs/performance-summary-archive.md at 4ab94dfa; train_throughput-147,
 * 0.73 of it: the interleaved schedule and the overlapped tensor-parallel
 * exchange are not modelled). */
static double fit_train_tps(const char *const *argv)
{
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "gpus"), 0);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	double tps = cJSON_GetObjectItem(g, "train_tokens_per_second")->valuedouble;
	cJSON_Delete(root);
	free(out);
	return tps;
}

/* Megatron-Bridge 26.06's Llama 3 70B LoRA on 8 H100 as tp2 pp4 (4096
 * tokens, global batch 32, micro-batch 1) at precision prec: the
 * training tokens/s of one GPU. */
static double lora_70b_tps(const char *prec)
{
	const char *argv[] = {"fit",
	                      "llama-3.1-70b",
	                      "--task",
	                      "finetune-lora",
	                      "--engine",
	                      "megatron",
	                      "--gpu",
	                      "h100",
	                      "--parallel",
	                      "tp=2,pp=4",
	                      "--context",
	                      "4096",
	                      "--batch",
	                      "32",
	                      "--micro-batch",
	                      "1",
	                      "--precision",
	                      prec,
	                      "--format",
	                      "json",
	                      NULL};
	return fit_train_tps(argv) / 8;
}

START_TEST(megatron_speed_holds_to_runs_it_was_not_fitted_on)
{
	const char *pre[] = {
	    "fit",       "llama-3.1-8b", "--task",  "finetune-full", "--engine",
	    "megatron",  "--gpu",        "h100",    "--gpus",        "8",
	    "--context", "8192",         "--batch", "128",           "--micro-batch",
	    "1",         "--precision",  "fp8",     "--format",      "json",
	    NULL};
	double tps = fit_train_tps(pre) / 8;
	ck_assert_msg(fabs(tps / 12273 - 1) < 0.2, "%g tokens/s per GPU", tps);
	tps = lora_70b_tps("fp8");
	ck_assert_msg(fabs(tps / 2643 - 1) < 0.35, "%g tokens/s per GPU", tps);
	/* FP8 LoRA runs at Transformer Engine's FP8 rate, BF16 below it */
	ck_assert(lora_70b_tps("bf16") < tps * 0.8);
}
END_TEST

Suite *engines_suite(void)
{
	Suite *s = suite_create("engines");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_default_engine_follows_the_task_and_precision);
	tcase_add_test(tc, every_engine_the_issue_names_is_a_row);
	tcase_add_test(tc, every_row_is_complete_and_in_range);
	tcase_add_test(tc, the_tensor_parallel_option_is_the_engines_when_its_command_lacks_one);
	tcase_add_test(tc, the_names_by_task_are_the_rows_of_that_task);
	tcase_add_test(tc, memory_estimates_read_the_profile);
	tcase_add_test(tc, speed_estimates_read_the_profile);
	tcase_add_test(tc, a_layer_split_adds_memory_but_not_stream_speed);
	tcase_add_test(tc, a_job_names_its_engine_or_gets_the_default_for_its_task_and_precision);
	tcase_add_test(tc, fit_answers_for_a_fixed_gpu_and_count_with_every_speed);
	tcase_add_test(tc, megatron_is_chosen_by_name_and_refuses_inference);
	tcase_add_test(tc, megatron_memory_is_the_distributed_optimizers);
	tcase_add_test(tc, megatron_speed_holds_to_runs_it_was_not_fitted_on);
	suite_add_tcase(s, tc);
	return s;
}
