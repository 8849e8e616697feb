/* spec_read.c — applies a key table (spec_table.h) to one mapping of the
 * job spec: one reader for every mapping, one list reader for owned:,
 * buy:, quotes: and jobs:. What a key means lives in its row. */
#include "spec_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void *spec_field(const struct spec_rd *r, const struct spec_key *k)
{
	return (char *)r->target + k->offset;
}

const struct keyed *spec_val(const struct spec_rd *r, const char *name)
{
	static const struct keyed none = {NULL, NULL};
	for (size_t i = 0; i < r->t->n; i++)
		if (!strcmp(r->t->keys[i].name, name))
			return &r->v[i];
	return &none;
}

static void store_num(void *p, enum spec_store s, double x)
{
	switch (s) {
	case STORE_DOUBLE:
		*(double *)p = x;
		break;
	case STORE_INT:
		*(int *)p = (int)x;
		break;
	case STORE_LONG:
		*(long *)p = (long)x;
		break;
	case STORE_BOOL:
		*(bool *)p = x != 0;
		break;
	}
}

int spec_defaults(struct ctx *c, const struct spec_table *t, void *target)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		void *f = (char *)target + k->offset;
		if (k->has_def)
			store_num(f, k->store, k->def);
		if (k->kind == SPEC_TEXT && k->def_text) {
			char *s = strdup(k->def_text);
			if (!s)
				return yr_oom(&c->y);
			free(*(char **)f);
			*(char **)f = s;
		}
		int rc = k->kind == SPEC_MAP ? spec_defaults(c, k->sub, f) : PLANNER_OK;
		if (rc != PLANNER_OK)
			return rc;
	}
	if (t->init)
		t->init(target);
	return PLANNER_OK;
}

/* For a key written in a mapping of table t (a job) that belongs in one of
 * its nested mappings ("days" for schedule), that mapping's name. */
static const char *nested_parent(const char *key, const void *arg)
{
	const struct spec_table *t = arg;
	for (size_t i = 0; i < t->n; i++) {
		const struct spec_key *k = &t->keys[i];
		for (size_t j = 0; k->kind == SPEC_MAP && j < k->sub->n; j++)
			if (!strcmp(k->sub->keys[j].name, key))
				return k->name;
	}
	return NULL;
}

static int read_gpu(struct spec_rd *r, const struct keyed *kv, const struct gpu_spec **out)
{
	struct ctx *c = r->c;
	char *name = NULL;
	int rc = yr_get_str(&c->y, kv, r->where, "gpu: H100 SXM", &name);
	if (rc != PLANNER_OK)
		return rc;
	/* a card the spec describes (gpus:) before the reference table */
	*out = c->spec->gpus ? refdata_gpu_in(&c->spec->gpus->spec, sizeof *c->spec->gpus,
	                                       c->spec->n_gpus, name)
	                     : NULL;
	if (!*out)
		*out = refdata_gpu(c->ref, name);
	if (!*out) {
		const char *s = refdata_gpu_suggest(c->ref, name);
		if (s)
			rc = yr_fail(&c->y, kv->val->start_mark,
			             "unknown GPU '%s' %s; did you mean '%s'?", name, r->where, s);
		else
			rc = yr_fail(
			    &c->y, kv->val->start_mark,
			    "unknown GPU '%s' %s; use a GPU name such as 'H100 SXM' or 'RTX 4090' "
			    "(planner gpus lists them), or describe the card under gpus:",
			    name, r->where);
	}
	free(name);
	return rc;
}

static int read_nested(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	yaml_node_t *m = kv->val;
	if (m->type != YAML_MAPPING_NODE)
		return yr_fail(&r->c->y, m->start_mark,
		               "'%s' %s must be a mapping, got %s; write e.g. %s", k->name,
		               r->where, yr_describe(m, d, sizeof d), k->example);
	return spec_read(r->c, k->sub, r, spec_field(r, k), m, 0);
}

static struct src_pos pos_of(const yaml_node_t *n)
{
	return (struct src_pos){(int)n->start_mark.line + 1, (int)n->start_mark.column + 1};
}

/* The one list reader: each entry of kv a mapping read with k->sub into a
 * new array at k's field, its length at k->count_offset. */
static int read_entries(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	char d[64];
	struct yr *y = &r->c->y;
	const struct spec_table *t = k->sub;
	size_t n, *count = (size_t *)((char *)r->target + k->count_offset);
	void **arr = spec_field(r, k);
	int rc = yr_get_seq(y, kv, k->example, &n);
	if (rc != PLANNER_OK)
		return rc;
	if (n == 0)
		return k->zero
		           ? yr_fail(y, kv->val->start_mark, "'%s' is empty; %s", k->name, k->zero)
		           : PLANNER_OK;
	if (!(*arr = calloc(n, t->size)))
		return yr_oom(y);
	for (size_t i = 0; i < n; i++) {
		char *e = (char *)*arr + i * t->size;
		*count = i + 1;
		yaml_node_t *m =
		    yr_visit(y, kv->val->data.sequence.items.start[i], kv->val->start_mark);
		if (!m)
			return PLANNER_EINPUT;
		if (m->type != YAML_MAPPING_NODE)
			return yr_fail(y, m->start_mark,
			               "%s %zu must be a mapping, got %s; write e.g. - %s", t->what,
			               i + 1, yr_describe(m, d, sizeof d), t->example);
		*(struct src_pos *)(e + t->pos_offset) = pos_of(m);
		if ((rc = spec_defaults(r->c, t, e)) != PLANNER_OK ||
		    (rc = spec_read(r->c, t, r, e, m, i)) != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

/* Reads the value of row k (present in the file) into its field. */
static int read_value(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct yr *y = &r->c->y;
	void *f = spec_field(r, k);
	double hi = k->flags & SPEC_FX ? k->hi * r->c->spec->usd_to_currency : k->hi;
	long x = 0;
	int e = 0, rc = PLANNER_OK;
	switch (k->kind) {
	case SPEC_TEXT:
		rc = yr_get_text(y, kv, r->where, k->example, k->flags & SPEC_LINES, f);
		if (rc == PLANNER_OK && (k->flags & SPEC_LOWER))
			str_lower(*(char **)f);
		return rc;
	case SPEC_NUMBER:
		return yr_get_range(y, kv, r->where, k->example, k->lo, hi, f);
	case SPEC_WHOLE:
		rc = yr_get_int(y, kv, r->where, k->example, (long)k->lo, (long)hi, &x);
		if (rc == PLANNER_OK)
			store_num(f, k->store, (double)x);
		return rc;
	case SPEC_HOURS:
	case SPEC_COUNT:
		return yr_get_size(y, kv, r->where, k->kind == SPEC_HOURS, k->lo, hi, f);
	case SPEC_BOOL:
		return yr_get_bool(y, kv, r->where, f);
	case SPEC_ENUM:
		rc = yr_get_enum(y, kv, r->where, k->names, k->n_names, &e);
		if (rc == PLANNER_OK)
			store_num(f, k->store, e);
		return rc;
	case SPEC_LIST: {
		size_t *n = (size_t *)((char *)r->target + k->count_offset);
		rc = yr_get_str_list(y, kv, r->where, k->example, f, n);
		for (size_t i = 0; rc == PLANNER_OK && (k->flags & SPEC_LOWER) && i < *n; i++)
			str_lower((*(char ***)f)[i]);
		return rc;
	}
	case SPEC_GPU:
		return read_gpu(r, kv, f);
	case SPEC_MAP:
		return read_nested(r, k, kv);
	case SPEC_ENTRIES:
		return read_entries(r, k, kv);
	case SPEC_CUSTOM:
		return k->read(r, k, kv);
	}
	return PLANNER_OK;
}

/* A row whose .zero is set rejects the value 0 (after its bounds). */
static int check_zero(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	bool num = k->kind == SPEC_NUMBER || k->kind == SPEC_HOURS || k->kind == SPEC_COUNT;
	if (!k->zero || !num || *(double *)spec_field(r, k) != 0)
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark, "'%s' %s is zero; %s", k->name, r->where,
	               k->zero);
}

static int missing(struct spec_rd *r, const struct spec_key *k)
{
	if (k->missing)
		return yr_fail(&r->c->y, r->map->start_mark, "%s", k->missing);
	if (r->t->required_first)
		return yr_fail(&r->c->y, r->map->start_mark, "%s has no '%s'; add it, e.g. %s",
		               r->who, k->name, r->t->example);
	return yr_fail(&r->c->y, r->map->start_mark, "%s has no '%s'; add e.g. %s", r->who, k->name,
	               k->example);
}

static int read_row(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	bool present = kv->val && !((k->flags & SPEC_NULL_OK) && yr_is_null(kv->val));
	if (!kv->val && (k->flags & SPEC_REQUIRED))
		return missing(r, k);
	int rc = PLANNER_OK;
	if (present && (rc = read_value(r, k, kv)) == PLANNER_OK)
		rc = check_zero(r, k, kv);
	if (rc == PLANNER_OK && k->check && (present || (k->flags & SPEC_ALWAYS)))
		rc = k->check(r, k, kv);
	return rc;
}

/* "at the top level", "in owned entry 2", "in the schedule of job 'bot'". */
static void name_mapping(struct spec_rd *r)
{
	const struct spec_table *t = r->t;
	if (t->what) {
		snprintf(r->where, sizeof r->where, "in %s %zu", t->what, r->index + 1);
		snprintf(r->who, sizeof r->who, "%s %zu", t->what, r->index + 1);
	} else if (r->up) {
		/* "in job 'bot'" → "in the schedule of job 'bot'" */
		snprintf(r->where, sizeof r->where, "%s%s", t->where, r->up->where + 3);
	} else {
		snprintf(r->where, sizeof r->where, "%s", t->where);
	}
}

int spec_read(struct ctx *c, const struct spec_table *t, const struct spec_rd *up, void *target,
              yaml_node_t *map, size_t index)
{
	struct spec_rd r = {.c = c, .t = t, .up = up, .target = target, .map = map, .index = index};
	const char *keys[SPEC_MAX_KEYS];
	int rc;
	name_mapping(&r);
	if (t->begin && (rc = t->begin(&r)) != PLANNER_OK)
		return rc;
	for (size_t i = 0; i < t->n; i++)
		keys[i] = t->keys[i].name;
	rc = yr_read_map(&c->y, map, keys, t->n, nested_parent, t, r.v, r.where);
	for (size_t i = 0; rc == PLANNER_OK && t->required_first && i < t->n; i++)
		if ((t->keys[i].flags & SPEC_REQUIRED) && !r.v[i].val)
			rc = missing(&r, &t->keys[i]);
	for (size_t i = 0; rc == PLANNER_OK && i < t->n; i++)
		rc = read_row(&r, &t->keys[i], &r.v[i]);
	if (rc == PLANNER_OK && t->done)
		rc = t->done(&r);
	return rc;
}
