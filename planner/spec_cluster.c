/* spec_cluster.c — the cluster: block, how the exports name things on the
 * reader's own cluster: the Slurm GRES type of each GPU model, partition,
 * account and QOS, the GPUs a node holds, and the Kubernetes namespace and
 * node labels. The row of cluster: is in top_keys (spec_keys.c); the
 * exports (export_slurm.c, export_k8s.c) read struct job_cluster.
 *
 * Each value is checked against the grammar of where it goes, so an
 * export never writes a name its target refuses:
 * - Kubernetes namespaces are DNS-1123 labels (lower-case letters, digits
 *   and '-', starting and ending with a letter or digit, at most 63);
 *   label keys an optional DNS-1123 subdomain prefix (at most 253) and '/'
 *   before a name of at most 63 letters, digits, '-', '_' and '.' that
 *   starts and ends with a letter or digit; label values the same as that
 *   name, or empty (https://kubernetes.io/docs/concepts/overview/
 *   working-with-objects/names/ and .../labels/, "Syntax and character
 *   set", read 2026-12-02).
 * - Slurm's partition and GRES type names: slurm.conf and gres.conf set no
 *   grammar beyond a name, but sbatch splits --partition at ',' and
 *   --gres at ':' and ',' (sbatch(1), "--partition", "--gres", Slurm
 *   22.05), and the script passes them as shell words; so planner takes
 *   letters, digits, '_', '-' and '.', starting with a letter or digit, at
 *   most 63 — a subset every Slurm accepts.
 * - account and qos are checked by slurmdbd, which the tests' throwaway
 *   slurmctld has not: they are passed through as given (no control
 *   characters, as every text). */
#include "spec_table.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Longest Kubernetes label name or value, namespace and Slurm name; and
 * the longest label key prefix (a DNS-1123 subdomain). */
#define NAME_MAX_LEN   63
#define PREFIX_MAX_LEN 253
/* Entries of gres: and node_selector: at most: more GPU models or labels
 * than any cluster has is taken for a mistake. */
#define MAX_PAIRS 64

static bool alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

static bool lower_alnum(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
}

/* A DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63. */
static bool dns_label(const char *s, size_t len)
{
	if (len == 0 || len > NAME_MAX_LEN || !lower_alnum(s[0]) || !lower_alnum(s[len - 1]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!lower_alnum(s[i]) && s[i] != '-')
			return false;
	return true;
}

/* A DNS-1123 subdomain: labels joined by '.', at most 253. */
static bool dns_subdomain(const char *s, size_t len)
{
	if (len == 0 || len > PREFIX_MAX_LEN)
		return false;
	for (size_t start = 0; start <= len;) {
		const char *dot = memchr(s + start, '.', len - start);
		size_t end = dot ? (size_t)(dot - s) : len;
		if (!dns_label(s + start, end - start))
			return false;
		start = end + 1;
	}
	return true;
}

/* A label name or value: [A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?, at
 * most 63 (a value may also be empty; the caller says). */
static bool label_name(const char *s, size_t len)
{
	if (len == 0 || len > NAME_MAX_LEN || !alnum(s[0]) || !alnum(s[len - 1]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

static bool label_key(const char *s)
{
	const char *slash = strchr(s, '/');
	if (!slash)
		return label_name(s, strlen(s));
	return dns_subdomain(s, (size_t)(slash - s)) && label_name(slash + 1, strlen(slash + 1));
}

/* planner's subset of Slurm names (above). */
static bool slurm_name(const char *s)
{
	size_t len = strlen(s);
	if (len == 0 || len > NAME_MAX_LEN || !alnum(s[0]))
		return false;
	for (size_t i = 0; i < len; i++)
		if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.')
			return false;
	return true;
}

#define SLURM_FIX "letters, digits, '_', '-' and '.', starting with a letter or digit, at most 63"

static int check_slurm_name(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *v = *(char *const *)spec_field(r, k);
	if (slurm_name(v))
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "cluster.%s '%s' is not a Slurm name sbatch can take; use " SLURM_FIX
	               " (scontrol show partition lists them)",
	               k->name, v);
}

static int check_namespace(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	const char *v = *(char *const *)spec_field(r, k);
	if (dns_label(v, strlen(v)))
		return PLANNER_OK;
	return yr_fail(&r->c->y, kv->val->start_mark,
	               "cluster.namespace '%s' is not a Kubernetes namespace name; use a DNS-1123 "
	               "label: lower-case letters, digits and '-', starting and ending with a "
	               "letter or digit, at most 63 (e.g. namespace: inference)",
	               v);
}

/* Checks one key or value of a pair (is_value says which) read at `at`;
 * may replace *s with another malloc'd text (a canonical name). Returns
 * PLANNER_OK, or the error of yr_fail. */
typedef int pair_check_fn(struct spec_rd *r, char **s, bool is_value, yaml_mark_t at);

/* Reads the mapping of text to text in kv into *out (*n pairs), each key
 * and value through check. */
static int read_pairs(struct spec_rd *r, const struct keyed *kv, const char *example,
                      pair_check_fn *check, struct cluster_pair **out, size_t *n)
{
	char d[64];
	struct yr *y = &r->c->y;
	yaml_node_t *m = kv->val;
	if (yr_is_null(m))
		return PLANNER_OK;
	if (m->type != YAML_MAPPING_NODE)
		return yr_fail(y, m->start_mark,
		               "'%s' in cluster must be a mapping, got %s; write e.g. %s",
		               yr_sval(kv->key), yr_describe(m, d, sizeof d), example);
	size_t len = yr_map_len(m);
	if (len > MAX_PAIRS)
		return yr_fail(y, m->start_mark, "'%s' in cluster has %zu entries, at most %d",
		               yr_sval(kv->key), len, MAX_PAIRS);
	if (len && !(*out = calloc(len, sizeof **out)))
		return yr_oom(y);
	for (size_t i = 0; i < len; i++) {
		yaml_node_pair_t *p = &m->data.mapping.pairs.start[i];
		yaml_node_t *key_node = yr_visit(y, p->key, m->start_mark);
		yaml_node_t *val_node = key_node ? yr_visit(y, p->value, key_node->start_mark) : NULL;
		if (!val_node)
			return PLANNER_EINPUT;
		struct keyed ek = {key_node, key_node}, ev = {key_node, val_node};
		struct cluster_pair *pair = &(*out)[*n];
		int rc = yr_get_str(y, &ek, "in cluster", example, &pair->key);
		if (rc == PLANNER_OK)
			rc = yr_get_str(y, &ev, "in cluster", example, &pair->value);
		if (rc == PLANNER_OK)
			rc = check(r, &pair->key, false, key_node->start_mark);
		if (rc == PLANNER_OK)
			rc = check(r, &pair->value, true, val_node->start_mark);
		for (size_t j = 0; rc == PLANNER_OK && j < *n; j++)
			if (!strcmp((*out)[j].key, pair->key))
				rc = yr_fail(y, key_node->start_mark,
				             "duplicate key '%s' in cluster.%s; keep only one", pair->key,
				             yr_sval(kv->key));
		(*n)++; /* freed by jobspec_cluster_clear, read or not */
		if (rc != PLANNER_OK)
			return rc;
	}
	return PLANNER_OK;
}

/* gres: a GPU planner knows, stored by its canonical name (the name the
 * schedule's runs carry), to a Slurm GRES type. */
static int gres_check(struct spec_rd *r, char **s, bool is_value, yaml_mark_t at)
{
	if (is_value)
		return slurm_name(*s) ? PLANNER_OK
		                      : yr_fail(&r->c->y, at,
		                                "cluster.gres type '%s' is not a GRES type sbatch "
		                                "--gres can take; use " SLURM_FIX
		                                " (scontrol show node | grep Gres lists yours)",
		                                *s);
	const struct jobspec *sp = r->c->spec;
	const struct gpu_spec *g =
	    sp->gpus ? refdata_gpu_in(&sp->gpus->spec, sizeof *sp->gpus, sp->n_gpus, *s) : NULL;
	if (!g)
		g = refdata_gpu(r->c->ref, *s);
	if (!g) {
		const char *near = refdata_gpu_suggest(r->c->ref, *s);
		if (near)
			return yr_fail(&r->c->y, at, "unknown GPU '%s' in cluster.gres; did you mean "
			               "'%s'?",
			               *s, near);
		return yr_fail(&r->c->y, at,
		               "unknown GPU '%s' in cluster.gres; name a GPU as `planner gpus` "
		               "lists it, e.g. gres: {\"A100 80GB\": a100}",
		               *s);
	}
	char *canon = strdup(g->name);
	if (!canon)
		return yr_oom(&r->c->y);
	free(*s);
	*s = canon;
	return PLANNER_OK;
}

static int selector_check(struct spec_rd *r, char **s, bool is_value, yaml_mark_t at)
{
	bool good = is_value ? (!**s || label_name(*s, strlen(*s))) : label_key(*s);
	if (good)
		return PLANNER_OK;
	return yr_fail(&r->c->y, at,
	               "cluster.node_selector %s '%s' is not a Kubernetes label %s; use "
	               "letters, digits, '-', '_' and '.', starting and ending with a letter or "
	               "digit, at most 63%s (e.g. node_selector: {pool: gpu})",
	               is_value ? "value" : "key", *s, is_value ? "value" : "key",
	               is_value ? "" : ", after an optional DNS-1123 prefix and '/'");
}

static int read_gres(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job_cluster *c = r->target;
	return read_pairs(r, kv, k->example, gres_check, &c->gres, &c->n_gres);
}

static int read_selector(struct spec_rd *r, const struct spec_key *k, const struct keyed *kv)
{
	struct job_cluster *c = r->target;
	return read_pairs(r, kv, k->example, selector_check, &c->node_selector,
	                  &c->n_node_selector);
}

#define CLUSTER_AT(field) offsetof(struct job_cluster, field)

static const struct spec_key cluster_keys[] = {
    {.name = "gres",
     .kind = SPEC_CUSTOM,
     .read = read_gres,
     .def_text = "the GPU name's letters and digits, lower case (A100 80GB: a10080gb)",
     .example = "gres: {\"A100 80GB\": a100}",
     .type = "mapping of GPU name to GRES type",
     .bounds = "GPUs planner knows; types of letters, digits, '_', '-', '.' (at most 63)",
     .desc = "The Slurm GRES type of each GPU model (`--gres=gpu:TYPE:N`), as your "
             "gres.conf names it; a model not listed keeps the default."},
    {.name = "partition",
     .kind = SPEC_TEXT,
     .offset = CLUSTER_AT(partition),
     .check = check_slurm_name,
     .example = "partition: gpu",
     .bounds = "letters, digits, '_', '-', '.' (at most 63)",
     .desc = "Slurm partition of every job (`--partition`); without it, the cluster's default."},
    {.name = "account",
     .kind = SPEC_TEXT,
     .offset = CLUSTER_AT(account),
     .example = "account: ml-team",
     .desc = "Slurm account (`--account`), passed through unchecked: only slurmdbd knows "
             "the accounts."},
    {.name = "qos",
     .kind = SPEC_TEXT,
     .offset = CLUSTER_AT(qos),
     .example = "qos: inference",
     .desc = "Slurm quality of service (`--qos`), passed through unchecked: only slurmdbd "
             "knows them."},
    {.name = "gpus_per_node",
     .kind = SPEC_WHOLE,
     .offset = CLUSTER_AT(gpus_per_node),
     .store = STORE_INT,
     .lo = 1,
     .hi = JOBSPEC_MAX_HOST_GPUS,
     .def_text = "a replica's GPUs fit on one node",
     .example = "gpus_per_node: 8",
     .desc = "GPUs one node holds: a Slurm replica with more asks for ceil(GPUs / "
             "gpus_per_node) nodes with gpus_per_node GPUs each."},
    {.name = "namespace",
     .kind = SPEC_TEXT,
     .offset = CLUSTER_AT(namespace_),
     .check = check_namespace,
     .example = "namespace: inference",
     .type = "text, DNS-1123 label",
     .bounds = "lower-case letters, digits, '-' (at most 63)",
     .desc = "Kubernetes namespace of every object the k8s export writes; without it, none is "
             "written (kubectl's current namespace)."},
    {.name = "node_selector",
     .kind = SPEC_CUSTOM,
     .read = read_selector,
     .def_text = "only nvidia.com/gpu.product",
     .example = "node_selector: {pool: gpu}",
     .type = "mapping of label key to label value",
     .bounds = "Kubernetes label keys (optional prefix/) and values",
     .desc = "Node labels every pod of the k8s export must match, beside the GPU model's "
             "nvidia.com/gpu.product."},
};

_Static_assert(NELEM(cluster_keys) <= SPEC_MAX_KEYS, "cluster_keys: raise SPEC_MAX_KEYS");

const struct spec_table spec_cluster = {
    .intro = "How the exports (`planner schedule --format slurm|k8s`) name things on your "
             "cluster, so the files run as they are. Every value is checked against the "
             "grammar of where it goes; account and qos are passed through, since only "
             "Slurm's database daemon (slurmdbd) knows them.",
    .keys = cluster_keys,
    .n = NELEM(cluster_keys),
    .where = "in cluster at ",
};

static void free_pairs(struct cluster_pair *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].key);
		free(p[i].value);
	}
	free(p);
}

void jobspec_cluster_clear(struct job_cluster *c)
{
	if (!c)
		return;
	free_pairs(c->gres, c->n_gres);
	free_pairs(c->node_selector, c->n_node_selector);
	free(c->partition);
	free(c->account);
	free(c->qos);
	free(c->namespace_);
	memset(c, 0, sizeof *c);
}

const char *jobspec_cluster_gres(const struct job_cluster *c, const char *gpu)
{
	for (size_t i = 0; c && gpu && i < c->n_gres; i++)
		if (c->gres[i].key && !strcmp(c->gres[i].key, gpu))
			return c->gres[i].value;
	return NULL;
}
