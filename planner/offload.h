/* offload.h — a model split between one GPU and host RAM, as llama.cpp's
 * -ngl N runs it (docs/estimation.md, "Devices that are not datacenter
 * GPUs"): N layers with their KV cache in VRAM, the rest in RAM; each
 * layer decodes at its own memory's speed, so a token takes the sum of
 * both parts, and prefill uploads the RAM layers' weights over PCIe once
 * per micro-batch. */
#ifndef PLANNER_OFFLOAD_H
#define PLANNER_OFFLOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "speed.h"
#include "vram.h"

/* Host RAM's bandwidth when the command line does not give it: a desktop's
 * two channels of DDR5-5200, 2 x 64 bit x 5200 MT/s / 8 = 83.2 GB/s (the
 * Ryzen 9 7950X row of schema/gpus.json). */
#define OFFLOAD_HOST_GBS 83.2

/* PCIe 4.0 x16, one direction: 16 GT/s x 16 lanes x 128/130 / 8 = 31.5
 * GB/s (PCI-SIG PCIe 4.0 base specification's line rate and encoding). */
#define OFFLOAD_PCIE_GBS 31.5

struct offload_plan {
	int layers;     /* the model's layers */
	int gpu_layers; /* of them on the GPU (-ngl) */
	double gpu_gib; /* what the GPU holds: its layers, overhead, activations */
	double gpu_usable_gib;
	double ram_gib; /* what host RAM holds: the other layers */
	double ram_given_gib;
	bool fits; /* both parts fit */
};

/* Places the job (need, under engine e) on one GPU d and ram_gib of host
 * RAM: gpu_layers on the GPU, or with gpu_layers < 0 the most that fit
 * (the fastest split). Each layer holds an equal share of the weights and
 * the KV cache. False with the reason in why (len bytes) when the split
 * does not fit, or when e is not llama.cpp (the engines planner models do
 * not split layers onto the CPU that way) or d is not one GPU. */
bool offload_place(const struct engine *e, const struct model_spec *m, const struct vram_need *need,
                   const struct device *d, double ram_gib, int gpu_layers, struct offload_plan *out,
                   char *why, size_t len);

/* The speed of the split: decode the sum of the GPU layers' time and the
 * RAM layers' time (read at host_gbs, the share a CPU reaches), prefill
 * the GPU's rate plus the upload of the RAM layers' weights per
 * micro-batch. Cannot fail. */
void offload_speed(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, const struct device *d,
                   const struct vram_need *need, const struct speed_job *job, double host_gbs,
                   const struct offload_plan *plan, struct speed_est *out);

#endif
