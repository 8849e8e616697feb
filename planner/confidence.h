/* confidence.h — how far a speed estimate rests on published measurements
 * (docs/estimation.md, "Confidence"): whether the calibration set's fit
 * sources (tests/calibration/measurements.tsv) hold rows of the same
 * engine, kind of work and GPU class up to the GPU count asked. */
#ifndef PLANNER_CONFIDENCE_H
#define PLANNER_CONFIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "engines.h"
#include "refdata.h"

enum confidence {
	CONF_CALIBRATED,   /* fit rows of this engine, kind and GPU class at this scale */
	CONF_EXTRAPOLATED, /* the engine has fit rows of this kind, not on this GPU
	                    * class or not at this many GPUs */
	CONF_UNCONFIRMED,  /* no fit row of the engine for this kind, or a MoE model
	                    * where its MoE share is borrowed from another engine */
};

/* One engine x kind x GPU class with rows on the fit side of the set. */
struct confirmed {
	const char *engine;    /* engines[].name */
	bool training;         /* train_throughput rows; else decode, prefill, serving */
	const char *gpu_class; /* confidence_gpu_class of the rows' GPUs */
	int max_gpus;          /* the most GPUs one of those rows ran on */
	bool moe;              /* one of those rows ran a mixture-of-experts model */
};

/* The set, as tests/check_calibration.c derives it from the fit rows it
 * estimates (that test fails when the two differ). */
extern const struct confirmed confidence_rows[];
extern const size_t confidence_n_rows;

/* The class a GPU's rows count for: vendor and memory technology
 * ("nvidia hbm", "amd hbm", "nvidia gddr"); Apple chips, Strix Halo PCs
 * and CPUs by their kind ("unified", "cpu"). Never NULL. */
const char *confidence_gpu_class(const struct gpu_spec *g);

/* The confidence of the speed of model m under engine e on n GPUs of g,
 * for training or inference work. Cannot fail. */
enum confidence confidence_of(const struct engine *e, bool training, const struct model_spec *m,
                              const struct gpu_spec *g, int n);

/* The legend line under a table whose speeds carry `~` marks. */
#define CONFIDENCE_LEGEND                                                                          \
	"~ speed: no published measurement of this engine on this GPU class and scale confirms "   \
	"it (docs/estimation.md, \"Confidence\")"

/* "calibrated", "extrapolated" or "unconfirmed". */
const char *confidence_name(enum confidence c);

/* Whether c is marked `~` beside the speed in a table: anything short of
 * calibrated. */
bool confidence_marked(enum confidence c);

#endif
