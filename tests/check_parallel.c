/* check_parallel.c — planner/parallel.c: layouts past one node, their
 * refusals, the pipeline bubble, and the estimate held to published
 * multi-node training runs; `planner fit` over 64 and 1024 GPUs. */
#include <cJSON.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engines.h"
#include "parallel.h"
#include "testutil.h"

START_TEST(a_layout_parses_and_bad_ones_say_why)
{
	struct parallel l;
	char why[200];
	ck_assert(parallel_parse("tp=2,pp=4", &l, why, sizeof why));
	ck_assert_int_eq(l.tp, 2);
	ck_assert_int_eq(l.pp, 4);
	ck_assert_int_eq(l.dp, 0);
	ck_assert_int_eq(parallel_gpus(&l), 8);
	ck_assert(!parallel_parse("tp=2,zz=4", &l, why, sizeof why));
	ck_assert_msg(strstr(why, "unknown key 'zz'") && strstr(why, "tp, pp, dp, ep"), "%s", why);
	ck_assert(!parallel_parse("tp=0", &l, why, sizeof why));
	ck_assert_msg(strstr(why, "whole number"), "%s", why);
	ck_assert(!parallel_parse("tp=2,tp=4", &l, why, sizeof why));
	ck_assert_msg(strstr(why, "twice"), "%s", why);
	ck_assert(!parallel_parse("pp", &l, why, sizeof why));
	ck_assert_msg(strstr(why, "pp=N"), "%s", why);
}
END_TEST

START_TEST(the_pipeline_bubble_is_pp_minus_one_over_m_plus_pp_minus_one)
{
	/* Narayanan et al. 2021, sec. 2.2.1: (p - 1) / (m + p - 1) */
	ck_assert_double_eq_tol(parallel_bubble(4, 8), 3.0 / 11.0, 1e-12);
	ck_assert_double_eq_tol(parallel_bubble(1, 8), 0.0, 1e-12);
	ck_assert_double_eq_tol(parallel_bubble(2, 1), 0.5, 1e-12);
}
END_TEST

START_TEST(layouts_the_model_cannot_estimate_are_refused_naming_why)
{
	const struct refdata *ref = test_ref();
	const struct gpu_spec *h100 = refdata_gpu(ref, "H100 SXM");
	const struct gpu_spec *pcie = refdata_gpu(ref, "H100 PCIe");
	const struct model_spec *dense = refdata_model(ref, "llama-3.1-70b");
	const struct model_spec *moe = refdata_model(ref, "mixtral-8x7b");
	ck_assert_ptr_nonnull(h100);
	ck_assert_ptr_nonnull(pcie);
	ck_assert_ptr_nonnull(dense);
	ck_assert_ptr_nonnull(moe);
	ck_assert_int_eq(h100->gpus_per_node, 8);
	const struct engine *vllm = engine_find("vllm"), *hf = engine_find("hf");
	struct parallel want, l;
	char why[240];
	want = (struct parallel){.tp = 16};
	ck_assert(!parallel_layout(vllm, dense, h100, 16, TASK_INFERENCE, &want, &l, why, sizeof why));
	ck_assert_msg(strstr(why, "tensor parallelism stays inside one node of 8"), "%s", why);
	want = (struct parallel){.tp = 8, .pp = 4, .dp = 1};
	ck_assert(!parallel_layout(vllm, dense, h100, 16, TASK_INFERENCE, &want, &l, why, sizeof why));
	ck_assert_msg(strstr(why, "is 32 GPUs, not the 16"), "%s", why);
	want = (struct parallel){.tp = 1, .ep = 2};
	ck_assert(!parallel_layout(hf, dense, h100, 16, TASK_FINETUNE_FULL, &want, &l, why, sizeof why));
	ck_assert_msg(strstr(why, "dense"), "%s", why);
	ck_assert(!parallel_layout(vllm, dense, pcie, 16, TASK_INFERENCE, NULL, &l, why, sizeof why));
	ck_assert_msg(strstr(why, "single-node only"), "%s", why);
	ck_assert(!parallel_layout(engine_find("llama.cpp"), dense, h100, 16, TASK_INFERENCE, NULL,
	                           &l, why, sizeof why));
	ck_assert_msg(strstr(why, "one host"), "%s", why);
	/* An MoE model splits its experts over ep of a stage's GPUs. */
	want = (struct parallel){.tp = 1, .ep = 8};
	ck_assert_msg(parallel_layout(hf, moe, h100, 16, TASK_FINETUNE_FULL, &want, &l, why,
	                              sizeof why), "%s", why);
	ck_assert_int_eq(l.dp, 16);
	ck_assert_int_eq(l.ep, 8);
	/* planner's own choices past one node */
	ck_assert(parallel_layout(vllm, dense, h100, 16, TASK_INFERENCE, NULL, &l, why, sizeof why));
	ck_assert(l.tp == 8 && l.pp == 2 && l.dp == 1);
	ck_assert(parallel_layout(hf, dense, h100, 64, TASK_FINETUNE_FULL, NULL, &l, why, sizeof why));
	ck_assert(l.tp == 1 && l.pp == 1 && l.dp == 64);
	ck_assert_int_eq(parallel_nodes(h100, 64), 8);
}
END_TEST

/* The GPT models of Narayanan et al. 2021 (arXiv:2104.04473) Table 1, on
 * DGX A100 nodes (8 A100 80GB SXM, NVSwitch, 8 x 200 Gb/s HDR), sequence
 * 2048, vocabulary 51200: calibration rows train_throughput-055..058
 * (held out), achieved TFLOP/s per GPU by the paper's Eq. 3, which counts
 * the recomputed forward pass. The micro-batch is not in the table; 1 is
 * assumed. */
static const struct megatron_run {
	const char *row;
	double params_b;
	int hidden, layers, heads, gpus, tp, pp, dp, batch;
	double tflops;
} megatron[] = {
    {"train_throughput-055", 7.5, 4096, 36, 32, 128, 4, 1, 32, 512, 142},
    {"train_throughput-056", 18.4, 6144, 40, 48, 256, 8, 1, 32, 1024, 135},
    {"train_throughput-057", 39.1, 8192, 48, 64, 512, 8, 2, 32, 1536, 138},
    {"train_throughput-058", 76.1, 10240, 60, 80, 1024, 8, 4, 32, 1792, 140},
};

START_TEST(multi_node_training_lands_near_megatrons_published_tflops)
{
	const struct megatron_run *r = &megatron[_i];
	const struct gpu_spec *a100 = refdata_gpu(test_ref(), "A100 80GB");
	ck_assert_ptr_nonnull(a100);
	ck_assert_int_eq(a100->gpus_per_node, 8);
	struct model_spec m = {.id = "gpt", .layers = r->layers, .hidden = r->hidden,
	                       .heads = r->heads, .kv_heads = r->heads,
	                       .head_dim = r->hidden / r->heads, .intermediate = 4 * r->hidden,
	                       .vocab = 51200, .max_context = 2048,
	                       .params_total = r->params_b * 1e9, .params_active = r->params_b * 1e9,
	                       .tied_embeddings = true};
	struct parallel l = {r->tp, r->pp, r->dp, 1};
	struct speed_job job = {.task = TASK_FINETUNE_FULL, .context = 2048, .batch = r->batch,
	                        .micro_batch = 1};
	struct speed_est s;
	parallel_speed(engine_find("hf"), &m, precision_find("bf16"), a100, &l, &job, &s);
	/* Eq. 3: 96 B s l h^2 (1 + s / 6h + V / 16 l h) FLOPs per iteration
	 * of B sequences of s tokens. */
	double B = r->batch, seq = 2048, h = r->hidden, L = r->layers;
	double flops = 96 * B * seq * L * h * h * (1 + seq / (6 * h) + 51200 / (16 * L * h));
	double est = flops * s.train_tps / (B * seq) / r->gpus / 1e12;
	double err = est / r->tflops - 1;
	fprintf(stderr, "%s: %d GPUs tp%d pp%d dp%d: estimated %.0f TFLOP/s per GPU, published %.0f (%+.0f %%)\n",
	        r->row, r->gpus, r->tp, r->pp, r->dp, est, r->tflops, err * 100);
	ck_assert_msg(err > -0.25 && err < 0.25, "%s: %.0f vs %.0f", r->row, est, r->tflops);
}
END_TEST

/* fit's JSON row for argv, or NULL. */
static cJSON *fit_row(const char *const *argv, cJSON **root)
{
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	*root = cJSON_Parse(out);
	free(out);
	ck_assert_ptr_nonnull(*root);
	return cJSON_GetArrayItem(cJSON_GetObjectItem(*root, "gpus"), 0);
}

START_TEST(a_70b_full_fine_tune_over_64_h100s_takes_8_nodes_and_fits)
{
	const char *argv[] = {"fit", "llama-3.1-70b", "--task", "finetune-full", "--gpu", "h100",
	                      "--gpus", "64", "--format", "json", NULL};
	const char *one[] = {"fit", "llama-3.1-70b", "--task", "finetune-full", "--gpu", "h100",
	                     "--gpus", "8", "--format", "json", NULL};
	cJSON *root, *root8;
	cJSON *g = fit_row(argv, &root), *g8 = fit_row(one, &root8);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	ck_assert(!cJSON_IsTrue(cJSON_GetObjectItem(g8, "fits"))); /* 1 TiB of state over 8 */
	ck_assert_int_eq(cJSON_GetObjectItem(g, "nodes")->valueint, 8);
	ck_assert_int_eq(cJSON_GetObjectItem(g, "gpus_per_node")->valueint, 8);
	cJSON *p = cJSON_GetObjectItem(g, "parallel");
	ck_assert_int_eq(cJSON_GetObjectItem(p, "dp")->valueint, 64);
	ck_assert_int_eq(cJSON_GetObjectItem(p, "tp")->valueint, 1);
	double tps = cJSON_GetObjectItem(g, "train_tokens_per_second")->valuedouble;
	/* at most 64 GPUs at the engine's MFU, and FSDP's gathers over 400 Gb/s
	 * cost something: below the compute bound */
	double bound = 64 * 0.40 * 989.4e12 / (6 * 70.6e9);
	ck_assert_msg(tps > 0.2 * bound && tps < bound, "%g of %g", tps, bound);
	cJSON_Delete(root);
	cJSON_Delete(root8);
}
END_TEST

START_TEST(a_405b_serving_instance_over_16_gpus_is_2_nodes_with_pp2)
{
	const char *argv[] = {"fit", "llama-3.1-405b", "--gpu", "h100", "--gpus", "16",
	                      "--format", "json", NULL};
	cJSON *root;
	cJSON *g = fit_row(argv, &root);
	ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(g, "fits")));
	ck_assert_int_eq(cJSON_GetObjectItem(g, "nodes")->valueint, 2);
	cJSON *p = cJSON_GetObjectItem(g, "parallel");
	ck_assert_int_eq(cJSON_GetObjectItem(p, "tp")->valueint, 8);
	ck_assert_int_eq(cJSON_GetObjectItem(p, "pp")->valueint, 2);
	ck_assert(cJSON_GetObjectItem(g, "decode_tokens_per_second")->valuedouble > 0);
	cJSON_Delete(root);
	/* the table says it too */
	const char *text[] = {"fit", "llama-3.1-405b", "--gpu", "h100", "--gpus", "16", NULL};
	char *out = NULL;
	ck_assert_int_eq(test_run_planner(text, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, "H100 SXM x16 (2 nodes, tp8 pp2 dp1)"), "%s", out);
	free(out);
}
END_TEST

START_TEST(gpus_1024_are_accepted_for_training_and_1025_refused)
{
	const char *ok[] = {"fit", "llama-3.1-70b", "--task", "finetune-full", "--gpu", "h100",
	                    "--gpus", "1024", NULL};
	const char *over[] = {"fit", "llama-3.1-70b", "--task", "finetune-full", "--gpu", "h100",
	                      "--gpus", "1025", NULL};
	const char *serve[] = {"fit", "llama-3.1-70b", "--gpu", "h100", "--gpus", "128", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_int_eq(test_run_planner(ok, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, "(128 nodes, tp1 pp1 dp1024)"), "%s", out);
	free(out);
	out = NULL;
	ck_assert_int_ne(test_run_planner(over, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "1 to 1024"), "%s", err);
	free(out);
	free(err);
	out = err = NULL;
	ck_assert_int_ne(test_run_planner(serve, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "at most 64 GPUs"), "%s", err);
	free(out);
	free(err);
}
END_TEST

START_TEST(fit_refuses_a_layout_it_cannot_estimate_with_the_reason)
{
	static const struct {
		const char *gpus, *layout, *says;
	} cases[] = {
	    {"16", "tp=16", "stays inside one node"},
	    {"16", "tp=8,pp=4,dp=1", "not the 16"},
	    {"8", "tp=2,pp=2,ep=2", "dense"},
	    {"8", "tp=2,qq=1", "unknown key 'qq'"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *argv[] = {"fit", "llama-3.1-70b", "--task", "finetune-full", "--gpu",
		                      "h100", "--gpus", cases[i].gpus, "--parallel", cases[i].layout,
		                      NULL};
		char *out = NULL, *err = NULL;
		ck_assert_int_ne(test_run_planner(argv, NULL, &out, &err), 0);
		ck_assert_msg(strstr(err, cases[i].says), "%s: %s", cases[i].layout, err);
		free(out);
		free(err);
	}
	const char *mac[] = {"fit", "llama-3.1-8b", "--gpu", "M3 Max", "--parallel", "tp=2", NULL};
	char *mout = NULL, *merr = NULL;
	ck_assert_int_ne(test_run_planner(mac, NULL, &mout, &merr), 0);
	ck_assert_msg(strstr(merr, "one machine"), "%s", merr);
	free(mout);
	free(merr);
	const char *pcie[] = {"fit", "llama-3.1-70b", "--gpu", "h100 pcie", "--gpus", "16", NULL};
	char *out = NULL, *err = NULL;
	ck_assert_int_ne(test_run_planner(pcie, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "single-node only"), "%s", err);
	free(out);
	free(err);
}
END_TEST

START_TEST(a_given_layout_inside_one_node_pays_its_pipeline_bubble)
{
	const char *tp8[] = {"fit", "llama-3.1-70b", "--task", "finetune-lora", "--gpu", "h100",
	                     "--gpus", "8", "--parallel", "tp=8", "--format", "json", NULL};
	const char *pp4[] = {"fit", "llama-3.1-70b", "--task", "finetune-lora", "--gpu", "h100",
	                     "--gpus", "8", "--parallel", "tp=2,pp=4", "--format", "json", NULL};
	cJSON *r1, *r2;
	double a = cJSON_GetObjectItem(fit_row(tp8, &r1), "train_tokens_per_second")->valuedouble;
	double b = cJSON_GetObjectItem(fit_row(pp4, &r2), "train_tokens_per_second")->valuedouble;
	/* one micro-batch through 4 stages: 3/4 of the time idle */
	ck_assert_msg(b < a * 0.5 && b > 0, "%g vs %g", b, a);
	cJSON_Delete(r1);
	cJSON_Delete(r2);
}
END_TEST

START_TEST(a_specs_parallel_layout_is_refused_at_its_line_and_column)
{
	static const struct {
		const char *layout, *says;
	} cases[] = {{"{tp: 16}", ":6:20: 'tp' in parallel of job 'ft' is too large"},
	             {"{tp: 2, ep: 2}", ":6:15: parallel of job 'ft': ep=2: the model is dense"},
	             {"{tq: 2}", ":6:16: unknown key 'tq' in parallel of job 'ft'"}};
	char path[] = "/tmp/check-parallel-XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		FILE *f = fopen(path, "w");
		ck_assert_ptr_nonnull(f);
		fprintf(f, "jobs:\n  - name: ft\n    model: llama-3.1-70b\n    task: finetune-lora\n"
		           "    hours_per_month: 10\n    parallel: %s\n", cases[i].layout);
		fclose(f);
		const char *argv[] = {"compare", path, NULL};
		char *out = NULL, *err = NULL;
		ck_assert_int_ne(test_run_planner(argv, NULL, &out, &err), 0);
		ck_assert_msg(strstr(err, cases[i].says), "%s: %s", cases[i].layout, err);
		free(out);
		free(err);
	}
	unlink(path);
}
END_TEST

Suite *parallel_suite(void)
{
	Suite *s = suite_create("parallel");
	TCase *tc = tcase_create("layout");
	tcase_add_test(tc, a_layout_parses_and_bad_ones_say_why);
	tcase_add_test(tc, the_pipeline_bubble_is_pp_minus_one_over_m_plus_pp_minus_one);
	tcase_add_test(tc, layouts_the_model_cannot_estimate_are_refused_naming_why);
	tcase_add_loop_test(tc, multi_node_training_lands_near_megatrons_published_tflops, 0,
	                    (int)(sizeof megatron / sizeof *megatron));
	suite_add_tcase(s, tc);
	TCase *cli = tcase_create("fit");
	tcase_add_test(cli, a_70b_full_fine_tune_over_64_h100s_takes_8_nodes_and_fits);
	tcase_add_test(cli, a_405b_serving_instance_over_16_gpus_is_2_nodes_with_pp2);
	tcase_add_test(cli, gpus_1024_are_accepted_for_training_and_1025_refused);
	tcase_add_test(cli, fit_refuses_a_layout_it_cannot_estimate_with_the_reason);
	tcase_add_test(cli, a_given_layout_inside_one_node_pays_its_pipeline_bubble);
	tcase_add_test(cli, a_specs_parallel_layout_is_refused_at_its_line_and_column);
	suite_add_tcase(s, cli);
	return s;
}
