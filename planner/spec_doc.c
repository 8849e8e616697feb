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

/* Calls fn on every nested table of t (a map's keys, a list's entries),
 * its keys prefixed "prefix key." or "prefix key[].". */
static void each_nested(FILE *f, const struct spec_table *t, const char *prefix,
                        void (*fn)(FILE *, const struct spec_table *, const char *))
{
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		if (k->kind != SPEC_MAP && k->kind != SPEC_ENTRIES)
			continue;
		char sub[128];
		snprintf(sub, sizeof sub, "%s%s%s.", prefix, k->name,
		         k->kind == SPEC_ENTRIES ? "[]" : "");
		fn(f, k->sub, sub);
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
	each_nested(f, t, prefix, render_table);
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

/* ---- planner-spec(5): the same rows as a manual page ---- */

/* Text with markdown's `code` as bold, escaped for roff: a backslash is
 * \e, a hyphen \-, and a line never starts with a control character. */
static void roff(FILE *f, const char *s)
{
	bool code = false;
	if (*s == '.' || *s == '\'')
		fputs("\\&", f);
	for (; *s; s++) {
		if (*s == '`') {
			fputs((code = !code) ? "\\fB" : "\\fR", f);
		} else if (*s == '\\') {
			fputs("\\e", f);
		} else if (*s == '-') {
			fputs("\\-", f);
		} else if ((unsigned char)*s >= 0xc0) {
			/* UTF-8 ("…", "×") as a groff Unicode escape: groff
			 * reads its input as Latin-1 without preconv. */
			unsigned char c = (unsigned char)*s;
			int more = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
			unsigned cp = c & (0x3f >> more);
			for (; more > 0 && ((unsigned char)s[1] & 0xc0) == 0x80; more--)
				cp = cp << 6 | ((unsigned char)*++s & 0x3f);
			fprintf(f, "\\[u%04X]", cp);
		} else if (*s == '\n') {
			fputc('\n', f);
			if (s[1] == '.' || s[1] == '\'')
				fputs("\\&", f);
		} else {
			fputc(*s, f);
		}
	}
	if (code)
		fputs("\\fR", f);
}

static void man_table(FILE *f, const struct spec_table *t, const char *prefix)
{
	char def[128], bounds[256];
	fputs(".SS \"", f);
	if (*prefix)
		fprintf(f, "%.*s", (int)strlen(prefix) - 1, prefix);
	else
		fputs("Top level", f);
	fputs("\"\n", f);
	roff(f, t->intro);
	fputc('\n', f);
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		row_default(k, def, sizeof def);
		row_bounds(k, bounds, sizeof bounds);
		fputs(".TP\n.B ", f);
		roff(f, prefix);
		roff(f, k->name);
		fputc('\n', f);
		roff(f, k->desc);
		fputs("\n.br\nType: ", f);
		roff(f, kind_type(k));
		fputs(".\n.br\nDefault: ", f);
		roff(f, def);
		fputs(".\n.br\nAllowed: ", f);
		roff(f, bounds);
		fputs(".\n.br\nExample: \\fB", f);
		roff(f, k->example);
		fputs("\\fR\n", f);
	}
	each_nested(f, t, prefix, man_table);
}

static const char man_head[] =
    ".\\\" Generated from the key tables in planner/spec_keys.c and planner/spec_job.c\n"
    ".\\\" by `make spec-doc`; edit those, not this file.\n"
    ".TH PLANNER-SPEC 5 \"\" \"planner " PLANNER_VERSION "\" \"File Formats\"\n"
    ".SH NAME\n"
    "planner-spec \\- the job spec that planner compare, schedule, report and breakeven "
    "read\n"
    ".SH SYNOPSIS\n"
    ".B planner compare\n"
    ".I FILE\n"
    ".SH DESCRIPTION\n";

static const char man_tail[] =
    ".SH EXAMPLES\n"
    "The examples installed with planner, in\n"
    ".IR PREFIX /share/planner/examples/\n"
    "(\\fBjobs/\\fR in the source), show every common key with a comment:\n"
    ".PP\n"
    ".EX\n"
    "planner compare /usr/local/share/planner/examples/monthly.yaml\n"
    ".EE\n"
    ".PP\n"
    "A small spec:\n"
    ".PP\n"
    ".EX\n"
    "version: 1\n"
    "currency: EUR\n"
    "fx: {EUR: 0.92}\n"
    "owned:\n"
    "  \\- {gpu: RTX 4090, count: 2}\n"
    "jobs:\n"
    "  \\- name: support\\-bot\n"
    "    model: llama\\-3.1\\-8b\n"
    "    precision: q4_k_m\n"
    "    context: 32K\n"
    "    tokens_per_month: {input: 200M, output: 40M}\n"
    ".EE\n"
    ".SH SEE ALSO\n"
    ".BR planner (1);\n"
    ".I docs/spec.md\n"
    "in the source holds the same reference as a table.\n";

char *jobspec_reference_man(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	fputs(man_head, f);
	/* docs/spec.md's opening paragraph, without its heading and comment. */
	const char *intro = strstr(doc_head, "A job spec is one");
	roff(f, intro);
	man_table(f, &spec_top, "");
	fputs(man_tail, f);
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
