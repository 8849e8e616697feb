/* check_yamlread.c — planner/yamlread.c, the job spec's value reader,
 * through jobspec_parse: text refuses control characters (every single-
 * line value; run.command keeps newlines and tabs) and numbers refuse
 * every numeral that is not plain decimal, each at file:line:column with
 * the fix (issue 26). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "testutil.h"
#include "util.h"

/* Parses text as "t.yaml"; returns the error (malloc'd), NULL when it
 * parsed. */
static char *parse_err(const char *text)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", text, strlen(text), test_ref(), &spec, &err);
	ck_assert_int_eq(rc, err ? PLANNER_EINPUT : PLANNER_OK);
	jobspec_free(spec);
	return err;
}

/* Each single-line text key of the spec, with %s where its value goes (a
 * double-quoted YAML scalar's inside), on line 3 or in the job on line 4,
 * and the column the value starts at. */
static const struct {
	const char *spec;
	int line, col;
} text_keys[] = {
    {"version: 1\nproviders: [aws, acme]\nquotes:\n  - {provider: \"%s\", gpu: H100 SXM, count: 1, "
     "price_per_hour: 2}\njobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: 5}\n",
     4, 16},
    {"version: 1\njobs:\n  - name: \"%s\"\n    model: llama-3.1-8b\n    hours_per_month: 5\n", 3,
     11},
    {"version: 1\njobs:\n  - name: a\n    model: \"%s\"\n    hours_per_month: 5\n", 4, 12},
    {"version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n    hours_per_month: 5\n"
     "    regions: [\"%s\"]\n",
     6, 15},
    {"version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n    hours_per_month: 5\n"
     "    engine: \"%s\"\n",
     6, 13},
    {"version: 1\ntimezone: \"%s\"\njobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: 5}\n",
     2, 11},
    {"version: 1\nowned:\n  - {gpu: \"%s\", count: 1}\njobs:\n  - {name: a, model: llama-3.1-8b, "
     "hours_per_month: 5}\n",
     3, 11},
    {"version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n    hours_per_month: 5\n"
     "    run: {command: x, image: \"%s\"}\n",
     6, 30},
    {"version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n    hours_per_month: 5\n"
     "    task: \"%s\"\n",
     6, 11},
};

/* Hostile values as the inside of a double-quoted scalar: a YAML key after
 * a line break, C0, DEL, C1 and the line separator U+2028. */
static const char *const hostile[] = {"acme\\nsetup: touch pwned\\n#", "acme\\x01", "acme\\x7f",
                                      "acme\\x85", "acme\\x9b[31m", "acme\\u2028x", "a\\tb"};

START_TEST(control_characters_in_single_line_text_are_refused_where_they_stand)
{
	for (size_t i = 0; i < sizeof text_keys / sizeof text_keys[0]; i++) {
		for (size_t h = 0; h < sizeof hostile / sizeof hostile[0]; h++) {
			char *text = xasprintf(text_keys[i].spec, hostile[h]);
			char *err = parse_err(text), *where = xasprintf(
			                                     "t.yaml:%d:%d: ", text_keys[i].line,
			                                     text_keys[i].col);
			ck_assert_msg(err && !strncmp(err, where, strlen(where)) &&
			                  strstr(err, "holds the control character U+") &&
			                  (strstr(err, "; write the value on one line") ||
			                   strstr(err, "; remove it: a name or value takes printable")),
			              "%s: %s", text, err ? err : "accepted");
			/* the message itself carries no control character */
			for (const char *p = err; *p; p++)
				ck_assert_msg((unsigned char)*p >= 0x20 && *p != 0x7f, "%s", err);
			free(where);
			free(err);
			free(text);
		}
	}
}
END_TEST

START_TEST(a_command_keeps_newlines_and_tabs_but_no_other_control_character)
{
	static const char head[] = "version: 1\njobs:\n  - name: a\n    model: llama-3.1-8b\n"
	                           "    hours_per_month: 5\n    run: {command: \"%s\"}\n";
	char *text = xasprintf(head, "set -e\\n\\tpython a.py\\n");
	struct jobspec *spec = NULL;
	char *err = NULL;
	ck_assert_int_eq(jobspec_parse("t.yaml", text, strlen(text), test_ref(), &spec, &err),
	                 PLANNER_OK);
	ck_assert_str_eq(spec->jobs[0].run_command, "set -e\n\tpython a.py\n");
	jobspec_free(spec);
	free(text);
	static const char *const bad[] = {"a\\rb", "a\\x1b[2J", "a\\x7f", "a\\x85", "a\\u2029"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		text = xasprintf(head, bad[i]);
		err = parse_err(text);
		ck_assert_msg(err && !strncmp(err, "t.yaml:6:20: 'command' in run of job 'a' holds "
		                                   "the control character U+",
		                              55) &&
		                  strstr(err, "; remove it: a command takes printable text, "
		                              "newlines and tabs"),
		              "%s: %s", bad[i], err ? err : "accepted");
		free(err);
		free(text);
	}
}
END_TEST

/* Numbers in each kind of numeric key: a count, hours, a token count, a
 * price, the fx rate, growth and the context. */
static const char *const number_keys[] = {
    "version: 1\nowned:\n  - {gpu: RTX 4090, count: %s}\njobs:\n  - {name: a, model: "
    "llama-3.1-8b, hours_per_month: 5}\n",
    "version: 1\njobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: %s}\n",
    "version: 1\njobs:\n  - {name: a, model: llama-3.1-8b, tokens_per_month: {input: %s, output: "
    "1M}}\n",
    "version: 1\nelectricity_per_kwh: %s\njobs:\n  - {name: a, model: llama-3.1-8b, "
    "hours_per_month: 5}\n",
    "version: 1\ncurrency: EUR\nfx: {EUR: %s}\njobs:\n  - {name: a, model: llama-3.1-8b, "
    "hours_per_month: 5}\n",
    "version: 1\ngrowth: %s\njobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: 5}\n",
    "version: 1\njobs:\n  - {name: a, model: llama-3.1-8b, hours_per_month: 5, context: %s}\n",
};

START_TEST(numbers_not_in_plain_decimal_are_refused_with_the_decimal_to_write)
{
	static const struct {
		const char *numeral, *fix;
	} cases[] = {
	    {"0x10", "a hexadecimal numeral; write 16 in decimal"},
	    {"0x1p4", "a hexadecimal numeral; write 16 in decimal"},
	    {"010", "a number with a leading zero; write 10 without the leading zero (YAML 1.1 "
	            "reads 010 as octal, 8)"},
	    {"0b10000", "a binary numeral; write 16 in decimal"},
	    {"0o20", "an octal numeral; write 16 in decimal"},
	    {"inf", "not a finite number; write a finite number in decimal"},
	    {".nan", "not a finite number; write a finite number in decimal"},
	};
	for (size_t k = 0; k < sizeof number_keys / sizeof number_keys[0]; k++) {
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			char *text = xasprintf(number_keys[k], cases[i].numeral);
			char *err = parse_err(text);
			ck_assert_msg(err && !strncmp(err, "t.yaml:", 7) && strstr(err, cases[i].fix),
			              "%s: %s", text, err ? err : "accepted");
			free(err);
			free(text);
		}
	}
	/* the command line's counts (fit --context, offers --min-vram) too */
	double v = 0;
	ck_assert(!parse_count("0x10", &v) && !parse_count("010", &v) && !parse_hours("0x1p4", &v));
}
END_TEST

START_TEST(decimal_numbers_and_suffixes_still_read)
{
	static const char *const ok[] = {"0.5", "5", "1e1", "7.5", "+3"};
	for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
		char *text = xasprintf(number_keys[1], ok[i]), *err = parse_err(text);
		ck_assert_msg(!err, "%s: %s", ok[i], err);
		free(text);
	}
	char *err = parse_err("version: 1\nelectricity_per_kwh: 0\njobs:\n  - {name: a, model: "
	                      "llama-3.1-8b, tokens_per_month: {input: 1.5B, output: 200K}, "
	                      "context: 32K}\n");
	ck_assert_msg(!err, "%s", err);
	double v = 0;
	ck_assert(parse_count("2M", &v) && v == 2e6 && parse_count("0e3", &v) && v == 0);
}
END_TEST

Suite *yamlread_suite(void)
{
	Suite *s = suite_create("yamlread");
	TCase *tc = tcase_create("values");
	tcase_add_test(tc, control_characters_in_single_line_text_are_refused_where_they_stand);
	tcase_add_test(tc, a_command_keeps_newlines_and_tabs_but_no_other_control_character);
	tcase_add_test(tc, numbers_not_in_plain_decimal_are_refused_with_the_decimal_to_write);
	tcase_add_test(tc, decimal_numbers_and_suffixes_still_read);
	suite_add_tcase(s, tc);
	return s;
}
