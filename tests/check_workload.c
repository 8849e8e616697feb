/* check_workload.c — planner/workload.c, the one home of the rules compare,
 * schedule and report share: which routes, GPUs, providers and offers a
 * job may use, its hours on a configuration, its power cost. Jobs come
 * from small specs parsed against the reference data. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "report.h"
#include "testutil.h"
#include "util.h"
#include "workload.h"

#define HEAD                                                                                       \
	"version: 1\nelectricity_per_kwh: 0.20\npue: 1.5\n"                                        \
	"jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "

static struct jobspec *spec_of(const char *yaml)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", yaml, strlen(yaml), test_ref(), &spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err);
	return spec;
}

/* The workload of the spec's first job. */
static struct workload work_of(const struct jobspec *spec)
{
	struct workload w;
	char *err = NULL;
	ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[0], &err), PLANNER_OK);
	ck_assert_ptr_null(err);
	return w;
}

static struct offer offer(const char *provider, const char *gpu, int count, bool spot)
{
	struct offer o;
	memset(&o, 0, sizeof o);
	snprintf(o.provider, sizeof o.provider, "%s", provider);
	snprintf(o.gpu, sizeof o.gpu, "%s", gpu);
	o.gpu_count = count;
	o.spot = spot;
	return o;
}

START_TEST(a_workload_carries_its_precision_engine_and_memory_need)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 100}\n");
	struct workload w = work_of(spec);
	ck_assert_ptr_eq(w.job, &spec->jobs[0]);
	ck_assert_ptr_eq(w.spec, spec);
	ck_assert_str_eq(w.prec->name, "q4_k_m");
	ck_assert_ptr_eq(w.engine, engine_for(false, "q4_k_m")); /* GGUF: llama.cpp */
	struct vram_need need;
	vram_estimate(w.engine, &spec->jobs[0].model, w.prec, TASK_INFERENCE,
	              spec->jobs[0].context, spec->jobs[0].batch, &need);
	ck_assert_double_eq(w.need.total_gib, need.total_gib);
	jobspec_free(spec);
}
END_TEST

START_TEST(an_unknown_precision_is_an_input_error_at_the_job)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 100}\n");
	struct job j = spec->jobs[0];
	j.precision = "q9_z";
	struct workload w;
	char *err = NULL;
	ck_assert_int_eq(workload_init(&w, spec, &j, &err), PLANNER_EINPUT);
	ck_assert_str_eq(err, "t.yaml:5:4: unknown precision 'q9_z'");
	free(err);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_task_and_data_class_decide_the_routes)
{
	char why[256];
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	struct workload w = work_of(spec);
	for (int r = 0; r < (int)route_count(); r++)
		ck_assert(workload_route_allowed(&w, (enum route)r, why, sizeof why));
	jobspec_free(spec);

	spec = spec_of(HEAD "hours_per_month: 10, task: finetune-lora}\n");
	w = work_of(spec);
	ck_assert(!workload_route_allowed(&w, ROUTE_API, why, sizeof why));
	ck_assert_str_eq(why, "task: finetune-lora is fine-tuning; the api route prices "
	                      "inference tokens only");
	ck_assert(workload_route_allowed(&w, ROUTE_RENTED, NULL, 0));
	jobspec_free(spec);

	spec = spec_of(HEAD "hours_per_month: 10, data: confidential}\n");
	w = work_of(spec);
	ck_assert(!workload_route_allowed(&w, ROUTE_API, why, sizeof why));
	ck_assert_str_eq(why, "data: confidential excludes third-party APIs");
	ck_assert(workload_route_allowed(&w, ROUTE_RENTED, why, sizeof why));
	jobspec_free(spec);

	spec = spec_of(HEAD "hours_per_month: 10, data: restricted}\n");
	w = work_of(spec);
	ck_assert(!workload_route_allowed(&w, ROUTE_API, NULL, 0)); /* no reason asked */
	ck_assert(!workload_route_allowed(&w, ROUTE_RENTED, why, sizeof why));
	ck_assert_str_eq(why, "data: restricted allows owned GPUs only");
	ck_assert(workload_route_allowed(&w, ROUTE_OWNED, why, sizeof why));
	jobspec_free(spec);
}
END_TEST

START_TEST(gpus_providers_and_spot_prices_follow_the_job_and_spec)
{
	const struct gpu_spec *h100 = refdata_gpu(test_ref(), "H100 SXM");
	const struct gpu_spec *mi300x = refdata_gpu(test_ref(), "MI300X");
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	struct workload w = work_of(spec);
	ck_assert(workload_gpu_allowed(&w, h100));
	ck_assert(!workload_gpu_allowed(&w, mi300x));
	ck_assert(workload_provider_allowed(&w, "anyone")); /* no providers: list */
	ck_assert(workload_rental_allowed(&w, "anyone", h100, false));
	ck_assert(!workload_rental_allowed(&w, "anyone", h100, true)); /* not interruptible */
	jobspec_free(spec);

	spec = spec_of("version: 1\nproviders: [RunPod, lambda]\n"
	               "jobs:\n - {name: a, model: llama-3.1-8b, precision: q4_k_m, "
	               "hours_per_month: 10, interruptible: true, accelerator: any}\n");
	w = work_of(spec);
	ck_assert(workload_gpu_allowed(&w, mi300x));
	ck_assert(workload_provider_allowed(&w, "runpod"));
	ck_assert(workload_provider_allowed(&w, "LAMBDA"));
	ck_assert(!workload_provider_allowed(&w, "vast"));
	ck_assert(workload_rental_allowed(&w, "runpod", mi300x, true));
	ck_assert(!workload_rental_allowed(&w, "vast", mi300x, true));
	jobspec_free(spec);
}
END_TEST

START_TEST(an_offer_is_its_reference_gpu_sized_by_the_offer)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	struct workload w = work_of(spec);
	struct gpu_spec sized;
	struct offer o = offer("x", "A10", 1, false);
	const struct gpu_spec *g = workload_offer_gpu(&w, test_ref(), &o, &sized);
	ck_assert_ptr_eq(g, refdata_gpu(test_ref(), "A10"));
	ck_assert_double_eq(sized.vram_gib, g->vram_gib); /* no figure of its own */
	o.vram_gib = 3.5;                                 /* a slice of the card */
	ck_assert_ptr_eq(workload_offer_gpu(&w, test_ref(), &o, &sized), g);
	ck_assert_double_eq(sized.vram_gib, 3.5);
	ck_assert(!workload_fits(&w, &sized, 1));
	o = offer("x", "no such GPU", 1, false);
	ck_assert_ptr_null(workload_offer_gpu(&w, test_ref(), &o, &sized));
	o = offer("x", "A10", 1, true);
	ck_assert_ptr_null(workload_offer_gpu(&w, test_ref(), &o, &sized)); /* spot */
	jobspec_free(spec);
}
END_TEST

START_TEST(fit_and_gpu_count_use_the_jobs_engine)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	struct workload w = work_of(spec);
	const struct gpu_spec *h100 = refdata_gpu(test_ref(), "H100 SXM");
	ck_assert(workload_fits(&w, h100, 1));
	ck_assert_int_eq(workload_min_gpus(&w, h100), 1);
	ck_assert_int_eq(workload_min_gpus(&w, h100), vram_min_gpus(w.engine, &w.need, h100));
	jobspec_free(spec);
}
END_TEST

/* Hours on one H100 of a served job whose request.cached_share is share
 * ("" none) under engine. */
static double cached_hours(const char *engine, const char *share)
{
	char *yaml = xasprintf("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, engine: %s, "
	                       "request: {input: 2000, output: 200%s}, "
	                       "tokens_per_month: {input: 2B, output: 50M}}\n",
	                       engine, share);
	struct jobspec *spec = spec_of(yaml);
	struct workload w = work_of(spec);
	double h = workload_gpu_hours(&w, refdata_gpu(test_ref(), "H100 SXM"), 1, NULL);
	jobspec_free(spec);
	free(yaml);
	return h;
}

START_TEST(a_cached_share_takes_its_prefill_off_an_engine_with_prefix_caching)
{
	/* vLLM caches prefixes: the hours are the decode's plus the prefill
	 * of the uncached share, linear in the share. */
	double none = cached_hours("vllm", ""), all = cached_hours("vllm", ", cached_share: 1");
	double part = cached_hours("vllm", ", cached_share: 0.6");
	ck_assert(isfinite(none) && none > 0);
	ck_assert(all < none);
	ck_assert_double_eq_tol(part, 0.4 * none + 0.6 * all, 1e-9 * none);
	ck_assert_double_eq(cached_hours("vllm", ", cached_share: 0"), none);
	/* TensorRT-LLM's profile has no prefix cache: the share changes nothing. */
	ck_assert_double_eq(cached_hours("tensorrt-llm", ", cached_share: 0.6"),
	                    cached_hours("tensorrt-llm", ""));
}
END_TEST

START_TEST(hours_are_the_given_ones_or_the_tokens_at_the_estimated_rate)
{
	const struct gpu_spec *h100 = refdata_gpu(test_ref(), "H100 SXM");
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 123}\n");
	struct workload w = work_of(spec);
	double tps = -1;
	ck_assert_double_eq(workload_gpu_hours(&w, h100, 1, NULL), 123);
	ck_assert_double_eq(workload_gpu_hours(&w, h100, 1, &tps), 123);
	ck_assert(tps > 0); /* the rate is estimated even when the hours are given */
	jobspec_free(spec);

	spec = spec_of(HEAD "tokens_per_month: {input: 50M, output: 20M}}\n");
	w = work_of(spec);
	const struct job *j = &spec->jobs[0];
	struct speed_est s;
	speed_estimate_kv(w.engine, &j->model, w.prec, h100, 2, j->task, w.attended,
	                  w.kv_bytes, j->batch, &s);
	double hours = speed_hours_for_tokens(&s, j->task, 50e6, 20e6);
	ck_assert_double_eq(workload_gpu_hours(&w, h100, 2, &tps), hours);
	ck_assert_double_eq(tps, s.decode_tps);
	ck_assert_double_eq(workload_gpu_hours(&w, h100, 2, NULL), hours);
	jobspec_free(spec);
}
END_TEST

/* need of b sequences of `tokens` each, with KV elements of kv bytes. */
static bool fits_batch(const struct workload *w, const struct gpu_spec *g, int b, long tokens,
		       double kv)
{
	struct engine e = *w->engine;
	e.kv_bytes_per_element = kv;
	struct vram_need need;
	vram_estimate(&e, &w->job->model, w->prec, TASK_INFERENCE, tokens, b, &need);
	return vram_fits(w->engine, &need, g, 1);
}

START_TEST(batch_max_is_the_largest_batch_whose_kv_fits_at_the_mean_attended_context)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "RTX 4090");
	struct jobspec *spec = spec_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, "
				       "batch: max, context: 8192, request: {input: 3000, output: 2000}, "
				       "hours_per_month: 100}\n");
	struct workload w = work_of(spec);
	ck_assert_double_eq(w.attended, 4000); /* 3000 + 2000 / 2 */
	ck_assert_double_eq(w.kv_bytes, 2);
	int b = workload_batch(&w, g, 1);
	ck_assert_int_gt(b, 1);
	ck_assert(fits_batch(&w, g, b, 4000, 2) && !fits_batch(&w, g, b + 1, 4000, 2));
	jobspec_free(spec);

	/* An FP8 cache holds about twice the sequences. */
	spec = spec_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, batch: max, "
		       "kv_cache: fp8, context: 8192, request: {input: 3000, output: 2000}, "
		       "hours_per_month: "
		       "100}\n");
	struct workload w8 = work_of(spec);
	ck_assert_double_eq(w8.kv_bytes, 1);
	int b8 = workload_batch(&w8, g, 1);
	ck_assert(fits_batch(&w8, g, b8, 4000, 1) && !fits_batch(&w8, g, b8 + 1, 4000, 1));
	ck_assert_int_ge(b8, 2 * b - 1);
	/* A fixed batch is the job's on every GPU (the workload reads the
	 * job once, when it is built). */
	spec->jobs[0].batch_max = false;
	spec->jobs[0].batch = 3;
	w8 = work_of(spec);
	ck_assert_int_eq(workload_batch(&w8, g, 1), 3);
	jobspec_free(spec);
}
END_TEST

/* workload_max_batch guesses from a line through b = 1 and the engine's
 * cap, then halves: the answer must be the largest batch that fits (or
 * 1), as counting down from the cap finds it, on dense, MoE and hybrid
 * models, at several precisions, contexts, cache types and GPU counts. */
START_TEST(batch_max_is_the_largest_fitting_batch_a_count_down_finds)
{
	const struct refdata *ref = test_ref();
	const char *precs[] = {"fp16", "fp8", "q4_k_m"};
	const char *gpus[] = {"RTX 4090", "L4", "A100 80GB", "H100 SXM"};
	const double attended[] = {300, 4000, 30000};
	int checked = 0, between = 0;
	for (size_t mi = 0; mi < ref->n_models; mi += 4) {
		const struct model_spec *m = &ref->models[mi];
		for (size_t pi = 0; pi < sizeof precs / sizeof *precs; pi++) {
			const struct precision_info *p = precision_find(precs[pi]);
			const struct engine *e = engine_for(false, precs[pi]);
			ck_assert_ptr_nonnull(p);
			for (size_t gi = 0; gi < sizeof gpus / sizeof *gpus; gi++) {
				const struct gpu_spec *g = refdata_gpu(ref, gpus[gi]);
				ck_assert_ptr_nonnull(g);
				for (int n = 1; n <= 8; n *= 8)
					for (size_t ai = 0; ai < 3; ai++)
						for (double kv = 1; kv <= 2; kv++) {
							struct device d = device_from_gpu(g, n);
							int got = workload_max_batch(
							    e, m, p, attended[ai], kv, &d);
							int want =
							    g->vram_gib >=
							                WORKLOAD_LARGE_CARD_GIB &&
							            !strstr(g->name, "A100")
							        ? WORKLOAD_MAX_SEQS_LARGE
							        : WORKLOAD_MAX_SEQS;
							struct engine kv_e = *e;
							kv_e.kv_bytes_per_element = kv;
							for (; want > 1; want--) {
								struct vram_need need;
								vram_estimate(
								    &kv_e, m, p, TASK_INFERENCE,
								    (long)ceil(attended[ai]), want,
								    &need);
								if (vram_device_fits(e, &need, &d))
									break;
							}
							ck_assert_msg(
							    got == want,
							    "%s %s %s x%d at %.0f: %d, not %d",
							    m->name, p->name, g->name, n,
							    attended[ai], got, want);
							checked++;
							between +=
							    got > 1 && got < WORKLOAD_MAX_SEQS;
						}
			}
		}
	}
	ck_assert_int_gt(checked, 1000);
	ck_assert_int_gt(between, 100); /* batches between the floor and the cap */
}
END_TEST

START_TEST(batch_max_stops_at_vllms_max_num_seqs)
{
	struct jobspec *spec = spec_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, "
				       "precision: q4_k_m, batch: max, context: 256, "
				       "hours_per_month: 100}\n");
	struct workload w = work_of(spec);
	ck_assert_int_eq(workload_batch(&w, refdata_gpu(test_ref(), "H100 SXM"), 1), 1024);
	ck_assert_int_eq(workload_batch(&w, refdata_gpu(test_ref(), "A100 80GB"), 1), 256);
	ck_assert_int_eq(workload_batch(&w, refdata_gpu(test_ref(), "RTX 4090"), 1), 256);
	jobspec_free(spec);
}
END_TEST

START_TEST(tokens_alone_split_into_replicas_of_at_most_a_month)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "RTX 4090");
	struct jobspec *spec = spec_of(HEAD "tokens_per_month: {input: 1B, output: 1B}}\n");
	struct workload w = work_of(spec);
	struct workload_run run;
	char why[256] = "";
	ck_assert(workload_size(&w, g, 1, 1000, &run, why, sizeof why));
	ck_assert_double_eq(run.hours * run.replicas, run.work_hours);
	ck_assert_int_eq(run.replicas, (int)ceil(run.work_hours / HOURS_PER_MONTH));
	ck_assert(run.hours <= HOURS_PER_MONTH);
	ck_assert_int_gt(run.replicas, 1);
	ck_assert_str_eq(why, "");
	/* Too few copies allowed: the reason says what is needed and done. */
	ck_assert(!workload_size(&w, g, 1, 1, &run, why, sizeof why));
	char want[256];
	snprintf(want, sizeof want, "needs %.0f tok/s over 744 h; 1x RTX 4090 does %.0f under %s",
		 1e9 / (744 * 3600.0), run.tps, w.engine->name);
	ck_assert_msg(!strncmp(why, want, strlen(want)), "%s", why);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_largest_token_count_needs_more_copies_than_an_int_and_says_so)
{
	/* 1e15 tokens each way (the most a spec takes) in one hour: about
	 * 7.5e9 copies of one RTX 4090, more than INT_MAX; the count is
	 * never cast out of range (undefined behaviour under UBSan). */
	const struct gpu_spec *g = refdata_gpu(test_ref(), "RTX 4090");
	struct jobspec *spec =
	    spec_of(HEAD "hours_per_month: 1, tokens_per_month: {input: 1000T, output: 1000T}}\n");
	struct workload w = work_of(spec);
	struct workload_run run;
	char why[512] = "";
	ck_assert(!workload_size(&w, g, 1, 64, &run, why, sizeof why));
	ck_assert_int_ge(run.replicas, 1);
	ck_assert_msg(strstr(why, " copies (") && !strstr(why, "-2147483648"), "%s", why);
	double copies = atof(strstr(why, "so ") + 3);
	ck_assert_msg(copies > 2147483647.0, "%s", why);
	jobspec_free(spec);
}
END_TEST

/* Output tokens/s of n GPUs of g for the spec's first job. */
static double rate_of(const char *yaml, const char *gpu)
{
	struct jobspec *spec = spec_of(yaml);
	struct workload w = work_of(spec);
	struct workload_run run;
	ck_assert(workload_size(&w, refdata_gpu(test_ref(), gpu), 1, 1, &run, NULL, 0));
	jobspec_free(spec);
	return run.tps;
}

START_TEST(decode_reads_the_kv_cache_to_the_mean_attended_context_in_its_type)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "H100 SXM");
	struct jobspec *spec = spec_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, "
				       "batch: 32, context: 8192, request: {input: 1000, output: "
				       "2000}, hours_per_month: 100}\n");
	struct workload w = work_of(spec);
	const struct job *j = &spec->jobs[0];
	struct speed_est full, mean;
	/* The step reads 2,000 tokens of KV per sequence (1000 + 2000 / 2),
	 * not the 8,192 of the context: exactly a full-context estimate at a
	 * context of 2,000. */
	speed_estimate(w.engine, &j->model, w.prec, g, 1, TASK_INFERENCE, 2000, 32, &mean);
	speed_estimate(w.engine, &j->model, w.prec, g, 1, TASK_INFERENCE, 8192, 32, &full);
	struct workload_run run;
	ck_assert(workload_size(&w, g, 1, 1, &run, NULL, 0));
	ck_assert_double_eq_tol(run.tps, mean.decode_tps, 1e-9);
	ck_assert(mean.decode_tps > 1.5 * full.decode_tps);
	jobspec_free(spec);
	/* An fp8 cache halves the KV bytes a step reads. */
	double bf16 = rate_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, batch: 32, "
			      "context: 8192, hours_per_month: 100}\n",
			      "H100 SXM");
	double fp8 = rate_of("version: 1\njobs:\n - {name: a, model: llama-3.1-8b, batch: 32, "
			     "context: 8192, kv_cache: fp8, hours_per_month: 100}\n",
			     "H100 SXM");
	ck_assert(fp8 > 1.3 * bf16);
}
END_TEST

START_TEST(power_costs_watts_times_pue_times_hours_at_the_kwh_price)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	/* 2 x 500 W x PUE 1.5 x 10 h = 15 kWh at 0.20 */
	ck_assert_double_eq_tol(power_cost(spec, 2, 500, 10), 3.0, 1e-12);
	ck_assert_double_eq_tol(power_cost(spec, 2, 500, 1), 0.3, 1e-12);
	ck_assert_double_eq(power_cost(spec, 2, 500, 0), 0);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_month_bound_is_the_longest_month)
{
	ck_assert_double_eq(HOURS_PER_MONTH, 31 * 24);
	ck_assert_str_eq(route_name(ROUTE_API), "api");
	ck_assert_str_eq(route_name(ROUTE_RENTED), "rented");
	ck_assert_str_eq(route_name(ROUTE_OWNED), "owned");
	ck_assert_str_eq(route_name(ROUTE_MAX), "?");
}
END_TEST

/* The report's owned line at zero hours costs what power_cost says an
 * hour costs: the two consumers cannot drift apart. */
START_TEST(the_reports_owned_slope_is_the_hourly_power_cost)
{
	struct jobspec *spec = spec_of(HEAD "hours_per_month: 10}\n");
	struct job_result j;
	memset(&j, 0, sizeof j);
	j.job = &spec->jobs[0];
	j.routes[ROUTE_OWNED] = (struct route_result){.route = ROUTE_OWNED,
	                                              .feasible = true,
	                                              .gpu_count = 4,
	                                              .watts = 350,
	                                              .capex = 7200,
	                                              .monthly_cost = 100};
	tco_owned_month(spec, NULL, 4, 1800, 350, 0, 10, false, &j.routes[ROUTE_OWNED].tco);
	struct cost_line l[ROUTE_MAX];
	report_cost_lines(spec, &j, l);
	ck_assert(l[ROUTE_OWNED].feasible);
	ck_assert_double_eq(l[ROUTE_OWNED].slope, power_cost(spec, 4, 350, 1));
	jobspec_free(spec);
}
END_TEST

Suite *workload_suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_cached_share_takes_its_prefill_off_an_engine_with_prefix_caching);
	tcase_add_test(tc, a_workload_carries_its_precision_engine_and_memory_need);
	tcase_add_test(tc, an_unknown_precision_is_an_input_error_at_the_job);
	tcase_add_test(tc, the_task_and_data_class_decide_the_routes);
	tcase_add_test(tc, gpus_providers_and_spot_prices_follow_the_job_and_spec);
	tcase_add_test(tc, an_offer_is_its_reference_gpu_sized_by_the_offer);
	tcase_add_test(tc, fit_and_gpu_count_use_the_jobs_engine);
	tcase_add_test(tc, hours_are_the_given_ones_or_the_tokens_at_the_estimated_rate);
	tcase_add_test(tc, power_costs_watts_times_pue_times_hours_at_the_kwh_price);
	tcase_add_test(tc, batch_max_is_the_largest_batch_whose_kv_fits_at_the_mean_attended_context);
	tcase_add_test(tc, batch_max_stops_at_vllms_max_num_seqs);
	tcase_add_test(tc, batch_max_is_the_largest_fitting_batch_a_count_down_finds);
	tcase_add_test(tc, tokens_alone_split_into_replicas_of_at_most_a_month);
	tcase_add_test(tc, the_largest_token_count_needs_more_copies_than_an_int_and_says_so);
	tcase_add_test(tc, decode_reads_the_kv_cache_to_the_mean_attended_context_in_its_type);
	tcase_add_test(tc, the_month_bound_is_the_longest_month);
	tcase_add_test(tc, the_reports_owned_slope_is_the_hourly_power_cost);
	suite_add_tcase(s, tc);
	return s;
}
