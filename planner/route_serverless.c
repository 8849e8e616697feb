/* route_serverless.c — the serverless route: your container on a
 * provider's GPU workers, billed per second of worker time, scaled to
 * zero between requests (docs/estimation.md, "Serverless"). Prices are
 * the reference data's (schema/serverless.json). The bill is the busy
 * seconds (the job's hours on that GPU, sized as the rented route sizes
 * them), the idle seconds each worker waits before it scales down, and
 * the cold starts the traffic implies:
 *
 *  - a job with request: and tokens_per_month is interactive: its N
 *    requests a month (tokens / the request's tokens) arrive as a Poisson
 *    process over the hours its schedule allows (rate r = N / H); a gap
 *    longer than the idle timeout T costs a start, N e^(-rT) of them,
 *    plus the first request of each daily window (an overnight gap) when
 *    the window is shorter than a day; the worker is up, busy or idle,
 *    within T of a request: H (1 - e^(-rT)) hours, never more than H per
 *    replica;
 *  - any other job is a batch: each replica runs its hours in as few
 *    runs as its daily window allows, one start and one idle timeout
 *    each;
 *  - an offering that does not scale to zero (RunPod's active workers)
 *    bills every hour of the month and has no cold starts. */
#include <cJSON.h>
#include <math.h>
#include <stdio.h>

#include "plan_cache.h"
#include "route_price.h"
#include "util.h"

/* GiB of weights a cold start loads a second: models of 6.5-23 GB load
 * from local NVMe in 5-20 s on serverless GPU platforms, 1.1-1.3 GB/s
 * (https://www.workflowlab.dev/deploy/gpu-cold-start-benchmarks, "as of
 * May 2026", read 2026-12-02), rounded down. */
#define SERVERLESS_LOAD_GIB_PER_S 1.0

/* Why no offering priced the job, for the route's reason. */
struct sls_miss {
	double max_vram; /* per GPU, of the workers the job may use */
	int max_count;
	size_t considered, no_timeout, elsewhere, elsewhere_provider;
};

/* Most distinct worker sizes (GPU x count) the job is sized on once each:
 * offerings share them (RunPod's flex and active rows are the same
 * GPUs), and sizing is most of the route's time. */
#define SLS_SIZES 64

/* The job on one worker size: whether it fits and runs, and how. */
struct sls_sized {
	const struct gpu_spec *gpu;
	int count;
	bool ok; /* fits in memory and does the work */
	struct workload_run run;
};

/* The job's sizes so far, for one pricing of the route. */
struct sls_sizes {
	struct sls_sized at[SLS_SIZES];
	size_t n;
};

/* The billed seconds of one start on offering s for the job. */
static double cold_start_s(const struct route_ctx *c, const struct serverless_offering *s)
{
	const struct job *j = c->job;
	if (j->has_cold_start)
		return j->cold_start_s;
	double start = isnan(s->container_start_s) ? 0 : s->container_start_s;
	return start + c->w->need.weights_gib / SERVERLESS_LOAD_GIB_PER_S;
}

/* The interactive job's starts and idle hours (the rule above). */
static void interactive_traffic(const struct job *j, const struct workload_run *run, double window,
                                double day_h, struct serverless_terms *t)
{
	double requests =
	    (j->input_tokens + j->output_tokens) / (j->request_input + j->request_output);
	double rate = requests / window; /* a hour */
	double cold = exp(-rate * t->idle_timeout_s / 3600.0);
	double opens = day_h < 24 ? window / day_h : 0;
	t->starts = fmax(1, fmin(requests, requests * cold + opens * (1 - cold)));
	t->idle_hours = fmin(window * (1 - cold), fmax(0, window * run->replicas - t->busy_hours));
}

/* Fills t's busy and idle hours and starts for the job's run. */
static void traffic(const struct job *j, const struct workload_run *run, struct serverless_terms *t)
{
	double window = schedule_month_hours(&j->sched);
	double day_h = schedule_window_minutes(&j->sched) / 60.0;
	/* Busy: the hours the month's tokens take, not the hours a service
	 * is up (serving: window or always-on size the other routes for
	 * those); a worker scaled to zero bills only its work, idle time and
	 * starts. */
	t->busy_hours = run->work_hours > 0 ? fmin(run->work_hours, run->replicas * run->hours)
	                                    : run->replicas * run->hours;
	if (j->has_request && j->has_tokens && j->input_tokens + j->output_tokens > 0 &&
	    window > 0) {
		interactive_traffic(j, run, window, day_h, t);
		return;
	}
	double runs = day_h >= 24 ? 1 : ceil(run->hours / day_h);
	t->starts = run->replicas * fmax(1, runs);
	t->idle_hours = t->starts * t->idle_timeout_s / 3600.0;
}

/* The monthly cost, in the spec's currency, of worker row w under terms
 * t: every billed second, busy, idle or starting. */
static double bill(const struct route_ctx *c, const struct serverless_row *w,
                   const struct serverless_terms *t)
{
	double seconds = (t->busy_hours + t->idle_hours) * 3600.0 + t->starts * t->cold_start_s;
	return seconds * w->usd_per_second * c->spec->usd_to_currency;
}

/* The job sized on worker w, once per size (a too-short size's reason
 * noted the first time, as a second note of it would change nothing). */
static const struct sls_sized *sized(const struct route_ctx *c, const struct serverless_row *w,
                                     struct sls_sizes *z, struct short_of *sh)
{
	for (size_t i = 0; i < z->n; i++)
		if (z->at[i].gpu == w->gpu && z->at[i].count == w->count)
			return &z->at[i];
	struct sls_sized one = {.gpu = w->gpu, .count = w->count};
	char why[256];
	if (workload_fits(c->w, w->gpu, w->count)) {
		one.ok = size_cache_size(c->sizes, c->shape, c->w, w->gpu, w->count,
		                         WORKLOAD_MAX_GPUS / w->count, &one.run, why, sizeof why);
		if (!one.ok)
			route_note_short(sh, &one.run, why);
	}
	if (z->n == SLS_SIZES) {
		z->at[0] = one; /* no room: sized again when met again */
		return &z->at[0];
	}
	z->at[z->n] = one;
	return &z->at[z->n++];
}

/* Prices row w of offering s on the job's run; keeps it in r when
 * cheaper. */
static void consider_worker(const struct route_ctx *c, const struct serverless_offering *s,
                            const struct serverless_row *w, const struct workload_run *sized_run,
                            struct route_result *r)
{
	struct workload_run run = *sized_run;
	struct serverless_terms t = {.always_on = !s->scale_to_zero};
	if (t.always_on) {
		t.busy_hours = run.replicas * run.hours;
		t.idle_hours = fmax(0, run.replicas * HOURS_PER_MONTH - t.busy_hours);
	} else {
		t.idle_timeout_s =
		    c->job->has_idle_timeout ? c->job->idle_timeout_s : s->idle_timeout_s;
		t.cold_start_s = cold_start_s(c, s);
		traffic(c->job, &run, &t);
	}
	double cost = bill(c, w, &t);
	if (r->feasible && cost >= r->monthly_cost)
		return;
	r->feasible = true;
	r->monthly_cost = cost;
	r->gpu = w->gpu;
	r->gpu_count = w->count * run.replicas;
	r->replicas = run.replicas;
	r->batch = run.batch;
	route_copy_latency(r, &run);
	r->work_hours = run.work_hours;
	r->gpu_hours = run.hours;
	r->tokens_per_second = run.tps * run.replicas;
	r->measured = run.measured;
	r->confidence = route_confidence(c->w, w->gpu, w->count);
	r->price_per_hour = w->usd_per_second * 3600.0 * c->spec->usd_to_currency;
	r->sls = t;
	snprintf(r->provider, sizeof r->provider, "%s %s", s->provider, s->tier);
	snprintf(r->offer, sizeof r->offer, "%s", w->offer);
}

/* Whether the job may use offering s at all; counts why not in m. */
static bool offering_allowed(const struct route_ctx *c, const struct serverless_offering *s,
                             struct sls_miss *m)
{
	/* providers: names the providers whose prices count, rented or
	 * serverless. */
	if (!workload_provider_allowed(c->w, s->provider)) {
		m->elsewhere_provider++;
		return false;
	}
	/* No offering states where its workers run, so listed regions
	 * exclude every one, as an API host of unknown location is. */
	if (!workload_region_allowed(c->w, "", "", "")) {
		m->elsewhere++;
		return false;
	}
	if (s->scale_to_zero && isnan(s->idle_timeout_s) && !c->job->has_idle_timeout) {
		m->no_timeout++;
		return false;
	}
	return true;
}

static void price_offering(const struct route_ctx *c, const struct serverless_offering *s,
                           struct route_result *r, struct short_of *sh, struct sls_miss *m,
                           struct sls_sizes *z)
{
	if (!offering_allowed(c, s, m))
		return;
	for (size_t i = 0; i < s->n_rows; i++) {
		const struct serverless_row *w = &s->rows[i];
		if (!workload_gpu_allowed(c->w, w->gpu))
			continue;
		m->considered++;
		if (w->gpu->vram_gib > m->max_vram)
			m->max_vram = w->gpu->vram_gib;
		if (w->count > m->max_count)
			m->max_count = w->count;
		const struct sls_sized *one = sized(c, w, z, sh);
		if (one->ok)
			consider_worker(c, s, w, &one->run, r);
	}
}

static void why_not(const struct route_ctx *c, struct route_result *r, const struct short_of *sh,
                    const struct sls_miss *m)
{
	if (sh->any)
		route_why_short(r, sh);
	else if (m->elsewhere)
		route_why(r, "no serverless offering states where its workers run, and the job "
		             "lists regions");
	else if (m->considered == 0 && m->elsewhere_provider && !m->no_timeout)
		route_why(r, "no serverless offering from the listed providers; add runpod, "
		             "replicate or modal to providers");
	else if (m->considered == 0 && m->no_timeout)
		route_why(r, "no serverless offering the job may use states its idle timeout; set "
		             "serverless: {idle_timeout_s: N}");
	else if (m->considered == 0)
		route_why(
		    r, "no serverless worker runs the job's accelerator; allow accelerator: any");
	else
		route_why(
		    r, "needs %.1f GiB; largest serverless worker has %.0f GiB per GPU and %d GPUs",
		    c->w->need.total_gib, m->max_vram, m->max_count);
}

static int price_serverless(const struct route_ctx *c, struct route_result *r, char **err)
{
	(void)err;
	struct short_of sh = {0};
	struct sls_miss m = {0};
	struct sls_sizes z;
	z.n = 0;
	for (size_t k = 0; k < c->ref->n_serverless; k++)
		price_offering(c, &c->ref->serverless[k], r, &sh, &m, &z);
	if (!r->feasible)
		why_not(c, r, &sh, &m);
	return PLANNER_OK;
}

/* The busy seconds grow with the job's hours; the idle time and the
 * starts the traffic implies (all of an active worker's bill) are the
 * fixed part. */
static void serverless_cost_line(const struct route_result *r, double use, struct cost_line *l)
{
	double busy = r->sls.always_on ? 0 : r->sls.busy_hours * r->price_per_hour;
	l->fixed = r->monthly_cost - busy;
	l->slope = use > 0 ? busy / use : (r->sls.always_on ? 0 : r->price_per_hour);
}

static void serverless_json(cJSON *o, const struct plan *p, const struct route_result *r)
{
	(void)p;
	const struct serverless_terms *t = &r->sls;
	cJSON_AddStringToObject(o, "provider", r->provider);
	cJSON_AddStringToObject(o, "prices_source", "reference");
	cJSON_AddStringToObject(o, "offer", r->offer);
	cJSON_AddStringToObject(o, "gpu", r->gpu->name);
	cJSON_AddNumberToObject(o, "gpu_count", r->gpu_count);
	cJSON_AddNumberToObject(o, "replicas", r->replicas);
	cJSON_AddNumberToObject(o, "batch", r->batch);
	cJSON_AddNumberToObject(o, "gpu_hours", round_to(r->gpu_hours, 4));
	cJSON_AddNumberToObject(o, "price_per_second", round_to(r->price_per_hour / 3600.0, 6));
	cJSON_AddBoolToObject(o, "always_on", t->always_on);
	cJSON_AddNumberToObject(o, "busy_hours", round_to(t->busy_hours, 4));
	cJSON_AddNumberToObject(o, "idle_hours", round_to(t->idle_hours, 4));
	cJSON_AddNumberToObject(o, "cold_starts", round_to(t->starts, 1));
	cJSON_AddNumberToObject(o, "cold_start_s", round_to(t->cold_start_s, 1));
	cJSON_AddNumberToObject(o, "idle_timeout_s", round_to(t->idle_timeout_s, 1));
	route_json_speed(o, r);
	cJSON_AddStringToObject(o, "confidence", confidence_name(r->confidence));
}

/* "busy 4.9 h + idle 3.1 h + 120 starts x 12 s" or "all month". */
static void terms_text(char *buf, size_t len, const struct route_result *r)
{
	const struct serverless_terms *t = &r->sls;
	if (t->always_on)
		snprintf(buf, len, "all month (%.1f h busy)", t->busy_hours);
	else
		snprintf(buf, len, "busy %.1f h + idle %.1f h + %.0f starts x %.0f s",
		         t->busy_hours, t->idle_hours, t->starts, t->cold_start_s);
}

static int serverless_detail(char *buf, size_t len, const struct route_result *r, const char *cur,
                             bool costs)
{
	(void)costs;
	char reps[48], terms[128];
	route_gpu_count_text(reps, sizeof reps, r);
	terms_text(terms, sizeof terms, r);
	int n = snprintf(buf, len, "%s %s (%s %s), %.5f %s/s x %s, %s%.0f tok/s", r->provider,
	                 r->offer, reps, r->gpu->name, r->price_per_hour / 3600.0, cur, terms,
	                 route_speed_mark(r), r->tokens_per_second);
	return route_speed_text(buf, len, n, r);
}

static void serverless_report_detail(char *buf, size_t len, const struct route_result *r,
                                     const char *cur)
{
	serverless_detail(buf, len, r, cur, true);
}

static void serverless_summary(char *buf, size_t len, const struct job_result *j, const char *cur)
{
	(void)cur;
	const struct route_result *r = &j->routes[j->best];
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	snprintf(buf, len, "run serverless: %s %s %s (%s)", r->provider, reps, r->gpu->name,
	         r->offer);
}

static void serverless_decision(char *buf, size_t len, const struct route_result *r)
{
	char reps[48];
	route_gpu_count_text(reps, sizeof reps, r);
	snprintf(buf, len, "serverless %s %s %s", r->provider, reps, r->gpu->name);
}

static const enum route_field serverless_head[] = {ROUTE_FIELD_MONTHLY_COST, ROUTE_FIELD_PROVIDER,
                                                   ROUTE_FIELD_OFFER,        ROUTE_FIELD_GPU,
                                                   ROUTE_FIELD_GPU_COUNT,    ROUTE_FIELD_END};
static const enum route_field serverless_tail[] = {ROUTE_FIELD_END};

const struct route_ops route_serverless = {
    .name = "serverless",
    .tie_rank = 3,
    .flags = ROUTE_LEAVES_HOUSE | ROUTE_INFERENCE_ONLY,
    .colour = "#009e73",
    .price = price_serverless,
    .cost_line = serverless_cost_line,
    .json = serverless_json,
    .detail = serverless_detail,
    .report_detail = serverless_report_detail,
    .summary = serverless_summary,
    .decision = serverless_decision,
    .csv_head = serverless_head,
    .csv_tail = serverless_tail,
};
