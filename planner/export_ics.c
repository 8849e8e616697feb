/* export_ics.c — the schedule as an iCalendar file (RFC 5545): one VEVENT
 * per owned or rented run, times in UTC ("Z", so no VTIMEZONE is needed
 * and every calendar shows them in its own zone), UIDs derived from job,
 * route and start so re-importing a month updates instead of duplicating,
 * CRLF line ends and lines folded at 75 octets. DTSTAMP is the time of the
 * prices the schedule was made from, so the same input gives the same
 * file. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "export.h"
#include "util.h"

/* RFC 5545 3.1: lines longer than 75 octets are folded. */
#define ICS_LINE_OCTETS 75

void export_slug(const char *s, char *out, size_t len)
{
	size_t n = 0;
	bool dash = false;
	for (const char *p = s; *p && n + 1 < len; p++) {
		char ch = *p;
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')) {
			if (dash && n > 0 && n + 2 < len)
				out[n++] = '-';
			out[n++] = ch;
			dash = false;
		} else {
			dash = true;
		}
	}
	if (n == 0)
		out[n++] = 'x';
	out[n] = '\0';
}

/* Writes one content line, folded, with CRLF; never splits a UTF-8
 * sequence. */
static void line(FILE *f, const char *s)
{
	size_t len = strlen(s), col = 0;
	for (size_t i = 0; i < len;) {
		size_t ch = 1;
		while (i + ch < len && ((unsigned char)s[i + ch] & 0xC0) == 0x80)
			ch++;
		if (col + ch > ICS_LINE_OCTETS) {
			fputs("\r\n ", f);
			col = 1;
		}
		fwrite(s + i, 1, ch, f);
		col += ch;
		i += ch;
	}
	fputs("\r\n", f);
}

static void utc_stamp(time_t t, char *out, size_t len)
{
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(out, len, "%Y%m%dT%H%M%SZ", &tm);
}

/* FNV-1a of the job name: keeps UIDs of jobs whose slugs collide apart. */
static uint32_t fnv(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* Writes "NAME:value" as a content line; false, writing nothing, when out
 * of memory. */
static bool prop(FILE *f, struct buf *b, const char *name, const char *value, bool escape)
{
	b->len = 0;
	if (b->data)
		b->data[0] = '\0';
	if (!buf_printf(b, "%s:", name) ||
	    !(escape ? export_ics_text(b, value) : buf_printf(b, "%s", value)))
		return false;
	line(f, b->data);
	return true;
}

/* A calendar shows runs of hours, on GPUs (a serverless service's blocks
 * of its window too); the API's work has no hours and is left out on
 * purpose. */
static bool ics_writes(const struct sched_run *r)
{
	return sched_run_has_hours(r);
}

static int ics_skipped(const struct schedule *s)
{
	return export_skipped_runs(s, ics_writes, ROUTE_THIRD_PARTY);
}

static int write_ics(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	struct buf b = {0};
	bool ok = true;
	char stamp[24], start[24], end[24], slug[64], tmp[512];
	long long as_of = s->prices_as_of[0] ? iso_to_epoch(s->prices_as_of) : -1;
	utc_stamp(as_of >= 0 ? (time_t)as_of : s->slots[0].start, stamp, sizeof stamp);
	line(f, "BEGIN:VCALENDAR");
	line(f, "VERSION:2.0");
	line(f, "PRODID:-//planner//schedule " PLANNER_VERSION "//EN");
	line(f, "CALSCALE:GREGORIAN");
	line(f, "METHOD:PUBLISH");
	snprintf(tmp, sizeof tmp, "planner schedule %s (%s)", s->month, s->timezone);
	ok &= prop(f, &b, "X-WR-CALNAME", tmp, true);
	/* Runs of a route a calendar cannot show: said in the calendar. */
	if ((opts->skipped_runs = ics_skipped(s)) > 0) {
		export_skipped_note(s, ics_writes, ROUTE_THIRD_PARTY, "ics", tmp, sizeof tmp);
		ok &= prop(f, &b, "X-PLANNER-SKIPPED-RUNS", tmp, true);
	}
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		if (!ics_writes(r))
			continue;
		const char *name = s->jobs[r->job].job->name;
		utc_stamp(r->start, start, sizeof start);
		utc_stamp(r->end, end, sizeof end);
		export_slug(name, slug, sizeof slug);
		line(f, "BEGIN:VEVENT");
		snprintf(tmp, sizeof tmp, "%s-%08x-%s-%s@planner", slug, (unsigned)fnv(name),
		         route_name(r->route), start);
		ok &= prop(f, &b, "UID", tmp, false);
		ok &= prop(f, &b, "DTSTAMP", stamp, false);
		ok &= prop(f, &b, "DTSTART", start, false);
		ok &= prop(f, &b, "DTEND", end, false);
		snprintf(tmp, sizeof tmp, "%s on %s (%s)", name, r->resource, route_name(r->route));
		ok &= prop(f, &b, "SUMMARY", tmp, true);
		snprintf(tmp, sizeof tmp,
		         "route: %s\nresource: %s\nGPUs: %d x %s\nhours: %.2f\ncost: %.2f %s",
		         route_name(r->route), r->resource, r->gpu_count,
		         r->gpu ? r->gpu->name : "-", r->hours, r->cost, s->currency);
		if (r->mix) { /* a traffic-shape mix's run (plan_mix) */
			size_t used = strlen(tmp);
			snprintf(tmp + used, sizeof tmp - used, "\nmix: %s, %d replica%s", r->mix,
			         r->replicas, r->replicas == 1 ? "" : "s");
		}
		ok &= prop(f, &b, "DESCRIPTION", tmp, true);
		ok &= prop(f, &b, "CATEGORIES", route_name(r->route), false);
		ok &= prop(f, &b, "TRANSP", "OPAQUE", false);
		line(f, "END:VEVENT");
	}
	line(f, "END:VCALENDAR");
	buf_free(&b);
	return ok ? PLANNER_OK : set_err(err, PLANNER_ESYS, "out of memory writing the calendar");
}

/* RFC 5545: one VEVENT per owned or rented run, times in UTC, stable UIDs
 * from job and start, CRLF and folded lines. API work has no hours and is
 * left out. */
const struct export_format export_format_ics = {
    .name = "ics",
    .summary = "calendar",
    .applies = EXPORT_SCHEDULE,
    .write = write_ics,
    .skipped_runs = ics_skipped,
};
