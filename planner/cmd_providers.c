/* cmd_providers.c — `planner providers`: each adapter and the exchange
 * rates step (ecb), its kind, the currency it publishes in, whether its key
 * is set, its last good refresh, how many rows it holds and whether they
 * are stale. */
#include <cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "provider.h"

/* One line of the listing: an adapter, a database row, or both. */
struct listing {
	const struct provider *p;   /* NULL for rows no adapter owns */
	struct provider_state s;    /* zeroed when the database has none */
	bool key_set;
	bool stale;
};

/* Stale: the last refresh failed, or the rows are the bundled snapshot's. */
static bool is_stale(const struct provider_state *s)
{
	return !strcmp(s->last_status, "failed") || s->from_snapshot;
}

/* "2026-08-11 (112d ago)": the date compare names for the same rows, and
 * its age beside it (issue 26: an age alone read as another date). */
static void dated_age(const char *iso, char *buf, size_t len)
{
	long long t = iso[0] ? iso_to_epoch(iso) : -1;
	if (t < 0) {
		snprintf(buf, len, "never");
		return;
	}
	long long d = (long long)time(NULL) - t;
	if (d < 0)
		d = 0;
	if (d < 3600)
		snprintf(buf, len, "%.10s (%lldm ago)", iso, d / 60);
	else if (d < 172800)
		snprintf(buf, len, "%.10s (%lldh ago)", iso, d / 3600);
	else
		snprintf(buf, len, "%.10s (%lldd ago)", iso, d / 86400);
}

/* The currency the feed publishes in; "-" for rows no adapter owns. */
static const char *currency_of(const struct listing *l)
{
	return !l->p ? "-" : l->p->currency ? l->p->currency : "USD";
}

static int print_json(const struct listing *l, size_t n)
{
	cJSON *arr = cJSON_CreateArray();
	for (size_t i = 0; i < n; i++) {
		cJSON *x = cJSON_CreateObject();
		const struct provider_state *s = &l[i].s;
		cJSON_AddStringToObject(x, "provider", s->name);
		cJSON_AddStringToObject(x, "kind", s->kind);
		cJSON_AddStringToObject(x, "currency", currency_of(&l[i]));
		cJSON_AddNumberToObject(x, "rows", (double)s->rows);
		if (s->last_good[0])
			cJSON_AddStringToObject(x, "last_good", s->last_good);
		else
			cJSON_AddNullToObject(x, "last_good");
		if (s->prices_as_of[0])
			cJSON_AddStringToObject(x, "prices_as_of", s->prices_as_of);
		else
			cJSON_AddNullToObject(x, "prices_as_of");
		if (s->last_attempt[0])
			cJSON_AddStringToObject(x, "last_attempt", s->last_attempt);
		else
			cJSON_AddNullToObject(x, "last_attempt");
		cJSON_AddStringToObject(x, "last_status", s->last_status);
		if (s->last_error[0])
			cJSON_AddStringToObject(x, "last_error", s->last_error);
		cJSON_AddBoolToObject(x, "stale", l[i].stale);
		cJSON_AddBoolToObject(x, "from_snapshot", s->from_snapshot);
		const char *api = provider_api_feed(s->name);
		if (api && strcmp(api, s->name))
			cJSON_AddStringToObject(x, "api_feed", api);
		if (l[i].p && l[i].p->retired) {
			cJSON *r = cJSON_AddObjectToObject(x, "retired");
			cJSON_AddStringToObject(r, "date", l[i].p->retired);
			cJSON_AddStringToObject(r, "reason", l[i].p->retired_why);
			cJSON_AddBoolToObject(r, "confirmed", l[i].p->retired_confirmed);
		}
		if (l[i].p && l[i].p->key_env) {
			cJSON_AddStringToObject(x, "key_env", l[i].p->key_env);
			cJSON_AddBoolToObject(x, "key_set", l[i].key_set);
			cJSON_AddBoolToObject(x, "key_required", !l[i].p->key_optional);
		}
		cJSON_AddItemToArray(arr, x);
	}
	return cli_print_json(arr);
}

static void print_table(const struct listing *l, size_t n)
{
	int w = 11; /* as wide as the longest name ("digitalocean") */
	for (size_t i = 0; i < n; i++)
		w = (int)strlen(l[i].s.name) > w ? (int)strlen(l[i].s.name) : w;
	printf("%-*s %-6s %-4s %6s %-21s %-9s %-5s %s\n", w, "provider", "kind", "cur", "rows",
	       "prices as of", "status", "stale", "key");
	for (size_t i = 0; i < n; i++) {
		const struct provider_state *s = &l[i].s;
		char when[40], key[48] = "-", err[sizeof s->last_error];
		dated_age(s->prices_as_of, when, sizeof when);
		if (l[i].p && l[i].p->key_env)
			snprintf(key, sizeof key, "%s %s%s", l[i].p->key_env,
				 l[i].key_set ? "set" : "unset",
				 l[i].p->key_optional && !l[i].key_set ? " (optional)" : "");
		const char *retired = l[i].p ? l[i].p->retired : NULL;
		printf("%-*s %-6s %-4s %6ld %-21s %-9s %-5s %s\n", w, s->name, s->kind,
		       currency_of(&l[i]), s->rows, when,
		       retired            ? "retired"
		       : s->from_snapshot ? "snapshot"
		       : s->last_status[0] ? s->last_status
		                          : "never",
		       l[i].stale ? "yes" : "", key);
		if (retired)
			printf("%*s   retired %s%s: %s\n", w, "", retired,
			       l[i].p->retired_confirmed ? "" : " (unconfirmed)", l[i].p->retired_why);
		const char *api = provider_api_feed(s->name);
		if (api && strcmp(api, s->name))
			printf("%*s   api prices: %s (refresh --provider %s runs both)\n", w, "",
			       api, s->name);
		if (!strcmp(s->last_status, "failed") && s->last_error[0])
			printf("%*s   last error: %s\n", w, "",
			       cli_safe(err, sizeof err, s->last_error));
	}
}

static int exec_providers(struct cli *c, int argc, char **argv)
{
	int rc = cli_common_options_only(c, argc, argv);
	if (rc)
		return rc;
	struct store *st = cli_store(c, &rc);
	if (!st)
		return rc;
	struct provider_state *ps = NULL;
	size_t n_ps = 0, n = 0, n_adapters = 0;
	char *err = NULL;
	if ((rc = store_providers(st, &ps, &n_ps, &err)) != PLANNER_OK) {
		errorf("%s", err ? err : "cannot read providers");
		free(err);
		return rc;
	}
	while (provider_list[n_adapters])
		n_adapters++;
	n_adapters++; /* the exchange rates step, last */
	struct listing *l = calloc(n_adapters + n_ps + 1, sizeof *l);
	if (!l) {
		free(ps);
		errorf("out of memory");
		return PLANNER_ESYS;
	}
	for (size_t i = 0; i < n_adapters; i++, n++) {
		const struct provider *p = i + 1 < n_adapters ? provider_list[i] : &provider_ecb;
		l[n].p = p;
		snprintf(l[n].s.name, sizeof l[n].s.name, "%s", p->name);
		snprintf(l[n].s.kind, sizeof l[n].s.kind, "%s",
			 p->kind == PROVIDER_API  ? "api"
			 : p->kind == PROVIDER_FX ? "fx"
						  : "rented");
		for (size_t k = 0; k < n_ps; k++)
			if (!strcmp(ps[k].name, p->name))
				l[n].s = ps[k];
		const char *key = p->key_env ? getenv(p->key_env) : NULL;
		l[n].key_set = key && *key;
	}
	for (size_t k = 0; k < n_ps; k++)
		if (!provider_find(ps[k].name) && strcmp(ps[k].name, provider_ecb.name))
			l[n++].s = ps[k];
	for (size_t i = 0; i < n; i++)
		l[i].stale = is_stale(&l[i].s);
	rc = PLANNER_OK;
	if (c->format == FORMAT_JSON)
		rc = print_json(l, n);
	else
		print_table(l, n);
	free(l);
	free(ps);
	return rc;
}

const struct cmd_entry cmd_providers_entry = {
	.name = "providers",
	.args = "[--format table|json]",
	.summary = "each price feed: last good refresh, rows held, staleness, key",
	.help = "Lists every provider adapter with the date of its prices, the rows it holds,\n"
		"the status of the last attempt, whether the rows are stale (the last\n"
		"refresh failed, or they are the bundled snapshot) and whether its key is\n"
		"set in the environment (never the key itself). The date is that of its\n"
		"oldest row, the one compare and report name for the same prices (after a\n"
		"refresh, the refresh's; for the bundled snapshot, its oldest entry), with\n"
		"its age beside it; the JSON has it as prices_as_of, beside last_good.\n"
		"A feed whose API is gone or no longer kept by anyone is marked retired,\n"
		"with the date of the evidence and what it is (JSON: retired {date,\n"
		"reason, confirmed}); refresh skips it and refuses to run it by name.\n\n"
		"example:\n  planner providers --format json\n",
	.exec = exec_providers,
};
