/* export_k8s.c — the owned runs as Kubernetes batch/v1 CronJobs, written
 * with libyaml's emitter as one multi-document stream (`kubectl apply -f`),
 * and serving jobs as Deployments + Services (export_k8s_serve.c; the
 * emitter and the helpers both files use are in export_k8s_int.h).
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
 * A serving job (serving: always-on or window) is a service, not runs:
 * export_k8s_serve.c writes its objects. Every object gets
 * cluster.namespace and every pod cluster.node_selector. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "engines.h"
#include "export_k8s_int.h"
#include "util.h"

/* Requests per GPU of the run: planner's rule, not a measured need. 4 CPU
 * cores and host memory equal to the GPU's own memory (the weights pass
 * through host memory on the way to the GPUs), well under a DGX H100's
 * per-GPU share of 14 cores and 256 GB (112 cores and 2 TB for 8 GPUs,
 * NVIDIA DGX H100 datasheet; unconfirmed). /dev/shm (NCCL and PyTorch
 * workers between GPUs) is capped at half the memory request. */
#define K8S_CPUS_PER_GPU 4
#define K8S_SHM_SHARE    0.5


/* run.weights when not given, and where the volume is mounted: the
 * Hugging Face cache vLLM, SGLang and transformers read by default
 * (HF_HOME unset: ~/.cache/huggingface, for root). */
#define K8S_DEFAULT_WEIGHTS "pvc:model-weights"
#define K8S_WEIGHTS_MOUNT   "/root/.cache/huggingface"


/* GPU feature discovery's product label: "NVIDIA-" and the model with
 * dashes, GeForce cards as "NVIDIA-GeForce-RTX-4090". Check yours with
 * `kubectl get nodes -L nvidia.com/gpu.product`. */
void k8s_gpu_product(const char *gpu, char *out, size_t len)
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
bool k8s_writes(const struct sched_run *r)
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
	k8s_gpu_product(r->gpu->name, w->product, sizeof w->product);
}

void k8s_labels(struct emit *e, const char *slug, const char *month)
{
	scalar(e, "labels");
	map_start(e);
	kv(e, "app.kubernetes.io/managed-by", "planner");
	kv(e, "planner.dev/job", slug);
	if (month)
		kv(e, "planner.dev/month", month);
	map_end(e);
}

void k8s_meta_labels(struct emit *e, const char *slug, const char *month)
{
	scalar(e, "metadata");
	map_start(e);
	k8s_labels(e, slug, month);
	map_end(e);
}

void k8s_template_start(struct emit *e, const char *slug, const char *month)
{
	scalar(e, "template");
	map_start(e);
	k8s_meta_labels(e, slug, month);
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
	k8s_labels(e, w->slug, s->month);
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
void k8s_pod_spec(struct emit *e, const struct job *job, const struct sched_run *r,
                  const char *name, const char *product, const struct serve_engine *se)
{
	k8s_pod_spec_as(e, job, r, name, product, se, se != NULL, true);
}

void k8s_pod_spec_as(struct emit *e, const struct job *job, const struct sched_run *r,
                     const char *name, const char *product, const struct serve_engine *se,
                     bool restart, bool tp)
{
	scalar(e, "spec");
	map_start(e);
	kv(e, "restartPolicy", restart ? "Always" : "Never");
	node_selector(e, product);
	scalar(e, "containers");
	seq_start(e);
	map_start(e);
	kv(e, "name", name);
	kv(e, "image", job->run_image);
	container_command(e, job, tp ? pod_gpus(r) : 1);
	if (se)
		k8s_serve_container(e, job, se);
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
	k8s_meta_labels(e, w->slug, s->month);
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
	k8s_template_start(e, w->slug, s->month);
	k8s_pod_spec(e, s->jobs[r->job].job, r, w->slug, w->product, NULL);
	map_end(e); /* template */
	map_end(e); /* job spec */
	map_end(e); /* jobTemplate */
}

/* A document's start, after a comment line when note is not NULL: the
 * emitter has flushed the document before (it writes a document end at
 * once), so the comment lands between documents, at a line's start. */
void k8s_doc_start(struct emit *e, const char *note)
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

void k8s_doc_end(struct emit *e)
{
	map_end(e);
	if (!e->ok)
		return;
	yaml_document_end_event_initialize(&e->ev, 0);
	put(e);
}

void k8s_cron_spec_start(struct emit *e, const char *schedule, const char *timezone)
{
	char num[32];
	scalar(e, "spec");
	map_start(e);
	kv(e, "schedule", schedule);
	kv(e, "timeZone", timezone);
	kv(e, "concurrencyPolicy", "Forbid");
	snprintf(num, sizeof num, "%d", K8S_START_DEADLINE_S);
	kv_plain(e, "startingDeadlineSeconds", num);
}

void k8s_kubectl_job(struct emit *e, const char *sa, const char *slug, const char *month,
                     const char *const *args)
{
	scalar(e, "jobTemplate");
	map_start(e);
	scalar(e, "spec");
	map_start(e);
	kv_plain(e, "backoffLimit", "3");
	k8s_template_start(e, slug, month);
	scalar(e, "spec");
	map_start(e);
	kv(e, "serviceAccountName", sa);
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
	for (; *args; args++)
		quoted(e, *args);
	seq_end(e);
	map_end(e);
	seq_end(e);
	map_end(e); /* pod spec */
	map_end(e); /* template */
	map_end(e); /* job spec */
	map_end(e); /* jobTemplate */
}

static void cron_doc(struct emit *e, const struct schedule *s, const struct window *w)
{
	k8s_doc_start(e, NULL);
	head(e, "batch/v1", "CronJob");
	cron_metadata(e, s, w);
	k8s_cron_spec_start(e, w->schedule, s->timezone);
	job_template(e, s, w);
	map_end(e); /* cron spec */
	k8s_doc_end(e);
}

/* The nodes run r takes: its GPUs over cluster.gpus_per_node, else over
 * its GPU's node (export_run_nodes). */
static int k8s_run_nodes(const struct emit *e, const struct sched_run *r)
{
	int per = e->cl && e->cl->gpus_per_node ? e->cl->gpus_per_node : 0;
	if (per <= 0)
		return export_run_nodes(r);
	int gpus = r->gpu_count / (r->replicas > 0 ? r->replicas : 1);
	return gpus > per ? (gpus + per - 1) / per : 1;
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
	int jobsets = 0;
	for (size_t i = 0; i < s->n_runs && e.ok; i++) {
		const struct sched_run *r = &s->runs[i];
		if (!k8s_writes(r))
			continue;
		if (!s->jobs[r->job].job->run_image) {
			opts->skipped++;
			continue;
		}
		if (export_serving(s->jobs[r->job].job)) {
			if (export_serve_first(s, i, k8s_writes))
				k8s_service_docs(&e, s, r, slugs);
			continue;
		}
		/* Past one node, a training run is a JobSet of its own. */
		int nodes = k8s_run_nodes(&e, r);
		if (nodes > 1 && s->jobs[r->job].job->task != TASK_INFERENCE) {
			k8s_jobset_doc(&e, s, i, slugs, nodes, ++jobsets);
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
