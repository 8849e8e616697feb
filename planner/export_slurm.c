/* export_slurm.c — the owned runs as a bash script of sbatch calls. Each
 * call holds the job until its start (--begin, read by sbatch in the TZ
 * the script exports, so the spec's wall-clock times hold wherever it is
 * run), limits it to its hours (--time), asks for its GPUs on one node
 * (--gres=gpu:<type>:<n>; the type is the GPU model as a gres.conf name,
 * "RTX 4090" -> "rtx4090"), and runs the job's run.command (--wrap).
 * A job with run.pyxis: true and a run.image runs that command inside the
 * image through NVIDIA's pyxis SPANK plugin: the wrapped step is
 * `srun --container-image=IMAGE sh -c COMMAND` (pyxis adds its options to
 * srun; github.com/NVIDIA/pyxis README, "Usage", read 2026-11-30). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

/* The first node of the job's allocation, exported for the launchers. */
#define RDZV_HOST_LINE                                                                             \
	"export PLANNER_RDZV_HOST=$(scontrol show hostnames \"$SLURM_JOB_NODELIST\" | head -n 1); "

/* Single-quoted for sh (POSIX, no $'...'): ' becomes '\''. Only for the
 * words inside a pyxis step, which is itself quoted for bash by
 * export_shell_quote. */
static void sh_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* The --wrap text of a pyxis job, quoted: srun starts the command in the
 * job's image. PLANNER_ESYS when out of memory. */
static int wrap_pyxis(FILE *f, const struct job *job)
{
	char *inner = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&inner, &len);
	if (!m)
		return PLANNER_ESYS;
	fputs("srun --container-image=", m);
	sh_quote(m, job->run_image);
	fputs(" sh -c ", m);
	sh_quote(m, job->run_command);
	if (fclose(m) != 0) {
		free(inner);
		return PLANNER_ESYS;
	}
	export_shell_quote(f, inner);
	free(inner);
	return PLANNER_OK;
}

/* The --wrap text of a training job past one node, quoted: the batch
 * shell exports the rendezvous host, then srun starts torchrun on every
 * node (in the job's image through pyxis when it says so). PLANNER_ESYS
 * when out of memory. */
static int wrap_torchrun(FILE *f, const struct job *job)
{
	char *inner = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&inner, &len);
	if (!m)
		return PLANNER_ESYS;
	fputs(RDZV_HOST_LINE, m);
	if (job->run_pyxis && job->run_image) {
		fputs("srun --container-image=", m);
		sh_quote(m, job->run_image);
		fputs(" sh -c ", m);
		sh_quote(m, job->run_command);
	} else {
		fputs("srun ", m);
		fputs(job->run_command, m);
	}
	if (fclose(m) != 0) {
		free(inner);
		return PLANNER_ESYS;
	}
	export_shell_quote(f, inner);
	free(inner);
	return PLANNER_OK;
}

/* The command of a serving job's array tasks: each replica on a port of
 * its own, the engine's (or run.command's --port N) plus
 * SLURM_ARRAY_TASK_ID, so replicas that share a node do not collide; the
 * shell that runs --wrap (or pyxis's sh -c) expands it. NULL when out of
 * memory. */
static char *array_command(const struct job *job)
{
	const struct serve_engine *se = export_serve_engine(job);
	int port = export_serve_port(job, se);
	const char *c = job->run_command, *p = strstr(c, "--port");
	for (; p; p = strstr(p + 1, "--port"))
		if ((p == c || p[-1] == ' ') && (p[6] == ' ' || p[6] == '='))
			break;
	if (!p)
		return xasprintf("%s --port $((%d + SLURM_ARRAY_TASK_ID))", c, port);
	const char *v = p + 7, *end = v + strcspn(v, " ");
	return xasprintf("%.*s$((%d + SLURM_ARRAY_TASK_ID))%s", (int)(v - c), c, port, end);
}

/* The torchrun port of a job's rendezvous: torchrun's own default for
 * --rdzv-endpoint without one, 29400 (docs.pytorch.org/docs/stable/
 * elastic/run.html, "Usage", read 2026-12-02). */
#define TORCHRUN_RDZV_PORT 29400

/* run.command as torchrun over the job's nodes, one launcher per node
 * (srun, --ntasks-per-node=1) starting `gpus` workers, all meeting at the
 * first node of the allocation (c10d rendezvous: torchrun's --nnodes,
 * --nproc-per-node, --rdzv-id, --rdzv-backend, --rdzv-endpoint). The
 * batch shell finds the first node (scontrol show hostnames) and exports
 * it, so srun's tasks (pyxis's sh -c in the image too) read it from their
 * environment. NULL when out of memory. */
static char *torchrun_command(const char *c, int gpus)
{
	char flags[256];
	snprintf(flags, sizeof flags,
	         "--nnodes=\"$SLURM_NNODES\" --nproc-per-node=%d --rdzv-id=\"$SLURM_JOB_ID\" "
	         "--rdzv-backend=c10d --rdzv-endpoint=\"$PLANNER_RDZV_HOST:%d\" ",
	         gpus, TORCHRUN_RDZV_PORT);
	return export_torchrun(c, flags);
}

/* gres type: the model's letters and digits, lower case ("h100sxm"). */
static void gres_type(const char *gpu, char *out, size_t len)
{
	size_t n = 0;
	for (; *gpu && n + 1 < len; gpu++) {
		char ch = *gpu;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
			out[n++] = ch;
	}
	out[n] = '\0';
}

/* The runs a cluster's scheduler starts: on its own GPUs (a route with a
 * fixed stock, owned). The cloud's and the API's runs (routes that leave
 * the house) are other formats'. */
static bool slurm_writes(const struct sched_run *r)
{
	return route_has(r->route, ROUTE_HAS_CAPACITY);
}

static int slurm_skipped(const struct schedule *s)
{
	return export_skipped_runs(s, slurm_writes, ROUTE_LEAVES_HOUSE);
}

/* The --gres type of a GPU: cluster.gres's name for it, else gres_type's. */
static void mapped_gres_type(const struct job_cluster *cl, const char *gpu, char *type,
                             size_t len)
{
	const char *mapped = jobspec_cluster_gres(cl, gpu);
	if (mapped)
		snprintf(type, len, "%s", mapped);
	else
		gres_type(gpu, type, len);
}

/* The spec's cluster: partition, account and qos as sbatch options
 * (account and qos pass through unchecked: they need slurmdbd). */
static void cluster_options(FILE *f, const struct job_cluster *cl)
{
	if (cl && cl->partition)
		fprintf(f, " --partition=%s", cl->partition); /* a Slurm name, spec_cluster.c */
	if (cl && cl->account) {
		fputs(" --account=", f);
		export_shell_quote(f, cl->account);
	}
	if (cl && cl->qos) {
		fputs(" --qos=", f);
		export_shell_quote(f, cl->qos);
	}
}

/* layout: long function — the script's sections in the order sbatch reads
 * them: header, one job per run or array, serving ports. */
static int write_slurm(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	opts->skipped = 0;
	opts->skipped_runs = slurm_skipped(s);
	size_t n = 0;
	for (size_t i = 0; i < s->n_runs; i++)
		n += slurm_writes(&s->runs[i]);
	fputs("#!/bin/bash\n", f);
	if (!export_comment(f, "planner schedule for %s: %zu run%s on owned GPUs, for Slurm.",
	                    s->month, n, n == 1 ? "" : "s"))
		return set_err(err, PLANNER_ESYS, "out of memory writing the script");
	fputs("# Submit with: bash THIS_FILE (sbatch holds each job until --begin).\n"
	      "# --gres types are the GPU models as gres.conf names unless the spec's\n"
	      "# cluster.gres maps them (scontrol show node | grep Gres lists yours).\n"
	      "# A serving job's replicas are one array task each (--array), with\n"
	      "# one replica's GPUs; SLURM_ARRAY_TASK_ID tells them apart.\n"
	      "set -euo pipefail\n"
	      "export TZ=",
	      f);
	export_shell_quote(f, s->timezone);
	fputs("  # --begin times below are wall-clock times in this zone\n", f);
	if (opts->skipped_runs) {
		char note[256];
		fprintf(f, "# %s\n",
		        export_skipped_note(s, slurm_writes, ROUTE_LEAVES_HOUSE, "slurm", note,
		                            sizeof note));
	}
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (!slurm_writes(r))
			continue;
		const struct job *job = s->jobs[r->job].job;
		char begin[32], type[48], slug[64];
		sched_iso(r->start, r->start_offset, begin, sizeof begin);
		begin[19] = '\0'; /* sbatch reads YYYY-MM-DDTHH:MM:SS, no offset */
		const struct job_cluster *cl = opts->cluster;
		mapped_gres_type(cl, r->gpu->name, type, sizeof type);
		/* A serving job's replicas are servers apart: one array task
		 * each, with one replica's GPUs (a batch run keeps one job). */
		int tasks = export_serving(job) && r->replicas > 1 ? r->replicas : 1;
		int gpus = r->gpu_count / tasks, nodes = 1;
		/* The node: cluster.gpus_per_node, else the GPU's own board. */
		int per = cl && cl->gpus_per_node ? cl->gpus_per_node : r->gpu->gpus_per_node;
		if (per > 0 && gpus > per) {
			nodes = (gpus + per - 1) / per;
			gpus = per; /* --gres is per node */
		}
		bool torchrun = nodes > 1 && job->task != TASK_INFERENCE && job->run_command;
		export_slug(job->name, slug, sizeof slug);
		long minutes = (long)ceil(r->hours * 60 - 1e-6);
		if (minutes < 1)
			minutes = 1;
		fputc('\n', f);
		if (!export_comment(f, "%s on %s: %.2f h, %.2f %s", job->name, r->resource,
		                    r->hours, r->cost, s->currency))
			return set_err(err, PLANNER_ESYS, "out of memory writing the script");
		if (tasks > 1 && job->run_command &&
		    !export_comment(f, "replica N (SLURM_ARRAY_TASK_ID) listens on port %d + N",
		                    export_serve_port(job, export_serve_engine(job))))
			return set_err(err, PLANNER_ESYS, "out of memory writing the script");
		if (torchrun &&
		    !export_comment(f, "%d nodes of %d GPUs: torchrun on each, meeting at the first",
		                    nodes, gpus))
			return set_err(err, PLANNER_ESYS, "out of memory writing the script");
		if (nodes > 1 && !torchrun && job->run_command &&
		    !export_comment(f, "%d nodes of %d GPUs: run.command launches the engine's own "
		                       "multi-node server (vLLM and SGLang over Ray)",
		                    nodes, gpus))
			return set_err(err, PLANNER_ESYS, "out of memory writing the script");
		if (!job->run_command) {
			fputs("# no run.command in the job spec; add run: {command: ...} to submit "
			      "this run\n# ",
			      f);
			opts->skipped++;
		}
		fprintf(f, "sbatch --parsable --job-name=");
		export_shell_quote(f, job->name);
		fprintf(f, " --begin=%s --time=%ld-%02ld:%02ld:00 --nodes=%d", begin, minutes / 1440,
		        minutes / 60 % 24, minutes % 60, nodes);
		if (nodes > 1)
			fputs(" --ntasks-per-node=1", f); /* one launcher a node */
		else
			fputs(" --ntasks=1", f);
		if (tasks > 1)
			fprintf(f, " --array=0-%d", tasks - 1);
		cluster_options(f, cl);
		fprintf(f, " --gres=gpu:%s:%d --comment=", type, gpus);
		export_shell_quote(f, r->resource);
		fputs(" --wrap=", f);
		struct job per_task = *job;
		char *cmd = NULL;
		if (tasks > 1 && job->run_command) {
			if (!(cmd = array_command(job)))
				return set_err(err, PLANNER_ESYS, "out of memory writing the script");
			per_task.run_command = cmd;
		} else if (torchrun) {
			if (!(cmd = torchrun_command(job->run_command, gpus)))
				return set_err(err, PLANNER_ESYS, "out of memory writing the script");
			per_task.run_command = cmd;
		}
		int rc = PLANNER_OK;
		if (torchrun)
			rc = wrap_torchrun(f, &per_task);
		else if (job->run_pyxis && job->run_image && job->run_command)
			rc = wrap_pyxis(f, &per_task);
		else
			export_shell_quote(f, per_task.run_command ? per_task.run_command : "true");
		free(cmd);
		if (rc != PLANNER_OK)
			return set_err(err, PLANNER_ESYS, "out of memory writing the script");
		fputc('\n', f);
	}
	return PLANNER_OK;
}

/* A bash script of sbatch calls, one per owned run. Runs of a job without
 * run.command are written commented out and counted as skipped. */
const struct export_format export_format_slurm = {
    .name = "slurm",
    .summary = "sbatch script, owned runs",
    .applies = EXPORT_SCHEDULE,
    .needs = "command",
    .write = write_slurm,
    .skipped_runs = slurm_skipped,
};
