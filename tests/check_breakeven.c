/* check_breakeven.c — `planner breakeven`: the CSV is read back by a strict
 * RFC 4180 parser (Python's csv module, strict=True) and every figure is
 * compared with `planner compare --format json` for the same spec and
 * database: they must be equal, not merely close. */
#include <check.h>
#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"
#include "util.h"

#define PYTHON "/usr/bin/python3"

/* A spec whose job gives both hours and tokens on public data, so the api
 * vs rented break-even is a number, and whose name needs CSV quoting. */
static const char api_spec[] =
	"version: 1\ncurrency: USD\nelectricity_per_kwh: 0.2\n"
	"jobs:\n"
	"  - name: \"chat, \\\"eu\\\" =1\"\n"
	"    model: llama-3.1-8b\n    precision: q4_k_m\n"
	"    hours_per_month: 200\n"
	"    tokens_per_month: {input: 100M, output: 20M}\n"
	"    batch: max\n" /* one GPU at its largest batch can beat the API per token */
	"    interruptible: true\n";

/* The CSV at path as a JSON array of objects keyed by header, parsed by
 * the strict reader; fails the test when the file is not strict CSV. */
static cJSON *read_csv_strictly(const char *path)
{
	char *cmd = xasprintf("%s tests/tools/csv_to_json.py '%s'", PYTHON, path), *out = NULL;
	int rc = test_sh(cmd, &out);
	ck_assert_msg(rc == 0, "not strict RFC 4180 CSV: %s", path);
	cJSON *rows = cJSON_Parse(out);
	ck_assert_ptr_nonnull(rows);
	free(cmd);
	free(out);
	return rows;
}

static const char *cell(const cJSON *row, const char *col)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(row, col);
	ck_assert_msg(cJSON_IsString(v), "no column %s", col);
	return v->valuestring;
}

/* A CSV number cell equals a JSON number exactly, or the cell is empty
 * exactly when the JSON value is null or absent. */
static void same_number(const cJSON *row, const char *col, const cJSON *json, double scale)
{
	const char *s = cell(row, col);
	if (!cJSON_IsNumber(json)) {
		ck_assert_msg(*s == '\0', "%s: '%s' where JSON has no number", col, s);
		return;
	}
	ck_assert_msg(*s != '\0', "%s is empty where JSON has %g", col, json->valuedouble);
	char *end;
	double v = strtod(s, &end);
	ck_assert_msg(*end == '\0' && !strchr(s, ' '), "%s: '%s' is not a plain number", col, s);
	if (scale == 1)
		ck_assert_msg(v == json->valuedouble, "%s: csv %s != json %.17g", col, s,
			      json->valuedouble);
	else /* millions of tokens: six decimals hold every whole token */
		ck_assert_msg(llround(v * scale) == llround(json->valuedouble),
			      "%s: csv %s != json %.17g", col, s, json->valuedouble);
}

static const cJSON *route_of(const cJSON *job, const char *name)
{
	const cJSON *r;
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(job, "routes"))
	{
		if (!strcmp(cJSON_GetObjectItem(r, "route")->valuestring, name))
			return cJSON_IsTrue(cJSON_GetObjectItem(r, "feasible")) ? r : NULL;
	}
	return NULL;
}

static const cJSON *get(const cJSON *o, const char *k)
{
	return o ? cJSON_GetObjectItemCaseSensitive(o, k) : NULL;
}

/* Runs compare --format json and breakeven -o on spec with one database
 * and checks every row against the JSON. Returns how many rows had an api
 * vs rented break-even. */
static int check_spec_matches(const char *spec)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir), *csv = xasprintf("%s/be.csv", dir);
	char *out = NULL, *err = NULL;
	const char *cmp[] = {"compare", spec, "--format", "json", "--db", db, NULL};
	ck_assert_int_eq(test_run_planner(cmp, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	free(out);
	const char *be[] = {"breakeven", spec, "-o", csv, "--db", db, NULL};
	int rc = test_run_planner(be, NULL, &out, &err);
	ck_assert_msg(rc == 0, "exit %d: %s", rc, err);
	ck_assert_str_eq(out, ""); /* the CSV went to the file */
	free(out);
	free(err);
	char *raw = test_slurp(csv);
	ck_assert_ptr_nonnull(strstr(raw, "\r\n")); /* RFC 4180 line ends */
	free(raw);
	cJSON *rows = read_csv_strictly(csv);
	const cJSON *jobs = cJSON_GetObjectItem(root, "jobs");
	ck_assert_int_eq(cJSON_GetArraySize(rows), cJSON_GetArraySize(jobs));
	int api_be = 0;
	for (int i = 0; i < cJSON_GetArraySize(jobs); i++) {
		const cJSON *j = cJSON_GetArrayItem(jobs, i), *row = cJSON_GetArrayItem(rows, i);
		const cJSON *api = route_of(j, "api"), *rent = route_of(j, "rented");
		const cJSON *own = route_of(j, "owned"), *brk = get(j, "breakeven");
		ck_assert_str_eq(cell(row, "job"), get(j, "name")->valuestring);
		ck_assert_str_eq(cell(row, "model"), get(j, "model")->valuestring);
		ck_assert_str_eq(cell(row, "precision"), get(j, "precision")->valuestring);
		ck_assert_str_eq(cell(row, "currency"), get(root, "currency")->valuestring);
		ck_assert_str_eq(cell(row, "prices_as_of"), get(root, "prices_as_of")->valuestring);
		same_number(row, "vram_gib", get(j, "vram_gib"), 1);
		same_number(row, "gpu_hours_per_month", get(j, "gpu_hours_per_month"), 1);
		same_number(row, "api_monthly_cost", get(api, "monthly_cost"), 1);
		same_number(row, "rented_monthly_cost", get(rent, "monthly_cost"), 1);
		same_number(row, "rented_price_per_hour", get(rent, "price_per_hour"), 1);
		same_number(row, "rented_gpu_count", get(rent, "gpu_count"), 1);
		same_number(row, "owned_monthly_cost", get(own, "monthly_cost"), 1);
		same_number(row, "owned_capex", get(own, "capex"), 1);
		same_number(row, "owned_gpu_count", get(own, "gpu_count"), 1);
		same_number(row, "rented_replicas", get(rent, "replicas"), 1);
		same_number(row, "owned_replicas", get(own, "replicas"), 1);
		const cJSON *best_name = get(get(j, "best"), "route");
		same_number(row, "best_cost_per_mtok",
			    best_name ? get(route_of(j, best_name->valuestring), "cost_per_mtok")
				      : NULL,
			    1);
		same_number(row, "best_monthly_cost", get(get(j, "best"), "monthly_cost"), 1);
		same_number(row, "owned_vs_rented_breakeven_hours",
			    get(brk, "owned_vs_rented_hours_per_month"), 1);
		same_number(row, "owned_payback_months", get(brk, "owned_payback_months"), 1);
		same_number(row, "api_vs_rented_breakeven_mtokens",
			    get(brk, "api_vs_rented_tokens_per_month"), 1e6);
		ck_assert_str_eq(cell(row, "rented_offer"),
				 rent ? get(rent, "offer")->valuestring : "");
		ck_assert_str_eq(cell(row, "owned_gpu"), own ? get(own, "gpu")->valuestring : "");
		const cJSON *best = get(get(j, "best"), "route");
		ck_assert_str_eq(cell(row, "best_route"), best ? best->valuestring : "");
		api_be += cJSON_IsNumber(get(brk, "api_vs_rented_tokens_per_month"));
	}
	cJSON_Delete(rows);
	cJSON_Delete(root);
	unlink(csv);
	unlink(db);
	rmdir(dir);
	free(csv);
	free(db);
	free(dir);
	return api_be;
}

START_TEST(every_figure_of_the_tour_csv_equals_compare_json)
{
	check_spec_matches("jobs/monthly.yaml");
}
END_TEST

START_TEST(a_quoted_job_name_and_an_api_break_even_survive_the_strict_parser)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "api.yaml", api_spec);
	ck_assert_int_eq(check_spec_matches(spec), 1);
	unlink(spec);
	rmdir(dir);
	free(spec);
	free(dir);
}
END_TEST

START_TEST(the_header_names_units_and_never_is_an_empty_cell)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir), *out = NULL;
	const char *argv[] = {"breakeven", "jobs/monthly.yaml", "--db", db, "--quiet", NULL};
	ck_assert_int_eq(test_run_planner(argv, NULL, &out, NULL), 0);
	ck_assert(!strncmp(out,
			   "job,model,precision,task,data,vram_gib,gpu_hours_per_month,"
			   "api_monthly_cost,",
			   72));
	static const char *const cols[] = {"owned_vs_rented_breakeven_hours,",
					   "owned_payback_months,",
					   "api_vs_rented_breakeven_mtokens,",
					   "serverless_vs_rented_breakeven_hours,", "currency,",
					   "prices_as_of,", "rented_replicas,", "owned_replicas,",
					   "best_cost_per_mtok,", "owned_payback_note\r\n"};
	for (size_t i = 0; i < sizeof cols / sizeof *cols; i++)
		ck_assert_msg(strstr(out, cols[i]) != NULL, "no column %s", cols[i]);
	/* contract-review (owned GPUs only): owned vs rented never, payback
	 * never, api vs rented never, serverless vs rented never. */
	char *row = strstr(out, "\r\ncontract-review,");
	ck_assert_ptr_nonnull(row);
	ck_assert_ptr_nonnull(strstr(row, ",owned,35.64,,,,,EUR,"));
	ck_assert_ptr_null(strstr(out, "nan"));
	/* "never" only in owned_payback_note, the last column; the figure
	 * columns stay empty */
	for (const char *n = strstr(out, "never"); n; n = strstr(n + 1, "never"))
		ck_assert_msg(!strncmp(n + 5, "\r\n", 2) && n[-1] == ',', "never in a figure column");
	free(out);
	unlink(db);
	rmdir(dir);
	free(db);
	free(dir);
}
END_TEST

/* GPUs on hand: at 0.05 a kWh support-bot's 4090 on hand beats the rental,
 * where the old figures read "0.0 h/month" and "0.0 months"; nothing was
 * bought, so every output says so in place of both figures. Each job alone
 * (--each-alone): shared, contract-review takes both 4090s. */
START_TEST(gpus_on_hand_say_already_owned_in_place_of_the_figures)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir), *out = NULL;
	const char *table[] = {"compare", "jobs/monthly.yaml",        "--db", db, "--quiet",
	                       "--set",   "electricity_per_kwh=0.05", "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(table, NULL, &out, NULL), 0);
	const char *bot = strstr(out, "\nsupport-bot  ");
	ck_assert_ptr_nonnull(bot);
	ck_assert_ptr_nonnull(strstr(bot, "1x RTX 4090 on hand"));
	ck_assert_ptr_nonnull(
	    strstr(bot, "break-even: already owned: power only; api vs rented never; "
	                "serverless vs rented never\n"));
	ck_assert_ptr_null(strstr(out, " 0.0 h/month"));
	ck_assert_ptr_null(strstr(out, " 0.0 months"));
	free(out);
	const char *json[] = {"compare", "jobs/monthly.yaml",        "--db",     db,     "--quiet",
	                      "--set",   "electricity_per_kwh=0.05", "--format", "json", "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(json, NULL, &out, NULL), 0);
	cJSON *root = cJSON_Parse(out);
	ck_assert_ptr_nonnull(root);
	const cJSON *jobs = get(root, "jobs"), *j;
	int on_hand = 0;
	cJSON_ArrayForEach(j, jobs)
	{
		const cJSON *brk = get(j, "breakeven"), *own = route_of(j, "owned");
		bool owned = own && cJSON_IsTrue(get(own, "already_owned"));
		ck_assert_msg(cJSON_IsBool(get(brk, "already_owned")), "no already_owned");
		ck_assert_int_eq(cJSON_IsTrue(get(brk, "already_owned")), owned);
		if (!owned)
			continue;
		on_hand++;
		ck_assert(cJSON_IsNull(get(brk, "owned_payback_months")));
		ck_assert(cJSON_IsNull(get(brk, "owned_vs_rented_hours_per_month")));
		ck_assert_str_eq(get(brk, "owned_payback_note")->valuestring,
		                 "already owned: power only");
	}
	ck_assert_int_eq(on_hand, 2); /* support-bot, contract-review */
	cJSON_Delete(root);
	free(out);
	const char *csv[] = {"breakeven", "jobs/monthly.yaml",        "--db", db, "--quiet",
	                     "--set",     "electricity_per_kwh=0.05", "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(csv, NULL, &out, NULL), 0);
	const char *row = strstr(out, "\r\nsupport-bot,");
	ck_assert_ptr_nonnull(row);
	/* best owned, its cost, then both owned figures and api empty */
	ck_assert_ptr_nonnull(strstr(row, ",owned,1.11,,,,,EUR,"));
	ck_assert(!strncmp(strstr(row + 2, "\r\n") - 26, ",already owned: power only", 26));
	free(out);
	char *html = xasprintf("%s/r.html", dir);
	const char *report[] = {
	    "report", "jobs/monthly.yaml",        "-o", html, "--db", db, "--quiet",
	    "--set",  "electricity_per_kwh=0.05", "--each-alone", NULL};
	ck_assert_int_eq(test_run_planner(report, NULL, NULL, NULL), 0);
	out = test_slurp(html);
	ck_assert_ptr_nonnull(strstr(out, "<p>Break-even: <b>already owned: power only</b>; api "
	                                  "vs rented <b>never</b>.</p>"));
	ck_assert_ptr_null(strstr(out, "<b>0.0 months</b>"));
	free(out);
	unlink(html);
	free(html);
	unlink(db);
	rmdir(dir);
	free(db);
	free(dir);
}
END_TEST

START_TEST(breakeven_refuses_json_and_names_a_missing_file)
{
	char *err = NULL;
	const char *json[] = {"breakeven", "jobs/monthly.yaml", "--format", "json", NULL};
	ck_assert_int_eq(test_run_planner(json, NULL, NULL, &err), 2);
	ck_assert_ptr_nonnull(strstr(err, "compare --format json"));
	free(err);
	const char *missing[] = {"breakeven", "no-such.yaml", NULL};
	ck_assert_int_eq(test_run_planner(missing, NULL, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "no-such.yaml"));
	free(err);
	const char *unwritable[] = {"breakeven", "jobs/monthly.yaml", "-o",
				    "/proc/no/such/dir/out.csv", "--quiet", NULL};
	char *dir = test_tmpdir(), *db = xasprintf("PLANNER_DB=%s/p.db", dir);
	const char *env[] = {db, NULL};
	ck_assert_int_eq(test_run_planner(unwritable, env, NULL, &err), 1);
	ck_assert_ptr_nonnull(strstr(err, "cannot write /proc/no/such/dir/out.csv"));
	free(err);
	free(db);
	free(dir);
}
END_TEST

Suite *breakeven_suite(void)
{
	Suite *s = suite_create("breakeven");
	TCase *tc = tcase_create("csv");
	tcase_set_timeout(tc, 0); /* no wall-clock limit: runs are slow under ASan */
	tcase_add_test(tc, every_figure_of_the_tour_csv_equals_compare_json);
	tcase_add_test(tc, a_quoted_job_name_and_an_api_break_even_survive_the_strict_parser);
	tcase_add_test(tc, the_header_names_units_and_never_is_an_empty_cell);
	tcase_add_test(tc, gpus_on_hand_say_already_owned_in_place_of_the_figures);
	tcase_add_test(tc, breakeven_refuses_json_and_names_a_missing_file);
	suite_add_tcase(s, tc);
	return s;
}
