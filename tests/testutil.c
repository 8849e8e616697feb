/* testutil.c — see testutil.h. */
/* putenv is XSI. */
#define _XOPEN_SOURCE 700

#include "testutil.h"

#include "store.h"

#include <ctype.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "http.h"
#include "jobspec.h"
#include "plan.h"
#include "util.h"

const struct refdata *test_ref(void)
{
	static struct refdata *ref;
	if (!ref) {
		char *err = NULL;
		if (refdata_load(&ref, &err) != PLANNER_OK)
			ck_abort_msg("refdata_load: %s", err ? err : "?");
	}
	return ref;
}

char *test_tmpdir(void)
{
	const char *base = getenv("TMPDIR");
	char *tmpl = xasprintf("%s/planner-test-XXXXXX", base && *base ? base : "/tmp");
	ck_assert_ptr_nonnull(tmpl);
	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	return tmpl;
}

char *test_write(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

char *test_slurp(const char *path)
{
	return read_file(path, NULL);
}

bool test_memmem(const void *p, size_t len, const void *needle, size_t n)
{
	for (size_t i = 0; p && i + n <= len; i++)
		if (memcmp((const char *)p + i, needle, n) == 0)
			return true;
	return false;
}

/* Whether argv asks for --format json. */
static bool wants_json(const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		if (!strcmp(argv[i], "--format=json") ||
		    (!strcmp(argv[i], "--format") && argv[i + 1] && !strcmp(argv[i + 1], "json")))
			return true;
	return false;
}

void test_keep_json(const char *dir, const char *const *argv, const char *out)
{
	static unsigned n; /* per test process: the file names add its pid */
	char *base = xasprintf("%s/%ld-%u", dir, (long)getpid(), n++);
	char *json = xasprintf("%s.json", base), *args = xasprintf("%s.args", base);
	FILE *f = fopen(json, "w"), *g = fopen(args, "w");
	ck_assert_msg(f && g, "cannot write %s", base);
	fputs(out, f);
	for (size_t i = 0; argv[i]; i++)
		fprintf(g, "%s\n", argv[i]);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(fclose(g), 0);
	free(json);
	free(args);
	free(base);
}

int test_run_planner(const char *const *argv, const char *const *env, char **out, char **errout)
{
	return test_run_planner_as(0, argv, env, out, errout);
}

int test_run_planner_as(unsigned uid, const char *const *argv, const char *const *env, char **out,
			char **errout)
{
	const char *bin = getenv("PLANNER_BIN");
	if (!bin || !*bin)
		bin = "build/planner";
	char *dir = test_tmpdir();
	char *opath = xasprintf("%s/stdout", dir), *epath = xasprintf("%s/stderr", dir);
	pid_t pid = fork();
	if (pid == 0) {
		int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int in = open("/dev/null", O_RDONLY);
		if (o < 0 || e < 0 || in < 0)
			_exit(127);
		dup2(in, 0);
		dup2(o, 1);
		dup2(e, 2);
		for (size_t i = 0; env && env[i]; i++)
			putenv((char *)env[i]);
		/* After the captures are open: they stay writable. */
		if (uid && (setgid(uid) != 0 || setuid(uid) != 0))
			_exit(126);
		size_t n = 0;
		while (argv[n])
			n++;
		const char **av = calloc(n + 2, sizeof *av);
		av[0] = bin;
		for (size_t i = 0; i < n; i++)
			av[i + 1] = argv[i];
		execv(bin, (char *const *)av);
		_exit(127);
	}
	int status = -1;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		status = -1;
	if (out)
		*out = test_slurp(opath);
	if (errout)
		*errout = test_slurp(epath);
	/* make check validates every JSON output against schema/json/ */
	const char *log = getenv("PLANNER_JSON_LOG");
	if (log && *log && status == 0 && wants_json(argv)) {
		char *text = out ? NULL : test_slurp(opath);
		const char *o = out ? *out : text;
		if (o && *o)
			test_keep_json(log, argv, o);
		free(text);
	}
	unlink(opath);
	unlink(epath);
	rmdir(dir);
	free(opath);
	free(epath);
	free(dir);
	if (status == -1 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

void test_fixture_start(struct test_fixture *f, double slow_s)
{
	int fds[2];
	char slow[32], line[64];
	snprintf(slow, sizeof slow, "%g", slow_s);
	ck_assert_int_eq(pipe(fds), 0);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		close(fds[1]);
		execlp("python3", "python3", "tests/fixture_server.py", "--root",
		       "tests/fixtures/providers", "--slow", slow, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	FILE *in = fdopen(fds[0], "r");
	ck_assert_ptr_nonnull(in);
	f->pid = pid;
	f->port = 0;
	if (fgets(line, sizeof line, in))
		sscanf(line, "PORT %d", &f->port);
	fclose(in);
	ck_assert_msg(f->port > 0, "fixture server did not start (python3 tests/fixture_server.py)");
}

void test_fixture_stop(struct test_fixture *f)
{
	if (f->pid <= 0)
		return;
	kill(f->pid, SIGTERM);
	waitpid(f->pid, NULL, 0);
	f->pid = 0;
}

int test_sh(const char *cmd, char **out)
{
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	struct buf b = {0};
	char chunk[4096];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, p)) > 0)
		ck_assert(buf_append(&b, chunk, n));
	int st = pclose(p);
	if (out)
		*out = b.data ? b.data : xstrdup("");
	else
		buf_free(&b);
	return st == -1 || !WIFEXITED(st) ? -1 : WEXITSTATUS(st);
}

char *test_query(const char *db, const char *sql, const char *param)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *s = NULL;
	char *v = NULL;
	ck_assert_int_eq(sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	sqlite3_busy_timeout(h, 10000); /* a refresh may be writing */
	ck_assert_msg(sqlite3_prepare_v2(h, sql, -1, &s, NULL) == SQLITE_OK, "%s: %s", sql,
		      sqlite3_errmsg(h));
	if (param)
		sqlite3_bind_text(s, 1, param, -1, SQLITE_STATIC);
	if (sqlite3_step(s) == SQLITE_ROW && sqlite3_column_text(s, 0))
		v = xstrdup((const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	sqlite3_close(h);
	return v ? v : xstrdup("");
}

char *test_fixture_log(const struct test_fixture *f, const char *segment)
{
	char *url = xasprintf("http://127.0.0.1:%d/_log/%s", f->port, segment), *err = NULL;
	struct http_opts o;
	struct http_response resp;
	struct http_request req = {.url = url};
	http_opts_init(&o);
	ck_assert_msg(http_fetch(&o, &req, &resp, &err) == PLANNER_OK, "%s", err);
	char *log = xstrdup(resp.body.data ? resp.body.data : "");
	ck_assert_ptr_nonnull(log);
	http_response_free(&resp);
	free(url);
	return log;
}

#define SCRIPT_BIN "/usr/bin/script" /* util-linux: runs a command on a pseudo-terminal */

/* test_run_tty, with stderr on the terminal too when err_too. */
static int run_tty(int cols, const char *args, bool err_too, char **out)
{
	*out = NULL;
	if (access(SCRIPT_BIN, X_OK) != 0)
		return -2;
	const char *bin = getenv("PLANNER_BIN");
	if (!bin || !*bin)
		bin = "build/planner";
	/* stty sets the terminal's width before the planner asks for it;
	 * stderr goes to /dev/null, unless asked for, so only the table
	 * reaches out. */
	char *cmd = xasprintf(SCRIPT_BIN " -qec \"stty cols %d rows 60; NO_COLOR=1 '%s' %s "
	                                 "%s\" /dev/null </dev/null",
	                      cols, bin, args, err_too ? "" : "2>/dev/null");
	char *raw = NULL;
	int rc = test_sh(cmd, &raw);
	free(cmd);
	/* A terminal ends lines with CR LF: back to LF. */
	size_t k = 0;
	for (size_t i = 0; raw[i]; i++)
		if (raw[i] != '\r')
			raw[k++] = raw[i];
	raw[k] = '\0';
	*out = raw;
	return rc;
}

int test_run_tty(int cols, const char *args, char **out)
{
	return run_tty(cols, args, false, out);
}

int test_run_tty_all(int cols, const char *args, char **out)
{
	return run_tty(cols, args, true, out);
}

long test_store_long(struct store *st, const char *sql)
{
	sqlite3_stmt *s = NULL;
	ck_assert_msg(sqlite3_prepare_v2(store_handle(st), sql, -1, &s, NULL) == SQLITE_OK, "%s",
	              sql);
	ck_assert_int_eq(sqlite3_step(s), SQLITE_ROW);
	long n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

const char *test_find_word(const char *text, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
		bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '-');
		if (!before && !isalnum((unsigned char)p[n]))
			return p;
	}
	return NULL;
}

bool test_has_word(const char *text, const char *word)
{
	return test_find_word(text, word) != NULL;
}

char *test_man_part(const char *page, const char *what, const char *head)
{
	const char *p = strstr(page, head);
	ck_assert_msg(p != NULL, "%s has no '%s'", what, head);
	size_t n = strlen(p);
	static const char *const ends[] = {"\n.SS", "\n.SH", "\n.TP"};
	for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
		const char *e = strstr(p + 1, ends[i]);
		if (e && (size_t)(e - p) < n)
			n = (size_t)(e - p);
	}
	return xasprintf("%.*s", (int)n, p);
}

char *test_bash_complete(const char *words, int cword)
{
	char *cmd = xasprintf("bash --norc --noprofile -c 'source completion/planner.bash; "
	                      "COMP_WORDS=(%s); COMP_CWORD=%d; _planner; echo \"${COMPREPLY[*]}\"' "
	                      "2>&1",
	                      words, cword);
	char *out = NULL;
	ck_assert_int_eq(test_sh(cmd, &out), 0);
	free(cmd);
	return out;
}

bool test_have_shell(const char *name)
{
	char *cmd = xasprintf("command -v %s >/dev/null 2>&1", name);
	int rc = test_sh(cmd, NULL);
	free(cmd);
	return rc == 0;
}

/* The element of array whose `key` member is the string name. */
static const cJSON *named(const cJSON *array, const char *key, const char *name)
{
	const cJSON *e;
	cJSON_ArrayForEach(e, array)
	{
		const cJSON *v = cJSON_GetObjectItem(e, key);
		if (cJSON_IsString(v) && !strcmp(v->valuestring, name))
			return e;
	}
	ck_abort_msg("no %s %s", key, name);
	return NULL;
}

const cJSON *test_json_job(const cJSON *root, const char *name)
{
	return named(cJSON_GetObjectItem(root, "jobs"), "name", name);
}

const cJSON *test_json_route(const cJSON *job, const char *name)
{
	return named(cJSON_GetObjectItem(job, "routes"), "route", name);
}

struct plan *test_plan_of(struct store *st, const char *db, const char *yaml,
                          struct jobspec **spec)
{
	struct store *own = NULL;
	struct plan *p = NULL;
	char *err = NULL;
	if (!st) {
		ck_assert_msg(store_open(db, test_ref(), &own, &err) == PLANNER_OK, "%s", err);
		st = own;
	}
	ck_assert_msg(jobspec_parse("s.yaml", yaml, strlen(yaml), test_ref(), spec, &err) ==
	                  PLANNER_OK,
	              "%s", err);
	ck_assert_msg(plan_compare(*spec, test_ref(), st, &p, &err) == PLANNER_OK, "%s", err);
	store_close(own);
	return p;
}

void test_run_ok(const char *db, const char *const *args, char **out)
{
	const char *argv[16];
	size_t n = 0;
	for (; args[n] && n < 13; n++)
		argv[n] = args[n];
	argv[n++] = "--db";
	argv[n++] = db;
	argv[n] = NULL;
	char *err = NULL;
	int rc = test_run_planner(argv, NULL, out, &err);
	ck_assert_msg(rc == 0, "%s exited %d: %s", args[0], rc, err);
	free(err);
}
