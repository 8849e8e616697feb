/* check_spec_set.c — `--set KEY=VALUE` overrides (planner/spec_set.c):
 * values land where the key path says, keys are created where absent,
 * entries are found by name, gpu or index, and a bad override gets the
 * reader's own error, naming the override. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "testutil.h"
#include "util.h"

#define SPEC                                                                                       \
	"version: 1\nowned: [{gpu: RTX 4090, count: 1}]\n"                                         \
	"buy: [{gpu: RTX 5090, price: 2400}]\n"                                                    \
	"jobs:\n - name: bot\n   model: llama-3.1-8b\n   precision: q4_k_m\n"                      \
	"   tokens_per_month: {input: 100M, output: 10M}\n"                                        \
	" - {name: nightly, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 40}\n"

static int load(const char *const *sets, size_t n, struct jobspec **spec, char **err)
{
	*err = NULL;
	return jobspec_parse_set("t.yaml", SPEC, strlen(SPEC), test_ref(), sets, n, spec, err);
}

START_TEST(a_set_replaces_a_value_the_file_gives)
{
	const char *sets[] = {"jobs.bot.tokens_per_month.input=400M", "buy.0.price=2000",
	                      "owned.rtx 4090.count=3"};
	struct jobspec *spec;
	char *err;
	ck_assert_msg(load(sets, 3, &spec, &err) == PLANNER_OK, "%s", err);
	ck_assert_double_eq(spec->jobs[0].input_tokens, 400e6);
	ck_assert_double_eq(spec->jobs[0].output_tokens, 10e6);
	ck_assert_double_eq_tol(spec->buy[0].price, 2000, 1e-9);
	ck_assert_int_eq(spec->owned[0].count, 3);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_set_creates_keys_and_mappings_the_file_lacks)
{
	const char *sets[] = {"costs.host.price=3000", "jobs.nightly.schedule.window=22:00-06:00",
	                      "regions=[eu, us]", "costs.resale_percent=25"};
	struct jobspec *spec;
	char *err;
	ck_assert_msg(load(sets, 4, &spec, &err) == PLANNER_OK, "%s", err);
	ck_assert_double_eq_tol(spec->costs.host_price, 3000, 1e-9);
	ck_assert_int_eq(spec->costs.host_gpus, 4); /* the default beside it */
	ck_assert_double_eq_tol(spec->costs.resale_percent, 25, 1e-9);
	ck_assert_int_eq(spec->jobs[1].sched.window_start, 22 * 60);
	ck_assert_int_eq(spec->n_regions, 2);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_later_of_two_sets_of_one_key_wins)
{
	const char *sets[] = {"jobs.1.hours_per_month=50", "jobs.nightly.hours_per_month=60"};
	struct jobspec *spec;
	char *err;
	ck_assert_msg(load(sets, 2, &spec, &err) == PLANNER_OK, "%s", err);
	ck_assert_double_eq_tol(spec->jobs[1].hours_per_month, 60, 1e-9);
	jobspec_free(spec);
}
END_TEST

/* Each bad override: the message names it and says what is wrong. */
START_TEST(a_bad_set_gets_the_readers_error_naming_the_override)
{
	static const struct {
		const char *set, *want;
	} cases[] = {
	    {"jobs.bot.tokens_per_month.inpt=4M", "--set jobs.bot.tokens_per_month.inpt=4M: "
	                                          "unknown key 'inpt'"},
	    {"jobs.bot.context=lots", "--set jobs.bot.context=lots: "},
	    {"jobs.nobody.hours_per_month=3", "no entry 'nobody' in jobs"},
	    {"costs.resale_percent=150", "resale_percent"},
	    {"jobs.bot.model.id=x", "'model' holds a value, not a mapping"},
	    {"=5", "write KEY=VALUE"},
	    {"buy.7.price=1", "no entry '7' in buy"},
	    {"costs.host={price: [}", "the value is not YAML"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		const char *sets[] = {cases[i].set};
		struct jobspec *spec = NULL;
		char *err;
		ck_assert_int_eq(load(sets, 1, &spec, &err), PLANNER_EINPUT);
		ck_assert_ptr_null(spec);
		ck_assert_msg(err && strstr(err, cases[i].want) && !strncmp(err, "t.yaml: --set ", 14),
		              "%s: %s", cases[i].set, err);
		free(err);
	}
}
END_TEST

/* A segment that is a name is that name, even a number; a number that
 * names nothing is an index; entries sharing a name are refused. */
START_TEST(a_name_beats_an_index_and_a_shared_name_is_refused_with_its_indexes)
{
	static const char text[] =
	    "version: 1\nowned:\n  - {gpu: A100 80GB, count: 1}\n  - {gpu: A100 80GB, count: 2}\n"
	    "jobs:\n - {name: \"1\", model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 5}\n"
	    " - {name: bot, model: llama-3.1-8b, precision: q4_k_m, hours_per_month: 6}\n";
	const char *sets[] = {"jobs.1.hours_per_month=50", "jobs.0.hours_per_month=7",
	                      "owned.1.count=4"};
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_msg(jobspec_parse_set("t.yaml", text, strlen(text), test_ref(), sets, 3, &spec,
	                                &err) == PLANNER_OK,
	              "%s", err);
	/* "1" is the job named 1 (index 0), which the later "0" then edits */
	ck_assert_double_eq_tol(spec->jobs[0].hours_per_month, 7, 1e-9);
	ck_assert_double_eq_tol(spec->jobs[1].hours_per_month, 6, 1e-9);
	ck_assert_int_eq(spec->owned[1].count, 4);
	jobspec_free(spec);
	const char *shared[] = {"owned.A100 80GB.count=3"};
	spec = NULL;
	ck_assert_int_eq(
	    jobspec_parse_set("t.yaml", text, strlen(text), test_ref(), shared, 1, &spec, &err),
	    PLANNER_EINPUT);
	ck_assert_ptr_null(spec);
	ck_assert_msg(err && strstr(err, "t.yaml: --set owned.A100 80GB.count=3: owned has 2 "
	                                 "entries named 'A100 80GB' (0, 1); use owned.0 or "
	                                 "owned.1"),
	              "%s", err);
	free(err);
}
END_TEST

Suite *spec_set_suite(void)
{
	Suite *s = suite_create("spec_set");
	TCase *tc = tcase_create("overrides");
	tcase_add_test(tc, a_set_replaces_a_value_the_file_gives);
	tcase_add_test(tc, a_set_creates_keys_and_mappings_the_file_lacks);
	tcase_add_test(tc, the_later_of_two_sets_of_one_key_wins);
	tcase_add_test(tc, a_bad_set_gets_the_readers_error_naming_the_override);
	tcase_add_test(tc, a_name_beats_an_index_and_a_shared_name_is_refused_with_its_indexes);
	suite_add_tcase(s, tc);
	return s;
}
