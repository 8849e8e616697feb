/* providers_util.c — the helpers of providers_util.h. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http.h"
#include "providers_util.h"
#include "testutil.h"
#include "util.h"

/* Parses a fixture file with p's parse into n; returns the parse status. */
int parse_file(const struct provider *p, const char *file, struct norm *n, char **next, char **err)
{
	char *path = NULL;
	size_t len = 0;
	char *body;
	norm_init(n, test_ref(), p->name);
	path = malloc(strlen(file) + 40);
	strcpy(path, "tests/fixtures/providers/");
	strcat(path, file);
	body = read_file(path, &len);
	ck_assert_msg(body != NULL, "cannot read %s", path);
	int rc = p->parse(n, body, len, next, err);
	free(body);
	free(path);
	return rc;
}

struct test_fixture feed_server;

void feed_server_start(void)
{
	test_fixture_start(&feed_server, 2.0);
}

void feed_server_stop(void)
{
	test_fixture_stop(&feed_server);
}

int parse_body(const struct provider *p, const char *body, struct norm *n, char **next, char **err)
{
	norm_init(n, test_ref(), p->name);
	return p->parse(n, body, strlen(body), next, err);
}

int fetch_scenario(const struct provider *p, int port, const char *scenario, const char *key,
                   const struct provider_option *opts, size_t n_opts, struct norm *n, char **err)
{
	struct http_opts o;
	char base[128];
	http_opts_init(&o);
	o.retries = 0;
	snprintf(base, sizeof base, "http://127.0.0.1:%d/%s", port, scenario);
	norm_init(n, test_ref(), p->name);
	struct fetch_ctx fx = {.p = p,
	                       .http = &o,
	                       .base = base,
	                       .key = key,
	                       .options = opts,
	                       .n_options = n_opts,
	                       .out = n};
	return p->fetch(&fx, err);
}

void ck_error_body(const struct provider *p, const char *body, const char *says)
{
	struct norm n;
	char *err = NULL;
	ck_assert_int_eq(parse_body(p, body, &n, NULL, &err), PLANNER_ENET);
	ck_assert_msg(err && strstr(err, says), "%s: %s", p->name, err ? err : "(no message)");
	free(err);
	norm_free(&n);
}

const struct offer *find_first(const struct norm *n, const char *offer, const char *region)
{
	for (size_t i = 0; i < n->n_offers; i++)
		if (!strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region))
			return &n->offers[i];
	return NULL;
}

size_t count_named(const struct norm *n, const char *offer)
{
	size_t k = 0;
	for (size_t i = 0; i < n->n_offers; i++)
		k += !strcmp(n->offers[i].offer, offer);
	return k;
}

const struct offer *find(const struct norm *n, const char *offer, const char *region, bool spot)
{
	for (size_t i = 0; i < n->n_offers; i++)
		if (!strcmp(n->offers[i].offer, offer) && !strcmp(n->offers[i].region, region) &&
		    n->offers[i].spot == spot)
			return &n->offers[i];
	return NULL;
}

const struct api_price *find_api(const struct norm *n, const char *model)
{
	for (size_t i = 0; i < n->n_apis; i++)
		if (!strcmp(n->apis[i].model, model))
			return &n->apis[i];
	return NULL;
}

bool unknown_has(const struct norm *n, const char *prefix)
{
	for (size_t i = 0; i < n->n_unknown; i++)
		if (!strncmp(n->unknown[i], prefix, strlen(prefix)))
			return true;
	return false;
}

int count_put(void *ud, const struct offer *rows, size_t n, char **err)
{
	struct counting_sink *c = ud;
	(void)rows;
	(void)err;
	c->rows += n;
	c->largest = n > c->largest ? n : c->largest;
	return PLANNER_OK;
}
