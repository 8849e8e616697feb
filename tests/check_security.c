/* check_security.c — keys and hostile data, end to end.
 *
 * Keys: every keyed provider refreshes with a distinctive fake key, to
 * success and to every kind of failure (one that echoes the key back
 * included), plain, --verbose and --format json; the key must then be in
 * none of stdout, stderr, the database file, its WAL and shared-memory
 * files, the lock file, refresh_runs.error and providers.last_error, nor in
 * what `providers` and `offers` print. Core files are out of scope: the
 * key sits in the process's environment and in libcurl's header list for
 * the process's life, so a core holds it by construction; what can be
 * asserted is that nothing the planner writes or prints does.
 *
 * Data: names from a feed (tests/fixture_server.py "evil") and job names
 * from a spec made of quotes, SQL, terminal escapes (ESC[2J, OSC 52, the
 * one-byte CSI U+009B) and spreadsheet formulas are stored literally and
 * come out harmless: tables carry no control character, CSV cells cannot
 * start a formula, HTML is escaped, JSON round-trips them exactly. */
#include <cJSON.h>
#include <check.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "provider.h"
#include "testutil.h"
#include "util.h"

static struct test_fixture server;

static void start(void)
{
	test_fixture_start(&server, 2.0);
}

static void stop(void)
{
	test_fixture_stop(&server);
}

/* The fake key every adapter of provider_list with a key variable gets
 * (written into buf, len bytes): odd enough that finding it anywhere is no
 * accident, and naming its adapter. */
static const char *key_of(const struct provider *p, char *buf, size_t len)
{
	snprintf(buf, len, "sec-%s-Qz7Wv1Kx9", p->name);
	return buf;
}

/* The strings tests/fixture_server.py's EVIL list puts in names. */
static const char *const evil[] = {
	"quo\"te's \"x\"",
	"'); DROP TABLE offers;--",
	"\x1b[2Jcleared",
	"\x1b]52;c;ZXZpbA==\x07osc52",
	"=HYPERLINK(\"http://x\")",
	"+1+cmd|' /C calc'!A0",
	"-2+3",
	"@SUM(A1)",
	"<script>alert(1)</script>&amp;",
	("\xc2\x9b" "2Jc1"), /* one string: the escape ends before the 2 */
};
#define N_EVIL (sizeof evil / sizeof evil[0])

/* Runs the planner with every provider pointed at the fixture server in
 * scenario `scen` (the one named `who` only, when not NULL; the others
 * "ok"), every key set, and small limits. */
static int run(const char *const *argv, const char *who, const char *scen, char **out,
	       char **err)
{
	size_t n = 0;
	while (provider_list[n])
		n++;
	char **env = calloc(2 * n + 8, sizeof *env), var[64], key[64];
	size_t e = 0;
	ck_assert_ptr_nonnull(env);
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *p = provider_list[i];
		provider_url_env(p, var, sizeof var);
		env[e++] = xasprintf("%s=http://127.0.0.1:%d/%s", var, server.port,
				     !who || !strcmp(who, p->name) ? scen : "ok");
		if (p->key_env)
			env[e++] = xasprintf("%s=%s", p->key_env, key_of(p, key, sizeof key));
	}
	const char *fixed[] = {"VERDA_CLIENT_ID=sec-verda-client-id", "HOTAISLE_TEAM_HANDLE=sec-team",
			       "PLANNER_AWS_REGIONS=us-east-1", "PLANNER_HTTP_TIMEOUT_MS=3000",
			       "PLANNER_HTTP_RETRIES=0", "PLANNER_REFRESH_LOCK_WAIT_MS=100"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		env[e++] = xstrdup(fixed[i]);
	env[e] = NULL;
	int rc = test_run_planner(argv, (const char *const *)env, out, err);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
	free(env);
	return rc;
}

static char *new_db(void)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir);
	free(dir);
	return db;
}

/* Which key, if any, appears in len bytes at p; NULL when none. */
static const char *key_in(const void *p, size_t len)
{
	static char key[64];
	for (size_t i = 0; p && provider_list[i]; i++) {
		if (!provider_list[i]->key_env)
			continue;
		key_of(provider_list[i], key, sizeof key);
		if (test_memmem(p, len, key, strlen(key)))
			return key;
	}
	return NULL;
}

static void no_key_in_text(const char *what, const char *text)
{
	const char *k = key_in(text, text ? strlen(text) : 0);
	ck_assert_msg(!k, "key %s in %s: %s", k, what, text);
}

static void no_key_in_file(const char *path)
{
	size_t n = 0;
	char *bytes = read_file(path, &n);
	const char *k = key_in(bytes, n);
	ck_assert_msg(!k, "key %s in %s", k, path);
	free(bytes);
}

/* Every file the store writes next to db: the database, its WAL and
 * shared-memory files, the refresh lock. */
static void no_key_in_files(const char *db)
{
	const char *suffix[] = {"", "-wal", "-shm", ".lock", "-journal"};
	for (size_t i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		char *p = xasprintf("%s%s", db, suffix[i]);
		no_key_in_file(p);
		free(p);
	}
}

/* Where the test's text columns of refresh_runs and providers hold a key. */
static void no_key_in_columns(const char *db)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *s = NULL;
	ck_assert_int_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(h,
					    "SELECT ifnull(error, '') FROM refresh_runs UNION ALL "
					    "SELECT ifnull(last_error, '') FROM providers",
					    -1, &s, NULL),
			 SQLITE_OK);
	while (sqlite3_step(s) == SQLITE_ROW)
		no_key_in_text("refresh_runs.error or providers.last_error",
			       (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(h);
}

START_TEST(keys_never_reach_the_files_or_the_output_of_any_keyed_provider)
{
	/* Success, a key echoed in a 200 error body, a 500, a cut body, an
	 * HTML page, a hostile error message. */
	const char *const scenarios[] = {"ok", "echokey", "500", "drop", "html", "evilerr"};
	const char *const flags[][3] = {{NULL}, {"--verbose", NULL}, {"--format", "json", NULL}};
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *kp = provider_list[i];
		if (!kp->key_env || kp->retired) /* a retired feed is never fetched */
			continue;
		char *db = new_db();
		for (size_t s = 0; s < sizeof scenarios / sizeof scenarios[0]; s++) {
			for (size_t f = 0; f < sizeof flags / sizeof flags[0]; f++) {
				const char *argv[10] = {"refresh", "--db", db, "--provider",
							kp->name};
				size_t a = 5;
				for (size_t k = 0; flags[f][k]; k++)
					argv[a++] = flags[f][k];
				argv[a] = NULL;
				char scen[48], *out = NULL, *err = NULL;
				snprintf(scen, sizeof scen, "%s-sec%s", scenarios[s], kp->name);
				int rc = run(argv, kp->name, scen, &out, &err);
				ck_assert_msg(rc == (s == 0 ? 0 : 3), "%s, %s: exit %d: %s",
					      kp->name, scen, rc, err);
				no_key_in_text("stdout", out);
				no_key_in_text("stderr", err);
				free(out);
				free(err);
			}
		}
		no_key_in_files(db);
		no_key_in_columns(db);
		const char *const readers[][8] = {
			{"providers", "--db", db, NULL},
			{"providers", "--db", db, "--format", "json", "--verbose", NULL},
			{"offers", "--db", db, "--provider", kp->name, "--format", "json", NULL},
			{"offers", "--db", db, "--api", "--format", "csv", NULL},
		};
		for (size_t r = 0; r < sizeof readers / sizeof readers[0]; r++) {
			char *out = NULL, *err = NULL;
			ck_assert_int_eq(run(readers[r], NULL, "ok", &out, &err), 0);
			no_key_in_text(readers[r][0], out);
			no_key_in_text(readers[r][0], err);
			free(out);
			free(err);
		}
		free(db);
	}
}
END_TEST

/* The fixture server's log of one scenario segment, as text. */
static char *server_log(const char *segment)
{
	return test_fixture_log(&server, segment);
}

START_TEST(every_keyed_provider_sends_its_key_in_a_header_never_in_the_url)
{
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *kp = provider_list[i];
		if (!kp->key_env || kp->retired) /* a retired feed is never fetched */
			continue;
		char *db = new_db(), *out = NULL, *err = NULL, scen[48];
		snprintf(scen, sizeof scen, "ok-hdr%s", kp->name);
		const char *argv[] = {"refresh", "--db", db, "--provider", kp->name, NULL};
		ck_assert_int_eq(run(argv, kp->name, scen, &out, &err), 0);
		char *log = server_log(scen);
		/* Bearer, Google's key header, a named key header (shadeform's
		 * X-API-KEY, hyperstack's api_key, fluidstack's api-key), Hot Aisle's "Token"
		 * scheme, or an OAuth client secret POSTed for a token that then travels as
		 * Bearer (verda). */
		ck_assert_msg(strstr(log, "\"auth\": \"Bearer\"") || strstr(log, "\"goog_key\": true") ||
				  strstr(log, "\"auth\": \"Token\"") ||
				  strstr(log, "\"key_header\": \"X-API-KEY\"") ||
				  strstr(log, "\"key_header\": \"api_key\"") ||
				  strstr(log, "\"key_header\": \"api-key\"") ||
				  strstr(log, "\"apitoken\": true"),
			      "%s sent no key: %s", kp->name, log);
		if (!strcmp(kp->name, "verda"))
			ck_assert_msg(strstr(log, "\"client_secret\": true"), "verda sent no secret: %s",
				      log);
		no_key_in_text("a request line", log);
		free(log);
		free(out);
		free(err);
		free(db);
	}
}
END_TEST

/* The first byte a terminal would act on: a C0 control other than
 * newline and tab, DEL, or (when c1) a C1 control in UTF-8. NULL when
 * none. */
static const char *control_in(const char *s, bool c1)
{
	for (const unsigned char *p = (const unsigned char *)s; p && *p; p++) {
		if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
			return (const char *)p;
		if (c1 && *p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return (const char *)p;
	}
	return NULL;
}

static void harmless_table(const char *what, const char *text)
{
	const char *c = control_in(text, true);
	ck_assert_msg(!c, "%s: control byte 0x%02x at offset %ld: %s", what, (unsigned char)*c,
		      (long)(c - text), text);
}

/* Checks every cell of CSV text: none may start a spreadsheet formula
 * (= + - @, or TAB or CR before one) unless it is a plain number. Returns the cells read. */
static size_t harmless_csv(const char *what, const char *text)
{
	size_t cells = 0;
	const char *p = text;
	while (*p) {
		struct buf cell = {0};
		if (*p == '"') {
			for (p++; *p; p++) {
				if (*p == '"' && p[1] == '"') {
					ck_assert(buf_append(&cell, "\"", 1));
					p++;
				} else if (*p == '"') {
					p++;
					break;
				} else {
					ck_assert(buf_append(&cell, p, 1));
				}
			}
		} else {
			size_t n = strcspn(p, ",\r\n");
			ck_assert(buf_append(&cell, p, n));
			p += n;
		}
		const char *v = cell.data ? cell.data : "";
		if (*v && strchr("=+-@\t\r", *v)) {
			char *end;
			strtod(v, &end);
			ck_assert_msg(end != v && !*end, "%s: a formula cell: %s", what, v);
		}
		cells++;
		buf_free(&cell);
		if (*p == ',')
			p++;
		else
			p += strspn(p, "\r\n");
	}
	return cells;
}

/* Whether JSON text holds string s as some value, exactly. */
static bool json_has_string(const cJSON *j, const char *s)
{
	if (cJSON_IsString(j) && j->valuestring && strstr(j->valuestring, s))
		return true;
	for (const cJSON *c = j ? j->child : NULL; c; c = c->next)
		if (json_has_string(c, s))
			return true;
	return false;
}

static char *output_of(const char *const *argv, int want)
{
	char *out = NULL, *err = NULL;
	int rc = run(argv, NULL, "ok", &out, &err);
	ck_assert_msg(rc == want, "%s: exit %d, want %d: %s", argv[0], rc, want, err);
	harmless_table("stderr", err);
	free(err);
	return out;
}

START_TEST(names_from_a_feed_are_stored_without_controls_and_printed_harmlessly)
{
	char *db = new_db(), *out = NULL, *err = NULL;
	const char *refresh[] = {"refresh", "--db", db, "--provider", "lambda,vast,openrouter",
				 NULL};
	ck_assert_int_eq(run(refresh, NULL, "evil", &out, &err), 0);
	free(out);
	free(err);
	/* Stored as sent less its control characters (the one sanitising step,
	 * text_sanitize, issue 12): each hostile string is a region or a name,
	 * and the SQL one dropped nothing. */
	sqlite3 *h = NULL;
	sqlite3_stmt *s = NULL;
	ck_assert_int_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(h,
					    "SELECT (SELECT count(*) FROM offers WHERE region = ?1 OR "
					    "instr(offer, ?1) > 0) + (SELECT count(*) FROM api_prices "
					    "WHERE instr(model, ?1) > 0)",
					    -1, &s, NULL),
			 SQLITE_OK);
	for (size_t i = 0; i < N_EVIL; i++) {
		char clean[128];
		text_sanitize(clean, sizeof clean, evil[i], NULL);
		sqlite3_reset(s);
		sqlite3_bind_text(s, 1, clean, -1, SQLITE_STATIC);
		ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
		ck_assert_msg(sqlite3_column_int(s, 0) > 0, "not stored: %s", clean);
	}
	sqlite3_finalize(s);
	sqlite3_close(h);

	const char *tables[][8] = {
		{"offers", "--db", db, "--provider", "lambda", "--limit", "0", NULL},
		{"offers", "--db", db, "--provider", "vast", "--limit", "0", NULL},
		{"offers", "--db", db, "--api", "--provider", "openrouter", NULL},
	};
	for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
		out = output_of(tables[t], 0);
		harmless_table(tables[t][4], out);
		ck_assert_msg(strstr(out, t < 2 ? "DROP TABLE" : "&amp;"), "not printed literally: %s",
			      out);
		free(out);
		const char *csv[10], *json[10];
		size_t n = 0;
		for (; tables[t][n]; n++)
			csv[n] = json[n] = tables[t][n];
		csv[n] = json[n] = "--format";
		csv[n + 1] = "csv";
		json[n + 1] = "json";
		csv[n + 2] = json[n + 2] = NULL;
		out = output_of(csv, 0);
		ck_assert_uint_gt(harmless_csv(tables[t][4], out), 10);
		free(out);
		out = output_of(json, 0);
		/* cJSON writes C0 controls as \u00XX; C1 ones are valid UTF-8 and
		 * JSON leaves them be: JSON is for programs, not terminals. */
		ck_assert_ptr_null(control_in(out, false));
		cJSON *doc = cJSON_Parse(out);
		ck_assert_ptr_nonnull(doc);
		size_t found = 0;
		for (size_t i = 0; i < N_EVIL; i++) {
			char clean[128];
			text_sanitize(clean, sizeof clean, evil[i], NULL);
			found += json_has_string(doc, clean);
		}
		ck_assert_msg(found >= 3, "only %zu hostile names round-tripped", found);
		cJSON_Delete(doc);
		free(out);
	}
	free(db);
}
END_TEST

/* Every string value of j passes text_sanitize unchanged: valid UTF-8,
 * no control character. */
static void clean_strings(const cJSON *j, const char *what)
{
	if (cJSON_IsString(j) && j->valuestring) {
		char buf[1024];
		ck_assert_msg(text_sanitize(buf, sizeof buf, j->valuestring, NULL) == 0,
			      "%s: unclean string '%s'", what, buf);
	}
	for (const cJSON *c = j ? j->child : NULL; c; c = c->next)
		clean_strings(c, what);
}

/* Issue 12, items 6 and 7: a Vast feed (tests/fixtures/providers/
 * vast.hostile.json) with 2,000,000,000 GPUs in an offer, 1e-300 USD an
 * hour, 64 GPUs, invalid UTF-8, control characters and the key echoed in a
 * region. The implausible rows are counted and left out; the others are
 * stored clean, and the report, the JSON and the .ics stay valid. */
START_TEST(a_hostile_feed_is_bounded_and_sanitised_where_it_enters_the_database)
{
	char *db = new_db(), *out = NULL, *err = NULL;
	const char *refresh[] = {"refresh", "--db", db, "--provider", "vast", "--format", "json",
				 NULL};
	ck_assert_int_eq(run(refresh, "vast", "hostile", &out, &err), 0);
	cJSON *res = cJSON_Parse(out);
	ck_assert_msg(res != NULL, "%s", out);
	cJSON *imp = cJSON_GetObjectItem(cJSON_GetArrayItem(res, 0), "implausible_rows");
	ck_assert_msg(cJSON_IsNumber(imp) && imp->valuedouble == 3, "%s", out);
	cJSON_Delete(res);
	free(out);
	free(err);
	char *bad = test_query(db,
			       "SELECT count(*) FROM offers WHERE gpu_count > 16 OR "
			       "price_per_hour / gpu_count < 0.01",
			       NULL);
	ck_assert_str_eq(bad, "0");
	free(bad);
	char *kept = test_query(db, "SELECT count(*) FROM offers WHERE offer IN "
				    "('9004', '9005', '9006')", NULL);
	ck_assert_str_eq(kept, "3");
	free(kept);
	no_key_in_files(db);

	const char *offers[] = {"offers", "--db", db, "--provider", "vast", "--format", "json", NULL};
	out = output_of(offers, 0);
	res = cJSON_Parse(out);
	ck_assert_msg(res != NULL, "offers JSON does not parse: %s", out);
	clean_strings(res, "offers --format json");
	cJSON_Delete(res);
	free(out);

	char *dir = test_tmpdir();
	char *spec = test_write(dir, "spec.yaml",
				"version: 1\nproviders: [vast]\njobs:\n"
				"  - name: j\n    model: llama-3.1-8b\n    precision: q4_k_m\n"
				"    hours_per_month: 10\n");
	char *html = xasprintf("%s/report.html", dir), *ics = xasprintf("%s/m.ics", dir);
	const char *report[] = {"report", spec, "--db", db, "-o", html, NULL};
	free(output_of(report, 0));
	char *cmd = xasprintf("python3 -c 'import sys, xml.etree.ElementTree as E; "
			      "E.parse(sys.argv[1])' '%s'",
			      html);
	ck_assert_msg(test_sh(cmd, NULL) == 0, "the report is not well-formed XML");
	free(cmd);
	const char *sched[] = {"schedule", spec, "--db", db, "--format", "ics", "-o", ics, NULL};
	free(output_of(sched, 0));
	size_t n = 0;
	char *text = read_file(ics, &n);
	ck_assert_ptr_nonnull(text);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg((unsigned char)text[i] >= 0x20 || text[i] == '\r' || text[i] == '\n',
			      "control 0x%02x at byte %zu of the .ics", text[i], i);
	free(text);
	free(html);
	free(ics);
	free(spec);
	free(dir);
	free(db);
}
END_TEST

START_TEST(a_hostile_error_message_is_printed_harmlessly)
{
	char *db = new_db(), *out = NULL, *err = NULL;
	const char *refresh[] = {"refresh", "--db", db, "--provider", "lambda,runpod", NULL};
	ck_assert_int_eq(run(refresh, NULL, "evilerr", &out, &err), 3);
	harmless_table("refresh's stderr", err);
	ck_assert_ptr_nonnull(strstr(err, "lambda says"));
	free(out);
	free(err);
	const char *providers[] = {"providers", "--db", db, NULL};
	out = output_of(providers, 0);
	harmless_table("providers", out);
	ck_assert_ptr_nonnull(strstr(out, "last error"));
	free(out);
	free(db);
}
END_TEST

/* A spec whose job names are the hostile strings that a job name may hold
 * (no control character, C0 or C1: the spec loader refuses those, see
 * below). */
static char *hostile_spec(const char *dir)
{
	static const char *const names[] = {
	    "\"quo\\\"te's\"",
	    "\"'); DROP TABLE offers;--\"",
	    "\"=HYPERLINK(\\\"http://x\\\")\"",
	    "\"+1+cmd|' /C calc'!A0\"",
	    "\"-2+3\"",
	    "\"@SUM(A1)\"",
	    "\"<script>alert(1)</script>\"",
	    "\"#x: {y} \\u00e9\"",
	};
	struct buf b = {0};
	ck_assert(buf_printf(&b, "version: 1\ncurrency: USD\nowned:\n  - {gpu: RTX 4090, count: 1}\n"
				 "jobs:\n"));
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ck_assert(buf_printf(&b,
				     "  - name: %s\n    model: llama-3.1-8b\n    precision: q4_k_m\n"
				     "    context: 8192\n    batch: 4\n    hours_per_month: %zu\n"
				     "    tokens_per_month: {input: 200M, output: 40M}\n"
				     "    data: public\n    interruptible: true\n"
				     "    schedule: {window: \"00:00-24:00\"}\n",
				     names[i], 10 + i));
	char *path = test_write(dir, "hostile.yaml", b.data);
	buf_free(&b);
	return path;
}

START_TEST(job_names_from_a_spec_are_printed_harmlessly_in_every_format)
{
	char *dir = test_tmpdir(), *db = xasprintf("%s/prices.db", dir), *out = NULL, *err = NULL;
	const char *refresh[] = {"refresh", "--db", db, "--provider", "lambda,vast,openrouter",
				 NULL};
	ck_assert_int_eq(run(refresh, NULL, "evil", &out, &err), 0);
	free(out);
	free(err);
	char *spec = hostile_spec(dir);
	char *html = xasprintf("%s/report.html", dir);

	const char *table[] = {"compare", spec, "--db", db, NULL};
	out = output_of(table, 0);
	harmless_table("compare", out);
	ck_assert_ptr_nonnull(strstr(out, "DROP TABLE"));
	free(out);
	const char *csv[] = {"compare", spec, "--db", db, "--format", "csv", NULL};
	out = output_of(csv, 0);
	ck_assert_uint_gt(harmless_csv("compare csv", out), 10);
	free(out);
	const char *json[] = {"compare", spec, "--db", db, "--format", "json", NULL};
	out = output_of(json, 0);
	cJSON *doc = cJSON_Parse(out);
	ck_assert_ptr_nonnull(doc);
	ck_assert(json_has_string(doc, "'); DROP TABLE offers;--"));
	ck_assert(json_has_string(doc, "#x: {y} \xc3\xa9"));
	cJSON_Delete(doc);
	free(out);

	const char *report[] = {"report", spec, "--db", db, "-o", html, "--quiet", NULL};
	free(output_of(report, 0));
	char *page = test_slurp(html);
	ck_assert_ptr_nonnull(page);
	ck_assert_msg(!strstr(page, "<script>alert"), "unescaped markup in the report");
	ck_assert_ptr_nonnull(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	ck_assert_ptr_null(strstr(page, "\x1b"));
	free(page);

	/* The scheduler, where this build has one. */
	const char *help[] = {"schedule", "--help", NULL};
	char *herr = NULL;
	if (run(help, NULL, "ok", &out, &herr) == 0) {
		free(out);
		const char *st[] = {"schedule", spec, "--db", db, "--month", "2026-03", NULL};
		out = output_of(st, 0);
		harmless_table("schedule", out);
		free(out);
		const char *sc[] = {"schedule", spec, "--db", db, "--month", "2026-03", "--format",
				    "csv", NULL};
		out = output_of(sc, 0);
		harmless_csv("schedule csv", out);
		free(out);
		const char *sj[] = {"schedule", spec, "--db", db, "--month", "2026-03", "--format",
				    "json", NULL};
		out = output_of(sj, 0);
		doc = cJSON_Parse(out);
		ck_assert_ptr_nonnull(doc);
		ck_assert(json_has_string(doc, "=HYPERLINK(\"http://x\")"));
		cJSON_Delete(doc);
	}
	free(out);
	free(herr);
	unlink(html);
	unlink(spec);
	free(html);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

START_TEST(a_job_name_with_a_terminal_escape_is_refused_without_echoing_it)
{
	char *dir = test_tmpdir();
	char *spec = test_write(dir, "esc.yaml",
				"version: 1\njobs:\n  - name: \"\\e[2Jgone\"\n    model: llama-3.1-8b\n"
				"    precision: q4_k_m\n    hours_per_month: 10\n");
	char *db = xasprintf("%s/prices.db", dir);
	const char *argv[] = {"compare", spec, "--db", db, NULL};
	free(output_of(argv, PLANNER_EINPUT));
	unlink(spec);
	free(spec);
	/* a C1 control (CSI) too (issue 26) */
	spec = test_write(dir, "csi.yaml",
	                  "version: 1\njobs:\n  - name: \"\\u009b2Jc1\"\n    model: llama-3.1-8b\n"
	                  "    precision: q4_k_m\n    hours_per_month: 10\n");
	argv[1] = spec;
	free(output_of(argv, PLANNER_EINPUT));
	unlink(spec);
	free(spec);
	free(db);
	free(dir);
}
END_TEST

Suite *security_suite(void)
{
	Suite *s = suite_create("security");
	TCase *t = tcase_create("keys");
	tcase_add_unchecked_fixture(t, start, stop);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, keys_never_reach_the_files_or_the_output_of_any_keyed_provider);
	tcase_add_test(t, every_keyed_provider_sends_its_key_in_a_header_never_in_the_url);
	suite_add_tcase(s, t);
	t = tcase_create("hostile data");
	tcase_add_unchecked_fixture(t, start, stop);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, names_from_a_feed_are_stored_without_controls_and_printed_harmlessly);
	tcase_add_test(t, a_hostile_error_message_is_printed_harmlessly);
	tcase_add_test(t, a_hostile_feed_is_bounded_and_sanitised_where_it_enters_the_database);
	tcase_add_test(t, job_names_from_a_spec_are_printed_harmlessly_in_every_format);
	tcase_add_test(t, a_job_name_with_a_terminal_escape_is_refused_without_echoing_it);
	suite_add_tcase(s, t);
	return s;
}
