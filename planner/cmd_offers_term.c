/* cmd_offers_term.c — `planner offers --term 1y|3y` (cmd_offers.c): the
 * commitments of the store (offer_terms, issue 29) kept by the offer
 * filter, converted from each row's currency, ordered by the converted
 * effective hourly price and printed as a table, JSON or CSV. The command
 * layer only. */
#include "cmd_offers.h"

#include <cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fx.h"
#include "provider.h"
#include "regions.h"
#include "util.h"

/* Whether the filter keeps t (as store_offers' WHERE keeps an offer). */
static bool term_kept(const struct offer_term *t, const struct offer_filter *f)
{
	const struct offer *o = &t->o;
	if (f->spot == 1) /* a commitment is never interruptible */
		return false;
	if ((f->gpu && strcmp(o->gpu, f->gpu)) || (f->provider && strcmp(o->provider, f->provider)))
		return false;
	if (o->vram_gib < f->min_vram_gib)
		return false;
	return !f->region || !*f->region ||
	       regions_match(f->region, o->region, o->country, o->region_group);
}

/* Cheapest converted effective price first, then the store's key. */
static int term_order(const void *pa, const void *pb)
{
	const struct offer_term *a = pa, *b = pb;
	int c = fx_offer_order(&a->o, &b->o);
	if (c)
		return c;
	if ((c = strcmp(a->term, b->term)))
		return c;
	return strcmp(a->option, b->option);
}

/* Row i of the JSON array: the offer's keys, then its term. */
static int term_json(void *ud, size_t i, cJSON **out, char **err)
{
	const struct offer_term *t = (const struct offer_term *)ud + i;
	int rc = offers_offer_json((void *)&t->o, 0, out, err);
	if (rc == PLANNER_OK) {
		cJSON_AddStringToObject(*out, "term", t->term);
		cJSON_AddStringToObject(*out, "option", t->option);
		cJSON_AddNumberToObject(*out, "upfront", round_to(t->upfront, 2));
	}
	return rc;
}

static int print_terms(const struct cli *c, const struct offer_term *t, size_t n, size_t limit,
                       const char *currency)
{
	if (limit == 0 || limit > n)
		limit = n;
	if (c->format == FORMAT_JSON) {
		cJSON *arr = cJSON_CreateArray();
		return cli_print_json_items(arr, arr, limit, term_json, (void *)t);
	}
	if (c->format == FORMAT_CSV) {
		fputs("provider,offer,gpu,gpu_count,term,option,price_per_hour,upfront,currency,"
		      "region,converted_price_per_hour,converted_currency\r\n",
		      stdout);
		for (size_t i = 0; i < limit; i++) {
			const struct offer *o = &t[i].o;
			csv_field(stdout, o->provider);
			putchar(',');
			csv_field(stdout, o->offer);
			putchar(',');
			csv_field(stdout, o->gpu);
			printf(",%d,%s,", o->gpu_count, t[i].term);
			csv_field(stdout, t[i].option);
			printf(",%.4f,%.2f,%s,", o->price_published, t[i].upfront,
			       o->currency_published);
			csv_field(stdout, o->region);
			printf(",%.4f,%s\r\n", o->price_per_hour, o->currency);
		}
		return PLANNER_OK;
	}
	char per_h[16];
	snprintf(per_h, sizeof per_h, "%s/h", currency);
	printf("%-10s %-26s %-12s %4s %-4s %-27s %9s %10s %-3s %s\n", "provider", "offer", "gpu",
	       "gpus", "term", "paid", per_h, "upfront", "cur", "region");
	for (size_t i = 0; i < limit; i++) {
		const struct offer *o = &t[i].o;
		char offer[sizeof o->offer], region[sizeof o->region], option[sizeof t->option];
		printf("%-10.10s %-26.26s %-12.12s %4d %-4s %-27.27s %9.3f %10.0f %-3s %s\n",
		       o->provider, cli_safe(offer, sizeof offer, o->offer), o->gpu, o->gpu_count,
		       t[i].term,
		       cli_safe(option, sizeof option, t[i].option[0] ? t[i].option : "-"),
		       o->price_per_hour, t[i].upfront, o->currency_published,
		       cli_safe(region, sizeof region, o->region));
	}
	printf("(%s/h: the effective hourly price over the term, its upfront spread over every "
	       "hour; upfront in cur)\n",
	       currency);
	if (limit < n)
		printf("(%zu more; --limit 0 shows all)\n", n - limit);
	return PLANNER_OK;
}

int offers_term_list(const struct cli *c, struct store *st, const char *term,
                     const struct offer_filter *f, const char *currency, size_t limit)
{
	struct offer_term *rows = NULL;
	size_t n = 0, kept = 0, dropped = 0;
	char *err = NULL;
	int rc = store_read_terms(st, term, &rows, &n, &err);
	if (rc != PLANNER_OK) {
		errorf("%s", err ? err : "cannot read the commitments");
		free(err);
		return rc;
	}
	for (size_t i = 0; i < n; i++) {
		struct offer *o = &rows[i].o;
		double rate;
		if (!term_kept(&rows[i], f))
			continue;
		if (!fx_rate(c->ref->fx, o->currency, currency, &rate)) {
			dropped++;
			continue;
		}
		o->price_published = o->price_per_hour;
		snprintf(o->currency_published, sizeof o->currency_published, "%s", o->currency);
		o->price_per_hour *= rate;
		snprintf(o->currency, sizeof o->currency, "%s", currency);
		if (f->max_price > 0 && o->price_per_hour > f->max_price)
			continue;
		rows[kept++] = rows[i];
	}
	if (kept > 1) /* rows is NULL when the store holds none */
		qsort(rows, kept, sizeof *rows, term_order);
	if (dropped && !c->quiet)
		fprintf(stderr,
		        "planner: note: %zu commitment%s left out: no exchange rate for %s\n",
		        dropped, dropped == 1 ? "" : "s", currency);
	if (!kept) {
		/* the feeds that carry commitments, from the adapters themselves */
		char feeds[128] = "";
		size_t at = 0;
		for (size_t i = 0; provider_list[i]; i++)
			if (provider_list[i]->terms && at < sizeof feeds)
				at += (size_t)snprintf(feeds + at, sizeof feeds - at, "%s%s",
				                       at ? "," : "", provider_list[i]->name);
		fprintf(
		    stderr,
		    "0 %s commitments match%s%s (%zu in the store); `planner refresh --provider "
		    "%s` reads the commitment prices of their feeds\n",
		    term, f->region ? " in " : "", f->region ? f->region : "", n, feeds);
	}
	rc = print_terms(c, rows, kept, limit, currency);
	free(rows);
	return rc;
}
