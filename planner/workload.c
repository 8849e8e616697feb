/* workload.c — the rules for which offers, quotes and GPUs a job may use,
 * its hours on a configuration and its power cost, in one place (see
 * workload.h). */
#include "workload.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "util.h"

const char *route_name(enum route r)
{
	static const char *const names[] = {"api", "rented", "owned"};
	return r < ROUTE_COUNT ? names[r] : "?";
}

int workload_init(struct workload *w, const struct jobspec *spec, const struct job *j, char **err)
{
	memset(w, 0, sizeof *w);
	w->spec = spec;
	w->job = j;
	w->prec = precision_find(j->precision);
	if (!w->prec)
		return set_err(err, PLANNER_EINPUT, "%s:%d:%d: unknown precision '%s'", spec->path,
		               j->pos.line, j->pos.column, j->precision);
	/* The job's engine: key, else the default for its task and precision. */
	w->engine = j->engine ? engine_find(j->engine)
	                      : engine_for(j->task != TASK_INFERENCE, j->precision);
	if (!w->engine || (j->task == TASK_INFERENCE ? !w->engine->inference
	                                             : !w->engine->training))
		return set_err(err, PLANNER_EINPUT, "%s:%d:%d: engine '%s' does not run %s jobs",
		               spec->path, j->pos.line, j->pos.column, j->engine ? j->engine : "?",
		               task_name(j->task));
	vram_estimate(w->engine, &j->model, w->prec, j->task, j->context, j->batch, &w->need);
	return PLANNER_OK;
}

bool workload_route_allowed(const struct workload *w, enum route r, char *why, size_t len)
{
	const struct job *j = w->job;
	const char *fmt = NULL, *what = NULL;
	if (r == ROUTE_API && j->task != TASK_INFERENCE) {
		fmt = "task: %s is fine-tuning; the api route prices inference tokens only";
		what = task_name(j->task);
	} else if (r == ROUTE_API && j->data != DATA_PUBLIC) {
		fmt = "data: %s excludes third-party APIs";
		what = data_class_name(j->data);
	} else if (r == ROUTE_RENTED && j->data == DATA_RESTRICTED) {
		fmt = "data: %s allows owned GPUs only";
		what = data_class_name(j->data);
	}
	if (!fmt)
		return true;
	if (why && len > 0)
		snprintf(why, len, fmt, what);
	return false;
}

bool workload_gpu_allowed(const struct workload *w, const struct gpu_spec *gpu)
{
	return w->job->any_accelerator || !strcmp(gpu->vendor, "nvidia");
}

bool workload_provider_allowed(const struct workload *w, const char *provider)
{
	const struct jobspec *spec = w->spec;
	if (!spec->providers)
		return true;
	for (size_t i = 0; i < spec->n_providers; i++)
		if (!strcasecmp(spec->providers[i], provider))
			return true;
	return false;
}

bool workload_rental_allowed(const struct workload *w, const char *provider,
                             const struct gpu_spec *gpu, bool spot)
{
	return (!spot || w->job->interruptible) && workload_gpu_allowed(w, gpu) &&
	       workload_provider_allowed(w, provider);
}

const struct gpu_spec *workload_offer_gpu(const struct workload *w, const struct refdata *ref,
                                          const struct offer *o, struct gpu_spec *sized)
{
	const struct gpu_spec *g = refdata_gpu(ref, o->gpu);
	if (!g || !workload_rental_allowed(w, o->provider, g, o->spot))
		return NULL;
	*sized = *g;
	if (o->vram_gib > 0)
		sized->vram_gib = o->vram_gib;
	return g;
}

bool workload_fits(const struct workload *w, const struct gpu_spec *gpu, int n)
{
	return vram_fits(w->engine, &w->need, gpu, n);
}

int workload_min_gpus(const struct workload *w, const struct gpu_spec *gpu)
{
	return vram_min_gpus(w->engine, &w->need, gpu);
}

double workload_gpu_hours(const struct workload *w, const struct gpu_spec *gpu, int n, double *tps)
{
	const struct job *j = w->job;
	if (j->has_hours && !tps)
		return j->hours_per_month;
	struct speed_est s;
	speed_estimate(w->engine, &j->model, w->prec, gpu, n, j->task, j->context, j->batch, &s);
	if (tps)
		*tps = j->task == TASK_INFERENCE ? s.decode_tps : s.train_tps;
	if (j->has_hours)
		return j->hours_per_month;
	return speed_hours_for_tokens(&s, j->task, j->input_tokens, j->output_tokens);
}

double power_cost(const struct jobspec *spec, int gpus, double watts, double hours)
{
	/* Keep this order of operations: compare, schedule and report must
	 * print the same figures they always have. */
	return gpus * watts * spec->pue * hours / 1000.0 * spec->electricity_per_kwh;
}
