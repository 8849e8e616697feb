/* spec_schedule.c — the rows of a job's schedule: mapping (spec_table.h):
 * the daily window, the days a window may start on, the deadline, the
 * priority and the run lengths, with the readers of days and windows. The
 * row that holds it is in job_keys (spec_job.c). */
#include "spec_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"
#include "workload.h"

#define MAX_PRIORITY 1000000
/* Days in the longest month: the latest deadline. */
#define MAX_DEADLINE 31
/* Entries of a days: list; a week needs seven. */
#define MAX_DAY_ENTRIES 64
#define MINUTES_PER_DAY SCHEDULE_MINUTES_PER_DAY


static const char *const day_names[] = {"mon",      "tue",    "wed",      "thu",     "fri",
                                        "sat",      "sun",    "monday",   "tuesday", "wednesday",
                                        "thursday", "friday", "saturday", "sunday",  "weekdays",
                                        "weekends", "all"};

/* Days mask for one word of day_names (or "weekend", "daily"); 0 if none. */
static unsigned day_bits(const char *w)
{
	for (size_t i = 0; i < NELEM(day_names); i++) {
		if (strcasecmp(w, day_names[i]))
			continue;
		if (i < 14)
			return 1u << (i % 7);
		return i == 14 ? 0x1f : i == 15 ? 0x60 : DAYS_ALL;
	}
	if (!strcasecmp(w, "weekend"))
		return 0x60;
	if (!strcasecmp(w, "daily"))
		return DAYS_ALL;
	return 0;
}

static int read_day(struct spec_rd *r, yaml_node_t *n, unsigned *mask)
{
	char d[64];
	struct yr *y = &r->c->y;
	if (!yr_is_text(n))
		return yr_fail(y, n->start_mark, "a day %s is %s; write e.g. days: [mon, tue, wed]",
		               r->where, yr_describe(n, d, sizeof d));
	unsigned b = day_bits(yr_sval(n));
	if (b) {
		*mask |= b;
		return PLANNER_OK;
	}
	const char *s = nearest_name(yr_sval(n), day_names, NELEM(day_names));
	if (s)
		return yr_fail(y, n->start_mark, "unknown day '%s' %s; did you mean '%s'?",
		               yr_sval(n), r->where, s);
	return yr_fail(y, n->start_mark,
	               "unknown day '%s' %s; use mon ... sun, weekdays, weekends or all",
	               yr_sval(n), r->where);
}

static int read_days(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct yr *y = &r->c->y;
	yaml_node_t *dn = kv->val;
	unsigned mask = 0;
	if (dn->type != YAML_SEQUENCE_NODE) {
		int rc = read_day(r, dn, &mask);
		if (rc == PLANNER_OK)
			*(unsigned *)spec_field(r, k) = mask;
		return rc;
	}
	size_t n = yr_seq_len(dn);
	if (n == 0)
		return yr_fail(y, dn->start_mark,
		               "'days' %s is empty; list days such as [mon, "
		               "tue] or write days: all",
		               r->where);
	if (n > MAX_DAY_ENTRIES)
		return yr_fail(y, dn->start_mark, "'days' %s has %zu entries; name each day once",
		               r->where, n);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *it = yr_visit(y, dn->data.sequence.items.start[i], dn->start_mark);
		if (!it || read_day(r, it, &mask) != PLANNER_OK)
			return PLANNER_EINPUT;
	}
	*(unsigned *)spec_field(r, k) = mask;
	return PLANNER_OK;
}

/* "HH:MM" → minutes; 24:00 only when allow24. Returns -1 when malformed. */
static int parse_clock(const char **sp, bool allow24)
{
	const char *s = *sp;
	while (*s == ' ')
		s++;
	int h = 0, digits = 0;
	while (isdigit((unsigned char)*s) && digits < 2) {
		h = h * 10 + (*s++ - '0');
		digits++;
	}
	if (!digits || *s++ != ':' || !isdigit((unsigned char)s[0]) ||
	    !isdigit((unsigned char)s[1]))
		return -1;
	int m = (s[0] - '0') * 10 + (s[1] - '0');
	s += 2;
	while (*s == ' ')
		s++;
	*sp = s;
	if (m > 59 || h > 24 || (h == 24 && (m || !allow24)))
		return -1;
	return h * 60 + m;
}

static bool parse_window(const char *s, int *start, int *end)
{
	int a = parse_clock(&s, false);
	if (a < 0 || *s++ != '-')
		return false;
	int b = parse_clock(&s, true);
	if (b < 0 || *s)
		return false;
	if (b == 0)
		b = MINUTES_PER_DAY; /* "22:00-00:00" runs to midnight */
	if (a == b)
		return false;
	*start = a;
	*end = b;
	return true;
}

static int read_window(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	struct job_schedule *s = r->target;
	if (yr_is_text(kv->val) && parse_window(yr_sval(kv->val), &s->window_start, &s->window_end))
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "window %s %s is not a time range; write e.g. window: \"22:00-06:00\" "
	               "(\"00:00-24:00\" is the whole day)",
	               yr_describe(kv->val, d, sizeof d), r->where);
}

static int check_max_run(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job_schedule *s = r->target;
	if (s->max_run < s->min_run)
		return yr_fail(
		    &r->c->y, kv->val->start_mark,
		    "max_run %gh %s is shorter than min_run %gh; make max_run at least %g",
		    s->max_run, r->where, s->min_run, s->min_run);
	return PLANNER_OK;
}

/* After every key: a run must fit in the window. */
static int schedule_done(struct spec_rd *r)
{
	struct job_schedule *s = r->target;
	const struct keyed *kv = spec_val(r, "min_run");
	int len = schedule_window_minutes(s);
	if (kv->val && s->min_run * 60 > len)
		return yr_fail(
		    &r->c->y, kv->val->start_mark,
		    "min_run %gh %s is longer than the %gh window; widen the window or shorten "
		    "min_run",
		    s->min_run, r->where, len / 60.0);
	return PLANNER_OK;
}

int schedule_window_minutes(const struct job_schedule *s)
{
	return s->window_end > s->window_start ? s->window_end - s->window_start
	                                       : s->window_end + MINUTES_PER_DAY - s->window_start;
}

/* Days of the week s's windows may start on, 1..7. */
static int week_days(const struct job_schedule *s)
{
	unsigned mask = (s->days_mask ? s->days_mask : DAYS_ALL) & DAYS_ALL;
	int days = 0;
	for (unsigned m = mask; m; m &= m - 1)
		days++;
	return days;
}

double schedule_month_days(const struct job_schedule *s)
{
	return week_days(s) * (double)SCHEDULE_MONTH_DAYS / 7.0;
}

double schedule_month_hours(const struct job_schedule *s)
{
	unsigned mask = (s->days_mask ? s->days_mask : DAYS_ALL) & DAYS_ALL;
	int days = week_days(s);
	int len = schedule_window_minutes(s);
	/* A whole-day window on every day is the whole month. */
	if (len >= MINUTES_PER_DAY && mask == DAYS_ALL)
		return HOURS_PER_MONTH;
	return len / 60.0 * days / 7.0 * SCHEDULE_MONTH_DAYS;
}

static void schedule_init(void *target)
{
	struct job_schedule *s = target;
	s->window_start = 0;
	s->window_end = MINUTES_PER_DAY;
}

static const struct spec_key sched_keys[] = {
    {.name = "window",
     .kind = SPEC_CUSTOM,
     .read = read_window,
     .offset = offsetof(struct job_schedule, window_start),
     .def_text = "00:00-24:00",
     .example = "window: \"22:00-06:00\"",
     .type = "text, \"HH:MM-HH:MM\"",
     .bounds = "00:00 to 24:00; the end before the start crosses midnight",
     .desc = "Hours of the day, in timezone, the job may run. compare holds a job's "
             "hours on a route to the window's hours in its 31-day month (daily hours x "
             "the share of days x 31: 248 h for 22:00-06:00)."},
    {.name = "days",
     .kind = SPEC_CUSTOM,
     .read = read_days,
     .offset = offsetof(struct job_schedule, days_mask),
     .store = STORE_INT,
     .has_def = true,
     .def = DAYS_ALL,
     .def_text = "all",
     .example = "days: [mon, tue, wed]",
     .type = "day or list of days",
     .bounds = "mon ... sun, monday ... sunday, weekdays, weekends, weekend, all, daily",
     .desc = "Days a window may start on."},
    {.name = "deadline",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct job_schedule, deadline),
     .store = STORE_INT,
     .lo = 1,
     .hi = MAX_DEADLINE,
     .def_text = "end of the month",
     .example = "deadline: 25",
     .type = "whole number, day of month",
     .desc = "Last day of the month the job may run on; all its hours are done by its "
             "end."},
    {.name = "priority",
     .kind = SPEC_WHOLE,
     .offset = offsetof(struct job_schedule, priority),
     .store = STORE_INT,
     .lo = -MAX_PRIORITY,
     .hi = MAX_PRIORITY,
     .has_def = true,
     .def = 0,
     .example = "priority: 10",
     .desc = "Breaks ties only: a higher priority wins owned GPUs when the cost is equal."},
    {.name = "min_run",
     .kind = SPEC_HOURS,
     .offset = offsetof(struct job_schedule, min_run),
     .lo = 0,
     .hi = HOURS_PER_MONTH,
     .def_text = "no minimum",
     .example = "min_run: 4",
     .bounds = "0 to 744, and at most the window's length",
     .desc = "Shortest contiguous run in hours (the last run may be shorter when it "
             "finishes the work)."},
    {.name = "max_run",
     .kind = SPEC_HOURS,
     .offset = offsetof(struct job_schedule, max_run),
     .lo = 0,
     .hi = HOURS_PER_MONTH,
     .zero = "give the longest run in hours, or remove it",
     .check = check_max_run,
     .def_text = "no maximum",
     .example = "max_run: 8",
     .bounds = "over 0, at most 744, and at least min_run",
     .desc = "Longest contiguous run in hours."},
};

const struct spec_table spec_schedule = {
    .intro = "When the job may run. Times are in the spec's timezone.",
    .keys = sched_keys,
    .n = NELEM(sched_keys),
    .where = "in the schedule of ",
    .init = schedule_init,
    .done = schedule_done,
};

_Static_assert(NELEM(sched_keys) <= SPEC_MAX_KEYS, "sched_keys: raise SPEC_MAX_KEYS");
