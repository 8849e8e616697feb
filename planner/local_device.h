/* local_device.h — the machines people already have: an Apple Silicon or
 * Strix Halo chip whose GPU shares one memory with the CPU (DEVICE_UNIFIED),
 * and CPUs over host RAM (DEVICE_CPU). They sit in schema/gpus.json beside
 * the GPUs with a "kind"; a chip sold with several memory sizes lists them
 * (memory_options), and one whose GPU-core variants differ is several rows
 * sharing a family ("M3 Max").
 *
 * What the fit and the speed model need of them beyond a GPU's figures is
 * here: how much of unified memory the GPU may wire, and the speed under
 * llama.cpp's Metal, Vulkan/ROCm and CPU backends (docs/estimation.md,
 * "Devices that are not datacenter GPUs"; the constants are fitted on
 * tests/calibration/local_devices.tsv). */
#ifndef PLANNER_LOCAL_DEVICE_H
#define PLANNER_LOCAL_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "device.h"
#include "speed.h"

/* The share of unified memory the GPU may wire by default: the part's own
 * figure (gpu_share in gpus.json) or macOS's rule for Apple chips. 1 for a
 * CPU (its RAM is all the engine's, less the engine's usable fraction). */
double local_device_gpu_share(const struct device *d);

/* GiB of d's memory a model may take under engine e: the GPU's wired share
 * of unified memory, or the RAM at the engine's usable fraction. */
double local_device_usable(const struct engine *e, const struct device *d);

/* Throughput of one unified-memory chip or CPU running the job under
 * llama.cpp (speed_estimate_device calls it for those kinds). Decode is
 * the memory's bandwidth at the share Metal or the CPU reaches, bounded on
 * a CPU by what its threads multiply; prefill is compute at the share the
 * backend's kernels reach. Cannot fail; rates are 0 for a model without
 * parameters. */
void local_device_speed(const struct engine *e, const struct model_spec *m,
                        const struct precision_info *p, const struct device *d,
                        const struct speed_job *job, double weight_bytes, double kv_bytes,
                        double flop_params, struct speed_est *out);

/* One row of a chip's variants: a part and a memory size it is sold with. */
struct local_variant {
	const struct gpu_spec *gpu;
	double memory_gib;
};

/* The variants `name` means: the part it names (or, when it names a
 * family, every part of it), each with each memory size offered, or only
 * memory_gib when that is > 0 and offered (any size for a CPU, whose RAM is
 * the buyer's choice). Up to max in out; returns how many there are, 0 when
 * name is neither a part nor a family or no variant has memory_gib. */
size_t local_device_variants(const struct refdata *ref, const char *name, double memory_gib,
                             struct local_variant *out, size_t max);

/* The nearest name of the table, a chip's family ("M3 Max") included, for
 * "did you mean" messages; NULL when none is close. */
const char *local_device_suggest(const struct refdata *ref, const char *name);

/* The memory sizes the part or family `name` is sold with, "36, 48, 64 or
 * 128", into buf (len bytes); returns buf. */
char *local_device_sizes(const struct refdata *ref, const char *name, char *buf, size_t len);

/* g at memory_gib GiB, a new copy named "M3 Max 40-core 64 GiB" (free
 * its name, then it; the other strings are g's), for an owned: or buy:
 * entry's memory_gib. NULL with the reason in why (len bytes) when g is a
 * GPU, or a chip not sold with that size; NULL and why empty when out of
 * memory. */
struct gpu_spec *local_device_sized(const struct refdata *ref, const struct gpu_spec *g,
                                    double memory_gib, char *why, size_t len);

/* A device described on the command line or in a spec's gpus: block.
 * kind is "gpu", "unified" or "cpu" (NULL = gpu). Checks each figure:
 * false with the reason in why (naming the flag or key from `what`,
 * "--memory-gib" style when flags is true) when one is missing, zero or
 * out of range. */
bool local_device_check(const char *kind, double memory_gib, double bandwidth_gbs, double tflops,
                        int threads, bool flags, enum device_kind *out_kind, char *why, size_t len);

/* A rented VM of CPU part g with `vcpus` vCPUs and ram_gib GiB: *out is g
 * (its strings borrowed) with memory ram_gib and the VM's share of the
 * socket, vcpus / g->socket_vcpus, of its cores and FP32 peak; of its
 * bandwidth too, but never more than one socket's (a VM over two sockets
 * decodes at one socket's speed: docs/estimation.md, "Rented CPUs").
 * False when g is not a CPU part a cloud sells (socket_vcpus 0), or vcpus
 * or ram_gib is not above 0. Can't fail otherwise. */
bool local_device_rented(const struct gpu_spec *g, double vcpus, double ram_gib,
                         struct gpu_spec *out);

#endif
