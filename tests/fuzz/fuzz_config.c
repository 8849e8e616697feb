/* fuzz_config.c — a Hugging Face config.json (model_from_config_text). */
#include <math.h>
#include <stdlib.h>

#include "fuzz.h"
#include "refdata.h"
#include "util.h"

int fuzz_config(const uint8_t *data, size_t size)
{
	struct model_spec m;
	char *err = NULL;
	int rc = model_from_config_text("fuzz/config.json", (const char *)data, size, &m, &err);
	int bad = 0;
	if (rc != PLANNER_OK && !err)
		bad = fuzz_fail("config", "an error without a message");
	if (rc == PLANNER_OK &&
	    (m.layers <= 0 || m.hidden <= 0 || m.heads <= 0 || m.vocab <= 0 || !m.id || !m.name))
		bad = fuzz_fail("config", "accepted a model without its required fields");
	if (rc == PLANNER_OK && (!isfinite(m.params_total) || !isfinite(m.params_active)))
		bad = fuzz_fail("config", "a parameter count that is not finite");
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
