/* workload.c — the rules for which offers, quotes and GPUs a job may use,
 * its hours on a configuration and its power cost, in one place (see
 * workload.h). */
#include "workload.h"

#include "slo.h"
#include "parallel.h"

#include "tco.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "measured.h"
#include "regions.h"
#include "util.h"

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
	w->kv_bytes = kv_cache_bytes(j->kv_cache);
	/* A decode step of a request of input N and output M attends to N
	 * tokens at its first step and N + M at its last: N + M/2 on average
	 * over the request, and so over a batch of requests at all stages. */
	w->attended = j->request_input + j->request_output / 2.0;
	/* The job's KV type, and for fine-tuning its adapters, optimizer,
	 * micro-batch and checkpointing (spec_train.c). */
	struct vram_job vj = {.task = j->task,
	                      .context = j->context,
	                      .batch = j->batch,
	                      .kv_bytes_per_element = w->kv_bytes,
	                      .lora_rank = j->lora_rank,
	                      .lora_attention_only = j->lora_targets == LORA_ATTENTION,
	                      .optimizer = optimizer_find(j->optimizer),
	                      .micro_batch = j->micro_batch,
	                      .checkpointing = j->checkpointing};
	vram_estimate_job(w->engine, &j->model, w->prec, &vj, &w->need);
	/* Field by field into the zeroed workload: the shape's bytes are the
	 * estimate cache's key. A job without batch: max runs its batch, at
	 * least 1. */
	w->shape.model = &j->model;
	w->shape.model_ref = j->model_ref;
	w->shape.prec = w->prec;
	w->shape.engine = w->engine;
	w->shape.attended = w->attended;
	/* Measurements and the request they are matched on join the key
	 * only when there are any: else jobs whose requests attend alike
	 * share one estimate, as they always have. */
	w->shape.measured = spec->measurements;
	w->shape.n_measured = spec->n_measurements;
	if (spec->n_measurements && j->task == TASK_INFERENCE && j->has_request) {
		w->shape.request_input = j->request_input;
		w->shape.request_output = j->request_output;
	}
	w->shape.kv_bytes = w->kv_bytes;
	if (j->task != TASK_INFERENCE) {
		w->shape.train_seq = (double)j->context;
		w->shape.micro_batch = j->micro_batch;
		w->shape.checkpointing = j->checkpointing;
	}
	w->shape.task = j->task;
	w->shape.batch = j->batch_max ? 0 : j->batch > 0 ? j->batch : 1;
	w->shape.parallel = j->parallel;
	w->window_hours = schedule_month_hours(&j->sched);
	if (j->slo.given)
		w->peak_rps = job_load_peak_rps(j);
	char why[200];
	if (!parallel_check_model(&j->model, &j->parallel, why, sizeof why))
		return set_err(err, PLANNER_EINPUT, "%s:%d:%d: parallel of job '%s': %s",
		               spec->path, j->parallel_pos.line, j->parallel_pos.column, j->name, why);
	return PLANNER_OK;
}

/* The key of the estimate cache is the shape's bytes (plan_cache.c): a
 * field that leaves padding after it would put bytes no one set in the
 * key. A field added to the shape changes this size; place it so that
 * none is left, and update the sum. */
_Static_assert(sizeof(struct workload_shape) == 5 * sizeof(void *) + sizeof(size_t) +
                                                    5 * sizeof(double) + sizeof(enum ckpt) +
                                                    sizeof(enum task) + 2 * sizeof(int) +
                                                    sizeof(struct parallel),
               "struct workload_shape has padding: its bytes are the estimate cache's key");

bool workload_commit_allowed(const struct workload *w, const struct offer_term *t,
                             const struct gpu_spec *gpu)
{
	const struct offer *o = &t->o;
	return workload_route_allowed(w, ROUTE_RENTED, NULL, 0) &&
	       workload_rental_allowed(w, o->provider, gpu, false) &&
	       workload_region_allowed(w, o->region, o->country, o->region_group) &&
	       workload_hosting_allowed(job_hosting(w->job), o->marketplace);
}

bool workload_route_allowed(const struct workload *w, enum route r, char *why, size_t len)
{
	const struct job *j = w->job;
	const char *fmt = NULL, *what = NULL;
	/* The texts name today's routes: the api route is the one
	 * inference-only, third-party route (priced per token), rented the one
	 * that only leaves the house. */
	if (route_has(r, ROUTE_INFERENCE_ONLY) && j->task != TASK_INFERENCE) {
		fmt = route_has(r, ROUTE_THIRD_PARTY)
		          ? "task: %s is fine-tuning; the %s route prices inference tokens only"
		          : "task: %s is fine-tuning; the %s route prices inference only";
		what = task_name(j->task);
	} else if (route_has(r, ROUTE_THIRD_PARTY) && j->data != DATA_PUBLIC) {
		fmt = "data: %s excludes third-party APIs";
		what = data_class_name(j->data);
	} else if (route_has(r, ROUTE_LEAVES_HOUSE) && j->data == DATA_RESTRICTED) {
		fmt = "data: %s allows owned GPUs only";
		what = data_class_name(j->data);
	}
	if (!fmt)
		return true;
	if (why && len > 0)
		snprintf(why, len, fmt, what, route_name(r));
	return false;
}

bool workload_gpu_allowed(const struct workload *w, const struct gpu_spec *gpu)
{
	/* A Mac, a Strix Halo PC or a CPU runs llama.cpp jobs (local_device.h);
	 * other engines need a GPU, NVIDIA unless the job says any. */
	if (gpu->kind != DEVICE_GPU)
		return !strcmp(w->engine->name, "llama.cpp");
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

bool workload_region_allowed(const struct workload *w, const char *region, const char *country,
                             const char *group)
{
	const struct job *j = w->job;
	char *const *want = j->regions ? j->regions : w->spec->regions;
	size_t n = j->regions ? j->n_regions : w->spec->n_regions;
	if (!want)
		return true;
	for (size_t i = 0; i < n; i++)
		if (regions_match(want[i], region, country, group))
			return true;
	return false;
}

bool workload_rental_allowed(const struct workload *w, const char *provider,
                             const struct gpu_spec *gpu, bool spot)
{
	return (!spot || w->job->interruptible) && workload_gpu_allowed(w, gpu) &&
	       workload_provider_allowed(w, provider);
}

bool workload_hosting_allowed(unsigned hosting, bool marketplace)
{
	return (hosting & (marketplace ? HOSTING_MARKETPLACE : HOSTING_DATACENTER)) != 0;
}

const struct gpu_spec *workload_offer_gpu(const struct workload *w, const struct refdata *ref,
                                          const struct offer *o, struct gpu_spec *sized)
{
	const struct gpu_spec *g = refdata_gpu(ref, o->gpu);
	if (!g || !workload_rental_allowed(w, o->provider, g, o->spot) ||
	    !workload_region_allowed(w, o->region, o->country, o->region_group) ||
	    !workload_hosting_allowed(job_hosting(w->job), o->marketplace))
		return NULL;
	*sized = *g;
	if (o->vram_gib > 0)
		sized->vram_gib = o->vram_gib;
	return g;
}

bool workload_device_fits(const struct workload *w, const struct device *d)
{
	return vram_device_fits(w->engine, &w->need, d);
}

int workload_device_min_count(const struct workload *w, const struct device *d)
{
	return vram_device_min_count(w->engine, &w->need, d);
}

bool workload_fits(const struct workload *w, const struct gpu_spec *gpu, int n)
{
	struct device d = device_from_gpu(gpu, n);
	return workload_device_fits(w, &d);
}

int workload_min_gpus(const struct workload *w, const struct gpu_spec *gpu)
{
	struct device d = device_from_gpu(gpu, 1);
	return workload_device_min_count(w, &d);
}

/* What b sequences of `attended` tokens leave free on device d, in GiB
 * (vram_device_slack: negative when they do not fit). */
static double batch_slack(const struct engine *e, const struct model_spec *m,
                          const struct precision_info *p, double attended, double kv_bytes,
                          const struct device *d, int b)
{
	struct engine kv_e = *e;
	kv_e.kv_bytes_per_element = kv_bytes;
	struct vram_need need;
	vram_estimate(&kv_e, m, p, TASK_INFERENCE, (long)ceil(attended), b, &need);
	return vram_device_slack(e, &need, d);
}

int workload_max_batch(const struct engine *e, const struct model_spec *m,
                       const struct precision_info *p, double attended, double kv_bytes,
                       const struct device *d)
{
	/* vLLM's own rule, by the card's memory and name (WORKLOAD_MAX_SEQS). */
	int hi = d->tier[DEVICE_TIER_LOCAL].gib >= WORKLOAD_LARGE_CARD_GIB &&
	                 !(d->name && strstr(d->name, "A100"))
	             ? WORKLOAD_MAX_SEQS_LARGE
	             : WORKLOAD_MAX_SEQS;
	double top = batch_slack(e, m, p, attended, kv_bytes, d, hi);
	if (top >= 0)
		return hi;
	double one = batch_slack(e, m, p, attended, kv_bytes, d, 1);
	if (!(one >= 0) || hi <= 2)
		return 1; /* the floor, as the search below would end on it */
	/* The need grows with b (the search below rests on that) and, for the
	 * KV cache and activations, about linearly: the line through b = 1
	 * and b = hi gives a first guess, which one more estimate on each
	 * side confirms. Where it does not, the guess still narrows the gap
	 * the halving works on, so the answer is the search's own. */
	int lo = 1;
	double guess = 1.0 + (hi - 1) * one / (one - top);
	int g = guess >= hi - 1 ? hi - 1 : (int)guess;
	if (g > lo) {
		if (batch_slack(e, m, p, attended, kv_bytes, d, g) >= 0) {
			lo = g;
			if (batch_slack(e, m, p, attended, kv_bytes, d, g + 1) < 0)
				return g;
			lo = g + 1;
		} else {
			hi = g;
		}
	}
	/* lo fits (or is the floor), hi does not: halve the gap. */
	while (hi - lo > 1) {
		int mid = lo + (hi - lo) / 2;
		if (batch_slack(e, m, p, attended, kv_bytes, d, mid) >= 0)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

int workload_shape_batch(const struct workload_shape *s, const struct device *d)
{
	if (s->batch > 0)
		return s->batch;
	return workload_max_batch(s->engine, s->model, s->prec, s->attended, s->kv_bytes, d);
}

int workload_batch(const struct workload *w, const struct gpu_spec *gpu, int n)
{
	struct device d = device_from_gpu(gpu, n);
	return workload_shape_batch(&w->shape, &d);
}

/* The input tokens w's job prefills: with an engine that caches prompt
 * prefixes, request.cached_share of them are read from its cache and
 * skip the prefill (GPU time, not the price of an hour). */
static double prefill_tokens(const struct workload *w)
{
	const struct job *j = w->job;
	bool cached = j->task == TASK_INFERENCE && w->engine && w->engine->prefix_caching;
	return cached ? j->input_tokens * (1.0 - j->cached_share) : j->input_tokens;
}

/* The tokens a configuration's rate is about: output tokens when serving,
 * every token when fine-tuning. */
static double rated_tokens(const struct job *j)
{
	return j->task == TASK_INFERENCE ? j->output_tokens : j->input_tokens + j->output_tokens;
}

static bool layout_given(const struct workload_shape *s)
{
	return s->parallel.tp || s->parallel.pp || s->parallel.dp || s->parallel.ep;
}

/* Whether n GPUs of the device take more than one node of its GPU (a
 * GPU whose node gpus.json states): the single-host estimate does not
 * answer for them, the layout's does (parallel.h). */
static bool past_one_node(const struct device *d)
{
	return d->kind == DEVICE_GPU && d->gpu && parallel_nodes(d->gpu, d->count) > 1;
}

int workload_nodes_min_gpus(const struct workload *w, const struct gpu_spec *g, int node)
{
	if (node <= 0 || g->kind != DEVICE_GPU || !parallel_engine_spans_nodes(w->engine))
		return 0;
	int most = w->shape.task == TASK_INFERENCE ? PARALLEL_MAX_INSTANCE_GPUS
	                                           : PARALLEL_MAX_TRAIN_GPUS;
	int given = parallel_gpus(&w->shape.parallel);
	if (given)
		return given > node && given % node == 0 && given <= most && workload_fits(w, g, given)
		           ? given
		           : 0;
	/* Memory per GPU falls as GPUs are added (every part of the need is
	 * split over them but the per-GPU overhead), so the first count that
	 * holds the job is the fewest. */
	for (int n = 2 * node; n <= most; n += node)
		if (workload_fits(w, g, n))
			return n;
	return 0;
}

void workload_shape_estimate(const struct workload_shape *s, const struct device *d, int *batch,
                             struct speed_est *out)
{
	*batch = workload_shape_batch(s, d);
	/* The mean attended context is a request of that many input tokens
	 * (speed_attended_context); a fine-tuning job's sequences and
	 * micro-batch set its MoE efficiency. */
	struct speed_job job = {.task = s->task,
	                        .batch = *batch,
	                        .context = (long)s->train_seq,
	                        .input_tokens = s->attended > 0 ? s->attended : 0.0,
	                        .kv_bytes_per_element = s->kv_bytes,
	                        .micro_batch = s->micro_batch,
	                        .checkpointing = s->checkpointing};
	speed_estimate_device(s->engine, s->model, s->prec, d, &job, out);
	/* A layout given: its speed on these GPUs, none where it cannot run
	 * on them (workload_device_size says why). */
	struct parallel l;
	char why[8];
	if ((layout_given(s) && d->kind == DEVICE_GPU && d->gpu) || past_one_node(d)) {
		if (parallel_layout(s->engine, s->model, d->gpu, d->count, s->task,
		                    layout_given(s) ? &s->parallel : NULL, &l, why, sizeof why))
			parallel_speed(s->engine, s->model, s->prec, d->gpu, &l, &job, out);
		else
			*out = (struct speed_est){0};
	}
	/* Measured beats estimated: a benchmark of this configuration. */
	const struct measured_entry *m = measured_find(
	    s->measured, s->n_measured, s->model_ref ? s->model_ref : s->model->id, s->prec->name,
	    s->engine->name, d->gpu, d->count, s->request_input, s->request_output);
	if (m)
		measured_entry_apply(m, out);
}

void workload_estimate(const struct workload *w, const struct gpu_spec *gpu, int n, int *batch,
                       struct speed_est *s)
{
	struct device d = device_from_gpu(gpu, n);
	workload_shape_estimate(&w->shape, &d, batch, s);
}

bool workload_device_size(const struct workload *w, const struct device *d, int max_replicas,
                          struct workload_run *out, char *why, size_t len)
{
	return workload_device_size_within(w, d, max_replicas, NULL, out, why, len);
}

bool workload_device_size_within(const struct workload *w, const struct device *d, int max_replicas,
                                 const struct size_bound *bound, struct workload_run *out,
                                 char *why, size_t len)
{
	/* A layout refused below leaves no sizing: none of it is read as one. */
	memset(out, 0, sizeof *out);
	int batch;
	struct speed_est s;
	struct parallel l;
	char lay[200];
	if (((layout_given(&w->shape) && d->kind == DEVICE_GPU && d->gpu) || past_one_node(d)) &&
	    !parallel_layout(w->engine, w->shape.model, d->gpu, d->count, w->shape.task,
	                     layout_given(&w->shape) ? &w->shape.parallel : NULL, &l, lay,
	                     sizeof lay)) {
		snprintf(why, len, "the job's parallel layout on %d %s: %s", d->count, d->gpu->name,
		         lay);
		return false;
	}
	workload_shape_estimate(&w->shape, d, &batch, &s);
	return workload_size_within(w, d, max_replicas, batch, &s, bound, out, why, len);
}

bool workload_size(const struct workload *w, const struct gpu_spec *gpu, int n, int max_replicas,
                   struct workload_run *out, char *why, size_t len)
{
	struct device d = device_from_gpu(gpu, n);
	return workload_device_size(w, &d, max_replicas, out, why, len);
}

/* Fine-tuning runs as one copy: its work cannot be spread over replicas
 * to fit its window, so the configuration is not possible; why says so. */
static bool one_copy_short(const struct workload *w, const struct device *d, double need,
                           double span, char *why, size_t len)
{
	if (why && len)
		snprintf(
		    why, len,
		    "%s needs %.1f h on %dx %s; its window allows %.1f h a month "
		    "(schedule.window and days over 31 days) and a fine-tune runs as one copy; "
		    "widen the window or use faster GPUs",
		    task_name(w->job->task), need, d->count, d->name, span);
	return false;
}

/* A job of given hours only: copies of H / copies hours each when H is
 * more than the window's (span), else one copy of H. */
static bool size_hours_only(const struct workload *w, const struct device *d, int max_replicas,
                            double span, double copies, struct workload_run *out, char *why,
                            size_t len)
{
	const struct job *j = w->job;
	out->replicas = (int)clamp_llong(copies, 1, INT_MAX);
	out->hours = j->hours_per_month / out->replicas;
	if (copies <= max_replicas)
		return true;
	if (why && len)
		snprintf(why, len,
		         "needs %g h in a window of %.1f h a month: %.0f copies of %dx %s, more "
		         "than this route may use",
		         j->hours_per_month, span, copies, d->count, d->name);
	return false;
}

/* workload_size_est before the latency targets. */
static bool size_for_work(const struct workload *w, const struct device *d, int max_replicas,
                          int batch, const struct speed_est *est, struct workload_run *out,
                          char *why, size_t len)
{
	const struct job *j = w->job;
	struct speed_est s = *est;
	int n = d->count;
	bool tune = j->task != TASK_INFERENCE;
	memset(out, 0, sizeof *out);
	out->batch = batch;
	out->replicas = 1;
	out->tps = j->task == TASK_INFERENCE ? s.decode_tps : s.train_tps;
	out->measured = s.measured;
	out->hours = j->hours_per_month;
	/* What one copy may run: the job's hours, within its window's hours
	 * in the month (schedule_month_hours); beyond, more copies. */
	double window = w->window_hours;
	double span = j->has_hours ? fmin(j->hours_per_month, window) : window;
	double hour_copies = j->has_hours ? ceil(j->hours_per_month / span - 1e-9) : 1;
	if (hour_copies > 1 && tune)
		return one_copy_short(w, d, j->hours_per_month, span, why, len);
	if (!j->has_tokens)
		return size_hours_only(w, d, max_replicas, span, hour_copies, out, why, len);
	out->work_hours = speed_hours_for_tokens(&s, j->task, prefill_tokens(w), j->output_tokens);
	if (!isfinite(out->work_hours)) {
		if (why && len)
			snprintf(why, len, "%dx %s has no estimated rate for %s", n, d->name,
			         j->model.id);
		return false;
	}
	out->need_tps = rated_tokens(j) / (span * 3600.0);
	if (hour_copies > 1)
		out->hours = span;
	/* Copies in double: the largest token counts need more than INT_MAX. */
	double copies = out->work_hours > span ? ceil(out->work_hours / span - 1e-9) : 1;
	if (copies > 1 && tune && span < HOURS_PER_MONTH)
		return one_copy_short(w, d, out->work_hours, span, why, len);
	copies = fmax(copies, hour_copies);
	out->replicas = (int)clamp_llong(copies, 1, INT_MAX);
	if (!j->has_hours)
		out->hours = out->work_hours / out->replicas;
	if (copies <= max_replicas)
		return true;
	/* The rate over the hours one copy needs: the decode (or training)
	 * rate, slowed by the prefill of the input when serving. */
	double does = rated_tokens(j) / (out->work_hours * 3600.0);
	char prefill[64] = "";
	if (j->task == TASK_INFERENCE && j->input_tokens > 0 && lround(does) != lround(out->tps))
		snprintf(prefill, sizeof prefill, " (%.0f with the prefill of its input)", does);
	int most = (max_replicas > 0 ? max_replicas : 0) * n;
	if (why && len)
		snprintf(
		    why, len,
		    "needs %.0f tok/s over %g h%s; %dx %s does %.0f under %s%s, so %.0f copies "
		    "(%.0f GPUs) would be needed, more than the %d GPU%s this route may use",
		    out->need_tps, round_to(span, 2),
		    span < HOURS_PER_MONTH && span == window ? " (its window's hours a month)" : "",
		    n, d->name, out->tps, w->engine->name, prefill, copies, copies * n, most,
		    most == 1 ? "" : "s");
	return false;
}

bool workload_size_est(const struct workload *w, const struct device *d, int max_replicas,
                       int batch, const struct speed_est *est, struct workload_run *out, char *why,
                       size_t len)
{
	return workload_size_within(w, d, max_replicas, batch, est, NULL, out, why, len);
}

bool size_floor_above(double floor, double best)
{
	return floor - fabs(floor) * 1e-9 > best;
}

bool workload_size_within(const struct workload *w, const struct device *d, int max_replicas,
                          int batch, const struct speed_est *est, const struct size_bound *bound,
                          struct workload_run *out, char *why, size_t len)
{
	const struct job *j = w->job;
	if (!size_for_work(w, d, max_replicas, batch, est, out, why, len))
		return false;
	if (!j->slo.given)
		return true;
	if (bound && size_floor_above(bound->floor(bound->ctx, out), bound->best)) {
		out->beaten = true;
		return false;
	}
	/* Latency targets: the replicas and batch they need at the peak, at
	 * least the replicas of the work (slo.c). Each replica runs the
	 * hours one copy does; the work's hours are spread over them. */
	int copies = out->replicas;
	if (!slo_size(w, d, max_replicas, batch, est, out, why, len))
		return false;
	if (!j->has_hours && out->replicas != copies)
		out->hours = out->work_hours / out->replicas;
	return true;
}

double workload_device_hours(const struct workload *w, const struct device *d, double *tps)
{
	const struct job *j = w->job;
	if (j->has_hours && !tps)
		return j->hours_per_month;
	int batch;
	struct speed_est s;
	workload_shape_estimate(&w->shape, d, &batch, &s);
	if (tps)
		*tps = j->task == TASK_INFERENCE ? s.decode_tps : s.train_tps;
	if (j->has_hours)
		return j->hours_per_month;
	return speed_hours_for_tokens(&s, j->task, prefill_tokens(w), j->output_tokens);
}

double workload_gpu_hours(const struct workload *w, const struct gpu_spec *gpu, int n, double *tps)
{
	struct device d = device_from_gpu(gpu, n);
	return workload_device_hours(w, &d, tps);
}

double power_cost(const struct jobspec *spec, int gpus, double watts, double hours)
{
	/* Keep this order of operations: compare, schedule and report must
	 * print the same figures they always have. */
	return gpus * watts * spec->pue * hours / 1000.0 * spec->electricity_per_kwh;
}

double energy_kwh(const struct jobspec *spec, int gpus, double watts, double hours)
{
	return gpus * watts * spec->pue * hours / 1000.0;
}

double owned_fixed_monthly(const struct jobspec *spec, const struct gpu_spec *gpu, int gpus,
                           double price)
{
	/* docs/estimation.md, "Cost of ownership": the fixed month of a
	 * purchase as compare's owned route charges it (tco_owned_month): its
	 * capital (the purchase and its hosts over amortize_months, less
	 * resale, at the cost of capital) and maintenance. Power is the
	 * schedule's, by the hours each GPU runs. */
	struct tco_owned t;
	tco_owned_month(spec, gpu, gpus, price, 0, 0, 0, false, &t);
	return t.capital + t.maintenance;
}
