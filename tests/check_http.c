/* check_http.c — providers/http.c: the retry wait (pure), and real
 * requests to the loopback fixture server: retries on 429 and 500, gzip,
 * the User-Agent, a dropped connection, the body cap. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "testutil.h"

static struct test_fixture server;

static void start(void)
{
	test_fixture_start(&server, 2.0);
}

static void stop(void)
{
	test_fixture_stop(&server);
}

/* Limits small enough that every scenario ends in well under a second. */
static struct http_opts fast(void)
{
	struct http_opts o = {.connect_timeout_ms = 1000, .timeout_ms = 300,
			      .stream_timeout_ms = 300, .stall_ms = 1000, .retries = 2,
			      .backoff_ms = 1, .max_wait_ms = 5, .max_body = 1 << 20};
	return o;
}

static char *url(const char *scenario, const char *path)
{
	return xasprintf("http://127.0.0.1:%d/%s%s", server.port, scenario, path);
}

START_TEST(retry_after_is_honoured_up_to_the_cap)
{
	struct http_opts o = {.backoff_ms = 1000, .max_wait_ms = 60000};
	unsigned seed = 1;
	ck_assert_int_eq(http_retry_wait_ms(&o, 0, 3, &seed), 3000);
	ck_assert_int_eq(http_retry_wait_ms(&o, 4, 7, &seed), 7000);
	ck_assert_int_eq(http_retry_wait_ms(&o, 0, 3600, &seed), 60000);
}
END_TEST

/* A streamed body's SO_RCVLOWAT: a MiB on a fast link, a quarter second
 * of bytes on a slow one (a fixed MiB would hold a 17 KB/s body back for a
 * minute, past the stall check), 1 when nothing was measured. */
START_TEST(the_receive_mark_is_a_quarter_second_of_the_rate_up_to_a_mib)
{
	ck_assert_int_eq(http_lowat_mark(1000LL * 1000 * 1000), 1 << 20);
	ck_assert_int_eq(http_lowat_mark(4LL << 20), 1 << 20);
	ck_assert_int_eq(http_lowat_mark((4LL << 20) - 1), 1 << 19);
	ck_assert_int_eq(http_lowat_mark(1LL << 20), 1 << 18);
	ck_assert_int_eq(http_lowat_mark(17000), 4096);
	ck_assert_int_eq(http_lowat_mark(3), 1);
	ck_assert_int_eq(http_lowat_mark(0), 1);
}
END_TEST

START_TEST(backoff_doubles_with_jitter_and_never_passes_the_cap)
{
	struct http_opts o = {.backoff_ms = 1000, .max_wait_ms = 10000};
	unsigned seed = 42;
	for (int i = 0; i < 50; i++) {
		long w0 = http_retry_wait_ms(&o, 0, 0, &seed);
		long w2 = http_retry_wait_ms(&o, 2, 0, &seed);
		long w9 = http_retry_wait_ms(&o, 9, 0, &seed);
		ck_assert(w0 >= 500 && w0 <= 1000);
		ck_assert(w2 >= 2000 && w2 <= 4000);
		ck_assert(w9 <= 10000);
	}
}
END_TEST

START_TEST(a_429_then_success_is_retried)
{
	struct http_opts o = fast();
	char *u = url("429once-h1", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_OK);
	ck_assert_int_eq(resp.attempts, 2);
	ck_assert_int_eq(resp.status, 200);
	/* gzip on the wire, decoded here. */
	ck_assert_ptr_nonnull(strstr(resp.body.data, "openai/gpt-4o-mini"));
	http_response_free(&resp);
	free(u);
}
END_TEST

START_TEST(a_500_every_time_fails_after_the_retries)
{
	struct http_opts o = fast();
	char *u = url("500", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_int_eq(resp.attempts, 3);
	ck_assert_ptr_nonnull(strstr(err, "HTTP 500 after 3 attempts"));
	http_response_free(&resp);
	free(err);
	free(u);
}
END_TEST

/* Issue 12 item 14: retries waited whatever the provider's budget. A 503
 * asks for a 1 s wait (Retry-After) each time, five retries are allowed,
 * and the deadline is 1 s: the wait would end past it, so no second
 * attempt starts. Once the deadline has passed, no attempt starts at all.
 * Outcomes only, no clock. */
START_TEST(retries_stop_at_the_providers_deadline)
{
	struct http_opts o = fast();
	o.retries = 5;
	o.max_wait_ms = 5000;
	http_deadline_start(&o, 1);
	char *u = url("503-deadline", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_int_eq(resp.attempts, 1);
	ck_assert_msg(strstr(err, "deadline of 1 s (refresh --timeout) passed after 1 attempt"),
		      "%s", err);
	http_response_free(&resp);
	free(err);
	err = NULL;
	o.deadline_at = 1; /* long past */
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_int_eq(resp.attempts, 0);
	ck_assert_msg(strstr(err, "passed after 0 attempts"), "%s", err);
	http_response_free(&resp);
	free(err);
	free(u);
}
END_TEST

START_TEST(a_dropped_connection_is_an_error_not_a_short_body)
{
	struct http_opts o = fast();
	char *u = url("drop", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_int_eq(resp.attempts, 3);
	http_response_free(&resp);
	free(err);
	free(u);
}
END_TEST

START_TEST(a_response_slower_than_the_timeout_fails)
{
	struct http_opts o = fast();
	o.retries = 0;
	char *u = url("slow", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "imed out"));
	http_response_free(&resp);
	free(err);
	free(u);
}
END_TEST

START_TEST(a_body_over_the_cap_is_refused)
{
	struct http_opts o = fast();
	o.max_body = 100;
	char *u = url("ok", "/api/v1/instance-types"), *err = NULL;
	struct http_request req = {.url = u, .headers = (const char *const[]){"Accept-Encoding: identity", NULL}};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_ENET);
	ck_assert_ptr_nonnull(strstr(err, "larger than"));
	http_response_free(&resp);
	free(err);
	free(u);
}
END_TEST

static bool count_bytes(void *ud, const char *p, size_t n, char **err)
{
	size_t *total = ud;
	for (size_t i = 0; i < n; i++)
		*total += p[i] == 'y';
	return true;
}

START_TEST(a_streamed_body_ends_at_its_length_while_the_server_holds_the_connection)
{
	/* The server keeps the socket open 2 s after the body's last byte;
	 * the stream's 1.5 s limit fails the fetch if the tail (under
	 * http.c's 1 MiB SO_RCVLOWAT) were only read at the close. */
	struct http_opts o = fast();
	o.stream_timeout_ms = 1500;
	o.retries = 0;
	size_t total = 0;
	char *u = url("linger", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u, .sink = count_bytes, .ud = &total};
	struct http_response resp;
	ck_assert_msg(http_fetch(&o, &req, &resp, &err) == PLANNER_OK, "%s", err ? err : "");
	ck_assert_uint_eq(total, (3u << 20) + 1);
	http_response_free(&resp);
	free(u);
}
END_TEST

START_TEST(requests_say_who_they_are_and_accept_gzip)
{
	struct http_opts o = fast();
	char *u = url("ok-ua", "/api/v1/models"), *err = NULL;
	struct http_request req = {.url = u};
	struct http_response resp;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_OK);
	http_response_free(&resp);
	free(u);
	u = url("_log", "/ok-ua");
	req.url = u;
	ck_assert_int_eq(http_fetch(&o, &req, &resp, &err), PLANNER_OK);
	ck_assert_ptr_nonnull(strstr(resp.body.data, "\"user_agent\": \"planner/" PLANNER_VERSION));
	ck_assert_ptr_nonnull(strstr(resp.body.data, "gzip"));
	http_response_free(&resp);
	free(u);
}
END_TEST

Suite *http_suite(void)
{
	Suite *s = suite_create("http");
	TCase *t = tcase_create("waits");
	tcase_add_test(t, retry_after_is_honoured_up_to_the_cap);
	tcase_add_test(t, the_receive_mark_is_a_quarter_second_of_the_rate_up_to_a_mib);
	tcase_add_test(t, backoff_doubles_with_jitter_and_never_passes_the_cap);
	suite_add_tcase(s, t);
	t = tcase_create("loopback");
	tcase_add_unchecked_fixture(t, start, stop);
	tcase_add_test(t, a_429_then_success_is_retried);
	tcase_add_test(t, a_500_every_time_fails_after_the_retries);
	tcase_add_test(t, retries_stop_at_the_providers_deadline);
	tcase_add_test(t, a_dropped_connection_is_an_error_not_a_short_body);
	tcase_add_test(t, a_response_slower_than_the_timeout_fails);
	tcase_add_test(t, a_body_over_the_cap_is_refused);
	tcase_add_test(t, requests_say_who_they_are_and_accept_gzip);
	tcase_add_test(t, a_streamed_body_ends_at_its_length_while_the_server_holds_the_connection);
	suite_add_tcase(s, t);
	return s;
}
