/* check_init.c — `planner init` (planner/init_spec.c, cmd_init.c): the
 * issue's done-when pair (init, then compare in euros with the Dutch
 * electricity price named), the spec of every task parsed back, the model
 * rule held against the reference data, refused flags and values with
 * their suggestions, an existing file left alone, the error without a
 * terminal, and the questions answered through a pseudo-terminal. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "init_spec.h"
#include "jobspec.h"
#include "testutil.h"
#include "util.h"

#define PY "/usr/bin/python3"

/* The spec init_spec_text writes for these answers, parsed back. */
static struct jobspec *spec_of(const struct init_answers *a, char **text)
{
	char *err = NULL;
	struct jobspec *spec = NULL;
	ck_assert_msg(init_spec_text(test_ref(), a, text, &err) == PLANNER_OK, "%s", err);
	ck_assert_msg(jobspec_parse("init.yaml", *text, strlen(*text), test_ref(), &spec, &err) ==
	                  PLANNER_OK,
	              "%s\n%s", err, *text);
	return spec;
}

/* The line of text that holds needle, malloc'd; fails when none does. */
static char *line_with(const char *text, const char *needle)
{
	const char *p = strstr(text, needle);
	ck_assert_msg(p != NULL, "no '%s' in:\n%s", needle, text);
	const char *s = p, *e = p + strcspn(p, "\n");
	while (s > text && s[-1] != '\n')
		s--;
	return xasprintf("%.*s", (int)(e - s), s);
}

START_TEST(init_yes_then_compare_prices_in_euros_with_the_dutch_electricity_price)
{
	char *dir = test_tmpdir();
	char *spec = xasprintf("%s/spec.yaml", dir), *db = xasprintf("%s/p.db", dir);
	char *out = NULL, *err = NULL;
	const char *init[] = {"init", "--yes", "--users", "12", "--country", "NL", "--data",
	                      "confidential", "-o", spec, NULL};
	ck_assert_int_eq(test_run_planner(init, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "a suggestion"), "%s", err);
	ck_assert_str_eq(out, "");
	free(out);
	free(err);
	char *text = test_slurp(spec);
	ck_assert_ptr_nonnull(strstr(text, "country: NL\n"));
	ck_assert_ptr_nonnull(strstr(text, "data: confidential\n"));
	/* The arithmetic in the spec's comment is compare's own line. */
	char *sum = line_with(text, "12 users x 20 requests a day x ");
	const char *compare[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(compare, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "EUR"), "%s", out);
	ck_assert_msg(strstr(out, strstr(sum, "12 users")), "'%s' not in:\n%s", sum, out);
	const struct country *nl = refdata_country(test_ref(), "NL");
	ck_assert_ptr_nonnull(nl);
	char where[64];
	snprintf(where, sizeof where, ", NL %s", nl->business.period);
	ck_assert_msg(strstr(err, nl->business.label) && strstr(err, where), "%s", err);
	char kwh[32];
	snprintf(kwh, sizeof kwh, "%.3g EUR/kWh", nl->business.per_kwh);
	ck_assert_msg(strstr(out, kwh), "no '%s' in:\n%s", kwh, out);
	free(sum);
	free(text);
	free(out);
	free(err);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

START_TEST(every_task_writes_a_spec_the_parser_reads)
{
	for (int t = INIT_CHAT; t <= INIT_FINETUNE; t++) {
		struct init_answers a;
		init_answers_default(&a);
		a.task = (enum init_task)t;
		a.eu = true;
		a.owned = "rtx 4090";
		a.owned_count = 2;
		char *text = NULL;
		struct jobspec *spec = spec_of(&a, &text);
		ck_assert_uint_eq(spec->n_jobs, 1);
		const struct job *j = &spec->jobs[0];
		ck_assert(j->usage.given);
		ck_assert_str_eq(j->model.id, init_suggest_model(test_ref(), a.task)->id);
		ck_assert_uint_eq(spec->n_regions, 1);
		ck_assert_str_eq(spec->regions[0], "eu");
		ck_assert_msg(strstr(text, "count: 2}"), "%s", text);
		/* internal is written as public, and the comment says so. */
		ck_assert_str_eq(data_class_name(j->data), "public");
		ck_assert_msg(strstr(text, "third-party APIs may see it"), "%s", text);
		if (t == INIT_CHAT || t == INIT_CODING) {
			ck_assert(j->usage.interactive);
			ck_assert_str_eq(serving_name(j->serving), "window");
			ck_assert_double_eq(j->usage.users, 10);
			ck_assert_double_eq(j->request_input + j->request_output, 1800);
		} else {
			ck_assert(!j->usage.interactive);
			ck_assert_double_eq(j->usage.documents_per_month, 1000);
			ck_assert_double_eq(j->input_tokens, 1000 * 5000.0);
			ck_assert_int_ge(j->context, 5000);
			ck_assert_msg(strstr(text, "help.openai.com/en/articles/4936856"), "%s", text);
		}
		ck_assert_str_eq(task_name(j->task),
		                 t == INIT_FINETUNE ? "finetune-qlora" : "inference");
		jobspec_free(spec);
		free(text);
	}
}
END_TEST

/* The suggestion meets the rule, and no model that meets it is smaller. */
START_TEST(the_model_suggested_is_the_smallest_dense_one_an_api_host_serves)
{
	const struct refdata *ref = test_ref();
	for (int t = INIT_CHAT; t <= INIT_FINETUNE; t++) {
		double min = t == INIT_CODING ? 14e9 : 8e9;
		const struct model_spec *m = init_suggest_model(ref, (enum init_task)t);
		ck_assert_ptr_nonnull(m);
		ck_assert(m->experts == 0 && m->n_api_models > 0 && m->params_total >= min);
		for (size_t i = 0; i < ref->n_models; i++) {
			const struct model_spec *o = &ref->models[i];
			if (o->experts == 0 && o->n_api_models && o->params_total >= min)
				ck_assert_msg(o->params_total >= m->params_total, "%s is smaller than %s",
				              o->id, m->id);
		}
		ck_assert_ptr_nonnull(strstr(init_suggest_rule((enum init_task)t),
		                             t == INIT_CODING ? "14B" : "8B"));
	}
}
END_TEST

static void refused(const char *const *argv, int want, const char *says)
{
	char *out = NULL, *err = NULL;
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == want, "exit %d, not %d: %s", rc, want, err);
	ck_assert_msg(strstr(err, says), "no '%s' in: %s", says, err);
	ck_assert_msg(!*out, "wrote: %s", out);
	free(out);
	free(err);
}

START_TEST(unknown_flags_and_values_are_refused_with_the_nearest)
{
	const char *flag[] = {"init", "--yes", "--usrs", "12", NULL};
	refused(flag, 2, "did you mean '--users'");
	const char *task[] = {"init", "--yes", "--task", "chta", NULL};
	refused(task, 2, "did you mean 'chat'");
	const char *data[] = {"init", "--yes", "--data", "confidental", NULL};
	refused(data, 2, "did you mean 'confidential'");
	const char *users[] = {"init", "--yes", "--users", "0", NULL};
	refused(users, 2, "--users 0: give a count over 0");
	const char *country[] = {"init", "--yes", "--country", "NLD", NULL};
	refused(country, 1, "did you mean 'NL'");
	const char *gpu[] = {"init", "--yes", "--owned", "RTX 4009", NULL};
	refused(gpu, 1, "unknown GPU; did you mean 'RTX 4090'?");
	const char *use[] = {"init", "--yes", "--use", "home", NULL};
	refused(use, 2, "business, household");
	const char *alone[] = {"init", "--yes", "--use", "household", NULL};
	refused(alone, 2, "give --country too");
	const char *count[] = {"init", "--yes", "--owned-count", "2", NULL};
	refused(count, 2, "give --owned too");
}
END_TEST

START_TEST(an_existing_file_is_kept_without_force)
{
	char *dir = test_tmpdir();
	char *path = test_write(dir, "spec.yaml", "mine\n");
	char *out = NULL, *err = NULL;
	const char *keep[] = {"init", "--yes", "-o", path, NULL};
	ck_assert_int_eq(test_run_planner(keep, NULL, &out, &err), 1);
	ck_assert_msg(strstr(err, "--force"), "%s", err);
	char *text = test_slurp(path);
	ck_assert_str_eq(text, "mine\n");
	free(text);
	free(out);
	free(err);
	const char *force[] = {"init", "--yes", "--force", "-o", path, NULL};
	ck_assert_int_eq(test_run_planner(force, NULL, &out, &err), 0);
	text = test_slurp(path);
	ck_assert_msg(strstr(text, "version: 1\n"), "%s", text);
	free(text);
	free(out);
	free(err);
	free(path);
	free(dir);
}
END_TEST

START_TEST(without_a_terminal_or_yes_a_missing_answer_names_its_flag)
{
	const char *none[] = {"init", NULL};
	refused(none, 2, "no answer for --task");
	const char *half[] = {"init", "--task", "documents", "--documents", "300", NULL};
	refused(half, 2, "no answer for --tokens-per-document");
	/* Every required answer given: the optional ones take none. */
	char *out = NULL, *err = NULL;
	const char *all[] = {"init", "--task", "coding", "--users", "4", "--requests-per-user-day",
	                     "50", "--data", "public", NULL};
	ck_assert_int_eq(test_run_planner(all, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "usage: {users: 4, requests_per_user_day: 50}"), "%s", out);
	ck_assert_ptr_null(strstr(out, "\ncountry:"));
	free(out);
	free(err);
}
END_TEST

START_TEST(the_questions_are_asked_and_answered_on_a_terminal)
{
	if (access(PY, X_OK) != 0) {
		printf("init: terminal test skipped: %s is not installed\n", PY);
		return;
	}
	const char *bin = getenv("PLANNER_BIN");
	char *dir = test_tmpdir();
	char *spec = xasprintf("%s/spec.yaml", dir);
	/* task, documents, tokens (default), data (a wrong answer, then
	 * one), EU, office, country (misspelt, then right), use, owned
	 * (none). */
	char *cmd = xasprintf(PY " tests/tools/init_pty.py '%s' '%s' documents 2000 '' secret "
	                         "confidential y '' NLD NL household ''",
	                      bin && *bin ? bin : "build/planner", spec);
	char *shown = NULL;
	int rc = test_sh(cmd, &shown);
	ck_assert_msg(rc == 0, "exit %d:\n%s", rc, shown);
	ck_assert_msg(strstr(shown, "how many documents a month? [1000]: "), "%s", shown);
	ck_assert_msg(strstr(shown, "'secret' is not an answer"), "%s", shown);
	ck_assert_msg(strstr(shown, "--country NLD: unknown country; did you mean 'NL'"), "%s",
	              shown);
	char *text = test_slurp(spec);
	ck_assert_ptr_nonnull(text);
	static const char *const want[] = {
	    "documents_per_month: 2000, tokens_per_document: 5000", "data: confidential\n",
	    "regions: [eu]", "country: NL\n", "country_use: household\n"};
	for (size_t i = 0; i < NELEM(want); i++)
		ck_assert_msg(strstr(text, want[i]), "no '%s' in:\n%s", want[i], text);
	ck_assert_ptr_null(strstr(text, "owned:"));
	struct jobspec *s = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_load(spec, test_ref(), &s, &err) == PLANNER_OK, "%s", err);
	jobspec_free(s);
	free(text);
	free(shown);
	free(cmd);
	free(spec);
	free(dir);
}
END_TEST

Suite *init_suite(void)
{
	Suite *s = suite_create("init");
	TCase *tc = tcase_create("init");
	tcase_add_test(tc, init_yes_then_compare_prices_in_euros_with_the_dutch_electricity_price);
	tcase_add_test(tc, every_task_writes_a_spec_the_parser_reads);
	tcase_add_test(tc, the_model_suggested_is_the_smallest_dense_one_an_api_host_serves);
	tcase_add_test(tc, unknown_flags_and_values_are_refused_with_the_nearest);
	tcase_add_test(tc, an_existing_file_is_kept_without_force);
	tcase_add_test(tc, without_a_terminal_or_yes_a_missing_answer_names_its_flag);
	tcase_add_test(tc, the_questions_are_asked_and_answered_on_a_terminal);
	suite_add_tcase(s, tc);
	return s;
}
