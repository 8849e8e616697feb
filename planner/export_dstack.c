/* export_dstack.c — the rented runs as dstack task configurations, one
 * document per run: `type: task`, `name`, `image` (run.image),
 * `commands` (run.command), `nodes` for replicas, `resources: gpu`
 * ("NAME:COUNT", one node's GPUs), `spot_policy` (spot or
 * on-demand), `backends` and `regions` (the offer's), and `max_duration`
 * (the run's hours). Field names and values are dstack's pydantic models
 * (github.com/dstackai/dstack, src/dstack/_internal/core/models/
 * configurations.py TaskConfiguration and BaseRunConfiguration,
 * profiles.py ProfileParams and SpotPolicy, backends/base.py BackendType;
 * read 2026-11-30); the tests validate against an extract of them
 * (tests/fixtures/schemas/).
 *
 * `dstack apply -f FILE` takes one configuration, and a run has no start
 * time, so as with the SkyPilot export the file is split into one file
 * per task and each is applied at its start time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/* Planner provider ids and dstack backend names (BackendType, read
 * 2026-11-30: aws, azure, gcp, lambda, runpod, vastai among others; no
 * Scaleway). */
static const char *const dstack_backends[][2] = {
    {"aws", "aws"},       {"gcp", "gcp"},       {"azure", "azure"},
    {"lambda", "lambda"}, {"runpod", "runpod"}, {"vast", "vastai"},
};

static const char *dstack_backend(const char *provider)
{
	for (size_t i = 0; i < sizeof dstack_backends / sizeof dstack_backends[0]; i++)
		if (!strcmp(dstack_backends[i][0], provider))
			return dstack_backends[i][1];
	return NULL;
}

/* "H100:8", or "A100:80GB:8" where the memory tells models apart: dstack's
 * GPU shorthand, name[:memory]:count (dstack docs, "resources.gpu"; read
 * 2026-11-30). The name is SkyPilot's accelerator name, whose "-80GB"
 * suffix becomes the memory part. A memory written for every GPU would
 * have to be the vendor's GB as dstack's catalogue lists it, which the
 * reference data's GiB is not, so it is left out. */
static void dstack_gpu(const struct sched_run *r, int count, char *out, size_t len)
{
	char name[48];
	export_sky_accel(r->gpu->name, name, sizeof name);
	char *dash = strchr(name, '-');
	if (dash) {
		*dash = '\0';
		snprintf(out, len, "%s:%s:%d", name, dash + 1, count);
	} else {
		snprintf(out, len, "%s:%d", name, count);
	}
}

/* torchrun's flags on a dstack task past one node: the node count, rank,
 * GPUs and master address dstack's runner sets on each node
 * (DSTACK_NODES_NUM, DSTACK_NODE_RANK, DSTACK_GPUS_PER_NODE,
 * DSTACK_MASTER_NODE_IP; dstack docs, "Distributed tasks" and
 * examples/distributed-training/torchrun, read 2026-12-02; its port
 * 12345). */
#define DSTACK_TORCHRUN_FLAGS                                                                      \
	"--nnodes=\"$DSTACK_NODES_NUM\" --nproc-per-node=\"$DSTACK_GPUS_PER_NODE\" "              \
	"--node-rank=\"$DSTACK_NODE_RANK\" --master-addr=\"$DSTACK_MASTER_NODE_IP\" "             \
	"--master-port=12345 "

/* False when out of memory. */
static bool write_config(FILE *f, const struct schedule *s, const struct sched_run *r, size_t k)
{
	const struct job *job = s->jobs[r->job].job;
	const char *backend = dstack_backend(r->provider);
	char start[32], end[32], slug[48], gpu[64];
	sched_iso(r->start, r->start_offset, start, sizeof start);
	sched_iso(r->end, r->end_offset, end, sizeof end);
	export_slug(job->name, slug, sizeof slug);
	int replicas = r->replicas > 0 ? r->replicas : 1;
	/* Past one node each replica is `nodes` nodes of the task. */
	int nodes = export_run_nodes(r);
	dstack_gpu(r, r->gpu_count / replicas / nodes, gpu, sizeof gpu);
	long minutes = (long)ceil(r->hours * 60 - 1e-6);
	char *torchrun = NULL;
	if (nodes > 1 && job->task != TASK_INFERENCE && job->run_command &&
	    !(torchrun = export_torchrun(job->run_command, DSTACK_TORCHRUN_FLAGS)))
		return false;
	fputs("---\n", f);
	bool ok = export_comment(f, "task %zu: %s on %s, %s to %s (%.2f h, %.2f %s)", k, job->name,
	                         r->resource, start, end, r->hours, r->cost, s->currency);
	ok &=
	    export_comment(f, "apply at %s: dstack apply -y -d -f task-%02zu.dstack.yml", start, k);
	if (!backend)
		ok &= export_comment(
		    f, "%s is not a dstack backend: no backends or regions are set", r->provider);
	if (nodes > 1)
		ok &= export_comment(f,
		                     "%d nodes of %d GPUs%s: dstack runs a task over several nodes "
		                     "on a fleet with placement: cluster",
		                     nodes, r->gpu_count / replicas / nodes,
		                     torchrun ? ", torchrun on each meeting at DSTACK_MASTER_NODE_IP"
		                              : "");
	fprintf(f, "type: task\nname: %s-%zu\n", slug, k);
	if (replicas * nodes > 1)
		fprintf(f, "nodes: %d\n", replicas * nodes);
	if (job->run_image) {
		fputs("image: ", f);
		export_yaml_str(f, job->run_image);
		fputc('\n', f);
	}
	fputs("commands:\n  - ", f);
	/* dstack wants commands or an image; `true` keeps a job without
	 * run.command valid and says nothing runs. */
	export_yaml_str(f, torchrun ? torchrun : job->run_command ? job->run_command : "true");
	free(torchrun);
	fputc('\n', f);
	fputs("resources:\n  gpu: ", f);
	export_yaml_str(f, gpu);
	fputc('\n', f);
	fprintf(f, "spot_policy: %s\n", r->spot ? "spot" : "on-demand");
	if (backend) {
		fprintf(f, "backends: [%s]\n", backend);
		if (r->region[0]) {
			fputs("regions: [", f);
			export_yaml_str(f, r->region);
			fputs("]\n", f);
		}
	}
	fprintf(f, "max_duration: %ldm\n", minutes < 1 ? 1 : minutes);
	return ok;
}

/* The model name vLLM serves: --served-model-name's, else the model
 * `vllm serve` is given; "" for other engines (dstack's `model:` names the
 * OpenAI-compatible model the service answers for at /v1). */
static void served_model(const struct job *job, const struct serve_engine *se, char *out,
                         size_t len)
{
	const char *c = job->run_command, *p = NULL;
	out[0] = '\0';
	if (!c || strcmp(se->word, "vllm"))
		return;
	if ((p = strstr(c, "--served-model-name")) && (p[19] == ' ' || p[19] == '='))
		p += 20;
	else if ((p = strstr(c, "vllm serve ")))
		p += 11;
	else
		return;
	size_t n = strcspn(p, " ");
	if (n && n < len && *p != '-')
		snprintf(out, len, "%.*s", (int)n, p);
}

/* A serving job as a dstack service (`type: service`, ServiceConfiguration
 * and ServiceConfigurationParams of configurations.py at commit 01fda0fc,
 * read 2026-12-02): `port` the engine's, `replicas` a fixed count (a range
 * needs `scaling` on a requests-per-second target planner does not know),
 * `model` what vLLM serves, an http probe on the engine's health path,
 * and no max_duration (a service stays up). dstack has no time schedule,
 * so a window service says how to start and stop it (cron). */
static bool write_service(FILE *f, const struct schedule *s, size_t i, size_t k)
{
	const struct sched_run *r = &s->runs[i];
	const struct job *job = s->jobs[r->job].job;
	const struct serve_engine *se = export_serve_engine(job);
	const char *backend = dstack_backend(r->provider);
	char start[32], slug[48], gpu[64], up[160], down[96], model[128];
	double hours, cost;
	export_service_totals(s, i, &hours, &cost);
	sched_iso(r->start, r->start_offset, start, sizeof start);
	export_slug(job->name, slug, sizeof slug);
	int replicas = r->replicas > 0 ? r->replicas : 1;
	dstack_gpu(r, r->gpu_count / replicas, gpu, sizeof gpu);
	served_model(job, se, model, sizeof model);
	snprintf(up, sizeof up, "dstack apply -y -d -f task-%02zu.dstack.yml", k);
	snprintf(down, sizeof down, "dstack stop -y %s", slug);
	fputs("---\n", f);
	bool ok = export_comment(f, "service %zu: %s (%s) on %s, %d replica%s, from %s (%.2f h, %.2f %s)",
	                         k, job->name, serving_name(job->serving), r->resource, replicas,
	                         replicas == 1 ? "" : "s", start, hours, cost, s->currency);
	ok &= export_comment(f, "apply at %s: %s; stop: %s", start, up, down);
	ok &= export_service_window_note(f, s, job, "dstack", up, down);
	ok &= export_service_loopback_note(f, job, se);
	if (!backend)
		ok &= export_comment(
		    f, "%s is not a dstack backend: no backends or regions are set", r->provider);
	fprintf(f, "type: service\nname: %s\n", slug);
	if (job->run_image) {
		fputs("image: ", f);
		export_yaml_str(f, job->run_image);
		fputc('\n', f);
	}
	fputs("commands:\n  - ", f);
	export_yaml_str(f, job->run_command ? job->run_command : "true");
	fprintf(f, "\nport: %d\nreplicas: %d\n", export_serve_port(job, se), replicas);
	if (model[0]) {
		fputs("model: ", f);
		export_yaml_str(f, model);
		fputc('\n', f);
	}
	fputs("probes:\n  - type: http\n    url: ", f);
	export_yaml_str(f, SERVE_HEALTH_PATH);
	fputs("\nresources:\n  gpu: ", f);
	export_yaml_str(f, gpu);
	fputc('\n', f);
	fprintf(f, "spot_policy: %s\n", r->spot ? "spot" : "on-demand");
	if (backend) {
		fprintf(f, "backends: [%s]\n", backend);
		if (r->region[0]) {
			fputs("regions: [", f);
			export_yaml_str(f, r->region);
			fputs("]\n", f);
		}
	}
	return ok;
}

static int write_dstack(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	opts->skipped = 0;
	opts->skipped_runs = export_launchable_skipped(s);
	size_t services = export_service_count(s), n = export_task_count(s);
	bool ok = export_comment(f,
	                         "planner schedule for %s: %zu rented run%s as dstack task "
	                         "configurations.",
	                         s->month, n, n == 1 ? "" : "s");
	ok &= export_comment(f, "Times are in %s. dstack applies one configuration per file, so",
	                     s->timezone);
	fputs("# split this one first (task-00.dstack.yml is this header):\n"
	      "#   csplit -s -z -f task- -b '%02d.dstack.yml' THIS_FILE '/^---$/' '{*}'\n"
	      "# and at the time each task's comment gives:\n"
	      "#   dstack apply -y -d -f task-NN.dstack.yml\n",
	      f);
	if (services)
		ok &= export_comment(f, "%zu serving job%s as dstack services (type: service), "
		                     "applied as each one's comment gives.", services,
		                     services == 1 ? "" : "s");
	export_launchable_note(f, s, "dstack");
	ok &= export_launch_docs(f, s, write_config, write_service);
	return ok ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory writing the tasks");
}

/* dstack task configurations, one document per rented run. */
const struct export_format export_format_dstack = {
    .name = "dstack",
    .summary = "dstack tasks, rented runs",
    .applies = EXPORT_SCHEDULE,
    .write = write_dstack,
    .skipped_runs = export_launchable_skipped,
};
