/* spec_device.c — the spec's gpus: block (cards and machines planner does
 * not know, described by their figures), and memory_gib of an owned: or buy: entry: the variant of
 * a Mac or Strix Halo chip it names (one of the sizes it is sold with), or
 * the RAM of a CPU box; the entry then points at a copy of its part at
 * that size, named with it ("M3 Max 40-core 64 GiB"), which jobspec_free
 * frees. */
#include "spec_table.h"

#include "local_device.h"
#include "refdata.h"
#include "util.h"


/* ---- gpus: cards the spec describes --------------------------------------- */

/* Bounds on a described card: past the largest parts (MI325X 256 GB, B200
 * 8 TB/s, 2.25 PFLOPS dense BF16; schema/gpus.json, 2026-11-30) by far. */
#define MAX_CARD_GIB    4096
#define MAX_CARD_GBS    100000
#define MAX_CARD_TFLOPS 100000

/* After an entry's rows: its name must be new, and it is given the fields
 * a reference card has (vendor, source, price in USD). */
static int gpu_done(struct spec_rd *r)
{
	struct custom_gpu *g = r->target;
	struct jobspec *sp = r->c->spec;
	const struct gpu_spec *known = refdata_gpu(r->c->ref, g->spec.name);
	if (known)
		return yr_fail(&r->c->y, r->map->start_mark,
		               "%s names '%s', which planner already knows as %s; use that name in "
		               "owned: or buy: and drop this entry",
		               r->who, g->spec.name, known->name);
	for (size_t i = 0; i < r->index; i++)
		if (refdata_gpu_in(&sp->gpus[i].spec, sizeof *sp->gpus, 1, g->spec.name))
			return yr_fail(&r->c->y, r->map->start_mark,
			               "%s repeats the name '%s' of gpus entry %zu", r->who,
			               g->spec.name, i + 1);
	g->spec.source = xasprintf("described in the job spec (%s)", r->who);
	if (!g->spec.source)
		return yr_oom(&r->c->y);
	g->spec.price_usd = g->price > 0 ? g->price / sp->usd_to_currency : 0;
	return PLANNER_OK;
}

/* A described device's kind, in enum device_kind's order. */
static const char *const device_kind_names[] = {"gpu", "unified", "cpu"};

static const struct spec_key gpu_keys[] = {
    {.name = "name",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct custom_gpu, spec.name),
     .flags = SPEC_REQUIRED,
     .example = "name: My RTX 3060",
     .desc = "What owned: and buy: entries call the card; must not be a name planner "
             "already knows (`planner gpus` lists those)."},
    {.name = "vram_gib",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.vram_gib),
     .flags = SPEC_REQUIRED,
     .lo = 0.5,
     .hi = MAX_CARD_GIB,
     .example = "vram_gib: 12",
     .type = "number, GiB",
     .desc = "Memory of one card, GiB (nvidia-smi's MiB / 1024)."},
    {.name = "bandwidth_gbs",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.bandwidth_gbs),
     .flags = SPEC_REQUIRED,
     .lo = 1,
     .hi = MAX_CARD_GBS,
     .example = "bandwidth_gbs: 360",
     .type = "number, GB/s",
     .desc = "Memory bandwidth, GB/s; it sets decode speed."},
    {.name = "fp16_tflops",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.fp16_tflops),
     .flags = SPEC_REQUIRED,
     .lo = 0.1,
     .hi = MAX_CARD_TFLOPS,
     .example = "fp16_tflops: 25.6",
     .type = "number, TFLOPS",
     .desc = "Dense FP16/BF16 tensor TFLOPS with FP32 accumulate (GeForce: half the "
             "FP16-accumulate figure); it sets prefill and training speed."},
    {.name = "fp8_tflops",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.fp8_tflops),
     .lo = 0,
     .hi = MAX_CARD_TFLOPS,
     .def_text = "0 (no FP8)",
     .example = "fp8_tflops: 0",
     .type = "number, TFLOPS",
     .desc = "Dense FP8 tensor TFLOPS; 0 when the card has no FP8."},
    {.name = "fp4_tflops",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.fp4_tflops),
     .lo = 0,
     .hi = MAX_CARD_TFLOPS,
     .def_text = "0 (no FP4)",
     .example = "fp4_tflops: 0",
     .type = "number, TFLOPS",
     .desc = "Dense FP4 tensor TFLOPS (NVIDIA quotes it with sparsity: halve that); nvfp4 "
             "and mxfp4 jobs prefill and batch at it. 0 when the card has no FP4."},
    {.name = "memory_type",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct custom_gpu, spec.memory_type),
     .example = "memory_type: GDDR6",
     .desc = "GDDR6, GDDR6X, GDDR7, HBM2, HBM2e, HBM3 or HBM3e, as `planner gpus` shows."},
    {.name = "vendor",
     .kind = SPEC_TEXT,
     .offset = offsetof(struct custom_gpu, spec.vendor),
     .flags = SPEC_LOWER,
     .def_text = "nvidia",
     .example = "vendor: amd",
     .desc = "Who made the card; only nvidia cards are placed unless a job says "
             "accelerator: any."},
    {.name = "watts",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, spec.watts),
     .flags = SPEC_REQUIRED,
     .lo = 1,
     .hi = JOBSPEC_MAX_WATTS,
     .example = "watts: 170",
     .type = "number, watts per GPU",
     .desc = "Board power under load."},
    {.name = "kind",
     .kind = SPEC_ENUM,
     .offset = offsetof(struct custom_gpu, spec.kind),
     .store = STORE_INT,
     .names = device_kind_names,
     .n_names = NELEM(device_kind_names),
     .def_text = "gpu",
     .example = "kind: cpu",
     .desc = "gpu, unified (a Mac: vram_gib is its memory) or cpu (vram_gib its RAM, "
             "fp16_tflops its FP32 SIMD peak): one machine running llama.cpp jobs."},
    {.name = "threads",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct custom_gpu, spec.threads),
     .store = STORE_INT,
     .lo = 1,
     .hi = 4096,
     .def_text = "every core",
     .example = "threads: 16",
     .type = "whole number, CPU threads",
     .desc = "kind: cpu: the cores llama.cpp runs a thread on."},
    {.name = "price",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct custom_gpu, price),
     .lo = 0,
     .hi = SPEC_MAX_PRICE_USD,
     .flags = SPEC_FX,
     .def_text = "none (buy: entries naming the card must give price:)",
     .example = "price: 329",
     .type = "number, currency per GPU",
     .desc = "Purchase price of one card, the default for buy: entries that name it."},
};

const struct spec_table spec_gpu_table = {
    .intro = "Cards planner does not know, described so that owned: and buy: entries can name "
             "them.",
    .keys = gpu_keys,
    .n = NELEM(gpu_keys),
    .what = "gpus entry",
    .example = "{name: My RTX 3060, vram_gib: 12, bandwidth_gbs: 360, fp16_tflops: 25.6, "
               "watts: 170}",
    .size = sizeof(struct custom_gpu),
    .pos_offset = offsetof(struct custom_gpu, pos),
    .done = gpu_done,
};

static int size_entry(struct spec_rd *r, const struct gpu_spec **gpu, double memory_gib,
                      struct gpu_spec **sized)
{
	char why[200];
	if (memory_gib <= 0)
		return PLANNER_OK;
	if (!(*sized = local_device_sized(r->c->ref, *gpu, memory_gib, why, sizeof why)))
		return why[0] ? yr_fail(&r->c->y, r->map->start_mark, "%s: memory_gib %g: %s",
		                        r->who, memory_gib, why)
		              : yr_oom(&r->c->y);
	*gpu = *sized;
	return PLANNER_OK;
}

int spec_owned_done(struct spec_rd *r)
{
	struct owned_gpu *o = r->target;
	return size_entry(r, &o->gpu, o->memory_gib, &o->sized);
}

int spec_buy_done(struct spec_rd *r)
{
	struct buy_option *b = r->target;
	return size_entry(r, &b->gpu, b->memory_gib, &b->sized);
}

_Static_assert(NELEM(gpu_keys) <= SPEC_MAX_KEYS, "gpu_keys: raise SPEC_MAX_KEYS");
