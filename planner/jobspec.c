/* jobspec.c — reads the YAML job spec (docs/spec.md) with libyaml's
 * document API and checks every value, so the rest of the planner can
 * trust a struct jobspec. Every error names file:line:column and says how
 * to fix it. The keys are rows of tables (spec_keys.c, spec_job.c) that
 * one reader applies (spec_read.c); values come out of the document
 * through yamlread.c. */
#include "jobspec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "measured.h"
#include "spec_set.h"
#include "spec_table.h"
#include "util.h"

const char *task_name(enum task t)
{
	return (unsigned)t < jobspec_n_task_names ? jobspec_task_names[t] : "?";
}

/* Indexed by enum ckpt. */
static const char *const ckpt_names[CKPT_MODES] = {"on", "off", "selective"};

const char *ckpt_name(enum ckpt c)
{
	return (unsigned)c < CKPT_MODES ? ckpt_names[c] : "?";
}

bool ckpt_parse(const char *s, enum ckpt *out)
{
	static const char *const on[] = {"on", "true", "yes"}, *const off[] = {"off", "false",
	                                                                       "no"};
	for (size_t i = 0; s && i < sizeof on / sizeof on[0]; i++) {
		if (!strcasecmp(s, on[i]) || !strcasecmp(s, off[i])) {
			*out = !strcasecmp(s, on[i]) ? CKPT_ON : CKPT_OFF;
			return true;
		}
	}
	if (s && !strcasecmp(s, "selective")) {
		*out = CKPT_SELECTIVE;
		return true;
	}
	return false;
}

const char *data_class_name(enum data_class d)
{
	return (unsigned)d < jobspec_n_data_names ? jobspec_data_names[d] : "?";
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

/* The document's root, read with the top-level table. */
static int read_top(struct ctx *c, yaml_node_t *root)
{
	char d[64];
	yaml_node_t *r = yr_visit(&c->y, 1, root->start_mark);
	if (!r)
		return PLANNER_EINPUT;
	if (r->type != YAML_MAPPING_NODE)
		return yr_fail(&c->y, r->start_mark,
		               "the top level is %s, not a mapping; start the file with "
		               "'version: 1' and a 'jobs:' list",
		               yr_describe(r, d, sizeof d));
	return spec_read(c, &spec_top, NULL, c->spec, r, 0);
}

int jobspec_parse(const char *name, const char *text, size_t len, const struct refdata *ref,
                  struct jobspec **out, char **err)
{
	return jobspec_parse_set(name, text, len, ref, NULL, 0, out, err);
}

int jobspec_parse_set(const char *name, const char *text, size_t len, const struct refdata *ref,
                      const char *const *sets, size_t n_sets, struct jobspec **out, char **err)
{
	int rc = PLANNER_OK;
	struct ctx c = {.y = {.file = name, .err = err}, .ref = ref};
	char *dir = NULL;
	yaml_node_t *root = NULL;
	*out = NULL;

	struct jobspec *sp = calloc(1, sizeof *sp);
	if (!sp || !(sp->path = strdup(name)) || !(dir = dir_of(name))) {
		rc = yr_oom(&c.y);
		goto out;
	}
	c.spec = sp;
	c.dir = dir;
	if ((rc = spec_defaults(&c, &spec_top, sp)) != PLANNER_OK)
		goto out;
	if ((rc = yr_open(&c.y, text, len, &root)) != PLANNER_OK)
		goto out;
	if (!ref) {
		rc = set_err(err, PLANNER_EINPUT,
		             "%s: no reference data to resolve models and GPUs", name);
		goto out;
	}
	if ((rc = spec_apply_sets(&c.y, sets, n_sets)) != PLANNER_OK)
		goto out;
	/* --set may have added nodes, and the document's node stack moves
	 * when it grows: the root is looked up again. */
	if (n_sets)
		root = yaml_document_get_root_node(&c.y.doc);
	rc = read_top(&c, root);
out:
	yr_close(&c.y);
	name_index_free(&c.job_names);
	free(dir);
	if (rc == PLANNER_OK)
		*out = sp;
	else
		jobspec_free(sp);
	return rc;
}

/* The largest job spec read. 10,000 jobs, the most a list holds
 * (YR_MAX_ITEMS), written in block style as YAML libraries write by
 * default take 4-5 MB; the cap leaves room for longer jobs and comments
 * while bounding libyaml's document tree, some 20 times the text. */
#define MAX_SPEC_MIB   64
#define MAX_SPEC_BYTES ((long)MAX_SPEC_MIB << 20)

/* Reads the regular file at path, at most MAX_SPEC_BYTES, into *text
 * (NUL-terminated). Opened without blocking and checked before a byte is
 * read: /dev/zero would be read until memory ran out, and a FIFO with no
 * writer would wait for ever. The buffer is the file's size, not the cap. */
static int read_spec_file(const char *path, char **text, size_t *len, char **err)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return set_err(err, PLANNER_EINPUT, "cannot open %s: %s; check the path", path,
		               strerror(errno));
	int rc = PLANNER_OK;
	char *buf = NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = set_err(err, PLANNER_EINPUT,
		             "%s is not a regular file; give the job spec's YAML file", path);
		goto out;
	}
	if (st.st_size > MAX_SPEC_BYTES) {
		/* Rounded up: a file just past the cap never reads "64 MiB". */
		rc = set_err(err, PLANNER_EINPUT, "%s is %lld MiB; specs are read up to %d MiB",
		             path, (long long)((st.st_size + (1 << 20) - 1) >> 20), MAX_SPEC_MIB);
		goto out;
	}
	/* One byte more than the file shows a file that grew meanwhile. */
	size_t room = (size_t)st.st_size + 1;
	if (!(buf = malloc(room + 1))) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	size_t n = 0;
	ssize_t got = 0;
	while (n < room && ((got = read(fd, buf + n, room - n)) > 0 || (got < 0 && errno == EINTR)))
		n += got > 0 ? (size_t)got : 0;
	if (got < 0 || n == room) {
		rc = set_err(err, PLANNER_EINPUT, "cannot read %s: %s", path,
		             got < 0 ? strerror(errno) : "it grew while it was read");
		goto out;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	buf = NULL;
out:
	free(buf);
	close(fd);
	return rc;
}

int jobspec_load(const char *path, const struct refdata *ref, struct jobspec **out, char **err)
{
	return jobspec_load_set(path, ref, NULL, 0, out, err);
}

int jobspec_load_set(const char *path, const struct refdata *ref, const char *const *sets,
                     size_t n_sets, struct jobspec **out, char **err)
{
	size_t len = 0;
	char *text = NULL;
	*out = NULL;
	int rc = read_spec_file(path, &text, &len, err);
	if (rc != PLANNER_OK)
		return rc;
	rc = jobspec_parse_set(path, text, len, ref, sets, n_sets, out, err);
	free(text);
	return rc;
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

const char *jobspec_title(const struct jobspec *spec)
{
	if (spec->name && *spec->name)
		return spec->name;
	const char *base = spec->path ? strrchr(spec->path, '/') : NULL;
	base = base ? base + 1 : spec->path;
	return base && *base ? base : "job spec";
}

/* A part copied at another memory size (local_device_sized). */
static void gpu_sized_free(struct gpu_spec *g)
{
	if (g)
		free(g->name);
	free(g);
}

const struct country_price *jobspec_country_price(const struct jobspec *spec)
{
	if (!spec->country)
		return NULL;
	return spec->country_use == COUNTRY_HOUSEHOLD ? &spec->country->household
	                                              : &spec->country->business;
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
		free_strv(j->regions, j->n_regions);
		free(j->run_command);
		free(j->run_image);
		free(j->run_weights);
		free(j->engine);
		free(j->optimizer);
	}
	free(spec->jobs);
	for (size_t i = 0; i < spec->n_measurements; i++)
		measured_entry_free(&spec->measurements[i]);
	free(spec->measurements);
	for (size_t i = 0; i < spec->n_quotes; i++)
		free(spec->quotes[i].provider);
	free(spec->quotes);
	for (size_t i = 0; i < spec->n_gpus; i++) {
		free(spec->gpus[i].spec.name);
		free(spec->gpus[i].spec.vendor);
		free(spec->gpus[i].spec.memory_type);
		free(spec->gpus[i].spec.source);
	}
	free(spec->gpus);
	for (size_t i = 0; i < spec->n_buy; i++)
		gpu_sized_free(spec->buy[i].sized);
	for (size_t i = 0; i < spec->n_owned; i++)
		gpu_sized_free(spec->owned[i].sized);
	free(spec->buy);
	free(spec->owned);
	free_strv(spec->providers, spec->n_providers);
	jobspec_cluster_clear(&spec->cluster);
	free_strv(spec->regions, spec->n_regions);
	free(spec->fx);
	free(spec->timezone);
	free(spec->name);
	free(spec->path);
	free(spec);
}
