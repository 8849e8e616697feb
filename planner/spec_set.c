/* spec_set.c — `--set KEY=VALUE`, a what-if on the job spec: each
 * override is written into the loaded YAML document before the key
 * tables read it, so a set value gets the same types, bounds, "did you
 * mean" and errors as one in the file (its messages name the --set
 * instead of a line). KEY is a dotted path of the spec's keys; in a list
 * an entry is named by its `name` (jobs), its `gpu` (owned, buy, quotes)
 * or its 0-based index: jobs.support-bot.tokens_per_month.input=400M,
 * owned.RTX 4090.count=4, buy.0.price=2000. VALUE is YAML: a plain
 * value, or a flow list or mapping ([eu, us], {price: 3000}). */
#include "spec_set.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

/* Path segments in one KEY: the deepest spec key is four levels down. */
#define MAX_SEGMENTS 16
/* Nodes a flow VALUE may hold. */
#define MAX_VALUE_NODES 4096

static yaml_mark_t set_mark(size_t k)
{
	return (yaml_mark_t){.index = YR_SET_MARK + k};
}

/* Copies node `id` of src into y's document, every mark set to m. Returns
 * the new node's id, or 0 when out of memory or too large. */
static int copy_node(yaml_document_t *dst, yaml_document_t *src, int id, yaml_mark_t m, int *budget)
{
	yaml_node_t *n = yaml_document_get_node(src, id);
	if (!n || --*budget < 0)
		return 0;
	int out = 0;
	switch (n->type) {
	case YAML_SCALAR_NODE:
		out = yaml_document_add_scalar(dst, NULL, n->data.scalar.value,
		                               (int)n->data.scalar.length, n->data.scalar.style);
		break;
	case YAML_SEQUENCE_NODE: {
		out = yaml_document_add_sequence(dst, NULL, YAML_FLOW_SEQUENCE_STYLE);
		int count = (int)(n->data.sequence.items.top - n->data.sequence.items.start);
		for (int i = 0; out && i < count; i++) {
			int item = yaml_document_get_node(src, id)->data.sequence.items.start[i];
			int c = copy_node(dst, src, item, m, budget);
			if (!c || !yaml_document_append_sequence_item(dst, out, c))
				return 0;
		}
		break;
	}
	case YAML_MAPPING_NODE: {
		out = yaml_document_add_mapping(dst, NULL, YAML_FLOW_MAPPING_STYLE);
		int count = (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
		for (int i = 0; out && i < count; i++) {
			yaml_node_pair_t p = yaml_document_get_node(src, id)->data.mapping.pairs.start[i];
			int k = copy_node(dst, src, p.key, m, budget);
			int v = k ? copy_node(dst, src, p.value, m, budget) : 0;
			if (!v || !yaml_document_append_mapping_pair(dst, out, k, v))
				return 0;
		}
		break;
	}
	default:
		return 0;
	}
	if (out)
		yaml_document_get_node(dst, out)->start_mark = m;
	return out;
}

/* VALUE as a node of y's document: parsed as YAML so that 400M, [eu, us]
 * and {price: 3000} read as in the file. */
static int value_node(struct yr *y, const char *value, size_t k, int *id)
{
	yaml_parser_t p;
	yaml_document_t d;
	int rc = PLANNER_OK;
	if (!yaml_parser_initialize(&p))
		return yr_oom(y);
	yaml_parser_set_input_string(&p, (const unsigned char *)value, strlen(value));
	if (!yaml_parser_load(&p, &d)) {
		yaml_parser_delete(&p);
		return yr_fail(y, set_mark(k), "the value is not YAML (%s); quote it or write "
		                               "e.g. 400M, [eu, us] or {price: 3000}",
		               p.problem ? p.problem : "?");
	}
	int budget = MAX_VALUE_NODES;
	if (!yaml_document_get_root_node(&d))
		*id = yaml_document_add_scalar(&y->doc, NULL, (yaml_char_t *)"", 0,
		                               YAML_PLAIN_SCALAR_STYLE);
	else
		*id = copy_node(&y->doc, &d, 1, set_mark(k), &budget);
	if (*id)
		yaml_document_get_node(&y->doc, *id)->start_mark = set_mark(k);
	else
		rc = yr_oom(y);
	yaml_document_delete(&d);
	yaml_parser_delete(&p);
	return rc;
}

/* The value of key `name` in mapping `map`, as the pair's index, or -1. */
static int find_pair(yaml_document_t *doc, int map, const char *name)
{
	yaml_node_t *m = yaml_document_get_node(doc, map);
	int count = (int)(m->data.mapping.pairs.top - m->data.mapping.pairs.start);
	for (int i = 0; i < count; i++) {
		yaml_node_t *key = yaml_document_get_node(doc, m->data.mapping.pairs.start[i].key);
		if (key && key->type == YAML_SCALAR_NODE && !strcmp(yr_sval(key), name))
			return i;
	}
	return -1;
}

/* Whether the entry (a mapping) is named seg by its name: or gpu:. */
static bool entry_named(yaml_document_t *doc, int entry, const char *seg)
{
	yaml_node_t *e = yaml_document_get_node(doc, entry);
	if (!e || e->type != YAML_MAPPING_NODE)
		return false;
	static const char *const by[] = {"name", "gpu"};
	for (size_t b = 0; b < sizeof by / sizeof *by; b++) {
		int i = find_pair(doc, entry, by[b]);
		if (i < 0)
			continue;
		int vid = yaml_document_get_node(doc, entry)->data.mapping.pairs.start[i].value;
		yaml_node_t *v = yaml_document_get_node(doc, vid);
		if (v && v->type == YAML_SCALAR_NODE &&
		    (b == 0 ? !strcmp(yr_sval(v), seg) : !strcasecmp(yr_sval(v), seg)))
			return true;
	}
	return false;
}

/* The entry of sequence `seq` (the list `list`) that seg names, into
 * *out. A segment that is an entry's name is that entry, so a job named
 * "1" is jobs.1; a bare number that names none is a 0-based index
 * (buy.0.price). Entries that share the name (two owned rows of one GPU)
 * are refused with their indexes, as is a segment that names nothing. */
static int find_entry(struct yr *y, int seq, const char *seg, const char *list, size_t k, int *out)
{
	yaml_node_t *s = yaml_document_get_node(&y->doc, seq);
	int count = (int)(s->data.sequence.items.top - s->data.sequence.items.start);
	char at_list[128] = "", use[192] = "";
	int named = 0, last = -1;
	size_t al = 0, ul = 0;
	for (int i = 0; i < count; i++) {
		if (!entry_named(&y->doc, s->data.sequence.items.start[i], seg))
			continue;
		if (last >= 0 && al < sizeof at_list)
			al += (size_t)snprintf(at_list + al, sizeof at_list - al, "%s%d",
			                       named > 1 ? ", " : "", last);
		if (last >= 0 && ul < sizeof use)
			ul += (size_t)snprintf(use + ul, sizeof use - ul, "%s%s.%d",
			                       named > 1 ? ", " : "", list, last);
		named++;
		last = i;
	}
	if (named > 1)
		return yr_fail(y, set_mark(k),
		               "%s has %d entries named '%s' (%s, %d); use %s or %s.%d", list,
		               named, seg, at_list, last, use, list, last);
	if (named == 1) {
		*out = s->data.sequence.items.start[last];
		return PLANNER_OK;
	}
	char *end = NULL;
	long at = isdigit((unsigned char)seg[0]) ? strtol(seg, &end, 10) : -1;
	if (end && !*end && at < count) {
		*out = s->data.sequence.items.start[at];
		return PLANNER_OK;
	}
	return yr_fail(y, set_mark(k),
	               "no entry '%s' in %s; name a job by its name, an owned, buy or quotes "
	               "entry by its gpu, or any entry by its 0-based index",
	               seg, list);
}

/* Into mapping `map`, key seg: its value's id (created as an empty
 * mapping when absent and not last), or the pair replaced by value. */
static int step_map(struct yr *y, int map, const char *seg, size_t k, int value, int *next)
{
	yaml_document_t *doc = &y->doc;
	int i = find_pair(doc, map, seg);
	if (i >= 0 && value) {
		yaml_document_get_node(doc, map)->data.mapping.pairs.start[i].value = value;
		return PLANNER_OK;
	}
	if (i >= 0) {
		*next = yaml_document_get_node(doc, map)->data.mapping.pairs.start[i].value;
		return PLANNER_OK;
	}
	int key = yaml_document_add_scalar(doc, NULL, (const yaml_char_t *)seg, (int)strlen(seg),
	                                   YAML_PLAIN_SCALAR_STYLE);
	int val = value ? value
	                : yaml_document_add_mapping(doc, NULL, YAML_FLOW_MAPPING_STYLE);
	if (!key || !val || !yaml_document_append_mapping_pair(doc, map, key, val))
		return yr_oom(y);
	yaml_document_get_node(doc, key)->start_mark = set_mark(k);
	yaml_document_get_node(doc, val)->start_mark = set_mark(k);
	*next = val;
	return PLANNER_OK;
}

/* Applies sets[k] ("KEY=VALUE") to the document. */
static int apply_one(struct yr *y, const char *set, size_t k)
{
	char path[512], *seg[MAX_SEGMENTS];
	const char *eq = strchr(set, '=');
	size_t n = 0, len = eq ? (size_t)(eq - set) : 0;
	if (!eq || len == 0 || len >= sizeof path)
		return yr_fail(y, set_mark(k), "write KEY=VALUE, e.g. "
		                               "jobs.support-bot.tokens_per_month.input=400M");
	memcpy(path, set, len);
	path[len] = '\0';
	for (char *s = path, *save = NULL; n < MAX_SEGMENTS && (s = strtok_r(s, ".", &save));
	     s = NULL)
		seg[n++] = s;
	if (n == 0 || n == MAX_SEGMENTS)
		return yr_fail(y, set_mark(k), "'%s' is not a key path; write e.g. costs.host.price",
		               path);
	int value = 0, rc = value_node(y, eq + 1, k, &value);
	int at = 1; /* the root mapping */
	for (size_t i = 0; rc == PLANNER_OK && i < n; i++) {
		yaml_node_t *node = yaml_document_get_node(&y->doc, at);
		bool last = i + 1 == n;
		if (node->type == YAML_MAPPING_NODE) {
			rc = step_map(y, at, seg[i], k, last ? value : 0, &at);
		} else if (node->type == YAML_SEQUENCE_NODE && !last) {
			rc = find_entry(y, at, seg[i], i ? seg[i - 1] : "the spec", k, &at);
		} else {
			rc = yr_fail(y, set_mark(k), "'%s' holds %s, not a mapping; set '%s' itself",
			             i ? seg[i - 1] : "the spec",
			             node->type == YAML_SEQUENCE_NODE ? "a list" : "a value",
			             i ? seg[i - 1] : "it");
		}
	}
	return rc;
}

int spec_apply_sets(struct yr *y, const char *const *sets, size_t n)
{
	y->sets = sets;
	y->n_sets = n;
	yaml_node_t *root = yaml_document_get_root_node(&y->doc);
	if (n && (!root || root->type != YAML_MAPPING_NODE))
		return PLANNER_OK; /* the reader says what is wrong with the file */
	for (size_t k = 0; k < n; k++) {
		int rc = apply_one(y, sets[k], k);
		if (rc != PLANNER_OK)
			return rc;
	}
	/* New nodes: the alias check's table grows with them. */
	size_t nodes = (size_t)(y->doc.nodes.top - y->doc.nodes.start);
	if (nodes > y->n_nodes) {
		unsigned char *seen = realloc(y->seen, nodes);
		if (!seen)
			return yr_oom(y);
		memset(seen + y->n_nodes, 0, nodes - y->n_nodes);
		y->seen = seen;
		y->n_nodes = nodes;
	}
	return PLANNER_OK;
}
