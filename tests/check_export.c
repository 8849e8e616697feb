/* check_export.c — planner/export_*.c through `planner schedule`, each
 * format parsed back with a real parser: cJSON for json, Python's csv
 * module for csv, Debian's python3-icalendar for ics (/usr/bin/python3:
 * apt-get install python3-icalendar), `bash -n` and an option check for
 * slurm, libyaml and PyYAML (python3-yaml, YAML 1.1 types) for k8s, and
 * the Kubernetes OpenAPI types of Debian's python3-kubernetes for k8s
 * (tests/tools/k8s_validate.py, offline). */
#include <cJSON.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "cli.h"
#include "export.h"
#include "testutil.h"
#include "util.h"

static const char spec_yaml[] =
	"version: 1\n"
	"currency: EUR\n"
	"fx: {EUR: 0.92}\n"
	"timezone: Europe/Amsterdam\n"
	"electricity_per_kwh: 0.30\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 2}\n"
	"jobs:\n"
	"  - name: \"rag, \\\"nightly\\\"\"\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 60\n"
	"    data: restricted\n"
	"    schedule: {window: \"22:00-06:00\", days: [fri, sat], min_run: 3}\n"
	"    run: {command: \"python rag.py --it's 'quoted'\", image: \"ghcr.io/acme/rag:1.2\"}\n"
	"  - name: evals\n"
	"    model: qwen2.5-7b\n"
	"    precision: bf16\n"
	"    hours_per_month: 700\n"
	"    data: confidential\n"
	"    run: {command: \"python evals.py\", image: \"vllm/vllm-openai:latest\"}\n"
	"  - name: chat\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    tokens_per_month: {input: 20M, output: 4M}\n";

struct fx {
	char *dir;
	char *spec;
	char *db;
};

static void setup_fx(struct fx *f)
{
	f->dir = test_tmpdir();
	f->spec = test_write(f->dir, "spec.yaml", spec_yaml);
	f->db = xasprintf("%s/p.db", f->dir);
}

static void free_fx(struct fx *f)
{
	free(f->dir);
	free(f->spec);
	free(f->db);
}

/* Runs `planner schedule` for October 2026 (the 25-hour day) into
 * dir/name; returns the file's path. Unplaced hours are allowed (exit 0,
 * not 6): the file is what is tested. */
static char *schedule_to(struct fx *f, const char *format, const char *name)
{
	char *out = xasprintf("%s/%s", f->dir, name);
	const char *argv[] = {"schedule", f->spec, "--month", "2026-10", "--format", format,
			      "-o", out, "--db", f->db, "--allow-unplaced", NULL};
	char *err = NULL;
	int rc = test_run_planner(argv, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "schedule --format %s: %s", format, err ? err : "");
	free(err);
	return out;
}

START_TEST(json_has_the_contract_keys_and_times_with_their_offset)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "json", "s.json");
	char *text = test_slurp(path);
	cJSON *root = cJSON_Parse(text);
	ck_assert_ptr_nonnull(root);
	const char *keys[] = {"month", "timezone", "currency", "total_cost", "runs", "jobs",
			      "unplaced", "owned_utilization"};
	for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
		ck_assert_msg(cJSON_HasObjectItem(root, keys[i]), "no %s", keys[i]);
	ck_assert_str_eq(cJSON_GetObjectItem(root, "month")->valuestring, "2026-10");
	cJSON *runs = cJSON_GetObjectItem(root, "runs"), *r;
	ck_assert_int_gt(cJSON_GetArraySize(runs), 3);
	bool summer = false, winter = false;
	double sum = 0;
	cJSON_ArrayForEach(r, runs)
	{
		const char *rk[] = {"job", "route", "resource", "gpu", "gpu_count", "start", "end",
				    "hours", "cost"};
		for (size_t i = 0; i < sizeof rk / sizeof *rk; i++)
			ck_assert_msg(cJSON_HasObjectItem(r, rk[i]), "run without %s", rk[i]);
		const char *start = cJSON_GetObjectItem(r, "start")->valuestring;
		ck_assert_int_eq(strlen(start), 25);
		summer |= strstr(start, "+02:00") != NULL;
		winter |= strstr(start, "+01:00") != NULL;
		sum += cJSON_GetObjectItem(r, "cost")->valuedouble;
	}
	ck_assert(summer && winter); /* October: CEST, then CET after the 25th */
	ck_assert_double_eq_tol(sum, cJSON_GetObjectItem(root, "total_cost")->valuedouble, 0.05);
	cJSON *util = cJSON_GetObjectItem(root, "owned_utilization");
	ck_assert_int_eq(cJSON_GetArraySize(util), 2);
	ck_assert_int_eq(cJSON_GetObjectItem(cJSON_GetArrayItem(util, 0), "hours_available")->valueint,
			 745);
	cJSON_Delete(root);
	free(text);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(csv_reads_back_with_a_csv_parser_row_for_row)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "csv", "s.csv");
	char *json = schedule_to(&f, "json", "s.json");
	char *text = test_slurp(json);
	cJSON *root = cJSON_Parse(text);
	int runs = cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs"));
	char *cmd = xasprintf(
		"/usr/bin/python3 -c 'import csv,sys\n"
		"rows=list(csv.reader(open(sys.argv[1],newline=\"\"),strict=True))\n"
		"assert rows[0][:9]==[\"job\",\"route\",\"resource\",\"gpu\",\"gpu_count\",\"start\",\"end\",\"hours\",\"cost\"]\n"
		"assert all(len(r)==len(rows[0]) for r in rows)\n"
		"assert open(sys.argv[1],\"rb\").read().count(b\"\\r\\n\")==len(rows)\n"
		"print(len(rows)-1, sum(1 for r in rows if r[0]==\"rag, \\\"nightly\\\"\"))' %s",
		path);
	char *out;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	int n = 0, rag = 0;
	ck_assert_int_eq(sscanf(out, "%d %d", &n, &rag), 2);
	ck_assert_int_eq(n, runs);
	ck_assert_int_gt(rag, 0);
	free(out);
	free(cmd);
	cJSON_Delete(root);
	free(text);
	free(json);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(ics_parses_with_python_icalendar_with_unique_uids_and_folded_lines)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "ics", "s.ics");
	char *text = test_slurp(path);
	/* CRLF everywhere, no line over 75 octets */
	size_t len = 0;
	for (const char *p = text; *p; p++) {
		if (*p == '\n') {
			ck_assert(p > text && p[-1] == '\r');
			ck_assert_uint_le(len - 1, 75);
			len = 0;
		} else {
			len++;
		}
	}
	char *cmd = xasprintf(
		"/usr/bin/python3 -c 'import sys,icalendar\n"
		"cal=icalendar.Calendar.from_ical(open(sys.argv[1],\"rb\").read())\n"
		"ev=[c for c in cal.walk(\"VEVENT\")]\n"
		"uids=[str(e[\"UID\"]) for e in ev]\n"
		"assert len(set(uids))==len(uids)\n"
		"for e in ev:\n"
		"  s=e.decoded(\"DTSTART\"); t=e.decoded(\"DTEND\")\n"
		"  assert s.tzinfo is not None and t>s, e\n"
		"  assert e.get(\"DTSTAMP\")\n"
		"print(len(ev))' %s 2>&1",
		path);
	char *out;
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "python3-icalendar rejects the file (apt-get install "
			       "python3-icalendar): %s",
		      out);
	ck_assert_int_gt(atoi(out), 3);
	free(out);
	free(cmd);
	free(text);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(slurm_script_passes_bash_n_and_sets_every_option)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "slurm", "s.sh");
	char *cmd = xasprintf("bash -n %s 2>&1", path), *out;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	free(cmd);
	char *text = test_slurp(path);
	ck_assert_ptr_nonnull(strstr(text, "export TZ='Europe/Amsterdam'"));
	int n = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "sbatch ", 7))
			continue;
		n++;
		int y, mo, d, h, mi, s, days, hh, mm;
		char *b = strstr(line, "--begin=");
		ck_assert_ptr_nonnull(b);
		ck_assert_int_eq(sscanf(b, "--begin=%d-%d-%dT%d:%d:%d", &y, &mo, &d, &h, &mi, &s), 6);
		ck_assert(y == 2026 && mo == 10);
		char *t = strstr(line, "--time=");
		ck_assert_ptr_nonnull(t);
		ck_assert_int_eq(sscanf(t, "--time=%d-%d:%d:", &days, &hh, &mm), 3);
		ck_assert_int_gt(days * 1440 + hh * 60 + mm, 0);
		ck_assert(strstr(line, "--gres=gpu:rtx4090:1 ") || strstr(line, "--gres=gpu:rtx4090:2 "));
		ck_assert_ptr_nonnull(strstr(line, "--job-name="));
		ck_assert_ptr_nonnull(strstr(line, "--wrap='python "));
	}
	ck_assert_int_gt(n, 3);
	free(text);
	free(path);
	free_fx(&f);
}
END_TEST

/* The scalar value under key in mapping node m, or NULL. */
static yaml_node_t *get(yaml_document_t *d, yaml_node_t *m, const char *key)
{
	if (!m || m->type != YAML_MAPPING_NODE)
		return NULL;
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(d, p->key);
		if (k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return yaml_document_get_node(d, p->value);
	}
	return NULL;
}

static const char *str(yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : "";
}

START_TEST(k8s_manifests_parse_with_libyaml_as_batch_v1_cronjobs)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "k8s", "s.yaml");
	FILE *in = fopen(path, "rb");
	ck_assert_ptr_nonnull(in);
	yaml_parser_t parser;
	ck_assert(yaml_parser_initialize(&parser));
	yaml_parser_set_input_file(&parser, in);
	int docs = 0;
	for (;;) {
		yaml_document_t d;
		ck_assert_msg(yaml_parser_load(&parser, &d), "libyaml: %s", parser.problem);
		yaml_node_t *root = yaml_document_get_root_node(&d);
		if (!root) {
			yaml_document_delete(&d);
			break;
		}
		docs++;
		ck_assert_str_eq(str(get(&d, root, "apiVersion")), "batch/v1");
		ck_assert_str_eq(str(get(&d, root, "kind")), "CronJob");
		const char *name = str(get(&d, get(&d, root, "metadata"), "name"));
		ck_assert_int_le(strlen(name), 52);
		ck_assert(strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789-") == strlen(name));
		yaml_node_t *spec = get(&d, root, "spec");
		/* "M H DAYS 10 *": a minute, an hour, days of October. */
		int mi, h, mo;
		char days[128];
		ck_assert_int_eq(sscanf(str(get(&d, spec, "schedule")), "%d %d %127s %d *", &mi, &h,
					days, &mo),
				 4);
		ck_assert_int_eq(mo, 10);
		ck_assert_str_eq(str(get(&d, spec, "timeZone")), "Europe/Amsterdam");
		yaml_node_t *pod =
		    get(&d, get(&d, get(&d, get(&d, spec, "jobTemplate"), "spec"), "template"), "spec");
		ck_assert_str_eq(str(get(&d, get(&d, pod, "nodeSelector"), "nvidia.com/gpu.product")),
				 "NVIDIA-GeForce-RTX-4090");
		yaml_node_t *cs = get(&d, pod, "containers");
		ck_assert(cs && cs->type == YAML_SEQUENCE_NODE);
		yaml_node_t *c = yaml_document_get_node(&d, *cs->data.sequence.items.start);
		ck_assert(strlen(str(get(&d, c, "image"))) > 0);
		yaml_node_t *cmd = get(&d, c, "command");
		ck_assert(cmd && cmd->type == YAML_SEQUENCE_NODE);
		const char *gpus = str(get(&d, get(&d, get(&d, c, "resources"), "limits"),
					   "nvidia.com/gpu"));
		ck_assert(!strcmp(gpus, "1") || !strcmp(gpus, "2"));
		yaml_document_delete(&d);
	}
	ck_assert_int_gt(docs, 3);
	yaml_parser_delete(&parser);
	fclose(in);
	free(path);
	free_fx(&f);
}
END_TEST

/* Job names that collide once slugged, or that YAML 1.1 (kubectl's)
 * reads as a boolean or a number. */
static const char k8s_names_yaml[] =
	"version: 1\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 2}\n"
	"jobs:\n"
	"  - {name: Job A, model: llama-3.1-8b, hours_per_month: 20, run: {image: \"x:1\"}}\n"
	"  - {name: job-a, model: llama-3.1-8b, hours_per_month: 20, run: {image: \"x:1\"}}\n"
	"  - {name: \"yes\", model: llama-3.1-8b, hours_per_month: 10, run: {image: \"x:1\"}}\n"
	"  - {name: \"123\", model: llama-3.1-8b, hours_per_month: 10, run: {image: \"x:1\"}}\n";

START_TEST(k8s_cronjob_names_are_unique_dns_1123_strings_under_a_yaml_1_1_parser)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml", k8s_names_yaml);
	char *path = schedule_to(&f, "k8s", "names.yaml");
	/* PyYAML (python3-yaml) resolves types as YAML 1.1 does. */
	char *cmd = xasprintf(
		"/usr/bin/python3 -c 'import re,sys,yaml\n"
		"docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]\n"
		"names = [d[\"metadata\"][\"name\"] for d in docs]\n"
		"jobs = set(d[\"metadata\"][\"labels\"][\"planner.dev/job\"] for d in docs)\n"
		"dns = re.compile(r\"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$\")\n"
		"for d in docs:\n"
		"    j = d[\"spec\"][\"jobTemplate\"][\"spec\"]\n"
		"    c = j[\"template\"][\"spec\"][\"containers\"][0]\n"
		"    for v in (d[\"metadata\"][\"name\"], c[\"name\"],\n"
		"              d[\"metadata\"][\"labels\"][\"planner.dev/job\"]):\n"
		"        assert isinstance(v, str) and dns.match(v) and len(v) <= 52, repr(v)\n"
		"    assert j[\"backoffLimit\"] == 0\n"
		"assert len(set(names)) == len(names), names\n"
		"assert jobs == {\"job-a\", \"job-a-2\", \"yes\", \"123\"}, jobs\n"
		"' '%s' 2>&1",
		path);
	char *out = NULL;
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "the CronJobs do not hold under PyYAML: %s", out ? out : "");
	free(out);
	free(cmd);
	free(path);
	free_fx(&f);
}
END_TEST

/* Two jobs: one on both GPUs with a vLLM server command, one on a host
 * directory of weights, pyxis for Slurm. */
static const char k8s_run_yaml[] =
	"version: 1\n"
	"timezone: Europe/Amsterdam\n"
	"owned:\n"
	"  - {gpu: RTX 4090, count: 2}\n"
	"jobs:\n"
	"  - name: big\n"
	"    model: qwen2.5-14b\n"
	"    precision: bf16\n"
	"    hours_per_month: 16\n"
	"    data: restricted\n"
	"    schedule: {window: \"08:00-12:00\", days: [mon, wed]}\n"
	"    run: {command: \"vllm serve Qwen/Qwen2.5-14B-Instruct\", image: \"vllm/vllm-openai:v0.6\",\n"
	"          pyxis: true}\n"
	"  - name: small\n"
	"    model: llama-3.1-8b\n"
	"    precision: q4_k_m\n"
	"    hours_per_month: 6\n"
	"    data: restricted\n"
	"    schedule: {window: \"20:00-22:00\", days: [tue]}\n"
	"    run: {command: \"python rag.py\", image: \"x:1\", weights: /data/hf}\n";

/* tests/tools/k8s_validate.py on path, accepting the kinds named (space-
 * separated); its exit status, its output in *out. */
static int k8s_validate_kinds(const char *path, const char *kinds, char **out)
{
	char *cmd = xasprintf("/usr/bin/python3 tests/tools/k8s_validate.py '%s' %s 2>&1", path,
			      kinds);
	int rc = test_sh(cmd, out);
	free(cmd);
	return rc;
}

static int k8s_validate(const char *path, char **out)
{
	return k8s_validate_kinds(path, "CronJob", out);
}

START_TEST(k8s_manifests_hold_the_kubernetes_openapi_types)
{
	struct fx f;
	setup_fx(&f);
	char *path = schedule_to(&f, "k8s", "s.yaml"), *out = NULL;
	int rc = k8s_validate(path, &out);
	ck_assert_msg(rc == 0, "the Kubernetes types reject the export (apt-get install "
			       "python3-kubernetes): %s", out ? out : "");
	free(out);
	/* The validator fails on a misspelt field. */
	char *bad = xasprintf("%s/bad.yaml", f.dir);
	char *cmd = xasprintf("sed 's/concurrencyPolicy/concurencyPolicy/' '%s' > '%s'", path, bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(k8s_validate(bad, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "unknown field 'concurencyPolicy'"));
	free(out);
	free(cmd);
	free(bad);
	free(path);
	free_fx(&f);
}
END_TEST

/* Runs a Python check with Debian's python3 (python3-yaml and the like)
 * on file a1 and, when not NULL, a2 (sys.argv[1] and [2]); the test fails
 * with its output when an assertion does. script is the program as one
 * shell word: no single quote in it. */
static void py_check(const char *script, const char *a1, const char *a2)
{
	char *cmd = a2 ? xasprintf("/usr/bin/python3 -c '%s' '%s' '%s' 2>&1", script, a1, a2)
		       : xasprintf("/usr/bin/python3 -c '%s' '%s' 2>&1", script, a1);
	char *out = NULL;
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "%s", out ? out : "");
	free(out);
	free(cmd);
}

START_TEST(k8s_jobs_get_requests_shm_weights_and_the_tensor_parallel_flag)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml", k8s_run_yaml);
	char *path = schedule_to(&f, "k8s", "run.yaml"), *out = NULL;
	ck_assert_int_eq(k8s_validate(path, &out), 0);
	free(out);
	py_check("import sys,yaml\n"
		"docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]\n"
		"seen = set()\n"
		"for d in docs:\n"
		"    job = d[\"metadata\"][\"labels\"][\"planner.dev/job\"]\n"
		"    seen.add(job)\n"
		"    p = d[\"spec\"][\"jobTemplate\"][\"spec\"][\"template\"][\"spec\"]\n"
		"    c = p[\"containers\"][0]\n"
		"    n = int(c[\"resources\"][\"limits\"][\"nvidia.com/gpu\"])\n"
		"    assert c[\"resources\"][\"requests\"] == {\"cpu\": str(4 * n),\n"
		"        \"memory\": \"%dGi\" % (24 * n)}, c[\"resources\"]\n"
		"    vols = {v[\"name\"]: v for v in p[\"volumes\"]}\n"
		"    assert vols[\"dshm\"][\"emptyDir\"] == {\"medium\": \"Memory\",\n"
		"        \"sizeLimit\": \"%dGi\" % (12 * n)}, vols\n"
		"    mounts = {m[\"name\"]: m[\"mountPath\"] for m in c[\"volumeMounts\"]}\n"
		"    assert mounts == {\"dshm\": \"/dev/shm\",\n"
		"        \"weights\": \"/root/.cache/huggingface\"}, mounts\n"
		"    cmd = c[\"command\"][2]\n"
		"    if job == \"big\":\n"
		"        assert n == 2, n\n"
		"        assert cmd.endswith(\" --tensor-parallel-size 2\"), cmd\n"
		"        assert vols[\"weights\"][\"persistentVolumeClaim\"] == {\n"
		"            \"claimName\": \"model-weights\"}, vols\n"
		"    else:\n"
		"        assert n == 1 and cmd == \"python rag.py\", cmd\n"
		"        assert vols[\"weights\"][\"hostPath\"][\"path\"] == \"/data/hf\", vols\n"
		"assert seen == {\"big\", \"small\"}, seen\n",
		 path, NULL);
	free(path);
	free_fx(&f);
}
END_TEST

/* A job whose tokens need three copies of one GPU in its window (about
 * 41 h of one 4090's work in a window of 4 h x 31/7 = 17.7 h a month):
 * one Job of three pods (parallelism 3, indexed), each with its own GPU,
 * not one pod with three. */
START_TEST(k8s_replicas_are_pods_with_their_own_gpus)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml",
			    "version: 1\nowned:\n  - {gpu: RTX 4090, count: 4}\njobs:\n"
			    "  - name: batch\n    model: llama-3.1-8b\n    precision: q4_k_m\n"
			    "    tokens_per_month: {input: 2M, output: 20M}\n"
			    "    data: restricted\n"
			    "    schedule: {window: \"01:00-05:00\", days: [sat]}\n"
			    "    run: {command: \"vllm serve x\", image: \"x:1\"}\n");
	char *path = schedule_to(&f, "k8s", "rep.yaml"), *out = NULL;
	ck_assert_int_eq(k8s_validate(path, &out), 0);
	free(out);
	py_check("import sys,yaml\n"
		"docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]\n"
		"assert docs\n"
		"for d in docs:\n"
		"    j = d[\"spec\"][\"jobTemplate\"][\"spec\"]\n"
		"    c = j[\"template\"][\"spec\"][\"containers\"][0]\n"
		"    assert j[\"parallelism\"] == j[\"completions\"] == 3, j\n"
		"    assert j[\"completionMode\"] == \"Indexed\", j\n"
		"    assert c[\"resources\"][\"limits\"][\"nvidia.com/gpu\"] == \"1\", c\n"
		"    assert c[\"command\"][2] == \"vllm serve x\", c\n",
		 path, NULL);
	free(path);
	free_fx(&f);
}
END_TEST

/* Every owned run of the JSON schedule is one firing of one CronJob: its
 * local start's day is among the schedule's days, at its hour and minute. */
START_TEST(k8s_cronjobs_fire_once_on_each_run_start)
{
	struct fx f;
	setup_fx(&f);
	char *k8s = schedule_to(&f, "k8s", "s.yaml"), *json = schedule_to(&f, "json", "s.json");
	char *cmd = xasprintf(
		"/usr/bin/python3 -c 'import json,sys,yaml\n"
		"docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]\n"
		"fires = []\n"
		"for d in docs:\n"
		"    mi, h, days, mo, _ = d[\"spec\"][\"schedule\"].split()\n"
		"    for day in days.split(\",\"):\n"
		"        fires.append(\"2026-%%02d-%%02dT%%02d:%%02d\" %% (int(mo), int(day), int(h), int(mi)))\n"
		"    n = len(d[\"metadata\"][\"annotations\"][\"planner.dev/starts\"].split())\n"
		"    assert n == len(days.split(\",\")), d[\"metadata\"]\n"
		"runs = json.load(open(sys.argv[2]))[\"runs\"]\n"
		"own = sorted(r[\"start\"][:16] for r in runs if r[\"route\"] == \"owned\")\n"
		"assert sorted(fires) == own, (sorted(fires), own)\n"
		"' '%s' '%s' 2>&1",
		k8s, json);
	char *out = NULL;
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "%s", out ? out : "");
	free(out);
	free(cmd);
	free(json);
	free(k8s);
	free_fx(&f);
}
END_TEST

/* Serving jobs are services, not runs: the always-on fleet is one
 * Deployment of its replicas (each with one replica's GPUs and the
 * tensor-parallel flag) behind a Service on vLLM's port; the window
 * service adds the CronJob pair that scales it up at 08:00 and to zero at
 * 18:00 on weekdays, with the scaler's ServiceAccount, Role and
 * RoleBinding. The replicas and GPUs are checked against the schedule's
 * JSON runs, the objects against the Kubernetes types. */
START_TEST(k8s_serving_jobs_are_deployments_and_services_a_window_scales_to_zero)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = xasprintf("tests/fixtures/jobs/k8s-serving.yaml");
	char *path = schedule_to(&f, "k8s", "serve.yaml"), *json = schedule_to(&f, "json", "s.json");
	char *out = NULL;
	int rc = k8s_validate_kinds(path, "Deployment Service ServiceAccount Role RoleBinding CronJob",
				    &out);
	ck_assert_msg(rc == 0, "the Kubernetes types reject the export: %s", out ? out : "");
	free(out);
	py_check(
	    "import collections,json,sys,yaml\n"
	    "text = open(sys.argv[1]).read()\n"
	    "docs = [d for d in yaml.safe_load_all(text) if d]\n"
	    "kinds = collections.Counter(d[\"kind\"] for d in docs)\n"
	    "assert kinds == {\"Deployment\": 2, \"Service\": 2, \"ServiceAccount\": 1, \"Role\": "
	    "1,\n"
	    "    \"RoleBinding\": 1, \"CronJob\": 2}, kinds\n"
	    "assert all(d[\"metadata\"][\"namespace\"] == \"inference\" for d in docs)\n"
	    "by = {(d[\"kind\"], d[\"metadata\"][\"name\"]): d for d in docs}\n"
	    "runs = json.load(open(sys.argv[2]))[\"runs\"]\n"
	    "port = {\"fleet\": 8000, \"staff-assistant\": 8080}\n"
	    "for job in port:\n"
	    "    dep = by[(\"Deployment\", job)][\"spec\"]\n"
	    "    pod = dep[\"template\"][\"spec\"]\n"
	    "    c = pod[\"containers\"][0]\n"
	    "    n = int(c[\"resources\"][\"limits\"][\"nvidia.com/gpu\"])\n"
	    "    gpus = {r[\"gpu_count\"] for r in runs if r[\"job\"] == job and r[\"route\"] == "
	    "\"owned\"}\n"
	    "    assert gpus == {dep[\"replicas\"] * n}, (job, gpus, dep[\"replicas\"], n)\n"
	    "    assert pod[\"restartPolicy\"] == \"Always\" and pod[\"nodeSelector\"] == {\n"
	    "        \"nvidia.com/gpu.product\": \"NVIDIA-GeForce-RTX-4090\", \"pool\": \"gpu\"}, "
	    "pod\n"
	    "    assert c[\"ports\"] == [{\"name\": \"http\", \"containerPort\": port[job]}], c\n"
	    "    assert c[\"readinessProbe\"][\"httpGet\"] == {\"path\": \"/health\", \"port\": "
	    "\"http\"}\n"
	    "    vols = {v[\"name\"]: v for v in pod[\"volumes\"]}\n"
	    "    assert vols[\"dshm\"][\"emptyDir\"][\"medium\"] == \"Memory\", vols\n"
	    "    sel = dep[\"selector\"][\"matchLabels\"]\n"
	    "    assert sel.items() <= dep[\"template\"][\"metadata\"][\"labels\"].items()\n"
	    "    svc = by[(\"Service\", job)][\"spec\"]\n"
	    "    assert svc[\"selector\"] == sel, svc\n"
	    "    assert svc[\"ports\"] == [{\"name\": \"http\", \"port\": port[job],\n"
	    "        \"targetPort\": \"http\"}], svc\n"
	    "fleet = by[(\"Deployment\", \"fleet\")][\"spec\"]\n"
	    "c = fleet[\"template\"][\"spec\"][\"containers\"][0]\n"
	    "assert fleet[\"replicas\"] == 3, fleet[\"replicas\"]\n"
	    "assert c[\"resources\"][\"limits\"][\"nvidia.com/gpu\"] == \"2\", c\n"
	    "assert c[\"command\"][2].endswith(\" --tensor-parallel-size 2\"), c\n"
	    "staff = by[(\"Deployment\", \"staff-assistant\")][\"spec\"][\"replicas\"]\n"
	    "up = by[(\"CronJob\", \"staff-assistant-up\")][\"spec\"]\n"
	    "down = by[(\"CronJob\", \"staff-assistant-down\")][\"spec\"]\n"
	    "assert up[\"schedule\"] == \"0 8 * * 1,2,3,4,5\", up\n"
	    "assert down[\"schedule\"] == \"0 18 * * 1,2,3,4,5\", down\n"
	    "sa = \"staff-assistant-scaler\"\n"
	    "for cj, n in ((up, staff), (down, 0)):\n"
	    "    assert cj[\"timeZone\"] == \"Europe/Berlin\", cj\n"
	    "    p = cj[\"jobTemplate\"][\"spec\"][\"template\"][\"spec\"]\n"
	    "    assert p[\"serviceAccountName\"] == sa, p\n"
	    "    assert p[\"containers\"][0][\"command\"] == [\"/bin/kubectl\"], p\n"
	    "    assert p[\"containers\"][0][\"args\"] == [\"scale\", "
	    "\"deployment/staff-assistant\",\n"
	    "        \"--replicas=%d\" % n], p\n"
	    "rules = by[(\"Role\", sa)][\"rules\"]\n"
	    "assert {\"apiGroups\": [\"apps\"], \"resources\": [\"deployments/scale\"],\n"
	    "    \"resourceNames\": [\"staff-assistant\"], \"verbs\": [\"get\", \"patch\", "
	    "\"update\"]} in rules\n"
	    "rb = by[(\"RoleBinding\", sa)]\n"
	    "assert rb[\"roleRef\"][\"name\"] == sa and rb[\"subjects\"][0][\"name\"] == sa, rb\n"
	    "note = text.index(\"--host 0.0.0.0\")\n"
	    "assert note < text.index(\"llama-server -m\"), note\n",
	    path, json);
	free(json);
	free(path);
	free_fx(&f);
}
END_TEST

/* A window across midnight scales down the next morning: Friday's and
 * Sunday's 22:00-06:00 end on Saturday and Monday. SGLang's command
 * binds 0.0.0.0 itself, so no note; its port is 30000. */
START_TEST(k8s_window_across_midnight_scales_down_the_next_day)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml",
			    "version: 1\nowned:\n  - {gpu: RTX 4090, count: 2}\njobs:\n"
			    "  - name: night\n    model: llama-3.1-8b\n    precision: q4_k_m\n"
			    "    serving: window\n    tokens_per_month: {input: 10M, output: 2M}\n"
			    "    data: restricted\n"
			    "    schedule: {window: \"22:00-06:00\", days: [fri, sun]}\n"
			    "    run: {command: \"python -m sglang.launch_server --model-path x "
			    "--host 0.0.0.0\", image: \"lmsysorg/sglang:v0.4\"}\n");
	char *path = schedule_to(&f, "k8s", "night.yaml");
	py_check("import sys,yaml\n"
		"text = open(sys.argv[1]).read()\n"
		"by = {d[\"kind\"] + d[\"metadata\"][\"name\"]: d for d in yaml.safe_load_all(text) if d}\n"
		"assert by[\"CronJobnight-up\"][\"spec\"][\"schedule\"] == \"0 22 * * 0,5\", by\n"
		"assert by[\"CronJobnight-down\"][\"spec\"][\"schedule\"] == \"0 6 * * 1,6\", by\n"
		"c = by[\"Deploymentnight\"][\"spec\"][\"template\"][\"spec\"][\"containers\"][0]\n"
		"assert c[\"ports\"][0][\"containerPort\"] == 30000, c\n"
		"assert \"binds 127.0.0.1\" not in text\n",
		 path, NULL);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(slurm_runs_the_image_through_pyxis_when_asked)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml", k8s_run_yaml);
	char *path = schedule_to(&f, "slurm", "run.sh");
	char *text = test_slurp(path);
	int big = 0, small = 0;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (strncmp(line, "sbatch ", 7))
			continue;
		if (strstr(line, "--job-name='big'")) {
			big++;
			ck_assert_ptr_nonnull(strstr(
			    line, " --wrap='srun --container-image='\\''vllm/vllm-openai:v0.6'\\'' sh -c "
				  "'\\''vllm serve Qwen/Qwen2.5-14B-Instruct'\\'''"));
		} else {
			small++;
			ck_assert_ptr_null(strstr(line, "container-image"));
			ck_assert_ptr_nonnull(strstr(line, " --wrap='python rag.py'"));
		}
	}
	ck_assert(big > 0 && small > 0);
	free(text);
	char *cmd = xasprintf("bash -n '%s' 2>&1", path), *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	free(cmd);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(run_weights_must_be_a_claim_or_an_absolute_path)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "spec.yaml",
			    "version: 1\nowned:\n  - {gpu: RTX 4090, count: 1}\njobs:\n"
			    "  - {name: a, model: llama-3.1-8b, hours_per_month: 5, "
			    "run: {image: \"x:1\", weights: data/hf}}\n");
	const char *argv[] = {"schedule", f.spec, "--format", "k8s", "--db", f.db, NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	ck_assert_msg(strstr(err, "weights 'data/hf' in run of job 'a' is neither pvc:NAME nor an "
				  "absolute path"),
		      "%s", err);
	free(err);
	free_fx(&f);
}
END_TEST

START_TEST(the_table_fits_80_columns_and_prints_a_grid_shared_by_two_gpus_once)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL;
	/* contract-review runs on both RTX 4090s in step: two equal grids. */
	const char *argv[] = {"schedule", "jobs/monthly.yaml", "--db", db, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	int widest = 0, grids = 0;
	for (char *p = out; *p;) {
		char *end = p + strcspn(p, "\n");
		if ((int)(end - p) > widest)
			widest = (int)(end - p);
		grids += !strncmp(p, "          0     6     12    18    24", 36);
		p = *end ? end + 1 : end;
	}
	ck_assert_msg(widest <= 80, "a line is %d columns:\n%s", widest, out);
	ck_assert_int_eq(grids, 1);
	ck_assert_ptr_nonnull(strstr(out, "RTX 4090 #2  (120 of 744 h used): the same hours as "
	                                  "RTX 4090 #1 above"));
	/* Nothing is cut: every offer's name is there whole. */
	ck_assert_ptr_nonnull(strstr(out, "openrouter meta-llama/llama-3.1-8b-instruct\n"));
	ck_assert_ptr_nonnull(strstr(out, "seeweb ECS8GPU10\n"));
	free(out);
	char *rm = xasprintf("rm -rf '%s'", dir);
	ck_assert_int_eq(system(rm), 0);
	free(rm);
	free(db);
	free(dir);
}
END_TEST

START_TEST(a_month_with_no_runs_writes_every_format)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	/* The one job fits no GPU on hand and may not leave it: no runs. */
	f.spec = test_write(f.dir, "spec.yaml",
	                    "version: 1\nowned:\n  - {gpu: RTX 4090, count: 1}\njobs:\n"
	                    "  - {name: big, model: llama-3.1-405b, hours_per_month: 10, "
	                    "data: restricted, run: {image: \"x:1\", command: \"true\"}}\n");
	for (size_t i = 0; export_formats[i]; i++) {
		if (!(export_formats[i]->applies & EXPORT_SCHEDULE))
			continue;
		char *path = schedule_to(&f, export_formats[i]->name, "empty.out");
		free(path);
	}
	char *path = schedule_to(&f, "json", "empty.json");
	char *text = test_slurp(path);
	cJSON *root = cJSON_Parse(text);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")), 0);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "unplaced")), 1);
	cJSON_Delete(root);
	free(text);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(bad_options_are_usage_errors)
{
	const char *a1[] = {"schedule", "jobs/monthly.yaml", "--format", "xml", NULL};
	const char *a2[] = {"schedule", "jobs/monthly.yaml", "--month", "2026-13", NULL};
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(a1, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "k8s, skypilot or dstack"));
	free(err);
	ck_assert_int_eq(test_run_planner(a2, NULL, NULL, &err), 2);
	free(err);
	/* strtol would read these as March. */
	const char *months[] = {"2026-+3", "2026- 3", "+026-03", "2026-3 "};
	for (size_t i = 0; i < sizeof months / sizeof *months; i++) {
		const char *a3[] = {"schedule", "jobs/monthly.yaml", "--month", months[i], NULL};
		ck_assert_msg(test_run_planner(a3, NULL, NULL, &err) == 2, "--month '%s' accepted",
		              months[i]);
		free(err);
	}
}
END_TEST

START_TEST(the_format_list_drives_lookup_and_help)
{
	ck_assert_ptr_eq(export_format_find("k8s", EXPORT_SCHEDULE), &export_format_k8s);
	ck_assert_ptr_null(export_format_find("k8s", EXPORT_DATA));
	ck_assert_ptr_eq(export_format_find("csv", EXPORT_DATA), &export_format_csv);
	ck_assert_ptr_null(export_format_find("xml", EXPORT_DATA | EXPORT_SCHEDULE));
	char buf[512];
	ck_assert_str_eq(export_format_names(EXPORT_DATA, ", ", " or ", false, buf, sizeof buf),
	                 "table, json or csv");
	ck_assert_str_eq(export_format_names(EXPORT_SCHEDULE, "|", "|", false, buf, sizeof buf),
	                 "table|json|csv|ics|slurm|k8s|skypilot|dstack");
	ck_assert_str_eq(
	    export_format_help(EXPORT_SCHEDULE, buf, sizeof buf),
	    "  --format F       table (default), json, csv, ics (calendar), slurm (sbatch\n"
	    "                   script, owned runs), k8s (batch/v1 CronJobs, owned runs),\n"
	    "                   skypilot (SkyPilot tasks, rented runs) or dstack (dstack\n"
	    "                   tasks, rented runs)\n");
	/* Cut to fit, never past the buffer. */
	ck_assert_str_eq(export_format_names(EXPORT_DATA, ", ", " or ", false, buf, 6), "table");
	for (size_t i = 0; export_formats[i]; i++) {
		const struct export_format *ef = export_formats[i];
		ck_assert_msg(ef->applies != 0, "%s applies nowhere", ef->name);
		ck_assert_msg(!(ef->applies & EXPORT_SCHEDULE) || ef->write, "%s has no writer",
		              ef->name);
		ck_assert_ptr_eq(export_format_find(ef->name, ef->applies), ef);
	}
}
END_TEST

/* Whether /dev/full is the device that fails every write (a container
 * may lack it); says so and skips when not. */
static bool have_dev_full(const char *test)
{
	struct stat st;
	if (stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode))
		return true;
	printf("export: %s skipped: /dev/full is not a character device here\n", test);
	return false;
}

START_TEST(a_failed_write_exits_5_in_every_format)
{
	if (!have_dev_full("a_failed_write_exits_5_in_every_format"))
		return;
	struct fx f;
	setup_fx(&f);
	const char *bin = getenv("PLANNER_BIN") ? getenv("PLANNER_BIN") : "build/planner";
	/* Standard output on a full disk: main's last fclose finds it. */
	char *cmd = xasprintf("'%s' --help >/dev/full 2>/dev/null", bin);
	ck_assert_int_eq(test_sh(cmd, NULL), PLANNER_ESYS);
	free(cmd);
	for (size_t i = 0; export_formats[i]; i++) {
		const char *name = export_formats[i]->name;
		if (!(export_formats[i]->applies & EXPORT_SCHEDULE))
			continue;
		cmd = xasprintf("'%s' schedule '%s' --month 2026-10 --format %s --db '%s' --quiet "
		                ">/dev/full 2>/dev/null",
		                bin, f.spec, name, f.db);
		ck_assert_msg(test_sh(cmd, NULL) == PLANNER_ESYS, "%s to a full stdout", name);
		free(cmd);
		/* -o names a device: refused before anything is written, and
		 * the device node is left alone (a_failed_write_to_o_... covers
		 * a full disk under -o). */
		const char *argv[] = {"schedule", f.spec, "--month", "2026-10",
		                      "--format", name,   "-o",      "/dev/full",
		                      "--db",     f.db,   "--quiet", NULL};
		char *err = NULL;
		int rc = test_run_planner(argv, NULL, NULL, &err);
		ck_assert_msg(rc == PLANNER_EINPUT, "%s -o /dev/full exits %d: %s", name, rc, err);
		ck_assert_msg(strstr(err, "not a regular file (a device)") != NULL,
		              "%s: no message: %s", name, err);
		free(err);
		struct stat st;
		ck_assert(stat("/dev/full", &st) == 0 && S_ISCHR(st.st_mode));
	}
	free_fx(&f);
}
END_TEST

/* A writer that puts out 1 MiB and then fails, as a full disk would. */
static int write_then_fail(FILE *f, void *arg)
{
	(void)arg;
	for (int i = 0; i < 1024 * 16; i++)
		fputs("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n", f);
	return PLANNER_ESYS;
}

static int write_hello(FILE *f, void *arg)
{
	fputs((const char *)arg, f);
	return PLANNER_OK;
}

/* How many entries dir holds besides . and .. */
static int entries(const char *dir)
{
	char *cmd = xasprintf("ls -A '%s' | wc -l", dir), *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	int n = atoi(out);
	free(cmd);
	free(out);
	return n;
}

START_TEST(a_failed_write_to_o_leaves_the_existing_file_whole_and_no_temporary)
{
	char *dir = test_tmpdir();
	char *path = test_write(dir, "report.html", "precious\n");
	ck_assert_int_eq(chmod(path, 0640), 0);
	ck_assert_int_eq(cli_write_file(path, write_then_fail, NULL), PLANNER_ESYS);
	char *kept = test_slurp(path);
	ck_assert_str_eq(kept, "precious\n");
	ck_assert_int_eq(entries(dir), 1);
	/* A good write replaces it whole and keeps its permissions. */
	ck_assert_int_eq(cli_write_file(path, write_hello, "new\n"), PLANNER_OK);
	char *now = test_slurp(path);
	ck_assert_str_eq(now, "new\n");
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
	ck_assert_int_eq(entries(dir), 1);
	/* A new name that fails is not left behind half written. */
	char *fresh = xasprintf("%s/new.csv", dir);
	ck_assert_int_eq(cli_write_file(fresh, write_then_fail, NULL), PLANNER_ESYS);
	ck_assert_int_ne(access(fresh, F_OK), 0);
	ck_assert_int_eq(entries(dir), 1);
	free(fresh);
	free(now);
	free(kept);
	free(path);
	free(dir);
}
END_TEST

START_TEST(o_refuses_a_fifo_or_directory_at_once_and_leaves_it_alone)
{
	char *dir = test_tmpdir();
	char *fifo = xasprintf("%s/pipe", dir);
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	/* Opening a FIFO with no reader would block for ever: refused first. */
	ck_assert_int_eq(cli_write_file(fifo, write_hello, "x"), PLANNER_EINPUT);
	ck_assert_int_eq(cli_write_file(dir, write_hello, "x"), PLANNER_EINPUT);
	struct stat st;
	ck_assert(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
	ck_assert_int_eq(entries(dir), 1);
	/* Through a symbolic link the file it points to is replaced, the
	 * link kept. */
	char *file = test_write(dir, "target.txt", "old\n");
	char *link = xasprintf("%s/link", dir);
	ck_assert_int_eq(symlink("target.txt", link), 0);
	ck_assert_int_eq(cli_write_file(link, write_hello, "via link\n"), PLANNER_OK);
	char *got = test_slurp(file);
	ck_assert_str_eq(got, "via link\n");
	ck_assert(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
	free(got);
	free(link);
	free(file);
	free(fifo);
	free(dir);
}
END_TEST

/* Rented runs: a spec with no owned GPUs, aws and a quote from a provider
 * SkyPilot does not know. */
static const char cloud_yaml[] =
	"version: 1\n"
	"currency: USD\n"
	"timezone: Europe/Amsterdam\n"
	"providers: [aws, acme]\n"
	"quotes:\n"
	"  - {provider: acme, gpu: H100 SXM, count: 8, price_per_hour: 9.0}\n"
	"jobs:\n"
	"  - name: \"evals, \\\"nightly\\\"\"\n"
	"    model: qwen2.5-7b\n"
	"    precision: bf16\n"
	"    hours_per_month: 20\n"
	"    schedule: {window: \"22:00-06:00\", days: [fri]}\n"
	"    run: {command: \"python evals.py --tag 'a \\\"b\\\"'\", image: \"vllm/vllm-openai:latest\"}\n"
	"  - name: big\n"
	"    model: llama-3.1-70b\n"
	"    precision: bf16\n"
	"    hours_per_month: 10\n";

/* tests/tools/schema_validate.py with schema on path; its exit status,
 * its output in *out. */
static int schema_validate(const char *schema, const char *path, char **out)
{
	char *cmd = xasprintf("/usr/bin/python3 tests/tools/schema_validate.py "
			      "tests/fixtures/schemas/%s '%s' 2>&1",
			      schema, path);
	int rc = test_sh(cmd, out);
	free(cmd);
	return rc;
}

START_TEST(skypilot_tasks_hold_skypilots_task_schema_and_fail_on_a_misspelt_field)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "cloud.yaml", cloud_yaml);
	char *path = schedule_to(&f, "skypilot", "sky.yaml"), *out = NULL;
	int rc = schema_validate("skypilot-task.json", path, &out);
	ck_assert_msg(rc == 0, "SkyPilot's schema rejects the export (apt-get install "
			       "python3-jsonschema python3-yaml): %s", out ? out : "");
	ck_assert_ptr_nonnull(strstr(out, "4 document(s), 0 invalid"));
	free(out);
	char *bad = xasprintf("%s/bad.yaml", f.dir);
	char *cmd = xasprintf("sed 's/use_spot/use_spott/' '%s' > '%s'", path, bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(schema_validate("skypilot-task.json", bad, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "'use_spott' was unexpected"));
	free(out);
	free(cmd);
	free(bad);
	free(path);
	free_fx(&f);
}
END_TEST

/* PyYAML reads each task back; split as the header says, every file is
 * one task, as `sky launch FILE` needs (several documents would be a
 * pipeline). */
START_TEST(skypilot_tasks_read_back_one_per_rented_run_and_split_into_single_tasks)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "cloud.yaml", cloud_yaml);
	char *path = schedule_to(&f, "skypilot", "sky.yaml"), *out = NULL;
	char *cmd = xasprintf(
		"cd '%s' && csplit -s -z -f task- -b '%%02d.yaml' sky.yaml '/^---$/' '{*}' && "
		"/usr/bin/python3 -c '\n"
		"import glob, yaml\n"
		"names = []\n"
		"for p in sorted(glob.glob(\"task-*.yaml\"))[1:]:\n"
		"    docs = [d for d in yaml.safe_load_all(open(p)) if d is not None]\n"
		"    assert len(docs) == 1, p\n"
		"    t = docs[0]; r = t[\"resources\"]; names.append(t[\"name\"])\n"
		"    if t[\"name\"].startswith(\"evals\"):\n"
		"        assert r[\"cloud\"] == \"aws\" and r[\"region\"] == \"us-east-1\", r\n"
		"        assert r[\"accelerators\"] == \"L4:1\" and r[\"use_spot\"] is False, r\n"
		"        assert r[\"image_id\"] == \"docker:vllm/vllm-openai:latest\", r\n"
		"        assert t[\"run\"] == \"python evals.py --tag %sa \\\"b\\\"%s\", t\n"
		"    else:\n"
		"        assert \"cloud\" not in r and r[\"accelerators\"] == \"H100:8\", r\n"
		"        assert \"run\" not in t, t\n"
		"assert len(names) == 4 and len(set(names)) == 4, names\n"
		"print(\"ok\", names)\n"
		"' 2>&1",
		f.dir, "'\\''", "'\\''");
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "%s", out ? out : "");
	free(out);
	free(cmd);
	free(path);
	free_fx(&f);
}
END_TEST

/* A rented training job past one node (4 joined p5.48xlarge, 32 H100s):
 * SkyPilot's num_nodes and dstack's nodes are the nodes, each node's GPUs
 * in resources, and run.command is torchrun on each node with the rank
 * and master address the tool sets; both hold their schema extracts. */
static const char multinode_yaml[] =
	"version: 1\n"
	"timezone: Europe/London\n"
	"jobs:\n"
	"  - {name: ft70b, model: llama-3.1-70b, task: finetune-full, context: 4096, batch: 32, "
	"parallel: {dp: 32}, hours_per_month: 100, "
	"run: {command: \"python train.py --config ft70b.yaml\"}}\n";

START_TEST(a_rented_job_over_four_nodes_is_num_nodes_and_nodes_with_torchrun)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "multinode.yaml", multinode_yaml);
	char *sky = schedule_to(&f, "skypilot", "sky.yaml"), *out = NULL;
	int rc = schema_validate("skypilot-task.json", sky, &out);
	ck_assert_msg(rc == 0 && strstr(out, "1 document(s), 0 invalid"), "%s", out ? out : "");
	free(out);
	char *ds = schedule_to(&f, "dstack", "d.yml");
	rc = schema_validate("dstack-task.json", ds, &out);
	ck_assert_msg(rc == 0 && strstr(out, "1 document(s), 0 invalid"), "%s", out ? out : "");
	free(out);
	py_check("\n"
	         "import yaml, sys\n"
	         "t = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d][0]\n"
	         "assert t[\"num_nodes\"] == 4, t\n"
	         "assert t[\"resources\"][\"accelerators\"] == \"H100:8\", t\n"
	         "assert t[\"resources\"][\"cloud\"] == \"aws\", t\n"
	         "assert \"torchrun --nnodes=\\\"$SKYPILOT_NUM_NODES\\\"\" in t[\"run\"], t\n"
	         "assert \"--node-rank=\\\"$SKYPILOT_NODE_RANK\\\"\" in t[\"run\"], t\n"
	         "assert t[\"run\"].endswith(\" train.py --config ft70b.yaml\"), t\n"
	         "d = [d for d in yaml.safe_load_all(open(sys.argv[2])) if d][0]\n"
	         "assert d[\"nodes\"] == 4 and d[\"resources\"][\"gpu\"] == \"H100:8\", d\n"
	         "c = d[\"commands\"][0]\n"
	         "assert c.startswith(\"torchrun --nnodes=\\\"$DSTACK_NODES_NUM\\\"\"), c\n"
	         "assert \"--master-addr=\\\"$DSTACK_MASTER_NODE_IP\\\"\" in c, c\n"
	         "print(\"ok\")\n",
	         sky, ds);
	free(ds);
	free(sky);
	free_fx(&f);
}
END_TEST

/* tests/tools/crd_validate.py: the documents of the CRD extract's kind in
 * path against it; its exit status, its output in *out. */
static int crd_validate(const char *extract, const char *path, char **out)
{
	char *cmd = xasprintf("/usr/bin/python3 tests/tools/crd_validate.py "
			      "tests/fixtures/schemas/%s '%s' 2>&1",
			      extract, path);
	int rc = test_sh(cmd, out);
	free(cmd);
	return rc;
}

/* Owned GPUs past one node: a training run is a JobSet (suspended, one
 * Indexed Job of a pod a node, torchrun ranked by the completion index
 * meeting at the first pod's hostname), a serving instance a
 * LeaderWorkerSet of a leader and its workers, vLLM over Ray, with the
 * Service on the leader; both hold their published CRD schemas (extracts
 * in tests/fixtures/schemas/) and a misspelt field fails. */
static const char owned_multinode_yaml[] =
	"version: 1\n"
	"timezone: Europe/London\n"
	"owned:\n"
	"  - {gpu: H100 SXM, count: 32}\n"
	"jobs:\n"
	"  - {name: ft70b, model: llama-3.1-70b, task: finetune-full, context: 4096, batch: 32, "
	"parallel: {dp: 32}, hours_per_month: 100, data: restricted, "
	"run: {command: \"python train.py --config ft70b.yaml\", image: \"nvcr.io/nvidia/pytorch:24.08-py3\"}}\n"
	"  - {name: big, model: llama-3.1-405b, precision: bf16, context: 8192, serving: always-on, "
	"request: {input: 1000, output: 200}, tokens_per_month: {input: 100M, output: 20M}, "
	"data: restricted, run: {command: \"vllm serve meta-llama/Llama-3.1-405B-Instruct --host "
	"0.0.0.0\", image: \"vllm/vllm-openai:v0.8.5\"}}\n";

START_TEST(owned_jobs_past_one_node_are_a_jobset_and_a_leaderworkerset)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "multinode.yaml", owned_multinode_yaml);
	char *path = schedule_to(&f, "k8s", "k.yaml"), *out = NULL;
	ck_assert_msg(crd_validate("jobset-v1alpha2.json", path, &out) == 0 &&
			      strstr(out, "1 JobSet document(s), 0 invalid"),
		      "JobSet's CRD rejects the export (apt-get install python3-jsonschema "
		      "python3-yaml): %s",
		      out ? out : "");
	free(out);
	ck_assert_msg(crd_validate("leaderworkerset-v1.json", path, &out) == 0 &&
			      strstr(out, "1 LeaderWorkerSet document(s), 0 invalid"),
		      "%s", out ? out : "");
	free(out);
	ck_assert_msg(k8s_validate_kinds(path,
					 "JobSet LeaderWorkerSet Service ServiceAccount Role "
					 "RoleBinding CronJob",
					 &out) == 0,
		      "%s", out ? out : "");
	free(out);
	py_check(
	    "\n"
	    "import yaml, sys\n"
	    "docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]\n"
	    "js = [d for d in docs if d[\"kind\"] == \"JobSet\"][0]\n"
	    "n = js[\"metadata\"][\"name\"]\n"
	    "assert js[\"spec\"][\"suspend\"] is True, js\n"
	    "j = js[\"spec\"][\"replicatedJobs\"][0]\n"
	    "assert j[\"name\"] == \"node\" and j[\"replicas\"] == 1, j\n"
	    "js_ = j[\"template\"][\"spec\"]\n"
	    "assert js_[\"parallelism\"] == 4 and js_[\"completions\"] == 4, js_\n"
	    "assert js_[\"completionMode\"] == \"Indexed\", js_\n"
	    "c = js_[\"template\"][\"spec\"][\"containers\"][0]\n"
	    "assert c[\"resources\"][\"limits\"][\"nvidia.com/gpu\"] == \"8\", c\n"
	    "want = (\"torchrun --nnodes=4 --nproc-per-node=8 "
	    "--node-rank=\\\"$JOB_COMPLETION_INDEX\\\" \"\n"
	    "        \"--master-addr=%s-node-0-0.%s --master-port=29500 train.py --config "
	    "ft70b.yaml\" % (n, n))\n"
	    "assert c[\"command\"] == [\"/bin/sh\", \"-c\", want], c[\"command\"]\n"
	    "cj = [d for d in docs if d[\"kind\"] == \"CronJob\"][0]\n"
	    "assert cj[\"spec\"][\"schedule\"] == \"0 0 1 10 *\", cj\n"
	    "k = "
	    "cj[\"spec\"][\"jobTemplate\"][\"spec\"][\"template\"][\"spec\"][\"containers\"][0]\n"
	    "assert k[\"args\"][:3] == [\"patch\", \"jobset\", n], k\n"
	    "lw = [d for d in docs if d[\"kind\"] == \"LeaderWorkerSet\"][0]\n"
	    "t = lw[\"spec\"][\"leaderWorkerTemplate\"]\n"
	    "assert t[\"size\"] == 2, t\n"
	    "lead = t[\"leaderTemplate\"][\"spec\"][\"containers\"][0]\n"
	    "work = t[\"workerTemplate\"][\"spec\"][\"containers\"][0]\n"
	    "assert lead[\"command\"][2].endswith(\"--tensor-parallel-size 8 "
	    "--pipeline-parallel-size 2\"), lead\n"
	    "assert \"leader --ray_cluster_size=$(LWS_GROUP_SIZE)\" in lead[\"command\"][2], lead\n"
	    "assert \"worker --ray_address=$(LWS_LEADER_ADDRESS)\" in work[\"command\"][2], work\n"
	    "assert \"ports\" in lead and \"ports\" not in work, (lead, work)\n"
	    "svc = [d for d in docs if d[\"kind\"] == \"Service\"][0]\n"
	    "assert svc[\"spec\"][\"selector\"][\"planner.dev/role\"] == \"leader\", svc\n"
	    "print(\"ok\")\n",
	    path, NULL);
	/* The validator fails on a misspelt field of each. */
	char *bad = xasprintf("%s/bad.yaml", f.dir);
	char *cmd =
	    xasprintf("sed 's/completionMode/completionMod/; s/leaderTemplate/leadTemplate/' "
	              "'%s' > '%s'",
	              path, bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(crd_validate("jobset-v1alpha2.json", bad, &out), 0);
	ck_assert_msg(strstr(out, "'completionMod' was unexpected"), "%s", out);
	free(out);
	ck_assert_int_ne(crd_validate("leaderworkerset-v1.json", bad, &out), 0);
	ck_assert_msg(strstr(out, "'leadTemplate' was unexpected"), "%s", out);
	free(out);
	free(cmd);
	free(bad);
	free(path);
	free_fx(&f);
}
END_TEST

START_TEST(dstack_tasks_hold_dstacks_schema_and_read_back_one_per_rented_run)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = test_write(f.dir, "cloud.yaml", cloud_yaml);
	char *path = schedule_to(&f, "dstack", "d.yml"), *out = NULL;
	int rc = schema_validate("dstack-task.json", path, &out);
	ck_assert_msg(rc == 0, "dstack's schema rejects the export (apt-get install "
			       "python3-jsonschema python3-yaml): %s", out ? out : "");
	ck_assert_ptr_nonnull(strstr(out, "4 document(s), 0 invalid"));
	free(out);
	/* The validator fails on a misspelt field. */
	char *cmd = xasprintf("sed 's/spot_policy/spot_polcy/' '%s' > '%s/bad.yml'", path, f.dir);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	free(cmd);
	char *bad = xasprintf("%s/bad.yml", f.dir);
	ck_assert_int_ne(schema_validate("dstack-task.json", bad, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "'spot_polcy' was unexpected"));
	free(out);
	free(bad);
	/* Split as the header says, each file is one configuration. */
	cmd = xasprintf(
		"cd '%s' && csplit -s -z -f task- -b '%%02d.dstack.yml' d.yml '/^---$/' '{*}' && "
		"/usr/bin/python3 -c '\n"
		"import glob, yaml\n"
		"n = 0\n"
		"for p in sorted(glob.glob(\"task-*.dstack.yml\"))[1:]:\n"
		"    docs = [d for d in yaml.safe_load_all(open(p)) if d is not None]\n"
		"    assert len(docs) == 1, p\n"
		"    t = docs[0]; n += 1\n"
		"    assert t[\"type\"] == \"task\" and t[\"spot_policy\"] == \"on-demand\", t\n"
		"    if t[\"name\"].startswith(\"evals\"):\n"
		"        assert t[\"backends\"] == [\"aws\"] and t[\"regions\"] == [\"us-east-1\"], t\n"
		"        assert t[\"resources\"] == {\"gpu\": \"L4:1\"}, t\n"
		"        assert t[\"image\"] == \"vllm/vllm-openai:latest\", t\n"
		"        assert t[\"commands\"] == [\"python evals.py --tag %sa \\\"b\\\"%s\"], t\n"
		"        assert t[\"max_duration\"] in (\"480m\", \"240m\"), t  # 8 + 8 + 4 h\n"
		"    else:\n"
		"        assert \"backends\" not in t and t[\"resources\"][\"gpu\"] == \"H100:8\", t\n"
		"assert n == 4, n\n"
		"print(\"ok\")\n"
		"' 2>&1",
		f.dir, "'\\''", "'\\''");
	rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "%s", out ? out : "");
	free(out);
	free(cmd);
	free(path);
	free_fx(&f);
}
END_TEST

/* Rented serving jobs are services: each job one SkyServe service and one
 * dstack `type: service`, not a task per run, valid under the service
 * parts of the vendored schemas (a misspelt key fails), with the engine's
 * port (llama-server's --port 9000 as written) and health path, the
 * replicas and GPUs of the JSON schedule's runs, and for the window
 * service the cron lines that start and stop it at 08:00 and 18:00. */
START_TEST(rented_serving_jobs_are_skyserve_and_dstack_services)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = xasprintf("tests/fixtures/jobs/rented-serving.yaml");
	char *sky = schedule_to(&f, "skypilot", "sky.yaml"), *dst = schedule_to(&f, "dstack", "d.yml");
	char *json = schedule_to(&f, "json", "s.json"), *out = NULL;
	ck_assert_msg(schema_validate("skypilot-task.json", sky, &out) == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "2 document(s), 0 invalid"));
	free(out);
	ck_assert_msg(schema_validate("dstack-service.json", dst, &out) == 0, "%s", out);
	ck_assert_ptr_nonnull(strstr(out, "2 document(s), 0 invalid"));
	free(out);
	char *bad = xasprintf("%s/bad.yaml", f.dir);
	char *cmd = xasprintf("sed 's/readiness_probe/readiness_prob/' '%s' > '%s'", sky, bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(schema_validate("skypilot-task.json", bad, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "'readiness_prob' was unexpected"));
	free(out);
	free(cmd);
	cmd = xasprintf("sed 's/^probes:/probs:/' '%s' > '%s'", dst, bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	ck_assert_int_ne(schema_validate("dstack-service.json", bad, &out), 0);
	ck_assert_ptr_nonnull(strstr(out, "'probs' was unexpected"));
	free(out);
	free(cmd);
	free(bad);
	py_check("import json,sys,yaml\n"
		 "runs = [r for r in json.load(open(sys.argv[2]))[\"runs\"] if r[\"route\"] == \"rented\"]\n"
		 "text = open(sys.argv[1]).read()\n"
		 "docs = [d for d in yaml.safe_load_all(text) if d]\n"
		 "by = {d[\"name\"]: d for d in docs}\n"
		 "assert sorted(by) == [\"fleet\", \"staff-assistant\"], by\n"
		 "port = {\"fleet\": 8000, \"staff-assistant\": 9000}\n"
		 "for job, d in by.items():\n"
		 "    mine = [r for r in runs if r[\"job\"] == job]\n"
		 "    n = mine[0].get(\"replicas\", 1)\n"
		 "    sv = d[\"service\"]\n"
		 "    assert sv == {\"readiness_probe\": {\"path\": \"/health\"}, \"replicas\": n}, sv\n"
		 "    r = d[\"resources\"]\n"
		 "    assert r[\"ports\"] == port[job], r\n"
		 "    g = int(r[\"accelerators\"].split(\":\")[1])\n"
		 "    assert g * n == mine[0][\"gpu_count\"], (r, mine[0])\n"
		 "    assert (\"--port\" in d[\"run\"]) == (job != \"fleet\"), d\n"
		 "assert \"staff-assistant task-02.yaml\" in text\n"
		 "assert \"#   0 8 * * 1,2,3,4,5 sky serve up -y -n staff-assistant\" in text, text\n"
		 "assert \"#   0 18 * * 1,2,3,4,5 sky serve down -y staff-assistant\" in text, text\n"
		 "assert text.count(\"no time schedule\") == 1, text\n",
		 sky, json);
	py_check("import json,sys,yaml\n"
		 "runs = [r for r in json.load(open(sys.argv[2]))[\"runs\"] if r[\"route\"] == \"rented\"]\n"
		 "text = open(sys.argv[1]).read()\n"
		 "by = {d[\"name\"]: d for d in yaml.safe_load_all(text) if d}\n"
		 "for job, d in by.items():\n"
		 "    mine = [r for r in runs if r[\"job\"] == job]\n"
		 "    n = mine[0].get(\"replicas\", 1)\n"
		 "    assert d[\"type\"] == \"service\" and d[\"replicas\"] == n, d\n"
		 "    assert d[\"probes\"] == [{\"type\": \"http\", \"url\": \"/health\"}], d\n"
		 "    assert \"max_duration\" not in d and \"nodes\" not in d, d\n"
		 "    g = int(d[\"resources\"][\"gpu\"].split(\":\")[-1])\n"
		 "    assert g * n == mine[0][\"gpu_count\"], (d, mine[0])\n"
		 "f, s = by[\"fleet\"], by[\"staff-assistant\"]\n"
		 "assert f[\"port\"] == 8000 and f[\"model\"] == \"Qwen/Qwen2.5-14B-Instruct\", f\n"
		 "assert s[\"port\"] == 9000 and \"model\" not in s, s\n"
		 "assert \"#   0 18 * * 1,2,3,4,5 dstack stop -y staff-assistant\" in text, text\n"
		 "assert \"binds 127.0.0.1 by default\" in text, text\n",
		 dst, json);
	free(json);
	free(dst);
	free(sky);
	free_fx(&f);
}
END_TEST

/* A serving job's Slurm array tasks listen on ports of their own (the
 * engine's plus SLURM_ARRAY_TASK_ID), so replicas that Slurm puts on one
 * node do not collide: the fleet's three tasks, their --wrap commands
 * expanded by sh as sbatch would, bind 8000, 8001 and 8002. */
START_TEST(slurm_serving_replicas_get_a_port_each)
{
	struct fx f;
	setup_fx(&f);
	free(f.spec);
	f.spec = xasprintf("tests/fixtures/jobs/k8s-serving.yaml");
	char *path = schedule_to(&f, "slurm", "serve.sh");
	py_check("import os,shlex,subprocess,sys\n"
		 "lines = [l for l in open(sys.argv[1]) if l.startswith(\"sbatch \")]\n"
		 "fleet = [w for w in map(shlex.split, lines) if \"--job-name=fleet\" in w]\n"
		 "assert fleet, lines\n"
		 "for w in fleet:\n"
		 "    assert \"--array=0-2\" in w, w\n"
		 "    cmd = [a for a in w if a.startswith(\"--wrap=\")][0][7:]\n"
		 "    ports = set()\n"
		 "    for i in range(3):\n"
		 "        env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(i))\n"
		 "        out = subprocess.run([\"sh\", \"-c\", \"echo \" + cmd], env=env,\n"
		 "            capture_output=True, text=True, check=True).stdout.split()\n"
		 "        ports.add(int(out[out.index(\"--port\") + 1]))\n"
		 "    assert ports == {8000, 8001, 8002}, ports\n",
		 path, NULL);
	free(path);
	free_fx(&f);
}
END_TEST

Suite *export_suite(void)
{
	Suite *s = suite_create("export");
	TCase *tc = tcase_create("formats");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, json_has_the_contract_keys_and_times_with_their_offset);
	tcase_add_test(tc, csv_reads_back_with_a_csv_parser_row_for_row);
	tcase_add_test(tc, ics_parses_with_python_icalendar_with_unique_uids_and_folded_lines);
	tcase_add_test(tc, slurm_script_passes_bash_n_and_sets_every_option);
	tcase_add_test(tc, k8s_manifests_parse_with_libyaml_as_batch_v1_cronjobs);
	tcase_add_test(tc, k8s_cronjob_names_are_unique_dns_1123_strings_under_a_yaml_1_1_parser);
	tcase_add_test(tc, k8s_manifests_hold_the_kubernetes_openapi_types);
	tcase_add_test(tc, k8s_jobs_get_requests_shm_weights_and_the_tensor_parallel_flag);
	tcase_add_test(tc, k8s_cronjobs_fire_once_on_each_run_start);
	tcase_add_test(tc, k8s_replicas_are_pods_with_their_own_gpus);
	tcase_add_test(tc, k8s_serving_jobs_are_deployments_and_services_a_window_scales_to_zero);
	tcase_add_test(tc, k8s_window_across_midnight_scales_down_the_next_day);
	tcase_add_test(tc, slurm_runs_the_image_through_pyxis_when_asked);
	tcase_add_test(tc, slurm_serving_replicas_get_a_port_each);
	tcase_add_test(tc, skypilot_tasks_hold_skypilots_task_schema_and_fail_on_a_misspelt_field);
	tcase_add_test(tc, skypilot_tasks_read_back_one_per_rented_run_and_split_into_single_tasks);
	tcase_add_test(tc, dstack_tasks_hold_dstacks_schema_and_read_back_one_per_rented_run);
	tcase_add_test(tc, a_rented_job_over_four_nodes_is_num_nodes_and_nodes_with_torchrun);
	tcase_add_test(tc, owned_jobs_past_one_node_are_a_jobset_and_a_leaderworkerset);
	tcase_add_test(tc, rented_serving_jobs_are_skyserve_and_dstack_services);
	tcase_add_test(tc, run_weights_must_be_a_claim_or_an_absolute_path);
	tcase_add_test(tc, a_month_with_no_runs_writes_every_format);
	tcase_add_test(tc, bad_options_are_usage_errors);
	tcase_add_test(tc, a_failed_write_exits_5_in_every_format);
	tcase_add_test(tc, a_failed_write_to_o_leaves_the_existing_file_whole_and_no_temporary);
	tcase_add_test(tc, o_refuses_a_fifo_or_directory_at_once_and_leaves_it_alone);
	tcase_add_test(tc, the_format_list_drives_lookup_and_help);
	tcase_add_test(tc, the_table_fits_80_columns_and_prints_a_grid_shared_by_two_gpus_once);
	suite_add_tcase(s, tc);
	return s;
}
