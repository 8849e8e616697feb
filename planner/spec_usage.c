/* spec_usage.c — jobs[].usage: a job's volume as people give it (issue
 * 27): users and their requests a day, or requests a day in all (an
 * interactive service), or documents a month (a batch), turned into the
 * job's tokens_per_month over the days its schedule allows in compare's
 * nominal month, and the arithmetic in words for compare to show. The row
 * that holds it is in job_keys (spec_job.c), after request:. */
#include "spec_table.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "util.h"
#include "workload.h"

/* People, requests and documents: a billion of any is a typo, not a
 * workload one spec prices. */
#define MAX_USAGE_COUNT 1e9
/* Tokens a month, as tokens_per_month's bound (spec_job.c). */
#define MAX_USAGE_TOKENS 1e15
/* Tokens of one document: as a request's bound (spec_serve.c). */
#define MAX_DOCUMENT_TOKENS 1e8


#define USAGE_ROW(FIELD, HI, EXAMPLE, DESC)                                                        \
	{                                                                                          \
		.name = #FIELD, .kind = SPEC_COUNT, .offset = offsetof(struct job_usage, FIELD),   \
		.lo = 0, .hi = HI, .zero = "give a count over 0, or remove it",                    \
		.def_text = "none", .example = EXAMPLE, .desc = DESC                               \
	}

static const struct spec_key usage_keys[] = {
    USAGE_ROW(users, MAX_USAGE_COUNT, "users: 12",
              "People who use the service; with requests_per_user_day."),
    USAGE_ROW(requests_per_user_day, MAX_USAGE_COUNT, "requests_per_user_day: 20",
              "Requests each user sends on a day the schedule allows."),
    USAGE_ROW(requests_per_day, MAX_USAGE_COUNT, "requests_per_day: 240",
              "Requests all users send together on a day the schedule allows, instead of "
              "users and requests_per_user_day."),
    USAGE_ROW(documents_per_month, MAX_USAGE_COUNT, "documents_per_month: 2000",
              "Batch: documents the job reads in a month; with tokens_per_document."),
    USAGE_ROW(tokens_per_document, MAX_DOCUMENT_TOKENS, "tokens_per_document: 5000",
              "Batch: prompt tokens one document brings."),
    USAGE_ROW(output_per_document, MAX_DOCUMENT_TOKENS, "output_per_document: 200",
              "Batch: tokens generated for one document (default 0)."),
};

/* Each form needs its partner and excludes the others; a missing partner
 * is named with its example. */
static int usage_done(struct spec_rd *r)
{
	struct job_usage *u = r->target;
	struct yr *y = &r->c->y;
	bool people = u->users > 0 || u->requests_per_user_day > 0;
	bool requests = u->requests_per_day > 0;
	bool docs =
	    u->documents_per_month > 0 || u->tokens_per_document > 0 || u->output_per_document > 0;
	if (people + requests + docs > 1)
		return yr_fail(y, r->map->start_mark,
		               "'usage' %s mixes %s; give one of {users, requests_per_user_day}, "
		               "{requests_per_day} or {documents_per_month, tokens_per_document}",
		               r->up->where,
		               docs ? "documents with requests" : "users with requests_per_day");
	if (people && !(u->users > 0))
		return yr_fail(y, r->map->start_mark,
		               "'usage' %s has requests_per_user_day but no users; add e.g. users: "
		               "12, or give requests_per_day instead",
		               r->up->where);
	if (people && !(u->requests_per_user_day > 0))
		return yr_fail(y, r->map->start_mark,
		               "'usage' %s has users but no requests_per_user_day; add e.g. "
		               "requests_per_user_day: 20",
		               r->up->where);
	if (docs && !(u->documents_per_month > 0 && u->tokens_per_document > 0))
		return yr_fail(y, r->map->start_mark,
		               "'usage' %s needs both documents_per_month and tokens_per_document; "
		               "write e.g. usage: {documents_per_month: 2000, tokens_per_document: "
		               "5000}",
		               r->up->where);
	if (!people && !requests && !docs)
		return yr_fail(y, r->map->start_mark,
		               "'usage' %s gives no volume; write e.g. usage: {users: 12, "
		               "requests_per_user_day: 20}",
		               r->up->where);
	u->given = true;
	u->interactive = people || requests;
	return PLANNER_OK;
}

const struct spec_table spec_usage = {
    .intro = "The job's volume in people's terms, instead of tokens_per_month or "
             "hours_per_month: users x requests_per_user_day (or requests_per_day) x the "
             "days its schedule allows in compare's 31-day month (31 x the share of the "
             "week's days: 22.1 for weekdays) x the request's input and output tokens; or "
             "documents_per_month x (tokens_per_document + output_per_document). An "
             "interactive job (users or requests_per_day) needs request: and, without "
             "serving:, is up every hour of its window (serving: window), or all month "
             "with no window (always-on). compare shows the arithmetic.",
    .keys = usage_keys,
    .n = NELEM(usage_keys),
    .where = "in usage of ",
    .done = usage_done,
};

/* Requests a month of an interactive job's usage. */
static double usage_requests(const struct job_usage *u)
{
	double per_day =
	    u->requests_per_day > 0 ? u->requests_per_day : u->users * u->requests_per_user_day;
	return per_day * u->days;
}

/* After request: the job's tokens from its usage. usage: beside
 * tokens_per_month or hours_per_month is refused (two volumes), and an
 * interactive usage needs the request shape. */
int spec_check_usage(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job *j = r->target;
	struct job_usage *u = &j->usage;
	struct yr *y = &r->c->y;
	static const char *const other[] = {"tokens_per_month", "hours_per_month"};
	for (size_t i = 0; i < NELEM(other); i++)
		if (spec_val(r, other[i])->val)
			return yr_fail(
			    y, kv->key->start_mark,
			    "usage and %s %s both give the job's volume; keep one: remove "
			    "%s to size it from usage, or remove usage",
			    other[i], r->where, other[i]);
	if (u->interactive && !j->has_request)
		return yr_fail(y, kv->key->start_mark,
		               "usage %s counts requests but the job has no request shape; add "
		               "the mean request, e.g. request: {input: 1500, output: 300}",
		               r->where);
	u->days = schedule_month_days(&j->sched);
	if (u->interactive) {
		double n = usage_requests(u);
		j->input_tokens = n * j->request_input;
		j->output_tokens = n * j->request_output;
	} else {
		j->input_tokens = u->documents_per_month * u->tokens_per_document;
		j->output_tokens = u->documents_per_month * u->output_per_document;
	}
	if (j->input_tokens + j->output_tokens > MAX_USAGE_TOKENS)
		return yr_fail(y, kv->val->start_mark,
		               "usage %s comes to %.3g tokens a month, more than %.0e; check the "
		               "counts",
		               r->where, j->input_tokens + j->output_tokens, MAX_USAGE_TOKENS);
	j->has_tokens = true;
	return PLANNER_OK;
}

/* "9.57M": a token count in three figures. */
static void short_count(double x, char *buf, size_t len)
{
	static const char *const unit[] = {"", "K", "M", "B", "T"};
	size_t i = 0;
	while (x >= 1000 && i + 1 < NELEM(unit)) {
		x /= 1000;
		i++;
	}
	snprintf(buf, len, "%.*f%s", i == 0 || x >= 100 ? 0 : x >= 10 ? 1 : 2, x, unit[i]);
}

void job_usage_text(const struct job *j, char *buf, size_t len)
{
	const struct job_usage *u = &j->usage;
	char total[32];
	if (!len)
		return;
	buf[0] = '\0';
	if (!u->given)
		return;
	short_count(j->input_tokens + j->output_tokens, total, sizeof total);
	if (!u->interactive) {
		snprintf(buf, len, "%g documents x (%g in + %g out) = %s tokens a month",
		         u->documents_per_month, u->tokens_per_document, u->output_per_document,
		         total);
		return;
	}
	char who[96];
	if (u->requests_per_day > 0)
		snprintf(who, sizeof who, "%g requests a day", u->requests_per_day);
	else
		snprintf(who, sizeof who, "%g users x %g requests a day", u->users,
		         u->requests_per_user_day);
	snprintf(buf, len, "%s x %.1f days x (%g in + %g out) = %s tokens a month", who, u->days,
	         j->request_input, j->request_output, total);
}
