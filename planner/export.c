/* export.c — the list of export formats and what is derived from it: the
 * lookup `--format` parsing uses and the format lists of --help and usage
 * errors. Each row lives at the end of its export_<name>.c. */
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "route.h"
#include "util.h"

/* --help text is wrapped to fit an 80-column terminal, as the hand-written
 * help of every command is. */
#define HELP_COLUMNS 79
/* "  --format F       ": where an option's text starts in --help. */
#define HELP_INDENT 19

const struct export_format *const export_formats[] = {
    &export_format_table,
    &export_format_json,
    &export_format_csv,
    &export_format_ics,
    &export_format_slurm,
    &export_format_k8s,
    &export_format_skypilot,
    &export_format_dstack,
    NULL,
};

const struct export_format *export_format_find(const char *name, unsigned kind)
{
	for (size_t i = 0; export_formats[i]; i++)
		if ((export_formats[i]->applies & kind) && !strcmp(export_formats[i]->name, name))
			return export_formats[i];
	return NULL;
}

/* Appends s to buf (len bytes, holding *n), cutting to fit. */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
	size_t k = strlen(s);
	if (*n + k >= len)
		k = len - 1 - *n;
	memcpy(buf + *n, s, k);
	*n += k;
	buf[*n] = '\0';
}

char *export_format_names(unsigned kind, const char *sep, const char *last, bool summaries,
                          char *buf, size_t len)
{
	size_t n = 0, total = 0, k = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; export_formats[i]; i++)
		total += (export_formats[i]->applies & kind) != 0;
	for (size_t i = 0; export_formats[i]; i++) {
		const struct export_format *ef = export_formats[i];
		if (!(ef->applies & kind))
			continue;
		if (k > 0)
			put(buf, len, &n, k + 1 == total ? last : sep);
		put(buf, len, &n, ef->name);
		const char *why = k == 0 ? "default" : ef->summary;
		if (summaries && why) {
			put(buf, len, &n, " (");
			put(buf, len, &n, why);
			put(buf, len, &n, ")");
		}
		k++;
	}
	return buf;
}

char *export_format_help(unsigned kind, char *buf, size_t len)
{
	char text[512];
	export_format_names(kind, ", ", " or ", true, text, sizeof text);
	size_t n = 0;
	int col = 0;
	if (!len)
		return buf;
	buf[0] = '\0';
	put(buf, len, &n, "  --format F       ");
	col = HELP_INDENT;
	/* Word by word: a word that would pass the last column starts a new
	 * line under the option's text. */
	char *save = NULL;
	for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		int wl = (int)strlen(w);
		if (col > HELP_INDENT && col + 1 + wl > HELP_COLUMNS) {
			put(buf, len, &n, "\n                   ");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			put(buf, len, &n, " ");
			col++;
		}
		put(buf, len, &n, w);
		col += wl;
	}
	put(buf, len, &n, "\n");
	return buf;
}

int export_skipped_runs(const struct schedule *s, bool (*writes)(const struct sched_run *r),
                        unsigned leaves)
{
	int n = 0;
	for (size_t i = 0; i < s->n_runs; i++) {
		const struct sched_run *r = &s->runs[i];
		n += !writes(r) && !(route_at((size_t)r->route)->flags & leaves);
	}
	return n;
}

char *export_skipped_note(const struct schedule *s, bool (*writes)(const struct sched_run *r),
                          unsigned leaves, const char *format, char *buf, size_t len)
{
	int n = export_skipped_runs(s, writes, leaves);
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	if (n == 0 || len == 0)
		return buf;
	used += (size_t)snprintf(buf, len, "%d run%s of route", n, n == 1 ? "" : "s");
	/* The routes, each once, in list order. */
	bool seen[ROUTE_MAX] = {false};
	size_t named = 0;
	for (size_t i = 0; i < s->n_runs && used < len; i++) {
		const struct sched_run *r = &s->runs[i];
		if (writes(r) || (route_at((size_t)r->route)->flags & leaves) || seen[r->route])
			continue;
		seen[r->route] = true;
		used += (size_t)snprintf(buf + used, len - used, "%s %s", named++ ? "," : "",
		                         route_name(r->route));
	}
	if (used < len)
		snprintf(buf + used, len - used, " left out: %s cannot express them", format);
	return buf;
}

int export_run_nodes(const struct sched_run *r)
{
	int replicas = r->replicas > 0 ? r->replicas : 1;
	int per = r->gpu ? r->gpu->gpus_per_node : 0, gpus = r->gpu_count / replicas;
	return per > 0 && gpus > per ? (gpus + per - 1) / per : 1;
}

char *export_torchrun(const char *c, const char *flags)
{
	const char *rest = c, *extra = "";
	if (!strncmp(c, "torchrun ", 9))
		rest = c + 9;
	else if (!strncmp(c, "python ", 7) || !strncmp(c, "python3 ", 8))
		rest = strchr(c, ' ') + 1;
	else
		extra = "--no-python ";
	return xasprintf("torchrun %s%s%s", flags, extra, rest);
}
