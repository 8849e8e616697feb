/* export_k8s_serve.c — a serving job (serving: always-on or window) in
 * the Kubernetes export: a service, not runs. An apps/v1 Deployment of
 * its replicas (one replica's GPUs a pod, restarted when it exits) with
 * the engine's port and a readiness probe on its health path, and a v1
 * Service on that port selecting its pods. A window service scales to
 * zero outside its window: a CronJob pair runs `kubectl scale
 * deployment/NAME --replicas=N` at the window's start and `--replicas=0`
 * at its end on its days, in the spec's timeZone, as a ServiceAccount
 * whose Role may get the Deployment and get, patch and update its scale
 * subresource, nothing else. Chosen over KEDA's cron scaler: these are
 * core objects any cluster has (KEDA's ScaledObject is a CRD to install
 * first), checked by the same offline validator. The pod spec is the
 * batch export's (export_k8s.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "export_k8s_int.h"
#include "util.h"

/* The container's port and readiness probe: the engine's health path on
 * its port; ready once the weights are loaded (the probe keeps the pod
 * out of the Service until then, however long that takes). */
void k8s_serve_container(struct emit *e, const struct job *job, const struct serve_engine *se)
{
	char num[16];
	snprintf(num, sizeof num, "%d", export_serve_port(job, se));
	scalar(e, "ports");
	seq_start(e);
	map_start(e);
	kv(e, "name", "http");
	kv_plain(e, "containerPort", num);
	map_end(e);
	seq_end(e);
	scalar(e, "readinessProbe");
	map_start(e);
	scalar(e, "httpGet");
	map_start(e);
	kv(e, "path", SERVE_HEALTH_PATH);
	kv(e, "port", "http");
	map_end(e);
	kv_plain(e, "periodSeconds", "10");
	map_end(e);
}

/* One serving job's objects: its name (the job's slug) and what they say. */
struct service {
	const struct job *job;
	const struct sched_run *r; /* its first owned run: GPU model, replicas */
	const struct serve_engine *se;
	char slug[K8S_SLUG_MAX + 1], product[96], sa[K8S_NAME_MAX + 1];
	int replicas, port;
	int nodes; /* nodes one replica spans: > 1, a LeaderWorkerSet */
};

/* The kind and API group that hold the replicas, for kubectl scale and
 * the scaler's Role. */
static const char *replica_kind(const struct service *sv)
{
	return sv->nodes > 1 ? "leaderworkerset" : "deployment";
}

static const char *replica_group(const struct service *sv)
{
	return sv->nodes > 1 ? "leaderworkerset.x-k8s.io" : "apps";
}

/* A serving object's document up to its spec's replicas: the note as its
 * comment, apiVersion and kind, the metadata with the job's annotations;
 * leaves the spec's map open. */
static void service_head(struct emit *e, const struct schedule *s, const struct service *sv,
                         const char *api_version, const char *kind, const char *note)
{
	char num[32];
	k8s_doc_start(e, note);
	head(e, api_version, kind);
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", sv->slug);
	put_namespace(e);
	k8s_labels(e, sv->slug, NULL);
	scalar(e, "annotations");
	map_start(e);
	kv(e, "planner.dev/job-name", sv->job->name);
	kv(e, "planner.dev/serving", sv->job->serving == SERVING_WINDOW ? "window" : "always-on");
	kv(e, "planner.dev/engine", sv->se->name);
	kv(e, "planner.dev/resource", sv->r->resource);
	kv(e, "planner.dev/month", s->month);
	map_end(e);
	map_end(e);
	scalar(e, "spec");
	map_start(e);
	snprintf(num, sizeof num, "%d", sv->replicas);
	kv_plain(e, "replicas", num);
}

/* A service's objects carry no month: they outlive it. */
static void serve_metadata(struct emit *e, const struct service *sv, const char *name)
{
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", name);
	put_namespace(e);
	k8s_labels(e, sv->slug, NULL);
	map_end(e);
}

static void deployment_doc(struct emit *e, const struct schedule *s, const struct service *sv)
{
	char *note = NULL;
	if (export_serve_loopback(sv->job, sv->se)) {
		note = xasprintf("%s binds 127.0.0.1 by default: add --host 0.0.0.0 to run.command "
		                 "or the Service and the readiness probe cannot reach it.",
		                 sv->se->name);
		if (!note) {
			e->ok = false;
			return;
		}
	}
	service_head(e, s, sv, "apps/v1", "Deployment", note);
	free(note);
	scalar(e, "selector");
	map_start(e);
	scalar(e, "matchLabels");
	map_start(e);
	kv(e, "planner.dev/job", sv->slug);
	map_end(e);
	map_end(e);
	k8s_template_start(e, sv->slug, NULL);
	k8s_pod_spec(e, sv->job, sv->r, sv->slug, sv->product, sv->se);
	map_end(e); /* template */
	map_end(e); /* spec */
	k8s_doc_end(e);
}

/* The nodes one replica of run r spans: its GPUs over cluster.gpus_per_node,
 * else over its GPU's node (export_run_nodes). */
static int k8s_serve_nodes(const struct emit *e, const struct sched_run *r)
{
	int per = e->cl && e->cl->gpus_per_node ? e->cl->gpus_per_node : 0;
	if (per <= 0)
		return export_run_nodes(r);
	int gpus = r->gpu_count / (r->replicas > 0 ? r->replicas : 1);
	return gpus > per ? (gpus + per - 1) / per : 1;
}

/* vLLM over several nodes in a LeaderWorkerSet: the vLLM image's
 * multi-node-serving.sh starts a Ray head on the leader for the group's
 * LWS_GROUP_SIZE pods and Ray workers joining LWS_LEADER_ADDRESS, which
 * LeaderWorkerSet sets in every pod; the leader then runs the server with
 * tensor parallel over a node and one pipeline stage a node (the LWS vLLM
 * example, github.com/kubernetes-sigs/lws docs/examples/vllm/GPU/lws.yaml
 * at commit 060ab4da17eea1f0865fcbd3236bb1075e2cea32, read 2026-12-02).
 * Kubernetes expands $(VAR) in a container's command. */
#define VLLM_MULTINODE_SCRIPT "bash /vllm-workspace/examples/online_serving/multi-node-serving.sh"

/* One pod template of the LeaderWorkerSet: the leader serves (port,
 * readiness probe, run.command), a worker joins it. */
static void lws_template(struct emit *e, const struct service *sv, const char *key, bool leader,
                         int gpus)
{
	struct sched_run node = *sv->r;
	node.gpu_count = gpus;
	node.replicas = 1;
	struct job per = *sv->job;
	char *cmd = NULL;
	bool vllm = sv->job->run_command && !strcmp(sv->se->word, "vllm");
	if (vllm && leader) {
		const struct engine *en = sv->job->engine ? engine_find(sv->job->engine) : NULL;
		const char *tp = engine_tp_option(en ? en : engine_for(false, sv->job->precision),
		                                  sv->job->run_command);
		char tps[48] = "";
		if (tp)
			snprintf(tps, sizeof tps, " %s %d", tp, gpus);
		cmd = xasprintf("%s leader --ray_cluster_size=$(LWS_GROUP_SIZE); %s%s "
		                "--pipeline-parallel-size %d",
		                VLLM_MULTINODE_SCRIPT, sv->job->run_command, tps, sv->nodes);
	} else if (vllm) {
		cmd = xasprintf("%s worker --ray_address=$(LWS_LEADER_ADDRESS)", VLLM_MULTINODE_SCRIPT);
	}
	if (vllm && !cmd) {
		e->ok = false;
		return;
	}
	if (cmd)
		per.run_command = cmd;
	scalar(e, key);
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	scalar(e, "labels");
	map_start(e);
	kv(e, "app.kubernetes.io/managed-by", "planner");
	kv(e, "planner.dev/job", sv->slug);
	kv(e, "planner.dev/role", leader ? "leader" : "worker");
	map_end(e);
	map_end(e);
	k8s_pod_spec_as(e, &per, &node, sv->slug, sv->product, leader ? sv->se : NULL, true,
	                !vllm);
	map_end(e);
	free(cmd);
}

/* A serving instance past one node: a LeaderWorkerSet
 * (leaderworkerset.x-k8s.io/v1, github.com/kubernetes-sigs/lws; its CRD
 * config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml at the
 * commit above, which the tests validate against) of the service's
 * replicas, each a group of one pod a node (size), the group recreated
 * when one of its pods restarts. */
static void lws_doc(struct emit *e, const struct schedule *s, const struct service *sv)
{
	char num[96];
	int gpus = sv->r->gpu_count / sv->replicas / sv->nodes;
	char *note = xasprintf("%s: each replica %d nodes of %d %s, one pod a node%s", sv->job->name,
	                       sv->nodes, gpus, sv->r->gpu->name,
	                       strcmp(sv->se->word, "vllm")
	                           ? "; run.command must start the engine's own multi-node server "
	                             "on the leader and its workers"
	                           : ", vLLM over Ray");
	if (!note) {
		e->ok = false;
		return;
	}
	service_head(e, s, sv, "leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet", note);
	free(note);
	scalar(e, "leaderWorkerTemplate");
	map_start(e);
	snprintf(num, sizeof num, "%d", sv->nodes);
	kv_plain(e, "size", num);
	kv(e, "restartPolicy", "RecreateGroupOnPodRestart");
	lws_template(e, sv, "leaderTemplate", true, gpus);
	lws_template(e, sv, "workerTemplate", false, gpus);
	map_end(e); /* leaderWorkerTemplate */
	map_end(e); /* spec */
	k8s_doc_end(e);
}

static void service_doc(struct emit *e, const struct service *sv)
{
	char num[16];
	k8s_doc_start(e, NULL);
	head(e, "v1", "Service");
	serve_metadata(e, sv, sv->slug);
	scalar(e, "spec");
	map_start(e);
	scalar(e, "selector");
	map_start(e);
	kv(e, "planner.dev/job", sv->slug);
	if (sv->nodes > 1) /* the leader serves; its workers hold layers */
		kv(e, "planner.dev/role", "leader");
	map_end(e);
	scalar(e, "ports");
	seq_start(e);
	map_start(e);
	kv(e, "name", "http");
	snprintf(num, sizeof num, "%d", sv->port);
	kv_plain(e, "port", num);
	kv(e, "targetPort", "http");
	map_end(e);
	seq_end(e);
	map_end(e);
	k8s_doc_end(e);
}

/* The scaler's rights: kubectl scale reads the Deployment (get) and
 * writes its scale subresource (get, patch, update), this one only. */
static void rule(struct emit *e, const char *group, const char *resource, const char *name,
                 const char *const *verbs)
{
	map_start(e);
	scalar(e, "apiGroups");
	seq_start(e);
	quoted(e, group);
	seq_end(e);
	scalar(e, "resources");
	seq_start(e);
	quoted(e, resource);
	seq_end(e);
	scalar(e, "resourceNames");
	seq_start(e);
	quoted(e, name);
	seq_end(e);
	scalar(e, "verbs");
	seq_start(e);
	for (; *verbs; verbs++)
		quoted(e, *verbs);
	seq_end(e);
	map_end(e);
}

static void scaler_rbac(struct emit *e, const struct service *sv)
{
	static const char *const get[] = {"get", NULL};
	static const char *const scale[] = {"get", "patch", "update", NULL};
	k8s_doc_start(e, NULL);
	head(e, "v1", "ServiceAccount");
	serve_metadata(e, sv, sv->sa);
	k8s_doc_end(e);
	k8s_doc_start(e, NULL);
	head(e, "rbac.authorization.k8s.io/v1", "Role");
	serve_metadata(e, sv, sv->sa);
	scalar(e, "rules");
	seq_start(e);
	char res[48];
	snprintf(res, sizeof res, "%ss", replica_kind(sv));
	rule(e, replica_group(sv), res, sv->slug, get);
	snprintf(res, sizeof res, "%ss/scale", replica_kind(sv));
	rule(e, replica_group(sv), res, sv->slug, scale);
	seq_end(e);
	k8s_doc_end(e);
	k8s_doc_start(e, NULL);
	head(e, "rbac.authorization.k8s.io/v1", "RoleBinding");
	serve_metadata(e, sv, sv->sa);
	scalar(e, "roleRef");
	map_start(e);
	kv(e, "apiGroup", "rbac.authorization.k8s.io");
	kv(e, "kind", "Role");
	kv(e, "name", sv->sa);
	map_end(e);
	scalar(e, "subjects");
	seq_start(e);
	map_start(e);
	kv(e, "kind", "ServiceAccount");
	kv(e, "name", sv->sa);
	put_namespace(e);
	map_end(e);
	seq_end(e);
	k8s_doc_end(e);
}


/* A CronJob that sets the Deployment's replicas at minute (after local
 * midnight) on mask's days, shifted by shift. */
static void scale_cron(struct emit *e, const struct schedule *s, const struct service *sv,
                       const char *suffix, int minute, unsigned mask, int shift, int replicas)
{
	char name[K8S_NAME_MAX + 1], days[32], sched[64], num[48], target[64];
	snprintf(name, sizeof name, "%s-%s", sv->slug, suffix);
	export_cron_days(mask, shift, days, sizeof days);
	snprintf(sched, sizeof sched, "%d %d * * %s", minute % 60, minute / 60, days);
	k8s_doc_start(e, NULL);
	head(e, "batch/v1", "CronJob");
	serve_metadata(e, sv, name);
	k8s_cron_spec_start(e, sched, s->timezone);
	snprintf(target, sizeof target, "%s/%s", replica_kind(sv), sv->slug);
	snprintf(num, sizeof num, "--replicas=%d", replicas);
	const char *args[] = {"scale", target, num, NULL};
	k8s_kubectl_job(e, sv->sa, sv->slug, NULL, args);
	map_end(e); /* spec */
	k8s_doc_end(e);
}

/* A serving job's objects: the Deployment of its replicas and a Service
 * on the engine's port; a window service also scales to zero outside its
 * window, by a CronJob pair and the scaler's ServiceAccount, Role and
 * RoleBinding. */
void k8s_service_docs(struct emit *e, const struct schedule *s, const struct sched_run *r,
                      const struct k8s_slug *slugs)
{
	struct service sv = {.job = s->jobs[r->job].job, .r = r};
	sv.se = export_serve_engine(sv.job);
	sv.port = export_serve_port(sv.job, sv.se);
	sv.replicas = r->replicas > 1 ? r->replicas : 1;
	snprintf(sv.slug, sizeof sv.slug, "%s", slugs[r->job].v);
	snprintf(sv.sa, sizeof sv.sa, "%s-scaler", sv.slug);
	k8s_gpu_product(r->gpu->name, sv.product, sizeof sv.product);
	sv.nodes = k8s_serve_nodes(e, r);
	if (sv.nodes > 1)
		lws_doc(e, s, &sv);
	else
		deployment_doc(e, s, &sv);
	service_doc(e, &sv);
	if (sv.job->serving != SERVING_WINDOW)
		return;
	const struct job_schedule *w = &sv.job->sched;
	int shift = export_window_end_shift(w);
	scaler_rbac(e, &sv);
	scale_cron(e, s, &sv, "up", w->window_start, w->days_mask, 0, sv.replicas);
	scale_cron(e, s, &sv, "down", w->window_end % SCHEDULE_MINUTES_PER_DAY, w->days_mask, shift, 0);
}
