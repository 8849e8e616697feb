/* providers_util.h — what the provider suites share
 * (tests/check_providers*.c): a fixture parsed with an adapter's parse,
 * rows looked up in the result, and a sink that counts what it is handed. */
#ifndef PLANNER_TESTS_PROVIDERS_UTIL_H
#define PLANNER_TESTS_PROVIDERS_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "provider.h"
#include "store.h"
#include "testutil.h"

/* Parses a fixture file with p's parse into n; returns the parse status. */
int parse_file(const struct provider *p, const char *file, struct norm *n, char **next, char **err);
/* The fixture server (tests/fixture_server.py) the feed suites fetch
 * from, and its start and stop for tcase_add_(un)checked_fixture. */
extern struct test_fixture feed_server;
void feed_server_start(void);
void feed_server_stop(void);

/* Parses body (a string) with p's parse into n; returns the parse status. */
int parse_body(const struct provider *p, const char *body, struct norm *n, char **next, char **err);
/* Runs p's fetch, with no retries, against `scenario` of the fixture
 * server on port into n, with `key` (NULL: none) and the settings opts
 * (n_opts of them); returns the fetch status. */
int fetch_scenario(const struct provider *p, int port, const char *scenario, const char *key,
                   const struct provider_option *opts, size_t n_opts, struct norm *n, char **err);
/* Asserts that p's parse takes body as the provider's error: PLANNER_ENET,
 * with `says` in the message ("cloudrift says: ..."). */
void ck_error_body(const struct provider *p, const char *body, const char *says);
/* The first offer of that name and region in n, spot or not, or NULL. */
const struct offer *find_first(const struct norm *n, const char *offer, const char *region);
/* How many offers of n have that name. */
size_t count_named(const struct norm *n, const char *offer);
/* The offer of that name, region and spot flag in n, or NULL. */
const struct offer *find(const struct norm *n, const char *offer, const char *region, bool spot);
/* The API row of that model in n, or NULL. */
const struct api_price *find_api(const struct norm *n, const char *model);
/* Whether an unknown GPU name of n starts with prefix. */
bool unknown_has(const struct norm *n, const char *prefix);

#define CLOSE(a, b)                                                                                \
	ck_assert_msg(fabs((a) - (b)) < 1e-9, "%.10g != %.10g", (double)(a), (double)(b))

/* A sink that counts the rows it is handed and its largest batch. */
struct counting_sink {
	size_t rows, largest;
};

/* A norm_sink's put that counts into a struct counting_sink. */
int count_put(void *ud, const struct offer *rows, size_t n, char **err);

#endif
