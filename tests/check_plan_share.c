/* check_plan_share.c — the GPUs on hand shared across compare's jobs
 * (planner/plan_share.c) and a job's hours held to its window
 * (schedule_month_hours), end to end through the binary: the platform
 * team's spec of issue 26 and an over-booked spec where a job moves. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util.h"

#define PLATFORM   "tests/fixtures/jobs/platform-team.yaml"
#define OVERBOOKED "tests/fixtures/jobs/overbooked.yaml"

static char *db_arg(void)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	free(dir);
	return path;
}

/* compare FILE --format json [extra...] parsed; the test fails on a
 * non-zero exit. */
static cJSON *compare_json(const char *file, const char *extra1, const char *extra2)
{
	char *db = db_arg(), *out = NULL, *err = NULL;
	const char *argv[] = {"compare", file, "--format", "json", "--quiet",
	                      "--db",    db,   extra1,     extra2, NULL};
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "compare %s %s: exit %d: %s", file, extra1 ? extra1 : "", rc, err);
	cJSON *root = cJSON_Parse(out);
	ck_assert_msg(root != NULL, "not JSON: %s", out);
	free(db);
	free(out);
	free(err);
	return root;
}

static const char *best_of(const cJSON *job)
{
	const cJSON *b = cJSON_GetObjectItem(job, "best");
	return cJSON_IsObject(b) ? cJSON_GetObjectItem(b, "route")->valuestring : "none";
}

static double num(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	ck_assert_msg(cJSON_IsNumber(v), "missing number %s", k);
	return v->valuedouble;
}

static const char *str(const cJSON *o, const char *k)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
	ck_assert_msg(cJSON_IsString(v), "missing string %s", k);
	return v->valuestring;
}

/* The GPUs on hand that the jobs' best routes take, all together. */
static int on_hand_taken(const cJSON *root, const char *gpu)
{
	int n = 0;
	const cJSON *j;
	cJSON_ArrayForEach(j, cJSON_GetObjectItem(root, "jobs"))
	{
		if (strcmp(best_of(j), "owned"))
			continue;
		const cJSON *o = test_json_route(j, "owned");
		if (cJSON_IsTrue(cJSON_GetObjectItem(o, "already_owned")) &&
		    !strcmp(str(o, "gpu"), gpu))
			n += (int)num(o, "gpu_count");
	}
	return n;
}

/* Issue 26: priced alone, the three jobs booked 4 + 6 + 2x4 = 18 of the
 * 16 A100s, and the nightly batch 585.9 h of a 22:00-06:00 window that
 * holds 8 h x 31 = 248 h. */
START_TEST(the_platform_team_spec_books_at_most_the_16_a100s_and_the_window_s_hours)
{
	cJSON *root = compare_json(PLATFORM, NULL, NULL);
	int taken = on_hand_taken(root, "A100 80GB");
	ck_assert_msg(taken <= 16, "the best routes take %d A100s of the 16 on hand", taken);
	ck_assert_str_eq(str(root, "owned_capacity"), "shared");
	const cJSON *batch = test_json_job(root, "nightly-batch");
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(batch, "routes"))
	{
		if (!cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")) ||
		    !cJSON_GetObjectItem(r, "gpu_hours"))
			continue;
		/* Each replica runs within the window's hours. */
		ck_assert_msg(num(r, "gpu_hours") <= 248 + 1e-6, "%s runs %.1f h a replica",
		              str(r, "route"), num(r, "gpu_hours"));
	}
	ck_assert_double_le(num(batch, "gpu_hours_per_month"), 248 + 1e-6);
	cJSON_Delete(root);
}
END_TEST

/* A fine-tune cannot be spread over replicas to fit its window: the
 * owned route says why rather than pricing hours the window does not
 * have. */
START_TEST(a_fine_tune_longer_than_its_window_says_so_on_the_route)
{
	cJSON *root =
	    compare_json(PLATFORM, "--set", "jobs.ft-70b-lora.schedule={window: 22:00-02:00}");
	const cJSON *own = test_json_route(test_json_job(root, "ft-70b-lora"), "owned");
	if (cJSON_IsTrue(cJSON_GetObjectItem(own, "feasible")))
		ck_assert_double_le(num(own, "gpu_hours"), 124 + 1e-6);
	else
		ck_assert_msg(strstr(str(own, "why"), "window allows 124.0 h a month"), "why: %s",
		              str(own, "why"));
	cJSON_Delete(root);
	root = compare_json(PLATFORM, "--set", "buy=[]");
	/* Without purchases the A100s on hand are the only owned GPUs. */
	ck_assert_int_le(on_hand_taken(root, "A100 80GB"), 16);
	cJSON_Delete(root);
}
END_TEST

static const cJSON *move_of(const cJSON *root, const char *job)
{
	const cJSON *m;
	cJSON_ArrayForEach(m, cJSON_GetObjectItem(root, "capacity_moves"))
	{
		if (!strcmp(str(m, "job"), job))
			return m;
	}
	return NULL;
}

/* Two RTX 4090s, three jobs that each alone take one: vault (data:
 * restricted) has nowhere else to go, so it saves most and keeps one;
 * chat-high and chat-low save as much per GPU-hour, and the higher
 * priority keeps the other. chat-low moves to renting, and says why. */
START_TEST(over_booked_gpus_go_to_the_jobs_that_save_most_and_the_rest_move)
{
	cJSON *root = compare_json(OVERBOOKED, NULL, NULL);
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "capacity_moves")), 1);
	const cJSON *m = move_of(root, "chat-low");
	ck_assert_msg(m != NULL, "chat-low did not move");
	ck_assert_str_eq(str(cJSON_GetObjectItem(m, "from"), "route"), "owned");
	ck_assert_str_eq(str(cJSON_GetObjectItem(m, "to"), "route"), "rented");
	ck_assert_str_eq(str(cJSON_GetObjectItem(m, "from"), "decision"), "own 1x RTX 4090");
	ck_assert_str_eq(str(m, "gpu"), "RTX 4090");
	ck_assert_int_eq((int)num(m, "gpus_needed"), 1);
	ck_assert_int_eq((int)num(m, "gpus_left"), 0);
	ck_assert_int_eq((int)num(m, "on_hand"), 2);
	ck_assert_msg(strstr(str(m, "reason"), "needs 1 RTX 4090 at once; 0 of the 2 on hand"),
	              "reason: %s", str(m, "reason"));
	const cJSON *low = test_json_job(root, "chat-low");
	ck_assert_str_eq(best_of(low), "rented");
	ck_assert_double_eq_tol(num(cJSON_GetObjectItem(m, "to"), "monthly_cost"),
	                        num(cJSON_GetObjectItem(low, "best"), "monthly_cost"), 0.005);
	ck_assert_str_eq(best_of(test_json_job(root, "vault")), "owned");
	ck_assert_str_eq(best_of(test_json_job(root, "chat-high")), "owned");
	ck_assert_int_eq(on_hand_taken(root, "RTX 4090"), 2);
	cJSON_Delete(root);
	/* The same spec with the priorities the other way round: the tie
	 * goes the other way. */
	root = compare_json(OVERBOOKED, "--set", "jobs.chat-low.schedule.priority=9");
	ck_assert_ptr_nonnull(move_of(root, "chat-high"));
	ck_assert_ptr_null(move_of(root, "chat-low"));
	ck_assert_ptr_null(move_of(root, "vault"));
	cJSON_Delete(root);
}
END_TEST

/* With a 3090 on hand as well, each job alone takes it (less power than
 * a 4090). All three save 0.03 a GPU-hour against a 4090 on hand, so
 * priority decides: chat-high keeps the 3090, and the others move to the
 * 4090s, which hold both. */
START_TEST(a_job_whose_gpus_are_taken_moves_to_other_gpus_on_hand)
{
	cJSON *root = compare_json(OVERBOOKED, "--set",
	                           "owned=[{gpu: RTX 4090, count: 2}, {gpu: RTX 3090, count: 1}]");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "capacity_moves")), 2);
	const char *moved[] = {"chat-low", "vault"};
	for (size_t i = 0; i < 2; i++) {
		const cJSON *m = move_of(root, moved[i]);
		ck_assert_msg(m != NULL, "%s did not move", moved[i]);
		ck_assert_str_eq(str(m, "gpu"), "RTX 3090");
		ck_assert_str_eq(str(cJSON_GetObjectItem(m, "to"), "decision"), "own 1x RTX 4090");
	}
	ck_assert_int_eq(on_hand_taken(root, "RTX 3090"), 1);
	ck_assert_int_eq(on_hand_taken(root, "RTX 4090"), 2);
	ck_assert_str_eq(str(test_json_route(test_json_job(root, "chat-high"), "owned"), "gpu"), "RTX 3090");
	cJSON_Delete(root);
}
END_TEST

/* The table says what moved and why, under the costs. */
START_TEST(the_table_names_the_job_that_moved_and_why)
{
	char *db = db_arg(), *out = NULL, *err = NULL;
	const char *argv[] = {"compare", OVERBOOKED, "--quiet", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "moved: chat-low from own 1x RTX 4090 (40.50) to rent 1x RTX "
	                          "3090 at vast (60.00): needs 1 "
	                          "RTX 4090 at once"),
	              "%s", out);
	ck_assert_msg(strstr(out, "GPUs on hand: shared"), "%s", out);
	free(out);
	free(err);
	free(db);
}
END_TEST

/* --each-alone gives each job the price it has in a spec of its own. */
START_TEST(each_alone_prices_every_job_as_if_it_were_the_only_one)
{
	cJSON *root = compare_json(OVERBOOKED, "--each-alone", NULL);
	ck_assert_str_eq(str(root, "owned_capacity"), "each-alone");
	ck_assert_int_eq(cJSON_GetArraySize(cJSON_GetObjectItem(root, "capacity_moves")), 0);
	char *dir = test_tmpdir();
	const char *names[] = {"chat-low", "vault", "chat-high"};
	for (size_t i = 0; i < 3; i++) {
		/* The spec with this job only: the others' names struck. */
		char *one =
		    xasprintf("version: 1\ncurrency: USD\nelectricity_per_kwh: 0.30\nbuy: []\n"
		              "owned:\n  - {gpu: RTX 4090, count: 2}\njobs:\n"
		              "  - {name: %s, model: llama-3.1-8b, precision: q4_k_m, "
		              "hours_per_month: %d%s}\n",
		              names[i], i == 1 ? 600 : 300, i == 1 ? ", data: restricted" : "");
		char *path = test_write(dir, "one.yaml", one);
		cJSON *alone = compare_json(path, NULL, NULL);
		const cJSON *a = test_json_job(alone, names[i]), *e = test_json_job(root, names[i]);
		ck_assert_str_eq(best_of(a), best_of(e));
		ck_assert_double_eq_tol(num(cJSON_GetObjectItem(a, "best"), "monthly_cost"),
		                        num(cJSON_GetObjectItem(e, "best"), "monthly_cost"), 1e-9);
		cJSON_Delete(alone);
		free(path);
		free(one);
	}
	cJSON_Delete(root);
	free(dir);
}
END_TEST

/* breakeven and report share too, and take --each-alone. */
START_TEST(breakeven_and_report_share_unless_each_alone)
{
	char *db = db_arg(), *dir = test_tmpdir(), *out = NULL, *err = NULL;
	const char *shared[] = {"breakeven", OVERBOOKED, "--quiet", "--db", db, NULL};
	const char *alone[] = {"breakeven", OVERBOOKED,     "--quiet", "--db",
	                       db,          "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(shared, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "\nchat-low,") && strstr(out, ",rented,60.00,"), "%s", out);
	free(out);
	free(err);
	ck_assert_int_eq(test_run_planner(alone, NULL, &out, &err), 0);
	const char *low = strstr(out, "\nchat-low,");
	ck_assert_ptr_nonnull(low);
	char *line = strndup(low + 1, strcspn(low + 1, "\r\n"));
	ck_assert_msg(strstr(line, ",owned,40.50,"), "%s", line);
	free(line);
	free(out);
	free(err);
	char *html = xasprintf("%s/r.html", dir);
	const char *report[] = {"report", OVERBOOKED, "--quiet",      "--db", db,
	                        "-o",     html,       "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(report, NULL, &out, &err), 0);
	free(out);
	free(err);
	free(html);
	free(dir);
	free(db);
}
END_TEST

Suite *plan_share_suite(void)
{
	Suite *s = suite_create("plan_share");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc,
	               the_platform_team_spec_books_at_most_the_16_a100s_and_the_window_s_hours);
	tcase_add_test(tc, a_fine_tune_longer_than_its_window_says_so_on_the_route);
	tcase_add_test(tc, over_booked_gpus_go_to_the_jobs_that_save_most_and_the_rest_move);
	tcase_add_test(tc, a_job_whose_gpus_are_taken_moves_to_other_gpus_on_hand);
	tcase_add_test(tc, the_table_names_the_job_that_moved_and_why);
	tcase_add_test(tc, each_alone_prices_every_job_as_if_it_were_the_only_one);
	tcase_add_test(tc, breakeven_and_report_share_unless_each_alone);
	suite_add_tcase(s, tc);
	return s;
}
