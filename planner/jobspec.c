/* jobspec.c — reads the YAML job spec (DESIGN.md, "The job spec") with
 * libyaml's document API and checks every value, so the rest of the planner
 * can trust a struct jobspec. Every error names file:line:column and says
 * how to fix it.
 *
 * libyaml resolves an alias (*x) to the very node its anchor (&x) names, so
 * a document can share one node between two places, or even contain itself.
 * Each node is therefore visited at most once: a second visit is an alias,
 * and is rejected. That also bounds the work to the size of the file. */
#include "jobspec.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

#include "util.h"
#include "vram.h"

/* Hours in the longest (31-day) month: a job cannot ask one month for more
 * GPU time than that, and no run can be longer. */
#define MAX_HOURS_PER_MONTH 744.0
/* Concurrent sequences; above this it is a typo, not a serving setup
 * (vLLM's default max_num_seqs is 256). */
#define MAX_BATCH 4096
/* Most GPUs a `buy` option considers when max_count is not given: one
 * 8-GPU server. */
#define DEFAULT_MAX_BUY 8
#define DEFAULT_CONTEXT 4096
/* Tokens per month: 1e15 is ~370 million tokens a second all month, far
 * beyond any one workload; anything larger is a typo. */
#define MAX_TOKENS_PER_MONTH 1e15
/* Sanity limits, in USD (scaled by the exchange rate): a GPU's price and a
 * quote's hourly price (8×H100 on demand is about 25–100 USD/h). */
#define MAX_PRICE_USD          1e7
#define MAX_PRICE_PER_HOUR_USD 1e4
/* USD per kWh; the dearest retail power in Europe is well under 1. */
#define MAX_ELECTRICITY_USD 10.0
/* Units of a currency per USD; the weakest currencies trade near 1e5. */
#define MAX_FX 1e7
/* Entries in one list (jobs, owned, buy, quotes, fx, providers). Job names
 * are checked for duplicates pairwise, so the bound also bounds that work. */
#define MAX_ITEMS         10000
#define MAX_NAME_LEN      128
#define MAX_PRIORITY      1000000
#define DEFAULT_PRECISION "bf16"
/* Flow ([ {) nesting a spec may use; the spec itself needs three levels.
 * Checked before libyaml sees the text: its scanner takes time quadratic
 * in the flow depth (100k levels take minutes). */
#define MAX_FLOW_DEPTH 64
#define ZONEINFO_DIR   "/usr/share/zoneinfo"

/* One load: the document being read and where messages go. */
struct ctx {
	const char *file;          /* name used in messages */
	const char *dir;           /* config.json paths are relative to this */
	yaml_document_t *doc;      /* the loaded document */
	unsigned char *seen;       /* per node: visited (a second visit is an alias) */
	size_t n_nodes;            /* nodes in doc */
	const struct refdata *ref; /* models and GPUs */
	struct jobspec *spec;      /* being filled */
	char **err;                /* where the one error message goes */
};

/* A value read from a mapping with its key (both NULL when absent). */
struct keyed {
	yaml_node_t *key;
	yaml_node_t *val;
};

static const char *const task_names[] = {
    [TASK_INFERENCE] = "inference",
    [TASK_FINETUNE_LORA] = "finetune-lora",
    [TASK_FINETUNE_QLORA] = "finetune-qlora",
    [TASK_FINETUNE_FULL] = "finetune-full",
};

static const char *const data_names[] = {
    [DATA_PUBLIC] = "public",
    [DATA_CONFIDENTIAL] = "confidential",
    [DATA_RESTRICTED] = "restricted",
};

static const char *const accel_names[] = {"nvidia", "any"};

const char *task_name(enum task t)
{
	return (unsigned)t < sizeof task_names / sizeof *task_names ? task_names[t] : "?";
}

const char *data_class_name(enum data_class d)
{
	return (unsigned)d < sizeof data_names / sizeof *data_names ? data_names[d] : "?";
}

#define NELEM(a) (sizeof(a) / sizeof *(a))

/* Sets the error "FILE:LINE:COL: message" at mark m; returns PLANNER_EINPUT. */
__attribute__((format(printf, 3, 4))) static int fail(struct ctx *c, yaml_mark_t m, const char *fmt,
                                                      ...)
{
	va_list ap;
	char *msg = NULL;
	va_start(ap, fmt);
	if (vasprintf(&msg, fmt, ap) < 0)
		msg = NULL;
	va_end(ap);
	set_err(c->err, PLANNER_EINPUT, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1,
	        msg ? msg : "out of memory");
	free(msg);
	return PLANNER_EINPUT;
}

static int oom(struct ctx *c)
{
	return set_err(c->err, PLANNER_EINPUT, "%s: out of memory", c->file);
}

/* The node with this id, marked as visited; NULL (error set) when it was
 * visited before, i.e. reached through an alias. `at` is where to point. */
static yaml_node_t *visit(struct ctx *c, int id, yaml_mark_t at)
{
	yaml_node_t *n = yaml_document_get_node(c->doc, id);
	if (!n || id < 1 || (size_t)id > c->n_nodes) {
		fail(c, at, "the YAML document is malformed here; rewrite this part plainly");
		return NULL;
	}
	if (c->seen[id - 1]) {
		fail(
		    c, at,
		    "aliases (*name) are not supported in a job spec; write the value out in full");
		return NULL;
	}
	c->seen[id - 1] = 1;
	return n;
}

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	const char *s = sval(n);
	return !*s || !strcmp(s, "~") || !strcmp(s, "null") || !strcmp(s, "Null") ||
	       !strcmp(s, "NULL");
}

/* A scalar with no NUL byte inside, usable as a C string. */
static bool is_text(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && !is_null(n) &&
	       strlen(sval(n)) == n->data.scalar.length;
}

/* How a node reads in a message: "a list", "a mapping", "nothing", "'abc'". */
static const char *describe(const yaml_node_t *n, char *buf, size_t len)
{
	if (n->type == YAML_SEQUENCE_NODE)
		return "a list";
	if (n->type == YAML_MAPPING_NODE)
		return "a mapping";
	if (is_null(n))
		return "nothing";
	size_t l = n->data.scalar.length;
	snprintf(buf, len, "'%.*s%s'", (int)(l > 40 ? 40 : l), sval(n), l > 40 ? "..." : "");
	return buf;
}

enum {
	JK_NAME,
	JK_MODEL,
	JK_PRECISION,
	JK_TASK,
	JK_CONTEXT,
	JK_BATCH,
	JK_HOURS,
	JK_TOKENS,
	JK_DATA,
	JK_INTERRUPTIBLE,
	JK_ACCELERATOR,
	JK_API_MODELS,
	JK_SCHEDULE,
	JK_RUN,
	JK_N
};
static const char *const job_keys[] = {
    [JK_NAME] = "name",
    [JK_MODEL] = "model",
    [JK_PRECISION] = "precision",
    [JK_TASK] = "task",
    [JK_CONTEXT] = "context",
    [JK_BATCH] = "batch",
    [JK_HOURS] = "hours_per_month",
    [JK_TOKENS] = "tokens_per_month",
    [JK_DATA] = "data",
    [JK_INTERRUPTIBLE] = "interruptible",
    [JK_ACCELERATOR] = "accelerator",
    [JK_API_MODELS] = "api_models",
    [JK_SCHEDULE] = "schedule",
    [JK_RUN] = "run",
};

/* For a key written directly in a job that belongs in one of its nested
 * mappings ("days" for schedule), that mapping's name; else NULL. */
static const char *job_key_parent(const char *const *keys, const char *key)
{
	static const struct {
		const char *key, *parent;
	} moved[] = {
	    {"window", "schedule"},
	    {"days", "schedule"},
	    {"deadline", "schedule"},
	    {"priority", "schedule"},
	    {"min_run", "schedule"},
	    {"max_run", "schedule"},
	    {"input", "tokens_per_month"},
	    {"output", "tokens_per_month"},
	    {"command", "run"},
	    {"image", "run"},
	};
	if (keys != job_keys)
		return NULL;
	for (size_t i = 0; i < NELEM(moved); i++)
		if (!strcmp(key, moved[i].key))
			return moved[i].parent;
	return NULL;
}

/* Reads mapping `map` whose keys must be among keys[0..n): out[i] is the
 * value of keys[i]. Rejects non-scalar, unknown and repeated keys. `where`
 * completes the messages ("in job 'x'", "at the top level"). */
static int read_map(struct ctx *c, yaml_node_t *map, const char *const *keys, size_t n,
                    struct keyed *out, const char *where)
{
	char d[64];
	memset(out, 0, n * sizeof *out);
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = visit(c, p->key, map->start_mark);
		if (!k)
			return PLANNER_EINPUT;
		if (!is_text(k))
			return fail(c, k->start_mark,
			            "a key %s is %s, not a name; write keys such as '%s:'", where,
			            describe(k, d, sizeof d), keys[0]);
		size_t i = 0;
		while (i < n && strcmp(sval(k), keys[i]) != 0)
			i++;
		if (i == n) {
			const char *parent = job_key_parent(keys, sval(k));
			if (parent)
				return fail(
				    c, k->start_mark,
				    "key '%s' %s belongs under '%s'; write e.g. %s: {%s: ...}",
				    sval(k), where, parent, parent, sval(k));
			const char *s = nearest_name(sval(k), keys, n);
			if (s)
				return fail(c, k->start_mark,
				            "unknown key '%s' %s; did you mean '%s'?", sval(k),
				            where, s);
			char list[512] = "";
			size_t used = 0;
			for (size_t j = 0; j < n && used < sizeof list; j++)
				used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
				                         j ? ", " : "", keys[j]);
			return fail(c, k->start_mark,
			            "unknown key '%s' %s; remove it or use one of: %s", sval(k),
			            where, list);
		}
		if (out[i].key)
			return fail(c, k->start_mark,
			            "duplicate key '%s' %s (first on line %zu); keep only one",
			            sval(k), where, out[i].key->start_mark.line + 1);
		yaml_node_t *v = visit(c, p->value, k->start_mark);
		if (!v)
			return PLANNER_EINPUT;
		out[i].key = k;
		out[i].val = v;
	}
	return PLANNER_OK;
}

/* Text value. `example` is a whole line the fix can quote ("name: bot"). */
static int get_str(struct ctx *c, const struct keyed *kv, const char *where, const char *example,
                   char **out)
{
	char d[64];
	if (!is_text(kv->val))
		return fail(c, kv->val->start_mark, "'%s' %s must be text, got %s; write e.g. %s",
		            sval(kv->key), where, describe(kv->val, d, sizeof d), example);
	char *s = strdup(sval(kv->val));
	if (!s)
		return oom(c);
	free(*out);
	*out = s;
	return PLANNER_OK;
}

static int get_num(struct ctx *c, const struct keyed *kv, const char *where, const char *example,
                   double *out)
{
	char d[64];
	yaml_node_t *v = kv->val;
	if (!is_text(v))
		goto bad;
	const char *s = sval(v);
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end)
		goto bad;
	if (!isfinite(x) || errno == ERANGE)
		return fail(c, v->start_mark, "'%s' %s is %s, not a usable number; write e.g. %s",
		            sval(kv->key), where, describe(v, d, sizeof d), example);
	*out = x;
	return PLANNER_OK;
bad:
	return fail(c, v->start_mark, "'%s' %s must be a number, got %s; write e.g. %s",
	            sval(kv->key), where, describe(v, d, sizeof d), example);
}

/* x must lie in [lo, hi]; says why (negative, zero, too large) when not. */
static int check_range(struct ctx *c, const struct keyed *kv, const char *where, double x,
                       double lo, double hi)
{
	if (x >= lo && x <= hi)
		return PLANNER_OK;
	const char *why = x < 0 && lo >= 0 ? "negative"
	                  : x == 0         ? "zero"
	                  : x > hi         ? "too large"
	                                   : "too small";
	return fail(c, kv->val->start_mark, "'%s' %s is %s (%g); use a value from %g to %g",
	            sval(kv->key), where, why, x, lo, hi);
}

static int get_range(struct ctx *c, const struct keyed *kv, const char *where, const char *example,
                     double lo, double hi, double *out)
{
	double x;
	int rc = get_num(c, kv, where, example, &x);
	if (rc == PLANNER_OK)
		rc = check_range(c, kv, where, x, lo, hi);
	if (rc == PLANNER_OK)
		*out = x;
	return rc;
}

static int get_int(struct ctx *c, const struct keyed *kv, const char *where, const char *example,
                   long lo, long hi, long *out)
{
	double x = 0;
	int rc = get_num(c, kv, where, example, &x);
	if (rc != PLANNER_OK)
		return rc;
	if (x != floor(x) && fabs(x) < 1e18)
		return fail(c, kv->val->start_mark,
		            "'%s' %s must be a whole number, got %g; write e.g. %s", sval(kv->key),
		            where, x, example);
	if ((rc = check_range(c, kv, where, x, (double)lo, (double)hi)) != PLANNER_OK)
		return rc;
	*out = (long)x;
	return PLANNER_OK;
}

static int get_bool(struct ctx *c, const struct keyed *kv, const char *where, bool *out)
{
	static const char *const yes[] = {"true", "yes", "on"}, *const no[] = {"false", "no",
	                                                                       "off"};
	char d[64];
	if (is_text(kv->val)) {
		for (size_t i = 0; i < NELEM(yes); i++) {
			if (!strcasecmp(sval(kv->val), yes[i])) {
				*out = true;
				return PLANNER_OK;
			}
			if (!strcasecmp(sval(kv->val), no[i])) {
				*out = false;
				return PLANNER_OK;
			}
		}
	}
	return fail(c, kv->val->start_mark,
	            "'%s' %s must be true or false, got %s; write e.g. %s: true", sval(kv->key),
	            where, describe(kv->val, d, sizeof d), sval(kv->key));
}

/* One of names[0..n), case-insensitive; *out is its index. */
static int get_enum(struct ctx *c, const struct keyed *kv, const char *where,
                    const char *const *names, size_t n, int *out)
{
	char d[64];
	if (!is_text(kv->val))
		return fail(c, kv->val->start_mark,
		            "'%s' %s must be one of %s ... %s, got %s; write e.g. %s: %s",
		            sval(kv->key), where, names[0], names[n - 1],
		            describe(kv->val, d, sizeof d), sval(kv->key), names[0]);
	for (size_t i = 0; i < n; i++) {
		if (!strcasecmp(sval(kv->val), names[i])) {
			*out = (int)i;
			return PLANNER_OK;
		}
	}
	const char *s = nearest_name(sval(kv->val), names, n);
	if (s)
		return fail(c, kv->val->start_mark, "unknown %s '%s' %s; did you mean '%s'?",
		            sval(kv->key), sval(kv->val), where, s);
	char list[256] = "";
	size_t used = 0;
	for (size_t i = 0; i < n && used < sizeof list; i++)
		used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? ", " : "",
		                         names[i]);
	return fail(c, kv->val->start_mark, "unknown %s '%s' %s; use one of: %s", sval(kv->key),
	            sval(kv->val), where, list);
}

/* A size with a suffix: tokens ("200M", "1.5B") or hours ("300h"). */
static int get_size(struct ctx *c, const struct keyed *kv, const char *where, bool hours, double lo,
                    double hi, double *out)
{
	char d[64];
	const char *example = hours ? "300h" : "200M";
	yaml_node_t *v = kv->val;
	double x;
	if (is_text(v)) {
		const char *s = sval(v);
		while (isspace((unsigned char)*s))
			s++;
		if (*s == '-')
			return fail(c, v->start_mark,
			            "'%s' %s is negative (%s); use a value from %g to %g",
			            sval(kv->key), where, s, lo, hi);
		if (hours ? parse_hours(s, &x) : parse_count(s, &x)) {
			if (!isfinite(x))
				goto bad;
			int rc = check_range(c, kv, where, x, lo, hi);
			if (rc == PLANNER_OK)
				*out = x;
			return rc;
		}
	}
bad:
	if (hours)
		return fail(c, v->start_mark, "'%s' %s must be hours, got %s; write e.g. %s: %s",
		            sval(kv->key), where, describe(v, d, sizeof d), sval(kv->key), example);
	return fail(
	    c, v->start_mark,
	    "'%s' %s must be a token count, got %s; write a number with an optional K, M, B or "
	    "T suffix, e.g. %s: %s",
	    sval(kv->key), where, describe(v, d, sizeof d), sval(kv->key), example);
}

/* A list of text items (a single text value counts as a one-item list). */
static int get_str_list(struct ctx *c, const struct keyed *kv, const char *where,
                        const char *example, char ***out, size_t *n_out)
{
	char d[64];
	yaml_node_t *v = kv->val;
	if (is_null(v))
		return fail(c, v->start_mark, "'%s' %s is empty; write e.g. %s", sval(kv->key),
		            where, example);
	if (v->type == YAML_SCALAR_NODE) {
		struct keyed one = *kv;
		char *s = NULL;
		int rc = get_str(c, &one, where, example, &s);
		if (rc != PLANNER_OK)
			return rc;
		if (!(*out = calloc(1, sizeof **out))) {
			free(s);
			return oom(c);
		}
		(*out)[0] = s;
		*n_out = 1;
		return PLANNER_OK;
	}
	if (v->type != YAML_SEQUENCE_NODE)
		return fail(c, v->start_mark, "'%s' %s must be a list, got %s; write e.g. %s",
		            sval(kv->key), where, describe(v, d, sizeof d), example);
	size_t n = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (n > MAX_ITEMS)
		return fail(c, v->start_mark, "'%s' %s has %zu entries; keep it under %d",
		            sval(kv->key), where, n, MAX_ITEMS);
	if (n == 0)
		return PLANNER_OK;
	if (!(*out = calloc(n, sizeof **out)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *it = visit(c, v->data.sequence.items.start[i], v->start_mark);
		if (!it)
			return PLANNER_EINPUT;
		if (!is_text(it))
			return fail(c, it->start_mark,
			            "entry %zu of '%s' %s must be text, got %s; write e.g. %s",
			            i + 1, sval(kv->key), where, describe(it, d, sizeof d),
			            example);
		if (!((*out)[i] = strdup(sval(it))))
			return oom(c);
		*n_out = i + 1;
	}
	return PLANNER_OK;
}

/* The entries of a list-valued section; null counts as empty. */
static int get_seq(struct ctx *c, const struct keyed *kv, const char *example, size_t *n)
{
	char d[64];
	*n = 0;
	if (is_null(kv->val))
		return PLANNER_OK;
	if (kv->val->type != YAML_SEQUENCE_NODE)
		return fail(c, kv->val->start_mark, "'%s' must be a list, got %s; write e.g. %s",
		            sval(kv->key), describe(kv->val, d, sizeof d), example);
	*n = (size_t)(kv->val->data.sequence.items.top - kv->val->data.sequence.items.start);
	if (*n > MAX_ITEMS)
		return fail(c, kv->val->start_mark, "'%s' has %zu entries; keep it under %d",
		            sval(kv->key), *n, MAX_ITEMS);
	return PLANNER_OK;
}

static int get_gpu(struct ctx *c, const struct keyed *kv, const char *where,
                   const struct gpu_spec **out)
{
	char *name = NULL;
	int rc = get_str(c, kv, where, "gpu: H100 SXM", &name);
	if (rc != PLANNER_OK)
		return rc;
	*out = refdata_gpu(c->ref, name);
	if (!*out) {
		const char *s = refdata_gpu_suggest(c->ref, name);
		if (s)
			rc = fail(c, kv->val->start_mark, "unknown GPU '%s' %s; did you mean '%s'?",
			          name, where, s);
		else
			rc = fail(
			    c, kv->val->start_mark,
			    "unknown GPU '%s' %s; use a GPU name such as 'H100 SXM' or 'RTX 4090'",
			    name, where);
	}
	free(name);
	return rc;
}

static struct src_pos pos_of(const yaml_node_t *n)
{
	return (struct src_pos){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

static bool is_currency_code(const char *s)
{
	return strlen(s) == 3 && isalpha((unsigned char)s[0]) && isalpha((unsigned char)s[1]) &&
	       isalpha((unsigned char)s[2]);
}

static void upcase(char *dst, const char *src, size_t len)
{
	size_t i = 0;
	for (; src[i] && i + 1 < len; i++)
		dst[i] = (char)toupper((unsigned char)src[i]);
	dst[i] = 0;
}

/* ---- top-level values ---------------------------------------------- */

static int read_fx(struct ctx *c, const struct keyed *kv)
{
	char d[64];
	yaml_node_t *m = kv->val;
	struct jobspec *sp = c->spec;
	if (is_null(m))
		return PLANNER_OK;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m->start_mark,
		            "'fx' must be a mapping of currency to units per USD, got %s; "
		            "write e.g. fx: {EUR: 0.92}",
		            describe(m, d, sizeof d));
	size_t n = (size_t)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	if (n > 300)
		return fail(c, m->start_mark,
		            "'fx' has %zu entries; list only the currencies you use", n);
	if (n && !(sp->fx = calloc(n, sizeof *sp->fx)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_pair_t *p = &m->data.mapping.pairs.start[i];
		yaml_node_t *k = visit(c, p->key, m->start_mark);
		if (!k)
			return PLANNER_EINPUT;
		if (!is_text(k) || !is_currency_code(sval(k)))
			return fail(
			    c, k->start_mark,
			    "fx key %s is not a 3-letter currency code; write e.g. fx: {EUR: 0.92}",
			    describe(k, d, sizeof d));
		char code[8];
		upcase(code, sval(k), sizeof code);
		for (size_t j = 0; j < sp->n_fx; j++)
			if (!strcmp(sp->fx[j].code, code))
				return fail(c, k->start_mark,
				            "duplicate key '%s' in fx; keep only one", sval(k));
		struct keyed e = {k, visit(c, p->value, k->start_mark)};
		if (!e.val)
			return PLANNER_EINPUT;
		double rate;
		int rc = get_num(c, &e, "in fx", "EUR: 0.92", &rate);
		if (rc == PLANNER_OK && !(rate > 0 && rate <= MAX_FX))
			rc = fail(c, e.val->start_mark,
			          "exchange rate %g for %s is out of range; give units of %s per "
			          "USD, above 0",
			          rate, code, code);
		if (rc == PLANNER_OK && !strcmp(code, "USD") && rate != 1)
			rc = fail(c, e.val->start_mark,
			          "fx gives USD a rate of %g; remove it (USD is always 1)", rate);
		if (rc != PLANNER_OK)
			return rc;
		memcpy(sp->fx[sp->n_fx].code, code, sizeof code);
		sp->fx[sp->n_fx].per_usd = rate;
		sp->n_fx++;
	}
	return PLANNER_OK;
}

/* Nearest zone name in the same zoneinfo directory, for "did you mean". */
static char *suggest_zone(const char *zdir, const char *name)
{
	char dir[512], *res = NULL;
	const char *slash = strrchr(name, '/');
	int dl = slash ? (int)(slash - name) : 0;
	snprintf(dir, sizeof dir, "%s/%.*s", zdir, dl, name);
	DIR *dp = opendir(dir);
	if (!dp)
		return NULL;
	const char *base = slash ? slash + 1 : name;
	const char *best = NULL;
	char *names[1024];
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(dp)) && n < NELEM(names))
		if (de->d_name[0] != '.' && (names[n] = strdup(de->d_name)))
			n++;
	closedir(dp);
	best = nearest_name(base, (const char *const *)names, n);
	if (best)
		res = xasprintf("%.*s%s%s", dl, name, slash ? "/" : "", best);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	return res;
}

static int read_timezone(struct ctx *c, const struct keyed *kv)
{
	int rc =
	    get_str(c, kv, "at the top level", "timezone: Europe/Amsterdam", &c->spec->timezone);
	if (rc != PLANNER_OK)
		return rc;
	const char *tz = c->spec->timezone;
	if (!strcmp(tz, "UTC"))
		return PLANNER_OK;
	const char *zdir = getenv("TZDIR");
	if (!zdir || !*zdir)
		zdir = ZONEINFO_DIR;
	bool ok = *tz != '/' && !strstr(tz, "..") && strlen(tz) < 200;
	for (const char *p = tz; ok && *p; p++)
		ok = isalnum((unsigned char)*p) || strchr("/_+-", *p);
	if (ok) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", zdir, tz);
		ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	}
	if (ok)
		return PLANNER_OK;
	char *s = *tz != '/' && !strstr(tz, "..") ? suggest_zone(zdir, tz) : NULL;
	if (s)
		rc = fail(c, kv->val->start_mark, "unknown timezone '%s'; did you mean '%s'?", tz,
		          s);
	else
		rc = fail(c, kv->val->start_mark,
		          "unknown timezone '%s'; use UTC or an IANA name under %s, e.g. "
		          "Europe/Amsterdam",
		          tz, zdir);
	free(s);
	return rc;
}

enum { OW_GPU, OW_COUNT, OW_WATTS, OW_N };
static const char *const owned_keys[OW_N] = {"gpu", "count", "watts"};

/* Entry i of the sequence kv, which must be a mapping: `what` names an
 * entry in messages ("buy entry"), `example` shows one. Also fills `where`
 * ("in buy entry 2") for the messages about its keys. */
static int seq_mapping(struct ctx *c, const struct keyed *kv, size_t i, const char *what,
                       const char *example, char *where, size_t where_len, yaml_node_t **out)
{
	char d[64];
	yaml_node_t *e = visit(c, kv->val->data.sequence.items.start[i], kv->val->start_mark);
	if (!e)
		return PLANNER_EINPUT;
	snprintf(where, where_len, "in %s %zu", what, i + 1);
	if (e->type != YAML_MAPPING_NODE)
		return fail(c, e->start_mark, "%s %zu must be a mapping, got %s; write e.g. - %s",
		            what, i + 1, describe(e, d, sizeof d), example);
	*out = e;
	return PLANNER_OK;
}

static int read_owned(struct ctx *c, const struct keyed *kv)
{
	char where[48];
	size_t n;
	int rc = get_seq(c, kv, "owned: [{gpu: RTX 4090, count: 2}]", &n);
	if (rc != PLANNER_OK || n == 0)
		return rc;
	struct jobspec *sp = c->spec;
	if (!(sp->owned = calloc(n, sizeof *sp->owned)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *e;
		if ((rc = seq_mapping(c, kv, i, "owned entry", "{gpu: RTX 4090, count: 2}", where, sizeof where, &e)) !=
		    PLANNER_OK)
			return rc;
		struct keyed v[OW_N];
		struct owned_gpu *o = &sp->owned[i];
		sp->n_owned = i + 1;
		o->pos = pos_of(e);
		o->count = 1;
		long count;
		if ((rc = read_map(c, e, owned_keys, OW_N, v, where)) != PLANNER_OK)
			return rc;
		if (!v[OW_GPU].val)
			return fail(c, e->start_mark,
			            "owned entry %zu has no 'gpu'; add e.g. gpu: RTX 4090", i + 1);
		if ((rc = get_gpu(c, &v[OW_GPU], where, &o->gpu)) != PLANNER_OK)
			return rc;
		if (v[OW_COUNT].val) {
			rc = get_int(c, &v[OW_COUNT], where, "count: 2", 1, JOBSPEC_MAX_GPU_COUNT, &count);
			if (rc != PLANNER_OK)
				return rc;
			o->count = (int)count;
		}
		o->watts = o->gpu->watts;
		if (v[OW_WATTS].val)
			rc = get_range(c, &v[OW_WATTS], where, "watts: 450", 1, JOBSPEC_MAX_WATTS,
			               &o->watts);
		else if (!(o->watts > 0))
			rc = fail(c, e->start_mark,
			          "the reference data has no power figure for %s; add watts: "
			          "(board power per GPU)",
			          o->gpu->name);
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

enum { BY_GPU, BY_PRICE, BY_WATTS, BY_MAX, BY_N };
static const char *const buy_keys[BY_N] = {"gpu", "price", "watts", "max_count"};

static int read_buy(struct ctx *c, const struct keyed *kv)
{
	char where[48];
	size_t n;
	struct jobspec *sp = c->spec;
	sp->has_buy = true;
	int rc = get_seq(c, kv, "buy: [{gpu: RTX 5090, price: 2400}]", &n);
	if (rc != PLANNER_OK || n == 0)
		return rc;
	if (!(sp->buy = calloc(n, sizeof *sp->buy)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *e;
		if ((rc = seq_mapping(c, kv, i, "buy entry", "{gpu: RTX 5090, price: 2400}", where, sizeof where, &e)) !=
		    PLANNER_OK)
			return rc;
		struct keyed v[BY_N];
		struct buy_option *b = &sp->buy[i];
		sp->n_buy = i + 1;
		b->pos = pos_of(e);
		b->max_count = DEFAULT_MAX_BUY;
		if ((rc = read_map(c, e, buy_keys, BY_N, v, where)) != PLANNER_OK)
			return rc;
		if (!v[BY_GPU].val)
			return fail(c, e->start_mark,
			            "buy entry %zu has no 'gpu'; add e.g. gpu: RTX 5090", i + 1);
		if ((rc = get_gpu(c, &v[BY_GPU], where, &b->gpu)) != PLANNER_OK)
			return rc;
		if (v[BY_PRICE].val) {
			rc = get_range(c, &v[BY_PRICE], where, "price: 2400", 0,
			               MAX_PRICE_USD * sp->usd_to_currency, &b->price);
			if (rc == PLANNER_OK && b->price == 0)
				rc = fail(c, v[BY_PRICE].val->start_mark,
				          "'price' %s is zero; give the purchase price per GPU, or "
				          "list GPUs "
				          "you already have under 'owned'",
				          where);
		} else if (b->gpu->price_usd > 0) {
			b->price = b->gpu->price_usd * sp->usd_to_currency;
		} else {
			rc = fail(c, e->start_mark,
			          "buy entry %zu has no 'price' and the reference data has "
			          "none for %s; add e.g. price: 2400",
			          i + 1, b->gpu->name);
		}
		if (rc != PLANNER_OK)
			return rc;
		b->watts = b->gpu->watts;
		if (v[BY_WATTS].val)
			rc = get_range(c, &v[BY_WATTS], where, "watts: 575", 1, JOBSPEC_MAX_WATTS,
			               &b->watts);
		else if (!(b->watts > 0))
			rc = fail(c, e->start_mark,
			          "the reference data has no power figure for %s; add watts: "
			          "(board power per GPU)",
			          b->gpu->name);
		if (rc != PLANNER_OK)
			return rc;
		if (v[BY_MAX].val) {
			long m;
			rc = get_int(c, &v[BY_MAX], where, "max_count: 4", 1, JOBSPEC_MAX_GPU_COUNT, &m);
			if (rc != PLANNER_OK)
				return rc;
			b->max_count = (int)m;
		}
	}
	return PLANNER_OK;
}

enum { QT_PROVIDER, QT_GPU, QT_COUNT, QT_PRICE, QT_SPOT, QT_N };
static const char *const quote_keys[QT_N] = {"provider", "gpu", "count", "price_per_hour", "spot"};

static int read_quotes(struct ctx *c, const struct keyed *kv)
{
	char where[48];
	size_t n;
	struct jobspec *sp = c->spec;
	int rc =
	    get_seq(c, kv, "quotes: [{provider: acme, gpu: H100 SXM, price_per_hour: 2.0}]", &n);
	if (rc != PLANNER_OK || n == 0)
		return rc;
	if (!(sp->quotes = calloc(n, sizeof *sp->quotes)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *e;
		if ((rc = seq_mapping(c, kv, i, "quote", "{provider: acme, gpu: H100 SXM, price_per_hour: 2.0}", where, sizeof where, &e)) !=
		    PLANNER_OK)
			return rc;
		struct keyed v[QT_N];
		struct quote *q = &sp->quotes[i];
		sp->n_quotes = i + 1;
		q->pos = pos_of(e);
		q->count = 1;
		if ((rc = read_map(c, e, quote_keys, QT_N, v, where)) != PLANNER_OK)
			return rc;
		for (int k = QT_PROVIDER; k <= QT_PRICE; k++) {
			if (k != QT_COUNT && !v[k].val)
				return fail(c, e->start_mark,
				            "quote %zu has no '%s'; add it, e.g. {provider: "
				            "acme, gpu: H100 SXM, price_per_hour: 2.0}",
				            i + 1, quote_keys[k]);
		}
		if ((rc = get_str(c, &v[QT_PROVIDER], where, "provider: acme", &q->provider)) !=
		    PLANNER_OK)
			return rc;
		str_lower(q->provider);
		if ((rc = get_gpu(c, &v[QT_GPU], where, &q->gpu)) != PLANNER_OK)
			return rc;
		if (v[QT_COUNT].val) {
			long count;
			rc = get_int(c, &v[QT_COUNT], where, "count: 8", 1, JOBSPEC_MAX_GPU_COUNT, &count);
			if (rc != PLANNER_OK)
				return rc;
			q->count = (int)count;
		}
		rc = get_range(c, &v[QT_PRICE], where, "price_per_hour: 2.0", 0,
		               MAX_PRICE_PER_HOUR_USD * sp->usd_to_currency, &q->price_per_hour);
		if (rc == PLANNER_OK && q->price_per_hour == 0)
			rc = fail(c, v[QT_PRICE].val->start_mark,
			          "'price_per_hour' %s is zero; give the quoted price for the "
			          "whole instance",
			          where);
		if (rc == PLANNER_OK && v[QT_SPOT].val)
			rc = get_bool(c, &v[QT_SPOT], where, &q->spot);
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

/* ---- jobs ------------------------------------------------------------ */

enum { SK_WINDOW, SK_DAYS, SK_DEADLINE, SK_PRIORITY, SK_MIN_RUN, SK_MAX_RUN, SK_N };
static const char *const sched_keys[SK_N] = {"window",   "days",    "deadline",
                                             "priority", "min_run", "max_run"};

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

static int read_day(struct ctx *c, yaml_node_t *n, const char *where, unsigned *mask)
{
	char d[64];
	if (!is_text(n))
		return fail(c, n->start_mark, "a day %s is %s; write e.g. days: [mon, tue, wed]",
		            where, describe(n, d, sizeof d));
	unsigned b = day_bits(sval(n));
	if (b) {
		*mask |= b;
		return PLANNER_OK;
	}
	const char *s = nearest_name(sval(n), day_names, NELEM(day_names));
	if (s)
		return fail(c, n->start_mark, "unknown day '%s' %s; did you mean '%s'?", sval(n),
		            where, s);
	return fail(c, n->start_mark,
	            "unknown day '%s' %s; use mon ... sun, weekdays, weekends or all", sval(n),
	            where);
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
		b = 1440; /* "22:00-00:00" runs to midnight */
	if (a == b)
		return false;
	*start = a;
	*end = b;
	return true;
}

static int read_schedule(struct ctx *c, const struct keyed *kv, struct job *j, const char *jwhere)
{
	char d[64], where[256];
	struct job_schedule *s = &j->sched;
	yaml_node_t *m = kv->val;
	if (is_null(m))
		return PLANNER_OK;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m->start_mark,
		            "'schedule' %s must be a mapping, got %s; write e.g. "
		            "schedule: {window: \"22:00-06:00\", days: [mon, fri]}",
		            jwhere, describe(m, d, sizeof d));
	snprintf(where, sizeof where, "in the schedule of %s", jwhere + 3);
	struct keyed v[SK_N];
	int rc = read_map(c, m, sched_keys, SK_N, v, where);
	if (rc != PLANNER_OK)
		return rc;
	if (v[SK_WINDOW].val) {
		if (!is_text(v[SK_WINDOW].val) ||
		    !parse_window(sval(v[SK_WINDOW].val), &s->window_start, &s->window_end))
			return fail(
			    c, v[SK_WINDOW].val->start_mark,
			    "window %s %s is not a time range; write e.g. window: \"22:00-06:00\" "
			    "(\"00:00-24:00\" is the whole day)",
			    describe(v[SK_WINDOW].val, d, sizeof d), where);
	}
	if (v[SK_DAYS].val) {
		yaml_node_t *dn = v[SK_DAYS].val;
		unsigned mask = 0;
		if (dn->type == YAML_SEQUENCE_NODE) {
			size_t n =
			    (size_t)(dn->data.sequence.items.top - dn->data.sequence.items.start);
			if (n == 0)
				return fail(c, dn->start_mark,
				            "'days' %s is empty; list days such as [mon, "
				            "tue] or write days: all",
				            where);
			if (n > 64)
				return fail(c, dn->start_mark,
				            "'days' %s has %zu entries; name each day once", where,
				            n);
			for (size_t i = 0; i < n; i++) {
				yaml_node_t *it =
				    visit(c, dn->data.sequence.items.start[i], dn->start_mark);
				if (!it || (rc = read_day(c, it, where, &mask)) != PLANNER_OK)
					return PLANNER_EINPUT;
			}
		} else if ((rc = read_day(c, dn, where, &mask)) != PLANNER_OK) {
			return rc;
		}
		s->days_mask = mask;
	}
	long x = 0;
	if (v[SK_DEADLINE].val) {
		if ((rc = get_int(c, &v[SK_DEADLINE], where, "deadline: 25", 1, 31, &x)) !=
		    PLANNER_OK)
			return rc;
		s->deadline = (int)x;
	}
	if (v[SK_PRIORITY].val) {
		rc = get_int(c, &v[SK_PRIORITY], where, "priority: 10", -MAX_PRIORITY, MAX_PRIORITY,
		             &x);
		if (rc != PLANNER_OK)
			return rc;
		s->priority = (int)x;
	}
	if (v[SK_MIN_RUN].val && (rc = get_size(c, &v[SK_MIN_RUN], where, true, 0,
	                                        MAX_HOURS_PER_MONTH, &s->min_run)) != PLANNER_OK)
		return rc;
	if (v[SK_MAX_RUN].val) {
		rc = get_size(c, &v[SK_MAX_RUN], where, true, 0, MAX_HOURS_PER_MONTH, &s->max_run);
		if (rc != PLANNER_OK)
			return rc;
		if (s->max_run == 0)
			return fail(
			    c, v[SK_MAX_RUN].val->start_mark,
			    "'max_run' %s is zero; give the longest run in hours, or remove it",
			    where);
		if (s->max_run < s->min_run)
			return fail(
			    c, v[SK_MAX_RUN].val->start_mark,
			    "max_run %gh %s is shorter than min_run %gh; make max_run at least %g",
			    s->max_run, where, s->min_run, s->min_run);
	}
	int len = s->window_end > s->window_start ? s->window_end - s->window_start
	                                          : s->window_end + 1440 - s->window_start;
	if (v[SK_MIN_RUN].val && s->min_run * 60 > len)
		return fail(
		    c, v[SK_MIN_RUN].val->start_mark,
		    "min_run %gh %s is longer than the %gh window; widen the window or shorten "
		    "min_run",
		    s->min_run, where, len / 60.0);
	return PLANNER_OK;
}

enum { RK_COMMAND, RK_IMAGE, RK_N };
static const char *const run_keys[RK_N] = {"command", "image"};

static int read_run(struct ctx *c, const struct keyed *kv, struct job *j, const char *jwhere)
{
	char d[64], where[256];
	yaml_node_t *m = kv->val;
	if (is_null(m))
		return PLANNER_OK;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m->start_mark,
		            "'run' %s must be a mapping, got %s; write e.g. run: {command: "
		            "\"python serve.py\", image: \"vllm/vllm-openai:latest\"}",
		            jwhere, describe(m, d, sizeof d));
	snprintf(where, sizeof where, "in run of %s", jwhere + 3);
	struct keyed v[RK_N];
	int rc = read_map(c, m, run_keys, RK_N, v, where);
	if (rc == PLANNER_OK && v[RK_COMMAND].val)
		rc = get_str(c, &v[RK_COMMAND], where, "command: \"python serve.py\"",
		             &j->run_command);
	if (rc == PLANNER_OK && v[RK_IMAGE].val)
		rc = get_str(c, &v[RK_IMAGE], where, "image: \"vllm/vllm-openai:latest\"",
		             &j->run_image);
	return rc;
}

static int read_tokens(struct ctx *c, const struct keyed *kv, struct job *j, const char *jwhere)
{
	static const char *const keys[] = {"input", "output"};
	char d[64], where[256];
	yaml_node_t *m = kv->val;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m->start_mark,
		            "'tokens_per_month' %s must be a mapping, got %s; write e.g. "
		            "tokens_per_month: {input: 200M, output: 40M}",
		            jwhere, describe(m, d, sizeof d));
	snprintf(where, sizeof where, "in tokens_per_month of %s", jwhere + 3);
	struct keyed v[2];
	int rc = read_map(c, m, keys, 2, v, where);
	if (rc == PLANNER_OK && v[0].val)
		rc = get_size(c, &v[0], where, false, 0, MAX_TOKENS_PER_MONTH, &j->input_tokens);
	if (rc == PLANNER_OK && v[1].val)
		rc = get_size(c, &v[1], where, false, 0, MAX_TOKENS_PER_MONTH, &j->output_tokens);
	if (rc == PLANNER_OK && j->input_tokens + j->output_tokens == 0)
		rc = fail(c, m->start_mark,
		          "'tokens_per_month' %s has no tokens; give e.g. {input: 200M, "
		          "output: 40M}, or remove it and give hours_per_month",
		          jwhere);
	j->has_tokens = rc == PLANNER_OK;
	return rc;
}

static bool is_model_path(const char *s)
{
	size_t l = strlen(s);
	return strchr(s, '/') || (l >= 5 && !strcasecmp(s + l - 5, ".json"));
}

static int read_model(struct ctx *c, const struct keyed *kv, struct job *j, const char *where)
{
	int rc = get_str(c, kv, where, "model: llama-3.1-8b", &j->model_ref);
	if (rc != PLANNER_OK)
		return rc;
	const char *id = j->model_ref;
	if (is_model_path(id)) {
		char *path = *id == '/' ? strdup(id) : xasprintf("%s/%s", c->dir, id);
		char *e = NULL;
		if (!path)
			return oom(c);
		rc = model_from_config(path, &j->model, &e);
		if (rc != PLANNER_OK)
			rc = fail(c, kv->val->start_mark,
			          "cannot read model config '%s' %s (%s); give a reference model "
			          "id or the "
			          "path of a Hugging Face config.json, relative to this file",
			          id, where, e ? e : "unknown error");
		free(e);
		free(path);
		return rc;
	}
	const struct model_spec *m = refdata_model(c->ref, id);
	if (m)
		return model_spec_copy(&j->model, m) ? PLANNER_OK : oom(c);
	const char *s = refdata_model_suggest(c->ref, id);
	if (s)
		return fail(c, kv->val->start_mark, "unknown model '%s' %s; did you mean '%s'?", id,
		            where, s);
	return fail(
	    c, kv->val->start_mark,
	    "unknown model '%s' %s; use a reference model id such as 'llama-3.1-8b', or the "
	    "path of a Hugging Face config.json",
	    id, where);
}

/* The job's name as written, if it has a text one, for messages that come
 * before the name itself is checked. Does not mark anything visited. */
static const char *peek_name(struct ctx *c, yaml_node_t *map)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = yaml_document_get_node(c->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(c->doc, p->value);
		if (k && v && is_text(k) && !strcmp(sval(k), "name") && is_text(v) && *sval(v) &&
		    strlen(sval(v)) <= MAX_NAME_LEN)
			return sval(v);
	}
	return NULL;
}

static int read_job(struct ctx *c, yaml_node_t *n, size_t idx)
{
	char d[64], where[200];
	struct jobspec *sp = c->spec;
	struct job *j = &sp->jobs[idx];
	sp->n_jobs = idx + 1;
	j->pos = pos_of(n);
	j->context = DEFAULT_CONTEXT;
	j->batch = 1;
	j->sched =
	    (struct job_schedule){.window_start = 0, .window_end = 1440, .days_mask = DAYS_ALL};
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n->start_mark,
		            "job %zu must be a mapping, got %s; write e.g. "
		            "- {name: bot, model: llama-3.1-8b, hours_per_month: 300}",
		            idx + 1, describe(n, d, sizeof d));
	const char *pname = peek_name(c, n);
	if (pname)
		snprintf(where, sizeof where, "in job '%s'", pname);
	else
		snprintf(where, sizeof where, "in job %zu", idx + 1);

	struct keyed v[JK_N];
	int rc = read_map(c, n, job_keys, JK_N, v, where);
	if (rc != PLANNER_OK)
		return rc;
	if (!v[JK_NAME].val)
		return fail(c, n->start_mark, "job %zu has no 'name'; add e.g. name: support-bot",
		            idx + 1);
	if ((rc = get_str(c, &v[JK_NAME], where, "name: support-bot", &j->name)) != PLANNER_OK)
		return rc;
	bool name_ok = *j->name && strlen(j->name) <= MAX_NAME_LEN;
	for (const char *p = j->name; name_ok && *p; p++)
		name_ok = !iscntrl((unsigned char)*p);
	if (!name_ok)
		return fail(c, v[JK_NAME].val->start_mark,
		            "job name %s is empty, too long or has control characters; use a short "
		            "name of up to %d characters",
		            describe(v[JK_NAME].val, d, sizeof d), MAX_NAME_LEN);
	for (size_t i = 0; i < idx; i++)
		if (!strcmp(sp->jobs[i].name, j->name))
			return fail(c, v[JK_NAME].val->start_mark,
			            "duplicate job name '%s' (first on line %d); give each job its "
			            "own name",
			            j->name, sp->jobs[i].pos.line);
	snprintf(where, sizeof where, "in job '%s'", j->name);

	if (!v[JK_MODEL].val)
		return fail(c, n->start_mark,
		            "job '%s' has no 'model'; add e.g. model: llama-3.1-8b", j->name);
	j->model_pos = pos_of(v[JK_MODEL].val);
	if ((rc = read_model(c, &v[JK_MODEL], j, where)) != PLANNER_OK)
		return rc;

	if (v[JK_PRECISION].val) {
		char *p = NULL;
		if ((rc = get_str(c, &v[JK_PRECISION], where, "precision: bf16", &p)) != PLANNER_OK)
			return rc;
		const struct precision_info *pi = precision_find(p);
		if (!pi) {
			const char *s = precision_suggest(p);
			if (s)
				rc = fail(c, v[JK_PRECISION].val->start_mark,
				          "unknown precision '%s' %s; did you mean '%s'?", p, where,
				          s);
			else
				rc = fail(c, v[JK_PRECISION].val->start_mark,
				          "unknown precision '%s' %s; use e.g. bf16, fp8, int8, "
				          "q4_k_m or int4",
				          p, where);
			free(p);
			return rc;
		}
		free(p);
		j->precision = strdup(pi->name);
	} else {
		j->precision = strdup(DEFAULT_PRECISION);
	}
	if (!j->precision)
		return oom(c);

	int e = 0;
	if (v[JK_TASK].val) {
		if ((rc = get_enum(c, &v[JK_TASK], where, task_names, NELEM(task_names), &e)) !=
		    PLANNER_OK)
			return rc;
		j->task = (enum task)e;
	}

	long maxctx = j->model.max_context > 0 ? j->model.max_context : 100000000;
	if (v[JK_CONTEXT].val) {
		rc = get_int(c, &v[JK_CONTEXT], where, "context: 8192", 1, 100000000, &j->context);
		if (rc != PLANNER_OK)
			return rc;
		if (j->context > maxctx)
			return fail(c, v[JK_CONTEXT].val->start_mark,
			            "context %ld %s is longer than %s's maximum of %ld tokens; use "
			            "at most %ld",
			            j->context, where, j->model_ref, maxctx, maxctx);
	} else if (j->context > maxctx) {
		j->context = maxctx;
	}
	if (v[JK_BATCH].val) {
		long b = 0;
		if ((rc = get_int(c, &v[JK_BATCH], where, "batch: 4", 1, MAX_BATCH, &b)) !=
		    PLANNER_OK)
			return rc;
		j->batch = (int)b;
	}
	if (v[JK_HOURS].val) {
		rc = get_size(c, &v[JK_HOURS], where, true, 0, MAX_HOURS_PER_MONTH,
		              &j->hours_per_month);
		if (rc == PLANNER_OK && j->hours_per_month == 0)
			rc = fail(
			    c, v[JK_HOURS].val->start_mark,
			    "'hours_per_month' %s is zero; give the GPU hours the job needs (up to "
			    "744), or remove it",
			    where);
		if (rc != PLANNER_OK)
			return rc;
		j->has_hours = true;
	}
	if (v[JK_TOKENS].val && (rc = read_tokens(c, &v[JK_TOKENS], j, where)) != PLANNER_OK)
		return rc;
	if (!j->has_hours && !j->has_tokens)
		return fail(c, n->start_mark,
		            "job '%s' has neither hours_per_month nor tokens_per_month; add e.g. "
		            "hours_per_month: 300 or tokens_per_month: {input: 200M, output: 40M}",
		            j->name);
	if (v[JK_DATA].val) {
		if ((rc = get_enum(c, &v[JK_DATA], where, data_names, NELEM(data_names), &e)) !=
		    PLANNER_OK)
			return rc;
		j->data = (enum data_class)e;
	}
	if (v[JK_INTERRUPTIBLE].val &&
	    (rc = get_bool(c, &v[JK_INTERRUPTIBLE], where, &j->interruptible)) != PLANNER_OK)
		return rc;
	if (v[JK_ACCELERATOR].val) {
		rc = get_enum(c, &v[JK_ACCELERATOR], where, accel_names, NELEM(accel_names), &e);
		if (rc != PLANNER_OK)
			return rc;
		j->any_accelerator = e == 1;
	}
	if (v[JK_API_MODELS].val) {
		rc = get_str_list(c, &v[JK_API_MODELS], where, "api_models: [openai/gpt-4o-mini]",
		                  &j->api_models, &j->n_api_models);
		if (rc != PLANNER_OK)
			return rc;
		yaml_node_t *an = v[JK_API_MODELS].val;
		if (j->n_api_models == 0)
			return fail(
			    c, an->start_mark,
			    "'api_models' %s is empty; list vendor/model ids, or remove it to use "
			    "the model's own API hosts",
			    where);
		for (size_t i = 0; i < j->n_api_models; i++) {
			const char *a = j->api_models[i], *sl = a ? strchr(a, '/') : NULL;
			if (sl && sl != a && sl[1])
				continue;
			yaml_node_t *at =
			    an->type == YAML_SEQUENCE_NODE
			        ? yaml_document_get_node(c->doc, an->data.sequence.items.start[i])
			        : an;
			return fail(
			    c, at->start_mark,
			    "api model '%s' %s is not vendor/model; write e.g. openai/gpt-4o-mini",
			    a, where);
		}
	}
	if (v[JK_SCHEDULE].val && (rc = read_schedule(c, &v[JK_SCHEDULE], j, where)) != PLANNER_OK)
		return rc;
	if (v[JK_RUN].val && (rc = read_run(c, &v[JK_RUN], j, where)) != PLANNER_OK)
		return rc;
	return PLANNER_OK;
}

static int read_jobs(struct ctx *c, const struct keyed *kv)
{
	size_t n;
	int rc =
	    get_seq(c, kv, "jobs: [{name: bot, model: llama-3.1-8b, hours_per_month: 300}]", &n);
	if (rc != PLANNER_OK)
		return rc;
	if (n == 0)
		return fail(c, kv->val->start_mark,
		            "'jobs' is empty; add at least one job with a name, a "
		            "model and hours_per_month or tokens_per_month");
	if (!(c->spec->jobs = calloc(n, sizeof *c->spec->jobs)))
		return oom(c);
	for (size_t i = 0; i < n; i++) {
		yaml_node_t *e =
		    visit(c, kv->val->data.sequence.items.start[i], kv->val->start_mark);
		if (!e || (rc = read_job(c, e, i)) != PLANNER_OK)
			return PLANNER_EINPUT;
	}
	return PLANNER_OK;
}

/* ---- the document ---------------------------------------------------- */

enum {
	TK_VERSION,
	TK_CURRENCY,
	TK_FX,
	TK_TIMEZONE,
	TK_ELECTRICITY,
	TK_PUE,
	TK_AMORTIZE,
	TK_PROVIDERS,
	TK_OWNED,
	TK_BUY,
	TK_QUOTES,
	TK_JOBS,
	TK_N
};
static const char *const top_keys[TK_N] = {
    [TK_VERSION] = "version",
    [TK_CURRENCY] = "currency",
    [TK_FX] = "fx",
    [TK_TIMEZONE] = "timezone",
    [TK_ELECTRICITY] = "electricity_per_kwh",
    [TK_PUE] = "pue",
    [TK_AMORTIZE] = "amortize_months",
    [TK_PROVIDERS] = "providers",
    [TK_OWNED] = "owned",
    [TK_BUY] = "buy",
    [TK_QUOTES] = "quotes",
    [TK_JOBS] = "jobs",
};

static int read_top(struct ctx *c, yaml_node_t *root)
{
	static const char *const top = "at the top level";
	char d[64];
	struct jobspec *sp = c->spec;
	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root->start_mark,
		            "the top level is %s, not a mapping; start the file with "
		            "'version: 1' and a 'jobs:' list",
		            describe(root, d, sizeof d));
	struct keyed v[TK_N];
	int rc = read_map(c, root, top_keys, TK_N, v, top);
	if (rc != PLANNER_OK)
		return rc;
	if (v[TK_VERSION].val) {
		double ver;
		if ((rc = get_num(c, &v[TK_VERSION], top, "version: 1", &ver)) != PLANNER_OK)
			return rc;
		if (ver != 1)
			return fail(c, v[TK_VERSION].val->start_mark,
			            "unsupported version %s; this planner reads version: 1",
			            describe(v[TK_VERSION].val, d, sizeof d));
	}
	sp->version = 1;
	if (v[TK_CURRENCY].val) {
		char *cur = NULL;
		if ((rc = get_str(c, &v[TK_CURRENCY], top, "currency: EUR", &cur)) != PLANNER_OK)
			return rc;
		bool ok = is_currency_code(cur);
		if (ok)
			upcase(sp->currency, cur, sizeof sp->currency);
		free(cur);
		if (!ok)
			return fail(
			    c, v[TK_CURRENCY].val->start_mark,
			    "currency %s is not a 3-letter ISO 4217 code; write e.g. currency: EUR",
			    describe(v[TK_CURRENCY].val, d, sizeof d));
	}
	if (v[TK_FX].val && (rc = read_fx(c, &v[TK_FX])) != PLANNER_OK)
		return rc;
	sp->usd_to_currency = 0;
	if (!strcmp(sp->currency, "USD"))
		sp->usd_to_currency = 1;
	for (size_t i = 0; i < sp->n_fx; i++)
		if (!strcmp(sp->fx[i].code, sp->currency))
			sp->usd_to_currency = sp->fx[i].per_usd;
	/* Only a currency the file names can lack a rate (USD is the default). */
	if (sp->usd_to_currency == 0 && v[TK_CURRENCY].val)
		return fail(
		    c, v[TK_CURRENCY].val->start_mark,
		    "currency %s has no exchange rate; add fx: {%s: RATE}, the units of %s per USD",
		    sp->currency, sp->currency, sp->currency);
	if (v[TK_TIMEZONE].val && (rc = read_timezone(c, &v[TK_TIMEZONE])) != PLANNER_OK)
		return rc;
	sp->electricity_per_kwh = JOBSPEC_DEFAULT_ELECTRICITY_USD * sp->usd_to_currency;
	sp->electricity_default = true;
	if (v[TK_ELECTRICITY].val) {
		rc = get_range(c, &v[TK_ELECTRICITY], top, "electricity_per_kwh: 0.30", 0,
		               MAX_ELECTRICITY_USD * sp->usd_to_currency, &sp->electricity_per_kwh);
		if (rc != PLANNER_OK)
			return rc;
		sp->electricity_default = false;
	}
	if (v[TK_PUE].val &&
	    (rc = get_range(c, &v[TK_PUE], top, "pue: 1.2", 1.0, 3.0, &sp->pue)) != PLANNER_OK)
		return rc;
	if (v[TK_AMORTIZE].val) {
		long m;
		rc = get_int(c, &v[TK_AMORTIZE], top, "amortize_months: 36", 1, 240, &m);
		if (rc != PLANNER_OK)
			return rc;
		sp->amortize_months = (double)m;
	}
	if (v[TK_PROVIDERS].val && !is_null(v[TK_PROVIDERS].val)) {
		rc = get_str_list(c, &v[TK_PROVIDERS], top, "providers: [lambda, runpod]",
		                  &sp->providers, &sp->n_providers);
		if (rc != PLANNER_OK)
			return rc;
		for (size_t i = 0; i < sp->n_providers; i++)
			str_lower(sp->providers[i]);
	}
	if (v[TK_OWNED].val && (rc = read_owned(c, &v[TK_OWNED])) != PLANNER_OK)
		return rc;
	if (v[TK_BUY].val && (rc = read_buy(c, &v[TK_BUY])) != PLANNER_OK)
		return rc;
	if (v[TK_QUOTES].val && (rc = read_quotes(c, &v[TK_QUOTES])) != PLANNER_OK)
		return rc;
	if (!v[TK_JOBS].val)
		return fail(c, root->start_mark,
		            "no 'jobs' list; add 'jobs:' with at least one job "
		            "(name, model, hours_per_month or tokens_per_month)");
	return read_jobs(c, &v[TK_JOBS]);
}

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

static int yaml_failure(struct ctx *c, yaml_parser_t *p, const char *text, size_t len)
{
	if (p->error == YAML_MEMORY_ERROR)
		return oom(c);
	const char *problem = p->problem ? p->problem : "unreadable YAML";
	if (p->error == YAML_READER_ERROR) {
		yaml_mark_t m = mark_at(text, len, p->problem_offset);
		return fail(c, m, "invalid YAML: %s; save the file as UTF-8 text", problem);
	}
	if (p->context && p->context_mark.line != p->problem_mark.line)
		return fail(
		    c, p->problem_mark,
		    "invalid YAML: %s %s from line %zu, column %zu; check the indentation, colons "
		    "and quotes there",
		    problem, p->context, p->context_mark.line + 1, p->context_mark.column + 1);
	if (p->context)
		return fail(c, p->problem_mark,
		            "invalid YAML: %s %s; check the indentation, colons and "
		            "quotes here",
		            problem, p->context);
	return fail(c, p->problem_mark,
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

static char *dir_of(const char *name)
{
	const char *slash = strrchr(name, '/');
	if (!slash)
		return strdup(".");
	if (slash == name)
		return strdup("/");
	return strndup(name, (size_t)(slash - name));
}

int jobspec_parse(const char *name, const char *text, size_t len, const struct refdata *ref,
                  struct jobspec **out, char **err)
{
	int rc = PLANNER_OK;
	yaml_parser_t parser;
	yaml_document_t doc, extra;
	bool parser_ok = false, doc_ok = false;
	struct ctx c = {.file = name, .ref = ref, .err = err};
	char *dir = NULL;
	*out = NULL;

	struct jobspec *sp = calloc(1, sizeof *sp);
	if (!sp || !(sp->path = strdup(name)) || !(dir = dir_of(name))) {
		rc = set_err(err, PLANNER_EINPUT, "%s: out of memory", name);
		goto out;
	}
	sp->version = 1;
	memcpy(sp->currency, "USD", 4);
	sp->usd_to_currency = 1;
	sp->pue = 1.0;
	sp->amortize_months = 36;
	sp->electricity_per_kwh = JOBSPEC_DEFAULT_ELECTRICITY_USD;
	sp->electricity_default = true;
	if (!(sp->timezone = strdup("UTC"))) {
		rc = oom(&c);
		goto out;
	}
	c.spec = sp;
	c.dir = dir;
	c.doc = &doc;

	if (!yaml_parser_initialize(&parser)) {
		rc = oom(&c);
		goto out;
	}
	parser_ok = true;
	size_t deep_at;
	if (too_deep(text, len, &deep_at)) {
		rc = fail(
		    &c, mark_at(text, len, deep_at),
		    "lists and mappings nest more than %d deep here; a job spec needs only a few "
		    "levels",
		    MAX_FLOW_DEPTH);
		goto out;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	if (!yaml_parser_load(&parser, &doc)) {
		rc = yaml_failure(&c, &parser, text, len);
		goto out;
	}
	doc_ok = true;
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		rc = fail(&c, (yaml_mark_t){0},
		          "the file is empty; write a job spec with 'version: 1' and "
		          "a 'jobs:' list");
		goto out;
	}
	/* A second document would be silently ignored; say so instead. */
	if (!yaml_parser_load(&parser, &extra)) {
		rc = yaml_failure(&c, &parser, text, len);
		goto out;
	}
	yaml_node_t *more = yaml_document_get_root_node(&extra);
	yaml_mark_t more_at = more ? more->start_mark : (yaml_mark_t){0};
	yaml_document_delete(&extra);
	if (more) {
		rc = fail(&c, more_at,
		          "a second YAML document starts here; keep one job spec per file");
		goto out;
	}
	c.n_nodes = (size_t)(doc.nodes.top - doc.nodes.start);
	if (!(c.seen = calloc(c.n_nodes, 1))) {
		rc = oom(&c);
		goto out;
	}
	if (!ref) {
		rc = set_err(err, PLANNER_EINPUT,
		             "%s: no reference data to resolve models and GPUs", name);
		goto out;
	}
	yaml_node_t *r = visit(&c, 1, root->start_mark);
	rc = r ? read_top(&c, r) : PLANNER_EINPUT;
out:
	if (doc_ok)
		yaml_document_delete(&doc);
	if (parser_ok)
		yaml_parser_delete(&parser);
	free(c.seen);
	free(dir);
	if (rc == PLANNER_OK)
		*out = sp;
	else
		jobspec_free(sp);
	return rc;
}

int jobspec_load(const char *path, const struct refdata *ref, struct jobspec **out, char **err)
{
	size_t len = 0;
	*out = NULL;
	char *text = read_file(path, &len);
	if (!text)
		return set_err(err, PLANNER_EINPUT, "cannot open %s: %s; check the path", path,
		               strerror(errno));
	int rc = jobspec_parse(path, text, len, ref, out, err);
	free(text);
	return rc;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void jobspec_free(struct jobspec *spec)
{
	if (!spec)
		return;
	for (size_t i = 0; i < spec->n_jobs; i++) {
		struct job *j = &spec->jobs[i];
		free(j->name);
		free(j->model_ref);
		model_spec_clear(&j->model);
		free(j->precision);
		free_strv(j->api_models, j->n_api_models);
		free(j->run_command);
		free(j->run_image);
	}
	free(spec->jobs);
	for (size_t i = 0; i < spec->n_quotes; i++)
		free(spec->quotes[i].provider);
	free(spec->quotes);
	free(spec->buy);
	free(spec->owned);
	free_strv(spec->providers, spec->n_providers);
	free(spec->fx);
	free(spec->timezone);
	free(spec->path);
	free(spec);
}
