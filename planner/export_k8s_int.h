/* export_k8s_int.h — what the Kubernetes export's two files share
 * (export_k8s.c: the batch CronJobs and the pod spec; export_k8s_serve.c:
 * the serving objects): the libyaml emitter and its small writers, the
 * names' limits, and the helpers each file lends the other. Internal to
 * the k8s export; nothing else includes it. */
#ifndef PLANNER_EXPORT_K8S_INT_H
#define PLANNER_EXPORT_K8S_INT_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "export.h"

/* Kubernetes object names: DNS-1123 labels of at most 63 characters
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/,
 * read 2026-11-30), and a CronJob's at most 52, since the controller
 * appends 11 characters for its Jobs (https://kubernetes.io/docs/concepts/
 * workloads/controllers/cron-jobs/, "Writing a CronJob spec", read
 * 2026-11-30); a job's slug takes at most 40 of them. */
#define K8S_NAME_MAX 52
#define K8S_SLUG_MAX 40


/* A CronJob that misses its minute (controller down) still starts within
 * this many seconds, else the run is skipped. planner's choice. */
#define K8S_START_DEADLINE_S 600

/* The scaler image: Kubernetes' own kubectl image, registry.k8s.io/kubectl
 * (added by kubernetes/kubernetes#116672, 2023-03, for every release
 * since; the binary is /bin/kubectl, named as the command so the image's
 * entrypoint does not matter; read 2026-12-02). A
 * kubectl within one minor version of the API server is supported
 * (kubernetes.io/releases/version-skew-policy, "kubectl"): bump the tag
 * with the cluster. planner's choice over bitnami/kubectl, whose free
 * tags Bitnami stopped updating in 2025. */
#define K8S_KUBECTL_IMAGE "registry.k8s.io/kubectl:v1.31.0"

/* One job's slug, unique within the export. */
struct k8s_slug {
	char v[K8S_SLUG_MAX + 1];
};

struct emit {
	yaml_emitter_t em;
	yaml_event_t ev;
	bool ok;
	FILE *f;                     /* the emitter's output, for comments between documents */
	const struct job_cluster *cl; /* the spec's cluster: (NULL: none) */
};

static inline void put(struct emit *e)
{
	if (e->ok && !yaml_emitter_emit(&e->em, &e->ev))
		e->ok = false;
}

static inline void scalar(struct emit *e, const char *v)
{
	if (!e->ok)
		return;
	/* Plain where libyaml can, quoted where a plain scalar would read as
	 * another type ("true", "4"): the emitter picks, implicit both ways. */
	yaml_scalar_event_initialize(&e->ev, NULL, NULL, (yaml_char_t *)v, (int)strlen(v), 1, 1,
	                             YAML_ANY_SCALAR_STYLE);
	put(e);
}

static inline void quoted(struct emit *e, const char *v)
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
static inline void kv(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	quoted(e, v);
}

/* A key and a value that is meant as a boolean or a number. */
static inline void kv_plain(struct emit *e, const char *k, const char *v)
{
	scalar(e, k);
	scalar(e, v);
}


static inline void map_start(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_mapping_start_event_initialize(&e->ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
	put(e);
}

static inline void map_end(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_mapping_end_event_initialize(&e->ev);
	put(e);
}

static inline void seq_start(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_sequence_start_event_initialize(&e->ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
	put(e);
}

static inline void seq_end(struct emit *e)
{
	if (!e->ok)
		return;
	yaml_sequence_end_event_initialize(&e->ev);
	put(e);
}

static inline void head(struct emit *e, const char *version, const char *kind)
{
	kv(e, "apiVersion", version);
	kv(e, "kind", kind);
}

/* metadata.namespace: cluster.namespace, when the spec names one (a
 * DNS-1123 label, spec_cluster.c); else kubectl's current namespace. */
static inline void put_namespace(struct emit *e)
{
	if (e->cl && e->cl->namespace_)
		kv(e, "namespace", e->cl->namespace_);
}

/* labels: planner's and the job's slug, and the month when not NULL
 * (batch CronJobs carry it; services outlive a month). */
void k8s_labels(struct emit *e, const char *slug, const char *month);
/* "metadata:" holding only those labels (a pod template's). */
void k8s_meta_labels(struct emit *e, const char *slug, const char *month);
/* "template:", its mapping opened, and its metadata's labels: the pod
 * template of a Job or Deployment; the caller writes its spec and closes
 * the mapping. */
void k8s_template_start(struct emit *e, const char *slug, const char *month);

/* A CronJob's "spec:", its mapping opened, with its schedule in timezone,
 * no overlapping runs and the start deadline; the caller closes it. */
void k8s_cron_spec_start(struct emit *e, const char *schedule, const char *timezone);
/* A CronJob's jobTemplate: one kubectl container under ServiceAccount sa
 * running args (NULL-ended), in a pod template labelled slug (and month
 * when not NULL); closed. */
void k8s_kubectl_job(struct emit *e, const char *sa, const char *slug, const char *month,
                     const char *const *args);

/* A document's start, after a comment line when note is not NULL, with
 * its top mapping opened; k8s_doc_end closes both. */
void k8s_doc_start(struct emit *e, const char *note);
void k8s_doc_end(struct emit *e);

/* GPU feature discovery's product label of a GPU model. */
void k8s_gpu_product(const char *gpu, char *out, size_t len);

/* The runs a cluster starts: on its own GPUs (owned). */
bool k8s_writes(const struct sched_run *r);

/* The pod's spec: one container of the job's image and command on nodes
 * with its GPU model; a serving pod (se not NULL) restarts and has its
 * port and readiness probe (k8s_serve_container), a batch pod runs once. */
void k8s_pod_spec(struct emit *e, const struct job *job, const struct sched_run *r,
                  const char *name, const char *product, const struct serve_engine *se);
/* The same, restarting when `restart` whatever se is (a worker pod of a
 * LeaderWorkerSet serves no port and restarts, as a StatefulSet's pods
 * must), and adding the engine's tensor-parallel option only when `tp`
 * (a LeaderWorkerSet's commands carry their own). */
void k8s_pod_spec_as(struct emit *e, const struct job *job, const struct sched_run *r,
                     const char *name, const char *product, const struct serve_engine *se,
                     bool restart, bool tp);

/* export_k8s_serve.c: the container's port and readiness probe; and a
 * serving job's objects (Deployment, Service, and for a window its
 * scaler CronJob pair with ServiceAccount, Role and RoleBinding), written
 * at its first owned run r. */
void k8s_serve_container(struct emit *e, const struct job *job, const struct serve_engine *se);
void k8s_service_docs(struct emit *e, const struct schedule *s, const struct sched_run *r,
                      const struct k8s_slug *slugs);

/* export_k8s_jobset.c: owned run i, a training job over `nodes` nodes,
 * as the k-th JobSet of the export (suspended, its start in a comment). */
void k8s_jobset_doc(struct emit *e, const struct schedule *s, size_t i,
                    const struct k8s_slug *slugs, int nodes, int k);

#endif
