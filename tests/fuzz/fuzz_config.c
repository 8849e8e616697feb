/* fuzz_config.c — a Hugging Face config.json (model_from_config_text), and
 * every figure derived from an accepted one: parameter counts, layer
 * counts, the memory estimate and the speed estimate on a reference GPU,
 * each finite and in range (issue 12: a config that gave −20956.8 GiB and
 * "-2147483648x RTX 4090" was accepted). */
#include <math.h>
#include <stdlib.h>

#include "engines.h"
#include "fuzz.h"
#include "refdata.h"
#include "speed.h"
#include "util.h"
#include "vram.h"

/* The model's figures the estimates multiply by. */
static const char *bad_shape(const struct model_spec *m)
{
	if (m->layers <= 0 || m->hidden <= 0 || m->heads <= 0 || m->vocab <= 0 || !m->id ||
	    !m->name)
		return "accepted a model without its required fields";
	if (m->head_dim <= 0 || m->kv_heads <= 0 || m->kv_heads > m->heads)
		return "an attention shape that is not one";
	if (!isfinite(m->params_total) || !isfinite(m->params_active) ||
	    !isfinite(m->params_16bit))
		return "a parameter count that is not finite";
	if (m->params_total <= 0 || m->params_active <= 0 || m->params_active > m->params_total ||
	    m->params_16bit < 0 || m->params_16bit > m->params_total)
		return "a parameter count out of range";
	const int counts[] = {m->kv_layers, m->mlp_layers, m->ssm_layers, m->sliding_layers,
			      m->first_dense};
	for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
		if (counts[i] < 0 || counts[i] > m->layers)
			return "a layer count outside [0, layers]";
	return NULL;
}

/* Memory and speed of the model at bf16 on one reference GPU. */
static const char *bad_estimate(const struct model_spec *m)
{
	const struct engine *e = engine_default();
	const struct precision_info *p = precision_find("bf16");
	const struct refdata *ref = fuzz_ref();
	if (!e || !p || !ref->n_gpus)
		return NULL;
	struct vram_need need;
	vram_estimate(e, m, p, TASK_INFERENCE, 4096, 1, &need);
	const double parts[] = {need.weights_gib, need.kv_gib, need.training_gib,
				need.activation_gib, need.overhead_gib, need.total_gib,
				vram_kv_bytes_per_token(e, m)};
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		if (!isfinite(parts[i]) || parts[i] < 0)
			return "a memory figure that is negative or not finite";
	struct speed_est s;
	speed_estimate(e, m, p, &ref->gpus[0], 1, TASK_INFERENCE, 4096, 1, &s);
	if (!isfinite(s.decode_tps) || s.decode_tps < 0 || !isfinite(s.prefill_tps) ||
	    s.prefill_tps < 0)
		return "a speed that is negative or not finite";
	return NULL;
}

int fuzz_config(const uint8_t *data, size_t size)
{
	struct model_spec m;
	char *err = NULL;
	int rc = model_from_config_text("fuzz/config.json", (const char *)data, size, &m, &err);
	int bad = 0;
	const char *why;
	if (rc != PLANNER_OK && !err)
		bad = fuzz_fail("config", "an error without a message");
	if (rc == PLANNER_OK && ((why = bad_shape(&m)) || (why = bad_estimate(&m))))
		bad = fuzz_fail("config", why);
	if (rc == PLANNER_OK)
		model_spec_clear(&m);
	free(err);
	return bad;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_config(data, size))
		abort();
	return 0;
}
#endif
