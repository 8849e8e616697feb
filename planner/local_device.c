/* local_device.c — unified-memory chips and CPUs (see local_device.h). */
#include "local_device.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* macOS lets the GPU wire about 2/3 of unified memory up to 36 GiB and
 * 3/4 above it by default (Metal's recommendedMaxWorkingSetSize): 10.67 GB
 * of 16 GB on an M4 (exo-explore/exo#1672, 2026-03-06), 75 % of RAM
 * (gpustack/gpustack#1375, 2025-02-28). `sudo sysctl iogpu.wired_limit_mb`
 * raises it (Andyyyy64/whichllm#152, AlexsJones/llmfit#570, 2026); a
 * 128 GiB machine of 2026 reports 107.52 GiB (antirez/ds4#893), so newer
 * macOS versions give more: the rule is the conservative one. */
#define APPLE_SMALL_SHARE   (2.0 / 3.0)
#define APPLE_LARGE_SHARE   0.75
#define APPLE_SMALL_MAX_GIB 36.0

/* Share of the memory bandwidth llama.cpp's GPU backends reach on a
 * unified-memory chip in decode. FITTED on the fit rows of
 * tests/calibration/local_devices.tsv (ggml-org/llama.cpp#4167 M1 0.77;
 * brand-o/normiebench M4 0.80, M1 Max 0.53): the median 0.77. */
#define UNIFIED_DECODE_ETA 0.77
/* Share of the GPU's FP16 rate llama.cpp's Metal kernels reach in
 * prefill (pp512). FITTED on the same rows (#4167 M1 0.60; llama.cpp#3084
 * M2 Ultra F16 0.62, Q8_0 0.56, Q4_0 0.57; normiebench M4 0.94, M1 Max
 * 0.72): the median 0.61. */
#define UNIFIED_PREFILL_ETA 0.61

/* CPU decode: the share of the memory bandwidth one process reaches once
 * enough threads stream it. FITTED on the fit row that is bandwidth-bound
 * (ikawrakow/ik_llama.cpp#121, Ryzen 9 7950X, tg128 at 4 threads: 0.69 of
 * 83.2 GB/s). */
#define CPU_DECODE_BW_ETA 0.69
/* CPU decode with few threads is bound by what they multiply: a share of
 * the threads' FP32 SIMD peak (cores x max clock x FLOPs per cycle, the
 * part's fp16_tflops), by extension. FITTED: AVX2 0.248 (geerlingguy/
 * ai-benchmarks#53, i5-4278U, 2 threads); AVX-512 0.37 (ik_llama.cpp#121,
 * 7950X, 2 threads). AMX and NEON take the AVX-512 figure (no fit row). */
#define CPU_DECODE_COMPUTE_AVX2   0.248
#define CPU_DECODE_COMPUTE_AVX512 0.37
/* CPU prefill (pp512): the share of the same peak llama.cpp's quantised
 * GEMM kernels reach. FITTED: AVX2 0.57 (ai-benchmarks#53), AVX-512 0.81
 * (ik_llama.cpp#121, 7950X, 16 threads). */
#define CPU_PREFILL_AVX2   0.57
#define CPU_PREFILL_AVX512 0.81

/* A cloud VM never spans more sockets than this (AWS's largest c7i/c7a,
 * 192 vCPUs, are two sockets of 96: tests/fixtures/real/aws). */
#define RENTED_MAX_SOCKETS 2.0

/* FLOPs per parameter per token of a forward pass. */
#define FWD_FLOPS 2.0

double local_device_gpu_share(const struct device *d)
{
	if (d->kind != DEVICE_UNIFIED)
		return 1.0;
	if (d->gpu && d->gpu->gpu_share > 0)
		return d->gpu->gpu_share;
	return d->tier[DEVICE_TIER_LOCAL].gib <= APPLE_SMALL_MAX_GIB ? APPLE_SMALL_SHARE
	                                                             : APPLE_LARGE_SHARE;
}

double local_device_usable(const struct engine *e, const struct device *d)
{
	double gib = d->tier[DEVICE_TIER_LOCAL].gib;
	if (d->kind == DEVICE_UNIFIED)
		return gib * local_device_gpu_share(d);
	return gib * e->usable_fraction;
}

static bool wide_simd(const struct device *d)
{
	return d->isa && strcmp(d->isa, "avx2") != 0;
}

/* The FP32 SIMD peak of the threads the CPU runs, FLOP/s. */
static double cpu_peak(const struct device *d)
{
	int cores = d->gpu && d->gpu->threads > 0 ? d->gpu->threads : 0;
	double share =
	    cores > 0 && d->threads > 0 && d->threads < cores ? (double)d->threads / cores : 1.0;
	return d->fp16_tflops * 1e12 * share;
}

void local_device_speed(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct device *d,
                        const struct speed_job *job, double weight_bytes, double kv_bytes,
                        double flop_params, struct speed_est *out)
{
	(void)e;
	(void)m;
	(void)p;
	int b = job->batch > 0 ? job->batch : 1;
	double bw = d->tier[DEVICE_TIER_LOCAL].bandwidth_gbs * 1e9;
	double work = FWD_FLOPS * flop_params;
	if (work <= 0 || weight_bytes <= 0)
		return;
	double mem_tps, compute_tps;
	if (d->kind == DEVICE_CPU) {
		bool wide = wide_simd(d);
		mem_tps = b * bw * CPU_DECODE_BW_ETA / (weight_bytes + b * kv_bytes);
		compute_tps = cpu_peak(d) *
		              (wide ? CPU_DECODE_COMPUTE_AVX512 : CPU_DECODE_COMPUTE_AVX2) / work;
		out->prefill_tps =
		    cpu_peak(d) * (wide ? CPU_PREFILL_AVX512 : CPU_PREFILL_AVX2) / work;
	} else {
		mem_tps = b * bw * UNIFIED_DECODE_ETA / (weight_bytes + b * kv_bytes);
		compute_tps = d->fp16_tflops * 1e12 * UNIFIED_PREFILL_ETA / work;
		out->prefill_tps = compute_tps;
	}
	out->decode_tps = fmin(mem_tps, compute_tps);
	out->stream_tps = out->decode_tps / b;
	out->output_tps = out->decode_tps;
	if (job->input_tokens > 0 && job->output_tokens > 0 && out->prefill_tps > 0) {
		double secs = b * job->input_tokens / out->prefill_tps +
		              b * job->output_tokens / out->decode_tps;
		out->output_tps = b * job->output_tokens / secs;
	}
}

/* Whether g is name itself or a variant of the family name. */
static bool names(const struct gpu_spec *g, const char *name)
{
	if (refdata_same_gpu_name(g->name, name))
		return true;
	for (size_t a = 0; a < g->n_aliases; a++)
		if (refdata_same_gpu_name(g->aliases[a], name))
			return true;
	return g->family && refdata_same_gpu_name(g->family, name);
}

static size_t add_variant(struct local_variant *out, size_t n, size_t max, const struct gpu_spec *g,
                          double gib)
{
	if (n < max)
		out[n] = (struct local_variant){.gpu = g, .memory_gib = gib};
	return n + 1;
}

size_t local_device_variants(const struct refdata *ref, const char *name, double memory_gib,
                             struct local_variant *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; ref && name && i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (g->kind == DEVICE_GPU || !names(g, name))
			continue;
		if (g->n_memory_options == 0) { /* a CPU: the RAM is the buyer's */
			n = add_variant(out, n, max, g, memory_gib > 0 ? memory_gib : g->vram_gib);
			continue;
		}
		for (size_t k = 0; k < g->n_memory_options; k++)
			if (memory_gib <= 0 || fabs(g->memory_options[k] - memory_gib) < 0.5)
				n = add_variant(out, n, max, g, g->memory_options[k]);
	}
	return n;
}

const char *local_device_suggest(const struct refdata *ref, const char *name)
{
	const char *cand[256];
	size_t n = 0;
	for (size_t i = 0; ref && i < ref->n_gpus && n + 2 <= sizeof cand / sizeof cand[0]; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (g->family && (n == 0 || strcmp(cand[n - 1], g->family)))
			cand[n++] = g->family;
		cand[n++] = g->name;
	}
	return nearest_name(name, cand, n);
}

char *local_device_sizes(const struct refdata *ref, const char *name, char *buf, size_t len)
{
	double seen[32];
	size_t ns = 0;
	for (size_t i = 0; ref && i < ref->n_gpus; i++) {
		const struct gpu_spec *g = &ref->gpus[i];
		if (g->kind == DEVICE_GPU || !names(g, name))
			continue;
		for (size_t k = 0; k < g->n_memory_options && ns < 32; k++) {
			size_t j = 0;
			while (j < ns && seen[j] < g->memory_options[k])
				j++;
			if (j < ns && seen[j] == g->memory_options[k])
				continue;
			memmove(&seen[j + 1], &seen[j], (ns - j) * sizeof *seen);
			seen[j] = g->memory_options[k];
			ns++;
		}
	}
	size_t at = 0;
	buf[0] = '\0';
	for (size_t j = 0; j < ns && at < len; j++)
		at += (size_t)snprintf(buf + at, len - at, "%s%g",
		                       j == 0        ? ""
		                       : j + 1 == ns ? " or "
		                                     : ", ",
		                       seen[j]);
	return buf;
}

struct gpu_spec *local_device_sized(const struct refdata *ref, const struct gpu_spec *g,
                                    double memory_gib, char *why, size_t len)
{
	struct local_variant v;
	char sizes[160];
	why[0] = '\0';
	if (g->kind == DEVICE_GPU) {
		snprintf(why, len,
		         "%s has %.0f GiB; memory_gib is for a chip sold with several sizes "
		         "or a CPU box's RAM",
		         g->name, g->vram_gib);
		return NULL;
	}
	if (local_device_variants(ref, g->name, memory_gib, &v, 1) == 0) {
		snprintf(why, len, "%s is sold with %s GiB", g->name,
		         local_device_sizes(ref, g->name, sizes, sizeof sizes));
		return NULL;
	}
	struct gpu_spec *c = malloc(sizeof *c);
	char *name = xasprintf("%s %g GiB", g->name, memory_gib);
	if (!c || !name) {
		free(c);
		free(name);
		return NULL;
	}
	*c = *g;
	c->name = name;
	c->vram_gib = memory_gib;
	return c;
}

/* Bounds a described device must stay inside: nothing on sale has more
 * memory, bandwidth or throughput than a GB300 NVL72 rack's one GPU by
 * three orders of magnitude. */
#define CUSTOM_MAX_GIB     65536.0
#define CUSTOM_MAX_GBS     1e6
#define CUSTOM_MAX_TFLOPS  1e6
#define CUSTOM_MAX_THREADS 4096

bool local_device_check(const char *kind, double memory_gib, double bandwidth_gbs, double tflops,
                        int threads, bool flags, enum device_kind *out_kind, char *why, size_t len)
{
	const char *mem = flags ? "--memory-gib" : "vram_gib";
	const char *bw = flags ? "--bandwidth-gbs" : "bandwidth_gbs";
	const char *tf = flags ? "--tflops" : "fp16_tflops";
	if (!kind || !strcmp(kind, "gpu"))
		*out_kind = DEVICE_GPU;
	else if (!strcmp(kind, "unified"))
		*out_kind = DEVICE_UNIFIED;
	else if (!strcmp(kind, "cpu"))
		*out_kind = DEVICE_CPU;
	else {
		snprintf(why, len, "unknown %s '%s'; use gpu, unified or cpu",
		         flags ? "--kind" : "kind", kind);
		return false;
	}
	if (!(memory_gib > 0 && memory_gib <= CUSTOM_MAX_GIB))
		snprintf(why, len,
		         "%s wants the device's memory in GiB, more than 0 and at most %.0f", mem,
		         CUSTOM_MAX_GIB);
	else if (!(bandwidth_gbs > 0 && bandwidth_gbs <= CUSTOM_MAX_GBS))
		snprintf(why, len,
		         "%s wants its memory bandwidth in GB/s, more than 0 and at most %.0f", bw,
		         CUSTOM_MAX_GBS);
	else if (!(tflops > 0 && tflops <= CUSTOM_MAX_TFLOPS))
		snprintf(why, len,
		         "%s wants its dense FP16 TFLOPS (a CPU: its FP32 SIMD peak), more "
		         "than 0 and at most %.0f",
		         tf, CUSTOM_MAX_TFLOPS);
	else if (threads < 0 || threads > CUSTOM_MAX_THREADS)
		snprintf(why, len, "%s wants 1 to %d CPU threads", flags ? "--threads" : "threads",
		         CUSTOM_MAX_THREADS);
	else
		return true;
	return false;
}

bool local_device_rented(const struct gpu_spec *g, double vcpus, double ram_gib,
                         struct gpu_spec *out)
{
	if (!g || g->kind != DEVICE_CPU || g->socket_vcpus <= 0 || !(vcpus > 0) ||
	    !(ram_gib > 0))
		return false;
	double share = vcpus / g->socket_vcpus;
	if (share > RENTED_MAX_SOCKETS)
		return false;
	*out = *g;
	out->vram_gib = ram_gib;
	/* Memory bandwidth: the VM's share of the socket's channels, the
	 * rest being its neighbours'. Beyond one socket llama.cpp gains
	 * nothing without NUMA tuning: both sockets of 2 x Xeon 5218 decode
	 * at half the speed of one pinned socket (mozilla-ai/llamafile#765,
	 * 2025-06-02), and dual EPYC 9175F decode at 2.4 tok/s, 4.31 only
	 * with --numa distribute and the model cached while generating
	 * (ggml-org/llama.cpp#11744, 2025-02-08): one socket's is the rule. */
	out->bandwidth_gbs = g->bandwidth_gbs * fmin(share, 1.0);
	/* Cores and FP32 peak: the VM's cores, at the part's per-core rate
	 * (prefill is not slowed by NUMA, llamafile#765). */
	out->fp16_tflops = g->fp16_tflops * share;
	int cores = (int)lround(g->threads * share);
	out->threads = cores > 0 ? cores : 1;
	return true;
}
