/* fuzz_probe.c — nvidia-smi output (probe_parse), the same bytes as
 * /proc/cpuinfo, /proc/meminfo and sysctl output (probe_host_linux,
 * probe_host_sysctl), and the owned: block made from them
 * (probe_owned_yaml_host), which must read back as a job spec: `planner
 * probe` prints it for pasting into one. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "jobspec.h"
#include "probe.h"
#include "util.h"

/* A job to make the owned: block a whole spec. */
static const char job_yaml[] = "jobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: 1}\n";

/* Parses the owned: block back; -1 when the spec rejects it. */
static int read_back(const char *owned)
{
	char *text = xasprintf("version: 1\n%s%s", owned, job_yaml);
	if (!text)
		return 0;
	struct jobspec *spec = NULL;
	char *err = NULL;
	int bad = 0;
	if (jobspec_parse("/nonexistent-fuzz/probe.yaml", text, strlen(text), fuzz_ref(), &spec,
			  &err) != PLANNER_OK) {
		bad = fuzz_fail("probe", "the owned: block is not a valid job spec:");
		fuzz_fail("probe", err ? err : "(no message)");
		fuzz_fail("probe", text);
	}
	jobspec_free(spec);
	free(err);
	free(text);
	return bad;
}

int fuzz_probe(const uint8_t *data, size_t size)
{
	/* probe_parse reads a C string (the command's captured output). */
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	struct probe_gpu *gpus = NULL;
	size_t n = 0;
	char *err = NULL;
	int bad = 0;
	int rc = probe_parse(text, fuzz_ref(), &gpus, &n, &err);
	if (rc != PLANNER_OK && (!err || gpus || n))
		bad = fuzz_fail("probe", "an error without a message, or with rows");
	bool known = false;
	for (size_t i = 0; i < n; i++)
		known |= gpus[i].gpu != NULL;
	struct probe_host linux_host, mac_host;
	probe_host_linux(text, text, &linux_host);
	probe_host_sysctl(text, &mac_host);
	if (rc == PLANNER_OK && known) {
		char *owned = probe_owned_yaml_host(gpus, n, &linux_host);
		if (owned)
			bad |= read_back(owned);
		free(owned);
		owned = probe_owned_yaml_host(gpus, n, &mac_host);
		if (owned)
			bad |= read_back(owned);
		free(owned);
	}
	free(gpus);
	free(err);
	free(text);
	return bad;
}

#ifdef FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_probe(data, size))
		abort();
	return 0;
}
#endif
