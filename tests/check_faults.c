/* check_faults.c — fault injection on `planner refresh`: every adapter,
 * over real loopback HTTP, meets a closed port, a name that does not
 * resolve, TLS spoken to a plain-HTTP server, a port that never accepts, a
 * server that stalls mid-body, bodies cut at random offsets, 429 and 5xx
 * storms, a redirect loop, bodies past the cap, JSON of the wrong shape,
 * numbers as strings and strings as numbers, negative and absurd prices,
 * and a database that is read-only or locked by another writer.
 *
 * Each case starts from a copy of a database a good refresh filled, and
 * then checks: the provider's rows are the ones it had, refresh_runs holds
 * the failure (with the HTTP status when a response came), stderr is one
 * line naming the provider, and the exit status is 3 (feed) or 4
 * (database). Under `make asan` the planner under test is the ASan build,
 * whose LeakSanitizer turns a leak into a different exit status and a
 * report on stderr, both of which these checks catch. */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provider.h"
#include "testutil.h"
#include "util.h"

static struct test_fixture server;
static char *seeded; /* a database after a good refresh of every adapter */

/* Every adapter of provider_list is tested, each with a key when it has
 * a key variable; the values are of no importance here
 * (tests/check_security.c follows them). Appends "VAR=fault-<name>" for
 * each to env at *e. */
static void add_keys(char **env, size_t *e)
{
	for (size_t i = 0; provider_list[i]; i++)
		if (provider_list[i]->key_env)
			env[(*e)++] = xasprintf("%s=fault-%s", provider_list[i]->key_env,
						provider_list[i]->name);
	/* Verda's OAuth client id, read beside its key variable. */
	env[(*e)++] = xstrdup("VERDA_CLIENT_ID=fault-verda-id");
	/* Hot Aisle's team handle, a path segment beside its key. */
	env[(*e)++] = xstrdup("HOTAISLE_TEAM_HANDLE=fault-team");
}

/* Limits that end every fault in well under a second; a whole good fetch
 * still fits (the ASan build included). */
static const char *const knobs[] = {
	"PLANNER_HTTP_CONNECT_TIMEOUT_MS=200", "PLANNER_HTTP_TIMEOUT_MS=10000",
	"PLANNER_HTTP_STREAM_TIMEOUT_MS=10000", "PLANNER_HTTP_RETRIES=1",
	"PLANNER_HTTP_BACKOFF_MS=1",           "PLANNER_HTTP_MAX_WAIT_MS=5",
	"PLANNER_REFRESH_LOCK_WAIT_MS=100",    "PLANNER_DB_BUSY_TIMEOUT_MS=100",
	"PLANNER_AWS_REGIONS=us-east-1",       NULL};

static const char *const short_timeouts[] = {"PLANNER_HTTP_TIMEOUT_MS=300",
					     "PLANNER_HTTP_STREAM_TIMEOUT_MS=300", NULL};
static const char *const small_cap[] = {"PLANNER_HTTP_MAX_BYTES=65536", NULL};

/* Where the adapter's base URL points. */
enum target {
	FIXTURE,   /* the fixture server, in scenario `scenario` */
	REFUSED,   /* a closed port */
	NO_DNS,    /* a name that cannot resolve */
	TLS,       /* https:// to the plain-HTTP fixture server */
	BLACKHOLE, /* a listening socket whose accept queue is full */
};

/* What the case must end in. */
enum expect {
	FEED_FAILS, /* exit 3; rows kept; the failure in refresh_runs */
	SAME_ROWS,  /* exit 0; a tolerant read of the same prices */
	DB_FAILS,   /* exit 4; rows kept */
};

struct fault {
	const char *what;          /* for messages */
	enum target target;
	const char *scenario;      /* FIXTURE: the scenario segment */
	const char *why;           /* in stderr and refresh_runs.error, one of "a|b" (libcurl
				    * versions word some errors differently); NULL: any text */
	long http_status;          /* recorded in refresh_runs; -1: not checked */
	const char *const *env;    /* more environment; may be NULL */
	enum expect expect;
};

/* Room for an environment: a URL and a key per adapter, the knobs and a
 * case's extras; free with free(). */
static char **env_new(void)
{
	size_t n = 0;
	while (provider_list[n])
		n++;
	char **env = calloc(2 * n + 32, sizeof *env);
	ck_assert_ptr_nonnull(env);
	return env;
}

static char *url_env(const struct provider *a, const char *url)
{
	char var[64];
	provider_url_env(a, var, sizeof var);
	return xasprintf("%s=%s", var, url);
}

/* Runs `planner refresh --db db --provider a` with base URL `url`; as
 * `uid` when not 0. */
/* The other adapter `refresh --provider a` also runs: the API feed of a
 * company whose GPU catalogue a is (provider_api_feed), else NULL. */
static const struct provider *company_api(const struct provider *a)
{
	const char *feed = provider_api_feed(a->name);
	return feed && strcmp(feed, a->name) ? provider_find(feed) : NULL;
}

static int refresh(unsigned uid, const char *db, const struct provider *a, const char *url,
		   const char *const *extra, char **out, char **err)
{
	const char *argv[] = {"refresh", "--db", db, "--provider", a->name, NULL};
	char **env = env_new();
	size_t e = 0;
	env[e++] = url_env(a, url);
	/* A company name also runs its API feed (provider_api_feed): that
	 * feed answers from the fixture, so the fault is the adapter's alone
	 * and nothing reaches the network. */
	const struct provider *api = company_api(a);
	if (api) {
		char *ok = xasprintf("http://127.0.0.1:%d/ok", server.port);
		env[e++] = url_env(api, ok);
		free(ok);
	}
	add_keys(env, &e);
	for (size_t i = 0; knobs[i]; i++)
		env[e++] = xstrdup(knobs[i]);
	for (size_t i = 0; extra && extra[i]; i++)
		env[e++] = xstrdup(extra[i]);
	env[e] = NULL;
	int rc = test_run_planner_as(uid, argv, (const char *const *)env, out, err);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
	free(env);
	return rc;
}

static void copy_file(const char *from, const char *to)
{
	size_t n = 0;
	char *bytes = read_file(from, &n);
	ck_assert_ptr_nonnull(bytes);
	FILE *f = fopen(to, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
	free(bytes);
}

/* A fresh copy of the seeded database in its own directory. */
static char *fresh_db(void)
{
	char *dir = test_tmpdir();
	char *db = xasprintf("%s/prices.db", dir);
	copy_file(seeded, db);
	free(dir);
	return db;
}

/* A provider's rows, less the fetch time and source: what a reader sees. */
static char *rows_of(const char *db, const char *provider)
{
	return test_query(db,
		  "SELECT (SELECT count(*) || ':' || ifnull(group_concat(x, ';'), '') FROM "
		  "(SELECT offer || '|' || region || '|' || spot || '|' || gpu || '|' || "
		  "gpu_count || '|' || printf('%.9g', price_per_hour) || '|' || available AS x "
		  "FROM offers WHERE provider = ?1 ORDER BY x)) || '#' || "
		  "(SELECT count(*) || ':' || ifnull(group_concat(x, ';'), '') FROM "
		  "(SELECT model || '|' || printf('%.9g', input_per_token) || '|' || "
		  "printf('%.9g', output_per_token) || '|' || context AS x "
		  "FROM api_prices WHERE provider = ?1 ORDER BY x))",
		  provider);
}

static char *last_run(const char *db, const char *provider, const char *col)
{
	char sql[160];
	snprintf(sql, sizeof sql,
		 "SELECT %s FROM refresh_runs WHERE provider = ? ORDER BY id DESC LIMIT 1", col);
	return test_query(db, sql, provider);
}

static long runs_of(const char *db, const char *provider)
{
	char *n = test_query(db, "SELECT count(*) FROM refresh_runs WHERE provider = ?", provider);
	long v = atol(n);
	free(n);
	return v;
}

/* Whether text holds why or one of its '|'-separated alternatives. */
static bool says(const char *text, const char *why)
{
	if (!why)
		return *text != '\0';
	for (const char *p = why; *p;) {
		size_t n = strcspn(p, "|");
		char alt[80];
		snprintf(alt, sizeof alt, "%.*s", (int)n, p);
		if (strstr(text, alt))
			return true;
		p += n;
		p += *p == '|';
	}
	return false;
}

static size_t count_lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* A port nothing listens on: bound, read, closed. */
static int closed_port(void)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof sa;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
	close(fd);
	return ntohs(sa.sin_port);
}

/* A listening socket that never accepts, its accept queue filled by our
 * own connections so that the kernel drops every further SYN: a connect
 * to it hangs until the client's connect timeout. */
struct blackhole {
	int listener;
	int filler[8];
	size_t n_filler;
	int port;
};

static void blackhole_open(struct blackhole *b)
{
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof sa;
	b->listener = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(b->listener, 0);
	ck_assert_int_eq(bind(b->listener, (struct sockaddr *)&sa, sizeof sa), 0);
	ck_assert_int_eq(listen(b->listener, 0), 0);
	ck_assert_int_eq(getsockname(b->listener, (struct sockaddr *)&sa, &len), 0);
	b->port = ntohs(sa.sin_port);
	b->n_filler = 0;
	/* Connect until one does not complete: the queue is then full. */
	for (;;) {
		ck_assert_msg(b->n_filler < sizeof b->filler / sizeof b->filler[0],
			      "the accept queue never filled");
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
		ck_assert_int_ge(fd, 0);
		b->filler[b->n_filler++] = fd;
		int rc = connect(fd, (struct sockaddr *)&sa, sizeof sa);
		ck_assert(rc == 0 || errno == EINPROGRESS);
		struct pollfd p = {.fd = fd, .events = POLLOUT};
		if (rc != 0 && poll(&p, 1, 300) == 0)
			break;
	}
}

static void blackhole_close(struct blackhole *b)
{
	for (size_t i = 0; i < b->n_filler; i++)
		close(b->filler[i]);
	close(b->listener);
}

/* Runs fault f against adapter a on a fresh copy of the seeded database
 * and checks what the header comment says. */
static void inject(const struct fault *f, const struct provider *a)
{
	if (a->retired)
		return; /* never fetched: refresh refuses it (check_refresh) */
	char *db = fresh_db(), *out = NULL, *err = NULL, *url = NULL;
	struct blackhole hole = {.listener = -1};
	char *before = rows_of(db, a->name);
	long runs = runs_of(db, a->name);
	ck_assert_msg(strchr(before, '|'), "%s: no rows were seeded", a->name);
	switch (f->target) {
	case FIXTURE:
		url = xasprintf("http://127.0.0.1:%d/%s", server.port, f->scenario);
		break;
	case REFUSED:
		url = xasprintf("http://127.0.0.1:%d/ok", closed_port());
		break;
	case NO_DNS:
		url = xasprintf("http://no-such-host.invalid/ok");
		break;
	case TLS:
		url = xasprintf("https://127.0.0.1:%d/ok", server.port);
		break;
	case BLACKHOLE:
		blackhole_open(&hole);
		url = xasprintf("http://127.0.0.1:%d/ok", hole.port);
		break;
	}
	int rc = refresh(0, db, a, url, f->env, &out, &err);
	if (f->target == BLACKHOLE)
		blackhole_close(&hole);
	char *after = rows_of(db, a->name);
	ck_assert_msg(!strcmp(before, after), "%s, %s: the rows changed", f->what, a->name);
	if (f->expect == SAME_ROWS) {
		ck_assert_msg(rc == 0, "%s, %s: exit %d, stderr: %s", f->what, a->name, rc, err);
		ck_assert_msg(!*err, "%s, %s: stderr: %s", f->what, a->name, err);
		char *status = last_run(db, a->name, "status");
		ck_assert_str_eq(status, "ok");
		free(status);
	} else {
		int want = f->expect == DB_FAILS ? PLANNER_EDB : PLANNER_ENET;
		ck_assert_msg(rc == want, "%s, %s: exit %d, want %d; stderr: %s", f->what, a->name,
			      rc, want, err);
		char prefix[64];
		snprintf(prefix, sizeof prefix, "planner: %s: ", a->name);
		ck_assert_msg(!strncmp(err, prefix, strlen(prefix)) && count_lines(err) == 1,
			      "%s, %s: want one line naming the provider, got: %s", f->what,
			      a->name, err);
		ck_assert_msg(says(err, f->why), "%s, %s: want '%s' in: %s", f->what,
			      a->name, f->why, err);
		ck_assert_msg(strstr(err, "; keeping "), "%s, %s: kept rows unsaid: %s", f->what,
			      a->name, err);
		if (f->expect == FEED_FAILS) {
			char *status = last_run(db, a->name, "status");
			char *msg = last_run(db, a->name, "error");
			char *http = last_run(db, a->name, "http_status");
			char *state = test_query(db, "SELECT last_status FROM providers WHERE name = ?",
					 a->name);
			ck_assert_int_eq(runs_of(db, a->name), runs + 1);
			ck_assert_str_eq(status, "failed");
			ck_assert_str_eq(state, "failed");
			ck_assert_msg(says(msg, f->why),
				      "%s, %s: refresh_runs.error: %s", f->what, a->name, msg);
			ck_assert_msg(f->http_status < 0 || atol(http) == f->http_status,
				      "%s, %s: http_status %s, want %ld", f->what, a->name, http,
				      f->http_status);
			free(status);
			free(msg);
			free(http);
			free(state);
		}
	}
	free(before);
	free(after);
	free(url);
	free(out);
	free(err);
	free(db);
}

static void inject_everywhere(const struct fault *f)
{
	for (size_t i = 0; provider_list[i]; i++)
		inject(f, provider_list[i]);
}

static void start(void)
{
	test_fixture_start(&server, 2.0);
	char *dir = test_tmpdir();
	seeded = xasprintf("%s/seeded.db", dir);
	free(dir);
	const char *argv[] = {"refresh", "--db", seeded, "--quiet", NULL};
	char **env = env_new(), *out = NULL, *err = NULL;
	size_t e = 0;
	for (size_t i = 0; provider_list[i]; i++) {
		char *u = xasprintf("http://127.0.0.1:%d/ok", server.port);
		env[e++] = url_env(provider_list[i], u);
		free(u);
	}
	env[e++] = xasprintf("PLANNER_ECB_URL=http://127.0.0.1:%d/ok", server.port);
	add_keys(env, &e);
	for (size_t i = 0; knobs[i]; i++)
		env[e++] = xstrdup(knobs[i]);
	env[e] = NULL;
	int rc = test_run_planner(argv, (const char *const *)env, &out, &err);
	for (size_t i = 0; i < e; i++)
		free(env[i]);
	free(env);
	ck_assert_msg(rc == 0, "seeding refresh: exit %d: %s", rc, err);
	free(out);
	free(err);
}

static void stop(void)
{
	test_fixture_stop(&server);
	if (seeded) {
		char *dir = xstrdup(seeded);
		unlink(seeded);
		*strrchr(dir, '/') = '\0';
		rmdir(dir);
		free(dir);
		free(seeded);
		seeded = NULL;
	}
}

START_TEST(a_refused_connection_keeps_every_adapters_rows)
{
	const struct fault f = {"connection refused", REFUSED, NULL, "onnect", 0, NULL, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_name_that_does_not_resolve_keeps_every_adapters_rows)
{
	/* The resolver answers in milliseconds, but a loaded machine has
	 * seen it outlast the 200 ms connect timeout: curl then says so. */
	const struct fault f = {"DNS failure", NO_DNS,    NULL, "resolve|Resolving timed out", 0,
	                        NULL,          FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(tls_to_a_plain_http_server_keeps_every_adapters_rows)
{
	const struct fault f = {"TLS error", TLS, NULL, "SSL", 0, NULL, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_port_that_never_accepts_times_out_and_keeps_every_adapters_rows)
{
	const struct fault f = {"connect timeout", BLACKHOLE, NULL, "timed out", 0, NULL,
				FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_server_stalling_mid_body_times_out_and_keeps_every_adapters_rows)
{
	const struct fault f = {"mid-body stall", FIXTURE, "stall", "imed out", 200,
				short_timeouts, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(bodies_cut_at_random_offsets_keep_every_adapters_rows)
{
	/* Seeded: the same offsets every run, different per adapter. */
	unsigned seed = 20261130;
	for (size_t i = 0; provider_list[i]; i++) {
		for (int k = 0; k < 3; k++) {
			char scen[32];
			snprintf(scen, sizeof scen, "cut-%d", rand_r(&seed) % 1000);
			const struct fault f = {scen, FIXTURE, scen, "remaining", 200, NULL,
						FEED_FAILS};
			inject(&f, provider_list[i]);
		}
	}
}
END_TEST

START_TEST(a_storm_of_429s_keeps_every_adapters_rows)
{
	const struct fault f = {"429 storm", FIXTURE, "429", "HTTP 429 after 2 attempts", 429,
				NULL, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_storm_of_503s_keeps_every_adapters_rows)
{
	const struct fault f = {"503 storm", FIXTURE, "503", "HTTP 503 after 2 attempts", 503,
				NULL, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_redirect_loop_is_not_followed_and_keeps_every_adapters_rows)
{
	const struct fault f = {"redirect loop", FIXTURE, "loop", "HTTP 302", 302, NULL,
				FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_body_past_the_cap_keeps_every_adapters_rows)
{
	/* aws streams its CSV: no body cap, but a 4 MiB "line" is refused. */
	for (size_t i = 0; provider_list[i]; i++) {
		bool csv = !strcmp(provider_list[i]->name, "aws");
		const struct fault with_length = {"huge body", FIXTURE, "huge",
						  csv ? "line over" : "larger than", 200, small_cap,
						  FEED_FAILS};
		const struct fault streamed = {"huge body, no length", FIXTURE, "hugestream",
					       csv ? "line over" : "larger than", 200, small_cap,
					       FEED_FAILS};
		inject(&with_length, provider_list[i]);
		inject(&streamed, provider_list[i]);
	}
}
END_TEST

START_TEST(json_of_the_wrong_shape_keeps_every_adapters_rows)
{
	const struct fault f = {"wrong shape", FIXTURE, "shape", NULL, 200, NULL, FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(numbers_written_as_strings_read_as_the_same_prices)
{
	const struct fault f = {"numbers as strings", FIXTURE, "strnum", NULL, 200, NULL,
				SAME_ROWS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(strings_written_as_numbers_keep_every_adapters_rows)
{
	const struct fault f = {"strings as numbers", FIXTURE, "numstr", NULL, 200, NULL,
				FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(negative_prices_keep_every_adapters_rows)
{
	const struct fault f = {"negative prices", FIXTURE, "negprice", "no usable", 200, NULL,
				FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(absurd_prices_keep_every_adapters_rows)
{
	const struct fault f = {"absurd prices", FIXTURE, "absurd", "no usable", 200, NULL,
				FEED_FAILS};
	inject_everywhere(&f);
}
END_TEST

START_TEST(a_read_only_database_fails_with_status_4_and_keeps_its_rows)
{
	/* Root writes through any mode bits, so the planner runs as nobody. */
	unsigned uid = geteuid() == 0 ? 65534 : 0;
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *a = provider_list[i];
		if (a->retired)
			continue; /* never fetched: refresh refuses it (check_refresh) */
		char *db = fresh_db(), *out = NULL, *err = NULL;
		char *dir = xstrdup(db);
		*strrchr(dir, '/') = '\0';
		char *before = rows_of(db, a->name);
		long runs = runs_of(db, a->name);
		char *url = xasprintf("http://127.0.0.1:%d/ok", server.port);
		ck_assert_int_eq(chmod(db, 0444), 0);
		ck_assert_int_eq(chmod(dir, 0555), 0);
		int rc = refresh(uid, db, a, url, NULL, &out, &err);
		ck_assert_int_eq(chmod(dir, 0700), 0);
		ck_assert_int_eq(chmod(db, 0644), 0);
		ck_assert_msg(rc == PLANNER_EDB, "%s: exit %d; stderr: %s", a->name, rc, err);
		ck_assert_msg(!strncmp(err, "planner: ", 9) && count_lines(err) == 1 &&
				      strstr(err, db),
			      "%s: want one line naming the database: %s", a->name, err);
		char *after = rows_of(db, a->name);
		ck_assert_str_eq(before, after);
		/* Nothing can be recorded in a database that cannot be written. */
		ck_assert_int_eq(runs_of(db, a->name), runs);
		free(before);
		free(after);
		free(url);
		free(dir);
		free(out);
		free(err);
		free(db);
	}
}
END_TEST

START_TEST(wal_files_another_user_owns_fail_refresh_with_status_4_naming_the_user)
{
	/* A shared directory: user 65533 opened the database first and owns
	 * its -wal and -shm (the database's mode bits, 0644); its owner,
	 * 65534, cannot write until that reader ends. Needs root to set up. */
	if (geteuid() != 0) {
		printf("faults: wal_files_another_user_owns... skipped: needs root\n");
		return;
	}
	const struct provider *a = provider_find("lambda");
	char *db = fresh_db(), *out = NULL, *err = NULL;
	char *dir = xstrdup(db);
	*strrchr(dir, '/') = '\0';
	ck_assert_int_eq(chmod(dir, 0777), 0);
	ck_assert_int_eq(chown(db, 65534, 65534), 0);
	/* Read before the files are made: SQLite run as root would chown
	 * them to the database's owner. */
	long runs = runs_of(db, a->name);
	char *files[] = {xasprintf("%s-wal", db), xasprintf("%s-shm", db)};
	for (size_t i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "w");
		ck_assert_ptr_nonnull(f);
		fclose(f);
		ck_assert_int_eq(chown(files[i], 65533, 65533), 0);
		ck_assert_int_eq(chmod(files[i], 0644), 0);
	}
	char *url = xasprintf("http://127.0.0.1:%d/ok", server.port);
	int rc = refresh(65534, db, a, url, NULL, &out, &err);
	ck_assert_msg(rc == PLANNER_EDB, "exit %d; stderr: %s", rc, err);
	ck_assert_msg(strstr(err, "belongs to user 65533") && strstr(err, "only its owner"), "%s",
		      err);
	for (size_t i = 0; i < 2; i++) {
		unlink(files[i]);
		free(files[i]);
	}
	ck_assert_int_eq(runs_of(db, a->name), runs);
	ck_assert_int_eq(chmod(dir, 0700), 0);
	free(url);
	free(dir);
	free(out);
	free(err);
	free(db);
}
END_TEST

START_TEST(a_database_locked_by_another_writer_fails_with_status_4_and_keeps_its_rows)
{
	for (size_t i = 0; provider_list[i]; i++) {
		const struct provider *a = provider_list[i];
		if (a->retired)
			continue; /* never fetched: refresh refuses it (check_refresh) */
		char *db = fresh_db(), *out = NULL, *err = NULL;
		char *before = rows_of(db, a->name);
		long runs = runs_of(db, a->name);
		char *url = xasprintf("http://127.0.0.1:%d/ok", server.port);
		sqlite3 *h = NULL;
		ck_assert_int_eq(sqlite3_open(db, &h), SQLITE_OK);
		ck_assert_int_eq(sqlite3_exec(h, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
		int rc = refresh(0, db, a, url, NULL, &out, &err);
		ck_assert_int_eq(sqlite3_exec(h, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(h);
		ck_assert_msg(rc == PLANNER_EDB, "%s: exit %d; stderr: %s", a->name, rc, err);
		char prefix[64];
		snprintf(prefix, sizeof prefix, "planner: %s: ", a->name);
		/* A company's API feed meets the same lock: a line of its own. */
		size_t lines = company_api(a) ? 2 : 1;
		ck_assert_msg(!strncmp(err, prefix, strlen(prefix)) && count_lines(err) == lines &&
				      strstr(err, "locked") && strstr(err, "; keeping "),
			      "%s: want one line naming the provider and the lock: %s", a->name,
			      err);
		char *after = rows_of(db, a->name);
		ck_assert_str_eq(before, after);
		/* The record of the attempt waits on the same lock and is lost;
		 * nothing half-written appears either. */
		ck_assert_int_eq(runs_of(db, a->name), runs);
		free(before);
		free(after);
		free(url);
		free(out);
		free(err);
		free(db);
	}
}
END_TEST

Suite *faults_suite(void)
{
	Suite *s = suite_create("faults");
	TCase *t = tcase_create("every adapter");
	tcase_add_unchecked_fixture(t, start, stop);
	tcase_set_timeout(t, 300);
	tcase_add_test(t, a_refused_connection_keeps_every_adapters_rows);
	tcase_add_test(t, a_name_that_does_not_resolve_keeps_every_adapters_rows);
	tcase_add_test(t, tls_to_a_plain_http_server_keeps_every_adapters_rows);
	tcase_add_test(t, a_port_that_never_accepts_times_out_and_keeps_every_adapters_rows);
	tcase_add_test(t, a_server_stalling_mid_body_times_out_and_keeps_every_adapters_rows);
	tcase_add_test(t, bodies_cut_at_random_offsets_keep_every_adapters_rows);
	tcase_add_test(t, a_storm_of_429s_keeps_every_adapters_rows);
	tcase_add_test(t, a_storm_of_503s_keeps_every_adapters_rows);
	tcase_add_test(t, a_redirect_loop_is_not_followed_and_keeps_every_adapters_rows);
	tcase_add_test(t, a_body_past_the_cap_keeps_every_adapters_rows);
	tcase_add_test(t, json_of_the_wrong_shape_keeps_every_adapters_rows);
	tcase_add_test(t, numbers_written_as_strings_read_as_the_same_prices);
	tcase_add_test(t, strings_written_as_numbers_keep_every_adapters_rows);
	tcase_add_test(t, negative_prices_keep_every_adapters_rows);
	tcase_add_test(t, absurd_prices_keep_every_adapters_rows);
	tcase_add_test(t, a_read_only_database_fails_with_status_4_and_keeps_its_rows);
	tcase_add_test(t, a_database_locked_by_another_writer_fails_with_status_4_and_keeps_its_rows);
	tcase_add_test(t, wal_files_another_user_owns_fail_refresh_with_status_4_naming_the_user);
	suite_add_tcase(s, t);
	return s;
}
