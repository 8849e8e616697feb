/* sched_time.c — the month's hours in the spec's time zone (schedule.h,
 * "the month"): the hourly slots of a calendar month across daylight-saving
 * changes, which of them a job's window, days and deadline allow, and the
 * ISO 8601 text of a time. Moved out of schedule.c, which builds the
 * problem on them and turns the answer into runs. */
/* struct tm's tm_gmtoff (glibc shows it with _DEFAULT_SOURCE; BSD and
 * macOS always have it). */
#define _DEFAULT_SOURCE

#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- time ---- */

int sched_month_slots(const char *tz, int year, int month, struct sched_slot **out, int *n,
		      char **err)
{
	*out = NULL;
	*n = 0;
	if (month < 1 || month > 12 || year < 1970 || year > 9999)
		return set_err(err, PLANNER_EINPUT, "month %04d-%02d is out of range", year, month);
	const char *old = getenv("TZ");
	char *saved = old ? strdup(old) : NULL;
	if (old && !saved)
		return set_err(err, PLANNER_ESYS, "out of memory");
	setenv("TZ", tz && *tz ? tz : "UTC", 1);
	tzset();
	struct tm a = {.tm_year = year - 1900, .tm_mon = month - 1, .tm_mday = 1, .tm_isdst = -1};
	struct tm b = {.tm_year = year - 1900 + (month == 12),
	               .tm_mon = month % 12,
	               .tm_mday = 1,
		       .tm_isdst = -1};
	time_t t0 = mktime(&a), t1 = mktime(&b);
	int rc = PLANNER_OK;
	int count = (int)((t1 - t0 + 3599) / 3600);
	struct sched_slot *s = NULL;
	if (t0 == (time_t)-1 || t1 <= t0) {
		rc = set_err(err, PLANNER_EINPUT, "cannot lay out %04d-%02d in time zone %s", year,
			     month, tz);
		goto out;
	}
	s = calloc((size_t)count + 1, sizeof *s);
	if (!s) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	for (int i = 0; i <= count; i++) {
		time_t t = i < count ? t0 + (time_t)i * 3600 : t1;
		struct tm lt;
		localtime_r(&t, &lt);
		s[i].start = t;
		s[i].utc_offset = (int)lt.tm_gmtoff;
		s[i].mday = lt.tm_mday;
		s[i].wday = (lt.tm_wday + 6) % 7;
		s[i].minute = lt.tm_hour * 60 + lt.tm_min;
	}
	*out = s;
	*n = count;
out:
	if (saved) {
		setenv("TZ", saved, 1);
		free(saved);
	} else {
		unsetenv("TZ");
	}
	tzset();
	return rc;
}

#define MINUTES_PER_DAY SCHEDULE_MINUTES_PER_DAY

/* Whether minutes [a, b) after the local midnight of a day (wday) lie in
 * the union of the window's occurrences that start the day before, that
 * day and the next, on days the mask allows; an occurrence belongs to the
 * day it starts. Slots start on whole local hours, except after a shift
 * that is not a whole hour (Australia/Lord_Howe's 30 minutes), where they
 * start at :30 and one a day crosses midnight: covered by two abutting
 * days' windows, it is still inside a window that covers the whole day. */
static bool in_windows(int ws, int len, unsigned mask, int wday, int a, int b)
{
	int covered = a;
	/* The occurrences come in order of their start, all as long: one
	 * sweep finds how far from a they cover without a gap. */
	for (int d = -1; d <= 1; d++) {
		int lo = d * MINUTES_PER_DAY + ws, hi = lo + len;
		if ((mask & (1u << ((wday + 7 + d) % 7))) && lo <= covered && hi > covered)
			covered = hi;
	}
	return covered >= b;
}

void sched_allowed(const struct job_schedule *s, const struct sched_slot *slots, int n,
		   unsigned char *allowed)
{
	unsigned mask = s->days_mask ? s->days_mask : DAYS_ALL;
	for (int t = 0; t < n; t++) {
		const struct sched_slot *sl = &slots[t];
		/* slots[n] is the month's end: every slot has a next. */
		int a = sl->minute, b = a + (int)((slots[t + 1].start - sl->start) / 60);
		bool ok = in_windows(s->window_start, schedule_window_minutes(s), mask, sl->wday, a, b);
		/* Done by the end of day D: the slot lies within day D or earlier. */
		if (s->deadline > 0 && sl->mday + (b > MINUTES_PER_DAY) > s->deadline)
			ok = false;
		allowed[t] = ok;
	}
}

void sched_iso(time_t t, int utc_offset, char *buf, size_t len)
{
	time_t local = t + utc_offset;
	struct tm tm;
	gmtime_r(&local, &tm);
	int off = utc_offset < 0 ? -utc_offset : utc_offset;
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", tm.tm_year + 1900,
		 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		 utc_offset < 0 ? '-' : '+', off / 3600, off % 3600 / 60);
}
