/* export_k8s.c — the owned runs as Kubernetes batch/v1 Jobs, written with
 * libyaml's emitter as one multi-document stream (`kubectl apply -f`).
 *
 * A Job starts when it is created, so each is created suspended
 * (spec.suspend, Kubernetes 1.24+) with its start, end and cost as
 * annotations; unsuspend it at planner.dev/start (the README shows a
 * one-line loop). It asks for nvidia.com/gpu of its run, selects nodes by
 * the GPU feature discovery label nvidia.com/gpu.product, and stops after
 * its hours (activeDeadlineSeconds once running). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "cli.h"
#include "export.h"
#include "util.h"

/* Kubernetes object names: DNS-1123 labels of at most 63 characters. */
#define K8S_NAME_MAX 63

struct emit {
	yaml_emitter_t em;
	yaml_event_t ev;
	bool ok;
};

static void put(struct emit *e)
{
	if (e->ok && !yaml_emitter_emit(&e->em, &e->ev))
		e->ok = false;
}

static void scalar(struct emit *e, const char *v)
{
	if (!e->ok)
		return;
	/* Plain where libyaml can, quoted where a plain scalar would read as
	 * another type ("true", "4"): the emitter picks, implicit both ways. */
	yaml_scalar_event_initialize(&e->ev, NULL, NULL, (yaml_char_t *)v, (int)strlen(v), 1, 1,
	                             YAML_ANY_SCALAR_STYLE);
	put(e);
}

static void quoted(struct emit *e, const char *v)
{
	if (!e->ok)
		return;
	yaml_scalar_event_initialize(&e->ev, NULL, NULL, (yaml_char_t *)v, (int)strlen(v), 0, 1,
	                             YAML_DOUBLE_QUOTED_SCALAR_STYLE);
	put(e);
}

static void kv(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	scalar(e, v);
}

static void kq(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	quoted(e, v);
}

static void map_start(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_mapping_start_event_initialize(&e->ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	put(e);
}

static void map_end(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_mapping_end_event_initialize(&e->ev);
	put(e);
}

static void seq_start(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_sequence_start_event_initialize(&e->ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	put(e);
}

static void seq_end(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_sequence_end_event_initialize(&e->ev);
	put(e);
}

/* GPU feature discovery's product label: "NVIDIA-" and the model with
 * dashes, GeForce cards as "NVIDIA-GeForce-RTX-4090". Check yours with
 * `kubectl get nodes -L nvidia.com/gpu.product`. */
static void gpu_product(const char *gpu, char *out, size_t len)
{
	bool geforce = !strncmp(gpu, "RTX ", 4) && gpu[4] >= '1' && gpu[4] <= '9';
	size_t n = (size_t)snprintf(out, len, "NVIDIA-%s", geforce ? "GeForce-" : "");
	for (; *gpu && n + 1 < len; gpu++) {
		char ch = *gpu;
		bool ok = (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		          (ch >= '0' && ch <= '9') || ch == '.' || ch == '_';
		out[n++] = ok ? ch : '-';
	}
	out[n < len ? n : len - 1] = '\0';
}

/* The Job's names for one run: its object name (slug and local start),
 * the job's slug, start and end with their offsets, and the node label. */
struct run_names {
	char name[K8S_NAME_MAX + 1], slug[48], start[32], end[32], product[96];
};

static void run_names(const struct schedule *s, const struct sched_run *r, struct run_names *n)
{
	struct tm tm;
	time_t local = r->start + r->start_offset;
	gmtime_r(&local, &tm);
	export_slug(s->jobs[r->job].job->name, n->slug, sizeof n->slug);
	char when[16];
	strftime(when, sizeof when, "%Y%m%d-%H%M", &tm);
	snprintf(n->name, sizeof n->name, "%.40s-%.13s", n->slug, when);
	sched_iso(r->start, r->start_offset, n->start, sizeof n->start);
	sched_iso(r->end, r->end_offset, n->end, sizeof n->end);
	gpu_product(r->gpu->name, n->product, sizeof n->product);
}

static void labels(struct emit *e, const struct run_names *n)
{
	scalar(e, "labels");
	map_start(e);
	kv(e, "app.kubernetes.io/managed-by", "planner");
	kv(e, "planner.dev/job", n->slug);
	map_end(e);
}

/* metadata: the name, labels, and the run's start, end, hours and cost as
 * annotations. */
static void job_metadata(struct emit *e, const struct schedule *s, const struct sched_run *r,
                         const struct run_names *n)
{
	char num[64];
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", n->name);
	labels(e, n);
	scalar(e, "annotations");
	map_start(e);
	kq(e, "planner.dev/job-name", s->jobs[r->job].job->name);
	kq(e, "planner.dev/start", n->start);
	kq(e, "planner.dev/end", n->end);
	snprintf(num, sizeof num, "%.2f", r->hours);
	kq(e, "planner.dev/hours", num);
	snprintf(num, sizeof num, "%.2f %s", r->cost, s->currency);
	kq(e, "planner.dev/cost", num);
	kq(e, "planner.dev/resource", r->resource);
	map_end(e);
	map_end(e);
}

/* spec.template.spec: one container of the job's image and command,
 * limited to the run's GPUs, on nodes with its GPU model. */
static void pod_spec(struct emit *e, const struct job *job, const struct sched_run *r,
                     const struct run_names *n)
{
	char num[32];
	scalar(e, "spec");
	map_start(e);
	kv(e, "restartPolicy", "Never");
	scalar(e, "nodeSelector");
	map_start(e);
	kq(e, "nvidia.com/gpu.product", n->product);
	map_end(e);
	scalar(e, "containers");
	seq_start(e);
	map_start(e);
	kv(e, "name", n->slug);
	kq(e, "image", job->run_image);
	if (job->run_command) {
		scalar(e, "command");
		seq_start(e);
		quoted(e, "/bin/sh");
		quoted(e, "-c");
		quoted(e, job->run_command);
		seq_end(e);
	}
	scalar(e, "resources");
	map_start(e);
	scalar(e, "limits");
	map_start(e);
	snprintf(num, sizeof num, "%d", r->gpu_count);
	kq(e, "nvidia.com/gpu", num);
	map_end(e);
	map_end(e);
	map_end(e);
	seq_end(e);
	map_end(e);
}

static void job_doc(struct emit *e, const struct schedule *s, const struct sched_run *r)
{
	struct run_names n;
	char num[64];
	run_names(s, r, &n);
	if (!e->ok)
		return;
	yaml_document_start_event_initialize(&e->ev, NULL, NULL, NULL, 0);
	put(e);
	map_start(e);
	kv(e, "apiVersion", "batch/v1");
	kv(e, "kind", "Job");
	job_metadata(e, s, r, &n);
	scalar(e, "spec");
	map_start(e);
	kv(e, "suspend", "true");
	kv(e, "backoffLimit", "0");
	snprintf(num, sizeof num, "%ld", (long)ceil(r->hours * 3600 - 1e-6));
	kv(e, "activeDeadlineSeconds", num);
	scalar(e, "template");
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	labels(e, &n);
	map_end(e);
	pod_spec(e, s->jobs[r->job].job, r, &n);
	map_end(e); /* template */
	map_end(e); /* job spec */
	map_end(e);
	if (!e->ok)
		return;
	yaml_document_end_event_initialize(&e->ev, 0);
	put(e);
}

static int write_k8s(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	struct emit e = {.ok = true};
	opts->skipped = 0;
	if (!yaml_emitter_initialize(&e.em))
		return set_err(err, PLANNER_ESYS, "out of memory writing YAML");
	yaml_emitter_set_output_file(&e.em, f);
	yaml_emitter_set_unicode(&e.em, 1);
	yaml_emitter_set_width(&e.em, -1);
	yaml_stream_start_event_initialize(&e.ev, YAML_UTF8_ENCODING);
	put(&e);
	for (size_t i = 0; i < s->n_runs && e.ok; i++) {
		const struct sched_run *r = &s->runs[i];
		if (r->route != ROUTE_OWNED)
			continue;
		if (!s->jobs[r->job].job->run_image) {
			opts->skipped++;
			continue;
		}
		job_doc(&e, s, r);
	}
	if (e.ok) {
		yaml_stream_end_event_initialize(&e.ev);
		put(&e);
	}
	int rc = PLANNER_OK;
	if (!e.ok || !yaml_emitter_flush(&e.em))
		/* The emitter fails on a write or on memory; anything else would
		 * be a bug in the events above. */
		rc = set_err(err,
		             e.em.error == YAML_WRITER_ERROR || e.em.error == YAML_MEMORY_ERROR
		                 ? PLANNER_ESYS
		                 : PLANNER_EINPUT,
		             "cannot write YAML: %s", e.em.problem ? e.em.problem : "write failed");
	yaml_emitter_delete(&e.em);
	return rc;
}

/* Kubernetes batch/v1 Jobs, one per owned run, created suspended with the
 * start as an annotation; runs of a job without run.image are left out and
 * counted as skipped. */
const struct export_format export_format_k8s = {
    .name = "k8s",
    .summary = "batch/v1 Jobs, owned runs",
    .applies = EXPORT_SCHEDULE,
    .needs = "image",
    .write = write_k8s,
};
