/* offload.c — a model split between a GPU and host RAM (see offload.h). */
#include "offload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define GIB 1073741824.0

bool offload_place(const struct engine *e, const struct model_spec *m, const struct vram_need *need,
                   const struct device *d, double ram_gib, int gpu_layers, struct offload_plan *out,
                   char *why, size_t len)
{
	*out = (struct offload_plan){.layers = m->layers > 0 ? m->layers : 1,
	                             .ram_given_gib = ram_gib};
	if (strcmp(e->name, "llama.cpp")) {
		snprintf(why, len,
		         "%s's own offload (vLLM --cpu-offload-gb, TensorRT-LLM) is not "
		         "modelled; --offload is llama.cpp's -ngl (--engine llama.cpp)",
		         e->name);
		return false;
	}
	if (d->kind != DEVICE_GPU || d->count != 1) {
		snprintf(why, len, "--offload splits a model between one GPU and host RAM; %s",
		         d->kind != DEVICE_GPU ? "this device's memory is already its RAM"
		                               : "give --gpus 1 or leave it out");
		return false;
	}
	double layer = (need->weights_gib + need->kv_gib) / out->layers;
	double fixed = need->overhead_gib + need->activation_gib + need->training_gib;
	out->gpu_usable_gib = vram_device_usable(e, d);
	int most = layer > 0 ? (int)floor((out->gpu_usable_gib - fixed) / layer) : out->layers;
	if (most > out->layers)
		most = out->layers;
	out->gpu_layers = gpu_layers < 0 ? (most > 0 ? most : 0) : gpu_layers;
	if (out->gpu_layers > out->layers)
		out->gpu_layers = out->layers;
	out->gpu_gib = fixed + out->gpu_layers * layer;
	out->ram_gib = (out->layers - out->gpu_layers) * layer;
	out->fits = out->gpu_gib <= out->gpu_usable_gib && out->ram_gib <= ram_gib;
	if (!out->fits)
		snprintf(why, len,
		         "%d of %d layers on the GPU need %.2f GiB of %.2f usable, the other %d "
		         "%.2f GiB of RAM of %.0f given",
		         out->gpu_layers, out->layers, out->gpu_gib, out->gpu_usable_gib,
		         out->layers - out->gpu_layers, out->ram_gib, ram_gib);
	return out->fits;
}

void offload_speed(const struct engine *e, const struct model_spec *m,
                   const struct precision_info *p, const struct device *d,
                   const struct vram_need *need, const struct speed_job *job, double host_gbs,
                   const struct offload_plan *plan, struct speed_est *out)
{
	/* Each part's time per step is its share of the layers at the speed
	 * of the whole model in that memory: the GPU's, and RAM's read as a
	 * CPU reads it (its compute not known: bandwidth alone bounds it). */
	struct speed_est gpu, ram;
	speed_estimate_device(e, m, p, d, job, &gpu);
	struct device host = {
	    .name = "host RAM",
	    .kind = DEVICE_CPU,
	    .count = 1,
	    .tier = {[DEVICE_TIER_LOCAL] = {.gib = plan->ram_given_gib, .bandwidth_gbs = host_gbs}},
	    .fp16_tflops = INFINITY};
	speed_estimate_device(e, m, p, &host, job, &ram);
	*out = gpu;
	double on_gpu = (double)plan->gpu_layers / plan->layers;
	int b = job->batch > 0 ? job->batch : 1;
	if (gpu.decode_tps <= 0 || ram.decode_tps <= 0)
		return;
	double step = on_gpu * b / gpu.decode_tps + (1.0 - on_gpu) * b / ram.decode_tps;
	out->decode_tps = b / step;
	out->stream_tps = out->decode_tps / b;
	out->output_tps = out->decode_tps;
	/* Prefill runs every layer on the GPU, the RAM layers' weights
	 * uploaded once per micro-batch. */
	double chunk = e->prefill_chunk_tokens > 0 ? e->prefill_chunk_tokens : 1.0;
	double upload = (1.0 - on_gpu) * need->weights_gib * GIB / (OFFLOAD_PCIE_GBS * 1e9 * chunk);
	if (gpu.prefill_tps > 0)
		out->prefill_tps = 1.0 / (1.0 / gpu.prefill_tps + upload);
	if (job->input_tokens > 0 && job->output_tokens > 0 && out->prefill_tps > 0)
		out->output_tps = b * job->output_tokens /
		                  (b * job->input_tokens / out->prefill_tps +
		                   b * job->output_tokens / out->decode_tps);
}
