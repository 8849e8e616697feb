/* check_slurm.c — the slurm export handed to a real Slurm: the tour's
 * `planner schedule jobs/monthly.yaml --format slurm` script is run as a
 * user would run it (bash SCRIPT), with `sbatch` on PATH a wrapper that
 * adds --test-only and execs the real one, so a single-node Slurm (Debian's
 * slurm-wlm 22.05, started by tests/slurm/start.sh; clients find it through
 * SLURM_CONF) says whether and when it would start each job. Skipped,
 * saying so, where sbatch is not installed or no controller answers:
 *   apt-get install slurm-wlm munge
 *   tests/slurm/start.sh /tmp/planner-slurm    # as root
 *   export SLURM_CONF=/tmp/planner-slurm/slurm.conf
 *   tests/slurm/stop.sh /tmp/planner-slurm     # afterwards */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "testutil.h"
#include "util.h"

/* The real sbatch's path, or NULL (with the reason printed) when the test
 * cannot run here. */
static char *slurm_or_skip(const char *test)
{
	char *sbatch = NULL;
	if (test_sh("command -v sbatch 2>/dev/null", &sbatch) != 0 || !*sbatch) {
		printf("slurm: %s skipped: sbatch is not installed (apt-get install slurm-wlm "
		       "munge, then tests/slurm/start.sh DIR as root)\n",
		       test);
		free(sbatch);
		return NULL;
	}
	sbatch[strcspn(sbatch, "\n")] = '\0';
	char *out = NULL;
	int rc = test_sh("scontrol ping 2>&1", &out);
	if (rc != 0 || !strstr(out, "is UP")) {
		const char *conf = getenv("SLURM_CONF");
		/* scontrol's last line says why ("fatal: Could not establish a
		 * configuration source", "... is DOWN"). */
		size_t len = strlen(out);
		while (len && out[len - 1] == '\n')
			out[--len] = '\0';
		const char *last = strrchr(out, '\n') ? strrchr(out, '\n') + 1 : out;
		printf("slurm: %s skipped: no Slurm controller answers (SLURM_CONF=%s; start one "
		       "with tests/slurm/start.sh DIR as root and export "
		       "SLURM_CONF=DIR/slurm.conf): %.200s\n",
		       test, conf ? conf : "unset", last);
		free(out);
		free(sbatch);
		return NULL;
	}
	free(out);
	return sbatch;
}

struct fx {
	char *dir;
	char *script; /* the planner's slurm script */
	char *bin;    /* PATH entry holding the sbatch wrapper */
};

/* Writes the tour's December script and the --test-only sbatch wrapper. */
static void setup_fx(struct fx *f, const char *sbatch)
{
	f->dir = test_tmpdir();
	f->script = xasprintf("%s/monthly.slurm.sh", f->dir);
	char *db = xasprintf("%s/p.db", f->dir);
	const char *argv[] = {
	    "schedule", "jobs/monthly.yaml", "--month", "2026-12", "--format", "slurm",
	    "-o",       f->script,           "--db",    db,        NULL};
	char *err = NULL;
	int rc = test_run_planner(argv, NULL, NULL, &err);
	ck_assert_msg(rc == 0, "planner schedule --format slurm: %s", err ? err : "");
	free(err);
	free(db);

	f->bin = xasprintf("%s/bin", f->dir);
	ck_assert_int_eq(mkdir(f->bin, 0755), 0);
	char *wrapper = xasprintf("#!/bin/sh\nexec '%s' --test-only \"$@\"\n", sbatch);
	char *path = test_write(f->bin, "sbatch", wrapper);
	ck_assert_int_eq(chmod(path, 0755), 0);
	free(path);
	free(wrapper);
}

static void free_fx(struct fx *f)
{
	char *cmd = xasprintf("rm -rf '%s'", f->dir), *out = NULL;
	test_sh(cmd, &out);
	free(out);
	free(cmd);
	free(f->dir);
	free(f->script);
	free(f->bin);
}

/* Runs a script with the wrapper first on PATH; output is stdout+stderr. */
static int submit(const struct fx *f, const char *script, char **out)
{
	char *cmd = xasprintf("PATH='%s':\"$PATH\" bash '%s' 2>&1", f->bin, script);
	int rc = test_sh(cmd, out);
	free(cmd);
	return rc;
}

/* The --begin= values of the script's sbatch lines, in order, into begin[]
 * (each "YYYY-MM-DDTHH:MM:SS"); returns how many sbatch lines there are. */
static int begins(const char *text, char begin[][20], int max)
{
	int n = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, "sbatch ", 7) != 0)
			continue;
		const char *b = strstr(l, "--begin=");
		const char *eol = strchr(l, '\n');
		ck_assert_msg(b && (!eol || b < eol), "sbatch line without --begin: %.120s", l);
		ck_assert_int_lt(n, max);
		memcpy(begin[n], b + 8, 19);
		begin[n][19] = '\0';
		n++;
	}
	return n;
}

START_TEST(every_run_of_the_tour_month_is_accepted_by_sbatch_test_only)
{
	char *sbatch = slurm_or_skip("sbatch --test-only of the tour's month");
	if (!sbatch)
		return;
	struct fx f;
	setup_fx(&f, sbatch);
	char *text = test_slurp(f.script);
	ck_assert_ptr_nonnull(text);
	static char begin[1000][20];
	int n = begins(text, begin, 1000);
	/* contract-review's night runs on the owned RTX 4090s (nine in
	 * 2026-03 since code-assistant needs more than they can serve). */
	ck_assert_int_gt(n, 5);

	char *out = NULL;
	int rc = submit(&f, f.script, &out);
	ck_assert_msg(rc == 0, "bash %s exited %d:\n%s", f.script, rc, out);
	/* One "sbatch: Job N to start at T using ..." per sbatch line, in
	 * order; T is the --begin time (the node is free, and --test-only jobs
	 * do not hold it), or later where --begin is already past. Both are
	 * wall-clock times in the script's TZ. */
	int seen = 0;
	for (const char *p = out; (p = strstr(p, "sbatch: Job ")); p++) {
		const char *at = strstr(p, " to start at ");
		ck_assert_msg(at && at - p < 40, "unexpected sbatch output: %.200s", p);
		ck_assert_int_lt(seen, n);
		char start[20];
		memcpy(start, at + 13, 19);
		start[19] = '\0';
		ck_assert_msg(strcmp(start, begin[seen]) >= 0,
		              "job %d: starts %s before --begin=%s", seen + 1, start, begin[seen]);
		ck_assert_msg(strstr(at, " in partition ") != NULL, "no partition: %.200s", at);
		seen++;
	}
	ck_assert_msg(seen == n, "%d sbatch lines, %d accepted:\n%s", n, seen, out);
	free(out);
	free(text);
	free(sbatch);
	free_fx(&f);
}
END_TEST

/* The same script with its first --gres=gpu:TYPE:N given another type or
 * count (NULL: keep it), which the controller must reject: bash stops
 * there (set -e), and nothing is accepted. */
static void expect_rejected(const char *what, const char *type, const char *count)
{
	char *sbatch = slurm_or_skip(what);
	if (!sbatch)
		return;
	struct fx f;
	setup_fx(&f, sbatch);
	char *text = test_slurp(f.script);
	ck_assert_ptr_nonnull(text);
	char *g = strstr(text, "--gres=gpu:");
	ck_assert_ptr_nonnull(g);
	const char *t = g + strlen("--gres=gpu:"), *colon = strchr(t, ':');
	ck_assert_ptr_nonnull(colon);
	const char *end = colon + 1 + strcspn(colon + 1, " \n");
	int tlen = type ? (int)strlen(type) : (int)(colon - t);
	int clen = count ? (int)strlen(count) : (int)(end - colon - 1);
	char *bad = xasprintf("%.*s%.*s:%.*s%s", (int)(t - text), text, tlen, type ? type : t, clen,
	                      count ? count : colon + 1, end);
	char *path = test_write(f.dir, "bad.sh", bad);

	char *out = NULL;
	int rc = submit(&f, path, &out);
	ck_assert_msg(rc != 0, "%s: accepted:\n%s", what, out);
	ck_assert_msg(strstr(out, "sbatch: Job ") == NULL, "%s: a job was accepted:\n%s", what,
	              out);
	ck_assert_msg(strstr(out, "Requested node configuration is not available") ||
	                  strstr(out, "Invalid generic resource"),
	              "%s: unexpected rejection:\n%s", what, out);
	free(out);
	free(path);
	free(bad);
	free(text);
	free(sbatch);
	free_fx(&f);
}

/* A serving fleet of two replicas with cluster: mapping its GPU to the
 * node's GRES type and naming the partition: one array task per replica,
 * each with one replica's GPUs, which sbatch accepts; a partition the
 * cluster lacks is refused by it. */
static const char serving_spec[] =
    "version: 1\n"
    "timezone: Europe/London\n"
    "cluster: {gres: {\"A100 80GB\": a100sxm}, partition: debug, account: ml, qos: normal}\n"
    "owned:\n"
    "  - {gpu: A100 80GB, count: 8}\n"
    "jobs:\n"
    "  - {name: fleet, model: llama-3.1-70b, precision: fp8, context: 8192, batch: max, "
    "serving: always-on, request: {input: 1500, output: 300}, tokens_per_month: {input: 6B, "
    "output: 1.2B}, run: {command: \"vllm serve meta-llama/Llama-3.1-70B-Instruct\"}}\n";

static char *serving_script(const struct fx *f, const char *spec_text)
{
	char *spec = test_write(f->dir, "serving.yaml", spec_text);
	char *script = xasprintf("%s/serving.sh", f->dir), *db = xasprintf("%s/s.db", f->dir);
	const char *argv[] = {"schedule", spec, "--month", "2026-10", "--format", "slurm",
	                      "-o",       script, "--db", db, NULL};
	char *err = NULL;
	ck_assert_msg(test_run_planner(argv, NULL, NULL, &err) == 0, "%s", err ? err : "");
	free(err);
	free(db);
	free(spec);
	return script;
}

START_TEST(a_serving_fleet_is_one_array_task_per_replica_on_the_mapped_gres)
{
	char *sbatch = slurm_or_skip("a_serving_fleet_is_one_array_task_per_replica");
	if (!sbatch)
		return;
	struct fx f;
	setup_fx(&f, sbatch);
	char *script = serving_script(&f, serving_spec);
	char *text = test_slurp(script);
	ck_assert_msg(strstr(text, " --array=0-1 ") && strstr(text, " --partition=debug ") &&
	                  strstr(text, " --gres=gpu:a100sxm:2 ") && strstr(text, "--account='ml'") &&
	                  strstr(text, " --port $((8000 + SLURM_ARRAY_TASK_ID))'"),
	              "%s", text);
	char *out = NULL;
	int rc = submit(&f, script, &out);
	ck_assert_msg(rc == 0 && strstr(out, "in partition debug"), "sbatch: %s", out);
	free(out);
	char *bad = test_write(f.dir, "bad.sh", text);
	char *cmd = xasprintf("sed -i 's/--partition=debug/--partition=nope/' '%s'", bad);
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(out);
	rc = submit(&f, bad, &out);
	ck_assert_msg(rc != 0 && strstr(out, "nvalid partition"), "sbatch took it: %s", out);
	free(out);
	free(cmd);
	free(bad);
	free(text);
	free(script);
	free_fx(&f);
	free(sbatch);
}
END_TEST

START_TEST(a_gpu_type_the_node_lacks_is_rejected)
{
	expect_rejected("an unknown GPU type", "nosuchgpu", NULL);
}
END_TEST

START_TEST(more_gpus_than_the_node_has_is_rejected)
{
	expect_rejected("more GPUs than owned", NULL, "64");
}
END_TEST

/* A training job over four nodes of 8 H100s (32 owned, 70B in full):
 * --nodes=4 --ntasks-per-node=1 with 8 GPUs a node, and torchrun on each
 * node meeting at the first. With four nodes (tests/slurm/start.sh's cloud
 * nodes) sbatch --test-only must place it on four; on a cluster of fewer,
 * it must refuse it for the node count alone ("Requested node
 * configuration is not available"), which says every option parsed. */
static const char multinode_spec[] =
    "version: 1\n"
    "timezone: Europe/London\n"
    "owned:\n"
    "  - {gpu: H100 SXM, count: 32}\n"
    "jobs:\n"
    "  - {name: ft70b, model: llama-3.1-70b, task: finetune-full, context: 4096, batch: 32, "
    "parallel: {dp: 32}, hours_per_month: 100, data: restricted, "
    "run: {command: \"python train.py --config ft70b.yaml\"}}\n";

/* The nodes of the cluster's default partition (scontrol's TotalNodes:
 * sinfo hides powered-down cloud nodes). */
static int partition_nodes(void)
{
	char *out = NULL;
	int n = 0;
	if (test_sh("scontrol show partition debug 2>&1", &out) == 0) {
		const char *t = strstr(out, "TotalNodes=");
		n = t ? atoi(t + 11) : 0;
	}
	free(out);
	return n;
}

START_TEST(a_training_job_over_four_nodes_is_torchrun_on_each)
{
	char *sbatch = slurm_or_skip("a_training_job_over_four_nodes_is_torchrun_on_each");
	if (!sbatch)
		return;
	struct fx f;
	setup_fx(&f, sbatch);
	char *script = serving_script(&f, multinode_spec);
	char *text = test_slurp(script);
	ck_assert_ptr_nonnull(text);
	ck_assert_msg(strstr(text, " --nodes=4 --ntasks-per-node=1 --gres=gpu:h100sxm:8 "), "%s",
	              text);
	ck_assert_msg(strstr(text, "srun torchrun --nnodes=\"$SLURM_NNODES\" --nproc-per-node=8 "
	                           "--rdzv-id=\"$SLURM_JOB_ID\" --rdzv-backend=c10d "
	                           "--rdzv-endpoint=\"$PLANNER_RDZV_HOST:29400\" train.py --config "
	                           "ft70b.yaml"),
	              "%s", text);
	char *out = NULL;
	int rc = submit(&f, script, &out);
	if (partition_nodes() >= 4) {
		ck_assert_msg(rc == 0 && strstr(out, " to start at ") && strstr(out, " on nodes "),
		              "%s", out);
	} else {
		printf("slurm: %d node(s): checked only that sbatch refuses the 4-node job for its "
		       "node count\n",
		       partition_nodes());
		ck_assert_msg(rc != 0 && strstr(out, "Requested node configuration is not available"),
		              "%s", out);
	}
	free(out);
	free(text);
	free(script);
	free(sbatch);
	free_fx(&f);
}
END_TEST

Suite *slurm_suite(void)
{
	Suite *s = suite_create("slurm");
	TCase *tc = tcase_create("sbatch --test-only");
	tcase_add_test(tc, every_run_of_the_tour_month_is_accepted_by_sbatch_test_only);
	tcase_add_test(tc, a_gpu_type_the_node_lacks_is_rejected);
	tcase_add_test(tc, a_serving_fleet_is_one_array_task_per_replica_on_the_mapped_gres);
	tcase_add_test(tc, more_gpus_than_the_node_has_is_rejected);
	tcase_add_test(tc, a_training_job_over_four_nodes_is_torchrun_on_each);
	suite_add_tcase(s, tc);
	return s;
}
