/* probe.h — the NVIDIA GPUs of this machine, read from the output of
 *   nvidia-smi --query-gpu=index,name,memory.total,power.limit
 *              --format=csv,noheader,nounits
 * and mapped to the reference table, so `planner probe` can print an
 * `owned:` block for a job spec. Parsing is separate from running the
 * command so it can be tested on recorded output. */
#ifndef PLANNER_PROBE_H
#define PLANNER_PROBE_H

#include <stddef.h>

#include "refdata.h"

/* The arguments planner passes to nvidia-smi. */
#define PROBE_QUERY_ARGS                                                                           \
	"--query-gpu=index,name,memory.total,power.limit", "--format=csv,noheader,nounits"

struct probe_gpu {
	int index;                  /* nvidia-smi's GPU index */
	char name[96];              /* as nvidia-smi reports it */
	const struct gpu_spec *gpu; /* canonical GPU; NULL when not in the reference table */
	double vram_gib;            /* memory.total (MiB) / 1024; 0 when [N/A] */
	double power_limit_w;       /* power.limit, W; 0 when [N/A] or [Not Supported] */
};

/* Parses nvidia-smi's CSV rows (blank lines skipped). Returns PLANNER_OK
 * and a malloc'd array in *out (NULL when *n is 0), or PLANNER_EINPUT with
 * *err quoting the first line that is not a GPU row, such as the driver's
 * "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA
 * driver" message. */
int probe_parse(const char *text, const struct refdata *ref, struct probe_gpu **out, size_t *n,
		char **err);

/* The `owned:` YAML block for gpus: one entry per canonical GPU with its
 * count, and watts when every such GPU reports the same power limit; GPUs
 * not in the reference table become comment lines naming them. Returns a
 * malloc'd string, or NULL when out of memory. */
char *probe_owned_yaml(const struct probe_gpu *gpus, size_t n);

#endif
