/* engines.c — the engine profiles (see engines.h). A profile holds the
 * figures that depend on the serving or training software rather than on
 * the model or the GPU; a new engine is one row of engines[] with the
 * source of each figure, plus a test in tests/check_engines.c. */
#include "engines.h"

#include <strings.h>

/* ---- default: the figures planner has always used ---------------------
 *
 * Memory as vLLM plans it, activations as llama.cpp batches them, decode
 * and prefill efficiency fitted to llama.cpp, MLC-LLM and ExLlama
 * measurements, training efficiency from Megatron-style pre-training.
 *
 * Decode calibration (tests/check_speed.c holds the estimator to each
 * figure). llama.cpp llama-bench tg128, one stream, 6.74 B-parameter
 * Llama-2-7B (codellama-7b), bytes read per token = weights less the
 * embedding table:
 *
 *   GPU (GB/s)            format  measured   eta      source
 *   RTX 4090 (1008)       F16     61.03 t/s  0.80     ggml-org/llama.cpp#4766, 2024-01-10
 *   RTX 4090 (1008)       Q8_0    98.13 t/s  0.68     ggml-org/llama.cpp#4766, 2024-01-10
 *   RTX 3090 Ti (1008)    Q4_0   127.43 t/s  0.47     ggml-org/llama.cpp#4812, 2024-01-07
 *   A100 80GB PCIe (1935) F16     74.77 t/s  0.51     ggml-org/llama.cpp#6017, 2024-03-12
 *
 * and, other engines on the same model at 4-bit, RTX 4090: MLC-LLM 191.0
 * t/s (eta 0.70), ExLlama 152.56 t/s (eta 0.53) (mlc-ai/llm-perf-bench#1,
 * 2023-08-05). One eta of 0.62 puts all six within +-35 %. */

/* Serving engines pre-allocate a fixed fraction of the card and plan the
 * model inside it: vLLM's gpu_memory_utilization defaults to 0.9. */
#define DEFAULT_USABLE_FRACTION 0.90

/* Per-GPU runtime overhead: the CUDA context, cuBLAS workspaces and
 * allocator slack. nvidia-smi shows 781 MB in use right after PyTorch
 * initialises CUDA, before any tensor exists (pytorch/pytorch#34323). */
#define DEFAULT_OVERHEAD_GIB 0.75

/* KV cache elements are fp16/bf16: the default of llama.cpp (cache type
 * f16) and of vLLM (kv_cache_dtype "auto" = the model's activation dtype,
 * bf16 even for fp8 weights). An fp8 KV cache is an opt-in we do not assume,
 * so fp8 jobs are charged 2 bytes too. */
#define DEFAULT_KV_BYTES_PER_ELEMENT 2.0

/* Inference activation peak is one micro-batch of prefill tokens going
 * through a layer; llama.cpp's default physical batch (n_ubatch) is 512. */
#define DEFAULT_PREFILL_CHUNK_TOKENS 512.0

/* Tensor-parallel degrees must divide the attention heads; powers of two
 * up to one 8-GPU node are what every engine supports. */
#define DEFAULT_MAX_TP 8

/* Fraction of peak memory bandwidth a decode step achieves (see the table
 * above: measured 0.47-0.80, geometric mean ~0.61). */
#define DEFAULT_DECODE_ETA 0.62

/* Fraction of dense tensor TFLOPS reached by prefill and by large-batch
 * decode. llama-bench pp512, Llama-2-7B F16: RTX 4090 11048 t/s = 0.88 of
 * 165.2 TFLOPS (llama.cpp#4766, 2024-01-10); A100 80GB PCIe 8668 t/s = 0.37
 * of 312 TFLOPS (llama.cpp#6017, 2024-03-12). 0.5 sits between. */
#define DEFAULT_COMPUTE_ETA 0.50

/* Model FLOPs utilisation of training. Llama 3 405B pre-training on H100
 * reached 38-43 % BF16 MFU (380-430 TFLOPS per GPU; "The Llama 3 Herd of
 * Models", 2024, table 4). MFU is measured on multi-GPU jobs, so it already
 * pays for communication and no tensor-parallel factor is applied on top. */
#define DEFAULT_TRAIN_MFU 0.40

/* Tensor parallelism over n > 1 GPUs splits every matrix, so bandwidth and
 * FLOPS add up, but each layer then waits on two all-reduces (Megatron-LM,
 * Shoeybi et al. 2019) whose latency does not shrink with n. At decode
 * batch sizes those take on the order of a tenth or more of a step over
 * NVLink; we charge 15 %. */
#define DEFAULT_TP_EFFICIENCY 0.85

const struct engine engines[] = {
    {
        .name = "default",
        .summary = "vLLM's memory plan, decode and prefill fitted to llama.cpp, "
                   "MLC-LLM and ExLlama, Megatron-style fine-tuning",
        .usable_fraction = DEFAULT_USABLE_FRACTION,
        .overhead_gib = DEFAULT_OVERHEAD_GIB,
        .kv_bytes_per_element = DEFAULT_KV_BYTES_PER_ELEMENT,
        .prefill_chunk_tokens = DEFAULT_PREFILL_CHUNK_TOKENS,
        .max_tp = DEFAULT_MAX_TP,
        .decode_eta = DEFAULT_DECODE_ETA,
        .compute_eta = DEFAULT_COMPUTE_ETA,
        .train_mfu = DEFAULT_TRAIN_MFU,
        .tp_efficiency = DEFAULT_TP_EFFICIENCY,
    },
};

const size_t n_engines = sizeof engines / sizeof engines[0];

const struct engine *engine_default(void)
{
	return &engines[0];
}

const struct engine *engine_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < n_engines; i++)
		if (strcasecmp(name, engines[i].name) == 0)
			return &engines[i];
	return NULL;
}
