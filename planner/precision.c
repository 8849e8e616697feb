/* precision.c — the precisions a job can name and their real bits per
 * weight, scales and mixed tensors included (docs/estimation.md,
 * "Memory"), so that params x bpw / 8 lands on the published file size.
 * The memory (vram.c) and the speed model (speed.c) read them. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "vram.h"

/* ---- llama.cpp tensor types ------------------------------------------------
 *
 * Every quantised type of ggml's `enum ggml_type`, the tensor types a GGUF
 * file holds (ggml-org/llama.cpp ggml/include/ggml.h at commit 004eaba8:
 * q4_0 ... iq1_m, tq1_0, tq2_0, mxfp4; nvfp4 from ggml-common.h below), with
 * the weights and bytes of one block from its struct in
 * ggml/src/ggml-common.h at commit 01243c58 (read 2026-12-02), the figures
 * ggml.c's type_traits carry as blck_size and type_size. A fp16 scale is 2
 * bytes, QK_K 256. */
struct gguf_type {
	const char *name; /* ggml_type_name, lower case */
	int weights;      /* blck_size: values per block */
	int bytes;        /* type_size: bytes per block */
};

static const struct gguf_type gguf_types[] = {
    {"q4_0", 32, 18},     /* d + qs[16] */
    {"q4_1", 32, 20},     /* d, m + qs[16] */
    {"q5_0", 32, 22},     /* d + qh[4] + qs[16] */
    {"q5_1", 32, 24},     /* d, m + qh[4] + qs[16] */
    {"q8_0", 32, 34},     /* d + qs[32] */
    {"q8_1", 32, 36},     /* d, s + qs[32] */
    {"q2_k", 256, 84},    /* scales[16] + qs[64] + d, dmin: 2.625 bpw */
    {"q3_k", 256, 110},   /* hmask[32] + qs[64] + scales[12] + d: 3.4375 */
    {"q4_k", 256, 144},   /* d, dmin + scales[12] + qs[128]: 4.5 */
    {"q5_k", 256, 176},   /* d, dmin + scales[12] + qh[32] + qs[128]: 5.5 */
    {"q6_k", 256, 210},   /* ql[128] + qh[64] + scales[16] + d: 6.5625 */
    {"q8_k", 256, 292},   /* float d + qs[256] + bsums[16] x 2 */
    {"iq2_xxs", 256, 66}, /* d + qs[32] x 2: 2.0625 */
    {"iq2_xs", 256, 74},  /* d + qs[32] x 2 + scales[8]: 2.3125 */
    {"iq2_s", 256, 82},   /* d + qs[64] + qh[8] + scales[8]: 2.5625 */
    {"iq3_xxs", 256, 98}, /* d + qs[96]: 3.0625 */
    {"iq3_s", 256, 110},  /* d + qs[64] + qh[8] + signs[32] + scales[4]: 3.4375 */
    {"iq1_s", 256, 50},   /* d + qs[32] + qh[8] x 2: 1.5625 */
    {"iq1_m", 256, 56},   /* qs[32] + qh[16] + scales[8]: 1.75 */
    {"iq4_nl", 32, 18},   /* d + qs[16] */
    {"iq4_xs", 256, 136}, /* d + scales_h + scales_l[4] + qs[128]: 4.25 */
    {"tq1_0", 256, 54},   /* qs[48] + qh[4] + d: 1.6875 */
    {"tq2_0", 256, 66},   /* qs[64] + d: 2.0625 */
    {"mxfp4", 32, 17},    /* E8M0 e + qs[16]: 4.25 */
    {"nvfp4", 64, 36},    /* UE4M3 d[4] (one per 16) + qs[32]: 4.5 */
};
#define N_GGUF_TYPES (sizeof gguf_types / sizeof gguf_types[0])

double gguf_type_bpw(const char *name)
{
	for (size_t i = 0; name && i < N_GGUF_TYPES; i++)
		if (strcasecmp(name, gguf_types[i].name) == 0)
			return 8.0 * gguf_types[i].bytes / gguf_types[i].weights;
	return 0.0;
}

/* Bits per weight of a block of `bytes` holding `weights` values. */
#define BLOCK_BPW(bytes, weights) (8.0 * (bytes) / (weights))

/* ---- llama-quantize's file types --------------------------------------------
 *
 * A GGUF file is named by the recipe llama-quantize made it with, and most
 * recipes mix tensor types (llama_tensor_get_type in src/llama-quant.cpp:
 * output.weight at q6_k, attn_v and ffn_down a type or two higher in the
 * _M and _L mixes, the token embedding of IQ mixes at a k-quant). A mix
 * takes the model-level bits per weight llama.cpp measured on Llama-3.1-8B
 * (tools/quantize/README.md at commit 311c2c9, bits/weight column; the
 * 8.03 B parameters and its 128256-entry vocabulary): IQ1_S 2.0042, IQ1_M
 * 2.1460, IQ2_XXS 2.3824, IQ2_XS 2.5882, IQ2_S 2.7403, IQ2_M 2.9294,
 * IQ3_XXS 3.2548, IQ3_XS 3.4977, IQ3_S 3.6606, IQ3_M 3.7628, IQ4_XS 4.4597,
 * IQ4_NL 4.6818, Q2_K_S 2.9697, Q2_K 3.1593, Q3_K_S 3.6429, Q3_K_L 4.2979,
 * Q4_K_S 4.6672, Q4_K_M 4.8944 (4.58 GiB), Q5_K_S 5.5704, Q5_K_M 5.7036,
 * Q6_K 6.5633, Q8_0 8.5008. Q3_K_M 3.9960 is the same README's earlier
 * table. The older table for Llama-2-7B gives slightly lower mixes (Q4_K_M
 * 4.84, Q3_K_M 3.91, Q2_K 3.35) because its vocabulary, kept at higher
 * precision, is 4x smaller; a 70B's mix lies nearer its main tensor type.
 * Files of one tensor type throughout (the legacy quants, Q6_K, Q8_0, the
 * ternary TQ types) take the block's bits, which the measured Q6_K and Q8_0
 * match within 0.01 %. llama-quantize reads Q3_K, Q4_K and Q5_K as its
 * aliases of the _M mixes (tools/quantize/quantize.cpp, QUANT_OPTIONS). */
#define BPW_IQ1_S   2.0042
#define BPW_IQ1_M   2.1460
#define BPW_IQ2_XXS 2.3824
#define BPW_IQ2_XS  2.5882
#define BPW_IQ2_S   2.7403
#define BPW_IQ2_M   2.9294
#define BPW_IQ3_XXS 3.2548
#define BPW_IQ3_XS  3.4977
#define BPW_IQ3_S   3.6606
#define BPW_IQ3_M   3.7628
#define BPW_IQ4_XS  4.4597
#define BPW_IQ4_NL  4.6818
#define BPW_Q2_K_S  2.9697
#define BPW_Q2_K    3.16
#define BPW_Q3_K_S  3.6429
#define BPW_Q3_K_M  4.00
#define BPW_Q3_K_L  4.2979
#define BPW_Q4_K_S  4.6672
#define BPW_Q4_K_M  4.89
#define BPW_Q5_K_S  5.5704
#define BPW_Q5_K_M  5.70

/* AWQ / GPTQ "4-bit" (also `int4`): 4-bit weights in groups of 128 with a
 * 16-bit scale and a 16-bit zero point per group: 4 + 32/128 = 4.25 bpw.
 * (AutoAWQ/GPTQ default q_group_size 128; checkpoints that pack zeros as
 * int4 come out a little lower, fp16 embeddings a little higher.) GPTQ-Int8
 * (Qwen's GPTQ-Int8 checkpoints, bits: 8, group_size: 128) the same with
 * 8-bit codes: 8.25; vLLM runs it weight-only (Marlin W8A16), so it
 * multiplies in 16 bits. */
#define BPW_INT4_G128 4.25
#define BPW_INT8_G128 8.25

/* bitsandbytes NF4 (QLoRA, Dettmers et al. 2023): 4-bit codes in blocks of
 * 64 with one fp32 absmax per block: 4 + 32/64 = 4.5 bpw. Double
 * quantisation (vram.c, BPW_NF4_DQ) brings it to 4.127. */
#define BPW_NF4 4.5

/* FP4: E2M1 codes with one scale per block. MXFP4 (OCP Microscaling spec
 * v1.0: 32 values share one E8M0 scale; ggml's block_mxfp4, 17 bytes per
 * 32) 4.25 bpw; NVFP4 (16 values share one FP8 E4M3 scale, plus one FP32
 * scale per tensor; ggml's block_nvfp4, 36 bytes per 64) 4.5. */
#define BPW_MXFP4 BLOCK_BPW(17, 32)
#define BPW_NVFP4 BLOCK_BPW(36, 64)

static const struct precision_info precisions[] = {
    {.name = "fp32", .bits_per_weight = 32.0},
    {.name = "bf16", .bits_per_weight = 16.0},
    {.name = "fp16", .bits_per_weight = 16.0},
    /* Per-tensor / per-channel scales add well under 0.1 bit. */
    {.name = "fp8", .bits_per_weight = 8.0, .fp8_compute = true},
    {.name = "int8", .bits_per_weight = 8.0, .int8_compute = true},
    {.name = "q8_0", .bits_per_weight = BLOCK_BPW(34, 32)},
    {.name = "q6_k", .bits_per_weight = BLOCK_BPW(210, 256)},
    {.name = "q5_k_m", .bits_per_weight = BPW_Q5_K_M},
    {.name = "q5_k_s", .bits_per_weight = BPW_Q5_K_S},
    {.name = "q5_1", .bits_per_weight = BLOCK_BPW(24, 32)},
    {.name = "q5_0", .bits_per_weight = BLOCK_BPW(22, 32)},
    {.name = "q4_k_m", .bits_per_weight = BPW_Q4_K_M},
    {.name = "q4_k_s", .bits_per_weight = BPW_Q4_K_S},
    {.name = "q4_1", .bits_per_weight = BLOCK_BPW(20, 32)},
    {.name = "q4_0", .bits_per_weight = BLOCK_BPW(18, 32)},
    {.name = "q3_k_l", .bits_per_weight = BPW_Q3_K_L},
    {.name = "q3_k_m", .bits_per_weight = BPW_Q3_K_M},
    {.name = "q3_k_s", .bits_per_weight = BPW_Q3_K_S},
    {.name = "q2_k", .bits_per_weight = BPW_Q2_K},
    {.name = "q2_k_s", .bits_per_weight = BPW_Q2_K_S},
    {.name = "q8_1", .bits_per_weight = BLOCK_BPW(36, 32)},
    {.name = "q8_k", .bits_per_weight = BLOCK_BPW(292, 256)},
    {.name = "iq4_nl", .bits_per_weight = BPW_IQ4_NL},
    {.name = "iq4_xs", .bits_per_weight = BPW_IQ4_XS},
    {.name = "iq3_m", .bits_per_weight = BPW_IQ3_M},
    {.name = "iq3_s", .bits_per_weight = BPW_IQ3_S},
    {.name = "iq3_xs", .bits_per_weight = BPW_IQ3_XS},
    {.name = "iq3_xxs", .bits_per_weight = BPW_IQ3_XXS},
    {.name = "iq2_m", .bits_per_weight = BPW_IQ2_M},
    {.name = "iq2_s", .bits_per_weight = BPW_IQ2_S},
    {.name = "iq2_xs", .bits_per_weight = BPW_IQ2_XS},
    {.name = "iq2_xxs", .bits_per_weight = BPW_IQ2_XXS},
    {.name = "iq1_m", .bits_per_weight = BPW_IQ1_M},
    {.name = "iq1_s", .bits_per_weight = BPW_IQ1_S},
    {.name = "tq2_0", .bits_per_weight = BLOCK_BPW(66, 256)},
    {.name = "tq1_0", .bits_per_weight = BLOCK_BPW(54, 256)},
    {.name = "int4", .bits_per_weight = BPW_INT4_G128},
    {.name = "awq", .bits_per_weight = BPW_INT4_G128},
    {.name = "gptq", .bits_per_weight = BPW_INT4_G128},
    {.name = "gptq-int8", .bits_per_weight = BPW_INT8_G128},
    {.name = "nf4", .bits_per_weight = BPW_NF4},
    {.name = "nvfp4", .bits_per_weight = BPW_NVFP4, .fp4_compute = true},
    /* gpt-oss's format: only the MoE experts are MXFP4. */
    {.name = "mxfp4", .bits_per_weight = BPW_MXFP4, .fp4_compute = true, .experts_only = true},
};

#define N_PRECISIONS (sizeof precisions / sizeof precisions[0])

/* Other spellings people write, mapped to the canonical entry. */
static const struct {
	const char *alias;
	const char *name;
} precision_aliases[] = {
    {"bnb4", "nf4"},
    {"f32", "fp32"},
    {"f16", "fp16"},
    {"float16", "fp16"},
    {"bfloat16", "bf16"},
    {"float32", "fp32"},
    {"q3_k", "q3_k_m"},
    {"q4_k", "q4_k_m"},
    {"q5_k", "q5_k_m"},
    {"gptq-int4", "gptq"},
    {"gptq_int8", "gptq-int8"},
    {"fp4", "nvfp4"},
};
#define N_ALIASES (sizeof precision_aliases / sizeof precision_aliases[0])

/* Canonical names, and bnb4 (the bitsandbytes name): what help text, the
 * list in "unknown precision" and "did you mean" offer. */
static const char *const precision_name_list[N_PRECISIONS + 2] = {
    "fp32",    "bf16",   "fp16",   "fp8",       "int8",    "q8_0",   "q6_k",   "q5_k_m", "q5_k_s",
    "q5_1",    "q5_0",   "q4_k_m", "q4_k_s",    "q4_1",    "q4_0",   "q3_k_l", "q3_k_m", "q3_k_s",
    "q2_k",    "q2_k_s", "q8_1",   "q8_k",      "iq4_nl",  "iq4_xs", "iq3_m",  "iq3_s",  "iq3_xs",
    "iq3_xxs", "iq2_m",  "iq2_s",  "iq2_xs",    "iq2_xxs", "iq1_m",  "iq1_s",  "tq2_0",  "tq1_0",
    "int4",    "awq",    "gptq",   "gptq-int8", "nf4",     "nvfp4",  "mxfp4",  "bnb4",   NULL,
};

const struct precision_info *precision_find(const char *name)
{
	if (!name)
		return NULL;
	for (size_t i = 0; i < N_ALIASES; i++)
		if (strcasecmp(name, precision_aliases[i].alias) == 0)
			name = precision_aliases[i].name;
	for (size_t i = 0; i < N_PRECISIONS; i++)
		if (strcasecmp(name, precisions[i].name) == 0)
			return &precisions[i];
	return NULL;
}

const char *precision_suggest(const char *name)
{
	if (!name)
		return NULL;
	return nearest_name(name, precision_name_list, N_PRECISIONS + 1);
}

const char *const *precision_names(void)
{
	return precision_name_list;
}

const char *precision_list(char *buf, size_t len)
{
	size_t at = 0;
	if (len == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < N_PRECISIONS && at < len; i++) {
		int w = snprintf(buf + at, len - at, "%s%s", i ? " " : "", precisions[i].name);
		if (w < 0)
			break;
		at += (size_t)w;
	}
	return buf;
}
