/* http.h — the one HTTP layer (libcurl) every adapter goes through:
 * timeouts, retries with exponential backoff and jitter on timeouts, 429
 * and 5xx (honouring Retry-After), gzip, proxies from the environment
 * (libcurl's default), TLS verification always on, a cap on buffered
 * bodies, and a streaming mode for bodies too large to hold (the AWS CSV).
 * Nothing here prints; errors come back as messages that never hold a
 * request header (keys travel in headers only). */
#ifndef PLANNER_HTTP_H
#define PLANNER_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

/* Limits for one logical request (all its attempts). http_opts_init fills
 * the defaults and the PLANNER_HTTP_* environment overrides, which exist
 * so tests and slow links can tune them without a rebuild. */
struct http_opts {
	long connect_timeout_ms; /* PLANNER_HTTP_CONNECT_TIMEOUT_MS; default 10 s */
	long timeout_ms;         /* whole buffered transfer, PLANNER_HTTP_TIMEOUT_MS; default 120 s */
	long stream_timeout_ms;  /* whole streamed transfer (hundreds of MB); default 30 min */
	long stall_ms;           /* a stream slower than 1 KB/s this long is dropped; default 60 s */
	int retries;             /* attempts after the first, PLANNER_HTTP_RETRIES; default 3 */
	long backoff_ms;         /* first backoff, doubled per retry, PLANNER_HTTP_BACKOFF_MS; 1 s */
	long max_wait_ms;        /* cap on one wait, Retry-After included, PLANNER_HTTP_MAX_WAIT_MS; 60 s */
	size_t max_body;         /* cap on a buffered or streamed-JSON body, PLANNER_HTTP_MAX_BYTES; 64 MiB */
	/* One overall deadline for every request of one provider (its retries,
	 * pages, regions and streams): CLOCK_MONOTONIC seconds when it ends, 0
	 * for none. Set with http_deadline_start; no attempt starts after it,
	 * each one's timeout is cut to what is left, and a backoff that would
	 * end past it is not waited. */
	double deadline_at;
	long deadline_s;         /* the budget deadline_at was set from, for messages */
};

/* Starts the overall deadline of o: seconds from now (<= 0: none). */
void http_deadline_start(struct http_opts *o, long seconds);

/* Receives streamed body bytes. Returns false to abort the transfer, with
 * a message in *err (not retried: the data, not the network, is wrong). */
typedef bool (*http_sink_fn)(void *ud, const char *p, size_t n, char **err);
/* Called before every attempt of a streamed request, so a retry after a
 * dropped connection starts the parse again from the first byte. */
typedef void (*http_reset_fn)(void *ud);

struct http_request {
	const char *url;              /* full URL; never contains a key */
	const char *post;             /* JSON body to POST; NULL for GET */
	const char *const *headers;   /* extra "Name: value" lines, NULL-terminated; may hold keys */
	http_sink_fn sink;            /* streaming mode when set: the body is not buffered */
	http_reset_fn reset;          /* with sink */
	void *ud;                     /* passed to sink and reset */
};

struct http_response {
	long status;            /* the last attempt's HTTP status; 0 when none arrived */
	struct buf body;        /* buffered mode: the final body (also of an error status) */
	char content_type[80];  /* the final response's Content-Type, "" when none */
	int attempts;           /* attempts made */
};

/* Defaults, then the PLANNER_HTTP_* environment overrides. Can't fail. */
void http_opts_init(struct http_opts *o);

/* Performs req, retrying as described above. PLANNER_OK when a 2xx
 * response was read whole; else PLANNER_ENET with *err set ("HTTP 503
 * after 4 attempts", "timed out after 2000 ms", "transfer closed with
 * 1200 bytes remaining to read"). resp is filled either way; free its body
 * with http_response_free. */
int http_fetch(const struct http_opts *o, const struct http_request *req,
	       struct http_response *resp, char **err);
void http_response_free(struct http_response *resp);

/* The wait before retry number `attempt` (0 for the first retry):
 * Retry-After when the server sent one (seconds, > 0), else backoff_ms
 * doubled per attempt with jitter (half fixed, half random from *seed);
 * never more than max_wait_ms. Pure, for tests. */
long http_retry_wait_ms(const struct http_opts *o, int attempt, long retry_after_s,
			unsigned *seed);

/* s percent-encoded for a query value, malloc'd; NULL when out of memory. */
char *http_escape(const char *s);

/* The SO_RCVLOWAT mark for the rest of a streamed body arriving at `rate`
 * bytes a second: up to 1 MiB, what the rate fills in a quarter second, at
 * least 1 (exposed for tests). */
int http_lowat_mark(long long rate);

/* One page of a paged feed: parses body and sets *next to the next page's
 * full URL (malloc'd) or NULL at the end. Returns PLANNER_OK or an error
 * code with *err set. */
typedef int (*http_page_fn)(void *ud, const char *body, size_t len, char **next, char **err);

/* Follows a paged feed (Azure NextPageLink, GCP nextPageToken) from
 * first_url until page_fn gives no next URL, at most max_pages pages; a
 * next URL equal to the current one is an error (a loop). *status gets
 * the last HTTP status. */
int http_paged(const struct http_opts *o, const char *first_url, const char *const *headers,
	       http_page_fn page_fn, void *ud, int max_pages, long *status, char **err);
/* http_paged with first's headers, and its sink and reset when set: each
 * page's body then streams to the sink and page_fn gets none (len 0), only
 * the call that names the next page. */
int http_paged_stream(const struct http_opts *o, const struct http_request *first,
                      http_page_fn page_fn, void *ud, int max_pages, long *status, char **err);

#endif
