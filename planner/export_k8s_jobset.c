/* export_k8s_jobset.c — an owned training run past one node as a JobSet
 * (jobset.x-k8s.io/v1alpha2, github.com/kubernetes-sigs/jobset; the CRD
 * config/components/crd/bases/jobset.x-k8s.io_jobsets.yaml at commit
 * 08dfbdfd682714a9ab929633eca8dc95315187e7, which the tests validate
 * against, tests/fixtures/schemas/PROVENANCE.md): one replicated Job of
 * one pod a node (an Indexed Job, parallelism = completions = the nodes),
 * each pod with one node's GPUs, and run.command as torchrun on each pod,
 * ranked by the pod's completion index (JOB_COMPLETION_INDEX, which the
 * Job controller sets in Indexed mode: kubernetes.io/docs/concepts/
 * workloads/controllers/job/#completion-mode, read 2026-12-02) and meeting
 * at the first pod, NAME-node-0-0.NAME: JobSet gives each pod that
 * hostname in a headless service named after the JobSet (its PyTorch
 * example, site/static/examples/pytorch/cnn-mnist/mnist.yaml at the same
 * commit, MASTER_ADDR "pytorch-workers-0-0.pytorch").
 *
 * A JobSet has no schedule and a CronJob creates only batch Jobs, so the
 * JobSet is written suspended (spec.suspend) and a CronJob at the run's
 * start (its minute, hour, day and month, in the spec's timeZone) resumes
 * it with `kubectl patch jobset NAME`, as a ServiceAccount whose Role may
 * get and patch that JobSet and nothing else: the cluster starts the run,
 * as the CronJobs of single-node runs do (docs/design.md, "How an export
 * starts its runs"). Cron has no year: the CronJob carries
 * planner.dev/month like the others. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "export_k8s_int.h"
#include "util.h"

/* torchrun's port on the first pod: torchrun's default master port, 29500
 * (docs.pytorch.org/docs/stable/elastic/run.html, read 2026-12-02). */
#define JOBSET_MASTER_PORT 29500

/* The replicated Job's name: every pod's hostname starts NAME-node-. */
#define JOBSET_RJOB "node"

/* metadata: name, namespace and the run's labels. */
static void meta(struct emit *e, const char *name, const char *slug, const char *month)
{
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", name);
	put_namespace(e);
	k8s_labels(e, slug, month);
	map_end(e);
}

/* The resumer's ServiceAccount, Role (get and patch JobSet `name`) and
 * RoleBinding, all named sa. */
static void resume_rbac(struct emit *e, const char *sa, const char *name, const char *slug,
                        const char *month)
{
	k8s_doc_start(e, NULL);
	head(e, "v1", "ServiceAccount");
	meta(e, sa, slug, month);
	k8s_doc_end(e);
	k8s_doc_start(e, NULL);
	head(e, "rbac.authorization.k8s.io/v1", "Role");
	meta(e, sa, slug, month);
	scalar(e, "rules");
	seq_start(e);
	map_start(e);
	scalar(e, "apiGroups");
	seq_start(e);
	quoted(e, "jobset.x-k8s.io");
	seq_end(e);
	scalar(e, "resources");
	seq_start(e);
	quoted(e, "jobsets");
	seq_end(e);
	scalar(e, "resourceNames");
	seq_start(e);
	quoted(e, name);
	seq_end(e);
	scalar(e, "verbs");
	seq_start(e);
	quoted(e, "get");
	quoted(e, "patch");
	seq_end(e);
	map_end(e);
	seq_end(e);
	k8s_doc_end(e);
	k8s_doc_start(e, NULL);
	head(e, "rbac.authorization.k8s.io/v1", "RoleBinding");
	meta(e, sa, slug, month);
	scalar(e, "roleRef");
	map_start(e);
	kv(e, "apiGroup", "rbac.authorization.k8s.io");
	kv(e, "kind", "Role");
	kv(e, "name", sa);
	map_end(e);
	scalar(e, "subjects");
	seq_start(e);
	map_start(e);
	kv(e, "kind", "ServiceAccount");
	kv(e, "name", sa);
	put_namespace(e);
	map_end(e);
	seq_end(e);
	k8s_doc_end(e);
}

/* The CronJob that resumes JobSet `name` at run r's local start. */
static void resume_cron(struct emit *e, const struct schedule *s, const struct sched_run *r,
                        const char *sa, const char *name, const char *slug)
{
	char sched[64];
	time_t t = r->start + r->start_offset;
	struct tm tm;
	gmtime_r(&t, &tm);
	snprintf(sched, sizeof sched, "%d %d %d %d *", tm.tm_min, tm.tm_hour, tm.tm_mday,
	         tm.tm_mon + 1);
	k8s_doc_start(e, NULL);
	head(e, "batch/v1", "CronJob");
	meta(e, sa, slug, s->month);
	k8s_cron_spec_start(e, sched, s->timezone);
	const char *args[] = {
	    "patch", "jobset", name, "--type=merge", "-p", "{\"spec\":{\"suspend\":false}}", NULL};
	k8s_kubectl_job(e, sa, slug, s->month, args);
	map_end(e); /* spec */
	k8s_doc_end(e);
}

void k8s_jobset_doc(struct emit *e, const struct schedule *s, size_t i,
                    const struct k8s_slug *slugs, int nodes, int k)
{
	const struct sched_run *r = &s->runs[i];
	const struct job *job = s->jobs[r->job].job;
	const char *slug = slugs[r->job].v;
	int gpus = r->gpu_count / nodes;
	char name[K8S_NAME_MAX + 1], product[96], start[32], num[64], note[320];
	snprintf(name, sizeof name, "%s-%d", slug, k);
	k8s_gpu_product(r->gpu->name, product, sizeof product);
	sched_iso(r->start, r->start_offset, start, sizeof start);
	snprintf(note, sizeof note,
	         "%s: %d nodes of %d %s, %.2f h from %s; the CronJob %s-resume unsuspends it then",
	         job->name, nodes, gpus, r->gpu->name, r->hours, start, name);
	k8s_doc_start(e, note);
	head(e, "jobset.x-k8s.io/v1alpha2", "JobSet");
	scalar(e, "metadata");
	map_start(e);
	kv(e, "name", name);
	put_namespace(e);
	k8s_labels(e, slug, s->month);
	scalar(e, "annotations");
	map_start(e);
	kv(e, "planner.dev/job-name", job->name);
	kv(e, "planner.dev/start", start);
	snprintf(num, sizeof num, "%.2f %s", r->cost, s->currency);
	kv(e, "planner.dev/cost", num);
	map_end(e);
	map_end(e);
	scalar(e, "spec");
	map_start(e);
	kv_plain(e, "suspend", "true");
	scalar(e, "replicatedJobs");
	seq_start(e);
	map_start(e);
	kv(e, "name", JOBSET_RJOB);
	kv_plain(e, "replicas", "1");
	scalar(e, "template");
	map_start(e);
	scalar(e, "spec");
	map_start(e);
	snprintf(num, sizeof num, "%d", nodes);
	kv_plain(e, "parallelism", num);
	kv_plain(e, "completions", num);
	kv(e, "completionMode", "Indexed");
	kv_plain(e, "backoffLimit", "0");
	snprintf(num, sizeof num, "%ld", (long)ceil(r->hours * 3600 - 1e-6));
	kv_plain(e, "activeDeadlineSeconds", num);
	k8s_template_start(e, slug, s->month);
	/* One pod a node: one node's GPUs, torchrun for run.command. */
	struct sched_run node = *r;
	node.gpu_count = gpus;
	node.replicas = 1;
	struct job per_node = *job;
	char flags[320];
	snprintf(flags, sizeof flags,
	         "--nnodes=%d --nproc-per-node=%d --node-rank=\"$JOB_COMPLETION_INDEX\" "
	         "--master-addr=%s-" JOBSET_RJOB "-0-0.%s --master-port=%d ",
	         nodes, gpus, name, name, JOBSET_MASTER_PORT);
	char *cmd = job->run_command ? export_torchrun(job->run_command, flags) : NULL;
	if (job->run_command && !cmd)
		e->ok = false;
	per_node.run_command = cmd;
	k8s_pod_spec(e, &per_node, &node, slug, product, NULL);
	free(cmd);
	map_end(e); /* pod template */
	map_end(e); /* job spec */
	map_end(e); /* job template */
	map_end(e); /* replicated job */
	seq_end(e);
	map_end(e); /* spec */
	k8s_doc_end(e);
	char sa[K8S_NAME_MAX + 1 + 8];
	snprintf(sa, sizeof sa, "%s-resume", name);
	resume_rbac(e, sa, name, slug, s->month);
	resume_cron(e, s, r, sa, name, slug);
}
