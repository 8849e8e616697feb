/* export_csv.c — one row per run, RFC 4180: CRLF line ends, fields quoted
 * by text_csv_field where they need it. */
#include "export.h"

static int write_csv(FILE *f, const struct schedule *s, struct export_opts *opts, char **err)
{
	fputs("job,route,resource,gpu,gpu_count,start,end,hours,cost,currency\r\n", f);
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		char start[32], end[32];
		sched_iso(r->start, r->start_offset, start, sizeof start);
		sched_iso(r->end, r->end_offset, end, sizeof end);
		text_csv_field(f, s->jobs[r->job].job->name);
		fprintf(f, ",%s,", route_name(r->route));
		text_csv_field(f, r->resource);
		fputc(',', f);
		text_csv_field(f, r->gpu ? r->gpu->name : "");
		fprintf(f, ",%d,%s,%s,%.2f,%.2f,%s\r\n", r->gpu_count, start, end,
		        round_to(r->hours, 2), round_to(r->cost, 2), s->currency);
	}
	return PLANNER_OK;
}

const struct export_format export_format_csv = {
    .name = "csv",
    .applies = EXPORT_DATA | EXPORT_SCHEDULE,
    .data = FORMAT_CSV,
    .write = write_csv,
};
