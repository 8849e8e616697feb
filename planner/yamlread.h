/* yamlread.h — reading values out of a libyaml document with messages that
 * name file:line:column and say how to fix the value. Knows nothing about
 * the job spec: planner/spec_read.c applies the key tables with it.
 *
 * Every node is visited at most once (yr_visit): libyaml resolves an alias
 * (*x) to the very node its anchor (&x) names, so a second visit is an
 * alias, and is rejected. That also bounds the work to the size of the
 * file. */
#ifndef PLANNER_YAMLREAD_H
#define PLANNER_YAMLREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

/* Entries in one list (jobs, owned, buy, quotes, fx, providers). Job names
 * are checked for duplicates pairwise, so the bound also bounds that work. */
#define YR_MAX_ITEMS 10000
/* Room for "in the schedule of job '<128 characters>'". */
#define YR_WHERE_LEN 256

/* One document being read and where its one error message goes. */
struct yr {
	const char *file;     /* name used in messages */
	yaml_parser_t parser; /* valid while parser_ok */
	yaml_document_t doc;  /* the loaded document, valid while doc_ok */
	bool parser_ok, doc_ok;
	unsigned char *seen; /* per node: visited (a second visit is an alias) */
	size_t n_nodes;      /* nodes in doc */
	char **err;          /* where the one error message goes */
	const char *const *sets; /* --set KEY=VALUE overrides applied (spec_set.c) */
	size_t n_sets;
};

/* Marks of nodes a --set override made carry YR_SET_MARK + its index in
 * .index: yr_fail names the override instead of a line. */
#define YR_SET_MARK ((size_t)1 << 40)

/* A value read from a mapping with its key (both NULL when absent). */
struct keyed {
	yaml_node_t *key;
	yaml_node_t *val;
};

/* Parses text (len bytes) as exactly one YAML document into y->doc. On
 * error sets *y->err ("FILE:LINE:COL: ...") and returns PLANNER_EINPUT, or
 * PLANNER_ESYS when memory runs out. *root is the root node, not yet
 * visited. Call yr_close afterwards in every case. */
int yr_open(struct yr *y, const char *text, size_t len, yaml_node_t **root);
void yr_close(struct yr *y);

/* Sets the error "FILE:LINE:COL: message" at mark m; returns PLANNER_EINPUT. */
int yr_fail(struct yr *y, yaml_mark_t m, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "FILE: out of memory"; returns PLANNER_ESYS. */
int yr_oom(struct yr *y);
/* The node with this id, marked as visited; NULL (error set) when it was
 * visited before, i.e. reached through an alias. `at` is where to point. */
yaml_node_t *yr_visit(struct yr *y, int id, yaml_mark_t at);

const char *yr_sval(const yaml_node_t *n);
bool yr_is_null(const yaml_node_t *n);
/* A scalar with no NUL byte inside, usable as a C string. */
bool yr_is_text(const yaml_node_t *n);
/* How a node reads in a message: "a list", "a mapping", "nothing", "'abc'". */
const char *yr_describe(const yaml_node_t *n, char *buf, size_t len);
size_t yr_seq_len(const yaml_node_t *n);
size_t yr_map_len(const yaml_node_t *n);

/* Reads mapping `map` whose keys must be among keys[0..n): out[i] is the
 * value of keys[i]. Rejects non-scalar, unknown (with the nearest key as a
 * suggestion, or the list of keys) and repeated keys. `where` completes the
 * messages ("in job 'x'", "at the top level"). parent(key, arg), when not
 * NULL, names the nested mapping an unknown key belongs under, or NULL. */
int yr_read_map(struct yr *y, yaml_node_t *map, const char *const *keys, size_t n,
                const char *(*parent)(const char *key, const void *arg), const void *arg,
                struct keyed *out, const char *where);

/* Values of kv. `example` is a whole line the fix can quote ("name: bot").
 * Text refuses control characters (C0, DEL, C1, U+2028/2029), which would
 * break out of a line of an export (issue 26); yr_get_text with `lines`
 * keeps newlines and tabs, for a multi-line command. */
int yr_get_str(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               char **out);
int yr_get_text(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                bool lines, char **out);
/* PLANNER_OK, or the error that kv's text value holds a control character
 * (all but newline and tab allowed when `lines`). */
int yr_check_controls(struct yr *y, const struct keyed *kv, const char *where, bool lines);
/* Whether s holds no control character at all. */
bool yr_text_clean(const char *s);
int yr_get_num(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               double *out);
/* PLANNER_OK unless kv's value is a number not written in plain decimal
 * (numeral_not_decimal: 0x10, 010, 0b1, inf): then the error, with the
 * decimal to write. Every number read (yr_get_num, yr_get_size, the
 * custom readers) checks it first. */
int yr_check_numeral(struct yr *y, const struct keyed *kv, const char *where);
/* x must lie in [lo, hi]; says why (negative, zero, too large) when not. */
int yr_check_range(struct yr *y, const struct keyed *kv, const char *where, double x, double lo,
                   double hi);
int yr_get_range(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                 double lo, double hi, double *out);
int yr_get_int(struct yr *y, const struct keyed *kv, const char *where, const char *example,
               long lo, long hi, long *out);
int yr_get_bool(struct yr *y, const struct keyed *kv, const char *where, bool *out);
/* One of names[0..n), case-insensitive; *out is its index. */
int yr_get_enum(struct yr *y, const struct keyed *kv, const char *where, const char *const *names,
                size_t n, int *out);
/* A size with a suffix: tokens ("200M", "1.5B") or hours ("300h"). */
int yr_get_size(struct yr *y, const struct keyed *kv, const char *where, bool hours, double lo,
                double hi, double *out);
/* A list of text items (a single text value counts as a one-item list). */
int yr_get_str_list(struct yr *y, const struct keyed *kv, const char *where, const char *example,
                    char ***out, size_t *n_out);
/* The entries of a list-valued section; null counts as empty. */
int yr_get_seq(struct yr *y, const struct keyed *kv, const char *example, size_t *n);

#endif
