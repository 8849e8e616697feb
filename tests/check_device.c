/* check_device.c — planner/device.c: a GPU and a count as the device the
 * memory fit and the speed model read, the kinds not modelled yet refused
 * with their reason, and the GPU-taking functions giving what the device
 * ones give. */
#include <check.h>
#include <string.h>

#include "device.h"
#include "speed.h"
#include "testutil.h"
#include "vram.h"
#include "workload.h"

/* NVIDIA H100 SXM5 datasheet figures, as in tests/check_vram.c. */
static const struct gpu_spec h100 = {
    .name = "H100 SXM",
    .vendor = "nvidia",
    .vram_gib = 79.6,
    .bandwidth_gbs = 3350,
    .fp16_tflops = 989.4,
    .fp8_tflops = 1978.9,
    .int8_tops = 1978.9,
    .watts = 700,
};

START_TEST(a_gpu_becomes_a_device_of_one_memory_tier_with_its_rates_and_power)
{
	struct device d = device_from_gpu(&h100, 4);
	ck_assert_int_eq(d.kind, DEVICE_GPU);
	ck_assert_str_eq(device_kind_name(d.kind), "gpu");
	ck_assert_str_eq(d.name, "H100 SXM");
	ck_assert_str_eq(d.vendor, "nvidia");
	ck_assert_int_eq(d.count, 4);
	ck_assert_double_eq(d.tier[DEVICE_TIER_LOCAL].gib, 79.6);
	ck_assert_double_eq(d.tier[DEVICE_TIER_LOCAL].bandwidth_gbs, 3350);
	ck_assert_int_eq(d.tier[DEVICE_TIER_LOCAL].mem, MEM_HBM);
	ck_assert_double_eq(d.tier[DEVICE_TIER_HOST].gib, 0);
	ck_assert_double_eq(d.fp16_tflops, 989.4);
	ck_assert_double_eq(d.fp8_tflops, 1978.9);
	ck_assert_double_eq(d.fp16_acc_tflops, 1978.9 / 2);
	ck_assert_double_eq(d.watts, 700);
	ck_assert_int_eq(d.link, DEVICE_LINK_NVLINK);
	ck_assert_ptr_eq(d.gpu, &h100);
	struct device two = device_with_count(&d, 2);
	ck_assert_int_eq(two.count, 2);
	ck_assert_int_eq(d.count, 4);
	ck_assert(device_modelled(&d, NULL, 0));
}
END_TEST

START_TEST(stacked_memory_is_told_by_the_part_anywhere_in_the_name)
{
	static const struct {
		const char *name;
		bool hbm;
	} cases[] = {{"H100 SXM", true}, {"NVIDIA H200 NVL", true}, {"A100 80GB", true},
	             {"GH200", true},    {"AMD MI300X", true},      {"Tesla V100", true},
	             {"A30", true},      {"RTX 4090", false},       {"A10", false},
	             {"L40S", false},    {"RTX A6000", false},      {"", false}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct gpu_spec g = {.name = (char *)cases[i].name};
		ck_assert_msg(device_gpu_hbm(&g) == cases[i].hbm, "%s", cases[i].name);
		ck_assert_msg(gpu_memory_class(&g) == (cases[i].hbm ? MEM_HBM : MEM_GDDR), "%s",
		              cases[i].name);
		struct device d = device_from_gpu(&g, 2);
		ck_assert_int_eq(d.link, cases[i].hbm ? DEVICE_LINK_NVLINK : DEVICE_LINK_PCIE);
	}
	ck_assert(!device_gpu_hbm(NULL));
}
END_TEST

START_TEST(the_reference_table_records_each_gpus_memory_class_by_the_name_rule)
{
	const struct refdata *ref = test_ref();
	for (size_t i = 0; i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		ck_assert_msg(g->mem_class != GPU_MEM_UNSET, "%s", g->name);
		ck_assert_msg((g->mem_class == GPU_MEM_HBM) == device_gpu_hbm(g), "%s", g->name);
	}
	/* A recorded class wins over the name (a copy keeps its part's). */
	struct gpu_spec g = h100;
	g.mem_class = GPU_MEM_GDDR;
	ck_assert_int_eq(gpu_memory_class(&g), MEM_GDDR);
}
END_TEST

START_TEST(more_than_one_mac_or_cpu_for_one_model_is_refused_with_the_reason)
{
	char why[160] = "";
	struct device d = device_from_gpu(&h100, 2);
	d.kind = DEVICE_UNIFIED;
	d.name = "M3 Max";
	ck_assert(!device_modelled(&d, why, sizeof why));
	ck_assert_str_eq(why, "M3 Max is one machine (count 2): a unified device runs its own copy "
	                      "of the model");
	d.kind = DEVICE_CPU;
	ck_assert(!device_modelled(&d, NULL, 0));
	d.count = 1;
	ck_assert(device_modelled(&d, NULL, 0));

	/* The fit gives no verdict on two, and never asks for more than one. */
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-8b");
	const struct precision_info *p = precision_find("q4_k_m");
	const struct engine *e = engine_find("llama.cpp");
	struct vram_need need;
	vram_estimate(e, m, p, TASK_INFERENCE, 4096, 1, &need);
	struct vram_fit fit;
	d.count = 2;
	ck_assert(!vram_place(e, &need, &d, &fit, why, sizeof why));
	ck_assert(!fit.fits);
	d.count = 1;
	d.tier[DEVICE_TIER_LOCAL].gib = 2.0; /* too small: not two of it */
	ck_assert_int_eq(vram_device_min_count(e, &need, &d), 0);

	d = device_from_gpu(&h100, 0);
	ck_assert(!device_modelled(&d, why, sizeof why));
	ck_assert_str_eq(why, "H100 SXM: no devices (count 0)");
}
END_TEST

START_TEST(a_mac_wires_two_thirds_of_small_memory_and_three_quarters_of_large)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "M3 Max 40-core");
	ck_assert_ptr_nonnull(g);
	const struct engine *e = engine_find("llama.cpp");
	struct gpu_spec sized = *g;
	sized.vram_gib = 36;
	struct device d = device_from_gpu(&sized, 1);
	ck_assert_int_eq(d.kind, DEVICE_UNIFIED);
	ck_assert_double_eq_tol(vram_device_usable(e, &d), 24.0, 1e-9);
	sized.vram_gib = 64;
	d = device_from_gpu(&sized, 1);
	ck_assert_double_eq_tol(vram_device_usable(e, &d), 48.0, 1e-9);
	/* A 70B at q4_k_m fits the 64 GiB one, not the 36 GiB one. */
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-70b");
	struct vram_need need;
	vram_estimate(e, m, precision_find("q4_k_m"), TASK_INFERENCE, 4096, 1, &need);
	ck_assert(vram_device_fits(e, &need, &d));
	sized.vram_gib = 36;
	d = device_from_gpu(&sized, 1);
	ck_assert(!vram_device_fits(e, &need, &d));
}
END_TEST

START_TEST(a_cpu_decodes_at_its_bandwidth_or_its_threads_whichever_binds)
{
	const struct gpu_spec *g = refdata_gpu(test_ref(), "Ryzen 9 7950X");
	ck_assert_ptr_nonnull(g);
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-8b");
	const struct precision_info *p = precision_find("q4_k_m");
	const struct engine *e = engine_find("llama.cpp");
	struct speed_job job = {.task = TASK_INFERENCE, .context = 128, .batch = 1};
	struct device d = device_from_gpu(g, 1);
	struct speed_est all, two;
	speed_estimate_device(e, m, p, &d, &job, &all);
	d.threads = 2;
	speed_estimate_device(e, m, p, &d, &job, &two);
	ck_assert(all.decode_tps > 0 && two.decode_tps > 0);
	ck_assert(two.decode_tps < all.decode_tps);
	ck_assert(two.prefill_tps < all.prefill_tps / 4);
	/* Sixteen threads are bound by the memory: more bandwidth, more speed. */
	struct gpu_spec fast = *g;
	fast.bandwidth_gbs *= 2;
	struct device f = device_from_gpu(&fast, 1);
	struct speed_est faster;
	speed_estimate_device(e, m, p, &f, &job, &faster);
	ck_assert(faster.decode_tps > 1.5 * all.decode_tps);
}
END_TEST

START_TEST(the_fit_puts_every_byte_in_the_devices_own_memory_and_none_in_the_host_tier)
{
	const struct model_spec *m = refdata_model(test_ref(), "llama-3.1-70b");
	ck_assert_ptr_nonnull(m);
	const struct precision_info *p = precision_find("bf16");
	const struct engine *e = engine_default();
	struct vram_need need;
	vram_estimate(e, m, p, TASK_INFERENCE, 8192, 1, &need);
	struct device d = device_from_gpu(&h100, 2);
	d.tier[DEVICE_TIER_HOST] = (struct device_tier){.gib = 512, .bandwidth_gbs = 200};
	struct vram_fit fit;
	char why[160] = "";
	bool fits = vram_place(e, &need, &d, &fit, why, sizeof why);
	ck_assert_double_eq(fit.need_gib[DEVICE_TIER_LOCAL], vram_per_gpu_engine(e, &need, 2));
	ck_assert_double_eq(fit.usable_gib[DEVICE_TIER_LOCAL], 79.6 * e->usable_fraction);
	ck_assert_double_eq(fit.need_gib[DEVICE_TIER_HOST], 0);
	ck_assert_double_eq(fit.usable_gib[DEVICE_TIER_HOST], 0);
	ck_assert_int_eq(fits, fit.fits);
	ck_assert_int_eq(fits, vram_fits(e, &need, &h100, 2));
	/* On one card it does not fit, and says by how much. */
	d.count = 1;
	ck_assert(!vram_place(e, &need, &d, &fit, why, sizeof why));
	ck_assert_ptr_nonnull(strstr(why, "GiB on each of 1 H100 SXM"));
}
END_TEST

START_TEST(the_gpu_functions_answer_what_the_device_functions_do)
{
	const struct refdata *ref = test_ref();
	const struct model_spec *m = refdata_model(ref, "llama-3.1-8b");
	const char *precs[] = {"bf16", "fp8", "q4_k_m"};
	for (size_t g = 0; g < ref->n_gpus; g++) {
		const struct gpu_spec *gpu = &ref->gpus[g];
		for (size_t k = 0; k < sizeof precs / sizeof *precs; k++) {
			const struct precision_info *p = precision_find(precs[k]);
			const struct engine *e = engine_for(false, precs[k]);
			struct vram_need need;
			vram_estimate(e, m, p, TASK_INFERENCE, 8192, 4, &need);
			struct device one = device_from_gpu(gpu, 1);
			ck_assert_int_eq(vram_min_gpus(e, &need, gpu),
			                 vram_device_min_count(e, &need, &one));
			ck_assert(vram_usable(e, gpu) == vram_device_usable(e, &one));
			for (int n = 1; n <= 4; n *= 2) {
				struct device d = device_from_gpu(gpu, n);
				ck_assert_int_eq(vram_fits(e, &need, gpu, n),
				                 vram_device_fits(e, &need, &d));
				ck_assert_int_eq(vram_max_batch(e, m, p, gpu, n, 8192, 0),
				                 vram_device_max_batch(e, m, p, &d, 8192, 0));
				struct speed_job j = {.task = TASK_INFERENCE,
				                      .batch = 8,
				                      .input_tokens = 1000,
				                      .output_tokens = 200};
				struct speed_est a, b;
				speed_estimate_job(e, m, p, gpu, n, &j, &a);
				speed_estimate_device(e, m, p, &d, &j, &b);
				ck_assert_msg(a.decode_tps == b.decode_tps &&
				                  a.prefill_tps == b.prefill_tps &&
				                  a.output_tps == b.output_tps,
				              "%s x%d %s", gpu->name, n, precs[k]);
			}
		}
	}
}
END_TEST

Suite *device_suite(void)
{
	Suite *s = suite_create("device");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, a_gpu_becomes_a_device_of_one_memory_tier_with_its_rates_and_power);
	tcase_add_test(tc, stacked_memory_is_told_by_the_part_anywhere_in_the_name);
	tcase_add_test(tc, the_reference_table_records_each_gpus_memory_class_by_the_name_rule);
	tcase_add_test(tc, more_than_one_mac_or_cpu_for_one_model_is_refused_with_the_reason);
	tcase_add_test(tc, a_mac_wires_two_thirds_of_small_memory_and_three_quarters_of_large);
	tcase_add_test(tc, a_cpu_decodes_at_its_bandwidth_or_its_threads_whichever_binds);
	tcase_add_test(tc,
	               the_fit_puts_every_byte_in_the_devices_own_memory_and_none_in_the_host_tier);
	tcase_add_test(tc, the_gpu_functions_answer_what_the_device_functions_do);
	suite_add_tcase(s, tc);
	return s;
}
