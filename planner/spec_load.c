/* spec_load.c — jobs[].load and jobs[].slo (issue 27): a serving job's
 * peak (a rate or a concurrency) and its shape over the day (a peak
 * factor or 24 hourly weights), and its latency targets (time to first
 * token and time per output token at a percentile). slo.c sizes the
 * replicas and batch from them; the rows that hold them are in job_keys
 * (spec_job.c), after serving:. The rate rule is job_load_rps_at_hour's
 * (jobspec.h). */
#include "spec_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

/* A million requests a second, a million in flight: beyond any one
 * service a spec prices. */
#define MAX_LOAD_RATE 1e6
/* Peak hour over the mean hour: more than 24 would put more than a
 * day's requests in one hour. */
#define MAX_PEAK_FACTOR 24
/* An hour's weight in profile: relative, so only its scale is bounded. */
#define MAX_PROFILE_WEIGHT 1e9
/* A minute of latency: a target beyond it is no interactive target. */
#define MAX_LATENCY_MS   60000
#define HOURS_PER_DAY    24
#define MINUTES_PER_HOUR 60

/* profile: exactly 24 non-negative numbers, one per local hour. */
static int read_profile(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job_load *l = r->target;
	struct yr *y = &r->c->y;
	yaml_node_t *n = kv->val;
	char d[64];
	if (n->type == YAML_SEQUENCE_NODE)
		snprintf(d, sizeof d, "%zu entries", yr_seq_len(n));
	else
		yr_describe(n, d, sizeof d);
	if (n->type != YAML_SEQUENCE_NODE || yr_seq_len(n) != HOURS_PER_DAY)
		return yr_fail(y, n->start_mark,
		               "'profile' %s must be 24 non-negative numbers, one per local hour "
		               "0..23, got %s; write e.g. profile: [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, "
		               "3, 3, 2, 3, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0]",
		               r->where, d);
	double sum = 0;
	for (size_t i = 0; i < HOURS_PER_DAY; i++) {
		yaml_node_t *it = yr_visit(y, n->data.sequence.items.start[i], n->start_mark);
		if (!it)
			return PLANNER_EINPUT;
		struct keyed one = {kv->key, it};
		double x = 0;
		int rc = yr_get_num(y, &one, r->where, k->example, &x);
		if (rc != PLANNER_OK)
			return rc;
		if (!(x >= 0) || x > MAX_PROFILE_WEIGHT)
			return yr_fail(y, it->start_mark,
			               "'profile' %s hour %zu is %g; each hour's load must be a "
			               "number from 0 to %g",
			               r->where, i, x, MAX_PROFILE_WEIGHT);
		l->profile[i] = x;
		sum += x;
	}
	if (!(sum > 0))
		return yr_fail(y, n->start_mark,
		               "'profile' %s is 0 in every hour; give the relative load of the "
		               "hours the service is used",
		               r->where);
	l->has_profile = true;
	return PLANNER_OK;
}

#define LOAD_ROW(FIELD, HI, EXAMPLE, DESC)                                                         \
	{                                                                                          \
		.name = #FIELD, .kind = SPEC_NUMBER, .offset = offsetof(struct job_load, FIELD),   \
		.lo = 0, .hi = HI, .zero = "give a number over 0, or remove it",                   \
		.def_text = "none", .example = EXAMPLE, .desc = DESC                               \
	}

static const struct spec_key load_keys[] = {
    LOAD_ROW(peak_requests_per_second, MAX_LOAD_RATE, "peak_requests_per_second: 2.5",
             "Requests a second arriving in the busiest hour (Poisson arrivals); instead of "
             "peak_concurrency."),
    LOAD_ROW(peak_concurrency, MAX_LOAD_RATE, "peak_concurrency: 40",
             "Requests in flight at once at the peak (each client sends its next request "
             "when the last one ends); instead of peak_requests_per_second."),
    {.name = "peak_factor",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job_load, peak_factor),
     .lo = 1,
     .hi = MAX_PEAK_FACTOR,
     .def_text = "1 (flat over the window)",
     .example = "peak_factor: 3",
     .desc = "The busiest hour's requests over the mean hour the service is up; instead of "
             "profile."},
    {.name = "profile",
     .kind = SPEC_CUSTOM,
     .read = read_profile,
     .def_text = "none",
     .example = "profile: [0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 3, 2, 3, 3, 2, 1, 1, 0, 0, 0, 0, 0, 0]",
     .type = "list of 24 numbers",
     .bounds = "each 0 or more, not all 0; 0 outside schedule.window",
     .desc = "Relative load in each local hour 0..23 (the spec's time zone); instead of "
             "peak_factor."},
};

/* One peak and one shape at most; the reader has refused zeros. */
static int load_done(struct spec_rd *r)
{
	struct job_load *l = r->target;
	struct yr *y = &r->c->y;
	const struct keyed *conc = spec_val(r, "peak_concurrency");
	const struct keyed *prof = spec_val(r, "profile");
	if (l->peak_requests_per_second > 0 && conc->val)
		return yr_fail(y, conc->key->start_mark,
		               "'load' %s gives both peak_requests_per_second and "
		               "peak_concurrency; keep one",
		               r->up->where);
	if (l->peak_factor > 0 && prof->val)
		return yr_fail(y, prof->key->start_mark,
		               "'load' %s gives both peak_factor and profile; keep one (the "
		               "profile's busiest hour over its mean is its peak factor)",
		               r->up->where);
	l->given = true;
	return PLANNER_OK;
}

const struct spec_table spec_load = {
    .intro = "A serving job's load at its peak and over the day, for slo: to size its "
             "replicas and batch (docs/estimation.md, \"Latency targets\"). The rate in "
             "local hour h: with peak_requests_per_second, the peak x profile[h] / the "
             "profile's largest hour (flat over the window without a profile; with "
             "peak_factor f, the window's middle hour at the peak and the others at "
             "peak / f); without it, usage's requests a day spread over the window by the "
             "profile's weights, or evenly, with peak_factor raising the middle hour "
             "only. A profile may not put load in an hour outside schedule.window.",
    .keys = load_keys,
    .n = NELEM(load_keys),
    .where = "in load of ",
    .done = load_done,
};

static const struct spec_key slo_keys[] = {
    {.name = "ttft_ms",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job_slo, ttft_ms),
     .lo = 0,
     .hi = MAX_LATENCY_MS,
     .zero = "give the time to first token in milliseconds, over 0",
     .def_text = "none",
     .example = "ttft_ms: 2000",
     .desc = "Time to first token at the percentile, in milliseconds: queueing plus the "
             "prompt's prefill."},
    {.name = "tpot_ms",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job_slo, tpot_ms),
     .lo = 0,
     .hi = MAX_LATENCY_MS,
     .zero = "give the time per output token in milliseconds, over 0",
     .def_text = "none",
     .example = "tpot_ms: 100",
     .desc = "Time per output token after the first at the percentile, in milliseconds: "
             "one decode step of the batch."},
    {.name = "percentile",
     .kind = SPEC_NUMBER,
     .offset = offsetof(struct job_slo, percentile),
     .lo = 0,
     .hi = 100,
     .has_def = true,
     .def = 95,
     .zero = "give a percentile over 0 and under 100, e.g. 95",
     .def_text = "95",
     .example = "percentile: 99",
     .bounds = "over 0, under 100",
     .desc = "The share of requests, in percent, that must meet ttft_ms and tpot_ms."},
};

static int slo_done(struct spec_rd *r)
{
	struct job_slo *s = r->target;
	const struct keyed *p = spec_val(r, "percentile");
	if (p->val && !(s->percentile < 100))
		return yr_fail(&r->c->y, p->val->start_mark,
		               "'percentile' %s is %g; a percentile lies between 0 and 100 "
		               "(exclusive), e.g. 95 or 99.9",
		               r->up->where, s->percentile);
	if (!spec_val(r, "ttft_ms")->val && !spec_val(r, "tpot_ms")->val)
		return yr_fail(&r->c->y, r->map->start_mark,
		               "'slo' %s gives no target; add ttft_ms or tpot_ms, e.g. slo: "
		               "{ttft_ms: 2000, tpot_ms: 100}",
		               r->up->where);
	s->given = true;
	return PLANNER_OK;
}

const struct spec_table spec_slo = {
    .intro = "Latency targets of a serving job with a load (load: or usage: requests): "
             "compare picks per route the cheapest replicas and batch whose time to first "
             "token and time per output token at the percentile meet them at the peak "
             "(docs/estimation.md, \"Latency targets\"), or marks the route infeasible "
             "with the best latency it reaches.",
    .keys = slo_keys,
    .n = NELEM(slo_keys),
    .where = "in slo of ",
    .done = slo_done,
};

/* Minutes of local hour h (0..23) that s's daily window covers. */
static int hour_cover(const struct job_schedule *s, int h)
{
	int len = schedule_window_minutes(s), cover = 0;
	for (int day = -1; day <= 0; day++) { /* yesterday's window may run into h */
		int a = s->window_start + day * SCHEDULE_MINUTES_PER_DAY, b = a + len;
		int ha = h * MINUTES_PER_HOUR, hb = ha + MINUTES_PER_HOUR;
		int lo = a > ha ? a : ha, hi = b < hb ? b : hb;
		if (hi > lo)
			cover += hi - lo;
	}
	return cover > MINUTES_PER_HOUR ? MINUTES_PER_HOUR : cover;
}

/* The window's middle hour: where peak_factor puts the peak. */
static int middle_hour(const struct job_schedule *s)
{
	int mid = s->window_start + schedule_window_minutes(s) / 2;
	return (mid / MINUTES_PER_HOUR) % HOURS_PER_DAY;
}

/* Requests on a day the schedule allows, from usage: (0 without). */
static double usage_requests_per_day(const struct job *j)
{
	const struct job_usage *u = &j->usage;
	if (!u->interactive)
		return 0;
	return u->requests_per_day > 0 ? u->requests_per_day : u->users * u->requests_per_user_day;
}

double job_load_rps_at_hour(const struct job *j, int hour)
{
	const struct job_load *l = &j->load;
	const struct job_schedule *s = &j->sched;
	if (hour < 0 || hour >= HOURS_PER_DAY || hour_cover(s, hour) == 0)
		return 0;
	double f = l->peak_factor > 0 ? l->peak_factor : 1;
	if (l->peak_requests_per_second > 0) {
		double peak = l->peak_requests_per_second;
		if (l->has_profile) {
			double max = 0;
			for (int h = 0; h < HOURS_PER_DAY; h++)
				max = l->profile[h] > max ? l->profile[h] : max;
			return peak * l->profile[hour] / max;
		}
		return hour == middle_hour(s) ? peak : peak / f;
	}
	double day = usage_requests_per_day(j);
	if (!(day > 0))
		return 0;
	if (l->has_profile) {
		double sum = 0;
		for (int h = 0; h < HOURS_PER_DAY; h++)
			sum += l->profile[h];
		return day * l->profile[hour] / sum / 3600.0;
	}
	double mean = day / (schedule_window_minutes(s) * 60.0); /* per second while up */
	return hour == middle_hour(s) ? mean * f : mean;
}

double job_load_peak_rps(const struct job *j)
{
	double peak = 0;
	for (int h = 0; h < HOURS_PER_DAY; h++) {
		double x = job_load_rps_at_hour(j, h);
		peak = x > peak ? x : peak;
	}
	return peak;
}

/* After serving: load and slo belong to a serving job whose profile fits
 * its window, and slo needs a load to size for. */
int spec_check_load(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	struct yr *y = &r->c->y;
	if (j->task != TASK_INFERENCE || (j->usage.given && !j->usage.interactive))
		return yr_fail(y, kv->key->start_mark,
		               "%s %s is for a serving job, but this one is %s; remove %s", k->name,
		               r->where,
		               j->task != TASK_INFERENCE ? task_name(j->task)
		                                         : "a batch (usage counts documents)",
		               k->name);
	bool source = j->load.peak_requests_per_second > 0 || j->load.peak_concurrency > 0 ||
	              usage_requests_per_day(j) > 0;
	if (!strcmp(k->name, "load")) {
		if (!source)
			return yr_fail(y, kv->key->start_mark,
			               "load %s has no rate to shape; add peak_requests_per_second "
			               "or peak_concurrency, or usage: {requests_per_day: 240}",
			               r->where);
		for (int h = 0; j->load.has_profile && h < HOURS_PER_DAY; h++)
			if (j->load.profile[h] > 0 && hour_cover(&j->sched, h) == 0)
				return yr_fail(
				    y, kv->val->start_mark,
				    "'profile' %s puts load in hour %d, outside the serving "
				    "window; set hour %d to 0 or widen schedule.window",
				    r->where, h, h);
		return PLANNER_OK;
	}
	if (!source)
		return yr_fail(y, kv->key->start_mark,
		               "slo %s has no load to size for; add e.g. load: "
		               "{peak_requests_per_second: 2.5}, or usage: {users: 12, "
		               "requests_per_user_day: 20}",
		               r->where);
	return PLANNER_OK;
}
