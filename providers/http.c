/* http.c — the one libcurl layer (see http.h). */
#include "http.h"

#include <curl/curl.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/socket.h>
#endif

/* The cap on a buffered body, and on a streamed JSON one (Vast.ai). A
 * buffered body is parsed into a cJSON tree several times its size: a
 * 60 MiB OpenRouter body peaked at 490 MB (bench/README.md), so 64 MiB
 * bounds a buffered refresh near 500 MB. The
 * largest buffered feeds are a few MB (LiteLLM's table about 1.5 MB,
 * OpenRouter's models about 1 MB, an Azure page of 1,000 items about
 * 1 MB: tests/fixtures/real/, 2026-11-30); Vast's default 10,000 offers
 * are about 6 MB, streamed. */
#define HTTP_DEFAULT_MAX_BODY ((size_t)64 << 20)
/* libcurl's receive buffer for a buffered body. */
#define HTTP_RECV_BUFFER (512L * 1024)
/* ... and for a streamed one (the AWS CSV, Vast.ai): each recv() then takes
 * what the socket holds, up to 4 MiB, instead of 512 KiB. Measured on the
 * 1.1 GiB bench CSV over loopback (bench/refresh.sh, 2026-11-30): user+sys
 * CPU of the refresh 0.62 s at 512 KiB, 0.50 s at 2 MiB, 0.41-0.56 s at
 * 4-10 MiB (fewer recv and poll calls; the copy itself is the same), at a
 * cost of 4 MiB of RSS. libcurl's ceiling is CURL_MAX_READ_SIZE, 10 MiB. */
#define HTTP_STREAM_BUFFER (4L * 1024 * 1024)
/* SO_RCVLOWAT of a streamed HTTP/1.x body of known length while at least
 * this much of it is still to come: poll() then wakes libcurl once a MiB
 * has queued, not at every segment, so each recv() copies about a MiB and
 * the window updates that make a loopback sender push its next segments
 * inside our recv() come once a MiB. Measured on the 1.1 GiB bench CSV
 * over loopback (bench/refresh.sh, 2026-12-01, 15 alternating runs,
 * median CPU s against `wc -l` 0.21): without 0.41, 1 MiB 0.29, 2 MiB
 * 0.29, 4 MiB 0.32, 8 MiB 0.33; the kernel's side alone (body discarded)
 * 0.54 without, 0.20 with 3 MiB (bench/README.md). */
#define HTTP_STREAM_LOWAT (1 << 20)
/* ...and no more than the bytes a quarter of a second brings at the rate
 * seen so far (1 / 4 s), so a slow link's bytes reach the stall check
 * (PLANNER_HTTP_STALL_MS) as they come: a fixed MiB would hide a 17 KB/s
 * body for a minute and have it cut as stalled. */
#define HTTP_STREAM_LOWAT_WAIT_DIV 4

/* What the write callback needs for one attempt. */
struct transfer {
	const struct http_request *req;
	CURL *h;
	int lowat;        /* the socket's SO_RCVLOWAT as last set; 0: not yet */
	bool lowat_off;   /* this attempt's body is not one to set it for */
	curl_off_t fed;   /* body bytes handed to the sink in this attempt */
	curl_off_t length; /* its Content-Length, once lowat is set */
	/* The handle's open socket (on_socket, on_close): libcurl's
	 * CURLINFO_ACTIVESOCKET answers only once a transfer is done. */
	curl_socket_t fd;
	struct buf *body; /* buffered mode */
	size_t max_body;
	bool too_big;   /* the body passed max_body */
	bool oom;       /* the body could not be buffered: out of memory */
	char *sink_err; /* the sink's reason for aborting */
};

static long env_long(const char *name, long def, long min)
{
	const char *s = getenv(name);
	if (!s || !*s)
		return def;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < min)
		return def;
	return v;
}

void http_opts_init(struct http_opts *o)
{
	o->connect_timeout_ms = env_long("PLANNER_HTTP_CONNECT_TIMEOUT_MS", 10000, 1);
	o->timeout_ms = env_long("PLANNER_HTTP_TIMEOUT_MS", 120000, 1);
	o->stream_timeout_ms = env_long("PLANNER_HTTP_STREAM_TIMEOUT_MS", 30L * 60 * 1000, 1);
	o->stall_ms = env_long("PLANNER_HTTP_STALL_MS", 60000, 1000);
	o->retries = (int)env_long("PLANNER_HTTP_RETRIES", 3, 0);
	o->backoff_ms = env_long("PLANNER_HTTP_BACKOFF_MS", 1000, 0);
	o->max_wait_ms = env_long("PLANNER_HTTP_MAX_WAIT_MS", 60000, 0);
	o->max_body = (size_t)env_long("PLANNER_HTTP_MAX_BYTES", (long)HTTP_DEFAULT_MAX_BODY, 1);
	o->deadline_at = 0;
	o->deadline_s = 0;
}

static double mono_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void http_deadline_start(struct http_opts *o, long seconds)
{
	o->deadline_s = seconds > 0 ? seconds : 0;
	o->deadline_at = seconds > 0 ? mono_s() + (double)seconds : 0;
}

/* Milliseconds left before o's deadline (LONG_MAX without one; <= 0 when
 * it has passed). */
static long deadline_left_ms(const struct http_opts *o)
{
	if (o->deadline_at <= 0)
		return LONG_MAX;
	return (long)((o->deadline_at - mono_s()) * 1000.0);
}

/* The attempt's whole-transfer timeout: the request's own, cut to the
 * deadline. */
static long attempt_timeout_ms(const struct http_opts *o, const struct http_request *req)
{
	long own = req->sink ? o->stream_timeout_ms : o->timeout_ms, left = deadline_left_ms(o);
	return left < own ? (left > 1 ? left : 1) : own;
}

long http_retry_wait_ms(const struct http_opts *o, int attempt, long retry_after_s, unsigned *seed)
{
	long wait;
	if (retry_after_s > 0) {
		wait = retry_after_s > o->max_wait_ms / 1000 + 1 ? o->max_wait_ms
		                                                 : retry_after_s * 1000;
	} else {
		long base = o->backoff_ms;
		for (int i = 0; i < attempt && base < o->max_wait_ms; i++)
			base *= 2;
		/* Half fixed, half random: clients that failed together do not
		 * all come back in the same millisecond. */
		long half = base / 2;
		wait = half + (half > 0 ? (long)(rand_r(seed) % (unsigned long)(half + 1)) : 0);
	}
	return wait < o->max_wait_ms ? wait : o->max_wait_ms;
}

/* The largest power of two up to HTTP_STREAM_LOWAT that the rate fills
 * in a quarter of a second (HTTP_STREAM_LOWAT_WAIT_DIV), at least 1. A
 * slow link so never waits long for its mark: the stall check
 * (CURLOPT_LOW_SPEED_TIME) sees bytes as they come, and the mark changes
 * only when the rate doubles or halves. */
int http_lowat_mark(long long rate)
{
	int mark = HTTP_STREAM_LOWAT;
	while (mark > 1 && mark > rate / HTTP_STREAM_LOWAT_WAIT_DIV)
		mark >>= 1;
	return mark;
}

/* The mark for a body arriving at the rate seen so far. */
static int stream_lowat_for(CURL *h)
{
	curl_off_t rate = 0;
	if (curl_easy_getinfo(h, CURLINFO_SPEED_DOWNLOAD_T, &rate) != CURLE_OK)
		return 1;
	return http_lowat_mark((long long)rate);
}

/* Sets SO_RCVLOWAT for the rest of a streamed body (HTTP_STREAM_LOWAT):
 * the low mark while a MiB or more is to come, 1 for the tail, so poll()
 * always wakes for bytes the server will send. Only on Linux, whose TCP
 * poll also wakes when the receive window is nearly shut or memory is
 * short (tcp_epollin_ready), so a mark larger than what the sender may
 * send cannot stall the transfer; only for HTTP/1.x with a Content-Length
 * (an HTTP/2 sender waits on its own flow-control window; a chunked body's
 * length is not known). What is left is counted conservatively: the raw
 * bytes libcurl counted or the bytes handed to the sink, whichever is
 * more (decoding makes the second larger, never smaller). */
static void stream_lowat(struct transfer *t)
{
#if defined(__linux__) && defined(SO_RCVLOWAT)
	long ver = 0;
	if (t->lowat_off)
		return;
	if (!t->lowat && /* the first chunk: is this a body to set it for? */
	    (curl_easy_getinfo(t->h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &t->length) != CURLE_OK ||
	     t->length < 0 || curl_easy_getinfo(t->h, CURLINFO_HTTP_VERSION, &ver) != CURLE_OK ||
	     (ver != CURL_HTTP_VERSION_1_0 && ver != CURL_HTTP_VERSION_1_1) ||
	     t->fd == CURL_SOCKET_BAD)) {
		t->lowat_off = true;
		return;
	}
	curl_off_t got = 0;
	curl_easy_getinfo(t->h, CURLINFO_SIZE_DOWNLOAD_T, &got);
	if (got < t->fed)
		got = t->fed;
	int want = t->length - got >= HTTP_STREAM_LOWAT ? stream_lowat_for(t->h) : 1;
	if (want != t->lowat) {
		/* A failure leaves poll() as it was: slower, never stuck. */
		if (setsockopt(t->fd, SOL_SOCKET, SO_RCVLOWAT, &want, sizeof want) != 0)
			t->lowat_off = true;
		t->lowat = want;
	}
#else
	(void)t;
#endif
}

/* Records the socket libcurl opened, and forgets it when closed, so a
 * streamed body's SO_RCVLOWAT goes to the connection it arrives on (each
 * http_fetch has its own handle, one host, so at most one is open). When
 * IPv6 and IPv4 attempts race, the last socket opened may be the loser:
 * once it is closed no socket is known and no mark is set (slower, never
 * wrong). */
static int on_socket(void *ud, curl_socket_t fd, curlsocktype purpose)
{
	struct transfer *t = ud;
	if (purpose == CURLSOCKTYPE_IPCXN)
		t->fd = fd;
	return CURL_SOCKOPT_OK;
}

static int on_close(void *ud, curl_socket_t fd)
{
	struct transfer *t = ud;
	if (t->fd == fd)
		t->fd = CURL_SOCKET_BAD;
	return close(fd);
}

static size_t on_body(char *p, size_t size, size_t nmemb, void *ud)
{
	struct transfer *t = ud;
	size_t n = size * nmemb;
	if (t->req->sink) {
		t->fed += (curl_off_t)n;
		stream_lowat(t);
		return t->req->sink(t->req->ud, p, n, &t->sink_err) ? n : 0;
	}
	if (t->body->len + n > t->max_body) {
		t->too_big = true;
		return 0;
	}
	if (!buf_append(t->body, p, n)) {
		t->oom = true;
		return 0;
	}
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/* Transport errors worth another try: the network, not the request. */
static bool transient(CURLcode c)
{
	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
	case CURLE_BAD_CONTENT_ENCODING: /* a gzip stream cut short */
		return true;
	default:
		return false;
	}
}

static bool retry_status(long status)
{
	return status == 429 || (status >= 500 && status <= 599);
}

/* The URL up to its query, for messages: paths are safe to show. */
static void url_for_message(const char *url, char *out, size_t len)
{
	size_t n = strcspn(url, "?#");
	snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), url);
}

/* The request's header list (req->headers, plus a JSON Content-Type for a
 * POST) into *hdrs; false when out of memory. */
static bool build_headers(const struct http_request *req, struct curl_slist **hdrs)
{
	for (size_t i = 0; req->headers && req->headers[i]; i++) {
		struct curl_slist *s = curl_slist_append(*hdrs, req->headers[i]);
		if (!s)
			return false;
		*hdrs = s;
	}
	if (req->post) {
		struct curl_slist *s = curl_slist_append(*hdrs, "Content-Type: application/json");
		if (!s)
			return false;
		*hdrs = s;
	}
	return true;
}

/* Every option of the handle, set once for all attempts. */
static void set_options(CURL *h, const struct http_opts *o, const struct http_request *req,
                        struct curl_slist *hdrs, struct transfer *t, char *errbuf)
{
	if (req->post)
		curl_easy_setopt(h, CURLOPT_POSTFIELDS, req->post);
	curl_easy_setopt(h, CURLOPT_URL, req->url);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
	/* A redirect could carry a key header to another host: none are
	 * followed; a moved API is a PLANNER_<NAME>_URL away. */
	curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 1L);
	curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 2L);
	curl_easy_setopt(h, CURLOPT_USERAGENT, "planner/" PLANNER_VERSION);
	curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, ""); /* every encoding libcurl decodes */
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, o->connect_timeout_ms);
	if (req->sink) {
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, o->stream_timeout_ms);
		curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1024L);
		curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, o->stall_ms / 1000);
	} else {
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, o->timeout_ms);
		curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)o->max_body);
	}
	curl_easy_setopt(h, CURLOPT_BUFFERSIZE, req->sink ? HTTP_STREAM_BUFFER : HTTP_RECV_BUFFER);
	if (req->sink) {
		curl_easy_setopt(h, CURLOPT_SOCKOPTFUNCTION, on_socket);
		curl_easy_setopt(h, CURLOPT_SOCKOPTDATA, t);
		curl_easy_setopt(h, CURLOPT_CLOSESOCKETFUNCTION, on_close);
		curl_easy_setopt(h, CURLOPT_CLOSESOCKETDATA, t);
	}
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, t);
	curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
}

/* One attempt: clears what the last one left in resp and t, performs the
 * transfer and reads back its status and Content-Type. */
static CURLcode attempt_once(CURL *h, const struct http_request *req, struct http_response *resp,
                             struct transfer *t, char *errbuf)
{
	resp->body.len = 0;
	if (resp->body.data)
		resp->body.data[0] = '\0';
	resp->content_type[0] = '\0';
	resp->status = 0;
	t->too_big = false;
	t->oom = false;
	t->lowat = 0;
	t->lowat_off = false;
	t->fed = 0;
	errbuf[0] = '\0';
	if (req->reset)
		req->reset(req->ud);
	CURLcode c = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &resp->status);
	char *ct = NULL;
	if (curl_easy_getinfo(h, CURLINFO_CONTENT_TYPE, &ct) == CURLE_OK && ct)
		snprintf(resp->content_type, sizeof resp->content_type, "%s", ct);
	return c;
}

/* The error of the last attempt (number attempt, from 0), which ended in c
 * with resp->status, into *err; returns its code. */
static int fail_message(const struct http_opts *o, const struct transfer *t, CURLcode c,
                        const struct http_response *resp, int attempt, const char *where,
                        const char *errbuf, char **err)
{
	const char *s = attempt ? "s" : "";
	/* A body that could not be buffered is libcurl's write error: the
	 * message stays libcurl's, the cause is the system's. */
	int code = t->oom || c == CURLE_OUT_OF_MEMORY ? PLANNER_ESYS : PLANNER_ENET;
	if (t->sink_err)
		return set_err(err, PLANNER_ENET, "%s", t->sink_err);
	if ((t->too_big || c == CURLE_FILESIZE_EXCEEDED) && o->max_body >= 1 << 20)
		return set_err(err, PLANNER_ENET,
		               "%s: response larger than %zu MiB (PLANNER_HTTP_MAX_BYTES)", where,
		               o->max_body >> 20);
	if (t->too_big || c == CURLE_FILESIZE_EXCEEDED) /* a cap set for a test */
		return set_err(err, PLANNER_ENET, "%s: response larger than %zu bytes", where,
		               o->max_body);
	if (c == CURLE_OK)
		return set_err(err, PLANNER_ENET, "%s: HTTP %ld after %d attempt%s", where,
		               resp->status, attempt + 1, s);
	if (c == CURLE_OPERATION_TIMEDOUT)
		/* libcurl words it differently by phase ("timed out",
		 * "Connection timeout after"): say it one way. */
		return set_err(err, PLANNER_ENET, "%s: timed out (%s) after %d attempt%s", where,
		               errbuf[0] ? errbuf : curl_easy_strerror(c), attempt + 1, s);
	return set_err(err, code, "%s: %s after %d attempt%s", where,
	               errbuf[0] ? errbuf : curl_easy_strerror(c), attempt + 1, s);
}

/* The provider's overall deadline passed (or would, waiting to retry)
 * after `attempts` attempts. */
static int deadline_message(const struct http_opts *o, int attempts, const char *where,
                            char **err)
{
	return set_err(err, PLANNER_ENET,
	               "%s: the provider's deadline of %ld s (refresh --timeout) passed after %d "
	               "attempt%s",
	               where, o->deadline_s, attempts, attempts == 1 ? "" : "s");
}

int http_fetch(const struct http_opts *o, const struct http_request *req,
               struct http_response *resp, char **err)
{
	char errbuf[CURL_ERROR_SIZE], where[200];
	struct curl_slist *hdrs = NULL;
	struct transfer t = {.req = req, .body = &resp->body, .max_body = o->max_body};
	unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
	int rc = PLANNER_ENET;
	CURL *h = curl_easy_init();
	memset(resp, 0, sizeof *resp);
	url_for_message(req->url, where, sizeof where);
	if (!h)
		return set_err(err, PLANNER_ENET, "cannot start an HTTP client");
	if (!build_headers(req, &hdrs)) {
		rc = set_err(err, PLANNER_ESYS, "out of memory");
		goto out;
	}
	t.h = h;
	t.fd = CURL_SOCKET_BAD;
	set_options(h, o, req, hdrs, &t, errbuf);
	for (int attempt = 0;; attempt++) {
		if (deadline_left_ms(o) <= 0) {
			rc = deadline_message(o, attempt, where, err);
			break;
		}
		curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, attempt_timeout_ms(o, req));
		CURLcode c = attempt_once(h, req, resp, &t, errbuf);
		resp->attempts = attempt + 1;
		if (c == CURLE_OK && resp->status >= 200 && resp->status <= 299) {
			rc = PLANNER_OK;
			break;
		}
		bool again = c == CURLE_OK ? retry_status(resp->status) : transient(c);
		if (c == CURLE_OPERATION_TIMEDOUT && deadline_left_ms(o) <= 0) {
			rc = deadline_message(o, attempt + 1, where, err);
			break;
		}
		if (!again || attempt >= o->retries) {
			rc = fail_message(o, &t, c, resp, attempt, where, errbuf, err);
			break;
		}
		curl_off_t after = 0;
		if (c == CURLE_OK)
			curl_easy_getinfo(h, CURLINFO_RETRY_AFTER, &after);
		long wait = http_retry_wait_ms(o, attempt, (long)after, &seed);
		if (wait >= deadline_left_ms(o)) {
			rc = deadline_message(o, attempt + 1, where, err);
			break;
		}
		sleep_ms(wait);
	}
out:
	free(t.sink_err);
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	return rc;
}

char *http_escape(const char *s)
{
	/* libcurl accepts a NULL handle here since 7.82 (Debian 12 has 7.88). */
	char *e = curl_easy_escape(NULL, s, 0);
	char *copy = e ? strdup(e) : NULL;
	curl_free(e);
	return copy;
}

void http_response_free(struct http_response *resp)
{
	if (resp)
		buf_free(&resp->body);
}

int http_paged(const struct http_opts *o, const char *first_url, const char *const *headers,
               http_page_fn page_fn, void *ud, int max_pages, long *status, char **err)
{
	struct http_request first = {.url = first_url, .headers = headers};
	return http_paged_stream(o, &first, page_fn, ud, max_pages, status, err);
}

int http_paged_stream(const struct http_opts *o, const struct http_request *first,
                      http_page_fn page_fn, void *ud, int max_pages, long *status, char **err)
{
	char *url = strdup(first->url);
	int rc = PLANNER_OK;
	if (!url)
		return set_err(err, PLANNER_ESYS, "out of memory");
	for (int page = 1; url; page++) {
		if (page > max_pages) {
			rc = set_err(err, PLANNER_ENET, "more than %d pages; stopped", max_pages);
			break;
		}
		struct http_request req = *first;
		req.url = url;
		struct http_response resp;
		char *next = NULL;
		rc = http_fetch(o, &req, &resp, err);
		*status = resp.status;
		if (rc == PLANNER_OK) {
			rc = page_fn(ud, resp.body.data ? resp.body.data : "", resp.body.len, &next,
			             err);
			if (rc != PLANNER_OK && page > 1) {
				char *inner = err && *err ? *err : NULL;
				if (err)
					*err = NULL;
				rc = set_err(err, rc, "page %d: %s", page, inner ? inner : "?");
				free(inner);
			}
		}
		http_response_free(&resp);
		if (rc == PLANNER_OK && next && !strcmp(next, url)) {
			rc = set_err(err, PLANNER_ENET, "page %d links to itself", page);
		}
		free(url);
		url = NULL;
		if (rc == PLANNER_OK)
			url = next;
		else
			free(next);
	}
	free(url);
	return rc;
}
