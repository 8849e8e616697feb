/* fuzz_jobspec.c — the YAML job spec (jobspec_parse). The spec's name puts
 * it in a directory that does not exist, so a relative config.json path in
 * the input reads nothing; absolute ones are read as the parser would. */
#include <stdlib.h>

#include "fuzz.h"
#include "jobspec.h"
#include "util.h"

int fuzz_jobspec(const uint8_t *data, size_t size)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("/nonexistent-fuzz/spec.yaml", (const char *)data, size,
			       fuzz_ref(), &spec, &err);
	int bad = 0;
	if (rc == PLANNER_OK && !spec)
		bad = fuzz_fail("jobspec", "PLANNER_OK without a spec");
	else if (rc != PLANNER_OK && (spec || !err))
		bad = fuzz_fail("jobspec", "an error without a message, or with a spec");
	for (size_t i = 0; spec && i < spec->n_jobs; i++) {
		const struct job *j = &spec->jobs[i];
		if (!j->name || !j->model_ref || j->batch <= 0 || j->context <= 0)
			bad = fuzz_fail("jobspec", "an accepted job lacks a name, model, batch or context");
	}
	jobspec_free(spec);
	free(err);
	return bad;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_jobspec(data, size))
		abort();
	return 0;
}
#endif
