/* check_engines.c — planner/engines.c: the profile table is well formed,
 * the default profile keeps the figures planner has always used (so every
 * output stays as it was), and vram.c and speed.c read the profile they
 * are given rather than numbers of their own. */
#include <check.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "engines.h"
#include "speed.h"
#include "vram.h"

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

START_TEST(the_default_profile_is_the_first_row_and_found_by_name)
{
	ck_assert_uint_ge(n_engines, 1);
	ck_assert_ptr_eq(engine_default(), &engines[0]);
	ck_assert_str_eq(engine_default()->name, "default");
	ck_assert_ptr_eq(engine_find("default"), engine_default());
	ck_assert_ptr_eq(engine_find("DEFAULT"), engine_default());
	ck_assert_ptr_null(engine_find("nosuch"));
	ck_assert_ptr_null(engine_find(NULL));
}
END_TEST

/* These are the numbers vram.c and speed.c held as #defines before the
 * table existed; changing one changes every figure planner prints. */
START_TEST(the_default_profile_keeps_the_figures_outputs_depend_on)
{
	const struct engine *e = engine_default();
	ck_assert_double_eq(e->usable_fraction, 0.90);
	ck_assert_double_eq(e->overhead_gib, 0.75);
	ck_assert_double_eq(e->kv_bytes_per_element, 2.0);
	ck_assert_double_eq(e->prefill_chunk_tokens, 512.0);
	ck_assert_int_eq(e->max_tp, 8);
	ck_assert_double_eq(e->decode_eta, 0.62);
	ck_assert_double_eq(e->compute_eta, 0.50);
	ck_assert_double_eq(e->train_mfu, 0.40);
	ck_assert_double_eq(e->tp_efficiency, 0.85);
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
		const double frac[] = {e->usable_fraction, e->decode_eta, e->compute_eta,
		                       e->train_mfu, e->tp_efficiency};
		for (size_t k = 0; k < sizeof frac / sizeof *frac; k++)
			ck_assert_msg(frac[k] > 0 && frac[k] <= 1, "%s: fraction %zu is %g",
			              e->name, k, frac[k]);
		ck_assert(e->overhead_gib >= 0);
		ck_assert(e->kv_bytes_per_element > 0);
		ck_assert(e->prefill_chunk_tokens >= 1);
		ck_assert_msg(e->max_tp >= 1 && (e->max_tp & (e->max_tp - 1)) == 0,
		              "%s: max_tp %d is not a power of two", e->name, e->max_tp);
	}
}
END_TEST

/* A profile that is the default with one figure changed moves exactly the
 * estimate that figure belongs to. */
START_TEST(memory_estimates_read_the_profile)
{
	const struct engine *d = engine_default();
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
	ck_assert(vram_fits(d, &a, &rtx4090, 1));   /* ~17 GiB of 21.6 usable */
	ck_assert(!vram_fits(&e, &a, &rtx4090, 1)); /* of 12.0 usable */
	ck_assert_int_eq(vram_min_gpus(&e, &a, &rtx4090), 2);
	e.max_tp = 1;
	ck_assert_int_eq(vram_min_gpus(&e, &a, &rtx4090), 0);
}
END_TEST

START_TEST(speed_estimates_read_the_profile)
{
	const struct engine *d = engine_default();
	struct engine e = *d;
	e.decode_eta = d->decode_eta / 2;
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

	e = *d;
	e.tp_efficiency = 1.0;
	speed_estimate(d, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &a);
	speed_estimate(&e, &llama31_8b, p, &rtx4090, 2, TASK_INFERENCE, 4096, 1, &b);
	ck_assert_double_eq_tol(b.decode_tps / a.decode_tps, 1.0 / d->tp_efficiency, 1e-9);
}
END_TEST

Suite *engines_suite(void)
{
	Suite *s = suite_create("engines");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, the_default_profile_is_the_first_row_and_found_by_name);
	tcase_add_test(tc, the_default_profile_keeps_the_figures_outputs_depend_on);
	tcase_add_test(tc, every_row_is_complete_and_in_range);
	tcase_add_test(tc, memory_estimates_read_the_profile);
	tcase_add_test(tc, speed_estimates_read_the_profile);
	suite_add_tcase(s, tc);
	return s;
}
