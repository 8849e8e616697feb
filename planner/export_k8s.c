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
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli.h"
#include "export.h"
#include "util.h"

/* Kubernetes object names: DNS-1123 labels of at most 63 characters
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/,
 * read 2026-11-30); a job's slug takes at most 40 of them. */
#define K8S_NAME_MAX 63
#define K8S_SLUG_MAX 40

/* One job's slug, unique within the export. */
struct k8s_slug {
	char v[K8S_SLUG_MAX + 1];
};

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

/* A key and a string value, always double-quoted: a plain `yes`, `on` or
 * `123` reads as a boolean or a number in YAML 1.1, which kubectl's
 * parser follows, and libyaml's emitter would leave them plain. */
static void kv(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	quoted(e, v);
}

/* A key and a value that is meant as a boolean or a number. */
static void kv_plain(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	scalar(e, v);
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
	char name[K8S_NAME_MAX + 1], slug[K8S_SLUG_MAX + 1], start[32], end[32], product[96];
};

/* Each job's slug, unique in the export: "Job A" and "job-a" both slug to
 * "job-a", so the later job in the spec gets "job-a-2" (then -3, …), the
 * same on every export. NULL when out of memory. */
static struct k8s_slug *unique_slugs(const struct schedule *s)
{
	struct k8s_slug *u = calloc(s->n_jobs + 1, sizeof *u);
	for (size_t j = 0; u && j < s->n_jobs; j++) {
		char base[48];
		export_slug(s->jobs[j].job->name, base, sizeof base);
		snprintf(u[j].v, sizeof u[j].v, "%.*s", K8S_SLUG_MAX, base);
		for (int k = 2;; k++) {
			size_t i = 0;
			while (i < j && strcmp(u[i].v, u[j].v))
				i++;
			if (i == j)
				break;
			char suffix[16];
			int w = snprintf(suffix, sizeof suffix, "-%d", k);
			snprintf(u[j].v, sizeof u[j].v, "%.*s%s", K8S_SLUG_MAX - w, base, suffix);
		}
	}
	return u;
}

/* The local start of a run to the minute, as its Job name shows it. */
static long long start_minute(const struct sched_run *r)
{
	return (long long)(r->start + r->start_offset) / 60;
}

static void run_names(const struct schedule *s, size_t idx, const struct k8s_slug *slugs,
                      struct run_names *n)
{
	const struct sched_run *r = &s->runs[idx];
	struct tm tm;
	time_t local = r->start + r->start_offset;
	gmtime_r(&local, &tm);
	snprintf(n->slug, sizeof n->slug, "%s", slugs[r->job].v);
	char when[16];
	strftime(when, sizeof when, "%Y%m%d-%H%M", &tm);
	/* Runs of one job starting in the same minute (copies on two pools):
	 * the later ones get -2, -3, … in the schedule's run order. */
	int copy = 1;
	for (size_t i = 0; i < idx; i++)
		copy += s->runs[i].route == ROUTE_OWNED && s->runs[i].job == r->job &&
		        start_minute(&s->runs[i]) == start_minute(r);
	char name[96], num[16] = "";
	if (copy > 1)
		snprintf(num, sizeof num, "-%d", copy);
	snprintf(name, sizeof name, "%s-%.13s%s", n->slug, when, num);
	snprintf(n->name, sizeof n->name, "%.*s", K8S_NAME_MAX, name);
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
	kv(e, "planner.dev/job-name", s->jobs[r->job].job->name);
	kv(e, "planner.dev/start", n->start);
	kv(e, "planner.dev/end", n->end);
	snprintf(num, sizeof num, "%.2f", r->hours);
	kv(e, "planner.dev/hours", num);
	snprintf(num, sizeof num, "%.2f %s", r->cost, s->currency);
	kv(e, "planner.dev/cost", num);
	kv(e, "planner.dev/resource", r->resource);
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
	kv(e, "nvidia.com/gpu.product", n->product);
	map_end(e);
	scalar(e, "containers");
	seq_start(e);
	map_start(e);
	kv(e, "name", n->slug);
	kv(e, "image", job->run_image);
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
	kv(e, "nvidia.com/gpu", num);
	map_end(e);
	map_end(e);
	map_end(e);
	seq_end(e);
	map_end(e);
}

static void job_doc(struct emit *e, const struct schedule *s, size_t idx,
                    const struct k8s_slug *slugs)
{
	const struct sched_run *r = &s->runs[idx];
	struct run_names n;
	char num[64];
	run_names(s, idx, slugs, &n);
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
	kv_plain(e, "suspend", "true");
	kv_plain(e, "backoffLimit", "0");
	snprintf(num, sizeof num, "%ld", (long)ceil(r->hours * 3600 - 1e-6));
	kv_plain(e, "activeDeadlineSeconds", num);
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
	struct k8s_slug *slugs = unique_slugs(s);
	if (!slugs)
		return set_err(err, PLANNER_ESYS, "out of memory writing YAML");
	if (!yaml_emitter_initialize(&e.em)) {
		free(slugs);
		return set_err(err, PLANNER_ESYS, "out of memory writing YAML");
	}
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
		job_doc(&e, s, i, slugs);
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
	free(slugs);
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
