/* device.h — the hardware one model runs on, as the memory fit (vram.c)
 * and the speed model (speed.c) read it: a kind, a count, memory tiers
 * with their bandwidth, tensor throughput and power. A GPU is one kind
 * (device_from_gpu); Apple unified memory, CPUs and a model split between
 * GPU memory and host RAM (llama.cpp -ngl) are later issues, which the
 * struct leaves room for without changing the fit's or the speed model's
 * signatures. GPUs (any count), and one unified-memory chip or one CPU
 * (local_device.h) are modelled; only tier 0 holds bytes; vram_place
 * refuses anything else with its reason.
 *
 * What the code assumes of NVIDIA parts and of gpu_spec is decided here,
 * once, and carried as data: the vendor (the CUDA rule, workload.c), FP8
 * support (fp8_tflops > 0), the FP16-accumulate rate (half the INT8 rate
 * on NVIDIA tensor cores, applied to every card with an INT8 figure), the
 * memory class (HBM or GDDR, from the name) and the interconnect (NVLink
 * taken to come with HBM, PCIe with GDDR: the engines' tensor-parallel
 * efficiencies are measured that way). */
#ifndef PLANNER_DEVICE_H
#define PLANNER_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "engines.h"
#include "refdata.h"

/* Memory tiers, fastest first. */
enum device_tier_index {
	DEVICE_TIER_LOCAL, /* the device's own memory (VRAM, or the unified pool) */
	DEVICE_TIER_HOST,  /* host RAM behind it (layers kept off the GPU); unused yet */
	DEVICE_MAX_TIERS,
};

/* One level of memory as one device of the count sees it. */
struct device_tier {
	double gib;           /* capacity, GiB (2^30 bytes); 0 = the tier is absent */
	double bandwidth_gbs; /* what one device reads it at, GB/s (10^9 bytes/s) */
	enum gpu_memory mem;  /* technology class the engines' efficiencies are indexed by */
};

/* How the devices of a count talk to each other. */
enum device_link {
	DEVICE_LINK_PCIE,   /* through the host's PCIe switches */
	DEVICE_LINK_NVLINK, /* NVLink / Infinity Fabric between the devices */
};

struct device {
	const char *name;   /* "H100 SXM": messages and engines' rules by part name */
	const char *vendor; /* "nvidia", "amd", …: the software stack it runs */
	enum device_kind kind;
	int count; /* devices one model is spread over (tensor parallel, layer split) */
	struct device_tier tier[DEVICE_MAX_TIERS];
	/* Dense tensor throughput of one device, as the speed model reads it. */
	double fp16_tflops;     /* FP16/BF16 with FP32 accumulate */
	double fp16_acc_tflops; /* FP16 with FP16 accumulate (llama.cpp's GEMMs); 0 = unknown */
	double fp8_tflops;      /* FP8; 0 = no FP8 tensor cores */
	double fp4_tflops;      /* FP4 (NVFP4, MXFP4); 0 = no FP4 tensor cores */
	double int8_tops;       /* INT8; 0 = unknown */
	double watts;           /* board power of one device, W */
	enum device_link link;
	int threads;                /* CPU cores it runs on (DEVICE_CPU); 0 = all the part has */
	const char *isa;            /* the CPU's matrix/SIMD extension ("avx2"); NULL otherwise */
	const struct gpu_spec *gpu; /* the part it was built from */
};

/* Whether a GPU's memory is HBM (A100, H100, H200, B200, MI300X, …) rather
 * than GDDR, decided from its name as the speed model always has (the
 * table's memory_type says HBM for B300, GB300 and Radeon Pro V520 too;
 * following it would change their figures). refdata_load records it in
 * each gpu_spec (mem_class); gpu_memory_class reads that. */
bool device_gpu_hbm(const struct gpu_spec *gpu);

/* The memory class of a GPU: the one refdata_load recorded, else decided
 * from the name now (a gpu_spec built elsewhere: a spec's own card, a
 * test's). Inline, with the name only read when nothing was recorded: a
 * pass over the name costs about 100 ns, and compare asks once per job and
 * offer group. */
static inline enum gpu_memory gpu_memory_class(const struct gpu_spec *gpu)
{
	if (gpu->mem_class != GPU_MEM_UNSET)
		return gpu->mem_class == GPU_MEM_HBM ? MEM_HBM : MEM_GDDR;
	return device_gpu_hbm(gpu) ? MEM_HBM : MEM_GDDR;
}

/* `count` GPUs of kind gpu as a device: its memory as tier 0, its tensor
 * rates, its power. Built on the stack wherever a caller holds a GPU and a
 * count; inline because compare builds one per job and offer group. gpu
 * must not be NULL. Cannot fail. */
static inline struct device device_from_gpu(const struct gpu_spec *gpu, int count)
{
	enum gpu_memory mem = gpu_memory_class(gpu);
	return (struct device){
	    .name = gpu->name,
	    .vendor = gpu->vendor,
	    .kind = gpu->kind,
	    .count = count,
	    .tier = {[DEVICE_TIER_LOCAL] = {.gib = gpu->vram_gib,
	                                    .bandwidth_gbs = gpu->bandwidth_gbs,
	                                    .mem = mem}},
	    .fp16_tflops = gpu->fp16_tflops,
	    /* Every NVIDIA tensor-core generation from Turing to Blackwell
	     * runs FP16-accumulate at half the dense INT8 rate (speed.c,
	     * dense_flops); the rule is applied to every card with an INT8
	     * figure, as it always was. */
	    .fp16_acc_tflops = gpu->int8_tops / 2.0,
	    .fp8_tflops = gpu->fp8_tflops,
	    .fp4_tflops = gpu->fp4_tflops,
	    .int8_tops = gpu->int8_tops,
	    .watts = gpu->watts,
	    .link = mem == MEM_HBM ? DEVICE_LINK_NVLINK : DEVICE_LINK_PCIE,
	    .threads = gpu->threads,
	    .isa = gpu->isa,
	    .gpu = gpu,
	};
}

/* The same device with another count. */
static inline struct device device_with_count(const struct device *d, int count)
{
	struct device c = *d;
	c.count = count;
	return c;
}

/* device_modelled's answer when it is no, with the reason in why. */
bool device_refused(const struct device *d, char *why, size_t len);

/* Whether the fit and the speed model handle d as it is: a GPU, at least
 * one of it, or exactly one unified-memory chip or CPU (each machine runs
 * its own copy of the model). When not, and why is not NULL, the reason goes in why (len
 * bytes). Inline for the same reason as device_from_gpu. */
static inline bool device_modelled(const struct device *d, char *why, size_t len)
{
	if (d->kind == DEVICE_GPU ? d->count >= 1 : d->count == 1)
		return true;
	return device_refused(d, why, len);
}

/* "gpu", "unified", "cpu"; "?" for anything else. */
const char *device_kind_name(enum device_kind k);

#endif
