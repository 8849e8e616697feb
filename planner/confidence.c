/* confidence.c — the fit rows of the calibration set by engine, kind of
 * work and GPU class, and the rule that grades an estimate by them
 * (confidence.h; docs/estimation.md, "Confidence"). */
#include "confidence.h"

#include <string.h>
#include <strings.h>

#include "device.h"

/* Derived from tests/calibration/measurements.tsv, the split = fit rows
 * check_calibration.c estimates (CONFIDENCE_ROWS=1 make calibration prints
 * them; that suite fails when this table differs), 2026-12-02; and one
 * row of tests/calibration/local_devices.tsv: llama.cpp on CPUs (its fit
 * rows: Core i5-4278U, one machine). */
const struct confirmed confidence_rows[] = {
    {"vllm", false, "nvidia gddr", 8, false},       {"vllm", false, "amd hbm", 8, false},
    {"tensorrt-llm", false, "nvidia hbm", 8, true}, {"llama.cpp", false, "nvidia gddr", 8, false},
    {"llama.cpp", false, "nvidia hbm", 4, false},   {"llama.cpp", false, "unified", 1, false},
    {"llama.cpp", false, "cpu", 1, false},          {"torchtune", true, "nvidia hbm", 8, false},
    {"torchtune", true, "nvidia gddr", 4, false},
    /* Megatron-Bridge 25.11 and NeMo 24.07 (the gddr row is GB300's:
     * device_gpu_hbm does not name GB300 or B300, so they are classed
     * as GDDR; pre-existing, not mended here) */
    {"megatron", true, "nvidia hbm", 1024, true},
    {"megatron", true, "nvidia gddr", 8, false},
};

const size_t confidence_n_rows = sizeof confidence_rows / sizeof confidence_rows[0];

const char *confidence_gpu_class(const struct gpu_spec *g)
{
	if (g->kind == DEVICE_UNIFIED)
		return "unified";
	if (g->kind == DEVICE_CPU)
		return "cpu";
	bool amd = g->vendor && !strcasecmp(g->vendor, "amd");
	if (gpu_memory_class(g) == MEM_HBM)
		return amd ? "amd hbm" : "nvidia hbm";
	return amd ? "amd gddr" : "nvidia gddr";
}

enum confidence confidence_of(const struct engine *e, bool training, const struct model_spec *m,
                              const struct gpu_spec *g, int n)
{
	const char *cls = confidence_gpu_class(g);
	bool any = false, moe = false, here = false;
	for (size_t i = 0; i < confidence_n_rows; i++) {
		const struct confirmed *c = &confidence_rows[i];
		if (strcmp(c->engine, e->name) || c->training != training)
			continue;
		any = true;
		moe |= c->moe;
		here |= !strcmp(c->gpu_class, cls) && n <= c->max_gpus;
	}
	/* A MoE model's share of the rates (engines.c, moe_eta) is the
	 * engine's own only where it has MoE rows. */
	if (!any || (m->experts > 0 && !moe))
		return CONF_UNCONFIRMED;
	return here ? CONF_CALIBRATED : CONF_EXTRAPOLATED;
}

const char *confidence_name(enum confidence c)
{
	switch (c) {
	case CONF_CALIBRATED:
		return "calibrated";
	case CONF_EXTRAPOLATED:
		return "extrapolated";
	case CONF_UNCONFIRMED:
		break;
	}
	return "unconfirmed";
}

bool confidence_marked(enum confidence c)
{
	return c != CONF_CALIBRATED;
}
