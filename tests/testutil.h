/* testutil.h — helpers shared by the Check suites: temporary files and
 * directories, running the planner binary, reading files back. */
#ifndef PLANNER_TESTUTIL_H
#define PLANNER_TESTUTIL_H

#include <cJSON.h>
#include <check.h>
#include <stdbool.h>
#include <stddef.h>

#include "refdata.h"

/* The reference data, loaded once per process (never freed: the runner
 * forks per test and the process ends). */
const struct refdata *test_ref(void);

/* `planner compare`'s plan of the spec text yaml (parsed as "s.yaml")
 * against store st, or when st is NULL against the database at db, opened
 * and closed here; the spec in *spec. Fails the test when either step
 * does. Free with plan_free and jobspec_free. */
struct store;
struct jobspec;
struct plan;
struct plan *test_plan_of(struct store *st, const char *db, const char *yaml,
                          struct jobspec **spec);

struct store;

/* The first column of the one row sql gives on the open store, as a whole
 * number (a count, say); fails the test when the query fails. */
long test_store_long(struct store *st, const char *sql);

/* A fresh empty directory under $TMPDIR; malloc'd path. */
char *test_tmpdir(void);

/* Writes text to dir/name; returns the malloc'd path. */
char *test_write(const char *dir, const char *name, const char *text);

/* Runs the planner binary ($PLANNER_BIN, else build/planner) with argv
 * (NULL-terminated, without argv[0]) and env additions ("K=V", NULL-
 * terminated, may be NULL). Captures stdout and stderr into malloc'd
 * strings (may pass NULL). Returns the exit status, or -1. */
int test_run_planner(const char *const *argv, const char *const *env, char **out, char **errout);
/* Runs `planner ARGS --db db` (at most 13 args), fails the test unless it
 * exits 0; its stdout into *out (the caller frees it). */
void test_run_ok(const char *db, const char *const *args, char **out);
/* Same, as user `uid` when it is not 0 (the test must be root to switch):
 * a permission test means nothing to root, who may write anywhere. */
int test_run_planner_as(unsigned uid, const char *const *argv, const char *const *env, char **out,
			char **errout);

/* Keeps out, a --format json output, and argv, the command line that
 * printed it, as dir/PID-N.json and dir/PID-N.args (one word a line), for
 * `tests/tools/schema_validate.py --outputs dir`. test_run_planner does it
 * for every run that exits 0 when $PLANNER_JSON_LOG names a directory
 * (make check sets it). Fails the test when it cannot write. */
void test_keep_json(const char *dir, const char *const *argv, const char *out);

/* Runs the planner binary with the shell words `args` on a pseudo-terminal
 * `cols` columns wide (util-linux script(1)), as a person at a terminal
 * would see it, NO_COLOR set; stdout into *out (malloc'd, LF line ends).
 * Returns the exit status, or -2 when script(1) is not installed (the
 * caller skips, saying so). */
int test_run_tty(int cols, const char *args, char **out);
/* The same with stderr on the terminal too, both into *out: the notes
 * as a person sees them. */
int test_run_tty_all(int cols, const char *args, char **out);

/* Runs a shell command; its stdout into *out (malloc'd, "" when empty)
 * unless out is NULL. Returns the exit status, or -1. */
int test_sh(const char *cmd, char **out);

/* The first column of the first row of sql (one optional text parameter
 * ?1) on the database at db, opened read-only, as malloc'd text; "" when
 * there is no row or it is NULL. Fails the test on an SQL error. */
char *test_query(const char *db, const char *sql, const char *param);

/* Whole file as a malloc'd string, or NULL. */
char *test_slurp(const char *path);
/* Whether len bytes at p hold the n bytes of needle (memmem is GNU and
 * BSD, not POSIX). */
bool test_memmem(const void *p, size_t len, const void *needle, size_t n);

/* The loopback fixture server (tests/fixture_server.py) serving
 * tests/fixtures/providers on 127.0.0.1, an ephemeral port. */
struct test_fixture {
	int pid;   /* the server process */
	int port;  /* where it listens */
};
/* Starts the server; slow_s is how long the "slow" scenario sleeps.
 * Aborts the test when it cannot start. */
void test_fixture_start(struct test_fixture *f, double slow_s);
/* Stops it; accepts a fixture that never started (pid 0). */
void test_fixture_stop(struct test_fixture *f);
/* The requests the server saw for one scenario segment (GET /_log/<seg>),
 * as malloc'd JSON text; fails the test when it cannot be read. */
char *test_fixture_log(const struct test_fixture *f, const char *segment);

/* --- the text of the docs and completions (check_docs.c, check_doc_lists.c) --- */

/* Where word first appears in text with no letter, digit or '-' just
 * before it and no letter or digit just after; NULL when it does not. */
const char *test_find_word(const char *text, const char *word);
/* Whether test_find_word finds word in text. */
bool test_has_word(const char *text, const char *word);
/* The text of the manual page `page` (named `what` in a failure) from
 * head up to the next .SS, .SH or .TP; malloc'd. Fails the test when page
 * has no head. */
char *test_man_part(const char *page, const char *what, const char *head);
/* What completion/planner.bash offers for the shell words given, its
 * COMPREPLY space-separated with a newline, COMP_CWORD cword; malloc'd. */
char *test_bash_complete(const char *words, int cword);
/* Whether the shell named is installed (on PATH). */
bool test_have_shell(const char *name);

/* compare's JSON: the job of that name, and a job's route of that name;
 * the test fails when there is none. */
const cJSON *test_json_job(const cJSON *root, const char *name);
const cJSON *test_json_route(const cJSON *job, const char *name);

#endif
