/* check_jobspec.c — the YAML job spec (planner/jobspec.c and its key
 * tables): every key read, every default, and every mistake reported at its
 * file:line:column with a fix; docs/spec.md is what the key tables render,
 * and names the same keys. Fixtures live in tests/fixtures/jobs/. */
#include <check.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jobspec.h"
#include "testutil.h"
#include "util.h"

#define FIX "tests/fixtures/jobs/"

/* The first lines of a spec with one job; a test appends that job's keys,
 * which then start on line 4, column 5. */
#define HEAD "jobs:\n  - name: bot\n    model: llama-3.1-8b\n"

static struct jobspec *parse_ok(const char *text)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", text, strlen(text), test_ref(), &spec, &err);
	ck_assert_msg(rc == PLANNER_OK, "unexpected error: %s", err ? err : "?");
	ck_assert_ptr_nonnull(spec);
	free(err);
	return spec;
}

/* Asserts the message: the rc, where it points, each word, and the house
 * style (lowercase start, "what; fix", no full stop). */
static void check_message(int rc, struct jobspec *spec, char *err, const char *where, va_list ap)
{
	ck_assert_int_eq(rc, PLANNER_EINPUT);
	ck_assert_ptr_null(spec);
	ck_assert_ptr_nonnull(err);
	size_t wl = strlen(where);
	ck_assert_msg(strncmp(err, where, wl) == 0, "expected '%s' at the start of: %s", where,
	              err);
	const char *msg = err + wl;
	ck_assert_msg(!(*msg >= 'A' && *msg <= 'Z'), "message starts lowercase: %s", err);
	ck_assert_msg(strstr(msg, "; ") != NULL, "message has a fix after '; ': %s", err);
	ck_assert_msg(err[strlen(err) - 1] != '.', "message ends without a full stop: %s", err);
	for (const char *w; (w = va_arg(ap, const char *));)
		ck_assert_msg(strstr(msg, w) != NULL, "expected '%s' in: %s", w, err);
	free(err);
}

/* Parses text as "t.yaml"; expects an error starting "t.yaml:L:C: " (given
 * as where) that contains each of the NULL-terminated words. */
static void bad(const char *text, const char *where, ...)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_parse("t.yaml", text, strlen(text), test_ref(), &spec, &err);
	va_list ap;
	va_start(ap, where);
	check_message(rc, spec, err, where, ap);
	va_end(ap);
}

static void bad_file(const char *path, const char *where, ...)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	int rc = jobspec_load(path, test_ref(), &spec, &err);
	va_list ap;
	va_start(ap, where);
	check_message(rc, spec, err, where, ap);
	va_end(ap);
}

/* ---- good specs ---------------------------------------------------- */

/* fx: auto takes the reference rates (the snapshot's in tests: ECB,
 * 2025-05-09, 1.1252 USD per EUR) for the spec's currency. */
START_TEST(fx_auto_resolves_the_currency_with_the_reference_rates)
{
	struct jobspec *spec = NULL;
	char *err = NULL;
	const char *text = "currency: EUR\nfx: auto\njobs:\n  - name: a\n    model: llama-3.1-8b\n"
			   "    task: inference\n    hours_per_month: 10\n";
	ck_assert_msg(jobspec_parse("t.yaml", text, strlen(text), test_ref(), &spec, &err) ==
			  PLANNER_OK,
		      "%s", err);
	ck_assert(spec->fx_auto);
	ck_assert_double_eq_tol(spec->usd_to_currency, 1 / 1.1252, 1e-12);
	ck_assert_double_eq_tol(spec->electricity_per_kwh, 0.16 / 1.1252, 1e-12);
	jobspec_free(spec);
}
END_TEST

START_TEST(a_spec_with_every_key_is_read_field_by_field)
{
	struct jobspec *s = NULL;
	char *err = NULL;
	ck_assert_int_eq(jobspec_load(FIX "full.yaml", test_ref(), &s, &err), PLANNER_OK);
	ck_assert_ptr_null(err);
	ck_assert_str_eq(s->path, FIX "full.yaml");
	ck_assert_int_eq(s->version, 1);
	ck_assert_str_eq(s->currency, "EUR");
	ck_assert_uint_eq(s->n_fx, 2);
	ck_assert_str_eq(s->fx[0].code, "EUR");
	ck_assert_double_eq_tol(s->fx[0].per_usd, 0.92, 1e-12);
	ck_assert_str_eq(s->fx[1].code, "GBP");
	ck_assert_double_eq_tol(s->usd_to_currency, 0.92, 1e-12);
	ck_assert_str_eq(s->timezone, "Europe/Amsterdam");
	ck_assert_double_eq_tol(s->electricity_per_kwh, 0.30, 1e-12);
	ck_assert(!s->electricity_default);
	ck_assert_double_eq_tol(s->pue, 1.2, 1e-12);
	ck_assert_double_eq(s->amortize_months, 24);
	ck_assert_uint_eq(s->n_providers, 3);
	ck_assert_str_eq(s->providers[0], "lambda");
	ck_assert_str_eq(s->providers[1], "runpod");
	ck_assert_str_eq(s->providers[2], "acme");

	ck_assert_uint_eq(s->n_owned, 2);
	ck_assert_str_eq(s->owned[0].gpu->name, "RTX 4090");
	ck_assert_int_eq(s->owned[0].count, 2);
	ck_assert_double_eq(s->owned[0].watts, s->owned[0].gpu->watts);
	ck_assert_int_eq(s->owned[0].pos.line, 12);
	ck_assert_int_eq(s->owned[0].pos.column, 5);
	ck_assert_str_eq(s->owned[1].gpu->name, "A100 80GB");
	ck_assert_double_eq(s->owned[1].watts, 300);

	ck_assert(s->has_buy);
	ck_assert_uint_eq(s->n_buy, 2);
	ck_assert_str_eq(s->buy[0].gpu->name, "RTX 5090");
	ck_assert_double_eq(s->buy[0].price, 2400);
	ck_assert_double_eq(s->buy[0].watts, 575);
	ck_assert_int_eq(s->buy[0].max_count, 8);
	ck_assert_str_eq(s->buy[1].gpu->name, "H100 SXM");
	/* No price given: the reference price, converted to EUR. */
	ck_assert_double_eq_tol(s->buy[1].price, s->buy[1].gpu->price_usd * 0.92, 1e-6);
	ck_assert_int_eq(s->buy[1].max_count, 4);

	ck_assert_uint_eq(s->n_quotes, 1);
	ck_assert_str_eq(s->quotes[0].provider, "acme");
	ck_assert_str_eq(s->quotes[0].gpu->name, "H100 SXM"); /* via the alias "H100 80GB" */
	ck_assert_int_eq(s->quotes[0].count, 8);
	ck_assert_double_eq(s->quotes[0].price_per_hour, 16);
	ck_assert(s->quotes[0].spot);

	ck_assert_uint_eq(s->n_jobs, 4);
	const struct job *j = &s->jobs[0];
	ck_assert_str_eq(j->name, "support-bot");
	ck_assert_str_eq(j->model_ref, "llama-3.1-8b");
	ck_assert_str_eq(j->model.id, "llama-3.1-8b");
	ck_assert_int_eq(j->model.layers, 32);
	ck_assert_str_eq(j->precision, "q4_k_m");
	ck_assert_int_eq(j->task, TASK_INFERENCE);
	ck_assert_int_eq(j->context, 8192);
	ck_assert_int_eq(j->batch, 4);
	ck_assert(j->has_hours);
	ck_assert_double_eq(j->hours_per_month, 300);
	ck_assert(j->has_tokens);
	ck_assert_double_eq(j->input_tokens, 200e6);
	ck_assert_double_eq(j->output_tokens, 1.5e9);
	ck_assert_int_eq(j->data, DATA_CONFIDENTIAL);
	ck_assert(j->interruptible);
	ck_assert(j->any_accelerator);
	ck_assert_uint_eq(j->n_api_models, 2);
	ck_assert_str_eq(j->api_models[0], "openai/gpt-4o-mini");
	ck_assert_str_eq(j->api_models[1], "anthropic/claude-3-5-haiku");
	ck_assert_int_eq(j->sched.window_start, 22 * 60);
	ck_assert_int_eq(j->sched.window_end, 6 * 60);
	ck_assert_uint_eq(j->sched.days_mask, 0x1f);
	ck_assert_int_eq(j->sched.deadline, 25);
	ck_assert_int_eq(j->sched.priority, 10);
	ck_assert_double_eq(j->sched.min_run, 2);
	ck_assert_double_eq(j->sched.max_run, 6);
	ck_assert_str_eq(j->run_command, "vllm serve meta-llama/Llama-3.1-8B-Instruct");
	ck_assert_str_eq(j->run_image, "vllm/vllm-openai:latest");
	ck_assert_int_eq(j->pos.line, 20);
	ck_assert_int_eq(j->pos.column, 5);
	ck_assert_int_eq(j->model_pos.line, 21);
	ck_assert_int_eq(j->model_pos.column, 12);

	j = &s->jobs[1];
	ck_assert_str_eq(j->name, "tune-70b");
	ck_assert_str_eq(j->model.id, "llama-3.1-70b");
	ck_assert_int_eq(j->task, TASK_FINETUNE_QLORA);
	ck_assert_str_eq(j->precision, "int4");
	ck_assert_int_eq(j->data, DATA_RESTRICTED);
	ck_assert_int_eq(j->sched.window_start, 0);
	ck_assert_int_eq(j->sched.window_end, 1440);
	ck_assert_uint_eq(j->sched.days_mask, 0x60);
	ck_assert(!j->has_tokens);

	j = &s->jobs[2];
	ck_assert_str_eq(j->model.id, "mixtral-8x7b");
	ck_assert(!j->has_hours);
	ck_assert(j->has_tokens);
	ck_assert_double_eq(j->input_tokens, 0);
	ck_assert_double_eq(j->output_tokens, 3e9);

	j = &s->jobs[3];
	ck_assert_str_eq(j->model.id, "qwen2.5-72b");
	ck_assert_str_eq(j->precision, "fp8");
	ck_assert_int_eq(j->task, TASK_FINETUNE_LORA);
	ck_assert_double_eq(j->hours_per_month, 744);
	jobspec_free(s);
}
END_TEST

/* A window's hours in compare's nominal month (31 days, 744 h): its daily
 * hours x the share of the week's days it may start on x 31. */
START_TEST(a_window_s_hours_in_the_month_are_its_daily_hours_on_its_days_over_31_days)
{
	struct jobspec *spec = parse_ok(
	    "version: 1\njobs:\n"
	    "  - {name: night, model: llama-3.1-8b, hours_per_month: 10,"
	    " schedule: {window: \"22:00-06:00\"}}\n"
	    "  - {name: office, model: llama-3.1-8b, hours_per_month: 10,"
	    " schedule: {window: \"08:00-18:00\", days: weekdays}}\n"
	    "  - {name: always, model: llama-3.1-8b, hours_per_month: 10}\n"
	    "  - {name: sundays, model: llama-3.1-8b, hours_per_month: 10,"
	    " schedule: {window: \"00:00-24:00\", days: [sun]}}\n");
	ck_assert_int_eq(schedule_window_minutes(&spec->jobs[0].sched), 480);
	ck_assert_double_eq_tol(schedule_month_hours(&spec->jobs[0].sched), 248, 1e-9);
	ck_assert_double_eq_tol(schedule_month_hours(&spec->jobs[1].sched), 10 * 5 / 7.0 * 31,
	                        1e-9);
	ck_assert_double_eq_tol(schedule_month_hours(&spec->jobs[2].sched), 744, 1e-9);
	ck_assert_double_eq_tol(schedule_month_hours(&spec->jobs[3].sched), 24 / 7.0 * 31, 1e-9);
	jobspec_free(spec);
}
END_TEST

#define COUNTRY_JOB "jobs: [{name: a, model: llama-3.1-8b, hours_per_month: 10}]\n"

START_TEST(a_country_sets_currency_fx_zone_and_power_price_from_its_row)
{
	const struct country *nl = refdata_country(test_ref(), "nl");
	ck_assert_ptr_nonnull(nl);
	struct jobspec *s = parse_ok("version: 1\ncountry: NL\n" COUNTRY_JOB);
	ck_assert_str_eq(s->currency, nl->currency);
	ck_assert(s->fx_auto && s->fx_from_country && s->timezone_from_country);
	ck_assert_str_eq(s->timezone, nl->zones[0]);
	ck_assert(s->electricity_default);
	ck_assert_double_eq(s->electricity_per_kwh, nl->business.per_kwh);
	jobspec_free(s);
	s = parse_ok("version: 1\ncountry: NL\ncountry_use: household\n" COUNTRY_JOB);
	ck_assert_double_eq(s->electricity_per_kwh, nl->household.per_kwh);
	jobspec_free(s);
	/* What the spec gives wins. */
	s = parse_ok("version: 1\ncountry: NL\ncurrency: USD\ntimezone: UTC\n"
	             "electricity_per_kwh: 0.3\n" COUNTRY_JOB);
	ck_assert_str_eq(s->currency, "USD");
	ck_assert(!s->fx_auto && !s->timezone_from_country && !s->electricity_default);
	ck_assert_str_eq(s->timezone, "UTC");
	ck_assert_double_eq(s->electricity_per_kwh, 0.3);
	jobspec_free(s);
}
END_TEST

START_TEST(a_country_of_several_zones_or_unknown_is_refused_with_the_fix)
{
	bad("version: 1\ncountry: US\n" COUNTRY_JOB, "t.yaml:2:10: ", "several time zones",
	    "timezone:", "America/New_York", NULL);
	bad("version: 1\ncountry: NX\n" COUNTRY_JOB, "t.yaml:2:10: ", "unknown country 'NX'",
	    "did you mean 'NL'", NULL);
	bad("version: 1\ncountry_use: household\n" COUNTRY_JOB, "t.yaml:2:14: ", "no country:",
	    NULL);
	struct jobspec *s = parse_ok("version: 1\ncountry: US\ntimezone: America/Chicago\n"
	                             COUNTRY_JOB);
	ck_assert_str_eq(s->currency, "USD");
	jobspec_free(s);
}
END_TEST

START_TEST(omitted_keys_take_their_defaults)
{
	struct jobspec *s = NULL;
	char *err = NULL;
	ck_assert_int_eq(jobspec_load(FIX "minimal.yaml", test_ref(), &s, &err), PLANNER_OK);
	ck_assert_int_eq(s->version, 1);
	ck_assert_str_eq(s->currency, "USD");
	ck_assert_uint_eq(s->n_fx, 0);
	ck_assert_double_eq(s->usd_to_currency, 1);
	ck_assert_str_eq(s->timezone, "UTC");
	ck_assert_double_eq(s->electricity_per_kwh, JOBSPEC_DEFAULT_ELECTRICITY_USD);
	ck_assert(s->electricity_default);
	ck_assert_double_eq(s->pue, 1.0);
	ck_assert_double_eq(s->amortize_months, 36);
	ck_assert_ptr_null(s->providers);
	ck_assert_uint_eq(s->n_owned, 0);
	ck_assert(!s->has_buy);
	ck_assert_uint_eq(s->n_quotes, 0);
	ck_assert_uint_eq(s->n_jobs, 1);
	const struct job *j = &s->jobs[0];
	ck_assert_str_eq(j->precision, "bf16");
	ck_assert_int_eq(j->task, TASK_INFERENCE);
	ck_assert_int_eq(j->context, 4096);
	ck_assert_int_eq(j->batch, 1);
	ck_assert(j->has_hours && !j->has_tokens);
	ck_assert_int_eq(j->data, DATA_PUBLIC);
	ck_assert(!j->interruptible);
	ck_assert(!j->any_accelerator);
	ck_assert_ptr_null(j->api_models);
	ck_assert_int_eq(j->sched.window_start, 0);
	ck_assert_int_eq(j->sched.window_end, 1440);
	ck_assert_uint_eq(j->sched.days_mask, DAYS_ALL);
	ck_assert_int_eq(j->sched.deadline, 0);
	ck_assert_int_eq(j->sched.priority, 0);
	ck_assert_double_eq(j->sched.min_run, 0);
	ck_assert_double_eq(j->sched.max_run, 0);
	ck_assert_ptr_null(j->run_command);
	ck_assert_ptr_null(j->run_image);
	jobspec_free(s);
}
END_TEST

START_TEST(a_config_json_path_is_read_relative_to_the_spec)
{
	struct jobspec *s = NULL;
	char *err = NULL;
	int rc = jobspec_load(FIX "config-model.yaml", test_ref(), &s, &err);
	ck_assert_msg(rc == PLANNER_OK, "%s", err ? err : "?");
	const struct job *j = &s->jobs[0];
	ck_assert_str_eq(j->model_ref, "qwen2.5-0.5b/config.json");
	ck_assert_int_eq(j->model.layers, 24);
	ck_assert_int_eq(j->model.hidden, 896);
	ck_assert_int_eq(j->model.kv_heads, 2);
	ck_assert_int_eq(j->model.max_context, 32768);
	ck_assert_int_eq(j->context, 32768);
	ck_assert_double_eq(j->input_tokens, 50e6);
	/* Qwen2.5-0.5B has 0.49B parameters (Hugging Face model card). */
	ck_assert_double_eq_tol(j->model.params_total, 0.494e9, 0.02e9);
	jobspec_free(s);
}
END_TEST

START_TEST(sizes_accept_suffixes)
{
	struct jobspec *s = parse_ok(HEAD "    tokens_per_month: {input: 2K, output: 1.5B}\n"
	                                  "  - name: b\n    model: llama-3.1-8b\n"
	                                  "    tokens_per_month: {input: 3e6, output: 2T}\n"
	                                  "  - name: c\n    model: llama-3.1-8b\n"
	                                  "    hours_per_month: \"12.5h\"\n");
	ck_assert_double_eq(s->jobs[0].input_tokens, 2000);
	ck_assert_double_eq(s->jobs[0].output_tokens, 1.5e9);
	ck_assert_double_eq(s->jobs[1].input_tokens, 3e6);
	ck_assert_double_eq(s->jobs[1].output_tokens, 2e12);
	ck_assert_double_eq(s->jobs[2].hours_per_month, 12.5);
	jobspec_free(s);
}
END_TEST

START_TEST(day_words_and_windows_cover_the_week_and_midnight)
{
	struct jobspec *s = parse_ok(
	    HEAD
	    "    hours_per_month: 10\n    schedule: {window: \"22:00-00:00\", days: weekdays}\n"
	    "  - {name: b, model: llama-3.1-8b, hours_per_month: 1, schedule: {days: [Saturday, "
	    "sun, mon]}}\n"
	    "  - {name: c, model: llama-3.1-8b, hours_per_month: 1, schedule: {days: all, "
	    "window: \"9:30 - 17:00\"}}\n");
	ck_assert_int_eq(s->jobs[0].sched.window_start, 22 * 60);
	ck_assert_int_eq(s->jobs[0].sched.window_end, 1440);
	ck_assert_uint_eq(s->jobs[0].sched.days_mask, 0x1f);
	ck_assert_uint_eq(s->jobs[1].sched.days_mask, 0x61);
	ck_assert_uint_eq(s->jobs[2].sched.days_mask, DAYS_ALL);
	ck_assert_int_eq(s->jobs[2].sched.window_start, 9 * 60 + 30);
	ck_assert_int_eq(s->jobs[2].sched.window_end, 17 * 60);
	jobspec_free(s);
}
END_TEST

START_TEST(a_foreign_currency_converts_the_default_electricity_price)
{
	struct jobspec *s =
	    parse_ok("currency: gbp\nfx: {gbp: 0.79}\n" HEAD "    hours_per_month: 10\n");
	ck_assert_str_eq(s->currency, "GBP");
	ck_assert_double_eq_tol(s->usd_to_currency, 0.79, 1e-12);
	ck_assert_double_eq_tol(s->electricity_per_kwh, JOBSPEC_DEFAULT_ELECTRICITY_USD * 0.79,
	                        1e-12);
	ck_assert(s->electricity_default);
	jobspec_free(s);
}
END_TEST

START_TEST(empty_sections_and_a_single_api_model_are_accepted)
{
	struct jobspec *s = parse_ok("owned:\nquotes: []\nbuy: []\n" HEAD
	                             "    hours_per_month: 10\n    api_models: openai/gpt-4o\n");
	ck_assert_uint_eq(s->n_owned, 0);
	ck_assert(s->has_buy);
	ck_assert_uint_eq(s->n_buy, 0);
	ck_assert_uint_eq(s->jobs[0].n_api_models, 1);
	ck_assert_str_eq(s->jobs[0].api_models[0], "openai/gpt-4o");
	jobspec_free(s);
}
END_TEST

START_TEST(free_accepts_null_and_names_read_back)
{
	jobspec_free(NULL);
	ck_assert_str_eq(task_name(TASK_FINETUNE_QLORA), "finetune-qlora");
	ck_assert_str_eq(data_class_name(DATA_RESTRICTED), "restricted");
}
END_TEST

/* ---- bad files ------------------------------------------------------- */

START_TEST(a_missing_file_is_reported_with_the_reason)
{
	struct jobspec *s = NULL;
	char *err = NULL;
	ck_assert_int_eq(jobspec_load(FIX "no-such.yaml", test_ref(), &s, &err), PLANNER_EINPUT);
	ck_assert_ptr_null(s);
	ck_assert_str_eq(err, "cannot open " FIX
	                      "no-such.yaml: No such file or directory; check the path");
	free(err);
}
END_TEST

START_TEST(a_spec_that_is_not_a_regular_file_or_too_large_is_refused_at_once)
{
	/* /dev/zero was read until malloc failed; a FIFO with no writer
	 * blocked for ever. Both are refused before a byte is read. */
	bad_file("/dev/zero", "/dev/zero is not a regular file", NULL);
	char *dir = test_tmpdir(), *fifo = xasprintf("%s/spec.fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	bad_file(fifo, fifo, "is not a regular file", NULL);
	bad_file(dir, dir, "is not a regular file", NULL);
	/* One byte past the 64 MiB cap (sparse: no memory, no disk): refused
	 * by its size before a byte is read, through the binary. */
	char *path = xasprintf("%s/big.yaml", dir), *err = NULL;
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), (64L << 20) + 1), 0);
	ck_assert_int_eq(fclose(f), 0);
	bad_file(path, path, "is 65 MiB; specs are read up to 64 MiB", NULL);
	const char *argv[] = {"compare", path, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 1);
	char *want = xasprintf("%s is 65 MiB; specs are read up to 64 MiB", path);
	ck_assert_msg(strstr(err, want), "%s", err);
	free(want);
	free(err);
	unlink(path);
	free(path);
	free(fifo);
	free(dir);
}
END_TEST

/* 10,000 jobs, the most a list holds, in block style as YAML libraries
 * write by default: over 4 MB, past the old 1 MiB cap, priced whole. */
START_TEST(a_block_style_spec_of_10000_jobs_is_read_and_priced)
{
	static const char *const models[][2] = {
	    {"llama-3.1-8b", "q4_k_m"}, {"qwen2.5-7b", "bf16"}, {"qwen2.5-32b", "q4_k_m"}};
	char *dir = test_tmpdir(), *path = xasprintf("%s/jobs.yaml", dir);
	char *db = xasprintf("%s/prices.db", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("version: 1\ncurrency: USD\nelectricity_per_kwh: 0.2\njobs:\n", f);
	for (int i = 0; i < 10000; i++)
		fprintf(f,
		        "  # owned by team %02d; reviewed each quarter with the cost centre\n"
		        "  - name: team-%02d-customer-service-%05d\n"
		        "    model: %s\n    precision: %s\n    task: inference\n"
		        "    context: 8192\n    tokens_per_month:\n      input: %dM\n"
		        "      output: 20M\n    data: public\n    interruptible: true\n"
		        "    accelerator: nvidia\n    regions:\n      - eu\n      - us\n"
		        "    schedule:\n      window: \"00:00-24:00\"\n    batch: 4\n",
		        i % 40, i % 40, i, models[i % 3][0], models[i % 3][1], 100 + i % 50);
	ck_assert_int_eq(fclose(f), 0);
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_gt(st.st_size, 4000000);
	ck_assert_int_lt(st.st_size, 5000000);
	char *out = NULL, *err = NULL;
	const char *argv[] = {"compare", path, "--db", db, "--quiet", NULL};
	int rc = test_run_planner(argv, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_ptr_nonnull(strstr(out, "\nteam-39-customer-service-09999  "));
	free(out);
	free(err);
	unlink(path);
	unlink(db);
	rmdir(dir);
	free(db);
	free(path);
	free(dir);
}
END_TEST

START_TEST(yaml_tags_are_refused_where_they_stand)
{
	bad("version: !!int 1\n" HEAD "    hours_per_month: 1\n", "t.yaml:1:10: ",
	    "YAML tag '!!int'", "remove it", NULL);
	bad(HEAD "    hours_per_month: !custom 5\n", "t.yaml:4:22: ", "YAML tag '!custom'", NULL);
	bad("providers: !!set {lambda}\n" HEAD "    hours_per_month: 1\n", "t.yaml:1:12: ",
	    "'!!set'", NULL);
	bad(HEAD "    hours_per_month: 1\n    data: !!binary cHVibGlj\n", "t.yaml:5:11: ",
	    "'!!binary'", NULL);
	/* An explicit !!str is what an untagged scalar is anyway. */
	jobspec_free(parse_ok(HEAD "    hours_per_month: 1\n    data: !!str public\n"));
}
END_TEST

START_TEST(an_empty_file_is_an_error)
{
	bad_file(FIX "empty.yaml", FIX "empty.yaml:1:1: ", "empty", "jobs", NULL);
	bad("# only a comment\n", "t.yaml:1:1: ", "empty", NULL);
}
END_TEST

START_TEST(a_yaml_syntax_error_names_the_place_and_the_problem)
{
	bad_file(FIX "bad-syntax.yaml", FIX "bad-syntax.yaml:5:4: ", "invalid YAML", NULL);
	bad("jobs: [a, b\n", "t.yaml:2:1: ", "invalid YAML", "flow sequence", NULL);
	bad("jobs:\n  - name: 'bot\n", "t.yaml:3:1: ", "quoted scalar from line 2, column 11",
	    NULL);
}
END_TEST

START_TEST(text_that_is_not_utf8_is_rejected)
{
	bad_file(FIX "bad-not-utf8.yaml", FIX "bad-not-utf8.yaml:3:15: ", "UTF-8", NULL);
}
END_TEST

START_TEST(a_top_level_that_is_not_a_mapping_is_an_error)
{
	bad("- a\n- b\n", "t.yaml:1:1: ", "top level is a list", "version: 1", NULL);
	bad("hello\n", "t.yaml:1:1: ", "top level is 'hello'", NULL);
}
END_TEST

START_TEST(a_spec_without_jobs_is_an_error)
{
	bad("version: 1\n", "t.yaml:1:1: ", "no 'jobs'", NULL);
	bad("jobs: []\n", "t.yaml:1:7: ", "'jobs' is empty", NULL);
	bad("jobs: 3\n", "t.yaml:1:7: ", "'jobs' must be a list", NULL);
}
END_TEST

START_TEST(unknown_keys_suggest_the_nearest_known_key)
{
	bad_file(
	    FIX "bad-typo.yaml", FIX "bad-typo.yaml:5:5: ",
	    "unknown key 'hours_per_mnth' in job 'support-bot'; did you mean 'hours_per_month'?",
	    NULL);
	bad("currancy: EUR\n" HEAD, "t.yaml:1:1: ", "unknown key 'currancy' at the top level",
	    "did you mean 'currency'", NULL);
	bad(HEAD "    hours_per_month: 1\n    schedule: {windw: \"1:00-2:00\"}\n",
	    "t.yaml:5:16: ", "unknown key 'windw' in the schedule of job 'bot'", "'window'", NULL);
	bad(HEAD "    tokens_per_month: {inptu: 5M}\n", "t.yaml:4:24: ", "unknown key 'inptu'",
	    "'input'", NULL);
	bad("owned: [{gpu: RTX 4090, cuont: 2}]\n" HEAD,
	    "t.yaml:1:25: ", "unknown key 'cuont' in owned entry 1", "'count'", NULL);
	bad(HEAD "    hours_per_month: 1\n    xyzzy: 1\n", "t.yaml:5:5: ", "unknown key 'xyzzy'",
	    "one of: name, model", NULL);
	bad(HEAD "    hours_per_month: 1\n    days: [mon]\n",
	    "t.yaml:5:5: ", "key 'days' in job 'bot' belongs under 'schedule'",
	    "schedule: {days: ...}", NULL);
}
END_TEST

START_TEST(duplicate_keys_and_job_names_are_errors)
{
	bad(HEAD "    batch: 2\n    batch: 3\n    hours_per_month: 1\n",
	    "t.yaml:5:5: ", "duplicate key 'batch' in job 'bot'", "line 4", NULL);
	bad_file(FIX "bad-duplicate-job.yaml",
	         FIX "bad-duplicate-job.yaml:6:11: ", "duplicate job name 'bot'", "line 3", NULL);
	bad("fx: {EUR: 1, eur: 2}\n" HEAD "    hours_per_month: 1\n",
	    "t.yaml:1:14: ", "duplicate key 'eur' in fx", NULL);
}
END_TEST

/* The check is a hash index now (issue 16): a repeat far from the first
 * among many jobs, past several growths of the index, names the first. */
START_TEST(a_duplicate_job_name_among_two_thousand_jobs_names_its_first_line)
{
	struct buf b = {0};
	ck_assert(buf_printf(&b, "version: 1\njobs:\n"));
	for (int i = 0; i < 2000; i++)
		ck_assert(buf_printf(&b, " - {name: j%d, model: llama-3.1-8b, hours_per_month: 1}\n",
				     i == 1999 ? 7 : i));
	bad(b.data, "t.yaml:2002:11: ", "duplicate job name 'j7'", "first on line 10", NULL);
	buf_free(&b);
}
END_TEST

START_TEST(values_of_the_wrong_type_are_errors)
{
	bad(HEAD "    batch: [1, 2]\n    hours_per_month: 1\n",
	    "t.yaml:4:12: ", "'batch' in job 'bot' must be a number, got a list", "batch: 4", NULL);
	bad(HEAD "    batch: abc\n    hours_per_month: 1\n",
	    "t.yaml:4:12: ", "must be a number, got 'abc'", NULL);
	bad(HEAD "    batch: 2.5\n    hours_per_month: 1\n", "t.yaml:4:12: ", "whole number", NULL);
	bad(HEAD "    batch:\n    hours_per_month: 1\n", "t.yaml:4:11: ", "got nothing", NULL);
	bad(HEAD "    context: {a: 1}\n    hours_per_month: 1\n", "t.yaml:4:14: ", "got a mapping",
	    NULL);
	bad(HEAD "    hours_per_month: lots\n", "t.yaml:4:22: ", "must be hours, got 'lots'", NULL);
	bad(HEAD "    tokens_per_month: {input: many}\n",
	    "t.yaml:4:31: ", "must be a token count, got 'many'", "200M", NULL);
	bad(HEAD "    tokens_per_month: 5M\n",
	    "t.yaml:4:23: ", "'tokens_per_month' in job 'bot' must be a mapping", NULL);
	bad(HEAD "    hours_per_month: 1\n    interruptible: maybe\n",
	    "t.yaml:5:20: ", "must be true or false", NULL);
	bad("jobs:\n  - name: [a]\n    model: llama-3.1-8b\n",
	    "t.yaml:2:11: ", "'name' in job 1 must be text, got a list", NULL);
	bad("jobs:\n  - just-a-name\n", "t.yaml:2:5: ", "job 1 must be a mapping", NULL);
	bad("owned: [RTX 4090]\n" HEAD, "t.yaml:1:9: ", "owned entry 1 must be a mapping", NULL);
	bad(HEAD "    hours_per_month: 1\n    api_models: [[a]]\n",
	    "t.yaml:5:18: ", "entry 1 of 'api_models'", NULL);
}
END_TEST

START_TEST(negative_zero_and_absurd_numbers_are_errors)
{
	bad(HEAD "    batch: 0\n    hours_per_month: 1\n",
	    "t.yaml:4:12: ", "'batch' in job 'bot' is zero", "1 to 4096", NULL);
	bad(HEAD "    batch: 5000\n    hours_per_month: 1\n", "t.yaml:4:12: ", "too large", "4096",
	    NULL);
	bad(HEAD "    context: 0\n    hours_per_month: 1\n", "t.yaml:4:14: ", "'context'", "zero",
	    NULL);
	bad(HEAD "    tokens_per_month: {input: -5M}\n", "t.yaml:4:31: ", "negative", "input",
	    NULL);
	bad(HEAD "    tokens_per_month: {input: 0, output: 0}\n", "t.yaml:4:23: ", "no tokens",
	    NULL);
	bad(HEAD "    hours_per_month: -3\n", "t.yaml:4:22: ", "negative", NULL);
	bad(HEAD "    hours_per_month: 0\n", "t.yaml:4:22: ", "zero", NULL);
	bad(HEAD "    hours_per_month: 800h\n", "t.yaml:4:22: ", "too large", "744", NULL);
	bad("owned: [{gpu: RTX 4090, count: 0}]\n" HEAD,
	    "t.yaml:1:32: ", "'count' in owned entry 1", "zero", NULL);
	bad("owned: [{gpu: RTX 4090, count: 1025}]\n" HEAD, "t.yaml:1:32: ", "too large", "1024",
	    NULL);
	bad("buy: [{gpu: RTX 5090, price: -1}]\n" HEAD, "t.yaml:1:30: ", "'price' in buy entry 1",
	    "negative", NULL);
	bad("quotes: [{provider: a, gpu: H100 SXM, price_per_hour: -2}]\n" HEAD,
	    "t.yaml:1:55: ", "'price_per_hour' in quote 1", "negative", NULL);
	bad("pue: 0.5\n" HEAD, "t.yaml:1:6: ", "'pue'", "1 to 3", NULL);
	bad("amortize_months: 0\n" HEAD, "t.yaml:1:18: ", "'amortize_months'", "zero", NULL);
	bad("electricity_per_kwh: -0.1\n" HEAD, "t.yaml:1:22: ", "negative", NULL);
	bad(HEAD "    batch: 1e999\n    hours_per_month: 1\n",
	    "t.yaml:4:12: ", "not a usable number", NULL);
	bad(HEAD "    batch: nan\n    hours_per_month: 1\n", "t.yaml:4:12: ", "not a finite number",
	    NULL);
	bad(HEAD "    batch: .inf\n    hours_per_month: 1\n",
	    "t.yaml:4:12: ", "not a finite number", NULL);
	bad(HEAD "    tokens_per_month: {output: 1e400}\n", "t.yaml:4:32: ", "token count", NULL);
	bad(HEAD "    tokens_per_month: {output: 5000T}\n", "t.yaml:4:32: ", "too large", NULL);
}
END_TEST

START_TEST(unknown_models_gpus_and_precisions_suggest_the_nearest)
{
	bad("jobs:\n  - name: bot\n    model: llama-3.1-8bb\n    hours_per_month: 1\n",
	    "t.yaml:3:12: ", "unknown model 'llama-3.1-8bb' in job 'bot'",
	    "did you mean 'llama-3.1-8b'", NULL);
	bad("jobs:\n  - name: bot\n    model: zzzzzzzz\n    hours_per_month: 1\n",
	    "t.yaml:3:12: ", "unknown model 'zzzzzzzz'", "config.json", NULL);
	/* A near name, and the config.json way with where to get it. */
	bad("jobs:\n  - name: bot\n    model: qwen3-33b\n    hours_per_month: 1\n",
	    "t.yaml:3:12: ", "did you mean 'qwen3-32b'? Or give the path of its Hugging Face",
	    "https://huggingface.co/ORG/NAME/resolve/main/config.json", "model: ./config.json",
	    NULL);
	bad("owned: [{gpu: RTX 4091}]\n" HEAD,
	    "t.yaml:1:15: ", "unknown GPU 'RTX 4091' in owned entry 1", "did you mean", NULL);
	bad(HEAD "    precision: q4_k_n\n    hours_per_month: 1\n",
	    "t.yaml:4:16: ", "unknown precision 'q4_k_n' in job 'bot'", "did you mean 'q4_k_m'",
	    "use fp32 bf16", "iq2_xxs", "gptq-int8 nf4 nvfp4 mxfp4", NULL);
	bad(HEAD "    task: inferense\n    hours_per_month: 1\n",
	    "t.yaml:4:11: ", "unknown task 'inferense'", "did you mean 'inference'", NULL);
	bad(HEAD "    data: secret\n    hours_per_month: 1\n",
	    "t.yaml:4:11: ", "unknown data 'secret'", "public, confidential, restricted", NULL);
	bad(HEAD "    accelerator: amd\n    hours_per_month: 1\n",
	    "t.yaml:4:18: ", "unknown accelerator 'amd'", NULL);
	bad("jobs:\n  - name: bot\n    model: nowhere/config.json\n    hours_per_month: 1\n",
	    "t.yaml:3:12: ", "cannot read model config 'nowhere/config.json'", NULL);
}
END_TEST

START_TEST(a_job_needs_a_name_a_model_and_an_amount_of_work)
{
	bad("jobs:\n  - name: bot\n    model: llama-3.1-8b\n",
	    "t.yaml:2:5: ", "job 'bot' has neither hours_per_month nor tokens_per_month", NULL);
	bad("jobs:\n  - model: llama-3.1-8b\n    hours_per_month: 1\n",
	    "t.yaml:2:5: ", "job 1 has no 'name'", NULL);
	bad("jobs:\n  - name: bot\n    hours_per_month: 1\n",
	    "t.yaml:2:5: ", "job 'bot' has no 'model'", NULL);
	bad("jobs:\n  - name: \"\"\n    model: llama-3.1-8b\n    hours_per_month: 1\n",
	    "t.yaml:2:11: ", "job name", "empty", NULL);
	bad("jobs:\n  - name: \"a\\0b\"\n    model: llama-3.1-8b\n",
	    "t.yaml:2:11: ", "must be text", NULL);
}
END_TEST

/* Issue 26: the report's title was the spec's path; a spec may name
 * itself (name:), else its title is its file's base name. */
START_TEST(a_spec_names_itself_else_its_title_is_its_files_base_name)
{
	struct jobspec *spec = parse_ok("name: platform team\n" HEAD "    hours_per_month: 1\n");
	ck_assert_str_eq(spec->name, "platform team");
	ck_assert_str_eq(jobspec_title(spec), "platform team");
	jobspec_free(spec);
	const char *text = HEAD "    hours_per_month: 1\n";
	char *err = NULL;
	ck_assert_int_eq(jobspec_parse("/srv/plans/team.yaml", text, strlen(text), test_ref(),
				       &spec, &err),
			 PLANNER_OK);
	ck_assert_ptr_null(spec->name);
	ck_assert_str_eq(jobspec_title(spec), "team.yaml");
	jobspec_free(spec);
	bad("name: \"\"\n" HEAD "    hours_per_month: 1\n", "t.yaml:1:7: ", "name", "empty",
	    "title", NULL);
	bad("name: \"a\\tb\"\n" HEAD "    hours_per_month: 1\n", "t.yaml:1:7: ",
	    "control character", NULL);
	bad("name: [a]\n" HEAD "    hours_per_month: 1\n", "t.yaml:1:7: ", NULL);
}
END_TEST

START_TEST(a_context_takes_the_suffixes_fit_context_takes)
{
	struct jobspec *s = parse_ok(HEAD "    context: 32K\n    hours_per_month: 1\n");
	ck_assert_int_eq(s->jobs[0].context, 32768);
	jobspec_free(s);
	s = parse_ok(HEAD "    context: 8k\n    hours_per_month: 1\n");
	ck_assert_int_eq(s->jobs[0].context, 8192);
	jobspec_free(s);
	bad(HEAD "    context: 32Q\n    hours_per_month: 1\n", "t.yaml:4:14: ",
	    "whole number of tokens", "context: 32K", NULL);
	bad(HEAD "    context: 1.5\n    hours_per_month: 1\n", "t.yaml:4:14: ",
	    "whole number of tokens", NULL);
}
END_TEST

START_TEST(a_context_longer_than_the_model_allows_is_an_error)
{
	bad("jobs:\n  - name: bot\n    model: mixtral-8x7b\n    context: 65536\n"
	    "    hours_per_month: 1\n",
	    "t.yaml:4:14: ", "longer than mixtral-8x7b's maximum", "at most 32768", NULL);
}
END_TEST

START_TEST(top_level_settings_are_checked)
{
	bad("version: 2\n" HEAD, "t.yaml:1:10: ", "unsupported version '2'", NULL);
	bad("currency: EUR\n" HEAD "    hours_per_month: 1\n",
	    "t.yaml:1:11: ", "currency EUR has no exchange rate", "fx: {EUR: RATE}", NULL);
	bad("currency: EURO\n" HEAD, "t.yaml:1:11: ", "not a 3-letter", NULL);
	bad("fx: {EUR: 0}\n" HEAD, "t.yaml:1:11: ", "exchange rate 0 for EUR", NULL);
	bad("fx: [EUR]\n" HEAD, "t.yaml:1:5: ", "'fx' must be auto or a mapping", NULL);
	bad("timezone: Europe/Amsterdm\n" HEAD,
	    "t.yaml:1:11: ", "unknown timezone 'Europe/Amsterdm'",
	    "did you mean 'Europe/Amsterdam'", NULL);
	bad("timezone: ../../etc/passwd\n" HEAD, "t.yaml:1:11: ", "unknown timezone", NULL);
	/* right/ zones count leap seconds; leapseconds is a table, not a zone. */
	bad("timezone: right/Europe/Amsterdam\n" HEAD, "t.yaml:1:11: ", "counts leap seconds",
	    "use 'Europe/Amsterdam'", NULL);
	bad("timezone: leapseconds\n" HEAD, "t.yaml:1:11: ", "not a time zone", NULL);
	bad("timezone: tzdata.zi\n" HEAD, "t.yaml:1:11: ", "timezone", NULL);
	/* An unknown provider would exclude every offer: refused, with the
	 * nearest name; a quote's provider is a name too. */
	bad("providers: [nosuch]\n" HEAD, "t.yaml:1:13: ", "unknown provider 'nosuch'",
	    "lambda", NULL);
	bad("providers: [lambda, runpd]\n" HEAD, "t.yaml:1:21: ", "did you mean 'runpod'", NULL);
	jobspec_free(parse_ok("providers: [acme, Lambda]\n"
	                      "quotes: [{provider: ACME, gpu: H100 SXM, price_per_hour: 2}]\n" HEAD
	                      "    hours_per_month: 1\n"));
	bad("providers: [lambda, [x]]\n" HEAD, "t.yaml:1:21: ", "entry 2 of 'providers'", NULL);
	bad("buy: [{gpu: L40}]\n" HEAD, "t.yaml:1:7: ", "no 'price'", "L40", NULL);
	bad("quotes: [{gpu: H100 SXM, price_per_hour: 2}]\n" HEAD,
	    "t.yaml:1:10: ", "quote 1 has no 'provider'", NULL);
}
END_TEST

START_TEST(schedule_values_are_checked)
{
#define SCHED(s) HEAD "    hours_per_month: 1\n    schedule: " s "\n"
	bad(SCHED("{window: \"25:00-06:00\"}"), "t.yaml:5:24: ", "not a time range", "00:00-24:00",
	    NULL);
	bad(SCHED("{window: \"06:00-06:00\"}"), "t.yaml:5:24: ", "not a time range", NULL);
	bad(SCHED("{window: \"24:00-06:00\"}"), "t.yaml:5:24: ", "not a time range", NULL);
	bad(SCHED("{days: [mon, fry]}"), "t.yaml:5:28: ", "unknown day 'fry'", "did you mean 'fri'",
	    NULL);
	bad(SCHED("{days: []}"), "t.yaml:5:22: ", "'days'", "empty", NULL);
	bad(SCHED("{deadline: 32}"), "t.yaml:5:26: ", "'deadline'", "1 to 31", NULL);
	bad(SCHED("{min_run: 4, max_run: 2}"), "t.yaml:5:37: ", "shorter than min_run", NULL);
	bad(SCHED("{window: \"01:00-03:00\", min_run: 4h}"),
	    "t.yaml:5:48: ", "longer than the 2h window", NULL);
	bad(SCHED("{priority: x}"), "t.yaml:5:26: ", "'priority'", "must be a number", NULL);
	bad(SCHED("[mon]"), "t.yaml:5:15: ", "'schedule' in job 'bot' must be a mapping", NULL);
	bad(HEAD "    hours_per_month: 1\n    run: {cmd: x}\n",
	    "t.yaml:5:11: ", "unknown key 'cmd' in run of job 'bot'", "one of: command, image",
	    NULL);
#undef SCHED
}
END_TEST

START_TEST(api_models_must_name_a_vendor)
{
	bad(HEAD "    hours_per_month: 1\n    api_models: [openai/gpt-4o, gpt-4o]\n",
	    "t.yaml:5:33: ", "api model 'gpt-4o'", "vendor/model", NULL);
	bad(HEAD "    hours_per_month: 1\n    api_models: [openai/]\n", "t.yaml:5:18: ", "openai/",
	    "vendor/model", NULL);
	bad(HEAD "    hours_per_month: 1\n    api_models: []\n", "t.yaml:5:17: ", "'api_models'",
	    "empty", NULL);
}
END_TEST

/* ---- hostile input --------------------------------------------------- */

START_TEST(yaml_aliases_are_rejected_not_expanded)
{
	bad("x: &a 5\n" HEAD, "t.yaml:1:1: ", "unknown key 'x'", NULL);
	bad("jobs:\n  - &j {name: a, model: llama-3.1-8b, hours_per_month: 1}\n  - *j\n",
	    "t.yaml:2:3: ", "aliases", NULL);
	bad(HEAD "    hours_per_month: &h 1\n    batch: *h\n", "t.yaml:5:5: ", "aliases", NULL);
	/* An anchor that contains its own alias must not loop. */
	bad("jobs: &l [*l]\n", "t.yaml:", NULL);
	/* "billion laughs": expanding would take 10^9 nodes. */
	struct buf b = {0};
	buf_printf(&b, "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
	for (int i = 1; i < 10; i++)
		buf_printf(
		    &b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n",
		    i, i, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
	bad(b.data, "t.yaml:1:1: ", "unknown key 'a0'", NULL);
	buf_free(&b);
}
END_TEST

START_TEST(deep_nesting_and_a_second_document_do_not_crash)
{
	size_t depth = 100000;
	char *deep = malloc(2 * depth + 16);
	ck_assert_ptr_nonnull(deep);
	strcpy(deep, "jobs: ");
	memset(deep + 6, '[', depth);
	memset(deep + 6 + depth, ']', depth);
	strcpy(deep + 6 + 2 * depth, "\n");
	bad(deep, "t.yaml:1:71: ", "nest more than 64 deep", NULL);
	/* Block nesting costs libyaml linear time; it is read, then refused. */
	deep[5] = '\n';
	for (size_t i = 0; i < depth; i++)
		memcpy(deep + 6 + 2 * i, "- ", 2);
	strcpy(deep + 6 + 2 * depth, "x\n");
	bad(deep, "t.yaml:2:3: ", "job 1 must be a mapping, got a list", NULL);
	free(deep);
	bad("version: 1\n" HEAD "    hours_per_month: 1\n---\nversion: 1\n",
	    "t.yaml:7:1: ", "second YAML document", NULL);
	bad("? [a, b]\n: 1\n", "t.yaml:1:3: ", "not a name", NULL);
}
END_TEST

/* ---- the reference, docs/spec.md ----------------------------------- */

#define SPEC_DOC "docs/spec.md"

START_TEST(the_committed_reference_is_what_the_tables_render)
{
	char *want = jobspec_reference();
	char *have = test_slurp(SPEC_DOC);
	ck_assert_ptr_nonnull(want);
	ck_assert_msg(have != NULL, "cannot read %s; run `make spec-doc`", SPEC_DOC);
	ck_assert_msg(strcmp(want, have) == 0,
	              "%s is not what the key tables render; run `make spec-doc` and commit it",
	              SPEC_DOC);
	free(want);
	free(have);
}
END_TEST

/* planner-spec(5) is rendered from the same tables, and names every key. */
START_TEST(the_committed_man_page_is_what_the_tables_render_and_has_every_key)
{
	char *want = jobspec_reference_man();
	char *have = test_slurp("planner-spec.5");
	ck_assert_ptr_nonnull(want);
	ck_assert_msg(have != NULL, "cannot read planner-spec.5; run `make spec-doc`");
	ck_assert_msg(strcmp(want, have) == 0,
	              "planner-spec.5 is not what the key tables render; run `make spec-doc`");
	char **paths = NULL;
	size_t n = 0;
	ck_assert_int_eq(jobspec_key_paths(&paths, &n), PLANNER_OK);
	ck_assert(n > 50);
	for (size_t i = 0; i < n; i++) {
		/* ".B jobs[].max_run", hyphens escaped as roff writes them. */
		char esc[256] = ".TP\n.B ";
		size_t k = strlen(esc);
		for (const char *p = paths[i]; *p && k + 3 < sizeof esc; p++) {
			if (*p == '-')
				esc[k++] = '\\';
			esc[k++] = *p;
		}
		esc[k++] = '\n';
		esc[k] = 0;
		ck_assert_msg(strstr(have, esc) != NULL, "planner-spec.5 lacks %s", paths[i]);
		free(paths[i]);
	}
	free(paths);
	ck_assert_ptr_nonnull(strstr(have, "Default: "));
	ck_assert_ptr_nonnull(strstr(have, "Example: "));
	free(want);
	free(have);
}
END_TEST

/* The key paths docs/spec.md lists: the first cell of each table row,
 * "| `jobs[].name` |". */
static char **doc_paths(const char *doc, size_t *n)
{
	char **v = NULL;
	*n = 0;
	for (const char *p = doc; (p = strstr(p, "\n| `")) != NULL;) {
		p += 4;
		const char *end = strchr(p, '`');
		ck_assert_ptr_nonnull(end);
		v = realloc(v, (*n + 1) * sizeof *v);
		ck_assert_ptr_nonnull(v);
		v[(*n)++] = strndup(p, (size_t)(end - p));
	}
	return v;
}

static bool has_path(char **v, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], path))
			return true;
	return false;
}

START_TEST(every_key_in_the_tables_is_in_the_reference_and_back)
{
	char **keys = NULL, **docs = NULL, *doc = test_slurp(SPEC_DOC);
	size_t n_keys = 0, n_docs = 0;
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(jobspec_key_paths(&keys, &n_keys), PLANNER_OK);
	docs = doc_paths(doc, &n_docs);
	ck_assert_uint_gt(n_keys, 40);
	for (size_t i = 0; i < n_keys; i++)
		ck_assert_msg(has_path(docs, n_docs, keys[i]), "%s is not in %s", keys[i],
		              SPEC_DOC);
	for (size_t i = 0; i < n_docs; i++)
		ck_assert_msg(has_path(keys, n_keys, docs[i]), "%s in %s is not a key", docs[i],
		              SPEC_DOC);
	ck_assert_uint_eq(n_keys, n_docs);
	for (size_t i = 0; i < n_keys; i++)
		free(keys[i]);
	for (size_t i = 0; i < n_docs; i++)
		free(docs[i]);
	free(keys);
	free(docs);
	free(doc);
}
END_TEST

/* The keys directly under prefix ("" for the top level, "jobs[]." for a
 * job), joined as the "use one of:" list of an unknown key. */
static char *keys_under(const char *prefix)
{
	char **keys = NULL, *list = strdup("");
	size_t n = 0, pl = strlen(prefix);
	ck_assert_int_eq(jobspec_key_paths(&keys, &n), PLANNER_OK);
	for (size_t i = 0; i < n; i++) {
		const char *rest = keys[i] + pl;
		if (!strncmp(keys[i], prefix, pl) && !strpbrk(rest, ".[")) {
			char *more = xasprintf("%s%s%s", list, *list ? ", " : "", rest);
			free(list);
			list = more;
		}
		free(keys[i]);
	}
	free(keys);
	return list;
}

START_TEST(unknown_key_lists_come_from_the_tables)
{
	static const struct {
		const char *prefix, *text, *where;
	} cases[] = {
	    {"", "xqxqxqxqxqxq: 1\n" HEAD "    hours_per_month: 1\n", "at the top level"},
	    {"jobs[].", HEAD "    xqxqxqxqxqxq: 1\n", "in job 'bot'"},
	    {"jobs[].schedule.", HEAD "    hours_per_month: 1\n    schedule: {xqxqxqxqxqxq: 1}\n",
	     "in the schedule of job 'bot'"},
	    {"owned[].", "owned: [{gpu: RTX 4090, xqxqxqxqxqxq: 1}]\n" HEAD, "in owned entry 1"},
	    {"quotes[].", "quotes: [{xqxqxqxqxqxq: 1}]\n" HEAD, "in quote 1"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *list = keys_under(cases[i].prefix);
		char *want = xasprintf("unknown key 'xqxqxqxqxqxq' %s; remove it or use one of: %s",
		                       cases[i].where, list);
		struct jobspec *spec = NULL;
		char *err = NULL;
		jobspec_parse("t.yaml", cases[i].text, strlen(cases[i].text), test_ref(), &spec,
		              &err);
		ck_assert_ptr_null(spec);
		ck_assert_ptr_nonnull(err);
		ck_assert_msg(strstr(err, want) != NULL, "expected '%s' in: %s", want, err);
		free(err);
		free(want);
		free(list);
	}
}
END_TEST

/* ---- usage: and serving: window (issue 27) ---- */

#define STAFF                                                                                      \
	"    request: {input: 1500, output: 300}\n"                                                   \
	"    schedule: {window: \"08:00-18:00\", days: weekdays}\n"

START_TEST(usage_in_people_s_terms_is_turned_into_tokens_over_the_schedule_s_days)
{
	struct jobspec *spec =
	    parse_ok(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n" STAFF);
	const struct job *j = &spec->jobs[0];
	double days = 31.0 * 5 / 7; /* weekdays of the nominal month */
	ck_assert(j->usage.given && j->usage.interactive && j->has_tokens);
	ck_assert_double_eq_tol(j->usage.days, days, 1e-9);
	ck_assert_double_eq_tol(j->input_tokens, 12 * 20 * days * 1500, 1e-3);
	ck_assert_double_eq_tol(j->output_tokens, 12 * 20 * days * 300, 1e-3);
	char text[256];
	job_usage_text(j, text, sizeof text);
	ck_assert_str_eq(text, "12 users x 20 requests a day x 22.1 days x (1500 in + 300 out) "
	                       "= 9.57M tokens a month");
	jobspec_free(spec);
	/* requests_per_day: all users together, every day without a schedule. */
	spec = parse_ok(HEAD "    usage: {requests_per_day: 1K}\n"
	                     "    request: {input: 100, output: 50}\n");
	ck_assert_double_eq_tol(spec->jobs[0].input_tokens, 1000 * 31 * 100.0, 1e-6);
	ck_assert_double_eq_tol(spec->jobs[0].output_tokens, 1000 * 31 * 50.0, 1e-6);
	jobspec_free(spec);
	/* A batch: documents a month, no schedule's days. */
	spec = parse_ok(HEAD "    usage: {documents_per_month: 2000, tokens_per_document: 5000, "
	                     "output_per_document: 200}\n");
	j = &spec->jobs[0];
	ck_assert(j->usage.given && !j->usage.interactive);
	ck_assert_double_eq(j->input_tokens, 1e7);
	ck_assert_double_eq(j->output_tokens, 4e5);
	ck_assert_int_eq(j->serving, SERVING_ON_DEMAND);
	job_usage_text(j, text, sizeof text);
	ck_assert_str_eq(text, "2000 documents x (5000 in + 200 out) = 10.4M tokens a month");
	jobspec_free(spec);
}
END_TEST

START_TEST(usage_beside_another_volume_or_without_a_request_is_refused_where_it_is)
{
	bad(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n" STAFF
	         "    tokens_per_month: {input: 1M, output: 1M}\n",
	    "t.yaml:4:5: ", "usage and tokens_per_month", "keep one", "remove tokens_per_month",
	    NULL);
	bad(HEAD "    hours_per_month: 40\n    usage: {users: 12, requests_per_user_day: 20}\n" STAFF,
	    "t.yaml:5:5: ", "usage and hours_per_month", "keep one", "remove hours_per_month", NULL);
	bad(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n", "t.yaml:4:5: ",
	    "no request shape", "request: {input: 1500, output: 300}", NULL);
	bad(HEAD "    usage: {users: 12}\n" STAFF, "t.yaml:4:12: ", "no requests_per_user_day",
	    NULL);
	bad(HEAD "    usage: {users: 12, requests_per_user_day: 20, requests_per_day: 5}\n" STAFF,
	    "t.yaml:4:12: ", "mixes", NULL);
	bad(HEAD "    usage: {documents_per_month: 2000}\n", "t.yaml:4:12: ",
	    "tokens_per_document", NULL);
	bad(HEAD "    usage: {users: 0, requests_per_user_day: 20}\n" STAFF, "t.yaml:4:20: ",
	    "zero", NULL);
}
END_TEST

START_TEST(serving_window_is_up_the_window_s_hours_and_refuses_run_rules)
{
	struct jobspec *spec = parse_ok(HEAD "    serving: window\n" STAFF
	                                     "    tokens_per_month: {input: 1M, output: 1M}\n");
	const struct job *j = &spec->jobs[0];
	ck_assert_int_eq(j->serving, SERVING_WINDOW);
	ck_assert(j->has_hours && !j->always_on && !j->serving_implied);
	ck_assert_double_eq_tol(j->hours_per_month, 10 * 5 / 7.0 * 31, 1e-9); /* 221.4 h */
	ck_assert_str_eq(serving_name(j->serving), "window");
	jobspec_free(spec);
	/* The window alone is work enough. */
	spec = parse_ok(HEAD "    serving: window\n" STAFF);
	ck_assert_double_eq_tol(spec->jobs[0].hours_per_month, 221.43, 0.01);
	jobspec_free(spec);
	static const char *const rules[] = {"deadline: 20", "min_run: 2", "max_run: 4"};
	for (size_t i = 0; i < 3; i++) {
		char *text = xasprintf(HEAD "    serving: window\n"
		                            "    schedule: {window: \"08:00-18:00\", %s}\n",
		                       rules[i]);
		char *name = xasprintf("schedule.%.*s", (int)strcspn(rules[i], ":"), rules[i]);
		bad(text, "t.yaml:5:39: ", "serving: window", name, "does not apply", NULL);
		free(name);
		free(text);
	}
	bad(HEAD "    hours_per_month: 100\n    serving: window\n" STAFF, "t.yaml:4:5: ",
	    "up its window's 221.4 h", "remove hours_per_month", NULL);
}
END_TEST

START_TEST(an_interactive_job_without_serving_is_up_its_window_or_all_month)
{
	struct jobspec *spec =
	    parse_ok(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n" STAFF);
	const struct job *j = &spec->jobs[0];
	ck_assert_int_eq(j->serving, SERVING_WINDOW);
	ck_assert(j->serving_implied && j->has_hours);
	ck_assert_double_eq_tol(j->hours_per_month, 221.43, 0.01);
	jobspec_free(spec);
	spec = parse_ok(HEAD "    usage: {requests_per_day: 240}\n"
	                     "    request: {input: 1500, output: 300}\n");
	j = &spec->jobs[0];
	ck_assert_int_eq(j->serving, SERVING_ALWAYS_ON);
	ck_assert(j->serving_implied && j->always_on);
	ck_assert_double_eq(j->hours_per_month, 744);
	jobspec_free(spec);
	/* serving: on-demand keeps the token-derived hours, and a deadline. */
	spec = parse_ok(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n"
	                     "    serving: on-demand\n"
	                     "    request: {input: 1500, output: 300}\n"
	                     "    schedule: {window: \"08:00-18:00\", deadline: 20}\n");
	ck_assert(!spec->jobs[0].has_hours && spec->jobs[0].has_tokens);
	jobspec_free(spec);
	/* The implicit window refuses a deadline as serving: window does. */
	bad(HEAD "    usage: {users: 12, requests_per_user_day: 20}\n"
	         "    request: {input: 1500, output: 300}\n"
	         "    schedule: {window: \"08:00-18:00\", deadline: 20}\n",
	    "t.yaml:6:39: ", "interactive usage", "serving: on-demand", NULL);
}
END_TEST

START_TEST(serving_keys_read_the_request_kv_cache_batch_and_always_on)
{
	struct jobspec *spec =
	    parse_ok(HEAD "    context: 8192\n    request: {input: 1K, output: 500}\n"
	                  "    kv_cache: FP8\n    batch: max\n    serving: always-on\n"
	                  "    tokens_per_month: {input: 1B, output: 500M}\n");
	const struct job *j = &spec->jobs[0];
	ck_assert(j->has_request);
	ck_assert_double_eq(j->request_input, 1000);
	ck_assert_double_eq(j->request_output, 500);
	ck_assert_int_eq(j->kv_cache, KV_CACHE_FP8);
	ck_assert_double_eq(kv_cache_bytes(j->kv_cache), 1);
	ck_assert_str_eq(kv_cache_name(j->kv_cache), "fp8");
	ck_assert(j->batch_max);
	ck_assert_int_eq(j->batch, 1); /* the fit check's one sequence */
	ck_assert(j->always_on && j->has_hours);
	ck_assert_double_eq(j->hours_per_month, 744);
	jobspec_free(spec);
}
END_TEST

START_TEST(the_request_defaults_to_the_context_split_as_the_months_tokens)
{
	struct jobspec *spec =
	    parse_ok(HEAD "    context: 6000\n    tokens_per_month: {input: 200M, output: 40M}\n");
	const struct job *j = &spec->jobs[0];
	ck_assert(!j->has_request && !j->batch_max && !j->always_on);
	ck_assert_double_eq_tol(j->request_input, 5000, 1e-9);
	ck_assert_double_eq_tol(j->request_output, 1000, 1e-9);
	ck_assert_int_eq(j->kv_cache, KV_CACHE_BF16);
	ck_assert_double_eq(kv_cache_bytes(j->kv_cache), 2);
	jobspec_free(spec);
	/* Hours alone: the whole context is the prompt. */
	spec = parse_ok(HEAD "    context: 6000\n    hours_per_month: 744\n");
	ck_assert_double_eq(spec->jobs[0].request_input, 6000);
	ck_assert_double_eq(spec->jobs[0].request_output, 0);
	ck_assert(spec->jobs[0].always_on); /* up every hour of the month */
	jobspec_free(spec);
	/* serving: always-on is work enough on its own. */
	spec = parse_ok(HEAD "    serving: always-on\n");
	ck_assert_double_eq(spec->jobs[0].hours_per_month, 744);
	jobspec_free(spec);
}
END_TEST

START_TEST(serving_values_are_checked)
{
	bad(HEAD "    hours_per_month: 1\n    request: {input: 4000, output: 500}\n", "t.yaml:5:14: ",
	    "request of 4500 tokens", "longer than context 4096", "raise context to at least 4500",
	    NULL);
	bad(HEAD "    hours_per_month: 1\n    request: {input: 0, output: 0}\n", "t.yaml:5:14: ",
	    "'request' in job 'bot' has no tokens", NULL);
	bad(HEAD "    hours_per_month: 1\n    kv_cache: fp4\n", "t.yaml:5:15: ", "fp4", NULL);
	bad(HEAD "    hours_per_month: 1\n    batch: most\n", "t.yaml:5:12: ", "batch", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    batch: max\n",
	    "t.yaml:6:12: ", "batch: max", "is for serving", NULL);
	bad(HEAD "    hours_per_month: 300\n    serving: always-on\n", "t.yaml:5:14: ",
	    "always-on", "hours_per_month", "says 300", NULL);
}
END_TEST

START_TEST(fine_tuning_keys_read_lora_micro_batch_optimizer_and_checkpointing)
{
	struct jobspec *spec = parse_ok(
	    HEAD "    task: finetune-qlora\n    hours_per_month: 10\n    batch: 16\n"
	         "    lora: {rank: 64, targets: attention}\n    micro_batch: 4\n"
	         "    optimizer: Paged-AdamW-8bit\n    checkpointing: false\n");
	const struct job *j = &spec->jobs[0];
	ck_assert_int_eq(j->lora_rank, 64);
	ck_assert_int_eq(j->lora_targets, LORA_ATTENTION);
	ck_assert_int_eq(j->micro_batch, 4);
	ck_assert_str_eq(j->optimizer, "paged-adamw-8bit"); /* canonical */
	ck_assert_int_eq(j->checkpointing, CKPT_OFF);
	jobspec_free(spec);
	/* Defaults: the engine's rank, targets and optimizer, checkpointing on,
	 * and no micro-batch (the batch split over the GPUs). */
	spec = parse_ok(HEAD "    task: finetune-lora\n    hours_per_month: 10\n");
	j = &spec->jobs[0];
	ck_assert_int_eq(j->lora_rank, 0);
	ck_assert_int_eq(j->lora_targets, LORA_ALL_LINEAR);
	ck_assert_int_eq(j->micro_batch, 0);
	ck_assert_ptr_null(j->optimizer);
	ck_assert_int_eq(j->checkpointing, CKPT_ON);
	jobspec_free(spec);
	/* A full fine-tune takes an optimizer and a micro-batch too */
	spec = parse_ok(HEAD "    task: finetune-full\n    hours_per_month: 10\n    batch: 8\n"
	                     "    micro_batch: 8\n    optimizer: adamw-bf16\n");
	ck_assert_str_eq(spec->jobs[0].optimizer, "adamw-bf16");
	jobspec_free(spec);
}
END_TEST

START_TEST(checkpointing_reads_selective_and_its_boolean_spellings)
{
	static const struct {
		const char *text;
		enum ckpt want;
	} cases[] = {{"selective", CKPT_SELECTIVE}, {"Selective", CKPT_SELECTIVE},
	             {"on", CKPT_ON},               {"true", CKPT_ON},
	             {"yes", CKPT_ON},              {"off", CKPT_OFF},
	             {"false", CKPT_OFF},           {"no", CKPT_OFF}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char text[256];
		snprintf(text, sizeof text,
		         HEAD "    task: finetune-lora\n    hours_per_month: 10\n"
		              "    checkpointing: %s\n",
		         cases[i].text);
		struct jobspec *spec = parse_ok(text);
		ck_assert_msg(spec->jobs[0].checkpointing == cases[i].want, "%s", cases[i].text);
		jobspec_free(spec);
	}
}
END_TEST

START_TEST(fine_tuning_values_are_checked_with_the_fix)
{
	bad(HEAD "    hours_per_month: 1\n    lora: {rank: 16}\n", "t.yaml:5:11: ",
	    "lora in job 'bot' is for finetune-lora and finetune-qlora jobs", "task is inference",
	    "set task: finetune-lora", NULL);
	bad(HEAD "    task: finetune-full\n    hours_per_month: 1\n    lora: {rank: 16}\n",
	    "t.yaml:6:11: ", "task is finetune-full", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    lora: {rank: 0}\n",
	    "t.yaml:6:18: ", "rank", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    lora: {targets: mlp}\n",
	    "t.yaml:6:21: ", "mlp", "all-linear", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    lora: {rnak: 8}\n",
	    "t.yaml:6:12: ", "rnak", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    batch: 4\n    micro_batch: 8\n",
	    "t.yaml:7:18: ", "micro_batch 8 in job 'bot' is more than batch 4", "give at most 4",
	    NULL);
	bad(HEAD "    hours_per_month: 1\n    micro_batch: 1\n", "t.yaml:5:18: ",
	    "micro_batch in job 'bot' is for fine-tuning jobs", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    optimizer: adamw8bit\n",
	    "t.yaml:6:16: ", "unknown optimizer 'adamw8bit'", "did you mean 'adamw-8bit'?", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    optimizer: sgd\n",
	    "t.yaml:6:16: ", "unknown optimizer 'sgd'", "use adamw, adamw-bf16", NULL);
	bad(HEAD "    hours_per_month: 1\n    optimizer: adamw\n", "t.yaml:5:16: ",
	    "optimizer in job 'bot' is for fine-tuning jobs", NULL);
	bad(HEAD "    task: finetune-lora\n    hours_per_month: 1\n    checkpointing: maybe\n",
	    "t.yaml:6:20: ", "maybe", "must be on, off or selective",
	    "write e.g. checkpointing: selective", NULL);
	bad(HEAD "    hours_per_month: 1\n    checkpointing: false\n", "t.yaml:5:20: ",
	    "checkpointing in job 'bot' is for fine-tuning jobs", NULL);
}
END_TEST

Suite *jobspec_suite(void)
{
	Suite *s = suite_create("jobspec");
	TCase *good = tcase_create("good specs");
	tcase_add_test(good, fx_auto_resolves_the_currency_with_the_reference_rates);
	tcase_add_test(good, a_spec_with_every_key_is_read_field_by_field);
	tcase_add_test(good, omitted_keys_take_their_defaults);
	tcase_add_test(good, a_country_sets_currency_fx_zone_and_power_price_from_its_row);
	tcase_add_test(good, a_country_of_several_zones_or_unknown_is_refused_with_the_fix);
	tcase_add_test(good, a_window_s_hours_in_the_month_are_its_daily_hours_on_its_days_over_31_days);
	tcase_add_test(good, a_config_json_path_is_read_relative_to_the_spec);
	tcase_add_test(good, sizes_accept_suffixes);
	tcase_add_test(good, day_words_and_windows_cover_the_week_and_midnight);
	tcase_add_test(good, a_foreign_currency_converts_the_default_electricity_price);
	tcase_add_test(good, empty_sections_and_a_single_api_model_are_accepted);
	tcase_add_test(good, free_accepts_null_and_names_read_back);
	tcase_add_test(good, serving_keys_read_the_request_kv_cache_batch_and_always_on);
	tcase_add_test(good, usage_in_people_s_terms_is_turned_into_tokens_over_the_schedule_s_days);
	tcase_add_test(good, usage_beside_another_volume_or_without_a_request_is_refused_where_it_is);
	tcase_add_test(good, serving_window_is_up_the_window_s_hours_and_refuses_run_rules);
	tcase_add_test(good, an_interactive_job_without_serving_is_up_its_window_or_all_month);
	tcase_add_test(good, the_request_defaults_to_the_context_split_as_the_months_tokens);
	tcase_add_test(good, fine_tuning_keys_read_lora_micro_batch_optimizer_and_checkpointing);
	tcase_add_test(good, checkpointing_reads_selective_and_its_boolean_spellings);
	suite_add_tcase(s, good);

	TCase *bads = tcase_create("mistakes");
	tcase_add_test(bads, a_missing_file_is_reported_with_the_reason);
	tcase_add_test(bads, an_empty_file_is_an_error);
	tcase_add_test(bads, a_spec_that_is_not_a_regular_file_or_too_large_is_refused_at_once);
	tcase_add_test(bads, yaml_tags_are_refused_where_they_stand);
	tcase_add_test(bads, a_yaml_syntax_error_names_the_place_and_the_problem);
	tcase_add_test(bads, text_that_is_not_utf8_is_rejected);
	tcase_add_test(bads, a_top_level_that_is_not_a_mapping_is_an_error);
	tcase_add_test(bads, a_spec_without_jobs_is_an_error);
	tcase_add_test(bads, unknown_keys_suggest_the_nearest_known_key);
	tcase_add_test(bads, duplicate_keys_and_job_names_are_errors);
	tcase_add_test(bads, a_duplicate_job_name_among_two_thousand_jobs_names_its_first_line);
	tcase_add_test(bads, values_of_the_wrong_type_are_errors);
	tcase_add_test(bads, negative_zero_and_absurd_numbers_are_errors);
	tcase_add_test(bads, unknown_models_gpus_and_precisions_suggest_the_nearest);
	tcase_add_test(bads, a_job_needs_a_name_a_model_and_an_amount_of_work);
	tcase_add_test(bads, a_spec_names_itself_else_its_title_is_its_files_base_name);
	tcase_add_test(bads, a_context_longer_than_the_model_allows_is_an_error);
	tcase_add_test(bads, a_context_takes_the_suffixes_fit_context_takes);
	tcase_add_test(bads, top_level_settings_are_checked);
	tcase_add_test(bads, schedule_values_are_checked);
	tcase_add_test(bads, api_models_must_name_a_vendor);
	tcase_add_test(bads, serving_values_are_checked);
	tcase_add_test(bads, fine_tuning_values_are_checked_with_the_fix);
	suite_add_tcase(s, bads);

	TCase *doc = tcase_create("reference");
	tcase_add_test(doc, the_committed_reference_is_what_the_tables_render);
	tcase_add_test(doc, the_committed_man_page_is_what_the_tables_render_and_has_every_key);
	tcase_add_test(doc, every_key_in_the_tables_is_in_the_reference_and_back);
	tcase_add_test(doc, unknown_key_lists_come_from_the_tables);
	suite_add_tcase(s, doc);

	TCase *hostile = tcase_create("hostile input");
	tcase_set_timeout(hostile, 30);
	tcase_add_test(hostile, yaml_aliases_are_rejected_not_expanded);
	tcase_add_test(hostile, deep_nesting_and_a_second_document_do_not_crash);
	suite_add_tcase(s, hostile);

	TCase *large = tcase_create("large specs");
	tcase_set_timeout(large, 0); /* no wall-clock limit: 10,000 jobs are slow under ASan */
	tcase_add_test(large, a_block_style_spec_of_10000_jobs_is_read_and_priced);
	suite_add_tcase(s, large);
	return s;
}
