/* yamlread.c — values out of a libyaml document, each error naming
 * file:line:column and the fix (see yamlread.h). */
#include "yamlread.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

/* Flow ([ {) nesting a document may use; the job spec needs three levels.
 * Checked before libyaml sees the text: its scanner takes time quadratic
 * in the flow depth (100k levels take minutes). */
#define MAX_FLOW_DEPTH 64


int yr_fail(struct yr *y, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (m.index >= YR_SET_MARK && m.index - YR_SET_MARK < y->n_sets)
		set_err(y->err, PLANNER_EINPUT, "%s: --set %s: %s", y->file,
		        y->sets[m.index - YR_SET_MARK], msg ? msg : "out of memory");
	else
		set_err(y->err, PLANNER_EINPUT, "%s:%zu:%zu: %s", y->file, m.line + 1,
		        m.column + 1, msg ? msg : "out of memory");
	free(msg);
	return PLANNER_EINPUT;
}

int yr_oom(struct yr *y)
{
	return set_err(y->err, PLANNER_ESYS, "%s: out of memory", y->file);
}

yaml_node_t *yr_visit(struct yr *y, int id, yaml_mark_t at)
{
	yaml_node_t *n = yaml_document_get_node(&y->doc, id);
	if (!n || id < 1 || (size_t)id > y->n_nodes) {
		yr_fail(y, at, "the YAML document is malformed here; rewrite this part plainly");
		return NULL;
	}
	if (y->seen[id - 1]) {
		yr_fail(
		    y, at,
		    "aliases (*name) are not supported in a job spec; write the value out in full");
		return NULL;
	}
	y->seen[id - 1] = 1;
	return n;
}

const char *yr_sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

bool yr_is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = yr_sval(n);
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

bool yr_is_text(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && !yr_is_null(n) &&
	       strlen(yr_sval(n)) == n->data.scalar.length;
}

const char *yr_describe(const yaml_node_t *n, char *buf, size_t len)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (yr_is_null(n))
		return "nothing";
	size_t l = n->data.scalar.length;
	snprintf(buf, len, "'%.*s%s'", (int)(l > 40 ? 40 : l), yr_sval(n), l > 40 ? "..." : "");
	/* A message goes to a terminal: no control character of the value
	 * reaches it (each reads as '?'). */
	for (unsigned char *p = (unsigned char *)buf; *p;) {
		unsigned cp;
		size_t k = text_utf8_char(p, &cp);
		if (k == 0) {
			p++;
		} else if (text_is_control(cp)) {
			*p = '?';
			memmove(p + 1, p + k, strlen((char *)p + k) + 1);
			p++;
		} else {
			p += k;
		}
	}
	return buf;
}

/* The first control character (text_is_control) of s that is not one of
 * `allow` (ASCII controls, "\n\t"), its code point in *cp and its place
 * (1-based, in characters) in *at; NULL when there is none. */
static const char *find_control(const char *s, const char *allow, unsigned *cp, size_t *at)
{
	const unsigned char *p = (const unsigned char *)s;
	for (*at = 1; *p; (*at)++) {
		size_t k = text_utf8_char(p, cp);
		if (k == 0) { /* libyaml hands over valid UTF-8; a stray byte is a character */
			p++;
			continue;
		}
		if (text_is_control(*cp) && !(*cp < 0x80 && *cp && strchr(allow, (int)*cp)))
			return (const char *)p;
		p += k;
	}
	return NULL;
}

bool yr_text_clean(const char *s)
{
	unsigned cp;
	size_t at;
	return !find_control(s, "", &cp, &at);
}

int yr_check_controls(struct yr *y, const struct keyed *kv, const char *where, bool lines)
{
	unsigned cp;
	size_t at;
	if (!find_control(yr_sval(kv->val), lines ? "\n\t" : "", &cp, &at))
		return PLANNER_OK;
	bool is_break = cp == '\n' || cp == '\r' || cp == 0x85 || cp == 0x2028 || cp == 0x2029;
	const char *fix = lines ? "remove it: a command takes printable text, newlines and tabs"
	                  : is_break ? "write the value on one line"
	                             : "remove it: a name or value takes printable text only";
	return yr_fail(y, kv->val->start_mark,
	               "'%s' %s holds the control character U+%04X (%s) at character %zu; %s",
	               yr_sval(kv->key), where, cp, is_break ? "a line break" : "not printable", at,
	               fix);
}

size_t yr_seq_len(const yaml_node_t *n)
{
	return (size_t)(n->data.sequence.items.top - n->data.sequence.items.start);
}

size_t yr_map_len(const yaml_node_t *n)
{
	return (size_t)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
}

/* The message for key k, not among keys[0..n). */
static int unknown_key(struct yr *y, const yaml_node_t *k, const char *const *keys, size_t n,
                       const char *parent, const char *where)
{
	if (parent)
		return yr_fail(y, k->start_mark,
		               "key '%s' %s belongs under '%s'; write e.g. %s: {%s: ...}",
		               yr_sval(k), where, parent, parent, yr_sval(k));
	const char *s = nearest_name(yr_sval(k), keys, n);
	if (s)
		return yr_fail(y, k->start_mark, "unknown key '%s' %s; did you mean '%s'?",
		               yr_sval(k), where, s);
	char list[512] = "";
	size_t used = 0;
	for (size_t j = 0; j < n && used < sizeof list; j++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", j ? ", " : "",
		                         keys[j]);
	return yr_fail(y, k->start_mark, "unknown key '%s' %s; remove it or use one of: %s",
	               yr_sval(k), where, list);
}

int yr_read_map(struct yr *y, yaml_node_t *map, const char *const *keys, size_t n,
                const char *(*parent)(const char *key, const void *arg), const void *arg,
                struct keyed *out, const char *where)
{
	char d[64];
	memset(out, 0, n * sizeof *out);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yr_visit(y, p->key, map->start_mark);
		if (!k)
			return PLANNER_EINPUT;
		if (!yr_is_text(k))
			return yr_fail(y, k->start_mark,
			               "a key %s is %s, not a name; write keys such as '%s:'",
			               where, yr_describe(k, d, sizeof d), keys[0]);
		size_t i = 0;
		while (i < n && strcmp(yr_sval(k), keys[i]) != 0)
			i++;
		unsigned cp;
		size_t at;
		if (i == n && find_control(yr_sval(k), "", &cp, &at))
			return yr_fail(y, k->start_mark,
			               "a key %s holds the control character U+%04X at character "
			               "%zu; write keys such as '%s:'",
			               where, cp, at, keys[0]);
		if (i == n)
			return unknown_key(y, k, keys, n, parent ? parent(yr_sval(k), arg) : NULL,
			                   where);
		if (out[i].key)
			return yr_fail(y, k->start_mark,
			               "duplicate key '%s' %s (first on line %zu); keep only one",
			               yr_sval(k), where, out[i].key->start_mark.line + 1);
		yaml_node_t *v = yr_visit(y, p->value, k->start_mark);
		if (!v)
			return PLANNER_EINPUT;
		out[i].key = k;
		out[i].val = v;
	}
	return PLANNER_OK;
}

int yr_get_text(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                bool lines, char **out)
{
	char d[64];
	if (!yr_is_text(kv->val))
		return yr_fail(y, kv->val->start_mark,
		               "'%s' %s must be text, got %s; write e.g. %s", yr_sval(kv->key),
		               where, yr_describe(kv->val, d, sizeof d), example);
	int rc = yr_check_controls(y, kv, where, lines);
	if (rc != PLANNER_OK)
		return rc;
	char *s = strdup(yr_sval(kv->val));
	if (!s)
		return yr_oom(y);
	free(*out);
	*out = s;
	return PLANNER_OK;
}

int yr_get_str(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               char **out)
{
	return yr_get_text(y, kv, where, example, false, out);
}

int yr_check_numeral(struct yr *y, const struct keyed *kv, const char *where)
{
	char d[64], fix[160];
	const char *what =
	    yr_is_text(kv->val) ? numeral_not_decimal(yr_sval(kv->val), fix, sizeof fix) : NULL;
	if (!what)
		return PLANNER_OK;
	return yr_fail(y, kv->val->start_mark, "'%s' %s is %s, %s; %s", yr_sval(kv->key), where,
	               yr_describe(kv->val, d, sizeof d), what, fix);
}

int yr_get_num(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               double *out)
{
	char d[64];
	yaml_node_t *v = kv->val;
	if (!yr_is_text(v))
		goto bad;
	int rc = yr_check_numeral(y, kv, where);
	if (rc != PLANNER_OK)
		return rc;
	const char *s = yr_sval(v);
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end)
		goto bad;
	if (!isfinite(x) || errno == ERANGE)
		return yr_fail(y, v->start_mark,
		               "'%s' %s is %s, not a usable number; write e.g. %s",
		               yr_sval(kv->key), where, yr_describe(v, d, sizeof d), example);
	*out = x;
	return PLANNER_OK;
bad:
	return yr_fail(y, v->start_mark, "'%s' %s must be a number, got %s; write e.g. %s",
	               yr_sval(kv->key), where, yr_describe(v, d, sizeof d), example);
}

int yr_check_range(struct yr *y, const struct keyed *kv, const char *where, double x, double lo,
                   double hi)
{
	if (x >= lo && x <= hi)
		return PLANNER_OK;
	const char *why = x < 0 && lo >= 0 ? "negative"
	                  : x == 0         ? "zero"
	                  : x > hi         ? "too large"
	                                   : "too small";
	return yr_fail(y, kv->val->start_mark, "'%s' %s is %s (%g); use a value from %g to %g",
	               yr_sval(kv->key), where, why, x, lo, hi);
}

int yr_get_range(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                 double lo, double hi, double *out)
{
	double x;
	int rc = yr_get_num(y, kv, where, example, &x);
	if (rc == PLANNER_OK)
		rc = yr_check_range(y, kv, where, x, lo, hi);
	if (rc == PLANNER_OK)
		*out = x;
	return rc;
}

int yr_get_int(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               long lo, long hi, long *out)
{
	double x = 0;
	int rc = yr_get_num(y, kv, where, example, &x);
	if (rc != PLANNER_OK)
		return rc;
	if (x != floor(x) && fabs(x) < 1e18)
		return yr_fail(y, kv->val->start_mark,
		               "'%s' %s must be a whole number, got %g; write e.g. %s",
		               yr_sval(kv->key), where, x, example);
	if ((rc = yr_check_range(y, kv, where, x, (double)lo, (double)hi)) != PLANNER_OK)
		return rc;
	*out = (long)x;
	return PLANNER_OK;
}

int yr_get_bool(struct yr *y, const struct keyed *kv, const char *where, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no",
	                                                                       "off"};
	char d[64];
	if (yr_is_text(kv->val)) {
		for (size_t i = 0; i < NELEM(yes); i++) {
			if (!strcasecmp(yr_sval(kv->val), yes[i])) {
				*out = true;
				return PLANNER_OK;
			}
			if (!strcasecmp(yr_sval(kv->val), no[i])) {
				*out = false;
				return PLANNER_OK;
			}
		}
	}
	return yr_fail(
	    y, kv->val->start_mark, "'%s' %s must be true or false, got %s; write e.g. %s: true",
	    yr_sval(kv->key), where, yr_describe(kv->val, d, sizeof d), yr_sval(kv->key));
}

int yr_get_enum(struct yr *y, const struct keyed *kv, const char *where, const char *const *names,
                size_t n, int *out)
{
	char d[64];
	const char *key = yr_sval(kv->key), *val = yr_sval(kv->val);
	if (!yr_is_text(kv->val))
		return yr_fail(y, kv->val->start_mark,
		               "'%s' %s must be one of %s ... %s, got %s; write e.g. %s: %s", key,
		               where, names[0], names[n - 1], yr_describe(kv->val, d, sizeof d),
		               key, names[0]);
	int rc = yr_check_controls(y, kv, where, false);
	if (rc != PLANNER_OK)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(val, names[i])) {
			*out = (int)i;
			return PLANNER_OK;
		}
	}
	const char *s = nearest_name(val, names, n);
	if (s)
		return yr_fail(y, kv->val->start_mark, "unknown %s '%s' %s; did you mean '%s'?",
		               key, val, where, s);
	char list[256] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
		                         names[i]);
	return yr_fail(y, kv->val->start_mark, "unknown %s '%s' %s; use one of: %s", key, val,
	               where, list);
}

int yr_get_size(struct yr *y, const struct keyed *kv, const char *where, bool hours, double lo,
                double hi, double *out)
{
	char d[64];
	const char *example = hours ? "300h" : "200M";
	yaml_node_t *v = kv->val;
	double x;
	int rc = yr_check_numeral(y, kv, where);
	if (rc != PLANNER_OK)
		return rc;
	if (yr_is_text(v)) {
		const char *s = yr_sval(v);
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '-')
			return yr_fail(y, v->start_mark,
			               "'%s' %s is negative (%s); use a value from %g to %g",
			               yr_sval(kv->key), where, s, lo, hi);
		if (hours ? parse_hours(s, &x) : parse_count(s, &x)) {
			if (!isfinite(x))
				goto bad;
			rc = yr_check_range(y, kv, where, x, lo, hi);
			if (rc == PLANNER_OK)
				*out = x;
			return rc;
		}
	}
bad:
	if (hours)
		return yr_fail(y, v->start_mark, "'%s' %s must be hours, got %s; write e.g. %s: %s",
		               yr_sval(kv->key), where, yr_describe(v, d, sizeof d),
		               yr_sval(kv->key), example);
	return yr_fail(
	    y, v->start_mark,
	    "'%s' %s must be a token count, got %s; write a number with an optional K, M, B or "
	    "T suffix, e.g. %s: %s",
	    yr_sval(kv->key), where, yr_describe(v, d, sizeof d), yr_sval(kv->key), example);
}

/* A single text value as a one-item list. */
static int one_item_list(struct yr *y, const struct keyed *kv, const char *where,
                         const char *example, char ***out, size_t *n_out)
{
	char *s = NULL;
	int rc = yr_get_str(y, kv, where, example, &s);
	if (rc != PLANNER_OK)
		return rc;
	if (!(*out = calloc(1, sizeof **out))) {
		free(s);
		return yr_oom(y);
	}
	(*out)[0] = s;
	*n_out = 1;
	return PLANNER_OK;
}

int yr_get_str_list(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                    char ***out, size_t *n_out)
{
	char d[64];
	yaml_node_t *v = kv->val;
	if (yr_is_null(v))
		return yr_fail(y, v->start_mark, "'%s' %s is empty; write e.g. %s",
		               yr_sval(kv->key), where, example);
	if (v->type == YAML_SCALAR_NODE)
		return one_item_list(y, kv, where, example, out, n_out);
	if (v->type != YAML_SEQUENCE_NODE)
		return yr_fail(y, v->start_mark, "'%s' %s must be a list, got %s; write e.g. %s",
		               yr_sval(kv->key), where, yr_describe(v, d, sizeof d), example);
	size_t n = yr_seq_len(v);
	if (n > YR_MAX_ITEMS)
		return yr_fail(y, v->start_mark, "'%s' %s has %zu entries; keep it under %d",
		               yr_sval(kv->key), where, n, YR_MAX_ITEMS);
	if (n == 0)
		return PLANNER_OK;
	if (!(*out = calloc(n, sizeof **out)))
		return yr_oom(y);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *it = yr_visit(y, v->data.sequence.items.start[i], v->start_mark);
		if (!it)
			return PLANNER_EINPUT;
		if (!yr_is_text(it))
			return yr_fail(y, it->start_mark,
			               "entry %zu of '%s' %s must be text, got %s; write e.g. %s",
			               i + 1, yr_sval(kv->key), where, yr_describe(it, d, sizeof d),
			               example);
		int rc = yr_check_controls(y, &(struct keyed){kv->key, it}, where, false);
		if (rc != PLANNER_OK)
			return rc;
		if (!((*out)[i] = strdup(yr_sval(it))))
			return yr_oom(y);
		*n_out = i + 1;
	}
	return PLANNER_OK;
}

int yr_get_seq(struct yr *y, const struct keyed *kv, const char *example, size_t *n)
{
	char d[64];
	*n = 0;
	if (yr_is_null(kv->val))
		return PLANNER_OK;
	if (kv->val->type != YAML_SEQUENCE_NODE)
		return yr_fail(y, kv->val->start_mark, "'%s' must be a list, got %s; write e.g. %s",
		               yr_sval(kv->key), yr_describe(kv->val, d, sizeof d), example);
	*n = yr_seq_len(kv->val);
	if (*n > YR_MAX_ITEMS)
		return yr_fail(y, kv->val->start_mark, "'%s' has %zu entries; keep it under %d",
		               yr_sval(kv->key), *n, YR_MAX_ITEMS);
	return PLANNER_OK;
}

/* ---- loading --------------------------------------------------------- */

/* Line and column (0-based) of byte `off` in text, for reader errors,
 * which libyaml reports by offset only. */
static yaml_mark_t mark_at(const char *text, size_t len, size_t off)
{
	yaml_mark_t m = {0};
	for (size_t i = 0; i < off && i < len; i++) {
		if (text[i] == '\n') {
			m.line++;
			m.column = 0;
		} else {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

static int yaml_failure(struct yr *y, const char *text, size_t len)
{
	yaml_parser_t *p = &y->parser;
	if (p->error == YAML_MEMORY_ERROR)
		return yr_oom(y);
	const char *problem = p->problem ? p->problem : "unreadable YAML";
	if (p->error == YAML_READER_ERROR) {
		yaml_mark_t m = mark_at(text, len, p->problem_offset);
		return yr_fail(y, m, "invalid YAML: %s; save the file as UTF-8 text", problem);
	}
	if (p->context && p->context_mark.line != p->problem_mark.line)
		return yr_fail(
		    y, p->problem_mark,
		    "invalid YAML: %s %s from line %zu, column %zu; check the indentation, colons "
		    "and quotes there",
		    problem, p->context, p->context_mark.line + 1, p->context_mark.column + 1);
	if (p->context)
		return yr_fail(y, p->problem_mark,
		               "invalid YAML: %s %s; check the indentation, colons and "
		               "quotes here",
		               problem, p->context);
	return yr_fail(y, p->problem_mark,
	               "invalid YAML: %s; check the indentation, colons and quotes here", problem);
}

/* Where flow collections nest deeper than MAX_FLOW_DEPTH, or false. Quoted
 * text and comments are skipped roughly; a miscount only lets libyaml see
 * the text, which then parses it properly. */
static bool too_deep(const char *text, size_t len, size_t *at)
{
	int depth = 0;
	char quote = 0, prev = '\n';
	for (size_t i = 0; i < len; prev = text[i++]) {
		char ch = text[i];
		if (quote) {
			if (ch == '\\' && quote == '"' && i + 1 < len)
				i++;
			else if (ch == quote)
				quote = 0;
			continue;
		}
		if (ch == '#' && (isspace((unsigned char)prev))) {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
		} else if ((ch == '\'' || ch == '"') && strchr(" \t\n[{,:", prev)) {
			quote = ch;
		} else if (ch == '[' || ch == '{') {
			if (++depth > MAX_FLOW_DEPTH) {
				*at = i;
				return true;
			}
		} else if ((ch == ']' || ch == '}') && depth > 0) {
			depth--;
		}
	}
	return false;
}

/* A second document would be silently ignored; says so instead. */
static int no_second_document(struct yr *y, const char *text, size_t len)
{
	yaml_document_t extra;
	if (!yaml_parser_load(&y->parser, &extra))
		return yaml_failure(y, text, len);
	yaml_node_t *more = yaml_document_get_root_node(&extra);
	yaml_mark_t more_at = more ? more->start_mark : (yaml_mark_t){0};
	yaml_document_delete(&extra);
	if (more)
		return yr_fail(y, more_at,
		               "a second YAML document starts here; keep one job spec per file");
	return PLANNER_OK;
}

/* A tag (!!int, !!binary, !custom) would change what a value means, and
 * planner reads every value by its key: refused where it stands rather
 * than silently ignored. libyaml gives an untagged node its kind's default
 * tag, so only those three pass (an explicit !!str, !!seq or !!map too). */
static int no_tags(struct yr *y)
{
	static const char *const plain[] = {YAML_DEFAULT_SCALAR_TAG, YAML_DEFAULT_SEQUENCE_TAG,
	                                    YAML_DEFAULT_MAPPING_TAG};
	static const char core[] = "tag:yaml.org,2002:";
	for (yaml_node_t *n = y->doc.nodes.start; n < y->doc.nodes.top; n++) {
		const char *tag = n->tag ? (const char *)n->tag : "";
		int kind = n->type == YAML_SCALAR_NODE ? 0 : n->type == YAML_SEQUENCE_NODE ? 1 : 2;
		if (!strcmp(tag, plain[kind]))
			continue;
		bool is_core = !strncmp(tag, core, sizeof core - 1);
		return yr_fail(y, n->start_mark,
		               "the YAML tag '%s%s' is not part of a job spec; remove it (values are "
		               "read by their key)",
		               is_core ? "!!" : "", is_core ? tag + sizeof core - 1 : tag);
	}
	return PLANNER_OK;
}

int yr_open(struct yr *y, const char *text, size_t len, yaml_node_t **root)
{
	*root = NULL;
	if (!yaml_parser_initialize(&y->parser))
		return yr_oom(y);
	y->parser_ok = true;
	size_t deep_at;
	if (too_deep(text, len, &deep_at))
		return yr_fail(
		    y, mark_at(text, len, deep_at),
		    "lists and mappings nest more than %d deep here; a job spec needs only a few "
		    "levels",
		    MAX_FLOW_DEPTH);
	yaml_parser_set_input_string(&y->parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&y->parser, &y->doc))
		return yaml_failure(y, text, len);
	y->doc_ok = true;
	yaml_node_t *r = yaml_document_get_root_node(&y->doc);
	if (!r)
		return yr_fail(y, (yaml_mark_t){0},
		               "the file is empty; write a job spec with 'version: 1' and "
		               "a 'jobs:' list");
	int rc = no_second_document(y, text, len);
	/* Every tag, and every %TAG directive, is written with a '!': without
	 * one in the text each node has its kind's default tag, and the walk
	 * over every node (a tenth of reading 10,000 jobs; issue 16) can
	 * find nothing. */
	if (rc == PLANNER_OK && memchr(text, '!', len))
		rc = no_tags(y);
	if (rc != PLANNER_OK)
		return rc;
	y->n_nodes = (size_t)(y->doc.nodes.top - y->doc.nodes.start);
	if (!(y->seen = calloc(y->n_nodes, 1)))
		return yr_oom(y);
	*root = r;
	return PLANNER_OK;
}

void yr_close(struct yr *y)
{
	if (y->doc_ok)
		yaml_document_delete(&y->doc);
	if (y->parser_ok)
		yaml_parser_delete(&y->parser);
	free(y->seen);
	y->seen = NULL;
	y->doc_ok = y->parser_ok = false;
}
