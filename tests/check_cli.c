/* check_cli.c — the command layer as a newcomer meets it (issue 30): the
 * notes a plan rests on (cli.c), names that get the nearest one and the
 * list (near_miss_text), tables that fit a terminal (offers, models),
 * prices in the currency asked, and purchases that say what they
 * include. Terminal tests run through a pseudo-terminal (script(1)). */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jobspec.h"
#include "testutil.h"
#include "util.h"

static char *db_arg(void)
{
	char *dir = test_tmpdir();
	char *path = xasprintf("%s/prices.db", dir);
	free(dir);
	return path;
}

/* Columns of the widest line of text among those starting with lead
 * (every line when lead is ""). */
static int widest(const char *text, const char *lead)
{
	int most = 0;
	for (const char *p = text; *p;) {
		const char *end = strchr(p, '\n');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		if (!strncmp(p, lead, strlen(lead))) {
			int cols = 0;
			for (size_t i = 0; i < len; i++)
				cols += ((unsigned char)p[i] & 0xc0) != 0x80;
			if (cols > most)
				most = cols;
		}
		p += len + (end != NULL);
	}
	return most;
}

/* How many times needle is in text. */
static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

/* A spec of one restricted job that may buy `buy`, with extra top-level
 * keys before it; its path (malloc'd). */
static char *spec_buying(const char *dir, const char *extra, const char *buy)
{
	char *text = xasprintf("version: 1\n%sbuy: [%s]\njobs:\n"
	                       "  - {name: chat, model: llama-3.1-8b, precision: q4_k_m,\n"
	                       "     hours_per_month: 300, data: restricted}\n",
	                       extra, buy);
	char *path = test_write(dir, "spec.yaml", text);
	free(text);
	return path;
}

START_TEST(the_price_note_is_one_short_line_on_a_terminal_and_whole_with_verbose)
{
	char *db = db_arg(), *tty = NULL, *err = NULL;
	char *args = xasprintf("compare jobs/monthly.yaml --db '%s'", db);
	int rc = test_run_tty_all(80, args, &tty);
	if (rc == -2) {
		printf("cli: terminal test skipped: /usr/bin/script is not installed\n");
		goto out;
	}
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(tty, "planner: note: prices: bundled snapshot, "), "%s", tty);
	ck_assert_msg(widest(tty, "planner:") <= 100, "a note passes 100 columns:\n%s", tty);
	free(tty);
	/* The defaults country: chose, and a bare GPU bought: short too. */
	char *dir = test_tmpdir();
	char *nl = spec_buying(dir, "country: NL\n", "{gpu: RTX 4090, price: 1800}");
	char *nl_args = xasprintf("compare '%s' --db '%s'", nl, db);
	ck_assert_int_eq(test_run_tty_all(80, nl_args, &tty), 0);
	ck_assert_msg(strstr(tty, "planner: note: electricity ") && strstr(tty, "country NL"), "%s",
	              tty);
	ck_assert_msg(widest(tty, "planner:") <= 100, "a note passes 100 columns:\n%s", tty);
	free(tty);
	free(nl_args);
	free(nl);
	free(dir);
	/* --verbose, and any output off a terminal, has every provider's date. */
	char *verbose = xasprintf("%s --verbose", args);
	ck_assert_int_eq(test_run_tty_all(80, verbose, &tty), 0);
	free(verbose);
	ck_assert_msg(strstr(tty, "prices are the bundled snapshot of aws 20"), "%s", tty);
	const char *argv[] = {"compare", "jobs/monthly.yaml", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 0);
	ck_assert_msg(strstr(err, "prices are the bundled snapshot of aws 20"), "%s", err);
out:
	free(tty);
	free(err);
	free(args);
	free(db);
}
END_TEST

START_TEST(offers_and_models_fit_80_columns_on_a_terminal_and_keep_every_column_off_it)
{
	char *db = db_arg(), *tty = NULL, *out = NULL;
	const char *cmds[] = {"offers --limit 0", "offers --api --limit 0", "models"};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char *args = xasprintf("%s --db '%s'", cmds[i], db);
		int rc = test_run_tty(80, args, &tty);
		free(args);
		if (rc == -2) {
			printf("cli: terminal test skipped: /usr/bin/script is not installed\n");
			break;
		}
		ck_assert_int_eq(rc, 0);
		ck_assert_msg(widest(tty, "") <= 80, "%s passes 80 columns:\n%s", cmds[i], tty);
		free(tty);
		tty = NULL;
	}
	/* A pipe gets the whole table: what scripts and the README read. */
	const char *offers[] = {"offers", "--db", db, NULL}, *models[] = {"models", NULL};
	ck_assert_int_eq(test_run_planner(offers, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, " USD/gpu-h cur spot where     region\n"), "%s", out);
	free(out);
	ck_assert_int_eq(test_run_planner(models, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, " layers kv heads head dim "), "%s", out);
	free(out);
	free(tty);
	free(db);
}
END_TEST

/* The converted price of an API row of offers --api json. */
static double converted(const cJSON *row, const char *key)
{
	const cJSON *c = cJSON_GetObjectItem(row, "converted");
	ck_assert_ptr_nonnull(c);
	return cJSON_GetObjectItem(c, key)->valuedouble;
}

START_TEST(an_empty_offers_result_says_why_on_stderr_and_is_an_empty_json_list)
{
	char *db = db_arg(), *out = NULL, *err = NULL;
	const char *api[] = {"offers", "--api",    "--db", db,  "--region",
	                     "africa", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(api, NULL, &out, &err), 0);
	cJSON *arr = cJSON_Parse(out);
	ck_assert(cJSON_IsArray(arr) && cJSON_GetArraySize(arr) == 0);
	cJSON_Delete(arr);
	ck_assert_msg(strstr(err, "0 rows in africa (") &&
	                  strstr(err, "`planner refresh --provider litellm`"),
	              "%s", err);
	free(out);
	free(err);
	/* The EU has rows in the snapshot: no such line. */
	const char *eu[] = {"offers", "--api", "--db", db, "--region", "eu", NULL};
	ck_assert_int_eq(test_run_planner(eu, NULL, &out, &err), 0);
	ck_assert_msg(!strstr(err, "0 rows"), "%s", err);
	ck_assert_msg(strstr(out, "scaleway/") && strstr(out, " EUR"), "%s", out);
	free(out);
	free(err);
	const char *gpu[] = {"offers", "--db", db, "--gpu", "h100", "--region", "africa", NULL};
	ck_assert_int_eq(test_run_planner(gpu, NULL, &out, &err), 0);
	ck_assert_msg(strstr(err, "0 offers match in africa for H100"), "%s", err);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(offers_api_prints_in_the_currency_asked_or_the_specs_with_the_unit_in_the_header)
{
	char *db = db_arg(), *usd = NULL, *eur = NULL, *out = NULL;
	const char *a[] = {"offers", "--api", "--db", db, "--format", "json", NULL};
	const char *b[] = {"offers", "--api",      "--db", db,  "--format",
	                   "json",   "--currency", "EUR",  NULL};
	ck_assert_int_eq(test_run_planner(a, NULL, &usd, NULL), 0);
	ck_assert_int_eq(test_run_planner(b, NULL, &eur, NULL), 0);
	cJSON *du = cJSON_Parse(usd), *de = cJSON_Parse(eur);
	ck_assert_int_gt(cJSON_GetArraySize(du), 0);
	/* The snapshot's ECB rate, as the table footer of offers names it. */
	const char *rented[] = {"offers", "--db", db, "--currency", "EUR", NULL};
	ck_assert_int_eq(test_run_planner(rented, NULL, &out, NULL), 0);
	const char *at = strstr(out, "1 USD = ");
	ck_assert_msg(at, "%s", out);
	double rate = strtod(at + 8, NULL);
	ck_assert_int_eq(cJSON_GetArraySize(du), cJSON_GetArraySize(de));
	for (int i = 0; i < cJSON_GetArraySize(du); i++) {
		/* The order is by the converted price: rows published in EUR
		 * (Scaleway's) may move, so each row is found by its id. */
		const cJSON *u = cJSON_GetArrayItem(du, i), *e = NULL, *x;
		const char *model = cJSON_GetObjectItem(u, "model")->valuestring;
		cJSON_ArrayForEach(x, de)
		{
			if (!strcmp(cJSON_GetObjectItem(x, "model")->valuestring, model) &&
			    !strcmp(cJSON_GetObjectItem(x, "provider")->valuestring,
			            cJSON_GetObjectItem(u, "provider")->valuestring))
				e = x;
		}
		ck_assert_ptr_nonnull(e);
		double in = cJSON_GetObjectItem(u, "input_per_mtok")->valuedouble;
		bool euro = !strcmp(cJSON_GetObjectItem(u, "currency")->valuestring, "EUR");
		ck_assert_str_eq(
		    cJSON_GetObjectItem(cJSON_GetObjectItem(e, "converted"), "currency")
		        ->valuestring,
		    "EUR");
		ck_assert_double_eq_tol(converted(e, "input_per_mtok"), euro ? in : in * rate,
		                        1e-4 * (1 + in));
		ck_assert_double_eq_tol(converted(u, "input_per_mtok"), euro ? in / rate : in,
		                        1e-4 * (1 + in));
	}
	free(out);
	/* The table: the unit in its heading; --spec FILE gives its currency. */
	const char *table[] = {"offers", "--api", "--db", db, "--spec", "jobs/monthly.yaml", NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, " in EUR/Mtok out EUR/Mtok "), "%s", out);
	free(out);
	const char *gpus[] = {"offers", "--db", db, "--spec", "jobs/monthly.yaml", NULL};
	ck_assert_int_eq(test_run_planner(gpus, NULL, &out, NULL), 0);
	ck_assert_msg(strstr(out, " EUR/h EUR/gpu-h "), "%s", out);
	cJSON_Delete(du);
	cJSON_Delete(de);
	free(out);
	free(usd);
	free(eur);
	free(db);
}
END_TEST

/* Runs argv, expecting exit status rc and every one of wants in stderr. */
static void expect_err(const char *const *argv, int rc, const char *const *wants)
{
	char *err = NULL;
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), rc);
	for (size_t i = 0; wants[i]; i++)
		ck_assert_msg(strstr(err, wants[i]), "no \"%s\" in:\n%s", wants[i], err);
	free(err);
}

START_TEST(unknown_names_get_the_nearest_name_and_the_list)
{
	char *db = db_arg(), *dir = test_tmpdir();
	const char *prec[] = {"fit", "llama-3.1-8b", "--precision", "q4", NULL};
	expect_err(prec, PLANNER_EUSAGE,
	           (const char *[]){"did you mean 'q4_k_m'?", "use fp32 bf16", "nf4", NULL});
	const char *eng[] = {"fit", "llama-3.1-8b", "--engine", "vlm", NULL};
	expect_err(eng, PLANNER_EUSAGE,
	           (const char *[]){"did you mean 'vllm'?", "use vllm, sglang", NULL});
	const char *prov[] = {"offers", "--db", db, "--provider", "vst", NULL};
	expect_err(
	    prov, PLANNER_EUSAGE,
	    (const char *[]){"unknown provider 'vst'; did you mean 'vast'?", "runpod", NULL});
	const char *reg[] = {"offers", "--db", db, "--region", "euu", NULL};
	expect_err(reg, PLANNER_EUSAGE,
	           (const char *[]){"did you mean 'eu'?", "americas", "a country code", NULL});
	const char *gpu[] = {"offers", "--db", db, "--gpu", "zzzz", NULL};
	expect_err(gpu, PLANNER_EUSAGE, (const char *[]){"'planner gpus' lists them", NULL});
	/* In a spec: the place, the nearest name, the list. */
	char *spec = test_write(dir, "bad.yaml",
	                        "version: 1\njobs:\n  - {name: a, model: llama-3.1-8b, "
	                        "precision: q4, hours_per_month: 10}\n");
	const char *bad[] = {"compare", spec, "--db", db, NULL};
	expect_err(bad, PLANNER_EINPUT,
	           (const char *[]){"bad.yaml:3:", "did you mean 'q4_k_m'?", "use fp32", NULL});
	free(spec);
	spec = test_write(dir, "bad.yaml", "version: 1\nregions: [erope]\njobs: []\n");
	const char *region[] = {"compare", spec, "--db", db, NULL};
	expect_err(region, PLANNER_EINPUT,
	           (const char *[]){"bad.yaml:2:", "did you mean 'europe'?", NULL});
	free(spec);
	free(dir);
	free(db);
}
END_TEST

START_TEST(a_currency_without_a_rate_names_fx_auto)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "s.yaml", "version: 1\ncurrency: SEK\njobs: []\n");
	const char *argv[] = {"compare", spec, NULL};
	expect_err(argv, PLANNER_EINPUT, (const char *[]){"s.yaml:2:", "fx: auto", NULL});
	free(spec);
	free(dir);
}
END_TEST

START_TEST(a_purchase_splits_card_and_host_and_says_once_when_no_host_is_priced)
{
	char *db = db_arg(), *dir = test_tmpdir(), *out = NULL, *err = NULL;
	char *spec = spec_buying(dir,
	                         "currency: EUR\nfx: auto\nelectricity_per_kwh: 0.3\n"
	                         "costs: {host: {price: 1200, gpus: 1}}\n",
	                         "{gpu: RTX 4060 Ti 16GB, price: 450}");
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "buy 1x RTX 4060 Ti 16GB for 1650 EUR (card 450 + host 1200)"),
	              "%s", out);
	ck_assert_msg(!strstr(err, "already paid for"), "%s", err);
	free(out);
	free(err);
	free(spec);
	/* No host: the GPU alone, said once, with the key that prices one. */
	spec = spec_buying(dir, "electricity_per_kwh: 0.3\n", "{gpu: RTX 4090}, {gpu: RTX 5090}");
	const char *bare[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(bare, NULL, &out, &err), 0);
	ck_assert_int_eq(count(err, "assumes a computer already paid for; costs: {host:"), 1);
	ck_assert_msg(!strstr(out, "(card"), "%s", out);
	free(out);
	free(err);
	free(spec);
	/* A Mac is its own host: nothing to say. */
	spec = spec_buying(dir, "electricity_per_kwh: 0.3\n", "{gpu: M2 Max 30-core}");
	const char *mac[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(mac, NULL, &out, &err), 0);
	ck_assert_msg(strstr(out, "buy 1x M2 Max 30-core for "), "%s", out);
	ck_assert_msg(!strstr(err, "already paid for"), "%s", err);
	free(out);
	free(err);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

START_TEST(the_default_electricity_price_is_said_once_and_a_given_one_is_not)
{
	char *db = db_arg(), *dir = test_tmpdir(), *err = NULL, *msg = NULL;
	char *spec =
	    spec_buying(dir, "currency: EUR\nfx: auto\n", "{gpu: RTX 4090}, {gpu: RTX 5090}");
	struct jobspec *js = NULL;
	ck_assert_int_eq(jobspec_load(spec, test_ref(), &js, &msg), PLANNER_OK);
	char *want = xasprintf("planner: note: electricity %.3f EUR/kWh: the US 2023 residential "
	                       "default; set electricity_per_kwh\n",
	                       js->electricity_per_kwh);
	ck_assert(js->electricity_default);
	jobspec_free(js);
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, NULL, &err), 0);
	ck_assert_msg(count(err, want) == 1, "no one \"%s\" in:\n%s", want, err);
	free(err);
	free(spec);
	spec = spec_buying(dir, "electricity_per_kwh: 0.3\n", "{gpu: RTX 4090}");
	const char *given[] = {"compare", spec, "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(given, NULL, NULL, &err), 0);
	ck_assert_msg(!strstr(err, "electricity"), "%s", err);
	free(err);
	free(want);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("a newcomer at a terminal");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_price_note_is_one_short_line_on_a_terminal_and_whole_with_verbose);
	tcase_add_test(tc,
	               offers_and_models_fit_80_columns_on_a_terminal_and_keep_every_column_off_it);
	tcase_add_test(
	    tc, offers_api_prints_in_the_currency_asked_or_the_specs_with_the_unit_in_the_header);
	tcase_add_test(tc, an_empty_offers_result_says_why_on_stderr_and_is_an_empty_json_list);
	tcase_add_test(tc, unknown_names_get_the_nearest_name_and_the_list);
	tcase_add_test(tc, a_currency_without_a_rate_names_fx_auto);
	tcase_add_test(tc, a_purchase_splits_card_and_host_and_says_once_when_no_host_is_priced);
	tcase_add_test(tc, the_default_electricity_price_is_said_once_and_a_given_one_is_not);
	suite_add_tcase(s, tc);
	return s;
}
