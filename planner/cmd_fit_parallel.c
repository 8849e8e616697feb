/* cmd_fit_parallel.c — `planner fit` past one node: --parallel and the
 * --gpus caps (parallel.h), each row's layout and the speed over it. The
 * command layer only; the model is parallel.c's. */
#include <cJSON.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cmd_fit.h"
#include "parallel.h"

int fit_parallel_option(struct cli *c, struct fit_args *a, const char *s)
{
	char why[200];
	if (!parallel_parse(s, &a->parallel, why, sizeof why))
		return cli_usage(c, "--parallel %s: %s", s, why);
	a->parallel_given = true;
	return PLANNER_OK;
}

int fit_parallel_check(struct cli *c, struct fit_args *a, const struct model_spec *m)
{
	if (a->parallel_given && !a->gpus)
		a->gpus = parallel_gpus(&a->parallel);
	if (a->parallel_given && !a->gpus)
		return cli_usage(c, "--parallel with ep only needs --gpus N");
	if (a->parallel_given && (a->offload != OFFLOAD_NONE || a->n_variants ||
	                          (a->gpu && a->gpu->kind != DEVICE_GPU)))
		return cli_usage(c, "--parallel lays a job out over GPUs; %s runs on one machine",
		                 a->offload != OFFLOAD_NONE ? "--offload" : "that device");
	if (a->task == TASK_INFERENCE && a->gpus > PARALLEL_MAX_INSTANCE_GPUS)
		return cli_usage(c,
		                 "--gpus %d: one serving instance spans at most %d GPUs; replicas "
		                 "of it come on top (compare prices them)",
		                 a->gpus, PARALLEL_MAX_INSTANCE_GPUS);
	if (!a->gpu || a->n_variants || !a->gpus || a->gpu->kind != DEVICE_GPU || !m)
		return PLANNER_OK;
	struct parallel l;
	char why[240];
	if (!parallel_layout(a->engine, m, a->gpu, a->gpus, a->task,
	                     a->parallel_given ? &a->parallel : NULL, &l, why, sizeof why))
		return cli_usage(c, "%s%s%s", a->parallel_given ? "--parallel: " : "",
		                 a->parallel_given ? "" : "--gpus: ", why);
	return PLANNER_OK;
}

bool fit_line_layout(const struct fit_args *a, const struct model_spec *m,
                     const struct precision_info *p, const struct gpu_spec *g,
                     const struct speed_job *sj, struct fit_line *l)
{
	l->nodes = parallel_nodes(g, l->n);
	if (!parallel_layout(a->engine, m, g, l->n, a->task, a->parallel_given ? &a->parallel : NULL,
	                     &l->layout, l->layout_why, sizeof l->layout_why))
		return false;
	l->layout_ok = true;
	if (parallel_is_plain(a->engine, g, l->n, a->task, &l->layout))
		return true;
	parallel_speed(a->engine, m, p, g, &l->layout, sj, &l->s);
	return true;
}

bool fit_line_multi(const struct fit_args *a, const struct fit_line *l)
{
	return l->layout_ok &&
	       (a->parallel_given || l->nodes > 1 || l->n > a->engine->max_tp);
}

void fit_line_layout_json(const struct fit_line *l, cJSON *o)
{
	if (!l->layout_ok)
		return;
	cJSON_AddNumberToObject(o, "nodes", l->nodes);
	if (l->g->gpus_per_node > 0)
		cJSON_AddNumberToObject(o, "gpus_per_node", l->g->gpus_per_node);
	else
		cJSON_AddNullToObject(o, "gpus_per_node");
	cJSON *x = cJSON_AddObjectToObject(o, "parallel");
	cJSON_AddNumberToObject(x, "tp", l->layout.tp);
	cJSON_AddNumberToObject(x, "pp", l->layout.pp);
	cJSON_AddNumberToObject(x, "dp", l->layout.dp);
	cJSON_AddNumberToObject(x, "ep", l->layout.ep);
}

void fit_line_layout_text(const struct fit_args *a, const struct fit_line *l)
{
	char lay[64];
	if (!fit_line_multi(a, l))
		return;
	parallel_format(&l->layout, lay, sizeof lay);
	printf("  %s x%d (%d node%s, %s)", l->g->name, l->n, l->nodes, l->nodes == 1 ? "" : "s",
	       lay);
}
