/* check_concurrency.c — refresh under concurrency and crashes, the real
 * binary against the loopback fixture server: two refreshes started
 * together, eight readers (offers, compare, schedule) during refreshes of
 * a large Vast feed, and kill -9 of a refresh at 50 random points. The
 * figures (iterations, kills) go to stderr for the record.
 *
 * Slow (about a minute): the suite is empty unless PLANNER_SLOW_TESTS=1,
 * which `make check-slow` sets. Old and new rows are told apart by the
 * fixture server: Vast's "gen-<n>-a" offers have ids starting with 1, its
 * "gen-<n>-b" ones ids starting with 2 and 10% more of them; the other
 * feeds' "shift" scenario multiplies every price by 1.5. */
/* putenv is XSI. */
#define _XOPEN_SOURCE 700

#include <check.h>
#include <cJSON.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "provider.h"
#include "testutil.h"
#include "util.h"

/* Vast offers per generated feed: enough that a replace takes a while,
 * few enough that eight readers parsing all of them keep up on 2 cores. */
#define GEN_OFFERS 10000
#define READERS 8
/* Bounds, never assertions: a reader stops after this many commands. */
#define READER_MAX_ITERATIONS 400
#define KILLS 50

static struct test_fixture server;

static void start(void)
{
	test_fixture_start(&server, 1.0);
}

static void stop(void)
{
	test_fixture_stop(&server);
}

/* Every adapter of provider_list is pointed at the fixture server. */
static size_t n_feeds(void)
{
	size_t n = 0;
	while (provider_list[n])
		n++;
	return n;
}

/* The feeds a plain refresh runs: the adapters less the retired ones
 * (struct provider, `retired`), which it skips. */
static size_t n_live_feeds(void)
{
	size_t n = 0;
	for (size_t i = 0; provider_list[i]; i++)
		n += !provider_list[i]->retired;
	return n;
}

/* The environment for a refresh of feed set `set` ('a': "ok" and Vast
 * gen-a; 'b': "shift" and Vast gen-b), RUNPOD in `runpod` when not NULL,
 * and `extra`. NULL-terminated, malloc'd strings; free with env_free. */
static char **env_for(char set, const char *runpod, const char *extra)
{
	char **env = calloc(2 * n_feeds() + 16, sizeof *env);
	size_t e = 0;
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *p = provider_list[i];
		char scen[48], var[64];
		if (!strcmp(p->name, "vast"))
			snprintf(scen, sizeof scen, "gen-%d-%c", GEN_OFFERS, set);
		else if (runpod && !strcmp(p->name, "runpod"))
			snprintf(scen, sizeof scen, "%s", runpod);
		else
			snprintf(scen, sizeof scen, "%s", set == 'a' ? "ok" : "shift");
		provider_url_env(p, var, sizeof var);
		env[e++] = xasprintf("%s=http://127.0.0.1:%d/%s", var, server.port, scen);
		/* The keys refresh needs; the optional ones stay unset. */
		if (p->key_env && !p->key_optional)
			env[e++] = xasprintf("%s=k-%s", p->key_env, p->name);
	}
	/* Verda's OAuth client id, read beside its key variable. */
	env[e++] = xstrdup("VERDA_CLIENT_ID=fixture-client-id");
	env[e++] = xstrdup("HOTAISLE_TEAM_HANDLE=fixture-team");
	/* The exchange rates step reads its recorded document in both sets. */
	env[e++] = xasprintf("PLANNER_ECB_URL=http://127.0.0.1:%d/ok", server.port);
	const char *fixed[] = {"PLANNER_AWS_REGIONS=us-east-1", "PLANNER_HTTP_TIMEOUT_MS=20000",
			       "PLANNER_HTTP_RETRIES=0"};
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		env[e++] = xstrdup(fixed[i]);
	if (extra)
		env[e++] = xstrdup(extra);
	return env;
}

static void env_free(char **env)
{
	for (size_t i = 0; env && env[i]; i++)
		free(env[i]);
	free(env);
}

/* Starts the planner in the background, stdout and stderr to files. */
static pid_t spawn(const char *const *argv, char **env, const char *out, const char *err)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!bin || !*bin)
		bin = "build/planner";
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (o < 0 || e < 0)
			_exit(127);
		dup2(o, 1);
		dup2(e, 2);
		for (size_t i = 0; env && env[i]; i++)
			putenv(env[i]);
		size_t n = 0;
		while (argv[n])
			n++;
		const char **av = calloc(n + 2, sizeof *av);
		av[0] = bin;
		memcpy(av + 1, argv, n * sizeof *av);
		execv(bin, (char *const *)av);
		_exit(127);
	}
	return pid;
}

static int exit_of(pid_t pid)
{
	int st = 0;
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int refresh(const char *db, char set, const char *runpod, const char *extra, char **err)
{
	const char *argv[] = {"refresh", "--db", db, "--quiet", NULL};
	char **env = env_for(set, runpod, extra);
	int rc = test_run_planner(argv, (const char *const *)env, NULL, err);
	env_free(env);
	return rc;
}

/* A provider's rows in one line: count, price sum, first and last key.
 * Set a and set b differ in every part for every feed. */
static char *fingerprint(const char *db, const char *provider)
{
	return test_query(db,
		  "SELECT (SELECT count(*) || '|' || printf('%.6f', total(price_per_hour)) || '|' || "
		  "ifnull(min(offer || region || spot), '') || '|' || "
		  "ifnull(max(offer || region || spot), '') FROM offers WHERE provider = ?1) || '#' || "
		  "(SELECT count(*) || '|' || printf('%.6f', total(input_per_token + "
		  "output_per_token) * 1e6) || '|' || ifnull(min(model), '') || '|' || "
		  "ifnull(max(model), '') FROM api_prices WHERE provider = ?1)",
		  provider);
}

static char *new_dir_db(char **dir)
{
	*dir = test_tmpdir();
	return xasprintf("%s/prices.db", *dir);
}

START_TEST(two_refreshes_started_together_never_write_at_once)
{
	char *dir, *db = new_dir_db(&dir);
	const char *argv[] = {"refresh", "--db", db, "--quiet", NULL};
	/* runpod answers after a second, so the first refresh holds the
	 * lock while the second starts. */
	for (int waits = 0; waits < 2; waits++) {
		char **env = env_for('a', "slow", waits ? "PLANNER_REFRESH_LOCK_WAIT_MS=60000"
							: "PLANNER_REFRESH_LOCK_WAIT_MS=0");
		char *out[2], *err[2];
		pid_t pid[2];
		for (int k = 0; k < 2; k++) {
			out[k] = xasprintf("%s/out%d", dir, k);
			err[k] = xasprintf("%s/err%d", dir, k);
			pid[k] = spawn(argv, env, out[k], err[k]);
		}
		int rc[2] = {exit_of(pid[0]), exit_of(pid[1])};
		char *text[2] = {test_slurp(err[0]), test_slurp(err[1])};
		if (!waits) {
			/* One wins; the other says why it gave up. */
			int loser = rc[0] == 0 ? 1 : 0;
			ck_assert_msg(rc[1 - loser] == 0, "exits %d %d: %s / %s", rc[0], rc[1],
				      text[0], text[1]);
			ck_assert_int_eq(rc[loser], PLANNER_EDB);
			ck_assert_msg(strstr(text[loser], "another planner refresh is using") != NULL,
				      "the loser said: %s", text[loser]);
		} else {
			/* The second waits its turn and refreshes too. */
			ck_assert_msg(rc[0] == 0 && rc[1] == 0, "exits %d %d: %s / %s", rc[0], rc[1],
				      text[0], text[1]);
		}
		for (int k = 0; k < 2; k++) {
			ck_assert_ptr_null(strstr(text[k], "database is locked"));
			unlink(out[k]);
			unlink(err[k]);
			free(out[k]);
			free(err[k]);
			free(text[k]);
		}
		env_free(env);
	}
	/* Three complete refreshes of every feed and the exchange rates, no row
	 * twice, a sound file. */
	char *ok = test_query(db, "SELECT count(*) FROM refresh_runs WHERE status = 'ok'", NULL);
	char *vast = test_query(db, "SELECT count(*) FROM offers WHERE provider = 'vast'", NULL);
	char *dups = test_query(db,
			"SELECT count(*) FROM (SELECT provider, offer, region, spot FROM offers "
			"GROUP BY 1, 2, 3, 4 HAVING count(*) > 1)",
			NULL);
	char *check = test_query(db, "PRAGMA integrity_check", NULL);
	ck_assert_int_eq(atoi(ok), 3 * ((int)n_live_feeds() + 1));
	ck_assert_int_eq(atoi(vast), GEN_OFFERS);
	ck_assert_str_eq(dups, "0");
	ck_assert_str_eq(check, "ok");
	free(ok);
	free(vast);
	free(dups);
	free(check);
	free(db);
	free(dir);
}
END_TEST

/* What one reader saw. */
struct tally {
	long iterations; /* commands run */
	long failures;   /* non-zero exits, "locked" messages, mixed or partial results */
	long old_rows;   /* Vast results that were wholly set a */
	long new_rows;   /* … wholly set b */
	char first[400]; /* the first failure */
};

static void note_failure(struct tally *t, const char *fmt, const char *detail)
{
	if (!t->failures++)
		snprintf(t->first, sizeof t->first, fmt, detail ? detail : "");
}

/* Vast offer ids in one `offers` result, by first digit: a whole set a
 * (GEN_OFFERS ids starting with 1) or a whole set b (10% more, with 2). */
static void judge_ids(struct tally *t, long ones, long twos)
{
	if (ones == GEN_OFFERS && twos == 0)
		t->old_rows++;
	else if (twos == GEN_OFFERS + GEN_OFFERS / 10 && ones == 0)
		t->new_rows++;
	else {
		char what[64];
		snprintf(what, sizeof what, "%ld old and %ld new ids", ones, twos);
		note_failure(t, "a mixed or partial result: %s", what);
	}
}

static void judge_csv(struct tally *t, const char *out)
{
	long ones = 0, twos = 0;
	for (const char *l = strchr(out, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
		const char *offer = strchr(l + 1, ',');
		if (!offer)
			continue;
		ones += offer[1] == '1';
		twos += offer[1] == '2';
	}
	judge_ids(t, ones, twos);
}

static void judge_json(struct tally *t, const char *out)
{
	long ones = 0, twos = 0;
	cJSON *doc = cJSON_Parse(out);
	const cJSON *o;
	cJSON_ArrayForEach(o, doc)
	{
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(o, "offer");
		if (cJSON_IsString(id)) {
			ones += id->valuestring[0] == '1';
			twos += id->valuestring[0] == '2';
		}
	}
	cJSON_Delete(doc);
	judge_ids(t, ones, twos);
}

/* A reader process: runs its command until `stop` exists, then writes its
 * tally to `result`. Never asserts: the parent judges the tally. */
static void reader(int k, const char *db, const char *stop, const char *result, bool schedule)
{
	struct tally t = {0};
	const char *csv[] = {"offers", "--db", db, "--provider", "vast", "--limit", "0",
			     "--format", "csv", NULL};
	const char *json[] = {"offers", "--db", db, "--provider", "vast", "--limit", "0",
			      "--format", "json", NULL};
	const char *compare[] = {"compare", "jobs/monthly.yaml", "--db", db, "--quiet", NULL};
	/* Its hours need not all fit the fixture's offers: exit 6 is no read
	 * failure. */
	const char *sched[] = {"schedule", "jobs/monthly.yaml", "--db", db, "--month", "2026-03",
			       "--allow-unplaced", NULL};
	const char *const *cmds[] = {csv, json, compare, schedule ? sched : csv};
	const char *const *argv = cmds[k % 4];
	while (access(stop, F_OK) != 0 && t.iterations < READER_MAX_ITERATIONS) {
		char *out = NULL, *err = NULL;
		int rc = test_run_planner(argv, NULL, &out, &err);
		t.iterations++;
		if (rc != 0)
			note_failure(&t, "a failed read: %s", err);
		else if (err && (strstr(err, "locked") || strstr(err, "busy")))
			note_failure(&t, "a lock surfaced: %s", err);
		else if (argv == csv)
			judge_csv(&t, out ? out : "");
		else if (argv == json)
			judge_json(&t, out ? out : "");
		free(out);
		free(err);
	}
	FILE *f = fopen(result, "w");
	if (f) {
		fprintf(f, "%ld %ld %ld %ld\n%s\n", t.iterations, t.failures, t.old_rows, t.new_rows,
			t.first);
		fclose(f);
	}
}

START_TEST(readers_during_refreshes_see_old_rows_or_new_rows_never_a_mix)
{
	char *dir, *db = new_dir_db(&dir), *err = NULL;
	ck_assert_int_eq(refresh(db, 'a', NULL, NULL, &err), 0);
	free(err);
	const char *help[] = {"schedule", "--help", NULL};
	bool schedule = test_run_planner(help, NULL, NULL, NULL) == 0;
	char *stop_path = xasprintf("%s/stop", dir);
	pid_t pids[READERS];
	char *results[READERS];
	for (int k = 0; k < READERS; k++) {
		results[k] = xasprintf("%s/reader%d", dir, k);
		pids[k] = fork();
		ck_assert_int_ge(pids[k], 0);
		if (pids[k] == 0) {
			reader(k, db, stop_path, results[k], schedule);
			_exit(0);
		}
	}
	/* The writer: b, a, b, a, … each a whole replace of 10,000 offers or
	 * more, for a few seconds of readers. */
	int writes = 0;
	for (int i = 0; i < 12; i++) {
		ck_assert_int_eq(refresh(db, i % 2 ? 'a' : 'b', NULL, NULL, &err), 0);
		free(err);
		writes++;
	}
	FILE *f = fopen(stop_path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	struct tally sum = {0};
	for (int k = 0; k < READERS; k++) {
		ck_assert_int_eq(exit_of(pids[k]), 0);
		char *text = test_slurp(results[k]);
		struct tally t = {0};
		ck_assert_ptr_nonnull(text);
		ck_assert_int_eq(sscanf(text, "%ld %ld %ld %ld", &t.iterations, &t.failures,
					&t.old_rows, &t.new_rows),
				 4);
		ck_assert_msg(t.failures == 0, "reader %d: %ld failures, first: %s", k, t.failures,
			      strchr(text, '\n') + 1);
		sum.iterations += t.iterations;
		sum.old_rows += t.old_rows;
		sum.new_rows += t.new_rows;
		unlink(results[k]);
		free(results[k]);
		free(text);
	}
	ck_assert_int_gt(sum.iterations, 0);
	fprintf(stderr,
		"concurrency: %d readers, %ld reads during %d refreshes of %d+ offers, 0 failed; "
		"Vast results wholly old %ld, wholly new %ld%s\n",
		READERS, sum.iterations, writes, GEN_OFFERS, sum.old_rows, sum.new_rows,
		schedule ? "" : " (no schedule command)");
	unlink(stop_path);
	free(stop_path);
	free(db);
	free(dir);
}
END_TEST

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

START_TEST(kill_9_at_random_points_leaves_each_provider_its_old_or_new_rows)
{
	char *dir, *db = new_dir_db(&dir), *err = NULL;
	char *bdir, *bdb = new_dir_db(&bdir);
	size_t n_fp = n_feeds();
	char *(*fp)[2] = calloc(n_fp, sizeof *fp);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(refresh(db, 'a', NULL, NULL, &err), 0);
	free(err);
	/* How long a whole refresh takes here: the range of kill points. */
	double t0 = now_s();
	ck_assert_int_eq(refresh(bdb, 'b', NULL, NULL, &err), 0);
	double span = now_s() - t0;
	free(err);
	for (size_t i = 0; i < n_fp; i++) {
		fp[i][0] = fingerprint(db, provider_list[i]->name);
		fp[i][1] = fingerprint(bdb, provider_list[i]->name);
		/* A retired feed is not run: it holds no rows either way. */
		if (!provider_list[i]->retired)
			ck_assert_str_ne(fp[i][0], fp[i][1]);
	}
	unsigned seed = 9;
	int killed = 0, finished = 0, changed = 0;
	const char *argv[] = {"refresh", "--db", db, "--quiet", NULL};
	char *out = xasprintf("%s/out", dir), *errp = xasprintf("%s/err", dir);
	for (int i = 0; i < KILLS; i++) {
		char **env = env_for(i % 2 ? 'a' : 'b', NULL, NULL);
		long delay_us = (long)(span * 1.2e6 * (rand_r(&seed) / (RAND_MAX + 1.0)));
		pid_t pid = spawn(argv, env, out, errp);
		struct timespec ts = {delay_us / 1000000, (delay_us % 1000000) * 1000};
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		int rc = exit_of(pid);
		env_free(env);
		if (rc == 128 + SIGKILL)
			killed++;
		else
			finished++;
		char *check = test_query(db, "PRAGMA integrity_check", NULL);
		ck_assert_msg(!strcmp(check, "ok"), "kill %d: integrity_check: %s", i, check);
		free(check);
		for (size_t p = 0; p < n_fp; p++) {
			char *now = fingerprint(db, provider_list[p]->name);
			ck_assert_msg(!strcmp(now, fp[p][0]) || !strcmp(now, fp[p][1]),
				      "kill %d after %ld us: %s has neither its old nor its new rows: %s",
				      i, delay_us, provider_list[p]->name, now);
			changed += !strcmp(now, fp[p][i % 2 ? 0 : 1]);
			free(now);
		}
	}
	/* The lock died with the process: the next refresh runs. */
	ck_assert_int_eq(refresh(db, 'a', NULL, "PLANNER_REFRESH_LOCK_WAIT_MS=0", &err), 0);
	free(err);
	fprintf(stderr,
		"concurrency: %d kill -9 over 0-%.0f ms: %d killed mid-run, %d had finished; "
		"integrity ok and old-or-new rows every time (%d provider states on the new set)\n",
		KILLS, span * 1200, killed, finished, changed);
	for (size_t i = 0; i < n_fp; i++) {
		free(fp[i][0]);
		free(fp[i][1]);
	}
	free(fp);
	unlink(out);
	unlink(errp);
	free(out);
	free(errp);
	free(bdb);
	free(bdir);
	free(db);
	free(dir);
}
END_TEST

Suite *concurrency_suite(void)
{
	Suite *s = suite_create("concurrency");
	const char *slow = getenv("PLANNER_SLOW_TESTS");
	if (!slow || strcmp(slow, "1"))
		return s; /* `make check-slow` runs it */
	TCase *t = tcase_create("refresh");
	tcase_add_unchecked_fixture(t, start, stop);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, two_refreshes_started_together_never_write_at_once);
	tcase_add_test(t, readers_during_refreshes_see_old_rows_or_new_rows_never_a_mix);
	tcase_add_test(t, kill_9_at_random_points_leaves_each_provider_its_old_or_new_rows);
	suite_add_tcase(s, t);
	return s;
}
