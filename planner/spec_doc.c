/* spec_doc.c — the job spec's key reference (docs/spec.md), rendered from
 * the same tables the reader applies (spec_table.h), so the two cannot
 * drift apart; tests/check_jobspec.c compares it with the committed file
 * and `make spec-doc` rewrites that. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "spec_table.h"
#include "util.h"

static const char doc_head[] =
    "# planner job spec reference\n"
    "\n"
    "<!-- Generated from the key tables in planner/spec_keys.c and planner/spec_job.c\n"
    "     by `make spec-doc`; edit those, not this file. -->\n"
    "\n"
    "A job spec is one YAML file (one document) that `planner compare`, `schedule`,\n"
    "`report` and `breakeven` read; jobs/monthly.yaml is a complete example. Keys are\n"
    "case-sensitive and written as below; a key not listed is an error, which names\n"
    "the nearest listed key. Errors give FILE:LINE:COLUMN and how to fix it. YAML\n"
    "aliases (`*name`) are not accepted. Prices are in the spec's `currency`; bounds\n"
    "marked USD are converted with `fx`. Lists (`jobs`, `owned`, `buy`, `quotes`,\n"
    "`providers`, `api_models`) hold at most 10000 entries.\n";

/* A bound or default as the reference prints it: 4096, 0.16, 1e+15. */
static void num(char *buf, size_t len, double x)
{
	if (x == floor(x) && fabs(x) < 1e9)
		snprintf(buf, len, "%.0f", x);
	else
		snprintf(buf, len, "%g", x);
}

static const char *kind_type(const struct spec_key *k)
{
	static const char *const names[] = {
	    [SPEC_TEXT] = "text",
	    [SPEC_NUMBER] = "number",
	    [SPEC_WHOLE] = "whole number",
	    [SPEC_HOURS] = "hours (`300` or `300h`)",
	    [SPEC_COUNT] = "tokens (`200M`; K, M, B, T suffixes)",
	    [SPEC_BOOL] = "true or false",
	    [SPEC_ENUM] = "one of the words allowed",
	    [SPEC_LIST] = "list of text",
	    [SPEC_GPU] = "text, GPU name",
	    [SPEC_MAP] = "mapping",
	    [SPEC_ENTRIES] = "list of mappings",
	    [SPEC_CUSTOM] = "see meaning",
	};
	return k->type ? k->type : names[k->kind];
}

static void row_default(const struct spec_key *k, char *buf, size_t len)
{
	if (k->def_text)
		snprintf(buf, len, "%s", k->def_text);
	else if (k->has_def)
		num(buf, len, k->def);
	else
		snprintf(buf, len, "%s", k->flags & SPEC_REQUIRED ? "required" : "none");
}

static void row_bounds(const struct spec_key *k, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t used = 0;
	num(lo, sizeof lo, k->lo);
	num(hi, sizeof hi, k->hi);
	if (k->bounds) {
		snprintf(buf, len, "%s", k->bounds);
		return;
	}
	switch (k->kind) {
	case SPEC_NUMBER:
	case SPEC_WHOLE:
	case SPEC_HOURS:
	case SPEC_COUNT:
		if (k->zero)
			snprintf(buf, len, "over 0, at most %s%s", hi,
			         k->flags & SPEC_FX ? " USD" : "");
		else
			snprintf(buf, len, "%s to %s%s", lo, hi, k->flags & SPEC_FX ? " USD" : "");
		return;
	case SPEC_ENUM:
		buf[0] = 0;
		for (size_t i = 0; i < k->n_names && used < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
			                         k->names[i]);
		return;
	case SPEC_BOOL:
		snprintf(buf, len, "true, yes, on; false, no, off");
		return;
	case SPEC_ENTRIES:
		snprintf(buf, len, "%s", k->zero ? "at least one entry" : "any number of entries");
		return;
	case SPEC_GPU:
		snprintf(buf, len, "a GPU name or alias in the reference data");
		return;
	case SPEC_MAP:
		snprintf(buf, len, "the keys in its section below");
		return;
	default:
		snprintf(buf, len, "any text");
		return;
	}
}

static void render_table(FILE *f, const struct spec_table *t, const char *prefix)
{
	char def[128], bounds[256];
	if (*prefix)
		fprintf(f, "\n## %.*s\n\n%s\n\n", (int)strlen(prefix) - 1, prefix, t->intro);
	else
		fprintf(f, "\n## Top level\n\n%s\n\n", t->intro);
	fprintf(f, "| Key | Type | Default | Allowed | Example | Meaning |\n");
	fprintf(f, "|---|---|---|---|---|---|\n");
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		row_default(k, def, sizeof def);
		row_bounds(k, bounds, sizeof bounds);
		fprintf(f, "| `%s%s` | %s | %s | %s | `%s` | %s |\n", prefix, k->name, kind_type(k),
		        def, bounds, k->example, k->desc);
	}
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		if (k->kind != SPEC_MAP && k->kind != SPEC_ENTRIES)
			continue;
		char sub[128];
		snprintf(sub, sizeof sub, "%s%s%s.", prefix, k->name,
		         k->kind == SPEC_ENTRIES ? "[]" : "");
		render_table(f, k->sub, sub);
	}
}

char *jobspec_reference(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs(doc_head, f);
	render_table(f, &spec_top, "");
	bool bad = ferror(f) != 0;
	if (fclose(f) != 0 || bad) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Appends the paths of t's keys (and its nested tables') to *v. */
static int add_paths(const struct spec_table *t, const char *prefix, char ***v, size_t *n)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		char **nv = realloc(*v, (*n + 1) * sizeof **v);
		if (!nv)
			return PLANNER_ESYS;
		*v = nv;
		if (!(nv[*n] = xasprintf("%s%s", prefix, k->name)))
			return PLANNER_ESYS;
		(*n)++;
		if (k->kind != SPEC_MAP && k->kind != SPEC_ENTRIES)
			continue;
		char *sub =
		    xasprintf("%s%s%s.", prefix, k->name, k->kind == SPEC_ENTRIES ? "[]" : "");
		int rc = sub ? add_paths(k->sub, sub, v, n) : PLANNER_ESYS;
		free(sub);
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

int jobspec_key_paths(char ***paths, size_t *n)
{
	*paths = NULL;
	*n = 0;
	int rc = add_paths(&spec_top, "", paths, n);
	if (rc != PLANNER_OK) {
		for (size_t i = 0; i < *n; i++)
			free((*paths)[i]);
		free(*paths);
		*paths = NULL;
		*n = 0;
	}
	return rc;
}
