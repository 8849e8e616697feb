/* engines.c — the engine profiles (see engines.h). A profile holds the
 * figures that depend on the serving or training software rather than on
 * the model or the GPU; a new engine is one row of engines[] with the
 * source of each figure, plus a test in tests/check_engines.c.
 *
 * Efficiency constants marked FITTED come from the `fit` half of
 * tests/calibration/measurements.tsv only, never from its holdout rows, by
 * the procedure in tests/calibration/README.md ("Fitting"): for each engine
 * and memory type, the median of measured / estimated over the fit rows of
 * that engine, the estimate taken with the constant at 1. The command
 *   CK_RUN_SUITE=calibration CALIBRATION_RATIOS=1 build/tests/run
 * prints every row's ratio; tests/check_calibration.c holds the error of
 * both halves. */
#include "engines.h"
#include "jobspec.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* ---- Figures several engines share ------------------------------------ */

/* Per-GPU runtime overhead: the CUDA context, cuBLAS workspaces and
 * allocator slack. nvidia-smi shows 781 MB in use right after PyTorch
 * initialises CUDA, before any tensor exists (pytorch/pytorch#34323). */
#define CUDA_CONTEXT_GIB 0.75

/* Serving engines also hold CUDA graphs and sampler buffers: vLLM logs
 * "Graph capturing finished ... took 0.5-1.5 GiB" on 7-70B models
 * (vllm-project/vllm#6689, #10517 logs, 2024) (unconfirmed as a general
 * figure); we charge 1 GiB on top of the context. */
#define SERVING_OVERHEAD_GIB (CUDA_CONTEXT_GIB + 1.0)

/* KV elements: 16-bit by default in every engine (vLLM kv_cache_dtype
 * "auto" = the model dtype; llama.cpp cache type f16; SGLang and
 * TensorRT-LLM follow the model). The fp8 option stores one byte
 * (vLLM --kv-cache-dtype fp8, SGLang --kv-cache-dtype fp8_e5m2/e4m3,
 * TensorRT-LLM KvCacheConfig dtype "fp8"); llama.cpp has no fp8 cache but
 * q8_0 (34 bytes per 32 elements = 1.0625, ggml-common.h block_q8_0). */
#define KV_BF16 2.0
#define KV_FP8 1.0
#define KV_Q8_0 1.0625

/* Tensor-parallel degrees must divide the attention heads; powers of two
 * up to one 8-GPU node are what every engine supports. */
#define MAX_TP_NODE 8

/* Training holds the whole card: PyTorch's caching allocator has no
 * reservation fraction; what is left is allocator fragmentation, which
 * PyTorch's docs put at "a few percent" (expandable_segments note,
 * pytorch.org/docs/stable/notes/cuda.html, 2024) (unconfirmed as a figure):
 * we plan inside 95 %. */
#define TRAIN_USABLE_FRACTION 0.95

/* Prefill micro-batch held live at once: llama.cpp's default n_ubatch is
 * 512 (common/common.h, 2024); vLLM's chunked prefill default
 * max_num_batched_tokens is 2048 for online serving (vLLM docs,
 * "Optimization and Tuning", v0.6, 2024). */
#define UBATCH_LLAMA_CPP 512.0
#define UBATCH_SERVING 2048.0

/* Training MFU, Llama 3 405B pre-training on H100: 38-43 % BF16 MFU ("The
 * Llama 3 Herd of Models", 2024, table 4). Used where the calibration set
 * has no measurement of the stack (hf, unsloth). */
#define MFU_PRETRAIN 0.40

/* ---- Fitted constants (see the header comment and README "Fitting") ---- */

/* llama.cpp decode, one stream, batch 1: measured tok/s over bandwidth /
 * bytes per token. FITTED on the single-GPU llama.cpp decode fit rows
 * (llama-bench tg128 / tg1024 in llama.cpp#4766, #4812, #6017 and the
 * XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, 2024): 0.80 x median
 * 0.816 over 14 GDDR rows, 0.45 x median 1.080 over 7 HBM rows. */
#define LLAMA_CPP_ETA_GDDR 0.65
#define LLAMA_CPP_ETA_HBM 0.49
/* llama.cpp's default split (-sm layer) runs the layers one GPU after the
 * other: a stream gains no bandwidth from more GPUs. Held at 1.0, the
 * physical bound: the multi-GPU fit rows would fit ~1.3, because they are
 * 70B models, which reach a larger share of bandwidth than the 8B rows the
 * eta above comes from (tests/calibration/README.md, "Fitting"). */
#define LLAMA_CPP_SPLIT_EFF 1.0
/* Prompt processing over a layer split is pipelined (llama.cpp#6017,
 * "pipeline parallelism", 2024-03): a logical batch of n_batch = 2048
 * prompt tokens is cut into micro-batches of n_ubatch = 512 that follow one
 * another through the GPUs (llama.cpp common/common.h and
 * tools/server/README.md defaults, "-b 2048", "-ub 512"). speed.c takes the
 * speed-up from the pipeline bubble; no fitted gain. */
#define LLAMA_CPP_BATCH 2048.0
/* llama.cpp prefill: the CUDA backend multiplies prompt batches over 32
 * tokens with cuBLAS in FP16 with FP16 accumulation, after expanding
 * quantised weights to FP16 (ggml-cuda.cu ggml_cuda_op_mul_mat_cublas:
 * to_fp16_cuda, then cublasGemmEx(..., CUBLAS_COMPUTE_16F, ...);
 * MMQ_MAX_BATCH_SIZE 32; ggerganov/llama.cpp commit 005de593, 2024), so it
 * reaches the card's FP16-accumulate rate (twice the FP32-accumulate rate
 * on GeForce cards) and pays the expansion once per micro-batch. These
 * are the builds the calibration rows ran (January-May 2024); later builds
 * multiply quantised weights in int8 MMQ kernels instead (unconfirmed
 * here), which this profile does not model.
 * Share of that rate: FITTED on the single-GPU llama.cpp prefill fit rows
 * (llama-bench pp512 / pp1024 in llama.cpp#4766, #6017 and the
 * XiongjieDai/GPU-Benchmarks-on-LLM-Inference README, 2024) by the README's
 * procedure, iterated to a fixed point because the expansion pass does not
 * scale with it: GDDR 1.0 x median 0.463, then x 0.935, x 0.991 = 0.429
 * (14 rows, last median 0.999); HBM 1.0 x median 0.367 (5 rows, then
 * 1.001). The HBM figure is the A100's; the H100 PCIe fit rows come out at
 * 0.57 of it, the RTX 6000 Ada and L40S at 0.6-0.85 of the GDDR one: cards
 * whose board power (300-350 W) is low for their tensor rate
 * (unconfirmed as the cause; not modelled). */
#define LLAMA_CPP_COMPUTE_GDDR 0.429
#define LLAMA_CPP_COMPUTE_HBM 0.367

/* vLLM decode, one stream: the set's vLLM rows (mlc-ai/llm-perf-bench
 * README, 2023) are all multi-GPU, so eta cannot be told from the TP
 * factor; 0.60 is the old single figure's neighbourhood (unconfirmed), and
 * the multi-GPU rows fit the TP factor below. */
#define VLLM_ETA_GDDR 0.60
#define VLLM_ETA_HBM 0.60
/* Tensor parallelism over PCIe (A10G, RTX 4090: no NVLink): FITTED on the
 * 2 vLLM multi-GPU fit rows (0.60 x median 0.679) (AWQ 4-bit, vLLM 0.2 era; its AWQ kernels
 * were not bandwidth-bound, which this figure absorbs). Over NVLink
 * (HBM parts) the set has no vLLM row: TensorRT-LLM's fitted figure is
 * used (unconfirmed for vLLM). */
#define VLLM_TP_EFF_PCIE 0.41
/* vLLM prefill / batched compute: no prefill row in the set; the
 * TensorRT-LLM serving fit below is used (unconfirmed for vLLM). */
#define VLLM_COMPUTE_ETA 0.50

/* TensorRT-LLM batched serving (docs perf-overview.md v1.0 and
 * performance.md v0.6.1 tables, H100/H200/L40S). FITTED on the serving fit
 * rows: eta 0.70 x median 1.392 (20 single-GPU HBM rows) and 0.70 x 1.078
 * (2 L40S rows); then TP 0.80 x median 0.949 (8 multi-GPU rows). An eta of
 * 0.97 is more than a kernel reaches: it also absorbs KV traffic the v1.0
 * rows leave unstated (NVIDIA's FP8 checkpoints likely run an fp8 cache,
 * unconfirmed). Compute eta: no separate fit (unconfirmed). */
#define TRTLLM_ETA_GDDR 0.75
#define TRTLLM_ETA_HBM 0.97
#define TRTLLM_COMPUTE_ETA 0.50
#define TRTLLM_TP_EFF 0.76
/* Mixture-of-experts models under TensorRT-LLM (v1.0 perf-overview.md,
 * Llama 4 Scout and Maverick, Qwen3-235B-A22B, FP8 on 4-8 H100/H200,
 * attention DP + expert parallel), with the steps reading the experts
 * their batch touches (speed.c): FITTED on that source's 52 expressible
 * MoE rows, all on the fit side, 1.0 x median 0.711, after the eta and TP
 * factor above. It stands for what planner does not model: small grouped
 * GEMMs, the router, the expert-parallel all-to-all and the attention
 * weights every data-parallel rank reads whole. */
#define TRTLLM_MOE_ETA 0.71

/* SGLang: no single-stream row; the two offline ShareGPT rows (SGLang
 * benchmark/benchmark_vllm_060/README.md, 2024-09) show it within 5 % of
 * vLLM 0.6.0 on the same runs, so it takes vLLM's figures
 * (unconfirmed per memory type). */

/* torchtune fine-tuning throughput, tokens/s over 6 (full) or 4 (LoRA)
 * FLOPs per parameter per token at dense BF16 FLOPS. FITTED on the 8
 * torchtune fit rows (README tables, PR #1664 2024-09-24, #2003
 * 2024-11-18): 0.40 x median 1.033; refitted with the GeForce
 * FP32-accumulate rates: 0.41 x median 1.091. */
#define TORCHTUNE_MFU 0.45

/* Fixed cost of one decode step beyond the GPU's reads (scheduling, input
 * preparation, sampling, detokenisation, launches, the synchronisation of
 * tensor-parallel ranks): vLLM's traces show about 4 ms of it per decode
 * step, during which the GPU idles (vllm-project/vllm#6854, SolitaryThinker,
 * 2024-07-26, v0.5.x). Held to the fit source rocm-vllm-dev-docker-v0.10.0
 * (ROCm/vllm docs/dev-docker at 040de12, vLLM v0.10.0, 8 MI300X, batch 1,
 * calibration decode-120..123): Llama 3.1 70B FP8 decodes at 118.8
 * tokens/s, 8.4 ms a step where its reads take 3.6 ms, and 405B at 42.3,
 * 23.6 ms against 21.0: added to the reads, 4 ms gives 131 and 40 (the
 * set's fit decode median 18.4 % -> 14.4 %; taken instead as the shortest
 * a step can be, 250 and 48). Small models feel it most: a 1B in bf16
 * reads its weights in 1.2 ms on an H100. SGLang takes vLLM's figure
 * (unconfirmed). TensorRT-LLM's and llama.cpp's fitted eta hold theirs:
 * 0 for both. */
#define VLLM_STEP_OVERHEAD_S 0.004

/* ---- KV room ----------------------------------------------------------- */

/* vLLM sizes its KV cache from a profiling run (vllm/worker/worker.py
 * determine_num_available_blocks, V0; vllm/v1/worker/gpu_worker.py
 * determine_available_memory, V1): available KV memory =
 * total_gpu_memory x gpu_memory_utilization - model weights - the torch
 * activation peak of a dummy forward of max_num_batched_tokens - non-torch
 * memory (vllm-project/vllm PR #10511, "Memory profiling results" log;
 * PR #19312 made V1 use the same sum). CUDA graphs are captured after the
 * cache is allocated (gpu_worker.py compile_or_warm_up_model) and are not
 * in it. The defaults of `vllm serve` (EngineArgs.get_batch_defaults,
 * vllm/engine/arg_utils.py, v0.9-v0.11): max_num_batched_tokens 8192 and
 * max_num_seqs 1024 on cards of 70 GiB or more that are not A100s ("NOTE
 * (Kuntai)", PR #17885), 2048 and 256 otherwise. The V1 profile also runs
 * the sampler over max_num_seqs rows of fp32 logits (gpu_model_runner.py
 * _dummy_sampler_run); with the top-k/top-p sort's fp32 values and int64
 * indices that is 16 bytes per vocabulary entry live (unconfirmed count of
 * live copies). */
#define VLLM_PROFILE_TOKENS     2048.0
#define VLLM_PROFILE_TOKENS_BIG 8192.0
#define VLLM_SAMPLER_SEQS       256.0
#define VLLM_SAMPLER_SEQS_BIG   1024.0
#define VLLM_BIG_CARD_GIB       70.0
/* Non-torch memory with n > 1 GPUs (NCCL communicators, custom all-reduce
 * buffers). FITTED on the fit source vllm-issue21348: SGLang's
 * Qwen3-235B-A22B-FP8 over 4 H100 at mem_fraction_static 0.93 kept
 * 16.46 GiB per GPU for K and V, 1.8 GiB under 0.93 of the card less the
 * weights and the CUDA context. vLLM's own log (PR #10511, held-out source,
 * not used for the fit) shows the same step: non_torch_memory 1.79 GiB at
 * TP 1, 3.58 GiB at TP 2. */
#define TP_NONTORCH_GIB 1.8

bool engine_big_card(double gib, const char *name)
{
	if (gib < VLLM_BIG_CARD_GIB)
		return false;
	for (const char *c = name; c && *c; c++) /* vLLM's "a100" not in the name */
		if (strncasecmp(c, "a100", 4) == 0)
			return false;
	return true;
}

/* ---- Usable fractions --------------------------------------------------- */

/* vLLM pre-allocates gpu_memory_utilization = 0.9 of the card and plans
 * weights, activations and KV inside it (vllm/engine/arg_utils.py,
 * EngineArgs.gpu_memory_utilization default 0.9). */
#define VLLM_USABLE 0.90
/* SGLang's mem_fraction_static: "fraction of the free GPU memory used for
 * static memory like model weights and KV cache"
 * (docs/backend/server_arguments.md); its default is set per GPU size in
 * server_args.py, 0.85-0.88 on 24-80 GB cards (unconfirmed). */
#define SGLANG_USABLE 0.88
/* TensorRT-LLM gives the KV cache free_gpu_memory_fraction = 0.9 of what
 * is free after weights and activations (KvCacheConfig default,
 * nvidia.github.io/TensorRT-LLM/llm-api/reference/KvCacheConfig.html): the
 * weights may use the whole card, the cache 90 % of the rest. We plan
 * inside 95 % (unconfirmed as one figure). */
#define TRTLLM_USABLE 0.95
/* llama.cpp allocates exactly its weights, KV cache and compute buffers,
 * no fraction (llama.cpp README "memory" / llama_context); documented
 * runs put a 39.6 GiB 70B Q4_K_M on a 44.4 GiB L40S / RTX A6000 (XiongjieDai
 * GPU-Benchmarks-on-LLM-Inference, 2024). We plan inside 97 %. */
#define LLAMA_CPP_USABLE 1.0

/* ---- Training stacks --------------------------------------------------- */

/* Optimizer state per trained parameter. AdamW keeps two moments: fp32
 * (torch.optim.AdamW on fp32 adapters / master weights) 8 bytes;
 * bitsandbytes 8-bit AdamW / PagedAdamW8bit 2 bytes (Dettmers et al. 2022,
 * "8-bit Optimizers via Block-wise Quantization"). */
#define ADAM_FP32_BYTES 8.0
#define ADAM_8BIT_BYTES 2.0

/* Logits the loss holds, bytes per token per vocabulary entry. transformers
 * computes them all and the loss upcasts them (logits.float() in
 * modeling_llama.py, v4.40-4.44): fp32 logits 4 + their gradient 4.
 * torchtune's CEWithChunkedOutputLoss keeps the bf16 logits (2) and upcasts
 * one of 8 chunks at a time (8 / 8). Unsloth's fused cross-entropy never
 * holds the whole logit matrix (unsloth/kernels/cross_entropy_loss.py):
 * we charge nothing beyond the layer being recomputed. */
#define LOGITS_FULL_FP32 8.0
#define LOGITS_CHUNKED 3.0
#define LOGITS_FUSED 0.0

/* Megatron-LM / Megatron-Bridge (NeMo). Full training with bf16 weights
 * and fp32 main gradients keeps 18 bytes per parameter without the
 * distributed optimizer and 6 + 12/d with it, d the data-parallel size
 * (NVIDIA/Megatron-LM docs/user-guide/features/dist_optimizer.md at
 * 859b66a, 2026-04-20): bf16 weights 2 and fp32 gradients 4 on every
 * data-parallel rank (split by tp x pp), the fp32 master copy 4 and Adam's
 * two fp32 moments 8 sharded over the d ranks. */
#define MEGATRON_GRAD_BYTES    4.0
#define MEGATRON_SHARDED_BYTES 12.0
/* The loss holds the logits in fp32: 4sbv bytes (Korthikanti et al. 2022,
 * arXiv:2205.05198 sec. 4.1, "output layer"), split over the
 * tensor-parallel ranks with the vocabulary (vocab-parallel cross
 * entropy). */
#define LOGITS_FP32 4.0
/* Megatron's training MFU of the BF16 rate; its FP8 runs (Transformer
 * Engine, current scaling) reach FP8_TRAIN_SHARE (speed.c) of it on the
 * FP8 tensor rate. Held to the dense single-node FP8 rows of the fit
 * source megatron-bridge-perf-summary-25.11@00b7660 (NVIDIA-NeMo/
 * Megatron-Bridge docs/performance-summary.md, 25.11 container, Llama 3
 * 8B FP8-CS on DGX-H100/B200/GB200/GB300; calibration train_throughput-084,
 * -093, -102, -110): measured / estimated 1.08, 0.91, 0.98, 1.05 at 0.45,
 * median 1.02, so the value was not moved (tests/calibration/README.md,
 * "Megatron"). Every row it rests on trained in FP8: the BF16 rate is this
 * share of the BF16 peak, unconfirmed for Megatron. */
#define MEGATRON_MFU 0.45

const struct engine engines[] = {
    {
        .name = "vllm",
        .summary = "vLLM: paged KV cache in 90 % of the card, tensor parallel",
        .inference = true,
        .usable_fraction = VLLM_USABLE,
        .overhead_gib = SERVING_OVERHEAD_GIB,
        .kv_sizing = KV_SIZING_PROFILED,
        .kv_profile_tokens = {VLLM_PROFILE_TOKENS, VLLM_PROFILE_TOKENS_BIG},
        .kv_sampler_seqs = {VLLM_SAMPLER_SEQS, VLLM_SAMPLER_SEQS_BIG},
        .kv_nontorch_gib = CUDA_CONTEXT_GIB,
        .kv_tp_gib = TP_NONTORCH_GIB,
        .kv_bytes_per_element = KV_BF16,
        .kv_fp8_bytes = KV_FP8,
        .prefill_chunk_tokens = UBATCH_SERVING,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_TENSOR_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {VLLM_TP_EFF_PCIE, TRTLLM_TP_EFF},
        /* max_num_seqs default 256 (vLLM EngineArgs, v0.6-v0.10). */
        .max_batch = 256,
        /* Automatic prefix caching, on by default in the V1 engine
         * (vllm/engine/arg_utils.py enable_prefix_caching, v0.8+). */
        .prefix_caching = true,
        .step_overhead_s = VLLM_STEP_OVERHEAD_S,
        /* No MoE row of vLLM in the set: TensorRT-LLM's (unconfirmed). */
        .moe_eta = TRTLLM_MOE_ETA,
        /* `vllm serve` / vllm.entrypoints: --tensor-parallel-size, short
         * form -tp (vllm/engine/arg_utils.py). */
        .launcher = "vllm",
        .tp_option = "--tensor-parallel-size",
        .tp_given = {"--tensor-parallel-size", " -tp "},
    },
    {
        .name = "sglang",
        .summary = "SGLang: radix KV cache in ~88 % of the card, tensor parallel",
        .inference = true,
        .usable_fraction = SGLANG_USABLE,
        .overhead_gib = SERVING_OVERHEAD_GIB,
        /* SGLang's KV pool: the free memory after loading the weights less
         * (1 - mem_fraction_static) of the card (python/sglang/srt/
         * model_executor/model_runner.py profile_max_num_token); the CUDA
         * context is what was in use before the load. */
        .kv_sizing = KV_SIZING_STATIC,
        .kv_nontorch_gib = CUDA_CONTEXT_GIB,
        .kv_tp_gib = TP_NONTORCH_GIB,
        .kv_bytes_per_element = KV_BF16,
        .kv_fp8_bytes = KV_FP8,
        .prefill_chunk_tokens = UBATCH_SERVING,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_TENSOR_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {VLLM_TP_EFF_PCIE, TRTLLM_TP_EFF},
        /* max_running_requests is derived from the KV pool; we cap as
         * vLLM (unconfirmed). */
        .max_batch = 256,
        /* RadixAttention's prefix cache, on unless --disable-radix-cache
         * (python/sglang/srt/server_args.py). */
        .prefix_caching = true,
        .step_overhead_s = VLLM_STEP_OVERHEAD_S,
        .moe_eta = TRTLLM_MOE_ETA, /* as vLLM (unconfirmed) */
        /* python -m sglang.launch_server: --tp-size (python/sglang/srt/
         * server_args.py; the README's --tp is its abbreviation, so any
         * "--tp" sets it). */
        .launcher = "sglang",
        .tp_option = "--tp-size",
        .tp_given = {"--tp"},
    },
    {
        .name = "tensorrt-llm",
        .summary = "TensorRT-LLM: compiled kernels, fp8 on Hopper/Ada, tensor parallel",
        .inference = true,
        .usable_fraction = TRTLLM_USABLE,
        .overhead_gib = SERVING_OVERHEAD_GIB,
        .kv_bytes_per_element = KV_BF16,
        .kv_fp8_bytes = KV_FP8,
        .prefill_chunk_tokens = UBATCH_SERVING,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_TENSOR_PARALLEL,
        .decode_eta = {TRTLLM_ETA_GDDR, TRTLLM_ETA_HBM},
        .compute_eta = {TRTLLM_COMPUTE_ETA, TRTLLM_COMPUTE_ETA},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {TRTLLM_TP_EFF, TRTLLM_TP_EFF},
        /* trtllm-bench sizes max_batch_size up to 2048 for short requests
         * (perf-overview.md v1.0 "max_batch_size" column) (unconfirmed as
         * a default). */
        .max_batch = 2048,
        .moe_eta = TRTLLM_MOE_ETA,
    },
    {
        .name = "llama.cpp",
        .summary = "llama.cpp: GGUF, allocates what it needs, layer split over GPUs",
        .inference = true,
        .usable_fraction = LLAMA_CPP_USABLE,
        .overhead_gib = CUDA_CONTEXT_GIB,
        .kv_bytes_per_element = KV_BF16,
        .kv_fp8_bytes = KV_Q8_0,
        .prefill_chunk_tokens = UBATCH_LLAMA_CPP,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_LAYER_SPLIT,
        .decode_eta = {LLAMA_CPP_ETA_GDDR, LLAMA_CPP_ETA_HBM},
        .compute_eta = {LLAMA_CPP_COMPUTE_GDDR, LLAMA_CPP_COMPUTE_HBM},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {LLAMA_CPP_SPLIT_EFF, LLAMA_CPP_SPLIT_EFF},
        .pipeline_batch_tokens = LLAMA_CPP_BATCH,
        .fp16_accumulate = true,
        .dequant_pass = true,
        /* llama-server -np default 1 slot (tools/server/README.md);
         * --parallel raises it. We let batches up to vLLM's cap. */
        .max_batch = 256,
    },
    {
        .name = "hf",
        .summary = "transformers + PEFT + bitsandbytes: full fp32 logits, AdamW",
        .training = true,
        .usable_fraction = TRAIN_USABLE_FRACTION,
        .overhead_gib = CUDA_CONTEXT_GIB,
        .kv_bytes_per_element = KV_BF16,
        .prefill_chunk_tokens = UBATCH_LLAMA_CPP,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_DATA_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {1.0, 1.0},
        .max_batch = 1,
        /* LlamaForCausalLM computes logits for every position and the
         * loss upcasts them: logits.float() (transformers modeling_llama.py,
         * v4.40-4.44, 2024). */
        .logit_bytes = LOGITS_FULL_FP32,
        /* attn_implementation defaults to "sdpa" on torch >= 2.1.1
         * (huggingface/transformers PR #27940, v4.36, 2023-12), whose
         * flash and memory-efficient kernels keep no score matrix. */
        .flash_attention = true,
        /* prepare_model_for_kbit_training turns on gradient checkpointing
         * (peft/utils/other.py, use_gradient_checkpointing=True). */
        .grad_checkpointing = true,
        /* TrainingArguments.optim default "adamw_torch": fp32 moments. */
        .optimizer_bytes = ADAM_FP32_BYTES,
        /* Trainer with bf16 mixed precision: bf16 gradients 2 + fp32
         * master weights 4 + fp32 Adam moments 8 (ZeRO paper,
         * Rajbhandari et al. 2020, "16 bytes per parameter" less the
         * 2 bytes of bf16 weights). */
        .full_ft_bytes = 14.0,
        .optimizer = "adamw",
    },
    {
        .name = "unsloth",
        .summary = "Unsloth: fused chunked loss, offloaded checkpoints, 8-bit AdamW",
        .training = true,
        .usable_fraction = TRAIN_USABLE_FRACTION,
        .overhead_gib = CUDA_CONTEXT_GIB,
        .kv_bytes_per_element = KV_BF16,
        .prefill_chunk_tokens = UBATCH_LLAMA_CPP,
        .max_tp = 1, /* the open-source release trains on one GPU */
        .multi_gpu = MULTI_DATA_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = MFU_PRETRAIN,
        .tp_efficiency = {1.0, 1.0},
        .max_batch = 1,
        /* Fused cross-entropy that never materialises all logits, and
         * use_gradient_checkpointing="unsloth" which offloads the saved
         * activations to system RAM (unslothai/unsloth README, 2024-2025). */
        .logit_bytes = LOGITS_FUSED,
        /* Unsloth's models call flash-attn or xformers kernels
         * (unslothai/unsloth README, "Installation": flash-attn,
         * xformers), which keep no score matrix. */
        .flash_attention = true,
        .grad_checkpointing = true,
        .offload_checkpoints = true,
        /* The README notebooks use optim="adamw_8bit". */
        .optimizer_bytes = ADAM_8BIT_BYTES,
        /* bf16 gradients 2 + 8-bit moments 2 (full_finetuning=True with
         * a bf16 model; unsloth README 2025) (unconfirmed). */
        .full_ft_bytes = 4.0,
        .optimizer = "adamw-8bit",
    },
    {
        .name = "torchtune",
        .summary = "torchtune: chunked cross-entropy, checkpointing, bf16 weights",
        .training = true,
        .usable_fraction = TRAIN_USABLE_FRACTION,
        .overhead_gib = CUDA_CONTEXT_GIB,
        .kv_bytes_per_element = KV_BF16,
        .prefill_chunk_tokens = UBATCH_LLAMA_CPP,
        .max_tp = MAX_TP_NODE,
        .multi_gpu = MULTI_DATA_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = TORCHTUNE_MFU,
        .tp_efficiency = {1.0, 1.0},
        .max_batch = 1,
        /* CEWithChunkedOutputLoss, num_output_chunks = 8
         * (torchtune/modules/loss/ce_chunked_output_loss.py), and
         * enable_activation_checkpointing: True in the llama3_1 recipes. */
        .logit_bytes = LOGITS_CHUNKED,
        /* MultiHeadAttention calls nn.functional.scaled_dot_product_attention
         * (torchtune/modules/attention_utils.py, _sdpa_or_flex_attention). */
        .flash_attention = true,
        .grad_checkpointing = true,
        /* LoRA recipes: torch.optim.AdamW on the adapters (fp32 state
         * in the lora_finetune recipes' configs). */
        .optimizer_bytes = ADAM_FP32_BYTES,
        /* Full single-device recipes train in pure bf16 with
         * bitsandbytes PagedAdamW8bit and optimizer_in_bwd: True
         * (recipes/configs/llama3_1/8B_full_single_device.yaml), so
         * gradients are freed layer by layer and the 2 bytes of 8-bit
         * moments are paged (CUDA unified memory). The README measures
         * 18.9 GiB peak on an RTX 4090 for 14.96 GiB of weights: we
         * charge the 8-bit moments only. */
        .full_ft_bytes = ADAM_8BIT_BYTES,
        .optimizer = "adamw",
    },
    {
        .name = "megatron",
        .summary = "Megatron-LM / NeMo: distributed optimizer, selective recompute, TE fp8",
        .training = true,
        .usable_fraction = TRAIN_USABLE_FRACTION,
        .overhead_gib = CUDA_CONTEXT_GIB,
        .kv_bytes_per_element = KV_BF16,
        .prefill_chunk_tokens = UBATCH_LLAMA_CPP,
        .max_tp = MAX_TP_NODE,
        /* data parallel with the distributed optimizer inside a node,
         * tensor and pipeline parallel given with --parallel or past one
         * node (parallel.c) */
        .multi_gpu = MULTI_DATA_PARALLEL,
        .decode_eta = {VLLM_ETA_GDDR, VLLM_ETA_HBM},
        .compute_eta = {VLLM_COMPUTE_ETA, VLLM_COMPUTE_ETA},
        .train_mfu = MEGATRON_MFU,
        .tp_efficiency = {1.0, 1.0},
        .max_batch = 1,
        .logit_bytes = LOGITS_FP32,
        /* Transformer Engine's fused attention (flash / cuDNN) keeps no
         * score matrix; recompute_granularity "selective" recomputes only
         * the attention core, the layer's other 34 sbh bytes stay
         * (Korthikanti et al. 2022 sec. 5; Megatron-LM
         * megatron/core/transformer/transformer_config.py,
         * recompute_granularity: None | "full" | "selective", at
         * d98e8a6): with flash attention that holds what no recompute
         * holds. */
        .flash_attention = true,
        .selective_recompute = true,
        .selective_default = true,
        /* LoRA adapters: fp32 Adam moments (Megatron's optimizer is
         * always fp32 Adam, dist_optimizer.md). */
        .optimizer_bytes = ADAM_FP32_BYTES,
        .full_ft_bytes = MEGATRON_GRAD_BYTES + MEGATRON_SHARDED_BYTES,
        .dist_optimizer_bytes = MEGATRON_SHARDED_BYTES,
        .optimizer = "adamw",
        /* NeMo's LoRA recipes run the frozen base through Transformer
         * Engine in FP8 (Megatron-Bridge performance summary, LoRA
         * tables, "Precision FP8") */
        .fp8_frozen = true,
    },
};

const size_t n_engines = sizeof engines / sizeof engines[0];

void engine_set_checkpointing(struct engine *e, int ckpt)
{
	if (ckpt == CKPT_ON)
		return;
	e->grad_checkpointing = e->offload_checkpoints = false;
	e->selective_recompute = ckpt == CKPT_SELECTIVE;
}

bool engine_gguf_precision(const char *precision)
{
	/* GGUF quant names: q2_k ... q8_0, iq*, tq1_0 and tq2_0; never
	 * fp/bf/int/awq/gptq/nf4, nor nvfp4/mxfp4, which name the
	 * safetensors checkpoints the serving engines load (gpt-oss). */
	if (!precision)
		return false;
	if ((precision[0] == 'q' || precision[0] == 'Q') && precision[1] >= '1' &&
	    precision[1] <= '8')
		return true;
	/* "iq" or "tq" in any case, by hand: the memory estimate asks this of
	 * every configuration (over a million times for 10,000 jobs). */
	int c0 = tolower((unsigned char)precision[0]);
	return (c0 == 'i' || c0 == 't') && tolower((unsigned char)precision[1]) == 'q';
}

const struct engine *engine_for(bool training, const char *precision)
{
	if (training)
		return engine_find("hf");
	if (engine_gguf_precision(precision))
		return engine_find("llama.cpp");
	return engine_find("vllm");
}

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

double engine_kv_bytes(const struct engine *e, const char *dtype)
{
	if (!dtype || !strcasecmp(dtype, "auto") || !strcasecmp(dtype, "bf16") ||
	    !strcasecmp(dtype, "fp16") || !strcasecmp(dtype, "f16"))
		return e->kv_bytes_per_element;
	if (!strcasecmp(dtype, "fp8") || !strcasecmp(dtype, "q8_0"))
		return e->kv_fp8_bytes;
	return 0.0;
}

/* Names of the rows keep() takes, joined by sep, the last two by last;
 * keep NULL takes every row. */
static const char *join_names(bool (*keep)(const struct engine *, bool), bool arg, const char *sep,
                              const char *last, char *buf, size_t len)
{
	size_t at = 0, total = 0, k = 0;
	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < n_engines; i++)
		total += !keep || keep(&engines[i], arg);
	for (size_t i = 0; i < n_engines && at < len; i++) {
		if (keep && !keep(&engines[i], arg))
			continue;
		const char *between = k + 1 == total ? last : sep;
		int w = snprintf(buf + at, len - at, "%s%s", k ? between : "", engines[i].name);
		if (w < 0)
			break;
		at += (size_t)w;
		k++;
	}
	return buf;
}

const char *engine_names(char *buf, size_t len)
{
	return join_names(NULL, false, ", ", ", ", buf, len);
}

/* Whether e runs fine-tuning (training) or inference (!training). */
static bool runs(const struct engine *e, bool training)
{
	return training ? e->training : e->inference;
}

const char *engine_names_for(bool training, const char *sep, const char *last, char *buf,
                             size_t len)
{
	return join_names(runs, training, sep, last, buf, len);
}

const char *engine_tp_option(const struct engine *e, const char *command)
{
	if (!e || !e->launcher || !e->tp_option || !command || !strstr(command, e->launcher))
		return NULL;
	for (size_t i = 0; i < sizeof e->tp_given / sizeof e->tp_given[0]; i++)
		if (e->tp_given[i] && strstr(command, e->tp_given[i]))
			return NULL;
	return e->tp_option;
}
