/* export_skypilot.c — the rented runs as SkyPilot task YAML, one task
 * document per run (`resources: cloud, region, accelerators, use_spot`,
 * `num_nodes` for replicas, `run` from run.command, `image_id:
 * docker:IMAGE` from run.image). Field names are those of SkyPilot's
 * task and resources schemas (github.com/skypilot-org/skypilot,
 * sky/utils/schemas.py get_task_schema and get_resources_schema, commit
 * 00052dfe0d132c5ad6aa9a175572b0695f747c80, read 2026-11-30); the tests
 * validate against an extract of them (tests/fixtures/schemas/).
 *
 * SkyPilot reads a file of several YAML documents as one pipeline whose
 * tasks run one after another (sky/utils/dag_utils.py), which is not what
 * a schedule is: each run starts at its own time. So the file is a set of
 * documents to split, one task each (the header says how), and each is
 * launched at its start time with `sky launch`; a file with one rented
 * run is a task as it stands. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/* Planner provider ids and SkyPilot cloud names: SkyPilot's ALL_CLOUDS
 * (sky/skylet/constants.py, read 2026-11-30) lists aws, azure, gcp,
 * lambda, runpod and vast among others; it has no Scaleway. */
static const char *const sky_clouds[][2] = {
    {"aws", "aws"},       {"gcp", "gcp"},       {"azure", "azure"},
    {"lambda", "lambda"}, {"runpod", "runpod"}, {"vast", "vast"},
};

static const char *sky_cloud(const char *provider)
{
	for (size_t i = 0; i < sizeof sky_clouds / sizeof sky_clouds[0]; i++)
		if (!strcmp(sky_clouds[i][0], provider))
			return sky_clouds[i][1];
	return NULL;
}

/* Planner GPU names whose SkyPilot accelerator name is not the name
 * without spaces, as `sky show-gpus` lists them (SkyPilot docs,
 * "Accelerators"; read 2026-11-30; unconfirmed beyond H100, A100-80GB
 * and A100). */
static const char *const sky_accels[][2] = {
    {"H100 SXM", "H100"},   {"H100 PCIe", "H100"},  {"A100 80GB", "A100-80GB"},
    {"A100 40GB", "A100"},  {"RTX A6000", "A6000"}, {"RTX A5000", "A5000"},
    {"RTX A4000", "A4000"},
};

void export_sky_accel(const char *gpu, char *out, size_t len)
{
	for (size_t i = 0; i < sizeof sky_accels / sizeof sky_accels[0]; i++)
		if (!strcmp(sky_accels[i][0], gpu)) {
			snprintf(out, len, "%s", sky_accels[i][1]);
			return;
		}
	size_t n = 0;
	for (; *gpu && n + 1 < len; gpu++)
		if (*gpu != ' ')
			out[n++] = *gpu;
	out[n] = '\0';
}

/* torchrun's flags on a SkyPilot cluster past one node: the node count,
 * GPUs and rank SkyPilot sets on each node, the first node of
 * SKYPILOT_NODE_IPS as the master (SkyPilot docs, "Distributed
 * Multi-Node Jobs", docs.skypilot.co/en/stable/running-jobs/
 * distributed-jobs.html, read 2026-12-02; its example's port 8008). */
#define SKY_TORCHRUN_FLAGS                                                                         \
	"--nnodes=\"$SKYPILOT_NUM_NODES\" --nproc-per-node=\"$SKYPILOT_NUM_GPUS_PER_NODE\" "      \
	"--node-rank=\"$SKYPILOT_NODE_RANK\" --master-addr=\"$MASTER_ADDR\" --master-port=8008 "

/* resources: of one replica (or node), with ports when port > 0. */
static void resources(FILE *f, const struct job *job, const struct sched_run *r, const char *cloud,
                      const char *accel, int replicas, int port)
{
	fputs("resources:\n", f);
	if (cloud) {
		fprintf(f, "  cloud: %s\n", cloud);
		if (r->region[0]) {
			fputs("  region: ", f);
			export_yaml_str(f, r->region);
			fputc('\n', f);
		}
	}
	fputs("  accelerators: \"", f);
	export_yaml_body(f, accel);
	fprintf(f, ":%d\"\n", r->gpu_count / replicas);
	fprintf(f, "  use_spot: %s\n", r->spot ? "true" : "false");
	if (job->run_image) {
		fputs("  image_id: \"docker:", f);
		export_yaml_body(f, job->run_image);
		fputs("\"\n", f);
	}
	if (port > 0)
		fprintf(f, "  ports: %d\n", port);
}

/* False when out of memory. */
static bool write_task(FILE *f, const struct schedule *s, const struct sched_run *r, size_t k)
{
	const struct job *job = s->jobs[r->job].job;
	const char *cloud = sky_cloud(r->provider);
	char start[32], end[32], slug[48], accel[48];
	sched_iso(r->start, r->start_offset, start, sizeof start);
	sched_iso(r->end, r->end_offset, end, sizeof end);
	export_slug(job->name, slug, sizeof slug);
	export_sky_accel(r->gpu->name, accel, sizeof accel);
	int replicas = r->replicas > 0 ? r->replicas : 1;
	fputs("---\n", f);
	bool ok = export_comment(f, "task %zu: %s on %s, %s to %s (%.2f h, %.2f %s)", k, job->name,
	                         r->resource, start, end, r->hours, r->cost, s->currency);
	ok &= export_comment(f, "launch at %s: sky launch -c %s-%zu --down task-%02zu.yaml", start,
	                     slug, k, k);
	if (!cloud)
		ok &= export_comment(f,
		                     "%s is not a SkyPilot cloud: no cloud or region is set, so "
		                     "SkyPilot picks one",
		                     r->provider);
	/* Past one node each replica is `nodes` nodes of the cluster. */
	int nodes = export_run_nodes(r);
	char *torchrun = NULL;
	if (nodes > 1 && job->task != TASK_INFERENCE && job->run_command) {
		torchrun = export_torchrun(job->run_command, SKY_TORCHRUN_FLAGS);
		if (!torchrun)
			return false;
		ok &= export_comment(f,
		                     "%d nodes of %d GPUs: torchrun on each, meeting at the first of "
		                     "SKYPILOT_NODE_IPS",
		                     nodes, r->gpu_count / replicas / nodes);
	}
	fprintf(f, "name: %s-%zu\n", slug, k);
	if (replicas * nodes > 1)
		fprintf(f, "num_nodes: %d\n", replicas * nodes);
	resources(f, job, r, cloud, accel, replicas * nodes, 0);
	if (torchrun) {
		char *run = xasprintf("MASTER_ADDR=$(echo \"$SKYPILOT_NODE_IPS\" | head -n1); %s",
		                      torchrun);
		free(torchrun);
		if (!run)
			return false;
		fputs("run: ", f);
		export_yaml_str(f, run);
		fputc('\n', f);
		free(run);
	} else if (job->run_command) {
		fputs("run: ", f);
		export_yaml_str(f, job->run_command);
		fputc('\n', f);
	} else {
		fputs("# no run.command in the job spec: the cluster starts and waits\n", f);
	}
	return ok;
}

/* A serving job as a SkyServe service (`service:` of SkyPilot's
 * get_service_schema, sky/utils/schemas.py at the commit above): the
 * engine's health path as the readiness probe, its replicas as a fixed
 * count (`replicas`; a replica_policy that scales on load needs
 * target_qps_per_replica, which planner does not know), the engine's port
 * in resources.ports, run.command as `run`. SkyServe has no time schedule,
 * so a window service says how to start and stop it (cron). False when
 * out of memory. */
static bool write_service(FILE *f, const struct schedule *s, size_t i, size_t k)
{
	const struct sched_run *r = &s->runs[i];
	const struct job *job = s->jobs[r->job].job;
	const struct serve_engine *se = export_serve_engine(job);
	const char *cloud = sky_cloud(r->provider);
	char start[32], slug[48], accel[48], up[160], down[96];
	double hours, cost;
	export_service_totals(s, i, &hours, &cost);
	sched_iso(r->start, r->start_offset, start, sizeof start);
	export_slug(job->name, slug, sizeof slug);
	export_sky_accel(r->gpu->name, accel, sizeof accel);
	int replicas = r->replicas > 0 ? r->replicas : 1;
	snprintf(up, sizeof up, "sky serve up -y -n %s task-%02zu.yaml", slug, k);
	snprintf(down, sizeof down, "sky serve down -y %s", slug);
	fputs("---\n", f);
	bool ok = export_comment(f, "service %zu: %s (%s) on %s, %d replica%s, from %s (%.2f h, %.2f %s)",
	                         k, job->name, serving_name(job->serving), r->resource, replicas,
	                         replicas == 1 ? "" : "s", start, hours, cost, s->currency);
	ok &= export_comment(f, "start at %s: %s; stop: %s", start, up, down);
	ok &= export_service_window_note(f, s, job, "SkyServe", up, down);
	ok &= export_service_loopback_note(f, job, se);
	if (!cloud)
		ok &= export_comment(f,
		                     "%s is not a SkyPilot cloud: no cloud or region is set, so "
		                     "SkyPilot picks one",
		                     r->provider);
	fprintf(f, "name: %s\n", slug);
	fputs("service:\n  readiness_probe:\n    path: ", f);
	export_yaml_str(f, SERVE_HEALTH_PATH);
	fprintf(f, "\n  replicas: %d\n", replicas);
	resources(f, job, r, cloud, accel, replicas, export_serve_port(job, se));
	if (job->run_command) {
		fputs("run: ", f);
		export_yaml_str(f, job->run_command);
		fputc('\n', f);
	} else {
		fputs("# no run.command in the job spec: nothing listens on the port\n", f);
	}
	return ok;
}

static int write_skypilot(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	opts->skipped = 0;
	opts->skipped_runs = export_launchable_skipped(s);
	size_t services = export_service_count(s), n = export_task_count(s);
	bool ok = export_comment(f, "planner schedule for %s: %zu rented run%s as SkyPilot tasks.",
	                         s->month, n, n == 1 ? "" : "s");
	ok &= export_comment(f, "Times are in %s. Each document below is one task; SkyPilot would",
	                     s->timezone);
	fputs("# read the whole file as a pipeline run one task after another, so\n"
	      "# split it first, then launch each task at its start time:\n"
	      "#   csplit -s -z -f task- -b '%02d.yaml' THIS_FILE '/^---$/' '{*}'\n"
	      "# (task-00.yaml is this header; task N is task-NN.yaml) and at the\n"
	      "# time each task's comment gives: sky launch -c NAME --down task-NN.yaml\n",
	      f);
	if (services)
		ok &= export_comment(f, "%zu serving job%s as SkyServe services: sky serve up, "
		                     "as each service's comment gives.", services,
		                     services == 1 ? "" : "s");
	export_launchable_note(f, s, "skypilot");
	ok &= export_launch_docs(f, s, write_task, write_service);
	return ok ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory writing the tasks");
}

/* SkyPilot task YAML, one document per rented run. */
const struct export_format export_format_skypilot = {
    .name = "skypilot",
    .summary = "SkyPilot tasks, rented runs",
    .applies = EXPORT_SCHEDULE,
    .write = write_skypilot,
    .skipped_runs = export_launchable_skipped,
};

/* A route SkyPilot and dstack launch: cloud GPUs by the hour (rented). */
static bool launch_route(const struct sched_run *r)
{
	return route_has(r->route, ROUTE_HOURLY | ROUTE_ON_GPUS);
}

/* What they leave to other formats on purpose: a cluster's own GPUs
 * (owned) and a third party's service (the API). */
#define LAUNCH_LEAVES (ROUTE_HAS_CAPACITY | ROUTE_THIRD_PARTY)

bool export_launchable(const struct sched_run *r)
{
	return launch_route(r) && r->gpu;
}

int export_launchable_skipped(const struct schedule *s)
{
	return export_skipped_runs(s, launch_route, LAUNCH_LEAVES);
}

void export_launchable_note(FILE *f, const struct schedule *s, const char *format)
{
	char note[256];
	if (export_skipped_note(s, launch_route, LAUNCH_LEAVES, format, note, sizeof note)[0])
		fprintf(f, "# %s\n", note);
}

size_t export_launchable_count(const struct schedule *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_runs; i++)
		n += export_launchable(&s->runs[i]);
	return n;
}
