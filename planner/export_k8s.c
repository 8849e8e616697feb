/* export_k8s.c — the owned runs as Kubernetes batch/v1 CronJobs, written
 * with libyaml's emitter as one multi-document stream (`kubectl apply -f`),
 * and serving jobs as Deployments + Services. layout: long file — the batch
 * and the serving objects share this file's static emitter helpers; moving
 * the serving objects to a file of their own needs those helpers in an
 * internal header first (not done yet).
 *
 * What starts a run at its time is the cluster's CronJob controller: the
 * runs of one job that start at the same wall-clock minute for the same
 * hours on the same GPUs (a recurring window: "22:00 on Fridays") are one
 * CronJob whose schedule names their days of the month ("0 22 2,9,16,23
 * 10 *"), in the spec's timeZone (batch/v1 CronJob, Kubernetes 1.27+).
 * Cron has no year, so the CronJobs would fire again a year later: they
 * carry the label planner.dev/month; delete them when the month ends
 * (`kubectl delete cronjob -l planner.dev/month=2026-10`) or apply the next
 * month's export with --prune on that label.
 *
 * Each pod asks for nvidia.com/gpu of one copy of the run: a run of R
 * replicas is a Job of R pods (parallelism and completions R, indexed),
 * each with its own GPUs, never one pod with all of them; runs on other
 * pools are CronJobs of their own. Pods get CPU and memory
 * requests by the rule at K8S_CPUS_PER_GPU, a memory-backed /dev/shm, the
 * weights volume of run.weights at the Hugging Face cache, the
 * tensor-parallel flag of its engine when the command starts that engine,
 * selects nodes by the GPU feature discovery label nvidia.com/gpu.product,
 * and stops after its hours (activeDeadlineSeconds).
 *
 * A serving job (serving: always-on or window) is a service, not runs: an
 * apps/v1 Deployment of its replicas (one replica's GPUs a pod, restarted
 * when it exits) with the engine's port and a readiness probe on its
 * health path, and a v1 Service on that port selecting its pods. A window
 * service scales to zero outside its window: a CronJob pair runs
 * `kubectl scale deployment/NAME --replicas=N` at the window's start and
 * `--replicas=0` at its end on its days, in the spec's timeZone, as a
 * ServiceAccount whose Role may get the Deployment and get, patch and
 * update its scale subresource, nothing else. Chosen over KEDA's cron
 * scaler: these are core objects any cluster has (KEDA's ScaledObject is
 * a CRD to install first), checked by the same offline validator. Every
 * object gets cluster.namespace and every pod cluster.node_selector. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "engines.h"
#include "export.h"
#include "util.h"

/* Kubernetes object names: DNS-1123 labels of at most 63 characters
 * (https://kubernetes.io/docs/concepts/overview/working-with-objects/names/,
 * read 2026-11-30), and a CronJob's at most 52, since the controller
 * appends 11 characters for its Jobs (https://kubernetes.io/docs/concepts/
 * workloads/controllers/cron-jobs/, "Writing a CronJob spec", read
 * 2026-11-30); a job's slug takes at most 40 of them. */
#define K8S_NAME_MAX 52
#define K8S_SLUG_MAX 40

/* Requests per GPU of the run: planner's rule, not a measured need. 4 CPU
 * cores and host memory equal to the GPU's own memory (the weights pass
 * through host memory on the way to the GPUs), well under a DGX H100's
 * per-GPU share of 14 cores and 256 GB (112 cores and 2 TB for 8 GPUs,
 * NVIDIA DGX H100 datasheet; unconfirmed). /dev/shm (NCCL and PyTorch
 * workers between GPUs) is capped at half the memory request. */
#define K8S_CPUS_PER_GPU 4
#define K8S_SHM_SHARE    0.5

/* A CronJob that misses its minute (controller down) still starts within
 * this many seconds, else the run is skipped. planner's choice. */
#define K8S_START_DEADLINE_S 600

/* run.weights when not given, and where the volume is mounted: the
 * Hugging Face cache vLLM, SGLang and transformers read by default
 * (HF_HOME unset: ~/.cache/huggingface, for root). */
#define K8S_DEFAULT_WEIGHTS "pvc:model-weights"
#define K8S_WEIGHTS_MOUNT   "/root/.cache/huggingface"

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

/* The runs a cluster starts: on its own GPUs (a route with a fixed
 * stock, owned). The cloud's and the API's runs (routes that leave the
 * house) are other formats'. */
static bool k8s_writes(const struct sched_run *r)
{
	return route_has(r->route, ROUTE_HAS_CAPACITY);
}

static int k8s_skipped(const struct schedule *s)
{
	return export_skipped_runs(s, k8s_writes, ROUTE_LEAVES_HOUSE);
}

/* What makes runs one CronJob: the same job, wall-clock start minute and
 * month, hours, GPU model and count, and GPUs. */
static bool same_window(const struct sched_run *a, const struct sched_run *b)
{
	time_t la = a->start + a->start_offset, lb = b->start + b->start_offset;
	struct tm ta, tb;
	gmtime_r(&la, &ta);
	gmtime_r(&lb, &tb);
	return k8s_writes(a) && k8s_writes(b) && a->job == b->job &&
	       ta.tm_hour == tb.tm_hour && ta.tm_min == tb.tm_min && ta.tm_mon == tb.tm_mon &&
	       fabs(a->hours - b->hours) < 1e-9 && a->gpu == b->gpu &&
	       a->gpu_count == b->gpu_count && !strcmp(a->resource, b->resource);
}

/* One CronJob: the first run of its window (idx) and what is said of all. */
struct window {
	size_t idx;
	char name[K8S_NAME_MAX + 1], slug[K8S_SLUG_MAX + 1], product[96];
	char schedule[160]; /* "0 22 2,9,16 10 *" */
	char starts[1024];  /* the runs' starts, ISO 8601, space-separated */
	int n_runs;
	double cost;
};

/* The window of run idx: its name (slug and local start "hhmm", -2, -3, …
 * for another window of the same job at the same minute), its cron
 * schedule with a day of the month per run, and the runs' starts. */
static void window_of(const struct schedule *s, size_t idx, const struct k8s_slug *slugs,
                      struct window *w)
{
	const struct sched_run *r = &s->runs[idx];
	time_t local = r->start + r->start_offset;
	struct tm tm;
	gmtime_r(&local, &tm);
	memset(w, 0, sizeof *w);
	w->idx = idx;
	snprintf(w->slug, sizeof w->slug, "%s", slugs[r->job].v);
	int copy = 1;
	for (size_t i = 0; i < idx; i++) {
		const struct sched_run *o = &s->runs[i];
		bool first = true;
		for (size_t k = 0; k < i && first; k++)
			first = !same_window(&s->runs[k], o);
		copy += first && k8s_writes(o) && o->job == r->job &&
		        (o->start + o->start_offset) / 60 % 1440 == local / 60 % 1440;
	}
	char num[16] = "";
	if (copy > 1)
		snprintf(num, sizeof num, "-%d", copy);
	/* slug-HHMM[-N] within K8S_NAME_MAX: the slug gives way should N be
	 * long (the slug's 40 and -HHMM leave 7 characters, -N under 10^6). */
	int len = snprintf(w->name, sizeof w->name, "%s-%02d%02d%s", w->slug, tm.tm_hour,
	                   tm.tm_min, num);
	if (len >= (int)sizeof w->name) {
		int keep = (int)strlen(w->slug) - (len - (int)(sizeof w->name - 1));
		snprintf(w->name, sizeof w->name, "%.*s-%02d%02d%s", keep, w->slug, tm.tm_hour,
		         tm.tm_min, num);
	}
	int n = snprintf(w->schedule, sizeof w->schedule, "%d %d ", tm.tm_min, tm.tm_hour);
	size_t sn = 0;
	for (size_t i = idx; i < s->n_runs; i++) {
		const struct sched_run *o = &s->runs[i];
		if (!same_window(r, o))
			continue;
		time_t lo = o->start + o->start_offset;
		struct tm to;
		gmtime_r(&lo, &to);
		n += snprintf(w->schedule + n, sizeof w->schedule - (size_t)n, "%s%d",
		              w->n_runs ? "," : "", to.tm_mday);
		char iso[32];
		sched_iso(o->start, o->start_offset, iso, sizeof iso);
		sn += (size_t)snprintf(w->starts + sn, sizeof w->starts - sn, "%s%s",
		                       w->n_runs ? " " : "", iso);
		w->n_runs++;
		w->cost += o->cost;
	}
	snprintf(w->schedule + n, sizeof w->schedule - (size_t)n, " %d *", tm.tm_mon + 1);
	gpu_product(r->gpu->name, w->product, sizeof w->product);
}

/* metadata.namespace: cluster.namespace, when the spec names one (a
 * DNS-1123 label, spec_cluster.c); else kubectl's current namespace. */
static void put_namespace(struct emit *e)
{
	if (e->cl && e->cl->namespace_)
		kv(e, "namespace", e->cl->namespace_);
}

static void labels(struct emit *e, const struct schedule *s, const struct window *w)
{
	scalar(e, "labels");
	map_start(e);
	kv(e, "app.kubernetes.io/managed-by", "planner");
	kv(e, "planner.dev/job", w->slug);
	kv(e, "planner.dev/month", s->month);
	map_end(e);
}

/* metadata: the name, labels, and the runs' starts, hours and cost as
 * annotations. */
static void cron_metadata(struct emit *e, const struct schedule *s, const struct window *w)
{
	const struct sched_run *r = &s->runs[w->idx];
	char num[64];
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", w->name);
	put_namespace(e);
	labels(e, s, w);
	scalar(e, "annotations");
	map_start(e);
	kv(e, "planner.dev/job-name", s->jobs[r->job].job->name);
	kv(e, "planner.dev/starts", w->starts);
	snprintf(num, sizeof num, "%.2f", r->hours);
	kv(e, "planner.dev/hours", num);
	snprintf(num, sizeof num, "%.2f %s", w->cost, s->currency);
	kv(e, "planner.dev/cost", num);
	kv(e, "planner.dev/resource", r->resource);
	map_end(e);
	map_end(e);
}

/* The tensor-parallel option of the job's engine, when the command starts
 * that engine and does not set it (the engine's row in engines.c says
 * which option, with its source). NULL for none. */
static const char *tp_flag(const struct job *job, int gpus)
{
	const struct engine *en = job->engine ? engine_find(job->engine) : NULL;
	if (!en)
		en = engine_for(job->task != TASK_INFERENCE, job->precision);
	const char *c = job->run_command;
	if (gpus < 2 || !c)
		return NULL;
	return engine_tp_option(en, c);
}

static void container_command(struct emit *e, const struct job *job, int gpus)
{
	if (!job->run_command)
		return;
	const char *flag = tp_flag(job, gpus);
	char *cmd = flag ? xasprintf("%s %s %d", job->run_command, flag, gpus) : NULL;
	if (flag && !cmd) {
		e->ok = false;
		return;
	}
	scalar(e, "command");
	seq_start(e);
	quoted(e, "/bin/sh");
	quoted(e, "-c");
	quoted(e, cmd ? cmd : job->run_command);
	seq_end(e);
	free(cmd);
}

/* GPUs of one pod: one replica's. */
static int pod_gpus(const struct sched_run *r)
{
	return r->replicas > 1 ? r->gpu_count / r->replicas : r->gpu_count;
}

/* resources: one replica's GPUs as the limit, CPU and memory requests. */
static void container_resources(struct emit *e, const struct sched_run *r)
{
	char num[32];
	int n = pod_gpus(r);
	scalar(e, "resources");
	map_start(e);
	scalar(e, "requests");
	map_start(e);
	snprintf(num, sizeof num, "%d", K8S_CPUS_PER_GPU * n);
	kv(e, "cpu", num);
	snprintf(num, sizeof num, "%.0fGi", ceil(r->gpu->vram_gib) * n);
	kv(e, "memory", num);
	map_end(e);
	scalar(e, "limits");
	map_start(e);
	snprintf(num, sizeof num, "%d", n);
	kv(e, "nvidia.com/gpu", num);
	map_end(e);
	map_end(e);
}

static void mount(struct emit *e, const char *name, const char *path)
{
	map_start(e);
	kv(e, "name", name);
	kv(e, "mountPath", path);
	map_end(e);
}

/* volumes: /dev/shm in memory, and the weights (run.weights). */
static void pod_volumes(struct emit *e, const struct job *job, const struct sched_run *r)
{
	char num[32];
	const char *wt = job->run_weights ? job->run_weights : K8S_DEFAULT_WEIGHTS;
	scalar(e, "volumes");
	seq_start(e);
	map_start(e);
	kv(e, "name", "dshm");
	scalar(e, "emptyDir");
	map_start(e);
	kv(e, "medium", "Memory");
	snprintf(num, sizeof num, "%.0fGi",
	         ceil(ceil(r->gpu->vram_gib) * pod_gpus(r) * K8S_SHM_SHARE));
	kv(e, "sizeLimit", num);
	map_end(e);
	map_end(e);
	map_start(e);
	kv(e, "name", "weights");
	if (!strncmp(wt, "pvc:", 4)) {
		scalar(e, "persistentVolumeClaim");
		map_start(e);
		kv(e, "claimName", wt + 4);
		map_end(e);
	} else {
		scalar(e, "hostPath");
		map_start(e);
		kv(e, "path", wt);
		kv(e, "type", "Directory");
		map_end(e);
	}
	map_end(e);
	seq_end(e);
}

/* A serving engine's HTTP server: what a Service and a readiness probe
 * need. Matched on the run.command's words, else on the job's engine. */
struct serve_engine {
	const char *word;   /* in run.command: "vllm", "llama-server" */
	const char *engine; /* engines.c's name, or NULL */
	const char *name;
	int port;           /* its default port */
	bool loopback;      /* binds 127.0.0.1 unless the command says --host */
};

/* Default ports and health paths, read 2026-12-02:
 * - vLLM: `vllm serve` listens on 0.0.0.0:8000, GET /health answers 200
 *   once the engine is up (docs.vllm.ai, "OpenAI-Compatible Server" and
 *   `vllm serve --help`: --host default all interfaces, --port 8000).
 * - SGLang: sglang.launch_server --port 30000, GET /health; --host
 *   defaults to 127.0.0.1 (docs.sglang.ai "Server Arguments"; the
 *   project's docker/compose.yaml passes --host 0.0.0.0 --port 30000 and
 *   checks curl http://localhost:30000/health).
 * - llama.cpp's llama-server: --host 127.0.0.1, --port 8080 by default,
 *   GET /health (github.com/ggml-org/llama.cpp, tools/server/README.md,
 *   formerly examples/server/README.md).
 * - TGI: text-generation-launcher in ghcr.io/huggingface/text-generation-
 *   inference listens on port 80 in that image, GET /health
 *   (huggingface.co/docs/text-generation-inference, "Quick Tour"). */
static const struct serve_engine serve_engines[] = {
    {"vllm", "vllm", "vLLM", 8000, false},
    {"sglang", "sglang", "SGLang", 30000, true},
    {"llama-server", "llama.cpp", "llama.cpp server", 8080, true},
    {"text-generation-launcher", NULL, "TGI", 80, false},
};
#define SERVE_HEALTH_PATH "/health" /* the same path on all four */

/* The serving engine of job: by run.command, then by its engine; vLLM's
 * when neither says (the default inference engine, engines.c). */
static const struct serve_engine *serve_engine_of(const struct job *job)
{
	size_t n = sizeof serve_engines / sizeof *serve_engines;
	for (size_t i = 0; job->run_command && i < n; i++)
		if (strstr(job->run_command, serve_engines[i].word))
			return &serve_engines[i];
	for (size_t i = 0; job->engine && i < n; i++)
		if (serve_engines[i].engine && !strcmp(job->engine, serve_engines[i].engine))
			return &serve_engines[i];
	return &serve_engines[0];
}

/* The container's port and readiness probe: the engine's health path on
 * its port; ready once the weights are loaded (the probe keeps the pod
 * out of the Service until then, however long that takes). */
static void serve_container(struct emit *e, const struct serve_engine *se)
{
	char num[16];
	snprintf(num, sizeof num, "%d", se->port);
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

/* nodeSelector: the GPU model's label, and cluster.node_selector's. */
static void node_selector(struct emit *e, const char *product)
{
	scalar(e, "nodeSelector");
	map_start(e);
	kv(e, "nvidia.com/gpu.product", product);
	for (size_t i = 0; e->cl && i < e->cl->n_node_selector; i++)
		kv(e, e->cl->node_selector[i].key, e->cl->node_selector[i].value);
	map_end(e);
}

/* The pod's spec: one container of the job's image and command on nodes
 * with its GPU model; a serving pod (se) restarts and has its port and
 * readiness probe, a batch pod runs once. */
static void pod_spec(struct emit *e, const struct job *job, const struct sched_run *r,
                     const char *name, const char *product, const struct serve_engine *se)
{
	scalar(e, "spec");
	map_start(e);
	kv(e, "restartPolicy", se ? "Always" : "Never");
	node_selector(e, product);
	scalar(e, "containers");
	seq_start(e);
	map_start(e);
	kv(e, "name", name);
	kv(e, "image", job->run_image);
	container_command(e, job, pod_gpus(r));
	if (se)
		serve_container(e, se);
	container_resources(e, r);
	scalar(e, "volumeMounts");
	seq_start(e);
	mount(e, "dshm", "/dev/shm");
	mount(e, "weights", K8S_WEIGHTS_MOUNT);
	seq_end(e);
	map_end(e);
	seq_end(e);
	pod_volumes(e, job, r);
	map_end(e);
}

/* jobTemplate: the Job each firing creates. */
static void job_template(struct emit *e, const struct schedule *s, const struct window *w)
{
	const struct sched_run *r = &s->runs[w->idx];
	char num[64];
	scalar(e, "jobTemplate");
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	labels(e, s, w);
	map_end(e);
	scalar(e, "spec");
	map_start(e);
	kv_plain(e, "backoffLimit", "0");
	if (r->replicas > 1) {
		snprintf(num, sizeof num, "%d", r->replicas);
		kv_plain(e, "parallelism", num);
		kv_plain(e, "completions", num);
		kv(e, "completionMode", "Indexed");
	}
	snprintf(num, sizeof num, "%ld", (long)ceil(r->hours * 3600 - 1e-6));
	kv_plain(e, "activeDeadlineSeconds", num);
	scalar(e, "template");
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	labels(e, s, w);
	map_end(e);
	pod_spec(e, s->jobs[r->job].job, r, w->slug, w->product, NULL);
	map_end(e); /* template */
	map_end(e); /* job spec */
	map_end(e); /* jobTemplate */
}

/* A document's start, after a comment line when note is not NULL: the
 * emitter has flushed the document before (it writes a document end at
 * once), so the comment lands between documents, at a line's start. */
static void doc_start(struct emit *e, const char *note)
{
	if (!e->ok)
		return;
	if (note && (!yaml_emitter_flush(&e->em) || !export_comment(e->f, "%s", note))) {
		e->ok = false;
		return;
	}
	yaml_document_start_event_initialize(&e->ev, NULL, NULL, NULL, 0);
	put(e);
	map_start(e);
}

static void doc_end(struct emit *e)
{
	map_end(e);
	if (!e->ok)
		return;
	yaml_document_end_event_initialize(&e->ev, 0);
	put(e);
}

/* One serving job's objects: its name (the job's slug) and what they say. */
struct service {
	const struct job *job;
	const struct sched_run *r; /* its first owned run: GPU model, replicas */
	const struct serve_engine *se;
	char slug[K8S_SLUG_MAX + 1], product[96], sa[K8S_NAME_MAX + 1];
	int replicas;
};

/* Whether job is a service (always-on or window): a Deployment, not runs. */
static bool serving(const struct job *job)
{
	return job->serving == SERVING_ALWAYS_ON || job->serving == SERVING_WINDOW;
}

/* The labels of a service's objects; the Deployment's pods and the
 * Service's selector are planner.dev/job. */
static void serve_labels(struct emit *e, const struct service *sv)
{
	scalar(e, "labels");
	map_start(e);
	kv(e, "app.kubernetes.io/managed-by", "planner");
	kv(e, "planner.dev/job", sv->slug);
	map_end(e);
}

static void serve_metadata(struct emit *e, const struct service *sv, const char *name)
{
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", name);
	put_namespace(e);
	serve_labels(e, sv);
	map_end(e);
}

static void head(struct emit *e, const char *version, const char *kind)
{
	kv(e, "apiVersion", version);
	kv(e, "kind", kind);
}

static void deployment_doc(struct emit *e, const struct schedule *s, const struct service *sv)
{
	char num[96], *note = NULL;
	if (sv->se->loopback &&
	    !(sv->job->run_command && strstr(sv->job->run_command, "--host"))) {
		note = xasprintf("%s binds 127.0.0.1 by default: add --host 0.0.0.0 to run.command "
		                 "or the Service and the readiness probe cannot reach it.",
		                 sv->se->name);
		if (!note) {
			e->ok = false;
			return;
		}
	}
	doc_start(e, note);
	free(note);
	head(e, "apps/v1", "Deployment");
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", sv->slug);
	put_namespace(e);
	serve_labels(e, sv);
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
	scalar(e, "selector");
	map_start(e);
	scalar(e, "matchLabels");
	map_start(e);
	kv(e, "planner.dev/job", sv->slug);
	map_end(e);
	map_end(e);
	scalar(e, "template");
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	serve_labels(e, sv);
	map_end(e);
	pod_spec(e, sv->job, sv->r, sv->slug, sv->product, sv->se);
	map_end(e); /* template */
	map_end(e); /* spec */
	doc_end(e);
}

static void service_doc(struct emit *e, const struct service *sv)
{
	char num[16];
	doc_start(e, NULL);
	head(e, "v1", "Service");
	serve_metadata(e, sv, sv->slug);
	scalar(e, "spec");
	map_start(e);
	scalar(e, "selector");
	map_start(e);
	kv(e, "planner.dev/job", sv->slug);
	map_end(e);
	scalar(e, "ports");
	seq_start(e);
	map_start(e);
	kv(e, "name", "http");
	snprintf(num, sizeof num, "%d", sv->se->port);
	kv_plain(e, "port", num);
	kv(e, "targetPort", "http");
	map_end(e);
	seq_end(e);
	map_end(e);
	doc_end(e);
}

/* The scaler's rights: kubectl scale reads the Deployment (get) and
 * writes its scale subresource (get, patch, update), this one only. */
static void rule(struct emit *e, const char *resource, const char *name, const char *const *verbs)
{
	map_start(e);
	scalar(e, "apiGroups");
	seq_start(e);
	quoted(e, "apps");
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
	doc_start(e, NULL);
	head(e, "v1", "ServiceAccount");
	serve_metadata(e, sv, sv->sa);
	doc_end(e);
	doc_start(e, NULL);
	head(e, "rbac.authorization.k8s.io/v1", "Role");
	serve_metadata(e, sv, sv->sa);
	scalar(e, "rules");
	seq_start(e);
	rule(e, "deployments", sv->slug, get);
	rule(e, "deployments/scale", sv->slug, scale);
	seq_end(e);
	doc_end(e);
	doc_start(e, NULL);
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
	doc_end(e);
}

/* The cron days of mask, shifted by shift days: cron's day of the week is
 * 0 for Sunday, the mask's bit 0 Monday. "1,2,3,4,5" for weekdays. */
static void cron_days(unsigned mask, int shift, char *out, size_t len)
{
	size_t n = 0;
	out[0] = '\0';
	for (int cron = 0; cron < 7; cron++) {
		int bit = ((cron + 6 - shift) % 7 + 7) % 7; /* cron 1 (Mon) is bit 0 */
		if (mask & (1u << bit))
			n += (size_t)snprintf(out + n, len - n, "%s%d", n ? "," : "", cron);
	}
}

/* The scaler image: Kubernetes' own kubectl image, registry.k8s.io/kubectl
 * (added by kubernetes/kubernetes#116672, 2023-03, for every release
 * since; the binary is /bin/kubectl, named as the command so the image's
 * entrypoint does not matter; read 2026-12-02). A
 * kubectl within one minor version of the API server is supported
 * (kubernetes.io/releases/version-skew-policy, "kubectl"): bump the tag
 * with the cluster. planner's choice over bitnami/kubectl, whose free
 * tags Bitnami stopped updating in 2025. */
#define K8S_KUBECTL_IMAGE "registry.k8s.io/kubectl:v1.31.0"

/* A CronJob that sets the Deployment's replicas at minute (after local
 * midnight) on mask's days, shifted by shift. */
static void scale_cron(struct emit *e, const struct schedule *s, const struct service *sv,
                       const char *suffix, int minute, unsigned mask, int shift, int replicas)
{
	char name[K8S_NAME_MAX + 1], days[32], sched[64], num[48], target[64];
	snprintf(name, sizeof name, "%s-%s", sv->slug, suffix);
	cron_days(mask, shift, days, sizeof days);
	snprintf(sched, sizeof sched, "%d %d * * %s", minute % 60, minute / 60, days);
	doc_start(e, NULL);
	head(e, "batch/v1", "CronJob");
	serve_metadata(e, sv, name);
	scalar(e, "spec");
	map_start(e);
	kv(e, "schedule", sched);
	kv(e, "timeZone", s->timezone);
	kv(e, "concurrencyPolicy", "Forbid");
	snprintf(num, sizeof num, "%d", K8S_START_DEADLINE_S);
	kv_plain(e, "startingDeadlineSeconds", num);
	scalar(e, "jobTemplate");
	map_start(e);
	scalar(e, "spec");
	map_start(e);
	kv_plain(e, "backoffLimit", "3");
	scalar(e, "template");
	map_start(e);
	scalar(e, "metadata");
	map_start(e);
	serve_labels(e, sv);
	map_end(e);
	scalar(e, "spec");
	map_start(e);
	kv(e, "serviceAccountName", sv->sa);
	kv(e, "restartPolicy", "OnFailure");
	scalar(e, "containers");
	seq_start(e);
	map_start(e);
	kv(e, "name", "kubectl");
	kv(e, "image", K8S_KUBECTL_IMAGE);
	scalar(e, "command");
	seq_start(e);
	quoted(e, "/bin/kubectl");
	seq_end(e);
	scalar(e, "args");
	seq_start(e);
	quoted(e, "scale");
	snprintf(target, sizeof target, "deployment/%s", sv->slug);
	quoted(e, target);
	snprintf(num, sizeof num, "--replicas=%d", replicas);
	quoted(e, num);
	seq_end(e);
	map_end(e);
	seq_end(e);
	map_end(e); /* pod spec */
	map_end(e); /* template */
	map_end(e); /* job spec */
	map_end(e); /* jobTemplate */
	map_end(e); /* spec */
	doc_end(e);
}

/* A serving job's objects: the Deployment of its replicas and a Service
 * on the engine's port; a window service also scales to zero outside its
 * window, by a CronJob pair and the scaler's ServiceAccount, Role and
 * RoleBinding. */
static void service_docs(struct emit *e, const struct schedule *s, const struct sched_run *r,
                         const struct k8s_slug *slugs)
{
	struct service sv = {.job = s->jobs[r->job].job, .r = r};
	sv.se = serve_engine_of(sv.job);
	sv.replicas = r->replicas > 1 ? r->replicas : 1;
	snprintf(sv.slug, sizeof sv.slug, "%s", slugs[r->job].v);
	snprintf(sv.sa, sizeof sv.sa, "%s-scaler", sv.slug);
	gpu_product(r->gpu->name, sv.product, sizeof sv.product);
	deployment_doc(e, s, &sv);
	service_doc(e, &sv);
	if (sv.job->serving != SERVING_WINDOW)
		return;
	const struct job_schedule *w = &sv.job->sched;
	/* The window ends the next day when it crosses midnight (or ends at
	 * 24:00): the scale-down's days move one on. */
	int shift = w->window_end <= w->window_start || w->window_end == SCHEDULE_MINUTES_PER_DAY;
	scaler_rbac(e, &sv);
	scale_cron(e, s, &sv, "up", w->window_start, w->days_mask, 0, sv.replicas);
	scale_cron(e, s, &sv, "down", w->window_end % SCHEDULE_MINUTES_PER_DAY, w->days_mask, shift, 0);
}

/* Whether run i is its serving job's first owned run (which writes the
 * job's objects; the others are its hours, not objects of their own). */
static bool service_first(const struct schedule *s, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (s->runs[k].job == s->runs[i].job && k8s_writes(&s->runs[k]))
			return false;
	return true;
}

static void cron_doc(struct emit *e, const struct schedule *s, const struct window *w)
{
	char num[32];
	doc_start(e, NULL);
	head(e, "batch/v1", "CronJob");
	cron_metadata(e, s, w);
	scalar(e, "spec");
	map_start(e);
	kv(e, "schedule", w->schedule);
	kv(e, "timeZone", s->timezone);
	kv(e, "concurrencyPolicy", "Forbid");
	snprintf(num, sizeof num, "%d", K8S_START_DEADLINE_S);
	kv_plain(e, "startingDeadlineSeconds", num);
	job_template(e, s, w);
	map_end(e); /* cron spec */
	doc_end(e);
}

/* Whether run i opens its window: no earlier run shares it. */
static bool window_first(const struct schedule *s, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (same_window(&s->runs[k], &s->runs[i]))
			return false;
	return true;
}

static int write_k8s(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	struct emit e = {.ok = true, .f = f, .cl = opts->cluster};
	opts->skipped = 0;
	opts->skipped_runs = k8s_skipped(s);
	if (opts->skipped_runs) {
		/* Before the emitter writes anything: a comment heads the stream. */
		char note[256];
		fprintf(f, "# %s\n",
		        export_skipped_note(s, k8s_writes, ROUTE_LEAVES_HOUSE, "k8s", note,
		                            sizeof note));
	}
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
		if (!k8s_writes(r))
			continue;
		if (!s->jobs[r->job].job->run_image) {
			opts->skipped++;
			continue;
		}
		if (serving(s->jobs[r->job].job)) {
			if (service_first(s, i))
				service_docs(&e, s, r, slugs);
			continue;
		}
		if (!window_first(s, i))
			continue;
		struct window w;
		window_of(s, i, slugs, &w);
		cron_doc(&e, s, &w);
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
		             e.em.error == YAML_WRITER_ERROR || e.em.error == YAML_MEMORY_ERROR ||
		                     e.em.error == YAML_NO_ERROR
		                 ? PLANNER_ESYS
		                 : PLANNER_EINPUT,
		             "cannot write YAML: %s", e.em.problem ? e.em.problem : "write failed");
	yaml_emitter_delete(&e.em);
	free(slugs);
	return rc;
}

/* Kubernetes batch/v1 CronJobs, one per recurring window of owned runs,
 * each firing a Job at the runs' starts, and a Deployment and Service per
 * serving job; runs of a job without run.image are left out and counted
 * as skipped. */
const struct export_format export_format_k8s = {
    .name = "k8s",
    .summary = "batch/v1 CronJobs, owned runs",
    .applies = EXPORT_SCHEDULE,
    .needs = "image",
    .write = write_k8s,
    .skipped_runs = k8s_skipped,
};
