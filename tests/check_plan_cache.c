/* check_plan_cache.c — planner/plan_cache.c: a plan reads each model's API
 * prices from the store once and every job after that shares them, and
 * estimates each GPU configuration once per shape of job. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "plan_cache.h"
#include "testutil.h"
#include "util.h"

static void put_price(struct store *st, const char *model, double out_per_token)
{
	struct api_price a = {.input_per_token = 0.1e-6, .output_per_token = out_per_token};
	char *err = NULL;
	snprintf(a.model, sizeof a.model, "%s", model);
	ck_assert_int_eq(store_replace_api_prices(st, "testfeed", &a, 1, &err), PLANNER_OK);
}

START_TEST(a_models_api_prices_are_read_once_per_cache_and_another_model_is_read_afresh)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/cache.db", dir);
	struct store *st = NULL;
	char *err = NULL;
	ck_assert_msg(store_open(path, test_ref(), &st, &err) == PLANNER_OK, "%s", err);
	put_price(st, "test/model-a", 0.4e-6);
	struct api_cache c = {0};
	const struct api_price *rows = NULL;
	size_t n = 0;
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-a", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.4e-6);
	/* The store changes; the cache still answers what it read. */
	put_price(st, "test/model-b", 0.9e-6);
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-a", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.4e-6);
	ck_assert_int_eq(api_cache_prices(&c, st, "test/model-b", &rows, &n, &err), PLANNER_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_double_eq(rows[0].output_per_token, 0.9e-6);
	ck_assert_uint_eq(c.n, 2);
	api_cache_free(&c);
	api_cache_free(NULL);
	store_close(st);
	free(path);
	free(dir);
}
END_TEST

/* Three jobs of one shape (hours differ), a fourth of another batch. */
static const char shapes_yaml[] =
    "version: 1\njobs:\n"
    " - {name: a, model: llama-3.1-8b, batch: max, hours_per_month: 100}\n"
    " - {name: b, model: llama-3.1-8b, batch: max, hours_per_month: 300}\n"
    " - {name: c, model: llama-3.1-8b, batch: max, tokens_per_month: {input: 900M, output: 90M},"
    " request: {input: 4096, output: 0}}\n"
    " - {name: d, model: llama-3.1-8b, batch: 4, hours_per_month: 100}\n";

START_TEST(jobs_of_one_shape_share_each_configurations_estimate_and_size_as_workload_size_does)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", shapes_yaml, strlen(shapes_yaml), test_ref(), &spec,
				    &err) == PLANNER_OK,
		      "%s", err);
	ck_assert_uint_eq(spec->n_jobs, 4);
	const struct gpu_spec *gpus[] = {refdata_gpu(test_ref(), "H100 SXM"),
					 refdata_gpu(test_ref(), "RTX 4090"),
					 refdata_gpu(test_ref(), "A100 80GB")};
	struct size_cache c = {0};
	size_t shapes[4];
	for (size_t i = 0; i < 4; i++) {
		struct workload w;
		ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[i], &err), PLANNER_OK);
		shapes[i] = size_cache_shape(&c, &w);
		for (size_t g = 0; g < 3; g++) {
			ck_assert_ptr_nonnull(gpus[g]);
			for (int n = 1; n <= 2; n++) {
				struct workload_run a, b;
				char why_a[256] = "", why_b[256] = "";
				bool ok_a = workload_size(&w, gpus[g], n, 1, &a, why_a, sizeof why_a);
				bool ok_b = size_cache_size(&c, shapes[i], &w, gpus[g], n, 1, &b,
							    why_b, sizeof why_b);
				ck_assert_int_eq(ok_a, ok_b);
				ck_assert_int_eq(a.batch, b.batch);
				ck_assert_int_eq(a.replicas, b.replicas);
				ck_assert(a.tps == b.tps && a.hours == b.hours &&
					  a.work_hours == b.work_hours);
				ck_assert_str_eq(why_a, why_b);
			}
		}
	}
	/* The first job of a shape keeps nothing; the second and third share
	 * one shape (the request shape makes c's the same as a's); d's batch
	 * makes its own. */
	ck_assert_uint_eq(shapes[0], SIZE_MAX);
	ck_assert_uint_ne(shapes[1], SIZE_MAX);
	ck_assert_uint_eq(shapes[1], shapes[2]);
	ck_assert_uint_eq(shapes[3], SIZE_MAX);
	ck_assert_uint_eq(c.n_shapes, 2);
	ck_assert_uint_eq(c.n, 3 * 2); /* one estimate per configuration, kept once */
	size_cache_free(&c);
	size_cache_free(NULL);
	jobspec_free(spec);
}
END_TEST

/* Whether byte i of a workload_shape lies inside field [off, off + len). */
static bool in_field(size_t i, size_t off, size_t len)
{
	return i >= off && i < off + len;
}

START_TEST(changing_any_byte_of_a_shape_changes_its_key_and_model_ref_stands_for_the_model)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", shapes_yaml, strlen(shapes_yaml), test_ref(), &spec,
	                            &err) == PLANNER_OK,
	              "%s", err);
	struct workload w;
	ck_assert_int_eq(workload_init(&w, spec, &spec->jobs[2], &err), PLANNER_OK);
	const struct workload_shape base = w.shape;
	uint64_t key = size_cache_key(&base);
	/* Every byte but the two pointers into the job is part of the key:
	 * each field (precision, engine, attended context, KV bytes, task,
	 * batch) and whatever field is added later. The pointers are only
	 * hashed, never followed, so any value will do. */
	size_t model = offsetof(struct workload_shape, model);
	size_t ref = offsetof(struct workload_shape, model_ref);
	for (size_t i = 0; i < sizeof base; i++) {
		if (in_field(i, model, sizeof base.model) ||
		    in_field(i, ref, sizeof base.model_ref))
			continue;
		for (unsigned bit = 0; bit < 8; bit++) {
			struct workload_shape t;
			memcpy(&t, &base, sizeof t);
			((unsigned char *)&t)[i] ^= (unsigned char)(1u << bit);
			ck_assert_msg(size_cache_key(&t) != key, "byte %zu bit %u", i, bit);
			ck_assert_msg(!size_cache_same(&t, &base), "byte %zu bit %u", i, bit);
		}
	}
	/* And field by field, with values a job could have. */
	struct workload_shape t = base;
	t.prec = precision_find("fp8");
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	t = base;
	t.engine = engine_find("llama.cpp");
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	t = base;
	t.attended += 1;
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	t = base;
	t.kv_bytes = 1;
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	t = base;
	t.task = TASK_FINETUNE_LORA;
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	t = base;
	t.batch = 7;
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	/* The model is named by the text of model_ref: another reference is
	 * another key, another copy of the same one is the same key. */
	t = base;
	t.model_ref = "llama-3.1-70b";
	ck_assert(size_cache_key(&t) != key && !size_cache_same(&t, &base));
	char copy[64];
	snprintf(copy, sizeof copy, "%s", base.model_ref);
	t = base;
	t.model_ref = copy;
	t.model = &spec->jobs[0].model;
	ck_assert(size_cache_key(&t) == key && size_cache_same(&t, &base));
	jobspec_free(spec);
}
END_TEST

START_TEST(the_estimate_reads_the_job_only_through_its_shape)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse("t.yaml", shapes_yaml, strlen(shapes_yaml), test_ref(), &spec,
	                            &err) == PLANNER_OK,
	              "%s", err);
	/* Jobs a and b differ in name and hours, and each has its own copy of
	 * the model and of model_ref: their shapes are one key. */
	struct workload a, b;
	ck_assert_int_eq(workload_init(&a, spec, &spec->jobs[0], &err), PLANNER_OK);
	ck_assert_int_eq(workload_init(&b, spec, &spec->jobs[1], &err), PLANNER_OK);
	ck_assert_ptr_ne(a.shape.model, b.shape.model);
	ck_assert_ptr_ne(a.shape.model_ref, b.shape.model_ref);
	ck_assert(size_cache_same(&a.shape, &b.shape));
	ck_assert(size_cache_key(&a.shape) == size_cache_key(&b.shape));
	/* A shape copied away from its workload estimates what the workload
	 * does: nothing else of the job is read. */
	const struct gpu_spec *g = refdata_gpu(test_ref(), "RTX 4090");
	struct device d = device_from_gpu(g, 1);
	struct workload_shape alone = a.shape;
	int batch_w, batch_s;
	struct speed_est sw, ss;
	workload_estimate(&a, g, 1, &batch_w, &sw);
	workload_shape_estimate(&alone, &d, &batch_s, &ss);
	ck_assert_int_eq(batch_w, batch_s);
	ck_assert(sw.decode_tps == ss.decode_tps && sw.prefill_tps == ss.prefill_tps &&
	          sw.output_tps == ss.output_tps && sw.train_tps == ss.train_tps);
	ck_assert_int_gt(batch_s, 1); /* batch: max on a 24 GiB card */
	jobspec_free(spec);
}
END_TEST

Suite *plan_cache_suite(void)
{
	Suite *s = suite_create("plan_cache");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_models_api_prices_are_read_once_per_cache_and_another_model_is_read_afresh);
	tcase_add_test(tc,
		       jobs_of_one_shape_share_each_configurations_estimate_and_size_as_workload_size_does);
	tcase_add_test(
	    tc, changing_any_byte_of_a_shape_changes_its_key_and_model_ref_stands_for_the_model);
	tcase_add_test(tc, the_estimate_reads_the_job_only_through_its_shape);
	suite_add_tcase(s, tc);
	return s;
}
